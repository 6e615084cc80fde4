//! The backward pass: the tape walked in reverse, each node's gradient sent to its inputs by
//! the derivative of the operation that made it (a vector–Jacobian product; no Jacobian is
//! formed).
//!
//! Broadcasting is undone by summing over the axes an operand was repeated along; products
//! follow numpy's `matmul` (a vector is a row on the left, a column on the right). Where the
//! derivative does not exist the pass stops with an error at the node (a square root, a log or
//! a norm at 0, a division by 0, the determinant of a singular matrix); at a kink where a
//! subgradient is standard (relu and |x| at 0, ties of max and min, floor and ceil at a whole
//! number) it uses the one documented in DESIGN.md and says so in a [`Subgradient`].

use super::super::errors::EvalError;
use super::super::errors::{EvalErrorKind, Reason};
use super::super::expr::{Builtin, NormOrder};
use super::super::value::{NumShape, Value};
use super::attention::{self, SoftmaxProduct};
use super::tape::{zeros_like, NodeId, Op, Tape};
use super::vjp::{
    any, at, count, fill, first_at, gelu_slope, hits, kron_back, matmul_back, scale, scale_in_place, sign,
    softmax_back, softmax_back_in_place, sum, transpose, unbroadcast,
};
use nalgebra::{DMatrix, DVector};

type Step = Result<(), EvalError>;

/// A kink where a subgradient was used instead of a derivative.
#[derive(Debug, Clone, PartialEq)]
pub struct Subgradient {
    /// The operation: `relu`, `|x|`, `max`, …
    pub operation: String,
    /// How many entries sat on the kink.
    pub count: usize,
    /// The node.
    pub node: NodeId,
}

/// The gradients of every node that needs one, after seeding `output` with `seed`.
pub struct Backward<'t> {
    tape: &'t Tape,
    grads: Vec<Option<Value>>,
    /// The kinks met, in the order met.
    pub kinks: Vec<Subgradient>,
}

impl<'t> Backward<'t> {
    /// Runs the backward pass from `output`, whose gradient is `seed` (of its shape). The
    /// gradients of inner nodes are dropped once sent on, unless `keep` (for a trace); those of
    /// leaves stay.
    pub fn run(tape: &'t Tape, output: NodeId, seed: Value, keep: bool) -> Result<Self, EvalError> {
        let mut pass = Backward { tape, grads: vec![None; tape.nodes().len()], kinks: Vec::new() };
        if let Some(slot) = pass.grads.get_mut(output) {
            *slot = Some(seed);
        }
        for id in (0..=output.min(tape.nodes().len().saturating_sub(1))).rev() {
            if !tape.needs(id) {
                continue;
            }
            let Some(g) = pass.grads.get_mut(id).and_then(Option::take) else { continue };
            let leaf = tape.get(id).is_some_and(|n| matches!(n.op, Op::Leaf));
            if leaf || keep {
                if let Some(slot) = pass.grads.get_mut(id) {
                    *slot = Some(g.clone());
                }
            }
            if !leaf {
                pass.step_owned(id, g)?;
            }
        }
        Ok(pass)
    }

    /// The gradient of node `id` (`None` when none flows to it).
    pub fn grad(&self, id: NodeId) -> Option<&Value> {
        self.grads.get(id).and_then(Option::as_ref)
    }

    fn add(&mut self, id: NodeId, g: Value) -> Step {
        if !self.tape.needs(id) {
            return Ok(());
        }
        let Some(slot) = self.grads.get_mut(id) else { return Ok(()) };
        *slot = Some(match slot.take() {
            None => g,
            Some(acc) => {
                sum(acc, &g).ok_or_else(|| self.tape.error_at(id, internal("shapes of gradients")))?
            }
        });
        Ok(())
    }

    fn kink(&mut self, operation: &str, count: usize, node: NodeId) {
        if count > 0 {
            self.kinks.push(Subgradient { operation: operation.to_string(), count, node });
        }
    }

    fn fail(&self, id: NodeId, operation: &str, ko: &str, en: &str) -> EvalError {
        let reason = Reason { ko: ko.to_string(), en: en.to_string() };
        self.tape.error_at(id, EvalErrorKind::NotDifferentiable { operation: operation.to_string(), reason })
    }

    /// [`Backward::step`] with the gradient owned: scalings and the softmax transform it in
    /// place instead of allocating another of its size.
    fn step_owned(&mut self, id: NodeId, mut g: Value) -> Step {
        let tape = self.tape;
        let Some(node) = tape.get(id) else { return Ok(()) };
        match (&node.op, &mut g) {
            (Op::Scale(a, c), _) => {
                scale_in_place(&mut g, *c);
                self.add(*a, g)
            }
            (Op::Neg(a), _) => {
                scale_in_place(&mut g, -1.0);
                self.add(*a, g)
            }
            (Op::Apply(Builtin::Softmax, a), Value::Matrix(d)) => match &node.value {
                Value::Matrix(s) if s.shape() == d.shape() => {
                    softmax_back_in_place(s, d);
                    self.add(*a, g)
                }
                _ => self.step(id, &g),
            },
            _ => self.step(id, &g),
        }
    }

    fn step(&mut self, id: NodeId, g: &Value) -> Step {
        let tape = self.tape;
        let Some(node) = tape.get(id) else { return Ok(()) };
        let v = |i: NodeId| tape.value(i);
        match &node.op {
            Op::Leaf => Ok(()),
            Op::Neg(a) => self.add(*a, scale(g, -1.0)),
            Op::Scale(a, c) => self.add(*a, scale(g, *c)),
            Op::Transpose(a) => self.add(*a, transpose(g)),
            Op::Add(a, b) => {
                if tape.needs(*a) {
                    self.add(*a, unbroadcast(g, v(*a)))?;
                }
                if tape.needs(*b) {
                    self.add(*b, unbroadcast(g, v(*b)))?;
                }
                Ok(())
            }
            Op::Sub(a, b) => {
                if tape.needs(*a) {
                    self.add(*a, unbroadcast(g, v(*a)))?;
                }
                if tape.needs(*b) {
                    self.add(*b, unbroadcast(&scale(g, -1.0), v(*b)))?;
                }
                Ok(())
            }
            Op::Hadamard(a, b) => {
                let (x, y) = (v(*a), v(*b));
                if tape.needs(*a) {
                    self.add(*a, unbroadcast(&fill(g, |i, j| at(g, i, j) * at(y, i, j)), x))?;
                }
                if tape.needs(*b) {
                    self.add(*b, unbroadcast(&fill(g, |i, j| at(g, i, j) * at(x, i, j)), y))?;
                }
                Ok(())
            }
            Op::Div(a, b) => {
                let (x, y) = (v(*a), v(*b));
                let zero = match y {
                    Value::Scalar(d) => *d == 0.0,
                    _ => hits(g, |i, j| at(y, i, j) == 0.0),
                };
                if zero {
                    return Err(self.fail(id, "/", "분모가 0인 항목이 있습니다", "a denominator entry is 0"));
                }
                if tape.needs(*a) {
                    let da = match y {
                        Value::Scalar(d) => scale(g, 1.0 / d),
                        _ => fill(g, |i, j| at(g, i, j) / at(y, i, j)),
                    };
                    self.add(*a, unbroadcast(&da, x))?;
                }
                if tape.needs(*b) {
                    let db = fill(g, |i, j| -at(g, i, j) * at(x, i, j) / (at(y, i, j) * at(y, i, j)));
                    self.add(*b, unbroadcast(&db, y))?;
                }
                Ok(())
            }
            Op::Mul(a, b, outer) => {
                let (da, db) = matmul_back(v(*a), v(*b), g, *outer, (tape.needs(*a), tape.needs(*b)));
                if let Some(da) = da {
                    self.add(*a, da)?;
                }
                if let Some(db) = db {
                    self.add(*b, db)?;
                }
                Ok(())
            }
            Op::Kron(a, b) => {
                let (da, db) = kron_back(v(*a), v(*b), g);
                self.add(*a, da)?;
                self.add(*b, db)
            }
            Op::Power(a, b) => self.power(id, *a, *b, g),
            Op::Apply(builtin, a) => self.apply(id, *builtin, *a, g),
            Op::Extreme(a, b, largest) => {
                let (x, y) = (v(*a), v(*b));
                let from_a = |i, j| (at(x, i, j) > at(y, i, j)) == *largest;
                let mut ties = 0;
                let _ = fill(g, |i, j| {
                    ties += usize::from(at(x, i, j) == at(y, i, j));
                    0.0
                });
                self.kink(if *largest { "max" } else { "min" }, ties, id);
                let da = fill(g, |i, j| if from_a(i, j) { at(g, i, j) } else { 0.0 });
                let db = fill(g, |i, j| if from_a(i, j) { 0.0 } else { at(g, i, j) });
                self.add(*a, unbroadcast(&da, x))?;
                self.add(*b, unbroadcast(&db, y))
            }
            Op::SoftmaxProduct(f) => self.softmax_product(id, f, g),
            Op::Concat(parts) => self.concat(id, parts, g),
            Op::Norm(a, order) => self.norm(id, *a, *order, g),
            Op::Index(base, positions) => self.index(*base, positions, g),
            Op::Stack(parts) => {
                for (k, part) in parts.iter().enumerate() {
                    let piece = match g {
                        Value::Vector(w) => Value::Scalar(w.get(k).copied().unwrap_or(0.0)),
                        Value::Matrix(m) if k < m.nrows() => {
                            Value::Vector(DVector::from_iterator(m.ncols(), m.row(k).iter().copied()))
                        }
                        _ => return Err(tape.error_at(id, internal("a stacked gradient"))),
                    };
                    self.add(*part, piece)?;
                }
                Ok(())
            }
            Op::Grid(_, _, cells) => {
                for (i, j, part) in cells {
                    let piece = match g {
                        Value::Matrix(m) => m.get((*i, *j)).copied().unwrap_or(0.0),
                        _ => return Err(tape.error_at(id, internal("a matrix gradient"))),
                    };
                    self.add(*part, Value::Scalar(piece))?;
                }
                Ok(())
            }
        }
    }

    fn softmax_product(&mut self, id: NodeId, f: &SoftmaxProduct, g: &Value) -> Step {
        let tape = self.tape;
        let values = (tape.value(f.a), tape.value(f.b), tape.value(f.v), tape.value(id), g);
        let (Value::Matrix(a), Value::Matrix(b), Value::Matrix(v), Value::Matrix(out), Value::Matrix(g)) =
            values
        else {
            return Err(tape.error_at(id, internal("the operands of softmax(AB)V")));
        };
        let wanted = (tape.needs(f.a), tape.needs(f.b), tape.needs(f.v));
        let grads = attention::backward(f, (a, b, v), out, g, wanted)
            .ok_or_else(|| tape.error_at(id, internal("the shapes of softmax(AB)V")))?;
        for (node, grad) in [(f.a, grads.a), (f.b, grads.b), (f.v, grads.v)] {
            if let Some(grad) = grad {
                self.add(node, Value::Matrix(grad))?;
            }
        }
        Ok(())
    }

    fn power(&mut self, id: NodeId, a: NodeId, b: NodeId, g: &Value) -> Step {
        let (base, exponent, y) = (self.tape.value(a), self.tape.value(b), self.tape.value(id));
        let Value::Scalar(e) = *exponent else { return Err(self.tape.error_at(id, internal("an exponent"))) };
        if let Value::Matrix(m) = base {
            if self.tape.needs(b) {
                return Err(self.fail(
                    id,
                    "A^k",
                    "행렬 거듭제곱의 지수는 정수입니다",
                    "the exponent of a matrix power is a whole number",
                ));
            }
            let da = self.matrix_power(id, m, e, g)?;
            return self.add(a, da);
        }
        if self.tape.needs(a) {
            if e != 0.0 && e < 1.0 && any(base, |x| x == 0.0) {
                return Err(self.fail(
                    id,
                    "x^p",
                    "0에서 기울기가 무한대입니다 (지수가 1보다 작음)",
                    "the slope is infinite at 0 (an exponent below 1)",
                ));
            }
            let slope = |x: f64| match e {
                0.0 => 0.0,
                1.0 => 1.0,
                2.0 => 2.0 * x,
                _ => e * x.powf(e - 1.0),
            };
            self.add(a, fill(g, |i, j| at(g, i, j) * slope(at(base, i, j))))?;
        }
        if self.tape.needs(b) {
            if any(base, |x| x < 0.0 || (x == 0.0 && e <= 0.0)) {
                return Err(self.fail(
                    id,
                    "x^p",
                    "밑이 양수가 아니면 지수로 미분할 수 없습니다",
                    "the base is not positive, so there is no derivative in the exponent",
                ));
            }
            let mut total = 0.0;
            let _ = fill(g, |i, j| {
                let x = at(base, i, j);
                if x > 0.0 {
                    total += at(g, i, j) * at(y, i, j) * x.ln();
                }
                0.0
            });
            self.add(b, Value::Scalar(total))?;
        }
        Ok(())
    }

    fn matrix_power(&self, id: NodeId, m: &DMatrix<f64>, e: f64, g: &Value) -> Result<Value, EvalError> {
        let Value::Matrix(g) = g else { return Err(self.tape.error_at(id, internal("a matrix gradient"))) };
        let k = e.abs();
        if k > 64.0 {
            let operation = "A^k, |k| > 64".to_string();
            return Err(self.tape.error_at(id, EvalErrorKind::NoDerivativeYet { operation }));
        }
        let k = k as usize;
        let base = if e < 0.0 {
            m.clone()
                .try_inverse()
                .ok_or_else(|| self.fail(id, "A^{-1}", "특이 행렬입니다", "the matrix is singular"))?
        } else {
            m.clone()
        };
        let bt = base.transpose();
        let mut powers = vec![DMatrix::identity(m.nrows(), m.ncols())];
        for j in 1..k {
            let next = powers.get(j - 1).map(|p| p * &bt).unwrap_or_else(|| bt.clone());
            powers.push(next);
        }
        let mut d = DMatrix::zeros(m.nrows(), m.ncols());
        for j in 0..k {
            if let (Some(left), Some(right)) = (powers.get(j), powers.get(k - 1 - j)) {
                d += left * g * right;
            }
        }
        if e < 0.0 {
            d = -(&bt * d * &bt);
        }
        Ok(Value::Matrix(d))
    }

    fn apply(&mut self, id: NodeId, builtin: Builtin, a: NodeId, g: &Value) -> Step {
        let (x, y) = (self.tape.value(a), self.tape.value(id));
        let each = |f: &dyn Fn(f64, f64) -> f64| fill(g, |i, j| at(g, i, j) * f(at(x, i, j), at(y, i, j)));
        let dx = match builtin {
            Builtin::Softmax => softmax_back(y, g),
            Builtin::Exp => each(&|_, y| y),
            Builtin::Log => {
                if hits(g, |i, j| at(x, i, j) == 0.0) {
                    return Err(self.fail(id, "\\log", "0의 로그는 -∞입니다", "the log of 0 is -∞"));
                }
                each(&|x, _| 1.0 / x)
            }
            Builtin::Sqrt => {
                if hits(g, |i, j| at(y, i, j) == 0.0) {
                    return Err(self.fail(
                        id,
                        "\\sqrt",
                        "0에서 기울기가 무한대입니다",
                        "the slope is infinite at 0",
                    ));
                }
                each(&|_, y| 0.5 / y)
            }
            Builtin::Sigmoid => each(&|_, y| y * (1.0 - y)),
            Builtin::Tanh => each(&|_, y| 1.0 - y * y),
            Builtin::Relu => {
                self.kink("relu", count(x, |e| e == 0.0), id);
                each(&|x, _| if x > 0.0 { 1.0 } else { 0.0 })
            }
            Builtin::Gelu => each(&|x, _| gelu_slope(x)),
            Builtin::Sin => each(&|x, _| x.cos()),
            Builtin::Cos => each(&|x, _| -x.sin()),
            Builtin::Abs => {
                self.kink("|x|", count(x, |e| e == 0.0), id);
                each(&|x, _| {
                    if x > 0.0 {
                        1.0
                    } else if x < 0.0 {
                        -1.0
                    } else {
                        0.0
                    }
                })
            }
            Builtin::Floor | Builtin::Ceil => {
                let name = if builtin == Builtin::Floor { "floor" } else { "ceil" };
                self.kink(name, count(x, |e| e.fract() == 0.0), id);
                each(&|_, _| 0.0)
            }
            Builtin::Max | Builtin::Min => {
                let (Value::Scalar(best), Value::Scalar(s)) = (y, g) else {
                    return Err(self.tape.error_at(id, internal("max of one argument")));
                };
                let ties = count(x, |e| e == *best);
                self.kink(if builtin == Builtin::Max { "max" } else { "min" }, ties.saturating_sub(1), id);
                first_at(x, *best, *s)
            }
            Builtin::Trace => match (x, g) {
                (Value::Matrix(m), Value::Scalar(s)) => {
                    Value::Matrix(DMatrix::identity(m.nrows(), m.ncols()) * *s)
                }
                _ => g.clone(),
            },
            Builtin::Det => match (x, g) {
                (Value::Matrix(m), Value::Scalar(s)) => {
                    let inverse = m.clone().try_inverse().ok_or_else(|| {
                        self.fail(
                            id,
                            "\\det",
                            "특이 행렬의 행렬식은 여기서 미분하지 않습니다",
                            "the matrix is singular (its adjugate is not computed)",
                        )
                    })?;
                    Value::Matrix(inverse.transpose() * (m.determinant() * *s))
                }
                _ => g.clone(),
            },
            Builtin::Argmax | Builtin::Argmin | Builtin::Concat => zeros_like(x),
        };
        self.add(a, dx)
    }

    fn concat(&mut self, id: NodeId, parts: &[NodeId], g: &Value) -> Step {
        let data: Vec<f64> = match g {
            Value::Matrix(m) => m.as_slice().to_vec(),
            Value::Vector(w) => w.as_slice().to_vec(),
            _ => return Err(self.tape.error_at(id, internal("a concatenated gradient"))),
        };
        let mut offset = 0;
        for part in parts {
            let shape = self.tape.value(*part).shape();
            let n = shape.elements() as usize;
            let slice = data.get(offset..offset + n).unwrap_or(&[]);
            offset += n;
            let piece = match shape {
                NumShape::Matrix(r, c) if slice.len() == n => {
                    Value::Matrix(DMatrix::from_column_slice(r, c, slice))
                }
                NumShape::Vector(_) => Value::Vector(DVector::from_column_slice(slice)),
                _ => {
                    let operation = "Concat of numbers".to_string();
                    return Err(self.tape.error_at(id, EvalErrorKind::NoDerivativeYet { operation }));
                }
            };
            self.add(*part, piece)?;
        }
        Ok(())
    }

    fn norm(&mut self, id: NodeId, a: NodeId, order: NormOrder, g: &Value) -> Step {
        let (x, y) = (self.tape.value(a), self.tape.value(id));
        let (Value::Scalar(n), Value::Scalar(s)) = (y, g) else {
            return Err(self.tape.error_at(id, internal("a norm")));
        };
        let (n, s) = (*n, *s);
        if s == 0.0 {
            // Nothing flows (‖x‖² at 0 sends 2‖x‖ = 0 here): the limit is 0, even at a kink.
            return self.add(a, zeros_like(x));
        }
        let at_zero =
            || self.fail(id, "\\|·\\|", "0에서는 노름을 미분할 수 없습니다", "a norm has no derivative at 0");
        let dx = match (x, order) {
            (Value::Matrix(m), NormOrder::Two { written: true }) => {
                let svd = nalgebra::linalg::SVD::try_new(m.clone(), true, true, f64::EPSILON, 10_000);
                let Some(svd) = svd else { return Err(at_zero()) };
                let (Some(u), Some(vt)) = (&svd.u, &svd.v_t) else { return Err(at_zero()) };
                let top = svd.singular_values.iamax();
                if n == 0.0 {
                    return Err(at_zero());
                }
                let second =
                    svd.singular_values.iter().enumerate().filter(|(k, _)| *k != top).any(|(_, v)| *v == n);
                self.kink("\\|A\\|_2", usize::from(second), id);
                Value::Matrix(u.column(top) * vt.row(top) * s)
            }
            (_, NormOrder::Two { .. } | NormOrder::Frobenius) => {
                if n == 0.0 {
                    return Err(at_zero());
                }
                scale(x, s / n)
            }
            (_, NormOrder::P(1.0)) => {
                self.kink("\\|x\\|_1", count(x, |e| e == 0.0), id);
                fill(x, |i, j| s * sign(at(x, i, j)))
            }
            (_, NormOrder::P(p)) => {
                if n == 0.0 || (p < 1.0 && any(x, |e| e == 0.0)) {
                    return Err(at_zero());
                }
                fill(x, |i, j| {
                    let e = at(x, i, j);
                    s * sign(e) * (e.abs() / n).powf(p - 1.0)
                })
            }
            (_, NormOrder::Infinity) => {
                if n == 0.0 {
                    return Err(at_zero());
                }
                let ties = count(x, |e| e.abs() == n);
                self.kink("\\|x\\|_\\infty", ties.saturating_sub(1), id);
                let mut first = true;
                fill(x, |i, j| {
                    let e = at(x, i, j);
                    if first && e.abs() == n {
                        first = false;
                        s * sign(e)
                    } else {
                        0.0
                    }
                })
            }
        };
        self.add(a, dx)
    }

    fn index(&mut self, base: NodeId, positions: &[usize], g: &Value) -> Step {
        if !self.tape.needs(base) {
            return Ok(());
        }
        let Some(slot) = self.grads.get_mut(base) else { return Ok(()) };
        let acc = slot.get_or_insert_with(|| zeros_like(self.tape.value(base)));
        match (acc, positions, g) {
            (Value::Vector(w), [i], Value::Scalar(s)) => {
                if let Some(e) = w.get_mut(*i) {
                    *e += s;
                }
            }
            (Value::Matrix(m), [i], Value::Vector(row)) => {
                for (j, s) in row.iter().enumerate() {
                    if let Some(e) = m.get_mut((*i, j)) {
                        *e += s;
                    }
                }
            }
            (Value::Matrix(m), [i, j], Value::Scalar(s)) => {
                if let Some(e) = m.get_mut((*i, *j)) {
                    *e += s;
                }
            }
            (Value::Family(members), [h], g) => {
                if let Some(member) = members.get_mut(*h) {
                    if let Some(total) = sum(member.clone(), g) {
                        *member = total;
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }
}

fn internal(what: &str) -> EvalErrorKind {
    EvalErrorKind::NoDerivativeYet { operation: format!("{what} (an internal mismatch)") }
}
