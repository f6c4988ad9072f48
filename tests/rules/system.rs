//! Document 1, "System and updates": PATCH `/system` rules, the update
//! status table, and `POST /system/update_check` against a signed manifest
//! (served by a stand-in update server, which the core fetches itself).

use serde_json::json;

use crate::common::{
    Call, Core, Expect, ManifestServer, Setup, check, licence_key, licence_signer, send,
};

fn release_server(manifests: &ManifestServer) -> Core {
    let mut options = manifests.options("1.2.0", "2026-02-01");
    options.licence_public_key = licence_signer().verifying_key();
    Core::with(Setup {
        options,
        ..Setup::default()
    })
}

fn update(s: &Core) -> serde_json::Value {
    s.get("/system").expect(200).data()["update"].clone()
}

#[test]
fn a_development_build_cannot_check() {
    let s = Core::start();
    let system = s.get("/system").expect(200);
    let d = system.data();
    assert_eq!(d["version"], "dev");
    assert_eq!(d["channel"], "stable");
    assert_eq!(d["update_checks"], true);
    assert_eq!(d["update_checks_managed"], false);
    assert_eq!(d["plain_http"], true);
    assert_eq!(d["update"]["status"], "off");
    assert_eq!(d["update"]["can_check"], false);
    s.post("/system/update_check", json!(null)).expect_error(
        422,
        "validation_failed",
        Some("base"),
    );
    // Behind a TLS proxy `plain_http` is false: tests/http/system.rs.
}

#[test]
fn checks_find_available_and_up_to_date_releases() {
    let m = ManifestServer::start();
    let s = release_server(&m);
    assert_eq!(update(&s)["status"], "unknown");
    assert_eq!(update(&s)["can_check"], true);

    m.publish(
        "stable",
        &[
            ("1.1.0", "2026-01-01"),
            ("1.3.0", "2026-03-01"),
            ("1.4.0-beta.1", "2026-03-05"),
        ],
        &[],
    );
    let checked = s.post("/system/update_check", json!(null)).expect(200);
    let u = &checked.data()["update"];
    assert_eq!(u["status"], "available");
    assert_eq!(u["latest_version"], "1.3.0", "stable ignores betas");
    assert_eq!(u["latest_released_on"], "2026-03-01");
    assert_eq!(u["notes_url"], "https://organiser.app/releases/1.3.0");
    assert_eq!(u["checked_at"], "2026-03-10T09:00:00.000Z");
    assert_eq!(u["error"], serde_json::Value::Null);
    assert_eq!(u["dismissed"], false);

    m.publish("stable", &[("1.2.0", "2026-02-01")], &[]);
    s.post("/system/update_check", json!(null)).expect(200);
    assert_eq!(update(&s)["status"], "up_to_date");
}

#[test]
fn a_failed_check_keeps_the_last_result_and_sets_error() {
    let m = ManifestServer::start();
    let s = release_server(&m);
    m.publish("stable", &[("1.3.0", "2026-03-01")], &[]);
    s.post("/system/update_check", json!(null)).expect(200);
    s.advance(60);
    m.answer("stable", 503, "down".into());
    let failed = s.post("/system/update_check", json!(null)).expect(200);
    let u = &failed.data()["update"];
    assert_eq!(u["status"], "available");
    assert_eq!(u["latest_version"], "1.3.0");
    assert_eq!(u["checked_at"], "2026-03-10T09:00:00.000Z");
    assert!(u["error"].as_str().unwrap().contains("503"), "{u}");

    // A manifest signed by someone else is refused the same way.
    let forger = ed25519_dalek::SigningKey::from_bytes(&[1; 32]);
    let forged = organiser::system::SignedManifest::sign(
        &organiser::system::Manifest {
            channel: "stable".into(),
            releases: vec![],
            revoked_keys: vec![],
        },
        &forger,
    );
    m.answer("stable", 200, serde_json::to_string(&forged).unwrap());
    let refused = s.post("/system/update_check", json!(null)).expect(200);
    assert!(
        refused.data()["update"]["error"]
            .as_str()
            .unwrap()
            .contains("signature")
    );

    // A success clears the error.
    m.publish("stable", &[("1.3.1", "2026-03-08")], &[]);
    let ok = s.post("/system/update_check", json!(null)).expect(200);
    assert_eq!(ok.data()["update"]["error"], serde_json::Value::Null);
    assert_eq!(ok.data()["update"]["latest_version"], "1.3.1");
}

#[test]
fn an_unreachable_update_server_is_still_200() {
    let m = ManifestServer::start();
    let mut options = m.options("1.2.0", "2026-02-01");
    options.update.manifest_url = "http://127.0.0.1:9/{channel}.json".into();
    let s = Core::with(Setup {
        options,
        ..Setup::default()
    });
    let reply = s.post("/system/update_check", json!(null)).expect(200);
    assert_eq!(reply.data()["update"]["status"], "unknown");
    assert!(
        reply.data()["update"]["error"]
            .as_str()
            .unwrap()
            .contains("could not be reached")
    );
}

#[test]
fn changing_channel_clears_the_result_and_beta_takes_betas() {
    let m = ManifestServer::start();
    let s = release_server(&m);
    m.publish("stable", &[("1.3.0", "2026-03-01")], &[]);
    m.publish(
        "beta",
        &[("1.3.0", "2026-03-01"), ("1.4.0-beta.2", "2026-03-06")],
        &[],
    );
    s.post("/system/update_check", json!(null)).expect(200);
    let changed = s
        .patch("/system", json!({"system": {"channel": "beta"}}))
        .expect(200);
    assert_eq!(changed.data()["channel"], "beta");
    assert_eq!(changed.data()["update"]["status"], "unknown");
    assert_eq!(
        changed.data()["update"]["latest_version"],
        serde_json::Value::Null
    );
    let checked = s.post("/system/update_check", json!(null)).expect(200);
    assert_eq!(checked.data()["update"]["latest_version"], "1.4.0-beta.2");
}

#[test]
fn dismissing_a_version_lasts_until_a_newer_one() {
    let m = ManifestServer::start();
    let s = release_server(&m);
    m.publish("stable", &[("1.3.0", "2026-03-01")], &[]);
    s.post("/system/update_check", json!(null)).expect(200);
    let d = s
        .patch("/system", json!({"system": {"dismissed_version": "1.3.0"}}))
        .expect(200);
    assert_eq!(d.data()["update"]["dismissed"], true);
    m.publish("stable", &[("1.4.0", "2026-03-09")], &[]);
    let newer = s.post("/system/update_check", json!(null)).expect(200);
    assert_eq!(newer.data()["update"]["dismissed"], false);
    let cleared = s
        .patch("/system", json!({"system": {"dismissed_version": null}}))
        .expect(200);
    assert_eq!(cleared.data()["update"]["dismissed"], false);
}

#[test]
fn with_daily_checks_off_a_manual_result_still_shows() {
    let m = ManifestServer::start();
    let s = release_server(&m);
    let off = s
        .patch("/system", json!({"system": {"update_checks": false}}))
        .expect(200);
    assert_eq!(off.data()["update_checks"], false);
    assert_eq!(off.data()["update"]["status"], "off");
    m.publish("stable", &[("1.3.0", "2026-03-01")], &[]);
    let checked = s.post("/system/update_check", json!(null)).expect(200);
    assert_eq!(checked.data()["update"]["status"], "available");
}

#[test]
fn patch_system_refuses_bad_values_and_changes_nothing() {
    let m = ManifestServer::start();
    let s = release_server(&m);
    for (body, field) in [
        (json!({"system": {"channel": "nightly"}}), "channel"),
        (json!({"system": {"channel": null}}), "channel"),
        (json!({"system": {"update_checks": "yes"}}), "update_checks"),
        (json!({"system": {"update_checks": null}}), "update_checks"),
        (
            json!({"system": {"dismissed_version": "v1.2"}}),
            "dismissed_version",
        ),
        (
            json!({"system": {"dismissed_version": "1.2.3-beta"}}),
            "dismissed_version",
        ),
        (
            json!({"system": {"dismissed_version": 7}}),
            "dismissed_version",
        ),
        (
            json!({"system": {"channel": "beta", "dismissed_version": "latest"}}),
            "dismissed_version",
        ),
    ] {
        check(&s, Call::patch("/system", body), Expect::invalid(field));
    }
    let system = s.get("/system");
    assert_eq!(
        system.data()["channel"],
        "stable",
        "the valid channel of a refused change did not land"
    );
    for ok in ["1.2.3", "1.2.3-beta.1"] {
        s.put("/system", json!({"system": {"dismissed_version": ok}}))
            .expect(200);
    }
}

#[test]
fn managed_checks_cannot_be_changed_or_run() {
    let m = ManifestServer::start();
    let mut options = m.options("1.2.0", "2026-02-01");
    options.update.managed_by = Some("the Debian package".into());
    let s = Core::with(Setup {
        options,
        ..Setup::default()
    });
    let system = s.get("/system").expect(200);
    assert_eq!(system.data()["update_checks_managed"], true);
    assert_eq!(
        system.data()["update_checks_managed_by"],
        "the Debian package"
    );
    assert_eq!(system.data()["update"]["status"], "off");
    assert_eq!(system.data()["update"]["can_check"], false);
    s.patch("/system", json!({"system": {"update_checks": true}}))
        .expect_error(422, "validation_failed", Some("update_checks"));
    s.post("/system/update_check", json!(null)).expect_error(
        422,
        "validation_failed",
        Some("base"),
    );
}

#[test]
fn a_licence_that_ends_before_a_release_makes_it_not_covered() {
    let m = ManifestServer::start();
    let s = release_server(&m);
    send(
        s.local("PUT", "/licence")
            .json(&json!({"key": licence_key("K-1", "2026-02-15")})),
    )
    .expect(200);
    m.publish("stable", &[("1.3.0", "2026-03-01")], &[]);
    let checked = s.post("/system/update_check", json!(null)).expect(200);
    let u = &checked.data()["update"];
    assert_eq!(u["status"], "not_covered");
    assert!(u["not_covered_reason"].as_str().unwrap().contains("1.3.0"));

    // A covering licence makes it available without a new check.
    send(s.local("DELETE", "/licence")).expect(200);
    send(
        s.local("PUT", "/licence")
            .json(&json!({"key": licence_key("K-2", "2027-01-01")})),
    )
    .expect(200);
    let u = update(&s);
    assert_eq!(u["status"], "available");
    assert_eq!(u["checked_at"], "2026-03-10T09:00:00.000Z");
}

#[test]
fn a_revoked_key_is_refused_by_the_next_manifest() {
    let m = ManifestServer::start();
    let s = release_server(&m);
    send(
        s.local("PUT", "/licence")
            .json(&json!({"key": licence_key("K-9", "2027-01-01")})),
    )
    .expect(200);
    assert_eq!(s.get("/licence").data()["state"], "licensed");
    m.publish("stable", &[("1.3.0", "2026-03-01")], &["K-9"]);
    let checked = s.post("/system/update_check", json!(null)).expect(200);
    assert_eq!(checked.data()["update"]["status"], "not_covered");
    let licence = s.get("/licence");
    assert_eq!(licence.data()["problem"], "revoked");
    assert_eq!(licence.data()["state"], "trial");
    assert_eq!(
        licence.data()["key_id"],
        "K-9",
        "a refused key keeps its details"
    );
}

#[test]
fn a_scheduled_check_runs_when_queued_or_a_day_old() {
    let m = ManifestServer::start();
    let s = release_server(&m);
    m.publish("stable", &[("1.3.0", "2026-03-01")], &[]);
    assert!(
        s.org.run_scheduled_update_check().unwrap(),
        "never checked: due"
    );
    assert!(!s.org.run_scheduled_update_check().unwrap(), "just checked");
    s.patch("/system", json!({"system": {"channel": "beta"}}))
        .expect(200);
    m.publish("beta", &[("1.3.0", "2026-03-01")], &[]);
    assert!(
        s.org.run_scheduled_update_check().unwrap(),
        "a channel change queues one"
    );
    s.advance(24 * 3600);
    assert!(s.org.run_scheduled_update_check().unwrap(), "a day later");
    s.patch("/system", json!({"system": {"update_checks": false}}))
        .expect(200);
    s.advance(24 * 3600);
    assert!(!s.org.run_scheduled_update_check().unwrap(), "off");
}
