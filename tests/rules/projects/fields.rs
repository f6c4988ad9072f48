//! Document 2, "Project" and "Project status", with the team's decisions
//! (DECISIONS-projects.md): the field rules of create and change.

use serde_json::{Value, json};

use super::{PROJECT_KEYS, change, create, names};
use super::{get_project, new_project, patch_project, post_project, project};
use crate::common::fixtures::{START, UNKNOWN, deletions, id, keys, now_string};
use crate::common::{Call, Core, Expect, check};

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
