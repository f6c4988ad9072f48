//! Every rule of Organiser, a self-hosted personal organiser for one owner,
//! on a redb store.
//!
//! Open a store, then either call the typed operations or hand JSON API
//! requests to [`Organiser::handle`], as the server and the CLI do:
//!
//! ```
//! use organiser_core::{Auth, Method, Organiser, Request};
//!
//! let org = Organiser::in_memory();
//! let me = org.me(&Auth::Local).unwrap();
//! assert_eq!(me.username, "owner");
//!
//! let response = org.handle(&Request::new(Method::Get, "/me", Auth::Local));
//! assert_eq!(response.status, 200);
//! ```
#![forbid(unsafe_code)]

mod api;
mod auth;
pub mod clock;
mod config;
mod engine;
mod error;
mod files;
mod gate;
mod html;
mod idempotency;
mod ids;
mod input;
pub mod limits;
mod list;
mod net;
mod organiser;
pub mod pdf;
mod positions;
mod resources;
mod restore;
mod search;
mod secrets;
mod settle;
mod store;
mod text;
pub mod time;

pub use auth::{ApiToken, Auth};
pub use clock::{Clock, ManualClock, StartingAt, SystemClock};
pub use config::{APP, BuildInfo, Options, UpdateConfig, parse_public_key};
pub use engine::Organiser;
pub use engine::endpoint::Endpoint;
pub use engine::jobs::{Job, Pace, Ran};
pub use engine::operation::{Args, Door, Input, Operation, Outgoing, Output, Part, RawRule};
pub use engine::request::{FileBytes, Method, RawBody, Request, Response, media_type};
pub use error::{ConflictKind, Details, Error, Result};
pub use files::FILES_DIR;
pub use ids::Id;
pub use input::Field;
pub use list::{Direction, ListParams, Page, Query};
pub use net::{HttpClient, HttpError, HttpMethod, HttpRequest, HttpResponse, ReqwestClient};
pub use organiser::{Compaction, STORE_FILE};
pub use resources::*;
pub use secrets::{KEY_FILE as SECRET_KEY_FILE, SecretKey, write_private};
pub use store::{OpenError, RawExport};
pub use text::{fold_search as fold, squish};

/// The date and time library whose types the API uses (`Timestamp`,
/// `civil::Date`, `SignedDuration`, `tz::TimeZone`, `Zoned`), re-exported
/// so that callers have the very version the core was built with.
pub use jiff;
