//! The settings (`/settings/...`), by keyboard alone: the account's name
//! and password, the appearance (the page turns dark when the owner
//! chooses dark), an API token shown once and revoked, and a calendar
//! subscription with its QR code.

use regex::Regex;
use serde_json::json;
use thirtyfour::Key;

use crate::harness::{Browser, VARIANTS, Variant};
use crate::site::{PASSWORD, Site};
use crate::tasks::visit;

#[test]
fn every_section_of_the_settings_is_reached_from_the_navigation() {
    let mut b = Browser::start();
    for variant in VARIANTS {
        b.set_variant(variant);
        let site = Site::ready(variant);
        site.sign_in(&b);
        b.tab_to("Settings", |f| f.name == "Settings");
        b.press(Key::Enter);
        b.wait_for_path("/settings");
        b.check("settings: account");
        assert_eq!(b.heading(), "Settings");
        let sections = b.texts(".settings-nav a");
        for section in [
            "Account",
            "Appearance",
            "API tokens",
            "Licence",
            "Updates",
            "Backups",
            "Calendar subscriptions",
            "Reminders",
        ] {
            assert!(
                sections.iter().any(|s| s == section),
                "the settings offer {section}: {sections:?}"
            );
        }
        for section in sections {
            b.tab_to(&section, |f| f.tag == "a" && f.name == section);
            b.press(Key::Enter);
            b.wait(
                "the section's page",
                "return document.querySelector('.settings-nav [aria-current=page]')?.innerText.trim() === arguments[0]",
                vec![json!(section)],
            );
            b.check(&format!("settings: {}", section.to_lowercase()));
        }
    }
    b.finish();
}

#[test]
fn the_account_name_password_and_appearance_are_changed() {
    let mut b = Browser::start();
    for variant in VARIANTS {
        b.set_variant(variant);
        let site = Site::ready(variant);
        site.sign_in(&b);
        visit(&b, &site, "/settings/account", "settings: account");

        // The name.
        b.type_in("Name", "Ada Lovelace");
        b.press(Key::Enter);
        b.notice();
        b.check("settings: account (saved)");
        assert_eq!(site.org().account().me().unwrap().name, "Ada Lovelace");

        // The password: a wrong current one is refused beside its field.
        b.type_in("Current password", "not it");
        b.type_in("New password", "a new password 7");
        b.type_in("The new password again", "a new password 7");
        b.press(Key::Enter);
        b.wait(
            "the refusal",
            "return document.querySelector('[role=alert], .field-error')?.innerText",
            vec![],
        );
        b.check("settings: account (refused)");
        b.type_in("Current password", PASSWORD);
        b.type_in("New password", "a new password 7");
        b.type_in("The new password again", "a new password 7");
        b.press(Key::Enter);
        b.notice();
        assert!(
            site.org()
                .sign_in(&site.username(), "a new password 7")
                .is_ok()
        );

        // The appearance: the other theme, and the page is drawn in it.
        visit(&b, &site, "/settings/appearance", "settings: appearance");
        let other = if variant.dark { "Light" } else { "Dark" };
        b.tab_to("the theme", |f| f.field == "theme");
        for _ in 0..4 {
            if b.focused().name.starts_with(other) {
                break;
            }
            b.press(Key::Down);
        }
        assert!(b.focused().name.starts_with(other), "{:?}", b.focused());
        b.press_named("Save");
        b.notice();
        let theme = b.js("return document.documentElement.dataset.theme", vec![]);
        assert_eq!(theme, other.to_lowercase(), "the page is drawn {other}");
        let background = b.js(
            "return getComputedStyle(document.body).backgroundColor",
            vec![],
        );
        let dark_background = background.as_str().is_some_and(|c| luminance(c) < 0.2);
        assert_eq!(
            dark_background, !variant.dark,
            "the page's background {background} follows the theme"
        );
        // Seen in the other theme now: its checks too.
        b.set_variant(Variant {
            dark: !variant.dark,
            ..variant
        });
        b.check("settings: appearance (saved)");
        b.set_variant(variant);
    }
    b.finish();
}

/// The relative luminance of a CSS `rgb(r, g, b)` colour, 0 to 1.
fn luminance(css: &str) -> f64 {
    let parts: Vec<f64> = css
        .trim_start_matches("rgba(")
        .trim_start_matches("rgb(")
        .trim_end_matches(')')
        .split(',')
        .filter_map(|p| p.trim().parse().ok())
        .collect();
    if parts.len() < 3 {
        return 1.0;
    }
    let lin = |c: f64| {
        let c = c / 255.0;
        if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * lin(parts[0]) + 0.7152 * lin(parts[1]) + 0.0722 * lin(parts[2])
}

#[test]
fn an_api_token_is_shown_once_then_revoked() {
    let secret_shape = Regex::new(r"org_[0-9]+_[A-Za-z0-9_-]{16,}").unwrap();
    let mut b = Browser::start();
    for variant in VARIANTS {
        b.set_variant(variant);
        let site = Site::ready(variant);
        site.sign_in(&b);
        visit(&b, &site, "/settings/tokens", "settings: api tokens");

        b.type_in("Name", "Phone");
        b.press(Key::Enter);
        let shown = b.wait(
            "the new token's secret",
            "return document.querySelector('main').innerText.match(/org_[0-9]+_[A-Za-z0-9_-]{16,}/)?.[0]",
            vec![],
        );
        b.check("settings: api tokens (made)");
        let secret = shown.as_str().unwrap().to_owned();
        // It works.
        let me = site
            .server
            .bare("GET", "/me")
            .bearer_auth(&secret)
            .send()
            .unwrap();
        assert_eq!(me.status(), 200, "the token shown works");

        // Shown once: the page again has its name, not its secret.
        visit(&b, &site, "/settings/tokens", "settings: api tokens");
        let source = b.js("return document.documentElement.outerHTML", vec![]);
        let source = source.as_str().unwrap_or_default();
        assert!(!source.contains(&secret), "the secret is shown once");
        assert!(
            !secret_shape.is_match(source),
            "no secret on the page again"
        );
        assert!(b.text("main").contains("Phone"), "the token is listed");

        // Revoked: it no longer works, and the page no longer lists it.
        let revoke = b.js(
            "const b = [...document.querySelectorAll('main button')]\
               .find(b => /revoke/i.test(b.getAttribute('aria-label') || b.innerText) &&\
                          (b.closest('li, tr, form')?.innerText.includes('Phone') || (b.getAttribute('aria-label') || '').includes('Phone')));\
             return b ? (b.getAttribute('aria-label') || b.innerText).trim() : null;",
            vec![],
        );
        let revoke = revoke
            .as_str()
            .unwrap_or_else(|| panic!("no Revoke button for Phone: {}", b.text("main")))
            .to_owned();
        b.press_named(&revoke);
        b.wait(
            "the token to leave the list",
            "return !document.querySelector('main').innerText.includes('Phone') || !!document.querySelector('[role=status]')",
            vec![],
        );
        b.check("settings: api tokens (revoked)");
        let me = site
            .server
            .bare("GET", "/me")
            .bearer_auth(&secret)
            .send()
            .unwrap();
        assert_eq!(me.status(), 401, "a revoked token is refused");
    }
    b.finish();
}

#[test]
fn a_calendar_subscription_is_shown_with_its_qr_code() {
    let mut b = Browser::start();
    for variant in VARIANTS {
        b.set_variant(variant);
        let site = Site::ready(variant);
        site.sign_in(&b);
        visit(
            &b,
            &site,
            "/settings/calendar",
            "settings: calendar subscriptions",
        );
        let make = b.js(
            "const b = [...document.querySelectorAll('main form button')].find(b => /subscription|make|new|add|create/i.test(b.innerText));\
             return b ? b.innerText.trim() : null;",
            vec![],
        );
        let make = make
            .as_str()
            .unwrap_or_else(|| panic!("no button making a subscription: {}", b.text("main")))
            .to_owned();
        if let Some(name) = b
            .js(
                "return [...document.querySelectorAll('main label')].map(l => l.innerText.trim()).find(t => /^name/i.test(t))",
                vec![],
            )
            .as_str()
        {
            b.type_in(name, "Phone calendar");
        }
        b.press_named(&make);
        b.wait(
            "the subscription's address",
            "return document.querySelector('main').innerText.match(/\\/ics\\/[^\\s]+\\.ics/)?.[0]",
            vec![],
        );
        let qr = b.js(
            "const q = document.querySelector('main img[alt*=QR i], main svg[aria-label*=QR i], main [role=img][aria-label*=QR i], main img[alt*=code i]');\
             if (!q) return null; const r = q.getBoundingClientRect(); return {w: r.width, h: r.height};",
            vec![],
        );
        assert!(
            qr["w"].as_f64().unwrap_or(0.0) >= 120.0,
            "a QR code (named for a screen reader) a phone can read: {qr}"
        );
        b.check("settings: calendar subscriptions (made)");
    }
    b.finish();
}
