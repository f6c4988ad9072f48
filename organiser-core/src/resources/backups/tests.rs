//! Backups on a store in a data directory, with a movable clock: the
//! archive made while writers run restores to one consistent snapshot; a
//! damaged, foreign or newer archive changes nothing; the current data is
//! moved aside; a new machine gets a working store with its secret key;
//! retention; failures recorded; the daily schedule.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::*;
use crate::clock::{Clock, ManualClock};
use crate::config::Options;
use crate::{Organiser, TaskInput};

fn options(clock: &ManualClock) -> Options {
    Options {
        clock: Arc::new(clock.clone()),
        ..Options::default()
    }
}

fn open(dir: &Path, clock: &ManualClock) -> Organiser {
    Organiser::open_with(dir, options(clock)).unwrap()
}

fn titles(org: &Organiser) -> Vec<String> {
    let q = crate::TaskQuery {
        params: crate::ListParams {
            limit: 100,
            ..crate::ListParams::default()
        },
        ..crate::TaskQuery::default()
    };
    let mut t: Vec<String> = org
        .tasks()
        .list(&q)
        .unwrap()
        .items
        .into_iter()
        .map(|t| t.title)
        .collect();
    t.sort();
    t
}

fn archive_path(dir: &Path, backup: &Backup) -> PathBuf {
    dir.join(BACKUP_DIR).join(&backup.id)
}

#[test]
fn a_backup_restores_on_a_new_machine_with_its_key() {
    let clock = ManualClock::at("2026-03-10T09:00:00Z");
    let here = tempfile::tempdir().unwrap();
    let org = open(here.path(), &clock);
    org.tasks().create(TaskInput::titled("Pay rent")).unwrap();
    // The store as the backup's snapshot sees it (the backup then records
    // itself, after the snapshot).
    let before = org.raw_export().unwrap();
    let backup = org.backups().create().unwrap();
    assert!(backup.counts["tasks"] >= 1, "{:?}", backup.counts);
    drop(org);
    let elsewhere = tempfile::tempdir().unwrap();
    let target = elsewhere.path().join("data");
    let restored = restore(&archive_path(here.path(), &backup), &target, clock.now()).unwrap();
    assert_eq!(restored.moved_aside, None);
    assert_eq!(restored.backup.sha256, backup.sha256);
    assert_eq!(
        std::fs::read(target.join(crate::secrets::KEY_FILE)).ok(),
        std::fs::read(here.path().join(crate::secrets::KEY_FILE)).ok()
    );
    let org = open(&target, &clock);
    assert_eq!(org.raw_export().unwrap(), before);
    assert_eq!(titles(&org), ["Pay rent"]);
}

#[test]
fn a_backup_made_while_writers_run_is_one_snapshot() {
    let clock = ManualClock::at("2026-03-10T09:00:00Z");
    let dir = tempfile::tempdir().unwrap();
    let org = Arc::new(open(dir.path(), &clock));
    for n in 0..50 {
        org.tasks()
            .create(TaskInput::titled(format!("task {n:05}")))
            .unwrap();
    }
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let writer = {
        let (org, stop) = (org.clone(), stop.clone());
        std::thread::spawn(move || {
            let mut n = 50;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                org.tasks()
                    .create(TaskInput::titled(format!("task {n:05}")))
                    .unwrap();
                n += 1;
            }
            n
        })
    };
    let backup = org.backups().create().unwrap();
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let written = writer.join().unwrap();
    let target = tempfile::tempdir().unwrap();
    restore(
        &archive_path(dir.path(), &backup),
        target.path(),
        clock.now(),
    )
    .unwrap();
    let restored = open(target.path(), &clock);
    // The tasks made before the snapshot, all of them and no other: a
    // prefix of the writer's sequence, with its counts in step.
    let mut all = Vec::new();
    let mut cursor = None;
    loop {
        let q = crate::TaskQuery {
            order: Some(crate::TaskOrder::Id),
            params: crate::ListParams {
                limit: 100,
                cursor: cursor.clone(),
                ..crate::ListParams::default()
            },
            ..crate::TaskQuery::default()
        };
        let page = restored.tasks().list(&q).unwrap();
        all.extend(page.items.into_iter().map(|t| t.title));
        cursor = page.next_cursor;
        if cursor.is_none() {
            break;
        }
    }
    let n = all.len();
    assert!(n >= 50 && n <= written, "{n} of {written}");
    let wanted: Vec<String> = (0..n).map(|i| format!("task {i:05}")).collect();
    assert_eq!(all, wanted);
    assert_eq!(backup.counts["tasks"], n as u64);
}

/// The data directory's files, by name, with their bytes.
fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    fn walk(dir: &Path, prefix: &str, out: &mut Vec<(String, Vec<u8>)>) {
        for e in std::fs::read_dir(dir).unwrap().flatten() {
            let name = format!("{prefix}{}", e.file_name().to_string_lossy());
            if e.file_type().unwrap().is_dir() {
                walk(&e.path(), &format!("{name}/"), out);
            } else {
                out.push((name, std::fs::read(e.path()).unwrap()));
            }
        }
    }
    walk(dir, "", &mut out);
    out.sort();
    out
}

#[test]
fn a_damaged_foreign_or_newer_archive_changes_nothing() {
    let clock = ManualClock::at("2026-03-10T09:00:00Z");
    let dir = tempfile::tempdir().unwrap();
    let org = open(dir.path(), &clock);
    org.tasks().create(TaskInput::titled("Keep me")).unwrap();
    let backup = org.backups().create().unwrap();
    drop(org);
    let good = std::fs::read(archive_path(dir.path(), &backup)).unwrap();
    let scratch = tempfile::tempdir().unwrap();
    let write = |name: &str, bytes: &[u8]| {
        let p = scratch.path().join(name);
        std::fs::write(&p, bytes).unwrap();
        p
    };
    // The manifest is the first member: its text starts after one header.
    let text_at = 512;
    let manifest_len = good[text_at..].iter().position(|b| *b == 0).unwrap();
    let manifest = String::from_utf8(good[text_at..text_at + manifest_len].to_vec()).unwrap();
    let with_manifest = |m: &str| {
        assert_eq!(m.len(), manifest.len(), "same length keeps the tar's sizes");
        let mut bytes = good.clone();
        bytes[text_at..text_at + m.len()].copy_from_slice(m.as_bytes());
        // The header's checksum covers the header only: still valid.
        bytes
    };
    let mut flipped = good.clone();
    let middle = good.len() / 2;
    flipped[middle] ^= 0x40;
    let newer_schema = {
        let current = format!("\"schema_version\": {}", backup.schema_version);
        // The newest schema of as many digits (the manifest keeps its length).
        let digits = backup.schema_version.to_string().len();
        let newest = "9".repeat(digits);
        assert!(newest.parse::<u32>().unwrap() > backup.schema_version);
        let newer = format!("\"schema_version\": {newest}");
        with_manifest(&manifest.replacen(&current, &newer, 1))
    };
    let wrong_count = {
        let current = format!("\"tasks\": {}", backup.counts["tasks"]);
        let wrong = format!("\"tasks\": {}", backup.counts["tasks"] + 8);
        with_manifest(&manifest.replacen(&current, &wrong, 1))
    };
    let cases = [
        (
            "truncated",
            write("cut.tar", &good[..good.len() / 3]),
            "cut short",
        ),
        ("bit-flipped", write("flip.tar", &flipped), ""),
        ("not a tar", write("junk.tar", b"hello, not an archive"), ""),
        (
            "wrong counts",
            write("counts.tar", &wrong_count),
            "manifest counts",
        ),
        ("newer schema", write("newer.tar", &newer_schema), ""),
        ("empty", write("empty.tar", &[]), ""),
    ];
    let before = snapshot(dir.path());
    for (what, path, says) in cases {
        let e = restore(&path, dir.path(), clock.now()).unwrap_err();
        assert!(e.contains(says), "{what}: {e}");
        assert!(
            e.contains("cannot be restored") || e.contains("newer"),
            "{what}: {e}"
        );
        assert_eq!(
            snapshot(dir.path()),
            before,
            "{what} changed the data directory"
        );
        assert!(verify(&path).is_err(), "{what}");
    }
    // The good one restores, moving the current data aside.
    let org = open(dir.path(), &clock);
    org.tasks().create(TaskInput::titled("Made after")).unwrap();
    drop(org);
    let restored = restore(&archive_path(dir.path(), &backup), dir.path(), clock.now()).unwrap();
    let aside = restored.moved_aside.expect("moved aside");
    assert!(aside.starts_with(dir.path()) && aside.join(crate::organiser::STORE_FILE).is_file());
    assert_eq!(titles(&open(dir.path(), &clock)), ["Keep me"]);
    assert_eq!(titles(&open(&aside, &clock)), ["Keep me", "Made after"]);
}

#[test]
fn a_held_store_is_not_restored_over() {
    let clock = ManualClock::at("2026-03-10T09:00:00Z");
    let dir = tempfile::tempdir().unwrap();
    let org = open(dir.path(), &clock);
    let backup = org.backups().create().unwrap();
    let e = restore(&archive_path(dir.path(), &backup), dir.path(), clock.now()).unwrap_err();
    assert!(e.contains("held by another process"), "{e}");
}

#[test]
fn retention_keeps_exactly_keep_and_a_failure_keeps_the_old_ones() {
    let clock = ManualClock::at("2026-03-10T09:00:00Z");
    let dir = tempfile::tempdir().unwrap();
    let org = open(dir.path(), &clock);
    org.backups()
        .change_settings(BackupSettingsChange {
            keep: Some(3),
            ..BackupSettingsChange::default()
        })
        .unwrap();
    let mut made = Vec::new();
    for _ in 0..5 {
        made.push(org.backups().create().unwrap().id);
        clock.advance_secs(3600);
    }
    let listed: Vec<String> = org
        .backups()
        .list()
        .unwrap()
        .into_iter()
        .map(|b| b.id)
        .collect();
    let newest: Vec<String> = made.iter().rev().take(3).cloned().collect();
    assert_eq!(listed, newest);
    // A leftover of an interrupted backup is neither listed nor counted.
    std::fs::write(dir.path().join(BACKUP_DIR).join(".tmp-backup-x"), b"half").unwrap();
    assert_eq!(org.backups().list().unwrap().len(), 3);
    drop(org);
    // A directory that cannot be made: recorded, and the old ones stay.
    let blocker = dir.path().join("not-a-directory");
    std::fs::write(&blocker, b"").unwrap();
    let failing = Organiser::open_with(
        dir.path(),
        Options {
            backup_dir: Some(blocker.join("backups")),
            ..options(&clock)
        },
    )
    .unwrap();
    let e = failing.backups().create().unwrap_err();
    assert!(matches!(e, Error::Validation(_)), "{e:?}");
    let s = failing.backups().settings().unwrap();
    assert!(
        s.last_error
            .as_deref()
            .is_some_and(|r| r.contains("cannot create")),
        "{s:?}"
    );
    drop(failing);
    let org = open(dir.path(), &clock);
    assert_eq!(org.backups().list().unwrap().len(), 3);
}

#[test]
fn the_daily_backup_runs_at_its_time_and_after_a_missed_one() {
    let clock = ManualClock::at("2026-03-10T09:00:00Z");
    let dir = tempfile::tempdir().unwrap();
    let org = open(dir.path(), &clock);
    // A new store backs itself up at its first run.
    assert!(matches!(org.run_scheduled_backup().unwrap(), Some(Ok(_))));
    assert!(org.run_scheduled_backup().unwrap().is_none());
    // Not again until 03:00 tomorrow.
    clock.set("2026-03-11T02:59:00Z".parse().unwrap());
    assert!(org.run_scheduled_backup().unwrap().is_none());
    clock.set("2026-03-11T03:00:00Z".parse().unwrap());
    assert!(matches!(org.run_scheduled_backup().unwrap(), Some(Ok(_))));
    // Three days down: one backup at the next start.
    clock.set("2026-03-14T12:00:00Z".parse().unwrap());
    assert!(matches!(org.run_scheduled_backup().unwrap(), Some(Ok(_))));
    assert!(org.run_scheduled_backup().unwrap().is_none());
    // Off: none.
    org.backups()
        .change_settings(BackupSettingsChange {
            enabled: Some(false),
            ..BackupSettingsChange::default()
        })
        .unwrap();
    clock.set("2026-03-16T12:00:00Z".parse().unwrap());
    assert!(org.run_scheduled_backup().unwrap().is_none());
    assert_eq!(org.backups().list().unwrap().len(), 3);
}

#[test]
fn settings_are_checked() {
    let clock = ManualClock::at("2026-03-10T09:00:00Z");
    let dir = tempfile::tempdir().unwrap();
    let org = open(dir.path(), &clock);
    let s = org.backups().settings().unwrap();
    assert_eq!((s.enabled, s.at.as_str(), s.keep), (true, "03:00", 7));
    assert_eq!(
        s.directory,
        Some(dir.path().join(BACKUP_DIR).display().to_string())
    );
    for (change, field) in [
        (
            BackupSettingsChange {
                at: Some("24:00".into()),
                ..Default::default()
            },
            "at",
        ),
        (
            BackupSettingsChange {
                at: Some("3:00".into()),
                ..Default::default()
            },
            "at",
        ),
        (
            BackupSettingsChange {
                keep: Some(0),
                ..Default::default()
            },
            "keep",
        ),
        (
            BackupSettingsChange {
                keep: Some(366),
                ..Default::default()
            },
            "keep",
        ),
    ] {
        match org.backups().change_settings(change) {
            Err(Error::Validation(d)) => assert!(d.has(field), "{d:?}"),
            other => panic!("{field}: {other:?}"),
        }
    }
    assert_eq!(org.backups().settings().unwrap(), s);
    let changed = org
        .backups()
        .change_settings(BackupSettingsChange {
            at: Some("23:30".into()),
            keep: Some(30),
            enabled: Some(false),
        })
        .unwrap();
    assert_eq!(
        (changed.enabled, changed.at.as_str(), changed.keep),
        (false, "23:30", 30)
    );
}
