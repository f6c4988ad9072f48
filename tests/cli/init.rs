//! `organiser init`: sets the owner up once; a failure changes nothing.

use serde_json::json;

use crate::util::{Dir, today};

#[test]
fn init_sets_up_the_owner_and_maps_an_iana_zone_to_its_picker_name() {
    let dir = Dir::empty();
    let out = dir.init("Ada Lovelace", "ada", "Europe/London");
    assert_eq!(
        out.stdout,
        format!(
            "Set up Ada Lovelace (ada) in London [Europe/London] at {}\n",
            dir.data().display()
        )
    );
    assert_eq!(out.stderr, "");

    let me = dir.json(&["me"]);
    assert_eq!(
        me,
        json!({"data": {
            "name": "Ada Lovelace",
            "username": "ada",
            "has_password": false,
            "time_zone": "London",
            "time_zone_iana": "Europe/London",
            "today": today("Europe/London"),
            "token": null,
            "csrf_token": null,
        }})
    );
}

#[test]
fn init_takes_a_picker_name_and_json_prints_the_owner() {
    let dir = Dir::empty();
    let made = dir.json(&[
        "init",
        "--name",
        "Grace Hopper",
        "--username",
        "grace",
        "--time-zone",
        "Eastern Time (US & Canada)",
    ]);
    assert_eq!(made["data"]["time_zone"], "Eastern Time (US & Canada)");
    assert_eq!(made["data"]["time_zone_iana"], "America/New_York");
    // 09:00Z is 05:00 in New York (EDT from 8 March 2026): still the 10th.
    assert_eq!(made["data"]["today"], today("America/New_York"));
    assert_eq!(
        made,
        dir.json(&["me"]),
        "init --json is the owner as `me --json` shows it"
    );
}

#[test]
fn a_second_init_fails_on_one_line_saying_what_to_do_and_changes_nothing() {
    let dir = Dir::empty();
    dir.init("Ada Lovelace", "ada", "Europe/London");
    let before = dir.json(&["me"]);

    let out = dir.run(&[
        "init",
        "--name",
        "Someone Else",
        "--username",
        "else",
        "--time-zone",
        "UTC",
    ]);
    let message = out.error();
    assert!(
        message.contains("set up already") && message.contains("organiser me set"),
        "{out:?}"
    );
    assert_eq!(dir.json(&["me"]), before);
}

#[test]
fn an_unknown_zone_fails_on_one_line_naming_it_and_changes_nothing() {
    let dir = Dir::empty();
    let out = dir.run(&[
        "init",
        "--name",
        "Ada",
        "--username",
        "ada",
        "--time-zone",
        "Mars/Olympus_Mons",
    ]);
    assert!(out.error().contains("Mars/Olympus_Mons"), "{out:?}");
    // A refused init makes no store.
    assert!(!dir.data().join("organiser.redb").exists());

    // The owner is still not set up: a correct init goes through.
    dir.init("Ada", "ada", "London");
    assert_eq!(dir.json(&["me"])["data"]["time_zone_iana"], "Europe/London");
}

#[test]
fn invalid_values_fail_on_one_line_naming_every_field() {
    let dir = Dir::empty();
    let out = dir.run(&[
        "init",
        "--name",
        "",
        "--username",
        "no spaces allowed",
        "--time-zone",
        "Nowhere",
    ]);
    let message = out.error();
    for field in ["--name", "--username", "Nowhere"] {
        assert!(message.contains(field), "{field} missing: {out:?}");
    }
    assert!(!dir.data().join("organiser.redb").exists());
}

#[test]
fn init_without_its_flags_is_a_usage_mistake() {
    let dir = Dir::empty();
    let out = dir.run(&["init", "--name", "Ada"]).failure(2);
    assert!(out.stderr.contains("--username"), "{out:?}");
    assert!(!dir.data().exists(), "a usage mistake touches no store");
}

/// Issue 7, defect 11: an `init` the core refuses (a bad zone) makes no
/// store and no data directory.
#[test]
fn a_refused_init_makes_nothing() {
    let dir = Dir::empty();
    let out = dir
        .run(&[
            "init",
            "--name",
            "Ada",
            "--username",
            "ada",
            "--time-zone",
            "Nowhere",
        ])
        .failure(1);
    assert!(out.error().contains("Nowhere"), "{}", out.error());
    assert!(!dir.data().exists(), "no data directory was made");
    dir.init("Ada", "ada", "London");
}

/// A zone typed as people say it is answered with the picker names it
/// could mean (issue 22).
#[test]
fn a_zone_not_in_the_picker_offers_the_names_it_could_mean() {
    let dir = Dir::empty();
    let out = dir
        .run(&[
            "init",
            "--name",
            "Ada",
            "--username",
            "ada",
            "--time-zone",
            "New York",
        ])
        .failure(1);
    assert!(
        out.error()
            .contains("did you mean \"Eastern Time (US & Canada)\"?"),
        "{out:?}"
    );
    assert!(out.error().starts_with("--time-zone"), "{out:?}");
}
