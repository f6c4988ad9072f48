//! The agenda as it is received: one e-mail with every part (today's
//! queue, a meeting from a calendar feed in the owner's zone, a key date,
//! a task's and a project's deadline), in plain text and in HTML, word
//! for word. `cargo test --test rules agenda_by_email -- --nocapture`
//! prints both.

use serde_json::json;

use super::{email, run_at, set, start_with};
use crate::common::Setup;
use crate::common::feed_server::{FeedServer, vcalendar};
use crate::common::fixtures::{new_task, set_zone};
use crate::common::receivers::SmtpReceiver;

#[test]
fn the_agenda_by_email_says_the_whole_day_in_text_and_html() {
    let mut setup = Setup::default();
    setup.options.allow_private_feeds = true;
    setup.options.public_url = Some("https://organiser.example.com".to_owned());
    let s = start_with(setup);
    set_zone(&s, "Europe/Paris");
    let smtp = SmtpReceiver::start();
    let mail = email(&s, "Mail", &smtp);

    // Today is Tuesday 10 March 2026 (09:00 UTC, 10:00 in Paris). The
    // queue is in its own order: the newest task first.
    for title in ["Call the bank", "Water the plants"] {
        new_task(&s, json!({"title": title, "start_on": "2026-03-10"}));
    }
    new_task(
        &s,
        json!({"title": "Pay rent", "deadline_on": "2026-03-11"}),
    );
    new_task(
        &s,
        json!({"title": "Send the invoice", "deadline_on": "2026-03-12"}),
    );
    s.post(
        "/projects",
        json!({"project": {"name": "Kitchen", "status": "active", "deadline": "2026-03-11"}}),
    )
    .expect(201);
    s.post(
        "/people",
        json!({"person": {"name": "Ada Lovelace",
               "key_dates": [{"kind": "birthday", "day": 11, "month": 3, "year": 1990}]}}),
    )
    .expect(201);
    let feeds = FeedServer::start();
    feeds.serve(
        "/work.ics",
        vcalendar(&[
            "UID:standup\nSUMMARY:Stand-up & planning\nDTSTART:20260311T080000Z\nDTEND:20260311T081500Z",
            "UID:offsite\nSUMMARY:Team offsite\nDTSTART;VALUE=DATE:20260311\nDTEND;VALUE=DATE:20260312",
        ]),
    );
    s.post(
        "/calendar_feeds",
        json!({"calendar_feed": {"address": feeds.url("/work.ics"), "color": "blue"}}),
    )
    .expect(201);
    set(
        &s,
        json!({"channel_ids": [mail["id"]], "daily_agenda": {"enabled": true, "at": "07:30"},
               "key_dates": {"days_before": []}, "deadlines": {"days_before": []}}),
    );

    // 07:30 in Paris on Wednesday 11 March is 06:30 UTC.
    assert_eq!(run_at(&s, "2026-03-11T06:29:00Z").sent, 0);
    assert_eq!(run_at(&s, "2026-03-11T06:30:00Z").sent, 1);
    let got = smtp
        .wait_for(1, std::time::Duration::from_secs(5))
        .remove(0);
    let (plain, html) = (got.plain(), got.html());
    eprintln!(
        "Subject: {}\n\n{plain}\n\n{html}",
        got.header("subject").unwrap_or_default()
    );
    assert_eq!(
        got.header("subject").as_deref(),
        Some("Your day: Wednesday 11 March")
    );
    assert_eq!(
        plain,
        "Today\n- Water the plants\n- Call the bank\n\n\
         Meetings\n- All day: Team offsite\n- 09:00 Stand-up & planning\n\n\
         Key dates\n- Ada Lovelace's birthday (36 years)\n\n\
         Deadlines\n- Pay rent\n- Project: Kitchen\n\n\
         https://organiser.example.com/"
    );
    assert_eq!(
        html,
        "<!doctype html><html><body><h2>Your day: Wednesday 11 March</h2>\
         <h3>Today</h3><ul><li>Water the plants</li><li>Call the bank</li></ul>\
         <h3>Meetings</h3><ul><li>All day: Team offsite</li><li>09:00 Stand-up &amp; planning</li></ul>\
         <h3>Key dates</h3><ul><li>Ada Lovelace's birthday (36 years)</li></ul>\
         <h3>Deadlines</h3><ul><li>Pay rent</li><li>Project: Kitchen</li></ul>\
         <p><a href=\"https://organiser.example.com/\">Open in Organiser</a></p></body></html>"
    );
}
