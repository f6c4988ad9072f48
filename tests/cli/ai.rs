//! `organiser ai`: providers (add, test, check, rm), models (add, the
//! default, rm), trying a model, the built-in tasks (enable, disable,
//! backfill: worked by the command itself in process, by the server's
//! worker through a server), `--json`, and what the API refuses. The
//! `mock` provider kind needs no network (the test binary is a debug
//! build, which is development mode); a failing provider is an
//! `api_compatible` one at a loopback port nobody listens on.

use serde_json::Value;

use crate::util::Dir;

/// The notes the tests title, and the titles the mock model makes of
/// them (their first five words).
const NOTES: [(&str, &str); 2] = [
    (
        "Buy milk and eggs for the weekend party",
        "Buy milk and eggs for",
    ),
    (
        "Call the plumber about the leaking kitchen tap",
        "Call the plumber about the",
    ),
];

/// A loopback address with a version path where nothing listens.
fn nowhere() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
    let port = listener.local_addr().expect("an address").port();
    drop(listener);
    format!("http://127.0.0.1:{port}/v1")
}

/// Adds the provider "Broken": `api_compatible`, at an address where
/// nothing listens (answered).
fn add_broken(dir: &Dir) -> String {
    let url = nowhere();
    dir.ok(&[
        "ai",
        "providers",
        "add",
        "Broken",
        "--kind",
        "api_compatible",
        "--base-url",
        &url,
    ]);
    url
}

/// The items of a page (`{data: [...], meta}`).
fn items(page: &Value) -> &Vec<Value> {
    page["data"].as_array().expect("a page of items")
}

/// Adds the untitled notes of [`NOTES`].
fn add_notes(dir: &Dir) {
    for (body, _) in NOTES {
        dir.ok(&["notes", "add", "--body", body]);
    }
}

/// Every note has the title the mock model made of its text.
#[track_caller]
fn assert_titled(dir: &Dir) {
    let notes = dir.json(&["notes"]);
    for (body, title) in NOTES {
        let note = items(&notes)
            .iter()
            .find(|n| n["excerpt"].as_str().is_some_and(|e| e.starts_with(body)))
            .unwrap_or_else(|| panic!("no note {body:?}: {notes}"));
        assert_eq!(note["title"], title, "{note}");
        assert_eq!(note["title_generated"], true, "{note}");
    }
    let out = dir.ok(&["notes"]);
    for (_, title) in NOTES {
        assert!(out.stdout.contains(title), "{out:?}");
    }
}

#[test]
fn a_mock_provider_its_models_a_trial_and_note_titles_in_process() {
    let dir = Dir::new();
    let out = dir.ok(&["ai", "providers"]);
    assert!(out.stdout.contains("No providers yet"), "{out:?}");

    let out = dir.ok(&["ai", "providers", "add", "Mock", "--kind", "mock"]);
    assert!(
        out.stdout.starts_with("Added AI provider Mock ("),
        "{out:?}"
    );
    let out = dir.ok(&["ai", "providers"]);
    assert!(
        out.stdout.starts_with("AI providers · 1 provider\n"),
        "{out:?}"
    );
    let row = out.stdout.lines().nth(2).expect("a row");
    for word in ["1", "Mock", "mock", "no", "never"] {
        assert!(row.split_whitespace().any(|w| w == word), "{word}: {out:?}");
    }
    let providers = dir.json(&["ai", "providers"]);
    assert_eq!(items(&providers).len(), 1);
    assert_eq!(items(&providers)[0]["name"], "Mock");
    assert_eq!(items(&providers)[0]["api_key_set"], false);

    // Test settings, test a saved provider, check it.
    assert_eq!(
        dir.ok(&["ai", "providers", "test", "--kind", "mock"])
            .stdout,
        "2 models\n"
    );
    assert_eq!(
        dir.ok(&["ai", "providers", "test", "Mock"]).stdout,
        "2 models\n"
    );
    let tested = dir.json(&["ai", "providers", "test", "mock"]);
    assert_eq!(tested["data"]["model_count"], 2);
    let out = dir.ok(&["ai", "providers", "check", "Mock"]);
    assert_eq!(out.stdout, "mock-small\nmock-large\n");
    let checked = dir.json(&["ai", "providers", "check", "1"]);
    assert_eq!(checked["data"]["models"][1], "mock-large");
    let providers = dir.json(&["ai", "providers"]);
    assert!(items(&providers)[0]["last_succeeded_at"].is_string());

    // The first model ever added becomes the default.
    let out = dir.ok(&["ai", "models"]);
    assert!(out.stdout.contains("No models yet"), "{out:?}");
    let out = dir.ok(&["ai", "models", "add", "Mock", "mock-small"]);
    assert_eq!(
        out.stdout, "Added 1 model of Mock: mock-small (default)\n",
        "{out:?}"
    );
    let out = dir.ok(&["ai", "models", "add", "mock", "mock-small", "mock-large"]);
    assert_eq!(
        out.stdout, "Added 1 model of Mock: mock-large\nAlready added: mock-small\n",
        "{out:?}"
    );
    let out = dir.ok(&["ai", "models"]);
    assert!(
        out.stdout
            .starts_with("AI models · 2 models · default mock-small\n"),
        "{out:?}"
    );
    let small = out
        .stdout
        .lines()
        .skip(2)
        .find(|l| l.contains("mock-small"))
        .expect("a row");
    assert!(small.ends_with('*') && small.contains("Mock"), "{out:?}");
    let models = dir.json(&["ai", "models", "--provider", "Mock"]);
    assert_eq!(items(&models).len(), 2);
    let default: Vec<&Value> = items(&models)
        .iter()
        .filter(|m| m["is_default"] == true)
        .collect();
    assert_eq!(default.len(), 1);
    assert_eq!(default[0]["identifier"], "mock-small");

    // A trial: the mock model answers the prompt's first five words.
    let out = dir.ok(&["ai", "try", "mock-small", "hello there friend"]);
    assert_eq!(out.stdout, "hello there friend\n");
    assert!(
        out.stderr.starts_with('(') && out.stderr.ends_with(" ms)\n"),
        "{out:?}"
    );
    let tried = dir.json(&[
        "ai",
        "try",
        "mock-large",
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
    ]);
    assert_eq!(tried["data"]["reply"], "one two three four five");
    assert!(tried["data"]["duration_ms"].is_u64());

    // Note titles: off until turned on; a backfill queues the untitled
    // notes, and in process the command works the queue itself.
    add_notes(&dir);
    let tasks = dir.json(&["ai", "tasks"]);
    assert_eq!(tasks["data"][0]["key"], "note_titles");
    assert_eq!(tasks["data"][0]["enabled"], false);
    assert_eq!(tasks["data"][0]["backfill_pending"], 2);
    let out = dir.ok(&["ai", "tasks"]);
    let row = out.stdout.lines().nth(2).expect("a row");
    assert!(row.starts_with("note_titles  Note titles  no  "), "{out:?}");
    assert!(row.contains("default"), "{out:?}");

    let out = dir.ok(&["ai", "tasks", "enable", "note_titles"]);
    assert!(
        out.stdout
            .starts_with("Enabled note_titles (Note titles) · 2 notes without a title"),
        "{out:?}"
    );
    let out = dir.ok(&["ai", "tasks", "backfill", "note_titles"]);
    assert_eq!(
        out.stdout, "Queued 2 notes\nDone: 2 titles written, none waits\n",
        "{out:?}"
    );
    assert_eq!(out.stderr, "", "no bar on a pipe: {out:?}");
    assert_titled(&dir);

    // Again: nothing to queue; --json is the backfill's answer with the
    // task and its queue.
    let again = dir.json(&["ai", "tasks", "backfill", "note_titles"]);
    assert_eq!(again["data"]["queued"], 0);
    assert_eq!(again["data"]["queue"]["queued"], 0);
    assert_eq!(again["data"]["task"]["enabled"], true);
    assert_eq!(again["data"]["task"]["backfill_pending"], 0);

    // The task's settings, then off.
    let changed = dir.json(&[
        "ai",
        "tasks",
        "enable",
        "note_titles",
        "--model",
        "mock-large",
        "--reasoning",
        "low",
        "--max-output-tokens",
        "512",
    ]);
    assert_eq!(changed["data"]["reasoning"], "low");
    assert_eq!(changed["data"]["max_output_tokens"], 512);
    let large = items(&dir.json(&["ai", "models"]))
        .iter()
        .find(|m| m["identifier"] == "mock-large")
        .expect("mock-large")["id"]
        .clone();
    assert_eq!(changed["data"]["ai_model_id"], large);
    let out = dir.ok(&["ai", "tasks"]);
    let row: Vec<&str> = out
        .stdout
        .lines()
        .nth(2)
        .expect("a row")
        .split_whitespace()
        .collect();
    assert_eq!(
        row,
        [
            "note_titles",
            "Note",
            "titles",
            "yes",
            "mock-large",
            "low",
            "512",
            "0",
            "0"
        ],
        "{out:?}"
    );
    let back = dir.json(&["ai", "tasks", "enable", "note_titles", "--model", "default"]);
    assert_eq!(back["data"]["ai_model_id"], Value::Null);
    let out = dir.ok(&["ai", "tasks", "disable", "note_titles"]);
    assert_eq!(out.stdout, "Disabled note_titles (Note titles)\n");
    assert_eq!(dir.json(&["ai", "tasks"])["data"][0]["enabled"], false);

    // The default moves; deleting it leaves none.
    let out = dir.ok(&["ai", "models", "default", "mock-large"]);
    assert_eq!(out.stdout, "mock-large is the default model now\n");
    let out = dir.ok(&["ai", "models", "rm", "mock-large"]);
    assert!(
        out.stdout.starts_with(
            "Deleted AI model mock-large (this cannot be undone); there is no default model now"
        ),
        "{out:?}"
    );
    let out = dir.ok(&["ai", "models"]);
    assert!(
        out.stdout.starts_with("AI models · 1 model · no default\n"),
        "{out:?}"
    );
    let out = dir.ok(&["ai", "models", "add", "Mock", "mock-large", "--default"]);
    assert_eq!(out.stdout, "Added 1 model of Mock: mock-large (default)\n");
    let models = dir.json(&["ai", "models"]);
    let small = items(&models)
        .iter()
        .find(|m| m["identifier"] == "mock-small")
        .expect("mock-small");
    let deleted = dir.json(&["ai", "models", "rm", small["id"].as_str().unwrap()]);
    assert_eq!(deleted["data"]["deleted"], small["id"]);

    // A provider goes with its models.
    let out = dir.ok(&["ai", "providers", "rm", "Mock"]);
    assert_eq!(
        out.stdout,
        "Deleted AI provider Mock and its 1 model (this cannot be undone); there is no default model now\n"
    );
    assert!(items(&dir.json(&["ai", "models"])).is_empty());
    assert!(items(&dir.json(&["ai", "providers"])).is_empty());
}

#[test]
fn refusals_are_the_api_s() {
    let dir = Dir::new();
    // vendor_b needs a key: the API's 422, exit 1, nothing saved.
    let add = [
        "ai",
        "providers",
        "add",
        "X",
        "--kind",
        "vendor_b",
        "--base-url",
        "https://x.example/v1",
    ];
    let said = dir.run(&add).error();
    assert!(
        said.contains("can't be blank (this kind of provider needs a key)"),
        "{said}"
    );
    let mut json = add.to_vec();
    json.push("--json");
    let out = dir.run(&json);
    let error = out.json_error();
    assert_eq!(error["code"], "validation_failed", "{out:?}");
    assert!(error["details"]["api_key"].is_array(), "{out:?}");
    assert!(items(&dir.json(&["ai", "providers"])).is_empty());

    // A base URL is required unless mock, and judged by the API.
    let said = dir
        .run(&[
            "ai",
            "providers",
            "add",
            "Local",
            "--kind",
            "api_compatible",
        ])
        .error();
    assert!(said.contains("--base-url can't be blank"), "{said}");
    let said = dir
        .run(&[
            "ai",
            "providers",
            "add",
            "Local",
            "--kind",
            "api_compatible",
            "--base-url",
            "http://localhost:11434",
        ])
        .error();
    assert!(
        said.contains("--base-url must include the version path"),
        "{said}"
    );
    // An unknown kind is a usage mistake.
    dir.run(&["ai", "providers", "add", "Y", "--kind", "nope"])
        .failure(2);

    // The key from standard input, never shown back.
    let out = dir
        .cmd(&[
            "ai",
            "providers",
            "add",
            "Vendor",
            "--kind",
            "vendor_b",
            "--base-url",
            "https://x.example/v1",
            "--api-key-stdin",
            "--json",
        ])
        .stdin("sk-test-123\n")
        .run()
        .success();
    let made = out.json();
    assert_eq!(made["data"]["api_key_set"], true, "{out:?}");
    assert!(!out.stdout.contains("sk-test-123"), "{out:?}");
    let out = dir.ok(&["ai", "providers"]);
    assert!(!out.stdout.contains("sk-test"), "{out:?}");
    let said = dir
        .run(&["ai", "providers", "add", "vendor", "--kind", "mock"])
        .error();
    assert!(said.contains("has already been taken"), "{said}");

    // Names that name nothing; a task that is off.
    let said = dir.run(&["ai", "try", "nothing", "hi"]).error();
    assert!(
        said.starts_with("there is no AI model named \"nothing\""),
        "{said}"
    );
    let said = dir.run(&["ai", "providers", "check", "Nope"]).error();
    assert!(
        said.starts_with("there is no AI provider named \"Nope\""),
        "{said}"
    );
    let said = dir.run(&["ai", "tasks", "enable", "nope"]).error();
    assert!(said.starts_with("there is no AI task \"nope\""), "{said}");
    let said = dir.run(&["ai", "tasks", "enable", "note/titles"]).error();
    assert!(said.starts_with("there is no AI task"), "{said}");
    let said = dir
        .run(&[
            "ai",
            "tasks",
            "enable",
            "note_titles",
            "--max-output-tokens",
            "5",
        ])
        .error();
    assert!(
        said.contains("--max-output-tokens must be a whole number"),
        "{said}"
    );
    let said = dir.run(&["ai", "tasks", "backfill", "note_titles"]).error();
    assert!(said.contains("the task is off"), "{said}");
    dir.ok(&["ai", "tasks", "enable", "note_titles"]);
    let said = dir.run(&["ai", "tasks", "backfill", "note_titles"]).error();
    assert!(said.contains("the task has no model"), "{said}");
}

#[test]
fn a_failing_provider_stops_the_backfill_with_its_reason() {
    let dir = Dir::new();
    let url = add_broken(&dir);
    let said = dir.run(&["ai", "providers", "check", "Broken"]).error();
    assert!(said.starts_with("Broken: "), "{said}");
    let out = dir.run(&[
        "ai",
        "providers",
        "test",
        "--kind",
        "api_compatible",
        "--base-url",
        &url,
        "--json",
    ]);
    assert_eq!(out.json_error()["code"], "provider_error", "{out:?}");
    dir.ok(&["ai", "models", "add", "Broken", "some-model"]);
    dir.ok(&["ai", "tasks", "enable", "note_titles"]);
    dir.ok(&["notes", "add", "--body", "one two three four five six"]);

    let out = dir
        .run(&["ai", "tasks", "backfill", "note_titles"])
        .failure(1);
    assert_eq!(out.stdout, "Queued 0 notes · 1 waiting in all\n", "{out:?}");
    let reason = dir.json(&["ai", "providers"])["data"][0]["last_error_reason"]
        .as_str()
        .expect("a reason")
        .to_owned();
    assert_eq!(
        out.stderr,
        format!("error: Broken: {reason}; 1 note still waits\n"),
        "{out:?}"
    );
    let out = dir.ok(&["ai", "providers"]);
    assert!(out.stdout.contains("1 failing"), "{out:?}");
    assert!(out.stdout.contains(&reason), "{out:?}");
    // --no-wait only queues.
    let out = dir.ok(&["ai", "tasks", "backfill", "note_titles", "--no-wait"]);
    assert_eq!(
        out.stdout,
        "Queued 0 notes · 1 waiting in all\n1 note waits\n"
    );
}

#[test]
fn through_a_server_its_worker_works_the_queue() {
    let dir = Dir::new();
    add_notes(&dir);
    let _server = dir.serve();
    dir.ok(&["ai", "providers", "add", "Mock", "--kind", "mock"]);
    assert_eq!(
        dir.ok(&["ai", "providers", "test", "Mock"]).stdout,
        "2 models\n"
    );
    dir.ok(&["ai", "models", "add", "Mock", "mock-small"]);
    let out = dir.ok(&["ai", "try", "mock-small", "hello", "there", "friend"]);
    assert_eq!(out.stdout, "hello there friend\n");
    dir.ok(&["ai", "tasks", "enable", "note_titles"]);
    // The server's worker may title some before the command looks.
    let out = dir.ok(&["ai", "tasks", "backfill", "note_titles"]);
    assert!(out.stdout.starts_with("Queued 2 notes\n"), "{out:?}");
    assert!(out.stdout.ends_with("Done: none waits\n"), "{out:?}");
    assert_titled(&dir);

    // A failing provider stops the command; the server tries again later.
    add_broken(&dir);
    dir.ok(&["ai", "models", "add", "Broken", "some-model", "--default"]);
    dir.ok(&["ai", "tasks", "disable", "note_titles"]);
    dir.ok(&["notes", "add", "--body", "one two three four five six"]);
    dir.ok(&["ai", "tasks", "enable", "note_titles"]);
    let out = dir
        .run(&["ai", "tasks", "backfill", "note_titles"])
        .failure(1);
    assert!(
        out.stderr.starts_with("error: Broken: ")
            && out
                .stderr
                .ends_with("; 1 note still waits (the server tries again later)\n"),
        "{out:?}"
    );
}
