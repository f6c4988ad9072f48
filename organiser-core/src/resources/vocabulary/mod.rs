//! The vocabulary (document 1, "Vocabulary", and every list document 2 and
//! document 3 leave to it): the fixed lists a client shows in pickers and
//! menus, all in display order, served by `GET /vocabulary`. It changes only
//! with a server release.
//!
//! The lists live here as `&'static` tables so that the rules can read the
//! same data they serve: `people` holds relationships, person links, key
//! dates, social platforms and contact labels; `calendar` the calendar feed
//! lists; `choices` colours, icons, appearance, AI provider kinds, project
//! statuses, task counts and document links. Uploads and text lengths come
//! from `crate::limits`, the appearance keys from `crate::resources::account::appearance`,
//! the zones from `crate::time::zones`.

use serde::Serialize;

use crate::limits;
use crate::time::{self, ZoneInfo};

mod calendar;
mod choices;
pub(crate) mod palette;
mod people;
#[cfg(test)]
mod tests;

pub(crate) use calendar::{
    CALENDAR_SOURCES, CALENDAR_SYNC_ERRORS, CALENDAR_SYNC_FREQUENCIES, MEETING_PROVIDERS,
};
pub(crate) use choices::{
    ACCENT_CHOICES, AI_PROVIDER_KINDS, CODE_THEME_CHOICES, COLORS, DEFAULT_LIST_ICON,
    DOCUMENT_LINK_KINDS, MOCK_PROVIDER_KIND, PICKER_ICONS, PROJECT_STATUSES, TASK_COUNT_KINDS,
    THEME_CHOICES,
};
pub(crate) use people::{
    CONTACT_LABELS, KEY_DATE_KINDS, PERSON_LINKS, RELATIONSHIP_GROUPS, RELATIONSHIPS,
    SOCIAL_PLATFORMS,
};

/// `GET /vocabulary`: every fixed list, in display order. Fields serialise
/// in the order of the spec's table, with `time_zones` added last.
#[derive(Debug, Clone, Serialize)]
pub struct Vocabulary {
    /// Relationships of a person to the owner.
    pub relationships: &'static [RelationshipChoice],
    /// Roles linking two people, both directions of each pair.
    pub person_links: &'static [PersonLinkChoice],
    /// Kinds of a person's key date.
    pub key_date_kinds: &'static [IconChoice],
    /// Every value of a social profile's `platform`, in order.
    pub social_platforms: &'static [Choice],
    /// The groups of `relationships` and `person_links`.
    pub relationship_groups: &'static [IconChoice],
    /// Suggested labels for a person's contact details.
    pub contact_labels: ContactLabels,
    /// Project statuses.
    pub project_statuses: &'static [ProjectStatusChoice],
    /// The counts of `GET /task_counts`.
    pub task_count_kinds: &'static [IconChoice],
    /// Colours of task lists, categories, folders and calendar feeds; a blank
    /// colour takes the first one not in use.
    pub colors: &'static [Choice],
    /// Icons offered for task lists, categories and folders.
    pub picker_icons: &'static [&'static str],
    /// Appearance accents.
    pub accents: &'static [Choice],
    /// Appearance themes.
    pub themes: &'static [Choice],
    /// Appearance code themes.
    pub code_themes: &'static [Choice],
    /// AI provider kinds (`mock` only in a development build).
    pub ai_provider_kinds: &'static [Choice],
    /// What each kind of upload takes.
    pub uploads: UploadRules,
    /// How often a calendar feed is synced.
    pub calendar_sync_frequencies: &'static [FrequencyChoice],
    /// Meeting services a calendar event's link is recognised as.
    pub meeting_providers: &'static [Choice],
    /// The codes of a calendar feed's `sync_error`.
    pub calendar_sync_errors: &'static [Choice],
    /// What a document can be linked to.
    pub document_link_kinds: &'static [Choice],
    /// Hosted calendars a feed's `source` can name.
    pub calendar_sources: &'static [CalendarSourceChoice],
    /// Text lengths, in characters.
    pub limits: TextLimits,
    /// The time-zone picker (an addition to the spec's table): the owner's
    /// `time_zone` is one of these names.
    pub time_zones: Vec<ZoneInfo>,
}

/// A plain list entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Choice {
    /// The value the API takes and returns.
    pub key: &'static str,
    /// What a person reads.
    pub label: &'static str,
}

/// A list entry shown with an icon.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct IconChoice {
    /// The value the API takes and returns.
    pub key: &'static str,
    /// What a person reads.
    pub label: &'static str,
    /// A kebab-case icon name.
    pub icon: &'static str,
}

/// A relationship of a person to the owner (`parent`: this person is the
/// owner's parent).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct RelationshipChoice {
    /// The relationship key.
    pub key: &'static str,
    /// What a person reads.
    pub label: &'static str,
    /// The key of its entry in `relationship_groups`.
    pub group: &'static str,
}

/// A role linking two people: a link of kind `parent` says its `person_id`
/// is the parent of its `related_person_id`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct PersonLinkChoice {
    /// The role key.
    pub key: &'static str,
    /// What a person reads.
    pub label: &'static str,
    /// The key of its entry in `relationship_groups`.
    pub group: &'static str,
    /// The role seen from the other person (itself when symmetric).
    pub inverse_key: &'static str,
    /// The label of the inverse role.
    pub inverse_label: &'static str,
    /// Whether the role is its own inverse.
    pub symmetric: bool,
    /// Lower-case words people type for this role ("mum" for `parent`).
    pub synonyms: &'static [&'static str],
}

/// How a project status is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Tone {
    /// Not started or not otherwise marked.
    Neutral,
    /// Under way.
    Info,
    /// Needs attention.
    Warning,
    /// Finished well.
    Success,
    /// Set aside.
    Muted,
}

/// A project status.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ProjectStatusChoice {
    /// The status key.
    pub key: &'static str,
    /// What a person reads.
    pub label: &'static str,
    /// A kebab-case icon name.
    pub icon: &'static str,
    /// How the status is shown.
    pub tone: Tone,
    /// Whether a project in this status is open.
    pub open: bool,
}

/// Suggested labels for one kind of contact detail.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct LabelChoices {
    /// Labels offered, in order; any other text is allowed too.
    pub suggestions: &'static [&'static str],
    /// The label a new row starts with, if any.
    pub default: Option<&'static str>,
}

/// Suggested labels for a person's contact details.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ContactLabels {
    /// Email addresses.
    pub email_addresses: LabelChoices,
    /// Phone numbers.
    pub phone_numbers: LabelChoices,
    /// Social profiles.
    pub social_profiles: LabelChoices,
}

/// What one kind of upload takes: the accepted types (read from the
/// bytes) and the largest accepted file.
pub use crate::engine::operation::RawRule as UploadRule;

/// What each kind of upload takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct UploadRules {
    /// A person's photo.
    pub avatar: UploadRule,
    /// An image inside a note.
    pub note_image: UploadRule,
    /// A PDF document.
    pub document: UploadRule,
}

/// A calendar feed sync frequency.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct FrequencyChoice {
    /// The `sync_every` value.
    pub key: &'static str,
    /// What a person reads.
    pub label: &'static str,
    /// Minutes between syncs.
    pub minutes: u32,
}

/// A hosted calendar a feed's `source` can name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct CalendarSourceChoice {
    /// The `source` value.
    pub key: &'static str,
    /// What a person reads.
    pub label: &'static str,
    /// Where the calendar is opened.
    pub url: &'static str,
}

/// Text lengths, in characters (document 1, "Limits").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct TextLimits {
    /// Tag name.
    pub tag_name: usize,
    /// Folder name.
    pub folder_name: usize,
    /// Document name.
    pub document_name: usize,
    /// Task title.
    pub task_title: usize,
    /// Task list name.
    pub task_list_name: usize,
    /// Project name.
    pub project_name: usize,
    /// Project texts (role, external reference).
    pub project_text: usize,
    /// Project external address.
    pub project_url: usize,
    /// Project member role.
    pub project_member_role: usize,
    /// Position title.
    pub position_title: usize,
    /// Company name.
    pub company_name: usize,
    /// Calendar feed name.
    pub calendar_feed_name: usize,
    /// Calendar address.
    pub calendar_address: usize,
}

/// The image types an avatar or a note image takes.
const IMAGE_TYPES: &[&str] = &["image/jpeg", "image/png", "image/webp", "image/gif"];
/// The types a document takes.
const DOCUMENT_TYPES: &[&str] = &["application/pdf"];

/// What each kind of upload takes.
pub(crate) const UPLOADS: UploadRules = UploadRules {
    avatar: UploadRule {
        content_types: IMAGE_TYPES,
        max_bytes: limits::uploads::AVATAR_MAX_BYTES,
    },
    note_image: UploadRule {
        content_types: IMAGE_TYPES,
        max_bytes: limits::uploads::NOTE_IMAGE_MAX_BYTES,
    },
    document: UploadRule {
        content_types: DOCUMENT_TYPES,
        max_bytes: limits::uploads::DOCUMENT_MAX_BYTES,
    },
};

/// Text lengths.
pub(crate) const TEXT_LIMITS: TextLimits = {
    use limits::text::*;
    TextLimits {
        tag_name: TAG_NAME,
        folder_name: FOLDER_NAME,
        document_name: DOCUMENT_NAME,
        task_title: TASK_TITLE,
        task_list_name: TASK_LIST_NAME,
        project_name: PROJECT_NAME,
        project_text: PROJECT_TEXT,
        project_url: PROJECT_URL,
        project_member_role: PROJECT_MEMBER_ROLE,
        position_title: POSITION_TITLE,
        company_name: COMPANY_NAME,
        calendar_feed_name: CALENDAR_FEED_NAME,
        calendar_address: CALENDAR_ADDRESS,
    }
};

/// `GET /vocabulary`: fixed data (the mock AI provider only in a
/// development build), for any principal.
pub(crate) static GET: crate::engine::operation::Operation<(), Vocabulary> =
    crate::engine::operation::Operation::new(
        "getVocabulary",
        crate::engine::request::Method::Get,
        "/vocabulary",
        "The fixed lists\n\nNot paginated; changes only with a server release.",
        crate::engine::operation::Run::Plain(crate::engine::op::PlainOp::PRIVATE, |inner, ()| {
            Ok(vocabulary(inner.options.build.is_dev()))
        }),
        crate::engine::operation::Answer::data(200),
    );

/// The vocabulary's operation, for the registry.
pub(crate) static OPERATIONS: &[&dyn crate::engine::operation::Declared] = &[&GET];

/// `GET /vocabulary`; `dev` is true in a development build (the `mock` AI
/// provider kind is listed only then).
pub fn vocabulary(dev: bool) -> Vocabulary {
    Vocabulary {
        relationships: RELATIONSHIPS,
        person_links: PERSON_LINKS,
        key_date_kinds: KEY_DATE_KINDS,
        social_platforms: SOCIAL_PLATFORMS,
        relationship_groups: RELATIONSHIP_GROUPS,
        contact_labels: CONTACT_LABELS,
        project_statuses: PROJECT_STATUSES,
        task_count_kinds: TASK_COUNT_KINDS,
        colors: COLORS,
        picker_icons: PICKER_ICONS,
        accents: ACCENT_CHOICES,
        themes: THEME_CHOICES,
        code_themes: CODE_THEME_CHOICES,
        ai_provider_kinds: ai_provider_kinds(dev),
        uploads: UPLOADS,
        calendar_sync_frequencies: CALENDAR_SYNC_FREQUENCIES,
        meeting_providers: MEETING_PROVIDERS,
        calendar_sync_errors: CALENDAR_SYNC_ERRORS,
        document_link_kinds: DOCUMENT_LINK_KINDS,
        calendar_sources: CALENDAR_SOURCES,
        limits: TEXT_LIMITS,
        time_zones: time::zones().collect(),
    }
}

/// The AI provider kinds this build offers: `mock` (the last) only in a
/// development build.
pub(crate) fn ai_provider_kinds(dev: bool) -> &'static [Choice] {
    match AI_PROVIDER_KINDS.split_last() {
        Some((last, rest)) if !dev && last.key == MOCK_PROVIDER_KIND => rest,
        _ => AI_PROVIDER_KINDS,
    }
}
