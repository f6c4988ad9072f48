//! Screenshots of the today page, a task, the settings and each family's
//! main page (people, projects, notes, documents, the calendar) at 360
//! and 1280 px, light and dark, over a store with a few days' tasks, a
//! few people, projects, notes and documents: written
//! to `docs/screenshots/<page>-<width>-<theme>.png` with
//! `ORGANISER_BLESS=1 cargo test --test browser screenshots` (taken and
//! checked, never written, otherwise).

use organiser::Field;
use organiser::notes::NoteInput;
use organiser::people::{EmailAddressFields, KeyDateFields, PersonInput, PositionFields, RowInput};
use organiser::projects::ProjectInput;
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

/// A few people (one with a birthday this week), projects, notes and
/// documents in folders besides the tasks.
fn families(site: &Site) {
    let org = site.org();
    for (folder, files) in [
        ("Home", &["Lease 2026", "Boiler warranty"][..]),
        (
            "Taxes",
            &["Payslip March", "Pension letter", "Bank statement"][..],
        ),
    ] {
        let folder = org
            .folders()
            .create(organiser::folders::FolderInput {
                name: Some(folder.into()),
                ..Default::default()
            })
            .unwrap();
        for name in files {
            let upload = org
                .uploads()
                .create(
                    organiser::uploads::UploadKind::Document,
                    &format!("{name}.pdf"),
                    "application/pdf",
                    crate::common::fixtures::pdf(name),
                )
                .unwrap();
            let document = org
                .documents()
                .create(organiser::documents::DocumentInput {
                    upload: Some(upload.signed_id),
                    name: Field::Value((*name).to_owned()),
                    folder_id: Field::Value(folder.id),
                    ..Default::default()
                })
                .unwrap();
            // Its thumbnail drawn (the generic icon stands in until then).
            let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
            while org.documents().thumbnail(document.id).unwrap().content_type != "image/webp" {
                assert!(
                    std::time::Instant::now() < deadline,
                    "no thumbnail for {name}"
                );
                std::thread::sleep(std::time::Duration::from_millis(50));
            }
        }
    }
    let mut people = Vec::new();
    for (name, title, company, email, birthday) in [
        (
            "Grace Hopper",
            "Rear admiral",
            "US Navy",
            "grace@navy.example",
            Some((12, 3)),
        ),
        (
            "Charles Babbage",
            "Engineer",
            "Difference Works",
            "charles@example.org",
            None,
        ),
        (
            "Mary Somerville",
            "Author",
            "",
            "mary@example.org",
            Some((26, 12)),
        ),
        (
            "Alan Turing",
            "Mathematician",
            "Bletchley Park",
            "alan@example.org",
            None,
        ),
        (
            "Katherine Johnson",
            "",
            "",
            "katherine@example.org",
            Some((26, 8)),
        ),
    ] {
        let person = org
            .people()
            .create(PersonInput {
                name: Some(name.into()),
                email_addresses: Some(vec![RowInput::add(EmailAddressFields {
                    address: Field::Value(email.into()),
                    label: Field::Value("work".into()),
                })]),
                positions: Some(if title.is_empty() {
                    Vec::new()
                } else {
                    vec![RowInput::add(PositionFields {
                        title: Field::Value(title.into()),
                        company_name: if company.is_empty() {
                            Field::Absent
                        } else {
                            Field::Value(company.into())
                        },
                        ..Default::default()
                    })]
                }),
                key_dates: Some(
                    birthday
                        .map(|(day, month)| {
                            vec![RowInput::add(KeyDateFields {
                                kind: Field::Value("birthday".into()),
                                day: Field::Value(day),
                                month: Field::Value(month),
                                ..Default::default()
                            })]
                        })
                        .unwrap_or_default(),
                ),
                ..Default::default()
            })
            .unwrap();
        people.push(person);
    }
    let day = |d: &str| Field::Value(d.parse().unwrap());
    let mut projects = Vec::new();
    for (name, status, deadline) in [
        ("Kitchen renovation", "active", Some("2026-03-20")),
        ("Tax return 2025", "active", Some("2026-04-30")),
        ("Garden shed", "planned", None),
        ("Learn Italian", "on_hold", None),
        ("Move to Lyon", "done", None),
    ] {
        projects.push(
            org.projects()
                .create(ProjectInput {
                    name: Some(name.into()),
                    status: Field::Value(status.into()),
                    deadline: deadline.map_or(Field::Absent, day),
                    ..Default::default()
                })
                .unwrap(),
        );
    }
    let mention = |i: usize| {
        format!(
            "<span data-mention=\"{}\">@{}</span>",
            people[i].id, people[i].name
        )
    };
    let project = |i: usize| {
        format!(
            "<span data-project=\"{}\">^{}</span>",
            projects[i].id, projects[i].name
        )
    };
    for (title, body, pinned) in [
        (
            Some("Kitchen: quotes"),
            format!(
                "<p>Three quotes for {}: <strong>4,200</strong>, 5,100 and 3,950. #renovation</p><ul><li>ask about the worktop</li><li>delivery in April?</li></ul>",
                project(0)
            ),
            true,
        ),
        (
            Some("Call with Grace"),
            format!(
                "<p>{} suggested a compiler for the budget sheets. #ideas</p>",
                mention(0)
            ),
            false,
        ),
        (
            None,
            "<p>Books to read: <em>The Difference Engine</em>, <em>Hidden Figures</em>. #reading</p>"
                .to_owned(),
            false,
        ),
        (
            Some("Tax documents"),
            format!(
                "<p>Payslips, the bank's statement and the pension letter for {}.</p>",
                project(1)
            ),
            true,
        ),
        (
            Some("Italian phrases"),
            "<p><em>Piacere</em>, <em>a domani</em>, <em>quanto costa?</em> #italian</p>".to_owned(),
            false,
        ),
    ] {
        let note = org
            .notes()
            .create(NoteInput {
                title: title.map_or(Field::Absent, |t| Field::Value(t.to_owned())),
                body_html: Field::Value(body),
                ..Default::default()
            })
            .unwrap();
        if pinned {
            org.notes().pin(note.id, true).unwrap();
        }
    }
}

/// Each of `pages` (name, path) at every variant.
fn shoot(pages: &[(&str, &str)], with_task: bool) {
    let mut b = Browser::start();
    for variant in VARIANTS {
        b.set_variant(variant);
        let site = Site::ready(variant);
        let task = lived_in(&site);
        families(&site);
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

#[test]
fn screenshots_of_the_families() {
    shoot(
        &[
            ("people", "/people"),
            ("projects", "/projects"),
            ("notes", "/notes"),
            ("documents", "/documents"),
            ("calendar", "/calendar"),
        ],
        false,
    );
}
