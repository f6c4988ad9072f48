//! `organiser ai models add PROVIDER IDENTIFIER... [--default]`: `POST
//! /ai_providers/{id}/model_additions` with the identifiers; those added
//! already are skipped. Without `--default` it asks for `default_if_none`,
//! so the first model ever added becomes the default; with it, the first
//! identifier's model is made the default (`PATCH /ai_models/{id}`).

use clap::Args;
use organiser_core::{
    ListParams, ai::AddedModels, ai::AiModel, ai::AiModelQuery, ai::AiProvider, ai::ModelAdditions,
};

use super::{FLAGS, make_default};
use crate::commands::Session;
use crate::door::Doors;
use crate::door::Reply;
use crate::error::CliError;
use crate::output::{self, Data};
use crate::refs::{self, first_pages};

#[derive(Debug, Args)]
pub(super) struct Add {
    /// The provider: its row number, name, short ID or ID.
    provider: String,
    /// What the provider calls each model (`ai providers check` lists
    /// them).
    #[arg(required = true, num_args = 1..)]
    identifiers: Vec<String>,
    /// Make the first identifier's model the default.
    #[arg(long)]
    default: bool,
}

impl Add {
    pub(super) fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        let provider = s.refs.record::<AiProvider>(&self.provider)?;
        let additions = ModelAdditions {
            identifiers: Some(self.identifiers.clone()),
            identifier: None,
            default_if_none: !self.default,
        };
        let added = s
            .client
            .reply(|c| c.ai().add_models(provider.id, additions))
            .map_err(|e| refs::gone::<AiProvider>(provider.id)(e).naming(FLAGS))?;
        let Reply { data, body } = added;
        let AddedModels {
            mut added,
            mut default_model_id,
        } = data;
        // Those not added: already there, or not identifiers the API takes.
        let skipped: Vec<&String> = self
            .identifiers
            .iter()
            .filter(|i| !added.iter().any(|m| m.identifier == i.trim()))
            .collect();
        let existing = if skipped.is_empty() && !self.default {
            Vec::new()
        } else {
            of_provider(s, &provider)?
        };
        let mut made_default = None;
        if self.default {
            let first = self.identifiers[0].trim();
            let model = existing
                .iter()
                .find(|m| m.identifier == first)
                .ok_or_else(|| {
                    CliError::msg(format!(
                        "{first:?} was not added, so it cannot be the default"
                    ))
                })?;
            let changed = make_default(s, model.id)?.data;
            default_model_id = Some(changed.id);
            for m in &mut added {
                m.is_default = m.id == changed.id;
                if m.id == changed.id {
                    *m = changed.clone();
                }
            }
            made_default = Some(changed);
        }
        if s.global.json {
            if !self.default {
                return output::json(&body);
            }
            // The additions' answer as it stands after the default moved.
            return output::json(&Data {
                data: AddedModels {
                    added,
                    default_model_id,
                },
            });
        }
        if !added.is_empty() {
            let names: Vec<String> = added
                .iter()
                .map(|m| {
                    if Some(m.id) == default_model_id {
                        format!("{} (default)", m.identifier)
                    } else {
                        m.identifier.clone()
                    }
                })
                .collect();
            output::line(format!(
                "Added {} {} of {}: {}",
                added.len(),
                if added.len() == 1 { "model" } else { "models" },
                provider.name,
                names.join(", ")
            ))?;
        }
        for identifier in &skipped {
            let there = existing.iter().any(|m| m.identifier == identifier.trim());
            output::line(if there {
                format!("Already added: {identifier}")
            } else {
                format!("Not added: {identifier:?} is not a model identifier")
            })?;
        }
        if let Some(model) = made_default
            && !added.iter().any(|m| m.id == model.id)
        {
            output::line(format!("{} is the default model now", model.name))?;
        }
        Ok(())
    }
}

/// Every model of `provider`.
fn of_provider(s: &Session<'_>, provider: &AiProvider) -> Result<Vec<AiModel>, CliError> {
    Ok(first_pages(usize::MAX, |params: ListParams| {
        let query = AiModelQuery {
            ai_provider_id: Some(provider.id),
            params,
        };
        Ok(s.client.reply(|c| c.ai().models(&query))?.data)
    })?
    .items)
}
