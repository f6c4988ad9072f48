//! `organiser ai`: the AI providers (where models are served), the models
//! added from them (one is the default), the built-in tasks that use
//! them, and trying a model; one folder per family, one file per
//! subcommand. The rules are the API's: the commands parse, call and
//! show.

mod models;
mod providers;
mod tasks;
mod trial;

use clap::{Args, Subcommand};
use jiff::Timestamp;
use jiff::tz::TimeZone;
use organiser_core::{
    Id, ListParams, Page, ai::AiModel, ai::AiModelQuery, ai::AiProvider, ai::AiProviderQuery,
};

use super::{Global, Session};
use crate::door::Client;
use crate::door::Doors;
use crate::error::CliError;
use crate::output;
use crate::refs::{self, Family};

#[derive(Debug, Args)]
pub(crate) struct AiCommand {
    #[command(subcommand)]
    action: AiAction,
}

#[derive(Debug, Subcommand)]
enum AiAction {
    /// AI providers with their kind, address and last outcome; add, test,
    /// check, rm.
    Providers(providers::ProvidersCommand),
    /// AI models with their provider and the default; add, default, rm.
    Models(models::ModelsCommand),
    /// The built-in AI tasks; enable, disable, backfill.
    Tasks(tasks::TasksCommand),
    /// Send a prompt to a model and print its reply.
    Try(trial::Try),
}

impl AiCommand {
    pub(crate) fn run(self, global: &Global) -> Result<(), CliError> {
        match self.action {
            AiAction::Providers(c) => c.run(global),
            AiAction::Models(c) => c.run(global),
            AiAction::Tasks(c) => c.run(global),
            AiAction::Try(c) => c.run(global),
        }
    }
}

/// Providers are named by row number, name (ignoring case), ID or part of
/// an ID.
impl Family for AiProvider {
    const ONE: &'static str = "AI provider";
    const MANY: &'static str = "ai providers";
    const NAMED: bool = true;

    fn id(&self) -> Id {
        self.id
    }

    fn name(&self) -> &str {
        &self.name
    }

    fn page(client: &Client, cursor: Option<String>) -> Result<Page<AiProvider>, CliError> {
        let query = AiProviderQuery {
            params: ListParams {
                cursor,
                limit: 100,
                order: Some(organiser_core::list::ListOrder::Name),
                ..ListParams::default()
            },
        };
        Ok(client.reply(|c| c.ai().providers(&query))?.data)
    }

    fn get(client: &Client, id: Id) -> Result<AiProvider, CliError> {
        Ok(client
            .reply(|c| c.ai().provider(id))
            .map_err(refs::gone::<AiProvider>(id))?
            .data)
    }
}

/// Models are named by row number, name (ignoring case), ID or part of an
/// ID; [`model`] also takes the identifier.
impl Family for AiModel {
    const ONE: &'static str = "AI model";
    const MANY: &'static str = "ai models";
    const NAMED: bool = true;

    fn id(&self) -> Id {
        self.id
    }

    fn name(&self) -> &str {
        &self.name
    }

    fn page(client: &Client, cursor: Option<String>) -> Result<Page<AiModel>, CliError> {
        let query = AiModelQuery {
            ai_provider_id: None,
            params: ListParams {
                cursor,
                limit: 100,
                order: Some(organiser_core::list::ListOrder::Name),
                ..ListParams::default()
            },
        };
        Ok(client.reply(|c| c.ai().models(&query))?.data)
    }

    fn get(client: &Client, id: Id) -> Result<AiModel, CliError> {
        Ok(client
            .reply(|c| c.ai().model(id))
            .map_err(refs::gone::<AiModel>(id))?
            .data)
    }
}

/// The model `reference` names: a row number or an ID as every family
/// takes them; else the one model whose name (ignoring case) or
/// identifier it is; else as every named family (the start of a name,
/// part of an ID).
fn model(s: &Session<'_>, reference: &str) -> Result<AiModel, CliError> {
    let reference = reference.trim();
    let row = (1..=3).contains(&reference.len()) && reference.bytes().all(|b| b.is_ascii_digit());
    if row || Id::parse(reference).is_some() {
        return s.refs.record::<AiModel>(reference);
    }
    let mut found: Vec<AiModel> = refs::every::<AiModel>(s.client)?
        .into_iter()
        .filter(|m| m.identifier == reference || m.name.to_lowercase() == reference.to_lowercase())
        .collect();
    match found.len() {
        0 => s.refs.record::<AiModel>(reference),
        1 => Ok(found.remove(0)),
        n => {
            let providers = refs::every::<AiProvider>(s.client)?;
            let shown: Vec<String> = found
                .iter()
                .map(|m| {
                    format!(
                        "{} {} of {}",
                        output::short_id(m.id),
                        output::clean(&m.identifier),
                        output::clean(provider_name(&providers, m.ai_provider_id))
                    )
                })
                .collect();
            Err(CliError::msg(format!(
                "{reference:?} names {n} AI models: {}; give the ID, or a row number of `{}`",
                shown.join(", "),
                s.global.command("ai models")
            )))
        }
    }
}

/// The name of provider `id` among `providers` ("?" when it is not there).
fn provider_name(providers: &[AiProvider], id: Id) -> &str {
    providers
        .iter()
        .find(|p| p.id == id)
        .map_or("?", |p| p.name.as_str())
}

/// An instant as the AI tables show it: the date as tables print it and
/// the time, in the owner's zone.
fn when(at: Timestamp, zone: &TimeZone) -> String {
    let local = at.to_zoned(zone.clone());
    format!("{} {}", output::date(local.date()), local.strftime("%H:%M"))
}

/// The owner's zone, for times (UTC when it cannot be read).
fn zone(client: &Client) -> Result<TimeZone, CliError> {
    Ok(
        TimeZone::get(&client.reply(|c| c.account().me())?.data.time_zone_iana)
            .unwrap_or(TimeZone::UTC),
    )
}

/// "1 model", "2 models".
fn count(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}
