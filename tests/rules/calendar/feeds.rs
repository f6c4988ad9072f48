//! Document 3, "CalendarFeed" and "Calendar feeds" create, with the
//! decisions ("Feeds"): the fields, the name a feed takes, the fetch
//! first (422 and nothing saved when unreadable), idempotent creates.
//! Changes, the listing and delete are in `changes`.

use serde_json::{Value, json};

use super::{FEED_KEYS, change, create, events, feeds_core, get_feed, label};
use super::{ids_of, new_feed, post_feed, titles, unnamed};
use crate::common::fixtures::{START, all, deletions, id, keys};
use crate::common::{Answer, Call, Core, Expect, FeedServer, Vcal, check, send};

/// A calendar named `name` (`X-WR-CALNAME`) with one event on 2026-03-10.
fn named(name: &str) -> String {
    Vcal::new()
        .name(name)
        .event("UID:standup\nSUMMARY:Standup\nDTSTART:20260310T100000Z\nDTEND:20260310T101500Z")
        .build()
}

/// The names of `GET /calendar_feeds?order=name`, in order.
#[track_caller]
fn names(s: &Core) -> Vec<String> {
    all(s, "/calendar_feeds?order=name")
        .iter()
        .map(|f| f["name"].as_str().unwrap().to_owned())
        .collect()
}

/// "CalendarFeed": every field; the address is never returned, its host
/// is; a create fetches once and is synced now; `sync_every` is `hourly`
/// unless sent; the events are on the calendar at once.
#[test]
fn a_new_feed_has_every_field_and_its_events() {
    let s = feeds_core();
    let server = FeedServer::start();
    server.serve("/team.ics", named("Team   Calendar"));
    let address = server.url("/team.ics");
    let made = post_feed(
        &s,
        json!({"address": address, "color": "green", "sync_every": "daily"}),
    )
    .expect(201);
    let feed = made.data().clone();
    assert_eq!(keys(&feed), FEED_KEYS);
    assert_eq!(feed["id"].as_str().unwrap().len(), 26);
    assert_eq!(
        feed["name"], "Team Calendar",
        "the calendar's name, squished"
    );
    assert_eq!(feed["color"], "green");
    assert_eq!(
        feed["address_host"], "127.0.0.1",
        "the host without its port"
    );
    assert_eq!(feed["source"], Value::Null);
    assert_eq!(feed["sync_every"], "daily");
    assert_eq!(feed["sync_error"], Value::Null);
    for field in [
        "last_synced_at",
        "last_attempt_at",
        "created_at",
        "updated_at",
    ] {
        assert_eq!(feed[field], START, "{field}");
    }
    assert!(
        !made.body.to_string().contains(&address),
        "the address is secret: {}",
        made.body
    );
    assert_eq!(server.hits("/team.ics"), 1);
    assert_eq!(get_feed(&s, &id(&feed)), feed);

    let listed = events(&s, "2026-03-10", "2026-03-10");
    assert_eq!(titles(&listed), ["Standup"]);
    assert_eq!(listed[0]["feed_id"], feed["id"]);

    // The defaults, an explicit name squished, an address of any case.
    server.serve("/second.ics", unnamed("Review"));
    let second = new_feed(
        &s,
        json!({"name": "  My   Work ", "address": server.url("/second.ics").replace("http://", "HTTP://"), "color": "red"}),
    );
    assert_eq!(second["name"], "My Work");
    assert_eq!(second["sync_every"], "hourly");
    assert_eq!(second["address_host"], "127.0.0.1");
    // Every frequency is taken.
    for every in ["15_minutes", "30_minutes", "hourly", "6_hours", "daily"] {
        let made = new_feed(
            &s,
            json!({"name": format!("Every {every}"), "address": server.url("/second.ics"), "color": "blue", "sync_every": every}),
        );
        assert_eq!(made["sync_every"], every);
    }
}

/// "CalendarFeed" `address_host`: the host in lower case, without port.
#[test]
fn the_address_host_is_lower_case_without_port() {
    let s = feeds_core();
    let server = FeedServer::start();
    server.serve("/a.ics", unnamed("A"));
    let feed = new_feed(
        &s,
        json!({"name": "Local", "address": format!("http://LocalHost:{}/a.ics", server.port()), "color": "blue"}),
    );
    assert_eq!(feed["address_host"], "localhost");
    // `source` is found from the host; google.com, icloud.com and the
    // Outlook hosts cannot be served from loopback, so only "unknown" is
    // checked here.
    assert_eq!(feed["source"], Value::Null);
}

/// "Calendar feeds" `name`: blank or absent takes the calendar's
/// `X-WR-CALNAME` (squished, cut to 100), else the address's host; a
/// taken one becomes "Name (2)", "Name (3)", ... (taken ignoring case).
#[test]
fn a_blank_name_comes_from_the_calendar_else_the_host_numbered_when_taken() {
    let s = feeds_core();
    let server = FeedServer::start();
    server.serve("/team.ics", named("Team"));
    server.serve("/shouting.ics", named("TEAM"));
    server.serve("/plain.ics", unnamed("Plain"));
    server.serve("/long.ics", named(&"n".repeat(130)));
    let team = |s: &Core, name: Value| -> String {
        let mut fields = json!({"address": server.url("/team.ics"), "color": "blue"});
        if !name.is_null() {
            fields["name"] = name;
        }
        new_feed(s, fields)["name"].as_str().unwrap().to_owned()
    };
    assert_eq!(team(&s, Value::Null), "Team", "absent");
    assert_eq!(team(&s, json!("")), "Team (2)", "blank");
    assert_eq!(team(&s, json!("   ")), "Team (3)", "spaces");
    let fields = json!({"name": null, "address": server.url("/team.ics"), "color": "blue"});
    assert_eq!(new_feed(&s, fields)["name"], "Team (4)", "null");
    let shouting = json!({"address": server.url("/shouting.ics"), "color": "blue"});
    assert_eq!(
        new_feed(&s, shouting)["name"],
        "TEAM (5)",
        "taken ignoring case"
    );

    let plain = json!({"address": server.url("/plain.ics"), "color": "blue"});
    assert_eq!(new_feed(&s, plain.clone())["name"], "127.0.0.1");
    assert_eq!(new_feed(&s, plain)["name"], "127.0.0.1 (2)");
    server.serve("/blank.ics", named("   "));
    let blank = json!({"address": server.url("/blank.ics"), "color": "blue"});
    assert_eq!(
        new_feed(&s, blank)["name"],
        "127.0.0.1 (3)",
        "a blank calendar name"
    );

    let long = new_feed(
        &s,
        json!({"address": server.url("/long.ics"), "color": "blue"}),
    );
    assert_eq!(long["name"], "n".repeat(100), "cut to 100");
    let n100 = "n".repeat(100);
    assert_eq!(
        names(&s),
        [
            "127.0.0.1",
            "127.0.0.1 (2)",
            "127.0.0.1 (3)",
            n100.as_str(),
            "Team",
            "Team (2)",
            "Team (3)",
            "Team (4)",
            "TEAM (5)"
        ]
    );
}

/// "Calendar feeds" write fields and the decisions: every 400 and 422 of
/// a create, found before the fetch (the server is not asked) and saving
/// nothing.
#[test]
fn create_refuses_bad_fields_before_fetching_and_saves_nothing() {
    let s = feeds_core();
    let server = FeedServer::start();
    server.serve("/ok.ics", unnamed("Ok"));
    let ok = server.url("/ok.ics");
    let long_address = format!("{ok}?{}", "a".repeat(2049 - ok.len() - 1));
    assert_eq!(long_address.len(), 2049);
    let cases = [
        (json!({}), Expect::invalid("address")),
        (json!({"color": "blue"}), Expect::invalid("address")),
        (
            json!({"address": "", "color": "blue"}),
            Expect::invalid("address"),
        ),
        (
            json!({"address": "   ", "color": "blue"}),
            Expect::invalid("address"),
        ),
        (
            json!({"address": long_address, "color": "blue"}),
            Expect::invalid("address"),
        ),
        (
            json!({"address": "ftp://127.0.0.1/cal.ics", "color": "blue"}),
            Expect::invalid("address"),
        ),
        (
            json!({"address": "mailto:ada@example.com", "color": "blue"}),
            Expect::invalid("address"),
        ),
        (
            json!({"address": "file:///etc/passwd", "color": "blue"}),
            Expect::invalid("address"),
        ),
        (
            json!({"address": "https://", "color": "blue"}),
            Expect::invalid("address"),
        ),
        (
            json!({"address": "webcal://", "color": "blue"}),
            Expect::invalid("address"),
        ),
        (
            json!({"address": "calendar.ics", "color": "blue"}),
            Expect::invalid("address"),
        ),
        (
            json!({"address": "not an address", "color": "blue"}),
            Expect::invalid("address"),
        ),
        (json!({"address": ok}), Expect::invalid("color")),
        (
            json!({"address": ok, "color": "mauve"}),
            Expect::invalid("color"),
        ),
        (
            json!({"address": ok, "color": "Blue"}),
            Expect::invalid("color"),
        ),
        (
            json!({"address": ok, "color": "blue", "sync_every": "weekly"}),
            Expect::invalid("sync_every"),
        ),
        (
            json!({"address": ok, "color": "blue", "sync_every": "Hourly"}),
            Expect::invalid("sync_every"),
        ),
        (
            json!({"address": ok, "color": "blue", "sync_every": "60"}),
            Expect::invalid("sync_every"),
        ),
        (
            json!({"address": ok, "color": "blue", "name": "n".repeat(101)}),
            Expect::invalid("name"),
        ),
        (
            json!({"address": ok, "color": "blue", "name": "ü".repeat(101)}),
            Expect::invalid("name"),
        ),
    ];
    for (fields, expected) in cases {
        check(&s, create(fields), expected);
    }
    // Every mistake of a body is named at once.
    let both = check(
        &s,
        create(json!({"address": "ftp://x.org/a", "color": "mauve", "sync_every": "weekly"})),
        Expect::invalid("address"),
    );
    for key in ["color", "sync_every"] {
        assert!(
            both.detail_keys().iter().any(|k| k == key),
            "{key}: {}",
            both.body
        );
    }
    check(
        &s,
        Call::post("/calendar_feeds", json!({"calendar_feed": "Work"})),
        Expect::error(400, "invalid_json", None),
    );
    assert_eq!(server.hits("/ok.ics"), 0, "no field error fetches");
    assert!(all(&s, "/calendar_feeds").is_empty(), "nothing was made");
    assert!(deletions(&s).is_empty());

    // The longest address, 2048 characters, and the longest name are taken.
    let longest = format!("{ok}?{}", "a".repeat(2048 - ok.len() - 1));
    assert_eq!(longest.len(), 2048);
    let made = new_feed(
        &s,
        json!({"address": longest, "color": "blue", "name": "ü".repeat(100)}),
    );
    assert_eq!(made["name"], "ü".repeat(100));
    assert_eq!(server.hits("/ok.ics"), 1);
}

/// An `address` that is not a string, or a `name` that is neither a
/// string nor null, is 422 on the field (the API's rule for a field of the
/// wrong type; the spec names 400 only for `new_person_name` and
/// `avatar`), on create (before any fetch) and on change.
#[test]
fn an_address_or_name_of_the_wrong_type_is_422() {
    let s = feeds_core();
    let server = FeedServer::start();
    server.serve("/ok.ics", unnamed("Ok"));
    let ok = server.url("/ok.ics");
    let creates = [
        (json!({"address": 12, "color": "blue"}), "address"),
        (json!({"address": ["x"], "color": "blue"}), "address"),
        (json!({"address": {"url": ok}, "color": "blue"}), "address"),
        (json!({"address": ok, "color": "blue", "name": 12}), "name"),
        (
            json!({"address": ok, "color": "blue", "name": ["Work"]}),
            "name",
        ),
        (
            json!({"address": ok, "color": "blue", "name": false}),
            "name",
        ),
    ];
    for (fields, param) in creates {
        check(&s, create(fields), Expect::invalid(param));
    }
    assert_eq!(server.hits("/ok.ics"), 0, "refused before the fetch");
    assert!(all(&s, "/calendar_feeds").is_empty());
    let feed = new_feed(&s, json!({"name": "Work", "address": ok, "color": "blue"}));
    let f = id(&feed);
    for (fields, param) in [
        (json!({"name": 7}), "name"),
        (json!({"name": ["Home"]}), "name"),
        (json!({"address": 12}), "address"),
    ] {
        check(&s, change(&f, fields), Expect::invalid(param));
        assert_eq!(get_feed(&s, &f), feed);
    }
}

/// "Calendar feeds" `name`: unique ignoring case; a taken name sent
/// explicitly is 422 (found after the fetch), and nothing is saved.
#[test]
fn an_explicit_taken_name_is_refused() {
    let s = feeds_core();
    let server = FeedServer::start();
    server.serve("/a.ics", unnamed("A"));
    let work = new_feed(
        &s,
        json!({"name": "Work", "address": server.url("/a.ics"), "color": "blue"}),
    );
    for name in ["Work", "WORK", "  work  "] {
        check(
            &s,
            create(json!({"name": name, "address": server.url("/a.ics"), "color": "blue"})),
            Expect::invalid("name"),
        );
    }
    assert_eq!(ids_of(&all(&s, "/calendar_feeds")), [id(&work)]);
}

/// "Calendar feeds": an address that cannot be read is 422 on `address`
/// with the reason (the vocabulary's label of its sync error), and
/// nothing is saved: no feed, no deletion, no event.
#[test]
fn an_unreadable_address_is_422_with_the_reason_and_saves_nothing() {
    let s = feeds_core();
    let server = FeedServer::start();
    server.set("/gone.ics", Answer::status(404));
    server.set("/secret.ics", Answer::status(403));
    server.set("/broken.ics", Answer::status(500));
    server.set(
        "/page.html",
        Answer::html("<html><body>Hello</body></html>"),
    );
    let cases = [
        ("/gone.ics", "not_found"),
        ("/secret.ics", "denied"),
        ("/broken.ics", "server_error"),
        ("/page.html", "not_calendar"),
    ];
    for (path, code) in cases {
        let refused = check(
            &s,
            create(json!({"address": server.url(path), "color": "blue"})),
            Expect::invalid("address"),
        );
        assert_eq!(
            refused.body["error"]["details"]["address"],
            json!([label(code)]),
            "{path}"
        );
        assert_eq!(server.hits(path), 1, "{path}");
    }
    // webcal is fetched over https, which a plain-http server cannot answer.
    let webcal = server.url("/ok.ics").replace("http://", "webcal://");
    server.serve("/ok.ics", unnamed("Ok"));
    check(
        &s,
        create(json!({"address": webcal, "color": "blue"})),
        Expect::invalid("address"),
    );
    assert_eq!(server.hits("/ok.ics"), 0, "not fetched over plain http");
    assert!(all(&s, "/calendar_feeds").is_empty());
    assert!(deletions(&s).is_empty());
    assert!(events(&s, "2026-03-01", "2026-03-31").is_empty());
}

/// Document 1, "Idempotency": a create with a key replays without a
/// second fetch; the same key with another body is 422.
#[test]
fn an_idempotent_create_replays_without_fetching_again() {
    let s = feeds_core();
    let server = FeedServer::start();
    server.serve("/a.ics", unnamed("A"));
    let body = json!({"calendar_feed": {"address": server.url("/a.ics"), "color": "blue"}});
    let made = send(
        s.req("POST", "/calendar_feeds")
            .header("idempotency-key", "feed-1")
            .json(&body),
    )
    .expect(201);
    s.advance(5);
    let again = send(
        s.req("POST", "/calendar_feeds")
            .header("idempotency-key", "feed-1")
            .json(&body),
    )
    .expect(201);
    assert_eq!(again.header("idempotent-replayed"), Some("true"));
    assert_eq!(again.data(), made.data());
    assert_eq!(server.hits("/a.ics"), 1, "the replay does not fetch");
    assert_eq!(all(&s, "/calendar_feeds").len(), 1);
    let other = json!({"calendar_feed": {"address": server.url("/a.ics"), "color": "red"}});
    send(
        s.req("POST", "/calendar_feeds")
            .header("idempotency-key", "feed-1")
            .json(&other),
    )
    .expect_error(422, "idempotency_key_reused", None);
    assert_eq!(all(&s, "/calendar_feeds").len(), 1);
}

/// Document 1, "Idempotency": a retry while the first create still waits
/// on its fetch is 409 `idempotency_key_in_use`, and only the first
/// makes a feed.
#[test]
fn a_retry_while_the_create_still_fetches_is_409() {
    let s = feeds_core();
    let server = FeedServer::start();
    server.set(
        "/slow.ics",
        crate::common::Answer::calendar(unnamed("Slow"))
            .delay(std::time::Duration::from_millis(800)),
    );
    let body = json!({"calendar_feed": {"address": server.url("/slow.ics"), "color": "blue"}});
    std::thread::scope(|scope| {
        let first = scope.spawn(|| {
            send(
                s.req("POST", "/calendar_feeds")
                    .header("idempotency-key", "slow-1")
                    .json(&body),
            )
            .expect(201)
        });
        // Once the server has the first's request, the first waits on it.
        assert!(
            server.wait_for_hits("/slow.ics", 1, std::time::Duration::from_secs(10)),
            "the first create never fetched its feed"
        );
        send(
            s.req("POST", "/calendar_feeds")
                .header("idempotency-key", "slow-1")
                .json(&body),
        )
        .expect_error(409, "idempotency_key_in_use", None);
        first.join().expect("the first create");
    });
    assert_eq!(server.hits("/slow.ics"), 1);
    assert_eq!(all(&s, "/calendar_feeds").len(), 1);
}
