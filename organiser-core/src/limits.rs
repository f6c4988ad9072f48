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
