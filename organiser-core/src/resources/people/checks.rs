//! What each row of a person may say (document 3, "EmailAddress",
//! "PhoneNumber", "SocialProfile", "Position"), and its relationships:
//! a sent row (and the stored values it changes) made into the row's
//! values, or its mistakes keyed by field name. Key dates are checked in
//! `key_dates.rs`.

use super::companies;
use super::input::{EmailAddressFields, PhoneNumberFields, PositionFields, SocialProfileFields};
use super::limit;
use super::rows::{Got, Mistakes, SentRow};
use super::social;
use crate::engine::WriteCx;
use crate::error::{Details, Result};
use crate::ids::Id;
use crate::input::Field;
use crate::resources::vocabulary::{RELATIONSHIPS, SOCIAL_PLATFORMS};
use crate::text::{char_len, squish};

/// The relationships to store: known keys, once each, in the vocabulary's
/// order.
pub(crate) fn check_relationships(details: &mut Details, keys: &[String]) -> Vec<String> {
    let unknown: Vec<&str> = keys
        .iter()
        .filter(|k| !RELATIONSHIPS.iter().any(|r| r.key == k.as_str()))
        .map(String::as_str)
        .collect();
    if !unknown.is_empty() {
        details.add(
            "relationships",
            format!("has unknown keys: {}", unknown.join(", ")),
        );
    }
    RELATIONSHIPS
        .iter()
        .filter(|r| keys.iter().any(|k| k == r.key))
        .map(|r| r.key.to_owned())
        .collect()
}

/// A row's optional label: squished, blank is null, at most
/// [`limit::LABEL`] characters.
fn label(
    sent: Got<'_, String>,
    base: Option<Option<String>>,
    mistakes: &mut Mistakes,
) -> Option<String> {
    let sent = match sent {
        Got::Absent => return base.flatten(),
        Got::Null => None,
        Got::Value(s) => Some(squish(s)).filter(|s| !s.is_empty()),
        Got::Mistyped => {
            mistakes.push(("label", "must be a string".to_owned()));
            return None;
        }
    };
    if sent.as_deref().is_some_and(|l| char_len(l) > limit::LABEL) {
        mistakes.push((
            "label",
            format!("is too long (maximum is {} characters)", limit::LABEL),
        ));
    }
    sent
}

/// A row's required text field `name`: squished, not blank, at most `max`
/// characters; the stored value when not sent.
fn required_text(
    sent: Got<'_, String>,
    name: &'static str,
    base: Option<&str>,
    max: usize,
    mistakes: &mut Mistakes,
) -> String {
    let text = match sent {
        Got::Absent => base.map(str::to_owned).unwrap_or_default(),
        Got::Null => String::new(),
        Got::Value(s) => squish(s),
        Got::Mistyped => {
            mistakes.push((name, "must be a string".to_owned()));
            return String::new();
        }
    };
    if text.is_empty() {
        mistakes.push((name, "can't be blank".to_owned()));
    } else if char_len(&text) > max {
        mistakes.push((name, format!("is too long (maximum is {max} characters)")));
    }
    text
}

/// The values of a contact detail row (an email address, a phone
/// number): its text and label.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ContactValues {
    pub(crate) text: String,
    pub(crate) label: Option<String>,
}

/// A contact detail's fields, and what its text must be: its field, its
/// longest, and its own check (a phrase when it fails).
pub(crate) trait ContactFields {
    /// The text's field.
    const FIELD: &'static str;
    /// The text's longest.
    const MAX: usize;
    /// The text's own check.
    fn check(text: &str) -> Option<&'static str>;
    /// The text as sent.
    fn text(&self) -> &Field<String>;
    /// The label as sent.
    fn label(&self) -> &Field<String>;
}

impl ContactFields for EmailAddressFields {
    const FIELD: &'static str = "address";
    const MAX: usize = limit::ADDRESS;
    fn check(address: &str) -> Option<&'static str> {
        let plausible = address.split_once('@').is_some_and(|(user, host)| {
            !user.is_empty() && !host.is_empty() && !host.contains('@')
        });
        (!plausible).then_some("is not an email address")
    }
    fn text(&self) -> &Field<String> {
        &self.address
    }
    fn label(&self) -> &Field<String> {
        &self.label
    }
}

impl ContactFields for PhoneNumberFields {
    const FIELD: &'static str = "number";
    const MAX: usize = limit::NUMBER;
    fn check(number: &str) -> Option<&'static str> {
        (!number.chars().any(|c| c.is_ascii_digit())).then_some("has no digits")
    }
    fn text(&self) -> &Field<String> {
        &self.number
    }
    fn label(&self) -> &Field<String> {
        &self.label
    }
}

/// The values of a social profile row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SocialValues {
    pub(crate) url: String,
    pub(crate) platform: String,
    pub(crate) platform_detected: bool,
    pub(crate) label: Option<String>,
}

/// The values of a position row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PositionValues {
    pub(crate) title: Option<String>,
    pub(crate) company_id: Option<Id>,
}

/// A contact detail row (an email address, a phone number).
pub(crate) fn contact_row<F: ContactFields>(
    base: Option<&ContactValues>,
    row: &SentRow<'_, F>,
) -> Result<Option<ContactValues>, Mistakes> {
    let mut mistakes = Vec::new();
    let text = required_text(
        row.get(F::FIELD, row.fields.text()),
        F::FIELD,
        base.map(|b| b.text.as_str()),
        F::MAX,
        &mut mistakes,
    );
    if let Some(phrase) = (!text.is_empty()).then(|| F::check(&text)).flatten() {
        mistakes.push((F::FIELD, phrase.to_owned()));
    }
    let label = label(
        row.get("label", row.fields.label()),
        base.map(|b| b.label.clone()),
        &mut mistakes,
    );
    if mistakes.is_empty() {
        Ok(Some(ContactValues { text, label }))
    } else {
        Err(mistakes)
    }
}

/// A social profile row: the link as stored, and its platform (read from
/// the link unless one is sent).
pub(crate) fn social_row(
    base: Option<&SocialValues>,
    row: &SentRow<'_, SocialProfileFields>,
) -> Result<Option<SocialValues>, Mistakes> {
    let mut mistakes = Vec::new();
    let sent_url = row.get("url", &row.fields.url);
    let url = required_text(
        sent_url,
        "url",
        base.map(|b| b.url.as_str()),
        limit::URL,
        &mut mistakes,
    );
    let url = social::normalise_url(&url);
    let platform = match row.get("platform", &row.fields.platform) {
        // Not sent: as stored, unless the link changed and it was detected.
        Got::Absent => match base {
            Some(b) if !(matches!(sent_url, Got::Value(_)) && b.platform_detected) => {
                Some(b.platform.clone())
            }
            _ => None,
        },
        Got::Null => None,
        Got::Value(p) if SOCIAL_PLATFORMS.iter().any(|c| c.key == p) => Some(p.clone()),
        Got::Value(_) | Got::Mistyped => {
            let keys: Vec<&str> = SOCIAL_PLATFORMS.iter().map(|c| c.key).collect();
            mistakes.push(("platform", format!("is not one of {}", keys.join(", "))));
            None
        }
    };
    let (platform, platform_detected) = social::platform(&url, platform.as_deref());
    let label = label(
        row.get("label", &row.fields.label),
        base.map(|b| b.label.clone()),
        &mut mistakes,
    );
    if mistakes.is_empty() {
        Ok(Some(SocialValues {
            url,
            platform,
            platform_detected,
            label,
        }))
    } else {
        Err(mistakes)
    }
}

/// A position row: a title or a company. `company_name` is resolved to a
/// company in the transaction (found ignoring case or made).
pub(crate) fn position_row(
    cx: &WriteCx<'_>,
    base: Option<&PositionValues>,
    row: &SentRow<'_, PositionFields>,
) -> Result<std::result::Result<Option<PositionValues>, Mistakes>> {
    let mut mistakes = Vec::new();
    let title = match row.get("title", &row.fields.title) {
        Got::Absent => base.and_then(|b| b.title.clone()),
        Got::Null => None,
        Got::Value(s) => Some(squish(s)).filter(|s| !s.is_empty()),
        Got::Mistyped => {
            mistakes.push(("title", "must be a string".to_owned()));
            None
        }
    };
    if title
        .as_deref()
        .is_some_and(|t| char_len(t) > crate::limits::text::POSITION_TITLE)
    {
        mistakes.push((
            "title",
            format!(
                "is too long (maximum is {} characters)",
                crate::limits::text::POSITION_TITLE
            ),
        ));
    }
    let by_id = row.get("company_id", &row.fields.company_id);
    let by_name = row.get("company_name", &row.fields.company_name);
    let mut company_id = base.and_then(|b| b.company_id);
    if by_id.is_given() && by_name.is_given() {
        mistakes.push(("company_name", "can't be sent with company_id".to_owned()));
    } else if by_id != Got::Absent {
        match by_id {
            Got::Absent | Got::Null => company_id = None,
            Got::Value(id) if companies::get(cx, *id)?.is_some() => company_id = Some(*id),
            // An ID that did not parse is mistyped.
            Got::Value(_) | Got::Mistyped => {
                mistakes.push(("company_id", "is not a company".to_owned()));
            }
        }
    } else if by_name != Got::Absent {
        match by_name {
            Got::Absent | Got::Null => company_id = None,
            Got::Value(s) => {
                let name = squish(s);
                if name.is_empty() {
                    company_id = None;
                } else if char_len(&name) > crate::limits::text::COMPANY_NAME {
                    mistakes.push((
                        "company_name",
                        format!(
                            "is too long (maximum is {} characters)",
                            crate::limits::text::COMPANY_NAME
                        ),
                    ));
                } else if mistakes.is_empty() {
                    company_id = Some(companies::find_or_add(cx, &name)?);
                }
            }
            Got::Mistyped => mistakes.push(("company_name", "must be a string".to_owned())),
        }
    }
    if mistakes.is_empty() && title.is_none() && company_id.is_none() {
        mistakes.push(("title", "can't be blank without a company".to_owned()));
    }
    Ok(if mistakes.is_empty() {
        Ok(Some(PositionValues { title, company_id }))
    } else {
        Err(mistakes)
    })
}
