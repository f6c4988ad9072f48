//! The search index (document 1, "Search"; docs/api.md "Search"): the
//! words of every live person, project, note, task, document, task list
//! and folder, kept in the store's own tables and written in the same
//! transaction as the change it reflects, so search and the store never
//! disagree, a crash included.
//!
//! - [`words`]: how text and queries become words (case and accents
//!   folded), phone digits, and how many edits a misspelling may have.
//! - [`index`]: a record's [`Doc`] (its words, each with the ways it may be
//!   found, and its place in its type's order) stored, changed and
//!   removed, with how many records of its type hold each word; the
//!   index's health and its rebuild.
//! - [`postings`]: a word's records grouped in blocks, each record's ID
//!   written as the bytes that differ from the one before.
//! - [`lexicon`]: every word the index holds, as an FST, which Levenshtein
//!   automata walk to find misspellings.
//! - [`lookup`]: the matching: the records a query finds, best first (its
//!   reads planned from the words' counts, [`SearchPlan`]), and the prefix
//!   matching of `GET /notes?q=` and `GET /documents?q=`.
//!
//! What each type is found by is declared in `resources/search` (one
//! function a type), which also serves `GET /search`.

pub(crate) mod index;
pub(crate) mod lexicon;
pub(crate) mod lookup;
pub(crate) mod postings;
pub(crate) mod tables;
pub(crate) mod words;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

pub(crate) use crate::config::SearchPlan;

/// The seven types search finds, in the order of its groups (`SearchType`
/// to the core's users).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// `person`.
    Person,
    /// `project`.
    Project,
    /// `note`.
    Note,
    /// `task`.
    Task,
    /// `document`.
    Document,
    /// `task_list`.
    TaskList,
    /// `folder`.
    Folder,
}

impl Kind {
    /// Every type, in the order of the groups.
    pub const ALL: [Kind; 7] = [
        Kind::Person,
        Kind::Project,
        Kind::Note,
        Kind::Task,
        Kind::Document,
        Kind::TaskList,
        Kind::Folder,
    ];

    /// The group's `type`.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Person => "person",
            Kind::Project => "project",
            Kind::Note => "note",
            Kind::Task => "task",
            Kind::Document => "document",
            Kind::TaskList => "task_list",
            Kind::Folder => "folder",
        }
    }

    /// The type named `name`.
    pub fn named(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// The byte that leads the type's keys in the index.
    pub(crate) fn tag(self) -> u8 {
        self as u8
    }

    /// Whether the type has names that are found misspelt (document 1:
    /// people's, projects', tasks' and documents' names); the others'
    /// words are found whole or by their beginning only.
    pub(crate) fn misspellings(self) -> bool {
        matches!(
            self,
            Kind::Person | Kind::Project | Kind::Task | Kind::Document
        )
    }

    /// Whether a record's place in the type's order changes rarely, so
    /// that its postings carry it. A note's (last edited first) changes
    /// with every edit, which would rewrite every posting of the note;
    /// its postings carry none, and a query reads the order of the few
    /// notes it ranks from their stored documents.
    pub(crate) fn order_in_postings(self) -> bool {
        self != Kind::Note
    }

    /// Whether `search_counts` counts the type's words. A note holds a
    /// few hundred words, and keeping their counts doubled what a save
    /// writes to the index; a query sizes a note word's range by reading
    /// it, a few hundred postings at most (notes walk sooner).
    pub(crate) fn counted(self) -> bool {
        self != Kind::Note
    }
}

/// How a word of a record may be found (bits; a word in two fields has
/// both).
pub(crate) mod class {
    /// A word of a name: found whole, by its beginning, or misspelt.
    pub(crate) const NAME: u8 = 1;
    /// Any other word: found whole or by its beginning.
    pub(crate) const WORD: u8 = 2;
    /// The digits of a phone number from some place on (a [`super::words::PHONE`]
    /// term): found by their beginning.
    pub(crate) const PHONE: u8 = 4;
    /// The digits of a whole phone number.
    pub(crate) const WHOLE_PHONE: u8 = 8;
}

/// What the index keeps of one live record: its words, each with the
/// ways it may be found ([`class`] bits), and its key in its type's own
/// order (the tie-break after the kind of match).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Doc {
    /// The type's order: smaller first.
    pub(crate) order: Vec<u8>,
    /// Each word once, in byte order, with its class bits.
    pub(crate) terms: Vec<(String, u8)>,
}

impl crate::store::codec::Record for Doc {
    const NAME: &'static str = "search document";
    const FORMAT: u8 = 1;
}

/// Builds a [`Doc`] field by field.
#[derive(Debug, Default)]
pub(crate) struct DocBuilder {
    order: Vec<u8>,
    terms: BTreeMap<String, u8>,
}

impl DocBuilder {
    /// A document placed by `order` in its type's order.
    pub(crate) fn new(order: crate::store::key::Key) -> DocBuilder {
        DocBuilder {
            order: order.into_vec(),
            terms: BTreeMap::new(),
        }
    }

    /// The words of `text`, found as `class` says.
    pub(crate) fn text(mut self, text: &str, class: u8) -> DocBuilder {
        let folded = words::fold(text);
        for word in words::split(&folded) {
            // Most words of a text come again: no copy for those.
            match self.terms.get_mut(word) {
                Some(bits) => *bits |= class,
                None => {
                    self.terms.insert(word.to_owned(), class);
                }
            }
        }
        self
    }

    /// A link (a profile, a website), found by its words after the
    /// scheme and a leading `www.`.
    pub(crate) fn link(self, url: &str) -> DocBuilder {
        self.text(&words::without_schemes(url), class::WORD)
    }

    /// A phone number, found by its digits from any place on.
    pub(crate) fn phone(mut self, number: &str) -> DocBuilder {
        for (term, class) in words::phone_terms(number) {
            *self.terms.entry(term).or_default() |= class;
        }
        self
    }

    /// The document.
    pub(crate) fn build(self) -> Doc {
        Doc {
            order: self.order,
            terms: self.terms.into_iter().collect(),
        }
    }
}
