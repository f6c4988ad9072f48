//! Sanitised note-body HTML as tokens (its serialiser writes well-formed
//! HTML): what the note bodies' references pass and the mention names of
//! descriptions walk.

use crate::error::Result;
use crate::ids::Id;

/// One token of well-formed HTML.
pub(crate) enum Token<'a> {
    Text(&'a str),
    Open {
        name: String,
        raw: &'a str,
        attrs: Vec<(String, String)>,
    },
    Close {
        name: String,
        raw: &'a str,
    },
}

/// Splits sanitised HTML into tokens (quotes in attribute values honoured).
pub(crate) fn tokens(html: &str) -> Vec<Token<'_>> {
    let mut out = Vec::new();
    let bytes = html.as_bytes();
    let mut i = 0;
    let mut text_start = 0;
    while i < bytes.len() {
        if bytes[i] != b'<' {
            i += 1;
            continue;
        }
        if text_start < i {
            out.push(Token::Text(&html[text_start..i]));
        }
        let start = i;
        let mut quote = false;
        i += 1;
        while i < bytes.len() && (quote || bytes[i] != b'>') {
            if bytes[i] == b'"' {
                quote = !quote;
            }
            i += 1;
        }
        let end = (i + 1).min(bytes.len());
        let raw = &html[start..end];
        let inner = raw.trim_start_matches('<').trim_end_matches('>');
        if let Some(rest) = inner.strip_prefix('/') {
            out.push(Token::Close {
                name: rest.trim().to_ascii_lowercase(),
                raw,
            });
        } else {
            let name: String = inner
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric())
                .collect::<String>()
                .to_ascii_lowercase();
            out.push(Token::Open {
                attrs: attributes(&inner[name.len()..]),
                name,
                raw,
            });
        }
        i = end;
        text_start = end;
    }
    if text_start < bytes.len() {
        out.push(Token::Text(&html[text_start..]));
    }
    out
}

/// `name="value"` pairs of a start tag (values entity-decoded).
fn attributes(mut rest: &str) -> Vec<(String, String)> {
    let mut attrs = Vec::new();
    loop {
        rest = rest.trim_start().trim_end_matches('/');
        let Some(eq) = rest.find('=') else {
            break;
        };
        let name = rest[..eq].trim().to_ascii_lowercase();
        let after = rest[eq + 1..].trim_start();
        let Some(after) = after.strip_prefix('"') else {
            break;
        };
        let Some(close) = after.find('"') else {
            break;
        };
        attrs.push((name, decode(&after[..close])));
        rest = &after[close + 1..];
    }
    attrs
}

/// Text with the entities the serialiser writes decoded.
pub(crate) fn decode(s: &str) -> String {
    if !s.contains('&') {
        return s.to_owned();
    }
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&nbsp;", "\u{a0}")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// Text escaped for HTML.
pub(crate) fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\u{a0}' => out.push_str("&nbsp;"),
            c => out.push(c),
        }
    }
    out
}

pub(crate) fn attr<'a>(attrs: &'a [(String, String)], name: &str) -> Option<&'a str> {
    attrs
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
}

/// The text inside the span that opens at `tokens[at]`, and the index
/// after its end.
pub(crate) fn span_text(tokens: &[Token<'_>], at: usize) -> (String, usize) {
    let mut depth = 0usize;
    let mut text = String::new();
    let mut i = at;
    while i < tokens.len() {
        match &tokens[i] {
            Token::Open { name, .. } if name == "span" => depth += 1,
            Token::Close { name, .. } if name == "span" => {
                depth -= 1;
                if depth == 0 {
                    return (text, i + 1);
                }
            }
            Token::Text(t) => text.push_str(&decode(t)),
            _ => {}
        }
        i += 1;
    }
    (text, i)
}

/// The people the mention spans of `html` name (sorted, once each).
pub(crate) fn mentioned(html: &str) -> Vec<Id> {
    if !html.contains("data-mention") {
        return Vec::new();
    }
    let mut ids: Vec<Id> = tokens(html)
        .iter()
        .filter_map(|t| match t {
            Token::Open { name, attrs, .. } if name == "span" => {
                attr(attrs, "data-mention").and_then(Id::parse)
            }
            _ => None,
        })
        .collect();
    ids.sort();
    ids.dedup();
    ids
}

/// `html` with each mention span of a person `name_of` knows showing
/// `@Name`, the rest as it was; `None` when nothing changes.
pub(crate) fn with_mention_names(
    html: &str,
    name_of: &mut dyn FnMut(Id) -> Result<Option<String>>,
) -> Result<Option<String>> {
    if !html.contains("data-mention") {
        return Ok(None);
    }
    let tokens = tokens(html);
    let mut out = String::with_capacity(html.len() + 16);
    fn raw<'a>(t: &Token<'a>) -> &'a str {
        match t {
            Token::Text(text) => text,
            Token::Open { raw, .. } | Token::Close { raw, .. } => raw,
        }
    }
    let mut i = 0;
    while i < tokens.len() {
        if let Token::Open { name, attrs, .. } = &tokens[i]
            && name == "span"
            && let Some(id) = attr(attrs, "data-mention").and_then(Id::parse)
            && let Some(person) = name_of(id)?
        {
            let (_, next) = span_text(&tokens, i);
            out.push_str(&format!(
                "<span data-mention=\"{id}\">{}</span>",
                escape(&format!("@{person}"))
            ));
            i = next;
            continue;
        }
        out.push_str(raw(&tokens[i]));
        i += 1;
    }
    Ok((out != html).then_some(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mention_spans_show_the_names_given() {
        let ada = Id::from_bytes([1; 16]);
        let bob = Id::from_bytes([2; 16]);
        let html = format!(
            "<p>Ask <span data-mention=\"{ada}\">@Ada Byron</span> and <span data-mention=\"{bob}\">@Bob</span> &amp; <b>co</b></p>"
        );
        assert_eq!(mentioned(&html), [ada, bob]);
        let mut names = |id: Id| Ok((id == ada).then(|| "Ada <Lovelace>".to_owned()));
        let renamed = with_mention_names(&html, &mut names).unwrap().unwrap();
        assert_eq!(
            renamed,
            format!(
                "<p>Ask <span data-mention=\"{ada}\">@Ada &lt;Lovelace&gt;</span> and <span data-mention=\"{bob}\">@Bob</span> &amp; <b>co</b></p>"
            )
        );
        // Nothing to change: none.
        let mut same = |id: Id| Ok((id == bob).then(|| "Bob".to_owned()));
        assert_eq!(with_mention_names(&html, &mut same).unwrap(), None);
    }
}
