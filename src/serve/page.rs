//! The page of `eqmap serve`, embedded in the binary: one HTML file, its script and its style,
//! from `web/`. Nothing is fetched from elsewhere, so the page works with no network.

use axum::http::header;
use axum::response::{IntoResponse, Response};

/// One embedded file: its media type and its text.
pub struct Asset {
    /// The `Content-Type`.
    pub media_type: &'static str,
    /// The text.
    pub text: &'static str,
}

/// The page.
pub const INDEX: Asset =
    Asset { media_type: "text/html; charset=utf-8", text: include_str!("../../web/index.html") };
/// Its script.
pub const SCRIPT: Asset =
    Asset { media_type: "text/javascript; charset=utf-8", text: include_str!("../../web/app.js") };
/// Its style.
pub const STYLE: Asset =
    Asset { media_type: "text/css; charset=utf-8", text: include_str!("../../web/style.css") };

/// An asset as a response.
pub fn asset(asset: Asset) -> Response {
    ([(header::CONTENT_TYPE, asset.media_type)], asset.text).into_response()
}
