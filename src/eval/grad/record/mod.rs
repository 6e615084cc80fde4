//! The forward pass of `grad`: the evaluator's tree computed as the interpreter computes it
//! (same builtins, same loops, calls and families), every value pushed on the [`Tape`] with the
//! operation that made it.
//!
//! It follows [`super::super::interpret`] node for node, so that every intermediate value the
//! derivatives need is on the tape, with one fused kernel as `eval` has it: `softmax(A B / c) V`
//! of matrices is one node (`softmax_product.rs`; not with `--trace`, which shows each slot).
//! Sums, products and extremes over an index are recorded in `reduce.rs`.
//!
//! A name is, in order: an index's current value, a parameter of the call being recorded, a
//! `--wrt` name (a leaf that needs a gradient), a name bound by an earlier line
//! (`\mu = …`, recorded again from its definition so the gradient flows through it), a value
//! (a constant leaf), a dimension's size. Inside loops, nodes that do not depend on a loop
//! index are recorded once and reused, as the interpreter caches them.

mod reduce;
mod softmax_product;

use super::super::builtins::{self, check_size};
use super::super::env::Env;
use super::super::errors::{EvalError, EvalErrorKind, Hint, Needed};
use super::super::expr::{BinOp, Builtin, Expr, ExprKind};
use super::super::infer::{Inferrer, Resolution, MAX_CALL_DEPTH};
use super::super::value::{NumShape, Value};
use super::super::walk;
use super::tape::{NodeId, Op, Tape};
use crate::syntax::ast::Span;
use nalgebra::{DMatrix, DVector};
use std::collections::{HashMap, HashSet};

type Recorded = Result<NodeId, EvalError>;

/// A name bound by an earlier line (`\mu = …`, `\alpha_{ij} = …`, `\sigma^2 = …`).
#[derive(Debug, Clone)]
pub struct LetDef {
    /// The indices on the left side.
    pub indices: Vec<String>,
    /// Whether the left side was squared (the name is the root).
    pub squared: bool,
    /// The right side.
    pub body: Expr,
    /// The line it was written on.
    pub source: String,
}

/// A node of the formula differentiated, for `--trace`.
#[derive(Debug, Clone)]
pub struct Slot {
    /// Where it is.
    pub span: Span,
    /// Its shape in dimension symbols.
    pub symbolic: String,
    /// Its node on the tape.
    pub node: NodeId,
}

/// What one recorded evaluation sees.
#[derive(Debug, Default)]
pub struct Frame {
    values: HashMap<String, NodeId>,
    indices: HashMap<String, f64>,
    res: Resolution,
    loops: usize,
    dependent: HashSet<usize>,
    cache: HashMap<usize, NodeId>,
    top: bool,
    trips: u128,
}

impl Frame {
    /// The frame of the formula differentiated, with inference's resolution.
    pub fn top(res: Resolution) -> Self {
        Frame { res, top: true, ..Frame::default() }
    }
}

/// Records a forward pass on a tape.
pub struct Recorder<'e> {
    env: &'e Env,
    lets: &'e HashMap<String, LetDef>,
    wrt: &'e [String],
    /// The tape recorded so far.
    pub tape: Tape,
    /// The leaf of each name read (a `--wrt` name's gradient is its leaf's).
    pub leaves: HashMap<String, NodeId>,
    expanded: HashMap<String, NodeId>,
    expanding: Vec<String>,
    members: HashMap<(String, usize), NodeId>,
    limit: usize,
    steps: u64,
    max_steps: u64,
    depth: usize,
    /// The nodes of the formula differentiated, when a trace is asked for.
    pub slots: Option<Vec<Slot>>,
}

fn at(kind: EvalErrorKind, span: Span) -> EvalError {
    EvalError::new(kind, span)
}

fn in_call(name: &str, error: EvalError, span: Span) -> EvalError {
    at(EvalErrorKind::InCall { name: name.to_string(), inner: Box::new(error) }, span)
}

fn scalar_of(value: &Value, span: Span) -> Result<f64, EvalError> {
    match value {
        Value::Scalar(x) => Ok(*x),
        other => Err(at(
            EvalErrorKind::WrongShape { expected: Needed::Number, found: other.shape().to_string() },
            span,
        )),
    }
}

impl<'e> Recorder<'e> {
    /// A recorder over `env`, differentiating with respect to `wrt`, through the names `lets`
    /// defines; values over `limit` elements, and tapes keeping more, are refused.
    pub fn new(
        env: &'e Env,
        lets: &'e HashMap<String, LetDef>,
        wrt: &'e [String],
        limit: usize,
        max_steps: u64,
        trace: bool,
    ) -> Self {
        Recorder {
            env,
            lets,
            wrt,
            tape: Tape::new(limit),
            leaves: HashMap::new(),
            expanded: HashMap::new(),
            expanding: Vec::new(),
            members: HashMap::new(),
            limit,
            steps: 0,
            max_steps,
            depth: 0,
            slots: trace.then(Vec::new),
        }
    }

    fn value(&self, id: NodeId) -> Value {
        self.tape.value(id).clone()
    }

    fn constant(&mut self, value: Value, span: Span) -> Recorded {
        self.tape.leaf(value, false, span)
    }

    fn plan_loop(&self, frame: &Frame, count: u128, span: Span) -> Result<(), EvalError> {
        let trips = frame.trips.max(1).saturating_mul(count);
        if trips > u128::from(self.max_steps) {
            return Err(at(EvalErrorKind::TooMuchWork { steps: Some(trips), limit: self.max_steps }, span));
        }
        Ok(())
    }

    fn charge(&mut self, cost: u128, span: Span) -> Result<(), EvalError> {
        let total = u128::from(self.steps).saturating_add(cost.saturating_sub(1));
        if total > u128::from(self.max_steps) {
            return Err(at(EvalErrorKind::TooMuchWork { steps: Some(total), limit: self.max_steps }, span));
        }
        self.steps = u64::try_from(total).unwrap_or(u64::MAX);
        Ok(())
    }

    /// The node of `expr` with `free` indices stacked as axes (einsum).
    pub fn side(&mut self, frame: &mut Frame, expr: &Expr, free: &[String]) -> Recorded {
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
        let node = result?;
        self.record(frame, expr, node);
        Ok(node)
    }

    fn einsum(&mut self, frame: &mut Frame, expr: &Expr, free: &[String], sizes: &[usize]) -> Recorded {
        match (free, sizes) {
            ([i], [n]) => {
                check_size(NumShape::Vector(*n), self.limit).map_err(|k| at(k, expr.span))?;
                let mut rows = Vec::with_capacity(*n);
                for k in 1..=*n {
                    frame.indices.insert(i.clone(), k as f64);
                    rows.push(self.eval(frame, expr)?);
                }
                frame.indices.remove(i);
                self.stack(rows, expr.span)
            }
            ([i, j], [r, c]) => {
                check_size(NumShape::Matrix(*r, *c), self.limit).map_err(|k| at(k, expr.span))?;
                let mut out = DMatrix::zeros(*r, *c);
                let mut cells = Vec::with_capacity(r * c);
                for a in 0..*c {
                    frame.indices.insert(j.clone(), (a + 1) as f64);
                    for b in 0..*r {
                        frame.indices.insert(i.clone(), (b + 1) as f64);
                        let node = self.eval(frame, expr)?;
                        let x = scalar_of(self.tape.value(node), expr.span)?;
                        if let Some(e) = out.get_mut((b, a)) {
                            *e = x;
                        }
                        cells.push((b, a, node));
                    }
                }
                frame.indices.remove(i);
                frame.indices.remove(j);
                self.tape.push(Value::Matrix(out), Op::Grid(*r, *c, cells), expr.span)
            }
            _ => Err(at(EvalErrorKind::TooManyFreeIndices, expr.span)),
        }
    }

    fn stack(&mut self, rows: Vec<NodeId>, span: Span) -> Recorded {
        let values: Vec<Value> = rows.iter().map(|r| self.value(*r)).collect();
        let value = match values.first() {
            Some(Value::Scalar(_)) | None => {
                let xs = values.iter().map(|v| scalar_of(v, span)).collect::<Result<Vec<_>, _>>()?;
                Value::Vector(DVector::from_vec(xs))
            }
            Some(Value::Vector(first)) => {
                let width = first.len();
                check_size(NumShape::Matrix(values.len(), width), self.limit).map_err(|k| at(k, span))?;
                let mut data = Vec::with_capacity(values.len() * width);
                for row in &values {
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
                Value::Matrix(DMatrix::from_row_slice(values.len(), width, &data))
            }
            Some(other) => {
                return Err(at(
                    EvalErrorKind::WrongShape {
                        expected: Needed::NumberOrVectorPerIndex,
                        found: other.shape().to_string(),
                    },
                    span,
                ))
            }
        };
        self.tape.push(value, Op::Stack(rows), span)
    }

    fn eval(&mut self, frame: &mut Frame, expr: &Expr) -> Recorded {
        self.steps += 1;
        if self.steps > self.max_steps {
            return Err(at(EvalErrorKind::TooMuchWork { steps: None, limit: self.max_steps }, expr.span));
        }
        let leaf = matches!(expr.kind, ExprKind::Number(_) | ExprKind::Symbol(..));
        let cacheable = frame.loops > 0 && !frame.dependent.contains(&expr.id) && !leaf;
        if cacheable {
            if let Some(node) = frame.cache.get(&expr.id) {
                return Ok(*node);
            }
        }
        let node = self.eval_kind(frame, expr)?;
        if cacheable {
            frame.cache.insert(expr.id, node);
        }
        self.record(frame, expr, node);
        Ok(node)
    }

    fn record(&mut self, frame: &Frame, expr: &Expr, node: NodeId) {
        let Some(slots) = self.slots.as_mut() else { return };
        if !frame.top || frame.loops > 0 || matches!(expr.kind, ExprKind::Number(_)) {
            return;
        }
        if slots.iter().any(|s| s.span == expr.span) {
            return;
        }
        let symbolic = frame.res.shapes.get(&expr.id).map_or_else(|| "?".to_string(), |s| s.0.clone());
        slots.push(Slot { span: expr.span, symbolic, node });
    }

    fn eval_kind(&mut self, frame: &mut Frame, expr: &Expr) -> Recorded {
        let span = expr.span;
        let limit = self.limit;
        match &expr.kind {
            ExprKind::Number(x) => self.constant(Value::Scalar(*x), span),
            ExprKind::Symbol(name, _) => self.symbol(frame, name, span),
            ExprKind::Ones | ExprKind::Identity => self.ones_or_identity(frame, expr),
            ExprKind::Neg(a) => {
                let a = self.eval(frame, a)?;
                self.tape.push(builtins::map(self.value(a), |x| -x), Op::Neg(a), span)
            }
            ExprKind::Transpose(a) => {
                let a = self.eval(frame, a)?;
                let value = match self.tape.value(a) {
                    Value::Matrix(m) => Value::Matrix(m.transpose()),
                    other => other.clone(),
                };
                self.tape.push(value, Op::Transpose(a), span)
            }
            ExprKind::Binary(BinOp::Mul, a, b) if self.slots.is_none() && is_softmax_call(a) => {
                self.softmax_product(frame, a, b, span)
            }
            ExprKind::Binary(op, a, b) => {
                let (left, right) = (self.eval(frame, a)?, self.eval(frame, b)?);
                self.binary(frame, *op, left, right, b, span)
            }
            ExprKind::Fold(first, rest) => {
                // A long product: the steps of nested binary nodes, in a loop.
                let (mut acc, mut at) = (self.eval(frame, first)?, first.span);
                for (index, (op, b)) in rest.iter().enumerate() {
                    if index > 0 {
                        self.charge(2, at)?;
                    }
                    let right = self.eval(frame, b)?;
                    at = at.join(b.span);
                    acc = self.binary(frame, *op, acc, right, b, at)?;
                }
                Ok(acc)
            }
            ExprKind::Power(base, exponent) => {
                let b = self.eval(frame, base)?;
                let e = self.eval(frame, exponent)?;
                let k = scalar_of(self.tape.value(e), exponent.span)?;
                let x = self.value(b);
                self.charge(builtins::power_cost(&x, k), span)?;
                let value = builtins::power(x, k, limit).map_err(|kind| at(kind, span))?;
                self.tape.push(value, Op::Power(b, e), span)
            }
            ExprKind::Call(builtin, args) => self.call(frame, *builtin, args, span),
            ExprKind::UserCall(name, args) => {
                let mut nodes = Vec::with_capacity(args.len());
                for a in args {
                    nodes.push(self.eval(frame, a)?);
                }
                self.user_call(name, nodes, span)
            }
            ExprKind::Member(name, index) => {
                let k = self.eval(frame, index)?;
                let k = scalar_of(self.tape.value(k), index.span)?;
                self.member(name, k, span)
            }
            ExprKind::Index(base, indices) => self.index(frame, base, indices, span),
            ExprKind::Reduce(r) => self.reduce(frame, r, expr.id, span),
            ExprKind::Norm(a, order) => {
                let a = self.eval(frame, a)?;
                let n = builtins::norm(self.tape.value(a), *order).map_err(|k| at(k, span))?;
                self.tape.push(Value::Scalar(n), Op::Norm(a, *order), span)
            }
            ExprKind::Matrix(rows) => self.matrix(frame, rows, span),
            ExprKind::Annotated(body, _) => self.eval(frame, body),
            ExprKind::Range(..) => Err(at(EvalErrorKind::Unsupported { what: "\\dots".into() }, span)),
        }
    }

    /// Whether node `id` may be taken over by its one consumer: outside loops (whose cache
    /// may read it again) and remembered by no memo; [`Tape::steal`] checks the rest.
    fn stealable(&self, frame: &Frame, id: NodeId) -> bool {
        frame.loops == 0
            && !self.leaves.values().any(|n| *n == id)
            && !self.expanded.values().any(|n| *n == id)
            && !self.members.values().any(|n| *n == id)
    }

    /// `left op right`, recorded: `b` is the right operand as written (`u v^\top` is an
    /// outer product), `span` the operation's.
    fn binary(
        &mut self,
        frame: &Frame,
        op: BinOp,
        left: NodeId,
        right: NodeId,
        b: &Expr,
        span: Span,
    ) -> Recorded {
        let limit = self.limit;
        let outer = op == BinOp::Mul && matches!(b.kind, ExprKind::Transpose(_));
        let sizes = match (op, self.tape.value(left), self.tape.value(right)) {
            (BinOp::Mul, Value::Matrix(m), Value::Matrix(n)) if m.ncols() == n.nrows() => {
                Some((m.nrows(), n.ncols()))
            }
            _ => None,
        };
        if let Some((r, c)) = sizes {
            // The product of matrices from the tape's own values, with no copies of them.
            let cost = builtins::binary_cost(op, self.tape.value(left), self.tape.value(right), outer);
            self.charge(cost, span)?;
            check_size(NumShape::Matrix(r, c), limit).map_err(|k| at(k, span))?;
            let value = match (self.tape.value(left), self.tape.value(right)) {
                (Value::Matrix(m), Value::Matrix(n)) => Value::Matrix(m * n),
                _ => Value::Scalar(f64::NAN),
            };
            return self.tape.push(value, Op::Mul(left, right, outer), span);
        }
        if let Some(node) = self.scaled(frame, op, left, right, span)? {
            return Ok(node);
        }
        let (x, y) = (self.value(left), self.value(right));
        self.charge(builtins::binary_cost(op, &x, &y, outer), span)?;
        let value = builtins::binary(op, x, y, outer, limit).map_err(|k| at(k, span))?;
        let op = match op {
            BinOp::Add => Op::Add(left, right),
            BinOp::Sub => Op::Sub(left, right),
            BinOp::Mul => Op::Mul(left, right, outer),
            BinOp::Hadamard => Op::Hadamard(left, right),
            BinOp::Kron => Op::Kron(left, right),
            BinOp::Div => Op::Div(left, right),
        };
        self.tape.push(value, op, span)
    }

    /// `a / c` with c a positive constant and a a product or a sum no one else reads (the
    /// scores `QK^\top / \sqrt{d_k}`): divided in place, recorded as a scaling.
    fn scaled(
        &mut self,
        frame: &Frame,
        op: BinOp,
        left: NodeId,
        right: NodeId,
        span: Span,
    ) -> Result<Option<NodeId>, EvalError> {
        let c = match self.tape.value(right) {
            Value::Scalar(c) if op == BinOp::Div && *c > 0.0 && c.is_finite() && !self.tape.needs(right) => {
                *c
            }
            _ => return Ok(None),
        };
        if !self.stealable(frame, left) {
            return Ok(None);
        }
        let Some(value) = self.tape.steal(left) else { return Ok(None) };
        self.charge(builtins::binary_cost(op, &value, &Value::Scalar(c), false), span)?;
        let value = builtins::map(value, |x| x / c);
        self.tape.push(value, Op::Scale(left, 1.0 / c), span).map(Some)
    }

    fn symbol(&mut self, frame: &Frame, name: &str, span: Span) -> Recorded {
        if let Some(k) = frame.indices.get(name) {
            return self.constant(Value::Scalar(*k), span);
        }
        if let Some(node) = frame.values.get(name).or_else(|| self.leaves.get(name)) {
            return Ok(*node);
        }
        let wanted = self.wrt.iter().any(|w| w == name);
        if !wanted && self.lets.contains_key(name) && !self.expanding.iter().any(|n| n == name) {
            return self.expand(name, span);
        }
        if let Some(v) = self.env.values.get(name) {
            let node = self.tape.leaf(v.clone(), wanted, span)?;
            self.leaves.insert(name.to_string(), node);
            return Ok(node);
        }
        let size = frame.res.dims.get(name).or_else(|| self.env.dims.get(name));
        match size {
            Some(size) => self.constant(Value::Scalar(*size as f64), span),
            None => Err(at(EvalErrorKind::Unbound { name: name.to_string() }, span)
                .with_hint(Hint::Bind(name.into()))),
        }
    }

    fn ones_or_identity(&mut self, frame: &Frame, expr: &Expr) -> Recorded {
        let shape = frame.res.shapes.get(&expr.id).and_then(|s| s.1);
        let what = if expr.kind == ExprKind::Ones { "1" } else { "I" };
        let shape = shape.ok_or_else(|| at(EvalErrorKind::UnknownSize { what: what.into() }, expr.span))?;
        check_size(shape, self.limit).map_err(|k| at(k, expr.span))?;
        let value = match shape {
            NumShape::Vector(n) => Value::Vector(DVector::from_element(n, 1.0)),
            NumShape::Matrix(r, c) => Value::Matrix(DMatrix::identity(r, c)),
            NumShape::Scalar => Value::Scalar(1.0),
        };
        self.constant(value, expr.span)
    }

    fn call(&mut self, frame: &mut Frame, builtin: Builtin, args: &[Expr], span: Span) -> Recorded {
        let mut nodes = Vec::with_capacity(args.len());
        for arg in args {
            match &arg.kind {
                ExprKind::Range(name, from, to) if builtin == Builtin::Concat => {
                    let a = self.eval(frame, from)?;
                    let a = whole(scalar_of(self.tape.value(a), from.span)?, from.span)?;
                    let b = self.eval(frame, to)?;
                    let b = whole(scalar_of(self.tape.value(b), to.span)?, to.span)?;
                    if b.saturating_sub(a) as u128 > self.limit as u128 {
                        let kind = EvalErrorKind::TooLarge { elements: (b - a) as u128, limit: self.limit };
                        return Err(at(kind, arg.span));
                    }
                    for k in a..=b {
                        nodes.push(self.member(name, k as f64, arg.span)?);
                    }
                }
                _ => nodes.push(self.eval(frame, arg)?),
            }
        }
        match (builtin, nodes.as_slice()) {
            (Builtin::Concat, _) => {
                let values: Vec<Value> = nodes.iter().map(|n| self.value(*n)).collect();
                let value = builtins::concat(values, self.limit).map_err(|k| at(k, span))?;
                self.tape.push(value, Op::Concat(nodes), span)
            }
            (Builtin::Max | Builtin::Min, [first, rest @ ..]) if !rest.is_empty() => {
                let largest = builtin == Builtin::Max;
                let mut acc = *first;
                for next in rest {
                    let pair = vec![self.value(acc), self.value(*next)];
                    let value = builtins::extreme(pair, largest, self.limit).map_err(|k| at(k, span))?;
                    acc = self.tape.push(value, Op::Extreme(acc, *next, largest), span)?;
                }
                Ok(acc)
            }
            (_, [a]) => self.apply_one(frame, builtin, *a, span),
            (_, []) => Err(at(EvalErrorKind::NothingToEvaluate, span)),
            (_, many) => {
                let name = format!("{builtin:?}").to_lowercase();
                Err(at(EvalErrorKind::WrongArity { name, expected: 1, found: many.len() }, span))
            }
        }
    }

    /// A built-in function of one argument, recorded.
    fn apply_one(&mut self, frame: &Frame, builtin: Builtin, a: NodeId, span: Span) -> Recorded {
        // The softmax's backward reads its output only: its input may be taken over.
        let stolen = match builtin {
            Builtin::Softmax if self.stealable(frame, a) => self.tape.steal(a),
            _ => None,
        };
        let input = stolen.unwrap_or_else(|| self.value(a));
        let value = builtins::apply(builtin, input).map_err(|k| at(k, span))?;
        if matches!(builtin, Builtin::Argmax | Builtin::Argmin) {
            // A position is piecewise constant: no gradient flows through it.
            return self.constant(value, span);
        }
        self.tape.push(value, Op::Apply(builtin, a), span)
    }

    fn enter(&mut self, name: &str, span: Span) -> Result<Option<(String, Span)>, EvalError> {
        if self.depth >= MAX_CALL_DEPTH {
            return Err(at(EvalErrorKind::TooDeep { limit: MAX_CALL_DEPTH }, span));
        }
        self.depth += 1;
        let saved = self.tape.site.clone();
        if saved.is_none() {
            self.tape.site = Some((name.to_string(), span));
        }
        Ok(saved)
    }

    fn leave(&mut self, saved: Option<(String, Span)>) {
        self.depth -= 1;
        self.tape.site = saved;
    }

    fn user_call(&mut self, name: &str, args: Vec<NodeId>, span: Span) -> Recorded {
        let env = self.env;
        let Some(function) = env.functions.get(name) else {
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
        self.charge(u128::from(super::super::budget::CALL_STEPS), span)?;
        let shapes: Vec<(String, NumShape)> =
            function.params.iter().cloned().zip(args.iter().map(|a| self.tape.value(*a).shape())).collect();
        let mut inferrer = Inferrer::for_call(env, "", &shapes).with_steps(self.steps, self.max_steps);
        let inferred = inferrer.infer(&function.body);
        self.steps = inferrer.steps();
        inferred.map_err(|e| in_call(name, e, span))?;
        inferrer.refuse_costly().map_err(|e| in_call(name, e, span))?;
        let mut frame = Frame { res: inferrer.resolution(), ..Frame::default() };
        frame.values = function.params.iter().cloned().zip(args).collect();
        let params = &function.params;
        let free = walk::free_indices(&function.body, &|n| env.is_value(n) || params.iter().any(|p| p == n));
        let saved = self.enter(name, span)?;
        let result = self.side(&mut frame, &function.body, &free);
        self.leave(saved);
        result.map_err(|e| in_call(name, e, span))
    }

    /// A name bound by an earlier line, recorded again from its definition.
    fn expand(&mut self, name: &str, span: Span) -> Recorded {
        if let Some(node) = self.expanded.get(name) {
            return Ok(*node);
        }
        let lets = self.lets;
        let Some(def) = lets.get(name) else {
            return Err(at(EvalErrorKind::Unbound { name: name.to_string() }, span));
        };
        let mut inferrer = Inferrer::new(self.env, &def.source).with_steps(self.steps, self.max_steps);
        let inferred = inferrer.infer_side(&def.body, &def.indices);
        self.steps = inferrer.steps();
        inferred.map_err(|e| in_call(name, e, span))?;
        let mut frame = Frame { res: inferrer.resolution(), ..Frame::default() };
        self.expanding.push(name.to_string());
        let saved = self.enter(name, span)?;
        let mut result = self.side(&mut frame, &def.body, &def.indices);
        if def.squared {
            result = result.and_then(|body| {
                let value =
                    builtins::apply(Builtin::Sqrt, self.value(body)).map_err(|k| at(k, def.body.span))?;
                self.tape.push(value, Op::Apply(Builtin::Sqrt, body), def.body.span)
            });
        }
        self.leave(saved);
        self.expanding.pop();
        let node = result.map_err(|e| in_call(name, e, span))?;
        self.expanded.insert(name.to_string(), node);
        Ok(node)
    }

    /// Member `k` (1-based) of a bound family or a defined one.
    fn member(&mut self, name: &str, k: f64, span: Span) -> Recorded {
        let env = self.env;
        if let Some(family) = env.values.get(name) {
            let value = builtins::index(family, &[k]).map_err(|e| at(e, span))?;
            let family = match self.leaves.get(name) {
                Some(node) => *node,
                None => {
                    let wanted = self.wrt.iter().any(|w| w == name);
                    let node = self.tape.leaf(family.clone(), wanted, span)?;
                    self.leaves.insert(name.to_string(), node);
                    node
                }
            };
            return self.tape.push(value, Op::Index(family, vec![whole(k, span)?.saturating_sub(1)]), span);
        }
        let Some(def) = env.families.get(name) else {
            return Err(at(EvalErrorKind::Unbound { name: name.to_string() }, span)
                .with_hint(Hint::Bind(name.into())));
        };
        let k = whole(k, span)?;
        if let Some(node) = self.members.get(&(name.to_string(), k)) {
            return Ok(*node);
        }
        self.charge(u128::from(super::super::budget::CALL_STEPS), span)?;
        let mut inferrer = Inferrer::for_call(env, "", &[]).with_steps(self.steps, self.max_steps);
        inferrer.bind_index(&def.index, None);
        let inferred = inferrer.infer(&def.body);
        self.steps = inferrer.steps();
        inferred.map_err(|e| in_call(name, e, span))?;
        inferrer.refuse_costly().map_err(|e| in_call(name, e, span))?;
        let mut frame = Frame { res: inferrer.resolution(), ..Frame::default() };
        frame.indices.insert(def.index.clone(), k as f64);
        let saved = self.enter(name, span)?;
        let result = self.side(&mut frame, &def.body, &[]);
        self.leave(saved);
        let node = result.map_err(|e| in_call(name, e, span))?;
        self.members.insert((name.to_string(), k), node);
        Ok(node)
    }

    fn index(&mut self, frame: &mut Frame, base: &Expr, indices: &[Expr], span: Span) -> Recorded {
        let mut positions = Vec::with_capacity(indices.len());
        for index in indices {
            let node = self.eval(frame, index)?;
            positions.push(scalar_of(self.tape.value(node), index.span)?);
        }
        let base = self.eval(frame, base)?;
        let value = builtins::index(self.tape.value(base), &positions).map_err(|k| at(k, span))?;
        let zero_based = positions.iter().map(|p| (*p as usize).saturating_sub(1)).collect();
        self.tape.push(value, Op::Index(base, zero_based), span)
    }

    fn matrix(&mut self, frame: &mut Frame, rows: &[Vec<Expr>], span: Span) -> Recorded {
        let width = rows.first().map_or(0, Vec::len);
        let mut data = Vec::with_capacity(rows.len() * width);
        let mut cells = Vec::with_capacity(rows.len() * width);
        for (i, row) in rows.iter().enumerate() {
            for (j, cell) in row.iter().enumerate() {
                let node = self.eval(frame, cell)?;
                data.push(scalar_of(self.tape.value(node), cell.span)?);
                cells.push((i, j, node));
            }
        }
        if data.len() != rows.len() * width || data.is_empty() {
            return Err(at(EvalErrorKind::NothingToEvaluate, span));
        }
        let value = Value::Matrix(DMatrix::from_row_slice(rows.len(), width, &data));
        self.tape.push(value, Op::Grid(rows.len(), width, cells), span)
    }
}

fn is_softmax_call(expr: &Expr) -> bool {
    matches!(&expr.kind, ExprKind::Call(Builtin::Softmax, args) if args.len() == 1)
}

fn whole(x: f64, span: Span) -> Result<usize, EvalError> {
    if x.fract() != 0.0 || !(0.0..=1e15).contains(&x) {
        return Err(at(EvalErrorKind::NotAnInteger { value: x }, span));
    }
    Ok(x as usize)
}

fn whole_signed(x: f64, span: Span) -> Result<i64, EvalError> {
    if x.fract() != 0.0 || !x.is_finite() || x.abs() > 1e15 {
        return Err(at(EvalErrorKind::NotAnInteger { value: x }, span));
    }
    Ok(x as i64)
}
