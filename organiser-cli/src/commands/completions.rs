//! `organiser completions SHELL`: the shell's completion script, generated
//! from the clap definitions (clap_complete), on standard output. It
//! completes subcommands, flags and fixed values; for the names of the
//! store's task lists too, see `COMPLETE=SHELL organiser` (`completion.rs`).

use std::io::Write;

use clap::{Args, CommandFactory};
use clap_complete::Shell;

use crate::error::CliError;

#[derive(Debug, Args)]
pub(crate) struct Completions {
    /// The shell to complete for.
    #[arg(value_enum)]
    shell: Shell,
}

impl Completions {
    pub(crate) fn run(self) -> Result<(), CliError> {
        let mut cmd = crate::Cli::command();
        let mut script = Vec::new();
        clap_complete::generate(self.shell, &mut cmd, "organiser", &mut script);
        std::io::stdout().lock().write_all(&script)?;
        Ok(())
    }
}
