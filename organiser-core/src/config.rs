//! How a store is opened: the clock, the network, the build's identity, the
//! keys that check licences and update manifests, and where updates come
//! from (DESIGN.md "Running it"). `Options::from_env` reads the environment
//! variables both adapters honour.

use std::sync::Arc;

use ed25519_dalek::VerifyingKey;
use jiff::civil::Date;

use crate::clock::{self, Clock, SystemClock};
use crate::net::{HttpClient, ReqwestClient};
use crate::secrets::SecretKey;

/// The application identifier (discovery is served at `/.well-known/organiser`).
pub const APP: &str = "organiser";

/// The release date of this version, when built as a release.
pub(crate) const RELEASED_ON: &str = "2026-11-21";

/// The oldest desktop app that can open this server.
pub(crate) const MIN_SHELL_VERSION: &str = "1.0.0";

/// The public key that signs licence keys, unless configured otherwise.
pub(crate) const DEFAULT_LICENCE_PUBLIC_KEY: &str =
    "775a63d4e4f3e7095b6a68cca435931d51819c7e3faca3947d80b0412e52b79e";

/// The public key that signs update manifests, unless configured otherwise.
pub(crate) const DEFAULT_UPDATE_PUBLIC_KEY: &str =
    "5ef97dc8afef0c021450d99f78c1b2e67ee140f8a391c7ad056438f3242bf06e";

/// Where the signed manifest of a channel is fetched from; `{channel}` is
/// replaced by `stable` or `beta`.
pub(crate) const DEFAULT_UPDATE_URL: &str = "https://updates.organiser.app/v1/{channel}.json";

/// Which build this is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuildInfo {
    /// `1.2.3`, `1.2.3-beta.1`, or `dev` in development.
    pub version: String,
    /// The release date; `None` in a development build.
    pub released_on: Option<Date>,
}

impl BuildInfo {
    /// A development build: version `dev`, no release date.
    pub fn dev() -> Self {
        BuildInfo {
            version: "dev".to_owned(),
            released_on: None,
        }
    }

    /// A released build of `version` made on `released_on`.
    pub fn release(version: &str, released_on: Date) -> Self {
        BuildInfo {
            version: version.to_owned(),
            released_on: Some(released_on),
        }
    }

    /// This binary: development when built with debug assertions or when
    /// `ORGANISER_DEV=1`, else a release of the package version.
    pub fn current() -> Self {
        if cfg!(debug_assertions) || env_flag("ORGANISER_DEV") {
            BuildInfo::dev()
        } else {
            BuildInfo::release(
                env!("CARGO_PKG_VERSION"),
                RELEASED_ON.parse().expect("RELEASED_ON is a date"),
            )
        }
    }

    /// Whether this is a development build.
    pub fn is_dev(&self) -> bool {
        self.released_on.is_none()
    }
}

/// Where updates come from and whether this build may look for them.
#[derive(Debug, Clone)]
pub struct UpdateConfig {
    /// The manifest address, with `{channel}` standing for the channel.
    pub manifest_url: String,
    /// The key manifests are signed with; `None` means this build has no
    /// release signing key and cannot check.
    pub public_key: Option<VerifyingKey>,
    /// Who manages update checks instead of the app (a package manager,
    /// say); `None` when the owner does.
    pub managed_by: Option<String>,
}

impl Default for UpdateConfig {
    fn default() -> Self {
        UpdateConfig {
            manifest_url: DEFAULT_UPDATE_URL.to_owned(),
            public_key: Some(
                parse_public_key(DEFAULT_UPDATE_PUBLIC_KEY).expect("valid default key"),
            ),
            managed_by: None,
        }
    }
}

/// How a query plans its reads, type by type (the search index's lookup, document 1 "Search"):
/// it starts from its rarest word's range and narrows the candidates with
/// the others, or walks the type's order when every word is common. The
/// answer never depends on these; only its cost does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SearchPlan {
    /// Postings the rarest word's range may hold and still be read
    /// whole; past it, the type's order is walked (default 8,000).
    pub walk_from: u64,
    /// A word's range is read whole rather than looked up candidate by
    /// candidate while it holds at most this many postings per candidate
    /// left (default 8). A walk also gives up, for the ranges, after
    /// reading the rarest range's size divided by this many records.
    pub read_per_candidate: u64,
}

impl Default for SearchPlan {
    fn default() -> Self {
        SearchPlan {
            walk_from: 8_000,
            read_per_candidate: 8,
        }
    }
}

/// Everything a store is opened with.
#[derive(Clone)]
pub struct Options {
    /// The clock every "now" comes from.
    pub clock: Arc<dyn Clock>,
    /// Every outbound request goes through it (update checks, feeds, AI
    /// providers); tests put a fake here.
    pub http: Arc<dyn HttpClient>,
    /// Which build this is.
    pub build: BuildInfo,
    /// The key that seals secrets; `None` reads or creates `secret.key` in
    /// the data directory (a random one for an in-memory store).
    pub secret_key: Option<SecretKey>,
    /// The key licence keys are signed with.
    pub licence_public_key: VerifyingKey,
    /// Update checks.
    pub update: UpdateConfig,
    /// Calendar feeds may be fetched from loopback, private, link-local
    /// and other non-public addresses (`ORGANISER_ALLOW_PRIVATE_FEEDS=1`;
    /// off by default).
    pub allow_private_feeds: bool,
    /// How search plans its reads (the defaults suit every store; tests
    /// and benchmarks move them to reach each plan on small stores).
    pub search_plan: SearchPlan,
    /// The longest an AI provider call may take (document 1, "Limits":
    /// 90 seconds; tests shorten it).
    pub ai_call_wait: std::time::Duration,
    /// How documents' thumbnails are rendered: in this process (the
    /// default), or in a child process under a memory and time budget
    /// (what the `organiser` binary does; see [`crate::pdf`]).
    pub pdf_renderer: crate::pdf::PdfRenderer,
    /// Where backups go (`ORGANISER_BACKUP_DIR`); `None` is
    /// `DATA_DIR/backups` (EXTENSIONS.md §4).
    pub backup_dir: Option<std::path::PathBuf>,
    /// The address the owner reaches the server at
    /// (`ORGANISER_PUBLIC_URL`, without a trailing `/`): reminders link
    /// to their subject under it; without it they carry no link.
    pub public_url: Option<String>,
}

impl std::fmt::Debug for Options {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Options")
            .field("now", &self.clock.now())
            .field("build", &self.build)
            .field("update", &self.update)
            .finish_non_exhaustive()
    }
}

impl Default for Options {
    fn default() -> Self {
        Options {
            clock: Arc::new(SystemClock),
            http: Arc::new(ReqwestClient::new()),
            build: BuildInfo::current(),
            secret_key: None,
            licence_public_key: parse_public_key(DEFAULT_LICENCE_PUBLIC_KEY)
                .expect("valid default key"),
            update: UpdateConfig::default(),
            allow_private_feeds: false,
            search_plan: SearchPlan::default(),
            ai_call_wait: std::time::Duration::from_secs(crate::limits::AI_CALL_WAIT_SECS),
            pdf_renderer: crate::pdf::PdfRenderer::InProcess,
            backup_dir: None,
            public_url: None,
        }
    }
}

impl Options {
    /// The options the environment asks for: `ORGANISER_NOW`,
    /// `ORGANISER_DEV`, `ORGANISER_SECRET_KEY`, `ORGANISER_ALLOW_PRIVATE_FEEDS`,
    /// `ORGANISER_LICENCE_PUBLIC_KEY`, `ORGANISER_UPDATE_PUBLIC_KEY`,
    /// `ORGANISER_UPDATE_URL`, `ORGANISER_UPDATE_CHECKS_MANAGED_BY` and
    /// `ORGANISER_BACKUP_DIR`. An
    /// error names the variable and what it should look like.
    pub fn from_env() -> Result<Options, String> {
        let mut options = Options {
            clock: clock::from_env()?,
            ..Options::default()
        };
        options.allow_private_feeds =
            env_value("ORGANISER_ALLOW_PRIVATE_FEEDS").as_deref() == Some("1");
        if let Some(key) = env_value("ORGANISER_SECRET_KEY") {
            options.secret_key =
                Some(SecretKey::parse(&key).map_err(|e| format!("ORGANISER_SECRET_KEY: {e}"))?);
        }
        if let Some(key) = env_value("ORGANISER_LICENCE_PUBLIC_KEY") {
            options.licence_public_key =
                parse_public_key(&key).map_err(|e| format!("ORGANISER_LICENCE_PUBLIC_KEY: {e}"))?;
        }
        if let Some(key) = env_value("ORGANISER_UPDATE_PUBLIC_KEY") {
            options.update.public_key = if key == "none" {
                None
            } else {
                Some(
                    parse_public_key(&key)
                        .map_err(|e| format!("ORGANISER_UPDATE_PUBLIC_KEY: {e}"))?,
                )
            };
        }
        if let Some(url) = env_value("ORGANISER_UPDATE_URL") {
            options.update.manifest_url = url;
        }
        options.update.managed_by = env_value("ORGANISER_UPDATE_CHECKS_MANAGED_BY");
        options.backup_dir = env_value("ORGANISER_BACKUP_DIR").map(std::path::PathBuf::from);
        options.public_url =
            env_value("ORGANISER_PUBLIC_URL").map(|u| u.trim().trim_end_matches('/').to_owned());
        Ok(options)
    }
}

/// An Ed25519 public key written as 64 hexadecimal digits or base64.
pub fn parse_public_key(text: &str) -> Result<VerifyingKey, String> {
    let bytes = crate::secrets::parse_key_bytes(text)
        .ok_or_else(|| "a public key is 64 hex digits or base64 of 32 bytes".to_owned())?;
    VerifyingKey::from_bytes(&bytes).map_err(|e| format!("not an Ed25519 public key: {e}"))
}

fn env_value(name: &str) -> Option<String> {
    std::env::var(name)
        .ok()
        .map(|v| v.trim().to_owned())
        .filter(|v| !v.is_empty())
}

fn env_flag(name: &str) -> bool {
    matches!(env_value(name).as_deref(), Some("1" | "true" | "yes"))
}
