//! Backups (EXTENSIONS.md §4): a store backs itself up every day from its
//! first run (a registered job); each backup is one tar archive made from
//! one read transaction while the store keeps serving, checked whole
//! before it counts, and kept `keep` deep. `/backup_settings`,
//! `/backups`, and [`restore`], which checks an archive whole before it
//! touches anything and moves the current data aside.

mod api;
mod archive;
pub(crate) mod tables;

pub use api::Backups;
pub(crate) use api::{OPERATIONS, SCHEDULED_BACKUP};

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use jiff::{SignedDuration, Timestamp};
use serde::{Deserialize, Serialize};

use crate::engine::{Cx, Inner, WriteCx};
use crate::error::{Error, Result};
use crate::input::Fields;
use crate::store::Tables;
use crate::store::schema::SINGLETONS;
use tables::BACKUPS;

/// The directory backups go to when `ORGANISER_BACKUP_DIR` names none:
/// `DATA_DIR/backups`.
pub const BACKUP_DIR: &str = "backups";

const SETTINGS_KEY: &[u8] = b"backup_settings";

/// One backup (`GET /backups`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Backup {
    /// Its file name in the backup directory.
    pub id: String,
    /// When its snapshot was taken.
    #[serde(with = "crate::time::serde_timestamp")]
    pub created_at: Timestamp,
    /// The archive's size.
    pub bytes: u64,
    /// The archive's SHA-256, in hexadecimal.
    pub sha256: String,
    /// The entries of each table of the store it holds.
    pub counts: BTreeMap<String, u64>,
    /// The schema of the store it holds.
    pub schema_version: u32,
    /// The version of Organiser that made it.
    pub app_version: String,
}

/// `GET /backup_settings`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BackupSettings {
    /// Whether the daily backup runs.
    pub enabled: bool,
    /// When, `HH:MM` in the owner's zone.
    pub at: String,
    /// How many backups are kept (1 to 365).
    pub keep: u16,
    /// Where they go (`ORGANISER_BACKUP_DIR`, else `DATA_DIR/backups`);
    /// null for a store without a data directory.
    pub directory: Option<String>,
    /// When the last backup that checked out was made.
    #[serde(with = "crate::time::serde_timestamp::option")]
    pub last_backup_at: Option<Timestamp>,
    /// Why the last attempt failed; null after a success.
    pub last_error: Option<String>,
}

/// `PATCH /backup_settings`: only what is sent changes.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct BackupSettingsChange {
    /// Whether the daily backup runs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enabled: Option<bool>,
    /// When, `HH:MM` in the owner's zone.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at: Option<String>,
    /// How many to keep, 1 to 365.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub keep: Option<i64>,
}

/// The settings as stored, with when the last attempt was.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub(crate) struct Stored {
    enabled: bool,
    at: String,
    keep: u16,
    #[serde(with = "crate::time::serde_timestamp::option")]
    last_backup_at: Option<Timestamp>,
    #[serde(with = "crate::time::serde_timestamp::option")]
    last_attempt_at: Option<Timestamp>,
    last_error: Option<String>,
}

impl Default for Stored {
    fn default() -> Self {
        Stored {
            enabled: true,
            at: "03:00".to_owned(),
            keep: 7,
            last_backup_at: None,
            last_attempt_at: None,
            last_error: None,
        }
    }
}

/// What the store keeps of a backup it made: the archive's hash.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Made {
    bytes: u64,
    sha256: String,
}

fn stored<T: Tables>(cx: &Cx<'_, T>) -> Result<Stored> {
    Ok(cx.get_json(SINGLETONS, SETTINGS_KEY)?.unwrap_or_default())
}

/// The backup directory of the store, if it has one.
pub(crate) fn directory(inner: &Inner) -> Option<PathBuf> {
    inner
        .options
        .backup_dir
        .clone()
        .or_else(|| inner.data_dir.as_ref().map(|d| d.join(BACKUP_DIR)))
}

fn settings<T: Tables>(cx: &Cx<'_, T>) -> Result<BackupSettings> {
    let s = stored(cx)?;
    Ok(BackupSettings {
        enabled: s.enabled,
        at: s.at,
        keep: s.keep,
        directory: directory(cx.org).map(|d| d.display().to_string()),
        last_backup_at: s.last_backup_at,
        last_error: s.last_error,
    })
}

/// `HH:MM`, 00:00 to 23:59.
fn read_at(text: &str) -> Option<(i8, i8)> {
    let (h, m) = text.split_once(':')?;
    if h.len() != 2 || m.len() != 2 {
        return None;
    }
    let (h, m): (i8, i8) = (h.parse().ok()?, m.parse().ok()?);
    ((0..24).contains(&h) && (0..60).contains(&m)).then_some((h, m))
}

/// Reads `{backup_settings: {...}}`.
pub(crate) fn parse(f: &mut Fields) -> BackupSettingsChange {
    let mut change = BackupSettingsChange {
        enabled: f.boolean("enabled"),
        ..BackupSettingsChange::default()
    };
    match f.string("at") {
        crate::input::Field::Value(at) => change.at = Some(at),
        crate::input::Field::Null => f.add("at", "must be a time HH:MM"),
        crate::input::Field::Absent => {}
    }
    match f.integer("keep") {
        crate::input::Field::Value(keep) => change.keep = Some(keep),
        crate::input::Field::Null => f.add("keep", "must be a whole number from 1 to 365"),
        crate::input::Field::Absent => {}
    }
    change
}

fn change(cx: &mut WriteCx<'_>, input: BackupSettingsChange) -> Result<BackupSettings> {
    let mut details = crate::error::Details::new();
    let mut s = stored(cx)?;
    if let Some(at) = &input.at {
        match read_at(at) {
            Some((h, m)) => s.at = format!("{h:02}:{m:02}"),
            None => details.add("at", "must be a time HH:MM, from 00:00 to 23:59"),
        }
    }
    if let Some(keep) = input.keep {
        match u16::try_from(keep) {
            Ok(k) if (1..=365).contains(&k) => s.keep = k,
            _ => details.add("keep", "must be a whole number from 1 to 365"),
        }
    }
    if let Some(enabled) = input.enabled {
        s.enabled = enabled;
    }
    details.into_validation()?;
    cx.put_json(SINGLETONS, SETTINGS_KEY, &s)?;
    settings(cx)
}

/// The instant of the last scheduled backup at or before `now`: today's
/// `at` in `zone`, or yesterday's before it.
fn last_scheduled(at: &str, now: Timestamp, zone: &crate::time::Zone) -> Timestamp {
    let (h, m) = read_at(at).unwrap_or((3, 0));
    let today = zone.today(now);
    let at_on = |date: jiff::civil::Date| {
        date.at(h, m, 0, 0)
            .to_zoned(zone.time_zone().clone())
            .map(|z| z.timestamp())
            .unwrap_or(now)
    };
    let today_at = at_on(today);
    if today_at <= now {
        today_at
    } else {
        at_on(today.yesterday().unwrap_or(today))
    }
}

/// How long a failed scheduled backup waits before it is tried again.
const RETRY_AFTER: SignedDuration = SignedDuration::from_hours(1);

/// Whether the scheduled backup is due: on, a directory to write to, and
/// none made since the last scheduled time (a failure is tried again an
/// hour later).
fn due<T: Tables>(cx: &Cx<'_, T>) -> Result<bool> {
    let s = stored(cx)?;
    if !s.enabled || directory(cx.org).is_none() {
        return Ok(false);
    }
    let scheduled = last_scheduled(&s.at, cx.now(), cx.zone());
    let made = s.last_backup_at.is_some_and(|t| t >= scheduled);
    let waiting = s
        .last_attempt_at
        .is_some_and(|t| t >= scheduled && cx.now().duration_since(t) < RETRY_AFTER);
    Ok(!made && !waiting)
}

/// One backup at a time in a process.
static MAKING: Mutex<()> = Mutex::new(());

/// Makes a backup now: the archive written, checked, and counted; then
/// the old ones beyond `keep` go. A failure is recorded in
/// `last_error` (and logged), and leaves the old backups as they were:
/// 422 on `base` with the reason.
pub(crate) fn make(inner: &Inner) -> Result<Backup> {
    if directory(inner).is_none() {
        // Not a failed backup: nothing to record.
        return Err(Error::invalid(
            "base",
            "this store has no data directory: set ORGANISER_BACKUP_DIR to back it up",
        ));
    }
    attempt(inner)?.map_err(|reason| Error::invalid("base", format!("the backup failed: {reason}")))
}

/// [`make`], with a failure of the backup itself (not of the store) as
/// its reason.
pub(crate) fn attempt(inner: &Inner) -> Result<std::result::Result<Backup, String>> {
    let _one = MAKING.lock().unwrap_or_else(|e| e.into_inner());
    let now = inner.options.clock.now();
    let outcome = make_unrecorded(inner, now);
    let keep = inner.write(|cx| {
        let mut s = stored(cx)?;
        s.last_attempt_at = Some(now);
        match &outcome {
            Ok((backup, made)) => {
                s.last_backup_at = Some(backup.created_at);
                s.last_error = None;
                cx.put_json(BACKUPS, backup.id.as_bytes(), made)?;
            }
            Err(reason) => s.last_error = Some(reason.clone()),
        }
        cx.put_json(SINGLETONS, SETTINGS_KEY, &s)?;
        Ok(s.keep)
    })?;
    match outcome {
        Ok((backup, _)) => {
            if let Err(e) = prune(inner, usize::from(keep)) {
                tracing::warn!(error = %e, "removing old backups failed");
            }
            Ok(Ok(backup))
        }
        Err(reason) => {
            tracing::warn!(reason = %reason, "backup failed");
            Ok(Err(reason))
        }
    }
}

fn make_unrecorded(inner: &Inner, now: Timestamp) -> std::result::Result<(Backup, Made), String> {
    let dir = directory(inner)
        .ok_or("this store has no data directory: set ORGANISER_BACKUP_DIR to back it up")?;
    create_dir_private(&dir)?;
    remove_leftovers(&dir);
    let stamp = now.strftime("%Y%m%dT%H%M%SZ").to_string();
    let mut id = format!("{}{stamp}{}", archive::PREFIX, archive::SUFFIX);
    let mut n = 2;
    while dir.join(&id).exists() {
        id = format!("{}{stamp}-{n}{}", archive::PREFIX, archive::SUFFIX);
        n += 1;
    }
    let path = dir.join(&id);
    let temporary = archive::temporary(&dir, "backup");
    let secret_key = inner
        .data_dir
        .as_ref()
        .and_then(|d| std::fs::read(d.join(crate::secrets::KEY_FILE)).ok());
    let files = inner
        .files
        .list()
        .map_err(|e| format!("cannot list the files: {e}"))?;
    let read_file = |name: &str| inner.files.read(name);
    let contents = archive::Contents {
        app_version: &inner.options.build.version,
        created_at: now,
        secret_key,
        files,
        read_file: &read_file,
    };
    {
        let tx = inner
            .store
            .begin_read()
            .map_err(|e| format!("cannot read the store: {e}"))?;
        archive::write(&tx, &contents, &temporary)?;
    }
    std::fs::rename(&temporary, &path).map_err(|e| {
        let _ = std::fs::remove_file(&temporary);
        format!("cannot rename {}: {e}", temporary.display())
    })?;
    sync_dir(&dir);
    let made = match archive::check(&path, None).and_then(|m| describe(&path, &id, m)) {
        Ok(backup) => backup,
        Err(reason) => {
            let _ = std::fs::remove_file(&path);
            return Err(format!("the backup did not check out: {reason}"));
        }
    };
    let record = Made {
        bytes: made.bytes,
        sha256: made.sha256.clone(),
    };
    Ok((made, record))
}

/// The backup at `path` named `id` with manifest `m`, its hash computed.
fn describe(path: &Path, id: &str, m: archive::Manifest) -> std::result::Result<Backup, String> {
    let (bytes, sha256) = hash(path)?;
    Ok(backup_of(id, m, bytes, sha256))
}

/// The backup named `id` whose archive, `bytes` long with hash `sha256`,
/// holds manifest `m`.
fn backup_of(id: &str, m: archive::Manifest, bytes: u64, sha256: String) -> Backup {
    Backup {
        id: id.to_owned(),
        created_at: m.created_at,
        bytes,
        sha256,
        counts: m.counts,
        schema_version: m.schema_version,
        app_version: m.app_version,
    }
}

/// An archive's size and SHA-256.
fn hash(path: &Path) -> std::result::Result<(u64, String), String> {
    archive::sha256_file(path)
}

/// [`crate::files::create_private_dir`], its failure said.
fn create_dir_private(dir: &Path) -> std::result::Result<(), String> {
    crate::files::create_private_dir(dir)
        .map_err(|e| format!("cannot create {}: {e}", dir.display()))
}

fn sync_dir(dir: &Path) {
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
}

/// Removes what an interrupted backup left (hidden temporary files):
/// backups are made one at a time, so none is in use.
fn remove_leftovers(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        if entry.file_name().to_string_lossy().starts_with(".tmp-") {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// The backup files in `dir`, oldest first (their names sort by time).
fn files_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|n| is_backup_name(n))
        .collect();
    names.sort();
    names
}

fn is_backup_name(name: &str) -> bool {
    name.starts_with(archive::PREFIX)
        && name.ends_with(archive::SUFFIX)
        && !name.contains('/')
        && !name.contains('\\')
}

/// Removes the oldest backups beyond `keep`.
fn prune(inner: &Inner, keep: usize) -> Result<()> {
    let Some(dir) = directory(inner) else {
        return Ok(());
    };
    let names = files_in(&dir);
    let gone: Vec<String> = names
        .iter()
        .take(names.len().saturating_sub(keep))
        .cloned()
        .collect();
    for name in &gone {
        std::fs::remove_file(dir.join(name))
            .map_err(|e| Error::Internal(format!("removing {name}: {e}")))?;
    }
    if !gone.is_empty() {
        sync_dir(&dir);
        inner.write(|cx| {
            for name in &gone {
                cx.remove(BACKUPS, name.as_bytes())?;
            }
            Ok(())
        })?;
    }
    Ok(())
}

/// The backup `id` as its file says (its hash from the store when the
/// store made it, else computed); `None` when there is no such file.
fn read_one<T: Tables>(cx: &Cx<'_, T>, dir: &Path, id: &str) -> Result<Option<Backup>> {
    if !is_backup_name(id) {
        return Ok(None);
    }
    let path = dir.join(id);
    if !path.is_file() {
        return Ok(None);
    }
    let Ok(manifest) = archive::manifest_of(&path) else {
        return Ok(None);
    };
    let made: Option<Made> = cx.get_json(BACKUPS, id.as_bytes())?;
    let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
    let (bytes, sha256) = match made {
        Some(m) if m.bytes == size => (m.bytes, m.sha256),
        _ => hash(&path).map_err(Error::Internal)?,
    };
    Ok(Some(backup_of(id, manifest, bytes, sha256)))
}

fn list<T: Tables>(cx: &Cx<'_, T>) -> Result<Vec<Backup>> {
    let Some(dir) = directory(cx.org) else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for name in files_in(&dir).iter().rev() {
        if let Some(b) = read_one(cx, &dir, name)? {
            out.push(b);
        }
    }
    Ok(out)
}

fn get<T: Tables>(cx: &Cx<'_, T>, id: &str) -> Result<Backup> {
    let dir = directory(cx.org).ok_or(Error::NotFound)?;
    read_one(cx, &dir, id)?.ok_or(Error::NotFound)
}

fn delete(inner: &Inner, id: &str) -> Result<()> {
    let dir = directory(inner).ok_or(Error::NotFound)?;
    if !is_backup_name(id) || !dir.join(id).is_file() {
        return Err(Error::NotFound);
    }
    std::fs::remove_file(dir.join(id))
        .map_err(|e| Error::Internal(format!("removing {id}: {e}")))?;
    sync_dir(&dir);
    inner.write(|cx| cx.remove(BACKUPS, id.as_bytes()).map(|_| ()))
}

/// The archive's path, for `GET /backups/{id}/file`.
fn file_path(inner: &Inner, id: &str) -> Result<PathBuf> {
    let dir = directory(inner).ok_or(Error::NotFound)?;
    if !is_backup_name(id) || !dir.join(id).is_file() {
        return Err(Error::NotFound);
    }
    Ok(dir.join(id))
}

/// Checks the archive at `path` whole (`organiser backup verify`): the
/// backup it holds, or why it cannot be restored.
///
/// # Errors
///
/// The reason, in a sentence.
pub fn verify(path: &Path) -> std::result::Result<Backup, String> {
    let manifest = archive::check(path, None)?;
    let id = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    describe(path, &id, manifest)
}

/// What [`restore`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Restored {
    /// The backup restored.
    pub backup: Backup,
    /// Where the data that was there went (`DATA_DIR/before-restore-<time>`);
    /// `None` when the directory held none.
    pub moved_aside: Option<PathBuf>,
}

/// Restores the backup at `archive` into `data_dir` (made when missing):
/// the archive is checked whole first (a damaged one changes nothing), a
/// store of a newer schema than this build reads is refused, a store held
/// by another process is refused, and the data there (the store, the
/// secret key, the files) is moved aside to
/// `DATA_DIR/before-restore-<time>/`, never deleted.
///
/// # Errors
///
/// Why nothing was restored, in a sentence.
pub fn restore(
    archive: &Path,
    data_dir: &Path,
    now: Timestamp,
) -> std::result::Result<Restored, String> {
    let store_path = data_dir.join(crate::organiser::STORE_FILE);
    if store_path.exists() {
        // Opened for reading only: that writes nothing to the file, and
        // fails while another process holds it.
        match crate::store::Store::open_read_only(&store_path) {
            Err(crate::store::OpenError::Locked) => {
                return Err(
                    "the store is held by another process (a running server: stop it first)".into(),
                );
            }
            Ok(store) => drop(store),
            Err(_) => {}
        }
    }
    create_dir_private(data_dir)?;
    let stamp = now.strftime("%Y%m%dT%H%M%SZ").to_string();
    let staging = data_dir.join(format!(".restoring-{stamp}"));
    let _ = std::fs::remove_dir_all(&staging);
    create_dir_private(&staging)?;
    let checked = archive::check(archive, Some(&staging));
    let manifest = match checked {
        Ok(m) => m,
        Err(reason) => {
            let _ = std::fs::remove_dir_all(&staging);
            return Err(format!(
                "{} cannot be restored: {reason}",
                archive.display()
            ));
        }
    };
    let supported = crate::resources::MIGRATIONS.len() as u32;
    if manifest.schema_version > supported {
        let _ = std::fs::remove_dir_all(&staging);
        return Err(format!(
            "{} was made by a newer Organiser (schema {}, this build reads up to {supported}): update Organiser first",
            archive.display(),
            manifest.schema_version
        ));
    }
    let id = archive
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let backup = describe(archive, &id, manifest).inspect_err(|_| {
        let _ = std::fs::remove_dir_all(&staging);
    })?;
    let names = [
        crate::organiser::STORE_FILE,
        crate::secrets::KEY_FILE,
        crate::files::FILES_DIR,
    ];
    let present: Vec<&str> = names
        .iter()
        .copied()
        .filter(|n| data_dir.join(n).exists())
        .collect();
    let moved_aside = if present.is_empty() {
        None
    } else {
        let aside = data_dir.join(format!("before-restore-{stamp}"));
        create_dir_private(&aside)?;
        for name in &present {
            std::fs::rename(data_dir.join(name), aside.join(name))
                .map_err(|e| format!("cannot move {name} aside: {e}"))?;
        }
        Some(aside)
    };
    for name in names {
        let from = staging.join(name);
        if from.exists() {
            std::fs::rename(&from, data_dir.join(name))
                .map_err(|e| format!("cannot put {name} in place: {e}"))?;
        }
    }
    let _ = std::fs::remove_dir_all(&staging);
    sync_dir(data_dir);
    Ok(Restored {
        backup,
        moved_aside,
    })
}

#[cfg(test)]
mod tests;
