//! Notification channels (EXTENSIONS.md §3, "NotificationChannel"): where
//! reminders go (an ntfy topic, a webhook, an e-mail address), each with
//! a secret sealed with the store's key and never shown, and how its last
//! delivery went.

use jiff::Timestamp;
use reqwest::Url;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::tables::CHANNELS;
use crate::engine::kinds::RecordKind;
use crate::engine::{Cx, Inner, WriteCx};
use crate::error::{Details, Error, Result};
use crate::ids::Id;
use crate::input::{Field, record};
use crate::resources::deletions;
use crate::store::{Dir, Tables};
use crate::text::{char_len, fold_case, squished_required};

/// Notification channels: deleted for good at once, with a deletion
/// record (document 1, "Deletions").
pub(crate) static KIND: RecordKind = RecordKind::new("notification_channel", 16);

/// The most characters of a name.
pub(crate) const NAME_MAX: usize = 100;
/// The most characters of an address.
const URL_MAX: usize = 2048;
/// The most characters of a secret.
const SECRET_MAX: usize = 1024;
/// The most characters of a host name or an e-mail address.
const HOST_MAX: usize = 255;
/// The most channels a store keeps.
pub(crate) const MOST: usize = 50;

/// How a channel delivers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChannelKind {
    /// A push notification through an ntfy server's topic.
    Ntfy,
    /// A signed JSON `POST`.
    Webhook,
    /// An e-mail over SMTP.
    Email,
}

impl ChannelKind {
    /// The API's name.
    pub fn as_str(self) -> &'static str {
        match self {
            ChannelKind::Ntfy => "ntfy",
            ChannelKind::Webhook => "webhook",
            ChannelKind::Email => "email",
        }
    }

    fn parse(s: &str) -> Option<ChannelKind> {
        [ChannelKind::Ntfy, ChannelKind::Webhook, ChannelKind::Email]
            .into_iter()
            .find(|k| k.as_str() == s)
    }
}

/// How an SMTP connection is secured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Security {
    /// Plain, then upgraded with `STARTTLS` (required).
    Starttls,
    /// TLS from the first byte (often port 465).
    Tls,
    /// No encryption (a local relay).
    None,
}

impl Security {
    fn parse(s: &str) -> Option<Security> {
        match s {
            "starttls" => Some(Security::Starttls),
            "tls" => Some(Security::Tls),
            "none" => Some(Security::None),
            _ => None,
        }
    }

    /// The usual port.
    fn port(self) -> u16 {
        match self {
            Security::Starttls => 587,
            Security::Tls => 465,
            Security::None => 25,
        }
    }
}

/// An e-mail channel's server and addresses.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EmailSettings {
    /// The SMTP server.
    pub smtp_host: String,
    /// Its port.
    pub smtp_port: u16,
    /// `starttls`, `tls` or `none`.
    pub security: Security,
    /// The user name to log in with; null to send without logging in.
    pub username: Option<String>,
    /// The sender, `name@example.com` or `Name <name@example.com>`.
    pub from: String,
    /// The recipients, separated by commas.
    pub to: String,
}

/// A notification channel as the API shows it (the secret never is).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NotificationChannel {
    /// ID.
    pub id: Id,
    /// Squished; unique ignoring case.
    pub name: String,
    /// `ntfy`, `webhook` or `email`.
    pub kind: ChannelKind,
    /// ntfy: the topic's address; webhook: where to `POST`; null for
    /// e-mail.
    pub url: Option<String>,
    /// The e-mail settings; null for the other kinds.
    pub email: Option<EmailSettings>,
    /// Whether a secret is stored (ntfy access token, webhook signing
    /// key, SMTP password).
    pub secret_set: bool,
    /// Whether reminders go to it.
    pub enabled: bool,
    /// The last delivery that arrived.
    #[serde(with = "crate::time::serde_timestamp::option")]
    pub last_succeeded_at: Option<Timestamp>,
    /// The last one that failed.
    #[serde(with = "crate::time::serde_timestamp::option")]
    pub last_failed_at: Option<Timestamp>,
    /// Why it failed; cleared by a success.
    pub last_error: Option<String>,
    /// When it was added.
    #[serde(with = "crate::time::serde_timestamp")]
    pub created_at: Timestamp,
    /// When it last changed (a delivery's outcome included).
    #[serde(with = "crate::time::serde_timestamp")]
    pub updated_at: Timestamp,
}

/// A channel as stored: what the API shows and the sealed secret.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct StoredChannel {
    pub(crate) channel: NotificationChannel,
    pub(crate) secret: Option<Vec<u8>>,
}

impl StoredChannel {
    /// Its secret, opened.
    pub(crate) fn open_secret(&self, inner: &Inner) -> Option<String> {
        let bytes = inner.secret.open(self.secret.as_ref()?).ok()?;
        String::from_utf8(bytes).ok()
    }
}

/// An e-mail channel's settings as sent: each part optional on change.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct EmailInput {
    /// The SMTP server.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub smtp_host: Option<String>,
    /// Its port (the usual one for `security` when absent).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub smtp_port: Option<i64>,
    /// `starttls` (when absent), `tls` or `none`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub security: Option<String>,
    /// The user name; blank or null sends without logging in.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub username: Field<String>,
    /// The sender.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// The recipients, separated by commas.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
}

/// `{notification_channel: {name, kind, url, email, secret, enabled}}`;
/// all optional on change. Its `Debug` never shows the secret.
#[derive(Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct NotificationChannelInput {
    /// The name.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub name: Field<String>,
    /// `ntfy`, `webhook` or `email`; fixed once made.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub kind: Field<String>,
    /// ntfy's topic address, or the webhook's.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub url: Field<String>,
    /// The e-mail settings (what is sent of them changes).
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub email: Field<EmailInput>,
    /// Write-only: absent keeps it, null or blank clears it.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub secret: Field<String>,
    /// Whether reminders go to it (on when made).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enabled: Option<bool>,
}

impl std::fmt::Debug for NotificationChannelInput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NotificationChannelInput")
            .field("name", &self.name)
            .field("kind", &self.kind)
            .field("url", &self.url)
            .field("email", &self.email)
            .field("secret", &self.secret.as_ref().map(|_| "[secret]"))
            .field("enabled", &self.enabled)
            .finish()
    }
}

/// Reads `{notification_channel: {...}}`.
pub(crate) fn parse(body: Option<&Value>) -> Result<NotificationChannelInput> {
    let mut f = record(body, "notification_channel")?;
    let mut input = NotificationChannelInput {
        name: f.string("name"),
        kind: f.string("kind"),
        url: f.string("url"),
        secret: f.string("secret"),
        enabled: f.boolean("enabled"),
        ..NotificationChannelInput::default()
    };
    input.email = match f.raw("email") {
        Field::Absent => Field::Absent,
        Field::Null => Field::Null,
        Field::Value(Value::Object(map)) => {
            let text = |name: &str, f: &mut crate::input::Fields<'_>| match map.get(name) {
                None => Field::Absent,
                Some(Value::Null) => Field::Null,
                Some(Value::String(s)) => Field::Value(s.clone()),
                Some(_) => {
                    f.add(&format!("email.{name}"), "must be a string");
                    Field::Absent
                }
            };
            let port = match map.get("smtp_port") {
                None | Some(Value::Null) => None,
                Some(v) => match v.as_i64() {
                    Some(p) => Some(p),
                    None => {
                        f.add("email.smtp_port", "must be a whole number from 1 to 65535");
                        None
                    }
                },
            };
            for name in map.keys() {
                if ![
                    "smtp_host",
                    "smtp_port",
                    "security",
                    "username",
                    "from",
                    "to",
                ]
                .contains(&name.as_str())
                {
                    f.add(&format!("email.{name}"), "is not a known field");
                }
            }
            Field::Value(EmailInput {
                smtp_host: text("smtp_host", &mut f).value(),
                smtp_port: port,
                security: text("security", &mut f).value(),
                username: text("username", &mut f),
                from: text("from", &mut f).value(),
                to: text("to", &mut f).value(),
            })
        }
        Field::Value(_) => {
            f.add("email", "must be an object");
            Field::Absent
        }
    };
    f.finish()?;
    Ok(input)
}

/// An address as sent, checked: http or https with a host, no user,
/// password or fragment; for ntfy, a topic in the path.
fn address(text: &str, kind: ChannelKind) -> std::result::Result<String, &'static str> {
    let text = text.trim();
    if char_len(text) > URL_MAX {
        return Err("is too long (maximum is 2048 characters)");
    }
    let url = Url::parse(text).map_err(|_| "is not a valid http or https address")?;
    if !matches!(url.scheme(), "http" | "https") || url.host_str().is_none() {
        return Err("is not a valid http or https address");
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err("can't contain a user name or password (put a token in secret)");
    }
    if url.fragment().is_some() {
        return Err("can't contain a fragment");
    }
    if kind == ChannelKind::Ntfy {
        if url.query().is_some() {
            return Err("can't contain a query");
        }
        if url.path().trim_matches('/').is_empty() {
            return Err("must name the topic (such as https://ntfy.sh/my-topic)");
        }
        return Ok(url.as_str().trim_end_matches('/').to_owned());
    }
    Ok(url.as_str().to_owned())
}

/// A mailbox list as sent: one or more addresses, checked by lettre.
fn mailboxes(text: &str) -> std::result::Result<String, &'static str> {
    let text = text.trim();
    if text.is_empty() {
        return Err("can't be blank");
    }
    if char_len(text) > URL_MAX {
        return Err("is too long (maximum is 2048 characters)");
    }
    match text.parse::<lettre::message::Mailboxes>() {
        Ok(list) if list.iter().next().is_some() => Ok(text.to_owned()),
        _ => Err("is not an e-mail address (name@example.com)"),
    }
}

/// The e-mail settings `input` makes of `current`.
fn email_settings(
    input: &EmailInput,
    current: Option<&EmailSettings>,
    details: &mut Details,
) -> Option<EmailSettings> {
    let security = match &input.security {
        Some(s) => match Security::parse(s.trim()) {
            Some(s) => s,
            None => {
                details.add("email.security", "must be one of starttls, tls, none");
                Security::Starttls
            }
        },
        None => current.map_or(Security::Starttls, |c| c.security),
    };
    let host = match &input.smtp_host {
        Some(h) => {
            let h = h.trim();
            if h.is_empty() {
                details.add("email.smtp_host", "can't be blank");
            } else if char_len(h) > HOST_MAX || h.contains(|c: char| c.is_whitespace() || c == '/')
            {
                details.add("email.smtp_host", "is not a host name");
            }
            h.to_owned()
        }
        None => match current {
            Some(c) => c.smtp_host.clone(),
            None => {
                details.add("email.smtp_host", "can't be blank");
                String::new()
            }
        },
    };
    let port = match input.smtp_port {
        Some(p) => match u16::try_from(p) {
            Ok(p) if p > 0 => p,
            _ => {
                details.add("email.smtp_port", "must be a whole number from 1 to 65535");
                0
            }
        },
        None => match current {
            Some(c) if input.security.is_none() => c.smtp_port,
            _ => security.port(),
        },
    };
    let username = match &input.username {
        Field::Absent => current.and_then(|c| c.username.clone()),
        Field::Null => None,
        Field::Value(u) if u.trim().is_empty() => None,
        Field::Value(u) => {
            if char_len(u.trim()) > HOST_MAX || u.chars().any(char::is_control) {
                details.add("email.username", "is not a user name");
            }
            Some(u.trim().to_owned())
        }
    };
    let mut address = |field: &str, sent: &Option<String>, now: Option<&String>| match (sent, now) {
        (Some(text), _) => match mailboxes(text) {
            Ok(a) => a,
            Err(phrase) => {
                details.add(field, phrase);
                String::new()
            }
        },
        (None, Some(a)) => a.clone(),
        (None, None) => {
            details.add(field, "can't be blank");
            String::new()
        }
    };
    let from = address("email.from", &input.from, current.map(|c| &c.from));
    let to = address("email.to", &input.to, current.map(|c| &c.to));
    Some(EmailSettings {
        smtp_host: host,
        smtp_port: port,
        security,
        username,
        from,
        to,
    })
}

/// The channel `input` makes of `current` (none when creating), checked
/// field by field; the secret to store (`Some(None)` clears it).
fn checked(
    input: &NotificationChannelInput,
    current: Option<&NotificationChannel>,
    details: &mut Details,
) -> (NotificationChannel, Option<Option<String>>) {
    let now = Timestamp::UNIX_EPOCH;
    let mut c = current.cloned().unwrap_or(NotificationChannel {
        id: Id::from_bytes([0; 16]),
        name: String::new(),
        kind: ChannelKind::Ntfy,
        url: None,
        email: None,
        secret_set: false,
        enabled: true,
        last_succeeded_at: None,
        last_failed_at: None,
        last_error: None,
        created_at: now,
        updated_at: now,
    });
    match &input.name {
        Field::Value(n) => c.name = squished_required(details, "name", n, NAME_MAX),
        Field::Null => details.add("name", "can't be blank"),
        Field::Absent if current.is_none() => details.add("name", "can't be blank"),
        Field::Absent => {}
    }
    match (&input.kind, current) {
        (Field::Value(k), None) => match ChannelKind::parse(k.trim()) {
            Some(kind) => c.kind = kind,
            None => details.add("kind", "must be one of ntfy, webhook, email"),
        },
        (Field::Value(k), Some(cur)) if k.trim() == cur.kind.as_str() => {}
        (Field::Value(_) | Field::Null, Some(_)) => {
            details.add("kind", "can't be changed (add another channel)");
        }
        (Field::Null | Field::Absent, None) => details.add("kind", "can't be blank"),
        (Field::Absent, Some(_)) => {}
    }
    let kind_ok = !details.has("kind");
    match &input.url {
        Field::Value(u) if !u.trim().is_empty() => {
            if kind_ok && c.kind == ChannelKind::Email {
                details.add("url", "must be empty for an e-mail channel");
            } else {
                match address(u, c.kind) {
                    Ok(u) => c.url = Some(u),
                    Err(phrase) => details.add("url", phrase),
                }
            }
        }
        Field::Value(_) | Field::Null => c.url = None,
        Field::Absent => {}
    }
    match &input.email {
        Field::Value(e) => {
            if kind_ok && c.kind != ChannelKind::Email {
                details.add("email", "must be null unless kind is email");
            } else {
                c.email = email_settings(e, c.email.as_ref(), details);
            }
        }
        Field::Null => c.email = None,
        Field::Absent => {}
    }
    if kind_ok {
        if c.kind == ChannelKind::Email {
            if c.email.is_none() && !details.has("email") {
                details.add("email", "can't be blank");
            }
        } else if c.url.is_none() && !details.has("url") {
            details.add("url", "can't be blank");
        }
    }
    let secret = match &input.secret {
        Field::Absent => None,
        Field::Null => Some(None),
        Field::Value(s) if s.trim().is_empty() => Some(None),
        Field::Value(s) => {
            let s = s.trim();
            if s.chars().any(char::is_control) {
                details.add("secret", "can't contain line breaks");
            } else if char_len(s) > SECRET_MAX {
                details.add("secret", "is too long (maximum is 1024 characters)");
            }
            Some(Some(s.to_owned()))
        }
    };
    if let Some(enabled) = input.enabled {
        c.enabled = enabled;
    }
    (c, secret)
}

pub(crate) fn load<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<Option<StoredChannel>> {
    cx.get_json(CHANNELS, &id.to_bytes())
}

/// The channel `id` as stored: 404 when there is none.
pub(crate) fn stored<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<StoredChannel> {
    load(cx, id)?.ok_or(Error::NotFound)
}

/// Every channel as stored, oldest first.
pub(crate) fn all<T: Tables>(cx: &Cx<'_, T>) -> Result<Vec<StoredChannel>> {
    let mut found = Vec::new();
    cx.scan_prefix(CHANNELS, &[], Dir::Asc, &mut |_, v| {
        found.push(serde_json::from_slice(v)?);
        Ok(true)
    })?;
    Ok(found)
}

/// `GET /notification_channels`: oldest first, not paginated.
pub(crate) fn list<T: Tables>(cx: &Cx<'_, T>) -> Result<Vec<NotificationChannel>> {
    Ok(all(cx)?.into_iter().map(|s| s.channel).collect())
}

/// `GET /notification_channels/{id}`.
pub(crate) fn get<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<NotificationChannel> {
    Ok(stored(cx, id)?.channel)
}

pub(crate) fn save(cx: &WriteCx<'_>, s: &StoredChannel) -> Result<()> {
    cx.put_json(CHANNELS, &s.channel.id.to_bytes(), s)
}

/// Whether a channel other than `except` is named `name`, ignoring case.
pub(crate) fn name_taken<T: Tables>(
    cx: &Cx<'_, T>,
    name: &str,
    except: Option<Id>,
) -> Result<bool> {
    Ok(all(cx)?
        .iter()
        .any(|s| Some(s.channel.id) != except && fold_case(&s.channel.name) == fold_case(name)))
}

fn check_name_free(
    cx: &WriteCx<'_>,
    name: &str,
    except: Option<Id>,
    details: &mut Details,
) -> Result<()> {
    if !details.has("name") && name_taken(cx, name, except)? {
        details.add("name", "has already been taken");
    }
    Ok(())
}

/// Whether a channel read from an archive is one a write could have made:
/// its address as the checks write it, its e-mail addresses readable.
pub(crate) fn check_line(c: &NotificationChannel) -> std::result::Result<(), &'static str> {
    if let Some(url) = &c.url
        && address(url, c.kind).as_deref() != Ok(url.as_str())
    {
        return Err("its url is not a checked address");
    }
    if let Some(e) = &c.email
        && (mailboxes(&e.from).is_err() || mailboxes(&e.to).is_err() || e.smtp_port == 0)
    {
        return Err("its e-mail settings are not readable");
    }
    if c.name.trim().is_empty() || char_len(&c.name) > NAME_MAX {
        return Err("its name is blank or too long");
    }
    Ok(())
}

/// `POST /notification_channels`.
pub(crate) fn create(
    cx: &mut WriteCx<'_>,
    input: &NotificationChannelInput,
) -> Result<NotificationChannel> {
    let mut details = Details::new();
    let (mut c, secret) = checked(input, None, &mut details);
    check_name_free(cx, &c.name, None, &mut details)?;
    if cx.len(CHANNELS)? >= MOST as u64 {
        details.add("base", format!("a store keeps at most {MOST} channels"));
    }
    details.into_validation()?;
    let now = cx.now();
    c.id = cx.new_id();
    c.created_at = now;
    c.updated_at = now;
    let secret = secret.flatten();
    c.secret_set = secret.is_some();
    let s = StoredChannel {
        channel: c,
        secret: secret.map(|k| cx.org.secret.seal(k.as_bytes())),
    };
    save(cx, &s)?;
    super::wake_after_commit(cx);
    Ok(s.channel)
}

/// `PATCH /notification_channels/{id}`.
pub(crate) fn change(
    cx: &mut WriteCx<'_>,
    id: Id,
    input: &NotificationChannelInput,
) -> Result<NotificationChannel> {
    let before = stored(cx, id)?;
    let mut details = Details::new();
    let (mut c, secret) = checked(input, Some(&before.channel), &mut details);
    check_name_free(cx, &c.name, Some(id), &mut details)?;
    details.into_validation()?;
    let mut s = before.clone();
    if let Some(secret) = secret {
        c.secret_set = secret.is_some();
        s.secret = secret.map(|k| cx.org.secret.seal(k.as_bytes()));
    }
    if c == before.channel && s.secret == before.secret {
        return Ok(c);
    }
    c.updated_at = cx.now();
    s.channel = c;
    save(cx, &s)?;
    super::wake_after_commit(cx);
    Ok(s.channel)
}

/// `DELETE /notification_channels/{id}`: for good, with a deletion
/// record; it leaves the reminder settings, and what was waiting for it
/// is `failed`.
pub(crate) fn delete(cx: &mut WriteCx<'_>, id: Id) -> Result<()> {
    stored(cx, id)?;
    cx.remove(CHANNELS, &id.to_bytes())?;
    deletions::record(cx, KIND.name, id)?;
    super::settings::forget_channel(cx, id)?;
    super::log::fail_pending_of(cx, id, "the channel was deleted")?;
    Ok(())
}

/// Records a delivery's outcome on channel `id` (when it still exists).
pub(crate) fn record_outcome(
    cx: &WriteCx<'_>,
    id: Id,
    outcome: std::result::Result<(), &str>,
) -> Result<Option<NotificationChannel>> {
    let Some(mut s) = load(cx, id)? else {
        return Ok(None);
    };
    let now = cx.now();
    match outcome {
        Ok(()) => {
            s.channel.last_succeeded_at = Some(now);
            s.channel.last_error = None;
        }
        Err(reason) => {
            s.channel.last_failed_at = Some(now);
            s.channel.last_error = Some(reason.to_owned());
        }
    }
    s.channel.updated_at = now;
    save(cx, &s)?;
    Ok(Some(s.channel))
}
