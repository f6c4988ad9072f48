//! Mirror fidelity: a client that keeps a copy of the store the way the
//! spec's sync conventions say (document 1, conventions 9 and "Deletions
//! (sync)") ends equal to it, field by field, after any sequence of
//! creates, changes (moves between lists, status changes, positions),
//! deletes, restores within the 20 s window, permanent deletes, and moves
//! of the clock across midnight and past expiry dates.
//!
//! The client syncs each collection's unfiltered list with
//! `updated_since` (ordered by `updated_at`, `id`), page by page with
//! `next_cursor`, and reads `GET /deletions?since=` for removals. It syncs
//! at random points, and may fetch one page at a time with operations in
//! between, as a client on a slow link would.
//!
//! # The marks
//!
//! Each feed (a collection's list, or the deletions) keeps the bound its
//! next pass starts from, and sends it inclusively (`updated_since` and
//! `since` are "at or after"): records changed in the very millisecond of
//! the last one seen are read again, never missed.
//!
//! The bound is the largest `updated_at` (`deleted_at`) of the **first
//! page** of the last pass, not of the whole pass. While a pass pages,
//! a record changed in the millisecond of a page's last item, with a
//! smaller ID, sorts behind the cursor and is not read by this pass; its
//! `updated_at` is no earlier than that of the first page's last item
//! (the clock does not go back, and that item was read before the change),
//! but it may be earlier than items read on later pages. Every change made
//! after the first page was read is at or after that bound, and every
//! change made before it is read by the pass (its key lies ahead of the
//! cursor). With nothing on the first page the bound stays as it was.
//! The first pass sends the epoch rather than no bound: without
//! `updated_since` a list has its own order (`position` for task lists and
//! tasks), which changes under a client paging through it.
//!
//! A delete that is undone removes its deletion record, and the restored
//! record gets a new `updated_at`: the list feed brings it back, whatever
//! the deletions feed read in between. Applying each page as it comes is
//! enough, because a record is listed only while live and its deletion
//! record exists only while it is deleted.
//! [`a_mark_from_the_whole_pass_misses_a_change_behind_the_cursor`] shows
//! the record the whole pass's largest `updated_at` would lose.
//!
//! # What is checked
//!
//! After every full sync (and at the end of each sequence, after a final
//! one) the mirror equals each collection's unfiltered listing, record by
//! record and field by field; the unfiltered listing equals the union of
//! the filtered listings that split the collection (for tasks: open, and
//! the logbook's closed ones; and by status), so no status hides from it.
//! Each pass's items arrive strictly in (`updated_at`, `id`) order, at or
//! after its bound.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::time::Instant;

use jiff::Timestamp;
use proptest::prelude::*;
use proptest::test_runner::{TestCaseError, TestRunner};
use serde_json::Value;

use crate::fixture::{Call, Store};
use crate::ops::{self, ClockMove, Op, Pick, Start, TaskListOp, TaskOp, World};

/// A collection the mirror keeps. A later resource adds its own here.
pub(crate) struct Collection {
    /// The key its records are made under in [`World`] (`creates`).
    pub(crate) key: &'static str,
    /// Its unfiltered list.
    pub(crate) path: &'static str,
    /// The `type` of its deletion records.
    pub(crate) deletion_type: &'static str,
    /// Ways to split it into filtered listings, each of which together
    /// must show every record of the unfiltered list exactly once.
    pub(crate) splits: &'static [&'static [&'static [(&'static str, &'static str)]]],
}

/// Every collection the mirror keeps, in sync order.
pub(crate) const COLLECTIONS: &[Collection] = &[
    Collection {
        key: "task_lists",
        path: "/task_lists",
        deletion_type: "task_list",
        splits: &[],
    },
    Collection {
        key: "tasks",
        path: "/tasks",
        deletion_type: "task",
        splits: &[
            &[&[("status", "open")], &[("view", "logbook")]],
            &[
                &[("status", "open,wont_do")],
                &[("status", "completed,archived")],
            ],
        ],
    },
    Collection {
        key: "people",
        path: "/people",
        deletion_type: "person",
        splits: &[],
    },
    Collection {
        key: "person_links",
        path: "/person_links",
        deletion_type: "person_link",
        splits: &[],
    },
    Collection {
        key: "projects",
        path: "/projects",
        deletion_type: "project",
        splits: &[&[
            &[("status", "planned,active,on_hold")],
            &[("status", "done,cancelled")],
        ]],
    },
    Collection {
        key: "project_members",
        path: "/project_members",
        deletion_type: "project_member",
        splits: &[],
    },
    Collection {
        key: "project_events",
        path: "/project_events",
        deletion_type: "project_event",
        splits: &[],
    },
    Collection {
        key: "notes",
        path: "/notes",
        deletion_type: "note",
        splits: &[&[&[("pinned", "true")], &[("pinned", "false")]]],
    },
    Collection {
        key: "categories",
        path: "/categories",
        deletion_type: "category",
        splits: &[],
    },
    Collection {
        key: "tags",
        path: "/tags",
        deletion_type: "tag",
        splits: &[],
    },
    Collection {
        key: "folders",
        path: "/folders",
        deletion_type: "folder",
        splits: &[],
    },
    Collection {
        key: "documents",
        path: "/documents",
        deletion_type: "document",
        splits: &[],
    },
    Collection {
        key: "calendar_feeds",
        path: "/calendar_feeds",
        deletion_type: "calendar_feed",
        splits: &[],
    },
    Collection {
        key: "ai_providers",
        path: "/ai_providers",
        deletion_type: "ai_provider",
        splits: &[],
    },
    Collection {
        key: "ai_models",
        path: "/ai_models",
        deletion_type: "ai_model",
        splits: &[],
    },
    Collection {
        key: "companies",
        path: "/companies",
        deletion_type: "company",
        splits: &[],
    },
];

/// Deletion types of rows held inside a record of a collection (a
/// person's key dates, contact details and positions): the mirror sees
/// them go when it syncs the record.
const NESTED: &[&str] = &[
    "key_date",
    "email_address",
    "phone_number",
    "social_profile",
    "position",
];

const REGRESSIONS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/props/proptest-regressions/mirror.txt"
);

macro_rules! ensure {
    ($cond:expr, $($fmt:tt)+) => {
        if !$cond {
            return Err(TestCaseError::fail(format!($($fmt)+)));
        }
    };
}

/// One feed's place: the bound of its next pass, and the pass under way.
#[derive(Debug)]
struct Feed {
    mark: Timestamp,
    pass: Option<Pass>,
}

impl Default for Feed {
    /// The first pass is sent with a bound too (the epoch): without
    /// `updated_since` a list has its own order (`position` for task lists
    /// and tasks), which changes under a client that pages through it.
    fn default() -> Self {
        Feed {
            mark: Timestamp::UNIX_EPOCH,
            pass: None,
        }
    }
}

#[derive(Debug)]
struct Pass {
    since: Timestamp,
    cursor: Option<String>,
    /// The largest key of the first page, once it is read.
    first_page_max: Option<Option<Timestamp>>,
    /// The last (time, id) read, for the order check.
    last: Option<(Timestamp, String)>,
}

/// Which bound a client keeps; only [`Marks::FirstPage`] is right (see the
/// module doc).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Marks {
    FirstPage,
    WholePass,
}

/// The client's copy.
pub(crate) struct Mirror {
    limit: u32,
    marks: Marks,
    /// Records by ID, one map per collection of [`COLLECTIONS`].
    pub(crate) records: Vec<BTreeMap<String, Value>>,
    /// One feed per collection, then the deletions.
    feeds: Vec<Feed>,
    pub(crate) pages: u64,
}

impl Mirror {
    pub(crate) fn new(limit: u32, marks: Marks) -> Mirror {
        Mirror {
            limit,
            marks,
            records: COLLECTIONS.iter().map(|_| BTreeMap::new()).collect(),
            feeds: (0..=COLLECTIONS.len()).map(|_| Feed::default()).collect(),
            pages: 0,
        }
    }

    fn deletions_feed(&self) -> usize {
        COLLECTIONS.len()
    }

    /// Reads one page of feed `f`, starting a pass when none is under way.
    pub(crate) fn page(&mut self, store: &Store, f: usize) -> Result<(), TestCaseError> {
        let deletions = f == self.deletions_feed();
        let feed = &mut self.feeds[f];
        let since = feed.mark;
        let pass = feed.pass.get_or_insert(Pass {
            since,
            cursor: None,
            first_page_max: None,
            last: None,
        });
        let (path, since_param, key_field) = if deletions {
            ("/deletions", "since", "deleted_at")
        } else {
            (COLLECTIONS[f].path, "updated_since", "updated_at")
        };
        let mut call = Call::get(path).param("limit", self.limit.to_string());
        call = call.param(since_param, pass.since.to_string());
        if let Some(cursor) = &pass.cursor {
            call = call.param("cursor", cursor.clone());
        }
        let reply = store.call(&call);
        ensure!(
            reply.status == 200,
            "{path}: {} {}",
            reply.status,
            reply.body
        );
        self.pages += 1;
        let items = reply.data().as_array().cloned().unwrap_or_default();
        ensure!(
            items.len() <= self.limit as usize,
            "{path}: {} items on a page of {}",
            items.len(),
            self.limit
        );
        let mut page_max = None;
        for item in &items {
            let id = item["id"].as_str().unwrap_or_default().to_owned();
            let at: Timestamp = item[key_field]
                .as_str()
                .and_then(|s| s.parse().ok())
                .ok_or_else(|| TestCaseError::fail(format!("{path}: no {key_field}: {item}")))?;
            ensure!(
                at >= pass.since,
                "{path}: {item} is before since {}",
                pass.since
            );
            if let Some(last) = &pass.last {
                ensure!(
                    (at, id.clone()) > *last,
                    "{path}: {item} comes after {last:?}: not in ({key_field}, id) order"
                );
            }
            pass.last = Some((at, id.clone()));
            page_max = page_max.max(Some(at));
            if deletions {
                let kind = item["type"].as_str().unwrap_or_default();
                if NESTED.contains(&kind) {
                    // A row of a record: the record's own change shows it.
                    continue;
                }
                let Some(c) = COLLECTIONS.iter().position(|c| c.deletion_type == kind) else {
                    return Err(TestCaseError::fail(format!(
                        "a deletion of type {kind} that no collection of the mirror names: add it to COLLECTIONS"
                    )));
                };
                self.records[c].remove(&id);
            } else {
                self.records[f].insert(id, item.clone());
            }
        }
        match self.marks {
            Marks::FirstPage => {
                if pass.first_page_max.is_none() {
                    pass.first_page_max = Some(page_max);
                }
            }
            Marks::WholePass => {
                let so_far = pass.first_page_max.flatten();
                pass.first_page_max = Some(so_far.max(page_max));
            }
        }
        match reply.body["meta"]["next_cursor"].as_str() {
            Some(next) => pass.cursor = Some(next.to_owned()),
            None => {
                feed.mark = pass.first_page_max.flatten().unwrap_or(pass.since);
                feed.pass = None;
            }
        }
        Ok(())
    }

    /// Finishes the pass under way on feed `f`, if any.
    fn finish(&mut self, store: &Store, f: usize) -> Result<(), TestCaseError> {
        while self.feeds[f].pass.is_some() {
            self.page(store, f)?;
        }
        Ok(())
    }

    /// Finishes every pass under way, then syncs every feed once more:
    /// the collections, then the deletions.
    pub(crate) fn sync(&mut self, store: &Store) -> Result<(), TestCaseError> {
        for f in 0..self.feeds.len() {
            self.finish(store, f)?;
        }
        for f in 0..self.feeds.len() {
            self.page(store, f)?;
            self.finish(store, f)?;
        }
        Ok(())
    }

    /// The mirror equals the store, field by field.
    pub(crate) fn check(&self, store: &Store) -> Result<(), TestCaseError> {
        for (c, collection) in COLLECTIONS.iter().enumerate() {
            let truth = by_id(store.list_all(collection.path, &[], 100), collection.path)?;
            for split in collection.splits {
                let mut union = BTreeMap::new();
                for query in *split {
                    for item in store.list_all(collection.path, query, 100) {
                        let id = item["id"].as_str().unwrap_or_default().to_owned();
                        ensure!(
                            union.insert(id, item.clone()).is_none(),
                            "{} {query:?}: {item} is listed twice across {split:?}",
                            collection.path
                        );
                    }
                }
                ensure!(
                    union == truth,
                    "{}: the listings {split:?} together differ from the unfiltered one: {} vs {} records{}",
                    collection.path,
                    union.len(),
                    truth.len(),
                    first_difference(&union, &truth)
                );
            }
            let mirror = &self.records[c];
            let missing: Vec<_> = truth
                .keys()
                .filter(|id| !mirror.contains_key(*id))
                .collect();
            let extra: Vec<_> = mirror
                .keys()
                .filter(|id| !truth.contains_key(*id))
                .collect();
            ensure!(
                missing.is_empty() && extra.is_empty(),
                "{}: the mirror misses {missing:?} and keeps {extra:?} (store: {truth:?})",
                collection.path
            );
            for (id, want) in &truth {
                let have = &mirror[id];
                let fields: BTreeSet<&String> = want
                    .as_object()
                    .into_iter()
                    .chain(have.as_object())
                    .flat_map(|o| o.keys())
                    .collect();
                for field in fields {
                    ensure!(
                        have.get(field) == want.get(field),
                        "{} {id}: `{field}` is {:?} in the mirror but {:?} in the store\nmirror: {have}\nstore:  {want}",
                        collection.path,
                        have.get(field),
                        want.get(field)
                    );
                }
            }
        }
        Ok(())
    }
}

fn by_id(items: Vec<Value>, path: &str) -> Result<BTreeMap<String, Value>, TestCaseError> {
    let mut map = BTreeMap::new();
    for item in items {
        let id = item["id"].as_str().unwrap_or_default().to_owned();
        ensure!(
            map.insert(id, item.clone()).is_none(),
            "{path}: {item} is listed twice"
        );
    }
    Ok(map)
}

fn first_difference(a: &BTreeMap<String, Value>, b: &BTreeMap<String, Value>) -> String {
    let ids: BTreeSet<&String> = a.keys().chain(b.keys()).collect();
    for id in ids {
        if a.get(id) != b.get(id) {
            return format!("; first at {id}: {:?} vs {:?}", a.get(id), b.get(id));
        }
    }
    String::new()
}

/// One step of a sequence: an operation on the store, a full sync, or one
/// page of one feed (a collection's, or the deletions').
#[derive(Debug, Clone)]
enum Step {
    Op(Op),
    Sync,
    Page(u8),
}

fn step() -> BoxedStrategy<Step> {
    prop_oneof![
        12 => ops::op().prop_map(Step::Op),
        1 => Just(Step::Sync),
        3 => any::<u8>().prop_map(Step::Page),
    ]
    .boxed()
}

/// A case: where it starts, the mirror's page size, and the steps.
#[derive(Debug, Clone)]
struct Case {
    start: Start,
    limit: u32,
    steps: Vec<Step>,
}

fn case() -> BoxedStrategy<Case> {
    (
        ops::start(),
        prop::sample::select(vec![1u32, 2, 3, 5, 100]),
        ops::seed(),
        prop::collection::vec(step(), 1..=80),
    )
        .prop_map(|(start, limit, seed, steps)| Case {
            start,
            limit,
            steps: seed.into_iter().map(Step::Op).chain(steps).collect(),
        })
        .boxed()
}

/// What a run did, for the figures.
#[derive(Debug, Default, Clone)]
struct Figures {
    cases: u64,
    steps: u64,
    longest: usize,
    requests: u64,
    refused: u64,
    syncs: u64,
    pages: u64,
    clock_moves: u64,
    hours: i64,
    restored: u64,
    /// Refused requests by operation, status and the field blamed.
    refusals: BTreeMap<String, u64>,
    live_at_end: u64,
    deleted_at_end: u64,
    expired_at_end: u64,
    /// Tasks of a series of repeating tasks, and those among them whose
    /// close made the next occurrence.
    in_series_at_end: u64,
    closed_with_next_at_end: u64,
}

fn run(case: &Case, marks: Marks) -> Result<Figures, TestCaseError> {
    let mut world = World::new(&case.start);
    let mut mirror = Mirror::new(case.limit, marks);
    let mut fig = Figures {
        cases: 1,
        steps: case.steps.len() as u64,
        longest: case.steps.len(),
        ..Figures::default()
    };
    for step in &case.steps {
        match step {
            Step::Op(op) => {
                if let Op::Clock(_) = op {
                    fig.clock_moves += 1;
                }
                if let Some(reply) = world.apply(op) {
                    fig.requests += 1;
                    ensure!(
                        reply.status < 500,
                        "{op:?} answered {}: {}",
                        reply.status,
                        reply.body
                    );
                    if !reply.ok() {
                        fig.refused += 1;
                        *fig.refusals.entry(refusal(op, &reply)).or_default() += 1;
                    } else if matches!(
                        op,
                        Op::Task(TaskOp::Restore { .. }) | Op::TaskList(TaskListOp::Restore { .. })
                    ) {
                        fig.restored += 1;
                    }
                }
            }
            Step::Sync => {
                fig.syncs += 1;
                mirror.sync(&world.store)?;
                mirror.check(&world.store)?;
            }
            Step::Page(f) => {
                let f = usize::from(*f) % mirror.feeds.len();
                mirror.page(&world.store, f)?;
            }
        }
    }
    fig.syncs += 1;
    mirror.sync(&world.store)?;
    mirror.check(&world.store)?;
    fig.pages = mirror.pages;
    fig.hours = world
        .store
        .org
        .now()
        .duration_since(case.start.at)
        .as_hours();
    for records in &mirror.records {
        fig.live_at_end += records.len() as u64;
        fig.expired_at_end += records
            .values()
            .filter(|r| r["expired"] == Value::Bool(true))
            .count() as u64;
    }
    let tasks = COLLECTIONS
        .iter()
        .position(|c| c.key == "tasks")
        .expect("tasks are a collection of the mirror");
    for task in mirror.records[tasks].values() {
        fig.in_series_at_end += u64::from(task["series_id"].is_string());
        fig.closed_with_next_at_end += u64::from(task["next_task_id"].is_string());
    }
    let deletions = world.store.list_all("/deletions", &[], 100);
    fig.deleted_at_end = deletions.len() as u64;
    Ok(fig)
}

/// "Task::SetStatus 404 not_found" or "Task::Create 422 expires_on".
fn refusal(op: &Op, reply: &crate::fixture::Reply) -> String {
    let name = format!("{op:?}");
    let name: String = name
        .split([' ', '{'])
        .next()
        .unwrap_or_default()
        .replace('(', "::");
    let error = &reply.body["error"];
    let blamed = error["details"]
        .as_object()
        .map(|d| d.keys().cloned().collect::<Vec<_>>().join(","))
        .unwrap_or_else(|| error["code"].as_str().unwrap_or_default().to_owned());
    format!("{name} {} {blamed}", reply.status)
}

impl Figures {
    fn add(&mut self, o: &Figures) {
        self.cases += o.cases;
        self.steps += o.steps;
        self.longest = self.longest.max(o.longest);
        self.requests += o.requests;
        self.refused += o.refused;
        self.syncs += o.syncs;
        self.pages += o.pages;
        self.clock_moves += o.clock_moves;
        self.hours += o.hours;
        self.restored += o.restored;
        for (k, n) in &o.refusals {
            *self.refusals.entry(k.clone()).or_default() += n;
        }
        self.live_at_end += o.live_at_end;
        self.deleted_at_end += o.deleted_at_end;
        self.expired_at_end += o.expired_at_end;
        self.in_series_at_end += o.in_series_at_end;
        self.closed_with_next_at_end += o.closed_with_next_at_end;
    }
}

#[test]
fn a_mirror_synced_with_updated_since_and_deletions_ends_equal_to_the_store() {
    let mut runner = TestRunner::new(crate::config(128, REGRESSIONS));
    let figures = RefCell::new(Figures::default());
    let began = Instant::now();
    let outcome = runner.run(&case(), |case| {
        let fig = run(&case, Marks::FirstPage)?;
        figures.borrow_mut().add(&fig);
        Ok(())
    });
    let f = figures.into_inner();
    eprintln!(
        "mirror fidelity: {} cases in {:.1?}; {} steps (mean {:.1}, longest {}); {} requests ({} refused, {} restores); {} syncs, {} pages; {} clock moves over {} days; at the end {} live records, {} deletion records, {} expired tasks, {} tasks of a series ({} closed with a next occurrence)",
        f.cases,
        began.elapsed(),
        f.steps,
        f.steps as f64 / f.cases.max(1) as f64,
        f.longest,
        f.requests,
        f.refused,
        f.restored,
        f.syncs,
        f.pages,
        f.clock_moves,
        f.hours / 24,
        f.live_at_end,
        f.deleted_at_end,
        f.expired_at_end,
        f.in_series_at_end,
        f.closed_with_next_at_end,
    );
    if std::env::var_os("PROPS_REFUSALS").is_some() {
        for (k, n) in &f.refusals {
            eprintln!("  refused {n:>6}  {k}");
        }
    }
    crate::expect_passed(outcome);
}

/// The client rule of the module doc, shown: a bound taken from the whole
/// pass loses a record changed behind the cursor, in the millisecond of a
/// page's last item; the first page's bound does not.
#[test]
fn a_mark_from_the_whole_pass_misses_a_change_behind_the_cursor() {
    let start = Start {
        zone: "UTC",
        at: "2026-03-10T09:00:00Z".parse().expect("an instant"),
    };
    let create = |name: &str| {
        Step::Op(Op::TaskList(TaskListOp::Create {
            name: name.to_owned(),
            color: None,
            icon: None,
            position: None,
        }))
    };
    let steps = vec![
        // Three lists in one millisecond: A, B, X (in ID order).
        create("A"),
        create("B"),
        create("X"),
        // With a page size of 1, page 1 of the list feed reads A, page 2 B.
        Step::Page(0),
        Step::Page(0),
        // A changes in that same millisecond: it sorts behind the cursor (B).
        Step::Op(Op::TaskList(TaskListOp::Change {
            list: Pick::Any(2),
            name: Some("A2".to_owned()),
            color: None,
            icon: None,
            position: None,
        })),
        // A list made a millisecond later is read on page 4, which ends the
        // pass: its largest `updated_at` is later than A2's.
        Step::Op(Op::Clock(ClockMove::Millis(1))),
        create("C"),
        Step::Page(0),
        Step::Page(0),
    ];
    let case = Case {
        start,
        limit: 1,
        steps,
    };
    run(&case, Marks::FirstPage).expect("the first page's bound keeps the mirror whole");
    let lost = run(&case, Marks::WholePass).expect_err("the whole pass's bound loses A2");
    assert!(lost.to_string().contains("A2"), "{lost}");
}
