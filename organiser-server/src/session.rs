//! Web sessions over HTTP: `POST /api/v1/session` signs in with username
//! and password and sets the session cookie; `DELETE /api/v1/session`
//! signs out. The sign-in procedure is ours (the spec leaves it open).

use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use organiser_core::Error;

use crate::AppState;
use crate::error::{ApiError, json_body};
use crate::handler::{cookie, read_body};

pub(crate) const SESSION_COOKIE: &str = "organiser_session";

fn text<'a>(body: &'a serde_json::Value, name: &str) -> Option<&'a str> {
    body.get("session")
        .and_then(|s| s.get(name))
        .and_then(|v| v.as_str())
}

pub(crate) async fn sign_in(State(state): State<AppState>, request: Request) -> Response {
    if let Some(refusal) = crate::middleware::refused(&state, &request) {
        return refusal;
    }
    // Over HTTPS (directly, or through a trusted proxy saying so) the
    // cookie is `Secure`, as the web app's is.
    let https = !crate::origin::Origin::of(&state.config, &request).plain_http();
    let (parts, body) = request.into_parts();
    let headers = parts.headers;
    let body = match read_body(&headers, body).await {
        Ok(body) => body.unwrap_or_default(),
        Err(e) => return ApiError(e).into_response(),
    };
    let username = text(&body, "username").unwrap_or_default().to_owned();
    let password = text(&body, "password").unwrap_or_default().to_owned();
    let org = state.org.clone();
    let signed = tokio::task::spawn_blocking(move || org.sign_in(&username, &password)).await;
    match signed {
        Ok(Ok(signed)) => {
            let secure = if https { "; Secure" } else { "" };
            let cookie = format!(
                "{SESSION_COOKIE}={}; Path=/; HttpOnly; SameSite=Lax{secure}",
                signed.secret
            );
            let body = serde_json::json!({ "data": signed }).to_string();
            let mut response = (StatusCode::CREATED, json_body(body)).into_response();
            if let Ok(value) = HeaderValue::from_str(&cookie) {
                response.headers_mut().insert(header::SET_COOKIE, value);
            }
            response
        }
        Ok(Err(e)) => ApiError(e).into_response(),
        Err(_) => ApiError(Error::Internal("sign-in task failed".into())).into_response(),
    }
}

pub(crate) async fn sign_out(State(state): State<AppState>, request: Request) -> Response {
    if let Some(refusal) = crate::middleware::refused(&state, &request) {
        return refusal;
    }
    let headers = request.headers().clone();
    if let Some(secret) = cookie(&headers, SESSION_COOKIE) {
        let org = state.org.clone();
        let _ = tokio::task::spawn_blocking(move || org.sign_out(&secret)).await;
    }
    let mut response = StatusCode::NO_CONTENT.into_response();
    response.headers_mut().insert(
        header::SET_COOKIE,
        HeaderValue::from_static("organiser_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0"),
    );
    response
}
