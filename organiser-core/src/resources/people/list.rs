//! The listing of people (document 3, `GET /people`): live people by
//! name (default), creation, change or id, filtered by relationship (the
//! `family` group included), or found by the start of their name.

use super::store::load_row;
use super::tables::{
    PEOPLE, PEOPLE_BY_NAME, PEOPLE_BY_RELATIONSHIP, PEOPLE_BY_RELATIONSHIP_NAME,
    PEOPLE_BY_RELATIONSHIP_UPDATED, PEOPLE_BY_UPDATED,
};
use super::{Person, PersonRow};
use crate::engine::Cx;
use crate::error::{Error, Result};
use crate::list::{Direction, Filter, ListParams, Listing, Order, Page, Query};
use crate::resources::vocabulary::RELATIONSHIPS;
use crate::store::Tables;
use crate::store::key::{Key, tail_id};
use crate::text::fold_case;

/// `GET /people` parameters.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PersonQuery {
    /// A relationship key, or `family` for any family one.
    pub relationship: Option<String>,
    /// People whose name begins with this, ignoring case (ours: the spec
    /// names no such filter); by name only.
    pub q: Option<String>,
    /// `name` (default), `created_at`, `updated_at`, `id`; direction,
    /// updated_since, cursor, limit, count.
    pub params: ListParams,
}

const UPDATED: Order = Order {
    name: "updated_at",
    index: PEOPLE_BY_UPDATED,
    direction: Direction::Asc,
};

/// `GET /people`: live people by name (default), creation, change or id.
/// IDs are made in creation order, so `created_at` and `id` walk the same
/// keys.
static LISTING: Listing = Listing {
    name: "people",
    orders: &[
        Order {
            name: "name",
            index: PEOPLE_BY_NAME,
            direction: Direction::Asc,
        },
        Order {
            name: "created_at",
            index: PEOPLE,
            direction: Direction::Asc,
        },
        UPDATED,
        Order {
            name: "id",
            index: PEOPLE,
            direction: Direction::Asc,
        },
    ],
    updated: Some(&UPDATED),
    every: PEOPLE_BY_NAME,
};

const BY_RELATIONSHIP_UPDATED: Order = Order {
    name: "updated_at",
    index: PEOPLE_BY_RELATIONSHIP_UPDATED,
    direction: Direction::Asc,
};

/// `GET /people?relationship=…`: the same orders on the indexes led by the
/// relationship.
static BY_RELATIONSHIP: Listing = Listing {
    name: "people",
    orders: &[
        Order {
            name: "name",
            index: PEOPLE_BY_RELATIONSHIP_NAME,
            direction: Direction::Asc,
        },
        Order {
            name: "created_at",
            index: PEOPLE_BY_RELATIONSHIP,
            direction: Direction::Asc,
        },
        BY_RELATIONSHIP_UPDATED,
        Order {
            name: "id",
            index: PEOPLE_BY_RELATIONSHIP,
            direction: Direction::Asc,
        },
    ],
    updated: Some(&BY_RELATIONSHIP_UPDATED),
    every: PEOPLE_BY_RELATIONSHIP,
};

impl PersonQuery {
    /// The query's parameters, as [`PersonQuery::parse`] reads them.
    pub(crate) fn query_pairs(&self) -> Vec<(&'static str, String)> {
        let mut pairs = self.params.query_pairs();
        if let Some(v) = &self.relationship {
            pairs.push(("relationship", v.clone()));
        }
        if let Some(v) = &self.q {
            pairs.push(("q", v.clone()));
        }
        pairs
    }

    pub(crate) fn parse(query: &Query) -> Result<PersonQuery> {
        let params = LISTING.params(query)?;
        let relationship = match query.get("relationship") {
            None => None,
            Some(key) if key == "family" || RELATIONSHIPS.iter().any(|r| r.key == key) => {
                Some(key.to_owned())
            }
            Some(_) => {
                return Err(Error::bad_param(
                    "relationship",
                    "must be a relationship key of the vocabulary, or family",
                ));
            }
        };
        let q = query
            .get("q")
            .map(str::trim)
            .filter(|q| !q.is_empty())
            .map(str::to_owned);
        if q.is_some() {
            let refused = if relationship.is_some() {
                Some("relationship")
            } else if params.updated_since.is_some() {
                Some("updated_since")
            } else if params
                .order
                .is_some_and(|o| o != crate::list::ListOrder::Name)
            {
                Some("order")
            } else {
                None
            };
            if let Some(param) = refused {
                return Err(Error::bad_param(
                    param,
                    "is not accepted with q (people found by name are listed by name)",
                ));
            }
        }
        Ok(PersonQuery {
            relationship,
            q,
            params,
        })
    }
}

/// `GET /people`.
pub(crate) fn list<T: Tables>(cx: &Cx<'_, T>, q: &PersonQuery) -> Result<Page<Person>> {
    let load = |k: &[u8]| {
        Ok(match load_row(cx, tail_id(k))? {
            Some(PersonRow {
                person,
                deleted: None,
            }) => Some(person),
            _ => None,
        })
    };
    if let Some(name) = &q.q {
        let filter = Filter::prefix(Key::new().str_start(&fold_case(name)), format!("q={name}"));
        return LISTING.page(&cx.tx, &cx.org.secret, &q.params, &filter, load);
    }
    match &q.relationship {
        None => LISTING.page(&cx.tx, &cx.org.secret, &q.params, &Filter::default(), load),
        Some(tag) => {
            let filter = Filter::prefix(Key::new().str(tag), format!("relationship={tag}"));
            BY_RELATIONSHIP.page(&cx.tx, &cx.org.secret, &q.params, &filter, load)
        }
    }
}
