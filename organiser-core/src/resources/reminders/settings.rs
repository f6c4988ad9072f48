//! Reminder settings (EXTENSIONS.md §3, `/reminder_settings`): where
//! everything goes, the daily agenda, and how far ahead key dates and
//! deadlines are told, all in the owner's zone; with what the scheduler
//! keeps beside them (the last day each daily reminder was planned for).

use jiff::Timestamp;
use jiff::civil::Date;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::channels;
use crate::engine::{Cx, WriteCx};
use crate::error::{Details, Result};
use crate::ids::Id;
use crate::input::{Field, Fields};
use crate::store::Tables;
use crate::store::schema::SINGLETONS;
use crate::time::Zone;

const KEY: &[u8] = b"reminder_settings";
/// The most days ahead a key date or deadline is told.
const MOST_DAYS_BEFORE: i64 = 60;

/// The daily agenda.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DailyAgenda {
    /// Whether it is sent.
    pub enabled: bool,
    /// When, `HH:MM` in the owner's zone.
    pub at: String,
}

/// Reminders some days ahead (key dates, deadlines).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DaysAhead {
    /// How many days before (0 is the day itself), ascending, each once;
    /// empty sends none.
    pub days_before: Vec<u8>,
    /// When, `HH:MM` in the owner's zone.
    pub at: String,
}

/// `GET /reminder_settings`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReminderSettings {
    /// The channels every reminder goes to, in the order given.
    pub channel_ids: Vec<Id>,
    /// Today's queue, meetings, key dates and deadlines in one message.
    pub daily_agenda: DailyAgenda,
    /// People's key dates.
    pub key_dates: DaysAhead,
    /// Deadlines of open tasks and of planned, active and on-hold
    /// projects.
    pub deadlines: DaysAhead,
}

impl Default for ReminderSettings {
    fn default() -> Self {
        ReminderSettings {
            channel_ids: Vec::new(),
            daily_agenda: DailyAgenda {
                enabled: false,
                at: "07:00".to_owned(),
            },
            key_dates: DaysAhead {
                days_before: vec![0, 7],
                at: "09:00".to_owned(),
            },
            deadlines: DaysAhead {
                days_before: vec![0, 1],
                at: "09:00".to_owned(),
            },
        }
    }
}

/// `PATCH /reminder_settings`: what is sent changes; inside the three
/// objects too.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ReminderSettingsChange {
    /// The channels every reminder goes to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub channel_ids: Option<Vec<Id>>,
    /// The daily agenda's `enabled` and `at`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub daily_agenda: Option<AgendaChange>,
    /// Key dates' `days_before` and `at`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key_dates: Option<DaysAheadChange>,
    /// Deadlines' `days_before` and `at`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deadlines: Option<DaysAheadChange>,
}

/// A change of the daily agenda.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct AgendaChange {
    /// Whether it is sent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enabled: Option<bool>,
    /// `HH:MM`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at: Option<String>,
}

/// A change of key dates' or deadlines' reminders.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct DaysAheadChange {
    /// Whole numbers from 0 to 60.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub days_before: Option<Vec<i64>>,
    /// `HH:MM`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at: Option<String>,
}

/// The settings as stored, with the last day each daily reminder was
/// planned for (`None` until the scheduler first looks).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub(crate) struct Stored {
    pub(crate) settings: ReminderSettings,
    pub(crate) agenda_through: Option<Date>,
    pub(crate) key_dates_through: Option<Date>,
    pub(crate) deadlines_through: Option<Date>,
}

pub(crate) fn stored<T: Tables>(cx: &Cx<'_, T>) -> Result<Stored> {
    Ok(cx.get_json(SINGLETONS, KEY)?.unwrap_or_default())
}

pub(crate) fn save(cx: &WriteCx<'_>, s: &Stored) -> Result<()> {
    cx.put_json(SINGLETONS, KEY, s)
}

/// `GET /reminder_settings`.
pub(crate) fn get<T: Tables>(cx: &Cx<'_, T>) -> Result<ReminderSettings> {
    Ok(stored(cx)?.settings)
}

/// `HH:MM`, 00:00 to 23:59.
pub(crate) fn read_at(text: &str) -> Option<(i8, i8)> {
    let (h, m) = text.trim().split_once(':')?;
    if h.len() != 2 || m.len() != 2 {
        return None;
    }
    let (h, m): (i8, i8) = (h.parse().ok()?, m.parse().ok()?);
    ((0..24).contains(&h) && (0..60).contains(&m)).then_some((h, m))
}

/// The instant `at` (`HH:MM`) falls on `date` in `zone`; a time a clock
/// change skips is read by the offset before it (01:30 in London on the
/// spring change is 02:30 summer time), and one it repeats is the first.
pub(crate) fn instant_on(date: Date, at: &str, zone: &Zone) -> Timestamp {
    let (h, m) = read_at(at).unwrap_or((9, 0));
    date.at(h, m, 0, 0)
        .to_zoned(zone.time_zone().clone())
        .map_or(Timestamp::UNIX_EPOCH, |z| z.timestamp())
}

/// The last day whose `at` has come by `now`.
pub(crate) fn last_day_due(at: &str, now: Timestamp, zone: &Zone) -> Date {
    let today = zone.today(now);
    if instant_on(today, at, zone) <= now {
        today
    } else {
        today.yesterday().unwrap_or(today)
    }
}

/// Reads `{reminder_settings: {...}}`.
pub(crate) fn parse(body: Option<&Value>) -> Result<ReminderSettingsChange> {
    crate::input::parse_record(body, "reminder_settings", read)
}

fn read(f: &mut Fields<'_>) -> ReminderSettingsChange {
    let mut change = ReminderSettingsChange::default();
    match f.raw("channel_ids") {
        Field::Absent => {}
        Field::Null => change.channel_ids = Some(Vec::new()),
        Field::Value(Value::Array(items)) => {
            let ids: Option<Vec<Id>> = items
                .iter()
                .map(|v| v.as_str().and_then(Id::parse))
                .collect();
            match ids {
                Some(ids) => change.channel_ids = Some(ids),
                None => f.add("channel_ids", "must be an array of IDs"),
            }
        }
        Field::Value(_) => f.add("channel_ids", "must be an array of IDs"),
    }
    let object = |f: &mut Fields<'_>, name: &str| -> Option<serde_json::Map<String, Value>> {
        match f.raw(name) {
            Field::Absent => None,
            Field::Value(Value::Object(map)) => {
                for key in map.keys() {
                    let known = if name == "daily_agenda" {
                        ["enabled", "at"].contains(&key.as_str())
                    } else {
                        ["days_before", "at"].contains(&key.as_str())
                    };
                    if !known {
                        f.add(&format!("{name}.{key}"), "is not a known field");
                    }
                }
                Some(map.clone())
            }
            _ => {
                f.add(name, "must be an object");
                None
            }
        }
    };
    let at = |f: &mut Fields<'_>, name: &str, map: &serde_json::Map<String, Value>| match map
        .get("at")
    {
        None => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(_) => {
            f.add(
                &format!("{name}.at"),
                "must be a time HH:MM, from 00:00 to 23:59",
            );
            None
        }
    };
    if let Some(map) = object(f, "daily_agenda") {
        let enabled = match map.get("enabled") {
            None => None,
            Some(Value::Bool(b)) => Some(*b),
            Some(_) => {
                f.add("daily_agenda.enabled", "must be true or false");
                None
            }
        };
        change.daily_agenda = Some(AgendaChange {
            enabled,
            at: at(f, "daily_agenda", &map),
        });
    }
    for name in ["key_dates", "deadlines"] {
        if let Some(map) = object(f, name) {
            let days_before = match map.get("days_before") {
                None => None,
                Some(Value::Null) => Some(Vec::new()),
                Some(Value::Array(items)) => {
                    let days: Option<Vec<i64>> = items.iter().map(Value::as_i64).collect();
                    if days.is_none() {
                        f.add(
                            &format!("{name}.days_before"),
                            "must be whole numbers from 0 to 60",
                        );
                    }
                    days
                }
                Some(_) => {
                    f.add(
                        &format!("{name}.days_before"),
                        "must be whole numbers from 0 to 60",
                    );
                    None
                }
            };
            let c = DaysAheadChange {
                days_before,
                at: at(f, name, &map),
            };
            if name == "key_dates" {
                change.key_dates = Some(c);
            } else {
                change.deadlines = Some(c);
            }
        }
    }
    change
}

/// Applies `change`; whether the reminder starts again (turned on, or its
/// time moved).
fn apply_ahead(
    name: &str,
    change: &DaysAheadChange,
    ahead: &mut DaysAhead,
    details: &mut Details,
) -> bool {
    let mut at_moved = false;
    let was_on = !ahead.days_before.is_empty();
    if let Some(days) = &change.days_before {
        if days.iter().all(|d| (0..=MOST_DAYS_BEFORE).contains(d)) {
            let mut days: Vec<u8> = days.iter().filter_map(|d| u8::try_from(*d).ok()).collect();
            days.sort_unstable();
            days.dedup();
            ahead.days_before = days;
        } else {
            details.add(
                format!("{name}.days_before"),
                "must be whole numbers from 0 to 60",
            );
        }
    }
    if let Some(at) = &change.at {
        match read_at(at) {
            Some((h, m)) => {
                let at = format!("{h:02}:{m:02}");
                at_moved = at != ahead.at;
                ahead.at = at;
            }
            None => details.add(
                format!("{name}.at"),
                "must be a time HH:MM, from 00:00 to 23:59",
            ),
        }
    }
    // Turned on again, or moved: it starts at its next time to come.
    at_moved || (!was_on && !ahead.days_before.is_empty())
}

/// `PATCH /reminder_settings`. A daily reminder turned on or moved to
/// another time starts with its next time to come: nothing is sent late
/// for a time set after it passed.
pub(crate) fn change(
    cx: &mut WriteCx<'_>,
    input: ReminderSettingsChange,
) -> Result<ReminderSettings> {
    let mut details = Details::new();
    let mut s = stored(cx)?;
    let before = s.settings.clone();
    if let Some(ids) = &input.channel_ids {
        let mut kept: Vec<Id> = Vec::with_capacity(ids.len());
        for id in ids {
            if channels::load(cx, *id)?.is_none() {
                details.add("channel_ids", format!("{id} is not a notification channel"));
            } else if !kept.contains(id) {
                kept.push(*id);
            }
        }
        s.settings.channel_ids = kept;
    }
    let (now, zone) = (cx.now(), cx.zone().clone());
    if let Some(a) = &input.daily_agenda {
        if let Some(enabled) = a.enabled {
            s.settings.daily_agenda.enabled = enabled;
        }
        if let Some(at) = &a.at {
            match read_at(at) {
                Some((h, m)) => s.settings.daily_agenda.at = format!("{h:02}:{m:02}"),
                None => details.add(
                    "daily_agenda.at",
                    "must be a time HH:MM, from 00:00 to 23:59",
                ),
            }
        }
        let agenda = &s.settings.daily_agenda;
        if agenda.enabled && (agenda.at != before.daily_agenda.at || !before.daily_agenda.enabled) {
            s.agenda_through = Some(last_day_due(&agenda.at, now, &zone));
        }
    }
    if let Some(c) = &input.key_dates
        && apply_ahead("key_dates", c, &mut s.settings.key_dates, &mut details)
    {
        s.key_dates_through = Some(last_day_due(&s.settings.key_dates.at, now, &zone));
    }
    if let Some(c) = &input.deadlines
        && apply_ahead("deadlines", c, &mut s.settings.deadlines, &mut details)
    {
        s.deadlines_through = Some(last_day_due(&s.settings.deadlines.at, now, &zone));
    }
    details.into_validation()?;
    save(cx, &s)?;
    super::wake_after_commit(cx);
    Ok(s.settings)
}

/// A deleted channel leaves `channel_ids`.
pub(crate) fn forget_channel(cx: &WriteCx<'_>, id: Id) -> Result<()> {
    let mut s = stored(cx)?;
    if s.settings.channel_ids.contains(&id) {
        s.settings.channel_ids.retain(|c| *c != id);
        save(cx, &s)?;
    }
    Ok(())
}
