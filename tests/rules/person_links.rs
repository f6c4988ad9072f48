//! Document 3, "PersonLink" and "Person links": one-way storage, inverse
//! and symmetric roles, one link of each role per pair, `new_person_name`,
//! connections on both people, delete, and what a person's delete and
//! restoration do to its links.

use serde_json::{Value, json};

use crate::common::fixtures::{UNKNOWN, all, id};
use crate::common::{Call, Core, Expect, Reply, check, send};

fn person(s: &Core, name: &str) -> String {
    id(s.post("/people", json!({"person": {"name": name}}))
        .expect(201)
        .data())
}

fn link(s: &Core, fields: Value) -> Reply {
    s.post("/person_links", json!({ "person_link": fields }))
}

fn create(fields: Value) -> Call {
    Call::post("/person_links", json!({ "person_link": fields }))
}

fn get_person(s: &Core, person: &str) -> Value {
    s.get(&format!("/people/{person}"))
        .expect(200)
        .data()
        .clone()
}

/// The vocabulary's roles: (key, inverse key, symmetric).
fn roles(s: &Core) -> Vec<(String, String, bool)> {
    s.get("/vocabulary").data()["person_links"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["key"].as_str().unwrap().to_owned(),
                r["inverse_key"].as_str().unwrap().to_owned(),
                r["symmetric"].as_bool().unwrap(),
            )
        })
        .collect()
}

/// Every role, both ways round: stored one way, the same link whichever
/// way it is sent, and each person sees the other in its role.
#[test]
fn every_role_is_stored_one_way_whichever_way_it_is_sent() {
    let s = Core::start();
    for (key, inverse, symmetric) in roles(&s) {
        let a = person(&s, "A");
        let b = person(&s, "B");
        // "A is KEY of B".
        let made = link(
            &s,
            json!({"person_id": a, "kind": key, "related_person_id": b}),
        )
        .expect(201)
        .data()
        .clone();
        // The same link sent the other way round is a duplicate.
        check(
            &s,
            create(json!({"person_id": b, "kind": inverse, "related_person_id": a})),
            Expect::invalid("kind"),
        );
        let stored = (
            made["person_id"].as_str().unwrap().to_owned(),
            made["kind"].as_str().unwrap().to_owned(),
            made["related_person_id"].as_str().unwrap().to_owned(),
        );
        if symmetric {
            assert_eq!(key, inverse);
            let (lo, hi) = if a < b { (&a, &b) } else { (&b, &a) };
            assert_eq!(stored, (lo.clone(), key.clone(), hi.clone()), "{key}");
        } else {
            assert!(
                stored == (a.clone(), key.clone(), b.clone())
                    || stored == (b.clone(), inverse.clone(), a.clone()),
                "{key}: {stored:?}"
            );
        }
        // On B's page, A has the role KEY; on A's, B has its inverse.
        let on_b = &get_person(&s, &b)["connections"][0];
        assert_eq!(
            (&on_b["person_id"], &on_b["kind"]),
            (&json!(a), &json!(key)),
            "{key}"
        );
        let on_a = &get_person(&s, &a)["connections"][0];
        assert_eq!(
            (&on_a["person_id"], &on_a["kind"]),
            (&json!(b), &json!(inverse)),
            "{key}"
        );
        assert_eq!(on_a["id"], made["id"]);
    }
}

#[test]
fn linking_b_as_child_of_a_comes_back_as_a_is_bs_parent() {
    let s = Core::start();
    let a = person(&s, "Ada");
    let b = person(&s, "Byron");
    let made = link(
        &s,
        json!({"person_id": b, "kind": "child", "related_person_id": a, "note": "  eldest  "}),
    )
    .expect(201)
    .data()
    .clone();
    assert_eq!(
        (
            &made["person_id"],
            &made["kind"],
            &made["related_person_id"],
            &made["note"]
        ),
        (&json!(a), &json!("parent"), &json!(b), &json!("eldest"))
    );
    // Another role between the same two people is fine; a second of the
    // same, either way round, is not.
    link(
        &s,
        json!({"person_id": a, "kind": "friend", "related_person_id": b}),
    )
    .expect(201);
    check(
        &s,
        create(json!({"person_id": a, "kind": "parent", "related_person_id": b})),
        Expect::invalid("kind"),
    );
    // Changing it is stored one way too: the people swap.
    let changed = s
        .patch(
            &format!("/person_links/{}", id(&made)),
            json!({"person_link": {"kind": "parent", "person_id": b, "related_person_id": a}}),
        )
        .expect(200)
        .data()
        .clone();
    assert_eq!(
        (
            &changed["person_id"],
            &changed["kind"],
            &changed["related_person_id"]
        ),
        (&json!(b), &json!("parent"), &json!(a))
    );
    assert_eq!(changed["note"], "eldest");
    // A note sent blank is null.
    let noted = s
        .patch(
            &format!("/person_links/{}", id(&made)),
            json!({"person_link": {"note": "  "}}),
        )
        .expect(200);
    assert_eq!(noted.data()["note"], Value::Null);
}

#[test]
fn bad_links_are_refused_and_make_nothing() {
    let s = Core::start();
    let a = person(&s, "Ada");
    let b = person(&s, "Bob");
    let cases = [
        (
            json!({"person_id": a, "kind": "friend", "related_person_id": a}),
            Expect::invalid("related_person_id"),
        ),
        (
            json!({"person_id": a, "kind": "nemesis", "related_person_id": b}),
            Expect::invalid("kind"),
        ),
        (
            json!({"person_id": a, "related_person_id": b}),
            Expect::invalid("kind"),
        ),
        (
            json!({"person_id": UNKNOWN, "kind": "friend", "related_person_id": b}),
            Expect::invalid("person_id"),
        ),
        (
            json!({"person_id": a, "kind": "friend", "related_person_id": UNKNOWN}),
            Expect::invalid("related_person_id"),
        ),
        (
            json!({"kind": "friend", "related_person_id": b}),
            Expect::invalid("person_id"),
        ),
        (
            json!({"person_id": a, "kind": "friend"}),
            Expect::invalid("related_person_id"),
        ),
        (
            json!({"person_id": "nope", "kind": "friend", "related_person_id": b}),
            Expect::invalid("person_id"),
        ),
        (
            json!({"person_id": a, "new_person_name": "Cy", "kind": "friend", "related_person_id": b}),
            Expect::bad_param(Some("new_person_name")),
        ),
        (
            json!({"new_person_name": 7, "kind": "friend", "related_person_id": b}),
            Expect::bad_param(Some("new_person_name")),
        ),
        (
            json!({"new_person_name": "  ", "kind": "friend", "related_person_id": b}),
            Expect::invalid("new_person_name"),
        ),
        (
            json!({"new_person_name": "Cy", "kind": "friend", "related_person_id": UNKNOWN}),
            Expect::invalid("related_person_id"),
        ),
        (
            json!({"new_person_name": "Cy", "kind": "nemesis", "related_person_id": b}),
            Expect::invalid("kind"),
        ),
    ];
    for (fields, expected) in cases {
        check(&s, create(fields), expected);
    }
    // A rejected name comes with the link's other errors.
    let both = check(
        &s,
        create(json!({"new_person_name": "", "kind": "nemesis", "related_person_id": b})),
        Expect::invalid("new_person_name"),
    );
    assert!(
        both.detail_keys().iter().any(|k| k == "kind"),
        "{}",
        both.body
    );
    assert!(all(&s, "/person_links").is_empty());
    assert_eq!(all(&s, "/people").len(), 2, "no person was made");
    check(
        &s,
        Call::patch(
            format!("/person_links/{UNKNOWN}"),
            json!({"person_link": {"note": "x"}}),
        ),
        Expect::error(404, "not_found", None),
    );
}

#[test]
fn new_person_name_makes_the_person_with_the_link() {
    let s = Core::start();
    let a = person(&s, "Ada");
    let made = link(
        &s,
        json!({"new_person_name": "  Cy   Twombly ", "kind": "child", "related_person_id": a}),
    )
    .expect(201)
    .data()
    .clone();
    let people = all(&s, "/people");
    let cy = people
        .iter()
        .find(|p| p["name"] == "Cy Twombly")
        .expect("Cy was made");
    // "Cy is Ada's child" is stored as "Ada is Cy's parent".
    assert_eq!(
        (&made["person_id"], &made["kind"]),
        (&json!(a), &json!("parent"))
    );
    assert_eq!(made["related_person_id"], cy["id"]);
    assert_eq!(cy["connections"][0]["kind"], "parent");
    // A change may not make a person.
    check(
        &s,
        Call::patch(
            format!("/person_links/{}", id(&made)),
            json!({"person_link": {"new_person_name": "Dee"}}),
        ),
        Expect::bad_param(Some("new_person_name")),
    );
}

#[test]
fn the_listing_and_delete() {
    let s = Core::start();
    let a = person(&s, "Ada");
    let b = person(&s, "Bob");
    let c = person(&s, "Cy");
    let ab = id(link(
        &s,
        json!({"person_id": a, "kind": "friend", "related_person_id": b}),
    )
    .expect(201)
    .data());
    s.advance(1);
    let bc = id(link(
        &s,
        json!({"person_id": b, "kind": "colleague", "related_person_id": c}),
    )
    .expect(201)
    .data());
    let ids = |path: &str| -> Vec<String> { all(&s, path).iter().map(id).collect() };
    assert_eq!(ids("/person_links"), [ab.clone(), bc.clone()]);
    assert_eq!(
        ids(&format!("/person_links?person_id={b}")),
        [ab.clone(), bc.clone()]
    );
    assert_eq!(
        ids(&format!("/person_links?person_id={c}")),
        vec![bc.clone()]
    );
    assert_eq!(
        ids("/person_links?order=updated_at&direction=desc"),
        [bc.clone(), ab.clone()]
    );
    check(
        &s,
        Call::get("/person_links?person_id=nope"),
        Expect::bad_param(Some("person_id")),
    );

    let before = get_person(&s, &a);
    s.advance(1);
    s.delete(&format!("/person_links/{ab}")).expect(204);
    check(
        &s,
        Call::get(format!("/person_links/{ab}")),
        Expect::error(404, "not_found", None),
    );
    check(
        &s,
        Call::delete(format!("/person_links/{ab}")),
        Expect::error(404, "not_found", None),
    );
    let after = get_person(&s, &a);
    assert_eq!(after["connections"], json!([]));
    assert_ne!(after["updated_at"], before["updated_at"]);
    let deletions: Vec<(Value, Value)> = all(&s, "/deletions")
        .iter()
        .map(|d| (d["type"].clone(), d["id"].clone()))
        .collect();
    assert_eq!(deletions, [(json!("person_link"), json!(ab))]);
}

/// Document 3, "Person delete and restore": a person's links go with it
/// (a deletion record each; off the other person), and come back on
/// restoration.
#[test]
fn a_persons_links_follow_its_delete_and_restoration() {
    let s = Core::start();
    let a = person(&s, "Ada");
    let b = person(&s, "Bob");
    let made = id(link(
        &s,
        json!({"person_id": a, "kind": "sibling", "related_person_id": b}),
    )
    .expect(201)
    .data());
    s.advance(1);
    s.delete(&format!("/people/{a}")).expect(204);
    assert_eq!(get_person(&s, &b)["connections"], json!([]));
    check(
        &s,
        Call::get(format!("/person_links/{made}")),
        Expect::error(404, "not_found", None),
    );
    assert!(all(&s, "/person_links").is_empty());
    // The count is of the links shown, not of those stored.
    let counted = s.get("/person_links?count=true").expect(200).body["meta"]["total_count"].clone();
    assert_eq!(counted, json!(0));
    let types: Vec<Value> = all(&s, "/deletions")
        .iter()
        .map(|d| d["type"].clone())
        .collect();
    assert!(types.contains(&json!("person_link")), "{types:?}");
    s.advance(5);
    send(s.req("POST", &format!("/people/{a}/restoration"))).expect(200);
    assert_eq!(get_person(&s, &b)["connections"][0]["id"], made);
    assert_eq!(get_person(&s, &a)["connections"][0]["person_id"], b);
    assert_eq!(all(&s, "/person_links").len(), 1);
    assert!(all(&s, "/deletions").is_empty());
}
