//! AI providers, models and tasks (document 2, "AI providers", "AI
//! models", "AI tasks"): the operations, their strategies and their
//! requests. Providers reach the offline server of `crate::feeds`, whose
//! `/ai/` addresses answer model listings and replies; `mock` answers in
//! process.

use super::*;

/// Where a provider points: an answering server, one that refuses, or
/// nothing (`mock`).
const ADDRESSES: &[&str] = &[
    "https://ai.example.com/ai/v1",
    "https://ai.example.com/ai/v1/",
    "https://other.example.com/ai/v2",
    "https://broken.example.com/v1",
    "https://x.example.com",
    "ftp://ai.example.com/v1",
];
const KINDS: &[&str] = &["api_compatible", "vendor_b", "mock", "nope"];
const KEYS: &[&str] = &["sk-1", "", "a b", "sk-2"];
const IDENTIFIERS: &[&str] = &["m1", "m2", "m3", "", "has space"];
const REASONING: &[&str] = &["none", "low", "medium", "high", "max"];

/// The operations on AI providers, models and tasks.
#[derive(Debug, Clone)]
pub(crate) enum AiOp {
    CreateProvider {
        name: String,
        kind: u8,
        address: Option<u8>,
        key: Option<u8>,
    },
    ChangeProvider {
        provider: Pick,
        name: Option<String>,
        address: Option<u8>,
        key: Option<Option<u8>>,
    },
    DeleteProvider {
        provider: Pick,
    },
    Test {
        provider: Option<Pick>,
        kind: u8,
        address: Option<u8>,
        key: Option<u8>,
    },
    Check {
        provider: Pick,
    },
    Available {
        provider: Pick,
    },
    AddModels {
        provider: Pick,
        identifiers: Vec<u8>,
        typed: Option<u8>,
        default_if_none: bool,
    },
    CreateModel {
        provider: Pick,
        identifier: u8,
        default: Option<bool>,
    },
    ChangeModel {
        model: Pick,
        name: Option<String>,
        default: Option<bool>,
    },
    DeleteModel {
        model: Pick,
    },
    Trial {
        model: Pick,
    },
    Task {
        enabled: Option<bool>,
        model: Option<Option<Pick>>,
        reasoning: Option<u8>,
        max_output_tokens: Option<i32>,
    },
    Backfill,
}

pub(super) fn ai_op() -> BoxedStrategy<AiOp> {
    prop_oneof![
        3 => (person_name(), any::<u8>(), prop::option::weighted(0.9, any::<u8>()), prop::option::weighted(0.5, any::<u8>()))
            .prop_map(|(name, kind, address, key)| AiOp::CreateProvider { name, kind, address, key }),
        1 => (pick(), prop::option::weighted(0.3, person_name()), prop::option::weighted(0.4, any::<u8>()), prop::option::weighted(0.4, prop::option::weighted(0.7, any::<u8>())))
            .prop_map(|(provider, name, address, key)| AiOp::ChangeProvider { provider, name, address, key }),
        1 => pick().prop_map(|provider| AiOp::DeleteProvider { provider }),
        1 => (prop::option::weighted(0.5, pick()), any::<u8>(), prop::option::weighted(0.7, any::<u8>()), prop::option::weighted(0.5, any::<u8>()))
            .prop_map(|(provider, kind, address, key)| AiOp::Test { provider, kind, address, key }),
        1 => pick().prop_map(|provider| AiOp::Check { provider }),
        1 => pick().prop_map(|provider| AiOp::Available { provider }),
        2 => (pick(), prop::collection::vec(any::<u8>(), 0..4), prop::option::weighted(0.3, any::<u8>()), any::<bool>())
            .prop_map(|(provider, identifiers, typed, default_if_none)| AiOp::AddModels { provider, identifiers, typed, default_if_none }),
        2 => (pick(), any::<u8>(), prop::option::of(any::<bool>()))
            .prop_map(|(provider, identifier, default)| AiOp::CreateModel { provider, identifier, default }),
        1 => (pick(), prop::option::weighted(0.4, person_name()), prop::option::of(any::<bool>()))
            .prop_map(|(model, name, default)| AiOp::ChangeModel { model, name, default }),
        1 => pick().prop_map(|model| AiOp::DeleteModel { model }),
        1 => pick().prop_map(|model| AiOp::Trial { model }),
        2 => (prop::option::of(any::<bool>()), prop::option::weighted(0.4, prop::option::weighted(0.6, pick())), prop::option::weighted(0.3, any::<u8>()), prop::option::weighted(0.3, 0i32..40_000))
            .prop_map(|(enabled, model, reasoning, max_output_tokens)| AiOp::Task { enabled, model, reasoning, max_output_tokens }),
        1 => Just(AiOp::Backfill),
    ]
    .boxed()
}

fn nth<'a>(list: &[&'a str], n: u8) -> &'a str {
    list[usize::from(n) % list.len()]
}

impl World {
    pub(super) fn ai_call(&self, op: &AiOp) -> Planned {
        let plain = |call: Call| Planned {
            call,
            creates: None,
        };
        let provider = |p: &Pick| format!("/ai_providers/{}", self.pick("ai_providers", *p));
        let model = |m: &Pick| format!("/ai_models/{}", self.pick("ai_models", *m));
        match op {
            AiOp::CreateProvider {
                name,
                kind,
                address,
                key,
            } => {
                let mut f = Map::new();
                f.insert("name".into(), json!(name));
                f.insert("kind".into(), json!(nth(KINDS, *kind)));
                if let Some(a) = address {
                    f.insert("base_url".into(), json!(nth(ADDRESSES, *a)));
                }
                if let Some(k) = key {
                    f.insert("api_key".into(), json!(nth(KEYS, *k)));
                }
                Planned {
                    call: Call::new(Method::Post, "/ai_providers")
                        .body(json!({ "ai_provider": f })),
                    creates: Some("ai_providers"),
                }
            }
            AiOp::ChangeProvider {
                provider: p,
                name,
                address,
                key,
            } => {
                let mut f = Map::new();
                if let Some(n) = name {
                    f.insert("name".into(), json!(n));
                }
                if let Some(a) = address {
                    f.insert("base_url".into(), json!(nth(ADDRESSES, *a)));
                }
                match key {
                    Some(Some(k)) => {
                        f.insert("api_key".into(), json!(nth(KEYS, *k)));
                    }
                    Some(None) => {
                        f.insert("api_key".into(), Value::Null);
                    }
                    None => {}
                }
                plain(Call::new(Method::Patch, provider(p)).body(json!({ "ai_provider": f })))
            }
            AiOp::DeleteProvider { provider: p } => plain(Call::new(Method::Delete, provider(p))),
            AiOp::Test {
                provider: p,
                kind,
                address,
                key,
            } => {
                let mut f = Map::new();
                if let Some(p) = p {
                    f.insert(
                        "ai_provider_id".into(),
                        json!(self.pick("ai_providers", *p)),
                    );
                }
                f.insert("kind".into(), json!(nth(KINDS, *kind)));
                if let Some(a) = address {
                    f.insert("base_url".into(), json!(nth(ADDRESSES, *a)));
                }
                if let Some(k) = key {
                    f.insert("api_key".into(), json!(nth(KEYS, *k)));
                }
                plain(Call::new(Method::Post, "/ai_providers/test").body(Value::Object(f)))
            }
            AiOp::Check { provider: p } => {
                plain(Call::new(Method::Post, format!("{}/check", provider(p))))
            }
            AiOp::Available { provider: p } => plain(Call::new(
                Method::Get,
                format!("{}/available_models", provider(p)),
            )),
            AiOp::AddModels {
                provider: p,
                identifiers,
                typed,
                default_if_none,
            } => {
                let ids: Vec<&str> = identifiers.iter().map(|i| nth(IDENTIFIERS, *i)).collect();
                let mut f = Map::new();
                f.insert("identifiers".into(), json!(ids));
                if let Some(t) = typed {
                    f.insert("identifier".into(), json!(nth(IDENTIFIERS, *t)));
                }
                f.insert("default_if_none".into(), json!(default_if_none));
                plain(
                    Call::new(Method::Post, format!("{}/model_additions", provider(p)))
                        .body(Value::Object(f)),
                )
            }
            AiOp::CreateModel {
                provider: p,
                identifier,
                default,
            } => {
                let mut f = Map::new();
                f.insert(
                    "ai_provider_id".into(),
                    json!(self.pick("ai_providers", *p)),
                );
                f.insert("identifier".into(), json!(nth(IDENTIFIERS, *identifier)));
                if let Some(d) = default {
                    f.insert("is_default".into(), json!(d));
                }
                Planned {
                    call: Call::new(Method::Post, "/ai_models").body(json!({ "ai_model": f })),
                    creates: Some("ai_models"),
                }
            }
            AiOp::ChangeModel {
                model: m,
                name,
                default,
            } => {
                let mut f = Map::new();
                if let Some(n) = name {
                    f.insert("name".into(), json!(n));
                }
                if let Some(d) = default {
                    f.insert("is_default".into(), json!(d));
                }
                plain(Call::new(Method::Patch, model(m)).body(json!({ "ai_model": f })))
            }
            AiOp::DeleteModel { model: m } => plain(Call::new(Method::Delete, model(m))),
            AiOp::Trial { model: m } => plain(
                Call::new(Method::Post, format!("{}/trial", model(m)))
                    .body(json!({"prompt": "Say hello"})),
            ),
            AiOp::Task {
                enabled,
                model: m,
                reasoning,
                max_output_tokens,
            } => {
                let mut f = Map::new();
                if let Some(e) = enabled {
                    f.insert("enabled".into(), json!(e));
                }
                match m {
                    Some(Some(m)) => {
                        f.insert("ai_model_id".into(), json!(self.pick("ai_models", *m)));
                    }
                    Some(None) => {
                        f.insert("ai_model_id".into(), Value::Null);
                    }
                    None => {}
                }
                if let Some(r) = reasoning {
                    f.insert("reasoning".into(), json!(nth(REASONING, *r)));
                }
                if let Some(n) = max_output_tokens {
                    f.insert("max_output_tokens".into(), json!(n));
                }
                plain(
                    Call::new(Method::Patch, "/ai_tasks/note_titles").body(json!({ "ai_task": f })),
                )
            }
            AiOp::Backfill => plain(Call::new(Method::Post, "/ai_tasks/note_titles/backfill")),
        }
    }
}
