//! How far an explicit product sign reaches in a row of factors: factors written side by side
//! bind tighter than `\cdot`, `\times`, `\odot`, `/`, … between them, as papers mean them.
//!
//! `Q h_i \cdot K h_j` is the dot product of `Q h_i` and `K h_j`, not `Q` times `h_i \cdot K`
//! times `h_j`; `W x \odot V y` is the element-wise product of `Wx` and `Vy`; `x / 2\sigma^2`
//! divides by `2\sigma^2`. One exception keeps the coefficients papers write before a term:
//! a number over one factor (`1/2 \|w\|^2`, `1/n \sum_i x_i`) or a Greek letter over a number
//! (`\lambda/2 \|\theta\|^2`) is a fraction that scales what follows it.
//!
//! The syntax has one level for all of them (the precedence table cannot tell a product
//! written side by side from one written with a sign); this pass, at the end of
//! [`super::resolve`]'s reading of a row, nests each run of side-by-side factors as one
//! [`TermKind::Product`], so that the annotation rules (through
//! [`super::TermIndex::in_one_run`]), the reading aloud and the evaluator all see the same
//! operands. Also whether a row's `\otimes` is element-wise ([`otimes_gates`]), and what a
//! row of compositions joins ([`maps_in_a_composition`]).

use super::tree::{Factor, Term, TermKind};
use crate::syntax::ast::{InfixOp, Node};

/// Nests the runs of side-by-side factors of a row that also has explicit product signs; a
/// row written all side by side, or with signs between single factors only, stays as it is.
pub(super) fn group_runs<'n>(factors: Vec<Factor<'n>>, node: &'n Node) -> Vec<Factor<'n>> {
    let explicit = |f: &Factor| matches!(f.op, Some(InfixOp::Multiplicative(_)));
    let any_explicit = factors.iter().skip(1).any(explicit);
    let any_side_by_side = factors.iter().skip(1).any(|f| f.op == Some(&InfixOp::Juxt));
    if !any_explicit || !any_side_by_side {
        return factors;
    }
    let factors = coefficients(factors, node);
    let mut grouped: Vec<Factor<'n>> = Vec::new();
    let mut run: Vec<Factor<'n>> = Vec::new();
    for factor in factors {
        if explicit(&factor) && !run.is_empty() {
            grouped.push(nest(std::mem::take(&mut run), node));
        }
        run.push(factor);
    }
    if !run.is_empty() {
        grouped.push(nest(run, node));
    }
    grouped
}

/// One factor standing for a run: the run's first operator before it, the run a product.
fn nest<'n>(mut run: Vec<Factor<'n>>, node: &'n Node) -> Factor<'n> {
    if run.len() == 1 {
        if let Some(only) = run.pop() {
            return only;
        }
    }
    let (op, op_span) = run.first().map_or((None, Default::default()), |f| (f.op, f.op_span));
    if let Some(first) = run.first_mut() {
        first.op = None;
        first.op_span = Default::default();
        first.balanced = false;
    }
    let span = match (run.first(), run.last()) {
        (Some(a), Some(b)) => a.term.span.join(b.term.span),
        _ => node.span,
    };
    Factor { op, op_span, term: Term::new(TermKind::Product(run), span, node), balanced: false }
}

/// `1/2 \|w\|^2`, `1/n \sum_i x_i`, `\lambda/2 \|\theta\|^2`: a number over one factor, or a Greek
/// letter over a number, with more written side by side after it, is one factor (the
/// fraction), so the slash does not reach past its denominator.
fn coefficients<'n>(factors: Vec<Factor<'n>>, node: &'n Node) -> Vec<Factor<'n>> {
    let mut out: Vec<Factor<'n>> = Vec::with_capacity(factors.len());
    let mut iter = factors.into_iter().peekable();
    while let Some(factor) = iter.next() {
        // `1/n \sum_i x_i`, `1/\sqrt{d} QK^\top`: a number over anything single; `\lambda/2`: a
        // Greek letter over a number.
        let number_before = out.last().is_some_and(|p| matches!(p.term.kind, TermKind::Number));
        let over_number =
            is_slash(&factor) && (number_before || matches!(factor.term.kind, TermKind::Number));
        let lone_before = out.last().is_some_and(|previous| is_lone(previous)) && starts_run(&out);
        let more_after = iter.peek().is_some_and(|next| next.op == Some(&InfixOp::Juxt));
        match (over_number && lone_before && more_after, out.pop()) {
            (true, Some(previous)) => out.push(nest(vec![previous, factor], node)),
            (_, previous) => {
                out.extend(previous);
                out.push(factor);
            }
        }
    }
    out
}

/// Whether the last factor of `so_far` stands alone: first of the row or after an explicit sign.
fn starts_run(so_far: &[Factor]) -> bool {
    so_far.last().is_some_and(|f| f.op.is_none() || matches!(f.op, Some(InfixOp::Multiplicative(_))))
}

/// Whether a factor is a number or a small Greek letter as papers name a weight (`1`,
/// `\lambda`): `x / 2\sigma^2` divides x by 2σ², `\lambda / 2 \|w\|^2` halves λ.
fn is_lone(factor: &Factor) -> bool {
    let greek = |o: &super::Occurrence| {
        crate::syntax::names::is_greek(&o.base_name) && o.base_name.starts_with(|c: char| c.is_lowercase())
    };
    match &factor.term.kind {
        TermKind::Number => true,
        TermKind::Symbol(occurrence) => greek(occurrence),
        _ => false,
    }
}

/// Whether the factor comes after `/`.
fn is_slash(factor: &Factor) -> bool {
    matches!(factor.op, Some(InfixOp::Multiplicative(op)) if op == "/")
}

/// Which factors of a row a `\otimes` before them joins element-wise: where the factors a run of
/// `\otimes` joins include a gating function applied (`\mathrm{Swish}(xW) \otimes xV`, as GLU
/// and SwiGLU write it; `gate_functions`), the run is no Kronecker product. One flag a factor.
pub fn otimes_gates(factors: &[Factor]) -> Vec<bool> {
    let otimes = |f: &Factor| matches!(f.op, Some(InfixOp::Multiplicative(op)) if op == "\\otimes");
    let mut gated = vec![false; factors.len()];
    let mut start = 0;
    while start < factors.len() {
        let mut end = start + 1;
        while factors.get(end).is_some_and(otimes) {
            end += 1;
        }
        let run = factors.get(start..end).unwrap_or(&[]);
        if run.len() > 1 && run.iter().any(|f| is_gate(&f.term)) {
            gated.iter_mut().take(end).skip(start + 1).for_each(|g| *g = true);
        }
        start = end;
    }
    gated
}

/// A gating function applied, possibly in parentheses.
fn is_gate(term: &Term) -> bool {
    let gates = &super::notation::Notation::shipped().gate_functions;
    let named = |name: &str| gates.iter().any(|g| g.eq_ignore_ascii_case(name));
    match &term.kind {
        TermKind::Apply(app) => app.callee.occurrence().is_some_and(|o| named(&o.base_name)),
        TermKind::Operator(op) => named(op.name),
        TermKind::Fenced { open: crate::syntax::ast::Delim::Paren, body } => is_gate(body),
        _ => false,
    }
}

/// `f = A \circ \boldsymbol{\sigma}_J \circ B_J \circ \cdots \circ B_1`, `f_K \circ \cdots \circ f_1`:
/// a row joined by `\circ` alone, three long or more or with dots, composes maps, so the
/// letters it joins are functions (layers), whatever their font made them; two letters alone
/// (`A \circ B`) may still be a Hadamard product, unless one of them is a map (`f \circ g`).
pub(super) fn maps_in_a_composition(factors: &mut [Factor]) {
    let composed = |f: &Factor| matches!(f.op, Some(InfixOp::Multiplicative(op)) if op == "\\circ");
    if factors.len() < 2 || !factors.iter().skip(1).all(composed) {
        return;
    }
    let dots = factors.iter().any(|f| matches!(f.term.node.kind, crate::syntax::ast::NodeKind::Dots { .. }));
    // `h = f \circ g`: one side a map makes the other one (a Hadamard product takes arrays).
    let a_map = factors
        .iter()
        .any(|f| matches!(&f.term.kind, TermKind::Symbol(o) if o.kind == super::SymbolKind::Function));
    if factors.len() < 3 && !dots && !a_map {
        return;
    }
    for factor in factors.iter_mut() {
        if let TermKind::Symbol(occurrence) = &mut factor.term.kind {
            if occurrence.evidence >= super::Evidence::Convention {
                occurrence.kind = super::SymbolKind::Function;
                occurrence.evidence = super::Evidence::Use;
            }
        }
    }
}
