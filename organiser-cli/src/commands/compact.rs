//! `organiser compact`: gives the space that deleted and rewritten records
//! left in the store file back to the file system (redb's compaction), and
//! says the file's size before and after. Nothing else may hold the store.

use clap::Args;
use organiser_core::Organiser;
use serde::Serialize;

use super::Global;
use crate::backend::{data_dir, open_error};
use crate::error::CliError;
use crate::output;

#[derive(Debug, Args)]
pub(crate) struct Compact {}

/// `--json`: `{data: {before_bytes, after_bytes}}`.
#[derive(Serialize)]
struct Data {
    data: Sizes,
}

#[derive(Serialize)]
struct Sizes {
    before_bytes: u64,
    after_bytes: u64,
}

impl Compact {
    pub(crate) fn run(self, global: &Global) -> Result<(), CliError> {
        let dir = data_dir(global.data_dir.as_deref())?;
        let done = Organiser::compact(&dir).map_err(|e| open_error(&dir, e))?;
        if global.json {
            return output::json(&Data {
                data: Sizes {
                    before_bytes: done.before,
                    after_bytes: done.after,
                },
            });
        }
        output::line(format!(
            "Compacted {}: {} -> {} ({} given back)",
            dir.join(organiser_core::data::STORE_FILE).display(),
            size(done.before),
            size(done.after),
            size(done.before.saturating_sub(done.after)),
        ))
    }
}

/// A byte count as every screen and message says it (the core's one
/// style, binary units): `512 B`, `3.4 KiB`, `223.0 MiB`.
pub(crate) fn size(bytes: u64) -> String {
    organiser_core::limits::size(bytes)
}

#[cfg(test)]
mod tests {
    #[test]
    fn sizes_read_as_people_read_them() {
        for (bytes, text) in [
            (0, "0 B"),
            (1023, "1023 B"),
            (1024, "1.0 KiB"),
            (233_832_448, "223.0 MiB"),
            (5 << 30, "5.0 GiB"),
        ] {
            assert_eq!(super::size(bytes), text);
        }
    }
}
