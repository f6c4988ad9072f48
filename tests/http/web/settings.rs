//! The settings pages (EXTENSIONS.md §6) over a real socket, as a browser
//! without script uses them: each section renders for a session (and
//! sends a visitor without one to sign in), each form is answered 303 or,
//! refused by the core, with the page again (422) and the core's phrases
//! beside its fields; a password change asks for the current one; an API
//! token's secret and a calendar subscription's address (with its QR
//! code) are shown once; the appearance chosen is the one every page is
//! drawn in; a notification channel is tested against a receiver on
//! loopback; and every record field is escaped.

use std::time::Duration;

use super::{Answer, PASSWORD, Page};
use crate::common::receivers::{HttpReceiver, Reply};
use crate::common::{Setup, TestServer, licence_key, licence_signer};

/// Every section's page.
const SECTIONS: &[&str] = &[
    "/settings",
    "/settings/account",
    "/settings/appearance",
    "/settings/tokens",
    "/settings/licence",
    "/settings/updates",
    "/settings/backups",
    "/settings/calendar",
    "/settings/reminders",
];

/// What these tests read of an answer.
trait Read: Sized {
    /// The answer, asserted to be `status`.
    fn expect(self, status: u16) -> Self;
    /// The text of the element with `id` (up to the next closing tag).
    fn element(&self, id: &str) -> String;
    /// The text inside the element with `id` (up to the next tag).
    fn text(&self, id: &str) -> String;
}

impl Read for Answer {
    fn expect(self, status: u16) -> Answer {
        assert_eq!(self.status, status, "{}", self.body);
        self
    }

    fn element(&self, id: &str) -> String {
        let marker = format!("id=\"{id}\"");
        let at = self
            .body
            .find(&marker)
            .unwrap_or_else(|| panic!("no #{id} in {}", self.body));
        let end = self.body[at..]
            .find("</")
            .map_or(self.body.len(), |e| at + e);
        self.body[at..end].to_owned()
    }

    fn text(&self, id: &str) -> String {
        let element = self.element(id);
        let at = element.find('>').expect("a tag's end") + 1;
        element[at..].to_owned()
    }
}

/// Posting a settings form.
trait Post {
    /// Posts `fields` to `path` with the session's CSRF token (from the
    /// account page).
    fn post(&mut self, path: &str, fields: &[(&str, &str)]) -> Answer;
}

impl Post for Page<'_> {
    fn post(&mut self, path: &str, fields: &[(&str, &str)]) -> Answer {
        self.submit("/settings/account", path, fields)
    }
}

/// A server and its owner's browser, signed in.
fn signed_in(s: &TestServer) -> Page<'_> {
    Page::signed_in(s)
}

/// Signs in a new browser with `password`: the answer.
fn sign_in(s: &TestServer, password: &str) -> Answer {
    let username = s.org.account().me().unwrap().username;
    Page::anonymous(s).form(
        "/sign-in",
        &[("username", username.as_str()), ("password", password)],
    )
}

#[test]
fn every_section_renders_for_a_session_and_sends_a_visitor_to_sign_in() {
    let s = TestServer::start();
    let mut visitor = Page::anonymous(&s);
    let mut owner = signed_in(&s);
    for path in SECTIONS {
        let away = visitor.get(path).expect(303);
        assert_eq!(away.location(), Some("/sign-in"), "{path}");
        let page = owner.get(path).expect(200);
        let csp = page.header("content-security-policy").unwrap_or_default();
        assert!(csp.contains("frame-ancestors 'none'"), "{path}: {csp}");
        assert!(csp.contains("script-src 'self'"), "{path}: {csp}");
        assert!(page.body.contains("aria-label=\"Settings\""), "{path}");
        assert!(page.body.contains("aria-current=\"page\""), "{path}");
        assert!(!page.body.contains("style="), "{path}: a style attribute");
        assert!(!page.body.contains("<script>"), "{path}: an inline script");
        // Every form carries the session's CSRF token.
        let forms = page.body.matches("<form method=\"post\"").count();
        let tokens = page.body.matches("name=\"csrf_token\"").count();
        assert_eq!(forms, tokens, "{path}");
    }
    // A form without the session's token changes nothing.
    let forged = owner.form(
        "/settings/account",
        &[
            ("csrf_token", "forged"),
            ("name", "Mallory"),
            ("time_zone", "UTC"),
        ],
    );
    assert_eq!(forged.status, 403, "{}", forged.body);
    assert_ne!(s.org.account().me().unwrap().name, "Mallory");
    // Nor does one without a session.
    let anonymous = visitor.form("/settings/account", &[("name", "Mallory")]);
    assert_eq!(anonymous.status, 303);
    assert_ne!(s.org.account().me().unwrap().name, "Mallory");
}

#[test]
fn the_name_the_zone_and_the_username_change() {
    let s = TestServer::start();
    let mut b = signed_in(&s);
    let page = b.get("/settings/account").expect(200);
    // The zone picker offers the core's zones.
    assert!(page.body.contains("<option value=\"London\""));
    assert!(page.body.contains("Eastern Time (US &#38; Canada)"));

    let saved = b
        .post(
            "/settings/account",
            &[("name", "Ada Lovelace"), ("time_zone", "London")],
        )
        .expect(303);
    assert_eq!(saved.location(), Some("/settings/account?done=saved"));
    let me = s.org.account().me().unwrap();
    assert_eq!(
        (me.name.as_str(), me.time_zone.as_str()),
        ("Ada Lovelace", "London")
    );
    let page = b.get("/settings/account?done=saved").expect(200);
    assert!(page.body.contains("Saved."));
    assert!(page.body.contains("value=\"Ada Lovelace\""));
    assert!(page.body.contains("<option value=\"London\" selected>"));

    // Refused: the page again, 422, what was sent, the phrases beside
    // the fields.
    let refused = b
        .post(
            "/settings/account",
            &[("name", "  "), ("time_zone", "Atlantis")],
        )
        .expect(422);
    assert!(
        refused.element("me-name-error").contains("Name can"),
        "{}",
        refused.body
    );
    assert!(refused.element("me-time_zone-error").contains("Atlantis"));
    assert!(refused.body.contains("aria-invalid=\"true\""));
    assert!(refused.body.contains("role=\"alert\""));
    assert_eq!(s.org.account().me().unwrap().name, "Ada Lovelace");

    let renamed = b
        .post("/settings/account/username", &[("username", "ada")])
        .expect(303);
    assert_eq!(renamed.location(), Some("/settings/account?done=username"));
    assert_eq!(s.org.account().me().unwrap().username, "ada");
    let refused = b
        .post("/settings/account/username", &[("username", "a da")])
        .expect(422);
    assert!(
        refused
            .element("username-username-error")
            .contains("Username may contain")
    );
    assert!(refused.body.contains("value=\"a da\""));
}

#[test]
fn a_password_change_asks_for_the_current_one() {
    let s = TestServer::start();
    let mut b = signed_in(&s);
    let wrong = b
        .post(
            "/settings/account/password",
            &[
                ("current_password", "not it at all"),
                ("password", "a new password"),
                ("password_again", "a new password"),
            ],
        )
        .expect(422);
    assert!(
        wrong
            .element("password-current_password-error")
            .contains("is not the current password"),
        "{}",
        wrong.body
    );
    // No password is ever written back into a page.
    assert!(!wrong.body.contains("not it at all"));
    assert!(!wrong.body.contains("a new password\""));
    let differ = b
        .post(
            "/settings/account/password",
            &[
                ("current_password", PASSWORD),
                ("password", "a new password"),
                ("password_again", "another one"),
            ],
        )
        .expect(422);
    assert!(
        differ
            .element("password-password_again-error")
            .contains("not the same")
    );
    let short = b
        .post(
            "/settings/account/password",
            &[
                ("current_password", PASSWORD),
                ("password", "short"),
                ("password_again", "short"),
            ],
        )
        .expect(422);
    assert!(
        short
            .element("password-password-error")
            .contains("too short")
    );

    let changed = b
        .post(
            "/settings/account/password",
            &[
                ("current_password", PASSWORD),
                ("password", "a new password"),
                ("password_again", "a new password"),
            ],
        )
        .expect(303);
    assert_eq!(changed.location(), Some("/settings/account?done=password"));
    assert_eq!(
        sign_in(&s, PASSWORD).status,
        422,
        "the old password no longer signs in"
    );
    assert_eq!(sign_in(&s, "a new password").status, 303);
}

#[test]
fn an_api_token_is_shown_once_works_and_is_revoked() {
    let s = TestServer::start();
    let mut b = signed_in(&s);
    let made = b
        .post(
            "/settings/tokens",
            &[("name", "Garden robot"), ("expires_on", "")],
        )
        .expect(200);
    let secret = made.text("new-token");
    assert!(secret.len() >= 32, "{secret}");
    assert!(made.body.contains("not shown again"));
    assert!(made.body.contains("Garden robot"));

    // The settings never show it again.
    for path in ["/settings/tokens", "/settings/account"] {
        let page = b.get(path).expect(200);
        assert!(!page.body.contains(&secret), "{path}");
        assert!(!page.body.contains("id=\"new-token\""), "{path}");
    }
    assert!(
        b.get("/settings/tokens")
            .expect(200)
            .body
            .contains("Garden robot")
    );

    let me = s.bare("GET", "/me").bearer_auth(&secret).send().unwrap();
    assert_eq!(me.status(), 200);

    let id = s
        .org
        .account()
        .tokens()
        .unwrap()
        .into_iter()
        .find(|t| t.name == "Garden robot")
        .unwrap()
        .id;
    let revoked = b
        .post(&format!("/settings/tokens/{id}/revoke"), &[])
        .expect(303);
    assert_eq!(revoked.location(), Some("/settings/tokens?done=revoked"));
    assert!(
        !b.get("/settings/tokens")
            .expect(200)
            .body
            .contains("Garden robot")
    );
    let me = s.bare("GET", "/me").bearer_auth(&secret).send().unwrap();
    assert_eq!(me.status(), 401);

    // Refused: a blank name, an expiry in the past or no date at all.
    let blank = b.post("/settings/tokens", &[("name", " ")]).expect(422);
    assert!(blank.element("token-name-error").contains("Name"));
    assert!(!blank.body.contains("id=\"new-token\""));
    let past = b
        .post(
            "/settings/tokens",
            &[("name", "Old"), ("expires_on", "2020-01-01")],
        )
        .expect(422);
    assert!(
        past.body.contains("id=\"token-expires_on-error\""),
        "{}",
        past.body
    );
    let garbled = b
        .post(
            "/settings/tokens",
            &[("name", "Old"), ("expires_on", "soon")],
        )
        .expect(422);
    assert!(
        garbled
            .element("token-expires_on-error")
            .contains("YYYY-MM-DD")
    );
    let dated = b
        .post(
            "/settings/tokens",
            &[("name", "Dated"), ("expires_on", "2026-06-01")],
        )
        .expect(200);
    assert!(dated.body.contains("id=\"new-token\""));
    assert!(
        b.get("/settings/tokens")
            .expect(200)
            .body
            .contains("2026-06-01 00:00")
    );
}

#[test]
fn the_appearance_chosen_is_the_one_every_page_is_drawn_in() {
    let s = TestServer::start();
    let mut b = signed_in(&s);
    let page = b.get("/settings/appearance").expect(200);
    assert!(page.body.contains("data-theme=\"system\""));
    assert!(page.body.contains("data-accent=\"iris\""));
    for accent in ["iris", "coral", "jade", "saffron", "orchid", "steel"] {
        assert!(
            page.body
                .contains(&format!("name=\"accent\" value=\"{accent}\"")),
            "{accent}"
        );
    }
    let saved = b
        .post(
            "/settings/appearance",
            &[
                ("theme", "dark"),
                ("accent", "jade"),
                ("code_theme", "match"),
            ],
        )
        .expect(303);
    assert_eq!(saved.location(), Some("/settings/appearance?done=saved"));
    for path in ["/", "/tasks", "/settings/appearance", "/settings/tokens"] {
        let page = b.get(path).expect(200);
        assert!(page.body.contains("data-theme=\"dark\""), "{path}");
        assert!(page.body.contains("data-accent=\"jade\""), "{path}");
    }
    let refused = b
        .post(
            "/settings/appearance",
            &[("theme", "sepia"), ("accent", "jade")],
        )
        .expect(422);
    assert!(
        refused.element("appearance-theme-error").contains("Theme"),
        "{}",
        refused.body
    );
    // Still drawn in the appearance stored.
    assert!(refused.body.contains("data-theme=\"dark\""));

    // The stylesheet has each accent, for light and for dark.
    let css = b.get("/assets/app.css").expect(200).body;
    for accent in ["iris", "coral", "jade", "saffron", "orchid", "steel"] {
        assert!(
            css.contains(&format!("[data-accent=\"{accent}\"] {{")),
            "{accent}"
        );
        assert!(
            css.contains(&format!("[data-theme=\"dark\"][data-accent=\"{accent}\"]")),
            "{accent}"
        );
    }
}

#[test]
fn a_calendar_subscription_address_is_shown_once_with_its_qr_code() {
    let s = TestServer::start();
    let mut b = signed_in(&s);
    let made = b
        .post(
            "/settings/calendar",
            &[
                ("name", "Phone"),
                ("include", "tasks"),
                ("include", "key_dates"),
                ("alarm_minutes", "30"),
            ],
        )
        .expect(200);
    let url = made.text("subscription-url");
    assert!(url.starts_with(&format!("{}/ics/", s.url)), "{url}");
    assert!(url.ends_with(".ics"), "{url}");
    assert!(
        made.body
            .contains("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"qr\"")
    );
    assert!(made.body.contains("role=\"img\""));
    assert!(!made.body.contains("style="));
    let listed = s.org.calendar_subscriptions().list().unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].alarm_minutes, Some(30));
    assert_eq!(listed[0].include.len(), 2);

    // The address works, and the settings never show it again.
    let feed = reqwest::blocking::get(&url).unwrap();
    assert_eq!(feed.status(), 200);
    let page = b.get("/settings/calendar").expect(200);
    assert!(!page.body.contains("/ics/"));
    assert!(!page.body.contains("<svg"));
    assert!(page.body.contains("Phone"));

    // A new address stops the old one.
    let id = listed[0].id;
    let rotated = b
        .post(&format!("/settings/calendar/{id}/rotate"), &[])
        .expect(200);
    let new_url = rotated.text("subscription-url");
    assert_ne!(new_url, url);
    assert!(rotated.body.contains("class=\"qr\""));
    assert_eq!(reqwest::blocking::get(&url).unwrap().status(), 404);
    assert_eq!(reqwest::blocking::get(&new_url).unwrap().status(), 200);

    // Refused: a feed of nothing.
    let refused = b
        .post("/settings/calendar", &[("name", "Empty")])
        .expect(422);
    assert!(
        refused.body.contains("id=\"new-include-error\""),
        "{}",
        refused.body
    );
    assert!(!refused.body.contains("id=\"subscription-url\""));
    let alarm = b
        .post(
            "/settings/calendar",
            &[("include", "tasks"), ("alarm_minutes", "soon")],
        )
        .expect(422);
    assert!(
        alarm
            .element("new-alarm_minutes-error")
            .contains("whole number")
    );

    let deleted = b
        .post(&format!("/settings/calendar/{id}/delete"), &[])
        .expect(303);
    assert_eq!(deleted.location(), Some("/settings/calendar?done=deleted"));
    assert!(s.org.calendar_subscriptions().list().unwrap().is_empty());
    assert_eq!(reqwest::blocking::get(&new_url).unwrap().status(), 404);
}

#[test]
fn an_ntfy_channel_is_added_tested_switched_and_deleted() {
    let s = TestServer::start();
    let mut b = signed_in(&s);
    let rx = HttpReceiver::start();
    let added = b
        .post(
            "/settings/reminders/channels",
            &[
                ("kind", "ntfy"),
                ("name", "Phone"),
                ("url", &rx.url("/alerts")),
                ("secret", ""),
            ],
        )
        .expect(303);
    assert_eq!(
        added.location(),
        Some("/settings/reminders?done=channel_added")
    );
    let channel = s.org.reminders().channels().unwrap().remove(0);
    assert_eq!(channel.name, "Phone");
    assert!(!channel.secret_set);

    let tested = b
        .post(
            &format!("/settings/reminders/channels/{}/test", channel.id),
            &[],
        )
        .expect(303);
    assert_eq!(tested.location(), Some("/settings/reminders?done=tested"));
    let arrived = rx.wait_for(1, Duration::from_secs(10));
    assert_eq!(arrived[0].path, "/alerts");
    let page = b.get("/settings/reminders?done=tested").expect(200);
    assert!(page.body.contains("The test message was delivered."));

    // A test that does not arrive: the core's message beside the channel.
    rx.answer(Reply::status(500));
    let failed = b
        .post(
            &format!("/settings/reminders/channels/{}/test", channel.id),
            &[],
        )
        .expect(422);
    assert!(
        failed.body.contains("The test message did not arrive"),
        "{}",
        failed.body
    );
    assert!(failed.body.contains("500"), "{}", failed.body);

    // Refused: an address that is none, in the form that sent it (open).
    let refused = b
        .post(
            "/settings/reminders/channels",
            &[
                ("kind", "webhook"),
                ("name", "Hook"),
                ("url", "not an address"),
            ],
        )
        .expect(422);
    assert!(
        refused.body.contains("id=\"add-webhook-url-error\""),
        "{}",
        refused.body
    );
    assert!(refused.body.contains("value=\"not an address\""));
    assert!(refused.body.contains("<details class=\"add\" open>"));

    // The reminder settings.
    let saved = b
        .post(
            "/settings/reminders",
            &[
                ("channel_ids", &channel.id.to_string()),
                ("daily_agenda.enabled", "on"),
                ("daily_agenda.at", "07:30"),
                ("key_dates.days_before", "0, 3"),
                ("key_dates.at", "08:00"),
                ("deadlines.days_before", ""),
                ("deadlines.at", "09:00"),
            ],
        )
        .expect(303);
    assert_eq!(saved.location(), Some("/settings/reminders?done=saved"));
    let settings = s.org.reminders().settings().unwrap();
    assert_eq!(settings.channel_ids, [channel.id]);
    assert!(settings.daily_agenda.enabled);
    assert_eq!(settings.daily_agenda.at, "07:30");
    assert_eq!(settings.key_dates.days_before, [0, 3]);
    assert!(settings.deadlines.days_before.is_empty());
    let page = b.get("/settings/reminders").expect(200);
    assert!(page.body.contains("value=\"0, 3\""));
    let refused = b
        .post(
            "/settings/reminders",
            &[
                ("key_dates.days_before", "tomorrow"),
                ("deadlines.days_before", "99"),
            ],
        )
        .expect(422);
    assert!(
        refused
            .body
            .contains("id=\"settings-key_dates.days_before-error\""),
        "{}",
        refused.body
    );
    let refused = b
        .post("/settings/reminders", &[("deadlines.days_before", "99")])
        .expect(422);
    assert!(
        refused
            .element("settings-deadlines.days_before-error")
            .contains("0 to 60")
    );
    assert_eq!(
        s.org.reminders().settings().unwrap().key_dates.days_before,
        [0, 3]
    );

    let off = b
        .post(
            &format!("/settings/reminders/channels/{}/enabled", channel.id),
            &[("enabled", "off")],
        )
        .expect(303);
    assert_eq!(off.location(), Some("/settings/reminders?done=saved"));
    assert!(!s.org.reminders().channel(channel.id).unwrap().enabled);
    assert!(
        b.get("/settings/reminders")
            .expect(200)
            .body
            .contains("Turn on Phone")
    );
    b.post(
        &format!("/settings/reminders/channels/{}/delete", channel.id),
        &[],
    )
    .expect(303);
    assert!(s.org.reminders().channels().unwrap().is_empty());
}

#[test]
fn the_licence_updates_and_backups_pages_act_through_the_core() {
    let mut setup = Setup::default();
    setup.options.licence_public_key = licence_signer().verifying_key();
    let s = TestServer::with(setup);
    let mut b = signed_in(&s);

    let page = b.get("/settings/licence").expect(200);
    assert!(page.body.contains("Trial"));
    let refused = b
        .post("/settings/licence", &[("key", "ORG1.nonsense")])
        .expect(422);
    assert!(
        refused.body.contains("id=\"key-key-error\""),
        "{}",
        refused.body
    );
    let added = b
        .post(
            "/settings/licence",
            &[("key", &licence_key("K-1", "2027-01-01"))],
        )
        .expect(303);
    assert_eq!(added.location(), Some("/settings/licence?done=key_added"));
    let page = b.get("/settings/licence").expect(200);
    assert!(page.body.contains("Licensed"));
    assert!(page.body.contains("Ada Lovelace (ada@example.com)"));
    b.post("/settings/licence/remove", &[]).expect(303);
    assert!(s.org.licence().get().unwrap().key_id.is_none());

    // A development build cannot check for updates: the core says so.
    let check = b.post("/settings/updates/check", &[]).expect(422);
    assert!(check.body.contains("role=\"alert\""), "{}", check.body);
    let saved = b
        .post("/settings/updates", &[("channel", "beta")])
        .expect(303);
    assert_eq!(saved.location(), Some("/settings/updates?done=saved"));
    let system = s.org.system().get(true).unwrap();
    assert_eq!(system.channel.as_str(), "beta");
    assert!(!system.update_checks);

    let saved = b
        .post(
            "/settings/backups/settings",
            &[("at", "04:15"), ("keep", "10")],
        )
        .expect(303);
    assert_eq!(saved.location(), Some("/settings/backups?done=saved"));
    let settings = s.org.backups().settings().unwrap();
    assert_eq!(
        (settings.enabled, settings.at.as_str(), settings.keep),
        (false, "04:15", 10)
    );
    let refused = b
        .post(
            "/settings/backups/settings",
            &[("enabled", "on"), ("at", "25:00"), ("keep", "0")],
        )
        .expect(422);
    assert!(
        refused.body.contains("id=\"settings-at-error\""),
        "{}",
        refused.body
    );
    assert!(refused.body.contains("id=\"settings-keep-error\""));
    assert!(refused.body.contains("value=\"25:00\""));
    let garbled = b
        .post("/settings/backups/settings", &[("keep", "ten")])
        .expect(422);
    assert!(
        garbled
            .element("settings-keep-error")
            .contains("whole number")
    );
    // An in-memory store has nowhere to keep a backup: the core's reason.
    let now = b.post("/settings/backups", &[]);
    assert!(matches!(now.status, 303 | 422), "{}", now.body);
    if now.status == 422 {
        assert!(now.body.contains("role=\"alert\""));
    }
}

#[test]
fn the_settings_escape_every_record_field() {
    let s = TestServer::start();
    let mut b = signed_in(&s);
    let hostile = "<script>alert(1)</script>\"><img src=x onerror=alert(2)>";
    b.post(
        "/settings/account",
        &[("name", hostile), ("time_zone", "UTC")],
    )
    .expect(303);
    b.post("/settings/tokens", &[("name", hostile)]).expect(200);
    b.post(
        "/settings/calendar",
        &[("name", hostile), ("include", "tasks")],
    )
    .expect(200);
    let rx = HttpReceiver::start();
    b.post(
        "/settings/reminders/channels",
        &[("kind", "ntfy"), ("name", hostile), ("url", &rx.url("/x"))],
    )
    .expect(303);
    let refused = b
        .post("/settings/account/username", &[("username", hostile)])
        .expect(422);
    for page in [
        b.get("/settings/account").expect(200),
        b.get("/settings/tokens").expect(200),
        b.get("/settings/calendar").expect(200),
        b.get("/settings/reminders").expect(200),
        refused,
    ] {
        assert!(!page.body.contains("<script>alert"), "{}", page.body);
        assert!(!page.body.contains("<img src=x"), "{}", page.body);
        assert!(
            page.body
                .contains("&#60;script&#62;alert(1)&#60;/script&#62;&#34;&#62;&#60;img"),
            "{}",
            page.body
        );
    }
}
