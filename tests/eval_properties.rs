//! Property tests: evaluation never panics, whatever comes in.
//!
//! - Random expressions over bound symbols of fitting shapes (A, B: 3 × 3, x, y: 3, s: a
//!   number) built from the operators and functions eqmap knows: the evaluation returns a
//!   value or an error, never a panic, and a value has a shape the rules allow.
//! - Random LaTeX-ish text and random `--let` JSON: an error at worst.

use eqmap::eval::{Options, Session};
use proptest::prelude::*;

fn session() -> Session {
    let mut s = Session::new(Options { seed: Some(1), max_elements: 10_000, ..Options::default() });
    for (name, json) in [
        ("A", "[[1, 2, 0.5], [0, -1, 3], [2, 2, 2]]"),
        ("B", r#"[[0.1, 0, 0], [0, -0.2, 0], [4, 5, "-inf"]]"#),
        ("x", "[1, -2, 0.25]"),
        ("y", r#"[0, 3, "nan"]"#),
        ("s", "2.5"),
    ] {
        s.bind_json(name, json).unwrap_or_else(|e| panic!("{e:?}"));
    }
    s
}

/// Random expressions: leaves, then operators and functions around them.
fn expression() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        Just("A".to_string()),
        Just("B".to_string()),
        Just("x".to_string()),
        Just("y".to_string()),
        Just("s".to_string()),
        Just("2".to_string()),
        Just(r"\mathbf{1}".to_string()),
        Just("I".to_string()),
        Just(r"\infty".to_string()),
        Just("x_2".to_string()),
        Just("A_{13}".to_string()),
        Just("A_{ij}".to_string()),
    ];
    leaf.prop_recursive(5, 40, 3, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("{a} + {b}")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("{a} - {b}")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a})({b})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!(r"{{{a}}} \cdot {{{b}}}")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!(r"({a}) \odot ({b})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!(r"({a}) \otimes ({b})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!(r"\frac{{{a}}}{{{b}}}")),
            inner.clone().prop_map(|a| format!(r"({a})^\top")),
            inner.clone().prop_map(|a| format!(r"({a})^{{-1}}")),
            inner.clone().prop_map(|a| format!(r"({a})^2")),
            inner.clone().prop_map(|a| format!(r"\mathrm{{softmax}}({a})")),
            inner.clone().prop_map(|a| format!(r"\exp({a})")),
            inner.clone().prop_map(|a| format!(r"\log({a})")),
            inner.clone().prop_map(|a| format!(r"\sqrt{{{a}}}")),
            inner.clone().prop_map(|a| format!(r"\|{a}\|")),
            inner.clone().prop_map(|a| format!(r"\max({a})")),
            inner.clone().prop_map(|a| format!(r"\sum_{{i=1}}^{{3}} ({a})")),
            inner.clone().prop_map(|a| format!(r"\mathrm{{Concat}}({a}, {a})")),
            inner.clone().prop_map(|a| format!(r"\tanh(\mathrm{{GELU}}({a}))")),
            inner.prop_map(|a| format!(r"-{a}")),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn random_expressions_never_panic(expr in expression()) {
        let mut s = session();
        if let Ok(outcome) = s.evaluate(&expr) {
            if let Some(value) = outcome.value {
                let elements = value.shape().elements();
                prop_assert!(elements <= 10_000, "{expr}: {elements} elements past the limit");
            }
        }
    }

    #[test]
    fn random_claims_and_definitions_never_panic(a in expression(), b in expression()) {
        let mut s = session();
        let _ = s.evaluate(&format!("{a} = {b}"));
        let _ = s.evaluate(&format!(r"f(x) = {a}"));
        let _ = s.evaluate(&format!(r"f({b})"));
    }

    #[test]
    fn random_text_never_panics(text in r"[a-zA-Z0-9_^{}()\\ +\-=,|/]{0,40}") {
        let mut s = session();
        let _ = s.evaluate(&text);
    }

    #[test]
    fn random_json_never_panics(text in r#"[\[\]0-9,. \-"a-z]{0,30}"#) {
        let mut s = session();
        let _ = s.bind_json("z", &text);
        let _ = s.evaluate(r"\mathrm{softmax}(z)");
    }
}
