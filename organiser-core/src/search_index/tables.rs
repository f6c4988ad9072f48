//! The search index's tables. Every one is derived from the records and
//! may be dropped: the index is rebuilt when it is missing, damaged or
//! older than the store (`index::healthy`).

use crate::store::Tbl;
use crate::store::schema::table;

/// The postings, grouped ([`super::postings`]): (type, term, first ID) →
/// a block of records with their class bits and order keys. A word's
/// records, and a prefix's, are one range of a type.
pub(crate) const SEARCH_POSTINGS: Tbl = table("search_postings");
/// The table of postings one entry each, which index format 4 and
/// earlier kept: dropped when the store is migrated (schema 20).
pub(crate) const FORMER_TERMS: &str = "search_terms";
/// Each indexed record: (type, id) → its stored [`super::Doc`].
pub(crate) const SEARCH_DOCS: Tbl = table("search_docs");
/// Each indexed record in its type's order: (type, order key, id).
pub(crate) const SEARCH_ORDER: Tbl = table("search_order");
/// How many records of a type hold a word: (type, term) → u32, big-endian.
/// What a query reads first, to start from its rarest word.
pub(crate) const SEARCH_COUNTS: Tbl = table("search_counts");
/// Words added since the lexicon was last built: (term).
pub(crate) const SEARCH_FRESH: Tbl = table("search_fresh");
/// The index's state (`state`) and its lexicon (`lexicon`, an FST).
pub(crate) const SEARCH_META: Tbl = table("search_meta");

/// Every table of the index.
pub(crate) const TABLES: &[Tbl] = &[
    SEARCH_POSTINGS,
    SEARCH_DOCS,
    SEARCH_ORDER,
    SEARCH_COUNTS,
    SEARCH_FRESH,
    SEARCH_META,
];
