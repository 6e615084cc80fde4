//! `\sim` between two sides: a draw from a law (`x \sim p(x)`, `z \sim \mathcal{N}(0, I)`, `S
//! \sim \mathcal{D}^m`, `x \sim \frac{1}{Z} e^{-E(x)}`), or "grows like", an asymptotic
//! equivalence of two sizes (`f(n) \sim n \log n`, `a_n \sim \frac{1}{n}`, `f(x) \sim g(x)`),
//! which draws nothing: its left side is no random variable and its right side no law.
//! The walks stop at the parser's depth ceiling, which no accepted tree passes.

use crate::syntax::ast::{Delim, InfixOp, Node, NodeKind, WordStyle};

/// What a `\sim` between two sides says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TildeReading {
    /// The left side is drawn from the law on the right (`x \sim p(x)`).
    Draw,
    /// Two sizes grow alike, their ratio going to 1 (`f(n) \sim n \log n`).
    Growth,
    /// Two numbers are about the same, or a range (`0.5 \sim 2`, `10\% \sim 100\%`).
    About,
}

/// How `left \sim right` reads: a draw from a law, unless the right side is a size written
/// with numbers, letters, roots, powers and logarithms only, one of them at least (no law
/// named, no call, no exponential: `n \log n`, `\frac{1}{n}`, `\sqrt{n}`, `n^2`), or both sides
/// are calls on the same arguments (`f(x) \sim g(x)`): then a growth, or, with no letter on
/// either side, two numbers about alike.
pub fn tilde_reading(left: &Node, right: &Node) -> TildeReading {
    if !(is_a_size(right) || same_arguments(left, right)) {
        TildeReading::Draw
    } else if holds_a_letter(left, 0) || holds_a_letter(right, 0) {
        TildeReading::Growth
    } else {
        TildeReading::About
    }
}

/// Whether `left \sim right` draws `left` from a law ([`tilde_reading`]).
pub(super) fn draws_from_a_law(left: &Node, right: &Node) -> bool {
    tilde_reading(left, right) == TildeReading::Draw
}

/// Whether a letter stands anywhere in `node`.
fn holds_a_letter(node: &Node, depth: usize) -> bool {
    if depth > crate::syntax::depth::MAX_DEPTH_CEILING {
        return false;
    }
    if matches!(&node.kind, NodeKind::Symbol { name, .. } if name.starts_with(|c: char| c.is_alphabetic())) {
        return true;
    }
    let mut found = false;
    node.for_each_child(|child| found = found || holds_a_letter(child, depth + 1));
    found
}

/// An arithmetic expression of sizes, not a lone letter (`p`, `\mathcal{D}`, `p_\theta` name
/// laws) nor a power of one (`\mathcal{D}^m`), unless a plain small letter to a number (`n^2`);
/// a power of a number is one (`10^{-3}`).
fn is_a_size(node: &Node) -> bool {
    match &node.kind {
        NodeKind::Symbol { .. } => false,
        NodeKind::Scripts { base, sub: None, sup: Some(sup), .. } => {
            let number = matches!(base.kind, NodeKind::Number { .. });
            (number && arithmetic(sup, 0))
                || (small_plain_letter(base) && matches!(sup.kind, NodeKind::Number { .. }))
        }
        NodeKind::Scripts { .. } => false,
        _ => arithmetic(node, 0) && has_a_rate(node, 0),
    }
}

/// Whether an arithmetic expression holds what sizes are compared by: a number, a fraction, a
/// root, a power or a logarithm (`n \log n`, `\frac{1}{n}`); a bare sum of letters (`X_1 + X_2`,
/// random variables added) compares no growth.
fn has_a_rate(node: &Node, depth: usize) -> bool {
    if depth > crate::syntax::depth::MAX_DEPTH_CEILING {
        return false;
    }
    match &node.kind {
        NodeKind::Number { .. } | NodeKind::Frac { .. } | NodeKind::Sqrt { .. } | NodeKind::Word { .. } => {
            true
        }
        // A power, not a step or a mark above (`X^{(2)}`, `x^*`).
        NodeKind::Scripts { sup: Some(sup), .. } if is_a_power(sup) => true,
        NodeKind::Scripts { base, .. } => has_a_rate(base, depth + 1),
        NodeKind::Prefix { operand, .. } => has_a_rate(operand, depth + 1),
        NodeKind::Fenced { body, .. } => has_a_rate(body, depth + 1),
        NodeKind::Chain { first, rest } => {
            has_a_rate(first, depth + 1) || rest.iter().any(|l| has_a_rate(&l.operand, depth + 1))
        }
        _ => false,
    }
}

/// Numbers, letters, fractions, roots, powers (not of e), `\log`, signs and parentheses,
/// combined by sums and products with no call in them.
fn arithmetic(node: &Node, depth: usize) -> bool {
    if depth > crate::syntax::depth::MAX_DEPTH_CEILING {
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

/// Whether a superscript raises to a power: not a step in parentheses (`^{(2)}`) nor a mark
/// (`^*`, `^\star`, `^\prime`, `^\dagger`).
fn is_a_power(sup: &Node) -> bool {
    match &sup.kind {
        NodeKind::Fenced { .. } => false,
        NodeKind::Symbol { name, .. } | NodeKind::Unknown { name } | NodeKind::Punct { text: name } => {
            !matches!(name.as_str(), "*" | "ast" | "star" | "prime" | "dagger")
        }
        _ => true,
    }
}
