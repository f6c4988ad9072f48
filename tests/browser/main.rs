//! The web app (EXTENSIONS.md §6) in a real browser: Debian's Chromium
//! driven over WebDriver by its `chromedriver`, against a real server on
//! loopback. Each scenario is lived as a person would, by keyboard alone,
//! at 360 and 1280 px wide, in light and dark (the owner's appearance
//! setting and the browser's colour scheme); on every page it reaches,
//! axe-core finds no serious or critical violation, the page breaks
//! none of its Content-Security-Policy, and `DOMContentLoaded` comes
//! within 100 ms.
//!
//! `cargo test --test browser` (one browser per test, several pages in
//! it). It needs `chromium` and `chromium-driver` (Debian) and axe-core
//! (npm, in `target/npm`): `.ci/run` installs them when missing, and a
//! test that cannot start a browser fails, never skips. With
//! `ORGANISER_BLESS=1` the screenshot tests write
//! `docs/screenshots/<page>-<width>-<theme>.png`.

#[path = "../common/mod.rs"]
mod common;

mod harness;
mod site;

mod ai;
mod calendar;
mod documents;
mod first_run;
mod headers;
mod lists;
mod notes;
mod people;
mod projects;
mod screenshots;
mod search;
mod settings;
mod task_page;
mod tasks;
