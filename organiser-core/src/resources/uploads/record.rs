//! The upload as stored (format 1).

use jiff::Timestamp;
use serde::{Deserialize, Serialize};

use super::{Kind, Stored};
use crate::ids::Id;
use crate::store::codec::{self, Record};

/// A stored upload's metadata (its bytes are a file, `files/uploads/<id>`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct UploadRecord {
    /// The kind's tag ([`Kind::tag`]).
    kind: u8,
    filename: String,
    content_type: String,
    byte_size: u64,
    #[serde(with = "codec::instant")]
    created_at: Timestamp,
    used: bool,
}

impl Record for UploadRecord {
    const NAME: &'static str = "upload";
    const FORMAT: u8 = 1;
}

impl From<&Stored> for UploadRecord {
    fn from(u: &Stored) -> Self {
        UploadRecord {
            kind: u.kind.tag(),
            filename: u.filename.clone(),
            content_type: u.content_type.clone(),
            byte_size: u.byte_size,
            created_at: u.created_at,
            used: u.used,
        }
    }
}

impl UploadRecord {
    /// The upload stored under `id`; `None` for a kind this build does
    /// not know.
    pub(crate) fn into_stored(self, id: Id) -> Option<Stored> {
        Some(Stored {
            id,
            kind: Kind::from_tag(self.kind)?,
            filename: self.filename,
            content_type: self.content_type,
            byte_size: self.byte_size,
            created_at: self.created_at,
            used: self.used,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Stored {
        Stored {
            id: Id::parse("01ARZ3NDEKTSV4RRFFQ69G5FAV").unwrap(),
            kind: Kind::Avatar,
            filename: "me.jpg".into(),
            content_type: "image/jpeg".into(),
            byte_size: 12_345,
            created_at: "2026-03-09T08:00:00Z".parse().unwrap(),
            used: false,
        }
    }

    #[test]
    fn an_upload_round_trips_through_its_record() {
        let u = sample();
        let bytes = codec::encode(&UploadRecord::from(&u)).unwrap();
        let back: UploadRecord = codec::decode(&bytes).unwrap();
        assert_eq!(back.into_stored(u.id), Some(u));
    }

    /// The stored bytes are a format: changing them needs a new format and
    /// a migration step, not an edit of this test.
    #[test]
    fn the_stored_bytes_are_pinned() {
        let bytes = codec::encode(&UploadRecord::from(&sample())).unwrap();
        let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(hex, PINNED, "{} bytes", bytes.len());
    }

    const PINNED: &str = "0101066d652e6a70670a696d6167652f6a706567b96080c0e1999a6700";
}
