//! The props tests' own fixtures: an in-memory store on a clock that moves
//! only when told, licensed so that the trial's end never turns it
//! read-only, answering requests through `Organiser::handle` as the owner
//! at the machine. Every answer is checked against `docs/openapi.json`
//! (`tests/common/openapi.rs`).

use std::sync::Arc;

use jiff::Timestamp;
use organiser::{
    Auth, Options, Organiser, clock::ManualClock, licence::LicenceKeyPayload, list::Query,
    options::BuildInfo, options::UpdateConfig, server::Method, server::Request,
};
use serde_json::{Value, json};

/// One request: method, path below `/api/v1`, decoded query and JSON body.
#[derive(Debug, Clone)]
pub(crate) struct Call {
    pub(crate) method: Method,
    pub(crate) path: String,
    pub(crate) query: Vec<(String, String)>,
    pub(crate) body: Option<Value>,
}

impl Call {
    pub(crate) fn new(method: Method, path: impl Into<String>) -> Call {
        Call {
            method,
            path: path.into(),
            query: Vec::new(),
            body: None,
        }
    }

    pub(crate) fn get(path: impl Into<String>) -> Call {
        Call::new(Method::Get, path)
    }

    pub(crate) fn param(mut self, name: &str, value: impl Into<String>) -> Call {
        self.query.push((name.to_owned(), value.into()));
        self
    }

    pub(crate) fn body(mut self, body: Value) -> Call {
        self.body = Some(body);
        self
    }

    pub(crate) fn request(&self, auth: Auth) -> Request {
        let mut request = Request::new(self.method, self.path.clone(), auth)
            .with_query(Query::from_pairs(self.query.iter().cloned()));
        request.body = self.body.clone();
        request
    }
}

/// A response: status and JSON body (`Null` for none).
#[derive(Debug, Clone)]
pub(crate) struct Reply {
    pub(crate) status: u16,
    pub(crate) body: Value,
}

impl Reply {
    /// Panics with the body when the status is not `status`.
    #[track_caller]
    pub(crate) fn expect(self, status: u16) -> Reply {
        assert_eq!(self.status, status, "body: {}", self.body);
        self
    }

    pub(crate) fn ok(&self) -> bool {
        (200..300).contains(&self.status)
    }

    pub(crate) fn data(&self) -> &Value {
        &self.body["data"]
    }
}

/// A store and the clock it reads.
pub(crate) struct Store {
    pub(crate) org: Organiser,
    pub(crate) clock: ManualClock,
}

/// The key this fixture signs its licence with.
fn licence_signer() -> ed25519_dalek::SigningKey {
    ed25519_dalek::SigningKey::from_bytes(&[42; 32])
}

impl Store {
    /// A licensed development build standing at `start`, its owner in the
    /// picker zone `zone`.
    pub(crate) fn new(start: Timestamp, zone: &str) -> Store {
        Store::planned(start, zone, organiser::search::SearchPlan::default())
    }

    /// [`Store::new`], searching with `plan`.
    pub(crate) fn planned(
        start: Timestamp,
        zone: &str,
        plan: organiser::search::SearchPlan,
    ) -> Store {
        Store::made(start, zone, plan, None)
    }

    /// [`Store::new`], backing up into `dir` (an in-memory store has no
    /// backup directory of its own).
    pub(crate) fn backed_up(start: Timestamp, zone: &str, dir: &std::path::Path) -> Store {
        Store::made(
            start,
            zone,
            organiser::search::SearchPlan::default(),
            Some(dir.to_path_buf()),
        )
    }

    fn made(
        start: Timestamp,
        zone: &str,
        plan: organiser::search::SearchPlan,
        backup_dir: Option<std::path::PathBuf>,
    ) -> Store {
        let clock = ManualClock::new(start);
        let options = Options {
            clock: Arc::new(clock.clone()),
            // A development build cannot check for updates: nothing here
            // reaches the network.
            build: BuildInfo::dev(),
            licence_public_key: licence_signer().verifying_key(),
            update: UpdateConfig {
                public_key: None,
                ..UpdateConfig::default()
            },
            // Calendar feeds are answered here, offline.
            http: Arc::new(crate::feeds::answer),
            search_plan: plan,
            backup_dir,
            ..Options::default()
        };
        let store = Store {
            org: Organiser::in_memory_with(options),
            clock,
        };
        let key = organiser::licence::sign_licence_key(
            &LicenceKeyPayload {
                key_id: "PROPS-1".to_owned(),
                name: "Property Tester".to_owned(),
                email: "props@example.com".to_owned(),
                order_reference: None,
                issued_on: "2026-01-01".parse().expect("a date"),
                updates_until: "2099-12-31".parse().expect("a date"),
            },
            &licence_signer(),
        );
        store
            .call(&Call::new(Method::Put, "/licence").body(json!({ "key": key })))
            .expect(200);
        store
            .call(&Call::new(Method::Patch, "/me").body(json!({ "me": { "time_zone": zone } })))
            .expect(200);
        store
    }

    /// Answers `call` as the owner at the machine.
    pub(crate) fn call(&self, call: &Call) -> Reply {
        self.send(&call.request(Auth::Local))
    }

    /// Answers any request; the answer must be one `docs/openapi.json`
    /// allows.
    pub(crate) fn send(&self, request: &Request) -> Reply {
        let response = self.org.handle(request);
        crate::openapi::check(&crate::openapi::Seen {
            method: request.method.as_str(),
            // The core takes a path with or without its leading slash; its
            // path has no query, so a `?` in it is a character of a segment
            // (escaped here, as a client would send it).
            path: &format!(
                "/api/v1/{}",
                request.path.trim_start_matches('/').replace('?', "%3F")
            ),
            status: response.status,
            content_type: response.body.as_ref().map(|_| "application/json"),
            body: response.body.as_deref().unwrap_or_default(),
            in_process: true,
        });
        Reply {
            status: response.status,
            body: response.json_value(),
        }
    }

    /// Every page of a listing (`query` plus `limit` and `cursor`), in order.
    pub(crate) fn list_all(&self, path: &str, query: &[(&str, &str)], limit: u32) -> Vec<Value> {
        let mut items = Vec::new();
        let mut cursor: Option<String> = None;
        loop {
            let mut call = Call::get(path).param("limit", limit.to_string());
            for (k, v) in query {
                call = call.param(k, *v);
            }
            if let Some(c) = &cursor {
                call = call.param("cursor", c.clone());
            }
            let reply = self.call(&call).expect(200);
            items.extend(reply.data().as_array().expect("a list").iter().cloned());
            match reply.body["meta"]["next_cursor"].as_str() {
                Some(next) => cursor = Some(next.to_owned()),
                None => return items,
            }
        }
    }

    /// The owner's zone as an IANA identifier.
    pub(crate) fn zone(&self) -> jiff::tz::TimeZone {
        let me = self.call(&Call::get("/me")).expect(200);
        let iana = me.data()["time_zone_iana"].as_str().expect("a zone");
        jiff::tz::TimeZone::get(iana).expect("a known zone")
    }
}
