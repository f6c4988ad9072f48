//! Rows that belong to a project and, for some, a person (members, and
//! events): stored once, shown while both are live. A project's or a
//! person's delete hides its rows (a deletion record for each row that was
//! shown), its restoration shows them again (the record removed, a new
//! `updated_at`), whichever order the two come in; the shown rows alone
//! are in the indexes the lists walk.

use jiff::Timestamp;
use serde::{Deserialize, Serialize};

use crate::engine::{Cx, WriteCx};
use crate::error::Result;
use crate::ids::Id;
use crate::resources::deletions;
use crate::store::codec::Record;
use crate::store::key::Key;
use crate::store::{Tables, Tbl};

/// What hides a row: its project's delete, its person's delete, or both.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Gone {
    pub(crate) project: bool,
    pub(crate) person: bool,
}

impl Gone {
    fn shown(self) -> bool {
        !self.project && !self.person
    }
}

/// Which delete hides or shows rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Side {
    Project,
    Person,
}

/// A stored row of a project.
pub(crate) trait Row: Record + Clone {
    /// Its deletion `type`.
    const KIND: &'static str;
    /// The table of the rows.
    const TABLE: Tbl;
    fn id(&self) -> Id;
    fn gone(&self) -> Gone;
    fn gone_mut(&mut self) -> &mut Gone;
    /// Gives it a new `updated_at`.
    fn touch(&mut self, now: Timestamp);
    /// Its entries in the indexes of shown rows.
    fn shown_entries(&self) -> Vec<(Tbl, Key)>;
    /// Its entries in the indexes of every stored row.
    fn stored_entries(&self) -> Vec<(Tbl, Key)>;
}

pub(crate) fn load<R: Row, T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<Option<R>> {
    cx.get_record(R::TABLE, &id.to_bytes())
}

/// The row `id` while it is shown.
pub(crate) fn load_shown<R: Row, T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<Option<R>> {
    Ok(load::<R, T>(cx, id)?.filter(|r| r.gone().shown()))
}

/// Stores a new row.
pub(crate) fn insert<R: Row>(cx: &WriteCx<'_>, row: &R) -> Result<()> {
    cx.set_indexes(&row.stored_entries(), true)?;
    if row.gone().shown() {
        cx.set_indexes(&row.shown_entries(), true)?;
    }
    cx.put_record(R::TABLE, &row.id().to_bytes(), row)
}

/// Stores a changed row, moving its index entries.
pub(crate) fn replace<R: Row>(cx: &WriteCx<'_>, before: &R, after: &R) -> Result<()> {
    if before.gone().shown() {
        cx.set_indexes(&before.shown_entries(), false)?;
    }
    if after.gone().shown() {
        cx.set_indexes(&after.shown_entries(), true)?;
    }
    cx.put_record(R::TABLE, &after.id().to_bytes(), after)
}

/// Removes a row for good (its deletion record is the caller's).
pub(crate) fn remove<R: Row>(cx: &WriteCx<'_>, row: &R) -> Result<()> {
    if row.gone().shown() {
        cx.set_indexes(&row.shown_entries(), false)?;
    }
    cx.set_indexes(&row.stored_entries(), false)?;
    cx.remove(R::TABLE, &row.id().to_bytes())?;
    Ok(())
}

/// The IDs of the keys `(owner, id)` of `table`.
pub(crate) fn ids_under<T: Tables>(cx: &Cx<'_, T>, table: Tbl, owner: Id) -> Result<Vec<Id>> {
    cx.ids_under(table, Key::new().id(owner).as_slice())
}

/// Hides (`gone`) or shows the rows `ids` for `side`; the rows whose
/// showing changed. A row hidden gets a deletion record; a row shown again
/// loses it and gets a new `updated_at`.
pub(crate) fn set_gone<R: Row>(
    cx: &WriteCx<'_>,
    ids: &[Id],
    side: Side,
    gone: bool,
) -> Result<Vec<R>> {
    let mut changed = Vec::new();
    for &id in ids {
        let Some(before) = load::<R, _>(cx, id)? else {
            continue;
        };
        let mut after = before.clone();
        match side {
            Side::Project => after.gone_mut().project = gone,
            Side::Person => after.gone_mut().person = gone,
        }
        if after.gone() == before.gone() {
            continue;
        }
        match (before.gone().shown(), after.gone().shown()) {
            (true, false) => deletions::record(cx, R::KIND, id)?,
            (false, true) => {
                deletions::unrecord(cx, R::KIND, id)?;
                after.touch(cx.now());
            }
            _ => {}
        }
        replace(cx, &before, &after)?;
        if before.gone().shown() != after.gone().shown() {
            changed.push(after);
        }
    }
    Ok(changed)
}

/// Removes the row `id` if a delete hides it (the purge of a delete that
/// took it).
pub(crate) fn purge<R: Row>(cx: &mut WriteCx<'_>, id: Id) -> Result<()> {
    if let Some(row) = load::<R, _>(cx, id)?
        && !row.gone().shown()
    {
        remove(cx, &row)?;
    }
    Ok(())
}
