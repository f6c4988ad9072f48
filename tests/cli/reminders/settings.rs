//! `reminders`, `reminders set` and `reminders log`, in process and
//! through a server.

use serde_json::json;

use super::Receiver;
use crate::util::Dir;

#[test]
fn reminder_settings_are_shown_and_set() {
    let dir = Dir::new();
    let out = dir.ok(&["reminders"]);
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert!(
        lines[0].starts_with("Channels      none: nothing is sent until `"),
        "{out:?}"
    );
    assert_eq!(lines[1], "Daily agenda  off (at 07:00 when on)");
    assert_eq!(
        lines[2],
        "Key dates     on the day and 7 days before, at 09:00"
    );
    assert_eq!(
        lines[3],
        "Deadlines     on the day and 1 day before, at 09:00"
    );
    assert!(out.stdout.contains("No notifications yet"), "{out:?}");
    assert_eq!(
        dir.json(&["reminders"]),
        json!({"data": {
            "channel_ids": [],
            "daily_agenda": {"enabled": false, "at": "07:00"},
            "key_dates": {"days_before": [0, 7], "at": "09:00"},
            "deadlines": {"days_before": [0, 1], "at": "09:00"},
        }})
    );

    dir.ok(&["notify", "add", "Phone", "--ntfy", "https://ntfy.sh/a"]);
    dir.ok(&[
        "notify",
        "add",
        "Mail",
        "--email",
        "me@example.com",
        "--smtp",
        "smtp.example.com",
    ]);
    let out = dir.ok(&[
        "reminders",
        "set",
        "--channels",
        "mail,phone",
        "--agenda",
        "07:30",
        "--key-dates",
        "14,0,3",
        "--key-dates-at",
        "08:00",
        "--deadlines",
        "none",
    ]);
    assert_eq!(
        out.stdout,
        "Reminder settings changed\n\
         Channels      Mail, Phone\n\
         Daily agenda  every day at 07:30\n\
         Key dates     on the day, 3 and 14 days before, at 08:00\n\
         Deadlines     off\n\
         Tasks         at each task's --remind time\n"
    );
    let set = dir.json(&[
        "reminders",
        "set",
        "--agenda",
        "off",
        "--deadlines",
        "1",
        "--deadlines-at",
        "18:00",
    ]);
    let settings = &set["data"];
    assert_eq!(
        settings["daily_agenda"],
        json!({"enabled": false, "at": "07:30"})
    );
    assert_eq!(
        settings["key_dates"],
        json!({"days_before": [0, 3, 14], "at": "08:00"})
    );
    assert_eq!(
        settings["deadlines"],
        json!({"days_before": [1], "at": "18:00"})
    );
    assert_eq!(settings["channel_ids"].as_array().map(Vec::len), Some(2));
    let on = dir.json(&["reminders", "set", "--agenda", "on"]);
    assert_eq!(
        on["data"]["daily_agenda"],
        json!({"enabled": true, "at": "07:30"})
    );
    let none = dir.json(&["reminders", "set", "--channels", "none"]);
    assert_eq!(none["data"]["channel_ids"], json!([]));

    // Mistakes: the usage's (exit 2), the API's named by the flags (exit 1).
    let out = dir.run(&["reminders", "set"]).failure(2);
    assert!(out.stderr.contains("nothing to change"), "{out:?}");
    let out = dir
        .run(&["reminders", "set", "--key-dates", "0,soon"])
        .failure(2);
    assert!(
        out.stderr
            .contains("--key-dates: \"soon\" is not a number of days"),
        "{out:?}"
    );
    for (args, said) in [
        (
            &["reminders", "set", "--agenda", "25:00"][..],
            "--agenda must be a time HH:MM, from 00:00 to 23:59",
        ),
        (
            &["reminders", "set", "--key-dates", "61"],
            "--key-dates must be whole numbers from 0 to 60",
        ),
        (
            &["reminders", "set", "--deadlines-at", "9am"],
            "--deadlines-at must be a time HH:MM, from 00:00 to 23:59",
        ),
    ] {
        assert_eq!(dir.run(args).error(), said, "{args:?}");
    }
    let out = dir.run(&["reminders", "set", "--channels", "Nope"]);
    assert!(
        out.error()
            .starts_with("there is no notification channel named \"Nope\""),
        "{out:?}"
    );
    let out = dir.run(&["reminders", "set", "--agenda", "7", "--json"]);
    out.error();
    assert!(
        out.json_error()["details"]["daily_agenda.at"].is_array(),
        "{out:?}"
    );
    // Nothing of the refused changes was kept.
    assert_eq!(
        dir.json(&["reminders"])["data"]["daily_agenda"]["at"],
        "07:30"
    );
}

#[test]
fn an_empty_log_says_so() {
    let dir = Dir::new();
    assert_eq!(
        dir.ok(&["reminders", "log"]).stdout,
        "No notifications yet.\n"
    );
    let page = dir.json(&["reminders", "log"]);
    assert_eq!(page["data"], json!([]));
}

#[test]
fn through_a_server_the_commands_say_the_same() {
    let dir = Dir::new();
    let receiver = Receiver::start();
    let server = dir.serve();
    dir.cmd(&[
        "notify",
        "add",
        "Phone",
        "--ntfy",
        &format!("{}/t", receiver.url),
        "--token",
        "-",
    ])
    .stdin("tk\n")
    .run()
    .success();
    let out = dir
        .cmd(&[
            "notify",
            "add",
            "Mail",
            "--email",
            "me@example.com",
            "--smtp",
            "127.0.0.1:1",
            "--password-stdin",
        ])
        .stdin("pw\n")
        .run()
        .success();
    assert!(out.stdout.contains("password stored"), "{out:?}");
    dir.ok(&["notify", "test", "Phone"]);
    assert_eq!(receiver.taken().len(), 1);
    assert!(
        dir.run(&["notify", "test", "Mail"])
            .error()
            .starts_with("The test message did not arrive")
    );
    dir.ok(&["reminders", "set", "--channels", "Phone"]);
    let out = dir.ok(&["reminders"]);
    assert!(out.stdout.starts_with("Channels      Phone\n"), "{out:?}");
    let made = dir.json(&["tasks", "add", "Call", "--remind", "tomorrow 9:00"]);
    assert!(made["data"]["remind_at"].is_string(), "{made}");
    assert_eq!(
        dir.json(&["reminders", "log"])["data"]
            .as_array()
            .map(Vec::len),
        Some(2)
    );
    dir.ok(&["notify", "rm", "Mail"]);
    assert!(server.stop().success());
}
