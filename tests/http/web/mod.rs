//! The web app (EXTENSIONS.md §6) over a real socket: its pages, forms,
//! sessions and headers, as a browser without script sees them. [`Page`]
//! is that browser: it keeps the session cookie, follows no redirect (a
//! test reads each 303), and finds a page's CSRF token for its forms.

mod calendar;
mod documents;
mod notes;
mod people;
mod projects;
mod security;
mod settings;
mod settings_ai;
mod tasks;

use reqwest::blocking::Client;
use reqwest::header::HeaderMap;

use crate::common::TestServer;

/// The owner's password in these tests.
pub(crate) const PASSWORD: &str = "correct horse battery";

/// One answer: its status, headers and body.
#[derive(Debug)]
pub(crate) struct Answer {
    pub(crate) status: u16,
    pub(crate) headers: HeaderMap,
    pub(crate) body: String,
}

impl Answer {
    /// A header's value.
    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    /// Where a 303 sends to.
    pub(crate) fn location(&self) -> Option<&str> {
        self.header("location")
    }

    /// The first CSRF token of the page's forms.
    pub(crate) fn csrf(&self) -> String {
        let marker = "name=\"csrf_token\" value=\"";
        let start = self
            .body
            .find(marker)
            .unwrap_or_else(|| panic!("no form with a CSRF token: {}", self.body))
            + marker.len();
        let end = self.body[start..].find('"').expect("a closing quote");
        self.body[start..start + end].to_owned()
    }
}

/// A browser without script on `server`: its cookie, no redirects.
pub(crate) struct Page<'s> {
    pub(crate) server: &'s TestServer,
    client: Client,
    pub(crate) cookie: Option<String>,
}

impl<'s> Page<'s> {
    /// A browser with no session.
    pub(crate) fn anonymous(server: &'s TestServer) -> Page<'s> {
        Page {
            server,
            client: Client::builder()
                .redirect(reqwest::redirect::Policy::none())
                .build()
                .unwrap(),
            cookie: None,
        }
    }

    /// A browser signed in as the owner (given a password first).
    pub(crate) fn signed_in(server: &'s TestServer) -> Page<'s> {
        let me = server.org.account().me().unwrap();
        if !me.has_password {
            server.org.account().set_password(None, PASSWORD).unwrap();
        }
        let mut page = Page::anonymous(server);
        let answer = page.form(
            "/sign-in",
            &[("username", me.username.as_str()), ("password", PASSWORD)],
        );
        assert_eq!(answer.status, 303, "sign-in: {answer:?}");
        assert!(page.cookie.is_some(), "no session cookie: {answer:?}");
        page
    }

    fn read(&mut self, request: reqwest::blocking::RequestBuilder) -> Answer {
        let request = match &self.cookie {
            Some(c) => request.header("cookie", format!("organiser_session={c}")),
            None => request,
        };
        let response = request.send().unwrap();
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        for value in headers.get_all("set-cookie") {
            let value = value.to_str().unwrap_or_default();
            if let Some(rest) = value.strip_prefix("organiser_session=") {
                let secret = rest.split(';').next().unwrap_or_default();
                self.cookie = (!secret.is_empty()).then(|| secret.to_owned());
            }
        }
        let body = response.text().unwrap_or_default();
        Answer {
            status,
            headers,
            body,
        }
    }

    /// `GET path`.
    pub(crate) fn get(&mut self, path: &str) -> Answer {
        let url = format!("{}{path}", self.server.url);
        let request = self.client.get(url);
        self.read(request)
    }

    /// `GET path` with extra headers.
    pub(crate) fn get_with(&mut self, path: &str, headers: &[(&str, &str)]) -> Answer {
        let url = format!("{}{path}", self.server.url);
        let mut request = self.client.get(url);
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        self.read(request)
    }

    /// `POST path` of a form with `fields` as they are (no CSRF token
    /// added).
    pub(crate) fn form(&mut self, path: &str, fields: &[(&str, &str)]) -> Answer {
        let url = format!("{}{path}", self.server.url);
        let request = self.client.post(url).form(fields);
        self.read(request)
    }

    /// `POST path` of a form with `fields` and the CSRF token of the page
    /// at `from`.
    pub(crate) fn submit(&mut self, from: &str, path: &str, fields: &[(&str, &str)]) -> Answer {
        let csrf = self.get(from).csrf();
        let mut all: Vec<(&str, &str)> = vec![("csrf_token", csrf.as_str())];
        all.extend_from_slice(fields);
        self.form(path, &all)
    }
}

/// Makes a person named `name` through the core.
pub(crate) fn person(s: &TestServer, name: &str) -> organiser::people::Person {
    s.org
        .people()
        .create(organiser::people::PersonInput {
            name: Some(name.to_owned()),
            ..Default::default()
        })
        .unwrap()
}

/// Makes a project named `name` through the core.
pub(crate) fn project(s: &TestServer, name: &str) -> organiser::projects::Project {
    s.org
        .projects()
        .create(organiser::projects::ProjectInput {
            name: Some(name.to_owned()),
            ..Default::default()
        })
        .unwrap()
}

/// Each of `paths` sends a visitor without a session to the sign-in page
/// (303).
#[track_caller]
pub(crate) fn assert_signed_only(server: &TestServer, paths: &[String]) {
    let mut anonymous = Page::anonymous(server);
    for path in paths {
        let answer = anonymous.get(path);
        assert_eq!(answer.status, 303, "{path}");
        assert_eq!(answer.location(), Some("/sign-in"), "{path}");
    }
}

/// Each form of `forms` (its path and fields), sent by `page` without a
/// CSRF token and with a wrong one, is refused with 403.
#[track_caller]
pub(crate) fn assert_forms_need_the_token(
    page: &mut Page<'_>,
    forms: &[(String, Vec<(&str, &str)>)],
) {
    for (path, fields) in forms {
        for token in [None, Some("not-the-token")] {
            let mut all: Vec<(&str, &str)> = Vec::new();
            if let Some(token) = token {
                all.push(("csrf_token", token));
            }
            all.extend(fields.iter().copied());
            let answer = page.form(path, &all);
            assert_eq!(answer.status, 403, "{path} with {token:?}: {answer:?}");
        }
    }
}
