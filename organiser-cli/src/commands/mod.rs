//! One module per subcommand: a clap struct and its `run`; a family with
//! many subcommands is a folder with one file per subcommand.

pub(crate) mod compact;
pub(crate) mod init;
pub(crate) mod lists;
pub(crate) mod me;
pub(crate) mod password;
pub(crate) mod serve;
pub(crate) mod system;
pub(crate) mod tasks;
pub(crate) mod token;

use std::fmt::Display;
use std::path::PathBuf;

use serde::Serialize;

use crate::backend::{Access, Backend};
use crate::client::Client;
use crate::error::CliError;
use crate::output;
use crate::refs::Refs;

/// What the commands of a family work with: the flags, the typed API, and
/// the names people give records.
pub(crate) struct Session<'a> {
    pub(crate) global: &'a Global,
    pub(crate) client: &'a Client,
    pub(crate) refs: Refs<'a>,
}

/// Flags every command takes.
pub(crate) struct Global {
    pub(crate) data_dir: Option<PathBuf>,
    pub(crate) json: bool,
}

impl Global {
    /// The typed API, where a command that writes sends its requests.
    pub(crate) fn writer(&self) -> Result<Client, CliError> {
        self.client(Access::Write)
    }

    /// The typed API, where a command that only reads sends its requests.
    pub(crate) fn reader(&self) -> Result<Client, CliError> {
        self.client(Access::Read)
    }

    /// The typed API over the backend for `access`.
    pub(crate) fn client(&self, access: Access) -> Result<Client, CliError> {
        Backend::open(self.data_dir.as_deref(), access).map(Client::new)
    }

    /// Says what a command did: the API's body with `--json`, else `line`.
    pub(crate) fn said(&self, body: &impl Serialize, line: impl Display) -> Result<(), CliError> {
        if self.json {
            output::json(body)
        } else {
            output::line(line)
        }
    }
}
