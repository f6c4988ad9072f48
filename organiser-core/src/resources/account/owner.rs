//! The owner (document 1, "Me"): name, username, zone, password, and the
//! first launch the trial counts from. A new store has an owner named
//! "Owner", username "owner", zone "UTC" (DESIGN.md "Running it").

use std::sync::{Arc, RwLock};

use jiff::Timestamp;
use jiff::civil::Date;
use serde::{Deserialize, Serialize};

use crate::auth::{ApiToken, Auth};
use crate::engine::Inner;
use crate::engine::{Cx, WriteCx};
use crate::error::{Details, Error, Result};
use crate::input::{Field, Fields};
use crate::limits;
use crate::resources::account::appearance::AppearanceSettings;
use crate::resources::account::password;
use crate::store::schema::SINGLETONS;
use crate::store::{Tables, WriteTx};
use crate::text::{char_len, squished_required};
use crate::time::Zone;

const KEY: &[u8] = b"owner";

/// The owner as last committed, kept in memory for reads that need only
/// the owner (`GET /me`).
#[derive(Default)]
pub(crate) struct OwnerCache(RwLock<Option<Arc<Owner>>>);

/// Keeps `owner` as the owner last committed.
pub(crate) fn remember(inner: &Inner, owner: Owner) {
    let cache = inner.ext.get::<OwnerCache>();
    *cache.0.write().unwrap_or_else(|e| e.into_inner()) = Some(Arc::new(owner));
}

fn remembered(inner: &Inner) -> Result<Arc<Owner>> {
    let cache = inner.ext.get::<OwnerCache>();
    let owner = cache.0.read().unwrap_or_else(|e| e.into_inner()).clone();
    owner.ok_or_else(|| Error::Storage("the owner was not read at open".into()))
}

/// The stored owner.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Owner {
    pub(crate) name: String,
    pub(crate) username: String,
    pub(crate) time_zone: String,
    #[serde(default)]
    pub(crate) password_hash: Option<String>,
    /// Whether `organiser init` (or a change) set the owner up; until then
    /// the owner is the default one and `init` may replace it.
    #[serde(default)]
    pub(crate) initialised: bool,
    #[serde(default)]
    pub(crate) appearance: AppearanceSettings,
    /// The store's first launch: the trial runs 14 days from it.
    #[serde(with = "crate::time::serde_timestamp")]
    pub(crate) first_launch_at: Timestamp,
    #[serde(with = "crate::time::serde_timestamp")]
    pub(crate) updated_at: Timestamp,
}

impl Owner {
    pub(crate) fn zone(&self) -> Zone {
        Zone::find(&self.time_zone).unwrap_or_else(Zone::utc)
    }
}

/// `GET /me`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Me {
    /// The owner's name.
    pub name: String,
    /// What the owner signs in with.
    pub username: String,
    /// Whether the owner has a password.
    pub has_password: bool,
    /// The zone by its picker name.
    pub time_zone: String,
    /// The same zone as an IANA identifier.
    pub time_zone_iana: String,
    /// Today in the owner's zone.
    pub today: Date,
    /// The token making the request; null under session auth.
    pub token: Option<ApiToken>,
    /// Under session auth the session's current CSRF token.
    pub csrf_token: Option<String>,
}

/// What `organiser init` sets.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OwnerInit {
    /// The owner's name.
    pub name: String,
    /// What the owner signs in with.
    pub username: String,
    /// A picker name ("London") or an IANA zone the picker lists.
    pub time_zone: String,
}

impl OwnerInit {
    /// Whether the set-up would be taken: the 422 `init` would answer for
    /// its name, username and zone, found without a store (so a refused
    /// `organiser init` makes none).
    pub fn check(&self) -> Result<()> {
        self.checked().map(drop)
    }

    /// The name, username and zone, checked.
    fn checked(&self) -> Result<(String, String, Zone)> {
        let mut details = Details::new();
        let name = check_name(&mut details, &self.name);
        let username = check_username(&mut details, &self.username);
        let zone = check_zone(&mut details, &self.time_zone);
        details.into_validation()?;
        zone.map(|zone| (name, username, zone))
            .ok_or_else(|| Error::invalid("time_zone", "is not a zone"))
    }
}

/// A change of the owner's name or zone (`PATCH /me`, session only).
///
/// It serialises to the body it is read from (`{me: {...}}` without the
/// wrapper): absent fields are left out.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(default)]
pub struct OwnerChange {
    /// A new name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// A new zone, by picker name or IANA zone.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time_zone: Option<String>,
}

/// The stored owner, if the store has one yet.
pub(crate) fn stored(tx: &impl Tables) -> Result<Option<Owner>> {
    tx.get_json(SINGLETONS, KEY)
}

/// Makes the default owner when the store has none; the owner.
pub(crate) fn ensure(tx: &WriteTx, now: Timestamp) -> Result<Owner> {
    if let Some(owner) = tx.get_json::<Owner>(SINGLETONS, KEY)? {
        return Ok(owner);
    }
    let owner = Owner {
        name: "Owner".into(),
        username: "owner".into(),
        time_zone: "UTC".into(),
        password_hash: None,
        initialised: false,
        appearance: AppearanceSettings::default(),
        first_launch_at: now,
        updated_at: now,
    };
    tx.put_json(SINGLETONS, KEY, &owner)?;
    Ok(owner)
}

pub(crate) fn load<T: Tables>(cx: &Cx<'_, T>) -> Result<Owner> {
    cx.get_json(SINGLETONS, KEY)?
        .ok_or_else(|| Error::Storage("the store has no owner".into()))
}

pub(crate) fn save(cx: &mut WriteCx<'_>, owner: &mut Owner) -> Result<()> {
    owner.updated_at = cx.now();
    cx.put_json(SINGLETONS, KEY, owner)?;
    let cached = owner.clone();
    cx.on_commit(move |inner| remember(inner, cached));
    let zone = owner.zone();
    if &zone != cx.zone() {
        cx.set_zone(zone);
        (cx.org.wiring.zone_changed)(cx)?;
    }
    Ok(())
}

/// `GET /me`: from the owner as last committed, with no store access.
pub(crate) fn me<T>(cx: &Cx<'_, T>, auth: &Auth) -> Result<Me> {
    Ok(render(&*remembered(cx.org)?, cx, auth))
}

/// `Me` of `owner` (just saved, inside a write) as `auth` sees it.
fn render<T>(owner: &Owner, cx: &Cx<'_, T>, auth: &Auth) -> Me {
    Me {
        name: owner.name.clone(),
        username: owner.username.clone(),
        has_password: owner.password_hash.is_some(),
        time_zone: cx.zone().name().to_owned(),
        time_zone_iana: cx.zone().iana().to_owned(),
        today: cx.today(),
        token: match auth {
            Auth::Token(token) => Some(token.clone()),
            _ => None,
        },
        csrf_token: match auth {
            Auth::Session { csrf_token } => Some(csrf_token.clone()),
            _ => None,
        },
    }
}

pub(crate) fn check_name(details: &mut Details, name: &str) -> String {
    squished_required(details, "name", name, limits::text::OWNER_NAME)
}

pub(crate) fn check_username(details: &mut Details, username: &str) -> String {
    let username = username.trim().to_owned();
    if username.is_empty() {
        details.add("username", "can't be blank");
    } else if char_len(&username) > limits::text::OWNER_NAME {
        details.add(
            "username",
            format!(
                "is too long (maximum is {} characters)",
                limits::text::OWNER_NAME
            ),
        );
    } else if !username
        .chars()
        .all(|c| c.is_alphanumeric() || matches!(c, '.' | '_' | '-' | '@' | '+'))
    {
        details.add("username", "may contain only letters, digits and . _ - @ +");
    }
    username
}

fn check_zone(details: &mut Details, zone: &str) -> Option<Zone> {
    let found = Zone::find(zone);
    if found.is_none() {
        let offered = Zone::suggestions(zone, 5);
        let hint = match offered.as_slice() {
            [] => "try a name such as \"London\" or \"Eastern Time (US & Canada)\"".to_owned(),
            names => {
                let quoted: Vec<String> = names.iter().map(|n| format!("{n:?}")).collect();
                format!("did you mean {}?", quoted.join(", "))
            }
        };
        details.add(
            "time_zone",
            format!("{zone:?} is not a zone of the picker list ({hint})"),
        );
    }
    found
}

/// Sets the owner up; refused once the owner was set up before.
pub(crate) fn init(cx: &mut WriteCx<'_>, init: &OwnerInit) -> Result<Me> {
    let mut owner = load(cx)?;
    if owner.initialised {
        return Err(Error::conflict(
            "The owner is set up already; change it with `organiser me set`",
        ));
    }
    let (name, username, zone) = init.checked()?;
    owner.name = name;
    owner.username = username;
    owner.time_zone = zone.name().to_owned();
    owner.initialised = true;
    save(cx, &mut owner)?;
    Ok(render(&owner, cx, &Auth::Local))
}

pub(crate) fn parse_change(f: &mut Fields<'_>) -> OwnerChange {
    let mut change = OwnerChange::default();
    match f.string("name") {
        Field::Value(v) => change.name = Some(v),
        Field::Null => f.add("name", "can't be blank"),
        Field::Absent => {}
    }
    match f.string("time_zone") {
        Field::Value(v) => change.time_zone = Some(v),
        Field::Null => f.add("time_zone", "can't be blank"),
        Field::Absent => {}
    }
    change
}

/// Changes the owner's name or zone.
pub(crate) fn change(cx: &mut WriteCx<'_>, auth: &Auth, change: &OwnerChange) -> Result<Me> {
    auth.require_session()?;
    let mut owner = load(cx)?;
    let mut details = Details::new();
    let name = change.name.as_deref().map(|n| check_name(&mut details, n));
    let zone = change
        .time_zone
        .as_deref()
        .map(|z| check_zone(&mut details, z));
    details.into_validation()?;
    if let Some(name) = name {
        owner.name = name;
    }
    if let Some(Some(zone)) = zone {
        owner.time_zone = zone.name().to_owned();
    }
    owner.initialised = true;
    save(cx, &mut owner)?;
    Ok(render(&owner, cx, auth))
}

/// `PUT /me/username`.
/// `{username}` of `PUT /me/username`.
pub(crate) fn parse_username(body: Option<&serde_json::Value>) -> Result<Field<String>> {
    let mut f = crate::input::top(body)?;
    let username = f.string("username");
    f.finish()?;
    Ok(username)
}

/// `{current_password, password}` of `PUT /me/password`.
pub(crate) fn parse_password(
    body: Option<&serde_json::Value>,
) -> Result<(Option<String>, Option<String>)> {
    let mut f = crate::input::top(body)?;
    let current = f.string("current_password");
    let new = f.string("password");
    f.finish()?;
    Ok((current.value(), new.value()))
}

pub(crate) fn set_username(
    cx: &mut WriteCx<'_>,
    auth: &Auth,
    username: Field<String>,
) -> Result<Me> {
    auth.require_session()?;
    let mut details = Details::new();
    let username = match username {
        Field::Value(u) => check_username(&mut details, &u),
        _ => {
            details.add("username", "can't be blank");
            String::new()
        }
    };
    details.into_validation()?;
    let mut owner = load(cx)?;
    owner.username = username;
    save(cx, &mut owner)?;
    Ok(render(&owner, cx, auth))
}

/// `PUT /me/password`: `current_password` is needed when a password is set,
/// except for the owner at the machine.
pub(crate) fn set_password(
    cx: &mut WriteCx<'_>,
    auth: &Auth,
    current: Option<&str>,
    new: Option<&str>,
) -> Result<Me> {
    auth.require_session()?;
    let mut owner = load(cx)?;
    let mut details = Details::new();
    if let (Some(hash), false) = (&owner.password_hash, matches!(auth, Auth::Local)) {
        match current {
            Some(current) if password::verify(current, hash) => {}
            Some(_) => details.add("current_password", "is not the current password"),
            None => details.add("current_password", "can't be blank"),
        }
    }
    match new {
        Some(new) => {
            if let Some(problem) = password::problems(new) {
                details.add("password", problem);
            }
        }
        None => details.add("password", "can't be blank"),
    }
    details.into_validation()?;
    owner.password_hash = Some(password::hash(new.expect("checked"))?);
    save(cx, &mut owner)?;
    Ok(render(&owner, cx, auth))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_change_reads_back_as_itself() {
        for change in [
            OwnerChange::default(),
            OwnerChange {
                name: Some("Ada".into()),
                time_zone: None,
            },
            OwnerChange {
                name: Some("Ada".into()),
                time_zone: Some("Eastern Time (US & Canada)".into()),
            },
        ] {
            let body = serde_json::json!({ "me": change });
            let read = crate::input::parse_record(Some(&body), "me", parse_change).unwrap();
            assert_eq!(read, change);
        }
    }
}
