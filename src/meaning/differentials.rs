//! Equations written in differentials: `dx = f(x, t)\,dt + g(t)\,dw`, `\mathrm{d}\mathbf{x} = …
//! \mathrm{d}t + \sqrt{\beta(t)}\,\mathrm{d}\mathbf{w}`. Where the left side is a differential and
//! a `dt` stands on the right, an italic `d` is the differential sign there (not a size), and a
//! differential of anything else than time on the right (`dw`) is the noise of a stochastic
//! differential equation: a Wiener process, so what it drives (the left side's variable) and the
//! process itself are random variables.

use super::tree::{Evidence, Term, TermKind};
use super::{SymbolKind, SymbolTable};
use crate::syntax::ast::{Font, InfixOp, Node, NodeKind};

/// Whether a formula is an equation in differentials with a time differential: its first side
/// `d` and a letter (italic or roman `d`), then `=`, and `d t` written somewhere after it.
pub(super) fn is_differential_equation(root: &Node) -> bool {
    let NodeKind::Chain { first, rest } = &root.kind else { return false };
    let equation = rest.first().is_some_and(|link| link.op == InfixOp::Relation("=".into()));
    equation
        && differential_of(first).is_some()
        && rest.iter().any(|link| has_time_differential(&link.operand, 0))
}

/// The variable of `d x` (a juxtaposition of a `d` sign and a name), if `node` is one.
fn differential_of(node: &Node) -> Option<&Node> {
    let NodeKind::Chain { first, rest } = &node.kind else { return None };
    let [link] = rest.as_slice() else { return None };
    (link.op == InfixOp::Juxt && is_d(first) && is_name(&link.operand)).then_some(&link.operand)
}

/// Whether `d t` stands somewhere in a node, side by side.
fn has_time_differential(node: &Node, depth: usize) -> bool {
    if depth > 16 {
        return false;
    }
    match &node.kind {
        NodeKind::Chain { first, rest } => {
            let mut previous = first.as_ref();
            for link in rest {
                let time = matches!(&link.operand.kind, NodeKind::Symbol { name, .. } if name == "t");
                if link.op == InfixOp::Juxt && is_d(previous) && time {
                    return true;
                }
                previous = &link.operand;
            }
            has_time_differential(first, depth + 1)
                || rest.iter().any(|link| has_time_differential(&link.operand, depth + 1))
        }
        _ => false,
    }
}

fn is_d(node: &Node) -> bool {
    matches!(&node.kind, NodeKind::Symbol { name, font: Font::Normal | Font::Roman } if name == "d")
}

fn is_name(node: &Node) -> bool {
    match &node.kind {
        NodeKind::Symbol { name, .. } => name != "d",
        NodeKind::Styled { .. } | NodeKind::Accent { .. } => true,
        NodeKind::Scripts { base, .. } => is_name(base),
        _ => false,
    }
}

/// `d\mathbf{x} = … dt + g(t)\,d\mathbf{w}`: the variable the left side differentiates and each
/// differential on the right of anything but the one `dt` names, random variables, where only a
/// convention named them.
pub(super) fn stochastic_processes(term: &Term, table: &SymbolTable) -> Vec<(String, SymbolKind)> {
    let TermKind::Chain { first, rest } = &term.kind else { return Vec::new() };
    let Some(driven) = differentiated(first) else { return Vec::new() };
    let mut noises = Vec::new();
    let mut timed = false;
    let mut stack: Vec<&Term> = rest.iter().map(|j| &j.term).collect();
    while let Some(term) = stack.pop() {
        if let Some(o) = differentiated(term) {
            match o.kind {
                _ if o.scripts.is_empty() && o.base_name == "t" => timed = true,
                _ if o.base_name != driven.base_name => noises.push(o),
                _ => {}
            }
        }
        term.for_each_child(|child| stack.push(child));
    }
    let mut out = Vec::new();
    if !timed || noises.is_empty() {
        return out;
    }
    for o in std::iter::once(driven).chain(noises) {
        let loose =
            matches!(o.kind, SymbolKind::Scalar | SymbolKind::Vector) && o.evidence >= Evidence::Convention;
        if loose
            && table.recorded(o.name.as_str()).is_none()
            && !out.iter().any(|(n, _)| *n == o.name.as_str())
        {
            out.push((o.name.to_string(), SymbolKind::RandomVariable));
        }
    }
    out
}

/// The symbol a differential term (`d x`, `\mathrm{d}\mathbf{w}`) takes.
fn differentiated<'t, 'n>(term: &'t Term<'n>) -> Option<&'t super::tree::Occurrence<'n>> {
    match &term.kind {
        TermKind::Operator(op) if op.name == "d" => op.operand.occurrence(),
        _ => None,
    }
}
