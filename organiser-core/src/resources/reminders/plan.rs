//! What falls due (EXTENSIONS.md §3, "Rules"): task reminders taken from
//! their queue by time, and the daily reminders (the agenda, key dates and
//! deadlines some days ahead) for each day whose time has come since the
//! last one planned. Each becomes one notification per channel of
//! `reminder_settings.channel_ids`, in the one transaction that also
//! takes it from its queue or moves its day on, so a reminder is planned
//! once whatever happens between.

use jiff::Timestamp;
use jiff::civil::Date;

use super::log::{self, Message, NotificationKind};
use super::settings::{self, Stored, instant_on, last_day_due};
use super::{CATCH_UP, channels, message};
use crate::engine::{Cx, WriteCx};
use crate::error::Result;
use crate::ids::Id;
use crate::resources::calendar;
use crate::resources::tasks;
use crate::store::Tables;
use crate::time::add_days;

/// The most task reminders planned in one transaction.
const TASKS_AT_ONCE: usize = 500;
/// The most days a daily reminder looks back after downtime (each one's
/// rows are `missed` beyond the first day).
const MOST_DAYS_BACK: i64 = 7;

/// The daily reminders.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Daily {
    Agenda,
    KeyDates,
    Deadlines,
}

impl Daily {
    const ALL: [Daily; 3] = [Daily::Agenda, Daily::KeyDates, Daily::Deadlines];

    /// Its time of day, when it is on.
    fn at(self, s: &Stored) -> Option<&str> {
        let set = &s.settings;
        match self {
            Daily::Agenda => set
                .daily_agenda
                .enabled
                .then_some(set.daily_agenda.at.as_str()),
            Daily::KeyDates => {
                (!set.key_dates.days_before.is_empty()).then_some(set.key_dates.at.as_str())
            }
            Daily::Deadlines => {
                (!set.deadlines.days_before.is_empty()).then_some(set.deadlines.at.as_str())
            }
        }
    }

    fn through(self, s: &mut Stored) -> &mut Option<Date> {
        match self {
            Daily::Agenda => &mut s.agenda_through,
            Daily::KeyDates => &mut s.key_dates_through,
            Daily::Deadlines => &mut s.deadlines_through,
        }
    }
}

/// The channels reminders go to now: those of the settings that exist
/// and are on.
fn channels_on<T: Tables>(cx: &Cx<'_, T>, s: &Stored) -> Result<Vec<Id>> {
    let mut on = Vec::new();
    for id in &s.settings.channel_ids {
        if channels::load(cx, *id)?.is_some_and(|c| c.channel.enabled) {
            on.push(*id);
        }
    }
    Ok(on)
}

/// When the next reminder falls due: the earliest of the task queue, the
/// daily reminders' next times and the pending notifications' next tries.
/// One key read per queue: this is what the scheduler asks every second.
pub(crate) fn next_due<T: Tables>(cx: &Cx<'_, T>) -> Result<Option<Timestamp>> {
    let mut next = [tasks::remind::next(cx)?, log::next_try(cx)?];
    let s = settings::stored(cx)?;
    let zone = cx.zone();
    let mut daily = None::<Timestamp>;
    for d in Daily::ALL {
        let Some(at) = d.at(&s) else { continue };
        let mut copy = s.clone();
        let when = match *d.through(&mut copy) {
            // Never looked: the scheduler sets where it starts at once.
            None => cx.now(),
            Some(day) => instant_on(day.tomorrow().unwrap_or(day), at, zone),
        };
        daily = Some(daily.map_or(when, |t: Timestamp| t.min(when)));
    }
    next[0] = match (next[0], daily) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    Ok(next.into_iter().flatten().min())
}

/// Plans what has fallen due by now; how many notifications it made.
pub(crate) fn plan(cx: &mut WriteCx<'_>) -> Result<usize> {
    let mut s = settings::stored(cx)?;
    let channels = channels_on(cx, &s)?;
    let mut made = 0;
    let now = cx.now();
    for (id, at) in tasks::remind::take_due(cx, now, TASKS_AT_ONCE)? {
        let Ok(task) = tasks::load_live(cx, id) else {
            continue;
        };
        if task.status.is_closed() {
            continue;
        }
        let m = message::task(cx, &task);
        made += to_each(cx, &channels, NotificationKind::Task, Some(id), at, &m)?;
    }
    let before = s.clone();
    for d in Daily::ALL {
        let Some(at) = d.at(&s).map(str::to_owned) else {
            continue;
        };
        let last = last_day_due(&at, now, cx.zone());
        let through = d.through(&mut s);
        let Some(from) = *through else {
            // First look: start with the next time to come.
            *through = Some(last);
            continue;
        };
        let first = add_days(from, 1).max(add_days(last, -MOST_DAYS_BACK));
        *through = Some(last.max(from));
        let mut day = first;
        while day <= last {
            let due = instant_on(day, &at, cx.zone());
            made += daily(cx, &s, d, day, due, &channels)?;
            day = add_days(day, 1);
        }
    }
    if s != before {
        settings::save(cx, &s)?;
    }
    Ok(made)
}

/// One notification per channel; how many.
fn to_each(
    cx: &WriteCx<'_>,
    channels: &[Id],
    kind: NotificationKind,
    subject: Option<Id>,
    due: Timestamp,
    m: &Message,
) -> Result<usize> {
    for channel in channels {
        log::add(cx, kind, subject, *channel, due, m)?;
    }
    Ok(channels.len())
}

/// Plans daily reminder `d` of `day`, due at `due`.
fn daily(
    cx: &WriteCx<'_>,
    s: &Stored,
    d: Daily,
    day: Date,
    due: Timestamp,
    channels: &[Id],
) -> Result<usize> {
    if channels.is_empty() {
        return Ok(0);
    }
    let late = cx.now().duration_since(due) > CATCH_UP;
    let mut made = 0;
    match d {
        Daily::Agenda => {
            // A missed agenda is not read again: what it would have said
            // is gone by now.
            let m = if late {
                Message {
                    title: "Your day".to_owned(),
                    ..Message::default()
                }
            } else {
                message::agenda(cx, day)?
            };
            made += to_each(cx, channels, NotificationKind::Agenda, None, due, &m)?;
        }
        Daily::KeyDates => {
            for &ahead in &s.settings.key_dates.days_before {
                let on = add_days(day, i64::from(ahead));
                for k in calendar::key_dates(cx, on, on)? {
                    let m = message::key_date(cx, &k, i64::from(ahead));
                    made += to_each(
                        cx,
                        channels,
                        NotificationKind::KeyDate,
                        Some(k.key_date.id),
                        due,
                        &m,
                    )?;
                }
            }
        }
        Daily::Deadlines => {
            for &ahead in &s.settings.deadlines.days_before {
                let on = add_days(day, i64::from(ahead));
                for t in calendar::tasks_due(cx, on, on)? {
                    if t.status.is_closed() {
                        continue;
                    }
                    let m = message::task_deadline(cx, &t, i64::from(ahead));
                    made += to_each(
                        cx,
                        channels,
                        NotificationKind::Deadline,
                        Some(t.id),
                        due,
                        &m,
                    )?;
                }
                for p in calendar::project_dates(cx, on, on)? {
                    if p.kind != "deadline" {
                        continue;
                    }
                    let m = message::project_deadline(cx, &p.project, i64::from(ahead));
                    made += to_each(
                        cx,
                        channels,
                        NotificationKind::Deadline,
                        Some(p.project.id),
                        due,
                        &m,
                    )?;
                }
            }
        }
    }
    Ok(made)
}
