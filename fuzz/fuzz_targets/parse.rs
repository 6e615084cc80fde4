//! Any bytes → UTF-8 → `eqmap::parse`: a tree or an error, never a panic; every span lies
//! inside the input, on character boundaries.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(source) = std::str::from_utf8(data) else { return };
    let spans_ok = |start: usize, end: usize| {
        start <= end && end <= source.len() && source.is_char_boundary(start) && source.is_char_boundary(end)
    };
    match eqmap::parse(source) {
        Ok(parsed) => {
            assert!(
                spans_ok(parsed.root.span.start, parsed.root.span.end),
                "root span {:?}",
                parsed.root.span
            );
            for warning in &parsed.warnings {
                assert!(spans_ok(warning.span.start, warning.span.end), "warning span {:?}", warning.span);
            }
            // The printers must not fail on any tree the parser builds.
            let _ = eqmap::syntax::print::to_latex(&parsed.root);
            let _ = eqmap::report::tree::render_tree(&parsed.root);
        }
        Err(error) => {
            assert!(spans_ok(error.span.start, error.span.end), "error span {:?} in {source:?}", error.span);
            let _ = eqmap::report::diagnostic::render_error(source, &error, eqmap::Lang::En);
            let _ = eqmap::report::diagnostic::render_error(source, &error, eqmap::Lang::Ko);
        }
    }
});
