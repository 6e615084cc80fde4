//! The step budget of shape inference, which evaluation shares: inference follows every call
//! into its definition, so definitions calling each other take work exponential in their depth;
//! each node inferred counts a step, each call [`CALL_STEPS`] more, and a product or matrix
//! power whose sizes are already known is refused when it cannot fit, before anything is
//! sampled.

use super::builtins;
use super::dims::DimId;
use super::errors::{EvalError, EvalErrorKind};
use super::infer::Inferrer;
use crate::syntax::ast::Span;

/// The steps a call of a definition counts, in inference and in evaluation, beyond the nodes
/// of its body: a call sets up a frame and an inference of its own, the work of some tens of
/// nodes, so that definitions calling each other stay within the time the step limit means.
pub const CALL_STEPS: u64 = 32;

impl Inferrer<'_> {
    /// This inferrer with `taken` steps already counted and at most `max_steps` in all
    /// (the evaluation's step limit, which inference shares).
    pub fn with_steps(mut self, taken: u64, max_steps: u64) -> Self {
        self.steps = taken;
        self.max_steps = max_steps;
        self
    }

    /// The steps counted so far, those given to [`Inferrer::with_steps`] included.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Counts the fixed work of following a call into a definition ([`CALL_STEPS`]).
    pub(super) fn charge_call(&mut self, span: Span) -> Result<(), EvalError> {
        self.steps = self.steps.saturating_add(CALL_STEPS);
        if self.steps > self.max_steps {
            return Err(EvalError::new(
                EvalErrorKind::TooMuchWork { steps: None, limit: self.max_steps },
                span,
            ));
        }
        Ok(())
    }

    /// Counts one step more than the node being inferred: an operation of a long product
    /// ([`super::expr::ExprKind::Fold`]) past its first, as the binary node it stands for.
    pub(super) fn count_step(&mut self, span: Span) -> Result<(), EvalError> {
        self.steps = self.steps.saturating_add(1);
        if self.steps > self.max_steps {
            return Err(EvalError::new(
                EvalErrorKind::TooMuchWork { steps: None, limit: self.max_steps },
                span,
            ));
        }
        Ok(())
    }

    /// Notes an operation whose cost (the product of `sizes`, times `times` operations) is
    /// known from the sizes already and passes the step limit: a product n·m·k, an inverse n³
    /// (evaluation counts the same, as it runs). [`Inferrer::refuse_costly`] refuses it, after
    /// the check of sizes, before any value is sampled or computed.
    pub(super) fn refuse_past_budget(
        &mut self,
        sizes: &[DimId],
        times: u128,
        span: Span,
    ) -> Result<(), EvalError> {
        let mut cost = times;
        for dim in sizes {
            let Some(size) = self.dims.size(*dim) else { return Ok(()) };
            cost = cost.saturating_mul(size as u128);
        }
        let cost = cost / builtins::OPERATIONS_PER_STEP;
        if cost > u128::from(self.max_steps) && self.too_costly.is_none() {
            self.too_costly = Some((cost, span));
        }
        Ok(())
    }

    /// The first operation inferred whose known cost passes the step limit, refused.
    pub fn refuse_costly(&self) -> Result<(), EvalError> {
        match self.too_costly {
            Some((steps, span)) => Err(EvalError::new(
                EvalErrorKind::TooMuchWork { steps: Some(steps), limit: self.max_steps },
                span,
            )),
            None => Ok(()),
        }
    }
}
