//! End-to-end tests of the `organiser` command line through the real built
//! binary: each test runs it in a temporary data directory with a clean
//! environment (see `util`), and the server tests run `organiser serve` as
//! a child process.

mod util;
// The loopback server of tests/common, alone.
#[allow(dead_code, unreachable_pub)]
#[path = "../common/loopback.rs"]
mod loopback;
// The hostile files of tests/common.
#[allow(dead_code, unreachable_pub)]
#[path = "../common/hostile.rs"]
mod hostile;
// The programs our output is read with (khard, khal), of tests/common.
#[allow(dead_code, unreachable_pub)]
#[path = "../common/programs.rs"]
mod programs;
// The fake model server of tests/common.
#[allow(dead_code, unreachable_pub)]
#[path = "../common/model_server.rs"]
mod model_server;

mod account;
mod addressing;
mod ai;
mod ai_keys;
mod backups;
mod calendar;
mod calendar_subscriptions;
mod colour;
mod compact;
mod completions;
mod concurrency;
mod config;
mod control;
mod data_dir;
mod dates;
mod deletes;
mod documents;
mod errors;
mod feed_server;
mod feeds;
mod hints;
mod hostile_files;
mod init;
mod licence;
mod lists;
mod noops;
mod notes;
mod notes_text;
mod people;
mod people_fields;
mod people_show;
mod project_activity;
mod projects;
mod reminders;
mod retries;
mod search;
mod serve;
mod show;
mod stats;
mod tables;
mod tasks;
mod token;
mod transfer;
mod usage;
mod web;
