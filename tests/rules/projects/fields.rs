//! Document 2, "Project", "Project status", "Delete and restore" and
//! "Projects", with the team's decisions (DECISIONS-projects.md): the
//! field rules of create and change, the listing (every order and
//! direction, keyset pages, `count`, the `status`, `person_id` and
//! `updated_since` filters), delete with the project's members, events and
//! tasks, restoration within 20 seconds (renamed `Name (2)` when taken),
//! and tasks homed in a project.

use serde_json::{Value, json};

use super::{
    add_member, get_project, new_project, patch_project, post_project, project, walk_pages,
};
use crate::common::fixtures::{
    START, UNKNOWN, all, deletions, get_task, id, ids, keys, new_list, new_task, now_string,
    patch_task, person, records, titles, with_updated_at,
};
use crate::common::{Call, Core, Expect, Reply, check, send};

/// `POST /projects/{id}/restoration`.
fn restore(s: &Core, project: &str) -> Reply {
    send(s.req("POST", &format!("/projects/{project}/restoration")))
}

/// `POST /projects` with `{project: fields}`, as a table's case.
fn create(fields: Value) -> Call {
    Call::post("/projects", json!({ "project": fields }))
}

/// `PATCH /projects/{id}` with `{project: fields}`, as a table's case.
fn change(project: &str, fields: Value) -> Call {
    Call::patch(format!("/projects/{project}"), json!({ "project": fields }))
}

/// The names of a listing of projects, in order.
#[track_caller]
fn names(s: &Core, path: &str) -> Vec<String> {
    all(s, path)
        .iter()
        .map(|p| p["name"].as_str().unwrap().to_owned())
        .collect()
}

/// Pages through `path` one item at a time with `count=true`: every page
/// holds one item, says `limit` 1 and the whole count, and only the last
/// has no `next_cursor`. The ids, in order.
#[track_caller]
fn ids_one_by_one(s: &Core, path: &str) -> Vec<String> {
    let total = all(s, path).len();
    let mut ids = Vec::new();
    walk_pages(s, path, "limit=1&count=true", |url, page| {
        let items = page.data().as_array().expect("a list");
        assert_eq!(items.len(), 1, "{url}: {}", page.body);
        assert_eq!(page.body["meta"]["limit"], 1, "{url}");
        assert_eq!(page.body["meta"]["total_count"], total, "{url}");
        ids.push(id(&items[0]));
        if page.body["meta"]["next_cursor"].is_string() {
            assert!(ids.len() < total, "{url}: a cursor after the last item");
        } else {
            assert_eq!(ids.len(), total, "{url}: stopped early");
        }
    });
    ids
}

/// What a listing order sorts a record by (ties by id).
type SortKey = fn(&Value) -> String;

/// The keys of a Project (DECISIONS, "Project JSON").
const PROJECT_KEYS: &[&str] = &[
    "created_at",
    "deadline",
    "description_html",
    "description_text",
    "external_reference",
    "external_url",
    "id",
    "members",
    "my_role",
    "name",
    "start_date",
    "status",
    "status_changed_at",
    "updated_at",
];

// ---------------------------------------------------------------- fields

/// "Project": every field is there; a new project is `active` with
/// `status_changed_at` its creation; the optional fields are null and
/// `members` empty; every status can be sent; null status is `active`.
#[test]
fn a_new_project_has_every_field_and_is_active_unless_sent() {
    let s = Core::start();
    let made = new_project(&s, json!({"name": "Launch"}));
    assert_eq!(keys(&made), PROJECT_KEYS);
    assert_eq!(made["id"].as_str().unwrap().len(), 26);
    assert_eq!(made["name"], "Launch");
    assert_eq!(made["status"], "active");
    assert_eq!(made["status_changed_at"], START);
    assert_eq!(made["created_at"], START);
    assert_eq!(made["updated_at"], START);
    for field in [
        "start_date",
        "deadline",
        "my_role",
        "external_reference",
        "external_url",
        "description_html",
    ] {
        assert_eq!(made[field], Value::Null, "{field}");
    }
    assert_eq!(made["description_text"], "");
    assert_eq!(made["members"], json!([]));
    assert_eq!(get_project(&s, &id(&made)), made);

    let full = new_project(
        &s,
        json!({
            "name": "Full",
            "status": "planned",
            "start_date": "2026-03-01",
            "deadline": "2026-04-30",
            "my_role": "Lead",
            "external_reference": "PRJ-7",
            "external_url": "https://example.com/prj/7",
            "description_html": "<p>The plan</p>",
        }),
    );
    assert_eq!(full["status"], "planned");
    assert_eq!(full["status_changed_at"], START);
    assert_eq!(full["start_date"], "2026-03-01");
    assert_eq!(full["deadline"], "2026-04-30");
    assert_eq!(full["my_role"], "Lead");
    assert_eq!(full["external_reference"], "PRJ-7");
    assert_eq!(full["external_url"], "https://example.com/prj/7");
    assert!(
        full["description_html"]
            .as_str()
            .unwrap()
            .contains("The plan"),
        "{full}"
    );
    assert_eq!(full["description_text"], "The plan");
    assert_eq!(get_project(&s, &id(&full)), full);

    // The deadline may be the start date.
    let same_day = new_project(
        &s,
        json!({"name": "One day", "start_date": "2026-03-10", "deadline": "2026-03-10"}),
    );
    assert_eq!(same_day["deadline"], "2026-03-10");
    assert_eq!(
        new_project(&s, json!({"name": "Null status", "status": null}))["status"],
        "active"
    );
    for status in ["planned", "active", "on_hold", "done", "cancelled"] {
        let made = new_project(
            &s,
            json!({"name": format!("Status {status}"), "status": status}),
        );
        assert_eq!(made["status"], status);
        assert_eq!(made["status_changed_at"], made["created_at"], "{status}");
    }
}

/// "Project" and rule 1: every field's 400 and 422 on create, and a
/// refused create makes nothing.
#[test]
fn create_refuses_bad_fields_and_makes_nothing() {
    let s = Core::start();
    project(&s, "Work");
    let long_url = format!("example.com/{}", "a".repeat(2029));
    let big = format!("<p>{}</p>", "a".repeat(1_000_000 - 7));
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
        (json!({"name": "x", "status": "paused"}), "status"),
        (json!({"name": "x", "status": "Active"}), "status"),
        (json!({"name": "x", "status": 3}), "status"),
        (json!({"name": "x", "start_date": "soon"}), "start_date"),
        (
            json!({"name": "x", "start_date": "2026-02-30"}),
            "start_date",
        ),
        (
            json!({"name": "x", "start_date": "2026-13-01"}),
            "start_date",
        ),
        (
            json!({"name": "x", "start_date": "10/03/2026"}),
            "start_date",
        ),
        (json!({"name": "x", "start_date": 20260310}), "start_date"),
        (json!({"name": "x", "deadline": "tomorrow"}), "deadline"),
        (json!({"name": "x", "deadline": true}), "deadline"),
        (
            json!({"name": "x", "start_date": "2026-03-10", "deadline": "2026-03-09"}),
            "deadline",
        ),
        (json!({"name": "x", "my_role": "r".repeat(101)}), "my_role"),
        (json!({"name": "x", "my_role": 5}), "my_role"),
        (
            json!({"name": "x", "external_reference": "r".repeat(101)}),
            "external_reference",
        ),
        (
            json!({"name": "x", "external_reference": ["PRJ"]}),
            "external_reference",
        ),
        (
            json!({"name": "x", "external_url": "ftp://example.com/file"}),
            "external_url",
        ),
        (
            json!({"name": "x", "external_url": "javascript:alert(1)"}),
            "external_url",
        ),
        (
            json!({"name": "x", "external_url": "https://"}),
            "external_url",
        ),
        (
            json!({"name": "x", "external_url": "http://"}),
            "external_url",
        ),
        (
            json!({"name": "x", "external_url": long_url}),
            "external_url",
        ),
        (json!({"name": "x", "external_url": 7}), "external_url"),
        (
            json!({"name": "x", "description_html": "<p>a\u{0}b</p>"}),
            "description_html",
        ),
        (
            json!({"name": "x", "description_html": format!("{big}a")}),
            "description_html",
        ),
        (
            json!({"name": "x", "description_html": 7}),
            "description_html",
        ),
    ];
    for (fields, detail) in cases {
        check(&s, create(fields), Expect::invalid(detail));
    }
    // Every mistake of a request is named.
    let both = check(
        &s,
        create(json!({"name": "", "status": "paused", "external_url": "ftp://x.org/a"})),
        Expect::invalid("name"),
    );
    for key in ["status", "external_url"] {
        assert!(
            both.detail_keys().iter().any(|k| k == key),
            "{key}: {}",
            both.body
        );
    }
    check(
        &s,
        Call::post("/projects", json!({})),
        Expect::invalid("name"),
    );
    check(
        &s,
        Call::post("/projects", json!({"project": "Work"})),
        Expect::error(400, "invalid_json", None),
    );
    assert_eq!(names(&s, "/projects"), ["Work"], "nothing was made");
    assert!(deletions(&s).is_empty());
    // Exactly 1,000,000 bytes of description is accepted.
    assert_eq!(big.len(), 1_000_000);
    post_project(&s, json!({"name": "Big", "description_html": big})).expect(201);
}

/// "Project" `name`: squished, at most 100 characters (not bytes), unique
/// ignoring case; a project's own name in another case is fine.
#[test]
fn names_are_squished_and_unique_ignoring_case() {
    let s = Core::start();
    let made = new_project(&s, json!({"name": "  Big   Launch  "}));
    assert_eq!(made["name"], "Big Launch");
    new_project(&s, json!({"name": "n".repeat(100)}));
    new_project(&s, json!({"name": "ü".repeat(100)}));
    check(
        &s,
        create(json!({"name": "BIG LAUNCH"})),
        Expect::invalid("name"),
    );
    check(
        &s,
        create(json!({"name": "big  launch"})),
        Expect::invalid("name"),
    );
    let other = project(&s, "Other");
    check(
        &s,
        change(&other, json!({"name": "big launch"})),
        Expect::invalid("name"),
    );
    s.advance(5);
    let renamed = patch_project(&s, &id(&made), json!({"name": " BIG   launch "})).expect(200);
    assert_eq!(renamed.data()["name"], "BIG launch");
    assert_eq!(renamed.data()["updated_at"], now_string(&s));
}

/// "Project" `my_role` and `external_reference`: squished, blank or null
/// is null, at most 100 characters; on create and on change.
#[test]
fn my_role_and_external_reference_are_squished_and_blank_is_null() {
    let s = Core::start();
    let long = "r".repeat(100);
    let cases = [
        (json!("  Lead   dev "), json!("Lead dev")),
        (json!(""), Value::Null),
        (json!("   "), Value::Null),
        (Value::Null, Value::Null),
        (json!(long), json!(long)),
    ];
    for field in ["my_role", "external_reference"] {
        for (n, (sent, stored)) in cases.iter().enumerate() {
            let made = new_project(&s, json!({"name": format!("{field} {n}"), field: sent}));
            assert_eq!(&made[field], stored, "create {field}: {sent}");
            let p = id(&made);
            patch_project(&s, &p, json!({ field: "Something" })).expect(200);
            let changed = patch_project(&s, &p, json!({ field: sent })).expect(200);
            assert_eq!(&changed.data()[field], stored, "change {field}: {sent}");
        }
    }
}

/// "Project" `external_url`: spaces removed, `https://` added when there is
/// no scheme, http or https with a host, blank is null, at most 2048
/// characters after normalising.
#[test]
fn external_url_is_normalised() {
    let s = Core::start();
    let exact = format!("example.com/{}", "a".repeat(2028));
    let cases = [
        (json!("example.com/path"), json!("https://example.com/path")),
        (
            json!("example.com/a?b=c#d"),
            json!("https://example.com/a?b=c#d"),
        ),
        (
            json!("http://example.com/plain"),
            json!("http://example.com/plain"),
        ),
        (
            json!("https://example.com/secure"),
            json!("https://example.com/secure"),
        ),
        (
            json!("  https://example.com/trimmed  "),
            json!("https://example.com/trimmed"),
        ),
        (
            json!("https://exam ple.com/inner"),
            json!("https://example.com/inner"),
        ),
        (json!(""), Value::Null),
        (json!("   "), Value::Null),
        (Value::Null, Value::Null),
        (json!(exact), json!(format!("https://{exact}"))),
    ];
    for (n, (sent, stored)) in cases.iter().enumerate() {
        let made = new_project(
            &s,
            json!({"name": format!("Url {n}"), "external_url": sent}),
        );
        assert_eq!(&made["external_url"], stored, "create: {sent}");
        let p = id(&made);
        patch_project(&s, &p, json!({"external_url": "https://example.com/other"})).expect(200);
        let changed = patch_project(&s, &p, json!({ "external_url": sent })).expect(200);
        assert_eq!(&changed.data()["external_url"], stored, "change: {sent}");
    }
    assert_eq!(format!("https://{exact}").len(), 2048);
    let p = project(&s, "Refused");
    let before = get_project(&s, &p);
    for bad in [
        json!("ftp://example.com/file"),
        json!("https://"),
        json!(format!("{exact}a")),
    ] {
        check(
            &s,
            change(&p, json!({ "external_url": bad })),
            Expect::invalid("external_url"),
        );
    }
    assert_eq!(get_project(&s, &p), before);
}

/// "Project" `description_html`: sanitised as note bodies, images and
/// attachments dropped (not refused), blank or nothing left is null with
/// `description_text` ""; a NUL or over 1,000,000 bytes is 422 on change too.
#[test]
fn description_html_is_sanitised_and_cleared() {
    let s = Core::start();
    let made = new_project(
        &s,
        json!({"name": "Desc", "description_html": "<p>Hello <script>alert(1)</script><strong>world</strong></p>"}),
    );
    let html = made["description_html"].as_str().unwrap();
    assert!(!html.contains("script"), "{html}");
    assert!(html.contains("<strong>world</strong>"), "{html}");
    assert_eq!(made["description_text"], "Hello world");
    let p = id(&made);
    for dropped in [
        "<p>See <img src=\"https://example.com/a.png\"> this</p>",
        "<p>See <img data-upload=\"abc\"> this</p>",
        "<p>See <action-text-attachment sgid=\"x\"></action-text-attachment> this</p>",
    ] {
        let changed = patch_project(&s, &p, json!({ "description_html": dropped })).expect(200);
        let html = changed.data()["description_html"].as_str().unwrap();
        assert!(!html.contains("<img"), "{dropped}: {html}");
        assert!(!html.contains("attachment"), "{dropped}: {html}");
        assert!(html.contains("See"), "{dropped}: {html}");
    }
    for clear in [json!(null), json!(""), json!("<script>x</script>")] {
        let done = patch_project(&s, &p, json!({ "description_html": clear })).expect(200);
        assert_eq!(done.data()["description_html"], Value::Null, "{clear}");
        assert_eq!(done.data()["description_text"], "", "{clear}");
        patch_project(&s, &p, json!({"description_html": "<p>again</p>"})).expect(200);
    }
    let before = get_project(&s, &p);
    for bad in [
        "a\u{0}b".to_owned(),
        format!("<p>{}</p>", "a".repeat(1_000_000)),
    ] {
        check(
            &s,
            change(&p, json!({ "description_html": bad })),
            Expect::invalid("description_html"),
        );
    }
    assert_eq!(get_project(&s, &p), before);
}

/// Rule 1 on change (DECISIONS: the order of dates is checked against the
/// stored value of the other, 422 on `deadline`): every refusal changes
/// nothing; unknown ids are 404; PUT is PATCH.
#[test]
fn change_refuses_bad_fields_and_changes_nothing() {
    let s = Core::start();
    project(&s, "Work");
    let base = new_project(
        &s,
        json!({"name": "Base", "start_date": "2026-03-01", "deadline": "2026-03-31", "my_role": "Lead"}),
    );
    let p = id(&base);
    s.advance(10);
    let cases = [
        (json!({"name": ""}), "name"),
        (json!({"name": "  "}), "name"),
        (json!({"name": null}), "name"),
        (json!({"name": "n".repeat(101)}), "name"),
        (json!({"name": "WORK"}), "name"),
        (json!({"status": "paused"}), "status"),
        (json!({"status": 1}), "status"),
        (json!({"start_date": "soon"}), "start_date"),
        (json!({"deadline": "2026-02-31"}), "deadline"),
        (json!({"deadline": "2026-02-28"}), "deadline"),
        (json!({"start_date": "2026-04-01"}), "deadline"),
        (
            json!({"start_date": "2026-04-01", "deadline": "2026-03-31"}),
            "deadline",
        ),
        (json!({"my_role": "r".repeat(101)}), "my_role"),
        (
            json!({"external_reference": "r".repeat(101)}),
            "external_reference",
        ),
        (json!({"external_url": "ftp://x.org/a"}), "external_url"),
        (json!({"description_html": "\u{0}"}), "description_html"),
        (json!({"name": "Fine", "status": "paused"}), "status"),
        (json!({"status": "done", "deadline": "x"}), "deadline"),
    ];
    for (fields, detail) in cases {
        check(&s, change(&p, fields.clone()), Expect::invalid(detail));
        assert_eq!(get_project(&s, &p), base, "{fields}: nothing changed");
    }
    check(
        &s,
        Call::patch(format!("/projects/{p}"), json!({"project": "Base"})),
        Expect::error(400, "invalid_json", None),
    );
    // PUT is PATCH: only the fields sent change.
    let put = s
        .put(
            &format!("/projects/{p}"),
            json!({"project": {"name": "  BASE "}}),
        )
        .expect(200);
    assert_eq!(put.data()["name"], "BASE");
    assert_eq!(put.data()["my_role"], "Lead");
    assert_eq!(put.data()["deadline"], "2026-03-31");
    assert_eq!(put.data()["updated_at"], now_string(&s));
    // Both dates moved in one request are checked together.
    let moved = patch_project(
        &s,
        &p,
        json!({"start_date": "2026-05-01", "deadline": "2026-05-31"}),
    )
    .expect(200);
    assert_eq!(moved.data()["start_date"], "2026-05-01");
    // Without a start date any deadline goes; null clears a date.
    patch_project(&s, &p, json!({"start_date": null})).expect(200);
    let early = patch_project(&s, &p, json!({"deadline": "2020-01-01"})).expect(200);
    assert_eq!(early.data()["deadline"], "2020-01-01");
    let cleared = patch_project(&s, &p, json!({"deadline": null})).expect(200);
    assert_eq!(cleared.data()["deadline"], Value::Null);

    for call in [
        change(UNKNOWN, json!({"name": "x"})),
        change("nope", json!({"name": "x"})),
        Call::get(format!("/projects/{UNKNOWN}")),
        Call::get("/projects/nope"),
        Call::delete(format!("/projects/{UNKNOWN}")),
        Call::new("POST", format!("/projects/{UNKNOWN}/restoration")),
        Call::new("POST", "/projects/not-an-id/restoration"),
    ] {
        check(&s, call, Expect::error(404, "not_found", None));
    }
}

/// "Project" `status_changed_at`: the creation, then the time of each
/// status change; nothing else moves it. A change that changes nothing
/// keeps `updated_at` (DECISIONS).
#[test]
fn status_changed_at_moves_only_on_a_status_change() {
    let s = Core::start();
    let made = new_project(
        &s,
        json!({"name": "Launch", "my_role": "Lead", "deadline": "2026-04-01"}),
    );
    let p = id(&made);
    s.advance(60);
    let renamed = patch_project(
        &s,
        &p,
        json!({"name": "Launch 2", "deadline": "2026-04-02", "my_role": "Owner"}),
    )
    .expect(200);
    assert_eq!(renamed.data()["status_changed_at"], START);
    assert_eq!(renamed.data()["updated_at"], now_string(&s));
    s.advance(60);
    let held = patch_project(&s, &p, json!({"status": "on_hold"})).expect(200);
    let held_at = now_string(&s);
    assert_eq!(held.data()["status_changed_at"], held_at);
    assert_eq!(held.data()["updated_at"], held_at);
    // The same status again changes nothing.
    s.advance(60);
    let same = patch_project(
        &s,
        &p,
        json!({"status": "on_hold", "name": "Launch 2", "my_role": "  Owner ", "deadline": "2026-04-02"}),
    )
    .expect(200);
    assert_eq!(same.data()["status_changed_at"], held_at);
    assert_eq!(same.data()["updated_at"], held_at, "nothing changed");
    assert_eq!(same.data(), held.data());
    s.advance(60);
    let done = patch_project(&s, &p, json!({"status": "done", "name": "Launched"})).expect(200);
    assert_eq!(done.data()["status_changed_at"], now_string(&s));
    assert_eq!(get_project(&s, &p), *done.data());
}

// ---------------------------------------------------------------- the listing

/// "Projects" `order` (DECISIONS: `name` the default, case-folded) in both
/// directions, ties by id (reversed with `desc`), each walked one page of
/// one at a time with `count=true`.
#[test]
fn the_listing_takes_every_order_and_direction_and_pages_by_one() {
    let s = Core::start();
    // banana first; Apple and cherry in the same instant (a created_at tie).
    project(&s, "banana");
    s.advance(1);
    project(&s, "Apple");
    project(&s, "cherry");
    s.advance(1);
    let date = project(&s, "Date");
    project(&s, "elder");
    // Date and banana changed in the same instant (an updated_at tie).
    s.advance(10);
    let banana = id(&all(&s, "/projects?order=id")[0]);
    patch_project(&s, &date, json!({"my_role": "x"})).expect(200);
    patch_project(&s, &banana, json!({"my_role": "x"})).expect(200);
    let records = all(&s, "/projects?order=id");
    assert_eq!(records.len(), 5);

    let orders: [(&str, SortKey); 4] = [
        ("name", |p| p["name"].as_str().unwrap().to_lowercase()),
        ("created_at", |p| {
            p["created_at"].as_str().unwrap().to_owned()
        }),
        ("updated_at", |p| {
            p["updated_at"].as_str().unwrap().to_owned()
        }),
        ("id", id),
    ];
    for (order, key) in orders {
        let mut sorted: Vec<(String, String)> = records.iter().map(|p| (key(p), id(p))).collect();
        sorted.sort();
        let asc: Vec<String> = sorted.into_iter().map(|(_, i)| i).collect();
        let desc: Vec<String> = asc.iter().rev().cloned().collect();
        for (query, wanted) in [
            (format!("order={order}"), &asc),
            (format!("order={order}&direction=asc"), &asc),
            (format!("order={order}&direction=desc"), &desc),
        ] {
            let path = format!("/projects?{query}");
            assert_eq!(&ids(&s, &path), wanted, "{query}");
            assert_eq!(&ids_one_by_one(&s, &path), wanted, "{query} by one");
        }
    }
    assert_eq!(
        names(&s, "/projects"),
        ["Apple", "banana", "cherry", "Date", "elder"],
        "name by default, ignoring case"
    );
    assert_eq!(
        names(&s, "/projects?direction=desc"),
        ["elder", "Date", "cherry", "banana", "Apple"]
    );
    // The default page size and the cap.
    let page = s.get("/projects").expect(200);
    assert_eq!(page.body["meta"]["limit"], 50);
    assert_eq!(page.body["meta"]["next_cursor"], Value::Null);
    assert!(page.body["meta"].get("total_count").is_none());
    assert_eq!(
        s.get("/projects?limit=500").expect(200).body["meta"]["limit"],
        100
    );
    // A deleted project is not listed in any order.
    s.delete(&format!("/projects/{date}")).expect(204);
    for order in ["name", "created_at", "updated_at", "id"] {
        let path = format!("/projects?order={order}");
        assert_eq!(ids(&s, &path).len(), 4, "{order}");
        assert_eq!(ids_one_by_one(&s, &path).len(), 4, "{order} by one");
    }
    // Items carry their members.
    let ada = person(&s, "Ada");
    let member = add_member(&s, &banana, &ada, json!("Lead"));
    let listed_banana = all(&s, "/projects")
        .into_iter()
        .find(|p| p["id"] == json!(banana))
        .unwrap();
    assert_eq!(
        listed_banana["members"],
        json!([{"id": member["id"], "person_id": ada, "role": "Lead"}])
    );
    assert_eq!(listed_banana, get_project(&s, &banana));
}

/// "Projects" `status`: one status or several, comma-separated; combined
/// with an order, paging and `count`; anything else is 400 on `status`.
#[test]
fn the_status_filter_takes_one_or_several_statuses() {
    let s = Core::start();
    for (name, status) in [
        ("Plan A", "planned"),
        ("Act A", "active"),
        ("Hold A", "on_hold"),
        ("Done A", "done"),
        ("Drop A", "cancelled"),
        ("Plan B", "planned"),
        ("act B", "active"),
    ] {
        new_project(&s, json!({"name": name, "status": status}));
        s.advance(1);
    }
    let cases: [(&str, &[&str]); 8] = [
        ("planned", &["Plan A", "Plan B"]),
        ("active", &["Act A", "act B"]),
        ("on_hold", &["Hold A"]),
        ("done", &["Done A"]),
        ("cancelled", &["Drop A"]),
        ("planned,done", &["Done A", "Plan A", "Plan B"]),
        ("done,planned", &["Done A", "Plan A", "Plan B"]),
        (
            "planned,active,on_hold",
            &["Act A", "act B", "Hold A", "Plan A", "Plan B"],
        ),
    ];
    for (status, wanted) in cases {
        let path = format!("/projects?status={status}");
        assert_eq!(names(&s, &path), wanted, "{status}");
        assert_eq!(ids_one_by_one(&s, &path).len(), wanted.len(), "{status}");
    }
    assert_eq!(
        names(
            &s,
            "/projects?status=planned,active&order=created_at&direction=desc"
        ),
        ["act B", "Plan B", "Act A", "Plan A"]
    );
    let counted = s
        .get("/projects?status=planned,cancelled&count=true")
        .expect(200);
    assert_eq!(counted.body["meta"]["total_count"], 3);
    // A status change moves a project between filters.
    let plan_b = all(&s, "/projects?status=planned")[1].clone();
    patch_project(&s, &id(&plan_b), json!({"status": "done"})).expect(200);
    assert_eq!(names(&s, "/projects?status=done"), ["Done A", "Plan B"]);
    for bad in [
        "paused",
        "",
        "open",
        "ACTIVE",
        "active,paused",
        "active,,done",
        "active;done",
    ] {
        check(
            &s,
            Call::get(format!("/projects?status={bad}")),
            Expect::bad_param(Some("status")),
        );
    }
}

/// "Projects" `person_id`: the projects a person is a member of; an
/// unknown or deleted person gives an empty page; a non-ID is 400
/// (DECISIONS); it combines with `status`.
#[test]
fn the_person_id_filter_keeps_a_persons_projects() {
    let s = Core::start();
    let one = project(&s, "One");
    let two = project(&s, "Two");
    let three = new_project(&s, json!({"name": "Three", "status": "done"}));
    let ada = person(&s, "Ada");
    let bob = person(&s, "Bob");
    let cy = person(&s, "Cy");
    add_member(&s, &one, &ada, Value::Null);
    add_member(&s, &id(&three), &ada, json!("Lead"));
    let bobs = add_member(&s, &two, &bob, Value::Null);
    add_member(&s, &one, &bob, Value::Null);
    assert_eq!(
        names(&s, &format!("/projects?person_id={ada}")),
        ["One", "Three"]
    );
    assert_eq!(
        names(&s, &format!("/projects?person_id={bob}")),
        ["One", "Two"]
    );
    assert_eq!(
        names(&s, &format!("/projects?person_id={ada}&status=active")),
        ["One"]
    );
    assert_eq!(
        names(
            &s,
            &format!("/projects?person_id={ada}&order=created_at&direction=desc")
        ),
        ["Three", "One"]
    );
    let counted = s
        .get(&format!("/projects?person_id={bob}&count=true"))
        .expect(200);
    assert_eq!(counted.body["meta"]["total_count"], 2);
    for nobody in [cy.as_str(), UNKNOWN] {
        let page = s.get(&format!("/projects?person_id={nobody}")).expect(200);
        assert_eq!(page.data(), &json!([]), "{nobody}");
        assert_eq!(page.body["meta"]["next_cursor"], Value::Null);
    }
    // A removed membership, a deleted person.
    s.delete(&format!("/project_members/{}", id(&bobs)))
        .expect(204);
    assert_eq!(names(&s, &format!("/projects?person_id={bob}")), ["One"]);
    s.delete(&format!("/people/{bob}")).expect(204);
    assert!(all(&s, &format!("/projects?person_id={bob}")).is_empty());
    check(
        &s,
        Call::get("/projects?person_id=nope"),
        Expect::bad_param(Some("person_id")),
    );
}

/// Document 1, list parameters: `updated_since` (inclusive, with `Z` or an
/// offset) lists what changed, ordered by `updated_at`, id; a member added
/// gives the project a new `updated_at`; `count` counts that set.
#[test]
fn updated_since_lists_what_changed() {
    let s = Core::start();
    project(&s, "Alpha");
    s.advance(1);
    let beta = project(&s, "Beta");
    s.advance(1);
    project(&s, "Gamma");
    s.advance(10);
    let alpha = id(&all(&s, "/projects")[0]);
    patch_project(&s, &alpha, json!({"my_role": "Lead"})).expect(200);
    assert_eq!(
        names(&s, "/projects?updated_since=2026-03-10T09:00:01Z"),
        ["Beta", "Gamma", "Alpha"]
    );
    assert_eq!(
        names(&s, "/projects?updated_since=2026-03-10T09:00:01.001Z"),
        ["Gamma", "Alpha"]
    );
    assert_eq!(
        names(&s, "/projects?updated_since=2026-03-10T10:00:01%2B01:00"),
        ["Beta", "Gamma", "Alpha"]
    );
    assert_eq!(
        names(
            &s,
            "/projects?updated_since=2026-03-10T09:00:00Z&direction=desc"
        ),
        ["Alpha", "Gamma", "Beta"]
    );
    assert_eq!(
        names(&s, "/projects?updated_since=2026-03-10T09:00:12Z"),
        ["Alpha"]
    );
    let counted = s
        .get("/projects?updated_since=2026-03-10T09:00:02Z&count=true&limit=1")
        .expect(200);
    assert_eq!(counted.body["meta"]["total_count"], 2);
    assert_eq!(
        ids_one_by_one(&s, "/projects?updated_since=2026-03-10T09:00:00Z").len(),
        3
    );
    s.advance(10);
    let ada = person(&s, "Ada");
    add_member(&s, &beta, &ada, Value::Null);
    assert_eq!(
        names(&s, "/projects?updated_since=2026-03-10T09:00:22Z"),
        ["Beta"]
    );
    assert_eq!(get_project(&s, &beta)["updated_at"], now_string(&s));
}

/// Document 1, list parameters, and "Projects": the parameters the
/// listing refuses, each 400 on its name.
#[test]
fn the_listing_refuses_bad_parameters() {
    let s = Core::start();
    for name in ["a", "b"] {
        project(&s, name);
    }
    let other_cursor = s.get("/projects?limit=1&order=id").body["meta"]["next_cursor"]
        .as_str()
        .unwrap()
        .to_owned();
    let cases = [
        ("order=status".to_owned(), "order"),
        ("order=deadline".to_owned(), "order"),
        ("order=position".to_owned(), "order"),
        (
            "order=name&updated_since=2026-03-10T09:00:00Z".to_owned(),
            "order",
        ),
        ("direction=sideways".to_owned(), "direction"),
        ("updated_since=today".to_owned(), "updated_since"),
        ("updated_since=2026-03-10".to_owned(), "updated_since"),
        ("count=maybe".to_owned(), "count"),
        ("count=1".to_owned(), "count"),
        ("limit=0".to_owned(), "limit"),
        ("limit=-1".to_owned(), "limit"),
        ("limit=many".to_owned(), "limit"),
        ("cursor=forged".to_owned(), "cursor"),
        (format!("cursor={other_cursor}"), "cursor"),
        ("status=paused".to_owned(), "status"),
        ("person_id=123".to_owned(), "person_id"),
    ];
    for (query, detail) in cases {
        check(
            &s,
            Call::get(format!("/projects?{query}")),
            Expect::bad_param(Some(detail)),
        );
    }
    // A cursor belongs to its filter.
    let unfiltered = s.get("/projects?limit=1").body["meta"]["next_cursor"]
        .as_str()
        .unwrap()
        .to_owned();
    check(
        &s,
        Call::get(format!("/projects?status=active&cursor={unfiltered}")),
        Expect::bad_param(Some("cursor")),
    );
}

// ---------------------------------------------------------------- delete and restore

/// "Delete and restore" and rule 4 (DECISIONS, "Delete"): the project, its
/// members, events and tasks go at once with a deletion record each; it is
/// gone from every endpoint; its name is free at once; a second DELETE is 404.
#[test]
fn delete_takes_members_events_and_tasks_and_frees_the_name() {
    let s = Core::start();
    let p = project(&s, "Launch");
    let other = new_project(&s, json!({"name": "Other", "deadline": "2026-03-20"}));
    let ada = person(&s, "Ada");
    let bob = person(&s, "Bob");
    let m_ada = id(&add_member(&s, &p, &ada, json!("Lead")));
    let m_bob = id(&add_member(&s, &p, &bob, Value::Null));
    patch_project(
        &s,
        &p,
        json!({"status": "on_hold", "deadline": "2026-03-25"}),
    )
    .expect(200);
    let open = id(&new_task(&s, json!({"title": "open", "project_id": p})));
    let done = id(&new_task(
        &s,
        json!({"title": "done", "project_id": p, "status": "completed"}),
    ));
    new_task(&s, json!({"title": "kept"}));
    let events = ids(&s, &format!("/project_events?project_id={p}"));
    assert_eq!(
        events.len(),
        4,
        "two member_added, a status and a deadline event"
    );
    let other_before = get_project(&s, &id(&other));
    s.advance(1);
    s.delete(&format!("/projects/{p}")).expect(204);

    for call in [
        Call::get(format!("/projects/{p}")),
        change(&p, json!({"name": "x"})),
        Call::delete(format!("/projects/{p}")),
        Call::get(format!("/projects/{p}/activity")),
        Call::get(format!("/project_members/{m_ada}")),
        Call::patch(
            format!("/project_members/{m_bob}"),
            json!({"project_member": {"role": "x"}}),
        ),
        Call::get(format!("/tasks/{open}")),
        Call::get(format!("/tasks/{done}")),
    ] {
        check(&s, call, Expect::error(404, "not_found", None));
    }
    assert_eq!(names(&s, "/projects"), ["Other"]);
    assert!(all(&s, "/projects?status=on_hold").is_empty());
    assert!(all(&s, &format!("/projects?person_id={ada}")).is_empty());
    assert!(all(&s, "/project_members").is_empty());
    assert!(all(&s, "/project_events").is_empty());
    assert_eq!(titles(&s, "/tasks"), ["kept"]);
    assert!(all(&s, &format!("/tasks?project_id={p}")).is_empty());
    assert_eq!(s.get("/project_task_counts").expect(200).data(), &json!([]));
    let upcoming: Vec<Value> = s
        .get("/upcoming_deadlines")
        .expect(200)
        .data()
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["project"]["id"].clone())
        .collect();
    assert_eq!(upcoming, [json!(id(&other))]);
    assert_eq!(get_project(&s, &id(&other)), other_before);

    let mut expected = vec![
        ("project", p.as_str()),
        ("project_member", m_ada.as_str()),
        ("project_member", m_bob.as_str()),
        ("task", open.as_str()),
        ("task", done.as_str()),
    ];
    expected.extend(events.iter().map(|e| ("project_event", e.as_str())));
    assert_eq!(deletions(&s), records(&expected));
    let stamped: Vec<Value> = all(&s, "/deletions")
        .iter()
        .map(|d| d["deleted_at"].clone())
        .collect();
    assert!(stamped.iter().all(|at| *at == json!(now_string(&s))));

    // The name is free at once; the deleted project is no home and takes no member.
    post_project(&s, json!({"name": "LAUNCH"})).expect(201);
    check(
        &s,
        Call::post("/tasks", json!({"task": {"title": "x", "project_id": p}})),
        Expect::invalid("project_id"),
    );
    check(
        &s,
        Call::post(
            "/project_members",
            json!({"project_member": {"project_id": p, "person_id": ada}}),
        ),
        Expect::invalid("project_id"),
    );
}

/// "Delete and restore" (DECISIONS, "Restoration"): within 20 seconds the
/// project returns with its fields, members, events and tasks; their
/// deletion records go; project, members, events and tasks get a new
/// `updated_at`; a task deleted on its own before stays deleted; restoring
/// a live project returns it unchanged.
#[test]
fn restoration_within_20_seconds_brings_everything_back() {
    let s = Core::start();
    let made = new_project(
        &s,
        json!({"name": "Launch", "status": "planned", "start_date": "2026-03-01",
            "deadline": "2026-04-01", "my_role": "Lead", "external_reference": "PRJ-1",
            "external_url": "example.com/launch", "description_html": "<p>Big <em>one</em></p>"}),
    );
    let p = id(&made);
    let ada = person(&s, "Ada");
    let bob = person(&s, "Bob");
    add_member(&s, &p, &ada, json!("Lead"));
    add_member(&s, &p, &bob, json!("Help"));
    patch_project(&s, &p, json!({"status": "active"})).expect(200);
    let first = new_task(&s, json!({"title": "first", "project_id": p}));
    let second = new_task(&s, json!({"title": "second", "project_id": p}));
    let done = new_task(
        &s,
        json!({"title": "done", "project_id": p, "status": "completed"}),
    );
    let alone = id(&new_task(&s, json!({"title": "alone", "project_id": p})));
    s.advance(1);
    s.delete(&format!("/tasks/{alone}")).expect(204);
    let tasks: Vec<Value> = [&first, &second, &done]
        .iter()
        .map(|t| get_task(&s, &id(t)))
        .collect();
    let before = get_project(&s, &p);
    let members = all(&s, &format!("/project_members?project_id={p}"));
    let events = all(&s, &format!("/project_events?project_id={p}"));
    assert_eq!(members.len(), 2);
    assert_eq!(events.len(), 3);
    s.advance(1);
    s.delete(&format!("/projects/{p}")).expect(204);
    s.advance(19);
    let back = restore(&s, &p).expect(200).data().clone();
    let now = now_string(&s);
    assert_eq!(back, with_updated_at(&before, &now));
    assert_eq!(get_project(&s, &p), back);
    assert_eq!(
        all(&s, &format!("/project_members?project_id={p}")),
        members
            .iter()
            .map(|m| with_updated_at(m, &now))
            .collect::<Vec<_>>()
    );
    assert_eq!(
        all(&s, &format!("/project_events?project_id={p}")),
        events
            .iter()
            .map(|e| with_updated_at(e, &now))
            .collect::<Vec<_>>()
    );
    for task in &tasks {
        let t = get_task(&s, &id(task));
        assert_eq!(t, with_updated_at(task, &now), "{}", task["title"]);
    }
    s.get(&format!("/tasks/{alone}"))
        .expect_error(404, "not_found", None);
    assert_eq!(
        titles(&s, &format!("/tasks?project_id={p}&status=open")),
        ["second", "first"]
    );
    assert_eq!(deletions(&s), records(&[("task", &alone)]));
    assert_eq!(names(&s, &format!("/projects?person_id={ada}")), ["Launch"]);
    // Restoring a live project returns it as it is.
    s.advance(5);
    assert_eq!(restore(&s, &p).expect(200).data(), &back);
    assert_eq!(get_project(&s, &p), back);
    // And it can be deleted again.
    s.delete(&format!("/projects/{p}")).expect(204);
}

/// Rule 5: a restored project whose name was taken returns as `Name (2)`,
/// or the first free number.
#[test]
fn a_restored_project_whose_name_was_taken_returns_numbered() {
    let s = Core::start();
    let launch = project(&s, "Launch");
    s.delete(&format!("/projects/{launch}")).expect(204);
    project(&s, "LAUNCH");
    let back = restore(&s, &launch).expect(200);
    assert_eq!(back.data()["name"], "Launch (2)");
    assert_eq!(get_project(&s, &launch)["name"], "Launch (2)");

    let home = project(&s, "Home");
    s.delete(&format!("/projects/{home}")).expect(204);
    project(&s, "home");
    project(&s, "HOME (2)");
    let back = restore(&s, &home).expect(200);
    assert_eq!(back.data()["name"], "Home (3)");
    assert_eq!(
        names(&s, "/projects"),
        ["home", "HOME (2)", "Home (3)", "LAUNCH", "Launch (2)"]
    );
}

/// Rule 5 (DECISIONS): when no numbered name fits in 100 characters the
/// restoration is 422 on `name` and the project stays deleted with its
/// records; once the name is free it comes back.
#[test]
fn restoration_is_422_on_name_when_no_variant_fits() {
    let s = Core::start();
    let long = "x".repeat(100);
    let p = project(&s, &long);
    let ada = person(&s, "Ada");
    let member = id(&add_member(&s, &p, &ada, Value::Null));
    let task = new_task(&s, json!({"title": "t", "project_id": p}));
    s.delete(&format!("/projects/{p}")).expect(204);
    let recorded = deletions(&s);
    assert_eq!(recorded.len(), 4, "project, member, member event, task");
    let other = project(&s, &long.to_uppercase());
    restore(&s, &p).expect_error(422, "validation_failed", Some("name"));
    s.get(&format!("/projects/{p}"))
        .expect_error(404, "not_found", None);
    s.get(&format!("/project_members/{member}"))
        .expect_error(404, "not_found", None);
    s.get(&format!("/tasks/{}", id(&task)))
        .expect_error(404, "not_found", None);
    assert_eq!(deletions(&s), recorded);
    // Rename the other and retry within the window.
    s.advance(5);
    patch_project(&s, &other, json!({"name": "Other"})).expect(200);
    let back = restore(&s, &p).expect(200);
    assert_eq!(back.data()["name"], long.as_str());
    assert_eq!(get_task(&s, &id(&task))["project_id"], p);
    assert!(deletions(&s).is_empty());
}

/// "Delete and restore": 20 seconds after the delete the restoration is
/// 404, and so is everything the project took; the deletion records stay.
#[test]
fn restoration_is_404_after_20_seconds() {
    let s = Core::start();
    let p = project(&s, "Old");
    let ada = person(&s, "Ada");
    let member = id(&add_member(&s, &p, &ada, Value::Null));
    let task = id(&new_task(&s, json!({"title": "t", "project_id": p})));
    s.delete(&format!("/projects/{p}")).expect(204);
    let recorded = deletions(&s);
    s.advance(20);
    restore(&s, &p).expect_error(404, "not_found", None);
    for call in [
        Call::get(format!("/projects/{p}")),
        Call::delete(format!("/projects/{p}")),
        Call::get(format!("/project_members/{member}")),
        Call::get(format!("/tasks/{task}")),
        Call::new("POST", format!("/tasks/{task}/restoration")),
    ] {
        check(&s, call, Expect::error(404, "not_found", None));
    }
    assert_eq!(deletions(&s), recorded);
    check(
        &s,
        Call::post("/tasks", json!({"task": {"title": "x", "project_id": p}})),
        Expect::invalid("project_id"),
    );
    // The person stays, on no project; the name is free.
    assert_eq!(
        s.get(&format!("/people/{ada}")).expect(200).data()["name"],
        "Ada"
    );
    project(&s, "Old");
}

/// Document 1, "Idempotency": a create and a restoration with the same key
/// are answered again, once.
#[test]
fn a_create_or_restoration_with_an_idempotency_key_replays() {
    let s = Core::start();
    let body = json!({"project": {"name": "Once"}});
    let made = send(
        s.req("POST", "/projects")
            .header("idempotency-key", "p-1")
            .json(&body),
    )
    .expect(201);
    let again = send(
        s.req("POST", "/projects")
            .header("idempotency-key", "p-1")
            .json(&body),
    )
    .expect(201);
    assert_eq!(again.header("idempotent-replayed"), Some("true"));
    assert_eq!(again.data(), made.data());
    assert_eq!(names(&s, "/projects"), ["Once"]);
    let p = id(made.data());
    s.delete(&format!("/projects/{p}")).expect(204);
    let path = format!("/projects/{p}/restoration");
    let first = send(s.req("POST", &path).header("idempotency-key", "r-1")).expect(200);
    let replay = send(s.req("POST", &path).header("idempotency-key", "r-1")).expect(200);
    assert_eq!(replay.header("idempotent-replayed"), Some("true"));
    assert_eq!(replay.data(), first.data());
}

// ---------------------------------------------------------------- tasks homed in a project

/// "Task" `project_id` and "Tasks": a task homed in a project (the other
/// homes null), listed by `GET /tasks?project_id=`, moved in and out; an
/// unknown, deleted or malformed project is 422 on `project_id`.
#[test]
fn tasks_are_homed_in_a_project() {
    let s = Core::start();
    let p = project(&s, "Launch");
    let q = project(&s, "Other");
    let list = new_list(&s, "List");
    let first = new_task(&s, json!({"title": "first", "project_id": p}));
    assert_eq!(first["project_id"], p);
    assert_eq!(first["task_list_id"], Value::Null);
    assert_eq!(first["person_id"], Value::Null);
    assert_eq!(get_task(&s, &id(&first)), first);
    new_task(&s, json!({"title": "second", "project_id": p}));
    new_task(
        &s,
        json!({"title": "done", "project_id": p, "status": "completed"}),
    );
    new_task(&s, json!({"title": "listed", "task_list_id": list}));
    assert_eq!(
        titles(&s, &format!("/tasks?project_id={p}&status=open")),
        ["second", "first"],
        "new open tasks go to the top"
    );
    assert_eq!(titles(&s, &format!("/tasks?project_id={p}")).len(), 3);
    assert!(all(&s, &format!("/tasks?project_id={q}")).is_empty());
    assert!(all(&s, &format!("/tasks?project_id={UNKNOWN}")).is_empty());
    // Not in the Inbox.
    assert!(!titles(&s, "/tasks?inbox=true").contains(&"first".to_owned()));

    // Moved to a list, then to another project: one home at a time.
    let moved = patch_task(&s, &id(&first), json!({"task_list_id": list})).expect(200);
    assert_eq!(moved.data()["project_id"], Value::Null);
    let moved = patch_task(&s, &id(&first), json!({"project_id": q})).expect(200);
    assert_eq!(moved.data()["project_id"], q);
    assert_eq!(moved.data()["task_list_id"], Value::Null);
    assert_eq!(titles(&s, &format!("/tasks?project_id={q}")), ["first"]);
    let inbox = patch_task(&s, &id(&first), json!({"project_id": null})).expect(200);
    assert_eq!(inbox.data()["project_id"], Value::Null);

    let gone = project(&s, "Gone");
    s.delete(&format!("/projects/{gone}")).expect(204);
    assert!(all(&s, &format!("/tasks?project_id={gone}")).is_empty());
    let before = all(&s, "/tasks");
    for home in [json!(UNKNOWN), json!(gone), json!("nope"), json!(5)] {
        check(
            &s,
            Call::post(
                "/tasks",
                json!({"task": {"title": "x", "project_id": home}}),
            ),
            Expect::invalid("project_id"),
        );
        check(
            &s,
            Call::patch(
                format!("/tasks/{}", id(&first)),
                json!({"task": {"project_id": home}}),
            ),
            Expect::invalid("project_id"),
        );
    }
    assert_eq!(all(&s, "/tasks"), before, "nothing changed");
}

/// "Counts": `/task_counts?project_id=` counts the project's page as it
/// does a list's; an unknown or deleted project counts zeros.
#[test]
fn task_counts_name_a_project() {
    let s = Core::start();
    let p = project(&s, "Launch");
    for fields in [
        json!({"title": "overdue", "deadline_on": "2026-03-05"}),
        json!({"title": "plain"}),
        json!({"title": "done", "status": "completed"}),
        json!({"title": "dropped", "status": "wont_do"}),
        json!({"title": "shelved", "status": "archived"}),
    ] {
        let mut fields = fields;
        fields["project_id"] = json!(p);
        new_task(&s, fields);
    }
    new_task(&s, json!({"title": "elsewhere", "status": "completed"}));
    let page = s
        .get(&format!("/task_counts?project_id={p}"))
        .expect(200)
        .data()["page"]
        .clone();
    assert_eq!(
        page,
        json!({"open": 2, "completed": 1, "completed_today": 1, "overdue": 1, "wont_do": 1, "expired": 0})
    );
    let logbook = s
        .get(&format!("/task_counts?view=logbook&project_id={p}"))
        .expect(200)
        .data()["page"]
        .clone();
    assert_eq!(logbook["completed"], 1);
    assert_eq!(logbook["open"], 0);
    let zeros = json!({"open": 0, "completed": 0, "completed_today": 0, "overdue": 0, "wont_do": 0, "expired": 0});
    s.delete(&format!("/projects/{p}")).expect(204);
    for home in [p.as_str(), UNKNOWN] {
        let page = s
            .get(&format!("/task_counts?project_id={home}"))
            .expect(200)
            .data()["page"]
            .clone();
        assert_eq!(page, zeros, "{home}");
    }
    assert_eq!(s.get("/task_counts").expect(200).data()["overdue"], 0);
}
