//! Discovery (document 1, "Discovery"): what a client needs to know before
//! it has a token, and nothing about the owner.

use serde::Serialize;

use crate::config::{APP, MIN_SHELL_VERSION};
use crate::engine::Organiser;
use crate::engine::op::PlainOp;
use crate::engine::operation::{Answer, BaseUrl, Declared, Operation, Run};
use crate::engine::request::Method::Get;

/// `GET /.well-known/organiser`: for anyone, from memory.
pub(crate) static DISCOVERY: Operation<BaseUrl, Discovery> = Operation::new(
    "discover",
    Get,
    "/.well-known/organiser",
    "Discovery\n\nNeeds no token; reveals nothing about the owner.",
    Run::Plain(PlainOp::PUBLIC, |inner, BaseUrl(base)| {
        Ok(discovery(&inner.options.build.version, &base))
    }),
    Answer::data(200),
);

/// Discovery's operation, for the registry.
pub(crate) static OPERATIONS: &[&dyn Declared] = &[&DISCOVERY];

impl Organiser {
    /// What a client needs before it has a token, for a server reached at
    /// `base_url` (`GET /.well-known/organiser`): the application, this
    /// build's version and the API's base address.
    pub fn discovery(&self, base_url: &str) -> Discovery {
        discovery(&self.inner.options.build.version, base_url)
    }
}

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
fn discovery(version: &str, base_url: &str) -> Discovery {
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
