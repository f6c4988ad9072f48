//! The AI operations (document 2, "AI providers", "AI models", "AI
//! tasks"), each declared once, and [`Ai`], their typed door. The
//! connection calls and trials wait on the network outside any
//! transaction; the deletes that reach across records live here.

use std::time::Duration;

use super::calls::{self, ModelCount, ModelList, ProviderTest, TrialInput, TrialReply};
use super::models::{self, AddedModels, AiModel, AiModelInput, AiModelQuery, ModelAdditions};
use super::providers::{self, AiProvider, AiProviderInput, AiProviderQuery};
use super::tasks::{self, AiTask, AiTaskInput, AiTaskQueue, Backfilled};
use super::{queue, titles};
use crate::engine::jobs::{Job, Pace, Ran};
use crate::engine::op::{PlainOp, ReadOp, WriteOp};
use crate::engine::operation::{Answer, Declared, Door, Operation, Run, body_part, query_part};
use crate::engine::request::Method::{Delete, Get, Patch, Post, Put};
use crate::engine::{Organiser, WriteCx};
use crate::error::Result;
use crate::ids::Id;
use crate::limits::routes::{MODEL_TRIAL_LIMIT, PROVIDER_CALLS_LIMIT, TASK_BACKFILL_LIMIT};
use crate::list::Page;

body_part!(AiProviderInput, providers::parse, Some("ai_provider"));
body_part!(ProviderTest, calls::parse_test, None);
body_part!(AiModelInput, models::parse, Some("ai_model"));
body_part!(ModelAdditions, models::parse_additions, None);
body_part!(AiTaskInput, tasks::parse, Some("ai_task"));
body_part!(
    TrialInput,
    |body| calls::parse_trial(body).map(|prompt| TrialInput { prompt }),
    None
);
query_part!(AiProviderQuery, AiModelQuery);

/// Waits on the provider (up to 90 s) between transactions of its own;
/// ignores `Idempotency-Key`.
const CALL: PlainOp = PlainOp::WAITS;

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

pub(crate) static LIST_PROVIDERS: Operation<AiProviderQuery, Page<AiProvider>> = Operation::new(
    "listAiProviders",
    Get,
    "/ai_providers",
    "AI providers",
    Run::Read(ReadOp::PLAIN, |cx, query| providers::list(cx, &query)),
    Answer::bare(200),
);

pub(crate) static CREATE_PROVIDER: Operation<AiProviderInput, AiProvider> = Operation::new(
    "createAiProvider",
    Post,
    "/ai_providers",
    "Add an AI provider",
    Run::write(WriteOp::LICENSED.idempotent(), |cx, input| {
        providers::create(cx, &input)
    }),
    Answer::data(201),
);

pub(crate) static TEST_PROVIDER: Operation<ProviderTest, ModelCount> = Operation::new(
    "testAiProvider",
    Post,
    "/ai_providers/test",
    "Test unsaved provider settings\n\nLists the models with the settings sent (GET `<base_url>/models`, for `vendor_b` with `?limit=1000`), following no redirect, reading at most 5 MB, waiting up to 90 seconds; saves and records nothing; ignores `Idempotency-Key`. A failure is 422 `provider_error` with the reason in `message`. 20 a minute per address, shared with check and available models.",
    Run::Plain(CALL.licensed(), |inner, settings| calls::test(inner, &settings)),
    Answer::data(200),
)
.limited(&PROVIDER_CALLS_LIMIT);

pub(crate) static PROVIDER: Operation<Id, AiProvider> = Operation::new(
    "getAiProvider",
    Get,
    "/ai_providers/{id}",
    "An AI provider",
    Run::Read(ReadOp::PLAIN, providers::get),
    Answer::data(200),
);

pub(crate) static CHANGE_PROVIDER: Operation<(Id, AiProviderInput), AiProvider> = Operation::new(
    "changeAiProvider",
    Patch,
    "/ai_providers/{id}",
    "Change an AI provider\n\nOnly the fields sent change.",
    Run::write(WriteOp::LICENSED, |cx, (id, input)| {
        providers::change(cx, id, &input)
    }),
    Answer::data(200),
)
.also(Put, "replaceAiProvider");

pub(crate) static DELETE_PROVIDER: Operation<Id, ()> = Operation::new(
    "deleteAiProvider",
    Delete,
    "/ai_providers/{id}",
    "Delete an AI provider",
    Run::write(WriteOp::LICENSED, delete_provider),
    Answer::empty(),
);

pub(crate) static CHECK_PROVIDER: Operation<Id, ModelList> = Operation::new(
    "checkAiProvider",
    Post,
    "/ai_providers/{id}/check",
    "Check a provider\n\nLists the models with the saved settings and records the outcome on the provider (a new `updated_at`). A failure is 422 `provider_error`. Takes no body; ignores `Idempotency-Key`.",
    Run::Plain(CALL.licensed(), calls::check),
    Answer::data(200),
)
.limited(&PROVIDER_CALLS_LIMIT);

pub(crate) static AVAILABLE_MODELS: Operation<Id, ModelList> = Operation::new(
    "listAvailableAiModels",
    Get,
    "/ai_providers/{id}/available_models",
    "The models a provider offers\n\nAs check, recording nothing.",
    Run::Plain(CALL, calls::available_models),
    Answer::data(200),
)
.limited(&PROVIDER_CALLS_LIMIT);

pub(crate) static ADD_MODELS: Operation<(Id, ModelAdditions), AddedModels> = Operation::new(
    "addAiModels",
    Post,
    "/ai_providers/{id}/model_additions",
    "Add models of a provider\n\nIn one transaction. Neither `identifiers` nor `identifier`: 422 on `base`.",
    Run::write(WriteOp::LICENSED.idempotent(), |cx, (id, additions)| {
        models::add_models(cx, id, &additions)
    }),
    Answer::data(201),
);

pub(crate) static LIST_MODELS: Operation<AiModelQuery, Page<AiModel>> = Operation::new(
    "listAiModels",
    Get,
    "/ai_models",
    "AI models",
    Run::Read(ReadOp::PLAIN, |cx, query| models::list(cx, &query)),
    Answer::bare(200),
);

pub(crate) static CREATE_MODEL: Operation<AiModelInput, AiModel> = Operation::new(
    "createAiModel",
    Post,
    "/ai_models",
    "Add an AI model",
    Run::write(WriteOp::LICENSED.idempotent(), |cx, input| {
        models::create(cx, &input)
    }),
    Answer::data(201),
);

pub(crate) static MODEL: Operation<Id, AiModel> = Operation::new(
    "getAiModel",
    Get,
    "/ai_models/{id}",
    "An AI model",
    Run::Read(ReadOp::PLAIN, models::get),
    Answer::data(200),
);

pub(crate) static CHANGE_MODEL: Operation<(Id, AiModelInput), AiModel> = Operation::new(
    "changeAiModel",
    Patch,
    "/ai_models/{id}",
    "Change an AI model",
    Run::write(WriteOp::LICENSED, |cx, (id, input)| {
        models::change(cx, id, &input)
    }),
    Answer::data(200),
)
.also(Put, "replaceAiModel");

pub(crate) static DELETE_MODEL: Operation<Id, ()> = Operation::new(
    "deleteAiModel",
    Delete,
    "/ai_models/{id}",
    "Delete an AI model",
    Run::write(WriteOp::LICENSED, delete_model),
    Answer::empty(),
);

pub(crate) static TRY_MODEL: Operation<(Id, TrialInput), TrialReply> = Operation::new(
    "tryAiModel",
    Post,
    "/ai_models/{id}/trial",
    "Try a model\n\nSends `prompt` to the model (waiting up to 90 seconds); stores and logs nothing of it; records the outcome on the provider. 20 a minute per address.",
    Run::Plain(CALL.licensed(), |inner, (id, input): (Id, TrialInput)| {
        calls::trial(inner, id, &input.prompt)
    }),
    Answer::data(200),
)
.limited(&MODEL_TRIAL_LIMIT);

pub(crate) static LIST_TASKS: Operation<(), Vec<AiTask>> = Operation::new(
    "listAiTasks",
    Get,
    "/ai_tasks",
    "AI tasks",
    Run::Read(ReadOp::PLAIN, |cx, ()| tasks::list(cx)),
    Answer::data(200),
);

pub(crate) static TASK: Operation<String, AiTask> = Operation::new(
    "getAiTask",
    Get,
    "/ai_tasks/{key}",
    "An AI task",
    Run::Read(ReadOp::PLAIN, |cx, key| tasks::get(cx, &key)),
    Answer::data(200),
);

pub(crate) static CHANGE_TASK: Operation<(String, AiTaskInput), AiTask> = Operation::new(
    "changeAiTask",
    Patch,
    "/ai_tasks/{key}",
    "Configure an AI task",
    Run::write(
        WriteOp::LICENSED,
        |cx, (key, input): (String, AiTaskInput)| tasks::change(cx, &key, &input),
    ),
    Answer::data(200),
)
.also(Put, "replaceAiTask");

pub(crate) static BACKFILL: Operation<String, Backfilled> = Operation::new(
    "backfillAiTask",
    Post,
    "/ai_tasks/{key}/backfill",
    "Backfill an AI task\n\nQueues what the task would process (`backfill_pending`); repeating it is safe. 404 for a task without a backfill; 422 on `base` when the task is off or has no model. 5 a minute per address.",
    Run::write(WriteOp::LICENSED.idempotent(), |cx, key: String| {
        Ok(Backfilled {
            queued: tasks::backfill(cx, &key)?,
        })
    }),
    Answer::data(202),
)
.limited(&TASK_BACKFILL_LIMIT);

pub(crate) static QUEUE: Operation<String, AiTaskQueue> = Operation::new(
    "getAiTaskQueue",
    Get,
    "/ai_tasks/{key}/queue",
    "An AI task's queue\n\nNot in the specification (docs/api.md): how many records wait in the task's queue, which progress displays follow.",
    Run::Read(ReadOp::PLAIN, |cx, key| tasks::queue_of(cx, &key)),
    Answer::data(200),
);

/// The AI operations, for the registry.
pub(crate) static OPERATIONS: &[&dyn Declared] = &[
    &LIST_PROVIDERS,
    &CREATE_PROVIDER,
    &TEST_PROVIDER,
    &PROVIDER,
    &CHANGE_PROVIDER,
    &DELETE_PROVIDER,
    &CHECK_PROVIDER,
    &AVAILABLE_MODELS,
    &ADD_MODELS,
    &LIST_MODELS,
    &CREATE_MODEL,
    &MODEL,
    &CHANGE_MODEL,
    &DELETE_MODEL,
    &TRY_MODEL,
    &LIST_TASKS,
    &TASK,
    &CHANGE_TASK,
    &BACKFILL,
    &QUEUE,
];

/// The AI providers, models and tasks of a store (document 2, "AI
/// providers", "AI models", "AI tasks"), through a [`Door`]: the store
/// itself (`org.ai()`), or a server that holds it. The calls to a provider
/// wait on it (up to 90 seconds): call them where blocking is fine.
#[derive(Debug, Clone, Copy)]
pub struct Ai<'d, D = Organiser> {
    door: &'d D,
}

impl<'d, D: Door> Ai<'d, D> {
    /// The AI settings of the store behind `door`.
    pub fn new(door: &'d D) -> Self {
        Ai { door }
    }

    /// One page of the providers.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidParameter`](crate::Error::InvalidParameter) for a
    /// parameter the listing refuses.
    pub fn providers(&self, query: &AiProviderQuery) -> Result<Page<AiProvider>> {
        self.door.call(&LIST_PROVIDERS, query.clone())
    }

    /// Adds a provider (its key sealed with the store's key).
    ///
    /// # Errors
    ///
    /// [`Error::Validation`](crate::Error::Validation) for a blank or
    /// taken name, an unknown kind or a malformed address.
    pub fn create_provider(&self, input: AiProviderInput) -> Result<AiProvider> {
        self.door.call(&CREATE_PROVIDER, input)
    }

    /// Provider `id`.
    ///
    /// # Errors
    ///
    /// [`Error::NotFound`](crate::Error::NotFound) for an unknown one.
    pub fn provider(&self, id: Id) -> Result<AiProvider> {
        self.door.call(&PROVIDER, id)
    }

    /// Changes the fields `input` sends of provider `id`.
    ///
    /// # Errors
    ///
    /// As [`Ai::create_provider`] and [`Ai::provider`].
    pub fn change_provider(&self, id: Id, input: AiProviderInput) -> Result<AiProvider> {
        self.door.call(&CHANGE_PROVIDER, (id, input))
    }

    /// Deletes provider `id` with its models, for good.
    ///
    /// # Errors
    ///
    /// As [`Ai::provider`].
    pub fn delete_provider(&self, id: Id) -> Result<()> {
        self.door.call(&DELETE_PROVIDER, id)
    }

    /// Lists the models unsaved provider `settings` reach, saving and
    /// recording nothing.
    ///
    /// # Errors
    ///
    /// [`Error::ProviderError`](crate::Error::ProviderError) with the
    /// reason (the key redacted); [`Error::ReadOnly`](crate::Error::ReadOnly).
    pub fn test_provider(&self, settings: ProviderTest) -> Result<ModelCount> {
        self.door.call(&TEST_PROVIDER, settings)
    }

    /// Lists the models of saved provider `id` and records the outcome
    /// on it.
    ///
    /// # Errors
    ///
    /// As [`Ai::test_provider`] and [`Ai::provider`].
    pub fn check_provider(&self, id: Id) -> Result<ModelList> {
        self.door.call(&CHECK_PROVIDER, id)
    }

    /// The models provider `id` offers, recording nothing.
    ///
    /// # Errors
    ///
    /// As [`Ai::check_provider`].
    pub fn available_models(&self, id: Id) -> Result<ModelList> {
        self.door.call(&AVAILABLE_MODELS, id)
    }

    /// Adds models of provider `provider` in one write.
    ///
    /// # Errors
    ///
    /// [`Error::Validation`](crate::Error::Validation) on `base` for
    /// neither `identifiers` nor `identifier`, or on a model already added.
    pub fn add_models(&self, provider: Id, additions: ModelAdditions) -> Result<AddedModels> {
        self.door.call(&ADD_MODELS, (provider, additions))
    }

    /// One page of the models.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidParameter`](crate::Error::InvalidParameter) for a
    /// parameter the listing refuses.
    pub fn models(&self, query: &AiModelQuery) -> Result<Page<AiModel>> {
        self.door.call(&LIST_MODELS, query.clone())
    }

    /// Adds a model of a provider.
    ///
    /// # Errors
    ///
    /// [`Error::Validation`](crate::Error::Validation) for an unknown
    /// provider, a blank identifier or one already added.
    pub fn create_model(&self, input: AiModelInput) -> Result<AiModel> {
        self.door.call(&CREATE_MODEL, input)
    }

    /// Model `id`.
    ///
    /// # Errors
    ///
    /// [`Error::NotFound`](crate::Error::NotFound) for an unknown one.
    pub fn model(&self, id: Id) -> Result<AiModel> {
        self.door.call(&MODEL, id)
    }

    /// Changes the fields `input` sends of model `id`.
    ///
    /// # Errors
    ///
    /// As [`Ai::create_model`] and [`Ai::model`].
    pub fn change_model(&self, id: Id, input: AiModelInput) -> Result<AiModel> {
        self.door.call(&CHANGE_MODEL, (id, input))
    }

    /// Deletes model `id`, for good; a task that picked it goes back to
    /// the default.
    ///
    /// # Errors
    ///
    /// As [`Ai::model`].
    pub fn delete_model(&self, id: Id) -> Result<()> {
        self.door.call(&DELETE_MODEL, id)
    }

    /// Model `id`'s reply to `prompt`; the outcome is recorded on its
    /// provider, the prompt nowhere.
    ///
    /// # Errors
    ///
    /// [`Error::Validation`](crate::Error::Validation) on `prompt` for a
    /// blank or too long one; as [`Ai::check_provider`].
    pub fn try_model(&self, id: Id, prompt: &str) -> Result<TrialReply> {
        let input = TrialInput {
            prompt: prompt.to_owned(),
        };
        self.door.call(&TRY_MODEL, (id, input))
    }

    /// Every built-in task, in a fixed order.
    ///
    /// # Errors
    ///
    /// Only the store's.
    pub fn tasks(&self) -> Result<Vec<AiTask>> {
        self.door.call(&LIST_TASKS, ())
    }

    /// The task `key` (`note_titles`).
    ///
    /// # Errors
    ///
    /// [`Error::NotFound`](crate::Error::NotFound) for an unknown key.
    pub fn task(&self, key: &str) -> Result<AiTask> {
        self.door.call(&TASK, key.to_owned())
    }

    /// Turns task `key` on or off and picks its model, as `input` sends.
    ///
    /// # Errors
    ///
    /// As [`Ai::task`]; [`Error::Validation`](crate::Error::Validation) for
    /// an unknown model.
    pub fn change_task(&self, key: &str, input: AiTaskInput) -> Result<AiTask> {
        self.door.call(&CHANGE_TASK, (key.to_owned(), input))
    }

    /// How many records wait in task `key`'s queue.
    ///
    /// # Errors
    ///
    /// As [`Ai::task`].
    pub fn queue(&self, key: &str) -> Result<AiTaskQueue> {
        self.door.call(&QUEUE, key.to_owned())
    }

    /// Queues what task `key` would process; repeating it is safe.
    ///
    /// # Errors
    ///
    /// [`Error::NotFound`](crate::Error::NotFound) for a task without a
    /// backfill; [`Error::Validation`](crate::Error::Validation) on `base`
    /// when the task is off or has no model.
    pub fn backfill(&self, key: &str) -> Result<Backfilled> {
        self.door.call(&BACKFILL, key.to_owned())
    }
}

impl Organiser {
    /// The store's AI providers, models and tasks.
    pub fn ai(&self) -> Ai<'_> {
        Ai::new(self)
    }

    /// Works the AI tasks' queues, one model call at a time, until they
    /// are empty, a task is off or without a model, or a failing provider
    /// makes them wait (its backoff follows the clock); how many records
    /// it wrote. Returns 0 at once while another call works or while the
    /// licence is read-only. The server runs it in the background;
    /// embedders call it on their own schedule (with
    /// [`Organiser::wait_for_ai_work`]).
    ///
    /// # Errors
    ///
    /// Only the store's (a provider's failure is recorded on it).
    pub fn run_ai_tasks(&self) -> Result<usize> {
        titles::run(&self.inner)
    }

    /// Blocks until a write queues AI work or `max` passes; whether work
    /// was queued.
    pub fn wait_for_ai_work(&self, max: Duration) -> bool {
        queue::wait(&self.inner, max)
    }
}

/// The AI tasks' queues, worked as soon as a write queues work (or every
/// second, for backoffs that end).
pub(crate) const TITLES: Job = Job {
    name: "ai_tasks",
    pace: Pace::Woken(Duration::from_secs(1), |org, max| org.wait_for_ai_work(max)),
    announce: None,
    run: |org| {
        Ok(match org.run_ai_tasks()? {
            0 => Ran::Nothing,
            written => Ran::Did(format!("AI note titles written: {written}")),
        })
    },
    at_stop: None,
};
