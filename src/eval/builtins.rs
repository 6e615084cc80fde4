//! The arithmetic: operators and built-in functions on values.
//!
//! Every operation checks its operands' shapes with the rules of [`super::shape`] before
//! nalgebra sees them (nalgebra panics on a mismatch) and checks the size of what it
//! allocates against the element limit. Errors are returned as kinds; the interpreter adds
//! the span of the slot.

use super::errors::{EvalErrorKind, Needed};
use super::expr::{BinOp, Builtin, NormOrder};
use super::kernels;
use super::shape::{self, of_num, Shape, Sizes};
use super::value::{NumShape, Value};
use nalgebra::{DMatrix, DVector};

type Computed = Result<Value, EvalErrorKind>;

/// Refuses a shape larger than `limit` elements, before allocating it.
pub fn check_size(shape: NumShape, limit: usize) -> Result<(), EvalErrorKind> {
    if shape.elements() > limit as u128 {
        return Err(EvalErrorKind::TooLarge { elements: shape.elements(), limit });
    }
    Ok(())
}

fn mismatch(op: &str, a: &Value, b: &Value, c: shape::Conflict) -> EvalErrorKind {
    EvalErrorKind::ShapeMismatch {
        op: op.to_string(),
        left: a.shape().to_string(),
        right: b.shape().to_string(),
        dims: (c.left, c.right),
    }
}

fn not_family(v: &Value) -> Result<(), EvalErrorKind> {
    match v {
        Value::Family(m) => Err(EvalErrorKind::WrongShape {
            expected: Needed::FamilyMember,
            found: format!("{} members", m.len()),
        }),
        _ => Ok(()),
    }
}

/// Scalar operations in a kernel (a multiply-add of a product, an entry of an entrywise
/// operation) that count as one step: a step of the interpreter (a node evaluated, a loop's
/// iteration) costs as much as some tens of them.
pub const OPERATIONS_PER_STEP: u128 = 16;

/// The work of `a op b` in steps, known from the shapes before it runs: a product of an
/// r × k and a k × c operand takes r·k·c operations (a matrix times a vector r·k), an outer
/// product or an entrywise operation one a result entry; [`OPERATIONS_PER_STEP`] a step, at
/// least 1.
pub fn binary_cost(op: BinOp, a: &Value, b: &Value, outer: bool) -> u128 {
    let entries = |v: &Value| match v.shape() {
        NumShape::Scalar => 1u128,
        NumShape::Vector(n) => n as u128,
        NumShape::Matrix(r, c) => (r as u128).saturating_mul(c as u128),
    };
    let cost = match (op, a.shape(), b.shape()) {
        (BinOp::Mul, NumShape::Matrix(r, k), NumShape::Matrix(_, c)) => {
            (r as u128).saturating_mul(k as u128).saturating_mul(c as u128)
        }
        (BinOp::Mul, NumShape::Matrix(r, k), NumShape::Vector(_))
        | (BinOp::Mul, NumShape::Vector(r), NumShape::Matrix(_, k)) => (r as u128).saturating_mul(k as u128),
        (BinOp::Mul, NumShape::Vector(n), NumShape::Vector(m)) if outer => {
            (n as u128).saturating_mul(m as u128)
        }
        (BinOp::Kron, _, _) => entries(a).saturating_mul(entries(b)),
        _ => entries(a).max(entries(b)),
    };
    (cost / OPERATIONS_PER_STEP).max(1)
}

/// The work of `base^exponent` in steps: a matrix power by repeated squaring takes n³
/// operations a product, and the inverse of a negative power n³ more; entrywise powers one an
/// entry; [`OPERATIONS_PER_STEP`] a step, at least 1.
pub fn power_cost(base: &Value, exponent: f64) -> u128 {
    let operations = match base.shape() {
        NumShape::Matrix(r, c) => {
            let cube = (r.max(c) as u128).saturating_pow(3);
            cube.saturating_mul(matrix_power_products(exponent))
        }
        NumShape::Vector(n) => n as u128,
        NumShape::Scalar => 1,
    };
    (operations / OPERATIONS_PER_STEP).max(1)
}

/// How many n³ operations a matrix power takes: the products of repeated squaring (none for
/// ±1) and the inverse of a negative power.
pub fn matrix_power_products(exponent: f64) -> u128 {
    let k = exponent.abs().min(1e18) as u64;
    let squarings = u128::from(64 - k.leading_zeros()).saturating_sub(1);
    let multiplications = u128::from(k.count_ones()).saturating_sub(1);
    squarings + multiplications + u128::from(exponent < 0.0)
}

/// `a op b`. `outer` asks for the outer product of two vectors (`v w^\top`).
pub fn binary(op: BinOp, a: Value, b: Value, outer: bool, limit: usize) -> Computed {
    not_family(&a)?;
    not_family(&b)?;
    match op {
        BinOp::Add => entrywise2(a, b, op, limit, |x, y| x + y),
        BinOp::Sub => entrywise2(a, b, op, limit, |x, y| x - y),
        BinOp::Hadamard => entrywise2(a, b, op, limit, |x, y| x * y),
        BinOp::Div => entrywise2(a, b, op, limit, |x, y| x / y),
        BinOp::Mul => match (&a, &b) {
            (Value::Vector(v), Value::Vector(w)) if outer => {
                check_size(NumShape::Matrix(v.len(), w.len()), limit)?;
                Ok(Value::Matrix(v * w.transpose()))
            }
            _ => matmul(a, b, limit),
        },
        BinOp::Kron => kron(a, b, limit),
    }
}

/// Entrywise with numpy broadcasting; a scalar operand is applied in place.
fn entrywise2(a: Value, b: Value, op: BinOp, limit: usize, f: impl Fn(f64, f64) -> f64) -> Computed {
    let result = shape::broadcast(&mut Sizes, &of_num(a.shape()), &of_num(b.shape()));
    let target = result.map_err(|c| mismatch(op.symbol(), &a, &b, c))?;
    Ok(match (a, b) {
        (Value::Scalar(x), Value::Scalar(y)) => Value::Scalar(f(x, y)),
        (Value::Scalar(x), other) => map(other, |y| f(x, y)),
        (other, Value::Scalar(y)) => map(other, |x| f(x, y)),
        (Value::Vector(v), Value::Vector(w)) if v.len() == w.len() => Value::Vector(v.zip_map(&w, f)),
        (Value::Matrix(m), Value::Matrix(n)) if m.shape() == n.shape() => Value::Matrix(m.zip_map(&n, f)),
        (a, b) => {
            let (r, c) = match target {
                Shape::Matrix(r, c) => (r, c),
                Shape::Vector(n) => (1, n),
                Shape::Scalar => (1, 1),
            };
            check_size(NumShape::Matrix(r, c), limit)?;
            let out = DMatrix::from_fn(r, c, |i, j| f(at(&a, i, j), at(&b, i, j)));
            match target {
                Shape::Matrix(..) => Value::Matrix(out),
                _ => Value::Vector(DVector::from_iterator(c, out.iter().copied())),
            }
        }
    })
}

/// The entry of a broadcast operand at row i, column j (size-1 axes repeat).
fn at(v: &Value, i: usize, j: usize) -> f64 {
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

/// Applies `f` to every entry, in place.
pub fn map(v: Value, f: impl Fn(f64) -> f64) -> Value {
    map_ref(v, &f)
}

fn map_ref<F: Fn(f64) -> f64 + ?Sized>(v: Value, f: &F) -> Value {
    match v {
        Value::Scalar(x) => Value::Scalar(f(x)),
        Value::Vector(mut w) => {
            w.apply(|x| *x = f(*x));
            Value::Vector(w)
        }
        Value::Matrix(mut m) => {
            m.apply(|x| *x = f(*x));
            Value::Matrix(m)
        }
        Value::Family(members) => {
            let g: &dyn Fn(f64) -> f64 = &|x| f(x);
            Value::Family(members.into_iter().map(|m| map_ref(m, g)).collect())
        }
    }
}

/// numpy's `matmul`; a scalar scales.
fn matmul(a: Value, b: Value, limit: usize) -> Computed {
    let result = shape::matmul(&mut Sizes, &of_num(a.shape()), &of_num(b.shape()));
    let target = result.map_err(|c| mismatch("·", &a, &b, c))?;
    check_size(num(&target), limit)?;
    Ok(match (a, b) {
        (Value::Scalar(x), other) | (other, Value::Scalar(x)) => map(other, |y| x * y),
        (Value::Vector(v), Value::Vector(w)) => Value::Scalar(v.dot(&w)),
        (Value::Matrix(m), Value::Vector(w)) => Value::Vector(m * w),
        (Value::Vector(v), Value::Matrix(m)) => Value::Vector(m.tr_mul(&v)),
        (Value::Matrix(m), Value::Matrix(n)) => Value::Matrix(m * n),
        (a, _) => a,
    })
}

fn num(shape: &Shape<usize>) -> NumShape {
    match shape {
        Shape::Scalar => NumShape::Scalar,
        Shape::Vector(n) => NumShape::Vector(*n),
        Shape::Matrix(r, c) => NumShape::Matrix(*r, *c),
    }
}

fn as_matrix(v: Value) -> DMatrix<f64> {
    match v {
        Value::Scalar(x) => DMatrix::from_element(1, 1, x),
        Value::Vector(w) => DMatrix::from_column_slice(w.len(), 1, w.as_slice()),
        Value::Matrix(m) => m,
        Value::Family(_) => DMatrix::zeros(0, 0),
    }
}

fn kron(a: Value, b: Value, limit: usize) -> Computed {
    let target = shape::kron(&mut Sizes, &of_num(a.shape()), &of_num(b.shape()));
    check_size(num(&target), limit)?;
    Ok(match (a, b) {
        (Value::Scalar(x), other) | (other, Value::Scalar(x)) => map(other, |y| x * y),
        (Value::Vector(v), Value::Vector(w)) => Value::Matrix(&v * w.transpose()),
        (Value::Vector(v), m) => {
            Value::Matrix(DMatrix::from_row_slice(1, v.len(), v.as_slice()).kronecker(&as_matrix(m)))
        }
        (m, Value::Vector(w)) => Value::Matrix(as_matrix(m).kronecker(&w.transpose())),
        (m, n) => Value::Matrix(as_matrix(m).kronecker(&as_matrix(n))),
    })
}

/// `A^\top`; a vector is its own transpose.
pub fn transpose(v: Value) -> Value {
    match v {
        Value::Matrix(m) => Value::Matrix(m.transpose()),
        other => other,
    }
}

/// `base^exponent`: a number's power, entrywise on a vector, a matrix power (whole
/// exponents; `-1` is the inverse) on a square matrix.
pub fn power(base: Value, exponent: f64, limit: usize) -> Computed {
    not_family(&base)?;
    match base {
        Value::Matrix(m) => matrix_power(m, exponent, limit),
        other => Ok(map(other, |x| if exponent == 2.0 { x * x } else { x.powf(exponent) })),
    }
}

fn matrix_power(m: DMatrix<f64>, exponent: f64, limit: usize) -> Computed {
    if !m.is_square() {
        return Err(EvalErrorKind::WrongShape {
            expected: Needed::SquareMatrixForPower,
            found: NumShape::Matrix(m.nrows(), m.ncols()).to_string(),
        });
    }
    if exponent.is_finite() && exponent.fract() == 0.0 && exponent.abs() > 1e9 {
        return Err(EvalErrorKind::WholeNumberTooLarge { value: exponent, limit: 1e9 });
    }
    if exponent.fract() != 0.0 || !exponent.is_finite() {
        return Err(EvalErrorKind::NotAnInteger { value: exponent });
    }
    check_size(NumShape::Matrix(m.nrows(), m.ncols()), limit)?;
    let base = if exponent < 0.0 { m.try_inverse().ok_or(EvalErrorKind::Singular)? } else { m };
    let mut k = exponent.abs() as u64;
    // The first factor is taken as it is, not multiplied into the identity: the products are
    // the ones `matrix_power_products` counts.
    let mut result: Option<DMatrix<f64>> = None;
    let mut square = base;
    while k > 0 {
        if k & 1 == 1 {
            result = Some(match result {
                Some(r) => &r * &square,
                None => square.clone(),
            });
        }
        k >>= 1;
        if k > 0 {
            square = &square * &square;
        }
    }
    Ok(Value::Matrix(result.unwrap_or_else(|| DMatrix::identity(square.nrows(), square.ncols()))))
}

/// A built-in function of one argument.
pub fn apply(builtin: Builtin, v: Value) -> Computed {
    not_family(&v)?;
    match builtin {
        Builtin::Softmax => Ok(softmax(v)),
        Builtin::Exp => Ok(map(v, f64::exp)),
        Builtin::Log => {
            check_all(&v, |x| x < 0.0, |x| EvalErrorKind::LogOfNegative { value: x })?;
            Ok(map(v, f64::ln))
        }
        Builtin::Sqrt => {
            check_all(&v, |x| x < 0.0, |x| EvalErrorKind::SqrtOfNegative { value: x })?;
            Ok(map(v, f64::sqrt))
        }
        Builtin::Sigmoid => Ok(map(v, sigmoid)),
        Builtin::Tanh => Ok(map(v, f64::tanh)),
        Builtin::Relu => Ok(map(v, |x| if x > 0.0 || x.is_nan() { x } else { 0.0 })),
        Builtin::Gelu => Ok(map(v, gelu)),
        Builtin::Sin => Ok(map(v, f64::sin)),
        Builtin::Cos => Ok(map(v, f64::cos)),
        Builtin::Abs => Ok(map(v, f64::abs)),
        Builtin::Floor => Ok(map(v, f64::floor)),
        Builtin::Ceil => Ok(map(v, f64::ceil)),
        Builtin::Max => {
            Ok(Value::Scalar(fold(&v, f64::NEG_INFINITY, |a, x| if x > a || x.is_nan() { x } else { a })))
        }
        Builtin::Min => {
            Ok(Value::Scalar(fold(&v, f64::INFINITY, |a, x| if x < a || x.is_nan() { x } else { a })))
        }
        Builtin::Argmax => Ok(arg_best(v, |x, best| x > best)),
        Builtin::Argmin => Ok(arg_best(v, |x, best| x < best)),
        Builtin::Trace | Builtin::Det => square_scalar(builtin, v),
        Builtin::Concat => concat(vec![v], usize::MAX),
    }
}

fn check_all(
    v: &Value,
    bad: impl Fn(f64) -> bool,
    error: impl Fn(f64) -> EvalErrorKind,
) -> Result<(), EvalErrorKind> {
    let mut found = None;
    v.for_each(&mut |x| {
        if found.is_none() && bad(x) {
            found = Some(x);
        }
    });
    found.map_or(Ok(()), |x| Err(error(x)))
}

fn sigmoid(x: f64) -> f64 {
    if x >= 0.0 {
        1.0 / (1.0 + (-x).exp())
    } else {
        let e = x.exp();
        e / (1.0 + e)
    }
}

fn gelu(x: f64) -> f64 {
    let c = (2.0 / std::f64::consts::PI).sqrt();
    0.5 * x * (1.0 + (c * (x + 0.044715 * x * x * x)).tanh())
}

fn fold(v: &Value, init: f64, f: impl Fn(f64, f64) -> f64) -> f64 {
    let mut acc = init;
    v.for_each(&mut |x| acc = f(acc, x));
    acc
}

/// The 1-based position of the best entry: of a vector, or of each row of a matrix.
fn arg_best(v: Value, better: impl Fn(f64, f64) -> bool) -> Value {
    let best_of = |xs: &mut dyn Iterator<Item = f64>| {
        let mut best = (0usize, f64::NAN);
        for (i, x) in xs.enumerate() {
            if best.1.is_nan() || better(x, best.1) {
                best = (i, x);
            }
        }
        (best.0 + 1) as f64
    };
    match v {
        Value::Matrix(m) => Value::Vector(DVector::from_iterator(
            m.nrows(),
            m.row_iter().map(|r| best_of(&mut r.iter().copied())).collect::<Vec<_>>(),
        )),
        Value::Vector(w) => Value::Scalar(best_of(&mut w.iter().copied())),
        _ => Value::Scalar(1.0),
    }
}

fn square_scalar(builtin: Builtin, v: Value) -> Computed {
    match v {
        Value::Matrix(m) if m.is_square() => {
            Ok(Value::Scalar(if builtin == Builtin::Trace { m.trace() } else { m.determinant() }))
        }
        Value::Scalar(x) => Ok(Value::Scalar(x)),
        other => Err(EvalErrorKind::WrongShape {
            expected: Needed::SquareMatrix,
            found: other.shape().to_string(),
        }),
    }
}

/// Row-wise softmax of a matrix, over a vector; numerically stable, `-∞` gives weight 0.
pub fn softmax(v: Value) -> Value {
    softmax_scaled(v, 1.0)
}

/// `softmax(scale · v)` for `scale > 0`, the scaling folded into the softmax's own passes.
pub fn softmax_scaled(v: Value, scale: f64) -> Value {
    match v {
        Value::Scalar(x) => Value::Scalar(if x.is_nan() { x } else { 1.0 }),
        Value::Vector(mut w) => {
            let len = w.len();
            kernels::softmax_rows_scaled(w.as_mut_slice(), 1, len, scale);
            Value::Vector(w)
        }
        Value::Matrix(mut m) => {
            let (r, c) = m.shape();
            kernels::softmax_rows_scaled(m.as_mut_slice(), r, c, scale);
            Value::Matrix(m)
        }
        other => other,
    }
}

/// `softmax(scale · S) V` for matrices: the exponentials times V, each row of the product then
/// divided by its sum (one pass over the n × n weights less than normalising them first).
pub fn softmax_times(s: DMatrix<f64>, scale: f64, v: DMatrix<f64>, limit: usize) -> Computed {
    let (a, b) = (Value::Matrix(s), Value::Matrix(v));
    let target = shape::matmul(&mut Sizes, &of_num(a.shape()), &of_num(b.shape()));
    target.map_err(|c| mismatch("·", &a, &b, c))?;
    let (Value::Matrix(mut s), Value::Matrix(v)) = (a, b) else {
        return Err(EvalErrorKind::NothingToEvaluate);
    };
    check_size(NumShape::Matrix(s.nrows(), v.ncols()), limit)?;
    let (r, c) = s.shape();
    let sums = kernels::exp_rows(s.as_mut_slice(), r, c, scale);
    let mut out = s * v;
    let (r, c) = out.shape();
    kernels::scale_rows(out.as_mut_slice(), r, c, &sums);
    Ok(Value::Matrix(out))
}

/// Matrices side by side (equal rows), vectors end to end.
pub fn concat(parts: Vec<Value>, limit: usize) -> Computed {
    let shapes: Vec<Shape<usize>> = parts.iter().map(|p| of_num(p.shape())).collect();
    let shown = || parts.iter().map(|p| p.shape().to_string()).collect::<Vec<_>>().join(", ");
    let target = match shape::concat(&mut Sizes, &shapes) {
        Ok(Some(t)) => t,
        Ok(None) => return Err(EvalErrorKind::WrongShape { expected: Needed::Concatenable, found: shown() }),
        Err(c) => {
            return Err(EvalErrorKind::ShapeMismatch {
                op: "Concat".into(),
                left: shown(),
                right: String::new(),
                dims: (c.left, c.right),
            })
        }
    };
    check_size(num(&target), limit)?;
    let data: Vec<f64> = parts
        .iter()
        .flat_map(|p| match p {
            Value::Matrix(m) => m.as_slice().to_vec(),
            Value::Vector(w) => w.as_slice().to_vec(),
            _ => Vec::new(),
        })
        .collect();
    Ok(match target {
        Shape::Matrix(r, c) => Value::Matrix(DMatrix::from_column_slice(r, c, &data)),
        Shape::Vector(n) => Value::Vector(DVector::from_column_slice(data.get(..n).unwrap_or(&data))),
        Shape::Scalar => Value::Scalar(data.first().copied().unwrap_or(f64::NAN)),
    })
}

/// The norm of a value.
pub fn norm(v: &Value, order: NormOrder) -> Result<f64, EvalErrorKind> {
    not_family(v)?;
    let entries = |f: &dyn Fn(f64) -> f64| fold(v, 0.0, |a, x| a + f(x));
    Ok(match (v, order) {
        (Value::Matrix(m), NormOrder::Two { written: true }) => spectral_norm(m),
        (_, NormOrder::Two { .. } | NormOrder::Frobenius) => entries(&|x| x * x).sqrt(),
        (_, NormOrder::P(1.0)) => entries(&f64::abs),
        (_, NormOrder::P(p)) => entries(&|x| x.abs().powf(p)).powf(1.0 / p),
        (_, NormOrder::Infinity) => fold(v, 0.0, |a, x| if x.abs() > a || x.is_nan() { x.abs() } else { a }),
    })
}

fn spectral_norm(m: &DMatrix<f64>) -> f64 {
    if m.iter().any(|x| !x.is_finite()) {
        return f64::NAN;
    }
    nalgebra::linalg::SVD::try_new(m.clone(), false, false, f64::EPSILON, 10_000)
        .map_or(f64::NAN, |svd| svd.singular_values.iter().copied().fold(0.0, f64::max))
}

/// 1-based indexing: `x_i`, `A_{ij}`, `A_i` (row i as a vector).
pub fn index(v: &Value, indices: &[f64]) -> Computed {
    match (v, indices) {
        (Value::Vector(w), [i]) => {
            Ok(Value::Scalar(w.get(position(*i, w.len())?).copied().unwrap_or(f64::NAN)))
        }
        (Value::Matrix(m), [i]) => {
            let row = position(*i, m.nrows())?;
            Ok(Value::Vector(DVector::from_iterator(m.ncols(), m.row(row).iter().copied())))
        }
        (Value::Matrix(m), [i, j]) => {
            let (r, c) = (position(*i, m.nrows())?, position(*j, m.ncols())?);
            Ok(Value::Scalar(m.get((r, c)).copied().unwrap_or(f64::NAN)))
        }
        (Value::Family(members), [h]) => {
            members.get(position(*h, members.len())?).cloned().ok_or(EvalErrorKind::NothingToEvaluate)
        }
        (other, _) => Err(EvalErrorKind::WrongShape {
            expected: Needed::Axes(indices.len()),
            found: other.shape().to_string(),
        }),
    }
}

/// A 1-based index as a 0-based position, checked against `len`.
pub fn position(index: f64, len: usize) -> Result<usize, EvalErrorKind> {
    if index.fract() != 0.0 || !index.is_finite() {
        return Err(EvalErrorKind::NotAnInteger { value: index });
    }
    if index < 1.0 || index > len as f64 {
        return Err(EvalErrorKind::IndexOutOfRange { index, len });
    }
    Ok(index as usize - 1)
}

/// Entrywise max or min of several arguments, broadcasting (`\max(0, x)`).
pub fn extreme(args: Vec<Value>, largest: bool, limit: usize) -> Computed {
    let mut iter = args.into_iter();
    let Some(mut acc) = iter.next() else { return Err(EvalErrorKind::NothingToEvaluate) };
    for next in iter {
        acc = entrywise2(acc, next, BinOp::Add, limit, |x, y| {
            if x.is_nan() || y.is_nan() {
                f64::NAN
            } else if (x > y) == largest {
                x
            } else {
                y
            }
        })?;
    }
    Ok(acc)
}
