//! `GET /upcoming_deadlines` (document 2, "UpcomingDeadline" and "Project
//! events and deadlines"): open projects due from today through `days`
//! days ahead, every overdue one before them, by deadline, name and id;
//! today is in the owner's zone. One walk of the open deadlines' index
//! from its start, stopping at the window's end or the limit.

use jiff::civil::Date;
use serde::{Deserialize, Serialize};

use super::Project;
use super::tables::PROJECTS_OPEN_BY_DEADLINE;
use crate::engine::Cx;
use crate::error::Result;
use crate::list::Query;
use crate::store::key::{Reader, date_from_number, tail_id};
use crate::store::{Dir, Tables};
use crate::time::add_days;

/// Days ahead when neither `days` nor `limit` is sent.
const DEFAULT_DAYS: u64 = 30;
/// The most items a `limit` gives.
const MOST_LIMIT: u64 = 100;

/// One project's deadline.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UpcomingDeadline {
    /// The deadline.
    pub date: Date,
    /// Whether it is before today.
    pub overdue: bool,
    /// The project.
    pub project: Project,
}

/// `GET /upcoming_deadlines` parameters.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct UpcomingDeadlinesQuery {
    /// Days ahead of today (inclusive); a whole number.
    pub days: Option<u64>,
    /// The nearest this many (at most 100).
    pub limit: Option<u64>,
}

impl UpcomingDeadlinesQuery {
    /// The query's parameters, as [`UpcomingDeadlinesQuery::parse`] reads them.
    pub(crate) fn query_pairs(&self) -> Vec<(&'static str, String)> {
        let mut pairs = Vec::new();
        if let Some(days) = self.days {
            pairs.push(("days", days.to_string()));
        }
        if let Some(limit) = self.limit {
            pairs.push(("limit", limit.to_string()));
        }
        pairs
    }

    pub(crate) fn parse(query: &Query) -> Result<UpcomingDeadlinesQuery> {
        Ok(UpcomingDeadlinesQuery {
            days: query.whole("days", 0)?,
            limit: query.whole("limit", 1)?.map(|l| l.min(MOST_LIMIT)),
        })
    }

    /// The window's last day: `days` from today; 30 days without `days`
    /// and `limit`; none with `limit` alone.
    fn last_day(&self, today: Date) -> Option<Date> {
        match (self.days, self.limit) {
            (Some(days), _) => Some(add_days(today, i64::try_from(days).unwrap_or(i64::MAX))),
            (None, None) => Some(add_days(today, DEFAULT_DAYS as i64)),
            (None, Some(_)) => None,
        }
    }
}

/// `GET /upcoming_deadlines`.
pub(crate) fn upcoming<T: Tables>(
    cx: &Cx<'_, T>,
    q: UpcomingDeadlinesQuery,
) -> Result<Vec<UpcomingDeadline>> {
    let today = cx.today();
    let last = q.last_day(today);
    // A typed caller's limit is held to the API's 1 to 100.
    let limit = q
        .limit
        .map_or(usize::MAX, |l| l.clamp(1, MOST_LIMIT) as usize);
    let mut due = Vec::new();
    cx.scan_prefix(PROJECTS_OPEN_BY_DEADLINE, &[], Dir::Asc, &mut |k, _| {
        let date = date_from_number(Reader::new(k).i32());
        if last.is_some_and(|last| date > last) || due.len() >= limit {
            return Ok(false);
        }
        due.push((date, tail_id(k)));
        Ok(true)
    })?;
    let mut items = Vec::with_capacity(due.len());
    for (date, id) in due {
        items.push(UpcomingDeadline {
            date,
            overdue: date < today,
            project: super::load_live(cx, id)?,
        });
    }
    Ok(items)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_window_follows_days_and_limit() {
        let today = Date::constant(2026, 3, 1);
        let q = |days, limit| UpcomingDeadlinesQuery { days, limit };
        assert_eq!(
            q(None, None).last_day(today),
            Some(Date::constant(2026, 3, 31))
        );
        assert_eq!(q(Some(0), None).last_day(today), Some(today));
        assert_eq!(q(None, Some(3)).last_day(today), None);
        assert_eq!(
            q(Some(1), Some(3)).last_day(today),
            Some(Date::constant(2026, 3, 2))
        );
        assert_eq!(q(Some(u64::MAX), None).last_day(today), Some(Date::MAX));
    }
}
