//! Leibniz's notation: in `\frac{\partial \mathbf{x}^\top \mathbf{a}}{\partial \mathbf{x}}` the
//! `\partial` of the numerator differentiates the whole numerator, not only the factor after
//! it, as it would in a row (`\partial_w L \cdot g`); and a fraction of signs alone before a
//! factor (`\frac{d}{dx} f(x)`) is the derivative of that factor, not a product with it.

use super::resolve::Resolver;
use super::roles::Place;
use super::tree::{OperatorApplication, Term, TermKind};
use crate::syntax::ast::{InfixOp, Node, NodeKind};

impl Resolver<'_> {
    /// The numerator of a derivative written as a fraction (`\partial` or `\mathrm{d}` before
    /// several factors, over a denominator that starts with one), as one derivative of all the
    /// factors; `None` for any other numerator.
    pub(super) fn leibniz_numerator<'n>(
        &self,
        num: &'n Node,
        den: &'n Node,
        place: Place,
        d: usize,
    ) -> Option<Term<'n>> {
        // Both checks look at first operands only: every fraction passes here, and most are no
        // derivative.
        if self.differential_name(first_operand(den)).is_none()
            || self.differential_name(first_operand(num)).is_none()
        {
            return None;
        }
        let items = super::chains::row_items(num)?;
        let ((_, _, op), rest) = items.split_first()?;
        // One factor after the sign is what the row already reads.
        if rest.len() < 2 || !rest.iter().all(|(link, _, _)| matches!(link, Some(InfixOp::Juxt))) {
            return None;
        }
        let name = self.differential_name(op)?;
        let operand = self.rest_of_row(num, rest, place, d + 1);
        Some(self.operator_over(num, name, op, operand, rest.len(), d).0)
    }

    /// `\frac{d}{dx} f(x)`, `\frac{\partial}{\partial \theta} J(\theta)`: the fraction of signs at
    /// `items[i]` applied to the rest of the product after it: an operator named `derivative`
    /// (or `partial_derivative`) whose subscript is what it differentiates by; with the items it
    /// took. `None` where `items[i]` is no such fraction.
    pub(super) fn derivative_before<'n>(
        &self,
        node: &'n Node,
        items: &[super::resolve::Item<'n>],
        i: usize,
        place: Place,
        d: usize,
    ) -> Option<(Term<'n>, usize)> {
        let &(_, _, item) = items.get(i)?;
        let NodeKind::Frac { num, den } = &item.kind else { return None };
        let outer = self.italic_differential.get();
        self.italic_differential.set(outer || italic_leibniz(num, den));
        let sign = self.differential_name(num).filter(|_| !matches!(num.kind, NodeKind::Chain { .. }));
        let by = self.differential_name(first_operand(den));
        let wrt = match (&den.kind, sign, by) {
            (NodeKind::Chain { rest, .. }, Some(_), Some(_)) if !rest.is_empty() => {
                let variable = super::chains::row_items(den)?;
                Some(self.rest_of_row(den, variable.get(1..).unwrap_or(&[]), Place::Plain, d + 1))
            }
            _ => None,
        };
        self.italic_differential.set(outer);
        let wrt = wrt?;
        let partial = sign == Some("partial") || by == Some("partial");
        // `\frac{d}{d\theta} \theta^9 (1 - \theta)^4`: the derivative of the whole product after it.
        let rest = items.get(i + 1..).unwrap_or(&[]);
        let (operand, used) = (self.rest_of_row(node, rest, place, d + 1), rest.len());
        let span = item.span.join(operand.span);
        let application = OperatorApplication {
            name: if partial { "partial_derivative" } else { "derivative" },
            function: None,
            op: item,
            sub: Some(wrt),
            sup: None,
            base: None,
            operand,
        };
        Some((Term::new(TermKind::Operator(Box::new(application)), span, node), 1 + used))
    }

    /// `partial` or `d` when `node` is that sign (with or without a power, `\partial^2`).
    fn differential_name<'n>(&self, node: &'n Node) -> Option<&'n str> {
        self.operator_name(node).filter(|name| matches!(*name, "partial" | "d"))
    }
}

/// The first operand of a row (`\partial` of `\partial \mathbf{x}`), or `node` itself.
fn first_operand(node: &Node) -> &Node {
    match &node.kind {
        NodeKind::Chain { first, rest }
            if rest.first().is_some_and(|l| matches!(l.op, InfixOp::Juxt | InfixOp::Multiplicative(_))) =>
        {
            first
        }
        _ => node,
    }
}

/// `\frac{dy}{dx}`, `\frac{d}{dt}`, `\frac{d^2 y}{dx^2}`: a fraction whose denominator is an
/// italic `d` and one letter (possibly squared) and whose numerator starts with an italic `d`.
pub(super) fn italic_leibniz(num: &Node, den: &Node) -> bool {
    let italic_d = |n: &Node| match &n.kind {
        NodeKind::Symbol { name, font: crate::syntax::ast::Font::Normal } => name == "d",
        NodeKind::Scripts { base, sub: None, .. } => {
            matches!(&base.kind, NodeKind::Symbol { name, font: crate::syntax::ast::Font::Normal } if name == "d")
        }
        _ => false,
    };
    let letter = |n: &Node| match &n.kind {
        NodeKind::Symbol { name, .. } => name != "d",
        NodeKind::Scripts { base, .. } => matches!(&base.kind, NodeKind::Symbol { name, .. } if name != "d"),
        _ => false,
    };
    let den_ok = match &den.kind {
        NodeKind::Chain { first, rest } => {
            italic_d(first) && matches!(rest.as_slice(), [l] if l.op == InfixOp::Juxt && letter(&l.operand))
        }
        _ => false,
    };
    den_ok && italic_d(first_operand(num))
}
