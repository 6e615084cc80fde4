//! The part of a baseline left of a display sum or integral, given after the sign's body:
//! pdftotext reads the tall sign and what follows it on the baseline as one block (`Z x` /
//! `p(x) dx = P (X ≤ x).`), then the part left of the sign and the sign's lower limit, the
//! lowest line, as the next (`F (x) =` / `−∞`); a sum with its upper limit on a line of its
//! own before it the same (`m` / `X` / `α(q, ki )vi ,` / `Attention(q, D) =` / `i=1`). The
//! part that ends with a relation is set before the sign and the last line is its lower limit,
//! with a warning: the text says what was on which line, not where. A label over the relation
//! (`\stackrel{def}{=}`) sets the part apart from the sign's body: `k` / `X` / `Score(q) =` /
//! `j=1` / `aj vj ,`, each a block, read the same.

use super::layout::{Item, Layout, Range};
use crate::syntax::error::PdfWhy;
use std::collections::VecDeque;

/// Relations that end the part of a baseline left of a sign (`F (x) =`, `Attention(q, D) =`).
const RELATIONS_BEFORE: &[&str] = &["=", "≈", "∝", "≤", "≥", "<", ">", "≡", "←"];

impl Layout<'_> {
    /// At `lines[at]`: a line that ends with a relation, followed by a limit that ends the
    /// block (or, the line a block of its own, by a block of one limit), after the only
    /// operator still waiting for its lower limit, with only text after it (its body, or
    /// nothing) and no relation before it. The line is set before the operator, the limit
    /// under it (and a line of its own left before it over it, for a count `i=1`); the lines
    /// of the block taken when so.
    pub(super) fn baseline_after_body(
        &mut self,
        lines: &[Range],
        at: usize,
        rest: &mut VecDeque<Vec<Range>>,
    ) -> Option<usize> {
        let &line = lines.get(at)?;
        let ends_with_relation =
            self.words(line).last().is_some_and(|&w| RELATIONS_BEFORE.contains(&self.get(w)));
        let in_block = lines.get(at + 1).copied().filter(|&l| at + 2 == lines.len() && self.limit_like(l));
        let next_block = match rest.front().map(Vec::as_slice) {
            Some(&[l]) if lines.len() == 1 && self.limit_like(l) => Some(l),
            _ => None,
        };
        let limit = in_block.or(next_block)?;
        if !ends_with_relation {
            return None;
        }
        // One operator waits: of several, which one the part stood before is not known.
        let mut waiting_operators = self
            .pending
            .iter()
            .copied()
            .filter(|&p| matches!(self.items.get(p), Some(Item::Operator { lower: None, .. })));
        let operator = waiting_operators.next()?;
        let waiting = waiting_operators.next().is_none();
        let body = self.items.get(operator + 1..).unwrap_or_default();
        let body_is_text = body.iter().all(|item| matches!(item, Item::Text(_)));
        let before = self.items.get(..operator).unwrap_or_default();
        let first_relation = before.iter().all(|item| match item {
            Item::Text(range) => self.relation_free(*range),
            _ => true,
        });
        if !waiting || !body_is_text || !first_relation {
            return None;
        }
        if in_block.is_none() {
            rest.pop_front();
        }
        let counted = self.get(limit).contains('=');
        let lone_upper = match self.items.get(operator) {
            Some(Item::Operator { upper: None, .. }) if counted => self.take_lone(),
            _ => None,
        };
        if let Some(Item::Operator { lower, upper, .. }) = self.items.get_mut(operator) {
            *lower = Some(limit);
            if upper.is_none() {
                *upper = lone_upper;
            }
        }
        let sign = match self.items.get(operator) {
            Some(Item::Operator { latex, .. }) => latex.clone(),
            _ => String::new(),
        };
        self.pending.retain(|&p| p != operator);
        self.items.insert(operator, Item::Text(line));
        self.pending.iter_mut().filter(|p| **p >= operator).for_each(|p| *p += 1);
        self.lone.iter_mut().filter(|p| **p >= operator).for_each(|p| *p += 1);
        let found = format!("{} / {}", self.get(line), self.get(limit));
        let read = format!("{} {sign}_{{{}}} …", self.get(line), self.get(limit));
        self.note((line.0, limit.1), found, read, PdfWhy::BaselineBefore);
        Some(if in_block.is_some() { 2 } else { 1 })
    }
}

#[cfg(test)]
mod tests {
    use crate::paste::layout::read;

    #[test]
    fn the_baseline_left_of_a_sign_given_after_its_body_goes_before_it() {
        assert_eq!(
            read("Z x\np(x) dx = P (X ≤ x).\n\nF (x) =\n−∞").text,
            "F (x) = \\int_{−∞}^{x} p(x) dx = P (X ≤ x)."
        );
        assert_eq!(
            read("m\n\nX\nα(q, ki )vi ,\nAttention(q, D) =\ni=1").text,
            "Attention(q, D) = \\sum_{i=1}^{m} α(q, ki )vi ,"
        );
        assert_eq!(read("k\n\nX\n\nScore(q) =\n\nj=1\n\naj vj ,").text, "Score(q) = \\sum_{j=1}^{k} aj vj ,");
    }

    #[test]
    fn a_body_that_continues_after_a_relation_is_left_alone() {
        // The relation is the display's second: the line is the body's rest, not what stood
        // left of the sign.
        let text = read("y =\n\nZ\nf (x) dx\n\n= g(t) =\n0").text;
        assert!(text.starts_with("y ="), "{text}");
    }
}
