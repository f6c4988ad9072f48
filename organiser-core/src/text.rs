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
