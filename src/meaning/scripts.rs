//! Symbols and their scripts: which scripts are part of a symbol (`W_Q`, `q_i`, `W_i^Q`,
//! `h^{(l)}`) and which operate on it (`K^\top`, `x^2`, `A^{-1}`); calls against products are
//! `calls.rs`.

use super::notation::has;
use super::resolve::Resolver;
use super::roles::Place;
use super::tree::{Occurrence, Script, ScriptRole, Term, TermKind};
use crate::syntax::ast::{Delim, Font, InfixOp, Node, NodeKind, Span, Text};
use crate::syntax::names;

/// Symbol commands that are not names of anything a reader must identify.
const NOT_NAMES: &[&str] = &[
    "infty",
    "partial",
    "nabla",
    "emptyset",
    "varnothing",
    "forall",
    "exists",
    "top",
    "bot",
    "cdot",
    "prime",
];

impl Resolver<'_> {
    /// Whether `node` is a symbol a reader identifies: a letter, a Greek letter, a name, with
    /// an accent or a font.
    pub(super) fn is_name(&self, node: &Node) -> bool {
        match &node.kind {
            NodeKind::Symbol { name, .. } => {
                !NOT_NAMES.contains(&name.as_str())
                    && (name.len() == 1 && name.starts_with(|c: char| c.is_ascii_alphabetic())
                        || names::is_greek(name)
                        || matches!(name.as_str(), "ell" | "imath" | "jmath" | "hbar" | "aleph"))
            }
            // Text that is no known name (`\text{for }`, `\text{otherwise}`) is prose.
            NodeKind::Word { style: crate::syntax::ast::WordStyle::Text, text } => {
                has(&self.notation.function_names, text)
                    || text.len() <= 4
                        && !text.contains(' ')
                        && !super::prose::is_connectives(text, self.notation)
            }
            NodeKind::Word { .. } => true,
            NodeKind::Accent { body, .. } => self.is_name(body),
            NodeKind::Styled { body, .. } => self.is_name(body),
            _ => false,
        }
    }

    /// A symbol without scripts.
    pub(super) fn symbol<'n>(&self, node: &'n Node, place: Place, _d: usize) -> Term<'n> {
        let base_name = super::name_text(node).unwrap_or_default();
        let mut occurrence = Occurrence {
            name: base_name.clone(),
            base: node,
            base_name,
            scripts: Vec::new(),
            indexed: false,
            kind: super::SymbolKind::Unknown,
            evidence: super::tree::Evidence::None,
        };
        (occurrence.kind, occurrence.evidence) = self.decide(&occurrence, place);
        Term::of(TermKind::Symbol(Box::new(occurrence)), node)
    }

    /// A callee: a symbol with the scripts of its name (`p_\theta`, `D_{\mathrm{KL}}`,
    /// `L^{\mathrm{CLIP}}`, `f'`), or whatever else is applied.
    pub(super) fn symbol_or_term<'n>(&self, node: &'n Node, place: Place, d: usize) -> Term<'n> {
        match &node.kind {
            NodeKind::Scripts { base, sub, sup, primes } if self.is_name(base) => {
                let sub = sub.as_deref().map(|s| {
                    // `f_t(\theta)`, `f_m(\mathbf{x}_n)`: one of a family of functions.
                    let member = matches!(&s.kind, NodeKind::Symbol { name, font: Font::Normal }
                        if has(&self.notation.callee_member_letters, name))
                        && font_of_name(base) == Font::Normal;
                    let role = if member { ScriptRole::Family } else { ScriptRole::Label };
                    self.script(s, role, false, d)
                });
                let sup = sup.as_deref().map(|s| {
                    let role = self.sup_role(base, s);
                    let role = if role == ScriptRole::Power { ScriptRole::Label } else { role };
                    self.script(s, role, true, d)
                });
                self.occurrence(node, base, [sub, sup].into_iter().flatten().collect(), *primes, place)
            }
            _ => self.term(node, place, d),
        }
    }

    /// A node with scripts, standing alone (not applied, not a large operator in a row).
    pub(super) fn scripts<'n>(&self, node: &'n Node, place: Place, d: usize) -> Term<'n> {
        let NodeKind::Scripts { base, sub, sup, primes } = &node.kind else {
            return self.term(node, place, d);
        };
        if self.is_big_op(node) {
            return self.term_big_op_alone(node, place, d);
        }
        // `\left. \frac{\partial S}{\partial I} \right|_{I_0}`: what the bar closes, evaluated there.
        if let NodeKind::Fenced { open: Delim::Nothing, close: Some(Delim::Bar), body, .. } = &base.kind {
            let sub = sub.as_deref().map(|s| self.term(s, Place::Plain, d));
            let sup = sup.as_deref().map(|s| self.term(s, Place::Plain, d));
            return super::evaluations::evaluated(self.term(body, place, d), node, sub, sup);
        }
        if !self.is_name(base) {
            let base_term = self.term(base, place, d);
            let norm = matches!(base.kind, NodeKind::Fenced { open: Delim::DoubleBar, .. });
            let sub_role = if norm { ScriptRole::Label } else { ScriptRole::Index };
            let sub = sub.as_deref().map(|s| self.script(s, sub_role, false, d));
            let sup = sup.as_deref().map(|s| self.script(s, self.operation_role(s), true, d));
            let kind = TermKind::Scripted { base: base_term.boxed(), sub, sup, primes: *primes };
            return Term::of(kind, node);
        }
        let mut sub_role = sub.as_deref().map(|s| self.sub_role(base, s));
        let mut sup_role = sup.as_deref().map(|s| self.sup_role(base, s));
        let distribution_letter =
            base_letter(base).is_some_and(|l| has(&self.notation.distribution_letters, l));
        if place == Place::Distribution && distribution_letter && sub_role == Some(ScriptRole::Index) {
            // `\mathrm{JS}(p_r \| p_g)`, `x \sim q_k`: below a distribution compared or sampled
            // from, a letter names which one, not an entry.
            sub_role = Some(ScriptRole::Label);
        }
        let letter_sup = sup.as_deref().is_some_and(|s| matches!(&s.kind, NodeKind::Symbol { name, .. } if name.len() == 1 && self.table.recorded(name).is_none()));
        if sub_role == Some(ScriptRole::Index) && sup_role == Some(ScriptRole::Power) && letter_sup {
            // `x_i^a`: an indexed symbol's letter above is a label (anchor, positive), not a power.
            sup_role = Some(ScriptRole::Label);
        }
        let counted_sup = sup.as_deref().is_some_and(|s| matches!(&s.kind, NodeKind::Symbol { name, font: Font::Normal } if name.len() == 1 && self.table.recorded(name) == Some(super::SymbolKind::Index)));
        if sub_role == Some(ScriptRole::Index) && sup_role == Some(ScriptRole::Power) && counted_sup {
            // `\alpha_{ij}^k` under `\sum_{k=1}^{K}`: an entry's letter above that a sum runs
            // over picks the member of a family (the head k), not a power.
            sup_role = Some(ScriptRole::Family);
        }
        let latin_small = matches!(&base.kind, NodeKind::Symbol { name, font: Font::Normal } if name.len() == 1 && name.starts_with(|c: char| c.is_ascii_lowercase()));
        if sub_role == Some(ScriptRole::Label)
            && sup_role == Some(ScriptRole::Power)
            && latin_small
            && sup.as_deref().is_some_and(|s| self.is_step(s))
        {
            // `b_h^n`: a named parameter of a step or a layer (the layer of `h_t^n`).
            sup_role = Some(ScriptRole::Layer);
        }
        // Two positions or more below (`A_{ij}^k`) pick an entry of the k-th array.
        let entry = sub
            .as_deref()
            .is_some_and(|s| matches!(&s.kind, NodeKind::Chain { rest, .. } if !rest.is_empty()));
        if sub_role == Some(ScriptRole::Index) && sup_role == Some(ScriptRole::Label) && !entry {
            // `W_i^Q`: the i-th of the family W^Q, a matrix like the others.
            sub_role = Some(ScriptRole::Family);
        }
        let mut parts: Vec<Script<'n>> = Vec::with_capacity(2);
        if let (Some(s), Some(role)) = (sub.as_deref(), sub_role) {
            parts.push(self.script(s, role, false, d));
        }
        let mut operation = None;
        if let (Some(s), Some(role)) = (sup.as_deref(), sup_role) {
            let script = if is_reals(base) {
                // `\mathbb{R}^{B_r}`, `\mathbb{R}^{n \times d}`: the exponent holds sizes.
                Script { role, above: true, term: self.term(s, Place::Count, d).boxed() }
            } else {
                self.script(s, role, true, d)
            };
            match role {
                ScriptRole::Label
                | ScriptRole::Family
                | ScriptRole::Layer
                | ScriptRole::Order
                | ScriptRole::Mark
                | ScriptRole::Index => parts.push(script),
                _ => operation = Some(script),
            }
        }
        let Some(mut operation) = operation else {
            let mut symbol = self.occurrence(node, base, parts, *primes, place);
            sliced(&mut symbol);
            return symbol;
        };
        if operation.role == ScriptRole::Power
            && matches!(&base.kind, NodeKind::Symbol { name, .. } if name == "e")
        {
            // `e^{z_i / T}`: what divides the exponent is a temperature.
            super::agree::temperatures(&mut operation.term);
        }
        let end = parts.iter().map(|s| s.term.span.end).max().unwrap_or(base.span.end);
        let mut symbol = self.occurrence(node, base, parts, *primes, place);
        sliced(&mut symbol);
        if operation.role == ScriptRole::Transpose {
            transposed(&mut symbol);
        }
        if operation.role == ScriptRole::Inverse {
            inverted(&mut symbol);
        }
        if operation.role == ScriptRole::Ordinal {
            // `k^{\text{th}}`: the letter counts which one, a position.
            super::positions::ordinal_is_a_position(&mut symbol);
        }
        if operation.role == ScriptRole::Power {
            // `t^2`, `k^2`: a letter squared is a value, not a position.
            super::positions::position_used_as_number(&mut symbol);
            super::sizes::raised_to_a_real_power(
                &mut symbol,
                &operation.term,
                &self.notation.dimension_letters,
            );
        }
        symbol.span = Span::new(base.span.start, end.max(base.span.end));
        let kind = TermKind::Scripted { base: symbol.boxed(), sub: None, sup: Some(operation), primes: 0 };
        Term::of(kind, node)
    }

    /// A large operator standing alone, with its limits and no body.
    fn term_big_op_alone<'n>(&self, node: &'n Node, place: Place, d: usize) -> Term<'n> {
        let items = [(None, Span::default(), node)];
        self.row(node, &items, place, d)
    }

    /// The occurrence of `base` with the scripts that are part of it.
    pub(super) fn occurrence<'n>(
        &self,
        node: &'n Node,
        base: &'n Node,
        scripts: Vec<Script<'n>>,
        primes: u8,
        place: Place,
    ) -> Term<'n> {
        let base_name = super::name_text(base).unwrap_or_default();
        let simple = scripts.len() == 1 && primes == 0 && scripts.iter().all(|s| !s.above);
        let name = match if simple { super::binding_name(node) } else { None } {
            Some(name) => Text::from(name),
            None => Text::from(compound_name(&base_name, &scripts, primes)),
        };
        self.occurrence_named(node, base, base_name, name, scripts, place)
    }

    /// An occurrence with its name already made.
    pub(super) fn occurrence_named<'n>(
        &self,
        node: &'n Node,
        base: &'n Node,
        base_name: Text,
        name: Text,
        scripts: Vec<Script<'n>>,
        place: Place,
    ) -> Term<'n> {
        let indexed = scripts.iter().any(|s| s.role == ScriptRole::Index || s.role == ScriptRole::Range);
        let mut occurrence = Occurrence {
            name,
            base,
            base_name,
            scripts,
            indexed,
            kind: super::SymbolKind::Unknown,
            evidence: super::tree::Evidence::None,
        };
        (occurrence.kind, occurrence.evidence) = self.decide(&occurrence, place);
        Term::of(TermKind::Symbol(Box::new(occurrence)), node)
    }

    fn script<'n>(&self, node: &'n Node, role: ScriptRole, above: bool, d: usize) -> Script<'n> {
        if (role == ScriptRole::Label && is_label_text(node)) || role == ScriptRole::Ordinal {
            // A label is part of the name (`p_{\mathrm{data}}`, `W_Q`), an ordinal's ending part
            // of the number (`i^{\text{th}}`): no symbol of its own.
            return Script { role, above, term: Term::of(TermKind::Leaf, node).boxed() };
        }
        if role == ScriptRole::Label {
            if let Some(mut term) = self.tuple_label_term(node, d) {
                // `\mathcal{L}_{\theta, \xi}`: parameters listed together.
                super::agree::parameters_in_a_list(&mut term, &self.notation.parameter_letters);
                return Script { role, above, term: term.boxed() };
            }
        }
        let place = match role {
            // `P_{Y|X}`, `\mathbb{E}_{z|x}`: a script holding a condition names a conditional law,
            // of random variables.
            _ if self.names_a_condition(node) => Place::Random,
            ScriptRole::Index
            | ScriptRole::Family
            | ScriptRole::Layer
            | ScriptRole::Range
            | ScriptRole::Order => Place::Index,
            _ => Place::Plain,
        };
        let mut term = self.term(node, place, d);
        if role == ScriptRole::Power {
            super::agree::number_exponent(&mut term);
        }
        if matches!(role, ScriptRole::Index | ScriptRole::Label) {
            index_set(&mut term, &self.notation.dimension_letters);
        }
        if role == ScriptRole::Index {
            // `V_{l, (j-1) \times s + m}`: the stride of a position below a name is a size.
            match &mut term.kind {
                TermKind::Chain { first, rest }
                    if rest.iter().all(|j| matches!(j.op, InfixOp::Separator(_))) =>
                {
                    super::positions::strides(first);
                    rest.iter_mut().for_each(|j| super::positions::strides(&mut j.term));
                }
                _ => super::positions::strides(&mut term),
            }
        }
        Script { role, above, term: term.boxed() }
    }

    /// A script on an argument group (`\mathrm{softmax}(z)_j`, `\phi(x)^\top`).
    pub(super) fn group_script<'n>(&self, node: &'n Node, sup: bool, d: usize) -> Script<'n> {
        // `\sigma(…)^j`: the j-th component of the value, as `z_t^j` is of z_t.
        let component = matches!(&node.kind, NodeKind::Symbol { name, font: Font::Normal }
            if has(&self.notation.superscript_index_letters, name));
        let role = if sup && !component { self.operation_role(node) } else { ScriptRole::Index };
        self.script(node, role, sup, d)
    }

    /// What a subscript on a name is: an index (`x_i`, `A_{ij}`, `h_{t-1}`), a range
    /// (`x_{<i}`), or a label (`W_Q`, `d_k`, `p_\theta`, `d_{\text{model}}`).
    pub(super) fn sub_role(&self, base: &Node, sub: &Node) -> ScriptRole {
        if is_range(sub) {
            return ScriptRole::Range;
        }
        let letter = base_letter(base);
        // A whole name declared (`W_Q \in \mathbb{R}^{…}`) makes its subscript a label, and so
        // does one recorded as a size (`N_c` beside `N`: which size, not an entry of N); one only
        // used (`z_t` beside `1 - z_t`) keeps an index as an index.
        let whole_recorded = crate::meaning::binding_name(sub).and_then(|s| {
            let full = format!("{}_{s}", crate::meaning::binding_name(base)?);
            let kind = self.table.recorded(&full)?;
            let named = matches!(kind, super::SymbolKind::Index | super::SymbolKind::Dimension);
            (self.table.is_declared(&full) || named || !self.is_index_like(sub)).then_some(kind)
        });
        // `g_\tau g_\tau^\top` under `\sum_{\tau=1}^{t}`: the counter picks an entry even where
        // the use recorded the whole name.
        let counter = || {
            matches!(&sub.kind, NodeKind::Symbol { name, .. }
                if names::is_greek(name) && self.table.recorded(name) == Some(super::SymbolKind::Index))
        };
        if let Some(kind) = whole_recorded.filter(|_| !counter()) {
            return if kind == super::SymbolKind::Index { ScriptRole::Index } else { ScriptRole::Label };
        }
        let dimension_base = letter.is_some_and(|l| has(&self.notation.dimension_prefixes, l));
        let single_letter = matches!(&sub.kind, NodeKind::Symbol { name, .. } if name.len() == 1)
            || matches!(sub.kind, NodeKind::Word { .. });
        if dimension_base && single_letter && !matches!(sub.kind, NodeKind::Number { .. }) {
            return ScriptRole::Label;
        }
        // `I_n`, `\mathbf{I}_d`: the identity's size below it, no entry.
        let identity = matches!(&base.kind, NodeKind::Symbol { name, font: Font::Normal | Font::Bold | Font::Roman } if name == "I");
        if identity
            && matches!(&sub.kind, NodeKind::Symbol { name, .. } if has(&self.notation.dimension_letters, name)
                && self.table.recorded(name) != Some(super::SymbolKind::Index))
        {
            return ScriptRole::Label;
        }
        let greek_base = matches!(&base.kind, NodeKind::Symbol { name, .. } if names::is_greek(name));
        if greek_base && matches!(sub.kind, NodeKind::Number { .. }) {
            return ScriptRole::Label;
        }
        if let Some(role) = self.weight_member(base, sub) {
            return role;
        }
        if self.steps_a_capital(base, sub) {
            return ScriptRole::Family;
        }
        if self.is_label_word(sub) || self.names_member(base, sub) || self.beside_a_worded_label(base, sub) {
            return ScriptRole::Label;
        }
        if self.is_index_like(sub) {
            ScriptRole::Index
        } else {
            ScriptRole::Label
        }
    }

    /// Whether a capital's subscript names one of a family of matrices rather than picks an entry:
    /// a number, a letter papers do not range over positions with (`W_1`, `W_z`, `U_a`), or a
    /// letter the formula writes with an index of its own (`W_h` beside `h_{t-1}`), unless the
    /// capital is one papers index to name random variables (`X_1`, `R_t`).
    fn names_member(&self, base: &Node, sub: &Node) -> bool {
        let Some(letter) = base_letter(base) else { return false };
        let capital = letter.len() == 1 && letter.starts_with(|c: char| c.is_ascii_uppercase());
        if has(&self.notation.indexed_random_capitals, letter) {
            return false;
        }
        let summed = |name: &str| self.table.recorded(name) == Some(super::SymbolKind::Index);
        match &sub.kind {
            NodeKind::Number { .. } => capital,
            NodeKind::Symbol { name, font: Font::Normal } => {
                let index_letter =
                    has(&self.notation.index_letters, name) || has(&self.notation.bare_index_letters, name);
                // `W_h` beside `h_{t-1}`, and its bias `b_h`: the letter names what the
                // parameter acts on.
                let acts_on = self.table.is_indexed_base(name) && name != letter;
                ((capital && !index_letter) || acts_on) && !summed(name)
            }
            // `W_{hh}`, `W_{xh}`, `W_{h^{n-1} h^n}`: letters side by side, none summed over, one
            // of them written with an index of its own (the state `h_{t-1}`), name what the
            // matrix maps from and to.
            NodeKind::Chain { first, rest } if rest.iter().all(|l| l.op == InfixOp::Juxt) => {
                let letters: Vec<Option<&str>> = std::iter::once(first.as_ref())
                    .chain(rest.iter().map(|l| &l.operand))
                    .map(|part| {
                        let letter = match &part.kind {
                            NodeKind::Scripts { base, sub: None, .. } => base.as_ref(),
                            _ => part,
                        };
                        match &letter.kind {
                            NodeKind::Symbol { name, font: Font::Normal } if !summed(name) => {
                                Some(name.as_str())
                            }
                            _ => None,
                        }
                    })
                    .collect();
                letters.iter().all(Option::is_some)
                    && letters.iter().flatten().any(|name| self.table.is_indexed_base(name))
            }
            _ => false,
        }
    }

    /// `H_\ell = \mathrm{ReLU}(f_\ell(H_{\ell-1}))`, `S_n = \gamma S_{n-1} + …`: below a capital
    /// that the formula follows over steps (written somewhere with a step from a letter below),
    /// the step and the letter itself say which member of the sequence, not which row. Capitals
    /// papers index to name random variables (`R_{t+1}`, `S_t`) or value estimates (`Q_n`) are
    /// left to those conventions.
    fn steps_a_capital(&self, base: &Node, sub: &Node) -> bool {
        let NodeKind::Symbol { name, font: Font::Normal } = &base.kind else { return false };
        let capital = name.len() == 1 && name.starts_with(|c: char| c.is_ascii_uppercase());
        let named_by_index =
            has(&self.notation.indexed_random_capitals, name) || has(&self.notation.value_functions, name);
        if !capital || named_by_index {
            return false;
        }
        let letter = match &sub.kind {
            NodeKind::Symbol { name, font: Font::Normal } => Some(name.as_str()),
            _ => super::kinds::stepped_letter(sub),
        };
        letter.is_some_and(|letter| self.table.is_stepped_capital(name, letter))
    }

    /// `W_g`, `W_q`, `U_z`, `W_i`: a small letter below a capital papers use for weights names
    /// which matrix (a label), or, for a letter that ranges over positions, which member of a
    /// family; `None` for other capitals and subscripts.
    fn weight_member(&self, base: &Node, sub: &Node) -> Option<ScriptRole> {
        let letter = base_letter(base)?;
        if !has(&self.notation.weight_capitals, letter) {
            return None;
        }
        let small = |n: &Node| matches!(&n.kind, NodeKind::Symbol { name, font: Font::Normal } if name.len() == 1 && name.starts_with(|c: char| c.is_ascii_lowercase()));
        // `W_{hq}`, `W_{xh}`: letters side by side name what the matrix maps between, unless all
        // of them are letters entries are picked with (`W_{ij}`).
        // `W_{f,k}`: listed with commas the same way (the filter's weights at layer k).
        if let NodeKind::Chain { first, rest } = &sub.kind {
            let letters: Vec<&Node> =
                std::iter::once(first.as_ref()).chain(rest.iter().map(|l| &l.operand)).collect();
            let listed = rest
                .iter()
                .all(|l| l.op == InfixOp::Juxt || matches!(&l.op, InfixOp::Separator(s) if s == ","));
            let side_by_side = listed && letters.iter().all(|n| small(n));
            let entry = letters.iter().all(|n| matches!(&n.kind, NodeKind::Symbol { name, .. } if has(&self.notation.entry_letters, name)));
            return (side_by_side && !entry).then_some(ScriptRole::Label);
        }
        let NodeKind::Symbol { name, font: Font::Normal } = &sub.kind else { return None };
        if !small(sub) {
            return None;
        }
        let position =
            has(&self.notation.bare_index_letters, name) || has(&self.notation.family_letters, name);
        Some(if position { ScriptRole::Family } else { ScriptRole::Label })
    }

    /// The parts of a list written as a script (`1,l`, `post,4`, `\mathrm{pre},2`), each a run
    /// of the nodes between commas, when every part is a number, a letter, a text name or a word
    /// spelled in letters; `None` for anything else (`i,j` below a name is two indices, and only
    /// superscripts are asked).
    pub(super) fn tuple_label<'n>(&self, node: &'n Node) -> Option<Vec<Vec<&'n Node>>> {
        let NodeKind::Chain { first, rest } = &node.kind else { return None };
        let mut parts: Vec<Vec<&Node>> = vec![vec![first.as_ref()]];
        for link in rest {
            match &link.op {
                InfixOp::Separator(s) if s == "," => parts.push(vec![&link.operand]),
                InfixOp::Juxt => parts.last_mut()?.push(&link.operand),
                _ => return None,
            }
        }
        let fits = |part: &Vec<&Node>| match part.as_slice() {
            [one] => {
                matches!(one.kind, NodeKind::Number { .. })
                    || is_label_text(one)
                    || matches!(&one.kind, NodeKind::Symbol { name, font: Font::Normal } if name.len() == 1)
            }
            letters => spelled(letters).is_some_and(|w| self.notation.is_word(&w)),
        };
        (parts.len() >= 2 && parts.iter().all(fits)).then_some(parts)
    }

    /// A list label as a term: its words leaves, its letters indices (`l` of `W^{1,l}`).
    fn tuple_label_term<'n>(&self, node: &'n Node, d: usize) -> Option<Term<'n>> {
        let parts = self.tuple_label(node)?;
        let NodeKind::Chain { rest, .. } = &node.kind else { return None };
        let commas = rest.iter().filter(|l| matches!(&l.op, InfixOp::Separator(s) if s == ","));
        let part_term = |part: &Vec<&'n Node>| -> Term<'n> {
            match part.as_slice() {
                // `W_{f,k}`: a Latin letter papers do not range with is part of the name (the
                // filter's weights), not a symbol of its own; `\theta` of `\mathcal{L}_{\theta, \xi}` is.
                [one] if self.names_in_a_list(one) => Term::of(TermKind::Leaf, one),
                [one] if matches!(one.kind, NodeKind::Symbol { .. }) => self.term(one, Place::Index, d),
                [one] => Term::of(TermKind::Leaf, one),
                [first, .., last] => Term::new(TermKind::Leaf, first.span.join(last.span), first),
                [] => Term::of(TermKind::Leaf, node),
            }
        };
        let mut terms = parts.iter().map(part_term);
        let first = terms.next()?;
        let rest = commas
            .zip(terms)
            .map(|(link, term)| super::tree::Joint { op: &link.op, op_span: link.op_span, term, tilde: None })
            .collect();
        Some(Term::new(TermKind::Chain { first: first.boxed(), rest }, node.span, node))
    }

    /// Whether a letter listed in a label (`f` of `W_{f,k}`) is a Latin letter papers do not range
    /// over positions with.
    fn names_in_a_list(&self, node: &Node) -> bool {
        matches!(&node.kind, NodeKind::Symbol { name, font: Font::Normal }
            if name.len() == 1
                && name.starts_with(|c: char| c.is_ascii_alphabetic())
                && !has(&self.notation.index_letters, name)
                && !has(&self.notation.bare_index_letters, name)
                && self.table.recorded(name).is_none())
    }

    /// Whether a subscript spells a word papers use as a label: `\eta_{min}`, `x_{out}`.
    pub(super) fn is_label_word(&self, sub: &Node) -> bool {
        super::kinds::letter_run(sub).is_some_and(|word| self.notation.is_word(&word))
    }

    /// `\ell_{sl}` beside `\ell_{ce}`, `L_{ssim}` beside `L_{mse}`: below a name the formula labels
    /// with a word elsewhere, a run of two letters or more is a label too, no entry.
    fn beside_a_worded_label(&self, base: &Node, sub: &Node) -> bool {
        super::kinds::letter_run(sub).is_some_and(|run| run.len() >= 2)
            && crate::meaning::binding_name(base).is_some_and(|name| self.table.is_worded_base(&name))
    }

    /// Whether a subscript reads as indices: numbers, lower-case letters, `i+1`, `y_i`, `i,j`.
    pub(super) fn is_index_like(&self, sub: &Node) -> bool {
        match &sub.kind {
            NodeKind::Chain { first, rest }
                if rest.iter().all(|l| matches!(l.op, InfixOp::Juxt | InfixOp::Separator(_))) =>
            {
                std::iter::once(first.as_ref())
                    .chain(rest.iter().map(|l| &l.operand))
                    .all(|n| self.is_index_entry(n))
            }
            _ => self.is_index_entry(sub),
        }
    }

    fn is_index_entry(&self, node: &Node) -> bool {
        match &node.kind {
            NodeKind::Number { font: Font::Normal, .. } => true,
            NodeKind::Symbol { name, font: Font::Normal } if name.len() == 1 => {
                let lower = name.chars().all(|c| c.is_ascii_lowercase());
                let recorded = self.table.recorded(name);
                (lower
                    && !matches!(recorded, Some(k) if k != super::SymbolKind::Index && k != super::SymbolKind::Dimension))
                    || recorded == Some(super::SymbolKind::Index)
            }
            // `\mathbf{h}_{\tau+1}`, `\mathbf{z}_{\ell-1}`: a Greek letter (or ℓ) papers step with
            // (a segment, a layer) is an index unless something else records it.
            NodeKind::Symbol { name, font: Font::Normal } => {
                let recorded = self.table.recorded(name);
                recorded == Some(super::SymbolKind::Index)
                    || (recorded.is_none() && has(&self.notation.index_letters, name))
            }
            // `\alpha_{\tau_i}`: a small Greek letter picked by an index is a position of a
            // subsequence, like `t_k`.
            NodeKind::Scripts { base, sub: Some(sub), sup: None, .. } if is_small_greek(base) => {
                self.is_index_like(sub)
            }
            NodeKind::Scripts { base, sup: None, primes: _, .. } => self.is_index_entry(base),
            NodeKind::Scripts { base, sub: None, .. } => self.is_index_entry(base),
            NodeKind::Chain { first, rest } => {
                rest.iter().all(|l| {
                    matches!(l.op, InfixOp::Additive(_) | InfixOp::Juxt | InfixOp::Multiplicative(_))
                }) && self.is_index_entry(first)
            }
            NodeKind::Fenced { open: Delim::Paren, body, .. } => self.is_index_like(body),
            _ => false,
        }
    }
}

/// The binding name of a symbol with scripts that [`super::binding_name`] does not name:
/// `W_i^Q`, `L^CLIP`, `h^(l+1)`, `x_<i`, `f'`.
fn compound_name(base: &str, scripts: &[Script], primes: u8) -> String {
    let mut name = base.to_string();
    for script in scripts {
        name.push(if script.above { '^' } else { '_' });
        match super::binding_name(script.term.node).or_else(|| list_name(script.term.node)) {
            Some(part) => name.push_str(&part),
            None => {
                let latex = crate::syntax::print::to_latex(script.term.node)
                    .replace("\\times", "*")
                    .replace("\\cdot", "*");
                name.extend(latex.chars().filter(|c| !c.is_whitespace() && !matches!(c, '{' | '}' | '\\')));
            }
        }
    }
    name.push_str(&"'".repeat(usize::from(primes)));
    name
}

/// The name of a list of names (`\mathrm{pre},2` → `pre,2`), or `None`.
fn list_name(node: &Node) -> Option<String> {
    let NodeKind::Chain { first, rest } = &node.kind else { return None };
    let mut name = super::binding_name(first)?;
    for link in rest {
        match &link.op {
            InfixOp::Separator(s) => name.push_str(s),
            InfixOp::Juxt => {}
            _ => return None,
        }
        name.push_str(&super::binding_name(&link.operand)?);
    }
    Some(name)
}

/// Whether a label is text or letters only (no index inside it to resolve): `\mathrm{data}`,
/// `Q`, `\theta`, `KL`, `\text{model}`.
fn is_label_text(node: &Node) -> bool {
    match &node.kind {
        NodeKind::Symbol { .. } | NodeKind::Word { .. } | NodeKind::Number { .. } => true,
        NodeKind::Styled { body, .. } => is_label_text(body),
        // `\mathbf{w}^{(\mathrm{new})}`: a word in parentheses.
        NodeKind::Fenced { open: crate::syntax::ast::Delim::Paren, body, .. } => {
            matches!(body.kind, NodeKind::Word { .. })
        }
        NodeKind::Chain { first, rest } => {
            // `CLIP+VF+S`: words joined by a plus name the terms of a sum.
            let joins = |op: &InfixOp| op == &InfixOp::Juxt || matches!(op, InfixOp::Additive(o) if o == "+");
            is_label_text(first) && rest.iter().all(|l| joins(&l.op) && is_label_text(&l.operand))
        }
        _ => false,
    }
}

/// `x_{I_1}`, `K_{S_i}`: a capital below a name, picked from a family itself, is a set of
/// positions (an index set), unless papers use its letter for a size (`h_{T_x}`, the last step).
fn index_set(term: &mut Term, sizes: &super::notation::Names) {
    let TermKind::Symbol(o) = &mut term.kind else { return };
    let capital = is_single_latin(o.base, true);
    let picked = o.scripts.iter().any(|s| !s.above);
    let plain = matches!(o.base.kind, NodeKind::Symbol { font: Font::Normal, .. });
    if capital && picked && plain && !has(sizes, &o.base_name) && o.evidence == super::Evidence::Convention {
        o.kind = super::SymbolKind::Set;
        o.evidence = super::Evidence::Use;
    }
}

/// `x_{I_1}`: a small letter picked at a set of positions is a slice of a vector, a vector.
fn sliced(symbol: &mut Term) {
    let TermKind::Symbol(o) = &mut symbol.kind else { return };
    let at_a_set = o.scripts.iter().any(|s| {
        !s.above
            && matches!(s.role, ScriptRole::Index | ScriptRole::Label)
            && s.term.occurrence().is_some_and(|i| i.kind == super::SymbolKind::Set)
    });
    let small = is_single_latin(o.base, false);
    if at_a_set && small && o.kind == super::SymbolKind::Scalar && o.evidence == super::Evidence::Convention {
        o.kind = super::SymbolKind::Vector;
        o.evidence = super::Evidence::Use;
    }
}

/// `H_k^{-1}`: a vector has no inverse, so a capital its index made a column is, inverted, one
/// of a family of matrices (Newton's Hessians).
fn inverted(symbol: &mut Term) {
    if let TermKind::Symbol(occurrence) = &mut symbol.kind {
        let capital = occurrence.base_name.starts_with(|c: char| c.is_ascii_uppercase());
        if capital
            && occurrence.kind == super::SymbolKind::Vector
            && occurrence.evidence >= super::Evidence::Convention
        {
            occurrence.kind = super::SymbolKind::Matrix;
            occurrence.evidence = super::Evidence::Use;
        }
    }
}

/// A symbol under a transpose is a vector or a matrix, whatever its letter suggests.
/// A size letter by convention (the C of `C^\top Z_t`) is a matrix when a capital.
fn transposed(symbol: &mut Term) {
    if let TermKind::Symbol(occurrence) = &mut symbol.kind {
        if occurrence.evidence < super::Evidence::Convention {
            return;
        }
        let upper = occurrence.base_name.starts_with(|c: char| c.is_ascii_uppercase());
        occurrence.kind = match occurrence.kind {
            // `J^\top H J`: a capital papers use for a number (an objective, a count) or a
            // function (`H`, `F`), not applied here, is, transposed, a matrix (the Jacobian and
            // the Hessian of Gauss–Newton's product).
            super::SymbolKind::Scalar | super::SymbolKind::Dimension | super::SymbolKind::Function
                if upper =>
            {
                super::SymbolKind::Matrix
            }
            super::SymbolKind::Scalar => super::SymbolKind::Vector,
            super::SymbolKind::Dimension => super::SymbolKind::Vector,
            _ => return,
        };
        occurrence.evidence = super::Evidence::Use;
    }
}

/// The font of a name.
pub(super) fn font_of_name(node: &Node) -> Font {
    match &node.kind {
        NodeKind::Symbol { font, .. } => *font,
        NodeKind::Accent { body, .. } => font_of_name(body),
        NodeKind::Styled { font, .. } => *font,
        _ => Font::Normal,
    }
}

/// Whether `node` is one Latin letter (under accents and fonts), a capital if `capital`.
pub(super) fn is_single_latin(node: &Node, capital: bool) -> bool {
    base_letter(node).is_some_and(|l| {
        let mut chars = l.chars();
        chars.next().is_some_and(|c| if capital { c.is_ascii_uppercase() } else { c.is_ascii_lowercase() })
            && chars.next().is_none()
    })
}

/// The letter at the bottom of a name: `W` of `\mathbf{W}`, `y` of `\hat{y}`.
pub(super) fn base_letter(node: &Node) -> Option<&str> {
    match &node.kind {
        NodeKind::Symbol { name, .. } => Some(name.as_str()),
        NodeKind::Accent { body, .. } | NodeKind::Styled { body, .. } => base_letter(body),
        _ => None,
    }
}

/// A lower-case Greek letter in the normal font: `\tau`, `\sigma`.
fn is_small_greek(node: &Node) -> bool {
    matches!(&node.kind, NodeKind::Symbol { name, font: Font::Normal }
        if names::is_greek(name) && name.starts_with(|c: char| c.is_ascii_lowercase()))
}

/// Whether a subscript is a range: `x_{<i}`, `h_{\le t}`, or a slice from one position to
/// another, `x_{1:d}`, `G_{t:t+n}`.
fn is_range(sub: &Node) -> bool {
    let NodeKind::Chain { first, rest } = &sub.kind else { return false };
    let [link] = rest.as_slice() else { return false };
    let InfixOp::Relation(r) = &link.op else { return false };
    match first.kind {
        NodeKind::Empty => matches!(r.as_str(), "<" | ">" | "\\le" | "\\ge" | "\\leq" | "\\geq"),
        _ => r.as_str() == ":" && !matches!(link.operand.kind, NodeKind::Empty),
    }
}

/// Whether a subscript names parameters: `\theta`, `\phi`, `\psi`, `\omega`, `w`.
/// Whether a node is the indicator's one as papers write it: `\mathbb{1}`, `𝟙`.
pub fn is_indicator_one(node: &Node) -> bool {
    matches!(&node.kind, NodeKind::Number { text, font: Font::Blackboard } if text.as_str() == "1")
}

/// Whether a node is a bold one, which papers write both for the indicator (`\mathbf{1}(f(x) \neq
/// y)`) and for the vector of ones (`\mathbf{1}^\top x`): an indicator only applied to a comparison.
pub(super) fn is_bold_one(node: &Node) -> bool {
    matches!(&node.kind, NodeKind::Number { text, font: Font::Bold } if text.as_str() == "1")
}

/// Whether a node is a capital I as papers write the indicator before a comparison (`I(y_i \neq
/// \hat{y}_i)`, `\mathbb{I}\{x > 0\}`); a bold one is the identity matrix.
pub(super) fn is_indicator_letter(node: &Node) -> bool {
    matches!(&node.kind, NodeKind::Symbol { name, font } if name.as_str() == "I" && *font != Font::Bold)
}

/// Whether a capital I with an event in braces below it is the indicator of that event:
/// `I_{\{S(X) \geq \gamma\}}`, `I_{\{y = k\}}`.
pub fn is_indicator_of_an_event(base: &Node, sub: &Node) -> bool {
    is_indicator_letter(base)
        && matches!(&sub.kind, NodeKind::Fenced { open: Delim::Brace, body, .. }
            if matches!(&body.kind, NodeKind::Chain { rest, .. } if matches!(rest.as_slice(), [l] if matches!(l.op, InfixOp::Relation(_)))))
}

pub(super) fn is_parameter(sub: &Node) -> bool {
    match &sub.kind {
        NodeKind::Symbol { name, .. } => {
            matches!(name.as_str(), "theta" | "phi" | "psi" | "omega" | "eta" | "vartheta" | "varphi")
        }
        NodeKind::Chain { first, .. } => is_parameter(first),
        NodeKind::Styled { body, .. } => is_parameter(body),
        _ => false,
    }
}

/// `\epsilon_\theta`, `s_\phi`, `f_\theta`: a letter with a parameter below it (a network).
pub(super) fn labelled_by_parameters(node: &Node) -> bool {
    matches!(&node.kind, NodeKind::Scripts { sub: Some(sub), .. } if is_parameter(sub))
}

/// Whether a name is the real numbers `\mathbb{R}`.
fn is_reals(node: &Node) -> bool {
    super::is_blackboard(node, "R")
}

/// The letters a run of single-letter symbols spells (`post`), or `None`.
fn spelled(nodes: &[&Node]) -> Option<String> {
    nodes
        .iter()
        .map(|n| match &n.kind {
            NodeKind::Symbol { name, font: Font::Normal | Font::Italic } if name.len() == 1 => {
                Some(name.as_str())
            }
            _ => None,
        })
        .collect()
}

/// Whether a script above in parentheses names a layer (`h^{(l+1)}`, `W^{(\ell)}`): it holds a
/// letter of `layer_letters`; otherwise it names a sample or a step (`x^{(i)}`, `m^{(t)}`).
pub fn names_a_layer(script: &super::Term) -> bool {
    let letters = &super::notation::Notation::shipped().layer_letters;
    script.occurrences().iter().any(|(_, o)| super::notation::has(letters, &o.base_name))
}

/// Whether `text` is an ending an ordinal is written with above (`th` of `k^{\mathrm{th}}`),
/// by `ordinal_endings`.
pub fn is_ordinal_ending(text: &str) -> bool {
    super::notation::has(&super::notation::Notation::shipped().ordinal_endings, text)
}
