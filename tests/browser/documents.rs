//! A browser scenario: documents.
