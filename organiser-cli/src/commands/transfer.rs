//! `organiser export [--to FILE] [--format FORMAT]` and `organiser import
//! FILE [--from FORMAT] [--list NAME] [--dry-run]` (EXTENSIONS.md §5):
//! the store written to one file, and a file (or a folder of Markdown
//! notes) taken in, through the server when one holds the store.

use std::io::Read;
use std::path::PathBuf;

use clap::{Args, ValueEnum};
use organiser_core::transfer::{ExportFormat, Format, ImportParams, ImportReport};

use super::Global;
use crate::door::Doors;
use crate::error::CliError;
use crate::output;

/// What `export --format` writes.
#[derive(Debug, Clone, Copy, ValueEnum)]
enum ExportAs {
    /// Everything, losslessly: a zip an import makes again exactly.
    Organiser,
    /// People as one vCard 4.0 file.
    Vcard,
    /// Tasks and key dates as one iCalendar file.
    Ical,
    /// Notes as a zip of Markdown files with their images.
    Markdown,
}

impl From<ExportAs> for ExportFormat {
    fn from(f: ExportAs) -> ExportFormat {
        match f {
            ExportAs::Organiser => ExportFormat::Organiser,
            ExportAs::Vcard => ExportFormat::Vcard,
            ExportAs::Ical => ExportFormat::Ical,
            ExportAs::Markdown => ExportFormat::Markdown,
        }
    }
}

/// What `import --from` reads.
#[derive(Debug, Clone, Copy, ValueEnum)]
enum ImportFrom {
    /// The organiser's own export.
    Organiser,
    /// A Todoist project's CSV, a backup zip of them, or a JSON backup.
    Todoist,
    /// Taskwarrior's `task export`.
    Taskwarrior,
    /// vCard 3.0 or 4.0 contacts (Google, Apple, Nextcloud, Monica).
    Vcard,
    /// An iCalendar file of to-dos.
    Ical,
    /// Markdown notes with front matter: a file, a folder or a zip
    /// (Joplin, Obsidian).
    Markdown,
}

impl From<ImportFrom> for Format {
    fn from(f: ImportFrom) -> Format {
        match f {
            ImportFrom::Organiser => Format::Organiser,
            ImportFrom::Todoist => Format::Todoist,
            ImportFrom::Taskwarrior => Format::Taskwarrior,
            ImportFrom::Vcard => Format::Vcard,
            ImportFrom::Ical => Format::Ical,
            ImportFrom::Markdown => Format::Markdown,
        }
    }
}

#[derive(Debug, Args)]
pub(crate) struct ExportCommand {
    /// Write to FILE (default: `organiser-export-<date>.zip`, or
    /// `organiser-people-`, `-calendar-`, `-notes-` for the others, in the
    /// current directory).
    #[arg(long, value_name = "FILE")]
    to: Option<PathBuf>,
    /// What to write.
    #[arg(long, value_enum, default_value = "organiser")]
    format: ExportAs,
}

impl ExportCommand {
    pub(crate) fn run(self, global: &Global) -> Result<(), CliError> {
        let client = global.reader()?;
        let spinner = output::spinner("Exporting…");
        let file = client.reply(|c| c.transfer().export(self.format.into()));
        if let Some(s) = spinner {
            s.finish_and_clear();
        }
        let file = file?.data;
        let to = self.to.unwrap_or_else(|| PathBuf::from(&file.filename));
        organiser_core::data::write_private(&to, &file.bytes)
            .map_err(|e| CliError::msg(format!("{}: {e}", to.display())))?;
        if global.json {
            return output::json(&serde_json::json!({
                "data": {"path": to.display().to_string(), "bytes": file.bytes.len()}
            }));
        }
        output::line(format!(
            "Exported to {} ({})",
            to.display(),
            organiser_core::limits::size(file.bytes.len() as u64)
        ))
    }
}

#[derive(Debug, Args)]
pub(crate) struct ImportCommand {
    /// The file, or a folder of Markdown notes.
    file: PathBuf,
    /// Its format (found from the content when left out).
    #[arg(long, value_enum)]
    from: Option<ImportFrom>,
    /// A Todoist CSV's project (default: the file's name).
    #[arg(long, value_name = "NAME")]
    list: Option<String>,
    /// Say what would be imported, and write nothing.
    #[arg(long)]
    dry_run: bool,
}

impl ImportCommand {
    pub(crate) fn run(self, global: &Global) -> Result<(), CliError> {
        let path = &self.file;
        let cant = |e: &dyn std::fmt::Display| CliError::msg(format!("{}: {e}", path.display()));
        let label = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| path.display().to_string());
        // A dry run writes in a transaction it then throws away.
        let client = global.writer()?;
        let size = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
        // A large file shows a bar on a terminal: reading it in this
        // process, or sending it to a server; then the import itself.
        let bar = super::upload::progress_bar(size, &label);
        let bytes = if path.is_dir() {
            organiser_core::transfer::read_folder(path).map_err(|e| cant(&e))?
        } else {
            let mut file = std::fs::File::open(path).map_err(|e| cant(&e))?;
            let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
            match (&bar, client.is_local()) {
                (Some(bar), true) => bar.wrap_read(&mut file).read_to_end(&mut bytes),
                _ => file.read_to_end(&mut bytes),
            }
            .map_err(|e| cant(&e))?;
            bytes
        };
        let name = self.list.clone().or(Some(label.clone()));
        let params = ImportParams {
            from: self.from.map(Format::from),
            dry_run: self.dry_run,
            name,
        };
        let spinner = match &bar {
            Some(bar) => {
                if client.is_local() {
                    bar.set_message(format!("{label}: importing"));
                }
                None
            }
            None => output::spinner(&format!(
                "Importing {} ({})…",
                path.display(),
                organiser_core::limits::size(bytes.len() as u64)
            )),
        };
        let sending = bar.clone().filter(|_| !client.is_local());
        let report =
            client.with_progress(sending, |c| c.reply(|c| c.transfer().import(params, bytes)));
        if let Some(s) = spinner.as_ref().or(bar.as_ref()) {
            s.finish_and_clear();
        }
        let report = report?;
        if global.json {
            return output::json(&report.body);
        }
        said(&report.data)
    }
}

/// The report in words: what was made and changed, then each item left
/// out with where and why.
fn said(r: &ImportReport) -> Result<(), CliError> {
    let counts = |m: &std::collections::BTreeMap<String, u64>| {
        let parts: Vec<String> = m
            .iter()
            .map(|(kind, n)| format!("{n} {}", kind.replace('_', " ")))
            .collect();
        if parts.is_empty() {
            "nothing".to_owned()
        } else {
            parts.join(", ")
        }
    };
    let verb = if r.dry_run {
        "Would import"
    } else {
        "Imported"
    };
    output::line(format!(
        "{verb} from {}: created {}; updated {}; skipped {}",
        r.from,
        counts(&r.created),
        counts(&r.updated),
        r.skipped.len()
    ))?;
    for s in &r.skipped {
        output::line(format!("  skipped {}: {}", s.at, s.reason))?;
    }
    if r.dry_run {
        output::line("Nothing was written (--dry-run).")?;
    }
    Ok(())
}
