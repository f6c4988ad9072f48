//! The tasks' and lists' pages as a browser without script uses them
//! (EXTENSIONS.md §6): quick add with the CLI's date and repeat words in
//! the views they belong to, complete and undo, move to a list, a task's
//! every field in one form with the core's refusals beside their fields
//! (422, the typed values kept), delete and restore, the lists' pages,
//! hostile titles and names escaped on every page, 303 to sign-in without
//! a session, and 403 for a form without the session's CSRF token.

use organiser::Field;
use organiser::account::OwnerChange;
use organiser::task_lists::{TaskListInput, TaskListQuery};
use organiser::tasks::{Repeat, Task, TaskInput, TaskQuery, TaskStatus};

use super::{Answer, Page};
use crate::common::TestServer;

/// Every task, whatever its status.
fn tasks(s: &TestServer) -> Vec<Task> {
    let mut query = TaskQuery::default();
    query.params.limit = 100;
    s.org.tasks().list(&query).unwrap().items
}

/// The one task titled `title`.
#[track_caller]
fn task(s: &TestServer, title: &str) -> Task {
    let found: Vec<Task> = tasks(s).into_iter().filter(|t| t.title == title).collect();
    assert_eq!(found.len(), 1, "one task titled {title:?}: {found:?}");
    found.into_iter().next().unwrap()
}

/// Whether the page lists a task titled `title` (escaped as the page
/// writes it) as a link to its page.
fn lists(answer: &Answer, t: &Task) -> bool {
    answer
        .body
        .contains(&format!("<a class=\"title\" href=\"/tasks/{}\">", t.id))
}

/// A quick add from the page at `from`, back to it.
fn quick_add(page: &mut Page<'_>, from: &str, words: &str) -> Answer {
    page.submit(from, "/tasks", &[("title", words), ("back", from)])
}

fn date(s: &str) -> Option<jiff::civil::Date> {
    Some(s.parse().unwrap())
}

#[test]
fn quick_add_reads_the_clis_words_and_the_task_is_in_its_views() {
    // 2026-03-10 is a Tuesday.
    let s = TestServer::start();
    let mut page = Page::signed_in(&s);

    let added = quick_add(
        &mut page,
        "/tasks?view=overview",
        "Call mum tomorrow every week",
    );
    assert_eq!(added.status, 303, "{added:?}");
    assert_eq!(added.location(), Some("/tasks?view=overview"));
    let call = task(&s, "Call mum");
    assert_eq!(
        call.start_on,
        date("2026-03-11"),
        "a bare date is the start"
    );
    assert_eq!(call.deadline_on, None);
    assert_eq!(call.repeat, Some(Repeat::rule("FREQ=WEEKLY")));
    assert_eq!(call.task_list_id, None, "in the Inbox");

    let added = quick_add(&mut page, "/", "Pay rent due friday");
    assert_eq!((added.status, added.location()), (303, Some("/")));
    let rent = task(&s, "Pay rent");
    assert_eq!(rent.deadline_on, date("2026-03-13"));
    assert_eq!(rent.start_on, None);

    quick_add(&mut page, "/", "Water plants every 2 days");
    let water = task(&s, "Water plants");
    assert_eq!(water.start_on, date("2026-03-10"), "a repeat starts today");

    quick_add(&mut page, "/", "Book dentist on dec 15");
    assert_eq!(task(&s, "Book dentist").start_on, date("2026-12-15"));

    // Where each is.
    let overview = page.get("/tasks?view=overview");
    assert_eq!(overview.status, 200);
    for t in [&call, &rent, &water] {
        assert!(lists(&overview, t), "the overview lists {}", t.title);
    }
    assert!(overview.body.contains("every week"), "the repeat in words");
    let today = page.get("/");
    assert!(!lists(&today, &call), "not today's yet");
    assert!(lists(&today, &water), "started today");
    let due = page.get("/tasks?view=due_soon");
    assert!(lists(&due, &rent) && !lists(&due, &call));
    let inbox = page.get("/tasks?view=inbox");
    assert!(lists(&inbox, &call) && lists(&inbox, &rent));
    assert!(
        inbox.body.contains("<span class=\"count\">4</span>"),
        "the Inbox is counted in the views' navigation"
    );
    // Every view answers, with its heading.
    for (view, heading) in [
        ("overview", "Inbox and due soon"),
        ("inbox", "Inbox"),
        ("today_queue", "Today"),
        ("today", "Started"),
        ("due_soon", "Due soon"),
        ("due_not_today", "Due soon, not started"),
        ("planned", "Planned"),
        ("one_day", "One day"),
        ("logbook", "Logbook"),
    ] {
        let answer = page.get(&format!("/tasks?view={view}"));
        assert_eq!(answer.status, 200, "{view}");
        assert!(
            answer.body.contains(&format!("<h1>{heading}</h1>")),
            "{view}"
        );
        assert!(
            answer.body.contains(&format!(
                "href=\"/tasks?view={view}\" aria-current=\"page\""
            )),
            "{view} is the current view"
        );
    }
    assert_eq!(page.get("/tasks?view=nonsense").status, 404);

    // The next day, mum is today's.
    s.advance(24 * 3600);
    assert!(lists(&page.get("/"), &call));
}

#[test]
fn a_quick_add_the_core_refuses_is_shown_beside_the_box_with_what_was_typed() {
    let s = TestServer::start();
    let mut page = Page::signed_in(&s);
    let refused = quick_add(&mut page, "/tasks?view=inbox", "Pay due 12/11");
    assert_eq!(refused.status, 422, "{refused:?}");
    assert!(refused.body.contains("value=\"Pay due 12/11\""), "kept");
    assert!(refused.body.contains("id=\"quick-add-error\""));
    assert!(
        refused
            .body
            .contains("could be 12 November 2026 or 11 December 2026")
    );
    assert!(
        refused.body.contains("<h1>Inbox</h1>"),
        "the page it came from"
    );
    // A blank title.
    let blank = page.submit("/", "/tasks", &[("title", "   "), ("back", "/")]);
    assert_eq!(blank.status, 422, "{blank:?}");
    assert!(blank.body.contains("The title"));
    assert!(blank.body.contains("<h1>Today</h1>"));
    assert!(tasks(&s).iter().all(|t| t.title != "Pay"));
}

#[test]
fn complete_and_undo_from_a_page() {
    let s = TestServer::start();
    let made = s
        .org
        .tasks()
        .create(TaskInput {
            start_on: Field::Value("2026-03-10".parse().unwrap()),
            ..TaskInput::titled("Water the plants")
        })
        .unwrap();
    let mut page = Page::signed_in(&s);
    assert!(lists(&page.get("/"), &made));

    let done = page.submit(
        "/",
        &format!("/tasks/{}/complete", made.id),
        &[("back", "/")],
    );
    assert_eq!(done.status, 303);
    let to = done.location().unwrap().to_owned();
    assert_eq!(to, format!("/?done={}", made.id));
    assert_eq!(
        s.org.tasks().get(made.id).unwrap().status,
        TaskStatus::Completed
    );
    let today = page.get(&to);
    assert!(!lists(&today, &made), "it left today");
    assert!(
        today
            .body
            .contains(&format!("action=\"/tasks/{}/reopen\"", made.id)),
        "the undo is offered"
    );
    assert!(today.body.contains(">Undo</button>"));

    let undone = page.submit(&to, &format!("/tasks/{}/reopen", made.id), &[("back", "/")]);
    assert_eq!((undone.status, undone.location()), (303, Some("/")));
    assert_eq!(s.org.tasks().get(made.id).unwrap().status, TaskStatus::Open);
    let today = page.get("/");
    assert!(lists(&today, &made), "back in today");
    assert!(!today.body.contains(">Undo</button>"));

    // The logbook reopens what is closed.
    page.submit(
        "/",
        &format!("/tasks/{}/complete", made.id),
        &[("back", "/")],
    );
    let logbook = page.get("/tasks?view=logbook");
    assert!(lists(&logbook, &made));
    assert!(
        logbook
            .body
            .contains("aria-label=\"Reopen Water the plants\"")
    );
}

#[test]
fn lists_made_renamed_moved_into_deleted_and_restored() {
    let s = TestServer::start();
    let mut page = Page::signed_in(&s);
    let made = page.submit("/lists", "/lists", &[("name", "Errands")]);
    assert_eq!(made.status, 303, "{made:?}");
    let list = s
        .org
        .task_lists()
        .list(&TaskListQuery::default())
        .unwrap()
        .items[0]
        .clone();
    let here = format!("/lists/{}", list.id);
    assert_eq!(made.location(), Some(here.as_str()));

    // The same name again is refused beside the field, as typed.
    let again = page.submit("/lists", "/lists", &[("name", "errands")]);
    assert_eq!(again.status, 422, "{again:?}");
    assert!(again.body.contains("value=\"errands\""));
    assert!(again.body.contains("id=\"new-list-error\""));

    // Quick add into the list.
    let added = page.submit(
        &here,
        "/tasks",
        &[
            ("title", "Buy stamps due friday"),
            ("back", &here),
            ("task_list_id", &list.id.to_string()),
        ],
    );
    assert_eq!((added.status, added.location()), (303, Some(here.as_str())));
    let stamps = task(&s, "Buy stamps");
    assert_eq!(stamps.task_list_id, Some(list.id));
    assert_eq!(stamps.deadline_on, date("2026-03-13"));

    // Move a task of the Inbox to the list.
    let bank = s
        .org
        .tasks()
        .create(TaskInput::titled("Call the bank"))
        .unwrap();
    let moved = page.submit(
        &format!("/tasks/{}", bank.id),
        &format!("/tasks/{}/move", bank.id),
        &[("home", &format!("list:{}", list.id))],
    );
    assert_eq!(moved.status, 303, "{moved:?}");
    assert_eq!(
        s.org.tasks().get(bank.id).unwrap().task_list_id,
        Some(list.id)
    );
    let shown = page.get(&here);
    assert_eq!(shown.status, 200);
    assert!(lists(&shown, &stamps) && lists(&shown, &bank));
    assert!(shown.body.contains("2 open"));
    let all = page.get("/lists");
    assert!(
        all.body
            .contains(&format!("<a href=\"{here}\">Errands</a>"))
    );
    assert!(
        all.body.contains("<span class=\"count\">2<"),
        "its open count"
    );
    // And back to the Inbox.
    page.submit(
        &format!("/tasks/{}", bank.id),
        &format!("/tasks/{}/move", bank.id),
        &[("home", "inbox")],
    );
    assert_eq!(s.org.tasks().get(bank.id).unwrap().task_list_id, None);

    // Its logbook.
    page.submit(
        &here,
        &format!("/tasks/{}/complete", stamps.id),
        &[("back", &here)],
    );
    let done = page.get(&format!("{here}?show=done"));
    assert!(lists(&done, &stamps));
    assert!(!lists(&page.get(&here), &stamps));

    // Rename; a blank name is refused (422) with the form open.
    let renamed = page.submit(&here, &here, &[("name", "Shopping")]);
    assert_eq!(
        (renamed.status, renamed.location()),
        (303, Some(here.as_str()))
    );
    assert_eq!(s.org.task_lists().get(list.id).unwrap().name, "Shopping");
    let blank = page.submit(&here, &here, &[("name", " ")]);
    assert_eq!(blank.status, 422, "{blank:?}");
    assert!(blank.body.contains("id=\"list-name-error\""));
    assert!(blank.body.contains("<details class=\"list-tools\" open>"));
    assert_eq!(s.org.task_lists().get(list.id).unwrap().name, "Shopping");

    // Delete, with its tasks; restore within 20 seconds.
    let gone = page.submit(&here, &format!("/lists/{}/delete", list.id), &[]);
    assert_eq!(gone.status, 303);
    let to = gone.location().unwrap().to_owned();
    assert_eq!(to, format!("/lists?deleted={}", list.id));
    assert!(s.org.task_lists().get(list.id).is_err());
    let offered = page.get(&to);
    assert!(
        offered
            .body
            .contains(&format!("action=\"/lists/{}/restoration\"", list.id))
    );
    let back = page.submit(&to, &format!("/lists/{}/restoration", list.id), &[]);
    assert_eq!((back.status, back.location()), (303, Some(here.as_str())));
    assert_eq!(s.org.task_lists().get(list.id).unwrap().name, "Shopping");
    assert_eq!(
        s.org.tasks().get(stamps.id).unwrap().task_list_id,
        Some(list.id)
    );
}

#[test]
fn every_field_of_a_task_in_one_form() {
    let s = TestServer::start();
    s.org
        .account()
        .change_me(OwnerChange {
            time_zone: Some("Europe/Paris".into()),
            ..OwnerChange::default()
        })
        .unwrap();
    let list = s
        .org
        .task_lists()
        .create(TaskListInput {
            name: Some("Home".into()),
            ..TaskListInput::default()
        })
        .unwrap();
    let made = s
        .org
        .tasks()
        .create(TaskInput::titled("Fix the tap"))
        .unwrap();
    let here = format!("/tasks/{}", made.id);
    let mut page = Page::signed_in(&s);
    let shown = page.get(&here);
    assert_eq!(shown.status, 200);
    assert!(shown.body.contains("<h1>Fix the tap</h1>"));
    assert!(shown.body.contains("value=\"Fix the tap\""));
    assert!(shown.body.contains("Europe/Paris"), "the reminder's zone");

    let list_home = format!("list:{}", list.id);
    let saved = page.submit(
        &here,
        &here,
        &[
            ("title", "Fix the kitchen tap"),
            (
                "description",
                "Washer size 1/2\"\r\n\r\n<b>Not</b> the mixer",
            ),
            ("start_on", "2026-03-12"),
            ("deadline_on", "2026-03-16"),
            ("expires_on", "2026-04-30"),
            ("status", "open"),
            ("home", &list_home),
            ("repeat", "every 2 weeks on mon"),
            ("remind_at", "2026-03-12T09:30"),
        ],
    );
    assert_eq!(saved.status, 303, "{saved:?}");
    assert_eq!(saved.location(), Some(format!("{here}?saved=1").as_str()));
    let t = s.org.tasks().get(made.id).unwrap();
    assert_eq!(t.title, "Fix the kitchen tap");
    assert_eq!(
        t.description_text,
        "Washer size 1/2\"\n<b>Not</b> the mixer"
    );
    let html = t.description_html.clone().unwrap();
    assert!(
        html.starts_with("<p>Washer size") && !html.contains("<b>"),
        "{html}"
    );
    assert_eq!(t.start_on, date("2026-03-12"));
    assert_eq!(t.deadline_on, date("2026-03-16"));
    assert_eq!(t.expires_on, date("2026-04-30"));
    assert_eq!(t.task_list_id, Some(list.id));
    assert_eq!(
        t.repeat,
        Some(Repeat::rule("FREQ=WEEKLY;INTERVAL=2;BYDAY=MO"))
    );
    // 09:30 in Paris (UTC+1 in March) is 08:30Z.
    assert_eq!(t.remind_at, Some("2026-03-12T08:30:00Z".parse().unwrap()));

    let shown = page.get(&format!("{here}?saved=1"));
    assert!(shown.body.contains("Saved."));
    assert!(
        shown.body.contains("value=\"every 2 weeks on Monday\""),
        "the repeat in words"
    );
    assert!(
        shown.body.contains("value=\"2026-03-12T09:30\""),
        "the reminder in the zone"
    );
    assert!(shown.body.contains("value=\"2026-03-16\""));
    assert!(shown.body.contains(&format!(
        "<option value=\"{list_home}\" selected>Home</option>"
    )));
    assert!(
        shown.body.contains("Not&#60;/b&#62; the mixer</textarea>"),
        "{}",
        shown.body
    );

    // Sent again unchanged, nothing changes (not even updated_at).
    let form = |title: &str, repeat: &str, remind: &str, status: &str| {
        vec![
            ("title".to_owned(), title.to_owned()),
            (
                "description".to_owned(),
                "Washer size 1/2\"\n<b>Not</b> the mixer".to_owned(),
            ),
            ("start_on".to_owned(), "2026-03-12".to_owned()),
            ("deadline_on".to_owned(), "2026-03-16".to_owned()),
            ("expires_on".to_owned(), "2026-04-30".to_owned()),
            ("status".to_owned(), status.to_owned()),
            ("home".to_owned(), list_home.clone()),
            ("repeat".to_owned(), repeat.to_owned()),
            ("remind_at".to_owned(), remind.to_owned()),
        ]
    };
    let send = |page: &mut Page<'_>, fields: Vec<(String, String)>| {
        let fields: Vec<(&str, &str)> = fields
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        page.submit(&here, &here, &fields)
    };
    s.advance(60);
    let same = send(
        &mut page,
        form(
            "Fix the kitchen tap",
            "every 2 weeks on Monday",
            "2026-03-12T09:30",
            "open",
        ),
    );
    assert_eq!(same.status, 303);
    assert_eq!(s.org.tasks().get(made.id).unwrap().updated_at, t.updated_at);

    // Refused: each error beside its field, status 422, the typed values
    // kept, nothing saved.
    let refused = send(
        &mut page,
        form("", "every fortnight", "2026-03-01T09:00", "open"),
    );
    assert_eq!(refused.status, 422, "{refused:?}");
    assert!(
        refused.body.contains("id=\"repeat-error\""),
        "{}",
        refused.body
    );
    assert!(refused.body.contains("value=\"every fortnight\""));
    assert!(refused.body.contains("value=\"2026-03-01T09:00\""));
    let refused = send(&mut page, form("", "every week", "", "open"));
    assert_eq!(refused.status, 422);
    assert!(
        refused.body.contains("id=\"title-error\""),
        "{}",
        refused.body
    );
    assert!(refused.body.contains("value=\"every week\""), "kept");
    let refused = send(
        &mut page,
        form(
            "Fix the kitchen tap",
            "every 2 weeks on Monday",
            "2026-03-01T09:00",
            "open",
        ),
    );
    assert_eq!(refused.status, 422);
    assert!(
        refused.body.contains("id=\"remind_at-error\""),
        "{}",
        refused.body
    );
    assert_eq!(s.org.tasks().get(made.id).unwrap(), t, "nothing saved");

    // Cleared: no repeat, no reminder, no dates, the Inbox; then won't do.
    let cleared = page.submit(
        &here,
        &here,
        &[
            ("title", "Fix the kitchen tap"),
            ("description", ""),
            ("start_on", ""),
            ("deadline_on", ""),
            ("expires_on", ""),
            ("status", "wont_do"),
            ("home", "inbox"),
            ("repeat", ""),
            ("remind_at", ""),
        ],
    );
    assert_eq!(cleared.status, 303, "{cleared:?}");
    let t = s.org.tasks().get(made.id).unwrap();
    assert_eq!(
        (t.start_on, t.deadline_on, t.expires_on, t.task_list_id),
        (None, None, None, None)
    );
    assert_eq!((t.repeat, t.remind_at), (None, None));
    assert_eq!(t.description_html, None);
    assert_eq!(t.status, TaskStatus::WontDo);

    // Complete and reopen from its page.
    let reopened = page.submit(&here, &format!("{here}/reopen"), &[("back", &here)]);
    assert_eq!(
        (reopened.status, reopened.location()),
        (303, Some(here.as_str()))
    );
    assert_eq!(s.org.tasks().get(made.id).unwrap().status, TaskStatus::Open);
}

#[test]
fn a_deleted_task_is_restored_within_twenty_seconds() {
    let s = TestServer::start();
    let made = s.org.tasks().create(TaskInput::titled("Old idea")).unwrap();
    let here = format!("/tasks/{}", made.id);
    let mut page = Page::signed_in(&s);
    let gone = page.submit(&here, &format!("{here}/delete"), &[]);
    assert_eq!(gone.status, 303);
    let to = gone.location().unwrap().to_owned();
    assert_eq!(to, format!("/tasks?view=inbox&deleted={}", made.id));
    assert!(s.org.tasks().get(made.id).is_err());
    assert_eq!(page.get(&here).status, 404);
    let offered = page.get(&to);
    assert!(
        offered
            .body
            .contains(&format!("action=\"{here}/restoration\""))
    );
    let back = page.submit(&to, &format!("{here}/restoration"), &[]);
    assert_eq!((back.status, back.location()), (303, Some(here.as_str())));
    assert_eq!(s.org.tasks().get(made.id).unwrap().title, "Old idea");

    // Too late.
    page.submit(&here, &format!("{here}/delete"), &[]);
    s.advance(21);
    let late = page.submit("/tasks", &format!("{here}/restoration"), &[]);
    assert!(late.status >= 400, "{late:?}");
    assert!(s.org.tasks().get(made.id).is_err());
}

#[test]
fn hostile_titles_and_names_are_escaped_on_every_page() {
    let s = TestServer::start();
    let hostile = "<script>alert(1)</script>\"'><img src=x onerror=alert(2)>";
    let list = s
        .org
        .task_lists()
        .create(TaskListInput {
            name: Some(format!("List {hostile}")),
            ..TaskListInput::default()
        })
        .unwrap();
    let in_list = s
        .org
        .tasks()
        .create(TaskInput {
            task_list_id: Field::Value(list.id),
            deadline_on: Field::Value("2026-03-10".parse().unwrap()),
            description_html: Field::Value(format!("<p>{}</p>", "&lt;script&gt;x")),
            ..TaskInput::titled(format!("Task {hostile}"))
        })
        .unwrap();
    let inbox = s
        .org
        .tasks()
        .create(TaskInput::titled(format!("Inbox {hostile}")))
        .unwrap();
    let mut page = Page::signed_in(&s);
    page.submit(
        "/",
        &format!("/tasks/{}/complete", inbox.id),
        &[("back", "/")],
    );
    let mut paths = vec![
        "/".to_owned(),
        format!("/?done={}", inbox.id),
        "/lists".to_owned(),
        format!("/lists/{}", list.id),
        format!("/lists/{}?show=done", list.id),
        format!("/tasks/{}", in_list.id),
        format!("/tasks/{}", inbox.id),
    ];
    for view in ["overview", "inbox", "today_queue", "due_soon", "logbook"] {
        paths.push(format!("/tasks?view={view}"));
    }
    for path in &paths {
        let answer = page.get(path);
        assert_eq!(answer.status, 200, "{path}");
        assert!(
            !answer.body.contains("<script>alert"),
            "{path}: {}",
            answer.body
        );
        assert!(!answer.body.contains("<img src=x"), "{path}");
        assert!(!answer.body.contains("\"'>"), "{path}");
    }
    assert!(page.get("/lists").body.contains("List &#60;script&#62;"));
    // What was typed, drawn again after a refusal.
    let refused = page.submit(
        "/tasks",
        "/tasks",
        &[
            ("title", &format!("{hostile} due 12/11")),
            ("back", "/tasks"),
        ],
    );
    assert_eq!(refused.status, 422);
    assert!(!refused.body.contains("<script>alert"));
    assert!(!refused.body.contains("<img src=x"));
    let refused = page.submit("/lists", "/lists", &[("name", &format!("List {hostile}"))]);
    assert_eq!(refused.status, 422);
    assert!(!refused.body.contains("<script>alert"));
}

/// Every form of these pages, with fields that would change something.
fn forms(s: &TestServer) -> Vec<(String, Vec<(&'static str, String)>)> {
    let t = task(s, "Keep me");
    let l = s
        .org
        .task_lists()
        .list(&TaskListQuery::default())
        .unwrap()
        .items[0]
        .clone();
    vec![
        (
            "/tasks".into(),
            vec![("title", "Sneaky tomorrow".into()), ("back", "/".into())],
        ),
        (
            format!("/tasks/{}/complete", t.id),
            vec![("back", "/".into())],
        ),
        (
            format!("/tasks/{}/reopen", t.id),
            vec![("back", "/".into())],
        ),
        (
            format!("/tasks/{}", t.id),
            vec![("title", "Renamed".into()), ("status", "open".into())],
        ),
        (
            format!("/tasks/{}/move", t.id),
            vec![("home", format!("list:{}", l.id))],
        ),
        (format!("/tasks/{}/delete", t.id), vec![]),
        (format!("/tasks/{}/restoration", t.id), vec![]),
        ("/lists".into(), vec![("name", "Sneaky".into())]),
        (format!("/lists/{}", l.id), vec![("name", "Renamed".into())]),
        (format!("/lists/{}/delete", l.id), vec![]),
        (format!("/lists/{}/restoration", l.id), vec![]),
    ]
}

/// The tasks and lists as the core has them.
fn state(s: &TestServer) -> String {
    let lists = s
        .org
        .task_lists()
        .list(&TaskListQuery::default())
        .unwrap()
        .items;
    format!("{:?} {:?}", tasks(s), lists)
}

fn setup() -> TestServer {
    let s = TestServer::start();
    s.org.tasks().create(TaskInput::titled("Keep me")).unwrap();
    s.org
        .task_lists()
        .create(TaskListInput {
            name: Some("Errands".into()),
            ..TaskListInput::default()
        })
        .unwrap();
    s
}

#[test]
fn without_a_session_the_pages_and_forms_send_to_sign_in() {
    let s = setup();
    let t = task(&s, "Keep me");
    let l = s
        .org
        .task_lists()
        .list(&TaskListQuery::default())
        .unwrap()
        .items[0]
        .clone();
    let mut page = Page::anonymous(&s);
    for path in [
        "/".to_owned(),
        "/tasks?view=inbox".to_owned(),
        "/lists".to_owned(),
        format!("/lists/{}", l.id),
        format!("/tasks/{}", t.id),
    ] {
        let answer = page.get(&path);
        assert_eq!(
            (answer.status, answer.location()),
            (303, Some("/sign-in")),
            "{path}"
        );
    }
    let before = state(&s);
    for (path, fields) in forms(&s) {
        let mut all: Vec<(&str, &str)> = vec![("csrf_token", "whatever")];
        all.extend(fields.iter().map(|(k, v)| (*k, v.as_str())));
        let answer = page.form(&path, &all);
        assert_eq!(
            (answer.status, answer.location()),
            (303, Some("/sign-in")),
            "{path}"
        );
    }
    assert_eq!(state(&s), before, "nothing changed");
}

#[test]
fn forms_without_the_sessions_csrf_token_are_refused_and_change_nothing() {
    let s = setup();
    let mut page = Page::signed_in(&s);
    let before = state(&s);
    for (path, fields) in forms(&s) {
        for token in [None, Some("not-the-token")] {
            let mut all: Vec<(&str, &str)> = Vec::new();
            if let Some(token) = token {
                all.push(("csrf_token", token));
            }
            all.extend(fields.iter().map(|(k, v)| (*k, v.as_str())));
            let answer = page.form(&path, &all);
            assert_eq!(answer.status, 403, "{path} with {token:?}: {answer:?}");
        }
    }
    assert_eq!(state(&s), before, "nothing changed");
}
