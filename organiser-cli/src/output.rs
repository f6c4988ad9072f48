//! Output: tables for people (comfy-table; colour as `--color`,
//! `CLICOLOR_FORCE` and `NO_COLOR` say; width fitted to a terminal whatever
//! the colour), JSON for scripts.

use std::io::{IsTerminal, Write};
use std::sync::OnceLock;

use comfy_table::{Cell, Color, ContentArrangement, Table, presets};
use serde::Serialize;

use crate::door::Doors;
use crate::error::CliError;
pub(crate) use crate::terminal::{ColorChoice, clean};

static CHOICE: OnceLock<Option<ColorChoice>> = OnceLock::new();

/// Sets the choice of `--color` for this process (once, at start; `None`
/// when the flag was not given).
pub(crate) fn choose_colour(choice: Option<ColorChoice>) {
    let _ = CHOICE.set(choice);
}

/// Whether standard output takes colour: as [`colour_choice`] says, and
/// with `auto`, when it is a terminal.
pub(crate) fn colour() -> bool {
    match colour_choice().0 {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => std::io::stdout().is_terminal(),
    }
}

/// The colour choice in force and where it came from: `--color
/// always|never`; else `CLICOLOR_FORCE` (set and not `0`) turns colour
/// on, `NO_COLOR` (set and not empty) off; else `--color auto`, else the
/// configuration file's `color`, else `auto`.
pub(crate) fn colour_choice() -> (ColorChoice, &'static str) {
    let flag = CHOICE.get().copied().flatten();
    if let Some(choice @ (ColorChoice::Always | ColorChoice::Never)) = flag {
        return (choice, "--color");
    }
    let set = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    if set("CLICOLOR_FORCE").is_some_and(|v| v != "0") {
        return (ColorChoice::Always, "CLICOLOR_FORCE");
    }
    if set("NO_COLOR").is_some() {
        return (ColorChoice::Never, "NO_COLOR");
    }
    match (flag, crate::config::get().color) {
        (Some(choice), _) => (choice, "--color"),
        (None, Some(choice)) => (choice, "the configuration file"),
        (None, None) => (ColorChoice::Auto, "the default"),
    }
}

/// A date as tables print it: by the configuration file's `date_format`
/// (a strftime pattern), else as YYYY-MM-DD.
pub(crate) fn date(day: jiff::civil::Date) -> String {
    match &crate::config::get().date_format {
        Some(pattern) => {
            jiff::fmt::strtime::format(pattern, day).unwrap_or_else(|_| day.to_string())
        }
        None => day.to_string(),
    }
}

/// An instant as every screen prints it: its date (as [`date`] prints
/// dates) and time of day in the owner's zone, `2026-11-27 07:45`.
pub(crate) fn moment(at: jiff::Timestamp, zone: &jiff::tz::TimeZone) -> String {
    let local = at.to_zoned(zone.clone());
    format!("{} {}", date(local.date()), local.strftime("%H:%M"))
}

/// The owner's zone, asked of `client` (UTC when it cannot be read).
pub(crate) fn owner_zone(client: &crate::door::Client) -> Result<jiff::tz::TimeZone, CliError> {
    let me = client.reply(|c| c.account().me())?.data;
    Ok(jiff::tz::TimeZone::get(&me.time_zone_iana).unwrap_or(jiff::tz::TimeZone::UTC))
}

/// A day as headings print it: its weekday, then the date as tables print
/// it ("Mon 2026-03-09"); without the weekday when `date_format` already
/// shows one.
pub(crate) fn day(day: jiff::civil::Date) -> String {
    let pattern = crate::config::get()
        .date_format
        .as_deref()
        .unwrap_or_default();
    if pattern.contains("%a") || pattern.contains("%A") {
        date(day)
    } else {
        format!("{} {}", day.strftime("%a"), date(day))
    }
}

/// Prints a heading line: bold when colour is on, and also cyan when it
/// is `marked` (the current day of an agenda); plain otherwise.
pub(crate) fn heading(text: impl std::fmt::Display, marked: bool) -> Result<(), CliError> {
    let text = text.to_string();
    let text = clean(&text);
    let mut out = std::io::stdout().lock();
    match (colour(), marked) {
        (false, _) => writeln!(out, "{text}")?,
        (true, false) => writeln!(out, "\x1b[1m{text}\x1b[22m")?,
        (true, true) => writeln!(out, "\x1b[1;36m{text}\x1b[22;39m")?,
    }
    Ok(())
}

/// A spinner on standard error saying `message` while a request waits on
/// the network (a calendar feed's fetch), when standard error is a
/// terminal; `None` otherwise (pipes and logs are left clean).
pub(crate) fn spinner(message: &str) -> Option<indicatif::ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let spinner = indicatif::ProgressBar::new_spinner();
    spinner.set_message(message.to_owned());
    spinner.enable_steady_tick(std::time::Duration::from_millis(100));
    Some(spinner)
}

/// Whether a person is at the keyboard: standard input and standard
/// error are terminals (a script's pipes never are).
pub(crate) fn interactive() -> bool {
    std::io::stdin().is_terminal() && std::io::stderr().is_terminal()
}

/// Asks `question` (`[y/N]` added) on standard error and reads the answer
/// from standard input: yes only for `y` or `yes`. Not on a terminal, or
/// with `--yes` (`assumed`), nobody is asked and the answer is yes.
pub(crate) fn confirm(question: &str, assumed: bool) -> Result<bool, CliError> {
    if assumed || !interactive() {
        return Ok(true);
    }
    let mut stderr = std::io::stderr().lock();
    write!(stderr, "{} [y/N] ", clean(question))?;
    stderr.flush()?;
    let mut answer = String::new();
    std::io::stdin().read_line(&mut answer)?;
    Ok(matches!(answer.trim().to_lowercase().as_str(), "y" | "yes"))
}

/// A table in the house style.
pub(crate) fn table(header: &[&str]) -> Table {
    let mut table = Table::new();
    // Fit a terminal's width when it reports a usable one; otherwise (pipes,
    // consoles that say 0 columns) lay the table out at its natural width.
    let arrangement = match table.width() {
        Some(w) if w >= 40 => ContentArrangement::Dynamic,
        _ => ContentArrangement::Disabled,
    };
    table
        .load_style(presets::NOTHING)
        .set_content_arrangement(arrangement);
    // Colour and width are separate decisions: without colour no cell is
    // styled, and a terminal's width is still fitted.
    if colour() {
        table.enforce_styling();
    }
    let bold = colour();
    table.set_header(header.iter().map(|h| {
        let cell = Cell::new(h);
        if bold {
            cell.add_attribute(comfy_table::Attribute::Bold)
        } else {
            cell
        }
    }));
    table
}

/// The longest word a column keeps unbroken when a table is fitted to a
/// terminal (longer ones are cut to fit).
const LONGEST_UNBROKEN: usize = 24;

/// Keeps each of `columns` of `table` whole, never wrapped to fit a
/// terminal: commands to paste, e-mail addresses, hosts (the other
/// columns wrap at their spaces instead).
pub(crate) fn keep_whole(table: &mut Table, columns: &[usize]) {
    for &i in columns {
        if let Some(column) = table.column_mut(i) {
            column.set_constraint(comfy_table::ColumnConstraint::ContentWidth);
        }
    }
}

/// A link (or any text without spaces) longer than `most` characters,
/// shortened in the middle (`https://example.org/a/…/plan.pdf`), so a
/// table need not break it; other text as it is.
pub(crate) fn shortened(text: &str, most: usize) -> String {
    let count = text.chars().count();
    if count <= most || text.contains(char::is_whitespace) || most < 5 {
        return text.to_owned();
    }
    let keep = most - 1;
    let head = keep.div_ceil(2);
    let tail = keep - head;
    let start: String = text.chars().take(head).collect();
    let end: String = text.chars().skip(count - tail).collect();
    format!("{start}…{end}")
}

/// A table cell of `text`, its control characters escaped.
pub(crate) fn cell(text: impl std::fmt::Display) -> Cell {
    Cell::new(clean(&text.to_string()))
}

/// A cell in red when colour is on.
pub(crate) fn red(text: impl ToString) -> Cell {
    let cell = Cell::new(clean(&text.to_string()));
    if colour() { cell.fg(Color::Red) } else { cell }
}

/// Prints a line; a closed pipe stops quietly.
pub(crate) fn line(text: impl std::fmt::Display) -> Result<(), CliError> {
    let mut out = std::io::stdout().lock();
    writeln!(out, "{}", clean(&text.to_string()))?;
    Ok(())
}

/// Prints `value` as pretty JSON.
pub(crate) fn json(value: &impl Serialize) -> Result<(), CliError> {
    line(serde_json::to_string_pretty(value).unwrap_or_default())
}

/// `{data: ...}`, the API's envelope, for what a command says in JSON
/// itself (a deletion, which the API answers with no body).
#[derive(Serialize)]
pub(crate) struct Data<T> {
    pub(crate) data: T,
}

/// Prints a table flush left, columns two spaces apart, trimmed of
/// trailing spaces.
pub(crate) fn print_table(table: &Table) -> Result<(), CliError> {
    let mut table = table.clone();
    // Fitted to a terminal, a column of single words (IDs, numbers,
    // dates, addresses, hosts) is never wrapped; a column of text wraps
    // at its spaces, and is never narrower than its heading or its
    // longest word (up to a limit) while the terminal has room.
    let header: Vec<String> = table
        .header()
        .map(|h| h.cell_iter().map(|c| c.content()).collect())
        .unwrap_or_default();
    let mut single_words: Vec<bool> = vec![true; header.len()];
    let mut widest: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for row in table.row_iter() {
        for (i, cell) in row.cell_iter().enumerate() {
            if widest.len() <= i {
                widest.resize(i + 1, 0);
                single_words.resize(i + 1, true);
            }
            let content = cell.content();
            single_words[i] &= !content.trim().contains(char::is_whitespace);
            let word = content
                .split_whitespace()
                .map(|w| w.chars().count())
                .max()
                .unwrap_or(0)
                .min(LONGEST_UNBROKEN);
            widest[i] = widest[i].max(word);
        }
    }
    for (i, column) in table.column_iter_mut().enumerate() {
        column.set_padding((0, 2));
        if column.constraint().is_some() {
            continue;
        }
        let constraint = match single_words.get(i) {
            Some(true) => comfy_table::ColumnConstraint::ContentWidth,
            _ => comfy_table::ColumnConstraint::LowerBoundary(comfy_table::Width::Fixed(
                u16::try_from(widest.get(i).copied().unwrap_or(0)).unwrap_or(u16::MAX),
            )),
        };
        column.set_constraint(constraint);
    }
    let mut out = std::io::stdout().lock();
    for row in table.lines() {
        writeln!(out, "{}", row.trim_end())?;
    }
    Ok(())
}

/// A two-column table of names and values.
pub(crate) fn fields(rows: &[(&str, String)]) -> Result<(), CliError> {
    let mut t = Table::new();
    t.load_style(presets::NOTHING).force_no_tty();
    for (k, v) in rows {
        t.add_row(vec![cell(k), cell(v)]);
    }
    print_table(&t)
}

/// The last six characters of an ID, as the tables show it.
pub(crate) fn short_id(id: impl std::fmt::Display) -> String {
    let id = id.to_string();
    id[id.len().saturating_sub(6)..].to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_links_are_shortened_in_the_middle() {
        assert_eq!(
            shortened("https://calendar.example.org/private/abc/basic.ics", 30),
            "https://calenda…/abc/basic.ics"
        );
        assert_eq!(shortened("short", 30), "short");
        assert_eq!(
            shortened("two words that are long enough", 10),
            "two words that are long enough"
        );
        assert_eq!(shortened("https://a.b/c", 13).chars().count(), 13);
    }

    /// Records written before the core refused control characters in names
    /// (or by another program) still print escaped.
    #[test]
    fn control_characters_print_escaped() {
        assert_eq!(clean("Clear\u{1b}[2Jme\u{7}"), "Clear\\x1b[2Jme\\x07");
        assert_eq!(clean("C1\u{9b}"), "C1\\u{9b}");
        assert_eq!(clean("two\nlines"), "two\nlines");
        assert!(matches!(clean("plain"), std::borrow::Cow::Borrowed(_)));
    }
}
