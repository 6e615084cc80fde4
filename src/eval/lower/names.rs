//! Names and their scripts, as the meaning layer read them: a symbol bound whole (`W_Q`,
//! `x_i^*`), an entry its index picks (`Q_{it}`, `x_i`), a member of a family (`W_i^Q`,
//! `V_t^{targ}`), an index written above (`\eta_{min}^i`), and a superscript that is a
//! transpose, `e^{x}` or a power.

use super::{index_items, node_label, norm_order, unsupported, Lowered, Lowerer};
use crate::eval::errors::{EvalError, EvalErrorKind, Hint};
use crate::eval::expr::{Builtin, Expr, ExprKind};
use crate::meaning::tree::Script;
use crate::meaning::{binding_name, ScriptRole, SymbolKind, Term, TermKind};
use crate::syntax::ast::{Delim, Font, Node, NodeKind, Span};

impl Lowerer<'_> {
    /// A symbol occurrence: a name, or a name with its index, label or family scripts.
    pub(super) fn occurrence(&mut self, term: &Term, occurrence: &crate::meaning::Occurrence) -> Lowered {
        if occurrence.scripts.is_empty() {
            let value = matches!(
                occurrence.kind,
                SymbolKind::Scalar | SymbolKind::Dimension | SymbolKind::Vector | SymbolKind::Matrix
            );
            return match &occurrence.base.kind {
                // `\mathit{keep\_prob}`: a name of several words that stands for a value is bound
                // by its binding name (`--let keep_prob=0.9`).
                NodeKind::Word { .. } if value => {
                    Ok(self.make(ExprKind::Symbol(occurrence.name.to_string(), occurrence.kind), term.span))
                }
                NodeKind::Word { text, .. } => {
                    Err(unsupported(&format!("{text} without an argument"), term.span))
                }
                _ if occurrence.base_name != binding_name(occurrence.base).unwrap_or_default() => {
                    // A run of letters read as one name (`pos`).
                    Ok(self.make(ExprKind::Symbol(occurrence.name.to_string(), occurrence.kind), term.span))
                }
                _ => self.symbol(occurrence.base, occurrence.kind),
            };
        }
        if let Some(member) = self.family_member(occurrence, term.span) {
            return member;
        }
        if let Some(picked) = self.member_by_bound_index(occurrence, term.span) {
            return picked;
        }
        let picks = occurrence
            .scripts
            .iter()
            .any(|s| matches!(s.role, ScriptRole::Index | ScriptRole::Range | ScriptRole::Family));
        let family = (self.ctx.is_family)(&occurrence.base_name);
        // `I_n`: the identity with its size below, as large as its context needs.
        let sized_identity = occurrence.base_name == "I"
            && occurrence.kind == SymbolKind::Matrix
            && occurrence.scripts.iter().all(|s| !s.above && s.role == ScriptRole::Label);
        if sized_identity && !picks && !self.is_known(&occurrence.name) && !self.is_known("I") {
            return Ok(self.make(ExprKind::Identity, term.span));
        }
        if !family && (!picks || self.is_known(&occurrence.name)) {
            // A name with labels only (`W_Q`, `W^O`, `d_{\text{model}}`), or one bound whole.
            return Ok(self.make(ExprKind::Symbol(occurrence.name.to_string(), occurrence.kind), term.span));
        }
        if occurrence
            .scripts
            .iter()
            .any(|s| s.above && matches!(s.role, ScriptRole::Label | ScriptRole::Mark))
        {
            // `V_t^{\mathrm{targ}}`, `x_i^*`: a label or a mark above is no exponent; the name is
            // one value, bound (or reported unbound) whole.
            return Ok(self.make(ExprKind::Symbol(occurrence.name.to_string(), occurrence.kind), term.span));
        }
        if let Some(picked) = self.picked_from_above(occurrence, term.span) {
            return picked;
        }
        let sub = occurrence.scripts.iter().find(|s| !s.above).map(|s| s.term.node);
        let sup = occurrence.scripts.iter().find(|s| s.above).map(|s| s.term.node);
        let base = occurrence.base;
        let mut expr = match sub {
            Some(sub) => self.subscripted(occurrence, sub)?,
            None => self.symbol(base, occurrence.kind)?,
        };
        if let Some(sup) = sup {
            expr = self.superscripted(expr, base, sup, term.span)?;
        }
        Ok(expr)
    }

    /// `W_i^Q`: member i of the family `W_Q`, when W_Q is one; `W_2^Q`, whose number the
    /// meaning layer reads as naming one of a family of matrices, member 2 of it.
    fn family_member(&mut self, occurrence: &crate::meaning::Occurrence, span: Span) -> Option<Lowered> {
        let numbered = |s: &&Script| {
            s.role == ScriptRole::Label && !s.above && matches!(s.term.node.kind, NodeKind::Number { .. })
        };
        let member = occurrence.scripts.iter().find(|s| s.role == ScriptRole::Family);
        let member = member.or_else(|| occurrence.scripts.iter().find(numbered))?;
        occurrence.scripts.iter().find(|s| s.role == ScriptRole::Label && !std::ptr::eq(*s, member))?;
        let family = family_name(occurrence, Some(member));
        if !(self.ctx.is_family)(&family) {
            return None;
        }
        Some(self.term(&member.term).map(|index| self.make(ExprKind::Member(family, Box::new(index)), span)))
    }

    /// A member of a family (the meaning layer's [`ScriptRole::Family`]) picked by an index
    /// the formula binds (a definition's left side, a sum): `V_t^{\mathrm{targ}}` in
    /// `\delta_t = V_t^{\mathrm{targ}} - 1`. The family (`V_targ`) bound as a vector or a
    /// matrix gives its entries or rows; with no value it is what is missing, a value for
    /// each t (the whole name `V_t^targ` cannot be bound where t varies).
    fn member_by_bound_index(
        &mut self,
        occurrence: &crate::meaning::Occurrence,
        span: Span,
    ) -> Option<Lowered> {
        let member = occurrence.scripts.iter().find(|s| s.role == ScriptRole::Family)?;
        let index = binding_name(member.term.node).filter(|i| self.locals.contains(i))?;
        let family = family_name(occurrence, None);
        if self.is_known(&occurrence.name)
            || (self.ctx.is_family)(&family)
            || (self.ctx.is_family)(&occurrence.base_name)
        {
            return None;
        }
        if !self.is_known(&family) {
            let hint = Hint::BindFamily { name: family.clone(), index, member: occurrence.kind };
            return Some(Err(EvalError::new(EvalErrorKind::Unbound { name: family }, span).with_hint(hint)));
        }
        let target = self.make(ExprKind::Symbol(family, rank_above(occurrence.kind)), occurrence.base.span);
        Some(self.term(&member.term).map(|i| self.make(ExprKind::Index(Box::new(target), vec![i]), span)))
    }

    /// A name with labels below and an index above, `\eta_{min}^i`, `\lambda_{\max}^i`, or
    /// an index above alone, `x^i`: the labelled name (`eta_min`, `x`) indexed by the index
    /// above (and any below), as the meaning layer's roles say; the label is no index and the
    /// index no exponent.
    fn picked_from_above(&mut self, occurrence: &crate::meaning::Occurrence, span: Span) -> Option<Lowered> {
        let scripts = &occurrence.scripts;
        let above = |s: &&Script| s.above && s.role == ScriptRole::Index;
        if !scripts.iter().any(|s| above(&s))
            || !scripts
                .iter()
                .all(|s| s.role == ScriptRole::Index || (s.role == ScriptRole::Label && !s.above))
            || (self.ctx.is_family)(&occurrence.base_name)
        {
            return None;
        }
        let name = family_name(occurrence, None);
        let items: Vec<&Node> = scripts
            .iter()
            .filter(|s| s.role == ScriptRole::Index)
            .flat_map(|s| index_items(s.term.node))
            .collect();
        let kind = if items.len() >= 2 { SymbolKind::Matrix } else { rank_above(occurrence.kind) };
        let end = scripts.iter().filter(|s| s.role == ScriptRole::Label).map(|s| s.term.span.end).max();
        let name_span = Span::new(occurrence.base.span.start, end.unwrap_or(occurrence.base.span.end));
        let target = self.make(ExprKind::Symbol(name, kind), name_span);
        let indices = items.into_iter().map(|i| self.lower(i)).collect::<Result<Vec<_>, _>>();
        Some(indices.map(|indices| self.make(ExprKind::Index(Box::new(target), indices), span)))
    }

    /// Scripts that operate on or pick from their base: `(QK^\top)_{ij}`, `K^\top`, `\|x\|_2`.
    pub(super) fn scripted(
        &mut self,
        base: &Term,
        sub: Option<&Script>,
        sup: Option<&Script>,
        span: Span,
    ) -> Lowered {
        let mut expr = match (sub, &base.kind) {
            (Some(sub), TermKind::Fenced { open: Delim::DoubleBar, body }) => {
                let order = norm_order(sub.term.node)
                    .ok_or_else(|| unsupported(&node_label(sub.term.node), sub.term.span))?;
                let inner = self.term(body)?;
                self.make(ExprKind::Norm(Box::new(inner), order), span)
            }
            (Some(sub), _) => {
                let target = self.term(base)?;
                self.indexed(target, sub.term.node, span)?
            }
            (None, _) => self.term(base)?,
        };
        if let Some(sup) = sup {
            let base_node = base.occurrence().map_or(base.node, |o| o.base);
            expr = self.superscripted(expr, base_node, sup.term.node, span)?;
        }
        Ok(expr)
    }

    /// `target_{i j}`: 1-based indexing.
    pub(super) fn indexed(&mut self, target: Expr, sub: &Node, span: Span) -> Lowered {
        let indices =
            index_items(sub).into_iter().map(|i| self.lower_plain(i)).collect::<Result<Vec<_>, _>>()?;
        Ok(self.make(ExprKind::Index(Box::new(target), indices), span))
    }

    /// Lowers a node inside scripts (an index, an exponent), resolved on its own.
    fn lower_plain(&mut self, node: &Node) -> Lowered {
        self.lower(node)
    }

    /// A symbol of the kind the meaning layer gave it: a bound name, a constant (`\infty`, `\pi`,
    /// `e`), `I`, or an unbound name (reported when it is needed).
    pub(super) fn symbol(&mut self, node: &Node, kind: SymbolKind) -> Lowered {
        let name = binding_name(node).unwrap_or_default();
        let span = node.span;
        if !self.is_known(&name) && !(self.ctx.is_family)(&name) {
            let constant = match name.as_str() {
                "infty" => Some(f64::INFINITY),
                "pi" => Some(std::f64::consts::PI),
                "e" => Some(std::f64::consts::E),
                _ => None,
            };
            if let Some(x) = constant {
                return Ok(self.make(ExprKind::Number(x), span));
            }
            if name == "I" && self.ctx.table.shape("I").is_none() {
                return Ok(self.make(ExprKind::Identity, span));
            }
        }
        Ok(self.make(ExprKind::Symbol(name, kind), span))
    }

    /// A symbol with a subscript that picks: a name bound whole (`x_1` given a value), a family
    /// member, or an entry of its base (`Q_{it}`, `x_i`: the meaning layer says the subscript is
    /// an index; the base is one rank above the entry, so `x` of a scalar `x_i` is a vector).
    fn subscripted(&mut self, occurrence: &crate::meaning::Occurrence, sub: &Node) -> Lowered {
        let base = occurrence.base;
        let sub_span = Span::new(base.span.start, sub.span.end.max(base.span.end));
        let full = occurrence.name.as_str();
        if self.is_known(full) || (self.ctx.is_family)(full) {
            return Ok(self.make(ExprKind::Symbol(full.to_string(), occurrence.kind), sub_span));
        }
        let base_name = binding_name(base);
        if let Some(name) = base_name.as_deref().filter(|n| (self.ctx.is_family)(n)) {
            let index = self.lower(sub)?;
            return Ok(self.make(ExprKind::Member(name.to_string(), Box::new(index)), sub_span));
        }
        let picks = occurrence.indexed || base_name.as_deref().is_some_and(|n| self.is_known(n));
        if picks {
            let items = index_items(sub);
            let kind = if items.len() >= 2 { SymbolKind::Matrix } else { rank_above(occurrence.kind) };
            let target = self.picked_symbol(base, kind)?;
            let indices = items.into_iter().map(|i| self.lower(i)).collect::<Result<Vec<_>, _>>()?;
            return Ok(self.make(ExprKind::Index(Box::new(target), indices), sub_span));
        }
        Ok(self.make(ExprKind::Symbol(full.to_string(), occurrence.kind), sub_span))
    }

    /// A symbol an index picks from: an array, never a constant (`e_{ij}`, the scores of
    /// attention, is no entry of Euler's number; `\pi_i` no entry of π), `I` still the identity.
    fn picked_symbol(&mut self, node: &Node, kind: SymbolKind) -> Lowered {
        match binding_name(node) {
            Some(name) if matches!(name.as_str(), "e" | "pi" | "infty") => {
                Ok(self.make(ExprKind::Symbol(name, kind), node.span))
            }
            _ => self.symbol(node, kind),
        }
    }

    /// `expr^sup`: transpose, family member, `e^x`, or a power.
    pub(super) fn superscripted(&mut self, expr: Expr, base: &Node, sup: &Node, span: Span) -> Lowered {
        let sup_name = binding_name(sup).unwrap_or_default();
        let is_transpose =
            sup_name == "top" || sup_name == "intercal" || (sup_name == "T" && !self.is_known("T"));
        if is_transpose && matches!(sup.kind, NodeKind::Symbol { .. }) {
            return Ok(self.make(ExprKind::Transpose(Box::new(expr)), span));
        }
        if let ExprKind::Symbol(name, _) = &expr.kind {
            if (self.ctx.is_family)(name) {
                let index = self.lower(sup)?;
                let name = name.clone();
                return Ok(self.make(ExprKind::Member(name, Box::new(index)), span));
            }
        }
        let is_e = matches!(&base.kind, NodeKind::Symbol { name, font: Font::Normal | Font::Roman } if name == "e")
            && !self.is_known("e");
        let exponent = self.lower(sup)?;
        if is_e {
            return Ok(self.make(ExprKind::Call(Builtin::Exp, vec![exponent]), span));
        }
        Ok(self.make(ExprKind::Power(Box::new(expr), Box::new(exponent)), span))
    }
}

/// The binding name of the family an occurrence is a member of: its base and its labels
/// (`W_Q` of `W_i^Q`, `V_targ` of `V_t^{targ}`, `W_Q` of `W_2^Q` without its `member`), or
/// its base alone (`W` of `W^h`).
fn family_name(occurrence: &crate::meaning::Occurrence, member: Option<&Script>) -> String {
    let mut name = occurrence.base_name.to_string();
    let labels = occurrence.scripts.iter().filter(|s| s.role == ScriptRole::Label);
    for label in labels.filter(|s| !member.is_some_and(|m| std::ptr::eq(*s, m))) {
        name.push('_');
        name.push_str(&crate::meaning::binding_name_or_latex(label.term.node));
    }
    name
}

/// The kind of what an entry of `kind` is picked from: a vector's entries are scalars, a
/// matrix's rows vectors.
fn rank_above(kind: SymbolKind) -> SymbolKind {
    match kind {
        SymbolKind::Vector | SymbolKind::Matrix => SymbolKind::Matrix,
        _ => SymbolKind::Vector,
    }
}
