//! A browser scenario: projects.
