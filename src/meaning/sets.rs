//! What set operations say about their operands: `A \cup B`, `A \cap B`, `C \setminus (A \cup B)`
//! join, meet or take away sets, so a capital they take that only a convention named (a matrix,
//! the B of a batch size) is a set; and what a set-builder's condition declares of the letters
//! its braces collect.

use super::tree::{Evidence, Factor, Joint, Term, TermKind};
use super::{SymbolKind, SymbolTable};
use crate::syntax::ast::{Delim, InfixOp, Node, NodeKind};

/// Operators of set algebra, written between their operands.
const SET_OPERATORS: &[&str] =
    &["\\cup", "\\cap", "\\setminus", "\\smallsetminus", "\\sqcup", "\\triangle", "\\bigtriangleup"];

/// Whether `op` is an operator of set algebra.
pub(super) fn is_set_operator(op: &InfixOp) -> bool {
    match op {
        InfixOp::Additive(text) | InfixOp::Multiplicative(text) => SET_OPERATORS.contains(&text.as_str()),
        _ => false,
    }
}

/// The operands of a chain joined by a set operator (`A \cup B`) are sets.
pub(super) fn joined_sets(first: &mut Term, joints: &mut [Joint]) {
    if !joints.iter().any(|j| is_set_operator(j.op)) {
        return;
    }
    set_of(first);
    joints.iter_mut().for_each(|j| set_of(&mut j.term));
}

/// The factors on either side of a set operator in a row (`A \cap B`, `C \setminus D`) are sets.
pub(super) fn factored_sets(factors: &mut [Factor]) {
    for i in 1..factors.len() {
        if !factors.get(i).is_some_and(|f| f.op.is_some_and(is_set_operator)) {
            continue;
        }
        for side in [i - 1, i] {
            if let Some(factor) = factors.get_mut(side) {
                set_of(&mut factor.term);
            }
        }
    }
}

/// Makes a letter only a convention named a set, looking inside brackets (`(A \cup B)`).
fn set_of(term: &mut Term) {
    if let TermKind::Fenced { body, .. } = &mut term.kind {
        return set_of(body);
    }
    let TermKind::Symbol(occurrence) = &mut term.kind else { return };
    // `\mathcal{N}(v) \cup v`: a small letter there is an element written for its singleton.
    let capital = occurrence.base_name.starts_with(|c: char| c.is_ascii_uppercase());
    if capital && occurrence.evidence == Evidence::Convention && occurrence.kind != SymbolKind::Set {
        occurrence.kind = SymbolKind::Set;
        occurrence.evidence = Evidence::Use;
    }
}

impl SymbolTable {
    /// Declarations inside set-builder braces (`\{\sigma(w \cdot x + \theta) : w \in
    /// \mathbb{R}^n, \theta \in \mathbb{R}\}`, `\{x \in \mathbb{R}^n : \|x\| \le 1\}`): what the
    /// condition declares holds for the letters the braces collect.
    pub(super) fn learn_set_builders(&mut self, root: &Node) {
        let mut stack = vec![root];
        let mut visited = 0;
        while let Some(node) = stack.pop() {
            visited += 1;
            if visited > 4_096 {
                break;
            }
            if let NodeKind::Fenced { open: Delim::Brace, body, .. } = &node.kind {
                for statement in super::statements(body) {
                    for (lhs, set) in builder_declarations(statement) {
                        self.learn_declaration(lhs, set);
                    }
                }
            }
            node.for_each_child(|child| stack.push(child));
        }
    }
}

/// The declarations of one statement inside set-builder braces: `x \in S` before the colon or
/// bar (`x \in \mathbb{R}^n : \|x\| \le 1`), a last `w \in S` after it (`\sigma(w) : w \in
/// \mathbb{R}^n`), or the statement itself (`\theta \in \mathbb{R}`, after a comma).
fn builder_declarations(statement: &Node) -> Vec<(&Node, &Node)> {
    let NodeKind::Chain { first, rest } = &statement.kind else { return Vec::new() };
    let relation = |link: &crate::syntax::ast::Link, name: &str| link.op == InfixOp::Relation(name.into());
    let colon = rest.iter().position(|l| relation(l, ":") || relation(l, "\\mid") || relation(l, "|"));
    let Some(colon) = colon else {
        return super::relation_sides(statement, "\\in").into_iter().collect();
    };
    let mut found = Vec::new();
    if let (1, Some(link)) = (colon, rest.first()) {
        if relation(link, "\\in") {
            found.push((first.as_ref(), &link.operand));
        }
    }
    if let [.., before, last] = rest.as_slice() {
        let after_colon = rest.len() == colon + 2;
        if after_colon && relation(last, "\\in") {
            found.push((&before.operand, &last.operand));
        }
    }
    found
}
