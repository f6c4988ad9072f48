//! IDs: 26-character ULIDs that sort by creation (document 1, convention 5),
//! made monotonic so two records made in one millisecond still sort by
//! creation.

use std::fmt;
use std::str::FromStr;
use std::sync::Mutex;

use jiff::Timestamp;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use ulid::Ulid;

/// A record ID.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Id(Ulid);

impl Id {
    /// The ID in a path segment; anything else is 404 (document 1,
    /// "Errors": "the ID is not an ID").
    pub(crate) fn from_path(segment: &str) -> crate::error::Result<Id> {
        Id::parse(segment).ok_or(crate::error::Error::NotFound)
    }

    /// Parses a 26-character ULID; `None` for anything else.
    pub fn parse(s: &str) -> Option<Id> {
        // 26 Crockford base-32 digits hold 130 bits; a ULID is 128, so the
        // first digit is at most 7.
        if s.len() != 26 || !matches!(s.as_bytes()[0], b'0'..=b'7') {
            return None;
        }
        Ulid::from_string(s).ok().map(Id)
    }

    /// The ID as 16 big-endian bytes, which sort as the IDs do.
    pub fn to_bytes(self) -> [u8; 16] {
        self.0.to_bytes()
    }

    /// The ID from 16 big-endian bytes.
    pub fn from_bytes(bytes: [u8; 16]) -> Id {
        Id(Ulid::from_bytes(bytes))
    }

    /// The millisecond the ID was made in.
    pub fn timestamp_ms(self) -> u64 {
        self.0.timestamp_ms()
    }
}

impl fmt::Display for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl fmt::Debug for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Id({})", self.0)
    }
}

impl FromStr for Id {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Id::parse(s).ok_or_else(|| format!("{s:?} is not an ID"))
    }
}

impl Serialize for Id {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0.to_string())
    }
}

impl<'de> Deserialize<'de> for Id {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        Id::parse(&s).ok_or_else(|| serde::de::Error::custom(format!("{s:?} is not an ID")))
    }
}

/// Makes IDs from the injected clock: strictly increasing within a process,
/// even within one millisecond or when the clock steps back.
#[derive(Debug, Default)]
pub(crate) struct IdGen {
    last: Mutex<Option<Ulid>>,
}

impl IdGen {
    pub(crate) fn next(&self, now: Timestamp) -> Id {
        let ms = u64::try_from(now.as_millisecond()).unwrap_or(0);
        let mut last = self.last.lock().unwrap_or_else(|e| e.into_inner());
        let fresh = Ulid::from_parts(ms, random_u128());
        let id = match *last {
            Some(prev) if fresh <= prev => prev.increment().unwrap_or(fresh),
            _ => fresh,
        };
        *last = Some(id);
        Id(id)
    }
}

fn random_u128() -> u128 {
    let mut bytes = [0u8; 16];
    crate::secrets::fill_random(&mut bytes);
    u128::from_be_bytes(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_made_in_one_millisecond_still_sort_by_creation() {
        let ids = IdGen::default();
        let now: Timestamp = "2026-01-01T00:00:00Z".parse().unwrap();
        let ids: Vec<Id> = (0..1000).map(|_| ids.next(now)).collect();
        assert!(ids.windows(2).all(|w| w[0] < w[1]));
        assert!(ids.iter().all(|id| id.timestamp_ms() == 1_767_225_600_000));
    }

    #[test]
    fn a_clock_stepping_back_does_not_break_the_order() {
        let ids = IdGen::default();
        let a = ids.next("2026-01-02T00:00:00Z".parse().unwrap());
        let b = ids.next("2026-01-01T00:00:00Z".parse().unwrap());
        assert!(b > a);
    }

    #[test]
    fn only_26_character_ulids_parse() {
        assert!(Id::parse("01ARZ3NDEKTSV4RRFFQ69G5FAV").is_some());
        for bad in [
            "",
            "1",
            "01ARZ3NDEKTSV4RRFFQ69G5FA",
            "01ARZ3NDEKTSV4RRFFQ69G5FAV0",
            "ZZZZZZZZZZZZZZZZZZZZZZZZZZ",
        ] {
            assert!(Id::parse(bad).is_none(), "{bad}");
        }
        let id = Id::parse("01arz3ndektsv4rrffq69g5fav").unwrap();
        assert_eq!(id.to_string(), "01ARZ3NDEKTSV4RRFFQ69G5FAV");
    }
}
