//! `organiser ai providers`: every provider by name, with its kind,
//! address, whether a key is stored, when a call last succeeded and why
//! the last one failed.

use organiser_core::{Page, ai::AiProvider};

use crate::commands::Session;
use crate::commands::ai::{count, when, zone};
use crate::error::CliError;
use crate::output;
use crate::refs;

pub(super) fn run(s: &Session<'_>) -> Result<(), CliError> {
    let providers = refs::every::<AiProvider>(s.client)?;
    s.refs.listed(&providers);
    if s.global.json {
        // Every page's providers in one page of the API's shape.
        let limit = providers.len().max(1);
        return output::json(&Page {
            items: providers,
            next_cursor: None,
            limit,
            total_count: None,
        });
    }
    let failing = providers
        .iter()
        .filter(|p| p.last_error_reason.is_some())
        .count();
    let mut title = format!(
        "AI providers · {}",
        count(providers.len() as u64, "provider", "providers")
    );
    if failing > 0 {
        title.push_str(&format!(" · {failing} failing"));
    }
    output::line(title)?;
    if providers.is_empty() {
        return output::line(format!(
            "No providers yet: add one with `{}`.",
            s.global
                .command("ai providers add NAME --kind KIND --base-url URL")
        ));
    }
    let zone = zone(s.client)?;
    let mut table = output::table(&[
        "#",
        "ID",
        "NAME",
        "KIND",
        "BASE URL",
        "KEY",
        "LAST SUCCESS",
        "LAST ERROR",
    ]);
    for (row, provider) in providers.iter().enumerate() {
        let succeeded = provider
            .last_succeeded_at
            .map_or_else(|| "never".to_owned(), |at| when(at, &zone));
        let error = match (&provider.last_error_reason, provider.last_failed_at) {
            (Some(reason), Some(at)) => format!("{} · {reason}", when(at, &zone)),
            (Some(reason), None) => reason.clone(),
            (None, _) => String::new(),
        };
        table.add_row(vec![
            output::cell(row + 1),
            output::cell(output::short_id(provider.id)),
            output::cell(&provider.name),
            output::cell(provider.kind),
            output::cell(provider.base_url.as_deref().unwrap_or("")),
            output::cell(if provider.api_key_set { "yes" } else { "no" }),
            output::cell(succeeded),
            output::red(error),
        ]);
    }
    output::print_table(&table)
}
