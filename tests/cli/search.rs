//! `organiser search` (issue 13): every type's best matches in one table,
//! each line with its type, title, details and the command that opens it;
//! `--type` and `--limit`; the hint for more; `--json`; the same answer
//! through a running server; and what it refuses.

use crate::util::Dir;

/// A store with a person, a project, a task list with a task, a note and
/// a folder that all answer to "harbour" (one misspelt).
fn store() -> Dir {
    let dir = Dir::new();
    dir.ok(&[
        "people",
        "add",
        "Zoë",
        "Harbour",
        "--email",
        "zoe@harbour.example",
        "--phone",
        "+44 20 7946 0958",
    ]);
    dir.ok(&["projects", "add", "Harbour", "wall"]);
    dir.ok(&["lists", "add", "Harbour jobs"]);
    dir.ok(&[
        "tasks",
        "add",
        "Paint",
        "the",
        "harbor",
        "fence",
        "--list",
        "Harbour jobs",
    ]);
    dir.ok(&["notes", "add", "Tides at the harbour"]);
    dir.ok(&["folders", "add", "Harbour", "papers"]);
    dir
}

#[test]
fn search_prints_each_match_with_the_command_that_opens_it() {
    let dir = store();
    let out = dir.ok(&["search", "harbour"]);
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert!(lines[0].starts_with("TYPE"), "{out:?}");
    let kinds: Vec<&str> = lines[1..]
        .iter()
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    // The API's order: people, projects, notes, tasks, ..., lists, folders.
    assert_eq!(
        kinds,
        ["person", "project", "note", "task", "list", "folder"],
        "{out:?}"
    );
    let line = |kind: &str| *lines.iter().find(|l| l.starts_with(kind)).unwrap();
    assert!(line("person").contains("Zoë Harbour"), "{out:?}");
    assert!(line("person").contains("zoe@harbour.example"), "{out:?}");
    // The misspelt title is found, and its list is its details.
    assert!(line("task").contains("Paint the harbor fence"), "{out:?}");
    assert!(line("task").contains("Harbour jobs"), "{out:?}");
    // Each command opens what it names.
    for (kind, title) in [
        ("person", "Zoë Harbour"),
        ("project", "Harbour wall"),
        ("note", "Tides at the harbour"),
        ("task", "Paint the harbor fence"),
        ("list", "Paint the harbor fence"),
        ("folder", "Harbour papers"),
    ] {
        let command = line(kind).split("organiser --data-dir ").nth(1).unwrap();
        let words: Vec<&str> = command.split_whitespace().skip(1).collect();
        let opened = dir.ok(&words);
        assert!(
            opened.stdout.contains(title),
            "{kind}: {command}: {opened:?}"
        );
    }
}

#[test]
fn search_takes_types_a_limit_and_phone_digits() {
    let dir = store();
    let out = dir.ok(&["search", "harbour", "--type", "folder,task_list"]);
    assert_eq!(out.stdout.lines().count(), 3, "{out:?}");
    let out = dir.ok(&["search", "020", "7946-0958", "--type", "person"]);
    assert!(out.stdout.contains("Zoë Harbour"), "{out:?}");
    for n in 0..3 {
        dir.ok(&["tasks", "add", "Harbour", "report", &n.to_string()]);
    }
    let out = dir.ok(&[
        "search", "harbour", "report", "--type", "task", "--limit", "2",
    ]);
    assert_eq!(out.stdout.lines().count(), 4, "{out:?}");
    let more = out.stdout.lines().last().unwrap();
    assert!(
        more.starts_with("More tasks: organiser --data-dir "),
        "{out:?}"
    );
    assert!(
        more.ends_with("search harbour report --type task --limit 25"),
        "{out:?}"
    );
    let out = dir.ok(&["search", "nothing", "like", "it"]);
    assert_eq!(out.stdout, "Nothing found for \"nothing like it\".\n");
}

#[test]
fn search_prints_the_api_s_json_and_refuses_what_it_refuses() {
    let dir = store();
    let body = dir.json(&["search", "harbour", "--type", "project"]);
    assert_eq!(body["data"][0]["type"], "project");
    assert_eq!(body["data"][0]["results"][0]["title"], "Harbour wall");
    assert_eq!(body["data"][0]["has_more"], false);
    // The API's 400, said on one line.
    let long = "a".repeat(201);
    let said = dir.run(&["search", &long]).error();
    assert!(said.contains("Q is too long"), "{said}");
    dir.run(&["search", "x", "--type", "people"]).failure(2);
    dir.run(&["search"]).failure(2);
}

#[test]
fn search_through_a_running_server_says_the_same() {
    let dir = store();
    let alone = dir.ok(&["search", "harbour"]).stdout;
    let _server = dir.serve();
    assert_eq!(dir.ok(&["search", "harbour"]).stdout, alone);
}

#[test]
fn search_on_a_directory_without_a_store_makes_none() {
    let dir = Dir::empty();
    let said = dir.run(&["search", "x"]).error();
    assert!(said.contains("there is no store"), "{said}");
    assert!(!dir.data().join("organiser.redb").exists());
}

/// At 80 columns the table wraps at spaces and never breaks the command
/// to paste, an e-mail address or a link in the middle (issue 22).
#[test]
fn at_80_columns_commands_addresses_and_links_stay_whole() {
    let dir = Dir::new();
    dir.ok(&[
        "people",
        "add",
        "Ada",
        "Lovelace",
        "--email",
        "ada.lovelace@analytical-engines.example.org",
    ]);
    let out = dir
        .cmd(&["search", "ada"])
        .env("NO_COLOR", "1")
        .on_terminal_of(Some(80))
        .run()
        .success();
    let text = out.stdout.replace('\r', "");
    let command = format!("--data-dir {} people show", dir.data().display());
    assert!(
        text.lines().any(|l| l.contains(&command)),
        "the command whole on one line:\n{text}"
    );
    let out = dir
        .cmd(&["people"])
        .env("NO_COLOR", "1")
        .on_terminal_of(Some(80))
        .run()
        .success();
    let text = out.stdout.replace('\r', "");
    assert!(
        text.contains("ada.lovelace@analytical-engines.example.org"),
        "the address whole:\n{text}"
    );
}
