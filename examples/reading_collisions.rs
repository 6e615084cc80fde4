//! The share of random small formulas whose reading another, different formula shares, at each
//! verbosity and in each language (issue 19): trees of sums, products, fractions, powers,
//! subscripts and parentheses, as `tests/speak_ambiguity.rs` generates them.
//!
//! `cargo run --release --locked --example reading_collisions [COUNT] [--examples]`

#[path = "../tests/speak_trees/mod.rs"]
mod speak_trees;

use eqmap::speak::Verbosity;
use eqmap::Lang;
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let count = args.iter().find_map(|a| a.parse::<usize>().ok()).unwrap_or(3000);
    let show = args.iter().any(|a| a == "--examples");
    let mut runner = TestRunner::deterministic();
    let strategy = speak_trees::tree();
    let sources: Vec<String> =
        (0..count).filter_map(|_| strategy.new_tree(&mut runner).ok()).map(|t| t.current().latex()).collect();
    let distinct = speak_trees::distinct_trees(&sources);
    println!("{} formulas, {distinct} different trees", sources.len());
    for verbosity in [Verbosity::Brief, Verbosity::Default, Verbosity::Full] {
        for lang in [Lang::Ko, Lang::En] {
            let (colliding, examples) = speak_trees::collisions(&sources, lang, verbosity);
            let share = 100.0 * colliding as f64 / distinct.max(1) as f64;
            println!("{verbosity:?} {lang:?}: {colliding} of {distinct} trees share a reading ({share:.1}%)");
            if show {
                for (a, b, reading) in examples.iter().take(8) {
                    println!("    {a}  |  {b}  →  {reading}");
                }
            }
        }
    }
}
