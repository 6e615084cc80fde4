//! The direct reader (the parser's fast path) reads any text as the pest grammar does: wherever
//! it gives a tree, that tree, its spans and its warnings are the grammar's. Where pest runs
//! out of steps and the direct reader does not (bars in nested groups, which the direct reader
//! remembers and pest retries), pest gets up to 20 M steps to show its tree; past that the
//! input is not checked.
#![no_main]

use eqmap::syntax::error::ParseErrorKind;
use libfuzzer_sys::fuzz_target;

fn too_complex(result: &Result<eqmap::Parsed, eqmap::syntax::error::ParseError>) -> bool {
    matches!(result, Err(error) if matches!(error.kind, ParseErrorKind::TooComplex { .. }))
}

fuzz_target!(|data: &[u8]| {
    let Ok(source) = std::str::from_utf8(data) else { return };
    let limits = eqmap::Limits::default();
    let Some(direct) = eqmap::syntax::read_directly(source, &limits) else { return };
    let mut grammar = eqmap::syntax::parse_with_grammar_only(source, &limits);
    if too_complex(&grammar) {
        let patient = eqmap::Limits { max_steps: 20_000_000, ..limits };
        grammar = eqmap::syntax::parse_with_grammar_only(source, &patient);
        if too_complex(&grammar) {
            return;
        }
    }
    let (direct, grammar) = (format!("{direct:?}"), format!("{grammar:?}"));
    assert!(grammar == format!("Ok({direct})"), "{source:?}\n direct: {direct}\ngrammar: {grammar}");
});
