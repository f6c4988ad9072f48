//! Tasks as a person lives them, by keyboard alone: quick add with the
//! core's date and repeat words, the task in the views it belongs to as
//! the days pass, and completing it and undoing that.

use serde_json::json;
use thirtyfour::Key;

use crate::harness::{Browser, VARIANTS};
use crate::site::Site;

/// The titles of the tasks the page lists.
pub(crate) fn titles(b: &Browser) -> Vec<String> {
    b.texts(".tasks .title")
}

/// Quick add by keyboard: Tab from the top of the page to the field,
/// type, Enter.
pub(crate) fn quick_add(b: &Browser, words: &str) {
    b.tab_to("quick add", |f| f.id == "quick-add");
    b.press(words);
    b.press(Key::Enter);
}

/// Loads `path` and waits for it.
pub(crate) fn visit(b: &Browser, site: &Site, path: &str, page: &str) {
    b.goto(&site.url(path));
    b.wait_for_path(path);
    b.check(page);
}

/// Waits until the page lists (or no longer lists) `title`.
#[track_caller]
pub(crate) fn wait_listed(b: &Browser, title: &str, listed: bool) {
    let what = if listed {
        format!("{title:?} to be listed")
    } else {
        format!("{title:?} to leave the list")
    };
    b.wait(
        &what,
        "return [...document.querySelectorAll('.tasks .title')]\
           .some(e => e.innerText.trim() === arguments[0]) === arguments[1];",
        vec![json!(title), json!(listed)],
    );
}

#[test]
fn a_task_added_for_tomorrow_every_week_is_in_its_views_as_the_days_pass() {
    let mut b = Browser::start();
    for variant in VARIANTS {
        b.set_variant(variant);
        let site = Site::ready(variant);
        site.sign_in(&b);
        b.check("today");

        quick_add(&b, "Pay the rent tomorrow every week");
        let task = site.wait_for_task("Pay the rent");
        assert_eq!(
            task.repeat.as_ref().map(|r| r.to_words()).as_deref(),
            Some("every week"),
            "the repeat words were read"
        );
        let tomorrow = "2026-03-11".parse().unwrap();
        assert!(
            task.start_on == Some(tomorrow) || task.deadline_on == Some(tomorrow),
            "tomorrow was read: {:?} / {:?}",
            task.start_on,
            task.deadline_on
        );
        // Not for today: the page it was added on does not list it, the
        // Inbox does.
        b.wait(
            "the quick add field to be empty again",
            "return document.getElementById('quick-add')?.value === ''",
            vec![],
        );
        assert!(!titles(&b).contains(&"Pay the rent".to_owned()));
        visit(&b, &site, "/tasks?view=overview", "tasks: inbox");
        assert!(
            titles(&b).contains(&"Pay the rent".to_owned()),
            "the Inbox lists it: {:?}",
            titles(&b)
        );

        // The next day it is today's.
        site.server.advance(24 * 3600);
        visit(&b, &site, "/", "today");
        assert_eq!(
            titles(&b)
                .iter()
                .filter(|t| t.as_str() == "Pay the rent")
                .count(),
            1,
            "today lists it once: {:?}",
            titles(&b)
        );

        // Complete it by keyboard; it leaves today, the next week's
        // is made; undo brings it back alone.
        b.tab_to("its completion", |f| f.name == "Complete Pay the rent");
        b.press(Key::Enter);
        wait_listed(&b, "Pay the rent", false);
        b.check("today (completed)");
        assert!(
            site.tasks_titled("Pay the rent").len() == 2,
            "the series' next occurrence"
        );
        undo(&b, &site, "Pay the rent");
        visit(&b, &site, "/", "today");
        assert_eq!(
            titles(&b)
                .iter()
                .filter(|t| t.as_str() == "Pay the rent")
                .count(),
            1
        );
    }
    b.finish();
}

/// Undoes the completion of `title`: by the page's Undo when it offers
/// one, else from the Logbook (its Reopen).
fn undo(b: &Browser, site: &Site, title: &str) {
    if b.has_named("Undo") {
        b.tab_to("Undo", |f| f.name == "Undo");
        b.press(Key::Enter);
        wait_listed(b, title, true);
        return;
    }
    visit(b, site, "/tasks?view=logbook", "tasks: logbook");
    let reopen = format!("Reopen {title}");
    b.tab_to(&reopen, |f| f.name == reopen);
    b.press(Key::Enter);
    wait_listed(b, title, false);
    b.check("tasks: logbook (reopened)");
}

#[test]
fn quick_add_then_complete_and_undo_by_keyboard() {
    let mut b = Browser::start();
    for variant in VARIANTS {
        b.set_variant(variant);
        let site = Site::ready(variant);
        // Something already due, so today is not empty.
        site.task(organiser::tasks::TaskInput {
            deadline_on: organiser::Field::Value("2026-03-10".parse().unwrap()),
            ..organiser::tasks::TaskInput::titled("Water the plants")
        });
        site.sign_in(&b);
        b.check("today");

        // The first Tab stop is the way past the navigation.
        b.press(Key::Tab);
        let skip = b.focused();
        assert_eq!(
            (skip.tag.as_str(), skip.name.as_str()),
            ("a", "Skip to the content")
        );
        b.press(Key::Enter);
        b.wait(
            "the skip link to lead to the content",
            "return location.hash === '#main'",
            vec![],
        );

        // Quick add in the Inbox view, by keyboard.
        visit(&b, &site, "/tasks", "tasks: inbox");
        quick_add(&b, "Call the bank");
        wait_listed(&b, "Call the bank", true);
        site.wait_for_task("Call the bank");
        b.check("tasks: inbox (added)");
        let focus = b.focused();
        assert!(
            focus.id == "quick-add",
            "the focus stays in quick add for the next task: {focus:?}"
        );

        // Complete it by keyboard: it leaves the view.
        b.tab_to("its completion", |f| f.name == "Complete Call the bank");
        b.press(Key::Enter);
        wait_listed(&b, "Call the bank", false);
        b.check("tasks: inbox (completed)");
        let done = site.tasks_titled("Call the bank");
        assert_eq!(done.len(), 1);
        assert_eq!(done[0].status, organiser::tasks::TaskStatus::Completed);

        // Undo.
        undo(&b, &site, "Call the bank");
        assert_eq!(
            site.tasks_titled("Call the bank")[0].status,
            organiser::tasks::TaskStatus::Open
        );
        visit(&b, &site, "/tasks", "tasks: inbox");
        assert!(titles(&b).contains(&"Call the bank".to_owned()));

        // Today lists what is due.
        visit(&b, &site, "/", "today");
        assert_eq!(titles(&b), ["Water the plants"]);
    }
    b.finish();
}
