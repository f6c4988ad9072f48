//! One module per subcommand: a clap struct and its `run`.

pub(crate) mod init;
pub(crate) mod lists;
pub(crate) mod me;
pub(crate) mod serve;
pub(crate) mod system;
pub(crate) mod tasks;
pub(crate) mod token;

use std::path::PathBuf;

use crate::backend::Backend;
use crate::error::CliError;

/// Flags every command takes.
pub(crate) struct Global {
    pub(crate) data_dir: Option<PathBuf>,
    pub(crate) json: bool,
}

impl Global {
    pub(crate) fn backend(&self) -> Result<Backend, CliError> {
        Backend::open(self.data_dir.as_deref())
    }
}
