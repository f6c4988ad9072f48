//! Shell completions and the manual page, generated from the clap
//! definitions (issue 7, item 1): `organiser completions SHELL`,
//! `organiser man`, and the completions the binary answers itself
//! (`COMPLETE=SHELL organiser`), which offer the store's task lists.

use std::path::Path;
use std::process::Command;

use crate::util::{Cmd, Dir, Outcome};

const SHELLS: [&str; 5] = ["bash", "zsh", "fish", "elvish", "powershell"];

/// Whether `bash -n` accepts the script in `path`.
#[track_caller]
fn bash_accepts(path: &Path) {
    let out = Command::new("bash")
        .arg("-n")
        .arg(path)
        .output()
        .expect("bash runs");
    assert!(
        out.status.success(),
        "bash -n refuses {}: {}",
        path.display(),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn each_shell_gets_a_script_that_names_the_commands() {
    let dir = Dir::empty();
    for shell in SHELLS {
        let out = dir.ok(&["completions", shell]);
        assert_eq!(out.stderr, "", "{out:?}");
        for word in [
            "tasks",
            "lists",
            "projects",
            "deadlines",
            "notes",
            "tags",
            "categories",
            "docs",
            "folders",
            "calendar",
            "feeds",
            "notify",
            "reminders",
            "web",
            "search",
            "ai",
            "providers",
            "backfill",
            "completions",
            "data-dir",
        ] {
            assert!(out.stdout.contains(word), "{shell}: no {word}: {out:?}");
        }
    }
    let script = dir.root().join("organiser.bash");
    std::fs::write(&script, dir.ok(&["completions", "bash"]).stdout).unwrap();
    bash_accepts(&script);
    assert!(!dir.data().exists(), "completions touch no store");

    dir.run(&["completions", "tcsh"]).failure(2);
    dir.run(&["completions"]).failure(2);
}

/// The page's first request is `.TH NAME 1` (clap_mangen defines a quote
/// string before it), and its sections follow.
#[track_caller]
fn page_title(out: &Outcome) -> &str {
    let first = out
        .stdout
        .lines()
        .find(|l| !l.starts_with(".ie") && !l.starts_with(".el"))
        .unwrap_or_else(|| panic!("an empty page: {out:?}"));
    assert!(first.starts_with(".TH "), "{out:?}");
    assert!(out.stdout.contains("\n.SH NAME\n"), "{out:?}");
    first
}

#[test]
fn man_prints_the_main_page_or_a_command_s_page() {
    let dir = Dir::empty();
    let out = dir.ok(&["man"]);
    assert!(page_title(&out).starts_with(".TH organiser 1 "), "{out:?}");
    // The page lists the commands (roff escapes their hyphens).
    for command in [
        "tasks",
        "lists",
        "projects",
        "deadlines",
        "notes",
        "tags",
        "categories",
        "docs",
        "folders",
        "calendar",
        "feeds",
        "notify",
        "reminders",
        "web",
        "search",
        "ai",
        "token",
        "serve",
        "completions",
        "config",
    ] {
        assert!(
            out.stdout.contains(&format!("organiser\\-{command}(1)")),
            "no {command}: {out:?}"
        );
    }

    let out = dir.ok(&["man", "tasks", "add"]);
    assert!(
        page_title(&out).starts_with(".TH organiser-tasks-add 1 "),
        "{out:?}"
    );
    assert!(out.stdout.contains("\\-\\-deadline"), "{out:?}");

    let out = dir.run(&["man", "tasks", "frobnicate"]).failure(2);
    assert!(out.stderr.contains("frobnicate"), "{out:?}");
    assert!(!dir.data().exists(), "man touches no store");
}

#[test]
fn man_dir_writes_every_page() {
    let dir = Dir::empty();
    let pages = dir.root().join("man1");
    dir.ok(&["man", "--dir", pages.to_str().unwrap()]);
    for page in [
        "organiser.1",
        "organiser-tasks.1",
        "organiser-tasks-add.1",
        "organiser-lists-rm.1",
        "organiser-projects.1",
        "organiser-projects-member-add.1",
        "organiser-projects-activity.1",
        "organiser-people-unlink.1",
        "organiser-deadlines.1",
        "organiser-docs.1",
        "organiser-docs-add.1",
        "organiser-docs-open.1",
        "organiser-folders.1",
        "organiser-folders-rename.1",
        "organiser-calendar.1",
        "organiser-feeds.1",
        "organiser-feeds-add.1",
        "organiser-feeds-sync.1",
        "organiser-feeds-rm.1",
        "organiser-search.1",
        "organiser-ai.1",
        "organiser-ai-providers-add.1",
        "organiser-ai-models-default.1",
        "organiser-ai-tasks-backfill.1",
        "organiser-ai-try.1",
    ] {
        let text =
            std::fs::read_to_string(pages.join(page)).unwrap_or_else(|e| panic!("{page}: {e}"));
        assert!(text.contains(".TH "), "{page}");
    }
}

/// `COMPLETE=SHELL organiser -- WORDS...`, as the registered script calls
/// it when the word at `index` is being completed: the candidates.
pub(crate) fn complete(shell: &str, index: usize, words: &[&str]) -> Cmd {
    let mut args = vec!["--", "organiser"];
    args.extend_from_slice(words);
    Cmd::new(&args)
        .env("COMPLETE", shell)
        .env("_CLAP_COMPLETE_INDEX", (index + 1).to_string())
        .env("_CLAP_IFS", "\n")
}

pub(crate) fn candidates(out: Outcome) -> Vec<String> {
    let out = out.success();
    assert_eq!(out.stderr, "", "{out:?}");
    out.stdout.lines().map(str::to_owned).collect()
}

#[test]
fn complete_env_prints_a_registration_script() {
    let dir = Dir::empty();
    for shell in SHELLS {
        let out = Cmd::new(&[]).env("COMPLETE", shell).run().success();
        assert!(out.stdout.contains("organiser"), "{shell}: {out:?}");
    }
    let out = Cmd::new(&[]).env("COMPLETE", "bash").run().success();
    let script = dir.root().join("register.bash");
    std::fs::write(&script, &out.stdout).unwrap();
    bash_accepts(&script);
    // COMPLETE=0 is an ordinary run.
    let out = Cmd::new(&["--version"])
        .env("COMPLETE", "0")
        .run()
        .success();
    assert!(out.stdout.starts_with("organiser "), "{out:?}");
}

/// Issue 8: the arguments that name a person offer the people's names.
#[test]
fn dynamic_completions_offer_the_store_s_people() {
    let dir = Dir::new();
    for name in ["Ada", "Adam", "Grace"] {
        dir.ok(&["people", "add", name]);
    }
    let data = dir.data().to_str().unwrap();
    for words in [
        &["--data-dir", data, "people", "show", "Ad"][..],
        &["--data-dir", data, "people", "rm", "Ad"][..],
        &["--data-dir", data, "people", "link", "Ad"][..],
        &["--data-dir", data, "people", "unlink", "Ad"][..],
        &["--data-dir", data, "people", "unlink", "Grace", "Ad"][..],
        &["--data-dir", data, "tasks", "add", "call", "--person", "Ad"][..],
    ] {
        let mut offered = candidates(complete("fish", words.len() - 1, words).run());
        offered.sort();
        assert_eq!(offered, ["Ada", "Adam"], "{words:?}");
    }
}

/// The arguments that name a project offer the projects' names, of
/// every status; `--status` offers the statuses.
#[test]
fn dynamic_completions_offer_the_store_s_projects() {
    let dir = Dir::new();
    dir.ok(&["projects", "add", "Website"]);
    dir.ok(&["projects", "add", "Wedding", "--status", "done"]);
    dir.ok(&["projects", "add", "Garden"]);
    dir.ok(&["people", "add", "Ada"]);
    let data = dir.data().to_str().unwrap();
    for words in [
        &["--data-dir", data, "projects", "show", "W"][..],
        &["--data-dir", data, "projects", "activity", "W"][..],
        &["--data-dir", data, "projects", "edit", "W"][..],
        &["--data-dir", data, "projects", "rm", "W"][..],
        &["--data-dir", data, "projects", "member", "add", "W"][..],
        &["--data-dir", data, "projects", "member", "rm", "W"][..],
        &["--data-dir", data, "tasks", "add", "x", "--project", "W"][..],
        &["--data-dir", data, "tasks", "edit", "1", "--project", "W"][..],
        &["--data-dir", data, "tasks", "move", "1", "--project", "W"][..],
    ] {
        let mut offered = candidates(complete("fish", words.len() - 1, words).run());
        offered.sort();
        assert_eq!(offered, ["Website", "Wedding"], "{words:?}");
    }
    let words = &[
        "--data-dir",
        data,
        "projects",
        "member",
        "add",
        "Garden",
        "A",
    ];
    let offered = candidates(complete("fish", words.len() - 1, words).run());
    assert_eq!(offered, ["Ada"]);
    let words = &["--data-dir", data, "projects", "--status", "on"];
    let offered = candidates(complete("bash", words.len() - 1, words).run());
    assert_eq!(offered, ["on_hold"]);
}

#[test]
fn dynamic_completions_offer_the_store_s_list_names() {
    let dir = Dir::new();
    dir.ok(&["lists", "add", "Work"]);
    dir.ok(&["lists", "add", "Home"]);
    dir.ok(&["lists", "add", "Wedding"]);
    let data = dir.data().to_str().unwrap();

    let offered = candidates(complete("bash", 4, &["--data-dir", data, "tasks", "list", ""]).run());
    for name in ["Work", "Home", "Wedding"] {
        assert!(offered.contains(&name.to_owned()), "{offered:?}");
    }
    // Only those that start with what was typed; the same for each
    // argument that names a list.
    for words in [
        &["--data-dir", data, "lists", "rm", "W"][..],
        &["--data-dir", data, "lists", "rename", "W"][..],
        &["--data-dir", data, "lists", "move", "W"][..],
        &["--data-dir", data, "tasks", "add", "milk", "--list", "W"][..],
        &["--data-dir", data, "tasks", "edit", "1", "--list", "W"][..],
        &["--data-dir", data, "tasks", "move", "1", "--list", "W"][..],
    ] {
        let out = complete("fish", words.len() - 1, words).run();
        let mut offered = candidates(out);
        offered.sort();
        assert_eq!(offered, ["Wedding", "Work"], "{words:?}");
    }
    // The subcommands and fixed values are offered as by the scripts.
    let offered = candidates(complete("bash", 3, &["--data-dir", data, "tasks", ""]).run());
    assert!(offered.contains(&"today".to_owned()), "{offered:?}");

    // The data directory of the configuration file, as commands use it.
    dir.config(&format!("data_dir = {data:?}\n"));
    let offered = candidates(
        complete("bash", 2, &["lists", "rm", "H"])
            .env("XDG_CONFIG_HOME", dir.config_home())
            .run(),
    );
    assert_eq!(offered, ["Home"]);
}

#[test]
fn dynamic_completions_make_no_store_and_fail_quietly() {
    let dir = Dir::empty();
    let data = dir.data().to_str().unwrap();
    let offered = candidates(complete("bash", 4, &["--data-dir", data, "lists", "rm", ""]).run());
    assert!(offered.iter().all(|c| c.starts_with('-')), "{offered:?}");
    assert!(!dir.data().exists(), "completing made a data directory");

    // A broken configuration file, or a server that does not answer: no
    // names, no error.
    dir.config("colour = 1\n");
    let out = complete("bash", 2, &["lists", "rm", "x"])
        .env("XDG_CONFIG_HOME", dir.config_home())
        .run();
    assert_eq!(candidates(out), Vec::<String>::new());
    let out = complete("bash", 2, &["lists", "rm", "x"])
        .env("ORGANISER_URL", "http://127.0.0.1:9")
        .env("ORGANISER_TOKEN", "nope")
        .run();
    assert_eq!(candidates(out), Vec::<String>::new());
}

#[test]
fn dynamic_completions_ask_the_server_that_holds_the_store() {
    let dir = Dir::new();
    dir.ok(&["lists", "add", "Garden"]);
    let _server = dir.serve();
    let data = dir.data().to_str().unwrap();
    let offered = candidates(complete("bash", 4, &["--data-dir", data, "lists", "rm", "G"]).run());
    assert_eq!(offered, ["Garden"]);
}

/// The arguments that name a folder offer the folders' names, and those
/// that name a document the documents'.
#[test]
fn dynamic_completions_offer_the_store_s_folders_and_documents() {
    let dir = Dir::new();
    dir.ok(&["folders", "add", "Taxes"]);
    dir.ok(&["folders", "add", "Travel"]);
    dir.ok(&["folders", "add", "Home"]);
    let pdf = crate::documents::pdf(&dir, "Tickets.pdf");
    dir.ok(&["docs", "add", pdf.to_str().unwrap()]);
    let data = dir.data().to_str().unwrap();
    for words in [
        &["--data-dir", data, "docs", "--folder", "T"][..],
        &["--data-dir", data, "docs", "add", "x.pdf", "--folder", "T"][..],
        &["--data-dir", data, "folders", "rename", "T"][..],
        &["--data-dir", data, "folders", "rm", "T"][..],
        &["--data-dir", data, "folders", "add", "x", "--parent", "T"][..],
    ] {
        let mut offered = candidates(complete("fish", words.len() - 1, words).run());
        offered.sort();
        assert_eq!(offered, ["Taxes", "Travel"], "{words:?}");
    }
    for words in [
        &["--data-dir", data, "docs", "open", "T"][..],
        &["--data-dir", data, "docs", "rm", "T"][..],
    ] {
        let offered = candidates(complete("fish", words.len() - 1, words).run());
        assert_eq!(offered, ["Tickets"], "{words:?}");
    }
}
