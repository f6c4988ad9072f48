//! Syncing a feed (document 3, "Calendar feed health"; "Calendar feeds"
//! rules on sync): one attempt fetches and reads the address outside any
//! transaction, then records the outcome in one; the schedule keeps the
//! next sync of each feed in the store (so it survives restarts), backing
//! off after failures. At most four feeds are fetched at once, and one
//! feed is never synced twice at the same time.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use super::build::{self, Built};
use super::fetch::{self, Failure};
use super::tables::FEEDS_DUE;
use super::{CalendarFeed, SyncError, SyncErrorCode, events, icalendar, load, next_sync, save};
use crate::engine::Inner;
use crate::error::Result;
use crate::ids::Id;
use crate::store::key::{Key, tail_id};
use crate::store::{Dir, Tables};

/// The most feeds fetched at once.
pub(crate) const AT_ONCE: usize = 4;

/// One lock per feed, so two syncs of a feed run one after the other.
#[derive(Default)]
struct SyncLocks(Mutex<HashMap<Id, Arc<Mutex<()>>>>);

fn lock_of(inner: &Inner, id: Id) -> Arc<Mutex<()>> {
    let locks = inner.ext.get::<SyncLocks>();
    let mut map = locks.0.lock().unwrap_or_else(|e| e.into_inner());
    map.entry(id).or_default().clone()
}

/// Fetches and reads the feed at `url` (waits up to 30 s), private
/// addresses allowed when `allow_private`.
pub(crate) fn read_address(
    inner: &Inner,
    url: &str,
    allow_private: bool,
) -> std::result::Result<Built, Failure> {
    let (status, body) = fetch::fetch(inner.options.http.as_ref(), url, allow_private)?;
    let with_status = |code| Failure {
        code,
        http_status: Some(status),
    };
    let parsed = icalendar::read(&body).map_err(with_status)?;
    drop(body);
    let cx = inner.no_tx();
    let zone = cx.zone().iana();
    build::build(parsed, cx.today(), zone).map_err(with_status)
}

/// Syncs feed `id` now, whatever its schedule: 404 when there is none.
pub(crate) fn sync_one(inner: &Inner, id: Id) -> Result<()> {
    let lock = lock_of(inner, id);
    let _held = lock.lock().unwrap_or_else(|e| e.into_inner());
    attempt(inner, id)
}

/// Syncs feed `id` unless a sync of it is running; whether it ran.
fn sync_if_idle(inner: &Inner, id: Id) -> Result<bool> {
    let lock = lock_of(inner, id);
    let Ok(_held) = lock.try_lock() else {
        return Ok(false);
    };
    attempt(inner, id)?;
    Ok(true)
}

fn attempt(inner: &Inner, id: Id) -> Result<()> {
    let before = inner.read(|cx| super::stored(cx, id))?;
    let outcome = match inner.secret.open(&before.address) {
        Ok(address) => {
            let written = String::from_utf8_lossy(&address).into_owned();
            // A feed subscribed while private addresses were allowed keeps
            // that, whichever process syncs it.
            let allow = inner.options.allow_private_feeds || before.private_allowed;
            match fetch::address(&written) {
                Ok(a) => read_address(inner, &a.fetched, allow),
                Err(_) => Err(Failure::new(SyncErrorCode::AddressUnreadable)),
            }
        }
        Err(_) => Err(Failure::new(SyncErrorCode::AddressUnreadable)),
    };
    let sealed = before.address.clone();
    let saved = inner.write(|cx| record(cx, id, &sealed, outcome.as_ref().map_err(|f| *f)));
    if saved.is_err() {
        // The events could not be written: say so on the feed.
        let failure = Failure::new(SyncErrorCode::NotSaved);
        inner.write(|cx| record(cx, id, &sealed, Err(failure)))?;
    }
    Ok(())
}

/// Records an attempt's outcome on feed `id` (whose address was `sealed`
/// when it started): the new events and health, or the failure.
fn record(
    cx: &mut crate::engine::WriteCx<'_>,
    id: Id,
    sealed: &[u8],
    outcome: std::result::Result<&Built, Failure>,
) -> Result<()> {
    let Some(before) = load(cx, id)? else {
        return Ok(()); // deleted while it was fetched
    };
    if before.address != sealed {
        return Ok(()); // a new address was saved (and fetched) meanwhile
    }
    let now = cx.now();
    let mut s = before.clone();
    s.feed.last_attempt_at = Some(now);
    s.feed.updated_at = now;
    match outcome {
        Ok(built) => {
            events::replace(cx, id, built)?;
            s.feed.last_synced_at = Some(now);
            s.feed.sync_error = None;
            s.feed.sync_warnings = built.warnings.clone();
        }
        Err(f) => {
            let failures = before.feed.sync_error.as_ref().map_or(0, |e| e.failures);
            s.feed.sync_error = Some(SyncError {
                code: f.code.key().to_owned(),
                http_status: f.http_status,
                failures: failures.saturating_add(1),
            });
        }
    }
    s.next_sync_at = next_sync(&s.feed);
    save(cx, Some(&before), &s)
}

/// Runs `work` on each of `ids`, at most [`AT_ONCE`] at a time.
fn at_most_four(ids: Vec<Id>, work: impl Fn(Id) + Sync) {
    let queue = Mutex::new(ids.into_iter());
    std::thread::scope(|scope| {
        for _ in 0..AT_ONCE {
            scope.spawn(|| {
                loop {
                    let next = queue.lock().unwrap_or_else(|e| e.into_inner()).next();
                    match next {
                        Some(id) => work(id),
                        None => break,
                    }
                }
            });
        }
    });
}

/// `POST /calendar_feeds/sync`: every feed, at most four at once; then
/// every feed by name.
pub(crate) fn sync_all(inner: &Inner) -> Result<Vec<CalendarFeed>> {
    let ids = inner.read(super::all_ids)?;
    at_most_four(ids, |id| {
        if let Err(e) = sync_one(inner, id) {
            tracing::warn!(feed = %id, error = %e, "calendar feed sync failed");
        }
    });
    inner.read(super::all)
}

/// The feeds whose next sync is due now.
fn due<T: Tables>(cx: &crate::engine::Cx<'_, T>) -> Result<Vec<Id>> {
    let end = Key::new()
        .i64(cx.now().as_millisecond().saturating_add(1))
        .into_vec();
    let mut ids = Vec::new();
    cx.scan(
        FEEDS_DUE,
        std::ops::Bound::Unbounded,
        std::ops::Bound::Excluded(end.as_slice()),
        Dir::Asc,
        &mut |k, _| {
            ids.push(tail_id(k));
            Ok(true)
        },
    )?;
    Ok(ids)
}

/// Syncs every feed that is due (at most four at once); how many.
pub(crate) fn sync_due(inner: &Inner) -> Result<usize> {
    let ids = inner.read(due)?;
    let ran = std::sync::atomic::AtomicUsize::new(0);
    at_most_four(ids, |id| match sync_if_idle(inner, id) {
        Ok(true) => {
            ran.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
        Ok(false) => {}
        Err(e) => tracing::warn!(feed = %id, error = %e, "scheduled calendar sync failed"),
    });
    Ok(ran.into_inner())
}

/// When the next scheduled sync is due, if any feed exists.
pub(crate) fn next_due<T: Tables>(
    cx: &crate::engine::Cx<'_, T>,
) -> Result<Option<jiff::Timestamp>> {
    let mut next = None;
    cx.scan(
        FEEDS_DUE,
        std::ops::Bound::Unbounded,
        std::ops::Bound::Unbounded,
        Dir::Asc,
        &mut |k, _| {
            let mut r = crate::store::key::Reader::new(k);
            next = jiff::Timestamp::from_millisecond(r.i64()).ok();
            Ok(false)
        },
    )?;
    Ok(next)
}

/// Makes every feed due now (the owner's zone changed, and floating times
/// are read in it).
pub(crate) fn due_now(cx: &crate::engine::WriteCx<'_>) -> Result<()> {
    let now = cx.now();
    for id in super::all_ids(cx)? {
        let Some(before) = load(cx, id)? else {
            continue;
        };
        if before.next_sync_at > now {
            let mut s = before.clone();
            s.next_sync_at = now;
            save(cx, Some(&before), &s)?;
        }
    }
    Ok(())
}
