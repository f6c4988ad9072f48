//! End-to-end tests through real HTTP on a loopback port.

#[path = "../common/mod.rs"]
mod common;

mod account;
mod conventions;
mod licence;
mod system;
