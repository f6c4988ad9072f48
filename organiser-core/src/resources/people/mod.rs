//! People (document 3, "Person", "KeyDate", "EmailAddress", "PhoneNumber",
//! "SocialProfile", "Position", "Company", PersonFields with its row rules,
//! "Person delete and restore", the avatar endpoint), and DESIGN.md's
//! `/companies` and `/upcoming_key_dates`: a person and its rows in one
//! record, companies made and deleted as positions name them, photos
//! (`avatars.rs`), delete and restore (`lifecycle.rs`), and the listing by
//! name, creation or change, filtered by relationship.

mod api;
mod avatars;
pub(crate) mod companies;
pub(crate) mod key_dates;
mod lifecycle;
mod record;
pub(crate) mod rows;
pub(crate) mod social;
pub(crate) mod tables;
mod upcoming;

pub(crate) use api::OPERATIONS;
pub use api::People;
pub(crate) use avatars::absolute_avatar;
pub use companies::{Company, CompanyQuery};
pub use upcoming::{PersonBrief, UpcomingKeyDate, UpcomingKeyDates, UpcomingMeta, UpcomingQuery};
pub(crate) use upcoming::{key_dates_on, upcoming as upcoming_key_dates};

use jiff::Timestamp;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::engine::kinds::{Change, RecordKind};
use crate::engine::{Cx, WriteCx};
use crate::error::{Details, Error, Result};
use crate::ids::Id;
use crate::input::{Field, record};
use crate::list::{Direction, Filter, ListParams, Listing, Order, Page, Query};

use crate::resources::vocabulary::{RELATIONSHIPS, SOCIAL_PLATFORMS};
use crate::store::Tables;
use crate::store::key::{Key, tail_id};
use crate::text::{char_len, fold_case, squish, squished_required};
use key_dates::KeyDatePatch;
use record::PersonRecord;
use rows::{Merged, SentRow};
use tables::{
    PEOPLE, PEOPLE_BY_NAME, PEOPLE_BY_RELATIONSHIP, PEOPLE_BY_RELATIONSHIP_NAME,
    PEOPLE_BY_RELATIONSHIP_UPDATED, PEOPLE_BY_UPDATED,
};

/// People: restorable for 20 seconds, and homes of tasks.
pub(crate) static KIND: RecordKind = RecordKind {
    purge: Some(lifecycle::purge),
    is_live: Some(is_live),
    ..RecordKind::new("person", 3)
};

/// Whether `id` names a live person.
fn is_live(cx: &WriteCx<'_>, id: Id) -> Result<bool> {
    exists(cx, id)
}

/// The longest name, label, email address, phone number and link.
mod limit {
    pub(super) const NAME: usize = 100;
    pub(super) const LABEL: usize = 100;
    pub(super) const ADDRESS: usize = 254;
    pub(super) const NUMBER: usize = 50;
    pub(super) const URL: usize = 2048;
}

/// A person as the API shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Person {
    /// ID.
    pub id: Id,
    /// Squished, not blank.
    pub name: String,
    /// The photo (`url`, `thumb_url`, `large_url`), or null.
    pub avatar: Option<Avatar>,
    /// Birthdays, anniversaries, ...
    pub key_dates: Vec<KeyDate>,
    /// Email addresses, in the order added.
    pub email_addresses: Vec<EmailAddress>,
    /// Phone numbers, in the order added.
    pub phone_numbers: Vec<PhoneNumber>,
    /// Social profiles and websites, in the order added.
    pub social_profiles: Vec<SocialProfile>,
    /// Jobs, in the order added.
    pub positions: Vec<Position>,
    /// Relationships to the owner (vocabulary keys), in the vocabulary's order.
    pub relationships: Vec<String>,
    /// Links to other people (read only; changed through `/person_links`).
    pub connections: Vec<Connection>,
    /// When the person was made.
    #[serde(with = "crate::time::serde_timestamp")]
    pub created_at: Timestamp,
    /// When the person or any of its rows last changed.
    #[serde(with = "crate::time::serde_timestamp")]
    pub updated_at: Timestamp,
}

/// A person's photo.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Avatar {
    /// The photo as uploaded (a redirect).
    pub url: String,
    /// 128 px square, WebP.
    pub thumb_url: String,
    /// 256 px square, WebP.
    pub large_url: String,
}

/// A key date of a person.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeyDate {
    /// ID.
    pub id: Id,
    /// A key of the vocabulary's `key_date_kinds`.
    pub kind: String,
    /// Names an `other` date or adds to any other kind.
    pub label: Option<String>,
    /// 1 to 31.
    pub day: i8,
    /// 1 to 12.
    pub month: i8,
    /// The year, when known.
    pub year: Option<i16>,
    /// When it was added.
    #[serde(with = "crate::time::serde_timestamp")]
    pub created_at: Timestamp,
    /// When it last changed.
    #[serde(with = "crate::time::serde_timestamp")]
    pub updated_at: Timestamp,
}

/// An email address of a person.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EmailAddress {
    /// ID.
    pub id: Id,
    /// The address.
    pub address: String,
    /// "home", "work", ...
    pub label: Option<String>,
    /// When it was added.
    #[serde(with = "crate::time::serde_timestamp")]
    pub created_at: Timestamp,
    /// When it last changed.
    #[serde(with = "crate::time::serde_timestamp")]
    pub updated_at: Timestamp,
}

/// A phone number of a person.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PhoneNumber {
    /// ID.
    pub id: Id,
    /// The number as written.
    pub number: String,
    /// "mobile", "home", ...
    pub label: Option<String>,
    /// When it was added.
    #[serde(with = "crate::time::serde_timestamp")]
    pub created_at: Timestamp,
    /// When it last changed.
    #[serde(with = "crate::time::serde_timestamp")]
    pub updated_at: Timestamp,
}

/// A social profile or website of a person.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SocialProfile {
    /// ID.
    pub id: Id,
    /// The link (`https://` added when it had no scheme).
    pub url: String,
    /// A key of the vocabulary's `social_platforms`.
    pub platform: String,
    /// Whether `platform` was read from the link.
    pub platform_detected: bool,
    /// A label.
    pub label: Option<String>,
    /// When it was added.
    #[serde(with = "crate::time::serde_timestamp")]
    pub created_at: Timestamp,
    /// When it last changed.
    #[serde(with = "crate::time::serde_timestamp")]
    pub updated_at: Timestamp,
}

/// A job of a person.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Position {
    /// ID.
    pub id: Id,
    /// The title, or null.
    pub title: Option<String>,
    /// The company, or null.
    pub company_id: Option<Id>,
    /// When it was added.
    #[serde(with = "crate::time::serde_timestamp")]
    pub created_at: Timestamp,
    /// When it last changed.
    #[serde(with = "crate::time::serde_timestamp")]
    pub updated_at: Timestamp,
}

/// A link from a person to another one, as the person shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Connection {
    /// The person link's ID.
    pub id: Id,
    /// The other person.
    pub person_id: Id,
    /// The role, as this person sees it.
    pub kind: String,
    /// The link's note.
    pub note: Option<String>,
}

/// `{person: PersonFields}`, read before the transaction: the types
/// checked, the rows' meaning checked against the stored person.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PersonInput {
    /// The name (`Some("")` for null: refused as blank).
    pub name: Option<String>,
    /// An upload's `signed_id`, or null to remove the photo.
    pub avatar: Field<String>,
    /// The whole set of relationships.
    pub relationships: Option<Vec<String>>,
    /// The rows sent, by array, as sent.
    pub rows: Map<String, Value>,
}

impl PersonInput {
    /// The input PersonFields `fields` (a JSON object, as a body's
    /// `person`) make, read as the API reads a body.
    ///
    /// # Errors
    ///
    /// As the API's reading: 422 on a field of the wrong type, 400 on an
    /// `avatar` that is neither a string nor null.
    pub fn from_fields(fields: &Map<String, Value>) -> Result<PersonInput> {
        parse(Some(&serde_json::json!({ "person": fields })))
    }
}

/// Written as the body it is read from (`name`, `avatar`,
/// `relationships` when sent, and each row array as sent).
impl Serialize for PersonInput {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(None)?;
        if let Some(name) = &self.name {
            map.serialize_entry("name", name)?;
        }
        if !self.avatar.is_absent() {
            map.serialize_entry("avatar", &self.avatar)?;
        }
        if let Some(relationships) = &self.relationships {
            map.serialize_entry("relationships", relationships)?;
        }
        for (array, rows) in &self.rows {
            map.serialize_entry(array, rows)?;
        }
        map.end()
    }
}

/// The row arrays of PersonFields.
const ROW_ARRAYS: [&str; 5] = [
    "key_dates",
    "email_addresses",
    "phone_numbers",
    "social_profiles",
    "positions",
];

/// Reads `{person: ...}`: a field of the wrong type is 422 on it, except
/// `avatar`, which is 400 when it is neither a string nor null.
pub(crate) fn parse(body: Option<&Value>) -> Result<PersonInput> {
    let mut f = record(body, "person")?;
    let mut input = PersonInput::default();
    match f.raw("avatar") {
        Field::Value(Value::String(s)) => input.avatar = Field::Value(s.clone()),
        Field::Value(_) => {
            return Err(Error::bad_param(
                "avatar",
                "must be an upload's signed_id or null",
            ));
        }
        Field::Null => input.avatar = Field::Null,
        Field::Absent => {}
    }
    match f.string("name") {
        Field::Value(n) => input.name = Some(n),
        Field::Null => input.name = Some(String::new()),
        Field::Absent => {}
    }
    match f.raw("relationships") {
        Field::Absent => {}
        Field::Null => input.relationships = Some(Vec::new()),
        Field::Value(Value::Array(keys)) => {
            let keys: Option<Vec<String>> =
                keys.iter().map(|k| k.as_str().map(str::to_owned)).collect();
            match keys {
                Some(keys) => input.relationships = Some(keys),
                None => f.add("relationships", "must be an array of relationship keys"),
            }
        }
        Field::Value(_) => f.add("relationships", "must be an array of relationship keys"),
    }
    for array in ROW_ARRAYS {
        match f.raw(array) {
            Field::Absent | Field::Null => {}
            Field::Value(value) => {
                // The shape of the rows, here; their meaning in the transaction.
                rows::read(array, value, &mut f.details);
                input.rows.insert(array.to_owned(), value.clone());
            }
        }
    }
    f.finish()?;
    Ok(input)
}

/// A person and, while it can be restored, its delete.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PersonRow {
    pub(crate) person: Person,
    pub(crate) deleted: Option<Deleted>,
}

/// When a person was deleted, and what the delete took with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Deleted {
    pub(crate) at: Timestamp,
    pub(crate) taken: crate::engine::kinds::Taken,
}

fn load_row<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<Option<PersonRow>> {
    let record: Option<PersonRecord> = cx.get_record(PEOPLE, &id.to_bytes())?;
    Ok(record.map(|r| r.into_row()))
}

pub(crate) fn load_live<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<Person> {
    match load_row(cx, id)? {
        Some(PersonRow {
            person,
            deleted: None,
        }) => Ok(person),
        _ => Err(Error::NotFound),
    }
}

/// The tags a person is found under by `relationship`: each key, and
/// `family` once when any is of the family group.
fn relationship_tags(person: &Person) -> Vec<String> {
    let mut tags = person.relationships.clone();
    let family = person.relationships.iter().any(|key| {
        RELATIONSHIPS
            .iter()
            .any(|r| r.key == key && r.group == "family")
    });
    if family && !tags.iter().any(|t| t == "family") {
        tags.push("family".to_owned());
    }
    tags
}

/// Adds (or removes) a live person's index entries.
fn index(cx: &WriteCx<'_>, person: &Person, add: bool) -> Result<()> {
    let name = fold_case(&person.name);
    let mut entries = vec![
        (PEOPLE_BY_NAME, Key::new().str(&name).id(person.id)),
        (
            PEOPLE_BY_UPDATED,
            Key::new().timestamp(person.updated_at).id(person.id),
        ),
    ];
    for date in &person.key_dates {
        entries.push((tables::KEY_DATES_BY_DAY, upcoming::day_key(date, person.id)));
    }
    entries.push((
        tables::PEOPLE_BY_MATCH_NAME,
        Key::new()
            .str(&crate::text::fold_search(&person.name))
            .id(person.id),
    ));
    for email in &person.email_addresses {
        entries.push((
            tables::PEOPLE_BY_EMAIL,
            Key::new().str(&email.address.to_lowercase()).id(person.id),
        ));
    }
    for tag in relationship_tags(person) {
        entries.push((PEOPLE_BY_RELATIONSHIP, Key::new().str(&tag).id(person.id)));
        entries.push((
            PEOPLE_BY_RELATIONSHIP_NAME,
            Key::new().str(&tag).str(&name).id(person.id),
        ));
        entries.push((
            PEOPLE_BY_RELATIONSHIP_UPDATED,
            Key::new()
                .str(&tag)
                .timestamp(person.updated_at)
                .id(person.id),
        ));
    }
    cx.set_indexes(&entries, add)
}

/// The live person with email address `email` (lower case), if any.
pub(crate) fn by_email<T: Tables>(cx: &Cx<'_, T>, email: &str) -> Result<Option<Id>> {
    Ok(cx
        .ids_under(tables::PEOPLE_BY_EMAIL, Key::new().str(email).as_slice())?
        .into_iter()
        .next())
}

/// The one live person whose name, folded for search, is `folded`; none
/// when no one or several are.
pub(crate) fn only_one_named<T: Tables>(cx: &Cx<'_, T>, folded: &str) -> Result<Option<Id>> {
    let ids = cx.ids_under(
        tables::PEOPLE_BY_MATCH_NAME,
        Key::new().str(folded).as_slice(),
    )?;
    Ok(match ids.as_slice() {
        [one] => Some(*one),
        _ => None,
    })
}

/// Migration step: the attendee-matching indexes of every live person.
pub(crate) fn index_for_matching(tx: &crate::store::WriteTx) -> Result<()> {
    let mut people = Vec::new();
    tx.scan(
        PEOPLE_BY_NAME,
        std::ops::Bound::Unbounded,
        std::ops::Bound::Unbounded,
        crate::store::Dir::Asc,
        &mut |k, _| {
            people.push(crate::store::key::tail_id(k));
            Ok(true)
        },
    )?;
    for id in people {
        let Some(record) = tx.get_record::<PersonRecord>(PEOPLE, &id.to_bytes())? else {
            continue;
        };
        let person = record.into_row().person;
        tx.index(
            tables::PEOPLE_BY_MATCH_NAME,
            Key::new()
                .str(&crate::text::fold_search(&person.name))
                .id(person.id)
                .as_slice(),
        )?;
        for email in &person.email_addresses {
            tx.index(
                tables::PEOPLE_BY_EMAIL,
                Key::new()
                    .str(&email.address.to_lowercase())
                    .id(person.id)
                    .as_slice(),
            )?;
        }
    }
    Ok(())
}

fn save(cx: &WriteCx<'_>, row: &PersonRow) -> Result<()> {
    cx.put_record(
        PEOPLE,
        &row.person.id.to_bytes(),
        &PersonRecord::from_row(row),
    )
}

/// The relationships to store: known keys, once each, in the vocabulary's
/// order.
fn check_relationships(details: &mut Details, keys: &[String]) -> Vec<String> {
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
    fields: &Map<String, Value>,
    base: Option<Option<String>>,
    mistakes: &mut Vec<(&'static str, String)>,
) -> Option<String> {
    let sent = match fields.get("label") {
        None => return base.flatten(),
        Some(Value::Null) => None,
        Some(Value::String(s)) => Some(squish(s)).filter(|s| !s.is_empty()),
        Some(_) => {
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
    fields: &Map<String, Value>,
    name: &'static str,
    base: Option<&str>,
    max: usize,
    mistakes: &mut Vec<(&'static str, String)>,
) -> String {
    let text = match fields.get(name) {
        None => base.map(str::to_owned).unwrap_or_default(),
        Some(Value::Null) => String::new(),
        Some(Value::String(s)) => squish(s),
        Some(_) => {
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
struct ContactValues {
    text: String,
    label: Option<String>,
}

/// What a contact detail's text must be: its field, its longest, and its
/// own check (a phrase when it fails).
struct ContactRule {
    field: &'static str,
    max: usize,
    check: fn(&str) -> Option<&'static str>,
}

const EMAIL: ContactRule = ContactRule {
    field: "address",
    max: limit::ADDRESS,
    check: |address| {
        let plausible = address.split_once('@').is_some_and(|(user, host)| {
            !user.is_empty() && !host.is_empty() && !host.contains('@')
        });
        (!plausible).then_some("is not an email address")
    },
};

const PHONE: ContactRule = ContactRule {
    field: "number",
    max: limit::NUMBER,
    check: |number| (!number.chars().any(|c| c.is_ascii_digit())).then_some("has no digits"),
};

/// The values of a social profile row.
#[derive(Debug, Clone, PartialEq, Eq)]
struct SocialValues {
    url: String,
    platform: String,
    platform_detected: bool,
    label: Option<String>,
}

/// The values of a position row.
#[derive(Debug, Clone, PartialEq, Eq)]
struct PositionValues {
    title: Option<String>,
    company_id: Option<Id>,
}

type Mistakes = Vec<(&'static str, String)>;

/// A contact detail row under `rule`.
fn contact_row(
    rule: &ContactRule,
    base: Option<&ContactValues>,
    row: &SentRow<'_>,
) -> Result<Option<ContactValues>, Mistakes> {
    let mut mistakes = Vec::new();
    let text = required_text(
        row.fields,
        rule.field,
        base.map(|b| b.text.as_str()),
        rule.max,
        &mut mistakes,
    );
    if let Some(phrase) = (!text.is_empty()).then(|| (rule.check)(&text)).flatten() {
        mistakes.push((rule.field, phrase.to_owned()));
    }
    let label = label(row.fields, base.map(|b| b.label.clone()), &mut mistakes);
    if mistakes.is_empty() {
        Ok(Some(ContactValues { text, label }))
    } else {
        Err(mistakes)
    }
}

fn social_row(
    base: Option<&SocialValues>,
    row: &SentRow<'_>,
) -> Result<Option<SocialValues>, Mistakes> {
    let mut mistakes = Vec::new();
    let sent_url = matches!(row.fields.get("url"), Some(Value::String(_)));
    let url = required_text(
        row.fields,
        "url",
        base.map(|b| b.url.as_str()),
        limit::URL,
        &mut mistakes,
    );
    let url = social::normalise_url(&url);
    let platform = match row.fields.get("platform") {
        // Not sent: as stored, unless the link changed and it was detected.
        None => match base {
            Some(b) if !(sent_url && b.platform_detected) => Some(b.platform.clone()),
            _ => None,
        },
        Some(Value::Null) => None,
        Some(Value::String(p)) if SOCIAL_PLATFORMS.iter().any(|c| c.key == p) => Some(p.clone()),
        Some(_) => {
            let keys: Vec<&str> = SOCIAL_PLATFORMS.iter().map(|c| c.key).collect();
            mistakes.push(("platform", format!("is not one of {}", keys.join(", "))));
            None
        }
    };
    let (platform, platform_detected) = social::platform(&url, platform.as_deref());
    let label = label(row.fields, base.map(|b| b.label.clone()), &mut mistakes);
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
fn position_row(
    cx: &WriteCx<'_>,
    base: Option<&PositionValues>,
    row: &SentRow<'_>,
) -> Result<std::result::Result<Option<PositionValues>, Mistakes>> {
    let mut mistakes = Vec::new();
    let title = match row.fields.get("title") {
        None => base.and_then(|b| b.title.clone()),
        Some(Value::Null) => None,
        Some(Value::String(s)) => Some(squish(s)).filter(|s| !s.is_empty()),
        Some(_) => {
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
    let by_id = row.fields.get("company_id");
    let by_name = row.fields.get("company_name");
    let sent = |v: Option<&Value>| v.is_some_and(|v| !v.is_null());
    let mut company_id = base.and_then(|b| b.company_id);
    if sent(by_id) && sent(by_name) {
        mistakes.push(("company_name", "can't be sent with company_id".to_owned()));
    } else if let Some(by_id) = by_id {
        match by_id {
            Value::Null => company_id = None,
            Value::String(s) => match Id::parse(s) {
                Some(id) if companies::get(cx, id)?.is_some() => company_id = Some(id),
                _ => mistakes.push(("company_id", "is not a company".to_owned())),
            },
            _ => mistakes.push(("company_id", "is not a company".to_owned())),
        }
    } else if let Some(by_name) = by_name {
        match by_name {
            Value::Null => company_id = None,
            Value::String(s) => {
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
            _ => mistakes.push(("company_name", "must be a string".to_owned())),
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

/// A row of a person as the API shows it (a key date, a contact detail,
/// a position): its values apart from its ID and times, and the array and
/// deletion type that name it.
trait RowRecord: Clone {
    /// What a request may change.
    type Values: Clone + PartialEq;
    /// Its array in PersonFields.
    const ARRAY: &'static str;
    /// Its deletion type in `/deletions`.
    const KIND: &'static str;
    /// The fields whose mistakes the spec keys by the field's name alone
    /// (the row is then named in the phrase).
    const SPEC_KEYS: &'static [&'static str] = &[];
    /// The row's ID.
    fn id(&self) -> Id;
    /// When it was added.
    fn created_at(&self) -> Timestamp;
    /// What a request may change, as stored.
    fn values(&self) -> Self::Values;
    /// The row of these values, ID and times.
    fn make(id: Id, values: Self::Values, created_at: Timestamp, updated_at: Timestamp) -> Self;
}

/// The rows of `R`'s array after the request (the stored ones when it sent
/// none), each sent row read by `apply`.
fn merged<R: RowRecord>(
    input: &PersonInput,
    stored: &[R],
    details: &mut Details,
    apply: impl FnMut(Option<&R::Values>, &SentRow<'_>) -> Result<Option<R::Values>, Mistakes>,
) -> Vec<Merged<R::Values>> {
    let stored: Vec<(Id, R::Values)> = stored.iter().map(|r| (r.id(), r.values())).collect();
    match input.rows.get(R::ARRAY) {
        None => stored
            .into_iter()
            .map(|(id, values)| Merged {
                id: Some(id),
                values,
                changed: false,
                index: None,
            })
            .collect(),
        Some(value) => {
            let mut ignored = Details::new();
            let sent = rows::read(R::ARRAY, value, &mut ignored);
            rows::merge(R::ARRAY, R::SPEC_KEYS, &stored, &sent, details, apply)
        }
    }
}

/// Rows with their IDs and times: a kept row as it was, a changed one with
/// a new `updated_at`, a new one with a new ID.
fn stamp<R: RowRecord>(cx: &WriteCx<'_>, rows: Vec<Merged<R::Values>>, before: &[R]) -> Vec<R> {
    let now = cx.now();
    rows.into_iter()
        .map(|row| {
            let old = row.id.and_then(|id| before.iter().find(|r| r.id() == id));
            match (row.id, old) {
                (Some(_), Some(old)) if !row.changed => old.clone(),
                (Some(id), Some(old)) => R::make(id, row.values, old.created_at(), now),
                (Some(id), None) => R::make(id, row.values, now, now),
                (None, _) => R::make(cx.new_id(), row.values, now, now),
            }
        })
        .collect()
}

impl RowRecord for KeyDate {
    type Values = key_dates::KeyDateValues;
    const ARRAY: &'static str = "key_dates";
    const KIND: &'static str = "key_date";
    fn id(&self) -> Id {
        self.id
    }
    fn created_at(&self) -> Timestamp {
        self.created_at
    }
    fn values(&self) -> Self::Values {
        key_dates::KeyDateValues {
            kind: self.kind.clone(),
            label: self.label.clone(),
            day: self.day,
            month: self.month,
            year: self.year,
        }
    }
    fn make(id: Id, v: Self::Values, created_at: Timestamp, updated_at: Timestamp) -> Self {
        KeyDate {
            id,
            kind: v.kind,
            label: v.label,
            day: v.day,
            month: v.month,
            year: v.year,
            created_at,
            updated_at,
        }
    }
}

impl RowRecord for EmailAddress {
    type Values = ContactValues;
    const ARRAY: &'static str = "email_addresses";
    const KIND: &'static str = "email_address";
    fn id(&self) -> Id {
        self.id
    }
    fn created_at(&self) -> Timestamp {
        self.created_at
    }
    fn values(&self) -> Self::Values {
        ContactValues {
            text: self.address.clone(),
            label: self.label.clone(),
        }
    }
    fn make(id: Id, v: Self::Values, created_at: Timestamp, updated_at: Timestamp) -> Self {
        EmailAddress {
            id,
            address: v.text,
            label: v.label,
            created_at,
            updated_at,
        }
    }
}

impl RowRecord for PhoneNumber {
    type Values = ContactValues;
    const ARRAY: &'static str = "phone_numbers";
    const KIND: &'static str = "phone_number";
    fn id(&self) -> Id {
        self.id
    }
    fn created_at(&self) -> Timestamp {
        self.created_at
    }
    fn values(&self) -> Self::Values {
        ContactValues {
            text: self.number.clone(),
            label: self.label.clone(),
        }
    }
    fn make(id: Id, v: Self::Values, created_at: Timestamp, updated_at: Timestamp) -> Self {
        PhoneNumber {
            id,
            number: v.text,
            label: v.label,
            created_at,
            updated_at,
        }
    }
}

impl RowRecord for SocialProfile {
    type Values = SocialValues;
    const ARRAY: &'static str = "social_profiles";
    const KIND: &'static str = "social_profile";
    fn id(&self) -> Id {
        self.id
    }
    fn created_at(&self) -> Timestamp {
        self.created_at
    }
    fn values(&self) -> Self::Values {
        SocialValues {
            url: self.url.clone(),
            platform: self.platform.clone(),
            platform_detected: self.platform_detected,
            label: self.label.clone(),
        }
    }
    fn make(id: Id, v: Self::Values, created_at: Timestamp, updated_at: Timestamp) -> Self {
        SocialProfile {
            id,
            url: v.url,
            platform: v.platform,
            platform_detected: v.platform_detected,
            label: v.label,
            created_at,
            updated_at,
        }
    }
}

impl RowRecord for Position {
    type Values = PositionValues;
    const ARRAY: &'static str = "positions";
    const KIND: &'static str = "position";
    const SPEC_KEYS: &'static [&'static str] = &["title", "company_id", "company_name"];
    fn id(&self) -> Id {
        self.id
    }
    fn created_at(&self) -> Timestamp {
        self.created_at
    }
    fn values(&self) -> Self::Values {
        PositionValues {
            title: self.title.clone(),
            company_id: self.company_id,
        }
    }
    fn make(id: Id, v: Self::Values, created_at: Timestamp, updated_at: Timestamp) -> Self {
        Position {
            id,
            title: v.title,
            company_id: v.company_id,
            created_at,
            updated_at,
        }
    }
}

/// The person `before` (none for a new one) changed by `input`, checked
/// whole; companies a position names by a new name are made on the way
/// (the transaction is dropped when the request fails).
fn apply(cx: &WriteCx<'_>, before: Option<&Person>, input: &PersonInput) -> Result<Person> {
    let mut details = Details::new();
    let today = cx.today();
    let name = match (&input.name, before) {
        (Some(name), _) => squished_required(&mut details, "name", name, limit::NAME),
        (None, Some(b)) => b.name.clone(),
        (None, None) => {
            details.add("name", "can't be blank");
            String::new()
        }
    };
    // A photo: an unused avatar upload the person takes, or none.
    let avatar = match &input.avatar {
        Field::Absent => before.and_then(|b| b.avatar.clone()),
        Field::Null => None,
        Field::Value(signed) => {
            match crate::resources::uploads::take(
                cx,
                signed,
                crate::resources::uploads::Kind::Avatar,
                "avatar",
            ) {
                Ok(upload) => Some(avatars::avatar_of(&cx.org.secret, upload.id)),
                Err(e) => match e.details() {
                    Some(refused) => {
                        details.extend(refused);
                        None
                    }
                    None => return Err(e),
                },
            }
        }
    };
    let relationships = match &input.relationships {
        Some(keys) => check_relationships(&mut details, keys),
        None => before.map(|b| b.relationships.clone()).unwrap_or_default(),
    };
    let old_dates = before.map_or(&[][..], |b| &b.key_dates);
    let dates = merged(input, old_dates, &mut details, |base, row| {
        let mut mistakes = Vec::new();
        let patch = KeyDatePatch::read(row.fields, &mut mistakes);
        if !mistakes.is_empty() {
            return Err(mistakes);
        }
        patch.apply(base, today)
    });
    // At most one birthday: a kept one stands, else the request's first;
    // each later one of the request is refused.
    let birthdays: Vec<&Merged<_>> = dates
        .iter()
        .filter(|d| d.values.kind == "birthday")
        .collect();
    if birthdays.len() > 1 {
        let kept = birthdays.iter().any(|d| d.index.is_none());
        let mut sent: Vec<usize> = birthdays.iter().filter_map(|d| d.index).collect();
        sent.sort_unstable();
        for (n, index) in sent.into_iter().enumerate() {
            if kept || n > 0 {
                details.add(
                    rows::key("key_dates", index, "kind"),
                    "a person has one birthday",
                );
            }
        }
    }
    let emails = merged(
        input,
        before.map_or(&[][..], |b| &b.email_addresses),
        &mut details,
        |base, row| contact_row(&EMAIL, base, row),
    );
    let phones = merged(
        input,
        before.map_or(&[][..], |b| &b.phone_numbers),
        &mut details,
        |base, row| contact_row(&PHONE, base, row),
    );
    let socials = merged(
        input,
        before.map_or(&[][..], |b| &b.social_profiles),
        &mut details,
        social_row,
    );
    let mut failure = None;
    let positions = merged(
        input,
        before.map_or(&[][..], |b| &b.positions),
        &mut details,
        |base, row| match position_row(cx, base, row) {
            Ok(outcome) => outcome,
            Err(e) => {
                failure.get_or_insert(e);
                Ok(base.cloned())
            }
        },
    );
    if let Some(e) = failure {
        return Err(e);
    }
    details.into_validation()?;

    let now = cx.now();
    let mut person = Person {
        id: before.map_or_else(|| cx.new_id(), |b| b.id),
        name,
        avatar,
        key_dates: stamp(cx, dates, old_dates),
        email_addresses: stamp(cx, emails, before.map_or(&[][..], |b| &b.email_addresses)),
        phone_numbers: stamp(cx, phones, before.map_or(&[][..], |b| &b.phone_numbers)),
        social_profiles: stamp(cx, socials, before.map_or(&[][..], |b| &b.social_profiles)),
        positions: stamp(cx, positions, before.map_or(&[][..], |b| &b.positions)),
        relationships,
        connections: before.map_or_else(Vec::new, |b| b.connections.clone()),
        created_at: before.map_or(now, |b| b.created_at),
        updated_at: before.map_or(now, |b| b.updated_at),
    };
    if before != Some(&person) {
        person.updated_at = now;
    }
    Ok(person)
}

/// Counts the companies positions name: one more for each company a
/// position of `after` names, one less for each of `before` (a company no
/// position names any more is deleted).
fn count_companies(cx: &WriteCx<'_>, before: &[Position], after: &[Position]) -> Result<()> {
    let mut delta: Vec<(Id, i64)> = Vec::new();
    let mut add = |id: Id, by: i64| match delta.iter_mut().find(|(d, _)| *d == id) {
        Some((_, n)) => *n += by,
        None => delta.push((id, by)),
    };
    for p in after {
        if let Some(id) = p.company_id {
            add(id, 1);
        }
    }
    for p in before {
        if let Some(id) = p.company_id {
            add(id, -1);
        }
    }
    // Additions first, so a company moved between rows is never at zero.
    delta.sort_by_key(|(_, by)| std::cmp::Reverse(*by));
    for (id, by) in delta {
        if by != 0 {
            companies::count_use(cx, id, by)?;
        }
    }
    Ok(())
}

/// `POST /people`.
pub(crate) fn create(cx: &mut WriteCx<'_>, input: &PersonInput) -> Result<Person> {
    let person = apply(cx, None, input)?;
    count_companies(cx, &[], &person.positions)?;
    index(cx, &person, true)?;
    save(
        cx,
        &PersonRow {
            person: person.clone(),
            deleted: None,
        },
    )?;
    Ok(person)
}

/// `GET /people/{id}`.
pub(crate) fn get<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<Person> {
    load_live(cx, id)
}

/// `PATCH /people/{id}`: only what is sent changes; rows as the row rules
/// say.
pub(crate) fn change(cx: &mut WriteCx<'_>, id: Id, input: &PersonInput) -> Result<Person> {
    let before = load_live(cx, id)?;
    let person = apply(cx, Some(&before), input)?;
    if person == before {
        return Ok(person);
    }
    count_companies(cx, &before.positions, &person.positions)?;
    lifecycle::record_removed_rows(cx, &before, &person)?;
    // A replaced or removed photo goes, files and all.
    if before.avatar != person.avatar
        && let Some(old) = before
            .avatar
            .as_ref()
            .and_then(|a| avatars::upload_of(&cx.org.secret, a))
    {
        crate::resources::uploads::discard(cx, old)?;
    }
    index(cx, &before, false)?;
    index(cx, &person, true)?;
    save(
        cx,
        &PersonRow {
            person: person.clone(),
            deleted: None,
        },
    )?;
    if person.name != before.name {
        cx.tell(KIND.name, id, Change::Renamed)?;
    }
    Ok(person)
}

/// Whether `id` names a live person (for the resources that name people).
pub(crate) fn exists<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<bool> {
    Ok(matches!(
        load_row(cx, id)?,
        Some(PersonRow { deleted: None, .. })
    ))
}

/// A person's name and whether it is live (`false`: deleted and
/// restorable); `None` when there is no such person (any more).
pub(crate) fn lookup<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<Option<(String, bool)>> {
    Ok(load_row(cx, id)?.map(|row| (row.person.name, row.deleted.is_none())))
}

/// Changes the connections of live person `id` (person links), giving it
/// a new `updated_at`; a person that is not live is left alone.
pub(crate) fn touch_connections(
    cx: &WriteCx<'_>,
    id: Id,
    change: impl FnOnce(&mut Vec<Connection>),
) -> Result<()> {
    let Some(PersonRow {
        person: before,
        deleted: None,
    }) = load_row(cx, id)?
    else {
        return Ok(());
    };
    let mut person = before.clone();
    change(&mut person.connections);
    person.connections.sort_by_key(|c| c.id);
    person.updated_at = cx.now();
    index(cx, &before, false)?;
    index(cx, &person, true)?;
    save(
        cx,
        &PersonRow {
            person,
            deleted: None,
        },
    )
}

/// A person's name as stored (squished), its mistakes under `field`.
pub(crate) fn checked_name(details: &mut Details, name: &str, field: &str) -> String {
    squished_required(details, field, name, limit::NAME)
}

/// Makes a person with a name alone (checked by [`checked_name`]): the
/// `new_person_name` of a person link.
pub(crate) fn create_named(cx: &WriteCx<'_>, name: String) -> Result<Person> {
    let now = cx.now();
    let person = Person {
        id: cx.new_id(),
        name,
        avatar: None,
        key_dates: Vec::new(),
        email_addresses: Vec::new(),
        phone_numbers: Vec::new(),
        social_profiles: Vec::new(),
        positions: Vec::new(),
        relationships: Vec::new(),
        connections: Vec::new(),
        created_at: now,
        updated_at: now,
    };
    index(cx, &person, true)?;
    save(
        cx,
        &PersonRow {
            person: person.clone(),
            deleted: None,
        },
    )?;
    Ok(person)
}

/// `PUT|PATCH /people/{id}/avatar`: the photo `signed` (an avatar upload
/// just made from the request's bytes) replaces the person's.
pub(crate) fn set_avatar(cx: &mut WriteCx<'_>, id: Id, signed: &str) -> Result<Person> {
    let input = PersonInput {
        avatar: Field::Value(signed.to_owned()),
        ..PersonInput::default()
    };
    change(cx, id, &input)
}

/// `GET /people` parameters.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PersonQuery {
    /// A relationship key, or `family` for any family one.
    pub relationship: Option<String>,
    /// People whose name begins with this, ignoring case (ours: the spec
    /// names no such filter); by name only.
    pub q: Option<String>,
    /// `name` (default), `created_at`, `updated_at`, `id`; direction,
    /// updated_since, cursor, limit, count.
    pub params: ListParams,
}

const UPDATED: Order = Order {
    name: "updated_at",
    index: PEOPLE_BY_UPDATED,
    direction: Direction::Asc,
};

/// `GET /people`: live people by name (default), creation, change or id.
/// IDs are made in creation order, so `created_at` and `id` walk the same
/// keys.
static LISTING: Listing = Listing {
    name: "people",
    orders: &[
        Order {
            name: "name",
            index: PEOPLE_BY_NAME,
            direction: Direction::Asc,
        },
        Order {
            name: "created_at",
            index: PEOPLE,
            direction: Direction::Asc,
        },
        UPDATED,
        Order {
            name: "id",
            index: PEOPLE,
            direction: Direction::Asc,
        },
    ],
    updated: Some(&UPDATED),
    every: PEOPLE_BY_NAME,
};

const BY_RELATIONSHIP_UPDATED: Order = Order {
    name: "updated_at",
    index: PEOPLE_BY_RELATIONSHIP_UPDATED,
    direction: Direction::Asc,
};

/// `GET /people?relationship=…`: the same orders on the indexes led by the
/// relationship.
static BY_RELATIONSHIP: Listing = Listing {
    name: "people",
    orders: &[
        Order {
            name: "name",
            index: PEOPLE_BY_RELATIONSHIP_NAME,
            direction: Direction::Asc,
        },
        Order {
            name: "created_at",
            index: PEOPLE_BY_RELATIONSHIP,
            direction: Direction::Asc,
        },
        BY_RELATIONSHIP_UPDATED,
        Order {
            name: "id",
            index: PEOPLE_BY_RELATIONSHIP,
            direction: Direction::Asc,
        },
    ],
    updated: Some(&BY_RELATIONSHIP_UPDATED),
    every: PEOPLE_BY_RELATIONSHIP,
};

impl PersonQuery {
    /// The query's parameters, as [`PersonQuery::parse`] reads them.
    pub(crate) fn query_pairs(&self) -> Vec<(&'static str, String)> {
        let mut pairs = self.params.query_pairs();
        if let Some(v) = &self.relationship {
            pairs.push(("relationship", v.clone()));
        }
        if let Some(v) = &self.q {
            pairs.push(("q", v.clone()));
        }
        pairs
    }

    pub(crate) fn parse(query: &Query) -> Result<PersonQuery> {
        let params = LISTING.params(query)?;
        let relationship = match query.get("relationship") {
            None => None,
            Some(key) if key == "family" || RELATIONSHIPS.iter().any(|r| r.key == key) => {
                Some(key.to_owned())
            }
            Some(_) => {
                return Err(Error::bad_param(
                    "relationship",
                    "must be a relationship key of the vocabulary, or family",
                ));
            }
        };
        let q = query
            .get("q")
            .map(str::trim)
            .filter(|q| !q.is_empty())
            .map(str::to_owned);
        if q.is_some() {
            let refused = if relationship.is_some() {
                Some("relationship")
            } else if params.updated_since.is_some() {
                Some("updated_since")
            } else if params.order.as_deref().is_some_and(|o| o != "name") {
                Some("order")
            } else {
                None
            };
            if let Some(param) = refused {
                return Err(Error::bad_param(
                    param,
                    "is not accepted with q (people found by name are listed by name)",
                ));
            }
        }
        Ok(PersonQuery {
            relationship,
            q,
            params,
        })
    }
}

/// `GET /people`.
pub(crate) fn list<T: Tables>(cx: &Cx<'_, T>, q: &PersonQuery) -> Result<Page<Person>> {
    let load = |k: &[u8]| {
        Ok(match load_row(cx, tail_id(k))? {
            Some(PersonRow {
                person,
                deleted: None,
            }) => Some(person),
            _ => None,
        })
    };
    if let Some(name) = &q.q {
        let filter = Filter::prefix(Key::new().str_start(&fold_case(name)), format!("q={name}"));
        return LISTING.page(&cx.tx, &cx.org.secret, &q.params, &filter, load);
    }
    match &q.relationship {
        None => LISTING.page(&cx.tx, &cx.org.secret, &q.params, &Filter::default(), load),
        Some(tag) => {
            let filter = Filter::prefix(Key::new().str(tag), format!("relationship={tag}"));
            BY_RELATIONSHIP.page(&cx.tx, &cx.org.secret, &q.params, &filter, load)
        }
    }
}
