//! Taskwarrior's `task export` (EXTENSIONS.md §5, "Formats",
//! `taskwarrior`): a JSON array of task objects, or the one object a line
//! that older versions and `rc.json.array=off` write.
//!
//! What maps to what:
//! - `uuid`: the task's identity in the import map, and where it is named
//!   in the report.
//! - `description`: the title.
//! - `project`: the task list, named as written (`Home.Groceries` is one
//!   list of that name); no project: the inbox.
//! - `due`: `deadline_on`; `scheduled`: `start_on`; `until`: `expires_on`
//!   (and, on a recurring task, the repeat's `UNTIL`). Taskwarrior writes
//!   moments in UTC (`20240105T230000Z`), the owner's local midnight for
//!   a date typed as `due:2024-01-06`; each is taken as its date in the
//!   owner's zone (so that date is 6 January again).
//! - `entry`: `created_at`; `end` of a completed task: its `closed_at`.
//! - `status`: `pending` and `waiting` are open, `completed` is completed;
//!   `deleted` tasks are skipped ("deleted in Taskwarrior").
//! - `recur`: the repeat, as an RRULE: `daily`/`day`/`Nd` (`FREQ=DAILY`),
//!   `weekdays` (`FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR`), `weekly`/`week`/`Nw`,
//!   `biweekly`/`fortnight` (`FREQ=WEEKLY;INTERVAL=2`), `monthly`/`month`/
//!   `Nmo`/`Nm`, `bimonthly`, `quarterly`/`Nq` (`FREQ=MONTHLY;INTERVAL=3`),
//!   `semiannual`, `annual`/`yearly`/`Ny`, `biannual`/`biyearly`, and ISO
//!   durations of one unit (`P2W`, `P1M`). Others (hours, minutes,
//!   seconds, `P1DT12H`, ...): the task is kept without a repeat,
//!   `Recurrence: <value>` goes into its description, and the report
//!   names its uuid with why.
//! - A recurring series: Taskwarrior exports the series' definition
//!   (`status: recurring`) and the occurrences it made (`parent` naming
//!   the definition, `imask` counting them). The pending occurrence with
//!   the lowest `imask` is imported, carrying the series' repeat; when no
//!   occurrence is pending, the definition itself is imported as an open
//!   task with the repeat. The definition and the other pending
//!   occurrences are skipped, each with why. Completed occurrences are
//!   imported as completed tasks (without a repeat), as any completed
//!   task is.
//! - Kept in words in the description, one paragraph each: every
//!   annotation as `2024-01-05: text` (its `entry` date in the owner's zone), `Tags: a,
//!   b`, `Priority: H`, `Waiting until: 2024-01-05` (`wait`), and an
//!   unmapped `Recurrence: <value>`.
//! - Not kept: `urgency`, `id`, `modified`, `mask`/`imask`/`rtype`,
//!   `depends`, user-defined attributes.
//!
//! A file that is not JSON, or holds anything but task objects, is
//! refused with the line; a task object without a `uuid` or a
//! `description` is skipped.

use std::collections::HashMap;

use jiff::Timestamp;
use jiff::civil::Date;
use jiff::tz::TimeZone;
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use super::Refused;
use crate::resources::tasks::{Repeat, TaskStatus};
use crate::resources::transfer::draft::{DraftTask, Parsed, Skipped};

/// How many bytes from the start [`looks_like`] reads.
const SNIFF: usize = 4096;

/// The fields a Taskwarrior task object has; an object with none of them
/// is not a task.
const TASK_FIELDS: [&str; 4] = ["uuid", "description", "status", "entry"];

/// Whether `bytes` look like `task export` output: JSON that starts with
/// an array or an object and names a `uuid` or `description` near its
/// start.
pub(crate) fn looks_like(bytes: &[u8]) -> bool {
    let head = bytes.get(..SNIFF).unwrap_or(bytes);
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    let Some(first) = head.iter().find(|b| !b.is_ascii_whitespace()) else {
        return false;
    };
    let names = |needle: &[u8]| head.windows(needle.len()).any(|w| w == needle);
    matches!(first, b'[' | b'{') && (names(b"\"uuid\"") || names(b"\"description\""))
}

/// The tasks of a `task export` file; refused when it is not JSON or holds
/// anything but task objects.
pub(crate) fn read(bytes: &[u8], zone: &TimeZone) -> Result<Parsed, Refused> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let line = line_of(bytes, e.valid_up_to());
        Refused::new(format!("line {line}: not UTF-8 text"))
    })?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let objects = if text.trim_start().starts_with('[') {
        array_objects(text)?
    } else {
        line_objects(text)?
    };
    Ok(convert(objects, zone))
}

/// One task object of the file, with where it is (`line 3`).
struct Row {
    at: String,
    fields: Map<String, Value>,
}

/// The objects of a JSON array, each with the line it starts on.
fn array_objects(text: &str) -> Result<Vec<Row>, Refused> {
    let raws: Vec<&RawValue> = serde_json::from_str(text).map_err(|e| {
        Refused::new(format!(
            "line {}: not a Taskwarrior export: {e}",
            e.line().max(1)
        ))
    })?;
    let mut rows = Vec::with_capacity(raws.len());
    let mut counted = 0;
    let mut line = 1;
    for raw in raws {
        // Where the value starts in `text`: a raw value is a slice of it.
        let offset = (raw.get().as_ptr() as usize)
            .saturating_sub(text.as_ptr() as usize)
            .min(text.len());
        line += text
            .get(counted..offset)
            .map_or(0, |s| s.bytes().filter(|b| *b == b'\n').count());
        counted = counted.max(offset);
        rows.push(task_object(raw.get(), line)?);
    }
    Ok(rows)
}

/// The objects of a file of one JSON object a line (a trailing comma
/// allowed), each with its line.
fn line_objects(text: &str) -> Result<Vec<Row>, Refused> {
    let mut rows = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let json = line.trim();
        let json = json.strip_suffix(',').unwrap_or(json);
        if json.is_empty() {
            continue;
        }
        rows.push(task_object(json, i + 1)?);
    }
    Ok(rows)
}

/// The task object `json` found at `line`; refused when it is not JSON,
/// not an object, or an object with none of a task's fields.
fn task_object(json: &str, line: usize) -> Result<Row, Refused> {
    let value: Value = serde_json::from_str(json)
        .map_err(|e| Refused::new(format!("line {line}: not a Taskwarrior export: {e}")))?;
    let Value::Object(fields) = value else {
        return Err(Refused::new(format!(
            "line {line}: not a Taskwarrior task object (a JSON {})",
            kind(&value)
        )));
    };
    if !TASK_FIELDS.iter().any(|f| fields.contains_key(*f)) {
        return Err(Refused::new(format!(
            "line {line}: not a Taskwarrior task object (no uuid, description, status or entry)"
        )));
    }
    Ok(Row {
        at: format!("line {line}"),
        fields,
    })
}

/// The JSON type of `value`, in words.
fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// The 1-based line of the byte at `offset`.
fn line_of(bytes: &[u8], offset: usize) -> usize {
    bytes
        .get(..offset)
        .unwrap_or(bytes)
        .iter()
        .filter(|b| **b == b'\n')
        .count()
        + 1
}

/// The string field `name` of `fields`, when it is a non-blank string.
fn text<'a>(fields: &'a Map<String, Value>, name: &str) -> Option<&'a str> {
    fields
        .get(name)
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|s| !s.is_empty())
}

/// A task's status as the file gives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Status {
    Pending,
    Completed,
    Deleted,
    Recurring,
}

/// The status named `word`; `None` for one Taskwarrior does not write.
fn status(word: Option<&str>) -> Option<Status> {
    match word {
        None | Some("pending") | Some("waiting") => Some(Status::Pending),
        Some("completed") => Some(Status::Completed),
        Some("deleted") => Some(Status::Deleted),
        Some("recurring") => Some(Status::Recurring),
        Some(_) => None,
    }
}

/// The drafts of the file's task objects, in file order.
fn convert(rows: Vec<Row>, zone: &TimeZone) -> Parsed {
    let chosen = chosen_occurrences(&rows);
    let recur_of: HashMap<&str, &str> = rows
        .iter()
        .filter_map(|r| Some((text(&r.fields, "uuid")?, text(&r.fields, "recur")?)))
        .collect();
    let mut parsed = Parsed::default();
    for row in &rows {
        match draft(row, &chosen, &recur_of, zone) {
            Ok((task, skipped)) => {
                parsed.tasks.push(task);
                parsed.skipped.extend(skipped);
            }
            Err(skipped) => parsed.skipped.push(skipped),
        }
    }
    parsed
}

/// For each recurring series (by the definition's uuid), the uuid of its
/// pending occurrence with the lowest `imask`.
fn chosen_occurrences(rows: &[Row]) -> HashMap<&str, &str> {
    let mut best: HashMap<&str, (f64, &str)> = HashMap::new();
    for row in rows {
        let f = &row.fields;
        let (Some(parent), Some(uuid)) = (text(f, "parent"), text(f, "uuid")) else {
            continue;
        };
        if text(f, "description").is_none() || status(text(f, "status")) != Some(Status::Pending) {
            continue;
        }
        let imask = f.get("imask").and_then(Value::as_f64).unwrap_or(f64::MAX);
        let entry = best.entry(parent).or_insert((imask, uuid));
        if imask < entry.0 {
            *entry = (imask, uuid);
        }
    }
    best.into_iter().map(|(k, (_, v))| (k, v)).collect()
}

/// The draft of one task object and what the report says about it beside
/// it (an unmapped recurrence), or why it is skipped.
fn draft(
    row: &Row,
    chosen: &HashMap<&str, &str>,
    recur_of: &HashMap<&str, &str>,
    zone: &TimeZone,
) -> Result<(DraftTask, Vec<Skipped>), Skipped> {
    let f = &row.fields;
    let Some(uuid) = text(f, "uuid") else {
        return Err(Skipped::new(&row.at, "a task without a uuid"));
    };
    let Some(title) = text(f, "description") else {
        return Err(Skipped::new(uuid, "a task without a description"));
    };
    let word = text(f, "status");
    let Some(state) = status(word) else {
        return Err(Skipped::new(
            uuid,
            format!(
                "its status `{}` is not one Taskwarrior writes",
                word.unwrap_or_default()
            ),
        ));
    };
    let parent = text(f, "parent");
    // Which recurrence, if any, this task carries.
    let mut recur = None;
    match state {
        Status::Deleted => return Err(Skipped::new(uuid, "deleted in Taskwarrior")),
        Status::Recurring => {
            if let Some(occurrence) = chosen.get(uuid) {
                return Err(Skipped::new(
                    uuid,
                    format!(
                        "the definition of a recurring series: its pending occurrence \
                         {occurrence} is imported with the series' repeat"
                    ),
                ));
            }
            recur = text(f, "recur");
        }
        Status::Pending => {
            if let Some(parent) = parent {
                match chosen.get(parent) {
                    Some(first) if *first == uuid => {
                        recur = recur_of.get(parent).copied().or(text(f, "recur"));
                    }
                    Some(first) => {
                        return Err(Skipped::new(
                            uuid,
                            format!(
                                "a later occurrence of the recurring series {parent}: \
                                 its pending occurrence {first} is imported with the repeat"
                            ),
                        ));
                    }
                    None => recur = text(f, "recur"),
                }
            }
        }
        Status::Completed => {}
    }

    let mut task = DraftTask::new(uuid, uuid, title);
    task.list = text(f, "project").map(str::to_owned);
    task.deadline_on = date(f, "due", zone).map_err(|e| Skipped::new(uuid, e))?;
    task.start_on = date(f, "scheduled", zone).map_err(|e| Skipped::new(uuid, e))?;
    task.expires_on = date(f, "until", zone).map_err(|e| Skipped::new(uuid, e))?;
    task.created_at = moment(f, "entry").map_err(|e| Skipped::new(uuid, e))?;
    if state == Status::Completed {
        task.status = TaskStatus::Completed;
        task.closed_at = moment(f, "end").map_err(|e| Skipped::new(uuid, e))?;
    }

    if let Some(Value::Array(notes)) = f.get("annotations") {
        for note in notes {
            let Some(words) = note
                .get("description")
                .and_then(Value::as_str)
                .map(str::trim)
                .filter(|s| !s.is_empty())
            else {
                continue;
            };
            let day = note
                .get("entry")
                .and_then(Value::as_str)
                .and_then(parse_moment)
                .map(|at| local_date(at, zone));
            task.description.push(match day {
                Some(day) => format!("{day}: {words}"),
                None => words.to_owned(),
            });
        }
    }
    let tags = tags(f);
    if !tags.is_empty() {
        task.description.push(format!("Tags: {}", tags.join(", ")));
    }
    if let Some(priority) = text(f, "priority") {
        task.description.push(format!("Priority: {priority}"));
    }
    if let Some(wait) = date(f, "wait", zone).ok().flatten() {
        task.description.push(format!("Waiting until: {wait}"));
    }

    let mut skipped = Vec::new();
    if let Some(recur) = recur {
        let rule = if task.deadline_on.or(task.start_on).is_none() {
            Err("a recurrence without a due or scheduled date".to_owned())
        } else {
            rrule(recur).ok_or_else(|| {
                format!(
                    "its recurrence `{recur}` has no match in the organiser, which repeats \
                     by days, weeks, months and years"
                )
            })
        };
        match rule {
            Ok(mut rule) if state != Status::Completed => {
                if let Some(until) = task.expires_on {
                    rule.push_str(&format!(";UNTIL={}", until.strftime("%Y%m%d")));
                }
                task.repeat = Some(Repeat::rule(rule));
            }
            Ok(_) => {}
            Err(why) => {
                task.description.push(format!("Recurrence: {recur}"));
                skipped.push(Skipped::new(
                    uuid,
                    format!("{why}: imported without a repeat, `Recurrence: {recur}` kept in its description"),
                ));
            }
        }
    }
    Ok((task, skipped))
}

/// The task's tags, as written.
fn tags(fields: &Map<String, Value>) -> Vec<&str> {
    match fields.get("tags") {
        Some(Value::Array(tags)) => tags
            .iter()
            .filter_map(Value::as_str)
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .collect(),
        // Some old versions wrote the tags as one comma-separated string.
        Some(Value::String(tags)) => tags
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .collect(),
        _ => Vec::new(),
    }
}

/// The date (in the owner's zone) of the moment field `name`; the
/// message says why it cannot be read.
fn date(fields: &Map<String, Value>, name: &str, zone: &TimeZone) -> Result<Option<Date>, String> {
    Ok(moment(fields, name)?.map(|at| local_date(at, zone)))
}

/// The moment field `name`, if the task has it; the message says why it
/// cannot be read.
fn moment(fields: &Map<String, Value>, name: &str) -> Result<Option<Timestamp>, String> {
    match fields.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if s.trim().is_empty() => Ok(None),
        Some(Value::String(s)) => parse_moment(s)
            .map(Some)
            .ok_or_else(|| format!("its {name} `{s}` is not a Taskwarrior date")),
        Some(other) => Err(format!(
            "its {name} is a JSON {}, not a Taskwarrior date",
            kind(other)
        )),
    }
}

/// A Taskwarrior moment: `20240105T230000Z` (as 2.x and 3.x write), an
/// RFC 3339 time, or seconds since 1970 (as 1.x wrote).
fn parse_moment(s: &str) -> Option<Timestamp> {
    let s = s.trim();
    if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) {
        return s
            .parse::<i64>()
            .ok()
            .and_then(|n| Timestamp::from_second(n).ok());
    }
    s.parse::<Timestamp>().ok()
}

/// The date of `at` in `zone`.
fn local_date(at: Timestamp, zone: &TimeZone) -> Date {
    at.to_zoned(zone.clone()).date()
}

/// The RRULE of Taskwarrior's recurrence `recur`; `None` for one the
/// organiser cannot repeat by (hours, minutes, seconds, mixed units).
fn rrule(recur: &str) -> Option<String> {
    let word = recur.trim().to_ascii_lowercase();
    let named = match word.as_str() {
        "daily" | "day" => Some(("DAILY", 1)),
        "weekdays" => return Some("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR".to_owned()),
        "weekly" | "week" => Some(("WEEKLY", 1)),
        "biweekly" | "fortnight" => Some(("WEEKLY", 2)),
        "monthly" | "month" => Some(("MONTHLY", 1)),
        "bimonthly" => Some(("MONTHLY", 2)),
        "quarterly" | "quarter" => Some(("MONTHLY", 3)),
        "semiannual" => Some(("MONTHLY", 6)),
        "annual" | "yearly" | "year" => Some(("YEARLY", 1)),
        "biannual" | "biyearly" => Some(("YEARLY", 2)),
        _ => None,
    };
    let (freq, n) = match named {
        Some(named) => named,
        None => counted(&word).or_else(|| iso(&word))?,
    };
    Some(if n == 1 {
        format!("FREQ={freq}")
    } else {
        format!("FREQ={freq};INTERVAL={n}")
    })
}

/// A count and a unit (`2d`, `3 weeks`, `6mo`, `1q`): the frequency and
/// the interval.
fn counted(word: &str) -> Option<(&'static str, u32)> {
    let digits = word.bytes().take_while(u8::is_ascii_digit).count();
    let (n, unit) = word.split_at(digits);
    let n: u32 = if n.is_empty() { 1 } else { n.parse().ok()? };
    if n == 0 {
        return None;
    }
    let (freq, times) = match unit.trim() {
        "d" | "day" | "days" => ("DAILY", 1),
        "w" | "wk" | "wks" | "week" | "weeks" => ("WEEKLY", 1),
        "m" | "mo" | "mos" | "mth" | "mths" | "mnths" | "month" | "months" => ("MONTHLY", 1),
        "q" | "qtr" | "qtrs" | "qrtr" | "qrtrs" | "quarter" | "quarters" => ("MONTHLY", 3),
        "y" | "yr" | "yrs" | "year" | "years" => ("YEARLY", 1),
        _ => return None,
    };
    Some((freq, n.checked_mul(times)?))
}

/// An ISO 8601 duration of one unit of days or more (`P2W`, `P1M`).
fn iso(word: &str) -> Option<(&'static str, u32)> {
    let rest = word.strip_prefix('p')?;
    let unit = rest.chars().last()?;
    let n: u32 = rest.get(..rest.len().checked_sub(1)?)?.parse().ok()?;
    if n == 0 {
        return None;
    }
    match unit {
        'd' => Some(("DAILY", n)),
        'w' => Some(("WEEKLY", n)),
        'm' => Some(("MONTHLY", n)),
        'y' => Some(("YEARLY", n)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    //! `export.json` and `export-lines.json` are Taskwarrior 2.6.2's own
    //! `task export` output (the second with `rc.json.array=off`), of a
    //! data directory made with `task add` on the machine's clock (UTC).

    use super::*;

    const EXPORT: &[u8] = include_bytes!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/fixtures/imports/taskwarrior/export.json"
    ));
    const EXPORT_LINES: &[u8] = include_bytes!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/fixtures/imports/taskwarrior/export-lines.json"
    ));

    fn d(s: &str) -> Date {
        s.parse().unwrap()
    }

    fn ts(s: &str) -> Timestamp {
        s.parse().unwrap()
    }

    fn task<'a>(parsed: &'a Parsed, uuid: &str) -> &'a DraftTask {
        parsed
            .tasks
            .iter()
            .find(|t| t.source == uuid)
            .unwrap_or_else(|| panic!("no task {uuid}"))
    }

    fn skip_reason<'a>(parsed: &'a Parsed, at: &str) -> Vec<&'a str> {
        parsed
            .skipped
            .iter()
            .filter(|s| s.at == at)
            .map(|s| s.reason.as_str())
            .collect()
    }

    #[test]
    fn looks_like_task_export() {
        let cases: &[(&[u8], bool)] = &[
            (EXPORT, true),
            (EXPORT_LINES, true),
            (b"\xEF\xBB\xBF[{\"uuid\":\"a\"}]", true),
            (b"  {\"description\":\"x\"}\n", true),
            (b"[1,2,3]", false),
            (b"BEGIN:VCALENDAR\r\n", false),
            (b"Task name,Project\n", false),
            (b"", false),
        ];
        for (bytes, want) in cases {
            assert_eq!(
                looks_like(bytes),
                *want,
                "{:?}",
                String::from_utf8_lossy(bytes)
            );
        }
    }

    #[test]
    fn the_real_export_maps_field_by_field() {
        let parsed = read(EXPORT, &TimeZone::UTC).unwrap();
        // (uuid, title, list, start, deadline, expires, repeat, status,
        // description)
        type Row<'a> = (
            &'a str,
            &'a str,
            Option<&'a str>,
            Option<&'a str>,
            Option<&'a str>,
            Option<&'a str>,
            Option<&'a str>,
            TaskStatus,
            &'a [&'a str],
        );
        let rows: &[Row] = &[
            (
                "01a79adf-cb7d-4cee-a60c-9d81ee423639",
                "Renew passport",
                Some("Admin"),
                Some("2027-02-01"),
                Some("2027-03-01"),
                None,
                None,
                TaskStatus::Open,
                &[
                    "2026-11-29: Need two photos",
                    "2026-11-29: Form from the post office",
                    "Tags: papers, travel",
                    "Priority: H",
                ],
            ),
            (
                "d5284609-c6f7-4192-8590-678cae94ce17",
                "Buy milk",
                Some("Home.Groceries"),
                None,
                Some("2026-12-02"),
                Some("2026-12-10"),
                None,
                TaskStatus::Open,
                &["Tags: errands", "Priority: L"],
            ),
            (
                "fc6c092e-7db0-4fad-a95b-7de92c249a97",
                "Call the plumber, about the leak; again",
                Some("Home"),
                None,
                None,
                None,
                None,
                TaskStatus::Open,
                &["Priority: M"],
            ),
            // Weekly: its first occurrence is completed, the second
            // (imask 1) is the pending one imported.
            (
                "b40e5d32-5ee6-4dde-b3b3-dbd530944368",
                "Water the plants",
                Some("Home"),
                None,
                Some("2026-11-30"),
                None,
                Some("FREQ=WEEKLY"),
                TaskStatus::Open,
                &[],
            ),
            (
                "cb308c0b-dcef-4683-93a9-4a6022dbe144",
                "Pay the rent",
                Some("Admin"),
                None,
                Some("2026-11-30"),
                Some("2027-06-30"),
                Some("FREQ=MONTHLY;UNTIL=20270630"),
                TaskStatus::Open,
                &[],
            ),
            (
                "ceae9a1b-8cdc-4c34-9475-da69f1256117",
                "Stretch",
                None,
                None,
                Some("2026-12-01"),
                None,
                Some("FREQ=DAILY;INTERVAL=2"),
                TaskStatus::Open,
                &["Waiting until: 2026-11-30"],
            ),
            (
                "f7c70724-f991-4971-aaea-1e87a8c11492",
                "Quarterly review",
                Some("Work"),
                None,
                Some("2026-12-31"),
                None,
                Some("FREQ=MONTHLY;INTERVAL=3"),
                TaskStatus::Open,
                &[],
            ),
            (
                "5c0e7fba-e049-4fde-addb-4f20b1098d8e",
                "Stand-up notes",
                Some("Work"),
                None,
                Some("2026-11-30"),
                None,
                Some("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"),
                TaskStatus::Open,
                &[],
            ),
            (
                "3cd1ffd6-90aa-4091-ad58-28ffc8ee75f7",
                "Sprint planning",
                Some("Work"),
                None,
                Some("2026-12-03"),
                None,
                Some("FREQ=WEEKLY;INTERVAL=2"),
                TaskStatus::Open,
                &[],
            ),
            (
                "6e53e568-0b8c-4a0a-9a45-3320a69c2eee",
                "Check the smoke alarm",
                None,
                None,
                Some("2027-01-15"),
                None,
                Some("FREQ=YEARLY"),
                TaskStatus::Open,
                &[],
            ),
            // Every 8 hours: no repeat, kept in words.
            (
                "8fe4834f-7372-47e0-a6c6-83146a4b0c0c",
                "Take the pills",
                None,
                None,
                Some("2026-11-29"),
                None,
                None,
                TaskStatus::Open,
                &["Recurrence: 8h"],
            ),
            (
                "0405323d-2cee-4cda-855a-06086af764b7",
                "Read a book",
                None,
                None,
                None,
                None,
                None,
                TaskStatus::Completed,
                &[],
            ),
            // The completed first occurrence of the weekly series.
            (
                "482e4169-4560-47bf-b25a-7e8dc9e28ac7",
                "Water the plants",
                Some("Home"),
                None,
                Some("2026-11-23"),
                None,
                None,
                TaskStatus::Completed,
                &[],
            ),
        ];
        assert_eq!(parsed.tasks.len(), rows.len(), "{:#?}", parsed.tasks);
        for (uuid, title, list, start, deadline, expires, repeat, status, description) in rows {
            let t = task(&parsed, uuid);
            assert_eq!(t.at, *uuid);
            assert_eq!(t.title, *title, "{uuid}");
            assert_eq!(t.list.as_deref(), *list, "{uuid}");
            assert_eq!(t.start_on, start.map(d), "{uuid}");
            assert_eq!(t.deadline_on, deadline.map(d), "{uuid}");
            assert_eq!(t.expires_on, expires.map(d), "{uuid}");
            assert_eq!(t.repeat, repeat.map(Repeat::rule), "{uuid}");
            assert_eq!(t.status, *status, "{uuid}");
            assert_eq!(t.description, *description, "{uuid}");
            assert!(t.created_at.is_some(), "{uuid}");
        }
        let done = task(&parsed, "0405323d-2cee-4cda-855a-06086af764b7");
        assert_eq!(done.created_at, Some(ts("2026-11-29T04:59:30Z")));
        assert_eq!(done.closed_at, Some(ts("2026-11-29T04:59:32Z")));
    }

    #[test]
    fn the_real_export_skips_with_reasons() {
        let parsed = read(EXPORT, &TimeZone::UTC).unwrap();
        // (at, reason contains)
        let rows: &[(&str, &str)] = &[
            (
                "05213add-3b17-47c9-804f-488ceeac3163",
                "deleted in Taskwarrior",
            ),
            (
                "5470ce4b-f20f-4ce7-a8eb-6f911c691de7",
                "the definition of a recurring series: its pending occurrence b40e5d32-5ee6-4dde-b3b3-dbd530944368",
            ),
            (
                "2e9fbd7a-8cdb-4e77-b036-e9c81131817a",
                "definition of a recurring series",
            ),
            (
                "ae089484-4b71-473a-889a-1f99b993657d",
                "definition of a recurring series",
            ),
            (
                "935c2648-8a66-4aad-9aee-004f33540f81",
                "definition of a recurring series",
            ),
            (
                "2a708a46-d169-4239-8c63-cc7d1af6430d",
                "definition of a recurring series",
            ),
            (
                "17b4f02c-d2c7-4260-ab16-6767d2416622",
                "definition of a recurring series",
            ),
            (
                "21616445-1c88-4f68-9405-a93f1ce0ca71",
                "definition of a recurring series",
            ),
            (
                "62717e5b-bcf0-4fc2-8c54-4ae0dae6a28a",
                "definition of a recurring series",
            ),
            (
                "8fe4834f-7372-47e0-a6c6-83146a4b0c0c",
                "its recurrence `8h` has no match in the organiser",
            ),
        ];
        assert_eq!(parsed.skipped.len(), rows.len(), "{:#?}", parsed.skipped);
        for (at, reason) in rows {
            let reasons = skip_reason(&parsed, at);
            assert!(
                reasons.iter().any(|r| r.contains(reason)),
                "{at}: {reasons:?}"
            );
        }
    }

    #[test]
    fn one_object_a_line_reads_as_the_array_does() {
        let lines = read(EXPORT_LINES, &TimeZone::UTC).unwrap();
        let array = read(EXPORT, &TimeZone::UTC).unwrap();
        assert_eq!(lines, array);
    }

    #[test]
    fn the_lowest_pending_occurrence_is_imported_or_else_the_definition() {
        let file = br#"[
{"uuid":"T","description":"Bins","status":"recurring","recur":"weekly","due":"20240108T000000Z","project":"Home"},
{"uuid":"C2","description":"Bins","status":"pending","parent":"T","imask":2,"recur":"weekly","due":"20240122T000000Z"},
{"uuid":"C1","description":"Bins","status":"pending","parent":"T","imask":1,"recur":"weekly","due":"20240115T000000Z"},
{"uuid":"U","description":"Alone","status":"recurring","recur":"monthly","due":"20240131T000000Z"},
{"uuid":"U0","description":"Alone","status":"completed","parent":"U","imask":0,"recur":"monthly","due":"20240131T000000Z","end":"20240131T100000Z"}
]"#;
        let parsed = read(file, &TimeZone::UTC).unwrap();
        let sources: Vec<_> = parsed.tasks.iter().map(|t| t.source.as_str()).collect();
        assert_eq!(sources, ["C1", "U", "U0"]);
        assert_eq!(parsed.tasks[0].repeat, Some(Repeat::rule("FREQ=WEEKLY")));
        assert_eq!(parsed.tasks[0].deadline_on, Some(d("2024-01-15")));
        assert_eq!(parsed.tasks[1].repeat, Some(Repeat::rule("FREQ=MONTHLY")));
        assert_eq!(parsed.tasks[1].status, TaskStatus::Open);
        assert_eq!(parsed.tasks[2].repeat, None);
        assert_eq!(parsed.tasks[2].status, TaskStatus::Completed);
        let at: Vec<_> = parsed.skipped.iter().map(|s| s.at.as_str()).collect();
        assert_eq!(at, ["T", "C2"]);
        assert!(parsed.skipped[1].reason.contains("a later occurrence"));
    }

    #[test]
    fn recurrence_words_map_to_rules() {
        let cases: &[(&str, Option<&str>)] = &[
            ("daily", Some("FREQ=DAILY")),
            ("day", Some("FREQ=DAILY")),
            ("2d", Some("FREQ=DAILY;INTERVAL=2")),
            ("weekdays", Some("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR")),
            ("weekly", Some("FREQ=WEEKLY")),
            ("3w", Some("FREQ=WEEKLY;INTERVAL=3")),
            ("2 weeks", Some("FREQ=WEEKLY;INTERVAL=2")),
            ("biweekly", Some("FREQ=WEEKLY;INTERVAL=2")),
            ("fortnight", Some("FREQ=WEEKLY;INTERVAL=2")),
            ("monthly", Some("FREQ=MONTHLY")),
            ("2mo", Some("FREQ=MONTHLY;INTERVAL=2")),
            ("6m", Some("FREQ=MONTHLY;INTERVAL=6")),
            ("bimonthly", Some("FREQ=MONTHLY;INTERVAL=2")),
            ("quarterly", Some("FREQ=MONTHLY;INTERVAL=3")),
            ("2q", Some("FREQ=MONTHLY;INTERVAL=6")),
            ("semiannual", Some("FREQ=MONTHLY;INTERVAL=6")),
            ("annual", Some("FREQ=YEARLY")),
            ("yearly", Some("FREQ=YEARLY")),
            ("1y", Some("FREQ=YEARLY")),
            ("biannual", Some("FREQ=YEARLY;INTERVAL=2")),
            ("biyearly", Some("FREQ=YEARLY;INTERVAL=2")),
            ("P2W", Some("FREQ=WEEKLY;INTERVAL=2")),
            ("P1M", Some("FREQ=MONTHLY")),
            ("P1Y", Some("FREQ=YEARLY")),
            ("8h", None),
            ("hourly", None),
            ("30min", None),
            ("P1DT12H", None),
            ("PT1H", None),
            ("0d", None),
            ("sennight", None),
            ("", None),
            ("99999999999d", None),
        ];
        for (recur, want) in cases {
            assert_eq!(rrule(recur).as_deref(), *want, "{recur}");
        }
    }

    #[test]
    fn moments_are_taken_as_their_date_in_the_zone() {
        let cases: &[(&str, Option<&str>)] = &[
            ("20240105T230000Z", Some("2024-01-05")),
            ("20240105T000000Z", Some("2024-01-05")),
            ("2024-01-05T23:30:00Z", Some("2024-01-05")),
            ("1704497400", Some("2024-01-05")),
            ("tomorrow", None),
            ("2024-13-01", None),
        ];
        for (s, want) in cases {
            assert_eq!(
                parse_moment(s).map(|at| local_date(at, &TimeZone::UTC)),
                want.map(d),
                "{s}"
            );
        }
    }

    #[test]
    fn a_date_typed_east_of_utc_is_that_date_in_the_owners_zone() {
        // `task add due:2024-01-06` in Berlin stores local midnight in UTC.
        let berlin = TimeZone::get("Europe/Berlin").unwrap();
        let export = br#"[{"uuid":"a","description":"x","status":"pending","entry":"20240101T000000Z","due":"20240105T230000Z"}]"#;
        let parsed = read(export, &berlin).unwrap();
        assert_eq!(parsed.tasks[0].deadline_on, Some(d("2024-01-06")));
        let parsed = read(export, &TimeZone::UTC).unwrap();
        assert_eq!(parsed.tasks[0].deadline_on, Some(d("2024-01-05")));
    }

    #[test]
    fn refused_files_name_the_line() {
        let cases: &[(&[u8], &str)] = &[
            (b"not json at all", "line 1: not a Taskwarrior export"),
            (
                b"[\n{\"uuid\":\"a\",\"description\":\"x\"},\n{oops}\n]",
                "line 3: not a Taskwarrior export",
            ),
            (
                b"[\n{\"uuid\":\"a\",\"description\":\"x\"},\n42\n]",
                "line 3: not a Taskwarrior task object (a JSON number)",
            ),
            (
                b"[\n{\"name\":\"a\"}\n]",
                "line 2: not a Taskwarrior task object (no uuid",
            ),
            (
                b"{\"uuid\":\"a\",\"description\":\"x\"}\n\n[1]\n",
                "line 3: not a Taskwarrior task object (a JSON array)",
            ),
            (
                b"{\"uuid\":\"a\",\"description\":\"x\"}\n{\"uuid\":\n",
                "line 2: not a Taskwarrior export",
            ),
            (
                b"[{\"uuid\":\"a\",\"description\":\"\xff\"}]",
                "line 1: not UTF-8 text",
            ),
        ];
        for (bytes, want) in cases {
            let err = read(bytes, &TimeZone::UTC).unwrap_err();
            assert!(
                err.0.starts_with(want),
                "{:?}: {}",
                String::from_utf8_lossy(bytes),
                err.0
            );
        }
    }

    #[test]
    fn items_that_cannot_be_read_are_skipped() {
        let file = br#"[
{"description":"No uuid","status":"pending"},
{"uuid":"u2","status":"pending"},
{"uuid":"u3","description":"  ","status":"pending"},
{"uuid":"u4","description":"Odd status","status":"archived"},
{"uuid":"u5","description":"Bad due","status":"pending","due":"someday"},
{"uuid":"u6","description":"Numeric due","status":"pending","due":5},
{"uuid":"u7","description":"Recurring without a date","status":"recurring","recur":"weekly"},
{"uuid":"u8","description":"Fine","annotations":[{"description":"no date"},{"entry":"20240105T230000Z"}],"tags":"a,b"}
]"#;
        let parsed = read(file, &TimeZone::UTC).unwrap();
        let skipped: Vec<_> = parsed
            .skipped
            .iter()
            .map(|s| (s.at.as_str(), s.reason.as_str()))
            .collect();
        assert_eq!(
            skipped,
            [
                ("line 2", "a task without a uuid"),
                ("u2", "a task without a description"),
                ("u3", "a task without a description"),
                ("u4", "its status `archived` is not one Taskwarrior writes"),
                ("u5", "its due `someday` is not a Taskwarrior date"),
                ("u6", "its due is a JSON number, not a Taskwarrior date"),
                (
                    "u7",
                    "a recurrence without a due or scheduled date: imported without a repeat, `Recurrence: weekly` kept in its description"
                ),
            ]
        );
        let sources: Vec<_> = parsed.tasks.iter().map(|t| t.source.as_str()).collect();
        assert_eq!(sources, ["u7", "u8"]);
        assert_eq!(parsed.tasks[0].description, ["Recurrence: weekly"]);
        assert_eq!(parsed.tasks[1].description, ["no date", "Tags: a, b"]);
        assert_eq!(parsed.tasks[1].status, TaskStatus::Open);
    }

    #[test]
    fn an_empty_export_has_nothing() {
        for file in [&b"[\n]\n"[..], b"", b"\n\n"] {
            assert_eq!(read(file, &TimeZone::UTC).unwrap(), Parsed::default());
        }
    }

    #[test]
    fn a_hundred_thousand_tasks_read_quickly() {
        let mut file = String::from("[\n");
        for i in 0..100_000 {
            file.push_str(&format!(
                "{{\"id\":{i},\"description\":\"Task {i}\",\"due\":\"20240105T230000Z\",\
                 \"entry\":\"20240101T080000Z\",\"modified\":\"20240101T080000Z\",\
                 \"project\":\"Home\",\"status\":\"pending\",\"uuid\":\"u-{i}\",\
                 \"tags\":[\"a\",\"b\"],\"urgency\":4.9}},\n"
            ));
        }
        file.pop();
        file.pop();
        file.push_str("\n]\n");
        let started = std::time::Instant::now();
        let parsed = read(file.as_bytes(), &TimeZone::UTC).unwrap();
        let took = started.elapsed();
        assert_eq!(parsed.tasks.len(), 100_000);
        assert!(took.as_secs() < 10, "{took:?}");
    }

    #[test]
    fn no_prefix_of_a_file_panics() {
        for file in [EXPORT, EXPORT_LINES] {
            for end in 0..=file.len() {
                let _ = read(file.get(..end).unwrap(), &TimeZone::UTC);
            }
        }
    }
}
