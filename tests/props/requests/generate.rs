//! The generators: texts, IDs, JSON values and bodies, paths, queries,
//! principals and whole cases.

use organiser::server::Method;
use proptest::prelude::*;

use super::routes::{ROUTES, UNSERVED};
use crate::ops::{self, ClockMove, Op, Start};

use Method::{Delete, Get, Patch, Post, Put};

// ---------------------------------------------------------------- generators

/// A text, made when the request is: literal, generated, or drawn from the
/// store (IDs, dates relative to now, cursors seen).
#[derive(Debug, Clone)]
pub(super) enum Text {
    Lit(&'static str),
    Own(String),
    Id(IdRef),
    /// Now plus this many hours, as a timestamp.
    Instant(i16),
    /// Today plus this many days, as a date.
    Day(i8),
    /// A cursor seen in an earlier answer (any listing's), or a made-up one.
    Cursor(u8),
    /// This character this many times.
    Huge(u32, char),
}

/// An ID in a path, query or body.
#[derive(Debug, Clone)]
pub(super) enum IdRef {
    /// Of a record made (live, deleted or purged).
    Made(u8),
    /// Of a record made, in lower case.
    Lower(u8),
    Unknown,
    Malformed(&'static str),
}

pub(super) const MALFORMED_IDS: &[&str] = &[
    "",
    "0",
    "1",
    "2",
    "-1",
    "18446744073709551615",
    "18446744073709551616",
    "not-an-id",
    "01ARZ3NDEKTSV4RRFFQ69G5FA",
    "01ARZ3NDEKTSV4RRFFQ69G5FAVX",
    "01ARZ3NDEKTSV4RRFFQ69G5FAU",
    "01ARZ3NDEKTSV4RRFFQ69G5FA\u{e9}",
    "01ARZ3NDEKTSV4RRFFQ69G5F\u{e9}",
    "01ARZ3NDEKTSV4RRFFQ69G5FA\u{0}",
    "80000000000000000000000000",
    "ZZZZZZZZZZZZZZZZZZZZZZZZZZ",
    "\u{0}",
    "..",
    "%2F",
    "restoration",
];

pub(super) fn id_ref() -> BoxedStrategy<IdRef> {
    prop_oneof![
        6 => any::<u8>().prop_map(IdRef::Made),
        1 => any::<u8>().prop_map(IdRef::Lower),
        1 => Just(IdRef::Unknown),
        3 => prop::sample::select(MALFORMED_IDS).prop_map(IdRef::Malformed),
    ]
    .boxed()
}

pub(super) const WORDS: &[&str] = &[
    "",
    " ",
    "  a   b  ",
    "true",
    "false",
    "TRUE",
    "1",
    "0",
    "-1",
    "null",
    "open",
    "completed",
    "wont_do",
    "archived",
    "open,completed",
    "open,",
    ",",
    "open,open",
    "asc",
    "desc",
    "ASC",
    "position",
    "id",
    "name",
    "updated_at",
    "created_at",
    "start_on",
    "deadline_on",
    "closed_at",
    "completed_at",
    "edited_at",
    "overview",
    "today",
    "planned",
    "one_day",
    "due_soon",
    "due_not_today",
    "today_queue",
    "logbook",
    "Logbook",
    "100",
    "101",
    "99999999999999999999999999999",
    "1e3",
    "0x10",
    " 5",
    "+5",
    "\u{ff11}",
    "2026-03-10",
    "2026-03-10T09:00:00",
    "2026-13-01T00:00:00Z",
    "2026-02-30T00:00:00Z",
    "2026-03-10T24:00:00Z",
    "2026-03-10T09:00:00+25:00",
    "9999-12-31T23:59:59.999Z",
    "-009999-01-01T00:00:00Z",
    "+010000-01-01T00:00:00Z",
    "0000-01-01T00:00:00Z",
    "1970-01-01T00:00:00Z",
    "2026-03-10T09:00:00.1234567891Z",
    "yesterday",
    "iris",
    "coral",
    "jade",
    "system",
    "dark",
    "light",
    "match",
    "stable",
    "beta",
    "1.2.3",
    "1.2.3-beta.1",
    "London",
    "Europe/London",
    "Nowhere/Else",
    "inbox",
    "a\u{0}b",
    "\u{0}",
    "<img src=x>",
    "<p>hi</p>",
    "caf\u{e9}",
    "\u{1F600}",
    "%",
    "&",
    "=",
    "+",
    "#tag",
    "FREQ=DAILY",
    "FREQ=MONTHLY;BYDAY=-1FR;BYSETPOS=1",
    "RRULE:FREQ=YEARLY;UNTIL=20270101T000000Z",
    "FREQ=DAILY;COUNT=99999",
    "FREQ=WEEKLY;INTERVAL=1000",
    "due",
    "completion",
    "ntfy",
    "webhook",
    "email",
    "starttls",
    "tls",
    "07:00",
    "7:00",
    "24:00",
    "https://ntfy.example.com/organiser",
    "http://127.0.0.1/hook#x",
    "Ada <ada@example.com>, b@example.com",
    "@Name",
    "^Project",
    "\\",
    "\"",
];

pub(super) fn text() -> BoxedStrategy<Text> {
    prop_oneof![
        8 => prop::sample::select(WORDS).prop_map(Text::Lit),
        2 => "\\PC{0,12}".prop_map(Text::Own),
        1 => any::<String>().prop_map(|s| Text::Own(s.chars().take(40).collect())),
        3 => id_ref().prop_map(Text::Id),
        2 => (-48i16..=48).prop_map(Text::Instant),
        2 => (-5i8..=20).prop_map(Text::Day),
        2 => any::<u8>().prop_map(Text::Cursor),
        1 => (
            prop::sample::select(vec![27u32, 101, 201, 256, 2049, 70_000]),
            prop::sample::select(vec!['a', ' ', '\u{0}', '\u{e9}', '<']),
        )
            .prop_map(|(n, c)| Text::Huge(n, c)),
    ]
    .boxed()
}

/// A JSON value, resolved when the request is made.
#[derive(Debug, Clone)]
pub(super) enum J {
    Null,
    Bool(bool),
    Int(i64),
    Big(u64),
    Float(f64),
    Str(Text),
    Arr(Vec<J>),
    Obj(Vec<(Text, J)>),
    /// Arrays (or objects) nested this deep.
    Deep(u8, bool),
}

pub(super) const FIELDS: &[&str] = &[
    "title",
    "name",
    "status",
    "start_on",
    "deadline_on",
    "expires_on",
    "task_list_id",
    "person_id",
    "project_id",
    "position",
    "description_html",
    "repeat",
    "rule",
    "from",
    "document_ids",
    "document_uploads",
    "color",
    "icon",
    "accent",
    "theme",
    "code_theme",
    "channel",
    "update_checks",
    "dismissed_version",
    "time_zone",
    "expires_at",
    "key",
    "username",
    "password",
    "current_password",
    "id",
    "updated_at",
    "relationships",
    "key_dates",
    "email_addresses",
    "phone_numbers",
    "social_profiles",
    "positions",
    "avatar",
    "kind",
    "day",
    "month",
    "year",
    "label",
    "address",
    "number",
    "url",
    "platform",
    "company_name",
    "company_id",
    "_destroy",
    "related_person_id",
    "new_person_name",
    "note",
    "include",
    "task_list_ids",
    "project_ids",
    "alarm_minutes",
    "remind_at",
    "secret",
    "enabled",
    "email",
    "smtp_host",
    "smtp_port",
    "security",
    "to",
    "channel_ids",
    "daily_agenda",
    "deadlines",
    "days_before",
    "at",
    "",
];

pub(super) const WRAPPERS: &[&str] = &[
    "task",
    "task_list",
    "person",
    "person_link",
    "me",
    "appearance",
    "system",
    "api_token",
    "tasks",
    "project",
    "calendar_subscription",
    "notification_channel",
    "reminder_settings",
    "",
    "data",
];

pub(super) fn key() -> BoxedStrategy<Text> {
    prop_oneof![
        6 => prop::sample::select(FIELDS).prop_map(Text::Lit),
        1 => text(),
    ]
    .boxed()
}

pub(super) fn leaf() -> BoxedStrategy<J> {
    prop_oneof![
        2 => Just(J::Null),
        2 => any::<bool>().prop_map(J::Bool),
        3 => (-3i64..=12).prop_map(J::Int),
        1 => prop::sample::select(vec![i64::MIN, i64::MAX, -1 << 53, 1 << 53]).prop_map(J::Int),
        1 => prop::sample::select(vec![u64::MAX, 1 << 63]).prop_map(J::Big),
        1 => prop::sample::select(vec![0.5, -0.0, 1e308, -1e-308, 2.0]).prop_map(J::Float),
        8 => text().prop_map(J::Str),
        1 => ((1u8..=120), any::<bool>()).prop_map(|(d, arr)| J::Deep(d, arr)),
    ]
    .boxed()
}

pub(super) fn json_value() -> BoxedStrategy<J> {
    leaf()
        .prop_recursive(3, 24, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(J::Arr),
                prop::collection::vec((key(), inner), 0..4).prop_map(J::Obj),
            ]
        })
        .boxed()
}

pub(super) fn fields() -> BoxedStrategy<Vec<(Text, J)>> {
    prop::collection::vec((key(), json_value()), 0..6).boxed()
}

pub(super) fn body() -> BoxedStrategy<Option<J>> {
    let wrapper = || prop::sample::select(WRAPPERS).prop_map(Text::Lit);
    prop_oneof![
        4 => Just(None),
        6 => (wrapper(), fields()).prop_map(|(w, f)| Some(J::Obj(vec![(w, J::Obj(f))]))),
        2 => fields().prop_map(|f| Some(J::Obj(f))),
        1 => (wrapper(), json_value()).prop_map(|(w, v)| Some(J::Obj(vec![(w, v)]))),
        1 => json_value().prop_map(Some),
    ]
    .boxed()
}

/// Which route a path is made from, and how it is bent.
#[derive(Debug, Clone)]
pub(super) struct PathGen {
    /// Index into [`ROUTES`] then [`UNSERVED`].
    pub(super) route: usize,
    pub(super) ids: (IdRef, IdRef),
    pub(super) bend: Bend,
}

#[derive(Debug, Clone)]
pub(super) enum Bend {
    None,
    TrailingSlash,
    DoubleSlash,
    NoLeadingSlash,
    Extra(Text),
    DropLast,
    Replace(Text),
    /// Seven or more segments.
    Long(u8),
}

pub(super) fn path_gen() -> BoxedStrategy<PathGen> {
    let routes = prop_oneof![
        6 => 0..ROUTES.len(),
        1 => ROUTES.len()..ROUTES.len() + UNSERVED.len(),
    ];
    let bend = prop_oneof![
        20 => Just(Bend::None),
        1 => Just(Bend::TrailingSlash),
        1 => Just(Bend::DoubleSlash),
        1 => Just(Bend::NoLeadingSlash),
        2 => text().prop_map(Bend::Extra),
        1 => Just(Bend::DropLast),
        1 => text().prop_map(Bend::Replace),
        1 => (7u8..=12).prop_map(Bend::Long),
    ];
    (routes, (id_ref(), id_ref()), bend)
        .prop_map(|(route, ids, bend)| PathGen { route, ids, bend })
        .boxed()
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Who {
    Local,
    Token,
    /// A web session (which the adapter checked): no `Idempotency-Key`.
    Session,
    Nobody,
}

/// What to append to the encoded query, raw.
#[derive(Debug, Clone)]
pub(super) enum Raw {
    None,
    /// The first parameter again.
    Twice,
    Junk(&'static str),
}

/// What a request is made from.
#[derive(Debug, Clone)]
pub(super) enum Kind {
    /// Any method (`None`: the route's first), any path, any body.
    Random {
        method: Option<Method>,
        path: PathGen,
        body: Option<J>,
    },
    /// The request of a store operation, with these fields put into (or
    /// over) its record's: near misses of good requests.
    Near { op: Op, junk: Vec<(Text, J)> },
    /// The previous request again, with its `Idempotency-Key`: the same
    /// (`None`), or with another body (a reused key).
    Again { body: Option<Option<J>> },
}

/// One random request.
#[derive(Debug, Clone)]
pub(super) struct Req {
    pub(super) kind: Kind,
    pub(super) query: Vec<(Text, Text)>,
    pub(super) raw: Raw,
    pub(super) key: Option<Text>,
    pub(super) who: Who,
}

pub(super) const PARAMS: &[&str] = &[
    "order",
    "direction",
    "updated_since",
    "cursor",
    "limit",
    "count",
    "since",
    "view",
    "status",
    "inbox",
    "task_list_id",
    "person_id",
    "project_id",
    "q",
    "types",
    "if_unused",
    "days",
    "kind",
];

pub(super) fn req() -> BoxedStrategy<Req> {
    let method = prop_oneof![
        3 => Just(None),
        2 => prop::sample::select(vec![Get, Post, Put, Patch, Delete]).prop_map(Some),
    ];
    let param = prop_oneof![
        8 => prop::sample::select(PARAMS).prop_map(Text::Lit),
        1 => text(),
    ];
    let raw = prop_oneof![
        12 => Just(Raw::None),
        1 => Just(Raw::Twice),
        1 => prop::sample::select(vec!["&", "&&", "=", "%", "%zz", "%FF=%FE", "a=b=c", "+=+", "limit"])
            .prop_map(Raw::Junk),
    ];
    let idempotency_key = prop::option::weighted(
        0.25,
        prop_oneof![
            4 => prop::sample::select(vec!["k1", "k2", "k3"]).prop_map(Text::Lit),
            1 => prop::sample::select(vec!["", "with space", "caf\u{e9}", "\u{0}"]).prop_map(Text::Lit),
            1 => Just(Text::Huge(256, 'k')),
        ],
    );
    let who = prop_oneof![
        16 => Just(Who::Local),
        3 => Just(Who::Token),
        1 => Just(Who::Session),
        1 => Just(Who::Nobody),
    ];
    let kind = prop_oneof![
        3 => (method, path_gen(), body()).prop_map(|(method, path, body)| Kind::Random { method, path, body }),
        2 => (ops::op(), prop::collection::vec((key(), json_value()), 0..3))
            .prop_map(|(op, junk)| Kind::Near { op, junk }),
        1 => prop::option::weighted(0.5, body()).prop_map(|body| Kind::Again { body }),
    ];
    (
        kind,
        prop::collection::vec((param, text()), 0..4),
        raw,
        idempotency_key,
        who,
    )
        .prop_map(|(kind, query, raw, key, who)| Req {
            kind,
            query,
            raw,
            key,
            who,
        })
        .boxed()
}

#[derive(Debug, Clone)]
pub(super) struct Case {
    pub(super) start: Start,
    pub(super) setup: Vec<Op>,
    /// The licence removed and the trial over before the requests: every
    /// write but the exempt ones is 403 `read_only`.
    pub(super) read_only: bool,
    pub(super) requests: Vec<(Option<ClockMove>, Req)>,
}

pub(super) fn case() -> BoxedStrategy<Case> {
    let clock = prop::option::weighted(0.15, ops::clock_move());
    (
        ops::start(),
        ops::seed(),
        prop::collection::vec(ops::op(), 0..12),
        prop::bool::weighted(0.1),
        prop::collection::vec((clock, req()), 1..=30),
    )
        .prop_map(|(start, seed, more, read_only, requests)| Case {
            start,
            setup: seed.into_iter().chain(more).collect(),
            read_only,
            requests,
        })
        .boxed()
}
