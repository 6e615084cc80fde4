//! Values: scalars, vectors (1-D, as numpy's), matrices (`DMatrix<f64>`), and families of
//! values indexed by a script (`W_Q^h` bound as an array of matrices).

use nalgebra::{DMatrix, DVector};
use serde::Serialize;
use serde_json::Value as Json;

/// A value of the evaluator.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// A number.
    Scalar(f64),
    /// A 1-D array: a row on the left of a product, a column on the right, as in numpy.
    Vector(DVector<f64>),
    /// A 2-D array.
    Matrix(DMatrix<f64>),
    /// Values indexed 1, 2, … by a script: heads, per-head weights.
    Family(Vec<Value>),
}

/// A numeric shape: `[]`, `[n]`, `[r, c]`; a family is `[h, …]` of its members.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(into = "Vec<usize>")]
pub enum NumShape {
    /// A number.
    Scalar,
    /// A vector of this length.
    Vector(usize),
    /// A matrix of these rows and columns.
    Matrix(usize, usize),
}

impl From<NumShape> for Vec<usize> {
    fn from(shape: NumShape) -> Self {
        match shape {
            NumShape::Scalar => Vec::new(),
            NumShape::Vector(n) => vec![n],
            NumShape::Matrix(r, c) => vec![r, c],
        }
    }
}

impl std::fmt::Display for NumShape {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NumShape::Scalar => write!(f, "scalar"),
            NumShape::Vector(n) => write!(f, "{n}"),
            NumShape::Matrix(r, c) => write!(f, "{r} × {c}"),
        }
    }
}

impl NumShape {
    /// The number of elements, without overflow.
    pub fn elements(self) -> u128 {
        match self {
            NumShape::Scalar => 1,
            NumShape::Vector(n) => n as u128,
            NumShape::Matrix(r, c) => r as u128 * c as u128,
        }
    }
}

impl Value {
    /// The shape; a family reports its first member's.
    pub fn shape(&self) -> NumShape {
        match self {
            Value::Scalar(_) => NumShape::Scalar,
            Value::Vector(v) => NumShape::Vector(v.len()),
            Value::Matrix(m) => NumShape::Matrix(m.nrows(), m.ncols()),
            Value::Family(members) => members.first().map_or(NumShape::Scalar, Value::shape),
        }
    }

    /// The entries, row-major for a matrix, every member's for a family.
    pub fn entries(&self) -> Vec<f64> {
        match self {
            Value::Scalar(x) => vec![*x],
            Value::Vector(v) => v.iter().copied().collect(),
            Value::Matrix(m) => m.transpose().iter().copied().collect(),
            Value::Family(members) => members.iter().flat_map(Value::entries).collect(),
        }
    }

    /// Calls `f` on every entry, in storage order.
    pub fn for_each(&self, f: &mut impl FnMut(f64)) {
        match self {
            Value::Scalar(x) => f(*x),
            Value::Vector(v) => v.iter().for_each(|x| f(*x)),
            Value::Matrix(m) => m.iter().for_each(|x| f(*x)),
            Value::Family(members) => members.iter().for_each(|m| m.for_each(f)),
        }
    }

    /// How many entries are NaN or infinite.
    pub fn non_finite(&self) -> usize {
        let mut count = 0;
        self.for_each(&mut |x| count += usize::from(!x.is_finite()));
        count
    }

    /// The value as JSON: a number, an array, an array of arrays; NaN and infinities as the
    /// strings `"nan"`, `"inf"`, `"-inf"`.
    pub fn to_json(&self) -> Json {
        match self {
            Value::Scalar(x) => number_json(*x),
            Value::Vector(v) => Json::Array(v.iter().map(|x| number_json(*x)).collect()),
            Value::Matrix(m) => Json::Array(
                m.row_iter().map(|row| Json::Array(row.iter().map(|x| number_json(*x)).collect())).collect(),
            ),
            Value::Family(members) => Json::Array(members.iter().map(Value::to_json).collect()),
        }
    }
}

/// A number as JSON, with the strings `"nan"`, `"inf"`, `"-inf"` for what JSON cannot hold.
pub fn number_json(x: f64) -> Json {
    match serde_json::Number::from_f64(x) {
        Some(n) => Json::Number(n),
        None if x.is_nan() => Json::String("nan".into()),
        None if x > 0.0 => Json::String("inf".into()),
        None => Json::String("-inf".into()),
    }
}

/// Summary statistics of a value's entries.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Stats {
    /// The smallest finite entry (NaN when there is none).
    #[serde(serialize_with = "serialize_number")]
    pub min: f64,
    /// The largest finite entry.
    #[serde(serialize_with = "serialize_number")]
    pub max: f64,
    /// The mean of the entries.
    #[serde(serialize_with = "serialize_number")]
    pub mean: f64,
    /// The population variance (numpy's `var`, ddof = 0).
    #[serde(serialize_with = "serialize_number")]
    pub variance: f64,
    /// How many entries are NaN or infinite.
    pub non_finite: usize,
}

fn serialize_number<S: serde::Serializer>(x: &f64, serializer: S) -> Result<S::Ok, S::Error> {
    number_json(*x).serialize(serializer)
}

impl Stats {
    /// The statistics of `value`'s entries; infinite entries count in `non_finite` and are
    /// left out of min, max, mean and variance (a causal mask's `-∞` would hide the rest).
    pub fn of(value: &Value) -> Stats {
        let (mut count, mut sum, mut min, mut max, mut non_finite) = (0usize, 0.0, f64::NAN, f64::NAN, 0);
        value.for_each(&mut |x| {
            if x.is_finite() {
                count += 1;
                sum += x;
                min = if min.is_nan() { x } else { min.min(x) };
                max = if max.is_nan() { x } else { max.max(x) };
            } else {
                non_finite += 1;
            }
        });
        let mean = if count == 0 { f64::NAN } else { sum / count as f64 };
        let mut squares = 0.0;
        value.for_each(&mut |x| {
            if x.is_finite() {
                squares += (x - mean) * (x - mean);
            }
        });
        let variance = if count == 0 { f64::NAN } else { squares / count as f64 };
        Stats { min, max, mean, variance, non_finite }
    }
}

/// The row sums of a matrix, or the sum of a vector as one row.
pub fn row_sums(value: &Value) -> Vec<f64> {
    match value {
        Value::Vector(v) => vec![v.sum()],
        Value::Matrix(m) => m.row_iter().map(|r| r.sum()).collect(),
        _ => Vec::new(),
    }
}
