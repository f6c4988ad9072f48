//! Projects (document 2, "Project", "Project status", "Delete and restore",
//! "Projects"): unique squished names, a status with the time it last
//! changed, dates in order, a sanitised description, members shown on the
//! project (`members.rs`), events of its changes (`events.rs`), upcoming
//! deadlines (`deadlines.rs`; the activity feed is `project_activity`), and
//! delete with its members, events and tasks, restorable for 20 seconds
//! under `Name (2)` when the name was taken meanwhile.

mod api;
mod deadlines;
pub(crate) mod events;
pub(crate) mod members;
pub(crate) mod portable;
mod shown;
pub(crate) mod tables;

pub(crate) use api::OPERATIONS;
pub use api::Projects;
pub use deadlines::{UpcomingDeadline, UpcomingDeadlinesQuery};
pub use events::{EventKind, ProjectEvent, ProjectEventQuery};
pub use members::{MemberBrief, ProjectMember, ProjectMemberInput, ProjectMemberQuery};

use jiff::Timestamp;
use jiff::civil::Date;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::engine::kinds::{Change, RecordKind, Taken};
use crate::engine::{Cx, WriteCx};
use crate::error::{Details, Error, Result};
use crate::ids::Id;
use crate::input::{Field, record};
use crate::limits;
use crate::list::{Direction, Filter, ListParams, Listing, Order, Page, Query};
use crate::resources::deletions;
use crate::restore;
use crate::store::codec::{self, Record};
use crate::store::key::{Key, tail_id};
use crate::store::{Tables, Tbl};
use crate::text::{char_len, fold_case, squish, squished_required};
use events::EventKind as Kind;
use tables::{
    PROJECTS, PROJECTS_BY_NAME, PROJECTS_BY_UPDATED, PROJECTS_LIVE, PROJECTS_OF_PERSON,
    PROJECTS_OF_PERSON_BY_NAME, PROJECTS_OF_PERSON_BY_UPDATED, PROJECTS_OPEN_BY_DEADLINE,
};

/// Projects: restorable for 20 seconds, and homes of tasks.
pub(crate) static KIND: RecordKind = RecordKind {
    purge: Some(purge),
    is_live: Some(exists),
    ..RecordKind::new("project", 5)
};

/// A project's status: `planned`, `active` and `on_hold` are open, `done`
/// and `cancelled` closed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProjectStatus {
    /// Not started.
    Planned,
    /// Under way (a new project's status).
    Active,
    /// Paused.
    OnHold,
    /// Finished.
    Done,
    /// Given up.
    Cancelled,
}

impl ProjectStatus {
    /// Every status, in the vocabulary's order.
    pub const ALL: [ProjectStatus; 5] = [
        ProjectStatus::Planned,
        ProjectStatus::Active,
        ProjectStatus::OnHold,
        ProjectStatus::Done,
        ProjectStatus::Cancelled,
    ];

    /// Its key in the API.
    pub fn key(self) -> &'static str {
        match self {
            ProjectStatus::Planned => "planned",
            ProjectStatus::Active => "active",
            ProjectStatus::OnHold => "on_hold",
            ProjectStatus::Done => "done",
            ProjectStatus::Cancelled => "cancelled",
        }
    }

    /// The status of `key`.
    pub fn from_key(key: &str) -> Option<ProjectStatus> {
        ProjectStatus::ALL.into_iter().find(|s| s.key() == key)
    }

    /// Whether it is open (`planned`, `active`, `on_hold`).
    pub fn is_open(self) -> bool {
        matches!(
            self,
            ProjectStatus::Planned | ProjectStatus::Active | ProjectStatus::OnHold
        )
    }
}

/// A project as the API shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Project {
    /// ID.
    pub id: Id,
    /// Squished; unique ignoring case.
    pub name: String,
    /// Its status.
    pub status: ProjectStatus,
    /// When the status last changed (its creation at first).
    #[serde(with = "crate::time::serde_timestamp")]
    pub status_changed_at: Timestamp,
    /// When it starts.
    pub start_date: Option<Date>,
    /// When it is due; not before `start_date`.
    pub deadline: Option<Date>,
    /// The owner's role; squished, blank is null.
    pub my_role: Option<String>,
    /// A reference elsewhere; squished, blank is null.
    pub external_reference: Option<String>,
    /// An http(s) link.
    pub external_url: Option<String>,
    /// Sanitised note-body HTML without images.
    pub description_html: Option<String>,
    /// The description's plain text.
    pub description_text: String,
    /// Its shown members, in the order they were added.
    pub members: Vec<MemberBrief>,
    /// When it was made.
    #[serde(with = "crate::time::serde_timestamp")]
    pub created_at: Timestamp,
    /// When it last changed (members, roles and a member's person's
    /// delete or restoration included).
    #[serde(with = "crate::time::serde_timestamp")]
    pub updated_at: Timestamp,
}

/// `{project: {name, status?, start_date?, deadline?, my_role?,
/// external_reference?, external_url?, description_html?}}`; all optional
/// on change. It serialises to the body it is read from.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(default)]
pub struct ProjectInput {
    /// The name; required on create.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// A status key.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub status: Field<String>,
    /// When it starts.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub start_date: Field<Date>,
    /// When it is due.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub deadline: Field<Date>,
    /// The owner's role.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub my_role: Field<String>,
    /// A reference elsewhere.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub external_reference: Field<String>,
    /// A link.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub external_url: Field<String>,
    /// Note-body HTML.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub description_html: Field<String>,
}

/// A stored project, with when it was deleted and what its delete took.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct ProjectRecord {
    project: Project,
    #[serde(with = "codec::opt_instant")]
    deleted_at: Option<Timestamp>,
    taken: Taken,
}

impl Record for ProjectRecord {
    const NAME: &'static str = "project";
    const FORMAT: u8 = 1;
}

fn load_row<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<Option<ProjectRecord>> {
    cx.get_record(PROJECTS, &id.to_bytes())
}

fn live<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<Option<Project>> {
    Ok(match load_row(cx, id)? {
        Some(ProjectRecord {
            project,
            deleted_at: None,
            ..
        }) => Some(project),
        _ => None,
    })
}

pub(crate) fn load_live<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<Project> {
    live(cx, id)?.ok_or(Error::NotFound)
}

/// A project's name and whether it is live (`false`: deleted and
/// restorable); `None` when there is no such project (any more).
pub(crate) fn lookup<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<Option<(String, bool)>> {
    Ok(load_row(cx, id)?.map(|r| (r.project.name, r.deleted_at.is_none())))
}

/// Whether `id` names a live project.
pub(crate) fn exists<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<bool> {
    Ok(cx
        .get(PROJECTS_LIVE, Key::new().id(id).as_slice())?
        .is_some())
}

fn save(cx: &WriteCx<'_>, project: &Project, deleted: Option<(Timestamp, Taken)>) -> Result<()> {
    let (deleted_at, taken) = match deleted {
        Some((at, taken)) => (Some(at), taken),
        None => (None, Taken::default()),
    };
    cx.put_record(
        PROJECTS,
        &project.id.to_bytes(),
        &ProjectRecord {
            project: project.clone(),
            deleted_at,
            taken,
        },
    )
}

/// The live open projects whose start date (`deadline` false) or deadline
/// (`deadline` true) falls from `from` to `to` (inclusive), by date then
/// name.
pub(crate) fn open_dated_between<T: Tables>(
    cx: &Cx<'_, T>,
    deadline: bool,
    from: Date,
    to: Date,
) -> Result<Vec<Id>> {
    let table = if deadline {
        PROJECTS_OPEN_BY_DEADLINE
    } else {
        tables::PROJECTS_OPEN_BY_START
    };
    let lo = Key::new().date(from).into_vec();
    let hi = Key::new().date(crate::time::add_days(to, 1)).into_vec();
    let mut ids = Vec::new();
    cx.scan(
        table,
        std::ops::Bound::Included(lo.as_slice()),
        std::ops::Bound::Excluded(hi.as_slice()),
        crate::store::Dir::Asc,
        &mut |k, _| {
            ids.push(tail_id(k));
            Ok(true)
        },
    )?;
    Ok(ids)
}

/// Migration step: the start-date index of every live open project.
pub(crate) fn index_open_starts(tx: &crate::store::WriteTx) -> Result<()> {
    let mut ids = Vec::new();
    tx.scan(
        PROJECTS_LIVE,
        std::ops::Bound::Unbounded,
        std::ops::Bound::Unbounded,
        crate::store::Dir::Asc,
        &mut |k, _| {
            ids.push(tail_id(k));
            Ok(true)
        },
    )?;
    for id in ids {
        let Some(record) = tx.get_record::<ProjectRecord>(PROJECTS, &id.to_bytes())? else {
            continue;
        };
        let p = record.project;
        if let Some(start) = p.start_date
            && p.status.is_open()
        {
            tx.index(
                tables::PROJECTS_OPEN_BY_START,
                Key::new()
                    .date(start)
                    .str(&fold_case(&p.name))
                    .id(p.id)
                    .as_slice(),
            )?;
        }
    }
    Ok(())
}

fn name_key(project: &Project) -> Key {
    Key::new().str(&fold_case(&project.name)).id(project.id)
}

/// The index entries of a live project (its members' included).
fn entries(p: &Project) -> Vec<(Tbl, Key)> {
    let folded = fold_case(&p.name);
    let mut entries = vec![
        (PROJECTS_LIVE, Key::new().id(p.id)),
        (PROJECTS_BY_NAME, name_key(p)),
        (
            PROJECTS_BY_UPDATED,
            Key::new().timestamp(p.updated_at).id(p.id),
        ),
    ];
    if let Some(deadline) = p.deadline
        && p.status.is_open()
    {
        entries.push((
            PROJECTS_OPEN_BY_DEADLINE,
            Key::new().date(deadline).str(&folded).id(p.id),
        ));
    }
    if let Some(start) = p.start_date
        && p.status.is_open()
    {
        entries.push((
            tables::PROJECTS_OPEN_BY_START,
            Key::new().date(start).str(&folded).id(p.id),
        ));
    }
    for m in &p.members {
        let person = Key::new().id(m.person_id);
        entries.push((PROJECTS_OF_PERSON, person.clone().id(p.id)));
        entries.push((
            PROJECTS_OF_PERSON_BY_NAME,
            person.clone().str(&folded).id(p.id),
        ));
        entries.push((
            PROJECTS_OF_PERSON_BY_UPDATED,
            person.timestamp(p.updated_at).id(p.id),
        ));
    }
    entries
}

/// Saves a live project whose fields changed, moving its index entries.
fn update(cx: &WriteCx<'_>, before: &Project, after: &Project) -> Result<()> {
    cx.set_indexes(&entries(before), false)?;
    cx.set_indexes(&entries(after), true)?;
    save(cx, after, None)
}

/// Gives live project `id` its shown members and a new `updated_at`
/// (after a member is added, changed or removed, or a member's person is
/// deleted or restored); a project that is not live is left alone.
pub(crate) fn refresh_members(cx: &WriteCx<'_>, id: Id) -> Result<()> {
    let Some(before) = live(cx, id)? else {
        return Ok(());
    };
    let mut after = before.clone();
    after.members = members::briefs_of(cx, id)?;
    after.updated_at = cx.now();
    update(cx, &before, &after)
}

/// The live record named `name` ignoring case, other than `except`.
fn named<T: Tables>(cx: &Cx<'_, T>, name: &str, except: Option<Id>) -> Result<Option<Id>> {
    cx.named(PROJECTS_BY_NAME, name, except)
}

/// Reads the body; a wrongly typed field is 422 on it.
pub(crate) fn parse(body: Option<&Value>) -> Result<ProjectInput> {
    let mut f = record(body, "project")?;
    let input = ProjectInput {
        name: match f.string("name") {
            Field::Value(n) => Some(n),
            Field::Null => Some(String::new()),
            Field::Absent => None,
        },
        status: f.string("status"),
        start_date: f.date("start_date"),
        deadline: f.date("deadline"),
        my_role: f.string("my_role"),
        external_reference: f.string("external_reference"),
        external_url: f.string("external_url"),
        description_html: f.string("description_html"),
    };
    f.finish()?;
    Ok(input)
}

/// A squished text of at most `max` characters, blank as null.
fn optional_text(
    details: &mut Details,
    field: &str,
    value: &Field<String>,
    max: usize,
) -> Option<Option<String>> {
    match value {
        Field::Absent => None,
        Field::Null => Some(None),
        Field::Value(v) => {
            let v = squish(v);
            if char_len(&v) > max {
                details.add(field, format!("is too long (at most {max} characters)"));
                return None;
            }
            Some(Some(v).filter(|v| !v.is_empty()))
        }
    }
}

/// `external_url`: `https://` added when there is no scheme; http or https
/// with a host; at most 2048 characters.
fn check_url(details: &mut Details, value: &Field<String>) -> Option<Option<String>> {
    let raw = match value {
        Field::Absent => return None,
        Field::Null => return Some(None),
        Field::Value(v) => v,
    };
    let url = crate::resources::people::social::normalise_url(raw);
    if url.is_empty() {
        return Some(None);
    }
    let max = limits::text::PROJECT_URL;
    if char_len(&url) > max {
        details.add(
            "external_url",
            format!("is too long (at most {max} characters)"),
        );
        return None;
    }
    match reqwest::Url::parse(&url) {
        Ok(parsed)
            if matches!(parsed.scheme(), "http" | "https")
                && parsed.host_str().is_some_and(|h| !h.is_empty()) =>
        {
            Some(Some(url))
        }
        _ => {
            details.add("external_url", "must be an http or https link with a host");
            None
        }
    }
}

/// The most bytes a description may have.
const DESCRIPTION_MAX_BYTES: usize = 1_000_000;

/// The sanitised description and its text: images and attachments are
/// dropped; a NUL or more than 1 MB is a mistake.
fn check_description(
    details: &mut Details,
    value: &Field<String>,
) -> Option<(Option<String>, String)> {
    let html = match value {
        Field::Absent => return None,
        Field::Null => return Some((None, String::new())),
        Field::Value(v) => v,
    };
    if html.contains('\0') {
        details.add("description_html", "can't contain a NUL character");
        return None;
    }
    if html.len() > DESCRIPTION_MAX_BYTES {
        details.add(
            "description_html",
            format!("is too long (at most {DESCRIPTION_MAX_BYTES} bytes)"),
        );
        return None;
    }
    let clean = crate::html::sanitise_without_images(html);
    if clean.trim().is_empty() {
        return Some((None, String::new()));
    }
    let text = crate::html::to_text(&clean);
    Some((Some(clean), text))
}

/// `project` with `input` applied, checked; every mistake at once.
fn apply(
    cx: &WriteCx<'_>,
    mut project: Project,
    input: &ProjectInput,
    except: Option<Id>,
) -> Result<Project> {
    let mut details = Details::new();
    match &input.name {
        Some(name) => {
            let name = squished_required(&mut details, "name", name, limits::text::PROJECT_NAME);
            if !details.has("name") && named(cx, &name, except)?.is_some() {
                details.add("name", "has already been taken");
            }
            project.name = name;
        }
        None if except.is_none() => details.add("name", "can't be blank"),
        None => {}
    }
    match &input.status {
        Field::Absent => {}
        Field::Null if except.is_none() => project.status = ProjectStatus::Active,
        Field::Value(s) if ProjectStatus::from_key(s.trim()).is_some() => {
            project.status = ProjectStatus::from_key(s.trim()).unwrap_or(project.status);
        }
        _ => details.add(
            "status",
            "is not a project status: one of planned, active, on_hold, done, cancelled",
        ),
    }
    if let Some(d) = input.start_date.clone().sent() {
        project.start_date = d;
    }
    if let Some(d) = input.deadline.clone().sent() {
        project.deadline = d;
    }
    if let (Some(start), Some(deadline)) = (project.start_date, project.deadline)
        && deadline < start
        && (input.start_date.is_sent() || input.deadline.is_sent())
    {
        details.add("deadline", "can't be before the start date");
    }
    let text = limits::text::PROJECT_TEXT;
    if let Some(v) = optional_text(&mut details, "my_role", &input.my_role, text) {
        project.my_role = v;
    }
    if let Some(v) = optional_text(
        &mut details,
        "external_reference",
        &input.external_reference,
        text,
    ) {
        project.external_reference = v;
    }
    if let Some(v) = check_url(&mut details, &input.external_url) {
        project.external_url = v;
    }
    if let Some((html, text)) = check_description(&mut details, &input.description_html) {
        project.description_html = html;
        project.description_text = text;
    }
    details.into_validation()?;
    Ok(project)
}

/// `POST /projects`.
pub(crate) fn create(cx: &mut WriteCx<'_>, input: &ProjectInput) -> Result<Project> {
    let project = apply(cx, blank(cx), input, None)?;
    cx.set_indexes(&entries(&project), true)?;
    save(cx, &project, None)?;
    Ok(project)
}

/// A new project with no name yet.
fn blank(cx: &WriteCx<'_>) -> Project {
    let now = cx.now();
    Project {
        id: cx.new_id(),
        name: String::new(),
        status: ProjectStatus::Active,
        status_changed_at: now,
        start_date: None,
        deadline: None,
        my_role: None,
        external_reference: None,
        external_url: None,
        description_html: None,
        description_text: String::new(),
        members: Vec::new(),
        created_at: now,
        updated_at: now,
    }
}

/// `GET /projects/{id}`.
pub(crate) fn get<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<Project> {
    load_live(cx, id)
}

/// `PATCH /projects/{id}`: a status or deadline change is recorded as an
/// event; a change that changes nothing keeps `updated_at`.
pub(crate) fn change(cx: &mut WriteCx<'_>, id: Id, input: &ProjectInput) -> Result<Project> {
    let before = load_live(cx, id)?;
    let mut after = apply(cx, before.clone(), input, Some(id))?;
    if after == before {
        return Ok(after);
    }
    let now = cx.now();
    after.updated_at = now;
    if after.status != before.status {
        after.status_changed_at = now;
        events::record_change(
            cx,
            id,
            Kind::Status,
            Some(before.status.key().to_owned()),
            Some(after.status.key().to_owned()),
        )?;
    }
    if after.deadline != before.deadline {
        events::record_change(
            cx,
            id,
            Kind::Deadline,
            before.deadline.map(|d| d.to_string()),
            after.deadline.map(|d| d.to_string()),
        )?;
    }
    update(cx, &before, &after)?;
    if after.name != before.name {
        cx.tell(KIND.name, id, Change::Renamed)?;
    }
    Ok(after)
}

/// `DELETE /projects/{id}`: the project with its members, events and
/// tasks, each with a deletion record; the name is free at once.
pub(crate) fn delete(cx: &mut WriteCx<'_>, id: Id) -> Result<()> {
    let project = load_live(cx, id)?;
    cx.set_indexes(&entries(&project), false)?;
    let taken = cx.cascade_delete(KIND.name, id)?;
    deletions::record(cx, KIND.name, id)?;
    restore::schedule(cx, &KIND, id, cx.now())?;
    save(cx, &project, Some((cx.now(), taken)))?;
    cx.tell(KIND.name, id, Change::Deleted)
}

/// The name a restored record takes: its own, else the first free
/// numbered one.
fn restored_name<T: Tables>(cx: &Cx<'_, T>, name: &str, id: Id) -> Result<Option<String>> {
    restore::free_name(name, limits::text::PROJECT_NAME, |n| {
        Ok(named(cx, n, Some(id))?.is_some())
    })
}

/// `POST /projects/{id}/restoration`: within 20 seconds the project
/// returns with its members, events and tasks; a live project is returned
/// as it is.
pub(crate) fn restore(cx: &mut WriteCx<'_>, id: Id) -> Result<Project> {
    let row = load_row(cx, id)?.ok_or(Error::NotFound)?;
    let Some(deleted_at) = row.deleted_at else {
        return Ok(row.project);
    };
    if !restore::within_window(deleted_at, cx.now()) {
        return Err(Error::NotFound);
    }
    let mut project = row.project;
    project.name = restored_name(cx, &project.name, id)?.ok_or_else(|| {
        Error::invalid(
            "name",
            "is taken by another project and no numbered variant is free within 100 characters; rename that project and retry",
        )
    })?;
    restore::cancel(cx, &KIND, id, deleted_at)?;
    deletions::unrecord(cx, KIND.name, id)?;
    cx.cascade_restore(KIND.name, id, &row.taken)?;
    project.members = members::briefs_of(cx, id)?;
    project.updated_at = cx.now();
    cx.set_indexes(&entries(&project), true)?;
    save(cx, &project, None)?;
    cx.tell(KIND.name, id, Change::Restored)?;
    Ok(project)
}

/// Makes a project's delete permanent, with what it took.
fn purge(cx: &mut WriteCx<'_>, id: Id) -> Result<()> {
    if let Some(ProjectRecord {
        deleted_at: Some(_),
        taken,
        ..
    }) = load_row(cx, id)?
    {
        cx.cascade_purge(&taken)?;
        cx.remove(PROJECTS, &id.to_bytes())?;
        // Its references become plain text.
        cx.tell(KIND.name, id, Change::Purged)?;
    }
    Ok(())
}

/// `GET /projects` parameters.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProjectQuery {
    /// Only these statuses (none: all).
    pub statuses: Vec<ProjectStatus>,
    /// Only projects this person is a member of.
    pub person_id: Option<Id>,
    /// `name` (default), `created_at`, `updated_at`, `id`; direction,
    /// updated_since, cursor, limit, count.
    pub params: ListParams,
}

impl ProjectQuery {
    /// The query's parameters, as [`ProjectQuery::parse`] reads them.
    pub(crate) fn query_pairs(&self) -> Vec<(&'static str, String)> {
        let mut pairs = self.params.query_pairs();
        if !self.statuses.is_empty() {
            let keys: Vec<&str> = self.statuses.iter().map(|s| s.key()).collect();
            pairs.push(("status", keys.join(",")));
        }
        if let Some(id) = self.person_id {
            pairs.push(("person_id", id.to_string()));
        }
        pairs
    }

    pub(crate) fn parse(query: &Query) -> Result<ProjectQuery> {
        let params = LISTING.params(query)?;
        let mut statuses = Vec::new();
        if let Some(raw) = query.get("status") {
            for word in raw.split(',') {
                match ProjectStatus::from_key(word.trim()) {
                    Some(s) => statuses.push(s),
                    None => {
                        return Err(Error::bad_param(
                            "status",
                            "must be project statuses separated by commas: planned, active, on_hold, done, cancelled",
                        ));
                    }
                }
            }
        }
        statuses.sort_by_key(|s| s.key());
        statuses.dedup();
        Ok(ProjectQuery {
            statuses,
            person_id: query.id("person_id")?,
            params,
        })
    }
}

const UPDATED: Order = Order {
    name: "updated_at",
    index: PROJECTS_BY_UPDATED,
    direction: Direction::Asc,
};

/// `GET /projects`: live projects by name (default), creation, change or id.
static LISTING: Listing = Listing {
    name: "projects",
    orders: &[
        Order {
            name: "name",
            index: PROJECTS_BY_NAME,
            direction: Direction::Asc,
        },
        Order {
            name: "created_at",
            index: PROJECTS_LIVE,
            direction: Direction::Asc,
        },
        UPDATED,
        Order {
            name: "id",
            index: PROJECTS_LIVE,
            direction: Direction::Asc,
        },
    ],
    updated: Some(&UPDATED),
    every: PROJECTS_LIVE,
};

const OF_PERSON_UPDATED: Order = Order {
    name: "updated_at",
    index: PROJECTS_OF_PERSON_BY_UPDATED,
    direction: Direction::Asc,
};

/// `GET /projects?person_id=…`: the same orders on the indexes led by the
/// member.
static OF_PERSON: Listing = Listing {
    name: "projects",
    orders: &[
        Order {
            name: "name",
            index: PROJECTS_OF_PERSON_BY_NAME,
            direction: Direction::Asc,
        },
        Order {
            name: "created_at",
            index: PROJECTS_OF_PERSON,
            direction: Direction::Asc,
        },
        OF_PERSON_UPDATED,
        Order {
            name: "id",
            index: PROJECTS_OF_PERSON,
            direction: Direction::Asc,
        },
    ],
    updated: Some(&OF_PERSON_UPDATED),
    every: PROJECTS_OF_PERSON,
};

/// `GET /projects`. The status filter keeps the listed statuses as the
/// order's index is walked (a project has one of five, and an owner's
/// projects number in the thousands at most).
pub(crate) fn list<T: Tables>(cx: &Cx<'_, T>, q: &ProjectQuery) -> Result<Page<Project>> {
    let statuses = &q.statuses;
    let load = |k: &[u8]| {
        Ok(live(cx, tail_id(k))?.filter(|p| statuses.is_empty() || statuses.contains(&p.status)))
    };
    let (listing, mut filter) = match q.person_id {
        Some(person) => (
            &OF_PERSON,
            Filter::prefix(Key::new().id(person), format!("person_id={person}")),
        ),
        None => (&LISTING, Filter::default()),
    };
    if !statuses.is_empty() {
        // The same statuses name the same filter, however a typed caller
        // orders them.
        let mut keys: Vec<&str> = statuses.iter().map(|s| s.key()).collect();
        keys.sort_unstable();
        keys.dedup();
        filter = filter.skipping(&format!("status={}", keys.join(",")));
    }
    listing.page(&cx.tx, &cx.org.secret, &q.params, &filter, load)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Organiser;

    fn named(name: &str) -> ProjectInput {
        ProjectInput {
            name: Some(name.into()),
            status: Field::Value("planned".into()),
            ..ProjectInput::default()
        }
    }

    /// A typed caller's statuses, in any order, make the cursor the API
    /// makes for them.
    #[test]
    fn a_typed_status_filter_pages_with_the_apis_cursors() {
        let org = Organiser::in_memory();
        for name in ["A", "B", "C"] {
            org.projects().create(named(name)).unwrap();
        }
        let typed = ProjectQuery {
            statuses: vec![ProjectStatus::Planned, ProjectStatus::Done],
            params: ListParams {
                limit: 1,
                ..ListParams::default()
            },
            ..ProjectQuery::default()
        };
        let first = org.projects().list(&typed).unwrap();
        let cursor = first.next_cursor.expect("a second page");
        let query = Query::parse(&format!("status=done,planned&limit=1&cursor={cursor}")).unwrap();
        let second = org
            .projects()
            .list(&ProjectQuery::parse(&query).unwrap())
            .unwrap();
        assert_eq!(second.items[0].name, "B");
    }
}
