//! Intervals: a pair of numbers in brackets or parentheses is the numbers between them where a
//! member stands in it (`t \in [0, T]`, `\epsilon \in (0, 1)`, `\int_{t \in [0, 1]}`) or where its
//! brackets do not match (`[0, 1)`, `(0, T]`); elsewhere the same pair is a tuple (`v = (r, 0)`)
//! or two arguments. Decided here once, so that the reading says "the interval from 0 to 1"
//! and the ends are read as numbers.

use super::tree::{Evidence, Term, TermKind};
use super::SymbolKind;
use crate::syntax::ast::{Delim, InfixOp, NodeKind};

/// Makes `term` an interval if it is a pair of ends in brackets or parentheses: always where its
/// brackets do not match, and where `member` (a member stands in it) when they do.
pub(super) fn make_interval(term: &mut Term, member: bool) {
    let TermKind::Fenced { open: Delim::Paren | Delim::Bracket, body } = &term.kind else { return };
    let close = match &term.node.kind {
        NodeKind::Fenced { open, close, .. } => close.filter(|close| close != open),
        _ => None,
    };
    let mismatched = close.is_some_and(|c| matches!(c, Delim::Paren | Delim::Bracket));
    let pair = matches!(&body.kind, TermKind::Chain { rest, .. }
        if rest.len() == 1 && rest.iter().all(|j| matches!(j.op, InfixOp::Separator(s) if s == ",")));
    if !pair || !(member || mismatched) {
        return;
    }
    let kind = std::mem::replace(&mut term.kind, TermKind::Leaf);
    let TermKind::Fenced { body, .. } = kind else { return };
    let TermKind::Chain { first, mut rest } = body.kind else { return };
    let Some(high) = rest.pop() else { return };
    let mut low = first;
    let mut high = Box::new(high.term);
    ends_are_numbers(&mut low);
    ends_are_numbers(&mut high);
    term.kind = TermKind::Interval { low, high };
}

/// `[0, T]`: an end of an interval is a number (or a size), whatever a use as a set or a
/// convention made its letter.
fn ends_are_numbers(end: &mut Term) {
    let TermKind::Symbol(occurrence) = &mut end.kind else { return };
    let number = matches!(occurrence.kind, SymbolKind::Scalar | SymbolKind::Dimension);
    if !number && occurrence.evidence >= Evidence::Use {
        occurrence.kind = SymbolKind::Scalar;
        occurrence.evidence = Evidence::Use;
    }
}
