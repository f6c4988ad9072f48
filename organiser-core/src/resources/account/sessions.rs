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

/// How long a session lasts from sign-in.
const LIFETIME: SignedDuration = SignedDuration::from_hours(30 * 24);

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
