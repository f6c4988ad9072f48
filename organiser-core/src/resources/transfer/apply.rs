//! What a foreign file's drafts become (EXTENSIONS.md §5, "Import"),
//! decided in one place for every format: tasks in the task lists they
//! name (made when missing), people with their rows and photos, notes with
//! their tags, images and PDFs; each through the resource's own create or
//! change, so every rule of the records holds, inside the import's one
//! transaction. The import map keeps each item's identity in its source
//! and a digest of each of its fields: the same item again changes
//! nothing, a changed one changes only the fields its source changed (what
//! the owner changed here in the others stays), and a record deleted here
//! since is not brought back.
//!
//! An item its resource refuses (a title too long, a rule the repeat
//! rules refuse) is skipped with the resource's reason; the rest of the
//! file is written.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd, html};
use sha2::{Digest, Sha256};

use super::draft::{DraftNote, DraftPerson, DraftTask, Parsed};
use super::tables::{IMPORTED, Mapped};
use super::{Format, ImportReport};
use crate::engine::{Inner, WriteCx};
use crate::error::{Error, Result};
use crate::ids::Id;
use crate::input::Field;
use crate::resources::people::{
    EmailAddressFields, KeyDateFields, PersonInput, PhoneNumberFields, PositionFields, RowInput,
    SocialProfileFields,
};
use crate::resources::{
    DocumentInput, NoteInput, TaskInput, TaskListInput, TaskStatus, documents, notes, people,
    task_lists, tasks, uploads,
};
use crate::store::Tables;

/// An upload made ready before the transaction, or why it was refused.
type Staged = std::result::Result<uploads::Prepared, String>;

/// A foreign file read whole, its photos and images checked and staged,
/// before the transaction opens.
pub(crate) struct Prepared {
    pub(crate) format: Format,
    pub(crate) parsed: Parsed,
    /// Each person's photo, by the person's place in `parsed.people`.
    photos: HashMap<usize, Staged>,
    /// Each note's files, by the note's place in `parsed.notes`: the link
    /// as written, and the staged upload or why it was refused.
    files: HashMap<usize, Vec<(String, Staged)>>,
}

/// Checks and stages every photo and image of `parsed` (the slow work: a
/// full decode, thumbnails, the disk), outside the transaction.
pub(crate) fn prepare(inner: &Inner, format: Format, parsed: Parsed) -> Prepared {
    let why = |e: Error| e.to_string();
    let mut photos = HashMap::new();
    for (i, p) in parsed.people.iter().enumerate() {
        if let Some(bytes) = &p.photo {
            let staged = uploads::prepare_bytes(inner, bytes, uploads::UploadKind::Avatar, "photo")
                .map_err(why);
            photos.insert(i, staged);
        }
    }
    let mut files = HashMap::new();
    for (i, n) in parsed.notes.iter().enumerate() {
        let staged: Vec<_> = n
            .files
            .iter()
            .map(|(link, bytes)| {
                let kind = if bytes.starts_with(b"%PDF") {
                    uploads::UploadKind::Document
                } else {
                    uploads::UploadKind::NoteImage
                };
                let name = link.rsplit('/').next().unwrap_or(link);
                let staged = uploads::prepare_bytes(inner, bytes, kind, name).map_err(why);
                (link.clone(), staged)
            })
            .collect();
        files.insert(i, staged);
    }
    Prepared {
        format,
        parsed,
        photos,
        files,
    }
}

/// Writes `prepared` in the caller's transaction: the report.
pub(crate) fn apply(cx: &mut WriteCx<'_>, prepared: Prepared) -> Result<ImportReport> {
    let Prepared {
        format,
        parsed,
        mut photos,
        mut files,
    } = prepared;
    let mut report = ImportReport {
        from: format.name().to_owned(),
        ..ImportReport::default()
    };
    for s in parsed.skipped {
        report.skip(s.at, s.reason);
    }
    let mut lists = Lists::default();
    for draft in &parsed.tasks {
        let at = draft.at.clone();
        let mapped = |cx: &mut WriteCx<'_>, report: &mut ImportReport, old: Option<Changed>| {
            task(cx, report, &mut lists, draft, old)
        };
        let fields = vec![
            digest(&draft.title),
            digest(&draft.description),
            digest(&draft.list),
            digest(&draft.start_on),
            digest(&draft.deadline_on),
            digest(&draft.expires_on),
            digest(&draft.repeat),
            digest(&draft.status),
        ];
        item(
            cx,
            &mut report,
            format,
            &draft.source,
            &at,
            "task",
            fields,
            mapped,
        )?;
    }
    let this_year = cx.today().year();
    for (i, draft) in parsed.people.iter().enumerate() {
        for k in &draft.key_dates {
            if let Some(y) = k.year.filter(|y| !(1900..=this_year).contains(y)) {
                report.skip(
                    &draft.at,
                    format!(
                        "the year {y} was left out of the {}: key dates' years are 1900 to this year",
                        k.kind.replace('_', " ")
                    ),
                );
            }
        }
        let photo = photos.remove(&i);
        let mut photo = Some(photo);
        let mapped = |cx: &mut WriteCx<'_>, report: &mut ImportReport, old: Option<Changed>| {
            person(cx, report, draft, photo.take().flatten(), old)
        };
        let fields = vec![
            digest(&draft.name),
            digest(&draft.emails),
            digest(&draft.phones),
            digest(&draft.key_dates),
            digest(&draft.positions),
            digest(&draft.urls),
            digest(&draft.photo),
        ];
        let (source, at) = (&draft.source, &draft.at);
        item(
            cx,
            &mut report,
            format,
            source,
            at,
            "person",
            fields,
            mapped,
        )?;
    }
    for (i, draft) in parsed.notes.iter().enumerate() {
        let mut staged = Some(files.remove(&i).unwrap_or_default());
        let mapped = |cx: &mut WriteCx<'_>, report: &mut ImportReport, old: Option<Changed>| {
            note(cx, report, draft, staged.take().unwrap_or_default(), old)
        };
        let fields = vec![
            digest(&draft.title),
            digest(&(&draft.markdown, &draft.tags, &draft.files)),
            digest(&(&draft.created_at, &draft.edited_at)),
        ];
        let (source, at) = (&draft.source, &draft.at);
        item(cx, &mut report, format, source, at, "note", fields, mapped)?;
    }
    Ok(report)
}

/// What one item did.
enum Done {
    Made(Id),
    Changed(Id),
}

/// An item imported before whose source changed since: its record, and
/// which of its fields (in the kind's order) the source changed.
struct Changed {
    id: Id,
    fields: Vec<bool>,
}

impl Changed {
    /// Whether the source changed field `i`.
    fn field(&self, i: usize) -> bool {
        self.fields.get(i).copied().unwrap_or(true)
    }
}

/// `value` when this is a new record or the source changed field `i`
/// since the last import; else absent (what the owner made of it stays).
fn changed<T>(old: Option<&Changed>, i: usize, value: Field<T>) -> Field<T> {
    match old {
        Some(c) if !c.field(i) => Field::Absent,
        _ => value,
    }
}

/// Imports one item through the map: made when new, changed when its
/// source changed, left alone when not, and not brought back when deleted
/// here since. A refusal by its resource skips it.
#[allow(clippy::too_many_arguments)]
fn item(
    cx: &mut WriteCx<'_>,
    report: &mut ImportReport,
    format: Format,
    source: &str,
    at: &str,
    kind: &str,
    fields: Vec<[u8; 8]>,
    mut write: impl FnMut(&mut WriteCx<'_>, &mut ImportReport, Option<Changed>) -> Result<Done>,
) -> Result<()> {
    let mut key = vec![format.tag()];
    key.extend_from_slice(source.as_bytes());
    let old: Option<Mapped> = cx.tx.get_record(IMPORTED, &key)?;
    let old_id = match &old {
        Some(m) if !live(cx, &m.kind, Id::from_bytes(m.id))? => {
            report.skip(
                at,
                format!(
                    "its {} was deleted here since the last import",
                    m.kind.replace('_', " ")
                ),
            );
            return Ok(());
        }
        Some(m) if m.fields == fields => return Ok(()),
        Some(m) => Some(Changed {
            id: Id::from_bytes(m.id),
            fields: fields
                .iter()
                .enumerate()
                .map(|(i, f)| m.fields.get(i) != Some(f))
                .collect(),
        }),
        None => None,
    };
    match write(cx, report, old_id) {
        Ok(done) => {
            let id = match done {
                Done::Made(id) => {
                    report.created(kind);
                    id
                }
                Done::Changed(id) => {
                    report.updated(kind);
                    id
                }
            };
            let mapped = Mapped {
                kind: kind.to_owned(),
                id: id.to_bytes(),
                fields,
            };
            cx.tx.put_record(IMPORTED, &key, &mapped)
        }
        Err(Error::Validation(d) | Error::InvalidParameter(d)) => {
            report.skip(at, format!("refused: {}", d.sentence()));
            Ok(())
        }
        Err(e) => Err(e),
    }
}

/// Whether the record an item became is still here (not deleted).
fn live(cx: &WriteCx<'_>, kind: &str, id: Id) -> Result<bool> {
    let found = match kind {
        "task" => tasks::get(cx, id).map(|_| ()),
        "person" => people::get(cx, id).map(|_| ()),
        "note" => notes::get(cx, id).map(|_| ()),
        _ => return Ok(false),
    };
    match found {
        Ok(()) => Ok(true),
        Err(Error::NotFound) => Ok(false),
        Err(e) => Err(e),
    }
}

/// The first 8 bytes of the SHA-256 of what `item` says.
fn digest(item: &impl Hash) -> [u8; 8] {
    struct Sha(Sha256);
    impl Hasher for Sha {
        fn finish(&self) -> u64 {
            0
        }
        fn write(&mut self, bytes: &[u8]) {
            self.0.update(bytes);
        }
    }
    let mut h = Sha(Sha256::new());
    item.hash(&mut h);
    let full = h.0.finalize();
    let mut out = [0; 8];
    out.copy_from_slice(&full[..8]);
    out
}

/// The task lists named so far, by name.
#[derive(Default)]
struct Lists(HashMap<String, Id>);

impl Lists {
    /// The live list named `name`, made (and counted) when there is none.
    fn named(&mut self, cx: &mut WriteCx<'_>, report: &mut ImportReport, name: &str) -> Result<Id> {
        if let Some(&id) = self.0.get(name) {
            return Ok(id);
        }
        let id = match task_lists::named_live(cx, name)? {
            Some(id) => id,
            None => {
                let input = TaskListInput {
                    name: Some(name.to_owned()),
                    ..TaskListInput::default()
                };
                let list = task_lists::create(cx, &input)?;
                report.created("task_list");
                list.id
            }
        };
        self.0.insert(name.to_owned(), id);
        Ok(id)
    }
}

/// Paragraphs of plain text as description HTML.
fn paragraphs(texts: &[String]) -> Option<String> {
    let html: String = texts
        .iter()
        .filter(|t| !t.trim().is_empty())
        .map(|t| {
            let lines: Vec<String> = t.lines().map(crate::html::tokens::escape).collect();
            format!("<p>{}</p>", lines.join("<br>"))
        })
        .collect();
    (!html.is_empty()).then_some(html)
}

fn field<T>(value: Option<T>) -> Field<T> {
    match value {
        Some(v) => Field::Value(v),
        None => Field::Null,
    }
}

fn task(
    cx: &mut WriteCx<'_>,
    report: &mut ImportReport,
    lists: &mut Lists,
    draft: &DraftTask,
    old: Option<Changed>,
) -> Result<Done> {
    let old = old.as_ref();
    let list = match &draft.list {
        Some(name) if old.is_none_or(|c| c.field(2)) => Some(lists.named(cx, report, name)?),
        _ => None,
    };
    // A repeat needs a date to repeat from: a phrase with no date starts
    // today; a closed task keeps its repeat only in words.
    let open = draft.status == TaskStatus::Open;
    let repeat = draft.repeat.clone().filter(|_| open);
    let mut deadline = draft.deadline_on;
    if repeat.is_some() && deadline.is_none() && draft.start_on.is_none() {
        deadline = Some(cx.today());
    }
    let mut description = draft.description.clone();
    if let (Some(r), false) = (&draft.repeat, open) {
        description.push(format!("Repeated: {}", r.to_words()));
    }
    let input = TaskInput {
        title: old.is_none_or(|c| c.field(0)).then(|| draft.title.clone()),
        description_html: changed(old, 1, field(paragraphs(&description))),
        task_list_id: changed(old, 2, field(list)),
        start_on: changed(old, 3, field(draft.start_on)),
        deadline_on: changed(old, 4, field(deadline)),
        expires_on: changed(old, 5, field(draft.expires_on)),
        repeat: changed(old, 6, field(repeat)),
        status: old.is_none_or(|c| c.field(7)).then_some(draft.status),
        ..TaskInput::default()
    };
    Ok(match old {
        Some(c) => Done::Changed(tasks::change_task(cx, c.id, &input)?.id),
        None => Done::Made(tasks::create_task(cx, &input)?.id),
    })
}

fn person(
    cx: &mut WriteCx<'_>,
    report: &mut ImportReport,
    draft: &DraftPerson,
    photo: Option<Staged>,
    old: Option<Changed>,
) -> Result<Done> {
    let old = old.as_ref();
    let wanted = |i: usize| old.is_none_or(|c| c.field(i));
    let avatar = match photo.filter(|_| wanted(6)) {
        _ if !wanted(6) => Field::Absent,
        Some(Ok(staged)) => Field::Value(uploads::create(cx, staged)?.signed_id),
        Some(Err(why)) => {
            report.skip(&draft.at, format!("the photo was not kept: {why}"));
            Field::Null
        }
        None => Field::Null,
    };
    let before = match old {
        Some(c) => Some(people::get(cx, c.id)?),
        None => None,
    };
    // A card whose rows of a kind changed replaces the person's rows of
    // that kind; the others are left as they are here.
    fn rows<F: Default>(
        wanted: bool,
        old: impl Iterator<Item = Id>,
        new: Vec<F>,
    ) -> Option<Vec<RowInput<F>>> {
        if !wanted {
            return None;
        }
        let mut rows: Vec<RowInput<F>> = old
            .map(|id| RowInput {
                id: Some(id),
                destroy: true,
                fields: F::default(),
            })
            .collect();
        rows.extend(new.into_iter().map(RowInput::add));
        Some(rows)
    }
    let b = before.as_ref();
    // The organiser keeps key dates' years from 1900 to this year: a
    // card's 1815 is kept as a date without its year (`apply` says so).
    let this_year = cx.today().year();
    let key_dates: Vec<_> = draft
        .key_dates
        .iter()
        .map(|k| {
            let mut k = k.clone();
            k.year = k.year.filter(|y| (1900..=this_year).contains(y));
            k
        })
        .collect();
    let input = PersonInput {
        name: wanted(0).then(|| draft.name.clone()),
        avatar,
        key_dates: rows(
            wanted(3),
            b.iter().flat_map(|p| p.key_dates.iter().map(|r| r.id)),
            key_dates
                .iter()
                .map(|k| KeyDateFields {
                    kind: Field::Value(k.kind.to_owned()),
                    label: field(k.label.clone()),
                    day: Field::Value(i64::from(k.day)),
                    month: Field::Value(i64::from(k.month)),
                    year: field(k.year.map(i64::from)),
                })
                .collect(),
        ),
        email_addresses: rows(
            wanted(1),
            b.iter()
                .flat_map(|p| p.email_addresses.iter().map(|r| r.id)),
            draft
                .emails
                .iter()
                .map(|e| EmailAddressFields {
                    address: Field::Value(e.value.clone()),
                    label: field(e.label.clone()),
                })
                .collect(),
        ),
        phone_numbers: rows(
            wanted(2),
            b.iter().flat_map(|p| p.phone_numbers.iter().map(|r| r.id)),
            draft
                .phones
                .iter()
                .map(|e| PhoneNumberFields {
                    number: Field::Value(e.value.clone()),
                    label: field(e.label.clone()),
                })
                .collect(),
        ),
        social_profiles: rows(
            wanted(5),
            b.iter()
                .flat_map(|p| p.social_profiles.iter().map(|r| r.id)),
            draft
                .urls
                .iter()
                .map(|u| SocialProfileFields {
                    url: Field::Value(u.clone()),
                    ..SocialProfileFields::default()
                })
                .collect(),
        ),
        positions: rows(
            wanted(4),
            b.iter().flat_map(|p| p.positions.iter().map(|r| r.id)),
            draft
                .positions
                .iter()
                .map(|p| PositionFields {
                    title: field(p.title.clone()),
                    company_name: field(p.company.clone()),
                    ..PositionFields::default()
                })
                .collect(),
        ),
        ..PersonInput::default()
    };
    let body = input.into();
    Ok(match old {
        Some(c) => Done::Changed(people::change_person(cx, c.id, &body)?.id),
        None => Done::Made(people::create_person(cx, &body)?.id),
    })
}

fn note(
    cx: &mut WriteCx<'_>,
    report: &mut ImportReport,
    draft: &DraftNote,
    staged: Vec<(String, Staged)>,
    old: Option<Changed>,
) -> Result<Done> {
    let old = old.as_ref();
    // The body (with its tags, images and PDFs) is written only when new
    // or changed in the source: an owner's edit here stays otherwise.
    let body_wanted = old.is_none_or(|c| c.field(1));
    let staged = if body_wanted { staged } else { Vec::new() };
    let mut images = HashMap::new();
    let mut pdfs = Vec::new();
    for (link, staged) in staged {
        match staged {
            Ok(s) => {
                let upload = uploads::create(cx, s)?;
                if upload.kind == "document" {
                    pdfs.push(upload.signed_id);
                } else {
                    images.insert(link, upload.signed_id);
                }
            }
            Err(why) => report.skip(&draft.at, format!("`{link}` was not kept: {why}")),
        }
    }
    let mut body = markdown_html(&draft.markdown, &images);
    let tags: Vec<String> = draft
        .tags
        .iter()
        .filter_map(|t| crate::resources::tags::normalise(t).ok())
        // A tag the body already writes (`#idea`, as Obsidian and our own
        // export do) is not added twice.
        .filter(|t| !mentions_tag(&draft.markdown, t))
        .map(|t| format!("#{}", crate::html::tokens::escape(&t)))
        .collect();
    if !tags.is_empty() {
        body.push_str(&format!("<p>{}</p>", tags.join(" ")));
    }
    let input = NoteInput {
        title: changed(old, 0, field(draft.title.clone())),
        body_html: if body_wanted {
            Field::Value(body)
        } else {
            Field::Absent
        },
        ..NoteInput::default()
    };
    let id = match old {
        Some(c) => {
            notes::change_note(cx, c.id, &input)?;
            c.id
        }
        None => {
            let made = notes::create_note(cx, &input)?;
            let now = cx.now();
            notes::backdate(
                cx,
                made.id,
                draft.created_at.unwrap_or(now),
                draft.edited_at.or(draft.created_at).unwrap_or(now),
            )?;
            made.id
        }
    };
    for signed in pdfs {
        let input = DocumentInput {
            upload: Some(signed),
            note_ids: Some(vec![id]),
            ..DocumentInput::default()
        };
        documents::create(cx, &input)?;
        report.created("document");
    }
    Ok(if old.is_some() {
        Done::Changed(id)
    } else {
        Done::Made(id)
    })
}

/// Whether `markdown` writes `#tag` as a word (any case).
fn mentions_tag(markdown: &str, tag: &str) -> bool {
    let wanted = format!("#{}", tag.to_lowercase());
    markdown.split_whitespace().any(|word| {
        let word = word.trim_end_matches(['.', ',', '!', '?', ';', ':', ')']);
        word.to_lowercase() == wanted
    })
}

/// Markdown as note-body HTML: CommonMark with tables and strikethrough;
/// an image whose link names one of the note's files shows that upload,
/// any other image is left out (the sanitiser would drop it).
fn markdown_html(markdown: &str, images: &HashMap<String, String>) -> String {
    let mut options = Options::empty();
    options.insert(Options::ENABLE_TABLES);
    options.insert(Options::ENABLE_STRIKETHROUGH);
    options.insert(Options::ENABLE_TASKLISTS);
    let mut in_image = 0;
    let events = Parser::new_ext(markdown, options).filter_map(|event| match event {
        Event::Start(Tag::Image { dest_url, .. }) => {
            in_image += 1;
            let html = images
                .get(dest_url.as_ref())
                .map(|signed| {
                    format!(
                        "<img data-upload=\"{}\">",
                        crate::html::tokens::escape(signed)
                    )
                })
                .unwrap_or_default();
            Some(Event::InlineHtml(html.into()))
        }
        Event::End(TagEnd::Image) => {
            in_image -= 1;
            None
        }
        _ if in_image > 0 => None,
        other => Some(other),
    });
    let mut out = String::new();
    html::push_html(&mut out, events);
    out
}
