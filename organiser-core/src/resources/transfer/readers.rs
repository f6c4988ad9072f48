//! The foreign readers, by format: which one reads a file, and whether
//! its bytes look like the format.

use super::Format;
use super::draft::Parsed;
use super::from::Refused;

/// Whether `bytes` (from a file named `name`) look like `format`.
pub(super) fn looks_like(format: Format, bytes: &[u8], name: &str) -> bool {
    let _ = (format, bytes, name);
    false
}

/// Reads `bytes` as `format` (a foreign one): the drafts, or why the file
/// is not the format.
pub(super) fn read(
    format: Format,
    bytes: &[u8],
    name: &str,
    zone: &jiff::tz::TimeZone,
) -> Result<Parsed, Refused> {
    let _ = (bytes, name, zone);
    Err(Refused::new(format!("{} is not read yet", format.name())))
}
