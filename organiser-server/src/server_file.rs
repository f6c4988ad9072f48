//! `server.json` (DESIGN.md "Running it"): while the server runs, the data
//! directory holds its address and a local administrator token (mode 0600)
//! so the CLI, finding the store held, can send its requests here. It is
//! removed on shutdown.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// The file's name in the data directory.
pub const SERVER_FILE: &str = "server.json";

/// What `server.json` holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ServerInfo {
    /// The server's base address, e.g. `http://127.0.0.1:7420`.
    pub url: String,
    /// A token that authenticates as the owner at the machine.
    pub token: String,
    /// The server's process id.
    pub pid: u32,
}

impl ServerInfo {
    /// Reads `server.json` from `dir`, if there is one.
    pub fn read(dir: &Path) -> Option<ServerInfo> {
        let text = std::fs::read_to_string(dir.join(SERVER_FILE)).ok()?;
        serde_json::from_str(&text).ok()
    }
}

/// The written file; dropping it removes the file.
#[derive(Debug)]
pub struct ServerFile {
    path: PathBuf,
}

impl ServerFile {
    /// Writes `info` to `dir/server.json`, readable by its owner only.
    pub fn write(dir: &Path, info: &ServerInfo) -> std::io::Result<ServerFile> {
        let path = dir.join(SERVER_FILE);
        let json = serde_json::to_vec_pretty(info).map_err(std::io::Error::other)?;
        organiser_core::data::write_private(&path, &json)?;
        Ok(ServerFile { path })
    }

    /// A fresh random local administrator token.
    pub fn new_token() -> String {
        let mut bytes = [0u8; 32];
        getrandom::fill(&mut bytes).expect("random source");
        let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        format!("local_{hex}")
    }
}

impl Drop for ServerFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}
