//! Document 1, "Read-only mode", for AI: every AI write, connection call
//! that records and trial is 403 `read_only` and changes nothing; every
//! GET still answers; the worker writes no title.

use serde_json::json;

use super::{model, note, provider};
use crate::common::fixtures::id;
use crate::common::{Core, ModelServer, Setup, licence_signer};

#[test]
fn ai_writes_are_403_while_read_only_and_the_worker_waits() {
    let mut setup = Setup::default();
    setup.options.licence_public_key = licence_signer().verifying_key();
    let s = Core::with(setup);
    let server = ModelServer::start();
    let p = provider(&s, "P", "api_compatible", &server, None);
    let m = model(&s, &p, "model-a", true);
    s.patch(
        "/ai_tasks/note_titles",
        json!({"ai_task": {"enabled": true}}),
    )
    .expect(200);
    let n = note(&s, "A note waiting for its title");
    s.advance(15 * 86400);
    assert_eq!(s.get("/licence").data()["state"], "read_only");
    let (pid, mid) = (id(&p), id(&m));
    let snapshot = || {
        (
            s.get("/ai_providers").body,
            s.get("/ai_models").body,
            s.get("/ai_tasks").body,
            s.get(&format!("/notes/{}", id(&n))).body,
        )
    };
    let before = snapshot();
    for (method, path, body) in [
        (
            "POST",
            "/ai_providers".to_owned(),
            json!({"ai_provider": {"name": "X", "kind": "mock"}}),
        ),
        (
            "PATCH",
            format!("/ai_providers/{pid}"),
            json!({"ai_provider": {"name": "Y"}}),
        ),
        ("DELETE", format!("/ai_providers/{pid}"), json!(null)),
        (
            "POST",
            "/ai_providers/test".to_owned(),
            json!({"kind": "mock"}),
        ),
        ("POST", format!("/ai_providers/{pid}/check"), json!(null)),
        (
            "POST",
            format!("/ai_providers/{pid}/model_additions"),
            json!({"identifiers": ["b"]}),
        ),
        (
            "POST",
            "/ai_models".to_owned(),
            json!({"ai_model": {"ai_provider_id": pid, "identifier": "c"}}),
        ),
        (
            "PATCH",
            format!("/ai_models/{mid}"),
            json!({"ai_model": {"name": "Z"}}),
        ),
        ("DELETE", format!("/ai_models/{mid}"), json!(null)),
        (
            "POST",
            format!("/ai_models/{mid}/trial"),
            json!({"prompt": "hi"}),
        ),
        (
            "PATCH",
            "/ai_tasks/note_titles".to_owned(),
            json!({"ai_task": {"enabled": false}}),
        ),
        (
            "POST",
            "/ai_tasks/note_titles/backfill".to_owned(),
            json!(null),
        ),
    ] {
        let call = crate::common::Call::new(method, path.clone())
            .body(Some(body).filter(|b| !b.is_null()));
        let reply = s.call(&call);
        assert_eq!(
            (reply.status, reply.code()),
            (403, "read_only"),
            "{method} {path}: {}",
            reply.body
        );
    }
    assert_eq!(s.org.run_ai_tasks().unwrap(), 0);
    assert_eq!(server.chat_calls(), 0);
    assert_eq!(snapshot(), before);
    s.get(&format!("/ai_providers/{pid}/available_models"))
        .expect(200);
    s.get("/ai_tasks/note_titles/queue").expect(200);
}
