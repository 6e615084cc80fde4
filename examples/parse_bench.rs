//! Parse throughput over a file of one formula a line (a benchmark, not a test).
//!
//! ```text
//! cargo build --release --locked --example parse_bench
//! target/release/examples/parse_bench [--rounds N] [--limit L] [FILE]
//! ```
//!
//! FILE defaults to `../shared/corpus-real/im2latex100k_norm_test_val.txt` (relative to the repo
//! root). All lines are read into memory first (empty lines are skipped); then each of N rounds
//! (default 1) parses every line with `eqmap::parse`, timed with `std::time::Instant`, and prints
//! one machine-readable line:
//!
//! ```text
//! eqmap round=1 formulas=17902 ok=17902 err=0 bytes=2761992 seconds=0.410000 formulas_per_s=43663 mb_per_s=6.736
//! ```
//!
//! `bytes` counts the UTF-8 bytes of the formulas parsed (newlines not included), MB = 10^6 bytes.
//! `--limit L` keeps only the first L formulas (for profiling under callgrind).
//! `benches/katex_parse.mjs` prints the same format for KaTeX; `benches/run-parse-bench.sh`
//! alternates the two on one core.

use std::hint::black_box;

/// The allocator the `eqmap` binary uses (src/main.rs), so that this measures parsing as the
/// command parses.
#[global_allocator]
static ALLOCATOR: eqmap::alloc::Allocator = eqmap::alloc::Allocator;
use std::time::Instant;

const DEFAULT_FILE: &str = "../shared/corpus-real/im2latex100k_norm_test_val.txt";

fn usage() -> ! {
    eprintln!("usage: parse_bench [--rounds N] [--limit L] [FILE]");
    std::process::exit(2);
}

fn number(value: Option<String>) -> usize {
    value.and_then(|v| v.parse().ok()).unwrap_or_else(|| usage())
}

fn main() {
    let mut rounds = 1usize;
    let mut limit = usize::MAX;
    let mut path = DEFAULT_FILE.to_string();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--rounds" | "-n" => rounds = number(args.next()),
            "--limit" => limit = number(args.next()),
            "-h" | "--help" => usage(),
            _ if arg.starts_with('-') => usage(),
            _ => path = arg,
        }
    }

    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        eprintln!("parse_bench: cannot read {path}: {e}");
        std::process::exit(1);
    });
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).take(limit).collect();
    let bytes: usize = lines.iter().map(|l| l.len()).sum();

    for round in 1..=rounds {
        let mut ok = 0usize;
        let mut err = 0usize;
        let start = Instant::now();
        for line in &lines {
            match eqmap::parse(black_box(line)) {
                Ok(parsed) => {
                    black_box(&parsed);
                    ok += 1;
                }
                Err(error) => {
                    black_box(&error);
                    err += 1;
                }
            }
        }
        let seconds = start.elapsed().as_secs_f64();
        println!(
            "eqmap round={round} formulas={} ok={ok} err={err} bytes={bytes} seconds={seconds:.6} \
             formulas_per_s={:.0} mb_per_s={:.3}",
            lines.len(),
            lines.len() as f64 / seconds,
            bytes as f64 / seconds / 1e6,
        );
    }
}
