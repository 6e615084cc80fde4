//! eqmap reads the math of ML papers the way a good teacher does.
//!
//! Layers, with dependencies pointing one way (see `src/README.md`):
//! [`syntax`] (LaTeX → typed tree with spans) → [`report`] (text, tables, JSON); [`batch`]
//! drives the pipeline over many formulas. The command line in `main.rs` only turns arguments
//! into calls of this library.

pub mod annotate;
pub mod batch;
pub mod curriculum;
pub mod lang;
pub mod meaning;
pub mod report;
pub mod slotmap;
pub mod syntax;

pub use lang::Lang;
pub use syntax::{parse, parse_with, Limits, Parsed};
