//! Shapes and the rules of the operations on them, written once for any kind of dimension.
//!
//! The rules are generic over [`Dims`]: shape inference instantiates them with symbolic
//! dimensions (`n`, `d_k`, unified as it goes, see [`super::infer`]), evaluation with plain
//! sizes, checking every operation before nalgebra sees it. numpy's semantics: a vector is
//! 1-D (a row on the left of a product, a column on the right), entrywise operations
//! broadcast (a vector along the rows of a matrix, a size-1 axis against any).

/// A shape over dimensions of type `D`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Shape<D> {
    /// A number.
    Scalar,
    /// A 1-D array.
    Vector(D),
    /// A 2-D array: rows, columns.
    Matrix(D, D),
}

/// What the rules need of a dimension type.
pub trait Dims {
    /// A dimension.
    type D: Clone;
    /// Makes `a` and `b` the same dimension, or says they cannot be.
    fn unify(&mut self, a: &Self::D, b: &Self::D) -> bool;
    /// Whether `a` and `b` could be made the same, without making them so.
    fn compatible(&self, a: &Self::D, b: &Self::D) -> bool;
    /// Whether the dimension is known to be 1 (and so broadcasts).
    fn is_one(&self, d: &Self::D) -> bool;
    /// The dimension `a + b` (concatenation).
    fn add(&mut self, a: &Self::D, b: &Self::D) -> Self::D;
    /// The dimension `a · b` (Kronecker product).
    fn mul(&mut self, a: &Self::D, b: &Self::D) -> Self::D;
    /// The dimension in words: `d_k`, `4`.
    fn show(&self, d: &Self::D) -> String;
}

/// Two dimensions that should be equal and are not, in words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conflict {
    /// The first dimension.
    pub left: String,
    /// The second dimension.
    pub right: String,
}

type Rule<D> = Result<Shape<D>, Conflict>;

fn conflict<S: Dims>(s: &S, a: &S::D, b: &S::D) -> Conflict {
    Conflict { left: s.show(a), right: s.show(b) }
}

fn same<S: Dims>(s: &mut S, a: &S::D, b: &S::D) -> Result<(), Conflict> {
    if s.unify(a, b) {
        Ok(())
    } else {
        Err(conflict(s, a, b))
    }
}

/// A shape in words: `n × d_k`, `4`, `scalar`.
pub fn show<S: Dims>(s: &S, shape: &Shape<S::D>) -> String {
    match shape {
        Shape::Scalar => "scalar".to_string(),
        Shape::Vector(n) => s.show(n),
        Shape::Matrix(r, c) => format!("{} × {}", s.show(r), s.show(c)),
    }
}

/// The dimension of two broadcast axes: equal, or one of them 1.
fn broadcast_dim<S: Dims>(s: &mut S, a: &S::D, b: &S::D) -> Result<S::D, Conflict> {
    if s.is_one(a) {
        return Ok(b.clone());
    }
    if s.is_one(b) {
        return Ok(a.clone());
    }
    same(s, a, b).map(|()| a.clone())
}

/// Entrywise operations (`+`, `-`, `⊙`, `/`): numpy broadcasting.
pub fn broadcast<S: Dims>(s: &mut S, a: &Shape<S::D>, b: &Shape<S::D>) -> Rule<S::D> {
    match (a, b) {
        (Shape::Scalar, x) | (x, Shape::Scalar) => Ok(x.clone()),
        (Shape::Vector(x), Shape::Vector(y)) => broadcast_dim(s, x, y).map(Shape::Vector),
        (Shape::Matrix(r, c), Shape::Vector(v)) | (Shape::Vector(v), Shape::Matrix(r, c)) => {
            let c = broadcast_dim(s, c, v)?;
            Ok(Shape::Matrix(r.clone(), c))
        }
        (Shape::Matrix(r1, c1), Shape::Matrix(r2, c2)) => {
            let r = broadcast_dim(s, r1, r2)?;
            let c = broadcast_dim(s, c1, c2)?;
            Ok(Shape::Matrix(r, c))
        }
    }
}

/// Products (side by side, `\cdot`, `\times`): numpy's `matmul`, a scalar scales.
pub fn matmul<S: Dims>(s: &mut S, a: &Shape<S::D>, b: &Shape<S::D>) -> Rule<S::D> {
    match (a, b) {
        (Shape::Scalar, x) | (x, Shape::Scalar) => Ok(x.clone()),
        (Shape::Vector(x), Shape::Vector(y)) => same(s, x, y).map(|()| Shape::Scalar),
        (Shape::Matrix(r, c), Shape::Vector(v)) => same(s, c, v).map(|()| Shape::Vector(r.clone())),
        (Shape::Vector(v), Shape::Matrix(r, c)) => same(s, v, r).map(|()| Shape::Vector(c.clone())),
        (Shape::Matrix(r1, c1), Shape::Matrix(r2, c2)) => {
            same(s, c1, r2).map(|()| Shape::Matrix(r1.clone(), c2.clone()))
        }
    }
}

/// Whether `a · b` would fit, without unifying anything.
pub fn matmul_fits<S: Dims>(s: &S, a: &Shape<S::D>, b: &Shape<S::D>) -> bool {
    match (a, b) {
        (Shape::Scalar, _) | (_, Shape::Scalar) => true,
        (Shape::Vector(x), Shape::Vector(y)) => s.compatible(x, y),
        (Shape::Matrix(_, c), Shape::Vector(v)) => s.compatible(c, v),
        (Shape::Vector(v), Shape::Matrix(r, _)) => s.compatible(v, r),
        (Shape::Matrix(_, c1), Shape::Matrix(r2, _)) => s.compatible(c1, r2),
    }
}

/// The outer product of two vectors, `v w^\top`.
pub fn outer<D: Clone>(a: &Shape<D>, b: &Shape<D>) -> Option<Shape<D>> {
    match (a, b) {
        (Shape::Vector(x), Shape::Vector(y)) => Some(Shape::Matrix(x.clone(), y.clone())),
        _ => None,
    }
}

/// `\otimes`: Kronecker product; of two vectors, their outer product.
pub fn kron<S: Dims>(s: &mut S, a: &Shape<S::D>, b: &Shape<S::D>) -> Shape<S::D> {
    match (a, b) {
        (Shape::Scalar, x) | (x, Shape::Scalar) => x.clone(),
        (Shape::Vector(x), Shape::Vector(y)) => Shape::Matrix(x.clone(), y.clone()),
        (Shape::Vector(x), Shape::Matrix(r, c)) => Shape::Matrix(r.clone(), s.mul(x, c)),
        (Shape::Matrix(r, c), Shape::Vector(y)) => Shape::Matrix(r.clone(), s.mul(c, y)),
        (Shape::Matrix(r1, c1), Shape::Matrix(r2, c2)) => Shape::Matrix(s.mul(r1, r2), s.mul(c1, c2)),
    }
}

/// `A^\top`: rows and columns swapped; a vector is its own transpose, as in numpy.
pub fn transpose<D: Clone>(a: &Shape<D>) -> Shape<D> {
    match a {
        Shape::Matrix(r, c) => Shape::Matrix(c.clone(), r.clone()),
        other => other.clone(),
    }
}

/// Concat: matrices with equal rows side by side, vectors end to end.
pub fn concat<S: Dims>(s: &mut S, parts: &[Shape<S::D>]) -> Result<Option<Shape<S::D>>, Conflict> {
    let Some(first) = parts.first() else { return Ok(None) };
    let mut acc = first.clone();
    for part in parts.get(1..).unwrap_or(&[]) {
        acc = match (&acc, part) {
            (Shape::Matrix(r1, c1), Shape::Matrix(r2, c2)) => {
                same(s, r1, r2)?;
                Shape::Matrix(r1.clone(), s.add(c1, c2))
            }
            (Shape::Vector(a), Shape::Vector(b)) => Shape::Vector(s.add(a, b)),
            _ => return Ok(None),
        };
    }
    Ok(Some(acc))
}

/// Plain sizes, for checking values before computing with them.
#[derive(Debug, Clone, Copy, Default)]
pub struct Sizes;

impl Dims for Sizes {
    type D = usize;
    fn unify(&mut self, a: &usize, b: &usize) -> bool {
        a == b
    }
    fn compatible(&self, a: &usize, b: &usize) -> bool {
        a == b
    }
    fn is_one(&self, d: &usize) -> bool {
        *d == 1
    }
    fn add(&mut self, a: &usize, b: &usize) -> usize {
        a.saturating_add(*b)
    }
    fn mul(&mut self, a: &usize, b: &usize) -> usize {
        a.saturating_mul(*b)
    }
    fn show(&self, d: &usize) -> String {
        d.to_string()
    }
}

/// The numeric shape as a [`Shape`] of sizes.
pub fn of_num(shape: super::value::NumShape) -> Shape<usize> {
    match shape {
        super::value::NumShape::Scalar => Shape::Scalar,
        super::value::NumShape::Vector(n) => Shape::Vector(n),
        super::value::NumShape::Matrix(r, c) => Shape::Matrix(r, c),
    }
}
