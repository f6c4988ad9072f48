//! API tokens (document 1, "Authentication"; DESIGN.md session-only
//! operations): made, listed and revoked by the owner; stored as SHA-256
//! hashes and compared in constant time; `expires_at` enforced and
//! `last_used_at` kept to the minute.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jiff::{SignedDuration, Timestamp};
use serde::{Deserialize, Serialize};
use subtle::ConstantTimeEq;

use crate::account::Auth;
use crate::error::{Details, Error, Result};
use crate::organiser::{Cx, Inner, WriteCx};
use crate::secrets::{random_bytes, sha256};
use crate::store::schema::API_TOKENS;
use crate::store::{Dir, Tables};
use crate::text::{char_len, squish};

/// Every token begins with this, so it is recognisable in a leak scan.
pub(crate) const PREFIX: &str = "org_";

/// `last_used_at` is rewritten at most this often.
const LAST_USED_GRANULARITY: SignedDuration = SignedDuration::from_secs(60);

/// An API token as the API shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ApiToken {
    /// The token's number.
    pub id: u64,
    /// The owner's label for it.
    pub name: String,
    /// When it was made.
    #[serde(with = "crate::time::serde_timestamp")]
    pub created_at: Timestamp,
    /// When it stops working; null for never.
    #[serde(with = "crate::time::serde_timestamp::option")]
    pub expires_at: Option<Timestamp>,
    /// When it was last used (to the minute).
    #[serde(with = "crate::time::serde_timestamp::option")]
    pub last_used_at: Option<Timestamp>,
}

/// A token just made: the only time its secret is shown.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NewToken {
    /// The token's record.
    #[serde(flatten)]
    pub token: ApiToken,
    /// What a client sends as `Authorization: Bearer <secret>`.
    pub secret: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct StoredToken {
    #[serde(flatten)]
    token: ApiToken,
    /// Hex SHA-256 of the secret part.
    hash: String,
}

fn key(id: u64) -> [u8; 8] {
    id.to_be_bytes()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Splits `org_<id>_<secret>`.
fn split(bearer: &str) -> Option<(u64, &str)> {
    let rest = bearer.strip_prefix(PREFIX)?;
    let (id, secret) = rest.split_once('_')?;
    if id.is_empty() || !id.bytes().all(|b| b.is_ascii_digit()) || secret.len() < 32 {
        return None;
    }
    Some((id.parse().ok()?, secret))
}

pub(crate) fn create(
    cx: &mut WriteCx<'_>,
    auth: &Auth,
    name: &str,
    expires_at: Option<Timestamp>,
) -> Result<NewToken> {
    auth.require_session()?;
    let mut details = Details::new();
    let name = squish(name);
    if name.is_empty() {
        details.add("name", "can't be blank");
    } else if char_len(&name) > 100 {
        details.add("name", "is too long (maximum is 100 characters)");
    }
    if expires_at.is_some_and(|t| t <= cx.now()) {
        details.add("expires_at", "must be in the future");
    }
    details.into_validation()?;

    let last = cx.first_key(
        API_TOKENS,
        std::ops::Bound::Unbounded,
        std::ops::Bound::Unbounded,
        Dir::Desc,
    )?;
    let id = last
        .and_then(|k| k.try_into().ok())
        .map(u64::from_be_bytes)
        .unwrap_or(0)
        + 1;
    let secret_part = URL_SAFE_NO_PAD.encode(random_bytes(32));
    let token = ApiToken {
        id,
        name,
        created_at: cx.now(),
        expires_at,
        last_used_at: None,
    };
    let stored = StoredToken {
        token: token.clone(),
        hash: hex(&sha256(secret_part.as_bytes())),
    };
    cx.put_json(API_TOKENS, &key(id), &stored)?;
    Ok(NewToken {
        token,
        secret: format!("{PREFIX}{id}_{secret_part}"),
    })
}

pub(crate) fn list<T: Tables>(cx: &Cx<'_, T>, auth: &Auth) -> Result<Vec<ApiToken>> {
    auth.require_session()?;
    let mut tokens = Vec::new();
    cx.scan(
        API_TOKENS,
        std::ops::Bound::Unbounded,
        std::ops::Bound::Unbounded,
        Dir::Asc,
        &mut |_, v| {
            let stored: StoredToken = serde_json::from_slice(v)?;
            tokens.push(stored.token);
            Ok(true)
        },
    )?;
    Ok(tokens)
}

pub(crate) fn revoke(cx: &mut WriteCx<'_>, auth: &Auth, id: u64) -> Result<()> {
    auth.require_session()?;
    if cx.remove(API_TOKENS, &key(id))? {
        Ok(())
    } else {
        Err(Error::NotFound)
    }
}

/// The token a bearer secret names; 401 for a malformed, unknown, wrong or
/// expired one.
pub(crate) fn authenticate(inner: &Inner, bearer: &str) -> Result<ApiToken> {
    let (id, secret) = split(bearer.trim()).ok_or(Error::Unauthorized)?;
    let stored: StoredToken = inner
        .read(|cx| cx.get_json(API_TOKENS, &key(id)))?
        .ok_or(Error::Unauthorized)?;
    let presented = hex(&sha256(secret.as_bytes()));
    if !bool::from(presented.as_bytes().ct_eq(stored.hash.as_bytes())) {
        return Err(Error::Unauthorized);
    }
    let now = inner.options.clock.now();
    if stored.token.expires_at.is_some_and(|t| t <= now) {
        return Err(Error::Unauthorized);
    }
    let stale = stored
        .token
        .last_used_at
        .is_none_or(|t| now.duration_since(t) >= LAST_USED_GRANULARITY);
    if !stale {
        return Ok(stored.token);
    }
    inner.write(|cx| {
        // Revoked meanwhile: refuse rather than bring it back.
        let mut fresh: StoredToken = cx
            .get_json(API_TOKENS, &key(id))?
            .ok_or(Error::Unauthorized)?;
        fresh.token.last_used_at = Some(cx.now());
        cx.put_json(API_TOKENS, &key(id), &fresh)?;
        Ok(fresh.token)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bearer_secrets_split_into_id_and_secret() {
        let secret = "a".repeat(43);
        assert_eq!(
            split(&format!("org_12_{secret}")),
            Some((12, secret.as_str()))
        );
        let with_underscore = format!("org_3_{}_x", "b".repeat(40));
        assert_eq!(split(&with_underscore).map(|(id, _)| id), Some(3));
        for bad in [
            "",
            "org_",
            "org_x_abc",
            "org_1_short",
            "tok_1_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
        ] {
            assert_eq!(split(bad), None, "{bad}");
        }
    }
}
