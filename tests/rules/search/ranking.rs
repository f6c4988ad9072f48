//! How results rank, how many come back, the groups asked for, the 400s,
//! a result's shape, and expired tasks archived before a search.

use serde_json::json;

use super::{escaped, found, groups, list, note, person, project, task};
use crate::common::fixtures::id;
use crate::common::{Call, Core, Expect, check};

#[test]
fn whole_words_rank_above_beginnings_above_misspellings() {
    let s = Core::start();
    for name in ["Marc Adams", "Markus Brown", "Mark Chen", "Mary Mark"] {
        person(&s, json!({ "name": name }));
    }
    // Whole words by name, then beginnings by name, then misspellings.
    assert_eq!(
        found(&s, "person", "mark"),
        ["Mark Chen", "Mary Mark", "Markus Brown", "Marc Adams"]
    );
    // A record ranks by its worst-matched word.
    assert_eq!(found(&s, "person", "mark chen"), ["Mark Chen"]);
    assert_eq!(found(&s, "person", "mark ch"), ["Mark Chen"]);
    assert_eq!(
        found(&s, "person", "mary mar"),
        ["Mary Mark", "Marc Adams", "Mark Chen"]
    );
}

#[test]
fn tasks_rank_open_first_then_most_recently_closed() {
    let s = Core::start();
    let old = task(&s, json!({"title": "Plumbing quote"}));
    s.advance(60);
    task(&s, json!({"title": "Plumbing older open"}));
    s.advance(60);
    task(&s, json!({"title": "Plumbing newer open"}));
    s.advance(60);
    let recent = task(&s, json!({"title": "Plumbing invoice"}));
    s.advance(60);
    s.patch(
        &format!("/tasks/{old}"),
        json!({"task": {"status": "completed"}}),
    )
    .expect(200);
    s.advance(60);
    s.patch(
        &format!("/tasks/{recent}"),
        json!({"task": {"status": "wont_do"}}),
    )
    .expect(200);
    assert_eq!(
        found(&s, "task", "plumbing"),
        [
            "Plumbing newer open",
            "Plumbing older open",
            "Plumbing invoice",
            "Plumbing quote"
        ]
    );
    // A whole word outranks the type's order: the closed task comes first.
    task(&s, json!({"title": "Plumb the line"}));
    s.patch(
        &format!(
            "/tasks/{}",
            id(s.post("/tasks", json!({"task": {"title": "Plumb"}})).data())
        ),
        json!({"task": {"status": "completed"}}),
    )
    .expect(200);
    assert_eq!(found(&s, "task", "plumb")[..2], ["Plumb the line", "Plumb"]);
}

#[test]
fn each_type_has_its_own_order() {
    let s = Core::start();
    project(&s, json!({"name": "Beta launch", "status": "done"}));
    project(&s, json!({"name": "Zeta launch"}));
    project(&s, json!({"name": "Alpha launch", "status": "on_hold"}));
    assert_eq!(
        found(&s, "project", "launch"),
        ["Alpha launch", "Zeta launch", "Beta launch"]
    );
    person(&s, json!({"name": "Émile Zola"}));
    person(&s, json!({"name": "Adam Zola"}));
    assert_eq!(found(&s, "person", "zola"), ["Adam Zola", "Émile Zola"]);
    let first = note(&s, json!({"title": "Budget one"}));
    s.advance(5);
    note(&s, json!({"title": "Budget two"}));
    assert_eq!(found(&s, "note", "budget"), ["Budget two", "Budget one"]);
    s.advance(5);
    s.patch(
        &format!("/notes/{first}"),
        json!({"note": {"body_html": "<p>edited</p>"}}),
    )
    .expect(200);
    assert_eq!(found(&s, "note", "budget"), ["Budget one", "Budget two"]);
    list(&s, "Shopping later");
    list(&s, "Shopping now");
    let later = super::make(
        &s,
        "task_lists",
        "task_list",
        json!({"name": "Shopping first"}),
    );
    s.patch(
        &format!("/task_lists/{later}"),
        json!({"task_list": {"position": 1}}),
    )
    .expect(200);
    assert_eq!(
        found(&s, "task_list", "shopping"),
        ["Shopping first", "Shopping later", "Shopping now"]
    );
}

#[test]
fn limit_and_has_more() {
    let s = Core::start();
    for n in 0..30 {
        task(&s, json!({ "title": format!("Report {n:02}") }));
    }
    let group = |query: &str| {
        let reply = s
            .get(&format!("/search?q=report&types=task{query}"))
            .expect(200);
        let g = &reply.data()[0];
        (
            g["results"].as_array().unwrap().len(),
            g["has_more"].as_bool().unwrap(),
        )
    };
    assert_eq!(group(""), (5, true));
    assert_eq!(group("&limit=1"), (1, true));
    assert_eq!(group("&limit=25"), (25, true));
    assert_eq!(group("&limit=26"), (25, true));
    assert_eq!(group("&limit=99999999999999999999999"), (25, true));
    let s2 = Core::start();
    for n in 0..3 {
        task(&s2, json!({ "title": format!("Invoice {n}") }));
    }
    for (limit, more) in [(2, true), (3, false), (4, false)] {
        let reply = s2
            .get(&format!("/search?q=invoice&types=task&limit={limit}"))
            .expect(200);
        assert_eq!(reply.data()[0]["has_more"], json!(more), "limit {limit}");
    }
    // An empty group has no more.
    let reply = s2.get("/search?q=zebra").expect(200);
    for g in reply.data().as_array().unwrap() {
        assert_eq!(g["results"], json!([]));
        assert_eq!(g["has_more"], json!(false));
    }
}

#[test]
fn groups_come_in_the_fixed_order_with_empty_ones() {
    let s = Core::start();
    task(&s, json!({"title": "Alpha"}));
    let all = [
        "person",
        "project",
        "note",
        "task",
        "document",
        "task_list",
        "folder",
    ];
    for query in [
        "",
        "q=",
        "q=%20%20",
        "q=alpha",
        "q=alpha&types=folder,task_list,document,task,note,project,person",
    ] {
        let kinds: Vec<String> = groups(&s, query).into_iter().map(|(k, _)| k).collect();
        assert_eq!(kinds, all, "{query}");
    }
    let kinds: Vec<(String, Vec<String>)> = groups(&s, "q=alpha&types=task,person,task");
    assert_eq!(
        kinds,
        [
            ("person".to_owned(), vec![]),
            ("task".to_owned(), vec!["Alpha".to_owned()])
        ]
    );
    // A blank query gives empty groups.
    for (_, titles) in groups(&s, "q=%20") {
        assert!(titles.is_empty());
    }
}

#[test]
fn malformed_parameters_are_400_and_change_nothing() {
    let s = Core::start();
    task(&s, json!({"title": "Alpha"}));
    let long = "a".repeat(201);
    let ok_long = "é".repeat(200);
    for (query, field) in [
        (format!("q={long}"), "q"),
        ("q=a%00b".to_owned(), "q"),
        ("q=a&types=tasks".to_owned(), "types"),
        ("q=a&types=".to_owned(), "types"),
        ("q=a&types=task,,person".to_owned(), "types"),
        ("q=a&types=Task".to_owned(), "types"),
        ("q=a&limit=0".to_owned(), "limit"),
        ("q=a&limit=-1".to_owned(), "limit"),
        ("q=a&limit=five".to_owned(), "limit"),
        ("q=a&limit=".to_owned(), "limit"),
    ] {
        check(
            &s,
            Call::get(format!("/search?{query}")),
            Expect::error(400, "invalid_parameter", Some(field)),
        );
    }
    s.get(&format!("/search?q={}", escaped(&ok_long)))
        .expect(200);
}

#[test]
fn a_result_has_an_id_title_subtitle_and_leading() {
    let s = Core::start();
    let home = list(&s, "Errands");
    let t = task(
        &s,
        json!({"title": "Post the parcel", "task_list_id": home, "deadline_on": "2026-03-20"}),
    );
    let p = person(
        &s,
        json!({"name": "Ada Byron", "email_addresses": [{"address": "ada@example.org"}]}),
    );
    let reply = s.get("/search?q=post&types=task").expect(200);
    assert_eq!(
        reply.data()[0]["results"][0],
        json!({
            "id": t,
            "title": "Post the parcel",
            "subtitle": "Errands · due 2026-03-20",
            "leading": {"type": "icon", "url": "icon:circle"},
        })
    );
    let reply = s.get("/search?q=ada&types=person").expect(200);
    assert_eq!(
        reply.data()[0]["results"][0],
        json!({
            "id": p,
            "title": "Ada Byron",
            "subtitle": "ada@example.org",
            "leading": {"type": "icon", "url": "icon:user"},
        })
    );
    let reply = s.get("/search?q=errands&types=task_list").expect(200);
    assert_eq!(
        reply.data()[0]["results"][0]["leading"]["url"],
        json!("icon:list")
    );
    let doc = super::document(&s, "Lease agreement");
    let reply = s.get("/search?q=lease&types=document").expect(200);
    let result = &reply.data()[0]["results"][0];
    assert_eq!(result["id"], json!(doc));
    assert_eq!(result["leading"]["type"], json!("thumbnail"));
    let url = result["leading"]["url"].as_str().unwrap();
    // Relative in process; absolute over HTTP (tests/http/search.rs).
    assert_eq!(url, format!("/api/v1/documents/{doc}/thumbnail"));
    assert!(
        result["subtitle"]
            .as_str()
            .unwrap()
            .starts_with("No folder · ")
    );
}

#[test]
fn expired_tasks_are_archived_before_the_search() {
    let s = Core::start();
    let t = task(
        &s,
        json!({"title": "Renew licence", "expires_on": "2026-03-11"}),
    );
    task(&s, json!({"title": "Renew passport"}));
    assert_eq!(
        found(&s, "task", "renew"),
        ["Renew passport", "Renew licence"]
    );
    s.advance(3 * 86_400);
    let reply = s.get("/search?q=licence&types=task").expect(200);
    let result = &reply.data()[0]["results"][0];
    assert_eq!(result["id"], json!(t));
    assert_eq!(result["leading"]["url"], json!("icon:hourglass"));
    assert_eq!(result["subtitle"], json!("Inbox · expired"));
    assert_eq!(
        s.get(&format!("/tasks/{t}")).expect(200).data()["status"],
        json!("archived")
    );
    assert_eq!(
        found(&s, "task", "renew"),
        ["Renew passport", "Renew licence"]
    );
}
