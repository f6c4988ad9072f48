//! The general lists of the vocabulary: colours and picker icons (document 2,
//! "TaskList", "Category"; document 3, "Folder", "CalendarFeed"), the
//! appearance settings (document 1, "Appearance"), AI provider kinds
//! (document 2, "AIProvider"), project statuses and task count kinds
//! (document 2, "Project", "TaskCounts") and document link kinds (DESIGN.md,
//! "Documents").

use super::{Choice, IconChoice, ProjectStatusChoice, Tone};
use crate::resources::account::appearance::{ACCENTS, CODE_THEMES, THEMES};

/// Colours, in the order a blank colour is given out: a new task list,
/// category or folder with a blank colour takes the first one not in use.
pub(crate) const COLORS: &[Choice] = &[
    Choice {
        key: "blue",
        label: "Blue",
    },
    Choice {
        key: "green",
        label: "Green",
    },
    Choice {
        key: "orange",
        label: "Orange",
    },
    Choice {
        key: "purple",
        label: "Purple",
    },
    Choice {
        key: "red",
        label: "Red",
    },
    Choice {
        key: "teal",
        label: "Teal",
    },
    Choice {
        key: "yellow",
        label: "Yellow",
    },
    Choice {
        key: "pink",
        label: "Pink",
    },
    Choice {
        key: "indigo",
        label: "Indigo",
    },
    Choice {
        key: "cyan",
        label: "Cyan",
    },
    Choice {
        key: "lime",
        label: "Lime",
    },
    Choice {
        key: "brown",
        label: "Brown",
    },
    Choice {
        key: "gray",
        label: "Grey",
    },
    Choice {
        key: "slate",
        label: "Slate",
    },
];

/// The icon a task list shows when its `icon` is null.
pub(crate) const DEFAULT_LIST_ICON: &str = "list";

/// Icons offered for task lists, categories and folders (lucide names). A
/// record may keep an icon that is no longer offered.
pub(crate) const PICKER_ICONS: &[&str] = &[
    DEFAULT_LIST_ICON,
    "inbox",
    "star",
    "heart",
    "flag",
    "bookmark",
    "tag",
    "folder",
    "file-text",
    "briefcase",
    "house",
    "calendar",
    "clock",
    "target",
    "lightbulb",
    "rocket",
    "trophy",
    "book",
    "graduation-cap",
    "pencil",
    "code",
    "wrench",
    "hammer",
    "shopping-cart",
    "gift",
    "wallet",
    "piggy-bank",
    "plane",
    "car",
    "bike",
    "map-pin",
    "globe",
    "dumbbell",
    "stethoscope",
    "utensils",
    "coffee",
    "music",
    "camera",
    "film",
    "gamepad-2",
    "palette",
    "leaf",
    "paw-print",
    "baby",
    "users",
    "mail",
];

/// Appearance accents; the keys are those of the settings.
pub(crate) const ACCENT_CHOICES: &[Choice] = &[
    Choice {
        key: ACCENTS[0],
        label: "Iris",
    },
    Choice {
        key: ACCENTS[1],
        label: "Coral",
    },
    Choice {
        key: ACCENTS[2],
        label: "Jade",
    },
    Choice {
        key: ACCENTS[3],
        label: "Saffron",
    },
    Choice {
        key: ACCENTS[4],
        label: "Orchid",
    },
    Choice {
        key: ACCENTS[5],
        label: "Steel",
    },
];

/// Appearance themes; the keys are those of the settings.
pub(crate) const THEME_CHOICES: &[Choice] = &[
    Choice {
        key: THEMES[0],
        label: "Match system",
    },
    Choice {
        key: THEMES[1],
        label: "Light",
    },
    Choice {
        key: THEMES[2],
        label: "Dark",
    },
];

/// Appearance code themes; the keys are those of the settings.
pub(crate) const CODE_THEME_CHOICES: &[Choice] = &[
    Choice {
        key: CODE_THEMES[0],
        label: "Match theme",
    },
    Choice {
        key: CODE_THEMES[1],
        label: "Light",
    },
    Choice {
        key: CODE_THEMES[2],
        label: "Dark",
    },
];

/// The AI provider kind that needs no network, offered only in a
/// development build.
pub(crate) const MOCK_PROVIDER_KIND: &str = "mock";

/// AI provider kinds; `mock` comes last, so a production build lists the
/// others.
pub(crate) const AI_PROVIDER_KINDS: &[Choice] = &[
    Choice {
        key: "api_compatible",
        label: "Compatible chat API",
    },
    Choice {
        key: "vendor_b",
        label: "Hosted vendor B",
    },
    Choice {
        key: MOCK_PROVIDER_KIND,
        label: "Mock (development)",
    },
];

/// Project statuses: the first three are open, the last two closed.
pub(crate) const PROJECT_STATUSES: &[ProjectStatusChoice] = &[
    ProjectStatusChoice {
        key: "planned",
        label: "Planned",
        icon: "circle-dashed",
        tone: Tone::Neutral,
        open: true,
    },
    ProjectStatusChoice {
        key: "active",
        label: "Active",
        icon: "circle-play",
        tone: Tone::Info,
        open: true,
    },
    ProjectStatusChoice {
        key: "on_hold",
        label: "On hold",
        icon: "circle-pause",
        tone: Tone::Warning,
        open: true,
    },
    ProjectStatusChoice {
        key: "done",
        label: "Done",
        icon: "circle-check",
        tone: Tone::Success,
        open: false,
    },
    ProjectStatusChoice {
        key: "cancelled",
        label: "Cancelled",
        icon: "circle-x",
        tone: Tone::Muted,
        open: false,
    },
];

/// The counts of `GET /task_counts`: its top-level counts, then those of
/// its `page` (`overdue` is in both and listed once).
pub(crate) const TASK_COUNT_KINDS: &[IconChoice] = &[
    IconChoice {
        key: "inbox",
        label: "Inbox",
        icon: "inbox",
    },
    IconChoice {
        key: "today",
        label: "Today",
        icon: "sun",
    },
    IconChoice {
        key: "due_soon",
        label: "Due soon",
        icon: "alarm-clock",
    },
    IconChoice {
        key: "overdue",
        label: "Overdue",
        icon: "triangle-alert",
    },
    IconChoice {
        key: "open",
        label: "Open",
        icon: "circle",
    },
    IconChoice {
        key: "completed",
        label: "Completed",
        icon: "circle-check",
    },
    IconChoice {
        key: "completed_today",
        label: "Completed today",
        icon: "calendar-check",
    },
    IconChoice {
        key: "wont_do",
        label: "Won't do",
        icon: "circle-slash",
    },
    IconChoice {
        key: "expired",
        label: "Expired",
        icon: "hourglass",
    },
];

/// What a document can be linked to.
pub(crate) const DOCUMENT_LINK_KINDS: &[Choice] = &[
    Choice {
        key: "note",
        label: "Note",
    },
    Choice {
        key: "project",
        label: "Project",
    },
    Choice {
        key: "task",
        label: "Task",
    },
    Choice {
        key: "person",
        label: "Person",
    },
];
