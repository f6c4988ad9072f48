//! `GET /search` (document 1, "Search" and "Search group"; DESIGN.md
//! "Defaults"; docs/api.md "Search"): the best matches of each requested
//! type, one group a type in the spec's order. The matching and the index
//! are `crate::search_index`; what each type is found by and how it is shown is
//! [`sources`]. This module also keeps the index in step: every write to
//! a record table is followed, before its transaction commits, by the
//! documents of the records it touched ([`follow`]), and an index that is
//! missing or damaged is rebuilt from the records when the store opens
//! ([`rebuild`]).

mod sources;

use serde::{Deserialize, Serialize};

use crate::engine::op::ReadOp;
use crate::engine::operation::{Answer, Declared, Door, Operation, Run, query_part};
use crate::engine::request::Method::Get;
use crate::engine::{Organiser, ReadCx, WriteCx};
use crate::error::{Details, Result};
use crate::ids::Id;
use crate::limits::{SEARCH_DEFAULT_LIMIT, SEARCH_MAX_LIMIT, SEARCH_Q_MAX_CHARS};
use crate::list::Query;
use crate::search_index::index::{self, Writer};
use crate::search_index::lexicon::Lexicon;
use crate::search_index::lookup;
use crate::store::Tables;
use crate::text::char_len;

pub use crate::config::SearchPlan;
pub use crate::search_index::Kind as SearchType;
pub(crate) use sources::WATCHED;

/// One group of `GET /search`: the best matches of one type.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SearchGroup {
    /// The type of the group's records.
    #[serde(rename = "type")]
    pub kind: SearchType,
    /// Best first.
    pub results: Vec<SearchResult>,
    /// Whether more records of the type match.
    pub has_more: bool,
}

/// One match.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SearchResult {
    /// The record's ID.
    pub id: Id,
    /// Its name or title.
    pub title: String,
    /// What tells it from others of the same name.
    pub subtitle: String,
    /// What is shown before it.
    pub leading: Leading,
}

/// What a result shows before its title: `avatar` (a person's photo),
/// `thumbnail` (a document's first page) or `icon` (`icon:NAME`, a
/// kebab-case icon name).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Leading {
    /// What the image is.
    #[serde(rename = "type")]
    pub kind: LeadingKind,
    /// The image's address, or `icon:NAME`.
    pub url: String,
}

/// What a result's leading image is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LeadingKind {
    /// A person's photo.
    Avatar,
    /// A document's first page.
    Thumbnail,
    /// An icon, named in the address (`icon:NAME`).
    Icon,
}

/// `GET /search` parameters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchQuery {
    /// The query; blank finds nothing.
    pub q: String,
    /// The types asked for (all by default), in the groups' order.
    pub types: Vec<SearchType>,
    /// Results per type: 5 by default, at most 25.
    pub limit: usize,
}

impl Default for SearchQuery {
    fn default() -> Self {
        SearchQuery {
            q: String::new(),
            types: SearchType::ALL.to_vec(),
            limit: SEARCH_DEFAULT_LIMIT,
        }
    }
}

impl SearchQuery {
    /// The query's parameters, as [`SearchQuery::parse`] reads them.
    pub(crate) fn query_pairs(&self) -> Vec<(&'static str, String)> {
        let mut pairs = vec![("q", self.q.clone())];
        if self.types.len() < SearchType::ALL.len() {
            let names: Vec<&str> = self.types.iter().map(|t| t.name()).collect();
            pairs.push(("types", names.join(",")));
        }
        pairs.push(("limit", self.limit.to_string()));
        pairs
    }

    /// A query for `q` across every type.
    pub fn new(q: impl Into<String>) -> SearchQuery {
        SearchQuery {
            q: q.into(),
            ..SearchQuery::default()
        }
    }

    pub(crate) fn parse(query: &Query) -> Result<SearchQuery> {
        let mut details = Details::new();
        let q = query.get("q").unwrap_or_default();
        if q.contains('\0') {
            details.add("q", "can't contain a NUL character");
        }
        if char_len(q) > SEARCH_Q_MAX_CHARS {
            details.add(
                "q",
                format!("is too long (at most {SEARCH_Q_MAX_CHARS} characters)"),
            );
        }
        let mut types = SearchType::ALL.to_vec();
        if let Some(asked) = query.get("types") {
            let named: Option<Vec<SearchType>> = asked
                .split(',')
                .map(|t| SearchType::named(t.trim()))
                .collect();
            match named {
                Some(named) => types.retain(|t| named.contains(t)),
                None => details.add(
                    "types",
                    "must be a comma-separated list of person, project, note, task, document, task_list and folder",
                ),
            }
        }
        let mut limit = SEARCH_DEFAULT_LIMIT;
        if let Some(asked) = query.get("limit") {
            match asked.parse::<u64>() {
                Ok(0) => details.add("limit", "must be at least 1"),
                Ok(n) => limit = n.min(SEARCH_MAX_LIMIT as u64) as usize,
                // A whole number too large for u64 is still "more than 25".
                Err(_) if !asked.is_empty() && asked.bytes().all(|b| b.is_ascii_digit()) => {
                    limit = SEARCH_MAX_LIMIT;
                }
                Err(_) => details.add("limit", "must be a whole number"),
            }
        }
        details.into_invalid_parameter()?;
        Ok(SearchQuery {
            q: q.to_owned(),
            types,
            limit,
        })
    }
}

query_part!(SearchQuery);

/// `GET /search`. Expired tasks are archived first.
pub(crate) static SEARCH: Operation<SearchQuery, Vec<SearchGroup>> = Operation::new(
    "search",
    Get,
    "/search",
    "Search\n\nSearches people, projects, notes, tasks, documents, task lists and folders; one group per requested type in the order person, project, note, task, document, task_list, folder, empty ones included. Case and accents do not matter; words match whole, by their beginning, and (names of people, projects, tasks and documents, words of 4 letters or more) misspelt. Expired tasks are archived first. See docs/api.md \"Search\".",
    Run::Read(ReadOp::SETTLED, |cx, query| search(cx, &query)),
    // Addresses (photos, thumbnails) are absolute in answers.
    Answer::data(200).absolute(|mut groups, base| {
        for result in groups.iter_mut().flat_map(|g| g.results.iter_mut()) {
            if result.leading.url.starts_with('/') {
                result.leading.url =
                    format!("{}{}", base.trim_end_matches('/'), result.leading.url);
            }
        }
        groups
    }),
);

/// Search's operation, for the registry.
pub(crate) static OPERATIONS: &[&dyn Declared] = &[&SEARCH];

/// Search (document 1, "Search"), through a [`Door`]: the store itself
/// (`org.search()`), or a server that holds it.
#[derive(Debug, Clone, Copy)]
pub struct Search<'d, D = Organiser> {
    door: &'d D,
}

impl<'d, D: Door> Search<'d, D> {
    /// Search over the store behind `door`.
    pub fn new(door: &'d D) -> Self {
        Search { door }
    }

    /// One group per type `query` names, in the types' order, each with
    /// its best results first; words match whole, by their beginning and
    /// (some) misspelt, whatever their case and accents. Addresses
    /// (photos, thumbnails) are relative to the API's base.
    ///
    /// # Errors
    ///
    /// Only the store's (the query is checked by [`SearchQuery`]'s
    /// reading).
    pub fn find(&self, query: &SearchQuery) -> Result<Vec<SearchGroup>> {
        self.door.call(&SEARCH, query.clone())
    }
}

impl Organiser {
    /// Search over the store.
    pub fn search(&self) -> Search<'_> {
        Search::new(self)
    }
}

/// The groups of `query`.
fn search(cx: &ReadCx<'_>, query: &SearchQuery) -> Result<Vec<SearchGroup>> {
    let blank = query.q.trim().is_empty();
    let parsed = if blank {
        lookup::Query::default()
    } else {
        let lexicon = Lexicon::read(cx, index::state(&cx.tx)?.stamp)?;
        lookup::Query::new(&query.q, &lexicon)
    };
    let mut groups = Vec::with_capacity(query.types.len());
    for &kind in &query.types {
        let (ids, has_more) = lookup::best(cx, kind, &parsed, query.limit)?;
        let source = sources::source(kind);
        let mut results = Vec::with_capacity(ids.len());
        for id in ids {
            // The index follows every write; a record it names that is
            // not live would be damage, and is left out.
            if let Some(result) = (source.result)(cx, id)? {
                results.push(result);
            }
        }
        groups.push(SearchGroup {
            kind,
            results,
            has_more,
        });
    }
    Ok(groups)
}

/// Brings the index in step with the records this transaction wrote (run
/// by the engine before every commit).
pub(crate) fn follow(cx: &mut WriteCx<'_>, touched: &[(usize, Vec<u8>)]) -> Result<()> {
    if touched.is_empty() {
        return Ok(());
    }
    let mut writer = Writer::open(cx)?;
    for (table, key) in touched {
        let (Some(source), Ok(bytes)) = (
            sources::SOURCES.get(*table),
            <[u8; 16]>::try_from(key.as_slice()),
        ) else {
            continue;
        };
        let id = Id::from_bytes(bytes);
        let doc = (source.doc)(cx, id)?;
        writer.set(source.kind, id, doc.as_ref())?;
    }
    writer.finish()
}

/// The place of table `t` among the watched tables, whose touched keys
/// the engine hands to [`follow`].
pub(crate) fn watched_index(t: crate::store::Tbl) -> Option<usize> {
    use redb::TableHandle;
    WATCHED.iter().position(|w| w.name() == t.name())
}

/// Builds the index again from every live record.
pub(crate) fn rebuild(cx: &mut WriteCx<'_>) -> Result<()> {
    // What the transaction wrote before is in the new index already.
    cx.tx.take_touched();
    let mut writer = Writer::rebuild(cx)?;
    for source in &sources::SOURCES {
        let mut ids = Vec::new();
        cx.scan_prefix(source.table, &[], crate::store::Dir::Asc, &mut |k, _| {
            if let Ok(bytes) = <[u8; 16]>::try_from(k) {
                ids.push(Id::from_bytes(bytes));
            }
            Ok(true)
        })?;
        for id in ids {
            if let Some(doc) = (source.doc)(cx, id)? {
                writer.set(source.kind, id, Some(&doc))?;
            }
        }
    }
    writer.finish()
}
