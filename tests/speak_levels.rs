//! Snapshots of the readings of every formula issue 19 lists, in Korean and English, at each
//! verbosity level (brief, default, full): one snapshot a formula, so that a change in any
//! reading shows as a diff to review.

use eqmap::speak::{read_formula_at, Verbosity};
use eqmap::Lang;

/// The issue's formulas, by a name for the snapshot file.
const FORMULAS: &[(&str, &str)] = &[
    ("adam-moment", r"m_t = \beta_1 m_{t-1} + (1 - \beta_1) g_t"),
    ("cosine-schedule", r"\frac{1}{2}(1 + \cos(\frac{t}{T}\pi))"),
    ("gelu-tanh", r"0.5 x \left(1 + \tanh\left(\sqrt{2/\pi}\left(x + 0.044715 x^3\right)\right)\right)"),
    ("normal-equations", r"(X^\top X)^{-1}"),
    ("sum-to-capital", r"\sum_{b=1}^{B} x_b"),
    ("small-over-capital", r"\frac{t}{T}"),
    ("index-list", r"\sum_{i,j=1}^{V} X_{ij}"),
    ("layer-power", r"h^{(l+1)} = \sigma(W^{(l)} h^{(l)})"),
    ("indicator", r"\sum_{k=1}^{K} \mathbb{1}_{[k \neq i]} \exp(z_k)"),
    ("swiglu", r"\mathrm{SwiGLU}(x) = \mathrm{Swish}(xW) \otimes (xV)"),
    ("clip", r"\mathrm{clip}(r_t(\theta), 1 - \epsilon, 1 + \epsilon)"),
    ("rmsnorm", r"\mathrm{RMSNorm}(x) = \frac{x}{\sqrt{\frac{1}{d}\sum_{i=1}^{d} x_i^2}}"),
    ("q-function", r"Q(s, a) = r + \gamma \max_{a'} Q(s', a')"),
    ("heads", r"\mathrm{head}_i = \mathrm{Attention}(Q W_i^Q, K W_i^K, V W_i^V)"),
    ("model-size", r"d_{\text{model}} = 512"),
    ("kronecker-delta", r"\delta_{ij}"),
    ("pair-minus-product", r"a - b c"),
    ("pair-group-product", r"(a - b) c"),
    ("pair-fraction-times", r"\frac{a}{b} c"),
    ("pair-fraction-of-product", r"\frac{a}{b c}"),
    ("pair-index-minus", r"m_{t-1}"),
    ("pair-minus-after-index", r"m_t - 1"),
    ("pair-square-times", r"x^{2} y"),
    ("pair-power-of-product", r"x^{2y}"),
    ("cosine-of-a-fraction-times-pi", r"\frac{1}{2}(1 + \cos(\frac{t}{T})\pi)"),
    ("for-all-in-a-set", r"\forall x \in X, f(x) \geq 0"),
    ("for-all-after-the-statement", r"x_i \geq 0 \quad \forall i"),
    ("for-all-two-indices", r"\forall i, j: a_{ij} \ge 0"),
    ("exists-such-that", r"\exists x : f(x) = 0"),
    ("for-all-in-words", r"\|x\| > 0 \textrm{ for all } x \neq 0"),
    ("pair-small", r"b"),
    ("pair-capital", r"B"),
];

fn readings(source: &str) -> String {
    let mut out = format!("{source}\n");
    for (name, verbosity) in
        [("brief", Verbosity::Brief), ("default", Verbosity::Default), ("full", Verbosity::Full)]
    {
        for (code, lang) in [("ko", Lang::Ko), ("en", Lang::En)] {
            let reading = read_formula_at(source, lang, verbosity).unwrap_or_else(|e| e.message(Lang::En));
            out.push_str(&format!("\n{name} {code}: {reading}"));
        }
    }
    out
}

#[test]
fn the_issues_formulas_at_each_level() {
    for (name, source) in FORMULAS {
        insta::assert_snapshot!(*name, readings(source));
    }
}
