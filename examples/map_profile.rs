//! Profiling harness (not a benchmark): parses FILE once, then maps every tree ROUNDS times, so
//! a profiler sees annotation alone. `cargo run --release --example map_profile -- FILE ROUNDS`
use eqmap::meaning::SymbolTable;
use eqmap::slotmap::{map_tree, Knowledge};
use eqmap::Lang;

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().unwrap_or_else(|| "/tmp/im2k.txt".to_string());
    let rounds: usize = args.next().and_then(|r| r.parse().ok()).unwrap_or(10);
    let Ok(text) = std::fs::read_to_string(&path) else { return eprintln!("cannot read {path}") };
    let Ok(knowledge) = Knowledge::default_knowledge() else { return eprintln!("no knowledge") };
    let parsed: Vec<_> = text.lines().filter_map(|l| eqmap::parse(l).ok().map(|p| (l, p))).collect();
    let mut slots = 0;
    for _ in 0..rounds {
        for (line, p) in &parsed {
            let table = SymbolTable::from_formula(&p.root);
            slots += map_tree(line, &p.root, p.warnings.clone(), &table, &knowledge, Lang::En)
                .map_or(0, |map| map.slots.len());
        }
    }
    println!("{slots} slots");
}
