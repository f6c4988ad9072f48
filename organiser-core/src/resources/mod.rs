//! The resources and their registry: every resource of the API (one folder
//! each: its records, parsing, operations and route arms), the route of
//! each first path segment, and the registry of record kinds (document 1,
//! "Deletion", "Deletions (sync)"): every kind of record the store holds,
//! with its deletion `type`, restore window, purge, liveness and rules of
//! the clock, every cascade of a delete, and the store's migration steps.
//! The engine is wired to it at open.
//!
//! Adding a resource touches this file only, outside the resource's own
//! folder: its `mod` line and public types, its dispatch line in
//! [`route`], its kinds in [`KINDS`], its cascades in [`CASCADES`], and a
//! migration step when it adds tables, and its tables in [`TABLES`].

mod account;
mod deletions;
mod discovery;
mod licence;
mod notices;
mod system;
mod task_lists;
mod tasks;
mod vocabulary;

pub(crate) use account::owner;
pub use account::{Appearance, AppearanceChange, Me, NewToken, OwnerChange, OwnerInit, SignedIn};
pub use deletions::{Deletion, DeletionQuery};
pub use discovery::Discovery;
pub use licence::{
    Licence, LicenceKeyPayload, LicenceProblem, LicenceState, Licensee,
    sign_key as sign_licence_key,
};
pub use notices::{LicenceText, NoticeGroup, NoticePackage, Notices, notices};
pub use system::{
    Manifest, ManifestRelease, SignedManifest, System, SystemChange, UpdateInfo, UpdateStatus,
};
pub use task_lists::{TaskList, TaskListInput, TaskListQuery};
pub use tasks::{
    Home, PageCounts, Task, TaskCounts, TaskCountsQuery, TaskInput, TaskListCount, TaskOrder,
    TaskQuery, TaskStatus, View,
};
pub use vocabulary::{
    CalendarSourceChoice, Choice, ContactLabels, FrequencyChoice, IconChoice, LabelChoices,
    PersonLinkChoice, ProjectStatusChoice, RelationshipChoice, TextLimits, Tone, UploadRule,
    Uploads, Vocabulary, vocabulary,
};

use crate::engine::kinds::{Cascade, RecordKind, Wiring};
use crate::engine::op::Route;
use crate::engine::request::Request;
use crate::error::{Error, Result};
use crate::settle;
use crate::store::Tbl;
use crate::store::schema::{self, Step};

/// The route of `req`: a thin match on the first path segment that hands
/// the segments to the resource's own route arms.
pub(crate) fn route<'r>(req: &'r Request, segments: &[&'r str]) -> Result<Route<'r>> {
    match segments.first().copied().unwrap_or("") {
        ".well-known" => discovery::routes(req, segments),
        "me" | "appearance" | "api_tokens" => account::routes(req, segments),
        "system" => system::routes(req, segments),
        "licence" => licence::routes(req, segments),
        "vocabulary" => vocabulary::routes(req, segments),
        "licences" => notices::routes(req, segments),
        "deletions" => deletions::routes(req, segments),
        "task_lists" => task_lists::routes(req, segments),
        "tasks" | "task_counts" => tasks::routes(req, segments),
        _ => Err(Error::NotFound),
    }
}

/// Every table: the core's, then each resource's.
pub(crate) static TABLES: &[&[Tbl]] = &[
    schema::CORE,
    account::tables::TABLES,
    task_lists::tables::TABLES,
    tasks::tables::TABLES,
];

/// Every kind of record.
pub(crate) static KINDS: &[&RecordKind] = &[&task_lists::KIND, &tasks::KIND];

/// Every cascade of a delete.
pub(crate) static CASCADES: &[&Cascade] = &[&tasks::LIST_CASCADE];

/// The store's migration steps: `MIGRATIONS[n]` brings a store of schema
/// `n` to `n + 1` (`schema::VERSION` is their number).
pub(crate) static MIGRATIONS: &[Step] = &[
    // 1: every table.
    |tx| schema::create_tables(tx, TABLES),
    // 2: completion counters by quarter hour (`completed_today`).
    tasks::count_stored_completions,
    // 3: compact records (postcard) and covering index values.
    |tx| {
        tasks::store_records_compactly(tx)?;
        task_lists::store_records_compactly(tx)
    },
];

/// What the engine is wired to.
pub(crate) static WIRING: Wiring = Wiring {
    tables: TABLES,
    kinds: KINDS,
    cascades: CASCADES,
    due: settle::due,
    settle: settle::run,
    require_writable: licence::require_writable,
    require_writable_in_write: licence::require_writable,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_names_are_unique() {
        use redb::TableHandle;
        let mut names: Vec<String> = TABLES
            .iter()
            .copied()
            .flatten()
            .map(|t| t.name().to_owned())
            .collect();
        let all = names.len();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), all);
    }

    #[test]
    fn names_and_tags_are_unique() {
        for (i, a) in KINDS.iter().enumerate() {
            for b in &KINDS[i + 1..] {
                assert_ne!(a.name, b.name);
                assert_ne!(a.tag, b.tag, "{} and {}", a.name, b.name);
            }
        }
    }

    #[test]
    fn the_schema_version_is_the_number_of_migration_steps() {
        assert_eq!(MIGRATIONS.len(), schema::VERSION as usize);
    }

    #[test]
    fn every_cascade_names_registered_kinds() {
        for c in CASCADES {
            assert!(WIRING.kind(c.from).is_some(), "{}", c.from);
            assert!(WIRING.kind(c.to).is_some(), "{}", c.to);
        }
    }
}
