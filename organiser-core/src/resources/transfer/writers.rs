//! What `GET /export` writes, by format: the organiser's archive, or the
//! people, tasks and key dates, or notes read for the foreign writers of
//! `to/`.

use std::collections::HashSet;

use super::ExportFormat;
use super::to::ical::KeyDateEvent;
use super::to::markdown::{NoteFile, NoteImage};
use super::to::vcard::PersonCard;
use crate::engine::ReadCx;
use crate::engine::request::FileBytes;
use crate::error::{Error, Result};
use crate::ids::Id;
use crate::resources::{Note, Person, Task, notes, people, tags, tasks, uploads};
use crate::store::Tbl;

/// The store `cx` reads, exported as `format`: the file.
pub(super) fn export(cx: &ReadCx<'_>, format: ExportFormat) -> Result<FileBytes> {
    let (content_type, bytes) = match format {
        ExportFormat::Organiser => ("application/zip", super::native::export(cx)?),
        ExportFormat::Vcard => ("text/vcard; charset=utf-8", vcard(cx)?.into_bytes()),
        ExportFormat::Ical => ("text/calendar; charset=utf-8", ical(cx)?.into_bytes()),
        ExportFormat::Markdown => ("application/zip", markdown(cx)?),
    };
    Ok(FileBytes {
        content_type: content_type.to_owned(),
        filename: format.file_name(cx.today()),
        bytes,
    })
}

/// The live records of a kind stored by ID in `table`, in ID order, as
/// `get` shows them.
pub(super) fn live<R>(
    cx: &ReadCx<'_>,
    table: Tbl,
    get: fn(&ReadCx<'_>, Id) -> Result<R>,
) -> Result<Vec<R>> {
    let ids = crate::portable::ids(cx, table)?;
    let mut out = Vec::with_capacity(ids.len());
    for id in ids {
        match get(cx, id) {
            Ok(r) => out.push(r),
            Err(Error::NotFound) => {}
            Err(e) => return Err(e),
        }
    }
    Ok(out)
}

/// The upload `id`'s file and type, when it is still there.
fn upload_file(cx: &ReadCx<'_>, id: Id) -> Result<Option<(uploads::Stored, Vec<u8>)>> {
    let Some(stored) = uploads::get(cx, id)? else {
        return Ok(None);
    };
    match cx.org.files.read(&uploads::file_name(id)) {
        Ok(bytes) => Ok(Some((stored, bytes))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(Error::Internal(format!("reading an upload: {e}"))),
    }
}

fn vcard(cx: &ReadCx<'_>) -> Result<String> {
    let everyone: Vec<Person> = live(cx, people::tables::PEOPLE, people::get)?;
    let mut cards = Vec::with_capacity(everyone.len());
    for person in &everyone {
        let mut companies = Vec::new();
        for p in &person.positions {
            let name = match p.company_id {
                Some(id) => people::companies::get(cx, id)?.map(|c| c.name),
                None => None,
            };
            companies.push(name);
        }
        let photo = match person
            .avatar
            .as_ref()
            .and_then(|a| people::upload_of(&cx.org.secret, a))
        {
            Some(id) => upload_file(cx, id)?,
            None => None,
        };
        cards.push((person, companies, photo));
    }
    let cards: Vec<PersonCard<'_>> = cards
        .iter()
        .map(|(person, companies, photo)| PersonCard {
            person,
            companies: companies.clone(),
            photo: photo
                .as_ref()
                .map(|(stored, bytes)| (stored.content_type.as_str(), bytes.clone())),
        })
        .collect();
    Ok(super::to::vcard::write(&cards))
}

fn ical(cx: &ReadCx<'_>) -> Result<String> {
    let all: Vec<Task> = live(cx, tasks::tables::TASKS, tasks::get)?;
    let everyone: Vec<Person> = live(cx, people::tables::PEOPLE, people::get)?;
    let key_dates: Vec<KeyDateEvent> = everyone
        .iter()
        .flat_map(|p| {
            p.key_dates.iter().map(|k| KeyDateEvent {
                person_id: p.id,
                person_name: p.name.clone(),
                key_date: k.clone(),
            })
        })
        .collect();
    Ok(super::to::ical::write(&all, &key_dates, cx.now()))
}

fn markdown(cx: &ReadCx<'_>) -> Result<Vec<u8>> {
    let all: Vec<Note> = live(cx, notes::tables::NOTES, notes::get)?;
    let mut taken = HashSet::new();
    let mut files = Vec::with_capacity(all.len());
    for note in all {
        let mut tag_names = Vec::new();
        for &id in &note.tag_ids {
            match tags::get(cx, id) {
                Ok(t) => tag_names.push(t.name),
                Err(Error::NotFound) => {}
                Err(e) => return Err(e),
            }
        }
        let mut images = Vec::new();
        for signed in uploads_named(&note.body_html) {
            let Some(id) = uploads::verify(&cx.org.secret, &signed) else {
                continue;
            };
            if let Some((stored, bytes)) = upload_file(cx, id)? {
                images.push(NoteImage {
                    upload: signed,
                    file_name: stored.filename,
                    bytes,
                });
            }
        }
        let path = super::to::markdown::file_name(&note.name, &mut taken);
        files.push(NoteFile {
            path,
            note,
            tags: tag_names,
            images,
        });
    }
    super::to::markdown::write(&files).map_err(|e| Error::Internal(format!("writing notes: {e}")))
}

/// The signed upload IDs a body's images name (`data-upload="…"`), in
/// order, once each.
fn uploads_named(html: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for part in html.split("data-upload=\"").skip(1) {
        if let Some(signed) = part.split('"').next()
            && !out.iter().any(|s| s == signed)
        {
            out.push(signed.to_owned());
        }
    }
    out
}
