//! A person's overview (ours: `GET /people/{id}/overview`, docs/api.md
//! "Person overview"): the person and, in one read, what a screen about
//! them shows beside the record: the companies of their jobs, the people
//! they are connected to, when each key date next falls, their projects,
//! open tasks, the notes that mention them, the documents linked to them
//! and their next meetings. A view over other resources, like the
//! calendar: nothing to page or sync, and every part is the answer of the
//! list it stands for (same records, same order).

mod api;

pub(crate) use api::OPERATIONS;
pub use api::PersonOverviews;

use std::collections::HashSet;

use serde::{Deserialize, Serialize};

use crate::engine::Cx;
use crate::error::Result;
use crate::ids::Id;
use crate::list::ListParams;
use crate::resources::calendar::{self, Meetings, MeetingsQuery};
use crate::resources::documents::{self, Document, Target};
use crate::resources::notes::{self, NoteQuery, NoteSummary};
use crate::resources::people::{
    self, Company, Person, PersonBrief, UpcomingKeyDate, UpcomingQuery,
};
use crate::resources::projects::{self, Project, ProjectQuery};
use crate::resources::tasks::{self, Home, Task, TaskQuery, TaskStatus};
use crate::store::Tables;
use crate::text::fold_case;

/// How many of each list an overview holds at most.
pub(crate) const PROJECTS: usize = 20;
/// Open tasks.
pub(crate) const TASKS: usize = 20;
/// Notes that mention the person.
pub(crate) const NOTES: usize = 10;
/// Linked documents.
pub(crate) const DOCUMENTS: usize = 10;
/// Next meetings.
pub(crate) const MEETINGS: u64 = 5;

/// The first items of a list and how many it holds in all.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Excerpt<T> {
    /// The first items, in the list's order.
    pub data: Vec<T>,
    /// How many items the whole list holds.
    pub total_count: u64,
}

/// `GET /people/{id}/overview`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PersonOverview {
    /// The person, as `GET /people/{id}` answers.
    pub person: Person,
    /// The live companies the person's jobs name, by name.
    pub companies: Vec<Company>,
    /// The live people the person's connections name, by name.
    pub connections: Vec<PersonBrief>,
    /// When each of the person's key dates next falls (today included,
    /// within 366 days: every date once), soonest first, as
    /// `GET /upcoming_key_dates?person_id=` answers.
    pub key_dates: Vec<UpcomingKeyDate>,
    /// The projects the person is a member of, whatever their status, by
    /// name (`GET /projects?person_id=`): the first 20.
    pub projects: Excerpt<Project>,
    /// The person's open tasks in their order (`GET
    /// /tasks?person_id=&status=open`): the first 20.
    pub tasks: Excerpt<Task>,
    /// The notes that mention the person, most recently edited first
    /// (`GET /notes?person_id=`): the first 10.
    pub notes: Excerpt<NoteSummary>,
    /// The live documents linked to the person, in the order they were
    /// linked (`GET /document_links?person_id=`): the first 10.
    pub documents: Excerpt<Document>,
    /// The person's next meetings (`GET /people/{id}/meetings?limit=5`).
    pub meetings: Meetings,
    /// The owner's zone (IANA), in which the meetings' times are shown.
    pub time_zone_iana: String,
}

/// The overview of live person `id` (404 for another).
pub(crate) fn overview<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<PersonOverview> {
    let person = people::get(cx, id)?;
    let mut seen = HashSet::new();
    let mut companies = Vec::new();
    for company in person.positions.iter().filter_map(|p| p.company_id) {
        if seen.insert(company)
            && let Some(found) = people::companies::get(cx, company)?
        {
            companies.push(found);
        }
    }
    companies.sort_by_cached_key(|c| (fold_case(&c.name), c.id));
    let mut seen = HashSet::new();
    let mut connections = Vec::new();
    for other in person.connections.iter().map(|c| c.person_id) {
        if seen.insert(other)
            && let Ok(found) = people::load_live(cx, other)
        {
            connections.push(PersonBrief {
                id: found.id,
                name: found.name,
                avatar: found.avatar,
                relationships: found.relationships,
            });
        }
    }
    connections.sort_by_cached_key(|p| (fold_case(&p.name), p.id));
    let key_dates = if person.key_dates.is_empty() {
        Vec::new()
    } else {
        let query = UpcomingQuery {
            days: 366,
            limit: 100,
            person_id: Some(id),
        };
        people::upcoming_key_dates(cx, query)?.data
    };
    let first = |limit: usize| ListParams {
        limit,
        count: true,
        ..ListParams::default()
    };
    let projects = section(projects::list(
        cx,
        &ProjectQuery {
            statuses: Vec::new(),
            person_id: Some(id),
            params: first(PROJECTS),
        },
    )?);
    let tasks = section(tasks::list(
        cx,
        &TaskQuery {
            statuses: Some(vec![TaskStatus::Open]),
            home: Some(Home::Person(id)),
            params: first(TASKS),
            ..TaskQuery::default()
        },
    )?);
    let notes = section(notes::list(
        cx,
        &NoteQuery {
            person_id: Some(id),
            params: first(NOTES),
            ..NoteQuery::default()
        },
    )?);
    let mut linked = documents::links::documents_linked(cx, Target::Person, id)?;
    linked.sort_by_key(|(_, link, _)| *link);
    let documents = Excerpt {
        total_count: linked.len() as u64,
        data: linked
            .into_iter()
            .take(DOCUMENTS)
            .map(|(_, _, doc)| doc)
            .collect(),
    };
    let meetings = calendar::meetings(cx, id, MeetingsQuery { limit: MEETINGS })?;
    Ok(PersonOverview {
        person,
        companies,
        connections,
        key_dates,
        projects,
        tasks,
        notes,
        documents,
        meetings,
        time_zone_iana: cx.zone().iana().to_owned(),
    })
}

fn section<T>(page: crate::list::Page<T>) -> Excerpt<T> {
    Excerpt {
        total_count: page.total_count.unwrap_or(page.items.len() as u64),
        data: page.items,
    }
}

impl PersonOverview {
    /// Photo and file addresses made absolute with `base`.
    pub(crate) fn absolute(mut self, base: &str) -> PersonOverview {
        use crate::resources::people::absolute_avatar;
        if let Some(a) = &mut self.person.avatar {
            absolute_avatar(a, base);
        }
        for p in &mut self.connections {
            if let Some(a) = &mut p.avatar {
                absolute_avatar(a, base);
            }
        }
        for k in &mut self.key_dates {
            if let Some(a) = &mut k.person.avatar {
                absolute_avatar(a, base);
            }
        }
        self.documents.data = std::mem::take(&mut self.documents.data)
            .into_iter()
            .map(|d| documents::absolute(d, base))
            .collect();
        self
    }
}
