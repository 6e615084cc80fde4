//! Prints where the direct reader and the pest grammar disagree on the formula in FILE (a fuzz
//! artifact): `cargo run --release --example direct_diff -- FILE`.
fn main() {
    let path = std::env::args().nth(1).unwrap_or_default();
    let source = std::fs::read_to_string(&path).unwrap_or_default();
    let limits = eqmap::Limits::default();
    let direct = format!("{:?}", eqmap::syntax::read_directly(&source, &limits));
    let grammar = format!("{:?}", eqmap::syntax::parse_with_grammar_only(&source, &limits).ok());
    let same = direct.bytes().zip(grammar.bytes()).take_while(|(a, b)| a == b).count();
    let from = same.saturating_sub(400);
    println!("{source:?}\nfirst difference at {same}");
    println!(" direct: …{}", direct.get(from..(same + 200).min(direct.len())).unwrap_or(""));
    println!("grammar: …{}", grammar.get(from..(same + 200).min(grammar.len())).unwrap_or(""));
}
