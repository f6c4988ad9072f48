//! `organiser ai models [--provider P]`: every model by name, with its
//! identifier, its provider and the default marked.

use organiser_core::{ListParams, Page, ai::AiModel, ai::AiModelQuery, ai::AiProvider};

use crate::commands::Session;
use crate::commands::ai::{count, provider_name};
use crate::door::Doors;
use crate::error::CliError;
use crate::output;
use crate::refs::{self, first_pages};

pub(super) fn run(s: &Session<'_>, provider: Option<&str>) -> Result<(), CliError> {
    let providers = refs::every::<AiProvider>(s.client)?;
    let models = match provider {
        None => refs::every::<AiModel>(s.client)?,
        Some(reference) => {
            let provider = s.refs.record::<AiProvider>(reference)?;
            first_pages(usize::MAX, |params: ListParams| {
                let query = AiModelQuery {
                    ai_provider_id: Some(provider.id),
                    params: ListParams {
                        order: Some(organiser_core::list::ListOrder::Name),
                        ..params
                    },
                };
                Ok(s.client.reply(|c| c.ai().models(&query))?.data)
            })?
            .items
        }
    };
    s.refs.listed(&models);
    if s.global.json {
        // Every page's models in one page of the API's shape.
        let limit = models.len().max(1);
        return output::json(&Page {
            items: models,
            next_cursor: None,
            limit,
            total_count: None,
        });
    }
    let mut title = format!(
        "AI models · {}",
        count(models.len() as u64, "model", "models")
    );
    match models.iter().find(|m| m.is_default) {
        Some(default) => title.push_str(&format!(" · default {}", default.name)),
        None if provider.is_none() => title.push_str(" · no default"),
        None => {}
    }
    output::line(title)?;
    if models.is_empty() {
        let hint = if providers.is_empty() {
            "ai providers add NAME --kind KIND --base-url URL"
        } else {
            "ai models add PROVIDER IDENTIFIER"
        };
        return output::line(format!(
            "No models yet: add one with `{}`.",
            s.global.command(hint)
        ));
    }
    let mut table = output::table(&["#", "ID", "NAME", "IDENTIFIER", "PROVIDER", "DEFAULT"]);
    for (row, model) in models.iter().enumerate() {
        table.add_row(vec![
            output::cell(row + 1),
            output::cell(output::short_id(model.id)),
            output::cell(&model.name),
            output::cell(&model.identifier),
            output::cell(provider_name(&providers, model.ai_provider_id)),
            output::cell(if model.is_default { "*" } else { "" }),
        ]);
    }
    output::print_table(&table)
}
