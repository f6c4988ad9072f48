//! `organiser people`: the listing with row numbers, show, add, edit,
//! link, rm and restore; `organiser birthdays`; `tasks add --person`;
//! `--json` in the API's shape.

use jiff::ToSpan;

use crate::tasks::{listing, page, record, today_utc, undo_command};
use crate::util::{Dir, shape};

/// Adds a person with `--json`; returns the record.
#[track_caller]
fn add(dir: &Dir, name: &str, extra: &[&str]) -> serde_json::Value {
    let mut args = vec!["people", "add", name];
    args.extend_from_slice(extra);
    let made = dir.json(&args);
    let person = record(&made).clone();
    assert_eq!(person["name"], name, "{made}");
    person
}

/// The value rows of `people show`, as (label, value); a row under the
/// label above it keeps that label.
#[track_caller]
fn shown(dir: &Dir, person: &str) -> (String, Vec<(String, String)>) {
    let out = dir.ok(&["people", "show", person]);
    out.assert_no_ansi();
    assert_eq!(out.stderr, "", "{out:?}");
    let mut lines = out.stdout.lines();
    let name = lines.next().expect("the name").to_owned();
    let mut rows = Vec::new();
    let mut label = String::new();
    for line in lines {
        // Columns are two spaces apart at least; a row without a label
        // starts with spaces.
        let (l, v) = match line.find("  ") {
            Some(0) => ("", line.trim()),
            Some(at) => (line[..at].trim(), line[at..].trim()),
            None => (line.trim(), ""),
        };
        if !l.is_empty() {
            label = l.to_owned();
        }
        rows.push((label.clone(), v.to_owned()));
    }
    (name, rows)
}

fn has(rows: &[(String, String)], label: &str, value: &str) -> bool {
    rows.iter().any(|(l, v)| l == label && v == value)
}

#[test]
fn add_with_contact_details_and_a_birthday_then_show_lists_them() {
    let dir = Dir::new();
    let out = dir.ok(&[
        "people",
        "add",
        "Ada",
        "Lovelace",
        "--email",
        "ada@example.org",
        "--email",
        "ada@work.example",
        "--phone",
        "+44 20 7946 0000",
        "--birthday",
        "1915-12-10",
        "--relationship",
        "friend",
    ]);
    assert!(out.stdout.starts_with("Added Ada Lovelace ("), "{out:?}");
    let (name, rows) = shown(&dir, "ada lovelace");
    assert_eq!(name, "Ada Lovelace");
    assert!(has(&rows, "Relationships", "Friend"), "{rows:?}");
    assert!(has(&rows, "Email", "ada@example.org"), "{rows:?}");
    assert!(has(&rows, "Email", "ada@work.example"), "{rows:?}");
    assert!(has(&rows, "Phone", "+44 20 7946 0000"), "{rows:?}");
    let birthday = rows
        .iter()
        .find(|(l, _)| l == "Birthday")
        .map(|(_, v)| v.clone())
        .unwrap_or_else(|| panic!("no birthday: {rows:?}"));
    assert!(birthday.starts_with("1915-12-10 · next "), "{birthday}");
    assert!(birthday.ends_with(" years)"), "{birthday}");

    // A birthday without its year, and edit: a new name, one more email
    // address, another relationship set; the birthday replaced.
    add(&dir, "Byron", &["--birthday", "--05-17"]);
    let (_, rows) = shown(&dir, "byron");
    assert!(
        rows.iter()
            .any(|(l, v)| l == "Birthday" && v.starts_with("--05-17 · next ")),
        "{rows:?}"
    );
    let out = dir.ok(&[
        "people",
        "edit",
        "byron",
        "--name",
        "Lord Byron",
        "--add-email",
        "byron@example.org",
        "--relationship",
        "cousin",
        "--birthday",
        "1988-01-22",
    ]);
    assert_eq!(out.stdout, "Changed Lord Byron\n");
    let person = record(&dir.json(&["people", "show", "lord byron"])).clone();
    assert_eq!(person["email_addresses"][0]["address"], "byron@example.org");
    assert_eq!(person["relationships"], serde_json::json!(["cousin"]));
    let dates = person["key_dates"].as_array().unwrap();
    assert_eq!(dates.len(), 1, "{person}");
    assert_eq!(
        (dates[0]["month"].as_i64(), dates[0]["year"].as_i64()),
        (Some(1), Some(1988))
    );
    // Named in words, unquoted; `--birthday none` clears it, and again
    // when there is none to clear.
    for _ in 0..2 {
        let out = dir.ok(&["people", "edit", "Lord", "Byron", "--birthday", "none"]);
        assert_eq!(out.stdout, "Changed Lord Byron\n");
        let person = record(&dir.json(&["people", "show", "Lord", "Byron"])).clone();
        assert_eq!(person["key_dates"], serde_json::json!([]), "{person}");
    }
}

#[test]
fn mistakes_name_the_flags() {
    let dir = Dir::new();
    // The API judges the fields; the CLI names the flags.
    let said = dir
        .run(&["people", "add", "Ada", "--email", "nope"])
        .error();
    assert!(said.starts_with("--email "), "{said}");
    let said = dir
        .run(&["people", "add", "Ada", "--birthday", "1990-13-45"])
        .error();
    assert!(said.contains("--birthday"), "{said}");
    let said = dir
        .run(&["people", "add", "Ada", "--relationship", "pal"])
        .error();
    assert!(said.starts_with("--relationship "), "{said}");
    let said = dir.run(&["people", "--relationship", "pal"]).error();
    assert!(said.contains("--relationship"), "{said}");
    // Usage mistakes, found before anything is asked: exit 2.
    let out = dir.run(&["people", "add", "Ada", "--birthday", "tomorrow"]);
    assert_eq!(out.code(), Some(2), "{out:?}");
    assert!(out.stderr.contains("--birthday"), "{out:?}");
    add(&dir, "Ada", &[]);
    let out = dir.run(&["people", "edit", "ada"]);
    assert_eq!(out.code(), Some(2), "{out:?}");
    assert!(out.stderr.contains("nothing to change"), "{out:?}");
    let out = dir.run(&["tasks", "add", "x", "--person", "ada", "--list", "y"]);
    assert_eq!(out.code(), Some(2), "{out:?}");
    // A name no one has.
    let said = dir.run(&["people", "show", "Nobody"]).error();
    assert!(
        said.contains("there is no person named \"Nobody\""),
        "{said}"
    );
}

#[test]
fn the_listing_numbers_its_rows() {
    let dir = Dir::new();
    let out = dir.ok(&["people"]);
    assert_eq!(out.stdout, "People · 0 people\nNothing here.\n");
    add(
        &dir,
        "Cleo",
        &["--email", "cleo@example.org", "--phone", "555 0101"],
    );
    add(&dir, "alan", &["--relationship", "sibling"]);
    add(
        &dir,
        "Bea",
        &["--relationship", "friend", "--relationship", "colleague"],
    );
    let table = listing(&dir.ok(&["people"]));
    assert_eq!(table.header, "People · 3 people");
    assert_eq!(table.column("NAME"), ["alan", "Bea", "Cleo"]);
    assert_eq!(table.column("#"), ["1", "2", "3"]);
    assert_eq!(
        table.column("RELATIONSHIPS"),
        ["Sibling", "Friend, Colleague", ""]
    );
    assert_eq!(table.column("EMAIL"), ["", "", "cleo@example.org"]);
    assert_eq!(table.column("PHONE"), ["", "", "555 0101"]);
    let (name, _) = shown(&dir, "2");
    assert_eq!(name, "Bea");

    // --relationship filters (family takes any family one), and the rows
    // then number that listing.
    let table = listing(&dir.ok(&["people", "--relationship", "family"]));
    assert_eq!(table.header, "People · family · 1 person");
    assert_eq!(table.column("NAME"), ["alan"]);
    let (name, _) = shown(&dir, "1");
    assert_eq!(name, "alan");

    // --limit shows the first ones and says how many more.
    let out = dir.ok(&["people", "--limit", "2"]);
    assert!(
        out.stdout.ends_with("… and 1 more (--limit, --all)\n"),
        "{out:?}"
    );
    let all = dir.json(&["people", "--all"]);
    assert_eq!(page(&all).len(), 3);
}

#[test]
fn rm_prints_the_undo_and_restore_takes_the_short_id() {
    let dir = Dir::new();
    let ada = add(&dir, "Ada", &[]);
    let id = ada["id"].as_str().unwrap();
    let out = dir.ok(&["people", "rm", "ada"]);
    assert!(
        out.stdout
            .starts_with("Deleted Ada. Undo within 20 seconds: organiser --data-dir "),
        "{out:?}"
    );
    let undo = undo_command(&out);
    assert_eq!(undo[undo.len() - 3..], ["people", "restore", id]);
    assert_eq!(listing(&dir.ok(&["people"])).rows.len(), 0);
    let short = &id[id.len() - 6..];
    let out = dir.ok(&["people", "restore", &short.to_lowercase()]);
    assert_eq!(out.stdout, "Restored Ada\n");
    let out = dir.ok(&["people", "restore", short]);
    assert_eq!(out.stdout, "Ada is not deleted: nothing to restore\n");
    // --json: the deletion as {data: {deleted}}.
    let said = dir.json(&["people", "rm", short]);
    assert_eq!(said, serde_json::json!({"data": {"deleted": id}}));
}

#[test]
fn link_by_names_shows_on_both_people() {
    let dir = Dir::new();
    add(&dir, "Ada", &[]);
    add(&dir, "Byron", &[]);
    let out = dir.ok(&["people", "link", "ada", "mum", "Byron"]);
    assert_eq!(out.stdout, "Linked: Ada is Byron's parent\n");
    let (_, rows) = shown(&dir, "Byron");
    assert!(has(&rows, "Connection", "Ada (parent)"), "{rows:?}");
    let (_, rows) = shown(&dir, "Ada");
    assert!(has(&rows, "Connection", "Byron (child)"), "{rows:?}");
    // The other way round, by key: a second role of the pair.
    let out = dir.ok(&["people", "link", "byron", "Sibling", "ada"]);
    assert_eq!(out.stdout, "Linked: Byron is Ada's sibling\n");
    let (_, rows) = shown(&dir, "Ada");
    assert!(has(&rows, "Connection", "Byron (sibling)"), "{rows:?}");
    let said = dir
        .run(&["people", "link", "ada", "frenemy", "byron"])
        .error();
    assert!(
        said.starts_with("\"frenemy\" is not a role: one of partner, "),
        "{said}"
    );
    let made = dir.json(&["people", "link", "ada", "aunt uncle", "byron"]);
    let link = record(&made);
    assert_eq!(link["kind"], "aunt_uncle", "{made}");
    let out = dir.ok(&["people", "rm", "ada"]);
    assert!(
        out.stdout
            .starts_with("Deleted Ada and their 3 links. Undo"),
        "{out:?}"
    );
}

#[test]
fn birthdays_shows_the_window() {
    let dir = Dir::new();
    let today = today_utc();
    let soon = today + 3.days();
    let later = today + 40.days();
    let md = |d: jiff::civil::Date| format!("1992-{:02}-{:02}", d.month(), d.day());
    add(&dir, "Soon", &["--birthday", &md(soon)]);
    add(&dir, "Later", &["--birthday", &md(later)]);
    let table = listing(&dir.ok(&["birthdays", "--days", "7"]));
    assert_eq!(table.header, "Key dates · the next 7 days");
    assert_eq!(table.column("NAME"), ["Soon"]);
    assert_eq!(table.column("DATE"), [soon.to_string()]);
    assert_eq!(table.column("KIND"), ["Birthday"]);
    assert_eq!(table.column("YEARS"), [(soon.year() - 1992).to_string()]);
    let table = listing(&dir.ok(&["birthdays", "--days", "60"]));
    assert_eq!(table.column("NAME"), ["Soon", "Later"]);
    let out = dir.ok(&["birthdays", "--days", "1"]);
    assert_eq!(out.stdout, "Key dates · the next 1 day\nNothing here.\n");
    let body = dir.json(&["birthdays", "--days", "60"]);
    assert_eq!(body["data"].as_array().unwrap().len(), 2, "{body}");
    assert_eq!(body["meta"]["has_more"], false, "{body}");
    let said = dir.run(&["birthdays", "--days", "400"]).error();
    assert!(said.starts_with("--days "), "{said}");
}

#[test]
fn tasks_add_person_then_show_lists_the_task() {
    let dir = Dir::new();
    add(&dir, "Ada", &[]);
    let made = dir.json(&["tasks", "add", "Call", "Ada", "--person", "ada"]);
    let task = record(&made);
    let id = task["id"].as_str().unwrap();
    let person = record(&dir.json(&["people", "show", "ada"])).clone();
    assert_eq!(task["person_id"], person["id"], "{made}");
    let (_, rows) = shown(&dir, "ada");
    assert!(
        has(&rows, "Task", &format!("{} Call Ada", &id[id.len() - 6..])),
        "{rows:?}"
    );
    // The task views name the person a task is homed in.
    dir.ok(&["tasks", "edit", id, "--start", "today"]);
    let today = dir.ok(&["tasks"]);
    let row = today
        .stdout
        .lines()
        .find(|l| l.contains("Call Ada"))
        .unwrap_or_else(|| panic!("{today:?}"));
    assert!(
        row.contains(" Ada "),
        "the HOME column names the person: {row}"
    );
    assert!(!row.contains("(person)"), "{row}");
}

#[test]
fn an_ambiguous_name_lists_the_candidates() {
    let dir = Dir::new();
    let one = add(&dir, "Sam Smith", &[]);
    let two = add(&dir, "Sam Smith", &[]);
    let said = dir.run(&["people", "show", "sam smith"]).error();
    assert!(said.starts_with("\"sam smith\" names 2 people: "), "{said}");
    for person in [&one, &two] {
        let id = person["id"].as_str().unwrap();
        assert!(
            said.contains(&format!("{} Sam Smith", &id[id.len() - 6..])),
            "{said}"
        );
    }
    assert!(
        said.contains("give more of the ID, or a row number"),
        "{said}"
    );
}

#[test]
fn json_prints_the_api_body() {
    let dir = Dir::new();
    let made = dir.json(&["people", "add", "Ada", "--email", "ada@example.org"]);
    let person = record(&made);
    assert_eq!(person["email_addresses"][0]["address"], "ada@example.org");
    let listed = dir.json(&["people"]);
    let items = page(&listed);
    assert_eq!(items.len(), 1);
    assert_eq!(shape(&items[0]), shape(person));
    let shown = dir.json(&["people", "show", "ada"]);
    assert_eq!(record(&shown)["id"], person["id"]);
    assert_eq!(shape(&shown), shape(&made));
}

/// The people commands work through a running server unchanged: the same
/// output, the server's store changed.
#[test]
fn the_people_commands_work_through_a_running_server() {
    let dir = Dir::new();
    let server = dir.serve();
    let out = dir.ok(&[
        "people",
        "add",
        "Ada",
        "Lovelace",
        "--email",
        "ada@example.org",
    ]);
    assert!(out.stdout.contains("Ada Lovelace"), "{out:?}");
    dir.ok(&["people", "add", "Byron"]);
    let out = dir.ok(&["people", "link", "Byron", "parent", "Ada"]);
    assert!(out.stdout.starts_with("Linked"), "{out:?}");
    let (name, rows) = shown(&dir, "ada");
    assert_eq!(name, "Ada Lovelace");
    assert!(has(&rows, "Email", "ada@example.org"), "{rows:?}");
    let listed = dir.json(&["people"]);
    assert_eq!(listed["data"].as_array().unwrap().len(), 2);
    assert!(server.stop().success());
    // The store the server held has them.
    assert_eq!(dir.json(&["people"])["data"].as_array().unwrap().len(), 2);
}
