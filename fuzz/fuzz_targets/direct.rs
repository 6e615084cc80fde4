//! The direct reader (the parser's fast path) reads any text as the pest grammar does: wherever
//! it gives a tree, that tree, its spans and its warnings are the grammar's. Where pest runs
//! out of steps and the direct reader does not (bars in nested groups, which the direct reader
//! remembers and pest retries), pest gets up to 20 M steps to show its tree; past that the
//! input is not checked. And `parse`, which lets the direct reader go before the pre-scan where
//! counting bounds the nesting, answers as the pre-scan first would.
#![no_main]

use eqmap::syntax::error::ParseErrorKind;
use libfuzzer_sys::fuzz_target;

fn too_complex(result: &Result<eqmap::Parsed, eqmap::syntax::error::ParseError>) -> bool {
    matches!(result, Err(error) if matches!(error.kind, ParseErrorKind::TooComplex { .. }))
}

fuzz_target!(|data: &[u8]| {
    let Ok(source) = std::str::from_utf8(data) else { return };
    let limits = eqmap::Limits::default();
    let direct = eqmap::syntax::read_directly(source, &limits);
    // `parse` lets the direct reader go before the pre-scan where counting bounds the nesting:
    // it answers as the pre-scan first would, tree or error.
    let prescan_first = match &direct {
        Some(parsed) => Ok(parsed.clone()),
        None => eqmap::syntax::parse_with_grammar_only(source, &limits),
    };
    let parsed = eqmap::syntax::parse_with(source, &limits);
    let (prescan_first, parsed) = (format!("{prescan_first:?}"), format!("{parsed:?}"));
    assert!(prescan_first == parsed, "{source:?}\nprescan first: {prescan_first}\n        parse: {parsed}");
    let Some(direct) = direct else { return };
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
