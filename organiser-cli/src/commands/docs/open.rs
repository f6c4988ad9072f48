//! `organiser docs open DOC [--print-path]`: the document's PDF, fetched
//! from its `file.url` through the same backend as every request (the
//! store in this process, or a server), written to the user's cache
//! directory under the uploaded file's name, and handed to the system's
//! opener (`xdg-open`, `open` on macOS, `start` on Windows), which is not
//! waited for. With `--print-path`, or where there is no opener, the
//! file's path is printed instead.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use clap::Args;
use organiser_core::{Id, documents::Document};
use serde::Serialize;

use crate::commands::Session;
use crate::door::Doors;
use crate::error::CliError;
use crate::output::{self, Data};

#[derive(Debug, Args)]
pub(super) struct Open {
    /// The document: its row number, name, short ID or ID.
    document: String,
    /// Print the path of the PDF instead of opening it.
    #[arg(long)]
    print_path: bool,
}

/// What `--json` says: `{data: {id, path, opened}}`.
#[derive(Serialize)]
struct Opened<'a> {
    id: Id,
    path: &'a Path,
    opened: bool,
}

impl Open {
    pub(super) fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        let document = s.refs.record::<Document>(&self.document)?;
        let file = s
            .client
            .documents()
            .file(document.id)
            .map_err(|e| super::no_document(document.id)(e.into()))?;
        let path = write_cached(&document, &file.bytes)?;
        let opened = match self.print_path {
            true => Ok(false),
            false => open_with_system(&path).map(|()| true),
        };
        let (opened, failure) = match opened {
            Ok(opened) => (opened, None),
            Err(why) => (false, Some(why)),
        };
        if s.global.json {
            return output::json(&Data {
                data: Opened {
                    id: document.id,
                    path: &path,
                    opened,
                },
            });
        }
        if opened {
            output::line(format!("Opened {} ({})", document.name, path.display()))
        } else {
            if let Some(why) = failure {
                eprintln!("No viewer could be started ({why}); the file is at:");
            }
            output::line(path.display())
        }
    }
}

/// `$CACHE/organiser/documents/<ID>/<file name>` holding `bytes`, written
/// whole under a temporary name first (an opener never sees half a file).
fn write_cached(document: &Document, bytes: &[u8]) -> Result<PathBuf, CliError> {
    let cache = dirs::cache_dir()
        .ok_or_else(|| CliError::msg("no cache directory to write the PDF to (is $HOME set?)"))?;
    let dir = cache
        .join("organiser")
        .join("documents")
        .join(document.id.to_string());
    let failed = |e: std::io::Error| CliError::msg(format!("cannot write {}: {e}", dir.display()));
    std::fs::create_dir_all(&dir).map_err(failed)?;
    let path = dir.join(file_name(&document.file.filename));
    let partial = dir.join(".partial");
    std::fs::write(&partial, bytes).map_err(failed)?;
    std::fs::rename(&partial, &path).map_err(failed)?;
    Ok(path)
}

/// The uploaded file's name as one safe path component.
fn file_name(filename: &str) -> String {
    let name: String = filename
        .chars()
        .map(|c| {
            if matches!(c, '/' | '\\' | '\0') || c.is_control() {
                '_'
            } else {
                c
            }
        })
        .collect();
    let name = name.trim().trim_start_matches('.');
    if name.is_empty() {
        "document.pdf".to_owned()
    } else {
        name.to_owned()
    }
}

/// The system's opener.
const OPENER: &str = if cfg!(target_os = "macos") {
    "open"
} else if cfg!(windows) {
    "start"
} else {
    "xdg-open"
};

/// How long the opener is given to fail (it either hands the file to a
/// viewer and exits, or runs on as the viewer).
const OPENER_GRACE: std::time::Duration = std::time::Duration::from_secs(3);

/// Starts the system's opener on `path`; why it did not open it when it
/// could not be started, or exited with a failure (`xdg-open` on a
/// machine with no viewer exits 3).
fn open_with_system(path: &Path) -> Result<(), String> {
    let mut command = if cfg!(windows) {
        let mut c = Command::new("cmd");
        c.args(["/C", "start", ""]);
        c
    } else {
        Command::new(OPENER)
    };
    let mut child = command
        .arg(path)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("{OPENER} could not be run: {e}"))?;
    let started = std::time::Instant::now();
    while started.elapsed() < OPENER_GRACE {
        match child.try_wait() {
            Ok(Some(status)) if status.success() => return Ok(()),
            Ok(Some(status)) => return Err(format!("{OPENER} failed: {status}")),
            Ok(None) => std::thread::sleep(std::time::Duration::from_millis(25)),
            Err(e) => return Err(format!("{OPENER} could not be waited for: {e}")),
        }
    }
    // Still running: it is the viewer.
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn file_names_stay_one_component() {
        assert_eq!(super::file_name("Invoice 12.pdf"), "Invoice 12.pdf");
        assert_eq!(super::file_name("../x/y.pdf"), "_x_y.pdf");
        assert_eq!(super::file_name(""), "document.pdf");
        assert_eq!(super::file_name(".."), "document.pdf");
    }
}
