//! The web app's security (EXTENSIONS.md §6, "Quality bar"; issue 29
//! "Security"): no page or asset without a session but sign-in and its
//! stylesheet; the policy headers on every answer; CSRF on every form; a
//! `Secure` cookie over HTTPS (a trusted proxy saying so); the one-time
//! sign-in link; record fields escaped; assets revalidated by `ETag`.

use super::{PASSWORD, Page};
use crate::common::{Setup, TestServer};

/// Pages and assets that need a session.
const SIGNED_ONLY: [&str; 6] = [
    "/",
    "/tasks",
    "/tasks?view=logbook",
    "/search?q=x",
    "/welcome",
    "/assets/app.js",
];

/// Reads the policy of `answer` and holds it to the quality bar.
#[track_caller]
fn assert_policy(what: &str, answer: &super::Answer) {
    let csp = answer
        .header("content-security-policy")
        .unwrap_or_else(|| panic!("{what}: no Content-Security-Policy"));
    assert!(!csp.contains("unsafe-inline"), "{what}: {csp}");
    assert!(!csp.contains("unsafe-eval"), "{what}: {csp}");
    assert!(csp.contains("frame-ancestors 'none'"), "{what}: {csp}");
    assert!(csp.contains("script-src 'self'"), "{what}: {csp}");
    assert_eq!(
        answer.header("x-content-type-options"),
        Some("nosniff"),
        "{what}"
    );
}

#[test]
fn without_a_session_only_sign_in_and_its_stylesheet_answer() {
    let s = TestServer::start();
    let mut page = Page::anonymous(&s);
    for path in SIGNED_ONLY {
        let answer = page.get(path);
        assert_eq!(
            (answer.status, answer.location()),
            (303, Some("/sign-in")),
            "{path}: {answer:?}"
        );
        assert_policy(path, &answer);
    }
    let sign_in = page.get("/sign-in");
    assert_eq!(sign_in.status, 200);
    assert_policy("/sign-in", &sign_in);
    assert!(!sign_in.body.contains("<script"), "{}", sign_in.body);
    let css = page.get("/assets/app.css");
    assert_eq!(css.status, 200);
    assert_policy("/assets/app.css", &css);
    // A form posted without a session changes nothing.
    let before = s.org.raw_export().unwrap();
    let answer = page.form("/tasks", &[("csrf_token", "x"), ("title", "Sneaky")]);
    assert_eq!(answer.location(), Some("/sign-in"), "{answer:?}");
    assert_eq!(s.org.raw_export().unwrap(), before);
}

#[test]
fn every_signed_in_page_carries_the_policy_and_escapes_what_it_shows() {
    let s = TestServer::start();
    let hostile = "<script>alert(\"x\")</script> & 'quoted'";
    s.post(
        "/tasks",
        serde_json::json!({"task": {"title": hostile, "start_on": "2026-03-10"}}),
    )
    .expect(201);
    let mut page = Page::signed_in(&s);
    for path in [
        "/",
        "/tasks",
        "/tasks?view=overview",
        "/search?q=alert",
        "/assets/app.js",
    ] {
        let answer = page.get(path);
        assert_eq!(answer.status, 200, "{path}: {answer:?}");
        assert_policy(path, &answer);
        if path.starts_with("/assets") {
            continue;
        }
        assert!(
            !answer.body.contains("<script>alert"),
            "{path}: {}",
            answer.body
        );
        // Our own script is the only one, loaded from our address.
        let scripts: Vec<&str> = answer
            .body
            .match_indices("<script")
            .map(|(i, _)| &answer.body[i..])
            .collect();
        for script in scripts {
            assert!(
                script.starts_with("<script src=\"/assets/app.js\""),
                "{path}: {script:.80}"
            );
        }
        assert!(!answer.body.contains(" style="), "{path}: an inline style");
        assert!(
            !answer.body.contains(" onclick="),
            "{path}: an inline handler"
        );
    }
    let today = page.get("/");
    assert!(
        today
            .body
            .contains("&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62; &#38; &#39;quoted&#39;"),
        "the title escaped: {}",
        today.body
    );
    assert!(!today.body.contains(hostile));
}

#[test]
fn a_form_without_the_sessions_token_is_refused_and_changes_nothing() {
    let s = TestServer::start();
    let mut page = Page::signed_in(&s);
    let before = s.org.raw_export().unwrap();
    for fields in [
        vec![("title", "No token")],
        vec![("csrf_token", "wrong"), ("title", "Wrong token")],
        vec![("csrf_token", ""), ("title", "Blank token")],
    ] {
        let answer = page.form("/tasks", &fields);
        assert_eq!(answer.status, 403, "{fields:?}: {answer:?}");
        assert_policy("a refused form", &answer);
    }
    assert_eq!(s.org.raw_export().unwrap(), before);
    // The session itself still works, and the right token is taken.
    let added = page.submit(
        "/",
        "/tasks",
        &[("title", "With the token"), ("back", "/tasks")],
    );
    assert_eq!((added.status, added.location()), (303, Some("/tasks")));
    assert!(page.get("/tasks").body.contains("With the token"));
}

#[test]
fn signing_in_and_out() {
    let s = TestServer::start();
    s.org.account().set_password(None, PASSWORD).unwrap();
    let username = s.org.account().me().unwrap().username;
    let mut page = Page::anonymous(&s);
    let wrong = page.form(
        "/sign-in",
        &[("username", username.as_str()), ("password", "not it")],
    );
    assert_eq!(wrong.status, 422, "{wrong:?}");
    assert!(wrong.body.contains("wrong"), "{}", wrong.body);
    assert!(
        wrong.body.contains(&format!("value=\"{username}\"")),
        "the name is kept"
    );
    assert!(page.cookie.is_none());

    // The username ignores case; the answer is today, with a session
    // cookie that scripts cannot read.
    let right = page.form(
        "/sign-in",
        &[
            ("username", &username.to_uppercase()),
            ("password", PASSWORD),
        ],
    );
    assert_eq!((right.status, right.location()), (303, Some("/")));
    let cookie = right.header("set-cookie").unwrap();
    assert!(
        cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"),
        "{cookie}"
    );
    assert!(!cookie.contains("Secure"), "plain HTTP: {cookie}");
    assert_eq!(page.get("/").status, 200);
    // Signed in, the sign-in page sends to today.
    assert_eq!(page.get("/sign-in").location(), Some("/"));

    let out = page.submit("/", "/sign-out", &[]);
    assert_eq!((out.status, out.location()), (303, Some("/sign-in")));
    assert!(page.cookie.is_none());
    assert_eq!(page.get("/").location(), Some("/sign-in"));
}

#[test]
fn over_https_through_a_trusted_proxy_the_cookie_is_secure() {
    let s = TestServer::with_config(
        Setup::default(),
        organiser_server::Config {
            trusted_proxies: "127.0.0.1".parse().unwrap(),
            ..TestServer::config()
        },
    );
    s.org.account().set_password(None, PASSWORD).unwrap();
    let username = s.org.account().me().unwrap().username;
    let answer = reqwest::blocking::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
        .post(format!("{}/sign-in", s.url))
        .header("x-forwarded-proto", "https")
        .form(&[("username", username.as_str()), ("password", PASSWORD)])
        .send()
        .unwrap();
    assert_eq!(answer.status().as_u16(), 303);
    let cookie = answer.headers()["set-cookie"].to_str().unwrap();
    assert!(cookie.contains("; Secure"), "{cookie}");
}

#[test]
fn a_one_time_link_signs_in_once_within_15_minutes_and_asks_for_a_password() {
    let s = TestServer::start();
    let link = s.org.account().sign_in_link().unwrap();
    assert!(link.url.starts_with("/sign-in/once/"), "{link:?}");
    let mut page = Page::anonymous(&s);
    // The sign-in page of a store without a password says how to get in.
    assert!(page.get("/sign-in").body.contains("organiser web link"));
    let first = page.get(&link.url);
    assert_eq!((first.status, first.location()), (303, Some("/welcome")));
    assert!(page.cookie.is_some());
    // Spent: a second visit (another browser) is refused.
    let mut other = Page::anonymous(&s);
    let again = other.get(&link.url);
    assert_eq!(again.status, 401, "{again:?}");
    assert!(other.cookie.is_none());

    // The welcome page asks for the password, twice the same.
    let differ = page.submit(
        "/welcome",
        "/welcome",
        &[
            ("password", "one password"),
            ("confirmation", "another one"),
        ],
    );
    assert_eq!(differ.status, 422);
    let short = page.submit(
        "/welcome",
        "/welcome",
        &[("password", "short"), ("confirmation", "short")],
    );
    assert_eq!(short.status, 422, "{short:?}");
    let set = page.submit(
        "/welcome",
        "/welcome",
        &[("password", PASSWORD), ("confirmation", PASSWORD)],
    );
    assert_eq!((set.status, set.location()), (303, Some("/")));
    assert!(s.org.account().me().unwrap().has_password);
    // Once a password is set, the welcome page is today.
    assert_eq!(page.get("/welcome").location(), Some("/"));

    // A link not visited within 15 minutes stops working; a new one
    // replaces the last.
    let late = s.org.account().sign_in_link().unwrap();
    s.advance(15 * 60);
    assert_eq!(Page::anonymous(&s).get(&late.url).status, 401);
    let replaced = s.org.account().sign_in_link().unwrap();
    let newest = s.org.account().sign_in_link().unwrap();
    assert_eq!(Page::anonymous(&s).get(&replaced.url).status, 401);
    assert_eq!(Page::anonymous(&s).get(&newest.url).status, 303);
    // An API token may not make one.
    let refused = s.post("/sign_in_links", serde_json::json!({}));
    assert_eq!(refused.status, 403, "{}", refused.body);
}

#[test]
fn assets_are_revalidated_by_their_etag() {
    let s = TestServer::start();
    let mut page = Page::signed_in(&s);
    for asset in ["/assets/app.css", "/assets/app.js"] {
        let first = page.get(asset);
        assert_eq!(first.status, 200);
        let etag = first.header("etag").expect("an ETag").to_owned();
        assert!(first.header("cache-control").unwrap().contains("no-cache"));
        let again = page.get_with(asset, &[("if-none-match", &etag)]);
        assert_eq!(again.status, 304, "{asset}");
        assert!(again.body.is_empty());
    }
    assert_eq!(page.get("/assets/nothing.js").status, 404);
}

/// Read-only licence mode (the trial over, no key): the pages still
/// answer, and a form that would write is refused with the core's 403
/// and changes nothing.
#[test]
fn in_read_only_mode_pages_answer_and_writes_are_refused() {
    let s = TestServer::start();
    let mut page = Page::signed_in(&s);
    s.advance(15 * 86400);
    assert_eq!(s.get("/licence").data()["state"], "read_only");
    assert_eq!(page.get("/").status, 200);
    let before = s.org.raw_export().unwrap();
    let refused = page.submit("/", "/tasks", &[("title", "Not now"), ("back", "/")]);
    assert_eq!(refused.status, 403, "{refused:?}");
    assert!(
        refused.body.contains("read-only") || refused.body.contains("read only"),
        "{}",
        refused.body
    );
    assert_policy("a read-only refusal", &refused);
    assert_eq!(s.org.raw_export().unwrap(), before);
}
