//! The web app's assets: one stylesheet and one script of ours (written a
//! file per family, `assets/*.js`, and served as one), compiled in, each
//! with an `ETag` (a digest of its bytes) and answered 304 when the browser
//! has it. The stylesheet answers without a session (the sign-in page uses
//! it); the script only with one.

use std::sync::LazyLock;

use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use super::{Refusal, signed, with_headers};
use crate::AppState;

/// One asset.
struct Asset {
    name: &'static str,
    content_type: &'static str,
    bytes: &'static [u8],
    /// Whether it answers without a session.
    public: bool,
}

static ASSETS: &[Asset] = &[
    Asset {
        name: "app.css",
        content_type: "text/css; charset=utf-8",
        bytes: include_bytes!("assets/app.css"),
        public: true,
    },
    Asset {
        name: "app.js",
        content_type: "text/javascript; charset=utf-8",
        // One script served, written a file per family.
        bytes: concat!(
            include_str!("assets/app.js"),
            include_str!("assets/notes.js"),
            include_str!("assets/documents.js"),
            include_str!("assets/ai.js"),
        )
        .as_bytes(),
        public: false,
    },
];

/// Each asset's `ETag`, made once: a 64-bit FNV-1a digest of its bytes.
static ETAGS: LazyLock<Vec<String>> = LazyLock::new(|| {
    ASSETS
        .iter()
        .map(|a| {
            let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
            for b in a.bytes {
                hash ^= u64::from(*b);
                hash = hash.wrapping_mul(0x0100_0000_01b3);
            }
            format!("\"{hash:016x}\"")
        })
        .collect()
});

/// `GET /assets/{file}`.
pub(crate) async fn serve(
    State(state): State<AppState>,
    Path(file): Path<String>,
    headers: HeaderMap,
) -> Result<Response, Refusal> {
    let Some((i, asset)) = ASSETS.iter().enumerate().find(|(_, a)| a.name == file) else {
        return Err(Refusal::Core(organiser_core::Error::NotFound));
    };
    if !asset.public {
        signed(&state, &headers).await?;
    }
    let etag = &ETAGS[i];
    let fresh = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == etag));
    let mut response = if fresh {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        ([(header::CONTENT_TYPE, asset.content_type)], asset.bytes).into_response()
    };
    let h = response.headers_mut();
    if let Ok(v) = HeaderValue::from_str(etag) {
        h.insert(header::ETAG, v);
    }
    // Kept, but asked about again each time: a new build's asset is seen
    // at once.
    h.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static(if asset.public {
            "public, no-cache"
        } else {
            "private, no-cache"
        }),
    );
    Ok(with_headers(response))
}
