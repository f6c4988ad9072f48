//! AI (document 2, "AIProvider", "AIModel", "AITask", "AI providers",
//! "AI models", "AI tasks"; document 1, "Limits"; DESIGN.md on
//! `provider_error` and development mode): the providers that serve
//! models and how they are reached, the models the owner added, the
//! built-in tasks, and the worker that runs them.
//!
//! - `wire`: the two wire protocols (and `mock`), each failure a reason;
//! - `providers`, `models`: the records and their rules;
//! - `calls`: test, check, available models and trial;
//! - `settings`: the default model, the tasks' configuration, the backoff;
//! - `tasks`: the built-in tasks and their configuration;
//! - `queue`: which notes wait for a title, in the store;
//! - `titles`: the `note_titles` task, its prompt and its worker;
//! - `api`: the operations and routes.

mod api;
mod calls;
mod models;
pub(crate) mod portable;
mod providers;
mod queue;
mod settings;
pub(crate) mod tables;
mod tasks;
mod titles;
mod wire;

pub use api::Ai;
pub(crate) use api::{OPERATIONS, TITLES};
pub use calls::{ModelCount, ModelList, ProviderTest, TrialInput, TrialReply};
pub use models::{AddedModels, AiModel, AiModelInput, AiModelQuery, ModelAdditions};
pub use providers::{AiProvider, AiProviderInput, AiProviderQuery};
pub use tasks::{AiTask, AiTaskInput, AiTaskQueue, BackfillProgress, Backfilled, Reasoning};
pub use wire::ProviderKind;

pub(crate) use models::KIND as MODEL_KIND;
pub(crate) use providers::KIND as PROVIDER_KIND;
pub(crate) use queue::census;
pub(crate) use titles::{NOTES as FOLLOWED, follow};
