//! Open source notices (document 1, "Open source notices"). Placeholder.

/// `GET /licences`.
pub fn notices() -> &'static serde_json::Value {
    static N: std::sync::OnceLock<serde_json::Value> = std::sync::OnceLock::new();
    N.get_or_init(|| serde_json::json!({"groups": [], "licences": []}))
}
