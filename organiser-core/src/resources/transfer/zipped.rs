//! Zip archives in and out (the export's archive, Todoist's backup, a zip
//! of Markdown notes), with a budget checked before anything is
//! inflated: a few kilobytes of hostile zip never cost more than the
//! budget's bytes, whatever its headers claim.

use std::io::{Cursor, Read, Seek, Write};

use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, DateTime, ZipArchive, ZipWriter};

use super::from::Refused;

/// The most entries a zip may hold.
pub(crate) const MAX_ENTRIES: usize = 200_000;

/// How many bytes a zip of `len` bytes may inflate to: 256 MB, or four
/// times its own size for a larger one (an Obsidian vault of photos), so a
/// small hostile zip never costs more than 256 MB.
pub(crate) fn budget(len: usize) -> u64 {
    (len as u64).saturating_mul(4).max(256_000_000)
}

/// One file of a zip: its path inside (with `/`), and its bytes.
pub(crate) type Entry = (String, Vec<u8>);

/// Whether `bytes` start as a zip does.
pub(crate) fn is_zip(bytes: &[u8]) -> bool {
    bytes.starts_with(b"PK\x03\x04") || bytes.starts_with(b"PK\x05\x06")
}

/// Every file of the zip `bytes` (directories left out), in the zip's
/// order, inflating at most `budget` bytes in all; refused when it is not
/// a zip, is damaged, holds more than [`MAX_ENTRIES`] entries, names a
/// path outside itself, or inflates past the budget.
pub(crate) fn entries(bytes: &[u8], budget: u64) -> Result<Vec<Entry>, Refused> {
    let mut archive = ZipArchive::new(Cursor::new(bytes))
        .map_err(|e| Refused::new(format!("not a zip archive: {e}")))?;
    if archive.len() > MAX_ENTRIES {
        return Err(Refused::new(format!(
            "the zip holds {} entries; at most {MAX_ENTRIES} are read",
            archive.len()
        )));
    }
    let mut left = budget;
    let mut out = Vec::with_capacity(archive.len());
    for i in 0..archive.len() {
        let mut file = archive
            .by_index(i)
            .map_err(|e| Refused::new(format!("zip entry {}: {e}", i + 1)))?;
        if file.is_dir() {
            continue;
        }
        let name = file
            .name()
            .map_err(|e| Refused::new(format!("zip entry {}: {e}", i + 1)))?
            .into_owned();
        if file.enclosed_name().is_none() {
            return Err(Refused::new(format!("{name}: a path outside the archive")));
        }
        if file.size() > left {
            return Err(too_big(budget));
        }
        let mut data = Vec::with_capacity(file.size() as usize);
        // The size a header claims is not trusted: reading stops one byte
        // past what is left.
        (&mut file)
            .take(left + 1)
            .read_to_end(&mut data)
            .map_err(|e| Refused::new(format!("{name}: {e}")))?;
        if data.len() as u64 > left {
            return Err(too_big(budget));
        }
        left -= data.len() as u64;
        out.push((name, data));
    }
    Ok(out)
}

fn too_big(budget: u64) -> Refused {
    Refused::new(format!(
        "the zip holds more than {} MB once inflated",
        budget / 1_000_000
    ))
}

/// A zip being written, every entry deflated and dated 1980-01-01 so
/// the same entries always make the same bytes.
pub(crate) struct Writer<W: Write + Seek>(ZipWriter<W>);

impl<W: Write + Seek> Writer<W> {
    /// A zip written to `out`.
    pub(crate) fn new(out: W) -> Self {
        Writer(ZipWriter::new(out))
    }

    /// Starts the entry `name`; what is written next is its content.
    pub(crate) fn start(&mut self, name: &str) -> std::io::Result<()> {
        let options = SimpleFileOptions::default()
            .compression_method(CompressionMethod::Deflated)
            .last_modified_time(DateTime::DEFAULT)
            .unix_permissions(0o644)
            .large_file(false);
        self.0
            .start_file(name, options)
            .map_err(std::io::Error::other)
    }

    /// Adds the entry `name` holding `bytes`.
    pub(crate) fn add(&mut self, name: &str, bytes: &[u8]) -> std::io::Result<()> {
        self.start(name)?;
        self.0.write_all(bytes)
    }

    /// Writes the zip's directory; the output.
    pub(crate) fn finish(self) -> std::io::Result<W> {
        self.0.finish().map_err(std::io::Error::other)
    }
}

impl<W: Write + Seek> Write for Writer<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}

/// A zip of `entries`, in memory.
pub(crate) fn write(entries: &[Entry]) -> std::io::Result<Vec<u8>> {
    let mut w = Writer::new(Cursor::new(Vec::new()));
    for (name, bytes) in entries {
        w.add(name, bytes)?;
    }
    Ok(w.finish()?.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_is_written_reads_back_and_the_same_entries_make_the_same_bytes() {
        let files = vec![
            ("a.md".to_owned(), b"# A".to_vec()),
            ("dir/b.png".to_owned(), vec![0; 1000]),
        ];
        let zip = write(&files).unwrap();
        assert!(is_zip(&zip));
        assert_eq!(write(&files).unwrap(), zip);
        assert_eq!(entries(&zip, 10_000).unwrap(), files);
    }

    #[test]
    fn a_zip_that_inflates_past_its_budget_is_refused_before_it_is_read_whole() {
        let zip = write(&[("big".to_owned(), vec![0; 5_000_000])]).unwrap();
        assert!(zip.len() < 20_000, "{}", zip.len());
        let e = entries(&zip, 1_000_000).unwrap_err();
        assert!(e.0.contains("more than 1 MB"), "{e:?}");
        assert!(entries(b"PK\x03\x04 truncated", 1000).is_err());
        assert!(entries(b"not a zip", 1000).is_err());
    }
}
