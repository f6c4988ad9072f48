//! A person's photo (document 3, "Avatar", `avatar` of PersonFields): an
//! avatar upload the person takes, its addresses, and the routes that
//! serve it to anyone with a link.
//!
//! The addresses name the upload by its signed ID, so they cannot be
//! guessed: `/api/v1/avatars/{signed}` (and `/thumb`, `/large`) redirect
//! to `/api/v1/avatars/{signed}/files/original` (`thumb`, `large`), which
//! answer the bytes with a type and a year of caching. A person's stored
//! `avatar` holds them from `/api/v1` on; answers make them absolute with
//! the request's base URL (typed methods leave them as they are stored).

use super::{Avatar, Person};
use crate::engine::Inner;
use crate::engine::op::ReadOp;
use crate::engine::request::{FileBytes, Request, Response};
use crate::error::{Error, Result};
use crate::ids::Id;
use crate::resources::uploads::{self, Kind, Stored};
use crate::secrets::SecretKey;

/// Where the photos are served.
const AVATARS: &str = "/api/v1/avatars";

static SERVE: ReadOp = ReadOp::PLAIN;

/// The addresses of the photo `upload`, from `/api/v1` on.
pub(crate) fn avatar_of(key: &SecretKey, upload: Id) -> Avatar {
    let signed = uploads::sign(key, upload);
    Avatar {
        url: format!("{AVATARS}/{signed}"),
        thumb_url: format!("{AVATARS}/{signed}/thumb"),
        large_url: format!("{AVATARS}/{signed}/large"),
    }
}

/// The upload a stored photo's addresses name.
pub(crate) fn upload_of(key: &SecretKey, avatar: &Avatar) -> Option<Id> {
    let signed = avatar.url.strip_prefix(AVATARS)?.trim_start_matches('/');
    uploads::verify(key, signed)
}

/// The person's photo addresses made absolute with `base` (the scheme,
/// host and port a client reached the server at).
pub(crate) fn absolute(mut person: Person, base: &str) -> Person {
    if let Some(avatar) = &mut person.avatar {
        absolute_avatar(avatar, base);
    }
    person
}

/// One photo's addresses made absolute with `base`.
pub(crate) fn absolute_avatar(avatar: &mut Avatar, base: &str) {
    let base = base.trim_end_matches('/');
    if base.is_empty() {
        return;
    }
    for url in [
        &mut avatar.url,
        &mut avatar.thumb_url,
        &mut avatar.large_url,
    ] {
        if url.starts_with('/') {
            *url = format!("{base}{url}");
        }
    }
}

/// A size of a photo: the upload itself, or a thumbnail.
fn size(name: &str) -> Option<Option<u32>> {
    match name {
        "original" => Some(None),
        "thumb" => Some(Some(128)),
        "large" => Some(Some(256)),
        _ => None,
    }
}

/// The avatar upload a signed ID names: 404 for anything else.
fn upload(inner: &Inner, signed: &str) -> Result<Stored> {
    let id = uploads::verify(&inner.secret, signed).ok_or(Error::NotFound)?;
    let upload = inner.read_op(&SERVE, |cx| uploads::get(cx, id))?;
    match upload {
        Some(u) if u.kind == Kind::Avatar && u.used => Ok(u),
        _ => Err(Error::NotFound),
    }
}

/// Where a photo's bytes are, below `/api/v1`: `GET /avatars/{signed}`
/// and `/avatars/{signed}/thumb|large` redirect there.
pub(crate) fn located(inner: &Inner, signed: &str, which: &str) -> Result<String> {
    size(which).ok_or(Error::NotFound)?;
    upload(inner, signed)?;
    Ok(format!("{AVATARS}/{signed}/files/{which}"))
}

/// The redirect to `location` (from `/api/v1` on), absolute with the
/// request's base URL.
pub(crate) fn redirect(location: String, req: &Request) -> Response {
    let base = req.base_url.trim_end_matches('/');
    Response::redirect(format!("{base}{location}"))
}

/// Where a redirect points.
pub(crate) fn read_redirect(response: &Response) -> Result<String> {
    response
        .header("location")
        .map(str::to_owned)
        .ok_or_else(|| Error::Internal("a redirect without a location".into()))
}

/// `GET /avatars/{signed}/files/{size}`: the bytes of a photo, or of a
/// thumbnail of it.
pub(crate) fn file(inner: &Inner, signed: &str, which: &str) -> Result<FileBytes> {
    let thumbnail = size(which).ok_or(Error::NotFound)?;
    let upload = upload(inner, signed)?;
    let (name, content_type) = match thumbnail {
        None => (uploads::file_name(upload.id), upload.content_type.clone()),
        Some(px) => (
            uploads::thumbnail_name(upload.id, px),
            "image/webp".to_owned(),
        ),
    };
    let bytes = inner.files.read(&name).map_err(|_| Error::NotFound)?;
    Ok(FileBytes {
        content_type,
        filename: upload.filename,
        bytes,
    })
}

/// A photo read back from its answer.
pub(crate) fn read_file(response: &Response) -> Result<FileBytes> {
    Ok(FileBytes {
        content_type: response
            .header("content-type")
            .unwrap_or("application/octet-stream")
            .to_owned(),
        filename: String::new(),
        bytes: response.body.clone().unwrap_or_default(),
    })
}
