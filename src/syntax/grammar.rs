//! The pest parser generated from `grammar/latex.pest`.

#![allow(missing_docs, clippy::all)]

/// The parser pest derives from the grammar file.
#[derive(pest_derive::Parser)]
#[grammar = "../grammar/latex.pest"]
pub struct LatexParser;
