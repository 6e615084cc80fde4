//! Ambiguity of readings: at full verbosity no two different formulas read the same, in either
//! language, on random small trees that differ only in grouping, scripts and case; the pairs
//! issue 19 names are told apart at default too. The share that collide at default is printed
//! by `cargo run --release --locked --example reading_collisions`.

mod speak_trees;

use eqmap::speak::Verbosity;
use eqmap::Lang;
use proptest::prelude::*;
use speak_trees::{collisions, read_tree, tree};

/// Pairs that differ only in grouping, a script's reach or case.
const PAIRS: &[(&str, &str)] = &[
    ("a - b c", "(a - b) c"),
    ("\\frac{a}{b} c", "\\frac{a}{b c}"),
    ("m_{t-1}", "m_t - 1"),
    ("x^{2} y", "x^{2 y}"),
    ("e^{x} + 1", "e^{x + 1}"),
    ("\\frac{a + b}{c}", "a + \\frac{b}{c}"),
    ("(X^\\top X)^{-1}", "X^\\top X^{-1}"),
    // The cosine schedule: what the cosine covers.
    ("\\frac{1}{2}(1 + \\cos(\\frac{t}{T}\\pi))", "\\frac{1}{2}(1 + \\cos(\\frac{t}{T})\\pi)"),
    ("\\exp(\\frac{a}{b} c)", "\\exp(\\frac{a}{b}) c"),
];

fn reading(source: &str, lang: Lang, verbosity: Verbosity) -> String {
    read_tree(source, lang, verbosity).map(|(_, r)| r).unwrap_or_else(|| panic!("{source} does not parse"))
}

#[test]
fn pairs_that_differ_in_grouping_read_apart_at_default_and_full() {
    for verbosity in [Verbosity::Default, Verbosity::Full] {
        for lang in [Lang::Ko, Lang::En] {
            for (a, b) in PAIRS {
                let (ra, rb) = (reading(a, lang, verbosity), reading(b, lang, verbosity));
                assert_ne!(ra, rb, "{a} and {b} read the same at {verbosity:?} in {lang:?}");
            }
        }
    }
}

/// `\frac{1}{a} t` is t divided by a at the default verbosity, as `\frac{t}{a}` is; at full the
/// reading spells what is written, so the two read apart (found by the property test below).
#[test]
fn a_reciprocal_before_a_factor_is_spelled_at_full() {
    for lang in [Lang::Ko, Lang::En] {
        let (a, b) = ("\\frac{1}{a} t", "\\frac{t}{a}");
        assert_ne!(reading(a, lang, Verbosity::Full), reading(b, lang, Verbosity::Full), "{lang:?}");
        assert_eq!(reading(a, lang, Verbosity::Default), reading(b, lang, Verbosity::Default), "{lang:?}");
    }
}

/// `x_{(t-a)}` and `x_{t-a}` name the same entry; at full the brackets are said, so the two
/// read apart (found by the property test below), and by default they read alike.
#[test]
fn parentheses_around_a_subscript_are_heard_at_full() {
    for lang in [Lang::Ko, Lang::En] {
        let (a, b) = ("x_{(t - a)}", "x_{t - a}");
        assert_ne!(reading(a, lang, Verbosity::Full), reading(b, lang, Verbosity::Full), "{lang:?}");
        assert_eq!(reading(a, lang, Verbosity::Default), reading(b, lang, Verbosity::Default), "{lang:?}");
    }
}

#[test]
fn case_is_heard_at_full() {
    for lang in [Lang::Ko, Lang::En] {
        assert_ne!(reading("b", lang, Verbosity::Full), reading("B", lang, Verbosity::Full));
        // A capital alone is said plainly by default.
        assert_eq!(reading("B", lang, Verbosity::Default), reading("B", lang, Verbosity::Brief));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn no_two_different_trees_read_the_same_at_full(trees in prop::collection::vec(tree(), 60)) {
        let sources: Vec<String> = trees.iter().map(|t| t.latex()).collect();
        for lang in [Lang::Ko, Lang::En] {
            let (count, examples) = collisions(&sources, lang, Verbosity::Full);
            prop_assert_eq!(count, 0, "{:?}: {:?}", lang, examples.first());
        }
    }
}
