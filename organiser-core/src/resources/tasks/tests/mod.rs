//! Unit tests of the task rules with a movable clock: views, counts,
//! expiry, the today set, restore windows and placement.

use std::sync::Arc;

use jiff::civil::Date;

use super::*;
use crate::clock::ManualClock;
use crate::config::Options;
use crate::input::Field;
use crate::list::Query;
use crate::{Auth, Organiser, OwnerChange, TaskListInput};

fn org_at(now: &str, zone: &str) -> (Organiser, ManualClock) {
    let clock = ManualClock::at(now);
    let org = Organiser::in_memory_with(Options {
        clock: Arc::new(clock.clone()),
        ..Options::default()
    });
    org.account()
        .change_me(OwnerChange {
            time_zone: Some(zone.into()),
            ..OwnerChange::default()
        })
        .unwrap();
    (org, clock)
}

fn date(s: &str) -> Date {
    s.parse().unwrap()
}

/// A task built from a compact description.
struct T<'a> {
    title: &'a str,
    start: Option<&'a str>,
    deadline: Option<&'a str>,
    expires: Option<&'a str>,
    list: Option<Id>,
    status: Option<TaskStatus>,
}

const fn t(title: &str) -> T<'_> {
    T {
        title,
        start: None,
        deadline: None,
        expires: None,
        list: None,
        status: None,
    }
}

impl<'a> T<'a> {
    fn start(mut self, d: &'a str) -> Self {
        self.start = Some(d);
        self
    }
    fn deadline(mut self, d: &'a str) -> Self {
        self.deadline = Some(d);
        self
    }
    fn expires(mut self, d: &'a str) -> Self {
        self.expires = Some(d);
        self
    }
    fn list(mut self, id: Id) -> Self {
        self.list = Some(id);
        self
    }
    fn status(mut self, s: TaskStatus) -> Self {
        self.status = Some(s);
        self
    }
    fn make(self, org: &Organiser) -> Task {
        let to_field = |d: Option<&str>| d.map(|d| Field::Value(date(d))).unwrap_or_default();
        org.tasks()
            .create(TaskInput {
                title: Some(self.title.into()),
                start_on: to_field(self.start),
                deadline_on: to_field(self.deadline),
                expires_on: to_field(self.expires),
                task_list_id: self.list.map(Field::Value).unwrap_or_default(),
                status: self.status,
                ..TaskInput::default()
            })
            .unwrap()
    }
}

fn list(org: &Organiser, name: &str) -> Id {
    org.task_lists()
        .create(TaskListInput {
            name: Some(name.into()),
            ..TaskListInput::default()
        })
        .unwrap()
        .id
}

fn titles(org: &Organiser, query: &str) -> Vec<String> {
    let q = TaskQuery::parse(&Query::parse(&format!("{query}&limit=100")).unwrap()).unwrap();
    org.tasks()
        .list(&q)
        .unwrap()
        .items
        .into_iter()
        .map(|t| t.title)
        .collect()
}

fn total(org: &Organiser, query: &str) -> u64 {
    let q =
        TaskQuery::parse(&Query::parse(&format!("{query}&count=true&limit=1")).unwrap()).unwrap();
    org.tasks().list(&q).unwrap().total_count.unwrap()
}

fn counts(org: &Organiser, query: &str) -> TaskCounts {
    org.tasks()
        .counts(&TaskCountsQuery::parse(&Query::parse(query).unwrap()).unwrap())
        .unwrap()
}

/// Today is 2026-03-10 (UTC).
fn sample() -> (Organiser, ManualClock, Id) {
    let (org, clock) = org_at("2026-03-10T12:00:00Z", "UTC");
    let work = list(&org, "Work");
    // Created oldest first; each new task goes to the top of its home.
    t("inbox undated").make(&org);
    t("inbox started").start("2026-03-09").make(&org);
    t("work overdue")
        .deadline("2026-03-08")
        .list(work)
        .make(&org);
    t("work due today")
        .deadline("2026-03-10")
        .list(work)
        .make(&org);
    t("work due in 14")
        .deadline("2026-03-24")
        .list(work)
        .make(&org);
    t("work due in 15")
        .deadline("2026-03-25")
        .list(work)
        .make(&org);
    t("work later").start("2026-03-12").list(work).make(&org);
    t("work someday").list(work).make(&org);
    t("work started, due later")
        .start("2026-03-01")
        .deadline("2026-03-20")
        .list(work)
        .make(&org);
    t("inbox planned").start("2026-03-15").make(&org);
    t("work done")
        .list(work)
        .status(TaskStatus::Completed)
        .make(&org);
    t("work dropped")
        .list(work)
        .status(TaskStatus::WontDo)
        .make(&org);
    (org, clock, work)
}

#[test]
fn each_view_lists_exactly_its_tasks() {
    let (org, _, _) = sample();
    let cases: &[(&str, &[&str])] = &[
        ("view=today", &["work started, due later", "inbox started"]),
        ("view=planned", &["work later"]),
        (
            "view=one_day",
            &[
                "work someday",
                "work due in 15",
                "work due in 14",
                "work due today",
                "work overdue",
            ],
        ),
        (
            "view=due_soon",
            &[
                "work overdue",
                "work due today",
                "work started, due later",
                "work due in 14",
            ],
        ),
        (
            "view=due_not_today",
            &["work overdue", "work due today", "work due in 14"],
        ),
        (
            "view=today_queue",
            &[
                "work overdue",
                "work due today",
                "work started, due later",
                "inbox started",
            ],
        ),
        (
            "view=overview",
            // Position across homes, ties by id (created first).
            &[
                "work started, due later",
                "work due in 14",
                "inbox planned",
                "inbox started",
                "work due today",
                "inbox undated",
                "work overdue",
            ],
        ),
        ("view=logbook", &["work dropped", "work done"]),
    ];
    for (query, expected) in cases {
        assert_eq!(titles(&org, query), *expected, "{query}");
    }
}

#[test]
fn orders_directions_and_status_filters() {
    let (org, _, work) = sample();
    assert_eq!(
        titles(&org, "view=planned&order=start_on&direction=desc"),
        ["work later"],
    );
    assert_eq!(
        titles(&org, "view=due_soon&order=created_at"),
        [
            "work overdue",
            "work due today",
            "work due in 14",
            "work started, due later"
        ],
    );
    assert_eq!(
        titles(&org, "view=logbook&direction=asc"),
        ["work done", "work dropped"]
    );
    assert_eq!(
        titles(&org, "status=completed&order=completed_at"),
        ["work done"]
    );
    assert_eq!(
        titles(&org, "status=completed,wont_do&order=id"),
        ["work done", "work dropped"]
    );
    let in_list = titles(&org, &format!("task_list_id={work}&status=open&order=id"));
    assert_eq!(in_list.len(), 7);
    assert_eq!(in_list[0], "work overdue");
    // The list's manual order: newest open task on top, closed ones at the bottom.
    let manual = titles(&org, &format!("task_list_id={work}"));
    assert_eq!(
        manual.first().map(String::as_str),
        Some("work started, due later")
    );
    assert_eq!(&manual[manual.len() - 2..], ["work done", "work dropped"]);
}

#[test]
fn refused_combinations_are_400() {
    let id = "01ARZ3NDEKTSV4RRFFQ69G5FAV";
    for query in [
        "view=today&status=open".to_owned(),
        "view=later".to_owned(),
        "status=open,done".to_owned(),
        "status=".to_owned(),
        "order=start_on".to_owned(),
        "view=today&order=deadline_on".to_owned(),
        "view=due_soon&order=start_on".to_owned(),
        "view=planned&order=closed_at".to_owned(),
        "order=closed_at".to_owned(),
        "order=completed_at".to_owned(),
        "status=completed,open&order=completed_at".to_owned(),
        "view=logbook&order=completed_at".to_owned(),
        "order=title".to_owned(),
        "inbox=false".to_owned(),
        "inbox=1".to_owned(),
        format!("inbox=true&task_list_id={id}"),
        format!("task_list_id={id}&project_id={id}"),
        "task_list_id=nope".to_owned(),
        "person_id=123".to_owned(),
        "view=today&updated_since=2026-01-01T00:00:00Z&order=position".to_owned(),
    ] {
        let err = TaskQuery::parse(&Query::parse(&query).unwrap()).unwrap_err();
        assert_eq!(
            (err.status(), err.code()),
            (400, "invalid_parameter"),
            "{query}"
        );
    }
}

#[test]
fn counts_match_their_listings() {
    let (org, _, work) = sample();
    let c = counts(&org, "");
    assert_eq!(c.inbox, total(&org, "inbox=true&status=open"));
    assert_eq!(c.today, total(&org, "view=today"));
    assert_eq!(c.due_soon, total(&org, "view=due_soon"));
    assert_eq!(c.overdue, 1);
    assert_eq!(
        c.task_lists,
        vec![TaskListCount {
            id: work,
            open: total(&org, &format!("task_list_id={work}&status=open"))
        }]
    );
    assert_eq!(c.page, None);
    for view in ["overview", "today", "planned", "one_day"] {
        let page = counts(&org, &format!("view={view}")).page.unwrap();
        assert_eq!(page.open, total(&org, &format!("view={view}")), "{view}");
    }
    let page = counts(&org, &format!("task_list_id={work}")).page.unwrap();
    assert_eq!(
        page,
        PageCounts {
            open: 7,
            completed: 1,
            completed_today: 1,
            overdue: 1,
            wont_do: 1,
            expired: 0
        }
    );
    let logbook = counts(&org, &format!("view=logbook&task_list_id={work}"))
        .page
        .unwrap();
    assert_eq!(
        (logbook.open, logbook.completed, logbook.wont_do),
        (0, 1, 1)
    );
    let unknown = counts(&org, "task_list_id=01ARZ3NDEKTSV4RRFFQ69G5FAV")
        .page
        .unwrap();
    assert_eq!(unknown, PageCounts::default());
}

#[test]
fn counts_refuse_other_combinations() {
    let id = "01ARZ3NDEKTSV4RRFFQ69G5FAV";
    for query in [
        "view=due_soon".to_owned(),
        "view=today_queue".to_owned(),
        format!("view=today&task_list_id={id}"),
        format!("inbox=true&project_id={id}"),
        "inbox=yes".to_owned(),
        "person_id=x".to_owned(),
    ] {
        let err = TaskCountsQuery::parse(&Query::parse(&query).unwrap()).unwrap_err();
        assert_eq!(err.status(), 400, "{query}");
    }
    assert!(TaskCountsQuery::parse(&Query::parse("view=logbook&inbox=true").unwrap()).is_ok());
}

#[test]
fn the_today_set_follows_midnight_in_a_zone_far_from_utc() {
    // Samoa is UTC+13: 10:30 UTC on the 10th is 23:30 on the 10th there.
    let (org, clock) = org_at("2026-03-10T10:30:00Z", "Samoa");
    assert_eq!(org.today(), date("2026-03-10"));
    t("tomorrow").start("2026-03-11").make(&org);
    assert!(titles(&org, "view=today").is_empty());
    assert_eq!(counts(&org, "").today, 0);
    clock.advance_secs(31 * 60);
    assert_eq!(org.today(), date("2026-03-11"));
    assert_eq!(titles(&org, "view=today"), ["tomorrow"]);
    assert_eq!(counts(&org, "").today, 1);
    // Moving the owner far west takes today back a day, and the task out.
    org.account()
        .change_me(OwnerChange {
            time_zone: Some("Hawaii".into()),
            ..OwnerChange::default()
        })
        .unwrap();
    assert_eq!(org.today(), date("2026-03-10"));
    assert!(titles(&org, "view=today").is_empty());
    assert_eq!(counts(&org, "").today, 0);
}

#[test]
fn expired_tasks_are_archived_at_the_midnight_after_in_the_zone() {
    let (org, clock) = org_at("2026-03-10T08:00:00Z", "Samoa");
    // 21:00 on the 10th in Samoa.
    let task = t("milk").expires("2026-03-10").make(&org);
    clock.set("2026-03-10T10:59:59Z".parse().unwrap());
    assert_eq!(
        org.tasks().get(task.id).unwrap().status,
        TaskStatus::Open,
        "open through its expiry day"
    );
    clock.set("2026-03-10T11:00:00Z".parse().unwrap());
    let expired = org.tasks().get(task.id).unwrap();
    assert_eq!(expired.status, TaskStatus::Archived);
    assert!(expired.expired);
    assert_eq!(
        crate::time::format_timestamp(expired.archived_at.unwrap()),
        "2026-03-10T11:00:00.000Z"
    );
    assert_eq!(counts(&org, "inbox=true").page.unwrap().expired, 1);
    assert_eq!(titles(&org, "view=logbook"), ["milk"]);
    // Reopening clears the passed expiry.
    let reopened = org
        .tasks()
        .change(
            task.id,
            TaskInput {
                status: Some(TaskStatus::Open),
                ..TaskInput::default()
            },
        )
        .unwrap();
    assert_eq!(
        (reopened.status, reopened.expires_on, reopened.expired),
        (TaskStatus::Open, None, false)
    );
}

#[test]
fn expiry_midnight_follows_daylight_saving() {
    // London moves to summer time on 2026-03-29: midnight after the 29th is 23:00 UTC.
    let (org, clock) = org_at("2026-03-28T12:00:00Z", "London");
    let winter = t("winter").expires("2026-03-28").make(&org);
    let summer = t("summer").expires("2026-03-29").make(&org);
    clock.set("2026-03-31T12:00:00Z".parse().unwrap());
    let stamp =
        |id| crate::time::format_timestamp(org.tasks().get(id).unwrap().archived_at.unwrap());
    assert_eq!(stamp(winter.id), "2026-03-29T00:00:00.000Z");
    assert_eq!(stamp(summer.id), "2026-03-29T23:00:00.000Z");
}

#[test]
fn a_task_can_be_restored_for_20_seconds() {
    let (org, clock) = org_at("2026-03-10T12:00:00Z", "UTC");
    let a = t("a").make(&org);
    org.tasks().delete(a.id).unwrap();
    assert_eq!(org.tasks().get(a.id).unwrap_err().status(), 404);
    assert_eq!(
        org.tasks().delete(a.id).unwrap_err().status(),
        404,
        "deleting twice"
    );
    clock.advance_secs(19);
    let back = org.tasks().restore(a.id).unwrap();
    assert_eq!(
        crate::time::format_timestamp(back.updated_at),
        "2026-03-10T12:00:19.000Z"
    );
    assert_eq!(
        org.tasks().restore(a.id).unwrap().id,
        a.id,
        "a live task: safe retry"
    );

    org.tasks().delete(a.id).unwrap();
    clock.advance_secs(20);
    assert_eq!(org.tasks().restore(a.id).unwrap_err().status(), 404);
    assert_eq!(
        org.tasks()
            .restore(Id::parse("01ARZ3NDEKTSV4RRFFQ69G5FAV").unwrap())
            .unwrap_err()
            .status(),
        404
    );
}

#[test]
fn a_restored_task_whose_expiry_passed_comes_back_archived() {
    let (org, clock) = org_at("2026-03-10T23:59:50Z", "UTC");
    let a = t("a").expires("2026-03-10").make(&org);
    org.tasks().delete(a.id).unwrap();
    clock.advance_secs(15);
    let back = org.tasks().restore(a.id).unwrap();
    assert_eq!((back.status, back.expired), (TaskStatus::Archived, true));
}

#[test]
fn a_list_comes_back_with_its_tasks_but_not_those_deleted_before() {
    let (org, clock) = org_at("2026-03-10T12:00:00Z", "UTC");
    let work = list(&org, "Work");
    let kept = t("kept").list(work).make(&org);
    let gone = t("gone before").list(work).make(&org);
    org.tasks().delete(gone.id).unwrap();
    clock.advance_secs(2);
    org.task_lists().delete(work).unwrap();
    assert_eq!(org.tasks().get(kept.id).unwrap_err().status(), 404);
    assert_eq!(
        org.tasks().restore(kept.id).unwrap_err().status(),
        404,
        "restore the list instead"
    );
    assert_eq!(
        org.tasks().restore(gone.id).unwrap_err().status(),
        404,
        "its list is deleted"
    );
    // The name is free at once.
    let other = list(&org, "work");
    clock.advance_secs(5);
    let back = org.task_lists().restore(work).unwrap();
    assert_eq!(back.name, "Work (2)");
    assert_eq!(org.tasks().get(kept.id).unwrap().task_list_id, Some(work));
    assert_eq!(org.tasks().get(gone.id).unwrap_err().status(), 404);
    assert_eq!(titles(&org, &format!("task_list_id={work}")), ["kept"]);
    let _ = other;
}

#[test]
fn new_tasks_go_on_top_without_touching_others() {
    let (org, clock) = org_at("2026-03-10T12:00:00Z", "UTC");
    let a = t("a").make(&org);
    let b = t("b").make(&org);
    clock.advance_secs(1);
    let c = t("c").make(&org);
    assert_eq!((a.position, b.position, c.position), (1, 0, -1));
    assert_eq!(org.tasks().get(a.id).unwrap().updated_at, a.updated_at);
    // Sending a position renumbers the home's open tasks 1..n.
    clock.advance_secs(1);
    let moved = org
        .tasks()
        .change(
            c.id,
            TaskInput {
                position: Some(3),
                ..TaskInput::default()
            },
        )
        .unwrap();
    assert_eq!(moved.position, 3);
    assert_eq!(titles(&org, "inbox=true"), ["b", "a", "c"]);
    let b_now = org.tasks().get(b.id).unwrap();
    assert_eq!((b_now.position, b_now.updated_at > b.updated_at), (1, true));
    // Moving to another home puts it at the bottom there.
    let work = list(&org, "Work");
    t("w1").list(work).make(&org);
    let moved = org
        .tasks()
        .change(
            a.id,
            TaskInput {
                task_list_id: Field::Value(work),
                ..TaskInput::default()
            },
        )
        .unwrap();
    assert_eq!(moved.position, 2);
    assert_eq!(titles(&org, &format!("task_list_id={work}")), ["w1", "a"]);
}

#[test]
fn a_write_that_fails_leaves_the_store_as_it_was() {
    use crate::store::Tables;
    use crate::store::schema::SINGLETONS;
    let org = Organiser::in_memory();
    let before = org
        .tasks()
        .list(&crate::TaskQuery::default())
        .unwrap()
        .items
        .len();
    let outcome: crate::error::Result<()> = org.inner.write(|cx| {
        // Several records land in the transaction...
        create(cx, &TaskInput::titled("one"))?;
        create(cx, &TaskInput::titled("two"))?;
        cx.put_json(SINGLETONS, b"scratch", &1)?;
        // ...and then the operation fails.
        Err(Error::invalid("base", "refused late"))
    });
    assert_eq!(outcome.unwrap_err().status(), 422);
    assert_eq!(
        org.tasks()
            .list(&crate::TaskQuery::default())
            .unwrap()
            .items
            .len(),
        before
    );
    let scratch: Option<i32> = org
        .inner
        .read(|cx| cx.get_json(SINGLETONS, b"scratch"))
        .unwrap();
    assert_eq!(scratch, None);
    let counts = org
        .tasks()
        .counts(&crate::TaskCountsQuery::default())
        .unwrap();
    assert_eq!(counts.inbox, 0, "the counters rolled back with the records");
}

/// The today queue's `total_count` comes from the counters (and a walk of
/// the day's deadlines): it equals the listing's length, with tasks both
/// started and due counted once, on the day and after the day changes.
#[test]
fn the_today_queue_is_counted_without_walking_it() {
    let (org, clock, work) = sample();
    t("started and overdue")
        .start("2026-03-05")
        .deadline("2026-03-08")
        .list(work)
        .make(&org);
    t("started and due today")
        .start("2026-03-09")
        .deadline("2026-03-10")
        .make(&org);
    t("due tomorrow, starts tomorrow")
        .start("2026-03-11")
        .deadline("2026-03-11")
        .list(work)
        .make(&org);
    for day in 0..4 {
        let listed = titles(&org, "view=today_queue").len() as u64;
        assert_eq!(total(&org, "view=today_queue"), listed, "day +{day}");
        clock.advance_secs(24 * 3600);
    }
}

mod repeat;
mod storage;

/// Every task operation gives the same through the request a remote door
/// writes (and the answer it reads) as in process.
#[test]
fn both_doors_give_the_same() {
    use crate::engine::operation::ThroughRequests;
    let (org, _clock, work) = sample();
    let through = ThroughRequests(&org);
    let remote = Tasks::new(&through);
    let made = remote
        .create(TaskInput {
            task_list_id: Field::Value(work),
            deadline_on: Field::Value(date("2026-03-12")),
            ..TaskInput::titled("Through")
        })
        .unwrap();
    assert_eq!(org.tasks().get(made.id).unwrap(), made);
    let changed = remote
        .change(made.id, TaskInput::titled("Through again"))
        .unwrap();
    assert_eq!(remote.get(made.id).unwrap(), changed);
    for query in [
        "",
        "view=today",
        "status=open,completed&order=created_at&direction=desc&limit=2&count=true",
        "inbox=true",
    ] {
        let query = TaskQuery::parse(&Query::parse(query).unwrap()).unwrap();
        assert_eq!(
            remote.list(&query).unwrap(),
            org.tasks().list(&query).unwrap()
        );
    }
    let counts = TaskCountsQuery::parse(&Query::parse("view=logbook").unwrap()).unwrap();
    assert_eq!(
        remote.counts(&counts).unwrap(),
        org.tasks().counts(&counts).unwrap()
    );
    assert_eq!(
        remote.project_counts().unwrap(),
        org.tasks().project_counts().unwrap()
    );
    remote.delete(made.id).unwrap();
    assert!(matches!(remote.get(made.id), Err(Error::NotFound)));
    assert_eq!(remote.restore(made.id).unwrap().title, "Through again");
    let refused = remote.create(TaskInput::titled("  ")).unwrap_err();
    assert!(
        matches!(&refused, Error::Validation(d) if d.has("title")),
        "{refused:?}"
    );
}
