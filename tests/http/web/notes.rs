//! The notes' pages as a browser without script uses them (EXTENSIONS.md
//! §6, notes): the list (pinned first, categories with their counts,
//! found by words, filtered by tag), a note written in Markdown whose
//! `@person`, `^project` and `#tag` become the core's references, its
//! page, the editor opened at the note's `edit_version` and a save from a
//! stale tab answered 409 with the owner's text kept, the core's refusals
//! beside their fields (422, nothing stored), pin, delete with undo, the
//! editor's suggestions, the sanitiser's XSS vectors and hostile names
//! escaped, 303 to sign-in without a session, 403 without the CSRF token.

use organiser::Field;
use organiser::categories::CategoryInput;
use organiser::notes::{Note, NoteInput, NoteQuery};

use super::{Answer, Page, assert_forms_need_the_token, assert_signed_only, person, project};
use crate::common::TestServer;
use crate::common::xss::NOTE_BODY_VECTORS;

/// Every live note.
fn notes(s: &TestServer) -> Vec<Note> {
    let mut query = NoteQuery::default();
    query.params.limit = 100;
    s.org
        .notes()
        .list(&query)
        .unwrap()
        .items
        .into_iter()
        .map(|n| s.org.notes().get(n.id).unwrap())
        .collect()
}

/// A note of `html` made through the core.
fn note(s: &TestServer, title: Option<&str>, html: &str) -> Note {
    s.org
        .notes()
        .create(NoteInput {
            title: title.map_or(Field::Absent, |t| Field::Value(t.to_owned())),
            body_html: Field::Value(html.to_owned()),
            ..NoteInput::default()
        })
        .unwrap()
}

/// The editor's form of note `n` (its hidden `edit_version` as the page
/// at `from` says it), saved with `title` and `body`.
fn save(page: &mut Page<'_>, editor: &Answer, id: &str, title: &str, body: &str) -> Answer {
    let version = hidden(editor, "edit_version");
    let csrf = editor.csrf();
    page.form(
        &format!("/notes/{id}"),
        &[
            ("csrf_token", csrf.as_str()),
            ("title", title),
            ("category", ""),
            ("body", body),
            ("edit_version", version.as_str()),
        ],
    )
}

/// The value of the hidden input `name` on a page.
fn hidden(answer: &Answer, name: &str) -> String {
    let marker = format!("name=\"{name}\" value=\"");
    let start = answer
        .body
        .find(&marker)
        .unwrap_or_else(|| panic!("no {name}: {}", answer.body))
        + marker.len();
    let end = answer.body[start..].find('"').unwrap();
    answer.body[start..start + end].to_owned()
}

#[test]
fn a_note_written_in_markdown_names_people_projects_and_tags() {
    let s = TestServer::start();
    let ada = person(&s, "Ada Lovelace");
    let apollo = project(&s, "Apollo");
    let mut page = Page::signed_in(&s);
    let empty = page.get("/notes");
    assert_eq!(empty.status, 200, "{empty:?}");
    assert!(empty.body.contains("No notes yet."), "{}", empty.body);
    assert!(empty.body.contains("href=\"/notes\" aria-current=\"page\""));
    let new = page.get("/notes/new");
    assert_eq!(new.status, 200);
    assert!(new.body.contains("data-editor"));
    assert!(
        !new.body.contains("name=\"edit_version\""),
        "a new note has none"
    );

    let made = page.submit(
        "/notes/new",
        "/notes",
        &[
            ("title", ""),
            ("category", ""),
            (
                "body",
                "Met @Ada Lovelace about ^Apollo today. #engines\n\n- **first** point\n- second",
            ),
        ],
    );
    assert_eq!(made.status, 303, "{made:?}");
    let all = notes(&s);
    assert_eq!(all.len(), 1);
    let n = &all[0];
    assert_eq!(
        made.location(),
        Some(format!("/notes/{}?saved=1", n.id).as_str())
    );
    assert_eq!(n.person_ids, vec![ada.id]);
    assert_eq!(n.project_ids, vec![apollo.id]);
    assert_eq!(n.tag_ids.len(), 1, "#engines made a tag");
    assert!(
        n.body_html.contains("<strong>first</strong>"),
        "{}",
        n.body_html
    );
    assert_eq!(n.title, None, "named from its body");

    let shown = page.get(&format!("/notes/{}?saved=1", n.id));
    assert_eq!(shown.status, 200);
    assert!(shown.body.contains("Saved."));
    assert!(shown.body.contains(&format!("data-mention=\"{}\"", ada.id)));
    assert!(
        shown
            .body
            .contains(&format!("<a href=\"/people/{}\">Ada Lovelace</a>", ada.id))
    );
    assert!(
        shown
            .body
            .contains(&format!("<a href=\"/projects/{}\">Apollo</a>", apollo.id))
    );
    let tag = n.tag_ids[0];
    assert!(
        shown
            .body
            .contains(&format!("href=\"/notes?tag={tag}\">#engines</a>"))
    );

    // The list, found by words and by its tag; another note is not.
    note(&s, Some("Shopping"), "<p>milk</p>");
    let list = page.get("/notes");
    assert!(list.body.contains("2 notes"), "{}", list.body);
    assert!(list.body.contains(&format!("href=\"/notes/{}\"", n.id)));
    let found = page.get("/notes?q=engi");
    assert!(found.body.contains(&format!("href=\"/notes/{}\"", n.id)));
    assert!(!found.body.contains("Shopping"));
    let tagged = page.get(&format!("/notes?tag={tag}"));
    assert!(
        tagged.body.contains("Notes tagged #engines."),
        "{}",
        tagged.body
    );
    assert!(!tagged.body.contains("Shopping"));
    let mentioning = page.get(&format!("/notes?person={}", ada.id));
    assert!(mentioning.body.contains("Notes mentioning Ada Lovelace."));

    // The editor opens it as the Markdown it was written in.
    let editor = page.get(&format!("/notes/{}/edit", n.id));
    assert_eq!(editor.status, 200);
    assert!(editor.body.contains("@Ada Lovelace"), "{}", editor.body);
    assert!(editor.body.contains("^Apollo"));
    assert_eq!(hidden(&editor, "edit_version"), n.edit_version.to_string());
}

#[test]
fn a_save_from_a_stale_tab_is_told_and_loses_nothing() {
    let s = TestServer::start();
    let n = note(&s, Some("Plans"), "<p>first draft</p>");
    let mut page = Page::signed_in(&s);
    let path = format!("/notes/{}/edit", n.id);
    let id = n.id.to_string();
    let tab_one = page.get(&path);
    let tab_two = page.get(&path);

    let first = save(&mut page, &tab_one, &id, "Plans", "written in tab one");
    assert_eq!(first.status, 303, "{first:?}");
    let after_one = s.org.notes().get(n.id).unwrap();
    assert_eq!(after_one.edit_version, n.edit_version + 1);

    let stale = save(&mut page, &tab_two, &id, "Plans", "written in tab two");
    assert_eq!(stale.status, 409, "{stale:?}");
    assert!(stale.body.contains("This note changed elsewhere"));
    assert!(stale.body.contains("written in tab two"), "my text kept");
    assert!(
        stale.body.contains("<p>written in tab one</p>"),
        "the note as it stands"
    );
    assert!(stale.body.contains("Save mine over it"));
    assert_eq!(
        hidden(&stale, "edit_version"),
        after_one.edit_version.to_string(),
        "saving again writes over the current version"
    );
    assert_eq!(
        s.org.notes().get(n.id).unwrap(),
        after_one,
        "nothing changed"
    );

    let over = save(&mut page, &stale, &id, "Plans", "written in tab two");
    assert_eq!(over.status, 303, "{over:?}");
    let now = s.org.notes().get(n.id).unwrap();
    assert_eq!(now.body_html, "<p>written in tab two</p>");
    assert_eq!(now.edit_version, after_one.edit_version + 1);
}

#[test]
fn refusals_are_said_beside_the_fields_and_store_nothing() {
    let s = TestServer::start();
    let n = note(&s, Some("Kept"), "<p>body</p>");
    let mut page = Page::signed_in(&s);
    let long = "x".repeat(1_000);
    let made = page.submit(
        "/notes/new",
        "/notes",
        &[("title", long.as_str()), ("category", ""), ("body", "new")],
    );
    assert_eq!(made.status, 422, "{made:?}");
    assert!(
        made.body.contains("id=\"note-title-error\""),
        "{}",
        made.body
    );
    assert!(made.body.contains(">new</textarea>"), "the text kept");
    assert_eq!(notes(&s).len(), 1, "nothing made");

    let editor = page.get(&format!("/notes/{}/edit", n.id));
    let changed = save(&mut page, &editor, &n.id.to_string(), &long, "changed");
    assert_eq!(changed.status, 422, "{changed:?}");
    assert!(changed.body.contains("aria-invalid=\"true\""));
    assert_eq!(s.org.notes().get(n.id).unwrap(), n, "nothing changed");

    let unknown = page.get("/notes/0000000000000000000000000000/edit");
    assert_eq!(unknown.status, 404);
}

#[test]
fn categories_pins_and_delete_with_undo() {
    let s = TestServer::start();
    let work = s
        .org
        .categories()
        .create(CategoryInput {
            name: Some("Work".into()),
            color: Field::Value("blue".into()),
            ..CategoryInput::default()
        })
        .unwrap();
    let mut page = Page::signed_in(&s);
    let made = page.submit(
        "/notes/new",
        "/notes",
        &[
            ("title", "Standup"),
            ("category", &work.id.to_string()),
            ("body", "notes"),
        ],
    );
    assert_eq!(made.status, 303, "{made:?}");
    let n = notes(&s).remove(0);
    assert_eq!(n.category_id, Some(work.id));
    note(&s, Some("Loose"), "<p>x</p>");
    let list = page.get("/notes");
    assert!(
        list.body.contains(&format!(
            "href=\"/notes?category={}\">Work <span class=\"count\">1</span>",
            work.id
        )),
        "{}",
        list.body
    );
    let in_work = page.get(&format!("/notes?category={}", work.id));
    assert!(in_work.body.contains("Standup"));
    assert!(!in_work.body.contains("Loose"));

    let pinned = page.submit(
        "/notes",
        &format!("/notes/{}/pin", n.id),
        &[("back", "/notes")],
    );
    assert_eq!(pinned.status, 303);
    assert_eq!(pinned.location(), Some("/notes"));
    assert!(s.org.notes().get(n.id).unwrap().pinned);
    let list = page.get("/notes");
    let pinned_at = list.body.find("id=\"h-pinned\"").expect("a pinned section");
    let standup = list.body.find("Standup").unwrap();
    let loose = list.body.find("Loose").unwrap();
    assert!(pinned_at < standup && standup < loose, "pinned first");
    let unpinned = page.submit(
        &format!("/notes/{}", n.id),
        &format!("/notes/{}/unpin", n.id),
        &[("back", &format!("/notes/{}", n.id))],
    );
    assert_eq!(
        unpinned.location(),
        Some(format!("/notes/{}", n.id).as_str())
    );
    assert!(!s.org.notes().get(n.id).unwrap().pinned);

    let deleted = page.submit(
        &format!("/notes/{}", n.id),
        &format!("/notes/{}/delete", n.id),
        &[],
    );
    assert_eq!(
        deleted.location(),
        Some(format!("/notes?deleted={}", n.id).as_str())
    );
    assert!(s.org.notes().get(n.id).is_err());
    let offered = page.get(deleted.location().unwrap());
    assert!(offered.body.contains("The note was deleted."));
    let back = page.submit(
        deleted.location().unwrap(),
        &format!("/notes/{}/restoration", n.id),
        &[],
    );
    assert_eq!(back.location(), Some(format!("/notes/{}", n.id).as_str()));
    assert!(s.org.notes().get(n.id).is_ok());
}

#[test]
fn the_editor_suggests_people_projects_and_tags() {
    let s = TestServer::start();
    for name in ["Grace Hopper", "Grant <b>Wood</b>"] {
        person(&s, name);
    }
    project(&s, "Moon landing");
    note(&s, None, "<p>#garden #gardening #work</p>");
    let mut page = Page::signed_in(&s);
    let people = page.get("/notes/suggestions?kind=person&q=Grce");
    assert_eq!(people.status, 200);
    assert!(
        people.body.contains("data-insert=\"@Grace Hopper\""),
        "misspelt: {}",
        people.body
    );
    let hostile = page.get("/notes/suggestions?kind=person&q=Grant");
    assert!(
        hostile.body.contains("Grant &#60;b&#62;Wood")
            || hostile.body.contains("Grant &lt;b&gt;Wood"),
        "{}",
        hostile.body
    );
    assert!(!hostile.body.contains("<b>Wood"));
    let projects = page.get("/notes/suggestions?kind=project&q=moo");
    assert!(
        projects.body.contains("data-insert=\"^Moon landing\""),
        "{}",
        projects.body
    );
    let tags = page.get("/notes/suggestions?kind=tag&q=GARD");
    assert!(tags.body.contains("data-insert=\"#garden\""));
    assert!(tags.body.contains("data-insert=\"#gardening\""));
    assert!(!tags.body.contains("#work"));
    let nothing = page.get("/notes/suggestions?kind=other&q=a");
    assert_eq!(nothing.status, 200);
    assert!(!nothing.body.contains("role=\"option\""));
}

#[test]
fn hostile_bodies_and_titles_are_sanitised_and_escaped() {
    let s = TestServer::start();
    let mut page = Page::signed_in(&s);
    for (input, gone, _, _) in NOTE_BODY_VECTORS {
        let n = note(&s, Some("<script>alert('title')</script>"), input);
        let shown = page.get(&format!("/notes/{}", n.id)).body.to_lowercase();
        let marker = "<div class=\"note-body\">";
        let start = shown.find(marker).expect("the body") + marker.len();
        let body = &shown[start..shown.find("</article>").unwrap()];
        for g in *gone {
            assert!(!body.contains(&g.to_lowercase()), "{input}: {g} in {body}");
        }
        let main = &shown[shown.find("<main").unwrap()..];
        assert!(!main.contains("<script"), "{input}: {main}");
        let editor = page.get(&format!("/notes/{}/edit", n.id)).body;
        let open = editor.find("<textarea").unwrap();
        let text = &editor[open..editor.find("</textarea>").unwrap()];
        let text = &text[text.find('>').unwrap() + 1..];
        assert!(!text.contains('<'), "{input}: the Markdown escaped: {text}");
    }
    let list = page.get("/notes");
    assert!(list.body.contains("&#60;script&#62;") || list.body.contains("&lt;script&gt;"));
    let lower = list.body.to_lowercase();
    assert!(!lower[lower.find("<main").unwrap()..].contains("<script"));
}

#[test]
fn notes_are_signed_only_and_their_forms_need_the_token() {
    let s = TestServer::start();
    let n = note(&s, Some("A"), "<p>a</p>");
    let id = n.id;
    assert_signed_only(
        &s,
        &[
            "/notes".into(),
            "/notes/new".into(),
            format!("/notes/{id}"),
            format!("/notes/{id}/edit"),
            "/notes/suggestions?kind=person&q=a".into(),
        ],
    );
    let mut page = Page::signed_in(&s);
    assert_forms_need_the_token(
        &mut page,
        &[
            ("/notes".into(), vec![("title", "x"), ("body", "y")]),
            (format!("/notes/{id}"), vec![("title", "x"), ("body", "y")]),
            (format!("/notes/{id}/pin"), vec![]),
            (format!("/notes/{id}/unpin"), vec![]),
            (format!("/notes/{id}/delete"), vec![]),
            (format!("/notes/{id}/restoration"), vec![]),
        ],
    );
    assert_eq!(s.org.notes().get(id).unwrap(), n, "nothing changed");
    assert_eq!(notes(&s).len(), 1);
}
