//! The postings, grouped: a word's records of one type are kept in
//! blocks of about [`BLOCK_MAX`] bytes, each under the key
//! `(type, term, its first record's ID)`, rather than one entry a record.
//! A block holds its records in ID order, each ID written as the bytes
//! that differ from the ID before it, with its class bits and its order
//! key (for a type whose postings carry one).
//!
//! A word's records are still one range of keys, and a prefix's records
//! the blocks of the words it begins; one record's posting is the block
//! whose first ID is the last at or before its own. Against one entry a
//! posting, the term and the table's bookkeeping are written once a
//! block instead of once a record (docs/benchmarks.md, "Where the store's
//! bytes are").

use std::ops::Bound;

use super::Kind;
use crate::error::Result;
use crate::ids::Id;
use crate::store::codec::{Unpack, put_varint};
use crate::store::key::{Key, prefix_end, tail_id};
use crate::store::{Batch, Dir, Tables};

use super::tables::SEARCH_POSTINGS;

/// A block's encoded size past which it splits in two (a quarter of a
/// page, so that a leaf holds several and an update rewrites little).
pub(crate) const BLOCK_MAX: usize = 1024;

/// The key of the block of `kind`'s `term` whose first record is `first`.
fn block_key(kind: Kind, term: &str, first: Id) -> Key {
    Key::new().tag(kind.tag()).str(term).id(first)
}

/// The prefix of every block of `kind`'s `term`.
fn term_prefix(kind: Kind, term: &str) -> Vec<u8> {
    Key::new().tag(kind.tag()).str(term).into_vec()
}

/// The range whose last key is the block holding (or that would hold)
/// record `id` of `kind`'s `term`: from the term's prefix to the key of a
/// block that `id` would start, both included (read backwards, first).
fn holding(kind: Kind, term: &str, id: Id) -> (Vec<u8>, Vec<u8>) {
    (
        term_prefix(kind, term),
        block_key(kind, term, id).into_vec(),
    )
}

/// One record of a block, owned (for changing a block).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Entry {
    id: [u8; 16],
    class: u8,
    order: Vec<u8>,
}

/// The records of a block, read in place: each record's ID, class bits
/// and order key. Malformed bytes end the block early; they never panic.
pub(crate) struct Postings<'a> {
    prev: [u8; 16],
    left: u64,
    rest: Unpack<'a>,
}

impl<'a> Postings<'a> {
    /// The records of the block stored under `key` as `value`.
    pub(crate) fn read(key: &[u8], value: &'a [u8]) -> Postings<'a> {
        let prev = match key.len() >= 16 {
            true => tail_id(key).to_bytes(),
            false => [0; 16],
        };
        let mut rest = Unpack::new(value);
        let left = u64::try_from(rest.varint()).unwrap_or(0);
        Postings { prev, left, rest }
    }

    /// How many records the block stored under `value` holds (its header
    /// alone read).
    pub(crate) fn count(value: &[u8]) -> u64 {
        u64::try_from(Unpack::new(value).varint()).unwrap_or(0)
    }
}

impl<'a> Iterator for Postings<'a> {
    type Item = (Id, u8, &'a [u8]);

    fn next(&mut self) -> Option<Self::Item> {
        if self.left == 0 || self.rest.is_empty() {
            return None;
        }
        self.left -= 1;
        let shared = usize::from(self.rest.byte()).min(16);
        let suffix = self.rest.take(16 - shared)?;
        self.prev[shared..].copy_from_slice(suffix);
        let class = self.rest.byte();
        let len = usize::try_from(self.rest.varint()).ok()?;
        let order = self.rest.take(len)?;
        Some((Id::from_bytes(self.prev), class, order))
    }
}

/// The block's bytes for `entries` (in ID order; the first is the key's).
fn encode(entries: &[Entry]) -> Vec<u8> {
    let mut out = Vec::with_capacity(entries.len() * 24 + 2);
    put_varint(&mut out, entries.len() as i64);
    let mut prev = entries.first().map_or([0; 16], |e| e.id);
    for e in entries {
        let shared = prev.iter().zip(&e.id).take_while(|(a, b)| a == b).count();
        out.push(shared as u8);
        out.extend_from_slice(&e.id[shared..]);
        out.push(e.class);
        put_varint(&mut out, e.order.len() as i64);
        out.extend_from_slice(&e.order);
        prev = e.id;
    }
    out
}

fn decode(key: &[u8], value: &[u8]) -> Vec<Entry> {
    Postings::read(key, value)
        .map(|(id, class, order)| Entry {
            id: id.to_bytes(),
            class,
            order: order.to_vec(),
        })
        .collect()
}

/// The block of `kind`'s `term` that holds (or would hold) record `id`:
/// the last whose first ID is at or before `id`; with `or_first`, the
/// term's first block when every block starts after `id`.
fn block_of(
    b: &Batch<'_>,
    kind: Kind,
    term: &str,
    id: Id,
    or_first: bool,
) -> Result<Option<(Vec<u8>, Vec<u8>)>> {
    let (prefix, key) = holding(kind, term, id);
    let mut found = None;
    b.scan(
        Bound::Included(&prefix),
        Bound::Included(&key),
        Dir::Desc,
        &mut |k, v| {
            found = Some((k.to_vec(), v.to_vec()));
            Ok(false)
        },
    )?;
    if found.is_none() && or_first {
        let end = prefix_end(&prefix);
        let hi = end.as_deref().map_or(Bound::Unbounded, Bound::Excluded);
        b.scan(Bound::Included(&prefix), hi, Dir::Asc, &mut |k, v| {
            found = Some((k.to_vec(), v.to_vec()));
            Ok(false)
        })?;
    }
    Ok(found)
}

/// Writes `entries` (sorted, not empty) as the blocks in place of the
/// one stored under `old` (if any), splitting it when it grew past
/// [`BLOCK_MAX`]; how many blocks the table gained.
fn store(
    b: &mut Batch<'_>,
    kind: Kind,
    term: &str,
    old: Option<&[u8]>,
    entries: &[Entry],
) -> Result<i64> {
    let whole = encode(entries);
    let blocks: Vec<(&[Entry], Vec<u8>)> = if whole.len() > BLOCK_MAX && entries.len() > 1 {
        let (a, z) = entries.split_at(entries.len() / 2);
        vec![(a, encode(a)), (z, encode(z))]
    } else {
        vec![(entries, whole)]
    };
    let mut gained = 0i64;
    let first_key = block_key(kind, term, Id::from_bytes(entries[0].id));
    if let Some(old) = old
        && old != first_key.as_slice()
    {
        b.remove(old)?;
        gained -= 1;
    }
    for (block, value) in blocks {
        let key = block_key(kind, term, Id::from_bytes(block[0].id));
        b.insert(key.as_slice(), &value)?;
        if old != Some(key.as_slice()) {
            gained += 1;
        }
    }
    Ok(gained)
}

/// Adds record `id` to `kind`'s `term` with its class bits and order key
/// (replacing its posting if it had one); how many blocks the table
/// gained, and whether the record is new to the word.
pub(crate) fn add(
    b: &mut Batch<'_>,
    kind: Kind,
    term: &str,
    id: Id,
    class: u8,
    order: &[u8],
) -> Result<(i64, bool)> {
    let entry = Entry {
        id: id.to_bytes(),
        class,
        order: order.to_vec(),
    };
    let Some((key, value)) = block_of(b, kind, term, id, true)? else {
        return Ok((store(b, kind, term, None, &[entry])?, true));
    };
    let mut entries = decode(&key, &value);
    let new = match entries.binary_search_by(|e| e.id.cmp(&entry.id)) {
        Ok(i) => {
            entries[i] = entry;
            false
        }
        Err(i) => {
            entries.insert(i, entry);
            true
        }
    };
    Ok((store(b, kind, term, Some(&key), &entries)?, new))
}

/// Removes record `id` from `kind`'s `term`; how many blocks the table
/// gained (a block left empty is removed), and whether the record held
/// the word.
pub(crate) fn remove(b: &mut Batch<'_>, kind: Kind, term: &str, id: Id) -> Result<(i64, bool)> {
    let Some((key, value)) = block_of(b, kind, term, id, false)? else {
        return Ok((0, false));
    };
    let mut entries = decode(&key, &value);
    let Ok(i) = entries.binary_search_by(|e| e.id.cmp(&id.to_bytes())) else {
        return Ok((0, false));
    };
    entries.remove(i);
    if entries.is_empty() {
        b.remove(&key)?;
        return Ok((-1, true));
    }
    Ok((store(b, kind, term, Some(&key), &entries)?, true))
}

/// Record `id`'s posting of `kind`'s `term`: its class bits and order key.
pub(crate) fn get<T: Tables>(
    tx: &T,
    kind: Kind,
    term: &str,
    id: Id,
) -> Result<Option<(u8, Vec<u8>)>> {
    let (prefix, key) = holding(kind, term, id);
    let mut found = None;
    tx.scan(
        SEARCH_POSTINGS,
        Bound::Included(&prefix),
        Bound::Included(&key),
        Dir::Desc,
        &mut |k, v| {
            found = Postings::read(k, v)
                .find(|(i, _, _)| *i == id)
                .map(|(_, class, order)| (class, order.to_vec()));
            Ok(false)
        },
    )?;
    Ok(found)
}

/// Called by [`scan`] with a block's key, a record, its class bits and
/// its order key; `false` stops the scan.
pub(crate) type EachPosting<'a> = &'a mut dyn FnMut(&[u8], Id, u8, &[u8]) -> bool;

/// Calls `each` with every posting of the blocks whose keys begin with
/// `prefix` (a word's, or the words a beginning begins): the block's key
/// (its length tells the word's), the record, its class bits and its
/// order key, until `each` says stop.
pub(crate) fn scan<T: Tables>(tx: &T, prefix: &[u8], each: EachPosting<'_>) -> Result<()> {
    tx.scan_prefix(SEARCH_POSTINGS, prefix, Dir::Asc, &mut |k, v| {
        for (id, class, order) in Postings::read(k, v) {
            if !each(k, id, class, order) {
                return Ok(false);
            }
        }
        Ok(true)
    })
}

/// How many postings the blocks whose keys begin with `prefix` hold,
/// counted up to one block past `cap`.
pub(crate) fn count_under<T: Tables>(tx: &T, prefix: &[u8], cap: u64) -> Result<u64> {
    let mut n = 0;
    tx.scan_prefix(SEARCH_POSTINGS, prefix, Dir::Asc, &mut |_, v| {
        n += Postings::count(v);
        Ok(n <= cap)
    })?;
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(n: u128) -> [u8; 16] {
        n.to_be_bytes()
    }

    #[test]
    fn a_block_reads_back_what_was_written() {
        let entries: Vec<Entry> = [
            (1u128 << 100, 1u8, vec![]),
            ((1 << 100) + 5, 2, vec![0, 1, 2]),
            ((1 << 100) + 260, 3, vec![9; 20]),
            (u128::MAX, 4, vec![]),
        ]
        .into_iter()
        .map(|(n, class, order)| Entry {
            id: id(n),
            class,
            order,
        })
        .collect();
        let bytes = encode(&entries);
        let key = block_key(Kind::Task, "word", Id::from_bytes(entries[0].id));
        assert_eq!(decode(key.as_slice(), &bytes), entries);
        assert_eq!(Postings::count(&bytes), 4);
        // The second ID shares all but its last byte with the first.
        assert!(bytes.len() < 4 * 16, "{} bytes", bytes.len());
    }

    /// Records added, changed and removed in a shuffled order against a
    /// model: every record is found by `get`, `scan` and `count_under`
    /// exactly while the model holds it, blocks split and go as they
    /// should, and the table holds as many blocks as the changes counted.
    #[test]
    fn blocks_follow_adds_and_removes_in_any_order() {
        use std::collections::BTreeMap;
        let store = crate::store::Store::in_memory().unwrap();
        let tx = store.begin_write().unwrap();
        tx.ensure(SEARCH_POSTINGS).unwrap();
        /// (term, ID) → (class bits, order key).
        type Model<'t> = BTreeMap<(&'t str, [u8; 16]), (u8, Vec<u8>)>;
        let mut model: Model<'_> = BTreeMap::new();
        let mut blocks = 0i64;
        // A small linear congruential generator: the order is shuffled
        // but the same on every run.
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = |n: u64| {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            (seed >> 33) % n
        };
        let terms = ["oil", "oily", "engine"];
        for step in 0..3_000u32 {
            let term = terms[next(3) as usize];
            // IDs of two kinds: close together (sharing most bytes) and
            // spread out.
            let n = next(600);
            let raw = if n % 2 == 0 {
                1u128 << 90 | u128::from(n)
            } else {
                u128::from(n) << 80
            };
            let id = Id::from_bytes(raw.to_be_bytes());
            let order = vec![(step % 7) as u8; (step % 3) as usize * 9];
            tx.batch(SEARCH_POSTINGS, |b| {
                if next(3) == 0 {
                    let (gained, held) = remove(b, Kind::Task, term, id)?;
                    blocks += gained;
                    assert_eq!(held, model.remove(&(term, id.to_bytes())).is_some());
                } else {
                    let class = (step % 4) as u8 + 1;
                    let (gained, new) = add(b, Kind::Task, term, id, class, &order)?;
                    blocks += gained;
                    assert_eq!(
                        new,
                        model
                            .insert((term, id.to_bytes()), (class, order))
                            .is_none()
                    );
                }
                Ok(())
            })
            .unwrap();
        }
        assert_eq!(tx.len(SEARCH_POSTINGS).unwrap() as i64, blocks);
        assert!(blocks > 6, "the words' blocks split: {blocks}");
        for term in terms {
            let want: Vec<(Id, u8, Vec<u8>)> = model
                .iter()
                .filter(|((t, _), _)| *t == term)
                .map(|((_, id), (c, o))| (Id::from_bytes(*id), *c, o.clone()))
                .collect();
            let prefix = term_prefix(Kind::Task, term);
            let mut got = Vec::new();
            scan(&tx, &prefix, &mut |k, id, class, order| {
                assert!(k.starts_with(&prefix));
                got.push((id, class, order.to_vec()));
                true
            })
            .unwrap();
            assert_eq!(got, want, "{term}");
            assert_eq!(
                count_under(&tx, &prefix, u64::MAX).unwrap(),
                want.len() as u64
            );
            for (id, class, order) in &want {
                assert_eq!(
                    get(&tx, Kind::Task, term, *id).unwrap(),
                    Some((*class, order.clone()))
                );
            }
            tx.scan_prefix(SEARCH_POSTINGS, &prefix, Dir::Asc, &mut |_, v| {
                assert!(v.len() <= BLOCK_MAX + 64, "a block of {} bytes", v.len());
                Ok(true)
            })
            .unwrap();
        }
        // "oil" begins "oily": the beginning's range holds both words.
        let both = Key::new().tag(Kind::Task.tag()).str_start("oil").into_vec();
        let n = model.keys().filter(|(t, _)| t.starts_with("oil")).count();
        assert_eq!(count_under(&tx, &both, u64::MAX).unwrap(), n as u64);
        assert_eq!(
            get(&tx, Kind::Task, "oil", Id::from_bytes([0xee; 16])).unwrap(),
            None
        );
    }

    #[test]
    fn malformed_blocks_end_early_without_panicking() {
        let key = block_key(Kind::Note, "w", Id::from_bytes(id(7)));
        for bytes in [
            &[][..],
            &[0x7f][..],
            &[4, 200, 1][..],
            &[2, 0, 1, 2, 3][..],
            &[1, 16, 0, 0xff, 0xff, 0xff, 0xff][..],
        ] {
            let _ = decode(key.as_slice(), bytes);
            let _ = Postings::count(bytes);
        }
    }
}

#[cfg(test)]
mod migration {
    use crate::Organiser;
    use crate::resources::search::SearchQuery;
    use crate::resources::tasks::TaskInput;
    use crate::search_index::tables::{FORMER_TERMS, SEARCH_META, SEARCH_POSTINGS};
    use crate::store::{Dir, Store, Tables, Tbl};

    fn titles(org: &Organiser, q: &str) -> Vec<String> {
        let mut found: Vec<String> = org
            .search()
            .find(&SearchQuery::new(q))
            .unwrap()
            .into_iter()
            .flat_map(|g| g.results)
            .map(|r| r.title)
            .collect();
        found.sort();
        found
    }

    /// A store of schema 19 (one entry a posting in `search_terms`, index
    /// format 4) is migrated in place when it opens: the former table
    /// dropped, the postings grouped, the file rewritten in key order (no
    /// bigger than the same store compacted by hand), and search answers
    /// as it did.
    #[test]
    fn a_store_of_schema_19_is_migrated_to_grouped_postings_and_rewritten() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(crate::STORE_FILE);
        {
            let org = Organiser::open(dir.path()).unwrap();
            for n in 0..600 {
                let title = format!("Change the engine oil {n} of fleet {}", n % 7);
                org.tasks().create(TaskInput::titled(&title)).unwrap();
            }
        }
        let before = {
            let org = Organiser::open(dir.path()).unwrap();
            (
                titles(&org, "engine 42"),
                titles(&org, "enigne 17"),
                titles(&org, "fle 3 oil 10"),
            )
        };
        assert!(
            before
                .0
                .iter()
                .any(|t| t == "Change the engine oil 42 of fleet 0")
        );
        assert!(!before.1.is_empty() && !before.2.is_empty(), "{before:?}");
        // Back to schema 19: each posting one entry of `search_terms`
        // ((type, term, id) → class bits, order key), the grouped table
        // gone, the index's state of format 4.
        {
            let store = Store::open(&path).unwrap();
            let tx = store.begin_write().unwrap();
            let mut former = Vec::new();
            tx.scan_prefix(SEARCH_POSTINGS, &[], Dir::Asc, &mut |k, v| {
                let term_key = &k[..k.len() - 16];
                for (id, class, order) in super::Postings::read(k, v) {
                    let mut key = term_key.to_vec();
                    key.extend_from_slice(&id.to_bytes());
                    let mut value = vec![class];
                    value.extend_from_slice(order);
                    former.push((key, value));
                }
                Ok(true)
            })
            .unwrap();
            assert!(former.len() > 3_000, "{} postings", former.len());
            let terms: Tbl = crate::store::schema::table(FORMER_TERMS);
            tx.ensure(terms).unwrap();
            for (k, v) in &former {
                tx.insert(terms, k, v).unwrap();
            }
            tx.drop_table("search_postings").unwrap();
            tx.insert(SEARCH_META, b"state", &[1, 4, 19]).unwrap();
            tx.insert(
                crate::store::schema::META,
                b"schema_version",
                &19u32.to_be_bytes(),
            )
            .unwrap();
            tx.commit().unwrap();
        }
        let migrated_from = std::fs::metadata(&path).unwrap().len();
        let org = Organiser::open(dir.path()).unwrap();
        let after = (
            titles(&org, "engine 42"),
            titles(&org, "enigne 17"),
            titles(&org, "fle 3 oil 10"),
        );
        assert_eq!(after, before);
        let names: Vec<String> = org
            .table_sizes()
            .unwrap()
            .into_iter()
            .map(|t| t.name)
            .collect();
        assert!(!names.iter().any(|n| n == FORMER_TERMS), "{names:?}");
        assert!(names.iter().any(|n| n == "search_postings"));
        // Still healthy: opened again, it is not rebuilt (nor rewritten).
        drop(org);
        let rewritten = std::fs::metadata(&path).unwrap().len();
        let org = Organiser::open(dir.path()).unwrap();
        assert_eq!(titles(&org, "engine 42"), before.0);
        drop(org);
        assert_eq!(std::fs::metadata(&path).unwrap().len(), rewritten);
        assert!(
            rewritten < migrated_from * 3 / 4,
            "{migrated_from} bytes before the migration, {rewritten} after"
        );
        Store::compact_file(&path).unwrap();
        let by_hand = std::fs::metadata(&path).unwrap().len();
        assert!(
            rewritten <= by_hand + 64 * 1024,
            "{rewritten} rewritten, {by_hand} compacted by hand"
        );
    }
}
