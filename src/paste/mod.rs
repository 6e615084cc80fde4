//! Paste: text as people paste it → the LaTeX the parser reads, with a map back.
//!
//! What people paste is rarely clean LaTeX: math delimiters come along (`$…$`, `\[…\]`,
//! `\begin{equation}…\end{equation}`), a PDF gives `softmax(QKᵀ/√dₖ)V` with names as plain
//! letters, combining accents (`x̂`) and ligatures, and a typo leaves a `(` open. [`prepare`]
//! runs before the parser, in passes: the wrappers are taken off (`wrappers.rs`) and two
//! ASCII bars that make a double bar are written `∥` (`double_bars.rs`); text with
//! no LaTeX in it (no `\`, `^` or `_`) has its literal braces escaped (`literal_signs.rs`) and is read for `cases` and a matrix laid out in rows (`cases.rs`, `matrix.rs`), for a
//! tall root sign's pieces (`radical.rs`), for
//! what a PDF's text flattens within a line
//! (`flat.rs`: `pi` is p_i, `e−λ` is e^{-λ}) and for its lines (`layout.rs`: a display sum
//! given as `n` / `X` / `i=1`, a fraction as two lines); then the plain text is read as LaTeX
//! would write it (`plain.rs`); then likely typos are looked for (`typos.rs`). What each
//! pass knows is in `data/paste.toml`. Every pass keeps a [`spans::SpanMap`], so a span of the
//! text the parser read maps back to the input the user gave ([`Pasted::original`]): carets,
//! slots and warnings point into what was pasted. What a pass did or could not decide is a
//! warning, never a silent guess. `lines.rs` splits standard input into formulas by one rule
//! for every command.
//!
//! This module handles untrusted input, so it may not unwrap, expect, panic or index.

#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod applied_derivatives;
mod baseline_after;
mod big_delimiters;
mod cases;
mod closing_bang;
mod delimiter_powers;
mod double_bars;
mod flat;
mod fraction_rows;
mod fraction_sums;
mod integral_body;
mod layout;
mod limits_below;
pub mod lines;
mod literal_signs;
mod matrix;
mod over_sum;
mod plain;
mod prose;
mod radical;
mod relation_labels;
mod root_sign;
pub mod spans;
mod sum_body;
mod table;
mod typos;
mod wrappers;

use crate::syntax::ast::Span;
use crate::syntax::error::{ParseError, ParseErrorKind, Warning};
use crate::syntax::{Limits, Parsed};
use spans::SpanMap;

/// A pasted formula made ready for the parser.
#[derive(Debug, Clone)]
pub struct Pasted {
    /// The LaTeX the parser reads.
    pub text: String,
    /// What was taken off or read differently, and likely typos; spans in the input.
    pub notes: Vec<Warning>,
    /// The passes' maps, first pass first.
    maps: Vec<SpanMap>,
}

impl Pasted {
    /// The span of the input that `span` of [`Pasted::text`] came from.
    pub fn original(&self, span: Span) -> Span {
        self.maps.iter().rev().fold(span, |span, map| map.span(span))
    }

    /// A parse error of [`Pasted::text`] with its spans moved into the input.
    pub fn original_error(&self, mut error: ParseError) -> ParseError {
        error.span = self.original(error.span);
        error.opened = error.opened.map(|span| self.original(span));
        error
    }

    /// Parser warnings of [`Pasted::text`] with their spans moved into the input.
    pub fn original_warnings(&self, warnings: &[Warning]) -> Vec<Warning> {
        warnings.iter().map(|w| Warning { kind: w.kind.clone(), span: self.original(w.span) }).collect()
    }

    /// The notes of the passes followed by `warnings` (moved into the input), in input order.
    pub fn all_warnings(&self, warnings: &[Warning]) -> Vec<Warning> {
        let mut all = self.notes.clone();
        all.extend(self.original_warnings(warnings));
        all.sort_by_key(|w| w.span.start);
        all
    }
}

/// Makes `input` ready for the parser: wrappers off, plain text as LaTeX, typos noted.
/// An input with nothing in it (blank, or an empty wrapper such as `$$`) is an error.
pub fn prepare(input: &str) -> Result<Pasted, ParseError> {
    let mut pasted = Pasted { text: input.to_string(), notes: Vec::new(), maps: Vec::new() };
    let unwrapped = wrappers::take_off(input);
    pasted.push(unwrapped.text, unwrapped.map, unwrapped.notes);
    if pasted.text.trim().is_empty() {
        let span = pasted.original(Span::new(0, pasted.text.len()));
        return Err(ParseError::new(ParseErrorKind::Empty, span));
    }
    let norms = double_bars::as_norms(&pasted.text);
    pasted.push(norms.text, norms.map, norms.notes);
    if is_plain_text(&pasted.text) && pasted.text.len() <= PDF_TEXT_BYTES {
        let literal = literal_signs::escape(&pasted.text);
        pasted.push(literal.text, literal.map, literal.notes);
        let bangs = closing_bang::read(&pasted.text);
        pasted.push(bangs.text, bangs.map, bangs.notes);
        let labels = relation_labels::take_off(&pasted.text);
        pasted.push(labels.text, labels.map, labels.notes);
        let cases = cases::read(&pasted.text);
        pasted.push(cases.text, cases.map, cases.notes);
        let matrix = matrix::read(&pasted.text);
        pasted.push(matrix.text, matrix.map, matrix.notes);
        let root = radical::pieces(&pasted.text);
        let rooted = root.is_some();
        if let Some(root) = root {
            pasted.push(root.text, root.map, root.notes);
        }
        let flat = flat::in_lines(&pasted.text);
        pasted.push(flat.text, flat.map, flat.notes);
        let laid = layout::read(&pasted.text);
        pasted.push(laid.text, laid.map, laid.notes);
        if rooted {
            let closed = radical::close(&pasted.text);
            pasted.push(closed.text, closed.map, closed.notes);
        }
        let powers = delimiter_powers::read(&pasted.text);
        pasted.push(powers.text, powers.map, powers.notes);
        let prose = prose::as_text(&pasted.text);
        pasted.push(prose.text, prose.map, prose.notes);
    }
    let plain = plain::as_latex(&pasted.text);
    pasted.push(plain.text, plain.map, plain.notes);
    let typos = typos::look(&pasted.text);
    let typos: Vec<Warning> = pasted.original_warnings(&typos);
    pasted.notes.extend(typos);
    pasted.notes.sort_by_key(|w| w.span.start);
    Ok(pasted)
}

/// The longest plain text read for what a PDF gives (a display copied from a PDF is a few
/// hundred bytes); longer text goes to the parser as it is, which refuses it past its limit.
const PDF_TEXT_BYTES: usize = 16 * 1024;

/// Whether `text` is plain text, as a PDF or a web page gives it, rather than LaTeX: it has
/// no `\`, `^` or `_`. Only plain text is read for what a PDF flattens (`flat.rs`) and for
/// its lines (`layout.rs`); LaTeX is left as it was written.
fn is_plain_text(text: &str) -> bool {
    !text.contains(['\\', '^', '_'])
}

/// `input` with its wrappers taken off (`$x$` is `x`), for readers that keep no notes (batch
/// line files); anything else as it is.
pub fn without_wrappers(input: &str) -> String {
    if !input.trim_start().starts_with(['$', '\\']) {
        return input.to_string();
    }
    let unwrapped = wrappers::take_off(input);
    if unwrapped.notes.is_empty() {
        input.to_string()
    } else {
        unwrapped.text.trim().to_string()
    }
}

/// Prepares `input` ([`prepare`]) and parses what it gives. The error's spans point into
/// `input`; the tree's into [`Pasted::text`]. Parser warnings are in the parsed result, in
/// [`Pasted::text`]'s terms ([`Pasted::all_warnings`] moves them into `input` with the notes).
pub fn parse(input: &str, limits: &Limits) -> Result<(Pasted, Parsed), ParseError> {
    let pasted = prepare(input)?;
    match crate::syntax::parse_with(&pasted.text, limits) {
        Ok(parsed) => Ok((pasted, parsed)),
        Err(error) => Err(pasted.original_error(error)),
    }
}

/// Walks `text` a character at a time: `step` takes a character's offset and the character and
/// returns the offset to go on from (past all it consumed).
fn walk_chars(text: &str, mut step: impl FnMut(usize, char) -> usize) {
    let mut at = 0;
    while let Some(c) = text.get(at..).and_then(|rest| rest.chars().next()) {
        at = step(at, c);
    }
}

/// Whether the notation knows `word` as the name of a function or a distribution
/// (`KeepTopK`, `Softmax`, `Bernoulli`): read as a name without a note.
fn is_known_name(word: &str) -> bool {
    let notation = crate::meaning::notation::Notation::shipped();
    crate::meaning::notation::has(&notation.function_names, word)
        || crate::meaning::notation::has(&notation.distribution_names, word)
}

/// What one pass made of its input: the new text, the map back, notes (spans in its input).
#[derive(Debug, Default)]
struct Pass {
    text: String,
    map: SpanMap,
    notes: Vec<Warning>,
}

impl Pass {
    /// A pass that leaves `text` as it is.
    fn unchanged(text: &str) -> Pass {
        let (text, map) = spans::Rewriter::new(text).finish();
        Pass { text, map, notes: Vec::new() }
    }
}

impl Pasted {
    /// Adds a pass's result: its notes are moved into the input through the earlier maps.
    fn push(&mut self, text: String, map: SpanMap, notes: Vec<Warning>) {
        let notes = self.original_warnings(&notes);
        self.notes.extend(notes);
        self.text = text;
        self.maps.push(map);
    }
}

#[cfg(test)]
#[allow(clippy::panic)]
mod tests {
    use super::*;

    #[test]
    fn a_pasted_pdf_line_becomes_latex_and_its_spans_point_into_the_input() {
        let input = "$softmax(QKᵀ/√dₖ)V$";
        let pasted = prepare(input).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(pasted.text, "\\mathrm{softmax}(QKᵀ/√dₖ)V");
        let v = pasted.text.len() - 1;
        let back = pasted.original(Span::new(v, v + 1));
        assert_eq!(input.get(back.start..back.end), Some("V"));
        assert_eq!(pasted.notes.len(), 1, "{:?}", pasted.notes);
    }

    #[test]
    fn nothing_to_read_is_an_error() {
        for input in ["", "   ", "$$", "\\[ \\]", "$ $"] {
            let error = prepare(input).err().map(|e| e.kind);
            assert_eq!(error, Some(ParseErrorKind::Empty), "{input:?}");
        }
    }
}
