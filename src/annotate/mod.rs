//! Annotate: which rules fire where in a formula, as slots with concept ids.
//!
//! Rules are data (`data/rules.toml`, see [`rules`]); each names patterns written in LaTeX
//! ([`pattern`]) or a symbol kind, conditions on the kinds of what matched, and concept ids.
//! [`annotate`] applies every rule to every node and turns the matches into [`RawSlot`]s:
//! overridden matches dropped, merged rules combined into one row, rows on the same text
//! joined, in reading order. [`unknown_notation`] finds notation that no slot explains.

#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod bindings;
mod chain_view;
mod conditions;
mod index;
pub mod keys;
pub mod pattern;
pub mod rules;
mod steps;
mod unknown;
pub use unknown::unknown_notation;

#[cfg(test)]
mod keys_tests;

use crate::meaning::{has_binding_name, SymbolKind, SymbolTable, TermIndex};
use crate::syntax::ast::{InfixOp, Node, NodeKind, Span};
use conditions::run_kinds_hold;
use index::Candidate;
pub use index::RuleSet;
use keys::ChainKeys;
use pattern::{Bindings, ChainView, Match};
use rules::{Focus, Matcher, Rule};

/// How deep the walk goes: the guard of walks over trees the one depth limit already bounds
/// ([`crate::syntax::depth::WALK_GUARD`]); the parser refuses any tree that would reach it, so
/// no node of an accepted formula is left unannotated.
const MAX_WALK_DEPTH: usize = crate::syntax::depth::WALK_GUARD;

/// One row of the slot map before the curriculum is consulted; its texts borrow from the
/// formula and the rules.
#[derive(Debug, Clone, PartialEq)]
pub struct RawSlot<'a> {
    /// The slot's source span (the first one, for merged rows).
    pub span: Span,
    /// Every span the row stands for (all occurrences of a merged row).
    pub occurrences: Vec<Span>,
    /// The source text of each merged occurrence, in order, without repeats.
    pub texts: Vec<&'a str>,
    /// Concept ids, in rule order, without repeats.
    pub concepts: Vec<&'a str>,
    /// Ids of the rules that made this row.
    pub rules: Vec<&'a str>,
    /// Whether the slot is printed in the formula.
    pub visible: bool,
    /// The rule index of the first rule (for question overrides and hidden-slot display).
    pub rule_index: usize,
    /// Spans of rows dropped because this one, on a part of theirs, asks all they ask
    /// (`\min(\max(x, 0), 1)` beside its `\max(x, 0)`): their notation is explained, not shown.
    pub explains: Vec<Span>,
    /// Whether the row explains the notation written in its slot; a row that only asks whether
    /// a letter is applied (`\Omega(\mathrm{W\text{-}MSA})`) leaves the argument's notation to
    /// be listed as unknown.
    pub explains_notation: bool,
}

/// A rule firing, before rows are formed.
#[derive(Debug, Clone)]
struct Firing {
    rule: usize,
    matched: Span,
    slot: Span,
}

/// Applies `rules` to the formula `root` (parsed from `source`), returning the slot rows in
/// reading order: visible rows by position, then hidden ones.
pub fn annotate<'a>(
    root: &Node,
    source: &'a str,
    meaning: &TermIndex,
    rules: &'a RuleSet,
) -> Vec<RawSlot<'a>> {
    let mut firings = Walker::new(source, meaning, rules).run(root);
    balanced_firings(meaning, rules, &mut firings);
    // What a rule overrides stays overridden where the rule is then kept off a definition: the
    // seed's `\mathrm{Attention}(Q, K, V) = \mathrm{softmax}(…)V` is read through its parts, and
    // the softmax's own attention row is one of the whole's.
    let mut firings = drop_overridden(firings, &rules.rules, source);
    keep_off_definitions(root, rules, &mut firings);
    let fallback = |firing: &Firing| rules.rules.get(firing.rule).is_some_and(|rule| rule.fallback);
    // The question whether a letter is applied says nothing of the formula's other symbols.
    let asks_of_the_formula =
        |firing: &Firing| !fallback(firing) && !rules.ambiguity_rules.contains(&firing.rule);
    if firings.iter().any(asks_of_the_formula) {
        firings.retain(|firing| !fallback(firing));
    }
    named_by_their_body(rows(firings, source, &rules.rules), root, &rules.rules)
}

/// Some names are explained by the definition the formula gives them, not by a rule. A rule
/// kept off definitions (`on_definition = false`) is kept off the name a formula defines, and off
/// the whole body of the definition where the name (or a part of it) raises, by any rule, a
/// concept the rule would (`\mathrm{Attention}(Q, K, V) = \mathrm{softmax}(…)V` is read through
/// its parts); a name that raises none of them (`\mathrm{NA}_k(i) = \mathrm{softmax}(…)\mathbf{V}`)
/// leaves the body its rule.
fn keep_off_definitions(root: &Node, rules: &RuleSet, firings: &mut Vec<Firing>) {
    let heads = crate::meaning::defined_heads(root);
    if heads.is_empty() {
        return;
    }
    let bodies = crate::meaning::defined_bodies(root);
    let named: Vec<&str> = firings
        .iter()
        .filter(|firing| heads.iter().any(|head| firing.slot.lies_within(*head)))
        .filter_map(|firing| rules.rules.get(firing.rule))
        .flat_map(|rule| rule.concepts.iter().map(String::as_str))
        .collect();
    firings.retain(|firing| {
        let Some(rule) = rules.rules.get(firing.rule) else { return true };
        if rule.on_definition || !(heads.contains(&firing.slot) || bodies.contains(&firing.slot)) {
            return true;
        }
        let in_body = !heads.contains(&firing.slot);
        in_body && !rule.concepts.iter().any(|concept| named.contains(&concept.as_str()))
    });
}

/// A name is explained by its definition: the row on `\mathcal{L}_{\text{ELBO}}` of
/// `\mathcal{L}_{\text{ELBO}} = \mathbb{E}[…] - D_{KL}(…)` is dropped where a row on the body
/// asks the same (the same concepts, the same question).
fn named_by_their_body<'a>(rows: Vec<RawSlot<'a>>, root: &Node, rules: &[Rule]) -> Vec<RawSlot<'a>> {
    let mut named = crate::meaning::named_definitions(root);
    if named.is_empty() {
        return rows;
    }
    named.sort_unstable_by_key(|(name, _)| name.start);
    // The statements' names do not overlap: the one a row may lie in starts last before it.
    let definition_of = |span: Span| {
        let at = named.partition_point(|(name, _)| name.start <= span.start);
        named.get(at.checked_sub(1)?).filter(|(name, _)| span.lies_within(*name)).map(|&(_, body)| body)
    };
    // A rule may ask its own question of a concept (`\alpha_{ij}`: how much i attends to j).
    let question = |row: &RawSlot| rules.get(row.rule_index).and_then(|rule| rule.question.as_ref());
    let answered = |row: &RawSlot| {
        row.visible
            && row.occurrences.len() == 1
            && definition_of(row.span).is_some_and(|body| {
                rows.iter().any(|other| {
                    other.visible
                        && other.span.lies_within(body)
                        && row.concepts.iter().all(|c| other.concepts.contains(c))
                        && question(row) == question(other)
                })
            })
    };
    let drop: Vec<bool> = rows.iter().map(answered).collect();
    rows.into_iter().zip(drop).filter(|(_, drop)| !drop).map(|(row, _)| row).collect()
}

/// The rules that fire where the meaning layer found the evidence balanced, or a letter of a
/// number applied.
fn balanced_firings(meaning: &TermIndex, rules: &RuleSet, firings: &mut Vec<Firing>) {
    for &index in &rules.ambiguity_rules {
        for span in meaning.balanced().iter().copied().chain(meaning.unexpected_calls()) {
            firings.push(Firing { rule: index, matched: span, slot: span });
        }
    }
}

/// Which rules fire on `root`, by id (for rule-coverage checks).
pub fn fired_rules(root: &Node, source: &str, table: &SymbolTable, rules: &RuleSet) -> Vec<String> {
    let term = crate::meaning::resolve(root, table);
    let meaning = TermIndex::new(&term);
    let mut firings = Walker::new(source, &meaning, rules).run(root);
    balanced_firings(&meaning, rules, &mut firings);
    let mut ids: Vec<String> =
        firings.iter().filter_map(|f| rules.rules.get(f.rule).map(|r| r.id.clone())).collect();
    ids.dedup();
    ids
}

thread_local! {
    /// The [`Walker::chain_keys`] a walk leaves for the next one on this thread, so that their
    /// buffers are allocated once, not once a formula.
    static SPARE_CHAIN_KEYS: std::cell::Cell<Vec<ChainKeys>> = const { std::cell::Cell::new(Vec::new()) };
}

/// Walks a tree, collecting the rules' firings.
struct Walker<'a> {
    source: &'a str,
    meaning: &'a TermIndex<'a, 'a>,
    rules: &'a RuleSet,
    firings: Vec<Firing>,
    /// Reused for each node's candidates.
    candidates: Vec<Candidate>,
    /// Reused for each chain node's view.
    view: ChainView<'a>,
    /// The keys of chain nodes' operands and operators, one for each chain being walked (a
    /// chain's operands are walked with the keys worked out for it), kept for reuse.
    chain_keys: Vec<ChainKeys>,
    /// Rules that fired on the node being walked through its base or operand (`\hat{y}_i` by
    /// `\hat{y}`): not fired again on that base or operand, so a slot is not listed twice.
    fired_around: Vec<usize>,
    /// The kind of each operand of the chain whose runs are being tried, once asked: the runs
    /// of many patterns ask for the same operands' kinds ([`run_kinds_hold`]).
    operand_kinds: Vec<Option<SymbolKind>>,
    /// The keys the formula has anywhere ([`keys::formula_keys`]): a pattern that needs others
    /// is not tried.
    present: keys::KeySet,
}

impl<'a> Walker<'a> {
    fn new(source: &'a str, meaning: &'a TermIndex<'a, 'a>, rules: &'a RuleSet) -> Self {
        Walker {
            source,
            meaning,
            rules,
            firings: Vec::with_capacity(8),
            candidates: Vec::with_capacity(8),
            view: ChainView::default(),
            chain_keys: SPARE_CHAIN_KEYS.with(|spare| spare.take()),
            fired_around: Vec::new(),
            operand_kinds: Vec::new(),
            present: keys::KeySet::ALL,
        }
    }

    /// The kind the meaning layer gives the term `node` stands for.
    fn kind(&self, node: &Node) -> SymbolKind {
        self.meaning.kind(node).unwrap_or(SymbolKind::Unknown)
    }

    fn run(mut self, root: &'a Node) -> Vec<Firing> {
        self.present = keys::formula_keys(root);
        self.walk(root, false, 0);
        SPARE_CHAIN_KEYS.with(|spare| spare.replace(std::mem::take(&mut self.chain_keys)));
        self.firings
    }

    fn walk(&mut self, node: &'a Node, in_script: bool, depth: usize) {
        self.walk_keyed(node, in_script, depth, None);
    }

    /// [`Walker::walk`] of a node that is the operand at a position of a chain whose keys
    /// ([`ChainKeys`]) are worked out already, `outer`: its keys are taken from there.
    fn walk_keyed(
        &mut self,
        node: &'a Node,
        in_script: bool,
        depth: usize,
        outer: Option<(&ChainKeys, usize)>,
    ) {
        if depth > MAX_WALK_DEPTH {
            return;
        }
        self.other_rules(node, in_script);
        let meaning = self.meaning;
        let tie = |left: &Node, right: &Node| {
            if meaning.is_callee(left) {
                pattern::Tie::Call
            } else if meaning.takes_as_body(left, right) {
                pattern::Tie::Body
            } else if meaning.operator_named(left).is_some() {
                // An operator name and its operand (`\nabla_{\mathbf{w}} L`) are one term, as a
                // run is: a metavariable takes both, a written end may stand between them.
                pattern::Tie::Operand
            } else if meaning.in_one_run(left, right) {
                pattern::Tie::Run
            } else {
                pattern::Tie::Apart
            }
        };
        let mut view = std::mem::take(&mut self.view);
        let is_chain = view.fill(node, &tie);
        // Only a chain has keys of its own to keep (most nodes are not chains).
        let chain_keys = is_chain.then(|| {
            let mut chain_keys = self.chain_keys.pop().unwrap_or_default();
            chain_keys.fill(&view, outer);
            chain_keys
        });
        if let Some(chain_keys) = &chain_keys {
            self.operand_kinds.clear();
            self.operand_kinds.resize(chain_keys.len(), None);
        }
        let mut candidates = std::mem::take(&mut self.candidates);
        let (rules, known) = (self.rules, &mut self.operand_kinds);
        let mut kinds_hold = |rule: usize, pattern: usize, offset: usize| {
            let checks = rules.kind_checks(rule, pattern);
            checks.is_empty()
                || rules
                    .rules
                    .get(rule)
                    .is_none_or(|r| run_kinds_hold(meaning, known, r, checks, &view, offset))
        };
        let chain = chain_keys.as_ref();
        let keys = outer.map(|(outer, position)| outer.operand(position));
        rules.candidates(node, keys, chain, &self.present, &mut kinds_hold, &mut candidates);
        let around = std::mem::take(&mut self.fired_around);
        let mut fired_here = Vec::new();
        for &(index, pattern_index, offset) in &candidates {
            let Some(rule) = self.rules.rules.get(index) else { continue };
            let Matcher::Patterns(patterns) = &rule.matcher else { continue };
            let Some(pattern) = patterns.get(pattern_index) else { continue };
            let mut bindings = Bindings::new();
            let span = if pattern.is_chain() {
                if !is_chain {
                    continue;
                }
                if rule.alone && self.has_matrix_beside(&view, offset, pattern.operand_count()) {
                    continue;
                }
                pattern.window_bindings(&view, offset, &mut bindings)
            } else if around.contains(&index) {
                continue;
            } else {
                pattern.whole_bindings(node, &mut bindings).then(|| pattern.unsigned_span(node))
            };
            let Some(span) = span.filter(|_| self.conditions_hold(rule, &bindings, &view)) else { continue };
            if pattern.conditions_in_parenthesis() && self.meaning.is_call_without_condition(span) {
                continue;
            }
            if pattern.is_chain() && self.meaning.splits_an_operand(span) {
                continue;
            }
            if pattern.raises_e() && !self.meaning.is_power(node) {
                continue;
            }
            if pattern.raises_to_an_order() && !self.meaning.is_derivative_order(node) {
                continue;
            }
            if pattern.draws() && !tilde_reads_as(&view, offset, pattern.operand_count(), rule.growth) {
                continue;
            }
            let found = if pattern.is_chain() {
                pattern.run_match(&view, offset, span, bindings)
            } else {
                Some(Match { span, nodes: vec![node], bindings })
            };
            if let Some(found) = found {
                if through_inner(pattern, node) {
                    fired_here.push(index);
                }
                let slot = focus_span(rule, &found, self.source);
                self.firings.push(Firing { rule: index, matched: found.span, slot });
            }
        }
        self.candidates = candidates;
        self.view = view;
        if inner_of(node).is_some() {
            // What fired further out (`-\hat{y}_i`) is not fired on the inner nodes either.
            fired_here.extend(around);
        }
        if let Some(chain_keys) = chain_keys {
            self.walk_operands(node, in_script, depth, &chain_keys);
            self.chain_keys.push(chain_keys);
        } else {
            self.walk_children(node, in_script, depth, fired_here);
        }
    }

    /// Walks the children of the chain `node`, in [`Node::for_each_child`]'s order, each
    /// operand with its keys from `chain_keys`.
    fn walk_operands(&mut self, node: &'a Node, in_script: bool, depth: usize, chain_keys: &ChainKeys) {
        let NodeKind::Chain { first, rest } = &node.kind else { return };
        self.walk_keyed(first, in_script, depth + 1, Some((chain_keys, 0)));
        for (position, link) in (1..).zip(rest) {
            if let InfixOp::Stacked(stacked) = &link.op {
                self.walk(&stacked.label, in_script, depth + 1);
            }
            self.walk_keyed(&link.operand, in_script, depth + 1, Some((chain_keys, position)));
        }
    }

    /// The rules that match symbols by kind, operators and environments by name; their
    /// firings on `node` in rule order.
    fn other_rules(&mut self, node: &Node, in_script: bool) {
        let rules = self.rules;
        let first = self.firings.len();
        let rule = |index: usize| rules.rules.get(index).map(|rule| (index, &rule.matcher));
        if let Some(env) = node.environment() {
            for (index, matcher) in rules.environment_rules.iter().filter_map(|&index| rule(index)) {
                if matches!(matcher, Matcher::Environment(names) if names.iter().any(|n| n == env)) {
                    // The slot is the environment's head as written: `\begin{cases}`.
                    let text = node.span.text(self.source);
                    let head_len = text.find('}').map_or(text.len(), |at| at + 1);
                    let head = Span::new(node.span.start, node.span.start + head_len);
                    self.firings.push(Firing {
                        rule: index,
                        matched: node.span,
                        slot: head.min_within(node.span),
                    });
                }
            }
        }
        let operator = (!rules.operator_rules.is_empty()).then(|| self.meaning.operator_named(node));
        if let Some(name) = operator.flatten() {
            for (index, matcher) in rules.operator_rules.iter().filter_map(|&index| rule(index)) {
                if matches!(matcher, Matcher::Operator(names) if names.iter().any(|n| n == name)) {
                    self.firings.push(Firing { rule: index, matched: node.span, slot: node.span });
                }
            }
        }
        // The kind of a symbol, asked once for all the symbol rules.
        if !in_script && self.is_symbol_like(node) && !rules.symbol_rules.is_empty() {
            let kind = self.kind(node);
            for (index, matcher) in rules.symbol_rules.iter().filter_map(|&index| rule(index)) {
                if matches!(matcher, Matcher::Symbol(wanted) if *wanted == kind) {
                    // A name of letters side by side (`PE`) is the whole symbol, not its first letter.
                    let slot = self.meaning.word_span(node).unwrap_or(node.span);
                    self.firings.push(Firing { rule: index, matched: slot, slot });
                }
            }
        }
        // Each rule fired at most once here: in rule order, as one pass over the rules fires.
        if let Some(fired) = self.firings.get_mut(first..).filter(|fired| fired.len() > 1) {
            fired.sort_unstable_by_key(|firing| firing.rule);
        }
    }

    /// Whether the operands `offset..offset + len` of `view` have a matrix side by side before
    /// or after them (a rule's `alone`).
    fn has_matrix_beside(&self, view: &ChainView, offset: usize, len: usize) -> bool {
        let side_by_side = |at: usize| matches!(view.links().nth(at), Some((Some(InfixOp::Juxt), _)));
        let operand = |at: usize| view.links().nth(at).map(|(_, node)| node);
        let before = offset.checked_sub(1).filter(|_| side_by_side(offset)).and_then(operand);
        let end = offset + len;
        let after = side_by_side(end).then(|| operand(end)).flatten();
        [before, after].into_iter().flatten().any(|node| self.kind(node) == SymbolKind::Matrix)
    }

    /// A plain symbol, or one named symbol with its subscript ([`is_symbol_like`]).
    fn is_symbol_like(&self, node: &Node) -> bool {
        is_symbol_like(self.meaning, node)
    }

    /// Walks the children of `node`; `fired_around` are the rules not to fire again on its
    /// base or operand.
    fn walk_children(&mut self, node: &'a Node, in_script: bool, depth: usize, fired_around: Vec<usize>) {
        match &node.kind {
            // A named symbol such as `W_Q` is one symbol: its parts are not symbols of their own.
            NodeKind::Scripts { .. } if self.is_symbol_like(node) => {}
            NodeKind::Scripts { base, sub, sup, .. } => {
                self.fired_around = fired_around;
                self.walk(base, in_script, depth + 1);
                for script in [sub, sup].into_iter().flatten() {
                    self.walk(script, true, depth + 1);
                }
            }
            NodeKind::Annotated { body, label, .. } => {
                self.walk(body, in_script, depth + 1);
                if let Some(label) = label {
                    self.walk(label, true, depth + 1);
                }
            }
            NodeKind::Prefix { operand, .. } => {
                self.fired_around = fired_around;
                self.walk(operand, in_script, depth + 1);
            }
            _ => node.for_each_child(|child| self.walk(child, in_script, depth + 1)),
        }
    }
}

/// Whether `pattern` matches `node` only through the leniencies (by the base of its scripts
/// or the operand of its sign).
fn through_inner(pattern: &pattern::Pattern, node: &Node) -> bool {
    inner_of(node).is_some() && !pattern.root_is_like(node)
}

/// The base of a node's scripts or the operand of its sign.
fn inner_of(node: &Node) -> Option<&Node> {
    match &node.kind {
        NodeKind::Scripts { base: inner, .. } | NodeKind::Prefix { operand: inner, .. } => Some(inner),
        _ => None,
    }
}

/// A plain symbol, or a symbol whose subscript meaning reads as part of its name (`W_Q`,
/// `W_1`, `d_{\text{model}}`), but not an entry (`Q_{it}`) nor a power.
fn is_symbol_like(meaning: &TermIndex, node: &Node) -> bool {
    match &node.kind {
        NodeKind::Symbol { name, .. } => name.chars().next().is_some_and(char::is_alphabetic),
        NodeKind::Scripts { base, sub: Some(_), sup: None, primes: 0 } => {
            matches!(base.kind, NodeKind::Symbol { .. })
                && has_binding_name(node)
                && meaning.names_one_symbol(node)
        }
        _ => false,
    }
}

/// Whether every `\sim` in the run of `count` operands from `offset` reads as the rule asks, by
/// the meaning layer's [`crate::meaning::tilde_reading`]: a draw from a law, or, for a rule
/// marked `growth`, two sizes growing alike.
fn tilde_reads_as(view: &ChainView, offset: usize, count: usize, growth: bool) -> bool {
    use crate::meaning::TildeReading;
    let wanted = if growth { TildeReading::Growth } else { TildeReading::Draw };
    let run = view.operands.get(offset..offset + count).unwrap_or_default();
    run.windows(2).all(|pair| match pair {
        [(_, left), (Some(InfixOp::Relation(r)), right)] if r == "\\sim" => {
            crate::meaning::tilde_reading(left, right) == wanted
        }
        _ => true,
    })
}

/// The slot's span within a match, as the rule's focus says.
fn focus_span(rule: &Rule, found: &Match, source: &str) -> Span {
    match &rule.focus {
        Focus::Whole => found.span,
        Focus::Part(pattern) => {
            found.nodes.iter().find_map(|node| focus_part(pattern, node, found)).unwrap_or(found.span)
        }
        Focus::Operator => found
            .nodes
            .iter()
            .find_map(|node| sign_span(node, source))
            .or_else(|| infix_span(found, source))
            .unwrap_or(found.span),
    }
}

/// The operator between the two operands of a match (`\implies` of `a > 0 \implies b > 0`), as
/// written between them without the spaces around it.
fn infix_span(found: &Match, source: &str) -> Option<Span> {
    let [left, right] = found.nodes.as_slice() else { return None };
    let between = Span::new(left.span.end, right.span.start);
    let text = source.get(between.start..between.end)?;
    let start = between.start + (text.len() - text.trim_start().len());
    let end = between.end - (text.len() - text.trim_end().len());
    (start < end).then(|| Span::new(start, end))
}

/// The span of the focus pattern's first match within `node`; a match on a signed node that
/// holds only through the sign's leniency (`\log` on `-\log p`) gives way to the match on
/// its operand (`\log`). Scripts stay with their base (`\nabla` is `\nabla_\theta`).
fn focus_part(pattern: &pattern::Pattern, node: &Node, found: &Match) -> Option<Span> {
    let part = pattern.find_in(node, &found.bindings, 0)?;
    let signed = part.nodes.first().filter(|n| part.nodes.len() == 1 && through_inner(pattern, n));
    let operand = signed.and_then(|n| match &n.kind {
        NodeKind::Prefix { operand, .. } => Some(operand.as_ref()),
        _ => None,
    });
    let deeper = operand.and_then(|inner| pattern.find_in(inner, &found.bindings, 0));
    let span = deeper.as_ref().map_or(part.span, |d| d.span);
    // `X \sim U(n).`: the distribution, without the sentence's full stop.
    match part.nodes.as_slice() {
        [one] if deeper.is_none() && one.span == span => {
            Some(Span::new(span.start, pattern::end_before_stop(one).max(span.start)))
        }
        _ => Some(span),
    }
}

/// The span of the sign of a signed node (`-` in `-\frac{1}{N}`).
fn sign_span(node: &Node, source: &str) -> Option<Span> {
    match &node.kind {
        NodeKind::Prefix { operand, .. } => {
            let text = Span::new(node.span.start, operand.span.start).text(source);
            Some(Span::new(node.span.start, node.span.start + text.trim_end().len()))
        }
        _ => None,
    }
}

/// Drops firings that a rule overriding theirs replaces: on the same match (`softmax(…)V` as
/// weights times values, not as a bare matrix product), or within its slot (`\log` of a
/// log-probability), or where its slot is written again when the rule says so.
fn drop_overridden(mut firings: Vec<Firing>, rules: &[Rule], source: &str) -> Vec<Firing> {
    // Only firings of rules that override others can drop one: few, so the check stays linear.
    let overriders: Vec<Firing> = firings
        .iter()
        .filter(|f| rules.get(f.rule).is_some_and(|r| !r.overrides.is_empty()))
        .cloned()
        .collect();
    if overriders.is_empty() {
        return firings;
    }
    let overridden = |f: &Firing| {
        let id = rules.get(f.rule).map(|r| r.id.as_str()).unwrap_or("");
        overriders.iter().any(|other| {
            let Some(rule) = rules.get(other.rule).filter(|r| r.overrides.iter().any(|o| o == id)) else {
                return false;
            };
            let rewritten = rule.overrides_where_written && other.slot.text(source) == f.slot.text(source);
            other.matched == f.matched
                || other.slot == f.slot
                || f.matched.lies_within(other.slot)
                || rewritten
        })
    };
    firings.retain(|f| !overridden(f));
    firings
}

/// Forms rows: a merged rule's firings make one row; firings of visible rules on one slot
/// span make one row; hidden rules make a row each.
fn rows<'a>(firings: Vec<Firing>, source: &'a str, rules: &'a [Rule]) -> Vec<RawSlot<'a>> {
    let mut rows: Vec<RawSlot> = Vec::new();
    // Rows by what joins a firing to one (its rule for merged and hidden rules, else its slot),
    // and the occurrences already recorded, so that many firings cost one pass; sized once
    // (a firing adds at most two keys and one occurrence).
    let hasher = rustc_hash::FxBuildHasher;
    let mut by_key: rustc_hash::FxHashMap<RowKey<'a>, usize> =
        std::collections::HashMap::with_capacity_and_hasher(2 * firings.len(), hasher);
    let mut recorded: rustc_hash::FxHashSet<(usize, Span)> =
        std::collections::HashSet::with_capacity_and_hasher(firings.len(), hasher);
    for firing in firings {
        let Some(rule) = rules.get(firing.rule) else { continue };
        let text = firing.slot.text(source).trim();
        let key =
            if rule.merge || !rule.visible { RowKey::Rule(&rule.id) } else { RowKey::Slot(firing.slot) };
        match by_key.get(&key).and_then(|&at| rows.get_mut(at).map(|row| (at, row))) {
            Some((at, row)) => {
                if recorded.insert((at, firing.slot)) {
                    row.occurrences.push(firing.slot);
                }
                if !row.texts.contains(&text) && (rule.merge || row.texts.is_empty()) {
                    row.texts.push(text);
                }
                if !row.rules.contains(&rule.id.as_str()) {
                    row.rules.push(&rule.id);
                }
                row.explains_notation |= !matches!(rule.matcher, Matcher::Ambiguity);
                for concept in &rule.concepts {
                    if !row.concepts.contains(&concept.as_str()) {
                        row.concepts.push(concept);
                    }
                }
            }
            None => {
                let at = rows.len();
                // A row is found by the rule that opened it (merged and hidden rules) and, when
                // visible, by its first slot.
                by_key.entry(key).or_insert(at);
                if rule.visible {
                    by_key.entry(RowKey::Slot(firing.slot)).or_insert(at);
                }
                recorded.insert((at, firing.slot));
                rows.push(RawSlot {
                    span: firing.slot,
                    occurrences: vec![firing.slot],
                    texts: vec![text],
                    concepts: rule.concepts.iter().map(String::as_str).collect(),
                    rules: vec![&rule.id],
                    visible: rule.visible,
                    rule_index: firing.rule,
                    explains: Vec::new(),
                    explains_notation: !matches!(rule.matcher, Matcher::Ambiguity),
                });
            }
        }
    }
    rows.sort_by_key(|row| (!row.visible, row.span.start, std::cmp::Reverse(row.span.end)));
    let rows = merge_repeated(rows).into_iter().map(|row| nested_occurrences_dropped(row, source));
    asked_inside_dropped(rows.collect())
}

/// One slot for one thing: an occurrence of a row that lies inside another occurrence of the
/// same row (the noise-prediction objective matched by `\epsilon - \epsilon_\theta(x_t, t)`
/// and by its `\epsilon_\theta(x_t, t)`) is part of that slot, not a slot of its own.
fn nested_occurrences_dropped<'a>(mut row: RawSlot<'a>, source: &'a str) -> RawSlot<'a> {
    if !row.visible || row.occurrences.len() < 2 {
        return row;
    }
    // By start, the longest first: a span lies inside another when one before it reaches as
    // far (one sweep, so that a row of many occurrences costs no more than sorting them).
    let mut sorted = row.occurrences.clone();
    sorted.sort_unstable_by_key(|span| (span.start, std::cmp::Reverse(span.end)));
    let mut reach: Option<Span> = None;
    let mut nested: rustc_hash::FxHashSet<Span> = rustc_hash::FxHashSet::default();
    for span in sorted {
        match reach {
            Some(outer) if outer != span && span.end <= outer.end => {
                nested.insert(span);
            }
            Some(outer) if outer.end >= span.end => {}
            _ => reach = Some(span),
        }
    }
    if nested.is_empty() {
        return row;
    }
    row.occurrences.retain(|span| !nested.contains(span));
    row.texts.clear();
    for span in &row.occurrences {
        let text = span.text(source).trim();
        if !row.texts.contains(&text) {
            row.texts.push(text);
        }
    }
    if let Some(first) = row.occurrences.first() {
        row.span = *first;
    }
    row
}

/// A concept is asked once, at the narrowest slot: a visible row whose concepts a row on a part
/// of its slot already raises is dropped (the update `\theta_{t+1} = \theta_t - \eta \nabla L`
/// says gradient descent where its `\nabla` does).
/// The dropped row's span stays explained by the row that asks its concepts.
fn asked_inside_dropped(mut rows: Vec<RawSlot<'_>>) -> Vec<RawSlot<'_>> {
    let inside = |inner: Span, outer: Span| inner.lies_within(outer) && inner != outer;
    // For each row, the row on a part of its slot that already asks all its concepts.
    let asked_by: Vec<Option<usize>> = rows
        .iter()
        .map(|row| {
            if !row.visible || row.occurrences.len() != 1 {
                return None;
            }
            rows.iter().position(|other| {
                other.visible
                    && inside(other.span, row.span)
                    && row.concepts.iter().all(|c| other.concepts.contains(c))
            })
        })
        .collect();
    for (at, by) in asked_by.iter().enumerate() {
        let span = rows.get(at).map(|row| row.span);
        if let (Some(by), Some(span)) = (by, span) {
            if let Some(asker) = rows.get_mut(*by) {
                asker.explains.push(span);
            }
        }
    }
    rows.into_iter().zip(asked_by).filter(|(_, by)| by.is_none()).map(|(row, _)| row).collect()
}

/// What joins a firing to a row: the rule, for merged and hidden rules; else the slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum RowKey<'a> {
    Rule(&'a str),
    Slot(Span),
}

/// One row per slot and concept: a visible row that says what an earlier one says of the same
/// text (`\log` twice in a binary cross entropy, `\hat{y}_i` twice) joins it as an occurrence.
fn merge_repeated(rows: Vec<RawSlot<'_>>) -> Vec<RawSlot<'_>> {
    let mut kept: Vec<RawSlot> = Vec::with_capacity(rows.len());
    let hasher = rustc_hash::FxBuildHasher;
    let mut by_saying: rustc_hash::FxHashMap<(Vec<&str>, Vec<&str>), usize> =
        std::collections::HashMap::with_capacity_and_hasher(rows.len(), hasher);
    // (kept row, start, end) of every occurrence a merged row holds.
    let occurrences = rows.iter().map(|row| row.occurrences.len()).sum();
    let mut held: rustc_hash::FxHashSet<(usize, usize, usize)> =
        std::collections::HashSet::with_capacity_and_hasher(occurrences, hasher);
    for row in rows {
        if !row.visible {
            kept.push(row);
            continue;
        }
        let saying = (row.texts.clone(), row.concepts.clone());
        match by_saying.get(&saying).copied() {
            Some(at) => {
                let Some(earlier) = kept.get_mut(at) else { continue };
                for span in row.occurrences {
                    if held.insert((at, span.start, span.end)) {
                        earlier.occurrences.push(span);
                    }
                }
            }
            None => {
                let at = kept.len();
                held.extend(row.occurrences.iter().map(|s| (at, s.start, s.end)));
                by_saying.insert(saying, at);
                kept.push(row);
            }
        }
    }
    kept
}
