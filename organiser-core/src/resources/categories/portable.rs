//! Categories in the organiser's archive (EXTENSIONS.md §5):
//! `records/category.jsonl`, each line the category as the API shows it,
//! which is all the store keeps of it (its position included). An import
//! writes the category with its position exactly (no other category is
//! renumbered) and its position, name and change indexes.

use serde_json::Value;

use super::tables::{CATEGORIES, CATEGORIES_BY_NAME};
use super::{Category, NAME_MAX, get, load, save};
use crate::engine::{ReadCx, WriteCx};
use crate::error::Result;
use crate::ids::Id;
use crate::portable::{self, Imported, Paths, Portable};
use crate::restore;
use crate::store::Tables;

/// The categories' part of the archive.
pub(crate) static PORTABLE: Portable = Portable {
    kind: "category",
    table: CATEGORIES,
    export,
    import,
};

/// The line of category `id`: the category as the API shows it.
fn export(cx: &ReadCx<'_>, _paths: &Paths<'_>, id: Id) -> Result<Option<Value>> {
    portable::line_of(get(cx, id))
}

/// Writes a category's line exactly, with its indexes. A name another
/// category here has (ignoring case) takes the first free numbered one,
/// `Name (2)`, so that names stay unique.
fn import(cx: &mut WriteCx<'_>, paths: &Paths<'_>, line: Value) -> Result<Imported> {
    let mut category: Category = portable::read_line(PORTABLE.kind, line)?;
    let before = load(cx, category.id)?;
    let did = portable::decide(
        paths,
        before.as_ref().map(|c| c.updated_at),
        false,
        &mut category.updated_at,
    );
    if did == Imported::Unchanged {
        return Ok(did);
    }
    let id = category.id;
    let Some(name) = restore::free_name(&category.name, NAME_MAX, |n| {
        Ok(cx.named(CATEGORIES_BY_NAME, n, Some(id))?.is_some())
    })?
    else {
        return Ok(Imported::Unchanged);
    };
    category.name = name;
    save(cx, before.as_ref(), &category)?;
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
    use crate::resources::categories::{CategoryInput, CategoryQuery};

    /// The lines as the archive writes them.
    fn text(lines: &[Vec<Value>]) -> Vec<Vec<String>> {
        lines
            .iter()
            .map(|kind| kind.iter().map(|l| l.to_string()).collect())
            .collect()
    }

    /// A new category named `name`, placed at `position` when given.
    fn make(org: &Organiser, name: &str, position: Option<i64>) -> Category {
        org.categories()
            .create(CategoryInput {
                name: Some(name.into()),
                position,
                ..CategoryInput::default()
            })
            .unwrap()
    }

    /// The categories' names and positions in `order`.
    fn listed(org: &Organiser, order: Option<ListOrder>) -> Vec<(String, i64)> {
        let q = CategoryQuery {
            params: ListParams {
                order,
                ..ListParams::default()
            },
        };
        org.categories()
            .list(&q)
            .unwrap()
            .items
            .into_iter()
            .map(|c| (c.name, c.position))
            .collect()
    }

    /// Categories come back exactly (positions with their gaps, colours,
    /// icons) in an empty store, with their indexes; importing them again
    /// changes nothing; a deleted one is not exported.
    #[test]
    fn categories_round_trip_exactly() {
        let a = Organiser::in_memory();
        let work = a
            .categories()
            .create(CategoryInput {
                name: Some("Work".into()),
                color: Field::Value("blue".into()),
                icon: Field::Value("briefcase".into()),
                position: None,
            })
            .unwrap();
        make(&a, "home", None);
        let gone = make(&a, "Gone", None);
        make(&a, "Ideas", Some(1));
        make(&a, "Last", None);
        a.categories().delete(gone.id, false).unwrap();
        let before = listed(&a, None);
        assert!(
            before.windows(2).any(|w| w[1].1 - w[0].1 > 1),
            "a gap: {before:?}"
        );

        let b = Organiser::in_memory();
        let (first, again, did) = round_trip(&a, &b, &[&PORTABLE]);
        assert_eq!(first[0].len(), 4);
        assert_eq!(text(&first), text(&again));
        assert!(did[0].iter().all(|&d| d == Imported::Created), "{did:?}");
        let (_, third, did) = round_trip(&a, &b, &[&PORTABLE]);
        assert!(did[0].iter().all(|&d| d == Imported::Unchanged), "{did:?}");
        assert_eq!(text(&first), text(&third));

        assert_eq!(listed(&b, None), before);
        for order in [ListOrder::Name, ListOrder::UpdatedAt, ListOrder::Id] {
            assert_eq!(listed(&b, Some(order)), listed(&a, Some(order)));
        }
        assert_eq!(
            b.categories().get(work.id).unwrap(),
            a.categories().get(work.id).unwrap()
        );
        let taken = b.categories().create(CategoryInput {
            name: Some("WORK".into()),
            ..CategoryInput::default()
        });
        assert!(matches!(taken, Err(Error::Validation(_))), "{taken:?}");
        // A new one goes last, after the imported positions.
        let next = make(&b, "Next", None);
        assert_eq!(next.position, before.last().unwrap().1 + 1);

        // A name taken here by another category takes a numbered one.
        let c = Organiser::in_memory();
        make(&c, "work", None);
        let (_, again, _) = round_trip(&a, &c, &[&PORTABLE]);
        assert!(
            again[0].iter().any(|l| l["name"] == "Work (2)"),
            "{again:?}"
        );
    }
}
