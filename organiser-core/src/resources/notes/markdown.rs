//! Note bodies as the owner types them: Markdown (CommonMark with
//! `~~strikethrough~~`, by pulldown-cmark) into the body HTML the API
//! keeps, with `@Name` and `^Project` made mentions and references where
//! they name one person or project; and the body HTML back into the
//! Markdown `notes edit` and the web app's editor open, which reads back
//! into the same HTML (docs/cli.md, "Note bodies"). Pure functions: the
//! names `@` and `^` may take are given ([`Names`]);
//! [`Notes::body_from_markdown`](super::Notes::body_from_markdown) reads
//! them from the store.

use crate::ids::Id;
use pulldown_cmark::{CowStr, Event, Options, Parser, Tag, TagEnd};

use super::tree::{Element, Node, escape};

/// Stands for `\@` while the Markdown is read: never a mention.
const AT: char = '\u{e000}';
/// Stands for `\^`: never a reference.
const CARET: char = '\u{e001}';

/// The most words a name after `@` or `^` is looked for in.
const MOST_WORDS: usize = 4;

/// Records by ID and name.
pub type Named = Vec<(Id, String)>;

/// The people and projects `@Name` and `^Name` may name: `known` ones
/// first (the names the note already shows, so that a body read back
/// names whom it named), then everyone.
#[derive(Debug, Default, Clone)]
pub struct Names {
    /// The people the body being edited names.
    pub known_people: Named,
    /// Every live person.
    pub people: Named,
    /// The projects the body being edited names.
    pub known_projects: Named,
    /// Every live project.
    pub projects: Named,
}

/// A note's body HTML as the Markdown that reads back into it (what
/// `notes edit` and the web app's editor open).
pub fn from_body_html(html: &str) -> String {
    from_html(&super::tree::parse(html))
}

/// Markdown into body HTML.
pub fn to_html(markdown: &str, names: &Names) -> String {
    let source = markdown
        .replace("\\@", &AT.to_string())
        .replace("\\^", &CARET.to_string());
    let parser = Parser::new_ext(&source, Options::ENABLE_STRIKETHROUGH);
    let mut events: Vec<Event<'_>> = Vec::new();
    let mut pending = String::new();
    let mut code_block = 0usize;
    let mut link = 0usize;
    for event in parser {
        match event {
            Event::Text(text) if code_block == 0 && link == 0 => pending.push_str(&text),
            other => {
                flush(&mut pending, &mut events, names);
                match &other {
                    Event::Start(Tag::CodeBlock(_)) => code_block += 1,
                    Event::End(TagEnd::CodeBlock) => code_block = code_block.saturating_sub(1),
                    Event::Start(Tag::Link { .. }) => link += 1,
                    Event::End(TagEnd::Link) => link = link.saturating_sub(1),
                    _ => {}
                }
                events.push(match other {
                    // Typed, not escaped: as typed.
                    Event::Text(t) if code_block > 0 => Event::Text(restore_typed(&t).into()),
                    Event::Text(t) => Event::Text(restore_plain(&t).into()),
                    Event::Code(t) => Event::Code(restore_typed(&t).into()),
                    // What the owner types is text: HTML only where `notes
                    // edit` wrote it (an image, an underline).
                    Event::Html(t) | Event::InlineHtml(t) if !ours(&t) => {
                        Event::Text(restore_plain(&t).into())
                    }
                    Event::Html(t) => Event::Html(restore_typed(&t).into()),
                    Event::InlineHtml(t) => Event::InlineHtml(restore_typed(&t).into()),
                    other => other,
                });
            }
        }
    }
    flush(&mut pending, &mut events, names);
    let mut html = String::new();
    pulldown_cmark::html::push_html(&mut html, events.into_iter());
    html.trim_end().to_owned()
}

/// Whether raw HTML in the Markdown is what [`from_html`] writes for
/// what Markdown cannot say: an underline's tags, or a note's image.
fn ours(html: &str) -> bool {
    let html = html.trim();
    html == "<u>"
        || html == "</u>"
        || (html.starts_with("<img data-upload=\"")
            && html.ends_with("\">")
            && html.matches('"').count() == 2)
}

/// The placeholders as the characters they stand for (outside code).
fn restore_plain(text: &str) -> String {
    text.replace(AT, "@").replace(CARET, "^")
}

/// The placeholders as typed (in code and raw HTML).
fn restore_typed(text: &str) -> String {
    text.replace(AT, "\\@").replace(CARET, "\\^")
}

/// The text gathered so far as events: plain text, with the spans of the
/// mentions and references it holds.
fn flush<'a>(pending: &mut String, events: &mut Vec<Event<'a>>, names: &Names) {
    if pending.is_empty() {
        return;
    }
    for piece in resolve(pending, names) {
        events.push(match piece {
            Piece::Text(t) => Event::Text(CowStr::from(restore_plain(&t))),
            Piece::Span(html) => Event::InlineHtml(CowStr::from(html)),
        });
    }
    pending.clear();
}

/// Text, or the HTML of a span.
#[derive(Debug, PartialEq, Eq)]
enum Piece {
    Text(String),
    Span(String),
}

/// `text` cut into plain text and spans: `@` (or `^`) at the start or
/// after a character that is not a letter or digit, followed by up to
/// four words separated by single spaces (a word: letters, digits, `-`,
/// `'`), names the person (project) whose whole name those words are,
/// ignoring case, or the one whose name they begin, the most words first;
/// a name the note already shows comes first; two or more such records
/// leave the text as it is.
fn resolve(text: &str, names: &Names) -> Vec<Piece> {
    let mut pieces = Vec::new();
    let mut plain = String::new();
    let mut rest = text;
    let mut previous: Option<char> = None;
    while let Some(c) = rest.chars().next() {
        let sigil = (c == '@' || c == '^') && !previous.is_some_and(char::is_alphanumeric);
        if sigil {
            let (known, all, attr) = if c == '@' {
                (&names.known_people, &names.people, "data-mention")
            } else {
                (&names.known_projects, &names.projects, "data-project")
            };
            let words = words(&rest[1..]);
            if let Some((used, id, name)) = lookup(&words, known, all) {
                if !plain.is_empty() {
                    pieces.push(Piece::Text(std::mem::take(&mut plain)));
                }
                pieces.push(Piece::Span(format!(
                    "<span {attr}=\"{id}\">{c}{}</span>",
                    escape(&name)
                )));
                rest = &rest[1 + used..];
                previous = name.chars().last();
                continue;
            }
        }
        plain.push(c);
        previous = Some(c);
        rest = &rest[c.len_utf8()..];
    }
    if !plain.is_empty() {
        pieces.push(Piece::Text(plain));
    }
    pieces
}

/// The first word after each `sigil` (`@` or `^`) of `markdown` that
/// could start a mention or reference (see [`resolve`]), in lower case:
/// every name such a mention can resolve to begins with one of them, so
/// only the records whose names begin so need reading.
pub fn first_words(markdown: &str, sigil: char) -> std::collections::BTreeSet<String> {
    let mut out = std::collections::BTreeSet::new();
    let mut previous: Option<char> = None;
    for (at, c) in markdown.char_indices() {
        if c == sigil
            && !previous.is_some_and(char::is_alphanumeric)
            && let Some((word, _)) = words(&markdown[at + c.len_utf8()..]).first()
        {
            out.insert(word.to_lowercase());
        }
        previous = Some(c);
    }
    out
}

/// The words at the start of `text` (at most [`MOST_WORDS`]), each with
/// the length in bytes of the text up to its end.
fn words(text: &str) -> Vec<(&str, usize)> {
    let is_word = |c: char| c.is_alphanumeric() || c == '-' || c == '\'' || c == '’';
    let mut found = Vec::new();
    let mut at = 0;
    while found.len() < MOST_WORDS {
        let start = at;
        let len = text[start..]
            .find(|c: char| !is_word(c))
            .unwrap_or(text.len() - start);
        if len == 0 {
            break;
        }
        at = start + len;
        found.push((&text[start..at], at));
        if !text[at..].starts_with(' ') || text[at + 1..].starts_with(' ') {
            break;
        }
        at += 1;
    }
    found
}

/// The record the most of `words` name (see [`resolve`]): the words it
/// takes (in bytes), its ID and name.
fn lookup(
    words: &[(&str, usize)],
    known: &[(Id, String)],
    all: &[(Id, String)],
) -> Option<(usize, Id, String)> {
    for k in (1..=words.len()).rev() {
        let typed: Vec<&str> = words[..k].iter().map(|(w, _)| *w).collect();
        let typed = typed.join(" ").to_lowercase();
        let used = words[k - 1].1;
        if let Some((id, name)) = known.iter().find(|(_, n)| n.to_lowercase() == typed) {
            return Some((used, *id, name.clone()));
        }
        let exact: Vec<&(Id, String)> = all
            .iter()
            .filter(|(_, n)| n.to_lowercase() == typed)
            .collect();
        match exact.as_slice() {
            [(id, name)] => return Some((used, *id, name.clone())),
            [] => {}
            _ => return None,
        }
        let begun: Vec<&(Id, String)> = all
            .iter()
            .filter(|(_, n)| n.to_lowercase().starts_with(&typed))
            .collect();
        match begun.as_slice() {
            [(id, name)] => return Some((used, *id, name.clone())),
            [] => {}
            _ => return None,
        }
    }
    None
}

/// The people and projects a body names, as its spans show them (ID and
/// name without the sigil): what [`Names`] calls known.
pub fn named_in(nodes: &[Node]) -> (Named, Named) {
    let mut people = Vec::new();
    let mut projects = Vec::new();
    walk(nodes, &mut |e: &Element| {
        let text = text_of(&e.children);
        if let Some(id) = e.attr("data-mention").and_then(Id::parse) {
            people.push((id, text.trim_start_matches('@').to_owned()));
        }
        if let Some(id) = e.attr("data-project").and_then(Id::parse) {
            projects.push((id, text.trim_start_matches('^').to_owned()));
        }
    });
    (people, projects)
}

fn walk(nodes: &[Node], visit: &mut impl FnMut(&Element)) {
    for node in nodes {
        if let Node::Element(e) = node {
            visit(e);
            walk(&e.children, visit);
        }
    }
}

/// The text of `nodes`, without markup.
pub fn text_of(nodes: &[Node]) -> String {
    let mut out = String::new();
    for node in nodes {
        match node {
            Node::Text(t) => out.push_str(t),
            Node::Element(e) => out.push_str(&text_of(&e.children)),
        }
    }
    out
}

/// Body HTML as the Markdown that [`to_html`] reads back into it.
pub fn from_html(nodes: &[Node]) -> String {
    let mut out = blocks(nodes).join("\n\n");
    if !out.is_empty() {
        out.push('\n');
    }
    out
}

/// The blocks of `nodes`, each as Markdown; inline nodes between blocks
/// make a paragraph.
fn blocks(nodes: &[Node]) -> Vec<String> {
    let mut out = Vec::new();
    let mut run: Vec<Node> = Vec::new();
    let end_run = |run: &mut Vec<Node>, out: &mut Vec<String>| {
        let text = inline(run);
        if !text.trim().is_empty() {
            out.push(text.trim().to_owned());
        }
        run.clear();
    };
    for node in nodes {
        let Node::Element(e) = node else {
            run.push(node.clone());
            continue;
        };
        if !e.is_block() {
            run.push(node.clone());
            continue;
        }
        end_run(&mut run, &mut out);
        match e.name.as_str() {
            "p" | "div" | "li" => {
                let text = inline(&e.children);
                if !text.trim().is_empty() {
                    out.push(text.trim().to_owned());
                }
            }
            "h1" | "h2" | "h3" | "h4" | "h5" | "h6" => {
                let level: usize = e.name[1..].parse().unwrap_or(1);
                out.push(format!(
                    "{} {}",
                    "#".repeat(level),
                    inline(&e.children).trim()
                ));
            }
            "ul" | "ol" => out.push(list(e)),
            "blockquote" => {
                let inner = blocks(&e.children).join("\n\n");
                let quoted: Vec<String> = inner
                    .lines()
                    .map(|l| {
                        if l.is_empty() {
                            ">".to_owned()
                        } else {
                            format!("> {l}")
                        }
                    })
                    .collect();
                out.push(quoted.join("\n"));
            }
            "pre" => {
                let code = text_of(&e.children);
                let code = code.strip_suffix('\n').unwrap_or(&code);
                // The language of its code, as the fence said it.
                let language = e
                    .children
                    .iter()
                    .find_map(|n| match n {
                        Node::Element(c) if c.name == "code" => c.attr("class"),
                        _ => None,
                    })
                    .and_then(|class| class.strip_prefix("language-"))
                    .unwrap_or("");
                let mut fence = "```".to_owned();
                while code.contains(&fence) {
                    fence.push('`');
                }
                out.push(format!("{fence}{language}\n{code}\n{fence}"));
            }
            _ => out.push("---".to_owned()),
        }
    }
    end_run(&mut run, &mut out);
    out
}

/// A list as Markdown: `- ` or `1. ` items, their further lines indented
/// under the first; loose (a blank line between items) when its items
/// hold paragraphs.
fn list(e: &Element) -> String {
    let ordered = e.name == "ol";
    let start: usize = e.attr("start").and_then(|s| s.parse().ok()).unwrap_or(1);
    let items: Vec<&Element> = e
        .children
        .iter()
        .filter_map(|n| match n {
            Node::Element(li) if li.name == "li" => Some(li),
            _ => None,
        })
        .collect();
    let loose = items.iter().any(|li| {
        li.children
            .iter()
            .any(|n| matches!(n, Node::Element(p) if p.name == "p"))
    });
    let mut said = Vec::new();
    for (i, li) in items.iter().enumerate() {
        let marker = if ordered {
            format!("{}. ", start + i)
        } else {
            "- ".to_owned()
        };
        let body = blocks(&li.children).join(if loose { "\n\n" } else { "\n" });
        let indent = " ".repeat(marker.len());
        let mut lines = body.lines();
        let mut item = format!("{marker}{}", lines.next().unwrap_or(""));
        for line in lines {
            item.push('\n');
            if !line.is_empty() {
                item.push_str(&indent);
                item.push_str(line);
            }
        }
        said.push(item);
    }
    said.join(if loose { "\n\n" } else { "\n" })
}

/// Inline nodes as Markdown.
fn inline(nodes: &[Node]) -> String {
    let mut out = String::new();
    for node in nodes {
        match node {
            Node::Text(t) => {
                // The line end a break is written with is the break's own.
                let t = if out.ends_with("\\\n") {
                    t.strip_prefix('\n').unwrap_or(t)
                } else {
                    t
                };
                out.push_str(&escape_text(t, out.is_empty() || out.ends_with('\n')));
            }
            Node::Element(e) => out.push_str(&inline_element(e)),
        }
    }
    out
}

fn inline_element(e: &Element) -> String {
    let inner = || inline(&e.children);
    match e.name.as_str() {
        "strong" | "b" => format!("**{}**", inner()),
        "em" | "i" => format!("*{}*", inner()),
        "s" | "del" => format!("~~{}~~", inner()),
        "u" => format!("<u>{}</u>", inner()),
        "code" => code(&text_of(&e.children)),
        "br" => "\\\n".to_owned(),
        "a" => {
            let href = e.attr("href").unwrap_or("");
            let href = if href.contains([' ', '(', ')', '<', '>']) {
                format!("<{}>", href.replace('<', "%3C").replace('>', "%3E"))
            } else {
                href.to_owned()
            };
            format!("[{}]({href})", inner())
        }
        "img" => match e.attr("data-upload") {
            Some(upload) => format!("<img data-upload=\"{}\">", escape(upload)),
            None => String::new(),
        },
        // Mentions, references and tags as their text: read back, they
        // name the same records.
        "span"
            if e.attr("data-mention").is_some()
                || e.attr("data-project").is_some()
                || e.attr("data-tag").is_some() =>
        {
            text_of(&e.children)
        }
        _ => inner(),
    }
}

/// Inline code with enough backticks around it.
fn code(text: &str) -> String {
    let mut ticks = "`".to_owned();
    while text.contains(&ticks) {
        ticks.push('`');
    }
    let pad = if text.starts_with('`') || text.ends_with('`') || text.starts_with(' ') {
        " "
    } else {
        ""
    };
    format!("{ticks}{pad}{text}{pad}{ticks}")
}

/// Text as Markdown that reads back as that text, escaping only what
/// Markdown (or the mentions) would read otherwise, so `notes edit` shows
/// what the owner typed: `sam@example.org` and `5 * 3` stay as they are;
/// `@Ada` left as text, `*stars*`, `_this_`, a `#` or `- ` at the start of
/// a line are escaped.
fn escape_text(text: &str, mut line_start: bool) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let prev = i.checked_sub(1).map(|j| chars[j]);
        let next = chars.get(i + 1).copied();
        let word = |c: Option<char>| c.is_some_and(char::is_alphanumeric);
        let space = |c: Option<char>| c.is_none_or(char::is_whitespace);
        let escape = match c {
            '\\' => next.is_some_and(|n| n.is_ascii_punctuation()) || next.is_none(),
            '`' | '[' | ']' => true,
            // A mention or reference would be read from a name after it.
            '@' | '^' => !word(prev) && word(next),
            // Emphasis opens or closes only beside a non-space; `_` never
            // inside a word.
            '*' => !(space(prev) && space(next)) || (line_start && space(next)),
            '_' => !((word(prev) && word(next)) || (space(prev) && space(next))),
            '~' => next == Some('~') || prev == Some('~') || !(space(prev) || space(next)),
            // HTML the owner typed is text; only what `notes edit` writes
            // as HTML, and autolinks, would be read as more.
            '<' => {
                let rest: String = chars[i + 1..].iter().take(6).collect();
                rest.starts_with("u>")
                    || rest.starts_with("/u>")
                    || rest.starts_with("img")
                    || autolink(&chars[i + 1..])
            }
            '&' => entity(&chars[i + 1..]),
            '!' => next == Some('['),
            '#' => line_start,
            '>' => line_start,
            '-' | '+' | '=' => line_start,
            _ => false,
        };
        if c.is_ascii_digit() && line_start {
            // "1." or "1)" at the start of a line begins a list.
            let mut j = i;
            while j < chars.len() && chars[j].is_ascii_digit() {
                out.push(chars[j]);
                j += 1;
            }
            if let Some(&d @ ('.' | ')')) = chars.get(j) {
                out.push('\\');
                out.push(d);
                j += 1;
            }
            line_start = false;
            i = j;
            continue;
        }
        if escape {
            out.push('\\');
        }
        out.push(c);
        line_start = c == '\n' || (line_start && c == ' ');
        i += 1;
    }
    out
}

/// Whether what follows a `<` reads as an autolink (`<https://…>`,
/// `<a@b.org>`).
fn autolink(after: &[char]) -> bool {
    let Some(end) = after.iter().position(|c| *c == '>') else {
        return false;
    };
    let inside: String = after[..end].iter().collect();
    !inside.contains(char::is_whitespace) && (inside.contains(':') || inside.contains('@'))
}

/// Whether what follows a `&` reads as an entity (`&amp;`, `&#38;`).
fn entity(after: &[char]) -> bool {
    let Some(end) = after.iter().take(32).position(|c| *c == ';') else {
        return false;
    };
    end > 0
        && after[..end]
            .iter()
            .enumerate()
            .all(|(i, c)| c.is_ascii_alphanumeric() || (i == 0 && *c == '#'))
}

#[cfg(test)]
mod tests {
    use super::super::tree::parse;
    use super::*;

    fn id(n: u8) -> Id {
        Id::parse(&format!("01KAAAAAAAAAAAAAAAAAAAAAA{n}")).expect("an id")
    }

    fn names() -> Names {
        Names {
            known_people: Vec::new(),
            people: vec![
                (id(1), "Ada Lovelace".into()),
                (id(2), "Alan Turing".into()),
                (id(3), "Alan Kay".into()),
                (id(4), "Grace".into()),
            ],
            known_projects: Vec::new(),
            projects: vec![(id(5), "Garden shed".into()), (id(6), "Website".into())],
        }
    }

    #[test]
    fn the_first_words_after_a_sigil_are_what_names_begin_with() {
        let text = "Met @Ada Lovelace and @grace, not ada@example.com; ^Apollo 11 and @ alone";
        let people: Vec<String> = first_words(text, '@').into_iter().collect();
        assert_eq!(people, ["ada", "grace"]);
        let projects: Vec<String> = first_words(text, '^').into_iter().collect();
        assert_eq!(projects, ["apollo"]);
    }

    #[test]
    fn markdown_becomes_the_allowed_html() {
        let html = to_html(
            "# Plan\n\nSome **bold**, *em*, ~~gone~~ and `code`.\n\n- one\n- two\n\n1. a\n2. b\n\n> quoted\n\n[link](https://example.com)\n",
            &Names::default(),
        );
        assert_eq!(
            html,
            "<h1>Plan</h1>\n<p>Some <strong>bold</strong>, <em>em</em>, <del>gone</del> and <code>code</code>.</p>\n<ul>\n<li>one</li>\n<li>two</li>\n</ul>\n<ol>\n<li>a</li>\n<li>b</li>\n</ol>\n<blockquote>\n<p>quoted</p>\n</blockquote>\n<p><a href=\"https://example.com\">link</a></p>"
        );
    }

    #[test]
    fn names_become_mentions_and_references_when_they_name_one() {
        let html = to_html(
            "Met @ada lovelace and @Grace, not @Alan; ^garden for ^Website. a@grace.com `@Grace`",
            &names(),
        );
        let ada = format!("<span data-mention=\"{}\">@Ada Lovelace</span>", id(1));
        let grace = format!("<span data-mention=\"{}\">@Grace</span>", id(4));
        let shed = format!("<span data-project=\"{}\">^Garden shed</span>", id(5));
        let web = format!("<span data-project=\"{}\">^Website</span>", id(6));
        assert_eq!(
            html,
            format!(
                "<p>Met {ada} and {grace}, not @Alan; {shed} for {web}. a@grace.com <code>@Grace</code></p>"
            )
        );
        // The start of a name, word by word; an escaped sigil is text.
        let html = to_html("@Ada said \\@Grace", &names());
        assert_eq!(html, format!("<p>{ada} said @Grace</p>"));
        let html = to_html("@alan turing", &names());
        assert!(html.contains(&id(2).to_string()), "{html}");
        assert_eq!(to_html("@Nobody here", &names()), "<p>@Nobody here</p>");
    }

    #[test]
    fn known_names_come_first() {
        let mut names = names();
        names.people.push((id(7), "Grace".into()));
        assert_eq!(to_html("@Grace", &names), "<p>@Grace</p>", "two Graces");
        names.known_people.push((id(7), "Grace".into()));
        assert!(to_html("@Grace", &names).contains(&id(7).to_string()));
    }

    #[test]
    fn what_the_owner_typed_is_not_escaped_where_markdown_needs_nothing() {
        for (text, written) in [
            ("sam@example.org", "sam@example.org"),
            ("5 * 3", "5 * 3"),
            ("50% off <maybe>.", "50% off <maybe>."),
            ("snake_case", "snake_case"),
            ("@Ada", "\\@Ada"),
            ("*stars*", "\\*stars\\*"),
        ] {
            assert_eq!(escape_text(text, true), written, "{text}");
        }
    }

    #[test]
    fn typed_html_is_text_and_a_fence_keeps_its_language() {
        assert_eq!(
            to_html("50% off <maybe>.", &Names::default()),
            "<p>50% off &lt;maybe&gt;.</p>"
        );
        assert_eq!(
            to_html("<div>raw</div>\n", &Names::default()),
            "&lt;div&gt;raw&lt;/div&gt;"
        );
        let html = to_html("```rust\nfn main() {}\n```\n", &Names::default());
        assert_eq!(
            html,
            "<pre><code class=\"language-rust\">fn main() {}\n</code></pre>"
        );
        assert_eq!(from_html(&parse(&html)), "```rust\nfn main() {}\n```\n");
    }

    #[test]
    fn what_edit_writes_reads_back_as_the_same_body() {
        let names = names();
        for markdown in [
            "# Plan\n\nSome **bold**, *em*, ~~gone~~ and `code` with <u>under</u>.\n",
            "- one\n- two\n  - nested\n\n1. a\n2. b\n",
            "> quoted\n> lines\n\n---\n\n```\nfn main() {}\n```\n",
            "Literal \\*stars\\*, \\@someone, \\^thing, 1\\. not a list, a\\_b & c < d\n",
            "Line one\\\nline two\nsoft\n",
            "Met @Ada Lovelace about ^Garden shed #plans [site](https://example.com/a_b)\n",
            "1. first\n\n   more\n\n2. second\n",
            "<img data-upload=\"abc\">\n",
        ] {
            let html = to_html(markdown, &names);
            let back = from_html(&parse(&html));
            assert_eq!(to_html(&back, &names), html, "{markdown:?} → {back:?}");
        }
    }

    #[test]
    fn escaped_text_reads_back_as_text() {
        for text in [
            "- a",
            "+ b",
            "3. c",
            "# d",
            "a*b*_c_",
            "x\\y",
            "[z](w)",
            "=",
            "a @b ^c",
            "sam@example.org",
            "5 * 3 = 15",
            "50% off <maybe>.",
            "snake_case_name",
            "AT&T and &amp; and &#38;",
            "<https://example.org> and <u>x</u> and <img src=x>",
            "~5 minutes ~~gone~~",
            "* star",
            "> quote",
            "_private and __init__",
            "a\\",
        ] {
            let md = escape_text(text, true);
            let html = to_html(&md, &names());
            let back = text_of(&parse(&html));
            assert_eq!(back.trim(), text, "{md:?} → {html:?}");
        }
    }
}
