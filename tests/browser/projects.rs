//! Projects (`/projects`, `/projects/{id}`; EXTENSIONS.md §6: projects,
//! their members, status and deadline history, activity and tasks, the
//! upcoming deadlines), by keyboard alone: a project made from the
//! projects' page, a person made a member by name, its status changed
//! (the history says so), a deadline set (the upcoming deadlines list
//! it), and a task quick-added into it with the quick add's date words.

use organiser::projects::{ProjectQuery, ProjectStatus};
use organiser::tasks::TaskInput;
use serde_json::json;
use thirtyfour::Key;

use crate::harness::{Browser, VARIANTS};
use crate::site::Site;
use crate::tasks::visit;

/// Opens the `<details>` whose summary says `summary`, by keyboard.
fn open(b: &Browser, summary: &str) {
    b.tab_to(summary, |f| f.tag == "summary" && f.name == summary);
    b.press(Key::Enter);
}

/// The texts of the lines of the history list under the `h3` saying
/// `heading` (`Status`, `Deadline`).
fn history(b: &Browser, heading: &str) -> Vec<String> {
    let v = b.js(
        "const h = [...document.querySelectorAll('h3')].find(h => h.innerText.trim() === arguments[0]);\
         const list = h && h.nextElementSibling;\
         return list && list.matches('ol') ? [...list.querySelectorAll('li')].map(l => l.innerText.trim()) : [];",
        vec![json!(heading)],
    );
    serde_json::from_value(v).unwrap_or_default()
}

/// The links (text and address) in the section headed `heading`.
fn links_in_section(b: &Browser, heading: &str) -> Vec<(String, String)> {
    let v = b.js(
        "const h = [...document.querySelectorAll('h2')].find(h => h.innerText.trim().startsWith(arguments[0]));\
         const s = h && h.closest('section');\
         return s ? [...s.querySelectorAll('a')].map(a => [a.innerText.trim(), a.getAttribute('href')]) : [];",
        vec![json!(heading)],
    );
    serde_json::from_value(v).unwrap_or_default()
}

#[test]
fn a_project_gets_a_member_a_status_a_deadline_and_a_task() {
    let mut b = Browser::start();
    for variant in VARIANTS {
        b.set_variant(variant);
        let site = Site::ready(variant);
        let ada = site
            .org()
            .people()
            .create(organiser::people::PersonInput {
                name: Some("Ada Lovelace".into()),
                ..Default::default()
            })
            .unwrap();
        // A task elsewhere, which the project's tasks must not show.
        site.task(TaskInput::titled("Buy stamps"));
        site.sign_in(&b);

        // Made from the projects' page.
        visit(&b, &site, "/projects", "projects");
        assert!(b.text("main").contains("No projects yet."));
        b.type_in("New project", "Kitchen renovation");
        b.press(Key::Enter);
        b.wait(
            "the new project's page",
            "return document.querySelector('h1')?.innerText.trim() === 'Kitchen renovation' && document.readyState === 'complete'",
            vec![],
        );
        b.check("project");
        let project = site
            .org()
            .projects()
            .list(&ProjectQuery::default())
            .unwrap()
            .items
            .into_iter()
            .find(|p| p.name == "Kitchen renovation")
            .expect("made");
        let page = format!("/projects/{}", project.id);
        assert_eq!(b.path(), page);
        let status_before = project.status;

        // A member, by name, with a role.
        let before = b.navigation();
        open(&b, "Add a member");
        b.type_in("Person", "Ada Lovelace");
        b.type_in("Role", "Architect");
        b.tab_to("the member's Add", |f| f.tag == "button" && f.name == "Add");
        b.press(Key::Enter);
        b.wait_for_new_page(&before, "the member added");
        b.check("project (member)");
        let members = links_in_section(&b, "Members");
        assert_eq!(
            members,
            [("Ada Lovelace".to_owned(), format!("/people/{}", ada.id))],
            "{}",
            b.text("main")
        );
        assert!(b.text("main").contains("Architect"));
        let added = site.org().projects().get(project.id).unwrap();
        assert_eq!(
            site.org()
                .people()
                .list(&Default::default())
                .unwrap()
                .items
                .len(),
            1,
            "no one new was made: Ada was found by her name"
        );
        assert_eq!(added.status, status_before);

        // The status: on hold (the select chosen by typing, as a keyboard
        // does). The history says it.
        assert!(history(&b, "Status").is_empty());
        let before = b.navigation();
        open(&b, "Edit the project");
        let status = b.field("Status");
        b.tab_to("Status", |f| f.id == status);
        b.press("On hold");
        let chosen = b.js(
            "const s = document.getElementById(arguments[0]); return s.options[s.selectedIndex].text.trim();",
            vec![json!(status)],
        );
        assert_eq!(chosen, "On hold", "typing chose the status");
        b.tab_to("Save", |f| f.tag == "button" && f.name == "Save");
        b.press(Key::Enter);
        b.wait_for_new_page(&before, "the status saved");
        b.check("project (status)");
        assert_eq!(
            site.org().projects().get(project.id).unwrap().status,
            ProjectStatus::OnHold
        );
        let said = history(&b, "Status");
        assert_eq!(said.len(), 1, "{said:?}");
        assert!(said[0].ends_with("Active → On hold"), "{said:?}");
        assert!(b.text(".subtitle").contains("On hold"));

        // A deadline, typed as a person types into the browser's date
        // field (month, day, year in its English).
        let before = b.navigation();
        open(&b, "Edit the project");
        let deadline = b.field("Deadline");
        b.tab_to("Deadline", |f| f.id == deadline);
        b.press("03272026");
        b.tab_to("Save", |f| f.tag == "button" && f.name == "Save");
        b.press(Key::Enter);
        b.wait_for_new_page(&before, "the deadline saved");
        b.check("project (deadline)");
        assert_eq!(
            site.org().projects().get(project.id).unwrap().deadline,
            Some("2026-03-27".parse().unwrap())
        );
        let said = history(&b, "Deadline");
        assert_eq!(said.len(), 1, "{said:?}");
        assert!(said[0].ends_with("none → Fri 27 Mar 2026"), "{said:?}");
        // The status's history is as it was.
        assert_eq!(history(&b, "Status").len(), 1);

        // The projects' page lists it among the upcoming deadlines.
        b.tab_to("Projects", |f| f.tag == "a" && f.name == "Projects");
        b.press(Key::Enter);
        b.wait_for_path("/projects");
        b.check("projects (a deadline)");
        let upcoming = links_in_section(&b, "Upcoming deadlines");
        assert_eq!(
            upcoming,
            [("Kitchen renovation".to_owned(), page.clone())],
            "{}",
            b.text("main")
        );
        let deadlines = b.text(".deadlines");
        assert!(deadlines.contains("due Fri 27 Mar 2026"), "{deadlines}");
        // Under its status.
        assert!(
            b.text("#h-on_hold").starts_with("On hold"),
            "{}",
            b.text("main")
        );

        // Back to it from there, and a task quick-added into it.
        b.tab_to("Kitchen renovation", |f| {
            f.tag == "a" && f.name == "Kitchen renovation"
        });
        b.press(Key::Enter);
        b.wait_for_path(&page);
        b.check("project (again)");
        assert!(b.text("main").contains("No open task."));
        let before = b.navigation();
        b.type_in("Add a task", "call the builder due friday");
        b.press(Key::Enter);
        b.wait_for_new_page(&before, "the task added");
        b.check("project (a task)");
        let task = site.wait_for_task("call the builder");
        assert_eq!(
            task.deadline_on,
            Some("2026-03-13".parse().unwrap()),
            "friday is Friday 13 March"
        );
        assert_eq!(task.project_id, Some(project.id), "made in the project");
        let tasks = links_in_section(&b, "Open tasks");
        assert_eq!(
            tasks,
            [("call the builder".to_owned(), format!("/tasks/{}", task.id))],
            "{}",
            b.text("main")
        );
        assert!(b.text("main").contains("due Fri 13 Mar 2026"));
        // Its activity tells what happened.
        let activity = b.text(".activity");
        assert!(
            activity.contains("Status from Active to On hold"),
            "{activity}"
        );
    }
    b.finish();
}
