//! `default_view` of the configuration file: the view `organiser tasks`
//! shows with no subcommand, named as on the command line (`today`,
//! `logbook`, `list Work`): the words are parsed by the same clap
//! definitions as `organiser tasks WORDS`, so the file takes exactly the
//! names the command line takes, and only the views among them.

use clap::Parser;

use super::TasksAction;

/// `organiser tasks` without its own flags.
#[derive(Debug, Parser)]
#[command(name = "tasks", no_binary_name = true)]
struct ViewWords {
    #[command(subcommand)]
    action: TasksAction,
}

impl TasksAction {
    /// Whether this shows a view (and changes nothing).
    pub(super) fn is_view(&self) -> bool {
        use TasksAction as A;
        matches!(
            self,
            A::Today
                | A::Started
                | A::Overview
                | A::Planned
                | A::Someday
                | A::Due
                | A::Logbook
                | A::Inbox
                | A::List(_)
        )
    }
}

/// The view `text` names: its first word is the view, the rest (if any)
/// its one argument, so a list's name may hold spaces (`list My work`).
fn parse(text: &str) -> Option<TasksAction> {
    let text = text.trim();
    let words: Vec<&str> = match text.split_once(char::is_whitespace) {
        Some((view, rest)) => vec![view, rest.trim()],
        None => vec![text],
    };
    ViewWords::try_parse_from(words)
        .ok()
        .map(|parsed| parsed.action)
        .filter(TasksAction::is_view)
}

/// The views, as the file may name them: "today, overview, ..., list NAME".
fn names() -> String {
    use clap::CommandFactory;
    ViewWords::command()
        .get_subcommands()
        .filter_map(|sub| {
            let name = sub.get_name();
            if parse(name).is_some() {
                Some(name.to_owned())
            } else if parse(&format!("{name} x")).is_some() {
                Some(format!("{name} NAME"))
            } else {
                None
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Whether `text` names a view; else why not, for the configuration's error.
pub(crate) fn check(text: &str) -> Result<(), String> {
    match parse(text) {
        Some(_) => Ok(()),
        None => Err(format!(
            "{:?} is not a view of `organiser tasks`: use one of {}",
            text.trim(),
            names()
        )),
    }
}

/// The view the configuration file names, if it names one.
pub(super) fn configured() -> Option<TasksAction> {
    crate::config::get().default_view.as_deref().and_then(parse)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_names_views_as_the_command_line_does() {
        for view in ["today", "logbook", " inbox ", "list Work", "list My  work"] {
            assert!(check(view).is_ok(), "{view}");
        }
        assert!(matches!(parse("list My work"), Some(TasksAction::List(l)) if l.name == "My work"));
        for not_a_view in [
            "",
            "add milk",
            "rm 1",
            "done 1",
            "show 1",
            "list",
            "today now",
            "x",
        ] {
            let e = check(not_a_view).unwrap_err();
            assert!(e.contains("today") && e.contains("list NAME"), "{e}");
        }
        let names = names();
        assert!(!names.contains("add") && !names.contains("show"), "{names}");
    }
}
