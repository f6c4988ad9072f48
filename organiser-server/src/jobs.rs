//! Runs the core's background jobs ([`Organiser::jobs`]) while the server
//! serves: each on a thread of its own, run at once and then at the pace
//! it declares, until the server stops. What a job does and when it is
//! due are the core's; this only keeps time and logs.

use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use organiser_core::{Organiser, server::Job, server::Pace, server::Ran};

/// Which background jobs run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Jobs {
    /// Every job the core declares.
    All,
    /// Only the jobs named (by [`Job::name`]); `Only(&[])` runs none.
    Only(&'static [&'static str]),
    /// Every job but those named.
    AllBut(&'static [&'static str]),
}

impl Jobs {
    /// No background job.
    pub const NONE: Jobs = Jobs::Only(&[]);

    /// Whether `job` runs.
    pub fn runs(&self, job: &Job) -> bool {
        match self {
            Jobs::All => true,
            Jobs::Only(names) => names.contains(&job.name),
            Jobs::AllBut(names) => !names.contains(&job.name),
        }
    }
}

/// The jobs' threads, and how to ask them to stop.
pub(crate) struct Runner {
    stop: Arc<Stop>,
    running: Vec<(&'static Job, std::thread::JoinHandle<()>)>,
}

/// Set once when the server stops; the threads wait on it between runs.
#[derive(Default)]
struct Stop {
    stopped: Mutex<bool>,
    changed: Condvar,
}

impl Stop {
    fn is_set(&self) -> bool {
        *self.stopped.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Waits `period` or until stopped; whether it was stopped.
    fn wait(&self, period: Duration) -> bool {
        let stopped = self.stopped.lock().unwrap_or_else(|e| e.into_inner());
        let (stopped, _) = self
            .changed
            .wait_timeout_while(stopped, period, |stopped| !*stopped)
            .unwrap_or_else(|e| e.into_inner());
        *stopped
    }

    fn set(&self) {
        *self.stopped.lock().unwrap_or_else(|e| e.into_inner()) = true;
        self.changed.notify_all();
    }
}

impl Runner {
    /// Starts a thread for each job `chosen` runs.
    pub(crate) fn start(org: &Organiser, chosen: &Jobs) -> Runner {
        let stop = Arc::new(Stop::default());
        let mut running = Vec::new();
        for job in org.jobs().iter().filter(|job| chosen.runs(job)) {
            if let Some(announce) = job.announce {
                log(job, announce(org));
            }
            let (org, stop) = (org.clone(), stop.clone());
            let spawned = std::thread::Builder::new()
                .name(format!("organiser-{}", job.name))
                .spawn(move || run(job, &org, &stop));
            match spawned {
                Ok(thread) => running.push((job, thread)),
                Err(error) => tracing::warn!(job = job.name, %error, "cannot start the job"),
            }
        }
        Runner { stop, running }
    }

    /// Asks every job to stop after its current run (a model call may take
    /// up to 90 seconds: it is not waited for), then runs the stop work of
    /// those that keep something in memory. Blocks: call it off the async
    /// runtime.
    pub(crate) fn stop(self, org: &Organiser) {
        self.stop.set();
        for (job, _) in self.running {
            if let Some(at_stop) = job.at_stop {
                outcome(job, at_stop(org));
            }
        }
    }
}

/// A job's thread: run, wait, until stopped.
fn run(job: &'static Job, org: &Organiser, stop: &Stop) {
    while !stop.is_set() {
        outcome(job, (job.run)(org));
        let stopped = match job.pace {
            Pace::Every(period) => stop.wait(period),
            Pace::Woken(longest, wait) => {
                wait(org, longest);
                stop.is_set()
            }
        };
        if stopped {
            break;
        }
    }
}

fn outcome(job: &Job, ran: organiser_core::Result<Ran>) {
    match ran {
        Ok(ran) => log(job, ran),
        Err(error) => tracing::warn!(job = job.name, %error, "background job failed"),
    }
}

fn log(job: &Job, ran: Ran) {
    match ran {
        Ran::Nothing => {}
        Ran::Did(what) => tracing::info!(job = job.name, "{what}"),
        Ran::Failed(why) => tracing::warn!(job = job.name, "{why}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_choice_names_jobs_by_their_declared_names() {
        let org = Organiser::in_memory();
        let names: Vec<_> = org.jobs().iter().map(|j| j.name).collect();
        assert_eq!(
            names,
            [
                "token_uses",
                "update_check",
                "calendar_feed_sync",
                "ai_tasks",
                "backup",
                "calendar_subscription_reads",
                "reminders"
            ]
        );
        let chosen = |jobs: Jobs| -> Vec<_> {
            org.jobs()
                .iter()
                .filter(|j| jobs.runs(j))
                .map(|j| j.name)
                .collect()
        };
        assert_eq!(chosen(Jobs::NONE), Vec::<&str>::new());
        assert_eq!(chosen(Jobs::Only(&["ai_tasks"])), ["ai_tasks"]);
        assert_eq!(
            chosen(Jobs::AllBut(&["update_check"])),
            [
                "token_uses",
                "calendar_feed_sync",
                "ai_tasks",
                "backup",
                "calendar_subscription_reads",
                "reminders"
            ]
        );
    }

    /// A job waiting out its minute is woken by the stop, not left behind.
    #[test]
    fn stopping_wakes_a_waiting_job_at_once() {
        let org = Organiser::in_memory();
        let Runner { stop, running } = Runner::start(&org, &Jobs::Only(&["token_uses"]));
        assert_eq!(running.len(), 1);
        let started = std::time::Instant::now();
        Runner {
            stop,
            running: Vec::new(),
        }
        .stop(&org);
        for (_, thread) in running {
            thread.join().expect("the job's thread ends");
        }
        assert!(started.elapsed() < Duration::from_secs(5));
    }
}
