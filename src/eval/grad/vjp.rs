//! Vector–Jacobian products on values, the arithmetic of the backward pass: broadcasting
//! undone (a gradient summed over the axes an operand was repeated along), numpy's `matmul`
//! and the Kronecker product, the softmax, GELU's slope; entries read as the forward pass
//! reads them (a vector is a row, size-1 axes repeat).

use super::super::value::{NumShape, Value};
use super::tape::{zeros, zeros_like};
use nalgebra::{DMatrix, DVector};

/// The sum of two gradients of one shape; `None` when the shapes differ.
pub fn sum(a: Value, b: &Value) -> Option<Value> {
    Some(match (a, b) {
        (Value::Scalar(x), Value::Scalar(y)) => Value::Scalar(x + y),
        (Value::Vector(v), Value::Vector(w)) if v.len() == w.len() => Value::Vector(v + w),
        (Value::Matrix(m), Value::Matrix(n)) if m.shape() == n.shape() => Value::Matrix(m + n),
        (Value::Family(ms), Value::Family(ns)) if ms.len() == ns.len() => {
            Value::Family(ms.into_iter().zip(ns).map(|(m, n)| sum(m, n)).collect::<Option<Vec<_>>>()?)
        }
        _ => return None,
    })
}

/// `v · k`.
pub(super) fn scale(v: &Value, k: f64) -> Value {
    match v {
        Value::Scalar(x) => Value::Scalar(x * k),
        Value::Vector(w) => Value::Vector(w * k),
        Value::Matrix(m) => Value::Matrix(m * k),
        Value::Family(ms) => Value::Family(ms.iter().map(|m| scale(m, k)).collect()),
    }
}

/// `v · k`, in place.
pub(super) fn scale_in_place(v: &mut Value, k: f64) {
    match v {
        Value::Scalar(x) => *x *= k,
        Value::Vector(w) => *w *= k,
        Value::Matrix(m) => *m *= k,
        Value::Family(ms) => ms.iter_mut().for_each(|m| scale_in_place(m, k)),
    }
}

/// A matrix transposed; a vector or number as it is.
pub(super) fn transpose(v: &Value) -> Value {
    match v {
        Value::Matrix(m) => Value::Matrix(m.transpose()),
        other => other.clone(),
    }
}

/// The sign of x: 1, -1, or 0 at 0.
pub(super) fn sign(x: f64) -> f64 {
    if x > 0.0 {
        1.0
    } else if x < 0.0 {
        -1.0
    } else {
        0.0
    }
}

/// A value's grid: a number is 1 × 1, a vector 1 × n (a row, as broadcasting reads it).
pub(super) fn grid(v: &Value) -> (usize, usize) {
    match v.shape() {
        NumShape::Scalar => (1, 1),
        NumShape::Vector(n) => (1, n),
        NumShape::Matrix(r, c) => (r, c),
    }
}

/// The entry at row i, column j of a broadcast operand (size-1 axes repeat), as the forward
/// pass reads it.
pub(super) fn at(v: &Value, i: usize, j: usize) -> f64 {
    match v {
        Value::Scalar(x) => *x,
        Value::Vector(w) => w.get(if w.len() == 1 { 0 } else { j }).copied().unwrap_or(f64::NAN),
        Value::Matrix(m) => {
            let i = if m.nrows() == 1 { 0 } else { i };
            let j = if m.ncols() == 1 { 0 } else { j };
            m.get((i, j)).copied().unwrap_or(f64::NAN)
        }
        Value::Family(_) => f64::NAN,
    }
}

/// A value of `like`'s shape with entries `f(i, j)`, in storage order (column-major).
pub(super) fn fill(like: &Value, mut f: impl FnMut(usize, usize) -> f64) -> Value {
    match like {
        Value::Scalar(_) => Value::Scalar(f(0, 0)),
        Value::Vector(w) => Value::Vector(DVector::from_fn(w.len(), |j, _| f(0, j))),
        Value::Matrix(m) => Value::Matrix(DMatrix::from_fn(m.nrows(), m.ncols(), f)),
        Value::Family(_) => like.clone(),
    }
}

/// Whether some entry where the gradient `g` is not 0 passes `test` (at that entry's grid
/// position): a missing derivative that nothing flows through is no error.
pub(super) fn hits(g: &Value, test: impl Fn(usize, usize) -> bool) -> bool {
    let mut found = false;
    let _ = fill(g, |i, j| {
        found |= at(g, i, j) != 0.0 && test(i, j);
        0.0
    });
    found
}

/// Whether some entry passes `test`.
pub(super) fn any(v: &Value, test: impl Fn(f64) -> bool) -> bool {
    count(v, test) > 0
}

/// How many entries pass `test`.
pub(super) fn count(v: &Value, test: impl Fn(f64) -> bool) -> usize {
    let mut n = 0;
    v.for_each(&mut |x| n += usize::from(test(x)));
    n
}

/// The gradient `g` of a broadcast result summed back to the shape of `operand`.
pub fn unbroadcast(g: &Value, operand: &Value) -> Value {
    if g.shape() == operand.shape() {
        return g.clone();
    }
    let (r0, c0) = grid(operand);
    let (r, c) = grid(g);
    let mut out = DMatrix::zeros(r0, c0);
    for j in 0..c {
        for i in 0..r {
            let (i0, j0) = (if r0 == 1 { 0 } else { i }, if c0 == 1 { 0 } else { j });
            if let Some(e) = out.get_mut((i0, j0)) {
                *e += at(g, i, j);
            }
        }
    }
    match operand.shape() {
        NumShape::Scalar => Value::Scalar(out.sum()),
        NumShape::Vector(n) => Value::Vector(DVector::from_iterator(n, out.row(0).iter().copied())),
        NumShape::Matrix(..) => Value::Matrix(out),
    }
}

/// The gradients of numpy's `matmul` (and of `v w^\top` when `outer`), each only when asked
/// (`wanted`): products of matrices go through nalgebra's blocked kernel (a transposed copy
/// first: its `tr_mul` is a plain loop).
pub(super) fn matmul_back(
    a: &Value,
    b: &Value,
    g: &Value,
    outer: bool,
    wanted: (bool, bool),
) -> (Option<Value>, Option<Value>) {
    if let (Value::Matrix(m), Value::Matrix(n), Value::Matrix(d)) = (a, b, g) {
        let da = wanted.0.then(|| Value::Matrix(d * n.transpose()));
        // mᵀ d, or (dᵀ m)ᵀ when m is the larger (the n × n weights of attention).
        let db = wanted.1.then(|| {
            Value::Matrix(if m.len() > d.len() { (d.transpose() * m).transpose() } else { m.transpose() * d })
        });
        return (da, db);
    }
    let (da, db) = matmul_pair(a, b, g, outer);
    (wanted.0.then_some(da), wanted.1.then_some(db))
}

/// The gradients of `a · b` (both), for operands other than two matrices.
pub(super) fn matmul_pair(a: &Value, b: &Value, g: &Value, outer: bool) -> (Value, Value) {
    let dot = |x: &Value, y: &Value| {
        let mut total = 0.0;
        let _ = fill(x, |i, j| {
            total += at(x, i, j) * at(y, i, j);
            0.0
        });
        total
    };
    match (a, b, g) {
        (Value::Scalar(x), other, _) => (Value::Scalar(dot(g, other)), scale(g, *x)),
        (other, Value::Scalar(x), _) => (scale(g, *x), Value::Scalar(dot(g, other))),
        (Value::Vector(v), Value::Vector(w), Value::Matrix(m)) if outer => {
            (Value::Vector(m * w), Value::Vector(m.tr_mul(v)))
        }
        (Value::Vector(v), Value::Vector(w), Value::Scalar(s)) => {
            (Value::Vector(w * *s), Value::Vector(v * *s))
        }
        (Value::Matrix(m), Value::Vector(w), Value::Vector(d)) => {
            (Value::Matrix(d * w.transpose()), Value::Vector(m.tr_mul(d)))
        }
        (Value::Vector(v), Value::Matrix(m), Value::Vector(d)) => {
            (Value::Vector(m * d), Value::Matrix(v * d.transpose()))
        }
        (Value::Matrix(m), Value::Matrix(n), Value::Matrix(d)) => {
            (Value::Matrix(d * n.transpose()), Value::Matrix(m.tr_mul(d)))
        }
        _ => (zeros_like(a), zeros_like(b)),
    }
}

/// The matrices `a ⊗ b` was computed from, as the forward pass forms them.
pub(super) fn kron_forms(a: &Value, b: &Value) -> (DMatrix<f64>, DMatrix<f64>) {
    let column = |w: &DVector<f64>| DMatrix::from_column_slice(w.len(), 1, w.as_slice());
    let row = |w: &DVector<f64>| DMatrix::from_row_slice(1, w.len(), w.as_slice());
    let matrix = |v: &Value| match v {
        Value::Matrix(m) => m.clone(),
        Value::Vector(w) => row(w),
        _ => DMatrix::zeros(0, 0),
    };
    match (a, b) {
        (Value::Vector(v), Value::Vector(w)) => (column(v), row(w)),
        _ => (matrix(a), matrix(b)),
    }
}

/// A matrix as `like`'s shape: a vector of its entries, row-major, or the matrix.
pub(super) fn reshape_like(m: DMatrix<f64>, like: &Value) -> Value {
    match like {
        Value::Vector(_) => Value::Vector(DVector::from_iterator(m.len(), m.transpose().iter().copied())),
        _ => Value::Matrix(m),
    }
}

/// The gradients of the Kronecker product.
pub(super) fn kron_back(a: &Value, b: &Value, g: &Value) -> (Value, Value) {
    if matches!(a, Value::Scalar(_)) || matches!(b, Value::Scalar(_)) {
        return matmul_pair(a, b, g, false);
    }
    let (ma, mb) = kron_forms(a, b);
    let Value::Matrix(gm) = g else { return (zeros_like(a), zeros_like(b)) };
    let (s, t) = mb.shape();
    let mut da = DMatrix::zeros(ma.nrows(), ma.ncols());
    let mut db = DMatrix::zeros(s, t);
    for (i, j) in (0..ma.nrows()).flat_map(|i| (0..ma.ncols()).map(move |j| (i, j))) {
        let x = ma.get((i, j)).copied().unwrap_or(0.0);
        for (k, l) in (0..s).flat_map(|k| (0..t).map(move |l| (k, l))) {
            let e = gm.get((i * s + k, j * t + l)).copied().unwrap_or(0.0);
            if let Some(d) = da.get_mut((i, j)) {
                *d += e * mb.get((k, l)).copied().unwrap_or(0.0);
            }
            if let Some(d) = db.get_mut((k, l)) {
                *d += e * x;
            }
        }
    }
    let da = match a {
        Value::Vector(_) if matches!(b, Value::Vector(_)) => {
            Value::Vector(DVector::from_column_slice(da.as_slice()))
        }
        _ => reshape_like(da, a),
    };
    (da, reshape_like(db, b))
}

/// The row-wise softmax's gradient: `s ⊙ (g − rowsum(g ⊙ s))`; a masked entry (weight 0)
/// gets 0.
pub(super) fn softmax_back(s: &Value, g: &Value) -> Value {
    match (s, g) {
        (Value::Vector(s), Value::Vector(g)) => {
            let inner = s.dot(g);
            Value::Vector(s.zip_map(g, |y, d| y * (d - inner)))
        }
        (Value::Matrix(s), Value::Matrix(g)) if s.shape() == g.shape() => {
            // Column by column over the storage: out = s ⊙ g − s ⊙ (row sums of s ⊙ g).
            let mut out = s.component_mul(g);
            let inner = out.column_sum();
            for (mut column, s_column) in out.column_iter_mut().zip(s.column_iter()) {
                for ((e, y), r) in column.iter_mut().zip(s_column.iter()).zip(inner.iter()) {
                    *e -= y * r;
                }
            }
            Value::Matrix(out)
        }
        (other, _) => zeros(other.shape()),
    }
}

/// [`softmax_back`] of a matrix, written over the gradient `d` itself.
pub(super) fn softmax_back_in_place(s: &DMatrix<f64>, d: &mut DMatrix<f64>) {
    d.component_mul_assign(s);
    let inner = d.column_sum();
    for (mut column, s_column) in d.column_iter_mut().zip(s.column_iter()) {
        for ((e, y), r) in column.iter_mut().zip(s_column.iter()).zip(inner.iter()) {
            *e -= y * r;
        }
    }
}

/// The slope of GELU in the tanh approximation the forward pass computes.
pub(super) fn gelu_slope(x: f64) -> f64 {
    let c = (2.0 / std::f64::consts::PI).sqrt();
    let inner = c * (x + 0.044715 * x * x * x);
    let t = inner.tanh();
    0.5 * (1.0 + t) + 0.5 * x * (1.0 - t * t) * c * (1.0 + 3.0 * 0.044715 * x * x)
}

/// Zeros of `x`'s shape with `s` at the first entry (in storage order) equal to `best`.
pub(super) fn first_at(x: &Value, best: f64, s: f64) -> Value {
    let mut found = false;
    match x {
        Value::Scalar(_) => Value::Scalar(s),
        Value::Vector(w) => Value::Vector(w.map(|e| {
            if !found && e == best {
                found = true;
                s
            } else {
                0.0
            }
        })),
        Value::Matrix(m) => Value::Matrix(m.map(|e| {
            if !found && e == best {
                found = true;
                s
            } else {
                0.0
            }
        })),
        Value::Family(_) => zeros_like(x),
    }
}
