//! `organiser serve`, and the CLI finding the store held: by that server
//! (it goes through `server.json`), by another process (an error), or
//! pointed at any server with `ORGANISER_URL` + `ORGANISER_TOKEN`.

use crate::token::create;
use crate::util::{Cmd, Dir, http_get, shape};

#[test]
fn serve_writes_server_json_while_it_runs_and_removes_it_on_sigterm() {
    let dir = Dir::new();
    let server = dir.serve();

    let info = server.info.as_object().expect("an object");
    let mut keys: Vec<&str> = info.keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(keys, ["pid", "token", "url"], "{}", server.info);
    assert!(
        server.url.starts_with("http://127.0.0.1:") && !server.url.ends_with(":0"),
        "{}",
        server.info
    );
    assert!(!server.token.is_empty());
    assert_eq!(server.info["pid"], server.pid());
    #[cfg(unix)]
    assert_eq!(crate::util::mode(&dir.server_json()), 0o600);

    let stderr = server.wait_for_stderr("Serving ");
    let said = format!("Serving {} on {}", dir.data().display(), server.url);
    assert!(stderr.contains(&said), "expected {said:?} in:\n{stderr}");

    // It answers (and has installed its signal handling by now).
    let (status, body) = server.get("/me", Some(&server.token));
    assert_eq!(status, 200, "{body}");

    let status = server.stop();
    assert!(status.success(), "serve exited with {status}");
    assert!(!dir.server_json().exists(), "server.json is left behind");
}

/// `server.json` is the sign that the server is up; a SIGTERM that follows
/// at once must still stop it gracefully and remove the file. (A shell
/// watches for the file and signals with its builtins: the test process
/// would be too slow to hit the moment.)
#[test]
fn sigterm_as_soon_as_server_json_appears_stops_the_server_gracefully() {
    const SCRIPT: &str = r#"
        file=$1; shift
        ORGANISER_RATE_LIMIT=0 "$0" "$@" &
        pid=$!
        while [ ! -e "$file" ]; do
            kill -0 "$pid" 2>/dev/null || break
        done
        kill -TERM "$pid"
        wait "$pid"
        echo "$?"
    "#;
    for _ in 0..10 {
        let dir = Dir::new();
        let file = dir.server_json();
        let out = Cmd::shell(
            SCRIPT,
            &[
                file.as_os_str(),
                "--data-dir".as_ref(),
                dir.data().as_os_str(),
                "serve".as_ref(),
                "--listen".as_ref(),
                "127.0.0.1:0".as_ref(),
            ],
        )
        .run()
        .success();
        assert_eq!(
            out.stdout.trim(),
            "0",
            "SIGTERM right after server.json appeared: serve's exit status was not 0 \
             (143 = killed by the signal, its handler not yet installed): {out:?}"
        );
        assert!(
            !file.exists(),
            "SIGTERM right after server.json appeared left it behind"
        );
    }
}

#[test]
fn sigint_stops_the_server_gracefully() {
    let dir = Dir::new();
    let server = dir.serve();
    let token = server.token.clone();
    assert_eq!(server.get("/me", Some(&token)).0, 200);
    let status = server.stop_with("INT");
    assert!(status.success(), "serve exited with {status}");
    assert!(!dir.server_json().exists());
}

#[test]
fn commands_go_through_the_server_that_holds_the_store() {
    let dir = Dir::empty();
    dir.init("Ada Lovelace", "ada", "Europe/London");
    let token = create(&dir, "before");
    let me_before = dir.json(&["me"]);
    let me_human = dir.ok(&["me"]).stdout;
    let system_before = dir.json(&["system"]);
    let system_human = dir.ok(&["system"]).stdout;
    let tokens_before = dir.json(&["token", "list"]);
    let made_before = dir.json(&["token", "create", "json-before"]);
    let tokens_before_json = dir.json(&["token", "list"]);

    let server = dir.serve();

    // Same output, in the same shapes, through the server.
    assert_eq!(dir.json(&["me"]), me_before);
    assert_eq!(dir.ok(&["me"]).stdout, me_human);
    assert_eq!(shape(&dir.json(&["system"])), shape(&system_before));
    assert_eq!(dir.ok(&["system"]).stdout, system_human);
    assert_eq!(dir.json(&["token", "list"]), tokens_before_json);
    assert_eq!(
        shape(&dir.json(&["token", "create", "json-during"])),
        shape(&made_before)
    );

    // And the API says the same as the CLI's --json.
    let local = server.token.clone();
    let (status, body) = server.get("/me", Some(&local));
    assert_eq!((status, &body), (200, &me_before));
    let (status, body) = server.get("/api_tokens", Some(&local));
    assert_eq!(status, 200);
    assert_eq!(shape(&body), shape(&tokens_before));
    assert_eq!(body["data"][0], tokens_before["data"][0]);
    let (status, body) = server.get("/system", Some(&local));
    assert_eq!(status, 200);
    assert_eq!(shape(&body), shape(&system_before));

    // Writes go through it too.
    let made = create(&dir, "during");
    let list = dir.json(&["token", "list"]);
    let names: Vec<&str> = list["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["before", "json-before", "json-during", "during"]);
    let human = dir.ok(&["token", "list"]);
    human.assert_no_ansi();
    assert!(human.stdout.contains("during"), "{human:?}");

    dir.cmd(&["password"])
        .stdin("correct horse battery staple\n")
        .run()
        .success();
    let set = dir.json(&["me", "set", "--time-zone", "Tokyo"]);
    assert_eq!(set["data"]["time_zone_iana"], "Asia/Tokyo");
    assert_eq!(dir.json(&["me"])["data"]["has_password"], true);

    // Both API tokens work over HTTP.
    for secret in [&token, &made] {
        let (status, body) = server.get("/me", Some(secret));
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["data"]["username"], "ada");
    }
    assert_eq!(server.get("/me", None).0, 401);

    let status = server.stop();
    assert!(status.success(), "serve exited with {status}");
    assert!(!dir.server_json().exists());

    // Everything done through the server is in the store.
    let me = dir.json(&["me"]);
    assert_eq!(me["data"]["has_password"], true);
    assert_eq!(me["data"]["time_zone"], "Tokyo");
    let after = dir.json(&["token", "list"]);
    for (now, then) in after["data"]
        .as_array()
        .unwrap()
        .iter()
        .zip(list["data"].as_array().unwrap())
    {
        assert_eq!(now["id"], then["id"]);
        assert_eq!(now["name"], then["name"]);
        // "before" and "during" were used over HTTP above; the others not.
        let used = now["name"] == "before" || now["name"] == "during";
        assert_eq!(now["last_used_at"].is_string(), used, "{after}");
    }
}

#[test]
fn init_and_a_second_serve_refuse_a_store_held_by_a_server() {
    let dir = Dir::new();
    let server = dir.serve();

    let out = dir.run(&["init", "--name", "Ada", "--username", "ada"]);
    let message = out.error();
    assert!(
        message.contains("server") && message.contains(&server.url),
        "{out:?}"
    );

    let out = dir.run(&["serve", "--listen", "127.0.0.1:0"]);
    let message = out.error();
    assert!(
        message.contains("server") && message.contains(&server.url),
        "{out:?}"
    );

    // Neither disturbed the running server.
    assert_eq!(dir.json(&["me"])["data"]["name"], "Owner");
    let status = server.stop();
    assert!(status.success(), "serve exited with {status}");
    assert!(!dir.server_json().exists());
}

#[test]
fn organiser_url_and_token_point_the_cli_at_a_server() {
    let dir = Dir::empty();
    dir.init("Ada", "ada", "London");
    let server = dir.serve();
    let token = create(&dir, "remote");

    // A data directory that does not exist: it must not be touched.
    let elsewhere = dir.root().join("unused");
    let remote = |args: &[&str], token: &str| {
        Cmd::new(args)
            .data_dir(&elsewhere)
            .env("ORGANISER_URL", &server.url)
            .env("ORGANISER_TOKEN", token)
            .run()
    };

    let me = remote(&["me", "--json"], &token).success().json();
    assert_eq!(me["data"]["username"], "ada");
    assert_eq!(me["data"]["token"]["name"], "remote", "{me}");
    let human = remote(&["me"], &token).success();
    human.assert_no_ansi();
    assert!(human.stdout.contains("ada"), "{human:?}");
    remote(&["system"], &token).success().assert_no_ansi();

    // Session-only operations are refused to an API token, on one line.
    let out = remote(&["token", "list"], &token);
    assert!(!out.error().is_empty());

    // A trailing slash on the address is fine.
    let out = Cmd::new(&["me", "--json"])
        .env("ORGANISER_URL", format!("{}/", server.url))
        .env("ORGANISER_TOKEN", &token)
        .run()
        .success();
    assert_eq!(out.json()["data"]["username"], "ada");

    // A bad token: exit 1 with the API's own message.
    let (status, body) = server.get("/me", Some("org_1_not-a-real-token"));
    assert_eq!(status, 401);
    let api_message = body["error"]["message"].as_str().expect("a message");
    let out = remote(&["me", "--json"], "org_1_not-a-real-token");
    assert_eq!(out.error(), api_message);

    assert!(!elsewhere.exists(), "the local data directory was used");
    assert!(server.stop().success());
}

#[test]
fn an_unreachable_organiser_url_fails_on_one_line() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    drop(listener);
    let url = format!("http://{addr}");
    let out = Cmd::new(&["me"])
        .env("ORGANISER_URL", &url)
        .env("ORGANISER_TOKEN", "org_1_x")
        .run();
    assert!(out.error().contains(&url), "{out:?}");
}

#[test]
fn a_store_held_by_another_process_is_an_error_on_one_line() {
    let dir = Dir::empty();
    dir.init("Ada", "ada", "London");
    let held = organiser::Organiser::open(dir.data()).expect("the store opens");

    for args in [
        &["me"][..],
        &["me", "--json"][..],
        &["token", "create", "x"][..],
        &["init", "--name", "A", "--username", "a"][..],
        &["serve", "--listen", "127.0.0.1:0"][..],
    ] {
        // Commands wait for a held store (5 s unless told): not here.
        let out = dir.cmd(args).env("ORGANISER_LOCK_WAIT_MS", "0").run();
        let message = out.error();
        assert!(
            message.contains("held by another process")
                && message.contains(&dir.data().display().to_string()),
            "{out:?}"
        );
    }
    assert!(!dir.server_json().exists());

    drop(held);
    assert_eq!(dir.json(&["me"])["data"]["username"], "ada");
}

/// A server killed outright leaves its `server.json`; the store is free
/// again, so commands work in-process, and a new server takes over.
#[test]
fn a_stale_server_json_does_not_stop_the_cli() {
    let dir = Dir::new();
    let server = dir.serve();
    let token = server.token.clone();
    assert_eq!(server.get("/me", Some(&token)).0, 200);
    let status = server.stop_with("KILL");
    assert!(!status.success());
    assert!(dir.server_json().exists(), "SIGKILL cannot remove it");

    assert_eq!(dir.json(&["me"])["data"]["username"], "owner");
    create(&dir, "after");

    let server = dir.serve();
    assert_ne!(server.token, token, "a fresh server.json");
    assert_eq!(dir.json(&["token", "list"])["data"][0]["name"], "after");
    assert!(server.stop().success());
    assert!(!dir.server_json().exists());
}

/// The store held by a process that is not a server, beside a stale
/// `server.json` of a dead server: still one line, exit 1.
#[test]
fn a_held_store_beside_a_stale_server_json_fails_on_one_line() {
    let dir = Dir::new();
    dir.json(&["me"]);
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    drop(listener);
    std::fs::write(
        dir.server_json(),
        serde_json::json!({"url": url, "token": "local_dead", "pid": 999_999_999u32}).to_string(),
    )
    .unwrap();
    let _held = organiser::Organiser::open(dir.data()).expect("the store opens");
    let out = dir.run(&["me"]);
    assert!(!out.error().is_empty(), "{out:?}");
}

#[test]
fn serve_on_an_address_in_use_fails_on_one_line_and_leaves_no_server_json() {
    let dir = Dir::new();
    let busy = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = busy.local_addr().unwrap().to_string();
    let out = dir
        .cmd(&["serve", "--listen", &addr])
        .env("ORGANISER_RATE_LIMIT", "0")
        .run();
    assert!(out.error().contains(&addr), "{out:?}");
    assert!(!dir.server_json().exists());
    // The store is free again.
    dir.ok(&["me"]);
}

#[test]
fn serve_refuses_a_malformed_rate_limit_on_one_line() {
    let dir = Dir::new();
    let out = dir
        .cmd(&["serve", "--listen", "127.0.0.1:0"])
        .env("ORGANISER_RATE_LIMIT", "lots")
        .run();
    assert!(out.error().contains("ORGANISER_RATE_LIMIT"), "{out:?}");
    assert!(!dir.server_json().exists());
}

#[test]
fn discovery_is_served_at_the_root() {
    let dir = Dir::new();
    let server = dir.serve();
    let (status, bare) = http_get(&format!("{}/.well-known/organiser", server.url), None);
    assert_eq!(status, 200, "{bare}");
    let (status, wrapped) = server.get("/.well-known/organiser", None);
    assert_eq!(status, 200, "{wrapped}");
    assert_eq!(wrapped, serde_json::json!({ "data": bare }));
    assert!(server.stop().success());
}

/// Issue 7, defect 11: with `ORGANISER_LOG=json` every line `serve` writes
/// on standard error is JSON, and it says whether update checks run.
#[test]
fn json_logs_are_json_only_and_say_whether_update_checks_run() {
    let dir = Dir::new();
    let server = dir.serve_with(&[("ORGANISER_LOG", "json")]);
    let (status, _) = server.get("/me", Some(&server.token));
    assert_eq!(status, 200);
    let log = server.wait_for_stderr("update checks");
    assert!(server.stop().success());
    for line in log.lines().filter(|l| !l.trim().is_empty()) {
        let parsed: Result<serde_json::Value, _> = serde_json::from_str(line);
        assert!(
            parsed.is_ok(),
            "a line of the log is not JSON: {line:?}\n{log}"
        );
    }
    // A development build cannot check, and says so.
    assert!(log.contains("update checks: off"), "{log}");
}
