//! `eqmap serve` (binary only): the slot map as a local web page and a JSON API, beside the
//! command line. It calls the library as `main.rs` does and answers with the CLI's JSON.
//!
//! - [`http`]: the routes, the request body read within its limits, the headers every answer
//!   carries (a Content-Security-Policy that allows only the page's own assets).
//! - [`api`]: a body → the library call → the CLI's `--format json` output, or a JSON error.
//! - [`page`]: the page's files, embedded in the binary (it works with no network).
//!
//! Connections are served by hyper on tokio with a deadline on every request's head and body;
//! the work of each request runs on a blocking thread (with the deep stack the tree walks
//! need), a bounded number at once, each within a deadline; Ctrl-C (or SIGTERM) stops
//! accepting and lets open requests finish.
//!
//! It handles untrusted input (any request from the network), so it may not unwrap, expect,
//! panic or index.

#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

pub mod api;
pub mod http;
pub mod page;

use crate::cli::ServeArgs;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::io;
use std::net::{IpAddr, SocketAddr, ToSocketAddrs};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

/// The most connections served at once; past it, new ones are closed at once.
const MAX_CONNECTIONS: usize = 1024;

/// How long open requests get to finish after Ctrl-C.
const GRACE: Duration = Duration::from_secs(5);

/// Runs the server until Ctrl-C or SIGTERM.
pub fn run(args: ServeArgs) -> io::Result<ExitCode> {
    let addr = match address(&args.host, args.port) {
        Ok(addr) => addr,
        Err(message) => {
            eprintln!("eqmap: {message}");
            return Ok(ExitCode::from(2));
        }
    };
    if !addr.ip().is_loopback() {
        eprintln!(
            "eqmap serve: warning: listening on {} opens the server to the network; anyone who can reach it can use it / 경고: 네트워크에 열립니다",
            addr.ip()
        );
    }
    let curricula = match (crate::load_knowledge("ai-math"), crate::load_knowledge("transformer-series")) {
        (Ok(ai_math), Ok(transformer_series)) => {
            api::Curricula { ai_math: Arc::new(ai_math), transformer_series: Arc::new(transformer_series) }
        }
        (Err(message), _) | (_, Err(message)) => {
            eprintln!("eqmap: {message}");
            return Ok(ExitCode::from(2));
        }
    };
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(cores)
        .max_blocking_threads(4 * cores + 4)
        .thread_stack_size(crate::work_stack_bytes(eqmap::syntax::depth::DEFAULT_MAX_DEPTH))
        .enable_all()
        .build()?;
    let timeout = Duration::from_millis(args.timeout_ms.max(1));
    let state = Arc::new(http::State {
        curricula,
        work: Arc::new(tokio::sync::Semaphore::new(2 * cores)),
        timeout,
        max_body: args.max_body,
        loopback: addr.ip().is_loopback(),
    });
    runtime.block_on(serve(addr, state, args.open))
}

/// The socket address of `host` (an IP address or a name such as `localhost`) and `port`.
fn address(host: &str, port: u16) -> Result<SocketAddr, String> {
    if let Ok(ip) = host.trim_matches(['[', ']']).parse::<IpAddr>() {
        return Ok(SocketAddr::new(ip, port));
    }
    (host, port)
        .to_socket_addrs()
        .map_err(|e| format!("--host {host}: {e}"))?
        .next()
        .ok_or_else(|| format!("--host {host}: no address"))
}

async fn serve(addr: SocketAddr, state: Arc<http::State>, open: bool) -> io::Result<ExitCode> {
    let listener = match tokio::net::TcpListener::bind(addr).await {
        Ok(listener) => listener,
        Err(error) => {
            eprintln!("eqmap serve: cannot listen on {addr}: {error}");
            return Ok(ExitCode::from(2));
        }
    };
    let local = listener.local_addr()?;
    let url = format!("http://{local}/");
    eprintln!("eqmap serve: listening on {url} (Ctrl-C stops)");
    if open {
        open_browser(&url);
    }
    let router = http::router(Arc::clone(&state));
    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    let connections = Arc::new(tokio::sync::Semaphore::new(MAX_CONNECTIONS));
    let mut stop = std::pin::pin!(stop_signal());
    loop {
        tokio::select! {
            accepted = listener.accept() => {
                let Ok((stream, _)) = accepted else {
                    // Out of descriptors, or a connection reset before it was accepted: wait
                    // a moment rather than spin.
                    tokio::time::sleep(Duration::from_millis(10)).await;
                    continue;
                };
                let Ok(permit) = Arc::clone(&connections).try_acquire_owned() else { continue };
                let _ = stream.set_nodelay(true);
                let service = hyper_util::service::TowerToHyperService::new(router.clone());
                let mut builder = hyper::server::conn::http1::Builder::new();
                builder.timer(TokioTimer::new()).header_read_timeout(state.timeout).max_buf_size(64 * 1024);
                let connection = graceful.watch(builder.serve_connection(TokioIo::new(stream), service));
                tokio::spawn(async move {
                    let _ = connection.await;
                    drop(permit);
                });
            }
            () = &mut stop => break,
        }
    }
    drop(listener);
    eprintln!("eqmap serve: stopping / 멈춥니다");
    tokio::select! {
        () = graceful.shutdown() => {}
        () = tokio::time::sleep(GRACE) => {}
    }
    Ok(ExitCode::SUCCESS)
}

/// Resolves on Ctrl-C (SIGINT) or, on Unix, SIGTERM.
async fn stop_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = tokio::signal::ctrl_c() => {}
                    _ = term.recv() => {}
                }
            }
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// Opens `url` in the desktop's browser; failing that, says so (the server keeps running).
fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    let spawned = std::process::Command::new(opener)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    if let Err(error) = spawned {
        eprintln!("eqmap serve: cannot open a browser ({opener}: {error}); open {url} yourself");
    }
}
