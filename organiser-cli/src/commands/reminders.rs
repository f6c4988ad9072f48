//! `organiser reminders`, `reminders set ...` and `reminders log`
//! (EXTENSIONS.md §3): the reminder settings (which channels everything
//! goes to, the daily agenda, how many days ahead key dates and
//! deadlines are told) and the notifications log, through the core's
//! typed door (`Reminders`). Times are `HH:MM` in the owner's zone; every
//! rule is the core's: the CLI reads the flags into the API's fields and
//! says the answer. A task's own reminder is `tasks add --remind`.

use std::collections::HashMap;

use clap::{Args, Subcommand};
use organiser_core::reminders::{
    AgendaChange, DaysAhead, DaysAheadChange, Notification, NotificationChannel, NotificationKind,
    NotificationQuery, NotificationStatus, ReminderSettings, ReminderSettingsChange,
};
use organiser_core::{Id, ListParams, Page};

use super::notify::word;
use super::{Global, Session};
use crate::backend::Access;
use crate::door::{Client, Doors};
use crate::error::CliError;
use crate::output;
use crate::refs;

/// How many notifications `organiser reminders` shows under the settings.
const LATEST: usize = 5;

/// `organiser reminders`: the settings and the latest notifications, or
/// one of the subcommands.
#[derive(Debug, Args)]
pub(crate) struct RemindersCommand {
    #[command(subcommand)]
    action: Option<RemindersAction>,
}

#[derive(Debug, Subcommand)]
enum RemindersAction {
    /// Change where reminders go and what is sent: only the flags given
    /// change.
    Set(Set),
    /// The notifications sent, pending, failed or missed, newest first.
    Log(Log),
}

impl RemindersCommand {
    pub(crate) fn run(self, global: &Global) -> Result<(), CliError> {
        let access = match &self.action {
            Some(RemindersAction::Set(_)) => Access::Write,
            _ => Access::Read,
        };
        Session::open(global, access, |s| match self.action {
            None => show(s),
            Some(RemindersAction::Set(c)) => c.run(s),
            Some(RemindersAction::Log(c)) => c.run(s),
        })
    }
}

#[derive(Debug, Args)]
struct Set {
    /// The channels every reminder goes to, with commas (each its row
    /// number, name, short ID or ID); `none` sends nothing.
    #[arg(long, value_name = "CHANNEL,...", value_delimiter = ',')]
    channels: Option<Vec<String>>,
    /// The daily agenda (today's queue, meetings, key dates and
    /// deadlines in one message): HH:MM turns it on at that time, `on` at
    /// its time, `off` stops it.
    #[arg(long, value_name = "HH:MM|on|off")]
    agenda: Option<String>,
    /// How many days before a key date (a birthday, ...) it is told, with
    /// commas (0 is the day itself); `none` tells none.
    #[arg(
        long,
        value_name = "DAYS",
        value_delimiter = ',',
        allow_hyphen_values = true
    )]
    key_dates: Option<Vec<String>>,
    /// When key dates are told, HH:MM.
    #[arg(long, value_name = "HH:MM")]
    key_dates_at: Option<String>,
    /// How many days before a task's or a project's deadline it is told,
    /// with commas (0 is the day itself); `none` tells none.
    #[arg(
        long,
        value_name = "DAYS",
        value_delimiter = ',',
        allow_hyphen_values = true
    )]
    deadlines: Option<Vec<String>>,
    /// When deadlines are told, HH:MM.
    #[arg(long, value_name = "HH:MM")]
    deadlines_at: Option<String>,
}

/// The API's settings fields as `reminders set` sets them, for messages.
const FLAGS: &[(&str, &str)] = &[
    ("channel_ids", "--channels"),
    ("daily_agenda.at", "--agenda"),
    ("daily_agenda.enabled", "--agenda"),
    ("key_dates.days_before", "--key-dates"),
    ("key_dates.at", "--key-dates-at"),
    ("deadlines.days_before", "--deadlines"),
    ("deadlines.at", "--deadlines-at"),
];

impl Set {
    fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        let nothing = self.channels.is_none()
            && self.agenda.is_none()
            && self.key_dates.is_none()
            && self.key_dates_at.is_none()
            && self.deadlines.is_none()
            && self.deadlines_at.is_none();
        if nothing {
            return Err(CliError::usage(
                "nothing to change: give --channels, --agenda, --key-dates, --key-dates-at, --deadlines or --deadlines-at",
            ));
        }
        let channel_ids = match &self.channels {
            Some(names) if is_none(names) => Some(Vec::new()),
            Some(names) => {
                let mut ids = Vec::with_capacity(names.len());
                for name in names.iter().map(|n| n.trim()).filter(|n| !n.is_empty()) {
                    ids.push(s.refs.id::<NotificationChannel>(name)?);
                }
                Some(ids)
            }
            None => None,
        };
        let daily_agenda = self.agenda.as_deref().map(agenda);
        let change = ReminderSettingsChange {
            channel_ids,
            daily_agenda,
            key_dates: days_ahead("--key-dates", self.key_dates, self.key_dates_at)?,
            deadlines: days_ahead("--deadlines", self.deadlines, self.deadlines_at)?,
        };
        let changed = s
            .client
            .reply(|c| c.reminders().change_settings(change))
            .map_err(|e| e.naming(FLAGS))?;
        if s.global.json {
            return output::json(&changed.body);
        }
        output::line("Reminder settings changed")?;
        settings(s, &changed.data)
    }
}

/// Whether a list flag was given `none` (or `-`, or nothing): empty.
fn is_none(values: &[String]) -> bool {
    values
        .iter()
        .all(|v| matches!(v.trim().to_lowercase().as_str(), "none" | "-" | ""))
}

/// `--agenda`: `off`, `on`, or a time that turns it on at that time.
fn agenda(text: &str) -> AgendaChange {
    match text.trim().to_lowercase().as_str() {
        "off" | "none" | "no" => AgendaChange {
            enabled: Some(false),
            at: None,
        },
        "on" | "yes" => AgendaChange {
            enabled: Some(true),
            at: None,
        },
        _ => AgendaChange {
            enabled: Some(true),
            at: Some(text.trim().to_owned()),
        },
    }
}

/// `--key-dates 0,7 --key-dates-at 09:00` (or the deadlines'): the
/// change, none when neither was given; a number that is no whole number
/// is a usage mistake (the API judges the range).
fn days_ahead(
    flag: &str,
    days: Option<Vec<String>>,
    at: Option<String>,
) -> Result<Option<DaysAheadChange>, CliError> {
    let days_before = match days {
        Some(days) if is_none(&days) => Some(Vec::new()),
        Some(days) => {
            let mut read = Vec::with_capacity(days.len());
            for day in days.iter().map(|d| d.trim()).filter(|d| !d.is_empty()) {
                read.push(day.parse::<i64>().map_err(|_| {
                    CliError::usage(format!(
                        "{flag}: {day:?} is not a number of days (such as 0,1,7; none for no reminder)"
                    ))
                })?);
            }
            Some(read)
        }
        None => None,
    };
    if days_before.is_none() && at.is_none() {
        return Ok(None);
    }
    Ok(Some(DaysAheadChange {
        days_before,
        at: at.map(|t| t.trim().to_owned()),
    }))
}

/// `organiser reminders`: the settings, then the latest notifications.
fn show(s: &Session<'_>) -> Result<(), CliError> {
    let reply = s.client.reply(|c| c.reminders().settings())?;
    if s.global.json {
        return output::json(&reply.body);
    }
    settings(s, &reply.data)?;
    let latest = latest(s.client, LATEST)?;
    output::line("")?;
    if latest.items.is_empty() {
        return output::line(format!(
            "No notifications yet (`{}` sends a test message).",
            s.global.command("notify test CHANNEL")
        ));
    }
    output::line("Latest notifications")?;
    log_table(s, &latest.items)?;
    if latest.next_cursor.is_some() {
        output::line(format!(
            "… more with `{}`",
            s.global.command("reminders log --limit 50")
        ))?;
    }
    Ok(())
}

/// The settings as fields: where reminders go, then each kind.
fn settings(s: &Session<'_>, settings: &ReminderSettings) -> Result<(), CliError> {
    let channels = if settings.channel_ids.is_empty() {
        format!(
            "none: nothing is sent until `{}`",
            s.global.command("reminders set --channels NAME,...")
        )
    } else {
        let names = channel_names(s.client)?;
        settings
            .channel_ids
            .iter()
            .map(|id| names.of(*id))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let agenda = if settings.daily_agenda.enabled {
        format!("every day at {}", settings.daily_agenda.at)
    } else {
        format!("off (at {} when on)", settings.daily_agenda.at)
    };
    output::fields(&[
        ("Channels", channels),
        ("Daily agenda", agenda),
        ("Key dates", ahead(&settings.key_dates)),
        ("Deadlines", ahead(&settings.deadlines)),
        ("Tasks", "at each task's --remind time".to_owned()),
    ])
}

/// Days ahead in words: "on the day and 7 days before, at 09:00"; "off".
fn ahead(days: &DaysAhead) -> String {
    if days.days_before.is_empty() {
        return "off".to_owned();
    }
    let on_the_day = days.days_before.contains(&0);
    let before: Vec<String> = days
        .days_before
        .iter()
        .filter(|d| **d > 0)
        .map(u8::to_string)
        .collect();
    let unit = if before == ["1"] { "day" } else { "days" };
    let numbers = match before.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [first @ .., last] => format!("{} and {last}", first.join(", ")),
    };
    let said = match (on_the_day, before.len()) {
        (true, 0) => "on the day".to_owned(),
        (true, 1) => format!("on the day and {numbers} {unit} before"),
        (true, _) => format!("on the day, {numbers} {unit} before"),
        (false, _) => format!("{numbers} {unit} before"),
    };
    format!("{said}, at {}", days.at)
}

#[derive(Debug, Args)]
struct Log {
    /// Most notifications to show (the API's pages are read until there
    /// are this many).
    #[arg(long, default_value_t = 20)]
    limit: usize,
}

impl Log {
    fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        let page = latest(s.client, self.limit.max(1))?;
        if s.global.json {
            return output::json(&page);
        }
        if page.items.is_empty() {
            return output::line("No notifications yet.");
        }
        log_table(s, &page.items)
    }
}

/// The newest `limit` notifications.
fn latest(client: &Client, limit: usize) -> Result<Page<Notification>, CliError> {
    refs::first_pages(limit, |params: ListParams| {
        Ok(client
            .reply(|c| c.reminders().notifications(NotificationQuery { params }))?
            .data)
    })
}

/// The notifications as a table: when each fell due, what it is about,
/// the channel, its status, when it was sent, its tries and its error.
fn log_table(s: &Session<'_>, items: &[Notification]) -> Result<(), CliError> {
    let zone = output::owner_zone(s.client)?;
    let channels = channel_names(s.client)?;
    let mut about = About::new(s.client);
    let mut table = output::table(&[
        "DUE", "KIND", "ABOUT", "CHANNEL", "STATUS", "SENT", "TRIES", "ERROR",
    ]);
    for n in items {
        let status = word(&n.status);
        table.add_row(vec![
            output::cell(output::moment(n.due_at, &zone)),
            output::cell(word(&n.kind)),
            output::cell(about.of(n)),
            output::cell(channels.of(n.channel_id)),
            if matches!(
                n.status,
                NotificationStatus::Failed | NotificationStatus::Missed
            ) {
                output::red(status)
            } else {
                output::cell(status)
            },
            output::cell(
                n.sent_at
                    .map_or_else(|| "-".to_owned(), |at| output::moment(at, &zone)),
            ),
            output::cell(n.attempts),
            output::red(n.error.as_deref().unwrap_or_default()),
        ]);
    }
    output::print_table(&table)
}

/// The channels' names by ID (a deleted one by its short ID).
struct ChannelNames(HashMap<Id, String>);

impl ChannelNames {
    fn of(&self, id: Id) -> String {
        self.0
            .get(&id)
            .cloned()
            .unwrap_or_else(|| output::short_id(id))
    }
}

fn channel_names(client: &Client) -> Result<ChannelNames, CliError> {
    let channels = client.reply(|c| c.reminders().channels())?.data;
    Ok(ChannelNames(
        channels.into_iter().map(|c| (c.id, c.name)).collect(),
    ))
}

/// What a notification is about, read once per subject: a task's title
/// (a task's reminder or deadline), a project's name (its deadline), the
/// short ID of anything else or of what is gone; `-` for none.
struct About<'c> {
    client: &'c Client,
    known: HashMap<Id, String>,
}

impl<'c> About<'c> {
    fn new(client: &'c Client) -> Self {
        About {
            client,
            known: HashMap::new(),
        }
    }

    fn of(&mut self, n: &Notification) -> String {
        let Some(id) = n.subject_id else {
            return "-".to_owned();
        };
        if let Some(said) = self.known.get(&id) {
            return said.clone();
        }
        let client = self.client;
        let task = || {
            client
                .reply(|c| c.tasks().get(id))
                .ok()
                .map(|t| t.data.title)
        };
        let project = || {
            client
                .reply(|c| c.projects().get(id))
                .ok()
                .map(|p| p.data.name)
        };
        let said = match n.kind {
            NotificationKind::Task => task(),
            NotificationKind::Deadline => task().or_else(project),
            _ => None,
        }
        .unwrap_or_else(|| output::short_id(id));
        self.known.insert(id, said.clone());
        said
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_ahead_are_said_in_words() {
        let days = |d: &[u8]| DaysAhead {
            days_before: d.to_vec(),
            at: "09:00".to_owned(),
        };
        for (d, said) in [
            (&[][..], "off"),
            (&[0][..], "on the day, at 09:00"),
            (&[1][..], "1 day before, at 09:00"),
            (&[0, 7][..], "on the day and 7 days before, at 09:00"),
            (&[0, 1, 7][..], "on the day, 1 and 7 days before, at 09:00"),
            (&[3, 7, 14][..], "3, 7 and 14 days before, at 09:00"),
        ] {
            assert_eq!(ahead(&days(d)), said, "{d:?}");
        }
    }

    #[test]
    fn flags_become_the_api_s_changes() {
        assert_eq!(agenda("off").enabled, Some(false));
        assert_eq!(agenda("ON").at, None);
        let at = agenda(" 07:30 ");
        assert_eq!((at.enabled, at.at.as_deref()), (Some(true), Some("07:30")));
        let none = days_ahead("--key-dates", Some(vec!["none".into()]), None).unwrap();
        assert_eq!(none.unwrap().days_before, Some(vec![]));
        let some = days_ahead("--deadlines", Some(vec!["0".into(), " 3".into()]), None);
        assert_eq!(some.unwrap().unwrap().days_before, Some(vec![0, 3]));
        assert!(days_ahead("--deadlines", None, None).unwrap().is_none());
        let bad = days_ahead("--deadlines", Some(vec!["soon".into()]), None).unwrap_err();
        assert!(
            bad.to_string().starts_with("--deadlines: \"soon\""),
            "{bad}"
        );
    }
}
