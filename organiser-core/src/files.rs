//! Files beside the store (DESIGN.md "Files"): uploads, avatars, PDFs and
//! thumbnails live under `files/` in the data directory, each written to a
//! temporary name in its own directory, synced, then renamed into place;
//! directories are 0700 and files 0600. A store with no data directory
//! (`Organiser::in_memory`) keeps its files in memory, with the same
//! operations, so the rules run the same on both.
//!
//! The store holds the files' metadata; a file whose record is gone is
//! garbage, never an error. Names are relative to `files/`, with `/`
//! between a directory and a file (`uploads/01ARZ...`).

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::secrets::{random_bytes, to_hex};

/// The directory under the data directory that holds every file.
pub const FILES_DIR: &str = "files";

/// Where files are kept.
#[derive(Debug)]
pub(crate) enum Files {
    /// Under this directory (`DATA_DIR/files`).
    Disk(PathBuf),
    /// In memory, by name.
    Memory(Mutex<BTreeMap<String, Vec<u8>>>),
}

impl Files {
    /// The files of a store in `data_dir`, or in memory without one.
    pub(crate) fn new(data_dir: Option<&Path>) -> Files {
        match data_dir {
            Some(dir) => Files::Disk(dir.join(FILES_DIR)),
            None => Files::Memory(Mutex::default()),
        }
    }

    fn memory(
        map: &Mutex<BTreeMap<String, Vec<u8>>>,
    ) -> std::sync::MutexGuard<'_, BTreeMap<String, Vec<u8>>> {
        map.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Writes `bytes` under a fresh temporary name in the directory `dir`
    /// (created 0700 when missing), synced to the disk; the name.
    pub(crate) fn stage(&self, dir: &str, bytes: &[u8]) -> std::io::Result<String> {
        let name = format!("{dir}/.tmp-{}", to_hex(&random_bytes(12)));
        match self {
            Files::Disk(root) => {
                let folder = root.join(dir);
                create_private_dir(&folder)?;
                let path = root.join(&name);
                let mut options = std::fs::OpenOptions::new();
                options.write(true).create_new(true);
                #[cfg(unix)]
                {
                    use std::os::unix::fs::OpenOptionsExt;
                    options.mode(0o600);
                }
                let written = options.open(&path).and_then(|mut file| {
                    file.write_all(bytes)?;
                    file.sync_all()
                });
                if let Err(e) = written {
                    let _ = std::fs::remove_file(&path);
                    return Err(e);
                }
            }
            Files::Memory(map) => {
                Files::memory(map).insert(name.clone(), bytes.to_vec());
            }
        }
        Ok(name)
    }

    /// Renames `from` to `to` (both in one directory), and syncs the
    /// directory so the new name is on the disk.
    pub(crate) fn rename(&self, from: &str, to: &str) -> std::io::Result<()> {
        match self {
            Files::Disk(root) => {
                let to = root.join(to);
                std::fs::rename(root.join(from), &to)?;
                if let Some(parent) = to.parent() {
                    std::fs::File::open(parent)?.sync_all()?;
                }
                Ok(())
            }
            Files::Memory(map) => {
                let mut map = Files::memory(map);
                let bytes = map
                    .remove(from)
                    .ok_or_else(|| std::io::Error::from(std::io::ErrorKind::NotFound))?;
                map.insert(to.to_owned(), bytes);
                Ok(())
            }
        }
    }

    /// Removes `name`; one already gone is fine.
    pub(crate) fn remove(&self, name: &str) -> std::io::Result<()> {
        match self {
            Files::Disk(root) => match std::fs::remove_file(root.join(name)) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
                _ => Ok(()),
            },
            Files::Memory(map) => {
                Files::memory(map).remove(name);
                Ok(())
            }
        }
    }

    /// Removes each of `names`, logging (never failing on) what cannot be.
    pub(crate) fn remove_all(&self, names: &[String]) {
        for name in names {
            if let Err(error) = self.remove(name) {
                tracing::warn!(%error, file = %name, "a file could not be removed");
            }
        }
    }

    /// The bytes of `name`.
    pub(crate) fn read(&self, name: &str) -> std::io::Result<Vec<u8>> {
        match self {
            Files::Disk(root) => std::fs::read(root.join(name)),
            Files::Memory(map) => Files::memory(map)
                .get(name)
                .cloned()
                .ok_or_else(|| std::io::Error::from(std::io::ErrorKind::NotFound)),
        }
    }

    /// Every file's name, sorted.
    pub(crate) fn list(&self) -> std::io::Result<Vec<String>> {
        match self {
            Files::Disk(root) => {
                let mut names = Vec::new();
                if root.is_dir() {
                    walk(root, "", &mut names)?;
                }
                names.sort();
                Ok(names)
            }
            Files::Memory(map) => Ok(Files::memory(map).keys().cloned().collect()),
        }
    }
}

fn walk(dir: &Path, prefix: &str, names: &mut Vec<String>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let name = format!("{prefix}{}", entry.file_name().to_string_lossy());
        if entry.file_type()?.is_dir() {
            walk(&entry.path(), &format!("{name}/"), names)?;
        } else {
            names.push(name);
        }
    }
    Ok(())
}

/// Creates `dir` and its parents, each made here readable by its owner
/// only (0700).
pub(crate) fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    if dir.is_dir() {
        return Ok(());
    }
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        builder.mode(0o700);
    }
    builder.create(dir)
}

/// Files written for a request that are removed when it does not commit:
/// made before the transaction, handed to the transaction's `on_commit`
/// (which keeps them) once the record that names them is written. Dropped
/// without being kept, it removes them, so a failed request leaves no file.
pub(crate) struct Staged {
    files: Arc<Files>,
    names: Vec<String>,
}

impl Staged {
    pub(crate) fn new(files: Arc<Files>) -> Staged {
        Staged {
            files,
            names: Vec::new(),
        }
    }

    /// Writes `bytes` to a temporary name in `dir` (see [`Files::stage`]).
    pub(crate) fn stage(&mut self, dir: &str, bytes: &[u8]) -> std::io::Result<String> {
        let name = self.files.stage(dir, bytes)?;
        self.names.push(name.clone());
        Ok(name)
    }

    /// Renames the staged `from` to `to`; `to` is then removed too if the
    /// request fails.
    pub(crate) fn rename(&mut self, from: &str, to: &str) -> std::io::Result<()> {
        self.files.rename(from, to)?;
        for name in &mut self.names {
            if name == from {
                *name = to.to_owned();
            }
        }
        Ok(())
    }

    /// The request committed: the files stay.
    pub(crate) fn keep(mut self) {
        self.names.clear();
    }
}

impl Drop for Staged {
    fn drop(&mut self) {
        self.files.remove_all(&self.names);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn both() -> Vec<(Files, Option<tempfile::TempDir>)> {
        let dir = tempfile::tempdir().unwrap();
        vec![
            (Files::new(Some(dir.path())), Some(dir)),
            (Files::new(None), None),
        ]
    }

    #[test]
    fn staged_files_are_renamed_kept_or_removed() {
        for (files, _dir) in both() {
            let files = Arc::new(files);
            let mut staged = Staged::new(files.clone());
            let tmp = staged.stage("uploads", b"one").unwrap();
            assert!(tmp.starts_with("uploads/.tmp-"));
            staged.rename(&tmp, "uploads/a").unwrap();
            staged.keep();
            let mut staged = Staged::new(files.clone());
            let tmp = staged.stage("uploads", b"two").unwrap();
            staged.rename(&tmp, "uploads/b").unwrap();
            let _other = staged.stage("uploads", b"three").unwrap();
            drop(staged);
            assert_eq!(files.list().unwrap(), ["uploads/a"]);
            assert_eq!(files.read("uploads/a").unwrap(), b"one");
            files.remove("uploads/a").unwrap();
            files.remove("uploads/a").unwrap();
            assert!(files.list().unwrap().is_empty());
        }
    }

    #[cfg(unix)]
    #[test]
    fn directories_and_files_are_private() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let files = Files::new(Some(dir.path()));
        let tmp = files.stage("uploads", b"x").unwrap();
        files.rename(&tmp, "uploads/a").unwrap();
        let mode = |p: PathBuf| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(dir.path().join("files")), 0o700);
        assert_eq!(mode(dir.path().join("files/uploads")), 0o700);
        assert_eq!(mode(dir.path().join("files/uploads/a")), 0o600);
    }
}
