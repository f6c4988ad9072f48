//! Tags in the organiser's archive (EXTENSIONS.md §5):
//! `records/tag.jsonl`, each line the tag as the API shows it, which is
//! all the store keeps of it (which notes carry it is the notes' own). An
//! import writes the tag with its name's lookup index (ignoring case) and
//! its change index, as a note's new `#word` does; no note is touched.

use serde_json::Value;

use super::tables::{TAGS, TAGS_BY_NAME};
use super::{Tag, find, get, save};
use crate::engine::{ReadCx, WriteCx};
use crate::error::Result;
use crate::ids::Id;
use crate::portable::{self, Imported, Paths, Portable};
use crate::store::Tables;

/// The tags' part of the archive.
pub(crate) static PORTABLE: Portable = Portable {
    kind: "tag",
    table: TAGS,
    export,
    import,
};

/// The line of tag `id`: the tag as the API shows it.
fn export(cx: &ReadCx<'_>, _paths: &Paths<'_>, id: Id) -> Result<Option<Value>> {
    portable::line_of(get(cx, id))
}

/// Writes a tag's line exactly, with its indexes. A line whose name
/// another tag here has (ignoring case) is not written: a tag's name is
/// unique, and that tag is the same tag to the notes.
fn import(cx: &mut WriteCx<'_>, paths: &Paths<'_>, line: Value) -> Result<Imported> {
    let mut tag: Tag = portable::read_line(PORTABLE.kind, line)?;
    let before = find(cx, tag.id)?;
    let did = portable::decide(
        paths,
        before.as_ref().map(|t| t.updated_at),
        false,
        &mut tag.updated_at,
    );
    if did == Imported::Unchanged || cx.named(TAGS_BY_NAME, &tag.name, Some(tag.id))?.is_some() {
        return Ok(Imported::Unchanged);
    }
    save(cx, before.as_ref(), &tag)?;
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
    use crate::resources::notes::NoteInput;
    use crate::resources::tags::TagQuery;

    /// A new note of body `body`.
    fn note(org: &Organiser, body: &str) {
        org.notes()
            .create(NoteInput {
                body_html: Field::Value(body.into()),
                ..NoteInput::default()
            })
            .unwrap();
    }

    /// The lines as the archive writes them.
    fn text(lines: &[Vec<Value>]) -> Vec<Vec<String>> {
        lines
            .iter()
            .map(|kind| kind.iter().map(|l| l.to_string()).collect())
            .collect()
    }

    /// The tags' names in `order`.
    fn names(org: &Organiser, order: Option<ListOrder>) -> Vec<String> {
        let q = TagQuery {
            params: ListParams {
                order,
                ..ListParams::default()
            },
        };
        org.tags()
            .list(&q)
            .unwrap()
            .items
            .into_iter()
            .map(|t| t.name)
            .collect()
    }

    /// Tags come back exactly in an empty store, with their name and
    /// change indexes; importing them again changes nothing; a deleted
    /// tag is not exported; a newer line renames.
    #[test]
    fn tags_round_trip_exactly() {
        let a = Organiser::in_memory();
        note(&a, "<p>#rust and #Big-Idea</p>");
        note(&a, "<p>#zebra #gone #merged</p>");
        let all = a.tags().list(&TagQuery::default()).unwrap().items;
        let id = |name: &str| all.iter().find(|t| t.name == name).unwrap().id;
        a.tags().delete(id("gone")).unwrap();
        a.tags().merge(id("merged"), id("rust")).unwrap();
        a.tags().rename(id("zebra"), "Zebra").unwrap();

        let b = Organiser::in_memory();
        let (first, again, did) = round_trip(&a, &b, &[&PORTABLE]);
        assert_eq!(first[0].len(), 3);
        assert_eq!(text(&first), text(&again));
        assert!(did[0].iter().all(|&d| d == Imported::Created), "{did:?}");
        let (_, third, did) = round_trip(&a, &b, &[&PORTABLE]);
        assert!(did[0].iter().all(|&d| d == Imported::Unchanged), "{did:?}");
        assert_eq!(text(&first), text(&third));

        assert_eq!(names(&b, None), ["Big-Idea", "rust", "Zebra"]);
        assert_eq!(
            names(&b, Some(ListOrder::UpdatedAt)),
            names(&a, Some(ListOrder::UpdatedAt))
        );
        // A note's `#RUST` finds the imported tag by its name.
        note(&b, "<p>#RUST</p>");
        assert_eq!(names(&b, None), ["Big-Idea", "rust", "Zebra"]);
        // Renaming to an imported name ignoring case is refused.
        let err = b.tags().rename(id("rust"), "zebra").unwrap_err();
        assert!(matches!(err, Error::Validation(_)), "{err:?}");

        // A newer line renames, moving the name index.
        a.tags().rename(id("rust"), "Rustacean").unwrap();
        let (first, again, did) = round_trip(&a, &b, &[&PORTABLE]);
        assert_eq!(text(&first), text(&again));
        assert!(did[0].contains(&Imported::Updated), "{did:?}");
        assert_eq!(names(&b, None), ["Big-Idea", "Rustacean", "Zebra"]);
        note(&b, "<p>#rust</p>");
        assert_eq!(names(&b, None), ["Big-Idea", "rust", "Rustacean", "Zebra"]);
        // Deleted here: not written again.
        b.tags().delete(id("zebra")).unwrap();
        let (_, again, did) = round_trip(&a, &b, &[&PORTABLE]);
        assert!(did[0].iter().all(|&d| d == Imported::Unchanged), "{did:?}");
        assert_eq!(again[0].len(), 3);
        assert!(b.tags().get(id("zebra")).is_err());
    }
}
