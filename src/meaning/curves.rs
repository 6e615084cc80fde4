//! Curves over sizes: `L(N, D) = \frac{A}{N^\alpha} + \frac{B}{D^\beta} + E` defines a number (a
//! loss, an error) as the model and the data grow. A function of sizes alone gives a number, so
//! the letters of the right side that only a convention called arrays (the coefficients A and
//! E) are numbers, known for the next reading.

use super::tree::{Evidence, Term, TermKind};
use super::{SymbolKind, SymbolTable};
use crate::syntax::ast::{Font, InfixOp, NodeKind};

/// The letters a convention called arrays on the right of a curve's definition, as numbers.
pub(super) fn numbers_of_a_curve(term: &Term, table: &SymbolTable) -> Vec<(String, SymbolKind)> {
    let mut out: Vec<(String, SymbolKind)> = Vec::new();
    let mut stack: Vec<&Term> = vec![term];
    while let Some(term) = stack.pop() {
        if let TermKind::Chain { first, rest } = &term.kind {
            let defines = rest.first().is_some_and(|j| is_definition(j.op));
            if defines && is_curve_over_sizes(first) {
                rest.iter().for_each(|j| coefficients(&j.term, table, &mut out));
                continue;
            }
        }
        term.for_each_child(|child| stack.push(child));
    }
    out
}

/// `=`, `\triangleq`, `:=`, `\approx`: what sets a left side to a right one.
fn is_definition(op: &InfixOp) -> bool {
    matches!(op, InfixOp::Relation(r) if ["=", "\\triangleq", ":=", "\\coloneqq", "\\approx", "\\equiv", "\\doteq"].contains(&r.as_str()))
}

/// `L(N, D)`, `E(C)`: a letter in the normal font applied to sizes alone.
fn is_curve_over_sizes(head: &Term) -> bool {
    let TermKind::Apply(application) = &head.kind else { return false };
    let Some(callee) = application.callee.occurrence() else { return false };
    let plain = matches!(callee.base.kind, NodeKind::Symbol { font: Font::Normal, .. });
    let sized = |a: &Term| a.occurrence().is_some_and(|o| o.kind == SymbolKind::Dimension);
    plain
        && callee.kind == SymbolKind::Function
        && application.given.is_empty()
        && !application.args.is_empty()
        && application.args.iter().all(sized)
}

/// Adds the names in `side` that only a convention called arrays, as numbers.
fn coefficients(side: &Term, table: &SymbolTable, out: &mut Vec<(String, SymbolKind)>) {
    for (_, o) in side.occurrences() {
        let array = matches!(o.kind, SymbolKind::Matrix | SymbolKind::Vector | SymbolKind::RandomVariable);
        let plain = super::roles::font_of(o.base) == Font::Normal;
        let name = o.name.as_str();
        if array
            && plain
            && o.evidence == Evidence::Convention
            && table.recorded(name).is_none()
            && !out.iter().any(|(n, _)| n == name)
        {
            out.push((name.to_string(), SymbolKind::Scalar));
        }
    }
}
