//! The projects' pages as a browser without script uses them
//! (EXTENSIONS.md §6, projects): the list by status with the upcoming
//! deadlines, a project made from it, its page, its fields edited (the
//! status change in its history), members added and removed, a task
//! quick-added into it and completed, the core's refusals beside their
//! fields (422), delete with its undo, hostile names escaped, 303 to
//! sign-in without a session, and 403 for a form without the session's
//! CSRF token.

use organiser::Field;
use organiser::projects::{Project, ProjectInput, ProjectQuery, ProjectStatus};
use organiser::tasks::{Home, TaskQuery, TaskStatus};

use super::{Answer, Page, project};
use crate::common::TestServer;

/// Every live project.
fn projects(s: &TestServer) -> Vec<Project> {
    let mut query = ProjectQuery::default();
    query.params.limit = 100;
    s.org.projects().list(&query).unwrap().items
}

/// The form `path` of project `p`'s page, sent with `fields`.
fn send(page: &mut Page<'_>, p: &Project, path: &str, fields: &[(&str, &str)]) -> Answer {
    let from = format!("/projects/{}", p.id);
    let to = format!("/projects/{}{path}", p.id);
    page.submit(&from, &to, fields)
}

/// Project `p`'s page as it is now.
fn show(page: &mut Page<'_>, p: &Project) -> Answer {
    let answer = page.get(&format!("/projects/{}", p.id));
    assert_eq!(answer.status, 200, "{answer:?}");
    answer
}

#[test]
fn the_list_makes_projects_and_shows_them_by_status_with_deadlines() {
    let s = TestServer::start();
    let mut page = Page::signed_in(&s);
    let empty = page.get("/projects");
    assert_eq!(empty.status, 200, "{empty:?}");
    assert!(empty.body.contains("No projects yet."));
    assert!(
        empty
            .body
            .contains("<a href=\"/projects\" aria-current=\"page\">Projects</a>")
    );

    let made = page.submit("/projects", "/projects", &[("name", "  Move   house ")]);
    assert_eq!(made.status, 303, "{made:?}");
    let house = projects(&s).into_iter().next().expect("made");
    assert_eq!(house.name, "Move house", "squished by the core");
    let to = format!("/projects/{}", house.id);
    assert_eq!(made.location(), Some(to.as_str()));

    let soon = s.org.today().checked_add(jiff::ToSpan::days(5)).unwrap();
    let garden = s
        .org
        .projects()
        .create(ProjectInput {
            name: Some("Garden".into()),
            status: Field::Value("on_hold".into()),
            deadline: Field::Value(soon),
            ..ProjectInput::default()
        })
        .unwrap();
    let list = page.get("/projects");
    assert_eq!(list.status, 200);
    let active = list.body.find("id=\"h-active\"").expect("the active group");
    let on_hold = list
        .body
        .find("id=\"h-on_hold\"")
        .expect("the on hold group");
    let house_at = list
        .body
        .rfind(&format!(
            "<a href=\"/projects/{}\">Move house</a>",
            house.id
        ))
        .unwrap();
    let garden_at = list
        .body
        .rfind(&format!("<a href=\"/projects/{}\">Garden</a>", garden.id))
        .unwrap();
    assert!(active < house_at && house_at < on_hold && on_hold < garden_at);
    let deadlines = list.body.find("id=\"h-deadlines\"").unwrap();
    let listed = list.body[deadlines..].find("Garden").unwrap();
    assert!(
        list.body[deadlines + listed..].contains(&format!("due {}", soon.strftime("%a %-d %b %Y")))
    );
}

#[test]
fn a_project_is_shown_and_edited_with_its_status_history() {
    let s = TestServer::start();
    let p = project(&s, "Kitchen");
    let mut page = Page::signed_in(&s);
    let shown = show(&mut page, &p);
    assert!(shown.body.contains("<h1>Kitchen</h1>"));
    assert!(shown.body.contains("Active since it was made."));

    let saved = send(
        &mut page,
        &p,
        "",
        &[
            ("name", "Kitchen refit"),
            ("status", "on_hold"),
            ("start_date", "2030-01-01"),
            ("deadline", "2030-03-31"),
            ("my_role", "Owner"),
            ("external_reference", "KIT-7"),
            ("external_url", "https://example.org/kitchen"),
            ("description", "Tiles first.\nThen the sink."),
        ],
    );
    assert_eq!(saved.status, 303, "{saved:?}");
    let to = format!("/projects/{}?saved=1", p.id);
    assert_eq!(saved.location(), Some(to.as_str()));
    let now = s.org.projects().get(p.id).unwrap();
    assert_eq!(now.name, "Kitchen refit");
    assert_eq!(now.status, ProjectStatus::OnHold);
    assert_eq!(now.deadline.unwrap().to_string(), "2030-03-31");
    assert_eq!(now.my_role.as_deref(), Some("Owner"));
    assert_eq!(now.external_reference.as_deref(), Some("KIT-7"));

    let shown = page.get(&to);
    assert!(shown.body.contains("Saved."));
    assert!(shown.body.contains("<p>Tiles first.</p>"));
    assert!(shown.body.contains("<p>Then the sink.</p>"));
    assert!(shown.body.contains("KIT-7"));
    assert!(shown.body.contains("Active → On hold"), "{}", shown.body);
    assert!(shown.body.contains("none → Sun 31 Mar 2030"));
    assert!(
        shown.body.contains("Status from Active to On hold"),
        "activity"
    );
    assert!(shown.body.contains("<option value=\"on_hold\" selected>"));

    // The core keeps one change of a kind within 10 minutes.
    s.clock.advance_secs(11 * 60);
    let done = send(
        &mut page,
        &p,
        "",
        &[("name", "Kitchen refit"), ("status", "done")],
    );
    assert_eq!(done.status, 303, "{done:?}");
    let shown = show(&mut page, &p);
    assert!(shown.body.contains("On hold → Done"));
    assert!(
        shown.body.contains("Sun 31 Mar 2030 → none"),
        "cleared deadline"
    );
}

#[test]
fn refusals_are_said_beside_their_fields() {
    let s = TestServer::start();
    let p = project(&s, "Roof");
    project(&s, "Shed");
    let mut page = Page::signed_in(&s);
    let backwards = send(
        &mut page,
        &p,
        "",
        &[
            ("name", "Roof typed"),
            ("start_date", "2030-05-01"),
            ("deadline", "2030-04-01"),
        ],
    );
    assert_eq!(backwards.status, 422, "{backwards:?}");
    assert!(
        backwards.body.contains("id=\"project-deadline-error\""),
        "{}",
        backwards.body
    );
    assert!(
        backwards.body.contains("value=\"Roof typed\""),
        "typed kept"
    );
    assert!(backwards.body.contains("<details class=\"add\" open>"));

    let unread = send(
        &mut page,
        &p,
        "",
        &[("name", "Roof"), ("deadline", "soonish")],
    );
    assert_eq!(unread.status, 422);
    assert!(unread.body.contains("The deadline must be a date"));

    let taken = send(&mut page, &p, "", &[("name", "shed")]);
    assert_eq!(taken.status, 422, "{taken:?}");
    assert!(taken.body.contains("id=\"project-name-error\""));

    let blank = page.submit("/projects", "/projects", &[("name", "  ")]);
    assert_eq!(blank.status, 422);
    assert!(blank.body.contains("id=\"new-project-error\""));

    let no_title = send(&mut page, &p, "/tasks", &[("title", "  ")]);
    assert_eq!(no_title.status, 422, "{no_title:?}");
    assert!(no_title.body.contains("aria-invalid=\"true\""));
    let now = s.org.projects().get(p.id).unwrap();
    assert_eq!(now.name, "Roof");
    assert_eq!(now.deadline, None);
}

#[test]
fn members_are_added_and_removed() {
    let s = TestServer::start();
    let p = project(&s, "Wedding");
    let mut page = Page::signed_in(&s);
    let added = send(
        &mut page,
        &p,
        "/members",
        &[("person", "Grace Hopper"), ("role", "Best woman")],
    );
    assert_eq!(added.status, 303, "{added:?}");
    let now = s.org.projects().get(p.id).unwrap();
    assert_eq!(now.members.len(), 1);
    let member = &now.members[0];
    assert_eq!(member.role.as_deref(), Some("Best woman"));
    let shown = show(&mut page, &p);
    assert!(shown.body.contains(&format!(
        "<a href=\"/people/{}\">Grace Hopper</a>",
        member.person_id
    )));
    assert!(shown.body.contains("Best woman"));
    assert!(shown.body.contains("Grace Hopper joined"), "activity");

    let again = send(&mut page, &p, "/members", &[("person", "grace hopper")]);
    assert!(again.status == 422 || again.status == 409, "{again:?}");

    let removed = send(
        &mut page,
        &p,
        &format!("/members/{}/delete", member.id),
        &[],
    );
    assert_eq!(removed.status, 303, "{removed:?}");
    assert!(s.org.projects().get(p.id).unwrap().members.is_empty());
    let shown = show(&mut page, &p);
    assert!(shown.body.contains("No members yet."));
}

#[test]
fn tasks_are_quick_added_into_the_project_and_completed() {
    let s = TestServer::start();
    let p = project(&s, "Car");
    let mut page = Page::signed_in(&s);
    let added = send(
        &mut page,
        &p,
        "/tasks",
        &[("title", "Book the service due 2030-06-01")],
    );
    assert_eq!(added.status, 303, "{added:?}");
    let tasks = s
        .org
        .tasks()
        .list(&TaskQuery {
            home: Some(Home::Project(p.id)),
            ..TaskQuery::default()
        })
        .unwrap()
        .items;
    assert_eq!(tasks.len(), 1);
    let task = &tasks[0];
    assert_eq!(task.title, "Book the service");
    assert_eq!(task.deadline_on.unwrap().to_string(), "2030-06-01");
    let shown = show(&mut page, &p);
    assert!(shown.body.contains(&format!(
        "<a href=\"/tasks/{}\">Book the service</a>",
        task.id
    )));

    let back = format!("/projects/{}", p.id);
    let completed = page.submit(
        &back,
        &format!("/tasks/{}/complete", task.id),
        &[("back", back.as_str())],
    );
    assert_eq!(completed.status, 303, "{completed:?}");
    let to = completed.location().unwrap().to_owned();
    assert!(to.starts_with(&back), "{to}");
    assert_eq!(
        s.org.tasks().get(task.id).unwrap().status,
        TaskStatus::Completed
    );
    let shown = page.get(&to);
    assert!(shown.body.contains("No open task."));
    assert!(
        shown
            .body
            .contains(&format!("action=\"/tasks/{}/reopen\"", task.id))
    );
    assert!(
        shown.body.contains("Completed: Book the service"),
        "activity"
    );
}

#[test]
fn a_deleted_project_is_restored_by_undo() {
    let s = TestServer::start();
    let p = project(&s, "Attic");
    let mut page = Page::signed_in(&s);
    let deleted = send(&mut page, &p, "/delete", &[]);
    assert_eq!(deleted.status, 303, "{deleted:?}");
    let to = format!("/projects?deleted={}", p.id);
    assert_eq!(deleted.location(), Some(to.as_str()));
    assert!(projects(&s).is_empty());
    let list = page.get(&to);
    assert!(
        list.body
            .contains(&format!("action=\"/projects/{}/restoration\"", p.id))
    );
    let restored = page.submit(&to, &format!("/projects/{}/restoration", p.id), &[]);
    assert_eq!(restored.status, 303, "{restored:?}");
    assert_eq!(
        restored.location(),
        Some(format!("/projects/{}", p.id).as_str())
    );
    assert_eq!(projects(&s).len(), 1);
    show(&mut page, &p);
}

#[test]
fn hostile_names_are_escaped() {
    let s = TestServer::start();
    let hostile = "<script>alert(1)</script><img src=x onerror=alert(2)>\"'>";
    let p = s
        .org
        .projects()
        .create(ProjectInput {
            name: Some(format!("Evil {hostile}")),
            my_role: Field::Value(hostile.into()),
            external_reference: Field::Value(hostile.into()),
            deadline: Field::Value(s.org.today()),
            ..ProjectInput::default()
        })
        .unwrap();
    let mut page = Page::signed_in(&s);
    let member = send(
        &mut page,
        &p,
        "/members",
        &[("person", hostile), ("role", hostile)],
    );
    assert_eq!(member.status, 303, "{member:?}");
    let task = send(&mut page, &p, "/tasks", &[("title", hostile)]);
    assert_eq!(task.status, 303, "{task:?}");
    let refused = send(
        &mut page,
        &p,
        "",
        &[("name", hostile), ("deadline", hostile)],
    );
    assert_eq!(refused.status, 422);
    for answer in [page.get("/projects"), show(&mut page, &p), refused] {
        assert!(!answer.body.contains("<script>alert"), "{}", answer.body);
        assert!(!answer.body.contains("<img src=x"));
        assert!(!answer.body.contains("\"'>"));
    }
}

#[test]
fn no_page_without_a_session_and_no_form_without_the_token() {
    let s = TestServer::start();
    let p = project(&s, "Boat");
    super::assert_signed_only(&s, &["/projects".to_owned(), format!("/projects/{}", p.id)]);
    let mut page = Page::signed_in(&s);
    let forms: Vec<(String, Vec<(&str, &str)>)> = vec![
        ("/projects".into(), vec![("name", "Other")]),
        (format!("/projects/{}", p.id), vec![("name", "Changed")]),
        (
            format!("/projects/{}/members", p.id),
            vec![("person", "Bob")],
        ),
        (format!("/projects/{}/tasks", p.id), vec![("title", "Sail")]),
        (format!("/projects/{}/delete", p.id), vec![]),
    ];
    super::assert_forms_need_the_token(&mut page, &forms);
    let now = projects(&s);
    assert_eq!(now.len(), 1, "nothing made or deleted");
    assert_eq!(now[0].name, "Boat");
    assert!(now[0].members.is_empty());
}
