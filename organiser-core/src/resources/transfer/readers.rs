//! The foreign readers, by format: which one reads a file, and whether
//! its bytes look like the format.

use super::Format;
use super::draft::Parsed;
use super::from::{self, Refused};

/// Whether `bytes` (from a file named `name`) look like `format`.
pub(super) fn looks_like(format: Format, bytes: &[u8], name: &str) -> bool {
    match format {
        Format::Organiser => super::zipped::is_zip(bytes) && super::api::is_archive(bytes),
        Format::Todoist => from::todoist::looks_like(bytes),
        Format::Taskwarrior => from::taskwarrior::looks_like(bytes),
        Format::Vcard => from::vcard::looks_like(bytes),
        Format::Ical => from::ical::looks_like(bytes),
        Format::Markdown => from::markdown::looks_like(bytes, name),
    }
}

/// Reads `bytes` (from a file named `name`) as `format`: the drafts, or
/// why the file is not the format.
pub(super) fn read(
    format: Format,
    bytes: &[u8],
    name: &str,
    zone: &jiff::tz::TimeZone,
) -> Result<Parsed, Refused> {
    // A Todoist CSV's project is its file's name, without `.csv`.
    let file = name.rsplit(['/', '\\']).next().unwrap_or(name);
    let project = file
        .strip_suffix(".csv")
        .or_else(|| file.strip_suffix(".CSV"))
        .unwrap_or(file);
    // A CSV taken out of Todoist's backup zip is named `<Project> [<id>].csv`.
    let project = match project.rsplit_once(" [") {
        Some((name, id))
            if id
                .strip_suffix(']')
                .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit())) =>
        {
            name
        }
        _ => project,
    };
    match format {
        Format::Todoist => from::todoist::read(
            bytes,
            if project.is_empty() {
                "Todoist"
            } else {
                project
            },
        ),
        Format::Taskwarrior => from::taskwarrior::read(bytes, zone),
        Format::Vcard => from::vcard::read(bytes),
        Format::Ical => from::ical::read(bytes, zone),
        Format::Markdown => {
            from::markdown::read(bytes, if name.is_empty() { "note.md" } else { name })
        }
        Format::Organiser => Err(Refused::new(
            "the organiser's archive is read by transfer::native",
        )),
    }
}
