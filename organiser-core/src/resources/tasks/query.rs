//! `GET /tasks` (document 2): the views, the `status` and home filters,
//! every allowed `order` for each, `direction`, `updated_since`, keyset
//! cursors, `limit` and `count`.
//!
//! Each request becomes a plan over the task indexes. A view whose default
//! order is an index's order streams it (stopping one past the page); other
//! orders collect the view's candidates from the narrowest index (today's
//! set, a deadline or start range, one home) and sort them. Filters read
//! the covering attributes, never the records; only the page's tasks load.

use std::collections::HashSet;
use std::ops::Bound;

use jiff::Timestamp;
use jiff::civil::Date;

use super::home::Home;
use super::index::{Attrs, home_in_key, keys};
use super::{Task, TaskStatus, load_live};
use crate::engine::Cx;
use crate::error::{Details, Error, Result};
use crate::ids::Id;
use crate::list::Query;
use crate::list::{Cursor, Direction, ListParams, Page};
use crate::resources::tasks::tables::{
    TASKS_BY_HOME, TASKS_BY_STATUS_ID, TASKS_BY_STATUS_POSITION, TASKS_BY_STATUS_UPDATED,
    TASKS_CLOSED, TASKS_OPEN_BY_DEADLINE, TASKS_OPEN_BY_HOME, TASKS_OPEN_BY_START, TASKS_TODAY,
};
use crate::store::key::{Key, prefix_end, tail_id};
use crate::store::{Dir, Tables, Tbl};
use crate::time::add_days;

/// A smart list, with today in the owner's zone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum View {
    /// Everything open in the Inbox, plus open tasks overdue or due within 14 days.
    Overview,
    /// Open tasks starting today or earlier.
    Today,
    /// Open tasks starting after today, not in the Inbox.
    Planned,
    /// Open tasks with no start date, not in the Inbox.
    OneDay,
    /// Open tasks overdue or due within 14 days.
    DueSoon,
    /// `due_soon` without today's (no start date, or starting after today).
    DueNotToday,
    /// Open tasks overdue, due today, or started.
    TodayQueue,
    /// Closed tasks by when they closed.
    Logbook,
}

impl View {
    /// Every view with its API name.
    pub const ALL: [(View, &'static str); 8] = [
        (View::Overview, "overview"),
        (View::Today, "today"),
        (View::Planned, "planned"),
        (View::OneDay, "one_day"),
        (View::DueSoon, "due_soon"),
        (View::DueNotToday, "due_not_today"),
        (View::TodayQueue, "today_queue"),
        (View::Logbook, "logbook"),
    ];

    /// The API name.
    pub fn as_str(self) -> &'static str {
        View::ALL
            .iter()
            .find(|(v, _)| *v == self)
            .map(|(_, n)| *n)
            .unwrap_or("")
    }

    /// The view with this API name.
    pub fn parse(s: &str) -> Option<View> {
        View::ALL.iter().find(|(_, n)| *n == s).map(|(v, _)| *v)
    }

    /// Whether `a` is on this view on `day`.
    pub(crate) fn holds(self, a: &Attrs, day: &Day) -> bool {
        let (today, soon) = (day.today, day.soon);
        let open = a.is_open();
        let due_by = |d: Date| a.deadline.is_some_and(|x| x <= d);
        let started = a.start.is_some_and(|s| s <= today);
        match self {
            View::Overview => open && (a.home == Home::Inbox || due_by(soon)),
            View::Today => open && started,
            View::Planned => open && a.start.is_some_and(|s| s > today) && a.home != Home::Inbox,
            View::OneDay => open && a.start.is_none() && a.home != Home::Inbox,
            View::DueSoon => open && due_by(soon),
            View::DueNotToday => open && due_by(soon) && !started,
            View::TodayQueue => open && (due_by(today) || started),
            View::Logbook => !open,
        }
    }
}

/// Today, and the last day of "within 14 days", computed once per request.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Day {
    pub(crate) today: Date,
    pub(crate) soon: Date,
}

impl Day {
    pub(crate) fn new(today: Date) -> Day {
        Day {
            today,
            soon: add_days(today, 14),
        }
    }
}

/// The orders of `GET /tasks`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TaskOrder {
    /// The home's manual order, ties by id.
    Position,
    /// Creation (the same as id order).
    CreatedAt,
    /// Last change.
    UpdatedAt,
    /// ID.
    Id,
    /// Start date, none last (`view=planned`).
    StartOn,
    /// Deadline, none last (`due_soon`, `due_not_today`, `today_queue`).
    DeadlineOn,
    /// When it closed (`view=logbook`).
    ClosedAt,
    /// When it was completed (`status=completed` alone).
    CompletedAt,
}

impl TaskOrder {
    const ALL: [(TaskOrder, &'static str); 8] = [
        (TaskOrder::Position, "position"),
        (TaskOrder::CreatedAt, "created_at"),
        (TaskOrder::UpdatedAt, "updated_at"),
        (TaskOrder::Id, "id"),
        (TaskOrder::StartOn, "start_on"),
        (TaskOrder::DeadlineOn, "deadline_on"),
        (TaskOrder::ClosedAt, "closed_at"),
        (TaskOrder::CompletedAt, "completed_at"),
    ];

    /// The API name.
    pub fn as_str(self) -> &'static str {
        TaskOrder::ALL
            .iter()
            .find(|(o, _)| *o == self)
            .map(|(_, n)| *n)
            .unwrap_or("")
    }

    fn parse(s: &str) -> Option<TaskOrder> {
        TaskOrder::ALL
            .iter()
            .find(|(_, n)| *n == s)
            .map(|(o, _)| *o)
    }

    /// The sort key of a task in this order (ends with its id).
    fn key(self, id: Id, a: &Attrs) -> Key {
        match self {
            TaskOrder::Position => keys::by_position(a.position, id),
            TaskOrder::CreatedAt | TaskOrder::Id => Key::new().id(id),
            TaskOrder::UpdatedAt => keys::by_time(a.updated, id),
            TaskOrder::StartOn => keys::by_date(a.start, id),
            TaskOrder::DeadlineOn => keys::by_date(a.deadline, id),
            TaskOrder::ClosedAt | TaskOrder::CompletedAt => {
                keys::by_time(a.closed.unwrap_or(Timestamp::UNIX_EPOCH), id)
            }
        }
    }
}

/// `GET /tasks` parameters.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TaskQuery {
    /// A smart list.
    pub view: Option<View>,
    /// Only these statuses (not with `view`).
    pub statuses: Option<Vec<TaskStatus>>,
    /// Only this home's tasks.
    pub home: Option<Home>,
    /// The order; `None` takes the view's default.
    pub order: Option<TaskOrder>,
    /// direction, updated_since, cursor, limit, count.
    pub params: ListParams,
}

/// The home filters of `GET /tasks` and `GET /task_counts`: `inbox=true`,
/// `task_list_id`, `person_id`, `project_id`; two or more is a 400.
pub(crate) fn parse_home(q: &Query) -> Result<Option<Home>> {
    let mut homes = Vec::new();
    if q.only_true("inbox")? {
        homes.push(Home::Inbox);
    }
    if let Some(id) = q.id("task_list_id")? {
        homes.push(Home::List(id));
    }
    if let Some(id) = q.id("person_id")? {
        homes.push(Home::Person(id));
    }
    if let Some(id) = q.id("project_id")? {
        homes.push(Home::Project(id));
    }
    match homes.as_slice() {
        [] => Ok(None),
        [home] => Ok(Some(*home)),
        _ => Err(Error::bad_param(
            "base",
            "give at most one of inbox, task_list_id, person_id, project_id",
        )),
    }
}

impl TaskQuery {
    /// The query's parameters, as [`TaskQuery::parse`] reads them.
    pub(crate) fn query_pairs(&self) -> Vec<(&'static str, String)> {
        let mut pairs = Vec::new();
        if let Some(view) = self.view {
            pairs.push(("view", view.as_str().to_owned()));
        }
        if let Some(statuses) = &self.statuses {
            let names: Vec<&str> = statuses.iter().map(|s| s.as_str()).collect();
            pairs.push(("status", names.join(",")));
        }
        super::home::to_query(self.home, &mut pairs);
        let order = self.order.map(|o| o.as_str());
        self.params.to_query_ordered(
            order.or(self.params.order.map(crate::list::ListOrder::as_str)),
            &mut pairs,
        );
        pairs
    }

    /// Reads and checks the query: every refused combination is a 400.
    pub(crate) fn parse(q: &Query) -> Result<TaskQuery> {
        let mut details = Details::new();
        let names: Vec<&str> = TaskOrder::ALL.iter().map(|(_, n)| *n).collect();
        debug_assert!(
            names
                .iter()
                .all(|n| crate::list::ListOrder::parse(n).is_some())
        );
        let params = ListParams::parse(q, &names)?;
        let view = match q.get("view") {
            None => None,
            Some(v) => match View::parse(v) {
                Some(v) => Some(v),
                None => {
                    details.add("view", "is not a view");
                    None
                }
            },
        };
        let statuses = match q.get("status") {
            None => None,
            Some(s) => {
                let parsed: Option<Vec<TaskStatus>> = s.split(',').map(TaskStatus::parse).collect();
                match parsed {
                    Some(list) if !list.is_empty() => Some(list),
                    _ => {
                        details.add("status", "must be statuses from open, completed, wont_do, archived, comma-separated");
                        None
                    }
                }
            }
        };
        if q.has("view") && q.has("status") {
            details.add("status", "can't be combined with view");
        }
        let home = parse_home(q)?;
        details.into_invalid_parameter()?;
        let order = params.order.and_then(|o| TaskOrder::parse(o.as_str()));
        let query = TaskQuery {
            view,
            statuses,
            home,
            order,
            params,
        };
        if let Some(order) = order
            && !query.allows(order)
        {
            return Err(Error::bad_param(
                "order",
                format!("{} can't be used with this view or status", order.as_str()),
            ));
        }
        Ok(query)
    }

    fn allows(&self, order: TaskOrder) -> bool {
        match order {
            TaskOrder::Position | TaskOrder::CreatedAt | TaskOrder::UpdatedAt | TaskOrder::Id => {
                true
            }
            TaskOrder::StartOn => self.view == Some(View::Planned),
            TaskOrder::DeadlineOn => matches!(
                self.view,
                Some(View::DueSoon | View::DueNotToday | View::TodayQueue)
            ),
            TaskOrder::ClosedAt => self.view == Some(View::Logbook),
            TaskOrder::CompletedAt => {
                self.view.is_none()
                    && self.statuses.as_deref() == Some(&[TaskStatus::Completed][..])
            }
        }
    }

    /// The order used: the one sent, else the view's default.
    pub fn effective_order(&self) -> TaskOrder {
        if self.params.updated_since.is_some() {
            return TaskOrder::UpdatedAt;
        }
        self.order.unwrap_or(match self.view {
            Some(View::Planned) => TaskOrder::StartOn,
            Some(View::DueSoon | View::DueNotToday | View::TodayQueue) => TaskOrder::DeadlineOn,
            Some(View::Logbook) => TaskOrder::ClosedAt,
            _ => TaskOrder::Position,
        })
    }

    /// The direction used: the one sent, else desc for the logbook.
    pub fn effective_direction(&self) -> Direction {
        let default = if self.view == Some(View::Logbook) {
            Direction::Desc
        } else {
            Direction::Asc
        };
        self.params.direction_or(default)
    }

    fn scope(&self) -> String {
        let statuses: Vec<&str> = self.statuses.iter().flatten().map(|s| s.as_str()).collect();
        format!(
            "tasks|{}|{}|{:?}|{}|{}|{}",
            self.view.map(View::as_str).unwrap_or("-"),
            statuses.join(","),
            self.home,
            self.effective_order().as_str(),
            self.effective_direction().as_str(),
            self.params
                .updated_since
                .map(|t| t.as_millisecond())
                .unwrap_or(i64::MIN),
        )
    }
}

/// What a listing keeps.
#[derive(Debug, Clone)]
pub(crate) struct Filter {
    pub(crate) view: Option<View>,
    pub(crate) statuses: Option<Vec<TaskStatus>>,
    pub(crate) home: Option<Home>,
    pub(crate) since: Option<Timestamp>,
    pub(crate) day: Day,
}

impl Filter {
    pub(crate) fn matches(&self, a: &Attrs) -> bool {
        self.view.is_none_or(|v| v.holds(a, &self.day))
            && self.statuses.as_ref().is_none_or(|s| s.contains(&a.status))
            && self.home.is_none_or(|h| h == a.home)
            && self.since.is_none_or(|t| a.updated >= t)
    }
}

/// Called with each entry of a range: its sort key, its task, its
/// attributes (when the index covers them); `false` stops the walk.
pub(crate) type Visit<'a> = &'a mut dyn FnMut(&[u8], Id, Option<Attrs>) -> bool;

/// A range of one index: keys from `lo` (inclusive) to `hi` (exclusive)
/// that all begin with `prefix`; the rest of each key is its sort key.
#[derive(Clone)]
pub(crate) struct Range {
    pub(crate) table: Tbl,
    pub(crate) prefix: Vec<u8>,
    pub(crate) lo: Vec<u8>,
    pub(crate) hi: Option<Vec<u8>>,
    /// Whether values hold [`Attrs`].
    pub(crate) covering: bool,
    /// What this range keeps beyond the listing's filter (so that ranges
    /// merged into one stream do not list a task twice).
    pub(crate) only: Option<fn(&Attrs) -> bool>,
}

impl Range {
    /// Every key under `prefix`.
    pub(crate) fn prefix(table: Tbl, prefix: Vec<u8>, covering: bool) -> Range {
        let hi = prefix_end(&prefix);
        Range {
            table,
            lo: prefix.clone(),
            prefix,
            hi,
            covering,
            only: None,
        }
    }

    /// Keys from `lo` to `hi` (no prefix).
    pub(crate) fn between(table: Tbl, lo: Vec<u8>, hi: Option<Vec<u8>>, covering: bool) -> Range {
        Range {
            table,
            prefix: Vec::new(),
            lo,
            hi,
            covering,
            only: None,
        }
    }

    /// Visits each entry (sort key, id, attrs if covering) in `dir` order,
    /// after the sort key `after`, until `f` says stop.
    pub(crate) fn walk<T: Tables>(
        &self,
        cx: &Cx<'_, T>,
        dir: Dir,
        after: Option<&[u8]>,
        f: Visit<'_>,
    ) -> Result<()> {
        let resume: Option<Vec<u8>> = after.map(|a| [self.prefix.as_slice(), a].concat());
        let mut lo = Bound::Included(self.lo.as_slice());
        let mut hi = match &self.hi {
            Some(h) => Bound::Excluded(h.as_slice()),
            None => Bound::Unbounded,
        };
        if let Some(r) = &resume {
            match dir {
                Dir::Asc if r.as_slice() >= self.lo.as_slice() => {
                    lo = Bound::Excluded(r.as_slice())
                }
                Dir::Desc if self.hi.as_deref().is_none_or(|h| r.as_slice() < h) => {
                    hi = Bound::Excluded(r.as_slice())
                }
                _ => {}
            }
        }
        let skip = self.prefix.len();
        let covering = self.covering;
        let keyed = covering && home_in_key(self.table);
        let only = self.only;
        cx.scan(self.table, lo, hi, dir, &mut |k, v| {
            let attrs = match (covering, keyed) {
                (false, _) => None,
                (true, false) => Some(Attrs::decode(v)),
                (true, true) => Some(Attrs::decode_keyed(k, v)),
            };
            if let (Some(only), Some(a)) = (only, &attrs)
                && !only(a)
            {
                return Ok(true);
            }
            Ok(f(&k[skip..], tail_id(k), attrs))
        })
    }
}

/// How a listing is answered.
enum Plan {
    /// Ranges already in the wanted order: merge their heads.
    Stream(Vec<Range>),
    /// Candidate ranges to collect, filter and sort.
    Collect(Vec<Range>),
}

fn deadline_until(day: Date) -> Option<Vec<u8>> {
    Some(keys::date_bound(Some(day)).into_vec())
}

/// One range per status of a status-first index; `covering` when its values
/// hold attributes.
fn by_status(
    table: Tbl,
    covering: bool,
    statuses: &[TaskStatus],
    lo: Option<Timestamp>,
) -> Vec<Range> {
    statuses
        .iter()
        .map(|s| {
            let prefix = Key::new().tag(s.code()).into_vec();
            let mut range = Range::prefix(table, prefix.clone(), covering);
            if let Some(t) = lo {
                range.lo = Key::new().bytes(&prefix).timestamp(t).into_vec();
            }
            range
        })
        .collect()
}

const CLOSED: [TaskStatus; 3] = [
    TaskStatus::Completed,
    TaskStatus::WontDo,
    TaskStatus::Archived,
];

/// The Inbox's open tasks, by position.
fn inbox_open() -> Range {
    Range::prefix(
        TASKS_OPEN_BY_HOME,
        keys::home_prefix(Home::Inbox).into_vec(),
        true,
    )
}

fn plan(q: &TaskQuery, order: TaskOrder, today: Date) -> Plan {
    let since = q.params.updated_since;
    let stream_if = |ok: bool, range: Range| {
        if ok && since.is_none() {
            Plan::Stream(vec![range])
        } else {
            Plan::Collect(vec![range])
        }
    };
    let deadline_soon = || {
        Range::between(
            TASKS_OPEN_BY_DEADLINE,
            Vec::new(),
            deadline_until(add_days(today, 15)),
            true,
        )
    };
    if let Some(home) = q.home {
        let range = Range::prefix(TASKS_BY_HOME, keys::home_prefix(home).into_vec(), true);
        return stream_if(order == TaskOrder::Position, range);
    }
    match q.view {
        Some(View::Today) => stream_if(
            order == TaskOrder::Position,
            Range::prefix(TASKS_TODAY, Vec::new(), true),
        ),
        Some(View::DueSoon | View::DueNotToday) => {
            stream_if(order == TaskOrder::DeadlineOn, deadline_soon())
        }
        Some(View::Planned) => {
            let lo = keys::date_bound(Some(add_days(today, 1))).into_vec();
            let hi = keys::date_bound(None).into_vec();
            stream_if(
                order == TaskOrder::StartOn,
                Range::between(TASKS_OPEN_BY_START, lo, Some(hi), true),
            )
        }
        Some(View::OneDay) if order == TaskOrder::Position && since.is_none() => Plan::Stream(
            by_status(TASKS_BY_STATUS_POSITION, true, &[TaskStatus::Open], None),
        ),
        Some(View::OneDay) => {
            let lo = keys::date_bound(None).into_vec();
            Plan::Collect(vec![Range::between(TASKS_OPEN_BY_START, lo, None, true)])
        }
        Some(View::Overview) if order == TaskOrder::Position && since.is_none() => {
            // The Inbox's open tasks and the rest of the open tasks, both by
            // position, merged.
            let mut outside = by_status(TASKS_BY_STATUS_POSITION, true, &[TaskStatus::Open], None);
            outside[0].only = Some(|a| a.home != Home::Inbox);
            Plan::Stream(vec![inbox_open(), outside.remove(0)])
        }
        Some(View::Overview) => Plan::Collect(vec![inbox_open(), deadline_soon()]),
        Some(View::TodayQueue) if order == TaskOrder::DeadlineOn && since.is_none() => {
            // Every open task by deadline: the due ones first, all kept,
            // then those started.
            Plan::Stream(vec![Range::between(
                TASKS_OPEN_BY_DEADLINE,
                Vec::new(),
                None,
                true,
            )])
        }
        Some(View::TodayQueue) => Plan::Collect(vec![
            Range::between(
                TASKS_OPEN_BY_DEADLINE,
                Vec::new(),
                deadline_until(add_days(today, 1)),
                true,
            ),
            Range::prefix(TASKS_TODAY, Vec::new(), true),
        ]),
        Some(View::Logbook) => match order {
            TaskOrder::Position => {
                Plan::Stream(by_status(TASKS_BY_STATUS_POSITION, true, &CLOSED, None))
            }
            TaskOrder::CreatedAt | TaskOrder::Id => {
                Plan::Stream(by_status(TASKS_BY_STATUS_ID, false, &CLOSED, None))
            }
            TaskOrder::UpdatedAt => {
                Plan::Stream(by_status(TASKS_BY_STATUS_UPDATED, false, &CLOSED, since))
            }
            _ => Plan::Stream(vec![Range::prefix(TASKS_CLOSED, Vec::new(), true)]),
        },
        None => {
            let statuses = q
                .statuses
                .clone()
                .unwrap_or_else(|| TaskStatus::ALL.to_vec());
            match order {
                TaskOrder::Position => {
                    Plan::Stream(by_status(TASKS_BY_STATUS_POSITION, true, &statuses, None))
                }
                TaskOrder::CreatedAt | TaskOrder::Id => {
                    Plan::Stream(by_status(TASKS_BY_STATUS_ID, false, &statuses, None))
                }
                TaskOrder::UpdatedAt => {
                    Plan::Stream(by_status(TASKS_BY_STATUS_UPDATED, false, &statuses, since))
                }
                _ => Plan::Stream(vec![Range::prefix(TASKS_CLOSED, Vec::new(), true)]),
            }
        }
    }
}

/// The IDs of one page, the sort key of its last item when more follow,
/// and the size of the whole set when asked.
struct Found {
    ids: Vec<Id>,
    next: Option<Vec<u8>>,
    total: Option<u64>,
}

/// Which page of a plan's results to take.
struct Paging<'a> {
    order: TaskOrder,
    dir: Dir,
    after: Option<&'a [u8]>,
    limit: usize,
    want_total: bool,
}

fn run<T: Tables>(
    cx: &Cx<'_, T>,
    plan: &Plan,
    filter: &Filter,
    paging: &Paging<'_>,
) -> Result<Found> {
    let Paging {
        order,
        dir,
        after,
        limit,
        want_total,
    } = *paging;
    let keep = |attrs: &Option<Attrs>| attrs.as_ref().is_none_or(|a| filter.matches(a));
    let mut rows: Vec<(Vec<u8>, Id)> = Vec::new();
    let mut total = None;
    match plan {
        Plan::Stream(ranges) => {
            for range in ranges {
                let mut taken = 0;
                range.walk(cx, dir, after, &mut |sort, id, attrs| {
                    if keep(&attrs) {
                        rows.push((sort.to_vec(), id));
                        taken += 1;
                    }
                    taken <= limit
                })?;
            }
            if want_total {
                let mut n = 0u64;
                for range in ranges {
                    range.walk(cx, dir, None, &mut |_, _, attrs| {
                        n += u64::from(keep(&attrs));
                        true
                    })?;
                }
                total = Some(n);
            }
        }
        Plan::Collect(ranges) => {
            let mut seen = HashSet::new();
            for range in ranges {
                range.walk(cx, Dir::Asc, None, &mut |_, id, attrs| {
                    if let Some(a) = attrs.filter(|a| filter.matches(a))
                        && seen.insert(id)
                    {
                        rows.push((order.key(id, &a).into_vec(), id));
                    }
                    true
                })?;
            }
            total = want_total.then_some(rows.len() as u64);
            if let Some(after) = after {
                rows.retain(|(k, _)| match dir {
                    Dir::Asc => k.as_slice() > after,
                    Dir::Desc => k.as_slice() < after,
                });
            }
        }
    }
    match dir {
        Dir::Asc => rows.sort_unstable(),
        Dir::Desc => rows.sort_unstable_by(|a, b| b.cmp(a)),
    }
    let next = (rows.len() > limit).then(|| rows[limit - 1].0.clone());
    rows.truncate(limit);
    Ok(Found {
        ids: rows.into_iter().map(|(_, id)| id).collect(),
        next,
        total,
    })
}

/// `GET /tasks`, as typed records.
pub(crate) fn list<T: Tables>(cx: &Cx<'_, T>, q: &TaskQuery) -> Result<Page<Task>> {
    page(cx, q, |id| load_live(cx, id))
}

/// `GET /tasks`, as the API's JSON: each task's JSON kept between reads of
/// one commit generation (`render.rs`).
pub(crate) fn list_json<T: Tables>(
    cx: &Cx<'_, T>,
    q: &TaskQuery,
) -> Result<Page<Box<serde_json::value::RawValue>>> {
    let kept = cx.org.ext.get::<super::render::Rendered>();
    page(cx, q, |id| super::render::task_json(cx, &kept, id))
}

/// One page of `q`, each listed task made by `item`.
fn page<T: Tables, I>(
    cx: &Cx<'_, T>,
    q: &TaskQuery,
    mut item: impl FnMut(Id) -> Result<I>,
) -> Result<Page<I>> {
    let order = q.effective_order();
    let dir = q.effective_direction().dir();
    let today = cx.today();
    let filter = Filter {
        view: q.view,
        statuses: q.statuses.clone(),
        home: q.home,
        since: q.params.updated_since,
        day: Day::new(today),
    };
    let cursor = Cursor::new(&cx.org.secret, q.scope());
    let after = q
        .params
        .cursor
        .as_deref()
        .map(|c| cursor.decode(c))
        .transpose()?;
    // A total the counters know costs nothing; otherwise the plan counts.
    let known_total = match q.params.count {
        true => super::counts::fast_total(cx, q)?,
        false => None,
    };
    let paging = Paging {
        order,
        dir,
        after: after.as_deref(),
        limit: q.params.limit,
        want_total: q.params.count && known_total.is_none(),
    };
    let found = run(cx, &plan(q, order, today), &filter, &paging)?;
    let items = found
        .ids
        .into_iter()
        .map(&mut item)
        .collect::<Result<Vec<_>>>()?;
    Ok(Page {
        items,
        next_cursor: found.next.map(|k| cursor.encode(&k)),
        limit: q.params.limit,
        total_count: known_total.or(found.total),
    })
}
