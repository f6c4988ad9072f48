//! `organiser init`: sets up the owner of a store.

use clap::Args;
use organiser_core::account::OwnerInit;

use super::Global;
use crate::backend::{data_dir, open_error, open_store};
use crate::error::CliError;
use crate::output;

#[derive(Debug, Args)]
pub(crate) struct Init {
    /// The owner's name.
    #[arg(long)]
    name: String,
    /// What the owner signs in with.
    #[arg(long)]
    username: String,
    /// The owner's zone: a picker name such as "London" or "Eastern Time (US & Canada)", or an IANA zone such as Europe/London.
    #[arg(long, default_value = "UTC")]
    time_zone: String,
}

impl Init {
    pub(crate) fn run(self, global: &Global) -> Result<(), CliError> {
        let dir = data_dir(global.data_dir.as_deref())?;
        let init = OwnerInit {
            name: self.name,
            username: self.username,
            time_zone: self.time_zone,
        };
        // A set-up the core would refuse makes no store.
        init.check()
            .map_err(|e| CliError::from(e).naming(super::me::FLAGS))?;
        let org = open_store(&dir).map_err(|e| open_error(&dir, e))?;
        let me = org
            .init_owner(&init)
            .map_err(|e| CliError::from(e).naming(super::me::FLAGS))?;
        if global.json {
            return output::json(&output::Data { data: me });
        }
        output::line(format!(
            "Set up {} ({}) in {} [{}] at {}",
            me.name,
            me.username,
            me.time_zone,
            me.time_zone_iana,
            dir.display()
        ))
    }
}
