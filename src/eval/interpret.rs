//! The interpreter: computes an [`Expr`] tree's value, once its shapes have been inferred.
//!
//! A frame holds what one evaluation sees: parameters, the current values of indices, and the
//! resolution inference made (dimension sizes, index ranges, node shapes). Inside a loop (a
//! sum, or the free indices of an einsum-like expression) every node that does not depend on
//! a loop index is computed once and reused, so `(QK^\top)_{ij}` does not redo the product
//! for each entry.

use super::builtins::{self, check_size};
use super::env::Env;
use super::errors::{EvalError, EvalErrorKind, Hint, Needed};
use super::expr::{BinOp, Builtin, Expr, ExprKind, ReduceOp, Reduction};
use super::infer::{Inferrer, Resolution, MAX_CALL_DEPTH};
use super::trace::TraceRow;
use super::value::{NumShape, Value};
use super::walk;
use crate::syntax::ast::Span;
use nalgebra::{DMatrix, DVector};
use std::collections::{HashMap, HashSet};

type Evaluated = Result<Value, EvalError>;

/// What one evaluation sees.
#[derive(Debug, Default)]
pub struct Frame {
    values: HashMap<String, Value>,
    indices: HashMap<String, f64>,
    res: Resolution,
    loops: usize,
    dependent: HashSet<usize>,
    cache: HashMap<usize, Value>,
    top: bool,
    /// The trip count of the loops around the current node (0 stands for 1: no loop).
    trips: u128,
}

impl Frame {
    /// The frame of a top-level formula, with inference's resolution.
    pub fn top(res: Resolution) -> Self {
        Frame { res, top: true, ..Frame::default() }
    }
}

/// Evaluates expressions over an environment.
pub struct Machine<'e> {
    env: &'e Env,
    source: &'e str,
    limit: usize,
    trace: Option<Vec<TraceRow>>,
    depth: usize,
    members: HashMap<(String, usize), Value>,
    steps: u64,
    max_steps: u64,
}

fn at(kind: EvalErrorKind, span: Span) -> EvalError {
    EvalError::new(kind, span)
}

fn in_call(name: &str, error: EvalError, span: Span) -> EvalError {
    at(EvalErrorKind::InCall { name: name.to_string(), inner: Box::new(error) }, span)
}

fn scalar(value: Value, span: Span) -> Result<f64, EvalError> {
    match value {
        Value::Scalar(x) => Ok(x),
        other => Err(at(
            EvalErrorKind::WrongShape { expected: Needed::Number, found: other.shape().to_string() },
            span,
        )),
    }
}

impl<'e> Machine<'e> {
    /// A machine over `env` for formulas of `source`, refusing values over `limit` elements,
    /// recording a trace when asked.
    pub fn new(env: &'e Env, source: &'e str, limit: usize, trace: bool) -> Self {
        Machine {
            env,
            source,
            limit,
            trace: trace.then(Vec::new),
            depth: 0,
            members: HashMap::new(),
            steps: 0,
            max_steps: super::DEFAULT_MAX_STEPS,
        }
    }

    /// Refuses formulas that take more than `max_steps` steps.
    pub fn with_max_steps(mut self, max_steps: u64) -> Self {
        self.max_steps = max_steps;
        self
    }

    /// Refuses a loop of `count` iterations inside the loops of `frame` when their trip count
    /// already passes the step limit, before anything runs.
    fn plan_loop(&self, frame: &Frame, count: u128, span: Span) -> Result<(), EvalError> {
        let trips = frame.trips.max(1).saturating_mul(count);
        if trips > u128::from(self.max_steps) {
            return Err(at(EvalErrorKind::TooMuchWork { steps: Some(trips), limit: self.max_steps }, span));
        }
        Ok(())
    }

    /// The trace rows recorded so far.
    pub fn take_trace(&mut self) -> Vec<TraceRow> {
        self.trace.take().unwrap_or_default()
    }

    /// The value of `expr` with `free` indices stacked as axes (einsum).
    pub fn side(&mut self, frame: &mut Frame, expr: &Expr, free: &[String]) -> Evaluated {
        let mut names = walk::reduction_vars(expr);
        names.extend(free.iter().cloned());
        names.extend(frame.indices.keys().cloned());
        frame.dependent.extend(walk::dependent_ids(expr, &names));
        if free.is_empty() {
            return self.eval(frame, expr);
        }
        let mut sizes = Vec::new();
        for index in free {
            let size = frame.res.ranges.get(index).copied();
            sizes.push(
                size.ok_or_else(|| at(EvalErrorKind::UnknownRange { index: index.clone() }, expr.span))?,
            );
        }
        let count = sizes.iter().fold(1u128, |n, s| n.saturating_mul(*s as u128));
        self.plan_loop(frame, count, expr.span)?;
        let outer = frame.trips;
        frame.trips = outer.max(1).saturating_mul(count);
        frame.loops += 1;
        let result = self.einsum(frame, expr, free, &sizes);
        frame.loops -= 1;
        frame.trips = outer;
        let value = result?;
        self.record(frame, expr, &value);
        Ok(value)
    }

    fn einsum(&mut self, frame: &mut Frame, expr: &Expr, free: &[String], sizes: &[usize]) -> Evaluated {
        let shape = match sizes {
            [n] => NumShape::Vector(*n),
            [r, c] => NumShape::Matrix(*r, *c),
            _ => NumShape::Scalar,
        };
        check_size(shape, self.limit).map_err(|k| at(k, expr.span))?;
        match (free, sizes) {
            ([i], [n]) => {
                let mut rows = Vec::with_capacity(*n);
                for k in 1..=*n {
                    frame.indices.insert(i.clone(), k as f64);
                    rows.push(self.eval(frame, expr)?);
                }
                frame.indices.remove(i);
                stack(rows, expr.span, self.limit)
            }
            ([i, j], [r, c]) => {
                let mut out = DMatrix::zeros(*r, *c);
                for (a, mut column) in out.column_iter_mut().enumerate() {
                    frame.indices.insert(j.clone(), (a + 1) as f64);
                    for (b, entry) in column.iter_mut().enumerate() {
                        frame.indices.insert(i.clone(), (b + 1) as f64);
                        *entry = scalar(self.eval(frame, expr)?, expr.span)?;
                    }
                }
                frame.indices.remove(i);
                frame.indices.remove(j);
                Ok(Value::Matrix(out))
            }
            _ => Err(at(EvalErrorKind::TooManyFreeIndices, expr.span)),
        }
    }

    /// Counts `cost` steps of one operation before it runs (a product's n·m·k, an inverse's
    /// n³, beyond the one step of its node), refusing it if they pass the limit.
    fn charge(&mut self, cost: u128, span: Span) -> Result<(), EvalError> {
        let total = u128::from(self.steps).saturating_add(cost.saturating_sub(1));
        if total > u128::from(self.max_steps) {
            return Err(at(EvalErrorKind::TooMuchWork { steps: Some(total), limit: self.max_steps }, span));
        }
        self.steps = u64::try_from(total).unwrap_or(u64::MAX);
        Ok(())
    }

    fn eval(&mut self, frame: &mut Frame, expr: &Expr) -> Evaluated {
        self.steps += 1;
        if self.steps > self.max_steps {
            return Err(at(EvalErrorKind::TooMuchWork { steps: None, limit: self.max_steps }, expr.span));
        }
        let cacheable = frame.loops > 0 && !frame.dependent.contains(&expr.id) && !is_leaf(expr);
        if cacheable {
            if let Some(v) = frame.cache.get(&expr.id) {
                return Ok(v.clone());
            }
        }
        let value = self.eval_kind(frame, expr)?;
        if cacheable {
            frame.cache.insert(expr.id, value.clone());
        }
        self.record(frame, expr, &value);
        Ok(value)
    }

    fn record(&mut self, frame: &Frame, expr: &Expr, value: &Value) {
        let Some(rows) = self.trace.as_mut() else { return };
        if !frame.top || frame.loops > 0 || matches!(expr.kind, ExprKind::Number(_)) {
            return;
        }
        if rows.iter().any(|r| r.span == expr.span) {
            return;
        }
        let symbolic = frame.res.shapes.get(&expr.id).map_or_else(|| "?".to_string(), |s| s.0.clone());
        let softmax = matches!(expr.kind, ExprKind::Call(Builtin::Softmax, _));
        rows.push(TraceRow::new(self.source, expr.span, symbolic, value, softmax));
    }

    fn eval_kind(&mut self, frame: &mut Frame, expr: &Expr) -> Evaluated {
        let span = expr.span;
        let limit = self.limit;
        match &expr.kind {
            ExprKind::Number(x) => Ok(Value::Scalar(*x)),
            ExprKind::Symbol(name, _) => self.symbol(frame, name, span),
            ExprKind::Ones | ExprKind::Identity => self.constant(frame, expr),
            ExprKind::Neg(a) => Ok(builtins::map(self.eval(frame, a)?, |x| -x)),
            ExprKind::Transpose(a) => Ok(builtins::transpose(self.eval(frame, a)?)),
            ExprKind::Binary(BinOp::Mul, a, b) if self.trace.is_none() && is_softmax_matrix_call(a) => {
                self.softmax_product(frame, a, b, span)
            }
            ExprKind::Binary(op, a, b) => {
                let (left, right) = (self.eval(frame, a)?, self.eval(frame, b)?);
                self.binary(*op, left, right, b, span)
            }
            ExprKind::Fold(first, rest) => self.fold(frame, first, rest),
            ExprKind::Power(base, exponent) => {
                let b = self.eval(frame, base)?;
                let e = scalar(self.eval(frame, exponent)?, exponent.span)?;
                self.charge(builtins::power_cost(&b, e), span)?;
                builtins::power(b, e, limit).map_err(|k| at(k, span))
            }
            ExprKind::Call(builtin, args) => self.call(frame, *builtin, args, span),
            ExprKind::UserCall(name, args) => {
                let values = args.iter().map(|a| self.eval(frame, a)).collect::<Result<Vec<_>, _>>()?;
                self.user_call(name, values, span)
            }
            ExprKind::Member(name, index) => {
                let k = scalar(self.eval(frame, index)?, index.span)?;
                self.member(name, k, span)
            }
            ExprKind::Index(base, indices) => self.index(frame, base, indices, span),
            ExprKind::Reduce(r) => self.reduce(frame, r, expr.id, span),
            ExprKind::Norm(a, order) => {
                let v = self.eval(frame, a)?;
                builtins::norm(&v, *order).map(Value::Scalar).map_err(|k| at(k, span))
            }
            ExprKind::Matrix(rows) => self.matrix(frame, rows),
            ExprKind::Annotated(body, _) => self.eval(frame, body),
            ExprKind::Range(..) => Err(at(EvalErrorKind::Unsupported { what: "\\dots".into() }, span)),
        }
    }

    /// `left op right`, `b` the right operand as written (`u v^\top` is an outer product);
    /// `span` is the operation's.
    fn binary(&mut self, op: BinOp, left: Value, right: Value, b: &Expr, span: Span) -> Evaluated {
        let outer = op == BinOp::Mul && matches!(b.kind, ExprKind::Transpose(_));
        self.charge(builtins::binary_cost(op, &left, &right, outer), span)?;
        builtins::binary(op, left, right, outer, self.limit).map_err(|k| at(k, span))
    }

    /// A long product, left to right: each step as the nested [`ExprKind::Binary`] it stands
    /// for would compute it (the softmax first factor included), with its span (the first
    /// factor to this one) and its step, in a loop.
    fn fold(&mut self, frame: &mut Frame, first: &Expr, rest: &[(BinOp, Expr)]) -> Evaluated {
        let mut span = first.span;
        let (mut acc, done) = match rest.first() {
            Some((BinOp::Mul, b)) if self.trace.is_none() && is_softmax_matrix_call(first) => {
                span = span.join(b.span);
                (self.softmax_product(frame, first, b, span)?, 1)
            }
            _ => (self.eval(frame, first)?, 0),
        };
        for (index, (op, b)) in rest.iter().enumerate().skip(done) {
            if index > 0 {
                self.count_step(span)?;
            }
            let right = self.eval(frame, b)?;
            span = span.join(b.span);
            acc = self.binary(*op, acc, right, b, span)?;
        }
        Ok(acc)
    }

    /// One step more: an operation of a [`ExprKind::Fold`] past its first counts as the
    /// binary node it stands for would.
    fn count_step(&mut self, span: Span) -> Result<(), EvalError> {
        self.steps += 1;
        if self.steps > self.max_steps {
            return Err(at(EvalErrorKind::TooMuchWork { steps: None, limit: self.max_steps }, span));
        }
        Ok(())
    }

    fn symbol(&mut self, frame: &Frame, name: &str, span: Span) -> Evaluated {
        if let Some(k) = frame.indices.get(name) {
            return Ok(Value::Scalar(*k));
        }
        if let Some(v) = frame.values.get(name).or_else(|| self.env.values.get(name)) {
            return Ok(v.clone());
        }
        let size = frame.res.dims.get(name).or_else(|| self.env.dims.get(name));
        match size {
            Some(size) => Ok(Value::Scalar(*size as f64)),
            None => Err(at(EvalErrorKind::Unbound { name: name.to_string() }, span)
                .with_hint(Hint::Bind(name.into()))),
        }
    }

    /// `\mathbf{1}` and `I`, as large as inference found their context needs.
    fn constant(&mut self, frame: &Frame, expr: &Expr) -> Evaluated {
        let shape = frame.res.shapes.get(&expr.id).and_then(|s| s.1);
        let what = if expr.kind == ExprKind::Ones { "1" } else { "I" };
        let unknown = || at(EvalErrorKind::UnknownSize { what: what.into() }, expr.span);
        let shape = shape.ok_or_else(unknown)?;
        check_size(shape, self.limit).map_err(|k| at(k, expr.span))?;
        match shape {
            NumShape::Vector(n) => Ok(Value::Vector(DVector::from_element(n, 1.0))),
            NumShape::Matrix(r, c) => Ok(Value::Matrix(DMatrix::identity(r, c))),
            NumShape::Scalar => Ok(Value::Scalar(1.0)),
        }
    }

    fn call(&mut self, frame: &mut Frame, builtin: Builtin, args: &[Expr], span: Span) -> Evaluated {
        if let (Builtin::Softmax, [arg], None) = (builtin, args, &self.trace) {
            if let ExprKind::Binary(BinOp::Div, a, b) = &arg.kind {
                return self.scaled_softmax(frame, arg, a, b);
            }
        }
        let mut values = Vec::with_capacity(args.len());
        for arg in args {
            match &arg.kind {
                ExprKind::Range(name, from, to) if builtin == Builtin::Concat => {
                    let a = scalar(self.eval(frame, from)?, from.span)?;
                    let b = scalar(self.eval(frame, to)?, to.span)?;
                    let (a, b) = (whole(a, from.span)?, whole(b, to.span)?);
                    if b.saturating_sub(a) as u128 > self.limit as u128 {
                        return Err(at(
                            EvalErrorKind::TooLarge { elements: (b - a) as u128, limit: self.limit },
                            arg.span,
                        ));
                    }
                    for k in a..=b {
                        values.push(self.member(name, k as f64, arg.span)?);
                    }
                }
                _ => values.push(self.eval(frame, arg)?),
            }
        }
        let result = match (builtin, values.len()) {
            (Builtin::Concat, _) => builtins::concat(values, self.limit),
            (Builtin::Max | Builtin::Min, n) if n > 1 => {
                builtins::extreme(values, builtin == Builtin::Max, self.limit)
            }
            (_, 1) => match values.pop() {
                Some(v) => builtins::apply(builtin, v),
                None => Err(EvalErrorKind::NothingToEvaluate),
            },
            (_, n) => Err(EvalErrorKind::WrongArity {
                name: format!("{builtin:?}").to_lowercase(),
                expected: 1,
                found: n,
            }),
        };
        result.map_err(|k| at(k, span))
    }

    /// `softmax(S) V` (and `softmax(S / c) V`) with matrices: normalised after the product.
    fn softmax_product(&mut self, frame: &mut Frame, call: &Expr, rhs: &Expr, span: Span) -> Evaluated {
        let ExprKind::Call(_, args) = &call.kind else {
            return Err(at(EvalErrorKind::NothingToEvaluate, span));
        };
        let Some(arg) = args.first() else { return Err(at(EvalErrorKind::NothingToEvaluate, span)) };
        let (scores, scale) = match &arg.kind {
            ExprKind::Binary(BinOp::Div, a, b) => {
                let (numerator, denominator) = (self.eval(frame, a)?, self.eval(frame, b)?);
                match denominator {
                    Value::Scalar(c) if c > 0.0 && c.is_finite() => (numerator, 1.0 / c),
                    other => {
                        let quotient = builtins::binary(BinOp::Div, numerator, other, false, self.limit);
                        (quotient.map_err(|k| at(k, arg.span))?, 1.0)
                    }
                }
            }
            _ => (self.eval(frame, arg)?, 1.0),
        };
        let right = self.eval(frame, rhs)?;
        self.charge(builtins::binary_cost(BinOp::Mul, &scores, &right, false), span)?;
        match (scores, right) {
            (Value::Matrix(s), Value::Matrix(v)) => {
                builtins::softmax_times(s, scale, v, self.limit).map_err(|k| at(k, span))
            }
            (scores, right) => {
                let weights = builtins::softmax_scaled(scores, scale);
                builtins::binary(BinOp::Mul, weights, right, false, self.limit).map_err(|k| at(k, span))
            }
        }
    }

    /// `softmax(a / b)` with b a positive number: the division folded into the softmax (one
    /// pass less over the scores). Only without a trace, which shows `a / b` on its own.
    fn scaled_softmax(&mut self, frame: &mut Frame, arg: &Expr, a: &Expr, b: &Expr) -> Evaluated {
        let numerator = self.eval(frame, a)?;
        let denominator = self.eval(frame, b)?;
        match (&numerator, &denominator) {
            (Value::Matrix(_) | Value::Vector(_), Value::Scalar(s)) if *s > 0.0 && s.is_finite() => {
                Ok(builtins::softmax_scaled(numerator, 1.0 / s))
            }
            _ => {
                let quotient = builtins::binary(BinOp::Div, numerator, denominator, false, self.limit);
                builtins::apply(Builtin::Softmax, quotient.map_err(|k| at(k, arg.span))?)
                    .map_err(|k| at(k, arg.span))
            }
        }
    }

    fn enter(&mut self, span: Span) -> Result<(), EvalError> {
        if self.depth >= MAX_CALL_DEPTH {
            return Err(at(EvalErrorKind::TooDeep { limit: MAX_CALL_DEPTH }, span));
        }
        self.depth += 1;
        Ok(())
    }

    fn user_call(&mut self, name: &str, args: Vec<Value>, span: Span) -> Evaluated {
        let Some(function) = self.env.functions.get(name) else {
            return Err(at(EvalErrorKind::Unbound { name: name.to_string() }, span));
        };
        if function.params.len() != args.len() {
            let kind = EvalErrorKind::WrongArity {
                name: name.into(),
                expected: function.params.len(),
                found: args.len(),
            };
            return Err(at(kind, span));
        }
        self.charge(u128::from(super::budget::CALL_STEPS), span)?;
        let shapes: Vec<(String, NumShape)> =
            function.params.iter().cloned().zip(args.iter().map(Value::shape)).collect();
        let mut inferrer =
            Inferrer::for_call(self.env, self.source, &shapes).with_steps(self.steps, self.max_steps);
        let inferred = inferrer.infer(&function.body);
        self.steps = inferrer.steps();
        inferred.map_err(|e| in_call(name, e, span))?;
        let mut frame = Frame { res: inferrer.resolution(), ..Frame::default() };
        check_shapes(&frame.res, self.limit).map_err(|k| in_call(name, at(k, function.body.span), span))?;
        inferrer.refuse_costly().map_err(|e| in_call(name, e, span))?;
        frame.values = function.params.iter().cloned().zip(args).collect();
        let params = function.params.clone();
        let free =
            walk::free_indices(&function.body, &|n| self.env.is_value(n) || params.iter().any(|p| p == n));
        self.enter(span)?;
        let result = self.side(&mut frame, &function.body, &free);
        self.depth -= 1;
        result.map_err(|e| in_call(name, e, span))
    }

    /// Member `k` (1-based) of a bound family or a defined one.
    fn member(&mut self, name: &str, k: f64, span: Span) -> Evaluated {
        if let Some(family) = self.env.values.get(name) {
            return builtins::index(family, &[k]).map_err(|e| at(e, span));
        }
        let Some(def) = self.env.families.get(name) else {
            return Err(at(EvalErrorKind::Unbound { name: name.to_string() }, span)
                .with_hint(Hint::Bind(name.into())));
        };
        let k = whole(k, span)?;
        if let Some(v) = self.members.get(&(name.to_string(), k)) {
            return Ok(v.clone());
        }
        self.charge(u128::from(super::budget::CALL_STEPS), span)?;
        let mut inferrer =
            Inferrer::for_call(self.env, self.source, &[]).with_steps(self.steps, self.max_steps);
        inferrer.bind_index(&def.index, None);
        let inferred = inferrer.infer(&def.body);
        self.steps = inferrer.steps();
        inferred.map_err(|e| in_call(name, e, span))?;
        inferrer.refuse_costly().map_err(|e| in_call(name, e, span))?;
        let mut frame = Frame { res: inferrer.resolution(), ..Frame::default() };
        frame.indices.insert(def.index.clone(), k as f64);
        self.enter(span)?;
        let result = self.side(&mut frame, &def.body, &[]);
        self.depth -= 1;
        let value = result.map_err(|e| in_call(name, e, span))?;
        self.members.insert((name.to_string(), k), value.clone());
        Ok(value)
    }

    fn index(&mut self, frame: &mut Frame, base: &Expr, indices: &[Expr], span: Span) -> Evaluated {
        let mut positions = Vec::with_capacity(indices.len());
        for index in indices {
            positions.push(scalar(self.eval(frame, index)?, index.span)?);
        }
        if let ExprKind::Symbol(name, _) = &base.kind {
            let bound = frame.values.get(name).or_else(|| self.env.values.get(name));
            if let Some(v) = bound.filter(|_| !frame.indices.contains_key(name)) {
                return builtins::index(v, &positions).map_err(|k| at(k, span));
            }
        }
        let v = self.eval(frame, base)?;
        builtins::index(&v, &positions).map_err(|k| at(k, span))
    }

    fn reduce(&mut self, frame: &mut Frame, r: &Reduction, id: usize, span: Span) -> Evaluated {
        let lower = match &r.lower {
            Some(e) => whole_signed(scalar(self.eval(frame, e)?, e.span)?, e.span)?,
            None => 1,
        };
        let upper = match &r.upper {
            Some(e) => whole_signed(scalar(self.eval(frame, e)?, e.span)?, e.span)?,
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
    ) -> Evaluated {
        let mut acc: Option<Value> = None;
        let mut best: Option<(i64, f64)> = None;
        for k in lower..=upper {
            frame.indices.insert(r.var.clone(), k as f64);
            let v = self.eval(frame, &r.body)?;
            let limit = self.limit;
            acc = Some(match (r.op, acc.take()) {
                (ReduceOp::Argmax | ReduceOp::Argmin, _) => {
                    let x = scalar(v, r.body.span)?;
                    let better = |b: f64| if r.op == ReduceOp::Argmax { x > b } else { x < b };
                    if best.is_none_or(|(_, b)| better(b) || b.is_nan()) {
                        best = Some((k, x));
                    }
                    Value::Scalar(0.0)
                }
                (_, None) => v,
                (ReduceOp::Sum, Some(a)) => {
                    builtins::binary(BinOp::Add, a, v, false, limit).map_err(|e| at(e, span))?
                }
                (ReduceOp::Prod, Some(a)) => {
                    builtins::binary(BinOp::Hadamard, a, v, false, limit).map_err(|e| at(e, span))?
                }
                (op, Some(a)) => {
                    builtins::extreme(vec![a, v], op == ReduceOp::Max, limit).map_err(|e| at(e, span))?
                }
            });
        }
        match (r.op, acc, best) {
            (ReduceOp::Argmax | ReduceOp::Argmin, _, Some((k, _))) => Ok(Value::Scalar(k as f64)),
            (_, Some(v), _) if !matches!(r.op, ReduceOp::Argmax | ReduceOp::Argmin) => Ok(v),
            (ReduceOp::Sum, None, _) => Ok(Value::Scalar(0.0)),
            (ReduceOp::Prod, None, _) => Ok(Value::Scalar(1.0)),
            _ => Err(at(EvalErrorKind::NothingToEvaluate, span)),
        }
    }

    fn matrix(&mut self, frame: &mut Frame, rows: &[Vec<Expr>]) -> Evaluated {
        let width = rows.first().map_or(0, Vec::len);
        let mut data = Vec::with_capacity(rows.len() * width);
        for row in rows {
            for cell in row {
                data.push(scalar(self.eval(frame, cell)?, cell.span)?);
            }
        }
        if data.len() != rows.len() * width || data.is_empty() {
            return Err(at(EvalErrorKind::NothingToEvaluate, Span::default()));
        }
        Ok(Value::Matrix(DMatrix::from_row_slice(rows.len(), width, &data)))
    }
}

/// Whether `expr` is `softmax(…)` of one argument (to fuse with a following product).
fn is_softmax_matrix_call(expr: &Expr) -> bool {
    matches!(&expr.kind, ExprKind::Call(Builtin::Softmax, args) if args.len() == 1)
}

fn is_leaf(expr: &Expr) -> bool {
    matches!(expr.kind, ExprKind::Number(_) | ExprKind::Symbol(..))
}

/// Stacks the values of a free index: numbers into a vector, vectors into matrix rows.
fn stack(rows: Vec<Value>, span: Span, limit: usize) -> Evaluated {
    match rows.first() {
        Some(Value::Scalar(_)) | None => {
            let xs = rows.into_iter().map(|v| scalar(v, span)).collect::<Result<Vec<_>, _>>()?;
            Ok(Value::Vector(DVector::from_vec(xs)))
        }
        Some(Value::Vector(first)) => {
            let width = first.len();
            check_size(NumShape::Matrix(rows.len(), width), limit).map_err(|k| at(k, span))?;
            let mut data = Vec::with_capacity(rows.len() * width);
            for row in &rows {
                match row {
                    Value::Vector(v) if v.len() == width => data.extend(v.iter()),
                    other => {
                        let kind = EvalErrorKind::WrongShape {
                            expected: Needed::VectorOf(width),
                            found: other.shape().to_string(),
                        };
                        return Err(at(kind, span));
                    }
                }
            }
            Ok(Value::Matrix(DMatrix::from_row_slice(rows.len(), width, &data)))
        }
        Some(other) => Err(at(
            EvalErrorKind::WrongShape {
                expected: Needed::NumberOrVectorPerIndex,
                found: other.shape().to_string(),
            },
            span,
        )),
    }
}

/// Refuses a frame whose inferred shapes are larger than `limit`, before computing anything.
pub fn check_shapes(res: &Resolution, limit: usize) -> Result<(), EvalErrorKind> {
    for (_, shape) in res.shapes.values() {
        if let Some(shape) = shape {
            check_size(*shape, limit)?;
        }
    }
    Ok(())
}

fn whole(x: f64, span: Span) -> Result<usize, EvalError> {
    if x.is_finite() && x.fract() == 0.0 && x > 1e15 {
        return Err(at(EvalErrorKind::WholeNumberTooLarge { value: x, limit: 1e15 }, span));
    }
    if x.fract() != 0.0 || !(0.0..=1e15).contains(&x) {
        return Err(at(EvalErrorKind::NotAnInteger { value: x }, span));
    }
    Ok(x as usize)
}

fn whole_signed(x: f64, span: Span) -> Result<i64, EvalError> {
    if x.is_finite() && x.fract() == 0.0 && x.abs() > 1e15 {
        return Err(at(EvalErrorKind::WholeNumberTooLarge { value: x, limit: 1e15 }, span));
    }
    if x.fract() != 0.0 || !x.is_finite() {
        return Err(at(EvalErrorKind::NotAnInteger { value: x }, span));
    }
    Ok(x as i64)
}
