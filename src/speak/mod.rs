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
pub mod ko;
pub mod particles;
pub mod phrase;
pub mod shape;
mod template;
pub mod vocab;

use crate::lang::Lang;
use crate::meaning::{SymbolTable, Term};
use crate::syntax::ast::Node;
pub use shape::MAX_DEPTH;
pub use vocab::Vocabulary;

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
    let phrase = shape::Shaper::new(vocab, source, term).top(term);
    match lang {
        Lang::Ko => ko::render(&phrase, vocab),
        Lang::En => en::render(&phrase, vocab),
    }
}

/// Parses `source` and reads it aloud, with a symbol table learned from the formula itself.
pub fn read_formula(source: &str, lang: Lang) -> Result<String, crate::syntax::error::ParseError> {
    let parsed = crate::syntax::parse(source)?;
    let table = SymbolTable::from_formula(&parsed.root);
    Ok(read(&parsed.root, source, &table, lang))
}
