//! The parser's work grows linearly with the input, even when the input is wrong deep inside
//! nested groups. Measured in pest's steps (rule calls), not in time: a budget of 100 steps a
//! byte is several times what any real formula takes (11 to 45), while a parser that retried
//! each failed group would need 2^200 steps here.
//!
//! pest keeps its step limit in one process-wide setting, so every parse in this file uses the
//! same limits, [`budget`].

use eqmap::syntax::error::ParseErrorKind;
use eqmap::syntax::{parse_with, Limits};

/// The longest source in this file, in bytes.
const LONGEST: usize = 8_000;

/// 100 steps a byte of the longest source.
fn budget(source: &str) -> Limits {
    assert!(source.len() <= LONGEST, "{} bytes: raise LONGEST", source.len());
    Limits { max_steps: 100 * LONGEST, ..Limits::default() }
}

#[test]
fn an_error_deep_inside_nested_groups_costs_linear_steps() {
    let cases = [
        ("{", "}"),
        ("\\left(", "\\right)"),
        ("\\frac{", "}{y}"),
        ("\\sqrt{", "}"),
        ("x^{", "}"),
        ("\\mathbf{", "}"),
        ("(", ")"),
        ("\\begin{matrix}", "\\end{matrix}"),
    ];
    for (open, close) in cases {
        for depth in [1, 20, 200] {
            let source = format!("{}x^{}", open.repeat(depth), close.repeat(depth));
            let error = parse_with(&source, &budget(&source)).err();
            let kind = error.as_ref().map(|e| &e.kind);
            assert!(matches!(kind, Some(ParseErrorKind::Unexpected { .. })), "{source}: {kind:?}");
            // The caret is right after `x^`, where the script's argument is missing.
            let after = source.rfind("x^").map(|at| at + 2);
            assert_eq!(error.map(|e| e.span.start), after, "{source}");
        }
    }
}

#[test]
fn real_formulas_fit_in_the_same_budget() {
    let formulas = [
        r"\mathrm{softmax}\left(\frac{QK^\top}{\sqrt{d_k}}\right)V",
        r"\mathcal{L} = -\sum_{i=1}^{N} y_i \log \hat{y}_i",
        r"\begin{bmatrix} a & b \\ c & d \end{bmatrix}^{-1} = \frac{1}{ad-bc}\begin{pmatrix} d & -b \\ -c & a \end{pmatrix}",
    ];
    for formula in formulas {
        let nested = format!("{}{formula}{}", "{".repeat(100), "}".repeat(100));
        for source in [formula.to_string(), nested] {
            assert!(parse_with(&source, &budget(&source)).is_ok(), "{source}");
        }
    }
}
