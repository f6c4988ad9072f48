//! The API reference (DESIGN.md "Running it"): the OpenAPI 3.1 document of
//! every route this build answers, `docs/openapi.json` (here through a
//! link, so that the packaged crate holds it), compiled in and served by
//! `GET /api/v1/openapi.json` to anyone, bare (not wrapped in `data`).
//! The tests hold it to the routes (`resources::ENDPOINTS`) and every
//! response they see to its schemas.

use crate::engine::Organiser;
use crate::engine::endpoint::Endpoint;
use crate::engine::op::{PlainOp, Route};
use crate::engine::request::{Method, Request, Response};
use crate::error::{Error, Result};

/// The OpenAPI document, as `docs/openapi.json` holds it.
pub const OPENAPI: &str = include_str!("openapi.json");

static GET: PlainOp = PlainOp::PUBLIC;

impl Organiser {
    /// The OpenAPI document of the API (`GET /openapi.json`).
    pub fn openapi(&self) -> &'static str {
        OPENAPI
    }
}

/// The routes of [`routes`].
pub(crate) static ENDPOINTS: &[Endpoint] = &[Endpoint::new(Method::Get, "/openapi.json")];

/// `/openapi.json`: fixed data, for anyone.
pub(crate) fn routes<'r>(req: &'r Request, segments: &[&'r str]) -> Result<Route<'r>> {
    Ok(match (req.method, segments) {
        (Method::Get, ["openapi.json"]) => GET.route(|_| {
            Ok(Response {
                status: 200,
                body: Some(OPENAPI.as_bytes().to_vec()),
                replayed: false,
                headers: Vec::new(),
            })
        }),
        _ => return Err(Error::NotFound),
    })
}
