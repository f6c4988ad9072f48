//! Note-body HTML (DESIGN.md "Note body HTML"), which task and project
//! descriptions share: sanitised with ammonia to a fixed allow-list, and
//! rendered to plain text for `description_text` and search.
//!
//! References: a mention `<span data-mention="PERSON_ID">@Name</span>`, a
//! project reference `<span data-project="PROJECT_ID">^Name</span>`, a tag
//! `<span data-tag="TAG_ID">#name</span>`, an image
//! `<img data-upload="SIGNED_ID">` (notes only).

mod text;
pub(crate) mod tokens;

pub(crate) use text::to_text;

use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

/// Formatting tags every body may use.
const TAGS: &[&str] = &[
    "p",
    "br",
    "strong",
    "b",
    "em",
    "i",
    "u",
    "s",
    "del",
    "code",
    "pre",
    "blockquote",
    "ul",
    "ol",
    "li",
    "a",
    "h1",
    "h2",
    "h3",
    "hr",
    "span",
];

/// The data attributes that mark references on a `span`.
const REFERENCE_ATTRIBUTES: &[&str] = &["data-mention", "data-project", "data-tag"];

/// Whether the body has an image (refused in task descriptions).
pub(crate) fn has_image(html: &str) -> bool {
    html.to_ascii_lowercase().contains("<img")
}

fn builder(images: bool) -> ammonia::Builder<'static> {
    let mut tags: HashSet<&'static str> = TAGS.iter().copied().collect();
    let mut attributes: HashMap<&'static str, HashSet<&'static str>> = HashMap::new();
    attributes.insert("a", ["href"].into_iter().collect());
    attributes.insert("span", REFERENCE_ATTRIBUTES.iter().copied().collect());
    // A code block's language (`<code class="language-rust">`).
    attributes.insert("code", ["class"].into_iter().collect());
    if images {
        tags.insert("img");
        attributes.insert("img", ["data-upload"].into_iter().collect());
    }
    let mut b = ammonia::Builder::empty();
    b.tags(tags)
        .generic_attributes(HashSet::new())
        .tag_attributes(attributes)
        .url_schemes(["http", "https", "mailto"].into_iter().collect())
        .link_rel(Some("noopener noreferrer nofollow"))
        .strip_comments(true)
        .attribute_filter(|element, attribute, value| {
            // A reference names its record by ID; anything else is dropped.
            let id_attribute = matches!(
                (element, attribute),
                ("span", "data-mention" | "data-project" | "data-tag")
            );
            if id_attribute && crate::ids::Id::parse(value).is_none() {
                None
            } else if (element, attribute) == ("code", "class") {
                code_language(value).map(|l| format!("language-{l}").into())
            } else {
                Some(value.into())
            }
        });
    b
}

/// The language a code block's `class` names (`language-rust`): one
/// class, a name of at most 40 letters, digits and `+ # . _ -`.
fn code_language(class: &str) -> Option<&str> {
    let language = class.trim().strip_prefix("language-")?;
    let fits = !language.is_empty()
        && language.len() <= 40
        && language
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"+#._-".contains(&b));
    fits.then_some(language)
}

/// Sanitises a note body: images kept as `<img data-upload="…">` (the
/// note checks each names one of its uploads).
pub(crate) fn sanitise_with_images(html: &str) -> String {
    static CLEANER: OnceLock<ammonia::Builder<'static>> = OnceLock::new();
    CLEANER
        .get_or_init(|| builder(true))
        .clean(html)
        .to_string()
}

/// Sanitises a body that may not hold images (task descriptions).
pub(crate) fn sanitise_without_images(html: &str) -> String {
    static CLEANER: OnceLock<ammonia::Builder<'static>> = OnceLock::new();
    CLEANER
        .get_or_init(|| builder(false))
        .clean(html)
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sanitising_keeps_the_allow_list_only() {
        let cases = [
            (
                "<p>Hi <strong>there</strong></p>",
                "<p>Hi <strong>there</strong></p>",
            ),
            ("<script>alert(1)</script><p>x</p>", "<p>x</p>"),
            ("<p onclick=\"evil()\">x</p>", "<p>x</p>"),
            (
                "<a href=\"javascript:alert(1)\">x</a><a href=\"https://e.org\">y</a>",
                "<a rel=\"noopener noreferrer nofollow\">x</a><a href=\"https://e.org\" rel=\"noopener noreferrer nofollow\">y</a>",
            ),
            (
                "<span data-mention=\"01ARZ3NDEKTSV4RRFFQ69G5FAV\" style=\"color:red\">@Ada</span>",
                "<span data-mention=\"01ARZ3NDEKTSV4RRFFQ69G5FAV\">@Ada</span>",
            ),
            (
                "<span data-mention=\"bogus\">@Ada</span>",
                "<span>@Ada</span>",
            ),
            ("<div><iframe src=x></iframe>text</div>", "text"),
            ("<!-- secret --><em>e</em>", "<em>e</em>"),
            (
                "<pre><code class=\"language-rust\">fn main() {}</code></pre>",
                "<pre><code class=\"language-rust\">fn main() {}</code></pre>",
            ),
            (
                "<pre><code class=\"evil language-x\" style=\"x\">y</code></pre>",
                "<pre><code>y</code></pre>",
            ),
        ];
        for (input, expected) in cases {
            assert_eq!(sanitise_without_images(input), expected, "{input}");
        }
    }

    #[test]
    fn images_are_seen_in_any_case() {
        assert!(has_image("<p><IMG data-upload=\"x\"></p>"));
        assert!(has_image("<img src=x>"));
        assert!(!has_image("<p>imagine</p>"));
    }
}
