//! The documents' and links' operations (DESIGN.md "Documents" and
//! links), each declared once for the typed method and the route arm; and
//! the file addresses: the PDF (inline, or as an attachment) and the
//! first page's thumbnail, rendered in the background after the document
//! is made (a generic icon until then, or when the file cannot be
//! rendered).

use super::links::{self, DocumentLink, DocumentLinkInput, DocumentLinkQuery};
use super::{
    Document, DocumentInput, DocumentQuery, absolute, change, create, delete, file_of, get, list,
    parse, restore,
};
use crate::engine::op::{PlainOp, ReadOp, Route, WriteOp};
use crate::engine::request::{Method, Request, Response};
use crate::engine::{Organiser, endpoint::Endpoint};
use crate::error::{Error, Result};
use crate::ids::Id;
use crate::list::Page;
use crate::resources::uploads;

static LIST: ReadOp = ReadOp::SETTLED.kept();
static GET: ReadOp = ReadOp::SETTLED;
static CREATE: WriteOp = WriteOp::LICENSED.idempotent();
static CHANGE: WriteOp = WriteOp::LICENSED;
static DELETE: WriteOp = WriteOp::LICENSED;
static RESTORE: WriteOp = WriteOp::LICENSED.idempotent();
/// A document's bytes: read from disk off the server's async workers.
static FILE: PlainOp = PlainOp::PRIVATE_FILES;

/// The longer side of a document's thumbnail, in pixels.
pub(crate) const THUMBNAIL_SIDE: u32 = 256;

impl Organiser {
    /// `GET /documents`.
    pub fn documents(&self, query: &DocumentQuery) -> Result<Page<Document>> {
        self.inner.read_op(&LIST, |cx| list(cx, query))
    }

    /// `POST /documents`: the thumbnail is rendered after the commit.
    pub fn create_document(&self, input: &DocumentInput) -> Result<Document> {
        self.inner.write_op(&CREATE, |cx| made(cx, input))
    }

    /// `GET /documents/{id}`.
    pub fn document(&self, id: Id) -> Result<Document> {
        self.inner.read_op(&GET, |cx| get(cx, id))
    }

    /// `PATCH /documents/{id}`.
    pub fn change_document(&self, id: Id, input: &DocumentInput) -> Result<Document> {
        self.inner.write_op(&CHANGE, |cx| change(cx, id, input))
    }

    /// `DELETE /documents/{id}`: restorable for 20 seconds.
    pub fn delete_document(&self, id: Id) -> Result<()> {
        self.inner.write_op(&DELETE, |cx| delete(cx, id))
    }

    /// `POST /documents/{id}/restoration`.
    pub fn restore_document(&self, id: Id) -> Result<Document> {
        self.inner.write_op(&RESTORE, |cx| restore(cx, id))
    }

    /// `GET /document_links`.
    pub fn document_links(&self, query: &DocumentLinkQuery) -> Result<Page<DocumentLink>> {
        self.inner.read_op(&LIST, |cx| links::list(cx, query))
    }

    /// `POST /document_links`.
    pub fn create_document_link(&self, input: &DocumentLinkInput) -> Result<DocumentLink> {
        self.inner.write_op(&CREATE, |cx| links::create(cx, input))
    }

    /// `DELETE /document_links/{id}`.
    pub fn delete_document_link(&self, id: Id) -> Result<()> {
        self.inner.write_op(&DELETE, |cx| links::delete(cx, id))
    }
}

/// Makes a document and, once it is committed, renders its thumbnail on a
/// thread of its own.
fn made(cx: &mut crate::engine::WriteCx<'_>, input: &DocumentInput) -> Result<Document> {
    let doc = create(cx, input)?;
    let (upload, _, _) = file_of(cx, doc.id)?;
    cx.on_commit(move |inner| {
        let files = inner.files.clone();
        let renderer = inner.options.pdf_renderer.clone();
        std::thread::spawn(move || {
            let Ok(pdf) = files.read(&uploads::file_name(upload)) else {
                return;
            };
            let webp = crate::pdf::thumbnail(&renderer, &pdf, THUMBNAIL_SIDE);
            if let Ok(staged) = files.stage(uploads::DIR, &webp) {
                let _ = files.rename(&staged, &uploads::thumbnail_name(upload, THUMBNAIL_SIDE));
            }
        });
    });
    Ok(doc)
}

/// The routes of [`routes`].
pub(crate) static ENDPOINTS: &[Endpoint] = {
    use Method::{Delete, Get, Patch, Post, Put};
    &[
        Endpoint::new(Get, "/documents"),
        Endpoint::new(Post, "/documents"),
        Endpoint::new(Get, "/documents/{id}"),
        Endpoint::new(Patch, "/documents/{id}"),
        Endpoint::new(Put, "/documents/{id}"),
        Endpoint::new(Delete, "/documents/{id}"),
        Endpoint::new(Post, "/documents/{id}/restoration"),
        Endpoint::new(Get, "/documents/{id}/file"),
        Endpoint::new(Get, "/documents/{id}/thumbnail"),
        Endpoint::new(Get, "/document_links"),
        Endpoint::new(Post, "/document_links"),
        Endpoint::new(Delete, "/document_links/{id}"),
    ]
};

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

/// `/documents` and `/document_links`.
pub(crate) fn routes<'r>(req: &'r Request, segments: &[&'r str]) -> Result<Route<'r>> {
    use Method::{Delete, Get, Patch, Post, Put};
    let body = req.body.as_ref();
    let base = req.base_url.as_str();
    Ok(match (req.method, segments) {
        (Get, ["documents"]) => {
            let query = DocumentQuery::parse(&req.query)?;
            LIST.route(move |cx| {
                let page = list(cx, &query)?.map(|d| absolute(d, base));
                Ok(Response::json(200, &page))
            })
        }
        (Post, ["documents"]) => CREATE.route(
            move || parse(body, true),
            move |cx, input| Ok(Response::data(201, &absolute(made(cx, &input)?, base))),
        ),
        (Get, ["documents", id]) => {
            let id = Id::from_path(id)?;
            GET.route(move |cx| Ok(Response::data(200, &absolute(get(cx, id)?, base))))
        }
        (Patch | Put, ["documents", id]) => {
            let id = Id::from_path(id)?;
            CHANGE.route(
                move || parse(body, false),
                move |cx, input| {
                    Ok(Response::data(
                        200,
                        &absolute(change(cx, id, &input)?, base),
                    ))
                },
            )
        }
        (Delete, ["documents", id]) => {
            let id = Id::from_path(id)?;
            DELETE.run(move |cx| {
                delete(cx, id)?;
                Ok(Response::no_content())
            })
        }
        (Post, ["documents", id, "restoration"]) => {
            let id = Id::from_path(id)?;
            RESTORE.run(move |cx| Ok(Response::data(200, &absolute(restore(cx, id)?, base))))
        }
        (Get, ["documents", id, "file"]) => {
            let id = Id::from_path(id)?;
            let download = req
                .query
                .get("download")
                .is_some_and(|v| v != "0" && v != "false");
            let range = req.range.clone();
            FILE.route(move |inner| {
                let (upload, filename, content_type) = inner.read(|cx| file_of(cx, id))?;
                let bytes = inner
                    .files
                    .read(&uploads::file_name(upload))
                    .map_err(|_| Error::NotFound)?;
                let disposition = if download { "attachment" } else { "inline" };
                let size = bytes.len() as u64;
                let mut response = match range.as_deref().map(|r| byte_range(r, size)) {
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
                Ok(response)
            })
        }
        (Get, ["documents", id, "thumbnail"]) => {
            let id = Id::from_path(id)?;
            FILE.route(move |inner| {
                let (upload, _, _) = inner.read(|cx| file_of(cx, id))?;
                let bytes = inner
                    .files
                    .read(&uploads::thumbnail_name(upload, THUMBNAIL_SIDE))
                    .unwrap_or_else(|_| crate::pdf::generic_icon_webp(THUMBNAIL_SIDE));
                Ok(private_file("image/webp", bytes))
            })
        }
        (Get, ["document_links"]) => {
            let query = DocumentLinkQuery::parse(&req.query)?;
            LIST.route(move |cx| Ok(Response::json(200, &links::list(cx, &query)?)))
        }
        (Post, ["document_links"]) => CREATE.route(
            move || links::parse(body),
            |cx, input| Ok(Response::data(201, &links::create(cx, &input)?)),
        ),
        (Delete, ["document_links", id]) => {
            let id = Id::from_path(id)?;
            DELETE.run(move |cx| {
                links::delete(cx, id)?;
                Ok(Response::no_content())
            })
        }
        _ => return Err(Error::NotFound),
    })
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
