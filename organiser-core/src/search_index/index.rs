//! The index written: a record's [`Doc`] stored in place of the one it
//! had (its postings, its place in its type's order, its words added to
//! the lexicon), in the caller's write transaction; the index's state and
//! health; and its rebuild from scratch.
//!
//! Postings ([`super::postings`]): a word's records in blocks under
//! `(type, term, first ID)`, each record with the word's class bits and
//! its order key, so that a word's records, and a prefix's, are one range
//! of their type that carries what ranking needs.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::lexicon::{self, FRESH_MAX, Lexicon};
use super::postings;
use super::tables::{
    SEARCH_COUNTS, SEARCH_DOCS, SEARCH_FRESH, SEARCH_META, SEARCH_ORDER, SEARCH_POSTINGS, TABLES,
};
use super::{Doc, Kind};
use crate::engine::WriteCx;
use crate::error::Result;
use crate::ids::Id;
use crate::store::codec::{self, Record};
use crate::store::key::Key;
use crate::store::{Tables, WriteTx};

/// The index's layout; a store whose index has another is rebuilt.
/// 5: postings grouped in blocks.
pub(crate) const FORMAT: u32 = 5;

const STATE_KEY: &[u8] = b"state";

/// What the index knows of itself, kept in `search_meta`: its layout, the
/// store schema it was built on, how many entries its tables hold (a
/// table whose size disagrees was damaged), and a stamp that changes with
/// every change of the lexicon (which readers' caches compare).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct State {
    format: u32,
    schema: u32,
    docs: u64,
    postings: u64,
    /// Entries of `search_postings`: the blocks postings are kept in.
    blocks: u64,
    /// Entries of `search_counts`: the distinct (type, word) pairs.
    terms: u64,
    fresh: u64,
    /// Changes whenever the lexicon does.
    pub(crate) stamp: u64,
}

impl Record for State {
    const NAME: &'static str = "search state";
    const FORMAT: u8 = 2;
}

/// The key of a word's count.
fn count_key(kind: Kind, term: &str) -> Key {
    Key::new().tag(kind.tag()).str(term)
}

/// How many records of `kind` hold `term`.
pub(crate) fn count<T: Tables>(tx: &T, kind: Kind, term: &str) -> Result<u64> {
    Ok(tx
        .get(SEARCH_COUNTS, count_key(kind, term).as_slice())?
        .map_or(0, |v| u64::from(read_count(&v))))
}

/// How many postings of `kind` the words beginning with `prefix` hold
/// together (the word itself included), counted up to `cap`.
pub(crate) fn prefix_count<T: Tables>(tx: &T, kind: Kind, prefix: &str, cap: u64) -> Result<u64> {
    let mut total = 0;
    tx.scan_prefix(
        SEARCH_COUNTS,
        Key::new().tag(kind.tag()).str_start(prefix).as_slice(),
        crate::store::Dir::Asc,
        &mut |_, v| {
            total += u64::from(read_count(v));
            Ok(total <= cap)
        },
    )?;
    Ok(total)
}

fn read_count(v: &[u8]) -> u32 {
    v.try_into().map(u32::from_be_bytes).unwrap_or(0)
}

fn doc_key(kind: Kind, id: Id) -> Key {
    Key::new().tag(kind.tag()).id(id)
}

/// The key of a record in its type's order.
fn order_key(kind: Kind, order: &[u8], id: Id) -> Key {
    Key::new().tag(kind.tag()).bytes(order).id(id)
}

/// The index's state as `tx` shows it (the default when it has none).
pub(crate) fn state<T: Tables>(tx: &T) -> Result<State> {
    Ok(tx.get_record(SEARCH_META, STATE_KEY)?.unwrap_or_default())
}

/// The stored bytes of the document of `kind` `id`, if it is indexed;
/// [`DocRef::read`] reads them in place.
pub(crate) fn doc_bytes<T: Tables>(tx: &T, kind: Kind, id: Id) -> Result<Option<Vec<u8>>> {
    tx.get(SEARCH_DOCS, doc_key(kind, id).as_slice())
}

/// The order key of the stored document of `kind` `id` (for a type
/// whose postings carry none), read without its words.
pub(crate) fn order_of<T: Tables>(tx: &T, kind: Kind, id: Id) -> Result<Option<Vec<u8>>> {
    /// A [`Doc`]'s first field alone.
    #[derive(Deserialize)]
    struct OrderOnly<'a>(#[serde(borrow)] &'a [u8]);
    let Some(bytes) = doc_bytes(tx, kind, id)? else {
        return Ok(None);
    };
    Ok(match bytes.split_first() {
        Some((&format, rest)) if format == <Doc as Record>::FORMAT => {
            postcard::from_bytes::<OrderOnly<'_>>(rest)
                .ok()
                .map(|o| o.0.to_vec())
        }
        _ => None,
    })
}

/// A stored [`Doc`] read in place (its words borrowed, not copied): what
/// a query checks a record's words against.
#[derive(Debug, Deserialize)]
pub(crate) struct DocRef<'a> {
    /// The type's order key (read past: the order index has it too).
    #[serde(borrow)]
    _order: &'a [u8],
    /// The words and their class bits.
    #[serde(borrow)]
    pub(crate) terms: Vec<(&'a str, u8)>,
}

impl<'a> DocRef<'a> {
    /// The document in `bytes` (as [`codec::encode`] wrote a [`Doc`]);
    /// `None` for bytes of another format or malformed ones.
    pub(crate) fn read(bytes: &'a [u8]) -> Option<DocRef<'a>> {
        match bytes.split_first() {
            Some((&format, rest)) if format == <Doc as Record>::FORMAT => {
                postcard::from_bytes(rest).ok()
            }
            _ => None,
        }
    }
}

/// Whether the index is whole: its tables exist, its layout and schema
/// are this build's, its tables hold as many entries as it counted, and
/// its lexicon reads. Any failure to read counts as not whole.
pub(crate) fn healthy<T: Tables>(tx: &T, schema: u32) -> bool {
    let whole = || -> Result<bool> {
        let Some(state) = tx.get_record::<State>(SEARCH_META, STATE_KEY)? else {
            return Ok(false);
        };
        Ok(state.format == FORMAT
            && state.schema == schema
            && tx.len(SEARCH_DOCS)? == state.docs
            && tx.len(SEARCH_ORDER)? == state.docs
            && tx.len(SEARCH_POSTINGS)? == state.blocks
            && tx.len(SEARCH_COUNTS)? == state.terms
            && tx.len(SEARCH_FRESH)? == state.fresh
            && lexicon::readable(tx))
    };
    whole().unwrap_or(false)
}

/// One transaction's changes to the index; [`Writer::finish`] stores
/// its state.
pub(crate) struct Writer<'t> {
    tx: &'t WriteTx,
    /// The store's schema version, stamped on the index.
    schema: u32,
    state: State,
    lexicon: Arc<Lexicon>,
    /// While rebuilding: every word met (the lexicon is built from them).
    building: Option<BTreeSet<String>>,
    /// How the counts of (type, word) change, applied by `finish`.
    counts: BTreeMap<(Kind, String), i64>,
    changed: bool,
}

impl<'t> Writer<'t> {
    /// Changes to the index as it stands.
    pub(crate) fn open(cx: &'t WriteCx<'_>) -> Result<Writer<'t>> {
        let state = state(&cx.tx)?;
        let lexicon = Lexicon::read(cx, state.stamp)?;
        Ok(Writer {
            tx: &cx.tx,
            schema: cx.org.wiring.schema_version(),
            state,
            lexicon,
            building: None,
            counts: BTreeMap::new(),
            changed: false,
        })
    }

    /// An empty index, to be filled with every live record.
    pub(crate) fn rebuild(cx: &'t WriteCx<'_>) -> Result<Writer<'t>> {
        let stamp = state(&cx.tx)
            .map(|s| s.stamp)
            .unwrap_or_default()
            .max(cx.now().as_millisecond().unsigned_abs());
        for t in TABLES {
            cx.tx.clear(*t)?;
        }
        Lexicon::forget(cx);
        Ok(Writer {
            tx: &cx.tx,
            schema: cx.org.wiring.schema_version(),
            state: State {
                stamp: stamp + 1,
                ..State::default()
            },
            lexicon: Arc::new(Lexicon::empty()),
            building: Some(BTreeSet::new()),
            counts: BTreeMap::new(),
            changed: true,
        })
    }

    /// Stores `new` as the document of `kind` `id` (`None`: it is not
    /// live), writing only the postings that differ.
    pub(crate) fn set(&mut self, kind: Kind, id: Id, new: Option<&Doc>) -> Result<()> {
        let tx = self.tx;
        let key = doc_key(kind, id);
        let old: Option<Doc> = match self.building {
            Some(_) => None,
            // An unreadable document is replaced whole; the counts it
            // leaves wrong make the next open rebuild the index.
            None => tx
                .get(SEARCH_DOCS, key.as_slice())?
                .and_then(|b| codec::decode(&b).ok()),
        };
        if old.as_ref() == new {
            return Ok(());
        }
        self.changed = true;
        let holds = |doc: &Doc, term: &str, class: u8| {
            doc.terms
                .binary_search_by(|(t, _)| t.as_str().cmp(term))
                .is_ok_and(|i| doc.terms[i].1 == class)
        };
        // Whether postings written for `a` stand for `b` too.
        let carried = kind.order_in_postings();
        let same_order = |a: &Doc, b: &Doc| !carried || a.order == b.order;
        if let Some(old) = &old {
            tx.batch(SEARCH_POSTINGS, |b| {
                for (term, class) in &old.terms {
                    let kept = new.is_some_and(|n| same_order(n, old) && holds(n, term, *class));
                    if kept {
                        continue;
                    }
                    let (blocks, held) = postings::remove(b, kind, term, id)?;
                    self.state.blocks = self.state.blocks.saturating_add_signed(blocks);
                    if held {
                        self.state.postings = self.state.postings.saturating_sub(1);
                        if kind.counted() {
                            *self.counts.entry((kind, term.clone())).or_default() -= 1;
                        }
                    }
                }
                Ok(())
            })?;
            tx.remove(SEARCH_ORDER, order_key(kind, &old.order, id).as_slice())?;
        }
        match new {
            Some(new) => {
                let added: Vec<&(String, u8)> = new
                    .terms
                    .iter()
                    .filter(|(term, class)| {
                        !old.as_ref()
                            .is_some_and(|o| same_order(o, new) && holds(o, term, *class))
                    })
                    .collect();
                let order: &[u8] = if carried { &new.order } else { &[] };
                let mut fresh = Vec::with_capacity(added.len());
                tx.batch(SEARCH_POSTINGS, |b| {
                    for (term, class) in &added {
                        let (blocks, new_to_word) =
                            postings::add(b, kind, term, id, *class, order)?;
                        self.state.blocks = self.state.blocks.saturating_add_signed(blocks);
                        fresh.push(new_to_word);
                    }
                    Ok(())
                })?;
                for ((term, _), new_to_word) in added.into_iter().zip(fresh) {
                    if !new_to_word {
                        // Its class or order changed: the word's count stands.
                        continue;
                    }
                    self.state.postings += 1;
                    if kind.counted() {
                        *self.counts.entry((kind, term.clone())).or_default() += 1;
                    }
                    match &mut self.building {
                        Some(words) => {
                            if !words.contains(term) {
                                words.insert(term.clone());
                            }
                        }
                        None => {
                            if lexicon::note(tx, &self.lexicon, term)? {
                                self.state.fresh += 1;
                                self.state.stamp += 1;
                            }
                        }
                    }
                }
                tx.index(SEARCH_ORDER, order_key(kind, &new.order, id).as_slice())?;
                tx.put_record(SEARCH_DOCS, key.as_slice(), new)?;
                if old.is_none() {
                    self.state.docs += 1;
                }
            }
            None => {
                tx.remove(SEARCH_DOCS, key.as_slice())?;
                self.state.docs = self.state.docs.saturating_sub(1);
            }
        }
        Ok(())
    }

    /// Stores the state (and the lexicon: built whole after a rebuild,
    /// merged once enough fresh words gathered).
    pub(crate) fn finish(mut self) -> Result<()> {
        if !self.changed {
            return Ok(());
        }
        let deltas = std::mem::take(&mut self.counts);
        let state = &mut self.state;
        self.tx.batch(SEARCH_COUNTS, |counts| {
            for ((kind, term), delta) in deltas {
                if delta == 0 {
                    continue;
                }
                let key = count_key(kind, &term);
                let before = counts.get(key.as_slice())?;
                let after = before.as_deref().map_or(0, |v| i64::from(read_count(v))) + delta;
                if after > 0 {
                    let n = u32::try_from(after).unwrap_or(u32::MAX);
                    counts.insert(key.as_slice(), &n.to_be_bytes())?;
                    if before.is_none() {
                        state.terms += 1;
                    }
                } else if before.is_some() {
                    counts.remove(key.as_slice())?;
                    state.terms = state.terms.saturating_sub(1);
                }
            }
            Ok(())
        })?;
        if let Some(words) = self.building.take() {
            lexicon::store(self.tx, &words)?;
            self.state.fresh = 0;
        } else if self.state.fresh > FRESH_MAX {
            lexicon::merge(self.tx)?;
            self.state.fresh = 0;
            self.state.stamp += 1;
        }
        self.state.format = FORMAT;
        self.state.schema = self.schema;
        self.tx.put_record(SEARCH_META, STATE_KEY, &self.state)
    }
}
