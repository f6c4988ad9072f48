//! Uploads (document 1, "Vocabulary" `uploads`; DESIGN.md "Uploads"):
//! `POST /uploads?kind=avatar|note_image|document&filename=NAME` with the
//! file's bytes as the body. The type is read from the bytes; images are
//! decoded in full (an avatar's thumbnails made too) before the write
//! transaction opens, and the file is written beside the store
//! (`files/uploads/<id>`, through a temporary name). The answer's
//! `signed_id` is the upload's ID signed with the store's key: people and
//! notes [`take`] it, once, for a record of theirs. An upload nothing takes
//! is removed, file and all, 24 hours after it was made.

mod api;
pub(crate) mod image;
pub(crate) mod portable;
pub(crate) mod record;
pub(crate) mod tables;

pub(crate) use api::OPERATIONS;
pub use api::Uploads;

use std::ops::Bound;

use jiff::{SignedDuration, Timestamp};
use serde::{Deserialize, Serialize};

use crate::engine::kinds::{RecordKind, Settle};
use crate::engine::request::{RawBody, media_type};
use crate::engine::{Cx, Inner, ReadCx, WriteCx};
use crate::error::{Details, Error, Result};
use crate::files::Staged;
use crate::ids::Id;
use crate::list::Query;
use crate::resources::vocabulary::{UPLOADS as RULES, UploadRule};
use crate::secrets::SecretKey;
pub(crate) use crate::signed_ids::{sign, verify};
use crate::store::key::{Key, Reader};
use crate::store::{Dir, Tables};
use record::UploadRecord;
use tables::{UPLOADS, UPLOADS_BY_DUE};

/// How long an upload nothing uses is kept, in seconds.
pub(crate) const UNUSED_UPLOAD_SECS: i64 = 24 * 60 * 60;
/// The longest file name kept, in characters.
pub(crate) const FILENAME_MAX_CHARS: usize = 255;
/// The directory of upload files below `files/`.
pub(crate) const DIR: &str = "uploads";

/// The kind of an upload: what it will be used for, which decides the
/// types and size it takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UploadKind {
    /// A person's photo.
    Avatar,
    /// An image inside a note.
    NoteImage,
    /// A PDF document.
    Document,
}

pub(crate) use UploadKind as Kind;

impl Kind {
    const ALL: [Kind; 3] = [Kind::Avatar, Kind::NoteImage, Kind::Document];

    /// Its name in the API (`note_image`).
    pub fn name(self) -> &'static str {
        match self {
            Kind::Avatar => "avatar",
            Kind::NoteImage => "note_image",
            Kind::Document => "document",
        }
    }

    pub(crate) fn parse(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// Its byte in stored records.
    pub(crate) fn tag(self) -> u8 {
        match self {
            Kind::Avatar => 1,
            Kind::NoteImage => 2,
            Kind::Document => 3,
        }
    }

    pub(crate) fn from_tag(tag: u8) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.tag() == tag)
    }

    /// What it accepts (the vocabulary's `uploads.<kind>`).
    pub fn rule(self) -> UploadRule {
        match self {
            Kind::Avatar => RULES.avatar,
            Kind::NoteImage => RULES.note_image,
            Kind::Document => RULES.document,
        }
    }
}

/// An upload as the API shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Upload {
    /// The upload's ID signed with the store's key: what a person's
    /// `avatar`, a note's image or a document's `upload` names.
    pub signed_id: String,
    /// `avatar`, `note_image` or `document`.
    pub kind: String,
    /// The file name, as sent, made safe.
    pub filename: String,
    /// The type the bytes say they are.
    pub content_type: String,
    /// The file's size.
    pub byte_size: u64,
}

/// An upload as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Stored {
    pub(crate) id: Id,
    pub(crate) kind: Kind,
    pub(crate) filename: String,
    pub(crate) content_type: String,
    pub(crate) byte_size: u64,
    pub(crate) created_at: Timestamp,
    pub(crate) used: bool,
}

impl Stored {
    fn to_api(&self, key: &SecretKey) -> Upload {
        Upload {
            signed_id: sign(key, self.id),
            kind: self.kind.name().to_owned(),
            filename: self.filename.clone(),
            content_type: self.content_type.clone(),
            byte_size: self.byte_size,
        }
    }

    /// The names of its files below `files/`: the upload, and an avatar's
    /// thumbnails.
    pub(crate) fn file_names(id: Id) -> Vec<String> {
        let file = file_name(id);
        std::iter::once(file.clone())
            .chain(
                image::THUMBNAIL_SIZES
                    .iter()
                    .map(|size| format!("{file}.{size}.webp")),
            )
            .collect()
    }
}

/// The upload's file below `files/`.
pub(crate) fn file_name(id: Id) -> String {
    format!("{DIR}/{id}")
}

/// The thumbnail of `size` pixels of the avatar `id`, below `files/`.
pub(crate) fn thumbnail_name(id: Id, size: u32) -> String {
    format!("{DIR}/{id}.{size}.webp")
}

/// The upload a `signed_id` names, made ready for a record of `kind`
/// (a person's photo, a note's image, a document): marked used, so it is
/// neither removed by the clock nor taken again. Only an unused upload of
/// that kind is accepted; anything else is 422 on `field`.
pub(crate) fn take(cx: &WriteCx<'_>, signed: &str, kind: Kind, field: &str) -> Result<Stored> {
    let refuse = |phrase: &str| Error::invalid(field, phrase);
    let id = verify(&cx.org.secret, signed).ok_or_else(|| refuse("is not a valid upload"))?;
    let mut upload = get(cx, id)?.ok_or_else(|| refuse("is not a valid upload"))?;
    if upload.kind != kind {
        return Err(refuse(&format!(
            "must be an upload of kind {}",
            kind.name()
        )));
    }
    if upload.used {
        return Err(refuse("has already been used"));
    }
    upload.used = true;
    cx.remove(UPLOADS_BY_DUE, due_key(&upload).as_slice())?;
    cx.put_record(UPLOADS, &id.to_bytes(), &UploadRecord::from(&upload))?;
    Ok(upload)
}

/// The upload with this ID.
pub(crate) fn get<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<Option<Stored>> {
    Ok(cx
        .get_record::<UploadRecord>(UPLOADS, &id.to_bytes())?
        .and_then(|r| r.into_stored(id)))
}

/// Removes upload `id` (a replaced or removed photo): its record now, its
/// files once the transaction has committed.
pub(crate) fn discard(cx: &mut WriteCx<'_>, id: Id) -> Result<()> {
    if let Some(upload) = get(cx, id)? {
        cx.remove(UPLOADS_BY_DUE, due_key(&upload).as_slice())?;
        cx.remove(UPLOADS, &id.to_bytes())?;
        let names = Stored::file_names(id);
        cx.on_commit(move |inner| inner.files.remove_all(&names));
    }
    Ok(())
}

fn due_key(upload: &Stored) -> Key {
    Key::new()
        .timestamp(upload.created_at + SignedDuration::from_secs(UNUSED_UPLOAD_SECS))
        .id(upload.id)
}

/// What an upload is for and its file's name (the query of `POST
/// /uploads`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UploadParams {
    /// What it will be used for.
    pub kind: UploadKind,
    /// The file's name, made safe (its last path component, without
    /// control or invisible characters).
    pub filename: String,
}

pub(crate) use UploadParams as Params;

impl Params {
    /// An upload of `kind` named `filename` (made safe).
    ///
    /// # Errors
    ///
    /// [`Error::InvalidParameter`] on `filename` for a name that is blank
    /// once made safe, or too long.
    pub fn new(kind: UploadKind, filename: &str) -> Result<UploadParams> {
        let mut details = Details::new();
        let filename = checked_filename(Some(filename), &mut details);
        details.into_invalid_parameter()?;
        Ok(UploadParams { kind, filename })
    }

    /// The query's parameters, as [`UploadParams::parse`] reads them.
    pub(crate) fn query_pairs(&self) -> Vec<(&'static str, String)> {
        vec![
            ("kind", self.kind.name().to_owned()),
            ("filename", self.filename.clone()),
        ]
    }

    /// `kind` and `filename`: 400 on either when missing or malformed.
    pub(crate) fn parse(query: &Query) -> Result<Params> {
        let mut details = Details::new();
        let kind = match query.get("kind") {
            None | Some("") => {
                details.add("kind", "is required");
                None
            }
            Some(name) => {
                let kind = Kind::parse(name);
                if kind.is_none() {
                    details.add("kind", "must be one of avatar, note_image, document");
                }
                kind
            }
        };
        let filename = checked_filename(query.get("filename"), &mut details);
        details.into_invalid_parameter()?;
        let kind = kind.ok_or_else(|| Error::Internal("kind checked above".into()))?;
        Ok(Params { kind, filename })
    }
}

/// The file name sent, made safe; its mistakes in `details`.
fn checked_filename(sent: Option<&str>, details: &mut Details) -> String {
    match sent {
        None => {
            details.add("filename", "is required");
            String::new()
        }
        Some(raw) => {
            let name = sanitise_filename(raw);
            if name.is_empty() {
                details.add("filename", "can't be blank");
            } else if name.chars().count() > FILENAME_MAX_CHARS {
                details.add(
                    "filename",
                    format!("is too long (at most {FILENAME_MAX_CHARS} characters)"),
                );
            }
            name
        }
    }
}

/// A file name made safe to keep and show: its last path component (after
/// any `/` or `\`), without control or format characters, its white space
/// squished, and without leading dots.
pub(crate) fn sanitise_filename(raw: &str) -> String {
    let last = raw.rsplit(['/', '\\']).next().unwrap_or_default();
    let cleaned: String = last
        .chars()
        .filter(|c| !c.is_control() && !crate::text::is_invisible(*c))
        .collect();
    crate::text::squish(&cleaned)
        .trim_start_matches('.')
        .trim()
        .to_owned()
}

/// An upload made ready before its transaction: checked, decoded, and its
/// files written to temporary names.
pub(crate) struct Prepared {
    params: Params,
    content_type: &'static str,
    byte_size: u64,
    staged: Staged,
    /// The staged file, then each thumbnail and its size.
    file: String,
    thumbnails: Vec<(String, u32)>,
}

/// [`prepare`] for bytes read from a file rather than sent with a
/// `Content-Type`: their type is read from the bytes (an import's photos
/// and note images).
pub(crate) fn prepare_bytes(
    inner: &Inner,
    bytes: &[u8],
    kind: Kind,
    filename: &str,
) -> Result<Prepared> {
    let content_type = image::sniff(bytes).unwrap_or("application/octet-stream");
    let params = Params::new(kind, filename)?;
    let raw = RawBody {
        content_type: content_type.to_owned(),
        bytes: bytes.to_vec(),
    };
    prepare(inner, &raw, params)
}

/// Checks the request's body for `params.kind` and writes its files to
/// temporary names: the slow work (a full decode, an avatar's thumbnails,
/// the disk), done before the write transaction opens.
pub(crate) fn prepare(inner: &Inner, raw: &RawBody, params: Params) -> Result<Prepared> {
    let rule = params.kind.rule();
    check_header(rule, &raw.content_type, raw.bytes.len() as u64)?;
    let bytes = &raw.bytes;
    if bytes.is_empty() {
        return Err(Error::invalid("file", "is empty"));
    }
    let accepted = |t: &&str| rule.content_types.contains(t);
    let Some(content_type) = image::sniff(bytes).filter(accepted) else {
        return Err(Error::invalid(
            "file",
            format!(
                "must be {} (the type is read from the file's bytes)",
                described(rule.content_types)
            ),
        ));
    };
    let mut thumbnails = Vec::new();
    if content_type.starts_with("image/") {
        let decoded = image::decode(bytes).map_err(|e| Error::invalid("file", e.0))?;
        if params.kind == Kind::Avatar {
            let (small, large) =
                image::thumbnails_of(&decoded).map_err(|e| Error::invalid("file", e.0))?;
            thumbnails = vec![(small, 128), (large, 256)];
        }
    } else if !pdf_is_complete(bytes) {
        return Err(Error::invalid(
            "file",
            "is not a complete PDF: it is cut short",
        ));
    }
    let io = |e: std::io::Error| Error::Internal(format!("writing an upload: {e}"));
    let mut staged = Staged::new(inner.files.clone());
    let file = staged.stage(DIR, bytes).map_err(io)?;
    let thumbnails = thumbnails
        .into_iter()
        .map(|(bytes, size)| Ok((staged.stage(DIR, &bytes).map_err(io)?, size)))
        .collect::<Result<Vec<_>>>()?;
    Ok(Prepared {
        params,
        content_type,
        byte_size: bytes.len() as u64,
        staged,
        file,
        thumbnails,
    })
}

/// 415 unless `content_type` is one `rule` accepts; 413 past its size.
/// The server checks the same before it reads a body.
pub(crate) fn check_header(rule: UploadRule, content_type: &str, length: u64) -> Result<()> {
    if length > rule.max_bytes {
        return Err(Error::PayloadTooLarge {
            limit: rule.max_bytes,
        });
    }
    // No types listed: any type (an import's file, read from its bytes).
    if !rule.content_types.is_empty()
        && !rule
            .content_types
            .contains(&media_type(content_type).as_str())
    {
        return Err(Error::UnsupportedMediaType);
    }
    Ok(())
}

fn described(types: &[&str]) -> String {
    let names: Vec<&str> = types
        .iter()
        .map(|t| match *t {
            "image/jpeg" => "JPEG",
            "image/png" => "PNG",
            "image/webp" => "WebP",
            "image/gif" => "GIF",
            "application/pdf" => "PDF",
            other => other,
        })
        .collect();
    match names.split_last() {
        Some((last, [])) => format!("a {last} file"),
        Some((last, rest)) => format!("a {} or {last} image", rest.join(", ")),
        None => "a file".to_owned(),
    }
}

/// Whether a PDF ends with its end-of-file marker (in its last kilobyte).
fn pdf_is_complete(bytes: &[u8]) -> bool {
    let tail = &bytes[bytes.len().saturating_sub(1024)..];
    tail.windows(5).any(|w| w == b"%%EOF")
}

/// Records the prepared upload: its files renamed into place and its
/// metadata written, in the caller's transaction.
pub(crate) fn create(cx: &mut WriteCx<'_>, prepared: Prepared) -> Result<Upload> {
    let Prepared {
        params,
        content_type,
        byte_size,
        mut staged,
        file,
        thumbnails,
    } = prepared;
    let id = cx.new_id();
    let io = |e: std::io::Error| Error::Internal(format!("placing an upload: {e}"));
    staged.rename(&file, &file_name(id)).map_err(io)?;
    for (name, size) in &thumbnails {
        staged
            .rename(name, &thumbnail_name(id, *size))
            .map_err(io)?;
    }
    let upload = Stored {
        id,
        kind: params.kind,
        filename: params.filename,
        content_type: content_type.to_owned(),
        byte_size,
        created_at: cx.now(),
        used: false,
    };
    cx.put_record(UPLOADS, &id.to_bytes(), &UploadRecord::from(&upload))?;
    cx.index(UPLOADS_BY_DUE, due_key(&upload).as_slice())?;
    // The files stay only if the record does.
    cx.on_commit(move |_| staged.keep());
    Ok(upload.to_api(&cx.org.secret))
}

/// The upload kind of record: no deletion type of its own (an upload is
/// not restorable and writes no deletion record); its rule of the clock
/// removes unused uploads after 24 hours.
pub(crate) static KIND: RecordKind = RecordKind {
    settle: Some(Settle {
        due: |cx| unused_due(cx),
        run: remove_unused,
    }),
    ..RecordKind::new("upload", 20)
};

fn due_bound<T: Tables>(cx: &Cx<'_, T>) -> Vec<u8> {
    Key::new()
        .timestamp(cx.now() + SignedDuration::from_millis(1))
        .into_vec()
}

fn unused_due(cx: &ReadCx<'_>) -> Result<bool> {
    let bound = due_bound(cx);
    Ok(cx
        .first_key(
            UPLOADS_BY_DUE,
            Bound::Unbounded,
            Bound::Excluded(bound.as_slice()),
            Dir::Asc,
        )?
        .is_some())
}

/// Removes every upload unused 24 hours after it was made: its record in
/// this transaction, its files once the transaction has committed (a file
/// that cannot be removed is logged, never an error).
fn remove_unused(cx: &mut WriteCx<'_>) -> Result<()> {
    let bound = due_bound(cx);
    let mut due = Vec::new();
    cx.scan(
        UPLOADS_BY_DUE,
        Bound::Unbounded,
        Bound::Excluded(bound.as_slice()),
        Dir::Asc,
        &mut |k, _| {
            due.push(k.to_vec());
            Ok(true)
        },
    )?;
    if due.is_empty() {
        return Ok(());
    }
    let mut names = Vec::new();
    for k in due {
        cx.remove(UPLOADS_BY_DUE, &k)?;
        let mut r = Reader::new(&k);
        let _due = r.i64();
        let id = r.id();
        cx.remove(UPLOADS, &id.to_bytes())?;
        names.extend(Stored::file_names(id));
    }
    cx.on_commit(move |inner| inner.files.remove_all(&names));
    Ok(())
}

#[cfg(test)]
mod tests;
