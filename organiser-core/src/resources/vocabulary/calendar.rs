//! The calendar lists of the vocabulary (document 3, "CalendarFeed",
//! "CalendarEvent"): sync frequencies, sync error codes, hosted calendar
//! sources and meeting providers.

use super::{CalendarSourceChoice, Choice, FrequencyChoice};

/// How often a calendar feed is synced (its `sync_every`).
pub(crate) const CALENDAR_SYNC_FREQUENCIES: &[FrequencyChoice] = &[
    FrequencyChoice {
        key: "15_minutes",
        label: "Every 15 minutes",
        minutes: 15,
    },
    FrequencyChoice {
        key: "30_minutes",
        label: "Every 30 minutes",
        minutes: 30,
    },
    FrequencyChoice {
        key: "hourly",
        label: "Every hour",
        minutes: 60,
    },
    FrequencyChoice {
        key: "6_hours",
        label: "Every 6 hours",
        minutes: 6 * 60,
    },
    FrequencyChoice {
        key: "daily",
        label: "Every day",
        minutes: 24 * 60,
    },
];

/// The codes of a calendar feed's `sync_error`, with what to tell the owner.
pub(crate) const CALENDAR_SYNC_ERRORS: &[Choice] = &[
    Choice {
        key: "not_found",
        label: "No calendar was found at this address; it may have been moved or deleted",
    },
    Choice {
        key: "denied",
        label: "The calendar server refused access; the address may have expired or need a new share link",
    },
    Choice {
        key: "server_error",
        label: "The calendar server had a problem; it will be tried again later",
    },
    Choice {
        key: "unreachable",
        label: "The calendar server could not be reached; check the address",
    },
    Choice {
        key: "timed_out",
        label: "The calendar server took too long to answer",
    },
    Choice {
        key: "tls",
        label: "The calendar server's secure connection could not be verified",
    },
    Choice {
        key: "too_big",
        label: "The calendar is too large to download",
    },
    Choice {
        key: "not_calendar",
        label: "The address did not return a calendar (an iCal file)",
    },
    Choice {
        key: "too_many_events",
        label: "The calendar has too many events to keep",
    },
    Choice {
        key: "refused_address",
        label: "The address points to a private or local network, which calendar feeds may not use",
    },
    Choice {
        key: "address_unreadable",
        label: "The saved address can no longer be read; enter it again",
    },
    Choice {
        key: "not_saved",
        label: "The calendar was read but could not be saved; it will be tried again later",
    },
];

/// Hosted calendars a feed's `source` names, found from its address's host.
pub(crate) const CALENDAR_SOURCES: &[CalendarSourceChoice] = &[
    CalendarSourceChoice {
        key: "google",
        label: "Google Calendar",
        url: "https://calendar.google.com",
    },
    CalendarSourceChoice {
        key: "icloud",
        label: "iCloud Calendar",
        url: "https://www.icloud.com/calendar",
    },
    CalendarSourceChoice {
        key: "outlook",
        label: "Outlook.com Calendar",
        url: "https://outlook.live.com/calendar",
    },
];

/// Meeting services an event's link is recognised as: seven named services,
/// then `other`.
pub(crate) const MEETING_PROVIDERS: &[Choice] = &[
    Choice {
        key: "zoom",
        label: "Zoom",
    },
    Choice {
        key: "google_meet",
        label: "Google Meet",
    },
    Choice {
        key: "microsoft_teams",
        label: "Microsoft Teams",
    },
    Choice {
        key: "webex",
        label: "Webex",
    },
    Choice {
        key: "whereby",
        label: "Whereby",
    },
    Choice {
        key: "jitsi",
        label: "Jitsi Meet",
    },
    Choice {
        key: "gotomeeting",
        label: "GoTo Meeting",
    },
    Choice {
        key: "other",
        label: "Other",
    },
];
