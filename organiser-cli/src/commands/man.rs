//! `organiser man [COMMAND...]`: a manual page in roff, generated from the
//! clap definitions (clap_mangen), on standard output: `organiser(1)`,
//! which lists the commands, or one command's own page (`organiser man
//! tasks add` is `organiser-tasks-add(1)`). `--dir DIR` writes every page
//! instead, one file each, for packagers.

use std::io::Write;
use std::path::PathBuf;

use clap::{Args, CommandFactory};
use clap_mangen::Man;

use crate::error::CliError;

#[derive(Debug, Args)]
pub(crate) struct ManCommand {
    /// The command whose page to print (`tasks`, `tasks add`); none for the main page.
    #[arg(value_name = "COMMAND", conflicts_with = "dir")]
    command: Vec<String>,
    /// Write every page to this directory (organiser.1, organiser-tasks.1, ...) instead.
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
}

impl ManCommand {
    pub(crate) fn run(self) -> Result<(), CliError> {
        let mut root = crate::Cli::command().disable_help_subcommand(true);
        if let Some(dir) = self.dir {
            std::fs::create_dir_all(&dir).map_err(|e| {
                CliError::msg(format!("cannot make the directory {}: {e}", dir.display()))
            })?;
            clap_mangen::generate_to(root, &dir).map_err(|e| {
                CliError::msg(format!("cannot write the pages to {}: {e}", dir.display()))
            })?;
            return Ok(());
        }
        // Built, every subcommand knows its full name (`organiser-tasks-add`).
        root.build();
        let mut page = &root;
        for word in &self.command {
            page = page
                .get_subcommands()
                .find(|sub| sub.get_name() == word.as_str())
                .ok_or_else(|| {
                    CliError::usage(format!(
                        "there is no command `organiser {}`: see `organiser --help`",
                        self.command.join(" ")
                    ))
                })?;
        }
        let mut roff = Vec::new();
        Man::new(page.clone()).render(&mut roff)?;
        std::io::stdout().lock().write_all(&roff)?;
        Ok(())
    }
}
