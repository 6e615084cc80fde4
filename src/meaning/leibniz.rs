//! Leibniz's notation: in `\frac{\partial \mathbf{x}^\top \mathbf{a}}{\partial \mathbf{x}}` the
//! `\partial` of the numerator differentiates the whole numerator, not only the factor after
//! it, as it would in a row (`\partial_w L \cdot g`).

use super::resolve::Resolver;
use super::roles::Place;
use super::tree::Term;
use crate::syntax::ast::{InfixOp, Node};

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
        if !self.starts_with_differential(den) {
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

    /// Whether `node` is, or starts with, `\partial` or `\mathrm{d}`.
    fn starts_with_differential(&self, node: &Node) -> bool {
        let first = super::chains::row_items(node).and_then(|items| items.first().map(|item| item.2));
        self.differential_name(first.unwrap_or(node)).is_some()
    }

    /// `partial` or `d` when `node` is that sign (with or without a power, `\partial^2`).
    fn differential_name<'n>(&self, node: &'n Node) -> Option<&'n str> {
        self.operator_name(node).filter(|name| matches!(*name, "partial" | "d"))
    }
}
