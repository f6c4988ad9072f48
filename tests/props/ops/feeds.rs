//! Calendar feeds and the calendar (document 3): the operations, their
//! strategies and their requests. Feeds are read from the offline server
//! of `crate::feeds`, whose address's last segment says what answers.

use super::*;

/// What a feed's address answers (see `crate::feeds::answer`).
const ANSWERS: &[&str] = &["team.ics", "404", "500", "html", "refused", "timeout"];

/// The operations on calendar feeds, and reads of the calendar.
#[derive(Debug, Clone)]
pub(crate) enum FeedOp {
    Create {
        name: Option<String>,
        answer: u8,
        every: Option<u8>,
    },
    Change {
        feed: Pick,
        name: Option<String>,
        answer: Option<u8>,
        every: Option<u8>,
    },
    Sync {
        feed: Pick,
    },
    SyncAll,
    Delete {
        feed: Pick,
    },
    /// `GET /calendar` from a day near today, for 1 to 42 days.
    Range {
        from: i8,
        days: u8,
    },
    /// A person's meetings.
    Meetings {
        person: Pick,
    },
}

const EVERY: &[&str] = &[
    "15_minutes",
    "30_minutes",
    "hourly",
    "6_hours",
    "daily",
    "weekly",
];

pub(super) fn feed_op() -> BoxedStrategy<FeedOp> {
    prop_oneof![
        2 => (
            prop::option::weighted(0.5, person_name()),
            any::<u8>(),
            prop::option::weighted(0.3, any::<u8>()),
        )
            .prop_map(|(name, answer, every)| FeedOp::Create { name, answer, every }),
        1 => (
            pick(),
            prop::option::weighted(0.4, person_name()),
            prop::option::weighted(0.3, any::<u8>()),
            prop::option::weighted(0.3, any::<u8>()),
        )
            .prop_map(|(feed, name, answer, every)| FeedOp::Change {
                feed,
                name,
                answer,
                every,
            }),
        1 => pick().prop_map(|feed| FeedOp::Sync { feed }),
        1 => Just(FeedOp::SyncAll),
        1 => pick().prop_map(|feed| FeedOp::Delete { feed }),
        2 => (any::<i8>(), 1u8..=43).prop_map(|(from, days)| FeedOp::Range { from, days }),
        1 => pick().prop_map(|person| FeedOp::Meetings { person }),
    ]
    .boxed()
}

fn address(answer: u8) -> String {
    format!(
        "https://calendar.example.com/feeds/{}",
        ANSWERS[answer as usize % ANSWERS.len()]
    )
}

impl World {
    pub(super) fn feed_call(&self, op: &FeedOp) -> Planned {
        let at = |f: &Pick| format!("/calendar_feeds/{}", self.pick("calendar_feeds", *f));
        let plain = |call: Call| Planned {
            call,
            creates: None,
        };
        match op {
            FeedOp::Create {
                name,
                answer,
                every,
            } => {
                let mut f = Map::new();
                f.insert("address".into(), json!(address(*answer)));
                f.insert("color".into(), json!("blue"));
                if let Some(n) = name {
                    f.insert("name".into(), json!(n));
                }
                if let Some(e) = every {
                    f.insert("sync_every".into(), json!(EVERY[*e as usize % EVERY.len()]));
                }
                Planned {
                    call: Call::new(Method::Post, "/calendar_feeds")
                        .body(json!({ "calendar_feed": f })),
                    creates: Some("calendar_feeds"),
                }
            }
            FeedOp::Change {
                feed,
                name,
                answer,
                every,
            } => {
                let mut f = Map::new();
                if let Some(n) = name {
                    f.insert("name".into(), json!(n));
                }
                if let Some(a) = answer {
                    f.insert("address".into(), json!(address(*a)));
                }
                if let Some(e) = every {
                    f.insert("sync_every".into(), json!(EVERY[*e as usize % EVERY.len()]));
                }
                plain(Call::new(Method::Patch, at(feed)).body(json!({ "calendar_feed": f })))
            }
            FeedOp::Sync { feed } => plain(Call::new(Method::Post, format!("{}/sync", at(feed)))),
            FeedOp::SyncAll => plain(Call::new(Method::Post, "/calendar_feeds/sync")),
            FeedOp::Delete { feed } => plain(Call::new(Method::Delete, at(feed))),
            FeedOp::Range { from, days } => {
                let from = self.today() + i64::from(*from).days();
                let to = from + (i64::from(*days) - 1).days();
                plain(
                    Call::get("/calendar")
                        .param("from", from.to_string())
                        .param("to", to.to_string()),
                )
            }
            FeedOp::Meetings { person } => plain(Call::new(
                Method::Get,
                format!("/people/{}/meetings?limit=3", self.pick("people", *person)),
            )),
        }
    }
}
