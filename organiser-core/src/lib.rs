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

mod account;
mod api;
mod auth;
pub mod clock;
mod config;
mod deletions;
mod discovery;
mod engine;
mod error;
mod html;
mod idempotency;
mod ids;
mod input;
mod licence;
pub mod limits;
mod list;
mod net;
mod notices;
mod organiser;
mod positions;
mod registry;
mod restore;
mod secrets;
mod settle;
mod store;
mod system;
mod task_lists;
mod tasks;
mod text;
pub mod time;
mod vocabulary;

pub use account::{Appearance, AppearanceChange, Me, NewToken, OwnerChange, OwnerInit, SignedIn};
pub use auth::{ApiToken, Auth};
pub use clock::{Clock, ManualClock, StartingAt, SystemClock};
pub use config::{APP, BuildInfo, Options, UpdateConfig, parse_public_key};
pub use deletions::{Deletion, DeletionQuery};
pub use discovery::Discovery;
pub use engine::Organiser;
pub use engine::request::{Method, Request, Response};
pub use error::{ConflictKind, Details, Error, Result};
pub use ids::Id;
pub use input::Field;
pub use licence::{
    Licence, LicenceKeyPayload, LicenceProblem, LicenceState, Licensee,
    sign_key as sign_licence_key,
};
pub use list::{Direction, ListParams, Page, Query};
pub use net::{HttpClient, HttpError, HttpMethod, HttpRequest, HttpResponse, ReqwestClient};
pub use notices::{LicenceText, NoticeGroup, NoticePackage, Notices, notices};
pub use organiser::STORE_FILE;
pub use secrets::{KEY_FILE as SECRET_KEY_FILE, SecretKey, write_private};
pub use store::{OpenError, RawExport};
pub use system::{
    Manifest, ManifestRelease, SignedManifest, System, SystemChange, UpdateInfo, UpdateStatus,
};
pub use task_lists::{TaskList, TaskListInput, TaskListQuery};
pub use tasks::{
    Home, PageCounts, Task, TaskCounts, TaskCountsQuery, TaskInput, TaskListCount, TaskOrder,
    TaskQuery, TaskStatus, View,
};
pub use text::squish;
pub use vocabulary::{
    CalendarSourceChoice, Choice, ContactLabels, FrequencyChoice, IconChoice, LabelChoices,
    PersonLinkChoice, ProjectStatusChoice, RelationshipChoice, TextLimits, Tone, UploadRule,
    Uploads, Vocabulary, vocabulary,
};
