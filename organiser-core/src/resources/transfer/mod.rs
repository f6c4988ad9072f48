//! Export and import (EXTENSIONS.md §5): the organiser's own archive (a
//! zip of every live record as the API shows it, with its stored-only
//! fields, the deletion records, the owner's profile and the files), the
//! foreign exports (vCard, iCalendar, Markdown), and imports from the
//! archive and from Todoist, Taskwarrior, contacts files, calendars and
//! Markdown notes, each whole file read before one transaction writes it
//! all or nothing, with an import map so that a second import of the same
//! file changes nothing.

// Wired to the operations in the commits that follow.
#![allow(dead_code)]

pub(crate) mod draft;
pub(crate) mod from;
pub(crate) mod to;
pub(crate) mod zipped;
