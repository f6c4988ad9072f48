//! Completions the binary answers itself: with `COMPLETE=SHELL` in its
//! environment, `organiser` prints the shell's registration script, and
//! the shell then calls it back on every TAB (clap_complete's
//! `unstable-dynamic` engine, [`CompleteEnv`]). Besides what the static
//! scripts of `organiser completions` offer (subcommands, flags, fixed
//! values), it offers the names of the store's task lists, people,
//! projects, tags, categories, document folders, documents, calendar
//! feeds and notification channels where a command takes one: read through the same backend a reading command uses, never making a store, never
//! waiting for a held one, and offering nothing when anything goes wrong.

use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::OnceLock;

use clap::{Command, CommandFactory};
use clap_complete::engine::{ArgValueCandidates, CompletionCandidate};
use clap_complete::env::CompleteEnv;
use organiser_core::{
    calendar::CalendarFeed, calendar_subscriptions::CalendarSubscription, categories::Category,
    documents::Document, folders::Folder, people::Person, projects::Project,
    reminders::NotificationChannel, tags::Tag, task_lists::TaskList,
};

use crate::backend;
use crate::door::Client;
use crate::refs;

/// The arguments that take a task list's name: the subcommand's path and
/// the argument's id.
const LIST_NAMES: &[(&str, &str)] = &[
    ("organiser tasks add", "list"),
    ("organiser tasks edit", "list"),
    ("organiser tasks move", "list"),
    ("organiser tasks list", "name"),
    ("organiser lists rename", "list"),
    ("organiser lists move", "list"),
    ("organiser lists rm", "list"),
    ("organiser calendar subscribe", "list"),
];

/// The arguments that take a person's name.
const PEOPLE_NAMES: &[(&str, &str)] = &[
    ("organiser people show", "person"),
    ("organiser people edit", "person"),
    ("organiser people rm", "person"),
    ("organiser people link", "person"),
    ("organiser people link", "related"),
    ("organiser people unlink", "person"),
    ("organiser people unlink", "related"),
    ("organiser tasks add", "person"),
    ("organiser projects member add", "person"),
    ("organiser projects member rm", "person"),
    ("organiser notes", "person"),
    ("organiser docs add", "person"),
    ("organiser docs link", "person"),
    ("organiser docs unlink", "person"),
];

/// The arguments that take a project's name.
const PROJECT_NAMES: &[(&str, &str)] = &[
    ("organiser projects show", "project"),
    ("organiser calendar subscribe", "project"),
    ("organiser projects activity", "project"),
    ("organiser projects edit", "project"),
    ("organiser projects rm", "project"),
    ("organiser projects member add", "project"),
    ("organiser projects member rm", "project"),
    ("organiser tasks add", "project"),
    ("organiser tasks edit", "project"),
    ("organiser tasks move", "project"),
    ("organiser notes", "project"),
    ("organiser docs add", "project"),
    ("organiser docs link", "project"),
    ("organiser docs unlink", "project"),
];

/// The arguments that take a tag's name.
const TAG_NAMES: &[(&str, &str)] = &[
    ("organiser notes", "tag"),
    ("organiser tags rename", "tag"),
    ("organiser tags merge", "tag"),
    ("organiser tags merge", "into"),
    ("organiser tags rm", "tag"),
];

/// The arguments that take a category's name.
const CATEGORY_NAMES: &[(&str, &str)] = &[
    ("organiser notes", "category"),
    ("organiser notes add", "category"),
    ("organiser notes edit", "category"),
    ("organiser categories move", "category"),
    ("organiser categories rm", "category"),
];

/// The arguments that take a document folder's name.
const FOLDER_NAMES: &[(&str, &str)] = &[
    ("organiser docs", "folder"),
    ("organiser docs add", "folder"),
    ("organiser docs edit", "folder"),
    ("organiser folders add", "parent"),
    ("organiser folders rename", "folder"),
    ("organiser folders rm", "folder"),
];

/// The arguments that take a document's name.
const DOCUMENT_NAMES: &[(&str, &str)] = &[
    ("organiser docs open", "document"),
    ("organiser docs edit", "document"),
    ("organiser docs link", "document"),
    ("organiser docs unlink", "document"),
    ("organiser docs rm", "document"),
];

/// The arguments that take a calendar feed's name.
const FEED_NAMES: &[(&str, &str)] = &[
    ("organiser feeds sync", "feed"),
    ("organiser feeds rm", "feed"),
];

/// The arguments that take a calendar subscription's name.
const SUBSCRIPTION_NAMES: &[(&str, &str)] = &[
    ("organiser calendar subscriptions rotate", "subscription"),
    ("organiser calendar subscriptions rm", "subscription"),
];

/// The arguments that take a notification channel's name.
const CHANNEL_NAMES: &[(&str, &str)] = &[
    ("organiser notify test", "channel"),
    ("organiser notify rm", "channel"),
    ("organiser notify on", "channel"),
    ("organiser notify off", "channel"),
    ("organiser reminders set", "channels"),
];

/// The `--data-dir` of the command line being completed.
static DATA_DIR: OnceLock<Option<PathBuf>> = OnceLock::new();

/// Answers a completion request and exits when `COMPLETE` is set (and not
/// empty or `0`); otherwise returns at once. Called before anything is
/// printed.
pub(crate) fn answer() {
    let asked = std::env::var_os("COMPLETE").is_some_and(|v| !v.is_empty() && v != "0");
    if !asked {
        return;
    }
    let _ = DATA_DIR.set(data_dir_in(std::env::args_os().skip(1)));
    CompleteEnv::with_factory(command).complete();
}

/// The clap definitions, with the completers of dynamic values added.
pub(crate) fn command() -> Command {
    with_list_names(crate::Cli::command(), "organiser")
}

/// Adds the task lists' names to the arguments of [`LIST_NAMES`], in `cmd`
/// (whose path is `path`) and its subcommands.
fn with_list_names(cmd: Command, path: &str) -> Command {
    let cmd = cmd.mut_args(|arg| {
        let id = (path, arg.get_id().as_str());
        if LIST_NAMES.contains(&id) {
            arg.add(ArgValueCandidates::new(list_names))
        } else if PEOPLE_NAMES.contains(&id) {
            arg.add(ArgValueCandidates::new(people_names))
        } else if PROJECT_NAMES.contains(&id) {
            arg.add(ArgValueCandidates::new(project_names))
        } else if TAG_NAMES.contains(&id) {
            arg.add(ArgValueCandidates::new(names_of::<Tag>))
        } else if CATEGORY_NAMES.contains(&id) {
            arg.add(ArgValueCandidates::new(names_of::<Category>))
        } else if FOLDER_NAMES.contains(&id) {
            arg.add(ArgValueCandidates::new(names_of::<Folder>))
        } else if DOCUMENT_NAMES.contains(&id) {
            arg.add(ArgValueCandidates::new(names_of::<Document>))
        } else if FEED_NAMES.contains(&id) {
            arg.add(ArgValueCandidates::new(names_of::<CalendarFeed>))
        } else if SUBSCRIPTION_NAMES.contains(&id) {
            arg.add(ArgValueCandidates::new(names_of::<CalendarSubscription>))
        } else if CHANNEL_NAMES.contains(&id) {
            arg.add(ArgValueCandidates::new(names_of::<NotificationChannel>))
        } else {
            arg
        }
    });
    cmd.mut_subcommands(|sub| {
        let path = format!("{path} {}", sub.get_name());
        with_list_names(sub, &path)
    })
}

/// The `--data-dir DIR` (or `--data-dir=DIR`) among the words of the
/// command line being completed (after the `--` the shell's script puts
/// before them), with a leading `~/` expanded as the shell would.
fn data_dir_in(args: impl Iterator<Item = OsString>) -> Option<PathBuf> {
    let words: Vec<OsString> = args.skip_while(|a| a != "--").skip(1).collect();
    let mut found = None;
    for (i, word) in words.iter().enumerate() {
        let Some(text) = word.to_str() else { continue };
        if text == "--data-dir" {
            found = words.get(i + 1).and_then(|w| w.to_str()).map(str::to_owned);
        } else if let Some(value) = text.strip_prefix("--data-dir=") {
            found = Some(value.to_owned());
        }
    }
    let found = found.filter(|dir| !dir.is_empty())?;
    match found.strip_prefix("~/") {
        Some(rest) => dirs::home_dir().map(|home| home.join(rest)),
        None => Some(PathBuf::from(found)),
    }
}

/// The task lists' names, in their order; none on any error.
fn list_names() -> Vec<CompletionCandidate> {
    names_of::<TaskList>()
}

/// The people's names, by name; none on any error.
fn people_names() -> Vec<CompletionCandidate> {
    names_of::<Person>()
}

/// The projects' names (every status), by name; none on any error.
fn project_names() -> Vec<CompletionCandidate> {
    names_of::<Project>()
}

/// The names of every record of family `F`, read through the backend the
/// commands use (never making a store); none on any error.
fn names_of<F: refs::Family>() -> Vec<CompletionCandidate> {
    if crate::load_config().is_err() {
        return Vec::new();
    }
    let dir = DATA_DIR.get().cloned().flatten();
    let Some(backend) = backend::open_for_completion(dir.as_deref()) else {
        return Vec::new();
    };
    let client = Client::new(backend);
    refs::every::<F>(&client)
        .map(|records| {
            records
                .iter()
                .map(|r| CompletionCandidate::new(r.name().to_owned()))
                .collect()
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every argument named in [`LIST_NAMES`] exists, so renaming one
    /// fails here rather than silently in people's shells.
    #[test]
    fn every_list_argument_exists() {
        let mut cmd = command();
        cmd.build();
        let all = LIST_NAMES
            .iter()
            .chain(PEOPLE_NAMES)
            .chain(PROJECT_NAMES)
            .chain(TAG_NAMES)
            .chain(CATEGORY_NAMES)
            .chain(FOLDER_NAMES)
            .chain(DOCUMENT_NAMES)
            .chain(FEED_NAMES)
            .chain(SUBSCRIPTION_NAMES)
            .chain(CHANNEL_NAMES);
        for (path, id) in all {
            let mut words = path.split(' ').skip(1);
            let mut sub = &cmd;
            for word in words.by_ref() {
                sub = sub
                    .find_subcommand(word)
                    .unwrap_or_else(|| panic!("no subcommand {path}"));
            }
            let arg = sub
                .get_arguments()
                .find(|a| a.get_id() == *id)
                .unwrap_or_else(|| panic!("{path} has no argument {id}"));
            assert!(arg.get::<ArgValueCandidates>().is_some(), "{path} {id}");
        }
    }

    #[test]
    fn the_data_dir_is_read_from_the_words_being_completed() {
        let words = |w: &[&str]| data_dir_in(w.iter().map(OsString::from));
        assert_eq!(
            words(&["--", "organiser", "--data-dir", "/d", "tasks", "list", ""]),
            Some(PathBuf::from("/d"))
        );
        assert_eq!(
            words(&["--", "organiser", "--data-dir=/e", "lists", "rm", "W"]),
            Some(PathBuf::from("/e"))
        );
        assert_eq!(words(&["--", "organiser", "lists", "rm", ""]), None);
        assert_eq!(words(&["--", "organiser", "--data-dir"]), None);
        assert_eq!(words(&[]), None);
    }
}
