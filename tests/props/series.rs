//! No series ever has two open occurrences (EXTENSIONS.md §1, rules 2
//! to 6): after every operation of a sequence of repeating creates,
//! closes (completed, skipped, archived, expired), reopens, deletes,
//! restores (of a task, or of the list that took it), `repeat` set and
//! cleared (alone, or with a status in the same change), date changes,
//! moves of the clock across midnight and over days, and moves of the
//! owner to another zone, the live open tasks (all of
//! `GET /tasks?status=open`, page by page) hold at most one with a
//! `repeat` per `series_id`.
//!
//! Listing settles what the clock made due, so an occurrence that an
//! expiry made is seen (and remembered, so that later operations pick it)
//! at the check after the move that passed the expiry date.
//!
//! The sequences are drawn from the operations of [`crate::ops`], biased
//! towards few tasks, most of them repeating, and many closes, reopens,
//! deletes and restores of the last few, so that series grow long and
//! every rule that could make a second open occurrence is reached.
//!
//! Besides the property itself, each open task with a `repeat` has a
//! `series_id` and a date to repeat from (rule 2).
//!
//! `PROPS_REFUSALS` prints the refused requests by kind; `PROPS_TRACE`
//! prints every request of every case with its answer.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::time::Instant;

use proptest::prelude::*;
use proptest::test_runner::{TestCaseError, TestRunner};
use serde_json::Value;

use crate::fixture::Store;
use crate::ops::{self, Day, Home, Op, Pick, RepeatSent, Start, TaskListOp, TaskOp, World};

const REGRESSIONS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/props/proptest-regressions/series.txt"
);

macro_rules! ensure {
    ($cond:expr, $($fmt:tt)+) => {
        if !$cond {
            return Err(TestCaseError::fail(format!($($fmt)+)));
        }
    };
}

// ---------------------------------------------------------------- the sequences

/// One of the last few live tasks, now and then an older or a deleted one.
fn few() -> impl Strategy<Value = Pick> {
    prop_oneof![
        12 => (0u8..4).prop_map(Pick::Live),
        2 => (0u8..12).prop_map(Pick::Live),
        1 => (0u8..4).prop_map(Pick::Deleted),
        1 => (0u8..12).prop_map(Pick::Any),
    ]
}

/// A `repeat` that mostly takes: a good rule, from the due date or from
/// completion (refused for the rules with `BY...` parts); now and then
/// any of [`ops::repeat`] (bad rules, bad `from`, null).
fn repeat() -> BoxedStrategy<RepeatSent> {
    let from = prop_oneof![
        3 => Just(None),
        2 => Just(Some("due")),
        2 => Just(Some("completion")),
    ];
    prop_oneof![
        5 => (prop::sample::select(ops::GOOD_RULES), from)
            .prop_map(|(rule, from)| RepeatSent::Rule { rule, from }),
        2 => ops::repeat(),
    ]
    .boxed()
}

/// A task made to repeat: a deadline (or a start date) a few days
/// around today, an expiry that moves of the clock pass now and then.
fn create() -> BoxedStrategy<TaskOp> {
    (
        ops::title(),
        prop_oneof![
            3 => Just(Home::Inbox),
            2 => (0u8..2).prop_map(|n| Home::List(Pick::Live(n))),
        ],
        prop::option::weighted(0.1, ops::new_status()),
        prop_oneof![3 => Just(None), 1 => (-3i8..=5).prop_map(Some)],
        prop_oneof![1 => Just(None), 5 => (-5i8..=10).prop_map(Some)],
        prop::option::weighted(0.3, 0i8..=3),
        prop::option::weighted(0.85, repeat()),
    )
        .prop_map(|(title, home, status, start, deadline, expiry, repeat)| {
            // An expiry on or after the dates and today: the create takes.
            let latest = start.max(deadline).unwrap_or(0).max(0);
            let day = |d: Option<i8>| d.map_or(Day::Absent, Day::Offset);
            TaskOp::Create {
                title,
                home,
                status,
                start_on: day(start),
                deadline_on: day(deadline),
                expires_on: day(expiry.map(|gap| latest + gap)),
                position: None,
                description: None,
                repeat,
            }
        })
        .boxed()
}

fn task(op: impl Strategy<Value = TaskOp>) -> impl Strategy<Value = Op> {
    op.prop_map(Op::Task)
}

/// One operation of a sequence, weighted towards what forms and breaks
/// series.
fn op() -> BoxedStrategy<Op> {
    prop_oneof![
        3 => task(create()),
        4 => task((few(), ops::close()).prop_map(|(task, status)| TaskOp::SetStatus { task, status })),
        4 => task((0u8..3, ops::close()).prop_map(|(nth, status)| TaskOp::Close { nth, status })),
        4 => task(few().prop_map(|task| TaskOp::SetStatus { task, status: "open" })),
        2 => task(few().prop_map(|task| TaskOp::Delete { task })),
        3 => task(ops::deleted().prop_map(|task| TaskOp::Restore { task })),
        3 => task((few(), repeat(), prop::option::weighted(0.3, ops::new_status()))
            .prop_map(|(task, repeat, status)| TaskOp::Repeat { task, repeat, status })),
        1 => task((few(), ops::day(-5, 10), ops::day(-5, 10), ops::expiry()).prop_map(
            |(task, start_on, deadline_on, expires_on)| TaskOp::Change {
                task,
                title: None,
                start_on,
                deadline_on,
                expires_on,
                description: None,
            },
        )),
        1 => task((few(), prop_oneof![Just(Home::Inbox), (0u8..2).prop_map(|n| Home::List(Pick::Live(n)))])
            .prop_map(|(task, to)| TaskOp::Move { task, to, position: None })),
        1 => (0u8..2).prop_map(|n| Op::TaskList(TaskListOp::Delete { list: Pick::Live(n) })),
        1 => (0u8..2).prop_map(|n| Op::TaskList(TaskListOp::Restore { list: Pick::Deleted(n) })),
        5 => ops::clock_move().prop_map(Op::Clock),
        1 => any::<u8>().prop_map(Op::Zone),
    ]
    .boxed()
}

/// A case: where it starts, and its operations.
#[derive(Debug, Clone)]
struct Case {
    start: Start,
    ops: Vec<Op>,
}

fn case() -> BoxedStrategy<Case> {
    (
        ops::start(),
        prop::collection::vec(ops::task_list_create(), 1..=2),
        prop::collection::vec(create(), 2..=4),
        prop::collection::vec(op(), 1..=60),
    )
        .prop_map(|(start, lists, creates, ops)| Case {
            start,
            ops: lists
                .into_iter()
                .map(Op::TaskList)
                .chain(creates.into_iter().map(Op::Task))
                .chain(ops)
                .collect(),
        })
        .boxed()
}

// ---------------------------------------------------------------- the check

/// What one check saw.
struct Seen {
    /// Live open tasks with a `repeat`.
    repeating: usize,
    /// Of those, the ones no reply named (an expiry made them).
    unknown: Vec<String>,
}

/// At most one live open task with a `repeat` per `series_id`; each of
/// them has a series and a date to repeat from.
fn check(store: &Store, world: &World) -> Result<Seen, TestCaseError> {
    let open = store.list_all("/tasks", &[("status", "open")], 100);
    let mut by_series: BTreeMap<&str, &Value> = BTreeMap::new();
    let mut unknown = Vec::new();
    for t in &open {
        let id = t["id"].as_str().unwrap_or_default();
        ensure!(t["status"] == "open", "status=open listed {t}");
        if t["repeat"].is_null() {
            continue;
        }
        let Some(series) = t["series_id"].as_str() else {
            return Err(TestCaseError::fail(format!(
                "a repeating task without a series: {t}"
            )));
        };
        ensure!(
            !t["deadline_on"].is_null() || !t["start_on"].is_null(),
            "a repeating task with no date to repeat from: {t}"
        );
        if let Some(other) = by_series.insert(series, t) {
            return Err(TestCaseError::fail(format!(
                "series {series} has two open occurrences:\n  {other}\n  {t}"
            )));
        }
        if !world.knows("tasks", id) {
            unknown.push(id.to_owned());
        }
    }
    Ok(Seen {
        repeating: by_series.len(),
        unknown,
    })
}

// ---------------------------------------------------------------- the property

/// What a run did, for the figures.
#[derive(Debug, Default)]
struct Figures {
    cases: u64,
    ops: u64,
    requests: u64,
    refused: u64,
    clock_moves: u64,
    /// Occurrences a reply named as made (closes, restores).
    made_by_replies: u64,
    /// Occurrences first seen in a listing (made by an expiry).
    made_by_expiry: u64,
    /// The most live open repeating tasks at once.
    most_open: usize,
    /// The most tasks of one series at the end of a case.
    longest_series: usize,
    /// Series of two tasks or more at the ends of the cases.
    series_at_end: u64,
    /// Deletion records of tasks at the ends of the cases.
    deleted_at_end: u64,
    /// Refused requests by operation, status and the field blamed.
    refusals: BTreeMap<String, u64>,
}

fn run(case: &Case, fig: &mut Figures) -> Result<(), TestCaseError> {
    let mut world = World::new(&case.start);
    let mut named: BTreeSet<String> = BTreeSet::new();
    let trace = std::env::var_os("PROPS_TRACE").is_some();
    fig.cases += 1;
    for (n, op) in case.ops.iter().enumerate() {
        fig.ops += 1;
        if let Op::Clock(_) = op {
            fig.clock_moves += 1;
        }
        if let Some(reply) = world.apply(op) {
            if trace {
                eprintln!("{op:?} -> {} {}", reply.status, reply.body);
            }
            fig.requests += 1;
            if reply.ok() {
                if let Some(next) = reply.data()["next_task_id"].as_str()
                    && named.insert(next.to_owned())
                {
                    fig.made_by_replies += 1;
                }
            } else {
                fig.refused += 1;
                let name = format!("{op:?}");
                let name = name.split([' ', '{']).next().unwrap_or_default();
                let error = &reply.body["error"];
                let blamed = error["details"]
                    .as_object()
                    .map(|d| d.keys().cloned().collect::<Vec<_>>().join(","))
                    .unwrap_or_else(|| error["code"].as_str().unwrap_or_default().to_owned());
                *fig.refusals
                    .entry(format!("{name} {} {blamed}", reply.status))
                    .or_default() += 1;
            }
        }
        let seen = check(&world.store, &world)
            .map_err(|e| TestCaseError::fail(format!("after operation {n} ({op:?}): {e}")))?;
        fig.most_open = fig.most_open.max(seen.repeating);
        for id in seen.unknown {
            fig.made_by_expiry += 1;
            world.remember("tasks", &id);
        }
    }
    let mut series: BTreeMap<String, usize> = BTreeMap::new();
    for t in world.store.list_all("/tasks", &[], 100) {
        if let Some(s) = t["series_id"].as_str() {
            *series.entry(s.to_owned()).or_default() += 1;
        }
    }
    fig.series_at_end += series.values().filter(|n| **n >= 2).count() as u64;
    fig.longest_series = fig
        .longest_series
        .max(series.values().copied().max().unwrap_or(0));
    fig.deleted_at_end += world
        .store
        .list_all("/deletions", &[], 100)
        .iter()
        .filter(|d| d["type"] == "task")
        .count() as u64;
    Ok(())
}

#[test]
fn no_series_ever_has_two_open_occurrences() {
    let mut runner = TestRunner::new(crate::config(64, REGRESSIONS));
    let figures = RefCell::new(Figures::default());
    let began = Instant::now();
    let outcome = runner.run(&case(), |case| run(&case, &mut figures.borrow_mut()));
    let f = figures.into_inner();
    eprintln!(
        "one open occurrence per series: {} cases in {:.1?}; {} operations ({} requests, {} refused; {} clock moves); occurrences made: {} named by replies, {} by expiries; at most {} open repeating tasks at once; at the ends {} series of 2 or more (longest {}), {} task deletion records",
        f.cases,
        began.elapsed(),
        f.ops,
        f.requests,
        f.refused,
        f.clock_moves,
        f.made_by_replies,
        f.made_by_expiry,
        f.most_open,
        f.series_at_end,
        f.longest_series,
        f.deleted_at_end,
    );
    if std::env::var_os("PROPS_REFUSALS").is_some() {
        for (k, n) in &f.refusals {
            eprintln!("  refused {n:>6}  {k}");
        }
    }
    crate::expect_passed(outcome);
}
