//! Commands at once (issue 7, defect 2): a command that finds the store
//! held by another command waits for it, so twenty commands started
//! together, writers and readers, all succeed and nothing is lost.

use std::time::{Duration, Instant};

use crate::util::Dir;

#[test]
fn twenty_commands_at_once_all_succeed_and_nothing_is_lost() {
    let dir = Dir::new();
    dir.ok(&["me"]);
    let started = Instant::now();
    let runs: Vec<(bool, Duration, String)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..20)
            .map(|n| {
                let dir = &dir;
                s.spawn(move || {
                    let t = Instant::now();
                    let title = format!("task {n}");
                    let out = if n % 2 == 0 {
                        dir.run(&["tasks", "add", &title])
                    } else {
                        dir.run(&["tasks", "inbox", "--json"])
                    };
                    (out.code() == Some(0), t.elapsed(), out.stderr.clone())
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let all = started.elapsed();
    let failures: Vec<&String> = runs.iter().filter(|r| !r.0).map(|r| &r.2).collect();
    assert!(
        failures.is_empty(),
        "{} failed: {failures:?}",
        failures.len()
    );

    let inbox = dir.json(&["tasks", "inbox", "--limit", "100"]);
    let mut titles: Vec<&str> = inbox["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["title"].as_str().unwrap())
        .collect();
    titles.sort();
    let mut expected: Vec<String> = (0..20).step_by(2).map(|n| format!("task {n}")).collect();
    expected.sort();
    assert_eq!(titles, expected);

    let mut times: Vec<Duration> = runs.iter().map(|r| r.1).collect();
    times.sort();
    println!(
        "20 commands (10 adds, 10 reads) at once: 0 failed; wall p50 {:?}, max {:?}; all done in {all:?}",
        times[times.len() / 2],
        times[times.len() - 1]
    );
}
