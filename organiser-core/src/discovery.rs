//! Discovery (document 1, "Discovery"): what a client needs to know before
//! it has a token, and nothing about the owner.

use serde::Serialize;

use crate::config::{APP, MIN_SHELL_VERSION};

/// `GET /.well-known/organiser`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Discovery {
    /// The application identifier.
    pub app: &'static str,
    /// The server's version (`dev` in an unreleased build).
    pub version: String,
    /// The oldest desktop app that can open this server.
    pub min_shell_version: &'static str,
    /// The API versions served.
    pub api_versions: Vec<ApiVersion>,
}

/// One served API version.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ApiVersion {
    /// `v1`.
    pub version: &'static str,
    /// Its base address.
    pub base_url: String,
}

/// Discovery for a server reached at `base_url` (scheme, host and port, no
/// trailing slash).
pub(crate) fn discovery(version: &str, base_url: &str) -> Discovery {
    Discovery {
        app: APP,
        version: version.to_owned(),
        min_shell_version: MIN_SHELL_VERSION,
        api_versions: vec![ApiVersion {
            version: "v1",
            base_url: format!("{}/api/v1", base_url.trim_end_matches('/')),
        }],
    }
}
