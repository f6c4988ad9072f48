//! Our exports read by the tools people use: khard reads the vCard export,
//! khal the iCalendar export (`.ci/run` installs both).

use super::{arg, fixture};
use std::path::Path;

use crate::programs::{khal_config, khal_list, require, tool};
use crate::util::Dir;

/// A store with Monica's two people (birthdays without a year), Ada with
/// a full birthday and an anniversary, someone born on 29 February, and a
/// task: what the khard and khal tests export.
fn with_people() -> Dir {
    let dir = Dir::new();
    dir.ok(&["import", arg(&fixture("vcard/monica.vcf"))]);
    dir.ok(&[
        "people",
        "add",
        "Ada",
        "Lovelace",
        "--birthday",
        "1915-12-10",
        "--date",
        "anniversary:2001-02-28",
        "--email",
        "ada@example.com",
    ]);
    dir.ok(&[
        "people",
        "add",
        "Leap",
        "Person",
        "--birthday",
        "2000-02-29",
    ]);
    dir.ok(&["tasks", "add", "Buy", "soil", "--deadline", "2031-03-01"]);
    dir
}

/// Person IDs by name.
fn person_ids(dir: &Dir) -> Vec<(String, String)> {
    let people = dir.json(&["people", "--all"]);
    people["data"]
        .as_array()
        .unwrap_or_else(|| panic!("people: {people}"))
        .iter()
        .map(|p| {
            (
                p["name"].as_str().unwrap_or_default().to_owned(),
                p["id"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect()
}

#[test]
fn khard_reads_the_vcard_export() {
    require("khard");
    let dir = with_people();
    let file = dir.root().join("people.vcf");
    dir.ok(&["export", "--format", "vcard", "--to", arg(&file)]);
    let text = std::fs::read_to_string(&file).expect("UTF-8");
    // khard reads one card a file: a vdir.
    let book = dir.root().join("khard/book");
    std::fs::create_dir_all(&book).expect("the vdir");
    let mut cards = Vec::new();
    for line in text.split_inclusive('\n') {
        if line.starts_with("BEGIN:VCARD") {
            cards.push(String::new());
        }
        match cards.last_mut() {
            Some(card) => card.push_str(line),
            None => panic!("text before the first card: {text}"),
        }
    }
    assert_eq!(cards.len(), 4, "{text}");
    for (n, card) in cards.iter().enumerate() {
        assert!(card.trim_end().ends_with("END:VCARD"), "{card}");
        std::fs::write(book.join(format!("{n}.vcf")), card).expect("a card");
    }
    let config = dir.root().join("khard/khard.conf");
    std::fs::write(
        &config,
        format!(
            "[addressbooks]\n[[organiser]]\npath = {}\n\n\
             [general]\neditor = /bin/false\nmerge_editor = /bin/false\n",
            book.display()
        ),
    )
    .expect("the configuration");
    let home = dir.root().join("khard");
    let config = arg(&config);

    let listed = tool("khard", &home, &["-c", config, "list"]);
    for name in ["Ada Lovelace", "Jane Smith", "Tom Jones", "Leap Person"] {
        assert!(listed.contains(name), "{name} in khard's list:\n{listed}");
    }
    // Its UIDs are our IDs.
    let parsable = tool("khard", &home, &["-c", config, "list", "--parsable"]);
    let ids = person_ids(&dir);
    for (name, id) in &ids {
        assert!(
            parsable
                .lines()
                .any(|l| l.starts_with(&format!("{id}\t{name}\t"))),
            "{name} ({id}) in:\n{parsable}"
        );
    }
    let id = |name: &str| {
        ids.iter()
            .find(|(n, _)| n == name)
            .map(|(_, id)| id.clone())
            .unwrap_or_else(|| panic!("{name} in {ids:?}"))
    };
    let jane = tool(
        "khard",
        &home,
        &["-c", config, "show", "--uid", &id("Jane Smith")],
    );
    for said in [
        "Name: Jane Smith",
        "Birthday: --04-12",
        "Organisation: Monica Inc.",
        "jane.smith@example.com",
        "+33 6 12 34 56 78",
    ] {
        assert!(jane.contains(said), "{said:?} in khard's show:\n{jane}");
    }
    let ada = tool(
        "khard",
        &home,
        &[
            "-c",
            config,
            "show",
            "--format",
            "yaml",
            "--uid",
            &id("Ada Lovelace"),
        ],
    );
    for said in [
        "Birthday: '1915-12-10'",
        "Anniversary: '2001-02-28'",
        "ada@example.com",
    ] {
        assert!(ada.contains(said), "{said:?} in khard's show:\n{ada}");
    }
}

#[test]
fn khal_reads_the_ical_export() {
    require("khal");
    let dir = with_people();
    let file = dir.root().join("dates.ics");
    dir.ok(&["export", "--format", "ical", "--to", arg(&file)]);
    let home = dir.root().join("khal");
    let calendar = home.join("calendar");
    std::fs::create_dir_all(&calendar).expect("the calendar");
    let config = khal_config(&home, &calendar);
    let config = arg(&config);
    tool(
        "khal",
        &home,
        &[
            "-c",
            config,
            "import",
            "--batch",
            "-a",
            "organiser",
            arg(&file),
        ],
    );
    let list = |from: &str, to: &str| khal_list(&home, Path::new(config), from, to);
    // A year with no 29 February: that birthday is on the 28th.
    assert_eq!(
        list("2031-01-01", "2031-12-31"),
        [
            "2031-02-28 Ada Lovelace's anniversary",
            "2031-02-28 Leap Person's birthday",
            "2031-04-12 Jane Smith's birthday",
            "2031-04-12 Tom Jones's birthday",
            "2031-06-20 Jane Smith's anniversary",
            "2031-12-10 Ada Lovelace's birthday",
        ],
        "khal's list of 2031"
    );
    assert_eq!(
        list("2032-02-27", "2032-03-01"),
        [
            "2032-02-28 Ada Lovelace's anniversary",
            "2032-02-29 Leap Person's birthday",
        ],
        "khal's list around 29 February 2032"
    );
    // The same list in khal's own words, as a person would read it.
    let out = tool(
        "khal",
        &home,
        &["-c", config, "list", "2031-12-10", "2031-12-10"],
    );
    let mut lines = out.lines();
    assert!(
        lines.next().is_some_and(|l| l.contains("2031-12-10"))
            && lines
                .next()
                .is_some_and(|l| l.contains("Ada Lovelace's birthday")),
        "khal list 2031-12-10:\n{out}"
    );
}
