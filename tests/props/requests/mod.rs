//! No request fails badly: any method on any path of the route table (with
//! the IDs of records that exist, were deleted or never did, malformed
//! ones, extra or missing segments), with any query (good and malformed
//! list parameters, views, unknown keys, huge numbers, bad dates, cursors
//! from other listings) and any body (well-formed and malformed values of
//! every JSON type, wrong wrappers, huge strings, NUL characters, nested
//! junk, near misses of good requests, the previous request again with
//! its `Idempotency-Key`), as the owner at the machine, with an API
//! token, a web session or nothing, on a store that a random sequence of
//! operations filled (now and then read-only: no licence, trial over).
//! Then:
//!
//! - the answer is never a panic nor a 500, and its status is one the
//!   spec's Errors table has;
//! - a 4xx body is exactly `{error: {code, message, details?}}`, its
//!   `code` one the spec lists for that status, `details` (required for
//!   `invalid_parameter` and `validation_failed`) phrases by field;
//! - an unknown route, or a method its path does not take, is 404
//!   `not_found`; without credentials everything but discovery is 401;
//!   on a route of the spec, the status is among those its endpoint lists;
//! - a request that fails (status >= 400), and any GET, leaves the store
//!   byte for byte as it was (`Organiser::raw_export`), but for a failed
//!   call to a provider (a check, a trial), which is recorded on it: its
//!   tables alone may change. Reads of tasks first settle what the clock
//!   made due (a write), so each request is preceded by a settling
//!   `GET /tasks` at the same instant, and the clock does not move
//!   between the "before" export and the request.
//!
//! A query that does not decode (a parameter given twice) is answered by
//! the adapter with the error `Query::parse` gives; that error is checked
//! for its shape too, and the request goes no further, as over HTTP.
//! Bytes that are not JSON at all, content types, and body sizes are the
//! server's to refuse (`invalid_json`, 415, 413) and are not reached
//! through `Organiser::handle`.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::time::Instant;

use organiser::{Auth, list::Query, server::Method, server::Request, server::Response};
use proptest::test_runner::{TestCaseError, TestRunner};
use serde_json::{Map, Number, Value, json};

mod generate;
mod routes;

use Method::{Delete, Get, Post};

use generate::*;
use routes::*;

use crate::fixture::{Call, Reply, Store};
use crate::ops::{Start, UNKNOWN_ID, World};

const REGRESSIONS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/props/proptest-regressions/requests.txt"
);

macro_rules! ensure {
    ($cond:expr, $($fmt:tt)+) => {
        if !$cond {
            return Err(TestCaseError::fail(format!($($fmt)+)));
        }
    };
}

// ---------------------------------------------------------------- making requests

/// What a case knows besides the world: cursors seen and the token.
struct Session {
    world: World,
    cursors: Vec<String>,
    token_secret: String,
    /// Method, path, body and key of the previous request.
    last: Option<(Method, String, Option<Value>, Option<String>)>,
}

impl Session {
    fn id(&self, r: &IdRef) -> String {
        match r {
            IdRef::Made(n) => self
                .world
                .any_id(usize::from(*n))
                .unwrap_or(UNKNOWN_ID)
                .to_owned(),
            IdRef::Lower(n) => self
                .world
                .any_id(usize::from(*n))
                .unwrap_or(UNKNOWN_ID)
                .to_lowercase(),
            IdRef::Unknown => UNKNOWN_ID.to_owned(),
            IdRef::Malformed(s) => (*s).to_owned(),
        }
    }

    fn text(&self, t: &Text) -> String {
        match t {
            Text::Lit(s) => (*s).to_owned(),
            Text::Own(s) => s.clone(),
            Text::Id(r) => self.id(r),
            Text::Instant(h) => (self.world.store.org.now()
                + jiff::SignedDuration::from_hours(i64::from(*h)))
            .to_string(),
            Text::Day(d) => {
                use jiff::ToSpan;
                (self.world.store.org.today() + i64::from(*d).days()).to_string()
            }
            Text::Cursor(n) => {
                if self.cursors.is_empty() {
                    "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.x".to_owned()
                } else {
                    self.cursors[usize::from(*n) % self.cursors.len()].clone()
                }
            }
            Text::Huge(n, c) => std::iter::repeat_n(*c, *n as usize).collect(),
        }
    }

    fn json(&self, j: &J) -> Value {
        match j {
            J::Null => Value::Null,
            J::Bool(b) => json!(b),
            J::Int(i) => json!(i),
            J::Big(u) => json!(u),
            J::Float(f) => Number::from_f64(*f).map_or(Value::Null, Value::Number),
            J::Str(t) => Value::String(self.text(t)),
            J::Arr(items) => Value::Array(items.iter().map(|i| self.json(i)).collect()),
            J::Obj(fields) => {
                let mut map = Map::new();
                for (k, v) in fields {
                    map.insert(self.text(k), self.json(v));
                }
                Value::Object(map)
            }
            J::Deep(depth, arr) => {
                let mut v = json!("bottom");
                for _ in 0..*depth {
                    v = if *arr {
                        json!([v])
                    } else {
                        json!({ "task": v })
                    };
                }
                v
            }
        }
    }

    /// Method, path, body and (for a repeat) key of a request.
    fn target(&self, kind: &Kind) -> (Method, String, Option<Value>, Option<String>) {
        let (method, path, body) = match kind {
            Kind::Again { body } => {
                if let Some((method, path, last_body, key)) = &self.last {
                    let body = match body {
                        None => last_body.clone(),
                        Some(b) => b.as_ref().map(|b| self.json(b)),
                    };
                    return (*method, path.clone(), body, key.clone());
                }
                (Get, "/tasks".to_owned(), None)
            }
            Kind::Random { method, path, body } => {
                let method = method
                    .or_else(|| ROUTES.get(path.route).map(|r| r.methods[0]))
                    .unwrap_or(Get);
                (method, self.path(path), body.as_ref().map(|b| self.json(b)))
            }
            Kind::Near { op, junk } => {
                let Some(planned) = self.world.call_for(op) else {
                    return (Get, "/tasks".to_owned(), None, None);
                };
                let mut body = planned.call.body;
                if let Some(record) = body
                    .as_mut()
                    .and_then(Value::as_object_mut)
                    .and_then(|outer| outer.values_mut().next())
                    .and_then(Value::as_object_mut)
                {
                    for (k, v) in junk {
                        record.insert(self.text(k), self.json(v));
                    }
                }
                (planned.call.method, planned.call.path, body)
            }
        };
        (method, path, body, None)
    }

    fn path(&self, p: &PathGen) -> String {
        let template = match ROUTES.get(p.route) {
            Some(r) => r.path,
            None => UNSERVED[p.route - ROUTES.len()],
        };
        let mut path = template
            .replacen("{id}", &self.id(&p.ids.0), 1)
            .replacen("{id}", &self.id(&p.ids.1), 1)
            .replacen("{n}", &self.id(&p.ids.1), 1)
            .replacen("{key}", "note_titles", 1);
        match &p.bend {
            Bend::None => {}
            Bend::TrailingSlash => path.push('/'),
            Bend::DoubleSlash => path = path.replacen('/', "//", 2),
            Bend::NoLeadingSlash => path = path.trim_start_matches('/').to_owned(),
            Bend::Extra(t) => {
                path.push('/');
                path.push_str(&self.text(t));
            }
            Bend::DropLast => {
                if let Some(i) = path.rfind('/') {
                    path.truncate(i);
                }
            }
            Bend::Replace(t) => path = format!("/{}", self.text(t)),
            Bend::Long(n) => {
                for i in 0..*n {
                    path.push_str(&format!("/s{i}"));
                }
            }
        }
        path
    }

    fn query(&self, r: &Req) -> String {
        let pairs: Vec<String> = r
            .query
            .iter()
            .map(|(k, v)| format!("{}={}", encode(&self.text(k)), encode(&self.text(v))))
            .collect();
        let mut raw = pairs.join("&");
        match &r.raw {
            Raw::None => {}
            Raw::Twice => {
                if let Some(first) = pairs.first() {
                    raw = format!("{raw}&{first}");
                }
            }
            Raw::Junk(j) => raw = format!("{raw}&{j}"),
        }
        raw
    }
}

/// Percent-encodes everything but unreserved characters.
fn encode(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The route a path and method reach: `Some((route, true))` when a route
/// takes the path with this method, `Some((route, false))` when its path
/// matches but not the method, `None` when no path matches.
fn matched(method: Method, path: &str) -> Option<(&'static Route, bool)> {
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let fits = |r: &Route| {
        let t: Vec<&str> = r.path.split('/').filter(|s| !s.is_empty()).collect();
        t.len() == segments.len()
            && t.iter()
                .zip(&segments)
                .all(|(t, s)| t.starts_with('{') || t == s)
    };
    let mut path_only = None;
    for r in ROUTES.iter().filter(|r| fits(r)) {
        if r.methods.contains(&method) {
            return Some((r, true));
        }
        path_only = Some((r, false));
    }
    path_only
}

// ---------------------------------------------------------------- checks

/// `{error: {code, message, details?}}` with a code of the status.
fn check_error_shape(status: u16, body: &Value) -> Result<(), String> {
    let Some(outer) = body.as_object() else {
        return Err(format!("{status}: the body is not an object: {body}"));
    };
    if outer.len() != 1 || !outer.contains_key("error") {
        return Err(format!("{status}: the body is not {{error}} alone: {body}"));
    }
    let Some(error) = outer["error"].as_object() else {
        return Err(format!("{status}: `error` is not an object: {body}"));
    };
    if let Some(extra) = error
        .keys()
        .find(|k| !["code", "message", "details"].contains(&k.as_str()))
    {
        return Err(format!("{status}: `error` has `{extra}`: {body}"));
    }
    let code = error.get("code").and_then(Value::as_str).unwrap_or("");
    if !codes(status).contains(&code) {
        return Err(format!(
            "{status} with code {code:?}, not one the spec lists for it ({:?}): {body}",
            codes(status)
        ));
    }
    match error.get("message").and_then(Value::as_str) {
        Some(m) if !m.trim().is_empty() => {}
        _ => return Err(format!("{status}: no message: {body}")),
    }
    match error.get("details") {
        None => {
            if ["invalid_parameter", "validation_failed"].contains(&code) {
                return Err(format!("{status} {code} without details: {body}"));
            }
        }
        Some(Value::Object(details)) => {
            if details.is_empty() {
                return Err(format!("{status}: empty details: {body}"));
            }
            for (field, phrases) in details {
                let ok = phrases.as_array().is_some_and(|p| {
                    !p.is_empty()
                        && p.iter()
                            .all(|x| x.as_str().is_some_and(|s| !s.trim().is_empty()))
                });
                if !ok {
                    return Err(format!(
                        "{status}: details.{field} is not an array of phrases: {body}"
                    ));
                }
            }
        }
        Some(_) => return Err(format!("{status}: details is not an object: {body}")),
    }
    Ok(())
}

const STATUSES: &[u16] = &[
    200, 201, 204, 400, 401, 403, 404, 409, 411, 413, 415, 422, 429,
];

/// Everything the answer must be, whatever the store changed.
fn check_reply(
    method: Method,
    path: &str,
    who: Who,
    key_sent: bool,
    reply: &Reply,
) -> Result<(), String> {
    let status = reply.status;
    if !STATUSES.contains(&status) {
        return Err(format!("status {status}: {}", reply.body));
    }
    if status >= 400 {
        check_error_shape(status, &reply.body)?;
    }
    let code = reply.body["error"]["code"].as_str().unwrap_or("");
    let reached = matched(method, path);
    let public = matches!(reached, Some((r, true)) if PUBLIC.contains(&r.path));
    if who == Who::Nobody && !public {
        return if status == 401 {
            Ok(())
        } else {
            Err(format!("{status} without credentials, not 401"))
        };
    }
    let Some((route, true)) = reached else {
        return if status == 404 {
            Ok(())
        } else {
            Err(format!(
                "{status} for a path and method no route takes, not 404"
            ))
        };
    };
    if status >= 400
        && let Some(errors) = route.errors
    {
        let idempotency = key_sent && code.starts_with("idempotency_key");
        if !errors.contains(&status) && !idempotency {
            return Err(format!(
                "{status} {code}: {} {} lists only {errors:?}",
                method.as_str(),
                route.path
            ));
        }
    }
    match status {
        204 if reply.body != Value::Null => {
            return Err(format!("204 with a body: {}", reply.body));
        }
        200 | 206 if FILES.contains(&route.path) => {}
        200 | 201 => {
            let Some(body) = reply.body.as_object() else {
                return Err(format!("{status} without a JSON object: {}", reply.body));
            };
            if !body.contains_key("data") && route.path != "/openapi.json" {
                return Err(format!("{status} without data: {}", reply.body));
            }
            if route.list {
                let meta = &reply.body["meta"];
                let limit = meta["limit"].as_u64().unwrap_or(0);
                let items = reply.body["data"].as_array().map_or(usize::MAX, Vec::len);
                if !(1..=100).contains(&limit)
                    || items as u64 > limit
                    || !(meta["next_cursor"].is_null() || meta["next_cursor"].is_string())
                {
                    return Err(format!("a list with a bad page: {}", reply.body));
                }
            }
        }
        _ => {}
    }
    Ok(())
}

/// Routes whose failed call to a provider is recorded on it
/// (`last_failed_at`, `last_error`, `last_error_reason` and a new
/// `updated_at`; docs/api.md, "Connection calls"): their 422
/// `provider_error` changes the provider, and nothing else.
const RECORD_FAILURES: &[&str] = &["/ai_providers/{id}/check", "/ai_models/{id}/trial"];

/// Whether two exports are equal but for the providers' tables.
fn same_but_providers(
    before: &organiser::data::RawExport,
    after: &organiser::data::RawExport,
) -> bool {
    let others = |e: &organiser::data::RawExport| {
        e.iter()
            .filter(|(name, _)| !name.starts_with("ai_providers"))
            .cloned()
            .collect::<Vec<_>>()
    };
    others(before) == others(after)
}

/// Where two exports differ, for the failure message.
fn export_difference(
    before: &organiser::data::RawExport,
    after: &organiser::data::RawExport,
) -> String {
    let mut out = Vec::new();
    type Tables<'a> = BTreeMap<&'a str, &'a [(Vec<u8>, Vec<u8>)]>;
    let tables: Tables = before
        .iter()
        .map(|(n, e)| (n.as_str(), e.as_slice()))
        .collect();
    let later: Tables = after
        .iter()
        .map(|(n, e)| (n.as_str(), e.as_slice()))
        .collect();
    let names: std::collections::BTreeSet<&str> =
        tables.keys().chain(later.keys()).copied().collect();
    for name in names {
        let (b, a) = (tables.get(name), later.get(name));
        if b != a {
            let b: BTreeMap<_, _> = b.into_iter().flat_map(|e| e.iter().cloned()).collect();
            let a: BTreeMap<_, _> = a.into_iter().flat_map(|e| e.iter().cloned()).collect();
            let gone: Vec<String> = b
                .keys()
                .filter(|k| !a.contains_key(*k))
                .map(|k| String::from_utf8_lossy(k).into_owned())
                .collect();
            let added: Vec<String> = a
                .keys()
                .filter(|k| !b.contains_key(*k))
                .map(|k| String::from_utf8_lossy(k).into_owned())
                .collect();
            let changed: Vec<String> = a
                .iter()
                .filter(|(k, v)| b.get(*k).is_some_and(|old| old != *v))
                .map(|(k, v)| {
                    format!(
                        "{} = {} (was {})",
                        String::from_utf8_lossy(k),
                        String::from_utf8_lossy(v),
                        String::from_utf8_lossy(&b[k])
                    )
                })
                .collect();
            out.push(format!(
                "table {name}: removed {gone:?}, added {added:?}, changed {changed:?}"
            ));
        }
    }
    out.join("\n")
}

// ---------------------------------------------------------------- the property

#[derive(Debug, Default)]
struct Figures {
    cases: u64,
    requests: u64,
    undecodable: u64,
    statuses: BTreeMap<u16, u64>,
    codes: BTreeMap<String, u64>,
    unchanged_checks: u64,
    routes: BTreeMap<String, u64>,
}

fn run(case: &Case, fig: &mut Figures) -> Result<(), TestCaseError> {
    let mut world = World::new(&case.start);
    for op in &case.setup {
        world.apply(op);
    }
    let token = world
        .store
        .org
        .account()
        .create_token("props", None)
        .map_err(|e| TestCaseError::fail(format!("a token: {e}")))?;
    if case.read_only {
        world.store.call(&Call::new(Delete, "/licence")).expect(200);
        world.store.clock.advance_secs(15 * 86_400);
        let licence = world.store.call(&Call::get("/licence")).expect(200);
        ensure!(
            licence.data()["state"] == "read_only",
            "not read-only: {}",
            licence.body
        );
    }
    let mut s = Session {
        world,
        cursors: Vec::new(),
        token_secret: token.secret,
        last: None,
    };
    fig.cases += 1;
    for (clock, r) in &case.requests {
        if let Some(m) = clock {
            s.world.move_clock(*m);
        }
        let store = &s.world.store;
        // Settle what the clock made due, at the instant of the request.
        store.call(&Call::get("/tasks")).expect(200);

        let (method, path, body, again_key) = s.target(&r.kind);
        let raw_query = s.query(r);
        fig.requests += 1;
        let query = match Query::parse(&raw_query) {
            Ok(q) => q,
            Err(e) => {
                // The adapter answers this; the core never sees it.
                fig.undecodable += 1;
                let response = Response::error(&e);
                let reply = Reply {
                    status: response.status,
                    body: response.json_value(),
                };
                ensure!(
                    reply.status == 400,
                    "the query {raw_query:?} was refused with {}",
                    reply.status
                );
                check_error_shape(reply.status, &reply.body)
                    .map_err(|e| TestCaseError::fail(format!("query {raw_query:?}: {e}")))?;
                continue;
            }
        };
        let auth = match r.who {
            Who::Local => Auth::Local,
            Who::Nobody => Auth::Anonymous,
            Who::Session => Auth::Session {
                csrf_token: "csrf".to_owned(),
            },
            Who::Token => match store.org.authenticate_token(&s.token_secret) {
                Ok(auth) => auth,
                // Revoked by an earlier request: the server answers 401.
                Err(_) => continue,
            },
        };
        let mut request = Request::new(method, path.clone(), auth).with_query(query);
        request.body = body;
        request.idempotency_key = match &r.kind {
            Kind::Again { .. } => again_key,
            _ => r.key.as_ref().map(|k| s.text(k)),
        };
        s.last = Some((
            method,
            path.clone(),
            request.body.clone(),
            request.idempotency_key.clone(),
        ));

        let before = store
            .org
            .raw_export()
            .map_err(|e| TestCaseError::fail(format!("export: {e}")))?;
        let reply = store.send(&request);
        let shown = || {
            format!(
                "{} {path:?}?{raw_query} as {:?}, key {:?}, body {}",
                method.as_str(),
                r.who,
                request.idempotency_key,
                request
                    .body
                    .as_ref()
                    .map(|b| {
                        let b = b.to_string();
                        if b.len() > 600 {
                            format!(
                                "{}... ({} bytes)",
                                &b[..b.floor_char_boundary(600)],
                                b.len()
                            )
                        } else {
                            b
                        }
                    })
                    .unwrap_or_default()
            )
        };
        let answer = reply.body.to_string();
        let answer = if answer.len() > 600 {
            format!("{}...", &answer[..answer.floor_char_boundary(600)])
        } else {
            answer
        };
        check_reply(
            method,
            &path,
            r.who,
            request.idempotency_key.is_some(),
            &reply,
        )
        .map_err(|e| TestCaseError::fail(format!("{e}\nrequest: {}\nanswer: {answer}", shown())))?;
        *fig.statuses.entry(reply.status).or_default() += 1;
        if let Some(code) = reply.body["error"]["code"].as_str() {
            *fig.codes.entry(code.to_owned()).or_default() += 1;
        }
        if let Some((route, true)) = matched(method, &path) {
            *fig.routes
                .entry(format!(
                    "{} {} {}",
                    method.as_str(),
                    route.path,
                    reply.status
                ))
                .or_default() += 1;
        }
        if reply.status >= 400 || method == Get {
            let after = store
                .org
                .raw_export()
                .map_err(|e| TestCaseError::fail(format!("export: {e}")))?;
            fig.unchanged_checks += 1;
            let records_failure = reply.status == 422
                && reply.body["error"]["code"] == "provider_error"
                && matches!(matched(method, &path), Some((r, true)) if RECORD_FAILURES.contains(&r.path));
            ensure!(
                if records_failure {
                    same_but_providers(&before, &after)
                } else {
                    before == after
                },
                "{} {} changed the store:\n{}\nrequest: {}\nanswer: {answer}",
                reply.status,
                if method == Get {
                    "(a read)"
                } else {
                    "(refused)"
                },
                export_difference(&before, &after),
                shown()
            );
        }
        if let Some(next) = reply.body["meta"]["next_cursor"].as_str() {
            s.cursors.push(next.to_owned());
        }
        if reply.status == 201
            && let Some((route, true)) = matched(method, &path)
            && let (Some(collection), Some(id)) = (route.creates, reply.data()["id"].as_str())
        {
            s.world.remember(collection, id);
        }
        if reply.ok() {
            // The next occurrence a close made.
            s.world.learn_next(reply.data());
        }
    }
    Ok(())
}

#[test]
fn no_request_fails_badly_and_a_refused_one_changes_nothing() {
    let mut runner = TestRunner::new(crate::config(128, REGRESSIONS));
    let figures = RefCell::new(Figures::default());
    let began = Instant::now();
    let outcome = runner.run(&case(), |case| run(&case, &mut figures.borrow_mut()));
    let f = figures.into_inner();
    eprintln!(
        "no request fails badly: {} cases in {:.1?}; {} requests ({} with a query that does not decode); statuses {:?}; codes {:?}; {} exports compared; {} (method, route, status) seen",
        f.cases,
        began.elapsed(),
        f.requests,
        f.undecodable,
        f.statuses,
        f.codes,
        f.unchanged_checks,
        f.routes.len(),
    );
    if std::env::var_os("PROPS_ROUTES").is_some() {
        for (k, n) in &f.routes {
            eprintln!("  {n:>7}  {k}");
        }
    }
    crate::expect_passed(outcome);
}

/// The route table is not stale: every route it names answers its
/// methods with something other than 404 for the right record.
#[test]
fn the_route_table_is_the_cores() {
    let table: BTreeSet<(&str, String)> = ROUTES
        .iter()
        .flat_map(|r| {
            r.methods
                .iter()
                .map(|m| (m.as_str(), r.path.replace("{n}", "{id}")))
        })
        .collect();
    let core: BTreeSet<(&str, String)> = organiser::server::endpoints()
        .map(|e| (e.method.as_str(), e.path.to_owned()))
        .collect();
    assert_eq!(
        table, core,
        "the route table of the props is not the core's"
    );
}

#[test]
fn every_route_of_the_table_is_served() {
    let start = Start {
        zone: "UTC",
        at: "2026-03-10T09:00:00Z".parse().expect("an instant"),
    };
    let backups = tempfile::tempdir().expect("a directory");
    let world = World::over(Store::backed_up(start.at, start.zone, backups.path()));
    let store = &world.store;
    let backup = store.call(&Call::new(Method::Post, "/backups")).expect(201);
    let list = store
        .call(&Call::new(Post, "/task_lists").body(json!({"task_list": {"name": "L"}})))
        .expect(201);
    let task = store
        .call(&Call::new(Post, "/tasks").body(json!({"task": {"title": "T"}})))
        .expect(201);
    let token = store
        .call(&Call::new(Post, "/api_tokens").body(json!({"api_token": {"name": "t"}})))
        .expect(201);
    let person = store
        .call(
            &Call::new(Post, "/people").body(json!({"person": {"name": "P",
            "positions": [{"company_name": "C"}]}})),
        )
        .expect(201);
    let other = store
        .call(&Call::new(Post, "/people").body(json!({"person": {"name": "Q"}})))
        .expect(201);
    let link = store
        .call(
            &Call::new(Post, "/person_links").body(json!({"person_link": {
                "person_id": person.data()["id"],
                "related_person_id": other.data()["id"],
                "kind": "friend",
            }})),
        )
        .expect(201);
    let project = store
        .call(&Call::new(Post, "/projects").body(json!({"project": {"name": "Pr"}})))
        .expect(201);
    let member = store
        .call(
            &Call::new(Post, "/project_members").body(json!({"project_member": {
                "project_id": project.data()["id"],
                "person_id": other.data()["id"],
            }})),
        )
        .expect(201);
    let category = store
        .call(&Call::new(Post, "/categories").body(json!({"category": {"name": "C"}})))
        .expect(201);
    let note = store
        .call(&Call::new(Post, "/notes").body(json!({"note": {
            "body_html": "<p>#tagged</p>",
            "category_id": category.data()["id"],
        }})))
        .expect(201);
    let folder = store
        .call(&Call::new(Post, "/folders").body(json!({"folder": {"name": "F"}})))
        .expect(201);
    let pdf = store
        .org
        .uploads()
        .create(
            organiser::uploads::UploadKind::Document,
            "d.pdf",
            "application/pdf",
            b"%PDF-1.4\n%%EOF\n".to_vec(),
        )
        .expect("a PDF upload");
    let document = store
        .call(&Call::new(Post, "/documents").body(json!({"document": {
            "upload": pdf.signed_id,
            "note_ids": [note.data()["id"]],
        }})))
        .expect(201);
    let feed = store
        .call(
            &Call::new(Post, "/calendar_feeds").body(json!({"calendar_feed": {
                "address": "https://calendar.example.com/team.ics",
                "color": "blue",
            }})),
        )
        .expect(201);
    let provider = store
        .call(
            &Call::new(Post, "/ai_providers")
                .body(json!({"ai_provider": {"name": "Mock", "kind": "mock"}})),
        )
        .expect(201);
    let subscription = store
        .call(&Call::new(Post, "/calendar_subscriptions"))
        .expect(201);
    // Its test message goes to the offline answerer (`feeds::answer`).
    let channel = store
        .call(
            &Call::new(Post, "/notification_channels").body(json!({"notification_channel": {
                "name": "Phone",
                "kind": "ntfy",
                "url": "https://ntfy.example.com/organiser",
            }})),
        )
        .expect(201);
    let model = store
        .call(&Call::new(Post, "/ai_models").body(json!({"ai_model": {
            "ai_provider_id": provider.data()["id"],
            "identifier": "mock-small",
        }})))
        .expect(201);
    // A photo for the person, so that its addresses answer.
    let png = {
        let mut out = std::io::Cursor::new(Vec::new());
        image::RgbImage::new(4, 4)
            .write_to(&mut out, image::ImageFormat::Png)
            .expect("a PNG");
        out.into_inner()
    };
    let photo = store
        .org
        .uploads()
        .create(
            organiser::uploads::UploadKind::Avatar,
            "p.png",
            "image/png",
            png,
        )
        .expect("an upload");
    let with_photo = store
        .call(
            &Call::new(
                Method::Patch,
                format!(
                    "/people/{}",
                    person.data()["id"].as_str().unwrap_or_default()
                ),
            )
            .body(json!({"person": {"avatar": photo.signed_id}})),
        )
        .expect(200);
    let avatar = with_photo.data()["avatar"]["url"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    let signed = avatar.rsplit('/').next().unwrap_or_default().to_owned();
    let ids = [
        ("/avatars/", signed),
        (
            "/ai_providers/",
            provider.data()["id"]
                .as_str()
                .unwrap_or_default()
                .to_owned(),
        ),
        (
            "/ai_models/",
            model.data()["id"].as_str().unwrap_or_default().to_owned(),
        ),
        (
            "/companies/",
            person.data()["positions"][0]["company_id"]
                .as_str()
                .unwrap_or_default()
                .to_owned(),
        ),
        (
            "/person_links/",
            link.data()["id"].as_str().unwrap_or_default().to_owned(),
        ),
        (
            "/people/",
            person.data()["id"].as_str().unwrap_or_default().to_owned(),
        ),
        (
            "/projects/",
            project.data()["id"].as_str().unwrap_or_default().to_owned(),
        ),
        (
            "/documents/",
            document.data()["id"]
                .as_str()
                .unwrap_or_default()
                .to_owned(),
        ),
        (
            "/document_links/",
            document.data()["links"][0]["id"]
                .as_str()
                .unwrap_or_default()
                .to_owned(),
        ),
        (
            "/folders/",
            folder.data()["id"].as_str().unwrap_or_default().to_owned(),
        ),
        (
            "/calendar_feeds/",
            feed.data()["id"].as_str().unwrap_or_default().to_owned(),
        ),
        (
            "/calendar_subscriptions/",
            subscription.data()["id"]
                .as_str()
                .unwrap_or_default()
                .to_owned(),
        ),
        (
            "/notification_channels/",
            channel.data()["id"].as_str().unwrap_or_default().to_owned(),
        ),
        (
            "/notes/",
            note.data()["id"].as_str().unwrap_or_default().to_owned(),
        ),
        (
            "/categories/",
            category.data()["id"]
                .as_str()
                .unwrap_or_default()
                .to_owned(),
        ),
        (
            "/tags/",
            note.data()["tag_ids"][0]
                .as_str()
                .unwrap_or_default()
                .to_owned(),
        ),
        (
            "/project_members/",
            member.data()["id"].as_str().unwrap_or_default().to_owned(),
        ),
        (
            "/task_lists/",
            list.data()["id"].as_str().unwrap_or_default().to_owned(),
        ),
        (
            "/tasks/",
            task.data()["id"].as_str().unwrap_or_default().to_owned(),
        ),
        ("/api_tokens/", token.data()["id"].to_string()),
        (
            "/backups/",
            backup.data()["id"].as_str().unwrap_or_default().to_owned(),
        ),
    ];
    for route in ROUTES {
        let mut path = route.path.to_owned();
        for (prefix, id) in &ids {
            if path.starts_with(prefix) {
                path = path.replacen("{id}", id, 1).replacen("{n}", id, 1);
            }
        }
        let path = path
            .replace("{size}", "thumb")
            .replace("{key}", "note_titles");
        for &method in route.methods {
            // Deletes last: the record is needed by the other methods.
            if method == Delete {
                continue;
            }
            let reply = store.call(&Call::new(method, path.clone()));
            assert!(
                reply.status != 404,
                "{} {path}: {} {}",
                method.as_str(),
                reply.status,
                reply.body
            );
        }
    }
    for route in ROUTES.iter().filter(|r| r.methods.contains(&Delete)) {
        let mut path = route.path.to_owned();
        for (prefix, id) in &ids {
            if path.starts_with(prefix) {
                path = path.replacen("{id}", id, 1).replacen("{n}", id, 1);
            }
        }
        let reply = store.call(&Call::new(Delete, path.clone()));
        assert!(reply.ok(), "DELETE {path}: {} {}", reply.status, reply.body);
    }
}
