//! Who is asking: the principal a request is made under, and the rules that
//! depend on it (session-only operations, `Idempotency-Key` under a session).

use jiff::Timestamp;
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

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

/// The principal of a request, as the adapter authenticated it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Auth {
    /// A bearer API token.
    Token(ApiToken),
    /// A signed-in web session, with its CSRF token.
    Session {
        /// The session's current CSRF token (`csrf_token` of `GET /me`).
        csrf_token: String,
    },
    /// The owner at the machine: the CLI in-process, or the local
    /// administrator token a running server writes to `server.json`. It may
    /// do what a session may.
    Local,
    /// Nobody: only discovery answers.
    Anonymous,
}

impl Auth {
    /// 403 `session_required` unless the web UI (or the owner at the
    /// machine) is asking.
    pub(crate) fn require_session(&self) -> Result<()> {
        match self {
            Auth::Session { .. } | Auth::Local => Ok(()),
            Auth::Token(_) => Err(Error::SessionRequired),
            Auth::Anonymous => Err(Error::Unauthorized),
        }
    }

    /// Whether this principal may send `Idempotency-Key` (bearer
    /// authentication only; under a session it is a 400).
    pub(crate) fn allows_idempotency_key(&self) -> bool {
        !matches!(self, Auth::Session { .. })
    }
}
