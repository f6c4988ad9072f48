//! `people add` and `people edit` beyond names and contact details (issue
//! "a new user's day"): jobs and companies (`--job`, `--company`,
//! `--remove-job`), social profiles (`--link`, `--remove-link`), key dates
//! (`--date`, `--remove-date`), the photo (`--photo`, `--no-photo`),
//! removing contact details (`--remove-email`, `--remove-phone`), and
//! `people unlink`; each mistake named by its flag; `--json` in the API's
//! shape; the photo through a running server too.

use std::io::Cursor;
use std::path::PathBuf;

use serde_json::Value;

use crate::tasks::record;
use crate::util::Dir;

/// `people ARGS... --json`: the person it answers.
#[track_caller]
fn person(dir: &Dir, args: &[&str]) -> Value {
    let mut all = vec!["people"];
    all.extend_from_slice(args);
    record(&dir.json(&all)).clone()
}

/// The values of one array's rows' `field`.
fn column<'v>(person: &'v Value, array: &str, field: &str) -> Vec<&'v Value> {
    person[array]
        .as_array()
        .unwrap_or_else(|| panic!("no {array}: {person}"))
        .iter()
        .map(|row| &row[field])
        .collect()
}

/// The lines of `people show P`, their runs of spaces made one.
#[track_caller]
fn shown(dir: &Dir, reference: &str) -> Vec<String> {
    let out = dir.ok(&["people", "show", reference]);
    out.stdout
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect()
}

/// Whether a line of `lines` begins with `start`.
fn has(lines: &[String], start: &str) -> bool {
    lines.iter().any(|l| l.starts_with(start))
}

/// A small picture, written as `name` in the test's directory in the
/// format its extension names.
fn picture(dir: &Dir, name: &str) -> PathBuf {
    let image = image::DynamicImage::ImageRgb8(image::RgbImage::from_fn(24, 16, |x, y| {
        image::Rgb([(x * 9) as u8, (y * 13) as u8, 90])
    }));
    let format = image::ImageFormat::from_path(name).expect("a picture's extension");
    let mut bytes = Cursor::new(Vec::new());
    image
        .write_to(&mut bytes, format)
        .expect("an encoded picture");
    let path = dir.root().join(name);
    std::fs::write(&path, bytes.into_inner()).expect("the picture");
    path
}

#[test]
fn jobs_are_added_at_companies_and_removed_by_title_or_company() {
    let dir = Dir::new();
    let ada = person(
        &dir,
        &[
            "add",
            "Ada",
            "Lovelace",
            "--job",
            "Analyst",
            "--company",
            "Engines Ltd",
        ],
    );
    assert_eq!(column(&ada, "positions", "title"), ["Analyst"]);
    assert!(ada["positions"][0]["company_id"].is_string(), "{ada}");
    // A company alone, and a title alone.
    let out = dir.ok(&["people", "edit", "ada", "--company", "Babbage & Co"]);
    assert_eq!(out.stdout, "Changed Ada Lovelace\n");
    let ada = person(&dir, &["edit", "ada", "--job", "Poet"]);
    assert_eq!(ada["positions"].as_array().unwrap().len(), 3, "{ada}");
    let lines = shown(&dir, "ada");
    let at = lines.iter().position(|l| l.starts_with("Works "));
    let at = at.unwrap_or_else(|| panic!("{lines:?}"));
    assert_eq!(
        lines[at..at + 3],
        ["Works Analyst at Engines Ltd", "Babbage & Co", "Poet"]
    );

    // By title (any case), then by company.
    let ada = person(&dir, &["edit", "ada", "--remove-job", "ANALYST"]);
    assert_eq!(
        column(&ada, "positions", "title"),
        [&Value::Null, &"Poet".into()]
    );
    let ada = person(&dir, &["edit", "ada", "--remove-job", "babbage & co"]);
    assert_eq!(column(&ada, "positions", "title"), ["Poet"]);
    let said = dir
        .run(&["people", "edit", "ada", "--remove-job", "Globex"])
        .error();
    assert_eq!(
        said,
        "--remove-job \"Globex\": Ada Lovelace has no job or company like that"
    );
    // The API's refusals name the flags.
    let long = "x".repeat(101);
    let said = dir.run(&["people", "edit", "ada", "--job", &long]).error();
    assert!(said.starts_with("--job is too long"), "{said}");
    let said = dir
        .run(&["people", "edit", "ada", "--company", &long])
        .error();
    assert!(said.starts_with("--company is too long"), "{said}");
}

#[test]
fn links_take_their_platform_from_the_api_and_are_removed_as_typed() {
    let dir = Dir::new();
    let ada = person(
        &dir,
        &[
            "add",
            "Ada",
            "--link",
            "github.com/ada",
            "--link",
            "https://example.org",
        ],
    );
    assert_eq!(
        column(&ada, "social_profiles", "url"),
        ["https://github.com/ada", "https://example.org"]
    );
    assert_eq!(
        column(&ada, "social_profiles", "platform"),
        ["github", "website"]
    );
    let lines = shown(&dir, "ada");
    assert!(
        has(&lines, "GitHub https://github.com/ada") && has(&lines, "Website https://example.org"),
        "{lines:?}"
    );
    let ada = person(&dir, &["edit", "ada", "--remove-link", "GitHub.com/ada/"]);
    assert_eq!(
        column(&ada, "social_profiles", "url"),
        ["https://example.org"]
    );
    let said = dir
        .run(&["people", "edit", "ada", "--remove-link", "github.com/ada"])
        .error();
    assert!(
        said.starts_with("--remove-link \"github.com/ada\": "),
        "{said}"
    );
    let long = format!("https://example.org/{}", "x".repeat(2048));
    let said = dir.run(&["people", "edit", "ada", "--link", &long]).error();
    assert!(said.starts_with("--link is too long"), "{said}");
}

#[test]
fn key_dates_of_every_kind_are_added_and_removed() {
    let dir = Dir::new();
    let ada = person(
        &dir,
        &[
            "add",
            "Ada",
            "--birthday",
            "1990-01-02",
            "--date",
            "anniversary:2010-06-12",
            "--date",
            "other:Graduation:--06-30",
            "--date",
            "first-met:05-17",
        ],
    );
    assert_eq!(
        column(&ada, "key_dates", "kind"),
        ["birthday", "anniversary", "other", "first_met"]
    );
    assert_eq!(
        column(&ada, "key_dates", "label"),
        [
            &Value::Null,
            &Value::Null,
            &"Graduation".into(),
            &Value::Null
        ]
    );
    let lines = shown(&dir, "ada");
    for row in [
        "Birthday 1990-01-02 · next ",
        "Anniversary 2010-06-12 · next ",
        "Other (Graduation) --06-30 · next ",
        "First met --05-17 · next ",
    ] {
        assert!(has(&lines, row), "{row}: {lines:?}");
    }
    let ada = person(&dir, &["edit", "ada", "--remove-date", "anniversary"]);
    assert_eq!(
        column(&ada, "key_dates", "kind"),
        ["birthday", "other", "first_met"]
    );
    let ada = person(
        &dir,
        &[
            "edit",
            "ada",
            "--remove-date",
            "other:graduation",
            "--remove-date",
            "First_Met",
        ],
    );
    assert_eq!(column(&ada, "key_dates", "kind"), ["birthday"]);
    let said = dir
        .run(&["people", "edit", "ada", "--remove-date", "memorial"])
        .error();
    assert!(said.starts_with("--remove-date \"memorial\": "), "{said}");

    // The API judges the kind, the label and the day; the flag is named.
    let said = dir
        .run(&["people", "edit", "ada", "--date", "wedding:2010-06-12"])
        .error();
    assert!(
        said.starts_with("--date is not one of birthday, "),
        "{said}"
    );
    let said = dir
        .run(&["people", "edit", "ada", "--date", "other:2010-06-12"])
        .error();
    assert!(said.starts_with("--date can't be blank"), "{said}");
    let said = dir
        .run(&["people", "edit", "ada", "--date", "memorial:2010-02-30"])
        .error();
    assert!(said.starts_with("--date "), "{said}");
    // What is not KIND:DATE is a usage mistake, found before anything is asked.
    for bad in ["2010-06-12", "anniversary:June"] {
        let out = dir.run(&["people", "edit", "nobody", "--date", bad]);
        assert_eq!(out.code(), Some(2), "{out:?}");
        assert!(out.stderr.contains("--date "), "{out:?}");
    }
}

#[test]
fn contact_details_are_removed_as_typed_and_a_mistake_changes_nothing() {
    let dir = Dir::new();
    person(
        &dir,
        &[
            "add",
            "Ada",
            "--email",
            "ada@example.org",
            "--email",
            "ada@work.example",
            "--phone",
            "+44 20 7946 0000",
        ],
    );
    let ada = person(
        &dir,
        &[
            "edit",
            "ada",
            "--remove-email",
            " ADA@Example.org",
            "--remove-phone",
            "+442079460000",
        ],
    );
    assert_eq!(
        column(&ada, "email_addresses", "address"),
        ["ada@work.example"]
    );
    assert_eq!(ada["phone_numbers"], serde_json::json!([]));
    // One removal that matches nothing: nothing changes.
    let said = dir
        .run(&[
            "people",
            "edit",
            "ada",
            "--name",
            "Ada King",
            "--remove-email",
            "nobody@example.org",
        ])
        .error();
    assert_eq!(
        said,
        "--remove-email \"nobody@example.org\": Ada has no email address like that"
    );
    assert_eq!(person(&dir, &["show", "ada"])["name"], "Ada");
    let said = dir
        .run(&["people", "edit", "ada", "--remove-phone", "555"])
        .error();
    assert!(said.starts_with("--remove-phone \"555\": "), "{said}");
}

#[test]
fn a_photo_is_uploaded_replaced_and_removed() {
    let dir = Dir::new();
    let png = picture(&dir, "ada.png");
    let ada = person(&dir, &["add", "Ada", "--photo", png.to_str().unwrap()]);
    let first = ada["avatar"]["url"].as_str().expect("a photo").to_owned();
    let jpeg = picture(&dir, "ada.jpg");
    let ada = person(&dir, &["edit", "ada", "--photo", jpeg.to_str().unwrap()]);
    let second = ada["avatar"]["url"].as_str().expect("a photo");
    assert_ne!(second, first);
    let ada = person(&dir, &["edit", "ada", "--no-photo"]);
    assert!(ada["avatar"].is_null(), "{ada}");

    // Mistakes name the flag.
    let text = dir.root().join("notes.png");
    std::fs::write(&text, "not a picture").unwrap();
    let said = dir
        .run(&["people", "edit", "ada", "--photo", text.to_str().unwrap()])
        .error();
    assert!(said.starts_with("--photo must be a JPEG, PNG"), "{said}");
    let missing = dir.root().join("missing.png");
    let said = dir
        .run(&[
            "people",
            "edit",
            "ada",
            "--photo",
            missing.to_str().unwrap(),
        ])
        .error();
    assert!(said.starts_with("--photo: cannot read "), "{said}");
    let out = dir.run(&[
        "people",
        "edit",
        "ada",
        "--photo",
        png.to_str().unwrap(),
        "--no-photo",
    ]);
    assert_eq!(out.code(), Some(2), "{out:?}");
}

#[test]
fn unlink_removes_the_one_link_or_the_one_of_a_role() {
    let dir = Dir::new();
    dir.ok(&["people", "add", "Ada"]);
    dir.ok(&["people", "add", "Byron"]);
    dir.ok(&["people", "link", "ada", "parent", "byron"]);
    dir.ok(&["people", "link", "ada", "colleague", "byron"]);
    let said = dir.run(&["people", "unlink", "ada", "byron"]).error();
    assert_eq!(
        said,
        "Ada and Byron are linked 2 ways (parent, colleague): give --kind"
    );
    let said = dir
        .run(&["people", "unlink", "ada", "byron", "--kind", "child"])
        .error();
    assert_eq!(
        said,
        "--kind: Ada is not Byron's child (they are linked as: parent, colleague)"
    );
    let out = dir.ok(&["people", "unlink", "ada", "byron", "--kind", "mum"]);
    assert_eq!(out.stdout, "Unlinked: Ada is no longer Byron's parent\n");
    // The other way round, and the one link left.
    let link = person(&dir, &["show", "byron"])["connections"][0]["id"].clone();
    let said = dir.json(&["people", "unlink", "byron", "ada"]);
    assert_eq!(said, serde_json::json!({"data": {"deleted": link}}));
    assert_eq!(
        person(&dir, &["show", "ada"])["connections"],
        serde_json::json!([])
    );
    let said = dir.run(&["people", "unlink", "ada", "byron"]).error();
    assert_eq!(said, "Ada and Byron are not linked");
    let out = dir.run(&["people", "unlink", "ada", "byron", "--kind", "frenemy"]);
    assert_eq!(out.code(), Some(2), "{out:?}");
    assert!(
        out.stderr.contains("--kind \"frenemy\" is not a role"),
        "{out:?}"
    );
}

/// Through a server: the photo goes as an upload's bytes over HTTP, the
/// rest as the same requests.
#[test]
fn the_new_flags_work_through_a_running_server() {
    let dir = Dir::new();
    let server = dir.serve();
    let png = picture(&dir, "ada.png");
    let ada = person(
        &dir,
        &[
            "add",
            "Ada",
            "--photo",
            png.to_str().unwrap(),
            "--job",
            "Analyst",
            "--link",
            "github.com/ada",
            "--date",
            "anniversary:06-12",
        ],
    );
    let url = ada["avatar"]["url"].as_str().expect("a photo");
    assert!(
        url.starts_with(&server.url),
        "an address on the server: {url}"
    );
    let ada = person(
        &dir,
        &[
            "edit",
            "ada",
            "--no-photo",
            "--remove-job",
            "analyst",
            "--remove-link",
            "github.com/ada",
            "--remove-date",
            "anniversary",
        ],
    );
    for array in ["positions", "social_profiles", "key_dates"] {
        assert_eq!(ada[array], serde_json::json!([]), "{ada}");
    }
    assert!(ada["avatar"].is_null(), "{ada}");
    assert!(server.stop().success());
}
