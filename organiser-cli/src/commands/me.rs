//! `organiser me`: the owner; `organiser me set` changes name or zone.

use clap::{Args, Subcommand};
use organiser_core::{account::Me, account::OwnerChange};

use super::Global;
use crate::door::Doors;
use crate::door::Reply;
use crate::error::CliError;
use crate::output;

#[derive(Debug, Args)]
pub(crate) struct MeCommand {
    #[command(subcommand)]
    action: Option<MeAction>,
}

#[derive(Debug, Subcommand)]
enum MeAction {
    /// Change the owner's name or zone.
    Set {
        /// A new name.
        #[arg(long)]
        name: Option<String>,
        /// A new zone (picker name or IANA zone).
        #[arg(long)]
        time_zone: Option<String>,
    },
}

fn show(me: &Reply<Me>, global: &Global) -> Result<(), CliError> {
    if global.json {
        return output::json(&me.body);
    }
    let me = &me.data;
    output::fields(&[
        ("Name", me.name.clone()),
        ("Username", me.username.clone()),
        (
            "Password",
            if me.has_password { "set" } else { "not set" }.to_owned(),
        ),
        ("Zone", format!("{} ({})", me.time_zone, me.time_zone_iana)),
        ("Today", output::date(me.today)),
    ])
}

/// The owner's fields as `init` and `me set` take them, for messages.
pub(super) const FLAGS: &[(&str, &str)] = &[
    ("name", "--name"),
    ("username", "--username"),
    ("time_zone", "--time-zone"),
];

impl MeCommand {
    pub(crate) fn run(self, global: &Global) -> Result<(), CliError> {
        let me = match self.action {
            None => global.reader()?.reply(|c| c.account().me())?,
            Some(MeAction::Set { name, time_zone }) => global
                .writer()?
                .reply(|c| c.account().change_me(OwnerChange { name, time_zone }))
                .map_err(|e| e.naming(FLAGS))?,
        };
        show(&me, global)
    }
}
