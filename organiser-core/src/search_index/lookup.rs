//! The matching (document 1, "Search"; docs/api.md "Search"). A query is
//! its folded words, each looked up whole, by its beginning, and (for the
//! words of names, from 4 letters) misspelt; a record matches when every
//! word matches one of its words, or, for people, when the query's digits
//! are in one of their phone numbers. A record ranks by how well its
//! worst-matched word matched (whole, then beginning, then misspelt),
//! then by its type's own order, then by ID.
//!
//! The plan, type by type ([`SearchPlan`] holds its thresholds): each
//! query word's range (the word, the words it begins, its misspellings)
//! is sized from `search_counts` first. The records are found from the
//! rarest word's range, read whole (its postings carry each record's
//! order key); each other word, rarest first, then narrows the candidates:
//! its range read whole when it is small beside them, else each
//! candidate's posting of the word looked up, and its stored words read
//! only when that misses (a beginning or a misspelling). When every word
//! is common (a letter or two), the type's order is walked instead,
//! checking each record's stored words, which finds the first results
//! after a few records; the whole-word matches are found first from the
//! words' own postings, so the walk stops once enough beginnings are
//! found. A walk that reads more records than the rarest range would cost
//! (the matches are sparse) gives up for the ranges.

use std::collections::{HashMap, HashSet};

use super::index::{DocRef, count, doc_bytes, order_of, prefix_count};
use super::lexicon::Lexicon;
use super::postings;
use super::tables::SEARCH_ORDER;
use super::words::{self, PHONE};
use super::{Kind, SearchPlan, class};
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

    /// How well a record with these words (and class bits) matches, if
    /// it does.
    pub(crate) fn tier<'t>(
        &self,
        terms: impl Iterator<Item = (&'t str, u8)> + Clone,
    ) -> Option<Tier> {
        let words = (!self.words.is_empty())
            .then(|| {
                self.words.iter().try_fold(EXACT, |worst, w| {
                    let best = terms.clone().filter_map(|(t, c)| w.tier(t, c)).min()?;
                    Some(worst.max(best))
                })
            })
            .flatten();
        let phone = terms.filter_map(|(t, c)| self.phone_tier(t, c)).min();
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
    /// Its misspellings a record of `kind` may hold.
    fn near(&self, kind: Kind) -> &[String] {
        match kind.misspellings() {
            true => &self.near,
            false => &[],
        }
    }

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

/// How much sooner a type whose postings carry no order walks it.
const ORDERLESS_WALK_SOONER: u64 = 16;

/// Postings counted of a word's range, in walks' thresholds, before it
/// counts as "very common" (the plan needs no more).
const COUNT_UP_TO: u64 = 64;

/// A query word of one type: the word, and how many postings its range
/// (the word, the words it begins, its misspellings) holds.
struct Planned<'q> {
    word: &'q Word,
    postings: u64,
}

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
    let plan = cx.org.options.search_plan;
    let mut planned = Vec::with_capacity(query.words.len());
    // Without orders in the postings, each candidate's order is a read of
    // its own: walk sooner.
    let walk_from = match kind.order_in_postings() {
        true => plan.walk_from,
        false => plan.walk_from / ORDERLESS_WALK_SOONER,
    };
    for word in &query.words {
        let mut postings = match kind.counted() {
            true => prefix_count(&cx.tx, kind, &word.text, COUNT_UP_TO * plan.walk_from)?,
            false => read_up_to(cx, kind, &word.text, walk_from)?,
        };
        for near in word.near(kind) {
            postings += count(&cx.tx, kind, near)?;
        }
        planned.push(Planned { word, postings });
    }
    planned.sort_by_key(|p| p.postings);
    let rarest = planned.first().map_or(0, |p| p.postings);
    let walked = match rarest > walk_from {
        true => walk(cx, kind, query, &planned, need, plan, walk_from)?,
        false => None,
    };
    let mut hits: HashMap<Id, (Tier, Vec<u8>)> = match walked {
        Some(walked) => walked
            .into_iter()
            .map(|(tier, order, id)| (id, (tier, order)))
            .collect(),
        None if rarest > 0 => by_rarest(cx, kind, &planned, plan)?,
        None => HashMap::new(),
    };
    if !query.phones.is_empty() {
        for (id, (tier, order)) in read_phones(cx, kind, query)? {
            keep_best(&mut hits, id, tier, &order);
        }
    }
    if !kind.order_in_postings() {
        for (id, (_, order)) in hits.iter_mut() {
            if order.is_empty() {
                *order = order_of(&cx.tx, kind, *id)?.unwrap_or_default();
            }
        }
    }
    Ok(ranked(
        hits.into_iter()
            .map(|(id, (tier, order))| (tier, order, id)),
        limit,
    ))
}

/// How many postings of `kind` the words beginning with `text` hold, read
/// up to one more than `cap` (for a type whose words are not counted).
fn read_up_to<T: Tables>(cx: &Cx<'_, T>, kind: Kind, text: &str, cap: u64) -> Result<u64> {
    postings::count_under(
        &cx.tx,
        Key::new().tag(kind.tag()).str_start(text).as_slice(),
        cap,
    )
}

/// A record holding a word, with its order key.
type Posting = (Id, Vec<u8>);

/// The records of `kind` holding the word `text` itself, with their order
/// keys; `None` when there are more than `cap`.
fn whole_postings<T: Tables>(
    cx: &Cx<'_, T>,
    kind: Kind,
    text: &str,
    cap: u64,
) -> Result<Option<Vec<Posting>>> {
    let mut postings = Vec::new();
    let mut over = false;
    postings::scan(
        &cx.tx,
        Key::new().tag(kind.tag()).str(text).as_slice(),
        &mut |_, id, class, order| {
            if class & (class::NAME | class::WORD) != 0 {
                postings.push((id, order.to_vec()));
            }
            over = postings.len() as u64 > cap;
            !over
        },
    )?;
    Ok((!over).then_some(postings))
}

/// Whether record `id` of `kind` holds `word` itself (its posting).
fn holds_whole<T: Tables>(cx: &Cx<'_, T>, kind: Kind, word: &Word, id: Id) -> Result<bool> {
    let posting = postings::get(&cx.tx, kind, &word.text, id)?;
    Ok(posting.is_some_and(|(c, _)| c & (class::NAME | class::WORD) != 0))
}

/// Keeps `tier` for `id` in `hits` when it is better than the one found
/// before (the first find brings the order key).
fn keep_best(hits: &mut HashMap<Id, (Tier, Vec<u8>)>, id: Id, tier: Tier, order: &[u8]) {
    let entry = hits.entry(id).or_insert_with(|| (tier, order.to_vec()));
    entry.0 = entry.0.min(tier);
}

/// The first `limit` hits in rank order, and whether there were more.
fn ranked(hits: impl Iterator<Item = Hit>, limit: usize) -> (Vec<Id>, bool) {
    let mut hits: Vec<Hit> = hits.collect();
    hits.sort_unstable();
    let more = hits.len() > limit;
    (
        hits.into_iter().take(limit).map(|(_, _, id)| id).collect(),
        more,
    )
}

/// Every record every word matches, starting from the rarest word's
/// range; each other word, from the rarest on, is read whole when its
/// range is small beside the candidates left, else looked up for each
/// candidate (its posting of the word, then its stored words).
fn by_rarest<T: Tables>(
    cx: &Cx<'_, T>,
    kind: Kind,
    planned: &[Planned<'_>],
    plan: SearchPlan,
) -> Result<HashMap<Id, (Tier, Vec<u8>)>> {
    let Some((first, rest)) = planned.split_first() else {
        return Ok(HashMap::new());
    };
    let mut hits: HashMap<Id, (Tier, Vec<u8>)> = HashMap::new();
    read_word(cx, kind, first.word, &mut |id, tier, order| {
        keep_best(&mut hits, id, tier, order)
    })?;
    let mut stored: HashMap<Id, Option<Vec<u8>>> = HashMap::new();
    for p in rest {
        if hits.is_empty() {
            break;
        }
        if p.postings <= plan.read_per_candidate.saturating_mul(hits.len() as u64) {
            let mut found: HashMap<Id, Tier> = HashMap::with_capacity(hits.len());
            read_word(cx, kind, p.word, &mut |id, tier, _| {
                if hits.contains_key(&id) {
                    let t = found.entry(id).or_insert(tier);
                    *t = (*t).min(tier);
                }
            })?;
            hits.retain(|id, (tier, _)| match found.get(id) {
                Some(t) => {
                    *tier = (*tier).max(*t);
                    true
                }
                None => false,
            });
        } else {
            let mut gone = Vec::new();
            for (id, (tier, _)) in hits.iter_mut() {
                match probe(cx, kind, p.word, *id, &mut stored)? {
                    Some(t) => *tier = (*tier).max(t),
                    None => gone.push(*id),
                }
            }
            for id in gone {
                hits.remove(&id);
            }
        }
    }
    Ok(hits)
}

/// How well `word` matches record `id`: a whole word when it holds the
/// word's posting, else as its stored words say (kept in `stored`).
fn probe<T: Tables>(
    cx: &Cx<'_, T>,
    kind: Kind,
    word: &Word,
    id: Id,
    stored: &mut HashMap<Id, Option<Vec<u8>>>,
) -> Result<Option<Tier>> {
    if holds_whole(cx, kind, word, id)? {
        return Ok(Some(EXACT));
    }
    let bytes = match stored.entry(id) {
        std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
        std::collections::hash_map::Entry::Vacant(e) => e.insert(doc_bytes(&cx.tx, kind, id)?),
    };
    Ok(bytes
        .as_deref()
        .and_then(DocRef::read)
        .and_then(|doc| doc.terms.iter().filter_map(|(t, c)| word.tier(t, *c)).min()))
}

/// Reads `word`'s range of `kind` (the word, the words it begins, its
/// misspellings among names), handing each posting's record, how well it
/// matches, and its order key to `each`.
fn read_word<T: Tables>(
    cx: &Cx<'_, T>,
    kind: Kind,
    w: &Word,
    each: &mut dyn FnMut(Id, Tier, &[u8]),
) -> Result<()> {
    let whole = Key::new().tag(kind.tag()).str(&w.text).into_vec().len() + 16;
    postings::scan(
        &cx.tx,
        Key::new().tag(kind.tag()).str_start(&w.text).as_slice(),
        &mut |k, id, class, order| {
            if class & (class::NAME | class::WORD) != 0 {
                let tier = if k.len() == whole { EXACT } else { PREFIX };
                each(id, tier, order);
            }
            true
        },
    )?;
    for near in w.near(kind) {
        postings::scan(
            &cx.tx,
            Key::new().tag(kind.tag()).str(near).as_slice(),
            &mut |_, id, class, order| {
                if class & class::NAME != 0 {
                    each(id, MISSPELT, order);
                }
                true
            },
        )?;
    }
    Ok(())
}

/// The records whose phone numbers hold the query's digits.
fn read_phones<T: Tables>(
    cx: &Cx<'_, T>,
    kind: Kind,
    query: &Query,
) -> Result<HashMap<Id, (Tier, Vec<u8>)>> {
    let mut found: HashMap<Id, (Tier, Vec<u8>)> = HashMap::new();
    for digits in &query.phones {
        let mut term = String::from(PHONE);
        term.push_str(digits);
        let whole = Key::new().tag(kind.tag()).str(&term).into_vec().len() + 16;
        postings::scan(
            &cx.tx,
            Key::new().tag(kind.tag()).str_start(&term).as_slice(),
            &mut |k, id, class, order| {
                if class & class::PHONE != 0 {
                    let tier = if k.len() == whole && class & class::WHOLE_PHONE != 0 {
                        EXACT
                    } else {
                        PREFIX
                    };
                    keep_best(&mut found, id, tier, order);
                }
                true
            },
        )?;
    }
    Ok(found)
}

/// The best `need` matches when every word is common, found by walking
/// the type's order and checking each record's stored words, which finds
/// them after reading a few records. The whole-word matches are found
/// first from the words' own postings when the rarest word's are few, so
/// that the walk stops once enough beginnings are found; else it stops
/// once `need` whole-word matches are. `None` when the walk reads more
/// records than reading the rarest word's range would cost (the matches
/// are sparse): the caller reads the ranges instead.
fn walk<T: Tables>(
    cx: &Cx<'_, T>,
    kind: Kind,
    query: &Query,
    planned: &[Planned<'_>],
    need: usize,
    plan: SearchPlan,
    walk_from: u64,
) -> Result<Option<Vec<Hit>>> {
    let mut budget = planned.first().map_or(0, |p| p.postings) / plan.read_per_candidate.max(1);
    if !kind.counted() {
        // The rarest range's size is known only up to `walk_from`.
        budget = budget.max(walk_from / 2);
    }
    // The whole-word matches, when the rarest word's own postings are few:
    // that word's postings, kept when every other word's posting is there.
    let rarest_whole = match kind.counted() {
        true => {
            let mut rarest = (u64::MAX, None);
            for p in planned {
                let n = count(&cx.tx, kind, &p.word.text)?;
                if n < rarest.0 {
                    rarest = (n, Some(p.word));
                }
            }
            match rarest {
                (n, Some(word)) if n <= walk_from => {
                    whole_postings(cx, kind, &word.text, u64::MAX)?.map(|ps| (word, ps))
                }
                _ => None,
            }
        }
        false => {
            let mut rarest: Option<(&Word, Vec<Posting>)> = None;
            for p in planned {
                if let Some(ps) = whole_postings(cx, kind, &p.word.text, walk_from)?
                    && rarest.as_ref().is_none_or(|(_, r)| ps.len() < r.len())
                {
                    rarest = Some((p.word, ps));
                }
            }
            rarest
        }
    };
    let mut whole: Option<Vec<Hit>> = None;
    if let Some((word, postings)) = rarest_whole {
        let mut found = Vec::new();
        'postings: for (id, order) in postings {
            for other in query.words.iter().filter(|w| w.text != word.text) {
                if !holds_whole(cx, kind, other, id)? {
                    continue 'postings;
                }
            }
            found.push((EXACT, order, id));
        }
        whole = Some(found);
    }
    let known: HashSet<Id> = whole.iter().flatten().map(|(_, _, id)| *id).collect();
    let mut by_tier: [Vec<Hit>; 3] = Default::default();
    let mut read = 0u64;
    let mut abandoned = false;
    let prefix = Key::new().tag(kind.tag()).into_vec();
    cx.scan_prefix(SEARCH_ORDER, &prefix, Dir::Asc, &mut |k, _| {
        read += 1;
        if read > budget {
            abandoned = true;
            return Ok(false);
        }
        let id = tail_id(k);
        if known.contains(&id) {
            return Ok(true);
        }
        let Some(bytes) = doc_bytes(&cx.tx, kind, id)? else {
            return Ok(true);
        };
        if let Some(tier) = DocRef::read(&bytes).and_then(|d| query.tier(d.terms.iter().copied())) {
            let list = &mut by_tier[usize::from(tier).min(2)];
            if list.len() < need {
                list.push((tier, k[1..k.len() - 16].to_vec(), id));
            }
        }
        Ok(match &whole {
            Some(w) => w.len() + by_tier[1].len() < need,
            None => by_tier[0].len() < need,
        })
    })?;
    if abandoned {
        return Ok(None);
    }
    if let Some(w) = whole {
        by_tier[0].extend(w);
    }
    Ok(Some(by_tier.into_iter().flatten().collect()))
}

/// A word range read whole by [`Prefixed`] when it holds at most this
/// many postings.
const READ_WHOLE_UP_TO: u64 = 1_000;

/// Records [`Prefixed::holds`] checks one by one (their stored words)
/// before it reads the ranges whole instead: the matches are sparse.
const CHECK_UP_TO: u64 = 2_000;

/// The `q` of `GET /notes` and `GET /documents`: the records of `kind`
/// every word of `q` begins a word of (names and text; no misspellings).
///
/// A listing walks its order and asks [`Prefixed::holds`] of each record,
/// so a page costs what the page costs, not what the matches cost: when
/// some word is rare (its range at most [`READ_WHOLE_UP_TO`] postings)
/// the matches are found from that range at once; when every word is
/// common, each record walked is checked against its stored words, and
/// a walk that checks more than [`CHECK_UP_TO`] records (sparse matches)
/// reads the ranges instead. Only a count reads every match
/// ([`Prefixed::find_all`]).
#[derive(Debug)]
pub(crate) struct Prefixed {
    kind: Kind,
    /// The folded words, rarest first.
    words: Vec<String>,
    /// Every record that matches, once read.
    found: Option<HashSet<Id>>,
    /// Records checked one by one so far.
    checked: u64,
}

impl Prefixed {
    /// The words of `q`; `None` when it has none (no filter).
    pub(crate) fn new<T: Tables>(cx: &Cx<'_, T>, kind: Kind, q: &str) -> Result<Option<Prefixed>> {
        let folded = words::fold(q);
        let mut seen = HashSet::new();
        let mut sized = Vec::new();
        for word in words::split(&folded).filter(|w| seen.insert(*w)) {
            sized.push((
                read_up_to(cx, kind, word, READ_WHOLE_UP_TO)?,
                word.to_owned(),
            ));
        }
        sized.sort();
        let Some(&(rarest, _)) = sized.first() else {
            return Ok(None);
        };
        let mut prefixed = Prefixed {
            kind,
            words: sized.into_iter().map(|(_, w)| w).collect(),
            found: None,
            checked: 0,
        };
        if rarest <= READ_WHOLE_UP_TO {
            prefixed.find_all(cx)?;
        }
        Ok(Some(prefixed))
    }

    /// Whether record `id` matches.
    pub(crate) fn holds<T: Tables>(&mut self, cx: &Cx<'_, T>, id: Id) -> Result<bool> {
        if self.found.is_none() {
            self.checked += 1;
            if self.checked <= CHECK_UP_TO {
                return self.holds_by_its_words(cx, id);
            }
            self.find_all(cx)?;
        }
        Ok(self.found.as_ref().is_some_and(|f| f.contains(&id)))
    }

    /// Whether the words record `id` is indexed by begin with every word.
    fn holds_by_its_words<T: Tables>(&self, cx: &Cx<'_, T>, id: Id) -> Result<bool> {
        let Some(bytes) = doc_bytes(&cx.tx, self.kind, id)? else {
            return Ok(false);
        };
        Ok(DocRef::read(&bytes).is_some_and(|doc| {
            self.words.iter().all(|w| {
                doc.terms
                    .iter()
                    .any(|(t, c)| c & (class::NAME | class::WORD) != 0 && t.starts_with(w.as_str()))
            })
        }))
    }

    /// Reads every match (once): the rarest word's range, narrowed by each
    /// other word's range, or, once few are left, by their stored words.
    pub(crate) fn find_all<T: Tables>(&mut self, cx: &Cx<'_, T>) -> Result<()> {
        if self.found.is_some() {
            return Ok(());
        }
        let mut kept: Option<HashSet<Id>> = None;
        for word in &self.words {
            if let Some(few) = kept
                .as_mut()
                .filter(|k| k.len() as u64 <= READ_WHOLE_UP_TO / 4)
            {
                let mut left = HashSet::with_capacity(few.len());
                for &id in few.iter() {
                    if self.holds_by_its_words(cx, id)? {
                        left.insert(id);
                    }
                }
                kept = Some(left);
                break;
            }
            let mut ids = HashSet::new();
            postings::scan(
                &cx.tx,
                Key::new().tag(self.kind.tag()).str_start(word).as_slice(),
                &mut |_, id, class, _| {
                    if class & (class::NAME | class::WORD) != 0
                        && kept.as_ref().is_none_or(|kept| kept.contains(&id))
                    {
                        ids.insert(id);
                    }
                    true
                },
            )?;
            let done = ids.is_empty();
            kept = Some(ids);
            if done {
                break;
            }
        }
        self.found = Some(kept.unwrap_or_default());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search_index::DocBuilder;

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
            let terms = doc.terms.iter().map(|(t, c)| (t.as_str(), *c));
            assert_eq!(query(q, &lexicon).tier(terms), tier, "{q}");
        }
    }
}
