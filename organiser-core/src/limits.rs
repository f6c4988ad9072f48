//! The spec's limits (document 1, "Limits", and DESIGN.md "Defaults"): one
//! place the rules and the vocabulary's `limits` both read.

/// Default items per page.
pub const DEFAULT_PAGE_SIZE: usize = 50;
/// Most items per page; a larger `limit` is taken as this.
pub const MAX_PAGE_SIZE: usize = 100;
/// Largest JSON body, in bytes (413 beyond it).
pub const MAX_JSON_BODY_BYTES: u64 = 2 * 1024 * 1024;
/// General rate: requests per minute per address.
pub const GENERAL_RATE_PER_MINUTE: u32 = 300;
/// `POST /system/update_check`: requests per minute per address.
pub const UPDATE_CHECK_RATE_PER_MINUTE: u32 = 10;
/// Provider test, check and available-models calls: requests per minute
/// per address, shared among the three.
pub const PROVIDER_CALL_RATE_PER_MINUTE: u32 = 20;
/// Model trials: requests per minute per address.
pub const MODEL_TRIAL_RATE_PER_MINUTE: u32 = 20;
/// Task backfills: requests per minute per address.
pub const TASK_BACKFILL_RATE_PER_MINUTE: u32 = 5;
/// How long an AI provider call waits, in seconds.
pub const AI_CALL_WAIT_SECS: u64 = 90;
/// How long an `Idempotency-Key` is remembered, in seconds.
pub const IDEMPOTENCY_WINDOW_SECS: i64 = 24 * 60 * 60;
/// How long a deleted task list, task, project or person can be restored, in seconds.
pub const RESTORE_WINDOW_SECS: i64 = 20;
/// How long an update check waits for the manifest, in seconds.
pub const UPDATE_CHECK_WAIT_SECS: u64 = 30;
/// The trial's length in days from first launch.
pub const TRIAL_DAYS: i64 = 14;
/// Longest search `q`, in characters.
pub const SEARCH_Q_MAX_CHARS: usize = 200;
/// Default search results per type.
pub const SEARCH_DEFAULT_LIMIT: usize = 5;
/// Most search results per type.
pub const SEARCH_MAX_LIMIT: usize = 25;

/// The rate limits of routes, which a server applies (public through
/// `organiser_core::server`).
pub(crate) mod routes {
    use super::*;

    /// A rate limit some routes have on top of the general one (document 1,
    /// "Limits"): how many requests an address may make in any 60 seconds to
    /// the operations that declare it (operations with one limit share it).
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub struct RouteLimit {
        /// Names the limit.
        pub name: &'static str,
        /// Requests per minute per address.
        pub per_minute: u32,
    }

    /// `POST /system/update_check`.
    pub(crate) const UPDATE_CHECK_LIMIT: RouteLimit = RouteLimit {
        name: "update_check",
        per_minute: UPDATE_CHECK_RATE_PER_MINUTE,
    };
    /// Calls to a provider: its test, its check, its models.
    pub(crate) const PROVIDER_CALLS_LIMIT: RouteLimit = RouteLimit {
        name: "provider_calls",
        per_minute: PROVIDER_CALL_RATE_PER_MINUTE,
    };
    /// A model's trial.
    pub(crate) const MODEL_TRIAL_LIMIT: RouteLimit = RouteLimit {
        name: "model_trial",
        per_minute: MODEL_TRIAL_RATE_PER_MINUTE,
    };
    /// An AI task's backfill.
    pub(crate) const TASK_BACKFILL_LIMIT: RouteLimit = RouteLimit {
        name: "task_backfill",
        per_minute: TASK_BACKFILL_RATE_PER_MINUTE,
    };

    /// Every limit on top of the general one (which operations count against
    /// each is declared with them: `organiser_core::server::route_limit`).
    pub const ROUTE_LIMITS: &[RouteLimit] = &[
        UPDATE_CHECK_LIMIT,
        PROVIDER_CALLS_LIMIT,
        MODEL_TRIAL_LIMIT,
        TASK_BACKFILL_LIMIT,
    ];
}

/// A byte count as every message and screen says it, in binary units
/// with one decimal: `512 B`, `10.0 MiB`, `1.5 GiB`.
pub fn size(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if bytes < 1024 {
        return format!("{bytes} B");
    }
    let mut value = bytes as f64 / 1024.0;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    format!("{value:.1} {}", UNITS[unit])
}

/// Text lengths (the vocabulary's `limits`).
pub mod text {
    /// Tag name.
    pub const TAG_NAME: usize = 50;
    /// Folder name.
    pub const FOLDER_NAME: usize = 100;
    /// Document name.
    pub const DOCUMENT_NAME: usize = 200;
    /// Task title.
    pub const TASK_TITLE: usize = 200;
    /// Task list name.
    pub const TASK_LIST_NAME: usize = 100;
    /// Project name.
    pub const PROJECT_NAME: usize = 100;
    /// Project texts (role, external reference).
    pub const PROJECT_TEXT: usize = 100;
    /// Project external address.
    pub const PROJECT_URL: usize = 2048;
    /// Project member role.
    pub const PROJECT_MEMBER_ROLE: usize = 100;
    /// Position title.
    pub const POSITION_TITLE: usize = 100;
    /// Company name.
    pub const COMPANY_NAME: usize = 100;
    /// Calendar feed name.
    pub const CALENDAR_FEED_NAME: usize = 100;
    /// Calendar address.
    pub const CALENDAR_ADDRESS: usize = 2048;
    /// Owner's name and username (not in the spec's table; see docs/api.md).
    pub const OWNER_NAME: usize = 100;
}

/// Upload sizes (the vocabulary's `uploads`).
pub mod uploads {
    /// Avatar photo.
    pub const AVATAR_MAX_BYTES: u64 = 10 * 1024 * 1024;
    /// Image inside a note.
    pub const NOTE_IMAGE_MAX_BYTES: u64 = 10 * 1024 * 1024;
    /// PDF document.
    pub const DOCUMENT_MAX_BYTES: u64 = 50 * 1024 * 1024;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_said_in_binary_units() {
        assert_eq!(size(512), "512 B");
        assert_eq!(size(10 * 1024 * 1024), "10.0 MiB");
        assert_eq!(size(1536), "1.5 KiB");
        assert_eq!(size(160 * 1024 * 1024), "160.0 MiB");
    }
}
