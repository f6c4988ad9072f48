//! Issue 7, defect 11: the licence from the terminal (`organiser licence`,
//! `licence add KEY`, `licence remove`) and `system updates on|off`.

use crate::util::Dir;

/// The test signing key's public half, and a key it signed.
fn signer() -> (String, String) {
    let signing = ed25519_dalek::SigningKey::from_bytes(&[7; 32]);
    let public: String = signing
        .verifying_key()
        .to_bytes()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let key = organiser::licence::sign_licence_key(
        &organiser::licence::LicenceKeyPayload {
            key_id: "KEY-1".to_owned(),
            name: "Ada Lovelace".to_owned(),
            email: "ada@example.com".to_owned(),
            order_reference: None,
            issued_on: "2026-01-15".parse().unwrap(),
            updates_until: "2099-01-01".parse().unwrap(),
        },
        &signing,
    );
    (public, key)
}

#[test]
fn a_key_is_added_shown_and_removed_from_the_terminal() {
    let dir = Dir::new();
    let (public, key) = signer();
    let run = |args: &[&str]| {
        dir.cmd(args)
            .env("ORGANISER_LICENCE_PUBLIC_KEY", &public)
            .run()
    };
    let out = run(&["licence"]).success();
    assert!(out.stdout.contains("trial, 14 days left"), "{out:?}");

    // A key that is not one: refused, naming it, nothing stored.
    let out = run(&["licence", "add", "not-a-key"]);
    assert_eq!(out.error(), "the key is not a valid licence key");
    let out = run(&["licence", "--json"]).success();
    assert_eq!(out.json()["data"]["state"], "trial");

    let out = run(&["licence", "add", &key]).success();
    assert!(out.stdout.contains("licensed"), "{out:?}");
    assert!(
        out.stdout.contains("Ada Lovelace <ada@example.com>"),
        "{out:?}"
    );
    assert!(out.stdout.contains("KEY-1"), "{out:?}");
    // `system` says it too.
    let out = run(&["system"]).success();
    assert!(out.stdout.contains("licensed"), "{out:?}");

    let out = run(&["licence", "remove", "--json"]).success();
    assert_eq!(out.json()["data"]["state"], "trial");
    assert!(out.json()["data"]["key_id"].is_null());
}

#[test]
fn the_key_can_come_from_standard_input() {
    let dir = Dir::new();
    let (public, key) = signer();
    let out = dir
        .cmd(&["licence", "add", "-", "--json"])
        .env("ORGANISER_LICENCE_PUBLIC_KEY", &public)
        .stdin(&format!("{key}\n"))
        .run()
        .success();
    assert_eq!(out.json()["data"]["state"], "licensed", "{out:?}");
}

#[test]
fn system_updates_turns_the_daily_check_on_and_off() {
    let dir = Dir::new();
    let off = dir.json(&["system", "updates", "off"]);
    assert_eq!(off["data"]["update_checks"], false, "{off}");
    assert_eq!(dir.json(&["system"])["data"]["update_checks"], false);
    let out = dir.ok(&["system"]);
    assert!(out.stdout.contains("Update checks"), "{out:?}");
    let on = dir.json(&["system", "updates", "on"]);
    assert_eq!(on["data"]["update_checks"], true, "{on}");
    let out = dir.run(&["system", "updates", "sometimes"]);
    assert_eq!(out.code(), Some(2), "{out:?}");
}

#[test]
fn a_check_that_cannot_run_fails_the_command() {
    // A development build cannot check for updates (DESIGN.md): the
    // command says why and exits 1, with the API's code under --json.
    let dir = Dir::new();
    let out = dir.run(&["system", "check", "--json"]);
    assert_eq!(out.code(), Some(1), "{out:?}");
    assert_eq!(out.json_error()["code"], "validation_failed", "{out:?}");
}
