//! Sending a file to `POST /uploads` (DESIGN.md "Uploads"): what `docs
//! add` and `tasks add --attach` share. A large file shows a progress bar
//! (indicatif) on standard error while it goes, when that is a terminal.

use std::io::{IsTerminal, Read};
use std::path::Path;

use indicatif::{ProgressBar, ProgressStyle};

use organiser_core::{uploads::Upload, uploads::UploadKind};

use crate::door::{Client, Doors};
use crate::error::CliError;

/// Files larger than this show a progress bar.
const PROGRESS_FROM: u64 = 8 * 1024 * 1024;

/// Uploads the PDF at `path` as an upload of kind `document`, named by its
/// file name; `flag` names it in messages (`FILE`, `--attach`).
pub(crate) fn upload_pdf(client: &Client, path: &Path, flag: &str) -> Result<Upload, CliError> {
    let unreadable =
        |e: std::io::Error| CliError::msg(format!("cannot read {}: {e}", path.display()));
    let filename = path
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .ok_or_else(|| CliError::msg(format!("{} is not a file", path.display())))?;
    let mut file = std::fs::File::open(path).map_err(unreadable)?;
    let size = file.metadata().map_err(unreadable)?.len();
    let bar = progress_bar(size, &filename);
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    // In this process the store takes the bytes at once: the bar follows
    // reading the file. To a server, it follows the bytes sent.
    match (&bar, client.is_local()) {
        (Some(bar), true) => bar.wrap_read(&mut file).read_to_end(&mut bytes),
        _ => file.read_to_end(&mut bytes),
    }
    .map_err(unreadable)?;
    let sending = bar.clone().filter(|_| !client.is_local());
    if let Some(bar) = &bar
        && client.is_local()
    {
        bar.set_message(format!("{filename}: storing"));
    }
    let uploaded = client.with_progress(sending, |c| {
        c.uploads()
            .create(UploadKind::Document, &filename, "application/pdf", bytes)
    });
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    uploaded.map_err(|e| CliError::from(e).naming(&[("file", flag), ("filename", flag)]))
}

/// A bar for a file of `size` bytes, when it is large and standard error
/// is a terminal.
pub(crate) fn progress_bar(size: u64, filename: &str) -> Option<ProgressBar> {
    if size <= PROGRESS_FROM || !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = ProgressBar::new(size);
    if let Ok(style) = ProgressStyle::with_template(
        "{msg} [{bar:30}] {bytes}/{total_bytes} ({bytes_per_sec}, {eta})",
    ) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.set_message(filename.to_owned());
    Some(bar)
}
