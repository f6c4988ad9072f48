//! A document's file and thumbnail for the owner's browser (EXTENSIONS.md
//! §6, documents: "thumbnails, viewing"), with a session: the PDF shown
//! inline as its stored type (or saved, with `?download=1`), under a
//! policy of its own that lets the browser's PDF viewer show it but runs
//! nothing of the file's own with our origin; the thumbnail the core
//! serves (its generic icon until the first page is rendered, in the
//! background, after the upload). Both with an `ETag`, revalidated on
//! each use (`private, no-cache`): a deleted document is gone at once.

use axum::extract::{Path, Query};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use organiser_core::Id;
use serde::Deserialize;

use crate::web::forms::{SignedIn, record_id};
use crate::web::{Refusal, blocking, with_headers};

/// The policy a PDF is shown under: a sandbox (no script, form, plugin
/// content or navigation of the file's own runs with our origin) that
/// loads nothing. Chromium's PDF viewer still draws the file under it
/// (measured: the viewer is the browser's own, outside the policy; neither
/// `object-src` nor the long-gone `plugin-types` is needed).
pub(super) const PDF_POLICY: &str = "sandbox; default-src 'none'; frame-ancestors 'none'";

/// How the browser may keep either: for the owner only, asked again each
/// time.
const CACHE: &str = "private, no-cache";

/// `GET /documents/{id}/file?download=1`.
#[derive(Debug, Default, Deserialize)]
pub(super) struct FileQuery {
    download: Option<String>,
}

/// Whether `headers` say the browser holds `etag` already.
fn fresh(headers: &HeaderMap, etag: &str) -> bool {
    headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == etag || t.trim() == "*"))
}

/// 304: the browser's copy is the one.
fn not_modified(etag: &str) -> Response {
    let mut response = StatusCode::NOT_MODIFIED.into_response();
    set(&mut response, header::ETAG, etag);
    set(&mut response, header::CACHE_CONTROL, CACHE);
    with_headers(response)
}

/// Sets header `name` of `response` to `value` (a value that is no header
/// value is left out).
fn set(response: &mut Response, name: header::HeaderName, value: &str) {
    if let Ok(v) = HeaderValue::from_str(value) {
        response.headers_mut().insert(name, v);
    }
}

/// `GET /documents/{id}/file`: the PDF, inline (or, with `download`, as an
/// attachment), named as it was uploaded.
pub(super) async fn file(
    Path(id): Path<String>,
    Query(q): Query<FileQuery>,
    headers: HeaderMap,
    owner: SignedIn,
) -> Result<Response, Refusal> {
    let id = record_id(&id)?;
    // A document's file never changes: its ID and size name it.
    let d = blocking(&owner.state, move |org| org.documents().get(id)).await?;
    let etag = format!("\"{}-{}\"", d.id, d.file.byte_size);
    if fresh(&headers, &etag) {
        return Ok(not_modified(&etag));
    }
    let f = blocking(&owner.state, move |org| org.documents().file(id)).await?;
    let download = q.download.is_some_and(|v| v != "0" && v != "false");
    let disposition = format!(
        "{}; {}",
        if download { "attachment" } else { "inline" },
        filename_params(&f.filename)
    );
    let mut response = f.bytes.into_response();
    set(&mut response, header::CONTENT_TYPE, &f.content_type);
    set(&mut response, header::CONTENT_DISPOSITION, &disposition);
    set(&mut response, header::ETAG, &etag);
    set(&mut response, header::CACHE_CONTROL, CACHE);
    let mut response = with_headers(response);
    set(&mut response, header::CONTENT_SECURITY_POLICY, PDF_POLICY);
    Ok(response)
}

/// `GET /documents/{id}/thumbnail`: the first page (WebP), or the core's
/// generic icon until it is rendered.
pub(super) async fn thumbnail(
    Path(id): Path<String>,
    headers: HeaderMap,
    owner: SignedIn,
) -> Result<Response, Refusal> {
    let id = record_id(&id)?;
    let thumb = blocking(&owner.state, move |org| org.documents().thumbnail(id)).await?;
    let etag = digest(id, &thumb.bytes);
    if fresh(&headers, &etag) {
        return Ok(not_modified(&etag));
    }
    let mut response = thumb.bytes.into_response();
    set(&mut response, header::CONTENT_TYPE, &thumb.content_type);
    set(&mut response, header::ETAG, &etag);
    set(&mut response, header::CACHE_CONTROL, CACHE);
    Ok(with_headers(response))
}

/// An `ETag` of document `id`'s `bytes` (a 64-bit FNV-1a digest): the
/// icon and the rendered page differ.
fn digest(id: Id, bytes: &[u8]) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        hash ^= u64::from(*b);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    format!("\"{id}-{hash:016x}\"")
}

/// `filename="..."; filename*=UTF-8''...` (RFC 6266): the name in ASCII
/// with anything else made `_`, and whole, percent-encoded.
pub(super) fn filename_params(name: &str) -> String {
    let plain: String = name
        .chars()
        .map(|c| {
            if (c.is_ascii_graphic() && c != '"' && c != '\\' && c != '%') || c == ' ' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let mut encoded = String::with_capacity(name.len());
    for b in name.bytes() {
        if b.is_ascii_alphanumeric() || b"!#$&+-.^_`|~".contains(&b) {
            encoded.push(char::from(b));
        } else {
            encoded.push_str(&format!("%{b:02X}"));
        }
    }
    format!("filename=\"{plain}\"; filename*=UTF-8''{encoded}")
}

#[cfg(test)]
mod tests {
    use super::filename_params;

    #[test]
    fn a_file_name_is_safe_in_its_header() {
        assert_eq!(
            filename_params("Invoice 3.pdf"),
            "filename=\"Invoice 3.pdf\"; filename*=UTF-8''Invoice%203.pdf"
        );
        assert_eq!(
            filename_params("a\"b\\c\r\nd é.pdf"),
            "filename=\"a_b_c__d _.pdf\"; filename*=UTF-8''a%22b%5Cc%0D%0Ad%20%C3%A9.pdf"
        );
    }
}
