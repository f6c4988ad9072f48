//! `organiser backup`, `backup verify`, `backups` and `restore` through
//! the real binary (EXTENSIONS.md §4): a backup in process and through the
//! server that holds the store, a copy with `--to`, an archive checked
//! whole, a restore that moves the current data aside or fills an empty
//! directory on another machine, and refusals that change nothing.

use serde_json::Value;

use crate::tasks::{add, record};
use crate::util::Dir;

/// The titles of the open tasks of the store in `dir`.
fn open_titles(dir: &Dir) -> Vec<String> {
    let listed = dir.json(&["tasks", "overview", "--limit", "100"]);
    let mut titles: Vec<String> = crate::tasks::page(&listed)
        .iter()
        .map(|t| t["title"].as_str().expect("a title").to_owned())
        .collect();
    titles.sort();
    titles
}

#[test]
fn backup_list_verify_and_restore_with_the_data_moved_aside() {
    let dir = Dir::new();
    add(&dir, "Pay rent", &[]);
    let copy = dir.root().join("copy.tar");
    let made = dir.json(&["backup", "--to", copy.to_str().expect("a path")]);
    let backup = record(&made).clone();
    let id = backup["id"].as_str().expect("an id").to_owned();
    assert!(
        id.starts_with("organiser-backup-") && id.ends_with(".tar"),
        "{id}"
    );
    assert_eq!(backup["counts"]["tasks"], 1, "{backup}");
    let archive = dir.data().join("backups").join(&id);
    assert_eq!(
        std::fs::read(&archive).expect("the archive"),
        std::fs::read(&copy).expect("the copy")
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&archive)
            .expect("metadata")
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600, "{mode:o}");
    }
    // Listed, newest first.
    let listed = dir.json(&["backups"]);
    assert_eq!(listed["data"][0]["id"], id.as_str(), "{listed}");
    let out = dir.ok(&["backups"]);
    assert!(
        out.stdout
            .starts_with("Backups · daily at 03:00, keeping 7 · in ")
            && out.stdout.contains(&id),
        "{out:?}"
    );
    // Checked whole.
    let out = dir.ok(&["backup", "verify", copy.to_str().expect("a path")]);
    assert!(out.stdout.contains("a good backup of"), "{out:?}");
    // A damaged copy: exit 1 with the reason, and a restore of it changes nothing.
    let mut bytes = std::fs::read(&copy).expect("the copy");
    let cut = dir.root().join("cut.tar");
    bytes.truncate(bytes.len() / 2);
    std::fs::write(&cut, &bytes).expect("write");
    let message = dir
        .run(&["backup", "verify", cut.to_str().expect("a path")])
        .error();
    assert!(
        message.contains("cut short") || message.contains("damaged"),
        "{message}"
    );
    add(&dir, "Made after", &[]);
    let message = dir.run(&["restore", cut.to_str().expect("a path")]).error();
    assert!(message.contains("cannot be restored"), "{message}");
    assert_eq!(open_titles(&dir), ["Made after", "Pay rent"]);
    // The good one: the data there is moved aside, not deleted.
    let out = dir.ok(&["restore", copy.to_str().expect("a path")]);
    assert!(out.stdout.starts_with("Restored copy.tar"), "{out:?}");
    assert_eq!(open_titles(&dir), ["Pay rent"]);
    let aside: Vec<_> = std::fs::read_dir(dir.data())
        .expect("the data directory")
        .flatten()
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with("before-restore-")
        })
        .collect();
    assert_eq!(aside.len(), 1, "{aside:?}");
    let out = crate::util::Cmd::new(&["tasks", "overview", "--json"])
        .data_dir(&aside[0].path())
        .run()
        .success();
    let titles: Vec<Value> = out.json()["data"]
        .as_array()
        .expect("a page")
        .iter()
        .map(|t| t["title"].clone())
        .collect();
    assert_eq!(titles.len(), 2, "{titles:?}");
}

#[test]
fn a_restore_on_a_new_machine_gives_a_working_store() {
    let dir = Dir::new();
    add(
        &dir,
        "Water the plants",
        &["--deadline", "2031-05-06", "--every", "week"],
    );
    let made = dir.json(&["backup"]);
    let id = record(&made)["id"].as_str().expect("an id").to_owned();
    let archive = dir.data().join("backups").join(&id);
    let elsewhere = Dir::empty();
    let target = elsewhere.root().join("fresh");
    let out = crate::util::Cmd::new(&["restore", archive.to_str().expect("a path")])
        .data_dir(&target)
        .run()
        .success();
    assert!(!out.stdout.contains("what was there"), "{out:?}");
    assert_eq!(
        std::fs::read(target.join("secret.key")).expect("the key travelled"),
        std::fs::read(dir.data().join("secret.key")).expect("the key")
    );
    let listed = crate::util::Cmd::new(&["tasks", "planned", "--json"])
        .data_dir(&target)
        .run()
        .success()
        .json();
    let _ = listed;
    let out = crate::util::Cmd::new(&["search", "plants", "--json"])
        .data_dir(&target)
        .run()
        .success();
    assert!(out.stdout.contains("Water the plants"), "{out:?}");
}

#[test]
fn through_a_server_backups_are_made_and_a_restore_is_refused() {
    let dir = Dir::new();
    add(&dir, "Pay rent", &[]);
    let server = dir.serve();
    // The server backs a new store up at its start; a backup now goes
    // through it.
    let made = dir.json(&["backup"]);
    let id = record(&made)["id"].as_str().expect("an id").to_owned();
    let archive = dir.data().join("backups").join(&id);
    assert!(archive.is_file());
    let message = dir
        .run(&["restore", archive.to_str().expect("a path")])
        .error();
    assert!(
        message.contains("held by the server") && message.contains("stop it first"),
        "{message}"
    );
    drop(server);
    assert_eq!(open_titles(&dir), ["Pay rent"]);
}

#[test]
fn a_backup_killed_half_way_leaves_no_half_archive() {
    let dir = Dir::new();
    for n in 0..20 {
        add(&dir, &format!("Task {n}"), &[]);
    }
    let backups = dir.data().join("backups");
    // Killed at once, early, midway or after: whenever SIGKILL lands, the
    // backups listed (and counted by retention) are whole.
    for wait_ms in [0u64, 2, 5, 10, 20, 40, 80] {
        let mut child = std::process::Command::new(crate::util::bin())
            .arg("--data-dir")
            .arg(dir.data())
            .arg("backup")
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("organiser backup starts");
        std::thread::sleep(std::time::Duration::from_millis(wait_ms));
        let _ = child.kill();
        let _ = child.wait();
        let listed = dir.json(&["backups"]);
        for b in listed["data"].as_array().expect("a list") {
            let id = b["id"].as_str().expect("an id");
            let out = dir.ok(&[
                "backup",
                "verify",
                backups.join(id).to_str().expect("a path"),
            ]);
            assert!(
                out.stdout.contains("a good backup"),
                "after {wait_ms} ms: {out:?}"
            );
        }
        // Nothing else but leftovers with hidden temporary names.
        for entry in std::fs::read_dir(&backups).into_iter().flatten().flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let listed_here = listed["data"]
                .as_array()
                .expect("a list")
                .iter()
                .any(|b| b["id"] == name.as_str());
            assert!(
                listed_here || name.starts_with(".tmp-"),
                "{name} after {wait_ms} ms"
            );
        }
    }
    // The next backup clears the leftovers.
    dir.ok(&["backup"]);
    let leftovers = std::fs::read_dir(&backups)
        .expect("the backups")
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with(".tmp-"))
        .count();
    assert_eq!(leftovers, 0);
}

#[test]
fn a_failed_scheduled_backup_is_recorded_and_logged() {
    let dir = Dir::new();
    add(&dir, "Pay rent", &[]);
    // A backup directory that cannot be made: a file stands where its
    // parent should be.
    let blocker = dir.root().join("not-a-directory");
    std::fs::write(&blocker, b"").expect("write");
    let target = blocker.join("backups");
    let server = dir.serve_with(&[("ORGANISER_BACKUP_DIR", target.to_str().expect("a path"))]);
    // The store is new: the server backs it up at its start, and fails.
    let logged = server.wait_for_stderr("cannot create");
    assert!(logged.contains("backup"), "{logged}");
    let out = dir.ok(&["backups"]);
    assert!(
        out.stdout.contains("the last one failed: cannot create"),
        "{out:?}"
    );
}

#[test]
fn an_ai_key_still_works_after_a_restore_on_a_new_machine() {
    let models = crate::model_server::ModelServer::start();
    models.require_key("sk-travels-with-the-backup");
    models.set_models(&["llama3.2"]);
    let dir = Dir::new();
    dir.cmd(&[
        "ai",
        "providers",
        "add",
        "Local",
        "--kind",
        "api_compatible",
        "--base-url",
        &models.url,
        "--api-key-stdin",
    ])
    .stdin("sk-travels-with-the-backup\n")
    .run()
    .success();
    let made = dir.json(&["backup"]);
    let id = record(&made)["id"].as_str().expect("an id").to_owned();
    let archive = dir.data().join("backups").join(&id);
    let elsewhere = Dir::empty();
    let target = elsewhere.root().join("fresh");
    crate::util::Cmd::new(&["restore", archive.to_str().expect("a path")])
        .data_dir(&target)
        .run()
        .success();
    // The key sealed on the first machine opens on the second: the model
    // server, which refuses any other key, answers.
    let out = crate::util::Cmd::new(&["ai", "providers", "check", "Local"])
        .data_dir(&target)
        .run()
        .success();
    assert_eq!(out.stdout, "llama3.2\n", "{out:?}");
}

#[test]
fn the_manual_and_completions_name_the_backup_commands() {
    let dir = Dir::empty();
    for command in ["backup", "backups", "restore"] {
        let page = dir.ok(&["man", command]).stdout;
        assert!(
            page.contains(&format!("organiser\\-{command}")),
            "{command}: {page}"
        );
    }
    let words = ["back"];
    let offered = crate::completions::candidates(
        crate::completions::complete("fish", words.len() - 1, &words).run(),
    );
    for command in ["backup", "backups"] {
        assert!(
            offered
                .iter()
                .any(|c| c.starts_with(&format!("{command}\t"))),
            "{command}: {offered:?}"
        );
    }
}

#[test]
fn on_a_terminal_a_backup_shows_its_progress_and_clears_it() {
    let dir = Dir::new();
    let out = dir.cmd(&["backup"]).on_terminal().run().success();
    assert!(out.stdout.contains("Backing up"), "{out:?}");
    // The spinner's line is cleared before the result is said.
    let last = out.stdout.rsplit("\x1b[2K").next().unwrap_or_default();
    assert!(last.starts_with("Backed up to "), "{out:?}");
    // Off a terminal: no spinner.
    let plain = dir.ok(&["backup"]);
    assert!(
        !plain.stdout.contains("Backing up") && plain.stderr.is_empty(),
        "{plain:?}"
    );
}

/// Makes a directory refuse every write, even root's (`chattr +i`), until
/// dropped.
struct Immutable(std::path::PathBuf);

impl Immutable {
    fn set(dir: &std::path::Path) -> Immutable {
        let status = std::process::Command::new("chattr")
            .arg("+i")
            .arg(dir)
            .status()
            .expect("chattr runs (Debian's e2fsprogs: apt-get install e2fsprogs)");
        assert!(status.success(), "chattr +i {} failed", dir.display());
        Immutable(dir.to_path_buf())
    }
}

impl Drop for Immutable {
    fn drop(&mut self) {
        let _ = std::process::Command::new("chattr")
            .arg("-i")
            .arg(&self.0)
            .status();
    }
}

#[test]
fn a_directory_that_refuses_writes_fails_the_backup_and_keeps_the_old_ones() {
    let dir = Dir::new();
    add(&dir, "Pay rent", &[]);
    dir.ok(&["backup"]);
    dir.ok(&["backup"]);
    let backups = dir.data().join("backups");
    let before: Vec<_> = {
        let mut names: Vec<String> = std::fs::read_dir(&backups)
            .expect("the backups")
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    };
    assert_eq!(before.len(), 2, "{before:?}");
    let message = {
        let _refusing = Immutable::set(&backups);
        dir.run(&["backup"]).error()
    };
    assert!(
        message.to_lowercase().contains("the backup failed"),
        "{message}"
    );
    let listed = dir.json(&["backups"]);
    let ids: Vec<String> = listed["data"]
        .as_array()
        .expect("a list")
        .iter()
        .map(|b| b["id"].as_str().expect("an id").to_owned())
        .rev()
        .collect();
    assert_eq!(ids, before);
    let out = dir.ok(&["backups"]);
    assert!(out.stdout.contains("the last one failed"), "{out:?}");
    // Writable again: the next one succeeds and clears the failure.
    dir.ok(&["backup"]);
    let out = dir.ok(&["backups"]);
    assert!(!out.stdout.contains("failed"), "{out:?}");
}
