//! Large operators: `\sum`, `\prod`, `\max_j`, `\arg\max_\theta`, `\int … dx` with their limits
//! and bodies (the rest of their row), and what the body says of the bound variable.

use super::resolve::{Item, Resolver};
use super::roles::Place;
use super::tree::{BigOperator, Evidence, Occurrence, Term, TermKind};
use super::SymbolKind;
use crate::syntax::ast::{Delim, Font, InfixOp, Node, NodeKind, WordStyle};

/// Large operators whose subscript is a lower limit, not a variable.
pub(super) const INTEGRALS: &[&str] = &["int", "iint", "iiint", "oint"];

impl Resolver<'_> {
    /// `\sum_x p(x) \log p(x)`, `\sum_{s', r} p(s', r \mid s, a)[r + …]`, `\sum_a \pi(a \mid s) …`:
    /// a variable the body passes to a distribution or a value function runs over the values of
    /// a random variable, not over positions: it is a random variable, here and in the body.
    fn outcomes_of_random_variables(&self, big: &mut BigOperator) {
        let Some(body) = &mut big.body else { return };
        let mut passed: Vec<String> = Vec::new();
        let mut stack: Vec<&Term> = vec![body];
        while let Some(term) = stack.pop() {
            if let TermKind::Apply(app) = &term.kind {
                if self.takes_outcomes(&app.callee) {
                    let plain = app.args.iter().chain(&app.given).filter_map(Term::occurrence);
                    passed.extend(plain.filter(|o| o.scripts.is_empty()).map(|o| o.name.to_string()));
                }
            }
            term.for_each_child(|child| stack.push(child));
        }
        let mut renamed: Vec<String> = Vec::new();
        for variable in [&mut big.var, &mut big.over].into_iter().flatten() {
            for_each_bound(variable, &mut |occurrence| {
                if occurrence.kind == SymbolKind::Index && passed.iter().any(|p| *p == occurrence.name) {
                    occurrence.kind = SymbolKind::RandomVariable;
                    occurrence.evidence = Evidence::Use;
                    renamed.push(occurrence.name.to_string());
                }
            });
        }
        if !renamed.is_empty() {
            mark_random(body, &renamed, 0);
        }
    }

    /// Whether a callee takes values of random variables: a distribution or density, or a value
    /// function of states and actions (not a letter of one that gives a set, `A(i)`).
    fn takes_outcomes(&self, callee: &Term) -> bool {
        callee.occurrence().is_some_and(|o| {
            o.kind == SymbolKind::Distribution
                || (super::notation::has(&self.notation.value_functions, &o.base_name)
                    && o.kind != SymbolKind::Set)
        })
    }

    /// A large operator in a row: the rest of the row is its body; an integral's closing `dx`
    /// names its variable.
    pub(super) fn big_op_in_row<'n>(
        &self,
        node: &'n Node,
        op: &'n Node,
        name: Option<String>,
        rest: &[Item<'n>],
        place: Place,
        d: usize,
    ) -> Term<'n> {
        let integral = self.is_integral(op);
        let (rest, differential) = match rest {
            [body @ .., (_, _, dee), (Some(InfixOp::Juxt), _, var)] if integral && is_dee(dee) => {
                (body, Some(self.term(var, Place::Differential, d)))
            }
            _ => (rest, None),
        };
        let body = (!rest.is_empty()).then(|| self.rest_of_row(node, rest, place, d));
        let mut term = self.big_op(op, name, body, place, d);
        if let TermKind::BigOp(big) = &mut term.kind {
            big.differential = differential;
            self.outcomes_of_random_variables(big);
        }
        if let Some(end) = rest.last().map(|(_, _, n)| n.span) {
            term.span = op.span.join(end);
        }
        term.node = if rest.is_empty() { op } else { node };
        term
    }

    /// A large operator with its limits (and body, when a row gave it one).
    pub(super) fn big_op<'n>(
        &self,
        op: &'n Node,
        name: Option<String>,
        body: Option<Term<'n>>,
        place: Place,
        d: usize,
    ) -> Term<'n> {
        let (base, sub, sup) = match &op.kind {
            NodeKind::Scripts { base, sub, sup, .. } => (base.as_ref(), sub.as_deref(), sup.as_deref()),
            _ => (op, None, None),
        };
        let name = name.unwrap_or_else(|| match &base.kind {
            NodeKind::LargeOp { name } => name.to_string(),
            NodeKind::Word { text, .. } => text.to_string(),
            _ => "sum".to_string(),
        });
        let integral = INTEGRALS.contains(&name.as_str());
        let mut big = BigOperator {
            name,
            op,
            var: None,
            lower: None,
            upper: sup.map(|s| self.term(s, if integral { Place::Plain } else { Place::Count }, d)),
            over: None,
            body,
            differential: None,
        };
        // `\sum_{1 \le j \le n}`: a closed range is a variable from one limit to the other.
        if let Some((from, var, to)) = sub.filter(|_| sup.is_none() && !integral).and_then(closed_range) {
            big.var = Some(self.term(var, Place::Counter, d));
            big.lower = Some(self.term(from, Place::Plain, d));
            big.upper = Some(self.term(to, Place::Count, d));
            return Term::of(TermKind::BigOp(Box::new(big)), op);
        }
        if let Some(sub) = sub {
            match super::relation_sides(sub, "=") {
                Some((var, from)) if !integral => {
                    big.var = Some(self.term(var, Place::Counter, d));
                    big.lower = Some(self.term(from, Place::Plain, d));
                }
                _ if integral => {
                    let mut lower = self.term(sub, Place::Plain, d);
                    if sup.is_none() {
                        // `\int_S f(x)\,dx`: a region alone below an integral is a set.
                        domain_is_a_set(&mut lower);
                    }
                    big.lower = Some(lower);
                }
                _ => {
                    let mut over = self.term(sub, Place::Bound, d);
                    if let TermKind::Chain { rest, .. } = &mut over.kind {
                        // `\sum_{i \in I}`, `\sum_{a \in A(i)}`, `\sup_{A \in \Sigma}`: what the
                        // variable ranges over is a set.
                        let member =
                            |j: &&mut super::tree::Joint| matches!(j.op, InfixOp::Relation(r) if r == "\\in");
                        if let Some(joint) = rest.iter_mut().find(member) {
                            domain_is_a_set(&mut joint.term);
                        }
                    }
                    if EXTREMA.contains(&big.name.as_str()) {
                        self.functions_optimised_over(&mut over);
                    }
                    big.over = Some(over);
                }
            }
        }
        let _ = place;
        Term::of(TermKind::BigOp(Box::new(big)), op)
    }

    /// Whether `node` is a large operator ([`is_large_operator`]).
    pub(super) fn is_big_op(&self, node: &Node) -> bool {
        is_large_operator(node)
    }

    /// `\arg\max_x` written as two words: the merged name and the node with the limits.
    pub(super) fn arg_max<'n>(&self, node: &Node, next: Option<&'n Node>) -> Option<(String, &'n Node)> {
        if !matches!(&node.kind, NodeKind::Word { text, .. } if text == "arg") {
            return None;
        }
        let next = next?;
        let word = match &next.kind {
            NodeKind::Scripts { base, sub: Some(_), .. } => base.as_ref(),
            // `\arg\max(x)` without limits is a function applied, not an operator over a variable.
            _ => return None,
        };
        match &word.kind {
            NodeKind::Word { text, .. } if text == "max" || text == "min" => {
                Some((format!("arg{text}"), next))
            }
            _ => None,
        }
    }

    /// `\arg\max(x)`: the function argmax applied, one callee of two words.
    pub(super) fn arg_max_call<'n>(
        &self,
        item: &'n Node,
        items: &[Item<'n>],
        i: usize,
        place: Place,
        d: usize,
    ) -> Option<Term<'n>> {
        let juxt =
            |k: usize| items.get(k).filter(|(op, _, _)| matches!(op, Some(InfixOp::Juxt))).map(|t| t.2);
        let (word, group) = (juxt(i + 1)?, juxt(i + 2)?);
        let is_arg = matches!(&item.kind, NodeKind::Word { text, .. } if text == "arg");
        let extreme = matches!(&word.kind, NodeKind::Word { text, .. } if text == "max" || text == "min");
        if !is_arg || !extreme || !matches!(group.kind, NodeKind::Fenced { open: Delim::Paren, .. }) {
            return None;
        }
        let mut call = self.apply(word, group, place, d);
        if let TermKind::Apply(app) = &mut call.kind {
            if let TermKind::Symbol(occurrence) = &mut app.callee.kind {
                occurrence.name = format!("arg{}", occurrence.name).into();
                occurrence.base_name = occurrence.name.clone();
            }
            app.callee.span = item.span.join(word.span);
        }
        call.span = item.span.join(group.span);
        Some(call)
    }

    pub(super) fn is_integral(&self, node: &Node) -> bool {
        let base = match &node.kind {
            NodeKind::Scripts { base, .. } => base.as_ref(),
            _ => node,
        };
        matches!(&base.kind, NodeKind::LargeOp { name } if INTEGRALS.contains(&name.as_str()))
    }
}

/// Whether `node` is a large operator, which takes the rest of its row: `\sum`, `\sum_i^N`,
/// `\max_x`, `\operatorname*{argmax}_\theta`.
pub fn is_large_operator(node: &Node) -> bool {
    match &node.kind {
        NodeKind::LargeOp { .. } => true,
        NodeKind::Scripts { base, sub, .. } => match &base.kind {
            NodeKind::LargeOp { .. } => true,
            NodeKind::Word { style: WordStyle::OperatorLimits, .. } => sub.is_some(),
            _ => false,
        },
        _ => false,
    }
}

/// Whether the term ends in a large operator still without a body (`\sum_i` before `-x_i`).
pub(super) fn open_big_op(term: &Term) -> bool {
    match &term.kind {
        TermKind::BigOp(big) => big.body.as_ref().is_none_or(open_big_op),
        TermKind::Product(factors) => factors.last().is_some_and(|f| open_big_op(&f.term)),
        TermKind::Sign { operand, .. } => open_big_op(operand),
        _ => false,
    }
}

/// Gives the open large operator at the end of `term` its body, widening the spans on the way.
pub(super) fn give_body<'n>(term: &mut Term<'n>, body: Term<'n>) {
    term.span = term.span.join(body.span);
    match &mut term.kind {
        TermKind::BigOp(big) => match &mut big.body {
            Some(inner) => give_body(inner, body),
            None => big.body = Some(body),
        },
        TermKind::Product(factors) => {
            if let Some(last) = factors.last_mut() {
                give_body(&mut last.term, body);
            }
        }
        TermKind::Sign { operand, .. } => give_body(operand, body),
        _ => {}
    }
}

/// A letter (or a call, `A(i)`) that only a convention gave a kind, where a set is meant.
fn domain_is_a_set(term: &mut Term) {
    let occurrence = match &mut term.kind {
        TermKind::Symbol(occurrence) => occurrence.as_mut(),
        TermKind::Apply(app) => match &mut app.callee.kind {
            TermKind::Symbol(occurrence) => occurrence.as_mut(),
            _ => return,
        },
        _ => return,
    };
    let capital = occurrence.base_name.starts_with(|c: char| c.is_ascii_uppercase());
    if (capital || occurrence.scripts.is_empty()) && occurrence.evidence >= Evidence::Known {
        occurrence.kind = SymbolKind::Set;
        occurrence.evidence = Evidence::Use;
    }
}

/// Large operators that pick an extreme over their variable.
const EXTREMA: &[&str] = &["min", "max", "argmin", "argmax", "sup", "inf"];

impl Resolver<'_> {
    /// `\min_G \max_D \mathcal{L}(G, D)`, `\arg\min_{h \in \mathcal{H}} L_S(h)`, `\sup_{g \in
    /// \mathcal{G}}`: what an extreme is taken over is a function when it is a capital papers use
    /// for functions (the generator, the discriminator, the value function Q), or a letter papers
    /// use for functions that ranges over the class named by the same letter in a curly font.
    fn functions_optimised_over(&self, over: &mut Term) {
        let (variable, class) = match &mut over.kind {
            TermKind::Chain { first, rest } => match rest.as_mut_slice() {
                [joint] if matches!(joint.op, InfixOp::Relation(r) if r == "\\in") => (
                    first.as_mut(),
                    joint.term.occurrence().map(|o| (o.base_name.to_string(), super::roles::font_of(o.base))),
                ),
                _ => return,
            },
            _ => (over, None),
        };
        let TermKind::Symbol(occurrence) = &mut variable.kind else { return };
        let letter = occurrence.base_name.as_str();
        let function_letter = super::notation::has(&self.notation.function_letters, letter)
            && occurrence.scripts.is_empty()
            && super::roles::font_of(occurrence.base) == Font::Normal;
        let capital = letter.len() == 1 && letter.starts_with(|c: char| c.is_ascii_uppercase());
        let own_class = class.as_ref().is_some_and(|(name, font)| {
            matches!(font, Font::Calligraphic | Font::Script) && *name == letter.to_ascii_uppercase()
        });
        let alone = capital && class.is_none();
        if function_letter && (alone || own_class) && occurrence.evidence >= Evidence::Use {
            occurrence.kind = SymbolKind::Function;
            occurrence.evidence = Evidence::Use;
        }
    }
}

/// Whether a node is the d of `dx`.
fn is_dee(node: &Node) -> bool {
    matches!(&node.kind, NodeKind::Symbol { name, font: Font::Normal | Font::Roman } if name == "d")
}

/// The variables a large operator binds: `x` of `\sum_x` and of `\sum_{x \in \mathcal{X}}`, `s'`
/// and `r` of `\sum_{s', r}`.
fn for_each_bound(variable: &mut Term, visit: &mut dyn FnMut(&mut Occurrence)) {
    match &mut variable.kind {
        TermKind::Symbol(occurrence) => visit(occurrence),
        TermKind::Chain { first, rest } => {
            let separators = rest.iter().all(|j| matches!(j.op, InfixOp::Separator(_)));
            for_each_bound(first, visit);
            if separators {
                rest.iter_mut().for_each(|j| for_each_bound(&mut j.term, visit));
            }
        }
        _ => {}
    }
}

/// Plain occurrences of `names` in `term` that usage made indices are the random variables the
/// operator runs over.
fn mark_random(term: &mut Term, names: &[String], depth: usize) {
    if depth > crate::syntax::depth::WALK_GUARD {
        return;
    }
    if let TermKind::Symbol(occurrence) = &mut term.kind {
        if occurrence.kind == SymbolKind::Index && names.iter().any(|n| *n == occurrence.name) {
            occurrence.kind = SymbolKind::RandomVariable;
            occurrence.evidence = Evidence::Use;
        }
        return;
    }
    term.for_each_child_mut(|child| mark_random(child, names, depth + 1));
}

/// `1 \le j \le n`: the lower limit, the variable (one letter) and the upper limit of a range
/// closed at both ends.
fn closed_range(sub: &Node) -> Option<(&Node, &Node, &Node)> {
    let NodeKind::Chain { first, rest } = &sub.kind else { return None };
    let [a, b] = rest.as_slice() else { return None };
    let at_most = |op: &InfixOp| matches!(op, InfixOp::Relation(r) if r == "\\le" || r == "\\leq");
    let letter = matches!(a.operand.kind, NodeKind::Symbol { .. });
    (at_most(&a.op) && at_most(&b.op) && letter).then_some((first.as_ref(), &a.operand, &b.operand))
}
