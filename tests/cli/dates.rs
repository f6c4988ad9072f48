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
