//! A small reader of note-body HTML (the core's sanitised allow-list, see
//! DESIGN.md "Note body HTML") into a tree, for [`super::markdown`] and
//! for adapters that draw a body their own way (the CLI's `notes show`). It reads any text without failing: an unknown entity stays as
//! typed, a stray `<` is text, an end tag with no open element is skipped,
//! and what is left open at the end is closed.

/// A node of the body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Node {
    /// Text, its entities decoded.
    Text(String),
    /// An element: its name in lower case, attributes, children.
    Element(Element),
}

/// An element of the body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Element {
    /// Its name, in lower case.
    pub name: String,
    /// Its attributes, values decoded, in order.
    pub attrs: Vec<(String, String)>,
    /// What it holds.
    pub children: Vec<Node>,
}

impl Element {
    /// Whether it is a block of the body (a paragraph, heading, list or
    /// item, quote, code block, rule or division), not inline text.
    pub fn is_block(&self) -> bool {
        matches!(
            self.name.as_str(),
            "p" | "h1"
                | "h2"
                | "h3"
                | "h4"
                | "h5"
                | "h6"
                | "ul"
                | "ol"
                | "li"
                | "blockquote"
                | "pre"
                | "hr"
                | "div"
        )
    }

    /// The value of attribute `name`, if it has one.
    pub fn attr(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Elements that have no end tag.
const VOID: &[&str] = &["br", "hr", "img", "wbr", "input", "meta", "link"];

/// The nodes of `html`.
pub fn parse(html: &str) -> Vec<Node> {
    // The stack of open elements; the root is the bottom one.
    let mut stack: Vec<Element> = vec![Element {
        name: String::new(),
        attrs: Vec::new(),
        children: Vec::new(),
    }];
    let mut rest = html;
    let mut text = String::new();
    while !rest.is_empty() {
        let Some(at) = rest.find('<') else {
            text.push_str(rest);
            break;
        };
        text.push_str(&rest[..at]);
        rest = &rest[at..];
        match tag(rest) {
            Some((Tag::Skip, len)) => rest = &rest[len..],
            Some((Tag::Open(element, closed), len)) => {
                flush(&mut stack, &mut text);
                rest = &rest[len..];
                if closed || VOID.contains(&element.name.as_str()) {
                    push(&mut stack, Node::Element(element));
                } else {
                    stack.push(element);
                }
            }
            Some((Tag::Close(name), len)) => {
                flush(&mut stack, &mut text);
                rest = &rest[len..];
                if let Some(depth) = stack.iter().skip(1).rposition(|e| e.name == name) {
                    while stack.len() > depth + 1 {
                        close(&mut stack);
                    }
                }
            }
            None => {
                text.push('<');
                rest = &rest[1..];
            }
        }
    }
    flush(&mut stack, &mut text);
    while stack.len() > 1 {
        close(&mut stack);
    }
    stack.pop().map(|root| root.children).unwrap_or_default()
}

/// What a `<` begins.
enum Tag {
    /// A start tag, and whether it closed itself (`<br/>`).
    Open(Element, bool),
    /// An end tag's name.
    Close(String),
    /// A comment, doctype or processing instruction.
    Skip,
}

/// The tag at the start of `s` and its length in bytes; `None` when the
/// `<` begins no tag.
fn tag(s: &str) -> Option<(Tag, usize)> {
    if let Some(body) = s.strip_prefix("<!--") {
        let end = body.find("-->").map_or(s.len(), |at| at + 4 + 3);
        return Some((Tag::Skip, end));
    }
    if s.starts_with("<!") || s.starts_with("<?") {
        let end = s.find('>').map_or(s.len(), |at| at + 1);
        return Some((Tag::Skip, end));
    }
    let end = s.find('>')?;
    let inner = &s[1..end];
    let (closing, inner) = match inner.strip_prefix('/') {
        Some(inner) => (true, inner),
        None => (false, inner),
    };
    let name_len = inner
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
        .unwrap_or(inner.len());
    if name_len == 0 || !inner.starts_with(|c: char| c.is_ascii_alphabetic()) {
        return None;
    }
    let name = inner[..name_len].to_ascii_lowercase();
    if closing {
        return Some((Tag::Close(name), end + 1));
    }
    let mut attrs_text = inner[name_len..].trim();
    let closed = attrs_text.ends_with('/');
    if closed {
        attrs_text = attrs_text[..attrs_text.len() - 1].trim_end();
    }
    let element = Element {
        name,
        attrs: attributes(attrs_text),
        children: Vec::new(),
    };
    Some((Tag::Open(element, closed), end + 1))
}

/// `a="1" b='2' c=3 d` as pairs, values decoded.
fn attributes(mut s: &str) -> Vec<(String, String)> {
    let mut attrs = Vec::new();
    loop {
        s = s.trim_start();
        if s.is_empty() {
            return attrs;
        }
        let name_len = s
            .find(|c: char| c.is_whitespace() || c == '=')
            .unwrap_or(s.len());
        let name = s[..name_len].to_ascii_lowercase();
        s = s[name_len..].trim_start();
        let value = match s.strip_prefix('=') {
            None => String::new(),
            Some(after) => {
                let after = after.trim_start();
                let (value, rest) = match after.chars().next() {
                    Some(q @ ('"' | '\'')) => {
                        let body = &after[1..];
                        match body.find(q) {
                            Some(at) => (&body[..at], &body[at + 1..]),
                            None => (body, ""),
                        }
                    }
                    _ => {
                        let at = after.find(char::is_whitespace).unwrap_or(after.len());
                        (&after[..at], &after[at..])
                    }
                };
                s = rest;
                decode(value)
            }
        };
        if !name.is_empty() {
            attrs.push((name, value));
        }
    }
}

/// Adds the text read so far to the open element.
fn flush(stack: &mut [Element], text: &mut String) {
    if !text.is_empty() {
        let decoded = decode(text);
        text.clear();
        push(stack, Node::Text(decoded));
    }
}

fn push(stack: &mut [Element], node: Node) {
    if let Some(open) = stack.last_mut() {
        open.children.push(node);
    }
}

/// Closes the innermost open element into its parent.
fn close(stack: &mut Vec<Element>) {
    if let Some(done) = stack.pop() {
        push(stack, Node::Element(done));
    }
}

/// `text` with its character references decoded (named: the few the
/// sanitiser writes and a few common ones; numeric: any); others stay.
pub fn decode(text: &str) -> String {
    if !text.contains('&') {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let end = rest[1..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '#'))
            .map(|e| e + 1);
        let decoded = end
            .filter(|&e| rest[e..].starts_with(';'))
            .and_then(|e| entity(&rest[1..e]).map(|c| (c, e + 1)));
        match decoded {
            Some((c, len)) => {
                out.push(c);
                rest = &rest[len..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

fn entity(name: &str) -> Option<char> {
    if let Some(number) = name.strip_prefix('#') {
        let code = match number.strip_prefix(['x', 'X']) {
            Some(hex) => u32::from_str_radix(hex, 16).ok()?,
            None => number.parse().ok()?,
        };
        return char::from_u32(code);
    }
    Some(match name {
        "amp" => '&',
        "lt" => '<',
        "gt" => '>',
        "quot" => '"',
        "apos" => '\'',
        "nbsp" => '\u{a0}',
        _ => return None,
    })
}

/// `text` escaped for HTML text or a double-quoted attribute.
pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn el(name: &str, attrs: &[(&str, &str)], children: Vec<Node>) -> Node {
        Node::Element(Element {
            name: name.into(),
            attrs: attrs
                .iter()
                .map(|(n, v)| ((*n).into(), (*v).into()))
                .collect(),
            children,
        })
    }

    fn text(t: &str) -> Node {
        Node::Text(t.into())
    }

    #[test]
    fn reads_the_allow_list() {
        let nodes =
            parse(r#"<p>a &amp; <b>b</b><br><span data-mention="01K">@Ada</span></p><hr/>"#);
        assert_eq!(
            nodes,
            vec![
                el(
                    "p",
                    &[],
                    vec![
                        text("a & "),
                        el("b", &[], vec![text("b")]),
                        el("br", &[], vec![]),
                        el("span", &[("data-mention", "01K")], vec![text("@Ada")]),
                    ]
                ),
                el("hr", &[], vec![]),
            ]
        );
    }

    #[test]
    fn odd_html_never_fails() {
        for odd in [
            "<",
            "<<>>",
            "a < b",
            "</p>",
            "<p",
            "<p><b>x",
            "&",
            "&#xZZ;",
            "&#99999999;",
            "<!--",
            "<a href='x",
            "<a href=>",
            "</>",
            "<1>",
            "&amp",
        ] {
            let _ = parse(odd);
        }
        assert_eq!(parse("a < b"), vec![text("a < b")]);
        assert_eq!(
            parse("<p><b>x</p>y"),
            vec![el("p", &[], vec![el("b", &[], vec![text("x")])]), text("y")]
        );
        assert_eq!(parse("x</i>y"), vec![text("x"), text("y")]);
        assert_eq!(decode("&lt;&#65;&#x42;&nope;&"), "<AB&nope;&");
    }
}
