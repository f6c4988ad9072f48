//! What the core must know about every kind of record (document 1,
//! "Deletion" and "Deletions (sync)"): its deletion `type`, whether it is
//! restorable, how to make its delete permanent, whether a record of it is
//! live (a home or a reference), what its delete takes with it, and who
//! follows what happens to it. The kinds, cascades and followers are
//! listed once, in the registry (`resources/mod.rs`); each resource
//! declares its own in its folder.

use serde::{Deserialize, Serialize};

use super::{ReadCx, WriteCx};
use crate::error::{Details, Result};
use crate::ids::Id;
use crate::input::Field;

/// One kind of record.
#[derive(Debug)]
pub(crate) struct RecordKind {
    /// The deletion record's `type` (`task`, `task_list`, ...).
    pub(crate) name: &'static str,
    /// A stable byte naming the kind inside stored keys; never reused.
    pub(crate) tag: u8,
    /// Makes a restorable delete permanent once its window ends; `None`
    /// for a kind whose deletes are permanent at once (not restorable).
    pub(crate) purge: Option<fn(&mut WriteCx<'_>, Id) -> Result<()>>,
    /// Whether the record `id` is live, for kinds that other records name
    /// (a task's home, a note's mention).
    pub(crate) is_live: Option<fn(&WriteCx<'_>, Id) -> Result<bool>>,
    /// What the passing of time makes due for this kind (expiry, the today
    /// set): whether anything is, and settling it.
    pub(crate) settle: Option<Settle>,
}

impl RecordKind {
    /// A kind with nothing but its name and tag.
    pub(crate) const fn new(name: &'static str, tag: u8) -> RecordKind {
        RecordKind {
            name,
            tag,
            purge: None,
            is_live: None,
            settle: None,
        }
    }
}

/// A kind's rules of the clock.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Settle {
    /// Whether anything a reader could see is due.
    pub(crate) due: fn(&ReadCx<'_>) -> Result<bool>,
    /// Settles everything due, inside the caller's write transaction.
    pub(crate) run: fn(&mut WriteCx<'_>) -> Result<()>,
}

/// What a delete of one kind takes with it: the live dependents of the
/// deleted record (a task list's tasks; later a person's links and
/// memberships, a project's members).
#[derive(Debug)]
pub(crate) struct Cascade {
    /// The kind whose delete cascades.
    pub(crate) from: &'static str,
    /// The dependents' kind.
    pub(crate) to: &'static str,
    /// Deletes the live dependents of record `id` with it; the IDs taken.
    pub(crate) delete: fn(&mut WriteCx<'_>, Id) -> Result<Vec<Id>>,
    /// Brings back the dependents the delete of `id` took, those still
    /// deleted with it.
    pub(crate) restore: fn(&mut WriteCx<'_>, Id, &[Id]) -> Result<()>,
}

/// What happened to a record that other resources follow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Change {
    /// Its name changed.
    Renamed,
    /// It was deleted (restorable or not).
    Deleted,
    /// It came back within its restore window.
    Restored,
    /// Its delete became permanent: the record is gone.
    Purged,
    /// It was merged into this other record of its kind, and is gone.
    MergedInto(Id),
}

/// A resource that follows what happens to the records of another kind
/// (the notes that name a person show the person's new name; a deleted
/// project's document links hide), so that the followed resource never
/// names the resources downstream of it: it tells the engine
/// ([`WriteCx::tell`]), and the engine tells the followers the registry
/// lists, in their order, in the same transaction.
#[derive(Debug)]
pub(crate) struct Follower {
    /// The kind followed ([`RecordKind::name`]).
    pub(crate) of: &'static str,
    /// What the follower does when record `id` of that kind changes.
    pub(crate) on: fn(&WriteCx<'_>, Id, Change) -> Result<()>,
    /// Whether any of the follower's records names record `id` (a delete
    /// that is refused while the record is in use asks).
    pub(crate) uses: Option<fn(&WriteCx<'_>, Id) -> Result<bool>>,
}

/// The documents a record is given through its own input (a task's
/// `document_ids` and `document_uploads`): the resource that keeps
/// documents checks them with the record's other fields and attaches them
/// once the record is saved, so the record's resource never names it.
#[derive(Debug)]
pub(crate) struct Attachments {
    /// Adds to `details`, under `field`, the given documents that are not
    /// live and the uploads that are not unused document uploads.
    pub(crate) check: fn(&WriteCx<'_>, &mut Details, &str, Given<'_>) -> Result<()>,
    /// Links record `id` of kind `kind` to exactly the given documents
    /// (when sent; none for null) and to a new document made from each
    /// given upload; whether a live document is linked to it now.
    pub(crate) attach: fn(&WriteCx<'_>, &str, Id, Given<'_>) -> Result<bool>,
    /// The live documents linked to record `id` of kind `kind` (a
    /// repeating task's next occurrence is linked to the same ones).
    pub(crate) linked: fn(&WriteCx<'_>, &str, Id) -> Result<Vec<Id>>,
}

/// The documents an input gives a record: existing ones by ID, and
/// uploads to make new ones from.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Given<'a> {
    /// The documents, when sent.
    pub(crate) ids: &'a Field<Vec<Id>>,
    /// The uploads' signed IDs, when sent.
    pub(crate) uploads: &'a Field<Vec<String>>,
}

/// The dependents a delete took, by kind, as the deleted record keeps them
/// until it is restored or purged.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Taken(pub(crate) Vec<(String, Vec<Id>)>);

/// What the engine is wired to at open: the record kinds, their cascades
/// and followers, the rules of the clock, and the licence check. Declared
/// once in the registry (`resources/mod.rs`), so the engine depends on no
/// resource.
pub(crate) struct Wiring {
    /// Every table of the store, in groups (the core's, then each
    /// resource's).
    pub(crate) tables: &'static [&'static [crate::store::Tbl]],
    /// Every kind of record.
    pub(crate) kinds: &'static [&'static RecordKind],
    /// Every cascade of a delete.
    pub(crate) cascades: &'static [&'static Cascade],
    /// Every follower, in the order they are told.
    pub(crate) followers: &'static [&'static Follower],
    /// Every kind of background work.
    pub(crate) jobs: &'static [crate::engine::jobs::Job],
    /// The store's migration steps: the schema this build writes is their
    /// number.
    pub(crate) migrations: &'static [crate::store::schema::Step],
    /// Documents given through a record's own input.
    pub(crate) attachments: &'static Attachments,
    /// Whether anything the clock made due is unsettled.
    pub(crate) due: fn(&ReadCx<'_>) -> Result<bool>,
    /// Settles everything due.
    pub(crate) settle: fn(&mut WriteCx<'_>) -> Result<()>,
    /// 403 `read_only` while the licence state is read-only: checked on a
    /// snapshot before a route runs, and inside the transaction of a typed
    /// write.
    pub(crate) require_writable: fn(&ReadCx<'_>) -> Result<()>,
    /// The same check inside a write transaction.
    pub(crate) require_writable_in_write: fn(&WriteCx<'_>) -> Result<()>,
    /// Runs in the transaction that changes the owner's time zone, for
    /// what is read in that zone (calendar feeds' floating times).
    pub(crate) zone_changed: fn(&WriteCx<'_>) -> Result<()>,
    /// The tables whose writes [`Wiring::before_commit`] follows.
    pub(crate) watched: &'static [crate::store::Tbl],
    /// Runs in every write transaction before it commits, after
    /// everything else: the search index follows the records written.
    pub(crate) before_commit: fn(&mut WriteCx<'_>) -> Result<()>,
}

impl Wiring {
    /// The schema this build writes: the number of migration steps.
    pub(crate) fn schema_version(&self) -> u32 {
        self.migrations.len() as u32
    }

    /// The kind named `name`.
    pub(crate) fn kind(&self, name: &str) -> Option<&'static RecordKind> {
        self.kinds.iter().copied().find(|k| k.name == name)
    }

    /// The kind tagged `tag`.
    pub(crate) fn kind_by_tag(&self, tag: u8) -> Option<&'static RecordKind> {
        self.kinds.iter().copied().find(|k| k.tag == tag)
    }
}

impl WriteCx<'_> {
    /// Whether the record `id` of kind `kind` is live; a kind this build
    /// does not store has no live records.
    pub(crate) fn is_live(&self, kind: &str, id: Id) -> Result<bool> {
        match self.org.wiring.kind(kind).and_then(|k| k.is_live) {
            Some(is_live) => is_live(self, id),
            None => Ok(false),
        }
    }

    /// Documents given through a record's own input.
    pub(crate) fn attachments(&self) -> &'static Attachments {
        self.org.wiring.attachments
    }

    /// Tells the followers of `kind` that record `id` changed.
    pub(crate) fn tell(&self, kind: &str, id: Id, change: Change) -> Result<()> {
        for f in self.org.wiring.followers.iter().filter(|f| f.of == kind) {
            (f.on)(self, id, change)?;
        }
        Ok(())
    }

    /// Whether a follower of `kind` has a record that names record `id`.
    pub(crate) fn in_use(&self, kind: &str, id: Id) -> Result<bool> {
        for f in self.org.wiring.followers.iter().filter(|f| f.of == kind) {
            if let Some(uses) = f.uses
                && uses(self, id)?
            {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Deletes what the delete of `kind` `id` takes with it.
    pub(crate) fn cascade_delete(&mut self, kind: &str, id: Id) -> Result<Taken> {
        let mut taken = Taken::default();
        for c in self.org.wiring.cascades.iter().filter(|c| c.from == kind) {
            let ids = (c.delete)(self, id)?;
            taken.0.push((c.to.to_owned(), ids));
        }
        Ok(taken)
    }

    /// Brings back what the delete of `kind` `id` took.
    pub(crate) fn cascade_restore(&mut self, kind: &str, id: Id, taken: &Taken) -> Result<()> {
        for c in self.org.wiring.cascades.iter().filter(|c| c.from == kind) {
            if let Some((_, ids)) = taken.0.iter().find(|(to, _)| to == c.to) {
                (c.restore)(self, id, ids)?;
            }
        }
        Ok(())
    }

    /// Makes the delete of what a delete took permanent.
    pub(crate) fn cascade_purge(&mut self, taken: &Taken) -> Result<()> {
        for (kind, ids) in &taken.0 {
            if let Some(purge) = self.org.wiring.kind(kind).and_then(|k| k.purge) {
                for &id in ids {
                    purge(self, id)?;
                }
            }
        }
        Ok(())
    }
}
