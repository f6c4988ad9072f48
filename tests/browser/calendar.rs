//! A browser scenario: calendar.
