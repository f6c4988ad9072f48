//! The calendar range and each person's meetings (document 3, "Calendar
//! range", `GET /calendar`, and the Meetings rules under People): views
//! over the feeds' occurrences, tasks, projects and key dates; nothing to
//! page or sync.

mod api;

pub use api::Calendar;
pub(crate) use api::OPERATIONS;

use std::collections::HashSet;

use jiff::civil::Date;
use serde::{Deserialize, Serialize};

use crate::engine::Cx;
use crate::error::{Error, Result};
use crate::ids::Id;
use crate::list::Query;
use crate::resources::calendar_feeds::CalendarEvent;
use crate::resources::calendar_feeds::events::{self, Found, Matcher, Shown};
use crate::resources::people::key_dates::years_on;
use crate::resources::people::{self, Person, UpcomingKeyDate, UpcomingMeta};
use crate::resources::projects::{self, Project};
use crate::resources::tasks::{self, Repetition, Task};
use crate::store::Tables;
use crate::text::fold_case;
use crate::time::{add_days, days_between, parse_date};

/// The most days a range holds.
pub(crate) const MOST_DAYS: i64 = 42;
/// How far ahead meetings are looked for.
pub(crate) const MEETING_DAYS: i64 = 60;

/// `GET /calendar` parameters: `from` and `to`, both required.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CalendarQuery {
    /// The first day.
    pub from: Date,
    /// The last day (inclusive), at most 41 days after `from`.
    pub to: Date,
}

impl CalendarQuery {
    /// The query's parameters, as [`CalendarQuery::parse`] reads them.
    pub(crate) fn query_pairs(&self) -> Vec<(&'static str, String)> {
        vec![("from", self.from.to_string()), ("to", self.to.to_string())]
    }

    /// `from` to `to` inclusive: 400 unless `to` is on or after `from` and
    /// the range is at most 42 days.
    pub fn new(from: Date, to: Date) -> Result<CalendarQuery> {
        if to < from {
            return Err(Error::bad_param("to", "must be on or after from"));
        }
        if days_between(from, to) + 1 > MOST_DAYS {
            return Err(Error::bad_param(
                "to",
                format!(
                    "must be at most {} days after from (a range holds at most {MOST_DAYS} days)",
                    MOST_DAYS - 1
                ),
            ));
        }
        Ok(CalendarQuery { from, to })
    }

    pub(crate) fn parse(query: &Query) -> Result<CalendarQuery> {
        let date = |name: &str| -> Result<Date> {
            match query.get(name) {
                None | Some("") => Err(Error::bad_param(name, "is required")),
                Some(text) => parse_date(text)
                    .ok_or_else(|| Error::bad_param(name, "must be a date (YYYY-MM-DD)")),
            }
        };
        let from = date("from");
        let to = date("to");
        let (from, to) = match (from, to) {
            (Ok(f), Ok(t)) => (f, t),
            (Err(e), _) | (_, Err(e)) => return Err(e),
        };
        CalendarQuery::new(from, to)
    }
}

/// A project's start or deadline in the range.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProjectDate {
    /// The day.
    pub date: Date,
    /// `deadline` or `start`.
    pub kind: String,
    /// The project.
    pub project: Project,
}

/// `GET /calendar`: what falls on each day of a range. (The HTTP answer
/// is written from `Parts`, field for field the same.)
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CalendarRange {
    /// The first day.
    pub from: Date,
    /// The last day.
    pub to: Date,
    /// Today in the owner's zone.
    pub today: Date,
    /// Occurrences touching the range, by start (all day first on a day),
    /// title and key.
    pub events: Vec<CalendarEvent>,
    /// Open or completed live tasks due in the range, by deadline and title.
    pub tasks: Vec<Task>,
    /// The dates to come of repeating tasks (EXTENSIONS.md §1, rule 7),
    /// by date and title, at most 500.
    pub repeats: Vec<Repetition>,
    /// Starts and deadlines of planned, active and on-hold projects.
    pub project_dates: Vec<ProjectDate>,
    /// Live people's key dates falling in the range.
    pub key_dates: Vec<UpcomingKeyDate>,
    /// The people the events' attendees are, by name.
    pub people: Vec<Person>,
}

/// The live open or completed tasks due from `from` to `to`.
pub(crate) fn tasks_due<T: Tables>(cx: &Cx<'_, T>, from: Date, to: Date) -> Result<Vec<Task>> {
    let ids = tasks::due_between(cx, from, to)?;
    let mut found = Vec::with_capacity(ids.len());
    for id in ids {
        if let Ok(task) = tasks::get(cx, id) {
            found.push(task);
        }
    }
    found.sort_by_cached_key(|t| (t.deadline_on, fold_case(&t.title), t.id));
    Ok(found)
}

/// The starts and deadlines of open projects from `from` to `to`.
pub(crate) fn project_dates<T: Tables>(
    cx: &Cx<'_, T>,
    from: Date,
    to: Date,
) -> Result<Vec<ProjectDate>> {
    let mut out = Vec::new();
    for (deadline, kind) in [(false, "start"), (true, "deadline")] {
        for id in projects::open_dated_between(cx, deadline, from, to)? {
            let Ok(project) = projects::get(cx, id) else {
                continue;
            };
            let date = if kind == "start" {
                project.start_date
            } else {
                project.deadline
            };
            if let Some(date) = date {
                out.push(ProjectDate {
                    date,
                    kind: kind.to_owned(),
                    project,
                });
            }
        }
    }
    out.sort_by_cached_key(|d| {
        (
            d.date,
            fold_case(&d.project.name),
            d.project.id,
            d.kind != "start",
        )
    });
    Ok(out)
}

/// Live people's key dates falling from `from` to `to` (29 February on
/// 1 March in a year without one).
pub(crate) fn key_dates<T: Tables>(
    cx: &Cx<'_, T>,
    from: Date,
    to: Date,
) -> Result<Vec<UpcomingKeyDate>> {
    let mut found: Vec<(Date, Id, Id)> = Vec::new();
    let mut day = from;
    while day <= to {
        let mut keys = vec![(day.month(), day.day())];
        if day.month() == 3 && day.day() == 1 && !day.in_leap_year() {
            keys.push((2, 29));
        }
        for (month, d) in keys {
            for (person, date) in people::key_dates_on(cx, month, d)? {
                found.push((day, person, date));
            }
        }
        day = add_days(day, 1);
    }
    let mut out = Vec::with_capacity(found.len());
    let mut loaded: std::collections::HashMap<Id, Person> = std::collections::HashMap::new();
    for (date, person_id, date_id) in found {
        let person = match loaded.entry(person_id) {
            std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::hash_map::Entry::Vacant(e) => {
                match people::load_live(cx, person_id) {
                    Ok(p) => e.insert(p),
                    Err(_) => continue,
                }
            }
        };
        let Some(key_date) = person.key_dates.iter().find(|d| d.id == date_id) else {
            continue;
        };
        out.push(UpcomingKeyDate {
            date,
            years: years_on(key_date.year, date),
            key_date: key_date.clone(),
            person: people::PersonBrief {
                id: person.id,
                name: person.name.clone(),
                avatar: person.avatar.clone(),
                relationships: person.relationships.clone(),
            },
        });
    }
    let kind_rank = |kind: &str| {
        crate::resources::vocabulary::KEY_DATE_KINDS
            .iter()
            .position(|k| k.key == kind)
            .unwrap_or(usize::MAX)
    };
    out.sort_by_cached_key(|k| {
        (
            k.date,
            fold_case(&k.person.name),
            k.person.id,
            kind_rank(k.key_date.kind.as_str()),
            k.key_date.id,
        )
    });
    Ok(out)
}

/// What a range holds, read once: the occurrences in order (the people
/// their shown attendees are, per occurrence) and the rest.
pub(crate) struct Parts {
    from: Date,
    to: Date,
    today: Date,
    found: Vec<Found>,
    matched: Vec<std::sync::Arc<[Option<Id>]>>,
    tasks: Vec<Task>,
    repeats: Vec<Repetition>,
    project_dates: Vec<ProjectDate>,
    key_dates: Vec<UpcomingKeyDate>,
    people: Vec<Person>,
}

/// Reads what range `q` holds.
pub(crate) fn gather<T: Tables>(cx: &Cx<'_, T>, q: CalendarQuery) -> Result<Parts> {
    let mut found = events::touching(cx, q.from, q.to, cx.zone())?;
    found.sort_by(Found::order);
    let mut matcher = Matcher::default();
    let mut matched = Vec::with_capacity(found.len());
    for f in &found {
        matched.push(Shown::new(cx, f, &mut matcher)?.people);
    }
    // The people of each event once (its occurrences share them).
    let ids: HashSet<Id> = matcher.shown_people().collect();
    let mut people: Vec<Person> = ids
        .into_iter()
        .filter_map(|id| people::load_live(cx, id).ok())
        .collect();
    people.sort_by_cached_key(|p| (fold_case(&p.name), p.id));
    Ok(Parts {
        from: q.from,
        to: q.to,
        today: cx.today(),
        tasks: tasks_due(cx, q.from, q.to)?,
        repeats: tasks::repetitions(cx, q.from, q.to)?,
        project_dates: project_dates(cx, q.from, q.to)?,
        key_dates: key_dates(cx, q.from, q.to)?,
        found,
        matched,
        people,
    })
}

impl Parts {
    fn shown(&self) -> impl Iterator<Item = Shown<'_>> {
        self.found
            .iter()
            .zip(&self.matched)
            .map(|(found, people)| Shown {
                found,
                people: people.clone(),
            })
    }

    /// The range, owned.
    pub(crate) fn into_range(self) -> CalendarRange {
        let events = self.shown().map(|s| s.to_event()).collect();
        CalendarRange {
            from: self.from,
            to: self.to,
            today: self.today,
            events,
            tasks: self.tasks,
            repeats: self.repeats,
            project_dates: self.project_dates,
            key_dates: self.key_dates,
            people: self.people,
        }
    }

    /// About how many bytes its JSON takes (an event with its attendees
    /// is about a kilobyte).
    pub(crate) fn size_hint(&self) -> usize {
        4096 + self.found.len() * 1024
            + (self.tasks.len() + self.repeats.len() + self.people.len()) * 1024
    }

    /// Photo addresses made absolute with `base`.
    pub(crate) fn absolute(mut self, base: &str) -> Parts {
        for p in &mut self.people {
            if let Some(a) = &mut p.avatar {
                crate::resources::people::absolute_avatar(a, base);
            }
        }
        for k in &mut self.key_dates {
            if let Some(a) = &mut k.person.avatar {
                crate::resources::people::absolute_avatar(a, base);
            }
        }
        self
    }
}

/// The JSON of [`CalendarRange`], written from the parts without copying
/// the events.
impl Serialize for Parts {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        struct Events<'a>(&'a Parts);
        impl Serialize for Events<'_> {
            fn serialize<S: serde::Serializer>(
                &self,
                s: S,
            ) -> std::result::Result<S::Ok, S::Error> {
                s.collect_seq(self.0.shown())
            }
        }
        let mut out = s.serialize_struct("CalendarRange", 9)?;
        out.serialize_field("from", &self.from)?;
        out.serialize_field("to", &self.to)?;
        out.serialize_field("today", &self.today)?;
        out.serialize_field("events", &Events(self))?;
        out.serialize_field("tasks", &self.tasks)?;
        out.serialize_field("repeats", &self.repeats)?;
        out.serialize_field("project_dates", &self.project_dates)?;
        out.serialize_field("key_dates", &self.key_dates)?;
        out.serialize_field("people", &self.people)?;
        out.end()
    }
}

/// `GET /calendar`.
pub(crate) fn range<T: Tables>(cx: &Cx<'_, T>, q: CalendarQuery) -> Result<CalendarRange> {
    Ok(gather(cx, q)?.into_range())
}

/// `GET /people/{id}/meetings` parameters: `limit`, a whole number from 1
/// (default 10, at most 100).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MeetingsQuery {
    /// The most events.
    pub limit: u64,
}

impl MeetingsQuery {
    /// The query's parameters, as [`MeetingsQuery::parse`] reads them.
    pub(crate) fn query_pairs(&self) -> Vec<(&'static str, String)> {
        vec![("limit", self.limit.to_string())]
    }

    pub(crate) fn parse(query: &Query) -> Result<MeetingsQuery> {
        let limit = query.whole("limit", 1)?.unwrap_or(10).min(100);
        Ok(MeetingsQuery { limit })
    }
}

/// `{data: [CalendarEvent], meta: {limit, has_more}}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Meetings {
    /// The person's upcoming event occurrences, soonest first.
    pub data: Vec<CalendarEvent>,
    /// The limit and whether more fall in the 60 days.
    pub meta: UpcomingMeta,
}

/// `GET /people/{id}/meetings`: the upcoming occurrences person `id`
/// attends: from now to 60 days from today, not yet ended, in the
/// calendar's order; the first `limit` and whether there are more.
pub(crate) fn meetings<T: Tables>(cx: &Cx<'_, T>, id: Id, q: MeetingsQuery) -> Result<Meetings> {
    let limit = q.limit;
    people::load_live(cx, id)?;
    let today = cx.today();
    let now = cx.now();
    let mut found: Vec<Found> =
        events::touching(cx, today, add_days(today, MEETING_DAYS), cx.zone())?
            .into_iter()
            .filter(|f| !f.ended(now, today))
            .collect();
    found.sort_by(Found::order);
    let mut matcher = Matcher::default();
    let mut out = Vec::new();
    let mut more = false;
    for f in &found {
        let mut attends = false;
        for a in &f.event.attendees {
            if matcher.person(cx, &a.name, a.email.as_deref())? == Some(id) {
                attends = true;
                break;
            }
        }
        if !attends {
            continue;
        }
        if out.len() as u64 == limit {
            more = true;
            break;
        }
        out.push(Shown::new(cx, f, &mut matcher)?.to_event());
    }
    Ok(Meetings {
        data: out,
        meta: UpcomingMeta {
            limit,
            has_more: more,
        },
    })
}
