//! People (document 3, "Person", "KeyDate", "SocialProfile", "Position",
//! and the rows of PersonFields): being built for issue 8.
//!
//! What stands so far are the rules a person's fields obey, each its own
//! module with its tests: the nested rows ([`rows`]), key dates
//! ([`key_dates`]) and social profiles ([`social`]). The record, its
//! tables, its operations and its routes come next, and use them; until
//! then nothing outside the tests calls them.
#![cfg_attr(not(test), allow(dead_code))]

pub(crate) mod key_dates;
pub(crate) mod rows;
pub(crate) mod social;
