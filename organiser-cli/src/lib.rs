//! The terminal adapter of Organiser: the code of the `organiser` binary.
//!
//! Each command calls the API through a typed client (the core's inputs
//! in, the core's records out), which builds the same
//! [`organiser_core::server::Request`]s whether it runs in-process on the store or,
//! when a server holds the store, over HTTP to that server: one code path
//! per command (see [`backend`]).
#![forbid(unsafe_code)]

pub mod backend;
mod commands;
mod completion;
mod config;
mod door;
mod error;
mod output;
mod refs;
mod session;
mod terminal;

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

pub use error::CliError;
pub use terminal::ColorChoice;

/// `organiser`: a self-hosted personal organiser.
#[derive(Debug, Parser)]
#[command(
    name = "organiser",
    version = version(),
    about = "A self-hosted personal organiser",
    propagate_version = true
)]
pub struct Cli {
    /// The data directory (default: $ORGANISER_DATA_DIR, else data_dir in the configuration file,
    /// else ~/.local/share/organiser).
    #[arg(long, global = true, value_name = "DIR")]
    pub data_dir: Option<PathBuf>,

    /// Print the API's JSON instead of a table.
    #[arg(long, global = true)]
    pub json: bool,

    /// When to colour: auto (a terminal, unless NO_COLOR; CLICOLOR_FORCE forces it), always, never
    /// [default: CLICOLOR_FORCE or NO_COLOR, else color in the configuration file, else auto].
    /// Given before the command (`organiser --color never tasks`): `lists add --color` is a list's colour.
    #[arg(long, value_enum, value_name = "WHEN")]
    pub color: Option<ColorChoice>,

    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Set up the owner of a new store.
    Init(commands::init::Init),
    /// Make, list and revoke API tokens.
    #[command(subcommand)]
    Token(commands::token::Token),
    /// Serve the JSON API.
    Serve(commands::serve::Serve),
    /// Show (or change) the owner.
    Me(commands::me::MeCommand),
    /// Set the owner's password (asked for on a terminal, else read from standard input).
    Password(commands::password::Password),
    /// Show the version and update status, check for an update, or turn
    /// the daily checks on or off.
    System(commands::system::SystemCommand),
    /// Show the licence (trial, licensed or read-only), add or remove a key.
    Licence(commands::licence::LicenceCommand),
    /// Tasks: the views (today by default), add, done, edit, move, rm, ...
    Tasks(commands::tasks::TasksCommand),
    /// Task lists: show, add, rename, move, rm, restore.
    Lists(commands::lists::ListsCommand),
    /// People: show, add, edit, link, rm, restore.
    People(commands::people::PeopleCommand),
    /// Birthdays and other key dates coming up.
    Birthdays(commands::people::birthdays::Birthdays),
    /// Projects: the open ones by default; show, add, edit, member, rm, restore.
    Projects(commands::projects::ProjectsCommand),
    /// Open projects' deadlines coming up, and every overdue one.
    Deadlines(commands::projects::deadlines::Deadlines),
    /// Notes: the latest first, or those a search finds; show, add, edit, pin, unpin, rm, restore.
    Notes(commands::notes::NotesCommand),
    /// Note tags: the list; rename, merge, rm.
    Tags(commands::tags::TagsCommand),
    /// Note categories: the list in order; add, move, rm.
    Categories(commands::categories::CategoriesCommand),
    /// The calendar day by day: the feeds' events, tasks due, project dates
    /// and key dates (today by default; week, a date, or DATE..DATE);
    /// subscribe to it from a phone (subscribe, subscriptions).
    Calendar(commands::calendar::Calendar),
    /// Where reminders go: notification channels (ntfy, webhooks,
    /// e-mail); add, test, rm, on, off.
    Notify(commands::notify::NotifyCommand),
    /// Reminder settings (channels, daily agenda, key dates, deadlines)
    /// and the latest notifications; set, log.
    Reminders(commands::reminders::RemindersCommand),
    /// The web app: a one-time sign-in link (link).
    Web(commands::web::WebCommand),
    /// Search people, projects, notes, tasks, documents, task lists and
    /// folders at once (misspellings forgiven), each match with the
    /// command that opens it.
    Search(commands::search::Search),
    /// Calendar feeds (iCal addresses) with their health; add, sync, rm.
    Feeds(commands::feeds::FeedsCommand),
    /// Documents (PDFs): by name, in a folder, or a search; add, open, link, unlink, rm, restore.
    Docs(commands::docs::DocsCommand),
    /// Document folders as a tree with their document counts; add, rename, rm.
    Folders(commands::folders::FoldersCommand),
    /// AI: providers, the models added from them, the built-in tasks
    /// (backfill, with progress), and trying a model.
    Ai(commands::ai::AiCommand),
    /// Back the store up now (`--to FILE` for a copy elsewhere), or check an archive (`backup verify FILE`).
    Backup(commands::backup::BackupCommand),
    /// The backups, newest first, with the schedule.
    Backups(commands::backup::BackupsCommand),
    /// Restore a backup (stop the server first): checked whole first; the current data is moved aside.
    Restore(commands::backup::RestoreCommand),
    /// Export everything (a lossless zip), or people, tasks or notes for other tools (`--format vcard|ical|markdown`).
    Export(commands::transfer::ExportCommand),
    /// Import a file: our export, Todoist, Taskwarrior, vCards, iCal to-dos, or Markdown notes (a folder or zip).
    Import(commands::transfer::ImportCommand),
    /// Give the space deleted records left back to the file system (stop the server first).
    Compact(commands::compact::Compact),
    /// Where the store's bytes are: each table's entries and size, largest first.
    Stats(commands::stats::Stats),
    /// Print a shell's completion script (bash, zsh, fish, elvish, powershell).
    Completions(commands::completions::Completions),
    /// Print the manual page (roff), or a command's own page.
    Man(commands::man::ManCommand),
    /// The configuration file: where it is, and the settings in force.
    Config(commands::config::ConfigCommand),
}

impl Command {
    /// Whether the command reads the configuration file first: every one
    /// but those that only print what the command line is, and `config
    /// path`, which must work when the file is wrong.
    fn reads_config(&self) -> bool {
        !matches!(
            self,
            Command::Completions(_) | Command::Man(_) | Command::Config(_)
        )
    }
}

/// `0.1.0`, or `0.1.0 (development build)` where the API reports `dev`.
fn version() -> &'static str {
    static VERSION: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    VERSION.get_or_init(|| {
        let package = env!("CARGO_PKG_VERSION");
        if organiser_core::options::BuildInfo::current().is_dev() {
            format!("{package} (development build)")
        } else {
            package.to_owned()
        }
    })
}

/// Runs the command line and returns the process's exit code: 0 on
/// success, 1 on an error (said on one line on standard error, or with
/// `--json` as one JSON object there), 2 for a usage mistake. A closed
/// pipe on standard output is not an error.
pub fn main() -> ExitCode {
    if let Some(code) = render_pdf() {
        return code;
    }
    // `COMPLETE=bash organiser ...`: the shell asks for completions.
    completion::answer();
    let json = std::env::args_os().skip(1).any(|a| a == "--json");
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            // --help and --version.
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) if json => {
            let said = e
                .kind()
                .as_str()
                .unwrap_or("the command line is not understood");
            // The message with what it names (the missing arguments are
            // on the lines after the first), without the usage and tips.
            let text = e.to_string();
            let named: Vec<&str> = text
                .lines()
                .map(str::trim)
                .take_while(|l| !l.starts_with("Usage:") && !l.starts_with("tip:"))
                .filter(|l| !l.is_empty())
                .collect();
            let message = match named.join(" ") {
                m if m.is_empty() => said.to_owned(),
                m => m,
            };
            let error = CliError::usage(message.trim_start_matches("error: "));
            return fail(&error, true);
        }
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(2);
        }
    };
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(CliError::BrokenPipe) => ExitCode::SUCCESS,
        Err(e) => fail(&e, json),
    }
}

/// `organiser __render-pdf-thumbnail SIDE`: this process renders one PDF
/// thumbnail for the core, within the budget it sets itself
/// (`organiser_core::pdf::child_main`); not a command for people.
fn render_pdf() -> Option<ExitCode> {
    let mut args = std::env::args_os().skip(1);
    if args.next()? != backend::RENDER_PDF {
        return None;
    }
    let side = args
        .next()
        .and_then(|s| s.into_string().ok())
        .unwrap_or_default();
    let rendered = organiser_core::pdf::child_main(
        &side,
        &mut std::io::stdin().lock(),
        &mut std::io::stdout().lock(),
    );
    Some(match rendered {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "error: {e}");
            ExitCode::from(1)
        }
    })
}

/// Says `e` on standard error and gives its exit status.
fn fail(e: &CliError, json: bool) -> ExitCode {
    let mut stderr = std::io::stderr();
    let _ = if json {
        writeln!(stderr, "{}", e.to_json())
    } else {
        writeln!(stderr, "error: {e}")
    };
    ExitCode::from(e.exit_code())
}

/// Reads the configuration file (once), its `default_view` checked
/// against the views of `organiser tasks`.
pub(crate) fn load_config() -> Result<&'static config::Config, CliError> {
    config::load(commands::tasks::check_view)
}

fn run(cli: Cli) -> Result<(), CliError> {
    output::choose_colour(cli.color);
    if cli.command.reads_config() {
        load_config()?;
    }
    let global = commands::Global {
        data_dir: cli.data_dir,
        json: cli.json,
    };
    match cli.command {
        Command::Init(c) => c.run(&global),
        Command::Token(c) => c.run(&global),
        Command::Serve(c) => c.run(&global),
        Command::Me(c) => c.run(&global),
        Command::Password(c) => c.run(&global),
        Command::System(c) => c.run(&global),
        Command::Licence(c) => c.run(&global),
        Command::Tasks(c) => c.run(&global),
        Command::Lists(c) => c.run(&global),
        Command::People(c) => c.run(&global),
        Command::Birthdays(c) => c.run(&global),
        Command::Projects(c) => c.run(&global),
        Command::Deadlines(c) => c.run(&global),
        Command::Notes(c) => c.run(&global),
        Command::Tags(c) => c.run(&global),
        Command::Categories(c) => c.run(&global),
        Command::Calendar(c) => c.run(&global),
        Command::Notify(c) => c.run(&global),
        Command::Reminders(c) => c.run(&global),
        Command::Web(c) => c.run(&global),
        Command::Search(c) => c.run(&global),
        Command::Feeds(c) => c.run(&global),
        Command::Docs(c) => c.run(&global),
        Command::Folders(c) => c.run(&global),
        Command::Ai(c) => c.run(&global),
        Command::Backup(c) => c.run(&global),
        Command::Export(c) => c.run(&global),
        Command::Import(c) => c.run(&global),
        Command::Backups(c) => c.run(&global),
        Command::Restore(c) => c.run(&global),
        Command::Compact(c) => c.run(&global),
        Command::Stats(c) => c.run(&global),
        Command::Completions(c) => c.run(),
        Command::Man(c) => c.run(),
        Command::Config(c) => c.run(&global),
    }
}
