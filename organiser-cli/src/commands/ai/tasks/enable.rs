//! `organiser ai tasks enable KEY [--model MODEL] [--reasoning R]
//! [--max-output-tokens N]`: `PATCH /ai_tasks/{key}` with `enabled: true`
//! and what is given (only fields sent change).

use clap::Args;
use organiser_core::{Field, ai::AiTaskInput, ai::Reasoning};

use super::{FLAGS, no_task};
use crate::commands::Session;
use crate::commands::ai::{count, model};
use crate::door::Doors;
use crate::error::CliError;

#[derive(Debug, Args)]
pub(super) struct Enable {
    /// The task's key (`ai tasks` lists them).
    key: String,
    /// The model it uses: its row number, name, identifier, short ID or
    /// ID; `default` for the default model.
    #[arg(long)]
    model: Option<String>,
    /// How hard a reasoning model thinks (sent to api_compatible
    /// providers).
    #[arg(long, value_parser = reasoning())]
    reasoning: Option<Reasoning>,
    /// The most tokens a reply may use, reasoning included.
    #[arg(long, value_name = "N")]
    max_output_tokens: Option<u32>,
}

impl Enable {
    pub(super) fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        let model_id = match self.model.as_deref() {
            None => Field::Absent,
            Some("default") => Field::Null,
            Some(reference) => Field::Value(model(s, reference)?.id),
        };
        let input = AiTaskInput {
            enabled: Some(true),
            ai_model_id: model_id,
            reasoning: self.reasoning.map_or(Field::Absent, Field::Value),
            max_output_tokens: self.max_output_tokens.map_or(Field::Absent, Field::Value),
        };
        let changed = s
            .client
            .reply(|c| c.ai().change_task(&self.key, input))
            .map_err(|e| no_task(s.global, &self.key)(e).naming(FLAGS))?;
        let task = &changed.data;
        let mut said = format!("Enabled {} ({})", task.key, task.name);
        if let Some(pending) = task.backfill_pending.filter(|n| *n > 0) {
            said.push_str(&format!(
                " · {} without a title: `{}` queues them",
                count(pending, "note", "notes"),
                s.global.command(&format!("ai tasks backfill {}", task.key))
            ));
        }
        s.global.said(&changed.body, said)
    }
}

/// `--reasoning`: one of the core's words, listed as clap lists choices.
fn reasoning() -> impl clap::builder::TypedValueParser<Value = Reasoning> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(Reasoning::ALL.iter().map(|r| r.as_str()))
        .try_map(|word| Reasoning::parse(&word).ok_or("not a reasoning effort"))
}
