//! Shape inference: every node gets a shape in dimension symbols (n × d_k) before any number
//! is computed, so a mismatch is reported with the slot, both shapes, the failing dimension
//! and a hint, and a size too large for memory is refused before anything is allocated.
//!
//! Dimensions come from declarations (`Q \in \mathbb{R}^{n \times d_k}`), underbrace labels,
//! `--dim`, bound values, sum bounds (`\sum_{i=1}^{N}`), index use (`Q_{it}`: i runs over the
//! rows of Q) and one convention of the seeds: in `QK^\top / \sqrt{d_k}`, d_k names the inner
//! dimension of the product.

use super::builtins;
use super::dims::{DimId, DimTable};
use super::env::Env;
use super::errors::{EvalError, EvalErrorKind, Hint, Needed};
use super::expr::{BinOp, Builtin, DimLabel, Expr, ExprKind, ReduceOp};
use super::shape::{self, Dims, Shape};
use super::value::{NumShape, Value};
use crate::meaning::SymbolKind;
use crate::syntax::ast::Span;
use std::collections::HashMap;

/// A shape in dimension symbols.
pub type SymShape = Shape<DimId>;

/// Deepest nesting of calls of defined functions.
pub const MAX_CALL_DEPTH: usize = 16;

/// A symbol that has no value yet, with the shape inference gave it.
#[derive(Debug, Clone)]
pub struct Wanted {
    /// The binding name.
    pub name: String,
    /// Where it is first used.
    pub span: Span,
    /// Its shape.
    pub shape: SymShape,
    /// Whether its shape is known from a declaration or a label (not only from conventions).
    pub declared: bool,
}

/// What the evaluation of one frame needs from inference: sizes of dimensions and index
/// ranges, and each node's shape.
#[derive(Debug, Clone, Default)]
pub struct Resolution {
    /// Named dimensions with their sizes.
    pub dims: HashMap<String, usize>,
    /// Ranges of free indices, by name.
    pub ranges: HashMap<String, usize>,
    /// Ranges of the indices of reductions, by the reduction's node id.
    pub reductions: HashMap<usize, usize>,
    /// Each node's shape, in symbols and (when all sizes are known) in numbers.
    pub shapes: HashMap<usize, (String, Option<NumShape>)>,
}

#[derive(Debug, Default)]
struct Frame {
    symbols: HashMap<String, SymShape>,
    dimnames: HashMap<String, DimId>,
    ranges: HashMap<String, DimId>,
    indices: Vec<String>,
    shapes: HashMap<usize, SymShape>,
    inner: HashMap<usize, DimId>,
    reductions: HashMap<usize, DimId>,
    top: bool,
}

/// Infers shapes for the formulas of one statement.
pub struct Inferrer<'e> {
    env: &'e Env,
    source: &'e str,
    /// The dimensions met so far.
    pub dims: DimTable,
    root: Frame,
    calls: Vec<Frame>,
    /// Symbols without values, in order of first use.
    pub wanted: Vec<Wanted>,
    /// Steps taken so far (one a node inferred, a call's body inferred anew each call) and
    /// the most allowed: inference follows calls into definitions, so definitions that call
    /// each other take work exponential in their depth, which the step limit bounds.
    pub(super) steps: u64,
    pub(super) max_steps: u64,
    /// The first operation whose cost, known from sizes, passes the step limit.
    pub(super) too_costly: Option<(u128, Span)>,
}

type Inferred = Result<SymShape, EvalError>;

fn mismatch(op: &str, left: String, right: String, c: shape::Conflict, span: Span) -> EvalError {
    EvalError::new(EvalErrorKind::ShapeMismatch { op: op.into(), left, right, dims: (c.left, c.right) }, span)
}

fn wrong(expected: Needed, found: String, span: Span) -> EvalError {
    EvalError::new(EvalErrorKind::WrongShape { expected, found }, span)
}

impl<'e> Inferrer<'e> {
    /// An inferrer over `env`, for formulas in `source` (used for hints).
    pub fn new(env: &'e Env, source: &'e str) -> Self {
        let root = Frame { top: true, ..Frame::default() };
        Inferrer {
            env,
            source,
            dims: DimTable::new(),
            root,
            calls: Vec::new(),
            wanted: Vec::new(),
            steps: 0,
            max_steps: super::DEFAULT_MAX_STEPS,
            too_costly: None,
        }
    }

    /// An inferrer for the body of a call, its parameters bound to values of `params` shapes
    /// (and a family's index to its member number).
    pub fn for_call(env: &'e Env, source: &'e str, params: &[(String, NumShape)]) -> Self {
        let mut inferrer = Inferrer::new(env, source);
        inferrer.root.top = false;
        for (name, shape) in params {
            let sym = inferrer.sized(*shape);
            inferrer.bind(name, sym);
        }
        inferrer
    }

    fn frame(&mut self) -> &mut Frame {
        match self.calls.last_mut() {
            Some(frame) => frame,
            None => &mut self.root,
        }
    }

    fn frame_ref(&self) -> Option<&Frame> {
        Some(self.calls.last().unwrap_or(&self.root))
    }

    /// Binds `name` to `shape` in the current frame (a parameter).
    pub fn bind(&mut self, name: &str, shape: SymShape) {
        self.frame().symbols.insert(name.to_string(), shape);
    }

    /// Brings `name` into scope as an index in the current frame, with an optional range.
    pub fn bind_index(&mut self, name: &str, range: Option<usize>) {
        let class = self.dims.fresh(None, false, range);
        let frame = self.frame();
        frame.indices.push(name.to_string());
        frame.ranges.insert(name.to_string(), class);
    }

    /// A shape of fresh dimensions with the sizes of `shape`.
    pub fn sized(&mut self, shape: NumShape) -> SymShape {
        match shape {
            NumShape::Scalar => Shape::Scalar,
            NumShape::Vector(n) => Shape::Vector(self.dims.fresh(None, false, Some(n))),
            NumShape::Matrix(r, c) => {
                Shape::Matrix(self.dims.fresh(None, false, Some(r)), self.dims.fresh(None, false, Some(c)))
            }
        }
    }

    /// The class of the dimension named `name` in the current frame.
    pub fn dim(&mut self, name: &str) -> DimId {
        if let Some(id) = self.frame_ref().and_then(|f| f.dimnames.get(name)) {
            return *id;
        }
        let top = self.frame_ref().is_some_and(|f| f.top);
        let size = if top {
            self.env.dims.get(name).copied().or_else(|| integer_value(self.env, name))
        } else {
            None
        };
        let id = self.dims.fresh(Some(name.to_string()), true, size);
        self.frame().dimnames.insert(name.to_string(), id);
        id
    }

    /// The shape of `expr` with `free` indices in scope; the result stacks the free indices
    /// as axes (einsum).
    pub fn infer_side(&mut self, expr: &Expr, free: &[String]) -> Inferred {
        for index in free {
            if !self.frame_ref().is_some_and(|f| f.indices.contains(index)) {
                self.bind_index_unsized(index);
            }
        }
        let body = self.infer(expr)?;
        let axes: Vec<DimId> =
            free.iter().filter_map(|i| self.frame_ref().and_then(|f| f.ranges.get(i)).copied()).collect();
        match (axes.as_slice(), body) {
            ([], body) => Ok(body),
            ([a], Shape::Scalar) => Ok(Shape::Vector(*a)),
            ([a], Shape::Vector(c)) => Ok(Shape::Matrix(*a, c)),
            ([a, b], Shape::Scalar) => Ok(Shape::Matrix(*a, *b)),
            (_, body) => Err(wrong(Needed::AtMostTwoFreeIndices, shape::show(&self.dims, &body), expr.span)),
        }
    }

    fn bind_index_unsized(&mut self, name: &str) {
        let class = self.dims.fresh(Some(format!("range({name})")), false, None);
        let frame = self.frame();
        frame.indices.push(name.to_string());
        frame.ranges.insert(name.to_string(), class);
    }

    /// The shape of `expr`, recorded under its id.
    pub fn infer(&mut self, expr: &Expr) -> Inferred {
        self.steps += 1;
        if self.steps > self.max_steps {
            return Err(EvalError::new(
                EvalErrorKind::TooMuchWork { steps: None, limit: self.max_steps },
                expr.span,
            ));
        }
        let shape = self.infer_kind(expr)?;
        self.frame().shapes.insert(expr.id, shape.clone());
        Ok(shape)
    }

    fn infer_kind(&mut self, expr: &Expr) -> Inferred {
        let span = expr.span;
        match &expr.kind {
            ExprKind::Number(_) => Ok(Shape::Scalar),
            ExprKind::Symbol(name, kind) => self.symbol(name, *kind, span),
            ExprKind::Ones => Ok(Shape::Vector(self.dims.fresh(None, false, None))),
            ExprKind::Identity => {
                let d = self.dims.fresh(None, false, None);
                Ok(Shape::Matrix(d, d))
            }
            ExprKind::Neg(a) => self.infer(a),
            ExprKind::Transpose(a) => Ok(shape::transpose(&self.infer(a)?)),
            ExprKind::Binary(op, a, b) => self.binary(expr, *op, a, b),
            ExprKind::Fold(first, rest) => self.fold(expr, first, rest),
            ExprKind::Power(base, exponent) => self.power(base, exponent, span),
            ExprKind::Call(builtin, args) => self.call(*builtin, args, span),
            ExprKind::UserCall(name, args) => self.user_call(name, args, span),
            ExprKind::Member(name, index) => self.member(name, index, span),
            ExprKind::Index(base, indices) => self.index(base, indices, span),
            ExprKind::Reduce(r) => {
                let (shape, range) = self.reduce(r, span)?;
                self.frame().reductions.insert(expr.id, range);
                Ok(shape)
            }
            ExprKind::Norm(a, _) => self.infer(a).map(|_| Shape::Scalar),
            ExprKind::Matrix(rows) => self.matrix(rows, span),
            ExprKind::Annotated(body, label) => self.annotated(body, label, span),
            ExprKind::Range(..) => {
                Err(EvalError::new(EvalErrorKind::Unsupported { what: "\\dots".into() }, span))
            }
        }
    }

    fn symbol(&mut self, name: &str, kind: SymbolKind, span: Span) -> Inferred {
        if self.frame_ref().is_some_and(|f| f.indices.iter().any(|i| i == name)) {
            return Ok(Shape::Scalar);
        }
        if let Some(shape) = self.frame_ref().and_then(|f| f.symbols.get(name)) {
            return Ok(shape.clone());
        }
        let shape = match self.env.values.get(name) {
            Some(value) => self.value_shape(name, value, span)?,
            None => self.unbound_shape(name, kind, span)?,
        };
        self.frame().symbols.insert(name.to_string(), shape.clone());
        Ok(shape)
    }

    fn value_shape(&mut self, name: &str, value: &Value, span: Span) -> Inferred {
        if let Value::Family(_) = value {
            return Err(wrong(Needed::FamilyIndex, format!("{} members", value_len(value)), span));
        }
        if is_dimension(self.env, name) && matches!(value, Value::Scalar(_)) {
            self.dim(name);
            return Ok(Shape::Scalar);
        }
        let shape = self.sized(value.shape());
        if let Some(declared) = self.declared(name) {
            let (left, right) = (shape::show(&self.dims, &declared), shape::show(&self.dims, &shape));
            if !same_shape(&mut self.dims, &declared, &shape) {
                let c = shape::Conflict { left: left.clone(), right: right.clone() };
                return Err(mismatch("∈", left, right, c, span));
            }
            return Ok(declared);
        }
        Ok(shape)
    }

    fn unbound_shape(&mut self, name: &str, kind: SymbolKind, span: Span) -> Inferred {
        let is_dim = kind == SymbolKind::Dimension
            || is_dimension(self.env, name)
            || self.frame_ref().is_some_and(|f| f.dimnames.contains_key(name));
        if is_dim {
            self.dim(name);
            return Ok(Shape::Scalar);
        }
        let (shape, declared) = match self.declared(name) {
            Some(shape) => (shape, true),
            None => (self.conventional(name, kind), false),
        };
        if self.frame_ref().is_some_and(|f| f.top) && !self.wanted.iter().any(|w| w.name == name) {
            self.wanted.push(Wanted { name: name.to_string(), span, shape: shape.clone(), declared });
        }
        Ok(shape)
    }

    /// The declared shape of `name`, in this frame's dimensions.
    fn declared(&mut self, name: &str) -> Option<SymShape> {
        let nodes = self.env.table.shape(name)?.to_vec();
        let dims: Vec<DimId> = nodes
            .iter()
            .map(|node| match super::lower::dim_label(node) {
                Some(DimLabel::Name(n)) => self.dim(&n),
                Some(DimLabel::Size(k)) => self.dims.fresh(None, false, Some(k)),
                None => self.dims.fresh(None, false, None),
            })
            .collect();
        match dims.as_slice() {
            [] => Some(Shape::Scalar),
            [n] => Some(Shape::Vector(*n)),
            [r, c] => Some(Shape::Matrix(*r, *c)),
            _ => None,
        }
    }

    fn conventional(&mut self, name: &str, kind: SymbolKind) -> SymShape {
        let mut fresh = |what: &str| self.dims.fresh(Some(format!("{what}({name})")), false, None);
        match kind {
            SymbolKind::Matrix => Shape::Matrix(fresh("rows"), fresh("cols")),
            SymbolKind::Vector => Shape::Vector(fresh("len")),
            _ => Shape::Scalar,
        }
    }

    fn binary(&mut self, expr: &Expr, op: BinOp, a: &Expr, b: &Expr) -> Inferred {
        let (left, right) = (self.infer(a)?, self.infer(b)?);
        let inner = self.frame_ref().and_then(|f| f.inner.get(&a.id)).copied();
        let (shape, inner) = self.step(op, left, right, inner, b, expr.span)?;
        if let Some(inner) = inner {
            self.frame().inner.insert(expr.id, inner);
        }
        Ok(shape)
    }

    /// A long product ([`ExprKind::Fold`]): the steps of [`Inferrer::binary`] in a loop, each
    /// with its span (the first factor to its own) and a step counted as its node would be.
    fn fold(&mut self, expr: &Expr, first: &Expr, rest: &[(BinOp, Expr)]) -> Inferred {
        let mut acc = self.infer(first)?;
        let mut inner = self.frame_ref().and_then(|f| f.inner.get(&first.id)).copied();
        let mut span = first.span;
        for (index, (op, b)) in rest.iter().enumerate() {
            if index > 0 {
                self.count_step(span)?;
            }
            let right = self.infer(b)?;
            span = span.join(b.span);
            (acc, inner) = self.step(*op, acc, right, inner, b, span)?;
        }
        if let Some(inner) = inner {
            self.frame().inner.insert(expr.id, inner);
        }
        Ok(acc)
    }

    /// The shape of `left op right`, `b` the right operand, `inner` the inner dimension of the
    /// product `left` is (if it is one of matrices); with the inner dimension of this one.
    fn step(
        &mut self,
        op: BinOp,
        left: SymShape,
        right: SymShape,
        inner: Option<DimId>,
        b: &Expr,
        span: Span,
    ) -> Result<(SymShape, Option<DimId>), EvalError> {
        let (ls, rs) = (shape::show(&self.dims, &left), shape::show(&self.dims, &right));
        let fail = |c| mismatch(op.symbol(), ls.clone(), rs.clone(), c, span);
        match op {
            BinOp::Add | BinOp::Sub | BinOp::Hadamard | BinOp::Div => {
                let result = shape::broadcast(&mut self.dims, &left, &right).map_err(fail)?;
                if op == BinOp::Div {
                    self.link_scale(inner, b);
                }
                Ok((result, None))
            }
            BinOp::Kron => Ok((shape::kron(&mut self.dims, &left, &right), None)),
            BinOp::Mul => {
                if matches!(b.kind, ExprKind::Transpose(_)) {
                    if let Some(outer) = shape::outer(&left, &right) {
                        return Ok((outer, None));
                    }
                }
                let inner = match (&left, &right) {
                    (Shape::Matrix(_, inner), Shape::Matrix(..)) => Some(*inner),
                    _ => None,
                };
                let hint = self.transpose_hint(&left, &right, b);
                let product = shape::matmul(&mut self.dims, &left, &right).map_err(|c| {
                    let error = fail(c);
                    match hint {
                        Some(h) => error.with_hint(h),
                        None => error,
                    }
                })?;
                if let (Shape::Matrix(r, k), Shape::Matrix(_, c)) = (&left, &right) {
                    self.refuse_past_budget(&[*r, *k, *c], 1, span)?;
                }
                Ok((product, inner))
            }
        }
    }

    /// "did you mean K^\top?" when transposing the right operand would make a product fit.
    fn transpose_hint(&self, left: &SymShape, right: &SymShape, b: &Expr) -> Option<Hint> {
        if shape::matmul_fits(&self.dims, left, right) || matches!(b.kind, ExprKind::Transpose(_)) {
            return None;
        }
        let transposed = shape::transpose(right);
        if !matches!(right, Shape::Matrix(..)) || !shape::matmul_fits(&self.dims, left, &transposed) {
            return None;
        }
        let text = b.span.text(self.source);
        let text = if text.chars().count() == 1 { text.to_string() } else { format!("{{{text}}}") };
        Some(Hint::Transpose(format!("{text}^\\top")))
    }

    /// `AB / \sqrt{d}`: d names the inner dimension of the product (`inner`, the numerator's).
    fn link_scale(&mut self, inner: Option<DimId>, denominator: &Expr) {
        let Some(inner) = inner else { return };
        let name = match &denominator.kind {
            ExprKind::Call(Builtin::Sqrt, args) => match args.first().map(|a| &a.kind) {
                Some(ExprKind::Symbol(name, _)) => name.clone(),
                _ => return,
            },
            ExprKind::Symbol(name, _) => name.clone(),
            _ => return,
        };
        if self.frame_ref().is_some_and(|f| f.dimnames.contains_key(&name)) {
            let dim = self.dim(&name);
            self.dims.unify(&inner, &dim);
        }
    }

    fn power(&mut self, base: &Expr, exponent: &Expr, span: Span) -> Inferred {
        let b = self.infer(base)?;
        let e = self.infer(exponent)?;
        if e != Shape::Scalar {
            return Err(wrong(Needed::NumberAsExponent, shape::show(&self.dims, &e), exponent.span));
        }
        if let Shape::Matrix(r, c) = &b {
            if !self.dims.unify(r, c) {
                let (rs, cs) = (self.dims.show(r), self.dims.show(c));
                return Err(wrong(Needed::SquareMatrixForPower, format!("{rs} × {cs}"), span));
            }
            // A power of a written number takes products or an inverse, n³ each.
            if let ExprKind::Number(x) = exponent.kind {
                self.refuse_past_budget(&[*r, *r, *r], builtins::matrix_power_products(x), span)?;
            } else if let ExprKind::Neg(inner) = &exponent.kind {
                if let ExprKind::Number(x) = inner.kind {
                    self.refuse_past_budget(&[*r, *r, *r], builtins::matrix_power_products(-x), span)?;
                }
            }
        }
        Ok(b)
    }

    fn call(&mut self, builtin: Builtin, args: &[Expr], span: Span) -> Inferred {
        if builtin == Builtin::Concat {
            return self.concat(args, span);
        }
        let shapes = args.iter().map(|a| self.infer(a)).collect::<Result<Vec<_>, _>>()?;
        let Some(first) = shapes.first().cloned() else {
            return Err(EvalError::new(EvalErrorKind::NothingToEvaluate, span));
        };
        match builtin {
            Builtin::Max | Builtin::Min if shapes.len() > 1 => {
                let mut acc = first;
                for s in shapes.get(1..).unwrap_or(&[]) {
                    let (l, r) = (shape::show(&self.dims, &acc), shape::show(&self.dims, s));
                    acc = shape::broadcast(&mut self.dims, &acc, s)
                        .map_err(|c| mismatch("max", l, r, c, span))?;
                }
                Ok(acc)
            }
            _ if shapes.len() > 1 => Err(EvalError::new(
                EvalErrorKind::WrongArity {
                    name: format!("{builtin:?}").to_lowercase(),
                    expected: 1,
                    found: shapes.len(),
                },
                span,
            )),
            Builtin::Max | Builtin::Min => Ok(Shape::Scalar),
            Builtin::Argmax | Builtin::Argmin => Ok(match first {
                Shape::Matrix(r, _) => Shape::Vector(r),
                _ => Shape::Scalar,
            }),
            Builtin::Trace | Builtin::Det => match first {
                Shape::Matrix(r, c) if self.dims.unify(&r, &c) => Ok(Shape::Scalar),
                other => Err(wrong(Needed::SquareMatrix, shape::show(&self.dims, &other), span)),
            },
            _ => Ok(first),
        }
    }

    fn concat(&mut self, args: &[Expr], span: Span) -> Inferred {
        let mut parts = Vec::new();
        for arg in args {
            match &arg.kind {
                ExprKind::Range(name, from, to) => parts.push(self.range(name, from, to, arg.span)?),
                _ => parts.push(self.infer(arg)?),
            }
        }
        let shown: Vec<String> = parts.iter().map(|p| shape::show(&self.dims, p)).collect();
        match shape::concat(&mut self.dims, &parts) {
            Ok(Some(shape)) => Ok(shape),
            Ok(None) => Err(wrong(Needed::Concatenable, shown.join(", "), span)),
            Err(c) => Err(mismatch("Concat", shown.join(", "), String::new(), c, span)),
        }
    }

    /// `a_1, \dots, a_H`: the member shape repeated, as one part of `count` members.
    fn range(&mut self, name: &str, from: &Expr, to: &Expr, span: Span) -> Inferred {
        for bound in [from, to] {
            match &bound.kind {
                ExprKind::Symbol(dim, _) => {
                    self.dim(dim);
                    self.frame().shapes.insert(bound.id, Shape::Scalar);
                }
                _ => {
                    self.infer(bound)?;
                }
            }
        }
        let member = self.member_shape(name, span)?;
        let count = match (&from.kind, &to.kind) {
            (ExprKind::Number(a), ExprKind::Number(b)) if b >= a => {
                Some(self.dims.fresh(None, false, Some((*b - *a) as usize + 1)))
            }
            (ExprKind::Number(a), ExprKind::Symbol(h, _)) if *a == 1.0 => {
                let dim = self.dim(h);
                if let Some(len) = self.family_len(name) {
                    self.dims.unify(&dim, &len);
                }
                Some(dim)
            }
            _ => None,
        };
        Ok(match (member, count) {
            (Shape::Matrix(r, c), Some(k)) => Shape::Matrix(r, self.dims.mul(&k, &c)),
            (Shape::Vector(n), Some(k)) => Shape::Vector(self.dims.mul(&k, &n)),
            (Shape::Matrix(r, _), None) => Shape::Matrix(r, self.dims.fresh(None, false, None)),
            (_, _) => Shape::Vector(self.dims.fresh(None, false, None)),
        })
    }

    fn family_len(&mut self, name: &str) -> Option<DimId> {
        if let Some(Value::Family(members)) = self.env.values.get(name) {
            return Some(self.dims.fresh(None, false, Some(members.len())));
        }
        let def = self.env.families.get(name)?;
        let lengths: Vec<usize> = super::walk::member_families(&def.body, &def.index)
            .into_iter()
            .filter_map(|f| match self.env.values.get(&f) {
                Some(Value::Family(m)) => Some(m.len()),
                _ => None,
            })
            .collect();
        lengths.first().map(|n| self.dims.fresh(None, false, Some(*n)))
    }

    fn member(&mut self, name: &str, index: &Expr, span: Span) -> Inferred {
        self.infer(index)?;
        if let ExprKind::Symbol(var, _) = &index.kind {
            let range = self.frame_ref().and_then(|f| f.ranges.get(var)).copied();
            if let (Some(range), Some(len)) = (range, self.family_len(name)) {
                self.dims.unify(&range, &len);
            }
        }
        self.member_shape(name, span)
    }

    fn member_shape(&mut self, name: &str, span: Span) -> Inferred {
        if let Some(Value::Family(members)) = self.env.values.get(name) {
            let shape = members.first().map_or(NumShape::Scalar, Value::shape);
            return Ok(self.sized(shape));
        }
        let Some(def) = self.env.families.get(name) else {
            return Err(EvalError::new(EvalErrorKind::Unbound { name: name.to_string() }, span));
        };
        let (index, body) = (def.index.clone(), def.body.clone());
        self.charge_call(span)?;
        self.enter(span)?;
        self.bind_index(&index, None);
        let result = self.infer(&body);
        self.calls.pop();
        result.map_err(|e| in_call(name, e, span))
    }

    fn enter(&mut self, span: Span) -> Result<(), EvalError> {
        if self.calls.len() >= MAX_CALL_DEPTH {
            return Err(EvalError::new(EvalErrorKind::TooDeep { limit: MAX_CALL_DEPTH }, span));
        }
        self.calls.push(Frame::default());
        Ok(())
    }

    fn user_call(&mut self, name: &str, args: &[Expr], span: Span) -> Inferred {
        let shapes = args.iter().map(|a| self.infer(a)).collect::<Result<Vec<_>, _>>()?;
        let Some(function) = self.env.functions.get(name) else {
            return Err(EvalError::new(EvalErrorKind::Unbound { name: name.to_string() }, span));
        };
        if function.params.len() != shapes.len() {
            let kind = EvalErrorKind::WrongArity {
                name: name.into(),
                expected: function.params.len(),
                found: shapes.len(),
            };
            return Err(EvalError::new(kind, span));
        }
        let (params, body) = (function.params.clone(), function.body.clone());
        self.charge_call(span)?;
        self.enter(span)?;
        for (param, shape) in params.iter().zip(shapes) {
            self.bind(param, shape);
        }
        let result = self.infer(&body);
        self.calls.pop();
        result.map_err(|e| in_call(name, e, span))
    }

    fn index(&mut self, base: &Expr, indices: &[Expr], span: Span) -> Inferred {
        let target = self.infer(base)?;
        for index in indices {
            self.infer(index)?;
        }
        let axes: Vec<DimId> = match (&target, indices.len()) {
            (Shape::Matrix(r, c), 2) => vec![*r, *c],
            (Shape::Matrix(r, _), 1) | (Shape::Vector(r), 1) => vec![*r],
            (other, _) => {
                let found = shape::show(&self.dims, other);
                return Err(wrong(Needed::Axes(indices.len()), found, span));
            }
        };
        for (index, axis) in indices.iter().zip(&axes) {
            self.constrain_range(index, *axis)?;
        }
        Ok(match (&target, indices.len()) {
            (Shape::Matrix(_, c), 1) => Shape::Vector(*c),
            _ => Shape::Scalar,
        })
    }

    /// An index variable used on an axis runs over that axis.
    fn constrain_range(&mut self, index: &Expr, axis: DimId) -> Result<(), EvalError> {
        let ExprKind::Symbol(var, _) = &index.kind else { return Ok(()) };
        let Some(range) = self.frame_ref().and_then(|f| f.ranges.get(var)).copied() else { return Ok(()) };
        if self.dims.unify(&range, &axis) {
            return Ok(());
        }
        let (r, a) = (self.dims.show(&range), self.dims.show(&axis));
        let c = shape::Conflict { left: r.clone(), right: a.clone() };
        Err(mismatch(&format!("index {var}"), r, a, c, index.span))
    }

    fn reduce(&mut self, r: &super::expr::Reduction, span: Span) -> Result<(SymShape, DimId), EvalError> {
        for bound in r.lower.iter().chain(r.upper.iter()) {
            self.infer(bound)?;
        }
        let range = match (&r.lower, &r.upper) {
            (None | Some(Expr { kind: ExprKind::Number(1.0), .. }), Some(upper)) => self.bound_dim(upper),
            _ => None,
        };
        let class = range.unwrap_or_else(|| self.dims.fresh(Some(format!("range({})", r.var)), false, None));
        let saved = self.frame_ref().and_then(|f| f.ranges.get(&r.var)).copied();
        self.frame().indices.push(r.var.clone());
        self.frame().ranges.insert(r.var.clone(), class);
        let body = self.infer(&r.body);
        let frame = self.frame();
        frame.indices.pop();
        match saved {
            Some(s) => frame.ranges.insert(r.var.clone(), s),
            None => frame.ranges.remove(&r.var),
        };
        let body = body?;
        match r.op {
            ReduceOp::Argmax | ReduceOp::Argmin if body != Shape::Scalar => {
                Err(wrong(Needed::NumberUnderArgMax, shape::show(&self.dims, &body), span))
            }
            ReduceOp::Argmax | ReduceOp::Argmin => Ok((Shape::Scalar, class)),
            _ => Ok((body, class)),
        }
    }

    /// The dimension an upper bound names: `N` in `\sum_{i=1}^{N}`, or a size.
    fn bound_dim(&mut self, upper: &Expr) -> Option<DimId> {
        match &upper.kind {
            ExprKind::Number(x) if *x >= 0.0 && x.fract() == 0.0 => {
                Some(self.dims.fresh(None, false, Some(*x as usize)))
            }
            ExprKind::Symbol(name, _)
                if !self.env.values.get(name).is_some_and(|v| !matches!(v, Value::Scalar(_))) =>
            {
                Some(self.dim(name))
            }
            _ => None,
        }
    }

    fn matrix(&mut self, rows: &[Vec<Expr>], span: Span) -> Inferred {
        let width = rows.first().map_or(0, Vec::len);
        for row in rows {
            if row.len() != width {
                return Err(wrong(Needed::EqualRows, format!("{} and {}", width, row.len()), span));
            }
            for cell in row {
                let s = self.infer(cell)?;
                if s != Shape::Scalar {
                    return Err(wrong(Needed::NumberInCell, shape::show(&self.dims, &s), cell.span));
                }
            }
        }
        Ok(self.sized(NumShape::Matrix(rows.len(), width)))
    }

    fn annotated(&mut self, body: &Expr, label: &[DimLabel], span: Span) -> Inferred {
        let inferred = self.infer(body)?;
        let dims: Vec<DimId> = label
            .iter()
            .map(|l| match l {
                DimLabel::Name(n) => self.dim(n),
                DimLabel::Size(k) => self.dims.fresh(None, false, Some(*k)),
            })
            .collect();
        let labelled = match dims.as_slice() {
            [n] => Shape::Vector(*n),
            [r, c] => Shape::Matrix(*r, *c),
            _ => return Ok(inferred),
        };
        let (l, i) = (shape::show(&self.dims, &labelled), shape::show(&self.dims, &inferred));
        if same_shape(&mut self.dims, &labelled, &inferred) {
            return Ok(labelled);
        }
        Err(EvalError::new(EvalErrorKind::LabelMismatch { label: l, inferred: i }, span))
    }

    /// Makes two shapes the same (the sides of a claim), or says they cannot be.
    pub fn unify_shapes(&mut self, a: &SymShape, b: &SymShape) -> bool {
        same_shape(&mut self.dims, a, b)
    }

    /// The resolution of the top frame: sizes of its dimensions, ranges and node shapes.
    pub fn resolution(&self) -> Resolution {
        let frame = &self.root;
        let dims =
            frame.dimnames.iter().filter_map(|(n, d)| self.dims.size(*d).map(|s| (n.clone(), s))).collect();
        let ranges =
            frame.ranges.iter().filter_map(|(n, d)| self.dims.size(*d).map(|s| (n.clone(), s))).collect();
        let shapes =
            frame.shapes.iter().map(|(id, s)| (*id, (shape::show(&self.dims, s), self.numeric(s)))).collect();
        let reductions =
            frame.reductions.iter().filter_map(|(id, d)| self.dims.size(*d).map(|s| (*id, s))).collect();
        Resolution { dims, ranges, reductions, shapes }
    }

    /// A symbolic shape in numbers, when all its sizes are known.
    pub fn numeric(&self, shape: &SymShape) -> Option<NumShape> {
        Some(match shape {
            Shape::Scalar => NumShape::Scalar,
            Shape::Vector(n) => NumShape::Vector(self.dims.size(*n)?),
            Shape::Matrix(r, c) => NumShape::Matrix(self.dims.size(*r)?, self.dims.size(*c)?),
        })
    }

    /// Every node shape recorded in the top frame.
    pub fn top_shapes(&self) -> Vec<SymShape> {
        self.root.shapes.values().cloned().collect()
    }
}

fn same_shape(dims: &mut DimTable, a: &SymShape, b: &SymShape) -> bool {
    match (a, b) {
        (Shape::Scalar, Shape::Scalar) => true,
        (Shape::Vector(x), Shape::Vector(y)) => dims.unify(x, y),
        (Shape::Matrix(r1, c1), Shape::Matrix(r2, c2)) => dims.unify(r1, r2) && dims.unify(c1, c2),
        _ => false,
    }
}

fn in_call(name: &str, error: EvalError, span: Span) -> EvalError {
    EvalError::new(EvalErrorKind::InCall { name: name.to_string(), inner: Box::new(error) }, span)
}

fn is_dimension(env: &Env, name: &str) -> bool {
    env.dims.contains_key(name) || env.table.recorded(name) == Some(SymbolKind::Dimension)
}

fn integer_value(env: &Env, name: &str) -> Option<usize> {
    match env.values.get(name) {
        Some(Value::Scalar(x)) if *x >= 1.0 && x.fract() == 0.0 && *x < 1e15 => Some(*x as usize),
        _ => None,
    }
}

fn value_len(value: &Value) -> usize {
    match value {
        Value::Family(m) => m.len(),
        _ => 1,
    }
}
