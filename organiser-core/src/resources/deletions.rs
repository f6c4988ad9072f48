//! Deletion records (document 1, "Deletion" and "Deletions (sync)"):
//! written in the same transaction as the delete, removed again when the
//! delete is undone, listed oldest first by (`deleted_at`, `id`).

use jiff::Timestamp;
use serde::{Deserialize, Serialize};

use crate::engine::op::ReadOp;
use crate::engine::operation::{Answer, Declared, Door, Operation, Run, query_part};
use crate::engine::request::Method::Get;
use crate::engine::{Cx, Organiser, WriteCx};
use crate::error::{Details, Result};
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
    /// The query's parameters, as [`DeletionQuery::parse`] reads them.
    pub(crate) fn query_pairs(&self) -> Vec<(&'static str, String)> {
        let mut pairs = self.page.query_pairs();
        if let Some(since) = self.since {
            pairs.push(("since", crate::time::format_timestamp(since)));
        }
        pairs
    }

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
    record_at(cx, kind, id, cx.now())
}

/// Records that `kind` `id` was deleted at `at` (an imported deletion
/// record), replacing an older record of it.
pub(crate) fn record_at(cx: &WriteCx<'_>, kind: &str, id: Id, at: Timestamp) -> Result<()> {
    unrecord(cx, kind, id)?;
    cx.index(DELETIONS, list_key(at, id, kind).as_slice())?;
    cx.insert(
        DELETIONS_BY_RECORD,
        record_key(kind, id).as_slice(),
        &at.as_millisecond().to_be_bytes(),
    )
}

/// When `kind` `id` was deleted, if a deletion record says so.
pub(crate) fn recorded<T: Tables>(cx: &Cx<'_, T>, kind: &str, id: Id) -> Result<Option<Timestamp>> {
    Ok(cx
        .get(DELETIONS_BY_RECORD, record_key(kind, id).as_slice())?
        .and_then(|at| <[u8; 8]>::try_from(at.as_slice()).ok())
        .and_then(|at| Timestamp::from_millisecond(i64::from_be_bytes(at)).ok()))
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

/// `GET /deletions`. Settled: a delete that becomes permanent may write
/// deletion records (a company no position names any more once its
/// person is gone).
pub(crate) static LIST: Operation<DeletionQuery, Page<Deletion>> = Operation::new(
    "listDeletions",
    Get,
    "/deletions",
    "Deletion records\n\n`order`, `direction` and `updated_since` are 400.",
    Run::Read(ReadOp::SETTLED, |cx, query| list(cx, &query)),
    Answer::bare(200),
);

/// The deletions' operation, for the registry.
pub(crate) static OPERATIONS: &[&dyn Declared] = &[&LIST];

query_part!(DeletionQuery);

/// The deletion records of a store (document 1, "Deletions (sync)"),
/// through a [`Door`]: the store itself (`org.deletions()`), or a server
/// that holds it.
#[derive(Debug, Clone, Copy)]
pub struct Deletions<'d, D = Organiser> {
    door: &'d D,
}

impl<'d, D: Door> Deletions<'d, D> {
    /// The deletion records of the store behind `door`.
    pub fn new(door: &'d D) -> Self {
        Deletions { door }
    }

    /// One page of the deletion records (from `query.since` on), oldest
    /// first: what a mirror built from `updated_since` lists removes.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidParameter`](crate::Error::InvalidParameter) for a
    /// cursor of another listing.
    pub fn list(&self, query: &DeletionQuery) -> Result<Page<Deletion>> {
        self.door.call(&LIST, query.clone())
    }
}

impl Organiser {
    /// The store's deletion records.
    pub fn deletions(&self) -> Deletions<'_> {
        Deletions::new(self)
    }
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
        Ok(Some(of_key(k)))
    })
}

/// The deletion record a key of `DELETIONS` holds.
fn of_key(k: &[u8]) -> Deletion {
    let mut r = Reader::new(k);
    let ms = r.i64();
    let id = r.id();
    let kind = r.str();
    Deletion {
        kind,
        id,
        deleted_at: Timestamp::from_millisecond(ms).unwrap_or_default(),
    }
}

/// Every deletion record, oldest first (`deleted_at`, then ID): the
/// organiser's archive holds them all.
pub(crate) fn all<T: Tables>(cx: &Cx<'_, T>) -> Result<Vec<Deletion>> {
    let mut out = Vec::new();
    cx.tx.scan(
        DELETIONS,
        std::ops::Bound::Unbounded,
        std::ops::Bound::Unbounded,
        crate::store::Dir::Asc,
        &mut |k, _| {
            out.push(of_key(k));
            Ok(true)
        },
    )?;
    Ok(out)
}
