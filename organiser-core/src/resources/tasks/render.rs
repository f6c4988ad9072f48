//! Tasks as the API writes them, kept between reads: a task's JSON depends
//! on its record alone, and two snapshots of the same commit generation
//! show the same records, so a page read at a generation already rendered
//! copies the JSON of its tasks instead of loading, decoding and writing
//! them again. Any commit starts a new generation; what was kept for an
//! older one is dropped when a newer one is read.

use std::collections::HashMap;
use std::sync::Mutex;

use serde_json::value::RawValue;

use super::load_live;
use crate::engine::Cx;
use crate::error::Result;
use crate::ids::Id;
use crate::store::Tables;

/// At most this many tasks are kept (the first pages of the views and the
/// lists people open are far fewer).
const MOST: usize = 10_000;

/// The kept JSON of one generation.
#[derive(Default)]
pub(crate) struct Rendered(Mutex<Kept>);

#[derive(Default)]
struct Kept {
    generation: u64,
    tasks: HashMap<Id, Box<RawValue>>,
}

impl Rendered {
    fn lookup(&self, generation: u64, id: Id) -> Option<Box<RawValue>> {
        let kept = self.0.lock().unwrap_or_else(|e| e.into_inner());
        (kept.generation == generation)
            .then(|| kept.tasks.get(&id).cloned())
            .flatten()
    }

    fn keep(&self, generation: u64, id: Id, json: &RawValue) {
        let mut kept = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if generation > kept.generation {
            kept.generation = generation;
            kept.tasks.clear();
        }
        if generation == kept.generation && kept.tasks.len() < MOST {
            kept.tasks.insert(id, json.to_owned());
        }
    }
}

/// The JSON of the live task `id` as `cx` shows it (404 when it is not
/// live), from what was kept for this generation when it can be.
pub(crate) fn task_json<T: Tables>(
    cx: &Cx<'_, T>,
    kept: &Rendered,
    id: Id,
) -> Result<Box<RawValue>> {
    let Some(generation) = cx.generation() else {
        return fresh(cx, id);
    };
    if let Some(json) = kept.lookup(generation, id) {
        return Ok(json);
    }
    let json = fresh(cx, id)?;
    kept.keep(generation, id, &json);
    Ok(json)
}

fn fresh<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<Box<RawValue>> {
    Ok(serde_json::value::to_raw_value(&load_live(cx, id)?)?)
}
