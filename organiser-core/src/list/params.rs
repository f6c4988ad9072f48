//! Parsing and checking the shared list parameters; every mistake is a 400
//! `invalid_parameter` naming the parameter.

use jiff::Timestamp;

use super::Query;
use crate::error::{Details, Result};
use crate::limits::{DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE};

crate::input::words! {
    /// An order a listing may be asked for (`order`); each listing takes
    /// some of them, and refuses the others as a request would.
    pub enum ListOrder {
        /// The owner's placement.
        Position = "position",
        /// By ID (the order records were made in).
        Id = "id",
        /// By name, ignoring case.
        Name = "name",
        /// By when the record was made.
        CreatedAt = "created_at",
        /// By when the record last changed.
        UpdatedAt = "updated_at",
        /// By when a note was last edited.
        EditedAt = "edited_at",
        /// By when the record was deleted.
        DeletedAt = "deleted_at",
        /// By start date (tasks).
        StartOn = "start_on",
        /// By deadline (tasks).
        DeadlineOn = "deadline_on",
        /// By when a task closed (tasks).
        ClosedAt = "closed_at",
        /// By when a task was completed (tasks).
        CompletedAt = "completed_at",
        /// By when a notification fell due (notifications).
        DueAt = "due_at",
    }
}

/// Sort direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Smallest first.
    Asc,
    /// Largest first.
    Desc,
}

impl Direction {
    /// `asc` or `desc`.
    pub fn as_str(self) -> &'static str {
        match self {
            Direction::Asc => "asc",
            Direction::Desc => "desc",
        }
    }

    pub(crate) fn dir(self) -> crate::store::Dir {
        match self {
            Direction::Asc => crate::store::Dir::Asc,
            Direction::Desc => crate::store::Dir::Desc,
        }
    }
}

/// The shared list parameters of one request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListParams {
    /// `order`, one of the orders the listing takes (another is refused
    /// with 400, whichever door it comes through); `None` for the
    /// listing's default.
    pub order: Option<ListOrder>,
    /// `direction`; `None` when not sent (each endpoint has its default).
    pub direction: Option<Direction>,
    /// `updated_since`: only records updated at or after it.
    pub updated_since: Option<Timestamp>,
    /// `cursor`: the `next_cursor` of the previous page.
    pub cursor: Option<String>,
    /// `limit`, clamped to 1..=100 (default 50).
    pub limit: usize,
    /// `count=true`: add `total_count` to the meta.
    pub count: bool,
}

impl Default for ListParams {
    fn default() -> Self {
        ListParams {
            order: None,
            direction: None,
            updated_since: None,
            cursor: None,
            limit: DEFAULT_PAGE_SIZE,
            count: false,
        }
    }
}

impl ListParams {
    /// Reads the shared parameters from `query`. `orders` are the values of
    /// `order` this endpoint allows; an empty slice means it takes no
    /// `order`. With `updated_since`, the listing is by `updated_at`, so any
    /// other `order` is refused.
    pub(crate) fn parse(query: &Query, orders: &[&str]) -> Result<ListParams> {
        let mut details = Details::new();
        let mut params = ListParams::default();

        if let Some(order) = query.get("order") {
            if let Some(known) = ListOrder::parse(order).filter(|_| orders.contains(&order)) {
                params.order = Some(known);
            } else if orders.is_empty() {
                details.add("order", "is not accepted by this list");
            } else {
                details.add("order", format!("must be one of {}", orders.join(", ")));
            }
        }
        if let Some(direction) = query.get("direction") {
            match direction {
                "asc" => params.direction = Some(Direction::Asc),
                "desc" => params.direction = Some(Direction::Desc),
                _ => details.add("direction", "must be asc or desc"),
            }
        }
        if let Some(since) = query.get("updated_since") {
            match crate::time::parse_timestamp(since) {
                Some(t) => params.updated_since = Some(t),
                None => details.add(
                    "updated_since",
                    "must be an ISO 8601 date-time with Z or a UTC offset",
                ),
            }
        }
        if let Some(cursor) = query.get("cursor") {
            if cursor.is_empty() {
                details.add("cursor", "is not a cursor from this list");
            } else {
                params.cursor = Some(cursor.to_owned());
            }
        }
        if let Some(limit) = query.get("limit") {
            match limit.parse::<u64>() {
                Ok(n) if n >= 1 => params.limit = n.min(MAX_PAGE_SIZE as u64) as usize,
                Ok(_) => details.add("limit", "must be at least 1"),
                Err(_) => {
                    // A whole number too large for u64 is still "larger than 100".
                    if !limit.is_empty() && limit.bytes().all(|b| b.is_ascii_digit()) {
                        params.limit = MAX_PAGE_SIZE;
                    } else {
                        details.add("limit", "must be a whole number");
                    }
                }
            }
        }
        if let Some(count) = query.get("count") {
            match count {
                "true" => params.count = true,
                "false" => params.count = false,
                _ => details.add("count", "must be true or false"),
            }
        }
        let other_order = params.order.filter(|o| *o != ListOrder::UpdatedAt);
        if let (Some(_), Some(order)) = (params.updated_since, other_order) {
            details.add(
                "order",
                format!(
                    "cannot be {order} with updated_since (that list is ordered by updated_at)"
                ),
            );
        }
        details.into_invalid_parameter()?;
        Ok(params)
    }

    /// The parameters as a query reads them back (`limit` always, `count`
    /// when true), with `order` when sent.
    pub(crate) fn query_pairs(&self) -> Vec<(&'static str, String)> {
        let mut pairs = Vec::new();
        self.to_query_ordered(self.order.map(ListOrder::as_str), &mut pairs);
        pairs
    }

    /// The parameters as a query reads them back, with `order` as given.
    pub(crate) fn to_query_ordered(
        &self,
        order: Option<&str>,
        pairs: &mut Vec<(&'static str, String)>,
    ) {
        if let Some(order) = order {
            pairs.push(("order", order.to_owned()));
        }
        if let Some(direction) = self.direction {
            pairs.push(("direction", direction.as_str().to_owned()));
        }
        if let Some(since) = self.updated_since {
            pairs.push(("updated_since", crate::time::format_timestamp(since)));
        }
        if let Some(cursor) = &self.cursor {
            pairs.push(("cursor", cursor.clone()));
        }
        pairs.push(("limit", self.limit.to_string()));
        if self.count {
            pairs.push(("count", "true".to_owned()));
        }
    }

    /// The direction, or `default` when not sent.
    pub fn direction_or(&self, default: Direction) -> Direction {
        self.direction.unwrap_or(default)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(query: &str) -> Result<ListParams> {
        ListParams::parse(
            &Query::parse(query).unwrap(),
            &["position", "name", "updated_at"],
        )
    }

    #[test]
    fn good_parameters_are_read() {
        let p = parse("order=name&direction=desc&limit=7&count=true").unwrap();
        assert_eq!(p.order, Some(ListOrder::Name));
        assert_eq!(p.direction, Some(Direction::Desc));
        assert_eq!((p.limit, p.count), (7, true));
        assert_eq!(parse("").unwrap(), ListParams::default());
    }

    #[test]
    fn limits_are_clamped_to_100() {
        for (q, limit) in [
            ("limit=100", 100),
            ("limit=101", 100),
            ("limit=99999999999999999999999", 100),
            ("limit=1", 1),
        ] {
            assert_eq!(parse(q).unwrap().limit, limit, "{q}");
        }
    }

    #[test]
    fn mistakes_are_400_on_the_parameter() {
        for (q, param) in [
            ("order=colour", "order"),
            ("direction=up", "direction"),
            ("updated_since=2026-01-01T00:00:00", "updated_since"),
            ("updated_since=yesterday", "updated_since"),
            ("limit=0", "limit"),
            ("limit=-1", "limit"),
            ("limit=ten", "limit"),
            ("count=1", "count"),
            ("count=TRUE", "count"),
            ("count=", "count"),
            ("cursor=", "cursor"),
            ("order=name&updated_since=2026-01-01T00:00:00Z", "order"),
        ] {
            let err = parse(q).unwrap_err();
            assert_eq!(err.status(), 400, "{q}");
            assert!(err.details().unwrap().has(param), "{q}: {err:?}");
        }
    }

    #[test]
    fn updated_since_takes_z_or_an_offset() {
        let z = parse("updated_since=2026-01-01T10:00:00Z")
            .unwrap()
            .updated_since
            .unwrap();
        let offset = parse("updated_since=2026-01-01T11:00:00%2B01:00")
            .unwrap()
            .updated_since
            .unwrap();
        assert_eq!(z, offset);
    }
}
