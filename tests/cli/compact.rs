//! `organiser compact`: the store file's free space given back, the sizes
//! before and after; refused while a server holds the store or where there
//! is no store.

use crate::util::Dir;

#[test]
fn compact_gives_back_the_space_and_says_how_much() {
    let dir = Dir::new();
    for n in 0..20 {
        dir.ok(&["tasks", "add", &format!("task {n}")]);
    }
    let report = dir.json(&["compact"]);
    let before = report["data"]["before_bytes"].as_u64().unwrap();
    let after = report["data"]["after_bytes"].as_u64().unwrap();
    assert!(after <= before, "{report}");
    assert_eq!(
        std::fs::metadata(dir.data().join("organiser.redb"))
            .unwrap()
            .len(),
        after
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(dir.data().join("organiser.redb"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600, "the compacted store is as private");
    }
    let out = dir.ok(&["compact"]);
    assert!(out.stdout.starts_with("Compacted "), "{}", out.stdout);
    assert!(out.stdout.contains(" -> "), "{}", out.stdout);
    // The store still holds its tasks.
    assert_eq!(
        dir.json(&["tasks", "inbox"])["data"]
            .as_array()
            .unwrap()
            .len(),
        20
    );
}

#[test]
fn compact_refuses_a_directory_without_a_store_and_makes_nothing() {
    let dir = Dir::empty();
    let out = dir.run(&["compact"]).failure(1);
    assert!(out.error().contains("there is no store"), "{}", out.error());
    assert!(!dir.data().join("organiser.redb").exists());
}

#[test]
fn compact_refuses_while_the_server_holds_the_store() {
    let dir = Dir::new();
    dir.ok(&["me"]);
    let server = dir.serve();
    let out = dir.run(&["compact"]).failure(1);
    assert!(out.error().contains("stop it first"), "{}", out.error());
    server.stop();
    dir.ok(&["compact"]);
}
