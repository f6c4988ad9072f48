//! The organiser's own archive (EXTENSIONS.md §5, "Export"): a zip of
//! `manifest.json`, `records/<kind>.jsonl` (every live record as the API
//! shows it, in ID order, one JSON object a line, named by the
//! `/deletions` type; addresses as paths), `deletions.jsonl`, `owner.json`
//! (name, username, zone, appearance: no tokens, password or sessions)
//! and `files/` (the uploads' files). No secrets: AI providers are written
//! without their keys, calendar feeds without their addresses'
//! credentials.

use std::collections::BTreeMap;
use std::io::{Cursor, Write};
use std::ops::Bound;

use serde::Serialize;
use serde_json::Value;

use super::zipped::Writer;
use crate::engine::ReadCx;
use crate::error::{Error, Result};
use crate::ids::Id;
use crate::resources::{
    account, ai, calendar_feeds, categories, documents, folders, notes, people, person_links,
    projects, tags, task_lists, tasks, uploads,
};
use crate::store::schema::DELETIONS;
use crate::store::{Dir, Tables, Tbl};

/// The archive's format, in its manifest.
pub(crate) const ARCHIVE_FORMAT: &str = "organiser-export";
/// The version of the archive's layout.
pub(crate) const ARCHIVE_VERSION: u32 = 1;

/// One kind of record the archive holds: its `/deletions` type, the table
/// its records are stored in by ID, and the record as the API shows it
/// (`NotFound` for one deleted but restorable).
struct Portable {
    kind: &'static str,
    table: Tbl,
    view: fn(&ReadCx<'_>, Id) -> Result<Value>,
}

fn json(value: impl Serialize) -> Result<Value> {
    serde_json::to_value(value).map_err(|e| Error::Internal(format!("writing a record: {e}")))
}

/// Every kind the archive holds, in the order an import makes them (the
/// records a record names come first).
static PORTABLE: &[Portable] = &[
    Portable {
        kind: "task_list",
        table: task_lists::tables::TASK_LISTS,
        view: |cx, id| json(task_lists::get(cx, id)?),
    },
    Portable {
        kind: "person",
        table: people::tables::PEOPLE,
        view: |cx, id| json(people::get(cx, id)?),
    },
    Portable {
        kind: "person_link",
        table: person_links::tables::PERSON_LINKS,
        view: |cx, id| json(person_links::get(cx, id)?),
    },
    Portable {
        kind: "project",
        table: projects::tables::PROJECTS,
        view: |cx, id| json(projects::get(cx, id)?),
    },
    Portable {
        kind: "project_member",
        table: projects::tables::MEMBERS,
        view: |cx, id| json(projects::members::get(cx, id)?),
    },
    Portable {
        kind: "task",
        table: tasks::tables::TASKS,
        view: |cx, id| json(tasks::get(cx, id)?),
    },
    Portable {
        kind: "tag",
        table: tags::tables::TAGS,
        view: |cx, id| json(tags::get(cx, id)?),
    },
    Portable {
        kind: "category",
        table: categories::tables::CATEGORIES,
        view: |cx, id| json(categories::get(cx, id)?),
    },
    Portable {
        kind: "note",
        table: notes::tables::NOTES,
        view: |cx, id| json(notes::get(cx, id)?),
    },
    Portable {
        kind: "folder",
        table: folders::tables::FOLDERS,
        view: |cx, id| json(folders::get(cx, id)?),
    },
    Portable {
        kind: "document",
        table: documents::tables::DOCUMENTS,
        view: |cx, id| json(documents::get(cx, id)?),
    },
    Portable {
        kind: "calendar_feed",
        table: calendar_feeds::tables::FEEDS,
        view: |cx, id| json(calendar_feeds::get(cx, id)?),
    },
    Portable {
        kind: "ai_provider",
        table: ai::tables::PROVIDERS,
        view: |cx, id| json(ai::get_provider(cx, id)?),
    },
    Portable {
        kind: "ai_model",
        table: ai::tables::MODELS,
        view: |cx, id| json(ai::get_model(cx, id)?),
    },
];

/// The IDs stored in `table`, in order.
fn ids(cx: &ReadCx<'_>, table: Tbl) -> Result<Vec<Id>> {
    let mut ids = Vec::new();
    cx.tx.scan(
        table,
        Bound::Unbounded,
        Bound::Unbounded,
        Dir::Asc,
        &mut |k, _| {
            if let Ok(bytes) = <[u8; 16]>::try_from(k) {
                ids.push(Id::from_bytes(bytes));
            }
            Ok(true)
        },
    )?;
    Ok(ids)
}

/// The archive of the store `cx` reads.
pub(crate) fn export(cx: &ReadCx<'_>) -> Result<Vec<u8>> {
    let io = |e: std::io::Error| Error::Internal(format!("writing the export: {e}"));
    let mut zip = Writer::new(Cursor::new(Vec::new()));
    let mut counts = BTreeMap::new();
    let mut records = Vec::new();
    for p in PORTABLE {
        let mut lines = Vec::new();
        let mut n = 0u64;
        for id in ids(cx, p.table)? {
            let value = match (p.view)(cx, id) {
                Ok(v) => v,
                Err(Error::NotFound) => continue,
                Err(e) => return Err(e),
            };
            serde_json::to_writer(&mut lines, &value)
                .map_err(|e| Error::Internal(format!("writing a {}: {e}", p.kind)))?;
            lines.push(b'\n');
            n += 1;
        }
        counts.insert(p.kind, n);
        records.push((format!("records/{}.jsonl", p.kind), lines));
    }
    let owner = account::owner::load(cx)?;
    let manifest = serde_json::json!({
        "format": ARCHIVE_FORMAT,
        "version": ARCHIVE_VERSION,
        "schema": cx.org.wiring.schema_version(),
        "exported_at": cx.now(),
        "counts": counts,
    });
    let pretty = |v: &Value| {
        serde_json::to_vec_pretty(v)
            .map_err(|e| Error::Internal(format!("writing the export: {e}")))
    };
    zip.add("manifest.json", &pretty(&manifest)?).map_err(io)?;
    for (name, lines) in &records {
        zip.add(name, lines).map_err(io)?;
    }
    zip.add("deletions.jsonl", &deletions(cx)?).map_err(io)?;
    let appearance = account::appearance::get(cx)?;
    let owner = serde_json::json!({
        "name": owner.name,
        "username": owner.username,
        "time_zone": owner.time_zone,
        "appearance": appearance,
    });
    zip.add("owner.json", &pretty(&owner)?).map_err(io)?;
    for id in ids(cx, uploads::tables::UPLOADS)? {
        let name = uploads::file_name(id);
        match cx.org.files.read(&name) {
            Ok(bytes) => {
                zip.start(&format!("files/{id}")).map_err(io)?;
                zip.write_all(&bytes).map_err(io)?;
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(io(e)),
        }
    }
    Ok(zip.finish().map_err(io)?.into_inner())
}

/// Every deletion record, oldest first, one JSON object a line.
fn deletions(cx: &ReadCx<'_>) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    let mut failed = None;
    cx.tx.scan(
        DELETIONS,
        Bound::Unbounded,
        Bound::Unbounded,
        Dir::Asc,
        &mut |k, _| {
            let mut r = crate::store::key::Reader::new(k);
            let ms = r.i64();
            let id = r.id();
            let kind = r.str();
            let at = jiff::Timestamp::from_millisecond(ms).unwrap_or_default();
            let line = serde_json::json!({"type": kind, "id": id, "deleted_at": at});
            if let Err(e) = serde_json::to_writer(&mut out, &line) {
                failed = Some(e);
                return Ok(false);
            }
            out.push(b'\n');
            Ok(true)
        },
    )?;
    match failed {
        Some(e) => Err(Error::Internal(format!("writing the deletions: {e}"))),
        None => Ok(out),
    }
}
