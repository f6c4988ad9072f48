//! Every rule of Organiser, a self-hosted personal organiser for one owner,
//! on a redb store.
//!
//! Open a store, then call the typed operations, grouped by resource
//! (`org.tasks()`, `org.people()`, ...; each resource's records, inputs
//! and queries in the module of its name):
//!
//! ```
//! use organiser_core::Organiser;
//! use organiser_core::tasks::{TaskInput, TaskQuery, View};
//!
//! let org = Organiser::in_memory();
//! org.tasks().create(TaskInput {
//!     start_on: organiser_core::Field::Value(org.today()),
//!     ..TaskInput::titled("Water the plants")
//! })?;
//! let today = org.tasks().list(&TaskQuery {
//!     view: Some(View::Today),
//!     ..TaskQuery::default()
//! })?;
//! assert_eq!(today.items[0].title, "Water the plants");
//! # Ok::<(), organiser_core::Error>(())
//! ```
//!
//! The JSON API that the server serves is the same operations, answered by
//! [`Organiser::handle`] ([`server`] holds what a transport needs).
#![forbid(unsafe_code)]

mod api;
mod auth;
pub mod clock;
mod config;
mod engine;
mod error;
mod files;
mod gate;
mod html;
mod idempotency;
mod ids;
mod input;
pub mod limits;
pub mod list;
pub mod net;
mod organiser;
pub mod pdf;
mod portable;
mod positions;
mod resources;
mod restore;
mod search_index;
mod secrets;
mod settle;
mod signed_ids;
mod store;
mod text;
pub mod time;

pub use auth::Auth;
pub use config::Options;
pub use engine::Organiser;
pub use error::{ConflictKind, Details, Error, Result};
pub use ids::Id;
pub use input::Field;
pub use list::{ListParams, Page};

// The flat names the core's own modules use (`crate::Task`, ...); the
// public paths are the modules below.
#[allow(unused_imports)]
pub(crate) use clock::{Clock, ManualClock};
#[allow(unused_imports)]
pub(crate) use engine::request::{FileBytes, Method, RawBody, Request, Response};
#[allow(unused_imports)]
pub(crate) use list::{Direction, Query};
#[allow(unused_imports)]
pub(crate) use net::HttpClient;
#[allow(unused_imports)]
pub(crate) use organiser::STORE_FILE;
#[allow(unused_imports)]
pub(crate) use resources::*;

/// The date and time library whose types the API uses (`Timestamp`,
/// `civil::Date`, `SignedDuration`, `tz::TimeZone`, `Zoned`), re-exported
/// so that callers have the very version the core was built with.
pub use jiff;

/// The data directory: the store's file and the files beside it,
/// compaction, the raw export, and the key that seals secrets.
pub mod data {
    pub use crate::files::FILES_DIR;
    pub use crate::organiser::{Compaction, STORE_FILE};
    pub use crate::secrets::{KEY_FILE as SECRET_KEY_FILE, SecretKey, write_private};
    pub use crate::store::{OpenError, RawExport, TableSize};
}

/// How a store is opened: the clock, the HTTP client, the build and its
/// update source.
pub mod options {
    pub use crate::config::{APP, BuildInfo, Options, UpdateConfig, parse_public_key};
}

/// The operations as declarations: what the typed handles call, and what a
/// door (this process, or a server over HTTP) runs.
pub mod door {
    pub use crate::engine::operation::{
        Args, AsSession, Door, Input, Operation, Outgoing, Output, Part, RawRule,
    };
}

/// What a transport needs (the server's part): requests and responses of
/// the JSON API, the route inventory, the raw-body and rate-limit rules
/// of routes, the OpenAPI document, discovery, and the background jobs a
/// server runs.
pub mod server {
    pub use crate::engine::endpoint::Endpoint;
    pub use crate::engine::jobs::{Job, Pace, Ran};
    pub use crate::engine::request::{FileBytes, Method, RawBody, Request, Response, media_type};
    pub use crate::limits::routes::{ROUTE_LIMITS, RouteLimit};
    pub use crate::resources::discovery::Discovery;
    pub use crate::resources::{
        OPENAPI, Unwritable, check_raw_header, endpoints, loggable_path, openapi_document,
        raw_body_rule, root_endpoints, route_limit, serves_at_root,
    };
}

/// Backups (EXTENSIONS.md §4): daily, checked archives of the whole store,
/// their settings, and [`backups::restore`]; the typed handle is
/// [`Organiser::backups`].
///
/// ```
/// use organiser_core::Organiser;
///
/// let dir = tempfile::tempdir().unwrap();
/// let org = Organiser::open(dir.path()).unwrap();
/// let backup = org.backups().create()?;
/// assert_eq!(org.backups().list()?[0].id, backup.id);
/// let checked = organiser_core::backups::verify(
///     &dir.path().join("backups").join(&backup.id),
/// ).unwrap();
/// assert_eq!(checked.sha256, backup.sha256);
/// # Ok::<(), organiser_core::Error>(())
/// ```
pub mod backups {
    pub use crate::resources::backups::{
        BACKUP_DIR, Backup, BackupSettings, BackupSettingsChange, Backups, Restored, restore,
        verify,
    };
}

/// Calendar subscriptions (EXTENSIONS.md §2): the owner's organiser as a
/// calendar to subscribe to at a secret address, `/ics/{secret}.ics`; the
/// typed handle is [`Organiser::calendar_subscriptions`].
///
/// ```
/// use organiser_core::Organiser;
/// use organiser_core::calendar_subscriptions::{CalendarSubscriptionInput, Feed};
///
/// let org = Organiser::in_memory();
/// let sub = org.calendar_subscriptions().create(CalendarSubscriptionInput::default())?;
/// // The address is shown once: `/ics/<secret>.ics` below the server's root.
/// let url = sub.url.expect("shown when made");
/// let file = url.rsplit('/').next().unwrap();
/// let Feed::Calendar { etag, body } = org.calendar_subscriptions().feed(file, None)? else {
///     unreachable!()
/// };
/// assert!(body.starts_with("BEGIN:VCALENDAR\r\n"));
/// // Asked again with its entity tag, it has not changed.
/// let again = org.calendar_subscriptions().feed(file, Some(&etag))?;
/// assert_eq!(again, Feed::NotModified { etag });
/// # Ok::<(), organiser_core::Error>(())
/// ```
pub mod calendar_subscriptions {
    pub use crate::resources::calendar_subscriptions::{
        CalendarSubscription, CalendarSubscriptionInput, CalendarSubscriptions, DEFAULT_NAME, Feed,
        FeedRequest, Include, MOST_ALARM_MINUTES,
    };
}

/// Reminders (EXTENSIONS.md §3): notification channels (ntfy, webhooks,
/// e-mail), the reminder settings, tasks' `remind_at`, the daily agenda,
/// key dates and deadlines ahead of time, and the notifications log; the
/// typed handle is [`Organiser::reminders`], and
/// [`Organiser::send_due_reminders`] is the scheduler's run.
///
/// ```
/// use organiser_core::Organiser;
/// use organiser_core::Field;
/// use organiser_core::reminders::{NotificationChannelInput, ReminderSettingsChange};
///
/// let org = Organiser::in_memory();
/// let phone = org.reminders().create_channel(NotificationChannelInput {
///     name: Field::Value("Phone".into()),
///     kind: Field::Value("ntfy".into()),
///     url: Field::Value("https://ntfy.sh/my-organiser".into()),
///     ..NotificationChannelInput::default()
/// })?;
/// let settings = org.reminders().change_settings(ReminderSettingsChange {
///     channel_ids: Some(vec![phone.id]),
///     ..ReminderSettingsChange::default()
/// })?;
/// assert_eq!(settings.channel_ids, [phone.id]);
/// # Ok::<(), organiser_core::Error>(())
/// ```
pub mod reminders {
    pub use crate::resources::reminders::{
        AgendaChange, ChannelKind, DailyAgenda, DaysAhead, DaysAheadChange, EmailInput,
        EmailSettings, Notification, NotificationChannel, NotificationChannelInput,
        NotificationKind, NotificationQuery, NotificationStatus, ReminderRun, ReminderSettings,
        ReminderSettingsChange, Reminders, Security,
    };
}

/// Export and import (EXTENSIONS.md §5): the organiser's own archive, the
/// foreign exports (vCard, iCalendar, Markdown), and imports from the
/// archive, Todoist, Taskwarrior, contacts, calendars and Markdown notes;
/// the typed handle is [`Organiser::transfer`].
///
/// ```
/// use organiser_core::Organiser;
/// use organiser_core::transfer::{Format, ImportParams};
///
/// let dir = tempfile::tempdir().unwrap();
/// let org = Organiser::open(dir.path()).unwrap();
/// let export = br#"[{"uuid":"5d6c0e1a-0000-4000-8000-000000000001","description":"Water the plants","status":"pending","entry":"20240105T100000Z"}]"#;
/// let params = ImportParams { from: Some(Format::Taskwarrior), ..ImportParams::default() };
/// let report = org.transfer().import(params.clone(), export.to_vec())?;
/// assert_eq!(report.created["task"], 1);
/// // The same file again changes nothing.
/// let again = org.transfer().import(params, export.to_vec())?;
/// assert!(again.created.is_empty() && again.updated.is_empty());
/// # Ok::<(), organiser_core::Error>(())
/// ```
pub mod transfer {
    pub use crate::resources::transfer::{
        ExportFormat, Format, ImportParams, ImportReport, MAX_IMPORT_BYTES, SkippedItem, Transfer,
        read_folder,
    };
}

/// Tasks (document 1, "Tasks"): records, inputs, the views and their
/// orders, and the counts; recurring tasks (EXTENSIONS.md §1); the typed
/// handle is [`Organiser::tasks`].
///
/// ```
/// use organiser_core::{Field, Organiser};
/// use organiser_core::tasks::{Repeat, TaskInput, TaskStatus};
///
/// let org = Organiser::in_memory();
/// let task = org.tasks().create(TaskInput::titled("Renew passport"))?;
/// let done = org.tasks().change(task.id, TaskInput {
///     status: Some(TaskStatus::Completed),
///     ..TaskInput::default()
/// })?;
/// assert!(done.completed_at.is_some());
///
/// // A repeating task: closing it makes the next one.
/// let rent = org.tasks().create(TaskInput {
///     deadline_on: Field::Value("2030-01-31".parse().unwrap()),
///     repeat: Field::Value(Repeat::from_words("last day").unwrap()),
///     ..TaskInput::titled("Pay rent")
/// })?;
/// assert_eq!(rent.repeat.as_ref().unwrap().to_words(), "every month on the last day");
/// let paid = org.tasks().change(rent.id, TaskInput {
///     status: Some(TaskStatus::Completed),
///     ..TaskInput::default()
/// })?;
/// let next = org.tasks().get(paid.next_task_id.unwrap())?;
/// assert_eq!(next.deadline_on.unwrap().to_string(), "2030-02-28");
/// # Ok::<(), organiser_core::Error>(())
/// ```
pub mod tasks {
    pub use crate::resources::tasks::{
        Home, PageCounts, ProjectTaskCount, Repeat, RepeatFrom, Repetition, Task, TaskCounts,
        TaskCountsQuery, TaskInput, TaskListCount, TaskOrder, TaskQuery, TaskStatus, Tasks, View,
        description_html, read_quick_add, read_repeat_words,
    };
}

/// Task lists (document 1, "Task lists"); the typed handle is
/// [`Organiser::task_lists`].
///
/// ```
/// use organiser_core::Organiser;
/// use organiser_core::task_lists::{TaskListInput, TaskListQuery};
///
/// let org = Organiser::in_memory();
/// org.task_lists().create(TaskListInput {
///     name: Some("Errands".into()),
///     ..TaskListInput::default()
/// })?;
/// let lists = org.task_lists().list(&TaskListQuery::default())?;
/// assert_eq!(lists.items[0].name, "Errands");
/// # Ok::<(), organiser_core::Error>(())
/// ```
pub mod task_lists {
    pub use crate::resources::task_lists::{TaskList, TaskListInput, TaskListQuery, TaskLists};
}

/// People (document 1, "People"): the person with its rows (key dates,
/// e-mail addresses, phone numbers, social profiles, positions),
/// companies, upcoming key dates, links between people and each person's
/// overview; the typed handles are [`Organiser::people`],
/// [`Organiser::person_links`] and [`Organiser::person_overviews`].
///
/// ```
/// use organiser_core::Organiser;
/// use organiser_core::people::{PersonInput, PersonQuery};
///
/// let org = Organiser::in_memory();
/// org.people().create(PersonInput {
///     name: Some("Ada Lovelace".into()),
///     ..PersonInput::default()
/// })?;
/// let people = org.people().list(&PersonQuery::default())?;
/// assert_eq!(people.items[0].name, "Ada Lovelace");
/// # Ok::<(), organiser_core::Error>(())
/// ```
pub mod people {
    pub use crate::resources::people::{
        Avatar, Company, CompanyQuery, Connection, EmailAddress, EmailAddressFields, KeyDate,
        KeyDateFields, People, Person, PersonBrief, PersonInput, PersonQuery, PhoneNumber,
        PhoneNumberFields, Position, PositionFields, RowInput, SocialProfile, SocialProfileFields,
        UpcomingKeyDate, UpcomingKeyDates, UpcomingMeta, UpcomingQuery,
    };
    pub use crate::resources::person_links::{
        PersonLink, PersonLinkInput, PersonLinkQuery, PersonLinks,
    };
    pub use crate::resources::person_overview::{Excerpt, PersonOverview, PersonOverviews};
}

/// Notes (document 1, "Notes"): the sanitised body, its mentions and tags,
/// pins and categories; the typed handle is [`Organiser::notes`].
///
/// ```
/// use organiser_core::Organiser;
/// use organiser_core::notes::NoteInput;
///
/// let org = Organiser::in_memory();
/// let note = org.notes().create(NoteInput {
///     body_html: organiser_core::Field::Value("<p>Ideas for the garden #outside</p>".into()),
///     ..NoteInput::default()
/// })?;
/// assert_eq!(note.tag_ids.len(), 1);
/// # Ok::<(), organiser_core::Error>(())
/// ```
pub mod notes {
    pub use crate::resources::notes::{
        CategoryNoteCount, Note, NoteInput, NoteQuery, NoteSummary, Notes, markdown, tree,
    };
}

/// Projects (document 1, "Projects"): members, events, the activity feed
/// and upcoming deadlines; the typed handles are [`Organiser::projects`]
/// and [`Organiser::project_activity`].
///
/// ```
/// use organiser_core::Organiser;
/// use organiser_core::projects::{ProjectInput, ProjectStatus};
///
/// let org = Organiser::in_memory();
/// let project = org.projects().create(ProjectInput {
///     name: Some("Move house".into()),
///     ..ProjectInput::default()
/// })?;
/// assert_eq!(project.status, ProjectStatus::Active);
/// # Ok::<(), organiser_core::Error>(())
/// ```
pub mod projects {
    pub use crate::resources::project_activity::{ActivityEntry, ActivityQuery, ProjectActivity};
    pub use crate::resources::projects::{
        EventKind, MemberBrief, Project, ProjectEvent, ProjectEventQuery, ProjectInput,
        ProjectMember, ProjectMemberInput, ProjectMemberQuery, ProjectQuery, ProjectStatus,
        Projects, UpcomingDeadline, UpcomingDeadlinesQuery,
    };
}

/// Tags (document 1, "Tags"): made by the notes that name them, renamed,
/// merged and deleted here; the typed handle is [`Organiser::tags`].
///
/// ```
/// use organiser_core::Organiser;
/// use organiser_core::tags::TagQuery;
///
/// let org = Organiser::in_memory();
/// assert!(org.tags().list(&TagQuery::default())?.items.is_empty());
/// # Ok::<(), organiser_core::Error>(())
/// ```
pub mod tags {
    pub use crate::resources::tags::{Tag, TagInput, TagMerge, TagQuery, Tags};
}

/// Note categories (document 1, "Categories"); the typed handle is
/// [`Organiser::categories`].
///
/// ```
/// use organiser_core::Organiser;
/// use organiser_core::categories::{CategoryInput, CategoryQuery};
///
/// let org = Organiser::in_memory();
/// org.categories().create(CategoryInput {
///     name: Some("Recipes".into()),
///     ..CategoryInput::default()
/// })?;
/// assert_eq!(org.categories().list(&CategoryQuery::default())?.items.len(), 1);
/// # Ok::<(), organiser_core::Error>(())
/// ```
pub mod categories {
    pub use crate::resources::categories::{
        Categories, Category, CategoryChoices, CategoryInput, CategoryQuery,
    };
}

/// Document folders (document 1, "Folders"), nested; the typed handle is
/// [`Organiser::folders`].
///
/// ```
/// use organiser_core::Organiser;
/// use organiser_core::folders::{FolderInput, FolderQuery};
///
/// let org = Organiser::in_memory();
/// org.folders().create(FolderInput {
///     name: Some("Receipts".into()),
///     ..FolderInput::default()
/// })?;
/// assert_eq!(org.folders().list(&FolderQuery::default())?.items[0].name, "Receipts");
/// # Ok::<(), organiser_core::Error>(())
/// ```
pub mod folders {
    pub use crate::resources::folders::{Folder, FolderInput, FolderQuery, Folders};
}

/// Documents (document 1, "Documents"): PDFs made from uploads, their
/// files and thumbnails, and their links to notes, projects, tasks and
/// people; the typed handle is [`Organiser::documents`].
///
/// ```
/// use organiser_core::Organiser;
/// use organiser_core::documents::DocumentQuery;
///
/// let org = Organiser::in_memory();
/// assert!(org.documents().list(&DocumentQuery::default())?.items.is_empty());
/// # Ok::<(), organiser_core::Error>(())
/// ```
pub mod documents {
    pub use crate::resources::documents::{
        Document, DocumentFile, DocumentInput, DocumentLink, DocumentLinkInput, DocumentLinkQuery,
        DocumentQuery, Documents, FolderCount, LinkBrief,
    };
}

/// Uploads (document 1, "Uploads"): images and PDFs, checked against their
/// kind's rule before anything is decoded; the typed handle is
/// [`Organiser::uploads`].
///
/// ```
/// use organiser_core::uploads::UploadKind;
///
/// assert_eq!(UploadKind::Avatar.name(), "avatar");
/// ```
pub mod uploads {
    pub use crate::resources::uploads::{Upload, UploadKind, UploadParams, Uploads};
}

/// The calendar (document 2, "Calendar"): a range of days with tasks,
/// key dates, project dates and feed events, each person's meetings, and
/// the calendar feeds it reads; the typed handles are
/// [`Organiser::calendar`] and [`Organiser::calendar_feeds`].
///
/// ```
/// use organiser_core::Organiser;
/// use organiser_core::calendar::CalendarQuery;
///
/// let org = Organiser::in_memory();
/// let today = org.today();
/// let week = org.calendar().range(CalendarQuery::new(today, today.tomorrow()?)?)?;
/// assert_eq!(week.from, today);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub mod calendar {
    pub use crate::resources::calendar::{
        Calendar, CalendarQuery, CalendarRange, Meetings, MeetingsQuery, ProjectDate,
    };
    pub use crate::resources::calendar_feeds::{
        CalendarAttendee, CalendarEvent, CalendarFeed, CalendarFeedInput, CalendarFeedQuery,
        CalendarFeeds, GuessedZone, Meeting, SyncError, SyncWarnings,
    };
    pub use crate::resources::tasks::Repetition;
}

/// Search (document 1, "Search"): every kind of record by its words,
/// misspellings forgiven; the typed handle is [`Organiser::search`].
///
/// ```
/// use organiser_core::Organiser;
/// use organiser_core::search::{SearchQuery, SearchType};
/// use organiser_core::tasks::TaskInput;
///
/// let org = Organiser::in_memory();
/// org.tasks().create(TaskInput::titled("Book the dentist"))?;
/// let found = org.search().find(&SearchQuery::new("dentst"))?;
/// let tasks = found.iter().find(|group| group.kind == SearchType::Task).unwrap();
/// assert_eq!(tasks.results[0].title, "Book the dentist");
/// # Ok::<(), organiser_core::Error>(())
/// ```
pub mod search {
    pub use crate::resources::search::{
        Leading, LeadingKind, Search, SearchGroup, SearchPlan, SearchQuery, SearchResult,
        SearchType,
    };
    pub use crate::text::fold_search as fold;
}

/// Deletion records (document 1, "Deletions"), for clients that sync; the
/// typed handle is [`Organiser::deletions`].
///
/// ```
/// use organiser_core::Organiser;
/// use organiser_core::deletions::DeletionQuery;
/// use organiser_core::tasks::TaskInput;
///
/// let org = Organiser::in_memory();
/// let task = org.tasks().create(TaskInput::titled("Old"))?;
/// org.tasks().delete(task.id)?;
/// let deleted = org.deletions().list(&DeletionQuery::default())?;
/// assert_eq!(deleted.items[0].id, task.id);
/// # Ok::<(), organiser_core::Error>(())
/// ```
pub mod deletions {
    pub use crate::resources::deletions::{Deletion, DeletionQuery, Deletions};
}

/// The owner's account (document 1, "Me", "API tokens"): the owner, the
/// appearance, API tokens, username and password; the typed handle is
/// [`Organiser::account`].
///
/// ```
/// use organiser_core::Organiser;
///
/// let org = Organiser::in_memory();
/// assert_eq!(org.account().me()?.username, "owner");
/// # Ok::<(), organiser_core::Error>(())
/// ```
pub mod account {
    pub use crate::auth::ApiToken;
    pub use crate::resources::account::{
        Accent, Account, ApiTokenInput, Appearance, AppearanceChange, CodeTheme, Me, NewToken,
        OwnerChange, OwnerInit, PasswordChange, SignInLink, SignedIn, Theme, UsernameChange,
    };
}

/// The licence (document 1, "Licence"): its state, keys, and read-only
/// mode; the typed handle is [`Organiser::licence`].
///
/// ```
/// use organiser_core::Organiser;
///
/// let org = Organiser::in_memory();
/// let licence = org.licence().get()?;
/// assert!(licence.licensee.is_none());
/// # Ok::<(), organiser_core::Error>(())
/// ```
pub mod licence {
    pub use crate::resources::licence::{
        Licence, LicenceKeyPayload, LicenceProblem, LicenceState, Licensee, Licensing,
        sign_key as sign_licence_key,
    };
}

/// The system (document 1, "System"): update checks and their signed
/// manifests, the open source notices; the typed handle is
/// [`Organiser::system`].
///
/// ```
/// use organiser_core::Organiser;
///
/// let org = Organiser::in_memory();
/// let system = org.system().get(false)?;
/// assert!(!system.version.is_empty());
/// # Ok::<(), organiser_core::Error>(())
/// ```
pub mod system {
    pub use crate::resources::notices::{
        LicenceText, NoticeGroup, NoticePackage, Notices, notices,
    };
    pub use crate::resources::system::{
        Channel, Manifest, ManifestRelease, SignedManifest, System, SystemChange, SystemSettings,
        UpdateInfo, UpdateStatus,
    };
}

/// AI (document 2, "AI"): providers, models, and the tasks that use them
/// (note titles); the typed handle is [`Organiser::ai`].
///
/// ```
/// use organiser_core::Organiser;
/// use organiser_core::ai::AiProviderQuery;
///
/// let org = Organiser::in_memory();
/// assert!(org.ai().providers(&AiProviderQuery::default())?.items.is_empty());
/// # Ok::<(), organiser_core::Error>(())
/// ```
pub mod ai {
    pub use crate::resources::ai::{
        AddedModels, Ai, AiModel, AiModelInput, AiModelQuery, AiProvider, AiProviderInput,
        AiProviderQuery, AiTask, AiTaskInput, AiTaskQueue, BackfillProgress, Backfilled,
        ModelAdditions, ModelCount, ModelList, ProviderKind, ProviderTest, Reasoning, TrialInput,
        TrialReply,
    };
}

/// The fixed lists (document 1, "Vocabulary"): icons, colours,
/// relationships, labels, statuses, zones, and the limits a client shows.
///
/// ```
/// let vocabulary = organiser_core::vocabulary::vocabulary(false);
/// assert!(!vocabulary.relationships.is_empty());
/// ```
pub mod vocabulary {
    pub use crate::resources::vocabulary::{
        CalendarSourceChoice, Choice, ContactLabels, FrequencyChoice, IconChoice, LabelChoices,
        PersonLinkChoice, ProjectStatusChoice, RelationshipChoice, TextLimits, Tone, UploadRule,
        UploadRules, Vocabulary, vocabulary,
    };
}
