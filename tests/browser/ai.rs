//! The AI settings (`/settings/ai`; EXTENSIONS.md §6: AI providers,
//! models and tasks, the note-titles task and its backfill progress), by
//! keyboard alone, against a fake model server on loopback: a provider
//! added and its connection checked, a model it offers added, the
//! note-titles task turned on with that model, a backfill of the notes
//! left untitled started, and its progress watched as the server's
//! background worker titles them: shown at load (done of total, with a
//! link that loads it again) and then brought up to date by the page's
//! script, in its live region, until it says it is done.

use std::time::{Duration, Instant};

use organiser::Field;
use organiser::notes::NoteInput;
use serde_json::{Value, json};
use thirtyfour::Key;

use crate::common::{ModelServer, TestServer};
use crate::harness::{Browser, VARIANTS, Variant};
use crate::site::{PASSWORD, Site};
use crate::tasks::visit;

/// The notes left untitled: the model's titles are their first five words.
const NOTES: [&str; 5] = [
    "Book the dentist for next week before the holidays",
    "Water the office plants on Friday afternoon",
    "Ask Grace about the compiler talk slides",
    "Renew the car insurance before it lapses",
    "Plan the garden for spring with the children",
];

/// How long each of the model's answers takes while the backfill is
/// watched: long enough that the page is seen between notes.
const MODEL_TAKES: Duration = Duration::from_millis(700);

/// A site as [`Site::ready`] makes it, whose server works the AI tasks'
/// queues in the background as `organiser serve` does.
fn site_working_ai_tasks(variant: Variant) -> Site {
    let site = Site {
        server: TestServer::configured(organiser_server::Config {
            jobs: organiser_server::Jobs::Only(&["ai_tasks"]),
            ..TestServer::config()
        }),
    };
    site.org()
        .account()
        .set_password(None, PASSWORD)
        .expect("a password");
    site.theme(variant);
    site
}

/// Opens the `<details>` whose summary says `summary`, by keyboard.
fn open(b: &Browser, summary: &str) {
    b.tab_to(summary, |f| f.tag == "summary" && f.name == summary);
    b.press(Key::Enter);
}

/// The words of the note-titles backfill's progress.
fn progress(b: &Browser) -> String {
    b.text("#note_titles-progress .ai-progress-words")
        .trim()
        .to_owned()
}

/// `Titled 2 of 5 notes…` as (2, 5).
fn counts(words: &str) -> Option<(u64, u64)> {
    let rest = words
        .strip_prefix("Titled ")
        .or_else(|| words.strip_prefix("Done: "))?;
    let mut parts = rest.split_whitespace();
    let done = parts.next()?.parse().ok()?;
    (parts.next()? == "of").then_some(())?;
    let total = parts.next()?.parse().ok()?;
    Some((done, total))
}

#[test]
fn a_provider_on_loopback_titles_the_untitled_notes_and_the_backfill_is_watched() {
    let mut b = Browser::start();
    let models = ModelServer::start();
    models.set_models(&["model-a", "model-b"]);
    let total = NOTES.len() as u64;
    for variant in VARIANTS {
        b.set_variant(variant);
        models.heal();
        let site = site_working_ai_tasks(variant);
        let notes: Vec<_> = NOTES
            .iter()
            .map(|text| {
                site.org()
                    .notes()
                    .create(NoteInput {
                        body_html: Field::Value(format!("<p>{text}</p>")),
                        ..NoteInput::default()
                    })
                    .expect("a note")
                    .id
            })
            .collect();
        site.sign_in(&b);

        visit(&b, &site, "/settings/ai", "settings: ai");
        assert!(b.text("main").contains("No providers yet"));

        // The provider: its name and address (the kind as offered).
        open(&b, "Add a provider");
        b.type_in("Name", "Local models");
        b.type_in("Address", &models.url);
        b.press_button("Add the provider");
        b.wait_for_path("/settings/ai?done=provider_added");
        b.check("settings: ai (provider)");
        let provider = site
            .org()
            .ai()
            .providers(&Default::default())
            .unwrap()
            .items;
        assert_eq!(provider.len(), 1);
        let provider = provider[0].id;

        // Its connection checked: what it offers, to add.
        b.press_button("Check Local models");
        b.wait_for_path(&format!("/settings/ai/providers/{provider}/check"));
        b.check("settings: ai (checked)");
        let said = b.text("[role=status]");
        assert!(
            said.contains("Local models answered: it offers 2 models."),
            "{said}"
        );
        b.tab_to("model-a", |f| f.tag == "input" && f.name == "model-a");
        b.press(Key::Space);
        b.press_button("Add");
        b.wait_for_path("/settings/ai?done=model_added");
        b.check("settings: ai (model)");
        let model = site.org().ai().models(&Default::default()).unwrap().items;
        assert_eq!(model.len(), 1, "{model:?}");
        assert_eq!(model[0].identifier, "model-a");
        let model = model[0].id;

        // The note-titles task: on, with that model (chosen by typing).
        b.tab_to("On", |f| f.tag == "input" && f.name == "On");
        b.press(Key::Space);
        let select = b.field("Model");
        b.tab_to("Model", |f| f.id == select);
        b.press("Local");
        let chosen = b.js(
            "const s = document.getElementById(arguments[0]); return s.options[s.selectedIndex].text.trim();",
            vec![json!(select)],
        );
        assert_eq!(chosen, "Local models — model-a", "typing chose the model");
        b.press_button("Save");
        b.wait_for_path("/settings/ai?done=saved");
        b.check("settings: ai (task on)");
        let task = site.org().ai().task("note_titles").unwrap();
        assert!(task.enabled);
        assert_eq!(task.ai_model_id, Some(model));
        assert_eq!(task.backfill_pending, Some(total));
        assert!(
            b.text("main")
                .contains(&format!("a backfill would queue: {total}")),
            "{}",
            b.text("main")
        );

        // The backfill: its progress shown at load, with a link to load it
        // again (what a browser without script has) and the address the
        // script follows.
        models.delay(MODEL_TAKES);
        b.press_button("Backfill Note titles");
        b.wait_for_path("/settings/ai?done=backfilled");
        let origin = b.js("return String(performance.timeOrigin)", vec![]);
        let at_load = b.js(
            "const r = document.getElementById('note_titles-progress');\
             const link = document.querySelector('#note_titles-progress-refresh a');\
             return {words: r.querySelector('.ai-progress-words')?.innerText.trim() ?? '',\
                     role: r.getAttribute('role'), live: r.getAttribute('aria-live'),\
                     poll: r.dataset.poll ?? null, link: link ? link.getAttribute('href') : null,\
                     bar: r.querySelector('progress')?.max ?? null};",
            vec![],
        );
        let words = at_load["words"].as_str().unwrap_or_default();
        let (done, shown_total) =
            counts(words).unwrap_or_else(|| panic!("no progress at load: {at_load}"));
        assert!(
            done < shown_total && shown_total == total,
            "a backfill of every untitled note under way at load: {at_load}"
        );
        assert_eq!(at_load["role"], "status");
        assert_eq!(at_load["live"], "polite");
        let follow = "/settings/ai".to_owned();
        assert_eq!(at_load["poll"], json!(follow), "{at_load}");
        assert_eq!(
            at_load["link"],
            json!(format!("{follow}#note_titles-progress")),
            "{at_load}"
        );
        assert_eq!(at_load["bar"], json!(shown_total));

        // Watched, without a key pressed: the script brings it up to date
        // in place until it is done.
        let mut seen: Vec<String> = vec![words.to_owned()];
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let now = progress(&b);
            if seen.last() != Some(&now) {
                seen.push(now.clone());
            }
            if now.starts_with("Done: ") {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "[{}] the backfill never showed done; seen {seen:?}",
                variant.name()
            );
            std::thread::sleep(Duration::from_millis(40));
        }
        assert_eq!(
            seen.last().unwrap(),
            &format!("Done: {shown_total} of {shown_total} notes titled."),
            "{seen:?}"
        );
        let between: Vec<&String> = seen
            .iter()
            .filter(|w| counts(w).is_some_and(|(d, t)| d > done && d < t))
            .collect();
        assert!(
            !between.is_empty(),
            "[{}] no progress was seen between load and done: {seen:?}",
            variant.name()
        );
        // Each step counted up.
        let dones: Vec<u64> = seen.iter().filter_map(|w| counts(w)).map(|c| c.0).collect();
        assert!(dones.windows(2).all(|w| w[0] < w[1]), "{seen:?}");
        eprintln!("browser: [{}] backfill seen as {seen:?}", variant.name());
        let after = b.js(
            "const r = document.getElementById('note_titles-progress');\
             return {origin: String(performance.timeOrigin), poll: r.dataset.poll ?? null,\
                     link: !!document.getElementById('note_titles-progress-refresh'),\
                     bar: r.querySelector('progress')?.value ?? null};",
            vec![],
        );
        assert_eq!(after["origin"], origin, "the page was not loaded again");
        assert_eq!(after["poll"], Value::Null, "it stops following: {after}");
        assert_eq!(after["link"], false, "the link to load it again is gone");
        assert_eq!(after["bar"], json!(shown_total));
        b.check("settings: ai (backfill done)");

        // Every note has the model's title, written by the task.
        for (id, text) in notes.iter().zip(NOTES) {
            let note = site.org().notes().get(*id).unwrap();
            let five: Vec<&str> = text.split_whitespace().take(5).collect();
            assert_eq!(note.title.as_deref(), Some(five.join(" ").as_str()));
            assert!(note.title_generated);
        }
        assert_eq!(site.org().ai().queue("note_titles").unwrap().queued, 0);
        models.heal();
    }
    b.finish();
}
