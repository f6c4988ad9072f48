//! Backups through `Organiser::handle` (EXTENSIONS.md §4): the settings
//! and their 422s, the session-only paths, a backup made, listed, read,
//! downloaded and deleted, and a store without a backup directory.

use organiser::Options;
use serde_json::json;

use crate::common::check::{Call, Expect, check};
use crate::common::{Core, Setup};

fn with_backups(dir: &std::path::Path) -> Core {
    Core::with(Setup {
        options: Options {
            backup_dir: Some(dir.to_path_buf()),
            ..Options::default()
        },
        ..Setup::default()
    })
}

#[test]
fn the_settings_have_defaults_and_refuse_what_they_cannot_take() {
    let dir = tempfile::tempdir().expect("a directory");
    let s = with_backups(dir.path());
    let settings = s.get("/backup_settings").expect(200).data().clone();
    assert_eq!(
        settings,
        json!({
            "enabled": true,
            "at": "03:00",
            "keep": 7,
            "directory": dir.path().display().to_string(),
            "last_backup_at": null,
            "last_error": null,
        })
    );
    let body = |fields| json!({ "backup_settings": fields });
    for (fields, key) in [
        (json!({"at": "24:00"}), "at"),
        (json!({"at": "7:30"}), "at"),
        (json!({"at": "07:60"}), "at"),
        (json!({"at": null}), "at"),
        (json!({"at": 730}), "at"),
        (json!({"keep": 0}), "keep"),
        (json!({"keep": 366}), "keep"),
        (json!({"keep": "7"}), "keep"),
        (json!({"keep": null}), "keep"),
        (json!({"enabled": "yes"}), "enabled"),
    ] {
        check(
            &s,
            Call::patch("/backup_settings", body(fields)),
            Expect::invalid(key),
        );
        assert_eq!(s.get("/backup_settings").expect(200).data(), &settings);
    }
    let changed = s
        .patch(
            "/backup_settings",
            body(json!({"enabled": false, "at": "23:30", "keep": 30})),
        )
        .expect(200);
    assert_eq!(changed.data()["at"], "23:30");
    assert_eq!(changed.data()["keep"], 30);
    assert_eq!(changed.data()["enabled"], false);
}

#[test]
fn the_backups_paths_are_the_session_s_and_the_owner_s() {
    let dir = tempfile::tempdir().expect("a directory");
    let s = with_backups(dir.path());
    for (method, path) in [
        ("GET", "/backups"),
        ("POST", "/backups"),
        ("GET", "/backups/organiser-backup-20260310T090000Z.tar"),
        ("DELETE", "/backups/organiser-backup-20260310T090000Z.tar"),
        ("GET", "/backups/organiser-backup-20260310T090000Z.tar/file"),
    ] {
        check(
            &s,
            Call::new(method, path),
            Expect::error(403, "session_required", None),
        );
    }
    assert_eq!(
        std::fs::read_dir(dir.path())
            .map(|d| d.count())
            .unwrap_or(0),
        0
    );
}

#[test]
fn a_backup_is_made_listed_read_downloaded_and_deleted() {
    let dir = tempfile::tempdir().expect("a directory");
    let s = with_backups(dir.path());
    s.post("/tasks", json!({"task": {"title": "Pay rent"}}))
        .expect(201);
    let made = check(
        &s,
        Call::post("/backups", json!({})).local(),
        Expect::status(201),
    );
    let backup = made.data().clone();
    let id = backup["id"].as_str().expect("an id").to_owned();
    assert_eq!(id, "organiser-backup-20260310T090000Z.tar");
    assert_eq!(backup["counts"]["tasks"], 1);
    assert_eq!(backup["created_at"], "2026-03-10T09:00:00.000Z");
    let listed = check(&s, Call::get("/backups").local(), Expect::status(200));
    assert_eq!(listed.data(), &json!([backup.clone()]));
    let one = check(
        &s,
        Call::get(format!("/backups/{id}")).local(),
        Expect::status(200),
    );
    assert_eq!(one.data(), &backup);
    check(
        &s,
        Call::get(format!("/backups/{id}/file")).local(),
        Expect::status(200),
    );
    let file = s.org.backups().file(&id).expect("the archive");
    assert_eq!(file.content_type, "application/x-tar");
    assert_eq!(
        file.bytes,
        std::fs::read(dir.path().join(&id)).expect("the archive")
    );
    let settings = s.get("/backup_settings").expect(200);
    assert_eq!(
        settings.data()["last_backup_at"],
        "2026-03-10T09:00:00.000Z"
    );
    // Names that are not backups' are not found, and never leave the directory.
    for bad in ["nope.tar", "..%2Fsecret.key", "organiser-backup-x.tar"] {
        check(
            &s,
            Call::get(format!("/backups/{bad}")).local(),
            Expect::error(404, "not_found", None),
        );
    }
    check(
        &s,
        Call::delete(format!("/backups/{id}")).local(),
        Expect::status(204),
    );
    check(
        &s,
        Call::get(format!("/backups/{id}")).local(),
        Expect::error(404, "not_found", None),
    );
    let listed = check(&s, Call::get("/backups").local(), Expect::status(200));
    assert_eq!(listed.data(), &json!([]));
}

#[test]
fn a_store_without_a_backup_directory_refuses_and_records_nothing() {
    let s = Core::start();
    let before = s.get("/backup_settings").expect(200).data().clone();
    assert_eq!(before["directory"], serde_json::Value::Null);
    check(
        &s,
        Call::post("/backups", json!({})).local(),
        Expect::invalid("base"),
    );
    assert_eq!(s.get("/backup_settings").expect(200).data(), &before);
    let listed = check(&s, Call::get("/backups").local(), Expect::status(200));
    assert_eq!(listed.data(), &json!([]));
}
