//! Order-preserving keys for index tables: each part encodes so that byte
//! order equals the order of the values, and parts concatenate.

use jiff::Timestamp;
use jiff::civil::Date;

use crate::ids::Id;

/// A key under construction.
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Key(Vec<u8>);

impl Key {
    pub(crate) fn new() -> Self {
        Key(Vec::with_capacity(48))
    }

    /// A one-byte tag, for separating kinds of entries in one table.
    pub(crate) fn tag(mut self, tag: u8) -> Self {
        self.0.push(tag);
        self
    }

    pub(crate) fn u64(mut self, v: u64) -> Self {
        self.0.extend_from_slice(&v.to_be_bytes());
        self
    }

    pub(crate) fn i64(self, v: i64) -> Self {
        self.u64((v as u64) ^ (1 << 63))
    }

    pub(crate) fn i32(mut self, v: i32) -> Self {
        self.0
            .extend_from_slice(&((v as u32) ^ (1 << 31)).to_be_bytes());
        self
    }

    pub(crate) fn id(mut self, id: Id) -> Self {
        self.0.extend_from_slice(&id.to_bytes());
        self
    }

    pub(crate) fn timestamp(self, t: Timestamp) -> Self {
        self.i64(t.as_millisecond())
    }

    pub(crate) fn date(self, d: Date) -> Self {
        self.i32(date_number(d))
    }

    /// An optional date; none sorts after every date.
    pub(crate) fn opt_date_last(self, d: Option<Date>) -> Self {
        match d {
            Some(d) => self.tag(0).date(d),
            None => self.tag(1),
        }
    }

    /// A string; each NUL is escaped so that a shorter string sorts before
    /// every longer one it begins.
    pub(crate) fn str(self, s: &str) -> Self {
        let mut key = self.str_start(s);
        key.0.extend_from_slice(&[0, 1]);
        key
    }

    /// The start of a [`Key::str`] without the string's end: a prefix of
    /// the keys of every string that begins with `s` (a name typed in part).
    pub(crate) fn str_start(mut self, s: &str) -> Self {
        for &b in s.as_bytes() {
            self.0.push(b);
            if b == 0 {
                self.0.push(0xff);
            }
        }
        self
    }

    pub(crate) fn bytes(mut self, b: &[u8]) -> Self {
        self.0.extend_from_slice(b);
        self
    }

    pub(crate) fn as_slice(&self) -> &[u8] {
        &self.0
    }

    pub(crate) fn into_vec(self) -> Vec<u8> {
        self.0
    }
}

/// Days since 1970-01-01, which orders dates.
pub(crate) fn date_number(d: Date) -> i32 {
    crate::time::days_between(Date::constant(1970, 1, 1), d) as i32
}

/// The date `n` days after 1970-01-01.
pub(crate) fn date_from_number(n: i32) -> Date {
    crate::time::add_days(Date::constant(1970, 1, 1), i64::from(n))
}

/// The ID at the end of an index key.
pub(crate) fn tail_id(key: &[u8]) -> Id {
    let bytes: [u8; 16] = key[key.len() - 16..]
        .try_into()
        .expect("an index key ends with an id");
    Id::from_bytes(bytes)
}

/// Reads parts back from the front of a key.
pub(crate) struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    pub(crate) fn new(key: &'a [u8]) -> Self {
        Reader(key)
    }

    pub(crate) fn tag(&mut self) -> u8 {
        let (head, rest) = self.0.split_first().expect("key part");
        self.0 = rest;
        *head
    }

    pub(crate) fn u64(&mut self) -> u64 {
        let (head, rest) = self.0.split_at(8);
        self.0 = rest;
        u64::from_be_bytes(head.try_into().expect("8 bytes"))
    }

    pub(crate) fn i64(&mut self) -> i64 {
        (self.u64() ^ (1 << 63)) as i64
    }

    pub(crate) fn i32(&mut self) -> i32 {
        let (head, rest) = self.0.split_at(4);
        self.0 = rest;
        (u32::from_be_bytes(head.try_into().expect("4 bytes")) ^ (1 << 31)) as i32
    }

    pub(crate) fn id(&mut self) -> Id {
        let (head, rest) = self.0.split_at(16);
        self.0 = rest;
        Id::from_bytes(head.try_into().expect("16 bytes"))
    }

    pub(crate) fn str(&mut self) -> String {
        let mut out = Vec::new();
        let mut i = 0;
        while i < self.0.len() {
            match (self.0[i], self.0.get(i + 1)) {
                (0, Some(0xff)) => {
                    out.push(0);
                    i += 2;
                }
                (0, _) => {
                    i += 2;
                    break;
                }
                (b, _) => {
                    out.push(b);
                    i += 1;
                }
            }
        }
        self.0 = &self.0[i.min(self.0.len())..];
        String::from_utf8(out).unwrap_or_default()
    }
}

/// The smallest key greater than every key starting with `prefix`
/// (`None` when there is none: the prefix is all 0xff).
pub(crate) fn prefix_end(prefix: &[u8]) -> Option<Vec<u8>> {
    let mut end = prefix.to_vec();
    while let Some(last) = end.pop() {
        if last < 0xff {
            end.push(last + 1);
            return Some(end);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_of_a_string_is_a_prefix_of_the_strings_it_begins() {
        let start = Key::new().str_start("ada").into_vec();
        for (name, begins) in [("ada", true), ("adam", true), ("ad", false), ("bad", false)] {
            let key = Key::new().str(name).into_vec();
            assert_eq!(key.starts_with(&start), begins, "{name}");
        }
        // A NUL is escaped the same way in both.
        let start = Key::new().str_start("a\0").into_vec();
        assert!(Key::new().str("a\0b").into_vec().starts_with(&start));
    }

    #[test]
    fn encoded_order_is_value_order() {
        let ints = [-5i64, -1, 0, 1, 7, i64::MAX, i64::MIN];
        let mut sorted = ints;
        sorted.sort();
        let mut keys: Vec<_> = ints.iter().map(|&v| Key::new().i64(v)).collect();
        keys.sort();
        let back: Vec<i64> = keys
            .iter()
            .map(|k| Reader::new(k.as_slice()).i64())
            .collect();
        assert_eq!(back, sorted);

        let strs = ["b", "a", "ab", "a\0b", "", "a\0"];
        let mut sorted: Vec<&str> = strs.to_vec();
        sorted.sort();
        let mut keys: Vec<_> = strs.iter().map(|s| Key::new().str(s).tag(9)).collect();
        keys.sort();
        let back: Vec<String> = keys
            .iter()
            .map(|k| Reader::new(k.as_slice()).str())
            .collect();
        assert_eq!(back, sorted);
    }

    #[test]
    fn dates_and_missing_dates_sort_last() {
        let d = |s: &str| Some(s.parse::<Date>().unwrap());
        let mut keys = [d("2026-01-02"), None, d("1969-12-31"), d("2026-01-01")]
            .map(|x| (Key::new().opt_date_last(x), x));
        keys.sort();
        let back: Vec<_> = keys.iter().map(|(_, x)| *x).collect();
        assert_eq!(
            back,
            vec![d("1969-12-31"), d("2026-01-01"), d("2026-01-02"), None]
        );
    }

    #[test]
    fn prefix_end_bounds_a_prefix() {
        assert_eq!(prefix_end(&[1, 2]), Some(vec![1, 3]));
        assert_eq!(prefix_end(&[1, 0xff]), Some(vec![2]));
        assert_eq!(prefix_end(&[0xff]), None);
    }
}
