//! `GET /search` over a real socket (document 1, "Search"): the whole
//! table of matching rules of `common::search` asked over HTTP of a
//! server holding the same world, absolute photo and thumbnail addresses,
//! the 400s as a client's URL carries them, and a change found by the
//! next request. The rules are tested in process (tests/rules/search/).

use serde_json::json;

use crate::common::fixtures::escaped;
use crate::common::search::{CASES, document, world};
use crate::common::{Setup, TestServer};

/// A server over the search tests' world.
fn served() -> TestServer {
    let core = world();
    TestServer::serve(
        core.org.clone(),
        core.clock.clone(),
        Setup::default().rate_limit,
    )
}

#[test]
fn every_matching_rule_holds_over_http() {
    let server = served();
    let mut wrong = Vec::new();
    for (kind, q, titles) in CASES {
        let reply = server
            .get(&format!("/search?q={}&types={kind}&limit=25", escaped(q)))
            .expect(200);
        let got: Vec<&str> = reply.data()[0]["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["title"].as_str().unwrap())
            .collect();
        if got != *titles {
            wrong.push(format!("{kind} {q:?}: {got:?}, wanted {titles:?}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn photos_and_thumbnails_are_absolute_addresses() {
    let core = crate::common::Core::start();
    document(&core, "Lease agreement");
    let server = TestServer::serve(core.org.clone(), core.clock.clone(), 0);
    let reply = server.get("/search?q=lease").expect(200);
    let document = &reply.data()[4];
    assert_eq!(document["type"], "document");
    let url = document["results"][0]["leading"]["url"].as_str().unwrap();
    assert!(
        url.starts_with(&format!("{}/api/v1/documents/", server.url)),
        "{url}"
    );
    assert!(url.ends_with("/thumbnail"), "{url}");
    // The address answers.
    let path = url.strip_prefix(&format!("{}/api/v1", server.url)).unwrap();
    server.get(path).expect(200);
}

#[test]
fn malformed_queries_are_400_over_the_wire() {
    let server = TestServer::start();
    for (query, field) in [
        ("q=a%00b", "q"),
        (&*format!("q={}", "x".repeat(201)), "q"),
        ("q=a&types=person,tag", "types"),
        ("q=a&limit=0", "limit"),
    ] {
        server
            .get(&format!("/search?{query}"))
            .expect_error(400, "invalid_parameter", Some(field));
    }
    // 200 characters, two bytes each, is not too long.
    server
        .get(&format!("/search?q={}", escaped(&"é".repeat(200))))
        .expect(200);
}

#[test]
fn a_change_is_found_by_the_next_request() {
    let server = TestServer::start();
    let reply = server.post("/people", json!({"person": {"name": "Ada Byron"}}));
    let id = reply.expect(201).data()["id"].as_str().unwrap().to_owned();
    server
        .patch(
            &format!("/people/{id}"),
            json!({"person": {"name": "Ada Lovelace"}}),
        )
        .expect(200);
    let titles = |q: &str| -> Vec<String> {
        server
            .get(&format!("/search?q={q}&types=person"))
            .expect(200)
            .data()[0]["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["title"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(titles("lovelace"), ["Ada Lovelace"]);
    assert!(titles("byron").is_empty());
    server.delete(&format!("/people/{id}")).expect(204);
    assert!(titles("lovelace").is_empty());
}
