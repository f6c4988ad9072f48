//! The uploads' operation, declared once for the typed method and the
//! route arm, and which routes take a raw body rather than JSON.

use super::{Kind, Params, Upload, check_header, create, prepare};
use crate::auth::Auth;
use crate::engine::Organiser;
use crate::engine::endpoint::Endpoint;
use crate::engine::op::{Route, WriteOp};
use crate::engine::request::{Method, Request, Response};
use crate::error::{Error, Result};
use crate::list::Query;
use crate::resources::vocabulary::UploadRule;

static CREATE: WriteOp = WriteOp::LICENSED.idempotent();

impl Organiser {
    /// `POST /uploads?kind=..&filename=..`: `bytes` sent with the
    /// `Content-Type` header `content_type`.
    pub fn upload(&self, query: &Query, content_type: &str, bytes: Vec<u8>) -> Result<Upload> {
        let params = Params::parse(query)?;
        let request =
            Request::new(Method::Post, "/uploads", Auth::Local).with_raw(content_type, bytes);
        let prepared = prepare(&self.inner, &request, params)?;
        self.inner.write_op(&CREATE, |cx| create(cx, prepared))
    }
}

/// The routes of [`routes`].
pub(crate) static ENDPOINTS: &[Endpoint] = &[Endpoint::new(Method::Post, "/uploads")];

pub(crate) fn routes<'r>(req: &'r Request, segments: &[&'r str]) -> Result<Route<'r>> {
    Ok(match (req.method, segments) {
        (Method::Post, ["uploads"]) => CREATE.route_with(
            move |inner| prepare(inner, req, Params::parse(&req.query)?),
            |cx, prepared| Ok(Response::data(201, &create(cx, prepared)?)),
        ),
        _ => return Err(Error::NotFound),
    })
}

/// Whether the route of `method` and `path` (below `/api/v1`) takes a raw
/// body (the file's bytes) rather than JSON: `None` for a JSON route. For
/// a raw route, what it accepts (the size and `Content-Type`s of its
/// kind, from the vocabulary's `uploads`) so the server can answer 411,
/// 413 and 415 before it reads the body, or the error to answer at once:
/// 401 without credentials, 400 for a malformed query. The core checks
/// the same again when the body arrives.
pub fn raw_body_rule(
    method: Method,
    path: &str,
    query: &Query,
    auth: &Auth,
) -> Option<Result<UploadRule>> {
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let kind = match (method, segments.as_slice()) {
        (Method::Post, ["uploads"]) => None,
        (Method::Put | Method::Patch, ["people", _, "avatar"]) => Some(Kind::Avatar),
        _ => return None,
    };
    Some(accepts(kind, query, auth))
}

/// What a raw route accepts: `kind` when the route names one, else the
/// query's.
fn accepts(kind: Option<Kind>, query: &Query, auth: &Auth) -> Result<UploadRule> {
    if *auth == Auth::Anonymous {
        return Err(Error::Unauthorized);
    }
    let kind = match kind {
        Some(kind) => kind,
        None => Params::parse(query)?.kind,
    };
    Ok(kind.rule())
}

/// Checks a raw body's declared length and type against `rule`, as the
/// core checks the body itself: 413 past the kind's size, 415 for a type
/// it does not take.
pub fn check_raw_header(rule: UploadRule, content_type: &str, length: u64) -> Result<()> {
    check_header(rule, content_type, length)
}
