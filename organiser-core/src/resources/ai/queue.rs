//! The note-titles queue (document 2, "AI tasks": backfill; document 3,
//! "Note": `title_generated`): which notes wait for a title, oldest
//! first, and which untitled notes a backfill would queue. It lives in
//! the store, so a restart resumes it, and it follows every note a write
//! touches ([`follow_note`]), in that write's transaction.

use std::time::Duration;

use jiff::{SignedDuration, Timestamp};
use serde::{Deserialize, Serialize};

use super::settings;
use super::tables::{TITLE_MADE_FROM, TITLE_QUEUE, TITLE_QUEUED, TITLE_UNTITLED};
use crate::engine::jobs::Signal;
use crate::engine::{Cx, Inner, WriteCx};
use crate::error::Result;
use crate::ids::Id;
use crate::resources::notes::{self, TitleView};
use crate::store::key::{Key, tail_id};
use crate::store::{Dir, Tables, WriteTx};

/// The note-titles task's key.
pub(crate) const TASK: &str = "note_titles";
/// The setting holding the worker's backoff.
const BACKOFF: &str = "note_titles_backoff";
/// The first wait after a failure; each failure in a row doubles it.
const FIRST_WAIT_SECS: i64 = 30;
/// The longest wait.
const LONGEST_WAIT_SECS: i64 = 60 * 60;

/// The hash of the text a title is made from.
pub(crate) fn text_hash(text: &str) -> [u8; 8] {
    let full = crate::secrets::sha256(text.as_bytes());
    let mut out = [0; 8];
    out.copy_from_slice(&full[..8]);
    out
}

/// How many untitled notes a backfill would queue now.
pub(crate) fn pending<T: Tables>(cx: &Cx<'_, T>) -> Result<u64> {
    cx.len(TITLE_UNTITLED)
}

/// How many notes wait in the queue.
pub(crate) fn queued<T: Tables>(cx: &Cx<'_, T>) -> Result<u64> {
    cx.len(TITLE_QUEUE)
}

/// Queues note `id` unless it is queued; whether it was queued now.
fn enqueue(cx: &WriteCx<'_>, id: Id) -> Result<bool> {
    cx.remove(TITLE_UNTITLED, &id.to_bytes())?;
    if cx.get(TITLE_QUEUED, &id.to_bytes())?.is_some() {
        return Ok(false);
    }
    let key = Key::new().id(cx.new_id()).id(id);
    cx.insert(TITLE_QUEUE, key.as_slice(), &[])?;
    cx.insert(TITLE_QUEUED, &id.to_bytes(), key.as_slice())?;
    Ok(true)
}

/// Takes note `id` out of the queue.
pub(crate) fn dequeue(cx: &WriteCx<'_>, id: Id) -> Result<()> {
    if let Some(key) = cx.get(TITLE_QUEUED, &id.to_bytes())? {
        cx.remove(TITLE_QUEUE, &key)?;
        cx.remove(TITLE_QUEUED, &id.to_bytes())?;
    }
    Ok(())
}

/// Moves note `id`, queued under `key`, to the back of the queue (a note
/// whose call failed does not hold up the others).
pub(crate) fn to_back(cx: &WriteCx<'_>, id: Id, key: &[u8]) -> Result<()> {
    if still_queued(cx, id, key)? {
        dequeue(cx, id)?;
        enqueue(cx, id)?;
    }
    Ok(())
}

/// The oldest queued note: its queue key and ID.
pub(crate) fn first<T: Tables>(cx: &Cx<'_, T>) -> Result<Option<(Vec<u8>, Id)>> {
    use std::ops::Bound::Unbounded;
    let key = cx.first_key(TITLE_QUEUE, Unbounded, Unbounded, Dir::Asc)?;
    Ok(key.map(|k| {
        let id = tail_id(&k);
        (k, id)
    }))
}

/// Whether note `id` is still queued under `key`.
pub(crate) fn still_queued<T: Tables>(cx: &Cx<'_, T>, id: Id, key: &[u8]) -> Result<bool> {
    Ok(cx.get(TITLE_QUEUED, &id.to_bytes())?.as_deref() == Some(key))
}

/// Records that note `id`'s title was made from text of hash `hash`.
pub(crate) fn made_from(cx: &WriteCx<'_>, id: Id, hash: [u8; 8]) -> Result<()> {
    cx.insert(TITLE_MADE_FROM, &id.to_bytes(), &hash)
}

/// Whether note `view` wants a title from the task: live, with text, and
/// no title the owner wrote.
pub(crate) fn wants_title(view: &TitleView) -> bool {
    view.live && !view.owner_titled && !view.text.trim().is_empty()
}

/// Brings the queue in step with note `id` as this transaction left it:
/// a note that wants a title and whose text changed since its title was
/// made is queued when the task runs (`running`), else counted for a
/// backfill while it has no title; any other note leaves both. Whether it
/// was queued now.
pub(crate) fn follow_note(cx: &WriteCx<'_>, id: Id, running: bool) -> Result<bool> {
    let key = id.to_bytes();
    let Some(view) = notes::title_view(&cx.tx, id)? else {
        // Deleted for good.
        dequeue(cx, id)?;
        cx.remove(TITLE_UNTITLED, &key)?;
        cx.remove(TITLE_MADE_FROM, &key)?;
        return Ok(false);
    };
    if !wants_title(&view) {
        dequeue(cx, id)?;
        cx.remove(TITLE_UNTITLED, &key)?;
        return Ok(false);
    }
    if cx.get(TITLE_QUEUED, &key)?.is_some() {
        // The worker reads the text as it is when it gets there.
        return Ok(false);
    }
    let made = cx.get(TITLE_MADE_FROM, &key)?;
    let current = made.as_deref() == Some(&text_hash(&view.text)[..]);
    if !current && running {
        return enqueue(cx, id);
    }
    if view.untitled {
        cx.insert(TITLE_UNTITLED, &key, &[])?;
    } else {
        cx.remove(TITLE_UNTITLED, &key)?;
    }
    Ok(false)
}

/// Queues every untitled note a backfill takes; how many.
pub(crate) fn backfill(cx: &mut WriteCx<'_>) -> Result<u64> {
    let ids = cx.ids_under(TITLE_UNTITLED, &[])?;
    let mut queued = 0;
    for id in ids {
        if enqueue(cx, id)? {
            queued += 1;
        }
    }
    if queued > 0 {
        cx.on_commit(wake);
    }
    Ok(queued)
}

/// Counts the untitled notes a store already holds (the migration that
/// adds the queue; nothing is queued before the task is configured).
pub(crate) fn census(tx: &WriteTx) -> Result<()> {
    for id in notes::live_ids(tx)? {
        if let Some(view) = notes::title_view(tx, id)?
            && wants_title(&view)
            && view.untitled
        {
            tx.insert(TITLE_UNTITLED, &id.to_bytes(), &[])?;
        }
    }
    Ok(())
}

/// Failed model calls in a row, and when the next may be tried.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Backoff {
    pub(crate) failures: u32,
    #[serde(with = "crate::time::serde_timestamp::option")]
    pub(crate) retry_at: Option<Timestamp>,
}

/// The worker's backoff.
pub(crate) fn backoff<T: Tables>(cx: &Cx<'_, T>) -> Result<Backoff> {
    Ok(settings::get(cx, BACKOFF)?.unwrap_or_default())
}

/// One more failure: the next try waits 30 s, doubled for each failure in
/// a row, at most an hour.
pub(crate) fn failed(cx: &WriteCx<'_>) -> Result<()> {
    let mut b = backoff(cx)?;
    b.failures = b.failures.saturating_add(1);
    let wait = FIRST_WAIT_SECS
        .saturating_mul(1i64 << b.failures.saturating_sub(1).min(20))
        .min(LONGEST_WAIT_SECS);
    b.retry_at = cx.now().checked_add(SignedDuration::from_secs(wait)).ok();
    settings::set(cx, BACKOFF, Some(&b))
}

/// Clears the backoff (a success, or a new configuration).
pub(crate) fn reset_backoff(cx: &WriteCx<'_>) -> Result<()> {
    if backoff(cx)? != Backoff::default() {
        settings::set::<Backoff>(cx, BACKOFF, None)?;
    }
    Ok(())
}

/// Wakes the worker: work was queued.
#[derive(Default)]
pub(crate) struct Wake(Signal);

/// Wakes a worker waiting in [`wait`].
pub(crate) fn wake(inner: &Inner) {
    inner.ext.get::<Wake>().0.wake();
}

/// Waits until [`wake`] is called or `max` passes; whether it was woken.
pub(crate) fn wait(inner: &Inner, max: Duration) -> bool {
    inner.ext.get::<Wake>().0.wait(max)
}
