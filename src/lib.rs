//! Organiser: a self-hosted personal organiser for one owner (tasks and
//! their smart views, task lists, and as the project grows projects,
//! people, notes, documents and calendar feeds) on one
//! [redb](https://www.redb.org) store.
//!
//! This crate is the library, [`organiser_core`] re-exported whole, and
//! with its default `cli` feature the `organiser` binary: the JSON HTTP
//! server (`organiser serve`) and the terminal commands.
//!
//! # Embedding the library
//!
//! Depend on the library alone, without the binary's dependencies (the
//! HTTP server, clap, ...):
//!
//! ```toml
//! [dependencies]
//! organiser = { version = "0.1", default-features = false }
//! ```
//!
//! Open a store ([`Organiser::open`] on a data directory, or
//! [`Organiser::in_memory`] for a throwaway one), then call its typed
//! operations, or hand it requests of the JSON API with
//! [`Organiser::handle`], exactly as the server and the CLI do. The handle
//! is cheap to clone and may be shared between threads.
//!
//! ```
//! use organiser::list::Query;
//! use organiser::server::{Method, Request};
//! use organiser::task_lists::TaskListInput;
//! use organiser::tasks::{TaskInput, TaskQuery, View};
//! use organiser::{Auth, Field, Organiser};
//!
//! let org = Organiser::in_memory();
//! let groceries = org.task_lists().create(TaskListInput {
//!     name: Some("Groceries".into()),
//!     ..TaskListInput::default()
//! })?;
//! org.tasks().create(TaskInput {
//!     task_list_id: Field::Value(groceries.id),
//!     start_on: Field::Value(org.today()),
//!     ..TaskInput::titled("Buy oat milk")
//! })?;
//!
//! let today = org.tasks().list(&TaskQuery {
//!     view: Some(View::Today),
//!     ..TaskQuery::default()
//! })?;
//! assert_eq!(today.items[0].title, "Buy oat milk");
//!
//! // The same view through the JSON API, as a client of the server sees it.
//! let request =
//!     Request::new(Method::Get, "/tasks", Auth::Local).with_query(Query::parse("view=today")?);
//! let response = org.handle(&request);
//! assert_eq!(response.status, 200);
//! assert_eq!(response.json_value()["data"][0]["title"], "Buy oat milk");
//! # Ok::<(), organiser::Error>(())
//! ```
//!
//! Instants and dates are [`jiff`] types ([`jiff::Timestamp`],
//! [`jiff::civil::Date`], and [`jiff::SignedDuration`],
//! [`jiff::tz::TimeZone`] and [`jiff::Zoned`] around the clock and the
//! owner's zone), re-exported as `organiser::jiff`: an embedder needs no
//! `jiff` dependency of its own, and has the version the library uses.
//!
//! # The JSON API
//!
//! The API that [`Organiser::handle`] and the server answer is described
//! by the OpenAPI document
//! [`docs/openapi.json`](https://github.com/organiser/organiser/blob/main/docs/openapi.json);
//! the decisions taken where its specification is silent (bodies, errors,
//! cursors, idempotency, proxies, ...) are in
//! [`docs/api.md`](https://github.com/organiser/organiser/blob/main/docs/api.md),
//! and the commands of the binary in
//! [`docs/cli.md`](https://github.com/organiser/organiser/blob/main/docs/cli.md).
//!
//! # Features
//!
//! - `cli` (default): the `organiser` binary, with the HTTP server.
#![forbid(unsafe_code)]

pub use organiser_core::*;
