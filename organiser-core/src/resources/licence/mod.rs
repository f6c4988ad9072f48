//! The licence (document 1, "Licence" and "Licence state"): trial for 14
//! days from first launch, `licensed` for a valid key that covers this
//! version, `read_only` otherwise, and the read-only rule for writes.

mod api;
mod key;

pub use api::Licensing;
pub(crate) use api::OPERATIONS;

pub use key::{LicenceKeyPayload, sign as sign_key};

use jiff::civil::Date;
use jiff::{SignedDuration, Timestamp};
use serde::{Deserialize, Serialize};

use crate::auth::Auth;
use crate::engine::{Cx, WriteCx};
use crate::error::{Error, Result};
use crate::limits::TRIAL_DAYS;
use crate::resources::account::owner;
use crate::store::Tables;
use crate::store::schema::SINGLETONS;

const KEY: &[u8] = b"licence";

/// `state`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LicenceState {
    /// A valid key covers this version.
    Licensed,
    /// Within 14 days of first launch.
    Trial,
    /// Every write is refused.
    ReadOnly,
}

/// `problem`: why a stored key does not apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LicenceProblem {
    /// The key was revoked.
    Revoked,
    /// This version was released after the key's `updates_until`.
    NotCovered,
}

/// The licensee of a key.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Licensee {
    /// Name.
    pub name: String,
    /// Email address.
    pub email: String,
}

/// `GET /licence`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Licence {
    /// `licensed`, `trial` or `read_only`.
    pub state: LicenceState,
    /// Why a stored key does not apply; null without a key or when it applies.
    pub problem: Option<LicenceProblem>,
    /// The stored key's owner, even with a problem.
    pub licensee: Option<Licensee>,
    /// The key's ID for support.
    pub key_id: Option<String>,
    /// Sale reference.
    pub order_reference: Option<String>,
    /// When the key was issued.
    pub issued_on: Option<Date>,
    /// The key covers every version released up to this date.
    pub updates_until: Option<Date>,
    /// 14 days after first launch.
    #[serde(with = "crate::time::serde_timestamp")]
    pub trial_ends_at: Timestamp,
    /// Whole days left, rounded up; 0 once ended.
    pub trial_days_left: i64,
    /// Release date of this version; null in a development build.
    pub released_on: Option<Date>,
    /// Welcome answered or a key added.
    pub onboarded: bool,
    /// When the licence record last changed.
    #[serde(with = "crate::time::serde_timestamp")]
    pub updated_at: Timestamp,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub(crate) struct StoredLicence {
    key: Option<String>,
    #[serde(default)]
    payload: Option<LicenceKeyPayload>,
    #[serde(default)]
    onboarded: bool,
    /// Key IDs the latest update manifest says are revoked.
    #[serde(default)]
    pub(crate) revoked_key_ids: Vec<String>,
    #[serde(default, with = "crate::time::serde_timestamp::option")]
    updated_at: Option<Timestamp>,
}

pub(crate) fn stored<T: Tables>(cx: &Cx<'_, T>) -> Result<StoredLicence> {
    Ok(cx.get_json(SINGLETONS, KEY)?.unwrap_or_default())
}

fn save(cx: &mut WriteCx<'_>, mut licence: StoredLicence) -> Result<()> {
    licence.updated_at = Some(cx.now());
    cx.put_json(SINGLETONS, KEY, &licence)
}

/// How a stored key applies to a release made on `released_on` (`None`: a
/// development build, which every valid key covers).
fn problem_for(licence: &StoredLicence, released_on: Option<Date>) -> Option<LicenceProblem> {
    let payload = licence.payload.as_ref()?;
    if licence.revoked_key_ids.contains(&payload.key_id) {
        Some(LicenceProblem::Revoked)
    } else if released_on.is_some_and(|r| r > payload.updates_until) {
        Some(LicenceProblem::NotCovered)
    } else {
        None
    }
}

/// Whether the licence covers a release made on `released_on`: true
/// without a key (trial and read-only offer every release).
pub(crate) fn covers_release<T: Tables>(
    cx: &Cx<'_, T>,
    released_on: Date,
) -> Result<Option<LicenceProblem>> {
    Ok(problem_for(&stored(cx)?, Some(released_on)))
}

pub(crate) fn get<T: Tables>(cx: &Cx<'_, T>) -> Result<Licence> {
    let licence = stored(cx)?;
    let owner = owner::load(cx)?;
    let released_on = cx.org.options.build.released_on;
    let problem = problem_for(&licence, released_on);
    let trial_ends_at = owner.first_launch_at + SignedDuration::from_hours(24 * TRIAL_DAYS);
    let left = trial_ends_at.duration_since(cx.now());
    let day = SignedDuration::from_hours(24).as_millis();
    let trial_days_left = if left.is_positive() {
        (((left.as_millis() + day - 1) / day) as i64).min(TRIAL_DAYS)
    } else {
        0
    };
    let state = if licence.payload.is_some() && problem.is_none() {
        LicenceState::Licensed
    } else if trial_days_left > 0 {
        LicenceState::Trial
    } else {
        LicenceState::ReadOnly
    };
    let payload = licence.payload.clone();
    Ok(Licence {
        state,
        problem,
        licensee: payload.as_ref().map(|p| Licensee {
            name: p.name.clone(),
            email: p.email.clone(),
        }),
        key_id: payload.as_ref().map(|p| p.key_id.clone()),
        order_reference: payload.as_ref().and_then(|p| p.order_reference.clone()),
        issued_on: payload.as_ref().map(|p| p.issued_on),
        updates_until: payload.as_ref().map(|p| p.updates_until),
        trial_ends_at,
        trial_days_left,
        released_on,
        onboarded: licence.onboarded,
        updated_at: licence.updated_at.unwrap_or(owner.first_launch_at),
    })
}

/// 403 `read_only` when the licence state is read-only.
pub(crate) fn require_writable<T: Tables>(cx: &Cx<'_, T>) -> Result<()> {
    match get(cx)?.state {
        LicenceState::ReadOnly => Err(Error::ReadOnly),
        _ => Ok(()),
    }
}

/// `PUT /licence` (session only): stores a valid key.
pub(crate) fn add_key(cx: &mut WriteCx<'_>, auth: &Auth, text: Option<&str>) -> Result<Licence> {
    auth.require_session()?;
    let Some(text) = text.filter(|t| !t.trim().is_empty()) else {
        return Err(Error::invalid("key", "can't be blank"));
    };
    let payload = key::verify(text, &cx.org.options.licence_public_key)
        .ok_or_else(|| Error::invalid("key", "is not a valid licence key"))?;
    let mut licence = stored(cx)?;
    if licence
        .payload
        .as_ref()
        .is_some_and(|p| p.key_id == payload.key_id)
    {
        return Err(Error::AlreadyAdded(
            "This licence key is added already".into(),
        ));
    }
    licence.key = Some(text.trim().to_owned());
    licence.payload = Some(payload);
    licence.onboarded = true;
    save(cx, licence)?;
    get(cx)
}

/// `DELETE /licence` (session only): forgets the key.
pub(crate) fn remove_key(cx: &mut WriteCx<'_>, auth: &Auth) -> Result<Licence> {
    auth.require_session()?;
    let mut licence = stored(cx)?;
    if licence.key.is_none() {
        return Err(Error::NotFound);
    }
    licence.key = None;
    licence.payload = None;
    save(cx, licence)?;
    get(cx)
}

/// `POST /licence/onboarding` (session only): the welcome was answered.
pub(crate) fn onboard(cx: &mut WriteCx<'_>, auth: &Auth) -> Result<Licence> {
    auth.require_session()?;
    let mut licence = stored(cx)?;
    if !licence.onboarded {
        licence.onboarded = true;
        save(cx, licence)?;
    }
    get(cx)
}

/// Records the revoked key IDs of a fresh update manifest.
pub(crate) fn set_revoked(cx: &mut WriteCx<'_>, revoked: Vec<String>) -> Result<()> {
    let mut licence = stored(cx)?;
    if licence.revoked_key_ids != revoked {
        licence.revoked_key_ids = revoked;
        save(cx, licence)?;
    }
    Ok(())
}
