//! `GET /task_counts` (document 2, "Counts"): the Inbox, today, due soon
//! and overdue counts, each list's open count, and the counts of one page
//! (a view, or one home). Read from the counters beside the indexes and
//! small index ranges, never by scanning tasks.
//!
//! Page counts: `open` and `overdue` count the page's open tasks;
//! `completed`, `completed_today`, `wont_do` and `expired` count the closed
//! tasks of the homes the page draws from (one home; every home; or every
//! home but the Inbox for `planned` and `one_day`). The logbook lists no
//! open task, so its `open` and `overdue` are 0.

use std::ops::Bound;

use serde::{Deserialize, Serialize};

use super::TaskStatus;
use super::home::Home;
use super::index::{Attrs, TodaySet, counter, keys};
use super::query::{Range, TaskQuery, View, parse_home};
use crate::engine::Cx;
use crate::error::{Details, Error, Result};
use crate::ids::Id;
use crate::list::Query;
use crate::resources::task_lists::tables::TASK_LISTS_BY_POSITION;
use crate::resources::tasks::tables::{TASKS_CLOSED, TASKS_OPEN_BY_DEADLINE};
use crate::store::key::{Key, tail_id};
use crate::store::{Dir, Tables};
use crate::time::add_days;

/// `GET /task_counts`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaskCounts {
    /// Open tasks in the Inbox.
    pub inbox: u64,
    /// Open tasks starting today or earlier (`view=today`).
    pub today: u64,
    /// Open tasks overdue or due within 14 days (`view=due_soon`).
    pub due_soon: u64,
    /// Open tasks whose deadline passed.
    pub overdue: u64,
    /// Each live list's open tasks, in list order.
    pub task_lists: Vec<TaskListCount>,
    /// The named page's counts; null when no view or home is named.
    pub page: Option<PageCounts>,
}

/// One list's open count.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaskListCount {
    /// The list.
    pub id: Id,
    /// Its open tasks.
    pub open: u64,
}

/// The counts of one page.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PageCounts {
    /// Open tasks on the page.
    pub open: u64,
    /// Completed tasks of the page's homes.
    pub completed: u64,
    /// Of those, completed today.
    pub completed_today: u64,
    /// Open tasks on the page whose deadline passed.
    pub overdue: u64,
    /// Tasks marked won't do in the page's homes.
    pub wont_do: u64,
    /// Tasks archived because they expired, in the page's homes.
    pub expired: u64,
}

/// `GET /task_counts` parameters.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TaskCountsQuery {
    /// `overview`, `today`, `planned`, `one_day` or `logbook`.
    pub view: Option<View>,
    /// One home (with no view, or with `logbook`).
    pub home: Option<Home>,
}

impl TaskCountsQuery {
    /// The query's parameters, as [`TaskCountsQuery::parse`] reads them.
    pub(crate) fn query_pairs(&self) -> Vec<(&'static str, String)> {
        let mut pairs = Vec::new();
        if let Some(view) = self.view {
            pairs.push(("view", view.as_str().to_owned()));
        }
        super::home::to_query(self.home, &mut pairs);
        pairs
    }

    pub(crate) fn parse(q: &Query) -> Result<TaskCountsQuery> {
        let view = match q.get("view") {
            None => None,
            Some(v) => match View::parse(v) {
                Some(
                    view @ (View::Overview
                    | View::Today
                    | View::Planned
                    | View::OneDay
                    | View::Logbook),
                ) => Some(view),
                _ => {
                    return Err(Error::bad_param(
                        "view",
                        "must be overview, today, planned, one_day or logbook",
                    ));
                }
            },
        };
        let home = parse_home(q)?;
        if home.is_some() && view.is_some_and(|v| v != View::Logbook) {
            let mut d = Details::new();
            d.add("view", "only logbook can be combined with a home");
            return Err(Error::InvalidParameter(d));
        }
        Ok(TaskCountsQuery { view, home })
    }
}

/// Which homes a page's closed counts cover.
#[derive(Clone, Copy)]
enum Scope {
    One(Home),
    All,
    AllButInbox,
}

impl Scope {
    fn holds(self, home: Home) -> bool {
        match self {
            Scope::One(h) => h == home,
            Scope::All => true,
            Scope::AllButInbox => home != Home::Inbox,
        }
    }
}

fn home_count<T: Tables>(cx: &Cx<'_, T>, home: Home, code: u8) -> Result<u64> {
    counter::get(cx, &counter::home_status(home, code))
}

fn scoped<T: Tables>(cx: &Cx<'_, T>, scope: Scope, code: u8) -> Result<u64> {
    Ok(match scope {
        Scope::One(home) => home_count(cx, home, code)?,
        Scope::All => counter::get(cx, &counter::status(code))?,
        Scope::AllButInbox => counter::get(cx, &counter::status(code))?.saturating_sub(home_count(
            cx,
            Home::Inbox,
            code,
        )?),
    })
}

/// Counts the entries of `range` whose attributes pass `keep`.
fn count_range<T: Tables>(
    cx: &Cx<'_, T>,
    range: &Range,
    keep: impl Fn(&Attrs) -> bool,
) -> Result<u64> {
    let mut n = 0;
    range.walk(cx, Dir::Asc, None, &mut |_, _, attrs| {
        n += u64::from(attrs.is_some_and(|a| keep(&a)));
        true
    })?;
    Ok(n)
}

/// How many tasks `view` lists now, read from the counters (and, for
/// `today_queue`, the tasks due today); `None` for `due_not_today`, which
/// no counter describes.
pub(crate) fn view_total<T: Tables>(cx: &Cx<'_, T>, view: View) -> Result<Option<u64>> {
    let today = cx.today();
    let soon = add_days(today, 15);
    let status = |s: TaskStatus| counter::get(cx, &counter::status(s.code()));
    Ok(Some(match view {
        View::Today => counter::get(cx, &counter::today())?,
        View::Planned => counter::sum_dates(
            cx,
            counter::start_not_inbox_all(),
            Some(add_days(today, 1)),
            None,
        )?,
        View::OneDay => counter::get(cx, &counter::someday())?,
        View::DueSoon => counter::sum_dates(cx, counter::deadline_all(), None, Some(soon))?,
        View::Overview => {
            let inbox = home_count(cx, Home::Inbox, TaskStatus::Open.code())?;
            let due = counter::sum_dates(cx, counter::deadline_all(), None, Some(soon))?;
            let inbox_due =
                counter::sum_dates(cx, counter::deadline_inbox_all(), None, Some(soon))?;
            inbox + due - inbox_due.min(due)
        }
        View::Logbook => {
            status(TaskStatus::Completed)?
                + status(TaskStatus::WontDo)?
                + status(TaskStatus::Archived)?
        }
        View::TodayQueue => {
            // Started, plus the tasks due by today that have not started:
            // every one due by today, less the overdue ones that started
            // (a counter) and those due today that started (a day's walk).
            let started = counter::get(cx, &counter::today())?;
            let due =
                counter::sum_dates(cx, counter::deadline_all(), None, Some(add_days(today, 1)))?;
            let overdue_started = counter::get(cx, &counter::overdue_today())?;
            let due_today = Range::between(
                TASKS_OPEN_BY_DEADLINE,
                keys::date_bound(Some(today)).into_vec(),
                Some(keys::date_bound(Some(add_days(today, 1))).into_vec()),
                true,
            );
            let due_today_started =
                count_range(cx, &due_today, |a| a.start.is_some_and(|s| s <= today))?;
            (started + due).saturating_sub(overdue_started + due_today_started)
        }
        View::DueNotToday => return Ok(None),
    }))
}

/// The size of a listing read from the counters, when they describe it:
/// a view with no other filter, or statuses (of one home, or of all).
pub(crate) fn fast_total<T: Tables>(cx: &Cx<'_, T>, q: &TaskQuery) -> Result<Option<u64>> {
    if q.params.updated_since.is_some() {
        return Ok(None);
    }
    let statuses = q
        .statuses
        .clone()
        .unwrap_or_else(|| TaskStatus::ALL.to_vec());
    match (q.view, q.home) {
        (Some(view), None) => view_total(cx, view),
        (Some(_), Some(_)) => Ok(None),
        (None, home) => {
            let mut total = 0;
            for s in statuses {
                total += match home {
                    Some(home) => home_count(cx, home, s.code())?,
                    None => counter::get(cx, &counter::status(s.code()))?,
                };
            }
            Ok(Some(total))
        }
    }
}

/// Overdue open tasks on `view`'s page.
fn view_overdue<T: Tables>(cx: &Cx<'_, T>, view: View) -> Result<u64> {
    Ok(match view {
        View::Today => counter::get(cx, &counter::overdue_today())?,
        View::Planned => counter::get(cx, &counter::overdue_planned())?,
        View::OneDay => counter::get(cx, &counter::overdue_someday())?,
        View::Logbook => 0,
        // Every overdue task is due within 14 days: all are on these pages.
        View::Overview | View::DueSoon | View::DueNotToday | View::TodayQueue => {
            counter::sum_dates(cx, counter::deadline_all(), None, Some(cx.today()))?
        }
    })
}

/// Tasks of `scope` completed today in the owner's zone, from the
/// quarter-hour completion counters.
fn completed_today<T: Tables>(cx: &Cx<'_, T>, scope: Scope) -> Result<u64> {
    let today = cx.today();
    let from = cx.zone().start_of(today);
    let to = cx.zone().start_of(add_days(today, 1));
    let on_quarters = [from, to]
        .iter()
        .all(|t| t.as_millisecond().rem_euclid(counter::QUARTER_MS) == 0);
    if !on_quarters {
        // A day that does not begin on a quarter hour (no zone in use
        // today has one): count the day's closed tasks.
        let range = Range::between(
            TASKS_CLOSED,
            Key::new().timestamp(from).into_vec(),
            Some(Key::new().timestamp(to).into_vec()),
            true,
        );
        return count_range(cx, &range, |a| {
            a.status == TaskStatus::Completed && scope.holds(a.home)
        });
    }
    let (from, to) = (counter::quarter(from), counter::quarter(to));
    counter::completed_between(cx, from, to, |home| scope.holds(home))
}

fn page<T: Tables>(cx: &Cx<'_, T>, q: &TaskCountsQuery) -> Result<Option<PageCounts>> {
    let scope = match (q.view, q.home) {
        (_, Some(home)) => Scope::One(home),
        (Some(View::Planned | View::OneDay), None) => Scope::AllButInbox,
        (Some(_), None) => Scope::All,
        (None, None) => return Ok(None),
    };
    let (open, overdue) = match (q.view, q.home) {
        (Some(View::Logbook), _) => (0, 0),
        (Some(view), None) => (view_total(cx, view)?.unwrap_or(0), view_overdue(cx, view)?),
        (_, Some(home)) => (
            home_count(cx, home, TaskStatus::Open.code())?,
            counter::get(cx, &counter::overdue_home(home))?,
        ),
        (None, None) => unreachable!("a page without view or home returned above"),
    };
    Ok(Some(PageCounts {
        open,
        completed: scoped(cx, scope, TaskStatus::Completed.code())?,
        completed_today: completed_today(cx, scope)?,
        overdue,
        wont_do: scoped(cx, scope, TaskStatus::WontDo.code())?,
        expired: scoped(cx, scope, counter::EXPIRED)?,
    }))
}

/// `GET /task_counts`.
pub(crate) fn counts<T: Tables>(cx: &Cx<'_, T>, q: &TaskCountsQuery) -> Result<TaskCounts> {
    debug_assert!(!TodaySet::due(cx)?, "counts read a settled store");
    let today = cx.today();
    let open_code = TaskStatus::Open.code();
    let mut task_lists = Vec::new();
    cx.scan(
        TASK_LISTS_BY_POSITION,
        Bound::Unbounded,
        Bound::Unbounded,
        Dir::Asc,
        &mut |k, _| {
            task_lists.push(TaskListCount {
                id: tail_id(k),
                open: 0,
            });
            Ok(true)
        },
    )?;
    let open = counter::by_home(cx, open_code)?;
    let (overdue, due_soon) = counter::due_before(cx, today, add_days(today, 15))?;
    for list in &mut task_lists {
        list.open = open.get(&Home::List(list.id)).copied().unwrap_or(0);
    }
    Ok(TaskCounts {
        inbox: open.get(&Home::Inbox).copied().unwrap_or(0),
        today: counter::get(cx, &counter::today())?,
        due_soon,
        overdue,
        task_lists,
        page: page(cx, q)?,
    })
}
