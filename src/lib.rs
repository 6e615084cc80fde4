//! eqmap reads the math of ML papers the way a good teacher does.
//!
//! Layers, with dependencies pointing one way (see `src/README.md`):
//! [`paste`] (text as pasted → LaTeX, with a span map back) → [`syntax`] (LaTeX → typed tree with spans) → [`meaning`] (symbol kinds, calls,
//! definitions) → [`annotate`] (rules → slots), [`speak`] (the formula read aloud in Korean or
//! English) and [`eval`] (shapes, values, claims, trace) → [`curriculum`] → [`slotmap`] (the
//! map) → [`report`] (text, tables, JSON); [`batch`] drives the pipeline over many formulas.
//! The command line in `main.rs` only turns arguments into calls of this library.

pub mod alloc;
pub mod annotate;
pub mod batch;
pub mod curriculum;
pub mod eval;
pub mod json;
pub mod lang;
pub mod meaning;
pub mod paste;
pub mod report;
pub mod slotmap;
pub mod speak;
pub mod surface;
pub mod syntax;

pub use lang::Lang;
pub use surface::Surface;
pub use syntax::{parse, parse_with, Limits, Parsed};
