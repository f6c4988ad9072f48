//! `organiser stats`: every table with its entries and bytes, largest
//! first, the file's size and what no table uses; `--json`; refused where
//! there is no store (it makes none).

use crate::util::Dir;

#[test]
fn stats_say_where_the_bytes_are() {
    let dir = Dir::new();
    for n in 0..30 {
        dir.ok(&["tasks", "add", &format!("task number {n}")]);
    }
    let report = dir.json(&["stats"]);
    let file = report["data"]["file_bytes"].as_u64().unwrap();
    assert_eq!(
        std::fs::metadata(dir.data().join("organiser.redb"))
            .unwrap()
            .len(),
        file
    );
    let tables = report["data"]["tables"].as_array().unwrap();
    let tasks = tables
        .iter()
        .find(|t| t["name"] == "tasks")
        .expect("the tasks table");
    assert_eq!(tasks["entries"], 30, "{tasks}");
    let bytes = |t: &serde_json::Value, k: &str| t[k].as_u64().unwrap();
    assert!(bytes(tasks, "stored_bytes") > 30 * 10, "{tasks}");
    assert_eq!(
        bytes(tasks, "page_bytes"),
        bytes(tasks, "stored_bytes")
            + bytes(tasks, "metadata_bytes")
            + bytes(tasks, "fragmented_bytes")
    );
    // Largest first.
    let pages: Vec<u64> = tables.iter().map(|t| bytes(t, "page_bytes")).collect();
    assert!(pages.windows(2).all(|w| w[0] >= w[1]), "{pages:?}");
    assert!(pages.iter().sum::<u64>() <= file);

    let out = dir.ok(&["stats"]);
    assert!(out.stdout.starts_with("Table"), "{}", out.stdout);
    assert!(out.stdout.contains("\ntasks "), "{}", out.stdout);
    assert!(
        out.stdout.contains("more tables"),
        "25 shown: {}",
        out.stdout
    );
    assert!(out.stdout.contains("in the file"), "{}", out.stdout);
    let all = dir.ok(&["stats", "--all"]);
    assert!(!all.stdout.contains("more tables"), "{}", all.stdout);
    assert!(all.stdout.lines().count() > tables.len(), "{}", all.stdout);
}

#[test]
fn stats_refuse_a_directory_without_a_store_and_make_nothing() {
    let dir = Dir::empty();
    let out = dir.run(&["stats"]).failure(1);
    assert!(out.error().contains("there is no store"), "{}", out.error());
    assert!(!dir.data().join("organiser.redb").exists());
}

#[test]
fn stats_refuse_while_the_server_holds_the_store() {
    let dir = Dir::new();
    dir.ok(&["me"]);
    let server = dir.serve();
    let out = dir.run(&["stats"]).failure(1);
    assert!(out.error().contains("stop it first"), "{}", out.error());
    server.stop();
    dir.ok(&["stats"]);
}
