//! Sending one message to one channel (EXTENSIONS.md §3): ntfy (title,
//! priority, tags and a click link as its headers, the text as the body,
//! the token as a bearer), a webhook (a JSON `POST` signed with
//! `X-Organiser-Signature`), e-mail (plain text and HTML over SMTP with
//! lettre). Addresses follow the AI providers' rules: local servers
//! allowed, no redirects, 10 seconds, answers read up to 1 MB. A failure
//! is a sentence for the owner, never with the secret in it.

use std::time::Duration;

use jiff::Timestamp;
use lettre::message::{Mailbox, Mailboxes, MultiPart};
use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Tls, TlsParameters};
use lettre::{Message as Mail, SmtpTransport, Transport};

use super::channels::{ChannelKind, EmailSettings, NotificationChannel, Security};
use super::log::{Message, Notification};
use crate::net::{HttpClient, HttpError, HttpRequest};

/// The longest a delivery may take.
pub(crate) const WAIT: Duration = Duration::from_secs(10);
/// The most of an answer read.
const MOST_ANSWER: u64 = 1024 * 1024;

/// What is sent: the message, and the notification it is (none for a
/// test that is not recorded yet).
pub(crate) struct Outgoing<'a> {
    pub(crate) message: &'a Message,
    pub(crate) kind: &'static str,
    pub(crate) subject_id: Option<String>,
    pub(crate) due_at: Timestamp,
    /// The notification's ID, which receivers may use to drop a repeat.
    pub(crate) delivery: String,
}

impl<'a> Outgoing<'a> {
    pub(crate) fn of(n: &Notification, message: &'a Message) -> Outgoing<'a> {
        Outgoing {
            message,
            kind: kind_name(n),
            subject_id: n.subject_id.map(|id| id.to_string()),
            due_at: n.due_at,
            delivery: n.id.to_string(),
        }
    }
}

fn kind_name(n: &Notification) -> &'static str {
    use super::log::NotificationKind as K;
    match n.kind {
        K::Task => "task",
        K::Agenda => "agenda",
        K::KeyDate => "key_date",
        K::Deadline => "deadline",
        K::Test => "test",
    }
}

/// Sends `out` to `channel` with its opened `secret`: `Err` with why not.
pub(crate) fn send(
    http: &dyn HttpClient,
    channel: &NotificationChannel,
    secret: Option<&str>,
    out: &Outgoing<'_>,
) -> Result<(), String> {
    let result = match channel.kind {
        ChannelKind::Ntfy => ntfy(http, channel, secret, out),
        ChannelKind::Webhook => webhook(http, channel, secret, out),
        ChannelKind::Email => match &channel.email {
            Some(settings) => email(settings, secret, out),
            None => Err("the channel has no e-mail settings".to_owned()),
        },
    };
    // Whatever a server or library says, the secret is never repeated.
    result.map_err(|reason| match secret {
        Some(s) if s.len() >= 4 => reason.replace(s, "[secret]"),
        _ => reason,
    })
}

fn request(url: &str, body: Vec<u8>) -> HttpRequest {
    let mut r = HttpRequest::post(url, body);
    r.timeout = WAIT;
    r.max_body_bytes = MOST_ANSWER;
    r.max_redirects = 0;
    r.allow_private = true;
    r
}

fn answered(result: Result<crate::net::HttpResponse, HttpError>) -> Result<(), String> {
    match result {
        Ok(r) if r.is_success() => Ok(()),
        Ok(r) if (300..400).contains(&r.status) => Err(format!(
            "the server answered {} (redirects are not followed: use the final address)",
            r.status_line()
        )),
        Ok(r) => Err(format!("the server answered {}", r.status_line())),
        Err(HttpError::TooManyRedirects { .. }) => Err(
            "the server redirected (redirects are not followed: use the final address)".to_owned(),
        ),
        Err(e) => Err(e.to_string()),
    }
}

/// A header value: as it is when ASCII, else RFC 2047 encoded (which ntfy
/// reads).
fn header_value(text: &str) -> String {
    let one_line: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if one_line.is_ascii() {
        one_line
    } else {
        use base64::Engine as _;
        format!(
            "=?UTF-8?B?{}?=",
            base64::engine::general_purpose::STANDARD.encode(one_line.as_bytes())
        )
    }
}

fn ntfy(
    http: &dyn HttpClient,
    channel: &NotificationChannel,
    secret: Option<&str>,
    out: &Outgoing<'_>,
) -> Result<(), String> {
    let url = channel.url.as_deref().ok_or("the channel has no address")?;
    let m = out.message;
    let mut r = request(url, m.body.as_bytes().to_vec())
        .with_header("Title", header_value(&m.title))
        .with_header("Priority", m.priority.clamp(1, 5).to_string())
        .with_header("Content-Type", "text/plain; charset=utf-8")
        .with_header("X-Organiser-Delivery", out.delivery.clone());
    if !m.tags.is_empty() {
        r = r.with_header("Tags", m.tags.join(","));
    }
    if let Some(link) = &m.url {
        r = r.with_header("Click", link.clone());
    }
    if let Some(token) = secret {
        r = r.with_header("Authorization", format!("Bearer {token}"));
    }
    answered(http.send(&r))
}

/// The webhook's body: `{kind, title, body, url, subject: {type, id},
/// due_at}`.
pub(crate) fn webhook_body(out: &Outgoing<'_>) -> Vec<u8> {
    let m = out.message;
    let subject = match (&m.subject_type, &out.subject_id) {
        (Some(t), Some(id)) => serde_json::json!({"type": t, "id": id}),
        _ => serde_json::Value::Null,
    };
    let body = serde_json::json!({
        "kind": out.kind,
        "title": m.title,
        "body": m.body,
        "url": m.url,
        "subject": subject,
        "due_at": crate::time::format_timestamp(out.due_at),
    });
    serde_json::to_vec(&body).unwrap_or_default()
}

/// `sha256=<hex of HMAC-SHA256 of body under key>`.
pub(crate) fn signature(key: &str, body: &[u8]) -> String {
    format!(
        "sha256={}",
        crate::secrets::to_hex(&crate::secrets::hmac_sha256(key.as_bytes(), body))
    )
}

fn webhook(
    http: &dyn HttpClient,
    channel: &NotificationChannel,
    secret: Option<&str>,
    out: &Outgoing<'_>,
) -> Result<(), String> {
    let url = channel.url.as_deref().ok_or("the channel has no address")?;
    let body = webhook_body(out);
    let mut r = request(url, body.clone())
        .with_header("Content-Type", "application/json")
        .with_header("X-Organiser-Delivery", out.delivery.clone());
    if let Some(key) = secret {
        r = r.with_header("X-Organiser-Signature", signature(key, &body));
    }
    answered(http.send(&r))
}

fn email(
    settings: &EmailSettings,
    password: Option<&str>,
    out: &Outgoing<'_>,
) -> Result<(), String> {
    let m = out.message;
    let from: Mailbox = settings
        .from
        .parse()
        .map_err(|e| format!("the sender is not an address: {e}"))?;
    let to: Mailboxes = settings
        .to
        .parse()
        .map_err(|e| format!("a recipient is not an address: {e}"))?;
    let mut builder = Mail::builder()
        .from(from)
        .subject(&m.title)
        .message_id(Some(format!("<{}@organiser>", out.delivery)));
    for mailbox in to {
        builder = builder.to(mailbox);
    }
    let mut text = m.body.clone();
    if let Some(url) = &m.url {
        text.push_str("\n\n");
        text.push_str(url);
    }
    let mut html = format!(
        "<!doctype html><html><body><h2>{}</h2>{}",
        crate::html::tokens::escape(&m.title),
        m.html
    );
    if let Some(url) = &m.url {
        let url = crate::html::tokens::escape(url);
        html.push_str(&format!("<p><a href=\"{url}\">Open in Organiser</a></p>"));
    }
    html.push_str("</body></html>");
    let mail = builder
        .multipart(MultiPart::alternative_plain_html(text, html))
        .map_err(|e| format!("the message could not be written: {e}"))?;
    let host = settings.smtp_host.as_str();
    let tls = || TlsParameters::new(host.to_owned()).map_err(|e| format!("TLS failed: {e}"));
    let mut transport = SmtpTransport::builder_dangerous(host)
        .port(settings.smtp_port)
        .timeout(Some(WAIT));
    transport = match settings.security {
        Security::Starttls => transport.tls(Tls::Required(tls()?)),
        Security::Tls => transport.tls(Tls::Wrapper(tls()?)),
        Security::None => transport.tls(Tls::None),
    };
    if let (Some(user), Some(password)) = (&settings.username, password) {
        transport = transport.credentials(Credentials::new(user.clone(), password.to_owned()));
    }
    let transport = transport.build();
    transport
        .send(&mail)
        .map(drop)
        .map_err(|e| format!("the mail server refused or failed: {e}"))
}
