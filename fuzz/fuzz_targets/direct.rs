//! The direct reader (the parser's fast path) reads any text as the pest grammar does: wherever
//! it gives a tree, that tree, its spans and its warnings are the grammar's.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(source) = std::str::from_utf8(data) else { return };
    let limits = eqmap::Limits::default();
    let Some(direct) = eqmap::syntax::read_directly(source, &limits) else { return };
    let grammar = eqmap::syntax::parse_with_grammar_only(source, &limits);
    let (direct, grammar) = (format!("{direct:?}"), format!("{grammar:?}"));
    assert!(grammar == format!("Ok({direct})"), "{source:?}\n direct: {direct}\ngrammar: {grammar}");
});
