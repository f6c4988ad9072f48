//! Markdown notes (EXTENSIONS.md §5, "Formats", `markdown`): one `.md`
//! file, a folder of them, or a zip of a folder, as Joplin's "Markdown +
//! Front Matter" export and an Obsidian vault write them. Each `.md` (or
//! `.markdown`) file becomes one note:
//!
//! - **Front matter** (YAML between a first line `---` and the next `---`
//!   or `...` line): `title` is the title, else the file's name without
//!   `.md`; `tags` (or `tag`), a YAML list or one string of names
//!   separated by commas or spaces, a leading `#` dropped, are the note's
//!   tags; `created`, else `created_at`, else `date`, is `created_at`;
//!   `updated`, else `modified`, else `updated_at`, is `edited_at`. A date
//!   is RFC 3339 or ISO 8601 with an offset (`2023-01-05T10:11:12+01:00`),
//!   Joplin's `2023-01-05 10:11:12Z`, a local date-time without an offset
//!   (`2023-01-05T10:11`, taken as UTC) or a bare date (`2023-01-05`,
//!   midnight UTC); one that is none of these is skipped and named. `id`
//!   is ignored (the note's identity is its path). Every other key
//!   (Joplin's `latitude`, `longitude`, `altitude`, `author`, `source`,
//!   `completed?`, `due`; Obsidian's `aliases`, `cssclasses`) has no place
//!   in a note: one skipped item per note names the keys left out. Lines
//!   between two `---` that are not YAML keys (a thematic break, or
//!   broken YAML, or YAML with aliases) stay in the body as written, and
//!   are reported.
//! - **Body**: the Markdown after the front matter, without a first
//!   `# Heading` that only repeats the title (Joplin and many vaults write
//!   the title both ways). `#tag` words in the body stay as written: the
//!   note's body makes them tags.
//! - **Images and PDFs** (`.png`, `.jpg`, `.jpeg`, `.gif`, `.webp`,
//!   `.pdf`) the body links to are found beside it and kept in the note's
//!   files: a Markdown image or link (`![a](../_resources/x.png)`,
//!   `[doc.pdf](../_resources/y.pdf)`, percent escapes decoded) relative to
//!   the note, else from the folder's root, else by file name anywhere in
//!   the folder (Obsidian's "shortest path" links); an Obsidian embed or
//!   wiki link (`![[x.png]]`, `![[x.png|300]]`, `[[y.pdf]]`) by file name
//!   anywhere in the folder (or by its path from the root, when it names
//!   one), and rewritten in the body as a plain CommonMark image or link
//!   (`![x.png](x.png)`). Each file is keyed by the link as CommonMark reads
//!   it (the destination without its angle brackets and backslash escapes,
//!   percent escapes kept as written). A link to an image or PDF that is
//!   not there keeps its note and is reported (``image `x.png` not found
//!   beside it``); a link to another kind of file in the folder stays a
//!   link and is reported; links to web addresses and to other notes stay
//!   as written.
//! - **Left out**: files and folders whose name starts with a dot
//!   (`.obsidian/`, `.trash/`, `.git/`) and `__MACOSX/`, without a report;
//!   files other than notes, images and PDFs (Joplin's `_notebook.yml`),
//!   without a report; each image or PDF no note links to, reported once;
//!   a note that is not UTF-8 text, reported with its path (the other
//!   notes are still read); images and PDFs past 256 MB in all (or four
//!   times the folder's size, if more), each counted once per note that
//!   links to it, reported for each link left out.
//! - **Refused**: a zip with no `.md` file (outside the folders left
//!   out), and bytes that are neither UTF-8 text without NUL bytes nor a
//!   zip.
//!
//! Each note's `source` (its identity in the import map) and `at` (in the
//! report) are its path inside the folder or zip, with `/` (`Work/Plans.md`).

use std::cell::Cell;
use std::collections::{HashMap, HashSet};
use std::io::Cursor;
use std::ops::Range;

use gray_matter::Pod;
use gray_matter::engine::{Engine, YAML};
use jiff::Timestamp;
use jiff::civil;
use jiff::tz::TimeZone;
use pulldown_cmark::{Event, LinkType, Options, Parser, Tag};

use super::Refused;
use crate::resources::transfer::draft::{DraftNote, Parsed, Skipped};
use crate::resources::transfer::zipped;

/// The extensions of the files a note may keep: images and PDFs.
const KEPT_FILES: &[&str] = &["png", "jpg", "jpeg", "gif", "webp", "pdf"];

/// Whether `bytes` (named `name`) look like Markdown notes: a `.md` file
/// of UTF-8 text, or a zip holding a `.md` file.
pub(crate) fn looks_like(bytes: &[u8], name: &str) -> bool {
    if zipped::is_zip(bytes) {
        let Ok(archive) = zip::ZipArchive::new(Cursor::new(bytes)) else {
            return false;
        };
        return archive.len() <= zipped::MAX_ENTRIES
            && archive
                .file_names()
                .filter_map(Result::ok)
                .map(|n| normalise(&n))
                .any(|n| is_note(&n) && !ignored(&n));
    }
    is_note(name) && std::str::from_utf8(bytes).is_ok()
}

/// Reads `bytes`: one Markdown file named `name` (a path's last part is
/// its path in the report), or a zip of a folder of them.
pub(crate) fn read(bytes: &[u8], name: &str) -> Result<Parsed, Refused> {
    if zipped::is_zip(bytes) {
        return read_entries(zipped::entries(bytes, zipped::budget(bytes.len()))?);
    }
    let base = normalise(name)
        .rsplit('/')
        .next()
        .unwrap_or_default()
        .to_owned();
    let shown = if base.is_empty() { "the file" } else { &base };
    let text = std::str::from_utf8(bytes).map_err(|e| {
        Refused::new(format!(
            "{shown}: neither Markdown text nor a zip (not UTF-8 at byte {})",
            e.valid_up_to()
        ))
    })?;
    if text.contains('\0') {
        return Err(Refused::new(format!(
            "{shown}: neither Markdown text nor a zip (it holds NUL bytes)"
        )));
    }
    let folder = Folder::new(Vec::new());
    let mut parsed = Parsed::default();
    let mut linked = HashSet::new();
    let path = if base.is_empty() { "note.md" } else { &base };
    let note = read_note(path, text, !base.is_empty(), &folder, &mut linked);
    parsed.skipped.extend(note.1);
    parsed.notes.push(note.0);
    Ok(parsed)
}

/// Reads a folder already read into (path inside it, bytes) pairs, paths
/// with `/` (or `\`): every note in the pairs' order, then each image or
/// PDF no note links to as skipped. Refused when no `.md` file is in it.
pub(crate) fn read_entries(entries: Vec<(String, Vec<u8>)>) -> Result<Parsed, Refused> {
    let files: Vec<(String, Vec<u8>)> = entries
        .into_iter()
        .map(|(path, bytes)| (normalise(&path), bytes))
        .filter(|(path, _)| !ignored(path))
        .collect();
    let notes: Vec<usize> = (0..files.len())
        .filter(|&i| files.get(i).is_some_and(|(path, _)| is_note(path)))
        .collect();
    if notes.is_empty() {
        return Err(Refused::new(
            "no `.md` file in it: Markdown notes are `.md` files with optional front matter",
        ));
    }
    let folder = Folder::new(files);
    let mut parsed = Parsed::default();
    let mut linked = HashSet::new();
    for i in notes {
        let Some((path, bytes)) = folder.files.get(i) else {
            continue;
        };
        let Ok(text) = std::str::from_utf8(bytes) else {
            parsed.skipped.push(Skipped::new(
                path.clone(),
                "not UTF-8 text: a note must be Markdown text",
            ));
            continue;
        };
        let (note, skipped) = read_note(path, text, true, &folder, &mut linked);
        parsed.notes.push(note);
        parsed.skipped.extend(skipped);
    }
    for (i, (path, _)) in folder.files.iter().enumerate() {
        if linked.contains(&i) {
            continue;
        }
        match extension(path).as_deref() {
            Some("pdf") => parsed
                .skipped
                .push(Skipped::new(path.clone(), "a PDF no note links to")),
            Some(ext) if KEPT_FILES.contains(&ext) => parsed
                .skipped
                .push(Skipped::new(path.clone(), "an image no note links to")),
            _ => {}
        }
    }
    Ok(parsed)
}

/// The files of a folder, found by path and by name.
struct Folder {
    files: Vec<(String, Vec<u8>)>,
    by_path: HashMap<String, usize>,
    /// File names in lower case, each with the files of that name in
    /// folder order.
    by_name: HashMap<String, Vec<usize>>,
    /// How many more bytes of images and PDFs the notes may hold in all
    /// (a file linked from many notes is held once for each): the zip
    /// budget of the folder's size.
    left: Cell<u64>,
    /// What `left` started at.
    limit: u64,
}

impl Folder {
    /// The folder of `files`.
    fn new(files: Vec<(String, Vec<u8>)>) -> Folder {
        let mut by_path = HashMap::new();
        let mut by_name: HashMap<String, Vec<usize>> = HashMap::new();
        for (i, (path, _)) in files.iter().enumerate() {
            by_path.entry(path.clone()).or_insert(i);
            by_name
                .entry(base_name(path).to_lowercase())
                .or_default()
                .push(i);
        }
        let size = files.iter().map(|(_, b)| b.len()).sum();
        Folder {
            files,
            by_path,
            by_name,
            left: Cell::new(zipped::budget(size)),
            limit: zipped::budget(size),
        }
    }

    /// The file named `name` (a file name, any case; the same case
    /// first), anywhere in the folder.
    fn named(&self, name: &str) -> Option<usize> {
        let found = self.by_name.get(&name.to_lowercase())?;
        found
            .iter()
            .copied()
            .find(|&i| self.files.get(i).is_some_and(|(p, _)| base_name(p) == name))
            .or_else(|| found.first().copied())
    }

    /// The file at `path` from the root, or whose path ends with it.
    fn at(&self, path: &str) -> Option<usize> {
        if let Some(&i) = self.by_path.get(path) {
            return Some(i);
        }
        let tail = format!("/{}", path.to_lowercase());
        self.files
            .iter()
            .position(|(p, _)| p.to_lowercase().ends_with(&tail))
    }

    /// The file a Markdown link from the note in `dir` names: relative to
    /// the note, else from the root, else by its file name.
    fn linked(&self, dir: &str, link: &str) -> Option<usize> {
        [join(dir, link), join("", link)]
            .into_iter()
            .flatten()
            .find_map(|p| self.by_path.get(&p).copied())
            .or_else(|| self.named(base_name(link)))
    }

    /// The file an Obsidian wiki link names: by its path when it names
    /// one, else by file name.
    fn wiki(&self, target: &str) -> Option<usize> {
        if target.contains('/') {
            self.at(target.trim_start_matches('/'))
                .or_else(|| self.named(base_name(target)))
        } else {
            self.named(target)
        }
    }
}

/// Reads one note at `path`; `named` says whether its file name may give
/// the title. The note, and what was skipped in it.
fn read_note(
    path: &str,
    text: &str,
    named: bool,
    folder: &Folder,
    linked: &mut HashSet<usize>,
) -> (DraftNote, Vec<Skipped>) {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut skipped = Vec::new();
    let mut front = Front::default();
    let body = match split_front_matter(text) {
        None => text,
        Some((matter, body)) => match read_front_matter(matter) {
            Ok(read) => {
                front = read;
                body
            }
            Err(why) => {
                skipped.push(Skipped::new(
                    path,
                    format!("the lines between the first two `---` are not front matter ({why}): kept in the body"),
                ));
                text
            }
        },
    };
    for (key, value) in &front.bad_dates {
        skipped.push(Skipped::new(
            path,
            format!("`{key}: {value}` is not a date: left out"),
        ));
    }
    if !front.unkept.is_empty() {
        let keys: Vec<String> = front.unkept.iter().map(|k| format!("`{k}`")).collect();
        skipped.push(Skipped::new(
            path,
            format!(
                "front matter with no place in a note, left out: {}",
                keys.join(", ")
            ),
        ));
    }
    let title = front.title.clone().or_else(|| {
        let stem = strip_note_extension(base_name(path)).trim();
        (named && !stem.is_empty()).then(|| stem.to_owned())
    });
    let body = body.trim_start_matches(['\n', '\r']);
    let body = match &title {
        Some(title) => without_title_heading(body, title),
        None => body,
    };
    let body = body.trim_end();
    let (markdown, files) = resolve_files(path, body, folder, linked, &mut skipped);
    let note = DraftNote {
        source: path.to_owned(),
        at: path.to_owned(),
        title,
        markdown,
        tags: front.tags,
        created_at: front.created_at,
        edited_at: front.edited_at,
        files,
    };
    (note, skipped)
}

/// What a note's front matter gives.
#[derive(Debug, Default)]
struct Front {
    title: Option<String>,
    tags: Vec<String>,
    created_at: Option<Timestamp>,
    edited_at: Option<Timestamp>,
    /// Keys with no place in a note, in the order written.
    unkept: Vec<String>,
    /// Date keys whose values are not dates: the key and the value.
    bad_dates: Vec<(String, String)>,
}

/// The front matter of `text` and the rest after it, when its first line
/// is `---` and a later line is `---` or `...`.
fn split_front_matter(text: &str) -> Option<(&str, &str)> {
    let (first, rest) = text.split_once('\n')?;
    if first.trim_end() != "---" {
        return None;
    }
    let mut at = 0;
    for line in rest.split_inclusive('\n') {
        let end = at + line.len();
        if matches!(line.trim_end(), "---" | "...") {
            return Some((rest.get(..at)?, rest.get(end..)?));
        }
        at = end;
    }
    None
}

/// Reads front matter; why not, when it is not YAML keys.
fn read_front_matter(matter: &str) -> Result<Front, String> {
    if has_alias(matter) {
        return Err("YAML aliases are not read".to_owned());
    }
    let pod = YAML::parse(matter).map_err(|e| format!("not YAML: {e}"))?;
    let keys = match pod {
        Pod::Hash(keys) => keys,
        Pod::Null => return Ok(Front::default()),
        _ => return Err("not YAML keys".to_owned()),
    };
    let mut front = Front::default();
    let mut unkept = Vec::new();
    for (key, value) in &keys {
        match key.as_str() {
            "title" => match scalar(value) {
                Some(title) => {
                    let title = title.trim();
                    if !title.is_empty() {
                        front.title = Some(title.to_owned());
                    }
                }
                None if *value == Pod::Null => {}
                None => unkept.push(key.clone()),
            },
            "tags" | "tag" => tags(value, &mut front.tags),
            "created" | "created_at" | "date" | "updated" | "modified" | "updated_at" | "id" => {}
            _ => unkept.push(key.clone()),
        }
    }
    front.created_at = date(&keys, &["created", "created_at", "date"], &mut front);
    front.edited_at = date(&keys, &["updated", "modified", "updated_at"], &mut front);
    let place = |key: &str| {
        matter.lines().position(|line| {
            let line = line.trim_start_matches(['"', '\'']);
            line.strip_prefix(key).is_some_and(|r| {
                r.trim_start_matches(['"', '\''])
                    .trim_start()
                    .starts_with(':')
            })
        })
    };
    unkept.sort_by_cached_key(|k| (place(k).unwrap_or(usize::MAX), k.clone()));
    front.unkept = unkept;
    Ok(front)
}

/// Whether YAML text uses an alias (`*name`), whose expansion could cost
/// far more than its text (quoted text and `2 * 3` are not aliases).
fn has_alias(matter: &str) -> bool {
    let mut prev = '\n';
    let mut quote: Option<char> = None;
    let mut chars = matter.chars().peekable();
    while let Some(c) = chars.next() {
        match quote {
            Some(q) if c == '\n' || (c == q && !(q == '"' && prev == '\\')) => quote = None,
            Some(_) => {}
            None if starts_token(prev) => {
                if c == '"' || c == '\'' {
                    quote = Some(c);
                } else if c == '*'
                    && chars
                        .peek()
                        .is_some_and(|n| !n.is_whitespace() && !matches!(n, ',' | ']' | '}'))
                {
                    return true;
                }
            }
            None => {}
        }
        prev = c;
    }
    false
}

/// Whether a YAML token may start after `c`.
fn starts_token(c: char) -> bool {
    c.is_whitespace() || matches!(c, '[' | '{' | ',' | ':' | '-' | '?')
}

/// A scalar as text.
fn scalar(pod: &Pod) -> Option<String> {
    match pod {
        Pod::String(s) => Some(s.clone()),
        Pod::Integer(i) => Some(i.to_string()),
        Pod::Float(f) => Some(f.to_string()),
        Pod::Boolean(b) => Some(b.to_string()),
        _ => None,
    }
}

/// Adds the tags `pod` names (a list, or names separated by commas or
/// spaces) to `out`, each once, without `#`.
fn tags(pod: &Pod, out: &mut Vec<String>) {
    let words: Vec<String> = match pod {
        Pod::Array(items) => items
            .iter()
            .filter_map(scalar)
            .flat_map(|s| split_tags(&s))
            .collect(),
        other => scalar(other).map(|s| split_tags(&s)).unwrap_or_default(),
    };
    for word in words {
        if !out.contains(&word) {
            out.push(word);
        }
    }
}

/// Tag names in a string separated by commas or spaces, without `#`.
fn split_tags(s: &str) -> Vec<String> {
    s.split(|c: char| c == ',' || c.is_whitespace())
        .map(|w| w.trim_start_matches('#'))
        .filter(|w| !w.is_empty())
        .map(str::to_owned)
        .collect()
}

/// The first of `names` that `keys` give as a date; one that is not a
/// date is noted in `front`.
fn date(keys: &HashMap<String, Pod>, names: &[&str], front: &mut Front) -> Option<Timestamp> {
    for name in names {
        let Some(value) = keys.get(*name) else {
            continue;
        };
        if *value == Pod::Null {
            continue;
        }
        let text = scalar(value).unwrap_or_else(|| "(a list)".to_owned());
        match parse_date(&text) {
            Some(at) => return Some(at),
            None => front.bad_dates.push(((*name).to_owned(), text)),
        }
    }
    None
}

/// A date in any of the forms the module documents; `None` otherwise.
fn parse_date(text: &str) -> Option<Timestamp> {
    let text = text.trim();
    if let Ok(at) = text.parse::<Timestamp>() {
        return Some(at);
    }
    if let Ok(at) = text.parse::<civil::DateTime>() {
        return at.to_zoned(TimeZone::UTC).ok().map(|z| z.timestamp());
    }
    let day = text.parse::<civil::Date>().ok()?;
    day.to_zoned(TimeZone::UTC).ok().map(|z| z.timestamp())
}

/// `body` without a first `# Heading` line equal to `title`.
fn without_title_heading<'a>(body: &'a str, title: &str) -> &'a str {
    let (first, rest) = body.split_once('\n').unwrap_or((body, ""));
    let heading = first
        .trim()
        .strip_prefix("# ")
        .map(|h| h.trim().trim_end_matches('#').trim());
    if heading == Some(title.trim()) {
        rest.trim_start_matches(['\n', '\r'])
    } else {
        body
    }
}

/// A link or image the body holds.
struct Found {
    /// Where it is in the body.
    range: Range<usize>,
    /// Its destination as CommonMark reads it.
    dest: String,
    /// An Obsidian `[[...]]` link.
    wiki: bool,
    /// An image (`![...]`) rather than a link.
    image: bool,
}

/// The links and images of Markdown `body`, in order.
fn links(body: &str) -> Vec<Found> {
    let options = Options::ENABLE_WIKILINKS
        | Options::ENABLE_TABLES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_FOOTNOTES;
    Parser::new_ext(body, options)
        .into_offset_iter()
        .filter_map(|(event, range)| match event {
            Event::Start(Tag::Image {
                link_type,
                dest_url,
                ..
            }) => Some(Found {
                range,
                dest: dest_url.to_string(),
                wiki: matches!(link_type, LinkType::WikiLink { .. }),
                image: true,
            }),
            Event::Start(Tag::Link {
                link_type,
                dest_url,
                ..
            }) => Some(Found {
                range,
                dest: dest_url.to_string(),
                wiki: matches!(link_type, LinkType::WikiLink { .. }),
                image: false,
            }),
            _ => None,
        })
        .collect()
}

/// Finds the images and PDFs `body` links to in `folder` (marking them
/// `linked`); the body with Obsidian's wiki links to them rewritten as
/// CommonMark, and the files by link. Links to files not there, or of
/// other kinds, are noted in `skipped`.
fn resolve_files(
    path: &str,
    body: &str,
    folder: &Folder,
    linked: &mut HashSet<usize>,
    skipped: &mut Vec<Skipped>,
) -> (String, Vec<(String, Vec<u8>)>) {
    let dir = path.rsplit_once('/').map(|(d, _)| d).unwrap_or("");
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    let mut edits: Vec<(Range<usize>, String)> = Vec::new();
    // Keeps file `i` under `link`; `false` when the notes' files are over
    // their budget.
    let mut add = |link: &str, i: usize, files: &mut Vec<(String, Vec<u8>)>| {
        linked.insert(i);
        if files.iter().any(|(l, _)| l == link) {
            return true;
        }
        let Some((_, bytes)) = folder.files.get(i) else {
            return true;
        };
        let Some(left) = folder.left.get().checked_sub(bytes.len() as u64) else {
            return false;
        };
        folder.left.set(left);
        files.push((link.to_owned(), bytes.clone()));
        true
    };
    let over = |link: &str| {
        Skipped::new(
            path,
            format!(
                "`{link}` not kept: the notes' images and PDFs come to more than {} MB in all",
                folder.limit / 1_000_000
            ),
        )
    };
    for found in links(body) {
        let dest = found.dest.trim();
        if found.wiki {
            let target = dest.split('#').next().unwrap_or_default().trim();
            if !kept_file(target) {
                continue;
            }
            match folder.wiki(target) {
                Some(i) => {
                    if !add(target, i, &mut files) {
                        skipped.push(over(target));
                    }
                    let text = escape_text(base_name(target));
                    let bang = if found.image { "!" } else { "" };
                    edits.push((
                        found.range,
                        format!("{bang}[{text}]({})", destination(target)),
                    ));
                }
                None => skipped.push(not_found(path, target)),
            }
            continue;
        }
        if is_external(dest) {
            continue;
        }
        let decoded = percent_decode(dest);
        let mut resolved = folder.linked(dir, &decoded);
        let mut named = decoded.as_str();
        if resolved.is_none()
            && let Some(cut) = decoded.find(['#', '?'])
        {
            named = decoded.get(..cut).unwrap_or_default();
            resolved = folder.linked(dir, named);
        }
        let kept = resolved
            .and_then(|i| folder.files.get(i))
            .map_or(kept_file(named), |(p, _)| kept_file(p));
        let other = resolved
            .and_then(|i| folder.files.get(i))
            .is_some_and(|(p, _)| !is_note(p));
        match resolved {
            Some(i) if kept && !add(dest, i, &mut files) => skipped.push(over(dest)),
            Some(_) if !kept && other => skipped.push(Skipped::new(
                path,
                format!("`{dest}` is neither an image nor a PDF: left as a link, not imported"),
            )),
            None if kept => skipped.push(not_found(path, dest)),
            _ => {}
        }
    }
    (apply(body, edits), files)
}

/// The report of a missing image or PDF.
fn not_found(path: &str, link: &str) -> Skipped {
    let what = if extension(link).as_deref() == Some("pdf") {
        "PDF"
    } else {
        "image"
    };
    Skipped::new(path, format!("{what} `{link}` not found beside it"))
}

/// `body` with each edit's range replaced (overlapping ones after the
/// first left out).
fn apply(body: &str, mut edits: Vec<(Range<usize>, String)>) -> String {
    edits.sort_by_key(|(r, _)| r.start);
    let mut out = String::with_capacity(body.len());
    let mut at = 0;
    for (range, text) in edits {
        if range.start < at {
            continue;
        }
        let (Some(before), Some(_)) = (body.get(at..range.start), body.get(range.clone())) else {
            continue;
        };
        out.push_str(before);
        out.push_str(&text);
        at = range.end;
    }
    out.push_str(body.get(at..).unwrap_or_default());
    out
}

/// A link destination as CommonMark writes it: in angle brackets when it
/// holds spaces or brackets.
fn destination(link: &str) -> String {
    if link
        .chars()
        .any(|c| c.is_whitespace() || matches!(c, '(' | ')' | '<' | '>' | '\\'))
    {
        let mut out = String::from("<");
        for c in link.chars() {
            if matches!(c, '<' | '>' | '\\') {
                out.push('\\');
            }
            if c != '\n' && c != '\r' {
                out.push(c);
            }
        }
        out.push('>');
        out
    } else {
        link.to_owned()
    }
}

/// Text escaped for a link's text.
fn escape_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '\\' | '[' | ']' | '*' | '_' | '`' | '<') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Whether a link leaves the folder: a web address or another scheme, a
/// place in the same note, or one of Joplin's internal `:/id` links.
fn is_external(dest: &str) -> bool {
    if dest.is_empty() || dest.starts_with(['#', '?']) || dest.starts_with("//") {
        return true;
    }
    if dest.starts_with(":/") {
        return true;
    }
    let scheme: String = dest
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '.' | '-'))
        .collect();
    scheme.len() > 1
        && scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && dest.get(scheme.len()..).is_some_and(|r| r.starts_with(':'))
}

/// `%XX` escapes decoded, when they make UTF-8; else `s` as it is.
fn percent_decode(s: &str) -> String {
    if !s.contains('%') {
        return s.to_owned();
    }
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let byte = bytes.get(i).copied().unwrap_or_default();
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (byte, hex) {
            (b'%', Some(value)) => {
                out.push(value);
                i += 3;
            }
            _ => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8(out).unwrap_or_else(|_| s.to_owned())
}

/// `link` from the folder `dir`, `.` and `..` resolved; `None` when it
/// leaves the folder.
fn join(dir: &str, link: &str) -> Option<String> {
    let mut parts: Vec<&str> = if link.starts_with('/') {
        Vec::new()
    } else {
        dir.split('/').filter(|p| !p.is_empty()).collect()
    };
    for part in link.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            part => parts.push(part),
        }
    }
    Some(parts.join("/"))
}

/// A path with `/` only, without a leading `./` or `/`.
fn normalise(path: &str) -> String {
    let path = path.replace('\\', "/");
    let path = path.trim_start_matches("./").trim_start_matches('/');
    path.to_owned()
}

/// Whether a path is left out unread: under a folder or named with a
/// leading dot, or under `__MACOSX/`.
fn ignored(path: &str) -> bool {
    path.split('/')
        .any(|part| part.starts_with('.') || part == "__MACOSX")
}

/// The last part of a path.
fn base_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// A file name's extension, in lower case.
fn extension(path: &str) -> Option<String> {
    let name = base_name(path);
    let (stem, ext) = name.rsplit_once('.')?;
    (!stem.is_empty()).then(|| ext.to_ascii_lowercase())
}

/// Whether a path names a note: a `.md` or `.markdown` file.
fn is_note(path: &str) -> bool {
    matches!(extension(path).as_deref(), Some("md" | "markdown"))
}

/// Whether a path names an image or a PDF.
fn kept_file(path: &str) -> bool {
    extension(path).is_some_and(|e| KEPT_FILES.contains(&e.as_str()))
}

/// A note's file name without `.md` or `.markdown`.
fn strip_note_extension(name: &str) -> &str {
    match name.rsplit_once('.') {
        Some((stem, ext))
            if ext.eq_ignore_ascii_case("md") || ext.eq_ignore_ascii_case("markdown") =>
        {
            stem
        }
        _ => name,
    }
}

#[cfg(test)]
mod tests {
    //! The fixtures under `tests/fixtures/imports/markdown/` are hand-made
    //! from the tools' documented shapes, not written by the tools (neither
    //! is installable here): `joplin/` as Joplin's "Markdown + Front
    //! Matter" exporter writes a folder (`InteropService_Exporter_Md` and
    //! `utils/frontMatter.ts`: a folder per notebook, `_resources/<id>.<ext>`
    //! linked as `../_resources/...`, front matter keys in Joplin's order,
    //! dates as `YYYY-MM-DD HH:mm:ssZ`, a blank line after the closing
    //! `---`), and `obsidian/` as an Obsidian vault (`.obsidian/` settings,
    //! `.trash/`, attachments in `attachments/`, `![[...]]` embeds, `#tags`
    //! in the body). The images are real PNGs and the PDF a valid one-page
    //! PDF (made with Python's `zlib` and checked with Ghostscript).

    use super::*;

    const FIXTURES: &str = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/fixtures/imports/markdown"
    );

    /// Every file under the fixture folder `name`, by path inside it.
    fn folder(name: &str) -> Vec<(String, Vec<u8>)> {
        fn walk(root: &std::path::Path, dir: &std::path::Path, out: &mut Vec<(String, Vec<u8>)>) {
            let mut entries: Vec<_> = std::fs::read_dir(dir)
                .unwrap()
                .map(|e| e.unwrap().path())
                .collect();
            entries.sort();
            for path in entries {
                if path.is_dir() {
                    walk(root, &path, out);
                } else {
                    let rel = path.strip_prefix(root).unwrap().to_str().unwrap();
                    out.push((rel.replace('\\', "/"), std::fs::read(&path).unwrap()));
                }
            }
        }
        let root = std::path::Path::new(FIXTURES).join(name);
        let mut out = Vec::new();
        walk(&root, &root, &mut out);
        out
    }

    fn zipped_folder(name: &str) -> Vec<u8> {
        zipped::write(&folder(name)).unwrap()
    }

    fn fixture(path: &str) -> Vec<u8> {
        std::fs::read(std::path::Path::new(FIXTURES).join(path)).unwrap()
    }

    fn at(text: &str) -> Timestamp {
        text.parse().unwrap()
    }

    fn note<'a>(parsed: &'a Parsed, source: &str) -> &'a DraftNote {
        parsed
            .notes
            .iter()
            .find(|n| n.source == source)
            .unwrap_or_else(|| panic!("no {source} in {parsed:#?}"))
    }

    fn skipped(parsed: &Parsed) -> Vec<(&str, &str)> {
        parsed
            .skipped
            .iter()
            .map(|s| (s.at.as_str(), s.reason.as_str()))
            .collect()
    }

    #[test]
    fn a_joplin_export_gives_titles_tags_dates_and_resources() {
        let zip = zipped_folder("joplin");
        assert!(looks_like(&zip, "joplin.zip"));
        let parsed = read(&zip, "joplin.zip").unwrap();
        assert_eq!(parsed.notes.len(), 3);
        assert!(parsed.tasks.is_empty() && parsed.people.is_empty());

        let plans = note(&parsed, "Work/Plans.md");
        assert_eq!(plans.at, "Work/Plans.md");
        assert_eq!(plans.title.as_deref(), Some("Plans for 2023"));
        assert_eq!(plans.tags, ["planning", "work"]);
        assert_eq!(plans.created_at, Some(at("2023-01-04T09:00:00Z")));
        assert_eq!(plans.edited_at, Some(at("2023-01-05T10:11:12Z")));
        assert!(
            plans.markdown.starts_with("Ship the **importer**"),
            "the heading repeating the title is dropped: {}",
            plans.markdown
        );
        let png = fixture("joplin/_resources/3f0c5a1e2b7d4c8e9a6b1d2c3e4f5a6b.png");
        let pdf = fixture("joplin/_resources/9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a.pdf");
        assert!(png.starts_with(b"\x89PNG") && pdf.starts_with(b"%PDF-"));
        assert_eq!(
            plans.files,
            vec![
                (
                    "../_resources/3f0c5a1e2b7d4c8e9a6b1d2c3e4f5a6b.png".to_owned(),
                    png
                ),
                (
                    "../_resources/9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a.pdf".to_owned(),
                    pdf
                ),
            ]
        );
        assert!(
            plans
                .markdown
                .contains("![whiteboard.png](../_resources/3f0c5a1e2b7d4c8e9a6b1d2c3e4f5a6b.png)")
        );

        let bank = note(&parsed, "Work/Call the bank.md");
        assert_eq!(bank.title.as_deref(), Some("Call the bank"));
        assert!(bank.tags.is_empty());
        assert_eq!(bank.markdown, "Ask about the savings account.");

        assert_eq!(
            skipped(&parsed),
            vec![
                (
                    "Personal/Pancakes.md",
                    "front matter with no place in a note, left out: `source`, `author`"
                ),
                (
                    "Personal/Pancakes.md",
                    "image `../_resources/0a1b2c3d4e5f60718293a4b5c6d7e8f9.jpg` not found beside it"
                ),
                (
                    "Work/Call the bank.md",
                    "front matter with no place in a note, left out: `completed?`, `due`"
                ),
                (
                    "Work/Plans.md",
                    "front matter with no place in a note, left out: `latitude`, `longitude`, `altitude`"
                ),
            ]
        );
        let pancakes = note(&parsed, "Personal/Pancakes.md");
        assert_eq!(pancakes.tags, ["recipes"]);
        assert!(pancakes.files.is_empty());
        assert!(pancakes.markdown.starts_with("- 200 g flour"));
    }

    #[test]
    fn an_obsidian_vault_gives_embeds_as_commonmark_and_leaves_its_settings_out() {
        let zip = zipped_folder("obsidian");
        assert!(looks_like(&zip, "vault.zip"));
        let parsed = read(&zip, "vault.zip").unwrap();
        let sources: Vec<&str> = parsed.notes.iter().map(|n| n.source.as_str()).collect();
        assert_eq!(
            sources,
            ["Daily/2023-01-06.md", "Ideas.md", "Reading list.md"]
        );
        let image = fixture("obsidian/attachments/image.png");

        let ideas = note(&parsed, "Ideas.md");
        assert_eq!(ideas.title.as_deref(), Some("Ideas"));
        assert_eq!(ideas.tags, ["idea", "draft"]);
        assert_eq!(ideas.created_at, Some(at("2023-01-05T10:11:00Z")));
        assert_eq!(ideas.edited_at, None);
        assert_eq!(
            ideas.markdown,
            "A garden shed with a #workshop inside.\n\n![image.png](image.png)\n\n\
             Smaller: ![image.png](image.png)\n\nSee also [[Reading list]]."
        );
        assert_eq!(ideas.files, vec![("image.png".to_owned(), image.clone())]);

        let reading = note(&parsed, "Reading list.md");
        assert_eq!(reading.title.as_deref(), Some("Reading list"));
        assert_eq!(reading.tags, ["books"]);
        assert_eq!(reading.created_at, Some(at("2023-01-05T00:00:00Z")));
        assert_eq!(reading.edited_at, Some(at("2023-03-10T20:04:00Z")));
        assert!(
            reading
                .markdown
                .starts_with("- The Name of the Rose #fiction")
        );
        assert!(reading.markdown.contains("- ![[missing.png]]"));
        assert_eq!(
            reading.files,
            vec![("attachments/image.png".to_owned(), image)]
        );

        let daily = note(&parsed, "Daily/2023-01-06.md");
        assert_eq!(daily.title.as_deref(), Some("2023-01-06"));
        assert!(daily.tags.is_empty(), "body tags stay in the body");
        assert!(daily.markdown.contains("![[not-an-embed.png]] inside code"));
        assert!(daily.files.is_empty());

        assert_eq!(
            skipped(&parsed),
            vec![
                (
                    "Ideas.md",
                    "front matter with no place in a note, left out: `aliases`"
                ),
                ("Reading list.md", "image `missing.png` not found beside it"),
                ("attachments/unused.png", "an image no note links to"),
            ]
        );
    }

    #[test]
    fn a_folder_read_by_the_cli_gives_what_its_zip_gives() {
        for name in ["joplin", "obsidian"] {
            assert_eq!(
                read_entries(folder(name)).unwrap(),
                read(&zipped_folder(name), "x.zip").unwrap()
            );
        }
    }

    #[test]
    fn one_file_is_one_note_named_by_its_file() {
        let bytes = fixture("obsidian/Ideas.md");
        assert!(looks_like(&bytes, "Ideas.md"));
        assert!(looks_like(&bytes, "/home/ada/notes/IDEAS.MD"));
        assert!(!looks_like(&bytes, "Ideas.txt"));
        let parsed = read(&bytes, "/home/ada/notes/Ideas.md").unwrap();
        assert_eq!(parsed.notes.len(), 1);
        let ideas = &parsed.notes[0];
        assert_eq!(ideas.source, "Ideas.md");
        assert_eq!(ideas.title.as_deref(), Some("Ideas"));
        assert!(ideas.files.is_empty());
        assert!(
            ideas.markdown.contains("![[image.png]]"),
            "{}",
            ideas.markdown
        );
        assert_eq!(
            skipped(&parsed),
            vec![
                (
                    "Ideas.md",
                    "front matter with no place in a note, left out: `aliases`"
                ),
                ("Ideas.md", "image `image.png` not found beside it"),
                ("Ideas.md", "image `image.png` not found beside it"),
            ]
        );
        let untitled = read(b"just text", "").unwrap();
        assert_eq!(untitled.notes[0].title, None);
        assert_eq!(untitled.notes[0].source, "note.md");
    }

    #[test]
    fn what_is_not_markdown_is_refused() {
        let no_notes = zipped::write(&[
            ("a.txt".to_owned(), b"text".to_vec()),
            (".obsidian/x.md".to_owned(), b"hidden".to_vec()),
        ])
        .unwrap();
        assert!(!looks_like(&no_notes, "a.zip"));
        let cases: [(&[u8], &str, &str); 4] = [
            (&no_notes, "a.zip", "no `.md` file"),
            (b"\xff\xfe\x00binary", "a.md", "not UTF-8 at byte 0"),
            (b"text\0with nul", "a.md", "NUL bytes"),
            (b"PK\x03\x04broken", "a.zip", "not a zip"),
        ];
        for (bytes, name, says) in cases {
            let e = read(bytes, name).unwrap_err();
            assert!(e.0.contains(says), "{name}: {e:?}");
        }
        assert!(!looks_like(b"\xff\xfe", "a.md"));
    }

    #[test]
    fn a_note_that_is_not_utf8_is_skipped_and_the_others_read() {
        let parsed = read_entries(vec![
            ("a.md".to_owned(), b"fine".to_vec()),
            ("b.md".to_owned(), b"\xff\xfe".to_vec()),
        ])
        .unwrap();
        assert_eq!(parsed.notes.len(), 1);
        assert_eq!(
            skipped(&parsed),
            vec![("b.md", "not UTF-8 text: a note must be Markdown text")]
        );
    }

    #[test]
    fn front_matter_keys_map_as_documented() {
        struct Case {
            text: &'static str,
            title: Option<&'static str>,
            tags: &'static [&'static str],
            created: Option<&'static str>,
            edited: Option<&'static str>,
            body: &'static str,
            skipped: &'static [&'static str],
        }
        let cases = [
            Case {
                text: "---\ntitle: A\ncreated_at: 2023-01-05T10:11:12+01:00\nupdated_at: 2023-01-06 10:11\n---\nbody",
                title: Some("A"),
                tags: &[],
                created: Some("2023-01-05T09:11:12Z"),
                edited: Some("2023-01-06T10:11:00Z"),
                body: "body",
                skipped: &[],
            },
            Case {
                text: "---\ndate: 2023-01-05\ntags: \"#one, two three\"\n---\n\n\n# note\n\ntext",
                title: Some("note"),
                tags: &["one", "two", "three"],
                created: Some("2023-01-05T00:00:00Z"),
                edited: None,
                body: "text",
                skipped: &[],
            },
            Case {
                text: "---\r\ntitle: 'Quoted: yes'\r\ntag: [a, '#b', a]\r\nid: 0123\r\n...\r\n# Other\r\nx",
                title: Some("Quoted: yes"),
                tags: &["a", "b"],
                created: None,
                edited: None,
                body: "# Other\r\nx",
                skipped: &[],
            },
            Case {
                text: "---\ncreated: soon\nmodified: 1700000000\nupdated: 2023-13-01\n---\nx",
                title: Some("note"),
                tags: &[],
                created: None,
                edited: None,
                body: "x",
                skipped: &[
                    "`created: soon` is not a date: left out",
                    "`updated: 2023-13-01` is not a date: left out",
                    "`modified: 1700000000` is not a date: left out",
                ],
            },
            Case {
                text: "---\nnot: [closed\n---\nbody",
                title: Some("note"),
                tags: &[],
                created: None,
                edited: None,
                body: "---\nnot: [closed\n---\nbody",
                skipped: &["the lines between the first two `---` are not front matter"],
            },
            Case {
                text: "---\njust a paragraph\n---\nbody",
                title: Some("note"),
                tags: &[],
                created: None,
                edited: None,
                body: "---\njust a paragraph\n---\nbody",
                skipped: &["(not YAML keys)"],
            },
            Case {
                text: "---\na: &x [1, 2]\nb: *x\n---\nbody",
                title: Some("note"),
                tags: &[],
                created: None,
                edited: None,
                body: "---\na: &x [1, 2]\nb: *x\n---\nbody",
                skipped: &["(YAML aliases are not read)"],
            },
            Case {
                text: "---\n---\n---\nbody without front matter keys",
                title: Some("note"),
                tags: &[],
                created: None,
                edited: None,
                body: "---\nbody without front matter keys",
                skipped: &[],
            },
            Case {
                text: "---\nunclosed: front matter\nbody",
                title: Some("note"),
                tags: &[],
                created: None,
                edited: None,
                body: "---\nunclosed: front matter\nbody",
                skipped: &[],
            },
            Case {
                text: "\u{feff}---\ntitle: ''\ncssclasses: [wide]\ntags:\n---\n# note\n",
                title: Some("note"),
                tags: &[],
                created: None,
                edited: None,
                body: "",
                skipped: &["front matter with no place in a note, left out: `cssclasses`"],
            },
        ];
        for case in cases {
            let parsed = read(case.text.as_bytes(), "note.md").unwrap();
            let n = &parsed.notes[0];
            assert_eq!(n.title.as_deref(), case.title, "{}", case.text);
            assert_eq!(n.tags, case.tags, "{}", case.text);
            assert_eq!(n.created_at, case.created.map(at), "{}", case.text);
            assert_eq!(n.edited_at, case.edited.map(at), "{}", case.text);
            assert_eq!(n.markdown, case.body, "{}", case.text);
            assert_eq!(parsed.skipped.len(), case.skipped.len(), "{parsed:?}");
            for (s, says) in parsed.skipped.iter().zip(case.skipped) {
                assert_eq!(s.at, "note.md");
                assert!(s.reason.contains(says), "{}: {s:?}", case.text);
            }
        }
    }

    #[test]
    fn links_are_resolved_beside_the_note_from_the_root_or_by_name() {
        let png = b"\x89PNG\r\n\x1a\nfake".to_vec();
        let pdf = b"%PDF-1.4 fake".to_vec();
        let entries = vec![
            ("Notes/Sub/note.md".to_owned(), String::new()),
            ("Notes/pics/a b.png".to_owned(), String::new()),
            ("Notes/Sub/c.jpg".to_owned(), String::new()),
            ("assets/deep/d.gif".to_owned(), String::new()),
            ("e.webp".to_owned(), String::new()),
            ("docs/f (1).pdf".to_owned(), String::new()),
            ("docs/other.docx".to_owned(), String::new()),
            ("Other note.md".to_owned(), String::new()),
        ];
        let body = "![](../pics/a%20b.png) ![](<../pics/a b.png>) ![c](./c.jpg \"title\")\n\
                    ![](/assets/deep/d.gif) ![](d.gif) [pdf](../../docs/f%20(1).pdf#page=2)\n\
                    ![[e.webp]] [[f (1).pdf|the report]] ![[docs/f (1).pdf]] [[Other note]]\n\
                    [doc](../../docs/other.docx) [web](https://example.org/x.png) \
                    ![](data:image/png;base64,AAAA) [top](#top) [other](../../Other%20note.md)\n\
                    ![](../../../outside.png) ![](gone.pdf)\n\n    ![](indented-code.png)\n";
        let entries: Vec<(String, Vec<u8>)> = entries
            .into_iter()
            .map(|(p, _)| {
                let bytes = if p.ends_with(".md") {
                    if p == "Notes/Sub/note.md" {
                        body.as_bytes().to_vec()
                    } else {
                        b"other".to_vec()
                    }
                } else if p.ends_with(".pdf") {
                    pdf.clone()
                } else {
                    png.clone()
                };
                (p, bytes)
            })
            .collect();
        let parsed = read_entries(entries).unwrap();
        let n = note(&parsed, "Notes/Sub/note.md");
        let links: Vec<&str> = n.files.iter().map(|(l, _)| l.as_str()).collect();
        assert_eq!(
            links,
            [
                "../pics/a%20b.png",
                "../pics/a b.png",
                "./c.jpg",
                "/assets/deep/d.gif",
                "d.gif",
                "../../docs/f%20(1).pdf#page=2",
                "e.webp",
                "f (1).pdf",
                "docs/f (1).pdf",
            ]
        );
        assert!(n.markdown.contains(
            "![e.webp](e.webp) [f (1).pdf](<f (1).pdf>) ![f (1).pdf](<docs/f (1).pdf>) [[Other note]]"
        ), "{}", n.markdown);
        assert_eq!(
            skipped(&parsed),
            vec![
                (
                    "Notes/Sub/note.md",
                    "`../../docs/other.docx` is neither an image nor a PDF: left as a link, not imported"
                ),
                (
                    "Notes/Sub/note.md",
                    "image `../../../outside.png` not found beside it"
                ),
                ("Notes/Sub/note.md", "PDF `gone.pdf` not found beside it"),
            ]
        );
        // The rewritten body reads back to the same links.
        let again: Vec<String> = links_of(&n.markdown);
        for (link, _) in &n.files {
            assert!(again.contains(link), "{link} in {again:?}");
        }
    }

    fn links_of(markdown: &str) -> Vec<String> {
        Parser::new(markdown)
            .filter_map(|e| match e {
                Event::Start(Tag::Image { dest_url, .. } | Tag::Link { dest_url, .. }) => {
                    Some(dest_url.to_string())
                }
                _ => None,
            })
            .collect()
    }

    #[test]
    fn the_files_notes_hold_are_bounded_in_all() {
        let png = b"\x89PNG\r\n\x1a\n0123456789".to_vec();
        let folder = Folder::new(vec![("a.png".to_owned(), png.clone())]);
        folder.left.set(30);
        let mut linked = HashSet::new();
        let mut files = Vec::new();
        let mut skipped = Vec::new();
        for n in 0..3 {
            let (note, s) = read_note(
                &format!("{n}.md"),
                "![](a.png) ![[a.png]]",
                true,
                &folder,
                &mut linked,
            );
            files.push(note.files.len());
            skipped.extend(s);
        }
        assert_eq!(files, [1, 0, 0], "the same link is held once in a note");
        assert_eq!(skipped.len(), 4);
        assert!(
            skipped[0]
                .reason
                .starts_with("`a.png` not kept: the notes' images"),
            "{skipped:?}"
        );
    }

    #[test]
    fn deep_or_huge_front_matter_does_not_overflow() {
        let deep = format!("---\na: {}\n---\nbody", "[".repeat(100_000));
        let parsed = read(deep.as_bytes(), "n.md").unwrap();
        assert_eq!(parsed.notes.len(), 1);
        assert_eq!(parsed.skipped.len(), 1);
        let laughs = "---\na: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n---\n";
        let parsed = read(laughs.as_bytes(), "n.md").unwrap();
        assert!(parsed.skipped[0].reason.contains("aliases"));
        let nested = format!("{}x", "> ".repeat(50_000));
        assert_eq!(read(nested.as_bytes(), "n.md").unwrap().notes.len(), 1);
    }

    #[test]
    fn helpers_handle_odd_input_without_panicking() {
        assert_eq!(percent_decode("a%20b%zz%e9%"), "a%20b%zz%e9%");
        assert_eq!(percent_decode("a%20b%C3%A9"), "a bé");
        assert_eq!(join("a/b", "../c/./d.png").as_deref(), Some("a/c/d.png"));
        assert_eq!(join("a", "../../x.png"), None);
        assert_eq!(join("a", "/x.png").as_deref(), Some("x.png"));
        for (dest, external) in [
            ("https://x.org", true),
            ("mailto:a@b", true),
            (":/0123456789abcdef", true),
            ("#heading", true),
            ("c:/x.png", false),
            ("x.png", false),
            ("a:b.png", false),
            ("ab:c", true),
        ] {
            assert_eq!(is_external(dest), external, "{dest}");
        }
        assert!(ignored(".obsidian/app.json"));
        assert!(ignored("vault/.trash/x.md"));
        assert!(ignored("__MACOSX/._x.md"));
        assert!(!ignored("vault/_resources/x.png"));
        assert_eq!(destination("a b.png"), "<a b.png>");
        assert_eq!(destination("a<b>\\.png"), "<a\\<b\\>\\\\.png>");
        assert_eq!(
            links_of(&format!("![x]({})", destination("a<b>\\ (1).png"))),
            ["a<b>\\ (1).png"]
        );
        assert!(!has_alias("title: \"a *b* c\"\ntags: [x]"));
        assert!(!has_alias("title: 2 * 3"));
        assert!(has_alias("b: *x"));
        assert!(has_alias("b: [*x]"));
        assert!(has_alias("t: it's\nb: *x"));
        for text in [
            "",
            "---",
            "---\n",
            "---\n---",
            "\n---\n",
            "---\n...\n",
            "# \n",
            "![[",
            "![[]]",
            "[[x.png|]]",
        ] {
            let parsed = read(text.as_bytes(), "n.md").unwrap();
            assert_eq!(parsed.notes.len(), 1, "{text:?}");
        }
    }
}
