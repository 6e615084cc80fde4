//! `\sim` between two sides: a draw from a law (`x \sim p(x)`, `z \sim \mathcal{N}(0, I)`, `S
//! \sim \mathcal{D}^m`, `x \sim \frac{1}{Z} e^{-E(x)}`), or "grows like", an asymptotic
//! equivalence of two sizes (`f(n) \sim n \log n`, `a_n \sim \frac{1}{n}`, `f(x) \sim g(x)`),
//! which draws nothing: its left side is no random variable and its right side no law.

use crate::syntax::ast::{Delim, InfixOp, Node, NodeKind, WordStyle};

/// Whether `left \sim right` draws `left` from a law: unless the right side is a size written
/// with numbers, letters, roots, powers and logarithms only (no law named, no call, no
/// exponential: `n \log n`, `\frac{1}{n}`, `\sqrt{n}`, `n^2`), or both sides are calls on the
/// same arguments (`f(x) \sim g(x)`).
pub fn draws_from_a_law(left: &Node, right: &Node) -> bool {
    !(is_a_size(right) || same_arguments(left, right))
}

/// An arithmetic expression of sizes, not a lone letter (`p`, `\mathcal{D}`, `p_\theta` name
/// laws) nor a power of one (`\mathcal{D}^m`), unless a plain small letter to a number (`n^2`).
fn is_a_size(node: &Node) -> bool {
    match &node.kind {
        NodeKind::Symbol { .. } => false,
        NodeKind::Scripts { base, sub: None, sup: Some(sup), .. } => {
            small_plain_letter(base) && matches!(sup.kind, NodeKind::Number { .. })
        }
        NodeKind::Scripts { .. } => false,
        _ => arithmetic(node, 0),
    }
}

/// Numbers, letters, fractions, roots, powers (not of e), `\log`, signs and parentheses,
/// combined by sums and products with no call in them.
fn arithmetic(node: &Node, depth: usize) -> bool {
    if depth > crate::syntax::depth::DEFAULT_MAX_DEPTH {
        return false;
    }
    let inner = |n: &Node| arithmetic(n, depth + 1);
    match &node.kind {
        NodeKind::Number { .. } | NodeKind::Symbol { .. } => true,
        NodeKind::Word { text, style: WordStyle::Operator } => matches!(text.as_str(), "log" | "ln"),
        NodeKind::Scripts { base, sub, sup, .. } => {
            let exponential =
                matches!(&base.kind, NodeKind::Symbol { name, .. } if name == "e") && sup.is_some();
            !exponential
                && inner(base)
                && sub.as_deref().is_none_or(inner)
                && sup.as_deref().is_none_or(inner)
        }
        NodeKind::Frac { num, den } => inner(num) && inner(den),
        NodeKind::Sqrt { radicand, .. } => inner(radicand),
        NodeKind::Prefix { operand, .. } => inner(operand),
        NodeKind::Fenced { open: Delim::Paren, body, .. } => inner(body),
        NodeKind::Chain { first, rest } => {
            let mut previous = first.as_ref();
            for link in rest {
                let combines =
                    matches!(link.op, InfixOp::Juxt | InfixOp::Additive(_) | InfixOp::Multiplicative(_));
                let call = link.op == InfixOp::Juxt
                    && matches!(link.operand.kind, NodeKind::Fenced { .. })
                    && matches!(previous.kind, NodeKind::Symbol { .. } | NodeKind::Scripts { .. });
                if !combines || call || !inner(&link.operand) {
                    return false;
                }
                previous = &link.operand;
            }
            inner(first)
        }
        _ => false,
    }
}

/// `n`, `x`: one lower-case Latin letter in the plain font.
fn small_plain_letter(node: &Node) -> bool {
    matches!(&node.kind, NodeKind::Symbol { name, font: crate::syntax::ast::Font::Normal }
        if name.len() == 1 && name.starts_with(|c: char| c.is_ascii_lowercase()))
}

/// `f(x) \sim g(x)`: two calls whose parentheses hold the same expression.
fn same_arguments(left: &Node, right: &Node) -> bool {
    match (call_arguments(left), call_arguments(right)) {
        (Some(a), Some(b)) => a == b,
        _ => false,
    }
}

/// The parenthesised group of `f(x)`: a letter (with scripts or not) side by side with it.
fn call_arguments(node: &Node) -> Option<&Node> {
    let NodeKind::Chain { first, rest } = &node.kind else { return None };
    let [link] = rest.as_slice() else { return None };
    let callee = matches!(first.kind, NodeKind::Symbol { .. } | NodeKind::Scripts { .. });
    let group = matches!(link.operand.kind, NodeKind::Fenced { open: Delim::Paren, .. });
    (callee && group && link.op == InfixOp::Juxt).then_some(&link.operand)
}
