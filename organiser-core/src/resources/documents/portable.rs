//! Documents in the organiser's archive (EXTENSIONS.md §5): a document's
//! line is the document as the API shows it (its links to live notes,
//! projects, tasks and people among it), and under `stored` what the API
//! does not show: the upload holding its PDF, as a path (`files/<upload
//! id>`; its thumbnail, when rendered, is that upload's
//! `files/<upload id>.256.webp`), and when each shown link was made. An
//! import writes the document and its links with their IDs and times,
//! with every index a save writes, telling no task (a task's own line
//! says `has_documents`).

use jiff::Timestamp;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::api::{THUMBNAIL_SIDE, render_thumbnail};
use super::links::{self, StoredLink};
use super::tables::DOCUMENTS;
use super::{DocRecord, Document, KIND, load, save};
use crate::engine::{ReadCx, WriteCx};
use crate::error::{Error, Result};
use crate::ids::Id;
use crate::portable::{self, FILES, Imported, Paths, Portable};
use crate::resources::{folders, uploads};

/// The documents' part of the archive.
pub(crate) static PORTABLE: Portable = Portable {
    kind: "document",
    table: DOCUMENTS,
    export,
    import,
};

/// What a document's line holds beyond its API view.
#[derive(Debug, Serialize, Deserialize)]
struct Stored {
    /// The upload of its PDF, as a path (`files/<upload id>`).
    upload: String,
    /// When each link the line shows was made, in the same order.
    links: Vec<LinkMade>,
}

/// When a link was made.
#[derive(Debug, Serialize, Deserialize)]
struct LinkMade {
    /// The link.
    id: Id,
    /// When it was made.
    #[serde(with = "crate::time::serde_timestamp")]
    created_at: Timestamp,
}

/// The line of live document `id`.
fn export(cx: &ReadCx<'_>, paths: &Paths<'_>, id: Id) -> Result<Option<Value>> {
    let Some(record) = load(cx, id)?.filter(|r| r.deleted_at.is_none()) else {
        return Ok(None);
    };
    let mut doc = super::get(cx, id)?;
    for url in [
        &mut doc.file.url,
        &mut doc.file.download_url,
        &mut doc.file.thumbnail_url,
    ] {
        *url = paths.out_all(url);
    }
    let stored = Stored {
        upload: format!("{FILES}{}", record.upload),
        links: links::live_links_of(cx, id)?
            .into_iter()
            .map(|l| LinkMade {
                id: l.id,
                created_at: l.created_at,
            })
            .collect(),
    };
    let mut line = portable::to_line(doc)?;
    if let Value::Object(fields) = &mut line {
        fields.insert("stored".to_owned(), portable::to_line(stored)?);
    }
    Ok(Some(line))
}

/// 422 on `base` for the document `id`'s line.
fn refused(id: Id, problem: &str) -> Error {
    Error::invalid(
        "base",
        format!("records/document.jsonl: the document {id} cannot be read: {problem}"),
    )
}

/// Writes a document's line as the module's docs say.
fn import(cx: &mut WriteCx<'_>, paths: &Paths<'_>, mut line: Value) -> Result<Imported> {
    let stored = line
        .as_object_mut()
        .and_then(|fields| fields.remove("stored"))
        .unwrap_or(Value::Null);
    let mut doc: Document = portable::read_line(KIND.name, line)?;
    let stored: Stored =
        serde_json::from_value(stored).map_err(|e| refused(doc.id, &format!("stored: {e}")))?;
    let before = load(cx, doc.id)?;
    let did = portable::decide(
        paths,
        before
            .as_ref()
            .filter(|r| r.deleted_at.is_none())
            .map(|r| r.updated_at),
        before.as_ref().is_some_and(|r| r.deleted_at.is_some()),
        &mut doc.updated_at,
    );
    if did == Imported::Unchanged {
        return Ok(did);
    }
    let upload = paths
        .upload(&stored.upload)
        .ok_or_else(|| refused(doc.id, "`stored.upload` is not a path files/<upload id>"))?;
    if uploads::get(cx, upload)?.is_none() {
        return Err(refused(
            doc.id,
            &format!("the archive holds no upload {}", stored.upload),
        ));
    }
    let mut wanted = Vec::with_capacity(doc.links.len());
    for brief in &doc.links {
        let (target, target_id) = StoredLink::target_of(brief).ok_or_else(|| {
            refused(
                doc.id,
                &format!("the link {} names no one record", brief.id),
            )
        })?;
        let made = stored
            .links
            .iter()
            .find(|m| m.id == brief.id)
            .ok_or_else(|| refused(doc.id, &format!("the link {} has no time", brief.id)))?;
        wanted.push(StoredLink {
            id: brief.id,
            document_id: doc.id,
            target,
            target_id,
            created_at: made.created_at,
        });
    }
    let folder_id = match doc.folder_id {
        Some(f) if folders::exists(cx, f)? => Some(f),
        _ => None,
    };
    let record = DocRecord {
        id: doc.id,
        name: doc.name,
        folder_id,
        upload,
        filename: doc.file.filename,
        byte_size: doc.file.byte_size,
        content_type: doc.file.content_type,
        created_at: doc.created_at,
        updated_at: doc.updated_at,
        deleted_at: None,
    };
    save(cx, before.as_ref(), &record)?;
    // Links the line does not have go, unless their record is hidden here
    // (deleted, still restorable: the line's store did not see it).
    for l in links::links_of(cx, doc.id)? {
        if !wanted.iter().any(|w| w.id == l.id) && links::target_live(cx, l.target, l.target_id)? {
            links::remove_as_is(cx, &l)?;
        }
    }
    for link in &wanted {
        if !links::target_live(cx, link.target, link.target_id)? {
            continue;
        }
        match links::load(cx, link.id)? {
            Some(here) if here == *link => {}
            Some(here) => {
                links::remove_as_is(cx, &here)?;
                links::put_as_is(cx, link)?;
            }
            None => links::put_as_is(cx, link)?,
        }
    }
    let thumbnail =
        uploads::portable::archive_path(&uploads::thumbnail_name(upload, THUMBNAIL_SIDE));
    if before.is_none() && paths.file(&thumbnail).is_none() {
        render_thumbnail(cx, doc.id, upload);
    }
    Ok(did)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::documents::{DocumentInput, DocumentQuery};
    use crate::input::Field;
    use crate::resources::notes::portable::tests::{
        Rows, all, copy_tables, org, round_trip_files, rows,
    };
    use crate::resources::{
        categories, folders as folder_tables, notes, people, projects, tags, task_lists, tasks,
    };
    use crate::uploads::UploadKind;
    use crate::{ManualClock, Organiser};

    /// A small PDF's bytes (an empty page).
    fn pdf_bytes() -> Vec<u8> {
        b"%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\n3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n".to_vec()
    }

    /// A PDF upload's signed ID.
    fn pdf(org: &Organiser, name: &str) -> String {
        org.uploads()
            .create(UploadKind::Document, name, "application/pdf", pdf_bytes())
            .unwrap()
            .signed_id
    }

    /// The rows of every table of the documents but those of `except`.
    fn document_rows(org: &Organiser, except: Id) -> Vec<Rows> {
        super::super::tables::TABLES
            .iter()
            .map(|&t| {
                rows(org, t)
                    .into_iter()
                    .filter(|(k, _)| !k.ends_with(&except.to_bytes()))
                    .collect()
            })
            .collect()
    }

    #[test]
    fn documents_round_trip_exactly_with_their_links_and_files() {
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
        let task = a
            .tasks()
            .create(crate::tasks::TaskInput::titled("File the receipts"))
            .unwrap();
        let note = a
            .notes()
            .create(crate::notes::NoteInput {
                body_html: Field::Value("<p>Receipts</p>".into()),
                ..Default::default()
            })
            .unwrap();
        let receipts = a
            .folders()
            .create(crate::folders::FolderInput {
                name: Some("Receipts".into()),
                ..Default::default()
            })
            .unwrap();
        clock.advance_secs(60);
        let deed = a
            .documents()
            .create(DocumentInput {
                upload: Some(pdf(&a, "deed.pdf")),
                name: Field::Value("House deed".into()),
                folder_id: Field::Value(receipts.id),
                note_ids: Some(vec![note.id]),
                project_ids: Some(vec![garden.id]),
                task_ids: Some(vec![task.id]),
                ..Default::default()
            })
            .unwrap();
        clock.advance_secs(60);
        a.documents()
            .link(crate::documents::DocumentLinkInput {
                document_id: Field::Value(deed.id),
                person_id: Field::Value(ada.id),
                ..Default::default()
            })
            .unwrap();
        clock.advance_secs(60);
        let scan = a
            .documents()
            .create(DocumentInput {
                upload: Some(pdf(&a, "Scan 2026.pdf")),
                ..Default::default()
            })
            .unwrap();
        let gone = a
            .documents()
            .create(DocumentInput {
                upload: Some(pdf(&a, "gone.pdf")),
                ..Default::default()
            })
            .unwrap();
        a.documents().delete(gone.id).unwrap();
        clock.advance_secs(60);
        assert!(a.tasks().get(task.id).unwrap().has_documents);

        let b = org(&clock);
        copy_tables(
            &a,
            &b,
            &[
                people::tables::TABLES,
                projects::tables::TABLES,
                task_lists::tables::TABLES,
                tasks::tables::TABLES,
                notes::tables::TABLES,
                tags::tables::TABLES,
                categories::tables::TABLES,
                folder_tables::tables::TABLES,
            ]
            .concat(),
        );
        let kinds = [&uploads::portable::PORTABLE, &PORTABLE];
        let (first, again, did) = round_trip_files(&a, &b, &kinds);
        assert_eq!(first[1].len(), 2, "the live documents");
        assert!(all(&did, Imported::Created), "{did:?}");
        assert_eq!(first, again);
        assert_eq!(
            serde_json::to_string(&first).unwrap(),
            serde_json::to_string(&again).unwrap()
        );
        let line = &first[1][0];
        assert_eq!(line["id"], deed.id.to_string());
        let upload = a
            .inner
            .read(|cx| Ok(load(cx, deed.id)?.unwrap().upload))
            .unwrap();
        assert_eq!(line["stored"]["upload"], format!("files/{upload}"));
        assert_eq!(line["stored"]["links"].as_array().unwrap().len(), 4);

        // The same archive again changes nothing.
        let (_, again2, did) = round_trip_files(&a, &b, &kinds);
        assert!(all(&did, Imported::Unchanged), "{did:?}");
        assert_eq!(first, again2);

        // Stored as in the first store, links and indexes all.
        assert_eq!(document_rows(&a, gone.id), document_rows(&b, gone.id));
        assert_eq!(
            rows(&a, tasks::tables::TASKS),
            rows(&b, tasks::tables::TASKS),
            "no task told"
        );

        // The typed API of the new store.
        let listed: Vec<Id> = b
            .documents()
            .list(&DocumentQuery::default())
            .unwrap()
            .items
            .iter()
            .map(|d| d.id)
            .collect();
        assert_eq!(listed, [deed.id, scan.id]);
        let in_folder = b
            .documents()
            .list(&DocumentQuery {
                folder_id: Some(Some(receipts.id)),
                ..Default::default()
            })
            .unwrap();
        assert_eq!(in_folder.items.len(), 1);
        let found = b
            .documents()
            .list(&DocumentQuery {
                q: Some("deed".into()),
                ..Default::default()
            })
            .unwrap();
        assert_eq!(found.items[0].id, deed.id);
        assert_eq!(b.documents().folder_counts().unwrap().len(), 2);
        let shown = b.documents().get(deed.id).unwrap();
        assert_eq!(shown.person_ids, [ada.id]);
        assert_eq!(b.documents().file(deed.id).unwrap().bytes, pdf_bytes());
        let links = b
            .documents()
            .links(&crate::documents::DocumentLinkQuery {
                document_id: Some(deed.id),
                ..Default::default()
            })
            .unwrap();
        assert_eq!(links.items.len(), 4);
        assert!(b.documents().get(gone.id).is_err());

        // A newer line replaces the document and its links.
        clock.advance_secs(60);
        a.documents()
            .change(
                deed.id,
                DocumentInput {
                    name: Field::Value("Deed".into()),
                    folder_id: Field::Null,
                    note_ids: Some(Vec::new()),
                    ..Default::default()
                },
            )
            .unwrap();
        let (first, again, did) = round_trip_files(&a, &b, &kinds);
        assert_eq!(did[1], [Imported::Updated, Imported::Unchanged]);
        assert_eq!(first, again);
        assert_eq!(document_rows(&a, gone.id), document_rows(&b, gone.id));
    }

    /// Every kind a document and a note name, through their own imports
    /// in the registry's order: the whole chain round trips exactly.
    #[test]
    fn the_chain_of_kinds_round_trips_exactly() {
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
        let task = a
            .tasks()
            .create(crate::tasks::TaskInput::titled("File the receipts"))
            .unwrap();
        clock.advance_secs(60);
        let image = a
            .uploads()
            .create(
                UploadKind::NoteImage,
                "plot.png",
                "image/png",
                crate::resources::notes::portable::tests::png(),
            )
            .unwrap();
        let note = a
            .notes()
            .create(crate::notes::NoteInput {
                body_html: Field::Value(format!(
                    "<p><span data-mention=\"{}\">@Ada</span> and <span data-project=\"{}\">^Garden</span> #receipts</p><p><img data-upload=\"{}\"></p>",
                    ada.id, garden.id, image.signed_id
                )),
                ..Default::default()
            })
            .unwrap();
        let receipts = a
            .folders()
            .create(crate::folders::FolderInput {
                name: Some("Receipts".into()),
                ..Default::default()
            })
            .unwrap();
        clock.advance_secs(60);
        a.documents()
            .create(DocumentInput {
                upload: Some(pdf(&a, "deed.pdf")),
                folder_id: Field::Value(receipts.id),
                note_ids: Some(vec![note.id]),
                project_ids: Some(vec![garden.id]),
                task_ids: Some(vec![task.id]),
                person_ids: Some(vec![ada.id]),
                ..Default::default()
            })
            .unwrap();
        clock.advance_secs(60);

        let b = org(&clock);
        let kinds = [
            &uploads::portable::PORTABLE,
            &task_lists::portable::PORTABLE,
            &people::portable::PORTABLE,
            &crate::resources::person_links::portable::PORTABLE,
            &projects::portable::PORTABLE,
            &projects::portable::MEMBERS_PORTABLE,
            &projects::portable::EVENTS_PORTABLE,
            &tasks::portable::PORTABLE,
            &tags::portable::PORTABLE,
            &categories::portable::PORTABLE,
            &notes::portable::PORTABLE,
            &folder_tables::portable::PORTABLE,
            &PORTABLE,
        ];
        let (first, again, did) = round_trip_files(&a, &b, &kinds);
        for ((p, first), again) in kinds.iter().zip(&first).zip(&again) {
            assert_eq!(first, again, "{}", p.kind);
        }
        assert!(all(&did, Imported::Created), "{did:?}");
        let (_, again2, did) = round_trip_files(&a, &b, &kinds);
        assert!(all(&did, Imported::Unchanged), "{did:?}");
        assert_eq!(first, again2);
        let shown = b.notes().get(note.id).unwrap();
        assert_eq!((shown.person_ids.len(), shown.project_ids.len()), (1, 1));
        assert_eq!(
            b.documents()
                .get(task_document(&b, task.id))
                .unwrap()
                .links
                .len(),
            4
        );
    }

    /// The document linked to `task` in `org`.
    fn task_document(org: &Organiser, task: Id) -> Id {
        org.documents()
            .links(&crate::documents::DocumentLinkQuery {
                target: Some(("task_id".into(), task)),
                ..Default::default()
            })
            .unwrap()
            .items[0]
            .document_id
    }
}
