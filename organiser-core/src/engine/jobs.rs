//! Background work (DESIGN.md "Running it"): what the core wants done while
//! a server runs, declared by the resource it belongs to (calendar feed
//! syncs, AI note titles, token uses, update checks) and listed once in
//! `resources::JOBS`, wired in at open like the record kinds. A runner (the server's, or an embedder's own loop)
//! calls each job's [`Job::run`], then waits its [`Job::pace`]; every
//! decision of what is due is the job's own, by the core's clock.

use std::sync::{Condvar, Mutex};
use std::time::Duration;

use crate::engine::Organiser;
use crate::error::Result;

/// One kind of background work.
#[derive(Debug, Clone, Copy)]
pub struct Job {
    /// A stable name, for logs and for choosing which jobs run.
    pub name: &'static str,
    /// What the runner waits for between two runs.
    pub pace: Pace,
    /// What the runner says when it starts the job (whether it will do
    /// anything, and how to turn it off), if the job has something to say.
    pub announce: Option<fn(&Organiser) -> Ran>,
    /// Does the work that is due, and says what it did.
    ///
    /// # Errors
    ///
    /// Only the store's: a failure the work itself meets (a feed that
    /// cannot be read, a provider that does not answer) is recorded where
    /// the owner sees it, and told as [`Ran::Failed`].
    pub run: fn(&Organiser) -> Result<Ran>,
    /// Runs once more when the runner stops, so nothing kept in memory is
    /// lost (token uses), if the job keeps anything.
    pub at_stop: Option<fn(&Organiser) -> Result<Ran>>,
}

/// What a run of a job did, for the runner's log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ran {
    /// Nothing was due.
    Nothing,
    /// Work was done: what, in a few words.
    Did(String),
    /// The work failed, and the failure is recorded: why, in a few words.
    Failed(String),
}

/// How a runner waits between two runs of a job.
#[derive(Debug, Clone, Copy)]
pub enum Pace {
    /// A fixed period (the first run is at once).
    Every(Duration),
    /// Until a write wakes the job (through the given wait, which blocks
    /// until woken or the duration passes), or the duration passes.
    Woken(Duration, fn(&Organiser, Duration) -> bool),
}

impl Pace {
    /// The longest the runner waits between two runs.
    #[must_use]
    pub fn longest(&self) -> Duration {
        match *self {
            Pace::Every(every) | Pace::Woken(every, _) => every,
        }
    }
}

/// What a write gives a job that waits to be woken ([`Pace::Woken`]):
/// each such job keeps one in the store's extensions, under a type of its
/// own (`struct Wake(Signal)`).
#[derive(Debug, Default)]
pub(crate) struct Signal {
    pending: Mutex<bool>,
    signal: Condvar,
}

impl Signal {
    /// Wakes the job waiting in [`Signal::wait`] (or its next wait).
    pub(crate) fn wake(&self) {
        *self.pending.lock().unwrap_or_else(|e| e.into_inner()) = true;
        self.signal.notify_all();
    }

    /// Waits until [`Signal::wake`] is called or `max` passes; whether it
    /// was woken.
    pub(crate) fn wait(&self, max: Duration) -> bool {
        let pending = self.pending.lock().unwrap_or_else(|e| e.into_inner());
        let (mut pending, _) = self
            .signal
            .wait_timeout_while(pending, max, |p| !*p)
            .unwrap_or_else(|e| e.into_inner());
        std::mem::take(&mut *pending)
    }
}

impl Organiser {
    /// The background work a server runs for this store, each as declared
    /// by its resource.
    #[must_use]
    pub fn jobs(&self) -> &'static [Job] {
        self.inner.wiring.jobs
    }
}
