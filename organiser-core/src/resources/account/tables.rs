//! The account's tables: API tokens and web sessions (the owner is a
//! singleton).

use crate::store::Tbl;
use crate::store::schema::table;

/// API tokens by their integer id (8 bytes, big-endian).
pub(crate) const API_TOKENS: Tbl = table("api_tokens");
/// Web sessions by the SHA-256 of their secret.
pub(crate) const SESSIONS: Tbl = table("sessions");

/// Every table of this resource.
pub(crate) const TABLES: &[Tbl] = &[API_TOKENS, SESSIONS];
