//! What a superscript on a name is: an operation (transpose, inverse, mark, power) or a part of
//! the name (a label, a family member, a layer or a step): `K^\top`, `x^2`, `W^Q`, `h^{(l)}`,
//! `z^{k+1}`, `f^{7 \times 7}`, `L^{CLIP+VF+S}`.

use super::notation::has;
use super::resolve::Resolver;
use super::scripts::{base_letter, font_of_name};
use super::tree::ScriptRole;
use crate::syntax::ast::{Delim, Font, InfixOp, Node, NodeKind, PrefixOp};

/// Superscripts that mark a transpose.
const TRANSPOSE: &[&str] = &["top", "intercal", "T", "transpose", "mathsf{T}"];

/// Superscripts that mark a variant, not a power: `x^*`, `A^\dagger`.
const MARKS: &[&str] = &["ast", "star", "dagger", "prime", "circ", "*", "+", "-", "\\ast"];

/// Whether a superscript is written as a transpose (`^\top`, `^T`, `^{\mathsf{T}}`), whatever
/// the formula declares.
pub(super) fn is_transpose_mark(sup: &Node) -> bool {
    match &sup.kind {
        NodeKind::Symbol { name, .. } => TRANSPOSE.contains(&name.as_str()),
        NodeKind::Styled { body, .. } => matches!(&body.kind, NodeKind::Symbol { name, .. } if name == "T"),
        _ => false,
    }
}

impl Resolver<'_> {
    /// A superscript that operates: transpose, inverse, mark, or power.
    pub(super) fn operation_role(&self, sup: &Node) -> ScriptRole {
        // `^T` with T declared as something (a horizon) is a power, not a transpose.
        let declared_t = matches!(&sup.kind, NodeKind::Symbol { name, .. } if self.declared("T", name));
        if is_transpose_mark(sup) && !declared_t {
            return ScriptRole::Transpose;
        }
        // `i^{\text{th}}`, `9^{\textrm{th}}`: an ordinal's ending in a word says which one in order.
        if matches!(&sup.kind, NodeKind::Word { text, .. } if has(&self.notation.ordinal_endings, text)) {
            return ScriptRole::Ordinal;
        }
        match &sup.kind {
            NodeKind::Prefix { op: PrefixOp::Minus, operand } if matches!(&operand.kind, NodeKind::Number { text, .. } if text == "1") => {
                ScriptRole::Inverse
            }
            NodeKind::Symbol { name, .. } | NodeKind::Punct { text: name }
                if MARKS.contains(&name.as_str()) =>
            {
                ScriptRole::Mark
            }
            _ => ScriptRole::Power,
        }
    }

    /// Whether `name` (the `T` of `x^T`) is declared as something, so it is no transpose.
    fn declared(&self, letter: &str, name: &str) -> bool {
        name == letter && self.table.recorded(letter).is_some()
    }

    /// What a superscript on a name is.
    pub(super) fn sup_role(&self, base: &Node, sup: &Node) -> ScriptRole {
        // `k^{th}`: an ordinal's ending in italic letters, above a letter other than e (`e^{th}`
        // raises e to t times h).
        let not_e =
            !matches!(&base.kind, NodeKind::Symbol { name, .. } if has(&self.notation.constants, name));
        if not_e && super::kinds::letter_run(sup).is_some_and(|e| has(&self.notation.ordinal_endings, &e)) {
            return ScriptRole::Ordinal;
        }
        let operation = self.operation_role(sup);
        // `e^{-1}`, `\pi^{-1}`: a constant's minus first power, no inverse of a matrix.
        let constant = matches!(&base.kind, NodeKind::Symbol { name, font: Font::Normal }
            if has(&self.notation.constants, name));
        if operation == ScriptRole::Inverse && constant {
            return ScriptRole::Power;
        }
        if operation != ScriptRole::Power {
            return operation;
        }
        let capital_base = base_letter(base).is_some_and(|l| l.starts_with(|c: char| c.is_ascii_uppercase()));
        let layer_letter = matches!(&sup.kind, NodeKind::Symbol { name, font: Font::Normal }
            if has(&self.notation.layer_letters, name));
        if layer_letter {
            return ScriptRole::Layer;
        }
        let latin_base = is_latin_base(base);
        match &sup.kind {
            // `\mathbf{w}^{(\mathrm{new})}`, `\theta^{(\text{old})}`: a word in parentheses names a
            // version, part of the symbol's name.
            NodeKind::Fenced { open: Delim::Paren, body, .. }
                if matches!(body.kind, NodeKind::Word { .. }) =>
            {
                ScriptRole::Label
            }
            // `f^{(k-1)}(x)` beside `k!`: the order of a derivative.
            NodeKind::Fenced { open: Delim::Paren, body, .. }
                if !matches!(body.kind, NodeKind::Number { .. })
                    && font_of_name(base) == Font::Normal
                    && !capital_base
                    && self.table.names_an_order(body) =>
            {
                ScriptRole::Order
            }
            NodeKind::Fenced { open: Delim::Paren, body, .. }
                if !matches!(body.kind, NodeKind::Number { .. }) =>
            {
                ScriptRole::Layer
            }
            // `h^{\langle t \rangle}` (Cho et al.), `s_\ell^{[t]}`: a step in angle brackets or
            // square brackets, as in parentheses.
            NodeKind::Fenced { open: Delim::Paren | Delim::Angle | Delim::Bracket, .. } => ScriptRole::Layer,
            // `z^1, z^2`, `f_i^1`: numbers above a name one of which is 1 (and none 0) say which;
            // so do 0 and 1 above a bold small letter (`\mathbf{z}_L^0`), never raised to them.
            NodeKind::Number { text, .. }
                if (latin_base
                    && crate::meaning::binding_name(base)
                        .is_some_and(|b| self.table.numbers_members(&b)))
                    || (matches!(text.as_str(), "0" | "1")
                        && font_of_name(base) == Font::Bold
                        && base_letter(base)
                            .is_some_and(|l| l.starts_with(|c: char| c.is_ascii_lowercase()))) =>
            {
                ScriptRole::Family
            }
            // `z^{k+1} = z^k - \ldots`: a letter written elsewhere as a step from itself counts
            // steps above every Latin name (Greek ones keep powers: `\gamma^k`, `\beta_1^t`).
            NodeKind::Symbol { name, font: Font::Normal }
                if latin_base && self.table.is_stepped_superscript(name) =>
            {
                ScriptRole::Layer
            }
            NodeKind::Chain { first, .. }
                if latin_base
                    && self.is_step(sup)
                    && matches!(&first.kind, NodeKind::Symbol { name, .. } if self.table.is_stepped_superscript(name)) =>
            {
                ScriptRole::Layer
            }
            NodeKind::Word { .. } => ScriptRole::Label,
            NodeKind::Styled { .. } => ScriptRole::Label,
            NodeKind::Symbol { name, font: Font::Roman | Font::Bold | Font::SansSerif }
                if name.len() == 1 =>
            {
                ScriptRole::Label
            }
            NodeKind::Symbol { name, font: Font::Normal } if name.len() == 1 => {
                let upper = name.starts_with(|c: char| c.is_ascii_uppercase());
                let index = self.table.recorded(name) == Some(super::SymbolKind::Index);
                let matrix_base = capital_base || font_of_name(base) == Font::Bold;
                let member = index || has(&self.notation.family_letters, name);
                // `\sum_{k=0}^{\infty} \frac{A^k}{k!}`: a letter counted from 0 raises a matrix or
                // a number to its powers (a bold small letter, a vector, is never raised).
                let vector_base = font_of_name(base) == Font::Bold && !capital_base;
                if !upper && !vector_base && self.table.is_zero_counted(name) {
                    return ScriptRole::Power;
                }
                match (upper, member && matrix_base) {
                    (true, _) => ScriptRole::Label,
                    (false, true) => ScriptRole::Family,
                    _ if self.table.is_shared_superscript(name, latin_base) => {
                        if self.is_step(sup) {
                            ScriptRole::Layer
                        } else {
                            ScriptRole::Index
                        }
                    }
                    _ if self.is_step(sup) && self.steps_over(base) => ScriptRole::Layer,
                    _ if has(&self.notation.superscript_index_letters, name) => ScriptRole::Index,
                    // `\mathbf{W}^z`, `\mathbf{U}^r`: above a bold array, a small letter papers
                    // never raise an array to (only counts: `\mathbf{A}^k`, `\mathbf{S}^n`) names
                    // which one, the update gate's weights.
                    _ if font_of_name(base) == Font::Bold
                        && !upper
                        && !has(&self.notation.bare_count_letters, name)
                        && !has(&self.notation.power_count_letters, name) =>
                    {
                        ScriptRole::Label
                    }
                    _ => ScriptRole::Power,
                }
            }
            // `\mathbf{h}_i^{z_i}`: an indexed letter above a bold array (the dropout mask that
            // made this view) names which, no power.
            NodeKind::Scripts { base: inner, sub: Some(_), sup: None, .. }
                if font_of_name(base) == Font::Bold
                    && matches!(&inner.kind, NodeKind::Symbol { name, font: Font::Normal } if name.len() == 1) =>
            {
                ScriptRole::Label
            }
            // `W^{1,l}`, `x^{\mathrm{pre},2}`, `x^{post,4}`: a list above a name is no power but
            // which one of several, named by its parts.
            NodeKind::Chain { .. } if self.tuple_label(sup).is_some() => ScriptRole::Label,
            NodeKind::Chain { first, rest } if capital_base && all_letters(first, rest) => ScriptRole::Label,
            NodeKind::Chain { first, rest } if capital_words_joined(first, rest) => ScriptRole::Label,
            // `f^{7 \times 7}`, `W^{3 \times 3}`: sizes crossed above a name say its shape (a
            // convolution's filter), no power; above a number set (`\mathbb{R}^{n \times d}`) they
            // say its arrays' shape, read where spaces are.
            NodeKind::Chain { first, rest }
                if sizes_crossed(first, rest)
                    && !matches!(
                        font_of_name(base),
                        Font::Blackboard | Font::Calligraphic | Font::Script
                    ) =>
            {
                ScriptRole::Label
            }
            NodeKind::Chain { .. } if self.is_label_word(sup) => ScriptRole::Label,
            NodeKind::Chain { .. } if self.is_step(sup) && self.steps_over(base) => ScriptRole::Layer,
            NodeKind::Scripts { base: inner, primes, .. }
                if *primes > 0
                    && matches!(&inner.kind, NodeKind::Symbol { name, .. } if name.starts_with(|c: char| c.is_ascii_uppercase())) =>
            {
                ScriptRole::Label
            }
            _ => ScriptRole::Power,
        }
    }

    /// Whether a superscript names a step or a layer: `t`, `t-1`, `k-1`, `n+1`.
    pub(super) fn is_step(&self, sup: &Node) -> bool {
        let letter = |n: &Node| is_step_letter(n);
        match &sup.kind {
            NodeKind::Chain { first, rest } => {
                letter(first)
                    && rest.iter().all(|l| {
                        matches!(l.op, InfixOp::Additive(_))
                            && matches!(l.operand.kind, NodeKind::Number { .. })
                    })
            }
            _ => letter(sup),
        }
    }

    /// Whether a base is one that papers follow over steps (`\mathbf{x}^t`, `h_v^{k-1}`): bold, or
    /// a letter papers index to pick vectors.
    fn steps_over(&self, base: &Node) -> bool {
        let bold = font_of_name(base) == Font::Bold;
        bold || base_letter(base).is_some_and(|l| has(&self.notation.vector_when_indexed, l))
    }
}

/// Letters papers count steps with above a name: `h^t`, `x^{k+1}`, `A^{\ell+1}`.
const STEP_LETTERS: &[&str] = &["t", "k", "n", "l", "s", "ell", "tau"];

/// Whether a node is a letter of [`STEP_LETTERS`] in the normal font.
pub(super) fn is_step_letter(node: &Node) -> bool {
    matches!(&node.kind, NodeKind::Symbol { name, font: Font::Normal } if STEP_LETTERS.contains(&name.as_str()))
}

/// Whether a name's base is one Latin letter other than Euler's `e`: what stands above it may
/// count steps or members rather than raise it to a power.
pub(super) fn is_latin_base(base: &Node) -> bool {
    base_letter(base)
        .is_some_and(|l| l.len() == 1 && l.starts_with(|c: char| c.is_ascii_alphabetic()) && l != "e")
}

/// Whether a chain is single letters side by side (`CLIP`).
fn all_letters(first: &Node, rest: &[crate::syntax::ast::Link]) -> bool {
    let letter = |n: &Node| matches!(&n.kind, NodeKind::Symbol { name, .. } if name.len() == 1);
    letter(first) && rest.iter().all(|l| l.op == InfixOp::Juxt && letter(&l.operand))
}

/// `L^{CLIP+VF+S}`: words of capitals joined by `+` name the terms a loss adds up, a label
/// (one run of two capitals at least, so `A^{B+C}` stays a power).
fn capital_words_joined(first: &Node, rest: &[crate::syntax::ast::Link]) -> bool {
    let capital = |n: &Node| {
        matches!(&n.kind, NodeKind::Symbol { name, font: Font::Normal }
        if name.len() == 1 && name.starts_with(|c: char| c.is_ascii_uppercase()))
    };
    let run = |n: &Node| {
        matches!(&n.kind, NodeKind::Chain { first, rest }
        if capital(first) && rest.iter().all(|l| l.op == InfixOp::Juxt && capital(&l.operand)))
    };
    let plus = |op: &InfixOp| matches!(op, InfixOp::Additive(o) if o == "+");
    let operands = || std::iter::once(first).chain(rest.iter().map(|l| &l.operand));
    !rest.is_empty()
        && rest.iter().all(|l| plus(&l.op))
        && operands().all(|n| capital(n) || run(n))
        && operands().any(run)
}

/// `7 \times 7`, `k \times k`: numbers or single letters crossed, a shape.
fn sizes_crossed(first: &Node, rest: &[crate::syntax::ast::Link]) -> bool {
    let size = |n: &Node| match &n.kind {
        NodeKind::Number { .. } => true,
        NodeKind::Symbol { name, font: Font::Normal } => name.len() == 1,
        _ => false,
    };
    !rest.is_empty()
        && size(first)
        && rest
            .iter()
            .all(|l| matches!(&l.op, InfixOp::Multiplicative(o) if o == "\\times") && size(&l.operand))
}
