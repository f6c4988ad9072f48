//! Colour and width are separate decisions (issue 7, defect 4): `--color
//! auto|always|never`, `CLICOLOR_FORCE` and `NO_COLOR` decide the colour;
//! a terminal's width is fitted whatever the colour.

use std::ffi::OsStr;

use crate::util::{Cmd, Dir};

/// The characters of `line` a terminal shows (colour sequences left out).
fn visible(line: &str) -> usize {
    let mut n = 0;
    let mut in_escape = false;
    for c in line.chars() {
        match (in_escape, c) {
            (false, '\x1b') => in_escape = true,
            (true, 'm') => in_escape = false,
            (true, _) => {}
            (false, _) => n += 1,
        }
    }
    n
}

fn escapes(text: &str) -> usize {
    text.matches('\x1b').count()
}

#[test]
fn color_flag_and_clicolor_force_decide_the_colour() {
    let dir = Dir::new();
    dir.ok(&["tasks", "add", "x"]);
    // Standard output is a pipe here: no colour unless asked for.
    assert_eq!(escapes(&dir.ok(&["tasks", "inbox"]).stdout), 0);
    assert!(escapes(&dir.ok(&["--color", "always", "tasks", "inbox"]).stdout) > 0);
    assert_eq!(
        escapes(&dir.ok(&["--color", "never", "tasks", "inbox"]).stdout),
        0
    );
    let forced = dir
        .cmd(&["tasks", "inbox"])
        .env("CLICOLOR_FORCE", "1")
        .run();
    assert!(escapes(&forced.success().stdout) > 0);
    let off = dir
        .cmd(&["tasks", "inbox"])
        .env("CLICOLOR_FORCE", "1")
        .env("NO_COLOR", "1")
        .run();
    assert!(escapes(&off.success().stdout) > 0, "CLICOLOR_FORCE wins");
    dir.run(&["--color", "sometimes", "tasks"]).failure(2);
}

/// On an 80-column terminal (a pseudo-terminal made by `script`), a long
/// title is wrapped to fit, with `NO_COLOR` as without.
#[test]
fn no_color_keeps_the_width_of_the_terminal() {
    let dir = Dir::new();
    let long = "word ".repeat(40);
    dir.ok(&["tasks", "add", long.trim()]);
    let script =
        "script -qc \"stty cols 80; NO_COLOR=$2 '$0' --data-dir '$1' tasks inbox\" /dev/null";
    for no_color in ["", "1"] {
        let out = Cmd::shell(script, &[dir.data().as_os_str(), OsStr::new(no_color)])
            .run()
            .success();
        let widest = out
            .stdout
            .lines()
            .map(|l| visible(l.trim_end_matches('\r')))
            .max();
        assert!(
            widest.is_some_and(|w| w <= 80),
            "NO_COLOR={no_color:?}: {}",
            out.stdout
        );
        assert_eq!(
            escapes(&out.stdout),
            usize::from(no_color.is_empty()) * escapes(&out.stdout)
        );
        assert!(out.stdout.contains("word"), "{}", out.stdout);
    }
}
