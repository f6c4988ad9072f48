//! Screenshots of the today page, a task and the settings at 360 and
//! 1280 px, light and dark, over a store with a few days' tasks: written
//! to `docs/screenshots/<page>-<width>-<theme>.png` with
//! `ORGANISER_BLESS=1 cargo test --test browser screenshots` (taken and
//! checked, never written, otherwise).

use organiser::Field;
use organiser::tasks::{Repeat, TaskInput};

use crate::harness::{Browser, VARIANTS};
use crate::site::Site;
use crate::tasks::visit;

/// A store with what a person's today looks like on 2026-03-10: overdue,
/// due today, started, repeating, in lists; and one task with every field.
fn lived_in(site: &Site) -> organiser::Id {
    let day = |d: &str| Field::Value(d.parse().unwrap());
    let errands = site.list("Errands");
    let home = site.list("Home");
    site.list("Work");
    site.task(TaskInput {
        deadline_on: day("2026-03-08"),
        ..TaskInput::titled("Send the invoice to Acme")
    });
    site.task(TaskInput {
        deadline_on: day("2026-03-10"),
        task_list_id: Field::Value(errands),
        ..TaskInput::titled("Post the birthday card to Grandma")
    });
    site.task(TaskInput {
        start_on: day("2026-03-10"),
        repeat: Field::Value(Repeat::from_words("every 3 days").unwrap()),
        task_list_id: Field::Value(home),
        ..TaskInput::titled("Water the plants")
    });
    site.task(TaskInput {
        start_on: day("2026-03-09"),
        ..TaskInput::titled("Book the dentist")
    });
    site.task(TaskInput {
        deadline_on: day("2026-03-13"),
        ..TaskInput::titled("Pay the electricity bill")
    });
    site.task(TaskInput::titled("Read the lease before signing"));
    let passport = site.task(TaskInput {
        start_on: day("2026-03-12"),
        deadline_on: day("2026-04-30"),
        repeat: Field::Value(Repeat::from_words("every 10 years").unwrap()),
        remind_at: Field::Value("2026-03-15T09:30:00Z".parse().unwrap()),
        task_list_id: Field::Value(errands),
        description_html: Field::Value(
            "<p>Two photos from the booth on the corner; the old passport; the form signed.</p>"
                .to_owned(),
        ),
        ..TaskInput::titled("Renew the passport")
    });
    let done = site.task(TaskInput::titled("Take the bins out"));
    site.org()
        .tasks()
        .change(
            done.id,
            TaskInput {
                status: Some(organiser::tasks::TaskStatus::Completed),
                ..TaskInput::default()
            },
        )
        .unwrap();
    passport.id
}

/// Each of `pages` (name, path) at every variant.
fn shoot(pages: &[(&str, &str)], with_task: bool) {
    let mut b = Browser::start();
    for variant in VARIANTS {
        b.set_variant(variant);
        let site = Site::ready(variant);
        let task = lived_in(&site);
        site.org()
            .account()
            .change_me(organiser::account::OwnerChange {
                name: Some("Ada Lovelace".to_owned()),
                ..Default::default()
            })
            .unwrap();
        site.sign_in(&b);
        for (page, path) in pages {
            let path = if with_task {
                path.replace("{task}", &task.to_string())
            } else {
                (*path).to_owned()
            };
            visit(&b, &site, &path, page);
            // The page is drawn in the owner's theme.
            assert_eq!(
                b.js("return document.documentElement.dataset.theme", vec![]),
                variant.theme()
            );
            b.screenshot(page);
        }
    }
    b.finish();
}

#[test]
fn screenshots_of_today() {
    shoot(&[("today", "/")], false);
}

#[test]
fn screenshots_of_a_task() {
    shoot(&[("task", "/tasks/{task}")], true);
}

#[test]
fn screenshots_of_the_settings() {
    shoot(&[("settings", "/settings/account")], false);
}
