//! The one generator of store operations the properties draw from: task
//! lists, tasks and the clock, each operation one API request (or one move
//! of the clock), applied to a [`World`] that remembers the records made.
//!
//! Operations name records by [`Pick`]: the nth newest live record of a
//! collection, the nth newest deleted one, or any made, resolved when the
//! operation runs. A sequence stays meaningful while proptest shrinks it,
//! and it reaches deleted, restored and purged records as well as live ones.
//!
//! # How a later resource joins
//!
//! A resource (people, projects, notes, ...) joins both properties in three
//! places, all of them here or in one table:
//!
//! 1. Here: an enum of its operations (create, every kind of change,
//!    delete, restore, ...) with [`Pick`]s for the records they touch, a
//!    strategy for it, a variant of [`Op`] with its weight in [`op`], and
//!    its arm in [`World::call_for`] that turns the operation into a
//!    [`Call`] (with `creates` naming its collection when it makes one).
//! 2. In [`crate::mirror::COLLECTIONS`]: its collection (listing path,
//!    deletion type, and the filtered listings that split it, when the
//!    unfiltered one is not the only way to see every record). The mirror
//!    then syncs it, checks it, and counts it in the figures.
//! 3. In [`crate::requests::ROUTES`]: its routes, with the error statuses
//!    the spec lists for each. Its records' IDs reach the paths by
//!    themselves, through [`World::any_id`].

use std::collections::{BTreeMap, BTreeSet};

use jiff::civil::Date;
use jiff::{SignedDuration, Timestamp, ToSpan};
use organiser::Method;
use proptest::prelude::*;
use serde_json::{Map, Value, json};

use crate::fixture::{Call, Reply, Store};

/// An ID no record has: a well-formed ULID.
pub(crate) const UNKNOWN_ID: &str = "01ARZ3NDEKTSV4RRFFQ69G5FAV";

/// The owner's zones a case may run in (picker name, IANA), with odd
/// offsets and daylight saving among them.
pub(crate) const ZONES: &[(&str, &str)] = &[
    ("UTC", "Etc/UTC"),
    ("London", "Europe/London"),
    ("Eastern Time (US & Canada)", "America/New_York"),
    ("Tokyo", "Asia/Tokyo"),
    ("Kathmandu", "Asia/Kathmandu"),
    ("Chatham Is.", "Pacific/Chatham"),
    ("Samoa", "Pacific/Apia"),
];

/// A record of one collection, counted back from the newest (0) modulo how
/// many there are: among the live ones (made, with no deletion record),
/// the deleted ones (newest deletion first), or every one made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Pick {
    Live(u8),
    Deleted(u8),
    Any(u8),
}

fn pick() -> impl Strategy<Value = Pick> {
    // Mostly one of the last few live ones.
    prop_oneof![
        12 => (0u8..4).prop_map(Pick::Live),
        3 => any::<u8>().prop_map(Pick::Live),
        1 => any::<u8>().prop_map(Pick::Deleted),
        1 => any::<u8>().prop_map(Pick::Any),
    ]
}

/// A record to restore: mostly one of the last few deleted.
fn deleted() -> impl Strategy<Value = Pick> {
    prop_oneof![
        12 => (0u8..3).prop_map(Pick::Deleted),
        2 => any::<u8>().prop_map(Pick::Deleted),
        1 => any::<u8>().prop_map(Pick::Live),
        1 => any::<u8>().prop_map(Pick::Any),
    ]
}

/// Where a case starts: the owner's zone and the instant.
#[derive(Debug, Clone)]
pub(crate) struct Start {
    pub(crate) zone: &'static str,
    pub(crate) at: Timestamp,
}

pub(crate) fn start() -> BoxedStrategy<Start> {
    let in_day = prop_oneof![
        1 => 0i64..86_400_000,
        // A few seconds before midnight, so the next moves cross it.
        1 => 86_390_000i64..86_400_000,
    ];
    (0..ZONES.len(), 0i64..365, in_day)
        .prop_map(|(zone, day, ms)| {
            let (name, iana) = ZONES[zone];
            let tz = jiff::tz::TimeZone::get(iana).expect("a known zone");
            let date = Date::constant(2026, 1, 1) + day.days();
            let midnight = date.to_zoned(tz).expect("a day").timestamp();
            Start {
                zone: name,
                at: midnight + SignedDuration::from_millis(ms),
            }
        })
        .boxed()
}

/// Every operation a sequence can hold. A later resource adds its variant
/// (see the module doc).
#[derive(Debug, Clone)]
pub(crate) enum Op {
    TaskList(TaskListOp),
    Task(TaskOp),
    Person(PersonOp),
    Link(LinkOp),
    Project(ProjectOp),
    Member(MemberOp),
    Note(NoteOp),
    Category(CategoryOp),
    Tag(TagOp),
    Folder(FolderOp),
    Document(DocumentOp),
    Clock(ClockMove),
    /// The owner moves to the nth zone of [`ZONES`]: today may go back or
    /// skip a day without the clock moving.
    Zone(u8),
}

/// A few creates that start a sequence, so that its other operations
/// find records to work on.
pub(crate) fn seed() -> BoxedStrategy<Vec<Op>> {
    (0usize..=2, 0usize..=4)
        .prop_flat_map(|(lists, tasks)| {
            (
                prop::collection::vec(task_list_create(), lists),
                prop::collection::vec(task_create(), tasks),
            )
                .prop_map(|(lists, tasks)| {
                    let lists = lists.into_iter().map(Op::TaskList);
                    lists.chain(tasks.into_iter().map(Op::Task)).collect()
                })
        })
        .boxed()
}

/// One operation, weighted.
pub(crate) fn op() -> BoxedStrategy<Op> {
    prop_oneof![
        3 => task_list_op().prop_map(Op::TaskList),
        8 => task_op().prop_map(Op::Task),
        4 => person_op().prop_map(Op::Person),
        2 => link_op().prop_map(Op::Link),
        3 => project_op().prop_map(Op::Project),
        2 => member_op().prop_map(Op::Member),
        4 => note_op().prop_map(Op::Note),
        1 => category_op().prop_map(Op::Category),
        1 => tag_op().prop_map(Op::Tag),
        1 => folder_op().prop_map(Op::Folder),
        2 => document_op().prop_map(Op::Document),
        2 => clock_move().prop_map(Op::Clock),
        1 => any::<u8>().prop_map(Op::Zone),
    ]
    .boxed()
}

// ---------------------------------------------------------------- clock

/// A move of the clock; it never goes back.
#[derive(Debug, Clone, Copy)]
pub(crate) enum ClockMove {
    /// A few milliseconds: records made since differ only in the last digits.
    Millis(u16),
    Seconds(u16),
    /// The restore window (20 s) plus this many milliseconds: either side of its end.
    RestoreWindow(i8),
    Hours(u8),
    /// The next midnight in the owner's zone, plus this many milliseconds
    /// (before it when negative, when that is still ahead).
    NextMidnight(i32),
    /// Whole days: past deadlines and expiry dates.
    Days(u8),
}

pub(crate) fn clock_move() -> BoxedStrategy<ClockMove> {
    prop_oneof![
        3 => (1u16..=1500).prop_map(ClockMove::Millis),
        2 => (1u16..=120).prop_map(ClockMove::Seconds),
        2 => (-2i8..=2).prop_map(ClockMove::RestoreWindow),
        1 => (1u8..=30).prop_map(ClockMove::Hours),
        2 => (-1500i32..=3_600_000).prop_map(ClockMove::NextMidnight),
        2 => (1u8..=6).prop_map(ClockMove::Days),
    ]
    .boxed()
}

// ---------------------------------------------------------------- task lists

/// The operations on task lists.
#[derive(Debug, Clone)]
pub(crate) enum TaskListOp {
    Create {
        name: String,
        color: Option<Choice>,
        icon: Option<Choice>,
        position: Option<i64>,
    },
    Change {
        list: Pick,
        name: Option<String>,
        color: Option<Choice>,
        icon: Option<Choice>,
        position: Option<i64>,
    },
    Delete {
        list: Pick,
    },
    Restore {
        list: Pick,
    },
}

/// A colour or icon: blank, null, or the nth of the vocabulary's.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Choice {
    Blank,
    Null,
    Nth(u8),
}

fn choice() -> impl Strategy<Value = Choice> {
    prop_oneof![
        1 => Just(Choice::Blank),
        1 => Just(Choice::Null),
        4 => any::<u8>().prop_map(Choice::Nth),
    ]
}

fn list_name() -> impl Strategy<Value = String> {
    prop_oneof![
        // Few names, so that they clash (ignoring case) and restored lists
        // come back renamed.
        4 => prop::sample::select(vec!["Home", "home", "Work", "Errands", "Books", "Books (2)"])
            .prop_map(str::to_owned),
        2 => "[A-Za-z]{1,8}( {1,3}[A-Za-z]{1,8})?",
        1 => Just("   ".to_owned()),
    ]
}

fn position() -> impl Strategy<Value = i64> {
    prop_oneof![8 => -2i64..=8, 1 => Just(i64::MAX), 1 => Just(i64::MIN)]
}

fn task_list_create() -> BoxedStrategy<TaskListOp> {
    (
        list_name(),
        prop::option::of(choice()),
        prop::option::of(choice()),
        prop::option::weighted(0.3, position()),
    )
        .prop_map(|(name, color, icon, position)| TaskListOp::Create {
            name,
            color,
            icon,
            position,
        })
        .boxed()
}

fn task_list_op() -> BoxedStrategy<TaskListOp> {
    prop_oneof![
        4 => task_list_create(),
        3 => (pick(), prop::option::weighted(0.4, list_name()), prop::option::weighted(0.3, choice()), prop::option::weighted(0.3, choice()), prop::option::weighted(0.5, position()))
            .prop_map(|(list, name, color, icon, position)| TaskListOp::Change { list, name, color, icon, position }),
        2 => pick().prop_map(|list| TaskListOp::Delete { list }),
        2 => deleted().prop_map(|list| TaskListOp::Restore { list }),
    ]
    .boxed()
}

// ---------------------------------------------------------------- tasks

/// The operations on tasks.
#[derive(Debug, Clone)]
pub(crate) enum TaskOp {
    Create {
        title: String,
        home: Home,
        status: Option<&'static str>,
        start_on: Day,
        deadline_on: Day,
        expires_on: Day,
        position: Option<i64>,
        description: Option<&'static str>,
    },
    Change {
        task: Pick,
        title: Option<String>,
        start_on: Day,
        deadline_on: Day,
        expires_on: Day,
        description: Option<&'static str>,
    },
    /// To another home (or the same), at the bottom or at `position`.
    Move {
        task: Pick,
        to: Home,
        position: Option<i64>,
    },
    SetStatus {
        task: Pick,
        status: &'static str,
    },
    Place {
        task: Pick,
        position: i64,
    },
    Delete {
        task: Pick,
    },
    Restore {
        task: Pick,
    },
}

/// A task's home.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Home {
    Inbox,
    List(Pick),
    Project(Pick),
}

/// A date field: not sent, null, or today plus this many days (in the
/// owner's zone).
#[derive(Debug, Clone, Copy)]
pub(crate) enum Day {
    Absent,
    Null,
    Offset(i8),
}

fn day(lo: i8, hi: i8) -> impl Strategy<Value = Day> {
    prop_oneof![
        5 => Just(Day::Absent),
        1 => Just(Day::Null),
        3 => (lo..=hi).prop_map(Day::Offset),
    ]
}

/// An expiry date: mostly within a few days, so that moves of the clock
/// pass it; the day before today now and then (refused on an open task).
fn expiry() -> impl Strategy<Value = Day> {
    prop_oneof![
        5 => Just(Day::Absent),
        1 => Just(Day::Null),
        3 => (0i8..=4).prop_map(Day::Offset),
        1 => (5i8..=25).prop_map(Day::Offset),
        1 => Just(Day::Offset(-1)),
    ]
}

fn status() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec!["open", "completed", "wont_do", "archived"])
}

fn home() -> impl Strategy<Value = Home> {
    prop_oneof![
        1 => Just(Home::Inbox),
        2 => pick().prop_map(Home::List),
        1 => pick().prop_map(Home::Project),
    ]
}

fn title() -> impl Strategy<Value = String> {
    prop_oneof![
        19 => "[a-z]{1,6}( {1,2}[a-z]{1,6}){0,2}",
        1 => Just(" ".to_owned()),
    ]
}

fn description() -> impl Strategy<Value = Option<&'static str>> {
    prop::option::weighted(
        0.2,
        prop::sample::select(vec![
            "<p>Call <b>back</b></p>",
            "<ul><li>one</li><li>two</li></ul>",
            "<p>Call <b>back</b></p>",
            "",
            "<script>alert(1)</script>",
            "<p><img src=\"x.png\"></p>",
        ]),
    )
}

fn task_create() -> BoxedStrategy<TaskOp> {
    (
        title(),
        home(),
        prop::option::weighted(0.2, status()),
        (day(-5, 20), day(-5, 20), expiry()),
        prop::option::weighted(0.3, position()),
        description(),
    )
        .prop_map(
            |(title, home, status, (start_on, deadline_on, expires_on), position, description)| {
                TaskOp::Create {
                    title,
                    home,
                    status,
                    start_on,
                    deadline_on,
                    expires_on,
                    position,
                    description,
                }
            },
        )
        .boxed()
}

fn task_op() -> BoxedStrategy<TaskOp> {
    prop_oneof![
        5 => task_create(),
        3 => (pick(), prop::option::weighted(0.4, title()), (day(-5, 20), day(-5, 20), expiry()), description())
            .prop_map(|(task, title, (start_on, deadline_on, expires_on), description)| {
                TaskOp::Change { task, title, start_on, deadline_on, expires_on, description }
            }),
        2 => (pick(), home(), prop::option::weighted(0.4, position()))
            .prop_map(|(task, to, position)| TaskOp::Move { task, to, position }),
        3 => (pick(), status()).prop_map(|(task, status)| TaskOp::SetStatus { task, status }),
        2 => (pick(), position()).prop_map(|(task, position)| TaskOp::Place { task, position }),
        2 => pick().prop_map(|task| TaskOp::Delete { task }),
        2 => deleted().prop_map(|task| TaskOp::Restore { task }),
    ]
    .boxed()
}

// ---------------------------------------------------------------- people

/// The operations on people (document 3): rows added, changed by id and
/// removed, relationships, companies by name; delete and restore.
#[derive(Debug, Clone)]
pub(crate) enum PersonOp {
    Create {
        name: String,
        fields: PersonFields,
    },
    Change {
        person: Pick,
        name: Option<String>,
        fields: PersonFields,
        /// Change or remove the nth stored row of each array.
        row: Option<(u8, bool)>,
    },
    Delete {
        person: Pick,
    },
    Restore {
        person: Pick,
    },
}

/// The optional fields of a person a request sends.
#[derive(Debug, Clone)]
pub(crate) struct PersonFields {
    relationships: Option<Vec<&'static str>>,
    email: Option<&'static str>,
    key_date: Option<(u8, u8, Option<i16>)>,
    company: Option<&'static str>,
}

fn person_name() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => prop::sample::select(vec!["Ada", "ada", "Bob", "Cy Twombly", "Dee"]).prop_map(str::to_owned),
        2 => "[A-Za-z]{1,8}( [A-Za-z]{1,8})?",
        1 => Just(" ".to_owned()),
    ]
}

fn person_fields() -> impl Strategy<Value = PersonFields> {
    (
        prop::option::weighted(
            0.4,
            prop::collection::vec(
                prop::sample::select(vec!["friend", "parent", "colleague", "nemesis"]),
                0..3,
            ),
        ),
        prop::option::weighted(
            0.4,
            prop::sample::select(vec!["a@b.org", "c@d.net", "nope", ""]),
        ),
        prop::option::weighted(0.4, (1u8..=31, 1u8..=13, prop::option::of(1890i16..=2027))),
        prop::option::weighted(
            0.4,
            prop::sample::select(vec!["Acme", "acme", "Initech", ""]),
        ),
    )
        .prop_map(|(relationships, email, key_date, company)| PersonFields {
            relationships,
            email,
            key_date,
            company,
        })
}

fn person_create() -> BoxedStrategy<PersonOp> {
    (person_name(), person_fields())
        .prop_map(|(name, fields)| PersonOp::Create { name, fields })
        .boxed()
}

fn person_op() -> BoxedStrategy<PersonOp> {
    prop_oneof![
        4 => person_create(),
        3 => (pick(), prop::option::weighted(0.3, person_name()), person_fields(), prop::option::weighted(0.4, (any::<u8>(), any::<bool>())))
            .prop_map(|(person, name, fields, row)| PersonOp::Change { person, name, fields, row }),
        2 => pick().prop_map(|person| PersonOp::Delete { person }),
        2 => deleted().prop_map(|person| PersonOp::Restore { person }),
    ]
    .boxed()
}

/// The operations on person links.
#[derive(Debug, Clone)]
pub(crate) enum LinkOp {
    Create {
        person: Pick,
        kind: &'static str,
        related: Pick,
    },
    Change {
        link: Pick,
        kind: &'static str,
    },
    Delete {
        link: Pick,
    },
}

fn link_kind() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "parent", "child", "friend", "sibling", "manager", "report", "nemesis",
    ])
}

fn link_op() -> BoxedStrategy<LinkOp> {
    prop_oneof![
        4 => (pick(), link_kind(), pick()).prop_map(|(person, kind, related)| LinkOp::Create { person, kind, related }),
        2 => (pick(), link_kind()).prop_map(|(link, kind)| LinkOp::Change { link, kind }),
        1 => pick().prop_map(|link| LinkOp::Delete { link }),
    ]
    .boxed()
}

// ---------------------------------------------------------------- projects

/// The operations on projects (document 2): fields, status and deadline
/// changes (events and their 10-minute rule), delete and restore.
#[derive(Debug, Clone)]
pub(crate) enum ProjectOp {
    Create {
        name: String,
        status: Option<&'static str>,
        deadline: Day,
    },
    Change {
        project: Pick,
        name: Option<String>,
        status: Option<&'static str>,
        deadline: Day,
        url: Option<&'static str>,
    },
    Delete {
        project: Pick,
    },
    Restore {
        project: Pick,
    },
}

fn project_status() -> impl Strategy<Value = Option<&'static str>> {
    prop::option::weighted(
        0.5,
        prop::sample::select(vec![
            "planned",
            "active",
            "on_hold",
            "done",
            "cancelled",
            "nope",
        ]),
    )
}

fn project_op() -> BoxedStrategy<ProjectOp> {
    prop_oneof![
        3 => (person_name(), project_status(), day(-3, 40))
            .prop_map(|(name, status, deadline)| ProjectOp::Create { name, status, deadline }),
        4 => (
            pick(),
            prop::option::weighted(0.3, person_name()),
            project_status(),
            day(-3, 40),
            prop::option::weighted(0.2, prop::sample::select(vec!["example.org", "ftp://x", ""])),
        )
            .prop_map(|(project, name, status, deadline, url)| ProjectOp::Change {
                project,
                name,
                status,
                deadline,
                url,
            }),
        1 => pick().prop_map(|project| ProjectOp::Delete { project }),
        1 => deleted().prop_map(|project| ProjectOp::Restore { project }),
    ]
    .boxed()
}

/// The operations on project members.
#[derive(Debug, Clone)]
pub(crate) enum MemberOp {
    Create {
        project: Pick,
        person: Pick,
        role: Option<&'static str>,
    },
    CreatePerson {
        project: Pick,
        name: String,
    },
    Change {
        member: Pick,
        role: Option<&'static str>,
    },
    Delete {
        member: Pick,
    },
}

fn member_role() -> impl Strategy<Value = Option<&'static str>> {
    prop::option::weighted(
        0.5,
        prop::sample::select(vec!["lead", " ", "client  contact"]),
    )
}

fn member_op() -> BoxedStrategy<MemberOp> {
    prop_oneof![
        4 => (pick(), pick(), member_role())
            .prop_map(|(project, person, role)| MemberOp::Create { project, person, role }),
        1 => (pick(), person_name()).prop_map(|(project, name)| MemberOp::CreatePerson { project, name }),
        2 => (pick(), member_role()).prop_map(|(member, role)| MemberOp::Change { member, role }),
        1 => pick().prop_map(|member| MemberOp::Delete { member }),
    ]
    .boxed()
}

// ---------------------------------------------------------------- notes

/// A note body: text with bare tags, and a mention and a project
/// reference of picked records.
#[derive(Debug, Clone)]
pub(crate) struct NoteBody {
    text: &'static str,
    mention: Option<Pick>,
    reference: Option<Pick>,
}

/// The operations on notes, categories and tags (document 3 "Note",
/// document 2 "Categories" and "Tags").
#[derive(Debug, Clone)]
pub(crate) enum NoteOp {
    Create {
        title: Option<&'static str>,
        body: NoteBody,
        category: Option<Pick>,
    },
    Change {
        note: Pick,
        title: Option<&'static str>,
        body: Option<NoteBody>,
        category: Option<Option<Pick>>,
        /// Sends an edit_version this far behind (0: the current one).
        behind: Option<u8>,
    },
    Pin {
        note: Pick,
        pinned: bool,
    },
    Delete {
        note: Pick,
    },
    Restore {
        note: Pick,
    },
}

fn note_body() -> impl Strategy<Value = NoteBody> {
    (
        prop::sample::select(vec![
            "",
            "plain words",
            "an #idea and #Idea",
            "#alpha #beta, <b>bold</b> <code>#no</code>",
            "<script>x</script>#gamma.",
        ]),
        prop::option::weighted(0.4, pick()),
        prop::option::weighted(0.3, pick()),
    )
        .prop_map(|(text, mention, reference)| NoteBody {
            text,
            mention,
            reference,
        })
}

fn note_op() -> BoxedStrategy<NoteOp> {
    prop_oneof![
        3 => (
            prop::option::weighted(0.5, prop::sample::select(vec!["Plan", "plan", " ", "Ideas"])),
            note_body(),
            prop::option::weighted(0.3, pick()),
        )
            .prop_map(|(title, body, category)| NoteOp::Create { title, body, category }),
        3 => (
            pick(),
            prop::option::weighted(0.3, prop::sample::select(vec!["Plan", "Later", ""])),
            prop::option::weighted(0.5, note_body()),
            prop::option::weighted(0.2, prop::option::of(pick())),
            prop::option::weighted(0.3, 0u8..2),
        )
            .prop_map(|(note, title, body, category, behind)| NoteOp::Change {
                note,
                title,
                body,
                category,
                behind,
            }),
        1 => (pick(), any::<bool>()).prop_map(|(note, pinned)| NoteOp::Pin { note, pinned }),
        1 => pick().prop_map(|note| NoteOp::Delete { note }),
        1 => deleted().prop_map(|note| NoteOp::Restore { note }),
    ]
    .boxed()
}

/// The operations on categories.
#[derive(Debug, Clone)]
pub(crate) enum CategoryOp {
    Create { name: String, position: Option<i64> },
    Change { category: Pick, position: i64 },
    Delete { category: Pick, if_unused: bool },
}

fn category_op() -> BoxedStrategy<CategoryOp> {
    prop_oneof![
        2 => (person_name(), prop::option::weighted(0.3, -1i64..5))
            .prop_map(|(name, position)| CategoryOp::Create { name, position }),
        1 => (pick(), -1i64..5).prop_map(|(category, position)| CategoryOp::Change { category, position }),
        1 => (pick(), any::<bool>()).prop_map(|(category, if_unused)| CategoryOp::Delete { category, if_unused }),
    ]
    .boxed()
}

/// The operations on tags.
#[derive(Debug, Clone)]
pub(crate) enum TagOp {
    Rename { tag: Pick, name: &'static str },
    Merge { tag: Pick, into: Pick },
    Delete { tag: Pick },
}

fn tag_op() -> BoxedStrategy<TagOp> {
    prop_oneof![
        2 => (pick(), prop::sample::select(vec!["alpha", "ALPHA", "new name", "a,b", "#"]))
            .prop_map(|(tag, name)| TagOp::Rename { tag, name }),
        1 => (pick(), pick()).prop_map(|(tag, into)| TagOp::Merge { tag, into }),
        1 => pick().prop_map(|tag| TagOp::Delete { tag }),
    ]
    .boxed()
}

// ---------------------------------------------------------------- documents

/// The operations on folders (document 3, "Folder").
#[derive(Debug, Clone)]
pub(crate) enum FolderOp {
    Create { name: String, parent: Option<Pick> },
    Move { folder: Pick, parent: Option<Pick> },
    Delete { folder: Pick },
}

fn folder_op() -> BoxedStrategy<FolderOp> {
    prop_oneof![
        2 => (person_name(), prop::option::weighted(0.4, pick()))
            .prop_map(|(name, parent)| FolderOp::Create { name, parent }),
        1 => (pick(), prop::option::weighted(0.6, pick()))
            .prop_map(|(folder, parent)| FolderOp::Move { folder, parent }),
        1 => pick().prop_map(|folder| FolderOp::Delete { folder }),
    ]
    .boxed()
}

/// The operations on documents: made from a fresh PDF upload, linked by
/// kind, moved between folders, deleted and restored.
#[derive(Debug, Clone)]
pub(crate) enum DocumentOp {
    Create {
        folder: Option<Pick>,
        task: Option<Pick>,
        note: Option<Pick>,
    },
    Change {
        document: Pick,
        folder: Option<Option<Pick>>,
        tasks: Option<Vec<Pick>>,
        people: Option<Vec<Pick>>,
    },
    Delete {
        document: Pick,
    },
    Restore {
        document: Pick,
    },
}

fn document_op() -> BoxedStrategy<DocumentOp> {
    prop_oneof![
        2 => (
            prop::option::weighted(0.4, pick()),
            prop::option::weighted(0.4, pick()),
            prop::option::weighted(0.3, pick()),
        )
            .prop_map(|(folder, task, note)| DocumentOp::Create { folder, task, note }),
        2 => (
            pick(),
            prop::option::weighted(0.3, prop::option::of(pick())),
            prop::option::weighted(0.4, prop::collection::vec(pick(), 0..3)),
            prop::option::weighted(0.3, prop::collection::vec(pick(), 0..2)),
        )
            .prop_map(|(document, folder, tasks, people)| DocumentOp::Change {
                document,
                folder,
                tasks,
                people,
            }),
        1 => pick().prop_map(|document| DocumentOp::Delete { document }),
        1 => deleted().prop_map(|document| DocumentOp::Restore { document }),
    ]
    .boxed()
}

// ---------------------------------------------------------------- the world

/// A store and what the operations made in it.
pub(crate) struct World {
    pub(crate) store: Store,
    /// The IDs made, by collection, oldest first.
    made: BTreeMap<&'static str, Vec<String>>,
    colors: Vec<String>,
    icons: Vec<String>,
}

/// A request an operation makes, and the collection a success adds to.
pub(crate) struct Planned {
    pub(crate) call: Call,
    pub(crate) creates: Option<&'static str>,
}

impl World {
    pub(crate) fn new(start: &Start) -> World {
        let store = Store::new(start.at, start.zone);
        let vocabulary = store.call(&Call::get("/vocabulary")).expect(200);
        let keys = |v: &Value| -> Vec<String> {
            v.as_array()
                .expect("a list")
                .iter()
                .map(|c| c["key"].as_str().or(c.as_str()).expect("a key").to_owned())
                .collect()
        };
        World {
            colors: keys(&vocabulary.data()["colors"]),
            icons: keys(&vocabulary.data()["picker_icons"]),
            made: BTreeMap::new(),
            store,
        }
    }

    /// The picked record of `collection`; an unknown ID while there is none
    /// to pick.
    ///
    /// Deleted ones are read from `GET /deletions`, which settles what the
    /// clock made due first (a person's permanent delete may write a
    /// company's deletion record).
    pub(crate) fn pick(&self, collection: &str, pick: Pick) -> String {
        // Tags are made by notes' bodies, not by a create: the store says
        // which there are.
        let listed: Vec<String>;
        let made: &[String] = if collection == "tags" {
            listed = self
                .store
                .list_all("/tags", &[("order", "id")], 100)
                .iter()
                .filter_map(|t| t["id"].as_str().map(str::to_owned))
                .collect();
            &listed
        } else {
            self.made.get(collection).map_or(&[], Vec::as_slice)
        };
        let deleted = || -> Vec<String> {
            let kind = crate::mirror::COLLECTIONS
                .iter()
                .find(|c| c.key == collection)
                .map(|c| c.deletion_type)
                .expect("a collection of the mirror");
            self.store
                .list_all("/deletions", &[], 100)
                .iter()
                .filter(|d| d["type"] == kind)
                .filter_map(|d| d["id"].as_str().map(str::to_owned))
                .collect()
        };
        let (n, ids): (u8, Vec<String>) = match pick {
            Pick::Any(n) => (n, made.to_vec()),
            Pick::Deleted(n) => (n, deleted()),
            Pick::Live(n) => {
                let deleted: BTreeSet<String> = deleted().into_iter().collect();
                let live = made.iter().filter(|id| !deleted.contains(*id));
                (n, live.cloned().collect())
            }
        };
        if ids.is_empty() {
            return UNKNOWN_ID.to_owned();
        }
        ids[ids.len() - 1 - usize::from(n) % ids.len()].clone()
    }

    /// Any ID made so far, in any collection (`n` modulo how many).
    pub(crate) fn any_id(&self, n: usize) -> Option<&str> {
        let all: Vec<&String> = self.made.values().flatten().collect();
        (!all.is_empty()).then(|| all[n % all.len()].as_str())
    }

    /// Remembers a record of `collection` made by a request of its own.
    pub(crate) fn remember(&mut self, collection: &'static str, id: &str) {
        self.made.entry(collection).or_default().push(id.to_owned());
    }

    fn today(&self) -> Date {
        self.store.org.today()
    }

    fn date(&self, offset: i8) -> String {
        (self.today() + i64::from(offset).days()).to_string()
    }

    fn choice(&self, choice: Choice, of: &[String]) -> Value {
        match choice {
            Choice::Blank => json!(""),
            Choice::Null => Value::Null,
            Choice::Nth(n) => json!(of[usize::from(n) % of.len()]),
        }
    }

    fn put_day(&self, fields: &mut Map<String, Value>, name: &str, day: Day) {
        match day {
            Day::Absent => {}
            Day::Null => {
                fields.insert(name.to_owned(), Value::Null);
            }
            Day::Offset(d) => {
                fields.insert(name.to_owned(), json!(self.date(d)));
            }
        }
    }

    /// The home field a request sends for `home`.
    fn home(&self, home: Home) -> (&'static str, Value) {
        match home {
            Home::Inbox => ("task_list_id", Value::Null),
            Home::List(p) => ("task_list_id", json!(self.pick("task_lists", p))),
            Home::Project(p) => ("project_id", json!(self.pick("projects", p))),
        }
    }

    /// The request `op` makes now; `None` for a move of the clock.
    pub(crate) fn call_for(&self, op: &Op) -> Option<Planned> {
        let plain = |call: Call| Planned {
            call,
            creates: None,
        };
        Some(match op {
            Op::Clock(_) => return None,
            Op::Zone(n) => plain(
                Call::new(Method::Patch, "/me")
                    .body(json!({ "me": { "time_zone": ZONES[usize::from(*n) % ZONES.len()].0 } })),
            ),
            Op::TaskList(op) => match op {
                TaskListOp::Create {
                    name,
                    color,
                    icon,
                    position,
                } => {
                    let mut f = Map::new();
                    f.insert("name".into(), json!(name));
                    if let Some(c) = color {
                        f.insert("color".into(), self.choice(*c, &self.colors));
                    }
                    if let Some(i) = icon {
                        f.insert("icon".into(), self.choice(*i, &self.icons));
                    }
                    if let Some(p) = position {
                        f.insert("position".into(), json!(p));
                    }
                    Planned {
                        call: Call::new(Method::Post, "/task_lists")
                            .body(json!({ "task_list": f })),
                        creates: Some("task_lists"),
                    }
                }
                TaskListOp::Change {
                    list,
                    name,
                    color,
                    icon,
                    position,
                } => {
                    let mut f = Map::new();
                    if let Some(n) = name {
                        f.insert("name".into(), json!(n));
                    }
                    if let Some(c) = color {
                        f.insert("color".into(), self.choice(*c, &self.colors));
                    }
                    if let Some(i) = icon {
                        f.insert("icon".into(), self.choice(*i, &self.icons));
                    }
                    if let Some(p) = position {
                        f.insert("position".into(), json!(p));
                    }
                    let id = self.pick("task_lists", *list);
                    plain(
                        Call::new(Method::Patch, format!("/task_lists/{id}"))
                            .body(json!({ "task_list": f })),
                    )
                }
                TaskListOp::Delete { list } => plain(Call::new(
                    Method::Delete,
                    format!("/task_lists/{}", self.pick("task_lists", *list)),
                )),
                TaskListOp::Restore { list } => plain(Call::new(
                    Method::Post,
                    format!("/task_lists/{}/restoration", self.pick("task_lists", *list)),
                )),
            },
            Op::Person(op) => self.person_call(op),
            Op::Link(op) => self.link_call(op),
            Op::Project(op) => self.project_call(op),
            Op::Member(op) => self.member_call(op),
            Op::Note(op) => self.note_call(op),
            Op::Category(op) => self.category_call(op),
            Op::Tag(op) => self.tag_call(op),
            Op::Folder(op) => self.folder_call(op),
            Op::Document(op) => self.document_call(op),
            Op::Task(op) => match op {
                TaskOp::Create {
                    title,
                    home,
                    status,
                    start_on,
                    deadline_on,
                    expires_on,
                    position,
                    description,
                } => {
                    let mut f = Map::new();
                    f.insert("title".into(), json!(title));
                    if !matches!(home, Home::Inbox) {
                        let (field, id) = self.home(*home);
                        f.insert(field.into(), id);
                    }
                    if let Some(s) = status {
                        f.insert("status".into(), json!(s));
                    }
                    self.put_day(&mut f, "start_on", *start_on);
                    self.put_day(&mut f, "deadline_on", *deadline_on);
                    self.put_day(&mut f, "expires_on", *expires_on);
                    if let Some(p) = position {
                        f.insert("position".into(), json!(p));
                    }
                    if let Some(d) = description {
                        f.insert("description_html".into(), json!(d));
                    }
                    Planned {
                        call: Call::new(Method::Post, "/tasks").body(json!({ "task": f })),
                        creates: Some("tasks"),
                    }
                }
                TaskOp::Change {
                    task,
                    title,
                    start_on,
                    deadline_on,
                    expires_on,
                    description,
                } => {
                    let mut f = Map::new();
                    if let Some(t) = title {
                        f.insert("title".into(), json!(t));
                    }
                    self.put_day(&mut f, "start_on", *start_on);
                    self.put_day(&mut f, "deadline_on", *deadline_on);
                    self.put_day(&mut f, "expires_on", *expires_on);
                    if let Some(d) = description {
                        f.insert("description_html".into(), json!(d));
                    }
                    self.task_patch(*task, f)
                }
                TaskOp::Move { task, to, position } => {
                    let mut f = Map::new();
                    let (field, id) = self.home(*to);
                    f.insert(field.into(), id);
                    if let Some(p) = position {
                        f.insert("position".into(), json!(p));
                    }
                    self.task_patch(*task, f)
                }
                TaskOp::SetStatus { task, status } => {
                    let mut f = Map::new();
                    f.insert("status".into(), json!(status));
                    self.task_patch(*task, f)
                }
                TaskOp::Place { task, position } => {
                    let mut f = Map::new();
                    f.insert("position".into(), json!(position));
                    self.task_patch(*task, f)
                }
                TaskOp::Delete { task } => plain(Call::new(
                    Method::Delete,
                    format!("/tasks/{}", self.pick("tasks", *task)),
                )),
                TaskOp::Restore { task } => plain(Call::new(
                    Method::Post,
                    format!("/tasks/{}/restoration", self.pick("tasks", *task)),
                )),
            },
        })
    }

    /// `{person: ...}` of a create or change.
    fn person_body(
        &self,
        name: Option<&String>,
        fields: &PersonFields,
        row: Option<(u8, bool)>,
        stored: &Value,
    ) -> Value {
        let mut f = Map::new();
        if let Some(n) = name {
            f.insert("name".into(), json!(n));
        }
        if let Some(r) = &fields.relationships {
            f.insert("relationships".into(), json!(r));
        }
        let mut emails = Vec::new();
        if let Some(e) = fields.email {
            emails.push(json!({"address": e}));
        }
        let mut dates = Vec::new();
        if let Some((day, month, year)) = fields.key_date {
            dates.push(json!({"kind": "anniversary", "day": day, "month": month, "year": year}));
        }
        let mut positions = Vec::new();
        if let Some(c) = fields.company {
            positions.push(json!({"company_name": c}));
        }
        // Change or remove a stored row of each array.
        if let Some((n, destroy)) = row {
            for (array, rows) in [
                ("email_addresses", &mut emails),
                ("key_dates", &mut dates),
                ("positions", &mut positions),
            ] {
                if let Some(stored) = stored[array].as_array().filter(|a| !a.is_empty()) {
                    let id = &stored[usize::from(n) % stored.len()]["id"];
                    rows.push(if destroy {
                        json!({"id": id, "_destroy": true})
                    } else {
                        json!({"id": id, "label": "changed"})
                    });
                }
            }
        }
        for (array, rows) in [
            ("email_addresses", emails),
            ("key_dates", dates),
            ("positions", positions),
        ] {
            if !rows.is_empty() {
                f.insert(array.into(), Value::Array(rows));
            }
        }
        json!({ "person": f })
    }

    fn person_call(&self, op: &PersonOp) -> Planned {
        match op {
            PersonOp::Create { name, fields } => Planned {
                call: Call::new(Method::Post, "/people").body(self.person_body(
                    Some(name),
                    fields,
                    None,
                    &Value::Null,
                )),
                creates: Some("people"),
            },
            PersonOp::Change {
                person,
                name,
                fields,
                row,
            } => {
                let id = self.pick("people", *person);
                let stored = self.store.call(&Call::get(format!("/people/{id}")));
                let stored = if stored.status == 200 {
                    stored.data().clone()
                } else {
                    Value::Null
                };
                Planned {
                    call: Call::new(Method::Patch, format!("/people/{id}")).body(self.person_body(
                        name.as_ref(),
                        fields,
                        *row,
                        &stored,
                    )),
                    creates: None,
                }
            }
            PersonOp::Delete { person } => Planned {
                call: Call::new(
                    Method::Delete,
                    format!("/people/{}", self.pick("people", *person)),
                ),
                creates: None,
            },
            PersonOp::Restore { person } => Planned {
                call: Call::new(
                    Method::Post,
                    format!("/people/{}/restoration", self.pick("people", *person)),
                ),
                creates: None,
            },
        }
    }

    fn link_call(&self, op: &LinkOp) -> Planned {
        match op {
            LinkOp::Create {
                person,
                kind,
                related,
            } => Planned {
                call: Call::new(Method::Post, "/person_links").body(json!({"person_link": {
                    "person_id": self.pick("people", *person),
                    "kind": kind,
                    "related_person_id": self.pick("people", *related),
                }})),
                creates: Some("person_links"),
            },
            LinkOp::Change { link, kind } => Planned {
                call: Call::new(
                    Method::Patch,
                    format!("/person_links/{}", self.pick("person_links", *link)),
                )
                .body(json!({"person_link": {"kind": kind}})),
                creates: None,
            },
            LinkOp::Delete { link } => Planned {
                call: Call::new(
                    Method::Delete,
                    format!("/person_links/{}", self.pick("person_links", *link)),
                ),
                creates: None,
            },
        }
    }

    fn project_call(&self, op: &ProjectOp) -> Planned {
        let fields = |name: Option<&String>, status: Option<&str>, deadline: Day| {
            let mut f = Map::new();
            if let Some(n) = name {
                f.insert("name".into(), json!(n));
            }
            if let Some(s) = status {
                f.insert("status".into(), json!(s));
            }
            self.put_day(&mut f, "deadline", deadline);
            f
        };
        let at = |project: &Pick| format!("/projects/{}", self.pick("projects", *project));
        match op {
            ProjectOp::Create {
                name,
                status,
                deadline,
            } => Planned {
                call: Call::new(Method::Post, "/projects")
                    .body(json!({ "project": fields(Some(name), *status, *deadline) })),
                creates: Some("projects"),
            },
            ProjectOp::Change {
                project,
                name,
                status,
                deadline,
                url,
            } => {
                let mut f = fields(name.as_ref(), *status, *deadline);
                if let Some(u) = url {
                    f.insert("external_url".into(), json!(u));
                }
                Planned {
                    call: Call::new(Method::Patch, at(project)).body(json!({ "project": f })),
                    creates: None,
                }
            }
            ProjectOp::Delete { project } => Planned {
                call: Call::new(Method::Delete, at(project)),
                creates: None,
            },
            ProjectOp::Restore { project } => Planned {
                call: Call::new(Method::Post, format!("{}/restoration", at(project))),
                creates: None,
            },
        }
    }

    fn member_call(&self, op: &MemberOp) -> Planned {
        let at =
            |member: &Pick| format!("/project_members/{}", self.pick("project_members", *member));
        match op {
            MemberOp::Create {
                project,
                person,
                role,
            } => Planned {
                call: Call::new(Method::Post, "/project_members").body(json!({"project_member": {
                    "project_id": self.pick("projects", *project),
                    "person_id": self.pick("people", *person),
                    "role": role,
                }})),
                creates: Some("project_members"),
            },
            MemberOp::CreatePerson { project, name } => Planned {
                call: Call::new(Method::Post, "/project_members").body(json!({"project_member": {
                    "project_id": self.pick("projects", *project),
                    "new_person_name": name,
                }})),
                creates: Some("project_members"),
            },
            MemberOp::Change { member, role } => Planned {
                call: Call::new(Method::Patch, at(member))
                    .body(json!({"project_member": {"role": role}})),
                creates: None,
            },
            MemberOp::Delete { member } => Planned {
                call: Call::new(Method::Delete, at(member)),
                creates: None,
            },
        }
    }

    fn note_html(&self, body: &NoteBody) -> String {
        let mut html = format!("<p>{}", body.text);
        if let Some(p) = body.mention {
            html.push_str(&format!(
                " <span data-mention=\"{}\">@x</span>",
                self.pick("people", p)
            ));
        }
        if let Some(p) = body.reference {
            html.push_str(&format!(
                " <span data-project=\"{}\">^x</span>",
                self.pick("projects", p)
            ));
        }
        html.push_str("</p>");
        html
    }

    fn note_call(&self, op: &NoteOp) -> Planned {
        let at = |note: &Pick| format!("/notes/{}", self.pick("notes", *note));
        let plain = |call: Call| Planned {
            call,
            creates: None,
        };
        match op {
            NoteOp::Create {
                title,
                body,
                category,
            } => {
                let mut f = Map::new();
                if let Some(t) = title {
                    f.insert("title".into(), json!(t));
                }
                f.insert("body_html".into(), json!(self.note_html(body)));
                if let Some(c) = category {
                    f.insert("category_id".into(), json!(self.pick("categories", *c)));
                }
                Planned {
                    call: Call::new(Method::Post, "/notes").body(json!({ "note": f })),
                    creates: Some("notes"),
                }
            }
            NoteOp::Change {
                note,
                title,
                body,
                category,
                behind,
            } => {
                let mut f = Map::new();
                if let Some(t) = title {
                    f.insert("title".into(), json!(t));
                }
                if let Some(b) = body {
                    f.insert("body_html".into(), json!(self.note_html(b)));
                }
                if let Some(c) = category {
                    let id = c.map(|c| self.pick("categories", c));
                    f.insert("category_id".into(), json!(id));
                }
                if let Some(behind) = behind {
                    let id = self.pick("notes", *note);
                    let stored = self.store.call(&Call::get(format!("/notes/{id}")));
                    if stored.status == 200 {
                        let version = stored.data()["edit_version"].as_i64().unwrap_or(1);
                        f.insert("edit_version".into(), json!(version - i64::from(*behind)));
                    }
                }
                plain(Call::new(Method::Patch, at(note)).body(json!({ "note": f })))
            }
            NoteOp::Pin { note, pinned } => {
                let method = if *pinned {
                    Method::Post
                } else {
                    Method::Delete
                };
                plain(Call::new(method, format!("{}/pin", at(note))))
            }
            NoteOp::Delete { note } => plain(Call::new(Method::Delete, at(note))),
            NoteOp::Restore { note } => {
                plain(Call::new(Method::Post, format!("{}/restoration", at(note))))
            }
        }
    }

    fn category_call(&self, op: &CategoryOp) -> Planned {
        let at = |c: &Pick| format!("/categories/{}", self.pick("categories", *c));
        match op {
            CategoryOp::Create { name, position } => {
                let mut f = Map::new();
                f.insert("name".into(), json!(name));
                if let Some(p) = position {
                    f.insert("position".into(), json!(p));
                }
                Planned {
                    call: Call::new(Method::Post, "/categories").body(json!({ "category": f })),
                    creates: Some("categories"),
                }
            }
            CategoryOp::Change { category, position } => Planned {
                call: Call::new(Method::Patch, at(category))
                    .body(json!({"category": {"position": position}})),
                creates: None,
            },
            CategoryOp::Delete {
                category,
                if_unused,
            } => Planned {
                call: Call::new(Method::Delete, at(category))
                    .param("if_unused", if_unused.to_string()),
                creates: None,
            },
        }
    }

    fn tag_call(&self, op: &TagOp) -> Planned {
        let at = |t: &Pick| format!("/tags/{}", self.pick("tags", *t));
        let call = match op {
            TagOp::Rename { tag, name } => {
                Call::new(Method::Patch, at(tag)).body(json!({"tag": {"name": name}}))
            }
            TagOp::Merge { tag, into } => Call::new(Method::Post, format!("{}/merge", at(tag)))
                .body(json!({"into_id": self.pick("tags", *into)})),
            TagOp::Delete { tag } => Call::new(Method::Delete, at(tag)),
        };
        Planned {
            call,
            creates: None,
        }
    }

    fn folder_call(&self, op: &FolderOp) -> Planned {
        let at = |f: &Pick| format!("/folders/{}", self.pick("folders", *f));
        let parent = |p: &Option<Pick>| p.map(|p| self.pick("folders", p));
        match op {
            FolderOp::Create { name, parent: p } => Planned {
                call: Call::new(Method::Post, "/folders")
                    .body(json!({"folder": {"name": name, "parent_id": parent(p)}})),
                creates: Some("folders"),
            },
            FolderOp::Move { folder, parent: p } => Planned {
                call: Call::new(Method::Patch, at(folder))
                    .body(json!({"folder": {"parent_id": parent(p)}})),
                creates: None,
            },
            FolderOp::Delete { folder } => Planned {
                call: Call::new(Method::Delete, at(folder)),
                creates: None,
            },
        }
    }

    fn document_call(&self, op: &DocumentOp) -> Planned {
        let at = |d: &Pick| format!("/documents/{}", self.pick("documents", *d));
        let plain = |call: Call| Planned {
            call,
            creates: None,
        };
        match op {
            DocumentOp::Create { folder, task, note } => {
                let query = organiser::Query::parse("kind=document&filename=Scan%201.pdf")
                    .expect("a query");
                let signed = self
                    .store
                    .org
                    .upload(&query, "application/pdf", b"%PDF-1.4\n%%EOF\n".to_vec())
                    .map(|u| u.signed_id)
                    .unwrap_or_default();
                let mut f = Map::new();
                f.insert("upload".into(), json!(signed));
                if let Some(p) = folder {
                    f.insert("folder_id".into(), json!(self.pick("folders", *p)));
                }
                if let Some(p) = task {
                    f.insert("task_ids".into(), json!([self.pick("tasks", *p)]));
                }
                if let Some(p) = note {
                    f.insert("note_ids".into(), json!([self.pick("notes", *p)]));
                }
                Planned {
                    call: Call::new(Method::Post, "/documents").body(json!({ "document": f })),
                    creates: Some("documents"),
                }
            }
            DocumentOp::Change {
                document,
                folder,
                tasks,
                people,
            } => {
                let mut f = Map::new();
                if let Some(folder) = folder {
                    let id = folder.map(|p| self.pick("folders", p));
                    f.insert("folder_id".into(), json!(id));
                }
                if let Some(tasks) = tasks {
                    let ids: Vec<String> = tasks.iter().map(|p| self.pick("tasks", *p)).collect();
                    f.insert("task_ids".into(), json!(ids));
                }
                if let Some(people) = people {
                    let ids: Vec<String> = people.iter().map(|p| self.pick("people", *p)).collect();
                    f.insert("person_ids".into(), json!(ids));
                }
                plain(Call::new(Method::Patch, at(document)).body(json!({ "document": f })))
            }
            DocumentOp::Delete { document } => plain(Call::new(Method::Delete, at(document))),
            DocumentOp::Restore { document } => plain(Call::new(
                Method::Post,
                format!("{}/restoration", at(document)),
            )),
        }
    }

    fn task_patch(&self, task: Pick, fields: Map<String, Value>) -> Planned {
        Planned {
            call: Call::new(
                Method::Patch,
                format!("/tasks/{}", self.pick("tasks", task)),
            )
            .body(json!({ "task": fields })),
            creates: None,
        }
    }

    /// Applies `op`: sends its request (remembering what it made), or moves
    /// the clock. The reply, for a request.
    pub(crate) fn apply(&mut self, op: &Op) -> Option<Reply> {
        if let Op::Clock(m) = op {
            self.move_clock(*m);
            return None;
        }
        let planned = self.call_for(op)?;
        let reply = self.store.call(&planned.call);
        assert!(
            reply.status < 500,
            "{} {} answered {}: {}",
            planned.call.method.as_str(),
            planned.call.path,
            reply.status,
            reply.body
        );
        if let (Some(collection), 201) = (planned.creates, reply.status) {
            let id = reply.data()["id"]
                .as_str()
                .expect("a made record has an id");
            self.made.entry(collection).or_default().push(id.to_owned());
        }
        Some(reply)
    }

    pub(crate) fn move_clock(&self, m: ClockMove) {
        let clock = &self.store.clock;
        match m {
            ClockMove::Millis(ms) => clock.advance(SignedDuration::from_millis(i64::from(ms))),
            ClockMove::Seconds(s) => clock.advance_secs(i64::from(s)),
            ClockMove::RestoreWindow(ms) => {
                clock.advance(SignedDuration::from_millis(20_000 + i64::from(ms)));
            }
            ClockMove::Hours(h) => clock.advance_secs(i64::from(h) * 3600),
            ClockMove::NextMidnight(ms) => {
                let tz = self.store.zone();
                let now = self.store.org.now();
                let tomorrow = now.to_zoned(tz.clone()).date().tomorrow().expect("a day");
                let midnight = tomorrow.to_zoned(tz).expect("a day").timestamp();
                let target = midnight + SignedDuration::from_millis(i64::from(ms));
                clock.set(if target > now {
                    target
                } else {
                    now + SignedDuration::from_millis(1)
                });
            }
            ClockMove::Days(d) => clock.advance_secs(i64::from(d) * 86_400),
        }
    }
}
