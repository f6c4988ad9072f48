//! One module per subcommand: a clap struct and its `run`.

pub(crate) mod compact;
pub(crate) mod init;
pub(crate) mod lists;
pub(crate) mod me;
pub(crate) mod serve;
pub(crate) mod system;
pub(crate) mod tasks;
pub(crate) mod token;

use std::path::PathBuf;

use crate::backend::{Access, Backend};
use crate::error::CliError;

/// Flags every command takes.
pub(crate) struct Global {
    pub(crate) data_dir: Option<PathBuf>,
    pub(crate) json: bool,
}

impl Global {
    /// Where a command that writes sends its requests.
    pub(crate) fn backend(&self) -> Result<Backend, CliError> {
        Backend::open(self.data_dir.as_deref(), Access::Write)
    }

    /// Where a command that only reads sends its requests.
    pub(crate) fn reader(&self) -> Result<Backend, CliError> {
        Backend::open(self.data_dir.as_deref(), Access::Read)
    }
}
