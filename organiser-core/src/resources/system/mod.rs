//! System and updates (document 1, "System", "Update status", PATCH
//! `/system` rules and `POST /system/update_check`).

mod api;
pub(crate) mod update;

pub use api::SystemSettings;
pub(crate) use api::{OPERATIONS, SCHEDULED_UPDATE_CHECK};

pub use update::{Manifest, ManifestRelease, SignedManifest};

use jiff::Timestamp;
use jiff::civil::Date;
use serde::{Deserialize, Serialize};

use crate::engine::{Cx, WriteCx};
use crate::error::{Details, Error, Result};
use crate::input::{Field, Fields};
use crate::store::Tables;
use crate::store::schema::SINGLETONS;

const KEY: &[u8] = b"system";

crate::input::words! {
    /// A release channel.
    pub enum Channel {
        /// Releases (the default).
        Stable = "stable",
        /// Releases and pre-releases.
        Beta = "beta",
    }
}

/// Release channels.
pub(crate) const CHANNELS: &[&str] = Channel::WORDS;

/// `GET /system`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct System {
    /// Running version (`dev` in a development build).
    pub version: String,
    /// The release channel.
    pub channel: Channel,
    /// Daily checks on or off.
    pub update_checks: bool,
    /// Whether checks are managed outside the app.
    pub update_checks_managed: bool,
    /// Who manages them; null when the owner does.
    pub update_checks_managed_by: Option<String>,
    /// Whether this request reached the server over plain HTTP.
    pub plain_http: bool,
    /// The update status.
    pub update: UpdateInfo,
}

/// `System.update`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UpdateInfo {
    /// `off`, `available`, `up_to_date`, `unknown` or `not_covered`.
    pub status: UpdateStatus,
    /// Why a newer release is not covered; null otherwise.
    pub not_covered_reason: Option<String>,
    /// Release date of the latest version found.
    pub latest_released_on: Option<Date>,
    /// Whether this build can check for updates.
    pub can_check: bool,
    /// The latest version found.
    pub latest_version: Option<String>,
    /// Its release notes.
    pub notes_url: Option<String>,
    /// When the last successful check ran.
    #[serde(with = "crate::time::serde_timestamp::option")]
    pub checked_at: Option<Timestamp>,
    /// Whether the owner dismissed the latest version.
    pub dismissed: bool,
    /// Why the last check failed; null when it did not.
    pub error: Option<String>,
}

/// `System.update.status`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UpdateStatus {
    /// This build cannot check, or checks are off with no result.
    Off,
    /// A newer covered release exists.
    Available,
    /// The last result is not newer than this version.
    UpToDate,
    /// No result yet.
    Unknown,
    /// A newer release exists that the licence does not cover.
    NotCovered,
}

/// `PATCH /system`: only the fields sent change.
///
/// It serialises to the body it is read from (`{system: {...}}` without
/// the wrapper): absent fields are left out.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(default)]
pub struct SystemChange {
    /// `stable` or `beta`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub channel: Option<String>,
    /// Daily checks on or off.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub update_checks: Option<bool>,
    /// A version to stop offering, or null to clear.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub dismissed_version: Field<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct StoredSystem {
    pub(crate) channel: String,
    pub(crate) update_checks: bool,
    #[serde(default)]
    pub(crate) dismissed_version: Option<String>,
    #[serde(default)]
    pub(crate) result: Option<update::CheckResult>,
    #[serde(default)]
    pub(crate) error: Option<String>,
    /// A check was asked for (channel change, checks turned on).
    #[serde(default)]
    pub(crate) check_queued: bool,
    #[serde(default, with = "crate::time::serde_timestamp::option")]
    pub(crate) last_attempt_at: Option<Timestamp>,
}

impl Default for StoredSystem {
    fn default() -> Self {
        StoredSystem {
            channel: "stable".into(),
            update_checks: true,
            dismissed_version: None,
            result: None,
            error: None,
            check_queued: false,
            last_attempt_at: None,
        }
    }
}

pub(crate) fn stored<T: Tables>(cx: &Cx<'_, T>) -> Result<StoredSystem> {
    Ok(cx.get_json(SINGLETONS, KEY)?.unwrap_or_default())
}

pub(crate) fn save(cx: &WriteCx<'_>, system: &StoredSystem) -> Result<()> {
    cx.put_json(SINGLETONS, KEY, system)
}

/// Whether this build may check for updates: not managed, a release
/// signing key, and a released build.
pub(crate) fn can_check<T>(cx: &Cx<'_, T>) -> bool {
    let o = &cx.org.options;
    o.update.managed_by.is_none() && o.update.public_key.is_some() && !o.build.is_dev()
}

pub(crate) fn get<T: Tables>(cx: &Cx<'_, T>, plain_http: bool) -> Result<System> {
    let s = stored(cx)?;
    let options = &cx.org.options;
    let update = update::status(cx, &s)?;
    Ok(System {
        version: options.build.version.clone(),
        // A stored word this build does not know reads as the default.
        channel: Channel::parse(&s.channel).unwrap_or(Channel::Stable),
        update_checks: s.update_checks && options.update.managed_by.is_none(),
        update_checks_managed: options.update.managed_by.is_some(),
        update_checks_managed_by: options.update.managed_by.clone(),
        plain_http,
        update,
    })
}

pub(crate) fn parse(f: &mut Fields<'_>) -> SystemChange {
    let channel = match f.string("channel") {
        Field::Value(v) => Some(v),
        Field::Null => Some(String::new()),
        Field::Absent => None,
    };
    let update_checks = f.boolean("update_checks");
    let dismissed_version = f.string("dismissed_version");
    SystemChange {
        channel,
        update_checks,
        dismissed_version,
    }
}

/// Whether `v` is shaped like `1.2.3` or `1.2.3-beta.1`.
pub(crate) fn is_version_shape(v: &str) -> bool {
    let (core, pre) = match v.split_once('-') {
        Some((core, pre)) => (core, Some(pre)),
        None => (v, None),
    };
    let numbers = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let parts: Vec<&str> = core.split('.').collect();
    let core_ok = parts.len() == 3 && parts.iter().all(|p| numbers(p));
    let pre_ok = pre.is_none_or(|pre| {
        pre.split_once('.').is_some_and(|(word, n)| {
            !word.is_empty() && word.bytes().all(|b| b.is_ascii_lowercase()) && numbers(n)
        })
    });
    core_ok && pre_ok && semver::Version::parse(v).is_ok()
}

pub(crate) fn change(
    cx: &mut WriteCx<'_>,
    change: SystemChange,
    plain_http: bool,
) -> Result<System> {
    let managed = cx.org.options.update.managed_by.is_some();
    let mut details = Details::new();
    if change
        .channel
        .as_deref()
        .is_some_and(|c| !CHANNELS.contains(&c))
    {
        details.add("channel", "must be stable or beta");
    }
    if change.update_checks.is_some() && managed {
        details.add(
            "update_checks",
            "are managed outside the app and cannot be changed here",
        );
    }
    if let Field::Value(v) = &change.dismissed_version
        && !is_version_shape(v)
    {
        details.add("dismissed_version", "must look like 1.2.3 or 1.2.3-beta.1");
    }
    details.into_validation()?;

    let mut s = stored(cx)?;
    if let Some(channel) = change.channel
        && channel != s.channel
    {
        s.channel = channel;
        s.result = None;
        s.error = None;
        s.check_queued = true;
    }
    if let Some(on) = change.update_checks {
        if on && !s.update_checks {
            s.check_queued = true;
        }
        s.update_checks = on;
    }
    if let Some(v) = change.dismissed_version.sent() {
        s.dismissed_version = v;
    }
    save(cx, &s)?;
    get(cx, plain_http)
}

/// 422 with `details.base` unless this build may check now.
pub(crate) fn require_can_check<T: Tables>(cx: &Cx<'_, T>) -> Result<()> {
    let o = &cx.org.options;
    let reason = if let Some(by) = &o.update.managed_by {
        format!("update checks are managed by {by}")
    } else if o.build.is_dev() {
        "a development build cannot check for updates".to_owned()
    } else if o.update.public_key.is_none() {
        "this build has no release signing key to check updates with".to_owned()
    } else {
        return Ok(());
    };
    Err(Error::invalid("base", reason))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_shapes() {
        for (v, ok) in [
            ("1.2.3", true),
            ("0.0.0", true),
            ("10.20.30", true),
            ("1.2.3-beta.1", true),
            ("1.2.3-rc.12", true),
            ("1.2", false),
            ("1.2.3.4", false),
            ("v1.2.3", false),
            ("1.2.3-beta", false),
            ("1.2.3-Beta.1", false),
            ("1.2.3+build", false),
            ("01.2.3", false),
            ("", false),
        ] {
            assert_eq!(is_version_shape(v), ok, "{v}");
        }
    }

    #[test]
    fn a_change_reads_back_as_itself() {
        for change in [
            SystemChange::default(),
            SystemChange {
                channel: Some("beta".into()),
                update_checks: Some(false),
                dismissed_version: Field::Value("1.2.3".into()),
            },
            SystemChange {
                update_checks: Some(true),
                dismissed_version: Field::Null,
                ..SystemChange::default()
            },
        ] {
            let body = serde_json::json!({ "system": change });
            let read = crate::input::parse_record(Some(&body), "system", parse).unwrap();
            assert_eq!(read, change);
        }
    }
}
