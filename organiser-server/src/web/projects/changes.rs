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

use super::page::{Draft, draw};
use crate::web::forms::{
    FieldErrors, PlainForm, Posted, SignedForm, invalid, person_named, record_id,
};
use crate::web::{Refusal, blocking, see_other};

/// The page of project `id` again with form `form` refused for `details`.
async fn refused(
    sent: &SignedForm<Posted>,
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
    sent: SignedForm<Posted>,
) -> Result<Response, Refusal> {
    let id = record_id(&id)?;
    let f = &sent.form;
    let mut details = Details::new();
    let text = f.get("description").replace("\r\n", "\n");
    let input = ProjectInput {
        name: Some(f.get("name").to_owned()),
        status: f.field("status"),
        start_date: f.date("start_date", &mut details),
        deadline: f.date("deadline", &mut details),
        my_role: f.field("my_role"),
        external_reference: f.field("external_reference"),
        external_url: f.field("external_url"),
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
    sent: SignedForm<Posted>,
) -> Result<Response, Refusal> {
    let id = record_id(&id)?;
    let person = sent.form.get("person").trim().to_owned();
    let role = sent.form.field("role");
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
    sent: SignedForm<Posted>,
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
