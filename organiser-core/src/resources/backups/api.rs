//! The backups' operations (EXTENSIONS.md §4, `/backup_settings`,
//! `/backups`), each declared once, [`Backups`], their typed door, and
//! the daily backup, a registered job.

use std::time::Duration;

use super::{Backup, BackupSettings, BackupSettingsChange, change, delete, file_path, get, list};
use crate::engine::Organiser;
use crate::engine::jobs::{Job, Pace, Ran};
use crate::engine::op::{PlainOp, ReadOp, WriteOp};
use crate::engine::operation::{Answer, Declared, Door, Operation, Run, body_part};
use crate::engine::request::Method::{Delete, Get, Patch, Post, Put};
use crate::engine::request::{FileBytes, Request, Response};
use crate::error::Result;
use crate::input;

body_part!(
    BackupSettingsChange,
    |body| input::parse_record(body, "backup_settings", super::parse),
    Some("backup_settings")
);

/// `GET /backup_settings`.
pub(crate) static SETTINGS: Operation<(), BackupSettings> = Operation::new(
    "getBackupSettings",
    Get,
    "/backup_settings",
    "Backup settings\n\nWhether the daily backup runs, when (`at`, owner's zone), how many are kept, where they go, and how the last one went.",
    Run::Read(ReadOp::PLAIN, |cx, ()| super::settings(cx)),
    Answer::data(200),
);

/// `PATCH` (or `PUT`) `/backup_settings`.
pub(crate) static CHANGE_SETTINGS: Operation<BackupSettingsChange, BackupSettings> =
    Operation::new(
        "patchBackupSettings",
        Patch,
        "/backup_settings",
        "Change backup settings\n\n`enabled`, `at` (`HH:MM`) and `keep` (1 to 365); 422 on each. Allowed in read-only mode.",
        Run::write(WriteOp::EXEMPT, change),
        Answer::data(200),
    )
    .also(Put, "putBackupSettings");

/// `GET /backups`.
pub(crate) static LIST: Operation<(), Vec<Backup>> = Operation::new(
    "listBackups",
    Get,
    "/backups",
    "Backups\n\nThe backups in the backup directory, newest first. Not paginated. Session only: 403 `session_required` under an API token (the owner at the machine may).",
    Run::Read(ReadOp::PLAIN, |cx, ()| list(cx)),
    Answer::data(200),
)
.session_only();

/// `POST /backups`: makes one now, off the store's transactions.
pub(crate) static CREATE: Operation<(), Backup> = Operation::new(
    "createBackup",
    Post,
    "/backups",
    "Back up now\n\nCopies the store from one read transaction while requests go on, writes the archive, checks it, then removes the oldest beyond `keep`. 422 on `base` when it fails (the reason is also kept in `last_error`; the old backups stay). Session only. Allowed in read-only mode.",
    Run::Plain(PlainOp::WAITS, |inner, ()| super::make(inner)),
    Answer::data(201),
)
.session_only();

/// `GET /backups/{id}`.
pub(crate) static GET: Operation<String, Backup> = Operation::new(
    "getBackup",
    Get,
    "/backups/{id}",
    "A backup\n\n`id` is its file name. Session only.",
    Run::Read(ReadOp::PLAIN, |cx, id: String| get(cx, &id)),
    Answer::data(200),
)
.session_only();

/// `DELETE /backups/{id}`.
pub(crate) static DELETE: Operation<String, ()> = Operation::new(
    "deleteBackup",
    Delete,
    "/backups/{id}",
    "Delete a backup\n\nThe file goes for good. Session only. Allowed in read-only mode.",
    Run::Plain(PlainOp::PRIVATE_FILES, |inner, id: String| {
        delete(inner, &id)
    }),
    Answer::empty(),
)
.session_only();

/// `GET /backups/{id}/file`.
pub(crate) static FILE: Operation<String, FileBytes> = Operation::new(
    "getBackupFile",
    Get,
    "/backups/{id}/file",
    "A backup's archive\n\nThe tar archive itself, as an attachment. Session only.",
    Run::Plain(PlainOp::PRIVATE_FILES, |inner, id: String| {
        let path = file_path(inner, &id)?;
        let bytes = std::fs::read(&path)
            .map_err(|e| crate::error::Error::Internal(format!("{}: {e}", path.display())))?;
        Ok(FileBytes {
            content_type: "application/x-tar".to_owned(),
            filename: id,
            bytes,
        })
    }),
    Answer::raw(archive_answer, read_archive_answer),
)
.session_only();

fn archive_answer(file: FileBytes, _req: &Request) -> Response {
    Response::attachment(file)
}

fn read_archive_answer(response: &Response) -> Result<FileBytes> {
    Ok(FileBytes {
        content_type: "application/x-tar".to_owned(),
        ..FileBytes::of_answer(response)
    })
}

/// The backups' operations, for the registry.
pub(crate) static OPERATIONS: &[&dyn Declared] = &[
    &SETTINGS,
    &CHANGE_SETTINGS,
    &LIST,
    &CREATE,
    &GET,
    &DELETE,
    &FILE,
];

/// The backups of a store (EXTENSIONS.md §4), through a [`Door`]: the
/// store itself (`org.backups()`), or a server that holds it.
#[derive(Debug, Clone, Copy)]
pub struct Backups<'d, D = Organiser> {
    door: &'d D,
}

impl<'d, D: Door> Backups<'d, D> {
    /// The backups of the store behind `door`.
    pub fn new(door: &'d D) -> Self {
        Backups { door }
    }

    /// The settings and how the last backup went.
    ///
    /// # Errors
    ///
    /// Only the store's.
    pub fn settings(&self) -> Result<BackupSettings> {
        self.door.call(&SETTINGS, ())
    }

    /// Changes what `change` sends.
    ///
    /// # Errors
    ///
    /// [`Error::Validation`](crate::Error::Validation) on `at` or `keep`.
    pub fn change_settings(&self, change: BackupSettingsChange) -> Result<BackupSettings> {
        self.door.call(&CHANGE_SETTINGS, change)
    }

    /// The backups, newest first.
    ///
    /// # Errors
    ///
    /// Only the store's.
    pub fn list(&self) -> Result<Vec<Backup>> {
        self.door.call(&LIST, ())
    }

    /// Makes a backup now and checks it.
    ///
    /// # Errors
    ///
    /// [`Error::Validation`](crate::Error::Validation) on `base` with the
    /// reason when it fails.
    pub fn create(&self) -> Result<Backup> {
        self.door.call(&CREATE, ())
    }

    /// One backup by its file name.
    ///
    /// # Errors
    ///
    /// [`Error::NotFound`](crate::Error::NotFound).
    pub fn get(&self, id: &str) -> Result<Backup> {
        self.door.call(&GET, id.to_owned())
    }

    /// Deletes a backup's file.
    ///
    /// # Errors
    ///
    /// [`Error::NotFound`](crate::Error::NotFound).
    pub fn delete(&self, id: &str) -> Result<()> {
        self.door.call(&DELETE, id.to_owned())
    }

    /// A backup's archive.
    ///
    /// # Errors
    ///
    /// [`Error::NotFound`](crate::Error::NotFound).
    pub fn file(&self, id: &str) -> Result<FileBytes> {
        self.door.call(&FILE, id.to_owned())
    }
}

impl Organiser {
    /// The store's backups.
    pub fn backups(&self) -> Backups<'_> {
        Backups::new(self)
    }

    /// Makes the daily backup when it is due (a store backs itself up
    /// every day at `at`, and at the next start after a missed one); the
    /// backup made, if any. The server runs it on a schedule.
    ///
    /// # Errors
    ///
    /// Only the store's (a failed backup is kept in `last_error`).
    pub fn run_scheduled_backup(&self) -> Result<Option<std::result::Result<Backup, String>>> {
        if !self.inner.read(super::due)? {
            return Ok(None);
        }
        Ok(Some(super::attempt(&self.inner)?))
    }
}

/// The daily backup, looked for every minute.
pub(crate) const SCHEDULED_BACKUP: Job = Job {
    name: "backup",
    pace: Pace::Every(Duration::from_secs(60)),
    announce: Some(announce_backups),
    run: |org| {
        Ok(match org.run_scheduled_backup()? {
            None => Ran::Nothing,
            Some(Ok(backup)) => Ran::Did(format!(
                "backup made: {} ({} bytes)",
                backup.id, backup.bytes
            )),
            Some(Err(reason)) => Ran::Failed(reason),
        })
    },
    at_stop: None,
};

/// Whether the daily backup runs, where, and how to change it.
fn announce_backups(org: &Organiser) -> Ran {
    match org.backups().settings() {
        Ok(s) if s.enabled && s.directory.is_some() => Ran::Did(format!(
            "backups: daily at {} into {}, keeping {} (change with PATCH /backup_settings)",
            s.at,
            s.directory.as_deref().unwrap_or("-"),
            s.keep
        )),
        Ok(s) if s.enabled => Ran::Did("backups: none (no data directory)".to_owned()),
        Ok(_) => Ran::Did("backups: off".to_owned()),
        Err(error) => Ran::Failed(format!("cannot read the backup settings: {error}")),
    }
}
