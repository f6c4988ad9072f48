//! Document 1, "Search" and "Search group" (`GET /search`), with
//! DESIGN.md's limits and docs/api.md "Search": checked as an outside
//! client would. The tests:
//!
//! - `matching`: one table of queries over one small world, for every
//!   matching rule of every type (accents both ways, prefix words, one and
//!   two edits, transpositions, phone digits, emails, links, references,
//!   what notes are found by);
//! - `ranking`: whole words above beginnings above misspellings, then each
//!   type's own order; `limit`, `has_more` and `types`; the 400s; results'
//!   shape; expired tasks archived first;
//! - `following`: renames, deletes, restores, permanent deletes and the
//!   cascades of lists, people and projects change what search finds at
//!   once; `GET /notes?q=` and `GET /documents?q=` read the same index;
//!   the index is rebuilt when it is removed or damaged.

use crate::common::Core;
pub(super) use crate::common::fixtures::escaped;
pub(super) use crate::common::search::{document, folder, list, make, note, person, project, task};

mod following;
mod matching;
mod ranking;

/// The titles of each group of `GET /search?{query}`, as (type, titles).
#[track_caller]
fn groups(s: &Core, query: &str) -> Vec<(String, Vec<String>)> {
    s.get(&format!("/search?{query}"))
        .expect(200)
        .data()
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            let titles = g["results"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r["title"].as_str().unwrap().to_owned())
                .collect();
            (g["type"].as_str().unwrap().to_owned(), titles)
        })
        .collect()
}

/// The titles `q` finds of `kind` (`person`, `task`, ...), best first.
#[track_caller]
fn found(s: &Core, kind: &str, q: &str) -> Vec<String> {
    let query = format!("q={}&types={kind}&limit=25", escaped(q));
    let all = groups(s, &query);
    assert_eq!(all.len(), 1, "{q}");
    all.into_iter().next().unwrap().1
}
