//! Properties of reading that must hold for any input the parser accepts: no panic, and no
//! LaTeX command read out as it is written.

use eqmap::speak::read_formula;
use eqmap::Lang;
use proptest::prelude::*;

/// Pieces of paper math, glued at random into mostly well-formed formulas.
fn token() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "x",
        "Q",
        "K^\\top",
        "d_k",
        "x_i",
        "x_{<i}",
        "p_\\theta",
        "(",
        ")",
        "{",
        "}",
        "\\frac{1}{N}",
        "\\sqrt{",
        "\\sum_{i=1}^{N}",
        "\\sum_t",
        "\\log",
        "\\exp",
        "\\mathrm{softmax}",
        "\\operatorname{Attention}",
        "=",
        "+",
        "-",
        "\\cdot",
        "\\times",
        "/",
        ",",
        "\\mid",
        "\\in",
        "\\mathbb{R}^{n \\times d}",
        "\\|",
        "|",
        "\\infty",
        "\\partial",
        "\\nabla_\\theta",
        "\\mathbb{E}",
        "[",
        "]",
        "^2",
        "_j",
        "'",
        "\\dots",
        "\\alpha",
        "\\hat{y}",
        "\\underbrace{Q}_{n}",
        "\\le",
        "\\to",
        ":",
        "\\foo",
        "\\text{if }",
        "&",
        "\\\\",
        "2",
        "0.5",
        "\\begin{cases}",
        "\\end{cases}",
        "\\begin{pmatrix}",
        "\\end{pmatrix}",
        "\\max_x",
        "\\arg\\max_x",
        "!",
        "\\int_0^1",
        "dx",
        "\\binom{n}{k}",
        "\\langle",
        "\\rangle",
        "\\{",
        "\\}",
        "\\mathcal{L}",
        "\\pm",
        "e^{",
    ])
}

fn formula() -> impl Strategy<Value = String> {
    prop::collection::vec(token(), 0..24).prop_map(|tokens| tokens.join(" "))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn reading_any_parsed_formula_never_panics(source in formula()) {
        for lang in [Lang::Ko, Lang::En] {
            if let Ok(reading) = read_formula(&source, lang) {
                prop_assert!(!reading.contains('\\'), "{source} read as {reading}");
            }
        }
    }

    #[test]
    fn reading_arbitrary_text_never_panics(source in "\\PC{0,40}") {
        for lang in [Lang::Ko, Lang::En] {
            let _ = read_formula(&source, lang);
        }
    }
}
