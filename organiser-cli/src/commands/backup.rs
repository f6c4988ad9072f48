//! `organiser backup [--to FILE]`, `backup verify FILE`, `backups` and
//! `restore FILE` (EXTENSIONS.md §4): a backup now (through the server
//! when one holds the store), an archive checked whole, the backups, and
//! a restore that checks first and moves the current data aside.

use std::path::PathBuf;

use clap::{Args, Subcommand};
use organiser_core::backups::{self, Backup};

use super::Global;
use crate::backend::{data_dir, process_alive};
use crate::door::Doors;
use crate::error::CliError;
use crate::output;

#[derive(Debug, Args)]
pub(crate) struct BackupCommand {
    #[command(subcommand)]
    action: Option<BackupAction>,
    /// Also write the archive to FILE (a copy off the backup directory:
    /// another disk, a USB stick).
    #[arg(long, value_name = "FILE")]
    to: Option<PathBuf>,
}

#[derive(Debug, Subcommand)]
enum BackupAction {
    /// Check an archive whole, as `restore` would (exit 1 when it cannot
    /// be restored, with the reason).
    Verify {
        /// The archive.
        file: PathBuf,
    },
}

/// A backup as a line says it: its size, when it was made, its tasks.
fn described(b: &Backup) -> String {
    format!(
        "{} ({}, {} tasks, {} notes, {} people, schema {})",
        b.id,
        organiser_core::limits::size(b.bytes),
        b.counts.get("tasks").copied().unwrap_or(0),
        b.counts.get("notes").copied().unwrap_or(0),
        b.counts.get("people").copied().unwrap_or(0),
        b.schema_version
    )
}

impl BackupCommand {
    pub(crate) fn run(self, global: &Global) -> Result<(), CliError> {
        if let Some(BackupAction::Verify { file }) = self.action {
            let checked = backups::verify(&file)
                .map_err(|reason| CliError::msg(format!("{}: {reason}", file.display())))?;
            if global.json {
                return output::json(&serde_json::json!({ "data": checked }));
            }
            return output::line(format!(
                "{}: a good backup of {}, made {} by Organiser {}",
                file.display(),
                described(&checked),
                checked.created_at,
                checked.app_version
            ));
        }
        let client = global.writer()?;
        let spinner = output::spinner("Backing up…");
        let made = client.reply(|c| c.backups().create());
        if let Some(s) = spinner {
            s.finish_and_clear();
        }
        let made = made?;
        let settings = client.reply(|c| c.backups().settings())?.data;
        if let Some(to) = &self.to {
            let file = client.reply(|c| c.backups().file(&made.data.id))?.data;
            organiser_core::data::write_private(to, &file.bytes)
                .map_err(|e| CliError::msg(format!("--to {}: {e}", to.display())))?;
        }
        let dir = settings.directory.unwrap_or_default();
        let copy = self
            .to
            .as_ref()
            .map(|to| format!("; copied to {}", to.display()))
            .unwrap_or_default();
        global.said(
            &made.body,
            format!(
                "Backed up to {}/{}, checked{copy}",
                dir.trim_end_matches('/'),
                described(&made.data)
            ),
        )
    }
}

/// `organiser backups`: the backups, newest first.
#[derive(Debug, Args)]
pub(crate) struct BackupsCommand {}

impl BackupsCommand {
    pub(crate) fn run(self, global: &Global) -> Result<(), CliError> {
        let client = global.reader()?;
        let listed = client.reply(|c| c.backups().list())?;
        if global.json {
            return output::json(&listed.body);
        }
        let settings = client.reply(|c| c.backups().settings())?.data;
        let schedule = if settings.enabled {
            format!("daily at {}, keeping {}", settings.at, settings.keep)
        } else {
            "off".to_owned()
        };
        let mut head = format!(
            "Backups · {} · in {}",
            schedule,
            settings.directory.as_deref().unwrap_or("-")
        );
        if let Some(error) = &settings.last_error {
            head.push_str(&format!(" · the last one failed: {error}"));
        }
        output::line(head)?;
        if listed.data.is_empty() {
            return output::line("Nothing here.");
        }
        let zone = output::owner_zone(&client)?;
        let mut table = output::table(&["#", "FILE", "MADE", "SIZE", "TASKS", "NOTES", "SCHEMA"]);
        for (n, b) in listed.data.iter().enumerate() {
            table.add_row(vec![
                output::cell(n + 1),
                output::cell(&b.id),
                output::cell(output::moment(b.created_at, &zone)),
                output::cell(organiser_core::limits::size(b.bytes)),
                output::cell(b.counts.get("tasks").copied().unwrap_or(0)),
                output::cell(b.counts.get("notes").copied().unwrap_or(0)),
                output::cell(b.schema_version),
            ]);
        }
        output::print_table(&table)
    }
}

/// `organiser restore FILE`.
#[derive(Debug, Args)]
pub(crate) struct RestoreCommand {
    /// The backup archive (`organiser backups` lists those in the backup
    /// directory).
    file: PathBuf,
}

impl RestoreCommand {
    pub(crate) fn run(self, global: &Global) -> Result<(), CliError> {
        let dir = data_dir(global.data_dir.as_deref())?;
        if let Some(info) =
            organiser_server::ServerInfo::read(&dir).filter(|i| process_alive(i.pid))
        {
            return Err(CliError::msg(format!(
                "the store in {} is held by the server at {} (pid {}): stop it first (Ctrl-C where it runs, `kill {}`, or `systemctl stop organiser`), then restore",
                dir.display(),
                info.url,
                info.pid,
                info.pid
            )));
        }
        let now = organiser_core::clock::from_env()
            .map_err(CliError::msg)?
            .now();
        let spinner = output::spinner("Checking the backup…");
        let restored = backups::restore(&self.file, &dir, now);
        if let Some(s) = spinner {
            s.finish_and_clear();
        }
        let restored = restored.map_err(CliError::msg)?;
        if global.json {
            return output::json(&serde_json::json!({
                "data": {
                    "backup": restored.backup,
                    "moved_aside": restored.moved_aside,
                }
            }));
        }
        let aside = match &restored.moved_aside {
            Some(p) => format!("; what was there is in {}", p.display()),
            None => String::new(),
        };
        output::line(format!(
            "Restored {} (made {}) into {}{aside}",
            described(&restored.backup),
            restored.backup.created_at,
            dir.display()
        ))
    }
}
