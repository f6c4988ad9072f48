//! The registry of record kinds (document 1, "Deletion", "Deletions
//! (sync)"): every kind of record the store holds, with its deletion
//! `type`, restore window, purge, liveness and rules of the clock, and
//! every cascade of a delete. Each resource declares its own kinds and
//! cascades in its folder; this list names them once, and the engine is
//! wired to it at open.
//!
//! Adding a resource adds its kinds to [`KINDS`] and its cascades to
//! [`CASCADES`]; nothing else in the core changes.

use crate::engine::kinds::{Cascade, RecordKind, Wiring};
use crate::store::schema::{self, Step};
use crate::{licence, settle, task_lists, tasks};

/// Every kind of record.
pub(crate) static KINDS: &[&RecordKind] = &[&task_lists::KIND, &tasks::KIND];

/// Every cascade of a delete.
pub(crate) static CASCADES: &[&Cascade] = &[&tasks::LIST_CASCADE];

/// The store's migration steps: `MIGRATIONS[n]` brings a store of schema
/// `n` to `n + 1` (`schema::VERSION` is their number).
pub(crate) static MIGRATIONS: &[Step] = &[
    // 1: every table.
    schema::create_tables,
    // 2: completion counters by quarter hour (`completed_today`).
    tasks::count_stored_completions,
    // 3: compact records (postcard) and covering index values.
    |tx| {
        tasks::store_records_compactly(tx)?;
        task_lists::store_records_compactly(tx)
    },
];

/// What the engine is wired to.
pub(crate) static WIRING: Wiring = Wiring {
    kinds: KINDS,
    cascades: CASCADES,
    due: settle::due,
    settle: settle::run,
    require_writable: licence::require_writable,
    require_writable_in_write: licence::require_writable,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_tags_are_unique() {
        for (i, a) in KINDS.iter().enumerate() {
            for b in &KINDS[i + 1..] {
                assert_ne!(a.name, b.name);
                assert_ne!(a.tag, b.tag, "{} and {}", a.name, b.name);
            }
        }
    }

    #[test]
    fn the_schema_version_is_the_number_of_migration_steps() {
        assert_eq!(MIGRATIONS.len(), schema::VERSION as usize);
    }

    #[test]
    fn every_cascade_names_registered_kinds() {
        for c in CASCADES {
            assert!(WIRING.kind(c.from).is_some(), "{}", c.from);
            assert!(WIRING.kind(c.to).is_some(), "{}", c.to);
        }
    }
}
