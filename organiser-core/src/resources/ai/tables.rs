//! The AI tables: providers, models, the settings (the default model, the
//! tasks' configuration and the worker's backoff), and the note-titles
//! queue with what it follows.

use crate::store::Tbl;
use crate::store::schema::table;

/// Providers by id.
pub(crate) const PROVIDERS: Tbl = table("ai_providers");
/// Providers: (name folded for search, id), order `name`.
pub(crate) const PROVIDERS_BY_NAME: Tbl = table("ai_providers_by_name");
/// Providers: (name folded for case, id), the unique name.
pub(crate) const PROVIDERS_BY_CASE_NAME: Tbl = table("ai_providers_by_case_name");
/// Providers: (updated_at, id).
pub(crate) const PROVIDERS_BY_UPDATED: Tbl = table("ai_providers_by_updated");
/// Models by id.
pub(crate) const MODELS: Tbl = table("ai_models");
/// Models: (name folded for search, id), order `name`.
pub(crate) const MODELS_BY_NAME: Tbl = table("ai_models_by_name");
/// Models: (updated_at, id).
pub(crate) const MODELS_BY_UPDATED: Tbl = table("ai_models_by_updated");
/// Models: (provider, identifier, id): the unique identifier, and each
/// provider's models.
pub(crate) const MODELS_BY_IDENTIFIER: Tbl = table("ai_models_by_identifier");
/// Settings by name (JSON): the default model, each task's configuration
/// and the worker's backoff.
pub(crate) const SETTINGS: Tbl = table("ai_settings");
/// The note-titles queue: (queued as a new id, note id), oldest first.
pub(crate) const TITLE_QUEUE: Tbl = table("ai_title_queue");
/// Queued notes: note id to its queue key.
pub(crate) const TITLE_QUEUED: Tbl = table("ai_title_queued");
/// Live untitled notes with a body that are not queued: what a backfill
/// queues (`backfill_pending` is its length).
pub(crate) const TITLE_UNTITLED: Tbl = table("ai_title_untitled");
/// Notes titled by the task: note id to the hash of the text the title
/// was made from, so only a change of the text asks for a new one.
pub(crate) const TITLE_MADE_FROM: Tbl = table("ai_title_made_from");

/// Every table of this resource.
pub(crate) const TABLES: &[Tbl] = &[
    PROVIDERS,
    PROVIDERS_BY_NAME,
    PROVIDERS_BY_CASE_NAME,
    PROVIDERS_BY_UPDATED,
    MODELS,
    MODELS_BY_NAME,
    MODELS_BY_UPDATED,
    MODELS_BY_IDENTIFIER,
    SETTINGS,
    TITLE_QUEUE,
    TITLE_QUEUED,
    TITLE_UNTITLED,
    TITLE_MADE_FROM,
];
