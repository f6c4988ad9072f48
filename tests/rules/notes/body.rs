//! DESIGN.md "Note body HTML" and DECISIONS-notes.md "Body format": the
//! sanitiser's allow-list (hostile input never survives, the allowed
//! formatting does), mentions, project references and tags by id with
//! their names refreshed from the record, unknown ids turned to text, bare
//! `#word`s made tags, `body_text`, the sorted id arrays and note images.

use serde_json::{Value, json};

use super::{
    get_note, mention, new_note, note_with_body, project, reference, set_note, summary, tag_id,
    tag_names, tag_span, tags, text, upload,
};
use crate::common::Core;
use crate::common::fixtures::{UNKNOWN, id, person};
use crate::common::xss::NOTE_BODY_VECTORS;

/// `html` holds none of `gone`, ignoring case.
#[track_caller]
fn assert_none_of(html: &str, gone: &[&str], input: &str) {
    let lower = html.to_lowercase();
    for g in gone {
        assert!(
            !lower.contains(&g.to_lowercase()),
            "{input}: {g} survived in {html}"
        );
    }
}

/// `html` holds every one of `kept`.
#[track_caller]
fn assert_all_of(html: &str, kept: &[&str], input: &str) {
    for k in kept {
        assert!(html.contains(k), "{input}: {k} is missing from {html}");
    }
}

/// Every link of `html` carries a `rel`.
#[track_caller]
fn assert_links_have_rel(html: &str, input: &str) {
    assert_eq!(
        html.matches("<a ").count() + html.matches("<a>").count(),
        html.matches(" rel=\"").count(),
        "{input}: a link without rel in {html}"
    );
}

/// DECISIONS "Body format": scripts, event handlers, `javascript:` and
/// `data:` links, foreign images and images that name no note-image
/// upload, style attributes and elements, comments, and every element or
/// attribute off the allow-list never survive; their text may. Nothing of
/// it is a reference, a tag or an image.
#[test]
fn hostile_input_never_survives() {
    let s = Core::start();
    for (input, gone, kept, body_text) in NOTE_BODY_VECTORS {
        let note = note_with_body(&s, input);
        let html = text(&note, "body_html");
        assert_none_of(&html, gone, input);
        assert_all_of(&html, kept, input);
        assert_links_have_rel(&html, input);
        assert_eq!(note["body_text"], *body_text, "{input}");
        for ids in ["tag_ids", "person_ids", "project_ids"] {
            assert_eq!(note[ids], json!([]), "{input}: {ids}");
        }
        assert_eq!(get_note(&s, &id(&note)), note, "{input}: read back");
        assert_eq!(summary(&s, &id(&note))["image_count"], 0, "{input}");
    }
    assert!(tags(&s).is_empty(), "no tag was made");
}

/// The allowed formatting, each row: what `body_html` keeps, and the
/// `body_text` (blocks on their own lines, list items behind "- ").
const ALLOWED: &[(&str, &[&str], &str)] = &[
    (
        "<p>Para one</p><p>Para two</p>",
        &["<p>Para one</p>", "<p>Para two</p>"],
        "Para one\nPara two",
    ),
    (
        "<h1>One</h1><h2>Two</h2><h3>Three</h3>",
        &["<h1>One</h1>", "<h2>Two</h2>", "<h3>Three</h3>"],
        "One\nTwo\nThree",
    ),
    (
        "<p><strong>s</strong> <b>b</b> <em>e</em> <i>i</i> <u>u</u> <s>x</s> <del>d</del></p>",
        &[
            "<strong>s</strong>",
            "<b>b</b>",
            "<em>e</em>",
            "<i>i</i>",
            "<u>u</u>",
            "<s>x</s>",
            "<del>d</del>",
        ],
        "s b e i u x d",
    ),
    (
        "<p>Run <code>cargo test</code></p><pre>fn main() {}</pre>",
        &["<code>cargo test</code>", "<pre>fn main() {}</pre>"],
        "Run cargo test\nfn main() {}",
    ),
    (
        "<blockquote>Quoted words</blockquote>",
        &["<blockquote>Quoted words</blockquote>"],
        "Quoted words",
    ),
    (
        "<ul><li>milk</li><li>eggs</li></ul><ol><li>first</li></ol>",
        &[
            "<ul><li>milk</li><li>eggs</li></ul>",
            "<ol><li>first</li></ol>",
        ],
        "- milk\n- eggs\n- first",
    ),
    (
        "<p>line<br>break</p><hr><p>after</p>",
        &["<br>", "<hr>", "<p>after</p>"],
        "line\nbreak\nafter",
    ),
    (
        "<p><a href=\"https://example.com/a\">secure</a> <a href=\"http://example.com/b\">plain</a> <a href=\"mailto:ada@example.com\">mail</a></p>",
        &[
            "href=\"https://example.com/a\"",
            "href=\"http://example.com/b\"",
            "href=\"mailto:ada@example.com\"",
            " rel=\"",
        ],
        "secure plain mail",
    ),
    (
        "<p>Fish &amp; chips &lt;3</p>",
        &["Fish &amp; chips &lt;3"],
        "Fish & chips <3",
    ),
];

/// DECISIONS "Body format": paragraphs, headings, emphasis, code, quotes,
/// lists, links (http, https, mailto; `rel` added) and rules are kept;
/// `body_text` puts blocks on their own lines.
#[test]
fn the_allow_list_is_kept() {
    let s = Core::start();
    for (input, kept, body_text) in ALLOWED {
        let note = note_with_body(&s, input);
        let html = text(&note, "body_html");
        assert_all_of(&html, kept, input);
        assert_links_have_rel(&html, input);
        assert_eq!(note["body_text"], *body_text, "{input}");
    }
}

/// DECISIONS "Body format": a mention's name is refreshed from the person
/// on save (whatever the span said); an unknown id, a deleted person or
/// another record's id leaves plain text `@Name`, the text as sent.
#[test]
fn mentions_show_the_persons_name_and_unknown_ones_become_text() {
    let s = Core::start();
    let ada = person(&s, "Ada Lovelace");
    let gone = person(&s, "Gone Person");
    s.delete(&format!("/people/{gone}")).expect(204);
    let orchard = project(&s, "Orchard");
    let cases = [
        (mention(&ada, "@Wrong"), Some(&ada), "Ask @Ada Lovelace"),
        (mention(&ada, "Ada"), Some(&ada), "Ask @Ada Lovelace"),
        (mention(UNKNOWN, "@Ghost"), None, "Ask @Ghost"),
        (mention(&gone, "@Gone Person"), None, "Ask @Gone Person"),
        (mention(&orchard, "@Orchard"), None, "Ask @Orchard"),
    ];
    for (span, kept, body_text) in cases {
        let input = format!("<p>Ask {span}</p>");
        let note = note_with_body(&s, &input);
        let html = text(&note, "body_html");
        assert_eq!(note["body_text"], body_text, "{input}");
        match kept {
            Some(person) => {
                assert_all_of(
                    &html,
                    &[
                        &format!("data-mention=\"{person}\""),
                        ">@Ada Lovelace</span>",
                    ],
                    &input,
                );
                assert_none_of(&html, &["Wrong"], &input);
                assert_eq!(note["person_ids"], json!([person]), "{input}");
            }
            None => {
                assert_none_of(&html, &["data-mention"], &input);
                assert_eq!(note["person_ids"], json!([]), "{input}");
            }
        }
        assert_eq!(note["project_ids"], json!([]), "{input}");
    }
}

/// DECISIONS "Body format": a project reference likewise, with `^`.
#[test]
fn references_show_the_projects_name_and_unknown_ones_become_text() {
    let s = Core::start();
    let orchard = project(&s, "Orchard Plan");
    let gone = project(&s, "Gone Plan");
    s.delete(&format!("/projects/{gone}")).expect(204);
    let ada = person(&s, "Ada");
    let cases = [
        (
            reference(&orchard, "^Wrong"),
            Some(&orchard),
            "See ^Orchard Plan",
        ),
        (
            reference(&orchard, "Orchard"),
            Some(&orchard),
            "See ^Orchard Plan",
        ),
        (reference(UNKNOWN, "^Ghost"), None, "See ^Ghost"),
        (reference(&gone, "^Gone Plan"), None, "See ^Gone Plan"),
        (reference(&ada, "^Ada"), None, "See ^Ada"),
        (reference("not-an-id", "^Bogus"), None, "See ^Bogus"),
    ];
    for (span, kept, body_text) in cases {
        let input = format!("<p>See {span}</p>");
        let note = note_with_body(&s, &input);
        let html = text(&note, "body_html");
        assert_eq!(note["body_text"], body_text, "{input}");
        match kept {
            Some(project) => {
                assert_all_of(
                    &html,
                    &[
                        &format!("data-project=\"{project}\""),
                        ">^Orchard Plan</span>",
                    ],
                    &input,
                );
                assert_none_of(&html, &["Wrong"], &input);
                assert_eq!(note["project_ids"], json!([project]), "{input}");
            }
            None => {
                assert_none_of(&html, &["data-project"], &input);
                assert_eq!(note["project_ids"], json!([]), "{input}");
            }
        }
        assert_eq!(note["person_ids"], json!([]), "{input}");
    }
}

/// DECISIONS "Body format": a tag span of a known tag shows the tag's
/// name (the text inside is not read as another tag); an unknown tag id's
/// span becomes its text and is then read as a bare tag.
#[test]
fn tag_spans_show_the_tags_name_and_unknown_ones_are_read_as_text() {
    let s = Core::start();
    note_with_body(&s, "<p>#garden</p>");
    let garden = tag_id(&s, "garden");

    let input = format!("<p>Today {}</p>", tag_span(&garden, "#weeds"));
    let known = note_with_body(&s, &input);
    assert_eq!(known["tag_ids"], json!([garden]));
    assert_eq!(known["body_text"], "Today #garden");
    let html = text(&known, "body_html");
    assert_all_of(
        &html,
        &[&format!("data-tag=\"{garden}\""), ">#garden</span>"],
        &input,
    );
    assert_none_of(&html, &["weeds"], &input);

    let input = format!("<p>Today {}</p>", tag_span(UNKNOWN, "#ghost"));
    let unknown = note_with_body(&s, &input);
    let ghost = tag_id(&s, "ghost");
    assert_eq!(unknown["tag_ids"], json!([ghost]));
    assert_eq!(unknown["body_text"], "Today #ghost");
    let html = text(&unknown, "body_html");
    assert_all_of(&html, &[&format!("data-tag=\"{ghost}\"")], &input);
    assert_none_of(&html, &[UNKNOWN], &input);

    let names: Vec<Value> = tags(&s).iter().map(|t| t["name"].clone()).collect();
    assert_eq!(names, [json!("garden"), json!("ghost")], "no tag weeds");
}

/// DECISIONS "Body format": a bare `#word` (at the start, or after a space
/// or opening punctuation; not inside a link, code, pre or a span) becomes
/// a tag; the word runs to the next space, comma or tag; it is normalised
/// (trailing `.,!?;:` dropped, hyphen runs made one); `#` with nothing
/// usable after it stays text. Each row on a new store: the body, the
/// tags the note has, and its `body_text` when the row fixes it.
#[test]
fn bare_hash_words_become_tags() {
    let rows: &[(&str, &[&str], Option<&str>)] = &[
        ("<p>#garden</p>", &["garden"], Some("#garden")),
        (
            "<p>Water the #garden.</p>",
            &["garden"],
            Some("Water the #garden."),
        ),
        (
            "<p>Plant (#roses now)</p>",
            &["roses"],
            Some("Plant (#roses now)"),
        ),
        ("<p>Big news #Big--Plans!</p>", &["Big-Plans"], None),
        ("<p>#one,two</p>", &["one"], Some("#one,two")),
        (
            "<p>two #tags #here</p>",
            &["here", "tags"],
            Some("two #tags #here"),
        ),
        (
            "<p>#garden and #GARDEN</p>",
            &["garden"],
            Some("#garden and #garden"),
        ),
        (
            "<p>#first<strong>bold</strong></p>",
            &["first"],
            Some("#firstbold"),
        ),
        (
            "<blockquote>#quoted</blockquote><ul><li>#listed</li></ul><h2>#headed</h2>",
            &["headed", "listed", "quoted"],
            None,
        ),
        ("<p>#café</p>", &["café"], Some("#café")),
        (
            "<p>mail a#b or C# or 3#4</p>",
            &[],
            Some("mail a#b or C# or 3#4"),
        ),
        (
            "<p># alone, #, #. #!? and #--</p>",
            &[],
            Some("# alone, #, #. #!? and #--"),
        ),
        (
            "<p><a href=\"https://example.com/#top\">see #inlink</a></p>",
            &[],
            Some("see #inlink"),
        ),
        (
            "<p><code>#include</code></p><pre>#!/bin/sh</pre>",
            &[],
            Some("#include\n#!/bin/sh"),
        ),
    ];
    for (input, wanted, body_text) in rows {
        let s = Core::start();
        let note = note_with_body(&s, input);
        assert_eq!(tag_names(&s, &note), *wanted, "{input}");
        let mut every: Vec<String> = tags(&s).iter().map(|t| text(t, "name")).collect();
        every.sort();
        assert_eq!(every, *wanted, "{input}: the tags made");
        if let Some(body_text) = body_text {
            assert_eq!(note["body_text"], *body_text, "{input}");
        }
        let html = text(&note, "body_html");
        for name in *wanted {
            let tag = tag_id(&s, name);
            assert!(
                html.contains(&format!("data-tag=\"{tag}\">#{name}</span>")),
                "{input}: no span for {name} in {html}"
            );
        }
        if wanted.is_empty() {
            assert_none_of(&html, &["data-tag"], input);
        }
        assert_eq!(get_note(&s, &id(&note)), note, "{input}: read back");
    }
}

/// DECISIONS "Body format": a tag is found ignoring case (and after
/// normalising) before one is made, so each name is one tag, shown with
/// the name it was first made with; a tag is made with the time of the
/// note, and using it again leaves it as it was. A `#word` in the title
/// is no tag.
#[test]
fn a_tag_is_made_once_and_reused_ignoring_case() {
    let s = Core::start();
    let first = note_with_body(&s, "<p>#Garden</p>");
    let garden = tag_id(&s, "Garden");
    let made = tags(&s)[0].clone();
    assert_eq!(made["created_at"], first["created_at"]);
    assert_eq!(made["updated_at"], first["created_at"]);
    s.advance(5);
    let again = note_with_body(&s, "<p>#GARDEN and #garden</p>");
    assert_eq!(again["tag_ids"], json!([garden]));
    assert_eq!(again["body_text"], "#Garden and #Garden");
    assert_eq!(tags(&s), std::slice::from_ref(&made), "one tag, untouched");

    let plans = note_with_body(&s, "<p>#big--plans</p>");
    let big = tag_id(&s, "big-plans");
    assert_eq!(plans["tag_ids"], json!([big]));
    let reused = note_with_body(&s, "<p>#Big-Plans!</p>");
    assert_eq!(reused["tag_ids"], json!([big]));
    assert_eq!(tags(&s).len(), 2);

    let titled = new_note(
        &s,
        json!({"title": "#notatag", "body_html": "<p>plain</p>"}),
    );
    assert_eq!(titled["tag_ids"], json!([]));
    assert_eq!(tags(&s).len(), 2);
}

/// DECISIONS "Body format": a `#` inside a reference's name is no tag.
#[test]
fn a_hash_inside_a_reference_is_no_tag() {
    let s = Core::start();
    let release = project(&s, "Release #2");
    let input = format!("<p>Ship {}</p>", reference(&release, "^Release #2"));
    let note = note_with_body(&s, &input);
    assert_eq!(note["project_ids"], json!([release]));
    assert_eq!(note["tag_ids"], json!([]));
    assert_eq!(note["body_text"], "Ship ^Release #2");
    assert!(tags(&s).is_empty());
}

/// DECISIONS "Body format": `body_text` renders a mention `@Name`, a
/// reference `^Name` and a tag `#name`, each with the record's name.
#[test]
fn body_text_renders_mentions_references_and_tags() {
    let s = Core::start();
    let ada = person(&s, "Ada Lovelace");
    let orchard = project(&s, "Orchard");
    note_with_body(&s, "<p>#garden</p>");
    let garden = tag_id(&s, "garden");
    let note = note_with_body(
        &s,
        &format!(
            "<h1>Plan</h1><p>Ask {} about {} {}</p>",
            mention(&ada, "@A"),
            reference(&orchard, "^O"),
            tag_span(&garden, "#g"),
        ),
    );
    assert_eq!(
        note["body_text"],
        "Plan\nAsk @Ada Lovelace about ^Orchard #garden"
    );
    assert_eq!(note["person_ids"], json!([ada]));
    assert_eq!(note["project_ids"], json!([orchard]));
    assert_eq!(note["tag_ids"], json!([garden]));
}

/// DECISIONS "Body format": `tag_ids`, `person_ids` and `project_ids` are
/// sorted and hold each record once, whatever order and how often the
/// body names them.
#[test]
fn the_id_arrays_are_sorted_and_unique() {
    let s = Core::start();
    let people: Vec<String> = ["Ann", "Ben", "Cy"].iter().map(|n| person(&s, n)).collect();
    let projects: Vec<String> = ["P1", "P2", "P3"].iter().map(|n| project(&s, n)).collect();
    for word in ["alpha", "beta", "gamma"] {
        note_with_body(&s, &format!("<p>#{word}</p>"));
    }
    let tag_ids: Vec<String> = ["alpha", "beta", "gamma"]
        .iter()
        .map(|n| tag_id(&s, n))
        .collect();
    let mut sorted_tags = tag_ids.clone();
    sorted_tags.sort();
    let body = format!(
        "<p>{} {} {} {}</p><p>{} {} {} {}</p><p>#gamma #alpha #beta #alpha</p>",
        mention(&people[2], "@Cy"),
        mention(&people[0], "@Ann"),
        mention(&people[1], "@Ben"),
        mention(&people[2], "@Cy"),
        reference(&projects[1], "^P2"),
        reference(&projects[2], "^P3"),
        reference(&projects[0], "^P1"),
        reference(&projects[1], "^P2"),
    );
    let note = note_with_body(&s, &body);
    assert_eq!(note["person_ids"], json!(people));
    assert_eq!(note["project_ids"], json!(projects));
    assert_eq!(note["tag_ids"], json!(sorted_tags));
}

/// DECISIONS "Body format": an image is `<img data-upload="SIGNED_ID">` of
/// a note-image upload; an avatar upload or a foreign source is dropped;
/// `image_count` counts the images, `body_text`, `name` and `excerpt`
/// leave them out; the body sent back as read is no change, and a later
/// edit keeps the images.
#[test]
fn note_images_are_kept_and_counted() {
    let s = Core::start();
    let one = upload(&s, "note_image");
    let two = upload(&s, "note_image");
    let avatar = upload(&s, "avatar");
    let input = format!(
        "<p>Look</p><img data-upload=\"{one}\"><p>and <img data-upload=\"{two}\" onerror=\"steal()\"></p>\
         <img data-upload=\"{avatar}\"><img src=\"https://tracker.example/p.png\">"
    );
    let note = note_with_body(&s, &input);
    let html = text(&note, "body_html");
    assert_all_of(
        &html,
        &[
            &format!("data-upload=\"{one}\""),
            &format!("data-upload=\"{two}\""),
        ],
        &input,
    );
    assert_none_of(
        &html,
        &[&avatar, "tracker", "onerror", "steal", "src="],
        &input,
    );
    assert_eq!(html.matches("<img").count(), 2, "{html}");
    assert_eq!(note["body_text"], "Look\nand");
    assert_eq!(note["name"], "Look and");
    let n = id(&note);
    let listed = summary(&s, &n);
    assert_eq!(listed["image_count"], 2);
    assert_eq!(listed["excerpt"], "Look and");

    s.advance(5);
    let resent = set_note(&s, &n, json!({"body_html": note["body_html"]}));
    assert_eq!(resent, note, "the body as read is no change");
    let titled = set_note(&s, &n, json!({"title": "Pictures"}));
    assert_eq!(titled["body_html"], note["body_html"]);
    assert_eq!(summary(&s, &n)["image_count"], 2);
    let fewer = set_note(
        &s,
        &n,
        json!({"body_html": format!("<p>Only</p><img data-upload=\"{one}\">")}),
    );
    assert_eq!(text(&fewer, "body_html").matches("<img").count(), 1);
    assert_eq!(summary(&s, &n)["image_count"], 1);

    let three = upload(&s, "note_image");
    let only_image = note_with_body(&s, &format!("<img data-upload=\"{three}\">"));
    assert_eq!(only_image["name"], "Untitled note", "images are left out");
    assert_eq!(only_image["body_text"], "");
    let listed = summary(&s, &id(&only_image));
    assert_eq!(listed["excerpt"], "");
    assert_eq!(listed["image_count"], 1);
}
