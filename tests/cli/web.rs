//! `organiser web link` and the first run of `organiser serve` (EXTENSIONS.md
//! §6): the one-time sign-in link, in process and through the server that
//! holds the store, and in the log of a store without a password.

use std::time::Duration;

use crate::util::Dir;

/// A link's address is `{base}/sign-in/once/{secret}` and works once.
#[track_caller]
fn assert_link(line: &str, base: &str) -> String {
    let secret = line
        .strip_prefix(&format!("{base}/sign-in/once/"))
        .unwrap_or_else(|| panic!("not a link of {base}: {line:?}"));
    assert_eq!(secret.len(), 43, "{line}");
    assert!(
        secret
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    );
    secret.to_owned()
}

/// A GET that follows no redirect: the status and where it sends.
fn visit(url: &str) -> (u16, Option<String>) {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let answer = reqwest::blocking::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(Duration::from_secs(10))
        .build()
        .unwrap()
        .get(url)
        .send()
        .unwrap();
    let location = answer
        .headers()
        .get("location")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    (answer.status().as_u16(), location)
}

#[test]
fn serve_logs_a_link_on_a_first_run_and_web_link_makes_another() {
    let dir = Dir::new();
    let server = dir.serve();
    // No password yet: the log holds a link, which signs in once.
    // The whole line, to its end.
    let said = server.wait_for_stderr("makes a new link).");
    let line = said
        .lines()
        .find(|l| l.contains("No password is set yet"))
        .unwrap_or_else(|| panic!("no link said: {said}"));
    let url = line
        .split_whitespace()
        .find(|w| w.contains("/sign-in/once/"))
        .expect("the link");
    assert_link(url, &server.url);
    assert_eq!(visit(url), (303, Some("/welcome".to_owned())));
    assert_eq!(visit(url).0, 401, "spent by its first visit");

    // Through the server that holds the store: its own address.
    let out = dir.ok(&["web", "link"]);
    let made = out.stdout.trim();
    assert_link(made, &server.url);
    assert_eq!(visit(made), (303, Some("/welcome".to_owned())));
    // A request log shows a link's template, never its secret.
    let secret = assert_link(made, &server.url);
    let said = server.wait_for_stderr("sign-in/once/{secret}");
    assert!(
        !said.contains(&format!("GET /sign-in/once/{secret}")),
        "{said}"
    );

    // With --json, the API's body.
    let json = dir.json(&["web", "link"]);
    assert!(
        json["data"]["url"]
            .as_str()
            .unwrap()
            .starts_with(&server.url)
    );
    assert!(json["data"]["expires_at"].is_string());
}

#[test]
fn web_link_in_process_uses_the_public_url() {
    let dir = Dir::new();
    dir.ok(&["tasks"]);
    let out = dir
        .cmd(&["web", "link"])
        .env("ORGANISER_PUBLIC_URL", "https://organiser.example.com/")
        .run();
    assert!(out.status.success(), "{out:?}");
    assert_link(out.stdout.trim(), "https://organiser.example.com");
}
