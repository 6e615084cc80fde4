//! Speech: a formula read aloud, in Korean or English, the way the curriculum's first seed
//! reads the attention line ("큐, 케이, 브이를 받는 어텐션은, …").
//!
//! This first part holds the language machinery: the vocabulary of `data/speech.toml`
//! ([`vocab`]), Korean particles chosen by the final sound ([`particles`]) and Korean verb
//! endings built by Hangul syllable arithmetic ([`hangul`]).
//!
//! This module handles untrusted input, so it may not unwrap, expect, panic or index.

#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

pub mod hangul;
pub mod particles;
#[allow(dead_code)]
mod template;
pub mod vocab;

pub use vocab::Vocabulary;
