//! The AI settings kept by name: the default model, each task's
//! configuration and the worker's backoff.

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::tables::SETTINGS;
use crate::engine::{Cx, WriteCx};
use crate::error::Result;
use crate::store::Tables;

/// The setting `name`, if set.
pub(crate) fn get<T: Tables, V: DeserializeOwned>(cx: &Cx<'_, T>, name: &str) -> Result<Option<V>> {
    cx.get_json(SETTINGS, name.as_bytes())
}

/// Sets `name` to `value`, or unsets it.
pub(crate) fn set<V: Serialize>(cx: &WriteCx<'_>, name: &str, value: Option<&V>) -> Result<()> {
    match value {
        Some(v) => cx.put_json(SETTINGS, name.as_bytes(), v),
        None => cx.remove(SETTINGS, name.as_bytes()).map(drop),
    }
}
