//! The search tests' world and table of cases (document 1, "Search"),
//! shared by the rule tests (`tests/rules/search`, in process) and the
//! transport tests (`tests/http/search.rs`, the same table over HTTP).

use serde_json::{Value, json};

use super::fixtures::{id, pdf};
use super::{Call, Core, Expect, check};

/// Creates a record by `POST /{collection}` with `{singular: fields}`; its
/// id.
#[track_caller]
pub fn make(s: &Core, collection: &str, singular: &str, fields: Value) -> String {
    id(
        s.post(&format!("/{collection}"), json!({ singular: fields }))
            .expect(201)
            .data(),
    )
}

/// A person; its id.
pub fn person(s: &Core, fields: Value) -> String {
    make(s, "people", "person", fields)
}

/// A project; its id.
pub fn project(s: &Core, fields: Value) -> String {
    make(s, "projects", "project", fields)
}

/// A note; its id.
pub fn note(s: &Core, fields: Value) -> String {
    make(s, "notes", "note", fields)
}

/// A task; its id.
pub fn task(s: &Core, fields: Value) -> String {
    make(s, "tasks", "task", fields)
}

/// A task list named `name`; its id.
pub fn list(s: &Core, name: &str) -> String {
    make(s, "task_lists", "task_list", json!({ "name": name }))
}

/// A folder; its id.
pub fn folder(s: &Core, fields: Value) -> String {
    make(s, "folders", "folder", fields)
}

/// A document named `name`, made from an uploaded PDF; its id.
#[track_caller]
pub fn document(s: &Core, name: &str) -> String {
    let upload = check(
        s,
        Call::upload(
            "kind=document&filename=scan.pdf",
            "application/pdf",
            pdf(name),
        ),
        Expect::status(201),
    );
    let signed = upload.data()["signed_id"].as_str().unwrap().to_owned();
    make(
        s,
        "documents",
        "document",
        json!({"upload": signed, "name": name}),
    )
}

/// People, projects, notes, tasks, documents, task lists and folders with
/// names in several scripts, accents, emails, phones and links.
pub fn world() -> Core {
    let s = Core::start();
    let zoe = person(
        &s,
        json!({
            "name": "Zoë Ångström",
            "email_addresses": [{"address": "zoe@example.org"}],
            "phone_numbers": [{"number": "+44 20 7946 0958"}],
            "social_profiles": [{"url": "https://www.linkedin.com/in/zoe-angstrom"}],
        }),
    );
    person(
        &s,
        json!({
            "name": "Bartholomew Higgins",
            "email_addresses": [{"address": "bart@higgins.dev"}],
            "phone_numbers": [{"number": "(555) 010-4477"}],
        }),
    );
    person(&s, json!({"name": "Ann Lee"}));
    person(&s, json!({"name": "Jose Muller"}));
    let kitchen = project(
        &s,
        json!({"name": "Kitchen Renovation", "external_reference": "JIRA-4521"}),
    );
    project(&s, json!({"name": "Garden Shed", "status": "done"}));
    project(&s, json!({"name": "Garden Party"}));
    note(
        &s,
        json!({
            "title": "Holiday plans",
            "body_html": format!(
                "<p>Ask <span data-mention=\"{zoe}\">@Zoë Ångström</span> about \
                 <span data-project=\"{kitchen}\">^Kitchen Renovation</span> #travel</p>"
            ),
        }),
    );
    note(
        &s,
        json!({"body_html": "<p>Quarterly numbers look good</p>"}),
    );
    task(&s, json!({"title": "Call the plumber"}));
    task(&s, json!({"title": "Café order"}));
    document(&s, "Passport scan");
    document(&s, "Insurance policy 2026");
    list(&s, "Groceries");
    list(&s, "Work projects");
    let receipts = folder(&s, json!({"name": "Receipts"}));
    folder(&s, json!({"name": "Tax returns", "parent_id": receipts}));
    s
}

/// (type, query, titles found, best first).
pub const CASES: &[(&str, &str, &[&str])] = &[
    // People by name: accents in the record, in the query, both.
    ("person", "zoe", &["Zoë Ångström"]),
    ("person", "ANGSTROM", &["Zoë Ångström"]),
    ("person", "ångström", &["Zoë Ångström"]),
    ("person", "josé müller", &["Jose Muller"]),
    // Prefix words, in any order; every word must match.
    ("person", "ang zo", &["Zoë Ångström"]),
    ("person", "zoe lee", &[]),
    // One edit from 4 to 7 letters (a transposition is one)...
    ("person", "angstrm", &["Zoë Ångström"]),
    ("person", "higgisn", &["Bartholomew Higgins"]),
    ("person", "higins", &["Bartholomew Higgins"]),
    ("person", "hgins", &[]),
    // ...none below 4 letters...
    ("person", "anm", &[]),
    // ...two from 8 letters.
    ("person", "bartolomwe", &["Bartholomew Higgins"]),
    ("person", "brtholomwe", &["Bartholomew Higgins"]),
    ("person", "brtolomwe", &[]),
    // Email, whole or in part.
    ("person", "zoe@example.org", &["Zoë Ångström"]),
    ("person", "example.org", &["Zoë Ångström"]),
    ("person", "higgins.dev", &["Bartholomew Higgins"]),
    // Phone digits, however the number or the query is punctuated.
    ("person", "+44 20 7946 0958", &["Zoë Ångström"]),
    ("person", "+442079460958", &["Zoë Ångström"]),
    ("person", "020 7946 0958", &["Zoë Ångström"]),
    ("person", "(020) 7946-0958", &["Zoë Ångström"]),
    ("person", "7946", &["Zoë Ångström"]),
    ("person", "555-010-4477", &["Bartholomew Higgins"]),
    ("person", "5550104477", &["Bartholomew Higgins"]),
    ("person", "0104", &["Bartholomew Higgins"]),
    ("person", "44", &[]),
    // A profile link.
    ("person", "linkedin.com/in/zoe-angstrom", &["Zoë Ångström"]),
    (
        "person",
        "https://www.linkedin.com/in/zoe-angstrom",
        &["Zoë Ångström"],
    ),
    // Projects by name (prefix words, misspellings) or reference; open
    // ones first.
    ("project", "kitchen", &["Kitchen Renovation"]),
    ("project", "kit ren", &["Kitchen Renovation"]),
    ("project", "renovaiton", &["Kitchen Renovation"]),
    ("project", "JIRA-4521", &["Kitchen Renovation"]),
    ("project", "jira", &["Kitchen Renovation"]),
    ("project", "garden", &["Garden Party", "Garden Shed"]),
    ("project", "gardne", &["Garden Party", "Garden Shed"]),
    // Notes by title, tag names, mentioned people's names, referenced
    // projects' names, or text; prefix words, no misspellings.
    ("note", "holiday", &["Holiday plans"]),
    ("note", "travel", &["Holiday plans"]),
    ("note", "zoe angstrom", &["Holiday plans"]),
    ("note", "kitchen renovation", &["Holiday plans"]),
    (
        "note",
        "quarterly numbers",
        &["Quarterly numbers look good"],
    ),
    ("note", "quart", &["Quarterly numbers look good"]),
    ("note", "quartelry", &[]),
    // Tasks by title (prefix words, misspellings).
    ("task", "plumber", &["Call the plumber"]),
    ("task", "plum", &["Call the plumber"]),
    ("task", "plumbre", &["Call the plumber"]),
    ("task", "cafe", &["Café order"]),
    ("task", "CAFÉ", &["Café order"]),
    // Documents by name (prefix words, misspellings).
    ("document", "passport", &["Passport scan"]),
    ("document", "pasport", &["Passport scan"]),
    ("document", "insurance 2026", &["Insurance policy 2026"]),
    ("document", "ins pol", &["Insurance policy 2026"]),
    // Task lists and folders by name (prefix words; no misspellings).
    ("task_list", "groc", &["Groceries"]),
    ("task_list", "work proj", &["Work projects"]),
    ("task_list", "grocereis", &[]),
    ("folder", "rece", &["Receipts"]),
    ("folder", "tax", &["Tax returns"]),
    ("folder", "reciepts", &[]),
    // Nothing matches words that are not there, or punctuation alone.
    ("person", "nobody", &[]),
    ("task", "!!!", &[]),
];
