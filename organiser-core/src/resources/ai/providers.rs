//! AI providers (document 2, "AIProvider", "Provider field rules"): where
//! models are served, how they are reached (`kind`, `base_url`), a key
//! sealed with the store's secret and never shown, and the outcome of the
//! last check, trial or AI call.

use jiff::Timestamp;
use reqwest::Url;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::tables::{PROVIDERS, PROVIDERS_BY_CASE_NAME, PROVIDERS_BY_NAME, PROVIDERS_BY_UPDATED};
use super::wire::{Connection, Failure, Kind, ProviderKind};
use crate::engine::kinds::RecordKind;
use crate::engine::{Cx, Inner, WriteCx};
use crate::error::{Details, Error, Result};
use crate::ids::Id;
use crate::input::{Field, record};
use crate::list::{Direction, Filter, ListParams, Listing, Order, Page, Query};
use crate::resources::deletions;
use crate::resources::vocabulary::ai_provider_kinds;
use crate::store::codec::Record;
use crate::store::key::{Key, tail_id};
use crate::store::{Tables, Tbl};
use crate::text::{char_len, fold_case, fold_search, squished_required};

/// AI providers: deleted for good at once.
pub(crate) static KIND: RecordKind = RecordKind::new("ai_provider", 14);

/// The most characters of a name (the spec names no limit; as lists').
pub(super) const NAME_MAX: usize = 100;
/// The most characters of a base URL.
const BASE_URL_MAX: usize = 2048;
/// The most characters of a key.
const KEY_MAX: usize = 1024;

/// An AI provider as the API shows it (the key is never shown).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AiProvider {
    /// ID.
    pub id: Id,
    /// Squished; unique ignoring case.
    pub name: String,
    /// The wire protocol it speaks.
    pub kind: ProviderKind,
    /// The address with its version path, without a trailing `/`; null
    /// for a `mock` provider without one.
    pub base_url: Option<String>,
    /// Whether a key is stored.
    pub api_key_set: bool,
    /// The last successful check, trial or AI call.
    #[serde(with = "crate::time::serde_timestamp::option")]
    pub last_succeeded_at: Option<Timestamp>,
    /// The last failed one.
    #[serde(with = "crate::time::serde_timestamp::option")]
    pub last_failed_at: Option<Timestamp>,
    /// What the last failure was; cleared by a success.
    pub last_error: Option<String>,
    /// `last_error` as a sentence for the owner.
    pub last_error_reason: Option<String>,
    /// When it was added.
    #[serde(with = "crate::time::serde_timestamp")]
    pub created_at: Timestamp,
    /// When it last changed (a check's outcome included).
    #[serde(with = "crate::time::serde_timestamp")]
    pub updated_at: Timestamp,
}

/// A provider as stored: what the API shows and the sealed key.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct StoredProvider {
    pub(crate) provider: AiProvider,
    /// The key, sealed with the store's secret key.
    pub(crate) key: Option<Vec<u8>>,
}

impl Record for StoredProvider {
    const NAME: &'static str = "AI provider";
    const FORMAT: u8 = 1;
}

impl StoredProvider {
    /// Its kind.
    pub(crate) fn kind(&self) -> Kind {
        self.provider.kind
    }

    /// Its key, opened.
    pub(crate) fn open_key(&self, inner: &Inner) -> Option<String> {
        let sealed = self.key.as_ref()?;
        let bytes = inner.secret.open(sealed).ok()?;
        String::from_utf8(bytes).ok()
    }

    /// Runs `call` with a connection on this provider's saved settings
    /// (its key opened for the call alone).
    pub(crate) fn with_connection<T>(
        &self,
        inner: &Inner,
        call: impl FnOnce(&Connection<'_>) -> T,
    ) -> T {
        let key = self.open_key(inner);
        call(&Connection {
            kind: self.kind(),
            base_url: self.provider.base_url.as_deref(),
            key: key.as_deref(),
            wait: inner.options.ai_call_wait,
        })
    }
}

/// `{ai_provider: {name, kind, base_url?, api_key?}}`; all optional on
/// change. Its `Debug` never shows the key.
#[derive(Clone, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(default)]
pub struct AiProviderInput {
    /// The name.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub name: Field<String>,
    /// `api_compatible`, `vendor_b`, or `mock` (development only).
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub kind: Field<String>,
    /// The address with its version path.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub base_url: Field<String>,
    /// The key: absent keeps it, null or blank clears it.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub api_key: Field<String>,
}

impl std::fmt::Debug for AiProviderInput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AiProviderInput")
            .field("name", &self.name)
            .field("kind", &self.kind)
            .field("base_url", &self.base_url)
            .field("api_key", &self.api_key.as_ref().map(|_| "[key]"))
            .finish()
    }
}

pub(crate) fn parse(body: Option<&Value>) -> Result<AiProviderInput> {
    let mut f = record(body, "ai_provider")?;
    let input = AiProviderInput {
        name: f.string("name"),
        kind: f.string("kind"),
        base_url: f.string("base_url"),
        api_key: f.string("api_key"),
    };
    f.finish()?;
    Ok(input)
}

/// A base URL as sent, checked: http or https with a host and a version
/// path, no user, query or fragment; trailing `/`s dropped.
pub(crate) fn base_url(text: &str) -> std::result::Result<String, &'static str> {
    let text = text.trim();
    if char_len(text) > BASE_URL_MAX {
        return Err("is too long (maximum is 2048 characters)");
    }
    let url = Url::parse(text).map_err(|_| "is not a valid http or https address")?;
    if !matches!(url.scheme(), "http" | "https") || url.host_str().is_none() {
        return Err("is not a valid http or https address");
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err("can't contain a user name or password");
    }
    if url.query().is_some() {
        return Err("can't contain a query");
    }
    if url.fragment().is_some() {
        return Err("can't contain a fragment");
    }
    let written = url.as_str().trim_end_matches('/');
    if url.path().trim_matches('/').is_empty() {
        return Err("must include the version path (such as /v1)");
    }
    Ok(written.to_owned())
}

/// Whether two checked base URLs have one origin (scheme, host and port).
pub(crate) fn same_origin(a: &str, b: &str) -> bool {
    match (Url::parse(a), Url::parse(b)) {
        (Ok(a), Ok(b)) => a.origin() == b.origin(),
        _ => a == b,
    }
}

/// A key as sent: `None` for a blank one (which clears); 422 phrases for
/// spaces or line breaks inside.
pub(crate) fn api_key(text: &str) -> std::result::Result<Option<String>, &'static str> {
    let key = text.trim();
    if key.is_empty() {
        return Ok(None);
    }
    if key.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err("can't contain spaces or line breaks");
    }
    if char_len(key) > KEY_MAX {
        return Err("is too long (maximum is 1024 characters)");
    }
    Ok(Some(key.to_owned()))
}

/// The kind of `key`, if this build offers it (`mock` only in
/// development).
pub(crate) fn offered_kind(key: &str, dev: bool) -> Option<Kind> {
    ai_provider_kinds(dev)
        .iter()
        .any(|c| c.key == key)
        .then(|| Kind::parse(key))
        .flatten()
}

/// The phrase for a kind that is not offered.
pub(crate) fn kind_phrase(dev: bool) -> String {
    let keys: Vec<&str> = ai_provider_kinds(dev).iter().map(|c| c.key).collect();
    format!("must be one of {}", keys.join(", "))
}

/// What becomes of the key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum KeyChange {
    Keep,
    Clear,
    Set(String),
}

/// The settings a write asks for, checked field by field.
struct Checked {
    name: Option<String>,
    kind: Option<Kind>,
    /// `Some(None)`: cleared.
    base_url: Option<Option<String>>,
    key: KeyChange,
}

fn check(input: &AiProviderInput, creating: bool, dev: bool, details: &mut Details) -> Checked {
    let name = match &input.name {
        Field::Value(n) => Some(squished_required(details, "name", n, NAME_MAX)),
        Field::Null => {
            details.add("name", "can't be blank");
            None
        }
        Field::Absent if creating => {
            details.add("name", "can't be blank");
            None
        }
        Field::Absent => None,
    };
    let kind = match &input.kind {
        Field::Value(k) => match offered_kind(k, dev) {
            Some(kind) => Some(kind),
            None => {
                details.add("kind", kind_phrase(dev));
                None
            }
        },
        Field::Null => {
            details.add("kind", kind_phrase(dev));
            None
        }
        Field::Absent if creating => {
            details.add("kind", "can't be blank");
            None
        }
        Field::Absent => None,
    };
    let base_url = match &input.base_url {
        Field::Value(u) if !u.trim().is_empty() => match base_url(u) {
            Ok(u) => Some(Some(u)),
            Err(phrase) => {
                details.add("base_url", phrase);
                None
            }
        },
        Field::Value(_) | Field::Null => Some(None),
        Field::Absent => None,
    };
    let key = match &input.api_key {
        Field::Absent => KeyChange::Keep,
        Field::Null => KeyChange::Clear,
        Field::Value(k) => match api_key(k) {
            Ok(Some(k)) => KeyChange::Set(k),
            Ok(None) => KeyChange::Clear,
            Err(phrase) => {
                details.add("api_key", phrase);
                KeyChange::Keep
            }
        },
    };
    Checked {
        name,
        kind,
        base_url,
        key,
    }
}

/// The rules that join fields: a base URL unless `mock`, a key for
/// `vendor_b`.
fn check_whole(kind: Kind, base_url: Option<&str>, has_key: bool, details: &mut Details) {
    if kind != Kind::Mock && base_url.is_none() && !details.has("base_url") {
        details.add("base_url", "can't be blank");
    }
    if kind == Kind::VendorB && !has_key && !details.has("api_key") {
        details.add(
            "api_key",
            "can't be blank (this kind of provider needs a key)",
        );
    }
}

pub(crate) fn load<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<Option<StoredProvider>> {
    cx.get_record(PROVIDERS, &id.to_bytes())
}

/// The provider `id` as stored: 404 when there is none.
pub(crate) fn stored<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<StoredProvider> {
    load(cx, id)?.ok_or(Error::NotFound)
}

/// `GET /ai_providers/{id}`.
pub(crate) fn get<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<AiProvider> {
    Ok(stored(cx, id)?.provider)
}

/// Whether provider `id` exists.
pub(crate) fn exists<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<bool> {
    Ok(cx.get(PROVIDERS, &id.to_bytes())?.is_some())
}

fn entries(p: &AiProvider) -> [(Tbl, Key); 3] {
    [
        (
            PROVIDERS_BY_NAME,
            Key::new().str(&fold_search(&p.name)).id(p.id),
        ),
        (
            PROVIDERS_BY_CASE_NAME,
            Key::new().str(&fold_case(&p.name)).id(p.id),
        ),
        (
            PROVIDERS_BY_UPDATED,
            Key::new().timestamp(p.updated_at).id(p.id),
        ),
    ]
}

pub(crate) fn save(
    cx: &WriteCx<'_>,
    before: Option<&StoredProvider>,
    s: &StoredProvider,
) -> Result<()> {
    match before {
        Some(b) => cx.move_indexes(&entries(&b.provider), &entries(&s.provider))?,
        None => cx.set_indexes(&entries(&s.provider), true)?,
    }
    cx.put_record(PROVIDERS, &s.provider.id.to_bytes(), s)
}

/// "has already been taken" on `name` when another provider than `except`
/// has the well-formed `name` sent, ignoring case.
fn check_name_free(
    cx: &WriteCx<'_>,
    name: Option<&str>,
    except: Option<Id>,
    details: &mut Details,
) -> Result<()> {
    if let Some(name) = name
        && !details.has("name")
        && cx.named(PROVIDERS_BY_CASE_NAME, name, except)?.is_some()
    {
        details.add("name", "has already been taken");
    }
    Ok(())
}

/// `POST /ai_providers`.
pub(crate) fn create(cx: &mut WriteCx<'_>, input: &AiProviderInput) -> Result<AiProvider> {
    let dev = cx.org.options.build.is_dev();
    let mut details = Details::new();
    let checked = check(input, true, dev, &mut details);
    let key = match &checked.key {
        KeyChange::Set(k) => Some(k.clone()),
        KeyChange::Keep | KeyChange::Clear => None,
    };
    let base_url = checked.base_url.clone().flatten();
    if let Some(kind) = checked.kind {
        check_whole(kind, base_url.as_deref(), key.is_some(), &mut details);
    }
    check_name_free(cx, checked.name.as_deref(), None, &mut details)?;
    details.into_validation()?;
    let (Some(name), Some(kind)) = (checked.name, checked.kind) else {
        return Err(Error::invalid("base", "is incomplete"));
    };
    let now = cx.now();
    let s = StoredProvider {
        provider: AiProvider {
            id: cx.new_id(),
            name,
            kind,
            base_url,
            api_key_set: key.is_some(),
            last_succeeded_at: None,
            last_failed_at: None,
            last_error: None,
            last_error_reason: None,
            created_at: now,
            updated_at: now,
        },
        key: key.map(|k| cx.org.secret.seal(k.as_bytes())),
    };
    save(cx, None, &s)?;
    Ok(s.provider)
}

/// `PATCH /ai_providers/{id}`: a move of `base_url` to another origin
/// while a key is stored needs the key sent again (422 on `api_key`).
pub(crate) fn change(cx: &mut WriteCx<'_>, id: Id, input: &AiProviderInput) -> Result<AiProvider> {
    let before = stored(cx, id)?;
    let dev = cx.org.options.build.is_dev();
    let mut details = Details::new();
    let checked = check(input, false, dev, &mut details);
    let mut s = before.clone();
    let p = &mut s.provider;
    let kind = checked.kind.unwrap_or(before.kind());
    let base_url = match &checked.base_url {
        Some(u) => u.clone(),
        None => p.base_url.clone(),
    };
    let moved = match (&before.provider.base_url, &base_url) {
        (Some(old), Some(new)) => !same_origin(old, new),
        (Some(_), None) | (None, Some(_)) => true,
        (None, None) => false,
    };
    if moved && before.key.is_some() && checked.key == KeyChange::Keep && !details.has("api_key") {
        details.add(
            "api_key",
            "must be sent again when the address moves to another server",
        );
    }
    let has_key = match &checked.key {
        KeyChange::Keep => before.key.is_some(),
        KeyChange::Clear => false,
        KeyChange::Set(_) => true,
    };
    check_whole(kind, base_url.as_deref(), has_key, &mut details);
    check_name_free(cx, checked.name.as_deref(), Some(id), &mut details)?;
    details.into_validation()?;
    if let Some(name) = checked.name {
        p.name = name;
    }
    p.kind = kind;
    p.base_url = base_url;
    match checked.key {
        KeyChange::Keep => {}
        KeyChange::Clear => s.key = None,
        KeyChange::Set(k) => {
            // The same key sealed again is no change.
            if before.open_key(cx.org).as_deref() != Some(k.as_str()) {
                s.key = Some(cx.org.secret.seal(k.as_bytes()));
            }
        }
    }
    s.provider.api_key_set = s.key.is_some();
    if s == before {
        return Ok(s.provider);
    }
    s.provider.updated_at = cx.now();
    save(cx, Some(&before), &s)?;
    Ok(s.provider)
}

/// Deletes provider `id` for good (its models are the caller's).
pub(crate) fn delete(cx: &mut WriteCx<'_>, id: Id) -> Result<()> {
    let s = stored(cx, id)?;
    cx.set_indexes(&entries(&s.provider), false)?;
    cx.remove(PROVIDERS, &id.to_bytes())?;
    deletions::record(cx, KIND.name, id)
}

/// Records the outcome of a check, trial or AI call on provider `id` (if
/// it is still there), with a new `updated_at`.
pub(crate) fn record_outcome(
    cx: &mut WriteCx<'_>,
    id: Id,
    outcome: std::result::Result<(), &Failure>,
) -> Result<()> {
    let Some(before) = load(cx, id)? else {
        return Ok(());
    };
    let mut s = before.clone();
    let now = cx.now();
    let p = &mut s.provider;
    match outcome {
        Ok(()) => {
            p.last_succeeded_at = Some(now);
            p.last_error = None;
            p.last_error_reason = None;
        }
        Err(f) => {
            p.last_failed_at = Some(now);
            p.last_error = Some(f.message.clone());
            p.last_error_reason = Some(f.reason.clone());
        }
    }
    p.updated_at = now;
    save(cx, Some(&before), &s)
}

/// `GET /ai_providers` parameters.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AiProviderQuery {
    /// `id` (default), `name` (ignoring case and accents), `updated_at`;
    /// direction, updated_since, cursor, limit, count.
    pub params: ListParams,
}

impl AiProviderQuery {
    /// The query's parameters, as [`AiProviderQuery::parse`] reads them.
    pub(crate) fn query_pairs(&self) -> Vec<(&'static str, String)> {
        self.params.query_pairs()
    }

    pub(crate) fn parse(query: &Query) -> Result<AiProviderQuery> {
        Ok(AiProviderQuery {
            params: LISTING.params(query)?,
        })
    }
}

const UPDATED: Order = Order {
    name: "updated_at",
    index: PROVIDERS_BY_UPDATED,
    direction: Direction::Asc,
};

static LISTING: Listing = Listing {
    name: "ai_providers",
    orders: &[
        Order {
            name: "id",
            index: PROVIDERS,
            direction: Direction::Asc,
        },
        Order {
            name: "name",
            index: PROVIDERS_BY_NAME,
            direction: Direction::Asc,
        },
        UPDATED,
    ],
    updated: Some(&UPDATED),
    every: PROVIDERS,
};

/// `GET /ai_providers`.
pub(crate) fn list<T: Tables>(cx: &Cx<'_, T>, q: &AiProviderQuery) -> Result<Page<AiProvider>> {
    let load = |k: &[u8]| Ok(load(cx, tail_id(k))?.map(|s| s.provider));
    LISTING.page(&cx.tx, &cx.org.secret, &q.params, &Filter::default(), load)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_urls() {
        for (text, expected) in [
            (
                "https://api.example.com/v1",
                Ok("https://api.example.com/v1"),
            ),
            (
                "https://api.example.com/v1/",
                Ok("https://api.example.com/v1"),
            ),
            (
                "http://127.0.0.1:11434/v1//",
                Ok("http://127.0.0.1:11434/v1"),
            ),
            (
                " HTTPS://Api.Example.com/v1 ",
                Ok("https://api.example.com/v1"),
            ),
            (
                "https://api.example.com",
                Err("must include the version path (such as /v1)"),
            ),
            (
                "https://api.example.com/",
                Err("must include the version path (such as /v1)"),
            ),
            (
                "ftp://api.example.com/v1",
                Err("is not a valid http or https address"),
            ),
            (
                "api.example.com/v1",
                Err("is not a valid http or https address"),
            ),
            (
                "https://u:p@api.example.com/v1",
                Err("can't contain a user name or password"),
            ),
            (
                "https://u@api.example.com/v1",
                Err("can't contain a user name or password"),
            ),
            (
                "https://api.example.com/v1?x=1",
                Err("can't contain a query"),
            ),
            ("https://api.example.com/v1?", Err("can't contain a query")),
            (
                "https://api.example.com/v1#top",
                Err("can't contain a fragment"),
            ),
        ] {
            assert_eq!(base_url(text).as_deref(), expected.as_deref(), "{text}");
        }
    }

    #[test]
    fn origins() {
        assert!(same_origin(
            "https://a.example/v1",
            "https://a.example:443/v2"
        ));
        assert!(!same_origin("https://a.example/v1", "http://a.example/v1"));
        assert!(!same_origin("https://a.example/v1", "https://b.example/v1"));
        assert!(!same_origin(
            "https://a.example/v1",
            "https://a.example:8443/v1"
        ));
    }

    #[test]
    fn debug_never_shows_the_key() {
        let input = AiProviderInput {
            api_key: Field::Value("sk-very-secret".to_owned()),
            ..AiProviderInput::default()
        };
        let shown = format!("{input:?}");
        assert!(
            !shown.contains("sk-very-secret") && shown.contains("[key]"),
            "{shown}"
        );
    }

    #[test]
    fn keys() {
        assert_eq!(api_key("  sk-1 \n"), Ok(Some("sk-1".to_owned())));
        assert_eq!(api_key("   "), Ok(None));
        assert!(api_key("sk 1").is_err());
        assert!(api_key("sk\n1").is_err());
    }
}
