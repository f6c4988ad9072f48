//! Document 3's "Note" and NoteSummary, DESIGN.md's notes endpoints and
//! DECISIONS-notes.md "Notes": every field, `name` and `excerpt`,
//! `edit_version` and `edited_at` (409 `conflict` on a stale version),
//! every 400 and 422, the listing (filters, `q`, every order and
//! direction, keyset pages, `count`, `updated_since`), delete and restore
//! within 20 seconds, and pins.

use serde_json::{Value, json};

use super::{
    NOTE_KEYS, SUMMARY_KEYS, as_summary, assert_listed, category, change_note, get_note, mention,
    new_note, note_with_body, pin, project, reference, restore, reversed, set_note, sorted_by,
    summary, tag_id, tags, text, unpin,
};
use crate::common::fixtures::{
    START, UNKNOWN, all, deletions, id, ids, keys, now_string, person, records, with_updated_at,
};
use crate::common::{Call, Core, Expect, check, send};

/// `POST /notes` with `{note: fields}`, as a table's case.
fn create(fields: Value) -> Call {
    Call::post("/notes", json!({ "note": fields }))
}

// ---------------------------------------------------------------- fields

/// DECISIONS "Note JSON": an empty note is allowed and has every field:
/// untitled, uncategorised, an empty body, unpinned, `edit_version` 1 and
/// `edited_at` its creation; its listing item is the NoteSummary.
#[test]
fn a_new_note_has_every_field() {
    let s = Core::start();
    let empty = new_note(&s, json!({}));
    assert_eq!(keys(&empty), NOTE_KEYS);
    assert_eq!(text(&empty, "id").len(), 26);
    assert_eq!(empty["title"], Value::Null);
    assert_eq!(empty["name"], "Untitled note");
    assert_eq!(empty["title_generated"], false);
    assert_eq!(empty["category_id"], Value::Null);
    for ids in ["tag_ids", "person_ids", "project_ids"] {
        assert_eq!(empty[ids], json!([]), "{ids}");
    }
    assert_eq!(empty["body_html"], "");
    assert_eq!(empty["body_text"], "");
    assert_eq!(empty["pinned"], false);
    assert_eq!(empty["pinned_at"], Value::Null);
    assert_eq!(empty["edit_version"], 1);
    for at in ["edited_at", "created_at", "updated_at"] {
        assert_eq!(empty[at], START, "{at}");
    }
    assert_eq!(get_note(&s, &id(&empty)), empty);
    let listed = summary(&s, &id(&empty));
    assert_eq!(keys(&listed), SUMMARY_KEYS);
    assert_eq!(listed, as_summary(&empty, "", 0));

    let garden = category(&s, "Garden");
    let ada = person(&s, "Ada");
    let orchard = project(&s, "Orchard");
    s.advance(1);
    let body = format!(
        "<p>With {} on {} #seeds</p>",
        mention(&ada, "@Ada"),
        reference(&orchard, "^Orchard")
    );
    // edit_version is ignored on create.
    let full = new_note(
        &s,
        json!({"title": "Spring plan", "category_id": garden, "body_html": body, "edit_version": 7}),
    );
    let seeds = tag_id(&s, "seeds");
    assert_eq!(full["title"], "Spring plan");
    assert_eq!(full["name"], "Spring plan");
    assert_eq!(full["title_generated"], false);
    assert_eq!(full["category_id"], garden);
    assert_eq!(full["person_ids"], json!([ada]));
    assert_eq!(full["project_ids"], json!([orchard]));
    assert_eq!(full["tag_ids"], json!([seeds]));
    assert_eq!(full["body_text"], "With @Ada on ^Orchard #seeds");
    assert_eq!(full["edit_version"], 1);
    let now = now_string(&s);
    for at in ["edited_at", "created_at", "updated_at"] {
        assert_eq!(full[at], now.as_str(), "{at}");
    }
    assert_eq!(get_note(&s, &id(&full)), full);
    assert_eq!(
        summary(&s, &id(&full)),
        as_summary(&full, "With @Ada on ^Orchard #seeds", 0)
    );
}

/// DECISIONS "Notes": every refusal of create is 422 on its field (all
/// of a request's mistakes named), a body that is not an object 400, and
/// nothing is made; the limits themselves are accepted.
#[test]
fn create_refuses_bad_fields_and_makes_nothing() {
    let s = Core::start();
    let gone = category(&s, "Gone");
    s.delete(&format!("/categories/{gone}")).expect(204);
    note_with_body(&s, "<p>kept</p>");
    let big = format!("<p>{}</p>", "a".repeat(1_000_000 - 7));
    let cases = [
        (json!({"title": "t".repeat(201)}), "title"),
        (json!({"title": "ü".repeat(201)}), "title"),
        (json!({"title": 5}), "title"),
        (json!({"title": ["x"]}), "title"),
        (json!({"title": "Bell\u{7}"}), "title"),
        (json!({"category_id": "nope"}), "category_id"),
        (json!({"category_id": UNKNOWN}), "category_id"),
        (json!({"category_id": gone}), "category_id"),
        (json!({"category_id": 5}), "category_id"),
        (json!({"body_html": "<p>a\u{0}b</p>"}), "body_html"),
        (json!({"body_html": format!("{big}a")}), "body_html"),
        (json!({"body_html": 5}), "body_html"),
    ];
    let before = s.org.raw_export().unwrap();
    for (fields, detail) in cases {
        check(&s, create(fields), Expect::invalid(detail));
    }
    let every = check(
        &s,
        create(json!({"title": "t".repeat(201), "category_id": "nope", "body_html": "\u{0}"})),
        Expect::invalid("title"),
    );
    for key in ["category_id", "body_html"] {
        assert!(
            every.detail_keys().iter().any(|k| k == key),
            "{key}: {}",
            every.body
        );
    }
    check(
        &s,
        Call::post("/notes", json!({"note": "Plan"})),
        Expect::error(400, "invalid_json", None),
    );
    assert_eq!(s.org.raw_export().unwrap(), before, "nothing was made");

    // The limits are accepted: 200 characters of title, 1,000,000 bytes of body.
    assert_eq!(big.len(), 1_000_000);
    let long = new_note(&s, json!({"title": "ü".repeat(200), "body_html": big}));
    assert_eq!(long["title"], "ü".repeat(200));
    new_note(&s, json!({"title": "t".repeat(200)}));
    // A body whose first word is longer than 60 characters is named by its first 60.
    let unnamed = note_with_body(&s, &format!("<p>{} tail</p>", "x".repeat(70)));
    assert_eq!(unnamed["name"], "x".repeat(60));
}

/// "Note" `title`: squished, blank or null is null, on create and change;
/// the title is the name.
#[test]
fn the_title_is_squished_and_blank_is_null() {
    let s = Core::start();
    let cases = [
        (json!("  Spring   plan  "), json!("Spring plan")),
        (json!("Line\nbreak\ttab"), json!("Line break tab")),
        (json!(""), Value::Null),
        (json!("    "), Value::Null),
        (Value::Null, Value::Null),
    ];
    for (sent, stored) in cases {
        let made = new_note(&s, json!({ "title": sent }));
        assert_eq!(made["title"], stored, "create {sent}");
        let name = if stored.is_null() {
            json!("Untitled note")
        } else {
            stored.clone()
        };
        assert_eq!(made["name"], name, "create {sent}");
        let n = id(&made);
        set_note(&s, &n, json!({"title": "Other"}));
        let changed = set_note(&s, &n, json!({ "title": sent }));
        assert_eq!(changed["title"], stored, "change {sent}");
        assert_eq!(changed["name"], name, "change {sent}");
        assert_eq!(changed["title_generated"], false, "change {sent}");
    }
}

/// "Note" `name` (DECISIONS): the title; else the body as one line
/// (blocks joined by a space; mentions `@Name`, references `^Name`, tags
/// `#name`) cut to at most 60 characters at a word, with no ellipsis; a
/// first word over 60 is cut at 60; else "Untitled note".
#[test]
fn the_name_is_the_title_else_the_body_cut_at_a_word() {
    let s = Core::start();
    let ada = person(&s, "Ada Lovelace");
    let orchard = project(&s, "Orchard");
    let rows: Vec<(Value, String, &str)> = vec![
        (json!("My title"), "<p>Body words</p>".into(), "My title"),
        (Value::Null, "<p>Short body</p>".into(), "Short body"),
        (json!("   "), "<p>From the body</p>".into(), "From the body"),
        (
            Value::Null,
            "<p>Remember to water the tomatoes and peppers before the heatwave arrives on Friday</p>"
                .into(),
            "Remember to water the tomatoes and peppers before the",
        ),
        (
            Value::Null,
            format!(
                "<p>Call {} about the greenhouse heating and the spare keys for the shed</p>",
                mention(&ada, "@A")
            ),
            "Call @Ada Lovelace about the greenhouse heating and the",
        ),
        (
            Value::Null,
            "<p>The quick brown fox jumps over the lazy dog and keeps going!</p><p>More</p>".into(),
            "The quick brown fox jumps over the lazy dog and keeps going!",
        ),
        (
            Value::Null,
            "<p>The quick brown fox jumps over the lazy dog and keeps running</p>".into(),
            "The quick brown fox jumps over the lazy dog and keeps",
        ),
        (
            Value::Null,
            format!("<p>{}</p>", ["résumé"; 12].join(" ")),
            "résumé résumé résumé résumé résumé résumé résumé résumé",
        ),
        (
            Value::Null,
            "<h1>Trip</h1><p>Pack the tent</p>".into(),
            "Trip Pack the tent",
        ),
        (
            Value::Null,
            format!("<p>#garden with {}</p>", reference(&orchard, "^O")),
            "#garden with ^Orchard",
        ),
        (
            Value::Null,
            format!("<p>{}</p>", "x".repeat(70)),
            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
        ),
        (Value::Null, String::new(), "Untitled note"),
        (Value::Null, "<p>   </p>".into(), "Untitled note"),
    ];
    for (title, body, name) in rows {
        let note = new_note(&s, json!({"title": title, "body_html": body}));
        assert_eq!(note["name"], name, "{title} {body}");
        assert_eq!(summary(&s, &id(&note))["name"], name, "{body}: listed");
    }
}

/// NoteSummary `excerpt` (DECISIONS): the body as one line; at most 240
/// characters: a longer one is cut at a word and followed by "...", the
/// whole at most 240; "" when empty. The title is not in it.
#[test]
fn the_excerpt_is_the_body_cut_at_240_with_three_dots() {
    let s = Core::start();
    let ada = person(&s, "Ada Lovelace");
    let orchard = project(&s, "Orchard");
    let words = |n: usize| -> String {
        (0..n)
            .map(|i| format!("word{i:02}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    // 34 words of six and their spaces: 237 characters.
    let cut = words(34);
    assert_eq!(cut.chars().count(), 237);
    let exact = format!("{cut} ab");
    let over = format!("{cut} abc");
    let late_word = format!("{} abcdefgh tail", "x".repeat(230));
    let rows: Vec<(String, String)> = vec![
        (String::new(), String::new()),
        ("<p>Short</p>".into(), "Short".into()),
        (
            format!(
                "<h1>Trip</h1><p>Ask {} about {} #garden</p>",
                mention(&ada, "@A"),
                reference(&orchard, "^O")
            ),
            "Trip Ask @Ada Lovelace about ^Orchard #garden".into(),
        ),
        (format!("<p>{exact}</p>"), exact.clone()),
        (format!("<p>{over}</p>"), format!("{cut}...")),
        (format!("<p>{}</p>", words(40)), format!("{cut}...")),
        (
            format!("<p>{late_word}</p>"),
            format!("{}...", "x".repeat(230)),
        ),
    ];
    for (body, excerpt) in rows {
        let note = new_note(&s, json!({"title": "A title", "body_html": body}));
        let listed = summary(&s, &id(&note));
        assert_eq!(listed["excerpt"], excerpt.as_str(), "{body}");
        assert!(excerpt.chars().count() <= 240);
    }
}

// ---------------------------------------------------------------- edits

/// DECISIONS "Notes": a change of title, body or category sets
/// `edited_at` and `updated_at` to now and adds one to `edit_version`; a
/// change that changes nothing (the body as read sent back, a body that
/// sanitises to the same) keeps all three; only the fields sent change;
/// PUT is PATCH; a matching `edit_version` goes through.
#[test]
fn an_edit_moves_edited_at_and_edit_version() {
    let s = Core::start();
    let garden = category(&s, "Garden");
    let home = category(&s, "Home");
    let made = new_note(
        &s,
        json!({"title": "Plan", "body_html": "<p>one</p>", "category_id": garden}),
    );
    let n = id(&made);
    let mut version = 1;
    let steps: [(Value, &[&str]); 4] = [
        (json!({"title": "Plan B"}), &["title", "name"]),
        (
            json!({"body_html": "<p>two</p>"}),
            &["body_html", "body_text"],
        ),
        (json!({"category_id": home}), &["category_id"]),
        (json!({"category_id": null}), &["category_id"]),
    ];
    for (fields, changed) in steps {
        s.advance(10);
        let before = get_note(&s, &n);
        let after = set_note(&s, &n, fields.clone());
        version += 1;
        let now = now_string(&s);
        assert_eq!(after["edit_version"], version, "{fields}");
        assert_eq!(after["edited_at"], now.as_str(), "{fields}");
        assert_eq!(after["updated_at"], now.as_str(), "{fields}");
        assert_eq!(after["title_generated"], false);
        for (field, value) in before.as_object().unwrap() {
            let stamp = ["edit_version", "edited_at", "updated_at"].contains(&field.as_str());
            if !stamp && !changed.contains(&field.as_str()) {
                assert_eq!(&after[field], value, "{fields}: {field} kept");
            }
        }
        assert_eq!(get_note(&s, &n), after);
    }
    assert_eq!(get_note(&s, &n)["title"], "Plan B");
    assert_eq!(get_note(&s, &n)["body_text"], "two");

    let current = get_note(&s, &n);
    s.advance(10);
    for same in [
        json!({}),
        json!({"title": "  Plan   B "}),
        json!({"body_html": current["body_html"]}),
        json!({"body_html": "<p>two</p><script>x()</script>"}),
        json!({"category_id": null}),
        json!({"title": "Plan B", "body_html": current["body_html"], "category_id": null, "edit_version": 5}),
    ] {
        assert_eq!(set_note(&s, &n, same.clone()), current, "{same}: no change");
    }

    let put = s
        .put(&format!("/notes/{n}"), json!({"note": {"title": "Put"}}))
        .expect(200);
    assert_eq!(put.data()["title"], "Put");
    assert_eq!(put.data()["body_html"], current["body_html"]);
    assert_eq!(put.data()["edit_version"], 6);
    let versioned = set_note(&s, &n, json!({"title": "Versioned", "edit_version": 6}));
    assert_eq!(versioned["edit_version"], 7);
    assert_eq!(versioned["title"], "Versioned");
}

/// "Note" `edit_version`: an update sent with a version other than the
/// note's (older or newer) is 409 `conflict` and changes nothing.
#[test]
fn a_stale_edit_version_is_409_and_changes_nothing() {
    let s = Core::start();
    let made = new_note(&s, json!({"title": "Plan", "body_html": "<p>one</p>"}));
    let n = id(&made);
    s.advance(5);
    set_note(&s, &n, json!({"title": "Plan 2"}));
    s.advance(5);
    let note = get_note(&s, &n);
    assert_eq!(note["edit_version"], 2);
    let before = s.org.raw_export().unwrap();
    for fields in [
        json!({"title": "Mine", "edit_version": 1}),
        json!({"body_html": "<p>mine</p>", "edit_version": 1}),
        json!({"category_id": null, "edit_version": 0}),
        json!({"title": "Ahead", "edit_version": 3}),
        json!({"title": "Plan 2", "edit_version": 1}),
        json!({"edit_version": -2}),
    ] {
        check(
            &s,
            change_note(&n, fields),
            Expect::error(409, "conflict", None),
        );
    }
    assert_eq!(s.org.raw_export().unwrap(), before, "nothing changed");
    assert_eq!(get_note(&s, &n), note);
    let mine = set_note(&s, &n, json!({"title": "Mine", "edit_version": 2}));
    assert_eq!(mine["edit_version"], 3);
}

/// DECISIONS "Notes": `edit_version` must be a whole number, else 422 on
/// `edit_version`, and nothing changes.
#[test]
fn edit_version_must_be_a_whole_number() {
    let s = Core::start();
    let n = id(&new_note(&s, json!({"title": "Plan"})));
    let before = s.org.raw_export().unwrap();
    for bad in [
        json!("1"),
        json!(1.5),
        json!(true),
        json!([1]),
        json!({"v": 1}),
    ] {
        check(
            &s,
            change_note(&n, json!({"title": "Other", "edit_version": bad})),
            Expect::invalid("edit_version"),
        );
    }
    assert_eq!(s.org.raw_export().unwrap(), before);
}

/// DECISIONS "Notes": every refusal of a change is 422 on its field and
/// changes nothing; an unknown, malformed or deleted note is 404.
#[test]
fn change_refuses_bad_fields_and_changes_nothing() {
    let s = Core::start();
    let garden = category(&s, "Garden");
    let made = new_note(
        &s,
        json!({"title": "Plan", "category_id": garden, "body_html": "<p>one</p>"}),
    );
    let n = id(&made);
    let deleted = id(&new_note(&s, json!({"title": "Deleted"})));
    s.delete(&format!("/notes/{deleted}")).expect(204);
    s.advance(5);
    let cases = [
        (json!({"title": "t".repeat(201)}), "title"),
        (json!({"title": 5}), "title"),
        (json!({"title": "Esc\u{1b}[2J"}), "title"),
        (json!({"category_id": "nope"}), "category_id"),
        (json!({"category_id": UNKNOWN}), "category_id"),
        (json!({"category_id": false}), "category_id"),
        (json!({"body_html": "\u{0}"}), "body_html"),
        (
            json!({"body_html": format!("<p>{}</p>", "a".repeat(1_000_000))}),
            "body_html",
        ),
        (json!({"body_html": ["<p>x</p>"]}), "body_html"),
        (
            json!({"title": "Fine", "category_id": "nope"}),
            "category_id",
        ),
        (
            json!({"body_html": "<p>fine #newtag</p>", "title": 7}),
            "title",
        ),
    ];
    let before = s.org.raw_export().unwrap();
    for (fields, detail) in cases {
        check(&s, change_note(&n, fields), Expect::invalid(detail));
    }
    check(
        &s,
        Call::patch(format!("/notes/{n}"), json!({"note": "Plan"})),
        Expect::error(400, "invalid_json", None),
    );
    assert_eq!(s.org.raw_export().unwrap(), before, "nothing changed");
    assert_eq!(get_note(&s, &n), made);
    assert!(tags(&s).is_empty(), "no tag was made");

    for call in [
        Call::get(format!("/notes/{UNKNOWN}")),
        Call::get("/notes/nope"),
        Call::get(format!("/notes/{deleted}")),
        change_note(UNKNOWN, json!({"title": "x"})),
        change_note("nope", json!({"title": "x"})),
        change_note(&deleted, json!({"title": "x"})),
        Call::delete(format!("/notes/{UNKNOWN}")),
        Call::delete("/notes/nope"),
        Call::delete(format!("/notes/{deleted}")),
    ] {
        check(&s, call, Expect::error(404, "not_found", None));
    }
}

/// "Note" write fields: null or "" clears the body (and its tags, people
/// and projects), null clears the title (the name then comes from the
/// body) and the category; a changed or cleared title is the owner's
/// (`title_generated` false).
#[test]
fn title_body_and_category_clear() {
    let s = Core::start();
    let garden = category(&s, "Garden");
    let ada = person(&s, "Ada");
    let made = new_note(
        &s,
        json!({"title": "Plan", "category_id": garden,
            "body_html": format!("<p>Ask {} #seeds</p>", mention(&ada, "@Ada"))}),
    );
    let n = id(&made);
    let untitled = set_note(&s, &n, json!({"title": null}));
    assert_eq!(untitled["title"], Value::Null);
    assert_eq!(untitled["name"], "Ask @Ada #seeds");
    assert_eq!(untitled["title_generated"], false);
    let uncategorised = set_note(&s, &n, json!({"category_id": null}));
    assert_eq!(uncategorised["category_id"], Value::Null);
    for clear in [json!(null), json!("")] {
        set_note(&s, &n, json!({"body_html": "<p>again #seeds</p>"}));
        let cleared = set_note(&s, &n, json!({ "body_html": clear }));
        assert_eq!(cleared["body_html"], "", "{clear}");
        assert_eq!(cleared["body_text"], "", "{clear}");
        assert_eq!(cleared["name"], "Untitled note", "{clear}");
        for ids in ["tag_ids", "person_ids", "project_ids"] {
            assert_eq!(cleared[ids], json!([]), "{clear}: {ids}");
        }
        assert_eq!(summary(&s, &n)["excerpt"], "", "{clear}");
    }
}

// ---------------------------------------------------------------- the listing

/// DESIGN.md notes and DECISIONS "Notes": the orders `edited_at` (the
/// default, descending by default), `created_at`, `updated_at`, `name`
/// (ignoring case) and `id` (ascending by default), each in both
/// directions, ties by id (reversed with `desc`), walked a page of one at
/// a time with `count=true`; a deleted note is in none.
#[test]
fn the_listing_takes_every_order_and_direction_and_pages_by_one() {
    let s = Core::start();
    let banana = id(&new_note(&s, json!({"title": "banana"})));
    s.advance(1);
    // A created_at and edited_at tie.
    new_note(&s, json!({"title": "Apple"}));
    new_note(&s, json!({"title": "cherry"}));
    s.advance(1);
    let date = id(&note_with_body(&s, "<p>Date palm</p>"));
    new_note(&s, json!({"title": "elder"}));
    let gone = id(&new_note(&s, json!({"title": "Gone"})));
    s.delete(&format!("/notes/{gone}")).expect(204);
    // An updated_at tie: an edit and a pin in the same instant.
    s.advance(10);
    set_note(&s, &banana, json!({"title": "Banana"}));
    pin(&s, &date).expect(200);
    let records = all(&s, "/notes?order=id");
    assert_eq!(records.len(), 5);

    type Key = fn(&Value) -> String;
    let orders: [(&str, Key, bool); 5] = [
        ("edited_at", |n| text(n, "edited_at"), true),
        ("created_at", |n| text(n, "created_at"), false),
        ("updated_at", |n| text(n, "updated_at"), false),
        ("name", |n| text(n, "name").to_lowercase(), false),
        ("id", id, false),
    ];
    for (order, key, descending) in orders {
        let asc = sorted_by(&records, key);
        let desc = reversed(&asc);
        let default = if descending { &desc } else { &asc };
        assert_listed(&s, &format!("/notes?order={order}"), default);
        assert_listed(&s, &format!("/notes?order={order}&direction=asc"), &asc);
        assert_listed(&s, &format!("/notes?order={order}&direction=desc"), &desc);
        if descending {
            assert_listed(&s, "/notes", &desc);
            assert_listed(&s, "/notes?direction=asc", &asc);
        }
    }
    let names: Vec<String> = all(&s, "/notes?order=name")
        .iter()
        .map(|n| text(n, "name"))
        .collect();
    assert_eq!(names, ["Apple", "Banana", "cherry", "Date palm", "elder"]);
    // The default page size and the cap.
    let page = s.get("/notes").expect(200);
    assert_eq!(page.body["meta"]["limit"], 50);
    assert_eq!(page.body["meta"]["next_cursor"], Value::Null);
    assert!(page.body["meta"].get("total_count").is_none());
    assert_eq!(
        s.get("/notes?limit=500").expect(200).body["meta"]["limit"],
        100
    );
}

/// DESIGN.md notes: `category_id`, `tag_id`, `person_id`, `project_id`
/// and `pinned` filter the listing (and combine); an unknown id gives an
/// empty page; a deleted note is in none.
#[test]
fn the_listing_filters_by_category_tag_person_project_and_pin() {
    let s = Core::start();
    let garden = category(&s, "Garden");
    let home = category(&s, "Home");
    let ada = person(&s, "Ada");
    let bob = person(&s, "Bob");
    let orchard = project(&s, "Orchard");
    let shed = project(&s, "Shed");
    let at = |p: &str| mention(p, "@x");
    let n1 = id(&new_note(
        &s,
        json!({"category_id": garden, "body_html": format!("<p>{} #roses</p>", at(&ada))}),
    ));
    s.advance(1);
    let n2 = id(&new_note(
        &s,
        json!({"category_id": home, "body_html": format!("<p>{} #weeds</p>", reference(&orchard, "^x"))}),
    ));
    s.advance(1);
    let n3 = id(&note_with_body(
        &s,
        &format!(
            "<p>{} {} {} #roses #weeds</p>",
            at(&ada),
            at(&bob),
            reference(&orchard, "^x")
        ),
    ));
    s.advance(1);
    let n4 = id(&new_note(
        &s,
        json!({"category_id": garden, "body_html": "<p>plain</p>"}),
    ));
    s.advance(1);
    let n5 = id(&new_note(
        &s,
        json!({"category_id": garden,
            "body_html": format!("<p>{} {} #roses #gone</p>", at(&ada), reference(&shed, "^x"))}),
    ));
    s.delete(&format!("/notes/{n5}")).expect(204);
    pin(&s, &n1).expect(200);
    let roses = tag_id(&s, "roses");
    let weeds = tag_id(&s, "weeds");
    let gone_tag = tag_id(&s, "gone");
    let v = |ids: &[&String]| -> Vec<String> { ids.iter().map(|i| (*i).clone()).collect() };
    let cases = [
        (format!("category_id={garden}"), v(&[&n4, &n1])),
        (format!("category_id={home}"), v(&[&n2])),
        (format!("tag_id={roses}"), v(&[&n3, &n1])),
        (format!("tag_id={weeds}"), v(&[&n3, &n2])),
        (format!("tag_id={gone_tag}"), v(&[])),
        (format!("person_id={ada}"), v(&[&n3, &n1])),
        (format!("person_id={bob}"), v(&[&n3])),
        (format!("project_id={orchard}"), v(&[&n3, &n2])),
        (format!("project_id={shed}"), v(&[])),
        ("pinned=true".to_owned(), v(&[&n1])),
        ("pinned=false".to_owned(), v(&[&n4, &n3, &n2])),
        (format!("category_id={garden}&pinned=false"), v(&[&n4])),
        (
            format!("tag_id={roses}&person_id={ada}&order=created_at"),
            v(&[&n1, &n3]),
        ),
        (
            format!("tag_id={weeds}&project_id={orchard}&pinned=true"),
            v(&[]),
        ),
        (format!("category_id={UNKNOWN}"), v(&[])),
        (format!("tag_id={UNKNOWN}"), v(&[])),
        (format!("person_id={UNKNOWN}"), v(&[])),
        (format!("project_id={UNKNOWN}"), v(&[])),
    ];
    for (query, wanted) in cases {
        assert_listed(&s, &format!("/notes?{query}"), &wanted);
    }
}

/// DECISIONS "Notes" `q`: each word, ignoring case and accents, must
/// begin a word of the title, a tag's name, a mentioned person's name, a
/// referenced project's name or the text; a blank `q` lists as without
/// it; `q` pages and orders as any listing; 200 characters are accepted.
#[test]
fn q_finds_notes_by_title_tags_people_projects_and_text() {
    let s = Core::start();
    let zoe = person(&s, "Zoë Quint");
    let orchard = project(&s, "Orchard Works");
    let cafe = id(&new_note(
        &s,
        json!({"title": "Café plans", "body_html": "<p>nothing else</p>"}),
    ));
    let tagged = id(&note_with_body(&s, "<p>see #gardening</p>"));
    let mentioned = id(&note_with_body(
        &s,
        &format!("<p>call {}</p>", mention(&zoe, "@Z")),
    ));
    let referenced = id(&note_with_body(
        &s,
        &format!("<p>for {}</p>", reference(&orchard, "^O")),
    ));
    let texty = id(&new_note(
        &s,
        json!({"title": "Fox", "body_html": "<p>The quick brown fox jumps</p>"}),
    ));
    let replant = id(&new_note(
        &s,
        json!({"title": "Replanting", "body_html": "<p>soil</p>"}),
    ));
    let every = vec![
        cafe.clone(),
        tagged.clone(),
        mentioned.clone(),
        referenced.clone(),
        texty.clone(),
        replant.clone(),
    ];
    let cases: Vec<(&str, Vec<String>)> = vec![
        ("cafe", vec![cafe.clone()]),
        ("CAF%C3%89", vec![cafe.clone()]),
        ("Plans", vec![cafe.clone()]),
        ("lans", vec![]),
        ("garden", vec![tagged.clone()]),
        ("GARDENING", vec![tagged.clone()]),
        ("zoe", vec![mentioned.clone()]),
        ("zo%C3%AB", vec![mentioned.clone()]),
        ("QUIN", vec![mentioned.clone()]),
        ("orch", vec![referenced.clone()]),
        ("works", vec![referenced.clone()]),
        ("quick%20fox", vec![texty.clone()]),
        ("fox+quick", vec![texty.clone()]),
        ("quick%20cat", vec![]),
        ("plant", vec![]),
        ("replant", vec![replant.clone()]),
        ("cafe%20zoe", vec![]),
        ("f", vec![referenced.clone(), texty.clone()]),
        ("%20%20", every.clone()),
        ("", every.clone()),
    ];
    for (q, wanted) in cases {
        assert_eq!(ids(&s, &format!("/notes?q={q}&order=id")), wanted, "q={q}");
    }
    assert_listed(
        &s,
        "/notes?q=f&order=name&direction=desc",
        &[texty.clone(), referenced.clone()],
    );
    assert_listed(&s, "/notes?q=quick&pinned=false", &[texty]);
    let longest = "a".repeat(200);
    assert!(ids(&s, &format!("/notes?q={longest}")).is_empty());
}

/// DESIGN.md notes and document 1's list parameters: every malformed
/// parameter is 400 on its name; a cursor of another listing too.
#[test]
fn the_listing_refuses_bad_parameters() {
    let s = Core::start();
    new_note(&s, json!({"title": "one"}));
    new_note(&s, json!({"title": "two"}));
    let long_q = format!("q={}", "a".repeat(201));
    let cases = [
        ("order=title", "order"),
        ("order=position", "order"),
        ("direction=up", "direction"),
        ("count=yes", "count"),
        ("limit=0", "limit"),
        ("limit=-1", "limit"),
        ("limit=x", "limit"),
        ("cursor=forged", "cursor"),
        ("pinned=yes", "pinned"),
        ("pinned=", "pinned"),
        ("category_id=nope", "category_id"),
        ("tag_id=nope", "tag_id"),
        ("person_id=nope", "person_id"),
        ("project_id=nope", "project_id"),
        (long_q.as_str(), "q"),
        ("q=a%00b", "q"),
        ("q=a&q=b", "q"),
        ("updated_since=today", "updated_since"),
        ("order=name&updated_since=2026-03-10T09:00:00Z", "order"),
    ];
    for (query, detail) in cases {
        check(
            &s,
            Call::get(format!("/notes?{query}")),
            Expect::bad_param(Some(detail)),
        );
    }
    let by_name = s.get("/notes?order=name&limit=1").expect(200);
    let cursor = by_name.body["meta"]["next_cursor"].as_str().unwrap();
    check(
        &s,
        Call::get(format!("/notes?limit=1&cursor={cursor}")),
        Expect::bad_param(Some("cursor")),
    );
}

/// Document 1, `updated_since`: only notes updated at or after it, by
/// `updated_at` (a pin counts), in the direction asked; `count` counts them.
#[test]
fn updated_since_keeps_the_notes_changed_since() {
    let s = Core::start();
    let one = id(&new_note(&s, json!({"title": "one"})));
    let two = id(&new_note(&s, json!({"title": "two"})));
    let three = id(&new_note(&s, json!({"title": "three"})));
    s.advance(10);
    set_note(&s, &one, json!({"title": "one again"}));
    s.advance(5);
    pin(&s, &two).expect(200);
    let since = "updated_since=2026-03-10T09:00:10Z";
    assert_listed(
        &s,
        &format!("/notes?{since}&direction=asc"),
        &[one.clone(), two.clone()],
    );
    assert_listed(
        &s,
        &format!("/notes?{since}&direction=desc"),
        &[two.clone(), one.clone()],
    );
    let mut unordered = ids(&s, &format!("/notes?{since}"));
    unordered.sort();
    assert_eq!(unordered, [one.clone(), two.clone()]);
    assert_listed(
        &s,
        "/notes?updated_since=2026-03-10T09:00:10.001Z&order=updated_at",
        std::slice::from_ref(&two),
    );
    assert_listed(
        &s,
        "/notes?updated_since=2026-03-10T09:00:00Z&order=updated_at&direction=asc",
        &[three, one, two],
    );
}

// ---------------------------------------------------------------- delete, restore, pin

/// DESIGN.md notes and DECISIONS "Notes": DELETE is 204 with a `note`
/// deletion record and the note gone from every endpoint; within 20
/// seconds the restoration returns it as it was with a new `updated_at`
/// and removes the record; restoring a live note returns it unchanged.
#[test]
fn a_deleted_note_is_gone_and_comes_back_within_20_seconds() {
    let s = Core::start();
    let garden = category(&s, "Garden");
    let ada = person(&s, "Ada");
    let made = new_note(
        &s,
        json!({"title": "Plan", "category_id": garden,
            "body_html": format!("<p>{} #roses</p>", mention(&ada, "@Ada"))}),
    );
    let n = id(&made);
    pin(&s, &n).expect(200);
    let roses = tag_id(&s, "roses");
    s.advance(1);
    let before = get_note(&s, &n);
    s.delete(&format!("/notes/{n}")).expect(204);
    for call in [
        Call::get(format!("/notes/{n}")),
        change_note(&n, json!({"title": "x"})),
        Call::delete(format!("/notes/{n}")),
        Call::new("POST", format!("/notes/{n}/pin")),
        Call::delete(format!("/notes/{n}/pin")),
    ] {
        check(&s, call, Expect::error(404, "not_found", None));
    }
    for query in [
        String::new(),
        format!("?category_id={garden}"),
        format!("?tag_id={roses}"),
        format!("?person_id={ada}"),
        "?pinned=true".to_owned(),
        "?q=plan".to_owned(),
    ] {
        assert!(all(&s, &format!("/notes{query}")).is_empty(), "{query}");
    }
    assert_eq!(deletions(&s), records(&[("note", &n)]));
    assert_eq!(tags(&s).len(), 1, "the tag stays");

    s.advance(19);
    let back = restore(&s, "notes", &n).expect(200).data().clone();
    assert_eq!(back, with_updated_at(&before, &now_string(&s)));
    assert_eq!(get_note(&s, &n), back);
    assert_eq!(ids(&s, &format!("/notes?tag_id={roses}")), [n.as_str()]);
    assert!(deletions(&s).is_empty());
    s.advance(5);
    assert_eq!(restore(&s, "notes", &n).expect(200).data(), &back);
    assert_eq!(get_note(&s, &n), back);
    s.delete(&format!("/notes/{n}")).expect(204);
}

/// DECISIONS "Notes": 20 seconds after the delete the restoration is 404
/// and the note is gone for good; its deletion record stays.
#[test]
fn restoration_is_404_after_20_seconds() {
    let s = Core::start();
    let n = id(&new_note(&s, json!({"title": "Old"})));
    s.delete(&format!("/notes/{n}")).expect(204);
    s.advance(20);
    for call in [
        Call::new("POST", format!("/notes/{n}/restoration")),
        Call::new("POST", format!("/notes/{UNKNOWN}/restoration")),
        Call::new("POST", "/notes/nope/restoration"),
        Call::get(format!("/notes/{n}")),
        Call::delete(format!("/notes/{n}")),
    ] {
        check(&s, call, Expect::error(404, "not_found", None));
    }
    assert_eq!(deletions(&s), records(&[("note", &n)]));
}

/// DESIGN.md notes and DECISIONS "Notes": pinning sets `pinned` and
/// `pinned_at` with a new `updated_at`; unpinning clears them with a new
/// `updated_at`; doing either again changes nothing; neither touches
/// `edited_at` or `edit_version`, so an edit sent with the version read
/// before the pin goes through.
#[test]
fn pin_and_unpin_leave_edited_at_and_edit_version() {
    let s = Core::start();
    let made = new_note(&s, json!({"title": "Pin me"}));
    let n = id(&made);
    s.advance(10);
    let pinned = pin(&s, &n).expect(200).data().clone();
    let at = now_string(&s);
    assert_eq!(pinned["pinned"], true);
    assert_eq!(pinned["pinned_at"], at.as_str());
    assert_eq!(pinned["updated_at"], at.as_str());
    assert_eq!(pinned["edited_at"], START);
    assert_eq!(pinned["edit_version"], 1);
    assert_eq!(get_note(&s, &n), pinned);
    assert_eq!(summary(&s, &n)["pinned"], true);
    s.advance(10);
    assert_eq!(pin(&s, &n).expect(200).data(), &pinned, "already pinned");
    s.advance(10);
    let unpinned = unpin(&s, &n).expect(200).data().clone();
    assert_eq!(unpinned["pinned"], false);
    assert_eq!(unpinned["pinned_at"], Value::Null);
    assert_eq!(unpinned["updated_at"], now_string(&s));
    assert_eq!(unpinned["edited_at"], START);
    assert_eq!(unpinned["edit_version"], 1);
    s.advance(10);
    assert_eq!(unpin(&s, &n).expect(200).data(), &unpinned, "not pinned");
    let edited = set_note(
        &s,
        &n,
        json!({"title": "Edited", "edit_version": made["edit_version"]}),
    );
    assert_eq!(edited["edit_version"], 2);
    for call in [
        Call::new("POST", format!("/notes/{UNKNOWN}/pin")),
        Call::new("POST", "/notes/nope/pin"),
        Call::delete(format!("/notes/{UNKNOWN}/pin")),
    ] {
        check(&s, call, Expect::error(404, "not_found", None));
    }
}

/// Document 1, "Idempotency": a create and a restoration sent twice with
/// the same key are answered again, once.
#[test]
fn a_create_or_restoration_with_an_idempotency_key_replays() {
    let s = Core::start();
    let body = json!({"note": {"title": "Once", "body_html": "<p>#once</p>"}});
    let made = send(
        s.req("POST", "/notes")
            .header("idempotency-key", "n-1")
            .json(&body),
    )
    .expect(201);
    let again = send(
        s.req("POST", "/notes")
            .header("idempotency-key", "n-1")
            .json(&body),
    )
    .expect(201);
    assert_eq!(again.header("idempotent-replayed"), Some("true"));
    assert_eq!(again.data(), made.data());
    assert_eq!(all(&s, "/notes").len(), 1);
    assert_eq!(tags(&s).len(), 1);
    let n = id(made.data());
    s.delete(&format!("/notes/{n}")).expect(204);
    let path = format!("/notes/{n}/restoration");
    let first = send(s.req("POST", &path).header("idempotency-key", "r-1")).expect(200);
    let replay = send(s.req("POST", &path).header("idempotency-key", "r-1")).expect(200);
    assert_eq!(replay.header("idempotent-replayed"), Some("true"));
    assert_eq!(replay.data(), first.data());
}
