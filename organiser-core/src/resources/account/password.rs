//! The owner's password, hashed with Argon2id.

use argon2::{Argon2, PasswordHasher, PasswordVerifier};

use crate::error::{Error, Result};

/// Shortest password accepted.
pub(crate) const MIN_LENGTH: usize = 8;
/// Longest password accepted (Argon2 takes any length; this bounds the work).
pub(crate) const MAX_LENGTH: usize = 1024;

pub(crate) fn hash(password: &str) -> Result<String> {
    let salt = crate::secrets::random_bytes(16);
    Argon2::default()
        .hash_password_with_salt(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| Error::Internal(format!("password hashing: {e}")))
}

pub(crate) fn verify(password: &str, hash: &str) -> bool {
    Argon2::default()
        .verify_password(password.as_bytes(), hash)
        .is_ok()
}

/// The phrases a new password earns, if any.
pub(crate) fn problems(password: &str) -> Option<String> {
    let n = password.chars().count();
    if n < MIN_LENGTH {
        Some(format!("is too short (minimum is {MIN_LENGTH} characters)"))
    } else if n > MAX_LENGTH {
        Some(format!("is too long (maximum is {MAX_LENGTH} characters)"))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hash_verifies_only_its_password() {
        let h = hash("correct horse").unwrap();
        assert!(h.starts_with("$argon2id$"));
        assert!(verify("correct horse", &h));
        assert!(!verify("correct horsf", &h));
        assert!(!verify("correct horse", "not a hash"));
    }
}
