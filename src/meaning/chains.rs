//! Operands joined by additive operators, relations or separators, and the clauses that words
//! of prose cut such a chain into.
//!
//! `\|x\| > 0 \textrm{ for all } x \neq 0` is one chain to the parser, whose middle operand is
//! the row `0 \textrm{ for all } x`. Read as a teacher reads it, it is two statements, `\|x\| > 0`
//! and, after "for all", `x \neq 0`: the chain is cut at the words before anything is resolved,
//! so each clause is read as a chain of its own, in the place it stands ([`TermKind::Prose`]).

use super::agree::{numbers_beside_values, same_kind_as_vectors};
use super::bigops::{give_body, open_big_op};
use super::positions::count_index;
use super::prose;
use super::resolve::Item;
use super::roles::Place;
use super::sizes::sizes_beside_sizes;
use super::tree::{Clause, Joint, Term, TermKind};
use super::Resolver;
use crate::syntax::ast::{InfixOp, Link, Node, NodeKind, PrefixOp, Span};

/// An operator with its span.
type Op<'n> = (&'n InfixOp, Span);

/// The operands of one clause, each after its operator.
type Links<'r, 'n> = Vec<(Option<Op<'n>>, Operand<'r, 'n>)>;

/// An operand of a chain: a node, or a run of a row's items that prose cut off.
#[derive(Clone, Copy)]
enum Operand<'r, 'n> {
    Node(&'n Node),
    Items(&'r [Item<'n>]),
}

/// The items of a row (a chain whose first operator is side by side or multiplicative).
pub(super) fn row_items(node: &Node) -> Option<Vec<Item<'_>>> {
    let NodeKind::Chain { first, rest } = &node.kind else { return None };
    let link = rest.first()?;
    if !matches!(link.op, InfixOp::Juxt | InfixOp::Multiplicative(_)) {
        return None;
    }
    let items = std::iter::once((None, Span::default(), first.as_ref()))
        .chain(rest.iter().map(|l| (Some(&l.op), l.op_span, &l.operand)))
        .collect();
    Some(items)
}

/// Relations whose right side holds the left side's members, or contains it.
const MEMBERSHIP: &[&str] = &["\\in", "\\notin", "\\subset", "\\subseteq", "\\subsetneq"];

/// Whether a row has an operand written as text (`\\text{…}`), the only place prose can be.
fn holds_text(node: &Node) -> bool {
    let is_text = |n: &Node| {
        matches!(n.kind, NodeKind::Word { style: crate::syntax::ast::WordStyle::Text, .. })
            || prose::is_quantifier(n)
    };
    matches!(&node.kind, NodeKind::Chain { first, rest } if is_text(first) || rest.iter().any(|l| is_text(&l.operand)))
}

/// Whether an operator compares a random variable with a value: `X = 1`, `X \le x`.
fn compares(op: Option<Op>) -> bool {
    const COMPARISONS: &[&str] = &["=", "\\neq", "<", ">", "\\le", "\\leq", "\\ge", "\\geq", "\\in"];
    matches!(op, Some((InfixOp::Relation(r), _)) if COMPARISONS.contains(&r.as_str()))
}

impl Resolver<'_> {
    /// Operands joined by additive operators, relations or separators; clauses when words of
    /// prose stand between them.
    pub(super) fn joined<'n>(
        &self,
        node: &'n Node,
        first: &'n Node,
        rest: &'n [Link],
        place: Place,
        d: usize,
    ) -> Term<'n> {
        let mut operands: Vec<(Option<Op<'n>>, &'n Node)> = std::iter::once((None, first))
            .chain(rest.iter().map(|l| (Some((&l.op, l.op_span)), &l.operand)))
            .collect();
        // `x < 0,` in a case: the comma that ends a displayed line is punctuation, not a list.
        if let [_, .., (Some((InfixOp::Separator(_), _)), last)] = operands.as_slice() {
            if matches!(last.kind, NodeKind::Empty) {
                operands.pop();
            }
        }
        // `s_{i,t},` alone: the term without the comma, spanning what it is.
        if let [(None, only)] = operands.as_slice() {
            return self.term(only, place, d);
        }
        let is_prose = |n: &Node| prose::is_prose_word(n, self.notation, |m| self.is_name(m));
        // Items are gathered only for rows that hold text at all: most chains have none.
        let rows: Vec<Option<Vec<Item<'n>>>> =
            operands.iter().map(|(_, n)| row_items(n).filter(|_| holds_text(n))).collect();
        let row_cuts: Vec<Option<prose::RowCut<'_, 'n>>> =
            rows.iter().map(|row| row.as_deref().and_then(|items| prose::cut_row(items, is_prose))).collect();
        if row_cuts.iter().all(Option::is_none) {
            let links: Links<'_, 'n> = operands.iter().map(|(op, n)| (*op, Operand::Node(n))).collect();
            return self.clause(node, &links, node.span, place, d);
        }
        let mut cuts: Vec<(Option<&'n Node>, Links<'_, 'n>)> = vec![(None, Vec::new())];
        for ((op, n), cut) in operands.iter().zip(row_cuts) {
            let Some((head, words)) = cut else {
                if let Some(last) = cuts.last_mut() {
                    last.1.push((*op, Operand::Node(n)));
                }
                continue;
            };
            if let Some(last) = cuts.last_mut().filter(|_| !head.is_empty() || op.is_some()) {
                last.1.push((*op, Operand::Items(head)));
            }
            for (word, body) in words {
                let after = if body.is_empty() { Vec::new() } else { vec![(None, Operand::Items(body))] };
                cuts.push((Some(word), after));
            }
        }
        let mut clauses: Vec<Clause<'n>> = Vec::new();
        for (words, links) in cuts.into_iter().filter(|(words, links)| words.is_some() || !links.is_empty()) {
            let words = words.map(|w| Term::of(TermKind::Leaf, w));
            let term = (!links.is_empty()).then(|| self.clause(node, &links, links_span(&links), place, d));
            match term {
                // A clause that prose deeper inside cut again: its clauses are this chain's.
                Some(Term { kind: TermKind::Prose(inner), .. }) => {
                    let mut inner = inner.into_iter();
                    if let Some(head) = inner.next() {
                        clauses.push(Clause { words: words.or(head.words), term: head.term });
                    }
                    clauses.extend(inner);
                }
                term => clauses.push(Clause { words, term }),
            }
        }
        Term::of(TermKind::Prose(prose::split_quantified(clauses)), node)
    }

    /// `Y = 1 \mid X = x`: a chain cut at its first conditioning bar (not its first operator)
    /// into what is conditioned and what it is conditioned on, each read as a clause in its
    /// own place; `None` when no bar stands after the first link.
    pub(super) fn split_at_bar<'n>(
        &self,
        node: &'n Node,
        (event_place, given_place): (Place, Place),
        d: usize,
    ) -> Option<(Term<'n>, &'n str, Term<'n>)> {
        let NodeKind::Chain { first, rest } = &node.kind else { return None };
        let at = rest
            .iter()
            .position(|l| super::calls::is_conditioning_bar(&l.op))
            .filter(|&at| at > 0 || rest.len() > 1)?;
        let (before, after) = rest.split_at(at);
        let (bar_link, after) = after.split_first()?;
        let InfixOp::Relation(relation) = &bar_link.op else { return None };
        let event: Links<'_, 'n> = std::iter::once((None, Operand::Node(first.as_ref())))
            .chain(before.iter().map(|l| (Some((&l.op, l.op_span)), Operand::Node(&l.operand))))
            .collect();
        let given: Links<'_, 'n> = std::iter::once((None, Operand::Node(&bar_link.operand)))
            .chain(after.iter().map(|l| (Some((&l.op, l.op_span)), Operand::Node(&l.operand))))
            .collect();
        let event = self.clause(node, &event, links_span(&event), event_place, d);
        let given = self.clause(node, &given, links_span(&given), given_place, d);
        Some((event, relation.as_str(), given))
    }

    /// One chain of operands. A large operator left without a body before an additive sign
    /// takes the signed operand after it (`\sum_i -x_i`).
    fn clause<'n>(
        &self,
        node: &'n Node,
        links: &[(Option<Op<'n>>, Operand<'_, 'n>)],
        span: Span,
        place: Place,
        d: usize,
    ) -> Term<'n> {
        let read = |segment: &[(Option<Op<'n>>, Operand<'_, 'n>)]| {
            self.clause(node, segment, links_span(segment), place, d)
        };
        if let Some(statements) = statements_joined(node, links, span, read) {
            return statements;
        }
        let is_sim = |op: Option<Op>| matches!(op, Some((InfixOp::Relation(r), _)) if r == "\\sim");
        // `x \sim p(x)` draws x from a law; `f(n) \sim n \log n` compares two sizes.
        let node_of = |operand: &Operand<'_, 'n>| match operand {
            Operand::Node(n) => Some(*n),
            Operand::Items(_) => None,
        };
        // How each `\sim` reads, by the operand after it (read once: the sides' places and the
        // joint both follow it); a draw where a side is no one node.
        let readings: Vec<Option<super::TildeReading>> = (0..links.len())
            .map(|at| {
                let (op, right) = links.get(at)?;
                if !is_sim(*op) {
                    return None;
                }
                let left = at.checked_sub(1).and_then(|i| links.get(i)).and_then(|(_, o)| node_of(o));
                Some(match (left, node_of(right)) {
                    (Some(left), Some(right)) => super::tilde::tilde_reading(left, right),
                    _ => super::TildeReading::Draw,
                })
            })
            .collect();
        let draws = |at: usize| readings.get(at).copied().flatten() == Some(super::TildeReading::Draw);
        // `P(X = 1)`, `P(Y \le y \mid X = x)`: what an event compares is a random variable, what
        // it is compared with a value (or, after `\in`, a set of them).
        let event = place == Place::Event && links.iter().skip(1).any(|(op, _)| compares(*op));
        let side_place = |op: Option<Op>, at: usize| match op {
            op if is_sim(op) && draws(at) => Place::Distribution,
            op if is_sim(op) => Place::Plain,
            Some((InfixOp::Relation(r), _)) if event && r == "\\in" => Place::Event,
            // `P(Y = 1 \mid X = x)`: after the bar another comparison begins, of a random variable.
            Some((op, _)) if event && super::calls::is_conditioning_bar(op) => Place::Random,
            _ if event => Place::Plain,
            Some((InfixOp::Relation(r), _)) if MEMBERSHIP.contains(&r.as_str()) => Place::Container,
            _ => place,
        };
        let first_place = match links.get(1).map(|l| l.0) {
            Some(op) if is_sim(op) && draws(1) => Place::Random,
            Some(op) if is_sim(op) => Place::Plain,
            _ if event => Place::Random,
            // `A \subseteq B`: both sides are sets.
            Some(Some((InfixOp::Relation(r), _)))
                if MEMBERSHIP.get(2..).unwrap_or_default().contains(&r.as_str()) =>
            {
                Place::Container
            }
            _ => place,
        };
        let Some(((_, head), tail)) = links.split_first() else {
            return Term::new(TermKind::Leaf, span, node);
        };
        let mut first = self.operand(node, *head, first_place, d);
        let parameters = self.define_parameters(&first, tail.first().and_then(|l| l.0).map(|o| o.0));
        let mut joints: Vec<Joint<'n>> = Vec::with_capacity(tail.len());
        let mut after_dots = false;
        for (at, (op, operand)) in tail.iter().enumerate() {
            let Some((op, op_span)) = *op else { continue };
            let mut term = self.operand(node, *operand, side_place(Some((op, op_span)), at + 1), d);
            if after_dots {
                // `x_1, \dots, x_n`, `\text{head}_1, \dots, \text{head}_h`: the last index is a count.
                count_index(&mut term);
                let before =
                    joints.len().checked_sub(2).and_then(|i| joints.get(i)).map_or(&first, |j| &j.term);
                super::positions::count_position(&mut term, before);
            }
            after_dots = matches!(operand, Operand::Node(n) if matches!(n.kind, NodeKind::Dots { .. }));
            let sign = match op {
                InfixOp::Additive(s) if s == "-" => Some(PrefixOp::Minus),
                InfixOp::Additive(s) if s == "+" => Some(PrefixOp::Plus),
                _ => None,
            };
            let previous = joints.last_mut().map_or(&mut first, |j| &mut j.term);
            if let Some(sign) = sign.filter(|_| open_big_op(previous)) {
                let at = op_span.join(term.span);
                let source = match operand {
                    Operand::Node(n) => n,
                    Operand::Items(_) => node,
                };
                give_body(
                    previous,
                    Term::new(TermKind::Sign { op: sign, operand: term.boxed() }, at, source),
                );
                continue;
            }
            let tilde = readings.get(at + 1).copied().flatten();
            joints.push(Joint { op, op_span, term, tilde });
        }
        self.forget_parameters(parameters);
        if joints.is_empty() {
            first.span = span;
            return first;
        }
        let (mut first, mut joints) = match lift_prose(node, first, joints) {
            Ok(clauses) => return clauses,
            Err(operands) => operands,
        };
        if joints.iter().all(|j| matches!(j.op, InfixOp::Additive(_))) && is_objective(&first) {
            return whole_objective(first, joints, node);
        }
        if let Some(joint) = joints.first().filter(|j| *j.op == InfixOp::Relation("=".into())) {
            super::moments::takes_its_value(&mut first, &joint.term);
            super::resolve::defined_by(&mut first, &joint.term);
            super::definitions::defined_as_array(&mut first, &joint.term);
            super::definitions::defined_as_inner_product(&mut first, &joint.term);
            super::definitions::defined_as_number(&mut first, &joint.term);
            super::definitions::defined_as_arg_extreme(&mut first, &joint.term);
            super::definitions::defined_as_quotient(&mut first, &joint.term);
            super::definitions::defined_as_set(&mut first, &joint.term);
        }
        // `t \in [0, T]`, `x \notin [a, b]`: what a member stands in or out of, a pair of ends,
        // is an interval; so is what an interval equals (`[a - r, a + r] = [8.1, 9.9]`).
        let interval = matches!(first.kind, TermKind::Interval { .. });
        let membership = |r: &str| r == "\\in" || r == "\\notin" || (interval && r == "=");
        for joint in joints.iter_mut().filter(|j| matches!(j.op, InfixOp::Relation(r) if membership(r))) {
            super::intervals::make_interval(&mut joint.term, true);
        }
        if let Some(joint) =
            joints.first().filter(|j| matches!(j.op, InfixOp::Relation(r) if r == "=" || r == "\\in"))
        {
            let member = *joint.op != InfixOp::Relation("=".into());
            super::definitions::defined_as_tuple(&mut first, &joint.term, member);
        }
        if let Some(joint) = joints.first_mut().filter(|j| *j.op == InfixOp::Relation("=".into())) {
            super::counts::defined_as_size(&mut first, &mut joint.term);
            super::definitions::factored_matrix(&first, &mut joint.term);
        }
        if let Some(joint) = joints.first_mut().filter(|j| assigns(j.op)) {
            super::definitions::defined_by_update(&mut first, &mut joint.term);
            super::definitions::defined_with_noise(&mut first, &mut joint.term);
        }
        super::sets::joined_sets(&mut first, &mut joints);
        super::evaluations::evaluated_at_bars(&mut first, &mut joints);
        // Additive operators and `=` in any mix: `x_{l+1} = x_l + \mathcal{F}(x_l)`.
        let same_kind = joints
            .iter()
            .all(|j| matches!(j.op, InfixOp::Additive(_)) || *j.op == InfixOp::Relation("=".into()));
        let equalities_only = joints.iter().all(|j| *j.op == InfixOp::Relation("=".into()));
        let additions_only = joints.iter().all(|j| matches!(j.op, InfixOp::Additive(_)));
        if same_kind {
            // Terms added together, or sides of an equation, are of one kind: `W x_t + b_h`,
            // `y_t = W h_t + b_y`.
            let mut operands: Vec<&mut Term> =
                std::iter::once(&mut first).chain(joints.iter_mut().map(|j| &mut j.term)).collect();
            if equalities_only {
                super::definitions::sides_equal_to_quotients(&mut operands);
                super::agree::distributions_alike(&mut operands);
            }
            if additions_only {
                super::positions::positions_beside_values(&mut operands);
                super::sizes::numbers_beside_measures(&mut operands);
            }
            same_kind_as_vectors(&mut operands);
            numbers_beside_values(&mut operands, |t| self.is_number_valued(t));
            sizes_beside_sizes(&mut operands);
        }
        super::positions::ordered_are_numbers(&mut first, &mut joints);
        if let [joint] = joints.as_mut_slice() {
            if is_comparing(joint.op) {
                super::positions::positions_compared(&mut first, &mut joint.term);
                super::positions::positions_bounding_sizes(&mut first, &mut joint.term);
            }
        }
        Term::new(TermKind::Chain { first: first.boxed(), rest: joints }, span, node)
    }

    /// The term of one operand.
    fn operand<'n>(&self, node: &'n Node, operand: Operand<'_, 'n>, place: Place, d: usize) -> Term<'n> {
        match operand {
            Operand::Node(n) => self.term(n, place, d),
            Operand::Items([]) => {
                Term::new(TermKind::Leaf, Span { start: node.span.end, end: node.span.end }, node)
            }
            Operand::Items(items) => self.row(node, items, place, d),
        }
    }
}

/// The span of a clause's operands, from the first to the last.
/// `a > 0 \implies b > 0`: statements joined by a logical connective, each read by `read` as a
/// clause of its own (the connective binds loosest); `None` where no connective joins two
/// statements of which one is a relation itself.
fn statements_joined<'r, 'n>(
    node: &'n Node,
    links: &[(Option<Op<'n>>, Operand<'r, 'n>)],
    span: Span,
    read: impl Fn(&[(Option<Op<'n>>, Operand<'r, 'n>)]) -> Term<'n>,
) -> Option<Term<'n>> {
    let connective =
        |op: &Option<Op>| matches!(op, Some((InfixOp::Relation(r), _)) if statement_connective(r).is_some());
    let cuts: Vec<usize> =
        (1..links.len()).filter(|&at| links.get(at).is_some_and(|(op, _)| connective(op))).collect();
    let starts = std::iter::once(0).chain(cuts.iter().copied());
    let ends = cuts.iter().copied().chain([links.len()]);
    let segments: Vec<(usize, usize)> = starts.zip(ends).collect();
    if cuts.is_empty() || segments.iter().all(|(start, end)| end - start == 1) {
        return None;
    }
    let mut statements = segments.into_iter().map(|(start, end)| {
        let mut segment: Links<'r, 'n> = links.get(start..end).unwrap_or_default().to_vec();
        let joined_by = segment.first_mut().and_then(|first| first.0.take());
        (joined_by, read(&segment))
    });
    let (_, first) = statements.next()?;
    let rest = statements
        .filter_map(|(op, term)| op.map(|(op, op_span)| Joint { op, op_span, term, tilde: None }))
        .collect();
    Some(Term::new(TermKind::Chain { first: first.boxed(), rest }, span, node))
}

/// The logical connective a relation between statements is (`\Rightarrow` and the long arrows
/// read as `\implies`, `\Leftarrow` as `\impliedby`, `\Leftrightarrow` as `\iff`), if it is one:
/// such relations join statements, not values, and bind loosest.
pub fn statement_connective(relation: &str) -> Option<&'static str> {
    match relation {
        "\\implies" | "\\Rightarrow" | "\\Longrightarrow" => Some("\\implies"),
        "\\impliedby" | "\\Leftarrow" | "\\Longleftarrow" => Some("\\impliedby"),
        "\\iff" | "\\Leftrightarrow" | "\\Longleftrightarrow" => Some("\\iff"),
        _ => None,
    }
}

fn links_span(links: &[(Option<Op>, Operand)]) -> Span {
    let span = |o: &Operand| match o {
        Operand::Node(n) => Some(n.span),
        Operand::Items(items) => match (items.first(), items.last()) {
            (Some(a), Some(b)) => Some(a.2.span.join(b.2.span)),
            _ => None,
        },
    };
    let mut spans = links.iter().filter_map(|(_, o)| span(o));
    let first = spans.next().unwrap_or_default();
    spans.fold(first, Span::join)
}

/// A chain with an operand that words of prose deeper inside cut into clauses (`k + 1
/// \textrm{ with } 0` inside `x < … \le k`), cut there too: the clause before the words goes on
/// with the chain, the words open the next. Gives the operands back when none was cut.
fn lift_prose<'n>(
    node: &'n Node,
    first: Term<'n>,
    joints: Vec<Joint<'n>>,
) -> Result<Term<'n>, (Term<'n>, Vec<Joint<'n>>)> {
    let is_prose = |t: &Term| matches!(t.kind, TermKind::Prose(_));
    if !is_prose(&first) && !joints.iter().any(|j| is_prose(&j.term)) {
        return Err((first, joints));
    }
    let operands =
        std::iter::once((None, first)).chain(joints.into_iter().map(|j| (Some((j.op, j.op_span)), j.term)));
    let mut clauses: Vec<Clause<'n>> = Vec::new();
    let mut open = Open::default();
    for (op, term) in operands {
        let at = term.span;
        let parts = match term.kind {
            TermKind::Prose(parts) => parts,
            kind => {
                open.push(op, Term { kind, ..term });
                continue;
            }
        };
        for (k, part) in parts.into_iter().enumerate() {
            let op = op.filter(|_| k == 0);
            if let Some(words) = part.words {
                if let Some(op) = op {
                    // `a = \text{if} …`: the operator's operand is not there.
                    open.push(
                        Some(op),
                        Term::new(TermKind::Leaf, Span { start: at.start, end: at.start }, node),
                    );
                }
                clauses.extend(std::mem::take(&mut open).close(node));
                open.words = Some(words);
                if let Some(term) = part.term {
                    open.push(None, term);
                }
            } else if let Some(term) = part.term {
                open.push(op, term);
            }
        }
    }
    clauses.extend(open.close(node));
    Ok(Term::of(TermKind::Prose(prose::split_quantified(clauses)), node))
}

/// A clause being built: the words before it, its first operand and the joints after it.
#[derive(Default)]
struct Open<'n> {
    words: Option<Term<'n>>,
    first: Option<Term<'n>>,
    joints: Vec<Joint<'n>>,
}

impl<'n> Open<'n> {
    /// Adds an operand, after the operator before it (the first operand's is dropped).
    fn push(&mut self, op: Option<Op<'n>>, term: Term<'n>) {
        match (&self.first, op) {
            (None, _) => self.first = Some(term),
            (Some(_), Some((op, op_span))) => self.joints.push(Joint { op, op_span, term, tilde: None }),
            (Some(_), None) => {
                self.joints.push(Joint { op: side_by_side(), op_span: Span::default(), term, tilde: None })
            }
        }
    }

    /// The finished clause, if it holds anything.
    fn close(self, node: &'n Node) -> Option<Clause<'n>> {
        let term = self.first.map(|first| match self.joints.is_empty() {
            true => first,
            false => {
                let span = self.joints.iter().fold(first.span, |s, j| s.join(j.term.span));
                Term::new(TermKind::Chain { first: first.boxed(), rest: self.joints }, span, node)
            }
        });
        (self.words.is_some() || term.is_some()).then_some(Clause { words: self.words, term })
    }
}

/// The operator of two operands side by side.
fn side_by_side() -> &'static InfixOp {
    static JUXT: InfixOp = InfixOp::Juxt;
    &JUXT
}

/// Whether a term is a maximum or minimum over parameters (`\max_\theta`, `\min_G`,
/// `\arg\max_{\mathbf{w}}`), not over positions (`\max_i`) or values (`\max_x`): such an
/// objective reaches over the terms added after it, `\max_\theta I(Z;Y) - \beta I(Z;X)`.
fn is_objective(term: &Term) -> bool {
    let TermKind::BigOp(big) = &term.kind else { return false };
    let optimises = matches!(big.name.as_str(), "max" | "min" | "argmax" | "argmin" | "sup" | "inf");
    let over_parameters = big.over.as_ref().is_some_and(|over| {
        let occurrences = over.occurrences();
        !occurrences.is_empty()
            && occurrences.iter().all(|(_, o)| {
                !matches!(
                    o.kind,
                    super::SymbolKind::Index | super::SymbolKind::Scalar | super::SymbolKind::Unknown
                )
            })
    });
    optimises && big.body.is_some() && over_parameters
}

/// An objective with the terms added after it taken into its body.
fn whole_objective<'n>(mut objective: Term<'n>, joints: Vec<Joint<'n>>, node: &'n Node) -> Term<'n> {
    let TermKind::BigOp(big) = &mut objective.kind else { return objective };
    let Some(body) = big.body.take() else { return objective };
    let span = joints.iter().fold(body.span, |s, j| s.join(j.term.span));
    big.body = Some(Term::new(TermKind::Chain { first: body.boxed(), rest: joints }, span, node));
    objective.span = objective.span.join(span);
    objective
}

/// Whether a node is a comparison (`y_i \neq G(x_i)`, `x > 0`): a chain of one comparing
/// relation ([`is_comparing`]).
pub(super) fn is_comparison(node: &Node) -> bool {
    let NodeKind::Chain { rest, .. } = &node.kind else { return false };
    matches!(rest.as_slice(), [link] if is_comparing(&link.op))
}

/// Whether an operator compares two values: `\neq`, `<`, `>`, `\le`, `\ge` (not `=`, `\sim`,
/// `\mid`, `\in`).
pub(super) fn is_comparing(op: &InfixOp) -> bool {
    matches!(op, InfixOp::Relation(r)
        if matches!(r.as_str(), "\\neq" | "\\ne" | "<" | ">" | "\\le" | "\\leq" | "\\ge" | "\\geq"))
}

/// `[X \mid Y, Z]`, `(\log f(x) \mid y, \phi)`: the syntax cuts a group at its commas first, so a
/// condition followed by a list reads `(X \mid Y), Z`; what is given after the bar is the whole
/// list, `X \mid (Y, Z)`, as a density's condition is.
pub(super) fn condition_takes_the_list(body: &mut Term) {
    let TermKind::Chain { first, rest } = &mut body.kind else { return };
    if rest.is_empty() || !rest.iter().all(|j| matches!(j.op, InfixOp::Separator(s) if s == ",")) {
        return;
    }
    let TermKind::Chain { rest: inner, .. } = &mut first.kind else { return };
    let Some(last) = inner.last_mut() else { return };
    if !super::calls::is_conditioning_bar(last.op) {
        return;
    }
    let items = std::mem::take(rest);
    let end = items.last().map_or(last.term.span, |j| j.term.span);
    let placeholder = Term::new(TermKind::Leaf, last.term.span, last.term.node);
    let given = std::mem::replace(&mut last.term, placeholder);
    let span = given.span.join(end);
    last.term = Term::new(TermKind::Chain { first: given.boxed(), rest: items }, span, body.node);
    let whole = body.span;
    let placeholder = Term::new(TermKind::Leaf, whole, body.node);
    let condition = std::mem::replace(first.as_mut(), placeholder);
    *body = Term { span: whole, ..condition };
}

/// `[X \mid Y = y]`, `[X = x \mid Y > s]`: the syntax reads relations in one row, so a bar
/// between comparisons would be one relation among others; what stands before the bar is what
/// is asked of, what stands after it is the whole condition (`X` given `Y = y`).
pub(super) fn condition_takes_the_relation(body: &mut Term) {
    let TermKind::Chain { first, rest } = &mut body.kind else { return };
    let is_bar = super::calls::is_conditioning_bar;
    let Some(bar) = rest.iter().position(|j| is_bar(j.op)) else { return };
    let relation = |j: &super::tree::Joint| matches!(j.op, InfixOp::Relation(_)) && !is_bar(j.op);
    if rest.iter().filter(|j| is_bar(j.op)).count() != 1 || !rest.iter().all(|j| is_bar(j.op) || relation(j))
    {
        return;
    }
    let after = rest.split_off(bar + 1);
    let before = rest.split_off(bar);
    let Some(mut joint) = before.into_iter().next() else { return };
    if after.is_empty() && rest.is_empty() {
        rest.push(joint);
        return;
    }
    if !after.is_empty() {
        let end = after.last().map_or(joint.term.span, |j| j.term.span);
        let placeholder = Term::new(TermKind::Leaf, joint.term.span, joint.term.node);
        let given = std::mem::replace(&mut joint.term, placeholder);
        let span = given.span.join(end);
        joint.term = Term::new(TermKind::Chain { first: given.boxed(), rest: after }, span, body.node);
    }
    if !rest.is_empty() {
        let asked = std::mem::take(rest);
        let end = asked.last().map_or(first.span, |j| j.term.span);
        let placeholder = Term::new(TermKind::Leaf, first.span, first.node);
        let head = std::mem::replace(first.as_mut(), placeholder);
        let span = head.span.join(end);
        **first = Term::new(TermKind::Chain { first: head.boxed(), rest: asked }, span, body.node);
    }
    rest.push(joint);
}

/// Whether a relation gives its left side a value: `=`, or an update's `\leftarrow` and `:=`
/// (`\theta_t \leftarrow \theta_{t-1} - \alpha \hat{m}_t`).
fn assigns(op: &InfixOp) -> bool {
    matches!(op, InfixOp::Relation(r) if ["=", "\\leftarrow", ":=", "\\coloneqq"].contains(&r.as_str()))
}
