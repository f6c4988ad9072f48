//! A note's body rendered (`body.rs` sanitises and reads it): its
//! references looked up in the transaction, and what follows from the
//! rendered body (the name, the excerpt, the tags, people, projects and
//! images it names).

use super::body::{self, Ref, Rendered, Resolve, TagRef};
use super::follow::Retag;
use super::{EXCERPT_MAX, NAME_FROM_BODY, NoteRecord};
use crate::engine::WriteCx;
use crate::error::Result;
use crate::ids::Id;
use crate::resources::{people, projects, tags, uploads};
use crate::text::{char_len, squish};

/// Looks the records a body names up in the transaction; `tag_override`
/// is what a tag's rename, removal or merge makes of its spans.
struct Resolver<'c, 'a> {
    cx: &'c WriteCx<'a>,
    /// The note's own images (a re-save may keep them).
    own_images: &'c [Id],
    tag_override: Option<(Id, Retag)>,
    /// People and projects looked up already (one rename re-renders many
    /// notes that name the same records).
    seen: &'c mut Seen,
    /// A body as sent: a person or project deleted meanwhile is named as
    /// text, not kept as a span for its restoration.
    fresh: bool,
}

/// People and projects as a batch of renders found them.
#[derive(Default)]
pub(super) struct Seen {
    people: std::collections::HashMap<Id, Ref>,
    projects: std::collections::HashMap<Id, Ref>,
}

fn reference(found: Option<(String, bool)>) -> Ref {
    match found {
        Some((name, true)) => Ref::Live(name),
        Some((_, false)) => Ref::Hidden,
        None => Ref::Gone,
    }
}

impl Resolver<'_, '_> {
    /// A body as sent names no deleted record.
    fn as_sent(&self, found: Ref) -> Ref {
        match found {
            Ref::Hidden if self.fresh => Ref::Gone,
            other => other,
        }
    }
}

impl Resolve for Resolver<'_, '_> {
    fn person(&mut self, id: Id) -> Result<Ref> {
        let found = match self.seen.people.get(&id) {
            Some(found) => found.clone(),
            None => {
                let found = reference(people::lookup(self.cx, id)?);
                self.seen.people.insert(id, found.clone());
                found
            }
        };
        Ok(self.as_sent(found))
    }

    fn project(&mut self, id: Id) -> Result<Ref> {
        let found = match self.seen.projects.get(&id) {
            Some(found) => found.clone(),
            None => {
                let found = reference(projects::lookup(self.cx, id)?);
                self.seen.projects.insert(id, found.clone());
                found
            }
        };
        Ok(self.as_sent(found))
    }

    fn tag(&mut self, id: Id) -> Result<TagRef> {
        let id = match self.tag_override {
            Some((t, Retag::Remove)) if t == id => return Ok(TagRef::Removed),
            Some((t, Retag::Into(into))) if t == id => into,
            _ => id,
        };
        Ok(match tags::find(self.cx, id)? {
            Some(tag) => TagRef::Live(tag.id, tag.name),
            None => TagRef::Unknown,
        })
    }

    fn tag_named(&mut self, name: &str) -> Result<(Id, String)> {
        let tag = tags::find_or_add(self.cx, name)?;
        Ok((tag.id, tag.name))
    }

    fn image(&mut self, signed: &str) -> Result<Option<Id>> {
        let Some(id) = uploads::verify(&self.cx.org.secret, signed) else {
            return Ok(None);
        };
        if self.own_images.contains(&id) {
            return Ok(Some(id));
        }
        Ok(
            match uploads::take(self.cx, signed, uploads::Kind::NoteImage, "body_html") {
                Ok(_) => Some(id),
                Err(_) => None,
            },
        )
    }
}

/// Text cut to at most `max` characters at a word (mid-word only when the
/// first word is longer).
fn cut_at_word(text: &str, max: usize) -> String {
    if char_len(text) <= max {
        return text.to_owned();
    }
    let cut: String = text.chars().take(max).collect();
    let next = text.chars().nth(max);
    if next.is_some_and(|c| !c.is_whitespace())
        && let Some(space) = cut.rfind(' ')
        && space > 0
    {
        return cut[..space].trim_end().to_owned();
    }
    cut.trim_end().to_owned()
}

/// Fills what follows from the title and the rendered body.
pub(super) fn derive(record: &mut NoteRecord, rendered: Rendered) {
    let text = crate::html::to_text(&rendered.html);
    let line = squish(&text);
    let n = &mut record.note;
    n.body_html = rendered.html;
    n.body_text = text;
    n.tag_ids = rendered.tag_ids;
    n.person_ids = rendered.person_ids;
    n.project_ids = rendered.project_ids;
    record.named_people = rendered.named_people;
    record.named_projects = rendered.named_projects;
    record.images = rendered.images;
    n.name = match &n.title {
        Some(title) => title.clone(),
        None if !line.is_empty() => cut_at_word(&line, NAME_FROM_BODY),
        None => "Untitled note".to_owned(),
    };
    record.excerpt = if char_len(&line) <= EXCERPT_MAX {
        line
    } else {
        format!("{}...", cut_at_word(&line, EXCERPT_MAX - 3))
    };
}

/// Renders `html` (sanitised) for `record`, resolving its references.
pub(super) fn rendered(
    cx: &WriteCx<'_>,
    record: &NoteRecord,
    html: &str,
    tag_override: Option<(Id, Retag)>,
    seen: &mut Seen,
    fresh: bool,
) -> Result<Rendered> {
    body::render(
        html,
        &mut Resolver {
            cx,
            own_images: &record.images,
            tag_override,
            seen,
            fresh,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_cut_at_a_word() {
        assert_eq!(cut_at_word("short", 10), "short");
        assert_eq!(cut_at_word("one two three", 9), "one two");
        assert_eq!(cut_at_word("one two three", 7), "one two");
        assert_eq!(cut_at_word("abcdefghij", 4), "abcd");
    }
}
