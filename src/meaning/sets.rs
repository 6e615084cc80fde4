//! What set operations say about their operands: `A \cup B`, `A \cap B`, `C \setminus (A \cup B)`
//! join, meet or take away sets, so a capital they take that only a convention named (a matrix,
//! the B of a batch size) is a set.

use super::tree::{Evidence, Factor, Joint, Term, TermKind};
use super::SymbolKind;
use crate::syntax::ast::InfixOp;

/// Operators of set algebra, written between their operands.
const SET_OPERATORS: &[&str] =
    &["\\cup", "\\cap", "\\setminus", "\\smallsetminus", "\\sqcup", "\\triangle", "\\bigtriangleup"];

/// Whether `op` is an operator of set algebra.
fn is_set_operator(op: &InfixOp) -> bool {
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
