//! The tables of the core's machinery, the schema version and how its
//! migration steps run (the registry in `resources/mod.rs` lists every
//! resource's tables and the steps).
//!
//! Records are stored under their key (`store::codec`); `*_BY_*` tables
//! are indexes whose keys end with the record's ID.

use super::{Tables, Tbl, WriteTx};
use crate::error::Result;
use redb::TableDefinition;
#[cfg(test)]
use redb::TableHandle;

/// A table of the store named `name` (every table maps bytes to bytes).
pub(crate) const fn table(name: &'static str) -> Tbl {
    TableDefinition::new(name)
}

/// `schema_version` and other facts about the store itself.
pub(crate) const META: Tbl = table("meta");
/// One-of-a-kind records by name: `owner`, `system`, `licence`.
pub(crate) const SINGLETONS: Tbl = table("singletons");

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

/// The tables of the core's own machinery (each resource declares its
/// own tables in its folder; the registry lists them all).
pub(crate) const CORE: &[Tbl] = &[
    META,
    SINGLETONS,
    DELETIONS,
    DELETIONS_BY_RECORD,
    IDEMPOTENCY,
    IDEMPOTENCY_BY_TIME,
    PURGES,
];

const VERSION_KEY: &[u8] = b"schema_version";

/// One migration step: brings a store from version `n` to `n + 1`.
pub(crate) type Step = fn(&WriteTx) -> Result<()>;

/// Creates every table of `groups` that does not exist yet: step 1, and
/// the step of any later version that adds tables.
pub(crate) fn create_tables(tx: &WriteTx, groups: &[&[Tbl]]) -> Result<()> {
    for &t in groups.iter().copied().flatten() {
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

/// Runs every step from the store's version up to the number of steps,
/// the schema this build writes (`steps[n]` migrates version `n` to
/// `n + 1`; version 0 is an empty file); an error when the store is newer
/// than this build.
pub(crate) fn migrate(tx: &WriteTx, steps: &[Step]) -> std::result::Result<u32, super::OpenError> {
    tx.ensure(META).map_err(storage)?;
    let found = version(tx).map_err(storage)?;
    let supported = steps.len() as u32;
    if found > supported {
        return Err(super::OpenError::TooNew { found, supported });
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
        let step: Step = |tx| create_tables(tx, &[CORE]);
        let steps = &[step; 5];
        assert_eq!(migrate(&tx, steps).unwrap(), 0);
        assert_eq!(version(&tx).unwrap(), 5);
        for &t in CORE.iter().filter(|&&t| t.name() != META.name()) {
            assert_eq!(tx.len(t).unwrap(), 0);
        }
        // A second run is a no-op.
        assert_eq!(migrate(&tx, steps).unwrap(), 5);
    }

    #[test]
    fn a_store_from_a_newer_build_is_refused() {
        let store = Store::in_memory().unwrap();
        let tx = store.begin_write().unwrap();
        tx.ensure(META).unwrap();
        tx.insert(META, VERSION_KEY, &2u32.to_be_bytes()).unwrap();
        assert!(matches!(
            migrate(&tx, &[|tx| create_tables(tx, &[CORE])]),
            Err(OpenError::TooNew { .. })
        ));
    }
}
