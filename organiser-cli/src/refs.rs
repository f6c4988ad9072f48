//! How commands name records (docs/cli.md, "Naming a record"): one rule for
//! every family of records, so what a person typed becomes an ID the same
//! way for tasks, lists, people, projects, notes, tags and categories.
//!
//! A reference is, in this order:
//!
//! 1. a row number (1 to 3 digits) of the family's last listing;
//! 2. a full ID;
//! 3. for a family with names (lists, people, projects, tags, categories), a
//!    name, ignoring case, or the start of one when it begins only one name;
//! 4. a part of an ID: the short ID a table shows (its last six
//!    characters, or more of its end), or a prefix.
//!
//! A part names the one record whose ID begins or ends with it. When the
//! part is at least the six characters a table shows and names exactly
//! one row of the last listing, that row is taken (what the person just
//! saw); otherwise it is matched against every record, and when it fits
//! more than one the command fails and lists them. A record that was just
//! deleted is named the same way by `restore`: its row in the listing it
//! was deleted from, its ID, part of an ID the CLI deleted lately, or the
//! name it had.
//!
//! Names are matched as search matches them (case and accents aside:
//! `zoe` is Zoë): a whole name, else the one name it begins, else, for the
//! families search finds, the search's matches when there is one (a word
//! of the name: `turing` is Alan Turing, `o'brien` is Niamh O'Brien).

use std::path::PathBuf;

use organiser_core::{Id, ListParams, Page};
use serde::{Deserialize, Serialize};

use crate::backend::data_dir;
use crate::door::Client;
use crate::door::Doors;
use crate::error::CliError;
use crate::output;
use crate::session::Global;

/// How many deleted IDs per family the CLI remembers for `restore`.
const REMEMBERED_DELETIONS: usize = 50;

/// The length of the short ID the tables show.
const SHORT: usize = 6;

/// How many candidates an ambiguity lists.
const CANDIDATES_SHOWN: usize = 8;

/// A family of records the command line lists and names: tasks, lists,
/// people, projects, notes, tags, categories.
pub(crate) trait Family: Sized {
    /// One record, as messages say it: "task".
    const ONE: &'static str;
    /// Many, as messages say it: "tasks".
    const MANY: &'static str;
    /// The command that lists them, when it is not [`Family::MANY`]
    /// (notification channels: `notify`).
    const COMMAND: &'static str = Self::MANY;
    /// Whether people name them by name as well (lists, people,
    /// projects; not tasks, whose titles repeat).
    const NAMED: bool;
    /// The search type that finds them by the words of their names, if
    /// search finds them (people, projects, lists, folders, documents).
    const SEARCHED: Option<organiser_core::search::SearchType> = None;
    /// How a message asks whether one was deleted: "was it" (people:
    /// "were they").
    const DELETED_ASK: &'static str = "was it";

    /// The record's ID.
    fn id(&self) -> Id;

    /// What people call it (a list's name, a task's title).
    fn name(&self) -> &str;

    /// One page of every live record, in a stable order, after `cursor`.
    fn page(client: &Client, cursor: Option<String>) -> Result<Page<Self>, CliError>;

    /// The record with this ID.
    fn get(client: &Client, id: Id) -> Result<Self, CliError>;

    /// The live records whose name begins with `name` ignoring case, when
    /// the API can find them without reading every record (`None`: read
    /// them all).
    fn named(_client: &Client, _name: &str) -> Result<Option<Vec<Self>>, CliError> {
        Ok(None)
    }
}

/// Says a 404 about record `id` of family `F` plainly: "there is no task
/// 01J… (was it deleted?)"; any other error as it is.
pub(crate) fn gone<F: Family>(id: Id) -> impl Fn(CliError) -> CliError {
    move |e| match e {
        CliError::Api {
            error: organiser_core::Error::NotFound,
            ..
        } => CliError::msg(format!(
            "there is no {} {id} ({} deleted?)",
            F::ONE,
            F::DELETED_ASK
        )),
        other => other,
    }
}

/// The first `limit` records of a listing, read page by page through the
/// API's cursors (at most 100 a page) with `read`, as one page: its
/// `limit` is the one asked for (the number read when there is none), its
/// `total_count` the whole set's.
pub(crate) fn first_pages<T>(
    limit: usize,
    mut read: impl FnMut(ListParams) -> Result<Page<T>, CliError>,
) -> Result<Page<T>, CliError> {
    const MOST_A_PAGE: usize = 100;
    let mut params = ListParams {
        limit: limit.clamp(1, MOST_A_PAGE),
        count: true,
        ..ListParams::default()
    };
    let mut all = read(params.clone())?;
    while all.items.len() < limit
        && let Some(cursor) = all.next_cursor.take()
    {
        params.cursor = Some(cursor);
        params.limit = (limit - all.items.len()).min(MOST_A_PAGE);
        params.count = false;
        let next = read(params.clone())?;
        all.items.extend(next.items);
        all.next_cursor = next.next_cursor;
    }
    all.items.truncate(limit);
    all.limit = if limit == usize::MAX {
        all.items.len()
    } else {
        limit
    };
    Ok(all)
}

/// Every live record of a family, page after page.
pub(crate) fn every<F: Family>(client: &Client) -> Result<Vec<F>, CliError> {
    let mut records = Vec::new();
    let mut cursor = None;
    loop {
        let page = F::page(client, cursor)?;
        records.extend(page.items);
        match page.next_cursor {
            Some(next) => cursor = Some(next),
            None => return Ok(records),
        }
    }
}

/// What the CLI keeps between commands about one store: the last listing
/// of each family (its IDs row by row) and the IDs it deleted lately.
pub(crate) struct Memory {
    dir: Option<PathBuf>,
    /// Whether `dir` is in the data directory, which only the store makes.
    in_store: bool,
}

/// One family's last listing, or its deletions, as kept on disk.
#[derive(Serialize, Deserialize)]
struct Kept {
    family: String,
    ids: Vec<Id>,
    /// The deleted records' names, one for each ID (none in a listing).
    #[serde(default)]
    names: Vec<String>,
}

impl Memory {
    /// Kept in the data directory's `cli/`; for a server named by
    /// `ORGANISER_URL` (or the configuration file's `url`), in the user's
    /// cache directory under a name made from the address, so two servers'
    /// row numbers never mix. Nothing is kept where neither can be found.
    pub(crate) fn new(global: &Global) -> Self {
        let remote = crate::config::remote_url();
        let in_store = remote.is_none();
        let dir = match remote {
            Some(url) => dirs::cache_dir().map(|cache| {
                let name: String = url
                    .trim()
                    .chars()
                    .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
                    .collect();
                cache.join("organiser").join(name)
            }),
            None => data_dir(global.data_dir.as_deref())
                .ok()
                .map(|d| d.join("cli")),
        };
        Memory { dir, in_store }
    }

    fn path<F: Family>(&self, what: &str) -> Option<PathBuf> {
        self.dir
            .as_ref()
            .map(|dir| dir.join(format!("{what}-{}.json", F::MANY.replace(' ', "-"))))
    }

    fn load<F: Family>(&self, what: &str) -> Vec<Id> {
        self.load_named::<F>(what)
            .into_iter()
            .map(|(id, _)| id)
            .collect()
    }

    /// The IDs kept with their names (empty where none was kept).
    fn load_named<F: Family>(&self, what: &str) -> Vec<(Id, String)> {
        let Some(kept) = self
            .path::<F>(what)
            .and_then(|path| std::fs::read_to_string(path).ok())
            .and_then(|text| serde_json::from_str::<Kept>(&text).ok())
            .filter(|kept| kept.family == F::MANY)
        else {
            return Vec::new();
        };
        let mut names = kept.names.into_iter();
        kept.ids
            .into_iter()
            .map(|id| (id, names.next().unwrap_or_default()))
            .collect()
    }

    /// Best effort: a command still works when its memory cannot be kept
    /// (and the store's directory is only made by the store).
    fn save<F: Family>(&self, what: &str, ids: Vec<Id>) {
        self.save_named::<F>(
            what,
            ids.into_iter().map(|id| (id, String::new())).collect(),
        );
    }

    fn save_named<F: Family>(&self, what: &str, kept: Vec<(Id, String)>) {
        let (Some(dir), Some(path)) = (&self.dir, self.path::<F>(what)) else {
            return;
        };
        if self.in_store && dir.parent().is_some_and(|p| !p.exists()) {
            return;
        }
        let _ = std::fs::create_dir_all(dir);
        let (ids, names): (Vec<Id>, Vec<String>) = kept.into_iter().unzip();
        let kept = Kept {
            family: F::MANY.to_owned(),
            names: match names.iter().all(String::is_empty) {
                true => Vec::new(),
                false => names,
            },
            ids,
        };
        if let Ok(text) = serde_json::to_string(&kept) {
            let _ = std::fs::write(path, text);
        }
    }
}

/// Turns what people type into IDs.
pub(crate) struct Refs<'a> {
    client: &'a Client,
    global: &'a Global,
    memory: Memory,
}

impl<'a> Refs<'a> {
    /// Names records through `client`, with this store's memory.
    pub(crate) fn new(client: &'a Client, global: &'a Global) -> Self {
        Refs {
            client,
            global,
            memory: Memory::new(global),
        }
    }

    /// Keeps `records` as the family's last listing: row numbers refer to it.
    pub(crate) fn listed<F: Family>(&self, records: &[F]) {
        self.memory
            .save::<F>("listing", records.iter().map(F::id).collect());
    }

    /// Remembers that `id`, called `name`, was deleted, for `restore`.
    pub(crate) fn deleted<F: Family>(&self, id: Id, name: &str) {
        let mut kept = self.memory.load_named::<F>("deleted");
        kept.retain(|(kept, _)| *kept != id);
        kept.push((id, name.to_owned()));
        let extra = kept.len().saturating_sub(REMEMBERED_DELETIONS);
        kept.drain(..extra);
        self.memory.save_named::<F>("deleted", kept);
    }

    /// The record of family `F` that `restore` brings back: the one
    /// `reference` names among those deleted lately (its row, ID, part of
    /// its ID, or the name it had), or without one, the one the CLI
    /// deleted last.
    pub(crate) fn to_restore<F: Family>(&self, reference: Option<&str>) -> Result<Id, CliError> {
        let Some(reference) = reference.map(str::trim).filter(|r| !r.is_empty()) else {
            return self.last_deleted::<F>().ok_or_else(|| {
                CliError::msg(format!(
                    "no {} was deleted here lately: name the one to restore by its ID, as `{}` printed it",
                    F::ONE,
                    self.global.command(&format!("{} rm", F::COMMAND))
                ))
            });
        };
        let by_name = |names: Vec<(Id, String)>| -> Vec<(Id, Option<String>)> {
            let folded = organiser_core::search::fold(reference);
            let matching: Vec<&(Id, String)> = names
                .iter()
                .filter(|(_, name)| {
                    !name.is_empty() && organiser_core::search::fold(name).starts_with(&folded)
                })
                .collect();
            let whole: Vec<&&(Id, String)> = matching
                .iter()
                .filter(|(_, name)| organiser_core::search::fold(name) == folded)
                .collect();
            let chosen: Vec<(Id, String)> = match whole.is_empty() {
                true => matching.into_iter().cloned().collect(),
                false => whole.into_iter().map(|k| (*k).clone()).collect(),
            };
            let mut chosen: Vec<(Id, Option<String>)> = chosen
                .into_iter()
                .map(|(id, name)| (id, Some(name)))
                .collect();
            // The latest deletion of a name comes first.
            chosen.reverse();
            chosen.dedup_by_key(|(id, _)| *id);
            chosen
        };
        // A name (or title) it had: the latest deletion of it (a row
        // number is a row).
        let row_number = reference.bytes().all(|b| b.is_ascii_digit());
        if !looks_like_an_id(reference)
            && !row_number
            && let Some((id, _)) = by_name(self.memory.load_named::<F>("deleted")).first()
        {
            return Ok(*id);
        }
        self.deleted_id::<F>(reference)
    }

    /// The ID of the record of family `F` the CLI deleted last, if any
    /// (what `restore` with no reference brings back).
    pub(crate) fn last_deleted<F: Family>(&self) -> Option<Id> {
        self.memory.load::<F>("deleted").last().copied()
    }

    /// The ID of the live record of family `F` that `reference` names.
    pub(crate) fn id<F: Family>(&self, reference: &str) -> Result<Id, CliError> {
        self.find::<F>(reference).map(|(id, _)| id)
    }

    /// The live record of family `F` that `reference` names.
    pub(crate) fn record<F: Family>(&self, reference: &str) -> Result<F, CliError> {
        match self.find::<F>(reference)? {
            (_, Some(record)) => Ok(record),
            (id, None) => F::get(self.client, id),
        }
    }

    /// The ID of a record of family `F` deleted lately that `reference`
    /// names: a row of the listing it was deleted from, its ID, or part of
    /// the ID of a record listed there or deleted by the CLI.
    pub(crate) fn deleted_id<F: Family>(&self, reference: &str) -> Result<Id, CliError> {
        let reference = reference.trim();
        let listed = self.memory.load::<F>("listing");
        if let Some(found) = row::<F>(reference, &listed) {
            return found;
        }
        if let Some(id) = Id::parse(reference) {
            return Ok(id);
        }
        let part = id_part::<F>(reference)?;
        let mut known = self.memory.load::<F>("deleted");
        known.extend(listed);
        known.sort_unstable();
        known.dedup();
        let found: Vec<(Id, Option<String>)> = known
            .into_iter()
            .filter(|id| fits(&part, *id))
            .map(|id| (id, None))
            .collect();
        self.one::<F>(reference, found)
    }

    /// The ID `reference` names, with the record when it was read on the way.
    fn find<F: Family>(&self, reference: &str) -> Result<(Id, Option<F>), CliError> {
        let reference = reference.trim();
        let listed = self.memory.load::<F>("listing");
        let mut all: Option<Vec<F>> = None;
        if let Some(found) = row::<F>(reference, &listed) {
            // A family with names may have a record named like a number:
            // with no such row, the name is tried.
            match found {
                Ok(id) => return Ok((id, None)),
                Err(e) if !F::NAMED => return Err(e),
                Err(e) => {
                    let records = every::<F>(self.client)?;
                    if !records.iter().any(|r| same_name(r.name(), reference)) {
                        return Err(e);
                    }
                    all = Some(records);
                }
            }
        }
        if let Some(id) = Id::parse(reference) {
            return Ok((id, None));
        }
        if F::NAMED {
            // The records a name could name: those whose name begins with
            // the reference, found by the API when it can, else all of them.
            let candidates = match all.take() {
                Some(records) => records,
                None => match F::named(self.client, reference)? {
                    Some(found) => found,
                    None => every::<F>(self.client)?,
                },
            };
            let folded = organiser_core::search::fold(reference);
            let (exact, prefixed): (Vec<F>, Vec<F>) = candidates
                .into_iter()
                .filter(|r| organiser_core::search::fold(r.name()).starts_with(&folded))
                .partition(|r| same_name(r.name(), reference));
            // A whole name first; else a name it begins, when only one does.
            let named = if exact.is_empty() { prefixed } else { exact };
            match named.len() {
                0 => {}
                1 => {
                    let record = named.into_iter().next().expect("one");
                    return Ok((record.id(), Some(record)));
                }
                _ => {
                    let found = named.iter().map(|r| (r.id(), Some(r.name().to_owned())));
                    return Err(self.ambiguous::<F>(reference, found.collect()));
                }
            }
            // As search finds them: a word of the name, a misspelling.
            if let Some(kind) = F::SEARCHED
                && !looks_like_an_id(reference)
            {
                let query = organiser_core::search::SearchQuery {
                    q: reference.to_owned(),
                    types: vec![kind],
                    limit: CANDIDATES_SHOWN + 1,
                };
                let found: Vec<(Id, Option<String>)> = self
                    .client
                    .reply(|c| c.search().find(&query))?
                    .data
                    .into_iter()
                    .flat_map(|g| g.results)
                    .map(|r| (r.id, Some(r.title)))
                    .collect();
                match found.len() {
                    0 => {}
                    1 => return Ok((found[0].0, None)),
                    _ => return Err(self.ambiguous::<F>(reference, found)),
                }
            }
        }
        let part = match id_part::<F>(reference) {
            Ok(part) => part,
            Err(_) if F::NAMED => return Err(self.not_found::<F>(reference)),
            Err(e) => return Err(e),
        };
        // The short ID a table showed names its row.
        if all.is_none() && part.len() >= SHORT {
            let seen: Vec<Id> = listed
                .iter()
                .copied()
                .filter(|id| id.to_string().ends_with(&part))
                .collect();
            if let [one] = seen.as_slice() {
                return Ok((*one, None));
            }
        }
        let mut records = match all {
            Some(records) => records,
            None => every::<F>(self.client)?,
        };
        records.retain(|r| fits(&part, r.id()));
        if records.len() == 1 {
            let record = records.remove(0);
            return Ok((record.id(), Some(record)));
        }
        let found = records
            .iter()
            .map(|r| (r.id(), Some(r.name().to_owned())))
            .collect();
        self.one::<F>(reference, found).map(|id| (id, None))
    }

    /// The one of `found`, or an error that says there is none or lists them.
    fn one<F: Family>(
        &self,
        reference: &str,
        found: Vec<(Id, Option<String>)>,
    ) -> Result<Id, CliError> {
        match found.as_slice() {
            [(id, _)] => Ok(*id),
            [] => Err(self.not_found::<F>(reference)),
            _ => Err(self.ambiguous::<F>(reference, found)),
        }
    }

    fn not_found<F: Family>(&self, reference: &str) -> CliError {
        let named = if F::NAMED {
            format!("named {reference:?} or ")
        } else {
            String::new()
        };
        CliError::msg(format!(
            "there is no {} {named}whose ID begins or ends with {:?} (see `{}`)",
            F::ONE,
            reference,
            self.global.command(F::COMMAND)
        ))
    }

    /// "01K matches 3 tasks: 7QZ2XA Buy milk, …; give more of the ID or a
    /// row number".
    fn ambiguous<F: Family>(&self, reference: &str, found: Vec<(Id, Option<String>)>) -> CliError {
        let n = found.len();
        let mut shown: Vec<String> = found
            .iter()
            .take(CANDIDATES_SHOWN)
            .map(|(id, name)| match name {
                Some(name) => format!("{} {}", output::short_id(id), output::clean(name)),
                None => id.to_string(),
            })
            .collect();
        if n > CANDIDATES_SHOWN {
            shown.push(format!("and {} more", n - CANDIDATES_SHOWN));
        }
        let more = if F::NAMED {
            "give more of the ID, or a row number of `".to_owned()
                + &self.global.command(F::COMMAND)
                + "`"
        } else {
            "give more of the ID, or a row number".to_owned()
        };
        CliError::msg(format!(
            "{reference:?} names {n} {}: {}; {more}",
            F::MANY,
            shown.join(", ")
        ))
    }
}

/// For a row number (1 to 3 digits), the ID in that row of `listed`, or
/// the error that there is no such row; `None` for anything else.
fn row<F: Family>(reference: &str, listed: &[Id]) -> Option<Result<Id, CliError>> {
    let is_row =
        (1..=3).contains(&reference.len()) && reference.bytes().all(|b| b.is_ascii_digit());
    if !is_row {
        return None;
    }
    let n: usize = reference.parse().unwrap_or(0);
    Some(match listed.get(n.wrapping_sub(1)) {
        Some(id) => Ok(*id),
        None => Err(CliError::msg(format!(
            "there is no row {reference} in the last listing of {} ({} rows); list the {} again with `{}`",
            F::MANY,
            listed.len(),
            F::MANY,
            F::COMMAND
        ))),
    })
}

/// The part of an ID `reference` is, in capitals: at least two letters or
/// digits.
fn id_part<F: Family>(reference: &str) -> Result<String, CliError> {
    let part = reference.to_ascii_uppercase();
    if part.len() < 2 || !part.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return Err(CliError::msg(format!(
            "{reference:?} does not name a {}: give a row number, an ID or part of one{}",
            F::ONE,
            if F::NAMED { ", or a name" } else { "" }
        )));
    }
    Ok(part)
}

/// Whether `id` begins or ends with `part`.
fn fits(part: &str, id: Id) -> bool {
    let id = id.to_string();
    id.starts_with(part) || id.ends_with(part)
}

fn same_name(name: &str, reference: &str) -> bool {
    organiser_core::search::fold(name) == organiser_core::search::fold(reference)
}

/// Whether `reference` could be (part of) an ID: letters and digits of
/// the ID alphabet only, with a digit.
fn looks_like_an_id(reference: &str) -> bool {
    reference.len() >= 2
        && reference.bytes().all(|b| b.is_ascii_alphanumeric())
        && reference.bytes().any(|b| b.is_ascii_digit())
}
