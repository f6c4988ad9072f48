//! AI: the providers (added with their kind, address and a key that is
//! written and never shown back; their connection checked, its failure
//! said in the core's words; deleted), their models (added from what the
//! provider offers or by identifier, one the default, deleted) and the AI
//! tasks (the note titles: on or off, their model, a backfill and how many
//! notes wait).
//!
//! A backfill's progress (the core's done of total, `Ai::queue`) is shown
//! at load, with a link that loads it again; the script (`ai.js`) follows
//! it by asking for the page again about every second while it runs.

use askama::Template;
use axum::extract::{Path, Query};
use axum::response::Response;
use organiser_core::ai::{
    Ai, AiModel, AiModelInput, AiModelQuery, AiProvider, AiProviderInput, AiProviderQuery,
    AiTaskInput, BackfillProgress, ModelAdditions,
};
use organiser_core::time::Zone;
use organiser_core::vocabulary::{Choice, vocabulary};
use organiser_core::{Details, Error, Field, Id};

use super::{
    Done, Frame, Sent, SettingsPage, act, again, refuse, refused, run, show_page, when_or,
};
use crate::web::forms::{SignedIn, answer, every, record_id};
use crate::web::{Chrome, Refusal, blocking};

/// A model as the list shows it.
struct ModelRow {
    id: String,
    name: String,
    identifier: String,
    is_default: bool,
}

impl ModelRow {
    fn of(m: &AiModel) -> ModelRow {
        ModelRow {
            id: m.id.to_string(),
            name: m.name.clone(),
            identifier: m.identifier.clone(),
            is_default: m.is_default,
        }
    }
}

/// A provider as the list shows it (its key only as set or not).
struct ProviderRow {
    id: String,
    name: String,
    kind: &'static str,
    base_url: String,
    key_set: bool,
    succeeded: String,
    failed: Option<String>,
    error: Option<String>,
    models: Vec<ModelRow>,
    /// The name of its check button's form, for a failed check's message.
    check_form: String,
    /// The name of its model form.
    models_form: String,
    /// What the provider offers that is not added yet (after a check).
    offered: Option<Vec<String>>,
}

/// The words of provider kind `key`.
fn kind_label(key: &str) -> &'static str {
    vocabulary(true)
        .ai_provider_kinds
        .iter()
        .find(|c| c.key == key)
        .map_or("Other", |c| c.label)
}

impl ProviderRow {
    fn of(p: AiProvider, models: &[AiModel], offered: Option<&Offered>, zone: &Zone) -> Self {
        let own: Vec<&AiModel> = models.iter().filter(|m| m.ai_provider_id == p.id).collect();
        let offered = offered.filter(|o| o.provider == p.id).map(|o| {
            o.models
                .iter()
                .filter(|id| !own.iter().any(|m| &m.identifier == *id))
                .cloned()
                .collect()
        });
        ProviderRow {
            id: p.id.to_string(),
            name: p.name,
            kind: kind_label(p.kind.as_str()),
            base_url: p.base_url.unwrap_or_default(),
            key_set: p.api_key_set,
            succeeded: when_or(p.last_succeeded_at, zone, "never"),
            failed: p.last_failed_at.map(|t| super::when(t, zone)),
            error: p.last_error_reason.or(p.last_error),
            models: own.into_iter().map(ModelRow::of).collect(),
            check_form: format!("check-{}", p.id),
            models_form: format!("models-{}", p.id),
            offered,
        }
    }
}

/// A task as the page shows it.
struct TaskRow {
    key: String,
    name: String,
    description: String,
    enabled: bool,
    /// Its model's ID, "" for the default.
    model: String,
    /// How many records a backfill would queue now.
    pending: Option<u64>,
    /// How many wait in its queue.
    queued: u64,
    form: String,
    backfill_form: String,
    /// The backfill's progress, when one is followed.
    progress: Option<Progress>,
}

/// A backfill's progress as the page shows it: how many of the notes it
/// took are titled, whether the task works on (the page then follows
/// it), and the address that shows it again.
struct Progress {
    /// Notes titled since.
    done: u64,
    /// Notes it took (and any queued since).
    total: u64,
    /// Whether it is done.
    finished: bool,
    /// Whether notes wait and the task is on: the script follows it.
    running: bool,
    /// This page.
    href: &'static str,
}

impl Progress {
    /// The core's progress of the task's last backfill, the task on or
    /// off; none before the first, or once done and nothing waits.
    fn of(backfill: Option<BackfillProgress>, enabled: bool) -> Option<Progress> {
        backfill.filter(|b| b.total > 0).map(|b| Progress {
            done: b.done,
            total: b.total,
            finished: b.finished,
            running: enabled && !b.finished,
            href: "/settings/ai",
        })
    }

    /// Whether every note it took is titled.
    fn finished(&self) -> bool {
        self.finished
    }
}

/// A model to choose for a task: `provider — name`.
struct ModelChoice {
    id: String,
    label: String,
}

/// The AI page (`settings_ai.html`).
#[derive(Template)]
#[template(path = "settings_ai.html")]
struct AiPage<'a> {
    chrome: Chrome<'a>,
    frame: Frame,
    providers: Vec<ProviderRow>,
    tasks: Vec<TaskRow>,
    choices: Vec<ModelChoice>,
    kinds: &'static [Choice],
    /// What a check just found, said once.
    checked: Option<String>,
}

/// What a provider's check offered.
struct Offered {
    provider: Id,
    models: Vec<String>,
}

/// The AI page, with what a check just offered and the backfill followed.
#[derive(Default)]
struct Here {
    offered: Option<Offered>,
}

impl SettingsPage for Here {
    const NAME: &'static str = "ai";

    async fn draw(self, owner: &SignedIn, frame: Frame) -> Result<Response, Refusal> {
        let offered = self.offered;
        let (providers, tasks, choices, checked) = blocking(&owner.state, move |org| {
            let zone = org.zone();
            let ai = org.ai();
            let models = every(|params| {
                ai.models(&AiModelQuery {
                    ai_provider_id: None,
                    params,
                })
            })?;
            let all = every(|params| ai.providers(&AiProviderQuery { params }))?;
            let choices = models
                .iter()
                .map(|m| ModelChoice {
                    id: m.id.to_string(),
                    label: match all.iter().find(|p| p.id == m.ai_provider_id) {
                        Some(p) => format!("{} — {}", p.name, m.name),
                        None => m.name.clone(),
                    },
                })
                .collect();
            let checked = offered.as_ref().and_then(|o| {
                let p = all.iter().find(|p| p.id == o.provider)?;
                Some(format!(
                    "{} answered: it offers {} model{}.",
                    p.name,
                    o.models.len(),
                    if o.models.len() == 1 { "" } else { "s" }
                ))
            });
            let providers = all
                .into_iter()
                .map(|p| ProviderRow::of(p, &models, offered.as_ref(), &zone))
                .collect();
            let mut tasks = Vec::new();
            for t in ai.tasks()? {
                let queue = ai.queue(&t.key)?;
                let queued = queue.queued;
                let progress = t
                    .backfill_pending
                    .and_then(|_| Progress::of(queue.backfill, t.enabled));
                tasks.push(TaskRow {
                    form: format!("task-{}", t.key),
                    backfill_form: format!("backfill-{}", t.key),
                    key: t.key,
                    name: t.name,
                    description: t.description,
                    enabled: t.enabled,
                    model: t.ai_model_id.map(|id| id.to_string()).unwrap_or_default(),
                    pending: t.backfill_pending,
                    queued,
                    progress,
                });
            }
            Ok((providers, tasks, choices, checked))
        })
        .await?;
        let page = AiPage {
            chrome: owner.session.chrome("settings"),
            frame,
            providers,
            tasks,
            choices,
            kinds: vocabulary(false).ai_provider_kinds,
            checked,
        };
        Ok(answer(&page, page.frame.refused.is_refused()))
    }
}

/// `GET /settings/ai`.
pub(crate) async fn show(Query(done): Query<Done>, owner: SignedIn) -> Result<Response, Refusal> {
    show_page(owner, Here::default(), done).await
}

/// `POST /settings/ai/providers`: a new provider.
pub(crate) async fn add_provider(sent: Sent) -> Result<Response, Refusal> {
    let form = &sent.form;
    let input = AiProviderInput {
        name: Field::Value(form.text("name")),
        kind: Field::Value(form.text("kind")),
        base_url: form.filled("base_url").map_or(Field::Absent, Field::Value),
        api_key: form.filled("api_key").map_or(Field::Absent, Field::Value),
    };
    act(
        &sent,
        Here::default(),
        "add-provider",
        "provider_added",
        move |door| Ai::new(door).create_provider(input),
    )
    .await
}

/// `POST /settings/ai/providers/{id}/check`: the saved provider's
/// connection tested; what it offers is shown with boxes to add; a
/// failure is said beside it in the core's words (422).
pub(crate) async fn check(Path(provider): Path<String>, sent: Sent) -> Result<Response, Refusal> {
    let provider = record_id(&provider)?;
    let outcome = run(&sent, move |door| Ai::new(door).check_provider(provider)).await;
    match refused(outcome)? {
        Ok(list) => {
            let page = Here {
                offered: Some(Offered {
                    provider,
                    models: list.models,
                }),
            };
            again(&sent, page).await
        }
        Err(e) => refuse(&sent, Here::default(), &format!("check-{provider}"), e).await,
    }
}

/// `POST /settings/ai/providers/{id}/models`: the models ticked among
/// those offered, or one typed by identifier.
pub(crate) async fn add_models(
    Path(provider): Path<String>,
    sent: Sent,
) -> Result<Response, Refusal> {
    let provider = record_id(&provider)?;
    let ticked: Vec<String> = sent
        .form
        .all("identifiers")
        .into_iter()
        .map(str::to_owned)
        .collect();
    let additions = ModelAdditions {
        identifiers: (!ticked.is_empty()).then_some(ticked),
        identifier: sent.form.filled("identifier"),
        default_if_none: true,
    };
    act(
        &sent,
        Here::default(),
        &format!("models-{provider}"),
        "model_added",
        move |door| Ai::new(door).add_models(provider, additions),
    )
    .await
}

/// `POST /settings/ai/providers/{id}/delete`: with its models.
pub(crate) async fn delete_provider(
    Path(provider): Path<String>,
    sent: Sent,
) -> Result<Response, Refusal> {
    let provider = record_id(&provider)?;
    act(&sent, Here::default(), "provider", "deleted", move |door| {
        Ai::new(door).delete_provider(provider)
    })
    .await
}

/// `POST /settings/ai/models/{id}/default`: the default model.
pub(crate) async fn make_default(
    Path(model): Path<String>,
    sent: Sent,
) -> Result<Response, Refusal> {
    let model = record_id(&model)?;
    let input = AiModelInput {
        is_default: Some(true),
        ..AiModelInput::default()
    };
    act(&sent, Here::default(), "model", "saved", move |door| {
        Ai::new(door).change_model(model, input)
    })
    .await
}

/// `POST /settings/ai/models/{id}/delete`.
pub(crate) async fn delete_model(
    Path(model): Path<String>,
    sent: Sent,
) -> Result<Response, Refusal> {
    let model = record_id(&model)?;
    act(&sent, Here::default(), "model", "deleted", move |door| {
        Ai::new(door).delete_model(model)
    })
    .await
}

/// `POST /settings/ai/tasks/{key}`: on or off (`enabled` ticked) and its
/// model (`ai_model_id`, empty for the default).
pub(crate) async fn change_task(Path(key): Path<String>, sent: Sent) -> Result<Response, Refusal> {
    let form = &sent.form;
    let tag = format!("task-{key}");
    let model = match form.filled("ai_model_id") {
        None => Field::Null,
        Some(text) => match Id::parse(&text) {
            Some(id) => Field::Value(id),
            None => {
                let mut details = Details::new();
                details.add("ai_model_id", "must be a model of this organiser");
                return refuse(&sent, Here::default(), &tag, Error::Validation(details)).await;
            }
        },
    };
    let input = AiTaskInput {
        enabled: Some(form.ticked("enabled")),
        ai_model_id: model,
        ..AiTaskInput::default()
    };
    act(&sent, Here::default(), &tag, "saved", move |door| {
        Ai::new(door).change_task(&key, input)
    })
    .await
}

/// `POST /settings/ai/tasks/{key}/backfill`: queues what the task would
/// process; the page then says how many wait.
pub(crate) async fn backfill(Path(key): Path<String>, sent: Sent) -> Result<Response, Refusal> {
    let tag = format!("backfill-{key}");
    act(&sent, Here::default(), &tag, "backfilled", move |door| {
        Ai::new(door).backfill(&key)
    })
    .await
}
