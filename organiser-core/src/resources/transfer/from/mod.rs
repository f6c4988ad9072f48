//! The readers of foreign files (EXTENSIONS.md §5, "Formats"): each parses
//! a whole file into drafts ([`Parsed`]) and says whether bytes look like
//! its format; none writes anything. A file that is not the format at all
//! is [`Refused`] with the line or entry where reading stopped; an item
//! that cannot be read is skipped and named.
//!
//! [`Parsed`]: super::draft::Parsed

pub(crate) mod ical;
pub(crate) mod markdown;
pub(crate) mod taskwarrior;
pub(crate) mod todoist;
pub(crate) mod vcard;

/// A file that is not the format it was read as: why, with the line or
/// entry (`line 3: a CSV row with 2 fields where the header has 7`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Refused(pub(crate) String);

impl Refused {
    /// Refused for `why`.
    pub(crate) fn new(why: impl Into<String>) -> Refused {
        Refused(why.into())
    }
}
