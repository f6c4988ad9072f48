//! Document 3, "Person" and PersonFields: names and relationships, the row
//! rules of every array, key dates, social profiles, positions with their
//! companies, `updated_at`, and the listing (issue 8, in progress: delete
//! and restore, links, photos and the CLI come next).

use serde_json::{Value, json};

use crate::common::fixtures::{UNKNOWN, all, id};
use crate::common::{Call, Core, Expect, Reply, check};

fn post_person(s: &Core, fields: Value) -> Reply {
    s.post("/people", json!({ "person": fields }))
}

fn new_person(s: &Core, fields: Value) -> Value {
    post_person(s, fields).expect(201).data().clone()
}

fn patch_person(s: &Core, person: &str, fields: Value) -> Reply {
    s.patch(&format!("/people/{person}"), json!({ "person": fields }))
}

fn get_person(s: &Core, person: &str) -> Value {
    s.get(&format!("/people/{person}"))
        .expect(200)
        .data()
        .clone()
}

fn create(fields: Value) -> Call {
    Call::post("/people", json!({ "person": fields }))
}

fn change(person: &str, fields: Value) -> Call {
    Call::patch(format!("/people/{person}"), json!({ "person": fields }))
}

/// The deletion records, as (type, id).
fn deletions(s: &Core) -> Vec<(String, String)> {
    all(s, "/deletions")
        .iter()
        .map(|d| (d["type"].as_str().unwrap().to_owned(), id(d)))
        .collect()
}

#[test]
fn a_person_is_made_with_every_field_and_read_back() {
    let s = Core::start();
    let made = new_person(
        &s,
        json!({
            "name": "  Ada   Lovelace ",
            "relationships": ["friend", "colleague"],
            "key_dates": [{"kind": "birthday", "day": "10", "month": 12, "year": 1990}],
            "email_addresses": [{"address": "ada@example.org", "label": " home "}],
            "phone_numbers": [{"number": "+44 20 7946 0000", "label": "mobile"}],
            "social_profiles": [{"url": "github.com/ada"}],
            "positions": [{"title": "Analyst", "company_name": "Analytical Engines"}],
        }),
    );
    assert_eq!(made["name"], "Ada Lovelace");
    assert_eq!(made["avatar"], Value::Null);
    // Relationships in the vocabulary's order, whatever the request's.
    let vocabulary: Vec<String> = s.get("/vocabulary").data()["relationships"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["key"].as_str().unwrap().to_owned())
        .filter(|k| k == "friend" || k == "colleague")
        .collect();
    assert_eq!(made["relationships"], json!(vocabulary));
    let date = &made["key_dates"][0];
    assert_eq!(
        (&date["kind"], &date["day"], &date["month"], &date["year"]),
        (&json!("birthday"), &json!(10), &json!(12), &json!(1990))
    );
    assert_eq!(made["email_addresses"][0]["label"], "home");
    assert_eq!(made["social_profiles"][0]["url"], "https://github.com/ada");
    assert_eq!(made["social_profiles"][0]["platform"], "github");
    assert_eq!(made["social_profiles"][0]["platform_detected"], true);
    let company = made["positions"][0]["company_id"].as_str().unwrap();
    assert_eq!(made["positions"][0]["title"], "Analyst");
    assert_eq!(made["connections"], json!([]));
    assert_eq!(get_person(&s, &id(&made)), made);
    // A second person naming the company in other case shares it.
    let other = new_person(
        &s,
        json!({"name": "Charles", "positions": [{"company_name": "ANALYTICAL  engines"}]}),
    );
    assert_eq!(other["positions"][0]["company_id"], company);
    assert_eq!(other["positions"][0]["title"], Value::Null);
}

#[test]
fn create_refuses_bad_fields_and_makes_nothing() {
    let s = Core::start();
    let cases = [
        (json!({}), Expect::invalid("name")),
        (json!({"name": "  "}), Expect::invalid("name")),
        (json!({"name": null}), Expect::invalid("name")),
        (json!({"name": 7}), Expect::invalid("name")),
        (json!({"name": "n".repeat(101)}), Expect::invalid("name")),
        (json!({"name": "Bell\u{7}"}), Expect::invalid("name")),
        (
            json!({"name": "x", "relationships": ["nemesis"]}),
            Expect::invalid("relationships"),
        ),
        (
            json!({"name": "x", "relationships": "friend"}),
            Expect::invalid("relationships"),
        ),
        (
            json!({"name": "x", "relationships": [3]}),
            Expect::invalid("relationships"),
        ),
        (
            json!({"name": "x", "avatar": 5}),
            Expect::bad_param(Some("avatar")),
        ),
        (
            json!({"name": "x", "avatar": "not-an-upload"}),
            Expect::invalid("avatar"),
        ),
        (
            json!({"name": "x", "key_dates": {"kind": "birthday"}}),
            Expect::invalid("key_dates"),
        ),
        (
            json!({"name": "x", "key_dates": ["birthday"]}),
            Expect::invalid("key_dates[0]"),
        ),
        (
            json!({"name": "x", "key_dates": [{"kind": "birthday", "day": 31, "month": 4}]}),
            Expect::invalid("key_dates[0].day"),
        ),
        (
            json!({"name": "x", "key_dates": [{"kind": "birthday", "day": 1, "month": 1, "year": 1899}]}),
            Expect::invalid("key_dates[0].year"),
        ),
        // Today is 10 March 2026: a date with this year is one that has
        // happened (document 3, "not in the future").
        (
            json!({"name": "x", "key_dates": [{"kind": "first_met", "day": 1, "month": 12, "year": 2026}]}),
            Expect::invalid("key_dates[0].year"),
        ),
        (
            json!({"name": "x", "key_dates": [{"kind": "first_met", "day": 11, "month": 3, "year": 2026}]}),
            Expect::invalid("key_dates[0].year"),
        ),
        (
            json!({"name": "x", "key_dates": [{"kind": "other", "day": 1, "month": 1}]}),
            Expect::invalid("key_dates[0].label"),
        ),
        (
            json!({"name": "x", "key_dates": [{"kind": "feast", "day": 1, "month": 1}]}),
            Expect::invalid("key_dates[0].kind"),
        ),
        (
            json!({"name": "x", "key_dates": [{"day": "soon", "month": 1, "kind": "birthday"}]}),
            Expect::invalid("key_dates[0].day"),
        ),
        (
            json!({"name": "x", "key_dates": [
                {"kind": "birthday", "day": 1, "month": 1},
                {"kind": "birthday", "day": 2, "month": 2},
            ]}),
            Expect::invalid("key_dates[1].kind"),
        ),
        (
            json!({"name": "x", "email_addresses": [{"address": ""}]}),
            Expect::invalid("email_addresses[0].address"),
        ),
        (
            json!({"name": "x", "email_addresses": [{"address": "nobody"}]}),
            Expect::invalid("email_addresses[0].address"),
        ),
        (
            json!({"name": "x", "email_addresses": [{"label": "home"}]}),
            Expect::invalid("email_addresses[0].address"),
        ),
        (
            json!({"name": "x", "phone_numbers": [{"number": "call me"}]}),
            Expect::invalid("phone_numbers[0].number"),
        ),
        (
            json!({"name": "x", "phone_numbers": [{"number": "1", "label": 4}]}),
            Expect::invalid("phone_numbers[0].label"),
        ),
        (
            json!({"name": "x", "social_profiles": [{"url": ""}]}),
            Expect::invalid("social_profiles[0].url"),
        ),
        (
            json!({"name": "x", "social_profiles": [{"url": "a.org", "platform": "myspace"}]}),
            Expect::invalid("social_profiles[0].platform"),
        ),
        (
            json!({"name": "x", "positions": [{}]}),
            Expect::invalid("title"),
        ),
        (
            json!({"name": "x", "positions": [{"title": " "}]}),
            Expect::invalid("title"),
        ),
        (
            json!({"name": "x", "positions": [{"company_id": UNKNOWN}]}),
            Expect::invalid("company_id"),
        ),
        (
            json!({"name": "x", "positions": [{"company_id": "nope"}]}),
            Expect::invalid("company_id"),
        ),
        (
            json!({"name": "x", "positions": [{"company_id": UNKNOWN, "company_name": "Acme"}]}),
            Expect::invalid("company_name"),
        ),
        (
            json!({"name": "x", "positions": [{"id": UNKNOWN, "title": "CEO"}]}),
            Expect::invalid("positions[0].id"),
        ),
    ];
    for (fields, expected) in cases {
        check(&s, create(fields), expected);
    }
    check(
        &s,
        Call::post("/people", json!({"person": "Ada"})),
        Expect::error(400, "invalid_json", None),
    );
    assert_eq!(all(&s, "/people"), Vec::<Value>::new(), "nothing was made");
    assert_eq!(deletions(&s), Vec::<(String, String)>::new());
    // A refused position's new company was not kept either.
    let made = new_person(
        &s,
        json!({"name": "y", "positions": [{"company_name": "Acme"}]}),
    );
    let acme = made["positions"][0]["company_id"].clone();
    check(
        &s,
        create(json!({"name": "z", "positions": [{"company_name": "Initech"}, {}]})),
        Expect::invalid("title"),
    );
    let again = new_person(
        &s,
        json!({"name": "w", "positions": [{"company_name": "acme"}]}),
    );
    assert_eq!(again["positions"][0]["company_id"], acme);
}

#[test]
fn rows_are_changed_by_id_added_removed_and_kept() {
    let s = Core::start();
    let ada = new_person(
        &s,
        json!({"name": "Ada", "email_addresses": [
            {"address": "a@home.org", "label": "home"},
            {"address": "a@work.org", "label": "work"},
        ], "phone_numbers": [{"number": "111"}]}),
    );
    let person = id(&ada);
    let home = id(&ada["email_addresses"][0]);
    let work = id(&ada["email_addresses"][1]);
    s.advance(5);
    let changed = patch_person(
        &s,
        &person,
        json!({"email_addresses": [
            {"id": work, "label": "office"},
            {"address": "a@new.org"},
            {"id": home, "_destroy": true},
            {"address": "", "_destroy": true},
        ]}),
    )
    .expect(200)
    .data()
    .clone();
    let emails = changed["email_addresses"].as_array().unwrap();
    let said: Vec<(&str, &Value)> = emails
        .iter()
        .map(|e| (e["address"].as_str().unwrap(), &e["label"]))
        .collect();
    assert_eq!(
        said,
        [
            ("a@work.org", &json!("office")),
            ("a@new.org", &Value::Null)
        ]
    );
    // The changed row and the person have a new updated_at; the kept
    // phone number and the created_at do not.
    assert_ne!(
        emails[0]["updated_at"],
        ada["email_addresses"][1]["updated_at"]
    );
    assert_eq!(
        emails[0]["created_at"],
        ada["email_addresses"][1]["created_at"]
    );
    assert_ne!(changed["updated_at"], ada["updated_at"]);
    assert_eq!(changed["phone_numbers"], ada["phone_numbers"]);
    // Removing a row already gone is fine.
    patch_person(
        &s,
        &person,
        json!({"email_addresses": [{"id": home, "_destroy": true}]}),
    )
    .expect(200);
    // A PATCH that changes nothing keeps updated_at.
    s.advance(5);
    let same = patch_person(
        &s,
        &person,
        json!({"name": "Ada", "email_addresses": [{"id": work, "label": "office"}]}),
    )
    .expect(200)
    .data()
    .clone();
    assert_eq!(same["updated_at"], changed["updated_at"]);
}

#[test]
fn a_row_of_another_person_or_sent_twice_is_refused() {
    let s = Core::start();
    let ada = new_person(
        &s,
        json!({"name": "Ada", "phone_numbers": [{"number": "1"}]}),
    );
    let bob = new_person(
        &s,
        json!({"name": "Bob", "phone_numbers": [{"number": "2"}]}),
    );
    let bobs = id(&bob["phone_numbers"][0]);
    let adas = id(&ada["phone_numbers"][0]);
    let cases = [
        (
            json!({"phone_numbers": [{"id": bobs, "number": "3"}]}),
            "phone_numbers[0].id",
        ),
        (
            json!({"phone_numbers": [{"id": adas, "number": "3"}, {"id": adas, "number": "4"}]}),
            "phone_numbers[1].id",
        ),
        (
            json!({"phone_numbers": [{"id": "not-an-id"}]}),
            "phone_numbers[0].id",
        ),
        (
            json!({"phone_numbers": [{"id": adas, "_destroy": "yes"}]}),
            "phone_numbers[0]._destroy",
        ),
    ];
    for (fields, detail) in cases {
        check(&s, change(&id(&ada), fields), Expect::invalid(detail));
    }
    assert_eq!(get_person(&s, &id(&ada)), ada, "nothing changed");
}

/// Issue 8, "What must show": a PATCH of many rows whose fifth row is bad
/// changes nothing, the four good rows and the name included.
#[test]
fn a_failed_multi_row_patch_changes_nothing() {
    let s = Core::start();
    let ada = new_person(
        &s,
        json!({"name": "Ada", "positions": [{"title": "Clerk"}]}),
    );
    let person = id(&ada);
    check(
        &s,
        change(
            &person,
            json!({
                "name": "Ada Lovelace",
                "key_dates": [
                    {"kind": "anniversary", "day": 8, "month": 7, "year": 1835},
                    {"kind": "first_met", "day": 5, "month": 6},
                    {"kind": "name_day", "day": 1, "month": 1},
                    {"kind": "memorial", "day": 27, "month": 11, "year": 1852},
                    {"kind": "birthday", "day": 30, "month": 2},
                ],
                "positions": [{"company_name": "Brand New Ltd"}],
            }),
        ),
        Expect::invalid("key_dates[4].day"),
    );
    assert_eq!(get_person(&s, &person), ada);
    let companies: Vec<Value> = all(&s, "/people")
        .iter()
        .flat_map(|p| p["positions"].as_array().cloned().unwrap_or_default())
        .filter(|p| !p["company_id"].is_null())
        .collect();
    assert!(companies.is_empty(), "{companies:?}");
}

#[test]
fn key_dates_take_numbers_as_strings_and_one_birthday() {
    let s = Core::start();
    let ada = new_person(
        &s,
        json!({"name": "Ada", "key_dates": [
            {"kind": "birthday", "day": " 29 ", "month": "2", "year": ""},
            {"kind": "other", "label": "Name  day", "day": 3, "month": 3},
            {"kind": "anniversary"},
        ]}),
    );
    let dates = ada["key_dates"].as_array().unwrap();
    assert_eq!(dates.len(), 2, "the empty new row is ignored: {dates:?}");
    assert_eq!(
        (&dates[0]["day"], &dates[0]["month"], &dates[0]["year"]),
        (&json!(29), &json!(2), &Value::Null)
    );
    assert_eq!(dates[1]["label"], "Name day");
    let person = id(&ada);
    // A second birthday is refused; the first made another kind in an
    // earlier request frees the place.
    check(
        &s,
        change(
            &person,
            json!({"key_dates": [{"kind": "birthday", "day": 1, "month": 1}]}),
        ),
        Expect::invalid("key_dates[0].kind"),
    );
    let first = id(&dates[0]);
    patch_person(
        &s,
        &person,
        json!({"key_dates": [{"id": first, "kind": "anniversary"}]}),
    )
    .expect(200);
    patch_person(
        &s,
        &person,
        json!({"key_dates": [{"kind": "birthday", "day": 1, "month": 1}]}),
    )
    .expect(200);
    // A year given to 29 February needs a leap year.
    check(
        &s,
        change(&person, json!({"key_dates": [{"id": first, "year": 2023}]})),
        Expect::invalid("key_dates[0].day"),
    );
    patch_person(
        &s,
        &person,
        json!({"key_dates": [{"id": first, "year": "2024"}]}),
    )
    .expect(200);
}

#[test]
fn a_social_profile_keeps_its_detected_platform_through_a_get_sent_back() {
    let s = Core::start();
    let ada = new_person(
        &s,
        json!({"name": "Ada", "social_profiles": [
            {"url": "https://twitter.com/ada"},
            {"url": "ada.example.org", "platform": "github"},
            {"url": "https://mastodon.social/@ada", "platform": null},
        ]}),
    );
    let profiles = ada["social_profiles"].as_array().unwrap();
    let said: Vec<(&str, &str, bool)> = profiles
        .iter()
        .map(|p| {
            (
                p["url"].as_str().unwrap(),
                p["platform"].as_str().unwrap(),
                p["platform_detected"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        said,
        [
            ("https://twitter.com/ada", "x", true),
            ("https://ada.example.org", "github", false),
            ("https://mastodon.social/@ada", "mastodon", true),
        ]
    );
    // The GET sent back as a PATCH changes nothing.
    let back: Vec<Value> = profiles
        .iter()
        .map(|p| json!({"id": p["id"], "url": p["url"], "platform": p["platform"], "label": p["label"]}))
        .collect();
    let same = patch_person(&s, &id(&ada), json!({"social_profiles": back})).expect(200);
    assert_eq!(same.data(), &ada);
    // A new link of a detected profile is detected again.
    let moved = patch_person(
        &s,
        &id(&ada),
        json!({"social_profiles": [{"id": profiles[0]["id"], "url": "github.com/ada"}]}),
    )
    .expect(200);
    assert_eq!(moved.data()["social_profiles"][0]["platform"], "github");
}

#[test]
fn a_company_no_position_names_is_deleted_with_a_deletion_record() {
    let s = Core::start();
    let ada = new_person(
        &s,
        json!({"name": "Ada", "positions": [{"title": "Analyst", "company_name": "Acme"}]}),
    );
    let bob = new_person(
        &s,
        json!({"name": "Bob", "positions": [{"company_name": "acme"}]}),
    );
    let acme = ada["positions"][0]["company_id"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(bob["positions"][0]["company_id"], acme);
    // Ada leaves: Bob still names it.
    let position = id(&ada["positions"][0]);
    let left = patch_person(
        &s,
        &id(&ada),
        json!({"positions": [{"id": position, "company_name": null}]}),
    )
    .expect(200);
    assert_eq!(left.data()["positions"][0]["company_id"], Value::Null);
    assert_eq!(left.data()["positions"][0]["title"], "Analyst");
    assert!(deletions(&s).is_empty());
    // Bob's position goes: no one names Acme, and it is deleted.
    let bobs = id(&bob["positions"][0]);
    patch_person(
        &s,
        &id(&bob),
        json!({"positions": [{"id": bobs, "_destroy": true}]}),
    )
    .expect(200);
    let mut recorded = deletions(&s);
    recorded.sort();
    assert_eq!(
        recorded,
        [
            ("company".to_owned(), acme.clone()),
            ("position".to_owned(), bobs)
        ]
    );
    check(
        &s,
        change(&id(&bob), json!({"positions": [{"company_id": acme}]})),
        Expect::invalid("company_id"),
    );
    // A title and company cleared together leave nothing: refused.
    check(
        &s,
        change(
            &id(&ada),
            json!({"positions": [{"id": position, "title": null}]}),
        ),
        Expect::invalid("title"),
    );
}

#[test]
fn the_listing_orders_filters_and_pages() {
    let s = Core::start();
    let cora = new_person(&s, json!({"name": "cora", "relationships": ["sibling"]}));
    s.advance(1);
    let abe = new_person(&s, json!({"name": "Abe", "relationships": ["friend"]}));
    s.advance(1);
    let bea = new_person(
        &s,
        json!({"name": "Bea", "relationships": ["parent", "friend"]}),
    );
    s.advance(1);
    patch_person(&s, &id(&abe), json!({"name": "Abe Z"})).expect(200);
    let names = |path: &str| -> Vec<String> {
        all(&s, path)
            .iter()
            .map(|p| p["name"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(names("/people"), ["Abe Z", "Bea", "cora"]);
    assert_eq!(
        names("/people?order=name&direction=desc"),
        ["cora", "Bea", "Abe Z"]
    );
    assert_eq!(names("/people?order=created_at"), ["cora", "Abe Z", "Bea"]);
    assert_eq!(names("/people?order=id"), ["cora", "Abe Z", "Bea"]);
    assert_eq!(names("/people?order=updated_at"), ["cora", "Bea", "Abe Z"]);
    assert_eq!(names("/people?relationship=friend"), ["Abe Z", "Bea"]);
    assert_eq!(names("/people?relationship=family"), ["Bea", "cora"]);
    assert_eq!(
        names("/people?relationship=family&order=created_at"),
        ["cora", "Bea"]
    );
    assert_eq!(names("/people?relationship=spouse"), Vec::<String>::new());
    // Pages of one, with a count.
    let first = s.get("/people?limit=1&count=true").expect(200);
    assert_eq!(first.body["meta"]["total_count"], 3);
    let cursor = first.body["meta"]["next_cursor"]
        .as_str()
        .unwrap()
        .to_owned();
    let second = s
        .get(&format!("/people?limit=1&cursor={cursor}"))
        .expect(200);
    assert_eq!(second.data()[0]["name"], "Bea");
    // A cursor of the unfiltered listing is refused by a filtered one.
    check(
        &s,
        Call::get(format!("/people?relationship=friend&cursor={cursor}")),
        Expect::bad_param(Some("cursor")),
    );
    for query in [
        "relationship=enemy",
        "relationship=friends",
        "order=age",
        "limit=0",
    ] {
        check(
            &s,
            Call::get(format!("/people?{query}")),
            Expect::error(400, "invalid_parameter", None),
        );
    }
    let _ = (cora, bea);
}

#[test]
fn an_unknown_person_is_404() {
    let s = Core::start();
    for call in [
        Call::get(format!("/people/{UNKNOWN}")),
        change(UNKNOWN, json!({"name": "x"})),
        Call::get("/people/not-an-id"),
    ] {
        check(&s, call, Expect::error(404, "not_found", None));
    }
}

/// Document 3, "Person delete and restore": gone at once with a deletion
/// record for the person and each row, the tasks homed in the person
/// taken along and out of every listing and count; back within 20 seconds;
/// permanent after.
#[test]
fn delete_restore_and_the_permanent_step() {
    use crate::common::fixtures::{get_task, new_task, titles};
    let s = Core::start();
    let ada = new_person(
        &s,
        json!({"name": "Ada",
            "key_dates": [{"kind": "birthday", "day": 10, "month": 12}],
            "email_addresses": [{"address": "ada@example.org"}],
            "phone_numbers": [{"number": "1"}],
            "social_profiles": [{"url": "github.com/ada"}],
            "positions": [{"title": "Analyst", "company_name": "Acme"}]}),
    );
    let person = id(&ada);
    let acme = ada["positions"][0]["company_id"]
        .as_str()
        .unwrap()
        .to_owned();
    let task = new_task(&s, json!({"title": "Call Ada", "person_id": person}));
    assert_eq!(task["person_id"], person);
    let home = format!("/tasks?person_id={person}");
    assert_eq!(titles(&s, &home), ["Call Ada"]);
    let before_counts = s.get("/task_counts").data().clone();

    s.advance(1);
    s.delete(&format!("/people/{person}")).expect(204);
    check(
        &s,
        Call::get(format!("/people/{person}")),
        Expect::error(404, "not_found", None),
    );
    check(
        &s,
        Call::delete(format!("/people/{person}")),
        Expect::error(404, "not_found", None),
    );
    check(
        &s,
        change(&person, json!({"name": "x"})),
        Expect::error(404, "not_found", None),
    );
    assert!(all(&s, "/people").is_empty());
    assert!(all(&s, "/people?relationship=family").is_empty());
    s.get(&format!("/tasks/{}", id(&task)))
        .expect_error(404, "not_found", None);
    assert!(titles(&s, "/tasks").is_empty());
    // A deleted person is no home for a task.
    check(
        &s,
        Call::post(
            "/tasks",
            json!({"task": {"title": "x", "person_id": person}}),
        ),
        Expect::invalid("person_id"),
    );
    let mut recorded = deletions(&s);
    recorded.sort();
    let mut expected: Vec<(String, String)> = vec![
        ("person".into(), person.clone()),
        ("task".into(), id(&task)),
        ("key_date".into(), id(&ada["key_dates"][0])),
        ("email_address".into(), id(&ada["email_addresses"][0])),
        ("phone_number".into(), id(&ada["phone_numbers"][0])),
        ("social_profile".into(), id(&ada["social_profiles"][0])),
        ("position".into(), id(&ada["positions"][0])),
    ];
    expected.sort();
    assert_eq!(recorded, expected);

    // Within 20 seconds: everything returns, the deletion records go.
    s.advance(19);
    let back = send_restore(&s, &person).expect(200).data().clone();
    assert_eq!(back["positions"], ada["positions"]);
    assert_eq!(back["key_dates"], ada["key_dates"]);
    assert_ne!(back["updated_at"], ada["updated_at"]);
    assert!(deletions(&s).is_empty(), "{:?}", deletions(&s));
    assert_eq!(get_task(&s, &id(&task))["person_id"], person);
    assert_eq!(titles(&s, &home), ["Call Ada"]);
    assert_eq!(s.get("/task_counts").data(), &before_counts);
    // Restoring a live person returns it as it is.
    assert_eq!(send_restore(&s, &person).expect(200).data(), &back);

    // Deleted again and 20 seconds pass: permanent. The company only Ada
    // named goes too.
    s.delete(&format!("/people/{person}")).expect(204);
    s.advance(21);
    send_restore(&s, &person).expect_error(404, "not_found", None);
    let types: Vec<String> = deletions(&s).into_iter().map(|(t, _)| t).collect();
    assert!(types.contains(&"company".to_owned()), "{types:?}");
    assert!(deletions(&s).contains(&("company".to_owned(), acme)));
    check(
        &s,
        Call::post(
            "/tasks",
            json!({"task": {"title": "x", "person_id": person}}),
        ),
        Expect::invalid("person_id"),
    );
}

fn send_restore(s: &Core, person: &str) -> Reply {
    crate::common::send(s.req("POST", &format!("/people/{person}/restoration")))
}

#[test]
fn a_row_removed_by_a_patch_leaves_a_deletion_record() {
    let s = Core::start();
    let ada = new_person(
        &s,
        json!({"name": "Ada", "key_dates": [{"kind": "anniversary", "day": 1, "month": 2}]}),
    );
    let date = id(&ada["key_dates"][0]);
    patch_person(
        &s,
        &id(&ada),
        json!({"key_dates": [{"id": date, "_destroy": true}]}),
    )
    .expect(200);
    assert_eq!(deletions(&s), [("key_date".to_owned(), date)]);
}

#[test]
fn companies_are_listed_by_name_and_found_by_prefix() {
    let s = Core::start();
    for company in ["Initech", "acme", "Acme Rockets", "Globex"] {
        new_person(
            &s,
            json!({"name": format!("Worker at {company}"), "positions": [{"company_name": company}]}),
        );
    }
    let names = |path: &str| -> Vec<String> {
        all(&s, path)
            .iter()
            .map(|c| c["name"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(
        names("/companies"),
        ["acme", "Acme Rockets", "Globex", "Initech"]
    );
    assert_eq!(names("/companies?q=ACME"), ["acme", "Acme Rockets"]);
    assert_eq!(names("/companies?q=acme%20r"), ["Acme Rockets"]);
    assert_eq!(names("/companies?q=zzz"), Vec::<String>::new());
    assert_eq!(names("/companies?order=name&direction=desc")[0], "Initech");
    let acme = &all(&s, "/companies?q=acme")[0];
    assert_eq!(
        s.get(&format!("/companies/{}", id(acme)))
            .expect(200)
            .data(),
        acme
    );
    check(
        &s,
        Call::get(format!("/companies/{UNKNOWN}")),
        Expect::error(404, "not_found", None),
    );
    for query in [
        "q=a&order=id",
        "order=size",
        "q=a&updated_since=2026-01-01T00:00:00Z",
    ] {
        check(
            &s,
            Call::get(format!("/companies?{query}")),
            Expect::error(400, "invalid_parameter", None),
        );
    }
}

/// `GET /upcoming_key_dates`: from today through `days` days, soonest
/// first, with `years` when the year is known; 29 February on 1 March in
/// a year without one. Today is 2026-03-10 (UTC).
#[test]
fn upcoming_key_dates_fall_in_the_window() {
    let s = Core::start();
    let ada = new_person(
        &s,
        json!({"name": "Ada", "relationships": ["friend"], "key_dates": [
            {"kind": "birthday", "day": 10, "month": 3, "year": 1990},
            {"kind": "anniversary", "day": 9, "month": 3},
            {"kind": "first_met", "day": 9, "month": 4, "year": 2020},
        ]}),
    );
    new_person(
        &s,
        json!({"name": "Leap", "key_dates": [{"kind": "birthday", "day": 29, "month": 2, "year": 2000}]}),
    );
    new_person(
        &s,
        json!({"name": "Year end", "key_dates": [{"kind": "other", "label": "Hogmanay", "day": 31, "month": 12}]}),
    );
    let said = |query: &str| -> Vec<(String, String, Option<i64>)> {
        let page = s.get(&format!("/upcoming_key_dates{query}")).expect(200);
        page.data()
            .as_array()
            .unwrap()
            .iter()
            .map(|i| {
                (
                    i["date"].as_str().unwrap().to_owned(),
                    i["person"]["name"].as_str().unwrap().to_owned(),
                    i["years"].as_i64(),
                )
            })
            .collect()
    };
    // The default 30 days: today's birthday (36 years), not yesterday's
    // anniversary, not 9 April (30 days on is 9 April: included).
    assert_eq!(
        said(""),
        [
            ("2026-03-10".to_owned(), "Ada".to_owned(), Some(36)),
            ("2026-04-09".to_owned(), "Ada".to_owned(), Some(6)),
        ]
    );
    assert_eq!(
        said("?days=0"),
        [("2026-03-10".to_owned(), "Ada".to_owned(), Some(36))]
    );
    // A year ahead: the leap birthday falls on 1 March 2027, the
    // anniversary with no year has no `years`.
    let year = said("?days=366");
    assert_eq!(year.len(), 5, "{year:?}");
    assert!(
        year.contains(&("2027-03-01".to_owned(), "Leap".to_owned(), Some(27))),
        "{year:?}"
    );
    assert!(
        year.contains(&("2027-03-09".to_owned(), "Ada".to_owned(), None)),
        "{year:?}"
    );
    assert!(
        year.contains(&("2026-12-31".to_owned(), "Year end".to_owned(), None)),
        "{year:?}"
    );
    let page = s.get("/upcoming_key_dates?days=366&limit=2").expect(200);
    assert_eq!(page.data().as_array().unwrap().len(), 2);
    assert_eq!(page.body["meta"]["has_more"], true);
    assert_eq!(page.data()[0]["person"]["relationships"], json!(["friend"]));
    assert_eq!(page.data()[0]["key_date"]["kind"], "birthday");
    for query in ["days=367", "days=-1", "days=soon", "limit=0"] {
        check(
            &s,
            Call::get(format!("/upcoming_key_dates?{query}")),
            Expect::error(400, "invalid_parameter", None),
        );
    }
    // A deleted person's dates are not upcoming.
    s.delete(&format!("/people/{}", id(&ada))).expect(204);
    assert!(said("").is_empty());
}

/// `GET /people/{id}/meetings`: the events of the calendar feeds that name
/// the person; with no feed in the store (the calendar comes later), none.
#[test]
fn meetings_take_a_limit_and_need_a_live_person() {
    let s = Core::start();
    let ada = new_person(&s, json!({"name": "Ada"}));
    let page = s
        .get(&format!("/people/{}/meetings?limit=5", id(&ada)))
        .expect(200);
    assert_eq!(
        page.body,
        json!({"data": [], "meta": {"limit": 5, "has_more": false}})
    );
    check(
        &s,
        Call::get(format!("/people/{}/meetings?limit=soon", id(&ada))),
        Expect::bad_param(Some("limit")),
    );
    check(
        &s,
        Call::get(format!("/people/{UNKNOWN}/meetings")),
        Expect::error(404, "not_found", None),
    );
}

/// Ours: `q` finds people by the start of their name (ignoring case), and
/// `person_id` keeps one person's upcoming key dates; the CLI names people
/// and shows one without reading everyone.
#[test]
fn q_finds_people_by_name_and_person_id_keeps_one_persons_dates() {
    let s = Core::start();
    let ada = new_person(
        &s,
        json!({"name": "Ada Lovelace", "key_dates": [{"kind": "birthday", "day": 11, "month": 3}]}),
    );
    new_person(
        &s,
        json!({"name": "adam", "relationships": ["friend"], "key_dates": [{"kind": "birthday", "day": 12, "month": 3}]}),
    );
    new_person(&s, json!({"name": "Bob"}));
    let names = |path: &str| -> Vec<String> {
        all(&s, path)
            .iter()
            .map(|p| p["name"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(names("/people?q=ADA"), ["Ada Lovelace", "adam"]);
    assert_eq!(names("/people?q=ada%20l"), ["Ada Lovelace"]);
    assert_eq!(names("/people?q=%20"), ["Ada Lovelace", "adam", "Bob"]);
    for query in [
        "q=a&relationship=friend",
        "q=a&order=id",
        "q=a&updated_since=2026-01-01T00:00:00Z",
    ] {
        check(
            &s,
            Call::get(format!("/people?{query}")),
            Expect::error(400, "invalid_parameter", None),
        );
    }
    let page = s
        .get(&format!("/upcoming_key_dates?person_id={}", id(&ada)))
        .expect(200);
    let items = page.data().as_array().unwrap();
    assert_eq!(items.len(), 1);
    assert_eq!(items[0]["person"]["name"], "Ada Lovelace");
    check(
        &s,
        Call::get(format!("/upcoming_key_dates?person_id={UNKNOWN}")),
        Expect::error(404, "not_found", None),
    );
    check(
        &s,
        Call::get("/upcoming_key_dates?person_id=nope"),
        Expect::bad_param(Some("person_id")),
    );
}
