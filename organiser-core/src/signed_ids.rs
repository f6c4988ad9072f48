//! Uploads' signed IDs (DESIGN.md "Uploads": `signed_id` is
//! tamper-proof): an upload's ID with an HMAC under the store's key, so
//! that an address naming an upload cannot be guessed or altered. Kept
//! apart from the uploads resource so that what reads addresses inside
//! records (the archive's paths, `portable`) needs no resource.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;

use crate::ids::Id;
use crate::secrets::SecretKey;

/// The key's purpose for uploads' signatures.
const PURPOSE: &str = "upload";

/// `signed_id`: the ID's 16 bytes and the first 16 bytes of their
/// HMAC-SHA256 under the store's key, in URL-safe base64 (43 characters).
pub(crate) fn sign(key: &SecretKey, id: Id) -> String {
    let bytes = id.to_bytes();
    let tag = key.sign(PURPOSE, &bytes);
    let mut signed = bytes.to_vec();
    signed.extend_from_slice(&tag[..16]);
    URL_SAFE_NO_PAD.encode(signed)
}

/// The upload ID a `signed_id` names, when it was signed with `key` and is
/// unchanged; `None` for anything else.
pub(crate) fn verify(key: &SecretKey, signed: &str) -> Option<Id> {
    if signed.len() != 43 {
        return None;
    }
    let bytes = URL_SAFE_NO_PAD.decode(signed).ok()?;
    let (id, tag) = bytes.split_at_checked(16)?;
    let id: [u8; 16] = id.try_into().ok()?;
    key.verify(PURPOSE, &id, tag).then(|| Id::from_bytes(id))
}
