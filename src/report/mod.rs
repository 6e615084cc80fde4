//! Report: what the library computed, rendered as text, tables, Markdown or JSON.
//!
//! Rendering returns strings; printing, colour decisions and exit codes belong to `main.rs`.
//!
//! It renders input-derived text (formulas, spans, values), so it may not unwrap, expect,
//! panic or index.

#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

pub mod diagnostic;
pub mod eval;
pub mod grad;
pub mod mathml;
pub mod slotmap;
pub mod tree;
pub mod tree_json;
