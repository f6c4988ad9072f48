//! `organiser ai tasks backfill KEY [--no-wait]`: `POST
//! /ai_tasks/{key}/backfill` queues what the task would process (a title
//! for each untitled note) and says how many; then the command follows
//! the queue (`GET /ai_tasks/{key}/queue`, its `queued`) until it is
//! empty, with a progress bar when standard output is a terminal.
//!
//! Who works the queue: a server's own worker when a server holds the
//! store (the command only follows); in this process nobody else does,
//! so the command works it itself (the core's `run_ai_tasks`, on a thread
//! while the bar follows). It stops when the queue is empty, or when it
//! stops moving: a provider that fails (its reason said, exit 1), the
//! task turned off or left without a model.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use jiff::Timestamp;
use organiser_core::{ai::AiModel, ai::AiProvider, ai::AiTask, ai::AiTaskQueue};
use serde::Serialize;

use super::{FLAGS, no_task, task};
use crate::commands::Session;
use crate::commands::ai::count;
use crate::door::Doors;
use crate::error::CliError;
use crate::output::{self, Data};
use crate::refs;

/// How often this process sees whether its worker is done.
const LOCAL_POLL: Duration = Duration::from_millis(50);
/// How often the queue is asked for while the progress bar shows it: at
/// most once a second, here or of a server (a display must not crowd out
/// the server's other clients).
const PROGRESS_POLL: Duration = Duration::from_secs(1);
/// How long a queue may stand still while its provider is failing before
/// the command gives up on it: longer than one model call may wait.
const PATIENCE: Duration = Duration::from_secs(100);

#[derive(Debug, Args)]
pub(super) struct Backfill {
    /// The task's key (`ai tasks` lists them).
    key: String,
    /// Only queue: do not follow (nor, in this process, work) the queue.
    #[arg(long)]
    no_wait: bool,
}

/// What `--json` says: the backfill's answer (`queued`: how many it
/// queued), with the task and its queue as the command left them.
#[derive(Serialize)]
struct Backfilled {
    queued: u64,
    task: AiTask,
    queue: AiTaskQueue,
}

impl Backfill {
    pub(super) fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        let key = self.key.as_str();
        let (one, many) = nouns(key);
        // Over HTTP, the provider's last failure before the backfill: a
        // new one while the queue stands still ends the command.
        let failed_before = if s.client.is_local() || self.no_wait {
            None
        } else {
            let task = task(s.client, s.global, key)?;
            provider(s, &task)?.and_then(|p| p.last_failed_at)
        };
        let queued = s
            .client
            .reply(|c| c.ai().backfill(key))
            .map_err(|e| no_task(s.global, key)(e).naming(FLAGS))?
            .data
            .queued;
        let left = waiting(s, key)?;
        if !s.global.json {
            let mut said = format!("Queued {}", count(queued, one, many));
            if left > queued {
                said.push_str(&format!(" · {left} waiting in all"));
            }
            output::line(said)?;
        }
        let waiting = if self.no_wait {
            left
        } else {
            let bar = progress_bar(s.global.json, left);
            let followed = if s.client.is_local() {
                work(s, key, left, bar.as_ref())
            } else {
                watch(s, key, left, failed_before, bar.as_ref())
            };
            if let Some(bar) = bar {
                bar.finish_and_clear();
            }
            let written = followed?;
            if !s.global.json {
                output::line(match written {
                    Some(n) => format!("Done: {} written, none waits", count(n, "title", "titles")),
                    None => "Done: none waits".to_owned(),
                })?;
            }
            0
        };
        if s.global.json {
            let task = task(s.client, s.global, key)?;
            return output::json(&Data {
                data: Backfilled {
                    queued,
                    task,
                    queue: s.client.reply(|c| c.ai().queue(key))?.data,
                },
            });
        }
        if self.no_wait && waiting > 0 {
            let verb = if waiting == 1 { "waits" } else { "wait" };
            output::line(format!("{} {verb}", count(waiting, one, many)))?;
        }
        Ok(())
    }
}

/// What the task's records are called.
fn nouns(key: &str) -> (&'static str, &'static str) {
    match key {
        "note_titles" => ("note", "notes"),
        _ => ("record", "records"),
    }
}

/// How many records wait in task `key`'s queue.
fn waiting(s: &Session<'_>, key: &str) -> Result<u64, CliError> {
    Ok(s.client
        .reply(|c| c.ai().queue(key))
        .map_err(no_task(s.global, key))?
        .data
        .queued)
}

/// A bar on standard error that follows the queue, when standard output
/// is a terminal and the command prints no JSON.
fn progress_bar(json: bool, waiting: u64) -> Option<ProgressBar> {
    if json || waiting == 0 || !std::io::stdout().is_terminal() {
        return None;
    }
    let bar = ProgressBar::new(waiting);
    if let Ok(style) = ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len} ({elapsed})") {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.set_message("Working the queue");
    Some(bar)
}

/// Moves `bar` to where the queue is: done of done + `waiting`.
fn show(bar: Option<&ProgressBar>, waiting: u64) {
    if let Some(bar) = bar {
        let length = bar.length().unwrap_or(0).max(bar.position() + waiting);
        bar.set_length(length);
        bar.set_position(length - waiting);
    }
}

/// In this process: works the queue until it is empty or stops moving;
/// how many records were written.
/// `left`: how many wait at first.
fn work(
    s: &Session<'_>,
    key: &str,
    mut left: u64,
    bar: Option<&ProgressBar>,
) -> Result<Option<u64>, CliError> {
    let mut written = 0;
    while left > 0 {
        let before = left;
        let wrote = std::thread::scope(|scope| {
            // In this process the CLI works the queue itself; a server's
            // own worker does there.
            let local = s.client.local().cloned();
            let worker = scope.spawn(move || {
                local
                    .as_ref()
                    .map(organiser_core::Organiser::run_ai_tasks)
                    .transpose()
            });
            let mut asked = Instant::now();
            while !worker.is_finished() {
                std::thread::sleep(LOCAL_POLL);
                if bar.is_some()
                    && asked.elapsed() >= PROGRESS_POLL
                    && let Ok(now) = s.client.reply(|c| c.ai().queue(key))
                {
                    asked = Instant::now();
                    show(bar, now.data.queued);
                }
            }
            match worker.join() {
                Ok(wrote) => wrote,
                Err(panic) => std::panic::resume_unwind(panic),
            }
        })?
        .unwrap_or(0) as u64;
        written += wrote;
        left = waiting(s, key)?;
        show(bar, left);
        if wrote == 0 && left >= before {
            return Err(stalled(s, key, left, false));
        }
    }
    Ok(Some(written))
}

/// Over HTTP: follows the queue the server works until it is empty, or
/// until it stands still while the task cannot run, or while its
/// provider fails: with a failure newer than `failed_before` (the last
/// one before the backfill), or for longer than a model call may take
/// (the server waits out a backoff before it tries again). `left`: how
/// many wait at first.
fn watch(
    s: &Session<'_>,
    key: &str,
    mut left: u64,
    failed_before: Option<Timestamp>,
    bar: Option<&ProgressBar>,
) -> Result<Option<u64>, CliError> {
    let mut moved = Instant::now();
    while left > 0 {
        std::thread::sleep(PROGRESS_POLL);
        let before = left;
        left = waiting(s, key)?;
        show(bar, left);
        if left < before {
            moved = Instant::now();
            continue;
        }
        let task = task(s.client, s.global, key)?;
        let stuck = !task.enabled
            || match provider(s, &task)? {
                None => true,
                Some(p) => {
                    let failing = p
                        .last_failed_at
                        .is_some_and(|at| p.last_succeeded_at.is_none_or(|ok| ok < at));
                    failing && (p.last_failed_at != failed_before || moved.elapsed() > PATIENCE)
                }
            };
        if stuck {
            return Err(stalled(s, key, left, true));
        }
    }
    Ok(None)
}

/// The provider of the model `task` uses now (its own, else the
/// default), if it has one.
fn provider(s: &Session<'_>, task: &AiTask) -> Result<Option<AiProvider>, CliError> {
    let model = match task.ai_model_id {
        Some(id) => match s.client.reply(|c| c.ai().model(id)) {
            Ok(model) => Some(model.data),
            Err(CliError::Api {
                error: organiser_core::Error::NotFound,
                ..
            }) => None,
            Err(e) => return Err(e),
        },
        None => refs::every::<AiModel>(s.client)?
            .into_iter()
            .find(|m| m.is_default),
    };
    let Some(model) = model else {
        return Ok(None);
    };
    match s.client.reply(|c| c.ai().provider(model.ai_provider_id)) {
        Ok(provider) => Ok(Some(provider.data)),
        Err(CliError::Api {
            error: organiser_core::Error::NotFound,
            ..
        }) => Ok(None),
        Err(e) => Err(e),
    }
}

/// Why task `key`'s queue stopped moving with `left` records in it, as
/// the error the command ends with (`remote`: a server works it, and
/// tries again later).
fn stalled(s: &Session<'_>, key: &str, left: u64, remote: bool) -> CliError {
    let (one, many) = nouns(key);
    let waiting = count(left, one, many);
    let waits = if left == 1 { "waits" } else { "wait" };
    let task = match task(s.client, s.global, key) {
        Ok(task) => task,
        Err(e) => return e,
    };
    if !task.enabled {
        return CliError::msg(format!("the task {key} is off: {waiting} still {waits}"));
    }
    match provider(s, &task) {
        Ok(None) => CliError::msg(format!(
            "the task {key} has no model (pick one with `{}`, or make a model the default): {waiting} still {waits}",
            s.global
                .command(&format!("ai tasks enable {key} --model MODEL"))
        )),
        Ok(Some(p)) => match &p.last_error_reason {
            Some(reason) => CliError::msg(format!(
                "{}: {reason}; {waiting} still {waits}{}",
                p.name,
                if remote {
                    " (the server tries again later)"
                } else {
                    ""
                }
            )),
            None => CliError::msg(format!("the queue stopped moving: {waiting} still {waits}")),
        },
        Err(e) => e,
    }
}
