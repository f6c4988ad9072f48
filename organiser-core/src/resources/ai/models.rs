//! AI models (document 2, "AIModel", "AI models", "Model additions"): the
//! models the owner added from a provider, unique by identifier per
//! provider, and the one default that AI features use unless a task picks
//! another.

use jiff::Timestamp;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::tables::{MODELS, MODELS_BY_IDENTIFIER, MODELS_BY_NAME, MODELS_BY_UPDATED};
use super::{providers, settings};
use crate::engine::kinds::RecordKind;
use crate::engine::{Cx, WriteCx};
use crate::error::{Details, Error, Result};
use crate::ids::Id;
use crate::input::{Field, record, top};
use crate::list::{Direction, Filter, ListParams, Listing, Order, Page, Query};
use crate::resources::deletions;
use crate::store::codec::Record;
use crate::store::key::{Key, tail_id};
use crate::store::{Tables, Tbl};
use crate::text::{char_len, fold_search, squish};

/// AI models: deleted for good at once.
pub(crate) static KIND: RecordKind = RecordKind::new("ai_model", 15);

/// The most characters of an identifier.
pub(crate) const IDENTIFIER_MAX: usize = 255;
/// The most characters of a name.
const NAME_MAX: usize = 255;
/// The most identifiers one addition takes.
const ADDITIONS_MAX: usize = 100;
/// The setting naming the default model.
pub(super) const DEFAULT: &str = "default_model";

/// An AI model as the API shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AiModel {
    /// ID.
    pub id: Id,
    /// Its provider.
    pub ai_provider_id: Id,
    /// What the provider calls it; unique per provider.
    pub identifier: String,
    /// The owner's label; the identifier when blank.
    pub name: String,
    /// Whether AI features use it unless a task picks another.
    pub is_default: bool,
    /// When it was added.
    #[serde(with = "crate::time::serde_timestamp")]
    pub created_at: Timestamp,
    /// When it last changed.
    #[serde(with = "crate::time::serde_timestamp")]
    pub updated_at: Timestamp,
}

impl Record for AiModel {
    const NAME: &'static str = "AI model";
    const FORMAT: u8 = 1;
}

/// `{ai_model: {ai_provider_id, identifier, name?, is_default?}}`; on
/// change `ai_provider_id` is ignored and the rest optional.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(default)]
pub struct AiModelInput {
    /// The provider (create only).
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub ai_provider_id: Field<Id>,
    /// What the provider calls it.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub identifier: Field<String>,
    /// The owner's label.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub name: Field<String>,
    /// Make it the default (`true`), or leave none (`false` on the default).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub is_default: Option<bool>,
}

pub(crate) fn parse(body: Option<&Value>) -> Result<AiModelInput> {
    let mut f = record(body, "ai_model")?;
    let input = AiModelInput {
        ai_provider_id: f.id("ai_provider_id"),
        identifier: f.string("identifier"),
        name: f.string("name"),
        is_default: f.boolean("is_default"),
    };
    f.finish()?;
    Ok(input)
}

/// An identifier's problem, if it has one.
pub(crate) fn identifier_problem(identifier: &str) -> Option<String> {
    if identifier.is_empty() {
        Some("can't be blank".to_owned())
    } else if char_len(identifier) > IDENTIFIER_MAX {
        Some(format!(
            "is too long (maximum is {IDENTIFIER_MAX} characters)"
        ))
    } else if identifier
        .chars()
        .any(|c| c.is_control() || c.is_whitespace())
    {
        Some("can't contain spaces or control characters".to_owned())
    } else {
        None
    }
}

pub(crate) fn load<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<Option<AiModel>> {
    cx.get_record(MODELS, &id.to_bytes())
}

/// `GET /ai_models/{id}`.
pub(crate) fn get<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<AiModel> {
    load(cx, id)?.ok_or(Error::NotFound)
}

/// The default model's ID, if there is one.
pub(crate) fn default_id<T: Tables>(cx: &Cx<'_, T>) -> Result<Option<Id>> {
    settings::get(cx, DEFAULT)
}

/// The models of provider `provider`, by identifier.
pub(crate) fn of_provider<T: Tables>(cx: &Cx<'_, T>, provider: Id) -> Result<Vec<Id>> {
    cx.ids_under(MODELS_BY_IDENTIFIER, Key::new().id(provider).as_slice())
}

/// The model of `provider` called `identifier`, if added.
pub(super) fn with_identifier<T: Tables>(
    cx: &Cx<'_, T>,
    provider: Id,
    identifier: &str,
) -> Result<Option<Id>> {
    let found = cx.ids_under(
        MODELS_BY_IDENTIFIER,
        Key::new().id(provider).str(identifier).as_slice(),
    )?;
    Ok(found.first().copied())
}

fn entries(m: &AiModel) -> [(Tbl, Key); 3] {
    [
        (
            MODELS_BY_NAME,
            Key::new().str(&fold_search(&m.name)).id(m.id),
        ),
        (
            MODELS_BY_UPDATED,
            Key::new().timestamp(m.updated_at).id(m.id),
        ),
        (
            MODELS_BY_IDENTIFIER,
            Key::new().id(m.ai_provider_id).str(&m.identifier).id(m.id),
        ),
    ]
}

/// Stores `m` in place of `before`, moving its index entries.
pub(super) fn save(cx: &WriteCx<'_>, before: Option<&AiModel>, m: &AiModel) -> Result<()> {
    match before {
        Some(b) => cx.move_indexes(&entries(b), &entries(m))?,
        None => cx.set_indexes(&entries(m), true)?,
    }
    cx.put_record(MODELS, &m.id.to_bytes(), m)
}

/// Makes `m` the default (the previous default, if another, loses it and
/// gets a new `updated_at`).
fn make_default(cx: &WriteCx<'_>, m: &mut AiModel) -> Result<()> {
    if let Some(previous) = default_id(cx)?
        && previous != m.id
        && let Some(before) = load(cx, previous)?
    {
        let mut after = before.clone();
        after.is_default = false;
        after.updated_at = cx.now();
        save(cx, Some(&before), &after)?;
    }
    m.is_default = true;
    settings::set(cx, DEFAULT, Some(&m.id))
}

/// A new model of `provider` (checked by the caller), not saved yet.
fn add(cx: &WriteCx<'_>, provider: Id, identifier: &str, name: Option<String>) -> AiModel {
    let now = cx.now();
    AiModel {
        id: cx.new_id(),
        ai_provider_id: provider,
        identifier: identifier.to_owned(),
        name: name
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| identifier.to_owned()),
        is_default: false,
        created_at: now,
        updated_at: now,
    }
}

/// The squished name sent, `Some(None)` when blank.
fn checked_name(details: &mut Details, name: &Field<String>) -> Option<Option<String>> {
    match name {
        Field::Absent => None,
        Field::Null => Some(None),
        Field::Value(n) => {
            let n = squish(n);
            if char_len(&n) > NAME_MAX {
                details.add(
                    "name",
                    format!("is too long (maximum is {NAME_MAX} characters)"),
                );
            }
            if n.chars().any(char::is_control) {
                details.add("name", "can't contain control characters");
            }
            Some(Some(n).filter(|n| !n.is_empty()))
        }
    }
}

/// `POST /ai_models`.
pub(crate) fn create(cx: &mut WriteCx<'_>, input: &AiModelInput) -> Result<AiModel> {
    let mut details = Details::new();
    let provider = match &input.ai_provider_id {
        Field::Value(p) if providers::exists(cx, *p)? => Some(*p),
        Field::Value(_) => {
            details.add("ai_provider_id", "does not exist");
            None
        }
        Field::Null | Field::Absent => {
            details.add("ai_provider_id", "can't be blank");
            None
        }
    };
    let identifier = match &input.identifier {
        Field::Value(i) => i.trim().to_owned(),
        _ => String::new(),
    };
    if let Some(problem) = identifier_problem(&identifier) {
        details.add("identifier", problem);
    } else if let Some(p) = provider
        && with_identifier(cx, p, &identifier)?.is_some()
    {
        details.add("identifier", "has already been added");
    }
    let name = checked_name(&mut details, &input.name);
    details.into_validation()?;
    let Some(provider) = provider else {
        return Err(Error::invalid("ai_provider_id", "can't be blank"));
    };
    let mut m = add(cx, provider, &identifier, name.flatten());
    if input.is_default == Some(true) {
        make_default(cx, &mut m)?;
    }
    save(cx, None, &m)?;
    Ok(m)
}

/// `PATCH /ai_models/{id}` (`ai_provider_id` is ignored).
pub(crate) fn change(cx: &mut WriteCx<'_>, id: Id, input: &AiModelInput) -> Result<AiModel> {
    let before = get(cx, id)?;
    let mut details = Details::new();
    let identifier = match &input.identifier {
        Field::Absent => None,
        Field::Null => Some(String::new()),
        Field::Value(i) => Some(i.trim().to_owned()),
    };
    if let Some(i) = &identifier {
        if let Some(problem) = identifier_problem(i) {
            details.add("identifier", problem);
        } else if with_identifier(cx, before.ai_provider_id, i)?.is_some_and(|other| other != id) {
            details.add("identifier", "has already been added");
        }
    }
    let name = checked_name(&mut details, &input.name);
    details.into_validation()?;
    let mut m = before.clone();
    if let Some(i) = identifier {
        m.identifier = i;
    }
    match name {
        Some(Some(n)) => m.name = n,
        Some(None) => m.name = m.identifier.clone(),
        None => {}
    }
    match input.is_default {
        Some(true) if !before.is_default => make_default(cx, &mut m)?,
        Some(false) if before.is_default => {
            m.is_default = false;
            settings::set::<Id>(cx, DEFAULT, None)?;
        }
        _ => {}
    }
    if m == before {
        return Ok(m);
    }
    m.updated_at = cx.now();
    save(cx, Some(&before), &m)?;
    Ok(m)
}

/// Deletes model `id` for good; the default leaves none (the tasks that
/// picked it are the caller's).
pub(crate) fn delete(cx: &mut WriteCx<'_>, id: Id) -> Result<()> {
    let m = get(cx, id)?;
    if m.is_default {
        settings::set::<Id>(cx, DEFAULT, None)?;
    }
    cx.set_indexes(&entries(&m), false)?;
    cx.remove(MODELS, &id.to_bytes())?;
    deletions::record(cx, KIND.name, id)
}

/// `POST /ai_providers/{id}/model_additions` body.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(default)]
pub struct ModelAdditions {
    /// Identifiers picked from the provider's list; those already added
    /// are skipped.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub identifiers: Option<Vec<String>>,
    /// One identifier typed by name: if invalid or already added, nothing
    /// is added.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub identifier: Option<String>,
    /// With no default model, the first added becomes the default.
    pub default_if_none: bool,
}

/// What model additions added.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AddedModels {
    /// The models added (none when all were added already).
    pub added: Vec<AiModel>,
    /// The default model after the additions.
    pub default_model_id: Option<Id>,
}

pub(crate) fn parse_additions(body: Option<&Value>) -> Result<ModelAdditions> {
    let f = top(body)?;
    let mut problems = Details::new();
    let identifiers = match f.raw("identifiers") {
        Field::Absent | Field::Null => None,
        Field::Value(Value::Array(items)) => {
            if items.len() > ADDITIONS_MAX {
                problems.add(
                    "identifiers",
                    format!("has more than {ADDITIONS_MAX} identifiers"),
                );
            }
            let mut list = Vec::with_capacity(items.len());
            for item in items {
                match item {
                    Value::String(s) if s.contains('\0') => {
                        problems.add("identifiers", "can't contain a NUL character");
                    }
                    Value::String(s) if char_len(s) > IDENTIFIER_MAX => problems.add(
                        "identifiers",
                        format!("has an identifier over {IDENTIFIER_MAX} characters"),
                    ),
                    Value::String(s) => list.push(s.clone()),
                    _ => problems.add("identifiers", "must be an array of strings"),
                }
            }
            Some(list)
        }
        Field::Value(_) => {
            problems.add("identifiers", "must be an array of strings");
            None
        }
    };
    problems.into_invalid_parameter()?;
    let mut f = f;
    let identifier = f.string("identifier").value();
    let default_if_none = f.flag("default_if_none");
    f.finish()?;
    Ok(ModelAdditions {
        identifiers,
        identifier,
        default_if_none,
    })
}

/// `POST /ai_providers/{id}/model_additions`: in one transaction; picked
/// identifiers already added (even by a race) are skipped; a typed one
/// that is invalid (422 on `identifier`) or already added (422
/// `already_added`) adds nothing.
pub(crate) fn add_models(
    cx: &mut WriteCx<'_>,
    provider: Id,
    req: &ModelAdditions,
) -> Result<AddedModels> {
    providers::stored(cx, provider)?;
    if req.identifiers.is_none() && req.identifier.is_none() {
        return Err(Error::invalid("base", "send identifiers or an identifier"));
    }
    let mut wanted: Vec<String> = Vec::new();
    for i in req.identifiers.iter().flatten() {
        let i = i.trim();
        if !i.is_empty() && identifier_problem(i).is_none() && !wanted.iter().any(|w| w == i) {
            wanted.push(i.to_owned());
        }
    }
    if let Some(typed) = &req.identifier {
        let typed = typed.trim();
        if let Some(problem) = identifier_problem(typed) {
            return Err(Error::invalid("identifier", problem));
        }
        if with_identifier(cx, provider, typed)?.is_some() {
            return Err(Error::AlreadyAdded(format!(
                "The model {typed} has already been added"
            )));
        }
        if !wanted.iter().any(|w| w == typed) {
            wanted.push(typed.to_owned());
        }
    }
    let mut added = Vec::new();
    let mut default = default_id(cx)?;
    for identifier in wanted {
        if with_identifier(cx, provider, &identifier)?.is_some() {
            continue;
        }
        let mut m = add(cx, provider, &identifier, None);
        if req.default_if_none && default.is_none() {
            make_default(cx, &mut m)?;
            default = Some(m.id);
        }
        save(cx, None, &m)?;
        added.push(m);
    }
    Ok(AddedModels {
        added,
        default_model_id: default,
    })
}

/// `GET /ai_models` parameters.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AiModelQuery {
    /// Only this provider's models.
    pub ai_provider_id: Option<Id>,
    /// `id` (default), `name` (ignoring case and accents), `updated_at`;
    /// direction, updated_since, cursor, limit, count.
    pub params: ListParams,
}

impl AiModelQuery {
    /// The query's parameters, as [`AiModelQuery::parse`] reads them.
    pub(crate) fn query_pairs(&self) -> Vec<(&'static str, String)> {
        let mut pairs = self.params.query_pairs();
        if let Some(id) = self.ai_provider_id {
            pairs.push(("ai_provider_id", id.to_string()));
        }
        pairs
    }

    pub(crate) fn parse(query: &Query) -> Result<AiModelQuery> {
        let ai_provider_id = match query.get("ai_provider_id") {
            None => None,
            Some(v) => Some(
                Id::parse(v).ok_or_else(|| Error::bad_param("ai_provider_id", "is not an ID"))?,
            ),
        };
        Ok(AiModelQuery {
            ai_provider_id,
            params: LISTING.params(query)?,
        })
    }
}

const UPDATED: Order = Order {
    name: "updated_at",
    index: MODELS_BY_UPDATED,
    direction: Direction::Asc,
};

static LISTING: Listing = Listing {
    name: "ai_models",
    orders: &[
        Order {
            name: "id",
            index: MODELS,
            direction: Direction::Asc,
        },
        Order {
            name: "name",
            index: MODELS_BY_NAME,
            direction: Direction::Asc,
        },
        UPDATED,
    ],
    updated: Some(&UPDATED),
    every: MODELS,
};

/// `GET /ai_models` (a provider's models are few: the filter skips the
/// others).
pub(crate) fn list<T: Tables>(cx: &Cx<'_, T>, q: &AiModelQuery) -> Result<Page<AiModel>> {
    let provider = q.ai_provider_id;
    let load = |k: &[u8]| {
        Ok(load(cx, tail_id(k))?.filter(|m| provider.is_none_or(|p| m.ai_provider_id == p)))
    };
    let filter = match provider {
        Some(p) => Filter::default().skipping(&format!("provider={p}")),
        None => Filter::default(),
    };
    LISTING.page(&cx.tx, &cx.org.secret, &q.params, &filter, load)
}
