//! The vocabulary (document 1, "Vocabulary"). Placeholder until filled.

/// `GET /vocabulary`.
pub fn vocabulary(_dev: bool) -> serde_json::Value {
    serde_json::json!({})
}
