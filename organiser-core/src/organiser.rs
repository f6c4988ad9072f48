//! The handle on a store: `Organiser::open(dir)` and
//! `Organiser::in_memory()`, and the transaction contexts every operation
//! runs in (DESIGN.md "The core").

use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};

use jiff::Timestamp;
use jiff::civil::Date;

use crate::config::Options;
use crate::error::Result;
use crate::idempotency::InFlight;
use crate::ids::{Id, IdGen};
use crate::secrets::SecretKey;
use crate::store::{OpenError, ReadTx, Store, WriteTx, schema};
use crate::time::{Zone, to_millis};
use crate::{account, settle};

/// The store's file name inside the data directory.
pub const STORE_FILE: &str = "organiser.redb";

/// Every table's name with its entries (key and value bytes), as
/// [`Organiser::raw_export`] gives them.
pub type RawExport = Vec<(String, Vec<(Vec<u8>, Vec<u8>)>)>;

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
    pub(crate) in_flight: InFlight,
    pub(crate) tokens: crate::account::tokens::TokenCache,
    /// The owner as last committed, for reads that need only the owner.
    pub(crate) owner: RwLock<Arc<crate::account::owner::Owner>>,
    pub(crate) data_dir: Option<PathBuf>,
}

impl Organiser {
    /// Opens (creating) the store in the data directory `dir`, with the
    /// options the environment asks for.
    pub fn open(dir: impl AsRef<Path>) -> std::result::Result<Organiser, OpenError> {
        let options = Options::from_env().map_err(OpenError::Config)?;
        Organiser::open_with(dir, options)
    }

    /// Opens (creating) the store in the data directory `dir`.
    pub fn open_with(
        dir: impl AsRef<Path>,
        options: Options,
    ) -> std::result::Result<Organiser, OpenError> {
        let dir = dir.as_ref();
        std::fs::create_dir_all(dir).map_err(|e| {
            OpenError::Io(format!(
                "cannot create the data directory {}: {e}",
                dir.display()
            ))
        })?;
        let store = Store::open(&dir.join(STORE_FILE))?;
        let secret = match &options.secret_key {
            Some(key) => key.clone(),
            None => SecretKey::load_or_create(dir).map_err(|e| {
                OpenError::Io(format!(
                    "cannot read the secret key in {}: {e}",
                    dir.display()
                ))
            })?,
        };
        Organiser::start(store, options, secret, Some(dir.to_path_buf()))
    }

    /// Opens the store in `dir` for reading, with the options the
    /// environment asks for; see [`Organiser::open_for_reading_with`].
    pub fn open_for_reading(dir: impl AsRef<Path>) -> std::result::Result<Organiser, OpenError> {
        let options = Options::from_env().map_err(OpenError::Config)?;
        Organiser::open_for_reading_with(dir, options)
    }

    /// Opens the store in `dir` for a command that only reads: an existing,
    /// current store with nothing for the clock to settle is opened
    /// read-only, so neither opening nor closing writes to the disk; any
    /// other store is opened as [`Organiser::open_with`] opens it. Writes
    /// through a read-only handle fail; reads show the store as it was when
    /// opened.
    pub fn open_for_reading_with(
        dir: impl AsRef<Path>,
        options: Options,
    ) -> std::result::Result<Organiser, OpenError> {
        let dir = dir.as_ref();
        let path = dir.join(STORE_FILE);
        let key = match &options.secret_key {
            Some(key) => Some(key.clone()),
            None => SecretKey::load(dir),
        };
        let (Some(secret), true) = (key, path.exists()) else {
            return Organiser::open_with(dir, options);
        };
        let store = match Store::open_read_only(&path) {
            Ok(store) => store,
            Err(OpenError::Locked) => return Err(OpenError::Locked),
            Err(_) => return Organiser::open_with(dir, options),
        };
        let ready = store.begin_read().ok().and_then(|tx| {
            let current = schema::version(&tx).ok()? == schema::VERSION;
            current
                .then(|| account::owner::stored(&tx).ok().flatten())
                .flatten()
        });
        let Some(owner) = ready else {
            drop(store);
            return Organiser::open_with(dir, options);
        };
        let org = Organiser::assemble(
            store,
            options.clone(),
            secret,
            owner,
            Some(dir.to_path_buf()),
        );
        if org.inner.read(settle::due).unwrap_or(true) {
            drop(org);
            return Organiser::open_with(dir, options);
        }
        Ok(org)
    }

    /// A throwaway store in memory, with default options.
    pub fn in_memory() -> Organiser {
        Organiser::in_memory_with(Options::default())
    }

    /// A throwaway store in memory.
    pub fn in_memory_with(options: Options) -> Organiser {
        let store = Store::in_memory().expect("an in-memory store opens");
        let secret = options
            .secret_key
            .clone()
            .unwrap_or_else(SecretKey::generate);
        Organiser::start(store, options, secret, None).expect("an in-memory store initialises")
    }

    fn start(
        store: Store,
        options: Options,
        secret: SecretKey,
        data_dir: Option<PathBuf>,
    ) -> std::result::Result<Organiser, OpenError> {
        let now = to_millis(options.clock.now());
        let storage = |e: crate::error::Error| OpenError::Storage(e.to_string());
        // A store that is current needs no write to open (and so no disk
        // sync); a new or older one is migrated and given its owner.
        let tx = store.begin_read().map_err(storage)?;
        let current = schema::version(&tx).unwrap_or(0) == schema::VERSION;
        let owner = if current {
            account::owner::stored(&tx).map_err(storage)?
        } else {
            None
        };
        drop(tx);
        let owner = match owner {
            Some(owner) => owner,
            None => {
                let tx = store.begin_write().map_err(storage)?;
                schema::migrate(&tx)?;
                let owner = account::owner::ensure(&tx, now).map_err(storage)?;
                tx.commit().map_err(storage)?;
                owner
            }
        };
        Ok(Organiser::assemble(store, options, secret, owner, data_dir))
    }

    fn assemble(
        store: Store,
        options: Options,
        secret: SecretKey,
        owner: account::owner::Owner,
        data_dir: Option<PathBuf>,
    ) -> Organiser {
        Organiser {
            inner: Arc::new(Inner {
                store,
                options,
                secret,
                ids: IdGen::default(),
                zone: RwLock::new(owner.zone()),
                in_flight: InFlight::default(),
                tokens: Default::default(),
                owner: RwLock::new(Arc::new(owner)),
                data_dir,
            }),
        }
    }

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
        crate::store::dump(&tx)
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

    /// The owner as last committed.
    pub(crate) fn owner(&self) -> Arc<crate::account::owner::Owner> {
        self.owner.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// A context for work that reads nothing from the store but "now", the
    /// owner and the zone (`GET /me`).
    pub(crate) fn no_tx(&self) -> Cx<'_, ()> {
        Cx {
            tx: (),
            now: self.now(),
            zone: self.zone(),
            org: self,
            hooks: Vec::new(),
        }
    }

    fn now(&self) -> Timestamp {
        to_millis(self.options.clock.now())
    }

    /// Runs `f` on a snapshot.
    pub(crate) fn read<T>(&self, f: impl FnOnce(&ReadCx<'_>) -> Result<T>) -> Result<T> {
        let cx = Cx {
            tx: self.store.begin_read()?,
            now: self.now(),
            zone: self.zone(),
            org: self,
            hooks: Vec::new(),
        };
        f(&cx)
    }

    /// Runs `f` on a snapshot in which nothing the clock has made due
    /// (expiry, permanent deletion) is left unsettled.
    pub(crate) fn read_settled<T>(&self, f: impl FnOnce(&ReadCx<'_>) -> Result<T>) -> Result<T> {
        // A read-only handle was opened with nothing due, and shows the
        // store as it was then.
        let due = !self.store.is_read_only() && self.read(settle::due)?;
        if due {
            self.write(|_| Ok(()))?;
        }
        self.read(f)
    }

    /// As [`Inner::write`], refused (403 `read_only`) while the licence
    /// state is read-only: the typed operations the read-only rule covers.
    pub(crate) fn write_licensed<T>(
        &self,
        f: impl FnOnce(&mut WriteCx<'_>) -> Result<T>,
    ) -> Result<T> {
        self.write(|cx| {
            crate::licence::require_writable(cx)?;
            f(cx)
        })
    }

    /// Runs `f` in one write transaction, after settling what is due; all of
    /// it lands or, when `f` fails, none of it.
    pub(crate) fn write<T>(&self, f: impl FnOnce(&mut WriteCx<'_>) -> Result<T>) -> Result<T> {
        let tx = self.store.begin_write()?;
        let mut cx = Cx {
            tx,
            now: self.now(),
            zone: self.zone(),
            org: self,
            hooks: Vec::new(),
        };
        settle::run(&mut cx)?;
        let out = f(&mut cx)?;
        let hooks = std::mem::take(&mut cx.hooks);
        cx.tx.commit()?;
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
}

pub(crate) type ReadCx<'o> = Cx<'o, ReadTx>;
pub(crate) type WriteCx<'o> = Cx<'o, WriteTx>;

impl<T> Cx<'_, T> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Tables;
    use crate::store::schema::SINGLETONS;
    use crate::{Error, TaskInput};

    #[test]
    fn a_write_that_fails_leaves_the_store_as_it_was() {
        let org = Organiser::in_memory();
        let before = org.tasks(&crate::TaskQuery::default()).unwrap().items.len();
        let outcome: Result<()> = org.inner.write(|cx| {
            // Several records land in the transaction...
            crate::tasks::create(cx, &TaskInput::titled("one"))?;
            crate::tasks::create(cx, &TaskInput::titled("two"))?;
            cx.put_json(SINGLETONS, b"scratch", &1)?;
            // ...and then the operation fails.
            Err(Error::invalid("base", "refused late"))
        });
        assert_eq!(outcome.unwrap_err().status(), 422);
        assert_eq!(
            org.tasks(&crate::TaskQuery::default()).unwrap().items.len(),
            before
        );
        let scratch: Option<i32> = org
            .inner
            .read(|cx| cx.get_json(SINGLETONS, b"scratch"))
            .unwrap();
        assert_eq!(scratch, None);
        let counts = org.task_counts(&crate::TaskCountsQuery::default()).unwrap();
        assert_eq!(counts.inbox, 0, "the counters rolled back with the records");
    }

    #[test]
    fn typed_writes_obey_read_only_mode_too() {
        let clock = crate::ManualClock::at("2026-01-01T00:00:00Z");
        let org = Organiser::in_memory_with(Options {
            clock: Arc::new(clock.clone()),
            ..Options::default()
        });
        let task = org.create_task(&TaskInput::titled("before")).unwrap();
        clock.advance_secs(15 * 86_400);
        for refused in [
            org.create_task(&TaskInput::titled("after")).map(drop),
            org.delete_task(task.id),
            org.create_task_list(&crate::TaskListInput::default())
                .map(drop),
        ] {
            assert!(matches!(refused, Err(Error::ReadOnly)), "{refused:?}");
        }
        // Reads and the listed settings still work.
        assert_eq!(org.task(task.id).unwrap().title, "before");
        org.change_appearance(crate::AppearanceChange::default())
            .unwrap();
    }

    #[test]
    fn a_store_opened_for_reading_writes_nothing_and_refuses_writes() {
        let dir = tempfile::tempdir().unwrap();
        {
            let org = Organiser::open_with(dir.path(), Options::default()).unwrap();
            org.create_task(&TaskInput::titled("kept")).unwrap();
        }
        let path = dir.path().join(STORE_FILE);
        let modified = std::fs::metadata(&path).unwrap().modified().unwrap();
        let reader = Organiser::open_for_reading_with(dir.path(), Options::default()).unwrap();
        assert!(reader.inner.store.is_read_only());
        assert_eq!(
            reader
                .tasks(&crate::TaskQuery::default())
                .unwrap()
                .items
                .len(),
            1
        );
        assert!(reader.create_task(&TaskInput::titled("no")).is_err());
        drop(reader);
        assert_eq!(
            std::fs::metadata(&path).unwrap().modified().unwrap(),
            modified
        );
    }
}
