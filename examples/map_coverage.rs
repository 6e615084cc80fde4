//! Slot-map coverage over files of one formula a line.
//!
//! `cargo run --release --example map_coverage -- [FILE...]` (default:
//! `../shared/corpus-real/d2l_display.txt`). Prints the share of formulas with at least one
//! known slot and the share with no unknown-notation row at all, how often each rule fires, and
//! the most frequent notations no rule knows.

use eqmap::slotmap::{map_source, Knowledge};
use eqmap::Lang;
use std::collections::HashMap;

fn main() {
    let mut paths: Vec<String> = std::env::args().skip(1).collect();
    if paths.is_empty() {
        paths.push("../shared/corpus-real/d2l_display.txt".to_string());
    }
    let knowledge = match Knowledge::default_knowledge() {
        Ok(knowledge) => knowledge,
        Err(error) => return eprintln!("{error}"),
    };
    for path in paths {
        let Ok(text) = std::fs::read_to_string(&path) else {
            eprintln!("cannot read {path}");
            continue;
        };
        let (mut total, mut parsed, mut known, mut fully) = (0, 0, 0, 0);
        let mut unknown: HashMap<String, usize> = HashMap::new();
        let mut concepts: HashMap<String, usize> = HashMap::new();
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            total += 1;
            let Ok(map) = map_source(line, &knowledge, Lang::En) else { continue };
            parsed += 1;
            if map.has_known_slot() {
                known += 1;
            }
            if map.unknown_notation().next().is_none() {
                fully += 1;
            }
            for notation in map.unknown_notation() {
                *unknown.entry(notation.chars().take(40).collect()).or_default() += 1;
            }
            for concept in
                map.slots.iter().flat_map(|s| s.explanation.concepts.iter()).filter(|c| *c != "unknown")
            {
                *concepts.entry(concept.clone()).or_default() += 1;
            }
        }
        let share = 100.0 * known as f64 / total.max(1) as f64;
        println!(
            "{path}: {known}/{total} formulas have at least one known slot ({share:.1}%); {parsed} parsed"
        );
        let full_share = 100.0 * fully as f64 / total.max(1) as f64;
        println!("  {fully}/{total} formulas have no unknown-notation row ({full_share:.1}%)");
        print_top("most frequent concepts", concepts, 15);
        print_top("most frequent notations no rule knows", unknown, 25);
    }
}

fn print_top(title: &str, counts: HashMap<String, usize>, n: usize) {
    let mut ranked: Vec<(String, usize)> = counts.into_iter().collect();
    ranked.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    println!("  {title}:");
    for (name, count) in ranked.into_iter().take(n) {
        println!("    {count:>5}  {name}");
    }
}
