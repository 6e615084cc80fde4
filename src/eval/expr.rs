//! The evaluator's expression tree: what a formula computes, resolved from what it writes.
//!
//! Lowering ([`super::lower`]) decides once what the syntax tree leaves open — product or call,
//! subscript as a name (`W_Q`) or as indexing (`Q_{it}`), superscript as a power, a transpose
//! or a family member (`W_Q^h`) — so shape inference and evaluation walk the same tree and
//! cannot disagree. Every node keeps the span of the source it came from and an id that is
//! unique within one lowering, under which inferred shapes are recorded.

use crate::meaning::SymbolKind;
use crate::syntax::ast::Span;

/// A node: what it computes, where it was written, and its id.
#[derive(Debug, Clone, PartialEq)]
pub struct Expr {
    /// What it computes.
    pub kind: ExprKind,
    /// Where it was written.
    pub span: Span,
    /// Unique within one lowering; keys the inferred shapes.
    pub id: usize,
}

/// What a node computes.
#[derive(Debug, Clone, PartialEq)]
pub enum ExprKind {
    /// A number as written, `\infty`, `\pi`, or `e`.
    Number(f64),
    /// A symbol by binding name: a value, a dimension, an index or a parameter.
    Symbol(String, SymbolKind),
    /// `\mathbf{1}`: the all-ones vector, as long as its context needs.
    Ones,
    /// `I`: the identity matrix, as large as its context needs.
    Identity,
    /// `-x`.
    Neg(Box<Expr>),
    /// `a op b`.
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `a op₁ b op₂ c …`: a long product (a flat run of factors past the lowering's
    /// `FLAT_CHAIN`), computed left to right in a loop, each step as [`ExprKind::Binary`]
    /// computes it: `((a op₁ b) op₂ c) …`. Nested `Binary` nodes would nest as deep as the
    /// product is long; this is one level however long it is.
    Fold(Box<Expr>, Vec<(BinOp, Expr)>),
    /// `a^b`: a power of a number, entrywise on a vector, a matrix power on a square matrix
    /// (`A^{-1}` is the inverse).
    Power(Box<Expr>, Box<Expr>),
    /// `A^\top`.
    Transpose(Box<Expr>),
    /// A built-in function applied to arguments.
    Call(Builtin, Vec<Expr>),
    /// A function defined earlier in the input: `\mathrm{Attention}(XW_Q^h, …)`.
    UserCall(String, Vec<Expr>),
    /// A member of a family: `W_Q^h`, `\text{head}_1` (1-based).
    Member(String, Box<Expr>),
    /// 1-based indexing: `x_i`, `Q_{it}` (a row when one index is given to a matrix).
    Index(Box<Expr>, Vec<Expr>),
    /// `\sum_{i=1}^{N} body`, `\prod_t body`, `\max_j body`.
    Reduce(Box<Reduction>),
    /// `\|x\|`, `\|x\|_2`, `\|x\|_1`, `\|A\|_F`: the norm with its order.
    Norm(Box<Expr>, NormOrder),
    /// `\begin{bmatrix} … \end{bmatrix}` of numbers.
    Matrix(Vec<Vec<Expr>>),
    /// `\underbrace{body}_{r \times c}`: the body, checked against the label.
    Annotated(Box<Expr>, Vec<DimLabel>),
    /// `\text{head}_1, \dots, \text{head}_H` inside an argument list: members `from..=to`.
    Range(String, Box<Expr>, Box<Expr>),
}

/// An infix operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
    /// `+`, broadcasting.
    Add,
    /// `-`, broadcasting.
    Sub,
    /// Side by side, `\cdot`, `\times`: numpy's `matmul` (a scalar scales).
    Mul,
    /// `\odot`: entrywise, broadcasting.
    Hadamard,
    /// `\otimes`: the Kronecker product (the outer product of two vectors).
    Kron,
    /// `/`, `\frac`: entrywise, broadcasting.
    Div,
}

impl BinOp {
    /// The operator as written in messages.
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "·",
            BinOp::Hadamard => "⊙",
            BinOp::Kron => "⊗",
            BinOp::Div => "/",
        }
    }
}

/// Functions eqmap knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Builtin {
    /// Row-wise on a matrix, over a vector; stable; `-∞` gives weight 0.
    Softmax,
    /// Entrywise `e^x`.
    Exp,
    /// Entrywise natural logarithm; a negative entry is an error.
    Log,
    /// Entrywise square root; a negative entry is an error.
    Sqrt,
    /// The logistic function σ.
    Sigmoid,
    /// Entrywise tanh.
    Tanh,
    /// `max(0, x)`.
    Relu,
    /// `x Φ(x)`, with the tanh approximation of the original paper.
    Gelu,
    /// The largest entry; of several arguments, the entrywise largest.
    Max,
    /// The smallest entry; of several arguments, the entrywise smallest.
    Min,
    /// The 1-based position of the largest entry (per row of a matrix).
    Argmax,
    /// The 1-based position of the smallest entry (per row of a matrix).
    Argmin,
    /// Side by side: matrices by columns, vectors end to end.
    Concat,
    /// Entrywise sine.
    Sin,
    /// Entrywise cosine.
    Cos,
    /// Entrywise absolute value, `|x|`.
    Abs,
    /// The trace of a square matrix.
    Trace,
    /// The determinant of a square matrix.
    Det,
    /// Entrywise floor.
    Floor,
    /// Entrywise ceiling.
    Ceil,
}

impl Builtin {
    /// The builtin a function name stands for (`\mathrm{softmax}`, `\log`, `\sigma`, `ReLU`).
    pub fn from_name(name: &str) -> Option<Builtin> {
        let lower = name.to_ascii_lowercase();
        Some(match lower.as_str() {
            "softmax" => Builtin::Softmax,
            "exp" => Builtin::Exp,
            "log" | "ln" => Builtin::Log,
            "sqrt" => Builtin::Sqrt,
            "sigma" | "sigmoid" => Builtin::Sigmoid,
            "tanh" => Builtin::Tanh,
            "relu" => Builtin::Relu,
            "gelu" => Builtin::Gelu,
            "max" => Builtin::Max,
            "min" => Builtin::Min,
            "argmax" => Builtin::Argmax,
            "argmin" => Builtin::Argmin,
            "concat" => Builtin::Concat,
            "sin" => Builtin::Sin,
            "cos" => Builtin::Cos,
            "abs" => Builtin::Abs,
            "tr" | "trace" => Builtin::Trace,
            "det" => Builtin::Det,
            _ => return None,
        })
    }

    /// Whether it maps each entry to one entry (so the shape is kept).
    pub fn is_entrywise(self) -> bool {
        use Builtin::*;
        matches!(self, Exp | Log | Sqrt | Sigmoid | Tanh | Relu | Gelu | Sin | Cos | Abs | Floor | Ceil)
    }
}

/// `\sum`, `\prod`, `\max`, `\min` over an index.
#[derive(Debug, Clone, PartialEq)]
pub struct Reduction {
    /// Which reduction.
    pub op: ReduceOp,
    /// The index it runs over.
    pub var: String,
    /// The first value of the index (default 1).
    pub lower: Option<Expr>,
    /// The last value of the index (default: the range its use fixes).
    pub upper: Option<Expr>,
    /// What is reduced.
    pub body: Expr,
}

/// The kinds of reduction over an index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReduceOp {
    /// `\sum`.
    Sum,
    /// `\prod`.
    Prod,
    /// `\max_j`.
    Max,
    /// `\min_j`.
    Min,
    /// `\arg\max_j`: the index where the body is largest.
    Argmax,
    /// `\arg\min_j`.
    Argmin,
}

/// The order of a norm.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum NormOrder {
    /// `\|x\|`, `\|x\|_2`: Euclidean for a vector; Frobenius for a matrix written without
    /// order, the largest singular value for `\|A\|_2`.
    Two {
        /// Whether the order was written (`_2`).
        written: bool,
    },
    /// `\|x\|_p`, entrywise.
    P(f64),
    /// `\|x\|_\infty`: the largest absolute entry.
    Infinity,
    /// `\|A\|_F`: Frobenius.
    Frobenius,
}

/// One dimension of an underbrace label: a name (`d_k`) or a number.
#[derive(Debug, Clone, PartialEq)]
pub enum DimLabel {
    /// A dimension symbol.
    Name(String),
    /// A size.
    Size(usize),
}

/// A top-level statement of one formula.
#[derive(Debug, Clone, PartialEq)]
pub enum Statement {
    /// A value to compute.
    Value(Expr),
    /// `a = b (= c …)` with computable sides: a claim to check.
    Claim(Vec<Expr>),
    /// `f(a, b) = body`: a function.
    Function {
        /// Its binding name.
        name: String,
        /// Parameter binding names.
        params: Vec<String>,
        /// The body.
        body: Expr,
    },
    /// `\text{head}_h = body`: a family indexed by `index`.
    Family {
        /// Its binding name.
        name: String,
        /// The index it is defined over.
        index: String,
        /// The body.
        body: Expr,
    },
    /// `\mu = body`, `\alpha_{ij} = body` (entries by index, like einsum), or `\sigma^2 = body`
    /// (which binds σ to the square root).
    Let {
        /// The name bound.
        name: String,
        /// The indices written on the left side, in order.
        indices: Vec<String>,
        /// Whether the left side was squared.
        squared: bool,
        /// The body.
        body: Expr,
    },
    /// `X \in \mathbb{R}^{n \times d}`: learned, nothing to compute.
    Declaration,
}
