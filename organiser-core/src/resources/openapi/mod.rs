//! The API reference (DESIGN.md "Running it"): the OpenAPI 3.1 document of
//! every route this build answers, written from the declarations
//! (`generate.rs`), checked in as `docs/openapi.json` (here through a
//! link, `document.json`, so that the packaged crate holds it), compiled
//! in and served by `GET /api/v1/openapi.json` to anyone, bare (not
//! wrapped in `data`). The tests hold the file to what the declarations
//! write, and every response they see to its schemas.

mod generate;

pub use generate::{Unwritable, openapi_document};

use crate::engine::Organiser;
use crate::engine::op::PlainOp;
use crate::engine::operation::{Answer, Declared, Operation, Run};
use crate::engine::request::Method::Get;
use crate::engine::request::Response;
use crate::error::Error;

/// The OpenAPI document, as `docs/openapi.json` holds it.
pub const OPENAPI: &str = include_str!("document.json");

/// `GET /openapi.json`: fixed data, for anyone, bare (not wrapped in
/// `data`).
pub(crate) static GET: Operation<(), &'static str> = Operation::new(
    "getOpenApi",
    Get,
    "/openapi.json",
    "This document\n\nNeeds no token. Compiled into the server.",
    Run::Plain(PlainOp::PUBLIC, |_, ()| Ok(OPENAPI)),
    Answer::raw(
        |doc, _| Response {
            status: 200,
            body: Some(doc.as_bytes().to_vec()),
            replayed: false,
            headers: Vec::new(),
        },
        |_| {
            Err(Error::Internal(
                "the OpenAPI document is this build's".into(),
            ))
        },
    ),
);

/// The OpenAPI document's operation, for the registry.
pub(crate) static OPERATIONS: &[&dyn Declared] = &[&GET];

impl Organiser {
    /// The OpenAPI document of the API this build serves.
    pub fn openapi(&self) -> &'static str {
        OPENAPI
    }
}
