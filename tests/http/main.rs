//! What the server adds, over real HTTP on a loopback port: headers,
//! authentication and sessions, 401, 404 for paths outside the API,
//! 413/415, invalid JSON, rate limits, request ids, a panic as 500,
//! discovery and the proxies it believes, `/healthz`, connections (header
//! timeouts, keep-alive after early answers, a bounded shutdown),
//! `Idempotency-Key` under concurrency, one pass through every route to
//! prove it is wired through the server, and the OpenAPI document against
//! the routes. The rules of the API are tested in process in `tests/rules`.

#[path = "../common/mod.rs"]
mod common;

// The CLI tests' runner of the real binary (`organiser serve`, its data
// directory, what it writes on its standard error).
#[allow(dead_code, unreachable_pub)]
#[path = "../cli/util.rs"]
mod util;

mod ai;
mod calendar;
mod calendar_subscriptions;
mod connections;
mod conventions;
mod health;
mod openapi;
mod proxies;
mod reminders;
mod routes;
mod search;
mod sessions;
mod system;
mod transfer;
mod uploads;
mod web;
