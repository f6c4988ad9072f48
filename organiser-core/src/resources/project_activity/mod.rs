//! `GET /projects/{id}/activity` (document 2, "Activity entry" and Projects
//! rule 6; DESIGN.md's `{kind: "created", at, project}`): one feed, newest
//! first, keyset-paged. Each source yields its entries in feed order after
//! the cursor's position; the feed merges them. Entries at the same time
//! go events, tasks, documents, notes, then the creation; within a kind,
//! newest ID first. A new source (notes, documents) is one more
//! `*_after` function and one line in [`activity`].

mod api;

pub(crate) use api::OPERATIONS;
pub use api::ProjectActivity;

use std::cmp::{Ordering, Reverse};

use jiff::Timestamp;
use serde::{Deserialize, Serialize};

use crate::engine::Cx;
use crate::error::Result;
use crate::ids::Id;
use crate::list::{Cursor, ListParams, Page, Query};
use crate::resources::documents::{self, Document};
use crate::resources::notes::{self, NoteSummary};
use crate::resources::projects::events::{self, ProjectEvent};
use crate::resources::projects::{self, Project};
use crate::resources::tasks::{self, Home, Task};
use crate::store::Tables;
use crate::store::key::{Key, Reader};

/// One entry of a project's activity.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ActivityEntry {
    /// A status, deadline or member change.
    Event {
        /// When it happened.
        #[serde(with = "crate::time::serde_timestamp")]
        at: Timestamp,
        /// The event.
        event: ProjectEvent,
    },
    /// A completed task homed in the project.
    Task {
        /// When it was completed.
        #[serde(with = "crate::time::serde_timestamp")]
        at: Timestamp,
        /// The task.
        task: Box<Task>,
    },
    /// A live document linked to the project.
    Document {
        /// When the link was made.
        #[serde(with = "crate::time::serde_timestamp")]
        at: Timestamp,
        /// The document.
        document: Box<Document>,
    },
    /// A live note referencing the project.
    Note {
        /// When the note was made.
        #[serde(with = "crate::time::serde_timestamp")]
        at: Timestamp,
        /// The note.
        note: Box<NoteSummary>,
    },
    /// The project's creation, the feed's last entry.
    Created {
        /// When the project was made.
        #[serde(with = "crate::time::serde_timestamp")]
        at: Timestamp,
        /// The project.
        project: Box<Project>,
    },
}

/// Where an entry stands in the feed: newest first, then by kind, then
/// newest ID first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Pos {
    at: Timestamp,
    rank: u8,
    id: Id,
}

impl Ord for Pos {
    fn cmp(&self, other: &Self) -> Ordering {
        (Reverse(self.at), self.rank, Reverse(self.id)).cmp(&(
            Reverse(other.at),
            other.rank,
            Reverse(other.id),
        ))
    }
}

impl PartialOrd for Pos {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Pos {
    fn encode(self) -> Vec<u8> {
        Key::new()
            .timestamp(self.at)
            .tag(self.rank)
            .id(self.id)
            .into_vec()
    }

    fn decode(bytes: &[u8]) -> Option<Pos> {
        if bytes.len() != 8 + 1 + 16 {
            return None;
        }
        let mut r = Reader::new(bytes);
        let at = Timestamp::from_millisecond(r.i64()).ok()?;
        Some(Pos {
            at,
            rank: r.tag(),
            id: r.id(),
        })
    }
}

/// The ranks of the kinds at the same time.
const EVENT: u8 = 0;
const TASK: u8 = 1;
const DOCUMENT: u8 = 2;
const NOTE: u8 = 3;
const CREATED: u8 = 4;

/// `GET /projects/{id}/activity` parameters: `cursor` and `limit`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActivityQuery {
    /// The `next_cursor` of the previous page.
    pub cursor: Option<String>,
    /// Entries per page (1 to 100, default 50).
    pub limit: usize,
}

impl Default for ActivityQuery {
    /// The first page of 50.
    fn default() -> Self {
        let params = ListParams::default();
        ActivityQuery {
            cursor: None,
            limit: params.limit,
        }
    }
}

impl ActivityQuery {
    /// The query's parameters, as [`ActivityQuery::parse`] reads them.
    pub(crate) fn query_pairs(&self) -> Vec<(&'static str, String)> {
        let mut pairs = vec![("limit", self.limit.to_string())];
        if let Some(cursor) = &self.cursor {
            pairs.push(("cursor", cursor.clone()));
        }
        pairs
    }

    pub(crate) fn parse(query: &Query) -> Result<ActivityQuery> {
        let params = ListParams::parse(query, &[])?;
        Ok(ActivityQuery {
            cursor: params.cursor,
            limit: params.limit,
        })
    }
}

fn events_after<T: Tables>(
    cx: &Cx<'_, T>,
    project: &Project,
    after: Option<Pos>,
    n: usize,
) -> Result<Vec<(Pos, ActivityEntry)>> {
    // Events are keyed by ID, and IDs follow creation: resume below the
    // cursor's event, or walk down past the newer ones.
    let before = after.filter(|p| p.rank == EVENT).map(|p| p.id);
    let mut found = Vec::new();
    let mut skipped_to = before;
    loop {
        let batch = events::newest(cx, project.id, skipped_to, n.max(16))?;
        let done = batch.len() < n.max(16);
        for event in batch {
            skipped_to = Some(event.id);
            let pos = Pos {
                at: event.created_at,
                rank: EVENT,
                id: event.id,
            };
            if after.is_none_or(|a| pos > a) {
                found.push((
                    pos,
                    ActivityEntry::Event {
                        at: event.created_at,
                        event,
                    },
                ));
            }
        }
        if done || found.len() >= n {
            break;
        }
    }
    found.sort_by_key(|(p, _)| *p);
    found.truncate(n);
    Ok(found)
}

fn tasks_after<T: Tables>(
    cx: &Cx<'_, T>,
    project: &Project,
    after: Option<Pos>,
    n: usize,
) -> Result<Vec<(Pos, ActivityEntry)>> {
    let mut done: Vec<Pos> = tasks::completed_in(cx, Home::Project(project.id))?
        .into_iter()
        .map(|(at, id)| Pos { at, rank: TASK, id })
        .filter(|p| after.is_none_or(|a| *p > a))
        .collect();
    done.sort();
    done.truncate(n);
    done.into_iter()
        .map(|pos| {
            let task = tasks::get(cx, pos.id)?;
            Ok((
                pos,
                ActivityEntry::Task {
                    at: pos.at,
                    task: Box::new(task),
                },
            ))
        })
        .collect()
}

fn documents_after<T: Tables>(
    cx: &Cx<'_, T>,
    project: &Project,
    after: Option<Pos>,
    n: usize,
) -> Result<Vec<(Pos, ActivityEntry)>> {
    let mut found: Vec<(Pos, ActivityEntry)> =
        documents::links::documents_linked(cx, documents::links::Target::Project, project.id)?
            .into_iter()
            .map(|(at, link, document)| {
                let pos = Pos {
                    at,
                    rank: DOCUMENT,
                    id: link,
                };
                let entry = ActivityEntry::Document {
                    at,
                    document: Box::new(document),
                };
                (pos, entry)
            })
            .filter(|(p, _)| after.is_none_or(|a| *p > a))
            .collect();
    found.sort_by_key(|(p, _)| *p);
    found.truncate(n);
    Ok(found)
}

fn notes_after<T: Tables>(
    cx: &Cx<'_, T>,
    project: &Project,
    after: Option<Pos>,
    n: usize,
) -> Result<Vec<(Pos, ActivityEntry)>> {
    let mut found: Vec<(Pos, ActivityEntry)> = notes::referencing(cx, project.id)?
        .into_iter()
        .map(|note| {
            let pos = Pos {
                at: note.created_at,
                rank: NOTE,
                id: note.id,
            };
            let entry = ActivityEntry::Note {
                at: note.created_at,
                note: Box::new(note),
            };
            (pos, entry)
        })
        .filter(|(p, _)| after.is_none_or(|a| *p > a))
        .collect();
    found.sort_by_key(|(p, _)| *p);
    found.truncate(n);
    Ok(found)
}

fn created_after(project: &Project, after: Option<Pos>) -> Vec<(Pos, ActivityEntry)> {
    let pos = Pos {
        at: project.created_at,
        rank: CREATED,
        id: project.id,
    };
    if after.is_some_and(|a| pos <= a) {
        return Vec::new();
    }
    vec![(
        pos,
        ActivityEntry::Created {
            at: project.created_at,
            project: Box::new(project.clone()),
        },
    )]
}

/// One page of the activity of live project `id`.
pub(crate) fn activity<T: Tables>(
    cx: &Cx<'_, T>,
    id: Id,
    q: &ActivityQuery,
) -> Result<Page<ActivityEntry>> {
    let project = projects::load_live(cx, id)?;
    let cursor = Cursor::new(&cx.org.secret, format!("activity|{id}"));
    let after = match &q.cursor {
        Some(c) => Some(Pos::decode(&cursor.decode(c)?).ok_or_else(|| {
            crate::error::Error::bad_param("cursor", "is not a cursor from this list")
        })?),
        None => None,
    };
    // A typed caller's limit is held to the API's 1 to 100.
    let limit = q.limit.clamp(1, crate::limits::MAX_PAGE_SIZE);
    let n = limit + 1;
    let mut entries = events_after(cx, &project, after, n)?;
    entries.extend(tasks_after(cx, &project, after, n)?);
    entries.extend(documents_after(cx, &project, after, n)?);
    entries.extend(notes_after(cx, &project, after, n)?);
    entries.extend(created_after(&project, after));
    entries.sort_by_key(|(p, _)| *p);
    let more = entries.len() > limit;
    entries.truncate(limit);
    let next_cursor = match (more, entries.last()) {
        (true, Some((pos, _))) => Some(cursor.encode(&pos.encode())),
        _ => None,
    };
    Ok(Page {
        items: entries.into_iter().map(|(_, e)| e).collect(),
        next_cursor,
        limit,
        total_count: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Organiser;

    /// `ActivityQuery::default()` is the first page of 50.
    #[test]
    fn the_default_activity_query_is_the_first_page() {
        let org = Organiser::in_memory();
        let project = org
            .projects()
            .create(crate::ProjectInput {
                name: Some("A".into()),
                ..crate::ProjectInput::default()
            })
            .unwrap();
        let page = org
            .project_activity()
            .list(project.id, &ActivityQuery::default())
            .unwrap();
        assert_eq!(page.limit, 50);
        assert!(matches!(page.items[..], [ActivityEntry::Created { .. }]));
    }
}
