//! Deep nesting of every delimiter kind, mixed level by level → `parse`, `map`, `read`, `eval`.
//!
//! The first two bytes give the depth (1 to 4,096), the third how the input ends (well formed,
//! a close dropped, an error at the bottom `x^`, the closes in the wrong order, the input cut
//! in the middle); each later byte, cycled, picks one level's delimiter: `{`, `(`, `\left(`,
//! `\left\{`, `\{`, `\lfloor`, `\lceil`, `\langle`, `\lvert`, `\lVert`, `\Bigl\{`, `\bigl(`,
//! `\frac{`, `\sqrt{`, `\sqrt[3]{`, `^{`, `_{`, `\mathbf{`, `\hat{`, `\underbrace{`,
//! `\binom{`, environments (`pmatrix`, `cases`, `aligned`), and chains that are not nesting
//! (`\sum_{i}`, `\log`, `-`).
//!
//! Checks: no panic and no stack overflow (ASan reports one) in any of the four; every span
//! of a tree, warning or error inside the input on character boundaries; a well-formed input
//! with more counted levels than the depth limit (256) is refused, never read.
#![no_main]

use eqmap::slotmap::{map_source, Knowledge};
use eqmap::Lang;
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

fn knowledge() -> &'static Knowledge {
    static KNOWLEDGE: OnceLock<Knowledge> = OnceLock::new();
    KNOWLEDGE.get_or_init(|| match Knowledge::default_knowledge() {
        Ok(k) => k,
        Err(e) => panic!("shipped knowledge does not load: {e}"),
    })
}

/// (open, close, whether it is one level of nesting the limit counts).
const LEVELS: &[(&str, &str, bool)] = &[
    ("{", "}", true),
    ("\\left(", "\\right)", true),
    ("\\left\\{", "\\right\\}", true),
    ("\\left[", "\\right.", true),
    ("\\{", "\\}", true),
    ("\\lfloor ", "\\rfloor ", true),
    ("\\lceil ", "\\rceil ", true),
    ("\\langle ", "\\rangle ", true),
    ("\\lvert ", "\\rvert ", true),
    ("\\lVert ", "\\rVert ", true),
    ("\\Bigl\\{", "\\Bigr\\}", true),
    ("\\bigl(", "\\bigr)", true),
    ("\\frac{", "}{y}", true),
    ("\\frac{1}{", "}", true),
    ("\\sqrt{", "}", true),
    ("\\sqrt[3]{", "}", true),
    ("x^{", "}", true),
    ("x_{", "}", true),
    ("\\mathbf{", "}", true),
    ("\\hat{", "}", true),
    ("\\underbrace{", "}_{u}", true),
    ("\\binom{", "}{k}", true),
    ("\\begin{pmatrix}", "\\end{pmatrix}", true),
    ("\\begin{cases}", "&x\\end{cases}", true),
    ("\\begin{aligned}", "\\end{aligned}", true),
    ("\\operatorname{softmax}\\left(", "\\right)", true),
    ("(", ")", false),
    ("[", "]", false),
    ("\\sum_{i} ", "", false),
    ("\\log ", "", false),
    ("- ", "", false),
    ("\\lim_{n \\to \\infty} ", "", false),
    ("a + ", "", false),
];

fn span_ok(source: &str, start: usize, end: usize) -> bool {
    start <= end && end <= source.len() && source.is_char_boundary(start) && source.is_char_boundary(end)
}

fn build(data: &[u8]) -> Option<(String, usize, bool)> {
    let (&hi, rest) = data.split_first()?;
    let (&lo, rest) = rest.split_first()?;
    let (&ending, picks) = rest.split_first()?;
    if picks.is_empty() {
        return None;
    }
    let depth = (usize::from(hi) << 8 | usize::from(lo)) % 4096 + 1;
    let mut open = String::new();
    let mut closes: Vec<&str> = Vec::new();
    let mut counted = 0;
    for level in 0..depth {
        let (o, c, counts) = LEVELS[usize::from(picks[level % picks.len()]) % LEVELS.len()];
        open.push_str(o);
        closes.push(c);
        counted += usize::from(counts);
    }
    let well_formed = ending % 5 == 0 || ending % 5 == 3 && closes.iter().all(|c| c.is_empty());
    let bottom = if ending % 5 == 2 { "x^" } else { "x" };
    let mut source = open;
    source.push_str(bottom);
    match ending % 5 {
        1 => {
            // One close dropped.
            let drop = usize::from(ending) % closes.len();
            closes.remove(drop);
        }
        3 => closes.reverse(),
        _ => {}
    }
    for close in closes.iter().rev() {
        source.push_str(close);
    }
    if ending % 5 == 4 {
        let mut cut = source.len() / 2;
        while !source.is_char_boundary(cut) {
            cut -= 1;
        }
        source.truncate(cut);
    }
    Some((source, counted, well_formed))
}

fuzz_target!(|data: &[u8]| {
    let Some((source, counted, well_formed)) = build(data) else { return };
    let source = source.as_str();
    let limit = eqmap::Limits::default().max_depth;
    match eqmap::parse(source) {
        Ok(parsed) => {
            assert!(
                !(well_formed && counted > limit),
                "{counted} nested levels (limit {limit}) were read: {:?}",
                &source[..source.len().min(200)]
            );
            assert!(span_ok(source, parsed.root.span.start, parsed.root.span.end), "root span {:?}", parsed.root.span);
            for warning in &parsed.warnings {
                assert!(span_ok(source, warning.span.start, warning.span.end), "warning span {:?}", warning.span);
            }
            let _ = eqmap::syntax::print::to_latex(&parsed.root);
            let _ = eqmap::report::tree::render_tree(&parsed.root);
            let table = eqmap::meaning::SymbolTable::from_formula(&parsed.root);
            let _ = eqmap::speak::read(&parsed.root, source, &table, Lang::En);
        }
        Err(error) => {
            assert!(span_ok(source, error.span.start, error.span.end), "error span {:?}", error.span);
            if let Some(opened) = error.opened {
                assert!(span_ok(source, opened.start, opened.end), "opened span {opened:?}");
            }
            let _ = eqmap::report::diagnostic::render_error(source, &error, Lang::En);
        }
    }
    let lang = if data.len() % 2 == 0 { Lang::En } else { Lang::Ko };
    match map_source(source, knowledge(), lang) {
        Ok(map) => {
            for slot in &map.slots {
                for span in slot.span.iter().chain(&slot.spans) {
                    assert!(span_ok(source, span.start, span.end), "slot span {span:?}");
                }
            }
            let _ = eqmap::report::slotmap::render_json(&map);
        }
        Err(error) => {
            assert!(span_ok(source, error.span.start, error.span.end), "map error span {:?}", error.span);
        }
    }
    let options = eqmap::eval::Options {
        seed: Some(1),
        max_elements: 4096,
        max_steps: 200_000,
        ..eqmap::eval::Options::default()
    };
    let mut session = eqmap::eval::Session::new(options);
    match session.evaluate(source) {
        Ok(outcome) => {
            let _ = eqmap::report::eval::to_json(&outcome).to_string();
        }
        Err(failure) => {
            let span = failure.span();
            assert!(span_ok(source, span.start, span.end), "eval failure span {span:?}");
            let _ = eqmap::report::eval::render_failure(source, &failure, lang);
        }
    }
});
