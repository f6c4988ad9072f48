//! Keyset pages over index tables: walk from the cursor, keep what the
//! filter accepts, stop one past the limit to know whether more exist.

use std::ops::Bound;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::error::Result;
use crate::store::{Dir, Tables, Tbl};

/// One page of a list: `{data, meta}` in the API.
#[derive(Debug, Clone, PartialEq)]
pub struct Page<T> {
    /// The items, in order.
    pub items: Vec<T>,
    /// Resumes after the last item; `None` on the last page.
    pub next_cursor: Option<String>,
    /// The page size asked for (after clamping).
    pub limit: usize,
    /// The size of the whole filtered set, when `count=true`.
    pub total_count: Option<u64>,
}

impl<T> Page<T> {
    /// A whole list as one page (a list the API does not paginate), its
    /// limit its length.
    pub fn whole(items: Vec<T>) -> Page<T> {
        Page {
            limit: items.len().max(1),
            items,
            next_cursor: None,
            total_count: None,
        }
    }

    /// Changes every item, keeping the meta.
    pub fn map<U>(self, f: impl FnMut(T) -> U) -> Page<U> {
        Page {
            items: self.items.into_iter().map(f).collect(),
            next_cursor: self.next_cursor,
            limit: self.limit,
            total_count: self.total_count,
        }
    }

    /// The `meta` object.
    pub fn meta(&self) -> serde_json::Value {
        let mut meta = serde_json::json!({
            "next_cursor": self.next_cursor,
            "limit": self.limit,
        });
        if let Some(total) = self.total_count {
            meta["total_count"] = total.into();
        }
        meta
    }
}

impl<T: Serialize> Page<T> {
    /// `{data: [...], meta: {...}}`.
    pub fn to_body(&self) -> serde_json::Value {
        serde_json::json!({ "data": self.items, "meta": self.meta() })
    }
}

/// `{data: [...], meta: {next_cursor, limit, total_count?}}` on the wire,
/// as [`Page::to_body`] writes it.
#[derive(Serialize)]
struct PageOut<'a, T> {
    data: &'a [T],
    meta: MetaOut<'a>,
}

#[derive(Serialize)]
struct MetaOut<'a> {
    next_cursor: Option<&'a str>,
    limit: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    total_count: Option<u64>,
}

#[derive(Deserialize)]
struct PageIn<T> {
    data: Vec<T>,
    meta: MetaIn,
}

#[derive(Deserialize)]
struct MetaIn {
    next_cursor: Option<String>,
    limit: usize,
    #[serde(default)]
    total_count: Option<u64>,
}

/// Writes the API's `{data, meta}`, the same as [`Page::to_body`].
impl<T: Serialize> Serialize for Page<T> {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        PageOut {
            data: &self.items,
            meta: MetaOut {
                next_cursor: self.next_cursor.as_deref(),
                limit: self.limit,
                total_count: self.total_count,
            },
        }
        .serialize(s)
    }
}

/// Reads the API's `{data, meta}`.
impl<'de, T: Deserialize<'de>> Deserialize<'de> for Page<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let page = PageIn::deserialize(d)?;
        Ok(Page {
            items: page.data,
            next_cursor: page.meta.next_cursor,
            limit: page.meta.limit,
            total_count: page.meta.total_count,
        })
    }
}

/// A range of one index table, walked in one direction.
#[derive(Clone)]
pub(crate) struct Scan {
    pub(crate) table: Tbl,
    /// Inclusive lower bound.
    pub(crate) lo: Vec<u8>,
    /// Exclusive upper bound; `None` for the end of the table.
    pub(crate) hi: Option<Vec<u8>>,
    pub(crate) dir: Dir,
}

impl Scan {
    /// Keys from `lo` (inclusive) to `hi` (exclusive).
    pub(crate) fn range(table: Tbl, lo: Vec<u8>, hi: Option<Vec<u8>>, dir: Dir) -> Scan {
        Scan { table, lo, hi, dir }
    }

    fn bounds<'a>(&'a self, after: Option<&'a [u8]>) -> (Bound<&'a [u8]>, Bound<&'a [u8]>) {
        let mut lo = Bound::Included(self.lo.as_slice());
        let mut hi = match &self.hi {
            Some(hi) => Bound::Excluded(hi.as_slice()),
            None => Bound::Unbounded,
        };
        if let Some(after) = after {
            match self.dir {
                Dir::Asc => {
                    if after >= self.lo.as_slice() {
                        lo = Bound::Excluded(after);
                    }
                }
                Dir::Desc => {
                    if self.hi.as_deref().is_none_or(|h| after < h) {
                        hi = Bound::Excluded(after);
                    }
                }
            }
        }
        (lo, hi)
    }
}

/// Walks `scan` after `after`, giving each key to `accept`, and returns up
/// to `limit` accepted items with the key of the last one when more follow.
pub(crate) fn walk<T>(
    tx: &impl Tables,
    scan: &Scan,
    after: Option<&[u8]>,
    limit: usize,
    mut accept: impl FnMut(&[u8]) -> Result<Option<T>>,
) -> Result<(Vec<T>, Option<Vec<u8>>)> {
    let (lo, hi) = scan.bounds(after);
    let mut items = Vec::with_capacity(limit.min(128));
    let mut last_key: Option<Vec<u8>> = None;
    let mut more = false;
    tx.scan(scan.table, lo, hi, scan.dir, &mut |k, _| {
        if items.len() == limit {
            // One more accepted item means another page exists.
            if accept(k)?.is_some() {
                more = true;
                return Ok(false);
            }
            return Ok(true);
        }
        if let Some(item) = accept(k)? {
            items.push(item);
            last_key = Some(k.to_vec());
        }
        Ok(true)
    })?;
    Ok((items, if more { last_key } else { None }))
}

/// How many keys of `scan` `accept` takes.
pub(crate) fn count(
    tx: &impl Tables,
    scan: &Scan,
    mut accept: impl FnMut(&[u8]) -> Result<bool>,
) -> Result<u64> {
    let (lo, hi) = scan.bounds(None);
    let mut n = 0;
    tx.scan(scan.table, lo, hi, scan.dir, &mut |k, _| {
        if accept(k)? {
            n += 1;
        }
        Ok(true)
    })?;
    Ok(n)
}

/// Every item of a listing, page after page of 100: `list` lists from
/// the page's parameters (for example `|params| org.people().list(&PersonQuery
/// { params, ..Default::default() })`).
///
/// # Errors
///
/// The first error a page answers.
pub fn every<T>(
    mut list: impl FnMut(crate::list::ListParams) -> crate::Result<Page<T>>,
) -> crate::Result<Vec<T>> {
    let mut out = Vec::new();
    let mut cursor = None;
    loop {
        let page = list(crate::list::ListParams {
            cursor,
            limit: 100,
            ..crate::list::ListParams::default()
        })?;
        out.extend(page.items);
        match page.next_cursor {
            Some(next) => cursor = Some(next),
            None => return Ok(out),
        }
    }
}
