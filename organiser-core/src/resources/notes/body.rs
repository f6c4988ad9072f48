//! Note bodies (DESIGN.md "Note body HTML"): after ammonia has sanitised a
//! body to the allow-list, one pass over its (well formed) HTML resolves
//! the references. A mention, project reference or tag span shows its
//! record's current name; a reference to a record that is gone becomes
//! plain text; a bare `#word` in text (not in a link, code or a span)
//! becomes a tag span, the tag made when new; an image stays only when it
//! names one of the note's uploads. The same pass re-renders a stored
//! body when a record it names is renamed, deleted, restored or purged.

use crate::error::Result;
use crate::html::tokens::{Token, attr, escape, span_text, tokens};
use crate::ids::Id;
use crate::resources::tags;

/// What a reference names, as the note sees it now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Ref {
    /// Live, with its name.
    Live(String),
    /// Deleted but restorable: the span stays as it is, out of the ids.
    Hidden,
    /// Gone for good (or never was): the span becomes its text.
    Gone,
}

/// What a tag span becomes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum TagRef {
    /// This tag (possibly another one: a merge), with its name.
    Live(Id, String),
    /// Removed: the span becomes the name without `#`.
    Removed,
    /// Unknown: the span's text is read as typed.
    Unknown,
}

/// The records a body names, looked up as the pass meets them.
pub(crate) trait Resolve {
    fn person(&mut self, id: Id) -> Result<Ref>;
    fn project(&mut self, id: Id) -> Result<Ref>;
    fn tag(&mut self, id: Id) -> Result<TagRef>;
    /// The tag named `name` (normalised), made when there is none.
    fn tag_named(&mut self, name: &str) -> Result<(Id, String)>;
    /// The upload a note image names, if the note may show it.
    fn image(&mut self, signed: &str) -> Result<Option<Id>>;
}

/// A body after the pass.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Rendered {
    pub(crate) html: String,
    /// Live tags, people and projects named, sorted and unique.
    pub(crate) tag_ids: Vec<Id>,
    pub(crate) person_ids: Vec<Id>,
    pub(crate) project_ids: Vec<Id>,
    /// Every person and project a span names (hidden ones too), so that
    /// their restoration or purge finds the note.
    pub(crate) named_people: Vec<Id>,
    pub(crate) named_projects: Vec<Id>,
    /// The uploads of the images shown.
    pub(crate) images: Vec<Id>,
}

/// Elements whose text never becomes a tag.
const PROTECTED: &[&str] = &["a", "code", "pre"];

/// Resolves the references of sanitised `html`.
pub(crate) fn render(html: &str, r: &mut impl Resolve) -> Result<Rendered> {
    let tokens = tokens(html);
    let mut out = Rendered {
        html: String::with_capacity(html.len() + 64),
        ..Rendered::default()
    };
    let mut protected = 0usize;
    let mut i = 0;
    while i < tokens.len() {
        match &tokens[i] {
            Token::Text(t) => {
                if protected == 0 {
                    bare_tags(t, r, &mut out)?;
                } else {
                    out.html.push_str(t);
                }
            }
            Token::Open { name, raw, attrs } if name == "span" => {
                let reference = ["data-mention", "data-project", "data-tag"]
                    .into_iter()
                    .find_map(|a| attr(attrs, a).map(|v| (a, v)));
                match reference {
                    None => out.html.push_str(raw),
                    Some((kind, value)) => {
                        let (text, next) = span_text(&tokens, i);
                        reference_span(kind, value, &text, r, &mut out)?;
                        i = next;
                        continue;
                    }
                }
            }
            Token::Open { name, raw, attrs } if name == "img" => {
                if let Some(signed) = attr(attrs, "data-upload")
                    && let Some(upload) = r.image(signed)?
                {
                    out.images.push(upload);
                    out.html.push_str(raw);
                }
            }
            Token::Open { name, raw, .. } => {
                if PROTECTED.contains(&name.as_str()) {
                    protected += 1;
                }
                out.html.push_str(raw);
            }
            Token::Close { name, raw } => {
                if PROTECTED.contains(&name.as_str()) {
                    protected = protected.saturating_sub(1);
                }
                out.html.push_str(raw);
            }
        }
        i += 1;
    }
    for ids in [
        &mut out.tag_ids,
        &mut out.person_ids,
        &mut out.project_ids,
        &mut out.named_people,
        &mut out.named_projects,
    ] {
        ids.sort();
        ids.dedup();
    }
    Ok(out)
}

fn reference_span(
    kind: &str,
    value: &str,
    text: &str,
    r: &mut impl Resolve,
    out: &mut Rendered,
) -> Result<()> {
    let Some(id) = Id::parse(value) else {
        out.html.push_str(&escape(text));
        return Ok(());
    };
    match kind {
        "data-mention" | "data-project" => {
            let (sigil, state, live, named) = if kind == "data-mention" {
                (
                    '@',
                    r.person(id)?,
                    &mut out.person_ids,
                    &mut out.named_people,
                )
            } else {
                (
                    '^',
                    r.project(id)?,
                    &mut out.project_ids,
                    &mut out.named_projects,
                )
            };
            match state {
                Ref::Live(name) => {
                    live.push(id);
                    named.push(id);
                    out.html.push_str(&format!(
                        "<span {kind}=\"{id}\">{}</span>",
                        escape(&format!("{sigil}{name}"))
                    ));
                }
                Ref::Hidden => {
                    named.push(id);
                    out.html
                        .push_str(&format!("<span {kind}=\"{id}\">{}</span>", escape(text)));
                }
                Ref::Gone => out.html.push_str(&escape(text)),
            }
        }
        _ => match r.tag(id)? {
            TagRef::Live(tag, name) => push_tag(out, tag, &name),
            TagRef::Removed => out.html.push_str(&escape(text.trim_start_matches('#'))),
            TagRef::Unknown => bare_tags(&escape(text), r, out)?,
        },
    }
    Ok(())
}

fn push_tag(out: &mut Rendered, id: Id, name: &str) {
    out.tag_ids.push(id);
    out.html
        .push_str(&format!("<span data-tag=\"{id}\">#{}</span>", escape(name)));
}

/// Writes escaped text `t`, each bare `#word` in it made a tag span.
fn bare_tags(t: &str, r: &mut impl Resolve, out: &mut Rendered) -> Result<()> {
    let mut rest = t;
    let mut prev: Option<char> = None;
    while let Some(hash) = rest.find('#') {
        let before = &rest[..hash];
        let last = before.chars().last().or(prev);
        let starts_word = last.is_none_or(|c| c.is_whitespace() || "([{\"'".contains(c));
        let after = &rest[hash + 1..];
        let word_len = after
            .find(|c: char| c.is_whitespace() || matches!(c, ',' | '&' | '<' | '#'))
            .unwrap_or(after.len());
        let word = &after[..word_len];
        let core = word.trim_end_matches(['.', '!', '?', ';', ':', '-', ')', ']', '}']);
        let name = match (starts_word && last != Some('&'), tags::normalise(core)) {
            (true, Ok(name)) => Some(name),
            _ => None,
        };
        out.html.push_str(before);
        match name {
            Some(name) => {
                let (id, name) = r.tag_named(&name)?;
                push_tag(out, id, &name);
                out.html.push_str(&word[core.len()..]);
                rest = &after[word_len..];
                prev = word.chars().last();
            }
            None => {
                out.html.push('#');
                rest = after;
                prev = Some('#');
            }
        }
    }
    out.html.push_str(rest);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    struct Fake {
        people: HashMap<Id, Ref>,
        tags: Vec<(Id, String)>,
        next: u8,
    }

    impl Resolve for Fake {
        fn person(&mut self, id: Id) -> Result<Ref> {
            Ok(self.people.get(&id).cloned().unwrap_or(Ref::Gone))
        }
        fn project(&mut self, _: Id) -> Result<Ref> {
            Ok(Ref::Gone)
        }
        fn tag(&mut self, id: Id) -> Result<TagRef> {
            Ok(match self.tags.iter().find(|(t, _)| *t == id) {
                Some((t, n)) => TagRef::Live(*t, n.clone()),
                None => TagRef::Unknown,
            })
        }
        fn tag_named(&mut self, name: &str) -> Result<(Id, String)> {
            if let Some(found) = self
                .tags
                .iter()
                .find(|(_, n)| n.to_lowercase() == name.to_lowercase())
            {
                return Ok(found.clone());
            }
            self.next += 1;
            let id = Id::from_bytes([self.next; 16]);
            self.tags.push((id, name.to_owned()));
            Ok((id, name.to_owned()))
        }
        fn image(&mut self, _: &str) -> Result<Option<Id>> {
            Ok(None)
        }
    }

    fn fake() -> Fake {
        let ada = Id::from_bytes([200; 16]);
        Fake {
            people: HashMap::from([(ada, Ref::Live("Ada".into()))]),
            tags: Vec::new(),
            next: 0,
        }
    }

    #[test]
    fn bare_words_become_tags_outside_links_and_code() {
        let cases = [
            ("<p>a #idea here</p>", 1),
            ("<p>#one, #two.</p>", 2),
            ("<p>mid#word</p>", 0),
            ("<p><a href=\"https://x.org/#frag\">#link</a></p>", 0),
            ("<p><code>#code</code> #yes</p>", 1),
            ("<p>#</p>", 0),
            ("<p>&amp;#x</p>", 0),
        ];
        for (html, tags) in cases {
            let mut r = fake();
            let out = render(html, &mut r).unwrap();
            assert_eq!(out.tag_ids.len(), tags, "{html}: {}", out.html);
        }
        let mut r = fake();
        let out = render("<p>#done. and #Done</p>", &mut r).unwrap();
        assert_eq!(out.tag_ids.len(), 1);
        assert!(out.html.contains("#done</span>. and"), "{}", out.html);
    }

    #[test]
    fn mentions_show_the_current_name_or_become_text() {
        let ada = Id::from_bytes([200; 16]);
        let gone = Id::from_bytes([201; 16]);
        let html = format!(
            "<p><span data-mention=\"{ada}\">@Old</span> and <span data-mention=\"{gone}\">@Bob</span></p>"
        );
        let out = render(&html, &mut fake()).unwrap();
        assert_eq!(
            out.html,
            format!("<p><span data-mention=\"{ada}\">@Ada</span> and @Bob</p>")
        );
        assert_eq!(out.person_ids, vec![ada]);
    }
}
