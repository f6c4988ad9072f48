//! One module per subcommand: a clap struct and its `run`; a family with
//! many subcommands is a folder with one file per subcommand.

pub(crate) mod ai;
pub(crate) mod backup;
pub(crate) mod calendar;
pub(crate) mod calendar_subscriptions;
pub(crate) mod categories;
pub(crate) mod compact;
pub(crate) mod completions;
pub(crate) mod config;
pub(crate) mod dates;
pub(crate) mod docs;
pub(crate) mod feeds;
pub(crate) mod folders;
pub(crate) mod init;
pub(crate) mod licence;
pub(crate) mod lists;
pub(crate) mod man;
pub(crate) mod me;
pub(crate) mod notes;
pub(crate) mod notify;
pub(crate) mod password;
pub(crate) mod people;
pub(crate) mod projects;
pub(crate) mod reminders;
pub(crate) mod restore;
pub(crate) mod search;
pub(crate) mod serve;
pub(crate) mod stats;
pub(crate) mod system;
pub(crate) mod tags;
pub(crate) mod tasks;
pub(crate) mod token;
pub(crate) mod transfer;
pub(crate) mod upload;
pub(crate) mod vocabulary;
pub(crate) mod web;

use crate::backend::Access;
use crate::door::Client;
use crate::error::CliError;
use crate::refs::Refs;

/// What the commands of a family work with: the flags, the typed API, and
/// the names people give records.
pub(crate) struct Session<'a> {
    pub(crate) global: &'a Global,
    pub(crate) client: &'a Client,
    pub(crate) refs: Refs<'a>,
}

impl<'a> Session<'a> {
    /// A session over `client`, for a command that opens its client
    /// itself (as `notes edit`, which lets go of the store while the
    /// editor runs).
    pub(crate) fn new(global: &'a Global, client: &'a Client) -> Session<'a> {
        Session {
            global,
            client,
            refs: Refs::new(client, global),
        }
    }
    /// Runs `work` in a session over the backend for `access` (the
    /// store in this process, or the server), with this store's memory of
    /// names and row numbers: how every family runs its subcommands.
    pub(crate) fn open<T>(
        global: &Global,
        access: Access,
        work: impl FnOnce(&Session<'_>) -> Result<T, CliError>,
    ) -> Result<T, CliError> {
        let client = global.client(access)?;
        work(&Session::new(global, &client))
    }
}

pub(crate) use crate::session::{Global, shell_quote};
