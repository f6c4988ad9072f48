//! Ours (docs/api.md, "Person overview"): `GET /people/{id}/overview`,
//! a person and what a screen about them shows, in one read. Each part is
//! held to the list it stands for: the same records in the same order,
//! the first few of them, and the list's whole count.

use serde_json::{Value, json};

use crate::common::Core;
use crate::common::fixtures::{UNKNOWN, id};
use crate::common::search::{document, note, person, project, task};

/// `GET /people/{id}/overview`, which must be 200; its `data`.
#[track_caller]
fn overview(s: &Core, person: &str) -> Value {
    s.get(&format!("/people/{person}/overview"))
        .expect(200)
        .data()
        .clone()
}

/// The `data` of `GET {path}`, which must be 200.
#[track_caller]
fn listed(s: &Core, path: &str) -> Value {
    s.get(path).expect(200).body["data"].clone()
}

/// The `meta.total_count` of `GET {path}&count=true`.
#[track_caller]
fn counted(s: &Core, path: &str) -> Value {
    s.get(&format!("{path}&count=true")).expect(200).body["meta"]["total_count"].clone()
}

#[test]
fn an_overview_is_the_persons_lists_in_one_read() {
    let s = Core::start();
    let grace = person(&s, json!({"name": "Grace Hopper"}));
    let ada = person(
        &s,
        json!({
            "name": "Ada Lovelace",
            "positions": [
                {"title": "Analyst", "company_name": "Analytical Engines"},
                {"title": "Adviser", "company_name": "Babbage & Co"},
                {"title": "Reviewer", "company_name": "Analytical Engines"},
            ],
            "key_dates": [
                {"kind": "birthday", "month": 12, "day": 10, "year": 1915},
                {"kind": "anniversary", "month": 7, "day": 8},
            ],
        }),
    );
    s.post(
        "/person_links",
        json!({"person_link": {"person_id": ada, "kind": "friend", "related_person_id": grace}}),
    )
    .expect(201);
    // 22 projects, of which she is a member of 21 in statuses of every
    // kind: the first 20 by name.
    for n in 0..22 {
        let status = ["active", "done", "on_hold"][n % 3];
        let made = project(
            &s,
            json!({"name": format!("Project {n:02}"), "status": status}),
        );
        if n != 5 {
            s.post(
                "/project_members",
                json!({"project_member": {"project_id": made, "person_id": ada, "role": "Lead"}}),
            )
            .expect(201);
        }
    }
    // 23 open tasks of hers, one completed, and one of nobody's.
    for n in 0..24 {
        let made = task(
            &s,
            json!({"title": format!("Task {n:02}"), "person_id": ada}),
        );
        if n == 3 {
            s.patch(
                &format!("/tasks/{made}"),
                json!({"task": {"status": "completed"}}),
            )
            .expect(200);
        }
    }
    task(&s, json!({"title": "Not hers"}));
    // 12 notes that mention her, one that does not.
    for n in 0..12 {
        note(
            &s,
            json!({
                "title": format!("Note {n:02}"),
                "body_html": format!("<p>With <span data-mention=\"{ada}\">@Ada Lovelace</span></p>"),
            }),
        );
        s.advance(60);
    }
    note(&s, json!({"title": "Elsewhere"}));
    // 11 documents linked to her, and one that is not.
    let mut documents = Vec::new();
    for n in 0..11 {
        let made = document(&s, &format!("Scan {n:02}"));
        s.post(
            "/document_links",
            json!({"document_link": {"document_id": made, "person_id": ada}}),
        )
        .expect(201);
        documents.push(made);
    }
    document(&s, "Unlinked");

    let seen = overview(&s, &ada);
    assert_eq!(seen["person"], listed(&s, &format!("/people/{ada}")));
    let companies: Vec<&str> = seen["companies"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        companies,
        ["Analytical Engines", "Babbage & Co"],
        "each once, by name"
    );
    assert_eq!(
        seen["connections"],
        json!([{"id": grace, "name": "Grace Hopper", "avatar": null, "relationships": []}])
    );
    let upcoming = s
        .get(&format!(
            "/upcoming_key_dates?person_id={ada}&days=366&limit=100"
        ))
        .expect(200)
        .body["data"]
        .clone();
    assert_eq!(seen["key_dates"], upcoming);
    assert_eq!(seen["key_dates"].as_array().unwrap().len(), 2);

    let parts = [
        (
            "projects",
            format!("/projects?person_id={ada}&limit=20"),
            21,
        ),
        (
            "tasks",
            format!("/tasks?person_id={ada}&status=open&limit=20"),
            23,
        ),
        ("notes", format!("/notes?person_id={ada}&limit=10"), 12),
    ];
    for (part, path, total) in parts {
        assert_eq!(seen[part]["data"], listed(&s, &path), "{part}");
        assert_eq!(seen[part]["total_count"], json!(total), "{part}");
        assert_eq!(seen[part]["total_count"], counted(&s, &path), "{part}");
    }
    let shown: Vec<String> = seen["documents"]["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(id)
        .collect();
    assert_eq!(shown, documents[..10], "in the order linked");
    assert_eq!(seen["documents"]["total_count"], 11);
    assert_eq!(
        seen["documents"]["data"][0],
        listed(&s, &format!("/documents/{}", documents[0]))
    );
    assert_eq!(
        seen["meetings"],
        s.get(&format!("/people/{ada}/meetings?limit=5"))
            .expect(200)
            .body
    );
    assert_eq!(
        seen["time_zone_iana"],
        s.get("/me").data()["time_zone_iana"]
    );

    // Someone with nothing.
    let nobody = person(&s, json!({"name": "Nobody"}));
    let empty = json!({"data": [], "total_count": 0});
    let seen = overview(&s, &nobody);
    for part in ["companies", "connections", "key_dates"] {
        assert_eq!(seen[part], json!([]), "{part}");
    }
    for part in ["projects", "tasks", "notes", "documents"] {
        assert_eq!(seen[part], empty, "{part}");
    }
    assert_eq!(
        seen["meetings"],
        json!({"data": [], "meta": {"limit": 5, "has_more": false}})
    );
}

/// A deleted or unknown person is 404; so is a malformed ID.
#[test]
fn only_a_live_persons_overview_is_found() {
    let s = Core::start();
    let gone = person(&s, json!({"name": "Gone"}));
    s.delete(&format!("/people/{gone}")).expect(204);
    for path in [
        format!("/people/{gone}/overview"),
        format!("/people/{UNKNOWN}/overview"),
        "/people/not-an-id/overview".to_owned(),
    ] {
        s.get(&path).expect_error(404, "not_found", None);
    }
    // Deleted links and targets are not shown.
    let ada = person(&s, json!({"name": "Ada"}));
    let friend = person(&s, json!({"name": "Friend"}));
    s.post(
        "/person_links",
        json!({"person_link": {"person_id": ada, "kind": "friend", "related_person_id": friend}}),
    )
    .expect(201);
    let doc = document(&s, "Scan");
    s.post(
        "/document_links",
        json!({"document_link": {"document_id": doc, "person_id": ada}}),
    )
    .expect(201);
    s.delete(&format!("/documents/{doc}")).expect(204);
    let seen = overview(&s, &ada);
    assert_eq!(seen["documents"], json!({"data": [], "total_count": 0}));
    assert_eq!(seen["connections"].as_array().unwrap().len(), 1);
}
