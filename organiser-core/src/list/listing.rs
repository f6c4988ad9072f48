//! The listing machine (document 1, "List parameters and page meta"): a
//! list endpoint is a [`Listing`] declaration (its orders, each walking one
//! index table, and the index of `updated_since`), and [`Listing::page`]
//! does the rest: the order and direction, the keyset cursor bound to the
//! listing, the page, and `total_count` from index lengths or key counts,
//! never by loading records.

use std::cell::RefCell;

use jiff::Timestamp;

use super::page::{Scan, count, walk};
use super::{Cursor, Direction, ListParams, Page, Query};
use crate::error::Result;
use crate::secrets::SecretKey;
use crate::store::key::{Key, prefix_end};
use crate::store::{Tables, Tbl};

/// One order of a list endpoint.
pub(crate) struct Order {
    /// The API's name for it (`position`, `name`, ...).
    pub(crate) name: &'static str,
    /// The index it walks: one entry per listed record, keys in the order's
    /// order.
    pub(crate) index: Tbl,
    /// Its direction when the request names none.
    pub(crate) direction: Direction,
}

/// A list endpoint, declared once.
pub(crate) struct Listing {
    /// Names the listing in its cursors, so a cursor of another list is
    /// refused.
    pub(crate) name: &'static str,
    /// Every order it accepts; the first is the default.
    pub(crate) orders: &'static [Order],
    /// The `updated_at` order, which `updated_since` walks (keys begin with
    /// `updated_at`); `None` when the list takes no `updated_since`.
    pub(crate) updated: Option<&'static Order>,
    /// An index with exactly one entry per listed record, whose length is
    /// the unfiltered `total_count`.
    pub(crate) every: Tbl,
}

/// The keys a page is drawn from: the whole order, one key prefix of it
/// (a filter whose value leads the index key), or the keys from a start
/// (a lower bound such as `since`).
#[derive(Debug, Clone, Default)]
pub(crate) struct Filter {
    prefix: Option<Vec<u8>>,
    start: Option<Vec<u8>>,
    /// Names the filter's value in the cursor's scope.
    scope: String,
    /// Whether `load` skips keys of the range (a filter the index does not
    /// lead with), so `total_count` must count what `load` keeps.
    skips: bool,
}

impl Filter {
    /// Only the keys from `start` on (in ascending key order).
    pub(crate) fn starting_at(start: Key, scope: impl Into<String>) -> Filter {
        Filter {
            start: Some(start.into_vec()),
            scope: scope.into(),
            ..Filter::default()
        }
    }

    fn narrows(&self) -> bool {
        self.prefix.is_some() || self.start.is_some() || self.skips
    }

    /// The same keys, of which `load` keeps some (a filter on a value the
    /// index does not lead with); `scope` names it in cursors, and
    /// `total_count` walks the keys and counts what `load` keeps.
    pub(crate) fn skipping(mut self, scope: &str) -> Filter {
        self.skips = true;
        self.scope.push('|');
        self.scope.push_str(scope);
        self
    }

    /// Only the keys that begin with `prefix`; `scope` names it in cursors.
    pub(crate) fn prefix(prefix: Key, scope: impl Into<String>) -> Filter {
        Filter {
            prefix: Some(prefix.into_vec()),
            scope: scope.into(),
            ..Filter::default()
        }
    }
}

impl Listing {
    /// The list parameters of `query`, with the orders this listing takes.
    pub(crate) fn params(&self, query: &Query) -> Result<ListParams> {
        let names: Vec<&str> = self.orders.iter().map(|o| o.name).collect();
        // An order a typed caller cannot name would be refused to everyone.
        debug_assert!(
            names.iter().all(|n| super::ListOrder::parse(n).is_some()),
            "{}: an order that ListOrder lacks",
            self.name
        );
        ListParams::parse(query, &names)
    }

    /// The order a request asks for: `updated_at` with `updated_since`,
    /// else the one named, else the default.
    fn order(&self, p: &ListParams) -> &'static Order {
        if p.updated_since.is_some()
            && let Some(updated) = self.updated
        {
            return updated;
        }
        p.order
            .and_then(|asked| self.orders.iter().find(|o| o.name == asked.as_str()))
            .unwrap_or(&self.orders[0])
    }

    /// One page of the listing on `tx`, its cursors signed with `secret`:
    /// `load` turns an index key into the item it lists (`None` skips it).
    pub(crate) fn page<T>(
        &self,
        tx: &impl Tables,
        secret: &SecretKey,
        p: &ListParams,
        filter: &Filter,
        load: impl FnMut(&[u8]) -> Result<Option<T>>,
    ) -> Result<Page<T>> {
        // The walk ends before the count begins: one borrow at a time.
        let load = RefCell::new(load);
        self.walk_and_count(
            tx,
            secret,
            p,
            filter,
            |k| (load.borrow_mut())(k),
            |k| Ok((load.borrow_mut())(k)?.is_some()),
        )
    }

    /// [`Listing::page`] for a filter that can say which keys it keeps
    /// without loading their records: `keep` decides (and alone makes
    /// `total_count`), and `load` turns a kept key into its item.
    pub(crate) fn page_keeping<T>(
        &self,
        tx: &impl Tables,
        secret: &SecretKey,
        p: &ListParams,
        filter: &Filter,
        keep: impl FnMut(&[u8]) -> Result<bool>,
        mut load: impl FnMut(&[u8]) -> Result<Option<T>>,
    ) -> Result<Page<T>> {
        let keep = RefCell::new(keep);
        self.walk_and_count(
            tx,
            secret,
            p,
            filter,
            |k| match (keep.borrow_mut())(k)? {
                true => load(k),
                false => Ok(None),
            },
            |k| (keep.borrow_mut())(k),
        )
    }

    /// A page of the items `accept` makes of the walked keys, and
    /// `total_count` (when asked) as the keys `counted` takes.
    fn walk_and_count<T>(
        &self,
        tx: &impl Tables,
        secret: &SecretKey,
        p: &ListParams,
        filter: &Filter,
        accept: impl FnMut(&[u8]) -> Result<Option<T>>,
        counted: impl FnMut(&[u8]) -> Result<bool>,
    ) -> Result<Page<T>> {
        let order = self.order(p);
        let direction = p.direction_or(order.direction);
        let since = p.updated_since;
        let scan = self.scan(order, direction, since, filter);
        let scope = format!(
            "{}|{}|{}|{}{}",
            self.name,
            order.name,
            direction.as_str(),
            since.map(Timestamp::as_millisecond).unwrap_or(i64::MIN),
            filter.scope,
        );
        let cursor = Cursor::new(secret, scope);
        let after = p.cursor.as_deref().map(|c| cursor.decode(c)).transpose()?;
        let (items, last) = walk(tx, &scan, after.as_deref(), p.limit, accept)?;
        let total_count = match p.count {
            false => None,
            true if since.is_none() && !filter.narrows() => Some(tx.len(self.every)?),
            true if filter.skips => Some(count(tx, &scan, counted)?),
            true => Some(count(tx, &scan, |_| Ok(true))?),
        };
        Ok(Page {
            items,
            next_cursor: last.map(|k| cursor.encode(&k)),
            limit: p.limit,
            total_count,
        })
    }

    fn scan(
        &self,
        order: &Order,
        direction: Direction,
        since: Option<Timestamp>,
        filter: &Filter,
    ) -> Scan {
        let dir = direction.dir();
        let prefix = filter.prefix.clone().unwrap_or_default();
        let hi = filter.prefix.as_deref().and_then(prefix_end);
        match since {
            Some(since) => {
                let lo = Key::new().bytes(&prefix).timestamp(since).into_vec();
                Scan::range(order.index, lo, hi, dir)
            }
            None => {
                let lo = match &filter.start {
                    Some(start) => Key::new().bytes(&prefix).bytes(start).into_vec(),
                    None => prefix,
                };
                Scan::range(order.index, lo, hi, dir)
            }
        }
    }
}
