//! The colour and icon fields that task lists and categories share
//! (document 2, "TaskList" and "Category"): a colour key of the palette, a
//! blank one taking the first colour no other record uses, and an icon of
//! the picker or none.

use super::{COLORS, PICKER_ICONS};
use crate::error::Details;
use crate::input::Field;

/// A colour as sent: `Some(Some(key))` a key of the palette, `Some(None)`
/// blank or null (the caller takes [`first_free_color`]), `None` not sent
/// or refused (the mistake added under `color`).
pub(crate) fn check_color(details: &mut Details, color: &Field<String>) -> Option<Option<String>> {
    match color {
        Field::Absent => None,
        Field::Null => Some(None),
        Field::Value(c) if c.trim().is_empty() => Some(None),
        Field::Value(c) if COLORS.iter().any(|k| k.key == c) => Some(Some(c.clone())),
        Field::Value(_) => {
            let keys: Vec<&str> = COLORS.iter().map(|k| k.key).collect();
            details.add(
                "color",
                format!(
                    "is not a colour of the vocabulary: one of {}",
                    keys.join(", ")
                ),
            );
            None
        }
    }
}

/// The first colour of the palette that none of `used` is (the least used
/// one when every colour is taken).
pub(crate) fn first_free_color<'a>(used: impl IntoIterator<Item = &'a str>) -> String {
    let mut uses = vec![0usize; COLORS.len()];
    for color in used {
        if let Some(i) = COLORS.iter().position(|c| c.key == color) {
            uses[i] += 1;
        }
    }
    let least = uses.iter().copied().min().unwrap_or(0);
    let i = uses.iter().position(|&n| n == least).unwrap_or(0);
    COLORS[i].key.to_owned()
}

/// An icon as sent: `Some(Some(icon))` one of the picker's, `Some(None)`
/// blank or null, `None` not sent or refused (the mistake under `icon`).
pub(crate) fn check_icon(details: &mut Details, icon: &Field<String>) -> Option<Option<String>> {
    match icon {
        Field::Absent => None,
        Field::Null => Some(None),
        Field::Value(i) if i.trim().is_empty() => Some(None),
        Field::Value(i) if PICKER_ICONS.contains(&i.as_str()) => Some(Some(i.clone())),
        Field::Value(_) => {
            details.add(
                "icon",
                format!(
                    "is not an icon of the vocabulary: one of {}",
                    PICKER_ICONS.join(", ")
                ),
            );
            None
        }
    }
}
