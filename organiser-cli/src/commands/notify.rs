//! `organiser notify`, `notify add NAME (--ntfy URL | --webhook URL |
//! --email TO --smtp HOST[:PORT])`, `notify test CHANNEL`, `notify rm
//! CHANNEL` and `notify on|off CHANNEL` (EXTENSIONS.md §3): where
//! reminders go, through the core's typed door (`Reminders`). A channel's
//! secret (an ntfy access token, a webhook's signing key, an SMTP
//! password) is written only: the API says whether one is stored, and
//! nothing here ever prints it; it can be read from standard input (`-`,
//! `--password-stdin`) or an environment variable (`--password-env`)
//! rather than given on the command line, where other users of the
//! machine may see it. Every rule is the core's: the CLI reads the flags
//! into the API's fields and says the answer.

use std::io::{IsTerminal, Read};

use clap::{ArgGroup, Args, Subcommand, ValueEnum};
use organiser_core::reminders::{
    ChannelKind, EmailInput, EmailSettings, NotificationChannel, NotificationChannelInput,
};
use organiser_core::{Field, Id, Page};
use serde::Serialize;

use super::{Global, Session};
use crate::backend::Access;
use crate::door::{Client, Doors};
use crate::error::CliError;
use crate::output::{self, Data};
use crate::refs::{self, Family};

/// `organiser notify`: the channels, or one of the subcommands.
#[derive(Debug, Args)]
pub(crate) struct NotifyCommand {
    #[command(subcommand)]
    action: Option<NotifyAction>,
}

#[derive(Debug, Subcommand)]
enum NotifyAction {
    /// Add a channel: an ntfy topic (--ntfy), a webhook (--webhook) or an
    /// e-mail address (--email with --smtp).
    Add(Box<Add>),
    /// Send a test message to a channel now (exit 1, with the reason,
    /// when it does not arrive).
    Test(Named),
    /// Delete a channel, for good.
    Rm(Named),
    /// Send reminders to a channel again.
    On(Named),
    /// Stop sending reminders to a channel (it is kept).
    Off(Named),
}

impl NotifyCommand {
    pub(crate) fn run(self, global: &Global) -> Result<(), CliError> {
        let access = if self.action.is_none() {
            Access::Read
        } else {
            Access::Write
        };
        Session::open(global, access, |s| match self.action {
            None => list(s),
            Some(NotifyAction::Add(c)) => (*c).run(s),
            Some(NotifyAction::Test(c)) => c.test(s),
            Some(NotifyAction::Rm(c)) => c.rm(s),
            Some(NotifyAction::On(c)) => c.switch(s, true),
            Some(NotifyAction::Off(c)) => c.switch(s, false),
        })
    }
}

/// How an SMTP connection is secured, as `--security` takes it.
#[derive(Debug, Clone, Copy, ValueEnum)]
enum SecurityArg {
    /// Plain, then upgraded with STARTTLS (port 587 by default).
    Starttls,
    /// TLS from the first byte (port 465 by default).
    Tls,
    /// No encryption: a relay on this machine (port 25 by default).
    None,
}

impl SecurityArg {
    fn as_str(self) -> &'static str {
        match self {
            SecurityArg::Starttls => "starttls",
            SecurityArg::Tls => "tls",
            SecurityArg::None => "none",
        }
    }
}

#[derive(Debug, Args)]
#[command(group(ArgGroup::new("kind").required(true).args(["ntfy", "webhook", "email"])))]
struct Add {
    /// The channel's name: every word, no quotes needed.
    #[arg(required = true, num_args = 1..)]
    name: Vec<String>,
    /// An ntfy topic's address (https://ntfy.sh/my-topic, or your own
    /// ntfy server's).
    #[arg(long, value_name = "URL")]
    ntfy: Option<String>,
    /// The ntfy access token, for a protected topic (`-` reads it from
    /// standard input).
    #[arg(
        long,
        value_name = "TOKEN",
        conflicts_with_all = ["webhook", "email"],
        allow_hyphen_values = true
    )]
    token: Option<String>,
    /// An address reminders are POSTed to as JSON.
    #[arg(long, value_name = "URL")]
    webhook: Option<String>,
    /// The key each webhook body is signed with
    /// (X-Organiser-Signature: sha256=HMAC); `-` reads it from standard
    /// input.
    #[arg(
        long,
        value_name = "KEY",
        conflicts_with_all = ["ntfy", "email"],
        allow_hyphen_values = true
    )]
    signing_key: Option<String>,
    /// The e-mail address reminders are sent to (several with commas).
    #[arg(long, value_name = "TO", requires = "smtp")]
    email: Option<String>,
    /// The SMTP server, HOST or HOST:PORT (the port by default: 587 for
    /// starttls, 465 for tls, 25 for none).
    #[arg(long, value_name = "HOST[:PORT]", conflicts_with_all = ["ntfy", "webhook"])]
    smtp: Option<String>,
    /// How the SMTP connection is secured [default: starttls].
    #[arg(long, value_enum, conflicts_with_all = ["ntfy", "webhook"])]
    security: Option<SecurityArg>,
    /// The sender (default: the first address of --email).
    #[arg(long, value_name = "ADDRESS", conflicts_with_all = ["ntfy", "webhook"])]
    from: Option<String>,
    /// The user name to log in to the SMTP server with (default: send
    /// without logging in).
    #[arg(long, value_name = "USER", conflicts_with_all = ["ntfy", "webhook"])]
    user: Option<String>,
    /// Read the SMTP password from standard input (asked for without echo
    /// on a terminal).
    #[arg(long, conflicts_with_all = ["ntfy", "webhook", "password_env"])]
    password_stdin: bool,
    /// Read the SMTP password from this environment variable.
    #[arg(long, value_name = "VAR", conflicts_with_all = ["ntfy", "webhook"])]
    password_env: Option<String>,
}

impl Add {
    fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        let name = self.name.join(" ");
        let (kind, flags) = if self.ntfy.is_some() {
            (ChannelKind::Ntfy, NTFY_FLAGS)
        } else if self.webhook.is_some() {
            (ChannelKind::Webhook, WEBHOOK_FLAGS)
        } else if self.from.is_some() {
            (ChannelKind::Email, EMAIL_FLAGS)
        } else {
            (ChannelKind::Email, EMAIL_DEFAULT_FROM_FLAGS)
        };
        let secret = match kind {
            ChannelKind::Ntfy => dash_reads("--token", self.token, "Access token: ")?,
            ChannelKind::Webhook => dash_reads("--signing-key", self.signing_key, "Signing key: ")?,
            ChannelKind::Email => password(self.password_stdin, self.password_env.as_deref())?,
        };
        let email = match (&self.email, &self.smtp) {
            (Some(to), Some(smtp)) => {
                let (host, port) = host_and_port(smtp);
                Field::Value(EmailInput {
                    smtp_host: Some(host),
                    smtp_port: port,
                    security: self.security.map(|sec| sec.as_str().to_owned()),
                    username: self.user.map_or(Field::Absent, Field::Value),
                    from: Some(self.from.unwrap_or_else(|| first_address(to))),
                    to: Some(to.clone()),
                })
            }
            _ => Field::Absent,
        };
        let input = NotificationChannelInput {
            name: Field::Value(name),
            kind: Field::Value(kind.as_str().to_owned()),
            url: self
                .ntfy
                .or(self.webhook)
                .map_or(Field::Absent, Field::Value),
            email,
            secret: secret.map_or(Field::Absent, Field::Value),
            enabled: None,
        };
        let made = s
            .client
            .reply(|c| c.reminders().create_channel(input))
            .map_err(|e| e.naming(flags))?;
        let channel = &made.data;
        let secret = match (channel.secret_set, channel.kind) {
            (false, _) => "",
            (true, ChannelKind::Ntfy) => ", token stored",
            (true, ChannelKind::Webhook) => ", signing key stored",
            (true, ChannelKind::Email) => ", password stored",
        };
        if s.global.json {
            return output::json(&made.body);
        }
        output::line(format!(
            "Added {} channel {} ({}): {}{secret}",
            channel.kind.as_str(),
            channel.name,
            output::short_id(channel.id),
            destination(channel),
        ))?;
        output::line(format!(
            "`{}` sends it a test message; reminders go to it once `{}` names it",
            s.global
                .command(&format!("notify test {}", called(channel))),
            s.global.command(&format!(
                "reminders set --channels {}",
                super::shell_quote(&with_the_others(s.client, channel)?)
            ))
        ))
    }
}

/// How a hint names a channel: its name, or its short ID when the name
/// would be read as something else (it holds a comma, which separates
/// `--channels`, or is all digits, a row number).
fn reference(channel: &NotificationChannel) -> String {
    if channel.name.contains(',') || channel.name.bytes().all(|b| b.is_ascii_digit()) {
        output::short_id(channel.id)
    } else {
        channel.name.clone()
    }
}

/// [`reference`] as one word for the shell.
fn called(channel: &NotificationChannel) -> String {
    super::shell_quote(&reference(channel))
}

/// `--channels` naming the channels reminders go to now and `channel`.
fn with_the_others(client: &Client, channel: &NotificationChannel) -> Result<String, CliError> {
    let settings = client.reply(|c| c.reminders().settings())?.data;
    let channels = client.reply(|c| c.reminders().channels())?.data;
    let names: Vec<String> = settings
        .channel_ids
        .iter()
        .filter_map(|id| channels.iter().find(|c| c.id == *id))
        .filter(|c| c.id != channel.id)
        .chain([channel])
        .map(reference)
        .collect();
    Ok(names.join(","))
}

/// A secret given to a flag, `-` read from standard input (asked for
/// without echo on a terminal, with `prompt`).
fn dash_reads(flag: &str, given: Option<String>, prompt: &str) -> Result<Option<String>, CliError> {
    match given.as_deref() {
        Some("-") => read_secret(flag, prompt).map(Some),
        _ => Ok(given),
    }
}

/// The SMTP password: from standard input, from an environment variable,
/// or none.
fn password(stdin: bool, env: Option<&str>) -> Result<Option<String>, CliError> {
    if stdin {
        return read_secret("--password-stdin", "SMTP password: ").map(Some);
    }
    let Some(var) = env else {
        return Ok(None);
    };
    match std::env::var(var) {
        Ok(value) if !value.is_empty() => Ok(Some(value)),
        Ok(_) => Err(CliError::msg(format!(
            "--password-env: the environment variable {var} is empty"
        ))),
        Err(_) => Err(CliError::msg(format!(
            "--password-env: there is no environment variable {var} (or it is not text)"
        ))),
    }
}

/// A secret read from standard input: asked for without echo on a
/// terminal, else its first line.
fn read_secret(flag: &str, prompt: &str) -> Result<String, CliError> {
    let secret = if std::io::stdin().is_terminal() {
        rpassword::prompt_password(prompt)
            .map_err(|e| CliError::msg(format!("{flag}: cannot read from the terminal: {e}")))?
    } else {
        let mut text = String::new();
        std::io::stdin().read_to_string(&mut text)?;
        text.lines().next().unwrap_or_default().to_owned()
    };
    let secret = secret.trim().to_owned();
    if secret.is_empty() {
        return Err(CliError::msg(format!(
            "{flag}: standard input held nothing to read"
        )));
    }
    Ok(secret)
}

/// `--smtp HOST[:PORT]`: the host and, when a port follows its last
/// colon, the port (`[::1]:25` for an IPv6 address). A port that is no
/// number stays in the host, for the API to refuse.
fn host_and_port(text: &str) -> (String, Option<i64>) {
    let text = text.trim();
    let split = match text.strip_prefix('[') {
        Some(rest) => rest
            .split_once("]:")
            .map(|(host, port)| (host.to_owned(), port)),
        None => text
            .rsplit_once(':')
            .filter(|(host, _)| !host.contains(':'))
            .map(|(host, port)| (host.to_owned(), port)),
    };
    match split {
        Some((host, port)) if !port.is_empty() && port.bytes().all(|b| b.is_ascii_digit()) => {
            (host, Some(port.parse().unwrap_or(i64::MAX)))
        }
        _ => (text.to_owned(), None),
    }
}

/// The first address of a list of recipients (the default sender).
fn first_address(to: &str) -> String {
    to.split(',').next().unwrap_or(to).trim().to_owned()
}

/// Where a channel delivers: its address, or "to via host:port (security)".
fn destination(channel: &NotificationChannel) -> String {
    match (&channel.url, &channel.email) {
        (_, Some(email)) => email_said(email),
        (Some(url), None) => url.clone(),
        (None, None) => "-".to_owned(),
    }
}

fn email_said(email: &EmailSettings) -> String {
    format!(
        "{} via {}:{} ({})",
        email.to,
        email.smtp_host,
        email.smtp_port,
        word(&email.security)
    )
}

/// A value of the API's vocabulary as the API writes it (`starttls`,
/// `key_date`).
pub(crate) fn word(value: &impl Serialize) -> String {
    serde_json::to_value(value)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}

#[derive(Debug, Args)]
struct Named {
    /// The channel: its row number, name, short ID or ID.
    channel: String,
}

/// What `notify rm --json` says: `{data: {deleted: ID}}` (the API answers
/// a delete with no body).
#[derive(Serialize)]
struct Deleted {
    deleted: Id,
}

impl Named {
    /// `notify test`: sends a test message now.
    fn test(self, s: &Session<'_>) -> Result<(), CliError> {
        let channel = s.refs.record::<NotificationChannel>(&self.channel)?;
        let spinner = if s.global.json {
            None
        } else {
            output::spinner(&format!("Sending a test message to {}…", channel.name))
        };
        let tested = s.client.reply(|c| c.reminders().test_channel(channel.id));
        if let Some(spinner) = spinner {
            spinner.finish_and_clear();
        }
        let tested = tested.map_err(refs::gone::<NotificationChannel>(channel.id))?;
        s.global.said(
            &tested.body,
            format!(
                "Sent a test message to {} ({}): it arrived",
                tested.data.name,
                destination(&tested.data)
            ),
        )
    }

    /// `notify rm`: deletes the channel for good.
    fn rm(self, s: &Session<'_>) -> Result<(), CliError> {
        let channel = s.refs.record::<NotificationChannel>(&self.channel)?;
        let id = channel.id;
        s.client
            .reply(|c| c.reminders().delete_channel(id))
            .map_err(refs::gone::<NotificationChannel>(id))?;
        s.global.said(
            &Data {
                data: Deleted { deleted: id },
            },
            format!(
                "Deleted notification channel {} ({}): reminders no longer go to it (this cannot be undone)",
                channel.name,
                output::short_id(id)
            ),
        )
    }

    /// `notify on` and `notify off`.
    fn switch(self, s: &Session<'_>, on: bool) -> Result<(), CliError> {
        let channel = s.refs.record::<NotificationChannel>(&self.channel)?;
        let id = channel.id;
        let input = NotificationChannelInput {
            enabled: Some(on),
            ..NotificationChannelInput::default()
        };
        let changed = s
            .client
            .reply(|c| c.reminders().change_channel(id, input))
            .map_err(refs::gone::<NotificationChannel>(id))?;
        let already = if channel.enabled == on {
            "already "
        } else {
            ""
        };
        let said = if on {
            format!("{} is {already}on: reminders go to it", changed.data.name)
        } else {
            format!(
                "{} is {already}off: no reminders go to it until `{}`",
                changed.data.name,
                s.global
                    .command(&format!("notify on {}", called(&changed.data)))
            )
        };
        s.global.said(&changed.body, said)
    }
}

/// `organiser notify`: every channel, oldest first, never a secret.
fn list(s: &Session<'_>) -> Result<(), CliError> {
    let reply = s.client.reply(|c| c.reminders().channels())?;
    let channels = reply.data;
    s.refs.listed(&channels);
    if s.global.json {
        return output::json(&reply.body);
    }
    let failing = channels.iter().filter(|c| c.last_error.is_some()).count();
    let mut title = format!(
        "Notification channels · {} {}",
        channels.len(),
        if channels.len() == 1 {
            "channel"
        } else {
            "channels"
        }
    );
    if failing > 0 {
        title.push_str(&format!(" · {failing} failing"));
    }
    output::line(title)?;
    if channels.is_empty() {
        return output::line(format!(
            "None yet: add one with `{}`.",
            s.global.command("notify add NAME --ntfy URL")
        ));
    }
    let zone = output::owner_zone(s.client)?;
    let mut table = output::table(&[
        "#",
        "ID",
        "NAME",
        "KIND",
        "WHERE",
        "ON",
        "SECRET",
        "LAST SUCCESS",
        "LAST ERROR",
    ]);
    for (row, channel) in channels.iter().enumerate() {
        let succeeded = channel
            .last_succeeded_at
            .map_or_else(|| "never".to_owned(), |at| output::moment(at, &zone));
        let error = match (&channel.last_error, channel.last_failed_at) {
            (Some(reason), Some(at)) => format!("{} · {reason}", output::moment(at, &zone)),
            (Some(reason), None) => reason.clone(),
            (None, _) => String::new(),
        };
        table.add_row(vec![
            output::cell(row + 1),
            output::cell(output::short_id(channel.id)),
            output::cell(&channel.name),
            output::cell(channel.kind.as_str()),
            output::cell(output::shortened(&destination(channel), 60)),
            output::cell(if channel.enabled { "yes" } else { "no" }),
            output::cell(if channel.secret_set { "set" } else { "-" }),
            output::cell(succeeded),
            output::red(error),
        ]);
    }
    output::print_table(&table)
}

/// The API's fields as `notify add --ntfy` sets them, for messages.
const NTFY_FLAGS: &[(&str, &str)] = &[
    ("name", "the name"),
    ("url", "--ntfy"),
    ("secret", "--token"),
];

/// The same for `notify add --webhook`.
const WEBHOOK_FLAGS: &[(&str, &str)] = &[
    ("name", "the name"),
    ("url", "--webhook"),
    ("secret", "--signing-key"),
];

/// The same for `notify add --email`.
const EMAIL_FLAGS: &[(&str, &str)] = &[
    ("name", "the name"),
    ("email.to", "--email"),
    ("email.smtp_host", "--smtp"),
    ("email.smtp_port", "--smtp's port"),
    ("email.security", "--security"),
    ("email.from", "--from"),
    ("email.username", "--user"),
    ("secret", "the password"),
];

/// The same for `notify add --email` without `--from`, whose sender is
/// the first address of `--email`.
const EMAIL_DEFAULT_FROM_FLAGS: &[(&str, &str)] = &[
    ("name", "the name"),
    ("email.to", "--email"),
    ("email.smtp_host", "--smtp"),
    ("email.smtp_port", "--smtp's port"),
    ("email.security", "--security"),
    ("email.from", "the sender (the first address of --email)"),
    ("email.username", "--user"),
    ("secret", "the password"),
];

/// Channels are named by row number (of the last `notify`), name
/// (ignoring case), ID or part of an ID.
impl Family for NotificationChannel {
    const ONE: &'static str = "notification channel";
    const MANY: &'static str = "notification channels";
    const COMMAND: &'static str = "notify";
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
            client.reply(|c| c.reminders().channels())?.data,
        ))
    }

    fn get(client: &Client, id: Id) -> Result<Self, CliError> {
        Ok(client
            .reply(|c| c.reminders().channel(id))
            .map_err(refs::gone::<NotificationChannel>(id))?
            .data)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smtp_servers_are_read_with_their_ports() {
        for (text, host, port) in [
            ("smtp.example.com", "smtp.example.com", None),
            ("smtp.example.com:2525", "smtp.example.com", Some(2525)),
            (" mail.example.org:465 ", "mail.example.org", Some(465)),
            ("127.0.0.1:25", "127.0.0.1", Some(25)),
            ("[::1]:2525", "::1", Some(2525)),
            ("::1", "::1", None),
            ("smtp.example.com:smtp", "smtp.example.com:smtp", None),
            ("smtp.example.com:", "smtp.example.com:", None),
            (
                "smtp.example.com:99999999999999999999",
                "smtp.example.com",
                Some(i64::MAX),
            ),
        ] {
            assert_eq!(host_and_port(text), (host.to_owned(), port), "{text}");
        }
    }

    #[test]
    fn the_sender_defaults_to_the_first_recipient() {
        assert_eq!(first_address("me@example.com"), "me@example.com");
        assert_eq!(
            first_address("Me <me@example.com>, you@example.com"),
            "Me <me@example.com>"
        );
    }
}
