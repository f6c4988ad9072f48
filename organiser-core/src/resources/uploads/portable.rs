//! Uploads in the organiser's archive (EXTENSIONS.md §5): each upload a
//! record uses (a photo, a note's image, a document's PDF) as a line of
//! `records/upload.jsonl` (`id`, `kind`, `filename`, `content_type`,
//! `byte_size`, `created_at`), its file as `files/<id>` and an avatar's
//! thumbnails as `files/<id>.<size>.webp`. Unused uploads (gone within a
//! day) are not exported. An import writes an upload with its ID and its
//! files, before every record that names it.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::record::UploadRecord;
use super::tables::UPLOADS;
use super::{Kind, Stored, get};
use crate::engine::{ReadCx, WriteCx};
use crate::error::{Error, Result};
use crate::files::Staged;
use crate::ids::Id;
use crate::portable::{self, FILES, Imported, Paths, Portable};

/// An upload as the archive writes it.
#[derive(Debug, Serialize, Deserialize)]
struct Line {
    id: Id,
    kind: String,
    filename: String,
    content_type: String,
    byte_size: u64,
    #[serde(with = "crate::time::serde_timestamp")]
    created_at: jiff::Timestamp,
}

/// The uploads' part of the archive.
pub(crate) static PORTABLE: Portable = Portable {
    kind: "upload",
    table: UPLOADS,
    export,
    import,
};

/// The archive's path of the upload file `name` (below `files/`):
/// `uploads/<id>` is written `files/<id>`.
pub(crate) fn archive_path(name: &str) -> String {
    format!("{FILES}{}", name.strip_prefix("uploads/").unwrap_or(name))
}

fn export(cx: &ReadCx<'_>, _paths: &Paths<'_>, id: Id) -> Result<Option<Value>> {
    let Some(upload) = get(cx, id)? else {
        return Ok(None);
    };
    if !upload.used {
        return Ok(None);
    }
    portable::to_line(Line {
        id,
        kind: upload.kind.name().to_owned(),
        filename: upload.filename,
        content_type: upload.content_type,
        byte_size: upload.byte_size,
        created_at: upload.created_at,
    })
    .map(Some)
}

/// The names of upload `id`'s files that are there, for the archive.
pub(crate) fn files_of(cx: &ReadCx<'_>, id: Id) -> Result<Vec<(String, Vec<u8>)>> {
    let mut out = Vec::new();
    for name in Stored::file_names(id) {
        match cx.org.files.read(&name) {
            Ok(bytes) => out.push((archive_path(&name), bytes)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(Error::Internal(format!("reading {name}: {e}"))),
        }
    }
    Ok(out)
}

fn import(cx: &mut WriteCx<'_>, paths: &Paths<'_>, line: Value) -> Result<Imported> {
    let line: Line = portable::read_line("upload", line)?;
    if get(cx, line.id)?.is_some() {
        return Ok(Imported::Unchanged);
    }
    let Some(kind) = Kind::parse(&line.kind) else {
        return Err(Error::invalid(
            "base",
            format!(
                "records/upload.jsonl: the upload {} has an unknown kind `{}`",
                line.id, line.kind
            ),
        ));
    };
    let mut staged = Staged::new(cx.org.files.clone());
    let io = |e: std::io::Error| Error::Internal(format!("placing an imported upload: {e}"));
    let mut placed = 0;
    for name in Stored::file_names(line.id) {
        let Some(bytes) = paths.file(&archive_path(&name)) else {
            continue;
        };
        let temp = staged.stage(super::DIR, bytes).map_err(io)?;
        staged.rename(&temp, &name).map_err(io)?;
        placed += 1;
    }
    if placed == 0 {
        return Err(Error::invalid(
            "base",
            format!(
                "the archive has no file for the upload {} (files/{})",
                line.id, line.id
            ),
        ));
    }
    let upload = Stored {
        id: line.id,
        kind,
        filename: line.filename,
        content_type: line.content_type,
        byte_size: line.byte_size,
        created_at: line.created_at,
        used: true,
    };
    cx.put_record(UPLOADS, &line.id.to_bytes(), &UploadRecord::from(&upload))?;
    // The files stay only if the import commits.
    cx.on_commit(move |_| staged.keep());
    Ok(Imported::Created)
}
