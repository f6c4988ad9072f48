//! Document 3's Folder and FolderCount, DESIGN.md's folder endpoints and
//! DECISIONS-docs.md "Folders": nesting, names, colours and icons, cycles,
//! delete, the listing and `/folder_counts`.

use serde_json::{Value, json};

use super::{
    FOLDER_KEYS, assert_listed, document_with, folder, new_folder, pdf, post_folder, reversed,
    set_document, text, upload_bytes,
};
use crate::common::fixtures::{UNKNOWN, all, deletions, id, keys, now_string, records};
use crate::common::{Call, Core, Expect, check};

/// `PATCH /folders/{id}` with `{folder: fields}`, as a table's case.
fn change(folder: &str, fields: Value) -> Call {
    Call::patch(format!("/folders/{folder}"), json!({ "folder": fields }))
}

/// The vocabulary's colour keys, in order.
fn colors(s: &Core) -> Vec<String> {
    s.get("/vocabulary").expect(200).data()["colors"]
        .as_array()
        .expect("colors")
        .iter()
        .map(|c| text(c, "key"))
        .collect()
}

/// The vocabulary's picker icons.
fn icons(s: &Core) -> Vec<String> {
    s.get("/vocabulary").expect(200).data()["picker_icons"]
        .as_array()
        .expect("picker_icons")
        .iter()
        .map(|i| i.as_str().unwrap().to_owned())
        .collect()
}

/// A folder's fields; nested folders; a colour, when none is sent, is the
/// first no sibling uses; an icon is a picker icon or null.
#[test]
fn folders_nest_and_take_a_colour_and_an_icon() {
    let s = Core::start();
    let colors = colors(&s);
    let icons = icons(&s);
    let top = new_folder(&s, json!({"name": "  Home   papers "}));
    assert_eq!(keys(&top), FOLDER_KEYS, "{top}");
    assert_eq!(top["name"], "Home papers");
    assert_eq!(top["parent_id"], Value::Null);
    assert_eq!(top["color"], json!(colors[0]));
    assert_eq!(top["icon"], Value::Null);
    assert_eq!(top["created_at"], now_string(&s));
    assert_eq!(top["updated_at"], now_string(&s));
    let t = id(&top);
    assert_eq!(s.get(&format!("/folders/{t}")).expect(200).data(), &top);

    // A direction override or zero-width space is left out (issue 22).
    let tricky = new_folder(&s, json!({"name": "Tax\u{202e}fdp.exe\u{200b}"}));
    assert_eq!(tricky["name"], "Taxfdp.exe");
    s.delete(&format!("/folders/{}", id(&tricky))).expect(204);

    let second = new_folder(&s, json!({"name": "Work", "color": ""}));
    assert_eq!(second["color"], json!(colors[1]), "the first unused");
    let child = new_folder(
        &s,
        json!({"name": "Bills", "parent_id": t, "color": colors[2], "icon": icons[0]}),
    );
    assert_eq!(child["parent_id"], json!(t));
    assert_eq!(child["color"], json!(colors[2]));
    assert_eq!(child["icon"], json!(icons[0]));
    let c = id(&child);
    let grandchild = new_folder(&s, json!({"name": "2026", "parent_id": c}));
    assert_eq!(grandchild["color"], json!(colors[0]), "no sibling in there");

    s.advance(5);
    let changed = check(
        &s,
        change(&c, json!({"icon": null, "color": colors[3]})),
        Expect::status(200),
    );
    assert_eq!(changed.data()["icon"], Value::Null);
    assert_eq!(changed.data()["color"], json!(colors[3]));
    assert_eq!(changed.data()["updated_at"], now_string(&s));

    for (call, expected) in [
        (
            Call::post(
                "/folders",
                json!({"folder": {"name": "X", "color": "plaid"}}),
            ),
            Expect::invalid("color"),
        ),
        (
            Call::post(
                "/folders",
                json!({"folder": {"name": "X", "icon": "no-such-icon-anywhere"}}),
            ),
            Expect::invalid("icon"),
        ),
        (
            Call::post(
                "/folders",
                json!({"folder": {"name": "X", "parent_id": UNKNOWN}}),
            ),
            Expect::invalid("parent_id"),
        ),
        (
            Call::post(
                "/folders",
                json!({"folder": {"name": "X", "parent_id": "nope"}}),
            ),
            Expect::invalid("parent_id"),
        ),
    ] {
        check(&s, call, expected);
    }
}

/// Names: squished, required, at most 100 characters, unique among
/// siblings ignoring case (another parent may have it).
#[test]
fn names_are_unique_among_siblings_ignoring_case() {
    let s = Core::start();
    let a = folder(&s, "Taxes", None);
    let b = folder(&s, "Bills", None);
    folder(&s, "taxes", Some(&b));
    folder(&s, "TAXES", Some(&a));
    let x100 = "x".repeat(100);
    new_folder(&s, json!({"name": x100}));
    for (call, expected) in [
        (
            Call::post("/folders", json!({"folder": {}})),
            Expect::invalid("name"),
        ),
        (
            Call::post("/folders", json!({"folder": {"name": "   "}})),
            Expect::invalid("name"),
        ),
        (
            Call::post("/folders", json!({"folder": {"name": "x".repeat(101)}})),
            Expect::invalid("name"),
        ),
        (
            Call::post("/folders", json!({"folder": {"name": " tAxEs "}})),
            Expect::invalid("name"),
        ),
        (
            Call::post(
                "/folders",
                json!({"folder": {"name": "Taxes", "parent_id": b}}),
            ),
            Expect::invalid("name"),
        ),
        (
            change(&b, json!({"name": "TAXES"})),
            Expect::invalid("name"),
        ),
        (change(&b, json!({"name": ""})), Expect::invalid("name")),
    ] {
        check(&s, call, expected);
    }
    // Renaming to itself in another case is fine.
    let renamed = check(
        &s,
        change(&a, json!({"name": "TAXES"})),
        Expect::status(200),
    );
    assert_eq!(renamed.data()["name"], "TAXES");
}

/// A folder cannot go into itself or any of its descendants; it can move
/// elsewhere, or to the top level.
#[test]
fn a_folder_cannot_go_inside_itself() {
    let s = Core::start();
    let a = folder(&s, "A", None);
    let b = folder(&s, "B", Some(&a));
    let c = folder(&s, "C", Some(&b));
    let other = folder(&s, "Other", None);
    for target in [&a, &b, &c] {
        check(
            &s,
            change(&a, json!({ "parent_id": target })),
            Expect::invalid("parent_id"),
        );
    }
    check(
        &s,
        change(&b, json!({ "parent_id": c })),
        Expect::invalid("parent_id"),
    );
    let moved = check(
        &s,
        change(&b, json!({ "parent_id": other })),
        Expect::status(200),
    );
    assert_eq!(moved.data()["parent_id"], json!(other));
    let top = check(
        &s,
        change(&b, json!({ "parent_id": null })),
        Expect::status(200),
    );
    assert_eq!(top.data()["parent_id"], Value::Null);
    check(
        &s,
        change(&a, json!({ "parent_id": c })),
        Expect::status(200),
    );
}

/// A folder with documents or subfolders is 409 `folder_not_empty`; an
/// empty one is deleted for good with a `folder` deletion record.
#[test]
fn only_an_empty_folder_is_deleted() {
    let s = Core::start();
    let parent = folder(&s, "Parent", None);
    let child = folder(&s, "Child", Some(&parent));
    let doc = id(&document_with(&s, "Deed", json!({"folder_id": child})));
    for f in [&parent, &child] {
        s.delete(&format!("/folders/{f}"))
            .expect_error(409, "folder_not_empty", None);
    }
    set_document(&s, &doc, json!({"folder_id": null}));
    s.delete(&format!("/folders/{parent}"))
        .expect_error(409, "folder_not_empty", None);
    s.delete(&format!("/folders/{child}")).expect(204);
    s.delete(&format!("/folders/{parent}")).expect(204);
    assert_eq!(
        deletions(&s),
        records(&[("folder", &child), ("folder", &parent)])
    );
    s.get(&format!("/folders/{child}"))
        .expect_error(404, "not_found", None);
    s.delete(&format!("/folders/{child}"))
        .expect_error(404, "not_found", None);
    assert!(all(&s, "/folders").is_empty());
}

/// The listing: `parent_id` (and `none` for the top level), orders name
/// (ignoring case, the default), id, created_at and updated_at both ways,
/// a page of one at a time.
#[test]
fn the_listing_filters_by_parent_and_takes_every_order() {
    let s = Core::start();
    let mut top = Vec::new();
    for name in ["beta", "Alpha", "gamma"] {
        top.push(folder(&s, name, None));
        s.advance(1);
    }
    let inner = folder(&s, "Inner", Some(&top[0]));
    s.advance(1);
    post_folder(&s, json!({"name": "Delta"})).expect(201);
    let delta = all(&s, "/folders?parent_id=none")
        .iter()
        .find(|f| f["name"] == "Delta")
        .map(id)
        .unwrap();
    s.advance(1);
    check(
        &s,
        change(&top[0], json!({"name": "Beta"})),
        Expect::status(200),
    );
    let by_name = vec![
        top[1].clone(),
        top[0].clone(),
        delta.clone(),
        top[2].clone(),
    ];
    let by_id = vec![
        top[0].clone(),
        top[1].clone(),
        top[2].clone(),
        delta.clone(),
    ];
    let by_updated = vec![
        top[1].clone(),
        top[2].clone(),
        delta.clone(),
        top[0].clone(),
    ];
    for (query, wanted) in [
        ("parent_id=none", by_name.clone()),
        ("parent_id=none&order=name", by_name),
        ("parent_id=none&order=id", by_id.clone()),
        ("parent_id=none&order=created_at", by_id),
        ("parent_id=none&order=updated_at", by_updated),
    ] {
        assert_listed(&s, &format!("/folders?{query}"), &wanted);
        assert_listed(
            &s,
            &format!("/folders?{query}&direction=desc"),
            &reversed(&wanted),
        );
    }
    assert_listed(
        &s,
        &format!("/folders?parent_id={}", top[0]),
        std::slice::from_ref(&inner),
    );
    assert_eq!(all(&s, "/folders").len(), 5);
    for bad in ["order=size", "parent_id=nope"] {
        check(
            &s,
            Call::get(format!("/folders?{bad}")),
            Expect::bad_param(None),
        );
    }
}

/// `/folder_counts`: a row per folder with live documents (not counting
/// subfolders'), and one with `folder_id` null for documents in no folder;
/// `byte_size` sums the PDFs' sizes.
#[test]
fn folder_counts_count_live_documents_and_bytes() {
    let s = Core::start();
    let rows = |s: &Core| -> Vec<(Value, u64, u64)> {
        let mut rows: Vec<(Value, u64, u64)> = s
            .get("/folder_counts")
            .expect(200)
            .data()
            .as_array()
            .expect("rows")
            .iter()
            .map(|r| {
                (
                    r["folder_id"].clone(),
                    r["document_count"].as_u64().unwrap(),
                    r["byte_size"].as_u64().unwrap(),
                )
            })
            .collect();
        rows.sort_by_key(|r| r.0.as_str().unwrap_or_default().to_owned());
        rows
    };
    assert!(rows(&s).is_empty());
    let a = folder(&s, "A", None);
    let inner = folder(&s, "Inner", Some(&a));
    folder(&s, "Empty", None);
    let size = |name: &str, folder: Option<&str>| -> (String, u64) {
        let bytes = pdf(name);
        let n = bytes.len() as u64;
        let signed = upload_bytes(&s, &format!("{name}.pdf"), bytes);
        let doc = s
            .post(
                "/documents",
                json!({"document": {"upload": signed, "folder_id": folder}}),
            )
            .expect(201);
        (id(doc.data()), n)
    };
    let (_, a1) = size("one", Some(&a));
    let (_, a2) = size("second one", Some(&a));
    let (deleted, _) = size("deleted", Some(&a));
    let (_, i1) = size("inner", Some(&inner));
    let (_, loose) = size("loose", None);
    s.delete(&format!("/documents/{deleted}")).expect(204);
    let mut wanted = vec![
        (Value::Null, 1, loose),
        (json!(a), 2, a1 + a2),
        (json!(inner), 1, i1),
    ];
    wanted.sort_by_key(|r| r.0.as_str().unwrap_or_default().to_owned());
    assert_eq!(rows(&s), wanted);
}
