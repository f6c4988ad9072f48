//! The documents' and links' operations (document 3, "Documents",
//! "DocumentLink"), each declared once, and [`Documents`], the typed door
//! to them; and the file addresses: the PDF (inline, or as an attachment)
//! and the first page's thumbnail, rendered in the background after the
//! document is made (a generic icon until then, or when the file cannot be
//! rendered).

use super::links::{self, DocumentLink, DocumentLinkInput, DocumentLinkQuery};
use super::{
    Document, DocumentInput, DocumentQuery, FolderCount, absolute, change, create, delete, file_of,
    folder_counts, get, list, parse, restore,
};
use crate::engine::op::{PlainOp, ReadOp, WriteOp};
use crate::engine::operation::{
    Answer, Changing, Declared, Door, Operation, Run, body_part, query_part,
};
use crate::engine::request::Method::{Delete, Get, Patch, Post, Put};
use crate::engine::request::{FileBytes, Request, Response};
use crate::engine::{Inner, Organiser};
use crate::error::{Error, Result};
use crate::ids::Id;
use crate::list::Page;
use crate::resources::uploads;

body_part!(DocumentInput, |body| parse(body, true), Some("document"));
body_part!(
    Changing<DocumentInput>,
    |body| parse(body, false).map(Changing),
    Some("document")
);
body_part!(DocumentLinkInput, links::parse, Some("document_link"));
query_part!(DocumentQuery, DocumentLinkQuery);

/// Lists are kept between requests of one commit generation.
const LISTED: ReadOp = ReadOp::SETTLED.kept();

/// The longer side of a document's thumbnail, in pixels.
pub(crate) const THUMBNAIL_SIDE: u32 = 256;

/// `GET /documents`.
pub(crate) static LIST: Operation<DocumentQuery, Page<Document>> = Operation::new(
    "listDocuments",
    Get,
    "/documents",
    "Documents\n\nLive documents; filters combine with AND, and `count=true` counts the filtered set.",
    Run::Read(LISTED, |cx, query| list(cx, &query)),
    Answer::bare(200).absolute(|page, base| page.map(|d| absolute(d, base))),
);

/// `POST /documents`.
pub(crate) static CREATE: Operation<DocumentInput, Document> = Operation::new(
    "createDocument",
    Post,
    "/documents",
    "Make a document\n\nFrom an unused upload of kind `document` (`POST /uploads?kind=document`), which it then uses. Without a `name` it takes the upload's filename without its extension. Links made from the ID arrays. Nothing is saved on any error, and the upload stays unused.",
    Run::write(WriteOp::LICENSED.idempotent(), |cx, input| made(cx, &input)),
    Answer::data(201).absolute(absolute),
);

/// `GET /documents/{id}`.
pub(crate) static GET: Operation<Id, Document> = Operation::new(
    "getDocument",
    Get,
    "/documents/{id}",
    "A document\n\nA deleted document is 404.",
    Run::Read(ReadOp::SETTLED, get),
    Answer::data(200).absolute(absolute),
);

/// `PATCH` (or `PUT`) `/documents/{id}`.
pub(crate) static CHANGE: Operation<(Id, Changing<DocumentInput>), Document> = Operation::new(
    "changeDocument",
    Patch,
    "/documents/{id}",
    "Change a document\n\nOnly the fields sent change; `upload` is 400. Each ID array sent replaces that kind's links (new links made, missing ones removed). A change that changes nothing keeps `updated_at`; a link or unlink gives a new one. Nothing is saved on any error.",
    Run::write(WriteOp::LICENSED, |cx, (id, Changing(input))| {
        change(cx, id, &input)
    }),
    Answer::data(200).absolute(absolute),
)
.also(Put, "replaceDocument");

/// `DELETE /documents/{id}`.
pub(crate) static DELETE: Operation<Id, ()> = Operation::new(
    "deleteDocument",
    Delete,
    "/documents/{id}",
    "Delete a document\n\nGone from every endpoint at once (its file and thumbnail too), with a `document` deletion record. Restorable for 20 seconds; then permanent: the record, its links and its files go.",
    Run::write(WriteOp::LICENSED, delete),
    Answer::empty(),
);

/// `POST /documents/{id}/restoration`.
pub(crate) static RESTORE: Operation<Id, Document> = Operation::new(
    "restoreDocument",
    Post,
    "/documents/{id}/restoration",
    "Restore a document\n\nWithin 20 seconds of the delete: the document returns with its links and a new `updated_at`, and its deletion record is removed; after 20 seconds 404. A live document answers as it is. 422 only as `idempotency_key_reused`.",
    Run::write(WriteOp::LICENSED.idempotent(), restore),
    Answer::data(200).absolute(absolute),
);

/// `GET /documents/{id}/file`: the bytes are read from disk off the
/// server's async workers.
pub(crate) static FILE: Operation<Id, FileBytes> = Operation::new(
    "getDocumentFile",
    Get,
    "/documents/{id}/file",
    "A document's PDF\n\nThe PDF's bytes (the document's `file.url` and `file.download_url`). Takes a `Range` of bytes. A deleted document is 404.",
    Run::Plain(PlainOp::PRIVATE_FILES, file),
    Answer::raw(file_answer, read_file_answer),
);

/// `GET /documents/{id}/thumbnail`.
pub(crate) static THUMBNAIL: Operation<Id, FileBytes> = Operation::new(
    "getDocumentThumbnail",
    Get,
    "/documents/{id}/thumbnail",
    "A document's thumbnail\n\nA WebP image of the PDF's first page (the document's `file.thumbnail_url`). A deleted document is 404.",
    Run::Plain(PlainOp::PRIVATE_FILES, thumbnail),
    Answer::raw(
        |thumb, _| private_file(&thumb.content_type, thumb.bytes),
        read_file_answer,
    ),
);

/// `GET /document_links`.
pub(crate) static LINKS: Operation<DocumentLinkQuery, Page<DocumentLink>> = Operation::new(
    "listDocumentLinks",
    Get,
    "/document_links",
    "Document links\n\nLinks of live documents to live records, ordered by `id`; filters combine with AND. Not synced: no `updated_since`.",
    Run::Read(LISTED, |cx, query| links::list(cx, &query)),
    Answer::bare(200),
);

/// `POST /document_links`.
pub(crate) static LINK: Operation<DocumentLinkInput, DocumentLink> = Operation::new(
    "createDocumentLink",
    Post,
    "/document_links",
    "Link a document\n\nLinks a document to one note, project, task or person; the document gets a new `updated_at`.",
    Run::write(WriteOp::LICENSED.idempotent(), |cx, input| {
        links::create(cx, &input)
    }),
    Answer::data(201),
);

/// `DELETE /document_links/{id}`.
pub(crate) static UNLINK: Operation<Id, ()> = Operation::new(
    "deleteDocumentLink",
    Delete,
    "/document_links/{id}",
    "Unlink a document\n\nPermanent, with no deletion record (links are not synced); the document gets a new `updated_at`.",
    Run::write(WriteOp::LICENSED, links::delete),
    Answer::empty(),
);

/// `GET /folder_counts`: a view of the documents, served here (folders
/// know nothing of documents).
pub(crate) static FOLDER_COUNTS: Operation<(), Vec<FolderCount>> = Operation::new(
    "listFolderCounts",
    Get,
    "/folder_counts",
    "Document counts per folder\n\nLive documents per folder, not counting subfolders: one row per folder that has any, by `folder_id`, and one with `folder_id` null for the live documents in no folder (when there are any). Not paginated, not a record.",
    Run::Read(LISTED, |cx, ()| folder_counts(cx)),
    Answer::data(200),
);

/// The documents' operations, for the registry.
pub(crate) static OPERATIONS: &[&dyn Declared] = &[
    &LIST,
    &CREATE,
    &GET,
    &CHANGE,
    &DELETE,
    &RESTORE,
    &FILE,
    &THUMBNAIL,
    &LINKS,
    &LINK,
    &UNLINK,
    &FOLDER_COUNTS,
];

/// Makes a document and, once it is committed, renders its thumbnail on a
/// thread of its own.
fn made(cx: &mut crate::engine::WriteCx<'_>, input: &DocumentInput) -> Result<Document> {
    let doc = create(cx, input)?;
    let (upload, _, _) = file_of(cx, doc.id)?;
    render_thumbnail(cx, doc.id, upload);
    Ok(doc)
}

/// Renders the thumbnail of document `doc_id` (whose PDF is upload
/// `upload`) on a thread of its own once the write has committed.
pub(super) fn render_thumbnail(cx: &mut crate::engine::WriteCx<'_>, doc_id: Id, upload: Id) {
    cx.on_commit(move |inner| {
        let files = inner.files.clone();
        let renderer = inner.options.pdf_renderer.clone();
        std::thread::spawn(move || {
            let Ok(pdf) = files.read(&uploads::file_name(upload)) else {
                return;
            };
            let webp = crate::pdf::thumbnail(&renderer, &pdf, THUMBNAIL_SIDE);
            let written = files.stage(uploads::DIR, &webp).and_then(|staged| {
                files.rename(&staged, &uploads::thumbnail_name(upload, THUMBNAIL_SIDE))
            });
            match written {
                Ok(()) => tracing::info!(document = %doc_id, "document thumbnail written"),
                Err(error) => {
                    tracing::warn!(document = %doc_id, %error, "document thumbnail not written")
                }
            }
        });
    });
}

/// The PDF of live document `id`.
fn file(inner: &Inner, id: Id) -> Result<FileBytes> {
    let (upload, filename, content_type) = inner.read(|cx| file_of(cx, id))?;
    let bytes = inner
        .files
        .read(&uploads::file_name(upload))
        .map_err(|_| Error::NotFound)?;
    Ok(FileBytes {
        content_type,
        filename,
        bytes,
    })
}

/// The thumbnail of live document `id` (the generic icon until it is
/// rendered, or when it cannot be).
fn thumbnail(inner: &Inner, id: Id) -> Result<FileBytes> {
    let (upload, filename, _) = inner.read(|cx| file_of(cx, id))?;
    let bytes = inner
        .files
        .read(&uploads::thumbnail_name(upload, THUMBNAIL_SIDE))
        .unwrap_or_else(|_| crate::pdf::generic_icon_webp(THUMBNAIL_SIDE));
    Ok(FileBytes {
        content_type: "image/webp".to_owned(),
        filename,
        bytes,
    })
}

/// The PDF's answer: the whole file or the part its `Range` asks for,
/// shown inline or (with `download`) as an attachment.
fn file_answer(file: FileBytes, req: &Request) -> Response {
    let download = req
        .query
        .get("download")
        .is_some_and(|v| v != "0" && v != "false");
    let disposition = if download { "attachment" } else { "inline" };
    let FileBytes {
        content_type,
        filename,
        bytes,
    } = file;
    let size = bytes.len() as u64;
    let mut response = match req.range.as_deref().map(|r| byte_range(r, size)) {
        None | Some(Range::Whole) => private_file(&content_type, bytes),
        Some(Range::Part(from, to)) => {
            let part = bytes[from as usize..=to as usize].to_vec();
            let mut r = private_file(&content_type, part);
            r.status = 206;
            r.headers
                .push(("content-range", format!("bytes {from}-{to}/{size}")));
            r
        }
        Some(Range::Unsatisfiable) => Response {
            status: 416,
            body: None,
            replayed: false,
            headers: vec![("content-range", format!("bytes */{size}"))],
        },
    };
    response.headers.push(("accept-ranges", "bytes".to_owned()));
    if response.status != 416 {
        response.headers.push((
            "content-disposition",
            format!("{disposition}; filename=\"{}\"", header_filename(&filename)),
        ));
    }
    response
}

/// A file read back from its answer.
fn read_file_answer(response: &Response) -> Result<FileBytes> {
    Ok(FileBytes::of_answer(response))
}

/// A private file: the owner's, so no shared cache may keep it. A PDF
/// shown in the browser is sandboxed (no script, form or navigation of
/// its own runs with the server's origin).
fn private_file(content_type: &str, bytes: Vec<u8>) -> Response {
    let mut response = Response::file(content_type, bytes);
    response
        .headers
        .retain(|(name, _)| *name != "cache-control");
    response
        .headers
        .push(("cache-control", "private, no-cache".to_owned()));
    if content_type == "application/pdf" {
        response
            .headers
            .push(("content-security-policy", "sandbox".to_owned()));
    }
    response
}

/// What a `Range` header asks of a file of `size` bytes.
#[derive(Debug, PartialEq, Eq)]
enum Range {
    /// The whole file (no range, or one this route does not take, such as
    /// several ranges or another unit: answered as if none were sent).
    Whole,
    /// Bytes `from` to `to`, both included.
    Part(u64, u64),
    /// A range that starts past the end.
    Unsatisfiable,
}

/// Reads one `bytes=` range (`a-b`, `a-`, `-n`).
fn byte_range(header: &str, size: u64) -> Range {
    let Some(spec) = header.trim().strip_prefix("bytes=") else {
        return Range::Whole;
    };
    if spec.contains(',') {
        return Range::Whole;
    }
    let Some((a, b)) = spec.trim().split_once('-') else {
        return Range::Whole;
    };
    let (a, b) = (a.trim(), b.trim());
    let parsed = |s: &str| s.parse::<u64>().ok();
    match (a.is_empty(), b.is_empty()) {
        // The last n bytes.
        (true, false) => match parsed(b) {
            Some(0) => Range::Unsatisfiable,
            Some(n) if size > 0 => Range::Part(size.saturating_sub(n), size - 1),
            Some(_) => Range::Unsatisfiable,
            None => Range::Whole,
        },
        (false, _) => match (
            parsed(a),
            if b.is_empty() {
                Some(u64::MAX)
            } else {
                parsed(b)
            },
        ) {
            (Some(from), Some(to)) if from < size && from <= to => {
                Range::Part(from, to.min(size - 1))
            }
            (Some(from), Some(_)) if from >= size => Range::Unsatisfiable,
            _ => Range::Whole,
        },
        (true, true) => Range::Whole,
    }
}

/// A file name made safe for a `Content-Disposition` header.
fn header_filename(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_graphic() && c != '"' && c != '\\' || c == ' ' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// The documents of a store (document 3, "Documents"), with their links
/// and files, through a [`Door`]: the store itself (`org.documents()`),
/// or a server that holds it.
#[derive(Debug, Clone, Copy)]
pub struct Documents<'d, D = Organiser> {
    door: &'d D,
}

impl<'d, D: Door> Documents<'d, D> {
    /// The documents of the store behind `door`.
    pub fn new(door: &'d D) -> Self {
        Documents { door }
    }

    /// One page of the live documents (all of them, those of a folder, or
    /// those whose names `q` finds), by name unless `query` names another
    /// order.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidParameter`](crate::Error::InvalidParameter) for a
    /// parameter the listing refuses.
    pub fn list(&self, query: &DocumentQuery) -> Result<Page<Document>> {
        self.door.call(&LIST, query.clone())
    }

    /// Makes a document of an unused PDF upload, linked to the records
    /// `input` names; its thumbnail is rendered after the write.
    ///
    /// # Errors
    ///
    /// [`Error::Validation`](crate::Error::Validation) for an upload that
    /// is not an unused document upload, a name too long, a folder or a
    /// linked record that does not exist; [`Error::ReadOnly`](crate::Error::ReadOnly).
    pub fn create(&self, input: DocumentInput) -> Result<Document> {
        self.door.call(&CREATE, input)
    }

    /// The live document `id`.
    ///
    /// # Errors
    ///
    /// [`Error::NotFound`](crate::Error::NotFound) for a deleted or unknown
    /// document.
    pub fn get(&self, id: Id) -> Result<Document> {
        self.door.call(&GET, id)
    }

    /// Changes the fields `input` sends of document `id`; each ID array
    /// sent replaces that kind's links.
    ///
    /// # Errors
    ///
    /// As [`Documents::create`] and [`Documents::get`];
    /// [`Error::InvalidParameter`](crate::Error::InvalidParameter) for an
    /// `upload`, which only a new document takes.
    pub fn change(&self, id: Id, input: DocumentInput) -> Result<Document> {
        self.door.call(&CHANGE, (id, Changing(input)))
    }

    /// Deletes document `id`, restorable for 20 seconds.
    ///
    /// # Errors
    ///
    /// As [`Documents::get`]; [`Error::ReadOnly`](crate::Error::ReadOnly).
    pub fn delete(&self, id: Id) -> Result<()> {
        self.door.call(&DELETE, id)
    }

    /// Brings back document `id` with its links, within 20 seconds of its
    /// delete.
    ///
    /// # Errors
    ///
    /// [`Error::NotFound`](crate::Error::NotFound) after the window.
    pub fn restore(&self, id: Id) -> Result<Document> {
        self.door.call(&RESTORE, id)
    }

    /// The PDF of live document `id`, whole.
    ///
    /// # Errors
    ///
    /// As [`Documents::get`].
    pub fn file(&self, id: Id) -> Result<FileBytes> {
        self.door.call(&FILE, id)
    }

    /// The thumbnail of live document `id` (WebP; a generic icon until it
    /// is rendered).
    ///
    /// # Errors
    ///
    /// As [`Documents::get`].
    pub fn thumbnail(&self, id: Id) -> Result<FileBytes> {
        self.door.call(&THUMBNAIL, id)
    }

    /// One page of the links of live documents to live records.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidParameter`](crate::Error::InvalidParameter) for a
    /// parameter the listing refuses.
    pub fn links(&self, query: &DocumentLinkQuery) -> Result<Page<DocumentLink>> {
        self.door.call(&LINKS, query.clone())
    }

    /// Links a document to one note, project, task or person.
    ///
    /// # Errors
    ///
    /// [`Error::Validation`](crate::Error::Validation) for a document or a
    /// target that does not exist, none or two targets, or a pair already
    /// linked.
    pub fn link(&self, input: DocumentLinkInput) -> Result<DocumentLink> {
        self.door.call(&LINK, input)
    }

    /// Removes link `id`, permanently.
    ///
    /// # Errors
    ///
    /// [`Error::NotFound`](crate::Error::NotFound) for an unknown link, or
    /// one whose document or target is deleted.
    pub fn unlink(&self, id: Id) -> Result<()> {
        self.door.call(&UNLINK, id)
    }

    /// How many live documents each folder holds (not counting its
    /// subfolders) and their bytes; a row with no folder for those in
    /// none.
    ///
    /// # Errors
    ///
    /// Only the store's.
    pub fn folder_counts(&self) -> Result<Vec<FolderCount>> {
        self.door.call(&FOLDER_COUNTS, ())
    }
}

impl Organiser {
    /// The store's documents.
    pub fn documents(&self) -> Documents<'_> {
        Documents::new(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_are_read_as_rfc_9110_says() {
        let cases = [
            ("bytes=0-3", Range::Part(0, 3)),
            ("bytes=5-", Range::Part(5, 9)),
            ("bytes=-4", Range::Part(6, 9)),
            ("bytes=8-100", Range::Part(8, 9)),
            ("bytes=10-", Range::Unsatisfiable),
            ("bytes=-0", Range::Unsatisfiable),
            ("bytes=3-2", Range::Whole),
            ("bytes=0-1,4-5", Range::Whole),
            ("items=0-1", Range::Whole),
            ("bytes=x-", Range::Whole),
        ];
        for (header, want) in cases {
            assert_eq!(byte_range(header, 10), want, "{header}");
        }
    }
}
