//! What the forms of every page share (EXTENSIONS.md §6: every action a
//! plain form carrying the session's CSRF token, answered 303 back to
//! where it was, or with its page again beside what the core refused):
//! the signed-in owner of a page and of a form (the lists' and the
//! settings' pages read them too), the record a path names, where a form
//! goes back to, and the core's refusals said beside their fields.

use askama::Template;
use axum::Form;
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::StatusCode;
use axum::http::request::Parts;
use axum::response::{IntoResponse, Response};
use organiser_core::task_lists::{TaskList, TaskListQuery};
use organiser_core::{Details, Error, Field, Id, Organiser};
use serde::Deserialize;
use serde::de::DeserializeOwned;

use crate::AppState;
use crate::web::{Refusal, Signed, render, signed, signed_form};

/// The signed-in owner of a page: the app's state and the session. Read
/// with `GET` (no CSRF token needed); without a session, 303 to the
/// sign-in page.
pub(crate) struct SignedIn {
    pub(crate) state: AppState,
    pub(crate) session: Signed,
}

impl FromRequestParts<AppState> for SignedIn {
    type Rejection = Refusal;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Refusal> {
        let session = signed(state, &parts.headers).await?;
        Ok(SignedIn {
            state: state.clone(),
            session,
        })
    }
}

/// A form that carries a CSRF token.
pub(crate) trait Token {
    /// The token the form sent.
    fn csrf_token(&self) -> &str;
}

/// A form posted by the signed-in owner: `form` as sent, its CSRF token
/// the session's (else refused as forged).
pub(crate) struct SignedForm<F> {
    pub(crate) owner: SignedIn,
    pub(crate) form: F,
}

impl<F: Token + DeserializeOwned + Send + Sync> FromRequest<AppState> for SignedForm<F> {
    type Rejection = Response;

    async fn from_request(request: Request, state: &AppState) -> Result<Self, Response> {
        let headers = request.headers().clone();
        let Form(form) = Form::<F>::from_request(request, state)
            .await
            .map_err(IntoResponse::into_response)?;
        let session = signed_form(state, &headers, form.csrf_token())
            .await
            .map_err(IntoResponse::into_response)?;
        let owner = SignedIn {
            state: state.clone(),
            session,
        };
        Ok(SignedForm { owner, form })
    }
}

/// A form as posted (`application/x-www-form-urlencoded`): its fields in
/// order, a name repeated for each box ticked.
#[derive(Debug, Default, Clone, Deserialize)]
#[serde(transparent)]
pub(crate) struct Posted(Vec<(String, String)>);

impl Token for Posted {
    fn csrf_token(&self) -> &str {
        self.one("csrf_token").unwrap_or_default()
    }
}

impl Posted {
    /// The first value of field `name`.
    pub(crate) fn one(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The first value of field `name`, "" when not sent.
    pub(crate) fn get(&self, name: &str) -> &str {
        self.one(name).unwrap_or_default()
    }

    /// Field `name` as an optional text of an input: blank is none
    /// (`Field::Null`, which clears it).
    pub(crate) fn field(&self, name: &str) -> Field<String> {
        match self.get(name).trim() {
            "" => Field::Null,
            v => Field::Value(v.to_owned()),
        }
    }

    /// Field `name` as a date (`YYYY-MM-DD`, a date input's value): blank
    /// is none; one that does not read is said in `details`.
    pub(crate) fn date(&self, name: &str, details: &mut Details) -> Field<jiff::civil::Date> {
        match self.get(name).trim() {
            "" => Field::Null,
            typed => match typed.parse() {
                Ok(d) => Field::Value(d),
                Err(_) => {
                    details.add(name, "must be a date (YYYY-MM-DD)");
                    Field::Absent
                }
            },
        }
    }

    /// The fields as typed, without the token (to draw the form again).
    pub(crate) fn typed(&self) -> Vec<(String, String)> {
        self.0
            .iter()
            .filter(|(n, _)| n != "csrf_token")
            .cloned()
            .collect()
    }

    /// Field `name` as text ("" when not sent).
    pub(crate) fn text(&self, name: &str) -> String {
        self.one(name).unwrap_or_default().to_owned()
    }

    /// Field `name` as text, none when blank.
    pub(crate) fn filled(&self, name: &str) -> Option<String> {
        self.one(name)
            .filter(|v| !v.trim().is_empty())
            .map(str::to_owned)
    }

    /// Every value of field `name` (the boxes ticked).
    pub(crate) fn all(&self, name: &str) -> Vec<&str> {
        self.0
            .iter()
            .filter(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
            .collect()
    }

    /// Whether box `name` was ticked.
    pub(crate) fn ticked(&self, name: &str) -> bool {
        self.one(name).is_some()
    }

    /// Field `name` as a whole number: none when blank; a phrase on
    /// `field` in `details` when it is no number (the core judges the
    /// range).
    pub(crate) fn number(&self, name: &str, details: &mut Details) -> Option<i64> {
        let text = self.one(name)?.trim();
        if text.is_empty() {
            return None;
        }
        match text.parse() {
            Ok(n) => Some(n),
            Err(_) => {
                details.add(name, "must be a whole number");
                None
            }
        }
    }
}

/// What a refused form of a record's page sent, to draw the page again
/// with the core's refusals beside its fields (a person's and a project's
/// pages): which form, the refusals, the fields as typed. The page's
/// template asks it about each form it draws.
#[derive(Debug, Default)]
pub(crate) struct Draft {
    /// The form refused; empty when none was.
    pub(crate) form: &'static str,
    /// The refusals, on the form's fields.
    pub(crate) errors: FieldErrors,
    /// The fields as typed.
    pub(crate) values: Vec<(String, String)>,
}

impl Draft {
    /// The refusal `details` of form `form` (API fields renamed by
    /// `renames`; a row array's keys, `key_dates[0].day`, said on the row
    /// form's fields, `day`), with the fields as typed.
    pub(crate) fn refused(
        form: &'static str,
        details: &Details,
        renames: &[(&str, &str)],
        values: Vec<(String, String)>,
    ) -> Draft {
        let mut all: Vec<(String, String)> = renames
            .iter()
            .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
            .collect();
        for (key, _) in details.iter() {
            if let Some(rest) = key.strip_prefix(form)
                && let Some(at) = rest.find("].")
            {
                all.push((key.to_owned(), rest[at + 2..].to_owned()));
            }
        }
        let renames: Vec<(&str, &str)> =
            all.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
        Draft {
            form,
            errors: FieldErrors::from_details(details, &renames),
            values,
        }
    }

    /// What form `form` sent for `field` when it was refused, else "".
    pub(crate) fn typed(&self, form: &str, field: &str) -> &str {
        self.value(form, field, "")
    }

    /// What form `form` sent for `field` when it was refused, else `shown`.
    pub(crate) fn value<'s>(&'s self, form: &str, field: &str, shown: &'s str) -> &'s str {
        if self.form != form {
            return shown;
        }
        self.values
            .iter()
            .find(|(f, _)| f == field)
            .map_or("", |(_, v)| v.as_str())
    }

    /// What the core said about `field` of form `form`.
    pub(crate) fn error(&self, form: &str, field: &str) -> Option<String> {
        (self.form == form).then(|| self.errors.of(field)).flatten()
    }

    /// What the core said about form `form` beside no field of it.
    pub(crate) fn general<'f, T: AsRef<[&'f str]> + ?Sized>(
        &self,
        form: &str,
        fields: &T,
    ) -> Vec<String> {
        if self.form == form {
            self.errors.others(fields.as_ref())
        } else {
            Vec::new()
        }
    }

    /// Whether form `form` was refused (its `<details>` drawn open).
    pub(crate) fn open(&self, form: &str) -> bool {
        self.form == form
    }
}

/// A form with only its token and where to go back to.
#[derive(Debug, Deserialize)]
pub(crate) struct PlainForm {
    #[serde(default)]
    csrf_token: String,
    #[serde(default)]
    pub(crate) back: String,
}

impl Token for PlainForm {
    fn csrf_token(&self) -> &str {
        &self.csrf_token
    }
}

/// A form that sends one name: making a list, a person or a project, or
/// renaming a list.
#[derive(Debug, Deserialize)]
pub(crate) struct NameForm {
    #[serde(default)]
    csrf_token: String,
    #[serde(default)]
    pub(crate) name: String,
}

impl Token for NameForm {
    fn csrf_token(&self) -> &str {
        &self.csrf_token
    }
}

/// The record a path names (its `{id}`), else 404.
pub(crate) fn record_id(text: &str) -> Result<Id, Refusal> {
    Id::parse(text).ok_or(Refusal::Core(Error::NotFound))
}

/// The outcome of a form's call: the core's validation details, for the
/// page to say beside the fields; any other refusal is the page's.
pub(crate) fn invalid<T>(result: Result<T, Refusal>) -> Result<Result<T, Details>, Refusal> {
    match result {
        Ok(value) => Ok(Ok(value)),
        Err(Refusal::Core(Error::Validation(details))) => Ok(Err(details)),
        Err(other) => Err(other),
    }
}

/// `page` rendered, 422 when it shows what was refused.
pub(crate) fn answer(page: &impl Template, refused: bool) -> Response {
    let mut response = render(page);
    if refused && response.status().is_success() {
        *response.status_mut() = StatusCode::UNPROCESSABLE_ENTITY;
    }
    response
}

pub(crate) use organiser_core::list::every;

/// Every live list, in order.
pub(crate) fn every_list(org: &Organiser) -> Result<Vec<TaskList>, Error> {
    every(|params| org.task_lists().list(&TaskListQuery { params }))
}

// ---------------------------------------------------------------------
// Where a form goes back to.

/// The person a name typed in a form stands for, as the inputs that
/// take one say it (`person_id`, or `new_person_name` for someone new):
/// the one live person of that name (the core's `People::named`), a new
/// person when there is none, or a 422 on `field` saying `several` when
/// the name is more than one person's.
pub(crate) fn person_named(
    org: &Organiser,
    name: String,
    field: &str,
    several: &str,
) -> Result<(organiser_core::Field<Id>, Option<String>), Error> {
    match org.people().named(&name)?.as_slice() {
        [] => Ok((organiser_core::Field::Absent, Some(name))),
        [one] => Ok((organiser_core::Field::Value(*one), None)),
        _ => Err(Error::invalid(field, several)),
    }
}

/// Where a form goes back to: a path of ours, else today.
pub(crate) fn back(to: &str) -> &str {
    if to.starts_with('/') && !to.starts_with("//") && !to.contains('\\') {
        to
    } else {
        "/"
    }
}

/// `path` without the notes of an earlier action (`done`, `deleted`).
pub(crate) fn without_notes(path: &str) -> String {
    let Some((path, query)) = path.split_once('?') else {
        return path.to_owned();
    };
    let kept: Vec<&str> = query
        .split('&')
        .filter(|p| !p.starts_with("done=") && !p.starts_with("deleted=") && !p.is_empty())
        .collect();
    if kept.is_empty() {
        path.to_owned()
    } else {
        format!("{path}?{}", kept.join("&"))
    }
}

/// A cursor or other value in a query string.
fn encode(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for b in value.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// `path` with `key=value` added to its query.
pub(crate) fn with_param(path: &str, key: &str, value: &str) -> String {
    let sep = if path.contains('?') { '&' } else { '?' };
    format!("{path}{sep}{key}={}", encode(value))
}

// ---------------------------------------------------------------------
// Errors beside their fields.

/// The core's refusals (422 details), each beside the form's field it is
/// about: `(field, sentence)`.
#[derive(Debug, Default)]
pub(crate) struct FieldErrors(Vec<(String, String)>);

impl FieldErrors {
    /// The details as sentences, on the form's fields: `renames` maps an
    /// API field to the form's (`description_html` to `description`).
    pub(crate) fn from_details(details: &Details, renames: &[(&str, &str)]) -> FieldErrors {
        let mut out = Vec::new();
        for (field, phrases) in details.iter() {
            let form = renames
                .iter()
                .find(|(api, _)| *api == field)
                .map_or(field, |(_, form)| *form);
            for phrase in phrases {
                out.push((form.to_owned(), format!("{} {phrase}", label(form))));
            }
        }
        FieldErrors(out)
    }

    /// Every sentence of `details`, as one text (a form of one field: a
    /// list's name, the quick-add box).
    pub(crate) fn said(details: &Details) -> String {
        let all: Vec<String> = FieldErrors::from_details(details, &[])
            .0
            .into_iter()
            .map(|(_, s)| s)
            .collect();
        all.join(" ")
    }

    /// What is said about `field`.
    pub(crate) fn of(&self, field: &str) -> Option<String> {
        let said: Vec<&str> = self
            .0
            .iter()
            .filter(|(f, _)| f == field)
            .map(|(_, s)| s.as_str())
            .collect();
        (!said.is_empty()).then(|| said.join(" "))
    }

    /// What is said about fields not among `fields` (shown above the form).
    pub(crate) fn others(&self, fields: &[&str]) -> Vec<String> {
        self.0
            .iter()
            .filter(|(f, _)| !fields.contains(&f.as_str()))
            .map(|(_, s)| s.clone())
            .collect()
    }

    /// Whether nothing is said.
    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// How a sentence about a field begins.
fn label(field: &str) -> String {
    match field {
        "title" => "The title".into(),
        "description" => "The description".into(),
        "start_on" => "The start date".into(),
        "deadline_on" => "The deadline".into(),
        "expires_on" => "The expiry date".into(),
        "status" => "The status".into(),
        "home" => "The place".into(),
        "repeat" => "The repeat".into(),
        "remind_at" => "The reminder".into(),
        "name" => "The name".into(),
        "base" => "It".into(),
        other => format!("The {}", other.replace('_', " ")),
    }
}
