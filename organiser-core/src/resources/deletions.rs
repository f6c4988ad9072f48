//! Deletion records (document 1, "Deletion" and "Deletions (sync)"):
//! written in the same transaction as the delete, removed again when the
//! delete is undone, listed oldest first by (`deleted_at`, `id`).

use jiff::Timestamp;
use serde::{Deserialize, Serialize};

use crate::engine::endpoint::Endpoint;
use crate::engine::op::{ReadOp, Route};
use crate::engine::request::{Method, Request, Response};
use crate::engine::{Cx, Organiser, WriteCx};
use crate::error::{Details, Error, Result};
use crate::ids::Id;
use crate::list::Query;
use crate::list::{Direction, Filter, ListParams, Listing, Order, Page};
use crate::store::Tables;
use crate::store::key::{Key, Reader};
use crate::store::schema::{DELETIONS, DELETIONS_BY_RECORD};

/// One deletion record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Deletion {
    /// The resource type (`task`, `task_list`, ...).
    #[serde(rename = "type")]
    pub kind: String,
    /// The deleted record's ID.
    pub id: Id,
    /// When it was deleted.
    #[serde(with = "crate::time::serde_timestamp")]
    pub deleted_at: Timestamp,
}

/// `GET /deletions` parameters.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DeletionQuery {
    /// Only deletions at or after this instant.
    pub since: Option<Timestamp>,
    /// `cursor`, `limit` and `count`.
    pub page: ListParams,
}

impl DeletionQuery {
    pub(crate) fn parse(query: &Query) -> Result<DeletionQuery> {
        let mut details = Details::new();
        for refused in ["order", "direction", "updated_since"] {
            if query.has(refused) {
                details.add(
                    refused,
                    "is not accepted by this list (deletions are oldest first; use since)",
                );
            }
        }
        details.into_invalid_parameter()?;
        Ok(DeletionQuery {
            since: query.timestamp("since")?,
            page: ListParams::parse(query, &[])?,
        })
    }
}

fn record_key(kind: &str, id: Id) -> Key {
    Key::new().str(kind).id(id)
}

fn list_key(deleted_at: Timestamp, id: Id, kind: &str) -> Key {
    Key::new().timestamp(deleted_at).id(id).str(kind)
}

/// Records that `kind` `id` was deleted now (replacing an older record of
/// the same delete).
pub(crate) fn record(cx: &WriteCx<'_>, kind: &str, id: Id) -> Result<()> {
    unrecord(cx, kind, id)?;
    let now = cx.now();
    cx.index(DELETIONS, list_key(now, id, kind).as_slice())?;
    cx.insert(
        DELETIONS_BY_RECORD,
        record_key(kind, id).as_slice(),
        &now.as_millisecond().to_be_bytes(),
    )
}

/// Removes the deletion record of `kind` `id` (the delete was undone).
pub(crate) fn unrecord(cx: &WriteCx<'_>, kind: &str, id: Id) -> Result<()> {
    let rk = record_key(kind, id);
    if let Some(at) = cx.get(DELETIONS_BY_RECORD, rk.as_slice())? {
        let ms = i64::from_be_bytes(at.as_slice().try_into().unwrap_or_default());
        let at = Timestamp::from_millisecond(ms).unwrap_or_default();
        cx.remove(DELETIONS, list_key(at, id, kind).as_slice())?;
        cx.remove(DELETIONS_BY_RECORD, rk.as_slice())?;
    }
    Ok(())
}

/// Settled: a delete that becomes permanent may write deletion records
/// (a company no position names any more once its person is gone).
static LIST: ReadOp = ReadOp::SETTLED;

impl Organiser {
    /// `GET /deletions`.
    pub fn deletions(&self, query: &DeletionQuery) -> Result<Page<Deletion>> {
        self.inner.read_op(&LIST, |cx| list(cx, query))
    }
}

/// The routes of [`routes`].
pub(crate) static ENDPOINTS: &[Endpoint] = &[Endpoint::new(Method::Get, "/deletions")];

/// `/deletions`.
pub(crate) fn routes<'r>(req: &'r Request, segments: &[&'r str]) -> Result<Route<'r>> {
    Ok(match (req.method, segments) {
        (Method::Get, ["deletions"]) => {
            let query = DeletionQuery::parse(&req.query)?;
            LIST.route(move |cx| Ok(Response::json(200, &list(cx, &query)?)))
        }
        _ => return Err(Error::NotFound),
    })
}

/// `GET /deletions`: oldest first by (`deleted_at`, `id`), from `since`.
static LISTING: Listing = Listing {
    name: "deletions",
    orders: &[Order {
        name: "deleted_at",
        index: DELETIONS,
        direction: Direction::Asc,
    }],
    updated: None,
    every: DELETIONS,
};

fn list<T: Tables>(cx: &Cx<'_, T>, q: &DeletionQuery) -> Result<Page<Deletion>> {
    let filter = match q.since {
        Some(since) => Filter::starting_at(Key::new().timestamp(since), since.to_string()),
        None => Filter::default(),
    };
    LISTING.page(&cx.tx, &cx.org.secret, &q.page, &filter, |k| {
        let mut r = Reader::new(k);
        let ms = r.i64();
        let id = r.id();
        let kind = r.str();
        Ok(Some(Deletion {
            kind,
            id,
            deleted_at: Timestamp::from_millisecond(ms).unwrap_or_default(),
        }))
    })
}
