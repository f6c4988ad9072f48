//! The AI operations (document 2, "AI providers", "AI models", "AI
//! tasks"), each declared once for the typed method and the route arm.
//! The connection calls and trials wait on the network outside any
//! transaction; the deletes that reach across records live here.

use std::time::Duration;

use super::calls::{self, ModelCount, ModelList, ProviderTest, TrialReply};
use super::models::{self, AddedModels, AiModel, AiModelInput, AiModelQuery, ModelAdditions};
use super::providers::{self, AiProvider, AiProviderInput, AiProviderQuery};
use super::tasks::{self, AiTask, AiTaskInput, AiTaskQueue};
use super::{queue, titles};
use crate::engine::endpoint::Endpoint;
use crate::engine::op::{PlainOp, ReadOp, Route, WriteOp};
use crate::engine::request::{Method, Request, Response};
use crate::engine::{Inner, Organiser, WriteCx};
use crate::error::{Error, Result};
use crate::ids::Id;
use crate::list::Page;

static LIST: ReadOp = ReadOp::PLAIN;
static GET: ReadOp = ReadOp::PLAIN;
static CREATE: WriteOp = WriteOp::LICENSED.idempotent();
static CHANGE: WriteOp = WriteOp::LICENSED;
static DELETE: WriteOp = WriteOp::LICENSED;
/// Adds models in one transaction; honours `Idempotency-Key`.
static ADD_MODELS: WriteOp = WriteOp::LICENSED.idempotent();
/// Queues in one transaction; honours `Idempotency-Key`.
static BACKFILL: WriteOp = WriteOp::LICENSED.idempotent();
/// Waits on the provider (up to 90 s) between transactions of its own;
/// ignores `Idempotency-Key`.
static CALL: PlainOp = PlainOp::WAITS;

/// `DELETE /ai_providers/{id}`: for good, with its models (one `ai_model`
/// deletion each); a default among them leaves none.
fn delete_provider(cx: &mut WriteCx<'_>, id: Id) -> Result<()> {
    providers::stored(cx, id)?;
    for model in models::of_provider(cx, id)? {
        delete_model(cx, model)?;
    }
    providers::delete(cx, id)
}

/// `DELETE /ai_models/{id}`: for good; the default leaves none, and a
/// task that picked it goes back to the default model.
fn delete_model(cx: &mut WriteCx<'_>, id: Id) -> Result<()> {
    models::delete(cx, id)?;
    tasks::model_gone(cx, id)
}

impl Organiser {
    /// `GET /ai_providers`.
    pub fn ai_providers(&self, query: &AiProviderQuery) -> Result<Page<AiProvider>> {
        self.inner.read_op(&LIST, |cx| providers::list(cx, query))
    }

    /// `POST /ai_providers`.
    pub fn create_ai_provider(&self, input: &AiProviderInput) -> Result<AiProvider> {
        self.inner
            .write_op(&CREATE, |cx| providers::create(cx, input))
    }

    /// `GET /ai_providers/{id}`.
    pub fn ai_provider(&self, id: Id) -> Result<AiProvider> {
        self.inner.read_op(&GET, |cx| providers::get(cx, id))
    }

    /// `PATCH /ai_providers/{id}`.
    pub fn change_ai_provider(&self, id: Id, input: &AiProviderInput) -> Result<AiProvider> {
        self.inner
            .write_op(&CHANGE, |cx| providers::change(cx, id, input))
    }

    /// `DELETE /ai_providers/{id}`, with its models.
    pub fn delete_ai_provider(&self, id: Id) -> Result<()> {
        self.inner.write_op(&DELETE, |cx| delete_provider(cx, id))
    }

    /// `POST /ai_providers/test`: lists the models with unsaved settings
    /// (waits up to 90 s); saves and records nothing.
    pub fn test_ai_provider(&self, settings: &ProviderTest) -> Result<ModelCount> {
        self.inner.require_writable()?;
        calls::test(&self.inner, settings)
    }

    /// `POST /ai_providers/{id}/check`: lists the models and records the
    /// outcome on the provider (waits up to 90 s).
    pub fn check_ai_provider(&self, id: Id) -> Result<ModelList> {
        self.inner.require_writable()?;
        calls::check(&self.inner, id)
    }

    /// `GET /ai_providers/{id}/available_models` (waits up to 90 s).
    pub fn available_ai_models(&self, id: Id) -> Result<ModelList> {
        calls::available_models(&self.inner, id)
    }

    /// `POST /ai_providers/{id}/model_additions`.
    pub fn add_ai_models(&self, provider: Id, additions: &ModelAdditions) -> Result<AddedModels> {
        self.inner.write_op(&ADD_MODELS, |cx| {
            models::add_models(cx, provider, additions)
        })
    }

    /// `GET /ai_models`.
    pub fn ai_models(&self, query: &AiModelQuery) -> Result<Page<AiModel>> {
        self.inner.read_op(&LIST, |cx| models::list(cx, query))
    }

    /// `POST /ai_models`.
    pub fn create_ai_model(&self, input: &AiModelInput) -> Result<AiModel> {
        self.inner.write_op(&CREATE, |cx| models::create(cx, input))
    }

    /// `GET /ai_models/{id}`.
    pub fn ai_model(&self, id: Id) -> Result<AiModel> {
        self.inner.read_op(&GET, |cx| models::get(cx, id))
    }

    /// `PATCH /ai_models/{id}`.
    pub fn change_ai_model(&self, id: Id, input: &AiModelInput) -> Result<AiModel> {
        self.inner
            .write_op(&CHANGE, |cx| models::change(cx, id, input))
    }

    /// `DELETE /ai_models/{id}`.
    pub fn delete_ai_model(&self, id: Id) -> Result<()> {
        self.inner.write_op(&DELETE, |cx| delete_model(cx, id))
    }

    /// `POST /ai_models/{id}/trial`: the model's reply to `prompt` (waits
    /// up to 90 s); the outcome is recorded on the provider.
    pub fn try_ai_model(&self, id: Id, prompt: &str) -> Result<TrialReply> {
        self.inner.require_writable()?;
        let prompt = calls::parse_trial(Some(&serde_json::json!({ "prompt": prompt })))?;
        calls::trial(&self.inner, id, &prompt)
    }

    /// `GET /ai_tasks`: every built-in task, in a fixed order.
    pub fn ai_tasks(&self) -> Result<Vec<AiTask>> {
        self.inner.read_op(&GET, tasks::list)
    }

    /// `GET /ai_tasks/{key}`.
    pub fn ai_task(&self, key: &str) -> Result<AiTask> {
        self.inner.read_op(&GET, |cx| tasks::get(cx, key))
    }

    /// `PATCH /ai_tasks/{key}`.
    pub fn change_ai_task(&self, key: &str, input: &AiTaskInput) -> Result<AiTask> {
        self.inner
            .write_op(&CHANGE, |cx| tasks::change(cx, key, input))
    }

    /// `GET /ai_tasks/{key}/queue`: how many records wait for the task.
    pub fn ai_task_queue(&self, key: &str) -> Result<AiTaskQueue> {
        self.inner.read_op(&GET, |cx| tasks::queue_of(cx, key))
    }

    /// `POST /ai_tasks/{key}/backfill`: how many records were queued.
    pub fn backfill_ai_task(&self, key: &str) -> Result<u64> {
        self.inner
            .write_op(&BACKFILL, |cx| tasks::backfill(cx, key))
    }

    /// Works the AI tasks' queues, one model call at a time, until they
    /// are empty, a task is off or without a model, or a failing provider
    /// makes them wait (its backoff follows the clock); how many records
    /// it wrote. Returns 0 at once while another call works or while the
    /// licence is read-only. The server runs it in the background;
    /// embedders call it on their own schedule (with
    /// [`Organiser::wait_for_ai_work`]).
    pub fn run_ai_tasks(&self) -> Result<usize> {
        titles::run(&self.inner)
    }

    /// Blocks until a write queues AI work or `max` passes; whether work
    /// was queued.
    pub fn wait_for_ai_work(&self, max: Duration) -> bool {
        queue::wait(&self.inner, max)
    }
}

/// The routes of [`routes`].
pub(crate) static ENDPOINTS: &[Endpoint] = {
    use Method::{Delete, Get, Patch, Post, Put};
    &[
        Endpoint::new(Get, "/ai_providers"),
        Endpoint::new(Post, "/ai_providers"),
        Endpoint::new(Post, "/ai_providers/test"),
        Endpoint::new(Get, "/ai_providers/{id}"),
        Endpoint::new(Patch, "/ai_providers/{id}"),
        Endpoint::new(Put, "/ai_providers/{id}"),
        Endpoint::new(Delete, "/ai_providers/{id}"),
        Endpoint::new(Post, "/ai_providers/{id}/check"),
        Endpoint::new(Get, "/ai_providers/{id}/available_models"),
        Endpoint::new(Post, "/ai_providers/{id}/model_additions"),
        Endpoint::new(Get, "/ai_models"),
        Endpoint::new(Post, "/ai_models"),
        Endpoint::new(Get, "/ai_models/{id}"),
        Endpoint::new(Patch, "/ai_models/{id}"),
        Endpoint::new(Put, "/ai_models/{id}"),
        Endpoint::new(Delete, "/ai_models/{id}"),
        Endpoint::new(Post, "/ai_models/{id}/trial"),
        Endpoint::new(Get, "/ai_tasks"),
        Endpoint::new(Get, "/ai_tasks/{key}"),
        Endpoint::new(Patch, "/ai_tasks/{key}"),
        Endpoint::new(Put, "/ai_tasks/{key}"),
        Endpoint::new(Post, "/ai_tasks/{key}/backfill"),
        Endpoint::new(Get, "/ai_tasks/{key}/queue"),
    ]
};

/// A connection call's route arm: refused while read-only when it
/// records (`records`), then `f` outside any transaction.
fn call<'r>(records: bool, f: impl FnOnce(&Inner) -> Result<Response> + 'r) -> Route<'r> {
    CALL.route(move |inner| {
        if records {
            inner.require_writable()?;
        }
        f(inner)
    })
}

/// `/ai_providers`, `/ai_models` and `/ai_tasks`.
pub(crate) fn routes<'r>(req: &'r Request, segments: &[&'r str]) -> Result<Route<'r>> {
    use Method::{Delete, Get, Patch, Post, Put};
    let body = req.body.as_ref();
    Ok(match (req.method, segments) {
        (Get, ["ai_providers"]) => {
            let query = AiProviderQuery::parse(&req.query)?;
            LIST.route(move |cx| Ok(Response::json(200, &providers::list(cx, &query)?)))
        }
        (Post, ["ai_providers"]) => CREATE.route(
            move || providers::parse(body),
            |cx, input| Ok(Response::data(201, &providers::create(cx, &input)?)),
        ),
        (Post, ["ai_providers", "test"]) => call(true, move |inner| {
            let settings = calls::parse_test(body)?;
            Ok(Response::data(200, &calls::test(inner, &settings)?))
        }),
        (Get, ["ai_providers", id]) => {
            let id = Id::from_path(id)?;
            GET.route(move |cx| Ok(Response::data(200, &providers::get(cx, id)?)))
        }
        (Patch | Put, ["ai_providers", id]) => {
            let id = Id::from_path(id)?;
            CHANGE.route(
                move || providers::parse(body),
                move |cx, input| Ok(Response::data(200, &providers::change(cx, id, &input)?)),
            )
        }
        (Delete, ["ai_providers", id]) => {
            let id = Id::from_path(id)?;
            DELETE.run(move |cx| {
                delete_provider(cx, id)?;
                Ok(Response::no_content())
            })
        }
        (Post, ["ai_providers", id, "check"]) => {
            let id = Id::from_path(id)?;
            call(true, move |inner| {
                Ok(Response::data(200, &calls::check(inner, id)?))
            })
        }
        (Get, ["ai_providers", id, "available_models"]) => {
            let id = Id::from_path(id)?;
            call(false, move |inner| {
                Ok(Response::data(200, &calls::available_models(inner, id)?))
            })
        }
        (Post, ["ai_providers", id, "model_additions"]) => {
            let id = Id::from_path(id)?;
            ADD_MODELS.route(
                move || models::parse_additions(body),
                move |cx, additions| {
                    Ok(Response::data(
                        201,
                        &models::add_models(cx, id, &additions)?,
                    ))
                },
            )
        }
        (Get, ["ai_models"]) => {
            let query = AiModelQuery::parse(&req.query)?;
            LIST.route(move |cx| Ok(Response::json(200, &models::list(cx, &query)?)))
        }
        (Post, ["ai_models"]) => CREATE.route(
            move || models::parse(body),
            |cx, input| Ok(Response::data(201, &models::create(cx, &input)?)),
        ),
        (Get, ["ai_models", id]) => {
            let id = Id::from_path(id)?;
            GET.route(move |cx| Ok(Response::data(200, &models::get(cx, id)?)))
        }
        (Patch | Put, ["ai_models", id]) => {
            let id = Id::from_path(id)?;
            CHANGE.route(
                move || models::parse(body),
                move |cx, input| Ok(Response::data(200, &models::change(cx, id, &input)?)),
            )
        }
        (Delete, ["ai_models", id]) => {
            let id = Id::from_path(id)?;
            DELETE.run(move |cx| {
                delete_model(cx, id)?;
                Ok(Response::no_content())
            })
        }
        (Post, ["ai_models", id, "trial"]) => {
            let id = Id::from_path(id)?;
            call(true, move |inner| {
                let prompt = calls::parse_trial(body)?;
                Ok(Response::data(200, &calls::trial(inner, id, &prompt)?))
            })
        }
        (Get, ["ai_tasks"]) => GET.route(|cx| Ok(Response::data(200, &tasks::list(cx)?))),
        (Get, ["ai_tasks", key]) => {
            let key: &'r str = key;
            GET.route(move |cx| Ok(Response::data(200, &tasks::get(cx, key)?)))
        }
        (Patch | Put, ["ai_tasks", key]) => {
            let key: &'r str = key;
            CHANGE.route(
                move || tasks::parse(body),
                move |cx, input| Ok(Response::data(200, &tasks::change(cx, key, &input)?)),
            )
        }
        (Get, ["ai_tasks", key, "queue"]) => {
            let key: &'r str = key;
            GET.route(move |cx| Ok(Response::data(200, &tasks::queue_of(cx, key)?)))
        }
        (Post, ["ai_tasks", key, "backfill"]) => {
            let key: &'r str = key;
            BACKFILL.run(move |cx| {
                let queued = tasks::backfill(cx, key)?;
                Ok(Response::data(
                    202,
                    &serde_json::json!({ "queued": queued }),
                ))
            })
        }
        _ => return Err(Error::NotFound),
    })
}
