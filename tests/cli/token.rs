//! `organiser token create|list|revoke`.

use serde_json::Value;

use crate::util::Dir;

/// `token create NAME`: the secret, checked to be alone on stdout.
#[track_caller]
pub(crate) fn create(dir: &Dir, name: &str) -> String {
    let out = dir.ok(&["token", "create", name]);
    assert_eq!(out.stderr, "", "{out:?}");
    assert_eq!(out.stdout.lines().count(), 1, "one line: {out:?}");
    let token = out.stdout.strip_suffix('\n').expect("a newline").to_owned();
    assert!(token.starts_with("org_"), "{out:?}");
    assert!(
        !token.contains(char::is_whitespace),
        "the token alone: {out:?}"
    );
    token
}

#[test]
fn create_prints_the_token_alone_and_list_shows_it() {
    let dir = Dir::new();
    let first = create(&dir, "laptop");
    let second = create(&dir, "phone");
    assert_ne!(first, second);

    let list = dir.json(&["token", "list"]);
    let items = list["data"].as_array().expect("a data array");
    assert_eq!(list.as_object().unwrap().len(), 1, "only data: {list}");
    assert_eq!(items.len(), 2, "{list}");
    let names: Vec<&str> = items.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["laptop", "phone"]);
    for item in items {
        let keys: Vec<&str> = item
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(
            keys,
            ["id", "name", "created_at", "expires_at", "last_used_at"],
            "{item}"
        );
        assert!(item["id"].is_u64(), "{item}");
        assert!(item["expires_at"].is_null() && item["last_used_at"].is_null());
    }
    assert!(
        !list.to_string().contains(&first),
        "a listed secret: {list}"
    );

    let out = dir.ok(&["token", "list"]);
    out.assert_no_ansi();
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{out:?}");
    let header: Vec<&str> = lines[0].split("  ").filter(|c| !c.is_empty()).collect();
    let header: Vec<&str> = header.iter().map(|c| c.trim()).collect();
    assert_eq!(
        header,
        ["ID", "NAME", "CREATED", "EXPIRES", "LAST USED"],
        "{out:?}"
    );
    for (line, item) in lines[1..].iter().zip(items) {
        let cells: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(cells[0], item["id"].to_string(), "{out:?}");
        assert_eq!(cells[1], item["name"], "{out:?}");
        // When it was made, in the owner's zone (UTC here) to the minute
        // (issue 22: not the raw instant).
        let made = item["created_at"].as_str().unwrap();
        assert_eq!(
            format!("{} {}", cells[2], cells[3]),
            format!("{} {}", &made[..10], &made[11..16]),
            "{out:?}"
        );
        assert_eq!(&cells[4..], ["-", "-"], "{out:?}");
    }
}

#[test]
fn create_json_prints_the_made_token_with_its_secret() {
    let dir = Dir::new();
    let made = dir.json(&[
        "token",
        "create",
        "ci",
        "--expires-at",
        "2027-01-01T00:00:00Z",
    ]);
    let data = &made["data"];
    assert_eq!(data["name"], "ci");
    assert_eq!(data["expires_at"], "2027-01-01T00:00:00.000Z");
    assert!(
        data["secret"].as_str().unwrap().starts_with("org_"),
        "{made}"
    );
    let listed = dir.json(&["token", "list"]);
    assert_eq!(listed["data"][0]["id"], data["id"]);
    assert_eq!(listed["data"][0]["expires_at"], data["expires_at"]);
}

#[test]
fn revoke_removes_the_token() {
    let dir = Dir::new();
    create(&dir, "laptop");
    create(&dir, "phone");
    let list = dir.json(&["token", "list"]);
    let id = list["data"][0]["id"].to_string();

    let out = dir.ok(&["token", "revoke", &id]);
    assert_eq!(out.stdout, format!("Revoked token {id}\n"));
    let after = dir.json(&["token", "list"]);
    let names: Vec<&Value> = after["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| &t["name"])
        .collect();
    assert_eq!(names, ["phone"]);

    // Revoking it again: it is gone.
    let again = dir.run(&["token", "revoke", &id]);
    assert!(!again.error().is_empty());
}

#[test]
fn revoke_json_says_what_was_revoked() {
    let dir = Dir::new();
    create(&dir, "laptop");
    let id = dir.json(&["token", "list"])["data"][0]["id"].clone();
    let out = dir.json(&["token", "revoke", &id.to_string()]);
    assert_eq!(out, serde_json::json!({"data": {"revoked": id}}));
}

#[test]
fn revoking_an_unknown_id_fails_on_one_line() {
    let dir = Dir::new();
    let out = dir.run(&["token", "revoke", "999"]);
    assert!(!out.error().is_empty(), "{out:?}");
    assert_eq!(
        dir.json(&["token", "list"]),
        serde_json::json!({"data": []})
    );
}

#[test]
fn revoke_needs_a_number() {
    let dir = Dir::new();
    let out = dir.run(&["token", "revoke", "laptop"]).failure(2);
    assert!(out.stderr.contains("laptop"), "{out:?}");
}

#[test]
fn a_blank_name_or_a_past_expiry_fails_on_one_line() {
    let dir = Dir::new();
    let out = dir.run(&["token", "create", ""]);
    assert!(out.error().contains("the name"), "{out:?}");
    let out = dir.run(&[
        "token",
        "create",
        "old",
        "--expires-at",
        "2020-01-01T00:00:00Z",
    ]);
    assert!(out.error().contains("--expires-at"), "{out:?}");
    // (date words such as "tomorrow" are taken since issue 7: see
    // expires_at_takes_date_words)
    let out = dir.run(&["token", "create", "bad", "--expires-at", "whenever"]);
    assert!(out.error().contains("--expires-at"), "{out:?}");
    assert_eq!(
        dir.json(&["token", "list"]),
        serde_json::json!({"data": []})
    );
}

/// Issue 7, defect 11: a revoked token's number is never given again.
#[test]
fn a_revoked_tokens_number_is_never_reused() {
    let dir = Dir::new();
    let number = |dir: &Dir| -> u64 {
        let list = dir.json(&["token", "list"]);
        list["data"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["id"].as_u64().unwrap())
            .max()
            .unwrap()
    };
    dir.ok(&["token", "create", "one"]);
    dir.ok(&["token", "create", "two"]);
    assert_eq!(number(&dir), 2);
    dir.ok(&["token", "revoke", "2"]);
    dir.ok(&["token", "create", "three"]);
    assert_eq!(number(&dir), 3, "2 stays retired");
}

/// Issue 7, defect 11: `--expires-at` takes the date words tasks take (the
/// end of that day in the owner's zone) as well as an instant.
#[test]
fn expires_at_takes_date_words() {
    let dir = Dir::empty();
    dir.init("Ada", "ada", "UTC");
    dir.ok(&["token", "create", "words", "--expires-at", "+30d"]);
    dir.ok(&[
        "token",
        "create",
        "instant",
        "--expires-at",
        "2099-01-01T00:00:00Z",
    ]);
    dir.ok(&["token", "create", "date", "--expires-at", "2099-06-30"]);
    let list = dir.json(&["token", "list"]);
    let expiry = |name: &str| -> String {
        list["data"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == name)
            .unwrap()["expires_at"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    assert_eq!(expiry("instant"), "2099-01-01T00:00:00.000Z");
    assert_eq!(
        expiry("date"),
        "2099-07-01T00:00:00.000Z",
        "the end of 30 June"
    );
    assert!(expiry("words").ends_with("T00:00:00.000Z"));
    let out = dir.run(&["token", "create", "x", "--expires-at", "whenever"]);
    assert!(out.failure(1).error().contains("whenever"));
}
