//! Open source notices: document 1, "Open source notices", served by
//! `GET /licences` as `{data: {groups, licences}}`.
//!
//! The notices live in `notices.json` beside this file, embedded at build
//! time. They are generated from the real dependency tree by the facade's
//! `tests/notices.rs`, which also fails when `Cargo.lock` gains a package the
//! file lacks; regenerate with `ORGANISER_BLESS=1 cargo test --test notices`.

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

/// The open source notices: the packages Organiser distributes, grouped for
/// display, and the full text of every licence they are distributed under.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Notices {
    /// Groups of packages, in display order (`rust`, then `data`).
    pub groups: Vec<NoticeGroup>,
    /// Every licence a package names, once each, sorted by `id`.
    pub licences: Vec<LicenceText>,
}

/// One group of packages, such as the Rust crates or bundled data.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NoticeGroup {
    /// Stable key of the group (`rust`, `data`).
    pub key: String,
    /// Display label of the group ("Rust crates", "Data").
    pub label: String,
    /// The group's packages, sorted by name then version.
    pub packages: Vec<NoticePackage>,
}

/// One distributed package.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NoticePackage {
    /// Package name.
    pub name: String,
    /// Package version.
    pub version: String,
    /// The licence the package declares (an SPDX expression, as written).
    pub licence: String,
    /// Where the package lives: its repository, else its home page, else
    /// its crates.io page.
    pub url: String,
    /// The `id` of the entry of [`Notices::licences`] holding the text of the
    /// licence Organiser distributes the package under.
    pub licence_id: String,
}

/// The full text of one licence (or of several that all apply, each under a
/// heading).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LicenceText {
    /// SPDX identifier, `A AND B` for several, or a `LicenseRef-` name.
    pub id: String,
    /// The licence text.
    pub text: String,
}

impl Notices {
    /// The licence text named `id`, if listed.
    pub fn licence(&self, id: &str) -> Option<&LicenceText> {
        self.licences.iter().find(|l| l.id == id)
    }

    /// The package named `name` in any group, if listed (the first version).
    pub fn package(&self, name: &str) -> Option<&NoticePackage> {
        self.groups
            .iter()
            .flat_map(|g| &g.packages)
            .find(|p| p.name == name)
    }
}

/// `GET /licences`: fixed data, for any principal.
pub(crate) static GET: crate::engine::operation::Operation<(), &'static Notices> =
    crate::engine::operation::Operation::new(
        "getNotices",
        crate::engine::request::Method::Get,
        "/licences",
        "Open source notices\n\nNot paginated. Groups `rust` (every crate compiled in) and `data` (the time zone database).",
        crate::engine::operation::Run::Plain(crate::engine::op::PlainOp::PRIVATE, |_, ()| {
            Ok(notices())
        }),
        crate::engine::operation::Answer::data(200),
    );

/// The notices' operation, for the registry.
pub(crate) static OPERATIONS: &[&dyn crate::engine::operation::Declared] = &[&GET];

/// The open source notices (`GET /licences`), parsed once from the embedded
/// `notices.json`.
pub fn notices() -> &'static Notices {
    static NOTICES: OnceLock<Notices> = OnceLock::new();
    NOTICES.get_or_init(|| {
        serde_json::from_str(include_str!("notices.json"))
            .expect("notices.json is valid (tests/notices.rs generates and checks it)")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_file_parses() {
        let n = notices();
        assert!(!n.licences.is_empty());
        assert!(n.groups.iter().all(|g| !g.packages.is_empty()));
    }

    #[test]
    fn groups_are_rust_then_data() {
        let keys: Vec<&str> = notices().groups.iter().map(|g| g.key.as_str()).collect();
        assert_eq!(keys, ["rust", "data"]);
        let labels: Vec<&str> = notices().groups.iter().map(|g| g.label.as_str()).collect();
        assert_eq!(labels, ["Rust crates", "Data"]);
    }

    #[test]
    fn every_licence_id_resolves_to_a_text() {
        let n = notices();
        for package in n.groups.iter().flat_map(|g| &g.packages) {
            let licence = n.licence(&package.licence_id).unwrap_or_else(|| {
                panic!(
                    "{} names unknown licence {}",
                    package.name, package.licence_id
                )
            });
            assert!(
                !licence.text.trim().is_empty(),
                "{} has an empty text",
                licence.id
            );
        }
        let ids: Vec<&str> = n.licences.iter().map(|l| l.id.as_str()).collect();
        assert!(
            ids.windows(2).all(|w| w[0] < w[1]),
            "licences are sorted by id, each once"
        );
    }

    #[test]
    fn organiser_itself_is_not_listed() {
        for own in [
            "organiser",
            "organiser-core",
            "organiser-server",
            "organiser-cli",
        ] {
            assert!(notices().package(own).is_none(), "{own} is listed");
        }
    }

    #[test]
    fn a_known_dependency_is_listed_with_its_licence() {
        let redb = notices().package("redb").expect("redb is listed");
        assert!(!redb.licence.is_empty());
        assert!(!redb.version.is_empty());
        assert!(redb.url.starts_with("https://"));
        assert!(
            notices()
                .licence(&redb.licence_id)
                .is_some_and(|l| !l.text.is_empty())
        );
    }

    #[test]
    fn the_tz_database_is_listed_as_public_domain() {
        let data = notices()
            .groups
            .iter()
            .find(|g| g.key == "data")
            .expect("a data group");
        let tz = data
            .packages
            .iter()
            .find(|p| p.name == "IANA Time Zone Database")
            .expect("the tz database");
        assert_eq!(tz.licence_id, "LicenseRef-public-domain");
        assert!(
            notices()
                .licence(&tz.licence_id)
                .is_some_and(|l| l.text.contains("public domain"))
        );
    }

    #[test]
    fn it_serialises_to_the_spec_shape() {
        let value = serde_json::to_value(notices()).unwrap();
        let package = &value["groups"][0]["packages"][0];
        for field in ["name", "version", "licence", "url", "licence_id"] {
            assert!(package[field].is_string(), "{field}");
        }
        assert!(value["licences"][0]["id"].is_string() && value["licences"][0]["text"].is_string());
    }
}
