//! Sums, products, extremes and arg max / arg min over an index, recorded: the loop's bounds,
//! its work planned against the step limit before it runs, each term recorded (nodes that do
//! not depend on the index once, from the frame's cache) and folded into one node a term.

use super::super::super::builtins;
use super::super::super::errors::EvalErrorKind;
use super::super::super::expr::{BinOp, ReduceOp, Reduction};
use super::super::super::value::Value;
use super::super::tape::{NodeId, Op};
use super::{at, scalar_of, whole_signed, Frame, Recorded, Recorder};
use crate::syntax::ast::Span;

impl Recorder<'_> {
    pub(super) fn reduce(&mut self, frame: &mut Frame, r: &Reduction, id: usize, span: Span) -> Recorded {
        let lower = match &r.lower {
            Some(e) => {
                let node = self.eval(frame, e)?;
                whole_signed(scalar_of(self.tape.value(node), e.span)?, e.span)?
            }
            None => 1,
        };
        let upper = match &r.upper {
            Some(e) => {
                let node = self.eval(frame, e)?;
                whole_signed(scalar_of(self.tape.value(node), e.span)?, e.span)?
            }
            None => match frame.res.reductions.get(&id) {
                Some(n) => *n as i64,
                None => return Err(at(EvalErrorKind::UnknownRange { index: r.var.clone() }, span)),
            },
        };
        let count = (upper - lower + 1).max(0) as u128;
        if count > self.limit as u128 {
            return Err(at(EvalErrorKind::TooLarge { elements: count, limit: self.limit }, span));
        }
        self.plan_loop(frame, count, span)?;
        let saved = frame.indices.get(&r.var).copied();
        let outer = frame.trips;
        frame.trips = outer.max(1).saturating_mul(count);
        frame.loops += 1;
        let result = self.reduce_loop(frame, r, lower, upper, span);
        frame.loops -= 1;
        frame.trips = outer;
        match saved {
            Some(k) => frame.indices.insert(r.var.clone(), k),
            None => frame.indices.remove(&r.var),
        };
        result
    }

    fn reduce_loop(
        &mut self,
        frame: &mut Frame,
        r: &Reduction,
        lower: i64,
        upper: i64,
        span: Span,
    ) -> Recorded {
        let mut acc: Option<NodeId> = None;
        let mut best: Option<(i64, f64)> = None;
        let limit = self.limit;
        for k in lower..=upper {
            frame.indices.insert(r.var.clone(), k as f64);
            let node = self.eval(frame, &r.body)?;
            if matches!(r.op, ReduceOp::Argmax | ReduceOp::Argmin) {
                let x = scalar_of(self.tape.value(node), r.body.span)?;
                let better = |b: f64| if r.op == ReduceOp::Argmax { x > b } else { x < b };
                if best.is_none_or(|(_, b)| better(b) || b.is_nan()) {
                    best = Some((k, x));
                }
                continue;
            }
            let Some(a) = acc else {
                acc = Some(node);
                continue;
            };
            let (x, y) = (self.value(a), self.value(node));
            let (value, op) = match r.op {
                ReduceOp::Sum => (builtins::binary(BinOp::Add, x, y, false, limit), Op::Add(a, node)),
                ReduceOp::Prod => {
                    (builtins::binary(BinOp::Hadamard, x, y, false, limit), Op::Hadamard(a, node))
                }
                op => {
                    let largest = op == ReduceOp::Max;
                    (builtins::extreme(vec![x, y], largest, limit), Op::Extreme(a, node, largest))
                }
            };
            acc = Some(self.tape.push(value.map_err(|e| at(e, span))?, op, span)?);
        }
        match (r.op, acc, best) {
            (ReduceOp::Argmax | ReduceOp::Argmin, _, Some((k, _))) => {
                self.constant(Value::Scalar(k as f64), span)
            }
            (ReduceOp::Argmax | ReduceOp::Argmin, _, None) => Err(at(EvalErrorKind::NothingToEvaluate, span)),
            (_, Some(node), _) => Ok(node),
            (ReduceOp::Sum, None, _) => self.constant(Value::Scalar(0.0), span),
            (ReduceOp::Prod, None, _) => self.constant(Value::Scalar(1.0), span),
            _ => Err(at(EvalErrorKind::NothingToEvaluate, span)),
        }
    }
}
