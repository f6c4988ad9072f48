//! Web sessions (document 1, "Authentication", item 3): signing in with the
//! owner's username and password gives a session secret (the adapter keeps
//! it in a cookie) and a CSRF token that unsafe requests must echo in
//! `X-CSRF-Token`. The sign-in procedure is ours; the spec leaves it open.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jiff::{SignedDuration, Timestamp};
use serde::{Deserialize, Serialize};
use subtle::ConstantTimeEq;

use crate::auth::Auth;
use crate::engine::{Inner, WriteCx};
use crate::error::{Error, Result};
use crate::resources::account::tables::SESSIONS;
use crate::resources::account::{owner, password};
use crate::secrets::{random_bytes, sha256};
use crate::store::Tables;
use crate::store::schema::SINGLETONS;

/// How long a session lasts from sign-in.
const LIFETIME: SignedDuration = SignedDuration::from_hours(30 * 24);
/// How long a one-time sign-in link lasts (EXTENSIONS.md §6).
pub(crate) const LINK_LIFETIME: SignedDuration = SignedDuration::from_mins(15);
/// Where the one pending sign-in link is kept.
const LINK_KEY: &[u8] = b"sign_in_link";

/// A one-time sign-in link as kept: its secret's hash and its end.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Link {
    hash: Vec<u8>,
    #[serde(with = "crate::time::serde_timestamp")]
    expires_at: Timestamp,
}

/// A new one-time sign-in link (EXTENSIONS.md §6).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SignInLink {
    /// `/sign-in/once/{secret}` (absolute in an HTTP answer): shown once,
    /// its secret kept as a hash.
    pub url: String,
    /// When it stops working, if its first visit has not spent it.
    #[serde(with = "crate::time::serde_timestamp")]
    pub expires_at: Timestamp,
}

/// The link's address made absolute with `base` (the server's own).
pub(crate) fn absolute(mut link: SignInLink, base: &str) -> SignInLink {
    let base = base.trim_end_matches('/');
    if link.url.starts_with('/') && !base.is_empty() {
        link.url = format!("{base}{}", link.url);
    }
    link
}

/// A new session.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SignedIn {
    /// The session secret: the adapter's cookie value. Never shown again.
    #[serde(skip)]
    pub secret: String,
    /// The token unsafe requests echo in `X-CSRF-Token`.
    pub csrf_token: String,
    /// When the session ends.
    #[serde(with = "crate::time::serde_timestamp")]
    pub expires_at: Timestamp,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct Session {
    csrf_token: String,
    #[serde(with = "crate::time::serde_timestamp")]
    expires_at: Timestamp,
}

pub(crate) fn sign_in(
    cx: &mut WriteCx<'_>,
    username: &str,
    password_text: &str,
) -> Result<SignedIn> {
    let owner = owner::load(cx)?;
    let Some(hash) = owner.password_hash.as_deref() else {
        return Err(Error::invalid(
            "base",
            "the owner has no password yet; set one with `organiser password`",
        ));
    };
    let same_user = owner.username.to_lowercase() == username.trim().to_lowercase();
    // Verify even for a wrong username so timing does not tell which was wrong.
    let good = password::verify(password_text, hash) && same_user;
    if !good {
        return Err(Error::invalid("base", "the username or password is wrong"));
    }
    start(cx)
}

/// A new session.
fn start(cx: &WriteCx<'_>) -> Result<SignedIn> {
    let secret = URL_SAFE_NO_PAD.encode(random_bytes(32));
    let session = Session {
        csrf_token: URL_SAFE_NO_PAD.encode(random_bytes(24)),
        expires_at: cx.now() + LIFETIME,
    };
    cx.put_json(SESSIONS, &sha256(secret.as_bytes()), &session)?;
    Ok(SignedIn {
        secret,
        csrf_token: session.csrf_token,
        expires_at: session.expires_at,
    })
}

/// A new one-time sign-in link, valid for 15 minutes; it replaces any
/// link made before.
pub(crate) fn make_link(cx: &mut WriteCx<'_>) -> Result<SignInLink> {
    let secret = URL_SAFE_NO_PAD.encode(random_bytes(32));
    let link = Link {
        hash: sha256(secret.as_bytes()).to_vec(),
        expires_at: cx.now() + LINK_LIFETIME,
    };
    cx.put_json(SINGLETONS, LINK_KEY, &link)?;
    Ok(SignInLink {
        url: format!("/sign-in/once/{secret}"),
        expires_at: link.expires_at,
    })
}

/// Signs in with one-time link `secret`, which this spends: a new
/// session. 401 for a link that is unknown, spent, replaced or past its
/// 15 minutes (the same answer for each).
pub(crate) fn spend_link(cx: &mut WriteCx<'_>, secret: &str) -> Result<SignedIn> {
    let link: Option<Link> = cx.get_json(SINGLETONS, LINK_KEY)?;
    let hash = sha256(secret.as_bytes());
    let good = link
        .as_ref()
        .is_some_and(|l| bool::from(l.hash.as_slice().ct_eq(&hash)) && cx.now() < l.expires_at);
    if !good {
        return Err(Error::Unauthorized);
    }
    cx.remove(SINGLETONS, LINK_KEY)?;
    start(cx)
}

pub(crate) fn sign_out(cx: &mut WriteCx<'_>, secret: &str) -> Result<()> {
    cx.remove(SESSIONS, &sha256(secret.as_bytes()))?;
    Ok(())
}

/// The session a cookie names. `csrf` is the `X-CSRF-Token` header and is
/// required (and must match) when `unsafe_method`; a missing, unknown or
/// expired session, or a bad CSRF token, is 401.
pub(crate) fn authenticate(
    inner: &Inner,
    secret: &str,
    csrf: Option<&str>,
    unsafe_method: bool,
) -> Result<Auth> {
    let key = sha256(secret.as_bytes());
    let session: Session = inner
        .read(|cx| cx.get_json(SESSIONS, &key))?
        .ok_or(Error::Unauthorized)?;
    if session.expires_at <= inner.options.clock.now() {
        inner.write(|cx| cx.remove(SESSIONS, &key).map(drop))?;
        return Err(Error::Unauthorized);
    }
    if unsafe_method {
        let sent = csrf.unwrap_or_default();
        if !bool::from(sent.as_bytes().ct_eq(session.csrf_token.as_bytes())) {
            return Err(Error::Unauthorized);
        }
    }
    Ok(Auth::Session {
        csrf_token: session.csrf_token,
    })
}
