//! Batch: annotate many formulas at once, in parallel, in input order, dropping none.
//!
//! The parts, in the order data flows through them:
//!
//! - [`readers`] turns paths into [`Unit`]s, lazily: files of one formula a line, JSONL records
//!   with an id and the LaTeX, `.tex` and `.md` documents (their equations found by
//!   [`extract`]), folders walked recursively. A file that cannot be read becomes an error
//!   record, and the walk goes on.
//! - [`pipeline`] takes units in bounded chunks, maps each chunk with rayon's order-preserving
//!   parallel map (parse → symbol table → slot map → output text), writes the chunk, and only
//!   then reads the next one: memory stays bounded whatever the size of the input.
//! - [`output`] renders one [`Outcome`] as a JSONL object, a CSV row or a Markdown row.
//! - [`summary`] aggregates counts only: parse coverage, articles, concepts, unknown commands,
//!   rules that never fired.
//!
//! The formulas of one document share one symbol table, so that a declaration such as
//! `Q \in \mathbb{R}^{n \times d_k}` carries to the equations after it; documents run in
//! parallel with each other. The library prints nothing: writers take [`std::io::Write`].
//!
//! Every input formula gives exactly one record, `ok` or an error: the count out equals the
//! count in.

#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

pub mod extract;
pub mod jsonl;
pub mod macros;
pub mod output;
pub mod pipeline;
pub mod readers;
pub mod summary;

use crate::slotmap::SlotMap;
use crate::syntax::ast::Span;
use std::sync::Arc;

/// One formula as a reader found it, or the reason it could not be read.
#[derive(Debug, Clone, PartialEq)]
pub struct Input {
    /// The record's id: a JSONL record's own id, else `FILE:LINE`.
    pub id: String,
    /// The file it came from (`-` for standard input).
    pub source: Arc<str>,
    /// The 1-based line where the formula starts, when it has one.
    pub line: Option<usize>,
    /// The formula's LaTeX, or why there is none (the message names the file).
    pub content: Result<String, String>,
}

/// What the pipeline processes as one task.
#[derive(Debug, Clone, PartialEq)]
pub enum Unit {
    /// A formula on its own (a line of a file, a JSONL record, a read error).
    Single(Input),
    /// The formulas of one document in order: they share a symbol table.
    Document(Vec<Input>),
}

impl Unit {
    /// How many records this unit gives.
    pub fn len(&self) -> usize {
        match self {
            Unit::Single(_) => 1,
            Unit::Document(inputs) => inputs.len(),
        }
    }

    /// Whether the unit gives no record (an empty document).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The inputs of the unit, in order.
    pub fn inputs(&self) -> &[Input] {
        match self {
            Unit::Single(input) => std::slice::from_ref(input),
            Unit::Document(inputs) => inputs,
        }
    }
}

/// Why a record failed.
#[derive(Debug, Clone, PartialEq)]
pub enum Failure {
    /// The file, line or record could not be read.
    Read {
        /// What went wrong, naming the file.
        message: String,
    },
    /// The formula did not parse.
    Parse {
        /// The message in English.
        message: String,
        /// Where in the formula.
        span: Span,
        /// For an unclosed delimiter, where it was opened.
        opened: Option<Span>,
    },
}

impl Failure {
    /// The message.
    pub fn message(&self) -> &str {
        match self {
            Failure::Read { message } | Failure::Parse { message, .. } => message,
        }
    }

    /// `read` or `parse`.
    pub fn kind(&self) -> &'static str {
        match self {
            Failure::Read { .. } => "read",
            Failure::Parse { .. } => "parse",
        }
    }
}

/// What batch made of one input: its slot map, or why there is none.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// The record's id.
    pub id: String,
    /// The file it came from.
    pub source: Arc<str>,
    /// The 1-based line where the formula starts, when it has one.
    pub line: Option<usize>,
    /// The formula as read (empty when it could not be read).
    pub latex: String,
    /// The slot map, or the failure.
    pub result: Result<SlotMap, Failure>,
}

impl Outcome {
    /// Whether the record is `ok`.
    pub fn is_ok(&self) -> bool {
        self.result.is_ok()
    }
}
