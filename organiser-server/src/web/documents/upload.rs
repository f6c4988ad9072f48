//! Documents from the upload form (EXTENSIONS.md §6, documents:
//! "drag-and-drop PDF upload"): a plain `<input type=file multiple>` sent
//! as `multipart/form-data` and read by axum's `Multipart`, each file made
//! an upload of kind `document` and then a document in the folder chosen,
//! through the core (which reads the type from the bytes and refuses what
//! is not a complete PDF). `assets/documents.js` sends files dropped on
//! the page to the same form, one at a time, to show each one's progress.

use axum::extract::multipart::MultipartError;
use axum::extract::{Multipart, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use organiser_core::documents::DocumentInput;
use organiser_core::uploads::UploadKind;
use organiser_core::{Details, Error, Field};

use super::{Draft, ListQuery, chosen_folder, draw_list};
use crate::AppState;
use crate::web::forms::{FieldErrors, SignedIn, back, with_param};
use crate::web::{Refusal, blocking, see_other, signed_form};

/// The largest body the upload form takes: the core's largest document
/// and the form's framing (several files sent at once share it; the
/// script sends each dropped file on its own).
pub(super) const LIMIT: usize =
    organiser_core::limits::uploads::DOCUMENT_MAX_BYTES as usize + 64 * 1024;

/// One file of the form: its name and bytes.
struct Sent {
    filename: String,
    bytes: Vec<u8>,
}

/// What the form sent besides its files.
#[derive(Default)]
struct Fields {
    token: String,
    folder: String,
    back: String,
}

/// `POST /documents`: the upload form; each file made a document in the
/// folder chosen; 303 back to where the form was (`?added=N`), or that
/// page again saying which files were refused and why (422; the others
/// are made).
pub(super) async fn upload(
    State(state): State<AppState>,
    headers: HeaderMap,
    mut form: Multipart,
) -> Result<Response, Refusal> {
    let mut fields = Fields::default();
    let mut owner: Option<SignedIn> = None;
    let mut files = Vec::new();
    loop {
        let field = match form.next_field().await {
            Ok(Some(field)) => field,
            Ok(None) => break,
            Err(e) => return Err(unreadable(&e)),
        };
        match field.name() {
            Some("csrf_token") => fields.token = field.text().await.unwrap_or_default(),
            Some("folder") => fields.folder = field.text().await.unwrap_or_default(),
            Some("back") => fields.back = field.text().await.unwrap_or_default(),
            Some("files") => {
                // The token comes before the files (the form's order): no
                // file is read for a form that is not the session's.
                if owner.is_none() {
                    owner = Some(signed(&state, &headers, &fields.token).await?);
                }
                let filename = field.file_name().unwrap_or_default().to_owned();
                let bytes = field.bytes().await.map_err(|e| unreadable(&e))?;
                if !(filename.is_empty() && bytes.is_empty()) {
                    files.push(Sent {
                        filename,
                        bytes: bytes.to_vec(),
                    });
                }
            }
            _ => {}
        }
    }
    let owner = match owner {
        Some(owner) => owner,
        None => signed(&state, &headers, &fields.token).await?,
    };
    let to = match back(&fields.back) {
        b if b.starts_with("/documents") => b.to_owned(),
        _ => "/documents".to_owned(),
    };
    let view = view_of(&to);
    if files.is_empty() {
        let details = Details::one("files", "is missing: choose a PDF file");
        let draft = Draft::refused("upload", &details, &[], Vec::new());
        let q = ListQuery::of_view(&view);
        return draw_list(&owner, q, draft, StatusCode::UNPROCESSABLE_ENTITY).await;
    }
    let folder = match chosen_folder(&fields.folder, "folder_id")? {
        Field::Null => Field::Absent,
        other => other,
    };
    let outcomes = blocking(&state, move |org| {
        let rule = UploadKind::Document.rule();
        let mut outcomes = Vec::with_capacity(files.len());
        for file in files {
            let name = file.filename.clone();
            // The core reads the type from the bytes; what the browser
            // guessed from the file's name is not asked.
            let made = org
                .uploads()
                .create(
                    UploadKind::Document,
                    &file.filename,
                    rule.content_types[0],
                    file.bytes,
                )
                .and_then(|upload| {
                    org.documents().create(DocumentInput {
                        upload: Some(upload.signed_id),
                        folder_id: folder.clone(),
                        ..DocumentInput::default()
                    })
                });
            match made {
                Ok(_) => outcomes.push((name, None)),
                Err(e) => outcomes.push((name, Some(refusal(e)?))),
            }
        }
        Ok(outcomes)
    })
    .await?;
    let added = outcomes.iter().filter(|(_, e)| e.is_none()).count();
    let refused: Vec<String> = outcomes
        .into_iter()
        .filter_map(|(name, e)| e.map(|e| format!("{name}: {e}")))
        .collect();
    if refused.is_empty() {
        return Ok(see_other(&with_param(&to, "added", &added.to_string())));
    }
    let draft = Draft {
        form: "upload",
        said: refused,
        ..Draft::default()
    };
    let mut q = ListQuery::of_view(&view);
    q.added = (added > 0).then_some(u32::try_from(added).unwrap_or(u32::MAX));
    draw_list(&owner, q, draft, StatusCode::UNPROCESSABLE_ENTITY).await
}

/// The session of the form whose token is `token`.
async fn signed(state: &AppState, headers: &HeaderMap, token: &str) -> Result<SignedIn, Refusal> {
    let session = signed_form(state, headers, token).await?;
    Ok(SignedIn {
        state: state.clone(),
        session,
    })
}

/// What the core refused of one file, in a sentence; any other failure
/// is the page's.
fn refusal(e: Error) -> Result<String, Error> {
    match e {
        Error::Validation(details) | Error::InvalidParameter(details) => {
            let renames = [
                ("file", "file"),
                ("upload", "file"),
                ("filename", "file name"),
            ];
            let all = FieldErrors::from_details(&details, &renames);
            Ok(all.others(&[]).join(" "))
        }
        e @ Error::PayloadTooLarge { .. } => Ok(e.public_message()),
        other => Err(other),
    }
}

/// A form that could not be read: too large for [`LIMIT`] (413), or not
/// a form at all.
fn unreadable(e: &MultipartError) -> Refusal {
    if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
        Refusal::Core(Error::PayloadTooLarge {
            limit: LIMIT as u64,
        })
    } else {
        Refusal::Core(Error::InvalidParameter(Details::one(
            "body",
            "is not a form the documents page sends",
        )))
    }
}

/// The `?folder=` of a `/documents` address (where the form goes back).
fn view_of(path: &str) -> String {
    path.split_once('?')
        .map(|(_, query)| {
            query
                .split('&')
                .find_map(|p| p.strip_prefix("folder="))
                .unwrap_or_default()
                .to_owned()
        })
        .unwrap_or_default()
}
