//! A bar with a point below it, or two limits below and above (`F(x) \Big|_{a}^{b}`,
//! `\nabla f(x)\big|_{\theta = \theta_0}`): what stands before the bar evaluated at that point,
//! or the difference of its values at the two limits, not a conditioning bar before an empty
//! name with scripts.

use super::tree::{Factor, Joint, OperatorApplication, Term, TermKind};
use crate::syntax::ast::{InfixOp, Node, NodeKind, Span};

/// The operator name of an evaluation, [`OperatorApplication::name`]: its subscript is the
/// point (or the lower limit), its superscript the upper limit.
pub const EVALUATED: &str = "evaluated";

/// Rewrites each bar followed by bare scripts in a chain's joints: the operand before the bar
/// (the last added one) becomes its evaluation, and what came after the scripts (`+ R_m`, a
/// factor `\omega`) joins the chain again.
pub(super) fn evaluated_at_bars<'n>(first: &mut Term<'n>, joints: &mut Vec<Joint<'n>>) {
    while let Some(at) = joints.iter().position(|j| is_bar(j.op) && leading_scripts(&j.term).is_some()) {
        let joint = joints.remove(at);
        let (scripts, rest) = split_scripts(joint.term);
        let before = match at.checked_sub(1).and_then(|i| joints.get_mut(i)) {
            Some(previous) => &mut previous.term,
            None => &mut *first,
        };
        evaluate_last_operand(before, scripts, rest);
    }
}

/// What follows the scripts after a bar: factors of a product they began (`\omega` of
/// `_{\theta_0} \omega`), then further operands of the chain (`+ R_m`).
struct Rest<'n> {
    factors: Vec<Factor<'n>>,
    joints: Vec<Joint<'n>>,
}

/// Whether an operator is a bar written as a relation (`\Big|`, `\big|`, `|`).
fn is_bar(op: &InfixOp) -> bool {
    matches!(op, InfixOp::Relation(r) if matches!(r.as_str(), "|" | "\\vert"))
}

/// Scripts on nothing (`_{a}^{b}`), alone or first in a chain or a product.
fn leading_scripts<'a, 'n>(term: &'a Term<'n>) -> Option<&'a Term<'n>> {
    match &term.kind {
        TermKind::Scripted { .. } if is_bare(term) => Some(term),
        TermKind::Chain { first, .. } => leading_scripts(first),
        TermKind::Product(factors) => factors.first().and_then(|f| leading_scripts(&f.term)),
        _ => None,
    }
}

/// Whether a term is scripts written on nothing.
fn is_bare(term: &Term) -> bool {
    matches!(&term.node.kind, NodeKind::Scripts { base, .. } if matches!(base.kind, NodeKind::Empty))
}

/// The bare scripts first in a term ([`leading_scripts`]), and what follows them.
fn split_scripts(term: Term<'_>) -> (Term<'_>, Rest<'_>) {
    match term.kind {
        TermKind::Chain { first, rest } => {
            let (scripts, inner) = split_scripts(*first);
            let mut joints = inner.joints;
            joints.extend(rest);
            (scripts, Rest { factors: inner.factors, joints })
        }
        TermKind::Product(mut factors) if !factors.is_empty() => {
            let head = factors.remove(0);
            let (scripts, inner) = split_scripts(head.term);
            factors.splice(0..0, inner.factors);
            (scripts, Rest { factors, joints: inner.joints })
        }
        kind => (Term { kind, ..term }, Rest { factors: Vec::new(), joints: Vec::new() }),
    }
}

/// The span from the first to the last of some spans.
fn span_of(spans: impl Iterator<Item = Span>) -> Span {
    spans.reduce(|a, b| Span::new(a.start.min(b.start), a.end.max(b.end))).unwrap_or(Span::new(0, 0))
}

/// Applies `change` to the last added operand of `term` (all of it when it is no sum).
fn with_last_operand<'n>(term: &mut Term<'n>, change: impl FnOnce(&mut Term<'n>)) {
    let sum = matches!(&term.kind, TermKind::Chain { rest, .. }
        if !rest.is_empty() && rest.iter().all(|j| matches!(j.op, InfixOp::Additive(_))));
    if let (true, TermKind::Chain { rest, .. }) = (sum, &mut term.kind) {
        if let Some(last) = rest.last_mut() {
            change(&mut last.term);
            return;
        }
    }
    change(term);
}

/// Makes the last added operand of `before` the evaluation at `scripts`, times the factors
/// after them, and adds the operands after those to `before`.
fn evaluate_last_operand<'n>(before: &mut Term<'n>, scripts: Term<'n>, rest: Rest<'n>) {
    let Rest { factors, joints } = rest;
    with_last_operand(before, |target| {
        replace_with_evaluation(target, scripts);
        if !factors.is_empty() {
            multiply(target, factors);
        }
    });
    append_joints(before, joints);
}

/// `operand` evaluated at the point `sub` (or between the limits `sub` and `sup`), written as
/// `node` (`\left. f \right|_{x_0}`).
pub(super) fn evaluated<'n>(
    operand: Term<'n>,
    node: &'n Node,
    sub: Option<Term<'n>>,
    sup: Option<Term<'n>>,
) -> Term<'n> {
    let application =
        OperatorApplication { name: EVALUATED, function: None, op: node, sub, sup, base: None, operand };
    Term::of(TermKind::Operator(Box::new(application)), node)
}

/// Replaces `term` by its evaluation at the point or limits that `scripts` hold.
fn replace_with_evaluation<'n>(term: &mut Term<'n>, scripts: Term<'n>) {
    let TermKind::Scripted { sub, sup, .. } = scripts.kind else { return };
    let span = Span::new(term.span.start, scripts.span.end);
    let operand = std::mem::replace(term, Term::of(TermKind::Leaf, scripts.node));
    *term = evaluated(operand, scripts.node, sub.map(|s| *s.term), sup.map(|s| *s.term));
    term.span = span;
}

/// Multiplies `target` by `factors`.
fn multiply<'n>(target: &mut Term<'n>, factors: Vec<Factor<'n>>) {
    let span = span_of(std::iter::once(target.span).chain(factors.iter().map(|f| f.term.span)));
    let node = target.node;
    let head = std::mem::replace(target, Term::of(TermKind::Leaf, node));
    let start = Span::new(head.span.start, head.span.start);
    let mut all = vec![Factor { op: None, op_span: start, term: head, balanced: false }];
    all.extend(factors);
    *target = Term::new(TermKind::Product(all), span, node);
}

/// Appends further operands to `before`, a chain of its own if it was none.
fn append_joints<'n>(before: &mut Term<'n>, joints: Vec<Joint<'n>>) {
    if joints.is_empty() {
        return;
    }
    let span = span_of(std::iter::once(before.span).chain(joints.iter().map(|j| j.term.span)));
    match &mut before.kind {
        TermKind::Chain { rest, .. } => {
            rest.extend(joints);
            before.span = span;
        }
        _ => {
            let node = before.node;
            let first = std::mem::replace(before, Term::of(TermKind::Leaf, node));
            *before = Term::new(TermKind::Chain { first: first.boxed(), rest: joints }, span, node);
        }
    }
}
