//! `organiser me`, `me set`, `password` and `system`: human output without
//! colour when piped, `--json` in the API's shape.

use serde_json::json;

use crate::util::{Cmd, Dir, shape, today};

/// The name/value rows of a two-column output, split on the first run of
/// two spaces.
fn rows(stdout: &str) -> Vec<(String, String)> {
    stdout
        .lines()
        .map(|line| {
            let (name, value) = line.split_once("  ").unwrap_or((line, ""));
            (name.trim().to_owned(), value.trim().to_owned())
        })
        .collect()
}

fn pairs(rows: &[(&str, &str)]) -> Vec<(String, String)> {
    rows.iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect()
}

#[test]
fn me_prints_the_owner_for_people_without_colour() {
    let dir = Dir::empty();
    dir.init("Ada Lovelace", "ada", "Europe/London");
    let out = dir.ok(&["me"]);
    out.assert_no_ansi();
    assert_eq!(out.stderr, "");
    assert_eq!(
        rows(&out.stdout),
        pairs(&[
            ("Name", "Ada Lovelace"),
            ("Username", "ada"),
            ("Password", "not set"),
            ("Zone", "London (Europe/London)"),
            ("Today", &today("Europe/London")),
        ]),
        "{out:?}"
    );
    let no_colour = dir.cmd(&["me"]).env("NO_COLOR", "1").run().success();
    no_colour.assert_no_ansi();
    assert_eq!(no_colour.stdout, out.stdout);
}

#[test]
fn me_json_is_the_api_body() {
    let dir = Dir::new();
    let me = dir.json(&["me"]);
    assert_eq!(
        shape(&me),
        json!({"data": {
            "name": "string",
            "username": "string",
            "has_password": "bool",
            "time_zone": "string",
            "time_zone_iana": "string",
            "today": "string",
            "token": null,
            "csrf_token": null,
        }})
    );
    let keys: Vec<&String> = me["data"].as_object().unwrap().keys().collect();
    assert_eq!(
        keys,
        [
            "name",
            "username",
            "has_password",
            "time_zone",
            "time_zone_iana",
            "today",
            "token",
            "csrf_token"
        ]
    );
}

#[test]
fn me_set_changes_the_name_and_zone() {
    let dir = Dir::empty();
    dir.init("Ada", "ada", "London");
    let out = dir.ok(&[
        "me",
        "set",
        "--name",
        "Ada King",
        "--time-zone",
        "America/New_York",
    ]);
    out.assert_no_ansi();
    let shown = rows(&out.stdout);
    assert!(
        shown.contains(&("Name".into(), "Ada King".into())),
        "{out:?}"
    );
    assert!(
        shown.contains(&(
            "Zone".into(),
            "Eastern Time (US & Canada) (America/New_York)".into()
        )),
        "{out:?}"
    );

    let me = dir.json(&["me"]);
    assert_eq!(me["data"]["name"], "Ada King");
    assert_eq!(me["data"]["username"], "ada");
    assert_eq!(me["data"]["time_zone"], "Eastern Time (US & Canada)");
    assert_eq!(me["data"]["time_zone_iana"], "America/New_York");

    let json = dir.json(&["me", "set", "--name", "Ada"]);
    assert_eq!(json["data"]["name"], "Ada");
    assert_eq!(json["data"]["time_zone"], "Eastern Time (US & Canada)");
    assert_eq!(json, dir.json(&["me"]));
}

#[test]
fn me_set_refuses_a_bad_zone_or_a_blank_name_and_changes_nothing() {
    let dir = Dir::empty();
    dir.init("Ada", "ada", "London");
    let before = dir.json(&["me"]);
    let out = dir.run(&["me", "set", "--name", "New", "--time-zone", "Atlantis"]);
    assert!(out.error().contains("Atlantis"), "{out:?}");
    let out = dir.run(&["me", "set", "--name", ""]);
    assert!(out.error().contains("--name"), "{out:?}");
    assert_eq!(dir.json(&["me"]), before);
}

#[test]
fn password_reads_the_new_password_from_stdin() {
    let dir = Dir::new();
    let out = dir
        .cmd(&["password"])
        .stdin("correct horse battery staple\n")
        .run()
        .success();
    assert_eq!(out.stdout, "Password set\n");
    assert_eq!(out.stderr, "");
    assert_eq!(dir.json(&["me"])["data"]["has_password"], true);
    let me = dir.ok(&["me"]);
    assert!(
        rows(&me.stdout).contains(&("Password".into(), "set".into())),
        "{me:?}"
    );

    // Without a final newline too, and --json prints the owner.
    let json = dir
        .cmd(&["password", "--json"])
        .stdin("another long password")
        .run()
        .success()
        .json();
    assert_eq!(json["data"]["has_password"], true, "{json}");
}

/// Issue 7, defect 8: on a terminal (a pseudo-terminal made by `script`,
/// the password typed after each prompt), `password` prompts, does not
/// echo, and asks twice; two different passwords change nothing.
#[test]
fn on_a_terminal_password_prompts_hides_and_confirms() {
    let have_script = std::process::Command::new("script")
        .arg("--version")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains("util-linux"));
    if !have_script {
        return;
    }
    let typed = |first: &str, second: &str| {
        let dir_script = r#"(sleep 0.6; printf '%s\n' "$2"; sleep 0.4; printf '%s\n' "$3") | script -qec "'$0' --data-dir '$1' password" /dev/null"#;
        (dir_script, [first.to_owned(), second.to_owned()])
    };
    let dir = Dir::new();
    dir.ok(&["me"]);
    let (script, [a, b]) = typed("wrong horse battery", "other horse battery");
    let out = Cmd::shell(script, &[dir.data().as_os_str(), a.as_ref(), b.as_ref()]).run();
    assert!(out.stdout.contains("New password: "), "{out:?}");
    assert!(out.stdout.contains("differ"), "{out:?}");
    assert!(
        !out.stdout.contains("horse"),
        "the password was echoed: {out:?}"
    );
    assert_eq!(dir.json(&["me"])["data"]["has_password"], false);

    let (script, [a, b]) = typed("correct horse battery", "correct horse battery");
    let out = Cmd::shell(script, &[dir.data().as_os_str(), a.as_ref(), b.as_ref()])
        .run()
        .success();
    assert!(out.stdout.contains("New password: "), "{out:?}");
    assert!(out.stdout.contains("New password again: "), "{out:?}");
    assert!(out.stdout.contains("Password set"), "{out:?}");
    assert!(
        !out.stdout.contains("horse"),
        "the password was echoed: {out:?}"
    );
    assert_eq!(dir.json(&["me"])["data"]["has_password"], true);
}

#[test]
fn a_too_short_password_fails_on_one_line() {
    let dir = Dir::new();
    let out = dir.cmd(&["password"]).stdin("short\n").run();
    assert!(out.error().contains("too short"), "{out:?}");
    assert_eq!(dir.json(&["me"])["data"]["has_password"], false);
}

#[test]
fn no_password_on_stdin_fails_on_one_line() {
    let dir = Dir::new();
    let out = dir.run(&["password"]);
    assert!(out.error().contains("standard input"), "{out:?}");
    assert_eq!(dir.json(&["me"])["data"]["has_password"], false);
}

#[test]
fn system_prints_version_updates_and_licence_for_people() {
    let dir = Dir::new();
    let out = dir.ok(&["system"]);
    out.assert_no_ansi();
    assert_eq!(out.stderr, "");
    let shown = rows(&out.stdout);
    let names: Vec<&str> = shown.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(
        names,
        ["Version", "Channel", "Update checks", "Update", "Licence"],
        "{out:?}"
    );
    // A debug build is development mode (DESIGN.md): version "dev", updates off.
    assert_eq!(shown[0].1, "dev", "{out:?}");
    assert_eq!(shown[3].1, "off", "{out:?}");
    assert!(shown[4].1.starts_with("trial"), "{out:?}");

    let no_colour = dir.cmd(&["system"]).env("NO_COLOR", "1").run().success();
    no_colour.assert_no_ansi();
    assert_eq!(no_colour.stdout, out.stdout);
}

#[test]
fn system_json_is_the_api_body() {
    let dir = Dir::new();
    let system = dir.json(&["system"]);
    assert_eq!(system.as_object().unwrap().len(), 1, "only data: {system}");
    let data = &system["data"];
    assert_eq!(data["version"], "dev");
    assert!(data["update_checks"].is_boolean(), "{system}");
    assert!(data["update_checks_managed"].is_boolean(), "{system}");
    assert_eq!(data["update"]["status"], "off", "{system}");
    assert_eq!(data["update"]["can_check"], false, "{system}");
}
