//! Organiser
pub use organiser_core::*;
