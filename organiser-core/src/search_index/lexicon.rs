//! Every word the index holds, for finding misspellings: an FST of the
//! words when the lexicon was last built (stored in `search_meta`), and
//! the words added since (`search_fresh`), merged into a new FST once
//! [`FRESH_MAX`] have gathered. A misspelt query word is a Levenshtein
//! automaton (`levenshtein_automata`, transpositions costing one edit)
//! walked over the FST, and run over the fresh words.
//!
//! The lexicon may hold words no record holds any more (until the index
//! is next rebuilt); such a word finds nothing, so the postings, not the
//! lexicon, decide what matches.

use std::sync::{Arc, LazyLock, Mutex};

use fst::{IntoStreamer, Set, SetBuilder, Streamer};
use levenshtein_automata::{Distance, LevenshteinAutomatonBuilder};

use super::tables::{SEARCH_FRESH, SEARCH_META};
use crate::engine::Cx;
use crate::error::{Error, Result};
use crate::store::{Dir, Tables, WriteTx};

/// The fresh words that make the next write build the FST again.
pub(crate) const FRESH_MAX: u64 = 2_000;

/// The key of the FST in `search_meta`.
pub(crate) const LEXICON_KEY: &[u8] = b"lexicon";

/// The words of the index as one snapshot shows them.
#[derive(Debug)]
pub(crate) struct Lexicon {
    /// The state stamp it was read at.
    stamp: u64,
    set: Set<Vec<u8>>,
    /// The words added since `set` was built, sorted.
    fresh: Vec<String>,
}

/// The last lexicon read, shared by the handle's readers.
#[derive(Default)]
struct Cached(Mutex<Option<Arc<Lexicon>>>);

impl Lexicon {
    /// An empty lexicon.
    pub(crate) fn empty() -> Lexicon {
        Lexicon {
            stamp: 0,
            set: Set::default(),
            fresh: Vec::new(),
        }
    }

    /// The lexicon of `cx`'s snapshot, whose state stamp is `stamp`.
    pub(crate) fn read<T: Tables>(cx: &Cx<'_, T>, stamp: u64) -> Result<Arc<Lexicon>> {
        let cached = cx.org.ext.get::<Cached>();
        if let Some(found) = cached
            .0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .as_ref()
            .filter(|l| l.stamp == stamp)
        {
            return Ok(found.clone());
        }
        let bytes = cx.get(SEARCH_META, LEXICON_KEY)?.unwrap_or_default();
        let set = if bytes.is_empty() {
            Set::default()
        } else {
            Set::new(bytes)
                .map_err(|e| Error::Storage(format!("the search lexicon: {e}").into()))?
        };
        let mut fresh = Vec::new();
        cx.scan_prefix(SEARCH_FRESH, &[], Dir::Asc, &mut |k, _| {
            fresh.push(String::from_utf8_lossy(k).into_owned());
            Ok(true)
        })?;
        let lexicon = Arc::new(Lexicon { stamp, set, fresh });
        *cached.0.lock().unwrap_or_else(|e| e.into_inner()) = Some(lexicon.clone());
        Ok(lexicon)
    }

    /// A lexicon of `set` alone.
    #[cfg(test)]
    pub(crate) fn for_tests(set: Set<Vec<u8>>) -> Lexicon {
        Lexicon {
            stamp: 0,
            set,
            fresh: Vec::new(),
        }
    }

    /// Forgets the cached lexicon (the index was rebuilt).
    pub(crate) fn forget<T>(cx: &Cx<'_, T>) {
        *cx.org
            .ext
            .get::<Cached>()
            .0
            .lock()
            .unwrap_or_else(|e| e.into_inner()) = None;
    }

    /// Whether the lexicon holds `term`.
    pub(crate) fn contains(&self, term: &str) -> bool {
        self.set.contains(term)
            || self
                .fresh
                .binary_search_by(|f| f.as_str().cmp(term))
                .is_ok()
    }

    /// The words at most `edits` edits from `word` (a transposition is
    /// one), sorted; none when `edits` is 0.
    pub(crate) fn near(&self, word: &str, edits: u8) -> Vec<String> {
        let builder: &LevenshteinAutomatonBuilder = match edits {
            0 => return Vec::new(),
            1 => &ONE_EDIT,
            _ => &TWO_EDITS,
        };
        let dfa = builder.build_dfa(word);
        let mut out = Vec::new();
        let mut stream = self.set.search(&dfa).into_stream();
        while let Some(term) = stream.next() {
            out.push(String::from_utf8_lossy(term).into_owned());
        }
        for term in &self.fresh {
            if matches!(dfa.eval(term), Distance::Exact(d) if d <= edits) {
                out.push(term.clone());
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The words of the FST and the fresh words, merged, in order.
    fn merged(&self) -> Result<Vec<u8>> {
        let mut builder = SetBuilder::memory();
        let mut fresh = self.fresh.iter().peekable();
        let mut stream = self.set.stream();
        let push = |b: &mut SetBuilder<Vec<u8>>, term: &[u8]| {
            b.insert(term)
                .map_err(|e| Error::Internal(format!("building the search lexicon: {e}")))
        };
        while let Some(term) = stream.next() {
            while let Some(f) = fresh.next_if(|f| f.as_bytes() < term) {
                push(&mut builder, f.as_bytes())?;
            }
            fresh.next_if(|f| f.as_bytes() == term);
            push(&mut builder, term)?;
        }
        for f in fresh {
            push(&mut builder, f.as_bytes())?;
        }
        builder
            .into_inner()
            .map_err(|e| Error::Internal(format!("building the search lexicon: {e}")))
    }
}

/// The automata builders, made once a process (each takes some
/// milliseconds).
static ONE_EDIT: LazyLock<LevenshteinAutomatonBuilder> =
    LazyLock::new(|| LevenshteinAutomatonBuilder::new(1, true));
static TWO_EDITS: LazyLock<LevenshteinAutomatonBuilder> =
    LazyLock::new(|| LevenshteinAutomatonBuilder::new(2, true));

/// Adds `term` to the fresh words when the lexicon `known` (as the
/// transaction began) does not hold it and no earlier change of this
/// transaction added it; whether it was added.
pub(crate) fn note(tx: &WriteTx, known: &Lexicon, term: &str) -> Result<bool> {
    if known.contains(term) || tx.get(SEARCH_FRESH, term.as_bytes())?.is_some() {
        return Ok(false);
    }
    tx.insert(SEARCH_FRESH, term.as_bytes(), &[])?;
    Ok(true)
}

/// Builds the FST again from the stored one and the fresh words, which
/// it empties.
pub(crate) fn merge(tx: &WriteTx) -> Result<()> {
    let mut fresh = Vec::new();
    tx.scan_prefix(SEARCH_FRESH, &[], Dir::Asc, &mut |k, _| {
        fresh.push(String::from_utf8_lossy(k).into_owned());
        Ok(true)
    })?;
    let bytes = tx.get(SEARCH_META, LEXICON_KEY)?.unwrap_or_default();
    let set = if bytes.is_empty() {
        Set::default()
    } else {
        Set::new(bytes).map_err(|e| Error::Storage(format!("the search lexicon: {e}").into()))?
    };
    let merged = Lexicon {
        stamp: 0,
        set,
        fresh,
    }
    .merged()?;
    tx.insert(SEARCH_META, LEXICON_KEY, &merged)?;
    tx.clear(SEARCH_FRESH)
}

/// Stores an FST of `terms` (sorted, each once) as the lexicon.
pub(crate) fn store<'a>(tx: &WriteTx, terms: impl IntoIterator<Item = &'a String>) -> Result<()> {
    let mut builder = SetBuilder::memory();
    for term in terms {
        builder
            .insert(term)
            .map_err(|e| Error::Internal(format!("building the search lexicon: {e}")))?;
    }
    let bytes = builder
        .into_inner()
        .map_err(|e| Error::Internal(format!("building the search lexicon: {e}")))?;
    tx.insert(SEARCH_META, LEXICON_KEY, &bytes)
}

/// Whether the stored FST reads as one.
pub(crate) fn readable<T: Tables>(tx: &T) -> bool {
    match tx.get(SEARCH_META, LEXICON_KEY) {
        Ok(Some(bytes)) => bytes.is_empty() || Set::new(bytes).is_ok(),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lexicon(words: &[&str], fresh: &[&str]) -> Lexicon {
        let mut sorted: Vec<&str> = words.to_vec();
        sorted.sort_unstable();
        Lexicon {
            stamp: 0,
            set: Set::from_iter(sorted).unwrap(),
            fresh: fresh.iter().map(|s| s.to_string()).collect(),
        }
    }

    #[test]
    fn misspellings_are_found_in_both_parts() {
        let l = lexicon(
            &["meeting", "meting", "melting", "report"],
            &["meetnig", "zebra"],
        );
        assert_eq!(
            l.near("meeting", 1),
            ["meeting", "meetnig", "melting", "meting"]
        );
        assert_eq!(l.near("reoprt", 1), ["report"]);
        assert_eq!(l.near("zebra", 0), Vec::<String>::new());
        assert!(l.contains("zebra") && l.contains("report") && !l.contains("repo"));
    }

    #[test]
    fn merging_keeps_every_word_once_in_order() {
        let l = lexicon(&["b", "d"], &["a", "b", "c", "e"]);
        let merged = Set::new(l.merged().unwrap()).unwrap();
        let words: Vec<String> = merged.stream().into_strs().unwrap();
        assert_eq!(words, ["a", "b", "c", "d", "e"]);
    }
}
