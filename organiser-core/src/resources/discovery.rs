//! Discovery (document 1, "Discovery"): what a client needs to know before
//! it has a token, and nothing about the owner.

use serde::Serialize;

use crate::config::{APP, MIN_SHELL_VERSION};
use crate::engine::Organiser;
use crate::engine::endpoint::Endpoint;
use crate::engine::op::{PlainOp, Route};
use crate::engine::request::{Method, Request, Response};
use crate::error::{Error, Result};

static DISCOVERY: PlainOp = PlainOp::PUBLIC;

impl Organiser {
    /// Discovery for a server reached at `base_url` (`GET /.well-known/organiser`).
    pub fn discovery(&self, base_url: &str) -> Discovery {
        discovery(&self.inner.options.build.version, base_url)
    }
}

/// The routes of [`routes`].
pub(crate) static ENDPOINTS: &[Endpoint] = &[Endpoint::new(Method::Get, "/.well-known/organiser")];

/// `/.well-known/organiser`, a route that needs no principal.
pub(crate) fn routes<'r>(req: &'r Request, segments: &[&'r str]) -> Result<Route<'r>> {
    Ok(match (req.method, segments) {
        (Method::Get, [".well-known", "organiser"]) => DISCOVERY.route(move |inner| {
            let found = discovery(&inner.options.build.version, &req.base_url);
            Ok(Response::data(200, &found))
        }),
        _ => return Err(Error::NotFound),
    })
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
