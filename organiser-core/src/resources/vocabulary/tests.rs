//! Tests of the vocabulary: its JSON shape, and the invariants the rules rely on.

use std::collections::{HashMap, HashSet};

use serde_json::{Value, json};

use super::choices::DEFAULT_LIST_ICON;
use super::*;
use crate::resources::account::appearance::{ACCENTS, CODE_THEMES, THEMES};

fn json_of(dev: bool) -> Value {
    serde_json::to_value(vocabulary(dev)).unwrap()
}

fn keys_of(list: &Value) -> Vec<&str> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|item| item["key"].as_str().unwrap())
        .collect()
}

/// Every list of `{key, ...}` entries, by its vocabulary key.
const KEYED_LISTS: &[&str] = &[
    "relationships",
    "person_links",
    "key_date_kinds",
    "social_platforms",
    "relationship_groups",
    "project_statuses",
    "task_count_kinds",
    "colors",
    "accents",
    "themes",
    "code_themes",
    "ai_provider_kinds",
    "calendar_sync_frequencies",
    "meeting_providers",
    "calendar_sync_errors",
    "document_link_kinds",
    "calendar_sources",
];

/// The vocabulary's keys, in the order of the spec's table, then `time_zones`.
const TOP_LEVEL_KEYS: &[&str] = &[
    "relationships",
    "person_links",
    "key_date_kinds",
    "social_platforms",
    "relationship_groups",
    "contact_labels",
    "project_statuses",
    "task_count_kinds",
    "colors",
    "picker_icons",
    "accents",
    "themes",
    "code_themes",
    "ai_provider_kinds",
    "uploads",
    "calendar_sync_frequencies",
    "meeting_providers",
    "calendar_sync_errors",
    "document_link_kinds",
    "calendar_sources",
    "limits",
    "time_zones",
];

#[test]
fn top_level_keys_are_the_specs_in_order() {
    for dev in [false, true] {
        let value = json_of(dev);
        let mut keys: Vec<&str> = value
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        let mut expected = TOP_LEVEL_KEYS.to_vec();
        keys.sort_unstable();
        expected.sort_unstable();
        assert_eq!(keys, expected);

        // The written order is the spec's (no nested field shares these names).
        let text = serde_json::to_string(&vocabulary(dev)).unwrap();
        let positions: Vec<usize> = TOP_LEVEL_KEYS
            .iter()
            .map(|key| text.find(&format!("\"{key}\":")).unwrap())
            .collect();
        assert!(positions.is_sorted(), "{positions:?}");
    }
}

#[test]
fn every_list_is_non_empty_with_unique_keys() {
    for dev in [false, true] {
        let value = json_of(dev);
        for list in KEYED_LISTS {
            let keys = keys_of(&value[list]);
            assert!(!keys.is_empty(), "{list} is empty");
            let unique: HashSet<_> = keys.iter().collect();
            assert_eq!(unique.len(), keys.len(), "{list} repeats a key: {keys:?}");
            for key in &keys {
                assert!(!key.is_empty(), "{list} has a blank key");
                let label = value[list]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|i| i["key"] == *key)
                    .unwrap()["label"]
                    .as_str()
                    .unwrap();
                assert!(!label.trim().is_empty(), "{list}.{key} has a blank label");
            }
        }
        let icons = value["picker_icons"].as_array().unwrap();
        assert!(!icons.is_empty());
        assert!(!value["time_zones"].as_array().unwrap().is_empty());
    }
}

#[test]
fn keys_are_snake_case_and_icons_kebab_case() {
    let snake = |s: &str| {
        s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
    };
    let kebab = |s: &str| {
        !s.starts_with('-')
            && !s.ends_with('-')
            && s.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
    };
    let value = json_of(true);
    for list in KEYED_LISTS {
        for key in keys_of(&value[list]) {
            assert!(snake(key), "{list}.{key}");
        }
    }
    let icon_lists = [RELATIONSHIP_GROUPS, KEY_DATE_KINDS, TASK_COUNT_KINDS];
    let icons = icon_lists
        .iter()
        .flat_map(|list| list.iter().map(|c| c.icon))
        .chain(PROJECT_STATUSES.iter().map(|s| s.icon))
        .chain(PICKER_ICONS.iter().copied());
    for icon in icons {
        assert!(kebab(icon), "{icon}");
    }
}

#[test]
fn exact_key_lists() {
    let value = json_of(false);
    for (list, expected) in [
        (
            "key_date_kinds",
            &[
                "birthday",
                "anniversary",
                "work_anniversary",
                "first_met",
                "name_day",
                "memorial",
                "other",
            ][..],
        ),
        (
            "social_platforms",
            &[
                "website",
                "linkedin",
                "github",
                "x",
                "mastodon",
                "bluesky",
                "instagram",
                "facebook",
                "threads",
                "youtube",
                "tiktok",
                "other",
            ],
        ),
        (
            "meeting_providers",
            &[
                "zoom",
                "google_meet",
                "microsoft_teams",
                "webex",
                "whereby",
                "jitsi",
                "gotomeeting",
                "other",
            ],
        ),
        (
            "calendar_sync_errors",
            &[
                "not_found",
                "denied",
                "server_error",
                "unreachable",
                "timed_out",
                "tls",
                "too_big",
                "not_calendar",
                "too_many_events",
                "refused_address",
                "address_unreadable",
                "not_saved",
            ],
        ),
        (
            "project_statuses",
            &["planned", "active", "on_hold", "done", "cancelled"],
        ),
        (
            "task_count_kinds",
            &[
                "inbox",
                "today",
                "due_soon",
                "overdue",
                "open",
                "completed",
                "completed_today",
                "wont_do",
                "expired",
            ],
        ),
        (
            "calendar_sync_frequencies",
            &["15_minutes", "30_minutes", "hourly", "6_hours", "daily"],
        ),
        (
            "document_link_kinds",
            &["note", "project", "task", "person"],
        ),
        ("calendar_sources", &["google", "icloud", "outlook"]),
        ("ai_provider_kinds", &["api_compatible", "vendor_b"]),
    ] {
        assert_eq!(keys_of(&value[list]), expected, "{list}");
    }
}

#[test]
fn mock_provider_kind_only_in_development() {
    assert_eq!(
        keys_of(&json_of(false)["ai_provider_kinds"]),
        ["api_compatible", "vendor_b"]
    );
    assert_eq!(
        keys_of(&json_of(true)["ai_provider_kinds"]),
        ["api_compatible", "vendor_b", "mock"]
    );
    assert_eq!(
        json_of(true)["ai_provider_kinds"][2],
        json!({"key": "mock", "label": "Mock (development)"})
    );
}

#[test]
fn relationship_groups_cover_relationships_and_links() {
    let groups: HashSet<&str> = RELATIONSHIP_GROUPS.iter().map(|g| g.key).collect();
    for group in ["family", "friends", "work", "community", "other"] {
        assert!(groups.contains(group), "{group}");
    }
    for r in RELATIONSHIPS {
        assert!(
            groups.contains(r.group),
            "relationship {} in unknown group {}",
            r.key,
            r.group
        );
    }
    for l in PERSON_LINKS {
        assert!(
            groups.contains(l.group),
            "link {} in unknown group {}",
            l.key,
            l.group
        );
    }
    for g in RELATIONSHIP_GROUPS {
        assert!(
            RELATIONSHIPS.iter().any(|r| r.group == g.key),
            "group {} has no relationship",
            g.key
        );
    }
    assert!(RELATIONSHIPS.len() >= 25);
    // `?relationship=family` is a group, so no relationship may be called that.
    assert!(RELATIONSHIPS.iter().all(|r| !groups.contains(r.key)));
}

#[test]
fn person_link_inverses_agree() {
    let by_key: HashMap<&str, &PersonLinkChoice> =
        PERSON_LINKS.iter().map(|l| (l.key, l)).collect();
    assert_eq!(by_key.len(), PERSON_LINKS.len(), "person link keys repeat");
    for link in PERSON_LINKS {
        let inverse = by_key
            .get(link.inverse_key)
            .unwrap_or_else(|| panic!("{}: no inverse", link.key));
        assert_eq!(
            inverse.inverse_key, link.key,
            "{}: inverse of inverse",
            link.key
        );
        assert_eq!(
            link.symmetric,
            link.inverse_key == link.key,
            "{}: symmetric",
            link.key
        );
        assert_eq!(
            link.inverse_label, inverse.label,
            "{}: inverse label",
            link.key
        );
        assert_eq!(
            link.group, inverse.group,
            "{}: the pair shares a group",
            link.key
        );
    }
    for (key, inverse, symmetric) in [
        ("parent", "child", false),
        ("grandparent", "grandchild", false),
        ("aunt_uncle", "niece_nephew", false),
        ("step_parent", "step_child", false),
        ("godparent", "godchild", false),
        ("manager", "report", false),
        ("mentor", "mentee", false),
        ("sibling", "sibling", true),
        ("spouse", "spouse", true),
        ("partner", "partner", true),
        ("ex_partner", "ex_partner", true),
        ("cousin", "cousin", true),
        ("friend", "friend", true),
        ("best_friend", "best_friend", true),
        ("colleague", "colleague", true),
        ("neighbour", "neighbour", true),
        ("classmate", "classmate", true),
    ] {
        let link = by_key[key];
        assert_eq!(
            (link.inverse_key, link.symmetric),
            (inverse, symmetric),
            "{key}"
        );
    }
}

#[test]
fn person_link_synonyms_are_lower_case_and_unambiguous() {
    let keys: HashSet<&str> = PERSON_LINKS.iter().map(|l| l.key).collect();
    let mut seen = HashMap::new();
    for link in PERSON_LINKS {
        for &synonym in link.synonyms {
            assert_eq!(synonym, synonym.to_lowercase(), "{}: {synonym}", link.key);
            assert_eq!(synonym, synonym.trim(), "{}: {synonym:?}", link.key);
            assert!(!synonym.is_empty(), "{}: blank synonym", link.key);
            assert!(
                !keys.contains(synonym),
                "{}: {synonym} is a role key",
                link.key
            );
            if let Some(other) = seen.insert(synonym, link.key) {
                panic!("{synonym} is a synonym of both {other} and {}", link.key);
            }
        }
    }
    let parent = PERSON_LINKS.iter().find(|l| l.key == "parent").unwrap();
    for word in ["mum", "mom", "dad"] {
        assert!(parent.synonyms.contains(&word), "{word}");
    }
}

#[test]
fn person_link_serialises_every_field() {
    let value = json_of(false);
    let parent = value["person_links"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["key"] == "parent")
        .unwrap();
    assert_eq!(parent["label"], "Parent");
    assert_eq!(parent["group"], "family");
    assert_eq!(parent["inverse_key"], "child");
    assert_eq!(parent["inverse_label"], "Child");
    assert_eq!(parent["symmetric"], false);
    assert!(
        parent["synonyms"]
            .as_array()
            .unwrap()
            .contains(&json!("mum"))
    );
}

#[test]
fn appearance_keys_match_the_settings() {
    for (choices, keys) in [
        (ACCENT_CHOICES, ACCENTS),
        (THEME_CHOICES, THEMES),
        (CODE_THEME_CHOICES, CODE_THEMES),
    ] {
        assert_eq!(choices.iter().map(|c| c.key).collect::<Vec<_>>(), keys);
    }
}

#[test]
fn limits_match_the_consts() {
    use crate::limits::text::*;
    let value = json_of(false);
    let expected = json!({
        "tag_name": TAG_NAME,
        "folder_name": FOLDER_NAME,
        "document_name": DOCUMENT_NAME,
        "task_title": TASK_TITLE,
        "task_list_name": TASK_LIST_NAME,
        "project_name": PROJECT_NAME,
        "project_text": PROJECT_TEXT,
        "project_url": PROJECT_URL,
        "project_member_role": PROJECT_MEMBER_ROLE,
        "position_title": POSITION_TITLE,
        "company_name": COMPANY_NAME,
        "calendar_feed_name": CALENDAR_FEED_NAME,
        "calendar_address": CALENDAR_ADDRESS,
    });
    assert_eq!(value["limits"], expected);
    // The spec's own numbers.
    assert_eq!(value["limits"]["tag_name"], 50);
    assert_eq!(value["limits"]["calendar_address"], 2048);
}

#[test]
fn uploads_match_the_consts() {
    use crate::limits::uploads::*;
    let value = json_of(false);
    let images = json!(["image/jpeg", "image/png", "image/webp", "image/gif"]);
    assert_eq!(
        value["uploads"],
        json!({
            "avatar": {"content_types": images, "max_bytes": AVATAR_MAX_BYTES},
            "note_image": {"content_types": images, "max_bytes": NOTE_IMAGE_MAX_BYTES},
            "document": {"content_types": ["application/pdf"], "max_bytes": DOCUMENT_MAX_BYTES},
        })
    );
    assert_eq!(value["uploads"]["avatar"]["max_bytes"], 10 * 1024 * 1024);
}

#[test]
fn contact_labels_defaults_are_suggestions() {
    let value = json_of(false);
    for (kind, default) in [
        ("email_addresses", json!("home")),
        ("phone_numbers", json!("mobile")),
        ("social_profiles", Value::Null),
    ] {
        let labels = &value["contact_labels"][kind];
        assert_eq!(labels["default"], default, "{kind}");
        let suggestions = labels["suggestions"].as_array().unwrap();
        assert!(!suggestions.is_empty(), "{kind}");
        if !default.is_null() {
            assert!(suggestions.contains(&default), "{kind}");
        }
    }
    assert_eq!(value["contact_labels"].as_object().unwrap().len(), 3);
}

#[test]
fn colours_and_picker_icons() {
    assert!(COLORS.len() >= 12);
    assert_eq!(
        COLORS[0].key, "blue",
        "the first colour a blank colour takes"
    );
    assert!(PICKER_ICONS.contains(&DEFAULT_LIST_ICON));
    assert_eq!(DEFAULT_LIST_ICON, "list");
    assert!(PICKER_ICONS.len() >= 40);
    let unique: HashSet<_> = PICKER_ICONS.iter().collect();
    assert_eq!(unique.len(), PICKER_ICONS.len(), "picker icons repeat");
}

#[test]
fn project_statuses_open_and_tones() {
    let value = json_of(false);
    for (key, open, tone) in [
        ("planned", true, "neutral"),
        ("active", true, "info"),
        ("on_hold", true, "warning"),
        ("done", false, "success"),
        ("cancelled", false, "muted"),
    ] {
        let status = value["project_statuses"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["key"] == key)
            .unwrap();
        assert_eq!(status["open"], open, "{key}");
        assert_eq!(status["tone"], tone, "{key}");
        assert!(status["icon"].is_string(), "{key}");
    }
}

#[test]
fn sync_frequencies_and_calendar_sources() {
    let minutes: Vec<(&str, u32)> = CALENDAR_SYNC_FREQUENCIES
        .iter()
        .map(|f| (f.key, f.minutes))
        .collect();
    assert_eq!(
        minutes,
        [
            ("15_minutes", 15),
            ("30_minutes", 30),
            ("hourly", 60),
            ("6_hours", 360),
            ("daily", 1440)
        ]
    );
    let value = json_of(false);
    assert_eq!(
        value["calendar_sources"],
        json!([
            {"key": "google", "label": "Google Calendar", "url": "https://calendar.google.com"},
            {"key": "icloud", "label": "iCloud Calendar", "url": "https://www.icloud.com/calendar"},
            {"key": "outlook", "label": "Outlook.com Calendar", "url": "https://outlook.live.com/calendar"},
        ])
    );
}

#[test]
fn time_zones_are_the_picker() {
    let value = json_of(false);
    let zones = value["time_zones"].as_array().unwrap();
    assert_eq!(zones.len(), crate::time::zones().count());
    assert!(
        zones
            .iter()
            .all(|z| z["name"].is_string() && z["iana"].is_string())
    );
    assert!(
        zones
            .iter()
            .any(|z| z["name"] == "London" && z["iana"] == "Europe/London")
    );
}
