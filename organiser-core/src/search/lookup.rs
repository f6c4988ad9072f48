//! The matching (document 1, "Search"; docs/api.md "Search"). A query is
//! its folded words, each looked up whole, by its beginning, and (for the
//! words of names, from 4 letters) misspelt; a record matches when every
//! word matches one of its words, or, for people, when the query's digits
//! are in one of their phone numbers. A record ranks by how well its
//! worst-matched word matched (whole, then beginning, then misspelt),
//! then by its type's own order, then by ID.
//!
//! The records of one type are found from the query word with the fewest
//! postings: its range of the postings, which carry each record's order
//! key, is read whole when it is small; the other words are checked
//! against their own small ranges or the record's stored document. When
//! every word is common (a letter or two), the type's order is walked
//! instead, checking each record's document, which finds the first
//! results after reading a few records.

use std::collections::{HashMap, HashSet};

use super::index::{doc, term_key};
use super::lexicon::Lexicon;
use super::tables::{SEARCH_ORDER, SEARCH_TERMS};
use super::words::{self, PHONE};
use super::{Doc, Kind, class};
use crate::engine::Cx;
use crate::error::Result;
use crate::ids::Id;
use crate::store::key::{Key, tail_id};
use crate::store::{Dir, Tables};

/// How well a record matched: [`EXACT`], [`PREFIX`] or [`MISSPELT`]
/// (smaller is better).
pub(crate) type Tier = u8;
/// Every word matched a whole word.
pub(crate) const EXACT: Tier = 0;
/// Some word matched only the beginning of a word.
pub(crate) const PREFIX: Tier = 1;
/// Some word matched only a misspelling.
pub(crate) const MISSPELT: Tier = 2;

/// Postings read from one word's range before it counts as common and
/// the type's order is walked instead.
const SMALL: usize = 4_000;

/// A query word.
#[derive(Debug, Clone)]
struct Word {
    text: String,
    /// The lexicon's words within this word's edits, other than the word
    /// and the words it begins (sorted).
    near: Vec<String>,
}

/// A parsed query: its words, and the digits it is looked up by among
/// phone numbers.
#[derive(Debug, Clone, Default)]
pub(crate) struct Query {
    words: Vec<Word>,
    phones: Vec<String>,
}

impl Query {
    /// `q`'s words, with their misspellings looked up in `lexicon`.
    pub(crate) fn new(q: &str, lexicon: &Lexicon) -> Query {
        let folded = words::fold(&words::without_schemes(q));
        let mut seen = HashSet::new();
        let words = words::split(&folded)
            .filter(|w| seen.insert(*w))
            .map(|w| Word {
                text: w.to_owned(),
                near: lexicon
                    .near(w, words::edits(w))
                    .into_iter()
                    .filter(|n| !n.starts_with(w))
                    .collect(),
            })
            .collect();
        Query {
            words,
            phones: words::phone_query(q),
        }
    }

    /// Whether the query can match nothing (no words, no digits).
    pub(crate) fn is_empty(&self) -> bool {
        self.words.is_empty() && self.phones.is_empty()
    }

    /// How well `doc` matches, if it does.
    pub(crate) fn tier(&self, doc: &Doc) -> Option<Tier> {
        let words = (!self.words.is_empty())
            .then(|| {
                self.words.iter().try_fold(EXACT, |worst, w| {
                    let best = doc.terms.iter().filter_map(|(t, c)| w.tier(t, *c)).min()?;
                    Some(worst.max(best))
                })
            })
            .flatten();
        let phone = doc
            .terms
            .iter()
            .filter_map(|(t, c)| self.phone_tier(t, *c))
            .min();
        words.into_iter().chain(phone).min()
    }

    /// How well a phone term matches the query's digits.
    fn phone_tier(&self, term: &str, class: u8) -> Option<Tier> {
        if class & class::PHONE == 0 {
            return None;
        }
        let digits = term.strip_prefix(PHONE)?;
        self.phones
            .iter()
            .filter(|p| digits.starts_with(p.as_str()))
            .map(|p| {
                if class & class::WHOLE_PHONE != 0 && digits == p {
                    EXACT
                } else {
                    PREFIX
                }
            })
            .min()
    }
}

impl Word {
    /// How well this word matches a record's word of `class`.
    fn tier(&self, term: &str, class: u8) -> Option<Tier> {
        if class & (class::NAME | class::WORD) == 0 {
            return None;
        }
        if term == self.text {
            Some(EXACT)
        } else if term.starts_with(&self.text) {
            Some(PREFIX)
        } else if class & class::NAME != 0
            && self.near.binary_search_by(|n| n.as_str().cmp(term)).is_ok()
        {
            Some(MISSPELT)
        } else {
            None
        }
    }
}

/// A record found: how well it matched, its order key, its ID.
type Hit = (Tier, Vec<u8>, Id);

/// The best `limit` records of `kind` for `query`, best first, and
/// whether more match.
pub(crate) fn best<T: Tables>(
    cx: &Cx<'_, T>,
    kind: Kind,
    query: &Query,
    limit: usize,
) -> Result<(Vec<Id>, bool)> {
    if query.is_empty() || limit == 0 {
        return Ok((Vec::new(), false));
    }
    let need = limit + 1;
    let mut hits = match small_ranges(cx, kind, query)? {
        Some(hits) => hits,
        None => walk(cx, kind, query, need)?,
    };
    hits.sort_unstable();
    let more = hits.len() > limit;
    Ok((
        hits.into_iter().take(limit).map(|(_, _, id)| id).collect(),
        more,
    ))
}

/// The records one word's range finds: ID → (tier, order key); `None`
/// when the range holds more than [`SMALL`] postings.
type Found = HashMap<Id, (Tier, Vec<u8>)>;

fn read_word<T: Tables>(cx: &Cx<'_, T>, kind: Kind, w: &Word) -> Result<Option<Found>> {
    let mut found = Found::new();
    let mut read = 0;
    let keep = |tier: Option<Tier>, k: &[u8], v: &[u8], found: &mut Found| {
        let (Some(tier), Some((_, order))) = (tier, v.split_first()) else {
            return;
        };
        let entry = found.entry(tail_id(k)).or_insert((tier, order.to_vec()));
        entry.0 = entry.0.min(tier);
    };
    let whole = Key::new().tag(kind.tag()).str(&w.text).into_vec().len() + 16;
    let mut small = true;
    cx.scan_prefix(
        SEARCH_TERMS,
        Key::new().tag(kind.tag()).str_start(&w.text).as_slice(),
        Dir::Asc,
        &mut |k, v| {
            read += 1;
            if read > SMALL {
                small = false;
                return Ok(false);
            }
            let class = v.first().copied().unwrap_or(0);
            let tier = (class & (class::NAME | class::WORD) != 0).then_some(if k.len() == whole {
                EXACT
            } else {
                PREFIX
            });
            keep(tier, k, v, &mut found);
            Ok(true)
        },
    )?;
    if !small {
        return Ok(None);
    }
    for near in &w.near {
        cx.scan_prefix(
            SEARCH_TERMS,
            Key::new().tag(kind.tag()).str(near).as_slice(),
            Dir::Asc,
            &mut |k, v| {
                read += 1;
                let class = v.first().copied().unwrap_or(0);
                keep(
                    (class & class::NAME != 0).then_some(MISSPELT),
                    k,
                    v,
                    &mut found,
                );
                Ok(read <= SMALL)
            },
        )?;
        if read > SMALL {
            return Ok(None);
        }
    }
    Ok(Some(found))
}

/// The records whose phone numbers hold the query's digits.
fn read_phones<T: Tables>(cx: &Cx<'_, T>, kind: Kind, query: &Query) -> Result<Found> {
    let mut found = Found::new();
    for digits in &query.phones {
        let mut term = String::from(PHONE);
        term.push_str(digits);
        cx.scan_prefix(
            SEARCH_TERMS,
            Key::new().tag(kind.tag()).str_start(&term).as_slice(),
            Dir::Asc,
            &mut |k, v| {
                let Some((&class, order)) = v.split_first() else {
                    return Ok(true);
                };
                let whole = k.len()
                    == term_key(kind, &term, Id::from_bytes([0; 16]))
                        .as_slice()
                        .len();
                if class & class::PHONE != 0 {
                    let tier = if whole && class & class::WHOLE_PHONE != 0 {
                        EXACT
                    } else {
                        PREFIX
                    };
                    let entry = found.entry(tail_id(k)).or_insert((tier, order.to_vec()));
                    entry.0 = entry.0.min(tier);
                }
                Ok(true)
            },
        )?;
    }
    Ok(found)
}

/// Every match, found from the rarest word's range; `None` when every
/// word is common.
fn small_ranges<T: Tables>(cx: &Cx<'_, T>, kind: Kind, query: &Query) -> Result<Option<Vec<Hit>>> {
    let mut ranges: Vec<Option<Found>> = Vec::with_capacity(query.words.len());
    for w in &query.words {
        let found = read_word(cx, kind, w)?;
        // A word that matches nothing: no record has every word.
        let none = found.as_ref().is_some_and(HashMap::is_empty);
        ranges.push(found);
        if none {
            break;
        }
    }
    let driver = ranges
        .iter()
        .enumerate()
        .filter_map(|(i, f)| f.as_ref().map(|f| (f.len(), i)))
        .min();
    if driver.is_none() && !query.words.is_empty() {
        return Ok(None);
    }
    let mut hits: HashMap<Id, (Tier, Vec<u8>)> = HashMap::new();
    if let Some((_, d)) = driver {
        let words_complete = ranges.len() == query.words.len();
        for (&id, (tier, order)) in ranges[d].as_ref().into_iter().flatten() {
            if !words_complete {
                break;
            }
            let mut worst = *tier;
            let mut stored: Option<Option<Doc>> = None;
            let mut matched = true;
            for (j, w) in query.words.iter().enumerate() {
                if j == d {
                    continue;
                }
                let t = match &ranges[j] {
                    Some(found) => found.get(&id).map(|(t, _)| *t),
                    None => {
                        let document = match &stored {
                            Some(d) => d,
                            None => stored.insert(doc(&cx.tx, kind, id)?),
                        };
                        document
                            .as_ref()
                            .and_then(|d| d.terms.iter().filter_map(|(t, c)| w.tier(t, *c)).min())
                    }
                };
                match t {
                    Some(t) => worst = worst.max(t),
                    None => {
                        matched = false;
                        break;
                    }
                }
            }
            if matched {
                hits.insert(id, (worst, order.clone()));
            }
        }
    }
    if !query.phones.is_empty() {
        for (id, (tier, order)) in read_phones(cx, kind, query)? {
            let entry = hits.entry(id).or_insert((tier, order));
            entry.0 = entry.0.min(tier);
        }
    }
    Ok(Some(
        hits.into_iter()
            .map(|(id, (tier, order))| (tier, order, id))
            .collect(),
    ))
}

/// The best `need` matches, found by walking the type's order and
/// checking each record's document: it stops once `need` whole-word
/// matches are found (none can rank above them), else reads the type.
fn walk<T: Tables>(cx: &Cx<'_, T>, kind: Kind, query: &Query, need: usize) -> Result<Vec<Hit>> {
    let mut by_tier: [Vec<Hit>; 3] = Default::default();
    let prefix = Key::new().tag(kind.tag()).into_vec();
    cx.scan_prefix(SEARCH_ORDER, &prefix, Dir::Asc, &mut |k, _| {
        let id = tail_id(k);
        let Some(document) = doc(&cx.tx, kind, id)? else {
            return Ok(true);
        };
        if let Some(tier) = query.tier(&document) {
            let list = &mut by_tier[usize::from(tier).min(2)];
            if list.len() < need {
                list.push((tier, k[1..k.len() - 16].to_vec(), id));
            }
        }
        Ok(by_tier[0].len() < need)
    })?;
    Ok(by_tier.into_iter().flatten().collect())
}

/// The live records of `kind` every word of `q` begins a word of (the
/// `q` of `GET /notes` and `GET /documents`); `None` when `q` has no
/// words (no filter).
pub(crate) fn prefixed<T: Tables>(
    cx: &Cx<'_, T>,
    kind: Kind,
    q: &str,
) -> Result<Option<HashSet<Id>>> {
    let folded = words::fold(q);
    let mut kept: Option<HashSet<Id>> = None;
    for word in words::split(&folded) {
        let mut ids = HashSet::new();
        cx.scan_prefix(
            SEARCH_TERMS,
            Key::new().tag(kind.tag()).str_start(word).as_slice(),
            Dir::Asc,
            &mut |k, v| {
                if v.first()
                    .is_some_and(|c| c & (class::NAME | class::WORD) != 0)
                {
                    let id = tail_id(k);
                    if kept.as_ref().is_none_or(|kept| kept.contains(&id)) {
                        ids.insert(id);
                    }
                }
                Ok(true)
            },
        )?;
        kept = Some(ids);
    }
    Ok(kept)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::DocBuilder;

    fn query(q: &str, lexicon: &[&str]) -> Query {
        let mut words: Vec<&str> = lexicon.to_vec();
        words.sort_unstable();
        let set = fst::Set::from_iter(words).unwrap();
        let l = Lexicon::for_tests(set);
        Query::new(q, &l)
    }

    #[test]
    fn a_record_ranks_by_its_worst_matched_word() {
        let doc = DocBuilder::new(Key::new())
            .text("Quarterly Report Review", class::NAME)
            .text("ops@example.com", class::WORD)
            .phone("+44 20 7946 0958")
            .build();
        let lexicon = ["quarterly", "report", "review", "ops", "example", "com"];
        for (q, tier) in [
            ("report", Some(EXACT)),
            ("REPÖRT review", Some(EXACT)),
            ("rep", Some(PREFIX)),
            ("report rev", Some(PREFIX)),
            ("reprot", Some(MISSPELT)),
            ("quartelry rev", Some(MISSPELT)),
            ("quaterly", Some(MISSPELT)),
            ("example.com", Some(EXACT)),
            ("exampel", None),
            ("report zebra", None),
            ("020 7946 0958", Some(PREFIX)),
            ("+44 20 7946 0958", Some(EXACT)),
            ("7946-09", Some(PREFIX)),
            ("79", None),
            ("", None),
        ] {
            assert_eq!(query(q, &lexicon).tier(&doc), tier, "{q}");
        }
    }
}
