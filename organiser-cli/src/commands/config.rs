//! `organiser config path`: the configuration file in use; `organiser
//! config show`: the settings in force and where each came from (a flag,
//! the environment, the file, the default). See `crate::config`.

use clap::{Args, Subcommand};
use serde::Serialize;

use super::Global;
use crate::backend;
use crate::config::{self, ISO};
use crate::error::CliError;
use crate::output::{self, Data};

#[derive(Debug, Args)]
pub(crate) struct ConfigCommand {
    #[command(subcommand)]
    action: ConfigAction,
}

#[derive(Debug, Subcommand)]
enum ConfigAction {
    /// Print the path of the configuration file (whether or not it exists).
    Path,
    /// Show the settings in force and where each came from.
    Show,
}

/// `config path --json`.
#[derive(Serialize)]
struct PathOut {
    path: Option<String>,
    from: &'static str,
    found: bool,
}

/// One setting of `config show`.
#[derive(Serialize)]
struct Setting {
    key: &'static str,
    value: Option<String>,
    from: &'static str,
}

impl ConfigCommand {
    pub(crate) fn run(self, global: &Global) -> Result<(), CliError> {
        match self.action {
            ConfigAction::Path => path(global),
            ConfigAction::Show => show(global),
        }
    }
}

/// Needs no readable file: it says where to look when the file is wrong.
fn path(global: &Global) -> Result<(), CliError> {
    let (path, from) = config::path();
    let found = path.as_ref().is_some_and(|p| p.is_file());
    let text = path.as_ref().map(|p| p.display().to_string());
    if global.json {
        return output::json(&Data {
            data: PathOut {
                path: text,
                from,
                found,
            },
        });
    }
    match text {
        Some(text) => output::line(text),
        None => Err(CliError::msg(
            "no home directory to look in: set ORGANISER_CONFIG or XDG_CONFIG_HOME",
        )),
    }
}

fn show(global: &Global) -> Result<(), CliError> {
    let file = crate::load_config()?;
    let from_file = "the configuration file";
    let (data_dir, data_dir_from) = backend::data_dir_from(global.data_dir.as_deref())?;
    let remote = config::remote()?;
    let (colour, colour_from) = output::colour_choice();
    let settings = vec![
        Setting {
            key: "config",
            value: file.path.as_ref().map(|p| {
                let state = if file.found { "" } else { " (not found)" };
                format!("{}{state}", p.display())
            }),
            from: file.path_from,
        },
        Setting {
            key: "data_dir",
            value: Some(data_dir.display().to_string()),
            from: data_dir_from,
        },
        Setting {
            key: "url",
            value: remote.as_ref().map(|r| r.url.clone()),
            from: remote.as_ref().map_or("the default", |r| r.from),
        },
        Setting {
            key: "token",
            value: remote.as_ref().map(|_| "(set, not shown)".to_owned()),
            from: remote.as_ref().map_or("the default", |r| match r.from {
                "ORGANISER_URL" => "ORGANISER_TOKEN",
                other => other,
            }),
        },
        Setting {
            key: "color",
            value: Some(colour_name(colour).to_owned()),
            from: colour_from,
        },
        Setting {
            key: "default_view",
            value: Some(
                file.default_view
                    .clone()
                    .unwrap_or_else(|| "today".to_owned()),
            ),
            from: if file.default_view.is_some() {
                from_file
            } else {
                "the default"
            },
        },
        Setting {
            key: "date_format",
            value: Some(file.date_format.clone().unwrap_or_else(|| ISO.to_owned())),
            from: if file.date_format.is_some() {
                from_file
            } else {
                "the default"
            },
        },
    ];
    if global.json {
        return output::json(&Data { data: settings });
    }
    let mut table = output::table(&["KEY", "VALUE", "FROM"]);
    for s in &settings {
        let value = s.value.clone().unwrap_or_else(|| "-".to_owned());
        table.add_row(vec![
            output::cell(s.key),
            output::cell(value),
            output::cell(s.from),
        ]);
    }
    output::print_table(&table)
}

fn colour_name(choice: output::ColorChoice) -> &'static str {
    match choice {
        output::ColorChoice::Auto => "auto",
        output::ColorChoice::Always => "always",
        output::ColorChoice::Never => "never",
    }
}
