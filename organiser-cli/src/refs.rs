//! How commands name records: a task by its row number in the last listing,
//! by its full ID, or by an unambiguous prefix or suffix of its ID; a list
//! by its name (ignoring case) or the same ID forms.
//!
//! Row numbers are 1 to 3 digits. A prefix or suffix is first matched
//! against the last listing (what the person just saw); when nothing there
//! matches, against every task.

use std::path::PathBuf;

use organiser_core::{Id, Query};
use serde_json::Value;

use crate::backend::Backend;
use crate::error::CliError;

/// Where the last listing's IDs are kept between commands.
pub(crate) struct LastListing {
    path: PathBuf,
}

impl LastListing {
    /// Kept in the data directory's `cli/`; for a server named by
    /// `ORGANISER_URL`, in the user's cache directory under a name made
    /// from the address, so two servers' row numbers never mix.
    pub(crate) fn new(data_dir: PathBuf) -> Self {
        let remote = std::env::var("ORGANISER_URL")
            .ok()
            .filter(|u| !u.trim().is_empty());
        let path = match (remote, dirs::cache_dir()) {
            (Some(url), Some(cache)) => {
                let name: String = url
                    .trim()
                    .chars()
                    .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
                    .collect();
                cache
                    .join("organiser")
                    .join(format!("last-listing-{name}.json"))
            }
            _ => data_dir.join("cli").join("last-listing.json"),
        };
        LastListing { path }
    }

    pub(crate) fn save(&self, ids: &[String]) {
        // Best effort: a listing still prints when the state cannot be kept.
        if let Some(dir) = self.path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let _ = std::fs::write(&self.path, serde_json::json!({ "ids": ids }).to_string());
    }

    fn load(&self) -> Vec<String> {
        std::fs::read_to_string(&self.path)
            .ok()
            .and_then(|t| serde_json::from_str::<Value>(&t).ok())
            .and_then(|v| v["ids"].as_array().cloned())
            .map(|ids| {
                ids.iter()
                    .filter_map(|v| v.as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default()
    }
}

fn matches(id: &str, part: &str) -> bool {
    id.starts_with(part) || id.ends_with(part)
}

/// The ID of the task `reference` names.
pub(crate) fn task(
    backend: &Backend,
    last: &LastListing,
    reference: &str,
) -> Result<String, CliError> {
    let reference = reference.trim();
    let listed = last.load();
    if !reference.is_empty()
        && reference.len() <= 3
        && reference.bytes().all(|b| b.is_ascii_digit())
    {
        let row: usize = reference.parse().unwrap_or(0);
        return listed.get(row.wrapping_sub(1)).cloned().ok_or_else(|| {
            CliError::msg(format!(
                "there is no row {reference} in the last listing ({} rows); list the tasks again",
                listed.len()
            ))
        });
    }
    if let Some(id) = Id::parse(reference) {
        return Ok(id.to_string());
    }
    let part = reference.to_ascii_uppercase();
    if part.len() < 2 || !part.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return Err(CliError::msg(format!(
            "{reference:?} is not a row number, an ID, or part of one"
        )));
    }
    let seen: Vec<&String> = listed.iter().filter(|id| matches(id, &part)).collect();
    match seen.as_slice() {
        [one] => return Ok((*one).clone()),
        [] => {}
        many => return Err(ambiguous(reference, many.len())),
    }
    let mut found = Vec::new();
    every_page(backend, "/tasks", &[("order", "id")], |task| {
        if let Some(id) = task["id"].as_str().filter(|id| matches(id, &part)) {
            found.push(id.to_owned());
        }
    })?;
    match found.as_slice() {
        [one] => Ok(one.clone()),
        [] => Err(CliError::msg(format!(
            "no task's ID begins or ends with {reference}"
        ))),
        many => Err(ambiguous(reference, many.len())),
    }
}

fn ambiguous(reference: &str, n: usize) -> CliError {
    CliError::msg(format!(
        "{reference} matches {n} tasks; give more of the ID or a row number"
    ))
}

/// Every live list (all pages), in list order.
pub(crate) fn all_lists(backend: &Backend) -> Result<Vec<Value>, CliError> {
    let mut lists = Vec::new();
    every_page(backend, "/task_lists", &[], |list| lists.push(list.clone()))?;
    Ok(lists)
}

/// Calls `f` with every item of a listing, page after page (100 a page).
fn every_page(
    backend: &Backend,
    path: &str,
    query: &[(&str, &str)],
    mut f: impl FnMut(&Value),
) -> Result<(), CliError> {
    let mut cursor: Option<String> = None;
    loop {
        let mut pairs: Vec<(&str, String)> =
            query.iter().map(|(k, v)| (*k, (*v).to_owned())).collect();
        pairs.push(("limit", "100".to_owned()));
        if let Some(c) = &cursor {
            pairs.push(("cursor", c.clone()));
        }
        let page = backend.get(path, Query::from_pairs(pairs))?;
        page["data"]
            .as_array()
            .into_iter()
            .flatten()
            .for_each(&mut f);
        match page["meta"]["next_cursor"].as_str() {
            Some(next) => cursor = Some(next.to_owned()),
            None => return Ok(()),
        }
    }
}

/// The list `reference` names: its name ignoring case, or its ID (or an
/// unambiguous prefix or suffix of it).
pub(crate) fn list(backend: &Backend, reference: &str) -> Result<Value, CliError> {
    let lists = all_lists(backend)?;
    let wanted = reference.trim().to_lowercase();
    if let Some(list) = lists.iter().find(|l| {
        l["name"]
            .as_str()
            .is_some_and(|n| n.to_lowercase() == wanted)
    }) {
        return Ok(list.clone());
    }
    let part = reference.trim().to_ascii_uppercase();
    let by_id: Vec<&Value> = lists
        .iter()
        .filter(|l| part.len() >= 2 && l["id"].as_str().is_some_and(|id| matches(id, &part)))
        .collect();
    match by_id.as_slice() {
        [one] => Ok((*one).clone()),
        [] => Err(CliError::msg(format!(
            "there is no list named {reference:?} (see `organiser lists`)"
        ))),
        many => Err(CliError::msg(format!(
            "{reference} matches {} lists; give the name or more of the ID",
            many.len()
        ))),
    }
}
