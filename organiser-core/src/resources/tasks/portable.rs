//! Tasks in the organiser's archive (EXTENSIONS.md §5): a line is the task
//! as the API shows it, plus, for a repeating task, its series' cursor
//! (`"stored": {"cursor": {"first", "anchor", "seen"}}`), which the API
//! does not show and the next occurrence's date is walked from.
//!
//! An import writes the task with its ID, timestamps, position, series and
//! status as the line says, with every index entry and counter a create
//! writes ([`put_live`]: the views, counts by home and status, completions
//! by quarter hour, deadlines, expiry, the today set, the open occurrence
//! of its series; [`save_row`]: the people its description mentions). No
//! other task is renumbered, no series makes an occurrence, nothing is
//! archived or told: the archive holds every task as it was.

use jiff::civil::Date;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::home::{self, Home};
use super::index::counter;
use super::repeat::Cursor;
use super::{KIND, Task, TaskRow, TaskStatus, load_row, put_live};
use crate::engine::{ReadCx, WriteCx};
use crate::error::{Details, Error, Result};
use crate::ids::Id;
use crate::limits;
use crate::portable::{self, Imported, Paths, Portable};
use crate::resources::tasks::tables::{TASK_COUNTERS, TASKS};
use crate::text::squished_required;

/// Tasks: `records/task.jsonl`.
pub(crate) static PORTABLE: Portable = Portable {
    kind: "task",
    table: TASKS,
    export,
    import,
};

/// What a task line holds beside the API's fields.
#[derive(Debug, Default, Serialize, Deserialize)]
struct Stored {
    /// A repeating task's series cursor.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    cursor: Option<StoredCursor>,
}

/// A series cursor as a line writes it.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
struct StoredCursor {
    /// The series' first date.
    first: Date,
    /// The date the rule gave the current occurrence.
    anchor: Date,
    /// How many of the series' dates came before the anchor.
    seen: u16,
}

impl From<Cursor> for StoredCursor {
    fn from(c: Cursor) -> Self {
        StoredCursor {
            first: c.first,
            anchor: c.anchor,
            seen: c.seen,
        }
    }
}

impl From<StoredCursor> for Cursor {
    fn from(c: StoredCursor) -> Self {
        Cursor {
            first: c.first,
            anchor: c.anchor,
            seen: c.seen,
        }
    }
}

/// The line of live task `id`; `None` when it is deleted.
fn export(cx: &ReadCx<'_>, _paths: &Paths<'_>, id: Id) -> Result<Option<Value>> {
    let task = match super::get(cx, id) {
        Ok(task) => task,
        Err(Error::NotFound) => return Ok(None),
        Err(e) => return Err(e),
    };
    let mut line = portable::to_line(&task)?;
    let stored = Stored {
        cursor: task
            .repeat
            .as_ref()
            .and(task.cursor)
            .map(StoredCursor::from),
    };
    if stored.cursor.is_some()
        && let Value::Object(fields) = &mut line
    {
        fields.insert("stored".to_owned(), portable::to_line(stored)?);
    }
    Ok(Some(line))
}

/// Writes a task line: made as the line says, or replacing an older live
/// task of its ID (its index entries and counters moved as a change moves
/// them).
fn import(cx: &mut WriteCx<'_>, paths: &Paths<'_>, mut line: Value) -> Result<Imported> {
    let stored = match &mut line {
        Value::Object(fields) => fields.remove("stored"),
        _ => None,
    };
    let mut task: Task = portable::read_line(KIND.name, line)?;
    let stored: Stored = match stored {
        None | Some(Value::Null) => Stored::default(),
        Some(value) => serde_json::from_value(value)
            .map_err(|e| unreadable(task.id, format!("its stored fields: {e}")))?,
    };
    settle_fields(cx, &mut task, stored)?;
    let row = load_row(cx, task.id)?;
    let (here, deleted) = match &row {
        Some(r) => (Some(r.task.updated_at), r.deleted.is_some()),
        None => (None, false),
    };
    let did = portable::decide(paths, here, deleted, &mut task.updated_at);
    match (did, row) {
        (Imported::Created, _) => {
            put_live(cx, None, &task)?;
            forget_old_completions(cx, &[&task])?;
        }
        (
            Imported::Updated,
            Some(TaskRow {
                task: before,
                deleted: None,
            }),
        ) => {
            put_live(cx, Some(&before), &task)?;
            forget_old_completions(cx, &[&before, &task])?;
        }
        _ => return Ok(Imported::Unchanged),
    }
    Ok(did)
}

/// Drops the completion counters of `tasks` older than the two days of
/// quarter hours a store keeps (those the day's settling forgets; no count
/// reads them), so that an import leaves the counters a store that had
/// the tasks all along has.
fn forget_old_completions(cx: &WriteCx<'_>, tasks: &[&Task]) -> Result<()> {
    let kept_from = counter::quarter(cx.now()) - 2 * 24 * 4;
    for task in tasks {
        if let (TaskStatus::Completed, Some(closed)) = (task.status, task.closed_at()) {
            let quarter = counter::quarter(closed);
            if quarter < kept_from {
                cx.remove(
                    TASK_COUNTERS,
                    counter::completed(quarter, task.home()).as_slice(),
                )?;
            }
        }
    }
    Ok(())
}

/// Checks a task read from a line and sets what the store derives: its
/// description sanitised as a save sanitises it, with its plain text; its
/// cursor from the stored fields (a task without `repeat` has none); one
/// home, the Inbox when the line's home is not live here.
fn settle_fields(cx: &WriteCx<'_>, task: &mut Task, stored: Stored) -> Result<()> {
    let mut details = Details::new();
    let title = squished_required(&mut details, "title", &task.title, limits::text::TASK_TITLE);
    if title != task.title {
        details.add("title", "is not squished");
    }
    if let Some(repeat) = &task.repeat
        && repeat.stored_rule().is_none()
    {
        details.add("repeat", "is not a rule this store reads");
    }
    if !details.is_empty() {
        return Err(unreadable(task.id, details.sentence()));
    }
    let html = task
        .description_html
        .as_deref()
        .map(crate::html::sanitise_without_images)
        .filter(|clean| !clean.trim().is_empty());
    task.description_text = html
        .as_deref()
        .map(crate::html::to_text)
        .unwrap_or_default();
    task.description_html = html;
    task.cursor = match task.repeat {
        Some(_) => stored.cursor.map(Cursor::from),
        None => None,
    };
    let home = task.home();
    task.set_home(if home::is_live(cx, home)? {
        home
    } else {
        Home::Inbox
    });
    Ok(())
}

/// A 422 on `base` naming task `id` and what is wrong with its line.
fn unreadable(id: Id, why: impl std::fmt::Display) -> Error {
    Error::invalid(
        "base",
        format!(
            "records/{}.jsonl: the {} {id} cannot be read: {why}",
            KIND.name, KIND.name
        ),
    )
}

#[cfg(test)]
mod tests {
    use std::ops::Bound;
    use std::sync::Arc;

    use super::*;
    use crate::Organiser;
    use crate::clock::ManualClock;
    use crate::config::Options;
    use crate::input::Field;
    use crate::list::Query;
    use crate::portable::round_trip;
    use crate::resources::task_lists::{self, TaskListInput};
    use crate::resources::tasks::{
        Repeat, TaskCountsQuery, TaskInput, TaskQuery, due_between, repetitions,
    };
    use crate::store::Tables;
    use crate::store::{Dir, Tbl};

    fn store(clock: &ManualClock) -> Organiser {
        Organiser::in_memory_with(Options {
            clock: Arc::new(clock.clone()),
            ..Options::default()
        })
    }

    fn day(s: &str) -> Field<Date> {
        Field::Value(s.parse().unwrap())
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

    fn make(org: &Organiser, input: TaskInput) -> Task {
        org.tasks().create(input).unwrap()
    }

    fn in_list(title: &str, list: Id) -> TaskInput {
        TaskInput {
            task_list_id: Field::Value(list),
            ..TaskInput::titled(title)
        }
    }

    fn set_status(org: &Organiser, id: Id, status: TaskStatus) -> Task {
        let input = TaskInput {
            status: Some(status),
            ..TaskInput::default()
        };
        org.tasks().change(id, input).unwrap()
    }

    /// Every entry of every table of the tasks and the task lists.
    /// Every entry of each table, by table name.
    type Dump = Vec<(String, Vec<(Vec<u8>, Vec<u8>)>)>;

    fn tables(org: &Organiser) -> Dump {
        let all: Vec<Tbl> = crate::resources::tasks::tables::TABLES
            .iter()
            .chain(task_lists::tables::TABLES)
            .copied()
            .collect();
        org.inner
            .read(|cx| {
                let mut out = Vec::new();
                for t in all {
                    let mut entries = Vec::new();
                    cx.tx.scan(
                        t,
                        Bound::Unbounded,
                        Bound::Unbounded,
                        Dir::Asc,
                        &mut |k, v| {
                            entries.push((k.to_vec(), v.to_vec()));
                            Ok(true)
                        },
                    )?;
                    out.push((redb::TableHandle::name(&t).to_owned(), entries));
                }
                Ok(out)
            })
            .unwrap()
    }

    /// Every record, index entry and counter of the tasks and the task
    /// lists is the same in both stores.
    fn same_tables(a: &Organiser, b: &Organiser) {
        for ((name, x), (_, y)) in tables(a).into_iter().zip(tables(b)) {
            let only =
                |p: &[(Vec<u8>, Vec<u8>)], q: &[(Vec<u8>, Vec<u8>)]| -> Vec<(Vec<u8>, Vec<u8>)> {
                    p.iter().filter(|e| !q.contains(e)).cloned().collect()
                };
            assert!(
                x == y,
                "{name}: only in the first {:?}, only in the second {:?}",
                only(&x, &y),
                only(&y, &x)
            );
        }
    }

    fn titles(org: &Organiser, query: &str) -> Vec<String> {
        let q = TaskQuery::parse(&Query::parse(&format!("{query}&limit=100")).unwrap()).unwrap();
        let page = org.tasks().list(&q).unwrap();
        page.items.into_iter().map(|t| t.title).collect()
    }

    /// What the calendar reads: tasks due in March and the dates the
    /// repeating ones give.
    fn calendar(org: &Organiser) -> (Vec<Id>, Vec<(Date, Id)>) {
        let (from, to) = ("2026-03-01".parse().unwrap(), "2026-04-30".parse().unwrap());
        org.inner
            .read(|cx| {
                let due = due_between(cx, from, to)?;
                let dates = repetitions(cx, from, to)?
                    .into_iter()
                    .map(|r| (r.date, r.task.id))
                    .collect();
                Ok((due, dates))
            })
            .unwrap()
    }

    /// The same reads of both stores give the same answers.
    fn same_answers(a: &Organiser, b: &Organiser, homes: &[Id]) {
        let mut queries: Vec<String> = ["", "status=open", "status=completed,wont_do,archived"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        for (_, view) in crate::resources::tasks::View::ALL {
            queries.push(format!("view={view}"));
        }
        queries.push("inbox=true".into());
        queries.push("status=completed&order=completed_at".into());
        queries.push("order=updated_at".into());
        for home in homes {
            queries.push(format!("task_list_id={home}"));
        }
        for q in &queries {
            assert_eq!(titles(a, q), titles(b, q), "{q}");
        }
        let mut counts = vec![
            String::new(),
            "view=overview".into(),
            "view=today".into(),
            "view=planned".into(),
            "view=one_day".into(),
            "view=logbook".into(),
            "inbox=true".into(),
        ];
        for home in homes {
            counts.push(format!("task_list_id={home}"));
            counts.push(format!("view=logbook&task_list_id={home}"));
        }
        for q in &counts {
            let q = TaskCountsQuery::parse(&Query::parse(q).unwrap()).unwrap();
            assert_eq!(a.tasks().counts(&q).unwrap(), b.tasks().counts(&q).unwrap());
        }
        assert_eq!(calendar(a), calendar(b));
    }

    fn bytes(lines: &[Vec<Value>]) -> Vec<u8> {
        serde_json::to_vec(lines).unwrap()
    }

    /// A store with tasks of every kind, today 2026-03-12 (UTC).
    struct Sample {
        a: Organiser,
        clock: ManualClock,
        work: Id,
        home: Id,
        water: Id,
    }

    fn sample() -> Sample {
        let clock = ManualClock::at("2026-03-10T09:00:00Z");
        let a = store(&clock);
        let work = list(&a, "Work");
        let home = list(&a, "Home");
        let doomed = list(&a, "Doomed");
        make(&a, TaskInput::titled("inbox plain"));
        make(
            &a,
            TaskInput {
                start_on: day("2026-03-09"),
                deadline_on: day("2026-03-08"),
                ..TaskInput::titled("inbox started and overdue")
            },
        );
        make(
            &a,
            TaskInput {
                start_on: day("2026-03-15"),
                ..TaskInput::titled("inbox planned")
            },
        );
        let report = make(
            &a,
            TaskInput {
                deadline_on: day("2026-03-12"),
                ..in_list("report", work)
            },
        );
        make(&a, in_list("someday", work));
        make(
            &a,
            TaskInput {
                start_on: day("2026-03-01"),
                deadline_on: day("2026-03-20"),
                description_html: Field::Value(
                    "<p>Ask Bob &amp; Eve about <a href=\"https://example.com/a?b=1&amp;c=2\">this</a> \u{2014} <em>soon</em></p><ul><li>one</li><li>two &lt;3</li></ul>".into(),
                ),
                ..in_list("call", work)
            },
        );
        // Renumbers the list's open tasks 1..n.
        let moved = TaskInput {
            position: Some(1),
            ..TaskInput::default()
        };
        a.tasks().change(report.id, moved).unwrap();
        let water = make(
            &a,
            TaskInput {
                deadline_on: day("2026-03-10"),
                repeat: Field::Value(Repeat::rule("FREQ=WEEKLY")),
                ..in_list("water plants", home)
            },
        );
        let stretch = make(
            &a,
            TaskInput {
                start_on: day("2026-03-10"),
                repeat: Field::Value(Repeat::from_completion("FREQ=DAILY;INTERVAL=2")),
                ..in_list("stretch", home)
            },
        );
        make(
            &a,
            TaskInput {
                expires_on: day("2026-03-11"),
                ..in_list("milk", home)
            },
        );
        make(
            &a,
            TaskInput {
                deadline_on: day("2026-03-09"),
                status: Some(TaskStatus::Completed),
                ..in_list("done", work)
            },
        );
        make(
            &a,
            TaskInput {
                status: Some(TaskStatus::WontDo),
                ..in_list("dropped", work)
            },
        );
        let shelved = make(&a, TaskInput::titled("shelved"));
        set_status(&a, shelved.id, TaskStatus::Archived);
        let oops = make(&a, TaskInput::titled("oops"));
        a.tasks().delete(oops.id).unwrap();
        make(&a, in_list("taken with its list", doomed));
        a.task_lists().delete(doomed).unwrap();
        clock.advance_secs(3600);
        // Each close makes the series' next occurrence.
        let water_closed = set_status(&a, water.id, TaskStatus::Completed);
        assert!(water_closed.next_task_id.is_some());
        set_status(&a, stretch.id, TaskStatus::Completed);
        // Two days on: the milk expired, the deletes are permanent.
        clock.advance_secs(2 * 86_400);
        make(
            &a,
            TaskInput {
                start_on: day("2026-03-12"),
                ..TaskInput::titled("today's")
            },
        );
        Sample {
            a,
            clock,
            work,
            home,
            water: water_closed.next_task_id.unwrap_or(water.id),
        }
    }

    #[test]
    fn tasks_round_trip_exactly_with_every_index() {
        let Sample {
            a,
            clock,
            work,
            home,
            water,
        } = sample();
        let kinds = [&task_lists::portable::PORTABLE, &PORTABLE];
        let b = store(&clock);
        let (first, again, did) = round_trip(&a, &b, &kinds);
        let titles_of = |lines: &[Value]| -> Vec<String> {
            lines
                .iter()
                .map(|l| l["title"].as_str().unwrap().to_owned())
                .collect()
        };
        let exported = titles_of(&first[1]);
        assert_eq!(exported.len(), 15, "{exported:?}");
        for gone in ["oops", "taken with its list"] {
            assert!(!exported.iter().any(|t| t == gone), "{exported:?}");
        }
        assert_eq!(bytes(&first), bytes(&again));
        assert!(
            did.iter().flatten().all(|d| *d == Imported::Created),
            "{did:?}"
        );
        // The series' cursors travel: the open occurrences walk on from
        // their own date.
        let line = |id: Id| first[1].iter().find(|l| l["id"] == id.to_string()).unwrap();
        assert_eq!(
            line(water)["stored"],
            serde_json::json!({"cursor": {"first": "2026-03-10", "anchor": "2026-03-17", "seen": 1}})
        );
        let plain = first[1]
            .iter()
            .find(|l| l["title"] == "inbox plain")
            .unwrap();
        assert!(plain.get("stored").is_none());
        let milk = first[1].iter().find(|l| l["title"] == "milk").unwrap();
        assert_eq!(
            (milk["status"].as_str(), milk["expired"].as_bool()),
            (Some("archived"), Some(true))
        );
        same_tables(&a, &b);
        same_answers(&a, &b, &[work, home]);

        // A second import changes nothing.
        let (first2, again2, did2) = round_trip(&a, &b, &kinds);
        assert_eq!(bytes(&first2), bytes(&first));
        assert_eq!(bytes(&again2), bytes(&first));
        assert!(
            did2.iter().flatten().all(|d| *d == Imported::Unchanged),
            "{did2:?}"
        );

        // Newer lines replace older tasks, their entries moved.
        clock.advance_secs(60);
        let report = b
            .tasks()
            .list(
                &TaskQuery::parse(&Query::parse(&format!("task_list_id={work}")).unwrap()).unwrap(),
            )
            .unwrap()
            .items[0]
            .clone();
        assert_eq!(report.title, "report");
        let to_home = TaskInput {
            task_list_id: Field::Value(home),
            position: Some(2),
            ..TaskInput::default()
        };
        a.tasks().change(report.id, to_home).unwrap();
        set_status(&a, water, TaskStatus::WontDo);
        let (_, again3, did3) = round_trip(&a, &b, &kinds);
        let did3: Vec<Imported> = did3.into_iter().flatten().collect();
        assert!(did3.contains(&Imported::Updated), "{did3:?}");
        assert!(did3.contains(&Imported::Created), "{did3:?}");
        same_tables(&a, &b);
        same_answers(&a, &b, &[work, home]);
        let exported: Vec<Vec<Value>> = a
            .inner
            .read(|cx| kinds.iter().map(|p| portable::lines(cx, p)).collect())
            .unwrap();
        assert_eq!(bytes(&again3), bytes(&exported));

        // The imported store goes on as the original does: a series walks
        // on from its cursor, a new task goes on top of its list.
        clock.advance_secs(60);
        let next = |org: &Organiser| {
            let q = TaskQuery::parse(
                &Query::parse(&format!("task_list_id={home}&status=open")).unwrap(),
            )
            .unwrap();
            let open = org.tasks().list(&q).unwrap().items;
            let water = open.iter().find(|t| t.title == "water plants").unwrap().id;
            let closed = set_status(org, water, TaskStatus::Completed);
            let made = org.tasks().get(closed.next_task_id.unwrap()).unwrap();
            (made.deadline_on, made.series_id, made.position)
        };
        let (in_a, in_b) = (next(&a), next(&b));
        assert_eq!(in_a, in_b);
        assert_eq!(in_b.0, Some("2026-03-31".parse().unwrap()));
        let top = make(&b, in_list("newest", work));
        let q = format!("task_list_id={work}&status=open");
        assert_eq!(titles(&b, &q)[0], "newest", "{}", top.position);
    }

    #[test]
    fn a_task_whose_home_is_not_here_goes_to_the_inbox() {
        let Sample { a, clock, .. } = sample();
        let b = store(&clock);
        let (first, _, did) = round_trip(&a, &b, &[&PORTABLE]);
        assert!(did[0].iter().all(|d| *d == Imported::Created));
        let inbox = titles(&b, "inbox=true&status=open,completed,wont_do,archived");
        assert_eq!(inbox.len(), first[0].len(), "{inbox:?}");
    }

    #[test]
    fn mentions_are_indexed_and_follow_the_person() {
        let clock = ManualClock::at("2026-03-10T09:00:00Z");
        let a = store(&clock);
        let named = |name: &str| crate::PersonInput {
            name: Some(name.to_owned()),
            ..crate::PersonInput::default()
        };
        let ada = a.people().create(named("Ada Byron")).unwrap().id;
        let input = TaskInput {
            person_id: Field::Value(ada),
            description_html: Field::Value(format!(
                "<p>Ask <span data-mention=\"{ada}\">@Ada Byron</span></p>"
            )),
            ..TaskInput::titled("call")
        };
        let call = make(&a, input);
        let kinds = [&crate::resources::people::portable::PORTABLE, &PORTABLE];
        let b = store(&clock);
        let (first, again, did) = round_trip(&a, &b, &kinds);
        assert_eq!(bytes(&first), bytes(&again));
        assert!(
            did.iter().flatten().all(|d| *d == Imported::Created),
            "{did:?}"
        );
        assert_eq!(b.tasks().get(call.id).unwrap().person_id, Some(ada));
        let mentions = b
            .inner
            .read(|cx| {
                let mut out = Vec::new();
                let table = crate::resources::tasks::tables::TASKS_BY_MENTION;
                cx.tx.scan_prefix(table, &[], Dir::Asc, &mut |k, _| {
                    out.push(k.to_vec());
                    Ok(true)
                })?;
                Ok(out)
            })
            .unwrap();
        assert_eq!(mentions.len(), 1);
        clock.advance_secs(5);
        b.people().change(ada, named("Ada Lovelace")).unwrap();
        let task = b.tasks().get(call.id).unwrap();
        assert!(task.description_text.contains("@Ada Lovelace"), "{task:?}");
    }

    #[test]
    fn a_line_that_does_not_read_is_422_on_base() {
        let b = Organiser::in_memory();
        let good = serde_json::json!({
            "id": "01ARZ3NDEKTSV4RRFFQ69G5FAV", "title": "x", "status": "open",
            "start_on": null, "deadline_on": null, "expires_on": null,
            "completed_at": null, "archived_at": null, "task_list_id": null,
            "person_id": null, "project_id": null, "position": 1,
            "description_html": null, "description_text": "", "has_documents": false,
            "expired": false, "repeat": null, "series_id": null, "next_task_id": null,
            "created_at": "2026-03-09T08:00:00.000Z", "updated_at": "2026-03-09T08:00:00.000Z",
        });
        let with = |field: &str, value: Value| {
            let mut line = good.clone();
            line[field] = value;
            line
        };
        let bad = [
            with("title", " ".into()),
            with("status", "done".into()),
            with("position", "first".into()),
            with("stored", serde_json::json!({"cursor": {"first": "x"}})),
            with("repeat", serde_json::json!({"rule": "FREQ=HOURLY"})),
        ];
        for line in bad {
            let e = b
                .inner
                .write(|cx| {
                    let paths = Paths::new(&cx.org.secret);
                    import(cx, &paths, line.clone())
                })
                .unwrap_err();
            match e {
                Error::Validation(d) => assert!(d.has("base"), "{d:?}"),
                e => panic!("{e:?}"),
            }
        }
        let did = b
            .inner
            .write(|cx| {
                let paths = Paths::new(&cx.org.secret);
                import(cx, &paths, good.clone())
            })
            .unwrap();
        assert_eq!(did, Imported::Created);
    }
}
