//! Every API request: authentication, body checks, one call to the core,
//! and the core's response as HTTP.

use axum::body::{Body, Bytes, HttpBody};
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, Method as HttpMethod, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use organiser_core::limits::MAX_JSON_BODY_BYTES;
use organiser_core::{
    Auth, Error, list::Query, options::APP, server::Method, server::RawBody, server::Request,
};
use subtle::ConstantTimeEq;

use crate::AppState;
use crate::error::{ApiError, json_body};
use crate::origin::Origin;
use crate::session::SESSION_COOKIE;

const API_PREFIX: &str = "/api/v1";

pub(crate) async fn api(
    State(state): State<AppState>,
    request: axum::extract::Request,
) -> Response {
    if let Some(refusal) = crate::middleware::refused(&state, &request) {
        return refusal;
    }
    let peer = crate::origin::peer(&request);
    let (parts, body) = request.into_parts();
    let (method, uri, headers) = (&parts.method, &parts.uri, &parts.headers);
    let origin = Origin::new(&state.config, peer, headers);
    match translate(&state, &origin, method, uri, headers, body).await {
        Ok(Translated::Core(request)) => {
            // Reads take microseconds on a snapshot: the core answers them
            // here rather than paying for a hop to the blocking pool.
            if let Some(response) = state.org.handle_without_waiting(&request) {
                return render(response);
            }
            // Writes wait for the disk (update checks for the network, and
            // a read that must first settle what the clock made due).
            let org = state.org.clone();
            match tokio::task::spawn_blocking(move || org.handle(&request)).await {
                Ok(response) => render(response),
                Err(_) => {
                    ApiError(Error::Internal("the request's task failed".into())).into_response()
                }
            }
        }
        Ok(Translated::Discovery) => {
            let discovery = state.org.discovery(&origin.base_url());
            match serde_json::to_string(&discovery) {
                Ok(body) => (StatusCode::OK, json_body(body)).into_response(),
                Err(e) => ApiError(Error::Internal(e.to_string())).into_response(),
            }
        }
        Err(error) => ApiError(error).into_response(),
    }
}

/// `GET /healthz`: 200 `{"status":"ok"}` while the store answers a read,
/// 503 `{"status":"unavailable"}` when it does not. It needs no token,
/// says nothing of the owner and is not rate limited: health checkers poll.
pub(crate) async fn health(State(state): State<AppState>) -> Response {
    health_answer(state.org.health())
}

fn health_answer(health: Result<(), Error>) -> Response {
    let (status, body) = match health {
        Ok(()) => (StatusCode::OK, r#"{"status":"ok"}"#),
        Err(error) => {
            tracing::error!(%error, "health check: the store is unavailable");
            (
                StatusCode::SERVICE_UNAVAILABLE,
                r#"{"status":"unavailable"}"#,
            )
        }
    };
    let mut response = (status, json_body(body)).into_response();
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

// Made once per request and moved once: boxing the large variant would add
// an allocation to every request for nothing.
#[allow(clippy::large_enum_variant)]
enum Translated {
    Core(Request),
    Discovery,
}

async fn translate(
    state: &AppState,
    origin: &Origin<'_>,
    method: &HttpMethod,
    uri: &Uri,
    headers: &HeaderMap,
    body: Body,
) -> Result<Translated, Error> {
    let path = uri.path();
    let is_discovery = |p: &str| p.strip_prefix("/.well-known/") == Some(APP);
    if is_discovery(path) && (method == HttpMethod::GET || method == HttpMethod::HEAD) {
        return Ok(Translated::Discovery);
    }
    let if_none_match = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let Some(api_path) = path
        .strip_prefix(API_PREFIX)
        .filter(|p| p.is_empty() || p.starts_with('/'))
    else {
        // A route of the core's at the root (a calendar feed) needs no
        // credential: its address is one.
        return match Method::parse(method.as_str()) {
            Some(core_method) if organiser_core::server::serves_at_root(path) => {
                let mut request = Request::new(core_method, path, Auth::Anonymous);
                request.plain_http = origin.plain_http();
                request.base_url = origin.base_url();
                request.if_none_match = if_none_match;
                request.at_root = true;
                Ok(Translated::Core(request))
            }
            _ => Err(Error::NotFound),
        };
    };
    let Some(core_method) = Method::parse(method.as_str()) else {
        return Err(Error::NotFound);
    };
    let auth = authenticate(state, headers, method).await?;
    let query_text = uri.query().unwrap_or_default();
    // Uploads take the file's bytes; every other route takes JSON.
    let (body, raw, query) = match organiser_core::server::raw_body_rule(
        core_method,
        api_path,
        &Query::default(),
        &auth,
    ) {
        None => {
            let body = read_body(headers, body).await?;
            (body, None, Query::parse(query_text)?)
        }
        Some(_) => {
            let query = Query::parse(query_text)?;
            let raw = read_raw(core_method, api_path, &query, &auth, headers, body).await?;
            (None, Some(raw), query)
        }
    };
    let idempotency_key = match headers.get("idempotency-key") {
        None => None,
        Some(v) => Some(
            v.to_str()
                .map_err(|_| Error::bad_param("Idempotency-Key", "must be visible ASCII"))?
                .to_owned(),
        ),
    };
    Ok(Translated::Core(Request {
        method: core_method,
        path: api_path.to_owned(),
        query,
        body,
        raw,
        auth,
        idempotency_key,
        plain_http: origin.plain_http(),
        // Discovery's and the photos' addresses are absolute.
        base_url: origin.base_url(),
        range: headers
            .get(header::RANGE)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned),
        if_none_match,
        at_root: false,
    }))
}

/// Whether the request bears the local administrator token of
/// `server.json` (the CLI at the machine).
pub(crate) fn is_local(state: &AppState, headers: &HeaderMap) -> bool {
    let Some(local) = &state.config.local_token else {
        return false;
    };
    headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| {
            v.strip_prefix("Bearer ")
                .or_else(|| v.strip_prefix("bearer "))
        })
        .is_some_and(|token| bool::from(token.trim().as_bytes().ct_eq(local.as_bytes())))
}

/// Bearer token (the local administrator's, or an API token), else a
/// session cookie, else nobody. A bad credential is 401 at once.
async fn authenticate(
    state: &AppState,
    headers: &HeaderMap,
    method: &HttpMethod,
) -> Result<Auth, Error> {
    if let Some(value) = headers.get(header::AUTHORIZATION) {
        let value = value.to_str().map_err(|_| Error::Unauthorized)?;
        let token = value
            .strip_prefix("Bearer ")
            .or_else(|| value.strip_prefix("bearer "))
            .ok_or(Error::Unauthorized)?
            .trim();
        if let Some(local) = &state.config.local_token
            && bool::from(token.as_bytes().ct_eq(local.as_bytes()))
        {
            return Ok(Auth::Local);
        }
        // A seen token is checked in memory; only its first use reads the store.
        return state.org.authenticate_token(token);
    }
    if let Some(secret) = cookie(headers, SESSION_COOKIE) {
        let csrf = headers
            .get("x-csrf-token")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let unsafe_method = !matches!(
            *method,
            HttpMethod::GET | HttpMethod::HEAD | HttpMethod::OPTIONS
        );
        let org = state.org.clone();
        return tokio::task::spawn_blocking(move || {
            org.authenticate_session(&secret, csrf.as_deref(), unsafe_method)
        })
        .await
        .map_err(|_| Error::Internal("authentication task failed".into()))?;
    }
    Ok(Auth::Anonymous)
}

pub(crate) fn cookie(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v.to_owned())
}

fn is_json(headers: &HeaderMap) -> bool {
    let Some(value) = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
    else {
        return false;
    };
    let essence = value
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase();
    essence == "application/json"
        || (essence.starts_with("application/") && essence.ends_with("+json"))
}

/// The JSON body: 413 past the limit, 415 when it is not JSON, 400 when it
/// does not parse. An empty body is no body.
pub(crate) async fn read_body(
    headers: &HeaderMap,
    body: Body,
) -> Result<Option<serde_json::Value>, Error> {
    if HttpBody::is_end_stream(&body) {
        return Ok(None);
    }
    let too_large = Error::PayloadTooLarge {
        limit: MAX_JSON_BODY_BYTES,
    };
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > MAX_JSON_BODY_BYTES) {
        return Err(too_large);
    }
    let bytes: Bytes = axum::body::to_bytes(body, MAX_JSON_BODY_BYTES as usize)
        .await
        .map_err(|_| too_large)?;
    if bytes.is_empty() {
        return Ok(None);
    }
    if !is_json(headers) {
        return Err(Error::UnsupportedMediaType);
    }
    serde_json::from_slice(&bytes)
        .map(Some)
        .map_err(|e| Error::InvalidJson(invalid_json_message(&e)))
}

/// The raw body of a route that takes bytes (an upload), checked as the
/// core says before a byte is read: 411 without `Content-Length`, 413 past
/// the kind's size, 415 for a `Content-Type` the kind does not take.
async fn read_raw(
    method: Method,
    path: &str,
    query: &Query,
    auth: &Auth,
    headers: &HeaderMap,
    body: Body,
) -> Result<RawBody, Error> {
    let rule = organiser_core::server::raw_body_rule(method, path, query, auth)
        .ok_or_else(|| Error::Internal("a raw route is no longer raw".into()))??;
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok())
        .ok_or(Error::LengthRequired)?;
    let content_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    organiser_core::server::check_raw_header(rule, &content_type, declared)?;
    let bytes = axum::body::to_bytes(body, rule.max_bytes as usize)
        .await
        .map_err(|_| Error::PayloadTooLarge {
            limit: rule.max_bytes,
        })?;
    Ok(RawBody {
        content_type,
        bytes: bytes.into(),
    })
}

/// What is wrong with a body that does not parse, in plain words and with
/// its place: "The body is not valid JSON: expected a value at line 1,
/// column 7." serde_json's own wording ("EOF while parsing a list") is
/// for programmers; its error's kind and place are all we take from it.
fn invalid_json_message(error: &serde_json::Error) -> String {
    use serde_json::error::Category;
    // serde_json says only the category as data; the exact kind is in its
    // text, which the table below turns into ours (a kind it does not
    // know falls back to its category).
    const KINDS: &[(&str, &str)] = &[
        (
            "EOF while parsing a list",
            "it ends before a list is closed",
        ),
        (
            "EOF while parsing an object",
            "it ends before an object is closed",
        ),
        (
            "EOF while parsing a string",
            "it ends before a string is closed",
        ),
        (
            "EOF while parsing a value",
            "it ends where a value was expected",
        ),
        ("expected `:`", "expected a colon after an object's key"),
        (
            "expected `,` or `]`",
            "expected a comma or the end of a list",
        ),
        (
            "expected `,` or `}`",
            "expected a comma or the end of an object",
        ),
        ("expected ident", "expected true, false or null"),
        ("expected value", "expected a value"),
        ("expected `\"`", "expected a key in double quotes"),
        ("invalid escape", "a string has an invalid backslash escape"),
        ("invalid number", "a number is malformed"),
        ("number out of range", "a number is out of range"),
        (
            "invalid unicode code point",
            "a string holds an invalid character",
        ),
        (
            "control character",
            "a string holds a control character (such as a line break) that must be escaped",
        ),
        ("key must be a string", "an object's key must be a string"),
        (
            "lone leading surrogate",
            "a string has an incomplete \\u escape",
        ),
        (
            "unexpected end of hex escape",
            "a string has an incomplete \\u escape",
        ),
        ("trailing comma", "expected another item after a comma"),
        ("trailing characters", "something follows the JSON value"),
        ("recursion limit exceeded", "it is nested too deeply"),
    ];
    let text = error.to_string();
    let what = KINDS
        .iter()
        .find(|(theirs, _)| text.starts_with(theirs))
        .map(|(_, ours)| *ours)
        .unwrap_or(match error.classify() {
            Category::Eof => "it ends too early",
            Category::Syntax => "it is malformed",
            Category::Data => "it does not have the expected shape",
            Category::Io => "it could not be read",
        });
    // serde_json counts columns from 1; column 0 is a line's break, which
    // belongs to the end of the line before.
    match (error.line(), error.column()) {
        (0, _) => format!("The body is not valid JSON: {what}."),
        (1, 0) => format!("The body is not valid JSON: {what} at its start."),
        (line, 0) => format!(
            "The body is not valid JSON: {what} at the end of line {}.",
            line - 1
        ),
        (line, column) => {
            format!("The body is not valid JSON: {what} at line {line}, column {column}.")
        }
    }
}

/// The core's answer as HTTP. A HEAD answer keeps the GET's body here:
/// hyper sends no body for HEAD, and its Content-Length then says the
/// GET's length, as HEAD must.
fn render(response: organiser_core::server::Response) -> Response {
    let status = StatusCode::from_u16(response.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let own_type = response.header("content-type").is_some();
    let mut out = match response.body {
        // A file the core answers (a photo) goes as it is, with its type.
        Some(body) if own_type => (status, Body::from(body)).into_response(),
        Some(body) => (status, json_body(body)).into_response(),
        None => status.into_response(),
    };
    if response.replayed {
        out.headers_mut()
            .insert("idempotent-replayed", HeaderValue::from_static("true"));
    }
    for (name, value) in &response.headers {
        if let Ok(value) = HeaderValue::from_str(value) {
            out.headers_mut().insert(*name, value);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{health_answer, invalid_json_message};
    use axum::http::StatusCode;

    #[tokio::test]
    async fn an_unusable_store_is_503_unavailable() {
        let body = |response: axum::response::Response| async {
            let bytes = axum::body::to_bytes(response.into_body(), 1024)
                .await
                .unwrap();
            String::from_utf8(bytes.to_vec()).unwrap()
        };
        let ok = health_answer(Ok(()));
        assert_eq!(ok.status(), StatusCode::OK);
        assert_eq!(body(ok).await, r#"{"status":"ok"}"#);
        let failed = health_answer(Err(organiser_core::Error::Storage("disk gone".into())));
        assert_eq!(failed.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(failed.headers()["content-type"], "application/json");
        assert_eq!(body(failed).await, r#"{"status":"unavailable"}"#);
    }

    fn message(body: &str) -> String {
        let error = serde_json::from_str::<serde_json::Value>(body).unwrap_err();
        invalid_json_message(&error)
    }

    #[test]
    fn invalid_json_is_said_in_plain_words_with_its_place() {
        for (body, expected) in [
            ("{\"a\": }", "expected a value at line 1, column 7"),
            (
                "{\"a\": [1, 2",
                "it ends before a list is closed at line 1, column 11",
            ),
            (
                "{\"a\": 1",
                "it ends before an object is closed at line 1, column 7",
            ),
            (
                "{\"a\": \"text",
                "it ends before a string is closed at line 1, column 11",
            ),
            (
                "{\"a\":",
                "it ends where a value was expected at line 1, column 5",
            ),
            (
                " ",
                "it ends where a value was expected at line 1, column 1",
            ),
            (
                "nul",
                "it ends where a value was expected at line 1, column 3",
            ),
            (
                "{\"a\" 1}",
                "expected a colon after an object's key at line 1, column 6",
            ),
            (
                "[1 2]",
                "expected a comma or the end of a list at line 1, column 4",
            ),
            (
                "{\"a\": 1 \"b\": 2}",
                "expected a comma or the end of an object at line 1, column 9",
            ),
            ("nux", "expected true, false or null at line 1, column 3"),
            (
                "{'a': 1}",
                "an object's key must be a string at line 1, column 2",
            ),
            (
                "\"\\q\"",
                "a string has an invalid backslash escape at line 1, column 3",
            ),
            ("-x", "a number is malformed at line 1, column 2"),
            ("1e999", "a number is out of range at line 1, column 5"),
            (
                "\"a\nb\"",
                "a string holds a control character (such as a line break) that must be escaped at the end of line 1",
            ),
            (
                "{1: 2}",
                "an object's key must be a string at line 1, column 2",
            ),
            (
                "\"\\ud800\"",
                "a string has an incomplete \\u escape at line 1, column 8",
            ),
            (
                "[1,]",
                "expected another item after a comma at line 1, column 4",
            ),
            (
                "{} x",
                "something follows the JSON value at line 1, column 4",
            ),
        ] {
            assert_eq!(
                message(body),
                format!("The body is not valid JSON: {expected}."),
                "{body:?}"
            );
        }
        let deep = "[".repeat(200);
        assert_eq!(
            message(&deep),
            "The body is not valid JSON: it is nested too deeply at line 1, column 128."
        );
        let not_utf8 = serde_json::from_slice::<serde_json::Value>(b"\"\xff\"").unwrap_err();
        assert_eq!(
            invalid_json_message(&not_utf8),
            "The body is not valid JSON: a string holds an invalid character at line 1, column 2."
        );
    }
}
