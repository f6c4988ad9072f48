//! Every matching rule of document 1's "Search", one table over one small
//! world (`common::search`): what each query finds of each type, best
//! first. `tests/http/search.rs` runs the same table over HTTP.

use super::found;
use crate::common::search::{CASES, world};

#[test]
fn every_matching_rule_finds_what_the_spec_says() {
    let s = world();
    let mut wrong = Vec::new();
    for (kind, q, titles) in CASES {
        let got = found(&s, kind, q);
        if got != *titles {
            wrong.push(format!("{kind} {q:?}: {got:?}, wanted {titles:?}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn a_query_finds_every_type_it_names_in_one_answer() {
    let s = world();
    let groups = super::groups(&s, "q=kitchen");
    let titles: Vec<(&str, Vec<&str>)> = groups
        .iter()
        .map(|(k, t)| (k.as_str(), t.iter().map(String::as_str).collect()))
        .collect();
    assert_eq!(
        titles,
        [
            ("person", vec![]),
            ("project", vec!["Kitchen Renovation"]),
            ("note", vec!["Holiday plans"]),
            ("task", vec![]),
            ("document", vec![]),
            ("task_list", vec![]),
            ("folder", vec![]),
        ]
    );
}
