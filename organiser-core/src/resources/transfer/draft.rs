//! What a foreign file gives (EXTENSIONS.md §5, "Formats"), read whole
//! before the import's transaction opens: plain drafts of task lists'
//! tasks, people and notes, each with the identity it has in its source
//! (kept in the import map so that a second import changes nothing) and
//! where it was found (for the report), and every item that could not be
//! read, with why. The readers of `from/` only parse and map words; which
//! records the drafts become is decided in one place (`apply.rs`).

use jiff::Timestamp;
use jiff::civil::Date;

use crate::resources::tasks::{Repeat, TaskStatus};

/// Everything read from one file.
#[derive(Debug, Default, Clone, PartialEq)]
pub(crate) struct Parsed {
    /// Tasks, in file order.
    pub(crate) tasks: Vec<DraftTask>,
    /// People, in file order.
    pub(crate) people: Vec<DraftPerson>,
    /// Notes, in file order.
    pub(crate) notes: Vec<DraftNote>,
    /// Items that could not be read, or that the organiser has no place
    /// for, in file order.
    pub(crate) skipped: Vec<Skipped>,
}

/// An item left out of an import, as the report names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Skipped {
    /// Where: a line number, an entry's id or a path, as a string.
    pub(crate) at: String,
    /// Why, in words (`a VEVENT: subscribe to it as a calendar feed`).
    pub(crate) reason: String,
}

impl Skipped {
    /// An item at `at` skipped for `reason`.
    pub(crate) fn new(at: impl Into<String>, reason: impl Into<String>) -> Skipped {
        Skipped {
            at: at.into(),
            reason: reason.into(),
        }
    }
}

/// A task as a foreign file gives it.
#[derive(Debug, Clone, PartialEq, Hash)]
pub(crate) struct DraftTask {
    /// Its identity in the source, stable across exports of the same data
    /// (a Taskwarrior uuid, a Todoist task id, an iCal UID); for a source
    /// without ids, what names it in the file (project and content).
    pub(crate) source: String,
    /// Where it is in the file, for the report (`line 12`, a uuid).
    pub(crate) at: String,
    /// The title, one line, never empty.
    pub(crate) title: String,
    /// Paragraphs of plain text for the description: the source's
    /// description and notes, then what the organiser keeps in words
    /// (`Priority: 1`, `Labels: home, errands`, `Tags: ...`).
    pub(crate) description: Vec<String>,
    /// The task list, by name (made when there is none of that name);
    /// `None` for the inbox.
    pub(crate) list: Option<String>,
    pub(crate) start_on: Option<Date>,
    pub(crate) deadline_on: Option<Date>,
    pub(crate) expires_on: Option<Date>,
    /// How it repeats (set only on an open task with a date).
    pub(crate) repeat: Option<Repeat>,
    pub(crate) status: TaskStatus,
    /// When it was made in the source, if it says.
    pub(crate) created_at: Option<Timestamp>,
    /// When it was closed in the source (completed or not done), if it
    /// says.
    pub(crate) closed_at: Option<Timestamp>,
}

impl DraftTask {
    /// An open task named `title`, with nothing else.
    pub(crate) fn new(
        source: impl Into<String>,
        at: impl Into<String>,
        title: impl Into<String>,
    ) -> DraftTask {
        DraftTask {
            source: source.into(),
            at: at.into(),
            title: title.into(),
            description: Vec::new(),
            list: None,
            start_on: None,
            deadline_on: None,
            expires_on: None,
            repeat: None,
            status: TaskStatus::Open,
            created_at: None,
            closed_at: None,
        }
    }
}

/// A person as a contacts file gives them.
#[derive(Debug, Clone, Default, PartialEq, Hash)]
pub(crate) struct DraftPerson {
    /// The vCard's `UID`; without one, the name as written.
    pub(crate) source: String,
    /// Where it is in the file (`card 3`, the UID).
    pub(crate) at: String,
    /// The name to show (`FN`, else `N` put together), never empty.
    pub(crate) name: String,
    /// E-mail addresses with their labels (`home`, `work`, as written in
    /// the card's `TYPE`, lower case, or `None`).
    pub(crate) emails: Vec<Labelled>,
    /// Phone numbers with their labels (`mobile`, `home`, `work`, ...).
    pub(crate) phones: Vec<Labelled>,
    /// Birthdays, anniversaries and other dates.
    pub(crate) key_dates: Vec<DraftKeyDate>,
    /// Jobs: a title and a company, either may be missing (not both).
    pub(crate) positions: Vec<DraftPosition>,
    /// Web addresses (`URL`, social profiles).
    pub(crate) urls: Vec<String>,
    /// The photo's bytes (decoded from base64, or a `data:` URI), when the
    /// card carries one; an address to fetch is not followed.
    pub(crate) photo: Option<Vec<u8>>,
}

/// A value and its label.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct Labelled {
    pub(crate) value: String,
    pub(crate) label: Option<String>,
}

/// A person's key date as a card gives it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct DraftKeyDate {
    /// One of the spec's kinds: `birthday`, `anniversary`, `other`, ...
    pub(crate) kind: &'static str,
    /// A label for an `other` date (`X-ABDATE` with `X-ABLabel`), if any.
    pub(crate) label: Option<String>,
    pub(crate) month: u8,
    pub(crate) day: u8,
    /// `None` for a date without a year (`--0412`, `X-APPLE-OMIT-YEAR`).
    pub(crate) year: Option<i16>,
}

/// A job as a card gives it (`ORG` and `TITLE`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct DraftPosition {
    pub(crate) title: Option<String>,
    pub(crate) company: Option<String>,
}

/// A note as a Markdown file gives it.
#[derive(Debug, Clone, Default, PartialEq, Hash)]
pub(crate) struct DraftNote {
    /// The file's path inside the folder or zip (`Work/Plans.md`).
    pub(crate) source: String,
    /// Where, for the report: the same path.
    pub(crate) at: String,
    /// The title: the front matter's `title`, else the file's name without
    /// `.md`; `None` when neither gives one.
    pub(crate) title: Option<String>,
    /// The body, Markdown, without its front matter (and without a first
    /// `# heading` that only repeats the title).
    pub(crate) markdown: String,
    /// Tags from the front matter (`tags:` list or string), without `#`.
    pub(crate) tags: Vec<String>,
    /// The front matter's `created`/`created_at`/`date`, if any.
    pub(crate) created_at: Option<Timestamp>,
    /// The front matter's `updated`/`modified`, if any.
    pub(crate) edited_at: Option<Timestamp>,
    /// Images and PDFs the body links to, found beside it: the link as
    /// written in the Markdown (`../_resources/a.png`, `a.png` for
    /// Obsidian's `![[a.png]]`), and the file's bytes.
    pub(crate) files: Vec<(String, Vec<u8>)>,
}
