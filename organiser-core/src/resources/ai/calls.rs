//! The connection calls (document 2, "Connection calls", "AI models":
//! trial; document 1, "Limits"; DESIGN.md on `provider_error`): testing
//! unsaved settings, checking a saved provider, listing its models and
//! trying a model. Each waits on the network outside any transaction; a
//! check and a trial then record the outcome on the provider in one.

use std::time::Instant;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::models;
use super::providers::{self, StoredProvider};
use super::wire::{self, Ask, Connection, Failure, Kind};
use crate::engine::Inner;
use crate::error::{Details, Error, Result};
use crate::ids::Id;
use crate::input::{Field, top};
use crate::text::char_len;

/// The most characters of a trial's prompt.
const PROMPT_MAX: usize = 20_000;
/// The token budget of a trial.
const TRIAL_MAX_TOKENS: u32 = 2048;

/// `POST /ai_providers/test` body: settings typed but not saved. Its
/// `Debug` never shows the key.
#[derive(Clone, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(default)]
pub struct ProviderTest {
    /// The saved provider these settings would change (its key is used
    /// for its own origin).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ai_provider_id: Option<Id>,
    /// Labels failures; not checked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The kind.
    pub kind: String,
    /// The address; absent takes the saved provider's.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub base_url: Field<String>,
    /// The key; blank or absent uses the saved key for the saved origin.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub api_key: Field<String>,
    /// Test with no key.
    pub remove_api_key: bool,
}

impl std::fmt::Debug for ProviderTest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ProviderTest")
            .field("ai_provider_id", &self.ai_provider_id)
            .field("name", &self.name)
            .field("kind", &self.kind)
            .field("base_url", &self.base_url)
            .field("api_key", &self.api_key.as_ref().map(|_| "[key]"))
            .field("remove_api_key", &self.remove_api_key)
            .finish()
    }
}

/// `POST /ai_providers/test` answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModelCount {
    /// How many models the provider lists.
    pub model_count: usize,
}

/// `/check` and `/available_models` answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModelList {
    /// The identifiers the provider lists, in its order.
    pub models: Vec<String>,
}

/// `POST /ai_models/{id}/trial` answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TrialReply {
    /// The model's reply.
    pub reply: String,
    /// How long it took, in milliseconds.
    pub duration_ms: u64,
}

pub(crate) fn parse_test(body: Option<&Value>) -> Result<ProviderTest> {
    let mut f = top(body)?;
    let ai_provider_id = f.id("ai_provider_id").value();
    let name = match f.raw("name") {
        Field::Value(Value::String(s)) => Some(s.clone()),
        _ => None,
    };
    let kind = match f.string("kind") {
        Field::Value(k) => k,
        _ => String::new(),
    };
    let base_url = f.string("base_url");
    let api_key = f.string("api_key");
    let remove_api_key = f.flag("remove_api_key");
    f.finish()?;
    Ok(ProviderTest {
        ai_provider_id,
        name,
        kind,
        base_url,
        api_key,
        remove_api_key,
    })
}

/// A failure as a `provider_error`, labelled with the provider's name.
fn provider_error(name: Option<&str>, f: &Failure) -> Error {
    let label = name.map(str::trim).filter(|n| !n.is_empty());
    Error::ProviderError(match label {
        Some(name) => format!("{name}: {} ({})", f.reason, f.message),
        None => format!("{} ({})", f.reason, f.message),
    })
}

/// `POST /ai_providers/test`: lists the models with typed settings;
/// saves and records nothing.
pub(crate) fn test(inner: &Inner, req: &ProviderTest) -> Result<ModelCount> {
    let saved = match req.ai_provider_id {
        Some(id) => Some(inner.read(|cx| providers::stored(cx, id))?),
        None => None,
    };
    let dev = inner.options.build.is_dev();
    let mut details = Details::new();
    let kind = if req.kind.is_empty() {
        details.add("kind", "can't be blank");
        None
    } else {
        let kind = providers::offered_kind(&req.kind, dev);
        if kind.is_none() {
            details.add("kind", providers::kind_phrase(dev));
        }
        kind
    };
    let base_url = match &req.base_url {
        Field::Value(u) if !u.trim().is_empty() => match providers::base_url(u) {
            Ok(u) => Some(u),
            Err(phrase) => {
                details.add("base_url", phrase);
                None
            }
        },
        Field::Value(_) | Field::Null => None,
        Field::Absent => saved.as_ref().and_then(|s| s.provider.base_url.clone()),
    };
    let typed_key = match &req.api_key {
        Field::Value(k) => match providers::api_key(k) {
            Ok(k) => k,
            Err(phrase) => {
                details.add("api_key", phrase);
                None
            }
        },
        _ => None,
    };
    if kind.is_some_and(|k| k != Kind::Mock) && base_url.is_none() && !details.has("base_url") {
        details.add("base_url", "can't be blank");
    }
    details.into_validation()?;
    let Some(kind) = kind else {
        return Err(Error::invalid("kind", "can't be blank"));
    };
    let key = if kind == Kind::Mock || req.remove_api_key {
        None
    } else if typed_key.is_some() {
        typed_key
    } else {
        match &saved {
            Some(s) if s.key.is_some() => {
                let same = match (&s.provider.base_url, &base_url) {
                    (Some(a), Some(b)) => providers::same_origin(a, b),
                    _ => false,
                };
                if !same {
                    return Err(Error::KeyRequired(
                        "The address is on another server than the saved one: send the key again to test it".to_owned(),
                    ));
                }
                s.open_key(inner)
            }
            _ => None,
        }
    };
    if kind == Kind::VendorB && key.is_none() {
        return Err(Error::invalid(
            "api_key",
            "can't be blank (this kind of provider needs a key)",
        ));
    }
    let conn = Connection {
        kind,
        base_url: base_url.as_deref(),
        key: key.as_deref(),
        wait: inner.options.ai_call_wait,
    };
    let name = req
        .name
        .as_deref()
        .or(saved.as_ref().map(|s| s.provider.name.as_str()));
    match wire::list_models(inner.options.http.as_ref(), &conn) {
        Ok(models) => Ok(ModelCount {
            model_count: models.len(),
        }),
        Err(f) => Err(provider_error(name, &f)),
    }
}

/// Lists provider `s`'s models with its saved settings.
fn list_saved(inner: &Inner, s: &StoredProvider) -> std::result::Result<Vec<String>, Failure> {
    s.with_connection(inner, |conn| {
        wire::list_models(inner.options.http.as_ref(), conn)
    })
}

/// `POST /ai_providers/{id}/check`: lists the models and records the
/// outcome on the provider (a new `updated_at`).
pub(crate) fn check(inner: &Inner, id: Id) -> Result<ModelList> {
    let s = inner.read(|cx| providers::stored(cx, id))?;
    let listed = list_saved(inner, &s);
    inner.write(|cx| providers::record_outcome(cx, id, listed.as_ref().map(drop)))?;
    match listed {
        Ok(models) => Ok(ModelList { models }),
        Err(f) => Err(provider_error(Some(&s.provider.name), &f)),
    }
}

/// `GET /ai_providers/{id}/available_models`: lists the models; records
/// nothing.
pub(crate) fn available_models(inner: &Inner, id: Id) -> Result<ModelList> {
    let s = inner.read(|cx| providers::stored(cx, id))?;
    match list_saved(inner, &s) {
        Ok(models) => Ok(ModelList { models }),
        Err(f) => Err(provider_error(Some(&s.provider.name), &f)),
    }
}

/// `POST /ai_models/{id}/trial` body.
/// `{prompt}` of a model's trial (not wrapped).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TrialInput {
    /// What to send the model; at most 2,000 characters.
    pub prompt: String,
}

pub(crate) fn parse_trial(body: Option<&Value>) -> Result<String> {
    let mut f = top(body)?;
    let prompt = match f.raw("prompt") {
        Field::Value(Value::String(s)) if !s.trim().is_empty() => {
            if char_len(s) > PROMPT_MAX {
                f.add(
                    "prompt",
                    format!("is too long (maximum is {PROMPT_MAX} characters)"),
                );
            }
            if s.contains('\0') {
                f.add("prompt", "can't contain a NUL character");
            }
            s.clone()
        }
        Field::Value(Value::String(_)) | Field::Absent | Field::Null => {
            f.add("prompt", "can't be blank");
            String::new()
        }
        Field::Value(_) => {
            f.add("prompt", "must be a string");
            String::new()
        }
    };
    f.finish()?;
    Ok(prompt)
}

/// `POST /ai_models/{id}/trial`: sends `prompt` to the model; stores and
/// logs nothing of it, and records the outcome on the provider.
pub(crate) fn trial(inner: &Inner, model: Id, prompt: &str) -> Result<TrialReply> {
    let (m, s) = inner.read(|cx| {
        let m = models::get(cx, model)?;
        let s = providers::stored(cx, m.ai_provider_id)?;
        Ok((m, s))
    })?;
    let ask = Ask {
        model: &m.identifier,
        system: None,
        prompt,
        max_tokens: TRIAL_MAX_TOKENS,
        reasoning: None,
    };
    let started = Instant::now();
    let replied = s.with_connection(inner, |conn| {
        wire::complete(inner.options.http.as_ref(), conn, &ask)
    });
    let duration_ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
    let id = s.provider.id;
    inner.write(|cx| providers::record_outcome(cx, id, replied.as_ref().map(drop)))?;
    match replied {
        Ok(reply) => Ok(TrialReply { reply, duration_ms }),
        Err(f) => Err(provider_error(Some(&s.provider.name), &f)),
    }
}
