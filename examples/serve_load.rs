//! A bounded load test of `eqmap serve` on loopback: it starts the server built beside it
//! (`target/release/eqmap`), sends `--requests` map requests of paper formulas over
//! `--connections` keep-alive connections, and reports the answers (200, and 422 for a formula
//! eqmap refuses with its error), errors (any other status, or a broken connection), p50/p99
//! latency, requests per second, the server's resident memory before and after, and `eqmap
//! batch`'s formulas per second on the same formulas in the same order (the server's overhead
//! as a ratio).
//!
//! The formulas are `--formulas FILE` (one a line; blank lines and lines starting with `%`
//! skipped), by default the 770 display formulas of d2l.ai in `../shared/corpus-real/` beside
//! the repository, or, when that file is not there, those of `tests/fixtures/map/*.txt`.
//!
//! ```sh
//! cargo build --release --locked --bin eqmap --example serve_load
//! target/release/examples/serve_load --requests 100000 --connections 64
//! ```

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// The corpus used when no `--formulas` is given, relative to the repository.
const DEFAULT_CORPUS: &str = "../shared/corpus-real/d2l_display.txt";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut requests = 100_000usize;
    let mut connections = 64usize;
    let mut formulas_file: Option<PathBuf> = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let value = args.next().ok_or("a flag needs a value")?;
        match arg.as_str() {
            "--requests" => requests = value.parse()?,
            "--connections" => connections = value.parse::<usize>()?.max(1),
            "--formulas" => formulas_file = Some(PathBuf::from(value)),
            other => return Err(format!("unknown flag {other}").into()),
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let (formulas, source) = match formulas_file {
        Some(file) => (formulas_in(&file)?, file.display().to_string()),
        None => {
            let corpus = root.join(DEFAULT_CORPUS);
            if corpus.is_file() {
                (formulas_in(&corpus)?, DEFAULT_CORPUS.to_string())
            } else {
                eprintln!(
                    "note: {} is not there; using the formulas of tests/fixtures/map instead",
                    corpus.display()
                );
                (fixture_formulas(&root.join("tests/fixtures/map"))?, "tests/fixtures/map".to_string())
            }
        }
    };
    let eqmap = std::env::current_exe()?
        .parent()
        .and_then(Path::parent)
        .map(|dir| dir.join("eqmap"))
        .ok_or("no target directory")?;

    let mut server = Command::new(&eqmap)
        .args(["serve", "--port", "0"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()?;
    let stderr = server.stderr.take().ok_or("no stderr")?;
    let mut lines = BufReader::new(stderr).lines();
    let addr: SocketAddr = loop {
        let line = lines.next().ok_or("the server ended")??;
        if let Some(rest) = line.split("listening on http://").nth(1) {
            break rest.split('/').next().ok_or("no address")?.parse()?;
        }
    };
    std::thread::spawn(move || lines.for_each(drop));
    let pid = server.id();

    let bodies: Vec<Vec<u8>> = formulas
        .iter()
        .map(|formula| {
            let body = serde_json::json!({ "formula": formula, "lang": "ko" }).to_string();
            format!(
                "POST /api/map HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
                body.len()
            )
            .into_bytes()
        })
        .collect();
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build()?;
    // One round of every formula first, so the figures are of a server that has started.
    let warm = runtime.block_on(load(addr, &bodies, bodies.len(), 1))?;
    let rss_before = rss_kib(pid);
    let started = Instant::now();
    let mut timed = runtime.block_on(load(addr, &bodies, requests, connections))?;
    let elapsed = started.elapsed();
    let rss_after = rss_kib(pid);
    // The same load again, untimed: memory that stays flat is the same after it.
    let again = runtime.block_on(load(addr, &bodies, requests, connections))?;
    let rss_again = rss_kib(pid);
    let _ = Command::new("kill").args(["-INT", &pid.to_string()]).status();
    let _ = server.wait();

    timed.latencies.sort_unstable();
    let latencies = &timed.latencies;
    let percentile = |p: f64| {
        let index = ((latencies.len() as f64 * p).ceil() as usize).saturating_sub(1);
        latencies.get(index).copied().unwrap_or(0) as f64 / 1000.0
    };
    let per_second = requests as f64 / elapsed.as_secs_f64();

    // `eqmap batch` on the same formulas, as many of them, in the same order.
    let list = std::env::temp_dir().join(format!("eqmap-serve-load-{}.txt", std::process::id()));
    let mut text = String::new();
    for index in 0..requests {
        text.push_str(formulas.get(index % formulas.len()).map_or("", String::as_str));
        text.push('\n');
    }
    std::fs::write(&list, text)?;
    let batch_started = Instant::now();
    let status = Command::new(&eqmap)
        .arg("batch")
        .arg(&list)
        .args(["--lang", "ko", "--out", "/dev/null", "--summary", "/dev/null"])
        .status()?;
    let batch_elapsed = batch_started.elapsed();
    let _ = std::fs::remove_file(&list);
    if !status.success() {
        return Err("eqmap batch failed".into());
    }
    let batch_per_second = requests as f64 / batch_elapsed.as_secs_f64();

    println!("formulas: {} from {source}, cycled", formulas.len());
    println!("requests: {requests} over {connections} connections in {:.2} s", elapsed.as_secs_f64());
    println!(
        "answers: {} ok (200), {} formula errors (422: eqmap's error for the formula)",
        timed.ok, timed.formula_errors
    );
    println!(
        "errors: {} (other status {}, broken connection {}); warm-up round {}, untimed load again {} (its formula errors {})",
        timed.errors(),
        timed.other_status,
        timed.broken,
        warm.errors(),
        again.errors(),
        again.formula_errors
    );
    println!(
        "latency: p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        percentile(0.5),
        percentile(0.99),
        percentile(1.0)
    );
    println!("server: {per_second:.0} requests/s");
    println!("eqmap batch: {batch_per_second:.0} formulas/s ({:.2} s)", batch_elapsed.as_secs_f64());
    println!("ratio server/batch: {:.2}", per_second / batch_per_second);
    println!(
        "server RSS: {} KiB before, {} KiB after, {} KiB after the same load again",
        rss_before.unwrap_or(0),
        rss_after.unwrap_or(0),
        rss_again.unwrap_or(0)
    );
    let errors = warm.errors() + timed.errors() + again.errors();
    if errors > 0 {
        return Err(format!("{errors} requests failed").into());
    }
    if timed.answered() != requests || again.answered() != requests {
        return Err("the answers do not add up to the requests".into());
    }
    Ok(())
}

/// The formulas of `file`, one a line, without blank lines and lines starting with `%`.
fn formulas_in(file: &Path) -> Result<Vec<String>, Box<dyn std::error::Error>> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let formulas: Vec<String> = text
        .lines()
        .filter(|line| !line.trim().is_empty() && !line.trim_start().starts_with('%'))
        .map(str::to_string)
        .collect();
    if formulas.is_empty() {
        return Err(format!("no formulas in {}", file.display()).into());
    }
    Ok(formulas)
}

/// The formulas of every `.txt` file in `dir`, one a line, the files in name order.
fn fixture_formulas(dir: &Path) -> Result<Vec<String>, Box<dyn std::error::Error>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    let mut formulas = Vec::new();
    for file in files {
        formulas.extend(formulas_in(&file)?);
    }
    Ok(formulas)
}

/// The resident memory of process `pid`, in KiB.
fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// What a load got back: the latency of each answer in microseconds, and the answers by kind.
#[derive(Debug, Default)]
struct Tally {
    latencies: Vec<u64>,
    /// 200.
    ok: usize,
    /// 422: the formula's own error, a legitimate answer.
    formula_errors: usize,
    /// Any other status.
    other_status: usize,
    /// Requests whose connection broke (refused, closed, timed out, unreadable answer).
    broken: usize,
}

impl Tally {
    fn errors(&self) -> usize {
        self.other_status + self.broken
    }

    fn answered(&self) -> usize {
        self.ok + self.formula_errors + self.errors()
    }

    fn add(&mut self, other: Tally) {
        self.latencies.extend(other.latencies);
        self.ok += other.ok;
        self.formula_errors += other.formula_errors;
        self.other_status += other.other_status;
        self.broken += other.broken;
    }
}

/// Sends `total` requests (cycling through `bodies`) over `connections` keep-alive
/// connections.
async fn load(
    addr: SocketAddr,
    bodies: &[Vec<u8>],
    total: usize,
    connections: usize,
) -> Result<Tally, Box<dyn std::error::Error>> {
    let bodies = Arc::new(bodies.to_vec());
    let next = Arc::new(AtomicUsize::new(0));
    let mut tasks = Vec::new();
    for _ in 0..connections {
        let (bodies, next) = (Arc::clone(&bodies), Arc::clone(&next));
        tasks.push(tokio::spawn(async move { connection(addr, &bodies, &next, total).await }));
    }
    let mut tally = Tally { latencies: Vec::with_capacity(total), ..Tally::default() };
    for task in tasks {
        tally.add(task.await?);
    }
    Ok(tally)
}

/// One client connection taking requests from `next` until `total`; a connection that breaks
/// counts its request as broken and is opened again for the next one.
async fn connection(addr: SocketAddr, bodies: &[Vec<u8>], next: &AtomicUsize, total: usize) -> Tally {
    let mut tally = Tally::default();
    let mut stream: Option<tokio::net::TcpStream> = None;
    let mut buffer = Vec::with_capacity(1 << 16);
    loop {
        let index = next.fetch_add(1, Ordering::Relaxed);
        if index >= total {
            return tally;
        }
        let request = bodies.get(index % bodies.len()).map_or(&[][..], Vec::as_slice);
        let started = Instant::now();
        let status = match exchange(&mut stream, addr, request, &mut buffer).await {
            Ok(status) => status,
            Err(_) => {
                tally.broken += 1;
                stream = None;
                buffer.clear();
                continue;
            }
        };
        tally.latencies.push(started.elapsed().as_micros() as u64);
        match status {
            200 => tally.ok += 1,
            422 => tally.formula_errors += 1,
            _ => tally.other_status += 1,
        }
    }
}

/// Sends one request on `stream` (connecting first when there is none) and reads its answer.
async fn exchange(
    stream: &mut Option<tokio::net::TcpStream>,
    addr: SocketAddr,
    request: &[u8],
    buffer: &mut Vec<u8>,
) -> std::io::Result<u16> {
    let open = match stream {
        Some(open) => open,
        None => {
            let fresh = tokio::net::TcpStream::connect(addr).await?;
            fresh.set_nodelay(true)?;
            stream.insert(fresh)
        }
    };
    open.write_all(request).await?;
    read_answer(open, buffer).await
}

/// Reads one answer (head and `Content-Length` body) and returns its status.
async fn read_answer(stream: &mut tokio::net::TcpStream, buffer: &mut Vec<u8>) -> std::io::Result<u16> {
    let bad = |what: &str| std::io::Error::new(std::io::ErrorKind::InvalidData, what.to_string());
    let deadline = Duration::from_secs(30);
    let mut chunk = [0u8; 1 << 16];
    loop {
        if let Some(end) = buffer.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&buffer[..end]).to_string();
            let status =
                head.split_whitespace().nth(1).and_then(|s| s.parse().ok()).ok_or_else(|| bad("status"))?;
            let length: usize = head
                .lines()
                .find_map(|l| {
                    l.to_ascii_lowercase().strip_prefix("content-length:").map(|v| v.trim().to_string())
                })
                .and_then(|v| v.parse().ok())
                .ok_or_else(|| bad("content-length"))?;
            let whole = end + 4 + length;
            while buffer.len() < whole {
                let n = tokio::time::timeout(deadline, stream.read(&mut chunk)).await??;
                if n == 0 {
                    return Err(bad("closed mid-body"));
                }
                buffer.extend_from_slice(&chunk[..n]);
            }
            buffer.drain(..whole);
            return Ok(status);
        }
        let n = tokio::time::timeout(deadline, stream.read(&mut chunk)).await??;
        if n == 0 {
            return Err(bad("closed"));
        }
        buffer.extend_from_slice(&chunk[..n]);
    }
}
