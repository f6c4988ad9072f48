//! Licence keys: `ORG1.<payload>.<signature>`, both parts base64url, the
//! payload JSON signed with the licence signing key (Ed25519).

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use ed25519_dalek::{Signature, VerifyingKey};
use jiff::civil::Date;
use serde::{Deserialize, Serialize};

const PREFIX: &str = "ORG1.";

/// What a licence key says.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LicenceKeyPayload {
    /// The key's ID, for support.
    pub key_id: String,
    /// The licensee's name.
    pub name: String,
    /// The licensee's email address.
    pub email: String,
    /// The sale reference, when there is one.
    #[serde(default)]
    pub order_reference: Option<String>,
    /// When the key was issued.
    pub issued_on: Date,
    /// The key covers every version released up to this date.
    pub updates_until: Date,
}

/// Reads and checks a licence key; `None` unless it is well formed and
/// signed by `public_key`.
pub(crate) fn verify(text: &str, public_key: &VerifyingKey) -> Option<LicenceKeyPayload> {
    let text: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let rest = text.strip_prefix(PREFIX)?;
    let (payload, signature) = rest.split_once('.')?;
    let signature: [u8; 64] = URL_SAFE_NO_PAD.decode(signature).ok()?.try_into().ok()?;
    public_key
        .verify_strict(payload.as_bytes(), &Signature::from_bytes(&signature))
        .ok()?;
    serde_json::from_slice(&URL_SAFE_NO_PAD.decode(payload).ok()?).ok()
}

/// Writes a signed key: for tests and the release team's tooling.
pub fn sign(payload: &LicenceKeyPayload, signing_key: &ed25519_dalek::SigningKey) -> String {
    use ed25519_dalek::Signer;
    let payload = URL_SAFE_NO_PAD.encode(serde_json::to_vec(payload).expect("payload serialises"));
    let signature = signing_key.sign(payload.as_bytes());
    format!(
        "{PREFIX}{payload}.{}",
        URL_SAFE_NO_PAD.encode(signature.to_bytes())
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use ed25519_dalek::SigningKey;

    fn payload() -> LicenceKeyPayload {
        LicenceKeyPayload {
            key_id: "K-1".into(),
            name: "Ada".into(),
            email: "ada@example.com".into(),
            order_reference: Some("ORD-9".into()),
            issued_on: "2026-01-01".parse().unwrap(),
            updates_until: "2027-01-01".parse().unwrap(),
        }
    }

    #[test]
    fn a_signed_key_verifies_only_under_its_public_key() {
        let signer = SigningKey::from_bytes(&[1; 32]);
        let key = sign(&payload(), &signer);
        assert_eq!(verify(&key, &signer.verifying_key()), Some(payload()));
        let other = SigningKey::from_bytes(&[2; 32]).verifying_key();
        assert_eq!(verify(&key, &other), None);
        // Line breaks from an email are ignored.
        let wrapped = format!("{}\n{}", &key[..20], &key[20..]);
        assert!(verify(&wrapped, &signer.verifying_key()).is_some());
    }

    #[test]
    fn tampered_or_malformed_keys_fail() {
        let signer = SigningKey::from_bytes(&[1; 32]);
        let key = sign(&payload(), &signer);
        let (head, sig) = key.rsplit_once('.').unwrap();
        let mut forged = payload();
        forged.updates_until = "2099-01-01".parse().unwrap();
        let forged_payload = URL_SAFE_NO_PAD.encode(serde_json::to_vec(&forged).unwrap());
        let pk = signer.verifying_key();
        for bad in [
            format!("ORG1.{forged_payload}.{sig}"),
            format!("{head}.AAAA"),
            "ORG1.".into(),
            "hello".into(),
            key.replacen("ORG1", "ORG2", 1),
        ] {
            assert_eq!(verify(&bad, &pk), None, "{bad}");
        }
    }
}
