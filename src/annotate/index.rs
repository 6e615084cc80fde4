//! The rule index: the rules with their patterns filed by key, so that each node is tried only
//! against the patterns that could match it.
//!
//! Non-chain patterns are filed by their index key, chain patterns by their anchor (see
//! [`super::keys`] and [`super::pattern::Pattern::chain_anchor`]). A chain pattern found
//! through its anchor is a candidate only where the whole run could match, in keys
//! ([`RunKeys::admits`]): the run fits in the chain, its operators are the pattern's, and each
//! operand has the key of the pattern's operand there. The test is a necessary condition of a
//! match, like a key: it turns away the runs that `$H_{$T} = …` (anchored on any operand with
//! scripts) or `$P(…)` (on any parenthesis) would otherwise try at every such operand.

use super::keys::{for_each_key, ChainKeys, Key, KeyMap, RunKeys};
use super::rules::{self, Matcher, Rule};
use crate::syntax::ast::Node;

/// A pattern to try: (rule index, pattern index, run offset; 0 for a non-chain pattern).
pub(super) type Candidate = (usize, usize, usize);

/// A chain pattern as the index files it.
#[derive(Debug, Clone)]
struct ChainEntry {
    rule: usize,
    pattern: usize,
    /// The anchor's position in the pattern (0 for a pattern without an anchor).
    at: usize,
    /// What a run must have, in keys, to be tried.
    run: RunKeys,
}

impl ChainEntry {
    /// The candidate of this pattern for the run that has its anchor at `position`, if the
    /// run could match.
    fn candidate(&self, chain: &ChainKeys, position: usize) -> Option<Candidate> {
        let offset = position.checked_sub(self.at)?;
        self.run.admits(chain, offset).then_some((self.rule, self.pattern, offset))
    }
}

/// Rules with their patterns indexed, so that each node is tried only against the patterns
/// that could match it: non-chain patterns by their index key, chain patterns by their anchor
/// and the keys of their runs (see the module's comment).
#[derive(Debug, Clone)]
pub struct RuleSet {
    /// The rules, in file order.
    pub rules: Vec<Rule>,
    by_key: KeyMap<Vec<(usize, usize)>>,
    /// Non-chain patterns that are one metavariable: tried on every node.
    anywhere: Vec<(usize, usize)>,
    /// Chain patterns by their anchor's key.
    chains_by_anchor: KeyMap<Vec<ChainEntry>>,
    /// Chain patterns without an anchor: tried on every run.
    chains_free: Vec<ChainEntry>,
    /// The rules that match symbols by kind, operators and environments by name, and
    /// balanced evidence: tried on every node outside the index.
    pub(super) others: Vec<usize>,
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
            others: Vec::new(),
        };
        for (rule_index, rule) in rules.iter().enumerate() {
            let Matcher::Patterns(patterns) = &rule.matcher else {
                set.others.push(rule_index);
                continue;
            };
            for (pattern_index, pattern) in patterns.iter().enumerate() {
                if !pattern.is_chain() {
                    set.by_key.entry(pattern.index_key()).push((rule_index, pattern_index));
                    continue;
                }
                let anchor = pattern.chain_anchor();
                let entry = ChainEntry {
                    rule: rule_index,
                    pattern: pattern_index,
                    at: anchor.map_or(0, |(at, _)| at),
                    run: pattern.run_keys(),
                };
                match anchor {
                    Some((_, key)) => set.chains_by_anchor.entry(key).push(entry),
                    None => set.chains_free.push(entry),
                }
            }
        }
        set.anywhere = set.by_key.remove(Key::ANY).unwrap_or_default();
        set.rules = rules;
        set
    }

    /// The shipped rules.
    pub fn shipped() -> Result<RuleSet, rules::RuleError> {
        Ok(RuleSet::new(rules::load_rules(rules::DEFAULT_RULES)?))
    }

    /// Puts into `found`, in rule order, the patterns that could match `node` (whose chain's
    /// keys are `chain`, if it is a chain).
    pub(super) fn candidates(&self, node: &Node, chain: Option<&ChainKeys>, found: &mut Vec<Candidate>) {
        found.clear();
        let mut add = |key: Key| {
            if let Some(list) = self.by_key.get(key) {
                found.extend(list.iter().map(|&(rule, pattern)| (rule, pattern, 0)));
            }
        };
        for_each_key(node, &mut add);
        found.extend(self.anywhere.iter().map(|&(rule, pattern)| (rule, pattern, 0)));
        if let Some(chain) = chain {
            for position in 0..chain.len() {
                let mut add_runs = |key: Key| {
                    let entries = self.chains_by_anchor.get(key).into_iter().flatten();
                    found.extend(entries.filter_map(|entry| entry.candidate(chain, position)));
                };
                chain.operand(position).iter().copied().for_each(&mut add_runs);
                if let Some(op) = chain.operator(position) {
                    add_runs(op);
                }
                found.extend(self.chains_free.iter().filter_map(|entry| entry.candidate(chain, position)));
            }
        }
        if found.len() > 1 {
            found.sort_unstable();
            found.dedup();
        }
    }
}
