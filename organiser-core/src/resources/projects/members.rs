//! Project members (document 2, "ProjectMember" and "Project members"): a
//! person on a project once, with a free-text role; `new_person_name`
//! makes the person in the same transaction; removal is permanent. A
//! member is shown while its project and its person are live (`shown.rs`);
//! every change gives the project a new `updated_at` and its `members`.

use jiff::Timestamp;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::events::{self, EventKind};
use super::shown::{self, Gone, Row, Side};
use super::tables::{
    MEMBERS, MEMBERS_BY_PERSON, MEMBERS_BY_PROJECT, MEMBERS_BY_UPDATED, MEMBERS_LIVE,
    MEMBERS_OF_PERSON, MEMBERS_OF_PERSON_BY_UPDATED, MEMBERS_OF_PROJECT,
    MEMBERS_OF_PROJECT_BY_UPDATED,
};
use crate::engine::kinds::{Cascade, RecordKind};
use crate::engine::{Cx, WriteCx};
use crate::error::{Details, Error, Result};
use crate::ids::Id;
use crate::input::{Field, record};
use crate::limits;
use crate::list::{Direction, Filter, ListParams, Listing, Order, Page, Query};
use crate::resources::{deletions, people};
use crate::store::codec::Record;
use crate::store::key::{Key, tail_id};
use crate::store::{Tables, Tbl};
use crate::text::{char_len, squish};

/// Members: removal is permanent; a project's or a person's delete hides
/// them.
pub(crate) static KIND: RecordKind = RecordKind {
    purge: Some(shown::purge::<MemberRecord>),
    ..RecordKind::new("project_member", 6)
};

/// A project's delete hides its members.
pub(crate) static PROJECT_CASCADE: Cascade = Cascade {
    from: "project",
    to: "project_member",
    delete: |cx, project| hide(cx, MEMBERS_BY_PROJECT, project, Side::Project),
    restore: |cx, project, _| show(cx, MEMBERS_BY_PROJECT, project, Side::Project),
};

/// A person's delete hides its memberships; their projects get a new
/// `updated_at`.
pub(crate) static PERSON_CASCADE: Cascade = Cascade {
    from: "person",
    to: "project_member",
    delete: |cx, person| hide(cx, MEMBERS_BY_PERSON, person, Side::Person),
    restore: |cx, person, _| show(cx, MEMBERS_BY_PERSON, person, Side::Person),
};

/// A person on a project.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProjectMember {
    /// ID.
    pub id: Id,
    /// The project.
    pub project_id: Id,
    /// The person.
    pub person_id: Id,
    /// Free text, squished; blank is null.
    pub role: Option<String>,
    /// When it was made.
    #[serde(with = "crate::time::serde_timestamp")]
    pub created_at: Timestamp,
    /// When it last changed.
    #[serde(with = "crate::time::serde_timestamp")]
    pub updated_at: Timestamp,
}

/// A member as its project shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemberBrief {
    /// The member's ID.
    pub id: Id,
    /// The person.
    pub person_id: Id,
    /// The role.
    pub role: Option<String>,
}

/// `{project_member: {project_id, person_id | new_person_name, role?}}`;
/// a change reads `role` alone.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(default)]
pub struct ProjectMemberInput {
    /// The project (create only).
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub project_id: Field<Id>,
    /// The person (create only).
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub person_id: Field<Id>,
    /// A person to make, instead of `person_id` (create only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new_person_name: Option<String>,
    /// The role.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub role: Field<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct MemberRecord {
    pub(super) member: ProjectMember,
    pub(super) gone: Gone,
}

impl Record for MemberRecord {
    const NAME: &'static str = "project member";
    const FORMAT: u8 = 1;
}

impl Row for MemberRecord {
    const KIND: &'static str = "project_member";
    const TABLE: Tbl = MEMBERS;
    fn id(&self) -> Id {
        self.member.id
    }
    fn gone(&self) -> Gone {
        self.gone
    }
    fn gone_mut(&mut self) -> &mut Gone {
        &mut self.gone
    }
    fn touch(&mut self, now: Timestamp) {
        self.member.updated_at = now;
    }
    fn shown_entries(&self) -> Vec<(Tbl, Key)> {
        let m = &self.member;
        vec![
            (MEMBERS_LIVE, Key::new().id(m.id)),
            (
                MEMBERS_BY_UPDATED,
                Key::new().timestamp(m.updated_at).id(m.id),
            ),
            (MEMBERS_OF_PROJECT, Key::new().id(m.project_id).id(m.id)),
            (
                MEMBERS_OF_PROJECT_BY_UPDATED,
                Key::new().id(m.project_id).timestamp(m.updated_at).id(m.id),
            ),
            (MEMBERS_OF_PERSON, Key::new().id(m.person_id).id(m.id)),
            (
                MEMBERS_OF_PERSON_BY_UPDATED,
                Key::new().id(m.person_id).timestamp(m.updated_at).id(m.id),
            ),
        ]
    }
    fn stored_entries(&self) -> Vec<(Tbl, Key)> {
        let m = &self.member;
        vec![
            (MEMBERS_BY_PROJECT, Key::new().id(m.project_id).id(m.id)),
            (MEMBERS_BY_PERSON, Key::new().id(m.person_id).id(m.id)),
        ]
    }
}

/// The shown members of `project`, in the order they were added.
pub(crate) fn briefs_of<T: Tables>(cx: &Cx<'_, T>, project: Id) -> Result<Vec<MemberBrief>> {
    let mut briefs = Vec::new();
    for id in shown::ids_under(cx, MEMBERS_OF_PROJECT, project)? {
        if let Some(r) = shown::load_shown::<MemberRecord, _>(cx, id)? {
            briefs.push(MemberBrief {
                id: r.member.id,
                person_id: r.member.person_id,
                role: r.member.role,
            });
        }
    }
    Ok(briefs)
}

fn hide(cx: &mut WriteCx<'_>, by: Tbl, owner: Id, side: Side) -> Result<Vec<Id>> {
    let ids = shown::ids_under(cx, by, owner)?;
    let changed = shown::set_gone::<MemberRecord>(cx, &ids, side, true)?;
    if side == Side::Person {
        refresh_projects(cx, &changed)?;
    }
    Ok(ids)
}

fn show(cx: &mut WriteCx<'_>, by: Tbl, owner: Id, side: Side) -> Result<()> {
    let ids = shown::ids_under(cx, by, owner)?;
    let changed = shown::set_gone::<MemberRecord>(cx, &ids, side, false)?;
    if side == Side::Person {
        refresh_projects(cx, &changed)?;
    }
    Ok(())
}

fn refresh_projects(cx: &WriteCx<'_>, changed: &[MemberRecord]) -> Result<()> {
    let mut projects: Vec<Id> = changed.iter().map(|r| r.member.project_id).collect();
    projects.sort();
    projects.dedup();
    for project in projects {
        super::refresh_members(cx, project)?;
    }
    Ok(())
}

/// Reads the body: `new_person_name` with `person_id`, not a string, or
/// on a change, is 400.
pub(crate) fn parse(body: Option<&Value>, creating: bool) -> Result<ProjectMemberInput> {
    let mut f = record(body, "project_member")?;
    let mut input = ProjectMemberInput {
        role: f.string("role"),
        ..ProjectMemberInput::default()
    };
    if creating {
        input.project_id = f.id("project_id");
        input.person_id = f.id("person_id");
    }
    match f.raw("new_person_name") {
        Field::Absent => {}
        _ if !creating => {
            return Err(Error::bad_param(
                "new_person_name",
                "is taken only when a member is added",
            ));
        }
        Field::Value(Value::String(name)) => {
            if !f.raw("person_id").is_absent() {
                return Err(Error::bad_param(
                    "new_person_name",
                    "send person_id or new_person_name, not both",
                ));
            }
            input.new_person_name = Some(name.clone());
        }
        _ => {
            return Err(Error::bad_param(
                "new_person_name",
                "must be the new person's name",
            ));
        }
    }
    f.finish()?;
    Ok(input)
}

fn check_role(details: &mut Details, role: &Field<String>) -> Option<Option<String>> {
    match role {
        Field::Absent => None,
        Field::Null => Some(None),
        Field::Value(r) => {
            let r = squish(r);
            if char_len(&r) > limits::text::PROJECT_MEMBER_ROLE {
                details.add(
                    "role",
                    format!(
                        "is too long (at most {} characters)",
                        limits::text::PROJECT_MEMBER_ROLE
                    ),
                );
                return None;
            }
            Some(Some(r).filter(|r| !r.is_empty()))
        }
    }
}

/// Whether `person` is on `project` (shown or hidden).
fn is_member<T: Tables>(cx: &Cx<'_, T>, project: Id, person: Id) -> Result<bool> {
    for id in shown::ids_under(cx, MEMBERS_BY_PROJECT, project)? {
        if shown::load::<MemberRecord, _>(cx, id)?.is_some_and(|r| r.member.person_id == person) {
            return Ok(true);
        }
    }
    Ok(false)
}

/// `POST /project_members`.
pub(crate) fn create(cx: &mut WriteCx<'_>, input: &ProjectMemberInput) -> Result<ProjectMember> {
    let mut details = Details::new();
    let project = match &input.project_id {
        Field::Value(id) if super::exists(cx, *id)? => Some(*id),
        Field::Value(_) => {
            details.add("project_id", "does not exist");
            None
        }
        _ => {
            details.add("project_id", "can't be blank");
            None
        }
    };
    let role = check_role(&mut details, &input.role).flatten();
    let person = match &input.new_person_name {
        Some(name) => {
            let name = people::checked_name(&mut details, name, "new_person_name");
            details.into_validation()?;
            people::create_named(cx, name)?.id
        }
        None => {
            let person = match &input.person_id {
                Field::Value(id) if people::exists(cx, *id)? => Some(*id),
                Field::Value(_) => {
                    details.add("person_id", "does not exist");
                    None
                }
                _ => {
                    details.add("person_id", "can't be blank");
                    None
                }
            };
            if let (Some(project), Some(person)) = (project, person)
                && is_member(cx, project, person)?
            {
                details.add("person_id", "is already a member of this project");
            }
            details.into_validation()?;
            person.ok_or_else(|| Error::invalid("person_id", "can't be blank"))?
        }
    };
    let project = project.ok_or_else(|| Error::invalid("project_id", "can't be blank"))?;
    let now = cx.now();
    let member = ProjectMember {
        id: cx.new_id(),
        project_id: project,
        person_id: person,
        role,
        created_at: now,
        updated_at: now,
    };
    shown::insert(
        cx,
        &MemberRecord {
            member: member.clone(),
            gone: Gone::default(),
        },
    )?;
    events::record_member(cx, &member, EventKind::MemberAdded)?;
    super::refresh_members(cx, project)?;
    Ok(member)
}

fn load_live<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<MemberRecord> {
    shown::load_shown::<MemberRecord, _>(cx, id)?.ok_or(Error::NotFound)
}

/// `GET /project_members/{id}`.
pub(crate) fn get<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<ProjectMember> {
    Ok(load_live(cx, id)?.member)
}

/// `PATCH /project_members/{id}`: the role alone.
pub(crate) fn change(
    cx: &mut WriteCx<'_>,
    id: Id,
    input: &ProjectMemberInput,
) -> Result<ProjectMember> {
    let before = load_live(cx, id)?;
    let mut details = Details::new();
    let role = check_role(&mut details, &input.role);
    details.into_validation()?;
    let mut after = before.clone();
    if let Some(role) = role {
        after.member.role = role;
    }
    if after == before {
        return Ok(after.member);
    }
    after.member.updated_at = cx.now();
    shown::replace(cx, &before, &after)?;
    super::refresh_members(cx, after.member.project_id)?;
    Ok(after.member)
}

/// `DELETE /project_members/{id}`: permanent, with its deletion record and
/// a `member_removed` event.
pub(crate) fn delete(cx: &mut WriteCx<'_>, id: Id) -> Result<()> {
    let row = load_live(cx, id)?;
    shown::remove(cx, &row)?;
    deletions::record(cx, KIND.name, id)?;
    events::record_member(cx, &row.member, EventKind::MemberRemoved)?;
    super::refresh_members(cx, row.member.project_id)
}

/// `GET /project_members` parameters.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProjectMemberQuery {
    /// Members of this project.
    pub project_id: Option<Id>,
    /// Memberships of this person.
    pub person_id: Option<Id>,
    /// `id` (default), `created_at`, `updated_at`; direction,
    /// updated_since, cursor, limit, count.
    pub params: ListParams,
}

impl ProjectMemberQuery {
    /// The query's parameters, as [`ProjectMemberQuery::parse`] reads them.
    pub(crate) fn query_pairs(&self) -> Vec<(&'static str, String)> {
        let mut pairs = self.params.query_pairs();
        if let Some(id) = self.project_id {
            pairs.push(("project_id", id.to_string()));
        }
        if let Some(id) = self.person_id {
            pairs.push(("person_id", id.to_string()));
        }
        pairs
    }

    pub(crate) fn parse(query: &Query) -> Result<ProjectMemberQuery> {
        Ok(ProjectMemberQuery {
            params: LISTING.params(query)?,
            project_id: query.id("project_id")?,
            person_id: query.id("person_id")?,
        })
    }
}

/// The orders of a member listing over its id and updated indexes.
const fn listing(name: &'static str, by_id: Tbl, by_updated: &'static Order) -> Listing {
    Listing {
        name,
        orders: &[],
        updated: Some(by_updated),
        every: by_id,
    }
}

macro_rules! member_listing {
    ($name:ident, $updated:ident, $by_id:expr, $by_updated:expr) => {
        const $updated: Order = Order {
            name: "updated_at",
            index: $by_updated,
            direction: Direction::Asc,
        };
        static $name: Listing = Listing {
            orders: &[
                Order {
                    name: "id",
                    index: $by_id,
                    direction: Direction::Asc,
                },
                Order {
                    name: "created_at",
                    index: $by_id,
                    direction: Direction::Asc,
                },
                $updated,
            ],
            ..listing("project_members", $by_id, &$updated)
        };
    };
}

member_listing!(LISTING, UPDATED, MEMBERS_LIVE, MEMBERS_BY_UPDATED);
member_listing!(
    OF_PROJECT,
    OF_PROJECT_UPDATED,
    MEMBERS_OF_PROJECT,
    MEMBERS_OF_PROJECT_BY_UPDATED
);
member_listing!(
    OF_PERSON,
    OF_PERSON_UPDATED,
    MEMBERS_OF_PERSON,
    MEMBERS_OF_PERSON_BY_UPDATED
);

/// `GET /project_members`: shown members; a project filter walks the
/// project's indexes (and keeps the person's members when both are sent),
/// a person filter the person's.
pub(crate) fn list<T: Tables>(
    cx: &Cx<'_, T>,
    q: &ProjectMemberQuery,
) -> Result<Page<ProjectMember>> {
    let only_person = q.project_id.and(q.person_id);
    let load = |k: &[u8]| {
        Ok(shown::load_shown::<MemberRecord, _>(cx, tail_id(k))?
            .map(|r| r.member)
            .filter(|m| only_person.is_none_or(|p| m.person_id == p)))
    };
    let secret = &cx.org.secret;
    match (q.project_id, q.person_id) {
        (Some(project), person) => {
            let mut filter =
                Filter::prefix(Key::new().id(project), format!("project_id={project}"));
            if let Some(person) = person {
                filter = filter.skipping(&format!("person_id={person}"));
            }
            OF_PROJECT.page(&cx.tx, secret, &q.params, &filter, load)
        }
        (None, Some(person)) => {
            let filter = Filter::prefix(Key::new().id(person), format!("person_id={person}"));
            OF_PERSON.page(&cx.tx, secret, &q.params, &filter, load)
        }
        (None, None) => LISTING.page(&cx.tx, secret, &q.params, &Filter::default(), load),
    }
}
