//! Intervals: a pair of numbers in brackets or parentheses is the numbers between them where a
//! member stands in it (`t \in [0, T]`, `\epsilon \in (0, 1)`, `\int_{t \in [0, 1]}`), where its
//! brackets do not match (`[0, 1)`, `(0, T]`) or where square brackets hold a centre less and
//! plus one half-width (`[\hat\mu - 1.96 s, \hat\mu + 1.96 s]`); elsewhere the same pair is a
//! tuple (`v = (r, 0)`) or two arguments. Decided here once, so that the reading says "the interval from 0 to 1"
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
    let centred = matches!(term.kind, TermKind::Fenced { open: Delim::Bracket, .. }) && is_centred_pair(body);
    if !pair || !(member || mismatched || centred) {
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

/// `[\hat\mu_n - 1.96 \frac{\hat\sigma_n}{\sqrt{n}}, \hat\mu_n + 1.96 \frac{\hat\sigma_n}{\sqrt{n}}]`,
/// `[a - r, a + r]`: square brackets around one centre less and plus one half-width are an
/// interval (a confidence interval), with no member written.
fn is_centred_pair(body: &Term) -> bool {
    let TermKind::Chain { first, rest } = &body.kind else { return false };
    let [joint] = rest.as_slice() else { return false };
    let (TermKind::Chain { first: low, rest: below }, TermKind::Chain { first: high, rest: above }) =
        (&first.kind, &joint.term.kind)
    else {
        return false;
    };
    let ([less], [more]) = (below.as_slice(), above.as_slice()) else { return false };
    let sign = |j: &super::tree::Joint, s: &str| matches!(j.op, InfixOp::Additive(op) if op == s);
    sign(less, "-") && sign(more, "+") && low.node == high.node && less.term.node == more.term.node
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
