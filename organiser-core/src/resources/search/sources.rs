//! What each type is found by, where it ranks, and how it is shown
//! (document 1, "Search": the matching rules, one function a type; the
//! rest of the rule is in `crate::search_index`). A record that is not live
//! (deleted, or taken by its home's delete) has no document and is
//! never found.
//!
//! | type | found by | own order |
//! |---|---|---|
//! | person | name (misspellings too), email, phone digits, profile link | name |
//! | project | name (misspellings too), external reference | open first, then name |
//! | note | title and text (which hold tag, people and project names) | last edited first |
//! | task | title (misspellings too) | open first (newest first), then most recently closed |
//! | document | name (misspellings too) | name |
//! | task list | name | the lists' own order (position) |
//! | folder | name | name |

use jiff::Timestamp;

use super::{Leading, LeadingKind, SearchResult};
use crate::engine::{Cx, ReadCx, WriteCx};
use crate::error::{Error, Result};
use crate::ids::Id;
use crate::resources::vocabulary::{DEFAULT_LIST_ICON, PROJECT_STATUSES};
use crate::resources::{
    Document, Folder, Note, Person, Project, Task, TaskList, TaskStatus, documents, folders, notes,
    people, projects, task_lists, tasks,
};
use crate::search_index::{Doc, DocBuilder, Kind, class};
use crate::store::key::Key;
use crate::store::{Tables, Tbl};
use crate::text::fold_search;

/// One type's part in search.
pub(crate) struct Source {
    /// The type.
    pub(crate) kind: Kind,
    /// Its records' table: a write to it re-reads the record's document.
    pub(crate) table: Tbl,
    /// The document of a record; `None` when it is not live.
    pub(crate) doc: fn(&WriteCx<'_>, Id) -> Result<Option<Doc>>,
    /// A found record as a result (addresses relative to the API's base);
    /// `None` when it is not live.
    pub(crate) result: fn(&ReadCx<'_>, Id) -> Result<Option<SearchResult>>,
}

/// Every type's source, in the order of the groups (and of
/// [`WATCHED`]).
pub(crate) static SOURCES: [Source; 7] = [
    Source {
        kind: Kind::Person,
        table: people::tables::PEOPLE,
        doc: |cx, id| live(people::get(cx, id)).map(|p| p.map(|p| person_doc(&p))),
        result: |cx, id| live(people::get(cx, id)).map(|p| p.map(|p| person_result(&p))),
    },
    Source {
        kind: Kind::Project,
        table: projects::tables::PROJECTS,
        doc: |cx, id| live(projects::get(cx, id)).map(|p| p.map(|p| project_doc(&p))),
        result: |cx, id| live(projects::get(cx, id)).map(|p| p.map(|p| project_result(&p))),
    },
    Source {
        kind: Kind::Note,
        table: notes::tables::NOTES,
        doc: |cx, id| live(notes::get(cx, id)).map(|n| n.map(|n| note_doc(&n))),
        result: |cx, id| live(notes::get(cx, id)).map(|n| n.map(|n| note_result(cx, &n))),
    },
    Source {
        kind: Kind::Task,
        table: tasks::tables::TASKS,
        doc: |cx, id| live(tasks::get(cx, id)).map(|t| t.map(|t| task_doc(&t))),
        result: |cx, id| match live(tasks::get(cx, id))? {
            Some(t) => task_result(cx, &t).map(Some),
            None => Ok(None),
        },
    },
    Source {
        kind: Kind::Document,
        table: documents::tables::DOCUMENTS,
        doc: |cx, id| live(documents::get(cx, id)).map(|d| d.map(|d| document_doc(&d))),
        result: |cx, id| match live(documents::get(cx, id))? {
            Some(d) => document_result(cx, &d).map(Some),
            None => Ok(None),
        },
    },
    Source {
        kind: Kind::TaskList,
        table: task_lists::tables::TASK_LISTS,
        doc: |cx, id| live(task_lists::get(cx, id)).map(|l| l.map(|l| list_doc(&l))),
        result: |cx, id| live(task_lists::get(cx, id)).map(|l| l.map(|l| list_result(&l))),
    },
    Source {
        kind: Kind::Folder,
        table: folders::tables::FOLDERS,
        doc: |cx, id| live(folders::get(cx, id)).map(|f| f.map(|f| folder_doc(&f))),
        result: |cx, id| match live(folders::get(cx, id))? {
            Some(f) => folder_result(cx, &f).map(Some),
            None => Ok(None),
        },
    },
];

/// The records' tables, in the order of [`SOURCES`]: the engine notes
/// every write to them, and the index follows before the commit.
pub(crate) static WATCHED: [Tbl; 7] = [
    people::tables::PEOPLE,
    projects::tables::PROJECTS,
    notes::tables::NOTES,
    tasks::tables::TASKS,
    documents::tables::DOCUMENTS,
    task_lists::tables::TASK_LISTS,
    folders::tables::FOLDERS,
];

/// The source of `kind`.
pub(crate) fn source(kind: Kind) -> &'static Source {
    &SOURCES[Kind::ALL.iter().position(|k| *k == kind).unwrap_or(0)]
}

/// A record read by a resource's `get`: `None` when it is not live.
fn live<T>(got: Result<T>) -> Result<Option<T>> {
    match got {
        Ok(found) => Ok(Some(found)),
        Err(Error::NotFound) => Ok(None),
        Err(e) => Err(e),
    }
}

/// A name's place in a type ordered by name (ignoring case and accents).
fn by_name(name: &str) -> Key {
    Key::new().str(&fold_search(name))
}

/// Newest first.
fn newest_first(at: Timestamp) -> Key {
    Key::new().i64(-at.as_millisecond())
}

fn icon(name: &str) -> Leading {
    Leading {
        kind: LeadingKind::Icon,
        url: format!("icon:{name}"),
    }
}

fn person_doc(p: &Person) -> Doc {
    let mut doc = DocBuilder::new(by_name(&p.name)).text(&p.name, class::NAME);
    for e in &p.email_addresses {
        doc = doc.text(&e.address, class::WORD);
    }
    for n in &p.phone_numbers {
        doc = doc.phone(&n.number);
    }
    for s in &p.social_profiles {
        doc = doc.link(&s.url);
    }
    doc.build()
}

fn person_result(p: &Person) -> SearchResult {
    let subtitle = p
        .email_addresses
        .first()
        .map(|e| e.address.clone())
        .or_else(|| p.phone_numbers.first().map(|n| n.number.clone()))
        .or_else(|| p.positions.iter().find_map(|pos| pos.title.clone()))
        .unwrap_or_else(|| "Person".into());
    SearchResult {
        id: p.id,
        title: p.name.clone(),
        subtitle,
        leading: match &p.avatar {
            Some(a) => Leading {
                kind: LeadingKind::Avatar,
                url: a.thumb_url.clone(),
            },
            None => icon("user"),
        },
    }
}

fn project_doc(p: &Project) -> Doc {
    let closed = u8::from(!p.status.is_open());
    let mut doc = DocBuilder::new(Key::new().tag(closed).str(&fold_search(&p.name)))
        .text(&p.name, class::NAME);
    if let Some(r) = &p.external_reference {
        doc = doc.text(r, class::WORD);
    }
    doc.build()
}

fn project_result(p: &Project) -> SearchResult {
    let status = PROJECT_STATUSES.iter().find(|s| s.key == p.status.key());
    let mut subtitle = status.map_or(p.status.key(), |s| s.label).to_owned();
    if let Some(d) = p.deadline {
        subtitle.push_str(&format!(" · due {d}"));
    }
    if let Some(r) = &p.external_reference {
        subtitle.push_str(&format!(" · {r}"));
    }
    SearchResult {
        id: p.id,
        title: p.name.clone(),
        subtitle,
        leading: icon(status.map_or("folder-kanban", |s| s.icon)),
    }
}

fn note_doc(n: &Note) -> Doc {
    DocBuilder::new(newest_first(n.edited_at))
        .text(n.title.as_deref().unwrap_or(""), class::WORD)
        .text(&n.body_text, class::WORD)
        .build()
}

/// The note's opening words (what its name, when it has no title, is made
/// from), else when it was last edited.
fn note_result<T: Tables>(cx: &Cx<'_, T>, n: &Note) -> SearchResult {
    const SNIPPET: usize = 100;
    let text = crate::text::squish(&n.body_text);
    let subtitle = if n.title.is_some() && !text.is_empty() {
        let mut s: String = text.chars().take(SNIPPET).collect();
        if text.chars().count() > SNIPPET {
            s.push('…');
        }
        s
    } else {
        format!("Edited {}", cx.zone().today(n.edited_at))
    };
    SearchResult {
        id: n.id,
        title: n.name.clone(),
        subtitle,
        leading: icon(if n.pinned { "pin" } else { "notebook-text" }),
    }
}

fn task_doc(t: &Task) -> Doc {
    let order = match t.status {
        // Newest first: IDs sort by creation, so their bits inverted sort
        // the other way (ties within a millisecond included).
        TaskStatus::Open => Key::new().tag(0).bytes(&t.id.to_bytes().map(|b| !b)),
        _ => {
            let closed = t.completed_at.or(t.archived_at).unwrap_or(t.updated_at);
            Key::new().tag(1).i64(-closed.as_millisecond())
        }
    };
    DocBuilder::new(order).text(&t.title, class::NAME).build()
}

/// Where the task lives, and its deadline or how it closed.
fn task_result<T: Tables>(cx: &Cx<'_, T>, t: &Task) -> Result<SearchResult> {
    let home = if let Some(l) = t.task_list_id {
        live(task_lists::get(cx, l))?.map(|l| l.name)
    } else if let Some(p) = t.project_id {
        projects::lookup(cx, p)?.map(|(name, _)| name)
    } else if let Some(p) = t.person_id {
        people::lookup(cx, p)?.map(|(name, _)| name)
    } else {
        Some("Inbox".to_owned())
    };
    let mut subtitle = home.unwrap_or_default();
    let zone = cx.zone();
    let state = match t.status {
        TaskStatus::Open => t.deadline_on.map(|d| format!("due {d}")),
        TaskStatus::Completed => t
            .completed_at
            .map(|at| format!("completed {}", zone.today(at))),
        TaskStatus::WontDo => Some("won't do".into()),
        TaskStatus::Archived if t.expired => Some("expired".into()),
        TaskStatus::Archived => Some("archived".into()),
    };
    if let Some(state) = state {
        if !subtitle.is_empty() {
            subtitle.push_str(" · ");
        }
        subtitle.push_str(&state);
    }
    let leading = match t.status {
        TaskStatus::Open => "circle",
        TaskStatus::Completed => "circle-check",
        TaskStatus::WontDo => "circle-slash",
        TaskStatus::Archived if t.expired => "hourglass",
        TaskStatus::Archived => "archive",
    };
    Ok(SearchResult {
        id: t.id,
        title: t.title.clone(),
        subtitle,
        leading: icon(leading),
    })
}

fn document_doc(d: &Document) -> Doc {
    DocBuilder::new(by_name(&d.name))
        .text(&d.name, class::NAME)
        .build()
}

/// Its folder and its size.
fn document_result<T: Tables>(cx: &Cx<'_, T>, d: &Document) -> Result<SearchResult> {
    let folder = match d.folder_id {
        Some(f) => live(folders::get(cx, f))?.map(|f| f.name),
        None => None,
    };
    Ok(SearchResult {
        id: d.id,
        title: d.name.clone(),
        subtitle: format!(
            "{} · {}",
            folder.as_deref().unwrap_or("No folder"),
            size(d.file.byte_size)
        ),
        leading: Leading {
            kind: LeadingKind::Thumbnail,
            url: d.file.thumbnail_url.clone(),
        },
    })
}

/// A size as people read it (`512 bytes`, `1.4 MB`).
fn size(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["KB", "MB", "GB", "TB"];
    if bytes < 1000 {
        return format!("{bytes} bytes");
    }
    let mut n = bytes as f64 / 1000.0;
    let mut unit = 0;
    while n >= 1000.0 && unit < UNITS.len() - 1 {
        n /= 1000.0;
        unit += 1;
    }
    format!("{n:.1} {}", UNITS[unit])
}

fn list_doc(l: &TaskList) -> Doc {
    DocBuilder::new(Key::new().i64(l.position))
        .text(&l.name, class::WORD)
        .build()
}

fn list_result(l: &TaskList) -> SearchResult {
    SearchResult {
        id: l.id,
        title: l.name.clone(),
        subtitle: "Task list".into(),
        leading: icon(l.icon.as_deref().unwrap_or(DEFAULT_LIST_ICON)),
    }
}

fn folder_doc(f: &Folder) -> Doc {
    DocBuilder::new(by_name(&f.name))
        .text(&f.name, class::WORD)
        .build()
}

/// The folder it is in.
fn folder_result<T: Tables>(cx: &Cx<'_, T>, f: &Folder) -> Result<SearchResult> {
    let parent = match f.parent_id {
        Some(p) => live(folders::get(cx, p))?.map(|p| format!("In {}", p.name)),
        None => None,
    };
    Ok(SearchResult {
        id: f.id,
        title: f.name.clone(),
        subtitle: parent.unwrap_or_else(|| "Top level".into()),
        leading: icon(f.icon.as_deref().unwrap_or("folder")),
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn sizes_read_as_people_write_them() {
        for (bytes, shown) in [
            (0, "0 bytes"),
            (999, "999 bytes"),
            (1_000, "1.0 KB"),
            (1_400_000, "1.4 MB"),
            (25_000_000_000, "25.0 GB"),
        ] {
            assert_eq!(super::size(bytes), shown);
        }
    }

    #[test]
    fn sources_and_watched_tables_agree() {
        use redb::TableHandle;
        for (i, s) in super::SOURCES.iter().enumerate() {
            assert_eq!(s.kind, crate::search_index::Kind::ALL[i]);
            assert_eq!(s.table.name(), super::WATCHED[i].name());
        }
    }
}
