//! Property tests over the whole JSON API, through `Organiser::handle`:
//!
//! - [`mirror`]: a client that mirrors the store with `updated_since` and
//!   `GET /deletions` ends equal to it, whatever happened in between.
//! - [`imports`]: that mirror stays equal to the store across imports
//!   (foreign files, another store's archive, its own), each import's
//!   `created` is what the mirror gained, and a dry run changes nothing.
//! - [`requests`]: no request fails badly: never a panic or a 500, always
//!   the spec's error shape, and a refused request changes nothing.
//! - [`search`]: search finds exactly what a brute-force matcher over the
//!   live records finds.
//! - [`series`]: no series of repeating tasks ever has two open
//!   occurrences, whatever closes, reopens, deletes, restores and moves
//!   of the clock happen.
//!
//! The sequences come from one generator of store operations ([`ops`]); a
//! later resource joins both properties by adding its operations there and
//! its collection to [`mirror::COLLECTIONS`] (see the doc of [`ops`]).
//!
//! `PROPTEST_CASES` sets the number of cases of every property; without it
//! each runs a short default sized for CI.

mod feeds;
mod fixture;
mod imports;
mod mirror;
// The oracle of tests/common, alone (its items are public for that module).
#[allow(unreachable_pub)]
#[path = "../common/openapi.rs"]
mod openapi;
mod ops;
mod requests;
mod search;
mod series;

use proptest::test_runner::{Config, FileFailurePersistence, TestError};

/// The config of one property: `PROPTEST_CASES` when set, else `ci_cases`;
/// failures are kept under `tests/props/proptest-regressions/`.
pub(crate) fn config(ci_cases: u32, regressions: &'static str) -> Config {
    let mut config = Config::default();
    if std::env::var_os("PROPTEST_CASES").is_none() {
        config.cases = ci_cases;
    }
    config.failure_persistence = Some(Box::new(FileFailurePersistence::Direct(regressions)));
    config
}

/// Fails the test with the reason and the minimal failing case, when the
/// property did not hold.
pub(crate) fn expect_passed<T: std::fmt::Debug>(outcome: Result<(), TestError<T>>) {
    match outcome {
        Ok(()) => {}
        Err(TestError::Fail(reason, case)) => {
            panic!("{reason}\nminimal failing case: {case:#?}")
        }
        Err(e) => panic!("{e}"),
    }
}
