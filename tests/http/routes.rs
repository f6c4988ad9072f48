//! One pass through every route over HTTP, to prove each is wired through
//! the server: the method and path reach the core, the query is decoded,
//! the JSON body arrives, the bearer token is checked, and a replayed
//! response is marked `Idempotent-Replayed`. What each route does is tested
//! in process (tests/rules).

use serde_json::{Value, json};

use crate::common::{Setup, TestServer, licence_key, licence_signer, send};

fn id(record: &Value) -> String {
    record["id"].as_str().expect("an id").to_owned()
}

#[test]
fn account_routes_are_served() {
    let s = TestServer::start();
    assert_eq!(s.get("/me").expect(200).data()["username"], "owner");
    assert_eq!(s.get("/appearance").expect(200).data()["theme"], "system");
    let patched = s
        .patch("/appearance", json!({"appearance": {"theme": "dark"}}))
        .expect(200);
    assert_eq!(patched.data()["theme"], "dark");
    let put = s
        .put("/appearance", json!({"appearance": {"accent": "jade"}}))
        .expect(200);
    assert_eq!(put.data()["accent"], "jade");
    assert!(s.get("/vocabulary").expect(200).data()["colors"].is_array());
    s.get("/licences").expect(200);

    // Session-only routes, as the owner at the machine.
    let me = send(
        s.local("PATCH", "/me")
            .json(&json!({"me": {"name": "Ada"}})),
    )
    .expect(200);
    assert_eq!(me.data()["name"], "Ada");
    send(
        s.local("PUT", "/me")
            .json(&json!({"me": {"time_zone": "Tokyo"}})),
    )
    .expect(200);
    send(
        s.local("PUT", "/me/username")
            .json(&json!({"username": "ada"})),
    )
    .expect(200);
    send(
        s.local("PATCH", "/me/password")
            .json(&json!({"password": "a long passphrase"})),
    )
    .expect(200);
    let me = s.get("/me").expect(200);
    assert_eq!(
        (
            me.data()["username"].as_str(),
            me.data()["time_zone"].as_str(),
            me.data()["has_password"].as_bool()
        ),
        (Some("ada"), Some("Tokyo"), Some(true))
    );
    let made = send(
        s.local("POST", "/api_tokens")
            .json(&json!({"api_token": {"name": "phone"}})),
    )
    .expect(201);
    let listed = send(s.local("GET", "/api_tokens")).expect(200);
    assert_eq!(listed.data().as_array().unwrap().len(), 2);
    send(s.local("DELETE", &format!("/api_tokens/{}", made.data()["id"]))).expect(204);
    let listed = send(s.local("GET", "/api_tokens")).expect(200);
    assert_eq!(listed.data().as_array().unwrap().len(), 1);
}

#[test]
fn system_and_licence_routes_are_served() {
    let mut setup = Setup::default();
    setup.options.licence_public_key = licence_signer().verifying_key();
    let s = TestServer::with(setup);
    assert_eq!(s.get("/system").expect(200).data()["channel"], "stable");
    let patched = s
        .patch("/system", json!({"system": {"channel": "beta"}}))
        .expect(200);
    assert_eq!(patched.data()["channel"], "beta");
    let put = s
        .put("/system", json!({"system": {"channel": "stable"}}))
        .expect(200);
    assert_eq!(put.data()["channel"], "stable");
    // A development build cannot check: the core's answer, through the server.
    s.post("/system/update_check", json!(null)).expect_error(
        422,
        "validation_failed",
        Some("base"),
    );

    assert_eq!(s.get("/licence").expect(200).data()["state"], "trial");
    let added = send(
        s.local("PUT", "/licence")
            .json(&json!({"key": licence_key("K-1", "2027-01-01")})),
    )
    .expect(200);
    assert_eq!(added.data()["state"], "licensed");
    let onboarded = send(s.local("POST", "/licence/onboarding")).expect(200);
    assert_eq!(onboarded.data()["onboarded"], true);
    let removed = send(s.local("DELETE", "/licence")).expect(200);
    assert_eq!(removed.data()["key_id"], Value::Null);
    let patched = send(
        s.local("PATCH", "/licence")
            .json(&json!({"key": licence_key("K-2", "2027-01-01")})),
    )
    .expect(200);
    assert_eq!(patched.data()["key_id"], "K-2");
}

#[test]
fn task_list_routes_are_served() {
    let s = TestServer::start();
    let made = s
        .post("/task_lists", json!({"task_list": {"name": "Home"}}))
        .expect(201);
    let list = id(made.data());
    s.post("/task_lists", json!({"task_list": {"name": "Work"}}))
        .expect(201);
    let path = format!("/task_lists/{list}");
    assert_eq!(s.get(&path).expect(200).data()["name"], "Home");
    let patched = s
        .patch(&path, json!({"task_list": {"name": "House"}}))
        .expect(200);
    assert_eq!(patched.data()["name"], "House");
    let put = s
        .put(&path, json!({"task_list": {"position": 2}}))
        .expect(200);
    assert_eq!(put.data()["position"], 2);
    let page = s
        .get("/task_lists?order=name&direction=desc&limit=1&count=true")
        .expect(200);
    assert_eq!(page.data()[0]["name"], "Work");
    assert_eq!(page.body["meta"]["total_count"], 2);
    s.delete(&path).expect(204);
    s.get(&path).expect_error(404, "not_found", None);
    let back = send(s.req("POST", &format!("{path}/restoration"))).expect(200);
    assert_eq!(back.data()["name"], "House");
}

#[test]
fn people_routes_are_served() {
    let s = TestServer::start();
    let made = s
        .post(
            "/people",
            json!({"person": {"name": "Ada", "relationships": ["friend"],
                "email_addresses": [{"address": "ada@example.org"}]}}),
        )
        .expect(201);
    let person = id(made.data());
    let path = format!("/people/{person}");
    assert_eq!(s.get(&path).expect(200).data(), made.data());
    let patched = s
        .patch(&path, json!({"person": {"name": "Ada Lovelace"}}))
        .expect(200);
    assert_eq!(patched.data()["name"], "Ada Lovelace");
    let put = s
        .put(&path, json!({"person": {"relationships": []}}))
        .expect(200);
    assert_eq!(put.data()["relationships"], json!([]));
    let page = s.get("/people?order=name&limit=1&count=true").expect(200);
    assert_eq!(page.body["meta"]["total_count"], 1);
    s.get("/people?relationship=family").expect(200);
}

#[test]
fn task_routes_are_served() {
    let s = TestServer::start();
    let made = s
        .post(
            "/tasks",
            json!({"task": {"title": "  Buy  milk ", "start_on": "2026-03-10"}}),
        )
        .expect(201);
    assert_eq!(made.data()["title"], "Buy milk");
    let task = id(made.data());
    let path = format!("/tasks/{task}");
    assert_eq!(s.get(&path).expect(200).data(), made.data());
    let patched = s
        .patch(&path, json!({"task": {"deadline_on": "2026-03-12"}}))
        .expect(200);
    assert_eq!(patched.data()["deadline_on"], "2026-03-12");
    let put = s
        .put(&path, json!({"task": {"title": "Oat milk"}}))
        .expect(200);
    assert_eq!(put.data()["title"], "Oat milk");
    s.post(
        "/tasks",
        json!({"task": {"title": "Done", "status": "completed"}}),
    )
    .expect(201);

    // Queries are decoded: a list of statuses, a view, an offset's `+`.
    let open = s
        .get("/tasks?status=open,wont_do&order=created_at&count=true")
        .expect(200);
    assert_eq!(open.body["meta"]["total_count"], 1);
    let today = s.get("/tasks?view=today").expect(200);
    assert_eq!(today.data()[0]["title"], "Oat milk");
    let since = s
        .get("/tasks?updated_since=2026-03-10T10:00:00%2B01:00&count=true")
        .expect(200);
    assert_eq!(since.body["meta"]["total_count"], 2);
    let counts = s.get("/task_counts?view=today").expect(200);
    assert_eq!(counts.data()["today"], 1);
    assert_eq!(counts.data()["page"]["open"], 1);

    s.delete(&path).expect(204);
    let deleted = s
        .get("/deletions?since=2026-03-10T10:00:00%2B01:00&count=true")
        .expect(200);
    assert_eq!(deleted.data()[0]["id"], task.as_str());
    assert_eq!(deleted.body["meta"]["total_count"], 1);
    let back = send(s.req("POST", &format!("{path}/restoration"))).expect(200);
    assert_eq!(back.data()["title"], "Oat milk");
    assert!(
        s.get("/deletions")
            .expect(200)
            .data()
            .as_array()
            .unwrap()
            .is_empty()
    );
}

#[test]
fn a_replayed_response_says_so_in_a_header() {
    let s = TestServer::start();
    let post = |key: &str| {
        send(
            s.req("POST", "/tasks")
                .header("idempotency-key", key)
                .json(&json!({"task": {"title": "Once"}})),
        )
    };
    let first = post("wire-1").expect(201);
    assert_eq!(first.header("idempotent-replayed"), None);
    assert_eq!(first.header("content-type"), Some("application/json"));
    let again = post("wire-1").expect(201);
    assert_eq!(again.header("idempotent-replayed"), Some("true"));
    assert_eq!(again.body, first.body);
    // A key that is not visible ASCII is refused by the server itself.
    let bad = reqwest::header::HeaderValue::from_bytes(b"caf\xc3\xa9").unwrap();
    send(
        s.req("POST", "/tasks")
            .header("idempotency-key", bad)
            .json(&json!({"task": {"title": "Once"}})),
    )
    .expect_error(400, "invalid_parameter", Some("Idempotency-Key"));
    assert_eq!(
        s.get("/tasks?count=true").body["meta"]["total_count"],
        1,
        "made once"
    );
}
