//! The grammar's guards change nothing but speed: with and without them, pest gives the same
//! pairs, or fails on the same texts. (Without them is how [`super::parse`] finds its errors,
//! and what it falls back to if a guard ever ruled out too much, so a guard that does would
//! only show here, and as a slower parse.)

use super::encode::{encode, encode_guarded, GUARD_MARK};
use super::grammar::{LatexParser, Rule};
use pest::Parser;
use proptest::prelude::*;
use std::path::Path;
use std::time::{Duration, Instant};

/// Every pair pest made, as (rule, start, end); `None` if it failed.
type Parse = Option<Vec<(Rule, usize, usize)>>;

/// The pairs pest makes of `text`, with positions less `offset`.
fn pairs(text: &str, offset: usize) -> Parse {
    let pairs = LatexParser::parse(Rule::formula, text).ok()?;
    let at = |pos: usize| pos.saturating_sub(offset);
    Some(pairs.flatten().map(|p| (p.as_rule(), at(p.as_span().start()), at(p.as_span().end()))).collect())
}

/// Pairs with the guards, and pairs without them.
fn both(source: &str) -> (Parse, Parse) {
    (pairs(&encode_guarded(source), GUARD_MARK.len_utf8()), pairs(&encode(source), 0))
}

/// The non-empty lines of the files of `dir` (relative to the repository), if it is there.
fn lines_in(dir: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut lines = Vec::new();
    for entry in entries.flatten() {
        let text = std::fs::read_to_string(entry.path()).unwrap_or_default();
        lines.extend(text.lines().filter(|l| !l.trim().is_empty()).map(str::to_string));
    }
    lines
}

#[test]
fn guards_change_nothing_on_the_fixtures_and_the_corpus() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut lines = Vec::new();
    for dir in
        ["tests/fixtures/seeds", "tests/fixtures/errors", "tests/fixtures/unicode", "../shared/corpus-real"]
    {
        lines.extend(lines_in(&root.join(dir)));
    }
    assert!(lines.len() >= 20, "too few test lines: {}", lines.len());
    for line in &lines {
        let (guarded, unguarded) = both(line);
        assert!(guarded == unguarded, "guards change the parse of {line:?}");
    }
}

/// A shortcut that fails must not let pest retry the same text the long way round, which would
/// multiply the backtracking on input that fails deep inside nested groups: with the guards, such
/// a parse may take no longer than without them (within a generous margin; the cost grows
/// geometrically with the depth, so a shortcut that retries shows up as a factor in the hundreds).
#[test]
fn guards_do_not_multiply_backtracking() {
    let cases =
        [("{", "}"), ("\\left(", "\\right)"), ("\\frac{", "}{y}"), ("\\begin{matrix}", "\\end{matrix}")];
    for (open, close) in cases {
        let source = format!("{}x^{}", open.repeat(11), close.repeat(11));
        let fastest = |text: &str| {
            let run = || {
                let start = Instant::now();
                let failed = LatexParser::parse(Rule::formula, text).is_err();
                (start.elapsed(), failed)
            };
            (0..3).map(|_| run()).min().unwrap_or_default()
        };
        let (guarded, guarded_failed) = fastest(&encode_guarded(&source));
        let (unguarded, unguarded_failed) = fastest(&encode(&source));
        assert!(guarded_failed && unguarded_failed, "{source} should fail");
        assert!(
            guarded <= unguarded * 4 + Duration::from_millis(50),
            "{source}: {guarded:?} with guards, {unguarded:?} without"
        );
    }
}

/// Tokens that start or end each guarded alternative, and their near misses.
const TOKENS: &[&str] = &[
    "x",
    "2",
    "3.5",
    ".",
    "!",
    "'",
    "′",
    "?",
    "@",
    "\"",
    "`",
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    "|",
    "\\|",
    "‖",
    "\\vert",
    "\\Vert",
    "\\lvert",
    "\\rvert",
    "\\langle",
    "\\rangle",
    "⟨",
    "⟩",
    "\\{",
    "\\}",
    "_",
    "^",
    "\\sb",
    "\\sp",
    "ᵀ",
    "²",
    "ᵢ",
    "⊤",
    "√",
    "α",
    "ℝ",
    "𝑄",
    "=",
    "<",
    ">",
    ":=",
    ":",
    ",",
    ";",
    "+",
    "-",
    "−",
    "±",
    "*",
    "/",
    "\\*",
    "·",
    "×",
    "\\cdot",
    "\\backslash",
    "\\le",
    "\\uparrow",
    "\\updownarrow",
    "\\in",
    "\\to",
    "≤",
    "\\not",
    "\\middle",
    "\\pm",
    "\\neg",
    "\\cup",
    "\\stackrel",
    "\\overset",
    "\\frac",
    "\\sqrt",
    "\\binom",
    "\\left(",
    "\\left.",
    "\\right)",
    "\\right|",
    "\\begin{matrix}",
    "\\end{matrix}",
    "\\begin{array}{cc}",
    "\\end{array}",
    "&",
    "\\\\",
    "\\cr",
    "\\hat",
    "\\'",
    "\\~",
    "\\mathbf",
    "\\Bbb",
    "\\bf",
    "\\text{a b}",
    "\\operatorname*",
    "\\underbrace",
    "\\boxed",
    "\\textcolor{red}",
    "\\alpha",
    "\\sum",
    "\\foo",
    "\\%",
    "\\over",
    "\\choose",
    "\\,",
    "\\quad",
    "\\kern 2pt",
    "\\label{x}",
    " ",
    "~",
    "\t",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 2048, ..ProptestConfig::default() })]

    #[test]
    fn guards_change_nothing_on_token_soup(tokens in prop::collection::vec(prop::sample::select(TOKENS), 0..24)) {
        for source in [tokens.concat(), tokens.join(" ")] {
            let (guarded, unguarded) = both(&source);
            prop_assert!(guarded == unguarded, "guards change the parse of {:?}", source);
        }
    }

    #[test]
    fn guards_change_nothing_on_any_text(source in "\\PC{0,60}") {
        let (guarded, unguarded) = both(&source);
        prop_assert!(guarded == unguarded, "guards change the parse of {:?}", source);
    }
}
