//! The conditions a rule puts on what its metavariables matched, checked once a pattern has
//! matched: kinds (`where`, `unless`, read from the meaning layer, of all a metavariable
//! reaches), one symbol or a written number, a letter one step before (`earlier`), what it
//! holds or lacks (`within`, `without`, searched over all it reaches), different subtrees
//! (`distinct`); and the cheap check of a chain run's kinds before it is a candidate.

use super::index::KindCheck;
use super::pattern::{self, Bindings, ChainView};
use super::rules::Rule;
use super::{steps, Walker};
use crate::meaning::{SymbolKind, TermIndex};
use crate::syntax::ast::{Node, NodeKind};

impl Walker<'_> {
    /// The kind of what a metavariable stands for: the term the meaning layer reads there when it
    /// reaches past the node matched (`\partial` of a whole numerator; a call's parentheses taken
    /// with the callee before them, `\nabla h(f(x))` of `\nabla h(f(x)) \cdot v`, a gradient);
    /// what parentheses hold when they are what matched (`(n)` of `\log(n)` is a size,
    /// [`kind_inside`]); else the node's.
    pub(super) fn bound_kind(&self, bindings: &Bindings, name: &str, node: &Node) -> SymbolKind {
        let node = without_sign(node);
        let reach = bindings.reach(name).filter(|span| *span != node.span);
        if let Some(kind) = reach.and_then(|span| self.meaning.kind_of_span(span)) {
            return kind;
        }
        if pattern::is_parenthesis(node) {
            return kind_inside(self.meaning, node);
        }
        self.kind(node)
    }

    /// Whether the kinds of what a rule's metavariables matched are those its conditions ask.
    /// A condition on a metavariable the matching pattern does not name holds: a rule's
    /// patterns need not all name the same ones (`$P($A \mid $B)`, `\mathbb{E}[$A \mid $B]`).
    pub(super) fn conditions_hold(&self, rule: &Rule, bindings: &Bindings, view: &ChainView) -> bool {
        // One symbol, not an operator name that takes its operand with it (`\log` of `\log q_k`).
        let one_symbol = |name: &String| {
            bindings.get(name.as_str()).is_none_or(|node| {
                let node = without_sign(node);
                self.meaning.is_symbol(node) && self.meaning.operator_named(node).is_none()
            })
        };
        let stepped = |(holder, later): &(String, String)| match (bindings.get(holder), bindings.get(later)) {
            (Some(holder_node), Some(later_node)) => {
                steps::holds_earlier(holder_node, later_node)
                    || steps::holds_earlier_call(
                        (holder_node, bindings.argument(holder)),
                        (later_node, bindings.argument(later)),
                    )
            }
            _ => true,
        };
        // A pattern that needs keys the formula lacks is found nowhere in it.
        let holds = |node: &Node, patterns: &[pattern::Pattern]| {
            patterns.iter().any(|p| self.present.covers(p.needs()) && p.find_in(node, bindings, 0).is_some())
        };
        // What a metavariable stands for may reach past its node over a chain's operands (a
        // call's argument, a big operator's body): the search walks them too.
        let holds_reach = |name: &str, node: &Node, patterns: &[pattern::Pattern]| {
            holds(node, patterns)
                || bindings.reach(name).filter(|reach| *reach != node.span).is_some_and(|reach| {
                    let mut stack: Vec<&Node> = view.links().map(|(_, operand)| operand).collect();
                    while let Some(next) = stack.pop() {
                        let overlaps = next.span.start < reach.end && reach.start < next.span.end;
                        // What lies within the node was searched with it.
                        if !overlaps || next.span.lies_within(node.span) {
                            continue;
                        }
                        if next.span.lies_within(reach) {
                            if holds(next, patterns) {
                                return true;
                            }
                        } else {
                            next.for_each_child(|child| stack.push(child));
                        }
                    }
                    false
                })
        };
        let within = |(name, patterns): &(String, Vec<pattern::Pattern>)| {
            bindings.get(name).is_none_or(|node| holds_reach(name, node, patterns))
        };
        let without = |(name, patterns): &(String, Vec<pattern::Pattern>)| {
            bindings.get(name).is_none_or(|node| !holds_reach(name, node, patterns))
        };
        let apart = |(a, b): &(String, String)| match (bindings.get(a), bindings.get(b)) {
            (Some(a), Some(b)) => a != b,
            _ => true,
        };
        let number = |name: &String| {
            bindings.get(name.as_str()).is_none_or(|node| matches!(node.kind, NodeKind::Number { .. }))
        };
        let not_number = |name: &String| {
            let written_number = |node: &Node| match &node.kind {
                NodeKind::Number { .. } => true,
                NodeKind::Fenced { body, .. } => matches!(body.kind, NodeKind::Number { .. }),
                _ => false,
            };
            bindings.get(name.as_str()).is_none_or(|node| !written_number(node))
        };
        rule.symbols.iter().all(one_symbol)
            && rule.numbers.iter().all(number)
            && rule.not_numbers.iter().all(not_number)
            && rule.conditions.iter().all(|(name, kinds)| {
                bindings.get(name.as_str()).is_none_or(|node| kinds.contains(&self.bound_kind(bindings, name, node)))
            })
            && rule.unless.iter().all(|(name, kinds)| {
                bindings.get(name.as_str()).is_none_or(|node| !kinds.contains(&self.bound_kind(bindings, name, node)))
            })
            && rule.distinct.iter().all(apart)
            // The searches last: they walk what matched.
            && rule.earlier.iter().all(stepped)
            && rule.within.iter().all(within)
            && rule.without.iter().all(without)
    }
}

/// Whether the operands of the run of `view` at `offset` have the kinds that `checks` (of a
/// chain pattern of `rule`) ask: a necessary condition of [`Walker::conditions_hold`] on that
/// run's bindings, tested before the run is a candidate. `known` holds the kinds of the chain's
/// operands asked so far (the runs of many patterns ask for the same ones).
pub(super) fn run_kinds_hold(
    meaning: &TermIndex,
    known: &mut [Option<SymbolKind>],
    rule: &Rule,
    checks: &[KindCheck],
    view: &ChainView,
    offset: usize,
) -> bool {
    for check in checks {
        let position = offset + check.at;
        // Where a call straddles the run's end, the metavariable stands for the whole call.
        let straddled =
            (check.first && offset > 0 && view.joined(offset - 1)) || (check.last && view.joined(position));
        let Some((_, kinds)) = rule.conditions.get(check.condition).filter(|_| !straddled) else {
            continue;
        };
        let kind = match known.get(position).copied().flatten() {
            Some(kind) => kind,
            None => {
                let Some((_, operand)) = view.links().nth(position) else { continue };
                let kind = kind_inside(meaning, operand);
                if let Some(slot) = known.get_mut(position) {
                    *slot = Some(kind);
                }
                kind
            }
        };
        if !kinds.contains(&kind) {
            return false;
        }
    }
    true
}

/// What a metavariable matched without the sign in front of it: `-D` of `-D(p \| q)` is the
/// letter D, its kind the letter's (a sign is minus the whole call, not a part of its name).
pub(super) fn without_sign(node: &Node) -> &Node {
    match &node.kind {
        NodeKind::Prefix { operand, .. } => without_sign(operand),
        _ => node,
    }
}

/// The kind the meaning layer reads for `node`, looking into parentheses the meaning does
/// not keep as a term of their own (`(n)` of `\log(n)`, a function applied to `n`).
pub(super) fn kind_inside(meaning: &TermIndex, node: &Node) -> SymbolKind {
    let kind = meaning.kind(node);
    match &node.kind {
        NodeKind::Fenced { body, .. } if kind.is_none() && pattern::is_parenthesis(node) => {
            meaning.kind(body).unwrap_or(SymbolKind::Unknown)
        }
        _ => kind.unwrap_or(SymbolKind::Unknown),
    }
}
