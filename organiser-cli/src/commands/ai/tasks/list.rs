//! `organiser ai tasks`: every built-in task in the API's order, whether
//! it is on, its model ("default" for the default model), reasoning
//! effort, token budget, how many records a backfill would queue and how
//! many wait in its queue.

use organiser_core::ai::AiModel;

use crate::commands::Session;
use crate::door::Doors;
use crate::error::CliError;
use crate::output;
use crate::refs;

pub(super) fn run(s: &Session<'_>) -> Result<(), CliError> {
    let tasks = s.client.reply(|c| c.ai().tasks())?;
    if s.global.json {
        return output::json(&tasks.body);
    }
    let tasks = tasks.data;
    let models = if tasks.iter().any(|t| t.ai_model_id.is_some()) {
        refs::every::<AiModel>(s.client)?
    } else {
        Vec::new()
    };
    output::line(format!(
        "AI tasks · {} on",
        tasks.iter().filter(|t| t.enabled).count()
    ))?;
    let mut table = output::table(&[
        "KEY",
        "NAME",
        "ENABLED",
        "MODEL",
        "REASONING",
        "MAX TOKENS",
        "BACKFILL",
        "QUEUED",
    ]);
    for task in &tasks {
        let queued = s.client.reply(|c| c.ai().queue(&task.key))?.data.queued;
        let model = match task.ai_model_id {
            None => "default".to_owned(),
            Some(id) => models
                .iter()
                .find(|m| m.id == id)
                .map_or_else(|| output::short_id(id), |m| m.name.clone()),
        };
        let tokens = match task.max_output_tokens {
            Some(n) => n.to_string(),
            None => format!("{} (default)", task.default_max_output_tokens),
        };
        table.add_row(vec![
            output::cell(&task.key),
            output::cell(&task.name),
            output::cell(if task.enabled { "yes" } else { "no" }),
            output::cell(model),
            output::cell(task.reasoning.map_or("-", |r| r.as_str())),
            output::cell(tokens),
            output::cell(
                task.backfill_pending
                    .map_or("-".to_owned(), |n| n.to_string()),
            ),
            output::cell(queued),
        ]);
    }
    output::print_table(&table)
}
