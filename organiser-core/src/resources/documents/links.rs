//! Document links (document 3, "DocumentLink"; DESIGN.md's
//! `/document_links`): a document linked to one note, project, task or
//! person. A link shows while its document and its target are live, so a
//! target's delete and restoration hide and show it without touching it;
//! a document's links of a kind are replaced through the document too.

use jiff::Timestamp;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::tables::{LINKS, LINKS_BY_DOCUMENT, LINKS_BY_TARGET};
use crate::engine::{Cx, WriteCx};
use crate::error::{Details, Error, Result};
use crate::ids::Id;
use crate::input::{Field, record};
use crate::list::{Direction, Filter, ListParams, Listing, Order, Page, Query};
use crate::resources::{notes, people, projects, tasks};
use crate::store::Tables;
use crate::store::codec::{self, Record};
use crate::store::key::{Key, tail_id};

/// What a link points at, in the order links are shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub(crate) enum Target {
    Note,
    Project,
    Task,
    Person,
}

impl Target {
    const ALL: [Target; 4] = [Target::Note, Target::Project, Target::Task, Target::Person];

    fn tag(self) -> u8 {
        self as u8 + 1
    }

    /// The target of the record kind named `kind` ([`RecordKind::name`]).
    ///
    /// [`RecordKind::name`]: crate::engine::kinds::RecordKind::name
    pub(crate) fn of_kind(kind: &str) -> Option<Target> {
        Some(match kind {
            "note" => Target::Note,
            "project" => Target::Project,
            "task" => Target::Task,
            "person" => Target::Person,
            _ => return None,
        })
    }

    /// The link's field naming it.
    pub(crate) fn field(self) -> &'static str {
        match self {
            Target::Note => "note_id",
            Target::Project => "project_id",
            Target::Task => "task_id",
            Target::Person => "person_id",
        }
    }

    /// The document's field listing them.
    pub(crate) fn field_ids(self) -> &'static str {
        match self {
            Target::Note => "note_ids",
            Target::Project => "project_ids",
            Target::Task => "task_ids",
            Target::Person => "person_ids",
        }
    }
}

/// Whether `id` is a live record of `kind` (a task in a deleted list,
/// person or project is deleted with it).
pub(crate) fn target_live<T: Tables>(cx: &Cx<'_, T>, kind: Target, id: Id) -> Result<bool> {
    match kind {
        Target::Note => notes::is_live(cx, id),
        Target::Project => projects::exists(cx, id),
        Target::Task => Ok(tasks::load_live(cx, id).is_ok()),
        Target::Person => people::exists(cx, id),
    }
}

/// A link as the API shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DocumentLink {
    /// ID.
    pub id: Id,
    /// The document.
    pub document_id: Id,
    /// The note, when it links one.
    pub note_id: Option<Id>,
    /// The project, when it links one.
    pub project_id: Option<Id>,
    /// The task, when it links one.
    pub task_id: Option<Id>,
    /// The person, when it links one.
    pub person_id: Option<Id>,
    /// When it was made.
    #[serde(with = "crate::time::serde_timestamp")]
    pub created_at: Timestamp,
}

/// A link as its document shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LinkBrief {
    /// The link's ID.
    pub id: Id,
    /// The note, when it links one.
    pub note_id: Option<Id>,
    /// The project, when it links one.
    pub project_id: Option<Id>,
    /// The task, when it links one.
    pub task_id: Option<Id>,
    /// The person, when it links one.
    pub person_id: Option<Id>,
}

/// A stored link.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct StoredLink {
    pub(crate) id: Id,
    pub(crate) document_id: Id,
    pub(crate) target: Target,
    pub(crate) target_id: Id,
    #[serde(with = "codec::instant")]
    pub(crate) created_at: Timestamp,
}

impl Record for StoredLink {
    const NAME: &'static str = "document link";
    const FORMAT: u8 = 1;
}

impl StoredLink {
    /// The target a link as its document shows it names, when it names
    /// exactly one.
    pub(super) fn target_of(brief: &LinkBrief) -> Option<(Target, Id)> {
        let named: Vec<(Target, Id)> = Target::ALL
            .into_iter()
            .zip([
                brief.note_id,
                brief.project_id,
                brief.task_id,
                brief.person_id,
            ])
            .filter_map(|(kind, id)| id.map(|id| (kind, id)))
            .collect();
        match named.as_slice() {
            [one] => Some(*one),
            _ => None,
        }
    }

    fn ids(&self) -> [Option<Id>; 4] {
        let mut ids = [None; 4];
        ids[self.target as usize] = Some(self.target_id);
        ids
    }

    pub(crate) fn brief(&self) -> LinkBrief {
        let [note_id, project_id, task_id, person_id] = self.ids();
        LinkBrief {
            id: self.id,
            note_id,
            project_id,
            task_id,
            person_id,
        }
    }

    fn api(&self) -> DocumentLink {
        let [note_id, project_id, task_id, person_id] = self.ids();
        DocumentLink {
            id: self.id,
            document_id: self.document_id,
            note_id,
            project_id,
            task_id,
            person_id,
            created_at: self.created_at,
        }
    }

    fn entries(&self) -> [(crate::store::Tbl, Key); 2] {
        [
            (
                LINKS_BY_DOCUMENT,
                Key::new()
                    .id(self.document_id)
                    .tag(self.target.tag())
                    .id(self.id),
            ),
            (
                LINKS_BY_TARGET,
                Key::new()
                    .tag(self.target.tag())
                    .id(self.target_id)
                    .id(self.id),
            ),
        ]
    }
}

/// The stored link `id`.
pub(super) fn load<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<Option<StoredLink>> {
    cx.get_record(LINKS, &id.to_bytes())
}

fn ids_under<T: Tables>(cx: &Cx<'_, T>, table: crate::store::Tbl, prefix: Key) -> Result<Vec<Id>> {
    cx.ids_under(table, prefix.as_slice())
}

/// Every stored link of document `doc`, in the order shown.
pub(super) fn links_of<T: Tables>(cx: &Cx<'_, T>, doc: Id) -> Result<Vec<StoredLink>> {
    let mut links = Vec::new();
    for id in ids_under(cx, LINKS_BY_DOCUMENT, Key::new().id(doc))? {
        if let Some(l) = load(cx, id)? {
            links.push(l);
        }
    }
    Ok(links)
}

/// The links of document `doc` whose targets are live.
pub(crate) fn live_links_of<T: Tables>(cx: &Cx<'_, T>, doc: Id) -> Result<Vec<StoredLink>> {
    let mut live = Vec::new();
    for l in links_of(cx, doc)? {
        if target_live(cx, l.target, l.target_id)? {
            live.push(l);
        }
    }
    Ok(live)
}

fn insert(cx: &WriteCx<'_>, doc: Id, target: Target, target_id: Id) -> Result<StoredLink> {
    let link = StoredLink {
        id: cx.new_id(),
        document_id: doc,
        target,
        target_id,
        created_at: cx.now(),
    };
    put_as_is(cx, &link)?;
    if target == Target::Task {
        refresh_task(cx, target_id)?;
    }
    Ok(link)
}

/// Writes `link` as it is (an import's), with its index entries: the
/// task it names is not told (its own line says `has_documents`).
pub(super) fn put_as_is(cx: &WriteCx<'_>, link: &StoredLink) -> Result<()> {
    cx.set_indexes(&link.entries(), true)?;
    cx.put_record(LINKS, &link.id.to_bytes(), link)
}

/// Removes `link` and its index entries as an import does: the task it
/// names is not told.
pub(super) fn remove_as_is(cx: &WriteCx<'_>, link: &StoredLink) -> Result<()> {
    cx.set_indexes(&link.entries(), false)?;
    cx.remove(LINKS, &link.id.to_bytes())?;
    Ok(())
}

fn remove(cx: &WriteCx<'_>, link: &StoredLink) -> Result<()> {
    remove_as_is(cx, link)?;
    if link.target == Target::Task {
        refresh_task(cx, link.target_id)?;
    }
    Ok(())
}

/// Task `id`'s `has_documents` as its links are now.
fn refresh_task(cx: &WriteCx<'_>, id: Id) -> Result<()> {
    tasks::set_has_documents(cx, id, has_live_documents(cx, Target::Task, id)?)
}

/// Whether a live document is linked to `target_id` of `kind`.
pub(crate) fn has_live_documents<T: Tables>(
    cx: &Cx<'_, T>,
    kind: Target,
    target_id: Id,
) -> Result<bool> {
    for id in ids_under(
        cx,
        LINKS_BY_TARGET,
        Key::new().tag(kind.tag()).id(target_id),
    )? {
        if let Some(l) = load(cx, id)?
            && super::is_live(cx, l.document_id)?
        {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Makes the live documents linked to `target_id` of `kind` exactly
/// `docs` (a task's `document_ids`); each document linked or unlinked
/// gets a new `updated_at`.
pub(crate) fn set_for_target(
    cx: &WriteCx<'_>,
    kind: Target,
    target_id: Id,
    docs: &[Id],
) -> Result<()> {
    let mut current = Vec::new();
    for id in ids_under(
        cx,
        LINKS_BY_TARGET,
        Key::new().tag(kind.tag()).id(target_id),
    )? {
        if let Some(l) = load(cx, id)? {
            current.push(l);
        }
    }
    for l in &current {
        if !docs.contains(&l.document_id) && super::is_live(cx, l.document_id)? {
            remove(cx, l)?;
            super::touch(cx, l.document_id)?;
        }
    }
    let mut linked: Vec<Id> = current.iter().map(|l| l.document_id).collect();
    for &doc in docs {
        if !linked.contains(&doc) {
            insert(cx, doc, kind, target_id)?;
            super::touch(cx, doc)?;
            linked.push(doc);
        }
    }
    Ok(())
}

/// The tasks document `doc` links (its delete or restoration changes
/// their `has_documents`).
pub(crate) fn refresh_tasks_of(cx: &WriteCx<'_>, doc: Id) -> Result<()> {
    for l in links_of(cx, doc)? {
        if l.target == Target::Task {
            refresh_task(cx, l.target_id)?;
        }
    }
    Ok(())
}

/// Makes document `doc`'s links of `kind` exactly `ids`; whether any
/// changed.
pub(crate) fn set_kind(cx: &WriteCx<'_>, doc: Id, kind: Target, ids: &[Id]) -> Result<bool> {
    let mut changed = false;
    let current: Vec<StoredLink> = links_of(cx, doc)?
        .into_iter()
        .filter(|l| l.target == kind)
        .collect();
    for l in &current {
        if !ids.contains(&l.target_id) {
            remove(cx, l)?;
            changed = true;
        }
    }
    for &id in ids {
        if !current.iter().any(|l| l.target_id == id) {
            insert(cx, doc, kind, id)?;
            changed = true;
        }
    }
    Ok(changed)
}

/// Removes every link of document `doc` (its delete became permanent).
pub(crate) fn remove_all_of(cx: &WriteCx<'_>, doc: Id) -> Result<()> {
    for l in links_of(cx, doc)? {
        remove(cx, &l)?;
    }
    Ok(())
}

/// The live documents linked to `target_id` of `kind`, with each link's
/// creation (a project's activity).
pub(crate) fn documents_linked<T: Tables>(
    cx: &Cx<'_, T>,
    kind: Target,
    target_id: Id,
) -> Result<Vec<(Timestamp, Id, super::Document)>> {
    let mut found = Vec::new();
    for id in ids_under(
        cx,
        LINKS_BY_TARGET,
        Key::new().tag(kind.tag()).id(target_id),
    )? {
        if let Some(l) = load(cx, id)?
            && super::is_live(cx, l.document_id)?
        {
            found.push((l.created_at, l.id, super::get(cx, l.document_id)?));
        }
    }
    Ok(found)
}

/// A linked record was deleted or restored (`gone` false), or its delete
/// became permanent (`gone` true, its links removed): the documents linked
/// to it get a new `updated_at`.
pub(crate) fn target_changed(cx: &WriteCx<'_>, kind: Target, id: Id, gone: bool) -> Result<()> {
    for link in ids_under(cx, LINKS_BY_TARGET, Key::new().tag(kind.tag()).id(id))? {
        let Some(l) = load(cx, link)? else {
            continue;
        };
        if gone {
            remove(cx, &l)?;
        }
        super::touch(cx, l.document_id)?;
    }
    Ok(())
}

/// `{document_link: {document_id, note_id | project_id | task_id |
/// person_id}}`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct DocumentLinkInput {
    /// The document.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub document_id: Field<Id>,
    /// The targets; exactly one must be sent.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub note_id: Field<Id>,
    /// A project.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub project_id: Field<Id>,
    /// A task.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub task_id: Field<Id>,
    /// A person.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub person_id: Field<Id>,
}

pub(crate) fn parse(body: Option<&Value>) -> Result<DocumentLinkInput> {
    let mut f = record(body, "document_link")?;
    let input = DocumentLinkInput {
        document_id: f.id("document_id"),
        note_id: f.id("note_id"),
        project_id: f.id("project_id"),
        task_id: f.id("task_id"),
        person_id: f.id("person_id"),
    };
    f.finish()?;
    Ok(input)
}

/// `POST /document_links`.
pub(crate) fn create(cx: &mut WriteCx<'_>, input: &DocumentLinkInput) -> Result<DocumentLink> {
    let mut details = Details::new();
    let doc = match &input.document_id {
        Field::Value(d) if super::is_live(cx, *d)? => Some(*d),
        Field::Value(_) => {
            details.add("document_id", "does not exist");
            None
        }
        _ => {
            details.add("document_id", "can't be blank");
            None
        }
    };
    let sent: Vec<(Target, Id)> = Target::ALL
        .into_iter()
        .zip([
            &input.note_id,
            &input.project_id,
            &input.task_id,
            &input.person_id,
        ])
        .filter_map(|(kind, f)| f.clone().value().map(|id| (kind, id)))
        .collect();
    let target = match sent.as_slice() {
        [(kind, id)] => {
            if !target_live(cx, *kind, *id)? {
                details.add(kind.field(), "does not exist");
            }
            Some((*kind, *id))
        }
        [] => {
            details.add(
                "base",
                "send one of note_id, project_id, task_id, person_id",
            );
            None
        }
        _ => {
            details.add(
                "base",
                "a link has one target: send only one of note_id, project_id, task_id, person_id",
            );
            None
        }
    };
    if let (Some(doc), Some((kind, id))) = (doc, target)
        && links_of(cx, doc)?
            .iter()
            .any(|l| l.target == kind && l.target_id == id)
    {
        details.add("base", "the document is already linked to it");
    }
    details.into_validation()?;
    let (Some(doc), Some((kind, id))) = (doc, target) else {
        return Err(Error::invalid("base", "can't be blank"));
    };
    let link = insert(cx, doc, kind, id)?;
    super::touch(cx, doc)?;
    Ok(link.api())
}

/// `DELETE /document_links/{id}`: permanent; the document gets a new
/// `updated_at`.
pub(crate) fn delete(cx: &mut WriteCx<'_>, id: Id) -> Result<()> {
    let link = load(cx, id)?.ok_or(Error::NotFound)?;
    if !super::is_live(cx, link.document_id)? || !target_live(cx, link.target, link.target_id)? {
        return Err(Error::NotFound);
    }
    remove(cx, &link)?;
    super::touch(cx, link.document_id)
}

/// `GET /document_links` parameters.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DocumentLinkQuery {
    /// Only this document's links.
    pub document_id: Option<Id>,
    /// Only links to this record (at most one of the four).
    pub target: Option<(String, Id)>,
    /// `id` order; cursor, limit, count.
    pub params: ListParams,
}

impl DocumentLinkQuery {
    /// The query's parameters, as [`DocumentLinkQuery::parse`] reads them.
    pub(crate) fn query_pairs(&self) -> Vec<(&'static str, String)> {
        let mut pairs = self.params.query_pairs();
        if let Some(id) = self.document_id {
            pairs.push(("document_id", id.to_string()));
        }
        if let Some((field, id)) = &self.target
            && let Some(kind) = Target::ALL.into_iter().find(|k| k.field() == field)
        {
            pairs.push((kind.field(), id.to_string()));
        }
        pairs
    }

    pub(crate) fn parse(query: &Query) -> Result<DocumentLinkQuery> {
        let mut target = None;
        for kind in Target::ALL {
            if let Some(id) = query.id(kind.field())? {
                target = Some((kind.field().to_owned(), id));
            }
        }
        let params = LISTING.params(query)?;
        if params.updated_since.is_some() {
            return Err(Error::bad_param(
                "updated_since",
                "is not accepted by this list (links are not synced)",
            ));
        }
        Ok(DocumentLinkQuery {
            document_id: query.id("document_id")?,
            target,
            params,
        })
    }
}

static LISTING: Listing = Listing {
    name: "document_links",
    orders: &[Order {
        name: "id",
        index: LINKS,
        direction: Direction::Asc,
    }],
    updated: None,
    every: LINKS,
};

/// The same listing over one target's links: (target kind, target, link
/// id) keys, so within a target the `id` order.
static BY_TARGET: Listing = Listing {
    name: "document_links",
    orders: &[Order {
        name: "id",
        index: LINKS_BY_TARGET,
        direction: Direction::Asc,
    }],
    updated: None,
    every: LINKS,
};

/// `GET /document_links`: links whose document and target are live. A
/// target filter walks that target's links only.
pub(crate) fn list<T: Tables>(cx: &Cx<'_, T>, q: &DocumentLinkQuery) -> Result<Page<DocumentLink>> {
    let load = |k: &[u8]| {
        let Some(l) = load(cx, tail_id(k))? else {
            return Ok(None);
        };
        let wanted = q.document_id.is_none_or(|d| l.document_id == d);
        if wanted && super::is_live(cx, l.document_id)? && target_live(cx, l.target, l.target_id)? {
            Ok(Some(l.api()))
        } else {
            Ok(None)
        }
    };
    let target = q.target.as_ref().and_then(|(field, id)| {
        Target::ALL
            .into_iter()
            .find(|kind| kind.field() == field)
            .map(|kind| (kind, *id))
    });
    match (target, &q.target) {
        (Some((kind, id)), _) => {
            let filter = Filter::prefix(
                Key::new().tag(kind.tag()).id(id),
                format!("{}={id}", kind.field()),
            )
            .skipping(&format!("{:?}", q.document_id));
            BY_TARGET.page(&cx.tx, &cx.org.secret, &q.params, &filter, load)
        }
        // A target field no link has: nothing.
        (None, Some(_)) => Ok(Page {
            items: Vec::new(),
            next_cursor: None,
            limit: q.params.limit,
            total_count: q.params.count.then_some(0),
        }),
        (None, None) => {
            let filter = Filter::default().skipping(&format!("{:?}", q.document_id));
            LISTING.page(&cx.tx, &cx.org.secret, &q.params, &filter, load)
        }
    }
}
