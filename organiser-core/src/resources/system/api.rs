//! The system's operations (document 1, "System", `PATCH /system`,
//! `POST /system/update_check`), each declared once, and [`SystemSettings`],
//! their typed door. All are exempt from read-only mode.

use super::{System, SystemChange, change, get, parse, update};
use std::time::Duration;

use crate::engine::Organiser;
use crate::engine::jobs::{Job, Pace, Ran};
use crate::engine::op::{PlainOp, ReadOp, WriteOp};
use crate::engine::operation::{Answer, Declared, Door, Operation, PlainHttp, Run, body_part};
use crate::engine::request::Method::{Get, Patch, Post, Put};
use crate::error::Result;
use crate::input;
use crate::limits::routes::UPDATE_CHECK_LIMIT;

body_part!(
    SystemChange,
    |body| input::parse_record(body, "system", parse),
    Some("system")
);

/// `GET /system`.
pub(crate) static GET: Operation<PlainHttp, System> = Operation::new(
    "getSystem",
    Get,
    "/system",
    "System and updates",
    Run::Read(ReadOp::PLAIN, |cx, PlainHttp(plain)| get(cx, plain)),
    Answer::data(200),
);

/// `PATCH` (or `PUT`) `/system`.
pub(crate) static CHANGE: Operation<(PlainHttp, SystemChange), System> = Operation::new(
    "patchSystem",
    Patch,
    "/system",
    "Change update settings\n\nChanging `channel`, or turning checks on, queues a check. Allowed in read-only mode.",
    Run::write(WriteOp::EXEMPT, |cx, (PlainHttp(plain), input)| {
        change(cx, input, plain)
    }),
    Answer::data(200),
)
.also(Put, "putSystem");

/// `POST /system/update_check`: waits on the network (up to 30 s)
/// between transactions of its own.
pub(crate) static UPDATE_CHECK: Operation<PlainHttp, System> = Operation::new(
    "checkForUpdates",
    Post,
    "/system/update_check",
    "Check for updates now\n\nWaits up to 30 seconds. 422 on `base` when checks are managed or this build cannot check. 10 a minute per address. Allowed in read-only mode.",
    Run::Plain(PlainOp::WAITS, |inner, PlainHttp(plain)| {
        update::check(inner)?;
        inner.read(|cx| get(cx, plain))
    }),
    Answer::data(200),
)
.limited(&UPDATE_CHECK_LIMIT);

/// The system's operations, for the registry.
pub(crate) static OPERATIONS: &[&dyn Declared] = &[&GET, &CHANGE, &UPDATE_CHECK];

/// The system of a store (document 1, "System": the version, updates and
/// their settings), through a [`Door`]: the store itself
/// (`org.system()`), or a server that holds it.
#[derive(Debug, Clone, Copy)]
pub struct SystemSettings<'d, D = Organiser> {
    door: &'d D,
}

impl<'d, D: Door> SystemSettings<'d, D> {
    /// The system of the store behind `door`.
    pub fn new(door: &'d D) -> Self {
        SystemSettings { door }
    }

    /// The version, the update settings and what the last check found;
    /// `plain_http` says whether the caller came over plain HTTP (a remote
    /// door's server knows, and says).
    ///
    /// # Errors
    ///
    /// Only the store's.
    pub fn get(&self, plain_http: bool) -> Result<System> {
        self.door.call(&GET, PlainHttp(plain_http))
    }

    /// Changes the update settings `change` sends; a new channel, or
    /// checks turned on, queues a check.
    ///
    /// # Errors
    ///
    /// [`Error::Validation`](crate::Error::Validation) for an unknown
    /// channel.
    pub fn change(&self, change: SystemChange, plain_http: bool) -> Result<System> {
        self.door.call(&CHANGE, (PlainHttp(plain_http), change))
    }

    /// Fetches the channel's manifest now (waiting up to 30 seconds; call
    /// it where blocking is fine).
    ///
    /// # Errors
    ///
    /// [`Error::Validation`](crate::Error::Validation) on `base` when
    /// checks are managed or this build cannot check.
    pub fn check_for_update(&self, plain_http: bool) -> Result<System> {
        self.door.call(&UPDATE_CHECK, PlainHttp(plain_http))
    }
}

impl Organiser {
    /// The store's system settings and updates.
    pub fn system(&self) -> SystemSettings<'_> {
        SystemSettings::new(self)
    }

    /// Runs the daily (or queued) update check when one is due; whether it
    /// ran. The server runs it on a schedule.
    ///
    /// # Errors
    ///
    /// Only the store's (a failed check is kept in the system's `update`).
    pub fn run_scheduled_update_check(&self) -> Result<bool> {
        if self.inner.read(update::scheduled_due)? {
            update::check(&self.inner)?;
            Ok(true)
        } else {
            Ok(false)
        }
    }
}

/// The daily update check (or one the owner queued), looked for every
/// minute; the check itself decides whether it is due.
pub(crate) const SCHEDULED_UPDATE_CHECK: Job = Job {
    name: "update_check",
    pace: Pace::Every(Duration::from_secs(60)),
    announce: Some(announce_update_checks),
    run: |org| {
        if !org.run_scheduled_update_check()? {
            return Ok(Ran::Nothing);
        }
        let update = org.system().get(false)?.update;
        Ok(match update.error {
            Some(error) => Ran::Failed(format!("update check failed: {error}")),
            None => Ran::Did(format!(
                "update check done: {:?}, latest version {}",
                update.status,
                update.latest_version.as_deref().unwrap_or("-")
            )),
        })
    },
    at_stop: None,
};

/// Whether the daily update check runs, and how to turn it off.
fn announce_update_checks(org: &Organiser) -> Ran {
    match org.system().get(false) {
        Ok(system) if system.update_checks && system.update.can_check => Ran::Did(
            "update checks: daily (turn off with `organiser system updates off` or PATCH /system)"
                .to_owned(),
        ),
        Ok(system) if system.update_checks_managed => Ran::Did(format!(
            "update checks: managed by {}",
            system.update_checks_managed_by.as_deref().unwrap_or("-")
        )),
        Ok(system) if !system.update.can_check => {
            Ran::Did("update checks: off (this build cannot check)".to_owned())
        }
        Ok(_) => Ran::Did("update checks: off".to_owned()),
        Err(error) => Ran::Failed(format!("cannot read the update settings: {error}")),
    }
}
