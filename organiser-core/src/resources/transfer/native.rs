//! The organiser's own archive (EXTENSIONS.md §5, "Export"): a zip of
//! `manifest.json`, `records/<kind>.jsonl` (every live record as the API
//! shows it, in ID order, one JSON object a line, named by the
//! `/deletions` type; addresses as paths), `deletions.jsonl`, `owner.json`
//! (name, username, zone, appearance: no tokens, password or sessions)
//! and `files/` (the uploads' files). No secrets: AI providers are written
//! without their keys, calendar feeds without their addresses'
//! credentials.

use std::collections::{BTreeMap, HashMap};
use std::io::{Cursor, Write};
use std::ops::Bound;

use serde_json::Value;

use super::ImportReport;
use super::from::Refused;
use super::zipped;
use super::zipped::Writer;
use crate::engine::{ReadCx, WriteCx};
use crate::error::{Error, Result};
use crate::ids::Id;
use crate::portable::{self, Imported, Paths, Portable, Stamp};
use crate::resources::{account, uploads};
use crate::store::schema::DELETIONS;
use crate::store::{Dir, Tables};

/// The archive's format, in its manifest.
pub(crate) const ARCHIVE_FORMAT: &str = "organiser-export";
/// The version of the archive's layout.
pub(crate) const ARCHIVE_VERSION: u32 = 1;

/// The archive of the store `cx` reads.
pub(crate) fn export(cx: &ReadCx<'_>) -> Result<Vec<u8>> {
    let io = |e: std::io::Error| Error::Internal(format!("writing the export: {e}"));
    let mut zip = Writer::new(Cursor::new(Vec::new()));
    let mut counts = BTreeMap::new();
    let mut records = Vec::new();
    for p in crate::resources::PORTABLE {
        let mut lines = Vec::new();
        let all = portable::lines(cx, p)?;
        for value in &all {
            serde_json::to_writer(&mut lines, value)
                .map_err(|e| Error::Internal(format!("writing a {}: {e}", p.kind)))?;
            lines.push(b'\n');
        }
        counts.insert(p.kind, all.len() as u64);
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
    let owner = serde_json::json!({
        "name": owner.name,
        "username": owner.username,
        "time_zone": owner.time_zone,
        "appearance": {
            "accent": owner.appearance.accent,
            "theme": owner.appearance.theme,
            "code_theme": owner.appearance.code_theme,
        },
    });
    zip.add("owner.json", &pretty(&owner)?).map_err(io)?;
    for line in portable::lines(cx, &uploads::portable::PORTABLE)? {
        let Some(id) = line
            .get("id")
            .and_then(Value::as_str)
            .and_then(|s| s.parse::<Id>().ok())
        else {
            continue;
        };
        for (name, bytes) in uploads::portable::files_of(cx, id)? {
            zip.start(&name).map_err(io)?;
            zip.write_all(&bytes).map_err(io)?;
        }
    }
    Ok(zip.finish().map_err(io)?.into_inner())
}

/// Every deletion record, oldest first, one JSON object a line.
fn deletions(cx: &ReadCx<'_>) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    for d in crate::resources::deletions::all(cx)? {
        serde_json::to_writer(&mut out, &d)
            .map_err(|e| Error::Internal(format!("writing the deletions: {e}")))?;
        out.push(b'\n');
    }
    Ok(out)
}

/// An archive read whole, before the import's transaction opens.
pub(crate) struct Archive {
    /// Each kind's lines, in the registry's order.
    records: Vec<(&'static Portable, Vec<Value>)>,
    /// The deletion records: type, ID and when.
    deletions: Vec<(String, Id, jiff::Timestamp)>,
    /// The owner's profile.
    owner: Option<OwnerLine>,
    /// The files, by path (`files/<id>`).
    files: HashMap<String, Vec<u8>>,
    /// Whether the store it goes into is in use ([`in_use`], read before
    /// the transaction).
    pub(crate) in_use: bool,
}

/// `owner.json`.
#[derive(Debug, serde::Deserialize)]
struct OwnerLine {
    name: String,
    username: String,
    time_zone: String,
    #[serde(default)]
    appearance: Option<AppearanceLine>,
}

/// `owner.json`'s `appearance`.
#[derive(Debug, serde::Deserialize)]
struct AppearanceLine {
    accent: String,
    theme: String,
    code_theme: String,
}

/// Reads the archive `bytes` whole: refused when it is not the
/// organiser's archive, names a newer layout, or holds a line that is not
/// JSON (with the entry and line).
pub(crate) fn read(bytes: &[u8]) -> std::result::Result<Archive, Refused> {
    let entries = zipped::entries(bytes, zipped::budget(bytes.len()))?;
    let mut by_name: HashMap<String, Vec<u8>> = entries.into_iter().collect();
    let manifest: Value = by_name
        .get("manifest.json")
        .and_then(|m| serde_json::from_slice(m).ok())
        .ok_or_else(|| {
            Refused::new("manifest.json: missing or not JSON: not an organiser export")
        })?;
    if manifest.get("format").and_then(Value::as_str) != Some(ARCHIVE_FORMAT) {
        return Err(Refused::new(format!(
            "manifest.json: `format` is not `{ARCHIVE_FORMAT}`: not an organiser export"
        )));
    }
    let version = manifest.get("version").and_then(Value::as_u64).unwrap_or(0);
    if version != u64::from(ARCHIVE_VERSION) {
        return Err(Refused::new(format!(
            "manifest.json: version {version}; this build reads version {ARCHIVE_VERSION}"
        )));
    }
    let lines = |name: &str, bytes: &[u8]| -> std::result::Result<Vec<Value>, Refused> {
        let text = std::str::from_utf8(bytes)
            .map_err(|e| Refused::new(format!("{name}: not UTF-8 ({e})")))?;
        text.lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
            .map(|(n, l)| {
                serde_json::from_str(l)
                    .map_err(|e| Refused::new(format!("{name}, line {}: {e}", n + 1)))
            })
            .collect()
    };
    let mut records = Vec::new();
    for p in crate::resources::PORTABLE {
        let name = format!("records/{}.jsonl", p.kind);
        let found = match by_name.remove(&name) {
            Some(bytes) => lines(&name, &bytes)?,
            None => Vec::new(),
        };
        records.push((*p, found));
    }
    let mut deletions = Vec::new();
    if let Some(bytes) = by_name.remove("deletions.jsonl") {
        for (n, line) in lines("deletions.jsonl", &bytes)?.into_iter().enumerate() {
            let d: crate::resources::Deletion = serde_json::from_value(line)
                .map_err(|e| Refused::new(format!("deletions.jsonl, line {}: {e}", n + 1)))?;
            deletions.push((d.kind, d.id, d.deleted_at));
        }
    }
    let owner = match by_name.remove("owner.json") {
        Some(bytes) => Some(
            serde_json::from_slice(&bytes).map_err(|e| Refused::new(format!("owner.json: {e}")))?,
        ),
        None => None,
    };
    let files = by_name
        .into_iter()
        .filter(|(name, _)| name.starts_with(portable::FILES))
        .collect();
    Ok(Archive {
        records,
        deletions,
        owner,
        files,
        in_use: true,
    })
}

/// Whether the store holds a live record of any kind the archive holds,
/// or a deletion record: a store in use (reading stops at the first).
pub(crate) fn in_use(cx: &ReadCx<'_>) -> Result<bool> {
    let mut found = false;
    cx.tx.scan(
        DELETIONS,
        Bound::Unbounded,
        Bound::Unbounded,
        Dir::Asc,
        &mut |_, _| {
            found = true;
            Ok(false)
        },
    )?;
    if found {
        return Ok(true);
    }
    let paths = Paths::new(&cx.org.secret);
    for p in crate::resources::PORTABLE {
        let mut live = false;
        let mut failed = None;
        cx.tx.scan(
            p.table,
            Bound::Unbounded,
            Bound::Unbounded,
            Dir::Asc,
            &mut |k, _| {
                let Ok(bytes) = <[u8; 16]>::try_from(k) else {
                    return Ok(true);
                };
                match (p.export)(cx, &paths, Id::from_bytes(bytes)) {
                    Ok(Some(_)) => {
                        live = true;
                        Ok(false)
                    }
                    Ok(None) => Ok(true),
                    Err(e) => {
                        failed = Some(e);
                        Ok(false)
                    }
                }
            },
        )?;
        if let Some(e) = failed {
            return Err(e);
        }
        if live {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Writes `archive` in the caller's transaction (EXTENSIONS.md §5, the
/// `organiser` format): each record new here made exactly, each newer
/// than here replacing it, the rest left; the deletion records the store
/// lacks; the owner's profile replaced. The report counts by kind.
pub(crate) fn apply(cx: &mut WriteCx<'_>, archive: Archive) -> Result<ImportReport> {
    let mut report = ImportReport {
        from: "organiser".to_owned(),
        ..ImportReport::default()
    };
    let key = cx.org.secret.clone();
    // Into an empty store the archive is made again exactly; into one in
    // use, what it makes or replaces is dated now, so that every client
    // mirroring the store with `updated_since` sees it.
    let stamp = if archive.in_use {
        Stamp::Now(cx.now())
    } else {
        Stamp::Exact(cx.now())
    };
    let paths = Paths::with_files(&key, &archive.files, stamp);
    for (p, lines) in archive.records {
        for line in lines {
            match portable::import(p, cx, &paths, line)? {
                Imported::Created => report.created(p.kind),
                Imported::Updated => report.updated(p.kind),
                Imported::Unchanged => {}
            }
        }
    }
    for (kind, id, at) in archive.deletions {
        // A record this store holds (live, or deleted with its own record)
        // keeps its own state: a deletion elsewhere of the same ID is not
        // this store's. One written is dated as the records are: a date in
        // this store's future (the source's clock ahead) would carry a
        // mirroring client's `since` past the deletes this store makes
        // next, and the client would never read them.
        let held = match crate::resources::PORTABLE.iter().find(|p| p.kind == kind) {
            Some(p) => cx.tx.get(p.table, &id.to_bytes())?.is_some(),
            None => false,
        };
        if !held && crate::resources::deletions::recorded(cx, &kind, id)?.is_none() {
            crate::resources::deletions::record_at(cx, &kind, id, stamp.date(at))?;
        }
    }
    if let Some(line) = archive.owner {
        let mut owner = account::owner::load(cx)?;
        let before = (
            owner.name.clone(),
            owner.username.clone(),
            owner.time_zone.clone(),
            owner.appearance.clone(),
        );
        // A profile this build would refuse is left as it is here.
        let mut details = crate::error::Details::new();
        let name = account::owner::check_name(&mut details, &line.name);
        if details.is_empty() {
            owner.name = name;
        }
        let mut details = crate::error::Details::new();
        let username = account::owner::check_username(&mut details, &line.username);
        if details.is_empty() {
            owner.username = username;
        }
        if crate::time::Zone::find(&line.time_zone).is_some() {
            owner.time_zone = line.time_zone;
        }
        if let Some(a) = line.appearance {
            owner.appearance.accent = a.accent;
            owner.appearance.theme = a.theme;
            owner.appearance.code_theme = a.code_theme;
        }
        let after = (
            owner.name.clone(),
            owner.username.clone(),
            owner.time_zone.clone(),
            owner.appearance.clone(),
        );
        if after != before {
            owner.initialised = true;
            account::owner::save(cx, &mut owner)?;
            report.updated("owner");
        }
    }
    Ok(report)
}
