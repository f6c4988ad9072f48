//! Document 2's "Tag" and "Tags" with DECISIONS-notes.md "Tags": tags are
//! made by notes (no create endpoint); name normalisation; names unique
//! ignoring case (a casing-only change allowed); a rename rewrites every
//! body; merge (the survivor unchanged, the merged tag deleted with a
//! `tag` deletion record, 422 on a bad `into_id`); delete; every order.

use serde_json::{Value, json};

use super::{assert_listed, get_note, note_with_body, reversed, sorted_by, tag_id, tags, text};
use crate::common::fixtures::{START, UNKNOWN, all, deletions, id, ids, keys, now_string, records};
use crate::common::{Call, Core, Expect, Reply, check};

/// `PATCH /tags/{id}` with `{tag: {name}}`.
fn patch_tag(s: &Core, tag: &str, name: Value) -> Reply {
    s.patch(&format!("/tags/{tag}"), json!({"tag": {"name": name}}))
}

/// `PATCH /tags/{id}` with `{tag: {name}}`, as a table's case.
fn rename(tag: &str, name: Value) -> Call {
    Call::patch(format!("/tags/{tag}"), json!({"tag": {"name": name}}))
}

/// `POST /tags/{id}/merge` with `body`, as a table's case.
fn merge(tag: &str, body: Value) -> Call {
    Call::post(format!("/tags/{tag}/merge"), body)
}

/// `GET /tags/{id}`, which must be 200.
#[track_caller]
fn get_tag(s: &Core, tag: &str) -> Value {
    s.get(&format!("/tags/{tag}")).expect(200).data().clone()
}

/// Whether `error.details.name` holds `phrase`.
fn names_phrase(reply: &Reply, phrase: &str) -> bool {
    reply.body["error"]["details"]["name"]
        .as_array()
        .is_some_and(|p| p.iter().any(|p| p == phrase))
}

/// "Tag": `id`, `name`, `created_at`, `updated_at`; made by a note (at
/// its time), read by id; there is no create endpoint; an unknown or
/// malformed id is 404.
#[test]
fn a_tag_has_every_field_and_is_made_only_by_notes() {
    let s = Core::start();
    note_with_body(&s, "<p>#garden</p>");
    let listed = tags(&s);
    assert_eq!(listed.len(), 1);
    let tag = &listed[0];
    assert_eq!(keys(tag), ["created_at", "id", "name", "updated_at"]);
    assert_eq!(text(tag, "id").len(), 26);
    assert_eq!(tag["name"], "garden");
    assert_eq!(tag["created_at"], START);
    assert_eq!(tag["updated_at"], START);
    assert_eq!(&get_tag(&s, &id(tag)), tag);
    for call in [
        Call::get(format!("/tags/{UNKNOWN}")),
        Call::get("/tags/nope"),
        rename(UNKNOWN, json!("x")),
        Call::delete(format!("/tags/{UNKNOWN}")),
        Call::delete("/tags/nope"),
        Call::post("/tags", json!({"tag": {"name": "made"}})),
    ] {
        check(&s, call, Expect::error(404, "not_found", None));
    }
    assert_eq!(tags(&s).len(), 1);
}

/// "Tags" name normalisation, one row per rule: a leading `#` dropped;
/// runs of spaces or hyphens made one hyphen; leading and trailing
/// hyphens dropped; trailing `. , ! ? ; :` dropped (repeatedly, with
/// hyphens); punctuation inside kept; at most 50 characters. The notes
/// with the tag show the stored name.
#[test]
fn names_are_normalised() {
    let s = Core::start();
    let note = note_with_body(&s, "<p>#seed</p>");
    let seed = tag_id(&s, "seed");
    let fifty = "a".repeat(50);
    let umlauts = "ü".repeat(50);
    let rows: &[(&str, &str)] = &[
        ("#garden", "garden"),
        ("big plans", "big-plans"),
        ("big   plans", "big-plans"),
        ("big--plans", "big-plans"),
        ("big - plans", "big-plans"),
        ("big -- -  plans", "big-plans"),
        ("--big", "big"),
        ("big--", "big"),
        ("  big  ", "big"),
        ("big.", "big"),
        ("big!", "big"),
        ("big?", "big"),
        ("big;", "big"),
        ("big:", "big"),
        ("big!?.", "big"),
        ("big-!", "big"),
        ("big!-", "big"),
        ("#big plans!", "big-plans"),
        ("c++", "c++"),
        ("node.js", "node.js"),
        ("q&a", "q&a"),
        ("it's", "it's"),
        ("v1.2", "v1.2"),
        ("a.b!c", "a.b!c"),
        ("Mixed Case", "Mixed-Case"),
        (&fifty, &fifty),
        (&umlauts, &umlauts),
    ];
    for (sent, stored) in rows {
        let renamed = patch_tag(&s, &seed, json!(sent)).expect(200);
        assert_eq!(renamed.data()["name"], *stored, "{sent:?}");
        assert_eq!(get_tag(&s, &seed)["name"], *stored, "{sent:?}");
        assert_eq!(
            get_note(&s, &id(&note))["body_text"],
            format!("#{stored}"),
            "{sent:?}"
        );
    }
}

/// "Tags" and DECISIONS: a comma is 422 ("can't contain commas"); a name
/// empty after normalising is 422 ("can't be blank"); over 50 characters,
/// not a string, or another tag's name ignoring case (after normalising)
/// is 422 ("already exists"); each on `name`, and nothing changes.
#[test]
fn bad_names_are_refused_and_change_nothing() {
    let s = Core::start();
    note_with_body(&s, "<p>#seed #other</p>");
    let seed = tag_id(&s, "seed");
    let cases: Vec<(Value, Option<&str>)> = vec![
        (json!("a,b"), Some("can't contain commas")),
        (json!("one, two"), Some("can't contain commas")),
        (json!(""), Some("can't be blank")),
        (json!("   "), Some("can't be blank")),
        (json!("#"), Some("can't be blank")),
        (json!("--"), Some("can't be blank")),
        (json!("!!!"), Some("can't be blank")),
        (json!("# - !"), Some("can't be blank")),
        (json!("a".repeat(51)), None),
        (json!("ü".repeat(51)), None),
        (json!("Bell\u{7}"), None),
        (Value::Null, None),
        (json!(5), None),
        (json!(["x"]), None),
        (json!("other"), Some("already exists")),
        (json!("OTHER"), Some("already exists")),
        (json!("#Other!"), Some("already exists")),
    ];
    let before = s.org.raw_export().unwrap();
    for (name, phrase) in cases {
        let reply = check(&s, rename(&seed, name.clone()), Expect::invalid("name"));
        if let Some(phrase) = phrase {
            assert!(names_phrase(&reply, phrase), "{name}: {}", reply.body);
        }
    }
    check(
        &s,
        Call::patch(format!("/tags/{seed}"), json!({"tag": "x"})),
        Expect::error(400, "invalid_json", None),
    );
    assert_eq!(s.org.raw_export().unwrap(), before, "nothing changed");
}

/// "Tags": changing only the casing of a tag's own name is fine, and
/// PUT is PATCH; its notes show the new casing.
#[test]
fn a_casing_only_change_is_allowed() {
    let s = Core::start();
    let note = note_with_body(&s, "<p>#garden</p>");
    let garden = tag_id(&s, "garden");
    s.advance(10);
    let renamed = s
        .put(
            &format!("/tags/{garden}"),
            json!({"tag": {"name": "Garden"}}),
        )
        .expect(200);
    assert_eq!(renamed.data()["name"], "Garden");
    assert_eq!(renamed.data()["updated_at"], now_string(&s));
    assert_eq!(renamed.data()["created_at"], START);
    assert_eq!(get_note(&s, &id(&note))["body_text"], "#Garden");
}

/// "Tags" and DECISIONS: a rename rewrites every body with the tag (the
/// span's name and `body_text`), each with a new `updated_at` and its
/// edit stamps kept; the tag gets a new `updated_at`; notes without it
/// are untouched.
#[test]
fn a_rename_rewrites_every_body() {
    let s = Core::start();
    let with: Vec<Value> = [
        "<p>#garden first</p>",
        "<p>second #GARDEN</p>",
        "<h1>Third</h1><ul><li>#Garden</li></ul>",
    ]
    .iter()
    .map(|b| note_with_body(&s, b))
    .collect();
    let without = note_with_body(&s, "<p>#roses</p>");
    let garden = tag_id(&s, "garden");
    s.advance(10);
    let renamed = patch_tag(&s, &garden, json!("Veg Garden")).expect(200);
    assert_eq!(renamed.data()["name"], "Veg-Garden");
    assert_eq!(renamed.data()["updated_at"], now_string(&s));
    let texts = [
        "#Veg-Garden first",
        "second #Veg-Garden",
        "Third\n- #Veg-Garden",
    ];
    for (before, body_text) in with.iter().zip(texts) {
        let now = get_note(&s, &id(before));
        assert_eq!(now["body_text"], body_text);
        let html = text(&now, "body_html");
        assert!(
            html.contains(&format!("data-tag=\"{garden}\">#Veg-Garden</span>")),
            "{html}"
        );
        assert!(!html.to_lowercase().contains("#garden"), "{html}");
        assert_eq!(now["tag_ids"], json!([garden]));
        assert_eq!(now["updated_at"], now_string(&s));
        assert_eq!(now["edited_at"], before["edited_at"]);
        assert_eq!(now["edit_version"], before["edit_version"]);
    }
    assert_eq!(get_note(&s, &id(&without)), without);
    assert_eq!(ids(&s, &format!("/notes?tag_id={garden}")).len(), 3);
}

/// "Tags" merge: 200 with the surviving tag as it was; the merged tag is
/// deleted (404, a `tag` deletion record) and its notes have the
/// survivor; merging it again is 404.
#[test]
fn merge_moves_the_notes_to_the_survivor_and_deletes_the_tag() {
    let s = Core::start();
    let a = note_with_body(&s, "<p>#weeds</p>");
    note_with_body(&s, "<p>#garden</p>");
    let weeds = tag_id(&s, "weeds");
    let garden = tag_id(&s, "garden");
    let survivor = get_tag(&s, &garden);
    s.advance(10);
    let merged = s
        .post(
            &format!("/tags/{weeds}/merge"),
            json!({ "into_id": garden }),
        )
        .expect(200);
    assert_eq!(merged.data(), &survivor, "the survivor is unchanged");
    assert_eq!(get_tag(&s, &garden), survivor);
    assert_eq!(tags(&s), [survivor]);
    for call in [
        Call::get(format!("/tags/{weeds}")),
        merge(&weeds, json!({ "into_id": garden })),
        Call::delete(format!("/tags/{weeds}")),
    ] {
        check(&s, call, Expect::error(404, "not_found", None));
    }
    assert_eq!(deletions(&s), records(&[("tag", &weeds)]));
    let now = get_note(&s, &id(&a));
    assert_eq!(now["tag_ids"], json!([garden]));
    assert_eq!(now["body_text"], "#garden");
    assert_eq!(now["updated_at"], now_string(&s));
}

/// "Tags" merge: a missing, null, unknown, deleted or malformed `into_id`,
/// or the tag's own id, is 422 on `into_id`, and nothing changes; an
/// unknown tag to merge is 404.
#[test]
fn merge_refuses_a_bad_into_id() {
    let s = Core::start();
    note_with_body(&s, "<p>#weeds #garden #gone</p>");
    let weeds = tag_id(&s, "weeds");
    let garden = tag_id(&s, "garden");
    let gone = tag_id(&s, "gone");
    s.delete(&format!("/tags/{gone}")).expect(204);
    let before = s.org.raw_export().unwrap();
    for body in [
        json!({}),
        json!({"into_id": null}),
        json!({"into_id": UNKNOWN}),
        json!({"into_id": gone}),
        json!({"into_id": weeds}),
        json!({"into_id": "nope"}),
        json!({"into_id": 5}),
    ] {
        check(&s, merge(&weeds, body), Expect::invalid("into_id"));
    }
    for tag in [UNKNOWN, "nope"] {
        check(
            &s,
            merge(tag, json!({ "into_id": garden })),
            Expect::error(404, "not_found", None),
        );
    }
    assert_eq!(s.org.raw_export().unwrap(), before, "nothing changed");
}

/// "Tags" DELETE: 204 with a `tag` deletion record; the tag is gone and
/// out of every note, whose span becomes its name as plain text; a new
/// `#name` later makes a new tag.
#[test]
fn delete_removes_the_tag_from_every_note() {
    let s = Core::start();
    let a = note_with_body(&s, "<p>Dig #garden</p>");
    let b = note_with_body(&s, "<p>#garden #roses</p>");
    let garden = tag_id(&s, "garden");
    let roses = tag_id(&s, "roses");
    s.advance(10);
    s.delete(&format!("/tags/{garden}")).expect(204);
    for call in [
        Call::get(format!("/tags/{garden}")),
        Call::delete(format!("/tags/{garden}")),
        rename(&garden, json!("again")),
    ] {
        check(&s, call, Expect::error(404, "not_found", None));
    }
    assert_eq!(deletions(&s), records(&[("tag", &garden)]));
    let now_a = get_note(&s, &id(&a));
    assert_eq!(now_a["tag_ids"], json!([]));
    assert_eq!(now_a["body_text"], "Dig garden");
    assert_eq!(now_a["updated_at"], now_string(&s));
    let now_b = get_note(&s, &id(&b));
    assert_eq!(now_b["tag_ids"], json!([roses]));
    assert_eq!(now_b["body_text"], "garden #roses");
    assert!(ids(&s, &format!("/notes?tag_id={garden}")).is_empty());
    let names: Vec<String> = tags(&s).iter().map(|t| text(t, "name")).collect();
    assert_eq!(names, ["roses"]);
    note_with_body(&s, "<p>#garden again</p>");
    assert_ne!(tag_id(&s, "garden"), garden, "a new tag");
}

/// "Tags" `order`: `name` (the default, ignoring case), `id` and
/// `updated_at`, each in both directions, ties by id (reversed with
/// `desc`), walked a page of one at a time; another order is 400.
#[test]
fn the_listing_takes_every_order_and_direction() {
    let s = Core::start();
    note_with_body(&s, "<p>#banana</p>");
    s.advance(1);
    note_with_body(&s, "<p>#Apple #cherry</p>");
    s.advance(1);
    note_with_body(&s, "<p>#Date #elder</p>");
    let banana = tag_id(&s, "banana");
    let date = tag_id(&s, "Date");
    // An updated_at tie.
    s.advance(10);
    patch_tag(&s, &date, json!("date-palm")).expect(200);
    patch_tag(&s, &banana, json!("Banana")).expect(200);
    let records = all(&s, "/tags?order=id");
    assert_eq!(records.len(), 5);
    type Key = fn(&Value) -> String;
    let orders: [(&str, Key); 3] = [
        ("name", |t| text(t, "name").to_lowercase()),
        ("id", id),
        ("updated_at", |t| text(t, "updated_at")),
    ];
    for (order, key) in orders {
        let asc = sorted_by(&records, key);
        let desc = reversed(&asc);
        assert_listed(&s, &format!("/tags?order={order}"), &asc);
        assert_listed(&s, &format!("/tags?order={order}&direction=asc"), &asc);
        assert_listed(&s, &format!("/tags?order={order}&direction=desc"), &desc);
        if order == "name" {
            assert_listed(&s, "/tags", &asc);
        }
    }
    let names: Vec<String> = tags(&s).iter().map(|t| text(t, "name")).collect();
    assert_eq!(names, ["Apple", "Banana", "cherry", "date-palm", "elder"]);
    for (query, detail) in [
        ("order=created_at", "order"),
        ("order=position", "order"),
        ("direction=sideways", "direction"),
        ("count=2", "count"),
        ("limit=0", "limit"),
    ] {
        check(
            &s,
            Call::get(format!("/tags?{query}")),
            Expect::bad_param(Some(detail)),
        );
    }
}
