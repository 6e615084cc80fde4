//! Counts worked out of counts: a count letter defined as a product or quotient of plain
//! letters (`N = HW / P^2`), and products that count operations or parameters (`2HW(C_{\mathrm{in}}
//! K^2 + 1) C_{\mathrm{out}}`, `96 B s L h^2`): their letters are sizes, not the matrices or
//! numbers their spellings suggest.

use super::tree::{Factor, ScriptRole, Term, TermKind};
use crate::syntax::ast::{Delim, Font, InfixOp};

/// `N = HW / P^2`, `d_k = d_{\mathrm{model}} / h`: a letter papers count with, defined as a
/// product or quotient of plain letters and numbers, is a count worked out of counts: the
/// letters are sizes (not the matrices a capital's spelling suggests) and the count stays one.
pub(super) fn defined_as_size(lhs: &mut Term, rhs: &mut Term) {
    let TermKind::Symbol(occurrence) = &mut lhs.kind else { return };
    let letter = super::scripts::base_letter(occurrence.base).unwrap_or_default();
    let counted = matches!(letter, "n" | "N" | "d" | "m")
        && occurrence.kind == super::SymbolKind::Dimension
        && occurrence.evidence >= super::Evidence::Convention
        && occurrence.scripts.iter().all(|s| s.role == ScriptRole::Label)
        && super::roles::font_of(occurrence.base) == Font::Normal;
    if !counted || rhs.occurrence().is_some() || !is_count_arithmetic(rhs, 0) {
        return;
    }
    occurrence.evidence = super::Evidence::Use;
    size_letters(rhs);
}

/// Whether a term is plain Latin letters and numbers multiplied, divided or raised to numbers.
fn is_count_arithmetic(term: &Term, depth: usize) -> bool {
    if depth > 8 {
        return false;
    }
    match &term.kind {
        TermKind::Number => true,
        TermKind::Symbol(o) => {
            let letter = super::scripts::base_letter(o.base).unwrap_or_default();
            letter.len() == 1
                && letter.starts_with(|c: char| c.is_ascii_alphabetic())
                && super::roles::font_of(o.base) == Font::Normal
                && o.scripts.iter().all(|s| s.role == ScriptRole::Label)
        }
        TermKind::Scripted { base, sub: None, sup: Some(s), .. } => {
            s.role == ScriptRole::Power
                && matches!(s.term.kind, TermKind::Number)
                && is_count_arithmetic(base, depth + 1)
        }
        // `\frac{t}{T}`: a position over a count is a share of the way, no count.
        TermKind::Frac { num, .. }
            if num.occurrence().is_some_and(|o| o.kind == super::SymbolKind::Index) =>
        {
            false
        }
        TermKind::Frac { num, den } => {
            is_count_arithmetic(num, depth + 1) && is_count_arithmetic(den, depth + 1)
        }
        TermKind::Fenced { open: Delim::Paren, body } => is_count_arithmetic(body, depth + 1),
        // `(C_{\mathrm{in}} K^2 + 1)`: counts added, inside brackets.
        TermKind::Chain { first, rest } if depth > 0 => {
            rest.iter()
                .all(|j| matches!(j.op, InfixOp::Additive(_)) && is_count_arithmetic(&j.term, depth + 1))
                && is_count_arithmetic(first, depth + 1)
        }
        TermKind::Product(factors) => factors.iter().all(|f| {
            let op = match f.op {
                None | Some(InfixOp::Juxt) => true,
                Some(InfixOp::Multiplicative(op)) => {
                    matches!(op.as_str(), "/" | "\\cdot" | "\\times")
                }
                _ => false,
            };
            op && is_count_arithmetic(&f.term, depth + 1)
        }),
        _ => false,
    }
}

/// Makes the letters of count arithmetic sizes where only a convention, or a use resting on
/// one, named their kind.
fn size_letters(term: &mut Term) {
    if let TermKind::Symbol(o) = &mut term.kind {
        // A use there (`H` beside `W` in `HW`, a matrix beside a matrix) rested on the same
        // spellings; a declaration or a known name stands.
        let loose = matches!(o.evidence, super::Evidence::Convention | super::Evidence::Use);
        if loose && !matches!(o.kind, super::SymbolKind::Dimension | super::SymbolKind::Function) {
            o.kind = super::SymbolKind::Dimension;
            o.evidence = super::Evidence::Use;
        }
        return;
    }
    term.for_each_child_mut(size_letters);
}

/// `2HW(C_{\mathrm{in}} K^2 + 1) C_{\mathrm{out}}`, `96 B s L h^2`, `4hwC^2`: a product of plain
/// letters, numbers, their powers and bracketed sums of such counts operations or parameters
/// when one of its letters is a size by more than its spelling (a use, a declaration, a size
/// name with a label), or when it opens with a whole number and holds a capital among two
/// letters or more: its letters are sizes.
pub(super) fn counted_products(factors: &mut [Factor]) {
    let joined = factors.iter().skip(1).all(|f| match f.op {
        Some(InfixOp::Juxt) => true,
        Some(InfixOp::Multiplicative(op)) => op == "\\cdot" || op == "\\times",
        _ => false,
    });
    if factors.len() < 2 || !joined || !factors.iter().all(|f| is_count_arithmetic(&f.term, 0)) {
        return;
    }
    let mut letters = 0;
    let mut capital = false;
    let mut sized = false;
    // `2 W x`: a matrix times a vector is no count, whatever numbers stand before it.
    let mut arrays = false;
    for factor in factors.iter() {
        visit_letters(&factor.term, 0, &mut |o| {
            letters += 1;
            capital |= o.base_name.starts_with(|c: char| c.is_ascii_uppercase());
            let labelled = !o.scripts.is_empty();
            sized |= o.kind == super::SymbolKind::Dimension
                && (o.evidence < super::Evidence::Convention || labelled);
            arrays |= o.kind == super::SymbolKind::Vector
                || (o.kind == super::SymbolKind::Matrix && o.evidence < super::Evidence::Convention);
        });
    }
    let counted = factors.first().is_some_and(|f| is_whole_number(&f.term)) && letters >= 2 && capital;
    if (sized || counted) && !arrays {
        factors.iter_mut().for_each(|f| size_letters(&mut f.term));
    }
}

/// Whether a term is a whole number written as digits, 2 or more (`96`, `6`).
fn is_whole_number(term: &Term) -> bool {
    let crate::syntax::ast::NodeKind::Number { text, .. } = &term.node.kind else { return false };
    matches!(term.kind, TermKind::Number)
        && text.chars().all(|c| c.is_ascii_digit())
        && !matches!(text.as_str(), "0" | "1")
}

/// Calls `visit` on each symbol of a term of count arithmetic.
fn visit_letters(term: &Term, depth: usize, visit: &mut impl FnMut(&super::Occurrence)) {
    if depth > 8 {
        return;
    }
    if let Some(o) = term.occurrence() {
        visit(o);
        return;
    }
    term.for_each_child(|child| visit_letters(child, depth + 1, visit));
}
