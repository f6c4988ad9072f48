//! The lists and tasks the task tests build on, and the helpers they
//! share: making lists and tasks, reading every page of a listing, and the
//! twenty-task [`fixture`] with every kind of date. Over the in-process
//! [`Core`].

use std::collections::HashMap;

use serde_json::{Value, json};

use super::{Core, Reply, send};

/// A well-formed ULID that names nothing.
pub const UNKNOWN: &str = "01ARZ3NDEKTSV4RRFFQ69G5FAV";

/// The instant a default test server starts at, as the API writes it.
pub const START: &str = "2026-03-10T09:00:00.000Z";

/// Sets the owner's time zone (a picker name).
pub fn set_zone(s: &Core, zone: &str) {
    send(
        s.local("PATCH", "/me")
            .json(&json!({"me": {"time_zone": zone}})),
    )
    .expect(200);
}

/// Creates a task list; its id.
pub fn new_list(s: &Core, name: &str) -> String {
    let made = s
        .post("/task_lists", json!({"task_list": {"name": name}}))
        .expect(201);
    id(made.data())
}

/// Creates a task from `fields`; the record.
#[track_caller]
pub fn new_task(s: &Core, fields: Value) -> Value {
    s.post("/tasks", json!({ "task": fields }))
        .expect(201)
        .data()
        .clone()
}

/// `GET /tasks/{id}`, which must be 200.
#[track_caller]
pub fn get_task(s: &Core, task_id: &str) -> Value {
    s.get(&format!("/tasks/{task_id}"))
        .expect(200)
        .data()
        .clone()
}

/// `PATCH /tasks/{id}` with `{task: fields}`.
pub fn patch_task(s: &Core, task_id: &str, fields: Value) -> Reply {
    s.patch(&format!("/tasks/{task_id}"), json!({ "task": fields }))
}

/// A record's id.
pub fn id(record: &Value) -> String {
    record["id"].as_str().expect("an id").to_owned()
}

/// Appends `extra` to `path`'s query.
pub fn with_query(path: &str, extra: &str) -> String {
    let sep = if path.contains('?') { '&' } else { '?' };
    format!("{path}{sep}{extra}")
}

/// Every item of a listing, following `next_cursor` to the end.
#[track_caller]
pub fn all(s: &Core, path: &str) -> Vec<Value> {
    let mut items = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let url = match &cursor {
            None => with_query(path, "limit=100"),
            Some(c) => with_query(path, &format!("limit=100&cursor={c}")),
        };
        let page = s.get(&url).expect(200);
        items.extend(page.data().as_array().expect("a list").iter().cloned());
        match page.body["meta"]["next_cursor"].as_str() {
            Some(c) => cursor = Some(c.to_owned()),
            None => return items,
        }
    }
}

/// The titles of a listing, in order.
#[track_caller]
pub fn titles(s: &Core, path: &str) -> Vec<String> {
    all(s, path)
        .iter()
        .map(|t| t["title"].as_str().unwrap().to_owned())
        .collect()
}

/// The ids of a listing, in order.
#[track_caller]
pub fn ids(s: &Core, path: &str) -> Vec<String> {
    all(s, path).iter().map(id).collect()
}

/// The lists and tasks of [`fixture`]. Today is 2026-03-10 (UTC).
pub struct Fixture {
    pub list_a: String,
    pub list_b: String,
    /// Every task by title.
    pub tasks: HashMap<&'static str, Value>,
}

/// The fixture's tasks: (home, title, fields). Made in this order, one
/// second apart.
pub const FIXTURE: &[(&str, &str, &str)] = &[
    ("inbox", "inbox plain", r#"{}"#),
    (
        "inbox",
        "inbox starts today",
        r#"{"start_on": "2026-03-10"}"#,
    ),
    (
        "inbox",
        "inbox due later",
        r#"{"deadline_on": "2026-04-30"}"#,
    ),
    ("inbox", "inbox planned", r#"{"start_on": "2026-03-20"}"#),
    ("inbox", "inbox done", r#"{"status": "completed"}"#),
    ("a", "a plain", r#"{}"#),
    ("a", "a started", r#"{"start_on": "2026-03-01"}"#),
    ("a", "a planned late", r#"{"start_on": "2026-03-20"}"#),
    ("a", "a planned soon", r#"{"start_on": "2026-03-15"}"#),
    ("a", "a overdue", r#"{"deadline_on": "2026-03-05"}"#),
    ("a", "a due today", r#"{"deadline_on": "2026-03-10"}"#),
    ("a", "a due in 14", r#"{"deadline_on": "2026-03-24"}"#),
    ("a", "a due in 15", r#"{"deadline_on": "2026-03-25"}"#),
    (
        "a",
        "a started due soon",
        r#"{"start_on": "2026-03-08", "deadline_on": "2026-03-12"}"#,
    ),
    (
        "a",
        "a starts tomorrow due soon",
        r#"{"start_on": "2026-03-11", "deadline_on": "2026-03-12"}"#,
    ),
    ("a", "a archived", r#"{"status": "archived"}"#),
    ("a", "a wont do", r#"{"status": "wont_do"}"#),
    ("b", "b plain", r#"{}"#),
    (
        "b",
        "b overdue started",
        r#"{"start_on": "2026-03-02", "deadline_on": "2026-03-09"}"#,
    ),
    ("b", "b completed", r#"{"status": "completed"}"#),
];

/// Two lists, A and B, and twenty tasks over the Inbox, A and B with
/// every kind of date (see [`FIXTURE`]).
pub fn fixture(s: &Core) -> Fixture {
    let list_a = new_list(s, "A");
    let list_b = new_list(s, "B");
    let mut tasks = HashMap::new();
    for (home, title, fields) in FIXTURE {
        let mut fields: Value = serde_json::from_str(fields).unwrap();
        fields["title"] = json!(title);
        match *home {
            "a" => fields["task_list_id"] = json!(list_a),
            "b" => fields["task_list_id"] = json!(list_b),
            _ => {}
        }
        s.advance(1);
        tasks.insert(*title, new_task(s, fields));
    }
    s.advance(1);
    Fixture {
        list_a,
        list_b,
        tasks,
    }
}

impl Fixture {
    /// The fixture's tasks named by `titles`, sorted by `key`, as titles.
    pub fn sorted<K: Ord>(&self, titles: &[&str], key: impl Fn(&Value) -> K) -> Vec<String> {
        let mut picked: Vec<&Value> = titles.iter().map(|t| &self.tasks[t]).collect();
        picked.sort_by_key(|t| key(t));
        picked
            .iter()
            .map(|t| t["title"].as_str().unwrap().to_owned())
            .collect()
    }

    /// In the manual order: position, ties by id.
    pub fn by_position(&self, titles: &[&str]) -> Vec<String> {
        self.sorted(titles, |t| (t["position"].as_i64().unwrap(), id(t)))
    }

    /// By `deadline_on` (none last), ties by id.
    pub fn by_deadline(&self, titles: &[&str]) -> Vec<String> {
        self.sorted(titles, |t| {
            (
                t["deadline_on"].is_null(),
                t["deadline_on"].as_str().unwrap_or("").to_owned(),
                id(t),
            )
        })
    }
}

/// The open tasks of the fixture.
pub const OPEN: &[&str] = &[
    "inbox plain",
    "inbox starts today",
    "inbox due later",
    "inbox planned",
    "a plain",
    "a started",
    "a planned late",
    "a planned soon",
    "a overdue",
    "a due today",
    "a due in 14",
    "a due in 15",
    "a started due soon",
    "a starts tomorrow due soon",
    "b plain",
    "b overdue started",
];

/// A deleted list's id.
pub fn deleted_list(s: &Core) -> String {
    let gone = new_list(s, "Gone");
    s.delete(&format!("/task_lists/{gone}")).expect(204);
    gone
}

/// The clock's now, as the API writes it.
pub fn now_string(s: &Core) -> String {
    use organiser::clock::Clock;
    s.clock.now().strftime("%Y-%m-%dT%H:%M:%S%.3fZ").to_string()
}

/// Creates a person named `name`; its id.
#[track_caller]
pub fn person(s: &Core, name: &str) -> String {
    id(s.post("/people", json!({"person": {"name": name}}))
        .expect(201)
        .data())
}

/// The deletion records as (type, id), sorted.
#[track_caller]
pub fn deletions(s: &Core) -> Vec<(String, String)> {
    let mut records: Vec<(String, String)> = all(s, "/deletions")
        .iter()
        .map(|d| (d["type"].as_str().unwrap().to_owned(), id(d)))
        .collect();
    records.sort();
    records
}

/// (type, id) pairs, sorted, to compare with [`deletions`].
pub fn records(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    let mut records: Vec<(String, String)> = pairs
        .iter()
        .map(|(t, i)| ((*t).to_owned(), (*i).to_owned()))
        .collect();
    records.sort();
    records
}

/// `record` with `updated_at` replaced by `at`.
pub fn with_updated_at(record: &Value, at: &str) -> Value {
    let mut record = record.clone();
    record["updated_at"] = json!(at);
    record
}

/// The keys of a record (a JSON object), sorted.
pub fn keys(record: &Value) -> Vec<String> {
    let mut keys: Vec<String> = record.as_object().unwrap().keys().cloned().collect();
    keys.sort();
    keys
}

/// Walks the listing `path` with the page parameters `query`, following
/// `next_cursor` to the end: hands `each` every page's URL and reply.
#[track_caller]
pub fn walk_pages(s: &Core, path: &str, query: &str, mut each: impl FnMut(&str, &Reply)) {
    let mut cursor: Option<String> = None;
    loop {
        let mut url = with_query(path, query);
        if let Some(c) = &cursor {
            url = with_query(&url, &format!("cursor={c}"));
        }
        let page = s.get(&url).expect(200);
        each(&url, &page);
        match page.body["meta"]["next_cursor"].as_str() {
            Some(c) => cursor = Some(c.to_owned()),
            None => return,
        }
    }
}

/// `path` lists the ids `wanted`, in order, and so does walking it a page
/// of one at a time with `count=true`: every page holds one item, says
/// `limit` 1 and `total_count` the number wanted, and only the last has no
/// `next_cursor`.
#[track_caller]
pub fn assert_listed(s: &Core, path: &str, wanted: &[String]) {
    assert_eq!(ids(s, path), wanted, "{path}");
    let mut seen = Vec::new();
    walk_pages(s, path, "limit=1&count=true", |url, page| {
        let items = page.data().as_array().expect("a list");
        assert_eq!(page.body["meta"]["total_count"], wanted.len(), "{url}");
        assert_eq!(page.body["meta"]["limit"], 1, "{url}");
        let per_page = usize::from(!wanted.is_empty());
        assert_eq!(items.len(), per_page, "{url}: {}", page.body);
        seen.extend(items.iter().map(id));
        if page.body["meta"]["next_cursor"].is_string() {
            assert!(seen.len() < wanted.len(), "{url}: a cursor after the end");
        }
    });
    assert_eq!(seen, wanted, "{path} by one");
}

/// A well-formed one-page PDF (with a correct cross-reference table),
/// different for each `label`: it starts with `%PDF-` and ends with
/// `%%EOF`.
pub fn pdf(label: &str) -> Vec<u8> {
    let stream = format!("0 0 1 rg 20 20 160 60 re f BT /F1 12 Tf 30 50 Td ({label}) Tj ET");
    let objects = [
        "<< /Type /Catalog /Pages 2 0 R >>".to_owned(),
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_owned(),
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] /Contents 4 0 R \
         /Resources << /Font << /F1 5 0 R >> >> >>"
            .to_owned(),
        format!(
            "<< /Length {} >>\nstream\n{stream}\nendstream",
            stream.len()
        ),
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_owned(),
    ];
    let mut out = b"%PDF-1.4\n".to_vec();
    let mut offsets = Vec::new();
    for (n, object) in objects.iter().enumerate() {
        offsets.push(out.len());
        out.extend(format!("{} 0 obj\n{object}\nendobj\n", n + 1).bytes());
    }
    let xref = out.len();
    out.extend(format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).bytes());
    for offset in offsets {
        out.extend(format!("{offset:010} 00000 n \n").bytes());
    }
    out.extend(
        format!(
            "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
            objects.len() + 1
        )
        .bytes(),
    );
    out
}

/// `text` as a query value (spaces, accents and the like escaped).
pub fn escaped(text: &str) -> String {
    text.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}
