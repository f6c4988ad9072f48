//! Document 2's "Category" and "Categories" with DECISIONS-notes.md
//! "Categories": names, colours (the first one no other category uses)
//! and icons, `/category_choices`, positions (renumbered on a move, gaps
//! after a delete), delete with `if_unused`, `/category_note_counts`, and
//! every order of the listing.

use serde_json::{Value, json};

use super::{
    assert_listed, category, new_note, post_category, restore, reversed, set_note, sorted_by, text,
};
use crate::common::fixtures::{START, UNKNOWN, all, deletions, id, keys, now_string, records};
use crate::common::{Call, Core, Expect, Reply, check};

/// The keys of a Category (DECISIONS "Category JSON"), sorted.
const CATEGORY_KEYS: &[&str] = &[
    "color",
    "created_at",
    "icon",
    "id",
    "name",
    "position",
    "updated_at",
];

/// `PATCH /categories/{id}` with `{category: fields}`.
fn patch_category(s: &Core, category: &str, fields: Value) -> Reply {
    s.patch(
        &format!("/categories/{category}"),
        json!({ "category": fields }),
    )
}

/// `GET /categories/{id}`, which must be 200.
#[track_caller]
fn get_category(s: &Core, category: &str) -> Value {
    s.get(&format!("/categories/{category}"))
        .expect(200)
        .data()
        .clone()
}

/// `POST /categories` with `{category: fields}`, as a table's case.
fn create(fields: Value) -> Call {
    Call::post("/categories", json!({ "category": fields }))
}

/// `PATCH /categories/{id}` with `{category: fields}`, as a table's case.
fn change(category: &str, fields: Value) -> Call {
    Call::patch(
        format!("/categories/{category}"),
        json!({ "category": fields }),
    )
}

/// Every category, in the default order.
#[track_caller]
fn categories(s: &Core) -> Vec<Value> {
    all(s, "/categories")
}

/// (name, position) of every category, in the default order.
#[track_caller]
fn places(s: &Core) -> Vec<(String, i64)> {
    categories(s)
        .iter()
        .map(|c| (text(c, "name"), c["position"].as_i64().unwrap()))
        .collect()
}

fn pairs(items: &[(&str, i64)]) -> Vec<(String, i64)> {
    items.iter().map(|(n, p)| ((*n).to_owned(), *p)).collect()
}

/// `/category_choices`.
#[track_caller]
fn choices(s: &Core) -> Value {
    s.get("/category_choices").expect(200).data().clone()
}

/// The colour keys of the choices, in order.
#[track_caller]
fn colours(s: &Core) -> Vec<String> {
    choices(s)["colors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| text(c, "key"))
        .collect()
}

/// The icons of the choices, in order.
#[track_caller]
fn icons(s: &Core) -> Vec<String> {
    choices(s)["icons"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i.as_str().unwrap().to_owned())
        .collect()
}

/// DECISIONS "Categories": `{data: {colors: [{key, label}], icons}}`, the
/// vocabulary's colours and picker icons.
#[test]
fn category_choices_are_the_vocabularys_colours_and_icons() {
    let s = Core::start();
    let choices = choices(&s);
    assert_eq!(keys(&choices), ["colors", "icons"]);
    let vocabulary = s.get("/vocabulary").expect(200).data().clone();
    assert_eq!(choices["colors"], vocabulary["colors"]);
    assert_eq!(choices["icons"], vocabulary["picker_icons"]);
    for colour in choices["colors"].as_array().unwrap() {
        assert_eq!(keys(colour), ["key", "label"]);
    }
    assert!(choices["colors"].as_array().unwrap().len() >= 5);
    assert!(!choices["icons"].as_array().unwrap().is_empty());
}

/// "Category" and DECISIONS: every field; the name squished; a new
/// category goes last (the highest position + 1, gaps and all); a blank
/// colour takes the first colour no other category uses (a task list's
/// colour does not count); a blank icon is null.
#[test]
fn a_new_category_has_every_field_goes_last_and_takes_a_free_colour() {
    let s = Core::start();
    let colours = colours(&s);
    let icons = icons(&s);
    s.post("/task_lists", json!({"task_list": {"name": "List"}}))
        .expect(201);
    let first = post_category(&s, json!({"name": "  Big   Garden  "}))
        .expect(201)
        .data()
        .clone();
    assert_eq!(keys(&first), CATEGORY_KEYS);
    assert_eq!(text(&first, "id").len(), 26);
    assert_eq!(first["name"], "Big Garden");
    assert_eq!(first["color"], colours[0].as_str());
    assert_eq!(first["icon"], Value::Null);
    assert_eq!(first["position"], 1);
    assert_eq!(first["created_at"], START);
    assert_eq!(first["updated_at"], START);
    assert_eq!(get_category(&s, &id(&first)), first);

    let second = post_category(
        &s,
        json!({"name": "Home", "color": colours[2], "icon": icons[0]}),
    )
    .expect(201);
    assert_eq!(second.data()["color"], colours[2].as_str());
    assert_eq!(second.data()["icon"], icons[0].as_str());
    assert_eq!(second.data()["position"], 2);
    for (n, blank) in [json!(""), json!(null), json!("   ")]
        .into_iter()
        .enumerate()
    {
        let made = post_category(
            &s,
            json!({"name": format!("Blank {n}"), "color": blank, "icon": blank}),
        )
        .expect(201);
        let wanted = [&colours[1], &colours[3], &colours[4]][n];
        assert_eq!(made.data()["color"], wanted.as_str(), "{blank}");
        assert_eq!(made.data()["icon"], Value::Null, "{blank}");
        assert_eq!(made.data()["position"], n + 3, "{blank}");
    }
    post_category(&s, json!({"name": "ü".repeat(100)})).expect(201);
    // The first colour is free again; the positions keep their gap.
    s.delete(&format!("/categories/{}", id(&first))).expect(204);
    let again = post_category(&s, json!({"name": "Again"})).expect(201);
    assert_eq!(again.data()["color"], colours[0].as_str());
    assert_eq!(again.data()["position"], 7);
}

/// "Categories" and DECISIONS: every refusal of create is 422 on its
/// field, a body that is not an object 400, and nothing is made.
#[test]
fn create_refuses_bad_fields_and_makes_nothing() {
    let s = Core::start();
    category(&s, "Work");
    let cases = [
        (json!({}), "name"),
        (json!({"name": ""}), "name"),
        (json!({"name": "    "}), "name"),
        (json!({"name": null}), "name"),
        (json!({"name": 12}), "name"),
        (json!({"name": "n".repeat(101)}), "name"),
        (json!({"name": "ü".repeat(101)}), "name"),
        (json!({"name": "work"}), "name"),
        (json!({"name": "  WORK  "}), "name"),
        (json!({"name": "Clear\u{1b}[2J"}), "name"),
        (json!({"name": "x", "color": "chartreuse"}), "color"),
        (json!({"name": "x", "color": "Blue"}), "color"),
        (json!({"name": "x", "color": 3}), "color"),
        (json!({"name": "x", "icon": "no-such-icon"}), "icon"),
        (json!({"name": "x", "icon": true}), "icon"),
        (json!({"name": "x", "position": "first"}), "position"),
        (json!({"name": "x", "position": 1.5}), "position"),
        (
            json!({"name": "x", "position": 1, "color": "nope"}),
            "color",
        ),
    ];
    let before = s.org.raw_export().unwrap();
    for (fields, detail) in cases {
        check(&s, create(fields), Expect::invalid(detail));
    }
    check(
        &s,
        Call::post("/categories", json!({})),
        Expect::invalid("name"),
    );
    check(
        &s,
        Call::post("/categories", json!({"category": "Work"})),
        Expect::error(400, "invalid_json", None),
    );
    assert_eq!(s.org.raw_export().unwrap(), before, "nothing was made");
}

/// "Categories" and DECISIONS: every refusal of a change is 422 and
/// changes nothing; a category's own name in another case is fine; only
/// the fields sent change (PUT is PATCH); a change that changes nothing
/// keeps `updated_at`; an unknown or malformed id is 404.
#[test]
fn change_refuses_bad_fields_and_changes_nothing() {
    let s = Core::start();
    let icons = icons(&s);
    category(&s, "Work");
    let base = post_category(&s, json!({"name": "Base", "icon": icons[0]}))
        .expect(201)
        .data()
        .clone();
    let b = id(&base);
    s.advance(10);
    let cases = [
        (json!({"name": ""}), "name"),
        (json!({"name": "  "}), "name"),
        (json!({"name": null}), "name"),
        (json!({"name": "n".repeat(101)}), "name"),
        (json!({"name": "WORK"}), "name"),
        (json!({"color": "chartreuse"}), "color"),
        (json!({"icon": "nope"}), "icon"),
        (json!({"position": "1"}), "position"),
        (json!({"position": 1, "name": "work"}), "name"),
        (json!({"position": 1, "color": "nope"}), "color"),
    ];
    let before = s.org.raw_export().unwrap();
    for (fields, detail) in cases {
        check(&s, change(&b, fields), Expect::invalid(detail));
    }
    assert_eq!(s.org.raw_export().unwrap(), before, "nothing changed");

    let put = s
        .put(
            &format!("/categories/{b}"),
            json!({"category": {"name": "  BASE "}}),
        )
        .expect(200);
    assert_eq!(put.data()["name"], "BASE");
    assert_eq!(
        put.data()["icon"],
        icons[0].as_str(),
        "only the fields sent"
    );
    assert_eq!(put.data()["color"], base["color"]);
    assert_eq!(put.data()["updated_at"], now_string(&s));
    let cleared = patch_category(&s, &b, json!({"icon": null})).expect(200);
    assert_eq!(cleared.data()["icon"], Value::Null);
    s.advance(10);
    let same = patch_category(&s, &b, json!({"name": "BASE", "position": 2})).expect(200);
    assert_eq!(same.data(), cleared.data(), "nothing changed");

    for call in [
        change(UNKNOWN, json!({"name": "x"})),
        change("nope", json!({"name": "x"})),
        Call::get(format!("/categories/{UNKNOWN}")),
        Call::get("/categories/nope"),
        Call::delete(format!("/categories/{UNKNOWN}")),
        Call::delete("/categories/nope"),
    ] {
        check(&s, call, Expect::error(404, "not_found", None));
    }
}

/// "Categories" and DECISIONS: `position` on create or change places the
/// category at that rank (clamped to 1..n) and renumbers every category
/// 1..n; only those whose position changed get a new `updated_at`; a
/// failed move moves nothing.
#[test]
fn positions_renumber_and_only_moved_categories_get_a_new_updated_at() {
    let s = Core::start();
    for name in ["C1", "C2", "C3", "C4"] {
        category(&s, name);
    }
    s.advance(10);
    let before = categories(&s);
    let made = post_category(&s, json!({"name": "New", "position": 2})).expect(201);
    assert_eq!(made.data()["position"], 2);
    assert_eq!(
        places(&s),
        pairs(&[("C1", 1), ("New", 2), ("C2", 3), ("C3", 4), ("C4", 5)])
    );
    let now = categories(&s);
    assert_eq!(now[0], before[0], "C1 did not move");
    for c in &now[2..] {
        assert_eq!(c["updated_at"], now_string(&s), "{c}");
    }
    for (position, expected) in [(0, 1), (-7, 1), (99, 8)] {
        let made = post_category(
            &s,
            json!({"name": format!("P{position}"), "position": position}),
        )
        .expect(201);
        assert_eq!(made.data()["position"], expected, "{position}");
    }
    assert_eq!(
        places(&s),
        pairs(&[
            ("P-7", 1),
            ("P0", 2),
            ("C1", 3),
            ("New", 4),
            ("C2", 5),
            ("C3", 6),
            ("C4", 7),
            ("P99", 8),
        ])
    );

    s.advance(10);
    let before = categories(&s);
    let c4 = id(&before[6]);
    let moved = patch_category(&s, &c4, json!({"position": 3})).expect(200);
    assert_eq!(moved.data()["position"], 3);
    assert_eq!(moved.data()["updated_at"], now_string(&s));
    let after = categories(&s);
    assert_eq!(after[..2], before[..2], "above it: untouched");
    for c in &after[3..7] {
        assert_eq!(c["updated_at"], now_string(&s), "{c}");
    }
    assert_eq!(after[7], before[7], "below it: untouched");
    assert_eq!(
        patch_category(&s, &c4, json!({"position": -1}))
            .expect(200)
            .data()["position"],
        1
    );
    assert_eq!(
        patch_category(&s, &c4, json!({"position": 1000}))
            .expect(200)
            .data()["position"],
        8
    );
    let positions: Vec<i64> = categories(&s)
        .iter()
        .map(|c| c["position"].as_i64().unwrap())
        .collect();
    assert_eq!(positions, (1..=8).collect::<Vec<_>>());

    let before = s.org.raw_export().unwrap();
    check(
        &s,
        create(json!({"name": "Fails", "position": 1, "icon": "nope"})),
        Expect::invalid("icon"),
    );
    check(
        &s,
        change(&c4, json!({"position": 1, "name": "c1"})),
        Expect::invalid("name"),
    );
    assert_eq!(s.org.raw_export().unwrap(), before, "nothing moved");
}

/// "Categories": DELETE is permanent with a `category` deletion record;
/// the others keep their positions (gaps) and `updated_at`; the name is
/// free; a later move renumbers 1..n, closing the gaps.
#[test]
fn delete_leaves_gaps_and_a_deletion_record() {
    let s = Core::start();
    let a = category(&s, "A");
    let b = category(&s, "B");
    category(&s, "C");
    category(&s, "D");
    s.advance(5);
    let before = categories(&s);
    s.delete(&format!("/categories/{b}")).expect(204);
    for call in [
        Call::get(format!("/categories/{b}")),
        Call::delete(format!("/categories/{b}")),
        change(&b, json!({"name": "x"})),
    ] {
        check(&s, call, Expect::error(404, "not_found", None));
    }
    assert_eq!(places(&s), pairs(&[("A", 1), ("C", 3), ("D", 4)]));
    let after = categories(&s);
    assert_eq!(
        after,
        [before[0].clone(), before[2].clone(), before[3].clone()]
    );
    assert_eq!(deletions(&s), records(&[("category", &b)]));
    let again = category(&s, "b");
    assert_eq!(get_category(&s, &again)["position"], 5);

    // Another delete, then a create with a position: every category renumbered.
    s.advance(5);
    s.delete(&format!("/categories/{a}")).expect(204);
    assert_eq!(places(&s), pairs(&[("C", 3), ("D", 4), ("b", 5)]));
    post_category(&s, json!({"name": "E", "position": 99})).expect(201);
    assert_eq!(places(&s), pairs(&[("C", 1), ("D", 2), ("b", 3), ("E", 4)]));
    for c in categories(&s) {
        assert_eq!(c["updated_at"], now_string(&s), "{c}");
    }
}

/// "Categories" and DECISIONS: with `if_unused=true` a category that a
/// note has (a live one, or a deleted one within its restore window) is
/// 409 `in_use` and nothing changes; once no note has it, or with
/// `if_unused=false`, it is deleted (the notes uncategorised).
#[test]
fn if_unused_refuses_a_category_a_note_has() {
    let s = Core::start();
    let used = category(&s, "Used");
    let spare = category(&s, "Spare");
    let past = category(&s, "Past");
    let live = id(&new_note(&s, json!({"title": "Live", "category_id": used})));
    let gone = id(&new_note(&s, json!({"title": "Gone", "category_id": past})));
    s.delete(&format!("/notes/{gone}")).expect(204);
    let before = s.org.raw_export().unwrap();
    for c in [&used, &past] {
        check(
            &s,
            Call::delete(format!("/categories/{c}?if_unused=true")),
            Expect::error(409, "in_use", None),
        );
    }
    assert_eq!(s.org.raw_export().unwrap(), before, "nothing changed");
    s.delete(&format!("/categories/{spare}?if_unused=true"))
        .expect(204);
    s.delete(&format!("/categories/{spare}?if_unused=true"))
        .expect_error(404, "not_found", None);

    // Restored, the note has its category again.
    s.advance(5);
    restore(&s, "notes", &gone).expect(200);
    check(
        &s,
        Call::delete(format!("/categories/{past}?if_unused=true")),
        Expect::error(409, "in_use", None),
    );
    s.delete(&format!("/notes/{gone}")).expect(204);
    s.advance(20);
    s.delete(&format!("/categories/{past}?if_unused=true"))
        .expect(204);
    s.delete(&format!("/categories/{used}?if_unused=false"))
        .expect(204);
    let note = s.get(&format!("/notes/{live}")).expect(200);
    assert_eq!(note.data()["category_id"], Value::Null);
    assert_eq!(
        deletions(&s),
        records(&[
            ("category", &used),
            ("category", &spare),
            ("category", &past),
            ("note", &gone),
        ])
    );
}

/// "Categories": `if_unused` other than `true` or `false` is 400 on
/// `if_unused`, and nothing is deleted.
#[test]
fn if_unused_takes_only_true_or_false() {
    let s = Core::start();
    let spare = category(&s, "Spare");
    let before = s.org.raw_export().unwrap();
    for bad in ["yes", "1", "maybe"] {
        check(
            &s,
            Call::delete(format!("/categories/{spare}?if_unused={bad}")),
            Expect::bad_param(Some("if_unused")),
        );
    }
    assert_eq!(s.org.raw_export().unwrap(), before);
    get_category(&s, &spare);
}

/// "Categories" `/category_note_counts`: `{category_id, note_count}` per
/// category with live notes, by `category_id`; deleted notes are not
/// counted; categories with none are left out.
#[test]
fn category_note_counts_count_live_notes() {
    let s = Core::start();
    let a = category(&s, "A");
    let b = category(&s, "B");
    let c = category(&s, "C");
    assert_eq!(
        s.get("/category_note_counts").expect(200).data(),
        &json!([])
    );
    let in_a = id(&new_note(&s, json!({"title": "a1", "category_id": a})));
    new_note(&s, json!({"title": "a2", "category_id": a}));
    let deleted = id(&new_note(&s, json!({"title": "a3", "category_id": a})));
    s.delete(&format!("/notes/{deleted}")).expect(204);
    let in_b = id(&new_note(&s, json!({"title": "b1", "category_id": b})));
    new_note(&s, json!({"title": "none"}));
    let counts = |s: &Core| s.get("/category_note_counts").expect(200).data().clone();
    assert_eq!(
        counts(&s),
        json!([
            {"category_id": a, "note_count": 2},
            {"category_id": b, "note_count": 1},
        ])
    );
    set_note(&s, &in_a, json!({"category_id": c}));
    s.delete(&format!("/notes/{in_b}")).expect(204);
    assert_eq!(
        counts(&s),
        json!([
            {"category_id": a, "note_count": 1},
            {"category_id": c, "note_count": 1},
        ])
    );
    restore(&s, "notes", &in_b).expect(200);
    assert_eq!(counts(&s).as_array().unwrap().len(), 3);
}

/// "Categories" `order`: `position` (the default), `id`, `name` and
/// `updated_at`, each in both directions, ties by id (reversed with
/// `desc`), walked a page of one at a time; another order is 400.
#[test]
fn the_listing_takes_every_order_and_direction() {
    let s = Core::start();
    let bravo = category(&s, "Bravo");
    s.advance(1);
    category(&s, "Alpha");
    category(&s, "Charlie");
    s.advance(1);
    let delta = category(&s, "Delta");
    category(&s, "Echo");
    // An updated_at tie.
    s.advance(10);
    patch_category(&s, &delta, json!({"name": "Delta Two"})).expect(200);
    patch_category(&s, &bravo, json!({"name": "Bravo Two"})).expect(200);
    let records = all(&s, "/categories?order=id");
    assert_eq!(records.len(), 5);
    type Key = fn(&Value) -> String;
    let orders: [(&str, Key); 4] = [
        ("position", |c| {
            format!("{:08}", c["position"].as_i64().unwrap())
        }),
        ("id", id),
        ("name", |c| text(c, "name").to_lowercase()),
        ("updated_at", |c| text(c, "updated_at")),
    ];
    for (order, key) in orders {
        let asc = sorted_by(&records, key);
        let desc = reversed(&asc);
        assert_listed(&s, &format!("/categories?order={order}"), &asc);
        assert_listed(
            &s,
            &format!("/categories?order={order}&direction=asc"),
            &asc,
        );
        assert_listed(
            &s,
            &format!("/categories?order={order}&direction=desc"),
            &desc,
        );
        if order == "position" {
            assert_listed(&s, "/categories", &asc);
        }
    }
    for (query, detail) in [
        ("order=created_at", "order"),
        ("order=color", "order"),
        ("direction=sideways", "direction"),
        ("limit=0", "limit"),
        ("count=2", "count"),
        ("cursor=forged", "cursor"),
    ] {
        check(
            &s,
            Call::get(format!("/categories?{query}")),
            Expect::bad_param(Some(detail)),
        );
    }
}
