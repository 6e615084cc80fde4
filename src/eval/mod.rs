//! Evaluation: formulas computed on sample matrices, so a learner sees the numbers behind each
//! slot.
//!
//! A [`Session`] reads the formulas of one document in order. Each is parsed, its symbols are
//! learned (declarations carry to later formulas), it is lowered to the evaluator's tree
//! ([`lower`], [`statement`]), every node gets a symbolic shape ([`infer`]) — mismatches are
//! reported here, before any number is computed — symbols that have a shape but no value are
//! sampled from N(0, 1) when a seed is given ([`random`]), and the values are computed
//! ([`interpret`]) with numpy-like semantics on nalgebra matrices ([`builtins`], [`kernels`]).
//! A definition (`f(x) = …`, `\text{head}_h = …`, `\mu = …`) serves the formulas after it; an
//! equation between computable sides is a claim, checked with a relative tolerance of 1e-9.
//!
//! This module handles untrusted input, so it may not unwrap, expect, panic or index.

#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

pub mod bindings;
pub mod budget;
pub mod builtins;
pub mod dims;
pub mod env;
pub mod errors;
pub mod expr;
pub mod grad;
pub mod infer;
pub mod interpret;
pub mod kernels;
pub mod lower;
mod outcome;
pub mod random;
pub mod shape;
pub mod statement;
pub mod trace;
pub mod value;
pub mod walk;

pub use errors::{EvalError, EvalErrorKind, Hint};
pub use outcome::{Failure, Outcome, OutcomeKind, Sample, Session, Warning};
pub use trace::TraceRow;
pub use value::{NumShape, Stats, Value};

/// The default of [`Options::max_steps`].
pub const DEFAULT_MAX_STEPS: u64 = 20_000_000;

/// Options of an evaluation.
#[derive(Debug, Clone)]
pub struct Options {
    /// The seed for N(0, 1) samples of symbols that have a shape but no value; without one,
    /// such symbols are an error that says how to bind them.
    pub seed: Option<u64>,
    /// The largest value allowed, in elements (default 8,000,000: 64 MB of f64, so that a formula of a few such values stays within a few hundred MB).
    pub max_elements: usize,
    /// The most steps (evaluations of a node, iterations of sums and free indices) one formula
    /// may take (default 20,000,000: a few seconds at most). Nested loops whose trip count
    /// already exceeds it are refused before they run.
    pub max_steps: u64,
    /// Whether to record a trace of every node.
    pub trace: bool,
    /// Parser limits.
    pub limits: crate::Limits,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            seed: None,
            max_elements: 8_000_000,
            max_steps: DEFAULT_MAX_STEPS,
            trace: false,
            limits: crate::Limits::default(),
        }
    }
}
