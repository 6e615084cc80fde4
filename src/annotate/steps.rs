//! One letter at two steps, for the rules' `earlier` condition: whether what one metavariable
//! matched holds the letter another matched, one step before (`m_{t-1}` of `m_t`,
//! `\theta_t` of `\theta_{t+1}`, `x^{(k-1)}` of `x^{(k)}`, `h^{\langle t-1 \rangle}` of
//! `h^{\langle t \rangle}`, `\mathbf{s}(t-1)` of `\mathbf{s}(t)`), whatever the step's letter
//! and wherever it stands: an update of a value from its value at the step before, a
//! recurrence, written as papers write them.
//!
//! Two nodes are one step apart when they are equal except at one place, where the later one
//! has `e` and the earlier `e - 1`, or the later `e + 1` and the earlier `e`. That place must
//! be inside a script or an argument: `t` itself is not a step of `t - 1`, but `(t)` is a step
//! of `(t - 1)` (the argument of `w(t)`, written apart from its name). A value marked new in a
//! script (`m^{\mathrm{new}}`, `\ell_i^{\text{new}}`) is also the step after the same value
//! unmarked or marked old (`m`, `m_i`, `m^{\mathrm{old}}`), as online softmax writes its
//! running maximum.

use crate::syntax::ast::{InfixOp, Link, Node, NodeKind};

/// How deep a search for the earlier step goes into what a metavariable matched.
const MAX_DEPTH: usize = 64;

/// Whether `within`, or a part of it, is `later`'s letter one step before. A later value
/// applied to an argument (`v_{k+1}(s)`) also finds its letter's earlier step at any argument
/// (`v_k(s')` in value iteration).
pub(super) fn holds_earlier(within: &Node, later: &Node) -> bool {
    search(within, 0, &|part| step_of(later, part))
        || stepped_callee(later).is_some_and(|callee| search(within, 0, &|part| step_of(callee, part)))
}

/// Whether `part` is `later` one step before, or holds its call one step before.
fn step_of(later: &Node, part: &Node) -> bool {
    one_step_before(later, part) || earlier_call_in_chain(part, later)
}

/// The name of a call written as a stepped name and its parenthesis (`v_{k+1}` of
/// `v_{k+1}(s)`); none for a plain name, whose step would be in the argument.
fn stepped_callee(node: &Node) -> Option<&Node> {
    let NodeKind::Chain { first, rest } = &node.kind else { return None };
    let [Link { op: InfixOp::Juxt, operand, .. }] = rest.as_slice() else { return None };
    let is_parenthesis = matches!(operand.kind, NodeKind::Fenced { .. });
    (is_parenthesis && matches!(first.kind, NodeKind::Scripts { .. })).then_some(first.as_ref())
}

/// Whether `within`, or a part of it, `holds` (searched depth first, not into accents).
fn search(within: &Node, depth: usize, holds: &dyn Fn(&Node) -> bool) -> bool {
    if depth > MAX_DEPTH {
        return false;
    }
    if holds(within) {
        return true;
    }
    // An accent makes another quantity (`\tilde{m}` is not `m`): its body is not searched.
    if matches!(within.kind, NodeKind::Accent { .. }) {
        return false;
    }
    // The children in turn, without a list of them (most of what is searched holds no step).
    let mut found = false;
    within.for_each_child(|child| found = found || search(child, depth + 1, holds));
    found
}

/// Whether a call, written as a name and the parenthesis it is applied to (`\mu(t)`, or `\mu`
/// and `(t)` as a metavariable takes them), has its earlier step in what another metavariable
/// took: the same name and the parenthesis a step before (`\mu` and `(t - 1)`), or a chain
/// holding them (`\beta \mu(t - 1)`). Each side is a node and the parenthesis it took, if any.
pub(super) fn holds_earlier_call(holder: (&Node, Option<&Node>), later: (&Node, Option<&Node>)) -> bool {
    let (callee, argument) = match later {
        (name, Some(argument)) => (name, argument),
        (call, None) => {
            let NodeKind::Chain { first, rest } = &call.kind else { return false };
            let [Link { op: InfixOp::Juxt, operand, .. }] = rest.as_slice() else { return false };
            (first.as_ref(), operand)
        }
    };
    let applied_before =
        holder.1.is_some_and(|earlier| holder.0 == callee && differs_by_a_step(argument, earlier, 1));
    applied_before || search(holder.0, 0, &|part| called_a_step_before(part, callee, argument))
}

/// Whether `earlier` is `later` one step before: the same letter, scripts or call, advanced by
/// one at exactly one place below the top.
pub(super) fn one_step_before(later: &Node, earlier: &Node) -> bool {
    match (&later.kind, &earlier.kind) {
        (NodeKind::Scripts { .. }, NodeKind::Scripts { .. })
        | (NodeKind::Chain { .. }, NodeKind::Chain { .. })
        | (NodeKind::Fenced { .. }, NodeKind::Fenced { .. }) => {
            differs_by_a_step(later, earlier, 0) || renewed(later, earlier)
        }
        (NodeKind::Scripts { .. }, _) => renewed(later, earlier),
        _ => false,
    }
}

/// Whether `later` is `earlier` with a superscript that marks it new (`m^{\mathrm{new}}` of
/// `m`, `m_i^{\mathrm{new}}` of `m_i` or of `m_i^{\mathrm{old}}`): the same letter and
/// subscript, the earlier one's superscript absent or marking it old.
fn renewed(later: &Node, earlier: &Node) -> bool {
    let NodeKind::Scripts { base, sub, sup: Some(mark), primes } = &later.kind else { return false };
    if !is_word(mark, &["new"]) {
        return false;
    }
    match &earlier.kind {
        NodeKind::Scripts { base: b, sub: s, sup, primes: q } => {
            b == base
                && s == sub
                && q == primes
                && sup.as_deref().is_none_or(|old| is_word(old, &["old", "prev"]))
        }
        _ => sub.is_none() && *primes == 0 && earlier == base.as_ref(),
    }
}

/// Whether `node` is a word (in any style) among `words`.
fn is_word(node: &Node, words: &[&str]) -> bool {
    matches!(&node.kind, NodeKind::Word { text, .. } if words.contains(&text.as_str()))
}

/// A call written as a name and a parenthesis (`\mathbf{s}(t)`) is two operands of a chain: a
/// chain of products (`\mathbf{W} \mathbf{s}(t-1)`) holds the earlier call as two neighbours.
fn earlier_call_in_chain(within: &Node, later: &Node) -> bool {
    let NodeKind::Chain { rest: call, first: callee } = &later.kind else { return false };
    let [Link { op: InfixOp::Juxt, operand: argument, .. }] = call.as_slice() else { return false };
    called_a_step_before(within, callee, argument)
}

/// Whether the chain `within` holds `callee` applied to `argument` one step before, as two
/// neighbouring operands.
fn called_a_step_before(within: &Node, callee: &Node, argument: &Node) -> bool {
    let NodeKind::Chain { first, rest } = &within.kind else { return false };
    // Each operand with the one before it, without a list of them.
    let names = std::iter::once(first.as_ref()).chain(rest.iter().map(|l| &l.operand));
    names.zip(rest).any(|(name, next)| {
        matches!(next.op, InfixOp::Juxt) && name == callee && differs_by_a_step(argument, &next.operand, 1)
    })
}

/// Whether the two nodes are equal but for one place where `later` is `earlier` plus one;
/// `depth` 0 is the top, where a bare advance does not count.
fn differs_by_a_step(later: &Node, earlier: &Node, depth: usize) -> bool {
    if depth > MAX_DEPTH {
        return false;
    }
    if depth > 0 && advanced(later, earlier) {
        return true;
    }
    use NodeKind::*;
    let deeper = |a: &Node, b: &Node| differs_by_a_step(a, b, depth + 1);
    match (&later.kind, &earlier.kind) {
        (
            Scripts { base: ba, sub: sa, sup: pa, primes: qa },
            Scripts { base: bb, sub: sb, sup: pb, primes: qb },
        ) => {
            let parts = [
                (Some(ba.as_ref()), Some(bb.as_ref())),
                (sa.as_deref(), sb.as_deref()),
                (pa.as_deref(), pb.as_deref()),
            ];
            qa == qb && one_part_differs(&parts, depth)
        }
        (Chain { first: fa, rest: ra }, Chain { first: fb, rest: rb }) => {
            if ra.len() != rb.len() || ra.iter().zip(rb).any(|(a, b)| a.op != b.op) {
                return false;
            }
            let parts: Vec<(Option<&Node>, Option<&Node>)> =
                std::iter::once((Some(fa.as_ref()), Some(fb.as_ref())))
                    .chain(ra.iter().zip(rb).map(|(a, b)| (Some(&a.operand), Some(&b.operand))))
                    .collect();
            one_part_differs(&parts, depth)
        }
        (Fenced { open: oa, close: ca, body: a, .. }, Fenced { open: ob, close: cb, body: b, .. }) => {
            oa == ob && ca == cb && deeper(a, b)
        }
        (Styled { font: fa, body: a }, Styled { font: fb, body: b }) => fa == fb && deeper(a, b),
        _ => false,
    }
}

/// Whether exactly one pair of parts differs, by a step, and the others are equal.
fn one_part_differs(parts: &[(Option<&Node>, Option<&Node>)], depth: usize) -> bool {
    let mut stepped = 0;
    for (a, b) in parts {
        match (a, b) {
            (None, None) => {}
            (Some(a), Some(b)) if a == b => {}
            (Some(a), Some(b)) if differs_by_a_step(a, b, depth + 1) => stepped += 1,
            _ => return false,
        }
    }
    stepped == 1
}

/// Whether `later` is `earlier + 1`, or `earlier` is `later - 1` (`t + 1` and `t`, `k` and
/// `k - 1`).
fn advanced(later: &Node, earlier: &Node) -> bool {
    less_one(earlier, "-", later) || less_one(later, "+", earlier)
}

/// Whether `chain` is `rest` followed by `sign 1`.
fn less_one(chain: &Node, sign: &str, rest: &Node) -> bool {
    let NodeKind::Chain { first, rest: links } = &chain.kind else { return false };
    let Some((last, before)) = links.split_last() else { return false };
    let one = matches!(&last.operand.kind, NodeKind::Number { text, .. } if text.as_str() == "1");
    let signed = matches!(&last.op, InfixOp::Additive(op) if op.as_str() == sign);
    if !(one && signed) {
        return false;
    }
    match (&rest.kind, before) {
        (_, []) => first.as_ref() == rest,
        (NodeKind::Chain { first: other_first, rest: other_links }, _) => {
            first == other_first && before == other_links.as_slice()
        }
        _ => false,
    }
}

#[cfg(test)]
#[allow(clippy::expect_used)]
mod tests {
    use super::*;

    fn node(latex: &str) -> Node {
        crate::syntax::parse(latex).expect("parses").root
    }

    fn earlier(later: &str, within: &str) -> bool {
        holds_earlier(&node(within), &node(later))
    }

    #[test]
    fn steps_written_as_papers_write_them() {
        assert!(earlier("m_t", "m_{t-1}"));
        assert!(earlier("\\theta_{t+1}", "\\theta_t"));
        assert!(earlier("x^{(k)}", "x^{(k-1)}"));
        assert!(earlier("x^{k+1}", "x^k"));
        assert!(earlier("h_j^{\\langle t \\rangle}", "z_j h_j^{\\langle t-1 \\rangle}"));
        assert!(earlier("\\mathbf{s}(t)", "\\mathbf{U}\\mathbf{w}(t) + \\mathbf{W}\\mathbf{s}(t-1)"));
        assert!(earlier("\\theta_{t+1, i}", "\\theta_{t, i} - \\eta g_{t, i}"));
        assert!(earlier("\\mathrm{MeanSquare}(w, t)", "0.9 \\mathrm{MeanSquare}(w, t-1)"));
        assert!(earlier("h_t", "f(h_{t-1}, x_t)"));
        assert!(earlier("\\boldsymbol{h}^{(t)}", "\\boldsymbol{W} \\boldsymbol{h}^{(t-1)}"));
        assert!(earlier("x^k", "x^{k-1} - \\eta g"));
        assert!(earlier("h^{\\langle t \\rangle}", "W h^{\\langle t-1 \\rangle}"));
        assert!(earlier("(t)", "\\alpha \\Delta w(t-1)"));
    }

    #[test]
    fn a_call_finds_its_earlier_step_as_a_pattern_takes_it() {
        let (later, holder) = (node("\\mu(t)"), node("\\beta \\mu(t-1)"));
        assert!(holds_earlier_call((&holder, None), (&later, None)));
        let (name, argument, earlier) = (node("\\mu"), node("(t)"), node("(t-1)"));
        assert!(holds_earlier_call((&name, Some(&earlier)), (&name, Some(&argument))));
        assert!(!holds_earlier_call((&name, Some(&argument)), (&name, Some(&argument))));
        assert!(!holds_earlier_call((&node("g"), Some(&earlier)), (&name, Some(&argument))));
    }

    #[test]
    fn a_value_marked_new_follows_the_same_value_unmarked_or_old() {
        assert!(earlier("m^{\\mathrm{new}}", "e^{m - m^{\\mathrm{new}}}"));
        assert!(earlier("m_i^{\\mathrm{new}}", "m_i"));
        assert!(earlier("m_i^{\\text{new}}", "m_i^{\\text{old}}"));
        assert!(!earlier("m_i^{\\mathrm{new}}", "m_j"));
        assert!(!earlier("m^{\\mathrm{new}}", "\\tilde{m}"));
        assert!(!earlier("m^{\\mathrm{old}}", "m"));
    }

    #[test]
    fn a_stepped_value_finds_its_earlier_step_at_any_argument() {
        // Value iteration: v_{k+1}(s) from v_k at the next states s'.
        assert!(earlier("v_{k+1}(s)", "\\max_a \\sum_{s'} p(s' \\mid s, a)[r + \\gamma v_k(s')]"));
        assert!(earlier("U_{i+1}(s)", "R(s) + \\gamma \\max_a \\sum_{s'} P(s' \\mid s, a) U_i(s')"));
        assert!(!earlier("v_k(s)", "\\gamma v_k(s')"));
        assert!(!earlier("f(s)", "\\gamma f(s')"));
    }

    #[test]
    fn other_letters_and_other_places_are_not_steps() {
        assert!(!earlier("m_t", "v_{t-1}"));
        assert!(!earlier("m_t", "m_t"));
        assert!(!earlier("m_t", "m_{t-2}"));
        assert!(!earlier("t", "t - 1"));
        assert!(!earlier("x_{i,j}", "x_{i-1,j-1}"));
        assert!(!earlier("m_t", "m_{t+1}"));
        assert!(!earlier("\\hat{m}_t", "m_{t-1}"));
    }
}
