//! List parameters and page meta shared by every list endpoint (document 1,
//! "List parameters and page meta"): `order`, `direction`, `updated_since`,
//! `cursor`, `limit`, `count`, and keyset pages over index tables.

mod cursor;
mod listing;
mod page;
mod params;
mod query;

pub(crate) use cursor::Cursor;
pub(crate) use listing::{Filter, Listing, Order};
pub use page::{Page, every};
pub use params::{Direction, ListOrder, ListParams};
pub use query::Query;
