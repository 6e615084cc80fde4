//! The routes of `eqmap serve` and what every request goes through: the `Host` check (on
//! loopback, only a loopback name, against DNS rebinding), the body read within its size and
//! time limits, the JSON checked, the work on a blocking thread within a deadline, and the
//! headers every answer carries.

use super::api::{self, Answer, Body, Endpoint};
use super::page;
use axum::body::Body as HttpBody;
use axum::extract::{Request, State as Shared};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post, MethodRouter};
use axum::Router;
use http_body_util::{BodyExt, LengthLimitError, Limited};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What every request handler shares.
pub struct State {
    /// The shipped curricula, loaded once.
    pub curricula: api::Curricula,
    /// Permits for work on blocking threads: a bounded number of formulas at once.
    pub work: Arc<tokio::sync::Semaphore>,
    /// The deadline for a request's body to arrive, and again for its answer to be worked out.
    pub timeout: Duration,
    /// The largest body accepted, in bytes.
    pub max_body: usize,
    /// Whether the server listens on loopback only (then the `Host` must be a loopback name).
    pub loopback: bool,
}

/// The Content-Security-Policy of every answer: the page's own script, style and API, nothing
/// inline, nothing from elsewhere.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
     connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// The router: the page, its assets and the API.
pub fn router(state: Arc<State>) -> Router {
    Router::new()
        .route("/", get(|| async { page::asset(page::INDEX) }))
        .route("/app.js", get(|| async { page::asset(page::SCRIPT) }))
        .route("/style.css", get(|| async { page::asset(page::STYLE) }))
        .route("/favicon.ico", get(|| async { StatusCode::NO_CONTENT }))
        .route("/api/map", endpoint(Endpoint::Map))
        .route("/api/read", endpoint(Endpoint::Read))
        .route("/api/eval", endpoint(Endpoint::Eval))
        .route("/api/parse", endpoint(Endpoint::Parse))
        .route("/api/compare", endpoint(Endpoint::Compare))
        .route("/api/curriculum", endpoint(Endpoint::Curriculum))
        .fallback(|| async {
            json(api::request_error(404, "not_found", "no such page / 없는 주소입니다"))
        })
        .layer(middleware::from_fn_with_state(Arc::clone(&state), guard))
        .with_state(state)
}

/// `POST` for an API endpoint; another method is a 405 in JSON.
fn endpoint(endpoint: Endpoint) -> MethodRouter<Arc<State>> {
    post(move |state: Shared<Arc<State>>, request: Request| handle(state, endpoint, request)).fallback(
        || async {
            let mut response =
                json(api::request_error(405, "method_not_allowed", "POST only / POST만 받습니다"));
            response.headers_mut().insert(header::ALLOW, HeaderValue::from_static("POST"));
            response
        },
    )
}

/// Refuses a foreign `Host` on loopback, and sets the security headers on every answer.
async fn guard(Shared(state): Shared<Arc<State>>, request: Request, next: Next) -> Response {
    let mut response = if state.loopback && !loopback_host(request.headers()) {
        json(api::request_error(
            403,
            "forbidden_host",
            "the Host is not a loopback name / 루프백 주소가 아닙니다",
        ))
    } else {
        next.run(request).await
    };
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CONTENT_SECURITY_POLICY));
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// Whether the `Host` header names loopback (`localhost`, `127.0.0.1`, `[::1]`, any port).
fn loopback_host(headers: &HeaderMap) -> bool {
    let Some(host) = headers.get(header::HOST).and_then(|v| v.to_str().ok()) else { return false };
    let name = match host.strip_prefix('[') {
        Some(rest) => rest.split(']').next().unwrap_or(""),
        None => host.split(':').next().unwrap_or(""),
    };
    name.eq_ignore_ascii_case("localhost")
        || name.parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

/// An answer as an HTTP response.
pub fn json(answer: Answer) -> Response {
    let status = StatusCode::from_u16(answer.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    (status, [(header::CONTENT_TYPE, "application/json; charset=utf-8")], answer.body).into_response()
}

/// The language for a request error before the body is read: English when the browser's
/// first choice is English, else Korean.
fn header_lang(headers: &HeaderMap) -> eqmap::Lang {
    let first = headers.get(header::ACCEPT_LANGUAGE).and_then(|v| v.to_str().ok()).unwrap_or("");
    if first.trim_start().to_ascii_lowercase().starts_with("en") {
        eqmap::Lang::En
    } else {
        eqmap::Lang::Ko
    }
}

async fn handle(Shared(state): Shared<Arc<State>>, endpoint: Endpoint, request: Request) -> Response {
    let started = Instant::now();
    let lang = header_lang(request.headers());
    let body = match read_body(&state, request, lang).await {
        Ok(body) => body,
        Err(answer) => return json(answer),
    };
    let late = || {
        json(api::request_error(
            503,
            "timeout",
            lang.pick("시간 안에 답하지 못했습니다; 다시 해 보세요", "not answered in time; try again"),
        ))
    };
    let remaining = state.timeout.saturating_sub(started.elapsed());
    let Ok(Ok(permit)) = tokio::time::timeout(remaining, Arc::clone(&state.work).acquire_owned()).await
    else {
        return late();
    };
    let shared = Arc::clone(&state);
    let work = tokio::task::spawn_blocking(move || {
        let answer = api::answer(endpoint, &body, &shared.curricula);
        drop(permit);
        answer
    });
    match tokio::time::timeout(state.timeout, work).await {
        Ok(Ok(answer)) => json(answer),
        Ok(Err(_)) => {
            json(api::request_error(500, "internal", "eqmap failed on this request (a bug) / 내부 오류"))
        }
        Err(_) => late(),
    }
}

/// The request's body as [`Body`], read within the size and time limits, or the 4xx answer.
async fn read_body(state: &State, request: Request, lang: eqmap::Lang) -> Result<Body, Answer> {
    let too_large = || {
        let limit = state.max_body;
        api::request_error(
            413,
            "too_large",
            &match lang {
                eqmap::Lang::Ko => format!("본문이 {limit}바이트보다 큽니다"),
                eqmap::Lang::En => format!("the body is larger than {limit} bytes"),
            },
        )
    };
    let headers = request.headers();
    let content_type = headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or("");
    if !content_type.trim_start().to_ascii_lowercase().starts_with("application/json") {
        return Err(api::request_error(
            415,
            "unsupported_media_type",
            lang.pick(
                "Content-Type: application/json으로 보내 주세요",
                "send Content-Type: application/json",
            ),
        ));
    }
    let declared = headers.get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
    if declared.is_some_and(|length| length > state.max_body as u64) {
        return Err(too_large());
    }
    let limited: Limited<HttpBody> = Limited::new(request.into_body(), state.max_body);
    let bytes = match tokio::time::timeout(state.timeout, limited.collect()).await {
        Err(_) => {
            let message = lang.pick("본문이 제시간에 오지 않았습니다", "the body did not arrive in time");
            return Err(api::request_error(408, "timeout", message));
        }
        Ok(Err(error)) if error.downcast_ref::<LengthLimitError>().is_some() => return Err(too_large()),
        Ok(Err(_)) => {
            let message = lang.pick("본문을 읽지 못했습니다", "the body could not be read");
            return Err(api::request_error(400, "bad_body", message));
        }
        Ok(Ok(collected)) => collected.to_bytes(),
    };
    let text = std::str::from_utf8(&bytes).map_err(|error| {
        let at = error.valid_up_to();
        api::request_error(
            400,
            "invalid_utf8",
            &match lang {
                eqmap::Lang::Ko => format!("본문이 UTF-8이 아닙니다: {at}번째 바이트"),
                eqmap::Lang::En => format!("the body is not UTF-8: at byte {at}"),
            },
        )
    })?;
    serde_json::from_str::<Body>(text).map_err(|error| {
        let kind = if error.is_data() { "bad_option" } else { "invalid_json" };
        let message = match lang {
            eqmap::Lang::Ko => format!("본문의 JSON이 잘못되었습니다: {error}"),
            eqmap::Lang::En => format!("the body is not the JSON expected: {error}"),
        };
        api::request_error(400, kind, &message)
    })
}
