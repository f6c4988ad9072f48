//! The rules of the API, tested in process: each request is handed to
//! `Organiser::handle` by the in-process client of `tests/common`
//! (`common::Core`), which makes it as the server would, over an in-memory
//! store whose clock the test moves. No socket: what only the server does
//! (headers, sessions, 413/415, rate limits) is tested over HTTP in
//! `tests/http`, and shutdown through the binary in `tests/cli`.

#[path = "../common/mod.rs"]
mod common;

mod account;
mod ai;
mod avatars;
mod backups;
mod calendar;
mod calendar_subscriptions;
mod deletions;
mod documents;
mod licence;
mod notes;
mod people;
mod person_links;
mod person_overview;
mod projects;
mod read_only;
mod reminders;
mod search;
mod system;
mod task_counts;
mod task_lists;
mod tasks;
mod transfer;
mod uploads;
