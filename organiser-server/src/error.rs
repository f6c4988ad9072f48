//! The one mapping from the core's error to an HTTP response.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use organiser_core::Error;

/// A core error as an HTTP response.
pub(crate) struct ApiError(pub(crate) Error);

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status =
            StatusCode::from_u16(self.0.status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        if status.is_server_error() {
            tracing::error!(error = %self.0, "request failed");
        }
        let mut response = (status, json_body(self.0.to_body().to_string())).into_response();
        if let Error::RateLimited { retry_after } = self.0 {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(retry_after));
        }
        response
    }
}

impl From<Error> for ApiError {
    fn from(e: Error) -> Self {
        ApiError(e)
    }
}

/// A JSON body with its content type.
pub(crate) fn json_body(body: impl Into<axum::body::Body>) -> impl IntoResponse {
    (
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        )],
        body.into(),
    )
}

/// A panic becomes a 500 that says nothing of it.
pub(crate) fn panic_response(panic: Box<dyn std::any::Any + Send + 'static>) -> Response {
    let detail = panic
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| panic.downcast_ref::<&str>().copied())
        .unwrap_or("panic");
    ApiError(Error::Internal(detail.to_owned())).into_response()
}
