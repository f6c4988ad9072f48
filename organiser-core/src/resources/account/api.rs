//! The account's operations (document 1, "Me", "Appearance", "API
//! tokens"; DESIGN.md session-only operations), each declared once for the
//! typed method and the route arm. The account is exempt from read-only
//! mode: the owner can always fix their settings and their licence.

use jiff::Timestamp;

use super::{appearance, owner, sessions, tokens};
use crate::auth::{ApiToken, Auth};
use crate::engine::Organiser;
use crate::engine::endpoint::Endpoint;
use crate::engine::op::{PlainOp, ReadOp, Route, WriteOp};
use crate::engine::request::{Method, Request, Response};
use crate::error::{Error, Result};
use crate::input;
use crate::{Appearance, AppearanceChange, Me, NewToken, OwnerChange, OwnerInit, SignedIn};

static ME: PlainOp = PlainOp::PRIVATE;
static INIT: WriteOp = WriteOp::EXEMPT;
static CHANGE_ME: WriteOp = WriteOp::EXEMPT;
static SET_USERNAME: WriteOp = WriteOp::EXEMPT;
static SET_PASSWORD: WriteOp = WriteOp::EXEMPT;
static APPEARANCE: ReadOp = ReadOp::PLAIN;
static CHANGE_APPEARANCE: WriteOp = WriteOp::EXEMPT;
static TOKENS: ReadOp = ReadOp::PLAIN;
static CREATE_TOKEN: WriteOp = WriteOp::EXEMPT.idempotent();
static REVOKE_TOKEN: WriteOp = WriteOp::EXEMPT;
static SIGN_IN: WriteOp = WriteOp::EXEMPT;
static SIGN_OUT: WriteOp = WriteOp::EXEMPT;

impl Organiser {
    /// `GET /me` as `auth` sees it.
    pub fn me(&self, auth: &Auth) -> Result<Me> {
        owner::me(&self.inner.no_tx(), auth)
    }

    /// Sets the owner up (`organiser init`); refused once set up.
    pub fn init_owner(&self, init: &OwnerInit) -> Result<Me> {
        self.inner.write_op(&INIT, |cx| owner::init(cx, init))
    }

    /// `PATCH /me`: changes the owner's name or zone.
    pub fn change_owner(&self, auth: &Auth, change: &OwnerChange) -> Result<Me> {
        self.inner
            .write_op(&CHANGE_ME, |cx| owner::change(cx, auth, change))
    }

    /// `PUT /me/username` (session only).
    pub fn set_username(&self, auth: &Auth, username: &str) -> Result<Me> {
        let username = input::Field::Value(username.to_owned());
        self.inner
            .write_op(&SET_USERNAME, |cx| owner::set_username(cx, auth, username))
    }

    /// `PUT /me/password` (session only); `current` is required once a
    /// password is set.
    pub fn set_password(&self, auth: &Auth, current: Option<&str>, new: &str) -> Result<Me> {
        self.inner.write_op(&SET_PASSWORD, |cx| {
            owner::set_password(cx, auth, current, Some(new))
        })
    }

    /// `GET /appearance`.
    pub fn appearance(&self) -> Result<Appearance> {
        self.inner.read_op(&APPEARANCE, appearance::get)
    }

    /// `PATCH /appearance`.
    pub fn change_appearance(&self, change: AppearanceChange) -> Result<Appearance> {
        self.inner
            .write_op(&CHANGE_APPEARANCE, |cx| appearance::change(cx, change))
    }

    /// `GET /api_tokens` (session only).
    pub fn tokens(&self, auth: &Auth) -> Result<Vec<ApiToken>> {
        self.inner.read_op(&TOKENS, |cx| tokens::list(cx, auth))
    }

    /// `POST /api_tokens` (session only): the secret is shown only here.
    pub fn create_token(
        &self,
        auth: &Auth,
        name: &str,
        expires_at: Option<Timestamp>,
    ) -> Result<NewToken> {
        self.inner.write_op(&CREATE_TOKEN, |cx| {
            tokens::create(cx, auth, name, expires_at)
        })
    }

    /// `DELETE /api_tokens/{id}` (session only).
    pub fn revoke_token(&self, auth: &Auth, id: u64) -> Result<()> {
        self.inner
            .write_op(&REVOKE_TOKEN, |cx| tokens::revoke(cx, auth, id))
    }

    /// The principal a bearer token authenticates as; 401 when it does not.
    /// Reads the store only the first time a token is seen; its use is kept
    /// in memory until [`Organiser::flush_token_uses`].
    pub fn authenticate_token(&self, bearer: &str) -> Result<Auth> {
        tokens::authenticate(&self.inner, bearer).map(Auth::Token)
    }

    /// Writes the `last_used_at` of tokens used since the last flush (the
    /// server does this every minute and on shutdown); whether anything
    /// was written.
    pub fn flush_token_uses(&self) -> Result<bool> {
        tokens::flush_uses(&self.inner)
    }

    /// Signs the owner in with username and password.
    pub fn sign_in(&self, username: &str, password: &str) -> Result<SignedIn> {
        self.inner
            .write_op(&SIGN_IN, |cx| sessions::sign_in(cx, username, password))
    }

    /// Ends a session.
    pub fn sign_out(&self, session_secret: &str) -> Result<()> {
        self.inner
            .write_op(&SIGN_OUT, |cx| sessions::sign_out(cx, session_secret))
    }

    /// The principal a session cookie authenticates as; `csrf` must match
    /// for an unsafe method. 401 when it does not.
    pub fn authenticate_session(
        &self,
        session_secret: &str,
        csrf: Option<&str>,
        unsafe_method: bool,
    ) -> Result<Auth> {
        sessions::authenticate(&self.inner, session_secret, csrf, unsafe_method)
    }
}

/// `/me`, `/appearance` and `/api_tokens`.
/// The routes of [`routes`].
pub(crate) static ENDPOINTS: &[Endpoint] = {
    use Method::{Delete, Get, Patch, Post, Put};
    &[
        Endpoint::new(Get, "/me"),
        Endpoint::new(Patch, "/me"),
        Endpoint::new(Put, "/me"),
        Endpoint::new(Put, "/me/username"),
        Endpoint::new(Patch, "/me/username"),
        Endpoint::new(Put, "/me/password"),
        Endpoint::new(Patch, "/me/password"),
        Endpoint::new(Get, "/appearance"),
        Endpoint::new(Patch, "/appearance"),
        Endpoint::new(Put, "/appearance"),
        Endpoint::new(Get, "/api_tokens"),
        Endpoint::new(Post, "/api_tokens"),
        Endpoint::new(Delete, "/api_tokens/{id}"),
    ]
};

pub(crate) fn routes<'r>(req: &'r Request, segments: &[&'r str]) -> Result<Route<'r>> {
    use Method::{Delete, Get, Patch, Post, Put};
    let auth = &req.auth;
    let body = req.body.as_ref();
    Ok(match (req.method, segments) {
        (Get, ["me"]) => {
            ME.route(move |inner| Ok(Response::data(200, &owner::me(&inner.no_tx(), auth)?)))
        }
        (Patch | Put, ["me"]) => CHANGE_ME.route(
            move || input::parse_record(body, "me", owner::parse_change),
            move |cx, change| Ok(Response::data(200, &owner::change(cx, auth, &change)?)),
        ),
        (Put | Patch, ["me", "username"]) => SET_USERNAME.route(
            move || owner::parse_username(body),
            move |cx, username| {
                Ok(Response::data(
                    200,
                    &owner::set_username(cx, auth, username)?,
                ))
            },
        ),
        (Put | Patch, ["me", "password"]) => SET_PASSWORD.route(
            move || owner::parse_password(body),
            move |cx, (current, new)| {
                let me = owner::set_password(cx, auth, current.as_deref(), new.as_deref())?;
                Ok(Response::data(200, &me))
            },
        ),
        (Get, ["appearance"]) => {
            APPEARANCE.route(|cx| Ok(Response::data(200, &appearance::get(cx)?)))
        }
        (Patch | Put, ["appearance"]) => CHANGE_APPEARANCE.route(
            move || input::parse_record(body, "appearance", appearance::parse),
            |cx, change| Ok(Response::data(200, &appearance::change(cx, change)?)),
        ),
        (Get, ["api_tokens"]) => {
            TOKENS.route(move |cx| Ok(Response::data(200, &tokens::list(cx, auth)?)))
        }
        (Post, ["api_tokens"]) => CREATE_TOKEN.route(
            move || {
                auth.require_session()?;
                tokens::parse(body)
            },
            move |cx, (name, expires_at)| {
                let made = tokens::create(cx, auth, &name, expires_at)?;
                Ok(Response::data(201, &made))
            },
        ),
        (Delete, ["api_tokens", id]) => {
            let id: u64 = id.parse().map_err(|_| Error::NotFound)?;
            REVOKE_TOKEN.run(move |cx| {
                tokens::revoke(cx, auth, id)?;
                Ok(Response::no_content())
            })
        }
        _ => return Err(Error::NotFound),
    })
}
