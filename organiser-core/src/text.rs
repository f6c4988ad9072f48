//! Text rules shared by every resource: "squished" fields (document 1,
//! convention 7) and case-insensitive comparison keys.

/// Collapses every run of white space to one space and trims both ends.
pub fn squish(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for word in s.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// The key two names are compared by when case does not matter.
pub(crate) fn fold_case(s: &str) -> String {
    s.to_lowercase()
}

/// `value` squished, with "can't be blank" or "is too long" added to
/// `details` under `field` when it is empty or longer than `max` characters.
pub(crate) fn squished_required(
    details: &mut crate::error::Details,
    field: &str,
    value: &str,
    max: usize,
) -> String {
    let value = squish(value);
    if value.is_empty() {
        details.add(field, "can't be blank");
    } else if char_len(&value) > max {
        details.add(field, format!("is too long (maximum is {max} characters)"));
    }
    value
}

/// The number of characters (not bytes) of `s`.
pub(crate) fn char_len(s: &str) -> usize {
    s.chars().count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squish_collapses_runs_of_spaces() {
        for (input, expected) in [
            ("  Buy   milk ", "Buy milk"),
            ("Buy\t\tmilk\n", "Buy milk"),
            ("\u{00a0}Buy\u{2003}milk", "Buy milk"),
            ("", ""),
            ("   ", ""),
            ("one", "one"),
        ] {
            assert_eq!(squish(input), expected, "{input:?}");
        }
    }
}
