//! Export and import (EXTENSIONS.md §5): the organiser's own archive (a
//! zip of every live record as the API shows it, with its stored-only
//! fields, the deletion records, the owner's profile and the files), the
//! foreign exports (vCard, iCalendar, Markdown), and imports from the
//! archive and from Todoist, Taskwarrior, contacts files, calendars and
//! Markdown notes, each whole file read before one transaction writes it
//! all or nothing, with an import map so that a second import of the same
//! file changes nothing.

pub(crate) mod api;
pub(crate) mod apply;
pub(crate) mod draft;
pub(crate) mod from;
pub(crate) mod native;
mod readers;
pub(crate) mod tables;
pub(crate) mod to;
mod writers;
pub(crate) mod zipped;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

pub(crate) use api::OPERATIONS;
pub use api::Transfer;
use from::Refused;

use crate::error::{Details, Error, Result};
use crate::list::Query;

/// The largest file an import takes: 200 MB.
pub const MAX_IMPORT_BYTES: u64 = 200_000_000;

/// A format an import reads (`from`), as EXTENSIONS.md §5 names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// The organiser's own export archive.
    Organiser,
    /// Todoist: a project's CSV, a backup zip of them, or a JSON backup.
    Todoist,
    /// Taskwarrior's `task export`.
    Taskwarrior,
    /// vCard 3.0 and 4.0 contacts.
    Vcard,
    /// An iCalendar file of to-dos.
    Ical,
    /// Markdown notes with front matter (Joplin, Obsidian): one file or a
    /// zip of a folder.
    Markdown,
}

impl Format {
    /// Every format, in the order content is tried when none is named.
    pub const ALL: [Format; 6] = [
        Format::Organiser,
        Format::Todoist,
        Format::Taskwarrior,
        Format::Vcard,
        Format::Ical,
        Format::Markdown,
    ];

    /// Its name as `from` writes it.
    pub fn name(self) -> &'static str {
        match self {
            Format::Organiser => "organiser",
            Format::Todoist => "todoist",
            Format::Taskwarrior => "taskwarrior",
            Format::Vcard => "vcard",
            Format::Ical => "ical",
            Format::Markdown => "markdown",
        }
    }

    /// The format named `name`.
    pub fn parse(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.name() == name)
    }

    /// A stable byte naming the format inside the import map's keys.
    fn tag(self) -> u8 {
        match self {
            Format::Organiser => 1,
            Format::Todoist => 2,
            Format::Taskwarrior => 3,
            Format::Vcard => 4,
            Format::Ical => 5,
            Format::Markdown => 6,
        }
    }

    /// The format of `bytes` found from their content, when one fits.
    pub fn detect(bytes: &[u8], name: &str) -> Option<Format> {
        Format::ALL
            .into_iter()
            .find(|&f| readers::looks_like(f, bytes, name))
    }
}

/// What an export writes (`GET /export`'s `format`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ExportFormat {
    /// The organiser's own archive: everything, losslessly.
    #[default]
    Organiser,
    /// People as one vCard 4.0 file.
    Vcard,
    /// Tasks and key dates as one iCalendar file.
    Ical,
    /// Notes as a zip of Markdown files with their images.
    Markdown,
}

impl ExportFormat {
    const ALL: [ExportFormat; 4] = [
        ExportFormat::Organiser,
        ExportFormat::Vcard,
        ExportFormat::Ical,
        ExportFormat::Markdown,
    ];

    /// Its name as `format` writes it.
    pub fn name(self) -> &'static str {
        match self {
            ExportFormat::Organiser => "organiser",
            ExportFormat::Vcard => "vcard",
            ExportFormat::Ical => "ical",
            ExportFormat::Markdown => "markdown",
        }
    }

    /// The extension of the file it writes.
    pub fn extension(self) -> &'static str {
        match self {
            ExportFormat::Organiser | ExportFormat::Markdown => "zip",
            ExportFormat::Vcard => "vcf",
            ExportFormat::Ical => "ics",
        }
    }

    /// The name of the file it writes on `date`: `organiser-export-<date>.zip`
    /// for the archive; the foreign exports name what they hold
    /// (`organiser-people-…`, `organiser-calendar-…`, `organiser-notes-…`),
    /// so that exports of one day do not overwrite each other.
    pub fn file_name(self, date: jiff::civil::Date) -> String {
        let what = match self {
            ExportFormat::Organiser => "export",
            ExportFormat::Vcard => "people",
            ExportFormat::Ical => "calendar",
            ExportFormat::Markdown => "notes",
        };
        format!("organiser-{what}-{date}.{}", self.extension())
    }

    /// The format named `name`.
    pub fn named(name: &str) -> Option<ExportFormat> {
        ExportFormat::ALL.into_iter().find(|f| f.name() == name)
    }

    /// `format`: 400 on an unknown one.
    pub(crate) fn parse(query: &Query) -> Result<ExportFormat> {
        match query.get("format") {
            None | Some("") => Ok(ExportFormat::Organiser),
            Some(name) => ExportFormat::named(name).ok_or_else(|| {
                Error::InvalidParameter(Details::one(
                    "format",
                    "must be one of organiser, vcard, ical, markdown",
                ))
            }),
        }
    }

    /// The query's parameters, as [`ExportFormat::parse`] reads them.
    pub(crate) fn query_pairs(&self) -> Vec<(&'static str, String)> {
        vec![("format", self.name().to_owned())]
    }
}

/// How an import is asked for (`POST /imports`' query).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ImportParams {
    /// The format; found from the content when `None`.
    pub from: Option<Format>,
    /// Report without writing.
    pub dry_run: bool,
    /// The file's name (`name=`): a Todoist project's CSV names its
    /// project, a Markdown file its note.
    pub name: Option<String>,
}

impl ImportParams {
    /// `from`, `dry_run` and `name`: 400 on a malformed one.
    pub(crate) fn parse(query: &Query) -> Result<ImportParams> {
        let mut details = Details::new();
        let from = match query.get("from") {
            None | Some("") => None,
            Some(name) => {
                let f = Format::parse(name);
                if f.is_none() {
                    let names: Vec<&str> = Format::ALL.iter().map(|f| f.name()).collect();
                    details.add("from", format!("must be one of {}", names.join(", ")));
                }
                f
            }
        };
        let dry_run = match query.bool("dry_run") {
            Ok(b) => b.unwrap_or(false),
            Err(_) => {
                details.add("dry_run", "must be true or false");
                false
            }
        };
        let name = query
            .get("name")
            .map(crate::text::squish)
            .filter(|n| !n.is_empty());
        details.into_invalid_parameter()?;
        Ok(ImportParams {
            from,
            dry_run,
            name,
        })
    }

    /// The query's parameters, as [`ImportParams::parse`] reads them.
    pub(crate) fn query_pairs(&self) -> Vec<(&'static str, String)> {
        let mut pairs = Vec::new();
        if let Some(f) = self.from {
            pairs.push(("from", f.name().to_owned()));
        }
        if self.dry_run {
            pairs.push(("dry_run", "true".to_owned()));
        }
        if let Some(name) = &self.name {
            pairs.push(("name", name.clone()));
        }
        pairs
    }
}

/// What an import did, or would do (`dry_run`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImportReport {
    /// The format read (`from`).
    pub from: String,
    /// Records made, by kind (`task`, `task_list`, `person`, as in
    /// `/deletions`).
    pub created: BTreeMap<String, u64>,
    /// Records changed, by kind.
    pub updated: BTreeMap<String, u64>,
    /// Items left out, in file order.
    pub skipped: Vec<SkippedItem>,
    /// Whether nothing was written (`dry_run`).
    #[serde(default)]
    pub dry_run: bool,
}

/// An item an import left out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkippedItem {
    /// Where: a line number, an entry's id or a path.
    pub at: String,
    /// Why.
    pub reason: String,
}

impl ImportReport {
    fn count(map: &mut BTreeMap<String, u64>, kind: &str) {
        *map.entry(kind.to_owned()).or_default() += 1;
    }

    /// One more `kind` made.
    pub(crate) fn created(&mut self, kind: &str) {
        Self::count(&mut self.created, kind);
    }

    /// One more `kind` changed.
    pub(crate) fn updated(&mut self, kind: &str) {
        Self::count(&mut self.updated, kind);
    }

    /// An item left out.
    pub(crate) fn skip(&mut self, at: impl Into<String>, reason: impl Into<String>) {
        self.skipped.push(SkippedItem {
            at: at.into(),
            reason: reason.into(),
        });
    }
}

/// A folder (an Obsidian vault, Joplin's export) as one zip to import:
/// every file below it by its path with `/`, hidden folders
/// (`.obsidian`, `.trash`) left out; refused past [`MAX_IMPORT_BYTES`].
///
/// # Errors
///
/// [`Error::Validation`] on `base` for a folder that cannot be read or is
/// too large.
pub fn read_folder(dir: &std::path::Path) -> Result<Vec<u8>> {
    fn walk(
        root: &std::path::Path,
        dir: &std::path::Path,
        out: &mut Vec<zipped::Entry>,
        total: &mut u64,
    ) -> std::io::Result<()> {
        let mut entries: Vec<_> = std::fs::read_dir(dir)?.collect::<std::io::Result<_>>()?;
        entries.sort_by_key(|e| e.file_name());
        for e in entries {
            let name = e.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') {
                continue;
            }
            let path = e.path();
            let kind = e.file_type()?;
            if kind.is_dir() {
                walk(root, &path, out, total)?;
            } else if kind.is_file() {
                let bytes = std::fs::read(&path)?;
                *total += bytes.len() as u64;
                if *total > MAX_IMPORT_BYTES {
                    return Err(std::io::Error::other("the folder holds more than 200 MB"));
                }
                let rel = path.strip_prefix(root).unwrap_or(&path);
                let rel: Vec<String> = rel
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect();
                out.push((rel.join("/"), bytes));
            }
        }
        Ok(())
    }
    let mut files = Vec::new();
    walk(dir, dir, &mut files, &mut 0)
        .and_then(|()| zipped::write(&files))
        .map_err(|e| Error::invalid("base", format!("{}: {e}", dir.display())))
}

/// The records an import makes on the side, by kind, with their table:
/// tags (a note's `#tags`), companies (a person's positions).
const ON_THE_SIDE: [(&str, crate::store::Tbl); 2] = [
    ("tag", crate::resources::tags::tables::TAGS),
    ("company", crate::resources::people::tables::COMPANIES),
];

/// How many records of each kind made on the side the store holds.
fn made_on_the_side(cx: &crate::engine::WriteCx<'_>) -> Result<[u64; 2]> {
    use crate::store::Tables;
    let mut out = [0; 2];
    for (n, (_, table)) in out.iter_mut().zip(ON_THE_SIDE) {
        *n = cx.tx.len(table)?;
    }
    Ok(out)
}

/// Counts in `report` the records made on the side since `before`, where
/// the import's own counting did not (an archive counts its tags).
fn count_made_on_the_side(
    cx: &crate::engine::WriteCx<'_>,
    before: &[u64; 2],
    report: &mut ImportReport,
) -> Result<()> {
    let after = made_on_the_side(cx)?;
    for ((kind, _), (b, a)) in ON_THE_SIDE.iter().zip(before.iter().zip(after)) {
        if a > *b && !report.created.contains_key(*kind) {
            report.created.insert((*kind).to_owned(), a - b);
        }
    }
    Ok(())
}

/// A file that is not the format: 422 `validation_failed` on `base`.
impl From<Refused> for Error {
    fn from(r: Refused) -> Error {
        Error::invalid("base", r.0)
    }
}
