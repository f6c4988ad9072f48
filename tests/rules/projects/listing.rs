//! Document 2, "Projects": the listing (every order and direction, keyset
//! pages, `count`, the `status`, `person_id` and `updated_since` filters).

use serde_json::{Value, json};

use super::{SortKey, ids_one_by_one, names};
use super::{add_member, get_project, new_project, patch_project, project};
use crate::common::fixtures::{UNKNOWN, all, id, ids, now_string, person};
use crate::common::{Call, Core, Expect, check};

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
