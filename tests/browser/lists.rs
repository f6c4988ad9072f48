//! Task lists (`/lists`, `/lists/{id}`), by keyboard alone: a new list
//! made, a task moved to a list from its page, and the list showing it.

use serde_json::json;
use thirtyfour::Key;

use crate::harness::{Browser, VARIANTS};
use crate::site::Site;
use crate::tasks::{titles, visit};

#[test]
fn a_task_is_moved_to_a_list_and_the_list_shows_it() {
    let mut b = Browser::start();
    for variant in VARIANTS {
        b.set_variant(variant);
        let site = Site::ready(variant);
        let errands = site.list("Errands");
        let task = site.task(organiser::tasks::TaskInput::titled("Buy stamps"));
        site.sign_in(&b);

        // A new list, from the lists' page.
        visit(&b, &site, "/lists", "lists");
        b.type_in("New list", "Garden");
        b.press(Key::Enter);
        // It is shown: its own page, or the lists with it.
        b.wait(
            "the new list",
            "return document.querySelector('h1')?.innerText.trim() === 'Garden' ||\
               [...document.querySelectorAll('main a')].some(a => a.innerText.trim() === 'Garden')",
            vec![],
        );
        b.check("lists (made)");
        assert!(
            site.org()
                .task_lists()
                .list(&Default::default())
                .unwrap()
                .items
                .iter()
                .any(|l| l.name == "Garden")
        );

        // The task's page: move it to Errands (a select, chosen by
        // typing its name, as a keyboard does).
        visit(&b, &site, &format!("/tasks/{}", task.id), "task");
        let select = b.field("Move to");
        b.tab_to("Move to", |f| f.id == select);
        b.press("Errands");
        let chosen = b.js(
            "const s = document.getElementById(arguments[0]); return s.options[s.selectedIndex].text.trim();",
            vec![json!(select)],
        );
        assert_eq!(chosen, "Errands", "typing chose the list");
        b.tab_to("Move", |f| f.name == "Move");
        b.press(Key::Enter);
        b.wait(
            "the move",
            "return !!document.querySelector('[role=status]') || location.pathname !== arguments[0]",
            vec![json!(format!("/tasks/{}", task.id))],
        );
        assert_eq!(
            site.org().tasks().get(task.id).unwrap().task_list_id,
            Some(errands)
        );

        // The lists' page counts it; the list shows it.
        visit(&b, &site, "/lists", "lists");
        b.tab_to("Errands", |f| f.tag == "a" && f.name == "Errands");
        b.press(Key::Enter);
        b.wait_for_path(&format!("/lists/{errands}"));
        b.check("list");
        assert_eq!(b.heading(), "Errands");
        assert_eq!(titles(&b), ["Buy stamps"]);
        // Not in the Inbox any more.
        visit(&b, &site, "/tasks?view=overview", "tasks: inbox");
        assert!(!titles(&b).contains(&"Buy stamps".to_owned()));
    }
    b.finish();
}
