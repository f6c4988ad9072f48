//! Reading a note's body (`{note: {title?, category_id?, body_html?,
//! edit_version?}}`): the mistakes that need no lookup at once, and the
//! rest (the category) in the transaction.

use serde_json::Value;

use super::{BODY_MAX_BYTES, NoteInput, TITLE_MAX};
use crate::engine::WriteCx;
use crate::error::{Details, Result};
use crate::ids::Id;
use crate::input::{Field, record};
use crate::resources::categories;
use crate::text::{char_len, squish};

/// Reads the body; every mistake that needs no lookup is reported at once.
pub(crate) fn parse(body: Option<&Value>) -> Result<NoteInput> {
    let mut f = record(body, "note")?;
    let mut input = NoteInput {
        title: f.string("title"),
        category_id: f.id("category_id"),
        body_html: f.string("body_html"),
        edit_version: None,
    };
    match f.integer("edit_version") {
        Field::Value(v) => input.edit_version = Some(v),
        Field::Null | Field::Absent => {}
    }
    check_text(&mut f.details, &input);
    f.finish()?;
    Ok(input)
}

/// The title's and body's mistakes.
fn check_text(details: &mut Details, input: &NoteInput) {
    if let Field::Value(t) = &input.title {
        let t = squish(t);
        if char_len(&t) > TITLE_MAX {
            details.add(
                "title",
                format!("is too long (at most {TITLE_MAX} characters)"),
            );
        }
        if t.chars().any(char::is_control) {
            details.add("title", "can't contain control characters");
        }
    }
    match &input.body_html {
        Field::Value(h) if h.contains('\0') => {
            details.add("body_html", "can't contain a NUL character");
        }
        Field::Value(h) if h.len() > BODY_MAX_BYTES => details.add(
            "body_html",
            format!("is too long (at most {BODY_MAX_BYTES} bytes)"),
        ),
        _ => {}
    }
}

/// The checked title, category and sanitised body of `input`.
pub(super) struct Checked {
    pub(super) title: Option<Option<String>>,
    pub(super) category: Option<Option<Id>>,
    pub(super) html: Option<String>,
}

/// Checks `input` in the transaction (the category must exist); the
/// body sanitised.
pub(super) fn check(cx: &WriteCx<'_>, input: &NoteInput) -> Result<Checked> {
    let mut details = Details::new();
    let title = match &input.title {
        Field::Absent => None,
        Field::Null => Some(None),
        Field::Value(t) => {
            let t = squish(t);
            if char_len(&t) > TITLE_MAX {
                details.add(
                    "title",
                    format!("is too long (at most {TITLE_MAX} characters)"),
                );
            }
            if t.chars().any(char::is_control) {
                details.add("title", "can't contain control characters");
            }
            Some(Some(t).filter(|t| !t.is_empty()))
        }
    };
    let category = match &input.category_id {
        Field::Absent => None,
        Field::Null => Some(None),
        Field::Value(c) if categories::exists(cx, *c)? => Some(Some(*c)),
        Field::Value(_) => {
            details.add("category_id", "does not exist");
            None
        }
    };
    let html = match &input.body_html {
        Field::Absent => None,
        Field::Null => Some(""),
        Field::Value(h) => Some(h.as_str()),
    };
    details.into_validation()?;
    Ok(Checked {
        title,
        category,
        html: html.map(crate::html::sanitise_with_images),
    })
}
