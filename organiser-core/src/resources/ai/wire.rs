//! The providers' wire protocols (document 2, "AIProvider" kinds and
//! "Connection calls"; docs/api.md "AI wire formats"): listing models and
//! asking for one reply, over the core's [`HttpClient`].
//!
//! - `api_compatible`: the chat-completions interface hosted services and
//!   local servers (llama.cpp, Ollama, vLLM, LM Studio) share:
//!   `GET <base_url>/models`, `POST <base_url>/chat/completions`, the key
//!   as `Authorization: Bearer`;
//! - `vendor_b`: the second vendor's messages interface:
//!   `GET <base_url>/models?limit=1000`, `POST <base_url>/messages`, the
//!   key as `x-api-key` with `anthropic-version`;
//! - `mock`: answers in process, with no network.
//!
//! Every call follows no redirect, reads at most 5 MB and waits at most
//! the configured time (90 s). A failure is a [`Failure`]: a sentence for
//! the owner and a message for `last_error`, neither ever holding the key.

use std::time::Duration;

use serde_json::{Value, json};

use crate::net::{HttpClient, HttpError, HttpRequest, HttpResponse};

/// The version header the messages interface is sent.
pub(crate) const VENDOR_B_VERSION: &str = "2023-06-01";
/// The most bytes of an answer read.
pub(crate) const MAX_ANSWER_BYTES: u64 = 5 * 1024 * 1024;
/// The models a `mock` provider lists.
pub(crate) const MOCK_MODELS: [&str; 2] = ["mock-small", "mock-large"];
/// The most characters of a provider's own error message kept.
const SERVER_MESSAGE_MAX: usize = 300;

crate::input::words! {
    /// A provider's kind: the wire protocol it speaks (a key of the
    /// vocabulary's `ai_provider_kinds`; `mock` only in a development
    /// build).
    pub enum ProviderKind {
        /// An OpenAI-compatible chat completions API.
        ApiCompatible = "api_compatible",
        /// The second vendor's messages API.
        VendorB = "vendor_b",
        /// Answers in process, without a network (development builds).
        Mock = "mock",
    }
}

pub(crate) use ProviderKind as Kind;

/// Where and how a call is sent (no `Debug`: it holds the key).
#[derive(Clone, Copy)]
pub(crate) struct Connection<'a> {
    pub(crate) kind: Kind,
    /// The base URL (with its version path, no trailing `/`); unused by
    /// `mock`.
    pub(crate) base_url: Option<&'a str>,
    /// The key, when one is sent.
    pub(crate) key: Option<&'a str>,
    /// The longest the call may take.
    pub(crate) wait: Duration,
}

/// One request for a reply.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Ask<'a> {
    /// The model's identifier.
    pub(crate) model: &'a str,
    /// The instructions, if any.
    pub(crate) system: Option<&'a str>,
    /// The owner's text.
    pub(crate) prompt: &'a str,
    /// The most tokens the reply may use, reasoning included.
    pub(crate) max_tokens: u32,
    /// `reasoning_effort` (api_compatible only).
    pub(crate) reasoning: Option<&'a str>,
}

/// Why a call failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Failure {
    /// For the owner: what happened and what to look at
    /// (`last_error_reason`, a `provider_error`'s message).
    pub(crate) reason: String,
    /// What happened, more exactly (`last_error`).
    pub(crate) message: String,
}

impl Failure {
    fn new(reason: &str, message: impl Into<String>) -> Failure {
        Failure {
            reason: reason.to_owned(),
            message: message.into(),
        }
    }
}

/// The identifiers of the models the provider offers, in its order.
pub(crate) fn list_models(
    http: &dyn HttpClient,
    conn: &Connection<'_>,
) -> Result<Vec<String>, Failure> {
    let url = match conn.kind {
        Kind::Mock => return Ok(MOCK_MODELS.iter().map(|m| (*m).to_owned()).collect()),
        Kind::ApiCompatible => format!("{}/models", base(conn)?),
        Kind::VendorB => format!("{}/models?limit=1000", base(conn)?),
    };
    let answer = send(http, conn, HttpRequest::get(url))?;
    let body = json_of(&answer)?;
    let Some(data) = body.get("data").and_then(Value::as_array) else {
        return Err(not_understood("no `data` list of models"));
    };
    let mut ids: Vec<String> = Vec::with_capacity(data.len());
    for model in data {
        if let Some(id) = model.get("id").and_then(Value::as_str)
            && !id.trim().is_empty()
            && !ids.iter().any(|known| known == id)
        {
            ids.push(id.to_owned());
        }
    }
    Ok(ids)
}

/// The model's reply to `ask`.
pub(crate) fn complete(
    http: &dyn HttpClient,
    conn: &Connection<'_>,
    ask: &Ask<'_>,
) -> Result<String, Failure> {
    let request = match conn.kind {
        Kind::Mock => return Ok(mock_reply(ask.prompt)),
        Kind::ApiCompatible => {
            let mut messages = Vec::with_capacity(2);
            if let Some(system) = ask.system {
                messages.push(json!({"role": "system", "content": system}));
            }
            messages.push(json!({"role": "user", "content": ask.prompt}));
            let mut body = json!({
                "model": ask.model,
                "messages": messages,
                "max_completion_tokens": ask.max_tokens,
                "stream": false,
            });
            if let Some(effort) = ask.reasoning {
                body["reasoning_effort"] = json!(effort);
            }
            HttpRequest::post(format!("{}/chat/completions", base(conn)?), to_bytes(&body))
        }
        Kind::VendorB => {
            let mut body = json!({
                "model": ask.model,
                "max_tokens": ask.max_tokens,
                "messages": [{"role": "user", "content": ask.prompt}],
            });
            if let Some(system) = ask.system {
                body["system"] = json!(system);
            }
            HttpRequest::post(format!("{}/messages", base(conn)?), to_bytes(&body))
        }
    }
    .with_header("content-type", "application/json");
    let answer = send(http, conn, request)?;
    let body = json_of(&answer)?;
    let (text, cut_short) = match conn.kind {
        Kind::ApiCompatible => {
            let choice = body.pointer("/choices/0");
            let text = match choice.and_then(|c| c.pointer("/message/content")) {
                Some(Value::String(s)) => s.clone(),
                Some(Value::Array(parts)) => joined_text(parts),
                _ => String::new(),
            };
            let reason = choice.and_then(|c| c.get("finish_reason"));
            (text, reason.and_then(Value::as_str) == Some("length"))
        }
        Kind::VendorB | Kind::Mock => {
            let parts = body.get("content").and_then(Value::as_array);
            let text = parts.map(|p| joined_text(p)).unwrap_or_default();
            let reason = body.get("stop_reason").and_then(Value::as_str);
            (text, reason == Some("max_tokens"))
        }
    };
    if text.trim().is_empty() {
        return Err(if cut_short {
            Failure::new(
                "The model used its whole token budget before it answered; raise the task's max_output_tokens",
                "the reply was cut off by the token budget before any text",
            )
        } else {
            not_understood("no reply text")
        });
    }
    Ok(text)
}

/// What a `mock` model answers: the prompt's first five words.
fn mock_reply(prompt: &str) -> String {
    let words: Vec<&str> = prompt.split_whitespace().take(5).collect();
    if words.is_empty() {
        "Mock reply".to_owned()
    } else {
        words.join(" ")
    }
}

/// The text parts of a list of content parts, joined.
fn joined_text(parts: &[Value]) -> String {
    parts
        .iter()
        .filter(|p| {
            p.get("type")
                .and_then(Value::as_str)
                .is_none_or(|t| t == "text")
        })
        .filter_map(|p| p.get("text").and_then(Value::as_str))
        .collect::<Vec<_>>()
        .join("")
}

fn to_bytes(body: &Value) -> Vec<u8> {
    serde_json::to_vec(body).unwrap_or_default()
}

fn base<'a>(conn: &Connection<'a>) -> Result<&'a str, Failure> {
    conn.base_url
        .ok_or_else(|| Failure::new("The provider has no address", "no base_url"))
}

/// Sends `request` as `conn` says (its key, its limits) and reads a 2xx
/// answer.
fn send(
    http: &dyn HttpClient,
    conn: &Connection<'_>,
    mut request: HttpRequest,
) -> Result<HttpResponse, Failure> {
    request.timeout = conn.wait;
    request.max_body_bytes = MAX_ANSWER_BYTES;
    request.max_redirects = 0;
    // DESIGN.md: AI providers may be local.
    request.allow_private = true;
    request = request.with_header("accept", "application/json");
    match (conn.kind, conn.key) {
        (Kind::ApiCompatible, Some(key)) => {
            request = request.with_header("authorization", format!("Bearer {key}"));
        }
        (Kind::VendorB, key) => {
            if let Some(key) = key {
                request = request.with_header("x-api-key", key);
            }
            request = request.with_header("anthropic-version", VENDOR_B_VERSION);
        }
        _ => {}
    }
    let answer = http
        .send(&request)
        .map_err(|e| redacted(network_failure(&e), conn.key))?;
    if answer.is_success() {
        return Ok(answer);
    }
    Err(redacted(status_failure(&answer), conn.key))
}

/// A failure to get any answer.
fn network_failure(e: &HttpError) -> Failure {
    let reason = match e {
        HttpError::Timeout => "The server took too long to answer",
        HttpError::Dns { .. } | HttpError::Connect(_) => "No server answered at this address",
        HttpError::Tls(_) => "The server's certificate could not be trusted",
        HttpError::BodyTooBig { .. } => "The server's answer was larger than 5 MB",
        HttpError::TooManyRedirects { .. } => {
            "The server answered with a redirect, which is not followed; check the address"
        }
        HttpError::InvalidUrl(_) => "The address is not a valid http or https address",
        HttpError::Read(_) => "The server's answer broke off",
        HttpError::RefusedAddress(_) | HttpError::Other(_) => "The server could not be reached",
    };
    Failure::new(reason, e.to_string())
}

/// A non-2xx answer.
fn status_failure(answer: &HttpResponse) -> Failure {
    let reason = match answer.status {
        401 | 403 => "The server refused the key",
        404 => {
            "The server has no such address or model; check the address, its version path and the model"
        }
        408 | 504 => "The server took too long to answer",
        429 => "The server is limiting requests; try again later",
        500..=599 => "The server failed to answer",
        _ => "The server refused the request",
    };
    let mut message = format!("HTTP {}", answer.status_line());
    if let Some(own) = server_message(&answer.body) {
        message.push_str(": ");
        message.push_str(&own);
    }
    Failure::new(reason, message)
}

/// The server's own error message, when its body has one, shortened.
fn server_message(body: &[u8]) -> Option<String> {
    let value: Value = serde_json::from_slice(body).ok()?;
    let text = value
        .pointer("/error/message")
        .or_else(|| value.get("message"))
        .or_else(|| value.get("error"))
        .and_then(Value::as_str)?;
    let text: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .take(SERVER_MESSAGE_MAX)
        .collect();
    Some(text.trim().to_owned()).filter(|t| !t.is_empty())
}

/// `failure` with every occurrence of the key taken out, in the forms a
/// server is likely to echo it: as sent, URL-encoded, and base64 and
/// base64url (padded or not).
fn redacted(mut failure: Failure, key: Option<&str>) -> Failure {
    if let Some(key) = key.filter(|k| !k.is_empty()) {
        let forms = key_forms(key);
        for text in [&mut failure.message, &mut failure.reason] {
            for form in &forms {
                *text = text.replace(form.as_str(), "[key]");
            }
        }
    }
    failure
}

/// The forms of `key` [`redacted`] takes out, longest first (so a form
/// that contains another goes whole).
fn key_forms(key: &str) -> Vec<String> {
    use base64::Engine as _;
    use base64::engine::general_purpose::{STANDARD, STANDARD_NO_PAD, URL_SAFE, URL_SAFE_NO_PAD};
    let bytes = key.as_bytes();
    let percent = |upper: bool| -> String {
        bytes
            .iter()
            .map(|&b| match b {
                b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                    char::from(b).to_string()
                }
                _ if upper => format!("%{b:02X}"),
                _ => format!("%{b:02x}"),
            })
            .collect()
    };
    let mut forms = vec![
        key.to_owned(),
        percent(true),
        percent(false),
        form_urlencoded::byte_serialize(bytes).collect::<String>(),
        STANDARD.encode(bytes),
        STANDARD_NO_PAD.encode(bytes),
        URL_SAFE.encode(bytes),
        URL_SAFE_NO_PAD.encode(bytes),
    ];
    forms.sort_by_key(|f| std::cmp::Reverse(f.len()));
    forms.dedup();
    forms
}

fn json_of(answer: &HttpResponse) -> Result<Value, Failure> {
    serde_json::from_slice(&answer.body).map_err(|_| not_understood("the answer is not JSON"))
}

fn not_understood(what: &str) -> Failure {
    Failure::new(
        "The server's answer was not understood; is this the right kind of provider?",
        what,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::HttpResponse;

    #[test]
    fn the_key_never_leaves_in_a_failure() {
        let answer = HttpResponse::new(
            401,
            "http://x/v1/models",
            br#"{"error":{"message":"Incorrect API key provided: sk-secret-123"}}"#.to_vec(),
        );
        let f = redacted(status_failure(&answer), Some("sk-secret-123"));
        assert_eq!(f.reason, "The server refused the key");
        assert!(!f.message.contains("sk-secret-123"), "{}", f.message);
        assert!(f.message.starts_with("HTTP 401 Unauthorized"));
    }

    #[test]
    fn the_key_is_taken_out_in_every_form_a_server_echoes() {
        use base64::Engine as _;
        use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
        let key = "sk-proj/AbC+d=e?f~g_h";
        let echoes = [
            key.to_owned(),
            "sk-proj%2FAbC%2Bd%3De%3Ff~g_h".to_owned(),
            "sk-proj%2fAbC%2bd%3de%3ff~g_h".to_owned(),
            form_urlencoded::byte_serialize(key.as_bytes()).collect(),
            STANDARD.encode(key),
            URL_SAFE_NO_PAD.encode(key),
        ];
        for echo in echoes {
            let answer = HttpResponse::new(
                401,
                "http://x/v1/models",
                format!(r#"{{"error":{{"message":"bad key {echo} here"}}}}"#).into_bytes(),
            );
            let f = redacted(status_failure(&answer), Some(key));
            assert!(!f.message.contains(&echo), "{echo}: {}", f.message);
            assert!(f.message.contains("bad key [key] here"), "{}", f.message);
        }
    }

    #[test]
    fn mock_answers_the_first_words() {
        assert_eq!(
            mock_reply("one two three four five six"),
            "one two three four five"
        );
        assert_eq!(mock_reply("  "), "Mock reply");
    }
}
