//! The AI settings (EXTENSIONS.md §6) over a real socket, as a browser
//! without script uses them, against a fake model server on loopback: a
//! provider added and checked (its models offered to add), a failing one
//! showing the core's reason, models added and one made the default, the
//! note-titles task turned on and backfilled with what waits shown; the
//! API key never shown back; no page without a session; a forged form
//! refused.

use serde_json::json;

use super::{Answer, Page};
use crate::common::{ModelServer, TestServer};

/// The key these tests give a provider: no page may show it.
const KEY: &str = "sk-never-shown-0123456789";

/// `answer`, asserted to be `status`.
fn expect(answer: Answer, status: u16) -> Answer {
    assert_eq!(answer.status, status, "{}", answer.body);
    answer
}

/// Posts `fields` to `path` with the CSRF token of the AI page.
fn post(page: &mut Page<'_>, path: &str, fields: &[(&str, &str)]) -> Answer {
    page.submit("/settings/ai", path, fields)
}

#[test]
fn a_provider_is_added_checked_given_models_and_the_titles_task_backfilled() {
    let models = ModelServer::start();
    models.set_models(&["model-a", "model-b"]);
    let s = TestServer::start();
    let mut owner = Page::signed_in(&s);
    let mut seen = Vec::new();

    let empty = expect(owner.get("/settings/ai"), 200);
    assert!(empty.body.contains("No providers yet"), "{}", empty.body);
    assert!(
        empty
            .body
            .contains("href=\"/settings/ai\" aria-current=\"page\"")
    );
    seen.push(empty.body);

    // A name the core refuses: 422, its phrase beside the field.
    let blank = expect(
        post(
            &mut owner,
            "/settings/ai/providers",
            &[
                ("name", ""),
                ("kind", "api_compatible"),
                ("base_url", &models.url),
                ("api_key", KEY),
            ],
        ),
        422,
    );
    assert!(
        blank.body.contains("id=\"add-provider-name-error\""),
        "{}",
        blank.body
    );
    seen.push(blank.body);

    let added = expect(
        post(
            &mut owner,
            "/settings/ai/providers",
            &[
                ("name", "Local <b>models</b>"),
                ("kind", "api_compatible"),
                ("base_url", &models.url),
                ("api_key", KEY),
            ],
        ),
        303,
    );
    assert_eq!(added.location(), Some("/settings/ai?done=provider_added"));
    let provider = s.org.ai().providers(&Default::default()).unwrap().items[0].clone();
    assert!(provider.api_key_set);
    let listed = expect(owner.get("/settings/ai?done=provider_added"), 200);
    // A hostile name is escaped.
    assert!(!listed.body.contains("<b>models"), "{}", listed.body);
    assert!(listed.body.contains("Local &"), "{}", listed.body);
    assert!(listed.body.contains("key set"));
    assert!(listed.body.contains(&models.url));
    seen.push(listed.body);

    // The check lists what the provider offers, with boxes to add.
    let checked = expect(
        post(
            &mut owner,
            &format!("/settings/ai/providers/{}/check", provider.id),
            &[],
        ),
        200,
    );
    assert!(checked.body.contains("offers 2 models"), "{}", checked.body);
    assert!(
        checked
            .body
            .contains("name=\"identifiers\" value=\"model-a\"")
    );
    assert!(
        checked
            .body
            .contains("name=\"identifiers\" value=\"model-b\"")
    );
    seen.push(checked.body);

    // One ticked from the list (the first becomes the default), one typed.
    let models_path = format!("/settings/ai/providers/{}/models", provider.id);
    let one = expect(
        post(&mut owner, &models_path, &[("identifiers", "model-a")]),
        303,
    );
    assert_eq!(one.location(), Some("/settings/ai?done=model_added"));
    expect(
        post(&mut owner, &models_path, &[("identifier", "model-b")]),
        303,
    );
    let again = expect(
        post(&mut owner, &models_path, &[("identifier", "model-b")]),
        422,
    );
    assert!(again.body.contains("field-error"), "{}", again.body);
    seen.push(again.body);
    let all = s.org.ai().models(&Default::default()).unwrap().items;
    assert_eq!(all.len(), 2);
    let b = all.iter().find(|m| m.identifier == "model-b").unwrap();
    assert!(
        all.iter()
            .any(|m| m.identifier == "model-a" && m.is_default)
    );
    expect(
        post(
            &mut owner,
            &format!("/settings/ai/models/{}/default", b.id),
            &[],
        ),
        303,
    );
    assert!(s.org.ai().model(b.id).unwrap().is_default);

    // Notes without a title, then the task on with model-b.
    for body in ["<p>Book the dentist</p>", "<p>Water the plants</p>"] {
        s.post("/notes", json!({"note": {"body_html": body}}))
            .expect(201);
    }
    let off = expect(
        post(&mut owner, "/settings/ai/tasks/note_titles/backfill", &[]),
        422,
    );
    seen.push(off.body);
    let b_id = b.id.to_string();
    let on = expect(
        post(
            &mut owner,
            "/settings/ai/tasks/note_titles",
            &[("enabled", "on"), ("ai_model_id", b_id.as_str())],
        ),
        303,
    );
    assert_eq!(on.location(), Some("/settings/ai?done=saved"));
    let task = s.org.ai().task("note_titles").unwrap();
    assert!(task.enabled);
    assert_eq!(task.ai_model_id, Some(b.id));

    let before = expect(owner.get("/settings/ai"), 200);
    let pending = task.backfill_pending.unwrap();
    assert!(pending > 0);
    assert!(
        before
            .body
            .contains(&format!("a backfill would queue: {pending}")),
        "{}",
        before.body
    );
    seen.push(before.body);
    let filled = expect(
        post(&mut owner, "/settings/ai/tasks/note_titles/backfill", &[]),
        303,
    );
    assert_eq!(filled.location(), Some("/settings/ai?done=backfilled"));
    let queued = s.org.ai().queue("note_titles").unwrap().queued;
    assert!(queued > 0);
    let after = expect(owner.get("/settings/ai?done=backfilled"), 200);
    assert!(after.body.contains("The backfill is queued."));
    assert!(
        after
            .body
            .contains(&format!("Waiting in the queue: {queued}")),
        "{}",
        after.body
    );
    seen.push(after.body);

    // The key never shows, in any page.
    for body in &seen {
        assert!(!body.contains(KEY), "the key was shown: {body}");
    }

    // Deleting the provider takes its models.
    expect(
        post(
            &mut owner,
            &format!("/settings/ai/providers/{}/delete", provider.id),
            &[],
        ),
        303,
    );
    assert!(
        s.org
            .ai()
            .models(&Default::default())
            .unwrap()
            .items
            .is_empty()
    );
}

#[test]
fn a_failing_check_shows_the_cores_reason() {
    let models = ModelServer::start();
    models.fail_with(401, r#"{"error":{"message":"invalid key"}}"#);
    let s = TestServer::start();
    let mut owner = Page::signed_in(&s);
    expect(
        post(
            &mut owner,
            "/settings/ai/providers",
            &[
                ("name", "Broken"),
                ("kind", "api_compatible"),
                ("base_url", &models.url),
            ],
        ),
        303,
    );
    let provider = s.org.ai().providers(&Default::default()).unwrap().items[0].clone();
    let failed = expect(
        post(
            &mut owner,
            &format!("/settings/ai/providers/{}/check", provider.id),
            &[],
        ),
        422,
    );
    assert!(
        failed
            .body
            .contains(&format!("id=\"check-{}-error\"", provider.id)),
        "{}",
        failed.body
    );
    assert!(failed.body.contains("The check failed:"), "{}", failed.body);
    // The failure is recorded on the provider and shown with it.
    let recorded = s.org.ai().provider(provider.id).unwrap();
    assert!(recorded.last_failed_at.is_some());
    let page = expect(owner.get("/settings/ai"), 200);
    assert!(page.body.contains("last failed:"), "{}", page.body);
}

#[test]
fn no_page_without_a_session_and_no_forged_form() {
    let models = ModelServer::start();
    let s = TestServer::start();
    let mut visitor = Page::anonymous(&s);
    let away = expect(visitor.get("/settings/ai"), 303);
    assert_eq!(away.location(), Some("/sign-in"));
    let anonymous = visitor.form(
        "/settings/ai/providers",
        &[
            ("name", "Sneaky"),
            ("kind", "api_compatible"),
            ("base_url", &models.url),
        ],
    );
    assert_eq!(anonymous.status, 303);
    let mut owner = Page::signed_in(&s);
    let page = expect(owner.get("/settings/ai"), 200);
    let forms = page.body.matches("<form method=\"post\"").count();
    assert_eq!(forms, page.body.matches("name=\"csrf_token\"").count());
    assert!(!page.body.contains("style="));
    let forged = owner.form(
        "/settings/ai/providers",
        &[
            ("csrf_token", "forged"),
            ("name", "Sneaky"),
            ("kind", "api_compatible"),
            ("base_url", &models.url),
        ],
    );
    assert_eq!(forged.status, 403, "{}", forged.body);
    assert!(
        s.org
            .ai()
            .providers(&Default::default())
            .unwrap()
            .items
            .is_empty()
    );
}
