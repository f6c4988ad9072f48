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
use crate::engine::op::{ReadOp, Route};
use crate::engine::request::{Request, Response};
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

/// `GET /avatars/{signed}` and `/avatars/{signed}/thumb|large`: a
/// redirect to the bytes; `GET /avatars/{signed}/files/{size}`: the bytes.
pub(crate) fn route<'r>(req: &'r Request, signed: &'r str, rest: &[&'r str]) -> Result<Route<'r>> {
    let (which, file) = match rest {
        [] => ("original", false),
        [which] => (*which, false),
        ["files", which] => (*which, true),
        _ => return Err(Error::NotFound),
    };
    // Public: whoever asks learns only that there is no such photo.
    Ok(super::api::PHOTO.route(move |inner| {
        let thumbnail = size(which).ok_or(Error::NotFound)?;
        let upload = upload(inner, signed)?;
        if !file {
            let base = req.base_url.trim_end_matches('/');
            return Ok(Response::redirect(format!(
                "{base}{AVATARS}/{signed}/files/{which}"
            )));
        }
        let (name, content_type) = match thumbnail {
            None => (uploads::file_name(upload.id), upload.content_type.as_str()),
            Some(px) => (uploads::thumbnail_name(upload.id, px), "image/webp"),
        };
        let bytes = inner.files.read(&name).map_err(|_| Error::NotFound)?;
        Ok(Response::file(content_type, bytes))
    }))
}
