//! AI tasks (document 2, "AITask", "AI tasks"): the built-in tasks in a
//! fixed order, each off until turned on, using the default model unless
//! it picks another, with its reasoning effort and token budget, and its
//! backfill.

use jiff::Timestamp;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::models::{self, AiModel};
use super::providers::{self, StoredProvider};
use super::{queue, settings};
use crate::engine::{Cx, WriteCx};
use crate::error::{Details, Error, Result};
use crate::ids::Id;
use crate::input::{Field, record, words};
use crate::store::Tables;

words! {
    /// How hard a reasoning model thinks (sent as `reasoning_effort` to
    /// api_compatible providers).
    pub enum Reasoning {
        /// No reasoning.
        None = "none",
        /// Low.
        Low = "low",
        /// Medium.
        Medium = "medium",
        /// High.
        High = "high",
    }
}

/// The reasoning efforts a task may ask for.
pub(crate) const REASONING: &[&str] = Reasoning::WORDS;
/// The smallest and largest token budgets.
pub(crate) const MAX_OUTPUT_TOKENS: std::ops::RangeInclusive<i64> = 16..=32_768;

/// A built-in task.
pub(crate) struct Def {
    pub(crate) key: &'static str,
    pub(crate) name: &'static str,
    pub(crate) description: &'static str,
    pub(crate) default_max_output_tokens: u32,
    /// Whether it has a backfill.
    pub(crate) backfills: bool,
}

/// Every built-in task, in the API's order.
pub(crate) static TASKS: &[Def] = &[Def {
    key: queue::TASK,
    name: "Note titles",
    description: "Writes a short title, in the note's own language, for each note you leave untitled, and keeps it current as the note changes until you write or clear a title yourself.",
    default_max_output_tokens: 2048,
    backfills: true,
}];

/// An AI task as the API shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AiTask {
    /// The task's stable key (`note_titles`).
    pub key: String,
    /// Its name.
    pub name: String,
    /// What it does.
    pub description: String,
    /// Whether it runs (off until turned on).
    pub enabled: bool,
    /// The model it uses; null means the default model.
    pub ai_model_id: Option<Id>,
    /// How hard the model thinks; null sends nothing.
    pub reasoning: Option<Reasoning>,
    /// The most tokens a reply may use; null means the task's default.
    pub max_output_tokens: Option<u32>,
    /// The task's own budget.
    pub default_max_output_tokens: u32,
    /// How many records a backfill would queue now; null without one.
    pub backfill_pending: Option<u64>,
    /// When it was last configured; null until then.
    #[serde(with = "crate::time::serde_timestamp::option")]
    pub updated_at: Option<Timestamp>,
}

/// A task's configuration as stored.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Config {
    pub(crate) enabled: bool,
    pub(crate) ai_model_id: Option<Id>,
    pub(crate) reasoning: Option<String>,
    pub(crate) max_output_tokens: Option<u32>,
    #[serde(with = "crate::time::serde_timestamp::option")]
    pub(crate) updated_at: Option<Timestamp>,
}

fn setting(key: &str) -> String {
    format!("task:{key}")
}

/// The task `key`: 404 when there is none.
pub(crate) fn def(key: &str) -> Result<&'static Def> {
    TASKS.iter().find(|d| d.key == key).ok_or(Error::NotFound)
}

/// Task `key`'s configuration.
pub(crate) fn config<T: Tables>(cx: &Cx<'_, T>, key: &str) -> Result<Config> {
    Ok(settings::get(cx, &setting(key))?.unwrap_or_default())
}

fn shown<T: Tables>(cx: &Cx<'_, T>, d: &Def) -> Result<AiTask> {
    let c = config(cx, d.key)?;
    let pending = match d.key {
        queue::TASK => Some(queue::pending(cx)?),
        _ => None,
    };
    Ok(AiTask {
        key: d.key.to_owned(),
        name: d.name.to_owned(),
        description: d.description.to_owned(),
        enabled: c.enabled,
        ai_model_id: c.ai_model_id,
        // A stored word this build does not know sends nothing.
        reasoning: c.reasoning.as_deref().and_then(Reasoning::parse),
        max_output_tokens: c.max_output_tokens,
        default_max_output_tokens: d.default_max_output_tokens,
        backfill_pending: if d.backfills { pending } else { None },
        updated_at: c.updated_at,
    })
}

/// `GET /ai_tasks`.
pub(crate) fn list<T: Tables>(cx: &Cx<'_, T>) -> Result<Vec<AiTask>> {
    TASKS.iter().map(|d| shown(cx, d)).collect()
}

/// `GET /ai_tasks/{key}`.
pub(crate) fn get<T: Tables>(cx: &Cx<'_, T>, key: &str) -> Result<AiTask> {
    shown(cx, def(key)?)
}

/// What a backfill queued.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Backfilled {
    /// How many records were queued now (those queued already are not
    /// counted again).
    pub queued: u64,
}

/// `GET /ai_tasks/{key}/queue` (not in the spec; docs/api.md): how many
/// records wait for the task, and how far its last backfill has come,
/// which progress displays follow.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AiTaskQueue {
    /// Records waiting in the task's queue.
    pub queued: u64,
    /// The task's last backfill; null before the first.
    pub backfill: Option<BackfillProgress>,
}

/// How far a backfill has come: of the `total` records waiting just after
/// it, `done` no longer wait (records queued since count as its own).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct BackfillProgress {
    /// When it was asked for.
    #[serde(with = "crate::time::serde_timestamp")]
    pub started_at: Timestamp,
    /// The records waiting just after it (those it queued and those
    /// already queued), or more when more were queued since.
    pub total: u64,
    /// Of those, the records no longer waiting.
    pub done: u64,
    /// Whether nothing waits any more.
    pub finished: bool,
}

/// A backfill as stored: when, and how many waited just after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
struct BackfillRun {
    #[serde(with = "crate::time::serde_timestamp")]
    started_at: Timestamp,
    total: u64,
}

fn backfill_setting(key: &str) -> String {
    format!("task:{key}:backfill")
}

/// `GET /ai_tasks/{key}/queue`.
pub(crate) fn queue_of<T: Tables>(cx: &Cx<'_, T>, key: &str) -> Result<AiTaskQueue> {
    let d = def(key)?;
    let queued = match d.key {
        queue::TASK => queue::queued(cx)?,
        _ => 0,
    };
    let run: Option<BackfillRun> = settings::get(cx, &backfill_setting(d.key))?;
    let backfill = run.map(|r| {
        let total = r.total.max(queued);
        BackfillProgress {
            started_at: r.started_at,
            total,
            done: total - queued,
            finished: queued == 0,
        }
    });
    Ok(AiTaskQueue { queued, backfill })
}

/// What a task runs with: its model and the model's provider, and its
/// configuration.
pub(crate) struct Running {
    pub(crate) model: AiModel,
    pub(crate) provider: StoredProvider,
    pub(crate) config: Config,
    pub(crate) max_output_tokens: u32,
}

/// The model task `key` would use now (its own, else the default), if it
/// has one.
fn model_of<T: Tables>(cx: &Cx<'_, T>, c: &Config) -> Result<Option<AiModel>> {
    let id = match c.ai_model_id {
        Some(id) => Some(id),
        None => models::default_id(cx)?,
    };
    match id {
        Some(id) => models::load(cx, id),
        None => Ok(None),
    }
}

/// What task `key` runs with, when it is on and has a model.
pub(crate) fn running<T: Tables>(cx: &Cx<'_, T>, key: &str) -> Result<Option<Running>> {
    let d = def(key)?;
    let c = config(cx, key)?;
    if !c.enabled {
        return Ok(None);
    }
    let Some(model) = model_of(cx, &c)? else {
        return Ok(None);
    };
    let Some(provider) = providers::load(cx, model.ai_provider_id)? else {
        return Ok(None);
    };
    Ok(Some(Running {
        model,
        provider,
        max_output_tokens: c.max_output_tokens.unwrap_or(d.default_max_output_tokens),
        config: c,
    }))
}

/// `{ai_task: {enabled?, ai_model_id?, reasoning?, max_output_tokens?}}`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(default)]
pub struct AiTaskInput {
    /// Turn it on or off.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enabled: Option<bool>,
    /// The model; null means the default.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub ai_model_id: Field<Id>,
    /// How hard the model thinks; null sends nothing.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub reasoning: Field<Reasoning>,
    /// 16 to 32,768; null means the task's default.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub max_output_tokens: Field<u32>,
}

pub(crate) fn parse(body: Option<&Value>) -> Result<AiTaskInput> {
    let mut f = record(body, "ai_task")?;
    let enabled = f.boolean("enabled");
    let ai_model_id = match f.raw("ai_model_id") {
        Field::Value(Value::String(s)) if s.is_empty() => Field::Null,
        _ => f.id("ai_model_id"),
    };
    let reasoning = match f.raw("reasoning") {
        Field::Absent => Field::Absent,
        Field::Null => Field::Null,
        Field::Value(Value::String(s)) if Reasoning::parse(s).is_some() => {
            Field::Value(Reasoning::parse(s).unwrap_or(Reasoning::None))
        }
        Field::Value(_) => {
            f.add(
                "reasoning",
                format!("must be one of {}", REASONING.join(", ")),
            );
            Field::Absent
        }
    };
    let max_output_tokens = match f.raw("max_output_tokens") {
        Field::Absent => Field::Absent,
        Field::Null => Field::Null,
        Field::Value(v) => match v.as_f64() {
            Some(n)
                if n.is_finite()
                    && n.fract() == 0.0
                    && (*MAX_OUTPUT_TOKENS.start() as f64..=*MAX_OUTPUT_TOKENS.end() as f64)
                        .contains(&n) =>
            {
                Field::Value(n as u32)
            }
            _ => {
                f.add(
                    "max_output_tokens",
                    "must be a whole number from 16 to 32768",
                );
                Field::Absent
            }
        },
    };
    f.finish()?;
    Ok(AiTaskInput {
        enabled,
        ai_model_id,
        reasoning,
        max_output_tokens,
    })
}

/// `PATCH /ai_tasks/{key}`: only the fields sent change.
pub(crate) fn change(cx: &mut WriteCx<'_>, key: &str, input: &AiTaskInput) -> Result<AiTask> {
    let d = def(key)?;
    if let Field::Value(id) = input.ai_model_id
        && models::load(cx, id)?.is_none()
    {
        let mut details = Details::new();
        details.add("ai_model_id", "does not exist");
        details.into_validation()?;
    }
    let before = config(cx, key)?;
    let mut c = before.clone();
    if let Some(enabled) = input.enabled {
        c.enabled = enabled;
    }
    if let Some(id) = input.ai_model_id.clone().sent() {
        c.ai_model_id = id;
    }
    if let Some(r) = input.reasoning.clone().sent() {
        c.reasoning = r.map(|r| r.as_str().to_owned());
    }
    if let Some(n) = input.max_output_tokens.clone().sent() {
        c.max_output_tokens = n;
    }
    if c != before {
        c.updated_at = Some(cx.now());
        settings::set(cx, &setting(key), Some(&c))?;
        // A new configuration is tried at once, whatever failed before.
        queue::reset_backoff(cx)?;
    }
    shown(cx, d)
}

/// Tasks that picked model `id` go back to the default model.
pub(crate) fn model_gone(cx: &WriteCx<'_>, id: Id) -> Result<()> {
    for d in TASKS {
        let mut c = config(cx, d.key)?;
        if c.ai_model_id == Some(id) {
            c.ai_model_id = None;
            c.updated_at = Some(cx.now());
            settings::set(cx, &setting(d.key), Some(&c))?;
        }
    }
    Ok(())
}

/// `POST /ai_tasks/{key}/backfill`: queues what the task would process;
/// how many were queued. 404 for a task without a backfill; 422 on
/// `base` when the task is off or has no model.
pub(crate) fn backfill(cx: &mut WriteCx<'_>, key: &str) -> Result<u64> {
    let d = def(key)?;
    if !d.backfills {
        return Err(Error::NotFound);
    }
    let c = config(cx, key)?;
    if !c.enabled {
        return Err(Error::invalid("base", "the task is off; turn it on first"));
    }
    if model_of(cx, &c)?.is_none() {
        return Err(Error::invalid(
            "base",
            "the task has no model: pick one for it or make a model the default",
        ));
    }
    let queued = queue::backfill(cx)?;
    let run = BackfillRun {
        started_at: cx.now(),
        total: queue::queued(cx)?,
    };
    settings::set(cx, &backfill_setting(d.key), Some(&run))?;
    Ok(queued)
}
