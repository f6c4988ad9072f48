//! `organiser projects`: the open projects as a table; show, add, edit,
//! delete and restore them, add and remove their members, read their
//! activity, one file per subcommand; and `organiser deadlines`, the open
//! projects' deadlines to come (and every overdue one).

mod activity;
mod add;
pub(crate) mod deadlines;
mod edit;
mod list;
mod member;
mod rm;
mod show;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{Args, Subcommand};
use organiser_core::{
    Id, ListParams, Page, projects::Project, projects::ProjectQuery, projects::ProjectStatus,
};

use super::{Global, Session};
use crate::backend::Access;
use crate::door::Client;
use crate::door::Doors;
use crate::error::CliError;
use crate::refs::Family;

#[derive(Debug, Args)]
pub(crate) struct ProjectsCommand {
    #[command(subcommand)]
    action: Option<ProjectsAction>,
    /// Only projects of these statuses, separated by commas (default
    /// `open`; `all` for every status).
    #[arg(
        long,
        value_name = "STATUS[,STATUS]",
        value_delimiter = ',',
        value_parser = status_filter()
    )]
    status: Vec<StatusFilter>,
    /// Most projects to show (the pages of the API are read until there
    /// are this many).
    #[arg(long, default_value_t = 50)]
    limit: u32,
    /// Show every project of those statuses, however many (`--status all`
    /// is every status).
    #[arg(long, conflicts_with = "limit")]
    all: bool,
}

#[derive(Debug, Subcommand)]
enum ProjectsAction {
    /// Everything about a project: status, dates, members, open tasks and
    /// the latest activity.
    Show(show::Show),
    /// A project's whole activity, newest first: status and deadline
    /// changes, members, completed tasks, notes, documents.
    Activity(activity::Activity),
    /// Add a project.
    Add(add::Add),
    /// Change a project's name, status, dates, role, reference, link or
    /// description.
    Edit(edit::Edit),
    /// Delete a project with its tasks (it can be restored for 20 seconds).
    Rm(rm::Rm),
    /// Restore a project deleted in the last 20 seconds (the one deleted
    /// last, unless one is named).
    Restore(crate::commands::restore::Restore),
    /// Add a person to a project, or remove them.
    #[command(subcommand)]
    Member(member::MemberAction),
}

impl ProjectsCommand {
    pub(crate) fn run(self, global: &Global) -> Result<(), CliError> {
        let reads = matches!(
            self.action,
            None | Some(ProjectsAction::Show(_) | ProjectsAction::Activity(_))
        );
        let access = if reads { Access::Read } else { Access::Write };
        Session::open(global, access, |s| {
            let limit = if self.all {
                usize::MAX
            } else {
                self.limit as usize
            };
            match self.action {
                None => list::List {
                    statuses: Statuses::from(&self.status),
                    limit,
                }
                .run(s),
                Some(ProjectsAction::Show(c)) => c.run(s),
                Some(ProjectsAction::Activity(c)) => c.run(s),
                Some(ProjectsAction::Add(c)) => c.run(s),
                Some(ProjectsAction::Edit(c)) => c.run(s),
                Some(ProjectsAction::Rm(c)) => c.run(s),
                Some(ProjectsAction::Restore(c)) => c.run::<Project>(s),
                Some(ProjectsAction::Member(c)) => c.run(s),
            }
        })
    }
}

/// Projects are named by row number, name (ignoring case), ID or part of
/// an ID, whatever their status.
impl Family for Project {
    const ONE: &'static str = "project";
    const MANY: &'static str = "projects";
    const NAMED: bool = true;
    const SEARCHED: Option<organiser_core::search::SearchType> =
        Some(organiser_core::search::SearchType::Project);

    fn id(&self) -> Id {
        self.id
    }

    fn name(&self) -> &str {
        &self.name
    }

    fn page(client: &Client, cursor: Option<String>) -> Result<Page<Project>, CliError> {
        let query = ProjectQuery {
            statuses: Vec::new(),
            person_id: None,
            params: ListParams {
                cursor,
                limit: 100,
                ..ListParams::default()
            },
        };
        Ok(client.reply(|c| c.projects().list(&query))?.data)
    }

    fn get(client: &Client, id: Id) -> Result<Project, CliError> {
        Ok(client
            .reply(|c| c.projects().get(id))
            .map_err(no_project(id))?
            .data)
    }
}

/// A 404 about project `id` said plainly.
fn no_project(id: Id) -> impl Fn(CliError) -> CliError {
    crate::refs::gone::<Project>(id)
}

/// A word of `--status` in the listing: a status, or a group of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum StatusFilter {
    One(ProjectStatus),
    /// Planned, active and on hold.
    Open,
    /// Done and cancelled.
    Closed,
    /// Every status.
    All,
}

/// The statuses a listing shows, and how its header says them.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Statuses {
    /// For the API's `status` (empty: every status).
    keys: Vec<ProjectStatus>,
    /// "open", "every status", "done, cancelled".
    said: String,
}

impl Statuses {
    /// What the words of `--status` name together: the open statuses when
    /// none was given.
    fn from(words: &[StatusFilter]) -> Statuses {
        let words = if words.is_empty() {
            &[StatusFilter::Open][..]
        } else {
            words
        };
        let mut keys = Vec::new();
        for word in words {
            let statuses = match word {
                StatusFilter::One(status) => vec![*status],
                StatusFilter::Open | StatusFilter::Closed | StatusFilter::All => ProjectStatus::ALL
                    .into_iter()
                    .filter(|s| match word {
                        StatusFilter::Open => s.is_open(),
                        StatusFilter::Closed => !s.is_open(),
                        _ => true,
                    })
                    .collect(),
            };
            for status in statuses {
                if !keys.contains(&status) {
                    keys.push(status);
                }
            }
        }
        // In the vocabulary's order, whatever the order typed.
        keys.sort_by_key(|k| ProjectStatus::ALL.iter().position(|s| s == k));
        let all = keys.len() == ProjectStatus::ALL.len();
        let open: Vec<ProjectStatus> = ProjectStatus::ALL
            .into_iter()
            .filter(|s| s.is_open())
            .collect();
        let said = if all {
            "every status".to_owned()
        } else if keys == open {
            "open".to_owned()
        } else if keys.iter().all(|s| !s.is_open()) && keys.len() == 2 {
            "closed".to_owned()
        } else {
            let names: Vec<&str> = keys.iter().map(|s| s.key()).collect();
            names.join(", ")
        };
        Statuses {
            keys: if all { Vec::new() } else { keys },
            said,
        }
    }
}

/// A status as typed: its key (`on_hold`, or `on-hold`).
fn status_value(status: ProjectStatus) -> PossibleValue {
    let value = PossibleValue::new(status.key());
    match status {
        ProjectStatus::OnHold => value.alias("on-hold"),
        _ => value,
    }
}

/// The status a possible value of [`status_value`] names, as typed (clap
/// hands over an alias as typed).
fn typed_status(typed: &str) -> Result<ProjectStatus, String> {
    ProjectStatus::from_key(&typed.replace('-', "_"))
        .ok_or_else(|| format!("{typed:?} is not a project status"))
}

/// `--status` of `add` and `edit`: one of the core's statuses.
fn status_parser() -> impl TypedValueParser<Value = ProjectStatus> {
    PossibleValuesParser::new(ProjectStatus::ALL.map(status_value)).try_map(|t| typed_status(&t))
}

/// `--status` of the listing: a status, `open`, `closed` or `all`.
fn status_filter() -> impl TypedValueParser<Value = StatusFilter> {
    let groups = [
        PossibleValue::new("open").help("planned, active and on_hold"),
        PossibleValue::new("closed").help("done and cancelled"),
        PossibleValue::new("all").help("every status"),
    ];
    let values = ProjectStatus::ALL
        .map(status_value)
        .into_iter()
        .chain(groups);
    PossibleValuesParser::new(values).try_map(|typed| match typed.as_str() {
        "open" => Ok(StatusFilter::Open),
        "closed" => Ok(StatusFilter::Closed),
        "all" => Ok(StatusFilter::All),
        typed => typed_status(typed).map(StatusFilter::One),
    })
}

/// The API's project fields as the project commands set them, for
/// messages (`name` is the argument of `add`; `edit` says `--name`).
const FLAGS: &[(&str, &str)] = &[
    ("name", "the name"),
    ("status", "--status"),
    ("start_date", "--start"),
    ("deadline", "--deadline"),
    ("my_role", "--role"),
    ("external_reference", "--reference"),
    ("external_url", "--url"),
    ("description_html", "--description"),
];

/// Plain text as the note-body HTML a description is: a paragraph at each
/// blank line, a line break at each other one, `&`, `<` and `>` escaped
/// (so what was typed is what is kept); "" for blank text (which clears).
fn description_html(text: &str) -> String {
    let escaped = text
        .replace('\r', "")
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;");
    escaped
        .split("\n\n")
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|p| format!("<p>{}</p>", p.replace('\n', "<br>")))
        .collect()
}

/// A date as the tables print it, or nothing.
fn date(day: Option<jiff::civil::Date>) -> String {
    day.map(crate::output::date).unwrap_or_default()
}

impl crate::commands::restore::Restorable for Project {
    type Record = organiser_core::projects::Project;
    const LABEL: &'static str = "project ";

    fn live(client: &Client, id: Id) -> Result<crate::door::Reply<Self::Record>, CliError> {
        client.reply(|c| c.projects().get(id))
    }

    fn restore(client: &Client, id: Id) -> Result<crate::door::Reply<Self::Record>, CliError> {
        client.reply(|c| c.projects().restore(id))
    }

    fn called(record: &Self::Record) -> &str {
        &record.name
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_words_name_statuses() {
        use StatusFilter as F;
        let said = |words: &[StatusFilter]| Statuses::from(words);
        let open = said(&[]);
        assert_eq!(open.said, "open");
        assert_eq!(
            open.keys,
            [
                ProjectStatus::Planned,
                ProjectStatus::Active,
                ProjectStatus::OnHold
            ]
        );
        assert_eq!(said(&[F::Open]), open);
        let all = said(&[F::All]);
        assert_eq!((all.keys.len(), all.said.as_str()), (0, "every status"));
        assert_eq!(said(&[F::Open, F::Closed]), all);
        assert_eq!(said(&[F::Closed]).said, "closed");
        let two = said(&[
            F::One(ProjectStatus::Done),
            F::One(ProjectStatus::Planned),
            F::One(ProjectStatus::Done),
        ]);
        assert_eq!(
            two.keys,
            [ProjectStatus::Planned, ProjectStatus::Done],
            "in order, once"
        );
        assert_eq!(two.said, "planned, done");
    }

    #[test]
    fn statuses_are_typed_as_keys_or_with_hyphens() {
        let parse = |typed: &str| {
            let cmd = clap::Command::new("t");
            let arg = clap::Arg::new("s");
            status_parser().parse_ref(&cmd, Some(&arg), typed.as_ref())
        };
        assert_eq!(parse("on_hold").unwrap(), ProjectStatus::OnHold);
        assert_eq!(parse("on-hold").unwrap(), ProjectStatus::OnHold);
        assert_eq!(parse("done").unwrap(), ProjectStatus::Done);
        assert!(parse("paused").is_err());
    }

    #[test]
    fn descriptions_are_escaped_paragraphs() {
        assert_eq!(description_html("  "), "");
        assert_eq!(description_html("One"), "<p>One</p>");
        assert_eq!(
            description_html("a < b & c\nnext\n\nsecond\r\n"),
            "<p>a &lt; b &amp; c<br>next</p><p>second</p>"
        );
    }
}
