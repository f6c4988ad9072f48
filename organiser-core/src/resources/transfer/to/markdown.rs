//! Notes as Markdown (EXTENSIONS.md §5, "Foreign exports", `organiser
//! export --format markdown`): a zip of one `.md` file per note and its
//! images under `attachments/`, which Joplin ("Markdown + Front Matter"
//! import of the unzipped folder), Obsidian (the unzipped folder as a
//! vault) and `organiser import --from markdown` read.
//!
//! - **Front matter** (YAML between `---` lines, every text double-quoted):
//!   `title` (only when the note has one; a note without a title is named
//!   by its file), `id` (the organiser's id), `created` (`created_at`) and
//!   `updated` (`edited_at`) as RFC 3339 UTC (`2023-01-05T10:11:12Z`),
//!   `tags` as a YAML list of the note's tag names (left out when none).
//!   Its category, pin and AI-title flag are not written.
//! - **Body**: the note's HTML as CommonMark (bold, italics, lists, quotes,
//!   code, links, headings); a mention is the text `@Name`, a project
//!   reference `^Name` and a tag `#name` (which Obsidian and the organiser
//!   read back as a tag); an image is `![](attachments/<file>)` (relative
//!   to the note, so `../attachments/...` from a note in a folder), the
//!   file written under `attachments/` with a name safe on every system
//!   and unique in the zip (`photo.png`, `photo-2.png`). An image whose
//!   bytes the caller did not give is left out.
//! - **File names**: [`file_name`] makes a note's name safe on every
//!   system (no `/ \ : * ? " < > |` or control characters, no leading dot,
//!   no trailing dot or space, none of Windows' reserved names, at most
//!   100 bytes) and unique without regard to case, with ` (2)`, ` (3)`...

use std::collections::{HashMap, HashSet};
use std::io::Cursor;

use crate::html::tokens::{Token, attr, escape, tokens};
use crate::resources::notes::Note;
use crate::resources::transfer::zipped;

/// The most bytes of a file name in the zip.
const NAME_MAX: usize = 100;

/// Windows' reserved device names, which no file may be called (with any
/// extension).
const RESERVED: &[&str] = &[
    "con", "prn", "aux", "nul", "com1", "com2", "com3", "com4", "com5", "com6", "com7", "com8",
    "com9", "lpt1", "lpt2", "lpt3", "lpt4", "lpt5", "lpt6", "lpt7", "lpt8", "lpt9",
];

/// One note to write.
#[derive(Debug, Clone)]
pub(crate) struct NoteFile {
    /// Its path in the zip, with `/` (`Plans.md`, `Work/Plans.md`), from
    /// [`file_name`].
    pub(crate) path: String,
    /// The note as the API shows it.
    pub(crate) note: Note,
    /// The names of its tags (`note.tag_ids`), in the order to write.
    pub(crate) tags: Vec<String>,
    /// The images its body shows.
    pub(crate) images: Vec<NoteImage>,
}

/// An image a note's body shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct NoteImage {
    /// How the body names it: the `data-upload` value of its `<img>`.
    pub(crate) upload: String,
    /// Its file name (the upload's), made safe and unique in the zip.
    pub(crate) file_name: String,
    /// Its bytes.
    pub(crate) bytes: Vec<u8>,
}

/// A zip of `notes`, each at its path, with their images under
/// `attachments/`.
pub(crate) fn write(notes: &[NoteFile]) -> std::io::Result<Vec<u8>> {
    let mut zip = zipped::Writer::new(Cursor::new(Vec::new()));
    let mut attachments = HashSet::new();
    for file in notes {
        let up = "../".repeat(file.path.matches('/').count());
        let mut links = HashMap::new();
        for image in &file.images {
            let name = attachment_name(&image.file_name, &mut attachments);
            zip.add(&format!("attachments/{name}"), &image.bytes)?;
            links.insert(image.upload.as_str(), format!("{up}attachments/{name}"));
        }
        let mut text = front_matter(&file.note, &file.tags);
        text.push('\n');
        let body = body_markdown(&file.note.body_html, &links)?;
        if !body.is_empty() {
            text.push_str(&body);
            text.push('\n');
        }
        zip.add(&file.path, text.as_bytes())?;
    }
    Ok(zip.finish()?.into_inner())
}

/// A note's file name from its `name`: made safe on every system, at most
/// 100 bytes with `.md`, and not in `taken` (compared without regard to
/// case, as Windows and macOS do), which it joins.
pub(crate) fn file_name(name: &str, taken: &mut HashSet<String>) -> String {
    let stem = safe_stem(name, |_| false);
    let stem = if stem.is_empty() {
        "Untitled".to_owned()
    } else {
        stem
    };
    unique(&stem, ".md", " (", ")", taken)
}

/// An attachment's file name: safe, without spaces or brackets (so that
/// links need no escaping), its extension kept, and unique in `taken`.
fn attachment_name(name: &str, taken: &mut HashSet<String>) -> String {
    let (stem, ext) = match name.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() && !ext.is_empty() && ext.len() <= 10 => (stem, ext),
        _ => (name, ""),
    };
    let link_unsafe = |c: char| c.is_whitespace() || "()[]<>#%^&{}'`!;,".contains(c);
    let stem = safe_stem(stem, link_unsafe);
    let stem = if stem.is_empty() {
        "image".to_owned()
    } else {
        stem
    };
    let ext = safe_stem(ext, link_unsafe).to_ascii_lowercase();
    let ext = if ext.is_empty() {
        String::new()
    } else {
        format!(".{ext}")
    };
    unique(&stem, &ext, "-", "", taken)
}

/// `name` with what no system allows in a file name (and what `also`
/// says) made spaces, spaces squished (and made `-` when `also` refuses
/// them), leading dots and trailing dots and spaces dropped, and a
/// reserved device name prefixed with `_`.
fn safe_stem(name: &str, also: impl Fn(char) -> bool) -> String {
    let cleaned: String = name
        .chars()
        .map(|c| {
            if c.is_control() || "/\\:*?\"<>|".contains(c) || also(c) {
                ' '
            } else {
                c
            }
        })
        .collect();
    let joiner = if also(' ') { "-" } else { " " };
    let squished = cleaned.split_whitespace().collect::<Vec<_>>().join(joiner);
    let trimmed = squished
        .trim_start_matches(['.', ' ', '-'])
        .trim_end_matches(['.', ' ']);
    let first = trimmed.split('.').next().unwrap_or_default();
    if RESERVED.contains(&first.to_ascii_lowercase().as_str()) {
        format!("_{trimmed}")
    } else {
        trimmed.to_owned()
    }
}

/// `stem` + `ext`, cut to [`NAME_MAX`] bytes, made unique in `taken` with
/// `open` n `close` (`photo (2).md`, `photo-2.png`).
fn unique(stem: &str, ext: &str, open: &str, close: &str, taken: &mut HashSet<String>) -> String {
    let mut n = 1usize;
    loop {
        let suffix = if n == 1 {
            String::new()
        } else {
            format!("{open}{n}{close}")
        };
        let room = NAME_MAX.saturating_sub(ext.len() + suffix.len());
        let cut = cut_to(stem, room).trim_end_matches(['.', ' ']);
        let name = format!("{cut}{suffix}{ext}");
        if taken.insert(name.to_lowercase()) {
            return name;
        }
        n = n.saturating_add(1);
    }
}

/// The longest start of `s` of at most `max` bytes, cut between
/// characters.
fn cut_to(s: &str, max: usize) -> &str {
    let mut end = 0;
    for (i, c) in s.char_indices() {
        if i + c.len_utf8() > max {
            break;
        }
        end = i + c.len_utf8();
    }
    s.get(..end).unwrap_or_default()
}

/// The note's front matter, from `---` to `---` and a line break.
fn front_matter(note: &Note, tags: &[String]) -> String {
    let mut out = String::from("---\n");
    if let Some(title) = &note.title {
        out.push_str(&format!("title: {}\n", quoted(title)));
    }
    out.push_str(&format!("id: {}\n", quoted(&note.id.to_string())));
    out.push_str(&format!("created: {}\n", note.created_at));
    out.push_str(&format!("updated: {}\n", note.edited_at));
    if !tags.is_empty() {
        out.push_str("tags:\n");
        for tag in tags {
            out.push_str(&format!("  - {}\n", quoted(tag)));
        }
    }
    out.push_str("---\n");
    out
}

/// `s` as a YAML double-quoted string.
fn quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() || matches!(c, '\u{2028}' | '\u{2029}' | '\u{feff}') => {
                out.push_str(&format!("\\u{:04X}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A note's body HTML as CommonMark: each image by the link `links` gives
/// its upload (left out when none), references as their text.
fn body_markdown(html: &str, links: &HashMap<&str, String>) -> std::io::Result<String> {
    if html.trim().is_empty() {
        return Ok(String::new());
    }
    let mut prepared = String::with_capacity(html.len());
    for token in tokens(html) {
        match token {
            Token::Text(text) => prepared.push_str(text),
            Token::Open { name, attrs, .. } if name == "img" => {
                let link = attr(&attrs, "data-upload")
                    .or_else(|| attr(&attrs, "src"))
                    .and_then(|upload| links.get(upload));
                if let Some(link) = link {
                    prepared.push_str(&format!("<img src=\"{}\" alt=\"\">", escape(link)));
                }
            }
            Token::Open { raw, .. } | Token::Close { raw, .. } => prepared.push_str(raw),
        }
    }
    htmd::convert(&prepared)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::Id;
    use crate::resources::transfer::from;
    use jiff::Timestamp;

    fn at(text: &str) -> Timestamp {
        text.parse().unwrap()
    }

    fn note(n: u8, title: Option<&str>, name: &str, body_html: &str) -> Note {
        Note {
            id: Id::from_bytes([n; 16]),
            title: title.map(str::to_owned),
            name: name.to_owned(),
            title_generated: false,
            category_id: None,
            tag_ids: Vec::new(),
            person_ids: Vec::new(),
            project_ids: Vec::new(),
            body_html: body_html.to_owned(),
            body_text: String::new(),
            pinned: false,
            pinned_at: None,
            edit_version: 1,
            edited_at: at("2024-03-02T08:09:10.123Z"),
            created_at: at("2023-01-05T10:11:12Z"),
            updated_at: at("2024-03-03T00:00:00Z"),
        }
    }

    fn png(seed: u8) -> Vec<u8> {
        let mut bytes = b"\x89PNG\r\n\x1a\n".to_vec();
        bytes.extend([seed; 8]);
        bytes
    }

    #[test]
    fn file_names_are_safe_everywhere_and_unique() {
        let mut taken = HashSet::new();
        let long = "é".repeat(80);
        let cases = [
            ("Plans", "Plans.md"),
            ("plans", "plans (2).md"),
            ("PLANS", "PLANS (3).md"),
            ("a/b\\c:d*e?f\"g<h>i|j", "a b c d e f g h i j.md"),
            ("  ..hidden. ", "hidden.md"),
            ("", "Untitled.md"),
            ("///", "Untitled (2).md"),
            ("con", "_con.md"),
            ("Aux.txt", "_Aux.txt.md"),
            ("tab\there\nline", "tab here line.md"),
            ("C# notes #1", "C# notes #1.md"),
        ];
        for (name, expected) in cases {
            assert_eq!(file_name(name, &mut taken), expected, "{name:?}");
        }
        let cut = file_name(&long, &mut taken);
        assert!(cut.len() <= NAME_MAX && cut.ends_with("éé.md"), "{cut}");
        let again = file_name(&long, &mut taken);
        assert!(
            again.len() <= NAME_MAX && again.ends_with("é (2).md"),
            "{again}"
        );

        let mut taken = HashSet::new();
        for (name, expected) in [
            ("photo.PNG", "photo.png"),
            ("photo.png", "photo-2.png"),
            ("my (best) pic!.jpg", "my-best-pic.jpg"),
            (".png", "png"),
            ("", "image"),
            ("x.y.webp", "x.y.webp"),
        ] {
            assert_eq!(attachment_name(name, &mut taken), expected, "{name:?}");
        }
    }

    #[test]
    fn yaml_strings_are_quoted_so_that_any_title_reads_back() {
        assert_eq!(quoted("a \"b\" \\ c"), "\"a \\\"b\\\" \\\\ c\"");
        assert_eq!(quoted("x\u{7}\u{2028}"), "\"x\\u0007\\u2028\"");
    }

    #[test]
    fn a_body_becomes_commonmark_with_references_as_text() {
        let ada = Id::from_bytes([1; 16]);
        let garden = Id::from_bytes([2; 16]);
        let idea = Id::from_bytes([3; 16]);
        let html = format!(
            "<h2>Plan</h2><p>Ask <span data-mention=\"{ada}\">@Ada</span> about \
             <span data-project=\"{garden}\">^Garden shed</span> \
             <span data-tag=\"{idea}\">#idea</span> <strong>soon</strong></p>\
             <ul><li>one</li><li>two</li></ul>\
             <p><img data-upload=\"signed-1\"><img data-upload=\"unknown\"></p>\
             <p><a href=\"https://example.org\">site</a></p>"
        );
        let links = HashMap::from([("signed-1", "../attachments/a.png".to_owned())]);
        let md = body_markdown(&html, &links).unwrap();
        assert_eq!(
            md,
            "## Plan\n\nAsk @Ada about ^Garden shed #idea **soon**\n\n*   one\n*   two\n\n\
             ![](../attachments/a.png)\n\n[site](https://example.org)"
        );
        assert_eq!(body_markdown("", &links).unwrap(), "");
    }

    #[test]
    fn the_zip_reads_back_to_the_same_titles_tags_dates_and_images() {
        let plans = note(
            1,
            Some("Plans: \"2024\" #1"),
            "Plans: \"2024\" #1",
            "<p>Build it <img data-upload=\"s1\"></p><p>#idea</p>",
        );
        let mut untitled = note(2, None, "Just a thought", "<p>Just a thought</p>");
        untitled.created_at = at("2020-02-29T23:59:59Z");
        let nested = note(3, Some("Deep"), "Deep", "<p><img data-upload=\"s2\"></p>");
        let mut taken = HashSet::new();
        let files = vec![
            NoteFile {
                path: file_name(&plans.name, &mut taken),
                note: plans,
                tags: vec!["idea".to_owned(), "work".to_owned()],
                images: vec![NoteImage {
                    upload: "s1".to_owned(),
                    file_name: "whiteboard photo.png".to_owned(),
                    bytes: png(1),
                }],
            },
            NoteFile {
                path: file_name(&untitled.name, &mut taken),
                note: untitled,
                tags: Vec::new(),
                images: Vec::new(),
            },
            NoteFile {
                path: format!("Work/{}", file_name("Deep", &mut taken)),
                note: nested,
                tags: vec!["deep".to_owned()],
                images: vec![NoteImage {
                    upload: "s2".to_owned(),
                    file_name: "whiteboard photo.png".to_owned(),
                    bytes: png(2),
                }],
            },
        ];
        let zip = write(&files).unwrap();
        assert_eq!(
            write(&files).unwrap(),
            zip,
            "the same notes make the same bytes"
        );
        let entries = zipped::entries(&zip, 1_000_000).unwrap();
        let names: Vec<&str> = entries.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            [
                "attachments/whiteboard-photo.png",
                "Plans 2024 #1.md",
                "Just a thought.md",
                "attachments/whiteboard-photo-2.png",
                "Work/Deep.md",
            ]
        );
        let plans_text = std::str::from_utf8(&entries[1].1).unwrap();
        assert_eq!(
            plans_text,
            format!(
                "---\ntitle: \"Plans: \\\"2024\\\" #1\"\nid: \"{}\"\ncreated: 2023-01-05T10:11:12Z\n\
                 updated: 2024-03-02T08:09:10.123Z\ntags:\n  - \"idea\"\n  - \"work\"\n---\n\n\
                 Build it ![](attachments/whiteboard-photo.png)\n\n#idea\n",
                Id::from_bytes([1; 16])
            )
        );

        assert!(from::markdown::looks_like(&zip, "export.zip"));
        let parsed = from::markdown::read(&zip, "export.zip").unwrap();
        assert_eq!(parsed.skipped, Vec::new());
        assert_eq!(parsed.notes.len(), 3);
        for (file, read) in files.iter().zip(&parsed.notes) {
            assert_eq!(read.source, file.path);
            let expected_title = file
                .note
                .title
                .clone()
                .or_else(|| Some(file.path.trim_end_matches(".md").to_owned()));
            assert_eq!(read.title, expected_title);
            assert_eq!(read.tags, file.tags);
            assert_eq!(read.created_at, Some(file.note.created_at));
            assert_eq!(read.edited_at, Some(file.note.edited_at));
            let images: Vec<&Vec<u8>> = read.files.iter().map(|(_, b)| b).collect();
            let expected: Vec<&Vec<u8>> = file.images.iter().map(|i| &i.bytes).collect();
            assert_eq!(images, expected);
        }
        assert_eq!(
            parsed.notes[2].files[0].0,
            "../attachments/whiteboard-photo-2.png"
        );
        assert_eq!(parsed.notes[1].markdown, "Just a thought");
    }
}
