//! Syntax tree → [`Term`]: what applies to what, and how far each operator reaches.
//!
//! A row of side-by-side factors (and `\cdot`, `/`, …) is read left to right:
//!
//! - a leading sign covers the whole row: `-\sum_i p_i \log q_i`, `-\log p`, `-\max_i z_i`;
//! - a large operator (`\sum_i`, `\prod_t`, `\max_j`, `\arg\max_\theta`, `\int … dx`) takes the
//!   rest of the row as its body; a body that starts after an additive sign (`\sum_i -x_i`) is
//!   that signed operand;
//! - a callee beside a parenthesis is applied to it when [`Resolver::is_call`] says so;
//! - an operator name or symbol without parentheses (`\log`, `\exp`, `\nabla_\theta`,
//!   `\partial`, `\Delta`) takes the next factor; an expectation `\mathbb{E}_x` takes its bracket,
//!   or the rest of the row when none follows.
//!
//! Symbols and their scripts are resolved in `scripts.rs`, large operators in `bigops.rs`,
//! applications in `application.rs`, kinds in `roles.rs`.

use super::agree::{
    arrays_around_hadamard, capitals_beside_matrices, counted_is_a_set, matrices_before_vectors,
    vectors_after_matrices, vectors_inside,
};
use super::expectations::{
    draws_by_sampling, is_italic_expectation, is_paren_group, is_probability_of_event,
};
use super::roles::Place;
use super::sizes::{sizes_inside_rounding, sizes_times_sizes};
use super::tree::{Clause, Factor, OperatorApplication, ScriptRole, Term, TermKind};
use super::SymbolTable;
use crate::syntax::ast::{Delim, Font, InfixOp, Node, NodeKind, Span, WordStyle};

/// How deep resolution goes for a nesting limit of `max_depth` (the table's,
/// [`SymbolTable::max_depth`]). Resolution takes a step for each node on the way down (at most
/// `max_depth` of them hold others in a tree the parser accepted) and a step for each level it
/// makes without a node of its own (an operator's operand, a large operator's body, a row
/// under a hoisted sign: levels of the resolved tree, at most `max_depth` in a tree
/// [`super::resolve_checked`] accepts), so at most two steps a level: `{\log {\log … x}}` 256
/// deep takes 512 (the most found over 9,632 nests of two and three delimiters, operators and
/// scripts at the limit; an eighth or a half past the limit refused such nests from 148 and
/// 195 levels). Deeper parts stay leaves, and the resolver notes where ([`Resolver::elided`]):
/// [`super::resolve_checked`] reports that as too deep, never silently. At the default (256)
/// the deepest formulas measured, accepted or refused, fit a 1.5 MiB thread stack through
/// every layer (about 1 MiB is used; checked by `tests/regressions.rs`).
pub fn guard(max_depth: usize) -> usize {
    2 * max_depth + 8
}

/// One item of a row: the operator before it, the operator's span, the operand.
pub(super) type Item<'n> = (Option<&'n InfixOp>, Span, &'n Node);

/// Resolves syntax into terms, knowing what the document has declared.
pub struct Resolver<'t> {
    pub(super) table: &'t SymbolTable,
    pub(super) notation: &'static super::notation::Notation,
    /// Steps past which resolution stops ([`guard`]).
    guard: usize,
    /// Where resolution first stopped for depth.
    elided: std::cell::Cell<Option<Span>>,
    /// Whether an italic `d` is a differential here: inside `\frac{dy}{dx}` (Leibniz).
    pub(super) italic_differential: std::cell::Cell<bool>,
    /// The parameters of the function a definition is defining, while its right side is read
    /// (`x` of `m(x) = \mathbb{E}[f(x)]`): free there, so no expectation averages over them.
    pub(super) parameters: std::cell::RefCell<Vec<String>>,
}

impl<'t> Resolver<'t> {
    /// A resolver that knows `table`.
    pub fn new(table: &'t SymbolTable) -> Self {
        Resolver {
            table,
            notation: super::notation::Notation::shipped(),
            guard: guard(table.max_depth()),
            elided: std::cell::Cell::new(None),
            italic_differential: std::cell::Cell::new(false),
            parameters: std::cell::RefCell::new(Vec::new()),
        }
    }

    /// Where resolution first stopped because the formula nests past the guard, if it did.
    pub fn elided(&self) -> Option<Span> {
        self.elided.get()
    }

    /// Whether `depth` steps are past the guard; notes `span` as elided when they are.
    fn too_deep(&self, depth: usize, span: Span) -> bool {
        let past = depth > self.guard;
        if past && self.elided.get().is_none() {
            self.elided.set(Some(span));
        }
        past
    }

    /// The term of a whole formula.
    pub fn formula<'n>(&self, root: &'n Node) -> Term<'n> {
        // `dx = f(x, t)\,dt + g(t)\,dw`: an italic d is a differential throughout.
        self.italic_differential.set(super::differentials::is_differential_equation(root));
        self.term(root, Place::Plain, 0)
    }

    /// The term of any node, read on its own (a side of an equation, a script).
    pub fn node<'n>(&self, node: &'n Node) -> Term<'n> {
        self.term(node, Place::Plain, 0)
    }

    /// The term of `node`, at `place`, `depth` levels down.
    pub(super) fn term<'n>(&self, node: &'n Node, place: Place, depth: usize) -> Term<'n> {
        if self.too_deep(depth, node.span) {
            return Term::of(TermKind::Leaf, node);
        }
        let d = depth + 1;
        let boxed = |n: &'n Node, p: Place| self.term(n, p, d).boxed();
        let kind = match &node.kind {
            NodeKind::Number { .. } => TermKind::Number,
            NodeKind::Symbol { .. }
            | NodeKind::Word { .. }
            | NodeKind::Accent { .. }
            | NodeKind::Styled { .. }
                if self.is_name(node) =>
            {
                return self.symbol(node, place, d);
            }
            // `\text{tokens per batch}` as a fraction's numerator, `\times \text{capacity
            // factor}`: text left in a row (prose was cut off before) names a quantity.
            NodeKind::Word { style: WordStyle::Text, text } if self.is_text_quantity(node, text) => {
                return self.symbol(node, place, d);
            }
            NodeKind::Symbol { .. }
            | NodeKind::Word { .. }
            | NodeKind::Dots { .. }
            | NodeKind::Punct { .. }
            | NodeKind::Unknown { .. }
            | NodeKind::Empty => TermKind::Leaf,
            NodeKind::LargeOp { .. } => return self.big_op(node, None, None, place, d),
            NodeKind::Chain { first, rest } => return self.chain(node, first, rest, place, d),
            NodeKind::Prefix { op, operand } => TermKind::Sign { op: *op, operand: boxed(operand, place) },
            NodeKind::Factorial { operand } => TermKind::Factorial(boxed(operand, place)),
            NodeKind::Scripts { .. } => return self.scripts(node, place, d),
            NodeKind::Frac { num, den } => {
                let den_place = if self.is_one(num) && !super::roles::is_difference_of_products(den) {
                    Place::Count
                } else if super::roles::is_lone_letter(den) || is_bars(den) {
                    // `\frac{|A|}{|S|}`: bars below a fraction count, as below a one.
                    Place::Divisor
                } else {
                    place
                };
                // `\frac{|A|}{|S|}`: bars over bars count too, a share of a set.
                let place = if is_bars(num) && is_bars(den) { Place::Divisor } else { place };
                // `\frac{dy}{dx}`, `\frac{d}{dt}`: an italic d over `d` and one letter is
                // Leibniz's differential, not a size.
                let outer = self.italic_differential.get();
                if super::leibniz::italic_leibniz(num, den) {
                    self.italic_differential.set(true);
                }
                let num = match self.leibniz_numerator(num, den, place, d) {
                    Some(derivative) => derivative.boxed(),
                    // `\frac{d}{dx}`: the sign alone over the variable names no symbol.
                    None if self.is_lone_differential(num) => Term::of(TermKind::Leaf, num).boxed(),
                    // `\frac{d^2}{dx^2}`, `\frac{d^n}{dx^n}`: the sign raised to the order, no size d.
                    None if self.is_raised_differential(num) => self.raised_sign(num, d).boxed(),
                    None => boxed(num, place),
                };
                let mut den = boxed(den, den_place);
                self.italic_differential.set(outer);
                super::agree::ratio_of_densities(&num, &mut den);
                TermKind::Frac { num, den }
            }
            NodeKind::Binom { top, bottom } => {
                TermKind::Binom { top: boxed(top, Place::Count), bottom: boxed(bottom, Place::Count) }
            }
            NodeKind::Sqrt { index, radicand } => TermKind::Sqrt {
                index: index.as_deref().map(|i| boxed(i, Place::Plain)),
                radicand: boxed(radicand, Place::Radicand),
            },
            NodeKind::Accent { accent, body } => TermKind::Accent { accent, body: boxed(body, place) },
            NodeKind::Styled { body, .. } | NodeKind::Boxed { body } => TermKind::Wrapped(boxed(body, place)),
            NodeKind::Stacked { base, .. } => TermKind::Wrapped(boxed(base, place)),
            NodeKind::Fenced { open, body, .. } => {
                // `\frac{1}{|\mathcal{B}|}`: bars make the count; what they hold is what is
                // counted (a set), not a count itself.
                let counted = matches!(place, Place::Count | Place::Divisor);
                let inner = if *open == Delim::Bar && counted { Place::Plain } else { place };
                let mut body = boxed(body, inner);
                super::chains::condition_takes_the_list(&mut body);
                if matches!(open, Delim::Paren | Delim::Bracket) {
                    super::chains::condition_takes_the_relation(&mut body);
                }
                if *open == Delim::Bar && counted {
                    counted_is_a_set(&mut body);
                }
                if matches!(open, Delim::Floor | Delim::Ceil) {
                    sizes_inside_rounding(&mut body);
                }
                if *open == Delim::Bar && !counted {
                    super::positions::position_used_as_number(&mut body);
                }
                if matches!(open, Delim::Angle | Delim::DoubleBar) {
                    // `\langle a, b \rangle`, `\|a\|`: what an inner product or a norm takes is a
                    // vector, whatever its letter suggests.
                    vectors_inside(&mut body);
                }
                TermKind::Fenced { open: *open, body }
            }
            NodeKind::Annotated { body, label, .. } => TermKind::Annotated {
                body: boxed(body, place),
                label: label.as_deref().map(|l| boxed(l, Place::Count)),
            },
            NodeKind::Rows(table) => {
                let mut rows: Vec<Vec<Term<'n>>> = table
                    .rows
                    .iter()
                    .map(|row| row.iter().map(|cell| self.term(cell, place, d)).collect())
                    .collect();
                if table.env.as_deref().is_some_and(|env| env.ends_with("matrix")) {
                    rows.iter_mut().flatten().for_each(super::sizes::entry_is_a_number);
                }
                TermKind::Rows(rows)
            }
        };
        let mut term = Term::of(kind, node);
        // `[0, 1)`: brackets that do not match bound an interval wherever they stand.
        super::intervals::make_interval(&mut term, false);
        term
    }

    /// Whether `node` is `1`.
    fn is_one(&self, node: &Node) -> bool {
        matches!(&node.kind, NodeKind::Number { text, .. } if text == "1")
    }

    /// A chain: by the level of its first operator.
    fn chain<'n>(
        &self,
        node: &'n Node,
        first: &'n Node,
        rest: &'n [crate::syntax::ast::Link],
        place: Place,
        d: usize,
    ) -> Term<'n> {
        if rest.is_empty() {
            return self.term(first, place, d);
        }
        match super::chains::row_items(node) {
            Some(items) => self.row(node, &items, place, d),
            None => self.joined(node, first, rest, place, d),
        }
    }

    /// A row of factors, left to right (see the module comment).
    pub(super) fn row<'n>(&self, node: &'n Node, items: &[Item<'n>], place: Place, d: usize) -> Term<'n> {
        if self.too_deep(d, items_span(items)) {
            return Term::new(TermKind::Leaf, items_span(items), node);
        }
        if let Some(clauses) = self.prose(node, items, place, d) {
            return clauses;
        }
        let items = without_final_stop(items);
        if let Some(((op, op_span, first), tail)) = items.split_first() {
            if let (NodeKind::Prefix { op: sign, operand }, false) = (&first.kind, tail.is_empty()) {
                let hoisted: Vec<Item<'n>> =
                    std::iter::once((*op, *op_span, operand.as_ref())).chain(tail.iter().copied()).collect();
                let inner = self.row(node, &hoisted, place, d + 1);
                return Term::new(
                    TermKind::Sign { op: *sign, operand: inner.boxed() },
                    items_span(items),
                    node,
                );
            }
        }
        // Not sized by the items: a large operator takes the rest of the row as one factor, and
        // rows nested in its body would each reserve the whole remainder (quadratic memory).
        let mut factors: Vec<Factor<'n>> = Vec::new();
        let mut i = 0;
        while let Some(&(op, op_span, item)) = items.get(i) {
            // The operator before a row's first item is not the row's (`rest_of_row`).
            let op = if i == 0 { None } else { op };
            let item_place = if self.is_divisor(items, i) && super::roles::is_lone_letter(item) {
                Place::Divisor
            } else {
                place
            };
            let (term, used) = match self.italic_word(items, i, place) {
                Some(word) => word,
                // The row is the level its factors hang from: no step of its own.
                None => self.factor(node, items, i, item_place, d),
            };
            let balanced = op == Some(&InfixOp::Juxt)
                && factors.last().is_some_and(|previous: &Factor| self.is_balanced(&previous.term, &term));
            factors.push(Factor { op, op_span, term, balanced });
            i += used.max(1);
        }
        vectors_after_matrices(&mut factors);
        matrices_before_vectors(&mut factors);
        super::agree::preconditioners_before_gradients(&mut factors);
        arrays_around_hadamard(&mut factors);
        super::runs::maps_in_a_composition(&mut factors);
        sizes_times_sizes(&mut factors);
        super::counts::counted_products(&mut factors);
        capitals_beside_matrices(&mut factors);
        super::positions::positions_scaling(&mut factors);
        super::sets::factored_sets(&mut factors);
        super::sizes::weight_before_a_sum(&mut factors);
        super::sizes::complement_weights(&mut factors);
        let mut factors = super::runs::group_runs(factors, node);
        match factors.len() {
            1 => factors.pop().map_or_else(|| Term::new(TermKind::Leaf, node.span, node), |f| f.term),
            _ => Term::new(TermKind::Product(factors), items_span(items), node),
        }
    }

    /// A row cut at its words of prose into clauses, each read as a row of its own.
    fn prose<'n>(&self, node: &'n Node, items: &[Item<'n>], place: Place, d: usize) -> Option<Term<'n>> {
        let (head, cuts) = super::prose::cut_row(items, |n| {
            super::prose::is_prose_word(n, self.notation, |m| self.is_name(m))
        })?;
        let clause = |items: &[Item<'n>]| (!items.is_empty()).then(|| self.row(node, items, place, d + 1));
        let first = (!head.is_empty()).then(|| Clause { words: None, term: clause(head) });
        let rest = cuts
            .into_iter()
            .map(|(words, body)| Clause { words: Some(Term::of(TermKind::Leaf, words)), term: clause(body) });
        let clauses = super::prose::split_quantified(first.into_iter().chain(rest).collect());
        Some(Term::new(TermKind::Prose(clauses), items_span(items), node))
    }

    /// Whether item `i` of a row is what the row divides by: it follows the row's only `/` and
    /// ends the row (`\alpha / K`; not `Q/K/V`, a list, nor `\partial L / \partial Q`).
    fn is_divisor(&self, items: &[Item], i: usize) -> bool {
        let slash = |item: &Item| matches!(item.0, Some(InfixOp::Multiplicative(o)) if o == "/");
        i > 0
            && i + 1 == items.len()
            && items.get(i).is_some_and(slash)
            && items.iter().skip(1).filter(|item| slash(item)).count() == 1
    }

    /// Whether a symbol beside a parenthesis could as well be applied to it as multiply it: a
    /// lower-case Latin letter that nothing declared, that papers do not use for functions, before
    /// one expression that is no list and no condition (`w(a+b)`), and that does not hold the
    /// letter itself (`x(x - 2)` multiplies).
    fn is_balanced(&self, previous: &Term, term: &Term) -> bool {
        let Some(occurrence) = previous.occurrence() else { return false };
        let letter = occurrence.base_name.as_str();
        let lower_latin = letter.len() == 1 && letter.starts_with(|c: char| c.is_ascii_lowercase());
        let undecided = occurrence.scripts.is_empty()
            && occurrence.evidence >= super::Evidence::Known
            && matches!(occurrence.base.kind, NodeKind::Symbol { font: Font::Normal, .. });
        let group = matches!(&term.kind, TermKind::Fenced { open: Delim::Paren, body }
            if !matches!(&body.kind, TermKind::Chain { rest, .. } if rest.iter().any(|j| matches!(j.op, InfixOp::Separator(_) | InfixOp::Relation(_)))));
        let compound = matches!(&term.kind, TermKind::Fenced { body, .. } if !matches!(body.kind, TermKind::Symbol(_) | TermKind::Number));
        // `x(x - 2)`, `n(n - 1)`: a letter before a bracket that holds it again multiplies it.
        let holds_itself = term.occurrences().iter().any(|(_, o)| o.name == occurrence.name);
        lower_latin
            && !holds_itself
            && undecided
            && group
            && compound
            && !super::notation::has(&self.notation.function_letters, letter)
    }

    /// A run of side-by-side italic letters that papers use as one name (`pos`, `PE_{…}`), as
    /// one symbol, and how many items it takes.
    fn italic_word<'n>(&self, items: &[Item<'n>], i: usize, place: Place) -> Option<(Term<'n>, usize)> {
        let letter = |n: &'n Node| match &n.kind {
            NodeKind::Symbol { name, font: Font::Normal | Font::Italic } if name.len() == 1 => {
                Some(name.as_str())
            }
            _ => None,
        };
        let first = letter(items.get(i)?.2)?;
        let mut word = first.to_string();
        let mut found = None;
        for (k, (op, _, node)) in items.iter().enumerate().skip(i + 1).take(7) {
            if *op != Some(&InfixOp::Juxt) {
                break;
            }
            let (piece, scripted) = match &node.kind {
                NodeKind::Scripts { base, .. } => (letter(base), true),
                _ => (letter(node), false),
            };
            let Some(piece) = piece else { break };
            word.push_str(piece);
            if super::notation::has(&self.notation.italic_words, &word) {
                found = Some((k, word.clone()));
            }
            if scripted {
                break;
            }
        }
        let (last, word) = found?;
        let (first_node, last_node) = (items.get(i)?.2, items.get(last)?.2);
        let scripts = match &last_node.kind {
            NodeKind::Scripts { base, sub, sup, .. } => {
                let mut parts = Vec::new();
                if let Some(sub) = sub.as_deref() {
                    let role = self.sub_role(base, sub);
                    parts.push(self.word_script(sub, role, false));
                }
                if let Some(sup) = sup.as_deref() {
                    parts.push(self.word_script(sup, ScriptRole::Label, true));
                }
                parts
            }
            _ => Vec::new(),
        };
        let name = if scripts.is_empty() {
            word.clone()
        } else {
            format!("{word}_{}", super::binding_name_or_latex(scripts.first().map(|s| s.term.node)?))
        };
        let mut term =
            self.occurrence_named(first_node, first_node, word.into(), name.into(), scripts, place);
        term.span = first_node.span.join(last_node.span);
        Some((term, last + 1 - i))
    }

    fn word_script<'n>(&self, node: &'n Node, role: ScriptRole, above: bool) -> super::tree::Script<'n> {
        let place = if role == ScriptRole::Index { Place::Index } else { Place::Plain };
        super::tree::Script { role, above, term: self.term(node, place, 1).boxed() }
    }

    /// The factor at `items[i]` and how many items it takes.
    pub(super) fn factor<'n>(
        &self,
        node: &'n Node,
        items: &[Item<'n>],
        i: usize,
        place: Place,
        d: usize,
    ) -> (Term<'n>, usize) {
        let remaining = items.len().saturating_sub(i);
        let Some(&(_, _, item)) = items.get(i) else { return (Term::of(TermKind::Leaf, node), 1) };
        let rest_span = items_span(items.get(i..).unwrap_or(&[]));
        if self.too_deep(d, rest_span) {
            return (Term::new(TermKind::Leaf, rest_span, node), remaining);
        }
        let next = items.get(i + 1).filter(|(op, _, _)| matches!(op, Some(InfixOp::Juxt))).map(|t| t.2);
        if next.is_some() {
            if let Some(derivative) = self.derivative_before(node, items, i, place, d) {
                return derivative;
            }
        }
        if let Some((name, limits)) = self.arg_max(item, next) {
            let rest = items.get(i + 2..).unwrap_or(&[]);
            return (self.big_op_in_row(node, limits, Some(name), rest, place, d), remaining);
        }
        if let Some(call) = self.arg_max_call(item, items, i, place, d) {
            return (call, 3);
        }
        if self.is_big_op(item) {
            let rest = items.get(i + 1..).unwrap_or(&[]);
            return (self.big_op_in_row(node, item, None, rest, place, d), remaining);
        }
        let Some(argument) = next else { return (self.term(item, place, d), 1) };
        if is_italic_expectation(item, argument, self.notation) {
            return self.operator(node, "E", items, i, place, d);
        }
        if is_probability_of_event(item, argument) {
            return self.operator(node, "Pr", items, i, place, d);
        }
        // `\mathbb{H}[y \mid x]`, `\mathbb{I}(X; Y)`: applied as their italic letters are.
        if super::expectations::is_information_measure(item, argument) {
            return (self.apply(item, argument, place, d), 2);
        }
        // `\mathbb{E}(X)`, `\mathrm{E}(X \mid Y)`: an expectation's name before parentheses is
        // the expectation of what they hold, as before square brackets (an italic `E(\mathbf{w})`
        // is a function, an error or an energy, unless `is_italic_expectation` said otherwise).
        // A calligraphic E applied is a function (`\mathcal{E}(x)`, an encoder).
        let calligraphic = matches!(&item.kind, NodeKind::Symbol { font: Font::Calligraphic, .. });
        if self.operator_name(item) == Some("E") && is_paren_group(argument) && !calligraphic {
            return self.operator(node, "E", items, i, place, d);
        }
        if self.is_call(item, argument) {
            return (self.apply(item, argument, place, d), 2);
        }
        if let Some(delta) = self.increment(item, argument, place, d) {
            return (delta, 2);
        }
        if let Some(name) = self.operator_name(item) {
            if !(name == "nabla" && Self::gradient_standing_alone(items, i + 1)) {
                return self.operator(node, name, items, i, place, d);
            }
        }
        (self.term(item, place, d), 1)
    }

    /// `\nabla_\tau \nabla_\tau^\top`: a gradient followed by a gradient that takes nothing after
    /// it (the row ends, or something other than a factor follows) is a gradient of its own, and the
    /// two an outer product; before `L` (`\nabla_\theta \nabla_\theta^\top L`) the first takes the
    /// second, a Hessian.
    fn gradient_standing_alone(items: &[Item], next: usize) -> bool {
        let Some((Some(InfixOp::Juxt), _, gradient)) = items.get(next) else { return false };
        let scripted_nabla = matches!(&gradient.kind, NodeKind::Scripts { base, .. }
            if matches!(&base.kind, NodeKind::Symbol { name, .. } if name == "nabla"));
        scripted_nabla && !items.get(next + 1).is_some_and(|(op, _, _)| matches!(op, Some(InfixOp::Juxt)))
    }

    /// `\Delta W`, `\Delta \boldsymbol{\theta}`: one name, the change in W, of W's kind.
    fn increment<'n>(&self, delta: &'n Node, name: &'n Node, place: Place, d: usize) -> Option<Term<'n>> {
        let is_delta = matches!(&delta.kind, NodeKind::Symbol { name, .. } if name == "Delta");
        let base = match &name.kind {
            NodeKind::Scripts { base, .. } => base.as_ref(),
            _ => name,
        };
        if !is_delta || !self.is_name(base) {
            return None;
        }
        let inner = self.term(name, place, d);
        let TermKind::Symbol(occurrence) = inner.kind else { return None };
        let mut occurrence = *occurrence;
        occurrence.name = format!("Delta{}", occurrence.name).into();
        occurrence.base_name = format!("Delta{}", occurrence.base_name).into();
        occurrence.base = delta;
        // What the formula settled for the increment itself (`\Delta x_t = -\eta g_t, \quad
        // x_{t+1} = x_t + \Delta x_t`) outweighs what its letter's convention said.
        if occurrence.evidence == super::Evidence::Convention {
            if let Some(found) = self.recorded_kind(&occurrence, false) {
                (occurrence.kind, occurrence.evidence) = found;
            }
        }
        // `\Delta t`, `\Delta k`: the step between two times or positions is an amount, not a
        // position itself (nor a size), in a subscript too (`x_{t + \Delta t}`), unless declared.
        if occurrence.evidence != super::Evidence::Declared
            && matches!(occurrence.kind, super::SymbolKind::Index | super::SymbolKind::Dimension)
        {
            occurrence.kind = super::SymbolKind::Scalar;
        }
        let span = delta.span.join(inner.span);
        let mut term = Term::new(TermKind::Symbol(Box::new(occurrence)), span, name);
        term.span = span;
        Some(term)
    }

    /// An operator name at `items[i]` with its operand: the next factor, or for an
    /// expectation without a bracket the rest of the row.
    pub(super) fn operator<'n>(
        &self,
        node: &'n Node,
        name: &'n str,
        items: &[Item<'n>],
        i: usize,
        place: Place,
        d: usize,
    ) -> (Term<'n>, usize) {
        let Some(&(_, _, op)) = items.get(i) else { return (Term::of(TermKind::Leaf, node), 1) };
        if let Some(term) = self.scripted_expectation(node, name, items, i, place, d) {
            return (term, 2);
        }
        let next_is_bracket = items.get(i + 1).is_some_and(|(_, _, n)| is_bracket(n));
        let random = name == "E" || super::notation::has(&self.notation.random_variable_operators, name);
        // `\mathbb{E}_{x \sim p}[(D(x) - b)^2]`: an expectation that says below it what it draws
        // averages over that; the other letters inside keep their own kinds (b a constant).
        let drawn_below = name == "E" && draws_by_sampling(op);
        let lone_letter = items.get(i + 1).is_some_and(|(_, _, n)| super::roles::is_lone_letter(n));
        let operand_place = if random && !drawn_below {
            Place::Random
        } else if lone_letter && super::notation::has(&self.notation.matrix_functions, name) {
            // `\det A`, `\operatorname{null} T`: the letter a matrix function takes is a matrix,
            // with parentheses or without.
            Place::MatrixOperand
        } else if lone_letter && super::notation::has(&self.notation.space_functions, name) {
            // `\dim V`: what a space's measure takes is a space.
            Place::Container
        } else {
            place
        };
        let (mut operand, used) = if (name == "E" && !next_is_bracket) || self.scales_a_big_operator(items, i)
        {
            let rest = items.get(i + 1..).unwrap_or(&[]);
            (self.rest_of_row(node, rest, operand_place, d), rest.len())
        } else {
            self.factor(node, items, i + 1, operand_place, d + 1)
        };
        if drawn_below {
            super::expectations::givens_are_random(&mut operand);
        }
        self.operator_over(node, name, op, operand, used, d)
    }

    /// `\log \frac{1}{N} \sum_j e^{s_j}`, `\exp \frac{1}{N} \sum_i \log p(x_i)`: an operator name
    /// before a fraction side by side with a big operator takes the mean they make together (no
    /// paper writes the log of 1/N times a sum without parentheses).
    fn scales_a_big_operator(&self, items: &[Item], i: usize) -> bool {
        let fraction = items.get(i + 1).is_some_and(|(op, _, n)| {
            matches!(op, Some(InfixOp::Juxt)) && matches!(n.kind, NodeKind::Frac { .. })
        });
        let big =
            items.get(i + 2).is_some_and(|(op, _, n)| matches!(op, Some(InfixOp::Juxt)) && self.is_big_op(n));
        fraction && big
    }

    /// The operator `op` named `name` applied to `operand`, which took `used` items after it.
    pub(super) fn operator_over<'n>(
        &self,
        node: &'n Node,
        name: &'n str,
        op: &'n Node,
        mut operand: Term<'n>,
        used: usize,
        d: usize,
    ) -> (Term<'n>, usize) {
        // `\nabla f(x)^\top`, `\nabla f_k^T`: the transpose is of the gradient, `(\nabla f(x))^\top`;
        // the inverse of `\nabla^2 f(x)^{-1}` is of the Hessian.
        let transpose = if name == "nabla" { take_transpose(&mut operand) } else { None };
        self.settle_operand(name, &mut operand);
        let (sub, sup) = match &op.kind {
            NodeKind::Scripts { sub, sup, .. } => (sub.as_deref(), sup.as_deref()),
            _ => (None, None),
        };
        let sub_place = if name == "E" { Place::Random } else { Place::Plain };
        let word = match &op.kind {
            NodeKind::Scripts { base, .. } => base.as_ref(),
            _ => op,
        };
        let function = matches!(word.kind, NodeKind::Word { .. }).then(|| self.term(word, Place::Callee, d));
        // `\log_2 p`: below a name that takes a base, the base.
        let based = super::notation::has(&self.notation.based_functions, name);
        let base = sub.filter(|_| based).map(|s| self.term(s, Place::Plain, d));
        let sub = sub.filter(|_| !based);
        let application = OperatorApplication {
            name,
            function,
            op,
            base,
            sub: sub.map(|s| {
                let mut sub = self.term(s, sub_place, d);
                if name == "E" {
                    super::expectations::averaged_arrays(&mut sub);
                }
                sub
            }),
            // `\mathbb{E}^{\pi}`: the law an expectation averages under.
            sup: sup.map(|s| self.term(s, if name == "E" { Place::Distribution } else { Place::Plain }, d)),
            operand,
        };
        let span = op.span.join(application.operand.span);
        let term = Term::new(TermKind::Operator(Box::new(application)), span, node);
        match transpose {
            Some((script, whole)) => {
                let kind = TermKind::Scripted { base: term.boxed(), sub: None, sup: Some(script), primes: 0 };
                (Term::new(kind, span.join(whole), node), 1 + used)
            }
            None => (term, 1 + used),
        }
    }

    /// The rest of a row as one term (the first item's operator dropped).
    pub(super) fn rest_of_row<'n>(
        &self,
        node: &'n Node,
        rest: &[Item<'n>],
        place: Place,
        d: usize,
    ) -> Term<'n> {
        // Not copied: a row ignores the operator before its first item, so the slice serves as
        // it is (copying it at every nested large operator was quadratic).
        match rest {
            [] => Term::new(TermKind::Leaf, Span::new(node.span.end, node.span.end), node),
            [(_, _, only)] => self.term(only, place, d),
            _ => self.row(node, rest, place, d + 1),
        }
    }

    /// Whether `text` (of the text node `node`) names a quantity (`\text{number of experts}`):
    /// no known name nor short word (`is_name`), words with a letter, not only words of prose,
    /// not a note closed by punctuation (`\textrm{Gaussian;}`).
    pub(super) fn is_text_quantity(&self, node: &Node, text: &str) -> bool {
        // `&& \textrm{Gaussian;}`: words closed by punctuation annotate a line, no quantity.
        let annotation = text.trim_end().ends_with([';', '.', ':']);
        !self.is_name(node)
            && !annotation
            && text.chars().any(char::is_alphabetic)
            && !super::prose::is_connectives(text, self.notation)
    }

    /// `d`, `\mathrm{d}`, `\partial` alone (a numerator over `dx`).
    fn is_lone_differential(&self, node: &Node) -> bool {
        matches!(node.kind, NodeKind::Symbol { .. })
            && self.operator_name(node).is_some_and(|n| matches!(n, "d" | "partial"))
    }

    /// `d^2`, `\partial^k` alone over a differential: a sign raised to a derivative's order.
    fn is_raised_differential(&self, node: &Node) -> bool {
        matches!(&node.kind, NodeKind::Scripts { base, sub: None, sup: Some(_), .. }
            if matches!(base.kind, NodeKind::Symbol { .. }))
            && self.operator_name(node).is_some_and(|n| matches!(n, "d" | "partial"))
    }

    /// The sign of [`Self::is_raised_differential`] with its order as a power.
    fn raised_sign<'n>(&self, node: &'n Node, d: usize) -> Term<'n> {
        let NodeKind::Scripts { base, sup: Some(sup), .. } = &node.kind else {
            return Term::of(TermKind::Leaf, node);
        };
        let term = self.term(sup, Place::Count, d + 1).boxed();
        let order = super::tree::Script { role: ScriptRole::Power, above: true, term };
        let base = Term::of(TermKind::Leaf, base).boxed();
        Term::of(TermKind::Scripted { base, sub: None, sup: Some(order), primes: 0 }, node)
    }

    /// The name of an operator that applies to the factor after it without parentheses:
    /// `\log`, `\exp`, `\det`, `\nabla`, `\partial`, `\mathrm{d}`, `\mathbb{E}`, `\Delta`.
    pub(super) fn operator_name<'n>(&self, node: &'n Node) -> Option<&'n str> {
        let base = match &node.kind {
            NodeKind::Scripts { base, sup: None, .. } => base.as_ref(),
            NodeKind::Scripts { base, .. } if matches!(base.kind, NodeKind::Word { .. }) => base.as_ref(),
            // `\mathbb{E}^{\pi}[G_t]`, `\mathbb{E}_s^{\pi}`: the law named above an expectation is the
            // one it averages under (a policy), no power.
            NodeKind::Scripts { base, sup: Some(sup), .. }
                if super::expectations::names_a_law_above(base, sup) =>
            {
                base.as_ref()
            }
            // `\nabla^2 f(x)`, `\nabla_\theta^2 L`, `\partial^2 f`: a derivative of higher order;
            // `\frac{d^n f}{dx^n}`, `\partial^k`: of an order a letter names.
            NodeKind::Scripts { base, sup: Some(sup), .. }
                if is_order(sup)
                    && matches!(&base.kind, NodeKind::Symbol { name, font }
                        if name == "nabla" || name == "partial"
                            || (name == "d" && (*font == Font::Roman || self.italic_differential.get()))) =>
            {
                base.as_ref()
            }
            _ => node,
        };
        match &base.kind {
            NodeKind::Word { style: WordStyle::Text, text } => {
                super::notation::has(&self.notation.function_names, text).then_some(text.as_str())
            }
            NodeKind::Word { text, .. } => Some(text.as_str()),
            NodeKind::Symbol { name, font } => match (name.as_str(), font) {
                ("nabla" | "partial" | "Delta", _) | ("d", Font::Roman) => Some(name.as_str()),
                ("d", Font::Normal) if self.italic_differential.get() => Some(name.as_str()),
                ("E", Font::Blackboard | Font::Roman | Font::Calligraphic) => Some("E"),
                // `\mathbf{E}_{z \sim \mathcal{D}}[…]`: a bold E is an expectation where a draw or
                // a distribution stands below it (`\mathbf{E}[w_i]` alone picks a row of an
                // embedding matrix).
                ("E", Font::Bold) if matches!(&node.kind, NodeKind::Scripts { sub: Some(_), .. }) => {
                    Some("E")
                }
                _ => None,
            },
            // `\hat{\mathbb{E}}_t[…]`: the empirical expectation of PPO is an expectation.
            NodeKind::Accent { accent, body } if accent == "hat" => {
                self.operator_name(body).filter(|name| *name == "E")
            }
            _ => None,
        }
    }
}

/// A name written as a word (`\mathrm{head}_i`) that an equation gives a value: its kind is
/// the value's, not a function's.
pub(super) fn defined_by(lhs: &mut Term, rhs: &Term) {
    let TermKind::Symbol(occurrence) = &mut lhs.kind else { return };
    if !matches!(occurrence.base.kind, NodeKind::Word { .. }) || occurrence.evidence < super::Evidence::Known
    {
        return;
    }
    let kind = super::kind_of_term(rhs);
    if !matches!(kind, super::SymbolKind::Unknown | super::SymbolKind::Function) {
        occurrence.kind = kind;
        occurrence.evidence = super::Evidence::Use;
    }
}

/// The transpose or inverse written on a call's argument group (`f(x)^\top`, `f(x)^{-1}`), or
/// the transpose written on a symbol (`f_k^T`), taken off, with the span the whole covered.
fn take_transpose<'n>(operand: &mut Term<'n>) -> Option<(super::tree::Script<'n>, Span)> {
    let whole = operand.span;
    if let TermKind::Scripted { base, sub: None, sup, primes: 0 } = &mut operand.kind {
        if base.occurrence().is_none() || !sup.as_ref().is_some_and(|s| s.role == ScriptRole::Transpose) {
            return None;
        }
        let script = sup.take()?;
        let TermKind::Scripted { base, .. } = std::mem::replace(&mut operand.kind, TermKind::Leaf) else {
            return None;
        };
        *operand = *base;
        return Some((script, whole));
    }
    let TermKind::Apply(app) = &mut operand.kind else { return None };
    if !app.sup.as_ref().is_some_and(|s| matches!(s.role, ScriptRole::Transpose | ScriptRole::Inverse)) {
        return None;
    }
    let script = app.sup.take()?;
    operand.span = app.callee.span.join(app.group.span);
    Some((script, whole))
}

/// A row without the full stop or comma that ends a displayed formula (`y = 2x.`, `k \le x.`):
/// that is the sentence's punctuation, not a factor.
fn without_final_stop<'r, 'n>(items: &'r [Item<'n>]) -> &'r [Item<'n>] {
    match items.split_last() {
        Some(((Some(InfixOp::Juxt), _, last), rest)) if !rest.is_empty() && last.is_sentence_stop() => rest,
        _ => items,
    }
}

/// The span from the first item to the last.
fn items_span(items: &[Item]) -> Span {
    match (items.first(), items.last()) {
        (Some((_, _, a)), Some((_, _, b))) => a.span.join(b.span),
        _ => Span::default(),
    }
}

/// Whether a node is a bracket group `[…]` or `(…)` (possibly sized).
fn is_bracket(node: &Node) -> bool {
    matches!(node.kind, NodeKind::Fenced { open: Delim::Bracket | Delim::Paren, .. })
}

/// What may stand above a derivative's sign as its order: a number (`\partial^2`), or one italic
/// small letter or `N`, never a transpose's `T` (`d^n`, `\partial^k`, `d^N`).
fn is_order(sup: &Node) -> bool {
    match &sup.kind {
        NodeKind::Number { .. } => true,
        NodeKind::Symbol { name, font: Font::Normal } => {
            name.len() == 1 && name.chars().all(|c| c.is_ascii_lowercase() || c == 'N')
        }
        _ => false,
    }
}

/// Whether `node` is a pair of bars around something (`|S|`, `\left| A \right|`).
fn is_bars(node: &Node) -> bool {
    matches!(node.kind, NodeKind::Fenced { open: Delim::Bar, .. })
}
