//! The task indexes and counters: every live task has one entry in each
//! index that applies to it (keys end with the task's ID; covering indexes
//! carry its [`Attrs`] as the value, so views filter without loading
//! records), and exact counters beside them. [`apply`] is the one place
//! that keeps them in step with the records.
//!
//! "Today" moves with the clock: the today set holds the open tasks that
//! start on or before the date it was last settled for, and
//! [`settle_today`] brings it up to date at the start of the next write
//! after the date (or the owner's zone) changes.

use std::collections::HashMap;
use std::ops::Bound;

use jiff::Timestamp;
use jiff::civil::Date;

use super::home::Home;
use super::{Task, TaskStatus};
use crate::engine::{Cx, WriteCx};
use crate::error::Result;
use crate::ids::Id;
use crate::resources::tasks::tables::{
    TASK_COUNTERS, TASKS_BY_HOME, TASKS_BY_STATUS_ID, TASKS_BY_STATUS_POSITION,
    TASKS_BY_STATUS_UPDATED, TASKS_CLOSED, TASKS_COMPLETED_BY_DEADLINE, TASKS_OPEN_BY_DEADLINE,
    TASKS_OPEN_BY_EXPIRY, TASKS_OPEN_BY_HOME, TASKS_OPEN_BY_SERIES, TASKS_OPEN_BY_START,
    TASKS_TODAY,
};
use crate::store::codec::{Unpack, put_varint};
use crate::store::key::{Key, Reader, date_from_number, date_number};
use crate::store::schema::META;
use crate::store::{Dir, Tables, Tbl, WriteTx};
use crate::time::add_days;

/// What the views filter and sort on, kept in covering index values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Attrs {
    pub(crate) status: TaskStatus,
    pub(crate) home: Home,
    pub(crate) start: Option<Date>,
    pub(crate) deadline: Option<Date>,
    pub(crate) position: i64,
    pub(crate) updated: Timestamp,
    pub(crate) closed: Option<Timestamp>,
    pub(crate) expires: Option<Date>,
    pub(crate) expired: bool,
    /// The series of a repeating task (not in covering values: it keys
    /// its own index, which no view reads).
    pub(crate) series: Option<Id>,
}

impl Attrs {
    pub(crate) fn of(task: &Task) -> Attrs {
        Attrs {
            status: task.status,
            home: task.home(),
            start: task.start_on,
            deadline: task.deadline_on,
            position: task.position,
            updated: task.updated_at,
            closed: task.closed_at(),
            expires: task.expires_on,
            expired: task.expired,
            series: task.repeat.as_ref().and(task.series_id),
        }
    }

    pub(crate) fn is_open(&self) -> bool {
        self.status == TaskStatus::Open
    }

    /// In the today set as of `as_of`: open and started.
    pub(crate) fn in_today(&self, as_of: Date) -> bool {
        self.is_open() && self.start.is_some_and(|s| s <= as_of)
    }

    /// The covering value: flags, the home, then varints of what is set.
    fn encode(&self) -> Vec<u8> {
        self.pack(true)
    }

    /// The value of this task's entry in `table`: empty unless `covering`.
    fn value_in(&self, table: Tbl, covering: bool) -> Vec<u8> {
        match (covering, home_in_key(table)) {
            (false, _) => Vec::new(),
            (true, false) => self.encode(),
            (true, true) => self.encode_without_home(),
        }
    }

    /// The covering value of an index whose keys begin with the home: the
    /// home is left out (as the Inbox) and read back from the key.
    fn encode_without_home(&self) -> Vec<u8> {
        self.pack(false)
    }

    fn pack(&self, with_home: bool) -> Vec<u8> {
        let mut out = Vec::with_capacity(48);
        let flags = self.status.code()
            | u8::from(self.expired) << 2
            | u8::from(self.start.is_some()) << 3
            | u8::from(self.deadline.is_some()) << 4
            | u8::from(self.closed.is_some()) << 5
            | u8::from(self.expires.is_some()) << 6;
        out.push(flags);
        match self.home {
            _ if !with_home => out.push(0),
            Home::Inbox => out.push(0),
            Home::List(id) | Home::Person(id) | Home::Project(id) => {
                out.push(self.home.tag());
                out.extend_from_slice(&id.to_bytes());
            }
        }
        for d in [self.start, self.deadline].into_iter().flatten() {
            put_varint(&mut out, i64::from(date_number(d)));
        }
        put_varint(&mut out, self.position);
        put_varint(&mut out, self.updated.as_millisecond());
        if let Some(t) = self.closed {
            put_varint(&mut out, t.as_millisecond());
        }
        if let Some(d) = self.expires {
            put_varint(&mut out, i64::from(date_number(d)));
        }
        out
    }

    pub(crate) fn decode(bytes: &[u8]) -> Attrs {
        let mut r = Unpack::new(bytes);
        let flags = r.byte();
        let set = |bit: u8| flags & (1 << bit) != 0;
        let home = match r.byte() {
            0 => Home::Inbox,
            tag => Home::from_tag(tag, r.id()),
        };
        let mut date = |present: bool| {
            present.then(|| date_from_number(i32::try_from(r.varint()).unwrap_or_default()))
        };
        let start = date(set(3));
        let deadline = date(set(4));
        let position = r.varint();
        let instant = |ms: i64| Timestamp::from_millisecond(ms).unwrap_or_default();
        let updated = instant(r.varint());
        let closed = set(5).then(|| instant(r.varint()));
        let expires =
            set(6).then(|| date_from_number(i32::try_from(r.varint()).unwrap_or_default()));
        Attrs {
            status: TaskStatus::from_code(flags & 0b11),
            home,
            start,
            deadline,
            position,
            updated,
            closed,
            expires,
            expired: set(2),
            series: None,
        }
    }

    /// The covering value written by schema 2 and earlier (fixed widths).
    #[cfg(test)]
    pub(crate) fn encode_fixed(&self) -> Vec<u8> {
        let opt_date = |k: Key, d: Option<Date>| match d {
            Some(d) => k.tag(1).date(d),
            None => k.tag(0).i32(0),
        };
        let mut k = Key::new().tag(self.status.code());
        k = self.home.key(k);
        k = opt_date(k, self.start);
        k = opt_date(k, self.deadline);
        k = k.i64(self.position).timestamp(self.updated);
        k = match self.closed {
            Some(t) => k.tag(1).timestamp(t),
            None => k.tag(0).i64(0),
        };
        k = opt_date(k, self.expires);
        k.tag(u8::from(self.expired)).into_vec()
    }

    /// The value of an entry `(key, value)` of an index whose keys begin
    /// with the home.
    pub(crate) fn decode_keyed(key: &[u8], value: &[u8]) -> Attrs {
        let mut attrs = Attrs::decode(value);
        attrs.home = Home::read(&mut Reader::new(key));
        attrs
    }

    /// Reads a value written by schema 2 and earlier (fixed widths).
    fn decode_fixed(bytes: &[u8]) -> Attrs {
        let mut r = Reader::new(bytes);
        let opt_date = |r: &mut Reader<'_>| {
            let present = r.tag() == 1;
            let n = r.i32();
            present.then(|| date_from_number(n))
        };
        let status = TaskStatus::from_code(r.tag());
        let home = Home::read(&mut r);
        let start = opt_date(&mut r);
        let deadline = opt_date(&mut r);
        let position = r.i64();
        let updated = Timestamp::from_millisecond(r.i64()).unwrap_or_default();
        let closed = {
            let present = r.tag() == 1;
            let ms = r.i64();
            present.then(|| Timestamp::from_millisecond(ms).unwrap_or_default())
        };
        let expires = opt_date(&mut r);
        let expired = r.tag() == 1;
        Attrs {
            status,
            home,
            start,
            deadline,
            position,
            updated,
            closed,
            expires,
            expired,
            series: None,
        }
    }
}

/// Whether the keys of covering index `table` begin with the home, so its
/// values leave the home out ([`Attrs::decode_keyed`] reads it back).
pub(crate) fn home_in_key(table: Tbl) -> bool {
    use redb::TableHandle;
    [TASKS_BY_HOME, TASKS_OPEN_BY_HOME]
        .iter()
        .any(|t| t.name() == table.name())
}

/// The covering indexes: their values are [`Attrs`].
pub(crate) const COVERING: [Tbl; 7] = [
    TASKS_BY_STATUS_POSITION,
    TASKS_BY_HOME,
    TASKS_OPEN_BY_HOME,
    TASKS_OPEN_BY_START,
    TASKS_OPEN_BY_DEADLINE,
    TASKS_CLOSED,
    TASKS_TODAY,
];

/// Migration step: rewrites the covering values of schema 2 (fixed widths)
/// in their compact form.
pub(crate) fn pack_covering_values(tx: &WriteTx) -> Result<()> {
    for table in COVERING {
        let mut entries = Vec::new();
        tx.scan(
            table,
            Bound::Unbounded,
            Bound::Unbounded,
            Dir::Asc,
            &mut |k, v| {
                entries.push((k.to_vec(), Attrs::decode_fixed(v).encode()));
                Ok(true)
            },
        )?;
        for (k, v) in entries {
            tx.insert(table, &k, &v)?;
        }
    }
    Ok(())
}

/// Index keys, one function per index, so readers and writers agree.
pub(crate) mod keys {
    use super::*;

    pub(crate) fn by_status_position(status: TaskStatus, position: i64, id: Id) -> Key {
        Key::new().tag(status.code()).i64(position).id(id)
    }

    pub(crate) fn by_status_id(status: TaskStatus, id: Id) -> Key {
        Key::new().tag(status.code()).id(id)
    }

    pub(crate) fn by_status_updated(status: TaskStatus, updated: Timestamp, id: Id) -> Key {
        Key::new().tag(status.code()).timestamp(updated).id(id)
    }

    pub(crate) fn home_prefix(home: Home) -> Key {
        home.key(Key::new())
    }

    pub(crate) fn by_home(home: Home, position: i64, id: Id) -> Key {
        home_prefix(home).i64(position).id(id)
    }

    pub(crate) fn by_date(date: Option<Date>, id: Id) -> Key {
        Key::new().opt_date_last(date).id(id)
    }

    pub(crate) fn date_bound(date: Option<Date>) -> Key {
        Key::new().opt_date_last(date)
    }

    pub(crate) fn by_time(t: Timestamp, id: Id) -> Key {
        Key::new().timestamp(t).id(id)
    }

    pub(crate) fn by_position(position: i64, id: Id) -> Key {
        Key::new().i64(position).id(id)
    }

    pub(crate) fn by_series_prefix(series: Id) -> Key {
        Key::new().id(series)
    }

    pub(crate) fn by_series(series: Id, id: Id) -> Key {
        Key::new().id(series).id(id)
    }

    pub(crate) fn by_expiry(date: Date, id: Id) -> Key {
        Key::new().date(date).id(id)
    }
}

/// Every index entry of a live task: (table, key, covering?).
fn entries(id: Id, a: &Attrs, as_of: Date) -> Vec<(Tbl, Key, bool)> {
    let mut out = vec![
        (
            TASKS_BY_STATUS_POSITION,
            keys::by_status_position(a.status, a.position, id),
            true,
        ),
        (TASKS_BY_STATUS_ID, keys::by_status_id(a.status, id), false),
        (
            TASKS_BY_STATUS_UPDATED,
            keys::by_status_updated(a.status, a.updated, id),
            false,
        ),
        (TASKS_BY_HOME, keys::by_home(a.home, a.position, id), true),
    ];
    if a.is_open() {
        out.push((
            TASKS_OPEN_BY_HOME,
            keys::by_home(a.home, a.position, id),
            true,
        ));
        out.push((TASKS_OPEN_BY_START, keys::by_date(a.start, id), true));
        out.push((TASKS_OPEN_BY_DEADLINE, keys::by_date(a.deadline, id), true));
        if let Some(expires) = a.expires {
            out.push((TASKS_OPEN_BY_EXPIRY, keys::by_expiry(expires, id), false));
        }
        if a.in_today(as_of) {
            out.push((TASKS_TODAY, keys::by_position(a.position, id), true));
        }
        if let Some(series) = a.series {
            out.push((TASKS_OPEN_BY_SERIES, keys::by_series(series, id), false));
        }
    } else if let Some(closed) = a.closed {
        out.push((TASKS_CLOSED, keys::by_time(closed, id), true));
    }
    if a.status == TaskStatus::Completed && a.deadline.is_some() {
        out.push((
            TASKS_COMPLETED_BY_DEADLINE,
            keys::by_date(a.deadline, id),
            false,
        ));
    }
    out
}

/// The live open and completed tasks due from `from` to `to` (inclusive),
/// open ones first, each by deadline.
pub(crate) fn due_between<T: Tables>(cx: &Cx<'_, T>, from: Date, to: Date) -> Result<Vec<Id>> {
    let lo = keys::date_bound(Some(from)).into_vec();
    let hi = keys::date_bound(Some(add_days(to, 1))).into_vec();
    let mut ids = Vec::new();
    for table in [TASKS_OPEN_BY_DEADLINE, TASKS_COMPLETED_BY_DEADLINE] {
        ids_between(cx, table, Bound::Included(&lo), &hi, &mut ids)?;
    }
    Ok(ids)
}

/// Adds to `ids` the ids that end the keys of `table` from `lo` to before
/// `hi`, in key order.
fn ids_between<T: Tables>(
    cx: &Cx<'_, T>,
    table: crate::store::Tbl,
    lo: Bound<&Vec<u8>>,
    hi: &[u8],
    ids: &mut Vec<Id>,
) -> Result<()> {
    cx.scan(
        table,
        lo.map(Vec::as_slice),
        Bound::Excluded(hi),
        Dir::Asc,
        &mut |k, _| {
            ids.push(crate::store::key::tail_id(k));
            Ok(true)
        },
    )
}

/// The live open tasks with a deadline, by deadline then id (the
/// calendar subscriptions' feed).
pub(crate) fn open_with_deadline<T: Tables>(cx: &Cx<'_, T>) -> Result<Vec<Id>> {
    // Tasks without a deadline sort last: the range ends where they begin.
    let hi = keys::date_bound(None).into_vec();
    let mut ids = Vec::new();
    ids_between(cx, TASKS_OPEN_BY_DEADLINE, Bound::Unbounded, &hi, &mut ids)?;
    Ok(ids)
}

/// Migration step: indexes the live completed tasks with a deadline
/// (read from the logbook's covering values).
pub(crate) fn index_completed_deadlines(tx: &WriteTx) -> Result<()> {
    let mut keys = Vec::new();
    tx.scan(
        TASKS_CLOSED,
        Bound::Unbounded,
        Bound::Unbounded,
        Dir::Asc,
        &mut |k, v| {
            let a = Attrs::decode(v);
            if a.status == TaskStatus::Completed && a.deadline.is_some() {
                keys.push(keys::by_date(a.deadline, crate::store::key::tail_id(k)));
            }
            Ok(true)
        },
    )?;
    for k in keys {
        tx.index(TASKS_COMPLETED_BY_DEADLINE, k.as_slice())?;
    }
    Ok(())
}

/// The counters.
pub(crate) mod counter {
    use super::*;

    const HOME_STATUS: u8 = 1;
    const STATUS: u8 = 2;
    const DEADLINE: u8 = 3;
    const DEADLINE_INBOX: u8 = 4;
    const START_NOT_INBOX: u8 = 5;
    const SOMEDAY: u8 = 6;
    const TODAY: u8 = 7;
    const OVERDUE_HOME: u8 = 8;
    const OVERDUE_TODAY: u8 = 10;
    const OVERDUE_PLANNED: u8 = 11;
    const OVERDUE_SOMEDAY: u8 = 12;
    const COMPLETED_IN: u8 = 13;
    /// In place of a status: archived because it expired.
    pub(crate) const EXPIRED: u8 = 9;

    /// Completions are counted per quarter of an hour (UTC): every zone's
    /// days begin on a quarter hour, so a day in any zone is a range of
    /// quarters, and changing the owner's zone changes no counter.
    pub(crate) const QUARTER_MS: i64 = 15 * 60 * 1000;

    /// The quarter hour `t` falls in.
    pub(crate) fn quarter(t: Timestamp) -> i64 {
        t.as_millisecond().div_euclid(QUARTER_MS)
    }

    /// Tasks of `home` completed in the quarter hour `quarter`.
    pub(crate) fn completed(quarter: i64, home: Home) -> Key {
        home.key(completed_from(quarter))
    }

    /// Where the completions of `quarter` and later begin.
    pub(crate) fn completed_from(quarter: i64) -> Key {
        Key::new().tag(COMPLETED_IN).i64(quarter)
    }

    /// The completions from quarter `from` (inclusive) to `to` (exclusive)
    /// of the homes `holds` takes.
    pub(crate) fn completed_between<T: Tables>(
        cx: &Cx<'_, T>,
        from: i64,
        to: i64,
        holds: impl Fn(Home) -> bool,
    ) -> Result<u64> {
        let (lo, hi) = (completed_from(from), completed_from(to));
        let mut sum = 0i64;
        each(cx, &lo, Some(&hi), |k, n| {
            if holds(Home::read(&mut Reader::new(&k[9..]))) {
                sum += n;
            }
        })?;
        Ok(sum.max(0) as u64)
    }

    /// Completion counters are read for today alone, and today in any zone
    /// lies within the last two days of quarters: older ones go when the
    /// day moves on.
    pub(crate) fn forget_completions_before(tx: &WriteTx, quarter: i64) -> Result<()> {
        let (lo, hi) = (Key::new().tag(COMPLETED_IN), completed_from(quarter));
        tx.remove_range(TASK_COUNTERS, lo.as_slice(), hi.as_slice())
    }

    /// Tasks of `home` with status `code` (a status code or [`EXPIRED`]).
    pub(crate) fn home_status(home: Home, code: u8) -> Key {
        home.key(Key::new().tag(HOME_STATUS)).tag(code)
    }

    /// The counters of every home with status `code`, in one walk of the
    /// counters (a home with none is left out).
    pub(crate) fn by_home<T: Tables>(cx: &Cx<'_, T>, code: u8) -> Result<HashMap<Home, u64>> {
        let mut counts = HashMap::new();
        let prefix = Key::new().tag(HOME_STATUS);
        cx.scan_prefix(TASK_COUNTERS, prefix.as_slice(), Dir::Asc, &mut |k, v| {
            let mut r = Reader::new(&k[1..]);
            let home = Home::read(&mut r);
            if r.tag() == code {
                let n = v.try_into().map(i64::from_be_bytes).unwrap_or(0);
                counts.insert(home, n.max(0) as u64);
            }
            Ok(true)
        })?;
        Ok(counts)
    }

    /// Live tasks with status `code` (or [`EXPIRED`]).
    pub(crate) fn status(code: u8) -> Key {
        Key::new().tag(STATUS).tag(code)
    }

    /// Open tasks due on `date`.
    pub(crate) fn deadline(date: Date) -> Key {
        Key::new().tag(DEADLINE).date(date)
    }

    pub(crate) fn deadline_all() -> Key {
        Key::new().tag(DEADLINE)
    }

    /// Open Inbox tasks due on `date`.
    pub(crate) fn deadline_inbox(date: Date) -> Key {
        Key::new().tag(DEADLINE_INBOX).date(date)
    }

    pub(crate) fn deadline_inbox_all() -> Key {
        Key::new().tag(DEADLINE_INBOX)
    }

    /// Open tasks outside the Inbox starting on `date`.
    pub(crate) fn start_not_inbox(date: Date) -> Key {
        Key::new().tag(START_NOT_INBOX).date(date)
    }

    pub(crate) fn start_not_inbox_all() -> Key {
        Key::new().tag(START_NOT_INBOX)
    }

    /// Open tasks outside the Inbox with no start date (view `one_day`).
    pub(crate) fn someday() -> Key {
        Key::new().tag(SOMEDAY)
    }

    /// The size of the today set.
    pub(crate) fn today() -> Key {
        Key::new().tag(TODAY)
    }

    /// Overdue open tasks of `home`.
    pub(crate) fn overdue_home(home: Home) -> Key {
        home.key(Key::new().tag(OVERDUE_HOME))
    }

    /// Overdue open tasks that have started (on `view=today`).
    pub(crate) fn overdue_today() -> Key {
        Key::new().tag(OVERDUE_TODAY)
    }

    /// Overdue open tasks on `view=planned`.
    pub(crate) fn overdue_planned() -> Key {
        Key::new().tag(OVERDUE_PLANNED)
    }

    /// Overdue open tasks on `view=one_day`.
    pub(crate) fn overdue_someday() -> Key {
        Key::new().tag(OVERDUE_SOMEDAY)
    }

    /// The counters a task adds to.
    pub(crate) fn of(a: &Attrs, as_of: Date) -> Vec<Key> {
        let mut out = vec![
            home_status(a.home, a.status.code()),
            status(a.status.code()),
        ];
        if a.expired {
            out.push(home_status(a.home, EXPIRED));
            out.push(status(EXPIRED));
        }
        if let (TaskStatus::Completed, Some(closed)) = (a.status, a.closed) {
            out.push(completed(quarter(closed), a.home));
        }
        if a.is_open() {
            if let Some(d) = a.deadline {
                out.push(deadline(d));
                if a.home == Home::Inbox {
                    out.push(deadline_inbox(d));
                }
            }
            if a.home != Home::Inbox {
                match a.start {
                    Some(s) => out.push(start_not_inbox(s)),
                    None => out.push(someday()),
                }
            }
            if a.in_today(as_of) {
                out.push(today());
            }
            if a.deadline.is_some_and(|d| d < as_of) {
                out.push(overdue_home(a.home));
                match a.start {
                    Some(s) if s <= as_of => out.push(overdue_today()),
                    Some(_) if a.home != Home::Inbox => out.push(overdue_planned()),
                    None if a.home != Home::Inbox => out.push(overdue_someday()),
                    _ => {}
                }
            }
        }
        out
    }

    pub(crate) fn get<T: Tables>(cx: &Cx<'_, T>, key: &Key) -> Result<u64> {
        Ok(cx
            .get(TASK_COUNTERS, key.as_slice())?
            .and_then(|v| v.try_into().ok())
            .map(i64::from_be_bytes)
            .unwrap_or(0)
            .max(0) as u64)
    }

    pub(crate) fn add(cx: &WriteTx, key: &Key, delta: i64) -> Result<()> {
        let now = cx
            .get(TASK_COUNTERS, key.as_slice())?
            .and_then(|v| v.try_into().ok())
            .map(i64::from_be_bytes)
            .unwrap_or(0);
        let next = now + delta;
        if next == 0 {
            cx.remove(TASK_COUNTERS, key.as_slice())?;
        } else {
            cx.insert(TASK_COUNTERS, key.as_slice(), &next.to_be_bytes())?;
        }
        Ok(())
    }

    /// The sum of the dated counters under `prefix` from `from` (inclusive)
    /// to `to` (exclusive); `None` bounds are open.
    pub(crate) fn sum_dates<T: Tables>(
        cx: &Cx<'_, T>,
        prefix: Key,
        from: Option<Date>,
        to: Option<Date>,
    ) -> Result<u64> {
        let lo = from.map(|d| prefix.clone().date(d));
        let hi = to.map(|d| prefix.clone().date(d));
        sum_between(cx, &prefix, lo, hi)
    }

    /// Open tasks due before `today` (overdue) and before `soon` (due
    /// soon, overdue included), in one walk of the deadline counters.
    pub(crate) fn due_before<T: Tables>(
        cx: &Cx<'_, T>,
        today: Date,
        soon: Date,
    ) -> Result<(u64, u64)> {
        let prefix = deadline_all();
        let (today_key, soon_key) = (deadline(today), deadline(soon));
        let (mut overdue, mut due) = (0i64, 0i64);
        each(cx, &prefix, Some(&soon_key), |k, n| {
            due += n;
            if k < today_key.as_slice() {
                overdue += n;
            }
        })?;
        Ok((overdue.max(0) as u64, due.max(0) as u64))
    }

    /// The sum of the counters under `prefix` from `lo` (inclusive, else
    /// the prefix's start) to `hi` (exclusive, else the prefix's end).
    pub(crate) fn sum_between<T: Tables>(
        cx: &Cx<'_, T>,
        prefix: &Key,
        lo: Option<Key>,
        hi: Option<Key>,
    ) -> Result<u64> {
        let lo = lo.unwrap_or_else(|| prefix.clone());
        let hi = match hi {
            Some(h) => Some(h),
            None => crate::store::key::prefix_end(prefix.as_slice()).map(|v| Key::new().bytes(&v)),
        };
        let mut sum = 0i64;
        each(cx, &lo, hi.as_ref(), |_, n| sum += n)?;
        Ok(sum.max(0) as u64)
    }

    /// Calls `f` with each counter's key and value from `lo` (inclusive) to
    /// `hi` (exclusive; `None` for the end).
    fn each<T: Tables>(
        cx: &Cx<'_, T>,
        lo: &Key,
        hi: Option<&Key>,
        mut f: impl FnMut(&[u8], i64),
    ) -> Result<()> {
        let hi = match hi {
            Some(h) => Bound::Excluded(h.as_slice()),
            None => Bound::Unbounded,
        };
        cx.scan(
            TASK_COUNTERS,
            Bound::Included(lo.as_slice()),
            hi,
            Dir::Asc,
            &mut |k, v| {
                f(k, v.try_into().map(i64::from_be_bytes).unwrap_or(0));
                Ok(true)
            },
        )
    }

    /// Migration step (schema 2): counts the completions of the closed
    /// tasks already stored (a store of schema 1 had no completion
    /// counters; its covering values are still of fixed width).
    pub(crate) fn count_stored_completions(tx: &WriteTx) -> Result<()> {
        let mut keys = Vec::new();
        tx.scan(
            TASKS_CLOSED,
            Bound::Unbounded,
            Bound::Unbounded,
            Dir::Asc,
            &mut |_, v| {
                let a = Attrs::decode_fixed(v);
                if let (TaskStatus::Completed, Some(closed)) = (a.status, a.closed) {
                    keys.push(completed(quarter(closed), a.home));
                }
                Ok(true)
            },
        )?;
        for key in keys {
            add(tx, &key, 1)?;
        }
        Ok(())
    }
}

const TODAY_AS_OF: &[u8] = b"tasks_today_as_of";

/// The date the today set was last settled for.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TodaySet;

impl TodaySet {
    pub(crate) fn as_of<T: Tables>(cx: &Cx<'_, T>) -> Result<Option<Date>> {
        Ok(cx
            .get(META, TODAY_AS_OF)?
            .and_then(|v| v.try_into().ok())
            .map(|b| date_from_number(i32::from_be_bytes(b))))
    }

    /// Whether the today set is behind the clock.
    pub(crate) fn due<T: Tables>(cx: &Cx<'_, T>) -> Result<bool> {
        Ok(TodaySet::as_of(cx)? != Some(cx.today()))
    }
}

/// Brings what depends on the date to today: the today set, and the
/// counters of started and overdue tasks. Only tasks that start, or fall
/// due, between the date it was last settled for and today can change
/// sides; each is moved from its old classification to its new one.
pub(crate) fn settle_today(cx: &mut WriteCx<'_>) -> Result<()> {
    let today = cx.today();
    let Some(as_of) = TodaySet::as_of(cx)? else {
        // A new store: nothing was classified yet.
        return cx.insert(META, TODAY_AS_OF, &date_number(today).to_be_bytes());
    };
    if as_of == today {
        return Ok(());
    }
    let (lo, hi) = (as_of.min(today), as_of.max(today));
    // Started in (lo, hi], or due in [lo, hi).
    let ranges = [
        (
            TASKS_OPEN_BY_START,
            keys::date_bound(Some(add_days(lo, 1))),
            keys::date_bound(Some(add_days(hi, 1))),
        ),
        (
            TASKS_OPEN_BY_DEADLINE,
            keys::date_bound(Some(lo)),
            keys::date_bound(Some(hi)),
        ),
    ];
    let mut moving: HashMap<Id, Attrs> = HashMap::new();
    for (table, from, to) in &ranges {
        cx.scan(
            *table,
            Bound::Included(from.as_slice()),
            Bound::Excluded(to.as_slice()),
            Dir::Asc,
            &mut |k, v| {
                moving.insert(crate::store::key::tail_id(k), Attrs::decode(v));
                Ok(true)
            },
        )?;
    }
    for (id, a) in &moving {
        reclassify(cx, *id, a, as_of, today)?;
    }
    let two_days_ago = counter::quarter(cx.now()) - 2 * 24 * 4;
    counter::forget_completions_before(cx, two_days_ago)?;
    cx.insert(META, TODAY_AS_OF, &date_number(today).to_be_bytes())
}

/// Moves one task's date-dependent entries and counters from `from` to `to`.
fn reclassify(cx: &WriteCx<'_>, id: Id, a: &Attrs, from: Date, to: Date) -> Result<()> {
    let name = |t: &Tbl| redb::TableHandle::name(t).to_owned();
    let before = entries(id, a, from);
    let after = entries(id, a, to);
    for (table, key, _) in &before {
        if !after
            .iter()
            .any(|(t, k, _)| name(t) == name(table) && k == key)
        {
            cx.remove(*table, key.as_slice())?;
        }
    }
    for (table, key, covering) in &after {
        if !before
            .iter()
            .any(|(t, k, _)| name(t) == name(table) && k == key)
        {
            cx.insert(*table, key.as_slice(), &a.value_in(*table, *covering))?;
        }
    }
    let mut deltas: HashMap<Key, i64> = HashMap::new();
    for key in counter::of(a, from) {
        *deltas.entry(key).or_default() -= 1;
    }
    for key in counter::of(a, to) {
        *deltas.entry(key).or_default() += 1;
    }
    for (key, delta) in deltas {
        if delta != 0 {
            counter::add(cx, &key, delta)?;
        }
    }
    Ok(())
}

/// Moves a task's index entries and counters from `old` to `new` (either
/// may be `None`: a task appearing or leaving the live set).
pub(crate) fn apply(
    cx: &WriteCx<'_>,
    id: Id,
    old: Option<&Attrs>,
    new: Option<&Attrs>,
) -> Result<()> {
    if old == new {
        return Ok(());
    }
    let as_of = TodaySet::as_of(cx)?.unwrap_or_else(|| cx.today());
    if let Some(old) = old {
        for (table, key, _) in entries(id, old, as_of) {
            cx.remove(table, key.as_slice())?;
        }
        for key in counter::of(old, as_of) {
            counter::add(cx, &key, -1)?;
        }
    }
    if let Some(new) = new {
        for (table, key, covering) in entries(id, new, as_of) {
            cx.insert(table, key.as_slice(), &new.value_in(table, covering))?;
        }
        for key in counter::of(new, as_of) {
            counter::add(cx, &key, 1)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attrs_round_trip_through_their_encoding() {
        let d = |s: &str| Some(s.parse::<Date>().unwrap());
        let cases = [
            Attrs {
                status: TaskStatus::Open,
                home: Home::Inbox,
                start: None,
                deadline: d("2026-01-02"),
                position: -7,
                updated: "2026-01-01T10:00:00.123Z".parse().unwrap(),
                closed: None,
                expires: d("2026-02-01"),
                expired: false,
                series: None,
            },
            Attrs {
                status: TaskStatus::Archived,
                home: Home::List(Id::parse("01ARZ3NDEKTSV4RRFFQ69G5FAV").unwrap()),
                start: d("1969-12-31"),
                deadline: None,
                position: i64::MAX,
                updated: "2026-01-01T10:00:00Z".parse().unwrap(),
                closed: Some("2026-01-03T00:00:00Z".parse().unwrap()),
                expires: None,
                expired: true,
                series: None,
            },
        ];
        for a in cases {
            assert_eq!(Attrs::decode(&a.encode()), a);
        }
    }
}
