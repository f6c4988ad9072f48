//! The calendar to subscribe to over a real socket (EXTENSIONS.md §2):
//! the feed at the server's root, `/ics/{secret}.ics`, read without a
//! token (its content type, `ETag` and 304, 404 as the JSON error for an
//! unknown or stopped address, nothing of it below `/api/v1`), the
//! absolute `url` of create and rotation; the secret never shown again,
//! in an answer, an error or a log line; unknown and stopped secrets
//! refused in the same time; the general rate limit; and khal reading the
//! feed as a person's calendar program would. The rules are tested in
//! process (tests/rules/calendar_subscriptions.rs).

use std::path::Path;
use std::time::{Duration, Instant};

use organiser::server::{Method, Request};
use organiser::{Auth, Organiser};
use serde_json::{Value, json};

use crate::common::programs::{khal_config, khal_list, require, tool};
use crate::common::{Setup, TestServer, send};

use crate::util;

const PATH: &str = "/calendar_subscriptions";

/// Makes a subscription of `fields` with the test's token; the record,
/// with its `url`.
#[track_caller]
fn subscribe(s: &TestServer, fields: Value) -> Value {
    s.post(PATH, json!({ "calendar_subscription": fields }))
        .expect(201)
        .data()
        .clone()
}

/// The secret of an absolute address served by `s`, which must be
/// `{s.url}/ics/{secret}.ics`.
#[track_caller]
fn secret(s: &TestServer, sub: &Value) -> String {
    let url = sub["url"].as_str().expect("a url");
    url.strip_prefix(&format!("{}/ics/", s.url))
        .and_then(|rest| rest.strip_suffix(".ics"))
        .unwrap_or_else(|| panic!("{url} is not {}/ics/<secret>.ics", s.url))
        .to_owned()
}

/// `GET /ics/{secret}.ics` at the root, without credentials.
fn feed(s: &TestServer, secret: &str) -> reqwest::blocking::RequestBuilder {
    s.bare("GET", &format!("//ics/{secret}.ics"))
}

/// A string of `n` characters of the secrets' alphabet, from `seed`: an
/// address nobody was given.
fn made_up(seed: u64, n: usize) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            ALPHABET[(x % 64) as usize] as char
        })
        .collect()
}

/// The feed is at the root with no token: 200 `text/calendar;
/// charset=utf-8` with an `ETag`, 304 without a body for `If-None-Match`
/// naming it, 404 `not_found` (the JSON error) for an unknown address;
/// below `/api/v1` there is no feed; and `url` is absolute.
#[test]
fn the_feed_is_served_at_the_root_without_a_token() {
    let s = TestServer::start();
    s.post(
        "/tasks",
        json!({"task": {"title": "Pay rent", "deadline_on": "2026-03-31"}}),
    )
    .expect(201);
    let sub = subscribe(&s, json!({"name": "Phone"}));
    let secret = secret(&s, &sub);
    let reply = send(feed(&s, &secret)).expect(200);
    assert_eq!(
        reply.header("content-type"),
        Some("text/calendar; charset=utf-8")
    );
    let etag = reply.header("etag").expect("an ETag").to_owned();
    assert!(etag.starts_with('"') && etag.ends_with('"'), "{etag}");
    let text = reply.body.as_str().expect("text").to_owned();
    assert!(text.starts_with("BEGIN:VCALENDAR\r\n"), "{text}");
    assert!(text.contains("X-WR-CALNAME:Phone\r\n"), "{text}");
    assert!(text.contains("SUMMARY:Pay rent\r\n"), "{text}");
    assert!(text.ends_with("END:VCALENDAR\r\n"), "{text}");
    // The same with a token: the address is the credential, a token
    // changes nothing.
    let with_token = send(s.req("GET", &format!("//ics/{secret}.ics"))).expect(200);
    assert_eq!(with_token.body.as_str(), Some(text.as_str()));
    // 304 for the copy held, without a body.
    for named in [etag.clone(), format!("W/{etag}")] {
        let reply = send(feed(&s, &secret).header("if-none-match", &named)).expect(304);
        assert_eq!(reply.body, Value::Null, "no body");
        assert_eq!(reply.header("etag"), Some(etag.as_str()));
    }
    send(feed(&s, &secret).header("if-none-match", "\"stale\"")).expect(200);
    // A change to a task changes the tag.
    s.post(
        "/tasks",
        json!({"task": {"title": "Call Ada", "deadline_on": "2026-04-01"}}),
    )
    .expect(201);
    let changed = send(feed(&s, &secret).header("if-none-match", &etag)).expect(200);
    assert_ne!(changed.header("etag"), Some(etag.as_str()));
    // An unknown address is the JSON 404.
    for unknown in [made_up(1, secret.len()), "x".to_owned()] {
        let reply = send(feed(&s, &unknown)).expect_error(404, "not_found", None);
        assert_eq!(reply.header("content-type"), Some("application/json"));
    }
    send(s.bare("GET", &format!("//ics/{secret}"))).expect_error(404, "not_found", None);
    // Below /api/v1 there is no feed: 401 without a token, 404 with one.
    let below = format!("/ics/{secret}.ics");
    send(s.bare("GET", &below)).expect_error(401, "unauthorized", None);
    let reply = s.get(&below).expect_error(404, "not_found", None);
    assert_ne!(
        reply.header("content-type"),
        Some("text/calendar; charset=utf-8")
    );
}

/// `url` is absolute with the server's address as the client reached
/// it, in the answers of create and rotation; a rotated address answers
/// 404 at once and the new one 200; a deleted subscription's address
/// 404 at once.
#[test]
fn rotation_and_deletion_stop_the_address_at_once() {
    let s = TestServer::start();
    let sub = subscribe(&s, json!({}));
    let old = secret(&s, &sub);
    let (etag, text) = {
        let reply = send(feed(&s, &old)).expect(200);
        (
            reply.header("etag").unwrap().to_owned(),
            reply.body.as_str().unwrap().to_owned(),
        )
    };
    let id = sub["id"].as_str().unwrap();
    let rotated = s
        .post(&format!("{PATH}/{id}/rotation"), json!(null))
        .expect(200)
        .data()
        .clone();
    let new = secret(&s, &rotated);
    assert_ne!(new, old);
    send(feed(&s, &old)).expect_error(404, "not_found", None);
    send(feed(&s, &old).header("if-none-match", &etag)).expect_error(404, "not_found", None);
    let reply = send(feed(&s, &new)).expect(200);
    assert_eq!(reply.body.as_str(), Some(text.as_str()));
    send(feed(&s, &new).header("if-none-match", &etag)).expect(304);
    s.delete(&format!("{PATH}/{id}")).expect(204);
    send(feed(&s, &new)).expect_error(404, "not_found", None);
    send(feed(&s, &new).header("if-none-match", &etag)).expect_error(404, "not_found", None);
}

/// The secret is shown once: never in the list, a get, a change, any
/// error's body, nor any header.
#[test]
fn the_secret_is_never_shown_again() {
    let s = TestServer::start();
    let sub = subscribe(&s, json!({"name": "Phone"}));
    let id = sub["id"].as_str().unwrap().to_owned();
    let first = secret(&s, &sub);
    let rotated = s
        .post(&format!("{PATH}/{id}/rotation"), json!(null))
        .expect(200)
        .data()
        .clone();
    let second = secret(&s, &rotated);
    let replies = vec![
        s.get(PATH).expect(200),
        s.get(&format!("{PATH}/{id}")).expect(200),
        s.patch(
            &format!("{PATH}/{id}"),
            json!({"calendar_subscription": {"alarm_minutes": 5}}),
        )
        .expect(200),
        s.patch(
            &format!("{PATH}/{id}"),
            json!({"calendar_subscription": {"name": ""}}),
        )
        .expect(422),
        s.post(PATH, json!({"calendar_subscription": {"include": []}}))
            .expect(422),
        send(feed(&s, &first)).expect(404),
        send(feed(&s, &format!("{first}x"))).expect(404),
        send(feed(&s, &second).header("if-none-match", "\"x\"")).expect(200),
        send(s.bare("GET", &format!("/ics/{second}.ics"))).expect(401),
        s.get(&format!("/ics/{second}.ics")).expect(404),
        s.get(&format!("/ics/{second}")).expect(404),
    ];
    for reply in &replies {
        // The feed's own answer holds the calendar, not its address.
        let body = reply.body.to_string();
        for secret in [&first, &second] {
            assert!(!body.contains(secret.as_str()), "{body}");
            for (name, value) in &reply.headers {
                let value = value.to_str().unwrap_or_default();
                assert!(!value.contains(secret.as_str()), "{name}: {value}");
            }
        }
    }
    s.delete(&format!("{PATH}/{id}")).expect(204);
    let gone = send(feed(&s, &second)).expect(404);
    assert!(!gone.body.to_string().contains(&second));
    assert_eq!(s.get(PATH).expect(200).data(), &json!([]));
}

/// The median of `times`.
fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

/// How long `org` takes to answer `GET /ics/{file}` at its root, which
/// must be 404.
fn refusal(org: &Organiser, file: &str) -> Duration {
    let mut request = Request::new(Method::Get, format!("/ics/{file}"), Auth::Anonymous);
    request.at_root = true;
    let started = Instant::now();
    let answer = org.handle(&request);
    let took = started.elapsed();
    assert_eq!(answer.status, 404);
    took
}

/// An unknown address and a stopped one (rotated, deleted) are refused
/// in the same time: the medians of a few hundred refusals each, asked
/// in turn, in process (the core's work alone) and over HTTP, within a
/// factor of two of each other.
#[test]
fn unknown_and_stopped_secrets_are_refused_in_the_same_time() {
    let s = TestServer::start();
    // A store with something in it, and several live subscriptions.
    for n in 0..20 {
        s.post(
            "/tasks",
            json!({"task": {"title": format!("Task {n}"), "deadline_on": "2026-04-01"}}),
        )
        .expect(201);
        subscribe(&s, json!({}));
    }
    let rotated = subscribe(&s, json!({}));
    let rotated_secret = secret(&s, &rotated);
    s.post(
        &format!("{PATH}/{}/rotation", rotated["id"].as_str().unwrap()),
        json!(null),
    )
    .expect(200);
    let deleted = subscribe(&s, json!({}));
    let deleted_secret = secret(&s, &deleted);
    s.delete(&format!("{PATH}/{}", deleted["id"].as_str().unwrap()))
        .expect(204);
    let len = rotated_secret.len();
    let within = |what: &str, unknown: Duration, stopped: Duration| {
        let ratio = stopped.as_secs_f64() / unknown.as_secs_f64();
        assert!(
            (0.5..=2.0).contains(&ratio),
            "{what}: a stopped secret is refused in {stopped:?}, an unknown one in \
             {unknown:?} (ratio {ratio:.2})"
        );
    };

    // In process: the core's refusal alone.
    let (mut unknown, mut by_rotation, mut by_deletion) = (Vec::new(), Vec::new(), Vec::new());
    for round in 0..400_u64 {
        let files = [
            format!("{}.ics", made_up(round, len)),
            format!("{rotated_secret}.ics"),
            format!("{deleted_secret}.ics"),
        ];
        // Each kind first in turn, so no kind is always warmest.
        for k in 0..3 {
            let which = (k + round as usize) % 3;
            let took = refusal(&s.org, &files[which]);
            [&mut unknown, &mut by_rotation, &mut by_deletion][which].push(took);
        }
    }
    let unknown_median = median(unknown);
    within("in process, rotated", unknown_median, median(by_rotation));
    within("in process, deleted", unknown_median, median(by_deletion));

    // Over HTTP, on one kept-alive connection.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let client = reqwest::blocking::Client::new();
    let ask = |secret: &str| {
        let started = Instant::now();
        let response = client
            .get(format!("{}/ics/{secret}.ics", s.url))
            .send()
            .unwrap();
        let status = response.status().as_u16();
        let _ = response.bytes().unwrap();
        assert_eq!(status, 404);
        started.elapsed()
    };
    let (mut unknown, mut by_rotation, mut by_deletion) = (Vec::new(), Vec::new(), Vec::new());
    for round in 0..200_u64 {
        let secrets = [
            made_up(10_000 + round, len),
            rotated_secret.clone(),
            deleted_secret.clone(),
        ];
        for k in 0..3 {
            let which = (k + round as usize) % 3;
            let took = ask(&secrets[which]);
            [&mut unknown, &mut by_rotation, &mut by_deletion][which].push(took);
        }
    }
    let unknown_median = median(unknown);
    within("over HTTP, rotated", unknown_median, median(by_rotation));
    within("over HTTP, deleted", unknown_median, median(by_deletion));
}

/// The general rate limit counts the feed's requests, known or not, and
/// refuses them as any other: 429 with `Retry-After`.
#[test]
fn the_general_rate_limit_applies_to_the_feed() {
    let s = TestServer::with(Setup {
        rate_limit: 5,
        ..Setup::default()
    });
    // Made at the machine, which the general limit does not count.
    let sub = send(
        s.local("POST", PATH)
            .json(&json!({"calendar_subscription": {}})),
    )
    .expect(201)
    .data()
    .clone();
    let secret = secret(&s, &sub);
    for _ in 0..4 {
        send(feed(&s, &secret)).expect(200);
    }
    send(feed(&s, &made_up(7, secret.len()))).expect(404);
    let refused = send(feed(&s, &secret)).expect_error(429, "rate_limited", None);
    assert_eq!(refused.header("retry-after"), Some("60"));
    // A guesser is refused before any lookup, known address or not.
    send(feed(&s, &made_up(8, secret.len()))).expect_error(429, "rate_limited", None);
    s.advance(60);
    send(feed(&s, &secret)).expect(200);
}

/// The server's log names a feed's requests by the route's template and
/// never holds a secret: `organiser serve`'s request log, over a store
/// with a subscription read, revalidated, rotated, refused and deleted.
#[test]
fn the_server_never_logs_a_secret() {
    let dir = util::Dir::new();
    let server = dir.serve();
    let _ = rustls::crypto::ring::default_provider().install_default();
    let client = reqwest::blocking::Client::new();
    let api = |method: reqwest::Method, path: &str, body: Value| -> Value {
        let response = client
            .request(method, format!("{}/api/v1{path}", server.url))
            .bearer_auth(&server.token)
            .json(&body)
            .send()
            .unwrap();
        let bytes = response.bytes().unwrap();
        serde_json::from_slice(&bytes).unwrap_or(Value::Null)
    };
    let get = |url: String, if_none_match: Option<&str>| -> (u16, Option<String>) {
        let mut request = client.get(url);
        if let Some(tag) = if_none_match {
            request = request.header("if-none-match", tag);
        }
        let response = request.send().unwrap();
        let status = response.status().as_u16();
        let etag = response
            .headers()
            .get("etag")
            .map(|v| v.to_str().unwrap().to_owned());
        let _ = response.bytes();
        (status, etag)
    };
    let made = api(
        reqwest::Method::POST,
        PATH,
        json!({"calendar_subscription": {"name": "Phone"}}),
    );
    let id = made["data"]["id"].as_str().unwrap().to_owned();
    let first_url = made["data"]["url"].as_str().unwrap().to_owned();
    let first = first_url
        .rsplit('/')
        .next()
        .unwrap()
        .trim_end_matches(".ics")
        .to_owned();
    let (status, etag) = get(first_url.clone(), None);
    assert_eq!(status, 200);
    assert_eq!(get(first_url.clone(), etag.as_deref()).0, 304);
    assert_eq!(get(format!("{first_url}?refresh=1"), None).0, 200);
    assert_eq!(get(format!("{}/ics/{first}", server.url), None).0, 404);
    // With a trailing slash (whatever it answers).
    get(format!("{first_url}/"), None);
    let rotated = api(
        reqwest::Method::POST,
        &format!("{PATH}/{id}/rotation"),
        json!(null),
    );
    let second_url = rotated["data"]["url"].as_str().unwrap().to_owned();
    let second = second_url
        .rsplit('/')
        .next()
        .unwrap()
        .trim_end_matches(".ics")
        .to_owned();
    assert_eq!(get(first_url.clone(), None).0, 404);
    assert_eq!(get(second_url.clone(), None).0, 200);
    api(
        reqwest::Method::DELETE,
        &format!("{PATH}/{id}"),
        json!(null),
    );
    assert_eq!(get(second_url.clone(), None).0, 404);
    // Below /api/v1 there is no feed, and the address is no less secret.
    assert_eq!(
        get(format!("{}/api/v1/ics/{second}.ics", server.url), None).0,
        401
    );

    // Every line before a marked request of our own is in.
    let mark = "/api/v1/log-mark-calendar-subscriptions";
    util::http_get(&format!("{}{mark}", server.url), None);
    let said = server.wait_for_stderr(mark);
    let requests: Vec<&str> = said
        .lines()
        .filter(|l| l.contains("organiser::request"))
        .collect();
    // The feed's requests at the root, each by its template.
    let at_root: Vec<&str> = said
        .lines()
        .filter(|l| !l.contains("/api/v1/ics/"))
        .collect();
    for secret in [&first, &second] {
        for line in &at_root {
            assert!(
                !line.contains(secret.as_str()),
                "the server logged a secret: {line}"
            );
        }
    }
    let feed_lines = requests
        .iter()
        .filter(|l| l.contains("path=/ics/{secret}.ics"))
        .count();
    assert_eq!(feed_lines, 8, "each feed request, by its template:\n{said}");
    // An address asked for below /api/v1 (a mistaken prefix) is no less
    // secret.
    for secret in [&first, &second] {
        for line in said.lines() {
            assert!(
                !line.contains(secret.as_str()),
                "the server logged a secret asked for below /api/v1: {line}"
            );
        }
    }
}

// ------------------------------------------------------------------ khal

/// The feed as a subscribing program keeps it in a khal calendar (a
/// vdir): each event, with its alarm, in a calendar of its own, in a file
/// named by its UID.
fn write_vdir(feed: &str, calendar: &Path) -> usize {
    let lines: Vec<&str> = feed.split("\r\n").collect();
    let prodid = *lines
        .iter()
        .find(|l| l.starts_with("PRODID:"))
        .expect("a PRODID");
    let mut written = 0;
    let mut event: Option<Vec<&str>> = None;
    for line in lines {
        match (&mut event, line) {
            (None, "BEGIN:VEVENT") => event = Some(vec![line]),
            (Some(lines), "END:VEVENT") => {
                lines.push(line);
                let text = lines.join("\r\n");
                let uid = text
                    .replace("\r\n ", "")
                    .lines()
                    .find_map(|l| l.strip_prefix("UID:").map(str::to_owned))
                    .expect("a UID");
                let file = format!(
                    "BEGIN:VCALENDAR\r\nVERSION:2.0\r\n{prodid}\r\n{text}\r\nEND:VCALENDAR\r\n"
                );
                std::fs::write(calendar.join(format!("{uid}.ics")), file).unwrap();
                written += 1;
                event = None;
            }
            (Some(lines), _) => lines.push(line),
            (None, _) => {}
        }
    }
    written
}

/// khal, reading the feed as a person's calendar program would, shows
/// the items on their days: a task's deadline, a weekly task's dates, a
/// project's start, a birthday every year, and a birthday on 29 February
/// on 1 March in a common year.
#[test]
fn khal_shows_the_feed_on_the_right_days() {
    require("khal");
    let s = TestServer::start();
    s.post(
        "/tasks",
        json!({"task": {"title": "Pay rent", "deadline_on": "2026-03-31"}}),
    )
    .expect(201);
    s.post(
        "/tasks",
        json!({"task": {"title": "Water the plants", "deadline_on": "2026-03-17",
                        "repeat": {"rule": "FREQ=WEEKLY;COUNT=3"}}}),
    )
    .expect(201);
    s.post(
        "/projects",
        json!({"project": {"name": "Kitchen", "status": "planned",
                           "start_date": "2026-04-01", "deadline": "2026-06-30"}}),
    )
    .expect(201);
    for (name, date) in [
        (
            "Ada Lovelace",
            json!({"kind": "birthday", "day": 10, "month": 12, "year": 1915}),
        ),
        (
            "Leap Person",
            json!({"kind": "birthday", "day": 29, "month": 2}),
        ),
    ] {
        s.post(
            "/people",
            json!({"person": {"name": name, "key_dates": [date]}}),
        )
        .expect(201);
    }
    let sub = subscribe(&s, json!({"name": "Organiser", "alarm_minutes": 60}));
    let text = send(feed(&s, &secret(&s, &sub)))
        .expect(200)
        .body
        .as_str()
        .unwrap()
        .to_owned();

    let home = tempfile::tempdir().unwrap();
    let calendar = home.path().join("calendar");
    std::fs::create_dir_all(&calendar).unwrap();
    // 2 tasks, 2 project dates, 1 birthday, 5 years of 29 February.
    assert_eq!(write_vdir(&text, &calendar), 10, "{text}");
    let config = khal_config(home.path(), &calendar);
    let config = config.to_str().unwrap();
    let list = |from: &str, to: &str| khal_list(home.path(), Path::new(config), from, to);
    assert_eq!(
        list("2026-03-10", "2026-04-30"),
        [
            "2026-03-17 Water the plants",
            "2026-03-24 Water the plants",
            "2026-03-31 Pay rent",
            "2026-03-31 Water the plants",
            "2026-04-01 Kitchen: start",
        ],
        "khal's list of March and April 2026"
    );
    assert_eq!(
        list("2026-06-30", "2026-06-30"),
        ["2026-06-30 Kitchen: deadline"]
    );
    for year in [2026, 2027, 2031] {
        assert_eq!(
            list(&format!("{year}-12-01"), &format!("{year}-12-31")),
            [format!("{year}-12-10 Ada Lovelace's birthday")],
            "{year}"
        );
    }
    // 29 February: on 1 March in a common year, on the day in a leap year.
    assert_eq!(
        list("2027-02-27", "2027-03-02"),
        ["2027-03-01 Leap Person's birthday"]
    );
    assert_eq!(
        list("2028-02-27", "2028-03-02"),
        ["2028-02-29 Leap Person's birthday"]
    );
    // The same in khal's own words, as a person would read it.
    let out = tool(
        "khal",
        home.path(),
        &["-c", config, "list", "2026-03-31", "2026-03-31"],
    );
    assert!(
        out.contains("2026-03-31") && out.contains("Pay rent"),
        "khal list 2026-03-31:\n{out}"
    );
}
