//! A bounded load test of `eqmap serve` on loopback: it starts the server built beside it
//! (`target/release/eqmap`), sends `--requests` map requests of the paper formulas in
//! `tests/fixtures/map/*.txt` over `--connections` keep-alive connections, and reports errors,
//! p50/p99 latency, requests per second, the server's resident memory before and after, and
//! `eqmap batch`'s formulas per second on the same formulas (the server's overhead as a ratio).
//!
//! ```sh
//! cargo build --release --locked && cargo run --release --locked --example serve_load -- --requests 100000 --connections 64
//! ```

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut requests = 100_000usize;
    let mut connections = 64usize;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let value = args.next().ok_or("a flag needs a value")?;
        match arg.as_str() {
            "--requests" => requests = value.parse()?,
            "--connections" => connections = value.parse()?,
            other => return Err(format!("unknown flag {other}").into()),
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let formulas = fixture_formulas(&root.join("tests/fixtures/map"))?;
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
            let body = serde_json::json!({ "formula": formula }).to_string();
            format!(
                "POST /api/map HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
                body.len()
            )
            .into_bytes()
        })
        .collect();
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build()?;
    // One round of every formula first, so the figures are of a server that has started.
    runtime.block_on(load(addr, &bodies, bodies.len(), 1))?;
    let rss_before = rss_kib(pid);
    let started = Instant::now();
    let (mut latencies, errors) = runtime.block_on(load(addr, &bodies, requests, connections))?;
    let elapsed = started.elapsed();
    let rss_after = rss_kib(pid);
    // The same load again, untimed: memory that stays flat is the same after it.
    let (_, errors_again) = runtime.block_on(load(addr, &bodies, requests, connections))?;
    let rss_again = rss_kib(pid);
    let errors = errors + errors_again;
    let _ = Command::new("kill").args(["-INT", &pid.to_string()]).status();
    let _ = server.wait();

    latencies.sort_unstable();
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
        .args(["--out", "/dev/null", "--summary", "/dev/null"])
        .status()?;
    let batch_elapsed = batch_started.elapsed();
    let _ = std::fs::remove_file(&list);
    if !status.success() {
        return Err("eqmap batch failed".into());
    }
    let batch_per_second = requests as f64 / batch_elapsed.as_secs_f64();

    println!("formulas: {} from tests/fixtures/map, cycled", formulas.len());
    println!("requests: {requests} over {connections} connections in {:.2} s", elapsed.as_secs_f64());
    println!("errors: {errors} (over both loads)");
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
    if errors > 0 {
        return Err(format!("{errors} requests failed").into());
    }
    Ok(())
}

/// The formulas of every `.txt` file in `dir`, one a line.
fn fixture_formulas(dir: &Path) -> Result<Vec<String>, Box<dyn std::error::Error>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    let mut formulas = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file)?;
        formulas.extend(text.lines().filter(|l| !l.trim().is_empty()).map(str::to_string));
    }
    if formulas.is_empty() {
        return Err("no formulas in tests/fixtures/map".into());
    }
    Ok(formulas)
}

/// The resident memory of process `pid`, in KiB.
fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Sends `total` requests (cycling through `bodies`) over `connections` keep-alive
/// connections; the latency of each in microseconds, and the count of answers that were not 200.
async fn load(
    addr: SocketAddr,
    bodies: &[Vec<u8>],
    total: usize,
    connections: usize,
) -> Result<(Vec<u64>, usize), Box<dyn std::error::Error>> {
    let bodies = Arc::new(bodies.to_vec());
    let next = Arc::new(AtomicUsize::new(0));
    let mut tasks = Vec::new();
    for _ in 0..connections {
        let (bodies, next) = (Arc::clone(&bodies), Arc::clone(&next));
        tasks.push(tokio::spawn(async move { connection(addr, &bodies, &next, total).await }));
    }
    let mut latencies = Vec::with_capacity(total);
    let mut errors = 0;
    for task in tasks {
        let (mine, failed) = task.await?.map_err(|e| e.to_string())?;
        latencies.extend(mine);
        errors += failed;
    }
    Ok((latencies, errors))
}

async fn connection(
    addr: SocketAddr,
    bodies: &[Vec<u8>],
    next: &AtomicUsize,
    total: usize,
) -> std::io::Result<(Vec<u64>, usize)> {
    let mut stream = tokio::net::TcpStream::connect(addr).await?;
    stream.set_nodelay(true)?;
    let mut latencies = Vec::new();
    let mut errors = 0;
    let mut buffer = Vec::with_capacity(1 << 16);
    loop {
        let index = next.fetch_add(1, Ordering::Relaxed);
        if index >= total {
            return Ok((latencies, errors));
        }
        let request = bodies.get(index % bodies.len()).map_or(&[][..], Vec::as_slice);
        let started = Instant::now();
        stream.write_all(request).await?;
        let status = read_answer(&mut stream, &mut buffer).await?;
        latencies.push(started.elapsed().as_micros() as u64);
        if status != 200 {
            errors += 1;
        }
    }
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
