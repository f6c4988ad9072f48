//! Search finds what the rules say (document 1, "Search"; docs/api.md
//! "Search"): after any sequence of the [`ops`] generator's operations
//! (creates, renames, deletes, restores within the window, permanent
//! deletes past it, cascades of lists, people and projects, moves of the
//! clock past expiry dates), `GET /search` answers, for every type, the
//! very records, in the very order, that a brute-force matcher finds over
//! the live records as the API lists them: the same rules written again
//! here without any index (folding, words, prefixes, misspellings by
//! optimal-string-alignment distance, phone digits, tiers, each type's
//! own order), so a record the index misses or keeps too long shows.
//!
//! Queries are made from the records' own words, whole, cut to a prefix,
//! misspelt (a letter dropped, changed or added, two swapped), in upper
//! case, two at a time, or random letters.

use std::cmp::Ordering;
use std::collections::{BTreeMap, HashSet};

use jiff::Timestamp;
use proptest::prelude::*;
use proptest::test_runner::{TestCaseError, TestRunner};
use serde_json::Value;
use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;

use crate::fixture::{Call, Store};
use crate::ops::{self, Op, Start, World};

const REGRESSIONS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/props/proptest-regressions/search.txt"
);

/// Results asked per type: the spec's most, so that most answers are
/// whole and the property sees every match.
const LIMIT: usize = 25;

/// The groups, in order.
const TYPES: [&str; 7] = [
    "person",
    "project",
    "note",
    "task",
    "document",
    "task_list",
    "folder",
];

// ---------------------------------------------------------------- queries

/// How a query word is made from a record's word.
#[derive(Debug, Clone, Copy)]
enum Change {
    Whole,
    /// Its first n letters (at least one).
    Prefix(u8),
    /// The letter at n dropped.
    Drop(u8),
    /// The letters at n and n + 1 swapped.
    Swap(u8),
    /// The letter at n changed to this one.
    Replace(u8, char),
    /// This letter added at n.
    Add(u8, char),
    Upper,
}

/// A query word: a record's word (the nth of every live record's words)
/// changed, or random letters.
#[derive(Debug, Clone)]
enum Word {
    Of(u16, Change),
    Random(String),
}

fn change() -> impl Strategy<Value = Change> {
    let letter = prop::sample::select(vec!['a', 'e', 'o', 'x', 'é']);
    prop_oneof![
        4 => Just(Change::Whole),
        3 => any::<u8>().prop_map(Change::Prefix),
        2 => any::<u8>().prop_map(Change::Drop),
        2 => any::<u8>().prop_map(Change::Swap),
        1 => (any::<u8>(), letter.clone()).prop_map(|(n, c)| Change::Replace(n, c)),
        1 => (any::<u8>(), letter).prop_map(|(n, c)| Change::Add(n, c)),
        1 => Just(Change::Upper),
    ]
}

fn word() -> impl Strategy<Value = Word> {
    prop_oneof![
        6 => (any::<u16>(), change()).prop_map(|(n, c)| Word::Of(n, c)),
        1 => "[a-z]{1,3}".prop_map(Word::Random),
    ]
}

fn query() -> impl Strategy<Value = Vec<Word>> {
    prop::collection::vec(word(), 1..=2)
}

/// The word `change` makes of `word`.
fn changed(word: &str, change: Change) -> String {
    let chars: Vec<char> = word.chars().collect();
    let at = |n: u8, len: usize| usize::from(n) % len.max(1);
    let mut out = chars.clone();
    match change {
        Change::Whole => {}
        Change::Prefix(n) => out.truncate(1 + at(n, chars.len())),
        Change::Drop(n) if chars.len() > 1 => {
            out.remove(at(n, chars.len()));
        }
        Change::Swap(n) if chars.len() > 1 => {
            out.swap(at(n, chars.len() - 1), at(n, chars.len() - 1) + 1)
        }
        Change::Replace(n, c) => out[at(n, chars.len())] = c,
        Change::Add(n, c) => out.insert(at(n, chars.len() + 1), c),
        Change::Upper => return word.to_uppercase(),
        _ => {}
    }
    out.into_iter().collect()
}

// ---------------------------------------------------------------- the rules, again

/// Lower case, accents dropped.
fn fold(text: &str) -> String {
    text.nfd()
        .filter(|c| !is_combining_mark(*c))
        .flat_map(char::to_lowercase)
        .collect()
}

/// A link's scheme and leading `www.` dropped, word by word.
fn no_schemes(text: &str) -> String {
    text.split_whitespace()
        .map(|part| {
            let rest = part.split_once("://").map_or(part, |(_, r)| r);
            match rest.get(..4) {
                Some(www) if www.eq_ignore_ascii_case("www.") => rest[4..].to_owned(),
                _ => rest.to_owned(),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The folded words of `text`.
fn words(text: &str) -> Vec<String> {
    fold(&no_schemes(text))
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_owned)
        .collect()
}

/// The optimal string alignment distance (edits: add, drop, change one
/// letter, swap two neighbours), by letters.
fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            d[i][j] = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d[i][j] = d[i][j].min(d[i - 2][j - 2] + 1);
            }
        }
    }
    d[a.len()][b.len()]
}

/// A record as search sees it: its words (each with whether it may be
/// misspelt), its phone numbers' digits, and its place in its type's own
/// order.
#[derive(Debug)]
struct Record {
    id: String,
    title: String,
    words: Vec<(String, bool)>,
    phones: Vec<String>,
    order: Order,
}

/// A type's own order (ties by ID, ascending).
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Order {
    Name(String),
    OpenThenName(bool, String),
    Newest(std::cmp::Reverse<Timestamp>),
    Position(i64),
    /// Open tasks newest (largest ID) first, then closed ones latest closed first.
    Task(
        bool,
        std::cmp::Reverse<Timestamp>,
        std::cmp::Reverse<String>,
    ),
}

/// How well `record` matches `q`: 0 whole words, 1 beginnings, 2
/// misspellings; `None` when it does not.
fn tier(record: &Record, q: &str) -> Option<u8> {
    let mut seen = HashSet::new();
    let query: Vec<String> = words(q)
        .into_iter()
        .filter(|w| seen.insert(w.clone()))
        .collect();
    let by_words = if query.is_empty() {
        None
    } else {
        query.iter().try_fold(0u8, |worst, w| {
            let edits = match w.chars().count() {
                0..=3 => 0,
                4..=7 => 1,
                _ => 2,
            };
            let best = record
                .words
                .iter()
                .filter_map(|(t, name)| {
                    if t == w {
                        Some(0)
                    } else if t.starts_with(w.as_str()) {
                        Some(1)
                    } else if *name && edits > 0 && distance(w, t) <= edits {
                        Some(2)
                    } else {
                        None
                    }
                })
                .min()?;
            Some(worst.max(best))
        })
    };
    let by_phone = {
        let phone_like = q
            .chars()
            .all(|c| c.is_ascii_digit() || c.is_whitespace() || "+-().\\/".contains(c));
        let digits: String = q.chars().filter(char::is_ascii_digit).collect();
        let national = digits.trim_start_matches('0').to_owned();
        let mut asked = vec![];
        if phone_like && digits.len() >= 3 {
            asked.push(digits.clone());
            if national.len() >= 3 && national != digits {
                asked.push(national);
            }
        }
        record
            .phones
            .iter()
            .flat_map(|p| {
                asked.iter().filter_map(move |a| {
                    if p == a {
                        Some(0)
                    } else if p.contains(a.as_str()) {
                        Some(1)
                    } else {
                        None
                    }
                })
            })
            .min()
    };
    by_words.into_iter().chain(by_phone).min()
}

fn text(v: &Value, field: &str) -> String {
    v[field].as_str().unwrap_or_default().to_owned()
}

fn at(v: &Value, field: &str) -> Timestamp {
    v[field]
        .as_str()
        .and_then(|s| s.parse().ok())
        .unwrap_or_default()
}

fn named(words: &mut Vec<(String, bool)>, text: &str, name: bool) {
    words.extend(self::words(text).into_iter().map(|w| (w, name)));
}

/// Every live record of each type, read through the API's listings.
fn records(store: &Store) -> BTreeMap<&'static str, Vec<Record>> {
    let mut out: BTreeMap<&'static str, Vec<Record>> = BTreeMap::new();
    for p in store.list_all("/people", &[], 100) {
        let mut w = Vec::new();
        named(&mut w, &text(&p, "name"), true);
        for e in p["email_addresses"].as_array().into_iter().flatten() {
            named(&mut w, &text(e, "address"), false);
        }
        for s in p["social_profiles"].as_array().into_iter().flatten() {
            named(&mut w, &text(s, "url"), false);
        }
        let phones = p["phone_numbers"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|n| {
                text(n, "number")
                    .chars()
                    .filter(char::is_ascii_digit)
                    .collect::<String>()
            })
            .filter(|d| d.len() >= 3)
            .collect();
        out.entry("person").or_default().push(Record {
            id: text(&p, "id"),
            title: text(&p, "name"),
            order: Order::Name(fold(&text(&p, "name"))),
            words: w,
            phones,
        });
    }
    for p in store.list_all("/projects", &[], 100) {
        let mut w = Vec::new();
        named(&mut w, &text(&p, "name"), true);
        named(&mut w, &text(&p, "external_reference"), false);
        let closed = matches!(p["status"].as_str(), Some("done" | "cancelled"));
        out.entry("project").or_default().push(Record {
            id: text(&p, "id"),
            title: text(&p, "name"),
            order: Order::OpenThenName(closed, fold(&text(&p, "name"))),
            words: w,
            phones: vec![],
        });
    }
    for summary in store.list_all("/notes", &[], 100) {
        let n = store
            .call(&Call::get(format!("/notes/{}", text(&summary, "id"))))
            .expect(200)
            .data()
            .clone();
        let mut w = Vec::new();
        named(&mut w, &text(&n, "title"), false);
        named(&mut w, &text(&n, "body_text"), false);
        out.entry("note").or_default().push(Record {
            id: text(&n, "id"),
            title: text(&n, "name"),
            order: Order::Newest(std::cmp::Reverse(at(&n, "edited_at"))),
            words: w,
            phones: vec![],
        });
    }
    for t in store.list_all("/tasks", &[], 100) {
        let mut w = Vec::new();
        named(&mut w, &text(&t, "title"), true);
        let open = t["status"] == "open";
        let closed_at = ["completed_at", "archived_at", "updated_at"]
            .iter()
            .map(|f| at(&t, f))
            .find(|at| *at != Timestamp::default())
            .unwrap_or_default();
        let order = if open {
            Order::Task(
                false,
                std::cmp::Reverse(Timestamp::default()),
                std::cmp::Reverse(text(&t, "id")),
            )
        } else {
            Order::Task(
                true,
                std::cmp::Reverse(closed_at),
                std::cmp::Reverse(String::new()),
            )
        };
        out.entry("task").or_default().push(Record {
            id: text(&t, "id"),
            title: text(&t, "title"),
            order,
            words: w,
            phones: vec![],
        });
    }
    for (kind, path, name) in [
        ("document", "/documents", true),
        ("task_list", "/task_lists", false),
        ("folder", "/folders", false),
    ] {
        for r in store.list_all(path, &[], 100) {
            let mut w = Vec::new();
            named(&mut w, &text(&r, "name"), name);
            let order = match kind {
                "task_list" => Order::Position(r["position"].as_i64().unwrap_or_default()),
                _ => Order::Name(fold(&text(&r, "name"))),
            };
            out.entry(kind).or_default().push(Record {
                id: text(&r, "id"),
                title: text(&r, "name"),
                order,
                words: w,
                phones: vec![],
            });
        }
    }
    out
}

/// The query the words make, resolved against the records.
fn resolve(query: &[Word], all: &BTreeMap<&'static str, Vec<Record>>) -> String {
    let every: Vec<&String> = all
        .values()
        .flatten()
        .flat_map(|r| r.words.iter().map(|(w, _)| w))
        .collect();
    query
        .iter()
        .map(|w| match w {
            Word::Random(s) => s.clone(),
            Word::Of(_, _) if every.is_empty() => "nothing".to_owned(),
            Word::Of(n, change) => changed(every[usize::from(*n) % every.len()], *change),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

macro_rules! ensure {
    ($cond:expr, $($fmt:tt)+) => {
        if !$cond {
            return Err(TestCaseError::fail(format!($($fmt)+)));
        }
    };
}

/// What the checks saw: results compared, by tier.
type Seen = [usize; 3];

/// Asks `q` of every type and compares with the brute-force matcher.
fn check(
    store: &Store,
    q: &str,
    all: &BTreeMap<&'static str, Vec<Record>>,
    seen: &mut Seen,
) -> Result<(), TestCaseError> {
    let reply = store
        .call(
            &Call::get("/search")
                .param("q", q)
                .param("limit", LIMIT.to_string()),
        )
        .expect(200);
    let groups = reply.data().as_array().expect("groups");
    ensure!(
        groups.len() == TYPES.len(),
        "{q:?}: {} groups",
        groups.len()
    );
    for (group, kind) in groups.iter().zip(TYPES) {
        ensure!(
            group["type"] == kind,
            "{q:?}: group {} where {kind} was due",
            group["type"]
        );
        let mut wanted: Vec<(u8, &Record)> = all
            .get(kind)
            .into_iter()
            .flatten()
            .filter_map(|r| tier(r, q).map(|t| (t, r)))
            .collect();
        wanted.sort_by(|(ta, a), (tb, b)| {
            ta.cmp(tb)
                .then_with(|| a.order.cmp(&b.order))
                .then_with(|| a.id.cmp(&b.id))
                .then(Ordering::Equal)
        });
        let more = wanted.len() > LIMIT;
        wanted.truncate(LIMIT);
        for (t, _) in &wanted {
            seen[usize::from(*t)] += 1;
        }
        let wanted: Vec<(String, &str)> = wanted
            .iter()
            .map(|(_, r)| (r.id.clone(), r.title.as_str()))
            .collect();
        let got: Vec<(String, &str)> = group["results"]
            .as_array()
            .expect("results")
            .iter()
            .map(|r| (text(r, "id"), r["title"].as_str().unwrap_or_default()))
            .collect();
        ensure!(
            got == wanted,
            "{kind} for {q:?}:\n  search found {got:?}\n  the rules find {wanted:?}"
        );
        ensure!(
            group["has_more"] == more,
            "{kind} for {q:?}: has_more is {}",
            group["has_more"]
        );
    }
    Ok(())
}

/// A step: an operation, or a check of a few queries.
#[derive(Debug, Clone)]
enum Step {
    Op(Op),
    Check(Vec<Vec<Word>>),
}

#[derive(Debug, Clone)]
struct Case {
    start: Start,
    /// How search plans its reads: small thresholds on these small stores
    /// reach every plan (walking the order and giving it up, reading a
    /// word's range or looking each candidate up).
    plan: (u64, u64),
    steps: Vec<Step>,
}

fn case() -> BoxedStrategy<Case> {
    let step = prop_oneof![
        12 => ops::op().prop_map(Step::Op),
        1 => prop::collection::vec(query(), 1..=3).prop_map(Step::Check),
    ];
    let plan = prop_oneof![
        1 => Just((8_000u64, 8u64)),
        3 => (0u64..=6, 0u64..=3),
    ];
    (
        ops::start(),
        plan,
        ops::seed(),
        prop::collection::vec(step, 1..=60),
        prop::collection::vec(query(), 4..=8),
    )
        .prop_map(|(start, plan, seed, steps, last)| Case {
            start,
            plan,
            steps: seed
                .into_iter()
                .map(Step::Op)
                .chain(steps)
                .chain([Step::Check(last)])
                .collect(),
        })
        .boxed()
}

fn run(case: &Case, seen: &mut Seen) -> Result<usize, TestCaseError> {
    let (walk_from, read_per_candidate) = case.plan;
    let plan = organiser::search::SearchPlan {
        walk_from,
        read_per_candidate,
    };
    let mut world = World::over(Store::planned(case.start.at, case.start.zone, plan));
    let mut asked = 0;
    for step in &case.steps {
        match step {
            Step::Op(op) => {
                if let Some(reply) = world.apply(op) {
                    ensure!(reply.status < 500, "{op:?} answered {}", reply.status);
                }
            }
            Step::Check(queries) => {
                let all = records(&world.store);
                for query in queries {
                    let q = resolve(query, &all);
                    check(&world.store, &q, &all, seen)?;
                    asked += 1;
                }
            }
        }
    }
    Ok(asked)
}

#[test]
fn search_finds_what_the_rules_find_over_the_live_records() {
    let mut runner = TestRunner::new(crate::config(24, REGRESSIONS));
    let asked = std::cell::Cell::new(0);
    let seen = std::cell::Cell::new([0usize; 3]);
    let outcome = runner.run(&case(), |case| {
        let mut s = seen.get();
        asked.set(asked.get() + run(&case, &mut s)?);
        seen.set(s);
        Ok(())
    });
    crate::expect_passed(outcome);
    let [whole, beginnings, misspelt] = seen.get();
    eprintln!(
        "search: {} queries compared with the rules; results compared: {whole} by whole words, \
         {beginnings} by beginnings, {misspelt} by misspellings",
        asked.get()
    );
}

#[test]
fn the_brute_force_rules_agree_with_the_examples() {
    assert_eq!(distance("higgins", "higgisn"), 1);
    assert_eq!(distance("bartholomew", "brtholomwe"), 2);
    assert_eq!(distance("ca", "abc"), 3);
    assert_eq!(
        words("Zoë Ångström, https://www.x.org/a-b"),
        ["zoe", "angstrom", "x", "org", "a", "b"]
    );
    assert_eq!(changed("plumber", Change::Swap(2)), "plmuber");
    assert_eq!(changed("plumber", Change::Prefix(3)), "plum");
}
