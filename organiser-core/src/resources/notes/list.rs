//! The listing of notes (`GET /notes`, summaries with their filters and
//! orders, and search by word prefixes), the live notes per category, and
//! the notes referencing a project.

use std::collections::HashSet;

use super::store::{load, notes_under};
use super::tables::{
    NOTES_BY_EDITED, NOTES_BY_NAME, NOTES_BY_PERSON, NOTES_BY_PROJECT, NOTES_BY_TAG,
    NOTES_BY_UPDATED, NOTES_LIVE, NOTES_OF_CATEGORY, NOTES_PINNED,
};
use super::{CategoryNoteCount, NoteRecord, NoteSummary, Q_MAX};
use crate::engine::Cx;
use crate::error::{Error, Result};
use crate::ids::Id;
use crate::list::{Direction, Filter, ListParams, Listing, Order, Page, Query};
use crate::store::key::tail_id;
use crate::store::{Dir, Tables};
use crate::text::{char_len, fold_search};

/// `GET /category_note_counts`: live notes per category, by category.
pub(crate) fn category_note_counts<T: Tables>(cx: &Cx<'_, T>) -> Result<Vec<CategoryNoteCount>> {
    let mut counts: Vec<CategoryNoteCount> = Vec::new();
    cx.scan_prefix(NOTES_OF_CATEGORY, &[], Dir::Asc, &mut |k, _| {
        let category = Id::from_bytes(k[..16].try_into().unwrap_or([0; 16]));
        match counts.last_mut() {
            Some(last) if last.category_id == category => last.note_count += 1,
            _ => counts.push(CategoryNoteCount {
                category_id: category,
                note_count: 1,
            }),
        }
        Ok(true)
    })?;
    Ok(counts)
}

/// The live notes referencing project `id` (the project's activity).
pub(crate) fn referencing<T: Tables>(cx: &Cx<'_, T>, project: Id) -> Result<Vec<NoteSummary>> {
    let mut notes = Vec::new();
    for id in notes_under(cx, NOTES_BY_PROJECT, project)? {
        if let Some(r) = load(cx, id)?
            && r.deleted_at.is_none()
            && r.note.project_ids.contains(&project)
        {
            notes.push(r.summary());
        }
    }
    Ok(notes)
}

/// `GET /notes` parameters.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NoteQuery {
    /// Words each of which begins a word of the note (title, text, names).
    pub q: Option<String>,
    /// Only this category's notes.
    pub category_id: Option<Id>,
    /// Only notes with this tag.
    pub tag_id: Option<Id>,
    /// Only notes mentioning this person.
    pub person_id: Option<Id>,
    /// Only notes referencing this project.
    pub project_id: Option<Id>,
    /// Only pinned (or unpinned) notes.
    pub pinned: Option<bool>,
    /// `edited_at` (default, newest first), `created_at`, `updated_at`,
    /// `name`, `id`; direction, updated_since, cursor, limit, count.
    pub params: ListParams,
}

impl NoteQuery {
    /// The query's parameters, as [`NoteQuery::parse`] reads them.
    pub(crate) fn query_pairs(&self) -> Vec<(&'static str, String)> {
        let mut pairs = self.params.query_pairs();
        if let Some(v) = &self.q {
            pairs.push(("q", v.clone()));
        }
        if let Some(id) = self.category_id {
            pairs.push(("category_id", id.to_string()));
        }
        if let Some(id) = self.tag_id {
            pairs.push(("tag_id", id.to_string()));
        }
        if let Some(id) = self.person_id {
            pairs.push(("person_id", id.to_string()));
        }
        if let Some(id) = self.project_id {
            pairs.push(("project_id", id.to_string()));
        }
        if let Some(v) = self.pinned {
            pairs.push(("pinned", v.to_string()));
        }
        pairs
    }

    pub(crate) fn parse(query: &Query) -> Result<NoteQuery> {
        let params = LISTING.params(query)?;
        let q = match query.get("q") {
            Some(q) if q.contains('\0') => {
                return Err(Error::bad_param("q", "can't contain a NUL character"));
            }
            Some(q) if char_len(q) > Q_MAX => {
                return Err(Error::bad_param(
                    "q",
                    format!("is too long (at most {Q_MAX} characters)"),
                ));
            }
            Some(q) => Some(q.to_owned()).filter(|q| !q.trim().is_empty()),
            None => None,
        };
        Ok(NoteQuery {
            q,
            category_id: query.id("category_id")?,
            tag_id: query.id("tag_id")?,
            person_id: query.id("person_id")?,
            project_id: query.id("project_id")?,
            pinned: query.bool("pinned")?,
            params,
        })
    }

    /// Names the filters in cursors.
    fn scope(&self) -> String {
        format!(
            "q={:?}|c={:?}|t={:?}|pe={:?}|pr={:?}|pin={:?}",
            self.q.as_deref().map(fold_search),
            self.category_id,
            self.tag_id,
            self.person_id,
            self.project_id,
            self.pinned
        )
    }

    fn filters(&self) -> bool {
        self.q.is_some()
            || self.category_id.is_some()
            || self.tag_id.is_some()
            || self.person_id.is_some()
            || self.project_id.is_some()
            || self.pinned.is_some()
    }
}

const UPDATED: Order = Order {
    name: "updated_at",
    index: NOTES_BY_UPDATED,
    direction: Direction::Asc,
};

/// `GET /notes`: live notes, last edited first by default.
static LISTING: Listing = Listing {
    name: "notes",
    orders: &[
        Order {
            name: "edited_at",
            index: NOTES_BY_EDITED,
            direction: Direction::Desc,
        },
        Order {
            name: "created_at",
            index: NOTES_LIVE,
            direction: Direction::Asc,
        },
        UPDATED,
        Order {
            name: "name",
            index: NOTES_BY_NAME,
            direction: Direction::Asc,
        },
        Order {
            name: "id",
            index: NOTES_LIVE,
            direction: Direction::Asc,
        },
    ],
    updated: Some(&UPDATED),
    every: NOTES_LIVE,
};

/// The notes every filter of `q` that an index answers keeps (the
/// category's, tag's, person's and project's, and `pinned=true`); `None`
/// when none is sent.
fn candidates<T: Tables>(cx: &Cx<'_, T>, q: &NoteQuery) -> Result<Option<HashSet<Id>>> {
    let by = |table, id: Option<Id>| -> Result<Option<HashSet<Id>>> {
        id.map(|id| Ok(notes_under(cx, table, id)?.into_iter().collect()))
            .transpose()
    };
    let mut sets: Vec<HashSet<Id>> = Vec::new();
    sets.extend(by(NOTES_OF_CATEGORY, q.category_id)?);
    sets.extend(by(NOTES_BY_TAG, q.tag_id)?);
    sets.extend(by(NOTES_BY_PERSON, q.person_id)?);
    sets.extend(by(NOTES_BY_PROJECT, q.project_id)?);
    if q.pinned == Some(true) {
        sets.push(cx.ids_under(NOTES_PINNED, &[])?.into_iter().collect());
    }
    sets.sort_by_key(HashSet::len);
    let mut sets = sets.into_iter();
    let Some(mut kept) = sets.next() else {
        return Ok(None);
    };
    for set in sets {
        kept.retain(|id| set.contains(id));
    }
    Ok(Some(kept))
}

/// `GET /notes`. Filters come from their indexes as sets of notes, and
/// `q` from the search index (each walked note checked against its words
/// when the words are common, so a page costs what the page costs); the
/// order's index is walked keeping those, and a note is loaded only when
/// it is kept (or a filter needs its record: a mention or reference of a
/// deleted record; `pinned` is read from its own index of the pinned
/// notes). `total_count` counts the kept keys.
pub(crate) fn list<T: Tables>(cx: &Cx<'_, T>, q: &NoteQuery) -> Result<Page<NoteSummary>> {
    let kept = candidates(cx, q)?;
    let mut words = match &q.q {
        Some(text) => {
            crate::search_index::lookup::Prefixed::new(cx, crate::search_index::Kind::Note, text)?
        }
        None => None,
    };
    if q.params.count
        && let Some(words) = &mut words
    {
        words.find_all(cx)?;
    }
    // Unpinned: every note but the (few) pinned ones, read from their index.
    let pinned: HashSet<Id> = match q.pinned {
        Some(false) => cx.ids_under(NOTES_PINNED, &[])?.into_iter().collect(),
        _ => HashSet::new(),
    };
    let by_record = q.person_id.is_some() || q.project_id.is_some();
    let keeps = |r: &NoteRecord| {
        r.deleted_at.is_none()
            && q.pinned.is_none_or(|p| r.note.pinned == p)
            && q.person_id.is_none_or(|p| r.note.person_ids.contains(&p))
            && q.project_id.is_none_or(|p| r.note.project_ids.contains(&p))
    };
    let keep = |k: &[u8]| -> Result<bool> {
        let id = tail_id(k);
        if kept.as_ref().is_some_and(|set| !set.contains(&id)) || pinned.contains(&id) {
            return Ok(false);
        }
        if let Some(words) = &mut words
            && !words.holds(cx, id)?
        {
            return Ok(false);
        }
        match by_record {
            true => Ok(load(cx, id)?.is_some_and(|r| keeps(&r))),
            false => Ok(true),
        }
    };
    let load = |k: &[u8]| Ok(load(cx, tail_id(k))?.filter(keeps).map(|r| r.summary()));
    let filter = if q.filters() {
        Filter::default().skipping(&q.scope())
    } else {
        Filter::default()
    };
    LISTING.page_keeping(&cx.tx, &cx.org.secret, &q.params, &filter, keep, load)
}
