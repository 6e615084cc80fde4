//! Data points: a sum or another large operator that runs over a letter papers give a data point
//! (`x`) as a member of a named collection (`\sum_{x \in \mathcal{B}_j} \nabla l(x, w_t)`,
//! `\frac{1}{k} \sum_{x_i \in N_k(x)} y_i`) runs over the examples of a batch, a data set or a
//! neighbourhood, so the letter is a vector. Settled for the next reading only where every
//! occurrence of the letter is a number by convention alone; a density it is the outcome of
//! (`\sum_{x \in \mathcal{X}} p(x) \log p(x)`) keeps it a random variable.

use super::notation::{has, Names};
use super::tree::{Evidence, Occurrence, Term, TermKind};
use super::{SymbolKind, SymbolTable};
use crate::syntax::ast::{Font, InfixOp};

/// The names of data points that large operators run over, as vectors.
pub(super) fn data_points(term: &Term, table: &SymbolTable, letters: &Names) -> Vec<(String, SymbolKind)> {
    let mut members: Vec<&str> = Vec::new();
    let mut decided: Vec<&str> = Vec::new();
    let mut stack: Vec<&Term> = vec![term];
    while let Some(term) = stack.pop() {
        if let TermKind::BigOp(big) = &term.kind {
            if let Some(member) = big.over.as_ref().and_then(member_of_a_collection) {
                if has(letters, &member.base_name) && font_of(member) == Font::Normal {
                    members.push(member.name.as_str());
                }
            }
        }
        if let Some(o) = term.occurrence() {
            if !(o.kind == SymbolKind::Scalar && o.evidence == Evidence::Convention) {
                decided.push(o.name.as_str());
            }
        }
        term.for_each_child(|child| stack.push(child));
    }
    let mut out: Vec<(String, SymbolKind)> = Vec::new();
    for name in members {
        let settles = !decided.contains(&name) && table.recorded(name).is_none();
        if settles && !out.iter().any(|(n, _)| n == name) {
            out.push((name.to_string(), SymbolKind::Vector));
        }
    }
    out
}

/// The letter left of `\in` in a large operator's range, when the right side names a collection:
/// not a number set (`\mathbb{R}^n`), nor a bracketed range (`[m]`, `\{1, \dots, n\}`).
fn member_of_a_collection<'t, 'n>(over: &'t Term<'n>) -> Option<&'t Occurrence<'n>> {
    let TermKind::Chain { first, rest } = &over.kind else { return None };
    let [joint] = rest.as_slice() else { return None };
    if !matches!(joint.op, InfixOp::Relation(r) if r == "\\in") {
        return None;
    }
    let named = match &joint.term.kind {
        TermKind::Symbol(set) => font_of(set) != Font::Blackboard,
        TermKind::Apply(app) => app.callee.occurrence().is_some_and(|c| font_of(c) != Font::Blackboard),
        _ => false,
    };
    named.then(|| first.occurrence()).flatten()
}

fn font_of(o: &Occurrence) -> Font {
    super::roles::font_of(o.base)
}
