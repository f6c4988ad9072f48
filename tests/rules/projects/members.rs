//! Document 2, "ProjectMember" and "Project members", with the team's
//! decisions (DECISIONS-projects.md, "Members"): create with `person_id`
//! or `new_person_name` (one transaction), the 400s and 422s, roles,
//! changes that touch only the role, permanent removal, the listing, and
//! what a person's delete and restoration do to memberships (document 3,
//! "Person delete and restore").

use serde_json::{Value, json};

use super::{add_member, assert_listed, get_project, project};
use crate::common::fixtures::{
    UNKNOWN, all, deletions, id, ids, keys, now_string, person, records, with_updated_at,
};
use crate::common::{Call, Core, Expect, Reply, check, send};

/// `POST /project_members` with `{project_member: fields}`.
fn post_member(s: &Core, fields: Value) -> Reply {
    s.post("/project_members", json!({ "project_member": fields }))
}

/// `PATCH /project_members/{id}` with `{project_member: fields}`.
fn patch_member(s: &Core, member: &str, fields: Value) -> Reply {
    s.patch(
        &format!("/project_members/{member}"),
        json!({ "project_member": fields }),
    )
}

/// `GET /project_members/{id}`, which must be 200; the record.
#[track_caller]
fn get_member(s: &Core, member: &str) -> Value {
    s.get(&format!("/project_members/{member}"))
        .expect(200)
        .data()
        .clone()
}

/// `POST /project_members` with `{project_member: fields}`, as a table's case.
fn create(fields: Value) -> Call {
    Call::post("/project_members", json!({ "project_member": fields }))
}

/// `PATCH /project_members/{id}` with `{project_member: fields}`, as a table's case.
fn change(member: &str, fields: Value) -> Call {
    Call::patch(
        format!("/project_members/{member}"),
        json!({ "project_member": fields }),
    )
}

/// A 400 for a body field: `invalid_parameter` or `invalid_json`, with
/// `detail` among the details' keys.
fn bad_body(detail: &str) -> Expect<'_> {
    Expect::any_of(400, &["invalid_parameter", "invalid_json"], detail)
}

/// The project's `members` array: (member id, person id, role).
fn members_of(s: &Core, project: &str) -> Vec<(String, String, Value)> {
    get_project(s, project)["members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                id(m),
                m["person_id"].as_str().unwrap().to_owned(),
                m["role"].clone(),
            )
        })
        .collect()
}

/// The project's events as (kind, person_id, role).
fn events_of(s: &Core, project: &str) -> Vec<(String, Value, Value)> {
    all(s, &format!("/project_events?project_id={project}"))
        .iter()
        .map(|e| {
            (
                e["kind"].as_str().unwrap().to_owned(),
                e["person_id"].clone(),
                e["role"].clone(),
            )
        })
        .collect()
}

// ---------------------------------------------------------------- create

/// "ProjectMember": a member made with `person_id` has exactly its fields,
/// reads back the same, shows on the project's `members`, and gives the
/// project a new `updated_at` (DECISIONS).
#[test]
fn a_member_is_made_with_a_person_id() {
    let s = Core::start();
    let p = project(&s, "Launch");
    let ada = person(&s, "Ada");
    s.advance(5);
    let made = add_member(&s, &p, &ada, json!("  Lead   engineer "));
    assert_eq!(
        keys(&made),
        [
            "created_at",
            "id",
            "person_id",
            "project_id",
            "role",
            "updated_at"
        ]
    );
    assert_eq!(made["id"].as_str().unwrap().len(), 26);
    assert_eq!(made["project_id"], p);
    assert_eq!(made["person_id"], ada);
    assert_eq!(made["role"], "Lead engineer");
    let now = now_string(&s);
    assert_eq!(made["created_at"], now);
    assert_eq!(made["updated_at"], now);
    assert_eq!(get_member(&s, &id(&made)), made);
    assert_eq!(
        members_of(&s, &p),
        [(id(&made), ada.clone(), json!("Lead engineer"))]
    );
    assert_eq!(get_project(&s, &p)["updated_at"], now);
    // Without a role; the members in the order they were added.
    let bob = person(&s, "Bob");
    let second = add_member(&s, &p, &bob, Value::Null);
    assert_eq!(second["role"], Value::Null);
    let third = post_member(&s, json!({"project_id": p, "person_id": person(&s, "Cy")}))
        .expect(201)
        .data()
        .clone();
    assert_eq!(third["role"], Value::Null);
    let order: Vec<String> = members_of(&s, &p).into_iter().map(|m| m.0).collect();
    assert_eq!(order, [id(&made), id(&second), id(&third)]);
    // The same person may be on another project.
    let q = project(&s, "Other");
    add_member(&s, &q, &ada, json!("Advisor"));
}

/// "Project members": `new_person_name` makes the person (its name
/// squished) with the member, in one request.
#[test]
fn new_person_name_makes_the_person_with_the_member() {
    let s = Core::start();
    let p = project(&s, "Launch");
    let made = post_member(
        &s,
        json!({"project_id": p, "new_person_name": "  Cy   Twombly ", "role": "Artist"}),
    )
    .expect(201)
    .data()
    .clone();
    let people = all(&s, "/people");
    assert_eq!(people.len(), 1);
    assert_eq!(people[0]["name"], "Cy Twombly");
    assert_eq!(made["person_id"], people[0]["id"]);
    assert_eq!(made["role"], "Artist");
    assert_eq!(
        members_of(&s, &p),
        [(id(&made), id(&people[0]), json!("Artist"))]
    );
    // A second person of the same name is another person.
    post_member(
        &s,
        json!({"project_id": project(&s, "Other"), "new_person_name": "Cy Twombly"}),
    )
    .expect(201);
    assert_eq!(all(&s, "/people").len(), 2);
}

/// "Project members" (DECISIONS, "Members"): each refused create, 400 or
/// 422 on its field; none makes a member or a person, or touches the project.
#[test]
fn bad_members_are_refused_and_make_nothing() {
    let s = Core::start();
    let p = project(&s, "Launch");
    let ada = person(&s, "Ada");
    let bob = person(&s, "Bob");
    add_member(&s, &p, &ada, Value::Null);
    let gone_project = project(&s, "Gone");
    s.delete(&format!("/projects/{gone_project}")).expect(204);
    let gone_person = person(&s, "Gone");
    s.delete(&format!("/people/{gone_person}")).expect(204);
    s.advance(5);
    let people = all(&s, "/people");
    let members = all(&s, "/project_members");
    let project_before = get_project(&s, &p);
    let deletions_before = deletions(&s);
    let cases = [
        (json!({}), Expect::invalid("project_id")),
        (json!({"person_id": bob}), Expect::invalid("project_id")),
        (json!({"project_id": p}), Expect::invalid("person_id")),
        (
            json!({"project_id": UNKNOWN, "person_id": bob}),
            Expect::invalid("project_id"),
        ),
        (
            json!({"project_id": "nope", "person_id": bob}),
            Expect::invalid("project_id"),
        ),
        (
            json!({"project_id": gone_project, "person_id": bob}),
            Expect::invalid("project_id"),
        ),
        (
            json!({"project_id": p, "person_id": UNKNOWN}),
            Expect::invalid("person_id"),
        ),
        (
            json!({"project_id": p, "person_id": "nope"}),
            Expect::invalid("person_id"),
        ),
        (
            json!({"project_id": p, "person_id": gone_person}),
            Expect::invalid("person_id"),
        ),
        (
            json!({"project_id": p, "person_id": ada}),
            Expect::invalid("person_id"),
        ),
        (
            json!({"project_id": p, "person_id": bob, "role": "r".repeat(101)}),
            Expect::invalid("role"),
        ),
        (
            json!({"project_id": p, "person_id": bob, "role": 5}),
            Expect::invalid("role"),
        ),
        (
            json!({"project_id": p, "person_id": bob, "new_person_name": "Cy"}),
            bad_body("new_person_name"),
        ),
        (
            json!({"project_id": p, "new_person_name": 7}),
            bad_body("new_person_name"),
        ),
        (
            json!({"project_id": p, "new_person_name": ["Cy"]}),
            bad_body("new_person_name"),
        ),
        (
            json!({"project_id": p, "new_person_name": "   "}),
            Expect::invalid("new_person_name"),
        ),
        (
            json!({"project_id": p, "new_person_name": "n".repeat(101)}),
            Expect::invalid("new_person_name"),
        ),
        (
            json!({"project_id": UNKNOWN, "new_person_name": "Cy"}),
            Expect::invalid("project_id"),
        ),
        (
            json!({"project_id": gone_project, "new_person_name": "Cy"}),
            Expect::invalid("project_id"),
        ),
        (
            json!({"new_person_name": "Cy"}),
            Expect::invalid("project_id"),
        ),
        (
            json!({"project_id": p, "new_person_name": "Cy", "role": "r".repeat(101)}),
            Expect::invalid("role"),
        ),
    ];
    for (fields, expected) in cases {
        check(&s, create(fields.clone()), expected);
        assert_eq!(all(&s, "/people"), people, "{fields}: no person made");
        assert_eq!(
            all(&s, "/project_members"),
            members,
            "{fields}: no member made"
        );
    }
    check(
        &s,
        Call::post("/project_members", json!({"project_member": "Ada"})),
        Expect::error(400, "invalid_json", None),
    );
    assert_eq!(get_project(&s, &p), project_before);
    assert_eq!(deletions(&s), deletions_before);
    assert_eq!(events_of(&s, &p).len(), 1, "only Ada's member_added");
}

// ---------------------------------------------------------------- change

/// "ProjectMember" `role` and "Project members" on change (DECISIONS): the
/// role is squished, blank or null is null, at most 100 characters; only
/// the role changes (`project_id`, `person_id` ignored); a role change gives
/// the member and the project a new `updated_at` and records no event; no
/// change keeps `updated_at`; PUT is PATCH.
#[test]
fn only_the_role_changes() {
    let s = Core::start();
    let p = project(&s, "Launch");
    let q = project(&s, "Other");
    let ada = person(&s, "Ada");
    let bob = person(&s, "Bob");
    let made = add_member(&s, &p, &ada, json!("Lead"));
    let m = id(&made);
    let events = events_of(&s, &p);
    s.advance(10);
    let changed = patch_member(&s, &m, json!({"role": "  Project   lead "})).expect(200);
    let now = now_string(&s);
    assert_eq!(changed.data()["role"], "Project lead");
    assert_eq!(changed.data()["updated_at"], now);
    assert_eq!(changed.data()["created_at"], made["created_at"]);
    assert_eq!(get_member(&s, &m), *changed.data());
    assert_eq!(get_project(&s, &p)["updated_at"], now);
    assert_eq!(
        members_of(&s, &p),
        [(m.clone(), ada.clone(), json!("Project lead"))]
    );
    assert_eq!(events_of(&s, &p), events, "no event for a role");

    // The same role, squished or not, changes nothing.
    s.advance(10);
    let same = patch_member(&s, &m, json!({"role": "Project  lead"})).expect(200);
    assert_eq!(same.data(), changed.data());
    assert_eq!(get_project(&s, &p)["updated_at"], now);
    // project_id and person_id are ignored.
    let ignored = patch_member(&s, &m, json!({"project_id": q, "person_id": bob})).expect(200);
    assert_eq!(ignored.data(), changed.data());
    let moved_not = patch_member(
        &s,
        &m,
        json!({"project_id": q, "person_id": bob, "role": "Owner"}),
    )
    .expect(200);
    assert_eq!(moved_not.data()["project_id"], p);
    assert_eq!(moved_not.data()["person_id"], ada);
    assert_eq!(moved_not.data()["role"], "Owner");
    assert!(
        get_project(&s, &q)["members"]
            .as_array()
            .unwrap()
            .is_empty()
    );
    // PUT is PATCH; blank and null clear; 100 characters fit.
    let put = s
        .put(
            &format!("/project_members/{m}"),
            json!({"project_member": {"role": "   "}}),
        )
        .expect(200);
    assert_eq!(put.data()["role"], Value::Null);
    for (sent, stored) in [
        (json!("x"), json!("x")),
        (json!(""), Value::Null),
        (json!("r".repeat(100)), json!("r".repeat(100))),
        (Value::Null, Value::Null),
    ] {
        let done = patch_member(&s, &m, json!({ "role": sent })).expect(200);
        assert_eq!(done.data()["role"], stored, "{sent}");
    }

    // Refused changes change nothing.
    patch_member(&s, &m, json!({"role": "Lead"})).expect(200);
    s.advance(10);
    let before = get_member(&s, &m);
    let project_before = get_project(&s, &p);
    for (fields, expected) in [
        (json!({"role": "r".repeat(101)}), Expect::invalid("role")),
        (json!({"role": 5}), Expect::invalid("role")),
        (
            json!({"new_person_name": "Cy"}),
            bad_body("new_person_name"),
        ),
        (
            json!({"role": "x", "new_person_name": "Cy"}),
            bad_body("new_person_name"),
        ),
    ] {
        check(&s, change(&m, fields.clone()), expected);
        assert_eq!(get_member(&s, &m), before, "{fields}");
    }
    assert_eq!(get_project(&s, &p), project_before);
    assert_eq!(all(&s, "/people").len(), 2, "no person made");
    for call in [
        change(UNKNOWN, json!({"role": "x"})),
        change("nope", json!({"role": "x"})),
        Call::get(format!("/project_members/{UNKNOWN}")),
        Call::get("/project_members/nope"),
        Call::delete(format!("/project_members/{UNKNOWN}")),
    ] {
        check(&s, call, Expect::error(404, "not_found", None));
    }
}

// ---------------------------------------------------------------- removal

/// "Project members": removal is permanent, writes a `project_member`
/// deletion record, gives the project a new `updated_at`, records a
/// `member_removed` event (DECISIONS); the person may be added again.
#[test]
fn removal_is_permanent_with_a_deletion_record() {
    let s = Core::start();
    let p = project(&s, "Launch");
    let ada = person(&s, "Ada");
    let bob = person(&s, "Bob");
    let m = id(&add_member(&s, &p, &ada, json!("Lead")));
    let kept = add_member(&s, &p, &bob, Value::Null);
    s.advance(10);
    s.delete(&format!("/project_members/{m}")).expect(204);
    let now = now_string(&s);
    for call in [
        Call::get(format!("/project_members/{m}")),
        Call::delete(format!("/project_members/{m}")),
        change(&m, json!({"role": "x"})),
    ] {
        check(&s, call, Expect::error(404, "not_found", None));
    }
    assert_eq!(deletions(&s), records(&[("project_member", &m)]));
    let record = &all(&s, "/deletions")[0];
    assert_eq!(record["deleted_at"], now);
    let project = get_project(&s, &p);
    assert_eq!(project["updated_at"], now);
    assert_eq!(members_of(&s, &p), [(id(&kept), bob.clone(), Value::Null)]);
    assert_eq!(ids(&s, "/project_members"), [id(&kept)]);
    assert_eq!(
        events_of(&s, &p).last().unwrap(),
        &("member_removed".to_owned(), json!(ada), json!("Lead"))
    );
    // Permanent: 20 seconds change nothing, and there is no restoration.
    s.advance(30);
    assert_eq!(deletions(&s), records(&[("project_member", &m)]));
    // Ada may join again, as a new member.
    let again = add_member(&s, &p, &ada, Value::Null);
    assert_ne!(id(&again), m);
    assert_eq!(members_of(&s, &p).len(), 2);
}

// ---------------------------------------------------------------- the listing

/// "Project members" listing (DECISIONS): orders `id` (default),
/// `created_at`, `updated_at` both ways; filters `project_id` and
/// `person_id` (together too); unknown ids give an empty page; non-IDs and
/// other orders are 400; pages of one with `count`; only members whose
/// project and person are live.
#[test]
fn the_listing_filters_orders_and_pages() {
    let s = Core::start();
    let p = project(&s, "P");
    let q = project(&s, "Q");
    let ada = person(&s, "Ada");
    let bob = person(&s, "Bob");
    let pa = id(&add_member(&s, &p, &ada, Value::Null));
    s.advance(1);
    let qb = id(&add_member(&s, &q, &bob, Value::Null));
    s.advance(1);
    let pb = id(&add_member(&s, &p, &bob, Value::Null));
    let qa = id(&add_member(&s, &q, &ada, Value::Null));
    s.advance(10);
    patch_member(&s, &pa, json!({"role": "Lead"})).expect(200);

    let by_id = vec![pa.clone(), qb.clone(), pb.clone(), qa.clone()];
    let reversed: Vec<String> = by_id.iter().rev().cloned().collect();
    let by_updated = vec![qb.clone(), pb.clone(), qa.clone(), pa.clone()];
    let by_updated_desc: Vec<String> = by_updated.iter().rev().cloned().collect();
    let cases: Vec<(String, Vec<String>)> = vec![
        ("".into(), by_id.clone()),
        ("order=id".into(), by_id.clone()),
        ("order=id&direction=desc".into(), reversed.clone()),
        ("order=created_at".into(), by_id.clone()),
        ("order=created_at&direction=desc".into(), reversed.clone()),
        ("order=updated_at".into(), by_updated.clone()),
        ("order=updated_at&direction=desc".into(), by_updated_desc),
        (format!("project_id={p}"), vec![pa.clone(), pb.clone()]),
        (format!("project_id={q}"), vec![qb.clone(), qa.clone()]),
        (format!("person_id={ada}"), vec![pa.clone(), qa.clone()]),
        (
            format!("person_id={bob}&direction=desc"),
            vec![pb.clone(), qb.clone()],
        ),
        (format!("project_id={q}&person_id={ada}"), vec![qa.clone()]),
        (format!("project_id={UNKNOWN}"), vec![]),
        (format!("person_id={UNKNOWN}"), vec![]),
        (
            "updated_since=2026-03-10T09:00:12Z".into(),
            vec![pa.clone()],
        ),
    ];
    for (query, wanted) in &cases {
        // Whole, and in pages of one, each with the whole count.
        assert_listed(&s, &format!("/project_members?{query}"), wanted);
    }
    for (query, detail) in [
        ("project_id=nope", "project_id"),
        ("person_id=123", "person_id"),
        ("order=role", "order"),
        ("order=name", "order"),
        ("direction=up", "direction"),
        ("count=yes", "count"),
        ("limit=0", "limit"),
        ("cursor=forged", "cursor"),
        ("updated_since=yesterday", "updated_since"),
    ] {
        check(
            &s,
            Call::get(format!("/project_members?{query}")),
            Expect::bad_param(Some(detail)),
        );
    }
    // Only members whose project and person are live.
    s.delete(&format!("/projects/{q}")).expect(204);
    assert_eq!(ids(&s, "/project_members"), [pa.clone(), pb.clone()]);
    assert!(ids(&s, &format!("/project_members?project_id={q}")).is_empty());
    s.delete(&format!("/people/{bob}")).expect(204);
    assert_eq!(ids(&s, "/project_members"), [pa]);
    assert!(ids(&s, &format!("/project_members?person_id={bob}")).is_empty());
}

// ---------------------------------------------------------------- a person's delete

/// Document 3, "Person delete and restore" (DECISIONS, "Person delete"):
/// the person's memberships of live projects are hidden at once with a
/// `project_member` record each, their member events with `project_event`
/// records; those projects get a new `updated_at` and drop the person from
/// `members`. Restoration within 20 seconds brings them back: records
/// removed, memberships, events and projects with a new `updated_at`.
#[test]
fn a_persons_delete_hides_its_memberships_until_restored() {
    let s = Core::start();
    let p = project(&s, "P");
    let q = project(&s, "Q");
    let ada = person(&s, "Ada");
    let bob = person(&s, "Bob");
    let pa = add_member(&s, &p, &ada, json!("Lead"));
    let qa = add_member(&s, &q, &ada, Value::Null);
    let pb = add_member(&s, &p, &bob, json!("Help"));
    let ada_events: Vec<String> = all(&s, "/project_events")
        .iter()
        .filter(|e| e["person_id"] == json!(ada))
        .map(id)
        .collect();
    assert_eq!(ada_events.len(), 2);
    let p_members = members_of(&s, &p);
    s.advance(5);
    s.delete(&format!("/people/{ada}")).expect(204);
    let deleted_at = now_string(&s);

    for member in [&pa, &qa] {
        check(
            &s,
            Call::get(format!("/project_members/{}", id(member))),
            Expect::error(404, "not_found", None),
        );
    }
    assert_eq!(ids(&s, "/project_members"), [id(&pb)]);
    assert!(ids(&s, &format!("/project_members?person_id={ada}")).is_empty());
    assert_eq!(members_of(&s, &p), [(id(&pb), bob.clone(), json!("Help"))]);
    assert!(members_of(&s, &q).is_empty());
    for project in [&p, &q] {
        assert_eq!(get_project(&s, project)["updated_at"], deleted_at);
    }
    let events: Vec<Value> = all(&s, "/project_events")
        .iter()
        .map(|e| e["person_id"].clone())
        .collect();
    assert_eq!(events, [json!(bob)], "only Bob's member event is listed");
    let mut expected = vec![
        ("person", ada.as_str()),
        ("project_member", pa["id"].as_str().unwrap()),
        ("project_member", qa["id"].as_str().unwrap()),
    ];
    expected.extend(ada_events.iter().map(|e| ("project_event", e.as_str())));
    assert_eq!(deletions(&s), records(&expected));
    // A deleted person cannot join.
    check(
        &s,
        create(json!({"project_id": p, "person_id": ada})),
        Expect::invalid("person_id"),
    );

    s.advance(10);
    send(s.req("POST", &format!("/people/{ada}/restoration"))).expect(200);
    let now = now_string(&s);
    assert!(deletions(&s).is_empty(), "{:?}", deletions(&s));
    assert_eq!(get_member(&s, &id(&pa)), with_updated_at(&pa, &now));
    assert_eq!(get_member(&s, &id(&qa)), with_updated_at(&qa, &now));
    assert_eq!(get_member(&s, &id(&pb)), pb, "Bob's is untouched");
    assert_eq!(members_of(&s, &p), p_members);
    for project in [&p, &q] {
        assert_eq!(get_project(&s, project)["updated_at"], now);
    }
    let back: Vec<Value> = all(&s, "/project_events")
        .into_iter()
        .filter(|e| e["person_id"] == json!(ada))
        .collect();
    assert_eq!(back.iter().map(id).collect::<Vec<_>>(), ada_events);
    assert!(back.iter().all(|e| e["updated_at"] == json!(now)));
}

/// Document 3, "Person delete and restore": a membership of a project that
/// is already deleted gets no second record from the person's delete, and
/// a person deleted for good leaves the project without them.
#[test]
fn a_persons_delete_skips_deleted_projects_and_becomes_permanent() {
    let s = Core::start();
    let gone = project(&s, "Gone");
    let live = project(&s, "Live");
    let ada = person(&s, "Ada");
    let in_gone = id(&add_member(&s, &gone, &ada, Value::Null));
    let in_live = id(&add_member(&s, &live, &ada, Value::Null));
    s.delete(&format!("/projects/{gone}")).expect(204);
    s.advance(1);
    s.delete(&format!("/people/{ada}")).expect(204);
    let mine = deletions(&s)
        .into_iter()
        .filter(|(t, i)| t == "project_member" && *i == in_gone)
        .count();
    assert_eq!(mine, 1, "one record for the deleted project's membership");
    assert!(deletions(&s).contains(&("project_member".to_owned(), in_live.clone())));
    // 20 seconds on, the person is gone for good and so are the memberships.
    s.advance(20);
    send(s.req("POST", &format!("/people/{ada}/restoration"))).expect_error(404, "not_found", None);
    assert!(members_of(&s, &live).is_empty());
    check(
        &s,
        Call::get(format!("/project_members/{in_live}")),
        Expect::error(404, "not_found", None),
    );
    assert!(all(&s, "/project_members").is_empty());
}
