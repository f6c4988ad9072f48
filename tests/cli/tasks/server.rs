//! `organiser tasks` and `lists` through a server: the same output when
//! a server holds the store, and through `ORGANISER_URL` and
//! `ORGANISER_TOKEN`.

use serde_json::Value;

use super::{all_tasks, day, find, list, list_ids, listing, undo_command, views_store};
use crate::token::create;
use crate::util::{Cmd, Dir, shape};

/// What the human output of each listing says, in one store.
fn listings(dir: &Dir) -> Vec<String> {
    [
        &["tasks"][..],
        &["tasks", "overview"],
        &["tasks", "planned"],
        &["tasks", "someday"],
        &["tasks", "due"],
        &["tasks", "logbook"],
        &["tasks", "inbox"],
        &["tasks", "list", "work"],
        &["lists"],
    ]
    .iter()
    .map(|args| {
        let out = dir.ok(args);
        out.assert_no_ansi();
        out.stdout
    })
    .collect()
}

fn json_listings(dir: &Dir) -> Vec<Value> {
    [
        &["tasks"][..],
        &["tasks", "overview"],
        &["tasks", "logbook"],
        &["tasks", "list", "home"],
        &["lists"],
    ]
    .iter()
    .map(|args| dir.json(args))
    .collect()
}

#[test]
fn the_same_commands_give_the_same_output_through_the_server() {
    let dir = views_store();
    let human = listings(&dir);
    let json = json_listings(&dir);
    let added_here = dir.json(&["tasks", "add", "Shape", "--start", "today"]);
    dir.ok(&["tasks", "rm", added_here["data"]["id"].as_str().unwrap()]);

    let server = dir.serve();
    assert_eq!(listings(&dir), human, "human output through the server");
    assert_eq!(json_listings(&dir), json, "--json through the server");

    // The CLI's --json is the API's body.
    let (status, api) = server.get(
        "/tasks?view=today_queue&limit=50&count=true",
        Some(&server.token),
    );
    assert_eq!(status, 200, "{api}");
    assert_eq!(api, json[0]);
    // Writes go through it, with the same output.
    let out = dir.ok(&[
        "tasks",
        "add",
        "Via server",
        "--list",
        "work",
        "--deadline",
        "tomorrow",
    ]);
    assert!(out.stdout.starts_with("Added Via server ("), "{out:?}");
    let added = dir.json(&["tasks", "add", "Via server json", "--start", "today"]);
    assert_eq!(shape(&added), shape(&added_here));
    let today = list(&dir, &["tasks"]);
    assert!(today.titles().contains(&"Via server json"));
    let first = today.rows[0]["TITLE"].clone();
    let out = dir.ok(&["tasks", "done", "1"]);
    assert_eq!(out.stdout, format!("Completed {first}\n"));
    let lists = dir.ok(&["lists"]);
    lists.assert_no_ansi();
    let work = list(&dir, &["tasks", "list", "work"]);
    assert!(work.titles().contains(&"Via server"));
    assert_eq!(work.row("Via server")["DEADLINE"], day(1));
    let wanders = dir.json(&["tasks", "add", "Wanders", "--list", "work"]);
    let id = wanders["data"]["id"].as_str().unwrap();
    let out = dir.ok(&["tasks", "edit", id, "--title", "Wandered", "--start", "+2d"]);
    assert_eq!(
        out.stdout,
        format!("Changed Wandered · starts {}\n", super::said_day(2))
    );
    let out = dir.ok(&["tasks", "move", id, "--inbox"]);
    assert_eq!(out.stdout, "Moved Wandered\n");
    let out = dir.ok(&["tasks", "rm", id]);
    let undo = undo_command(&out);
    assert_eq!(undo, ["tasks", "restore", id], "{out:?}");
    assert!(find(&dir, &["tasks", "inbox"], id).is_none());
    let restored = dir.json(&["tasks", "restore", id]);
    assert_eq!(restored["data"]["title"], "Wandered");
    assert_eq!(restored["data"]["start_on"], day(2));
    assert!(restored["data"]["task_list_id"].is_null());
    let out = dir.ok(&["tasks", "rm", id]);
    assert_eq!(undo_command(&out), undo);
    let out = dir.ok(&["lists", "add", "Spare"]);
    assert_eq!(out.stdout, "Added list Spare\n");
    let out = dir.ok(&["lists", "rm", "spare"]);
    assert_eq!(undo_command(&out)[..2], ["lists", "restore"]);

    // `lists --json` is shaped like `GET /task_lists` (data and meta).
    let (status, api) = server.get("/task_lists", Some(&server.token));
    assert_eq!(status, 200, "{api}");
    let cli = dir.json(&["lists"]);
    assert!(server.stop().success());

    // Everything done through the server is in the store.
    let logbook = list(&dir, &["tasks", "logbook"]);
    assert!(
        logbook.titles().contains(&first.as_str()),
        "{:?}",
        logbook.rows
    );
    let work = list(&dir, &["tasks", "list", "work"]);
    assert!(work.titles().contains(&"Via server"));
    assert!(
        !all_tasks(&dir).contains_key(id),
        "deleted through the server"
    );
    assert_eq!(list(&dir, &["tasks", "planned"]).titles(), ["Later"]);

    assert_eq!(
        shape(&api),
        shape(&cli),
        "lists --json is shaped like GET /task_lists"
    );
}

#[test]
fn organiser_url_and_token_point_tasks_and_lists_at_a_server() {
    let dir = views_store();
    let human = listings(&dir);
    let server = dir.serve();
    let token = create(&dir, "remote");
    let elsewhere = dir.root().join("elsewhere");
    let remote = |args: &[&str]| {
        Cmd::new(args)
            .data_dir(&elsewhere)
            .env("ORGANISER_URL", &server.url)
            .env("ORGANISER_TOKEN", &token)
            .run()
            .success()
    };

    let said: Vec<String> = [
        &["tasks"][..],
        &["tasks", "overview"],
        &["tasks", "planned"],
        &["tasks", "someday"],
        &["tasks", "due"],
        &["tasks", "logbook"],
        &["tasks", "inbox"],
        &["tasks", "list", "work"],
        &["lists"],
    ]
    .iter()
    .map(|args| {
        let out = remote(args);
        out.assert_no_ansi();
        out.stdout
    })
    .collect();
    assert_eq!(said, human, "the same output through ORGANISER_URL");

    let out = remote(&[
        "tasks", "add", "Remote", "--list", "Home", "--start", "today",
    ]);
    assert!(out.stdout.starts_with("Added Remote ("), "{out:?}");
    let shown = listing(&remote(&["tasks", "today"]));
    let row = shown
        .rows
        .iter()
        .position(|r| r["TITLE"] == "Remote")
        .expect("the remote task in today");
    let out = remote(&["tasks", "done", &(row + 1).to_string()]);
    assert_eq!(out.stdout, "Completed Remote\n");
    let out = remote(&["lists", "add", "Remote list"]);
    assert_eq!(out.stdout, "Added list Remote list\n");
    let lists = remote(&["lists", "--json"]).json();
    assert!(
        lists["data"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l["name"] == "Remote list")
    );

    // The server's own store has it all.
    let logbook = list(&dir, &["tasks", "logbook"]);
    assert!(logbook.titles().contains(&"Remote"), "{:?}", logbook.rows);
    assert!(server.stop().success());
    assert!(list_ids(&dir).contains_key("Remote list"));
}
