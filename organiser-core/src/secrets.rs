//! Secrets at rest: the key that seals stored secrets (AI provider keys,
//! calendar addresses) with XChaCha20-Poly1305, and signs what the service
//! hands out and must recognise again (cursors, upload ids) with HMAC-SHA256.
//!
//! The key lives in `secret.key` in the data directory (32 random bytes,
//! created with mode 0600) unless `ORGANISER_SECRET_KEY` supplies it.

use std::fs;
use std::io::Write;
use std::path::Path;

use base64::Engine;
use chacha20poly1305::aead::{Aead, KeyInit};
use chacha20poly1305::{XChaCha20Poly1305, XNonce};
use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};

use crate::error::{Error, Result};

/// Fills `buf` from the operating system's random source.
pub(crate) fn fill_random(buf: &mut [u8]) {
    getrandom::fill(buf).expect("the operating system's random source works");
}

/// `n` random bytes.
pub(crate) fn random_bytes(n: usize) -> Vec<u8> {
    let mut buf = vec![0; n];
    fill_random(&mut buf);
    buf
}

/// `bytes` as lower-case hexadecimal.
pub(crate) fn to_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// 32 bytes written as 64 hexadecimal digits, or as base64 (standard, or
/// URL-safe without padding); `None` for anything else.
pub(crate) fn parse_key_bytes(text: &str) -> Option<[u8; 32]> {
    use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
    let text = text.trim();
    let bytes: Vec<u8> = if text.len() == 64 {
        (0..32)
            .map(|i| u8::from_str_radix(text.get(2 * i..2 * i + 2)?, 16).ok())
            .collect::<Option<Vec<u8>>>()?
    } else {
        STANDARD
            .decode(text)
            .or_else(|_| URL_SAFE_NO_PAD.decode(text))
            .ok()?
    };
    bytes.try_into().ok()
}

/// HMAC-SHA256 of `data` under `key` (a webhook's signature).
pub(crate) fn hmac_sha256(key: &[u8], data: &[u8]) -> [u8; 32] {
    let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(key).expect("any key length");
    mac.update(data);
    mac.finalize().into_bytes().into()
}

/// SHA-256 of `data`.
pub(crate) fn sha256(data: &[u8]) -> [u8; 32] {
    Sha256::digest(data).into()
}

/// The file name of the key in the data directory.
pub const KEY_FILE: &str = "secret.key";

/// The service's secret key.
#[derive(Clone)]
pub struct SecretKey([u8; 32]);

impl std::fmt::Debug for SecretKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SecretKey(..)")
    }
}

impl SecretKey {
    /// A fresh random key.
    pub fn generate() -> Self {
        let mut key = [0; 32];
        fill_random(&mut key);
        SecretKey(key)
    }

    /// A key written as 64 hexadecimal digits or as base64 of 32 bytes (the
    /// shapes `ORGANISER_SECRET_KEY` accepts).
    pub fn parse(text: &str) -> std::result::Result<Self, String> {
        parse_key_bytes(text)
            .map(SecretKey)
            .ok_or_else(|| "the secret key must be 64 hex digits or base64 of 32 bytes".to_owned())
    }

    /// Reads `secret.key` from `dir`, if it is there and well formed.
    pub(crate) fn load(dir: &Path) -> Option<Self> {
        let bytes = fs::read(dir.join(KEY_FILE)).ok()?;
        bytes.try_into().ok().map(SecretKey)
    }

    /// Reads `secret.key` from `dir`, creating it (mode 0600) when missing.
    pub fn load_or_create(dir: &Path) -> std::io::Result<Self> {
        let path = dir.join(KEY_FILE);
        match fs::read(&path) {
            Ok(bytes) => {
                let key: [u8; 32] = bytes.try_into().map_err(|_| {
                    std::io::Error::new(
                        std::io::ErrorKind::InvalidData,
                        format!("{} is not a 32-byte key", path.display()),
                    )
                })?;
                Ok(SecretKey(key))
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let key = SecretKey::generate();
                write_private(&path, &key.0)?;
                Ok(key)
            }
            Err(e) => Err(e),
        }
    }

    /// Seals `plaintext`: a random nonce followed by the ciphertext and tag.
    pub fn seal(&self, plaintext: &[u8]) -> Vec<u8> {
        let cipher = XChaCha20Poly1305::new(&self.0.into());
        let mut nonce = [0u8; 24];
        fill_random(&mut nonce);
        let sealed = cipher
            .encrypt(&XNonce::from(nonce), plaintext)
            .expect("XChaCha20-Poly1305 seals any message of a sane size");
        let mut out = Vec::with_capacity(24 + sealed.len());
        out.extend_from_slice(&nonce);
        out.extend_from_slice(&sealed);
        out
    }

    /// Opens what [`SecretKey::seal`] sealed; an error when it was sealed
    /// under another key or changed since.
    pub fn open(&self, sealed: &[u8]) -> Result<Vec<u8>> {
        if sealed.len() < 24 {
            return Err(Error::Internal("sealed secret is too short".into()));
        }
        let (nonce, body) = sealed.split_at(24);
        let nonce: [u8; 24] = nonce.try_into().expect("24 bytes");
        XChaCha20Poly1305::new(&self.0.into())
            .decrypt(&XNonce::from(nonce), body)
            .map_err(|_| Error::Internal("a sealed secret does not open with this key".into()))
    }

    /// An HMAC-SHA256 of `data` under a key derived for `purpose`, so that a
    /// signature made for one purpose is no good for another.
    pub fn sign(&self, purpose: &str, data: &[u8]) -> [u8; 32] {
        let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(&self.0).expect("any key length");
        mac.update(purpose.as_bytes());
        mac.update(&[0]);
        mac.update(data);
        mac.finalize().into_bytes().into()
    }

    /// Whether `tag` is [`SecretKey::sign`] of `data` for `purpose`
    /// (compared in constant time; a shortened tag of at least 16 bytes is
    /// checked against the same prefix).
    pub fn verify(&self, purpose: &str, data: &[u8], tag: &[u8]) -> bool {
        use subtle::ConstantTimeEq;
        let expected = self.sign(purpose, data);
        tag.len() >= 16 && tag.len() <= 32 && bool::from(expected[..tag.len()].ct_eq(tag))
    }
}

/// Writes `bytes` to `path` readable by its owner only (0600), through a
/// temporary file that is synced and renamed into place.
pub fn write_private(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let tmp = path.with_extension("tmp");
    {
        let mut options = fs::OpenOptions::new();
        options.write(true).create(true).truncate(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.mode(0o600);
        }
        let mut file = options.open(&tmp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
    }
    fs::rename(&tmp, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sealed_secrets_open_only_with_their_key() {
        let key = SecretKey::generate();
        let sealed = key.seal(b"sk-live-123");
        assert!(!sealed.windows(11).any(|w| w == b"sk-live-123"));
        assert_eq!(key.open(&sealed).unwrap(), b"sk-live-123");
        assert!(SecretKey::generate().open(&sealed).is_err());
        let mut tampered = sealed.clone();
        *tampered.last_mut().unwrap() ^= 1;
        assert!(key.open(&tampered).is_err());
        assert_ne!(
            key.seal(b"same"),
            key.seal(b"same"),
            "a fresh nonce each time"
        );
    }

    #[test]
    fn the_key_file_is_created_once_with_mode_0600() {
        let dir = tempfile::tempdir().unwrap();
        let a = SecretKey::load_or_create(dir.path()).unwrap();
        let b = SecretKey::load_or_create(dir.path()).unwrap();
        assert_eq!(a.0, b.0);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = fs::metadata(dir.path().join(KEY_FILE))
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600);
        }
    }

    #[test]
    fn keys_parse_from_hex_or_base64() {
        let hex = "00".repeat(31) + "ff";
        assert_eq!(SecretKey::parse(&hex).unwrap().0[31], 0xff);
        let b64 = base64::engine::general_purpose::STANDARD.encode([7u8; 32]);
        assert_eq!(SecretKey::parse(&b64).unwrap().0, [7u8; 32]);
        assert!(SecretKey::parse("short").is_err());
    }

    #[test]
    fn signatures_are_bound_to_their_purpose() {
        let key = SecretKey::generate();
        let tag = key.sign("cursor", b"abc");
        assert!(key.verify("cursor", b"abc", &tag));
        assert!(key.verify("cursor", b"abc", &tag[..16]));
        assert!(!key.verify("upload", b"abc", &tag));
        assert!(!key.verify("cursor", b"abd", &tag));
        assert!(!key.verify("cursor", b"abc", &tag[..8]));
    }
}
