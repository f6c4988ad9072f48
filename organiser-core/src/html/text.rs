//! Plain text of sanitised body HTML: block elements and `<br>` become line
//! breaks, list items get a dash, entities are decoded, references keep
//! their text (`@Name`, `^Name`, `#name`).

const BLOCKS: &[&str] = &[
    "p",
    "pre",
    "blockquote",
    "h1",
    "h2",
    "h3",
    "ul",
    "ol",
    "li",
    "hr",
    "div",
];

/// The plain text of `html` (sanitised HTML; well formed).
pub(crate) fn to_text(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(lt) = rest.find('<') {
        push_text(&mut out, &rest[..lt]);
        let Some(gt) = rest[lt..].find('>') else {
            push_text(&mut out, &rest[lt..]);
            rest = "";
            break;
        };
        let tag = &rest[lt + 1..lt + gt];
        rest = &rest[lt + gt + 1..];
        let closing = tag.starts_with('/');
        let name: String = tag
            .trim_start_matches('/')
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect::<String>()
            .to_ascii_lowercase();
        if name == "br" {
            out.push('\n');
        } else if name == "li" && !closing {
            newline(&mut out);
            out.push_str("- ");
        } else if BLOCKS.contains(&name.as_str()) {
            newline(&mut out);
        }
    }
    push_text(&mut out, rest);
    tidy(&out)
}

fn newline(out: &mut String) {
    if !out.is_empty() && !out.ends_with('\n') {
        out.push('\n');
    }
}

fn push_text(out: &mut String, text: &str) {
    // Whitespace between blocks (`</p>\n<p>`) is layout, not a blank line.
    if (out.is_empty() || out.ends_with('\n')) && text.trim_ascii().is_empty() {
        return;
    }
    let mut rest = text;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        let after = &rest[amp..];
        match after
            .find(';')
            .filter(|&semi| semi <= 10)
            .and_then(|semi| decode(&after[1..semi]).map(|c| (c, semi)))
        {
            Some((c, semi)) => {
                out.push(c);
                rest = &after[semi + 1..];
            }
            None => {
                out.push('&');
                rest = &after[1..];
            }
        }
    }
    out.push_str(rest);
}

fn decode(entity: &str) -> Option<char> {
    match entity {
        "amp" => Some('&'),
        "lt" => Some('<'),
        "gt" => Some('>'),
        "quot" => Some('"'),
        "apos" => Some('\''),
        "nbsp" => Some(' '),
        _ => {
            let number = entity.strip_prefix('#')?;
            let code = match number.strip_prefix(['x', 'X']) {
                Some(hex) => u32::from_str_radix(hex, 16).ok()?,
                None => number.parse().ok()?,
            };
            char::from_u32(code)
        }
    }
}

/// Trims each line's ends and keeps at most one blank line in a row.
fn tidy(text: &str) -> String {
    let mut lines: Vec<&str> = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() && lines.last().is_none_or(|l| l.is_empty()) {
            continue;
        }
        lines.push(line);
    }
    while lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_follows_the_blocks() {
        let cases = [
            ("<p>One</p><p>Two &amp; three</p>", "One\nTwo & three"),
            ("<p>a<br>b</p>", "a\nb"),
            ("<ul><li>milk</li><li>eggs</li></ul>", "- milk\n- eggs"),
            // The source's line breaks between blocks are no blank lines.
            ("<p>One</p>\n<p>Two</p>\n", "One\nTwo"),
            (
                "<ul>\n  <li>milk</li>\n  <li>eggs</li>\n</ul>\n<p>x</p>",
                "- milk\n- eggs\nx",
            ),
            (
                "<p>Ask <span data-mention=\"01ARZ3NDEKTSV4RRFFQ69G5FAV\">@Ada</span> &lt;today&gt;</p>",
                "Ask @Ada <today>",
            ),
            ("<p>caf&#233; &#x263A;</p>", "café ☺"),
            ("", ""),
            ("plain", "plain"),
        ];
        for (html, text) in cases {
            assert_eq!(to_text(html), text, "{html}");
        }
    }
}
