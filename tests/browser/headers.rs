//! The policy the pages are served with, read from the header by a plain
//! HTTP client (as Miniflux's tests read theirs): on every page and asset,
//! signed in or not, a `Content-Security-Policy` with no inline script or
//! style (no `'unsafe-inline'`, no `'unsafe-eval'`, no hashes allowed in)
//! and `frame-ancestors 'none'`; and no page carries what that policy
//! would block (a `<script>` without `src`, a `<style>`, a `style=` or
//! `on…=` attribute). The browser scenarios also fail on any violation
//! the page itself reports (`securitypolicyviolation`).

use regex::Regex;

use crate::site::{PASSWORD, Site};

/// `text` as a form value.
fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'_' | b'.' => (b as char).to_string(),
            b' ' => "+".to_owned(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// The session cookie of a sign-in through the form.
fn session(site: &Site) -> String {
    let answer = site
        .server
        .bare("POST", "//sign-in")
        .header("content-type", "application/x-www-form-urlencoded")
        .body(format!(
            "username={}&password={}",
            encode(&site.username()),
            encode(PASSWORD)
        ))
        .send()
        .unwrap();
    assert_eq!(answer.status(), 303, "signed in");
    let cookie = answer
        .headers()
        .get("set-cookie")
        .and_then(|v| v.to_str().ok())
        .expect("a session cookie");
    cookie.split(';').next().unwrap().to_owned()
}

/// What is wrong with the policy `csp`, if anything.
fn policy_faults(csp: &str) -> Vec<String> {
    let mut faults = Vec::new();
    let directives: Vec<(&str, Vec<&str>)> = csp
        .split(';')
        .filter_map(|d| {
            let mut words = d.split_whitespace();
            Some((words.next()?, words.collect()))
        })
        .collect();
    let find = |name: &str| {
        directives
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.clone())
    };
    for (name, values) in &directives {
        for v in values {
            let v = v.to_ascii_lowercase();
            if v == "'unsafe-inline'"
                || v == "'unsafe-eval'"
                || v == "'unsafe-hashes'"
                || v.starts_with("'sha")
                || v.starts_with("'nonce-")
                || v == "*"
            {
                faults.push(format!("{name} allows {v}"));
            }
        }
    }
    if find("frame-ancestors").as_deref() != Some(&["'none'"][..]) {
        faults.push("no frame-ancestors 'none'".to_owned());
    }
    for name in ["script-src", "style-src"] {
        let values = find(name).or_else(|| find("default-src"));
        match values {
            Some(v) if v.iter().all(|v| *v == "'self'" || *v == "'none'") => {}
            other => faults.push(format!("{name} is {other:?}, not 'self' alone")),
        }
    }
    faults
}

#[test]
fn the_policy_forbids_inline_script_and_style_and_framing_on_every_page() {
    let site = Site::ready(crate::harness::VARIANTS[0]);
    let cookie = session(&site);
    let script_tag = Regex::new(r"(?is)<script\b[^>]*>").unwrap();
    let with_src = Regex::new(r"(?i)\ssrc\s*=").unwrap();
    let inline_style = Regex::new(r#"(?i)<style\b|\sstyle\s*=|\son[a-z]+\s*="#).unwrap();
    // A record of each family, for their pages.
    let org = site.org();
    let person = org
        .people()
        .create(organiser::people::PersonInput {
            name: Some("Grace Hopper".into()),
            ..Default::default()
        })
        .unwrap()
        .id;
    let project = org
        .projects()
        .create(organiser::projects::ProjectInput {
            name: Some("Compiler".into()),
            ..Default::default()
        })
        .unwrap()
        .id;
    let note = org
        .notes()
        .create(organiser::notes::NoteInput {
            body_html: organiser::Field::Value("<p>A note</p>".into()),
            ..Default::default()
        })
        .unwrap()
        .id;
    let upload = org
        .uploads()
        .create(
            organiser::uploads::UploadKind::Document,
            "a.pdf",
            "application/pdf",
            crate::common::fixtures::pdf("a"),
        )
        .unwrap();
    let document = org
        .documents()
        .create(organiser::documents::DocumentInput {
            upload: Some(upload.signed_id),
            ..Default::default()
        })
        .unwrap()
        .id;
    let records = [
        format!("/people/{person}"),
        format!("/projects/{project}"),
        format!("/notes/{note}"),
        format!("/notes/{note}/edit"),
        format!("/documents/{document}"),
    ];
    let part_two = [
        "/people",
        "/projects",
        "/notes",
        "/notes/new",
        "/notes/suggestions?kind=person&q=gr",
        "/documents",
        "/calendar",
        "/calendar?view=month",
        "/calendar/feeds",
        "/settings/ai",
    ];
    let signed_in = [
        "/",
        "/tasks",
        "/tasks?view=overview",
        "/tasks?view=today_queue",
        "/tasks?view=planned",
        "/tasks?view=one_day",
        "/tasks?view=logbook",
        "/tasks?view=no_such_view",
        "/lists",
        "/search",
        "/search?q=rent",
        "/settings",
        "/welcome",
        "/assets/app.css",
        "/assets/app.js",
    ];
    let anonymous = [
        "/sign-in",
        "/",
        "/tasks",
        "/welcome",
        "/assets/app.css",
        "/assets/app.js",
        "/sign-in/once/not-a-link",
    ];
    let mut faults = Vec::new();
    let mut checked = 0;
    for (path, with_session) in signed_in
        .iter()
        .chain(part_two.iter())
        .map(|p| (*p, true))
        .chain(records.iter().map(|p| (p.as_str(), true)))
        .chain(anonymous.iter().map(|p| (*p, false)))
    {
        let mut request = site.server.bare("GET", &format!("/{path}"));
        if with_session {
            request = request.header("cookie", &cookie);
        }
        let answer = request.send().unwrap();
        let status = answer.status().as_u16();
        if (part_two.contains(&path) || records.iter().any(|r| r == path)) && status != 200 {
            faults.push(format!("{path}: answered {status}, not the page"));
        }
        let who = if with_session {
            "signed in"
        } else {
            "anonymous"
        };
        let csp = answer
            .headers()
            .get("content-security-policy")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let html = answer
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .is_some_and(|t| t.starts_with("text/html"));
        match csp {
            None => faults.push(format!(
                "{path} ({who}, {status}): no Content-Security-Policy"
            )),
            Some(csp) => faults.extend(
                policy_faults(&csp)
                    .into_iter()
                    .map(|f| format!("{path} ({who}, {status}): {f} in {csp:?}")),
            ),
        }
        let frames = answer
            .headers()
            .get("x-frame-options")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        if frames.as_deref() != Some("DENY") {
            faults.push(format!("{path} ({who}): X-Frame-Options {frames:?}"));
        }
        let body = answer.text().unwrap_or_default();
        if html {
            if let Some(m) = script_tag
                .find_iter(&body)
                .find(|m| !with_src.is_match(m.as_str()))
            {
                faults.push(format!("{path} ({who}): an inline script: {}", m.as_str()));
            }
            if let Some(m) = inline_style.find(&body) {
                faults.push(format!(
                    "{path} ({who}): inline style or handler: {}",
                    m.as_str()
                ));
            }
        }
        checked += 1;
    }
    eprintln!("headers: {checked} answers read");
    assert!(faults.is_empty(), "{}", faults.join("\n"));
}

#[test]
fn the_policy_check_finds_what_it_forbids() {
    let ours = "default-src 'none'; script-src 'self'; style-src 'self'; frame-ancestors 'none'";
    assert!(policy_faults(ours).is_empty(), "{:?}", policy_faults(ours));
    for bad in [
        "default-src 'self'; script-src 'self' 'unsafe-inline'; frame-ancestors 'none'",
        "default-src 'self'; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'",
        "default-src 'self'; script-src 'self' 'sha256-abc'; frame-ancestors 'none'",
        "default-src 'self'; frame-ancestors 'self'",
        "default-src 'self'",
        "default-src *; frame-ancestors 'none'",
        "default-src 'none'; script-src 'self' https://cdn.example; frame-ancestors 'none'",
    ] {
        assert!(!policy_faults(bad).is_empty(), "{bad}");
    }
}
