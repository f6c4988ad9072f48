//! The people lists of the vocabulary (document 3, "Person", "KeyDate",
//! "SocialProfile", "PersonLink"): relationships to the owner and their
//! groups, the roles that link two people, key date kinds, social platforms
//! and contact label suggestions.

use super::{
    Choice, ContactLabels, IconChoice, LabelChoices, PersonLinkChoice, RelationshipChoice,
};

/// The groups of relationships and person links. `GET /people?relationship=family`
/// means any relationship in the `family` group.
pub(crate) const RELATIONSHIP_GROUPS: &[IconChoice] = &[
    IconChoice {
        key: "family",
        label: "Family",
        icon: "house",
    },
    IconChoice {
        key: "friends",
        label: "Friends",
        icon: "heart",
    },
    IconChoice {
        key: "work",
        label: "Work",
        icon: "briefcase",
    },
    IconChoice {
        key: "community",
        label: "Community",
        icon: "users",
    },
    IconChoice {
        key: "other",
        label: "Other",
        icon: "user",
    },
];

/// Builds a relationship entry.
const fn rel(key: &'static str, label: &'static str, group: &'static str) -> RelationshipChoice {
    RelationshipChoice { key, label, group }
}

/// Relationships of a person to the owner: `parent` means this person is the
/// owner's parent.
pub(crate) const RELATIONSHIPS: &[RelationshipChoice] = &[
    rel("partner", "Partner", "family"),
    rel("spouse", "Spouse", "family"),
    rel("parent", "Parent", "family"),
    rel("child", "Child", "family"),
    rel("sibling", "Sibling", "family"),
    rel("grandparent", "Grandparent", "family"),
    rel("grandchild", "Grandchild", "family"),
    rel("aunt_uncle", "Aunt or uncle", "family"),
    rel("niece_nephew", "Niece or nephew", "family"),
    rel("cousin", "Cousin", "family"),
    rel("parent_in_law", "Parent-in-law", "family"),
    rel("child_in_law", "Child-in-law", "family"),
    rel("sibling_in_law", "Sibling-in-law", "family"),
    rel("step_parent", "Step-parent", "family"),
    rel("step_child", "Step-child", "family"),
    rel("step_sibling", "Step-sibling", "family"),
    rel("godparent", "Godparent", "family"),
    rel("godchild", "Godchild", "family"),
    rel("relative", "Other relative", "family"),
    rel("best_friend", "Best friend", "friends"),
    rel("close_friend", "Close friend", "friends"),
    rel("friend", "Friend", "friends"),
    rel("acquaintance", "Acquaintance", "friends"),
    rel("housemate", "Housemate", "friends"),
    rel("colleague", "Colleague", "work"),
    rel("manager", "Manager", "work"),
    rel("report", "Direct report", "work"),
    rel("client", "Client", "work"),
    rel("business_partner", "Business partner", "work"),
    rel("mentor", "Mentor", "work"),
    rel("mentee", "Mentee", "work"),
    rel("neighbour", "Neighbour", "community"),
    rel("classmate", "Classmate", "community"),
    rel("teacher", "Teacher", "community"),
    rel("student", "Student", "community"),
    rel("doctor", "Doctor", "community"),
    rel("ex_partner", "Ex-partner", "other"),
];

/// Builds a symmetric role: its own inverse.
const fn same(
    key: &'static str,
    label: &'static str,
    group: &'static str,
    synonyms: &'static [&'static str],
) -> PersonLinkChoice {
    PersonLinkChoice {
        key,
        label,
        group,
        inverse_key: key,
        inverse_label: label,
        symmetric: true,
        synonyms,
    }
}

/// Builds one direction of an asymmetric pair; the other direction is its own
/// entry (the tests check the two agree).
const fn one_way(
    (key, label): (&'static str, &'static str),
    (inverse_key, inverse_label): (&'static str, &'static str),
    group: &'static str,
    synonyms: &'static [&'static str],
) -> PersonLinkChoice {
    PersonLinkChoice {
        key,
        label,
        group,
        inverse_key,
        inverse_label,
        symmetric: false,
        synonyms,
    }
}

/// Parent.
const PARENT: (&str, &str) = ("parent", "Parent");
/// Child.
const CHILD: (&str, &str) = ("child", "Child");
/// Grandparent.
const GRANDPARENT: (&str, &str) = ("grandparent", "Grandparent");
/// Grandchild.
const GRANDCHILD: (&str, &str) = ("grandchild", "Grandchild");
/// Aunt or uncle.
const AUNT_UNCLE: (&str, &str) = ("aunt_uncle", "Aunt or uncle");
/// Niece or nephew.
const NIECE_NEPHEW: (&str, &str) = ("niece_nephew", "Niece or nephew");
/// Parent-in-law.
const PARENT_IN_LAW: (&str, &str) = ("parent_in_law", "Parent-in-law");
/// Child-in-law.
const CHILD_IN_LAW: (&str, &str) = ("child_in_law", "Child-in-law");
/// Step-parent.
const STEP_PARENT: (&str, &str) = ("step_parent", "Step-parent");
/// Step-child.
const STEP_CHILD: (&str, &str) = ("step_child", "Step-child");
/// Godparent.
const GODPARENT: (&str, &str) = ("godparent", "Godparent");
/// Godchild.
const GODCHILD: (&str, &str) = ("godchild", "Godchild");
/// Manager.
const MANAGER: (&str, &str) = ("manager", "Manager");
/// Direct report.
const REPORT: (&str, &str) = ("report", "Direct report");
/// Mentor.
const MENTOR: (&str, &str) = ("mentor", "Mentor");
/// Mentee.
const MENTEE: (&str, &str) = ("mentee", "Mentee");
/// Teacher.
const TEACHER: (&str, &str) = ("teacher", "Teacher");
/// Student.
const STUDENT: (&str, &str) = ("student", "Student");

/// Roles linking two people. A link of kind `parent` says its `person_id` is
/// the parent of its `related_person_id`; both directions of an asymmetric
/// pair are listed, each naming the other as its inverse.
pub(crate) const PERSON_LINKS: &[PersonLinkChoice] = &[
    same(
        "partner",
        "Partner",
        "family",
        &[
            "boyfriend",
            "girlfriend",
            "fiance",
            "fiancee",
            "fiancé",
            "fiancée",
            "significant other",
            "other half",
        ],
    ),
    same(
        "spouse",
        "Spouse",
        "family",
        &["husband", "wife", "married"],
    ),
    one_way(
        PARENT,
        CHILD,
        "family",
        &[
            "mum", "mom", "mother", "mam", "mummy", "mommy", "mama", "dad", "father", "daddy",
            "papa",
        ],
    ),
    one_way(CHILD, PARENT, "family", &["son", "daughter", "kid"]),
    same(
        "sibling",
        "Sibling",
        "family",
        &[
            "brother",
            "sister",
            "bro",
            "sis",
            "half-brother",
            "half-sister",
        ],
    ),
    one_way(
        GRANDPARENT,
        GRANDCHILD,
        "family",
        &[
            "grandmother",
            "grandfather",
            "grandma",
            "grandpa",
            "granny",
            "gran",
            "nan",
            "nana",
            "grandad",
            "granddad",
        ],
    ),
    one_way(
        GRANDCHILD,
        GRANDPARENT,
        "family",
        &["grandson", "granddaughter", "grandkid"],
    ),
    one_way(
        AUNT_UNCLE,
        NIECE_NEPHEW,
        "family",
        &["aunt", "auntie", "aunty", "uncle"],
    ),
    one_way(NIECE_NEPHEW, AUNT_UNCLE, "family", &["niece", "nephew"]),
    same("cousin", "Cousin", "family", &[]),
    one_way(
        PARENT_IN_LAW,
        CHILD_IN_LAW,
        "family",
        &["mother-in-law", "father-in-law"],
    ),
    one_way(
        CHILD_IN_LAW,
        PARENT_IN_LAW,
        "family",
        &["son-in-law", "daughter-in-law"],
    ),
    same(
        "sibling_in_law",
        "Sibling-in-law",
        "family",
        &["brother-in-law", "sister-in-law"],
    ),
    one_way(
        STEP_PARENT,
        STEP_CHILD,
        "family",
        &["stepmother", "stepfather", "stepmum", "stepmom", "stepdad"],
    ),
    one_way(
        STEP_CHILD,
        STEP_PARENT,
        "family",
        &["stepson", "stepdaughter"],
    ),
    same(
        "step_sibling",
        "Step-sibling",
        "family",
        &["stepbrother", "stepsister"],
    ),
    one_way(GODPARENT, GODCHILD, "family", &["godmother", "godfather"]),
    one_way(GODCHILD, GODPARENT, "family", &["godson", "goddaughter"]),
    same("relative", "Relative", "family", &["relation", "kin"]),
    same("best_friend", "Best friend", "friends", &["bff", "bestie"]),
    same("friend", "Friend", "friends", &["pal", "mate", "buddy"]),
    same("acquaintance", "Acquaintance", "friends", &[]),
    same(
        "housemate",
        "Housemate",
        "friends",
        &["roommate", "flatmate"],
    ),
    same(
        "colleague",
        "Colleague",
        "work",
        &["coworker", "co-worker", "workmate"],
    ),
    one_way(
        MANAGER,
        REPORT,
        "work",
        &["boss", "supervisor", "line manager"],
    ),
    one_way(
        REPORT,
        MANAGER,
        "work",
        &["direct report", "employee", "subordinate"],
    ),
    same(
        "business_partner",
        "Business partner",
        "work",
        &["co-founder", "cofounder"],
    ),
    one_way(MENTOR, MENTEE, "work", &["adviser", "advisor"]),
    one_way(
        MENTEE,
        MENTOR,
        "work",
        &["protege", "protégé", "apprentice"],
    ),
    same("neighbour", "Neighbour", "community", &["neighbor"]),
    same(
        "classmate",
        "Classmate",
        "community",
        &["schoolmate", "fellow student"],
    ),
    one_way(
        TEACHER,
        STUDENT,
        "community",
        &["tutor", "coach", "professor", "instructor"],
    ),
    one_way(STUDENT, TEACHER, "community", &["pupil", "trainee"]),
    same(
        "ex_partner",
        "Ex-partner",
        "other",
        &[
            "ex",
            "ex-husband",
            "ex-wife",
            "ex-boyfriend",
            "ex-girlfriend",
        ],
    ),
];

/// Kinds of a person's key date, as the spec lists them.
pub(crate) const KEY_DATE_KINDS: &[IconChoice] = &[
    IconChoice {
        key: "birthday",
        label: "Birthday",
        icon: "cake",
    },
    IconChoice {
        key: "anniversary",
        label: "Anniversary",
        icon: "heart",
    },
    IconChoice {
        key: "work_anniversary",
        label: "Work anniversary",
        icon: "briefcase",
    },
    IconChoice {
        key: "first_met",
        label: "First met",
        icon: "handshake",
    },
    IconChoice {
        key: "name_day",
        label: "Name day",
        icon: "sparkles",
    },
    IconChoice {
        key: "memorial",
        label: "Memorial",
        icon: "flower",
    },
    IconChoice {
        key: "other",
        label: "Other",
        icon: "calendar",
    },
];

/// Every value of a social profile's `platform`, in order: `website`, ten
/// social networks, then `other`.
pub(crate) const SOCIAL_PLATFORMS: &[Choice] = &[
    Choice {
        key: "website",
        label: "Website",
    },
    Choice {
        key: "linkedin",
        label: "LinkedIn",
    },
    Choice {
        key: "github",
        label: "GitHub",
    },
    Choice {
        key: "x",
        label: "X",
    },
    Choice {
        key: "mastodon",
        label: "Mastodon",
    },
    Choice {
        key: "bluesky",
        label: "Bluesky",
    },
    Choice {
        key: "instagram",
        label: "Instagram",
    },
    Choice {
        key: "facebook",
        label: "Facebook",
    },
    Choice {
        key: "threads",
        label: "Threads",
    },
    Choice {
        key: "youtube",
        label: "YouTube",
    },
    Choice {
        key: "tiktok",
        label: "TikTok",
    },
    Choice {
        key: "other",
        label: "Other",
    },
];

/// Suggested labels for a person's contact details.
pub(crate) const CONTACT_LABELS: ContactLabels = ContactLabels {
    email_addresses: LabelChoices {
        suggestions: &["home", "work", "other"],
        default: Some("home"),
    },
    phone_numbers: LabelChoices {
        suggestions: &["mobile", "home", "work", "other"],
        default: Some("mobile"),
    },
    social_profiles: LabelChoices {
        suggestions: &["personal", "work"],
        default: None,
    },
};
