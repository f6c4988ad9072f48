//! A stand-in for the release team's update server, for the update check
//! tests (the core fetches the manifest itself, so they need one whichever
//! client sends the API request).

use std::sync::Arc;

use organiser::{Options, options::BuildInfo};

use super::loopback::Loopback;

/// A stand-in for the release team's update server: serves whatever the
/// test put for each channel at `/<channel>.json`.
pub struct ManifestServer {
    pub url: String,
    pub signing_key: ed25519_dalek::SigningKey,
    answers: Arc<std::sync::Mutex<std::collections::HashMap<String, (u16, String)>>>,
    _server: Loopback,
}

impl ManifestServer {
    pub fn start() -> ManifestServer {
        use axum::extract::{Path, State};
        type Answers = Arc<std::sync::Mutex<std::collections::HashMap<String, (u16, String)>>>;
        let answers: Answers = Arc::default();
        let app = axum::Router::new()
            .route(
                "/{file}",
                axum::routing::get(
                    |State(answers): State<Answers>, Path(file): Path<String>| async move {
                        let channel = file.trim_end_matches(".json").to_owned();
                        let (status, body) = answers
                            .lock()
                            .unwrap()
                            .get(&channel)
                            .cloned()
                            .unwrap_or((404, String::new()));
                        (axum::http::StatusCode::from_u16(status).unwrap(), body)
                    },
                ),
            )
            .with_state(answers.clone());
        let server = Loopback::serve(app);
        ManifestServer {
            url: format!("http://{}", server.addr),
            signing_key: ed25519_dalek::SigningKey::from_bytes(&[9; 32]),
            answers,
            _server: server,
        }
    }

    /// The manifest address template for [`Options`].
    pub fn template(&self) -> String {
        format!("{}/{{channel}}.json", self.url)
    }

    /// Publishes `releases` (version, released_on) on `channel`, signed.
    pub fn publish(&self, channel: &str, releases: &[(&str, &str)], revoked: &[&str]) {
        let manifest = organiser::system::Manifest {
            channel: channel.to_owned(),
            releases: releases
                .iter()
                .map(|(v, d)| organiser::system::ManifestRelease {
                    version: (*v).to_owned(),
                    released_on: d.parse().unwrap(),
                    notes_url: Some(format!("https://organiser.app/releases/{v}")),
                })
                .collect(),
            revoked_keys: revoked.iter().map(|s| (*s).to_owned()).collect(),
        };
        let signed = organiser::system::SignedManifest::sign(&manifest, &self.signing_key);
        self.answer(channel, 200, serde_json::to_string(&signed).unwrap());
    }

    /// Answers `channel` with a raw status and body.
    pub fn answer(&self, channel: &str, status: u16, body: String) {
        self.answers
            .lock()
            .unwrap()
            .insert(channel.to_owned(), (status, body));
    }

    /// Options that check for updates here, as release `version` of `released_on`.
    pub fn options(&self, version: &str, released_on: &str) -> Options {
        let update = organiser::options::UpdateConfig {
            manifest_url: self.template(),
            public_key: Some(self.signing_key.verifying_key()),
            managed_by: None,
        };
        Options {
            build: BuildInfo::release(version, released_on.parse().unwrap()),
            update,
            ..Options::default()
        }
    }
}
