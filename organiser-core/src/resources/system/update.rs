//! Update checks: the channel's signed manifest, fetched over HTTPS and
//! checked with the release signing key (Ed25519), and the update status
//! table of document 1 computed from the last result on each read.

use std::time::Duration;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use ed25519_dalek::{Signature, SigningKey, VerifyingKey};
use jiff::civil::Date;
use jiff::{SignedDuration, Timestamp};
use serde::{Deserialize, Serialize};

use super::{StoredSystem, UpdateInfo, UpdateStatus, can_check, require_can_check, save, stored};
use crate::engine::{Cx, Inner};
use crate::error::Result;
use crate::limits::UPDATE_CHECK_WAIT_SECS;
use crate::net::{HttpError, HttpRequest};
use crate::resources::licence::{self, LicenceProblem};
use crate::store::Tables;

/// The largest manifest read.
const MAX_MANIFEST_BYTES: u64 = 1024 * 1024;

/// The most redirects followed to the manifest.
const MAX_REDIRECTS: u32 = 10;

/// How often daily checks run.
const DAILY: SignedDuration = SignedDuration::from_hours(24);

/// What the release team publishes per channel: `manifest` is base64 of the
/// [`Manifest`] JSON and `signature` base64 of its Ed25519 signature.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SignedManifest {
    /// Base64 of the manifest JSON.
    pub manifest: String,
    /// Base64 of the signature over those JSON bytes.
    pub signature: String,
}

/// The releases of one channel.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    /// `stable` or `beta`.
    pub channel: String,
    /// Every release the channel offers.
    pub releases: Vec<ManifestRelease>,
    /// Licence key IDs that are revoked.
    #[serde(default)]
    pub revoked_keys: Vec<String>,
}

/// One release.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ManifestRelease {
    /// `1.2.3` or `1.2.3-beta.1`.
    pub version: String,
    /// Its release date.
    pub released_on: Date,
    /// Its release notes.
    #[serde(default)]
    pub notes_url: Option<String>,
}

impl SignedManifest {
    /// Signs `manifest`: for tests and the release team's tooling.
    pub fn sign(manifest: &Manifest, key: &SigningKey) -> SignedManifest {
        use ed25519_dalek::Signer;
        let json = serde_json::to_vec(manifest).expect("manifest serialises");
        SignedManifest {
            manifest: STANDARD.encode(&json),
            signature: STANDARD.encode(key.sign(&json).to_bytes()),
        }
    }

    fn open(&self, key: &VerifyingKey) -> std::result::Result<Manifest, String> {
        let json = STANDARD
            .decode(&self.manifest)
            .map_err(|_| "the manifest is not base64")?;
        let signature: [u8; 64] = STANDARD
            .decode(&self.signature)
            .ok()
            .and_then(|s| s.try_into().ok())
            .ok_or("the manifest signature is malformed")?;
        key.verify_strict(&json, &Signature::from_bytes(&signature))
            .map_err(|_| "the manifest signature does not verify")?;
        serde_json::from_slice(&json).map_err(|e| format!("the manifest is malformed: {e}"))
    }
}

/// The last successful check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct CheckResult {
    pub(crate) latest_version: String,
    pub(crate) latest_released_on: Date,
    pub(crate) notes_url: Option<String>,
    #[serde(with = "crate::time::serde_timestamp")]
    pub(crate) checked_at: Timestamp,
}

fn newer(a: &str, b: &str) -> bool {
    match (semver::Version::parse(a), semver::Version::parse(b)) {
        (Ok(a), Ok(b)) => a > b,
        _ => false,
    }
}

/// The latest release `channel` offers: `stable` takes stable releases,
/// `beta` takes betas too (and stable releases newer than them).
fn latest<'m>(manifest: &'m Manifest, channel: &str) -> Option<&'m ManifestRelease> {
    manifest
        .releases
        .iter()
        .filter_map(|r| semver::Version::parse(&r.version).ok().map(|v| (v, r)))
        .filter(|(v, _)| channel == "beta" || v.pre.is_empty())
        .max_by(|(a, _), (b, _)| a.cmp(b))
        .map(|(_, r)| r)
}

pub(crate) fn status<T: Tables>(cx: &Cx<'_, T>, s: &StoredSystem) -> Result<UpdateInfo> {
    let can = can_check(cx);
    let mut info = UpdateInfo {
        status: UpdateStatus::Off,
        not_covered_reason: None,
        latest_released_on: None,
        can_check: can,
        latest_version: None,
        notes_url: None,
        checked_at: None,
        dismissed: false,
        error: if can { s.error.clone() } else { None },
    };
    if !can {
        return Ok(info);
    }
    let Some(result) = &s.result else {
        info.status = if s.update_checks {
            UpdateStatus::Unknown
        } else {
            UpdateStatus::Off
        };
        return Ok(info);
    };
    info.latest_version = Some(result.latest_version.clone());
    info.latest_released_on = Some(result.latest_released_on);
    info.notes_url = result.notes_url.clone();
    info.checked_at = Some(result.checked_at);
    info.dismissed = s
        .dismissed_version
        .as_deref()
        .is_some_and(|d| !newer(&result.latest_version, d));
    let version = &cx.org.options.build.version;
    info.status = if !newer(&result.latest_version, version) {
        UpdateStatus::UpToDate
    } else {
        match licence::covers_release(cx, result.latest_released_on)? {
            None => UpdateStatus::Available,
            Some(problem) => {
                info.not_covered_reason = Some(match problem {
                    LicenceProblem::Revoked => {
                        "The licence key was revoked, so it covers no new release.".to_owned()
                    }
                    LicenceProblem::NotCovered => format!(
                        "Version {} was released on {}, after the updates the licence covers.",
                        result.latest_version, result.latest_released_on
                    ),
                });
                UpdateStatus::NotCovered
            }
        }
    };
    Ok(info)
}

/// Fetches and checks the manifest of `channel`.
fn fetch(inner: &Inner, channel: &str) -> std::result::Result<Manifest, String> {
    let options = &inner.options.update;
    let key = options
        .public_key
        .as_ref()
        .ok_or("this build has no release signing key")?;
    let mut request = HttpRequest::get(options.manifest_url.replace("{channel}", channel));
    request.timeout = Duration::from_secs(UPDATE_CHECK_WAIT_SECS);
    request.max_body_bytes = MAX_MANIFEST_BYTES;
    request.max_redirects = MAX_REDIRECTS;
    // The manifest address is the operator's configuration, which may name
    // a server on their own network.
    request.allow_private = true;
    let response = inner.options.http.send(&request).map_err(|e| match e {
        HttpError::Timeout => {
            format!("the update server did not answer within {UPDATE_CHECK_WAIT_SECS} seconds")
        }
        HttpError::BodyTooBig { limit } => format!("the answer is larger than {limit} bytes"),
        HttpError::Read(reason) => format!("reading the answer failed: {reason}"),
        e => format!("the update server could not be reached ({e})"),
    })?;
    if !response.is_success() {
        return Err(format!(
            "the update server answered {}",
            response.status_line()
        ));
    }
    let body = response.body;
    let signed: SignedManifest = serde_json::from_slice(&body)
        .map_err(|_| "the update server's answer is not a signed manifest".to_owned())?;
    let manifest = signed.open(key)?;
    if manifest.channel != channel {
        return Err(format!(
            "the manifest is for the {} channel, not {channel}",
            manifest.channel
        ));
    }
    Ok(manifest)
}

/// Runs a check now (`POST /system/update_check`): 422 when this build may
/// not check; a failed fetch keeps the last result and sets `error`.
pub(crate) fn check(inner: &Inner) -> Result<()> {
    let channel = inner.read(|cx| {
        require_can_check(cx)?;
        Ok(stored(cx)?.channel)
    })?;
    let fetched = fetch(inner, &channel);
    inner.write(|cx| {
        let mut s = stored(cx)?;
        s.last_attempt_at = Some(cx.now());
        if s.channel != channel {
            // The channel changed while fetching: that result is stale and
            // the queued check for the new channel still stands.
            save(cx, &s)?;
            return Ok(());
        }
        s.check_queued = false;
        match fetched {
            Ok(manifest) => {
                match latest(&manifest, &channel) {
                    Some(release) => {
                        s.result = Some(CheckResult {
                            latest_version: release.version.clone(),
                            latest_released_on: release.released_on,
                            notes_url: release.notes_url.clone(),
                            checked_at: cx.now(),
                        });
                        s.error = None;
                    }
                    None => s.error = Some("the manifest lists no release for this channel".into()),
                }
                licence::set_revoked(cx, manifest.revoked_keys)?;
            }
            Err(reason) => s.error = Some(reason),
        }
        save(cx, &s)
    })
}

/// Whether a scheduled check is due: checks on, and one was queued or the
/// last attempt is a day old.
pub(crate) fn scheduled_due<T: Tables>(cx: &Cx<'_, T>) -> Result<bool> {
    if !can_check(cx) {
        return Ok(false);
    }
    let s = stored(cx)?;
    Ok(s.update_checks
        && (s.check_queued
            || s.last_attempt_at
                .is_none_or(|t| cx.now().duration_since(t) >= DAILY)))
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use super::*;
    use crate::config::{BuildInfo, Options, UpdateConfig};
    use crate::net::{HttpClient, HttpResponse};
    use crate::{ManualClock, Organiser, UpdateStatus};

    fn release(version: &str) -> ManifestRelease {
        ManifestRelease {
            version: version.into(),
            released_on: "2026-01-01".parse().unwrap(),
            notes_url: None,
        }
    }

    #[test]
    fn channels_pick_their_latest_release() {
        let manifest = Manifest {
            channel: "beta".into(),
            releases: vec![
                release("1.2.0"),
                release("1.3.0-beta.2"),
                release("1.3.0-beta.10"),
                release("1.2.1"),
            ],
            revoked_keys: vec![],
        };
        assert_eq!(latest(&manifest, "stable").unwrap().version, "1.2.1");
        assert_eq!(latest(&manifest, "beta").unwrap().version, "1.3.0-beta.10");
        let with_newer_stable = Manifest {
            releases: vec![release("1.3.0-beta.2"), release("1.3.0")],
            ..manifest
        };
        assert_eq!(latest(&with_newer_stable, "beta").unwrap().version, "1.3.0");
    }

    #[test]
    fn a_signed_manifest_opens_only_with_its_key() {
        let key = SigningKey::from_bytes(&[3; 32]);
        let manifest = Manifest {
            channel: "stable".into(),
            releases: vec![release("1.0.0")],
            revoked_keys: vec!["K-1".into()],
        };
        let signed = SignedManifest::sign(&manifest, &key);
        assert_eq!(signed.open(&key.verifying_key()).unwrap(), manifest);
        assert!(
            signed
                .open(&SigningKey::from_bytes(&[4; 32]).verifying_key())
                .is_err()
        );
        let tampered = SignedManifest {
            manifest: STANDARD.encode(br#"{"channel":"stable","releases":[]}"#),
            ..signed
        };
        assert!(tampered.open(&key.verifying_key()).is_err());
    }

    /// A store of release 1.2.0 whose every request is answered by `http`,
    /// in process: no socket is opened.
    fn release_with(http: impl HttpClient + 'static) -> Organiser {
        Organiser::in_memory_with(Options {
            clock: Arc::new(ManualClock::at("2026-03-10T09:00:00Z")),
            http: Arc::new(http),
            build: BuildInfo::release("1.2.0", "2026-02-01".parse().unwrap()),
            update: UpdateConfig {
                manifest_url: "https://updates.example/{channel}.json".into(),
                public_key: Some(SigningKey::from_bytes(&[3; 32]).verifying_key()),
                managed_by: None,
            },
            ..Options::default()
        })
    }

    #[test]
    fn a_check_reads_the_manifest_through_the_injected_client() {
        let sent = Arc::new(Mutex::new(Vec::new()));
        let org = release_with({
            let sent = sent.clone();
            move |request: &HttpRequest| {
                sent.lock().unwrap().push(request.clone());
                let manifest = Manifest {
                    channel: "stable".into(),
                    releases: vec![release("1.3.0")],
                    revoked_keys: vec![],
                };
                let signed = SignedManifest::sign(&manifest, &SigningKey::from_bytes(&[3; 32]));
                let body = serde_json::to_vec(&signed).unwrap();
                Ok(HttpResponse::new(200, request.url.clone(), body))
            }
        });
        let update = org.system().check_for_update(false).unwrap().update;
        assert_eq!(update.latest_version.as_deref(), Some("1.3.0"));
        assert_eq!(update.error, None);
        assert_ne!(update.status, UpdateStatus::Unknown);

        let sent = sent.lock().unwrap();
        assert_eq!(sent.len(), 1);
        let request = &sent[0];
        assert_eq!(request.url, "https://updates.example/stable.json");
        assert_eq!(request.timeout, Duration::from_secs(UPDATE_CHECK_WAIT_SECS));
        assert_eq!(request.max_body_bytes, MAX_MANIFEST_BYTES);
        assert!(request.allow_private, "the operator chose the address");
    }

    #[test]
    fn a_failed_fetch_is_reported_in_the_words_of_update_checks() {
        let answer = |status: u16, body: &str| {
            let response = HttpResponse::new(status, "https://updates.example/", body.into());
            move |_: &HttpRequest| Ok(response.clone())
        };
        let fail = |error: HttpError| move |_: &HttpRequest| Err(error.clone());
        let check = |org: Organiser, expected: &str| {
            let update = org.system().check_for_update(false).unwrap().update;
            assert_eq!(update.status, UpdateStatus::Unknown);
            assert_eq!(update.error.as_deref(), Some(expected));
        };
        check(
            release_with(answer(503, "down")),
            "the update server answered 503 Service Unavailable",
        );
        check(
            release_with(answer(200, "<html>")),
            "the update server's answer is not a signed manifest",
        );
        check(
            release_with(fail(HttpError::Timeout)),
            "the update server did not answer within 30 seconds",
        );
        check(
            release_with(fail(HttpError::BodyTooBig { limit: 1_048_576 })),
            "the answer is larger than 1048576 bytes",
        );
        check(
            release_with(fail(HttpError::Read("connection reset".into()))),
            "reading the answer failed: connection reset",
        );
        check(
            release_with(fail(HttpError::Connect("connection refused".into()))),
            "the update server could not be reached (could not connect: connection refused)",
        );
    }
}
