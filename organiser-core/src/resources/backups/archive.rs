//! The backup archive (EXTENSIONS.md §4): one tar file, `manifest.json`
//! first, then the store copied from one read transaction, the secret
//! key and the files; written under a temporary name, synced, renamed,
//! then read back whole and checked before it counts. The same check runs
//! before a restore touches anything.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use jiff::Timestamp;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::secrets::{random_bytes, to_hex};
use crate::store::{self, ReadTx};

/// The archive's format, in its manifest.
pub(crate) const FORMAT: u32 = 1;
/// The manifest's name in the archive (its first member).
pub(crate) const MANIFEST: &str = "manifest.json";
/// The store's name in the archive.
pub(crate) const STORE: &str = crate::organiser::STORE_FILE;
/// The secret key's name in the archive.
pub(crate) const SECRET_KEY: &str = crate::secrets::KEY_FILE;
/// The prefix of the files' names in the archive.
pub(crate) const FILES: &str = "files/";
/// Backup file names: `organiser-backup-20261129T030000Z.tar`.
pub(crate) const PREFIX: &str = "organiser-backup-";
pub(crate) const SUFFIX: &str = ".tar";

/// What an archive says of itself.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Manifest {
    pub(crate) format: u32,
    pub(crate) app_version: String,
    pub(crate) schema_version: u32,
    #[serde(with = "crate::time::serde_timestamp")]
    pub(crate) created_at: Timestamp,
    /// The entries of each table of the store.
    pub(crate) counts: BTreeMap<String, u64>,
    /// Every other member, in archive order.
    pub(crate) members: Vec<Member>,
}

/// A member of the archive: its name, size and SHA-256.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Member {
    pub(crate) path: String,
    pub(crate) bytes: u64,
    pub(crate) sha256: String,
}

/// What goes into an archive besides the store.
pub(crate) struct Contents<'a> {
    pub(crate) app_version: &'a str,
    pub(crate) created_at: Timestamp,
    /// The secret key's file, when there is one.
    pub(crate) secret_key: Option<Vec<u8>>,
    /// The files kept beside the store, by name, and how to read each.
    pub(crate) files: Vec<String>,
    pub(crate) read_file: &'a dyn Fn(&str) -> std::io::Result<Vec<u8>>,
}

fn io(what: &str, path: &Path, e: std::io::Error) -> String {
    format!("{what} {}: {e}", path.display())
}

/// A file's size and SHA-256 (hexadecimal), read in 64 KiB pieces.
pub(crate) fn sha256_file(path: &Path) -> Result<(u64, String), String> {
    let mut file = BufReader::new(File::open(path).map_err(|e| io("cannot read", path, e))?);
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    let mut bytes = 0u64;
    loop {
        let n = file
            .read(&mut buf)
            .map_err(|e| io("cannot read", path, e))?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
        bytes += n as u64;
    }
    Ok((bytes, to_hex(&hasher.finalize())))
}

fn member(path: &str, bytes: &[u8]) -> Member {
    Member {
        path: path.to_owned(),
        bytes: bytes.len() as u64,
        sha256: to_hex(&Sha256::digest(bytes)),
    }
}

/// Opens a new file readable by its owner only.
fn create_private(path: &Path) -> std::io::Result<File> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(path)
}

fn header(bytes: u64, at: Timestamp) -> tar::Header {
    let mut header = tar::Header::new_gnu();
    header.set_size(bytes);
    header.set_mode(0o600);
    header.set_mtime(u64::try_from(at.as_second()).unwrap_or(0));
    header.set_entry_type(tar::EntryType::Regular);
    header
}

/// A temporary name in `dir` (hidden, so listings skip it).
pub(crate) fn temporary(dir: &Path, what: &str) -> PathBuf {
    dir.join(format!(".tmp-{what}-{}", to_hex(&random_bytes(8))))
}

/// Writes the archive of snapshot `tx` with `contents` to `path` (which
/// must not exist), synced: the store is copied first to a temporary
/// file beside it (removed afterwards). The manifest written.
pub(crate) fn write(tx: &ReadTx, contents: &Contents<'_>, path: &Path) -> Result<Manifest, String> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let copy = temporary(dir, "store");
    let result = write_with_copy(tx, contents, path, &copy);
    let _ = std::fs::remove_file(&copy);
    if result.is_err() {
        let _ = std::fs::remove_file(path);
    }
    result
}

fn write_with_copy(
    tx: &ReadTx,
    contents: &Contents<'_>,
    path: &Path,
    copy: &Path,
) -> Result<Manifest, String> {
    let counts = store::copy_snapshot(tx, copy).map_err(|e| format!("copying the store: {e}"))?;
    let schema_version = crate::store::schema::version(tx).map_err(|e| e.to_string())?;
    let (bytes, sha256) = sha256_file(copy)?;
    let mut members = vec![Member {
        path: STORE.to_owned(),
        bytes,
        sha256,
    }];
    if let Some(key) = &contents.secret_key {
        members.push(member(SECRET_KEY, key));
    }
    // A file removed since the snapshot (a purge) is left out: the
    // snapshot's record of it is gone by the next settle anyway.
    let mut files = Vec::new();
    for name in &contents.files {
        if let Ok(bytes) = (contents.read_file)(name) {
            members.push(member(&format!("{FILES}{name}"), &bytes));
            files.push((name.clone(), bytes));
        }
    }
    let manifest = Manifest {
        format: FORMAT,
        app_version: contents.app_version.to_owned(),
        schema_version,
        created_at: contents.created_at,
        counts,
        members,
    };
    let file = create_private(path).map_err(|e| io("cannot create", path, e))?;
    let mut tar = tar::Builder::new(BufWriter::new(file));
    let at = contents.created_at;
    let text = serde_json::to_vec_pretty(&manifest).map_err(|e| e.to_string())?;
    let append =
        |tar: &mut tar::Builder<BufWriter<File>>, name: &str, bytes: u64, data: &mut dyn Read| {
            let mut h = header(bytes, at);
            tar.append_data(&mut h, name, data)
                .map_err(|e| io("cannot write", path, e))
        };
    append(&mut tar, MANIFEST, text.len() as u64, &mut text.as_slice())?;
    let mut store_file = File::open(copy).map_err(|e| io("cannot read", copy, e))?;
    append(&mut tar, STORE, manifest.members[0].bytes, &mut store_file)?;
    if let Some(key) = &contents.secret_key {
        append(&mut tar, SECRET_KEY, key.len() as u64, &mut key.as_slice())?;
    }
    for (name, bytes) in &files {
        append(
            &mut tar,
            &format!("{FILES}{name}"),
            bytes.len() as u64,
            &mut bytes.as_slice(),
        )?;
    }
    let mut out = tar.into_inner().map_err(|e| io("cannot write", path, e))?;
    out.flush().map_err(|e| io("cannot write", path, e))?;
    out.get_ref()
        .sync_all()
        .map_err(|e| io("cannot sync", path, e))?;
    Ok(manifest)
}

/// Reads the archive at `path` whole and checks it: the manifest first
/// and of a known format, every member named in it once with its size
/// and SHA-256, nothing else, and the store copy passing redb's integrity
/// check with the tables' entries the manifest counts. With `keep`, the
/// members are written below that directory (the store as
/// `organiser.redb`, the key as `secret.key`, the files under `files/`);
/// else the store alone goes to a temporary file beside the archive. The
/// manifest, or the reason when anything is wrong.
pub(crate) fn check(path: &Path, keep: Option<&Path>) -> Result<Manifest, String> {
    let scratch_dir = match keep {
        Some(dir) => dir.to_path_buf(),
        None => path.parent().unwrap_or(Path::new(".")).to_path_buf(),
    };
    let scratch_store = match keep {
        Some(dir) => dir.join(STORE),
        None => temporary(&scratch_dir, "check"),
    };
    let result = check_into(path, keep, &scratch_store);
    if keep.is_none() {
        let _ = std::fs::remove_file(&scratch_store);
    }
    result
}

fn check_into(path: &Path, keep: Option<&Path>, store_to: &Path) -> Result<Manifest, String> {
    let file = File::open(path).map_err(|e| io("cannot open", path, e))?;
    let mut archive = tar::Archive::new(BufReader::new(file));
    let broken = |e: std::io::Error| format!("the archive is damaged or cut short: {e}");
    let mut entries = archive.entries().map_err(broken)?;
    let manifest = read_manifest(&mut entries)?;
    if manifest.format != FORMAT {
        return Err(format!(
            "its format is {}; this build reads format {FORMAT}",
            manifest.format
        ));
    }
    let wanted: BTreeMap<&str, &Member> = manifest
        .members
        .iter()
        .map(|m| (m.path.as_str(), m))
        .collect();
    if wanted.len() != manifest.members.len() || !wanted.contains_key(STORE) {
        return Err("its manifest names a member twice, or no store".into());
    }
    let mut seen = std::collections::BTreeSet::new();
    for entry in entries {
        let mut entry = entry.map_err(broken)?;
        let name = entry.path().map_err(broken)?.to_string_lossy().into_owned();
        let Some(member) = wanted.get(name.as_str()) else {
            return Err(format!(
                "it holds {name:?}, which its manifest does not name"
            ));
        };
        if !seen.insert(name.clone()) {
            return Err(format!("it holds {name:?} twice"));
        }
        let target = match (name.as_str(), keep) {
            (STORE, _) => Some(store_to.to_path_buf()),
            (_, Some(dir)) => Some(safe_join(dir, &name)?),
            (_, None) => None,
        };
        let mut out = match &target {
            Some(t) => {
                if let Some(parent) = t.parent() {
                    std::fs::create_dir_all(parent).map_err(|e| io("cannot create", parent, e))?;
                }
                Some(BufWriter::new(
                    create_private(t).map_err(|e| io("cannot create", t, e))?,
                ))
            }
            None => None,
        };
        let mut hasher = Sha256::new();
        let mut bytes = 0u64;
        let mut buf = vec![0u8; 1 << 16];
        loop {
            let n = entry.read(&mut buf).map_err(broken)?;
            if n == 0 {
                break;
            }
            hasher.update(&buf[..n]);
            bytes += n as u64;
            if let Some(out) = &mut out {
                out.write_all(&buf[..n])
                    .map_err(|e| format!("cannot write while checking: {e}"))?;
            }
        }
        if let Some(mut out) = out {
            out.flush()
                .map_err(|e| format!("cannot write while checking: {e}"))?;
            out.get_ref()
                .sync_all()
                .map_err(|e| format!("cannot sync while checking: {e}"))?;
        }
        if bytes < member.bytes {
            return Err(format!(
                "{name} is cut short ({bytes} of {} bytes)",
                member.bytes
            ));
        }
        if bytes != member.bytes || to_hex(&hasher.finalize()) != member.sha256 {
            return Err(format!(
                "{name} does not match its manifest (damaged: its size or SHA-256 differs)"
            ));
        }
    }
    if let Some(missing) = wanted.keys().find(|k| !seen.contains(**k)) {
        return Err(format!("{missing} is missing (the archive is cut short)"));
    }
    let checked = store::check_file(store_to)?;
    if checked.counts != manifest.counts {
        return Err("the store's tables do not hold what the manifest counts".into());
    }
    if checked.schema_version != manifest.schema_version {
        return Err("the store's schema is not the one the manifest names".into());
    }
    Ok(manifest)
}

/// `dir` joined with an archive member's name, refused when the name
/// would leave `dir`.
fn safe_join(dir: &Path, name: &str) -> Result<PathBuf, String> {
    let mut out = dir.to_path_buf();
    for part in name.split('/') {
        if part.is_empty() || part == "." || part == ".." || part.contains('\\') {
            return Err(format!("it holds a member with an unsafe name: {name:?}"));
        }
        out.push(part);
    }
    Ok(out)
}

/// The manifest of the archive at `path`, read from its first member
/// alone (listing backups reads no more).
pub(crate) fn manifest_of(path: &Path) -> Result<Manifest, String> {
    let file = File::open(path).map_err(|e| io("cannot open", path, e))?;
    let mut archive = tar::Archive::new(BufReader::new(file));
    let mut entries = archive
        .entries()
        .map_err(|e| format!("the archive is damaged or cut short: {e}"))?;
    read_manifest(&mut entries)
}

/// The manifest, the first of `entries` (at most 16 MiB of it is read).
fn read_manifest<R: Read>(entries: &mut tar::Entries<'_, R>) -> Result<Manifest, String> {
    let broken = |e: std::io::Error| format!("the archive is damaged or cut short: {e}");
    let mut first = entries
        .next()
        .ok_or("the archive is empty")?
        .map_err(broken)?;
    let name = first.path().map_err(broken)?.to_string_lossy().into_owned();
    if name != MANIFEST {
        return Err(format!(
            "not an Organiser backup: its first member is {name:?}, not {MANIFEST}"
        ));
    }
    let mut text = Vec::new();
    first
        .by_ref()
        .take(1 << 24)
        .read_to_end(&mut text)
        .map_err(broken)?;
    serde_json::from_slice(&text).map_err(|e| format!("its manifest cannot be read: {e}"))
}
