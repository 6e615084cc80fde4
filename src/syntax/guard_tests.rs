//! The grammar's guards change nothing but speed: with and without them, pest gives the same
//! pairs, or fails on the same texts. (Without them is how [`super::parse`] finds its errors,
//! and what it falls back to if a guard ever ruled out too much, so a guard that does would
//! only show here, and as a slower parse.) One exception, on purpose: a command that takes
//! arguments, followed by a `{` but short of its arguments (`\frac{a}`), fails with guards, and
//! without them parses as a lone command that the tree builder reports as missing arguments.

use super::encode::{encode, encode_guarded, GUARD_MARK};
use super::grammar::{LatexParser, Rule};
use super::names::{classify_command, CommandClass};
use pest::Parser;
use proptest::prelude::*;
use std::path::Path;

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

/// Whether the guards change nothing for `source`, but for the one exception (see the top):
/// then the parse without guards has a lone command that needs arguments.
fn agree(source: &str) -> bool {
    match both(source) {
        (guarded, unguarded) if guarded == unguarded => true,
        (None, Some(pairs)) => pairs.iter().any(|&(rule, start, end)| {
            let name = source.get(start..end).unwrap_or("").trim_start_matches('\\');
            rule == Rule::symbol_command && classify_command(name) == CommandClass::NeedsArguments
        }),
        _ => false,
    }
}

/// The non-empty lines of the files of `dir` (relative to the repository), if it is there.
pub(crate) fn lines_in(dir: &Path) -> Vec<String> {
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
        assert!(agree(line), "guards change the parse of {line:?}");
    }
}

// That guards never make pest retry what failed, which would multiply its backtracking on
// input that fails deep inside nested groups, is checked in steps by `tests/parse_steps.rs`.

/// Tokens that start or end each guarded alternative, and their near misses.
pub(super) const TOKENS: &[&str] = &[
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
            prop_assert!(agree(&source), "guards change the parse of {:?}", source);
        }
    }

    #[test]
    fn guards_change_nothing_on_any_text(source in "\\PC{0,60}") {
        prop_assert!(agree(&source), "guards change the parse of {:?}", source);
    }
}
