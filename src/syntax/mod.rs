//! Syntax: LaTeX text → a typed tree with spans, and back.
//!
//! The language is the pest grammar (`grammar/latex.pest`). [`parse`] runs a linear pre-scan
//! (`prescan.rs`) that enforces the limits and finds unbalanced delimiters, and the direct reader
//! (`direct/`). Where counting the formula's brackets, signs and commands shows that the
//! limits cannot be reached, the reader goes first, and the pre-scan runs only if the reader
//! gives up or passed over text it does not read (`\text{…}`, `\hspace{…}`): anything else it
//! reads is structure the pre-scan would find balanced. The direct reader is a recursive-descent
//! reader of the encoded text (`encode.rs`) that
//! follows the path the guarded grammar takes and builds the tree as pest's builder would; it
//! takes nearly every formula of real corpora at a fraction of pest's cost. Where it gives up
//! (an error, text it does not read, a place where pest would backtrack), pest parses: with the
//! grammar's guards on, its pairs turned into [`ast::Node`]s through the one precedence table
//! ([`precedence`]), and, only when that fails, again without guards, for the error it reports.
//! Both readers assemble nodes with the same functions (`shape.rs`), and tests check that the
//! direct reader's trees, spans and warnings are pest's. [`print::to_latex`] prints a tree back
//! as canonical LaTeX.
//!
//! This module handles untrusted input, so it may not unwrap, expect, panic or index.

#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

pub mod ast;
mod build;
mod command_classes;
pub mod depth;
mod direct;
#[cfg(test)]
mod direct_tests;
mod encode;
pub mod error;
pub mod grammar;
#[cfg(test)]
pub(crate) mod guard_tests;
pub mod names;
pub mod precedence;
mod prescan;
pub mod print;
mod shape;

use ast::{Node, Span};
use error::{ParseError, ParseErrorKind, Warning};
use grammar::{LatexParser, Rule};
use pest::Parser;
use serde::Serialize;

/// Resource limits for parsing. All are adjustable; the defaults suit any real formula.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Longest formula accepted, in bytes (default 100,000; the longest line of im2latex-100k
    /// is about 500).
    pub max_bytes: usize,
    /// Deepest nesting, counted by the one rule of [`depth`]: a level is a node that holds
    /// others (and, before reading, each group the source opens); default
    /// [`depth::DEFAULT_MAX_DEPTH`] (256), at most [`Limits::MAX_DEPTH_CEILING`].
    pub max_depth: usize,
    /// Most signs in a row, as in `- - - x` (default 64).
    pub max_signs: usize,
    /// Most scripts and factorials stacked on one base, as in `x_1!_2!` (default 32).
    pub max_scripts: usize,
    /// Most steps (rule calls) pest may take on one formula (default 10,000,000, about 0.15 s).
    /// Real formulas take 11 to 45 steps a byte, so the default covers any formula within the
    /// default byte limit; it stops input that would make pest backtrack for minutes, such as
    /// an error deep inside closed groups (`{{{…{x^}…}}}`). pest keeps this limit in one
    /// process-wide setting, so threads parsing at once should use the same value.
    pub max_steps: usize,
}

impl Limits {
    /// The deepest nesting any caller may ask for ([`depth::MAX_DEPTH_CEILING`]): every layer
    /// after the parser walks trees recursively. [`parse_with`] applies this ceiling to larger
    /// `max_depth` values.
    pub const MAX_DEPTH_CEILING: usize = depth::MAX_DEPTH_CEILING;

    /// These limits with `max_depth` lowered to [`Limits::MAX_DEPTH_CEILING`].
    fn capped(&self) -> Limits {
        Limits { max_depth: self.max_depth.min(Limits::MAX_DEPTH_CEILING), ..*self }
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_bytes: 100_000,
            max_depth: depth::DEFAULT_MAX_DEPTH,
            max_signs: 64,
            max_scripts: 32,
            max_steps: 10_000_000,
        }
    }
}

/// A parsed formula: its tree and the warnings met on the way.
#[derive(Debug, Clone, Serialize)]
pub struct Parsed {
    /// The tree.
    pub root: Node,
    /// Unknown commands and characters, kept in the tree as unknown symbols; in source order.
    pub warnings: Vec<Warning>,
}

impl Parsed {
    /// A tree and its warnings, in the order of the source (a reader may meet them out of
    /// order: pest's builder reads `\stackrel`'s label after the operand that follows it).
    fn new(root: Node, mut warnings: Vec<Warning>) -> Self {
        warnings.sort_by_key(|warning| warning.span.start);
        Parsed { root, warnings }
    }
}

/// Parses `source` with the default limits.
pub fn parse(source: &str) -> Result<Parsed, ParseError> {
    parse_with(source, &Limits::default())
}

/// Parses `source` with `limits`.
///
/// A `max_depth` above [`Limits::MAX_DEPTH_CEILING`] is lowered to the ceiling: deeper trees
/// would overflow the stack of the layers that walk them. A tree deeper than the limit, counted
/// by the rule of [`depth`], is refused with [`ParseErrorKind::TooDeep`] at the node that
/// passes it.
pub fn parse_with(source: &str, limits: &Limits) -> Result<Parsed, ParseError> {
    let limits = limits.capped();
    let parsed = parse_capped(source, &limits).map_err(|error| refined(source, error))?;
    match depth::deeper_than(&parsed.root, limits.max_depth) {
        Some(span) => Err(ParseError::new(ParseErrorKind::TooDeep { limit: limits.max_depth }, span)),
        None => Ok(parsed),
    }
}

/// [`parse_with`] under limits already capped.
fn parse_capped(source: &str, limits: &Limits) -> Result<Parsed, ParseError> {
    // Where the counts bound the nesting, the direct reader may go before the pre-scan; where
    // it then reads every byte's structure, the pre-scan could not fail
    // (`src/syntax/direct_tests.rs` checks it).
    let scanned = !prescan::within_limits_by_count(source, limits);
    if scanned {
        prescan::prescan(source, limits)?;
    }
    match direct::read(source, limits) {
        Some(reading) if scanned || !reading.passed_over_text => Ok(reading.parsed),
        Some(reading) => prescan::prescan(source, limits).map(|()| reading.parsed),
        None => {
            if !scanned {
                prescan::prescan(source, limits)?;
            }
            parse_prescanned(source, limits)
        }
    }
}

/// Commands that take two braced arguments, for saying which one is missing.
const TWO_ARGUMENTS: &[&str] = &[
    "\\frac",
    "\\dfrac",
    "\\tfrac",
    "\\cfrac",
    "\\binom",
    "\\dbinom",
    "\\tbinom",
    "\\overset",
    "\\underset",
    "\\stackrel",
];

/// A missing-arguments error said more exactly from the source: `\sqrt[3` is an unclosed
/// `[`, and `\frac{1}` has one of its two arguments (the caret goes where the second belongs).
fn refined(source: &str, error: ParseError) -> ParseError {
    let ParseErrorKind::MissingArguments { command } = &error.kind else { return error };
    let rest = source.get(error.span.end..).unwrap_or("");
    let after = rest.trim_start();
    let skipped = error.span.end + (rest.len() - after.len());
    if command == "\\sqrt" && after.starts_with('[') && !after.contains(']') {
        let end = Span::new(source.len(), source.len());
        let kind = ParseErrorKind::Unclosed { delimiter: "[".into(), closer: "]".into() };
        return ParseError { kind, span: end, opened: Some(Span::new(skipped, skipped + 1)) };
    }
    if !TWO_ARGUMENTS.contains(&command.as_str()) {
        return error;
    }
    let (given, end) = braced_groups(source, skipped);
    if given == 0 || given >= 2 {
        return error;
    }
    let kind = ParseErrorKind::MissingArgument { command: command.clone(), takes: 2, given };
    ParseError::new(kind, Span::new(end, end))
}

/// How many `{…}` groups follow one another from `at`, and the offset past the last.
fn braced_groups(source: &str, mut at: usize) -> (usize, usize) {
    let mut count = 0;
    loop {
        let rest = source.get(at..).unwrap_or("");
        let start = at + (rest.len() - rest.trim_start().len());
        let mut depth = 0usize;
        let mut close = None;
        for (i, c) in source.get(start..).unwrap_or("").char_indices() {
            match c {
                '{' => depth += 1,
                '}' if depth == 1 => {
                    close = Some(start + i + 1);
                    break;
                }
                '}' => depth = depth.saturating_sub(1),
                _ if depth == 0 => break,
                _ => {}
            }
        }
        match close {
            Some(end) => {
                count += 1;
                at = end;
            }
            None => return (count, at),
        }
    }
}

/// The direct reader alone (the fast path of [`parse_with`]): the tree of `source`, or `None`
/// where that reader leaves the formula to the pest grammar (errors, non-ASCII text, rare
/// constructs). For measuring how much the fast path takes.
pub fn read_directly(source: &str, limits: &Limits) -> Option<Parsed> {
    let limits = &limits.capped();
    prescan::prescan(source, limits).ok()?;
    direct::read(source, limits).map(|reading| reading.parsed)
}

/// Parses `source` with `limits` through the pest grammar alone, without the direct reader
/// that [`parse_with`] tries first. The two give the same tree, spans and warnings wherever the
/// direct reader gives one (`src/syntax/direct_tests.rs`); this is the reference they are
/// checked against, and what benchmarks compare with.
pub fn parse_with_grammar_only(source: &str, limits: &Limits) -> Result<Parsed, ParseError> {
    let limits = &limits.capped();
    prescan::prescan(source, limits)?;
    parse_prescanned(source, limits)
}

/// The pest grammar on `source`, which has passed the pre-scan under `limits` (capped).
fn parse_prescanned(source: &str, limits: &Limits) -> Result<Parsed, ParseError> {
    pest::set_call_limit(std::num::NonZeroUsize::new(limits.max_steps));
    let guarded = encode::encode_guarded(source);
    let offset = encode::GUARD_MARK.len_utf8();
    match LatexParser::parse(Rule::formula, &guarded) {
        Ok(pairs) => build(source, limits, pairs, offset),
        Err(error) if out_of_steps(&error) => Err(too_complex(source, limits)),
        Err(error) => parse_unguarded(source, limits, &error, offset),
    }
}

/// Parses `source` again with the grammar's guards off (see `grammar/latex.pest`), so that
/// pest tries every alternative and reports what the grammar expected where it failed.
/// Without guards pest can backtrack exponentially on an error deep inside nested groups;
/// when it runs out of steps, the guarded parse's error (`guarded_error`, whose positions are
/// `offset` bytes ahead) is reported instead.
fn parse_unguarded(
    source: &str,
    limits: &Limits,
    guarded_error: &pest::error::Error<Rule>,
    offset: usize,
) -> Result<Parsed, ParseError> {
    let encoded = encode::encode(source);
    match LatexParser::parse(Rule::formula, &encoded) {
        // Only if a guard ruled out too much: the grammar without guards has the last word.
        Ok(pairs) => build(source, limits, pairs, 0),
        Err(error) if out_of_steps(&error) => Err(from_pest(source, guarded_error, offset)),
        Err(error) => Err(from_pest(source, &error, 0)),
    }
}

/// Whether pest stopped because it reached the step limit.
fn out_of_steps(error: &pest::error::Error<Rule>) -> bool {
    matches!(error.variant, pest::error::ErrorVariant::CustomError { .. })
}

/// The error for a formula that took pest more than the step limit with guards on.
fn too_complex(source: &str, limits: &Limits) -> ParseError {
    ParseError::new(ParseErrorKind::TooComplex { limit: limits.max_steps }, Span::new(0, source.len()))
}

/// The tree from pest's pairs for `source`, whose positions are `offset` bytes ahead.
fn build(
    source: &str,
    limits: &Limits,
    mut pairs: pest::iterators::Pairs<Rule>,
    offset: usize,
) -> Result<Parsed, ParseError> {
    let builder = build::Builder::new(source, limits, offset);
    let root = match pairs.next() {
        Some(formula) => builder.formula(formula)?,
        None => Node::new(ast::NodeKind::Empty, Span::new(0, source.len())),
    };
    Ok(Parsed::new(root, builder.into_warnings()))
}

/// Turns pest's error into ours: the position, what is there, and what was expected in words.
/// pest's positions are `offset` bytes ahead of the source's.
fn from_pest(source: &str, error: &pest::error::Error<Rule>, offset: usize) -> ParseError {
    let at = match error.location {
        pest::error::InputLocation::Pos(at) => at,
        pest::error::InputLocation::Span((at, _)) => at,
    }
    .saturating_sub(offset);
    let mut expected: Vec<String> = Vec::new();
    if let pest::error::ErrorVariant::ParsingError { positives, .. } = &error.variant {
        for rule in positives {
            let words = describe(*rule).to_string();
            if !expected.contains(&words) {
                expected.push(words);
            }
        }
    }
    expected.truncate(4);
    let (found, span) = token_at(source, at);
    ParseError::new(ParseErrorKind::Unexpected { found, expected }, span)
}

/// The token at byte `at` in words, and its span.
fn token_at(source: &str, at: usize) -> (String, Span) {
    let rest = source.get(at..).unwrap_or("");
    let Some(first) = rest.chars().next() else {
        return ("the end of the formula".to_string(), Span::new(at, at));
    };
    let len = if first == '\\' {
        let after = rest.get(1..).unwrap_or("");
        match after.bytes().take_while(u8::is_ascii_alphabetic).count() {
            0 => 1 + after.chars().next().map_or(0, char::len_utf8),
            letters => 1 + letters,
        }
    } else {
        first.len_utf8()
    };
    let end = (at + len).min(source.len());
    let text = source.get(at..end).unwrap_or("");
    let shown =
        if text.chars().any(error::is_invisible) { error::visible(text) } else { format!("`{text}`") };
    (shown, Span::new(at, end))
}

/// The words for what a grammar rule stands for, as shown in "expected …".
pub fn describe(rule: Rule) -> &'static str {
    use Rule::*;
    match rule {
        EOI => "the end of the formula",
        formula | rows | row | cell | expr | pexpr | bexpr | empty | juxt => "an expression",
        separator => "`,`",
        relation | stacked_relation => "a relation such as `=`",
        additive => "`+` or `-`",
        multiplicative => "an operator such as `\\cdot`",
        prefix => "a sign",
        subscript => "a subscript `_`",
        superscript => "a superscript `^`",
        primes => "a prime `'`",
        factorial => "`!`",
        unicode_subscript | unicode_superscript => "a script",
        script_argument | argument => "an argument: `{…}` or one symbol",
        letter | number | digit | punctuation | unicode_operand | script_symbol | escaped_symbol
        | symbol_command | stray_closer => "a symbol",
        group => "`{`",
        styled_rest | font_switch => "a font switch",
        fraction_word => "`\\over`",
        bracket_group | opener => "an opening bracket",
        closer => "a closing bracket",
        bar_group | bar => "`|`",
        unicode_sqrt => "`√`",
        fraction | fraction_name => "`\\frac`",
        binomial => "`\\binom`",
        sqrt => "`\\sqrt`",
        sqrt_index => "`]` closing the root's index",
        accent | accent_name => "an accent",
        font_command | braced_font_command | font_name => "a font command",
        text_command | text_name => "`\\text`",
        text_body => "text in braces `{…}`",
        operatorname => "`\\operatorname`",
        operatorname_name => "`\\operatorname`",
        cr | sb | sp => "a command",
        binomial_name => "`\\binom`",
        sqrt_name => "`\\sqrt`",
        boxed_name => "`\\boxed`",
        not_name => "`\\not`",
        left_name => "`\\left`",
        right_name => "`\\right`",
        brace_annotation | brace_name => "`\\underbrace`",
        brace_label_below | brace_label_above => "a brace label",
        stacked | stacked_name => "`\\overset`",
        boxed => "`\\boxed`",
        not_symbol => "`\\not`",
        left_right => "`\\left`",
        delimiter => "a delimiter such as `(`, `[`, `|` or `.`",
        environment => "`\\begin`",
        substack => "`\\substack`",
        array_name | aligned_name | environment_name => "an environment name",
        position => "a position such as `[t]`",
        column_spec => "a column specification such as `{cc}`",
        // Silent rules never appear in errors; they are listed so that a new rule must be named.
        WHITESPACE | pad | dimen_body | raw_group | row_separator => "a space",
        mode
        | unguarded
        | guarded
        | starts_plain
        | starts_infix
        | starts_bar
        | starts_postfix
        | starts_command
        | starts_font
        | starts_accent
        | argument_command_before_brace => "a guard",
        operand | poperand | boperand | term | pterm | bterm | primary | pprimary | bprimary
        | command_operand | script_command | group_body | maybe_empty | lone_command => "an operand",
        postfix | bar_term | fraction_tail => "a script",
        infix | bar_free_infix | relation_word => "an operator",
        text_inner => "text",
    }
}
