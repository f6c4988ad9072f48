//! Opaque keyset cursors: the index key of the last item of a page, signed
//! with the store's secret together with the listing it belongs to, so a
//! forged, altered or borrowed cursor is a 400 rather than a wrong page.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;

use crate::error::{Error, Result};
use crate::secrets::SecretKey;

const TAG_LEN: usize = 16;
const VERSION: u8 = 1;

/// Encodes and checks cursors of one listing. `scope` names the listing
/// and every parameter that shapes its order and filter.
pub(crate) struct Cursor<'a> {
    key: &'a SecretKey,
    scope: String,
}

impl<'a> Cursor<'a> {
    pub(crate) fn new(key: &'a SecretKey, scope: String) -> Self {
        Cursor { key, scope }
    }

    fn signed(&self, position: &[u8]) -> Vec<u8> {
        let mut data = Vec::with_capacity(self.scope.len() + 1 + position.len());
        data.extend_from_slice(self.scope.as_bytes());
        data.push(0);
        data.extend_from_slice(position);
        data
    }

    /// The cursor that resumes after `position`.
    pub(crate) fn encode(&self, position: &[u8]) -> String {
        let tag = self.key.sign("cursor", &self.signed(position));
        let mut raw = Vec::with_capacity(1 + position.len() + TAG_LEN);
        raw.push(VERSION);
        raw.extend_from_slice(position);
        raw.extend_from_slice(&tag[..TAG_LEN]);
        URL_SAFE_NO_PAD.encode(raw)
    }

    /// The position a cursor resumes after; 400 on `cursor` when it is not
    /// one this listing made.
    pub(crate) fn decode(&self, cursor: &str) -> Result<Vec<u8>> {
        let bad = || Error::bad_param("cursor", "is not a cursor from this list");
        let raw = URL_SAFE_NO_PAD.decode(cursor).map_err(|_| bad())?;
        if raw.len() < 1 + TAG_LEN || raw[0] != VERSION {
            return Err(bad());
        }
        let (body, tag) = raw[1..].split_at(raw.len() - 1 - TAG_LEN);
        if !self.key.verify("cursor", &self.signed(body), tag) {
            return Err(bad());
        }
        Ok(body.to_vec())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cursor_resumes_only_its_own_listing() {
        let key = SecretKey::generate();
        let tasks = Cursor::new(&key, "tasks|position|asc".into());
        let c = tasks.encode(b"position-key");
        assert_eq!(tasks.decode(&c).unwrap(), b"position-key");

        let other = Cursor::new(&key, "tasks|position|desc".into());
        assert_eq!(other.decode(&c).unwrap_err().status(), 400);

        let other_key = SecretKey::generate();
        let stranger = Cursor::new(&other_key, "tasks|position|asc".into());
        assert_eq!(stranger.decode(&c).unwrap_err().status(), 400);
    }

    #[test]
    fn forged_or_malformed_cursors_are_400() {
        let key = SecretKey::generate();
        let cursor = Cursor::new(&key, "x".into());
        let good = cursor.encode(b"abc");
        let mut forged = URL_SAFE_NO_PAD.decode(&good).unwrap();
        forged[2] ^= 1;
        for bad in [
            URL_SAFE_NO_PAD.encode(forged),
            "%%%".into(),
            "AAAA".into(),
            String::new(),
            good[..good.len() - 2].to_owned(),
        ] {
            let err = cursor.decode(&bad).unwrap_err();
            assert_eq!(
                (err.status(), err.code()),
                (400, "invalid_parameter"),
                "{bad}"
            );
        }
    }
}
