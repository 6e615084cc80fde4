//! Per-kind precision and recall of the meaning layer on the hand-labelled sets, and the
//! confusions: `cargo run --release --example meaning_kinds [FILE.jsonl…]` (default: the
//! development set, the held-out set and the probes of `tests/fixtures/meaning/`). `--misses`
//! lists every symbol whose kind is wrong, with the evidence that decided it, except on the
//! held-out set, which is only scored. `--all` lists every judged symbol of those sets the same
//! way, right or wrong (`=` or `≠` before it).

use eqmap::meaning::score::{read_labelled, score, KINDS};
use std::io::Write;

/// `println!` that stops quietly when the reader has gone (`… | head`).
macro_rules! out {
    ($($arg:tt)*) => {
        if writeln!(std::io::stdout(), $($arg)*).is_err() {
            std::process::exit(0);
        }
    };
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let misses = args.iter().any(|a| a == "--misses");
    let all = args.iter().any(|a| a == "--all");
    let show: Vec<String> = args.iter().filter_map(|a| a.strip_prefix("--show=").map(String::from)).collect();
    let mut files: Vec<String> = args.into_iter().filter(|a| !a.starts_with("--")).collect();
    if files.is_empty() {
        files = ["dev", "heldout", "probes"]
            .iter()
            .map(|f| format!("tests/fixtures/meaning/{f}.jsonl"))
            .collect();
    }
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{file}: {e}"));
        let records = read_labelled(&text).unwrap_or_else(|e| panic!("{file}: {e}"));
        for record in records.iter().filter(|r| show.contains(&r.id)) {
            let Ok(parsed) = eqmap::parse(&record.latex) else { continue };
            let table = eqmap::meaning::SymbolTable::from_formula(&parsed.root);
            let term = eqmap::meaning::resolve(&parsed.root, &table);
            out!("{}: {}\n  {}", record.id, record.latex, eqmap::meaning::outline(&term));
            for entry in eqmap::meaning::symbols(&term, &record.latex) {
                out!("  {} ({}) {:?} {:?}", entry.latex, entry.name, entry.kind, entry.evidence);
            }
        }
        let scores = score(&records);
        out!(
            "{file}: {} formulas, {} symbols, accuracy {:.1}% ({} right)",
            records.len(),
            scores.judged.len(),
            100.0 * scores.accuracy(),
            scores.judged.iter().filter(|j| j.truth == j.predicted).count()
        );
        out!("  {:<16} {:>7} {:>9} {:>7}", "kind", "support", "precision", "recall");
        for kind in KINDS {
            let (p, r) = scores.precision_recall(kind);
            out!("  {kind:<16} {:>7} {:>8.1}% {:>6.1}%", scores.support(kind), 100.0 * p, 100.0 * r);
        }
        let mut confusions: Vec<_> = scores.confusion().into_iter().filter(|((t, p), _)| t != p).collect();
        confusions.sort_by_key(|c| std::cmp::Reverse(c.1));
        out!("  confusions (labelled → eqmap: count):");
        for ((truth, predicted), count) in confusions.iter().take(25) {
            out!("    {truth} → {predicted}: {count}");
        }
        // The held-out set is only scored: its misses are never printed, so that nobody writes
        // rules against it.
        if (misses || all) && !file.ends_with("heldout.jsonl") {
            for j in scores.judged.iter().filter(|j| all || j.truth != j.predicted) {
                let mark = if all && j.truth == j.predicted {
                    "= "
                } else if all {
                    "≠ "
                } else {
                    ""
                };
                out!("    {mark}{}  {}  {} → {}  [{}]", j.id, j.latex, j.truth, j.predicted, j.evidence);
            }
        }
    }
}
