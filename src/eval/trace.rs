//! The trace: each evaluated node with its shape and a summary of its values, as data.
//!
//! Rows carry the node's byte span, so the trace can be joined with the slot map by span; the
//! report layer orders and prints them.

use super::value::{row_sums, NumShape, Stats, Value};
use crate::syntax::ast::Span;
use serde::Serialize;

/// One evaluated node.
#[derive(Debug, Clone, Serialize)]
pub struct TraceRow {
    /// Where the node is in the source.
    pub span: Span,
    /// Its source text.
    pub latex: String,
    /// Its shape in dimension symbols: `n × d_k`.
    pub symbolic: String,
    /// Its shape in numbers.
    pub shape: NumShape,
    /// Min, max, mean and variance of its entries.
    pub stats: Stats,
    /// For a softmax: the sum of each row (each should be 1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub row_sums: Option<Vec<f64>>,
}

impl TraceRow {
    /// The row for a node at `span` of `source` with `value`.
    pub fn new(source: &str, span: Span, symbolic: String, value: &Value, softmax: bool) -> Self {
        TraceRow {
            span,
            latex: span.text(source).to_string(),
            symbolic,
            shape: value.shape(),
            stats: Stats::of(value),
            row_sums: softmax.then(|| row_sums(value)),
        }
    }
}

/// Sorts rows in reading order: by start, the enclosing node before what it encloses.
pub fn reading_order(rows: &mut [TraceRow]) {
    rows.sort_by(|a, b| a.span.start.cmp(&b.span.start).then(b.span.end.cmp(&a.span.end)));
}
