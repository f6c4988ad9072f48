//! A browser scenario: ai.
