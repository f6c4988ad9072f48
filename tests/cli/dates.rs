//! Dates people type (issue 7, defect 1): no input panics; an offset past
//! the calendar is a clear error that changes nothing.

use crate::util::Dir;

#[test]
fn an_offset_past_the_calendar_is_an_error_not_a_panic() {
    let dir = Dir::new();
    for (flag, words) in [
        ("--start", "+100000000d"),
        ("--deadline", "+100000000w"),
        ("--expires", "+100000000m"),
        ("--start", "-9223372036854775808d"),
        ("--deadline", "+9223372036854775807w"),
    ] {
        let out = dir.run(&["tasks", "add", "x", flag, words]).failure(1);
        assert!(
            out.error().contains("is not a date"),
            "{flag} {words}: {}",
            out.error()
        );
    }
    let inbox = dir.json(&["tasks", "inbox"]);
    assert_eq!(
        inbox["data"].as_array().unwrap().len(),
        0,
        "nothing was added"
    );
}

/// What a newcomer types on day one (issue 22): `in 2 weeks`, `dec 15`,
/// `15 dec`; a numeric date that reads two ways is refused with both, and
/// every mistake names its flag.
#[test]
fn dates_in_words_and_mistakes_that_name_their_flag() {
    let dir = Dir::new();
    let now = [("ORGANISER_NOW", "2026-03-11T09:00:00Z")];
    let add = |flag: &str, words: &str| {
        let mut cmd = dir.cmd(&["tasks", "add", "x", flag, words, "--json"]);
        for (k, v) in now {
            cmd = cmd.env(k, v);
        }
        cmd.run()
    };
    for (words, due) in [
        ("in 2 weeks", "2026-03-25"),
        ("dec 15", "2026-12-15"),
        ("15 dec", "2026-12-15"),
        ("15 December 2027", "2027-12-15"),
        ("25/12", "2026-12-25"),
    ] {
        let out = add("--deadline", words).success();
        assert_eq!(out.json()["data"]["deadline_on"], due, "{words}");
    }
    let out = add("--deadline", "12/11").failure(1);
    assert_eq!(
        out.error(),
        "--deadline: \"12/11\" could be 12 November 2026 or 11 December 2026: write 12 Nov or 11 Dec"
    );
    let out = add("--start", "soonish").failure(1);
    assert!(
        out.error()
            .starts_with("--start: \"soonish\" is not a date"),
        "{}",
        out.error()
    );
}

/// A usage mistake with `--json` keeps the name of what is missing.
#[test]
fn a_json_usage_error_names_the_argument() {
    let dir = Dir::new();
    let out = dir.run(&["tasks", "list", "--json"]).failure(2);
    let error = out.json_error();
    assert_eq!(error["code"], "usage");
    assert!(
        error["message"].as_str().unwrap().contains("<NAME>"),
        "{error}"
    );
}
