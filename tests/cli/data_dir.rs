//! Where the store lives: `--data-dir`, `ORGANISER_DATA_DIR`, the platform's
//! data directory; a first command that changes something creates it with
//! the default owner, and a command that only reads makes nothing.

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
fn a_first_command_that_changes_something_creates_the_store_with_the_default_owner() {
    let dir = Dir::empty();
    assert!(!dir.data().exists());
    dir.ok(&["lists", "add", "Work"]);
    assert!(dir.data().is_dir(), "the data directory was made");
    assert_eq!(dir.json(&["me"]), default_owner());
    // And it is the same store the second time.
    assert_eq!(dir.json(&["lists"])["data"][0]["name"], "Work");
}

/// Issue 7, defect 3: a mistyped `--data-dir` on a read command says there
/// is no store there and makes nothing, in a missing directory or an
/// existing empty one.
#[test]
fn a_read_command_where_there_is_no_store_says_so_and_makes_nothing() {
    let dir = Dir::empty();
    for args in [
        &["me"][..],
        &["tasks"],
        &["lists"],
        &["token", "list"],
        &["system"],
        &["licence"],
        &["tasks", "--json"],
    ] {
        let out = dir.run(args);
        assert!(out.error().contains("there is no store in"), "{out:?}");
        assert!(
            out.error().contains(&dir.data().display().to_string()),
            "{out:?}"
        );
        assert!(!dir.data().exists(), "{args:?} made the data directory");
    }
    std::fs::create_dir(dir.data()).unwrap();
    let out = dir.run(&["token", "list"]);
    assert!(out.error().contains("there is no store in"), "{out:?}");
    assert_eq!(
        std::fs::read_dir(dir.data()).unwrap().count(),
        0,
        "a read command wrote into the empty directory"
    );
}

#[test]
fn an_existing_empty_directory_is_set_up_by_a_change() {
    let dir = Dir::empty();
    std::fs::create_dir(dir.data()).unwrap();
    dir.ok(&["token", "create", "phone"]);
    assert_eq!(dir.json(&["me"]), default_owner());
}

#[test]
fn organiser_data_dir_names_the_directory() {
    let dir = Dir::empty();
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
    let dir = Dir::empty();
    let other = dir.root().join("from-env");
    dir.cmd(&["lists", "add", "Work"])
        .env("ORGANISER_DATA_DIR", &other)
        .run()
        .success();
    assert_eq!(dir.json(&["me"]), default_owner());
    assert!(dir.data().is_dir());
    assert!(
        !other.exists(),
        "ORGANISER_DATA_DIR was used despite --data-dir"
    );
}

#[test]
fn a_relative_data_dir_is_taken_from_the_working_directory() {
    let dir = Dir::empty();
    Cmd::new(&["--data-dir", "rel", "lists", "add", "Work"])
        .current_dir(dir.root())
        .run()
        .success();
    assert!(dir.root().join("rel").is_dir());
}

#[cfg(target_os = "linux")]
#[test]
fn without_either_the_platform_data_directory_is_used() {
    let dir = Dir::empty();
    Cmd::new(&["lists", "add", "Work"])
        .env("HOME", dir.root())
        .env_remove("XDG_DATA_HOME")
        .run()
        .success();
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
    let dir = Dir::empty();
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
    let dir = Dir::empty();
    dir.ok(&["lists", "add", "Work"]);
    let mode =
        |path: &std::path::Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(dir.data()), 0o700);
    assert_eq!(mode(&dir.data().join("organiser.redb")), 0o600);
    assert_eq!(mode(&dir.data().join("secret.key")), 0o600);
}
