//! What each kind of record declares so that the organiser's archive can
//! hold it (EXTENSIONS.md §5, "Export", and the `organiser` format of
//! "Import"): how one record is written as a line of
//! `records/<kind>.jsonl`, and how a line is written back into a store,
//! exactly. Each resource declares its own [`Portable`] in its folder
//! (`portable.rs`); the registry lists them in `resources::PORTABLE`'s order, in
//! which an import writes them (a record's references first).
//!
//! A line is the record as the API shows it (its typed `get`), plus the
//! fields only the store keeps (a task's series cursor, a list's
//! position where the API has none), with every upload address written as
//! a path inside the archive (`files/<upload id>`, [`Paths`]): signed
//! addresses depend on the store's secret, paths do not, so an archive
//! imported into another store and exported again gives the same lines.
//! Fields the API derives from other records (a person's connections, a
//! note's tag IDs) are written as shown and not read back: they come back
//! with the records they are derived from.
//!
//! Importing a line:
//! - no record of its ID in the store: the record is written exactly as
//!   the line says (ID, timestamps, positions, everything) with every
//!   index a create would write, and without touching any other record
//!   ([`Imported::Created`]);
//! - a live record of its ID whose `updated_at` is older than the line's:
//!   replaced by the line, indexes moved ([`Imported::Updated`]);
//! - otherwise (the same or newer here, or deleted here): nothing
//!   ([`Imported::Unchanged`]).
//!
//! A line that does not read as the kind (a field missing or of the wrong
//! type) is [`Error::Validation`] on `base` naming the kind and ID, and
//! the whole import writes nothing.

use serde_json::Value;

use crate::engine::{ReadCx, WriteCx};
use crate::error::{Error, Result};
use crate::ids::Id;
use crate::secrets::SecretKey;
use crate::signed_ids;
use crate::store::{Tables, Tbl};

/// One kind of record the archive holds.
pub(crate) struct Portable {
    /// The `/deletions` type (`task`), naming `records/<kind>.jsonl`.
    pub(crate) kind: &'static str,
    /// The table its records are stored in, keyed by their 16-byte ID
    /// (live and deleted alike).
    pub(crate) table: Tbl,
    /// The line of record `id`: as the API shows it plus its stored-only
    /// fields, addresses as paths; `None` when it is not live (deleted,
    /// still restorable).
    pub(crate) export: fn(&ReadCx<'_>, &Paths<'_>, Id) -> Result<Option<Value>>,
    /// Writes `line` into the store as the module's docs say.
    pub(crate) import: fn(&mut WriteCx<'_>, &Paths<'_>, Value) -> Result<Imported>,
}

/// What importing one line did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Imported {
    /// The store had no record of its ID: written.
    Created,
    /// The line was newer: the record was replaced.
    Updated,
    /// Nothing changed.
    Unchanged,
}

/// Upload addresses inside records, as the store signs them and as the
/// archive writes them (`files/<upload id>`).
#[derive(Clone, Copy)]
pub(crate) struct Paths<'a> {
    key: &'a SecretKey,
    /// The archive's files by their path (`files/<id>`), while one is
    /// imported.
    files: Option<&'a std::collections::HashMap<String, Vec<u8>>>,
    /// How records written by an import are dated ([`Stamp`]).
    stamp: Stamp,
}

/// How an import dates the records it writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stamp {
    /// As the line says (the resources' own tests).
    AsWritten,
    /// As the line says, but never later than this moment (into an empty
    /// store: the round trip is exact, and a source whose clock ran ahead
    /// does not date records in this store's future).
    Exact(jiff::Timestamp),
    /// This moment, the import's (into a store in use: every record made
    /// or replaced is dated now, so that a client mirroring the store with
    /// `updated_since` sees it).
    Now(jiff::Timestamp),
}

impl Stamp {
    /// The date a record or deletion record the import writes takes, `at`
    /// being the archive's, as the variant says.
    pub(crate) fn date(self, at: jiff::Timestamp) -> jiff::Timestamp {
        match self {
            Stamp::AsWritten => at,
            Stamp::Exact(now) => at.min(now),
            Stamp::Now(now) => now,
        }
    }
}

/// The archive's folder of upload files.
pub(crate) const FILES: &str = "files/";

impl<'a> Paths<'a> {
    /// Addresses signed with `key` (the store's secret).
    pub(crate) fn new(key: &'a SecretKey) -> Self {
        Paths {
            key,
            files: None,
            stamp: Stamp::AsWritten,
        }
    }

    /// The same, with the files of an archive being imported.
    pub(crate) fn with_files(
        key: &'a SecretKey,
        files: &'a std::collections::HashMap<String, Vec<u8>>,
        stamp: Stamp,
    ) -> Self {
        Paths {
            key,
            files: Some(files),
            stamp,
        }
    }

    /// The date a record the import writes on the side (not a line of its
    /// own, such as a company a person's positions name) takes, `at` being
    /// the archive's ([`Stamp::date`]).
    pub(crate) fn date(&self, at: jiff::Timestamp) -> jiff::Timestamp {
        self.stamp.date(at)
    }

    /// The bytes of the archive's file at `path` (`files/<id>`), while an
    /// archive is imported.
    pub(crate) fn file(&self, path: &str) -> Option<&'a [u8]> {
        self.files?.get(path).map(Vec::as_slice)
    }

    /// Every signed upload ID inside `text` (an address such as
    /// `/api/v1/avatars/<signed>/thumb`, a body's `data-upload="<signed>"`)
    /// written as its path.
    pub(crate) fn out_all(&self, text: &str) -> String {
        self.rewrite(text, |signed| {
            signed_ids::verify(self.key, signed).map(|id| format!("{FILES}{id}"))
        })
    }

    /// The upload a path names (`files/<id>`).
    pub(crate) fn upload(&self, path: &str) -> Option<Id> {
        path.strip_prefix(FILES)?.parse().ok()
    }

    /// Every path (`files/<id>`) inside `text` written back as the signed
    /// ID this store gives its upload.
    pub(crate) fn back_all(&self, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(at) = rest.find(FILES) {
            out.push_str(&rest[..at]);
            let after = &rest[at + FILES.len()..];
            let len = after
                .find(|c: char| !c.is_ascii_alphanumeric())
                .unwrap_or(after.len());
            match after[..len].parse::<Id>() {
                Ok(id) => out.push_str(&signed_ids::sign(self.key, id)),
                Err(_) => {
                    out.push_str(FILES);
                    out.push_str(&after[..len]);
                }
            }
            rest = &after[len..];
        }
        out.push_str(rest);
        out
    }

    /// `text` with each token that `f` maps replaced: the tokens are the
    /// runs of characters a signed ID is written with.
    fn rewrite(&self, text: &str, f: impl Fn(&str) -> Option<String>) -> String {
        let signed_char = |c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '_');
        let mut out = String::with_capacity(text.len());
        let mut start = None;
        for (i, c) in text.char_indices() {
            match (signed_char(c), start) {
                (true, None) => start = Some(i),
                (false, Some(s)) => {
                    let token = &text[s..i];
                    out.push_str(&f(token).unwrap_or_else(|| token.to_owned()));
                    out.push(c);
                    start = None;
                }
                (false, None) => out.push(c),
                (true, Some(_)) => {}
            }
        }
        if let Some(s) = start {
            let token = &text[s..];
            out.push_str(&f(token).unwrap_or_else(|| token.to_owned()));
        }
        out
    }
}

/// Imports `line` as `p` says, unless a deletion record says its record
/// was deleted here (purged or not): that record is not brought back.
/// Every import of a line goes through here, so no kind checks it again.
pub(crate) fn import(
    p: &Portable,
    cx: &mut WriteCx<'_>,
    paths: &Paths<'_>,
    line: Value,
) -> Result<Imported> {
    let id = line
        .get("id")
        .and_then(Value::as_str)
        .and_then(|s| s.parse::<Id>().ok());
    if let Some(id) = id
        && crate::resources::deletions::recorded(cx, p.kind, id)?.is_some()
    {
        return Ok(Imported::Unchanged);
    }
    (p.import)(cx, paths, line)
}

/// `line` read as `T`, or 422 on `base` naming the kind and the line's ID.
pub(crate) fn read_line<T: serde::de::DeserializeOwned>(kind: &str, line: Value) -> Result<T> {
    let id = line
        .get("id")
        .and_then(Value::as_str)
        .unwrap_or("?")
        .to_owned();
    serde_json::from_value(line).map_err(|e| {
        Error::invalid(
            "base",
            format!("records/{kind}.jsonl: the {kind} {id} cannot be read: {e}"),
        )
    })
}

/// The record `found` as a line; `None` when it is not live (404).
pub(crate) fn line_of<T: serde::Serialize>(found: Result<T>) -> Result<Option<Value>> {
    match found {
        Ok(value) => to_line(value).map(Some),
        Err(Error::NotFound) => Ok(None),
        Err(e) => Err(e),
    }
}

/// `value` as a line (a JSON object).
pub(crate) fn to_line(value: impl serde::Serialize) -> Result<Value> {
    serde_json::to_value(value).map_err(|e| Error::Internal(format!("writing a record: {e}")))
}

/// What to do with a line whose record may already be here: `stored` is
/// the live record of its ID's `updated_at`, `None` when there is none at
/// all; `deleted` when the store holds it deleted. `updated_at` is the
/// line's; a record to be written is dated as `paths` says ([`Stamp`]).
pub(crate) fn decide(
    paths: &Paths<'_>,
    stored: Option<jiff::Timestamp>,
    deleted: bool,
    updated_at: &mut jiff::Timestamp,
) -> Imported {
    // A line is compared as it would be written back: a source whose clock
    // ran ahead does not replace the record it made here on each import.
    let line = match paths.stamp {
        Stamp::AsWritten => *updated_at,
        Stamp::Exact(now) | Stamp::Now(now) => (*updated_at).min(now),
    };
    let did = match stored {
        _ if deleted => Imported::Unchanged,
        None => Imported::Created,
        Some(here) if line > here => Imported::Updated,
        Some(_) => Imported::Unchanged,
    };
    if did != Imported::Unchanged {
        *updated_at = paths.stamp.date(*updated_at);
    }
    did
}

/// The IDs stored in `table` (keyed by 16-byte IDs), in order.
pub(crate) fn ids(cx: &ReadCx<'_>, table: Tbl) -> Result<Vec<Id>> {
    let mut ids = Vec::new();
    cx.tx.scan(
        table,
        std::ops::Bound::Unbounded,
        std::ops::Bound::Unbounded,
        crate::store::Dir::Asc,
        &mut |k, _| {
            if let Ok(bytes) = <[u8; 16]>::try_from(k) {
                ids.push(Id::from_bytes(bytes));
            }
            Ok(true)
        },
    )?;
    Ok(ids)
}

/// Every line of `p` in the store `cx` reads, in ID order.
pub(crate) fn lines(cx: &ReadCx<'_>, p: &Portable) -> Result<Vec<Value>> {
    let paths = Paths::new(&cx.org.secret);
    let mut out = Vec::new();
    for id in ids(cx, p.table)? {
        if let Some(line) = (p.export)(cx, &paths, id)? {
            out.push(line);
        }
    }
    Ok(out)
}

/// What [`round_trip`] gives: the lines exported first, the lines
/// exported again, and what each import did, by kind.
#[cfg(test)]
pub(crate) type RoundTrip = (Vec<Vec<Value>>, Vec<Vec<Value>>, Vec<Vec<Imported>>);

/// For the resources' tests: the lines of each of `kinds` exported from
/// `from`, imported (in that order) into `to`, and exported again from
/// `to`: `(first, again, what each import did)`. An exact round trip has
/// `first == again`.
#[cfg(test)]
pub(crate) fn round_trip(
    from: &crate::Organiser,
    to: &crate::Organiser,
    kinds: &[&Portable],
) -> RoundTrip {
    let first: Vec<Vec<Value>> = from
        .inner
        .read(|cx| kinds.iter().map(|p| lines(cx, p)).collect())
        .expect("export");
    let did = to
        .inner
        .write(|cx| {
            let mut did = Vec::new();
            for (p, lines) in kinds.iter().zip(&first) {
                let mut each = Vec::new();
                for line in lines {
                    let paths = Paths::new(&cx.org.secret);
                    each.push(import(p, cx, &paths, line.clone())?);
                }
                did.push(each);
            }
            Ok(did)
        })
        .expect("import");
    let again: Vec<Vec<Value>> = to
        .inner
        .read(|cx| kinds.iter().map(|p| lines(cx, p)).collect())
        .expect("export again");
    (first, again, did)
}
