//! Folders in the organiser's archive (EXTENSIONS.md §5):
//! `records/folder.jsonl`, each line the folder as the API shows it,
//! which is all the store keeps of it. An import writes the folder with
//! its sibling, name and change indexes.
//!
//! The lines come in ID order, so a folder made inside an older one comes
//! after its parent; a folder moved into a newer one comes before it. The
//! parent need not be there yet: the indexes are keyed by the parent's ID,
//! so the child is in its place once the parent's line is written later
//! in the same import. Only a parent deleted here (a deletion record) is
//! gone for good: its imported child goes to the top.

use serde_json::Value;

use super::tables::FOLDERS;
use super::{Folder, KIND, exists, get, is_within, load, save, sibling_named};
use crate::engine::{ReadCx, WriteCx};
use crate::error::Result;
use crate::ids::Id;
use crate::limits;
use crate::portable::{self, Imported, Paths, Portable};
use crate::restore;

/// The folders' part of the archive.
pub(crate) static PORTABLE: Portable = Portable {
    kind: "folder",
    table: FOLDERS,
    export,
    import,
};

/// The line of folder `id`: the folder as the API shows it.
fn export(cx: &ReadCx<'_>, _paths: &Paths<'_>, id: Id) -> Result<Option<Value>> {
    portable::line_of(get(cx, id))
}

/// Writes a folder's line exactly, with its indexes. A parent deleted
/// here puts it at the top; a parent inside it here (a cycle) leaves it
/// alone; a name a sibling here has (ignoring case) takes the first free
/// numbered one, `Name (2)`.
fn import(cx: &mut WriteCx<'_>, paths: &Paths<'_>, line: Value) -> Result<Imported> {
    let mut folder: Folder = portable::read_line(PORTABLE.kind, line)?;
    let id = folder.id;
    let before = load(cx, id)?;
    let did = portable::decide(
        paths,
        before.as_ref().map(|f| f.updated_at),
        false,
        &mut folder.updated_at,
    );
    if did == Imported::Unchanged {
        return Ok(did);
    }
    if let Some(parent) = folder.parent_id {
        if !exists(cx, parent)?
            && crate::resources::deletions::recorded(cx, KIND.name, parent)?.is_some()
        {
            folder.parent_id = None;
        } else if is_within(cx, parent, id)? {
            return Ok(Imported::Unchanged);
        }
    }
    let parent = folder.parent_id;
    let Some(name) = restore::free_name(&folder.name, limits::text::FOLDER_NAME, |n| {
        Ok(sibling_named(cx, parent, n, Some(id))?.is_some())
    })?
    else {
        return Ok(Imported::Unchanged);
    };
    folder.name = name;
    save(cx, before.as_ref(), &folder)?;
    Ok(did)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Organiser;
    use crate::error::Error;
    use crate::input::Field;
    use crate::list::{ListOrder, ListParams};
    use crate::portable::round_trip;
    use crate::resources::folders::{FolderInput, FolderQuery};

    /// The lines as the archive writes them.
    fn text(lines: &[Vec<Value>]) -> Vec<Vec<String>> {
        lines
            .iter()
            .map(|kind| kind.iter().map(|l| l.to_string()).collect())
            .collect()
    }

    /// A new folder named `name` in `parent` (the top when `None`).
    fn make(org: &Organiser, name: &str, parent: Option<Id>) -> Folder {
        org.folders()
            .create(FolderInput {
                name: Some(name.into()),
                parent_id: parent.map_or(Field::Absent, Field::Value),
                ..FolderInput::default()
            })
            .unwrap()
    }

    /// Moves folder `id` into `parent` (the top when `None`).
    fn move_to(org: &Organiser, id: Id, parent: Option<Id>) {
        org.folders()
            .change(
                id,
                FolderInput {
                    parent_id: parent.map_or(Field::Null, Field::Value),
                    ..FolderInput::default()
                },
            )
            .unwrap();
    }

    /// The names of the folders in `parent` (`Some(None)`: the top; `None`:
    /// every folder), in `order`.
    fn names(org: &Organiser, parent: Option<Option<Id>>, order: Option<ListOrder>) -> Vec<String> {
        let q = FolderQuery {
            parent_id: parent,
            params: ListParams {
                order,
                ..ListParams::default()
            },
        };
        org.folders()
            .list(&q)
            .unwrap()
            .items
            .into_iter()
            .map(|f| f.name)
            .collect()
    }

    /// Folders come back exactly in an empty store, a child moved into a
    /// newer folder (so written before its parent) included; importing
    /// them again changes nothing; a deleted folder is not exported.
    #[test]
    fn folders_round_trip_exactly_children_before_parents_included() {
        let a = Organiser::in_memory();
        let early = make(&a, "Early", None);
        let work = a
            .folders()
            .create(FolderInput {
                name: Some("Work".into()),
                color: Field::Value("blue".into()),
                icon: Field::Value("briefcase".into()),
                ..FolderInput::default()
            })
            .unwrap();
        let reports = make(&a, "Reports", Some(work.id));
        make(&a, "2026", Some(reports.id));
        let gone = make(&a, "Gone", Some(work.id));
        a.folders().delete(gone.id).unwrap();
        let later = make(&a, "Later", None);
        // `Early` (the oldest ID) moves into the newest folder.
        move_to(&a, early.id, Some(later.id));

        let b = Organiser::in_memory();
        let (first, again, did) = round_trip(&a, &b, &[&PORTABLE]);
        assert_eq!(first[0].len(), 5);
        assert_eq!(first[0][0]["id"], early.id.to_string(), "a child first");
        assert_eq!(text(&first), text(&again));
        assert!(did[0].iter().all(|&d| d == Imported::Created), "{did:?}");
        let (_, third, did) = round_trip(&a, &b, &[&PORTABLE]);
        assert!(did[0].iter().all(|&d| d == Imported::Unchanged), "{did:?}");
        assert_eq!(text(&first), text(&third));

        assert_eq!(names(&b, Some(None), None), ["Later", "Work"]);
        assert_eq!(names(&b, Some(Some(later.id)), None), ["Early"]);
        assert_eq!(names(&b, Some(Some(work.id)), None), ["Reports"]);
        assert_eq!(names(&b, Some(Some(reports.id)), None), ["2026"]);
        for order in [None, Some(ListOrder::UpdatedAt), Some(ListOrder::Id)] {
            assert_eq!(names(&b, None, order), names(&a, None, order));
        }
        let taken = b.folders().create(FolderInput {
            name: Some("reports".into()),
            parent_id: Field::Value(work.id),
            ..FolderInput::default()
        });
        assert!(matches!(taken, Err(Error::Validation(_))), "{taken:?}");
        // A folder with a subfolder is not empty.
        assert!(b.folders().delete(work.id).is_err());

        // A newer line moves a folder, moving its sibling index.
        move_to(&a, reports.id, None);
        let (first, again, did) = round_trip(&a, &b, &[&PORTABLE]);
        assert_eq!(text(&first), text(&again));
        assert!(did[0].contains(&Imported::Updated), "{did:?}");
        assert_eq!(names(&b, Some(None), None), ["Later", "Reports", "Work"]);
        assert!(names(&b, Some(Some(work.id)), None).is_empty());

        // A parent deleted here: its imported child goes to the top; what
        // was deleted here is not written again.
        b.folders().delete(early.id).unwrap();
        b.folders().delete(later.id).unwrap();
        let fresh = make(&a, "Fresh", Some(later.id));
        let (_, _, did) = round_trip(&a, &b, &[&PORTABLE]);
        assert_eq!(
            did[0].iter().filter(|&&d| d == Imported::Created).count(),
            1
        );
        assert_eq!(b.folders().get(fresh.id).unwrap().parent_id, None);
        assert!(b.folders().get(later.id).is_err());
        assert!(b.folders().get(early.id).is_err());
    }
}
