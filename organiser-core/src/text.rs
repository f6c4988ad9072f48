//! Text rules shared by every resource: "squished" fields (document 1,
//! convention 7) and case-insensitive comparison keys.

/// Collapses every run of white space to one space and trims both ends.
pub(crate) fn squish(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for word in s.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// Whether `c` is a character that shows nothing and can only mislead in
/// a name: a bidirectional override, embedding, isolate or mark, a
/// zero-width space, word joiner or byte-order mark (`invoice\u{202E}fdp.exe`
/// reads as `invoiceexe.pdf`). Zero-width joiners and non-joiners stay:
/// scripts and emoji need them.
pub(crate) fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{061C}'
            | '\u{180E}'
            | '\u{200B}'
            | '\u{200E}'
            | '\u{200F}'
            | '\u{202A}'..='\u{202E}'
            | '\u{2060}'..='\u{2064}'
            | '\u{2066}'..='\u{2069}'
            | '\u{FEFF}'
    )
}

/// `s` without its [`is_invisible`] characters.
pub(crate) fn without_invisible(s: &str) -> String {
    s.chars().filter(|c| !is_invisible(*c)).collect()
}

/// The key two names are compared by when case does not matter.
pub(crate) fn fold_case(s: &str) -> String {
    s.to_lowercase()
}

/// The key text is searched and names are matched by: lower case, accents
/// dropped (`Élan` and `elan` are the same).
pub fn fold_search(s: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    // ASCII has nothing to decompose (most text): lower case is all.
    if s.is_ascii() {
        return s.to_ascii_lowercase();
    }
    use unicode_normalization::char::is_combining_mark;
    s.nfd()
        .filter(|c| !is_combining_mark(*c))
        .flat_map(char::to_lowercase)
        .collect()
}

/// The words of folded text: runs of letters and digits.
pub(crate) fn search_words(folded: &str) -> impl Iterator<Item = &str> {
    folded
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
}

/// `value` squished and [`without_invisible`] characters, with "can't be blank", "is too long" or "can't
/// contain control characters" added to `details` under `field` when it is
/// empty, longer than `max` characters, or holds a control character other
/// than whitespace (ESC, BEL, NUL...: a name is printed on terminals, where
/// those would act instead of showing).
pub(crate) fn squished_required(
    details: &mut crate::error::Details,
    field: &str,
    value: &str,
    max: usize,
) -> String {
    let value = squish(&without_invisible(value));
    if value.is_empty() {
        details.add(field, "can't be blank");
    } else if char_len(&value) > max {
        details.add(field, format!("is too long (maximum is {max} characters)"));
    }
    if value.chars().any(char::is_control) {
        details.add(field, "can't contain control characters");
    }
    value
}

/// The number of characters (not bytes) of `s`.
pub(crate) fn char_len(s: &str) -> usize {
    s.chars().count()
}

/// An iCalendar or vCard TEXT value with its escapes undone (RFC 5545
/// §3.3.11, RFC 6350 §3.4): `\n` (or `\N`) a new line, `\,` `\;` `\:`
/// `\\` the character itself; a lone `\` at the end stays.
pub(crate) fn unescape_text(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let mut chars = value.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n' | 'N') => out.push('\n'),
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_with_a_control_character_is_refused() {
        for (input, refused) in [
            ("Work\u{1b}[2J", true),
            ("Ring\u{7}", true),
            ("Nul\u{0}", true),
            ("C1\u{9b}31m", true),
            ("Tabs\tand\nnewlines are spaces", false),
            ("Café ☕", false),
        ] {
            let mut details = crate::error::Details::new();
            squished_required(&mut details, "name", input, 100);
            assert_eq!(details.has("name"), refused, "{input:?}");
        }
    }

    #[test]
    fn a_name_loses_its_invisible_characters() {
        for (input, kept) in [
            ("invoice\u{202E}fdp.exe", "invoicefdp.exe"),
            ("\u{2066}Budget\u{2069} 2026\u{200B}", "Budget 2026"),
            ("\u{FEFF}Notes", "Notes"),
            // Joiners stay: a family emoji, a Persian word.
            (
                "Family 👨\u{200D}👩\u{200D}👧",
                "Family 👨\u{200D}👩\u{200D}👧",
            ),
            ("می\u{200C}خواهم", "می\u{200C}خواهم"),
        ] {
            let mut details = crate::error::Details::new();
            assert_eq!(squished_required(&mut details, "name", input, 100), kept);
            assert!(details.is_empty(), "{input:?}");
        }
        let mut details = crate::error::Details::new();
        squished_required(&mut details, "name", "\u{202E}\u{200B}", 100);
        assert!(details.has("name"), "nothing left is blank");
    }

    #[test]
    fn folding_drops_case_and_accents_ascii_or_not() {
        for (input, folded) in [
            ("Zoë ÅNGSTRÖM", "zoe angstrom"),
            ("Plain ASCII, Text 42", "plain ascii, text 42"),
            ("Ǆemal İstanbul", "ǆemal istanbul"),
            ("", ""),
        ] {
            assert_eq!(fold_search(input), folded, "{input}");
        }
    }

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
