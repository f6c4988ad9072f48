//! Every table of the store, and the schema version with its migration steps.
//!
//! Records are JSON under their key; `*_BY_*` tables are indexes whose keys
//! end with the record's ID and whose values are empty.

use super::{Tables, Tbl, WriteTx};
use crate::error::Result;
use redb::TableDefinition;
#[cfg(test)]
use redb::TableHandle;

const fn table(name: &'static str) -> Tbl {
    TableDefinition::new(name)
}

/// `schema_version` and other facts about the store itself.
pub(crate) const META: Tbl = table("meta");
/// One-of-a-kind records by name: `owner`, `system`, `licence`.
pub(crate) const SINGLETONS: Tbl = table("singletons");

/// API tokens by their integer id (8 bytes, big-endian).
pub(crate) const API_TOKENS: Tbl = table("api_tokens");
/// Web sessions by the SHA-256 of their secret.
pub(crate) const SESSIONS: Tbl = table("sessions");

/// Deletion records: (deleted_at, type, id) -> ().
pub(crate) const DELETIONS: Tbl = table("deletions");
/// The deleted_at of a deletion record by (type, id), so it can be removed.
pub(crate) const DELETIONS_BY_RECORD: Tbl = table("deletions_by_record");

/// Stored responses by SHA-256 of the `Idempotency-Key`.
pub(crate) const IDEMPOTENCY: Tbl = table("idempotency");
/// (stored_at, key hash) -> (), to forget responses after 24 hours.
pub(crate) const IDEMPOTENCY_BY_TIME: Tbl = table("idempotency_by_time");

/// Restorable deletes waiting to become permanent: (due, type, id) -> ().
pub(crate) const PURGES: Tbl = table("purges");

/// Task lists by id.
pub(crate) const TASK_LISTS: Tbl = table("task_lists");
/// Live lists: (position, id).
pub(crate) const TASK_LISTS_BY_POSITION: Tbl = table("task_lists_by_position");
/// Live lists: (folded name, id), for order `name` and uniqueness.
pub(crate) const TASK_LISTS_BY_NAME: Tbl = table("task_lists_by_name");
/// Live lists: (updated_at, id).
pub(crate) const TASK_LISTS_BY_UPDATED: Tbl = table("task_lists_by_updated");

/// Tasks by id (live, and deleted ones until their restore window ends).
pub(crate) const TASKS: Tbl = table("tasks");
/// Live tasks: (status, position, id) with covering attributes.
pub(crate) const TASKS_BY_STATUS_POSITION: Tbl = table("tasks_by_status_position");
/// Live tasks: (status, id); id order is creation order.
pub(crate) const TASKS_BY_STATUS_ID: Tbl = table("tasks_by_status_id");
/// Live tasks: (status, updated_at, id).
pub(crate) const TASKS_BY_STATUS_UPDATED: Tbl = table("tasks_by_status_updated");
/// Live tasks: (home, position, id) with covering attributes: a home's manual order.
pub(crate) const TASKS_BY_HOME: Tbl = table("tasks_by_home");
/// Live open tasks: (home, position, id): placement and renumbering.
pub(crate) const TASKS_OPEN_BY_HOME: Tbl = table("tasks_open_by_home");
/// Live open tasks: (start_on, none last, id) with covering attributes.
pub(crate) const TASKS_OPEN_BY_START: Tbl = table("tasks_open_by_start");
/// Live open tasks: (deadline_on, none last, id) with covering attributes.
pub(crate) const TASKS_OPEN_BY_DEADLINE: Tbl = table("tasks_open_by_deadline");
/// Live open tasks with an expiry: (expires_on, id), to archive them when it passes.
pub(crate) const TASKS_OPEN_BY_EXPIRY: Tbl = table("tasks_open_by_expiry");
/// Live closed tasks: (closed_at, id) with covering attributes: the logbook.
pub(crate) const TASKS_CLOSED: Tbl = table("tasks_closed");
/// Live open tasks that start today or earlier: (position, id) with covering
/// attributes. "Today" moves with the clock; settling keeps the set current.
pub(crate) const TASKS_TODAY: Tbl = table("tasks_today");
/// Exact counts kept beside the indexes (per home and status, per deadline
/// date, per start date, ...), so counts never scan tasks.
pub(crate) const TASK_COUNTERS: Tbl = table("task_counters");

/// Every table, created when a store is made.
pub(crate) const ALL: &[Tbl] = &[
    META,
    SINGLETONS,
    API_TOKENS,
    SESSIONS,
    DELETIONS,
    DELETIONS_BY_RECORD,
    IDEMPOTENCY,
    IDEMPOTENCY_BY_TIME,
    PURGES,
    TASK_LISTS,
    TASK_LISTS_BY_POSITION,
    TASK_LISTS_BY_NAME,
    TASK_LISTS_BY_UPDATED,
    TASKS,
    TASKS_BY_STATUS_POSITION,
    TASKS_BY_STATUS_ID,
    TASKS_BY_STATUS_UPDATED,
    TASKS_BY_HOME,
    TASKS_OPEN_BY_HOME,
    TASKS_OPEN_BY_START,
    TASKS_OPEN_BY_DEADLINE,
    TASKS_OPEN_BY_EXPIRY,
    TASKS_CLOSED,
    TASKS_TODAY,
    TASK_COUNTERS,
];

/// The schema this build writes: the number of migration steps, which
/// the registry of record kinds lists (`registry.rs`, `MIGRATIONS`).
pub(crate) const VERSION: u32 = 3;

const VERSION_KEY: &[u8] = b"schema_version";

/// One migration step: brings a store from version `n` to `n + 1`.
pub(crate) type Step = fn(&WriteTx) -> Result<()>;

/// Creates every table that does not exist yet: step 1, and the step of
/// any later version that adds tables.
pub(crate) fn create_tables(tx: &WriteTx) -> Result<()> {
    for &t in ALL {
        tx.ensure(t)?;
    }
    Ok(())
}

/// The store's schema version (0 for a new, empty file).
pub(crate) fn version(tx: &impl Tables) -> Result<u32> {
    Ok(tx
        .get(META, VERSION_KEY)?
        .and_then(|v| v.try_into().ok())
        .map(u32::from_be_bytes)
        .unwrap_or(0))
}

/// Runs every step from the store's version up to [`VERSION`]
/// (`steps[n]` migrates version `n` to `n + 1`; version 0 is an empty
/// file); an error when the store is newer than this build.
pub(crate) fn migrate(tx: &WriteTx, steps: &[Step]) -> std::result::Result<u32, super::OpenError> {
    tx.ensure(META).map_err(storage)?;
    let found = version(tx).map_err(storage)?;
    if found > VERSION {
        return Err(super::OpenError::TooNew {
            found,
            supported: VERSION,
        });
    }
    for (n, step) in steps.iter().enumerate().skip(found as usize) {
        step(tx).map_err(storage)?;
        tx.insert(META, VERSION_KEY, &(n as u32 + 1).to_be_bytes())
            .map_err(storage)?;
    }
    Ok(found)
}

fn storage(e: crate::error::Error) -> super::OpenError {
    super::OpenError::Storage(e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{OpenError, Store};

    #[test]
    fn a_new_store_is_migrated_to_the_current_version() {
        let store = Store::in_memory().unwrap();
        let tx = store.begin_write().unwrap();
        let steps: &[Step] = &[create_tables as Step; VERSION as usize];
        assert_eq!(migrate(&tx, steps).unwrap(), 0);
        assert_eq!(version(&tx).unwrap(), VERSION);
        for &t in ALL.iter().filter(|&&t| t.name() != META.name()) {
            assert_eq!(tx.len(t).unwrap(), 0);
        }
        // A second run is a no-op.
        assert_eq!(migrate(&tx, steps).unwrap(), VERSION);
    }

    #[test]
    fn a_store_from_a_newer_build_is_refused() {
        let store = Store::in_memory().unwrap();
        let tx = store.begin_write().unwrap();
        tx.ensure(META).unwrap();
        tx.insert(META, VERSION_KEY, &(VERSION + 1).to_be_bytes())
            .unwrap();
        assert!(matches!(
            migrate(&tx, &[create_tables]),
            Err(OpenError::TooNew { .. })
        ));
    }
}
