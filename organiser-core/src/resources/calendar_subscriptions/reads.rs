//! When each feed was last read, kept in memory (to the minute) so that
//! reading a feed never writes; the `calendar_subscription_reads` job
//! writes the times down, and runs once more when the server stops.

use std::collections::HashMap;
use std::sync::Mutex;

use jiff::{SignedDuration, Timestamp};

use crate::engine::Inner;
use crate::error::Result;
use crate::ids::Id;

/// `last_read_at` moves at most this often.
const GRANULARITY: SignedDuration = SignedDuration::from_secs(60);

/// The reads not yet written: each subscription's last, and whether it
/// is newer than the store's.
#[derive(Debug, Default)]
pub(crate) struct Reads(Mutex<HashMap<Id, Read>>);

#[derive(Debug, Clone, Copy)]
struct Read {
    at: Timestamp,
    written: bool,
}

impl Reads {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Id, Read>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Notes a read of `id`'s feed at `now`, unless the last one (in memory,
/// else `stored`) is less than a minute old.
pub(crate) fn note(inner: &Inner, id: Id, stored: Option<Timestamp>, now: Timestamp) {
    let reads = inner.ext.get::<Reads>();
    let mut reads = reads.lock();
    let last = reads.get(&id).map(|r| r.at).or(stored);
    if last.is_some_and(|t| now.duration_since(t) < GRANULARITY) {
        return;
    }
    reads.insert(
        id,
        Read {
            at: now,
            written: false,
        },
    );
}

/// The last read of `id`'s feed noted in memory.
pub(crate) fn last_read(inner: &Inner, id: Id) -> Option<Timestamp> {
    inner.ext.get::<Reads>().lock().get(&id).map(|r| r.at)
}

/// Forgets `id` (deleted).
pub(crate) fn forget(inner: &Inner, id: Id) {
    inner.ext.get::<Reads>().lock().remove(&id);
}

/// Writes the reads noted since the last flush, in one transaction;
/// whether anything was written.
pub(crate) fn flush(inner: &Inner) -> Result<bool> {
    let reads = inner.ext.get::<Reads>();
    let pending: Vec<(Id, Timestamp)> = reads
        .lock()
        .iter()
        .filter(|(_, r)| !r.written)
        .map(|(id, r)| (*id, r.at))
        .collect();
    if pending.is_empty() || inner.store.is_read_only() {
        return Ok(false);
    }
    let wrote = inner.write_unsettled(|cx| super::write_reads(cx, &pending))?;
    let mut reads = reads.lock();
    for (id, at) in pending {
        if let Some(read) = reads.get_mut(&id)
            && read.at == at
        {
            read.written = true;
        }
    }
    Ok(wrote)
}
