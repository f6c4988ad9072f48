//! The engine every operation runs on (DESIGN.md "The core"): the
//! [`Organiser`] handle, the transaction contexts that carry "now" and the
//! owner's zone, and the operations' declarations. It depends on the store,
//! the clock and the options only; what it must know of resources (record
//! kinds, cascades, rules of the clock, the licence check) it is wired to
//! at open by the registry (`resources/mod.rs`: `WIRING`).

pub(crate) mod bodies;
pub(crate) mod endpoint;
pub(crate) mod ext;
pub(crate) mod jobs;
pub(crate) mod kinds;
pub(crate) mod op;
pub(crate) mod operation;
pub(crate) mod request;

use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock};

use jiff::Timestamp;
use jiff::civil::Date;

use crate::config::Options;
use crate::error::Result;
use crate::ids::{Id, IdGen};
use crate::secrets::SecretKey;
use crate::store::{RawExport, ReadTx, Store, WriteTx};
use crate::time::{Zone, to_millis};

use ext::Extensions;
use kinds::Wiring;

/// A handle on one store. Cheap to clone; share it between threads.
#[derive(Clone)]
pub struct Organiser {
    pub(crate) inner: Arc<Inner>,
}

impl std::fmt::Debug for Organiser {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Organiser")
            .field("data_dir", &self.inner.data_dir)
            .finish_non_exhaustive()
    }
}

pub(crate) struct Inner {
    pub(crate) store: Store,
    pub(crate) options: Options,
    pub(crate) secret: SecretKey,
    pub(crate) ids: IdGen,
    pub(crate) zone: RwLock<Zone>,
    /// What resources keep in memory beside the store.
    pub(crate) ext: Extensions,
    /// The record kinds, the rules of the clock and the licence check.
    pub(crate) wiring: &'static Wiring,
    /// Counts commits, twice each (odd while one becomes visible).
    pub(crate) generation: AtomicU64,
    pub(crate) data_dir: Option<PathBuf>,
    /// The files beside the store (under `files/`, or in memory).
    pub(crate) files: Arc<crate::files::Files>,
}

impl Organiser {
    /// The data directory, for a store opened from one.
    pub fn data_dir(&self) -> Option<&Path> {
        self.inner.data_dir.as_deref()
    }

    /// The current instant of the store's clock.
    pub fn now(&self) -> Timestamp {
        self.inner.options.clock.now()
    }

    /// Today in the owner's zone.
    pub fn today(&self) -> Date {
        self.zone().today(self.now())
    }

    /// The owner's zone.
    pub fn zone(&self) -> Zone {
        self.inner.zone()
    }

    /// Every entry of every table, in table then key order: a byte-exact
    /// picture of the store, for consistency checks ("a failed request
    /// leaves the store as it was") and support. Entries are the store's
    /// own encoding, not the API's.
    pub fn raw_export(&self) -> Result<RawExport> {
        let tx = self.inner.store.begin_read()?;
        crate::store::dump(&tx, self.inner.wiring.tables)
    }

    /// The name of every file kept beside the store (below `files/` in the
    /// data directory, or in memory for an in-memory store), sorted: for
    /// consistency checks ("a failed request leaves no file") and support.
    pub fn stored_files(&self) -> std::io::Result<Vec<String>> {
        self.inner.files.list()
    }

    /// The options the store was opened with.
    pub fn options(&self) -> &Options {
        &self.inner.options
    }
}

impl Inner {
    pub(crate) fn zone(&self) -> Zone {
        self.zone.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// A context for work that reads nothing from the store but "now", the
    /// owner and the zone (`GET /me`).
    pub(crate) fn no_tx(&self) -> Cx<'_, ()> {
        self.cx((), None)
    }

    fn cx<T>(&self, tx: T, generation: Option<u64>) -> Cx<'_, T> {
        Cx {
            tx,
            now: self.now(),
            zone: self.zone(),
            org: self,
            hooks: Vec::new(),
            discard: false,
            generation,
        }
    }

    /// A snapshot, with the commit generation it shows when no commit ran
    /// while it was taken (odd generations are commits in progress).
    fn snapshot(&self) -> Result<ReadCx<'_>> {
        let before = self.generation.load(Ordering::Acquire);
        let tx = self.store.begin_read()?;
        let after = self.generation.load(Ordering::Acquire);
        let stable = before == after && before.is_multiple_of(2);
        Ok(self.cx(tx, stable.then_some(before)))
    }

    fn now(&self) -> Timestamp {
        to_millis(self.options.clock.now())
    }

    /// Runs `f` on a snapshot.
    pub(crate) fn read<T>(&self, f: impl FnOnce(&ReadCx<'_>) -> Result<T>) -> Result<T> {
        f(&self.snapshot()?)
    }

    /// Runs `f` on a snapshot in which nothing the clock has made due
    /// (expiry, permanent deletion) is left unsettled: the one snapshot
    /// when nothing is due, else after a write that settles it.
    pub(crate) fn read_settled<T>(&self, f: impl FnOnce(&ReadCx<'_>) -> Result<T>) -> Result<T> {
        let cx = self.snapshot()?;
        if !self.due_in(&cx)? {
            return f(&cx);
        }
        drop(cx);
        self.write(|_| Ok(()))?;
        self.read(f)
    }

    /// Runs `f` on a settled snapshot if nothing is due; `None`, without
    /// running it, when reading would first have to write.
    pub(crate) fn read_settled_now<T>(
        &self,
        f: impl FnOnce(&ReadCx<'_>) -> Result<T>,
    ) -> Result<Option<T>> {
        let cx = self.snapshot()?;
        if self.due_in(&cx)? {
            return Ok(None);
        }
        f(&cx).map(Some)
    }

    /// Whether `cx` shows something the clock made due. A handle opened for
    /// reading was opened with nothing due, and shows the store as it was
    /// then.
    fn due_in(&self, cx: &ReadCx<'_>) -> Result<bool> {
        Ok(!self.store.is_read_only() && (self.wiring.due)(cx)?)
    }

    /// Runs `f` in one write transaction, after settling what is due; all of
    /// it lands or, when `f` fails, none of it.
    pub(crate) fn write<T>(&self, f: impl FnOnce(&mut WriteCx<'_>) -> Result<T>) -> Result<T> {
        self.write_settling(true, f)
    }

    /// Runs `f` in one write transaction without settling first (work on
    /// what is derived from the records, such as rebuilding the search
    /// index when the store opens, which must not settle for a reader).
    pub(crate) fn write_unsettled<T>(
        &self,
        f: impl FnOnce(&mut WriteCx<'_>) -> Result<T>,
    ) -> Result<T> {
        self.write_settling(false, f)
    }

    fn write_settling<T>(
        &self,
        settle: bool,
        f: impl FnOnce(&mut WriteCx<'_>) -> Result<T>,
    ) -> Result<T> {
        let mut tx = self.store.begin_write()?;
        tx.watch(self.wiring.watched);
        let mut cx = self.cx(tx, None);
        if settle {
            (self.wiring.settle)(&mut cx)?;
        }
        let out = f(&mut cx)?;
        if cx.discard {
            // Dropping a write transaction aborts it; nothing it did
            // happens, hooks included.
            return Ok(out);
        }
        (self.wiring.before_commit)(&mut cx)?;
        let hooks = std::mem::take(&mut cx.hooks);
        // Odd while the commit becomes visible: a snapshot taken meanwhile
        // knows it cannot name its generation.
        self.generation.fetch_add(1, Ordering::AcqRel);
        let committed = cx.tx.commit();
        self.generation.fetch_add(1, Ordering::AcqRel);
        committed?;
        for hook in hooks {
            hook(self);
        }
        Ok(out)
    }
}

type Hook = Box<dyn FnOnce(&Inner) + Send>;

/// A transaction with the instant it runs at and the owner's zone.
pub(crate) struct Cx<'o, T> {
    pub(crate) tx: T,
    now: Timestamp,
    zone: Zone,
    pub(crate) org: &'o Inner,
    hooks: Vec<Hook>,
    /// The write is thrown away instead of committed (a dry run).
    discard: bool,
    /// The commit generation a read snapshot shows (`None` when a commit
    /// ran while it was taken, and for writes): equal generations show
    /// equal stores, so what was derived from one may serve the other.
    generation: Option<u64>,
}

pub(crate) type ReadCx<'o> = Cx<'o, ReadTx>;
pub(crate) type WriteCx<'o> = Cx<'o, WriteTx>;

impl WriteCx<'_> {
    /// Throws this write away when it ends instead of committing it:
    /// what it did is reported, and nothing is written (a dry run).
    pub(crate) fn discard(&mut self) {
        self.discard = true;
    }
}

impl<T> Cx<'_, T> {
    /// The commit generation this snapshot shows, when it is known.
    pub(crate) fn generation(&self) -> Option<u64> {
        self.generation
    }

    /// The instant of this transaction, in whole milliseconds.
    pub(crate) fn now(&self) -> Timestamp {
        self.now
    }

    /// Today in the owner's zone.
    pub(crate) fn today(&self) -> Date {
        self.zone.today(self.now)
    }

    pub(crate) fn zone(&self) -> &Zone {
        &self.zone
    }
}

impl WriteCx<'_> {
    pub(crate) fn new_id(&self) -> Id {
        self.org.ids.next(self.now)
    }

    /// Runs `hook` once the transaction has committed.
    pub(crate) fn on_commit(&mut self, hook: impl FnOnce(&Inner) + Send + 'static) {
        self.hooks.push(Box::new(hook));
    }

    /// Uses `zone` for the rest of this transaction (the owner changed it).
    pub(crate) fn set_zone(&mut self, zone: Zone) {
        self.zone = zone.clone();
        self.on_commit(move |inner| *inner.zone.write().unwrap_or_else(|e| e.into_inner()) = zone);
    }
}

impl<T> Deref for Cx<'_, T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.tx
    }
}
