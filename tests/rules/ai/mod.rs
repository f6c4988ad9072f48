//! AI providers, models and tasks: document 2's "AIProvider", "AIModel",
//! "AITask", "AI providers", "AI models" and "AI tasks", document 1's AI
//! limits, and DESIGN.md's `provider_error` and development mode. The
//! providers speak to a fake model server on a loopback port in this
//! process (`common::ModelServer`), which records every request. The
//! tests:
//!
//! - `providers`: the fields and their rules, the key, delete;
//! - `calls`: test, check, available models and trial on both wire
//!   protocols and `mock`, and every way a call fails;
//! - `models`: the models' rules, the default, model additions;
//! - `tasks`: the tasks' fields and PATCH rules, the note-titles worker,
//!   its queue, backoff, restart and backfill.

use serde_json::{Value, json};

use crate::common::fixtures::id;
use crate::common::{Core, ModelServer};

mod calls;
mod models;
mod providers;
mod read_only;
mod tasks;

/// A provider of `kind` at `server`, with `key`.
pub(super) fn provider(
    s: &Core,
    name: &str,
    kind: &str,
    server: &ModelServer,
    key: Option<&str>,
) -> Value {
    let mut p = json!({"name": name, "kind": kind, "base_url": server.url});
    if let Some(key) = key {
        p["api_key"] = json!(key);
    }
    s.post("/ai_providers", json!({"ai_provider": p}))
        .expect(201)
        .data()
        .clone()
}

/// A model `identifier` of provider `provider`, the default when `default`.
pub(super) fn model(s: &Core, provider: &Value, identifier: &str, default: bool) -> Value {
    s.post(
        "/ai_models",
        json!({"ai_model": {"ai_provider_id": id(provider), "identifier": identifier, "is_default": default}}),
    )
    .expect(201)
    .data()
    .clone()
}

/// A note with `text` as its body and no title.
pub(super) fn note(s: &Core, text: &str) -> Value {
    s.post(
        "/notes",
        json!({"note": {"body_html": format!("<p>{text}</p>")}}),
    )
    .expect(201)
    .data()
    .clone()
}
