//! Patterns: LaTeX with metavariables, matched against trees.
//!
//! A pattern is parsed by the same parser as formulas, after each `$NAME` is replaced by a
//! placeholder command; a placeholder matches any subtree and binds it (a name used twice must
//! bind equal trees). Matching is structural with five leniencies that make short patterns
//! useful: a chain pattern matches a contiguous run of a chain's operands at its top level;
//! a pattern without scripts matches a node with scripts by its base; a missing sub- or
//! superscript in a pattern matches any; a pattern without a sign matches a signed operand; a
//! nested chain pattern also matches after a prefix of operators with limits (`\max_w`), whose
//! scope is what follows.
//! Word styles are ignored (`\mathrm{softmax}` matches `\operatorname{softmax}`), fonts are not,
//! except that a pattern's 1 matches the bold vector of ones. The conditioning bar is one
//! relation however it is spelled (`|`, `\vert`, `\mid`).
//! A run never splits a call from its argument; a metavariable at a run's end that a sign
//! joins to the rest of the match takes the whole of what the meaning layer reads as one
//! operand there ([`Tie`]: a run side by side that a sign takes, an operator name with its
//! operand).

pub use super::bindings::{Bindings, Match, MAX_METAVARIABLES};
pub use super::chain_view::{ChainView, Tie};
use super::keys::{
    commonness, index_key, operator_commonness, operator_key, required_keys, run_required_keys, same_head,
    Key, KeySet, RunKeys,
};
use crate::syntax::ast::{Delim, Font, InfixOp, Node, NodeKind, Span, WordStyle};

const PLACEHOLDER: &str = "\\eqmapmeta";

/// A compiled pattern.
#[derive(Debug, Clone)]
pub struct Pattern {
    /// The pattern as written.
    pub source: String,
    root: Node,
    /// For a chain pattern: its operands with the operator before each.
    operands: Vec<(Option<InfixOp>, Node)>,
    /// The keys a formula must have for this pattern to match in it.
    needs: KeySet,
    /// Whether a parenthesis of the pattern holds a conditioning bar (`$P($A \mid $B)`).
    bar_in_parenthesis: bool,
}

impl Pattern {
    /// Compiles `source`, a LaTeX pattern with `$NAME` metavariables.
    pub fn compile(source: &str) -> Result<Pattern, String> {
        let mut latex = String::with_capacity(source.len() + 16);
        let mut chars = source.chars().peekable();
        while let Some(c) = chars.next() {
            if c != '$' {
                latex.push(c);
                continue;
            }
            latex.push_str(PLACEHOLDER);
            let mut named = false;
            while let Some(&next) = chars.peek().filter(|n| n.is_ascii_alphabetic()) {
                latex.push(next);
                chars.next();
                named = true;
            }
            if !named {
                return Err(format!("`$` without a name in pattern `{source}`"));
            }
            latex.push(' ');
        }
        let mut names: Vec<&str> =
            latex.split(PLACEHOLDER).skip(1).filter_map(|r| r.split(' ').next()).collect();
        names.sort_unstable();
        names.dedup();
        if names.len() > MAX_METAVARIABLES {
            return Err(format!("pattern `{source}` names more than {MAX_METAVARIABLES} metavariables"));
        }
        let parsed = crate::syntax::parse(&latex)
            .map_err(|e| format!("pattern `{source}`: {}", e.message(crate::Lang::En)))?;
        let operands = match &parsed.root.kind {
            NodeKind::Chain { first, rest } => std::iter::once((None, first.as_ref().clone()))
                .chain(rest.iter().map(|l| (Some(l.op.clone()), l.operand.clone())))
                .collect(),
            _ => Vec::new(),
        };
        let bar_in_parenthesis = holds_bar_in_parenthesis(&parsed.root);
        let mut pattern = Pattern {
            source: source.to_string(),
            root: parsed.root,
            operands,
            needs: KeySet::ALL,
            bar_in_parenthesis,
        };
        pattern.needs = if pattern.is_chain() {
            run_required_keys(pattern.links())
        } else {
            required_keys(&pattern.root)
        };
        Ok(pattern)
    }

    /// Whether a parenthesis of the pattern holds a conditioning bar (`$P($A \mid $B)`): its
    /// match is a condition only where the meaning layer reads one there.
    pub fn conditions_in_parenthesis(&self) -> bool {
        self.bar_in_parenthesis
    }

    /// The first match of this pattern at `node`, starting from `start`, splitting nothing:
    /// the first run of a chain for a chain pattern, the whole node for any other. `view` is
    /// refilled, so that a search allocates it once.
    fn first_match<'t>(
        &'t self,
        node: &'t Node,
        start: &Bindings<'t>,
        view: &mut ChainView<'t>,
    ) -> Option<Match<'t>> {
        if !self.is_chain() {
            return self.whole_match(node, start);
        }
        if !view.fill(node, &|_, _| Tie::Apart) {
            return None;
        }
        let view = &*view;
        (0..view.operands.len()).find_map(|offset| {
            let mut bindings = *start;
            let span = self.window_bindings(view, offset, &mut bindings)?;
            self.run_match(view, offset, span, bindings)
        })
    }

    /// Whether the pattern is a power of Euler's number (`e^{$A}`): its match is one only where
    /// the meaning layer reads a power, not a letter e with a step above (`e^{(k)}`, the error
    /// at step k).
    pub fn raises_e(&self) -> bool {
        match &self.root.kind {
            NodeKind::Scripts { base, sup: Some(_), .. } => {
                matches!(&base.kind, NodeKind::Symbol { name, font: Font::Normal } if name.as_str() == "e")
            }
            _ => false,
        }
    }

    /// Whether the pattern is a metavariable with a parenthesis above (`$F^{($N)}`): its match is
    /// one only where the meaning layer reads a derivative's order there (`f^{(k)}` beside
    /// `k!`), not a layer or a sample (`h^{(l)}`, `x^{(i)}`).
    pub fn raises_to_an_order(&self) -> bool {
        match &self.root.kind {
            NodeKind::Scripts { base, sup: Some(sup), .. } => {
                metavariable(base).is_some()
                    && matches!(sup.kind, NodeKind::Fenced { open: Delim::Paren, .. })
            }
            _ => false,
        }
    }

    /// Whether the pattern relates two sides by `\sim` (`$X \sim $D`): its match is a draw from
    /// a law only where the meaning layer reads one ([`crate::meaning::tilde_reading`]), not
    /// where `\sim` compares the growth of two sizes (`f(n) \sim n \log n`), which only a rule
    /// marked `growth` matches.
    pub fn draws(&self) -> bool {
        self.operands.iter().any(|(op, _)| matches!(op, Some(InfixOp::Relation(r)) if r == "\\sim"))
    }

    /// Whether this pattern is a chain pattern, matched against runs of a chain's operands.
    pub fn is_chain(&self) -> bool {
        !self.operands.is_empty()
    }

    /// For a chain pattern: how many operands it has (none for another pattern).
    pub fn operand_count(&self) -> usize {
        self.operands.len()
    }

    /// For a chain pattern: the least common of its keys ([`commonness`]), the first of them
    /// by position where several are as common, with its position: an operand's index key
    /// (never a metavariable's), or the operator before an operand. A run can only match where
    /// the chain has that key at that position, so the rule index looks runs up by it instead
    /// of trying every run.
    pub fn chain_anchor(&self) -> Option<(usize, Key)> {
        let operands = self.operands.iter().enumerate().filter_map(|(at, (_, node))| {
            let key = index_key(node);
            (key != Key::ANY).then(|| (commonness(node), at, key))
        });
        // Side by side is no anchor: a target may write that product with `\cdot` instead.
        let operators = self.operands.iter().enumerate().skip(1).filter_map(|(at, (op, _))| {
            let op = op.as_ref().filter(|op| !matches!(op, InfixOp::Juxt))?;
            Some((operator_commonness(op), at, operator_key(op)))
        });
        operands.chain(operators).min_by_key(|&(common, at, _)| (common, at)).map(|(_, at, key)| (at, key))
    }

    /// The keys a formula must have for this pattern to match in it
    /// ([`super::keys::required_keys`], [`super::keys::run_required_keys`]).
    pub fn needs(&self) -> &KeySet {
        &self.needs
    }

    /// What a run must have, in keys, for this chain pattern to match it ([`RunKeys::admits`]).
    pub fn run_keys(&self) -> RunKeys {
        RunKeys::new(self.links())
    }

    /// A chain pattern's operands with the operator before each (none before the first).
    pub(super) fn links(&self) -> impl Iterator<Item = (Option<&InfixOp>, &Node)> {
        self.operands.iter().map(|(op, node)| (op.as_ref(), node))
    }

    /// The match of this non-chain pattern on the whole of `node`, if any.
    pub fn whole_match<'t>(&'t self, node: &'t Node, start: &Bindings<'t>) -> Option<Match<'t>> {
        let mut bindings = *start;
        self.whole_bindings(node, &mut bindings).then(|| Match {
            span: node.span,
            nodes: vec![node],
            bindings,
        })
    }

    /// Whether this non-chain pattern matches the whole of `node`, extending `bindings` (left
    /// partly extended when it does not): nothing copied or allocated, as most tries fail.
    pub fn whole_bindings<'t>(&'t self, node: &'t Node, bindings: &mut Bindings<'t>) -> bool {
        matches(&self.root, node, bindings)
    }

    /// The match that [`Pattern::window_bindings`] found at `offset`, with its run of nodes.
    pub fn run_match<'t>(
        &'t self,
        view: &ChainView<'t>,
        offset: usize,
        span: Span,
        bindings: Bindings<'t>,
    ) -> Option<Match<'t>> {
        let run = view.operands.get(offset..offset + self.operands.len())?;
        Some(Match { span, nodes: run.iter().map(|(_, n)| *n).collect(), bindings })
    }

    /// Whether this chain pattern matches the run of the chain's operands at `offset`: the
    /// run's span, `bindings` extended (left partly extended when it does not match), with
    /// nothing copied or allocated (most tries fail).
    pub fn window_bindings<'t>(
        &'t self,
        view: &ChainView<'t>,
        offset: usize,
        bindings: &mut Bindings<'t>,
    ) -> Option<Span> {
        let pattern = &self.operands;
        let end = offset + pattern.len();
        // A metavariable at either end of the pattern stands for the whole call it is part of
        // (`$A \odot $B` on `h(c) \odot o`), and, when a sign joins it to the rest of the match,
        // for the whole run or operator's operand (`$A \cdot $B` on `Q h_i \cdot K h_j`); `$P` of
        // `$P($A \mid $B)` on `\log p(y \mid x)` is the callee, never the `\log` before it.
        let signed = |at: usize| {
            view.operands.get(at).is_some_and(|(op, _)| op.is_some_and(|op| *op != InfixOp::Juxt))
        };
        let (runs_before, runs_after) = (signed(offset + 1), signed(end - 1));
        let tied = |left: usize, runs: bool| match view.tie(left) {
            Tie::Call => true,
            Tie::Run | Tie::Body | Tie::Operand => runs,
            Tie::Apart => false,
        };
        // Back, a big operator is taken with its body only before a sign that ends the body (`+`,
        // `-`, a relation), not before one inside it (`\sum_p w(p) \cdot x(p)`).
        let ends_a_body = matches!(
            view.operands.get(offset + 1),
            Some((Some(InfixOp::Additive(_) | InfixOp::Relation(_)), _))
        );
        let tied_back = |left: usize| match view.tie(left) {
            Tie::Body => runs_before && ends_a_body,
            _ => tied(left, runs_before),
        };
        let first_joined = (0..offset).rev().take_while(|&left| tied_back(left)).last();
        let callee_before = first_joined.and_then(|at| view.operands.get(at).map(|(_, callee)| *callee));
        // Forward, a big operator's body is taken whole, the runs inside it too.
        let mut in_body = false;
        let last_joined = (end - 1..)
            .take_while(|&left| {
                in_body |= matches!(view.tie(left), Tie::Body | Tie::Operand);
                tied(left, runs_after || in_body)
            })
            .last();
        let argument_after = last_joined.and_then(|left| view.operands.get(left + 1).map(|(_, arg)| *arg));
        let first_name = pattern.first().and_then(|(_, node)| metavariable(node));
        let last_name = pattern.last().and_then(|(_, node)| metavariable(node));
        // A pattern's written end may stand inside a run (`\mathrm{diag}(G)^{-1/2} \odot $X` on
        // `\eta \mathrm{diag}(G)^{-1/2} \odot g`), never between a call and its argument.
        let call_before = offset > 0 && view.tie(offset - 1) == Tie::Call;
        if (call_before && first_name.is_none()) || (view.tie(end - 1) == Tie::Call && last_name.is_none()) {
            return None;
        }
        let window = view.operands.get(offset..end)?;
        let ops_agree = pattern
            .iter()
            .zip(window)
            .skip(1)
            .all(|((p_op, _), (t_op, _))| links_agree(p_op.as_ref(), *t_op));
        if !ops_agree {
            return None;
        }
        if !pattern.iter().zip(window).all(|((_, p_node), (_, t_node))| matches(p_node, t_node, bindings)) {
            return None;
        }
        let span = match (pattern.first(), window.first(), window.last()) {
            (Some((_, p_first)), Some((_, a)), Some((_, b))) => {
                Span::new(unsigned_start(p_first, a), end_before_prose(b))
            }
            _ => Span::default(),
        };
        let (mut start, mut stop) = (span.start, span.end);
        if let (Some(callee), Some(name)) = (callee_before, first_name) {
            bindings.extend_back(name, callee.span.start);
            start = callee.span.start;
        }
        if let (Some(argument), Some(name)) = (argument_after, last_name) {
            bindings.extend(name, argument.span.end);
            stop = argument.span.end;
        }
        Some(Span::new(start, stop))
    }

    /// The first node within `within` (itself included) that this pattern matches under
    /// `bindings`.
    pub fn find_in<'t>(
        &'t self,
        within: &'t Node,
        bindings: &Bindings<'t>,
        depth: usize,
    ) -> Option<Match<'t>> {
        // Depth first, in the children's order, on one stack: no list of children per node.
        let mut stack = vec![(within, depth)];
        let mut view = ChainView::default();
        while let Some((node, depth)) = stack.pop() {
            if depth > crate::syntax::depth::WALK_GUARD {
                continue;
            }
            if let Some(found) = self.first_match(node, bindings, &mut view) {
                return Some(found);
            }
            let first_child = stack.len();
            node.for_each_child(|child| stack.push((child, depth + 1)));
            if let Some(children) = stack.get_mut(first_child..) {
                children.reverse();
            }
        }
        None
    }
}

impl Pattern {
    /// The span of a whole match on `node`, without a sign the pattern does not mention
    /// (`\log` in `-\log x` is the log, not the minus).
    pub fn unsigned_span(&self, node: &Node) -> Span {
        Span::new(unsigned_start(&self.root, node), node.span.end)
    }

    /// Whether the pattern's root is a metavariable, or `node` itself is what the root is
    /// (its variant and, for names, accents, fonts and fences, the same one): so that a match
    /// did not need a leniency.
    pub fn root_is_like(&self, node: &Node) -> bool {
        metavariable(&self.root).is_some() || same_head(&self.root, node)
    }

    /// The key the rule index files this (non-chain) pattern under.
    pub fn index_key(&self) -> Key {
        index_key(&self.root)
    }
}

/// Where a match begins when the pattern does not mention the target's sign: after it
/// (`\frac{1}{N}\sum` in `-\frac{1}{N}\sum`).
fn unsigned_start(pattern: &Node, target: &Node) -> usize {
    match (&pattern.kind, &target.kind) {
        (NodeKind::Prefix { .. }, _) => target.span.start,
        _ if metavariable(pattern).is_some() => target.span.start,
        (_, NodeKind::Prefix { operand, .. }) => unsigned_start(pattern, operand),
        _ => target.span.start,
    }
}

/// The metavariable name of a placeholder node.
// Not inlined: decoding the inline string up front, as the optimiser otherwise does for every
// arm of `matches`, costs more than the call.
#[inline(never)]
/// Whether `root` is a call whose parenthesis holds a conditioning bar at its top level
/// (`$P($A \mid $B)`; not `D($Q($Z \mid $X) \| $P)`, whose call sets two things apart).
fn holds_bar_in_parenthesis(root: &Node) -> bool {
    let NodeKind::Chain { rest, .. } = &root.kind else { return false };
    let Some(NodeKind::Fenced { open: Delim::Paren, body, .. }) = rest.last().map(|l| &l.operand.kind) else {
        return false;
    };
    let NodeKind::Chain { rest, .. } = &body.kind else { return false };
    rest.iter().any(|l| matches!(&l.op, InfixOp::Relation(r) if super::keys::same_relation(r) == "\\mid"))
}

pub(super) fn metavariable(node: &Node) -> Option<&str> {
    match &node.kind {
        NodeKind::Unknown { name } => name.strip_prefix(PLACEHOLDER),
        _ => None,
    }
}

/// Whether `pattern` matches `target` (whole), extending `bindings`.
fn matches<'t>(pattern: &'t Node, target: &'t Node, bindings: &mut Bindings<'t>) -> bool {
    if let Some(name) = metavariable(pattern) {
        return match (bindings.get(name), bindings.argument(name)) {
            (Some(bound), None) => equal(bound, target) || indexed_occurrence(bound, target),
            (Some(callee), Some(argument)) => is_call_as_written(callee, argument, target),
            (None, _) => bindings.insert(name, target),
        };
    }
    if same_shape(pattern, target, bindings) {
        return true;
    }
    // Leniencies: scripts, signs and labelling braces on the target that the pattern does not
    // mention.
    // A sign is looked through whatever the pattern is (`\nabla^2 f` in `-\nabla^2 f`); scripts
    // only where the pattern writes none.
    match (&pattern.kind, &target.kind) {
        (NodeKind::Prefix { .. }, _) => false,
        (_, NodeKind::Prefix { operand, .. }) => matches(pattern, operand, bindings),
        // A term a paper labels with a brace is the term (`\underbrace{\sigma_t \epsilon_t}_{\text{noise}}`).
        (NodeKind::Annotated { .. }, _) => false,
        (_, NodeKind::Annotated { body, .. }) => matches(pattern, body, bindings),
        (NodeKind::Scripts { .. }, _) => false,
        (_, NodeKind::Scripts { base, .. }) => matches(pattern, base, bindings),
        _ => false,
    }
}

/// Whether the two nodes have the same kind and their parts match.
fn same_shape<'t>(pattern: &'t Node, target: &'t Node, bindings: &mut Bindings<'t>) -> bool {
    use NodeKind::*;
    match (&pattern.kind, &target.kind) {
        (Word { .. }, Word { .. }) => same_word(pattern, target),
        (Dots { name: a }, Dots { name: b }) => same_dots(a, b),
        // `(\boldsymbol{1} - \mathbf{z}_t) \odot …`: the vector of ones, taken entry by entry, is the
        // 1 a pattern writes (`(1 - $Z) \odot $H`).
        (Number { text: a, font: Font::Normal }, Number { text: b, font: Font::Bold }) if a == "1" => a == b,
        // `\intercal` is `\top` ([`super::keys::symbol_synonym`]).
        (Symbol { name: a, font: fa }, Symbol { name: b, font: fb }) => {
            fa == fb && super::keys::symbol_synonym(a) == super::keys::symbol_synonym(b)
        }
        (Number { .. }, Number { .. })
        | (LargeOp { .. }, LargeOp { .. })
        | (Punct { .. }, Punct { .. })
        | (Unknown { .. }, Unknown { .. })
        | (Empty, Empty) => equal(pattern, target),
        // A nested chain pattern matches the target chain's first operands (`$W - $E \nabla`
        // matches `w - \eta \nabla f(w)`).
        // A metavariable there also stands for a call written as a name and its parenthesis
        // (`$A $X + $B $Y` matches `\alpha f(x) + \beta g(x)`).
        // It also matches after a prefix of operators with limits below (`\max_w`, `\arg\min_\theta`),
        // whose scope is what follows: `$A - $B` finds `\max_w \mathbb{E}[f] - \mathbb{E}[g]`.
        (Chain { first: pf, rest: pr }, Chain { first: tf, rest: tr }) => {
            let pattern = Links { first: pf, rest: pr };
            let target = Links { first: tf, rest: tr };
            pr.len() <= tr.len()
                && (align(pattern, 0, target, 0, bindings) || after_limits(pattern, target, bindings))
        }
        (Prefix { op: a, operand: pa }, Prefix { op: b, operand: ta }) => a == b && matches(pa, ta, bindings),
        (Factorial { operand: a }, Factorial { operand: b }) => matches(a, b, bindings),
        // Primes the pattern writes must be there (`$F'` is a derivative); a pattern without
        // primes, like one without scripts, matches with or without them.
        (
            Scripts { base: pb, sub: ps, sup: pp, primes: pq, .. },
            Scripts { base: tb, sub: ts, sup: tp, primes: tq, .. },
        ) => {
            (*pq == 0 || pq == tq)
                && (matches(pb, tb, bindings) || bound_with_subscript(pb, ps, tb, ts, bindings))
                && (summed_variable(pb, ps, ts, bindings) || optional(ps, ts, bindings))
                && optional(pp, tp, bindings)
        }
        (Frac { num: pn, den: pd }, Frac { num: tn, den: td }) => {
            matches(pn, tn, bindings) && matches(pd, td, bindings)
        }
        (Binom { top: pt, bottom: pb }, Binom { top: tt, bottom: tb }) => {
            matches(pt, tt, bindings) && matches(pb, tb, bindings)
        }
        (Sqrt { index: pi, radicand: pr }, Sqrt { index: ti, radicand: tr }) => {
            optional(pi, ti, bindings) && matches(pr, tr, bindings)
        }
        (Accent { accent: a, body: pb }, Accent { accent: b, body: tb }) => {
            a == b && matches(pb, tb, bindings)
        }
        (Styled { font: a, body: pb }, Styled { font: b, body: tb }) => a == b && matches(pb, tb, bindings),
        // Both delimiters count where both are written (`\lfloor x \rceil` rounds, `\lfloor x
        // \rfloor` floors); a group left open matches by its opening one.
        (Fenced { open: po, close: pc, body: pb, .. }, Fenced { open: to, close: tc, body: tb, .. }) => {
            po == to && (pc.is_none() || tc.is_none() || pc == tc) && matches(pb, tb, bindings)
        }
        (Boxed { body: pb }, Boxed { body: tb }) => matches(pb, tb, bindings),
        _ => false,
    }
}

/// Whether `target` is the letter a metavariable was bound to, with a subscript: bound through
/// `$Y^{T}` to the `y` of `y_k^T`, the metavariable meets `y_k` further on (`\rho_k y_k s_k^T`).
/// The binding kept no index, so any index is taken; [`bound_with_subscript`] is the converse,
/// where the binding kept one and it must agree.
fn indexed_occurrence(bound: &Node, target: &Node) -> bool {
    match &target.kind {
        NodeKind::Scripts { base, sub: Some(_), sup: None, primes: 0 } => {
            matches!(bound.kind, NodeKind::Symbol { .. }) && equal(bound, base)
        }
        _ => false,
    }
}

/// Whether a pattern's base is a metavariable already bound to the target's base with its
/// subscript: `$S` bound to `s_k` meets `s_k^T` under the pattern `$S^{T}` (the BFGS update's
/// `\rho_k s_k s_k^T`), the same letter at the same index.
fn bound_with_subscript<'t>(
    pattern_base: &'t Node,
    pattern_sub: &Option<Box<Node>>,
    target_base: &'t Node,
    target_sub: &Option<Box<Node>>,
    bindings: &Bindings<'t>,
) -> bool {
    let Some(bound) = metavariable(pattern_base).and_then(|name| bindings.get(name)) else {
        return false;
    };
    match (&bound.kind, pattern_sub, target_sub) {
        (NodeKind::Scripts { base, sub: Some(sub), sup: None, primes: 0 }, None, Some(target_sub)) => {
            equal(base, target_base) && equal(sub, target_sub)
        }
        _ => false,
    }
}

/// Whether a nested chain pattern matches the target chain's operands after its leading
/// operators with limits (`\max_w`, `\arg\max_\theta`, `\min_G \max_D`), side by side.
fn after_limits<'t>(pattern: Links<'t>, target: Links<'t>, bindings: &mut Bindings<'t>) -> bool {
    let mut t = 0;
    while let Some((op, node)) = target.get(t) {
        if (t > 0 && op != Some(&InfixOp::Juxt)) || !is_limit_operator(node) {
            break;
        }
        t += 1;
        if target.len() - t < pattern.len() {
            break;
        }
        let saved = *bindings;
        if target.get(t).is_some_and(|(op, _)| op == Some(&InfixOp::Juxt))
            && align_from(pattern, target, t, bindings)
        {
            return true;
        }
        *bindings = saved;
    }
    false
}

/// Whether `node` is an operator with limits below (`\max`, `\sup`, `\operatorname*{argmin}`), with
/// its scripts or without, or the `\arg` written before one.
pub(super) fn is_limit_operator(node: &Node) -> bool {
    let base = match &node.kind {
        NodeKind::Scripts { base, .. } => base.as_ref(),
        _ => node,
    };
    match &base.kind {
        NodeKind::Word { style: WordStyle::OperatorLimits, .. } => true,
        NodeKind::Word { text, style: WordStyle::Operator } => text.as_str() == "arg",
        _ => false,
    }
}

/// [`align`] with the target's operator before `t` read as none (the pattern's first operand
/// stands first).
fn align_from<'t>(pattern: Links<'t>, target: Links<'t>, t: usize, bindings: &mut Bindings<'t>) -> bool {
    let Some((_, first)) = target.get(t) else { return false };
    let rest = target.rest.get(t..).unwrap_or_default();
    align(pattern, 0, Links { first, rest }, 0, bindings)
}

/// A chain's operands as a list without copying: the first, then the links.
#[derive(Clone, Copy)]
struct Links<'t> {
    first: &'t Node,
    rest: &'t [crate::syntax::ast::Link],
}

impl<'t> Links<'t> {
    /// The operand at `at` with the operator before it (none before the first).
    fn get(&self, at: usize) -> Option<(Option<&'t InfixOp>, &'t Node)> {
        match at.checked_sub(1) {
            None => Some((None, self.first)),
            Some(i) => self.rest.get(i).map(|link| (Some(&link.op), &link.operand)),
        }
    }

    fn len(&self) -> usize {
        self.rest.len() + 1
    }
}

/// Where a node ends, leaving out the full stop or comma that ends a displayed formula
/// (`X \sim U(n).`: the distribution is `U(n)`, not `U(n).`).
pub(super) fn end_before_stop(node: &Node) -> usize {
    let NodeKind::Chain { first, rest } = &node.kind else { return node.span.end };
    let stop = |link: &crate::syntax::ast::Link| link.op == InfixOp::Juxt && link.operand.is_sentence_stop();
    match rest.split_last() {
        Some((last, [.., before])) if stop(last) => before.operand.span.end,
        Some((last, [])) if stop(last) => first.span.end,
        _ => node.span.end,
    }
}

/// Whether a nested chain pattern's operands from `p` on match the target chain's operands
/// from `t` on, in order: each pattern operand one target operand, or a metavariable a name
/// and the parenthesis it is applied to (side by side, the call as it is written) where
/// nothing else lets the rest match. The pattern may end before the target does; a
/// metavariable last in it then stands for the rest as far as it reaches (`\partial $Y`
/// against `\partial \mathbf{x}^\top \mathbf{a}`).
fn align<'t>(pattern: Links<'t>, p: usize, target: Links<'t>, t: usize, bindings: &mut Bindings<'t>) -> bool {
    let (Some((p_op, p_node)), Some((t_op, t_node))) = (pattern.get(p), target.get(t)) else {
        return p >= pattern.len();
    };
    if !links_agree(p_op, t_op) {
        return false;
    }
    let last = p + 1 == pattern.len();
    let saved = *bindings;
    if matches(p_node, t_node, bindings) {
        if last {
            if let (Some(name), Some(end)) = (metavariable(p_node), target.rest.last()) {
                match target.get(t + 1) {
                    Some((Some(InfixOp::Juxt), argument))
                        if t + 2 == target.len()
                            && is_parenthesis(argument)
                            && bindings.argument(name).is_none() =>
                    {
                        bindings.absorb(name, argument)
                    }
                    Some(_) => match words_of_prose_after(target, t) {
                        // `\gamma Q(s', a') \quad \text{where} \quad a' \sim \pi`: the words
                        // of prose end what the metavariable stands for.
                        Some(words) if words > t + 1 => {
                            if let Some((_, before)) = target.get(words - 1) {
                                bindings.extend(name, before.span.end)
                            }
                        }
                        Some(_) => {}
                        None => bindings.extend(name, end.operand.span.end),
                    },
                    None => {}
                }
            }
            return true;
        }
        if align(pattern, p + 1, target, t + 1, bindings) {
            return true;
        }
    }
    *bindings = saved;
    let Some(name) = metavariable(p_node) else { return false };
    let Some((Some(InfixOp::Juxt), argument)) = target.get(t + 1) else { return false };
    if last || !is_parenthesis(argument) {
        return false;
    }
    let bound_to_call = match bindings.get(name) {
        Some(bound) => match bindings.argument(name) {
            None => is_call_as_written(t_node, argument, bound),
            Some(written) => equal(bound, t_node) && equal(written, argument),
        },
        None => bindings.insert(name, t_node),
    };
    if bound_to_call {
        if bindings.argument(name).is_none()
            && bindings.get(name).is_some_and(|bound| std::ptr::eq(bound, t_node))
        {
            bindings.absorb(name, argument);
        }
        if align(pattern, p + 1, target, t + 2, bindings) {
            return true;
        }
    }
    *bindings = saved;
    false
}

/// Where `node` ends, or, for a chain with words of prose side by side in it (`\gamma Q
/// \quad \text{where} \quad a`), where its operands before them end.
fn end_before_prose(node: &Node) -> usize {
    let NodeKind::Chain { first, rest } = &node.kind else { return node.span.end };
    let links = Links { first, rest };
    match words_of_prose_after(links, 0) {
        Some(words) if words > 0 => links.get(words - 1).map_or(node.span.end, |(_, before)| before.span.end),
        _ => node.span.end,
    }
}

/// Where the first words of prose (`\text{where}`, `\text{for all}`) stand after operand `t`,
/// joined side by side: what a metavariable ending a pattern stands for stops before them.
fn words_of_prose_after(target: Links, t: usize) -> Option<usize> {
    let prose = &crate::meaning::notation::Notation::shipped().prose_words;
    (t + 1..target.len()).find(|&at| {
        matches!(target.get(at), Some((Some(InfixOp::Juxt), node)) if matches!(&node.kind,
            NodeKind::Word { text, style: crate::syntax::ast::WordStyle::Text }
                if text.split_whitespace().all(|w| crate::meaning::notation::has(prose, w))
                    && !text.trim().is_empty()))
    })
}

/// Whether `node` is a parenthesis, what a name written before it may be applied to.
pub(super) fn is_parenthesis(node: &Node) -> bool {
    matches!(&node.kind, NodeKind::Fenced { open: Delim::Paren, .. })
}

/// Whether `node` is the chain of `callee` and the parenthesis `argument`, side by side.
fn is_call_as_written(callee: &Node, argument: &Node, node: &Node) -> bool {
    match &node.kind {
        NodeKind::Chain { first, rest } => match rest.as_slice() {
            [link] => {
                matches!(link.op, InfixOp::Juxt) && equal(first, callee) && equal(&link.operand, argument)
            }
            _ => false,
        },
        _ => false,
    }
}

/// Whether an operator a pattern writes agrees with the target's: the same operator, or a
/// product written side by side in the pattern and with `\cdot` in the target, as papers
/// write products of numbers (`\beta_1 \cdot m_{t-1}`, Adam's algorithm). A pattern that
/// writes `\cdot` (a dot product) still asks for `\cdot`.
pub(super) fn op_agrees(pattern: &InfixOp, target: &InfixOp) -> bool {
    if let (InfixOp::Relation(a), InfixOp::Relation(b)) = (pattern, target) {
        return super::keys::same_relation(a) == super::keys::same_relation(b);
    }
    pattern == target || (matches!(pattern, InfixOp::Juxt) && is_cdot(target))
}

/// [`op_agrees`] for the operators before two operands, none before a chain's first.
fn links_agree(pattern: Option<&InfixOp>, target: Option<&InfixOp>) -> bool {
    match (pattern, target) {
        (Some(a), Some(b)) => op_agrees(a, b),
        (a, b) => a == b,
    }
}

/// Whether `op` is the product `\cdot`.
pub(super) fn is_cdot(op: &InfixOp) -> bool {
    matches!(op, InfixOp::Multiplicative(text) if text == "\\cdot")
}

/// Whether two nodes are equal (not inlined, like [`metavariable`]).
#[inline(never)]
fn equal(pattern: &Node, target: &Node) -> bool {
    pattern == target
}

/// Whether two words have the same text (not inlined, like [`metavariable`]).
#[inline(never)]
fn same_word(pattern: &Node, target: &Node) -> bool {
    match (&pattern.kind, &target.kind) {
        (NodeKind::Word { text: a, .. }, NodeKind::Word { text: b, .. }) => super::keys::same_word_text(a, b),
        _ => false,
    }
}

/// Whether two dots are the same for a pattern: dots along a line are one (`\dots`, `\ldots`,
/// `…` and `amsmath`'s `\dotsc` all elide the middle of a list), vertical and diagonal dots
/// only themselves.
fn same_dots(a: &str, b: &str) -> bool {
    let along_a_line = |name: &str| !matches!(name, "vdots" | "ddots" | "iddots" | "adots");
    a == b || (along_a_line(a) && along_a_line(b))
}

/// A pattern's absent part matches anything; a present one must match.
/// `\sum_{$J}` of a pattern against `\sum_{j=1}^{n}`: a lone metavariable below a big operator
/// stands for the variable it runs over, so that `\sum_{$J} \exp($S) $V_{$J}` finds the sum
/// written with its lower end too, or with the set it runs over (`\sum_{y \in \mathcal{Y}}`).
fn summed_variable<'t>(
    base: &'t Node,
    pattern: &'t Option<Box<Node>>,
    target: &'t Option<Box<Node>>,
    bindings: &mut Bindings<'t>,
) -> bool {
    let (Some(pattern), Some(target)) = (pattern, target) else { return false };
    if !matches!(base.kind, NodeKind::LargeOp { .. }) {
        return false;
    }
    let Some(name) = metavariable(pattern) else { return false };
    let NodeKind::Chain { first, rest } = &target.kind else { return false };
    let [link] = rest.as_slice() else { return false };
    if !matches!(&link.op, InfixOp::Relation(r) if matches!(r.as_str(), "=" | "\\in")) {
        return false;
    }
    if !matches!(first.kind, NodeKind::Symbol { .. } | NodeKind::Scripts { .. }) {
        return false;
    }
    match bindings.get(name) {
        Some(bound) => equal(bound, first),
        None => bindings.insert(name, first),
    }
}

fn optional<'t>(
    pattern: &'t Option<Box<Node>>,
    target: &'t Option<Box<Node>>,
    bindings: &mut Bindings<'t>,
) -> bool {
    match (pattern, target) {
        (None, _) => true,
        (Some(p), Some(t)) => matches(p, t, bindings),
        (Some(_), None) => false,
    }
}
