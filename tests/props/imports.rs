//! The mirror property across imports (EXTENSIONS.md §5): a client that
//! mirrors the store with `updated_since` and `GET /deletions` (the
//! client of [`crate::mirror`], its [`COLLECTIONS`] and its sync) ends
//! equal to the store after every import, whatever the store held and
//! whatever the client was doing when the import came.
//!
//! A case is a sequence of the operations of [`crate::ops`] on one store,
//! with syncs and single pages of the mirror between them, as in
//! [`crate::mirror`], and imports (`POST /imports` with the file as the
//! raw body) of:
//!
//! - the foreign files of `tests/fixtures/imports/` (Taskwarrior,
//!   Todoist's CSV and JSON backup, vCards from five tools, iCalendar
//!   to-dos, a Joplin and an Obsidian folder as one zip), each with its
//!   `from` or found from the content, and possibly again;
//! - the organiser's archive of another store, made by operations of its
//!   own from its own start (every record in it new here), its owner in
//!   its own zone or in this store's;
//! - the archive of this very store, exported just before.
//!
//! After each import the mirror syncs and must equal the store, record by
//! record and field by field (every imported record reaches it; nothing
//! it holds is stale), and:
//!
//! - the records the mirror gained are, by kind, the report's `created`
//!   (each kind that is a collection of the mirror), and it lost none;
//! - the archive of this store changes nothing: no `created`, no
//!   `updated`, the same records;
//! - now and then a dry run (`dry_run=true`) comes first: it answers 200,
//!   changes nothing the mirror sees (records, deletions, the owner), and
//!   reports what the import then does.
//!
//! Records an import made join those the later operations pick.
//!
//! `PROPTEST_CASES` sets the number of cases (see `main.rs`); without it
//! the property runs [`CI_CASES`].

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::sync::OnceLock;
use std::time::Instant;

use organiser::Auth;
use organiser::list::Query;
use organiser::server::{Method, Request};
use organiser::transfer::ExportFormat;
use proptest::prelude::*;
use proptest::test_runner::{TestCaseError, TestRunner};
use serde_json::{Value, json};

use crate::fixture::{Call, Reply, Store};
use crate::mirror::{COLLECTIONS, Marks, Mirror};
use crate::ops::{self, Op, Start, TaskListOp, World};

/// Cases in CI: each builds two stores and imports a few archives.
const CI_CASES: u32 = 24;

const REGRESSIONS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/props/proptest-regressions/imports.txt"
);

macro_rules! ensure {
    ($cond:expr, $($fmt:tt)+) => {
        if !$cond {
            return Err(TestCaseError::fail(format!($($fmt)+)));
        }
    };
}

// ---------------------------------------------------------------- the files

/// A foreign file of `tests/fixtures/imports/`: its format, the name it
/// is sent under, its path, and whether it is a folder (sent as one zip).
struct Foreign {
    from: &'static str,
    name: &'static str,
    path: &'static str,
    folder: bool,
}

const FOREIGN: &[Foreign] = &[
    Foreign {
        from: "taskwarrior",
        name: "export.json",
        path: "taskwarrior/export.json",
        folder: false,
    },
    Foreign {
        from: "todoist",
        name: "Home.csv",
        path: "todoist/Home.csv",
        folder: false,
    },
    Foreign {
        from: "todoist",
        name: "todoist-backup.json",
        path: "todoist/todoist-backup.json",
        folder: false,
    },
    Foreign {
        from: "vcard",
        name: "apple.vcf",
        path: "vcard/apple.vcf",
        folder: false,
    },
    Foreign {
        from: "vcard",
        name: "google.vcf",
        path: "vcard/google.vcf",
        folder: false,
    },
    Foreign {
        from: "vcard",
        name: "khard.vcf",
        path: "vcard/khard.vcf",
        folder: false,
    },
    Foreign {
        from: "vcard",
        name: "monica.vcf",
        path: "vcard/monica.vcf",
        folder: false,
    },
    Foreign {
        from: "vcard",
        name: "nextcloud.vcf",
        path: "vcard/nextcloud.vcf",
        folder: false,
    },
    Foreign {
        from: "ical",
        name: "tasks.ics",
        path: "ical/tasks.ics",
        folder: false,
    },
    Foreign {
        from: "markdown",
        name: "joplin",
        path: "markdown/joplin",
        folder: true,
    },
    Foreign {
        from: "markdown",
        name: "obsidian",
        path: "markdown/obsidian",
        folder: true,
    },
];

/// The bytes of each of [`FOREIGN`], read once.
fn foreign_bytes(n: usize) -> &'static [u8] {
    static BYTES: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    let all = BYTES.get_or_init(|| {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/imports");
        FOREIGN
            .iter()
            .map(|f| {
                let full = root.join(f.path);
                if f.folder {
                    organiser::transfer::read_folder(&full).expect("a folder of fixtures")
                } else {
                    std::fs::read(&full).unwrap_or_else(|e| panic!("{}: {e}", full.display()))
                }
            })
            .collect()
    });
    &all[n]
}

// ---------------------------------------------------------------- the cases

/// What an import reads.
#[derive(Debug, Clone, Copy)]
enum Source {
    /// The nth of [`FOREIGN`], its format named (`from`) or found from the
    /// content.
    Foreign { n: usize, named: bool },
    /// The archive of the other store of the case.
    Other,
    /// The archive of this store, exported just before.
    Same,
}

fn source() -> impl Strategy<Value = Source> {
    prop_oneof![
        4 => (0..FOREIGN.len(), prop::bool::weighted(0.7))
            .prop_map(|(n, named)| Source::Foreign { n, named }),
        3 => Just(Source::Other),
        2 => Just(Source::Same),
    ]
}

/// One step: an operation on the store, a full sync, one page of one
/// feed, or an import (a dry run of it first, or not).
#[derive(Debug, Clone)]
enum Step {
    Op(Op),
    Sync,
    Page(u8),
    Import { source: Source, dry_first: bool },
}

fn import() -> impl Strategy<Value = Step> {
    (source(), prop::bool::weighted(0.3))
        .prop_map(|(source, dry_first)| Step::Import { source, dry_first })
}

fn step() -> BoxedStrategy<Step> {
    prop_oneof![
        10 => ops::op().prop_map(Step::Op),
        1 => Just(Step::Sync),
        3 => any::<u8>().prop_map(Step::Page),
        3 => import(),
    ]
    .boxed()
}

/// The store whose archive is imported: its start, and its operations.
/// With `same_zone`, its owner is moved to this store's zone before each
/// export, so that the import leaves the zone as it was.
#[derive(Debug, Clone)]
struct Other {
    start: Start,
    ops: Vec<Op>,
    same_zone: bool,
}

fn other() -> BoxedStrategy<Other> {
    (
        ops::start(),
        ops::seed(),
        prop::collection::vec(ops::op(), 1..=40),
        prop::bool::weighted(0.7),
    )
        .prop_map(|(start, seed, ops, same_zone)| Other {
            start,
            ops: seed.into_iter().chain(ops).collect(),
            same_zone,
        })
        .boxed()
}

/// A case: where this store starts, the mirror's page size, the other
/// store, and the steps (the last one an import).
#[derive(Debug, Clone)]
struct Case {
    start: Start,
    limit: u32,
    other: Other,
    steps: Vec<Step>,
}

fn case() -> BoxedStrategy<Case> {
    (
        ops::start(),
        prop::sample::select(vec![1u32, 2, 3, 5, 100]),
        other(),
        ops::seed(),
        prop::collection::vec(step(), 0..=40),
        import(),
    )
        .prop_map(|(start, limit, other, seed, steps, last)| Case {
            start,
            limit,
            other,
            steps: seed
                .into_iter()
                .map(Step::Op)
                .chain(steps)
                .chain([last])
                .collect(),
        })
        .boxed()
}

// ---------------------------------------------------------------- the store's state

/// Everything the mirror can see: each collection's records by ID, the
/// deletion records, and the owner.
#[derive(Debug, PartialEq)]
struct Seen {
    records: Vec<BTreeMap<String, Value>>,
    deletions: Vec<Value>,
    me: Value,
}

impl Seen {
    fn of(store: &Store) -> Seen {
        Seen {
            records: COLLECTIONS
                .iter()
                .map(|c| {
                    store
                        .list_all(c.path, &[], 100)
                        .into_iter()
                        .map(|r| (r["id"].as_str().unwrap_or_default().to_owned(), r))
                        .collect()
                })
                .collect(),
            deletions: store.list_all("/deletions", &[], 100),
            me: store.call(&Call::get("/me")).expect(200).data().clone(),
        }
    }

    /// Where `self` and `other` first differ, for a failure.
    fn difference(&self, other: &Seen) -> String {
        for (c, collection) in COLLECTIONS.iter().enumerate() {
            let (a, b) = (&self.records[c], &other.records[c]);
            let ids: BTreeSet<&String> = a.keys().chain(b.keys()).collect();
            for id in ids {
                if a.get(id) != b.get(id) {
                    return format!(
                        "{} {id}: {:?} became {:?}",
                        collection.path,
                        a.get(id),
                        b.get(id)
                    );
                }
            }
        }
        if self.deletions != other.deletions {
            return format!(
                "the deletions {:?} became {:?}",
                self.deletions, other.deletions
            );
        }
        format!("the owner {} became {}", self.me, other.me)
    }
}

// ---------------------------------------------------------------- the import

/// `POST /imports` with `query` and `bytes` as the raw body.
fn post(store: &Store, query: &[(&str, String)], bytes: Vec<u8>) -> Reply {
    let request = Request::new(Method::Post, "/imports", Auth::Local)
        .with_query(Query::from_pairs(
            query.iter().map(|(k, v)| (k.to_string(), v.clone())),
        ))
        .with_raw("application/octet-stream", bytes);
    store.send(&request)
}

/// The archive of `world`'s store.
fn archive(world: &World) -> Vec<u8> {
    world
        .store
        .org
        .transfer()
        .export(ExportFormat::Organiser)
        .expect("an export")
        .bytes
}

/// The other store, made on first use.
fn other_world<'a>(slot: &'a mut Option<World>, other: &Other) -> &'a World {
    slot.get_or_insert_with(|| {
        let mut world = World::new(&other.start);
        for op in &other.ops {
            world.apply(op);
        }
        world
    })
}

/// A report's counts by kind, as a map.
fn counts(report: &Value, key: &str) -> BTreeMap<String, u64> {
    report[key]
        .as_object()
        .into_iter()
        .flatten()
        .map(|(k, n)| (k.clone(), n.as_u64().unwrap_or(u64::MAX)))
        .collect()
}

/// What a run did, for the figures.
#[derive(Debug, Default)]
struct Figures {
    cases: u64,
    steps: u64,
    requests: u64,
    syncs: u64,
    pages: u64,
    /// Imports by source (`taskwarrior`, `organiser (other)`, ...).
    imports: BTreeMap<String, u64>,
    dry_runs: u64,
    /// Records made by imports, by kind.
    created: BTreeMap<String, u64>,
    /// Records changed by imports, by kind.
    updated: BTreeMap<String, u64>,
    /// Imports that left a pass of the mirror under way.
    mid_pass: u64,
    /// Occurrences of imported repeating tasks made when the clock
    /// expired them here.
    made_by_clock: u64,
    /// Imports that moved the owner to another zone.
    moved_zone: u64,
    live_at_end: u64,
}

struct Run<'a> {
    case: &'a Case,
    world: World,
    mirror: Mirror,
    other: Option<World>,
    /// Whether the mirror has a pass under way (a page read since the
    /// last full sync).
    paging: bool,
    fig: &'a mut Figures,
}

impl Run<'_> {
    fn import(&mut self, source: Source, dry_first: bool) -> Result<(), TestCaseError> {
        let store = &self.world.store;
        let (label, query, bytes) = match source {
            Source::Foreign { n, named } => {
                let f = &FOREIGN[n];
                let mut query = vec![("name", f.name.to_owned())];
                if named {
                    query.push(("from", f.from.to_owned()));
                }
                (
                    format!("{} {}", f.from, f.name),
                    query,
                    foreign_bytes(n).to_vec(),
                )
            }
            Source::Other => {
                let zone = store.call(&Call::get("/me")).expect(200).data()["time_zone"].clone();
                let other = other_world(&mut self.other, &self.case.other);
                if self.case.other.same_zone {
                    other
                        .store
                        .call(
                            &Call::new(Method::Patch, "/me")
                                .body(json!({ "me": { "time_zone": zone } })),
                        )
                        .expect(200);
                }
                (
                    "organiser (another store)".to_owned(),
                    vec![("from", "organiser".to_owned())],
                    archive(other),
                )
            }
            Source::Same => (
                "organiser (this store)".to_owned(),
                vec![("from", "organiser".to_owned())],
                archive(&self.world),
            ),
        };
        *self.fig.imports.entry(label.clone()).or_default() += 1;
        if self.paging {
            self.fig.mid_pass += 1;
        }
        let before = Seen::of(store);

        let dry = if dry_first {
            self.fig.dry_runs += 1;
            self.fig.requests += 1;
            let mut dry_query = query.clone();
            dry_query.push(("dry_run", "true".to_owned()));
            let dry = post(store, &dry_query, bytes.clone());
            ensure!(
                dry.status == 200 && dry.data()["dry_run"] == true,
                "{label}: a dry run answered {} {}",
                dry.status,
                dry.body
            );
            self.mirror.sync(store)?;
            self.mirror.check(store)?;
            let after = Seen::of(store);
            ensure!(
                after == before,
                "{label}: a dry run changed what the mirror sees: {}\nits report: {}",
                before.difference(&after),
                dry.body
            );
            Some(dry)
        } else {
            None
        };

        self.fig.requests += 1;
        let reply = post(store, &query, bytes);
        ensure!(
            reply.status == 201,
            "{label}: the import answered {} {}",
            reply.status,
            reply.body
        );
        let report = reply.data().clone();
        ensure!(
            report["dry_run"] == false,
            "{label}: a real import reports a dry run: {report}"
        );
        if let Some(dry) = &dry {
            for key in ["from", "created", "updated", "skipped"] {
                ensure!(
                    dry.data()[key] == report[key],
                    "{label}: the dry run's `{key}` differs from the import's: {} vs {}",
                    dry.data()[key],
                    report[key]
                );
            }
        }

        // Every imported record reaches the mirror; nothing it holds is
        // stale.
        self.mirror.sync(store)?;
        self.paging = false;
        self.fig.syncs += 1;
        self.mirror.check(store).map_err(|e| {
            TestCaseError::fail(format!(
                "after the import of {label} (its report: {report}): {e}"
            ))
        })?;

        let created = counts(&report, "created");
        let updated = counts(&report, "updated");
        for (kind, n) in &created {
            *self.fig.created.entry(kind.clone()).or_default() += n;
        }
        for (kind, n) in &updated {
            *self.fig.updated.entry(kind.clone()).or_default() += n;
        }
        let me = store.call(&Call::get("/me")).expect(200).data().clone();
        let moved = me["time_zone"] != before.me["time_zone"];
        self.fig.moved_zone += u64::from(moved);

        // What the mirror gained is what the report says was created.
        let now = store.org.now();
        let mut made = Vec::new();
        // What an import removes it says in `/deletions` (a company a
        // newer person no longer names).
        let deleted: BTreeSet<String> = store
            .list_all("/deletions", &[], 100)
            .iter()
            .filter_map(|d| d["id"].as_str().map(str::to_owned))
            .collect();
        for (c, collection) in COLLECTIONS.iter().enumerate() {
            let had = &before.records[c];
            let has = &self.mirror.records[c];
            let lost: Vec<&String> = had
                .keys()
                .filter(|id| !has.contains_key(*id) && !deleted.contains(*id))
                .collect();
            ensure!(
                lost.is_empty(),
                "{label}: {} lost {lost:?} in an import (its report: {report})",
                collection.path
            );
            let mut gained: Vec<&String> = has.keys().filter(|id| !had.contains_key(*id)).collect();
            if collection.key == "tasks" {
                // The next occurrence of an imported repeating task that
                // had expired here: made by the store's clock when it
                // settled, not by the import.
                let by_clock: BTreeSet<&str> = has
                    .values()
                    .filter(|t| t["expired"] == true)
                    .filter_map(|t| t["next_task_id"].as_str())
                    .filter(|next| {
                        has.get(*next).is_some_and(|n| {
                            n["created_at"].as_str().and_then(|at| at.parse().ok()) == Some(now)
                        })
                    })
                    .collect();
                let all = gained.len();
                gained.retain(|id| !by_clock.contains(id.as_str()));
                self.fig.made_by_clock += (all - gained.len()) as u64;
            }
            let reported = created.get(collection.deletion_type).copied().unwrap_or(0);
            ensure!(
                gained.len() as u64 == reported,
                "{label}: the report says {reported} {} created, the mirror gained {} {}: {:?}\nits report: {report}",
                collection.deletion_type,
                gained.len(),
                collection.path,
                gained.iter().map(|id| &has[*id]).collect::<Vec<_>>()
            );
            if collection.key != "tags" {
                made.extend(gained.into_iter().map(|id| (collection.key, id.clone())));
            }
        }

        if let Source::Same = source {
            ensure!(
                created.is_empty() && updated.is_empty(),
                "{label}: the store's own archive changed it: {report}"
            );
            let after = Seen::of(store);
            ensure!(
                after == before,
                "{label}: the store's own archive changed it: {}",
                before.difference(&after)
            );
        }
        for (collection, id) in made {
            self.world.remember(collection, &id);
        }
        Ok(())
    }
}

fn run(case: &Case, fig: &mut Figures) -> Result<(), TestCaseError> {
    let mut run = Run {
        case,
        world: World::new(&case.start),
        mirror: Mirror::new(case.limit, Marks::FirstPage),
        other: None,
        paging: false,
        fig,
    };
    run.fig.cases += 1;
    run.fig.steps += case.steps.len() as u64;
    for step in &case.steps {
        match step {
            Step::Op(op) => {
                if let Some(reply) = run.world.apply(op) {
                    run.fig.requests += 1;
                    ensure!(
                        reply.status < 500,
                        "{op:?} answered {}: {}",
                        reply.status,
                        reply.body
                    );
                }
            }
            Step::Sync => {
                run.fig.syncs += 1;
                run.mirror.sync(&run.world.store)?;
                run.mirror.check(&run.world.store)?;
                run.paging = false;
            }
            Step::Page(f) => {
                let f = usize::from(*f) % (COLLECTIONS.len() + 1);
                run.mirror.page(&run.world.store, f)?;
                run.paging = true;
            }
            Step::Import { source, dry_first } => run.import(*source, *dry_first)?,
        }
    }
    run.fig.syncs += 1;
    run.mirror.sync(&run.world.store)?;
    run.mirror.check(&run.world.store)?;
    run.fig.pages += run.mirror.pages;
    run.fig.live_at_end += run
        .mirror
        .records
        .iter()
        .map(|r| r.len() as u64)
        .sum::<u64>();
    Ok(())
}

#[test]
fn a_mirror_stays_equal_to_the_store_across_imports() {
    let mut runner = TestRunner::new(crate::config(CI_CASES, REGRESSIONS));
    let figures = RefCell::new(Figures::default());
    let began = Instant::now();
    let outcome = runner.run(&case(), |case| run(&case, &mut figures.borrow_mut()));
    let f = figures.into_inner();
    eprintln!(
        "mirror across imports: {} cases in {:.1?}; {} steps, {} requests, {} syncs, {} pages; imports {:?} ({} with a dry run first, {} with a pass of the mirror under way, {} that moved the owner's zone); created {:?}; updated {:?}; {} occurrences of imported tasks made by the clock; {} live records at the ends",
        f.cases,
        began.elapsed(),
        f.steps,
        f.requests,
        f.syncs,
        f.pages,
        f.imports,
        f.dry_runs,
        f.mid_pass,
        f.moved_zone,
        f.created,
        f.updated,
        f.made_by_clock,
        f.live_at_end,
    );
    crate::expect_passed(outcome);
}

// ---------------------------------------------------------------- worked examples

/// A case in UTC: this store starting at `this_at` and taking `steps`,
/// the other one starting at `other_at` with one task list.
fn example(this_at: &str, other_at: &str, steps: Vec<Step>) -> Case {
    let list = |name: &str| {
        Op::TaskList(TaskListOp::Create {
            name: name.to_owned(),
            color: None,
            icon: None,
            position: None,
        })
    };
    Case {
        start: Start {
            zone: "UTC",
            at: this_at.parse().expect("an instant"),
        },
        limit: 100,
        other: Other {
            start: Start {
                zone: "UTC",
                at: other_at.parse().expect("an instant"),
            },
            ops: vec![list("From the other store")],
            same_zone: true,
        },
        steps,
    }
}

fn make(name: &str) -> Step {
    Step::Op(Op::TaskList(TaskListOp::Create {
        name: name.to_owned(),
        color: None,
        icon: None,
        position: None,
    }))
}

/// An archive made before the mirror's last sync: the records it makes
/// keep their `updated_at`, behind the mirror's bound.
#[test]
fn an_older_archive_reaches_the_mirror() {
    let case = example(
        "2026-03-01T09:00:00Z",
        "2026-01-01T09:00:00Z",
        vec![
            make("Here"),
            Step::Sync,
            Step::Import {
                source: Source::Other,
                dry_first: false,
            },
        ],
    );
    run(&case, &mut Figures::default()).expect("the mirror sees the imported list");
}

/// An archive made later than the store's clock: the mirror's bound moves
/// past the store's clock, and the store's next change is behind it.
#[test]
fn a_newer_archive_leaves_the_mirror_able_to_see_what_follows() {
    let case = example(
        "2026-03-01T09:00:00Z",
        "2026-06-01T09:00:00Z",
        vec![
            Step::Sync,
            Step::Import {
                source: Source::Other,
                dry_first: false,
            },
            make("Made after the import"),
        ],
    );
    run(&case, &mut Figures::default()).expect("the mirror sees the list made after");
}

/// A record of an imported archive deleted here (for good: past the
/// restore window), then the archive again: the import makes the record
/// again, with its old `updated_at`, and its deletion record stays.
#[test]
fn an_archive_again_after_a_delete_keeps_the_store_and_its_deletions_agreeing() {
    let case = example(
        "2026-03-01T09:00:00Z",
        "2026-01-01T09:00:00Z",
        vec![
            Step::Import {
                source: Source::Other,
                dry_first: false,
            },
            Step::Op(Op::TaskList(TaskListOp::Delete {
                list: ops::Pick::Live(0),
            })),
            Step::Op(Op::Clock(ops::ClockMove::Days(2))),
            Step::Import {
                source: Source::Other,
                dry_first: false,
            },
        ],
    );
    run(&case, &mut Figures::default())
        .expect("the store lists no record that /deletions names as deleted");
}

/// An archive made later than the store's clock, with a deletion record
/// of a list this store never had: the deletion record is written dated
/// the import's moment, not the other store's future, so the mirror's
/// bound on `/deletions` stays at the store's clock and a list deleted
/// here after the import reaches the mirror.
#[test]
fn a_newer_archives_deletion_leaves_the_mirror_able_to_see_a_delete_that_follows() {
    let mut case = example(
        "2026-03-01T09:00:00Z",
        "2026-06-01T09:00:00Z",
        vec![
            make("Here"),
            Step::Import {
                source: Source::Other,
                dry_first: false,
            },
            Step::Op(Op::TaskList(TaskListOp::Delete {
                list: ops::Pick::Live(0),
            })),
        ],
    );
    case.other.ops.push(Op::TaskList(TaskListOp::Delete {
        list: ops::Pick::Live(0),
    }));
    run(&case, &mut Figures::default()).expect("the mirror is told of the list deleted here");
}
