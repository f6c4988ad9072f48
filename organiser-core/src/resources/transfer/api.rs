//! The operations of export and import (EXTENSIONS.md §5, `GET /export`,
//! `POST /imports`), each declared once, and [`Transfer`], their typed
//! door.

use super::apply::{self, Prepared};
use super::{ExportFormat, ImportParams, ImportReport, MAX_IMPORT_BYTES, native, readers, writers};
use crate::engine::op::{ReadOp, WriteOp};
use crate::engine::operation::{
    Answer, Declared, Door, Operation, Prepare, RawRule, Run, query_part,
};
use crate::engine::request::Method::{Get, Post};
use crate::engine::request::{FileBytes, RawBody, Request, Response};
use crate::engine::{Inner, Organiser, WriteCx};
use crate::error::Result;

query_part!(ImportParams, ExportFormat);

/// `GET /export?format=organiser|vcard|ical|markdown`.
pub(crate) static EXPORT: Operation<ExportFormat, FileBytes> = Operation::new(
    "getExport",
    Get,
    "/export",
    "Export\n\n`format` `organiser` (the default: a zip of `manifest.json`, `records/<kind>.jsonl`, `deletions.jsonl`, `owner.json` and `files/`, which an import into an empty store makes again exactly), `vcard` (people, one vCard 4.0 file), `ical` (tasks as to-dos and key dates as yearly events, one iCalendar file) or `markdown` (notes, a zip of Markdown files with front matter and their images). No secrets: no tokens, password, sessions, AI keys or feed credentials. An attachment named `organiser-export-<date>.zip`, `organiser-people-<date>.vcf`, `organiser-calendar-<date>.ics` or `organiser-notes-<date>.zip`.",
    Run::Read(ReadOp::SETTLED, |cx, format: ExportFormat| {
        writers::export(cx, format)
    }),
    Answer::raw(file_answer, read_file_answer),
);

/// `POST /imports?from=FORMAT&dry_run=true&name=FILE`: the file is the
/// raw body.
pub(crate) static IMPORT: Operation<(ImportParams, RawBody), ImportReport, (bool, Job)> =
    Operation::new(
        "createImport",
        Post,
        "/imports",
        "Import\n\nThe file is the raw body (any `Content-Type`, up to 200 MB). `from`: `organiser`, `todoist`, `taskwarrior`, `vcard`, `ical` or `markdown`; without it the format is found from the content. The whole file is read before one transaction writes it all or nothing: 201 with a report of what was created and updated, by kind, and every item skipped with where and why. A file that is not the format is 422 on `base` and writes nothing. Importing the same file again changes nothing (each item keeps its identity in its source in an import map). `dry_run=true` answers 200 with the same report and writes nothing. `name` is the file's name (a Todoist CSV names its project by it).",
        Run::Write(
            WriteOp::LICENSED,
            Prepare::with(|inner, (params, raw)| prepare(inner, params, raw)),
            run,
        ),
        Answer::data(201).status_by(200, |report| if report.dry_run { 200 } else { 201 }),
    )
    .raw_body(|_| {
        Ok(RawRule {
            content_types: &[],
            max_bytes: MAX_IMPORT_BYTES,
        })
    });

/// An import read whole, before its transaction.
pub(crate) enum Job {
    /// The organiser's own archive.
    Archive(native::Archive),
    /// A foreign file's drafts, their files staged.
    Foreign(Prepared),
}

fn prepare(inner: &Inner, params: ImportParams, raw: RawBody) -> Result<(bool, Job)> {
    let name = params.name.clone().unwrap_or_default();
    let format = match params.from {
        Some(f) => f,
        None => super::Format::detect(&raw.bytes, &name).ok_or_else(|| {
            crate::error::Error::invalid(
                "base",
                "the file is none of the formats an import reads (organiser, todoist, taskwarrior, vcard, ical, markdown); name one with `from`",
            )
        })?,
    };
    let job = if format == super::Format::Organiser {
        let mut archive = native::read(&raw.bytes)?;
        archive.in_use = inner.read(native::in_use)?;
        Job::Archive(archive)
    } else {
        let zone = inner.zone();
        let parsed = readers::read(format, &raw.bytes, &name, zone.time_zone())?;
        Job::Foreign(apply::prepare(inner, format, parsed))
    };
    Ok((params.dry_run, job))
}

fn run(cx: &mut WriteCx<'_>, (dry_run, job): (bool, Job)) -> Result<ImportReport> {
    let before = super::made_on_the_side(cx)?;
    let mut report = match job {
        Job::Archive(archive) => native::apply(cx, archive)?,
        Job::Foreign(prepared) => apply::apply(cx, prepared)?,
    };
    super::count_made_on_the_side(cx, &before, &mut report)?;
    if dry_run {
        report.dry_run = true;
        cx.discard();
    }
    Ok(report)
}

fn file_answer(file: FileBytes, _req: &Request) -> Response {
    Response::attachment(file)
}

fn read_file_answer(response: &Response) -> Result<FileBytes> {
    Ok(FileBytes::of_answer(response))
}

/// The operations of export and import, for the registry.
pub(crate) static OPERATIONS: &[&dyn Declared] = &[&EXPORT, &IMPORT];

/// Export and import of a store (EXTENSIONS.md §5), through a [`Door`]:
/// the store itself (`org.transfer()`), or a server that holds it.
#[derive(Debug, Clone, Copy)]
pub struct Transfer<'d, D = Organiser> {
    door: &'d D,
}

impl<'d, D: Door> Transfer<'d, D> {
    /// Export and import through `door`.
    pub fn new(door: &'d D) -> Self {
        Transfer { door }
    }

    /// The store exported as `format`: the file's bytes, type and name.
    ///
    /// # Errors
    ///
    /// Only the store's.
    pub fn export(&self, format: ExportFormat) -> Result<FileBytes> {
        self.door.call(&EXPORT, format)
    }

    /// Imports `bytes` as `params` asks: what was (or, for a dry run,
    /// would be) created, updated and skipped.
    ///
    /// # Errors
    ///
    /// [`Error::Validation`](crate::Error::Validation) on `base` for a
    /// file that is not the format; nothing is written.
    pub fn import(&self, params: ImportParams, bytes: Vec<u8>) -> Result<ImportReport> {
        let raw = RawBody {
            content_type: "application/octet-stream".to_owned(),
            bytes,
        };
        self.door.call(&IMPORT, (params, raw))
    }
}

impl Organiser {
    /// Export and import of the store.
    pub fn transfer(&self) -> Transfer<'_> {
        Transfer::new(self)
    }
}

/// Whether the zip `bytes` is the organiser's own export (its first entry
/// is `manifest.json`).
pub(crate) fn is_archive(bytes: &[u8]) -> bool {
    // A local file header: the name's length at 26, the name at 30.
    let len = bytes
        .get(26..28)
        .map(|b| usize::from(u16::from_le_bytes([b[0], b[1]])));
    len.and_then(|n| bytes.get(30..30 + n)) == Some(b"manifest.json")
}
