//! Every entry point, on random bytes and on token soup: a result or an error, never a panic;
//! every span an error or a slot carries lies inside the input. (The parser's own properties
//! are in `parse_properties.rs`, reading's in `speak_properties.rs`, evaluation's on
//! well-shaped expressions in `eval_properties.rs`; the fuzz targets in `fuzz/` run the same
//! entry points for longer, see FUZZING.md.)

use eqmap::eval::{bindings, Options, Session};
use eqmap::slotmap::{map_source, Knowledge};
use eqmap::Lang;
use proptest::prelude::*;
use std::sync::OnceLock;

fn knowledge() -> &'static Knowledge {
    static KNOWLEDGE: OnceLock<Knowledge> = OnceLock::new();
    KNOWLEDGE.get_or_init(|| Knowledge::default_knowledge().unwrap_or_else(|e| panic!("{e}")))
}

/// Text from arbitrary bytes, as a reader that replaces invalid UTF-8 would pass it on.
fn text() -> impl Strategy<Value = String> {
    prop::collection::vec(any::<u8>(), 0..120).prop_map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
}

/// LaTeX tokens glued at random: mostly almost-formulas, the likely malformed pastes.
fn soup() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop::sample::select(vec![
            "{",
            "}",
            "(",
            ")",
            "[",
            "]",
            "^",
            "_",
            "&",
            "\\\\",
            "\\frac",
            "\\sqrt",
            "\\sqrt[",
            "\\left(",
            "\\right)",
            "\\left.",
            "\\begin{bmatrix}",
            "\\end{bmatrix}",
            "\\begin{cases}",
            "\\end{cases}",
            "\\mathbf",
            "\\mathrm{softmax}",
            "\\sum_{i=1}^{N}",
            "\\sum_t",
            "\\log",
            "\\exp",
            "\\|",
            "|",
            "Q",
            "K",
            "V",
            "x",
            "x_i",
            "d_k",
            "W_Q^h",
            "^\\top",
            "ᵀ",
            "√",
            "α",
            "ℝ",
            "\\in",
            "\\mathbb{R}^{n \\times d}",
            "=",
            "+",
            "-",
            "\\cdot",
            "/",
            ",",
            "1",
            "0.5",
            "1e400",
            "\\foo",
            "\0",
            "\u{200B}",
            "а",
            "\\text{ if }",
            "\\operatorname*{arg\\,max}",
            "\\underbrace{Q}_{n}",
            "'",
            "!",
        ]),
        0..30,
    )
    .prop_map(|tokens| tokens.concat())
}

fn spans_inside(source: &str, start: usize, end: usize) -> bool {
    start <= end && end <= source.len()
}

fn check_map(source: &str) -> Result<(), TestCaseError> {
    for lang in [Lang::Ko, Lang::En] {
        match map_source(source, knowledge(), lang) {
            Ok(map) => {
                for slot in &map.slots {
                    for span in slot.span.iter().chain(&slot.spans) {
                        prop_assert!(spans_inside(source, span.start, span.end), "{source:?}: {slot:?}");
                    }
                }
                let _ = eqmap::report::slotmap::render_json(&map);
                let _ = eqmap::report::slotmap::render_markdown(&map, lang);
            }
            Err(error) => {
                prop_assert!(spans_inside(source, error.span.start, error.span.end), "{source:?}");
                let _ = eqmap::report::diagnostic::render_error(source, &error, lang);
            }
        }
    }
    Ok(())
}

fn check_eval(source: &str) {
    let mut session = Session::new(Options {
        seed: Some(3),
        max_elements: 4_096,
        max_steps: 100_000,
        ..Options::default()
    });
    for line in source.lines().take(4) {
        match session.evaluate(line) {
            Ok(outcome) => {
                let _ = eqmap::report::eval::render_table(&outcome, Lang::En);
                let _ = eqmap::report::eval::to_json(&outcome);
            }
            Err(failure) => {
                let _ = eqmap::report::eval::render_failure(line, &failure, Lang::Ko);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn map_never_panics_on_bytes(source in text()) {
        check_map(&source)?;
    }

    #[test]
    fn map_never_panics_on_token_soup(source in soup()) {
        check_map(&source)?;
    }

    #[test]
    fn read_never_panics_on_bytes_or_soup(a in text(), b in soup()) {
        for source in [a, b] {
            if let Ok(parsed) = eqmap::parse(&source) {
                let table = eqmap::meaning::SymbolTable::from_formula(&parsed.root);
                for lang in [Lang::Ko, Lang::En] {
                    let _ = eqmap::speak::read(&parsed.root, &source, &table, lang);
                }
            }
        }
    }

    #[test]
    fn eval_never_panics_on_bytes_or_soup(a in text(), b in soup()) {
        check_eval(&a);
        check_eval(&b);
    }

    /// `--let` and `--dim` arguments from arbitrary bytes: a binding or an error that points
    /// inside the text.
    #[test]
    fn bindings_never_panic(argument in text(), json in r#"[\[\]0-9,.eE+\- "a-z]{0,40}"#) {
        let mut session = Session::new(Options { max_elements: 1_000, ..Options::default() });
        if let Ok((name, rest)) = bindings::split_assignment(&argument) {
            let _ = bindings::dimension_size(name, rest);
            let _ = session.bind_json(name, rest);
        }
        if let Err(error) = session.bind_json("z", &json) {
            prop_assert!(spans_inside(&json, error.span.start, error.span.end), "{json:?}: {:?}", error.span);
            let _ = eqmap::report::eval::render_error(&json, &error, Lang::En);
        }
    }
}
