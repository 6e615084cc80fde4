//! A chain's operands as a pattern meets them: each with the operator before it, and how the
//! meaning layer ties each pair of neighbours (a call and its argument, a run side by side that
//! a sign takes whole, an operator name and its operand), so that a run of a pattern neither
//! splits what is one term nor misses it.

use crate::syntax::ast::{InfixOp, Node, NodeKind};

/// How two neighbouring operands of a chain are tied, as the meaning layer read them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tie {
    /// Not tied: a run of a pattern may begin or end between them.
    Apart,
    /// A call and its argument (`f` and `(x)`): only a metavariable may take one without the other.
    Call,
    /// Neighbours in a run side by side that a product sign takes whole (`Q` and `h_i` of
    /// `Q h_i \cdot K h_j`): a metavariable at a pattern's end takes the whole run.
    Run,
    /// A big operator and the first operand of the body it takes (`\sum_i` and `L_i` of `\sum_i
    /// L_i - \lambda R`): a metavariable that ends a pattern on the operator takes its body, and
    /// one before a sign takes the operator with it.
    Body,
    /// An operator name and its operand (`\nabla_\theta` and `g` of `h^\top \nabla_\theta
    /// g(\theta)`): one term as a run is, and, as a body is, taken whole by a metavariable that
    /// ends a pattern on the operator.
    Operand,
}

/// A chain's operands with the operator before each, and how each neighbouring pair is tied
/// ([`Tie`]), computed once per chain node. A walk keeps
/// one view and refills it ([`ChainView::fill`]) so that no chain allocates.
#[derive(Debug, Default)]
pub struct ChainView<'t> {
    /// The operands, each with the operator before it (none before the first).
    pub(super) operands: Vec<(Option<&'t InfixOp>, &'t Node)>,
    ties: Vec<Tie>,
}

impl<'t> ChainView<'t> {
    /// The view of `node` if it is a chain; `tie(f, (x))` says how neighbours side by side are tied.
    pub fn new(node: &'t Node, tie: &dyn Fn(&Node, &Node) -> Tie) -> Option<ChainView<'t>> {
        let mut view = ChainView::default();
        view.fill(node, tie).then_some(view)
    }

    /// Makes this the view of `node`, reusing its buffers; false (and empty) if `node` is not
    /// a chain.
    pub fn fill(&mut self, node: &'t Node, tie: &dyn Fn(&Node, &Node) -> Tie) -> bool {
        self.operands.clear();
        self.ties.clear();
        let NodeKind::Chain { first, rest } = &node.kind else { return false };
        self.operands.push((None, first.as_ref()));
        self.operands.extend(rest.iter().map(|l| (Some(&l.op), &l.operand)));
        let ties = self.operands.windows(2).map(|pair| match pair {
            [(_, callee), (Some(InfixOp::Juxt), argument)] => tie(callee, argument),
            _ => Tie::Apart,
        });
        self.ties.extend(ties);
        true
    }

    /// The chain's operands with the operator before each (none before the first).
    pub fn links(&self) -> impl Iterator<Item = (Option<&'t InfixOp>, &'t Node)> + '_ {
        self.operands.iter().copied()
    }

    /// Whether operands `left` and `left + 1` are tied (a call and its argument, or one run).
    pub(super) fn joined(&self, left: usize) -> bool {
        self.tie(left) != Tie::Apart
    }

    /// How operands `left` and `left + 1` are tied.
    pub(super) fn tie(&self, left: usize) -> Tie {
        self.ties.get(left).copied().unwrap_or(Tie::Apart)
    }
}
