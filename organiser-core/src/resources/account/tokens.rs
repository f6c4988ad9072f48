//! API tokens (document 1, "Authentication"; DESIGN.md session-only
//! operations): made, listed and revoked by the owner; stored as SHA-256
//! hashes and compared in constant time; `expires_at` enforced and
//! `last_used_at` kept to the minute.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jiff::{SignedDuration, Timestamp};
use serde::{Deserialize, Serialize};
use subtle::ConstantTimeEq;

use crate::auth::{ApiToken, Auth};
use crate::error::{Details, Error, Result};
use crate::input::Field;
use std::collections::HashMap;
use std::sync::Mutex;

use crate::engine::{Cx, Inner, WriteCx};
use crate::resources::account::tables::API_TOKENS;
use crate::secrets::{random_bytes, sha256, to_hex};
use crate::store::schema::SINGLETONS;
use crate::store::{Dir, Tables};
use crate::text::squished_required;
use crate::time::to_millis;

/// Every token begins with this, so it is recognisable in a leak scan.
pub(crate) const PREFIX: &str = "org_";

/// `last_used_at` is rewritten at most this often.
const LAST_USED_GRANULARITY: SignedDuration = SignedDuration::from_secs(60);

/// A token just made: the only time its secret is shown.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
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

/// Splits `org_<id>_<secret>`.
fn split(bearer: &str) -> Option<(u64, &str)> {
    let rest = bearer.strip_prefix(PREFIX)?;
    let (id, secret) = rest.split_once('_')?;
    if id.is_empty() || !id.bytes().all(|b| b.is_ascii_digit()) || secret.len() < 32 {
        return None;
    }
    Some((id.parse().ok()?, secret))
}

/// `{api_token: {name, expires_at?}}`: the name (checked on create) and
/// the expiry.
pub(crate) fn parse(body: Option<&serde_json::Value>) -> Result<(String, Option<Timestamp>)> {
    let mut f = crate::input::record(body, "api_token")?;
    let name = f.string("name");
    let expires_at = match f.raw("expires_at") {
        Field::Value(serde_json::Value::String(s)) => match crate::time::parse_timestamp(s) {
            Some(t) => Some(t),
            None => {
                f.add("expires_at", EXPIRES_AT_SHAPE);
                None
            }
        },
        Field::Value(_) => {
            f.add("expires_at", EXPIRES_AT_SHAPE);
            None
        }
        _ => None,
    };
    f.finish()?;
    Ok((name.as_deref().unwrap_or_default().to_owned(), expires_at))
}

/// The number of the last token made (singletons).
const LAST_NUMBER: &[u8] = b"api_token_last_number";

const EXPIRES_AT_SHAPE: &str = "must be an ISO 8601 date-time with Z or a UTC offset";

pub(crate) fn create(
    cx: &mut WriteCx<'_>,
    auth: &Auth,
    name: &str,
    expires_at: Option<Timestamp>,
) -> Result<NewToken> {
    auth.require_session()?;
    let mut details = Details::new();
    let name = squished_required(&mut details, "name", name, 100);
    if expires_at.is_some_and(|t| t <= cx.now()) {
        details.add("expires_at", "must be in the future");
    }
    details.into_validation()?;

    // Numbers are never reused: a revoked token's number stays retired,
    // so a log or a script that names it cannot reach a newer token.
    let last = cx.first_key(
        API_TOKENS,
        std::ops::Bound::Unbounded,
        std::ops::Bound::Unbounded,
        Dir::Desc,
    )?;
    let last_live = last
        .and_then(|k| k.try_into().ok())
        .map(u64::from_be_bytes)
        .unwrap_or(0);
    let last_made = cx
        .get(SINGLETONS, LAST_NUMBER)?
        .and_then(|v| v.try_into().ok())
        .map(u64::from_be_bytes)
        .unwrap_or(0);
    let id = last_live.max(last_made) + 1;
    cx.insert(SINGLETONS, LAST_NUMBER, &id.to_be_bytes())?;
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
        hash: to_hex(&sha256(secret_part.as_bytes())),
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
            let mut stored: StoredToken = serde_json::from_slice(v)?;
            if let Some(used) = cx.org.ext.get::<TokenCache>().last_used(stored.token.id) {
                stored.token.last_used_at = Some(used);
            }
            tokens.push(stored.token);
            Ok(true)
        },
    )?;
    Ok(tokens)
}

pub(crate) fn revoke(cx: &mut WriteCx<'_>, auth: &Auth, id: u64) -> Result<()> {
    auth.require_session()?;
    if cx.remove(API_TOKENS, &key(id))? {
        cx.on_commit(move |inner| inner.ext.get::<TokenCache>().forget(id));
        Ok(())
    } else {
        Err(Error::NotFound)
    }
}

/// Verified tokens kept in memory, so a request's authentication reads no
/// store: the token's record, the SHA-256 of its secret, and whether its
/// `last_used_at` has moved since it was last written.
#[derive(Debug, Default)]
pub(crate) struct TokenCache(Mutex<HashMap<u64, Cached>>);

#[derive(Debug, Clone)]
struct Cached {
    token: ApiToken,
    hash: [u8; 32],
    dirty: bool,
}

impl TokenCache {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Cached>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Forgets a token (revoked).
    fn forget(&self, id: u64) {
        self.lock().remove(&id);
    }

    /// The `last_used_at` a token has in memory, if newer than stored.
    fn last_used(&self, id: u64) -> Option<Timestamp> {
        self.lock().get(&id).and_then(|c| c.token.last_used_at)
    }
}

/// The token a bearer secret names; 401 for a malformed, unknown, wrong or
/// expired one. Reads the store only the first time a token is seen; a use
/// moves `last_used_at` in memory (to the minute), and [`flush_uses`]
/// writes it down.
pub(crate) fn authenticate(inner: &Inner, bearer: &str) -> Result<ApiToken> {
    let cache = inner.ext.get::<TokenCache>();
    let (id, secret) = split(bearer.trim()).ok_or(Error::Unauthorized)?;
    let presented = sha256(secret.as_bytes());
    let cached = cache.lock().get(&id).cloned();
    let cached = match cached {
        Some(c) => c,
        None => {
            let stored: StoredToken = inner
                .read(|cx| cx.get_json(API_TOKENS, &key(id)))?
                .ok_or(Error::Unauthorized)?;
            let hash = crate::secrets::parse_key_bytes(&stored.hash)
                .ok_or_else(|| Error::Storage("a token hash is malformed".into()))?;
            let c = Cached {
                token: stored.token,
                hash,
                dirty: false,
            };
            cache.lock().entry(id).or_insert(c).clone()
        }
    };
    if !bool::from(presented.ct_eq(&cached.hash)) {
        return Err(Error::Unauthorized);
    }
    let now = to_millis(inner.options.clock.now());
    if cached.token.expires_at.is_some_and(|t| t <= now) {
        return Err(Error::Unauthorized);
    }
    let stale = cached
        .token
        .last_used_at
        .is_none_or(|t| now.duration_since(t) >= LAST_USED_GRANULARITY);
    if !stale {
        return Ok(cached.token);
    }
    let mut tokens = cache.lock();
    let entry = tokens.get_mut(&id).ok_or(Error::Unauthorized)?;
    entry.token.last_used_at = Some(now);
    entry.dirty = true;
    Ok(entry.token.clone())
}

/// Writes the `last_used_at` of tokens used since the last flush; whether
/// anything was written.
pub(crate) fn flush_uses(inner: &Inner) -> Result<bool> {
    let cache = inner.ext.get::<TokenCache>();
    let dirty: Vec<(u64, Option<Timestamp>)> = cache
        .lock()
        .iter()
        .filter(|(_, c)| c.dirty)
        .map(|(id, c)| (*id, c.token.last_used_at))
        .collect();
    if dirty.is_empty() {
        return Ok(false);
    }
    inner.write(|cx| {
        for (id, used) in &dirty {
            // A token revoked meanwhile stays revoked.
            if let Some(mut stored) = cx.get_json::<StoredToken>(API_TOKENS, &key(*id))? {
                stored.token.last_used_at = *used;
                cx.put_json(API_TOKENS, &key(*id), &stored)?;
            }
        }
        Ok(())
    })?;
    let mut tokens = cache.lock();
    for (id, used) in dirty {
        if let Some(c) = tokens.get_mut(&id).filter(|c| c.token.last_used_at == used) {
            c.dirty = false;
        }
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::{Clock, ManualClock};
    use crate::{Options, Organiser};

    #[test]
    fn uses_are_kept_in_memory_then_written_down() {
        let clock = ManualClock::at("2026-01-01T10:00:00Z");
        let org = Organiser::in_memory_with(Options {
            clock: std::sync::Arc::new(clock.clone()),
            ..Options::default()
        });
        let made = org.account().create_token("phone", None).unwrap();
        let stored = |org: &Organiser| {
            org.inner
                .read(|cx| cx.get_json::<StoredToken>(API_TOKENS, &key(made.token.id)))
                .unwrap()
                .unwrap()
                .token
                .last_used_at
        };
        let used = authenticate(&org.inner, &made.secret).unwrap();
        assert_eq!(used.last_used_at, Some(clock.now()));
        assert_eq!(stored(&org), None, "a read writes nothing");
        assert_eq!(
            org.account().tokens().unwrap()[0].last_used_at,
            Some(clock.now())
        );
        assert!(flush_uses(&org.inner).unwrap());
        assert_eq!(stored(&org), Some(clock.now()));
        assert!(!flush_uses(&org.inner).unwrap(), "nothing new to write");
        // A revoked token stops working at once, cached or not.
        org.account().revoke_token(made.token.id).unwrap();
        assert!(matches!(
            authenticate(&org.inner, &made.secret),
            Err(Error::Unauthorized)
        ));
    }

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
