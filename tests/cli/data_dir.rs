//! Where the store lives: `--data-dir`, `ORGANISER_DATA_DIR`, the platform's
//! data directory; a first command creates it with the default owner.

use serde_json::json;

use crate::util::{Cmd, Dir, today};

fn default_owner() -> serde_json::Value {
    json!({"data": {
        "name": "Owner",
        "username": "owner",
        "has_password": false,
        "time_zone": "UTC",
        "time_zone_iana": "Etc/UTC",
        "today": today("UTC"),
        "token": null,
        "csrf_token": null,
    }})
}

#[test]
fn a_first_command_creates_the_store_with_the_default_owner() {
    let dir = Dir::new();
    assert!(!dir.data().exists());
    assert_eq!(dir.json(&["me"]), default_owner());
    assert!(dir.data().is_dir(), "the data directory was made");
    // And it is the same store the second time.
    assert_eq!(dir.json(&["me"]), default_owner());
}

#[test]
fn an_existing_empty_directory_is_set_up_too() {
    let dir = Dir::new();
    std::fs::create_dir(dir.data()).unwrap();
    assert_eq!(dir.json(&["token", "list"]), json!({"data": []}));
    assert_eq!(dir.json(&["me"]), default_owner());
}

#[test]
fn organiser_data_dir_names_the_directory() {
    let dir = Dir::new();
    Cmd::new(&[
        "init",
        "--name",
        "Ada",
        "--username",
        "ada",
        "--time-zone",
        "London",
    ])
    .env("ORGANISER_DATA_DIR", dir.data())
    .run()
    .success();
    assert!(dir.data().is_dir());
    assert_eq!(dir.json(&["me"])["data"]["username"], "ada");
}

#[test]
fn data_dir_flag_wins_over_the_environment() {
    let dir = Dir::new();
    let other = dir.root().join("from-env");
    let out = dir
        .cmd(&["me", "--json"])
        .env("ORGANISER_DATA_DIR", &other)
        .run()
        .success();
    assert_eq!(out.json(), default_owner());
    assert!(dir.data().is_dir());
    assert!(
        !other.exists(),
        "ORGANISER_DATA_DIR was used despite --data-dir"
    );
}

#[test]
fn a_relative_data_dir_is_taken_from_the_working_directory() {
    let dir = Dir::new();
    Cmd::new(&["--data-dir", "rel", "me", "--json"])
        .current_dir(dir.root())
        .run()
        .success();
    assert!(dir.root().join("rel").is_dir());
}

#[cfg(target_os = "linux")]
#[test]
fn without_either_the_platform_data_directory_is_used() {
    let dir = Dir::new();
    let out = Cmd::new(&["me", "--json"])
        .env("HOME", dir.root())
        .env_remove("XDG_DATA_HOME")
        .run()
        .success();
    assert_eq!(out.json(), default_owner());
    assert!(dir.root().join(".local/share/organiser").is_dir());
}

#[test]
fn a_directory_under_a_regular_file_fails_on_one_line_naming_it() {
    let dir = Dir::new();
    let file = dir.root().join("a-file");
    std::fs::write(&file, "not a directory").unwrap();
    let below = file.join("data");
    for (path, args) in [
        (&below, &["me"][..]),
        (&below, &["token", "create", "x"][..]),
        (&below, &["init", "--name", "A", "--username", "a"][..]),
        (&below, &["serve", "--listen", "127.0.0.1:0"][..]),
        (&file, &["me", "--json"][..]),
    ] {
        let out = Cmd::new(args).data_dir(path).run();
        let message = out.error();
        assert!(
            message.contains(&path.display().to_string()),
            "the message names the directory: {out:?}"
        );
    }
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "not a directory");
}

/// Issue 7, defect 11: the store and its directory are the owner's alone,
/// like the secret key.
#[cfg(unix)]
#[test]
fn a_new_store_and_its_directory_are_private() {
    use std::os::unix::fs::PermissionsExt;
    let dir = Dir::new();
    dir.ok(&["me"]);
    let mode =
        |path: &std::path::Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(dir.data()), 0o700);
    assert_eq!(mode(&dir.data().join("organiser.redb")), 0o600);
    assert_eq!(mode(&dir.data().join("secret.key")), 0o600);
}
