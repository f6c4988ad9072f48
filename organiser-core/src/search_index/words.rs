//! Words, as the index stores them and queries look them up (document 1,
//! "Search": "case and accents do not matter"): text is folded (lower
//! case, accents dropped, with `unicode-normalization`) and split into
//! runs of letters and digits. Phone numbers are kept as their digits.

/// The mark that begins a phone-digits term; no word holds it.
pub(crate) const PHONE: char = '\u{1}';

/// The fewest digits a query must hold to be looked up as a phone number.
pub(crate) const PHONE_DIGITS_MIN: usize = 3;

/// `text` lower-cased with its accents dropped.
pub(crate) fn fold(text: &str) -> String {
    crate::text::fold_search(text)
}

/// The words of folded text.
pub(crate) fn split(folded: &str) -> impl Iterator<Item = &str> {
    crate::text::search_words(folded)
}

/// `text` with each link's scheme and leading `www.` dropped, as links are
/// indexed (`https://www.example.org/a` is found by `example.org/a`, and
/// a query holding the whole link finds it too).
pub(crate) fn without_schemes(text: &str) -> String {
    text.split_whitespace()
        .map(|part| {
            let rest = part.split_once("://").map_or(part, |(_, rest)| rest);
            match rest.get(..4) {
                Some(www) if www.eq_ignore_ascii_case("www.") => &rest[4..],
                _ => rest,
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// How many edits a misspelling of `word` may have: none below 4
/// letters, one from 4 to 7, two from 8 (a transposition is one).
pub(crate) fn edits(word: &str) -> u8 {
    match word.chars().count() {
        0..=3 => 0,
        4..=7 => 1,
        _ => 2,
    }
}

/// The terms a phone number is found by: its digits from each place on
/// (at least [`PHONE_DIGITS_MIN`] of them), so that any run of digits a
/// query holds begins one of them; the whole number also as
/// [`super::class::WHOLE_PHONE`].
pub(crate) fn phone_terms(number: &str) -> Vec<(String, u8)> {
    use super::class::{PHONE as P, WHOLE_PHONE};
    let digits: Vec<char> = number.chars().filter(char::is_ascii_digit).collect();
    if digits.len() < PHONE_DIGITS_MIN {
        return Vec::new();
    }
    (0..=digits.len() - PHONE_DIGITS_MIN)
        .map(|from| {
            let mut term = String::with_capacity(1 + digits.len() - from);
            term.push(PHONE);
            term.extend(&digits[from..]);
            (term, if from == 0 { P | WHOLE_PHONE } else { P })
        })
        .collect()
}

/// The digits a query is looked up by among phone numbers: a query of
/// digits and the marks numbers are written with (`+ - ( ) . /` and
/// spaces) holding at least [`PHONE_DIGITS_MIN`] digits gives them, and
/// also the digits after any leading zeros (a national trunk prefix:
/// `020 7946 0958` finds `+44 20 7946 0958`).
pub(crate) fn phone_query(q: &str) -> Vec<String> {
    let phone_like = q
        .chars()
        .all(|c| c.is_ascii_digit() || c.is_whitespace() || "+-().\\/".contains(c));
    let digits: String = q.chars().filter(char::is_ascii_digit).collect();
    if !phone_like || digits.len() < PHONE_DIGITS_MIN {
        return Vec::new();
    }
    let national = digits.trim_start_matches('0');
    let mut out = vec![digits.clone()];
    if national.len() != digits.len() && national.len() >= PHONE_DIGITS_MIN {
        out.push(national.to_owned());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn misspellings_allowed_by_length() {
        for (word, edits_allowed) in [
            ("cat", 0),
            ("naïf", 1),
            ("meeting", 1),
            ("meetings", 2),
            ("", 0),
        ] {
            assert_eq!(edits(word), edits_allowed, "{word}");
        }
    }

    #[test]
    fn phone_queries_read_digits_however_punctuated() {
        assert_eq!(phone_query("+44 (20) 7946-0958"), ["442079460958"]);
        assert_eq!(phone_query("020 7946 0958"), ["02079460958", "2079460958"]);
        assert_eq!(phone_query("12"), Vec::<String>::new());
        assert_eq!(phone_query("Room 101"), Vec::<String>::new());
        assert_eq!(phone_query("000"), ["000"]);
    }

    #[test]
    fn a_number_is_found_from_any_place() {
        let terms = phone_terms("+1 (555) 01");
        let digits: Vec<String> = terms.iter().map(|(t, _)| t[1..].to_owned()).collect();
        assert_eq!(digits, ["155501", "55501", "5501", "501"]);
        assert_eq!(
            terms[0].1,
            super::super::class::PHONE | super::super::class::WHOLE_PHONE
        );
        assert!(phone_terms("12").is_empty());
    }
}
