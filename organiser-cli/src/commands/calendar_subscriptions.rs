//! `organiser calendar subscribe`, `calendar subscriptions`, `calendar
//! subscriptions rotate SUB` and `calendar subscriptions rm SUB`
//! (EXTENSIONS.md §2): the owner's organiser as a calendar a phone or a
//! desktop program subscribes to at a secret address, through the core's
//! typed door (`CalendarSubscriptions`). The address is printed once, as
//! the API shows it once (in the answers of create and rotation), with a
//! QR code of it when standard output is a terminal; a listing never
//! shows one. Every rule is the core's: the CLI reads the flags into the
//! API's fields and says the answer.
//!
//! Through a server the API's `url` is absolute already (the server's
//! address as the CLI reached it, or its `ORGANISER_PUBLIC_URL`). In
//! process there is no server to ask, and the core answers the address
//! below the server's root (`/ics/<secret>.ics`): the CLI puts before it
//! `ORGANISER_PUBLIC_URL` from its own environment when set (the
//! server's setting, read as the server reads it), else the address
//! `organiser serve` listens on by default.

use std::io::{IsTerminal, Write};

use clap::builder::{PossibleValue, PossibleValuesParser};
use clap::{Args, Subcommand};
use organiser_core::calendar_subscriptions::{
    CalendarSubscription, CalendarSubscriptionInput, Include,
};
use organiser_core::{Field, Id, Page, projects::Project, task_lists::TaskList};
use qrcode::QrCode;
use qrcode::render::unicode::Dense1x2;
use serde::Serialize;
use serde_json::Value;

use super::{Global, Session};
use crate::backend::Access;
use crate::door::{Client, Doors};
use crate::error::CliError;
use crate::output::{self, Data};
use crate::refs::{self, Family};

/// `calendar subscribe` and `calendar subscriptions`.
#[derive(Debug, Subcommand)]
pub(crate) enum CalendarAction {
    /// Subscribe to this organiser from a phone's or a computer's calendar:
    /// prints the secret address once (and a QR code of it on a terminal).
    Subscribe(Subscribe),
    /// The calendar subscriptions (never their addresses); rotate, rm.
    Subscriptions(SubscriptionsCommand),
}

impl CalendarAction {
    pub(crate) fn run(self, global: &Global) -> Result<(), CliError> {
        let access = match &self {
            CalendarAction::Subscriptions(SubscriptionsCommand { action: None }) => Access::Read,
            _ => Access::Write,
        };
        Session::open(global, access, |s| match self {
            CalendarAction::Subscribe(c) => c.run(s),
            CalendarAction::Subscriptions(c) => match c.action {
                None => list(s),
                Some(SubscriptionsAction::Rotate(c)) => c.run(s),
                Some(SubscriptionsAction::Rm(c)) => c.run(s),
            },
        })
    }
}

#[derive(Debug, Args)]
pub(crate) struct Subscribe {
    /// The calendar's name in the calendar program (default: Organiser).
    #[arg(long)]
    name: Option<String>,
    /// What the calendar holds: tasks (open ones with a deadline),
    /// projects (their starts and deadlines), key_dates (birthdays and
    /// the other key dates); several with commas or again (default: all
    /// three).
    #[arg(long, value_name = "WHAT", value_delimiter = ',', value_parser = include_parser())]
    include: Vec<String>,
    /// Only the tasks of this list (its row number, name, short ID or ID);
    /// again for more.
    #[arg(long, value_name = "LIST")]
    list: Vec<String>,
    /// Only this project's tasks and dates (its row number, name, short
    /// ID or ID); again for more.
    #[arg(long, value_name = "PROJECT")]
    project: Vec<String>,
    /// An alert this long before each item: 15m, 2h, 1d, 0 (at its
    /// start); at most a week.
    #[arg(long, value_name = "BEFORE", value_parser = alarm_minutes)]
    alarm: Option<i64>,
}

impl Subscribe {
    fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        // Checked before the address is made: it is shown only once.
        let base = Base::of(s.client)?;
        let mut lists = Vec::with_capacity(self.list.len());
        for list in &self.list {
            lists.push(s.refs.id::<TaskList>(list)?);
        }
        let mut projects = Vec::with_capacity(self.project.len());
        for project in &self.project {
            projects.push(s.refs.id::<Project>(project)?);
        }
        let include: Vec<Include> = self
            .include
            .iter()
            .filter_map(|w| Include::parse(w))
            .collect();
        let input = CalendarSubscriptionInput {
            name: self.name.map_or(Field::Absent, Field::Value),
            include: sent(include),
            task_list_ids: sent(lists),
            project_ids: sent(projects),
            alarm_minutes: self.alarm.map_or(Field::Absent, Field::Value),
        };
        let made = s
            .client
            .reply(|c| c.calendar_subscriptions().create(input))
            .map_err(|e| e.naming(FLAGS))?;
        shown_once(s, made.data, made.body, &base, false)
    }
}

/// The values a repeatable flag was given, or absent when it was not
/// given (the API's default).
fn sent<T>(values: Vec<T>) -> Field<Vec<T>> {
    if values.is_empty() {
        Field::Absent
    } else {
        Field::Value(values)
    }
}

#[derive(Debug, Args)]
pub(crate) struct SubscriptionsCommand {
    #[command(subcommand)]
    action: Option<SubscriptionsAction>,
}

#[derive(Debug, Subcommand)]
enum SubscriptionsAction {
    /// A new address for a subscription (printed once); the old one stops
    /// at once.
    Rotate(Rotate),
    /// Delete a subscription, for good: its address stops at once.
    Rm(Rm),
}

#[derive(Debug, Args)]
struct Rotate {
    /// The subscription: its row number, name, short ID or ID.
    subscription: String,
}

impl Rotate {
    fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        let base = Base::of(s.client)?;
        let id = s.refs.id::<CalendarSubscription>(&self.subscription)?;
        let rotated = s
            .client
            .reply(|c| c.calendar_subscriptions().rotate(id))
            .map_err(refs::gone::<CalendarSubscription>(id))?;
        shown_once(s, rotated.data, rotated.body, &base, true)
    }
}

#[derive(Debug, Args)]
struct Rm {
    /// The subscription: its row number, name, short ID or ID.
    subscription: String,
}

/// What `--json` says: `{data: {deleted: ID}}` (the API answers a delete
/// with no body).
#[derive(Serialize)]
struct Deleted {
    deleted: Id,
}

impl Rm {
    fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        let sub = s.refs.record::<CalendarSubscription>(&self.subscription)?;
        let id = sub.id;
        s.client
            .reply(|c| c.calendar_subscriptions().delete(id))
            .map_err(refs::gone::<CalendarSubscription>(id))?;
        s.global.said(
            &Data {
                data: Deleted { deleted: id },
            },
            format!(
                "Deleted calendar subscription {} ({}): its address stops now (this cannot be undone)",
                sub.name,
                output::short_id(id)
            ),
        )
    }
}

/// `organiser calendar subscriptions`: every subscription, oldest first,
/// without its address.
fn list(s: &Session<'_>) -> Result<(), CliError> {
    let reply = s.client.reply(|c| c.calendar_subscriptions().list())?;
    let subs = reply.data;
    s.refs.listed(&subs);
    if s.global.json {
        return output::json(&reply.body);
    }
    let count = subs.len();
    output::line(format!(
        "Calendar subscriptions · {count} {}",
        if count == 1 {
            "subscription"
        } else {
            "subscriptions"
        }
    ))?;
    if subs.is_empty() {
        return output::line(format!(
            "None yet: make one with `{}`.",
            s.global.command("calendar subscribe")
        ));
    }
    let names = Names::of(s.client, &subs)?;
    let zone = output::owner_zone(s.client)?;
    let mut table = output::table(&[
        "#",
        "ID",
        "NAME",
        "INCLUDE",
        "LIMITS",
        "ALARM",
        "LAST READ",
        "CREATED",
    ]);
    for (row, sub) in subs.iter().enumerate() {
        let include: Vec<&str> = sub.include.iter().map(|w| w.as_str()).collect();
        table.add_row(vec![
            output::cell(row + 1),
            output::cell(output::short_id(sub.id)),
            output::cell(&sub.name),
            output::cell(include.join(", ")),
            output::cell(names.limits(sub)),
            output::cell(sub.alarm_minutes.map_or_else(|| "-".to_owned(), alarm_said)),
            output::cell(
                sub.last_read_at
                    .map_or_else(|| "never".to_owned(), |t| output::moment(t, &zone)),
            ),
            output::cell(output::moment(sub.created_at, &zone)),
        ]);
    }
    output::print_table(&table)
}

/// The lists' and projects' names, read only when a subscription is
/// limited to some.
struct Names {
    lists: Vec<(Id, String)>,
    projects: Vec<(Id, String)>,
}

impl Names {
    fn of(client: &Client, subs: &[CalendarSubscription]) -> Result<Names, CliError> {
        let lists = if subs.iter().any(|s| s.task_list_ids.is_some()) {
            refs::every::<TaskList>(client)?
                .into_iter()
                .map(|l| (l.id, l.name))
                .collect()
        } else {
            Vec::new()
        };
        let projects = if subs.iter().any(|s| s.project_ids.is_some()) {
            refs::every::<Project>(client)?
                .into_iter()
                .map(|p| (p.id, p.name))
                .collect()
        } else {
            Vec::new()
        };
        Ok(Names { lists, projects })
    }

    /// "list Work, project Website", or "-" for no limit; a record no
    /// longer there by its short ID.
    fn limits(&self, sub: &CalendarSubscription) -> String {
        let name = |known: &[(Id, String)], id: Id| {
            known
                .iter()
                .find(|(k, _)| *k == id)
                .map_or_else(|| output::short_id(id), |(_, n)| n.clone())
        };
        let mut said = Vec::new();
        for id in sub.task_list_ids.iter().flatten() {
            said.push(format!("list {}", name(&self.lists, *id)));
        }
        for id in sub.project_ids.iter().flatten() {
            said.push(format!("project {}", name(&self.projects, *id)));
        }
        if said.is_empty() {
            "-".to_owned()
        } else {
            said.join(", ")
        }
    }
}

/// Where an address below the server's root (`/ics/<secret>.ics`, as the
/// core answers in process) is put.
pub(crate) struct Base {
    /// The server's address, without a trailing slash.
    pub(crate) url: String,
    /// Whether it is `organiser serve`'s default, not one the environment
    /// named.
    assumed: bool,
}

impl Base {
    /// `ORGANISER_PUBLIC_URL` (checked as the server checks it), else
    /// `organiser serve`'s default address. Through a server the API's
    /// address is absolute already and this is not used.
    pub(crate) fn of(client: &Client) -> Result<Base, CliError> {
        let public = std::env::var("ORGANISER_PUBLIC_URL")
            .ok()
            .filter(|v| !v.trim().is_empty());
        match public {
            Some(value) if client.is_local() => Ok(Base {
                url: organiser_server::parse_public_url(&value).map_err(CliError::msg)?,
                assumed: false,
            }),
            _ => Ok(Base {
                url: format!("http://{}", super::serve::DEFAULT_LISTEN),
                assumed: true,
            }),
        }
    }
}

/// Prints the address of a subscription made or rotated (the one time
/// the API shows it): alone on standard output; on a terminal, with a QR
/// code of it and what to do with it; with `--json`, the API's body (its
/// `url` absolute).
fn shown_once(
    s: &Session<'_>,
    sub: CalendarSubscription,
    mut body: Value,
    base: &Base,
    rotated: bool,
) -> Result<(), CliError> {
    let Some(url) = sub.url.as_deref() else {
        return Err(CliError::msg("the API answered without the address"));
    };
    let made_here = url.starts_with('/');
    let url = if made_here {
        format!("{}{url}", base.url)
    } else {
        url.to_owned()
    };
    if s.global.json {
        body["data"]["url"] = Value::String(url);
        return output::json(&body);
    }
    if made_here && base.assumed && std::io::stderr().is_terminal() {
        eprintln!(
            "No server holds this store: the address assumes `organiser serve` on {}; set ORGANISER_PUBLIC_URL to the address your phone reaches the server at.",
            base.url
        );
    }
    output::line(&url)?;
    if !std::io::stdout().is_terminal() {
        return Ok(());
    }
    if let Some(code) = qr(&url) {
        let mut out = std::io::stdout().lock();
        writeln!(out)?;
        writeln!(out, "{code}")?;
        writeln!(out)?;
    }
    let old = if rotated {
        "; the old address has stopped"
    } else {
        ""
    };
    output::line(format!(
        "{} ({}): this address is shown only now{old}. Anyone who has it can read this calendar; `{}` gives a new one.",
        sub.name,
        output::short_id(sub.id),
        s.global.command(&format!(
            "calendar subscriptions rotate {}",
            output::short_id(sub.id)
        ))
    ))
}

/// A QR code of `url` in Unicode half blocks, two rows a line, with its
/// quiet zone: black on white when colour is on (any terminal's
/// background); without colour, in the terminal's own colours, the light
/// modules drawn, as for a dark background.
fn qr(url: &str) -> Option<String> {
    let code = QrCode::new(url.as_bytes()).ok()?;
    let colour = output::colour();
    let (dark, light) = if colour {
        (Dense1x2::Dark, Dense1x2::Light)
    } else {
        (Dense1x2::Light, Dense1x2::Dark)
    };
    let image = code
        .render::<Dense1x2>()
        .dark_color(dark)
        .light_color(light)
        .quiet_zone(true)
        .build();
    Some(if colour {
        image
            .lines()
            .map(|line| format!("\x1b[30;107m{line}\x1b[0m"))
            .collect::<Vec<_>>()
            .join("\n")
    } else {
        image
    })
}

/// `--include`: the words of the core's `Include`, which clap checks (and
/// the shells complete).
fn include_parser() -> PossibleValuesParser {
    PossibleValuesParser::new(Include::ALL.iter().map(|w| PossibleValue::new(w.as_str())))
}

/// `--alarm`: a span before each item, in whole minutes: `15m`, `2h`,
/// `1d`, `1w`, `90` (minutes), `0`, a space or the unit's word allowed
/// (`2 hours`). How many minutes an alarm may be is the API's to judge.
fn alarm_minutes(text: &str) -> Result<i64, String> {
    let bad = || {
        format!(
            "{text:?} is not a span before each item: a number of minutes, hours or days, such as 15m, 2h, 1d or 0"
        )
    };
    let trimmed = text.trim().to_lowercase();
    let digits = trimmed.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return Err(bad());
    }
    let (number, unit) = trimmed.split_at(digits);
    let number: i64 = number.parse().map_err(|_| bad())?;
    let per = match unit.trim() {
        "" | "m" | "min" | "mins" | "minute" | "minutes" => 1,
        "h" | "hr" | "hrs" | "hour" | "hours" => 60,
        "d" | "day" | "days" => 1440,
        "w" | "week" | "weeks" => 10_080,
        _ => return Err(bad()),
    };
    Ok(number.saturating_mul(per))
}

/// An alarm as `--alarm` takes it: "15m before", "2h before", "1d
/// before"; "at start" for 0.
fn alarm_said(minutes: u16) -> String {
    let span = match minutes {
        0 => return "at start".to_owned(),
        m if m % 1440 == 0 => format!("{}d", m / 1440),
        m if m % 60 == 0 => format!("{}h", m / 60),
        m => format!("{m}m"),
    };
    format!("{span} before")
}

/// The API's fields as `calendar subscribe` sets them, for messages.
const FLAGS: &[(&str, &str)] = &[
    ("name", "--name"),
    ("include", "--include"),
    ("task_list_ids", "--list"),
    ("project_ids", "--project"),
    ("alarm_minutes", "--alarm (in minutes)"),
];

/// Subscriptions are named by row number (of the last `calendar
/// subscriptions`), name (ignoring case), ID or part of an ID.
impl Family for CalendarSubscription {
    const ONE: &'static str = "calendar subscription";
    const MANY: &'static str = "calendar subscriptions";
    const NAMED: bool = true;

    fn id(&self) -> Id {
        self.id
    }

    fn name(&self) -> &str {
        &self.name
    }

    /// Every one at once: the API's list is not paginated.
    fn page(client: &Client, _cursor: Option<String>) -> Result<Page<Self>, CliError> {
        Ok(Page::whole(
            client.reply(|c| c.calendar_subscriptions().list())?.data,
        ))
    }

    fn get(client: &Client, id: Id) -> Result<Self, CliError> {
        Ok(client
            .reply(|c| c.calendar_subscriptions().get(id))
            .map_err(refs::gone::<CalendarSubscription>(id))?
            .data)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alarms_are_read_in_minutes_and_said_as_typed() {
        for (text, minutes) in [
            ("0", 0),
            ("15m", 15),
            ("15 min", 15),
            ("90", 90),
            ("2h", 120),
            ("2 Hours", 120),
            ("1d", 1440),
            ("7d", 10_080),
            ("1w", 10_080),
            ("8d", 11_520),
        ] {
            assert_eq!(alarm_minutes(text), Ok(minutes), "{text}");
        }
        for bad in ["", "m", "soon", "-5m", "1.5h", "15x", "h15"] {
            assert!(alarm_minutes(bad).is_err(), "{bad}");
        }
        assert_eq!(alarm_said(0), "at start");
        assert_eq!(alarm_said(15), "15m before");
        assert_eq!(alarm_said(120), "2h before");
        assert_eq!(alarm_said(90), "90m before");
        assert_eq!(alarm_said(2880), "2d before");
    }

    #[test]
    fn the_qr_code_holds_the_address_in_half_blocks() {
        let code = qr("http://127.0.0.1:7420/ics/abc.ics").expect("a code");
        assert!(code.contains('█') || code.contains('▀') || code.contains('▄'));
        assert!(code.lines().count() > 10);
    }
}
