//! Notes in the organiser's archive (EXTENSIONS.md §5): a note's line is
//! the note as the API shows it, its images' addresses
//! (`data-upload="…"`) written as paths (`files/<upload id>`). An import
//! writes the body as the line has it (its names are not rendered again)
//! and derives what the store keeps beside it (the excerpt, the images,
//! the tags, people and projects its spans name) from that body, as a
//! save does; `edit_version`, `edited_at`, `pinned_at` and
//! `title_generated` are kept as written.

use serde_json::Value;

use super::body::{self, Ref, Resolve, TagRef};
use super::render::derive;
use super::store::{load, save};
use super::tables::NOTES;
use super::{KIND, Note, NoteRecord};
use crate::engine::{ReadCx, WriteCx};
use crate::error::{Error, Result};
use crate::ids::Id;
use crate::portable::{self, Imported, Paths, Portable};
use crate::resources::{categories, people, projects, tags, uploads};

/// The notes' part of the archive.
pub(crate) static PORTABLE: Portable = Portable {
    kind: "note",
    table: NOTES,
    export,
    import,
};

/// The line of live note `id`.
fn export(cx: &ReadCx<'_>, paths: &Paths<'_>, id: Id) -> Result<Option<Value>> {
    let mut note = match super::get(cx, id) {
        Ok(note) => note,
        Err(Error::NotFound) => return Ok(None),
        Err(e) => return Err(e),
    };
    note.body_html = paths.out_all(&note.body_html);
    note.body_text = paths.out_all(&note.body_text);
    portable::to_line(note).map(Some)
}

/// A tag the import does not make: what a bare `#word` of a stored body
/// is read as (the save that stored the body made every tag it named a
/// span), left out of the tags.
fn no_tag() -> Id {
    Id::from_bytes([0; 16])
}

/// Looks up what a stored body names, changing nothing: no tag is made
/// and no upload taken (the archive's uploads are imported as used).
struct Existing<'c, 'a> {
    cx: &'c WriteCx<'a>,
}

/// A person or project as a re-save of the body sees it.
fn reference(found: Option<(String, bool)>) -> Ref {
    match found {
        Some((name, true)) => Ref::Live(name),
        Some((_, false)) => Ref::Hidden,
        None => Ref::Gone,
    }
}

impl Resolve for Existing<'_, '_> {
    fn person(&mut self, id: Id) -> Result<Ref> {
        Ok(reference(people::lookup(self.cx, id)?))
    }

    fn project(&mut self, id: Id) -> Result<Ref> {
        Ok(reference(projects::lookup(self.cx, id)?))
    }

    fn tag(&mut self, id: Id) -> Result<TagRef> {
        Ok(match tags::find(self.cx, id)? {
            Some(tag) => TagRef::Live(tag.id, tag.name),
            None => TagRef::Unknown,
        })
    }

    fn tag_named(&mut self, name: &str) -> Result<(Id, String)> {
        Ok((no_tag(), name.to_owned()))
    }

    fn image(&mut self, signed: &str) -> Result<Option<Id>> {
        Ok(uploads::verify(&self.cx.org.secret, signed))
    }
}

/// Writes a note's line as the module's docs say.
fn import(cx: &mut WriteCx<'_>, paths: &Paths<'_>, line: Value) -> Result<Imported> {
    let mut note: Note = portable::read_line(KIND.name, line)?;
    let before = load(cx, note.id)?;
    let did = portable::decide(
        paths,
        before
            .as_ref()
            .filter(|r| r.deleted_at.is_none())
            .map(|r| r.note.updated_at),
        before.as_ref().is_some_and(|r| r.deleted_at.is_some()),
        &mut note.updated_at,
    );
    if did == Imported::Unchanged {
        return Ok(did);
    }
    let html = crate::html::sanitise_with_images(&paths.back_all(&note.body_html));
    let mut record = NoteRecord {
        note,
        excerpt: String::new(),
        images: Vec::new(),
        named_people: Vec::new(),
        named_projects: Vec::new(),
        deleted_at: None,
    };
    if let Some(c) = record.note.category_id
        && !categories::exists(cx, c)?
    {
        record.note.category_id = None;
    }
    let mut rendered = body::render(&html, &mut Existing { cx })?;
    rendered.tag_ids.retain(|&t| t != no_tag());
    rendered.html = html;
    derive(&mut record, rendered);
    if let Some(before) = &before {
        for &image in &before.images {
            if !record.images.contains(&image) {
                uploads::discard(cx, image)?;
            }
        }
    }
    save(cx, before.as_ref(), &record)?;
    Ok(did)
}

#[cfg(test)]
pub(crate) mod tests {
    use std::collections::HashMap;
    use std::sync::Arc;

    use super::*;
    use crate::input::Field;
    use crate::notes::{NoteInput, NoteQuery};
    use crate::portable::lines;
    use crate::store::{Dir, Tables, Tbl};
    use crate::uploads::UploadKind;
    use crate::{ManualClock, Options, Organiser};

    /// A store on a movable clock.
    pub(crate) fn org(clock: &ManualClock) -> Organiser {
        Organiser::in_memory_with(Options {
            clock: Arc::new(clock.clone()),
            ..Options::default()
        })
    }

    /// A small PNG.
    pub(crate) fn png() -> Vec<u8> {
        let image = ::image::RgbImage::from_fn(30, 20, |x, y| ::image::Rgb([x as u8, y as u8, 7]));
        let mut out = std::io::Cursor::new(Vec::new());
        image.write_to(&mut out, ::image::ImageFormat::Png).unwrap();
        out.into_inner()
    }

    /// Every row of `table` in `org`, as stored.
    pub(crate) fn rows(org: &Organiser, table: Tbl) -> Rows {
        org.inner
            .read(|cx| {
                let mut rows = Vec::new();
                cx.tx.scan_prefix(table, &[], Dir::Asc, &mut |k, v| {
                    rows.push((k.to_vec(), v.to_vec()));
                    Ok(true)
                })?;
                Ok(rows)
            })
            .unwrap()
    }

    /// A table's rows: keys and values.
    pub(crate) type Rows = Vec<(Vec<u8>, Vec<u8>)>;

    /// Copies every row of `tables` from `from` to `to` as stored: the
    /// records a kind under test names, whatever their own import does.
    pub(crate) fn copy_tables(from: &Organiser, to: &Organiser, tables: &[Tbl]) {
        let all: Vec<(Tbl, Rows)> = tables.iter().map(|&t| (t, rows(from, t))).collect();
        to.inner
            .write(|cx| {
                for (t, rows) in &all {
                    for (k, v) in rows {
                        cx.insert(*t, k, v)?;
                    }
                }
                Ok(())
            })
            .unwrap();
    }

    /// What importing each line of each kind did.
    pub(crate) type Did = Vec<Vec<Imported>>;

    /// [`portable::round_trip`] with the archive's files: the uploads'
    /// files go along with their lines.
    pub(crate) fn round_trip_files(
        from: &Organiser,
        to: &Organiser,
        kinds: &[&Portable],
    ) -> (Vec<Vec<Value>>, Vec<Vec<Value>>, Did) {
        let (first, files) = from
            .inner
            .read(|cx| {
                let mut files = HashMap::new();
                let mut all = Vec::new();
                for p in kinds {
                    let each = lines(cx, p)?;
                    if p.kind == uploads::portable::PORTABLE.kind {
                        for line in &each {
                            if let Some(id) = line["id"].as_str().and_then(Id::parse) {
                                files.extend(uploads::portable::files_of(cx, id)?);
                            }
                        }
                    }
                    all.push(each);
                }
                Ok((all, files))
            })
            .expect("export");
        let did = to
            .inner
            .write(|cx| {
                let mut did = Vec::new();
                for (p, each) in kinds.iter().zip(&first) {
                    let mut done = Vec::new();
                    for line in each {
                        let paths = Paths::with_files(
                            &cx.org.secret,
                            &files,
                            crate::portable::Stamp::AsWritten,
                        );
                        done.push(crate::portable::import(p, cx, &paths, line.clone())?);
                    }
                    did.push(done);
                }
                Ok(did)
            })
            .expect("import");
        let again = to
            .inner
            .read(|cx| kinds.iter().map(|p| lines(cx, p)).collect())
            .expect("export again");
        (first, again, did)
    }

    /// Each kind's imports all `want`.
    pub(crate) fn all(did: &Did, want: Imported) -> bool {
        did.iter().flatten().all(|d| *d == want)
    }

    /// The stored notes of `org` but `except`, their bodies' images as
    /// paths (the signatures are each store's own).
    fn stored_notes(org: &Organiser, except: Id) -> Vec<NoteRecord> {
        org.inner
            .read(|cx| {
                let paths = Paths::new(&cx.org.secret);
                let mut out = Vec::new();
                for (k, _) in rows(org, NOTES) {
                    let Some(mut r) = cx.get_record::<NoteRecord>(NOTES, &k)? else {
                        continue;
                    };
                    if r.note.id != except {
                        r.note.body_html = paths.out_all(&r.note.body_html);
                        r.note.body_text = paths.out_all(&r.note.body_text);
                        out.push(r);
                    }
                }
                Ok(out)
            })
            .unwrap()
    }

    /// The rows of every index of the notes but those of note `except`.
    fn note_indexes(org: &Organiser, except: Id) -> Vec<Rows> {
        // The first table is the records'.
        super::super::tables::TABLES[1..]
            .iter()
            .map(|&t| {
                rows(org, t)
                    .into_iter()
                    .filter(|(k, _)| !k.ends_with(&except.to_bytes()))
                    .collect()
            })
            .collect()
    }

    fn body(html: &str) -> Field<String> {
        Field::Value(html.to_owned())
    }

    #[test]
    fn notes_round_trip_exactly_with_their_images() {
        let clock = ManualClock::at("2026-03-02T09:00:00Z");
        let a = org(&clock);
        let ada = a
            .people()
            .create(crate::people::PersonInput {
                name: Some("Ada Lovelace".into()),
                ..Default::default()
            })
            .unwrap();
        let garden = a
            .projects()
            .create(crate::projects::ProjectInput {
                name: Some("Garden".into()),
                ..Default::default()
            })
            .unwrap();
        let recipes = a
            .categories()
            .create(crate::categories::CategoryInput {
                name: Some("Recipes".into()),
                ..Default::default()
            })
            .unwrap();
        clock.advance_secs(60);
        let image = a
            .uploads()
            .create(UploadKind::NoteImage, "plot.png", "image/png", png())
            .unwrap();
        let plans = a
            .notes()
            .create(NoteInput {
                title: Field::Value("Plans".into()),
                category_id: Field::Value(recipes.id),
                body_html: body(&format!(
                    "<p>Ask <span data-mention=\"{}\">@Ada</span> about <span data-project=\"{}\">^Garden</span> #outside</p><p><img data-upload=\"{}\"></p>",
                    ada.id, garden.id, image.signed_id
                )),
                ..Default::default()
            })
            .unwrap();
        clock.advance_secs(60);
        let thoughts = a
            .notes()
            .create(NoteInput {
                body_html: body("<p>Untitled thoughts on #cooking and <code>#not</code> more</p>"),
                ..Default::default()
            })
            .unwrap();
        clock.advance_secs(60);
        a.notes().pin(thoughts.id, true).unwrap();
        clock.advance_secs(60);
        let plans = a
            .notes()
            .change(
                plans.id,
                NoteInput {
                    body_html: body(&format!(
                        "{}<p>More #outside work</p>",
                        a.notes().get(plans.id).unwrap().body_html
                    )),
                    ..Default::default()
                },
            )
            .unwrap();
        assert_eq!(plans.edit_version, 2);
        clock.advance_secs(60);
        let titled = a
            .notes()
            .create(NoteInput {
                body_html: body("<p>A long walk by the river in spring</p>"),
                ..Default::default()
            })
            .unwrap();
        clock.advance_secs(60);
        a.inner
            .write(|cx| super::super::write_generated_title(cx, titled.id, "River walk"))
            .unwrap();
        let gone = a
            .notes()
            .create(NoteInput {
                body_html: body("<p>Deleted #outside</p>"),
                ..Default::default()
            })
            .unwrap();
        a.notes().delete(gone.id).unwrap();
        clock.advance_secs(60);

        let b = org(&clock);
        copy_tables(
            &a,
            &b,
            &[
                crate::resources::people::tables::TABLES,
                crate::resources::projects::tables::TABLES,
                crate::resources::categories::tables::TABLES,
                crate::resources::tags::tables::TABLES,
            ]
            .concat(),
        );
        let kinds = [&uploads::portable::PORTABLE, &PORTABLE];
        let (first, again, did) = round_trip_files(&a, &b, &kinds);
        assert_eq!(first[0].len(), 1, "the image's upload");
        assert_eq!(first[1].len(), 3, "the live notes");
        assert!(all(&did, Imported::Created), "{did:?}");
        assert_eq!(first, again);
        assert_eq!(
            serde_json::to_string(&first).unwrap(),
            serde_json::to_string(&again).unwrap()
        );
        let line = first[1]
            .iter()
            .find(|l| l["id"] == plans.id.to_string())
            .unwrap();
        let path = format!(
            "files/{}",
            uploads::verify(&a.inner.secret, &image.signed_id).unwrap()
        );
        assert!(
            line["body_html"]
                .as_str()
                .unwrap()
                .contains(&format!("data-upload=\"{path}\""))
        );
        assert!(!line.to_string().contains(&image.signed_id));

        // The same archive again changes nothing.
        let (_, again2, did) = round_trip_files(&a, &b, &kinds);
        assert!(all(&did, Imported::Unchanged), "{did:?}");
        assert_eq!(first, again2);

        // Stored exactly as a save stores them, indexes and all.
        assert_eq!(stored_notes(&a, gone.id), stored_notes(&b, gone.id));
        assert_eq!(note_indexes(&a, gone.id), note_indexes(&b, gone.id));

        // The typed API of the new store.
        let listed: Vec<Id> = b
            .notes()
            .list(&NoteQuery::default())
            .unwrap()
            .items
            .iter()
            .map(|n| n.id)
            .collect();
        assert_eq!(listed, [titled.id, plans.id, thoughts.id]);
        let only = |q: NoteQuery| -> Vec<Id> {
            b.notes()
                .list(&q)
                .unwrap()
                .items
                .iter()
                .map(|n| n.id)
                .collect()
        };
        assert_eq!(
            only(NoteQuery {
                person_id: Some(ada.id),
                ..Default::default()
            }),
            [plans.id]
        );
        assert_eq!(
            only(NoteQuery {
                project_id: Some(garden.id),
                ..Default::default()
            }),
            [plans.id]
        );
        assert_eq!(
            only(NoteQuery {
                category_id: Some(recipes.id),
                ..Default::default()
            }),
            [plans.id]
        );
        assert_eq!(
            only(NoteQuery {
                pinned: Some(true),
                ..Default::default()
            }),
            [thoughts.id]
        );
        let outside = plans.tag_ids[0];
        assert_eq!(
            only(NoteQuery {
                tag_id: Some(outside),
                ..Default::default()
            }),
            [plans.id]
        );
        assert_eq!(
            only(NoteQuery {
                q: Some("river".into()),
                ..Default::default()
            }),
            [titled.id]
        );
        let summary = b
            .notes()
            .list(&NoteQuery {
                pinned: Some(false),
                ..Default::default()
            })
            .unwrap()
            .items
            .into_iter()
            .find(|n| n.id == plans.id)
            .unwrap();
        assert_eq!(summary.image_count, 1);
        let shown = b.notes().get(plans.id).unwrap();
        assert_eq!(shown.edit_version, 2);
        assert!(
            !shown.body_html.contains(&image.signed_id),
            "signed again by the new store"
        );
        assert!(b.notes().get(titled.id).unwrap().title_generated);
        assert!(b.notes().get(gone.id).is_err());
        assert_eq!(b.notes().category_counts().unwrap()[0].note_count, 1);

        // A newer line replaces the note; an image dropped goes.
        clock.advance_secs(60);
        a.notes()
            .change(
                plans.id,
                NoteInput {
                    body_html: body("<p>Only words now #outside</p>"),
                    ..Default::default()
                },
            )
            .unwrap();
        let (first, again, did) = round_trip_files(&a, &b, &kinds);
        assert!(first[0].is_empty(), "the image is gone");
        let notes_did: Vec<Imported> = did[1].clone();
        assert_eq!(
            notes_did,
            [Imported::Updated, Imported::Unchanged, Imported::Unchanged]
        );
        assert_eq!(first, again);
        assert_eq!(stored_notes(&a, gone.id), stored_notes(&b, gone.id));
        assert_eq!(note_indexes(&a, gone.id), note_indexes(&b, gone.id));
        assert!(rows(&b, crate::resources::uploads::tables::UPLOADS).is_empty());
    }

    #[test]
    fn a_malformed_line_is_refused() {
        let clock = ManualClock::at("2026-03-02T09:00:00Z");
        let b = org(&clock);
        let err = b
            .inner
            .write(|cx| {
                let paths = Paths::new(&cx.org.secret);
                (PORTABLE.import)(cx, &paths, serde_json::json!({"id": "x", "title": 3}))
            })
            .unwrap_err();
        assert!(matches!(err, Error::Validation(_)), "{err:?}");
    }
}
