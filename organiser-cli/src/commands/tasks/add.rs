//! `organiser tasks add TITLE [--list NAME | --project P | --person P] [--start D] [--deadline D]
//! [--expires D] [--remind WHEN] [--description TEXT] [--attach FILE.pdf]... [--every PHRASE |
//! --after-done SPAN]`.

use clap::Args;
use organiser_core::{Field, people::Person, tasks::TaskInput};

use super::{DateArgs, HomeArgs, RepeatArgs};
use crate::commands::Session;
use crate::commands::upload::upload_pdf;
use crate::door::Doors;
use crate::error::CliError;
use crate::output;

#[derive(Debug, Args)]
pub(super) struct Add {
    /// The title: every word, no quotes needed (`tasks add Buy oat milk`).
    #[arg(required = true, num_args = 1..)]
    title: Vec<String>,
    /// The description, as Markdown (`@Name` mentions a person); `-`
    /// reads it from standard input.
    #[arg(long, value_name = "TEXT", allow_hyphen_values = true)]
    description: Option<String>,
    #[command(flatten)]
    dates: DateArgs,
    #[command(flatten)]
    repeat: RepeatArgs,
    /// The list to put it in.
    #[arg(long)]
    list: Option<String>,
    /// The project to put it in (its row number, name, short ID or ID).
    #[arg(long, conflicts_with = "list")]
    project: Option<String>,
    /// The person whose task it is (their row number, name, short ID or ID).
    #[arg(long, conflicts_with_all = ["list", "project"])]
    person: Option<String>,
    /// A PDF to attach: it becomes a document linked to the task, named
    /// after the file (may be given more than once).
    #[arg(long, value_name = "FILE")]
    attach: Vec<std::path::PathBuf>,
}

impl Add {
    pub(super) fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        let mut input = TaskInput::titled(self.title.join(" "));
        input.description_html = super::description(s, self.description.as_deref())?;
        self.dates.apply(s.client, &mut input)?;
        self.repeat.apply(&mut input)?;
        let home = HomeArgs {
            list: self.list,
            project: self.project,
            inbox: false,
        };
        home.apply(&s.refs, &mut input)?;
        if let Some(person) = &self.person {
            input.person_id = Field::Value(s.refs.id::<Person>(person)?);
        }
        if !self.attach.is_empty() {
            let mut uploads = Vec::new();
            for file in &self.attach {
                uploads.push(upload_pdf(s.client, file, "--attach")?.signed_id);
            }
            input.document_uploads = Field::Value(uploads);
        }
        let made = s
            .client
            .reply(|c| c.tasks().create(input))
            .map_err(|e| e.naming(super::FLAGS))?;
        let task = &made.data;
        let reminds = if s.global.json {
            String::new()
        } else {
            self.dates.reminds(s.client, task)?
        };
        s.global.said(
            &made.body,
            format!(
                "Added {} ({}){}{reminds}",
                task.title,
                output::short_id(task.id),
                self.dates.worked_out(task)
            ) + &super::repeats(task, false)
                + &match self.attach.len() {
                    0 => String::new(),
                    1 => ", with 1 document".to_owned(),
                    n => format!(", with {n} documents"),
                },
        )
    }
}
