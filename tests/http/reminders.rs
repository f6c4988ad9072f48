//! Reminders over a real socket (EXTENSIONS.md §3): the routes answer
//! with the API's envelope (a paged log bare, as other paged lists); a
//! test message that does not arrive is 422 `delivery_failed` as JSON;
//! a channel's secret appears in no answer; the server's own job sends a
//! reminder when the clock reaches it; and, with the real `organiser
//! serve` killed with SIGKILL in the middle of a delivery and started
//! again on its data directory, every reminder arrives and none that the
//! receiver had answered before the kill arrives twice. The rules are
//! tested in process (tests/rules/reminders).

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use serde_json::{Value, json};

use crate::common::feed_server::closed_port_url;
use crate::common::receivers::{HttpReceiver, Received, Reply, tally};
use crate::common::{Setup, TestServer, send};

use crate::util;

const CHANNELS: &str = "/notification_channels";

/// A loopback port nothing listens on: bound and let go.
fn closed_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().port()
}

/// Every route answers with the envelope: `{data: record}` for a
/// channel and the settings, `{data: [..]}` for the channels, the bare
/// page `{data, meta}` for the log, 204 without a body for a delete, and
/// the JSON error for a refusal.
#[test]
fn the_routes_answer_with_the_envelope() {
    let s = TestServer::start();
    let rx = HttpReceiver::start();
    let made = s
        .post(
            CHANNELS,
            json!({"notification_channel": {"name": "Phone", "kind": "ntfy", "url": rx.url("/alerts")}}),
        )
        .expect(201);
    assert_eq!(
        made.header("content-type"),
        Some("application/json"),
        "{}",
        made.body
    );
    let c = made.data()["id"].as_str().unwrap().to_owned();
    assert_eq!(made.data()["name"], "Phone");
    let listed = s.get(CHANNELS).expect(200);
    assert_eq!(listed.data(), &json!([made.data()]));
    assert_eq!(
        s.get(&format!("{CHANNELS}/{c}")).expect(200).data(),
        made.data()
    );
    let patched = s
        .patch(
            &format!("{CHANNELS}/{c}"),
            json!({"notification_channel": {"name": "Mine"}}),
        )
        .expect(200);
    assert_eq!(patched.data()["name"], "Mine");
    let put = s
        .put(
            &format!("{CHANNELS}/{c}"),
            json!({"notification_channel": {"enabled": false}}),
        )
        .expect(200);
    assert_eq!(put.data()["enabled"], false);
    let tested = s
        .post(&format!("{CHANNELS}/{c}/test"), json!({}))
        .expect(200);
    assert!(tested.data()["last_succeeded_at"].is_string());
    assert_eq!(rx.count(), 1, "a test is sent even to a channel turned off");

    let settings = s.get("/reminder_settings").expect(200);
    assert_eq!(settings.data()["channel_ids"], json!([]));
    let changed = s
        .patch(
            "/reminder_settings",
            json!({"reminder_settings": {"channel_ids": [c]}}),
        )
        .expect(200);
    assert_eq!(changed.data()["channel_ids"], json!([c]));
    let put = s
        .put(
            "/reminder_settings",
            json!({"reminder_settings": {"daily_agenda": {"at": "06:30"}}}),
        )
        .expect(200);
    assert_eq!(put.data()["daily_agenda"]["at"], "06:30");
    s.patch(
        "/reminder_settings",
        json!({"reminder_settings": {"key_dates": {"days_before": [99]}}}),
    )
    .expect_error(422, "validation_failed", Some("key_dates.days_before"));

    let log = s.get("/notifications?limit=1&count=true").expect(200);
    let keys: Vec<&String> = log.body.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["data", "meta"], "{}", log.body);
    assert_eq!(log.data()[0]["kind"], "test");
    assert_eq!(log.body["meta"]["total_count"], 1);

    let deleted = s.delete(&format!("{CHANNELS}/{c}")).expect(204);
    assert_eq!(deleted.body, Value::Null);
    s.get(&format!("{CHANNELS}/{c}"))
        .expect_error(404, "not_found", None);
}

/// A test message that does not arrive is 422 `delivery_failed`, a JSON
/// error whose message says why: the receiver answered 500, or nothing
/// listens at the address.
#[test]
fn a_failed_test_is_422_delivery_failed() {
    let s = TestServer::start();
    let rx = HttpReceiver::start();
    rx.answer_status(500);
    for (name, url, says) in [
        ("Answers 500", rx.url("/hook"), "500"),
        ("Nobody", closed_port_url("/hook"), "did not arrive"),
    ] {
        let made = s
            .post(
                CHANNELS,
                json!({"notification_channel": {"name": name, "kind": "webhook", "url": url}}),
            )
            .expect(201);
        let c = made.data()["id"].as_str().unwrap().to_owned();
        let failed = s
            .post(&format!("{CHANNELS}/{c}/test"), json!({}))
            .expect_error(422, "delivery_failed", None);
        assert_eq!(failed.header("content-type"), Some("application/json"));
        let message = failed.body["error"]["message"].as_str().unwrap();
        assert!(message.contains(says), "{name}: {message}");
        let after = s.get(&format!("{CHANNELS}/{c}")).expect(200);
        assert!(after.data()["last_failed_at"].is_string(), "{name}");
        assert!(after.data()["last_error"].is_string(), "{name}");
    }
}

/// A channel's secret (an ntfy token, a webhook key, an SMTP password)
/// appears in no answer's bytes: create, read, list, change, the test
/// message (arrived or not) and the log.
#[test]
fn a_channel_secret_never_appears_in_any_answer() {
    let s = TestServer::start();
    let rx = HttpReceiver::start();
    let secrets = [
        "tk_ntfy-Secret-0001",
        "whsec_Secret-0002",
        "smtp-Secret-0003",
    ];
    let bodies = [
        json!({"name": "Phone", "kind": "ntfy", "url": rx.url("/alerts"), "secret": secrets[0]}),
        json!({"name": "Hook", "kind": "webhook", "url": rx.url("/hook"), "secret": secrets[1]}),
        json!({"name": "Mail", "kind": "email", "secret": secrets[2], "email": {
            "smtp_host": "127.0.0.1", "smtp_port": closed_port(), "security": "none", "username": "me", "from": "me@example.com", "to": "me@example.com"}}),
    ];
    let mut answers: Vec<String> = Vec::new();
    let mut ids = Vec::new();
    for body in bodies {
        let made = s
            .post(CHANNELS, json!({ "notification_channel": body }))
            .expect(201);
        assert_eq!(made.data()["secret_set"], true);
        ids.push(made.data()["id"].as_str().unwrap().to_owned());
        answers.push(made.body.to_string());
    }
    for c in &ids {
        let path = format!("{CHANNELS}/{c}");
        answers.push(s.get(&path).body.to_string());
        answers.push(
            s.patch(&path, json!({"notification_channel": {"enabled": true}}))
                .body
                .to_string(),
        );
        answers.push(s.post(&format!("{path}/test"), json!({})).body.to_string());
    }
    rx.answer_status(403);
    for c in &ids[..2] {
        answers.push(
            s.post(&format!("{CHANNELS}/{c}/test"), json!({}))
                .body
                .to_string(),
        );
    }
    answers.push(s.get(CHANNELS).body.to_string());
    answers.push(s.get("/notifications").body.to_string());
    for answer in &answers {
        for secret in secrets {
            assert!(!answer.contains(secret), "{secret} shown: {answer}");
        }
    }
    // They were sent where they belong.
    let got = rx.received();
    assert_eq!(
        got[0].header("authorization"),
        Some("Bearer tk_ntfy-Secret-0001")
    );
    assert!(got[1].header("x-organiser-signature").is_some());
}

/// The server runs the scheduler itself (the `reminders` job): once the
/// clock reaches a task's `remind_at`, the reminder arrives without
/// anything asking for it.
#[test]
fn the_server_sends_a_reminder_when_its_time_comes() {
    let s = TestServer::with_config(
        Setup::default(),
        organiser_server::Config {
            jobs: organiser_server::Jobs::Only(&["reminders"]),
            ..TestServer::config()
        },
    );
    let rx = HttpReceiver::start();
    let made = s
        .post(
            CHANNELS,
            json!({"notification_channel": {"name": "Phone", "kind": "ntfy", "url": rx.url("/alerts")}}),
        )
        .expect(201);
    s.patch(
        "/reminder_settings",
        json!({"reminder_settings": {"channel_ids": [made.data()["id"]]}}),
    )
    .expect(200);
    s.post(
        "/tasks",
        json!({"task": {"title": "Stand up", "remind_at": "2026-03-10T09:05:00Z"}}),
    )
    .expect(201);
    // The job looks every second: a second and a half of nothing.
    let early = rx.wait_until(Duration::from_millis(1500), |got| !got.is_empty());
    assert!(early.is_err(), "sent before its time: {early:?}");
    s.advance(300);
    let got = rx.wait_for(1, Duration::from_secs(10));
    assert_eq!(got[0].header("title"), Some("Stand up"));
}

/// `organiser serve` killed with SIGKILL while a webhook is answering
/// one reminder, then started again on the same data directory: every
/// reminder arrives (the one cut off is sent again, and those that fall
/// due while the server is down or after it is back are sent), and no
/// notification the receiver had answered before the kill arrives a
/// second time (each named by `X-Organiser-Delivery`).
#[test]
fn a_kill_mid_delivery_loses_no_reminder_and_repeats_none_answered() {
    let dir = util::Dir::new();
    let server = dir.serve();
    let _ = rustls::crypto::ring::default_provider().install_default();
    let client = reqwest::blocking::Client::builder()
        .timeout(Duration::from_secs(20))
        .build()
        .unwrap();
    // A request to the server at `url` with `token`; the answer's body.
    let api = |url: &str, token: &str, method: &str, path: &str, body: Option<Value>| -> Value {
        let mut request = client
            .request(method.parse().unwrap(), format!("{url}/api/v1{path}"))
            .bearer_auth(token);
        if let Some(body) = body {
            request = request.json(&body);
        }
        send(request).body
    };
    let rx = HttpReceiver::start();
    // The first two answered at once, the third held (the server is
    // killed while it waits), the rest at once.
    rx.then([
        Reply::ok(),
        Reply::ok(),
        Reply::ok().after(Duration::from_secs(8)),
    ]);
    let (url, token) = (server.url.clone(), server.token.clone());
    let hook = api(
        &url,
        &token,
        "POST",
        CHANNELS,
        Some(
            json!({"notification_channel": {"name": "Hook", "kind": "webhook",
                    "url": rx.url("/hook"), "secret": "k"}}),
        ),
    );
    let hook_id = hook["data"]["id"].as_str().expect("a channel").to_owned();
    api(
        &url,
        &token,
        "PATCH",
        "/reminder_settings",
        Some(json!({"reminder_settings": {"channel_ids": [hook_id],
                    "key_dates": {"days_before": []}, "deadlines": {"days_before": []}}})),
    );
    // Five due in a few seconds, together; two due later, while the
    // server is down or once it is back.
    let now = jiff::Timestamp::now();
    let soon = now + jiff::SignedDuration::from_secs(5);
    let later = now + jiff::SignedDuration::from_secs(15);
    let mut tasks = HashSet::new();
    for (i, at) in [soon, soon, soon, soon, soon, later, later]
        .iter()
        .enumerate()
    {
        let made = api(
            &url,
            &token,
            "POST",
            "/tasks",
            Some(json!({"task": {"title": format!("Reminder {i}"), "remind_at": at.to_string()}})),
        );
        tasks.insert(made["data"]["id"].as_str().expect("a task").to_owned());
    }

    // The third delivery is being answered: kill the server now.
    rx.wait_for(3, Duration::from_secs(30));
    let status = server.stop_with("KILL");
    assert!(!status.success(), "{status}");
    let before_kill = rx.received();
    let answered: HashSet<String> = before_kill
        .iter()
        .filter(|r| r.answered.is_some())
        .map(Received::delivery)
        .collect();
    assert_eq!(answered.len(), 2, "{before_kill:#?}");
    let cut_off = before_kill[2].delivery();

    let server = dir.serve();
    let (url, token) = (server.url.clone(), server.token.clone());
    // Wait until every reminder arrived and the log says each was sent.
    let wanted = tasks.len();
    rx.wait_until(Duration::from_secs(60), |got| {
        got.iter()
            .map(Received::delivery)
            .collect::<HashSet<_>>()
            .len()
            >= wanted
    })
    .unwrap_or_else(|got| panic!("not every reminder arrived: {got:#?}"));
    let mut log = Vec::new();
    for _ in 0..100 {
        log = api(&url, &token, "GET", "/notifications?limit=100", None)["data"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        if log.len() == wanted && log.iter().all(|n| n["status"] == "sent") {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(
        log.len() == wanted && log.iter().all(|n| n["status"] == "sent"),
        "{log:#?}"
    );
    let all = rx.received();
    let times = tally(
        all.iter()
            .map(|r| r.header("x-organiser-delivery").unwrap()),
    );
    for id in &answered {
        assert_eq!(
            times[id], 1,
            "{id} was answered before the kill and came again"
        );
    }
    assert!(times[&cut_off] >= 2, "the delivery cut off was sent again");
    let subjects: HashSet<String> = all
        .iter()
        .map(|r| r.json()["subject"]["id"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(subjects, tasks, "every task's reminder arrived");
    let by_id: HashMap<String, &Value> = log
        .iter()
        .map(|n| (n["id"].as_str().unwrap().to_owned(), n))
        .collect();
    for id in times.keys() {
        assert!(by_id.contains_key(id), "{id} is not in the log");
    }
    drop(server);
}

/// No channel secret reaches `organiser serve`'s log: not its request
/// lines, not the warnings of failed deliveries, over channels made,
/// tested (arriving and failing) and delivering a reminder that fails on
/// each of them.
#[test]
fn the_server_never_logs_a_channel_secret() {
    let dir = util::Dir::new();
    let server = dir.serve();
    let _ = rustls::crypto::ring::default_provider().install_default();
    let client = reqwest::blocking::Client::new();
    let api = |method: &str, path: &str, body: Value| -> Value {
        let response = client
            .request(
                method.parse().unwrap(),
                format!("{}/api/v1{path}", server.url),
            )
            .bearer_auth(&server.token)
            .json(&body)
            .send()
            .unwrap();
        serde_json::from_slice(&response.bytes().unwrap()).unwrap_or(Value::Null)
    };
    let rx = HttpReceiver::start();
    let secrets = [
        "tk_LogSecret-ntfy",
        "whsec_LogSecret-hook",
        "LogSecret-smtp",
    ];
    let bodies = [
        json!({"name": "Phone", "kind": "ntfy", "url": rx.url("/alerts"), "secret": secrets[0]}),
        json!({"name": "Hook", "kind": "webhook", "url": rx.url("/hook"), "secret": secrets[1]}),
        json!({"name": "Mail", "kind": "email", "secret": secrets[2], "email": {
            "smtp_host": "127.0.0.1", "smtp_port": closed_port(), "security": "none",
            "username": "me", "from": "me@example.com", "to": "me@example.com"}}),
    ];
    let ids: Vec<String> = bodies
        .into_iter()
        .map(|b| {
            api("POST", CHANNELS, json!({ "notification_channel": b }))["data"]["id"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    for id in &ids {
        api("POST", &format!("{CHANNELS}/{id}/test"), json!({}));
    }
    // The receiver now refuses.
    rx.answer_status(500);
    for id in &ids[..2] {
        api("POST", &format!("{CHANNELS}/{id}/test"), json!({}));
    }
    api(
        "PATCH",
        "/reminder_settings",
        json!({"reminder_settings": {"channel_ids": ids}}),
    );
    let at = jiff::Timestamp::now() + jiff::SignedDuration::from_secs(2);
    api(
        "POST",
        "/tasks",
        json!({"task": {"title": "Stand up", "remind_at": at.to_string()}}),
    );
    // Three failures logged by the scheduler (one per channel).
    let got = rx.wait_for(5, Duration::from_secs(20));
    assert!(got.len() >= 5, "{got:#?}");
    std::thread::sleep(Duration::from_millis(500));

    let mark = "/api/v1/log-mark-reminders";
    util::http_get(&format!("{}{mark}", server.url), None);
    let said = server.wait_for_stderr(mark);
    assert!(
        said.contains("a reminder was not delivered"),
        "the failures are logged: {said}"
    );
    for secret in secrets {
        assert!(!said.contains(secret), "{secret} logged:\n{said}");
    }
}
