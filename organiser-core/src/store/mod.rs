//! The redb store (DESIGN.md "The core"): one `Store` with `read` and
//! `write`, where a write that returns an error is dropped and so rolled
//! back. Callers above this module never see a redb type.

pub(crate) mod codec;
pub(crate) mod key;
pub(crate) mod schema;

use std::ops::Bound;
use std::path::Path;

use redb::ReadableTableMetadata;
use redb::{ReadableDatabase, ReadableTable, TableDefinition};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::error::{Error, Result};

/// Every table maps bytes to bytes: records are JSON under their ID, index
/// entries are order-preserving keys with empty values.
pub(crate) type Tbl = TableDefinition<'static, &'static [u8], &'static [u8]>;

/// Called with each key and value of a scan; `Ok(false)` stops it.
pub(crate) type Visit<'a> = &'a mut dyn FnMut(&[u8], &[u8]) -> Result<bool>;

/// Which way a scan walks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Dir {
    Asc,
    Desc,
}

/// Why a store could not be opened.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum OpenError {
    /// Another process holds the store.
    #[error("the store is held by another process")]
    Locked,
    /// The store was written by a newer version of Organiser.
    #[error(
        "the store was written by a newer Organiser (schema {found}, this build reads up to {supported})"
    )]
    TooNew {
        /// The store's schema version.
        found: u32,
        /// The newest this build reads.
        supported: u32,
    },
    /// The data directory or store file could not be used.
    #[error("{0}")]
    Io(String),
    /// The environment asks for something malformed (`ORGANISER_NOW`, a key).
    #[error("{0}")]
    Config(String),
    /// The store failed to open or migrate.
    #[error("{0}")]
    Storage(String),
}

pub(crate) struct Store {
    db: Db,
}

/// A store opened for reading and writing, or only for reading (which
/// writes nothing to the file, not even on opening and closing).
enum Db {
    ReadWrite(redb::Database),
    ReadOnly(redb::ReadOnlyDatabase),
}

/// The page cache of each side of a copy of the store (a compaction's or
/// a backup's; redb's default is 1 GiB), so copying a large store stays
/// within a small memory budget.
const COPY_CACHE: usize = 32 << 20;

fn open_error(path: &Path, e: redb::DatabaseError) -> OpenError {
    match e {
        redb::DatabaseError::DatabaseAlreadyOpen => OpenError::Locked,
        redb::DatabaseError::Storage(redb::StorageError::Io(io)) => {
            OpenError::Io(format!("cannot open the store {}: {io}", path.display()))
        }
        other => OpenError::Storage(format!("{}: {other}", path.display())),
    }
}

impl Store {
    pub(crate) fn open(path: &Path) -> std::result::Result<Store, OpenError> {
        let db = redb::Database::create(path).map_err(|e| open_error(path, e))?;
        Ok(Store {
            db: Db::ReadWrite(db),
        })
    }

    /// Opens an existing store for reading only.
    pub(crate) fn open_read_only(path: &Path) -> std::result::Result<Store, OpenError> {
        let db = redb::ReadOnlyDatabase::open(path).map_err(|e| open_error(path, e))?;
        Ok(Store {
            db: Db::ReadOnly(db),
        })
    }

    /// Compacts an existing store file in place (no other process may hold
    /// it): every table is copied, in key order, into a fresh file beside
    /// it (`organiser.redb.compacting`; [`copy_snapshot`], as a backup's
    /// copy is made), which then takes its place. Pages
    /// filled in key order are full, where the pages of a table written in
    /// any order are about half empty (docs/benchmarks.md, "Where the
    /// store's bytes are"); redb's own compaction, run on the copy, gives
    /// back what its commits left free. Nothing changes if anything fails:
    /// the copy is removed and the store is as it was.
    pub(crate) fn compact_file(path: &Path) -> std::result::Result<(), OpenError> {
        let fail =
            |e: &dyn std::fmt::Display| OpenError::Storage(format!("{}: {e}", path.display()));
        // Held until the copy has taken its place: no one else opens it.
        let old = redb::Database::builder()
            .set_cache_size(COPY_CACHE)
            .open(path)
            .map_err(|e| open_error(path, e))?;
        let mut name = path.as_os_str().to_owned();
        name.push(".compacting");
        let fresh_path = std::path::PathBuf::from(name);
        let _ = std::fs::remove_file(&fresh_path);
        let copied = old
            .begin_read()
            .map_err(stored)
            .and_then(|read| copy_snapshot(&ReadTx(read), &fresh_path))
            .and_then(|_| {
                // What the copy's own commits left free, given back.
                let mut fresh = redb::Database::builder()
                    .set_cache_size(COPY_CACHE)
                    .open(&fresh_path)
                    .map_err(stored)?;
                while fresh.compact().map_err(stored)? {}
                Ok(())
            });
        // The copy is as private as the store (0600 where it was).
        let kept = copied.map_err(|e| fail(&e)).and_then(|()| {
            let mode = std::fs::metadata(path).map_err(|e| fail(&e))?.permissions();
            std::fs::set_permissions(&fresh_path, mode).map_err(|e| fail(&e))
        });
        if let Err(e) = kept {
            let _ = std::fs::remove_file(&fresh_path);
            return Err(e);
        }
        if let Err(e) = std::fs::rename(&fresh_path, path) {
            let _ = std::fs::remove_file(&fresh_path);
            return Err(fail(&e));
        }
        drop(old);
        Ok(())
    }

    pub(crate) fn is_read_only(&self) -> bool {
        matches!(self.db, Db::ReadOnly(_))
    }

    pub(crate) fn in_memory() -> std::result::Result<Store, OpenError> {
        let db = redb::Database::builder()
            .create_with_backend(redb::backends::InMemoryBackend::new())
            .map_err(|e| OpenError::Storage(e.to_string()))?;
        Ok(Store {
            db: Db::ReadWrite(db),
        })
    }

    pub(crate) fn begin_read(&self) -> Result<ReadTx> {
        Ok(ReadTx(match &self.db {
            Db::ReadWrite(db) => db.begin_read().map_err(stored)?,
            Db::ReadOnly(db) => db.begin_read().map_err(stored)?,
        }))
    }

    pub(crate) fn begin_write(&self) -> Result<WriteTx> {
        match &self.db {
            Db::ReadWrite(db) => Ok(WriteTx {
                tx: db.begin_write().map_err(stored)?,
                watched: &[],
                touched: Default::default(),
            }),
            Db::ReadOnly(_) => Err(Error::Internal(
                "the store was opened for reading only".into(),
            )),
        }
    }
}

/// Every table's name with its entries (key and value bytes), in table
/// then key order, as `Organiser::raw_export` gives them.
pub type RawExport = Vec<(String, Vec<(Vec<u8>, Vec<u8>)>)>;

/// Every entry of every table of `groups`, in table then key order.
pub(crate) fn dump(tx: &ReadTx, groups: &[&[Tbl]]) -> Result<RawExport> {
    use redb::TableHandle;
    let mut out = Vec::new();
    for &t in groups.iter().copied().flatten() {
        let mut entries = Vec::new();
        tx.scan(
            t,
            Bound::Unbounded,
            Bound::Unbounded,
            Dir::Asc,
            &mut |k, v| {
                entries.push((k.to_vec(), v.to_vec()));
                Ok(true)
            },
        )?;
        out.push((t.name().to_owned(), entries));
    }
    Ok(out)
}

/// A read transaction: a consistent snapshot.
pub(crate) struct ReadTx(redb::ReadTransaction);

/// What one table of the store holds and takes (`organiser stats`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TableSize {
    /// The table's name.
    pub name: String,
    /// Its entries.
    pub entries: u64,
    /// The bytes of its keys and values.
    pub stored_bytes: u64,
    /// The bytes of its B-tree's own bookkeeping.
    pub metadata_bytes: u64,
    /// The bytes left unused in its pages.
    pub fragmented_bytes: u64,
    /// The bytes of its pages (leaf and branch), what it takes in the file.
    pub page_bytes: u64,
}

impl ReadTx {
    /// Every table of the store with its size, largest first (by its
    /// pages, then name).
    pub(crate) fn table_sizes(&self) -> Result<Vec<TableSize>> {
        let mut out = Vec::new();
        for handle in self.0.list_tables().map_err(stored)? {
            let name = redb::TableHandle::name(&handle).to_owned();
            let table = self.0.open_untyped_table(handle).map_err(stored)?;
            let stats = table.stats().map_err(stored)?;
            out.push(TableSize {
                name,
                entries: table.len().map_err(stored)?,
                stored_bytes: stats.stored_bytes(),
                metadata_bytes: stats.metadata_bytes(),
                fragmented_bytes: stats.fragmented_bytes(),
                // Every byte of its pages is one of these three.
                page_bytes: stats.stored_bytes()
                    + stats.metadata_bytes()
                    + stats.fragmented_bytes(),
            });
        }
        out.sort_by(|a, b| b.page_bytes.cmp(&a.page_bytes).then(a.name.cmp(&b.name)));
        Ok(out)
    }
}

/// A write transaction; nothing of it lands until [`WriteTx::commit`].
pub(crate) struct WriteTx {
    tx: redb::WriteTransaction,
    /// The tables whose written keys are noted (see [`WriteTx::watch`]).
    watched: &'static [Tbl],
    /// The keys written to a watched table: its place in `watched`, the key.
    touched: std::cell::RefCell<Vec<(usize, Vec<u8>)>>,
}

impl WriteTx {
    pub(crate) fn commit(self) -> Result<()> {
        self.tx.commit().map_err(stored)
    }

    /// Notes every key this transaction writes or removes in `tables`
    /// from now on, for [`WriteTx::take_touched`] (what the search index
    /// must follow).
    pub(crate) fn watch(&mut self, tables: &'static [Tbl]) {
        self.watched = tables;
    }

    /// The keys written or removed in the watched tables since the last
    /// call, each with its table's place in the watched list; each once.
    pub(crate) fn take_touched(&self) -> Vec<(usize, Vec<u8>)> {
        let mut touched = std::mem::take(&mut *self.touched.borrow_mut());
        touched.sort_unstable();
        touched.dedup();
        touched
    }

    fn note(&self, t: Tbl, key: &[u8]) {
        use redb::TableHandle;
        if let Some(i) = self.watched.iter().position(|w| w.name() == t.name()) {
            self.touched.borrow_mut().push((i, key.to_vec()));
        }
    }

    /// Runs `f` with table `t` opened once, for many writes in a row (an
    /// index's entries): opening a table costs about as much as a write.
    /// Writes through it are not noted for [`WriteTx::take_touched`], so
    /// `t` must not be watched.
    pub(crate) fn batch<R>(
        &self,
        t: Tbl,
        f: impl FnOnce(&mut Batch<'_>) -> Result<R>,
    ) -> Result<R> {
        debug_assert!(
            !self.watched.iter().any(|w| {
                use redb::TableHandle;
                w.name() == t.name()
            }),
            "a batch on a watched table"
        );
        f(&mut Batch(self.tx.open_table(t).map_err(stored)?))
    }

    pub(crate) fn insert(&self, t: Tbl, key: &[u8], value: &[u8]) -> Result<()> {
        self.note(t, key);
        self.tx
            .open_table(t)
            .map_err(stored)?
            .insert(key, value)
            .map_err(stored)?;
        Ok(())
    }

    /// Removes `key`; whether it was there.
    pub(crate) fn remove(&self, t: Tbl, key: &[u8]) -> Result<bool> {
        self.note(t, key);
        Ok(self
            .tx
            .open_table(t)
            .map_err(stored)?
            .remove(key)
            .map_err(stored)?
            .is_some())
    }

    pub(crate) fn put_json<T: Serialize>(&self, t: Tbl, key: &[u8], value: &T) -> Result<()> {
        self.insert(t, key, &serde_json::to_vec(value)?)
    }

    /// Removes every entry of `t` from `lo` (inclusive) to `hi` (exclusive).
    pub(crate) fn remove_range(&self, t: Tbl, lo: &[u8], hi: &[u8]) -> Result<()> {
        if lo < hi {
            debug_assert!(
                !self.watched.iter().any(|w| {
                    use redb::TableHandle;
                    w.name() == t.name()
                }),
                "a range removed from a watched table"
            );
            self.tx
                .open_table(t)
                .map_err(stored)?
                .retain_in::<&[u8], _>(lo..hi, |_, _| false)
                .map_err(stored)?;
        }
        Ok(())
    }

    /// Stores `record` in its compact encoding ([`codec`]).
    pub(crate) fn put_record<R: codec::Record>(
        &self,
        t: Tbl,
        key: &[u8],
        record: &R,
    ) -> Result<()> {
        self.insert(t, key, &codec::encode(record)?)
    }

    /// Adds an index entry (an empty value).
    pub(crate) fn index(&self, t: Tbl, key: &[u8]) -> Result<()> {
        self.insert(t, key, &[])
    }

    /// Adds (`add`) or removes each index entry of `entries`: a record's
    /// entries when it becomes live, changes, or goes.
    pub(crate) fn set_indexes(&self, entries: &[(Tbl, key::Key)], add: bool) -> Result<()> {
        for (table, key) in entries {
            if add {
                self.index(*table, key.as_slice())?;
            } else {
                self.remove(*table, key.as_slice())?;
            }
        }
        Ok(())
    }

    /// Moves a record's index entries from `before` to `after`, writing only
    /// those that differ (an entry both have is left alone).
    pub(crate) fn move_indexes(
        &self,
        before: &[(Tbl, key::Key)],
        after: &[(Tbl, key::Key)],
    ) -> Result<()> {
        use redb::TableHandle;
        let same = |a: &(Tbl, key::Key), b: &(Tbl, key::Key)| {
            a.1.as_slice() == b.1.as_slice() && a.0.name() == b.0.name()
        };
        for entry in before {
            if !after.iter().any(|a| same(a, entry)) {
                self.remove(entry.0, entry.1.as_slice())?;
            }
        }
        for entry in after {
            if !before.iter().any(|b| same(b, entry)) {
                self.index(entry.0, entry.1.as_slice())?;
            }
        }
        Ok(())
    }

    /// Removes every entry of `t` (and makes it when it is missing).
    pub(crate) fn clear(&self, t: Tbl) -> Result<()> {
        self.tx.delete_table(t).map_err(stored)?;
        self.tx.open_table(t).map_err(stored)?;
        Ok(())
    }

    /// Deletes the table named `name`, if there is one.
    pub(crate) fn drop_table(&self, name: &str) -> Result<()> {
        self.tx
            .delete_table(redb::TableDefinition::<&[u8], &[u8]>::new(name))
            .map_err(stored)?;
        Ok(())
    }

    /// Creates `t` when it does not exist yet.
    pub(crate) fn ensure(&self, t: Tbl) -> Result<()> {
        self.tx.open_table(t).map_err(stored)?;
        Ok(())
    }
}

/// One table of a write transaction, opened once for many writes
/// ([`WriteTx::batch`]).
pub(crate) struct Batch<'t>(redb::Table<'t, &'static [u8], &'static [u8]>);

impl Batch<'_> {
    /// The value of `key`.
    pub(crate) fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>> {
        use redb::ReadableTable;
        Ok(self.0.get(key).map_err(stored)?.map(|v| v.value().to_vec()))
    }

    /// Stores `value` under `key`.
    pub(crate) fn insert(&mut self, key: &[u8], value: &[u8]) -> Result<()> {
        self.0.insert(key, value).map_err(stored)?;
        Ok(())
    }

    /// Removes `key`; whether it was there.
    pub(crate) fn remove(&mut self, key: &[u8]) -> Result<bool> {
        Ok(self.0.remove(key).map_err(stored)?.is_some())
    }

    /// Calls `f` with each entry between `lo` and `hi` in `dir` order
    /// until it returns `false` ([`Tables::scan`] inside a batch).
    pub(crate) fn scan(
        &self,
        lo: Bound<&[u8]>,
        hi: Bound<&[u8]>,
        dir: Dir,
        f: Visit<'_>,
    ) -> Result<()> {
        scan_table(&self.0, lo, hi, dir, f)
    }
}

/// What both kinds of transaction can read.
pub(crate) trait Tables {
    fn get(&self, t: Tbl, key: &[u8]) -> Result<Option<Vec<u8>>>;

    /// Calls `f` with each entry between `lo` and `hi` in `dir` order until
    /// it returns `false`.
    fn scan(
        &self,
        t: Tbl,
        lo: Bound<&[u8]>,
        hi: Bound<&[u8]>,
        dir: Dir,
        f: Visit<'_>,
    ) -> Result<()>;

    /// The number of entries in `t` (kept by redb: no scan).
    fn len(&self, t: Tbl) -> Result<u64>;

    fn get_json<T: DeserializeOwned>(&self, t: Tbl, key: &[u8]) -> Result<Option<T>> {
        match self.get(t, key)? {
            Some(bytes) => Ok(Some(serde_json::from_slice(&bytes)?)),
            None => Ok(None),
        }
    }

    /// The record stored under `key` in its compact encoding ([`codec`]).
    fn get_record<R: codec::Record>(&self, t: Tbl, key: &[u8]) -> Result<Option<R>> {
        match self.get(t, key)? {
            Some(bytes) => codec::decode(&bytes).map(Some),
            None => Ok(None),
        }
    }

    /// Every key starting with `prefix`, in `dir` order, until `f` says stop.
    fn scan_prefix(&self, t: Tbl, prefix: &[u8], dir: Dir, f: Visit<'_>) -> Result<()> {
        let end = key::prefix_end(prefix);
        let hi = match &end {
            Some(end) => Bound::Excluded(end.as_slice()),
            None => Bound::Unbounded,
        };
        self.scan(t, Bound::Included(prefix), hi, dir, f)
    }

    /// The IDs that end the keys of index `t` beginning with `prefix`, in
    /// key order.
    fn ids_under(&self, t: Tbl, prefix: &[u8]) -> Result<Vec<crate::ids::Id>> {
        let mut ids = Vec::new();
        self.scan_prefix(t, prefix, Dir::Asc, &mut |k, _| {
            ids.push(key::tail_id(k));
            Ok(true)
        })?;
        Ok(ids)
    }

    /// The record named `name` ignoring case in a name index (keys: the
    /// folded name, then the ID), other than `except`.
    fn named(
        &self,
        t: Tbl,
        name: &str,
        except: Option<crate::ids::Id>,
    ) -> Result<Option<crate::ids::Id>> {
        let prefix = key::Key::new()
            .str(&crate::text::fold_case(name))
            .into_vec();
        let mut found = None;
        self.scan_prefix(t, &prefix, Dir::Asc, &mut |k, _| {
            let id = key::tail_id(k);
            // The whole name, not a longer one that begins with it.
            if Some(id) != except && k.len() == prefix.len() + 16 {
                found = Some(id);
                return Ok(false);
            }
            Ok(true)
        })?;
        Ok(found)
    }

    /// The first key (in `dir` order) between `lo` and `hi`.
    fn first_key(
        &self,
        t: Tbl,
        lo: Bound<&[u8]>,
        hi: Bound<&[u8]>,
        dir: Dir,
    ) -> Result<Option<Vec<u8>>> {
        let mut found = None;
        self.scan(t, lo, hi, dir, &mut |k, _| {
            found = Some(k.to_vec());
            Ok(false)
        })?;
        Ok(found)
    }
}

fn scan_table(
    table: &impl ReadableTable<&'static [u8], &'static [u8]>,
    lo: Bound<&[u8]>,
    hi: Bound<&[u8]>,
    dir: Dir,
    f: Visit<'_>,
) -> Result<()> {
    if let (Bound::Included(a) | Bound::Excluded(a), Bound::Included(b) | Bound::Excluded(b)) =
        (lo, hi)
    {
        let empty = a > b
            || (a == b && !(matches!(lo, Bound::Included(_)) && matches!(hi, Bound::Included(_))));
        if empty {
            return Ok(());
        }
    }
    let range = table.range::<&[u8]>((lo, hi)).map_err(stored)?;
    let step = |entry: std::result::Result<_, redb::StorageError>, f: Visit<'_>| -> Result<bool> {
        let (k, v): (redb::AccessGuard<&[u8]>, redb::AccessGuard<&[u8]>) = entry.map_err(stored)?;
        f(k.value(), v.value())
    };
    match dir {
        Dir::Asc => {
            for entry in range {
                if !step(entry, f)? {
                    break;
                }
            }
        }
        Dir::Desc => {
            for entry in range.rev() {
                if !step(entry, f)? {
                    break;
                }
            }
        }
    }
    Ok(())
}

/// Both transactions read alike: redb gives each its own table type.
macro_rules! tables {
    ($tx:ty, $field:tt) => {
        impl Tables for $tx {
            fn get(&self, t: Tbl, key: &[u8]) -> Result<Option<Vec<u8>>> {
                let table = self.$field.open_table(t).map_err(stored)?;
                let value = table.get(key).map_err(stored)?.map(|v| v.value().to_vec());
                Ok(value)
            }

            fn scan(
                &self,
                t: Tbl,
                lo: Bound<&[u8]>,
                hi: Bound<&[u8]>,
                dir: Dir,
                f: Visit<'_>,
            ) -> Result<()> {
                scan_table(&self.$field.open_table(t).map_err(stored)?, lo, hi, dir, f)
            }

            fn len(&self, t: Tbl) -> Result<u64> {
                self.$field
                    .open_table(t)
                    .map_err(stored)?
                    .len()
                    .map_err(stored)
            }
        }
    };
}

tables!(ReadTx, 0);
tables!(WriteTx, tx);

impl From<OpenError> for Error {
    fn from(e: OpenError) -> Self {
        Error::Storage(Box::new(e))
    }
}

/// A storage failure from redb, kept as the error's source (redb's types
/// stay out of the public API).
fn stored(e: impl Into<redb::Error>) -> Error {
    Error::Storage(Box::new(e.into()))
}

/// Every table of a snapshot and its entries, written into a new store
/// file (backups, EXTENSIONS.md §4): the copy shows the store exactly as
/// the snapshot does, whatever is written meanwhile. Returns the entries
/// of each table, by name.
pub(crate) fn copy_snapshot(
    tx: &ReadTx,
    to: &Path,
) -> Result<std::collections::BTreeMap<String, u64>> {
    use redb::TableHandle;
    /// Entries written per transaction of the copy: its memory stays a
    /// batch's, whatever the store's size.
    const BATCH: usize = 20_000;
    let db = redb::Database::builder()
        .set_cache_size(COPY_CACHE)
        .create(to)
        .map_err(stored)?;
    let write_batch = |name: &str, batch: &mut Vec<(Vec<u8>, Vec<u8>)>| -> Result<()> {
        let def: TableDefinition<'_, &[u8], &[u8]> = TableDefinition::new(name);
        let mut write = db.begin_write().map_err(stored)?;
        // Made durable once, by the last commit.
        write
            .set_durability(redb::Durability::None)
            .map_err(|e| Error::Storage(e.to_string().into()))?;
        {
            let mut target = write.open_table(def).map_err(stored)?;
            for (k, v) in batch.drain(..) {
                target.insert(k.as_slice(), v.as_slice()).map_err(stored)?;
            }
        }
        write.commit().map_err(stored)
    };
    let mut counts = std::collections::BTreeMap::new();
    for handle in tx.0.list_tables().map_err(stored)? {
        let name = handle.name().to_owned();
        let def: TableDefinition<'_, &[u8], &[u8]> = TableDefinition::new(&name);
        let source = tx.0.open_table(def).map_err(stored)?;
        let mut batch = Vec::with_capacity(BATCH.min(1024));
        let mut n = 0u64;
        for entry in source.iter().map_err(stored)? {
            let (k, v) = entry.map_err(stored)?;
            batch.push((k.value().to_vec(), v.value().to_vec()));
            n += 1;
            if batch.len() == BATCH {
                write_batch(&name, &mut batch)?;
            }
        }
        // The last batch, and an empty table made all the same.
        write_batch(&name, &mut batch)?;
        counts.insert(name, n);
    }
    db.begin_write().map_err(stored)?.commit().map_err(stored)?;
    Ok(counts)
}

/// What a store file holds, checked: redb's integrity check passed, and
/// the entries of each table and the schema version it records.
pub(crate) struct Checked {
    pub(crate) counts: std::collections::BTreeMap<String, u64>,
    pub(crate) schema_version: u32,
}

/// Opens the store file at `path` (no other process may hold it), runs
/// redb's integrity check, and counts its tables; the reason when any of
/// it fails.
pub(crate) fn check_file(path: &Path) -> std::result::Result<Checked, String> {
    use redb::TableHandle;
    let mut db = redb::Database::open(path).map_err(|e| format!("the store does not open: {e}"))?;
    match db.check_integrity() {
        Ok(true) => {}
        Ok(false) => return Err("the store failed its integrity check (it was repaired)".into()),
        Err(e) => return Err(format!("the store failed its integrity check: {e}")),
    }
    let read = db
        .begin_read()
        .map_err(|e| format!("the store cannot be read: {e}"))?;
    let mut counts = std::collections::BTreeMap::new();
    let bad = |e: redb::Error| format!("the store cannot be read: {e}");
    for handle in read.list_tables().map_err(|e| bad(e.into()))? {
        let name = handle.name().to_owned();
        let def: TableDefinition<'_, &[u8], &[u8]> = TableDefinition::new(&name);
        let table = read.open_table(def).map_err(|e| bad(e.into()))?;
        counts.insert(name, table.len().map_err(|e| bad(e.into()))?);
    }
    let schema_version = {
        let meta = read.open_table(schema::META).map_err(|e| bad(e.into()))?;
        meta.get(&b"schema_version"[..])
            .map_err(|e| bad(e.into()))?
            .and_then(|v| <[u8; 4]>::try_from(v.value()).ok())
            .map(u32::from_be_bytes)
            .unwrap_or(0)
    };
    Ok(Checked {
        counts,
        schema_version,
    })
}

#[cfg(test)]
mod tests {
    use redb::{ReadableDatabase, TableDefinition};

    use super::Store;

    const WORDS: TableDefinition<&[u8], &[u8]> = TableDefinition::new("words");
    const EMPTY: TableDefinition<&[u8], &[u8]> = TableDefinition::new("empty");

    /// A table's name and every entry of it.
    type Whole = (String, Vec<(Vec<u8>, Vec<u8>)>);

    /// Every table of the file at `path`, whole, by name.
    fn contents(path: &std::path::Path) -> Vec<Whole> {
        let db = redb::Database::open(path).unwrap();
        let read = db.begin_read().unwrap();
        let mut out = Vec::new();
        for handle in read.list_tables().unwrap() {
            let name = redb::TableHandle::name(&handle).to_owned();
            let table = read
                .open_table(TableDefinition::<&[u8], &[u8]>::new(&name))
                .unwrap();
            let rows = table
                .range::<&[u8]>(..)
                .unwrap()
                .map(|e| {
                    let (k, v) = e.unwrap();
                    (k.value().to_vec(), v.value().to_vec())
                })
                .collect();
            out.push((name, rows));
        }
        out.sort();
        out
    }

    #[test]
    fn compaction_copies_every_table_in_key_order_into_full_pages() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("organiser.redb");
        {
            let db = redb::Database::create(&path).unwrap();
            // Keys in no order, written a few at a time: half-empty pages.
            for chunk in 0..20u64 {
                let tx = db.begin_write().unwrap();
                {
                    let mut words = tx.open_table(WORDS).unwrap();
                    for i in 0..5_000u64 {
                        let n = (chunk * 5_000 + i).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                        words.insert(&n.to_be_bytes()[..], &b"value"[..]).unwrap();
                    }
                }
                tx.open_table(EMPTY).unwrap();
                tx.commit().unwrap();
            }
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
        }
        let before = contents(&path);
        let size_before = std::fs::metadata(&path).unwrap().len();
        Store::compact_file(&path).unwrap();
        assert_eq!(contents(&path), before, "every table, every entry");
        let size_after = std::fs::metadata(&path).unwrap().len();
        assert!(
            size_after * 10 < size_before * 8,
            "{size_before} -> {size_after}"
        );
        assert!(!dir.path().join("organiser.redb.compacting").exists());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600, "as private as it was");
        }
        let store = Store::open(&path).unwrap();
        let pages: u64 = store
            .begin_read()
            .unwrap()
            .table_sizes()
            .unwrap()
            .iter()
            .map(|t| t.fragmented_bytes)
            .sum();
        assert!(pages < 64 * 1024, "full pages: {pages} bytes unused");
    }

    #[test]
    fn compaction_of_a_store_held_elsewhere_is_refused_and_changes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("organiser.redb");
        let held = Store::open(&path).unwrap();
        let size = std::fs::metadata(&path).unwrap().len();
        assert!(matches!(
            Store::compact_file(&path),
            Err(super::OpenError::Locked)
        ));
        assert_eq!(std::fs::metadata(&path).unwrap().len(), size);
        assert!(!dir.path().join("organiser.redb.compacting").exists());
        drop(held);
    }
}
