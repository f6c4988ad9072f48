//! `organiser calendar subscribe`, `calendar subscriptions`, `... rotate`
//! and `... rm` (EXTENSIONS.md §2) through the real binary: the address
//! printed once (alone on standard output off a terminal, with a QR code
//! on one), absolute in process and through a server, read back over
//! HTTP from a served store; listings never show it; a rotation or a
//! delete stops the old address; mistakes said as other commands say
//! them.

use std::time::Duration;

use serde_json::Value;

use crate::util::{Dir, Server, shape};

/// `GET url` with no token: the status, the `Content-Type` and the body.
fn get(url: &str) -> (u16, String, String) {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let client = reqwest::blocking::Client::builder()
        .timeout(Duration::from_secs(10))
        .build()
        .expect("an HTTP client");
    let response = client
        .get(url)
        .send()
        .unwrap_or_else(|e| panic!("GET {url}: {e}"));
    let status = response.status().as_u16();
    let content_type = response
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    (status, content_type, response.text().unwrap_or_default())
}

/// The one line a command printed, checked to be a feed's address below
/// `base`: `{base}/ics/<43 characters of base64url>.ics`.
#[track_caller]
fn address(stdout: &str, base: &str) -> String {
    assert_eq!(stdout.lines().count(), 1, "one line: {stdout:?}");
    let url = stdout.trim_end().to_owned();
    assert_eq!(format!("{url}\n"), stdout, "the address alone: {stdout:?}");
    let secret = url
        .strip_prefix(&format!("{base}/ics/"))
        .and_then(|rest| rest.strip_suffix(".ics"))
        .unwrap_or_else(|| panic!("{url} is not an address below {base}"));
    assert_eq!(secret.len(), 43, "{url}");
    assert!(
        secret
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'),
        "{url}"
    );
    url
}

/// The feed at `url` answers 200 `text/calendar`; its body.
#[track_caller]
fn readable(url: &str) -> String {
    let (status, content_type, body) = get(url);
    assert_eq!(status, 200, "GET {url}: {body}");
    assert_eq!(content_type, "text/calendar; charset=utf-8", "GET {url}");
    assert!(body.starts_with("BEGIN:VCALENDAR\r\n"), "{body}");
    body
}

/// The feed at `url` has stopped: 404 `not_found`, as the API says it.
#[track_caller]
fn stopped(url: &str) {
    let (status, _, body) = get(url);
    assert_eq!(status, 404, "GET {url}: {body}");
    let body: Value = serde_json::from_str(&body).expect("the JSON error");
    assert_eq!(body["error"]["code"], "not_found", "{body}");
}

/// The subscriptions' listing as JSON: `data`.
fn listed(dir: &Dir) -> Vec<Value> {
    dir.json(&["calendar", "subscriptions"])["data"]
        .as_array()
        .expect("an array")
        .clone()
}

#[test]
fn subscribe_prints_the_address_alone_off_a_terminal() {
    let dir = Dir::new();
    // In process, no server: below `organiser serve`'s default address.
    let out = dir.ok(&["calendar", "subscribe"]);
    assert_eq!(out.stderr, "", "{out:?}");
    address(&out.stdout, "http://127.0.0.1:7420");
    // Below the server's public address when the environment names it.
    let out = dir
        .cmd(&["calendar", "subscribe", "--name", "Phone"])
        .env("ORGANISER_PUBLIC_URL", "https://organiser.example.com/me/")
        .run()
        .success();
    assert_eq!(out.stderr, "", "{out:?}");
    address(&out.stdout, "https://organiser.example.com/me");
    // A public address that is none is refused before anything is made
    // (the address would be lost).
    let out = dir
        .cmd(&["calendar", "subscribe", "--name", "Lost"])
        .env("ORGANISER_PUBLIC_URL", "organiser.example.com")
        .run();
    assert!(
        out.error().contains("ORGANISER_PUBLIC_URL must be"),
        "{out:?}"
    );
    let names: Vec<String> = listed(&dir)
        .iter()
        .map(|s| s["name"].as_str().unwrap_or_default().to_owned())
        .collect();
    assert_eq!(names, ["Organiser", "Phone"]);
}

#[test]
fn subscribe_json_is_the_api_s_record_with_its_absolute_address() {
    let dir = Dir::new();
    dir.ok(&["lists", "add", "Work"]);
    dir.ok(&["projects", "add", "Website"]);
    let made = dir.json(&[
        "calendar",
        "subscribe",
        "--name",
        "  Phone  ",
        "--include",
        "key_dates,tasks",
        "--list",
        "work",
        "--project",
        "Website",
        "--alarm",
        "2h",
    ]);
    let sub = &made["data"];
    assert_eq!(sub["name"], "Phone", "{made}");
    // In the vocabulary's order, as the API keeps them.
    assert_eq!(sub["include"], serde_json::json!(["tasks", "key_dates"]));
    assert_eq!(sub["alarm_minutes"], 120);
    assert_eq!(sub["task_list_ids"].as_array().map(Vec::len), Some(1));
    assert_eq!(sub["project_ids"].as_array().map(Vec::len), Some(1));
    let url = sub["url"].as_str().expect("the address");
    address(&format!("{url}\n"), "http://127.0.0.1:7420");
    assert_eq!(
        shape(&made),
        serde_json::json!({"data": {
            "id": "string",
            "name": "string",
            "include": ["string"],
            "task_list_ids": ["string"],
            "project_ids": ["string"],
            "alarm_minutes": "number",
            "url": "string",
            "last_read_at": null,
            "created_at": "string",
            "updated_at": "string",
        }})
    );

    // Defaults: every kind, no limits, no alarm.
    let plain = dir.json(&["calendar", "subscribe"]);
    assert_eq!(plain["data"]["name"], "Organiser");
    assert_eq!(
        plain["data"]["include"],
        serde_json::json!(["tasks", "projects", "key_dates"])
    );
    assert_eq!(plain["data"]["task_list_ids"], Value::Null);
    assert_eq!(plain["data"]["alarm_minutes"], Value::Null);
}

#[test]
fn subscriptions_list_every_one_without_an_address() {
    let dir = Dir::new();
    let out = dir.ok(&["calendar", "subscriptions"]);
    assert!(out.stdout.contains("· 0 subscriptions"), "{out:?}");
    assert!(out.stdout.contains("calendar subscribe"), "{out:?}");

    dir.ok(&["lists", "add", "Work"]);
    dir.ok(&["projects", "add", "Website"]);
    let first = dir.ok(&["calendar", "subscribe"]).stdout;
    let second = dir
        .ok(&[
            "calendar",
            "subscribe",
            "--name",
            "Work phone",
            "--include",
            "tasks",
            "--include",
            "projects",
            "--list",
            "Work",
            "--project",
            "Website",
            "--alarm",
            "15m",
        ])
        .stdout;
    let out = dir.ok(&["calendar", "subscriptions"]);
    for secret_part in [&first, &second] {
        let secret = secret_part.trim().rsplit('/').next().unwrap();
        assert!(!out.stdout.contains(secret), "{out:?}");
    }
    assert!(!out.stdout.contains("/ics/"), "{out:?}");
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert!(lines[0].contains("· 2 subscriptions"), "{out:?}");
    for column in [
        "#",
        "ID",
        "NAME",
        "INCLUDE",
        "LIMITS",
        "ALARM",
        "LAST READ",
        "CREATED",
    ] {
        assert!(lines[1].contains(column), "no {column}: {out:?}");
    }
    // Oldest first.
    assert!(lines[2].starts_with("1 "), "{out:?}");
    assert!(lines[2].contains("Organiser"), "{out:?}");
    assert!(lines[2].contains("tasks, projects, key_dates"), "{out:?}");
    assert!(lines[2].contains("never"), "{out:?}");
    assert!(lines[3].contains("Work phone"), "{out:?}");
    assert!(lines[3].contains("list Work, project Website"), "{out:?}");
    assert!(lines[3].contains("15m before"), "{out:?}");

    for sub in listed(&dir) {
        assert!(sub.get("url").is_none(), "{sub}");
    }
}

#[test]
fn a_served_store_answers_the_printed_address_and_rotate_and_rm_stop_it() {
    let dir = Dir::new();
    dir.ok(&["tasks", "add", "Pay rent", "--deadline", "+3d"]);
    let server: Server = dir.serve();
    // Through the server: the address it answers, absolute, as the CLI
    // reached it.
    let out = dir.ok(&["calendar", "subscribe", "--name", "Phone"]);
    assert_eq!(out.stderr, "", "{out:?}");
    let first = address(&out.stdout, &server.url);
    let body = readable(&first);
    assert!(body.contains("X-WR-CALNAME:Phone\r\n"), "{body}");
    assert!(body.contains("SUMMARY:Pay rent\r\n"), "{body}");

    // Rotated by its name: a new address, printed alone; the old one stops.
    let out = dir.ok(&["calendar", "subscriptions", "rotate", "phone"]);
    let second = address(&out.stdout, &server.url);
    assert_ne!(first, second);
    stopped(&first);
    readable(&second);
    // --json: the API's record with the new address.
    let listing = dir.ok(&["calendar", "subscriptions"]).stdout;
    assert!(!listing.contains("/ics/"), "{listing}");
    let third = dir.json(&["calendar", "subscriptions", "rotate", "1"]);
    let third = third["data"]["url"].as_str().expect("url").to_owned();
    address(&format!("{third}\n"), &server.url);
    stopped(&second);
    readable(&third);

    // Reading the feed shows in the listing.
    let read = listed(&dir);
    assert!(read[0]["last_read_at"].is_string(), "{read:?}");

    // Deleted by its row: the address stops at once.
    dir.ok(&["calendar", "subscriptions"]);
    let out = dir.ok(&["calendar", "subscriptions", "rm", "1"]);
    assert!(
        out.stdout
            .starts_with("Deleted calendar subscription Phone ("),
        "{out:?}"
    );
    stopped(&third);
    assert!(listed(&dir).is_empty());
    let out = dir.run(&["calendar", "subscriptions", "rm", "Phone"]);
    assert!(
        out.error()
            .starts_with("there is no calendar subscription named \"Phone\""),
        "{out:?}"
    );
    assert!(server.stop().success());
}

#[test]
fn rm_json_says_what_was_deleted() {
    let dir = Dir::new();
    let made = dir.json(&["calendar", "subscribe", "--name", "Tablet"]);
    let id = made["data"]["id"].as_str().unwrap().to_owned();
    let out = dir.json(&["calendar", "subscriptions", "rm", &id]);
    assert_eq!(out, serde_json::json!({"data": {"deleted": id}}));
    // Rotating what is gone: said plainly.
    let out = dir.run(&["calendar", "subscriptions", "rotate", &id]);
    assert!(
        out.error()
            .starts_with(&format!("there is no calendar subscription {id}")),
        "{out:?}"
    );
}

#[test]
fn mistakes_are_said_with_the_flag_and_make_nothing() {
    let dir = Dir::new();
    // Not a span: a usage mistake, as clap says them (exit 2).
    let out = dir
        .run(&["calendar", "subscribe", "--alarm", "soon"])
        .failure(2);
    assert!(out.stderr.contains("--alarm"), "{out:?}");
    assert!(out.stderr.contains("15m, 2h, 1d or 0"), "{out:?}");
    assert_eq!(out.stdout, "");
    let out = dir
        .run(&["calendar", "subscribe", "--include", "birthdays"])
        .failure(2);
    assert!(out.stderr.contains("tasks, projects, key_dates"), "{out:?}");
    // Over a week: the core's refusal, named by the flag (exit 1).
    let out = dir.run(&["calendar", "subscribe", "--alarm", "8d"]);
    assert_eq!(
        out.error(),
        "--alarm (in minutes) must be a whole number from 0 to 10080"
    );
    let out = dir.run(&["calendar", "subscribe", "--alarm", "8d", "--json"]);
    out.error();
    let error = out.json_error();
    assert_eq!(error["code"], "validation_failed", "{out:?}");
    assert!(error["details"]["alarm_minutes"].is_array(), "{out:?}");
    // A week is the most.
    dir.ok(&["calendar", "subscribe", "--alarm", "7d"]);
    // An unknown list or project, as other commands say it.
    let out = dir.run(&["calendar", "subscribe", "--list", "Nope"]);
    assert!(
        out.error().starts_with("there is no list named \"Nope\""),
        "{out:?}"
    );
    let out = dir.run(&["calendar", "subscribe", "--project", "Nope"]);
    assert!(
        out.error()
            .starts_with("there is no project named \"Nope\""),
        "{out:?}"
    );
    // A deleted list's ID: the core's refusal.
    let list = dir.json(&["lists", "add", "Gone"])["data"]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    dir.ok(&["lists", "rm", "Gone"]);
    let out = dir.run(&["calendar", "subscribe", "--list", &list]);
    assert_eq!(
        out.error(),
        format!("--list names {list}, which does not exist")
    );
    let out = dir.run(&["calendar", "subscribe", "--name", "   "]);
    assert!(out.error().starts_with("--name "), "{out:?}");
    // Only the 7d one was made.
    assert_eq!(listed(&dir).len(), 1);
}

#[test]
fn on_a_terminal_the_address_comes_with_a_qr_code() {
    let dir = Dir::new();
    let out = dir
        .cmd(&["calendar", "subscribe", "--name", "Phone"])
        .on_terminal()
        .run()
        .success();
    assert!(out.stdout.contains("http://127.0.0.1:7420/ics/"), "{out:?}");
    assert!(
        out.stdout.contains('▀') && out.stdout.contains('▄'),
        "no QR code: {out:?}"
    );
    assert!(out.stdout.contains("shown only now"), "{out:?}");
    assert!(
        out.stdout.contains("calendar subscriptions rotate"),
        "{out:?}"
    );
    // With --json, the JSON alone.
    let out = dir
        .cmd(&["calendar", "subscribe", "--json"])
        .on_terminal()
        .run()
        .success();
    assert!(!out.stdout.contains('▀'), "{out:?}");
    assert!(out.stdout.contains("\"url\""), "{out:?}");
    // A rotation too.
    let out = dir
        .cmd(&["calendar", "subscriptions", "rotate", "Phone"])
        .on_terminal()
        .run()
        .success();
    assert!(out.stdout.contains('▀'), "no QR code: {out:?}");
    assert!(
        out.stdout.contains("the old address has stopped"),
        "{out:?}"
    );
}

#[test]
fn the_agenda_still_takes_its_days() {
    let dir = Dir::new();
    dir.ok(&["calendar", "next", "week"]);
    dir.ok(&["calendar", "today..+2d"]);
}

#[test]
fn completions_and_man_pages_name_the_commands() {
    let dir = Dir::empty();
    let script = dir.ok(&["completions", "bash"]).stdout;
    for word in [
        "subscribe",
        "subscriptions",
        "rotate",
        "--alarm",
        "key_dates",
    ] {
        assert!(script.contains(word), "no {word} in the bash script");
    }
    let page = dir.ok(&["man", "calendar", "subscribe"]).stdout;
    assert!(page.starts_with(".ie") || page.starts_with(".TH"), "{page}");
    assert!(page.contains("organiser\\-calendar\\-subscribe"), "{page}");
    assert!(page.contains("\\-\\-alarm"), "{page}");
    let pages = dir.root().join("man1");
    dir.ok(&["man", "--dir", pages.to_str().unwrap()]);
    for page in [
        "organiser-calendar-subscribe.1",
        "organiser-calendar-subscriptions.1",
        "organiser-calendar-subscriptions-rotate.1",
        "organiser-calendar-subscriptions-rm.1",
    ] {
        assert!(pages.join(page).is_file(), "no {page}");
    }
    assert!(!dir.data().exists(), "completions and man touch no store");
}
