//! A person's photo from a plain form (`<input type=file>`, sent as
//! `multipart/form-data`, read by axum's `Multipart`): the form's CSRF
//! token and the image's bytes, then the core's photo upload (which
//! reads the type from the bytes and checks them).

use axum::extract::{Multipart, Path, State};
use axum::http::HeaderMap;
use axum::response::Response;
use organiser_core::Details;

use super::page::{Draft, draw};
use crate::AppState;
use crate::web::forms::{SignedIn, invalid, record_id};
use crate::web::{Refusal, blocking, see_other, signed_form};

/// The largest body the photo form takes (the core takes photos up to
/// 10 MB; the rest is the form's framing).
pub(super) const LIMIT: usize = 10 * 1024 * 1024 + 64 * 1024;

/// `POST /people/{id}/photo`: the photo form; 303 to the person, or their
/// page again with what the core refused (422).
pub(super) async fn upload(
    Path(id): Path<String>,
    State(state): State<AppState>,
    headers: HeaderMap,
    mut form: Multipart,
) -> Result<Response, Refusal> {
    let id = record_id(&id)?;
    // The form's fields, the token and the photo (what else it sends is
    // not read).
    let (mut token, mut photo) = (String::new(), None);
    while let Ok(Some(field)) = form.next_field().await {
        match field.name() {
            Some("csrf_token") => token = field.text().await.unwrap_or_default(),
            Some("photo") => {
                let kind = field.content_type().unwrap_or_default().to_owned();
                if let Ok(bytes) = field.bytes().await
                    && !bytes.is_empty()
                {
                    photo = Some((kind, bytes.to_vec()));
                }
            }
            _ => {}
        }
    }
    let session = signed_form(&state, &headers, &token).await?;
    let owner = SignedIn {
        state: state.clone(),
        session,
    };
    let result = match photo {
        Some((kind, bytes)) => {
            invalid(blocking(&state, move |org| org.people().set_photo(id, &kind, bytes)).await)?
                .map(|_| ())
        }
        None => Err(Details::one("photo", "is missing: choose an image")),
    };
    match result {
        Ok(()) => Ok(see_other(&format!("/people/{id}?saved=1"))),
        Err(details) => {
            let renames = [
                ("file", "photo"),
                ("content_type", "photo"),
                ("body", "photo"),
            ];
            let draft = Draft::refused("photo", &details, &renames, Vec::new());
            draw(&owner, id, draft, false).await
        }
    }
}
