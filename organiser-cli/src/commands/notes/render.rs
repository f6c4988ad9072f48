//! A note's body for a terminal (`notes show`): headings, lists with
//! bullets and numbers, quotes, code, emphasis, links as `text <url>`,
//! mentions, references and tags; styled with ANSI codes when colour is
//! on, plain text otherwise. Text from the body has its control
//! characters escaped, as every line the CLI prints.

use crate::output::clean;
use organiser_core::notes::markdown::text_of;
use organiser_core::notes::tree::{Element, Node};

/// How a piece of the body is styled.
#[derive(Clone, Copy)]
enum Style {
    Bold,
    Italic,
    Underline,
    Strike,
    Code,
    Link,
    Mention,
    Project,
    Tag,
    Heading,
    Dim,
}

impl Style {
    /// The ANSI codes that turn it on and off.
    fn codes(self) -> (&'static str, &'static str) {
        match self {
            Style::Bold => ("\x1b[1m", "\x1b[22m"),
            Style::Italic => ("\x1b[3m", "\x1b[23m"),
            Style::Underline => ("\x1b[4m", "\x1b[24m"),
            Style::Strike => ("\x1b[9m", "\x1b[29m"),
            Style::Code => ("\x1b[36m", "\x1b[39m"),
            Style::Link => ("\x1b[4;34m", "\x1b[24;39m"),
            Style::Mention => ("\x1b[1;35m", "\x1b[22;39m"),
            Style::Project => ("\x1b[1;36m", "\x1b[22;39m"),
            Style::Tag => ("\x1b[33m", "\x1b[39m"),
            Style::Heading => ("\x1b[1;4m", "\x1b[22;24m"),
            Style::Dim => ("\x1b[2m", "\x1b[22m"),
        }
    }
}

/// Renders with or without colour.
pub(super) struct Renderer {
    colour: bool,
}

impl Renderer {
    pub(super) fn new(colour: bool) -> Renderer {
        Renderer { colour }
    }

    /// The body's lines.
    pub(super) fn render(&self, nodes: &[Node]) -> Vec<String> {
        let mut lines = Vec::new();
        for block in self.blocks(nodes) {
            if !lines.is_empty() {
                lines.push(String::new());
            }
            lines.extend(block);
        }
        lines
    }

    fn styled(&self, style: Style, text: &str) -> String {
        if self.colour && !text.is_empty() {
            let (on, off) = style.codes();
            format!("{on}{text}{off}")
        } else {
            text.to_owned()
        }
    }

    /// Blocks, each as its lines; inline nodes between blocks make one.
    fn blocks(&self, nodes: &[Node]) -> Vec<Vec<String>> {
        let mut out = Vec::new();
        let mut run: Vec<&Node> = Vec::new();
        for node in nodes {
            match node {
                Node::Element(e) if e.is_block() => {
                    self.paragraph(&run, &mut out);
                    run.clear();
                    self.block(e, &mut out);
                }
                other => run.push(other),
            }
        }
        self.paragraph(&run, &mut out);
        out
    }

    fn paragraph(&self, nodes: &[&Node], out: &mut Vec<Vec<String>>) {
        let text: String = nodes.iter().map(|n| self.inline(n)).collect();
        let lines: Vec<String> = text.split('\n').map(|l| l.trim().to_owned()).collect();
        if lines.iter().any(|l| !l.is_empty()) {
            out.push(lines);
        }
    }

    fn block(&self, e: &Element, out: &mut Vec<Vec<String>>) {
        match e.name.as_str() {
            "p" | "div" | "li" => {
                let children: Vec<&Node> = e.children.iter().collect();
                self.paragraph(&children, out);
            }
            "h1" | "h2" | "h3" | "h4" | "h5" | "h6" => {
                let text: String = e.children.iter().map(|n| self.inline(n)).collect();
                let text = text.replace('\n', " ").trim().to_owned();
                out.push(vec![if self.colour {
                    self.styled(Style::Heading, &text)
                } else {
                    let level: usize = e.name[1..].parse().unwrap_or(1);
                    format!("{} {text}", "#".repeat(level))
                }]);
            }
            "ul" | "ol" => out.push(self.list(e)),
            "blockquote" => {
                let bar = self.styled(Style::Dim, "│");
                let inner = self.render(&e.children);
                out.push(
                    inner
                        .into_iter()
                        .map(|l| {
                            if l.is_empty() {
                                bar.clone()
                            } else {
                                format!("{bar} {l}")
                            }
                        })
                        .collect(),
                );
            }
            "pre" => {
                let code = text_of(&e.children);
                let code = code.strip_suffix('\n').unwrap_or(&code);
                out.push(
                    code.split('\n')
                        .map(|l| format!("    {}", self.styled(Style::Code, &clean(l))))
                        .collect(),
                );
            }
            _ => out.push(vec![self.styled(Style::Dim, "────────")]),
        }
    }

    /// A list's lines: `• ` or `1. ` before each item's first line, its
    /// other lines indented under it.
    fn list(&self, e: &Element) -> Vec<String> {
        let start: usize = e.attr("start").and_then(|s| s.parse().ok()).unwrap_or(1);
        let mut lines = Vec::new();
        let items = e.children.iter().filter_map(|n| match n {
            Node::Element(li) if li.name == "li" => Some(li),
            _ => None,
        });
        for (i, li) in items.enumerate() {
            let marker = if e.name == "ol" {
                format!("{}. ", start + i)
            } else {
                "• ".to_owned()
            };
            let indent = " ".repeat(marker.chars().count());
            let body: Vec<String> = self.blocks(&li.children).into_iter().flatten().collect();
            for (n, line) in body.iter().enumerate() {
                match (n, line.is_empty()) {
                    (0, _) => lines.push(format!("{marker}{line}")),
                    (_, true) => lines.push(String::new()),
                    _ => lines.push(format!("{indent}{line}")),
                }
            }
            if body.is_empty() {
                lines.push(marker.trim_end().to_owned());
            }
        }
        lines
    }

    /// An inline node as text (`\n` for a line break).
    fn inline(&self, node: &Node) -> String {
        let e = match node {
            Node::Text(t) => return collapse(&clean(t)),
            Node::Element(e) => e,
        };
        let inner = || -> String { e.children.iter().map(|n| self.inline(n)).collect() };
        match e.name.as_str() {
            "br" => "\n".to_owned(),
            "strong" | "b" => self.styled(Style::Bold, &inner()),
            "em" | "i" => self.styled(Style::Italic, &inner()),
            "u" => self.styled(Style::Underline, &inner()),
            "s" | "del" => self.styled(Style::Strike, &inner()),
            "code" => {
                let code = clean(&text_of(&e.children)).into_owned();
                if self.colour {
                    self.styled(Style::Code, &code)
                } else {
                    format!("`{code}`")
                }
            }
            "a" => {
                let text = inner();
                let href = clean(e.attr("href").unwrap_or("")).into_owned();
                let shown = self.styled(Style::Link, &text);
                if href.is_empty() || text == href {
                    shown
                } else {
                    format!("{shown} <{href}>")
                }
            }
            "img" => self.styled(Style::Dim, "[image]"),
            "span" if e.attr("data-mention").is_some() => self.styled(Style::Mention, &inner()),
            "span" if e.attr("data-project").is_some() => self.styled(Style::Project, &inner()),
            "span" if e.attr("data-tag").is_some() => self.styled(Style::Tag, &inner()),
            _ => inner(),
        }
    }
}

/// Runs of white space as one space, as HTML shows text.
fn collapse(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut space = false;
    for c in text.chars() {
        if c.is_whitespace() && c != '\u{a0}' {
            if !space {
                out.push(' ');
            }
            space = true;
        } else {
            out.push(c);
            space = false;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use organiser_core::notes::tree::parse;

    fn plain(html: &str) -> String {
        Renderer::new(false).render(&parse(html)).join("\n")
    }

    #[test]
    fn bodies_read_well_without_colour() {
        let html = "<h1>Plan</h1>\n<p>Some <strong>bold</strong> and <code>x</code>,\nsee <a href=\"https://e.com\">site</a>.<br>Next</p><ul><li>one</li><li><p>two</p><ul><li>deep</li></ul></li></ul><ol start=\"3\"><li>c</li></ol><blockquote><p>q</p></blockquote><pre><code>a\n  b\n</code></pre><hr><p><span data-mention=\"X\">@Ada</span> <span data-tag=\"Y\">#t</span> <img data-upload=\"z\"></p>";
        assert_eq!(
            plain(html),
            "# Plan\n\nSome bold and `x`, see site <https://e.com>.\nNext\n\n• one\n• two\n  • deep\n\n3. c\n\n│ q\n\n    a\n      b\n\n────────\n\n@Ada #t [image]"
        );
    }

    #[test]
    fn colour_highlights_names_and_escapes_control_characters() {
        let lines = Renderer::new(true).render(&parse(
            "<p><span data-mention=\"X\">@Ada</span> \u{1b}[2J</p>",
        ));
        assert_eq!(lines, ["\x1b[1;35m@Ada\x1b[22;39m \\x1b[2J"]);
        assert_eq!(plain(""), "");
        assert_eq!(plain("<p></p><p> </p>"), "");
        assert_eq!(plain("<ul><li></li></ul>"), "•");
    }
}
