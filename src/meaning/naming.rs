//! Binding names: what a symbol-like node is called when bound or listed (`\mu` → `mu`,
//! `\mathbf{x}` → `x`, `W_Q` → `W_Q`, `d_{\text{model}}` → `d_model`), and its base's name.

use crate::syntax::ast::{InfixOp, Node, NodeKind};

/// The binding name of a symbol-like node: `\mu` → `mu`, `\mathbf{x}` → `x`, `W_Q` → `W_Q`,
/// `d_{\text{model}}` → `d_model`, `\mathrm{softmax}` → `softmax`. `None` for anything else.
pub fn binding_name(node: &Node) -> Option<String> {
    let mut name = String::new();
    write_binding_name(node, &mut name).then_some(name)
}

/// Writes [`binding_name`] onto `out` (one buffer for the whole name); `false` when there is
/// none, with `out` then holding a part.
fn write_binding_name(node: &Node, out: &mut String) -> bool {
    match &node.kind {
        NodeKind::Symbol { name, .. } => out.push_str(name),
        NodeKind::Word { text, .. } => {
            for (k, word) in text.split_whitespace().enumerate() {
                if k > 0 {
                    out.push('_');
                }
                out.push_str(word);
            }
        }
        NodeKind::Number { text, .. } => out.push_str(text),
        NodeKind::Accent { accent, body } => {
            out.push_str(accent);
            out.push('_');
            return write_binding_name(body, out);
        }
        NodeKind::Scripts { base, sub: Some(sub), sup: None, primes: 0 } => {
            if !write_binding_name(base, out) {
                return false;
            }
            out.push('_');
            return write_subscript_name(sub, out);
        }
        _ => return false,
    }
    true
}

/// [`binding_name`] as an inline string: a symbol's or word's own name is copied without
/// allocating.
pub(crate) fn name_text(node: &Node) -> Option<crate::syntax::ast::Text> {
    match &node.kind {
        NodeKind::Symbol { name, .. } => Some(name.clone()),
        NodeKind::Word { text, .. } if !text.contains(char::is_whitespace) => Some(text.clone()),
        _ => binding_name(node).map(crate::syntax::ast::Text::from),
    }
}

/// The binding name of `node`, or its LaTeX without spaces and braces when it has none.
pub(crate) fn binding_name_or_latex(node: &Node) -> String {
    binding_name(node).unwrap_or_else(|| {
        let latex = crate::syntax::print::to_latex(node);
        latex.chars().filter(|c| !c.is_whitespace() && *c != '{' && *c != '}').collect()
    })
}

/// Whether `node` has a binding name ([`binding_name`] is `Some`), without building it.
pub fn has_binding_name(node: &Node) -> bool {
    match &node.kind {
        NodeKind::Symbol { .. } | NodeKind::Word { .. } | NodeKind::Number { .. } => true,
        NodeKind::Accent { body, .. } => has_binding_name(body),
        NodeKind::Scripts { base, sub: Some(sub), sup: None, primes: 0 } => {
            has_binding_name(base) && has_subscript_name(sub)
        }
        _ => false,
    }
}

/// The name of a subscript made of symbols, words and numbers side by side (`KL` of `D_{KL}`,
/// `model`, `ij`).
pub(crate) fn subscript_name(sub: &Node) -> Option<String> {
    let mut name = String::new();
    write_subscript_name(sub, &mut name).then_some(name)
}

/// Whether a subscript has a name ([`write_subscript_name`] writes one), without building it.
fn has_subscript_name(sub: &Node) -> bool {
    match &sub.kind {
        NodeKind::Symbol { .. } | NodeKind::Word { .. } | NodeKind::Number { .. } => true,
        NodeKind::Chain { first, rest } if rest.iter().all(|l| l.op == InfixOp::Juxt) => {
            has_subscript_name(first) && rest.iter().all(|l| has_subscript_name(&l.operand))
        }
        _ => false,
    }
}

/// Writes the name of a subscript made of symbols, words and numbers side by side (`k`,
/// `model`, `ij`) onto `out`; `false` when it has none.
fn write_subscript_name(sub: &Node, out: &mut String) -> bool {
    match &sub.kind {
        NodeKind::Symbol { .. } | NodeKind::Word { .. } | NodeKind::Number { .. } => {
            write_binding_name(sub, out)
        }
        NodeKind::Chain { first, rest } if rest.iter().all(|l| l.op == InfixOp::Juxt) => {
            write_subscript_name(first, out)
                && rest.iter().all(|link| write_subscript_name(&link.operand, out))
        }
        _ => false,
    }
}

/// Whether [`base_name`] is `Some`, without building it.
pub fn has_base_name(node: &Node) -> bool {
    match &node.kind {
        NodeKind::Scripts { base, .. } => has_base_name(base),
        _ => has_binding_name(node),
    }
}

/// The base symbol of a node with scripts (`x_i^2` → `x`), or the node's own name.
pub fn base_name(node: &Node) -> Option<String> {
    match &node.kind {
        NodeKind::Scripts { base, .. } => base_name(base),
        _ => binding_name(node),
    }
}
