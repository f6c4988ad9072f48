//! `organiser projects`: the listing (open projects by default, `--status`,
//! `--limit`, `--all`) with row numbers, show, add, edit, rm and restore,
//! `member add` and `member rm`; `organiser deadlines`; `tasks add
//! --project` and the project as a task's home; `--json` in the API's
//! shape; mistakes named by the flags; the same through a running server.

use serde_json::Value;

use crate::tasks::{day, listing, page, record, said_day, short, undo_command};
use crate::util::{Dir, shape, today};

/// `projects add NAME EXTRA... --json`: the new project.
#[track_caller]
fn add(dir: &Dir, name: &str, extra: &[&str]) -> Value {
    let mut args = vec!["projects", "add", name];
    args.extend_from_slice(extra);
    let made = dir.json(&args);
    let project = record(&made).clone();
    assert_eq!(project["name"], name, "{made}");
    project
}

/// `projects show P --json`: the project.
#[track_caller]
fn project(dir: &Dir, reference: &str) -> Value {
    record(&dir.json(&["projects", "show", reference])).clone()
}

/// The rows of `projects show`, as (label, value); a row under the label
/// above it keeps that label; and the text after the first blank line.
#[track_caller]
fn shown(dir: &Dir, reference: &str) -> (String, Vec<(String, String)>, String) {
    let out = dir.ok(&["projects", "show", reference]);
    out.assert_no_ansi();
    assert_eq!(out.stderr, "", "{out:?}");
    let (table, description) = match out.stdout.split_once("\n\n") {
        Some((table, text)) => (table.to_owned(), text.trim_end().to_owned()),
        None => (out.stdout.clone(), String::new()),
    };
    let mut lines = table.lines();
    let name = lines.next().expect("the name").to_owned();
    let mut rows = Vec::new();
    let mut label = String::new();
    for line in lines {
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
    (name, rows, description)
}

/// The values of the rows labelled `label`.
fn values<'r>(rows: &'r [(String, String)], label: &str) -> Vec<&'r str> {
    rows.iter()
        .filter(|(l, _)| l == label)
        .map(|(_, v)| v.as_str())
        .collect()
}

/// The activity lines without their time: "status active → done".
fn activity(rows: &[(String, String)]) -> Vec<String> {
    values(rows, "Activity")
        .iter()
        .map(|line| {
            let (_, said) = line.split_once("  ").expect("a time, then what happened");
            said.trim().to_owned()
        })
        .collect()
}

#[test]
fn the_listing_shows_open_projects_and_numbers_its_rows() {
    let dir = Dir::new();
    let out = dir.ok(&["projects"]);
    assert_eq!(out.stdout, "Projects · open · 0 projects\nNothing here.\n");
    add(&dir, "Website", &["--deadline", &day(-2)]);
    add(&dir, "attic", &["--status", "planned"]);
    add(&dir, "Book", &["--status", "on-hold"]);
    add(&dir, "Garden", &["--status", "done"]);
    add(&dir, "Moving", &["--status", "cancelled"]);
    dir.ok(&["people", "add", "Ada"]);
    dir.ok(&[
        "projects", "member", "add", "website", "ada", "--role", "lead",
    ]);
    dir.ok(&["tasks", "add", "Draft", "--project", "website"]);
    dir.ok(&["tasks", "add", "Review", "--project", "website"]);

    let table = listing(&dir.ok(&["projects"]));
    assert_eq!(table.header, "Projects · open · 3 projects");
    assert_eq!(table.column("#"), ["1", "2", "3"]);
    assert_eq!(table.column("NAME"), ["attic", "Book", "Website"]);
    assert_eq!(table.column("STATUS"), ["planned", "on_hold", "active"]);
    assert_eq!(table.column("DEADLINE"), ["", "", &day(-2)]);
    assert_eq!(table.column("TASKS"), ["0", "0", "2"]);
    assert_eq!(table.column("MEMBERS"), ["", "", "Ada"]);
    // Row numbers name that listing's rows; IDs end with the short ID.
    assert_eq!(project(&dir, "2")["name"], "Book");
    let website = project(&dir, "3");
    assert_eq!(short(&website["id"]), table.rows[2]["ID"]);

    // --status: statuses and groups, separated by commas.
    let table = listing(&dir.ok(&["projects", "--status", "done,cancelled"]));
    assert_eq!(table.header, "Projects · closed · 2 projects");
    assert_eq!(table.column("NAME"), ["Garden", "Moving"]);
    assert_eq!(project(&dir, "1")["name"], "Garden", "rows renumbered");
    let table = listing(&dir.ok(&["projects", "--status", "all"]));
    assert_eq!(table.header, "Projects · every status · 5 projects");
    let table = listing(&dir.ok(&["projects", "--status", "active,done"]));
    assert_eq!(table.header, "Projects · active, done · 2 projects");
    assert_eq!(table.column("NAME"), ["Garden", "Website"]);

    // --limit shows the first ones and says how many more; --all every one.
    let out = dir.ok(&["projects", "--status", "all", "--limit", "2"]);
    assert!(
        out.stdout.ends_with("… and 3 more (--limit, --all)\n"),
        "{out:?}"
    );
    let all = dir.json(&["projects", "--status", "all", "--all"]);
    assert_eq!(page(&all).len(), 5);
    assert_eq!(all["meta"]["total_count"], 5);

    // A status that is not one: a usage mistake that lists them.
    let out = dir.run(&["projects", "--status", "frozen"]).failure(2);
    assert!(out.stderr.contains("frozen"), "{out:?}");
    assert!(out.stderr.contains("on_hold"), "{out:?}");
}

#[test]
fn add_then_show_has_everything() {
    let dir = Dir::new();
    let out = dir.ok(&[
        "projects",
        "add",
        "Garden",
        "shed",
        "--start",
        "today",
        "--deadline",
        "+10d",
        "--role",
        "builder",
        "--reference",
        "PERMIT-7",
        "--url",
        "example.org/shed",
        "--description",
        "Wood, not <metal>.\n\nAsk the neighbours first.",
    ]);
    let first = out.stdout.lines().next().unwrap_or_default();
    assert!(first.starts_with("Added project Garden shed ("), "{out:?}");
    assert!(
        first.ends_with(&format!(" · starts {} · due {}", said_day(0), said_day(10))),
        "{out:?}"
    );
    let made = project(&dir, "garden shed");
    assert_eq!(made["status"], "active");
    assert_eq!(made["start_date"], day(0));
    assert_eq!(made["deadline"], day(10));
    assert_eq!(made["external_url"], "https://example.org/shed");
    assert_eq!(
        made["description_text"],
        "Wood, not <metal>.\nAsk the neighbours first."
    );

    dir.ok(&["people", "add", "Ada", "Lovelace"]);
    dir.ok(&["people", "add", "Byron"]);
    dir.ok(&[
        "projects", "member", "add", "garden", "ada", "--role", "lead",
    ]);
    dir.ok(&["projects", "member", "add", "garden", "byron"]);
    dir.ok(&[
        "tasks",
        "add",
        "Buy wood",
        "--project",
        "garden shed",
        "--deadline",
        &day(3),
    ]);
    let nails = dir.json(&["tasks", "add", "Nails", "--project", "garden shed"]);
    dir.ok(&["tasks", "done", record(&nails)["id"].as_str().unwrap()]);
    dir.ok(&["projects", "edit", "garden", "--status", "on_hold"]);

    let (name, rows, description) = shown(&dir, "Garden shed");
    assert_eq!(name, "Garden shed");
    let status = values(&rows, "Status");
    assert_eq!(status.len(), 1, "{rows:?}");
    assert!(status[0].starts_with("on_hold · since "), "{rows:?}");
    assert_eq!(values(&rows, "Start"), [day(0)]);
    assert_eq!(values(&rows, "Deadline"), [day(10)]);
    assert_eq!(values(&rows, "My role"), ["builder"]);
    assert_eq!(values(&rows, "Reference"), ["PERMIT-7"]);
    assert_eq!(values(&rows, "Link"), ["https://example.org/shed"]);
    assert_eq!(values(&rows, "Member"), ["Ada Lovelace (lead)", "Byron"]);
    let tasks = values(&rows, "Task");
    assert_eq!(tasks.len(), 1, "only the open ones: {rows:?}");
    assert!(
        tasks[0].ends_with(&format!("Buy wood · due {}", day(3))),
        "{rows:?}"
    );
    assert_eq!(
        activity(&rows),
        [
            "status active → on_hold",
            "task completed: Nails",
            "Byron added",
            "Ada Lovelace added (lead)",
            "created",
        ]
    );
    assert_eq!(values(&rows, "ID"), [made["id"].as_str().unwrap()]);
    assert_eq!(description, "Wood, not <metal>.\nAsk the neighbours first.");
}

/// Times are the owner's: the status's change and the activity in the
/// owner's zone.
#[test]
fn show_says_times_in_the_owner_s_zone() {
    let dir = Dir::empty();
    dir.init("Owner", "owner", "Tokyo");
    dir.ok(&["projects", "add", "Website"]);
    let (_, rows, _) = shown(&dir, "website");
    let tokyo = today("Asia/Tokyo");
    let status = values(&rows, "Status");
    assert!(
        status[0].starts_with(&format!("active · since {tokyo} ")),
        "{rows:?}"
    );
    let created = values(&rows, "Activity");
    assert!(created[0].starts_with(&format!("{tokyo} ")), "{rows:?}");
    assert!(created[0].ends_with("  created"), "{rows:?}");
}

#[test]
fn edit_changes_and_clears_fields() {
    let dir = Dir::new();
    add(
        &dir,
        "Website",
        &[
            "--start",
            &day(1),
            "--deadline",
            &day(5),
            "--role",
            "owner",
            "--url",
            "https://example.org",
        ],
    );
    let out = dir.ok(&[
        "projects",
        "edit",
        "website",
        "--name",
        "New website",
        "--deadline",
        &day(7),
        "--status",
        "planned",
    ]);
    assert_eq!(
        out.stdout,
        format!("Changed project New website · due {}\n", said_day(7))
    );
    let changed = project(&dir, "new website");
    assert_eq!(changed["status"], "planned");
    assert_eq!(changed["deadline"], day(7));
    assert_eq!(changed["start_date"], day(1), "left as it was");

    // --no-deadline and `none` clear a date; an empty text clears a text.
    let out = dir.ok(&[
        "projects",
        "edit",
        "new website",
        "--no-deadline",
        "--start",
        "none",
        "--role",
        "",
        "--url",
        "",
    ]);
    assert_eq!(
        out.stdout,
        "Changed project New website · no start date · no deadline\n"
    );
    let cleared = project(&dir, "new website");
    for field in ["deadline", "start_date", "my_role", "external_url"] {
        assert!(cleared[field].is_null(), "{field}: {cleared}");
    }
    // The activity says what changed.
    let (_, rows, _) = shown(&dir, "new website");
    let said = activity(&rows);
    assert!(
        said.contains(&"status active → planned".to_owned()),
        "{said:?}"
    );
    assert!(
        said.contains(&format!("deadline removed (was {})", day(5))),
        "the 10-minute rule folds the two changes into one: {said:?}"
    );

    // Nothing to change is a usage mistake; --deadline and --no-deadline
    // do not go together.
    let out = dir.run(&["projects", "edit", "new website"]).failure(2);
    assert!(out.stderr.contains("nothing to change"), "{out:?}");
    dir.run(&[
        "projects",
        "edit",
        "1",
        "--deadline",
        "today",
        "--no-deadline",
    ])
    .failure(2);
}

#[test]
fn mistakes_name_the_flags() {
    let dir = Dir::new();
    add(&dir, "Website", &[]);
    add(&dir, "Book", &[]);
    // The API's refusals, said with what was typed.
    let said = dir.run(&["projects", "add", "website"]).error();
    assert_eq!(said, "the name has already been taken");
    let said = dir
        .run(&["projects", "edit", "book", "--name", "WEBSITE"])
        .error();
    assert_eq!(said, "--name has already been taken");
    let said = dir
        .run(&[
            "projects",
            "add",
            "Shed",
            "--start",
            "2030-05-02",
            "--deadline",
            "2030-05-01",
        ])
        .error();
    assert_eq!(said, "--deadline can't be before the start date");
    let said = dir
        .run(&["projects", "add", "Shed", "--url", "ftp://example.org"])
        .error();
    assert!(said.starts_with("--url "), "{said}");
    // With --json, the API's error body with its fields.
    let out = dir.run(&["projects", "add", "website", "--json"]);
    let error = out.json_error();
    assert_eq!(error["code"], "validation_failed");
    assert_eq!(error["details"]["name"][0], "has already been taken");
    assert_eq!(out.code(), Some(1));
    // The CLI's own: a date it cannot read, an unknown project, a bad status.
    let said = dir
        .run(&["projects", "add", "Shed", "--deadline", "someday"])
        .error();
    assert!(said.contains("\"someday\" is not a date"), "{said}");
    let said = dir.run(&["projects", "show", "Nothing"]).error();
    assert!(
        said.starts_with("there is no project named \"Nothing\""),
        "{said}"
    );
    let out = dir
        .run(&["projects", "add", "Shed", "--status", "paused"])
        .failure(2);
    assert!(out.stderr.contains("paused"), "{out:?}");
    assert_eq!(
        dir.json(&["projects", "--status", "all"])["data"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    // Two homes at once are a usage mistake.
    dir.ok(&["lists", "add", "Work"]);
    dir.run(&["tasks", "add", "x", "--project", "book", "--list", "work"])
        .failure(2);
}

#[test]
fn a_project_is_named_by_row_name_start_id_or_short_id() {
    let dir = Dir::new();
    let apollo = add(&dir, "Apollo", &[]);
    add(&dir, "Artemis", &[]);
    add(&dir, "Gemini", &["--status", "done"]);
    let id = apollo["id"].as_str().unwrap();
    dir.ok(&["projects"]);
    for reference in [
        "1",
        "apollo",
        "APOLLO",
        "apo",
        id,
        &short(&apollo["id"]).to_lowercase(),
    ] {
        assert_eq!(project(&dir, reference)["id"], id, "{reference}");
    }
    // A closed project is named too, though the listing left it out.
    assert_eq!(project(&dir, "gem")["name"], "Gemini");
    // The start of two names names neither.
    let said = dir.run(&["projects", "show", "a"]).error();
    assert!(said.contains("names 2 projects"), "{said}");
    let said = dir.run(&["projects", "show", "9"]).error();
    assert!(said.starts_with("there is no row 9"), "{said}");
}

#[test]
fn rm_prints_the_undo_and_restore_brings_the_tasks_back() {
    let dir = Dir::new();
    let website = add(&dir, "Website", &[]);
    let id = website["id"].as_str().unwrap();
    dir.ok(&["tasks", "add", "Draft", "--project", "website"]);
    dir.ok(&["tasks", "add", "Publish", "--project", "website"]);
    let out = dir.ok(&["projects", "rm", "website"]);
    assert!(
        out.stdout.starts_with(
            "Deleted project Website and its 2 tasks. Undo within 20 seconds: organiser --data-dir "
        ),
        "{out:?}"
    );
    let undo = undo_command(&out);
    assert_eq!(undo[undo.len() - 3..], ["projects", "restore", id]);
    assert_eq!(listing(&dir.ok(&["projects"])).rows.len(), 0);
    let said = dir.run(&["projects", "show", "website"]).error();
    assert!(said.starts_with("there is no project"), "{said}");

    // With no argument, restore brings back the one deleted last.
    let out = dir.ok(&["projects", "restore"]);
    assert_eq!(out.stdout, "Restored project Website\n");
    let (_, rows, _) = shown(&dir, "website");
    assert_eq!(values(&rows, "Task").len(), 2, "{rows:?}");
    let out = dir.ok(&["projects", "restore", &short(&website["id"])]);
    assert_eq!(out.stdout, "Website is not deleted: nothing to restore\n");

    // --json: the deletion as {data: {deleted}}, the restoration the project.
    let said = dir.json(&["projects", "rm", id]);
    assert_eq!(said, serde_json::json!({"data": {"deleted": id}}));
    let back = dir.json(&["projects", "restore", id]);
    assert_eq!(record(&back)["id"], id);
    // A name taken meanwhile: it comes back numbered.
    dir.ok(&["projects", "rm", "website"]);
    add(&dir, "website", &[]);
    let out = dir.ok(&["projects", "restore"]);
    assert_eq!(out.stdout, "Restored project Website (2)\n");

    let fresh = Dir::new();
    let said = fresh.run(&["projects", "restore"]).error();
    assert!(
        said.starts_with("no project was deleted here lately"),
        "{said}"
    );
}

#[test]
fn members_are_added_and_removed() {
    let dir = Dir::new();
    add(&dir, "Website", &[]);
    dir.ok(&["people", "add", "Ada", "Lovelace"]);
    let out = dir.ok(&[
        "projects", "member", "add", "website", "ada", "--role", "design",
    ]);
    assert_eq!(out.stdout, "Added Ada Lovelace to Website (design)\n");
    // A person no one is: the command says how to add them as new.
    let said = dir
        .run(&["projects", "member", "add", "website", "Grace Hopper"])
        .error();
    assert!(
        said.starts_with("there is no person named \"Grace Hopper\""),
        "{said}"
    );
    assert!(
        said.ends_with("projects member add Website 'Grace Hopper' --new"),
        "{said}"
    );
    let made = dir.json(&[
        "projects",
        "member",
        "add",
        "website",
        "Grace Hopper",
        "--new",
    ]);
    let member = record(&made);
    assert!(member["role"].is_null(), "{made}");
    let grace = record(&dir.json(&["people", "show", "grace"])).clone();
    assert_eq!(member["person_id"], grace["id"]);
    let shown_project = project(&dir, "website");
    let members = shown_project["members"].as_array().unwrap();
    assert_eq!(members.len(), 2, "{shown_project}");

    // Twice is refused, naming the person.
    let said = dir
        .run(&["projects", "member", "add", "website", "ada"])
        .error();
    assert_eq!(said, "Ada Lovelace is already a member of this project");

    let out = dir.ok(&["projects", "member", "rm", "website", "ada"]);
    assert_eq!(out.stdout, "Removed Ada Lovelace from Website\n");
    let said = dir
        .run(&["projects", "member", "rm", "website", "ada"])
        .error();
    assert!(
        said.starts_with("Ada Lovelace is not a member of Website"),
        "{said}"
    );
    let said = dir.json(&["projects", "member", "rm", "website", "grace"]);
    assert_eq!(said["data"]["deleted"], member["id"]);
    let (_, rows, _) = shown(&dir, "website");
    assert_eq!(values(&rows, "Member"), Vec::<&str>::new());
    let said = activity(&rows);
    assert_eq!(
        said[..4],
        [
            "Grace Hopper removed",
            "Ada Lovelace removed",
            "Grace Hopper added",
            "Ada Lovelace added (design)",
        ],
        "{said:?}"
    );
}

#[test]
fn deadlines_shows_the_window_with_the_overdue_first() {
    let dir = Dir::new();
    let out = dir.ok(&["deadlines"]);
    assert_eq!(out.stdout, "Deadlines · the next 30 days\nNothing here.\n");
    add(&dir, "Late", &["--deadline", &day(-3)]);
    add(
        &dir,
        "Soon",
        &["--deadline", &day(2), "--status", "planned"],
    );
    add(&dir, "Later", &["--deadline", &day(45)]);
    add(
        &dir,
        "Finished",
        &["--deadline", &day(1), "--status", "done"],
    );
    let table = listing(&dir.ok(&["deadlines"]));
    assert_eq!(table.header, "Deadlines · the next 30 days · 1 overdue");
    assert_eq!(table.column("PROJECT"), ["Late", "Soon"]);
    assert_eq!(table.column("DEADLINE"), [day(-3), day(2)]);
    assert_eq!(table.column("WHEN"), ["3 days overdue", "in 2 days"]);
    assert_eq!(table.column("STATUS"), ["active", "planned"]);
    // The rows are the projects' last listing.
    assert_eq!(project(&dir, "2")["name"], "Soon");

    let table = listing(&dir.ok(&["deadlines", "--days", "60"]));
    assert_eq!(table.column("PROJECT"), ["Late", "Soon", "Later"]);
    let table = listing(&dir.ok(&["deadlines", "--days", "0"]));
    assert_eq!(table.header, "Deadlines · today · 1 overdue");
    assert_eq!(table.column("PROJECT"), ["Late"]);
    let table = listing(&dir.ok(&["deadlines", "--limit", "1"]));
    assert_eq!(table.header, "Deadlines · the nearest 1 · 1 overdue");
    assert_eq!(table.column("PROJECT"), ["Late"]);

    let body = dir.json(&["deadlines", "--days", "60"]);
    let items = body["data"].as_array().unwrap();
    assert_eq!(items.len(), 3, "{body}");
    assert_eq!(items[0]["overdue"], true);
    assert_eq!(items[1]["overdue"], false);
    assert_eq!(items[0]["project"]["name"], "Late");
    let said = dir.run(&["deadlines", "--limit", "0"]).error();
    assert!(said.starts_with("--limit "), "{said}");
}

#[test]
fn tasks_add_project_shows_the_project_as_home() {
    let dir = Dir::new();
    let website = add(&dir, "Website", &[]);
    dir.ok(&["projects"]);
    let made = dir.json(&[
        "tasks",
        "add",
        "Draft",
        "copy",
        "--project",
        "1",
        "--start",
        "today",
    ]);
    let task = record(&made);
    assert_eq!(task["project_id"], website["id"], "{made}");
    // The views and `tasks show` name the project.
    let row = dir
        .ok(&["tasks"])
        .stdout
        .lines()
        .find(|l| l.contains("Draft copy"))
        .map(str::to_owned)
        .expect("the task in today's view");
    assert!(row.contains(" Website "), "{row}");
    let out = dir.ok(&["tasks", "show", task["id"].as_str().unwrap()]);
    assert!(
        out.stdout
            .lines()
            .any(|l| l.starts_with("Home") && l.ends_with("Website (project)")),
        "{out:?}"
    );
    // Moving it out and back: --inbox, --project.
    let id = task["id"].as_str().unwrap();
    let moved = dir.json(&["tasks", "move", id, "--inbox"]);
    assert!(record(&moved)["project_id"].is_null(), "{moved}");
    let moved = dir.json(&["tasks", "edit", id, "--project", "website"]);
    assert_eq!(record(&moved)["project_id"], website["id"], "{moved}");
    let said = dir
        .run(&["tasks", "add", "x", "--project", "nothing"])
        .error();
    assert!(said.starts_with("there is no project named"), "{said}");
}

#[test]
fn json_prints_the_api_body() {
    let dir = Dir::new();
    let made = dir.json(&["projects", "add", "Website", "--role", "owner"]);
    let created = record(&made);
    assert_eq!(created["my_role"], "owner");
    let listed = dir.json(&["projects"]);
    let items = page(&listed);
    assert_eq!(items.len(), 1);
    assert_eq!(shape(&items[0]), shape(created));
    let shown = dir.json(&["projects", "show", "website"]);
    assert_eq!(record(&shown)["id"], created["id"]);
    assert_eq!(shape(&shown), shape(&made));
    let changed = dir.json(&["projects", "edit", "website", "--status", "done"]);
    assert_eq!(record(&changed)["status"], "done");
    // Not open any more: only --status finds it.
    assert_eq!(page(&dir.json(&["projects"])).len(), 0);
    assert_eq!(page(&dir.json(&["projects", "--status", "done"])).len(), 1);
}

/// The project commands work through a running server unchanged: the same
/// output, the server's store changed.
#[test]
fn the_project_commands_work_through_a_running_server() {
    let dir = Dir::new();
    let server = dir.serve();
    let out = dir.ok(&["projects", "add", "Website", "--deadline", "+3d"]);
    assert!(out.stdout.starts_with("Added project Website ("), "{out:?}");
    dir.ok(&["people", "add", "Ada"]);
    let out = dir.ok(&["projects", "member", "add", "website", "ada"]);
    assert_eq!(out.stdout, "Added Ada to Website\n");
    dir.ok(&["tasks", "add", "Draft", "--project", "website"]);
    let table = listing(&dir.ok(&["projects"]));
    assert_eq!(table.column("MEMBERS"), ["Ada"]);
    assert_eq!(table.column("TASKS"), ["1"]);
    let table = listing(&dir.ok(&["deadlines"]));
    assert_eq!(table.column("PROJECT"), ["Website"]);
    let (_, rows, _) = shown(&dir, "1");
    assert_eq!(values(&rows, "Member"), ["Ada"]);
    assert!(server.stop().success());
    assert_eq!(page(&dir.json(&["projects"])).len(), 1);
}
