//! The rule index: the rules with their patterns filed by key, so that each node is tried only
//! against the patterns that could match it.
//!
//! Non-chain patterns are filed by their index key, chain patterns by their anchor (see
//! [`super::keys`] and [`super::pattern::Pattern::chain_anchor`]). A chain pattern found
//! through its anchor is a candidate only where the whole run could match, in keys
//! ([`RunKeys::admits`]): the run fits in the chain, its operators are the pattern's, and each
//! operand has the key of the pattern's operand there. The test is a necessary condition of a
//! match, like a key: it turns away the runs that `$H_{$T} = …` (anchored on any operand with
//! scripts) or `$P(…)` (on any parenthesis) would otherwise try at every such operand. The walk
//! also tests, before a run is a candidate, the kinds the rule asks of the pattern's operands
//! that are whole metavariables ([`RuleSet::kind_checks`]): `$A $B` with a matrix and a vector
//! is not tried at every pair of letters side by side.

use super::keys::{for_each_key, ChainKeys, Key, KeyMap, KeySet, RunKeys};
use super::pattern::metavariable;
use super::rules::{self, Matcher, Rule};
use crate::syntax::ast::{InfixOp, Node};

/// A pattern to try: (rule index, pattern index, run offset; 0 for a non-chain pattern).
pub(super) type Candidate = (usize, usize, usize);

/// A kind a chain pattern asks of the operand at one position of its run, checked before the
/// run is matched. See [`kind_checks`].
#[derive(Debug, Clone, Copy)]
pub(super) struct KindCheck {
    /// The position in the pattern.
    pub at: usize,
    /// The index of the rule's condition on the metavariable there.
    pub condition: usize,
    /// Whether the position is the pattern's first, where a call before the run may be part
    /// of what the metavariable stands for.
    pub first: bool,
    /// Whether the position is the pattern's last, where the argument after the run may be.
    pub last: bool,
}

/// The kinds a chain pattern's run must have, operand by operand, for the rule's conditions
/// to hold: a metavariable that is a whole operand of the pattern, named nowhere else in it,
/// with a condition on its kind, matches the run's operand at its position and nothing else,
/// so the condition is that operand's kind (except at an end of the run that a call straddles,
/// where the metavariable stands for the whole call: the walk checks no kind there). A
/// necessary condition of a firing, like a key: most runs of `$A $B` are turned away by it.
fn kind_checks(rule: &Rule, pattern: &super::pattern::Pattern) -> Vec<KindCheck> {
    if rule.conditions.is_empty() || pattern.links().any(|(op, _)| matches!(op, Some(InfixOp::Stacked(_)))) {
        return Vec::new();
    }
    let mut named: Vec<&str> = Vec::new();
    for (_, operand) in pattern.links() {
        names_in(operand, &mut named, 0);
    }
    let once = |name: &str| named.iter().filter(|n| **n == name).count() == 1;
    let len = pattern.links().count();
    pattern
        .links()
        .enumerate()
        .filter_map(|(at, (_, operand))| {
            let name = metavariable(operand).filter(|name| once(name))?;
            let condition = rule.conditions.iter().position(|(wanted, _)| wanted == name)?;
            Some(KindCheck { at, condition, first: at == 0, last: at + 1 == len })
        })
        .collect()
}

/// Puts into `out` every metavariable named in `node`, once per occurrence.
fn names_in<'p>(node: &'p Node, out: &mut Vec<&'p str>, depth: usize) {
    if depth > crate::syntax::depth::WALK_GUARD {
        return;
    }
    if let Some(name) = metavariable(node) {
        out.push(name);
    }
    node.for_each_child(|child| names_in(child, out, depth + 1));
}

/// Chain patterns as the index files them: those under one key with the same anchor and the
/// same keys of a run (`$P($A \mid $B)`, `$P($A, $B \mid $C)`, …) share one test.
#[derive(Debug, Clone)]
struct ChainGroup {
    /// The anchor's position in the patterns (0 for patterns without an anchor).
    at: usize,
    /// What a run must have, in keys, to be tried.
    run: RunKeys,
    /// The keys a formula must have for any pattern of the group to match in it.
    needs: KeySet,
    /// Each pattern of the group, in the order they were filed.
    patterns: Vec<Filed>,
}

/// A pattern as the index files it: (rule, pattern, the keys a formula must have for it to
/// match there, [`KeySet`]).
type Filed = (usize, usize, KeySet);

impl ChainGroup {
    /// Puts into `found` the candidates of these patterns for the run that has their anchor
    /// at `position`, if the run could match, the formula has the keys the pattern needs
    /// (`present`), and its operands have the kinds the pattern's rule asks (`kinds_hold(rule,
    /// pattern, offset)`).
    fn add_candidates(
        &self,
        chain: &ChainKeys,
        position: usize,
        present: &KeySet,
        kinds_hold: &mut impl FnMut(usize, usize, usize) -> bool,
        found: &mut Vec<Candidate>,
    ) {
        let Some(offset) = position.checked_sub(self.at) else { return };
        if present.covers(&self.needs) && self.run.admits(chain, offset) {
            let admitted = self.patterns.iter().filter(|&&(rule, pattern, ref needs)| {
                present.covers(needs) && kinds_hold(rule, pattern, offset)
            });
            found.extend(admitted.map(|&(rule, pattern, _)| (rule, pattern, offset)));
        }
    }
}

/// Files the chain pattern `filed` in `groups`: with the group of the same anchor and run
/// keys, or in a new one.
fn file_chain(groups: &mut Vec<ChainGroup>, at: usize, run: RunKeys, filed: Filed) {
    match groups.iter_mut().find(|group| group.at == at && group.run == run) {
        Some(group) => {
            group.needs = group.needs.intersection(&filed.2);
            group.patterns.push(filed);
        }
        None => groups.push(ChainGroup { at, run, needs: filed.2, patterns: vec![filed] }),
    }
}

/// Rules with their patterns indexed, so that each node is tried only against the patterns
/// that could match it: non-chain patterns by their index key, chain patterns by their anchor
/// and the keys of their runs (see the module's comment).
#[derive(Debug, Clone)]
pub struct RuleSet {
    /// The rules, in file order.
    pub rules: Vec<Rule>,
    by_key: KeyMap<Vec<Filed>>,
    /// Non-chain patterns that are one metavariable: tried on every node.
    anywhere: Vec<Filed>,
    /// Chain patterns by their anchor's key.
    chains_by_anchor: KeyMap<Vec<ChainGroup>>,
    /// Chain patterns without an anchor: tried on every run.
    chains_free: Vec<ChainGroup>,
    /// The rules that match symbols by kind, by index.
    pub(super) symbol_rules: Vec<usize>,
    /// The rules that match operators as the meaning layer resolved them, by index.
    pub(super) operator_rules: Vec<usize>,
    /// The rules that match environments by name, by index.
    pub(super) environment_rules: Vec<usize>,
    /// The rules that fire where the meaning layer found the evidence balanced, by index.
    pub(super) ambiguity_rules: Vec<usize>,
    /// The [`kind_checks`] of each chain pattern, by rule and pattern (empty for others).
    kind_checks: Vec<Vec<Vec<KindCheck>>>,
}

impl RuleSet {
    /// Indexes `rules`.
    pub fn new(rules: Vec<Rule>) -> RuleSet {
        let mut set = RuleSet {
            rules: Vec::new(),
            by_key: KeyMap::default(),
            anywhere: Vec::new(),
            chains_by_anchor: KeyMap::default(),
            chains_free: Vec::new(),
            symbol_rules: Vec::new(),
            operator_rules: Vec::new(),
            environment_rules: Vec::new(),
            ambiguity_rules: Vec::new(),
            kind_checks: Vec::new(),
        };
        for (rule_index, rule) in rules.iter().enumerate() {
            let patterns = match &rule.matcher {
                Matcher::Patterns(patterns) => patterns,
                Matcher::Symbol(_) => {
                    set.symbol_rules.push(rule_index);
                    continue;
                }
                Matcher::Operator(_) => {
                    set.operator_rules.push(rule_index);
                    continue;
                }
                Matcher::Environment(_) => {
                    set.environment_rules.push(rule_index);
                    continue;
                }
                // Balanced evidence is not found on nodes (`annotate::balanced_firings`).
                Matcher::Ambiguity => {
                    set.ambiguity_rules.push(rule_index);
                    continue;
                }
            };
            let checks =
                patterns.iter().map(|p| if p.is_chain() { kind_checks(rule, p) } else { Vec::new() });
            set.kind_checks.resize(rule_index, Vec::new());
            set.kind_checks.push(checks.collect());
            for (pattern_index, pattern) in patterns.iter().enumerate() {
                let filed = (rule_index, pattern_index, *pattern.needs());
                if !pattern.is_chain() {
                    set.by_key.entry(pattern.index_key()).push(filed);
                    continue;
                }
                let anchor = pattern.chain_anchor();
                let groups = match anchor {
                    Some((_, key)) => set.chains_by_anchor.entry(key),
                    None => &mut set.chains_free,
                };
                let at = anchor.map_or(0, |(at, _)| at);
                file_chain(groups, at, pattern.run_keys(), filed);
            }
        }
        set.anywhere = set.by_key.remove(Key::ANY).unwrap_or_default();
        set.rules = rules;
        set
    }

    /// The kinds the run of the chain pattern `pattern` of rule `rule` must have, operand by
    /// operand ([`kind_checks`]).
    pub(super) fn kind_checks(&self, rule: usize, pattern: usize) -> &[KindCheck] {
        self.kind_checks.get(rule).and_then(|patterns| patterns.get(pattern)).map_or(&[], Vec::as_slice)
    }

    /// The shipped rules.
    pub fn shipped() -> Result<RuleSet, rules::RuleError> {
        Ok(RuleSet::new(rules::load_rules(rules::DEFAULT_RULES)?))
    }

    /// Puts into `found`, in rule order, the patterns that could match `node` (whose keys
    /// are `keys`, when known already, and whose chain's keys are `chain`, if it is a chain)
    /// in a formula that has the keys `present` ([`super::keys::formula_keys`]); a chain
    /// pattern's run only where `kinds_hold(rule, pattern, offset)` (the walk's test of
    /// [`RuleSet::kind_checks`]).
    pub(super) fn candidates(
        &self,
        node: &Node,
        keys: Option<&[Key]>,
        chain: Option<&ChainKeys>,
        present: &KeySet,
        kinds_hold: &mut impl FnMut(usize, usize, usize) -> bool,
        found: &mut Vec<Candidate>,
    ) {
        found.clear();
        let mut add = |key: Key| {
            if let Some(list) = self.by_key.get(key) {
                add_possible(list, present, found);
            }
        };
        match keys {
            Some(keys) => keys.iter().copied().for_each(&mut add),
            None => for_each_key(node, &mut add),
        }
        add_possible(&self.anywhere, present, found);
        if let Some(chain) = chain {
            for position in 0..chain.len() {
                let mut add_runs = |key: Key| {
                    for group in self.chains_by_anchor.get(key).into_iter().flatten() {
                        group.add_candidates(chain, position, present, kinds_hold, found);
                    }
                };
                chain.operand(position).iter().copied().for_each(&mut add_runs);
                if let Some(op) = chain.operator(position) {
                    add_runs(op);
                }
                for group in &self.chains_free {
                    group.add_candidates(chain, position, present, kinds_hold, found);
                }
            }
        }
        if found.len() > 1 {
            found.sort_unstable();
            found.dedup();
        }
    }
}

/// Puts into `found` the non-chain patterns of `list` whose keys a formula that has the keys
/// `present` has.
fn add_possible(list: &[Filed], present: &KeySet, found: &mut Vec<Candidate>) {
    let possible = list.iter().filter(|(_, _, needs)| present.covers(needs));
    found.extend(possible.map(|&(rule, pattern, _)| (rule, pattern, 0)));
}
