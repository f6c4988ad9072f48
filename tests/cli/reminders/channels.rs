//! `notify`, `notify add`, `notify test`, `notify on|off` and `notify
//! rm`: channels added and listed without their secrets, tested against
//! a receiver and a closed port, switched and deleted; the mistakes.

use serde_json::{Value, json};

use super::{Receiver, channels, closed_port};
use crate::util::{Dir, shape};

#[test]
fn channels_are_added_and_listed_without_their_secrets() {
    let dir = Dir::new();
    let out = dir.ok(&["notify"]);
    assert!(
        out.stdout
            .starts_with("Notification channels · 0 channels\n"),
        "{out:?}"
    );
    assert!(out.stdout.contains("notify add NAME --ntfy URL"), "{out:?}");

    // A token read from standard input (`-`), never from the command line.
    let out = dir
        .cmd(&[
            "notify",
            "add",
            "My",
            "phone",
            "--ntfy",
            "https://ntfy.sh/my-topic/",
            "--token",
            "-",
        ])
        .stdin("tk_secret_1\n")
        .run()
        .success();
    assert!(
        out.stdout.starts_with("Added ntfy channel My phone ("),
        "{out:?}"
    );
    assert!(
        out.stdout
            .contains("https://ntfy.sh/my-topic, token stored"),
        "{out:?}"
    );
    assert!(out.stdout.contains("notify test 'My phone'"), "{out:?}");
    assert!(
        out.stdout.contains("reminders set --channels 'My phone'"),
        "{out:?}"
    );
    dir.ok(&[
        "notify",
        "add",
        "Hook",
        "--webhook",
        "https://hooks.example.com/organiser",
        "--signing-key",
        "sk_secret_2",
    ]);
    let made = dir
        .cmd(&[
            "notify",
            "add",
            "Mail",
            "--email",
            "me@example.com, you@example.com",
            "--smtp",
            "smtp.example.com:2525",
            "--security",
            "tls",
            "--user",
            "me",
            "--password-stdin",
            "--json",
        ])
        .stdin("pw_secret_3\n")
        .run()
        .success()
        .json();
    assert_eq!(
        made["data"]["email"],
        json!({
            "smtp_host": "smtp.example.com",
            "smtp_port": 2525,
            "security": "tls",
            "username": "me",
            "from": "me@example.com",
            "to": "me@example.com, you@example.com",
        })
    );
    assert_eq!(made["data"]["secret_set"], true);
    assert!(made["data"].get("secret").is_none(), "{made}");
    // A password from the environment; the usual port for the security.
    let out = dir
        .cmd(&[
            "notify",
            "add",
            "Relay",
            "--email",
            "me@example.com",
            "--smtp",
            "localhost",
            "--security",
            "none",
            "--from",
            "Organiser <bot@example.com>",
            "--password-env",
            "SMTP_PASSWORD",
        ])
        .env("SMTP_PASSWORD", "pw_secret_4")
        .run()
        .success();
    assert!(
        out.stdout
            .contains("me@example.com via localhost:25 (none), password stored"),
        "{out:?}"
    );

    let out = dir.ok(&["notify"]);
    let json = dir.ok(&["notify", "--json"]).stdout;
    for secret in ["tk_secret_1", "sk_secret_2", "pw_secret_3", "pw_secret_4"] {
        assert!(!out.stdout.contains(secret), "{secret}: {out:?}");
        assert!(!json.contains(secret), "{secret}: {json}");
    }
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(lines[0], "Notification channels · 4 channels", "{out:?}");
    for column in [
        "#",
        "ID",
        "NAME",
        "KIND",
        "WHERE",
        "ON",
        "SECRET",
        "LAST SUCCESS",
        "LAST ERROR",
    ] {
        assert!(lines[1].contains(column), "no {column}: {out:?}");
    }
    // Oldest first.
    assert!(lines[2].starts_with("1 "), "{out:?}");
    assert!(lines[2].contains("My phone"), "{out:?}");
    assert!(lines[2].contains("https://ntfy.sh/my-topic"), "{out:?}");
    assert!(lines[2].contains("never"), "{out:?}");
    assert!(
        lines[3].contains("Hook") && lines[3].contains("webhook"),
        "{out:?}"
    );
    assert!(
        lines[4].contains("me@example.com, you@example.com via smtp.example.com:2525 (tls)"),
        "{out:?}"
    );
    let listed = channels(&dir);
    assert_eq!(
        shape(&listed[0]),
        json!({
            "id": "string",
            "name": "string",
            "kind": "string",
            "url": "string",
            "email": null,
            "secret_set": "bool",
            "enabled": "bool",
            "last_succeeded_at": null,
            "last_failed_at": null,
            "last_error": null,
            "created_at": "string",
            "updated_at": "string",
        })
    );
    let kinds: Vec<&str> = listed.iter().map(|c| c["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["ntfy", "webhook", "email", "email"]);

    // Once reminders go to some, the hint names them with the new one.
    dir.ok(&["reminders", "set", "--channels", "1,hook"]);
    let out = dir.ok(&["notify", "add", "Watch", "--ntfy", "https://ntfy.sh/watch"]);
    assert!(
        out.stdout
            .contains("reminders set --channels 'My phone,Hook,Watch'"),
        "{out:?}"
    );
}

#[test]
fn a_test_message_reaches_the_receiver_and_is_logged() {
    let dir = Dir::new();
    let receiver = Receiver::start();
    dir.ok(&[
        "notify",
        "add",
        "Phone",
        "--ntfy",
        &format!("{}/alerts", receiver.url),
        "--token",
        "tk_1",
    ]);
    dir.ok(&[
        "notify",
        "add",
        "Hook",
        "--webhook",
        &format!("{}/hook", receiver.url),
        "--signing-key",
        "sk_1",
    ]);
    let out = dir.ok(&["notify", "test", "phone"]);
    assert_eq!(
        out.stdout,
        format!(
            "Sent a test message to Phone ({}/alerts): it arrived\n",
            receiver.url
        )
    );
    let tested = dir.json(&["notify", "test", "Hook"]);
    assert!(tested["data"]["last_succeeded_at"].is_string(), "{tested}");

    let taken = receiver.taken();
    assert_eq!(taken.len(), 2, "{taken:?}");
    assert_eq!(taken[0].path, "/alerts");
    assert_eq!(taken[0].header("authorization"), Some("Bearer tk_1"));
    assert!(
        taken[0].header("x-organiser-delivery").is_some(),
        "{taken:?}"
    );
    assert_eq!(taken[1].path, "/hook");
    let body: Value = serde_json::from_str(&taken[1].body).expect("a JSON body");
    assert_eq!(body["kind"], "test");
    assert!(
        taken[1]
            .header("x-organiser-signature")
            .is_some_and(|s| s.starts_with("sha256=")),
        "{taken:?}"
    );

    let out = dir.ok(&["notify"]);
    assert!(!out.stdout.contains("never"), "{out:?}");
    assert!(!out.stdout.contains("failing"), "{out:?}");

    // The log, newest first: the webhook's test, then the topic's.
    let out = dir.ok(&["reminders", "log"]);
    let lines: Vec<&str> = out.stdout.lines().collect();
    for column in [
        "DUE", "KIND", "ABOUT", "CHANNEL", "STATUS", "SENT", "TRIES", "ERROR",
    ] {
        assert!(lines[0].contains(column), "no {column}: {out:?}");
    }
    assert_eq!(lines.len(), 3, "{out:?}");
    assert!(
        lines[1].contains("test") && lines[1].contains("Hook"),
        "{out:?}"
    );
    assert!(lines[1].contains("sent"), "{out:?}");
    assert!(lines[2].contains("Phone"), "{out:?}");
    let page = dir.json(&["reminders", "log", "--limit", "1"]);
    let items = page["data"].as_array().expect("a page");
    assert_eq!(items.len(), 1, "{page}");
    assert_eq!(items[0]["status"], "sent");
    assert_eq!(items[0]["attempts"], 1);
    assert_eq!(items[0]["channel_id"], tested["data"]["id"]);
    assert_eq!(
        shape(&items[0]),
        json!({
            "id": "string",
            "kind": "string",
            "subject_id": null,
            "channel_id": "string",
            "due_at": "string",
            "sent_at": "string",
            "status": "string",
            "attempts": "number",
            "error": null,
        })
    );
    // `organiser reminders` shows the latest under the settings.
    let out = dir.ok(&["reminders"]);
    assert!(out.stdout.contains("Latest notifications"), "{out:?}");
    assert!(out.stdout.contains("Hook"), "{out:?}");
}

#[test]
fn a_test_message_that_does_not_arrive_fails_with_the_reason() {
    let dir = Dir::new();
    dir.ok(&[
        "notify",
        "add",
        "Dead",
        "--webhook",
        &format!("{}/hook", closed_port()),
    ]);
    let out = dir.run(&["notify", "test", "Dead"]);
    let said = out.error();
    assert!(
        said.starts_with("The test message did not arrive: "),
        "{out:?}"
    );
    let out = dir.run(&["notify", "test", "dead", "--json"]);
    out.error();
    assert_eq!(out.json_error()["code"], "delivery_failed", "{out:?}");

    let out = dir.ok(&["notify"]);
    assert!(
        out.stdout
            .starts_with("Notification channels · 1 channel · 1 failing\n"),
        "{out:?}"
    );
    assert!(out.stdout.contains("never"), "{out:?}");
    let listed = channels(&dir);
    assert!(listed[0]["last_failed_at"].is_string(), "{listed:?}");
    assert!(listed[0]["last_error"].is_string(), "{listed:?}");
    let page = dir.json(&["reminders", "log"]);
    let items = page["data"].as_array().expect("a page");
    assert_eq!(items.len(), 2, "{page}");
    assert!(items.iter().all(|n| n["status"] == "failed"), "{page}");
    let out = dir.ok(&["reminders", "log"]);
    assert!(out.stdout.contains("failed"), "{out:?}");
}

#[test]
fn channels_are_turned_off_and_on_and_deleted() {
    let dir = Dir::new();
    dir.ok(&["notify", "add", "Phone", "--ntfy", "https://ntfy.sh/a"]);
    dir.ok(&["notify", "add", "Tablet", "--ntfy", "https://ntfy.sh/b"]);
    let out = dir.ok(&["notify", "off", "phone"]);
    assert!(
        out.stdout
            .starts_with("Phone is off: no reminders go to it until `"),
        "{out:?}"
    );
    assert!(out.stdout.contains("notify on Phone`"), "{out:?}");
    let out = dir.ok(&["notify", "off", "Phone"]);
    assert!(out.stdout.starts_with("Phone is already off"), "{out:?}");
    let listed = channels(&dir);
    assert_eq!(listed[0]["enabled"], false);
    let on = dir.json(&["notify", "on", "1"]);
    assert_eq!(on["data"]["enabled"], true);
    assert_eq!(
        dir.ok(&["notify", "on", "Phone"]).stdout,
        "Phone is already on: reminders go to it\n"
    );

    // A deleted channel leaves the settings.
    dir.ok(&["reminders", "set", "--channels", "Phone,Tablet"]);
    let out = dir.ok(&["notify", "rm", "Phone"]);
    assert!(
        out.stdout
            .starts_with("Deleted notification channel Phone ("),
        "{out:?}"
    );
    let settings = dir.json(&["reminders"]);
    assert_eq!(
        settings["data"]["channel_ids"].as_array().map(Vec::len),
        Some(1)
    );
    let out = dir.run(&["notify", "rm", "Phone"]);
    assert!(
        out.error()
            .starts_with("there is no notification channel named \"Phone\""),
        "{out:?}"
    );
    let id = channels(&dir)[0]["id"].as_str().unwrap().to_owned();
    let out = dir.json(&["notify", "rm", &id]);
    assert_eq!(out, json!({"data": {"deleted": id}}));
    let out = dir.run(&["notify", "test", &id]);
    assert!(
        out.error()
            .starts_with(&format!("there is no notification channel {id}")),
        "{out:?}"
    );
}

#[test]
fn channel_mistakes_are_said_with_the_flags_and_make_nothing() {
    let dir = Dir::new();
    // The command line's own mistakes (exit 2).
    for args in [
        &["notify", "add", "X"][..],
        &[
            "notify",
            "add",
            "X",
            "--ntfy",
            "https://ntfy.sh/a",
            "--webhook",
            "https://e.com",
        ],
        &[
            "notify",
            "add",
            "X",
            "--webhook",
            "https://e.com",
            "--token",
            "t",
        ],
        &[
            "notify",
            "add",
            "X",
            "--ntfy",
            "https://ntfy.sh/a",
            "--signing-key",
            "k",
        ],
        &["notify", "add", "X", "--email", "me@example.com"],
        &[
            "notify",
            "add",
            "X",
            "--ntfy",
            "https://ntfy.sh/a",
            "--smtp",
            "h",
        ],
        &[
            "notify",
            "add",
            "X",
            "--email",
            "a@b.c",
            "--smtp",
            "h",
            "--security",
            "ssl",
        ],
        &[
            "notify",
            "add",
            "X",
            "--email",
            "a@b.c",
            "--smtp",
            "h",
            "--password-stdin",
            "--password-env",
            "V",
        ],
    ] {
        let out = dir.run(args).failure(2);
        assert_eq!(out.stdout, "", "{args:?}");
    }
    // The API's refusals, named by the flags (exit 1).
    for (args, said) in [
        (
            &["notify", "add", "X", "--ntfy", "ftp://ntfy.sh/a"][..],
            "--ntfy is not a valid http or https address",
        ),
        (
            &["notify", "add", "X", "--ntfy", "https://ntfy.sh/"],
            "--ntfy must name the topic (such as https://ntfy.sh/my-topic)",
        ),
        (
            &["notify", "add", "X", "--webhook", "nowhere"],
            "--webhook is not a valid http or https address",
        ),
        (
            &[
                "notify",
                "add",
                "X",
                "--email",
                "nobody",
                "--smtp",
                "smtp.example.com",
                "--from",
                "me@example.com",
            ],
            "--email is not an e-mail address (name@example.com)",
        ),
        (
            &[
                "notify",
                "add",
                "X",
                "--email",
                "nobody",
                "--smtp",
                "smtp.example.com",
            ],
            "the sender (the first address of --email) is not an e-mail address (name@example.com); --email is not an e-mail address (name@example.com)",
        ),
        (
            &[
                "notify",
                "add",
                "X",
                "--email",
                "a@example.com",
                "--smtp",
                "smtp.example.com:0",
            ],
            "--smtp's port must be a whole number from 1 to 65535",
        ),
        (
            &[
                "notify",
                "add",
                "X",
                "--email",
                "a@example.com",
                "--smtp",
                "smtp.example.com",
                "--from",
                "me",
            ],
            "--from is not an e-mail address (name@example.com)",
        ),
    ] {
        assert_eq!(dir.run(args).error(), said, "{args:?}");
    }
    let out = dir.run(&["notify", "add", "X", "--ntfy", "nowhere", "--json"]);
    out.error();
    let error = out.json_error();
    assert_eq!(error["code"], "validation_failed", "{out:?}");
    assert!(error["details"]["url"].is_array(), "{out:?}");
    let out = dir.run(&[
        "notify",
        "add",
        "X",
        "--email",
        "a@example.com",
        "--smtp",
        "h",
        "--password-env",
        "NO_SUCH_VARIABLE",
    ]);
    assert!(
        out.error()
            .starts_with("--password-env: there is no environment variable NO_SUCH_VARIABLE"),
        "{out:?}"
    );
    let out = dir
        .cmd(&[
            "notify",
            "add",
            "X",
            "--ntfy",
            "https://ntfy.sh/a",
            "--token",
            "-",
        ])
        .stdin("")
        .run();
    assert_eq!(out.error(), "--token: standard input held nothing to read");
    assert!(channels(&dir).is_empty());

    dir.ok(&["notify", "add", "Phone", "--ntfy", "https://ntfy.sh/a"]);
    let out = dir.run(&["notify", "add", "PHONE", "--ntfy", "https://ntfy.sh/b"]);
    assert_eq!(out.error(), "the name has already been taken");
    assert_eq!(channels(&dir).len(), 1);
}
