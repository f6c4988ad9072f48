//! The one dispatch entry point (DESIGN.md "The core"): `handle(request)`
//! hands the request to the resource its first path segment names, then
//! applies the rules every operation shares (document 1,
//! "Authentication", "Read-only mode", "Idempotency") as the operation's
//! declaration states them. The server calls it for every API route; the
//! CLI and embedders call the typed handles, which run the same
//! declarations without a request.
//!
//! A resource's operations reach the dispatch through its line in
//! `resources::OPERATIONS`.

use crate::auth::Auth;
use crate::engine::op::Route;
use crate::engine::request::{Request, Response};
use crate::engine::{Inner, Organiser};
use crate::error::{Error, Result};
use crate::idempotency::{self, Begin};
use crate::resources::{route, segments};

impl Organiser {
    /// Answers one API request: the whole of the JSON API below `/api/v1`.
    pub fn handle(&self, request: &Request) -> Response {
        self.inner
            .handle(request, false)
            .unwrap_or_else(|| unreachable_response("a request allowed to wait was not answered"))
    }

    /// Answers `request` if that needs no wait on the disk or the network:
    /// a read with nothing for the clock to settle first, or a request
    /// refused before it runs. `None` when answering may wait (a write, an
    /// update check, a read that must first settle what the clock made
    /// due): then call [`Organiser::handle`] where blocking is fine. The
    /// server answers on its async workers what this answers, and sends the
    /// rest to its blocking pool.
    pub fn handle_without_waiting(&self, request: &Request) -> Option<Response> {
        self.inner.handle(request, true)
    }
}

fn unreachable_response(why: &str) -> Response {
    Response::error(&Error::Internal(why.into()))
}

impl Inner {
    /// `None` only when `without_waiting` and the request may wait.
    fn handle(&self, request: &Request, without_waiting: bool) -> Option<Response> {
        match self.answer(request, without_waiting) {
            Ok(response) => response,
            Err(error) => {
                if error.status() == 500 {
                    let path = crate::resources::loggable_path(&request.path);
                    tracing::error!(%error, method = request.method.as_str(), %path, "request failed");
                }
                Some(Response::error(&error))
            }
        }
    }

    fn answer(&self, request: &Request, without_waiting: bool) -> Result<Option<Response>> {
        let route = match segments(&request.path) {
            Some((parts, n)) => route(request, &parts[..n]),
            None => Err(Error::NotFound),
        };
        // Without credentials only public routes answer; an unknown route
        // or a malformed query is 401 too, so nothing is revealed.
        // A request at the server's root names no API route: what it does
        // not find is 404, whoever asks.
        if request.auth == Auth::Anonymous
            && !request.at_root
            && !route.as_ref().is_ok_and(Route::public)
        {
            return Err(Error::Unauthorized);
        }
        let route = route?;
        if without_waiting {
            return route.answer_now(self, request);
        }
        if route.licensed() {
            self.require_writable()?;
        }
        let key = request
            .idempotency_key
            .as_deref()
            .filter(|_| route.idempotent());
        let Some(key) = key else {
            return route.run(self, request, |_, _| Ok(())).map(Some);
        };
        if !request.auth.allows_idempotency_key() {
            return Err(Error::bad_param(
                "Idempotency-Key",
                "is accepted only with bearer-token authentication",
            ));
        }
        idempotency::check_key(key)?;
        // A raw body (an upload) is named by its query, type and digest.
        let raw = request.raw.as_ref().map(|raw| {
            serde_json::json!({
                "query": request.query.pairs().collect::<Vec<_>>(),
                "content_type": raw.content_type,
                "sha256": crate::secrets::to_hex(&crate::secrets::sha256(&raw.bytes)),
            })
        });
        let fingerprint = idempotency::fingerprint(
            request.method.as_str(),
            &request.path,
            raw.as_ref().or(request.body.as_ref()),
        );
        let claim = match idempotency::begin(self, key, fingerprint)? {
            Begin::Replay { status, body } => {
                return Ok(Some(Response {
                    status,
                    body: body.map(String::into_bytes),
                    replayed: true,
                    headers: Vec::new(),
                }));
            }
            Begin::Run(claim) => claim,
        };
        route
            .run(self, request, |cx, response| {
                let body = response.body.as_deref().map(String::from_utf8_lossy);
                idempotency::save(cx, &claim, response.status, body.as_deref())
            })
            .map(Some)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use serde_json::json;

    use super::*;
    use crate::engine::request::Method;
    use crate::{ManualClock, Options};

    #[test]
    fn only_what_needs_no_wait_is_answered_without_waiting() {
        let clock = ManualClock::at("2026-03-10T23:59:00Z");
        let org = Organiser::in_memory_with(Options {
            clock: Arc::new(clock.clone()),
            ..Options::default()
        });
        let get = |path: &str| Request::new(Method::Get, path, Auth::Local);
        let add = Request::new(Method::Post, "/tasks", Auth::Local)
            .with_body(json!({"task": {"title": "t", "start_on": "2026-03-11"}}));

        // A new store settles its first today set once.
        assert!(org.handle_without_waiting(&get("/tasks")).is_none());
        assert_eq!(org.handle(&get("/tasks")).status, 200);

        // Reads from memory or a snapshot, and refusals, answer at once.
        for (request, status) in [
            (get("/me"), 200),
            (get("/tasks"), 200),
            (get("/nowhere"), 404),
            (Request::new(Method::Get, "/tasks", Auth::Anonymous), 401),
        ] {
            let answered = org.handle_without_waiting(&request).map(|r| r.status);
            assert_eq!(answered, Some(status), "{}", request.path);
        }
        // Writes wait for the disk.
        assert!(org.handle_without_waiting(&add).is_none());
        assert_eq!(org.handle(&add).status, 201);

        // A calendar feed may take tens of milliseconds to write: it waits
        // where blocking is fine, found or not.
        let made = org.handle(&Request::new(
            Method::Post,
            "/calendar_subscriptions",
            Auth::Local,
        ));
        let url = made.json_value()["data"]["url"]
            .as_str()
            .unwrap()
            .to_owned();
        for path in [url.as_str(), "/ics/unknown.ics"] {
            let mut feed = Request::new(Method::Get, path, Auth::Anonymous);
            feed.at_root = true;
            assert!(org.handle_without_waiting(&feed).is_none(), "{path}");
            assert_ne!(org.handle(&feed).status, 401, "{path}");
        }

        // After midnight the today set must be settled first: that read
        // waits, once.
        clock.advance_secs(120);
        assert!(org.handle_without_waiting(&get("/tasks")).is_none());
        assert!(org.handle_without_waiting(&get("/me")).is_some());
        let today = get("/tasks").with_query(crate::Query::parse("view=today").unwrap());
        let body = org.handle(&today).json_value();
        assert_eq!(body["data"][0]["title"], "t", "{body}");
        assert!(org.handle_without_waiting(&get("/tasks")).is_some());
    }

    #[test]
    fn kept_answers_follow_the_day_and_every_commit() {
        let clock = ManualClock::at("2026-03-10T12:00:00Z");
        let org = Organiser::in_memory_with(Options {
            clock: Arc::new(clock.clone()),
            ..Options::default()
        });
        let today = || {
            let request = Request::new(Method::Get, "/task_counts", Auth::Local);
            org.handle(&request).json_value()["data"]["today"].clone()
        };
        let add = |start: &str| {
            let body = json!({"task": {"title": "t", "start_on": start}});
            let request = Request::new(Method::Post, "/tasks", Auth::Local).with_body(body);
            assert_eq!(org.handle(&request).status, 201);
        };
        assert_eq!(today(), 0);
        add("2026-03-10");
        assert_eq!(today(), 1, "a commit is a new generation");
        add("2026-03-11");
        assert_eq!(today(), 1);
        assert_eq!(today(), 1, "kept");
        clock.advance_secs(86_400);
        assert_eq!(today(), 2, "a new day");
    }

    #[test]
    fn no_two_requests_share_a_key() {
        let request = |query: &str| {
            Request::new(Method::Get, "/tasks", Auth::Local)
                .with_query(crate::Query::parse(query).unwrap())
        };
        let keys = [
            request("a=1&b=2").cache_key(),
            request("a=1%26b%3D2").cache_key(),
            request("a=1").cache_key(),
            request("").cache_key(),
            Request::new(Method::Get, "/tasks?a=1", Auth::Local).cache_key(),
        ];
        for (i, a) in keys.iter().enumerate() {
            for b in &keys[i + 1..] {
                assert_ne!(a, b);
            }
        }
    }
}
