//! A task's description (issue "a new user's day"): `tasks add` and `tasks
//! edit --description` take Markdown and send note-body HTML, as `notes
//! add` makes a body (mentions included); `none` or '' clears it; `-`
//! reads standard input; `tasks show` prints its text and names the
//! documents linked to the task.

use super::{add, record, short};
use crate::documents::pdf;
use crate::util::Dir;

#[test]
fn a_description_is_markdown_shown_as_text_and_cleared() {
    let dir = Dir::new();
    let task = add(
        &dir,
        "Call the bank",
        &["--description", "Ask about **fees**\n\n- savings\n- loan"],
    );
    let html = task["description_html"].as_str().unwrap();
    assert!(html.contains("<strong>fees</strong>"), "{task}");
    assert!(html.contains("<li>savings</li>"), "{task}");
    // The text is the API's: each block on its own line (blank lines
    // between them are its to decide).
    let text = task["description_text"].as_str().unwrap();
    let lines: Vec<&str> = text.lines().filter(|l| !l.is_empty()).collect();
    assert_eq!(lines, ["Ask about fees", "- savings", "- loan"], "{task}");
    let id = task["id"].as_str().unwrap();
    let out = dir.ok(&["tasks", "show", id]);
    assert!(out.stdout.ends_with(&format!("\n\n{text}\n")), "{out:?}");

    // edit: a new description, then cleared both ways.
    let out = dir.ok(&["tasks", "edit", id, "--description", "Bring *the* card"]);
    assert_eq!(out.stdout, "Changed Call the bank\n");
    let shown = record(&dir.json(&["tasks", "show", id])).clone();
    assert_eq!(shown["description_html"], "<p>Bring <em>the</em> card</p>");
    for clear in ["none", ""] {
        let changed = dir.json(&["tasks", "edit", id, "--description", clear]);
        let task = record(&changed);
        assert!(task["description_html"].is_null(), "{clear:?}: {changed}");
        assert_eq!(task["description_text"], "", "{changed}");
        dir.ok(&["tasks", "edit", id, "--description", "back"]);
    }
    let out = dir.ok(&["tasks", "edit", id, "--description", "NONE"]);
    assert_eq!(out.stdout, "Changed Call the bank\n");
    // No description: the ID is the last line.
    let out = dir.ok(&["tasks", "show", id]);
    let last = out.stdout.lines().last().unwrap_or_default();
    assert!(last.starts_with("ID ") && last.ends_with(id), "{out:?}");
}

#[test]
fn a_description_mentions_people_and_may_come_from_standard_input() {
    let dir = Dir::new();
    let ada = record(&dir.json(&["people", "add", "Ada", "Lovelace"])).clone();
    let made = dir
        .cmd(&[
            "tasks",
            "add",
            "Thank",
            "Ada",
            "--description",
            "-",
            "--json",
        ])
        .stdin("Thank @Ada Lovelace for the notes\n")
        .run()
        .success()
        .json();
    let task = record(&made);
    let mention = format!("data-mention=\"{}\"", ada["id"].as_str().unwrap());
    assert!(
        task["description_html"]
            .as_str()
            .unwrap()
            .contains(&mention),
        "{made}"
    );
    assert_eq!(
        task["description_text"],
        "Thank @Ada Lovelace for the notes"
    );
    // The person's new name shows in the description (the API's rule).
    dir.ok(&["people", "edit", "ada", "--name", "Ada King"]);
    let id = task["id"].as_str().unwrap();
    let out = dir.ok(&["tasks", "show", id]);
    assert!(
        out.stdout.ends_with("Thank @Ada King for the notes\n"),
        "{out:?}"
    );
}

#[test]
fn the_apis_refusal_names_the_flag() {
    let dir = Dir::new();
    let said = dir
        .run(&[
            "tasks",
            "add",
            "Look",
            "--description",
            "![a cat](https://example.org/cat.png)",
        ])
        .error();
    assert!(
        said.starts_with("--description can't contain images"),
        "{said}"
    );
    let task = add(&dir, "Look", &[]);
    let id = task["id"].as_str().unwrap();
    let said = dir
        .run(&[
            "tasks",
            "edit",
            id,
            "--description",
            "![x](https://e.org/x.png)",
        ])
        .error();
    assert!(said.starts_with("--description "), "{said}");
    let out = dir.run(&["tasks", "edit", id]);
    assert_eq!(out.code(), Some(2), "{out:?}");
    assert!(out.stderr.contains("--description"), "{out:?}");
}

#[test]
fn show_names_the_documents_linked_to_the_task() {
    let dir = Dir::new();
    let bare = add(&dir, "Nothing attached", &[]);
    let out = dir.ok(&["tasks", "show", bare["id"].as_str().unwrap()]);
    assert!(!out.stdout.contains("Documents"), "{out:?}");

    let receipt = pdf(&dir, "Receipt.pdf");
    let invoice = pdf(&dir, "Invoice 12.pdf");
    let task = add(
        &dir,
        "Claim expenses",
        &[
            "--attach",
            receipt.to_str().unwrap(),
            "--attach",
            invoice.to_str().unwrap(),
        ],
    );
    assert_eq!(task["has_documents"], true, "{task}");
    let docs = dir.json(&["docs"]);
    let named = |name: &str| {
        let doc = docs["data"]
            .as_array()
            .unwrap()
            .iter()
            .find(|d| d["name"] == name)
            .unwrap_or_else(|| panic!("no {name}: {docs}"));
        format!("{} {name}", short(&doc["id"]))
    };
    let out = dir.ok(&["tasks", "show", task["id"].as_str().unwrap()]);
    // One row each, under the label once.
    let lines: Vec<String> = out
        .stdout
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with("Documents "))
        .unwrap_or_else(|| panic!("{out:?}"));
    let mut shown = vec![
        lines[at]["Documents ".len()..].to_owned(),
        lines[at + 1].clone(),
    ];
    shown.sort();
    let mut linked = vec![named("Invoice 12"), named("Receipt")];
    linked.sort();
    assert_eq!(shown, linked, "{out:?}");
    // Unlinked, it is gone from the task.
    dir.ok(&[
        "docs",
        "unlink",
        "receipt",
        "--task",
        task["id"].as_str().unwrap(),
    ]);
    let out = dir.ok(&["tasks", "show", task["id"].as_str().unwrap()]);
    assert!(!out.stdout.contains("Receipt"), "{out:?}");
    assert!(out.stdout.contains("Invoice 12"), "{out:?}");
}
