//! How stored records are written (DESIGN.md "The core": records are stored
//! by ULID key): each kind of record has its own stored type, separate from
//! the API's, encoded with postcard (varints, no field names) behind one
//! byte naming the record's format, so renaming an API field is not a
//! migration, records stay small, and a record of a format this build does
//! not know is a clear storage error rather than a wrong value.
//!
//! IDs are stored as their 16 bytes, instants as milliseconds and dates as
//! days since 1970-01-01 ([`opt_id`], [`instant`], [`opt_instant`] and
//! [`opt_day`] are `#[serde(with)]` helpers for stored types).

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::error::{Error, Result};

/// A stored record type and the format byte written before it. A change
/// to the stored type's fields is a new format (and a migration step that
/// rewrites the records of the old one).
pub(crate) trait Record: Serialize + DeserializeOwned {
    /// The record's name, for errors.
    const NAME: &'static str;
    /// The format this build writes and reads.
    const FORMAT: u8;

    /// The record of an older `format` this build still reads (the bytes
    /// after the format byte), or `None` when it reads no such format.
    /// A migration step rewrites such records; until it has run (in the
    /// steps before it), they are read through this.
    fn older(format: u8, bytes: &[u8]) -> Option<Result<Self>> {
        let _ = (format, bytes);
        None
    }
}

/// The bytes of `record`: its format byte, then postcard.
pub(crate) fn encode<R: Record>(record: &R) -> Result<Vec<u8>> {
    postcard::to_extend(record, vec![R::FORMAT])
        .map_err(|e| Error::Storage(format!("encoding a {}: {e}", R::NAME).into()))
}

/// The record written by [`encode`]; a storage error for any other bytes.
pub(crate) fn decode<R: Record>(bytes: &[u8]) -> Result<R> {
    match bytes.split_first() {
        Some((&format, rest)) if format == R::FORMAT => postcard::from_bytes(rest)
            .map_err(|e| Error::Storage(format!("a stored {} is malformed: {e}", R::NAME).into())),
        Some((&format, rest)) if let Some(record) = R::older(format, rest) => record,
        Some((&format, _)) => Err(Error::Storage(
            format!(
                "a stored {} has format {format}; this build reads format {}",
                R::NAME,
                R::FORMAT
            )
            .into(),
        )),
        None => Err(Error::Storage(
            format!("a stored {} is empty", R::NAME).into(),
        )),
    }
}

/// Appends `n` as a zigzag LEB128 varint (as postcard writes integers).
pub(crate) fn put_varint(out: &mut Vec<u8>, n: i64) {
    let mut z = ((n << 1) ^ (n >> 63)) as u64;
    while z >= 0x80 {
        out.push((z as u8) | 0x80);
        z >>= 7;
    }
    out.push(z as u8);
}

/// Reads hand-packed bytes back ([`put_varint`], single bytes, IDs). Past
/// the end it reads zeros, so malformed bytes give wrong values, never a
/// panic.
pub(crate) struct Unpack<'a>(&'a [u8]);

impl<'a> Unpack<'a> {
    pub(crate) fn new(bytes: &'a [u8]) -> Self {
        Unpack(bytes)
    }

    pub(crate) fn byte(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&b, rest)) => {
                self.0 = rest;
                b
            }
            None => 0,
        }
    }

    /// The next `n` bytes; `None` when fewer are left.
    pub(crate) fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        if n > self.0.len() {
            return None;
        }
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        Some(head)
    }

    /// Whether every byte was read.
    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub(crate) fn varint(&mut self) -> i64 {
        let mut z = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte();
            z |= u64::from(b & 0x7f) << shift;
            if b < 0x80 {
                break;
            }
        }
        ((z >> 1) as i64) ^ -((z & 1) as i64)
    }

    pub(crate) fn id(&mut self) -> crate::ids::Id {
        let mut bytes = [0u8; 16];
        for b in &mut bytes {
            *b = self.byte();
        }
        crate::ids::Id::from_bytes(bytes)
    }
}

/// An optional [`Id`](crate::ids::Id) as its 16 bytes.
pub(crate) mod opt_id {
    use serde::{Deserialize, Deserializer, Serializer};

    use crate::ids::Id;

    pub(crate) fn serialize<S: Serializer>(id: &Option<Id>, s: S) -> Result<S::Ok, S::Error> {
        serde::Serialize::serialize(&id.map(Id::to_bytes), s)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Id>, D::Error> {
        Option::<[u8; 16]>::deserialize(d).map(|b| b.map(Id::from_bytes))
    }
}

/// An instant as milliseconds since the epoch.
pub(crate) mod instant {
    use jiff::Timestamp;
    use serde::{Deserialize, Deserializer, Serializer};

    pub(crate) fn serialize<S: Serializer>(t: &Timestamp, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_i64(t.as_millisecond())
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Timestamp, D::Error> {
        let ms = i64::deserialize(d)?;
        Timestamp::from_millisecond(ms).map_err(serde::de::Error::custom)
    }
}

/// An optional instant as milliseconds since the epoch.
pub(crate) mod opt_instant {
    use jiff::Timestamp;
    use serde::{Deserialize, Deserializer, Serializer};

    pub(crate) fn serialize<S: Serializer>(t: &Option<Timestamp>, s: S) -> Result<S::Ok, S::Error> {
        serde::Serialize::serialize(&t.map(|t| t.as_millisecond()), s)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Option<Timestamp>, D::Error> {
        match Option::<i64>::deserialize(d)? {
            Some(ms) => Timestamp::from_millisecond(ms)
                .map(Some)
                .map_err(serde::de::Error::custom),
            None => Ok(None),
        }
    }
}

/// An optional date as days since 1970-01-01.
pub(crate) mod opt_day {
    use jiff::civil::Date;
    use serde::{Deserialize, Deserializer, Serializer};

    use crate::store::key::{date_from_number, date_number};

    pub(crate) fn serialize<S: Serializer>(d: &Option<Date>, s: S) -> Result<S::Ok, S::Error> {
        serde::Serialize::serialize(&d.map(date_number), s)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Date>, D::Error> {
        Option::<i32>::deserialize(d).map(|n| n.map(date_from_number))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Sample {
        name: String,
        n: i64,
    }

    impl Record for Sample {
        const NAME: &'static str = "sample";
        const FORMAT: u8 = 7;
    }

    #[test]
    fn a_record_is_its_format_byte_then_postcard() {
        let s = Sample {
            name: "ab".into(),
            n: -2,
        };
        let bytes = encode(&s).unwrap();
        assert_eq!(bytes, [7, 2, b'a', b'b', 3]);
        assert_eq!(decode::<Sample>(&bytes).unwrap(), s);
    }

    #[test]
    fn varints_round_trip() {
        for n in [
            0,
            1,
            -1,
            63,
            -64,
            64,
            300,
            -300,
            i64::MAX,
            i64::MIN,
            1_773_133_200_123,
        ] {
            let mut out = Vec::new();
            put_varint(&mut out, n);
            assert_eq!(Unpack::new(&out).varint(), n, "{n}");
            assert_eq!(
                out,
                postcard::to_allocvec(&n).unwrap(),
                "as postcard writes {n}"
            );
        }
        assert_eq!(
            Unpack::new(&[0xff]).varint(),
            Unpack::new(&[0xff, 0]).varint()
        );
    }

    #[test]
    fn other_bytes_are_a_storage_error() {
        for bytes in [&[][..], &[8, 2, b'a', b'b', 3], &[7, 9]] {
            let err = decode::<Sample>(bytes).unwrap_err();
            assert_eq!(err.status(), 500, "{bytes:?}");
        }
    }
}
