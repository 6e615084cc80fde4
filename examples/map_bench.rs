//! Throughput of the slot map against parsing alone, on one core, in the same run.
//!
//! `cargo run --release --example map_bench -- [FILE] [ROUNDS]` (default: im2latex-100k beside
//! the repository, 5 rounds). Each round times parsing every line, then parsing and mapping
//! every line (kinds, rules, curriculum), alternating; it prints formulas/s for both and the
//! share of the time annotation adds.

use eqmap::meaning::SymbolTable;
use eqmap::slotmap::{map_tree, Knowledge};
use eqmap::Lang;
use std::time::Instant;

/// The allocator the `eqmap` binary uses (src/main.rs), so that this measures annotation as the
/// command annotates.
#[global_allocator]
static ALLOCATOR: eqmap::alloc::Allocator = eqmap::alloc::Allocator;

fn main() {
    let mut args = std::env::args().skip(1);
    let path =
        args.next().unwrap_or_else(|| "../shared/corpus-real/im2latex100k_norm_test_val.txt".to_string());
    let rounds: usize = args.next().and_then(|r| r.parse().ok()).unwrap_or(5);
    let Ok(text) = std::fs::read_to_string(&path) else { return eprintln!("cannot read {path}") };
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let Ok(knowledge) = Knowledge::default_knowledge() else { return eprintln!("no knowledge") };
    println!("{path}: {} formulas", lines.len());
    println!("round  parse f/s  parse+map f/s  annotation/parse time");
    let mut ratios = Vec::new();
    for round in 1..=rounds {
        let start = Instant::now();
        let parsed: usize = lines.iter().filter(|l| eqmap::parse(l).is_ok()).count();
        let parse = start.elapsed().as_secs_f64();
        let start = Instant::now();
        let mut slots = 0;
        for line in &lines {
            if let Ok(p) = eqmap::parse(line) {
                let table = SymbolTable::from_formula(&p.root);
                slots += map_tree(line, &p.root, p.warnings, &table, &knowledge, Lang::En)
                    .map_or(0, |map| map.slots.len());
            }
        }
        let both = start.elapsed().as_secs_f64();
        let ratio = (both - parse) / parse;
        ratios.push(ratio);
        let n = lines.len() as f64;
        println!(
            "{round:>5}  {:>9.0}  {:>13.0}  {ratio:>6.2}   ({parsed} parsed, {slots} slots)",
            n / parse,
            n / both
        );
    }
    ratios.sort_by(f64::total_cmp);
    println!("median annotation/parse time: {:.2}", ratios[ratios.len() / 2]);
}
