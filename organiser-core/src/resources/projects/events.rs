//! Project events (document 2, "ProjectEvent", "Events on a project",
//! `/project_events`; DESIGN.md's kinds `status`, `deadline`,
//! `member_added`, `member_removed`): recorded by the core when a
//! project's status or deadline changes and when members are added or
//! removed, never written through the API. A status or deadline change
//! within 10 minutes of the last one of its kind replaces it. An event is
//! shown while its project, and for a member event its person, is live.

use jiff::{SignedDuration, Timestamp};
use serde::{Deserialize, Serialize};

use super::members::ProjectMember;
use super::shown::{self, Gone, Row, Side};
use super::tables::{
    EVENTS, EVENTS_BY_PERSON, EVENTS_BY_PROJECT, EVENTS_BY_UPDATED, EVENTS_LIVE, EVENTS_OF_PROJECT,
    EVENTS_OF_PROJECT_BY_UPDATED,
};
use crate::engine::kinds::{Cascade, RecordKind};
use crate::engine::{Cx, WriteCx};
use crate::error::Result;
use crate::ids::Id;
use crate::list::{Direction, Filter, ListParams, Listing, Order, Page, Query};
use crate::resources::deletions;
use crate::store::codec::Record;
use crate::store::key::{Key, prefix_end, tail_id};
use crate::store::{Dir, Tables, Tbl};

/// How long after a status or deadline change the next change of the same
/// kind replaces it.
pub(crate) const REPLACE_WITHIN: SignedDuration = SignedDuration::from_secs(10 * 60);

/// Events: never deleted through the API; a project's or a person's delete
/// hides them.
pub(crate) static KIND: RecordKind = RecordKind {
    purge: Some(shown::purge::<EventRecord>),
    ..RecordKind::new("project_event", 7)
};

/// A project's delete hides its events.
pub(crate) static PROJECT_CASCADE: Cascade = Cascade {
    from: "project",
    to: "project_event",
    delete: |cx, project| hide(cx, EVENTS_BY_PROJECT, project, Side::Project),
    restore: |cx, project, _| show(cx, EVENTS_BY_PROJECT, project, Side::Project),
};

/// A person's delete hides its member events.
pub(crate) static PERSON_CASCADE: Cascade = Cascade {
    from: "person",
    to: "project_event",
    delete: |cx, person| hide(cx, EVENTS_BY_PERSON, person, Side::Person),
    restore: |cx, person, _| show(cx, EVENTS_BY_PERSON, person, Side::Person),
};

/// What an event records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EventKind {
    /// The status changed (`from` and `to` are statuses).
    Status,
    /// The deadline changed (`from` and `to` are dates or null).
    Deadline,
    /// A member was added (`person_id`, `role`).
    MemberAdded,
    /// A member was removed (`person_id`, `role`).
    MemberRemoved,
}

/// A change of a project.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProjectEvent {
    /// ID.
    pub id: Id,
    /// The project.
    pub project_id: Id,
    /// What changed.
    pub kind: EventKind,
    /// The value before (status and deadline events).
    pub from: Option<String>,
    /// The value after (status and deadline events).
    pub to: Option<String>,
    /// The member's person (member events).
    pub person_id: Option<Id>,
    /// The member's role (member events).
    pub role: Option<String>,
    /// When it happened.
    #[serde(with = "crate::time::serde_timestamp")]
    pub created_at: Timestamp,
    /// When it last changed (a restoration).
    #[serde(with = "crate::time::serde_timestamp")]
    pub updated_at: Timestamp,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct EventRecord {
    pub(super) event: ProjectEvent,
    pub(super) gone: Gone,
}

impl Record for EventRecord {
    const NAME: &'static str = "project event";
    const FORMAT: u8 = 1;
}

impl Row for EventRecord {
    const KIND: &'static str = "project_event";
    const TABLE: Tbl = EVENTS;
    fn id(&self) -> Id {
        self.event.id
    }
    fn gone(&self) -> Gone {
        self.gone
    }
    fn gone_mut(&mut self) -> &mut Gone {
        &mut self.gone
    }
    fn touch(&mut self, now: Timestamp) {
        self.event.updated_at = now;
    }
    fn shown_entries(&self) -> Vec<(Tbl, Key)> {
        let e = &self.event;
        vec![
            (EVENTS_LIVE, Key::new().id(e.id)),
            (
                EVENTS_BY_UPDATED,
                Key::new().timestamp(e.updated_at).id(e.id),
            ),
            (EVENTS_OF_PROJECT, Key::new().id(e.project_id).id(e.id)),
            (
                EVENTS_OF_PROJECT_BY_UPDATED,
                Key::new().id(e.project_id).timestamp(e.updated_at).id(e.id),
            ),
        ]
    }
    fn stored_entries(&self) -> Vec<(Tbl, Key)> {
        let e = &self.event;
        let mut entries = vec![(EVENTS_BY_PROJECT, Key::new().id(e.project_id).id(e.id))];
        if let Some(person) = e.person_id {
            entries.push((EVENTS_BY_PERSON, Key::new().id(person).id(e.id)));
        }
        entries
    }
}

fn hide(cx: &mut WriteCx<'_>, by: Tbl, owner: Id, side: Side) -> Result<Vec<Id>> {
    let ids = shown::ids_under(cx, by, owner)?;
    shown::set_gone::<EventRecord>(cx, &ids, side, true)?;
    Ok(ids)
}

fn show(cx: &mut WriteCx<'_>, by: Tbl, owner: Id, side: Side) -> Result<()> {
    let ids = shown::ids_under(cx, by, owner)?;
    shown::set_gone::<EventRecord>(cx, &ids, side, false)?;
    Ok(())
}

fn new_event(cx: &WriteCx<'_>, project: Id, kind: EventKind) -> ProjectEvent {
    let now = cx.now();
    ProjectEvent {
        id: cx.new_id(),
        project_id: project,
        kind,
        from: None,
        to: None,
        person_id: None,
        role: None,
        created_at: now,
        updated_at: now,
    }
}

fn insert(cx: &WriteCx<'_>, event: ProjectEvent) -> Result<()> {
    shown::insert(
        cx,
        &EventRecord {
            event,
            gone: Gone::default(),
        },
    )
}

/// Records a member added or removed.
pub(crate) fn record_member(
    cx: &WriteCx<'_>,
    member: &ProjectMember,
    kind: EventKind,
) -> Result<()> {
    let mut event = new_event(cx, member.project_id, kind);
    event.person_id = Some(member.person_id);
    event.role = member.role.clone();
    insert(cx, event)
}

/// The project's newest shown event of `kind`.
fn last_of_kind<T: Tables>(
    cx: &Cx<'_, T>,
    project: Id,
    kind: EventKind,
) -> Result<Option<EventRecord>> {
    let mut ids = shown::ids_under(cx, EVENTS_OF_PROJECT, project)?;
    ids.reverse();
    for id in ids {
        if let Some(r) = shown::load::<EventRecord, _>(cx, id)?
            && r.event.kind == kind
        {
            return Ok(Some(r));
        }
    }
    Ok(None)
}

/// Records a status or deadline change `from` → `to`. Within 10 minutes
/// of the project's last change of the same kind it replaces that one
/// (deleted, with a deletion record), running from its `from`; a change
/// that ends where it began leaves no event.
pub(crate) fn record_change(
    cx: &WriteCx<'_>,
    project: Id,
    kind: EventKind,
    from: Option<String>,
    to: Option<String>,
) -> Result<()> {
    let mut from = from;
    if let Some(last) = last_of_kind(cx, project, kind)?
        && cx.now().duration_since(last.event.created_at) <= REPLACE_WITHIN
    {
        from = last.event.from.clone();
        shown::remove(cx, &last)?;
        deletions::record(cx, KIND.name, last.event.id)?;
    }
    if from == to {
        return Ok(());
    }
    let mut event = new_event(cx, project, kind);
    event.from = from;
    event.to = to;
    insert(cx, event)
}

/// The project's shown events, newest first, before the event `before`
/// when given, at most `limit`.
pub(crate) fn newest<T: Tables>(
    cx: &Cx<'_, T>,
    project: Id,
    before: Option<Id>,
    limit: usize,
) -> Result<Vec<ProjectEvent>> {
    use std::ops::Bound::{Excluded, Included, Unbounded};
    let lo = Key::new().id(project).into_vec();
    let hi = match before {
        Some(id) => Some(Key::new().id(project).id(id).into_vec()),
        None => prefix_end(&lo),
    };
    let mut ids = Vec::new();
    let upper = hi.as_deref().map_or(Unbounded, Excluded);
    cx.scan(
        EVENTS_OF_PROJECT,
        Included(lo.as_slice()),
        upper,
        Dir::Desc,
        &mut |k, _| {
            ids.push(tail_id(k));
            Ok(ids.len() < limit)
        },
    )?;
    let mut events = Vec::with_capacity(ids.len());
    for id in ids {
        if let Some(r) = shown::load_shown::<EventRecord, _>(cx, id)? {
            events.push(r.event);
        }
    }
    Ok(events)
}

/// `GET /project_events` parameters.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProjectEventQuery {
    /// Events of this project.
    pub project_id: Option<Id>,
    /// `id` (default), `created_at`, `updated_at`; direction,
    /// updated_since, cursor, limit, count.
    pub params: ListParams,
}

impl ProjectEventQuery {
    /// The query's parameters, as [`ProjectEventQuery::parse`] reads them.
    pub(crate) fn query_pairs(&self) -> Vec<(&'static str, String)> {
        let mut pairs = self.params.query_pairs();
        if let Some(id) = self.project_id {
            pairs.push(("project_id", id.to_string()));
        }
        pairs
    }

    pub(crate) fn parse(query: &Query) -> Result<ProjectEventQuery> {
        Ok(ProjectEventQuery {
            params: LISTING.params(query)?,
            project_id: query.id("project_id")?,
        })
    }
}

const UPDATED: Order = Order {
    name: "updated_at",
    index: EVENTS_BY_UPDATED,
    direction: Direction::Asc,
};

static LISTING: Listing = Listing {
    name: "project_events",
    orders: &[
        Order {
            name: "id",
            index: EVENTS_LIVE,
            direction: Direction::Asc,
        },
        Order {
            name: "created_at",
            index: EVENTS_LIVE,
            direction: Direction::Asc,
        },
        UPDATED,
    ],
    updated: Some(&UPDATED),
    every: EVENTS_LIVE,
};

const OF_PROJECT_UPDATED: Order = Order {
    name: "updated_at",
    index: EVENTS_OF_PROJECT_BY_UPDATED,
    direction: Direction::Asc,
};

static OF_PROJECT: Listing = Listing {
    name: "project_events",
    orders: &[
        Order {
            name: "id",
            index: EVENTS_OF_PROJECT,
            direction: Direction::Asc,
        },
        Order {
            name: "created_at",
            index: EVENTS_OF_PROJECT,
            direction: Direction::Asc,
        },
        OF_PROJECT_UPDATED,
    ],
    updated: Some(&OF_PROJECT_UPDATED),
    every: EVENTS_OF_PROJECT,
};

/// `GET /project_events`: shown events.
pub(crate) fn list<T: Tables>(cx: &Cx<'_, T>, q: &ProjectEventQuery) -> Result<Page<ProjectEvent>> {
    let load = |k: &[u8]| Ok(shown::load_shown::<EventRecord, _>(cx, tail_id(k))?.map(|r| r.event));
    let secret = &cx.org.secret;
    match q.project_id {
        Some(project) => {
            let filter = Filter::prefix(Key::new().id(project), format!("project_id={project}"));
            OF_PROJECT.page(&cx.tx, secret, &q.params, &filter, load)
        }
        None => LISTING.page(&cx.tx, secret, &q.params, &Filter::default(), load),
    }
}
