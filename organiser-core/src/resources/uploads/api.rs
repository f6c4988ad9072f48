//! The uploads' operation (document 1, "Vocabulary" `uploads`; DESIGN.md
//! "Uploads"), declared once, and [`Uploads`], its typed door.

use super::{Upload, UploadKind, UploadParams, create, prepare};
use crate::engine::Organiser;
use crate::engine::op::WriteOp;
use crate::engine::operation::{Answer, Declared, Door, Operation, Prepare, Run, query_part};
use crate::engine::request::Method::Post;
use crate::engine::request::RawBody;
use crate::error::Result;
use crate::list::Query;

query_part!(UploadParams);

/// `POST /uploads?kind=..&filename=..`: the file's bytes are the body;
/// it is checked, decoded and written to disk before the transaction.
pub(crate) static CREATE: Operation<(UploadParams, RawBody), Upload, super::Prepared> =
    Operation::new(
        "createUpload",
        Post,
        "/uploads",
        "Upload a file\n\nThe body is the file's bytes (not JSON), with `Content-Length` (else 411) of at most the kind's `max_bytes` in the vocabulary's `uploads` (else 413, answered before the body is read) and a `Content-Type` among the kind's `content_types` (else 415). The type is read from the bytes: they must be one of the kind's types (JPEG, PNG, WebP or GIF for `avatar` and `note_image`, PDF for `document`), else 422 on `file`; images are decoded in full, so a corrupt or cut-short image is 422 too. An avatar's 128 and 256 pixel thumbnails are made at once. An upload that no record takes is removed after 24 hours.",
        Run::Write(
            WriteOp::LICENSED.idempotent(),
            Prepare::with(|inner, (params, raw)| prepare(inner, &raw, params)),
            create,
        ),
        Answer::data(201),
    )
    .raw_body(|query: &Query| Ok(UploadParams::parse(query)?.kind.rule()));

/// The uploads' operation, for the registry.
pub(crate) static OPERATIONS: &[&dyn Declared] = &[&CREATE];

/// The uploads of a store (files that become photos, note images and
/// documents), through a [`Door`]: the store itself (`org.uploads()`), or
/// a server that holds it.
#[derive(Debug, Clone, Copy)]
pub struct Uploads<'d, D = Organiser> {
    door: &'d D,
}

impl<'d, D: Door> Uploads<'d, D> {
    /// The uploads of the store behind `door`.
    pub fn new(door: &'d D) -> Self {
        Uploads { door }
    }

    /// Uploads `bytes` (sent as `content_type`) as a file of `kind` named
    /// `filename`; what names it elsewhere is its `signed_id`. An upload
    /// nothing uses within a day is deleted.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidParameter`](crate::Error::InvalidParameter) for a
    /// blank or too long filename; [`Error::PayloadTooLarge`](crate::Error::PayloadTooLarge)
    /// past the kind's size; [`Error::UnsupportedMediaType`](crate::Error::UnsupportedMediaType)
    /// for a type the kind does not take; [`Error::Validation`](crate::Error::Validation)
    /// on `file` for bytes that are not what they claim (or an image too
    /// large to decode).
    pub fn create(
        &self,
        kind: UploadKind,
        filename: &str,
        content_type: &str,
        bytes: Vec<u8>,
    ) -> Result<Upload> {
        let params = UploadParams::new(kind, filename)?;
        let raw = RawBody {
            content_type: content_type.to_owned(),
            bytes,
        };
        self.door.call(&CREATE, (params, raw))
    }
}

impl Organiser {
    /// The store's uploads.
    pub fn uploads(&self) -> Uploads<'_> {
        Uploads::new(self)
    }
}
