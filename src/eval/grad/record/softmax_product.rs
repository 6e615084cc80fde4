//! `softmax(A B) V` and `softmax(A B / c) V` of matrices (c a positive number no gradient flows
//! into), recorded as one node as `eval` computes them: the exponentials times V, each row then
//! divided by its sum (see [`attention`]). Any other form — the scores not a product of two
//! matrices, c a vector or a `--wrt` name, V a vector — is recorded operation by operation.

use super::super::super::builtins::{check_size, OPERATIONS_PER_STEP};
use super::super::super::errors::EvalErrorKind;
use super::super::super::expr::{BinOp, Builtin, Expr, ExprKind};
use super::super::super::value::{NumShape, Value};
use super::super::attention::{self, SoftmaxProduct};
use super::super::tape::{NodeId, Op, NODE_OVERHEAD};
use super::{at, Frame, Recorded, Recorder};
use crate::syntax::ast::Span;

impl Recorder<'_> {
    /// `call · rhs` where `call` is a softmax of one argument.
    pub(super) fn softmax_product(
        &mut self,
        frame: &mut Frame,
        call: &Expr,
        rhs: &Expr,
        span: Span,
    ) -> Recorded {
        let arg = match &call.kind {
            ExprKind::Call(Builtin::Softmax, args) => args.first(),
            _ => None,
        };
        let Some(arg) = arg else { return Err(at(EvalErrorKind::NothingToEvaluate, span)) };
        let (product, divisor) = match &arg.kind {
            ExprKind::Binary(BinOp::Div, p, c) => (p.as_ref(), Some(c.as_ref())),
            _ => (arg, None),
        };
        let ExprKind::Binary(BinOp::Mul, x, y) = &product.kind else {
            let (weights, right) = (self.eval(frame, call)?, self.eval(frame, rhs)?);
            return self.binary(frame, BinOp::Mul, weights, right, rhs, span);
        };
        let (a, b) = (self.eval(frame, x)?, self.eval(frame, y)?);
        let c = match divisor {
            Some(c) => Some(self.eval(frame, c)?),
            None => None,
        };
        let v = self.eval(frame, rhs)?;
        let scale = match c.map(|c| (self.tape.value(c), self.tape.needs(c))) {
            None => Some(1.0),
            Some((Value::Scalar(c), false)) if *c > 0.0 && c.is_finite() => Some(1.0 / c),
            Some(_) => None,
        };
        let fits = match (self.tape.value(a), self.tape.value(b), self.tape.value(v)) {
            (Value::Matrix(a), Value::Matrix(b), Value::Matrix(v)) => {
                a.ncols() == b.nrows()
                    && b.ncols() == v.nrows()
                    && !a.is_empty()
                    && !b.is_empty()
                    && !v.is_empty()
            }
            _ => false,
        };
        if let (Some(scale), true) = (scale, fits) {
            return self.fused(a, b, v, scale, span);
        }
        // One operation at a time, as `eval_kind` records them.
        let mut scores = self.binary(frame, BinOp::Mul, a, b, y, product.span)?;
        if let (Some(c), Some(divisor)) = (c, divisor) {
            scores = self.binary(frame, BinOp::Div, scores, c, divisor, arg.span)?;
        }
        let weights = self.apply_one(frame, Builtin::Softmax, scores, call.span)?;
        self.binary(frame, BinOp::Mul, weights, v, rhs, span)
    }

    /// The node of `softmax(scale · a b) v`: its work charged and its memory (the exponentials,
    /// and what the backward pass will allocate) counted before anything is computed.
    fn fused(&mut self, a: NodeId, b: NodeId, v: NodeId, scale: f64, span: Span) -> Recorded {
        let (n, k, m, d) = match (self.tape.value(a), self.tape.value(v)) {
            (Value::Matrix(x), Value::Matrix(w)) => (x.nrows(), x.ncols(), w.nrows(), w.ncols()),
            _ => return Err(at(EvalErrorKind::NothingToEvaluate, span)),
        };
        let products = (n as u128).saturating_mul(m as u128).saturating_mul(k.saturating_add(d) as u128);
        self.charge((products / OPERATIONS_PER_STEP).max(1), span)?;
        check_size(NumShape::Matrix(n, m), self.limit).map_err(|e| at(e, span))?;
        check_size(NumShape::Matrix(n, d), self.limit).map_err(|e| at(e, span))?;
        let needs = [a, b, v].iter().any(|i| self.tape.needs(*i));
        let kept = (n as u128).saturating_mul(m as u128).saturating_add(n as u128);
        let backward = if needs { attention::backward_elements(n, m, d) } else { 0 };
        let extra = kept.saturating_add(backward);
        let own = (n as u128).saturating_mul(d as u128).saturating_mul(1 + u128::from(needs));
        self.tape.fits(extra.saturating_add(own).saturating_add(NODE_OVERHEAD), span)?;
        let (out, exps, sums) = match (self.tape.value(a), self.tape.value(b), self.tape.value(v)) {
            (Value::Matrix(x), Value::Matrix(y), Value::Matrix(w)) => attention::forward(x, y, w, scale),
            _ => return Err(at(EvalErrorKind::NothingToEvaluate, span)),
        };
        let op = Op::SoftmaxProduct(Box::new(SoftmaxProduct { a, b, v, scale, exps, sums }));
        self.tape.push_with(Value::Matrix(out), op, span, extra)
    }
}
