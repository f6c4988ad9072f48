//! End-to-end tests through real HTTP on a loopback port.

#[path = "../common/mod.rs"]
mod common;

mod account;
mod conventions;
mod deletions;
mod licence;
mod read_only;
mod system;
mod task_counts;
mod task_lists;
mod tasks;
