//! Symbol kinds: from usage, then from notation conventions.

use super::{binding_name, SymbolTable};
use crate::syntax::ast::{Delim, Font, InfixOp, Node, NodeKind};
use serde::Serialize;

/// What a symbol stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SymbolKind {
    /// A number: `x`, `\lambda`, a loss `L`.
    Scalar,
    /// A vector: `\mathbf{x}`, `q_i`, or declared in `\mathbb{R}^n`.
    Vector,
    /// A matrix: `Q`, `\mathbf{W}`, or declared in `\mathbb{R}^{n \times d}`.
    Matrix,
    /// A size: `n`, `N`, `d_k`, `d_{\text{model}}`.
    Dimension,
    /// An index: `i`, `j`, `t` under a sum or in a subscript.
    Index,
    /// A function: `\log`, `\mathrm{softmax}`, `p` in `p(x)`, a defined `f`.
    Function,
    /// A set or space: `\mathbb{R}`, `\mathcal{D}`, an event `A` in `P(A \mid B)`.
    Set,
    /// A random variable: `X` in `\mathbb{E}[X]`, `H(X)`; `x` in `x \sim p`.
    RandomVariable,
    /// A distribution, density or policy: `p` in `p(x)`, `P` and `Q` in
    /// `D_{\mathrm{KL}}(P \parallel Q)`, `\mathcal{N}`, `\pi_\theta(a \mid s)`.
    Distribution,
    /// Nothing is known.
    Unknown,
}

/// Letters that papers use for functions when a parenthesis follows.
const FUNCTION_LETTERS: &[&str] =
    &["f", "g", "h", "p", "q", "P", "F", "G", "sigma", "phi", "psi", "pi", "ell", "varphi", "O", "KL"];

/// Letters that papers use for sizes.
const DIMENSION_LETTERS: &[&str] = &["n", "N", "d", "m", "M", "T", "H"];

/// Letters that papers use for indices.
const INDEX_LETTERS: &[&str] = &["i", "j", "t", "k", "l", "h"];

/// Letters that name a loss or an objective: scalars even in upper case.
const LOSS_LETTERS: &[&str] = &["L", "J", "R", "E"];

/// Walks `node` and records what usage says: sum bounds are counts, sum variables and
/// subscript letters are indices, the root of a dimension-looking name is a dimension.
pub(super) fn learn_usage(table: &mut SymbolTable, node: &Node, depth: usize) {
    if depth > 512 {
        return;
    }
    match &node.kind {
        NodeKind::Scripts { base, sub, sup, .. } if matches!(base.kind, NodeKind::LargeOp { .. }) => {
            learn_bounds(table, sub.as_deref(), sup.as_deref());
        }
        NodeKind::Chain { first, rest } if matches!(rest.as_slice(), [l] if l.op == InfixOp::Relation("\\sim".into())) => {
            if let Some(link) = rest.first() {
                table.learn_sampling(first, &link.operand);
            }
        }
        NodeKind::Sqrt { radicand, .. } => {
            if let Some(name) = binding_name(radicand).filter(|n| looks_like_dimension(n)) {
                table.suggest(name, SymbolKind::Dimension);
            }
        }
        _ => {}
    }
    node.for_each_child(|child| learn_usage(table, child, depth + 1));
}

/// `\sum_{i=1}^{N}`: i is an index, N a count.
fn learn_bounds(table: &mut SymbolTable, sub: Option<&Node>, sup: Option<&Node>) {
    if let Some(sub) = sub {
        let variable = match &sub.kind {
            NodeKind::Chain { first, rest }
                if matches!(rest.first().map(|l| &l.op), Some(InfixOp::Relation(_))) =>
            {
                first.as_ref()
            }
            _ => sub,
        };
        for name in index_letters(variable) {
            table.suggest(name, SymbolKind::Index);
        }
    }
    if let Some(name) = sup.and_then(binding_name) {
        table.suggest(name, SymbolKind::Dimension);
    }
}

/// Single letters written as indices in a subscript: `i` in `x_i`, `i, t` in `Q_{it}`.
fn index_letters(sub: &Node) -> Vec<String> {
    let is_index_letter = |n: &Node| match &n.kind {
        NodeKind::Symbol { name, font: Font::Normal } if INDEX_LETTERS.contains(&name.as_str()) => {
            Some(name.to_string())
        }
        _ => None,
    };
    match &sub.kind {
        NodeKind::Chain { first, rest }
            if rest.iter().all(|l| l.op == InfixOp::Juxt || matches!(l.op, InfixOp::Separator(_))) =>
        {
            std::iter::once(first.as_ref())
                .chain(rest.iter().map(|l| &l.operand))
                .filter_map(is_index_letter)
                .collect()
        }
        _ => is_index_letter(sub).into_iter().collect(),
    }
}

fn looks_like_dimension(name: &str) -> bool {
    DIMENSION_LETTERS.contains(&name) || name.starts_with("d_") || name.starts_with("n_")
}

/// The kind of a node: a symbol's from the table or conventions; a compound's from its parts.
pub fn kind_of(node: &Node, table: &SymbolTable) -> SymbolKind {
    kind_at(node, table, 0)
}

fn kind_at(node: &Node, table: &SymbolTable, depth: usize) -> SymbolKind {
    if depth > 256 {
        return SymbolKind::Unknown;
    }
    let recorded = match &node.kind {
        NodeKind::Symbol { .. }
        | NodeKind::Scripts { .. }
        | NodeKind::Word { .. }
        | NodeKind::Accent { .. } => table.recorded_for(node),
        _ => None,
    };
    if let Some(kind) = recorded {
        return kind;
    }
    match &node.kind {
        NodeKind::Symbol { name, font } => convention(name, *font),
        NodeKind::Number { font: Font::Bold | Font::Blackboard, .. } => SymbolKind::Vector,
        NodeKind::Number { .. } => SymbolKind::Scalar,
        NodeKind::Word { .. } => SymbolKind::Function,
        NodeKind::Scripts { base, sub, sup, .. } => {
            scripts_kind(base, sub.as_deref(), sup.as_deref(), table, depth)
        }
        NodeKind::Accent { body, .. } | NodeKind::Styled { body, .. } | NodeKind::Boxed { body } => {
            kind_at(body, table, depth + 1)
        }
        NodeKind::Annotated { body, .. } => kind_at(body, table, depth + 1),
        NodeKind::Fenced { open: Delim::Paren | Delim::Bracket, body, .. } => kind_at(body, table, depth + 1),
        NodeKind::Fenced { .. } | NodeKind::Sqrt { .. } => SymbolKind::Scalar,
        NodeKind::Frac { num, .. } => kind_at(num, table, depth + 1),
        NodeKind::Prefix { operand, .. } => kind_at(operand, table, depth + 1),
        NodeKind::Chain { first, rest } => chain_kind(first, rest, table, depth),
        NodeKind::Rows(_) if node.environment().is_some_and(|env| env.ends_with("matrix")) => {
            SymbolKind::Matrix
        }
        _ => SymbolKind::Unknown,
    }
}

/// The kind papers' conventions give a symbol.
fn convention(name: &str, font: Font) -> SymbolKind {
    let is_latin = name.len() == 1;
    let upper = name.starts_with(|c: char| c.is_ascii_uppercase());
    match font {
        Font::Blackboard | Font::Calligraphic | Font::Script => return SymbolKind::Set,
        Font::Bold if upper => return SymbolKind::Matrix,
        Font::Bold => return SymbolKind::Vector,
        _ => {}
    }
    if !is_latin {
        return if upper { SymbolKind::Matrix } else { SymbolKind::Scalar };
    }
    if upper && !LOSS_LETTERS.contains(&name) {
        SymbolKind::Matrix
    } else {
        SymbolKind::Scalar
    }
}

fn scripts_kind(
    base: &Node,
    sub: Option<&Node>,
    sup: Option<&Node>,
    table: &SymbolTable,
    depth: usize,
) -> SymbolKind {
    let base_kind = kind_at(base, table, depth + 1);
    let indices = sub.map_or(0, count_indices);
    match (base_kind, indices) {
        (SymbolKind::Matrix, 2) => SymbolKind::Scalar,
        (SymbolKind::Matrix, 1) => SymbolKind::Vector,
        (SymbolKind::Vector, 1) => SymbolKind::Scalar,
        (SymbolKind::Set, _) if sup.is_some() => SymbolKind::Set,
        (SymbolKind::Scalar, 1) if is_function_letter(base) => SymbolKind::Function,
        (kind, _) => kind,
    }
}

/// How many indices a subscript holds: `i` 1, `it` or `i,j` 2, a name like `Q` or `model` 0.
fn count_indices(sub: &Node) -> usize {
    let single = |n: &Node| {
        matches!(&n.kind, NodeKind::Symbol { name, font: Font::Normal } if INDEX_LETTERS.contains(&name.as_str()))
            || matches!(n.kind, NodeKind::Number { .. })
    };
    match &sub.kind {
        NodeKind::Chain { first, rest } => {
            let all = std::iter::once(first.as_ref()).chain(rest.iter().map(|l| &l.operand));
            all.filter(|n| single(n)).count()
        }
        _ => usize::from(single(sub)),
    }
}

fn is_function_letter(node: &Node) -> bool {
    matches!(&node.kind, NodeKind::Symbol { name, font: Font::Normal } if FUNCTION_LETTERS.contains(&name.as_str()))
}

/// The kind of `first op operand op operand …`: a product of matrices is a matrix, a call of
/// softmax on a matrix is a matrix, a relation or sum takes its first operand's kind.
fn chain_kind(
    first: &Node,
    rest: &[crate::syntax::ast::Link],
    table: &SymbolTable,
    depth: usize,
) -> SymbolKind {
    let mut kind = kind_at(first, table, depth + 1);
    let mut previous = first;
    for link in rest {
        let next = kind_at(&link.operand, table, depth + 1);
        kind = match (&link.op, kind, next) {
            (InfixOp::Juxt, SymbolKind::Function, _) if super::is_call(previous, &link.operand, table) => {
                next
            }
            (InfixOp::Juxt | InfixOp::Multiplicative(_), SymbolKind::Matrix, _)
            | (InfixOp::Juxt | InfixOp::Multiplicative(_), _, SymbolKind::Matrix) => SymbolKind::Matrix,
            (InfixOp::Juxt | InfixOp::Multiplicative(_), SymbolKind::Vector, _)
            | (InfixOp::Juxt | InfixOp::Multiplicative(_), _, SymbolKind::Vector) => SymbolKind::Vector,
            (InfixOp::Relation(_) | InfixOp::Separator(_), kind, _) => return kind,
            (_, kind, _) => kind,
        };
        previous = &link.operand;
    }
    kind
}
