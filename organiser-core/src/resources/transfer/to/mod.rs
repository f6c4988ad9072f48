//! The foreign exports (EXTENSIONS.md §5, "Foreign exports"): people as
//! one vCard 4.0 file, tasks and key dates as one iCalendar file, notes as
//! a zip of Markdown files with front matter and their images, each
//! written for the tools that read those formats (khard, khal, Joplin,
//! Obsidian). Each writer takes records as the API shows them and writes
//! bytes; reading the records is the caller's.

pub(crate) mod ical;
pub(crate) mod markdown;
pub(crate) mod vcard;
