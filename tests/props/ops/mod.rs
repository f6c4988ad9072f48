//! The one generator of store operations the properties draw from: task
//! lists, tasks and the clock, each operation one API request (or one move
//! of the clock), applied to a [`World`] that remembers the records made.
//!
//! Tasks may repeat (EXTENSIONS.md §1): closing one makes its next
//! occurrence in the same write, a task no create made. The world
//! remembers it from the reply's `next_task_id`, so that later operations
//! pick it as any other; [`TaskOp::Close`] finds open repeating tasks by
//! listing them (one an expiry made among them).
//!
//! Operations name records by [`Pick`]: the nth newest live record of a
//! collection, the nth newest deleted one, or any made, resolved when the
//! operation runs. A sequence stays meaningful while proptest shrinks it,
//! and it reaches deleted, restored and purged records as well as live ones.
//!
//! # How a later resource joins
//!
//! A resource (people, projects, notes, ...) joins both properties in three
//! places, all of them here or in one table:
//!
//! 1. A file of its own beside this one (as `people.rs`, `projects.rs`,
//!    `notes.rs`, `documents.rs`): an enum of its operations (create,
//!    every kind of change, delete, restore, ...) with [`Pick`]s for the
//!    records they touch, a strategy for it, and the `impl World` method
//!    that turns an operation into a [`Call`] (with `creates` naming its
//!    collection when it makes one); here, a variant of [`Op`] with its
//!    weight in [`op`] and its arm in [`World::call_for`].
//! 2. In [`crate::mirror::COLLECTIONS`]: its collection (listing path,
//!    deletion type, and the filtered listings that split it, when the
//!    unfiltered one is not the only way to see every record). The mirror
//!    then syncs it, checks it, and counts it in the figures.
//! 3. In [`crate::requests::ROUTES`]: its routes, with the error statuses
//!    the spec lists for each. Its records' IDs reach the paths by
//!    themselves, through [`World::any_id`].

use std::collections::{BTreeMap, BTreeSet};

use jiff::civil::Date;
use jiff::{SignedDuration, Timestamp, ToSpan};
use organiser::server::Method;
use proptest::prelude::*;
use serde_json::{Map, Value, json};

use crate::fixture::{Call, Reply, Store};

mod ai;
mod documents;
mod feeds;
mod notes;
mod people;
mod projects;

pub(crate) use ai::*;
pub(crate) use documents::*;
pub(crate) use feeds::*;
pub(crate) use notes::*;
pub(crate) use people::*;
pub(crate) use projects::*;

/// An ID no record has: a well-formed ULID.
pub(crate) const UNKNOWN_ID: &str = "01ARZ3NDEKTSV4RRFFQ69G5FAV";

/// The owner's zones a case may run in (picker name, IANA), with odd
/// offsets and daylight saving among them.
pub(crate) const ZONES: &[(&str, &str)] = &[
    ("UTC", "Etc/UTC"),
    ("London", "Europe/London"),
    ("Eastern Time (US & Canada)", "America/New_York"),
    ("Tokyo", "Asia/Tokyo"),
    ("Kathmandu", "Asia/Kathmandu"),
    ("Chatham Is.", "Pacific/Chatham"),
    ("Samoa", "Pacific/Apia"),
];

/// A record of one collection, counted back from the newest (0) modulo how
/// many there are: among the live ones (made, with no deletion record),
/// the deleted ones (newest deletion first), or every one made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Pick {
    Live(u8),
    Deleted(u8),
    Any(u8),
}

fn pick() -> impl Strategy<Value = Pick> {
    // Mostly one of the last few live ones.
    prop_oneof![
        12 => (0u8..4).prop_map(Pick::Live),
        3 => any::<u8>().prop_map(Pick::Live),
        1 => any::<u8>().prop_map(Pick::Deleted),
        1 => any::<u8>().prop_map(Pick::Any),
    ]
}

/// A record to restore: mostly one of the last few deleted.
pub(crate) fn deleted() -> impl Strategy<Value = Pick> {
    prop_oneof![
        12 => (0u8..3).prop_map(Pick::Deleted),
        2 => any::<u8>().prop_map(Pick::Deleted),
        1 => any::<u8>().prop_map(Pick::Live),
        1 => any::<u8>().prop_map(Pick::Any),
    ]
}

/// Where a case starts: the owner's zone and the instant.
#[derive(Debug, Clone)]
pub(crate) struct Start {
    pub(crate) zone: &'static str,
    pub(crate) at: Timestamp,
}

pub(crate) fn start() -> BoxedStrategy<Start> {
    let in_day = prop_oneof![
        1 => 0i64..86_400_000,
        // A few seconds before midnight, so the next moves cross it.
        1 => 86_390_000i64..86_400_000,
    ];
    (0..ZONES.len(), 0i64..365, in_day)
        .prop_map(|(zone, day, ms)| {
            let (name, iana) = ZONES[zone];
            let tz = jiff::tz::TimeZone::get(iana).expect("a known zone");
            let date = Date::constant(2026, 1, 1) + day.days();
            let midnight = date.to_zoned(tz).expect("a day").timestamp();
            Start {
                zone: name,
                at: midnight + SignedDuration::from_millis(ms),
            }
        })
        .boxed()
}

/// Every operation a sequence can hold. A later resource adds its variant
/// (see the module doc).
#[derive(Debug, Clone)]
pub(crate) enum Op {
    TaskList(TaskListOp),
    Task(TaskOp),
    Person(PersonOp),
    Link(LinkOp),
    Project(ProjectOp),
    Member(MemberOp),
    Note(NoteOp),
    Category(CategoryOp),
    Tag(TagOp),
    Folder(FolderOp),
    Document(DocumentOp),
    Feed(FeedOp),
    Ai(AiOp),
    Clock(ClockMove),
    /// The owner moves to the nth zone of [`ZONES`]: today may go back or
    /// skip a day without the clock moving.
    Zone(u8),
}

/// A few creates that start a sequence, so that its other operations
/// find records to work on.
pub(crate) fn seed() -> BoxedStrategy<Vec<Op>> {
    (0usize..=2, 0usize..=4)
        .prop_flat_map(|(lists, tasks)| {
            (
                prop::collection::vec(task_list_create(), lists),
                prop::collection::vec(task_create(), tasks),
            )
                .prop_map(|(lists, tasks)| {
                    let lists = lists.into_iter().map(Op::TaskList);
                    lists.chain(tasks.into_iter().map(Op::Task)).collect()
                })
        })
        .boxed()
}

/// One operation, weighted.
pub(crate) fn op() -> BoxedStrategy<Op> {
    prop_oneof![
        3 => task_list_op().prop_map(Op::TaskList),
        8 => task_op().prop_map(Op::Task),
        4 => person_op().prop_map(Op::Person),
        2 => link_op().prop_map(Op::Link),
        3 => project_op().prop_map(Op::Project),
        2 => member_op().prop_map(Op::Member),
        4 => note_op().prop_map(Op::Note),
        1 => category_op().prop_map(Op::Category),
        1 => tag_op().prop_map(Op::Tag),
        1 => folder_op().prop_map(Op::Folder),
        2 => document_op().prop_map(Op::Document),
        2 => feed_op().prop_map(Op::Feed),
        2 => ai_op().prop_map(Op::Ai),
        2 => clock_move().prop_map(Op::Clock),
        1 => any::<u8>().prop_map(Op::Zone),
    ]
    .boxed()
}

// ---------------------------------------------------------------- clock

/// A move of the clock; it never goes back.
#[derive(Debug, Clone, Copy)]
pub(crate) enum ClockMove {
    /// A few milliseconds: records made since differ only in the last digits.
    Millis(u16),
    Seconds(u16),
    /// The restore window (20 s) plus this many milliseconds: either side of its end.
    RestoreWindow(i8),
    Hours(u8),
    /// The next midnight in the owner's zone, plus this many milliseconds
    /// (before it when negative, when that is still ahead).
    NextMidnight(i32),
    /// Whole days: past deadlines and expiry dates.
    Days(u8),
}

pub(crate) fn clock_move() -> BoxedStrategy<ClockMove> {
    prop_oneof![
        3 => (1u16..=1500).prop_map(ClockMove::Millis),
        2 => (1u16..=120).prop_map(ClockMove::Seconds),
        2 => (-2i8..=2).prop_map(ClockMove::RestoreWindow),
        1 => (1u8..=30).prop_map(ClockMove::Hours),
        2 => (-1500i32..=3_600_000).prop_map(ClockMove::NextMidnight),
        2 => (1u8..=6).prop_map(ClockMove::Days),
    ]
    .boxed()
}

// ---------------------------------------------------------------- task lists

/// The operations on task lists.
#[derive(Debug, Clone)]
pub(crate) enum TaskListOp {
    Create {
        name: String,
        color: Option<Choice>,
        icon: Option<Choice>,
        position: Option<i64>,
    },
    Change {
        list: Pick,
        name: Option<String>,
        color: Option<Choice>,
        icon: Option<Choice>,
        position: Option<i64>,
    },
    Delete {
        list: Pick,
    },
    Restore {
        list: Pick,
    },
}

/// A colour or icon: blank, null, or the nth of the vocabulary's.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Choice {
    Blank,
    Null,
    Nth(u8),
}

fn choice() -> impl Strategy<Value = Choice> {
    prop_oneof![
        1 => Just(Choice::Blank),
        1 => Just(Choice::Null),
        4 => any::<u8>().prop_map(Choice::Nth),
    ]
}

fn list_name() -> impl Strategy<Value = String> {
    prop_oneof![
        // Few names, so that they clash (ignoring case) and restored lists
        // come back renamed.
        4 => prop::sample::select(vec!["Home", "home", "Work", "Errands", "Books", "Books (2)"])
            .prop_map(str::to_owned),
        2 => "[A-Za-z]{1,8}( {1,3}[A-Za-z]{1,8})?",
        1 => Just("   ".to_owned()),
    ]
}

fn position() -> impl Strategy<Value = i64> {
    prop_oneof![8 => -2i64..=8, 1 => Just(i64::MAX), 1 => Just(i64::MIN)]
}

pub(crate) fn task_list_create() -> BoxedStrategy<TaskListOp> {
    (
        list_name(),
        prop::option::of(choice()),
        prop::option::of(choice()),
        prop::option::weighted(0.3, position()),
    )
        .prop_map(|(name, color, icon, position)| TaskListOp::Create {
            name,
            color,
            icon,
            position,
        })
        .boxed()
}

fn task_list_op() -> BoxedStrategy<TaskListOp> {
    prop_oneof![
        4 => task_list_create(),
        3 => (pick(), prop::option::weighted(0.4, list_name()), prop::option::weighted(0.3, choice()), prop::option::weighted(0.3, choice()), prop::option::weighted(0.5, position()))
            .prop_map(|(list, name, color, icon, position)| TaskListOp::Change { list, name, color, icon, position }),
        2 => pick().prop_map(|list| TaskListOp::Delete { list }),
        2 => deleted().prop_map(|list| TaskListOp::Restore { list }),
    ]
    .boxed()
}

// ---------------------------------------------------------------- tasks

/// The operations on tasks.
#[derive(Debug, Clone)]
pub(crate) enum TaskOp {
    Create {
        title: String,
        home: Home,
        status: Option<&'static str>,
        start_on: Day,
        deadline_on: Day,
        expires_on: Day,
        position: Option<i64>,
        description: Option<&'static str>,
        repeat: Option<RepeatSent>,
    },
    Change {
        task: Pick,
        title: Option<String>,
        start_on: Day,
        deadline_on: Day,
        expires_on: Day,
        description: Option<&'static str>,
    },
    /// To another home (or the same), at the bottom or at `position`.
    Move {
        task: Pick,
        to: Home,
        position: Option<i64>,
    },
    SetStatus {
        task: Pick,
        status: &'static str,
    },
    /// Closes (completes, skips, or archives by hand) the nth newest live
    /// open repeating task (by ID), so that series grow.
    Close {
        nth: u8,
        status: &'static str,
    },
    /// Sets `repeat` (or clears it, with null), now and then with a
    /// status in the same change (a reopen that repeats anew).
    Repeat {
        task: Pick,
        repeat: RepeatSent,
        status: Option<&'static str>,
    },
    Place {
        task: Pick,
        position: i64,
    },
    Delete {
        task: Pick,
    },
    Restore {
        task: Pick,
    },
}

/// A task's home.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Home {
    Inbox,
    List(Pick),
    Project(Pick),
}

/// A date field: not sent, null, or today plus this many days (in the
/// owner's zone).
#[derive(Debug, Clone, Copy)]
pub(crate) enum Day {
    Absent,
    Null,
    Offset(i8),
}

pub(crate) fn day(lo: i8, hi: i8) -> impl Strategy<Value = Day> {
    prop_oneof![
        5 => Just(Day::Absent),
        1 => Just(Day::Null),
        3 => (lo..=hi).prop_map(Day::Offset),
    ]
}

/// An expiry date: mostly within a few days, so that moves of the clock
/// pass it; the day before today now and then (refused on an open task).
pub(crate) fn expiry() -> impl Strategy<Value = Day> {
    prop_oneof![
        5 => Just(Day::Absent),
        1 => Just(Day::Null),
        3 => (0i8..=4).prop_map(Day::Offset),
        1 => (5i8..=25).prop_map(Day::Offset),
        1 => Just(Day::Offset(-1)),
    ]
}

fn status() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec!["open", "completed", "wont_do", "archived"])
}

/// A status to change to: closes that make a repeating task's next
/// occurrence (completed, wont_do) and reopens that undo them, more often
/// than archiving by hand.
pub(crate) fn new_status() -> impl Strategy<Value = &'static str> {
    prop_oneof![
        3 => Just("open"),
        3 => Just("completed"),
        2 => Just("wont_do"),
        1 => Just("archived"),
    ]
}

/// A close of a repeating task: completed and skipped ones make the next
/// occurrence, archiving by hand ends the series.
pub(crate) fn close() -> impl Strategy<Value = &'static str> {
    prop_oneof![
        3 => Just("completed"),
        2 => Just("wont_do"),
        1 => Just("archived"),
    ]
}

/// A task's `repeat` as a request sends it.
#[derive(Debug, Clone, Copy)]
pub(crate) enum RepeatSent {
    /// `null`: the series stops.
    Null,
    /// `{rule, from}`, without `from` when `None`.
    Rule {
        rule: &'static str,
        from: Option<&'static str>,
    },
    /// Not an object: the rule alone, as a string.
    Bare(&'static str),
}

/// Rules a task may repeat by (EXTENSIONS.md §1, rule 1), in any spelling,
/// some of them ending (`COUNT`, `UNTIL`). Those with `BYDAY`,
/// `BYMONTHDAY` or `BYMONTH` are refused with `from: completion`; an
/// `UNTIL` in 2026 is refused for a task dated after it.
pub(crate) const GOOD_RULES: &[&str] = &[
    "FREQ=DAILY",
    "FREQ=WEEKLY;BYDAY=MO,TH",
    "FREQ=MONTHLY;BYMONTHDAY=-1",
    "FREQ=MONTHLY;BYMONTHDAY=31",
    "FREQ=MONTHLY;BYDAY=1MO;COUNT=3",
    "FREQ=YEARLY",
    "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29",
    "FREQ=DAILY;INTERVAL=2;COUNT=2",
    "RRULE:freq=weekly;interval=2",
    "FREQ=DAILY;UNTIL=20270301",
    "FREQ=WEEKLY;UNTIL=20260615",
];

/// Rules that are always refused (422 on `repeat`).
const BAD_RULES: &[&str] = &[
    "FREQ=HOURLY",
    "FREQ=DAILY;COUNT=1",
    "BYDAY=MO",
    "FREQ=WEEKLY;BYDAY=1MO",
    "FREQ=DAILY;COUNT=2;UNTIL=20270101",
    "FREQ=DAILY;INTERVAL=0",
    "",
];

impl RepeatSent {
    /// The value of the `repeat` field.
    pub(crate) fn json(self) -> Value {
        match self {
            RepeatSent::Null => Value::Null,
            RepeatSent::Rule { rule, from: None } => json!({ "rule": rule }),
            RepeatSent::Rule {
                rule,
                from: Some(from),
            } => json!({ "rule": rule, "from": from }),
            RepeatSent::Bare(rule) => json!(rule),
        }
    }
}

/// A `from`: omitted, the two words, or one that is not.
fn repeat_from() -> impl Strategy<Value = Option<&'static str>> {
    prop_oneof![
        4 => Just(None),
        3 => Just(Some("due")),
        2 => Just(Some("completion")),
        1 => Just(Some("sometimes")),
    ]
}

/// A `repeat` to send: mostly a rule, good or bad, now and then null.
pub(crate) fn repeat() -> BoxedStrategy<RepeatSent> {
    let rule = prop_oneof![
        4 => prop::sample::select(GOOD_RULES),
        1 => prop::sample::select(BAD_RULES),
    ];
    prop_oneof![
        8 => (rule, repeat_from()).prop_map(|(rule, from)| RepeatSent::Rule { rule, from }),
        2 => Just(RepeatSent::Null),
        1 => prop::sample::select(GOOD_RULES).prop_map(RepeatSent::Bare),
    ]
    .boxed()
}

fn home() -> impl Strategy<Value = Home> {
    prop_oneof![
        1 => Just(Home::Inbox),
        2 => pick().prop_map(Home::List),
        1 => pick().prop_map(Home::Project),
    ]
}

pub(crate) fn title() -> impl Strategy<Value = String> {
    prop_oneof![
        19 => "[a-z]{1,6}( {1,2}[a-z]{1,6}){0,2}",
        1 => Just(" ".to_owned()),
    ]
}

fn description() -> impl Strategy<Value = Option<&'static str>> {
    prop::option::weighted(
        0.2,
        prop::sample::select(vec![
            "<p>Call <b>back</b></p>",
            "<ul><li>one</li><li>two</li></ul>",
            "<p>Call <b>back</b></p>",
            "",
            "<script>alert(1)</script>",
            "<p><img src=\"x.png\"></p>",
        ]),
    )
}

fn task_create() -> BoxedStrategy<TaskOp> {
    (
        title(),
        home(),
        prop::option::weighted(0.2, status()),
        (day(-5, 20), day(-5, 20), expiry()),
        prop::option::weighted(0.3, position()),
        description(),
        // A repeating task needs a date: mostly a deadline then.
        prop::option::weighted(0.3, (repeat(), prop::option::weighted(0.7, -5i8..=20))),
    )
        .prop_map(
            |(
                title,
                home,
                status,
                (start_on, mut deadline_on, expires_on),
                position,
                description,
                repeat,
            )| {
                if let Some((_, Some(d))) = repeat
                    && !matches!(deadline_on, Day::Offset(_))
                {
                    deadline_on = Day::Offset(d);
                }
                TaskOp::Create {
                    title,
                    home,
                    status,
                    start_on,
                    deadline_on,
                    expires_on,
                    position,
                    description,
                    repeat: repeat.map(|(r, _)| r),
                }
            },
        )
        .boxed()
}

fn task_op() -> BoxedStrategy<TaskOp> {
    prop_oneof![
        5 => task_create(),
        3 => (pick(), prop::option::weighted(0.4, title()), (day(-5, 20), day(-5, 20), expiry()), description())
            .prop_map(|(task, title, (start_on, deadline_on, expires_on), description)| {
                TaskOp::Change { task, title, start_on, deadline_on, expires_on, description }
            }),
        2 => (pick(), home(), prop::option::weighted(0.4, position()))
            .prop_map(|(task, to, position)| TaskOp::Move { task, to, position }),
        4 => (pick(), new_status()).prop_map(|(task, status)| TaskOp::SetStatus { task, status }),
        2 => (pick(), repeat(), prop::option::weighted(0.2, new_status()))
            .prop_map(|(task, repeat, status)| TaskOp::Repeat { task, repeat, status }),
        2 => (0u8..3, close()).prop_map(|(nth, status)| TaskOp::Close { nth, status }),
        2 => (pick(), position()).prop_map(|(task, position)| TaskOp::Place { task, position }),
        2 => pick().prop_map(|task| TaskOp::Delete { task }),
        2 => deleted().prop_map(|task| TaskOp::Restore { task }),
    ]
    .boxed()
}

// ---------------------------------------------------------------- the world

/// A store and what the operations made in it.
pub(crate) struct World {
    pub(crate) store: Store,
    /// The IDs made, by collection, oldest first.
    made: BTreeMap<&'static str, Vec<String>>,
    colors: Vec<String>,
    icons: Vec<String>,
}

/// A request an operation makes, and the collection a success adds to.
pub(crate) struct Planned {
    pub(crate) call: Call,
    pub(crate) creates: Option<&'static str>,
}

impl World {
    pub(crate) fn new(start: &Start) -> World {
        World::over(Store::new(start.at, start.zone))
    }

    /// A world over `store`.
    pub(crate) fn over(store: Store) -> World {
        let vocabulary = store.call(&Call::get("/vocabulary")).expect(200);
        let keys = |v: &Value| -> Vec<String> {
            v.as_array()
                .expect("a list")
                .iter()
                .map(|c| c["key"].as_str().or(c.as_str()).expect("a key").to_owned())
                .collect()
        };
        World {
            colors: keys(&vocabulary.data()["colors"]),
            icons: keys(&vocabulary.data()["picker_icons"]),
            made: BTreeMap::new(),
            store,
        }
    }

    /// The picked record of `collection`; an unknown ID while there is none
    /// to pick.
    ///
    /// Deleted ones are read from `GET /deletions`, which settles what the
    /// clock made due first (a person's permanent delete may write a
    /// company's deletion record).
    pub(crate) fn pick(&self, collection: &str, pick: Pick) -> String {
        // Tags are made by notes' bodies, not by a create: the store says
        // which there are.
        let listed: Vec<String>;
        let made: &[String] = if collection == "tags" {
            listed = self
                .store
                .list_all("/tags", &[("order", "id")], 100)
                .iter()
                .filter_map(|t| t["id"].as_str().map(str::to_owned))
                .collect();
            &listed
        } else {
            self.made.get(collection).map_or(&[], Vec::as_slice)
        };
        let deleted = || -> Vec<String> {
            let kind = crate::mirror::COLLECTIONS
                .iter()
                .find(|c| c.key == collection)
                .map(|c| c.deletion_type)
                .expect("a collection of the mirror");
            self.store
                .list_all("/deletions", &[], 100)
                .iter()
                .filter(|d| d["type"] == kind)
                .filter_map(|d| d["id"].as_str().map(str::to_owned))
                .collect()
        };
        let (n, ids): (u8, Vec<String>) = match pick {
            Pick::Any(n) => (n, made.to_vec()),
            Pick::Deleted(n) => (n, deleted()),
            Pick::Live(n) => {
                let deleted: BTreeSet<String> = deleted().into_iter().collect();
                let live = made.iter().filter(|id| !deleted.contains(*id));
                (n, live.cloned().collect())
            }
        };
        if ids.is_empty() {
            return UNKNOWN_ID.to_owned();
        }
        ids[ids.len() - 1 - usize::from(n) % ids.len()].clone()
    }

    /// The nth newest (by ID, modulo how many) live open task with a
    /// `repeat`, as the store lists them (so that one an expiry made is
    /// among them); an unknown ID while there is none.
    pub(crate) fn open_repeating(&self, nth: u8) -> String {
        let mut ids: Vec<String> = self
            .store
            .list_all("/tasks", &[("status", "open")], 100)
            .iter()
            .filter(|t| !t["repeat"].is_null())
            .filter_map(|t| t["id"].as_str().map(str::to_owned))
            .collect();
        if ids.is_empty() {
            return UNKNOWN_ID.to_owned();
        }
        ids.sort();
        ids[ids.len() - 1 - usize::from(nth) % ids.len()].clone()
    }

    /// Any ID made so far, in any collection (`n` modulo how many).
    pub(crate) fn any_id(&self, n: usize) -> Option<&str> {
        let all: Vec<&String> = self.made.values().flatten().collect();
        (!all.is_empty()).then(|| all[n % all.len()].as_str())
    }

    /// Remembers a record of `collection` made by a request of its own.
    pub(crate) fn remember(&mut self, collection: &'static str, id: &str) {
        self.made.entry(collection).or_default().push(id.to_owned());
    }

    fn today(&self) -> Date {
        self.store.org.today()
    }

    fn date(&self, offset: i8) -> String {
        (self.today() + i64::from(offset).days()).to_string()
    }

    fn choice(&self, choice: Choice, of: &[String]) -> Value {
        match choice {
            Choice::Blank => json!(""),
            Choice::Null => Value::Null,
            Choice::Nth(n) => json!(of[usize::from(n) % of.len()]),
        }
    }

    fn put_day(&self, fields: &mut Map<String, Value>, name: &str, day: Day) {
        match day {
            Day::Absent => {}
            Day::Null => {
                fields.insert(name.to_owned(), Value::Null);
            }
            Day::Offset(d) => {
                fields.insert(name.to_owned(), json!(self.date(d)));
            }
        }
    }

    /// The home field a request sends for `home`.
    fn home(&self, home: Home) -> (&'static str, Value) {
        match home {
            Home::Inbox => ("task_list_id", Value::Null),
            Home::List(p) => ("task_list_id", json!(self.pick("task_lists", p))),
            Home::Project(p) => ("project_id", json!(self.pick("projects", p))),
        }
    }

    /// The request `op` makes now; `None` for a move of the clock.
    pub(crate) fn call_for(&self, op: &Op) -> Option<Planned> {
        let plain = |call: Call| Planned {
            call,
            creates: None,
        };
        Some(match op {
            Op::Clock(_) => return None,
            Op::Zone(n) => plain(
                Call::new(Method::Patch, "/me")
                    .body(json!({ "me": { "time_zone": ZONES[usize::from(*n) % ZONES.len()].0 } })),
            ),
            Op::TaskList(op) => match op {
                TaskListOp::Create {
                    name,
                    color,
                    icon,
                    position,
                } => {
                    let mut f = Map::new();
                    f.insert("name".into(), json!(name));
                    if let Some(c) = color {
                        f.insert("color".into(), self.choice(*c, &self.colors));
                    }
                    if let Some(i) = icon {
                        f.insert("icon".into(), self.choice(*i, &self.icons));
                    }
                    if let Some(p) = position {
                        f.insert("position".into(), json!(p));
                    }
                    Planned {
                        call: Call::new(Method::Post, "/task_lists")
                            .body(json!({ "task_list": f })),
                        creates: Some("task_lists"),
                    }
                }
                TaskListOp::Change {
                    list,
                    name,
                    color,
                    icon,
                    position,
                } => {
                    let mut f = Map::new();
                    if let Some(n) = name {
                        f.insert("name".into(), json!(n));
                    }
                    if let Some(c) = color {
                        f.insert("color".into(), self.choice(*c, &self.colors));
                    }
                    if let Some(i) = icon {
                        f.insert("icon".into(), self.choice(*i, &self.icons));
                    }
                    if let Some(p) = position {
                        f.insert("position".into(), json!(p));
                    }
                    let id = self.pick("task_lists", *list);
                    plain(
                        Call::new(Method::Patch, format!("/task_lists/{id}"))
                            .body(json!({ "task_list": f })),
                    )
                }
                TaskListOp::Delete { list } => plain(Call::new(
                    Method::Delete,
                    format!("/task_lists/{}", self.pick("task_lists", *list)),
                )),
                TaskListOp::Restore { list } => plain(Call::new(
                    Method::Post,
                    format!("/task_lists/{}/restoration", self.pick("task_lists", *list)),
                )),
            },
            Op::Person(op) => self.person_call(op),
            Op::Link(op) => self.link_call(op),
            Op::Project(op) => self.project_call(op),
            Op::Member(op) => self.member_call(op),
            Op::Note(op) => self.note_call(op),
            Op::Category(op) => self.category_call(op),
            Op::Tag(op) => self.tag_call(op),
            Op::Folder(op) => self.folder_call(op),
            Op::Document(op) => self.document_call(op),
            Op::Feed(op) => self.feed_call(op),
            Op::Ai(op) => self.ai_call(op),
            Op::Task(op) => match op {
                TaskOp::Create {
                    title,
                    home,
                    status,
                    start_on,
                    deadline_on,
                    expires_on,
                    position,
                    description,
                    repeat,
                } => {
                    let mut f = Map::new();
                    f.insert("title".into(), json!(title));
                    if let Some(r) = repeat {
                        f.insert("repeat".into(), r.json());
                    }
                    if !matches!(home, Home::Inbox) {
                        let (field, id) = self.home(*home);
                        f.insert(field.into(), id);
                    }
                    if let Some(s) = status {
                        f.insert("status".into(), json!(s));
                    }
                    self.put_day(&mut f, "start_on", *start_on);
                    self.put_day(&mut f, "deadline_on", *deadline_on);
                    self.put_day(&mut f, "expires_on", *expires_on);
                    if let Some(p) = position {
                        f.insert("position".into(), json!(p));
                    }
                    if let Some(d) = description {
                        f.insert("description_html".into(), json!(d));
                    }
                    Planned {
                        call: Call::new(Method::Post, "/tasks").body(json!({ "task": f })),
                        creates: Some("tasks"),
                    }
                }
                TaskOp::Change {
                    task,
                    title,
                    start_on,
                    deadline_on,
                    expires_on,
                    description,
                } => {
                    let mut f = Map::new();
                    if let Some(t) = title {
                        f.insert("title".into(), json!(t));
                    }
                    self.put_day(&mut f, "start_on", *start_on);
                    self.put_day(&mut f, "deadline_on", *deadline_on);
                    self.put_day(&mut f, "expires_on", *expires_on);
                    if let Some(d) = description {
                        f.insert("description_html".into(), json!(d));
                    }
                    self.task_patch(*task, f)
                }
                TaskOp::Move { task, to, position } => {
                    let mut f = Map::new();
                    let (field, id) = self.home(*to);
                    f.insert(field.into(), id);
                    if let Some(p) = position {
                        f.insert("position".into(), json!(p));
                    }
                    self.task_patch(*task, f)
                }
                TaskOp::SetStatus { task, status } => {
                    let mut f = Map::new();
                    f.insert("status".into(), json!(status));
                    self.task_patch(*task, f)
                }
                TaskOp::Close { nth, status } => {
                    let mut f = Map::new();
                    f.insert("status".into(), json!(status));
                    let id = self.open_repeating(*nth);
                    plain(
                        Call::new(Method::Patch, format!("/tasks/{id}")).body(json!({ "task": f })),
                    )
                }
                TaskOp::Repeat {
                    task,
                    repeat,
                    status,
                } => {
                    let mut f = Map::new();
                    f.insert("repeat".into(), repeat.json());
                    if let Some(s) = status {
                        f.insert("status".into(), json!(s));
                    }
                    self.task_patch(*task, f)
                }
                TaskOp::Place { task, position } => {
                    let mut f = Map::new();
                    f.insert("position".into(), json!(position));
                    self.task_patch(*task, f)
                }
                TaskOp::Delete { task } => plain(Call::new(
                    Method::Delete,
                    format!("/tasks/{}", self.pick("tasks", *task)),
                )),
                TaskOp::Restore { task } => plain(Call::new(
                    Method::Post,
                    format!("/tasks/{}/restoration", self.pick("tasks", *task)),
                )),
            },
        })
    }

    fn task_patch(&self, task: Pick, fields: Map<String, Value>) -> Planned {
        Planned {
            call: Call::new(
                Method::Patch,
                format!("/tasks/{}", self.pick("tasks", task)),
            )
            .body(json!({ "task": fields })),
            creates: None,
        }
    }

    /// Applies `op`: sends its request (remembering what it made), or moves
    /// the clock. The reply, for a request.
    pub(crate) fn apply(&mut self, op: &Op) -> Option<Reply> {
        if let Op::Clock(m) = op {
            self.move_clock(*m);
            return None;
        }
        let planned = self.call_for(op)?;
        let reply = self.store.call(&planned.call);
        assert!(
            reply.status < 500,
            "{} {} answered {}: {}",
            planned.call.method.as_str(),
            planned.call.path,
            reply.status,
            reply.body
        );
        if let (Some(collection), 201) = (planned.creates, reply.status) {
            let id = reply.data()["id"]
                .as_str()
                .expect("a made record has an id");
            self.made.entry(collection).or_default().push(id.to_owned());
        }
        if reply.ok() {
            self.learn_next(reply.data());
        }
        Some(reply)
    }

    /// Whether `id` is among the records of `collection` made so far.
    pub(crate) fn knows(&self, collection: &str, id: &str) -> bool {
        self.made
            .get(collection)
            .is_some_and(|ids| ids.iter().any(|i| i == id))
    }

    /// Remembers the next occurrence a task's close made (the
    /// `next_task_id` of a task in `data`), when it is new: it was made by
    /// the store, not by a create. (Those made when the clock passes an
    /// expiry date show only in listings.)
    pub(crate) fn learn_next(&mut self, data: &Value) {
        if let Some(next) = data["next_task_id"].as_str()
            && !self.knows("tasks", next)
        {
            self.remember("tasks", next);
        }
    }

    pub(crate) fn move_clock(&self, m: ClockMove) {
        let clock = &self.store.clock;
        match m {
            ClockMove::Millis(ms) => clock.advance(SignedDuration::from_millis(i64::from(ms))),
            ClockMove::Seconds(s) => clock.advance_secs(i64::from(s)),
            ClockMove::RestoreWindow(ms) => {
                clock.advance(SignedDuration::from_millis(20_000 + i64::from(ms)));
            }
            ClockMove::Hours(h) => clock.advance_secs(i64::from(h) * 3600),
            ClockMove::NextMidnight(ms) => {
                let tz = self.store.zone();
                let now = self.store.org.now();
                let tomorrow = now.to_zoned(tz.clone()).date().tomorrow().expect("a day");
                let midnight = tomorrow.to_zoned(tz).expect("a day").timestamp();
                let target = midnight + SignedDuration::from_millis(i64::from(ms));
                clock.set(if target > now {
                    target
                } else {
                    now + SignedDuration::from_millis(1)
                });
            }
            ClockMove::Days(d) => clock.advance_secs(i64::from(d) * 86_400),
        }
    }
}
