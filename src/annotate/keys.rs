//! Keys: what the rule index knows of a node, so that each node is tried only against the
//! patterns that could match it.
//!
//! A key is a necessary condition of a match, never a sufficient one: if a pattern matches a
//! node, the pattern's index key is among the keys [`for_each_key`] gives for the node (a hash
//! collision only costs a wasted try). Three refinements keep the tries few on real formulas:
//! leaves by name, compound nodes (scripts, fractions, chains, fences, accents, fonts, roots)
//! by one part that is not a metavariable (`$A^\top` by its `\top`, `e^{$A}` by its `e`,
//! `\mathrm{mlp}($X)` by its `\mathrm{mlp}`, `($A \mid $B)` by its body's `\mid`), and chain
//! patterns made of metavariables only (`$A \cdot $B`) by the operator between them. A chain
//! pattern's whole run is tested in keys too ([`RunKeys`] against a chain's [`ChainKeys`]), and
//! its anchor is the least common of its keys ([`commonness`]).

use super::pattern::{metavariable, ChainView};
use crate::syntax::ast::{Delim, Font, InfixOp, Node, NodeKind};
use std::hash::{BuildHasher, Hash};
use std::mem::{discriminant, Discriminant};

/// What a node is, coarsely, as a 64-bit fingerprint: its variant, and what must be equal for
/// a match (a leaf's name, an accent's command, a font, a fence's opening delimiter); for a
/// compound node looked up by a part, the part's place and key; for a chain operand looked up
/// by its operator, the operator. Computed once and hashed no further: a fingerprint that two
/// different keys share would only cost wasted tries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Key(u64);

impl Key {
    /// A metavariable: matches anything.
    pub const ANY: Key = Key(2);

    /// The key of one kind of key (`what`: [`NAMED`], [`VARIANT`], [`PART`], [`OPERATOR`])
    /// about a variant, with a detail; bit 2 is set, so it is never [`Key::ANY`].
    fn new(what: u8, variant: u64, detail: u64) -> Key {
        let mixed = (variant ^ u64::from(what).rotate_left(56)).rotate_left(26) ^ detail;
        Key(mixed.wrapping_mul(0xf135_7aea_2e62_a9c5).rotate_left(26) | 4)
    }
}

/// A node by its variant and what must be equal (name, accent, font, fence).
const NAMED: u8 = 1;
/// Any other node, by its variant.
const VARIANT: u8 = 2;
/// A compound node by one of its parts.
const PART: u8 = 3;
/// A chain operand by the operator before it.
const OPERATOR: u8 = 4;

/// A small, allocation-free hash (FxHash) of anything hashable.
fn hash_of(value: impl Hash) -> u64 {
    rustc_hash::FxBuildHasher.hash_one(value)
}

/// What of a node a pattern's root must equal for a match without leniency: its variant and,
/// for letters and numbers (with their font), names, accents, fonts and fences, which one; for
/// a chain, its first operator (a nested chain pattern matches a chain's first operands,
/// operator by operator). [`key_of`] hashes it, [`same_head`] compares it exactly, so the two
/// cannot disagree.
#[derive(PartialEq)]
enum Head<'n> {
    Any,
    Named(Discriminant<NodeKind>, Detail<'n>),
    Variant(Discriminant<NodeKind>),
}

/// What must be equal besides the variant.
#[derive(PartialEq, Hash)]
enum Detail<'n> {
    Name(&'n str),
    Letter(&'n str, Font),
    Word(WordName<'n>),
    Font(Font),
    Delim(Delim),
    Operator(Operator<'n>),
}

/// A chain's first operator in a key: equal operators hash alike ([`operator_key`]), and `\cdot`
/// as side by side, since a pattern's product side by side matches one written with `\cdot`
/// (`op_agrees` in [`super::pattern`]).
struct Operator<'n>(Option<&'n InfixOp>);

impl Operator<'_> {
    fn canonical(&self) -> Option<&InfixOp> {
        match self.0 {
            Some(op) if super::pattern::is_cdot(op) => Some(&InfixOp::Juxt),
            op => op,
        }
    }
}

impl PartialEq for Operator<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.canonical() == other.canonical()
    }
}

impl Hash for Operator<'_> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.canonical().map(operator_key).hash(state);
    }
}

// Inlined: built and hashed in place, a key costs a third of a call that returns a head.
#[inline(always)]
fn head(node: &Node) -> Head<'_> {
    let named = |detail| Head::Named(discriminant(&node.kind), detail);
    match &node.kind {
        // The parser builds no chain without a link (`shape::chain`); the first operator is
        // what any chain pattern's operators begin with.
        NodeKind::Chain { rest, .. } => named(Detail::Operator(Operator(rest.first().map(|l| &l.op)))),
        NodeKind::Unknown { .. } if metavariable(node).is_some() => Head::Any,
        // Letters and numbers match only themselves in their font (`\mathbb{1}` is not `1`), but a
        // pattern's 1 matches the bold vector of ones (`pattern.rs`), so both have 1's key.
        NodeKind::Number { text, font: Font::Bold } if text.as_str() == "1" => {
            named(Detail::Letter("1", Font::Normal))
        }
        NodeKind::Symbol { name, font } => named(Detail::Letter(symbol_synonym(name), *font)),
        NodeKind::Number { text, font } => named(Detail::Letter(text.as_str(), *font)),
        NodeKind::LargeOp { name } | NodeKind::Accent { accent: name, .. } => {
            named(Detail::Name(name.as_str()))
        }
        NodeKind::Word { text, .. } => named(Detail::Word(WordName(text.as_str()))),
        NodeKind::Styled { font, .. } => named(Detail::Font(*font)),
        NodeKind::Fenced { open, .. } => named(Detail::Delim(*open)),
        kind => Head::Variant(discriminant(kind)),
    }
}

/// A word's text in a key: a name of three letters or more without its case, so that a
/// pattern written in lower case finds the word however a paper cases it ([`same_word_text`]
/// decides); a shorter one exactly.
#[derive(Clone, Copy)]
struct WordName<'n>(&'n str);

impl PartialEq for WordName<'_> {
    fn eq(&self, other: &Self) -> bool {
        let (a, b) = (synonym(self.0), synonym(other.0));
        if long_enough_to_fold(a) {
            a.eq_ignore_ascii_case(b)
        } else {
            a == b
        }
    }
}

impl Hash for WordName<'_> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        let text = synonym(self.0);
        if long_enough_to_fold(text) {
            text.bytes().for_each(|b| state.write_u8(b.to_ascii_lowercase()));
            state.write_u8(0xff);
        } else {
            text.hash(state);
        }
    }
}

/// The one name of operator names papers write for the same function: `\ln` is `\log` (a
/// pattern written with either finds both; the base a paper means is the same or does not
/// change what the reader must know). Spaces at either end of a word are not part of it
/// (`\text{subject to }` is `\text{subject to}`).
fn synonym(text: &str) -> &str {
    let text = text.trim();
    match text {
        "ln" => "log",
        _ => text,
    }
}

/// The one name of symbols papers write for the same mark: `\intercal` is the transpose `\top`
/// (a pattern written with `^\top` finds `K_n^\intercal`).
pub(super) fn symbol_synonym(name: &str) -> &str {
    match name {
        "intercal" => "top",
        _ => name,
    }
}

/// Whether a word is long enough (three letters or more) for its case not to count when a
/// pattern writes it in lower case ([`same_word_text`]).
fn long_enough_to_fold(text: &str) -> bool {
    text.len() >= 3
}

/// Whether a pattern's word matches a formula's word. A pattern word of three letters or more
/// written all in lower case matches the word in any case (papers write `\mathrm{softmax}`,
/// `\mathrm{Softmax}` and `\mathrm{SOFTMAX}` for one function); a pattern word with a capital
/// matches only itself, where the case carries the meaning (`\mathrm{Exp}`, the exponential
/// distribution, is not `\exp`; `\mathrm{Cat}`, the categorical, is not `\mathrm{cat}`), and
/// so does a shorter one (`\ln` is not LayerNorm's `\mathrm{LN}`).
pub(super) fn same_word_text(pattern: &str, target: &str) -> bool {
    let (pattern, target) = (synonym(pattern), synonym(target));
    if long_enough_to_fold(pattern) && !pattern.bytes().any(|b| b.is_ascii_uppercase()) {
        pattern.eq_ignore_ascii_case(target)
    } else {
        pattern == target
    }
}

/// The key of a node itself, as patterns are compared with it: the part that must be equal.
pub fn key_of(node: &Node) -> Key {
    match head(node) {
        Head::Any => Key::ANY,
        Head::Named(variant, detail) => Key::new(NAMED, hash_of(variant), hash_of(detail)),
        Head::Variant(variant) => Key::new(VARIANT, hash_of(variant), 0),
    }
}

/// Whether two nodes have the same key, exactly (a key is a hash).
pub fn same_head(a: &Node, b: &Node) -> bool {
    head(a) == head(b)
}

/// The key of the operator before a chain operand.
pub fn operator_key(op: &InfixOp) -> Key {
    let text = match op {
        InfixOp::Relation(text) => same_relation(text),
        InfixOp::Separator(text) | InfixOp::Additive(text) | InfixOp::Multiplicative(text) => text.as_str(),
        InfixOp::Stacked(stacked) => stacked.relation.as_str(),
        InfixOp::Juxt => "",
    };
    Key::new(OPERATOR, hash_of(discriminant(op)), hash_of(text))
}

/// The one spelling a relation is matched by: the conditioning bar written `|`, `\vert` or
/// `\mid` is one (`\pi(a|s)` matches a pattern written `\pi($A \mid $S)`).
pub(super) fn same_relation(text: &str) -> &str {
    match text {
        "|" | "\\vert" | "\\mid" => "\\mid",
        other => other,
    }
}

/// The key of the product `\cdot`, which a pattern's product side by side admits.
fn cdot_key() -> Key {
    operator_key(&InfixOp::Multiplicative("\\cdot".into()))
}

/// The parts of a compound node that index it, by place: a script's base, superscript and
/// subscript; a fraction's numerator and denominator; a chain's first operand; the body of a
/// fence, an accent or a font; a root's radicand; a sign's operand. A pattern matches such a node only where
/// each of these parts matches the node's part there (`same_shape` in [`super::pattern`]).
fn parts(node: &Node) -> [Option<&Node>; 3] {
    match &node.kind {
        NodeKind::Scripts { base, sub, sup, .. } => [Some(base), sup.as_deref(), sub.as_deref()],
        NodeKind::Frac { num, den } => [Some(num), Some(den), None],
        NodeKind::Chain { first: part, .. }
        | NodeKind::Fenced { body: part, .. }
        | NodeKind::Accent { body: part, .. }
        | NodeKind::Styled { body: part, .. }
        | NodeKind::Sqrt { radicand: part, .. }
        | NodeKind::Prefix { operand: part, .. } => [Some(part), None, None],
        _ => [None, None, None],
    }
}

/// The key a pattern is indexed under: for a compound node, its first part that is not a
/// metavariable; otherwise its own key.
pub fn index_key(pattern: &Node) -> Key {
    let own = key_of(pattern);
    let by_part = parts(pattern).into_iter().enumerate().find_map(|(place, part)| {
        let key = key_of(part?);
        (key != Key::ANY).then(|| part_key(own, place, key))
    });
    by_part.unwrap_or(own)
}

/// How common a node with the index key of the pattern node `pattern` is in formulas, roughly:
/// from 0 (a named operator or function, `\log`, `\mathrm{softmax}`) to 5 (a chain of
/// juxtaposed operands), for a chain pattern's choice of anchor
/// ([`super::pattern::Pattern::chain_anchor`]). A compound pattern indexed by a part is as
/// common as the part at most.
pub fn commonness(pattern: &Node) -> u8 {
    let own = head_commonness(pattern);
    match parts(pattern).into_iter().flatten().find(|part| key_of(part) != Key::ANY) {
        Some(part) => own.min(head_commonness(part)),
        None => own,
    }
}

/// How common a node with the key of `node` ([`key_of`]) is, on [`commonness`]'s scale: a
/// chain as its first operator.
fn head_commonness(node: &Node) -> u8 {
    match &node.kind {
        NodeKind::Word { .. } | NodeKind::LargeOp { .. } => 0,
        NodeKind::Symbol { name, .. } | NodeKind::Accent { accent: name, .. }
            if name.chars().nth(1).is_some() =>
        {
            1
        }
        NodeKind::Accent { .. } | NodeKind::Styled { .. } => 2,
        NodeKind::Symbol { .. } | NodeKind::Number { .. } => 3,
        NodeKind::Chain { rest, .. } => rest.first().map_or(5, |link| operator_commonness(&link.op)),
        _ => 4,
    }
}

/// How common the operator `op` is between a chain's operands, on [`commonness`]'s scale:
/// side by side everywhere, `+`, `-`, `=` and `,` often, any other rarely.
pub fn operator_commonness(op: &InfixOp) -> u8 {
    match op {
        InfixOp::Juxt => 5,
        InfixOp::Separator(text) | InfixOp::Relation(text) | InfixOp::Additive(text)
            if matches!(text.as_str(), "," | "=" | "+" | "-") =>
        {
            3
        }
        _ => 1,
    }
}

/// The key of a compound node whose own key is `own` by its part at `place` (see [`parts`]),
/// whose key is `key`.
fn part_key(own: Key, place: usize, key: Key) -> Key {
    Key::new(PART, hash_of((own.0, place)), key.0)
}

/// Calls `visit` with every key under which a pattern could match `node`: the keys of the
/// node and of the base of its scripts or the operand of its sign (the leniencies of
/// matching), and for compound ones among them the keys of their parts.
pub fn for_each_key(node: &Node, mut visit: impl FnMut(Key)) {
    for_each_inner(node, |inner| {
        let own = key_of(inner);
        visit(own);
        visit_call_key(inner, &mut visit);
        for (place, part) in parts(inner).into_iter().enumerate() {
            let Some(part) = part else { continue };
            for_each_inner(part, |within| {
                visit(part_key(own, place, key_of(within)));
                visit_call_key(within, |key| visit(part_key(own, place, key)));
            });
        }
        if let Some((operand, operators)) = after_limit_prefix(inner) {
            for next in operators.into_iter().flatten() {
                let detail = hash_of(Detail::Operator(Operator(Some(next))));
                let own = Key::new(NAMED, hash_of(discriminant(&inner.kind)), detail);
                visit(own);
                for_each_inner(operand, |within| visit(part_key(own, 0, key_of(within))));
            }
        }
    });
}

/// A chain that begins with operators with limits (`\max_w \mathbb{E}[f] - …`): the operand
/// after them, the operator after that operand and, where the two are a name and its
/// parenthesis, the operator after the call: the keys under which a nested chain pattern
/// matches what they scope over (`after_limits` in [`super::pattern`]).
fn after_limit_prefix(node: &Node) -> Option<(&Node, [Option<&InfixOp>; 2])> {
    let NodeKind::Chain { first, rest } = &node.kind else { return None };
    if !super::pattern::is_limit_operator(first) {
        return None;
    }
    let mut links = rest.iter();
    loop {
        let link = links.next()?;
        if !matches!(link.op, InfixOp::Juxt) {
            return None;
        }
        if !super::pattern::is_limit_operator(&link.operand) {
            let next = links.next();
            let after_call = next
                .filter(|l| matches!(l.op, InfixOp::Juxt) && super::pattern::is_parenthesis(&l.operand))
                .and_then(|_| links.next())
                .map(|l| &l.op);
            return Some((&link.operand, [next.map(|l| &l.op), after_call]));
        }
    }
}

/// A metavariable first in a nested chain pattern may stand for a call as written (`$Z /
/// \tau` on `\mathrm{sim}(z_i, z_j) / \tau`): such a chain is also keyed by the operator after
/// the call.
fn visit_call_key(node: &Node, mut visit: impl FnMut(Key)) {
    if let Some(op) = operator_after_first_call(node) {
        visit(Key::new(
            NAMED,
            hash_of(discriminant(&node.kind)),
            hash_of(Detail::Operator(Operator(Some(op)))),
        ));
    }
}

/// The operator after a chain's first two operands where they are a name and the parenthesis
/// it may be applied to, side by side (`\mathrm{sim}(z_i, z_j) / \tau`: the `/`).
fn operator_after_first_call(node: &Node) -> Option<&InfixOp> {
    let NodeKind::Chain { rest, .. } = &node.kind else { return None };
    match rest.as_slice() {
        [call, after, ..]
            if matches!(call.op, InfixOp::Juxt) && super::pattern::is_parenthesis(&call.operand) =>
        {
            Some(&after.op)
        }
        _ => None,
    }
}

/// Calls `visit` with `node`, the base of its scripts, the operand of its sign or the body of
/// its labelling brace, their base, operand or body, and so on: the nodes a pattern is compared
/// with through the leniencies.
fn for_each_inner<'t>(node: &'t Node, mut visit: impl FnMut(&'t Node)) {
    let mut current = node;
    visit(current);
    while let NodeKind::Scripts { base: inner, .. }
    | NodeKind::Prefix { operand: inner, .. }
    | NodeKind::Annotated { body: inner, .. } = &current.kind
    {
        visit(inner);
        current = inner;
    }
}

/// A set of keys as 256 bits, one for each key (two keys may share one): what keys a formula
/// has anywhere ([`formula_keys`]), or what keys a pattern needs there to match anywhere
/// ([`required_keys`]). A pattern whose needs a formula does not cover never matches in it, so
/// the walk does not try it (a shared bit only costs a wasted try).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct KeySet([u64; 4]);

impl KeySet {
    /// Every key: a formula whose keys are not all known has all of them.
    pub const ALL: KeySet = KeySet([u64::MAX; 4]);

    /// Adds `key`.
    pub fn insert(&mut self, key: Key) {
        let bit = (key.0 >> 24) as usize & 255;
        if let Some(word) = self.0.get_mut(bit >> 6) {
            *word |= 1 << (bit & 63);
        }
    }

    /// Whether every key of `needed` is in this set.
    pub fn covers(&self, needed: &KeySet) -> bool {
        self.0.iter().zip(&needed.0).all(|(has, needs)| needs & !has == 0)
    }

    /// The keys in both sets.
    pub fn intersection(&self, other: &KeySet) -> KeySet {
        let mut both = *self;
        both.0.iter_mut().zip(&other.0).for_each(|(a, b)| *a &= b);
        both
    }
}

/// Every key a pattern could need in the formula `root` ([`required_keys`]): the key
/// ([`key_of`]) of each of its nodes but chains, and of each operator between a chain's
/// operands. [`KeySet::ALL`] for a tree deeper than a walk goes.
pub fn formula_keys(root: &Node) -> KeySet {
    let mut set = KeySet::default();
    if add_formula_keys(root, &mut set, 0) {
        set
    } else {
        KeySet::ALL
    }
}

/// Adds the keys of `node` and all below it to `set` ([`formula_keys`]); false where the tree
/// goes deeper than a walk.
fn add_formula_keys(node: &Node, set: &mut KeySet, depth: usize) -> bool {
    if depth > crate::syntax::depth::WALK_GUARD {
        return false;
    }
    match &node.kind {
        NodeKind::Chain { rest, .. } => rest.iter().for_each(|link| set.insert(operator_key(&link.op))),
        _ => set.insert(key_of(node)),
    }
    let mut whole = true;
    node.for_each_child(|child| whole &= add_formula_keys(child, set, depth + 1));
    whole
}

/// The keys a formula must have for the pattern `pattern` to match any of its nodes
/// (`super::pattern::matches`): the key of each of its nodes that is not a metavariable, but
/// of no chain (a nested chain pattern may match after a prefix of operators with limits), and
/// of each operator between a chain's operands that is not side by side (a product side by
/// side may be written with `\cdot`). A match compares every such node with a node of the
/// formula of the same key, through the leniencies too (they compare it with a part).
pub fn required_keys(pattern: &Node) -> KeySet {
    let mut set = KeySet::default();
    add_required(pattern, &mut set, 0);
    set
}

/// The keys a chain pattern whose operands, each with the operator before it, are `links`
/// needs in a formula to match a run of its chains ([`required_keys`]).
pub fn run_required_keys<'p>(links: impl Iterator<Item = (Option<&'p InfixOp>, &'p Node)>) -> KeySet {
    let mut set = KeySet::default();
    add_required_links(links, &mut set, 0);
    set
}

/// Adds to `set` the keys [`run_required_keys`] gives for `links`.
fn add_required_links<'p>(
    links: impl Iterator<Item = (Option<&'p InfixOp>, &'p Node)>,
    set: &mut KeySet,
    depth: usize,
) {
    for (op, operand) in links {
        if let Some(op) = op.filter(|op| !matches!(op, InfixOp::Juxt)) {
            set.insert(operator_key(op));
        }
        add_required(operand, set, depth);
    }
}

/// Adds to `set` the keys [`required_keys`] gives for `pattern`.
fn add_required(pattern: &Node, set: &mut KeySet, depth: usize) {
    if depth > crate::syntax::depth::WALK_GUARD || metavariable(pattern).is_some() {
        return;
    }
    if let NodeKind::Chain { first, rest } = &pattern.kind {
        let links = rest.iter().map(|link| (Some(&link.op), &link.operand));
        add_required_links(std::iter::once((None, first.as_ref())).chain(links), set, depth + 1);
        return;
    }
    set.insert(key_of(pattern));
    pattern.for_each_child(|child| add_required(child, set, depth + 1));
}

/// How many 64-bit words the filter of a [`KeyMap`] has.
const FILTER_WORDS: usize = 16;

/// A map from keys with a bit filter in front: most of a formula's keys (`x`, `2`, `i`) file
/// no pattern, and the filter turns their lookups away for the price of one hash and a bit
/// test.
#[derive(Debug, Clone)]
pub struct KeyMap<V> {
    map: rustc_hash::FxHashMap<Key, V>,
    filter: [u64; FILTER_WORDS],
}

impl<V> Default for KeyMap<V> {
    fn default() -> Self {
        KeyMap { map: rustc_hash::FxHashMap::default(), filter: [0; FILTER_WORDS] }
    }
}

impl<V: Default> KeyMap<V> {
    /// The value under `key`, inserted as the default if there is none.
    pub fn entry(&mut self, key: Key) -> &mut V {
        let (word, bit) = filter_place(key);
        if let Some(word) = self.filter.get_mut(word) {
            *word |= bit;
        }
        self.map.entry(key).or_default()
    }
}

impl<V> KeyMap<V> {
    /// The value under `key`, if any.
    pub fn get(&self, key: Key) -> Option<&V> {
        let (word, bit) = filter_place(key);
        if self.filter.get(word).is_none_or(|word| word & bit == 0) {
            return None;
        }
        self.map.get(&key)
    }

    /// Removes and returns the value under `key`.
    pub fn remove(&mut self, key: Key) -> Option<V> {
        self.map.remove(&key)
    }
}

/// Where a key's bit is in the filter: a word and a mask (the key is a hash already).
fn filter_place(key: Key) -> (usize, u64) {
    let bit = (key.0 >> 40) as usize % (FILTER_WORDS * 64);
    (bit / 64, 1 << (bit % 64))
}

/// The keys of a chain's operands and of the operators before them, worked out once per
/// chain node (a walk keeps one and refills it, so that no chain allocates): what
/// [`RunKeys::admits`] compares a chain pattern's run with.
#[derive(Debug, Default)]
pub struct ChainKeys {
    /// Every operand's keys ([`for_each_key`]), one operand after the other.
    keys: Vec<Key>,
    /// Where each operand's keys end in `keys`.
    ends: Vec<usize>,
    /// The key of the operator before each operand (none before the first).
    operators: Vec<Option<Key>>,
    /// The keys of the operands of each operand that is a chain ([`operand_keys`]), one
    /// operand after the other.
    nested: Vec<Key>,
    /// Where each operand's nested keys end in `nested`.
    nested_ends: Vec<usize>,
    /// For each operand that is itself a chain, where the keys of each of its operands end in
    /// its nested keys (counted from their start), one operand after the other: so that the
    /// walk of that chain takes its operands' keys from here instead of working them out again.
    part_ends: Vec<usize>,
    /// Where each operand's `part_ends` end.
    part_ends_ends: Vec<usize>,
    /// Each operand's keys and nested keys as two [`mask`]s, tested before the lists.
    masks: Vec<(u64, u64)>,
}

impl ChainKeys {
    /// Makes these the keys of the chain `view` shows; `outer` holds them already where the
    /// chain is the operand at a position of a chain whose keys are those
    /// ([`ChainKeys::operand_parts`]).
    pub fn fill(&mut self, view: &ChainView, outer: Option<(&ChainKeys, usize)>) {
        self.keys.clear();
        self.ends.clear();
        self.operators.clear();
        self.nested.clear();
        self.nested_ends.clear();
        self.part_ends.clear();
        self.part_ends_ends.clear();
        self.masks.clear();
        let known = outer
            .and_then(|(outer, position)| outer.operand_parts(position))
            .filter(|(_, ends)| ends.len() == view.links().count());
        for (position, (op, operand)) in view.links().enumerate() {
            let (mut own, mut nested) = (0, 0);
            match known {
                Some((keys, ends)) => {
                    let keys = part_of(keys, ends, position);
                    own = keys.iter().fold(0, |all, &key| all | mask(key));
                    self.keys.extend_from_slice(keys);
                }
                None => for_each_key(operand, |key| {
                    own |= mask(key);
                    self.keys.push(key);
                }),
            }
            self.ends.push(self.keys.len());
            self.operators.push(op.map(operator_key));
            let start = self.nested.len();
            if let NodeKind::Chain { first, rest } = &operand.kind {
                // What `operand_keys` gives for a chain, with where each operand's keys end.
                for part in std::iter::once(first.as_ref()).chain(rest.iter().map(|link| &link.operand)) {
                    for_each_key(part, |key| {
                        nested |= mask(key);
                        self.nested.push(key);
                    });
                    self.part_ends.push(self.nested.len() - start);
                }
            } else {
                operand_keys(operand, |key| {
                    nested |= mask(key);
                    self.nested.push(key);
                });
            }
            self.nested_ends.push(self.nested.len());
            self.part_ends_ends.push(self.part_ends.len());
            self.masks.push((own, nested));
        }
    }

    /// For the operand at `position` where it is a chain: its operands' keys, one operand
    /// after the other, and where each one's end.
    pub fn operand_parts(&self, position: usize) -> Option<(&[Key], &[usize])> {
        let ends = part_of(&self.part_ends, &self.part_ends_ends, position);
        (!ends.is_empty()).then(|| (self.nested(position), ends))
    }

    /// How many operands the chain has.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether the chain has no operands (never, once filled from a chain).
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The keys of the operand at `position`.
    pub fn operand(&self, position: usize) -> &[Key] {
        part_of(&self.keys, &self.ends, position)
    }

    /// The keys of the operands of the operand at `position`, if it is a chain
    /// ([`operand_keys`]).
    fn nested(&self, position: usize) -> &[Key] {
        part_of(&self.nested, &self.nested_ends, position)
    }

    /// The masks of the operand at `position`'s keys and nested keys.
    fn masks(&self, position: usize) -> (u64, u64) {
        self.masks.get(position).copied().unwrap_or_default()
    }

    /// The key of the operator before the operand at `position`.
    pub fn operator(&self, position: usize) -> Option<Key> {
        self.operators.get(position).copied().flatten()
    }
}

/// The keys of the operand at `position`, of `keys` that hold every operand's one after the
/// other, each ending where `ends` says.
fn part_of<'k, T>(keys: &'k [T], ends: &[usize], position: usize) -> &'k [T] {
    let start = match position.checked_sub(1) {
        Some(previous) => ends.get(previous).copied().unwrap_or(0),
        None => 0,
    };
    let end = ends.get(position).copied().unwrap_or(start);
    keys.get(start..end).unwrap_or(&[])
}

/// What a chain pattern asks of a run of a chain's operands, in keys: its length, the
/// operators between its operands, and the index key of each operand that is not a
/// metavariable. A necessary condition of a match, like a key.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RunKeys {
    /// The operands' number.
    len: usize,
    /// The key of the operator before each operand but the first, and the key of another
    /// operator the target may write there (`\cdot` for a product side by side).
    operators: Vec<(Option<Key>, Option<Key>)>,
    /// (position, index key) of the operands that are not metavariables.
    operands: Vec<(usize, Key)>,
    /// (position, index key) of the operands of the operands that are chains, those that are
    /// not metavariables: a nested chain pattern (`$F($A)` in `$X + $F($A)`) matches only a
    /// chain each of whose operands it matches has those keys ([`operand_keys`]).
    nested: Vec<(usize, Key)>,
    /// (position, mask of the operand's keys, mask of its nested keys) of the operands with
    /// keys or nested keys: the same test as `operands` and `nested`, in [`mask`]s.
    masks: Vec<(usize, u64, u64)>,
}

impl RunKeys {
    /// The keys of a chain pattern whose operands, each with the operator before it, are
    /// `links`.
    pub fn new<'p>(links: impl Iterator<Item = (Option<&'p InfixOp>, &'p Node)>) -> RunKeys {
        let mut run = RunKeys::default();
        for (position, (op, operand)) in links.enumerate() {
            if position > 0 {
                let lenient = op.filter(|op| matches!(op, InfixOp::Juxt)).map(|_| cdot_key());
                run.operators.push((op.map(operator_key), lenient));
            }
            let key = index_key(operand);
            if key != Key::ANY {
                run.operands.push((position, key));
            }
            if let NodeKind::Chain { first, rest } = &operand.kind {
                let inner = std::iter::once(first.as_ref()).chain(rest.iter().map(|link| &link.operand));
                let keys = inner.map(index_key).filter(|key| *key != Key::ANY);
                run.nested.extend(keys.map(|key| (position, key)));
            }
            run.len += 1;
        }
        for position in 0..run.len {
            let own = run.operands.iter().filter(|(at, _)| *at == position).map(|&(_, key)| mask(key));
            let nested = run.nested.iter().filter(|(at, _)| *at == position).map(|&(_, key)| mask(key));
            let (own, nested) = (own.fold(0, |a, b| a | b), nested.fold(0, |a, b| a | b));
            if own | nested != 0 {
                run.masks.push((position, own, nested));
            }
        }
        run
    }

    /// Whether the run of `chain` from `offset` could match: it fits, its operators have the
    /// pattern's keys, and each of its operands has the key the pattern's operand is indexed
    /// under among its keys.
    pub fn admits(&self, chain: &ChainKeys, offset: usize) -> bool {
        offset + self.len <= chain.len()
            && self.masks.iter().all(|&(at, own, nested)| {
                let (has, has_nested) = chain.masks(offset + at);
                has & own == own && has_nested & nested == nested
            })
            && self.operators.iter().enumerate().all(|(at, (key, lenient))| {
                let written = chain.operator(offset + 1 + at);
                written == *key || (lenient.is_some() && written == *lenient)
            })
            && self.operands.iter().all(|&(at, key)| chain.operand(offset + at).contains(&key))
            && self.nested.iter().all(|&(at, key)| chain.nested(offset + at).contains(&key))
    }
}

/// One bit for `key`, of 64: a set of keys as a mask holds the bits of its keys, so that a
/// set lacking a key's bit lacks the key (a shared bit only costs a test of the list).
fn mask(key: Key) -> u64 {
    1 << (key.0 >> 58)
}

/// Calls `visit` with the keys ([`for_each_key`]) of the operands of `node` where it is a
/// chain, or of the chain its scripts or sign are on (what a nested chain pattern may match
/// through the leniencies of matching).
fn operand_keys(node: &Node, mut visit: impl FnMut(Key)) {
    for_each_inner(node, |inner| {
        if let NodeKind::Chain { first, rest } = &inner.kind {
            for_each_key(first, &mut visit);
            rest.iter().for_each(|link| for_each_key(&link.operand, &mut visit));
        }
    });
}
