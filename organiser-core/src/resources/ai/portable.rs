//! AI providers and models in the organiser's archive (EXTENSIONS.md §5).
//! A provider's line is the provider as the API shows it, which never
//! holds its key; the archive holds no key, so the line says
//! `api_key_set: false` and an imported provider has none (the owner
//! enters it again). A model's line is the model as the API shows it,
//! naming its provider (imported first); the one whose line says
//! `is_default` becomes the store's one default.

use serde_json::Value;

use super::models::{self, AiModel, DEFAULT, with_identifier};
use super::providers::{self, AiProvider, NAME_MAX, StoredProvider, base_url, same_origin};
use super::settings;
use super::tables::{MODELS, PROVIDERS, PROVIDERS_BY_CASE_NAME};
use crate::engine::{ReadCx, WriteCx};
use crate::error::{Error, Result};
use crate::ids::Id;
use crate::portable::{self, Imported, Paths, Portable};
use crate::store::Tables;

/// The AI providers' part of the archive.
pub(crate) static PROVIDER_PORTABLE: Portable = Portable {
    kind: "ai_provider",
    table: PROVIDERS,
    export: export_provider,
    import: import_provider,
};

/// The AI models' part of the archive.
pub(crate) static MODEL_PORTABLE: Portable = Portable {
    kind: "ai_model",
    table: MODELS,
    export: export_model,
    import: import_model,
};

/// 422 on `base` for the line of the `kind` `id`.
fn refused(kind: &str, id: Id, problem: &str) -> Error {
    Error::invalid(
        "base",
        format!("records/{kind}.jsonl: the {kind} {id} cannot be read: {problem}"),
    )
}

/// The line of provider `id`: without its key.
fn export_provider(cx: &ReadCx<'_>, _paths: &Paths<'_>, id: Id) -> Result<Option<Value>> {
    let Some(stored) = providers::load(cx, id)? else {
        return Ok(None);
    };
    let mut provider = stored.provider;
    provider.api_key_set = false;
    portable::to_line(provider).map(Some)
}

/// Writes a provider's line as the module's docs say: a line replacing
/// a provider here keeps its key while its address stays on the same
/// server.
fn import_provider(cx: &mut WriteCx<'_>, paths: &Paths<'_>, line: Value) -> Result<Imported> {
    let kind = PROVIDER_PORTABLE.kind;
    let mut provider: AiProvider = portable::read_line(kind, line)?;
    let before = providers::load(cx, provider.id)?;
    let did = portable::decide(
        paths,
        before.as_ref().map(|s| s.provider.updated_at),
        false,
        &mut provider.updated_at,
    );
    if did == Imported::Unchanged {
        return Ok(did);
    }
    if let Some(url) = &provider.base_url
        && base_url(url).as_deref() != Ok(url.as_str())
    {
        return Err(refused(
            kind,
            provider.id,
            "its base_url is not a checked address",
        ));
    }
    let key = before.as_ref().and_then(|b| {
        let same = match (&b.provider.base_url, &provider.base_url) {
            (Some(old), Some(new)) => same_origin(old, new),
            (None, None) => true,
            _ => false,
        };
        b.key.clone().filter(|_| same)
    });
    provider.api_key_set = key.is_some();
    if cx
        .named(PROVIDERS_BY_CASE_NAME, &provider.name, Some(provider.id))?
        .is_some()
    {
        provider.name = crate::restore::free_name(&provider.name, NAME_MAX, |n| {
            Ok(cx
                .named(PROVIDERS_BY_CASE_NAME, n, Some(provider.id))?
                .is_some())
        })?
        .ok_or_else(|| refused(kind, provider.id, "its name is taken"))?;
    }
    let stored = StoredProvider { provider, key };
    providers::save(cx, before.as_ref(), &stored)?;
    Ok(did)
}

/// The line of model `id`.
fn export_model(cx: &ReadCx<'_>, _paths: &Paths<'_>, id: Id) -> Result<Option<Value>> {
    match models::load(cx, id)? {
        Some(model) => portable::to_line(model).map(Some),
        None => Ok(None),
    }
}

/// Writes a model's line as the module's docs say; a model of its
/// provider with its identifier here already keeps it (`Unchanged`).
fn import_model(cx: &mut WriteCx<'_>, paths: &Paths<'_>, line: Value) -> Result<Imported> {
    let kind = MODEL_PORTABLE.kind;
    let mut model: AiModel = portable::read_line(kind, line)?;
    let before = models::load(cx, model.id)?;
    let did = portable::decide(
        paths,
        before.as_ref().map(|m| m.updated_at),
        false,
        &mut model.updated_at,
    );
    if did == Imported::Unchanged {
        return Ok(did);
    }
    if !providers::exists(cx, model.ai_provider_id)? {
        return Err(refused(
            kind,
            model.id,
            &format!("its provider {} is not here", model.ai_provider_id),
        ));
    }
    if let Some(problem) = models::identifier_problem(&model.identifier) {
        return Err(refused(
            kind,
            model.id,
            &format!("its identifier {problem}"),
        ));
    }
    if with_identifier(cx, model.ai_provider_id, &model.identifier)?
        .is_some_and(|other| other != model.id)
    {
        return Ok(Imported::Unchanged);
    }
    let default = models::default_id(cx)?;
    if model.is_default {
        // One default: the one here before leaves it, its `updated_at`
        // kept (its own line, if any, says what it is).
        if let Some(other) = default.filter(|&other| other != model.id)
            && let Some(was) = models::load(cx, other)?
        {
            let mut now = was.clone();
            now.is_default = false;
            models::save(cx, Some(&was), &now)?;
        }
        settings::set(cx, DEFAULT, Some(&model.id))?;
    } else if default == Some(model.id) {
        settings::set::<Id>(cx, DEFAULT, None)?;
    }
    models::save(cx, before.as_ref(), &model)?;
    Ok(did)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::{AiModelInput, AiModelQuery, AiProviderInput, AiProviderQuery};
    use crate::input::Field;
    use crate::portable::round_trip;
    use crate::resources::ai::wire::Failure;
    use crate::{ManualClock, Options, Organiser};

    fn org(clock: &ManualClock) -> Organiser {
        Organiser::in_memory_with(Options {
            clock: std::sync::Arc::new(clock.clone()),
            ..Options::default()
        })
    }

    fn provider(name: &str, kind: &str, url: &str, key: &str) -> AiProviderInput {
        AiProviderInput {
            name: Field::Value(name.into()),
            kind: Field::Value(kind.into()),
            base_url: Field::Value(url.into()),
            api_key: Field::Value(key.into()),
        }
    }

    fn model(provider: Id, identifier: &str, default: bool) -> AiModelInput {
        AiModelInput {
            ai_provider_id: Field::Value(provider),
            identifier: Field::Value(identifier.into()),
            name: Field::Value(format!("{identifier} (mine)")),
            is_default: Some(default),
        }
    }

    #[test]
    fn providers_and_models_round_trip_exactly_without_keys() {
        let clock = ManualClock::at("2026-03-02T09:00:00Z");
        let a = org(&clock);
        let local = a
            .ai()
            .create_provider(provider(
                "Local",
                "api_compatible",
                "http://127.0.0.1:11434/v1",
                "",
            ))
            .unwrap();
        clock.advance_secs(60);
        let vendor = a
            .ai()
            .create_provider(provider(
                "Vendor",
                "vendor_b",
                "https://api.vendor.example/v1",
                "sk-very-secret",
            ))
            .unwrap();
        assert!(vendor.api_key_set);
        clock.advance_secs(60);
        a.inner
            .write(|cx| {
                providers::record_outcome(
                    cx,
                    vendor.id,
                    Err(&Failure {
                        reason: "The key was refused".into(),
                        message: "401 Unauthorized".into(),
                    }),
                )
            })
            .unwrap();
        let gone = a
            .ai()
            .create_provider(provider(
                "Gone",
                "api_compatible",
                "https://g.example/v1",
                "",
            ))
            .unwrap();
        a.ai().delete_provider(gone.id).unwrap();
        clock.advance_secs(60);
        let small = a
            .ai()
            .create_model(model(local.id, "small", false))
            .unwrap();
        clock.advance_secs(60);
        let large = a
            .ai()
            .create_model(model(vendor.id, "large", true))
            .unwrap();
        clock.advance_secs(60);
        let dropped = a.ai().create_model(model(vendor.id, "old", false)).unwrap();
        a.ai().delete_model(dropped.id).unwrap();
        clock.advance_secs(60);

        let b = org(&clock);
        let kinds = [&PROVIDER_PORTABLE, &MODEL_PORTABLE];
        let (first, again, did) = round_trip(&a, &b, &kinds);
        assert_eq!((first[0].len(), first[1].len()), (2, 2));
        assert!(
            did.iter().flatten().all(|d| *d == Imported::Created),
            "{did:?}"
        );
        assert_eq!(first, again);
        assert_eq!(
            serde_json::to_string(&first).unwrap(),
            serde_json::to_string(&again).unwrap()
        );
        let text = serde_json::to_string(&first).unwrap();
        assert!(
            !text.contains("sk-very-secret") && !text.contains("api_key\""),
            "{text}"
        );
        assert_eq!(first[0][1]["api_key_set"], false);
        assert_eq!(first[0][1]["last_error"], "401 Unauthorized");

        let (_, again2, did) = round_trip(&a, &b, &kinds);
        assert!(did.iter().flatten().all(|d| *d == Imported::Unchanged));
        assert_eq!(first, again2);

        // The new store: no key, the default model, lists and lookups.
        let shown = b.ai().provider(vendor.id).unwrap();
        assert!(!shown.api_key_set);
        let key = b
            .inner
            .read(|cx| Ok(providers::load(cx, vendor.id)?.unwrap().key))
            .unwrap();
        assert!(key.is_none());
        let names: Vec<String> = b
            .ai()
            .providers(&AiProviderQuery::default())
            .unwrap()
            .items
            .into_iter()
            .map(|p| p.name)
            .collect();
        assert_eq!(names, ["Local", "Vendor"]);
        assert_eq!(b.inner.read(models::default_id).unwrap(), Some(large.id));
        assert!(b.ai().model(large.id).unwrap().is_default);
        let of_local = b
            .ai()
            .models(&AiModelQuery {
                ai_provider_id: Some(local.id),
                ..Default::default()
            })
            .unwrap();
        assert_eq!(of_local.items[0].id, small.id);
        let taken = b.ai().create_model(model(local.id, "small", false));
        assert!(taken.is_err(), "the identifier is taken");
        assert!(
            b.ai()
                .create_provider(provider(
                    "local",
                    "api_compatible",
                    "https://x.example/v1",
                    ""
                ))
                .is_err(),
            "the name is taken"
        );

        // A newer line replaces: the key here stays on the same server.
        b.ai()
            .change_provider(
                vendor.id,
                AiProviderInput {
                    api_key: Field::Value("sk-b".into()),
                    ..Default::default()
                },
            )
            .unwrap();
        clock.advance_secs(60);
        a.ai()
            .change_provider(
                vendor.id,
                AiProviderInput {
                    name: Field::Value("Vendor B".into()),
                    ..Default::default()
                },
            )
            .unwrap();
        a.ai()
            .change_model(
                small.id,
                AiModelInput {
                    is_default: Some(true),
                    ..Default::default()
                },
            )
            .unwrap();
        let (_, _, did) = round_trip(&a, &b, &kinds);
        assert_eq!(did[0], [Imported::Unchanged, Imported::Updated]);
        assert_eq!(did[1], [Imported::Updated, Imported::Updated]);
        let vendor_b = b.ai().provider(vendor.id).unwrap();
        assert_eq!(vendor_b.name, "Vendor B");
        assert!(vendor_b.api_key_set, "its key here stays");
        assert_eq!(b.inner.read(models::default_id).unwrap(), Some(small.id));
        assert!(!b.ai().model(large.id).unwrap().is_default);
    }
}
