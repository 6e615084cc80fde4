//! The rule index loses no match: wherever a pattern matches, the key it is filed under is
//! among the keys the walk looks up there (the invariant [`super::keys`] promises), and a
//! chain pattern's run passes the index's test in keys ([`super::keys::RunKeys`]). Checked by
//! trying every pattern on every node and every run of the fixtures, the rules' examples and
//! the corpora beside the repository, as an index-free walk would. Likewise a formula has the
//! keys of every pattern that matches in it ([`super::keys::formula_keys`]), and a chain
//! walked as another chain's operand gets the keys it would work out itself.

use super::keys::{for_each_key, formula_keys, operator_key, ChainKeys, Key, KeySet};
use super::pattern::{Bindings, ChainView, Pattern};
use super::rules::Matcher;
use super::RuleSet;
use crate::syntax::ast::Node;
use crate::syntax::guard_tests::lines_in;
use std::path::Path;

fn formulas(rules: &RuleSet) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut lines: Vec<String> = rules.rules.iter().flat_map(|rule| rule.examples.clone()).collect();
    for dir in
        ["tests/fixtures/seeds", "tests/fixtures/map", "tests/fixtures/unicode", "../shared/corpus-real"]
    {
        lines.extend(lines_in(&root.join(dir)));
    }
    lines
}

fn keys(node: &Node) -> Vec<Key> {
    let mut keys = Vec::new();
    for_each_key(node, |key| keys.push(key));
    keys
}

/// Every match of `pattern` at `node` (whole, or by run if `node` is a chain) whose index
/// entry the walk would not look up there, described.
/// `present` is what the formula has ([`formula_keys`]).
fn lost_matches(pattern: &Pattern, node: &Node, source: &str, present: &KeySet) -> Vec<String> {
    let mut lost = Vec::new();
    if !pattern.is_chain() {
        let matched = pattern.whole_bindings(node, &mut Bindings::new());
        if matched && !keys(node).contains(&pattern.index_key()) {
            lost.push(format!("`{}` on `{}`", pattern.source, node.span.text(source)));
        }
        if matched && !present.covers(pattern.needs()) {
            lost.push(format!("`{}` on `{}`, by the formula's keys", pattern.source, node.span.text(source)));
        }
        return lost;
    }
    let Some(view) = ChainView::new(node, &|_, _| super::pattern::Tie::Apart) else { return lost };
    let links: Vec<_> = view.links().collect();
    let Some((at, anchor)) = pattern.chain_anchor() else { return lost };
    let mut chain = ChainKeys::default();
    chain.fill(&view, None);
    let run = pattern.run_keys();
    for offset in 0..links.len() {
        if pattern.window_bindings(&view, offset, &mut Bindings::new()).is_none() {
            continue;
        }
        if !present.covers(pattern.needs()) {
            lost.push(format!(
                "`{}` at run {offset} of `{}`, by the formula's keys",
                pattern.source,
                node.span.text(source)
            ));
        }
        let looked_up = links.get(offset + at).is_some_and(|(op, operand)| {
            keys(operand).contains(&anchor) || op.is_some_and(|op| operator_key(op) == anchor)
        });
        if !looked_up {
            lost.push(format!("`{}` at run {offset} of `{}`", pattern.source, node.span.text(source)));
        }
        if !run.admits(&chain, offset) {
            lost.push(format!(
                "`{}` at run {offset} of `{}`, by its keys",
                pattern.source,
                node.span.text(source)
            ));
        }
    }
    lost
}

fn visit(node: &Node, check: &mut impl FnMut(&Node)) {
    check(node);
    node.for_each_child(|child| visit(child, check));
}

#[test]
fn every_match_is_found_through_the_index() {
    let Ok(rules) = RuleSet::shipped() else { unreachable!("the shipped rules load (tests/rules_data.rs)") };
    let patterns: Vec<&Pattern> = rules
        .rules
        .iter()
        .filter_map(|rule| match &rule.matcher {
            Matcher::Patterns(patterns) => Some(patterns),
            _ => None,
        })
        .flatten()
        .collect();
    // The patterns of conditions are searched only in formulas that have their keys, too.
    let searched: Vec<&Pattern> = rules
        .rules
        .iter()
        .flat_map(|rule| rule.within.iter().chain(&rule.without))
        .flat_map(|(_, patterns)| patterns)
        .collect();
    let (mut lost, mut matched_formulas) = (Vec::new(), 0);
    for source in formulas(&rules) {
        let Ok(parsed) = crate::syntax::parse(&source) else { continue };
        let before = lost.len();
        let present = formula_keys(&parsed.root);
        visit(&parsed.root, &mut |node| {
            for pattern in &patterns {
                lost.extend(lost_matches(pattern, node, &source, &present));
            }
        });
        for pattern in &searched {
            if pattern.find_in(&parsed.root, &Bindings::new(), 0).is_some()
                && !present.covers(pattern.needs())
            {
                lost.push(format!("`{}` in `{}`, by the formula's keys", pattern.source, source));
            }
        }
        matched_formulas += usize::from(lost.len() == before);
    }
    assert!(matched_formulas > 100, "too few formulas were read: {matched_formulas}");
    assert!(
        lost.is_empty(),
        "{} matches the index does not find, e.g. {:?}",
        lost.len(),
        lost.iter().take(5).collect::<Vec<_>>()
    );
}

/// Every chain that is the operand of a chain in `node`, with that chain's keys and its
/// position there.
fn operand_chains<'t>(node: &'t Node, out: &mut Vec<(&'t Node, &'t Node, usize)>) {
    if let crate::syntax::ast::NodeKind::Chain { first, rest } = &node.kind {
        let operands = std::iter::once(first.as_ref()).chain(rest.iter().map(|link| &link.operand));
        for (position, operand) in operands.enumerate() {
            if matches!(operand.kind, crate::syntax::ast::NodeKind::Chain { .. }) {
                out.push((node, operand, position));
            }
        }
    }
    node.for_each_child(|child| operand_chains(child, out));
}

#[test]
fn a_chain_gets_from_its_outer_chain_the_keys_it_would_work_out() {
    let Ok(rules) = RuleSet::shipped() else { unreachable!("the shipped rules load (tests/rules_data.rs)") };
    let mut compared = 0;
    for source in formulas(&rules) {
        let Ok(parsed) = crate::syntax::parse(&source) else { continue };
        let mut pairs = Vec::new();
        operand_chains(&parsed.root, &mut pairs);
        for (outer, inner, position) in pairs {
            let (Some(outer_view), Some(inner_view)) = (
                ChainView::new(outer, &|_, _| super::pattern::Tie::Apart),
                ChainView::new(inner, &|_, _| super::pattern::Tie::Apart),
            ) else {
                unreachable!("both are chains")
            };
            let (mut outer_keys, mut given, mut own) =
                (ChainKeys::default(), ChainKeys::default(), ChainKeys::default());
            outer_keys.fill(&outer_view, None);
            given.fill(&inner_view, Some((&outer_keys, position)));
            own.fill(&inner_view, None);
            for at in 0..own.len() {
                assert_eq!(given.operand(at), own.operand(at), "operand {at} of `{source}`");
                assert_eq!(given.operand_parts(at), own.operand_parts(at), "operand {at} of `{source}`");
            }
            compared += 1;
        }
    }
    assert!(compared > 100, "too few chains in chains were compared: {compared}");
}
