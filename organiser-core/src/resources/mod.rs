//! The resources and their registry: every resource of the API (one folder
//! each: its records, parsing, operations and their typed door), every
//! operation (the dispatch by declared route), and the registry of record
//! kinds (document 1, "Deletion", "Deletions (sync)"): every kind of record
//! the store holds, with its deletion `type`, restore window, purge,
//! liveness and rules of the clock, every cascade of a delete, every
//! follower, and the store's migration steps. The engine is wired to it at
//! open.
//!
//! Outside the resource's own folder, adding a resource touches this file
//! (its `mod` line and the flat names the core uses, its line in
//! [`OPERATIONS`] with its `openapi.json`, its kinds in [`KINDS`], its
//! cascades in [`CASCADES`], followers in [`FOLLOWERS`], jobs in [`JOBS`],
//! its tables in [`TABLES`] and a migration step) and its public module in
//! `lib.rs`: ARCHITECTURE.md, "How to add a resource".

pub(crate) mod account;
pub(crate) mod ai;
pub(crate) mod backups;
pub(crate) mod calendar;
pub(crate) mod calendar_feeds;
pub(crate) mod calendar_subscriptions;
pub(crate) mod categories;
pub(crate) mod deletions;
pub(crate) mod discovery;
pub(crate) mod documents;
pub(crate) mod folders;
pub(crate) mod licence;
pub(crate) mod notes;
pub(crate) mod notices;
pub(crate) mod openapi;
pub(crate) mod people;
pub(crate) mod person_links;
pub(crate) mod person_overview;
pub(crate) mod project_activity;
pub(crate) mod projects;
pub(crate) mod reminders;
pub(crate) mod search;
pub(crate) mod system;
pub(crate) mod tags;
pub(crate) mod task_lists;
pub(crate) mod tasks;
pub(crate) mod transfer;
pub(crate) mod uploads;
pub(crate) mod vocabulary;

pub(crate) use account::owner;
// The flat names the core's own modules use (`crate::Task`); the public
// paths are the modules of the crate root.
#[allow(unused_imports)]
pub(crate) use account::{
    Account, ApiTokenInput, Appearance, AppearanceChange, Me, NewToken, OwnerChange, OwnerInit,
    PasswordChange, SignedIn, UsernameChange,
};
#[allow(unused_imports)]
pub(crate) use ai::{
    AddedModels, Ai, AiModel, AiModelInput, AiModelQuery, AiProvider, AiProviderInput,
    AiProviderQuery, AiTask, AiTaskInput, AiTaskQueue, Backfilled, ModelAdditions, ModelCount,
    ModelList, ProviderTest, TrialInput, TrialReply,
};
#[allow(unused_imports)]
pub(crate) use calendar::{
    Calendar, CalendarQuery, CalendarRange, Meetings, MeetingsQuery, ProjectDate,
};
#[allow(unused_imports)]
pub(crate) use calendar_feeds::{
    CalendarAttendee, CalendarEvent, CalendarFeed, CalendarFeedInput, CalendarFeedQuery,
    CalendarFeeds, GuessedZone, Meeting, SyncError, SyncWarnings,
};
#[allow(unused_imports)]
pub(crate) use categories::{Categories, Category, CategoryChoices, CategoryInput, CategoryQuery};
#[allow(unused_imports)]
pub(crate) use deletions::{Deletion, DeletionQuery, Deletions};
#[allow(unused_imports)]
pub(crate) use discovery::Discovery;
#[allow(unused_imports)]
pub(crate) use documents::{
    Document, DocumentFile, DocumentInput, DocumentLink, DocumentLinkInput, DocumentLinkQuery,
    DocumentQuery, Documents, FolderCount, LinkBrief,
};
#[allow(unused_imports)]
pub(crate) use folders::{Folder, FolderInput, FolderQuery, Folders};
#[allow(unused_imports)]
pub(crate) use licence::{
    Licence, LicenceKeyPayload, LicenceProblem, LicenceState, Licensee, Licensing,
    sign_key as sign_licence_key,
};
#[allow(unused_imports)]
pub(crate) use notes::{CategoryNoteCount, Note, NoteInput, NoteQuery, NoteSummary, Notes};
#[allow(unused_imports)]
pub(crate) use notices::{LicenceText, NoticeGroup, NoticePackage, Notices, notices};
pub use openapi::{OPENAPI, Unwritable, openapi_document};
#[allow(unused_imports)]
pub(crate) use people::{
    Avatar, Company, CompanyQuery, Connection, EmailAddress, KeyDate, People, Person, PersonBrief,
    PersonInput, PersonQuery, PhoneNumber, Position, SocialProfile, UpcomingKeyDate,
    UpcomingKeyDates, UpcomingMeta, UpcomingQuery,
};
#[allow(unused_imports)]
pub(crate) use person_links::{PersonLink, PersonLinkInput, PersonLinkQuery, PersonLinks};
#[allow(unused_imports)]
pub(crate) use person_overview::{Excerpt, PersonOverview, PersonOverviews};
#[allow(unused_imports)]
pub(crate) use project_activity::{ActivityEntry, ActivityQuery, ProjectActivity};
#[allow(unused_imports)]
pub(crate) use projects::{
    EventKind, MemberBrief, Project, ProjectEvent, ProjectEventQuery, ProjectInput, ProjectMember,
    ProjectMemberInput, ProjectMemberQuery, ProjectQuery, ProjectStatus, Projects,
    UpcomingDeadline, UpcomingDeadlinesQuery,
};
#[allow(unused_imports)]
pub(crate) use search::{
    Leading, Search, SearchGroup, SearchPlan, SearchQuery, SearchResult, SearchType,
};
#[allow(unused_imports)]
pub(crate) use system::{
    Manifest, ManifestRelease, SignedManifest, System, SystemChange, SystemSettings, UpdateInfo,
    UpdateStatus,
};
#[allow(unused_imports)]
pub(crate) use tags::{Tag, TagInput, TagMerge, TagQuery, Tags};
#[allow(unused_imports)]
pub(crate) use task_lists::{TaskList, TaskListInput, TaskListQuery, TaskLists};
#[allow(unused_imports)]
pub(crate) use tasks::{
    Home, PageCounts, ProjectTaskCount, Task, TaskCounts, TaskCountsQuery, TaskInput,
    TaskListCount, TaskOrder, TaskQuery, TaskStatus, Tasks, View,
};
#[allow(unused_imports)]
pub(crate) use uploads::{Upload, UploadKind, UploadParams, Uploads};
#[allow(unused_imports)]
pub(crate) use vocabulary::{
    CalendarSourceChoice, Choice, ContactLabels, FrequencyChoice, IconChoice, LabelChoices,
    PersonLinkChoice, ProjectStatusChoice, RelationshipChoice, TextLimits, Tone, UploadRule,
    UploadRules, Vocabulary, vocabulary,
};

use std::collections::HashMap;
use std::sync::LazyLock;

use crate::engine::endpoint::Endpoint;
use crate::engine::jobs::Job;
use crate::engine::kinds::{Cascade, Follower, RecordKind, Wiring};
use crate::engine::op::Route;
use crate::engine::operation::Declared;
use crate::engine::request::{Method, Request};
use crate::error::{Error, Result};
use crate::limits::routes::RouteLimit;
use crate::list::Query;
use crate::settle;
use crate::store::Tbl;
use crate::store::schema::{self, Step};

/// Every operation, declared as one value ([`Operation`]) in its
/// resource's folder, by resource. A request goes to the operation whose
/// route it is (a literal segment before a `{…}` one); a view over other
/// resources may declare a route under another's segment (`calendar`
/// serves `/people/{id}/meetings`), so that a resource never depends on
/// the views built on it. The tests hold the dispatch, the property
/// tests' route table and `docs/openapi.json` to the declarations.
///
/// [`Operation`]: crate::engine::operation::Operation
static OPERATIONS: &[(&[&dyn Declared], &str)] = &[
    (search::OPERATIONS, include_str!("search/openapi.json")),
    (account::OPERATIONS, include_str!("account/openapi.json")),
    (ai::OPERATIONS, include_str!("ai/openapi.json")),
    (system::OPERATIONS, include_str!("system/openapi.json")),
    (backups::OPERATIONS, include_str!("backups/openapi.json")),
    (licence::OPERATIONS, include_str!("licence/openapi.json")),
    (
        vocabulary::OPERATIONS,
        include_str!("vocabulary/openapi.json"),
    ),
    (notices::OPERATIONS, include_str!("notices/openapi.json")),
    (openapi::OPERATIONS, include_str!("openapi/operations.json")),
    (
        discovery::OPERATIONS,
        include_str!("discovery.openapi.json"),
    ),
    (
        deletions::OPERATIONS,
        include_str!("deletions.openapi.json"),
    ),
    (
        calendar_feeds::OPERATIONS,
        include_str!("calendar_feeds/openapi.json"),
    ),
    (calendar::OPERATIONS, include_str!("calendar/openapi.json")),
    (
        calendar_subscriptions::OPERATIONS,
        include_str!("calendar_subscriptions/openapi.json"),
    ),
    (
        reminders::OPERATIONS,
        include_str!("reminders/openapi.json"),
    ),
    (
        person_overview::OPERATIONS,
        include_str!("person_overview/openapi.json"),
    ),
    (people::OPERATIONS, include_str!("people/openapi.json")),
    (uploads::OPERATIONS, include_str!("uploads/openapi.json")),
    (projects::OPERATIONS, include_str!("projects/openapi.json")),
    (
        project_activity::OPERATIONS,
        include_str!("project_activity/openapi.json"),
    ),
    (
        documents::OPERATIONS,
        include_str!("documents/openapi.json"),
    ),
    (folders::OPERATIONS, include_str!("folders/openapi.json")),
    (notes::OPERATIONS, include_str!("notes/openapi.json")),
    (
        categories::OPERATIONS,
        include_str!("categories/openapi.json"),
    ),
    (tags::OPERATIONS, include_str!("tags/openapi.json")),
    (
        person_links::OPERATIONS,
        include_str!("person_links/openapi.json"),
    ),
    (
        task_lists::OPERATIONS,
        include_str!("task_lists/openapi.json"),
    ),
    (tasks::OPERATIONS, include_str!("tasks/openapi.json")),
    (transfer::OPERATIONS, include_str!("transfer/openapi.json")),
];

/// Every resource's declared operations, with what its `openapi.json`
/// says of them beyond their declarations (for the OpenAPI document).
pub(crate) fn documented() -> impl Iterator<Item = (&'static [&'static dyn Declared], &'static str)>
{
    OPERATIONS.iter().copied()
}

/// Every declared operation.
pub(crate) fn operations() -> impl Iterator<Item = &'static dyn Declared> {
    OPERATIONS.iter().flat_map(|(ops, _)| ops.iter().copied())
}

/// The operation declared for `method` and `segments`: of those whose
/// template matches, the one with the most literal segments.
fn operation(method: Method, segments: &[&str]) -> Option<&'static dyn Declared> {
    /// A route: its method, its template's segments (`None` for a
    /// `{…}`), and its operation.
    type Declaring = (Method, Vec<Option<&'static str>>, &'static dyn Declared);
    /// The routes under each first segment, most literal segments first
    /// (`/ai_providers/test` before `/ai_providers/{id}`).
    static BY_FIRST_SEGMENT: LazyLock<HashMap<&str, Vec<Declaring>>> = LazyLock::new(|| {
        let mut map: HashMap<&str, Vec<Declaring>> = HashMap::new();
        for op in operations() {
            for e in op.endpoints() {
                let template = e
                    .path
                    .split('/')
                    .filter(|s| !s.is_empty())
                    .map(|s| (!s.starts_with('{')).then_some(s))
                    .collect();
                map.entry(e.first_segment())
                    .or_default()
                    .push((e.method, template, op));
            }
        }
        for routes in map.values_mut() {
            routes.sort_by_key(|(_, t, _)| std::cmp::Reverse(t.iter().flatten().count()));
        }
        map
    });
    BY_FIRST_SEGMENT
        .get(segments.first().copied().unwrap_or(""))?
        .iter()
        .find(|(m, template, _)| {
            *m == method
                && template.len() == segments.len()
                && template
                    .iter()
                    .zip(segments)
                    .all(|(t, s)| t.is_none_or(|t| t == *s))
        })
        .map(|(_, _, op)| *op)
}

/// The route of `req`: its operation's, handed every segment.
pub(crate) fn route<'r>(req: &'r Request, segments: &[&'r str]) -> Result<Route<'r>> {
    match operation(req.method, segments) {
        Some(op) => op.route(req, segments),
        None => Err(Error::NotFound),
    }
}

/// Whether the route of `method` and `path` (below `/api/v1`) takes a raw
/// body (the file's bytes) rather than JSON: `None` for a JSON route. For
/// a raw route, what it accepts (from its declaration) so the server can
/// answer 411, 413 and 415 before it reads the body, or the error to
/// answer at once: 401 without credentials, 400 for a malformed query.
/// The core checks the same again when the body arrives.
pub fn raw_body_rule(
    method: Method,
    path: &str,
    query: &Query,
    auth: &crate::Auth,
) -> Option<Result<UploadRule>> {
    let rule = declared_at(method, path, |op| op.raw_rule().is_some())?.raw_rule()?;
    if *auth == crate::Auth::Anonymous {
        return Some(Err(Error::Unauthorized));
    }
    Some(rule(query))
}

/// The limit on top of the general one that a request of `method` to
/// `path` (below `/api/v1`) counts against, if any: as its operation
/// declares.
pub fn route_limit(method: &str, path: &str) -> Option<&'static RouteLimit> {
    let method = Method::parse(method)?;
    declared_at(method, path, |op| op.limit().is_some())?.limit()
}

/// The operation of `method` and `path`, when it is one that `wanted`
/// picks: asked of every request by the server (raw bodies, route
/// limits), so the path is split without allocating.
fn declared_at(
    method: Method,
    path: &str,
    wanted: fn(&dyn Declared) -> bool,
) -> Option<&'static dyn Declared> {
    let (segments, n) = segments(path)?;
    operation(method, &segments[..n]).filter(|op| wanted(*op))
}

/// No route has more than a few segments: they are kept on the stack.
const MAX_SEGMENTS: usize = 6;

/// The non-empty segments of `path` and how many there are, without
/// allocating; `None` when there are more than any route has.
pub(crate) fn segments(path: &str) -> Option<([&str; MAX_SEGMENTS], usize)> {
    let mut segments = [""; MAX_SEGMENTS];
    let mut n = 0;
    for segment in path.split('/').filter(|s| !s.is_empty()) {
        *segments.get_mut(n)? = segment;
        n += 1;
    }
    Some((segments, n))
}

/// Checks a raw body's declared length and type against `rule`, as the
/// core checks the body itself: 413 past the kind's size, 415 for a type
/// it does not take.
pub fn check_raw_header(rule: UploadRule, content_type: &str, length: u64) -> Result<()> {
    uploads::check_header(rule, content_type, length)
}

/// Every route the core answers below `/api/v1` (HTTP adds `/session`,
/// discovery at the root and `/healthz`).
pub fn endpoints() -> impl Iterator<Item = Endpoint> {
    operations()
        .filter(|op| !op.at_root())
        .flat_map(|op| op.endpoints())
}

/// Every route the core answers at the server's root, outside `/api/v1`
/// (the calendar feed, `/ics/{secret}.ics`): a request for one is handed
/// over with [`Request::at_root`] set.
pub fn root_endpoints() -> impl Iterator<Item = Endpoint> {
    operations()
        .filter(|op| op.at_root())
        .flat_map(|op| op.endpoints())
}

/// Whether `path` (the whole path, not below `/api/v1`) is one the core
/// answers at the server's root, whatever the method.
pub fn serves_at_root(path: &str) -> bool {
    static ROOT: LazyLock<Vec<Endpoint>> = LazyLock::new(|| root_endpoints().collect());
    let Some((segments, n)) = segments(path) else {
        return false;
    };
    ROOT.iter().any(|e| e.matches(e.method, &segments[..n]))
}

/// `path` (whole, or below `/api/v1`) as a log line may show it: a path
/// that a route whose segments are secrets would match (a calendar
/// feed's address, even asked for where it is not served) is that
/// route's template (`/ics/{secret}.ics`); any other path as it is.
pub fn loggable_path(path: &str) -> std::borrow::Cow<'_, str> {
    // Asked of every request the server logs: the routes are read once.
    static SECRET: LazyLock<Vec<Endpoint>> = LazyLock::new(|| {
        operations()
            .filter(|op| op.secret_path())
            .flat_map(|op| op.endpoints())
            .collect()
    });
    let secret = segments(path)
        .and_then(|(segments, n)| SECRET.iter().find(|e| e.matches(e.method, &segments[..n])));
    std::borrow::Cow::Borrowed(secret.map_or(path, |e| e.path))
}

/// Every table: the core's, then each resource's.
pub(crate) static TABLES: &[&[Tbl]] = &[
    schema::CORE,
    account::tables::TABLES,
    task_lists::tables::TABLES,
    tasks::tables::TABLES,
    people::tables::TABLES,
    person_links::tables::TABLES,
    uploads::tables::TABLES,
    projects::tables::TABLES,
    notes::tables::TABLES,
    categories::tables::TABLES,
    tags::tables::TABLES,
    documents::tables::TABLES,
    folders::tables::TABLES,
    calendar_feeds::tables::TABLES,
    crate::search_index::tables::TABLES,
    ai::tables::TABLES,
    backups::tables::TABLES,
    transfer::tables::TABLES,
    calendar_subscriptions::tables::TABLES,
    reminders::tables::TABLES,
];

/// Every kind of record.
pub(crate) static KINDS: &[&RecordKind] = &[
    &task_lists::KIND,
    &tasks::KIND,
    &people::KIND,
    &person_links::KIND,
    &uploads::KIND,
    &projects::KIND,
    &projects::members::KIND,
    &projects::events::KIND,
    &tags::KIND,
    &categories::KIND,
    &notes::KIND,
    &folders::KIND,
    &documents::KIND,
    &calendar_feeds::KIND,
    &ai::PROVIDER_KIND,
    &ai::MODEL_KIND,
    &reminders::CHANNEL_KIND,
];

/// Every kind the organiser's archive holds (EXTENSIONS.md §5), in the
/// order an import writes them: what a record names before it (uploads
/// first, then homes, people and projects, then what refers to them).
pub(crate) static PORTABLE: &[&crate::portable::Portable] = &[
    &uploads::portable::PORTABLE,
    &task_lists::portable::PORTABLE,
    &people::portable::PORTABLE,
    &person_links::portable::PORTABLE,
    &projects::portable::PORTABLE,
    &projects::portable::MEMBERS_PORTABLE,
    &projects::portable::EVENTS_PORTABLE,
    &tasks::portable::PORTABLE,
    &tags::portable::PORTABLE,
    &categories::portable::PORTABLE,
    &notes::portable::PORTABLE,
    &folders::portable::PORTABLE,
    &documents::portable::PORTABLE,
    &calendar_feeds::portable::PORTABLE,
    &ai::portable::PROVIDER_PORTABLE,
    &ai::portable::MODEL_PORTABLE,
    &reminders::portable::PORTABLE,
];

/// Every cascade of a delete.
pub(crate) static CASCADES: &[&Cascade] = &[
    &tasks::LIST_CASCADE,
    &tasks::PERSON_CASCADE,
    &person_links::PERSON_CASCADE,
    &tasks::PROJECT_CASCADE,
    &projects::members::PROJECT_CASCADE,
    &projects::events::PROJECT_CASCADE,
    &projects::members::PERSON_CASCADE,
    &projects::events::PERSON_CASCADE,
];

/// Every follower, in the order each change is told: notes before
/// documents, as a document's `updated_at` follows its targets' changes.
pub(crate) static FOLLOWERS: &[&Follower] = &[
    &notes::FOLLOWS_PEOPLE,
    &notes::FOLLOWS_PROJECTS,
    &notes::FOLLOWS_TAGS,
    &notes::FOLLOWS_CATEGORIES,
    &documents::FOLLOWS_NOTES,
    &documents::FOLLOWS_PROJECTS,
    &documents::FOLLOWS_TASKS,
    &documents::FOLLOWS_PEOPLE,
    &documents::FOLLOWS_FOLDERS,
];

/// The background work a server runs, each declared by its resource.
pub(crate) static JOBS: &[Job] = &[
    account::TOKEN_USES,
    system::SCHEDULED_UPDATE_CHECK,
    calendar_feeds::SCHEDULED_SYNCS,
    ai::TITLES,
    backups::SCHEDULED_BACKUP,
    calendar_subscriptions::SUBSCRIPTION_READS,
    reminders::REMINDERS,
];

/// The store's migration steps: `MIGRATIONS[n]` brings a store of schema
/// `n` to `n + 1`: the schema this build writes is their number.
pub(crate) static MIGRATIONS: &[Step] = &[
    // 1: every table.
    |tx| schema::create_tables(tx, TABLES),
    // 2: completion counters by quarter hour (`completed_today`).
    tasks::count_stored_completions,
    // 3: compact records (postcard) and covering index values.
    |tx| {
        tasks::store_records_compactly(tx)?;
        task_lists::store_records_compactly(tx)
    },
    // 4: people, companies and person links.
    |tx| schema::create_tables(tx, &[people::tables::TABLES, person_links::tables::TABLES]),
    // 5: uploads.
    |tx| schema::create_tables(tx, &[uploads::tables::TABLES]),
    // 6: projects, their members and events.
    |tx| schema::create_tables(tx, &[projects::tables::TABLES]),
    // 7: notes, categories and tags.
    |tx| {
        schema::create_tables(
            tx,
            &[
                notes::tables::TABLES,
                categories::tables::TABLES,
                tags::tables::TABLES,
            ],
        )
    },
    // 8: documents, their links, and folders.
    |tx| schema::create_tables(tx, &[documents::tables::TABLES, folders::tables::TABLES]),
    // 9: calendar feeds; completed tasks and open projects' starts by
    // date, people by email and name (the calendar's indexes).
    |tx| {
        schema::create_tables(tx, &[calendar_feeds::tables::TABLES])?;
        schema::create_tables(
            tx,
            &[
                tasks::tables::TABLES,
                projects::tables::TABLES,
                people::tables::TABLES,
            ],
        )?;
        tasks::index_completed_deadlines(tx)?;
        projects::index_open_starts(tx)?;
        people::index_for_matching(tx)
    },
    // 10: the search index (built from the records when the store next
    // opens), in place of the notes' and documents' word indexes.
    |tx| {
        schema::create_tables(tx, &[crate::search_index::tables::TABLES])?;
        tx.drop_table("note_words")?;
        tx.drop_table("document_words")
    },
    // 11: AI providers, models and tasks, and the note-titles queue with
    // the untitled notes a backfill would queue.
    |tx| {
        schema::create_tables(tx, &[ai::tables::TABLES])?;
        ai::census(tx)
    },
    // 12: calendar feeds with what their last sync left out or guessed.
    calendar_feeds::store_feeds_with_warnings,
    // 13: tasks by the people their descriptions mention.
    |tx| {
        schema::create_tables(tx, &[tasks::tables::TABLES])?;
        tasks::mentions::index_stored(tx)
    },
    // 14: repeating tasks: task records of format 2, the open occurrence
    // of each series.
    |tx| {
        schema::create_tables(tx, &[tasks::tables::TABLES])?;
        tasks::store_records_with_series(tx)
    },
    // 15: what the store keeps of the backups it made.
    |tx| schema::create_tables(tx, &[backups::tables::TABLES]),
    // 16: the import map.
    |tx| schema::create_tables(tx, &[transfer::tables::TABLES]),
    // 17: calendar subscriptions and their secrets' hashes.
    |tx| schema::create_tables(tx, &[calendar_subscriptions::tables::TABLES]),
    // 18: reminders (channels, the notifications log) and the tasks'
    // reminder queue; task records of format 3 are written as tasks change.
    |tx| schema::create_tables(tx, &[reminders::tables::TABLES, tasks::tables::TABLES]),
    // 19: the index of pinned notes (the `pinned` filter reads it).
    |tx| {
        schema::create_tables(tx, &[notes::tables::TABLES])?;
        notes::index_pinned(tx)
    },
    // 20: the search index's postings grouped in blocks (index format 5,
    // built again from the records when the store next opens), in place
    // of one entry a posting.
    |tx| {
        schema::create_tables(tx, &[crate::search_index::tables::TABLES])?;
        tx.drop_table(crate::search_index::tables::FORMER_TERMS)
    },
];

/// A store migrated from a schema below this one is rewritten in key
/// order once migrated (`organiser compact`'s copy): migration 20
/// regrouped the search index's postings, which leaves most of the old
/// file free and the new tables' pages half empty.
pub(crate) const REWRITE_BELOW: u32 = 20;

/// What the engine is wired to.
pub(crate) static WIRING: Wiring = Wiring {
    tables: TABLES,
    kinds: KINDS,
    cascades: CASCADES,
    followers: FOLLOWERS,
    jobs: JOBS,
    migrations: MIGRATIONS,
    attachments: &documents::ATTACHMENTS,
    due: settle::due,
    settle: settle::run,
    require_writable: licence::require_writable,
    require_writable_in_write: licence::require_writable,
    // Floating event times are read in the owner's zone: every feed is
    // read again at the next scheduled round.
    zone_changed: calendar_feeds::sync::due_now,
    watched: &search::WATCHED,
    before_commit,
};

/// What every write does before it commits: the search index and the AI
/// tasks' queues follow the records it touched.
fn before_commit(cx: &mut crate::engine::WriteCx<'_>) -> Result<()> {
    let mut touched = cx.tx.take_touched();
    if touched.is_empty() {
        return Ok(());
    }
    // Tasks show the names of the people their descriptions mention; what
    // that writes is followed too.
    let people = search::watched_index(people::tables::PEOPLE);
    let written: Vec<crate::ids::Id> = touched
        .iter()
        .filter(|(table, _)| Some(*table) == people)
        .filter_map(|(_, key)| <[u8; 16]>::try_from(key.as_slice()).ok())
        .map(crate::ids::Id::from_bytes)
        .collect();
    if !written.is_empty() {
        tasks::mentions::follow(cx, &written, &|cx, id| {
            Ok(people::lookup(cx, id)?.and_then(|(name, live)| live.then_some(name)))
        })?;
        touched.extend(cx.tx.take_touched());
    }
    search::follow(cx, &touched)?;
    let notes = search::watched_index(ai::FOLLOWED);
    ai::follow(
        cx,
        touched
            .iter()
            .filter(|(table, _)| Some(*table) == notes)
            .filter_map(|(_, key)| <[u8; 16]>::try_from(key.as_slice()).ok())
            .map(crate::ids::Id::from_bytes),
    )
}

/// Builds the search index again from the records.
pub(crate) fn rebuild_search_index(cx: &mut crate::engine::WriteCx<'_>) -> Result<()> {
    search::rebuild(cx)
}

#[cfg(test)]
mod tests {

    /// An input reads back from the body it writes: absent, null and a
    /// value each come back as they were.
    #[test]
    fn inputs_read_back_what_they_write() {
        use crate::input::Field;
        fn round<T>(input: T)
        where
            T: serde::Serialize + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
        {
            let json = serde_json::to_value(&input).unwrap();
            let back: T = serde_json::from_value(json.clone()).unwrap();
            assert_eq!(back, input, "{json}");
        }
        let day = jiff::civil::date(2026, 11, 29);
        round(tasks::TaskInput {
            description_html: Field::Null,
            start_on: Field::Value(day),
            status: Some(tasks::TaskStatus::Completed),
            position: Some(-2),
            document_ids: Field::Value(vec![crate::Id::from_bytes([7; 16])]),
            ..tasks::TaskInput::titled("Renew")
        });
        round(tasks::TaskInput::default());
        round(task_lists::TaskListInput {
            name: Some("Errands".into()),
            ..task_lists::TaskListInput::default()
        });
        round(notes::NoteInput {
            body_html: Field::Value("<p>x</p>".into()),
            category_id: Field::Null,
            ..notes::NoteInput::default()
        });
        round(ai::AiTaskInput {
            enabled: Some(true),
            reasoning: Field::Value(ai::Reasoning::High),
            max_output_tokens: Field::Null,
            ..ai::AiTaskInput::default()
        });
        round(account::AppearanceChange {
            theme: Some("dark".into()),
            ..account::AppearanceChange::default()
        });
        round(system::SystemChange {
            channel: Some("beta".into()),
            dismissed_version: Field::Null,
            ..system::SystemChange::default()
        });
    }
    use super::*;

    #[test]
    fn table_names_are_unique() {
        use redb::TableHandle;
        let mut names: Vec<String> = TABLES
            .iter()
            .copied()
            .flatten()
            .map(|t| t.name().to_owned())
            .collect();
        let all = names.len();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), all);
    }

    #[test]
    fn names_and_tags_are_unique() {
        for (i, a) in KINDS.iter().enumerate() {
            for b in &KINDS[i + 1..] {
                assert_ne!(a.name, b.name);
                assert_ne!(a.tag, b.tag, "{} and {}", a.name, b.name);
            }
        }
    }

    /// A path template's segments with each `{...}` filled by `fill`.
    fn filled<'a>(path: &'a str, fill: &'a str) -> Vec<&'a str> {
        path.split('/')
            .filter(|s| !s.is_empty())
            .map(|s| if s.starts_with('{') { fill } else { s })
            .collect()
    }

    /// Path parameters are IDs, or a token's number.
    const FILLS: [&str; 2] = ["01ARZ3NDEKTSV4RRFFQ69G5FAV", "1"];

    #[test]
    fn no_route_is_declared_twice_and_ids_are_unique() {
        let all: Vec<&dyn Declared> = operations().collect();
        for (i, a) in all.iter().enumerate() {
            for b in &all[i + 1..] {
                assert_ne!(
                    a.described().id,
                    b.described().id,
                    "two operations are {}",
                    a.described().id
                );
                for e in a.endpoints() {
                    assert!(
                        !b.endpoints().contains(&e),
                        "two operations declare {} {}",
                        e.method.as_str(),
                        e.path
                    );
                }
            }
        }
    }

    #[test]
    fn every_declared_route_is_dispatched_and_declared_once() {
        let all: Vec<Endpoint> = endpoints().collect();
        for (i, e) in all.iter().enumerate() {
            assert!(!all[i + 1..].contains(e), "{e:?} is declared twice");
            let req = Request::new(e.method, e.path, crate::Auth::Local);
            assert!(
                FILLS
                    .iter()
                    // Found: answered, or refused for its parameters.
                    .any(|fill| !matches!(
                        route(&req, &filled(e.path, fill)),
                        Err(Error::NotFound)
                    )),
                "{} {}: declared, but no route arm answers it",
                e.method.as_str(),
                e.path
            );
        }
    }

    #[test]
    fn routes_find_their_limits() {
        let name = |m, p| route_limit(m, p).map(|l| l.name);
        assert_eq!(name("POST", "/system/update_check"), Some("update_check"));
        assert_eq!(name("POST", "/ai_providers/test"), Some("provider_calls"));
        assert_eq!(
            name("POST", "/ai_providers/01ARZ3NDEKTSV4RRFFQ69G5FAV/check"),
            Some("provider_calls")
        );
        assert_eq!(
            name("GET", "/ai_providers/x/available_models"),
            Some("provider_calls")
        );
        assert_eq!(name("POST", "/ai_models/x/trial"), Some("model_trial"));
        assert_eq!(
            name("POST", "/ai_tasks/note_titles/backfill"),
            Some("task_backfill")
        );
        assert_eq!(name("GET", "/ai_providers/test"), None);
        assert_eq!(name("POST", "/ai_providers/x/check/y"), None);
        assert_eq!(name("GET", "/tasks"), None);
    }

    #[test]
    fn every_cascade_and_follower_names_registered_kinds() {
        for c in CASCADES {
            assert!(WIRING.kind(c.from).is_some(), "{}", c.from);
            assert!(WIRING.kind(c.to).is_some(), "{}", c.to);
        }
        for f in FOLLOWERS {
            assert!(WIRING.kind(f.of).is_some(), "{}", f.of);
        }
    }
}
