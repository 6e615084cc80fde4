//! Moments name their variables: a capital of `random_capitals` below a letter papers give a
//! random variable's moments (`moment_letters`: `\mu_X`, `\sigma_X`, `\rho_{XY}`) is that random
//! variable, so where the capital stands alone and only a convention called it a matrix, a
//! vector or a number (`Z = \frac{X - \mu_X}{\sigma_X}`), it is a random variable too. Settled
//! for the next reading. A capital set equal to its own small letter (`X = x`) is one taking a
//! value.

use super::notation::{has, Notation};
use super::tree::{Evidence, Term, TermKind};
use super::{SymbolKind, SymbolTable};
use crate::syntax::ast::{Font, InfixOp, Node, NodeKind};

/// The names of capitals a moment's subscript names, as random variables, where a convention
/// alone decided them.
pub(super) fn variables_of_moments(term: &Term, table: &SymbolTable) -> Vec<(String, SymbolKind)> {
    let notation = Notation::shipped();
    // Most formulas have no moment with a capital below it: one walk finds that, and only
    // then a second looks for the capitals standing alone.
    let mut named: Vec<&str> = Vec::new();
    term.for_each_occurrence(&mut |o| {
        if has(&notation.moment_letters, &o.base_name) {
            for script in o.scripts.iter().filter(|s| !s.above) {
                named_capitals(script.term.node, notation, &mut named);
            }
        }
    });
    let mut out: Vec<(String, SymbolKind)> = Vec::new();
    if named.is_empty() {
        return out;
    }
    term.for_each_occurrence(&mut |o| {
        let loose = matches!(o.kind, SymbolKind::Matrix | SymbolKind::Vector | SymbolKind::Scalar)
            && o.evidence == Evidence::Convention
            && super::roles::font_of(o.base) == Font::Normal;
        let name = o.name.as_str();
        let settles = loose && named.contains(&o.base_name.as_str()) && table.recorded(name).is_none();
        if settles && !out.iter().any(|(n, _)| n == name) {
            out.push((name.to_string(), SymbolKind::RandomVariable));
        }
    });
    out
}

/// The capitals `node` names: one (`X`, `X^{(n)}`), or several side by side or in a list
/// (`XY`, `X,Y`); none if anything else is there. A capital with a subscript is an entry or a
/// row (`\mu_{W_{i,\cdot}}`, the mean of a row of weights), and a weight's capital (`W`) no
/// random variable.
fn named_capitals<'n>(node: &'n Node, notation: &Notation, out: &mut Vec<&'n str>) {
    let capital = |n: &'n Node| -> Option<&'n str> {
        let base = match &n.kind {
            NodeKind::Scripts { base, sub: None, .. } => base.as_ref(),
            _ => n,
        };
        match &base.kind {
            NodeKind::Symbol { name, font: Font::Normal }
                if name.len() == 1
                    && has(&notation.random_capitals, name)
                    && !has(&notation.weight_capitals, name) =>
            {
                Some(name.as_str())
            }
            _ => None,
        }
    };
    let items: Vec<&'n Node> = match &node.kind {
        NodeKind::Chain { first, rest }
            if rest.iter().all(|l| matches!(l.op, InfixOp::Juxt | InfixOp::Separator(_))) =>
        {
            std::iter::once(first.as_ref()).chain(rest.iter().map(|l| &l.operand)).collect()
        }
        _ => vec![node],
    };
    let capitals: Vec<&str> = items.iter().filter_map(|n| capital(n)).collect();
    if capitals.len() == items.len() {
        out.extend(capitals);
    }
}

/// `X = x` of `P(Y = y \mid do(X = x))`: a capital set equal to its own small letter is a random
/// variable taking a value, where only the convention for capitals called it a matrix.
pub(super) fn takes_its_value(first: &mut Term, value: &Term) {
    let (TermKind::Symbol(variable), TermKind::Symbol(taken)) = (&mut first.kind, &value.kind) else {
        return;
    };
    let capital = variable.scripts.is_empty()
        && variable.base_name.len() == 1
        && variable.base_name.starts_with(|c: char| c.is_ascii_uppercase());
    let own =
        taken.base_name.eq_ignore_ascii_case(&variable.base_name) && taken.base_name != variable.base_name;
    if capital && own && variable.evidence >= Evidence::Known && variable.kind == SymbolKind::Matrix {
        variable.kind = SymbolKind::RandomVariable;
        variable.evidence = Evidence::Use;
    }
}
