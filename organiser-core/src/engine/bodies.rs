//! Answers of kept reads, between requests of one commit generation: a
//! read declared `kept` (`ReadOp::kept`) answers from its snapshot, the
//! day and its request alone, so the same request on a snapshot of the
//! same generation on the same day gets the same bytes. Any commit starts
//! a new generation (and a new day starts one too: settling the today set
//! is a commit); what was kept for an older one is dropped when a newer one
//! is read.

use std::collections::HashMap;
use std::sync::Mutex;

use jiff::civil::Date;

use super::ReadCx;
use super::request::Response;
use crate::error::Result;

/// At most this many answers are kept.
const MOST: usize = 256;

/// The kept answers of one generation and day.
#[derive(Default)]
pub(crate) struct Bodies(Mutex<Kept>);

#[derive(Default)]
struct Kept {
    generation: u64,
    day: Option<Date>,
    answers: HashMap<String, Vec<u8>>,
}

impl Bodies {
    /// The answer to the request `key` on `cx`: kept, or made by `f` (and
    /// kept when it is a 200 and `cx` names its generation).
    pub(crate) fn answer(
        &self,
        cx: &ReadCx<'_>,
        key: &str,
        f: impl FnOnce(&ReadCx<'_>) -> Result<Response>,
    ) -> Result<Response> {
        let Some(generation) = cx.generation() else {
            return f(cx);
        };
        let day = cx.today();
        {
            let kept = self.0.lock().unwrap_or_else(|e| e.into_inner());
            if kept.generation == generation
                && kept.day == Some(day)
                && let Some(body) = kept.answers.get(key)
            {
                return Ok(Response {
                    status: 200,
                    body: Some(body.clone()),
                    replayed: false,
                    headers: Vec::new(),
                });
            }
        }
        let response = f(cx)?;
        if let (200, Some(body)) = (response.status, &response.body) {
            let mut kept = self.0.lock().unwrap_or_else(|e| e.into_inner());
            if (generation, Some(day)) != (kept.generation, kept.day)
                && generation >= kept.generation
            {
                kept.generation = generation;
                kept.day = Some(day);
                kept.answers.clear();
            }
            if (generation, Some(day)) == (kept.generation, kept.day) && kept.answers.len() < MOST {
                kept.answers.insert(key.to_owned(), body.clone());
            }
        }
        Ok(response)
    }
}
