//! A task's page (`/tasks/{id}`), by keyboard alone: reached from the
//! list by its title, every field shown and changed (title, description,
//! dates, repeat in words, the reminder), saved, and completed there.

use organiser::Field;
use organiser::tasks::{Repeat, TaskInput};
use thirtyfour::Key;

use crate::harness::{Browser, VARIANTS};
use crate::site::Site;
use crate::tasks::visit;

#[test]
fn a_task_is_opened_changed_in_every_field_and_completed() {
    let mut b = Browser::start();
    for variant in VARIANTS {
        b.set_variant(variant);
        let site = Site::ready(variant);
        let task = site.task(TaskInput {
            deadline_on: Field::Value("2026-03-20".parse().unwrap()),
            ..TaskInput::titled("Renew the passport")
        });
        site.sign_in(&b);

        // From the Inbox, by its title.
        visit(&b, &site, "/tasks", "tasks: inbox");
        b.press_named("Renew the passport");
        b.wait_for_path(&format!("/tasks/{}", task.id));
        b.check("task");
        assert_eq!(b.heading(), "Renew the passport");

        // Every field, by keyboard.
        b.type_in("Title", "Renew both passports");
        b.type_in("Description", "Photos from the booth on the corner.");
        b.type_in("Repeat", "every 10 years");
        // Dates as a person types them into the browser's date fields
        // (month, day, year in the browser's English).
        let start = b.field("Start");
        b.tab_to("Start", |f| f.id == start);
        b.press("03122026");
        let remind = b.field("Remind me");
        b.tab_to("Remind me", |f| f.id == remind);
        b.press("03152026");
        b.press(Key::Right);
        b.press("0930AM");
        b.tab_to("Save", |f| f.name == "Save");
        b.press(Key::Enter);
        let said = b.notice();
        assert!(said.contains("Saved"), "the page says it saved: {said}");
        b.check("task (saved)");

        let saved = site.org().tasks().get(task.id).unwrap();
        assert_eq!(saved.title, "Renew both passports");
        assert_eq!(
            saved.description_text.trim(),
            "Photos from the booth on the corner."
        );
        assert_eq!(saved.start_on, Some("2026-03-12".parse().unwrap()));
        assert_eq!(saved.deadline_on, Some("2026-03-20".parse().unwrap()));
        assert_eq!(
            saved.repeat.as_ref().map(Repeat::to_words).as_deref(),
            Some("every 10 years")
        );
        let zone = site.org().account().me().unwrap().time_zone_iana;
        let reminded = saved
            .remind_at
            .expect("a reminder")
            .to_zoned(jiff::tz::TimeZone::get(&zone).unwrap());
        assert_eq!(
            reminded.datetime(),
            "2026-03-15T09:30".parse::<jiff::civil::DateTime>().unwrap(),
            "the reminder in the owner's zone"
        );
        // The page shows what was saved.
        assert_eq!(b.heading(), "Renew both passports");
        assert!(
            b.text("main").contains("every 10 years"),
            "the repeat in words"
        );

        // Completed from its page; reopened there.
        b.press_named("Complete");
        b.wait(
            "the task completed",
            "return [...document.querySelectorAll('main button')].some(b => b.innerText.trim() === 'Reopen')",
            vec![],
        );
        b.check("task (completed)");
        assert!(site.org().tasks().get(task.id).unwrap().status.is_closed());
        b.press_named("Reopen");
        b.wait(
            "the task reopened",
            "return [...document.querySelectorAll('main button')].some(b => b.innerText.trim() === 'Complete')",
            vec![],
        );
        assert!(!site.org().tasks().get(task.id).unwrap().status.is_closed());
    }
    b.finish();
}

#[test]
fn a_refused_field_is_said_beside_it() {
    let mut b = Browser::start();
    for variant in VARIANTS {
        b.set_variant(variant);
        let site = Site::ready(variant);
        let task = site.task(TaskInput::titled("Fix the tap"));
        site.sign_in(&b);
        visit(&b, &site, &format!("/tasks/{}", task.id), "task");
        b.type_in("Repeat", "every blue moon");
        b.press(Key::Enter);
        let error = b.wait(
            "the repeat's refusal",
            "const f = document.getElementById('repeat');\
             if (f?.getAttribute('aria-invalid') !== 'true') return null;\
             return (f.getAttribute('aria-describedby') || '').split(' ')\
               .map(id => document.getElementById(id)?.innerText).join(' ');",
            vec![],
        );
        assert!(!error.as_str().unwrap_or_default().is_empty());
        b.check("task (refused)");
        assert!(site.org().tasks().get(task.id).unwrap().repeat.is_none());
    }
    b.finish();
}
