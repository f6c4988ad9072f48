//! Notes (`/notes`, the editor), by keyboard alone: a note written with
//! `@` and `^` completion (the list offered under the editor, chosen with
//! the arrows and Enter), a `#tag` and a Markdown shortcut, found by its
//! words and its tag, then edited in two tabs: the second save is told
//! that the note changed elsewhere, keeps its text, and is saved over it
//! on purpose. Then the sanitiser's XSS vectors as note bodies (and a
//! hostile title), each shown in the browser, where no script runs.

use organiser::Field;
use organiser::notes::NoteInput;
use organiser::people::PersonInput;
use organiser::projects::ProjectInput;
use serde_json::json;
use thirtyfour::Key;

use crate::common::xss::NOTE_BODY_VECTORS;
use crate::harness::{Browser, VARIANTS};
use crate::site::Site;
use crate::tasks::visit;

/// Waits for the editor's suggestions to offer `name` first.
fn offered(b: &Browser, name: &str) {
    b.wait(
        &format!("{name} offered"),
        "const o = document.querySelector('#note-suggestions [aria-selected=true]');\
         return o && o.dataset.insert.slice(1) === arguments[0]\
           && document.querySelector('textarea').getAttribute('aria-activedescendant') === o.id",
        vec![json!(name)],
    );
}

/// What the editor holds.
fn written(b: &Browser) -> String {
    b.js("return document.getElementById('note-body').value", vec![])
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

#[test]
fn a_note_names_people_and_projects_and_survives_two_tabs() {
    let mut b = Browser::start();
    for variant in VARIANTS {
        b.set_variant(variant);
        let site = Site::ready(variant);
        let ada = site
            .org()
            .people()
            .create(PersonInput {
                name: Some("Ada Lovelace".into()),
                ..Default::default()
            })
            .unwrap();
        let engine = site
            .org()
            .projects()
            .create(ProjectInput {
                name: Some("Analytical Engine".into()),
                ..Default::default()
            })
            .unwrap();
        site.sign_in(&b);

        // Written from the list, with completion.
        visit(&b, &site, "/notes", "notes");
        b.tab_to("New note", |f| f.tag == "a" && f.name == "New note");
        b.press(Key::Enter);
        b.wait_for_path("/notes/new");
        b.check("note editor (new)");
        b.type_in("Title", "Engine meeting");
        b.type_in("The note", "Met @Ad");
        offered(&b, "Ada Lovelace");
        b.check("note editor (suggestions)");
        b.press(Key::Enter);
        b.wait(
            "the mention put in",
            "return document.getElementById('note-body').value === 'Met @Ada Lovelace '",
            vec![],
        );
        b.press("about ^Analyt");
        offered(&b, "Analytical Engine");
        b.press(Key::Down);
        b.press(Key::Up);
        b.press(Key::Enter);
        b.wait(
            "the reference put in",
            "return document.getElementById('note-body').value.endsWith('^Analytical Engine ')",
            vec![],
        );
        // Ctrl+B makes the next words bold; Enter in a list goes on with it.
        b.press("#difference\n\n- ");
        b.press_ctrl("b");
        b.press("gears");
        b.press(Key::End);
        b.press(Key::Enter);
        b.press("cards");
        assert_eq!(
            written(&b),
            "Met @Ada Lovelace about ^Analytical Engine #difference\n\n- **gears**\n- cards"
        );
        b.press_button("Save");
        b.wait(
            "the note saved",
            "return [...document.querySelectorAll('[role=status]')].some(e => e.innerText.includes('Saved'))",
            vec![],
        );
        b.check("note");
        let listed = site.org().notes().list(&Default::default()).unwrap().items;
        assert_eq!(listed.len(), 1);
        let note = site.org().notes().get(listed[0].id).unwrap();
        assert_eq!(note.person_ids, vec![ada.id]);
        assert_eq!(note.project_ids, vec![engine.id]);
        assert_eq!(note.tag_ids.len(), 1);
        assert!(
            note.body_html.contains("<strong>gears</strong>"),
            "{}",
            note.body_html
        );
        let tag = note.tag_ids[0];

        // The person it names is a link.
        assert!(b.has_named("Ada Lovelace"));

        // Found by its words, and by its tag.
        visit(&b, &site, "/notes", "notes");
        b.type_in("Find notes", "differ");
        b.press(Key::Enter);
        b.wait(
            "the note found",
            "return location.search.includes('q=differ') && [...document.querySelectorAll('.note-card a')].some(a => a.innerText.trim() === 'Engine meeting')",
            vec![],
        );
        b.check("notes (found)");
        b.tab_to("#difference", |f| f.tag == "a" && f.name == "#difference");
        b.press(Key::Enter);
        b.wait_for_path(&format!("/notes?tag={tag}"));
        b.check("notes (tagged)");

        // Edited in two tabs.
        let edit = site.url(&format!("/notes/{}/edit", note.id));
        b.goto(&edit);
        b.check("note editor");
        let original = b.new_tab();
        b.goto(&edit);
        b.type_in("Title", "Engine meeting (tab two)");
        b.press_button("Save");
        b.wait_for_path(&format!("/notes/{}?saved=1", note.id));
        let tab_two = b.show_tab(original.clone());
        b.type_in("Title", "Engine meeting (tab one)");
        b.press_button("Save");
        b.wait(
            "the conflict said",
            "return [...document.querySelectorAll('[role=alert]')].some(e => e.innerText.includes('This note changed elsewhere'))",
            vec![],
        );
        b.check("note editor (conflict)");
        assert_eq!(
            site.org().notes().get(note.id).unwrap().title.as_deref(),
            Some("Engine meeting (tab two)"),
            "nothing lost"
        );
        assert_eq!(
            b.js("return document.getElementById('note-title').value", vec![]),
            "Engine meeting (tab one)"
        );
        b.press_button("Save mine over it");
        b.wait_for_path(&format!("/notes/{}?saved=1", note.id));
        assert_eq!(
            site.org().notes().get(note.id).unwrap().title.as_deref(),
            Some("Engine meeting (tab one)")
        );
        b.show_tab(tab_two);
        b.close_tab(original);
    }
    b.finish();
}

#[test]
fn hostile_note_bodies_run_no_script_in_the_browser() {
    let mut b = Browser::start();
    let variant = VARIANTS[0];
    b.set_variant(variant);
    let site = Site::ready(variant);
    site.sign_in(&b);
    // Anything a vector would run marks the page.
    b.cdp(
        "Page.addScriptToEvaluateOnNewDocument",
        json!({"source": "window.__ran = [];\
            for (const f of ['alert', 'steal', 'confirm', 'prompt']) window[f] = () => window.__ran.push(f);"}),
    );
    for (input, _, _, _) in NOTE_BODY_VECTORS {
        let note = site
            .org()
            .notes()
            .create(NoteInput {
                title: Field::Value("<img src=x onerror=steal()>".into()),
                body_html: Field::Value((*input).to_owned()),
                ..Default::default()
            })
            .unwrap();
        for path in [
            format!("/notes/{}", note.id),
            format!("/notes/{}/edit", note.id),
        ] {
            b.goto(&site.url(&path));
            b.check("note (hostile)");
            let ran = b.js(
                "return window.__ran.concat([...document.querySelectorAll('main script, main [onerror], main [onclick], main iframe, main object, main embed, main a[href^=\"javascript\"]')].map(e => e.outerHTML))",
                vec![],
            );
            assert_eq!(ran, json!([]), "{input} on {path}");
        }
    }
    b.finish();
}
