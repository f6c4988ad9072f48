//! What `GET /export` writes, by format.

use super::ExportFormat;
use crate::engine::ReadCx;
use crate::engine::request::FileBytes;
use crate::error::Result;

/// The store `cx` reads, exported as `format`: the file.
pub(super) fn export(cx: &ReadCx<'_>, format: ExportFormat) -> Result<FileBytes> {
    let (content_type, bytes) = match format {
        ExportFormat::Organiser => ("application/zip", super::native::export(cx)?),
        other => {
            return Err(crate::error::Error::invalid(
                "format",
                format!("{} is not written yet", other.name()),
            ));
        }
    };
    Ok(FileBytes {
        content_type: content_type.to_owned(),
        filename: format!("organiser-export-{}.{}", cx.today(), format.extension()),
        bytes,
    })
}
