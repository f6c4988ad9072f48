//! Feeds from a newcomer's side (issue 22): subscribing to an address
//! subscribed already says so, and a feed subscribed through a server
//! that allows private addresses stays allowed when a command syncs it
//! without the setting; a refusal says how to allow them.

use crate::feed_server::{FeedServer, ical};
use crate::util::Dir;

fn calendar() -> String {
    ical(&[
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "BEGIN:VEVENT",
        "UID:1",
        "SUMMARY:Standup",
        "DTSTART:20260310T090000Z",
        "END:VEVENT",
        "END:VCALENDAR",
    ])
}

#[test]
fn an_address_subscribed_already_says_so() {
    let dir = Dir::new();
    let server = FeedServer::start();
    server.answer("team.ics", 200, &calendar());
    let address = server.address("team.ics");
    let add = |extra: &[&str]| {
        let mut args = vec!["feeds", "add", address.as_str()];
        args.extend_from_slice(extra);
        dir.cmd(&args)
            .env("ORGANISER_ALLOW_PRIVATE_FEEDS", "1")
            .run()
    };
    add(&["--name", "Team"]).success();
    let out = add(&[]).failure(1);
    assert!(
        out.error()
            .contains("you subscribe to this address already, as Team"),
        "{out:?}"
    );
    add(&["--name", "Team again", "--again"]).success();
}

#[test]
fn a_feed_allowed_private_stays_allowed_whichever_process_syncs_it() {
    let dir = Dir::new();
    let server = FeedServer::start();
    server.answer("home.ics", 200, &calendar());
    // Subscribed through a server that allows private addresses.
    let serving = dir.serve_with(&[("ORGANISER_ALLOW_PRIVATE_FEEDS", "1")]);
    dir.ok(&[
        "feeds",
        "add",
        &server.address("home.ics"),
        "--name",
        "Home",
    ]);
    assert!(serving.stop().success());
    // Synced in this process, which does not say so: not refused.
    let out = dir.ok(&["feeds", "sync", "Home"]);
    assert_eq!(out.stdout, "Home: ok\n", "{out:?}");
    // A new private address without the setting: refused, saying how to
    // allow it.
    let out = dir
        .run(&["feeds", "add", &server.address("home.ics"), "--again"])
        .failure(1);
    assert!(
        out.error().contains("ORGANISER_ALLOW_PRIVATE_FEEDS=1"),
        "{out:?}"
    );
}
