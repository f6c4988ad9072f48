//! The HTTP adapter of Organiser.
