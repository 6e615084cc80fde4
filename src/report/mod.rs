//! Report: what the library computed, rendered as text, tables, Markdown or JSON.
//!
//! Rendering returns strings; printing, colour decisions and exit codes belong to `main.rs`.

pub mod diagnostic;
pub mod eval;
pub mod slotmap;
pub mod tree;
