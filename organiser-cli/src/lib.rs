//! The terminal adapter of Organiser.
