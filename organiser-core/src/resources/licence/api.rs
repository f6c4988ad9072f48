//! The licence's operations (document 1, "Licence"; DESIGN.md: `PUT` and
//! `DELETE /licence` are session only), each declared once for the typed
//! method and the route arm. All are exempt from read-only mode: adding a
//! key is how the owner leaves it.

use super::{Licence, add_key, get, onboard, remove_key};
use crate::auth::Auth;
use crate::engine::Organiser;
use crate::engine::endpoint::Endpoint;
use crate::engine::op::{ReadOp, Route, WriteOp};
use crate::engine::request::{Method, Request, Response};
use crate::error::{Error, Result};
use crate::input;

static GET: ReadOp = ReadOp::PLAIN;
static ADD_KEY: WriteOp = WriteOp::EXEMPT;
static REMOVE_KEY: WriteOp = WriteOp::EXEMPT;
static ONBOARD: WriteOp = WriteOp::EXEMPT;

impl Organiser {
    /// `GET /licence`.
    pub fn licence(&self) -> Result<Licence> {
        self.inner.read_op(&GET, get)
    }

    /// `PUT /licence` (session only).
    pub fn add_licence_key(&self, auth: &Auth, key: &str) -> Result<Licence> {
        self.inner
            .write_op(&ADD_KEY, |cx| add_key(cx, auth, Some(key)))
    }

    /// `DELETE /licence` (session only).
    pub fn remove_licence_key(&self, auth: &Auth) -> Result<Licence> {
        self.inner.write_op(&REMOVE_KEY, |cx| remove_key(cx, auth))
    }

    /// `POST /licence/onboarding`.
    pub fn finish_licence_onboarding(&self, auth: &Auth) -> Result<Licence> {
        self.inner.write_op(&ONBOARD, |cx| onboard(cx, auth))
    }
}

/// `{key}` of `PUT /licence`.
fn parse_key(body: Option<&serde_json::Value>) -> Result<Option<String>> {
    let mut f = input::top(body)?;
    let key = f.string("key");
    f.finish()?;
    Ok(key.value())
}

/// `/licence`.
/// The routes of [`routes`].
pub(crate) static ENDPOINTS: &[Endpoint] = {
    use Method::{Delete, Get, Patch, Post, Put};
    &[
        Endpoint::new(Get, "/licence"),
        Endpoint::new(Put, "/licence"),
        Endpoint::new(Patch, "/licence"),
        Endpoint::new(Delete, "/licence"),
        Endpoint::new(Post, "/licence/onboarding"),
    ]
};

pub(crate) fn routes<'r>(req: &'r Request, segments: &[&'r str]) -> Result<Route<'r>> {
    use Method::{Delete, Get, Patch, Post, Put};
    let auth = &req.auth;
    let body = req.body.as_ref();
    Ok(match (req.method, segments) {
        (Get, ["licence"]) => GET.route(|cx| Ok(Response::data(200, &get(cx)?))),
        (Put | Patch, ["licence"]) => ADD_KEY.route(
            move || {
                auth.require_session()?;
                parse_key(body)
            },
            move |cx, key| Ok(Response::data(200, &add_key(cx, auth, key.as_deref())?)),
        ),
        (Delete, ["licence"]) => {
            REMOVE_KEY.run(move |cx| Ok(Response::data(200, &remove_key(cx, auth)?)))
        }
        (Post, ["licence", "onboarding"]) => {
            ONBOARD.run(move |cx| Ok(Response::data(200, &onboard(cx, auth)?)))
        }
        _ => return Err(Error::NotFound),
    })
}
