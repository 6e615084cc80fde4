//! Speech: a formula read aloud, in Korean or English, the way the curriculum's first seed
//! reads the attention line ("큐, 케이, 브이를 받는 어텐션은, …").
//!
//! Reading happens in two steps:
//!
//! 1. [`shape`] turns the meaning layer's resolved tree ([`crate::meaning::Term`]) into a
//!    [`phrase::Phrase`], the structure a teacher reads: definitions, calls and products, sums
//!    and means, conditional probabilities, derivatives, transposes, indices, labels and layers.
//!    What applies to what and what each script is are the meaning layer's decisions; the
//!    shaper only chooses how to say them.
//! 2. [`ko`] or [`en`] puts the phrase into words, with the vocabulary of
//!    `data/speech.toml` ([`vocab`]): names are read as words (`\mathrm{softmax}` is
//!    "softmax", never letter by letter), Korean particles follow the final sound
//!    ([`particles`]) and Korean verbs are conjugated by Hangul arithmetic ([`hangul`]).
//!
//! Every input a parse accepts has a reading: unknown commands are read by their names, and
//! parts deeper than [`MAX_DEPTH`] read as elided. This module handles untrusted input, so it
//! may not unwrap, expect, panic or index.

#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]
#![warn(missing_docs)]

pub mod en;
pub mod hangul;
pub mod keys;
pub mod ko;
pub mod particles;
pub mod phrase;
mod quantify;
pub mod shape;
mod speaker;
mod template;
pub mod vocab;

use crate::lang::Lang;
use crate::meaning::{SymbolTable, Term};
use crate::syntax::ast::Node;
pub use shape::MAX_DEPTH;
pub use vocab::Vocabulary;

/// How much a reading spells out, as the reading tools for blind readers offer it.
///
/// - [`Verbosity::Brief`], for someone who sees the formula: no role words, no "capital", no
///   closing words after scripts, brackets unsaid.
/// - [`Verbosity::Default`], for a listener: a script or an exponent that is more than one symbol
///   is closed ("m sub t minus 1 end sub", "아래첨자가 티 빼기 1인 엠"), a capital is named when the
///   formula also writes its small letter, a sum whose terms are operations reads as steps.
/// - [`Verbosity::Full`], for writing the formula back: every bracket, script, exponent and
///   fraction is opened and closed in words and every capital is named, so that no two different
///   trees read the same (`tests/speak_ambiguity.rs` checks it on random trees).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Verbosity {
    /// For sighted readers.
    Brief,
    /// For listeners.
    #[default]
    Default,
    /// Every bracket and script spelled.
    Full,
}

/// Reads the formula `root` (parsed from `source`) aloud in `lang`, with the built-in
/// vocabulary. `table` tells what the document declared; the meaning layer resolves the formula
/// with it ([`crate::meaning::resolve`]) and the reading follows that resolution.
pub fn read(root: &Node, source: &str, table: &SymbolTable, lang: Lang) -> String {
    read_with(root, source, table, lang, Vocabulary::builtin())
}

/// Reads the formula with a vocabulary of one's own (see [`Vocabulary::from_toml`]).
pub fn read_with(root: &Node, source: &str, table: &SymbolTable, lang: Lang, vocab: &Vocabulary) -> String {
    read_term(&crate::meaning::resolve(root, table), source, lang, vocab)
}

/// Reads a formula the meaning layer has already resolved (so a caller that maps and reads one
/// formula resolves it once).
pub fn read_term(term: &Term, source: &str, lang: Lang, vocab: &Vocabulary) -> String {
    read_term_at(term, source, lang, vocab, Verbosity::Default)
}

/// Reads a resolved formula at a [`Verbosity`].
pub fn read_term_at(
    term: &Term,
    source: &str,
    lang: Lang,
    vocab: &Vocabulary,
    verbosity: Verbosity,
) -> String {
    let phrase = shape::Shaper::new(vocab, source, term).at(verbosity).top(term);
    match lang {
        Lang::Ko => ko::render_at(&phrase, vocab, verbosity),
        Lang::En => en::render_at(&phrase, vocab, verbosity),
    }
}

/// Reads the formula `root` (parsed from `source`) at a [`Verbosity`], with the built-in
/// vocabulary.
pub fn read_at(root: &Node, source: &str, table: &SymbolTable, lang: Lang, verbosity: Verbosity) -> String {
    let term = crate::meaning::resolve(root, table);
    read_term_at(&term, source, lang, Vocabulary::builtin(), verbosity)
}

/// Parses `source` and reads it aloud, with a symbol table learned from the formula itself.
pub fn read_formula(source: &str, lang: Lang) -> Result<String, crate::syntax::error::ParseError> {
    read_formula_at(source, lang, Verbosity::Default)
}

/// Parses `source` and reads it aloud at a [`Verbosity`].
pub fn read_formula_at(
    source: &str,
    lang: Lang,
    verbosity: Verbosity,
) -> Result<String, crate::syntax::error::ParseError> {
    let parsed = crate::syntax::parse(source)?;
    let table = SymbolTable::from_formula(&parsed.root);
    Ok(read_at(&parsed.root, source, &table, lang, verbosity))
}
