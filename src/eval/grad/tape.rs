//! The tape: every value the forward pass computed, with the operation that made it and the
//! nodes it came from, in the order computed — so the backward pass can walk it in reverse.
//!
//! A node knows whether a gradient must flow through it (`needs`): a leaf that is a `--wrt`
//! name does, a constant does not, and any other node does when one of its inputs does. The
//! backward pass only visits such nodes, so a kink or a division by zero on a path that does
//! not lead to a `--wrt` name is no error. The memory the backward pass keeps (each value, and
//! a gradient of each node that needs one) is counted as nodes are pushed, and refused past
//! the element limit before anything more is allocated.

use super::super::errors::{EvalError, EvalErrorKind};
use super::super::expr::{Builtin, NormOrder};
use super::super::value::{NumShape, Value};
use super::attention::SoftmaxProduct;
use crate::syntax::ast::Span;

/// A node's position on the tape.
pub type NodeId = usize;

/// What a node costs beside its value, in elements of 8 bytes (the node itself: its operation,
/// span, shape and site), counted so that a long loop of small values (`\sum_{i=1}^{10^6}`)
/// is bounded as a large value is.
pub const NODE_OVERHEAD: u128 = 24;

/// What made a node.
#[derive(Debug, Clone, PartialEq)]
pub enum Op {
    /// A value given from outside: a `--wrt` name (needs a gradient) or a constant.
    Leaf,
    /// `-a`.
    Neg(NodeId),
    /// `a · c` for a constant c (`a / c` with c a positive number): the gradient is scaled
    /// and a's value is not needed, so the recorder may take it over.
    Scale(NodeId, f64),
    /// `a^\top`.
    Transpose(NodeId),
    /// `a + b`, broadcasting.
    Add(NodeId, NodeId),
    /// `a - b`, broadcasting.
    Sub(NodeId, NodeId),
    /// `a ⊙ b`, broadcasting.
    Hadamard(NodeId, NodeId),
    /// `a / b`, broadcasting.
    Div(NodeId, NodeId),
    /// numpy's `matmul` (a scalar scales); `outer` for `v w^\top` of two vectors.
    Mul(NodeId, NodeId, bool),
    /// The Kronecker product.
    Kron(NodeId, NodeId),
    /// `base^exponent`: entrywise, or a matrix power of a square matrix.
    Power(NodeId, NodeId),
    /// A built-in function of one argument.
    Apply(Builtin, NodeId),
    /// The entrywise larger (`true`) or smaller of two values, broadcasting.
    Extreme(NodeId, NodeId, bool),
    /// Side by side: matrices by columns, vectors end to end.
    Concat(Vec<NodeId>),
    /// A norm.
    Norm(NodeId, NormOrder),
    /// 0-based positions into a vector (one), a matrix (a row, or an entry) or a family.
    Index(NodeId, Vec<usize>),
    /// Numbers into a vector, or vectors into the rows of a matrix (a free index).
    Stack(Vec<NodeId>),
    /// Numbers into an r × c matrix at the positions given (two free indices, a `bmatrix`).
    Grid(usize, usize, Vec<(usize, usize, NodeId)>),
    /// `softmax(c · A B) V` as `eval` computes it, with the exponentials it keeps.
    SoftmaxProduct(Box<SoftmaxProduct>),
}

/// One computed value.
#[derive(Debug, Clone)]
pub struct Node {
    /// The value.
    pub value: Value,
    /// What made it.
    pub op: Op,
    /// Whether a gradient flows through it.
    pub needs: bool,
    /// Where it was written (in the formula of its frame).
    pub span: Span,
    /// The value's shape (kept when the value itself was taken over by the next operation).
    pub shape: NumShape,
    /// For a node inside a definition's body: the definition and the span of its use in the
    /// formula differentiated, where errors of the backward pass are reported.
    pub site: Option<(String, Span)>,
}

/// The nodes of one forward pass, in order.
#[derive(Debug)]
pub struct Tape {
    nodes: Vec<Node>,
    kept: u128,
    limit: usize,
    /// The site of the nodes pushed now: the outermost use of a definition being recorded.
    pub site: Option<(String, Span)>,
}

impl Tape {
    /// An empty tape that refuses to keep more than `limit` elements.
    pub fn new(limit: usize) -> Self {
        Tape { nodes: Vec::new(), kept: 0, limit, site: None }
    }

    /// The nodes, in the order computed.
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    /// The node `id`.
    pub fn get(&self, id: NodeId) -> Option<&Node> {
        self.nodes.get(id)
    }

    /// The value of node `id` (a NaN for an id not on the tape, which the recorder never makes).
    pub fn value(&self, id: NodeId) -> &Value {
        const MISSING: Value = Value::Scalar(f64::NAN);
        self.nodes.get(id).map_or(&MISSING, |n| &n.value)
    }

    /// Whether a gradient flows through node `id`.
    pub fn needs(&self, id: NodeId) -> bool {
        self.nodes.get(id).is_some_and(|n| n.needs)
    }

    /// Elements kept so far (values, and room for the gradients of nodes that need one).
    pub fn kept(&self) -> u128 {
        self.kept
    }

    /// Pushes a leaf: a `--wrt` name when `needs`, else a constant.
    pub fn leaf(&mut self, value: Value, needs: bool, span: Span) -> Result<NodeId, EvalError> {
        let shape = value.shape();
        self.push_node(Node { value, op: Op::Leaf, needs, span, shape, site: self.site.clone() }, 0)
    }

    /// Pushes the result of `op`; it needs a gradient when one of its inputs does.
    pub fn push(&mut self, value: Value, op: Op, span: Span) -> Result<NodeId, EvalError> {
        self.push_with(value, op, span, 0)
    }

    /// [`Tape::push`] of an operation that keeps `extra` elements beside its value, or whose
    /// backward pass allocates them ([`Tape::fits`] them first, before computing).
    pub fn push_with(&mut self, value: Value, op: Op, span: Span, extra: u128) -> Result<NodeId, EvalError> {
        let needs = inputs(&op).iter().any(|i| self.needs(*i));
        let shape = value.shape();
        self.push_node(Node { value, op, needs, span, shape, site: self.site.clone() }, extra)
    }

    /// Whether `elements` more can be kept, checked before they are allocated: an error naming
    /// the limit if not.
    pub fn fits(&self, elements: u128, span: Span) -> Result<(), EvalError> {
        let total = self.kept.saturating_add(elements);
        if total > self.limit as u128 {
            return Err(EvalError::new(
                EvalErrorKind::TapeTooLarge { elements: total, limit: self.limit },
                span,
            ));
        }
        Ok(())
    }

    /// An error of `kind` about node `id`: at its span in the formula differentiated, or at
    /// the use of the definition it is inside.
    pub fn error_at(&self, id: NodeId, kind: EvalErrorKind) -> EvalError {
        let Some(node) = self.nodes.get(id) else { return EvalError::new(kind, Span::default()) };
        let error = EvalError::new(kind, node.span);
        match &node.site {
            Some((name, span)) => {
                EvalError::new(EvalErrorKind::InCall { name: name.clone(), inner: Box::new(error) }, *span)
            }
            None => error,
        }
    }

    /// Takes the value of node `id` over, leaving NaN in its place, when nothing will read
    /// it: the node is an operation whose own backward rule does not read its value (a
    /// product, a sum, a difference, a scaling), and no node after it reads it. The caller
    /// (the one consumer) promises its own backward rule does not read it either, and that
    /// the node is remembered nowhere (a cache, a memo of definitions).
    pub fn steal(&mut self, id: NodeId) -> Option<Value> {
        let node = self.nodes.get(id)?;
        if !matches!(node.op, Op::Mul(..) | Op::Add(..) | Op::Sub(..) | Op::Scale(..)) {
            return None;
        }
        if self.nodes.iter().skip(id + 1).any(|n| inputs(&n.op).contains(&id)) {
            return None;
        }
        let node = self.nodes.get_mut(id)?;
        Some(std::mem::replace(&mut node.value, Value::Scalar(f64::NAN)))
    }

    fn push_node(&mut self, node: Node, extra: u128) -> Result<NodeId, EvalError> {
        let elements = elements(&node.value).saturating_mul(1 + u128::from(node.needs)) + NODE_OVERHEAD;
        let elements = elements.saturating_add(extra);
        self.fits(elements, node.span)?;
        self.kept = self.kept.saturating_add(elements);
        self.nodes.push(node);
        Ok(self.nodes.len() - 1)
    }
}

/// The number of entries of a value (every member's, for a family).
pub fn elements(value: &Value) -> u128 {
    match value {
        Value::Family(members) => members.iter().map(elements).sum(),
        other => other.shape().elements(),
    }
}

/// The nodes an operation reads.
pub fn inputs(op: &Op) -> Vec<NodeId> {
    match op {
        Op::Leaf => Vec::new(),
        Op::Neg(a)
        | Op::Scale(a, _)
        | Op::Transpose(a)
        | Op::Apply(_, a)
        | Op::Norm(a, _)
        | Op::Index(a, _) => {
            vec![*a]
        }
        Op::Add(a, b)
        | Op::Sub(a, b)
        | Op::Hadamard(a, b)
        | Op::Div(a, b)
        | Op::Mul(a, b, _)
        | Op::Kron(a, b)
        | Op::Power(a, b)
        | Op::Extreme(a, b, _) => vec![*a, *b],
        Op::Concat(parts) | Op::Stack(parts) => parts.clone(),
        Op::Grid(_, _, cells) => cells.iter().map(|c| c.2).collect(),
        Op::SoftmaxProduct(f) => vec![f.a, f.b, f.v],
    }
}

/// The zero value of `shape`'s value (a family of zeros for a family).
pub fn zeros_like(value: &Value) -> Value {
    match value {
        Value::Family(members) => Value::Family(members.iter().map(zeros_like).collect()),
        other => zeros(other.shape()),
    }
}

/// The zeros of a numeric shape.
pub fn zeros(shape: NumShape) -> Value {
    match shape {
        NumShape::Scalar => Value::Scalar(0.0),
        NumShape::Vector(n) => Value::Vector(nalgebra::DVector::zeros(n)),
        NumShape::Matrix(r, c) => Value::Matrix(nalgebra::DMatrix::zeros(r, c)),
    }
}
