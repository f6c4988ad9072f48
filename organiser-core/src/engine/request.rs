//! The request and response of the one dispatch entry point (DESIGN.md
//! "The core"): method, path below `/api/v1`, query, JSON body and
//! principal in; status and the spec's JSON envelope (document 1,
//! "Conventions") out.

use serde::Serialize;
use serde_json::Value;

use crate::auth::Auth;
use crate::error::Error;
use crate::list::Query;

/// An HTTP method the API uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Method {
    /// GET
    Get,
    /// POST
    Post,
    /// PUT
    Put,
    /// PATCH
    Patch,
    /// DELETE
    Delete,
}

impl Method {
    /// Parses an HTTP method name; `None` for one the API does not use.
    pub fn parse(name: &str) -> Option<Method> {
        Some(match name {
            "GET" | "HEAD" => Method::Get,
            "POST" => Method::Post,
            "PUT" => Method::Put,
            "PATCH" => Method::Patch,
            "DELETE" => Method::Delete,
            _ => return None,
        })
    }

    /// The method's name.
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Get => "GET",
            Method::Post => "POST",
            Method::Put => "PUT",
            Method::Patch => "PATCH",
            Method::Delete => "DELETE",
        }
    }
}

/// One API request, as an adapter hands it over.
#[derive(Debug, Clone)]
pub struct Request {
    /// The method.
    pub method: Method,
    /// The path below `/api/v1`, e.g. `/tasks/01ARZ3NDEKTSV4RRFFQ69G5FAV`.
    pub path: String,
    /// The decoded query.
    pub query: Query,
    /// The parsed JSON body, when one was sent.
    pub body: Option<Value>,
    /// The raw body of a route that takes bytes rather than JSON (uploads;
    /// see [`crate::raw_body_rule`]), when one was sent.
    pub raw: Option<RawBody>,
    /// Who is asking.
    pub auth: Auth,
    /// The `Idempotency-Key` header.
    pub idempotency_key: Option<String>,
    /// Whether the request came over plain HTTP (for `System.plain_http`).
    pub plain_http: bool,
    /// The server's address as the client reached it (for discovery).
    pub base_url: String,
    /// The `Range` header, for the routes that serve files in parts.
    pub range: Option<String>,
    /// The `If-None-Match` header, for the answers that carry an `ETag`
    /// (a calendar subscription's feed).
    pub if_none_match: Option<String>,
    /// Whether the request was made at the server's root rather than
    /// below `/api/v1`: only the operations declared there answer it (the
    /// calendar feed, `/ics/{secret}.ics`), and they answer nothing else.
    pub at_root: bool,
}

impl Request {
    /// A request with no query, body or key, made by `auth`.
    pub fn new(method: Method, path: impl Into<String>, auth: Auth) -> Request {
        Request {
            method,
            path: path.into(),
            query: Query::default(),
            body: None,
            raw: None,
            auth,
            idempotency_key: None,
            plain_http: true,
            base_url: String::new(),
            range: None,
            if_none_match: None,
            at_root: false,
        }
    }

    /// What names this request among kept answers: the path and each
    /// query parameter, every part behind its length so no two requests
    /// share a key.
    pub(crate) fn cache_key(&self) -> String {
        use std::fmt::Write;
        let mut key = String::with_capacity(64);
        // The base URL too: answers hold absolute addresses (photos).
        for part in [self.base_url.as_str(), self.path.as_str()]
            .into_iter()
            .chain(self.query.pairs().flat_map(|(name, value)| [name, value]))
        {
            let _ = write!(key, "{}:{part}", part.len());
        }
        key
    }

    /// With this query.
    pub fn with_query(mut self, query: Query) -> Request {
        self.query = query;
        self
    }

    /// With this JSON body.
    pub fn with_body(mut self, body: Value) -> Request {
        self.body = Some(body);
        self
    }

    /// With this raw body (an upload's bytes and its `Content-Type`).
    pub fn with_raw(mut self, content_type: impl Into<String>, bytes: Vec<u8>) -> Request {
        self.raw = Some(RawBody {
            content_type: content_type.into(),
            bytes,
        });
        self
    }
}

/// The body of a route that takes bytes (an upload): the bytes as sent and
/// the `Content-Type` header's media type.
#[derive(Clone, PartialEq, Eq)]
pub struct RawBody {
    /// The `Content-Type` header, as sent (parameters included).
    pub content_type: String,
    /// The bytes.
    pub bytes: Vec<u8>,
}

impl RawBody {
    /// The media type without parameters, in lower case.
    pub fn media_type(&self) -> String {
        media_type(&self.content_type)
    }
}

/// `image/png; q=1` as `image/png`: the essence of a `Content-Type`, in
/// lower case.
pub fn media_type(content_type: &str) -> String {
    content_type
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase()
}

impl std::fmt::Debug for RawBody {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RawBody")
            .field("content_type", &self.content_type)
            .field("bytes", &self.bytes.len())
            .finish()
    }
}

/// A file's bytes (a document's PDF, a thumbnail, a photo), with what
/// their HTTP answer says of them.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FileBytes {
    /// The media type.
    pub content_type: String,
    /// The file's name, where it has one.
    pub filename: String,
    /// The bytes.
    pub bytes: Vec<u8>,
}

/// The answer to a [`Request`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Response {
    /// The HTTP status.
    pub status: u16,
    /// The JSON body; `None` for 204.
    pub body: Option<Vec<u8>>,
    /// Whether this is a stored response replayed for an `Idempotency-Key`.
    pub replayed: bool,
    /// Headers of its own (lower-case names): a `content-type` other than
    /// JSON (an image), a `location` (a redirect), a `cache-control`.
    pub headers: Vec<(&'static str, String)>,
}

impl FileBytes {
    /// The file an answer holds, as a remote door reads it back: its type,
    /// the name of its `Content-Disposition`, and its bytes.
    pub(crate) fn of_answer(response: &Response) -> FileBytes {
        let filename = response
            .header("content-disposition")
            .and_then(|d| d.split("filename=\"").nth(1))
            .and_then(|rest| rest.split('"').next())
            .unwrap_or_default()
            .to_owned();
        FileBytes {
            content_type: response
                .header("content-type")
                .unwrap_or("application/octet-stream")
                .to_owned(),
            filename,
            bytes: response.body.clone().unwrap_or_default(),
        }
    }
}

impl Response {
    /// `file` as an attachment to save under its name, which no cache
    /// keeps (a backup, an export).
    pub(crate) fn attachment(file: FileBytes) -> Response {
        let mut response = Response::file(&file.content_type, file.bytes);
        response
            .headers
            .retain(|(name, _)| *name != "cache-control");
        response
            .headers
            .push(("cache-control", "private, no-store".to_owned()));
        response.headers.push((
            "content-disposition",
            format!("attachment; filename=\"{}\"", file.filename),
        ));
        response
    }

    /// `{data: value}` with `status`.
    pub fn data(status: u16, value: &impl Serialize) -> Response {
        Response::data_sized(status, value, 1024)
    }

    /// `value` as the body, unwrapped.
    pub fn json(status: u16, value: &impl Serialize) -> Response {
        // Most bodies are a few hundred bytes to a few dozen kilobytes:
        // start big enough to skip the first rounds of growing.
        Response::json_sized(status, value, 1024)
    }

    /// As [`Response::data`], for a body of about `bytes` bytes (a large
    /// answer is written without growing its buffer again and again).
    pub(crate) fn data_sized(status: u16, value: &impl Serialize, bytes: usize) -> Response {
        #[derive(Serialize)]
        struct Envelope<'a, T> {
            data: &'a T,
        }
        Response::json_sized(status, &Envelope { data: value }, bytes)
    }

    fn json_sized(status: u16, value: &impl Serialize, bytes: usize) -> Response {
        let mut body = Vec::with_capacity(bytes);
        match serde_json::to_writer(&mut body, value) {
            Ok(()) => Response {
                status,
                body: Some(body),
                replayed: false,
                headers: Vec::new(),
            },
            Err(e) => Response::error(&Error::Internal(format!("rendering: {e}"))),
        }
    }

    /// 204 with no body.
    pub fn no_content() -> Response {
        Response {
            status: 204,
            body: None,
            replayed: false,
            headers: Vec::new(),
        }
    }

    /// The error body with the error's status.
    pub fn error(error: &Error) -> Response {
        Response {
            status: error.status(),
            body: Some(error.to_body().to_string().into_bytes()),
            replayed: false,
            headers: Vec::new(),
        }
    }

    /// `bytes` as they are, of `content_type`, kept by caches for a year
    /// (a file whose address never names another), never read by a
    /// browser as any other type (`nosniff`).
    pub fn file(content_type: &str, bytes: Vec<u8>) -> Response {
        Response {
            status: 200,
            body: Some(bytes),
            replayed: false,
            headers: vec![
                ("content-type", content_type.to_owned()),
                (
                    "cache-control",
                    "public, max-age=31536000, immutable".to_owned(),
                ),
                ("x-content-type-options", "nosniff".to_owned()),
            ],
        }
    }

    /// 302 to `location`.
    pub fn redirect(location: String) -> Response {
        Response {
            status: 302,
            body: None,
            replayed: false,
            headers: vec![("location", location)],
        }
    }

    /// The header `name`, when it has one of its own.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The body as JSON (`Null` for none).
    pub fn json_value(&self) -> Value {
        self.body
            .as_deref()
            .and_then(|b| serde_json::from_slice(b).ok())
            .unwrap_or(Value::Null)
    }
}
