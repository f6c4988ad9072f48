//! A project's changes, each a plain form: its fields (name, status,
//! dates, role, reference, link, description), a member added or
//! removed, and a task quick-added into it (the core's
//! [`read_quick_add`], the project its home). Each answered 303 back to
//! the project, or with its page again beside what the core refused
//! (422).

use axum::extract::Path;
use axum::response::Response;
use organiser_core::projects::{ProjectInput, ProjectMemberInput};
use organiser_core::tasks::{description_html, read_quick_add};
use organiser_core::{Details, Field, Id};
use serde::Deserialize;

use super::page::{Draft, draw};
use crate::web::forms::{
    FieldErrors, PlainForm, SignedForm, Token, invalid, person_named, record_id,
};
use crate::web::{Refusal, blocking, see_other};

/// A form's fields as sent, in order.
#[derive(Debug, Deserialize)]
#[serde(transparent)]
pub(super) struct Fields(Vec<(String, String)>);

impl Token for Fields {
    fn csrf_token(&self) -> &str {
        self.get("csrf_token")
    }
}

impl Fields {
    /// The first value of `field`, else "".
    fn get(&self, field: &str) -> &str {
        self.0
            .iter()
            .find(|(f, _)| f == field)
            .map_or("", |(_, v)| v.as_str())
    }

    /// `field` as an optional text: blank is none.
    fn text(&self, field: &str) -> Field<String> {
        match self.get(field).trim() {
            "" => Field::Null,
            v => Field::Value(v.to_owned()),
        }
    }

    /// `field` as a date (`YYYY-MM-DD`, a date input's value): blank is
    /// none; one that does not read is said in `details`.
    fn date(&self, field: &str, details: &mut Details) -> Field<jiff::civil::Date> {
        match self.get(field).trim() {
            "" => Field::Null,
            typed => match typed.parse() {
                Ok(d) => Field::Value(d),
                Err(_) => {
                    details.add(field, "must be a date (YYYY-MM-DD)");
                    Field::Absent
                }
            },
        }
    }

    /// The fields as typed, without the token (to draw the form again).
    fn typed(&self) -> Vec<(String, String)> {
        self.0
            .iter()
            .filter(|(f, _)| f != "csrf_token")
            .cloned()
            .collect()
    }
}

/// The page of project `id` again with form `form` refused for `details`.
async fn refused(
    sent: &SignedForm<Fields>,
    id: Id,
    form: &'static str,
    details: &Details,
    renames: &[(&str, &str)],
) -> Result<Response, Refusal> {
    let draft = Draft {
        form,
        errors: FieldErrors::from_details(details, renames),
        values: sent.form.typed(),
    };
    draw(&sent.owner, id, draft, false, None).await
}

/// `POST /projects/{id}`: the project's fields.
pub(super) async fn change(
    Path(id): Path<String>,
    sent: SignedForm<Fields>,
) -> Result<Response, Refusal> {
    let id = record_id(&id)?;
    let f = &sent.form;
    let mut details = Details::new();
    let text = f.get("description").replace("\r\n", "\n");
    let input = ProjectInput {
        name: Some(f.get("name").to_owned()),
        status: f.text("status"),
        start_date: f.date("start_date", &mut details),
        deadline: f.date("deadline", &mut details),
        my_role: f.text("my_role"),
        external_reference: f.text("external_reference"),
        external_url: f.text("external_url"),
        description_html: description_html(&text).map_or(Field::Null, Field::Value),
    };
    let result = if details.is_empty() {
        invalid(
            blocking(&sent.owner.state, move |org| {
                org.projects().change(id, input)
            })
            .await,
        )?
        .map(|_| ())
    } else {
        Err(details)
    };
    match result {
        Ok(()) => Ok(see_other(&format!("/projects/{id}?saved=1"))),
        Err(details) => {
            let renames = [("description_html", "description")];
            refused(&sent, id, "project", &details, &renames).await
        }
    }
}

/// `POST /projects/{id}/members`: adds the person named in `person`
/// (found by name, or made when no one has it) with `role`.
pub(super) async fn add_member(
    Path(id): Path<String>,
    sent: SignedForm<Fields>,
) -> Result<Response, Refusal> {
    let id = record_id(&id)?;
    let person = sent.form.get("person").trim().to_owned();
    let role = sent.form.text("role");
    let made = blocking(&sent.owner.state, move |org| {
        let (person_id, new_person_name) = person_named(
            org,
            person,
            "person",
            "names more than one person: add from the person's page",
        )?;
        let input = ProjectMemberInput {
            project_id: Field::Value(id),
            person_id,
            new_person_name,
            role,
        };
        org.projects().add_member(input)
    })
    .await;
    match invalid(made)? {
        Ok(_) => Ok(see_other(&format!("/projects/{id}?saved=1"))),
        Err(details) => {
            let renames = [
                ("person_id", "person"),
                ("new_person_name", "person"),
                ("project_id", "person"),
            ];
            refused(&sent, id, "member", &details, &renames).await
        }
    }
}

/// `POST /projects/{id}/members/{member}/delete`: removes a member.
pub(super) async fn remove_member(
    Path((id, member)): Path<(String, String)>,
    sent: SignedForm<PlainForm>,
) -> Result<Response, Refusal> {
    let id = record_id(&id)?;
    let member = record_id(&member)?;
    blocking(&sent.owner.state, move |org| {
        org.projects().remove_member(member)
    })
    .await?;
    Ok(see_other(&format!("/projects/{id}?saved=1")))
}

/// `POST /projects/{id}/tasks`: quick add (the core's
/// [`read_quick_add`]) into the project.
pub(super) async fn quick_add(
    Path(id): Path<String>,
    sent: SignedForm<Fields>,
) -> Result<Response, Refusal> {
    let id = record_id(&id)?;
    let text = sent.form.get("title").to_owned();
    let made = blocking(&sent.owner.state, move |org| {
        let mut input = read_quick_add(&text, org.today(), org.zone().time_zone())?;
        input.project_id = Field::Value(id);
        org.tasks().create(input)
    })
    .await;
    match invalid(made)? {
        Ok(_) => Ok(see_other(&format!("/projects/{id}"))),
        Err(details) => refused(&sent, id, "task", &details, &[]).await,
    }
}
