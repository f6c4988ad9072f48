//! Help, usage mistakes (exit 2) and a closed standard output.

use std::process::Stdio;

use crate::util::{Cmd, Dir};

#[test]
fn help_and_version_print_to_stdout_and_succeed() {
    let out = Cmd::new(&["--help"]).run().success();
    assert!(out.stdout.contains("Usage: organiser"), "{out:?}");
    for command in ["init", "token", "serve", "me", "password", "system"] {
        assert!(
            out.stdout
                .lines()
                .any(|l| l.trim_start().starts_with(command)),
            "{command} missing from --help: {out:?}"
        );
    }
    assert_eq!(out.stderr, "");

    for args in [
        &["help"][..],
        &["token", "--help"][..],
        &["help", "token"][..],
        &["init", "--help"][..],
        &["serve", "--help"][..],
    ] {
        let out = Cmd::new(args).run().success();
        assert!(out.stdout.contains("Usage: organiser"), "{out:?}");
    }

    let out = Cmd::new(&["--version"]).run().success();
    assert!(out.stdout.starts_with("organiser "), "{out:?}");
}

#[test]
fn help_touches_no_store() {
    let dir = Dir::empty();
    dir.ok(&["--help"]);
    dir.ok(&["me", "--help"]);
    assert!(!dir.data().exists());
}

#[test]
fn usage_mistakes_exit_2_with_the_reason_on_stderr() {
    let dir = Dir::empty();
    for (args, mentions) in [
        (&["frobnicate"][..], "frobnicate"),
        (&["tasks", "frob"][..], "frob"),
        (&["me", "--bogus"][..], "--bogus"),
        (&["token", "destroy"][..], "destroy"),
        (&["token", "create"][..], "NAME"),
        (
            &["serve", "--listen", "not-an-address"][..],
            "not-an-address",
        ),
        (&["system", "now"][..], "now"),
        (&[][..], "Usage"),
    ] {
        let out = dir.run(args).failure(2);
        assert_eq!(out.stdout, "", "{out:?}");
        assert!(
            out.stderr.contains(mentions),
            "{mentions:?} missing: {out:?}"
        );
    }
    assert!(!dir.data().exists(), "a usage mistake touches no store");
}

/// `organiser me | head -0`: the reader is gone before anything is
/// written; the command stops quietly.
#[test]
fn a_closed_stdout_is_not_an_error() {
    let dir = Dir::new();
    dir.ok(&["token", "create", "laptop"]);
    for args in [
        &["me"][..],
        &["me", "--json"][..],
        &["token", "list"][..],
        &["token", "list", "--json"][..],
        &["system"][..],
        &["--help"][..],
    ] {
        let (reader, writer) = std::io::pipe().expect("a pipe");
        drop(reader);
        let out = dir.cmd(args).stdout(Stdio::from(writer)).run();
        assert_eq!(out.code(), Some(0), "{out:?}");
        assert_eq!(out.stderr, "", "{out:?}");
    }
}

/// Issue 7, defect 9: usage mistakes exit 2, as docs/cli.md says, before
/// anything is looked up.
#[test]
fn usage_mistakes_of_move_and_edit_exit_2() {
    let dir = Dir::new();
    dir.ok(&["tasks", "add", "x"]);
    for (args, says) in [
        (&["tasks", "move", "1"][..], "say where"),
        (&["tasks", "edit", "1"][..], "nothing to change"),
        (&["tasks", "move", "no-such-task"][..], "say where"),
    ] {
        let out = dir.run(args).failure(2);
        assert!(out.stderr.contains(says), "{args:?}: {}", out.stderr);
    }
}
