//! Document 3, "Calendar feeds" after create, with the decisions
//! ("Feeds"): the listing, GET, PATCH and PUT (which changes fetch),
//! DELETE, and read-only mode.

use serde_json::json;

use super::{change, events, feed_of, feeds_core, get_feed, label, unnamed};
use super::{ids_of, new_feed, patch_feed, sync, titles};
use crate::common::fixtures::{START, UNKNOWN, all, assert_listed, deletions, id};
use crate::common::fixtures::{now_string, records};
use crate::common::{Answer, Call, Core, Expect, FeedServer, Setup, check};
use organiser::Options;

/// "Calendar feeds" listing: `order` `name` (ignoring case and accents),
/// `id`, `updated_at`, both directions, ties by id, pages of one with
/// `count`, `updated_since`; other parameters are 400.
#[test]
fn the_listing_takes_each_order_and_pages() {
    let s = feeds_core();
    let server = FeedServer::start();
    server.serve("/a.ics", unnamed("A"));
    let mut made = Vec::new();
    for name in ["banana", "Apple", "Éclair", "cherry", "Fig", "date"] {
        made.push(new_feed(
            &s,
            json!({"name": name, "address": server.url("/a.ics"), "color": "blue"}),
        ));
        s.advance(1);
    }
    let by_name = |names: &[&str]| -> Vec<String> {
        names
            .iter()
            .map(|n| id(made.iter().find(|f| f["name"] == json!(n)).unwrap()))
            .collect()
    };
    let name_order = by_name(&["Apple", "banana", "cherry", "date", "Éclair", "Fig"]);
    assert_listed(&s, "/calendar_feeds?order=name", &name_order);
    assert_listed(&s, "/calendar_feeds?order=name&direction=asc", &name_order);
    let reversed: Vec<String> = name_order.iter().rev().cloned().collect();
    assert_listed(&s, "/calendar_feeds?order=name&direction=desc", &reversed);
    let id_order = ids_of(&made);
    assert_listed(&s, "/calendar_feeds?order=id", &id_order);

    // A change and a sync both give a new updated_at.
    s.advance(10);
    let banana = id(&made[0]);
    let cherry = id(&made[3]);
    patch_feed(&s, &banana, json!({"color": "red"})).expect(200);
    s.advance(1);
    sync(&s, &cherry).expect(200);
    let since = now_string(&s);
    let mut updated = by_name(&["Apple", "Éclair", "Fig", "date"]);
    updated.sort_by_key(|i| made.iter().position(|f| id(f) == *i).expect("made"));
    updated.extend([banana.clone(), cherry.clone()]);
    assert_listed(&s, "/calendar_feeds?order=updated_at", &updated);
    assert_listed(
        &s,
        &format!("/calendar_feeds?updated_since={since}"),
        std::slice::from_ref(&cherry),
    );
    let page = s.get("/calendar_feeds?count=true&limit=2").expect(200);
    assert_eq!(page.body["meta"]["total_count"], 6);
    assert_eq!(page.body["meta"]["limit"], 2);
    assert!(page.body["meta"]["next_cursor"].is_string());
    assert_eq!(
        s.get("/calendar_feeds?limit=500").expect(200).body["meta"]["limit"],
        100
    );

    for query in [
        "order=color",
        "order=created_at",
        "direction=sideways",
        "count=yes",
        "updated_since=yesterday",
        "limit=x",
    ] {
        check(
            &s,
            Call::get(format!("/calendar_feeds?{query}")),
            Expect::bad_param(None),
        );
    }
}

/// "Calendar feeds" GET, PATCH and PUT: a name, colour or frequency saves
/// without a fetch and gives a new `updated_at`; sync times stay; the
/// same address as stored does not fetch; PUT is PATCH.
#[test]
fn a_change_of_name_colour_or_frequency_does_not_fetch() {
    let s = feeds_core();
    let server = FeedServer::start();
    server.serve("/a.ics", unnamed("A"));
    let feed = new_feed(
        &s,
        json!({"name": "Work", "address": server.url("/a.ics"), "color": "blue"}),
    );
    let f = id(&feed);
    s.advance(30);
    let renamed = patch_feed(&s, &f, json!({"name": "  Day   job "})).expect(200);
    assert_eq!(renamed.data()["name"], "Day job");
    assert_eq!(renamed.data()["updated_at"], now_string(&s));
    assert_eq!(renamed.data()["last_attempt_at"], START);
    assert_eq!(renamed.data()["last_synced_at"], START);
    s.advance(1);
    let coloured = patch_feed(&s, &f, json!({"color": "teal"})).expect(200);
    assert_eq!(coloured.data()["color"], "teal");
    assert_eq!(coloured.data()["name"], "Day job");
    s.advance(1);
    let put = s
        .put(
            &format!("/calendar_feeds/{f}"),
            json!({"calendar_feed": {"sync_every": "6_hours"}}),
        )
        .expect(200);
    assert_eq!(put.data()["sync_every"], "6_hours");
    assert_eq!(put.data()["color"], "teal", "PUT changes only what is sent");
    assert_eq!(put.data()["updated_at"], now_string(&s));
    s.advance(1);
    let same = patch_feed(&s, &f, json!({"address": server.url("/a.ics")})).expect(200);
    assert_eq!(same.data()["last_attempt_at"], START, "no fetch");
    // Its own name in another case is fine.
    patch_feed(&s, &f, json!({"name": "DAY JOB"})).expect(200);
    assert_eq!(server.hits("/a.ics"), 1, "only the create fetched");
    assert_eq!(get_feed(&s, &f)["name"], "DAY JOB");
}

/// "Calendar feeds" change: every 400 and 422 (a blank name, a name taken
/// by another feed, an unknown colour or frequency, a bad address) and
/// nothing changes; unknown ids are 404.
#[test]
fn a_change_refuses_bad_fields_and_changes_nothing() {
    let s = feeds_core();
    let server = FeedServer::start();
    server.serve("/a.ics", unnamed("A"));
    new_feed(
        &s,
        json!({"name": "Home", "address": server.url("/a.ics"), "color": "blue"}),
    );
    let feed = new_feed(
        &s,
        json!({"name": "Work", "address": server.url("/a.ics"), "color": "blue"}),
    );
    let f = id(&feed);
    s.advance(10);
    let long_address = format!("https://example.com/{}", "a".repeat(2049 - 20));
    assert_eq!(long_address.len(), 2049);
    let cases = [
        (json!({"name": ""}), Expect::invalid("name")),
        (json!({"name": "   "}), Expect::invalid("name")),
        (json!({"name": null}), Expect::invalid("name")),
        (json!({"name": "HOME"}), Expect::invalid("name")),
        (json!({"name": "n".repeat(101)}), Expect::invalid("name")),
        (json!({"color": "mauve"}), Expect::invalid("color")),
        (
            json!({"sync_every": "weekly"}),
            Expect::invalid("sync_every"),
        ),
        (json!({"address": ""}), Expect::invalid("address")),
        (
            json!({"address": "ftp://127.0.0.1/a.ics"}),
            Expect::invalid("address"),
        ),
        (json!({"address": long_address}), Expect::invalid("address")),
        (
            json!({"name": "Fine", "color": "mauve"}),
            Expect::invalid("color"),
        ),
    ];
    for (fields, expected) in cases {
        check(&s, change(&f, fields.clone()), expected);
        assert_eq!(get_feed(&s, &f), feed, "{fields}: nothing changed");
    }
    check(
        &s,
        Call::patch(
            format!("/calendar_feeds/{f}"),
            json!({"calendar_feed": "Work"}),
        ),
        Expect::error(400, "invalid_json", None),
    );
    assert_eq!(server.hits("/a.ics"), 2, "only the creates fetched");
    for path in [
        format!("/calendar_feeds/{UNKNOWN}"),
        "/calendar_feeds/not-an-id".to_owned(),
    ] {
        check(
            &s,
            Call::get(path.clone()),
            Expect::error(404, "not_found", None),
        );
        check(
            &s,
            Call::patch(path.clone(), json!({"calendar_feed": {"name": "x"}})),
            Expect::error(404, "not_found", None),
        );
        check(
            &s,
            Call::put(path.clone(), json!({"calendar_feed": {"name": "x"}})),
            Expect::error(404, "not_found", None),
        );
        check(
            &s,
            Call::delete(path),
            Expect::error(404, "not_found", None),
        );
    }
}

/// "Calendar feeds" change of address: the new address is fetched first
/// and its events replace the old ones; an unreadable one is 422 on
/// `address` with the reason, and nothing changes (not the name sent with
/// it, not the events).
#[test]
fn a_new_address_is_fetched_first() {
    let s = feeds_core();
    let server = FeedServer::start();
    let feed = feed_of(&s, &server, "/old.ics", &unnamed("Old meeting"));
    let f = id(&feed);
    server.serve("/new.ics", unnamed("New meeting"));
    server.set("/gone.ics", Answer::status(410));
    s.advance(60);

    let refused = check(
        &s,
        change(
            &f,
            json!({"address": server.url("/gone.ics"), "name": "Renamed"}),
        ),
        Expect::invalid("address"),
    );
    assert_eq!(
        refused.body["error"]["details"]["address"],
        json!([label("not_found")])
    );
    assert_eq!(server.hits("/gone.ics"), 1);
    assert_eq!(get_feed(&s, &f), feed, "nothing changed");
    assert_eq!(
        titles(&events(&s, "2026-03-10", "2026-03-10")),
        ["Old meeting"]
    );

    s.advance(60);
    let moved = patch_feed(&s, &f, json!({"address": server.url("/new.ics")})).expect(200);
    assert_eq!(server.hits("/new.ics"), 1);
    let now = now_string(&s);
    assert_eq!(moved.data()["last_synced_at"], now);
    assert_eq!(moved.data()["last_attempt_at"], now);
    assert_eq!(moved.data()["updated_at"], now);
    assert_eq!(moved.data()["name"], feed["name"], "the name stays");
    assert_eq!(
        titles(&events(&s, "2026-03-10", "2026-03-10")),
        ["New meeting"]
    );
    // The old address is no longer read.
    sync(&s, &f).expect(200);
    assert_eq!(server.hits("/old.ics"), 1);
    assert_eq!(server.hits("/new.ics"), 2);
}

/// "Calendar feeds" DELETE: 204, permanent (404 after), a
/// `calendar_feed` deletion, and its events leave the calendar at once.
#[test]
fn delete_removes_the_feed_and_its_events() {
    let s = feeds_core();
    let server = FeedServer::start();
    let keep = feed_of(&s, &server, "/keep.ics", &unnamed("Kept"));
    let gone = feed_of(&s, &server, "/gone.ics", &unnamed("Dropped"));
    let g = id(&gone);
    assert_eq!(
        titles(&events(&s, "2026-03-10", "2026-03-10")),
        ["Dropped", "Kept"]
    );
    s.advance(5);
    s.delete(&format!("/calendar_feeds/{g}")).expect(204);
    assert_eq!(titles(&events(&s, "2026-03-10", "2026-03-10")), ["Kept"]);
    assert_eq!(deletions(&s), records(&[("calendar_feed", &g)]));
    let deletion = &all(&s, "/deletions")[0];
    assert_eq!(deletion["deleted_at"], now_string(&s));
    for call in [
        Call::get(format!("/calendar_feeds/{g}")),
        Call::delete(format!("/calendar_feeds/{g}")),
        Call::patch(
            format!("/calendar_feeds/{g}"),
            json!({"calendar_feed": {"name": "Back"}}),
        ),
        Call::new("POST", format!("/calendar_feeds/{g}/sync")),
    ] {
        check(&s, call, Expect::error(404, "not_found", None));
    }
    assert_eq!(ids_of(&all(&s, "/calendar_feeds")), [id(&keep)]);
    assert_eq!(server.hits("/gone.ics"), 1, "a deleted feed is not fetched");
    // Its name is free again.
    let again = new_feed(
        &s,
        json!({"name": gone["name"], "address": server.url("/gone.ics"), "color": "blue"}),
    );
    assert_eq!(again["name"], gone["name"]);
}

/// Document 1, "Read-only mode": every write to a feed, the syncs
/// included, is 403 `read_only`, fetches nothing and changes nothing;
/// reading still works.
#[test]
fn in_read_only_mode_every_feed_write_is_403() {
    let s = Core::with(Setup {
        options: Options {
            allow_private_feeds: true,
            ..Options::default()
        },
        ..Setup::default()
    });
    let server = FeedServer::start();
    let feed = feed_of(&s, &server, "/a.ics", &unnamed("A"));
    let f = id(&feed);
    server.serve("/b.ics", unnamed("B"));
    s.advance(15 * 86400);
    assert_eq!(s.get("/licence").data()["state"], "read_only");
    let writes = [
        Call::post(
            "/calendar_feeds",
            json!({"calendar_feed": {"address": server.url("/b.ics"), "color": "blue"}}),
        ),
        change(&f, json!({"name": "Renamed"})),
        change(&f, json!({"address": server.url("/b.ics")})),
        Call::put(
            format!("/calendar_feeds/{f}"),
            json!({"calendar_feed": {"color": "red"}}),
        ),
        Call::delete(format!("/calendar_feeds/{f}")),
        Call::new("POST", format!("/calendar_feeds/{f}/sync")),
        Call::new("POST", "/calendar_feeds/sync"),
    ];
    for call in writes {
        check(&s, call, Expect::error(403, "read_only", None));
    }
    assert_eq!((server.hits("/a.ics"), server.hits("/b.ics")), (1, 0));
    assert_eq!(get_feed(&s, &f), feed);
    assert_eq!(ids_of(&all(&s, "/calendar_feeds")), [f]);
    assert_eq!(titles(&events(&s, "2026-03-10", "2026-03-10")), ["A"]);
}
