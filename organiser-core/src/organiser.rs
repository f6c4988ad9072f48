//! Opening a store (DESIGN.md "The core"): `Organiser::open(dir)`,
//! `Organiser::open_for_reading(dir)` for commands that only read, and
//! `Organiser::in_memory()`; a new or older store is migrated and given
//! its owner, and the engine is wired to the registry of record kinds.
//! Also whether an open store is usable (`health`, for `GET /healthz`).

use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};

use crate::config::Options;
use crate::engine::{Inner, Organiser};
use crate::ids::IdGen;
use crate::resources::WIRING;
use crate::resources::owner::{self, Owner};
use crate::secrets::SecretKey;
use crate::store::{OpenError, Store, schema};
use crate::time::to_millis;

/// The store's file name inside the data directory.
pub const STORE_FILE: &str = "organiser.redb";

/// Makes a store file just created readable by its owner only (0600).
fn make_private(path: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))?;
    }
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
}

/// What [`Organiser::compact`] did: the store file's size before and after.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Compaction {
    /// Bytes before.
    pub before: u64,
    /// Bytes after.
    pub after: u64,
}

/// The size of the file at `path`.
fn file_size(path: &Path) -> std::result::Result<u64, OpenError> {
    std::fs::metadata(path)
        .map(|m| m.len())
        .map_err(|e| OpenError::Io(format!("cannot read {}: {e}", path.display())))
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
        // The data directory is its owner's alone (0700), as the secret key is.
        crate::files::create_private_dir(dir).map_err(|e| {
            OpenError::Io(format!(
                "cannot create the data directory {}: {e}",
                dir.display()
            ))
        })?;
        let path = dir.join(STORE_FILE);
        let new = !path.exists();
        let store = Store::open(&path)?;
        if new {
            make_private(&path).map_err(|e| {
                OpenError::Io(format!("cannot make {} private: {e}", path.display()))
            })?;
        }
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
            let current = schema::version(&tx).ok()? == WIRING.schema_version()
                && crate::search_index::index::healthy(&tx, WIRING.schema_version());
            current.then(|| owner::stored(&tx).ok().flatten()).flatten()
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
        // Whether the clock made something due, read as a writable handle
        // would (a read-only handle's own `settling_due` is always false).
        if org.inner.read(org.inner.wiring.due).unwrap_or(true) {
            drop(org);
            return Organiser::open_with(dir, options);
        }
        Ok(org)
    }

    /// Compacts the store in the data directory `dir` (`organiser
    /// compact`): the space that deleted and rewritten records left free
    /// is given back. Nothing else may hold the store meanwhile
    /// ([`OpenError::Locked`]); a directory without a store is an error and
    /// is left as it was.
    pub fn compact(dir: impl AsRef<Path>) -> std::result::Result<Compaction, OpenError> {
        let path = dir.as_ref().join(STORE_FILE);
        if !path.is_file() {
            return Err(OpenError::Io(format!(
                "there is no store at {}",
                path.display()
            )));
        }
        let before = file_size(&path)?;
        Store::compact_file(&path)?;
        Ok(Compaction {
            before,
            after: file_size(&path)?,
        })
    }

    /// Every table of the store with what it holds and takes, largest
    /// first (`organiser stats`): where the store's bytes are.
    ///
    /// # Errors
    ///
    /// Only the store's.
    pub fn table_sizes(&self) -> crate::error::Result<Vec<crate::store::TableSize>> {
        self.inner.store.begin_read()?.table_sizes()
    }

    /// Whether the store is usable: one read transaction that reads the
    /// schema version, and nothing of the owner's. For health checks
    /// (`GET /healthz`): it takes microseconds and waits for no writer.
    pub fn health(&self) -> crate::error::Result<()> {
        let tx = self.inner.store.begin_read()?;
        schema::version(&tx).map(drop)
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
        let current = schema::version(&tx).unwrap_or(0) == WIRING.schema_version();
        let owner = if current {
            owner::stored(&tx).map_err(storage)?
        } else {
            None
        };
        drop(tx);
        let mut migrated_from = None;
        let owner = match owner {
            Some(owner) => owner,
            None => {
                let tx = store.begin_write().map_err(storage)?;
                migrated_from = Some(schema::migrate(&tx, crate::resources::MIGRATIONS)?);
                let owner = owner::ensure(&tx, now).map_err(storage)?;
                tx.commit().map_err(storage)?;
                owner
            }
        };
        // A search index that is missing, damaged or older than the
        // store is built again from the records.
        let whole = store
            .begin_read()
            .is_ok_and(|tx| crate::search_index::index::healthy(&tx, WIRING.schema_version()));
        // A store migrated across a step that reshapes its largest tables
        // is rewritten in key order once migrated, so that it is as small
        // as a new store of the same records (`organiser compact`).
        let rewrite = match (&data_dir, migrated_from) {
            (Some(dir), Some(from)) if from > 0 && from < crate::resources::REWRITE_BELOW => {
                Some((dir.join(STORE_FILE), options.clone(), secret.clone()))
            }
            _ => None,
        };
        let org = Organiser::assemble(store, options, secret, owner, data_dir.clone());
        if !whole {
            org.inner
                .write_unsettled(crate::resources::rebuild_search_index)
                .map_err(storage)?;
        }
        let Some((path, options, secret)) = rewrite else {
            return Ok(org);
        };
        drop(org);
        // A rewrite that fails leaves the store as it was, migrated.
        let _ = Store::compact_file(&path);
        Organiser::start(Store::open(&path)?, options, secret, data_dir)
    }

    fn assemble(
        store: Store,
        options: Options,
        secret: SecretKey,
        owner: Owner,
        data_dir: Option<PathBuf>,
    ) -> Organiser {
        let org = Organiser {
            inner: Arc::new(Inner {
                store,
                options,
                secret,
                ids: IdGen::default(),
                zone: RwLock::new(owner.zone()),
                ext: Default::default(),
                wiring: &crate::resources::WIRING,
                generation: Default::default(),
                files: Arc::new(crate::files::Files::new(data_dir.as_deref())),
                data_dir,
            }),
        };
        owner::remember(&org.inner, owner);
        org
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Error, TaskInput};

    /// Each typed method runs the operation its route runs: the same
    /// record comes back either way.
    #[test]
    fn the_typed_methods_agree_with_their_routes() {
        use crate::{Auth, Method, Request, SystemChange, TaskListInput};
        let org = Organiser::in_memory();
        let get = |path: &str| {
            let response = org.handle(&Request::new(Method::Get, path, Auth::Local));
            assert_eq!(response.status, 200, "{path}");
            response.json_value()["data"].clone()
        };
        fn json(value: &impl serde::Serialize) -> serde_json::Value {
            serde_json::to_value(value).unwrap()
        }

        assert_eq!(
            json(&org.account().appearance().unwrap()),
            get("/appearance")
        );

        let list = org
            .task_lists()
            .create(TaskListInput {
                name: Some("Errands".into()),
                ..TaskListInput::default()
            })
            .unwrap();
        let renamed = org
            .task_lists()
            .change(
                list.id,
                TaskListInput {
                    name: Some("Chores".into()),
                    ..TaskListInput::default()
                },
            )
            .unwrap();
        assert_eq!(renamed.name, "Chores");
        let path = format!("/task_lists/{}", list.id);
        assert_eq!(json(&org.task_lists().get(list.id).unwrap()), get(&path));

        let system = org
            .system()
            .change(
                SystemChange {
                    channel: Some("beta".into()),
                    ..SystemChange::default()
                },
                true,
            )
            .unwrap();
        assert_eq!(system.channel, crate::resources::system::Channel::Beta);
        assert_eq!(json(&system), get("/system"));
        // A development build does not check for updates.
        assert_eq!(
            org.system().check_for_update(true).unwrap_err().status(),
            422
        );

        let me = org.account().set_username("ada").unwrap();
        assert_eq!(me.username, "ada");
        assert_eq!(get("/me")["username"], "ada");

        let licence = org.licence().finish_onboarding().unwrap();
        assert_eq!(json(&licence), get("/licence"));
        // No key to forget.
        assert_eq!(org.licence().remove_key().unwrap_err().status(), 404);
    }

    #[test]
    fn compacting_gives_back_the_space_deletes_left() {
        let dir = tempfile::tempdir().unwrap();
        {
            let org = Organiser::open_with(dir.path(), Options::default()).unwrap();
            let mut ids = Vec::new();
            for n in 0..300 {
                let mut input = TaskInput::titled(format!("task {n}"));
                input.description_html =
                    crate::Field::Value("<p>".to_owned() + &"words ".repeat(200) + "</p>");
                ids.push(org.tasks().create(input).unwrap().id);
            }
            for id in ids {
                org.tasks().delete(id).unwrap();
            }
            // Past the restore window: the next write purges them.
            let clock = crate::ManualClock::at("2100-01-01T00:00:00Z");
            drop(org);
            let later = Organiser::open_with(
                dir.path(),
                Options {
                    clock: Arc::new(clock),
                    ..Options::default()
                },
            )
            .unwrap();
            later
                .account()
                .change_appearance(crate::AppearanceChange::default())
                .unwrap();
        }
        let done = Organiser::compact(dir.path()).unwrap();
        assert!(done.after < done.before, "{done:?}");
        // The store still opens and holds what it held.
        let org = Organiser::open_with(dir.path(), Options::default()).unwrap();
        assert_eq!(
            org.deletions()
                .list(&crate::DeletionQuery::default())
                .unwrap()
                .items
                .len(),
            50
        );
    }

    #[test]
    fn a_usable_store_is_healthy() {
        Organiser::in_memory().health().unwrap();
        let dir = tempfile::tempdir().unwrap();
        let org = Organiser::open_with(dir.path(), Options::default()).unwrap();
        org.health().unwrap();
        let reader = {
            drop(org);
            Organiser::open_for_reading_with(dir.path(), Options::default()).unwrap()
        };
        reader.health().unwrap();
    }

    #[test]
    fn compacting_a_directory_without_a_store_makes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let err = Organiser::compact(dir.path()).unwrap_err();
        assert!(err.to_string().contains("there is no store"), "{err}");
        assert!(!dir.path().join(STORE_FILE).exists());
    }

    #[test]
    fn typed_writes_obey_read_only_mode_too() {
        let clock = crate::ManualClock::at("2026-01-01T00:00:00Z");
        let org = Organiser::in_memory_with(Options {
            clock: Arc::new(clock.clone()),
            ..Options::default()
        });
        let task = org.tasks().create(TaskInput::titled("before")).unwrap();
        clock.advance_secs(15 * 86_400);
        for refused in [
            org.tasks().create(TaskInput::titled("after")).map(drop),
            org.tasks().delete(task.id),
            org.task_lists()
                .create(crate::TaskListInput::default())
                .map(drop),
        ] {
            assert!(matches!(refused, Err(Error::ReadOnly)), "{refused:?}");
        }
        // Reads and the listed settings still work.
        assert_eq!(org.tasks().get(task.id).unwrap().title, "before");
        org.account()
            .change_appearance(crate::AppearanceChange::default())
            .unwrap();
    }

    #[test]
    fn a_store_opened_for_reading_writes_nothing_and_refuses_writes() {
        let dir = tempfile::tempdir().unwrap();
        {
            let org = Organiser::open_with(dir.path(), Options::default()).unwrap();
            org.tasks().create(TaskInput::titled("kept")).unwrap();
        }
        let path = dir.path().join(STORE_FILE);
        let modified = std::fs::metadata(&path).unwrap().modified().unwrap();
        let reader = Organiser::open_for_reading_with(dir.path(), Options::default()).unwrap();
        assert!(reader.inner.store.is_read_only());
        assert_eq!(
            reader
                .tasks()
                .list(&crate::TaskQuery::default())
                .unwrap()
                .items
                .len(),
            1
        );
        assert!(reader.tasks().create(TaskInput::titled("no")).is_err());
        drop(reader);
        assert_eq!(
            std::fs::metadata(&path).unwrap().modified().unwrap(),
            modified
        );
    }

    #[test]
    fn a_store_whose_day_has_passed_is_opened_to_settle_not_for_reading() {
        let dir = tempfile::tempdir().unwrap();
        let clock = crate::clock::ManualClock::at("2026-03-10T09:00:00Z");
        let options = Options {
            clock: std::sync::Arc::new(clock.clone()),
            ..Options::default()
        };
        {
            let org = Organiser::open_with(dir.path(), options.clone()).unwrap();
            org.tasks()
                .create(TaskInput {
                    deadline_on: crate::Field::Value("2026-03-11".parse().unwrap()),
                    ..TaskInput::titled("due tomorrow")
                })
                .unwrap();
            let reader = Organiser::open_for_reading_with(dir.path(), options.clone());
            drop(org);
            drop(reader);
        }
        // The same day: read-only, nothing due.
        let reader = Organiser::open_for_reading_with(dir.path(), options.clone()).unwrap();
        assert!(reader.inner.store.is_read_only());
        drop(reader);
        // Two days on, the today set and the overdue count are behind the
        // clock: the store is opened to settle them, and counts are right.
        clock.advance(jiff::SignedDuration::from_hours(48));
        let org = Organiser::open_for_reading_with(dir.path(), options).unwrap();
        assert!(!org.inner.store.is_read_only());
        let counts = org.tasks().counts(&Default::default()).unwrap();
        assert_eq!(counts.overdue, 1, "{counts:?}");
    }
}
