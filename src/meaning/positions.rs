//! Positions: a letter compared with a position is one (`j \neq y`), a letter that only a
//! convention called a position is a number where it is used as one (`t^2`, `|t|`), the stride
//! of a position is a size, the last of a range written with dots is its count, and what one
//! call takes at one position is of one kind.

use super::agree::{small_letter_becomes, small_letter_is_vector};
use super::tree::{ScriptRole, Term, TermKind};
use crate::syntax::ast::{Delim, Font, InfixOp, NodeKind};

/// `t^2`, `|t|`, `t = \mathbf{v} \cdot \mathbf{x}`: a bare small letter that only a convention
/// called a position (papers count with `t`) is a number where it is squared, taken in
/// absolute value or defined as a number.
pub(super) fn position_used_as_number(term: &mut Term) {
    let TermKind::Symbol(occurrence) = &mut term.kind else { return };
    if occurrence.scripts.is_empty() {
        small_letter_becomes(occurrence, &[super::SymbolKind::Index], super::SymbolKind::Scalar);
    }
}

/// The index of the last item of a range written with dots is the range's count.
pub(super) fn count_index(term: &mut Term) {
    let TermKind::Symbol(occurrence) = &mut term.kind else { return };
    for script in occurrence
        .scripts
        .iter_mut()
        .filter(|s| matches!(s.role, ScriptRole::Index | ScriptRole::Family | ScriptRole::Layer))
    {
        // `x^{(n)}`: a layer's or sample's count is written in parentheses.
        let term = match &mut script.term.kind {
            TermKind::Fenced { open: Delim::Paren, body } => body.as_mut(),
            _ => script.term.as_mut(),
        };
        if let TermKind::Symbol(index) = &mut term.kind {
            if index.scripts.is_empty() && index.evidence >= super::Evidence::Use {
                index.kind = super::SymbolKind::Dimension;
                index.evidence = super::Evidence::Use;
            }
        }
    }
}

/// `j \neq y`, `i < k`: a small Latin letter compared with a position is a position too (the
/// class y), when only a convention called it a number.
pub(super) fn positions_compared<'n>(left: &mut Term<'n>, right: &mut Term<'n>) {
    let is_position = |t: &Term| t.occurrence().is_some_and(|o| o.kind == super::SymbolKind::Index);
    let other = match (is_position(left), is_position(right)) {
        (true, false) => right,
        (false, true) => left,
        _ => return,
    };
    let TermKind::Symbol(occurrence) = &mut other.kind else { return };
    let small_latin = occurrence.base_name.len() == 1
        && occurrence.base_name.starts_with(|c: char| c.is_ascii_lowercase())
        && matches!(occurrence.base.kind, NodeKind::Symbol { font: Font::Normal, .. });
    if small_latin
        && occurrence.scripts.is_empty()
        && occurrence.kind == super::SymbolKind::Scalar
        && occurrence.evidence == super::Evidence::Convention
    {
        occurrence.kind = super::SymbolKind::Index;
        occurrence.evidence = super::Evidence::Use;
    }
}

/// `x[i + r \cdot k]`, `V_{l, (j-1) \times s + m}`: in a position, a plain letter that multiplies
/// an index (and that only a convention called a number) is a size, a stride or a rate.
pub(super) fn strides(position: &mut Term) {
    match &mut position.kind {
        TermKind::Chain { first, rest } if rest.iter().all(|j| matches!(j.op, InfixOp::Additive(_))) => {
            strides(first);
            rest.iter_mut().for_each(|j| strides(&mut j.term));
        }
        TermKind::Product(factors) => {
            let indexed = factors.iter().any(|f| super::kind_of_term(&f.term) == super::SymbolKind::Index);
            if !indexed {
                return;
            }
            // `(j-1) \times s`: beside a worked-out position even a letter papers index with.
            let worked_out = factors
                .iter()
                .any(|f| f.term.occurrence().is_none() && !matches!(f.term.kind, TermKind::Number));
            for factor in factors.iter_mut() {
                let TermKind::Symbol(o) = &mut factor.term.kind else { continue };
                let loose = (o.kind == super::SymbolKind::Scalar
                    && o.evidence == super::Evidence::Convention)
                    || (worked_out
                        && o.kind == super::SymbolKind::Index
                        && o.evidence >= super::Evidence::Use);
                if loose && o.scripts.is_empty() {
                    o.kind = super::SymbolKind::Dimension;
                    o.evidence = super::Evidence::Use;
                }
            }
        }
        _ => {}
    }
}

/// `f(s_{i-1}, y_{i-1}, c_i)`, `\mathrm{COMBINE}(h_v^{(k-1)}, a_v^{(k)})`: what one function
/// takes at one position (the same index letter) is of one kind, so beside a vector a small
/// letter picked there that only a convention called a number is a vector too.
pub(super) fn arguments_at_one_position(args: &mut [Term]) {
    let vectors: Vec<Vec<&str>> = args
        .iter()
        .filter_map(Term::occurrence)
        .filter(|o| o.kind == super::SymbolKind::Vector && o.indexed)
        .map(index_letters)
        .collect();
    if vectors.is_empty() {
        return;
    }
    let shares: Vec<bool> = args
        .iter()
        .map(|arg| {
            arg.occurrence().is_some_and(|o| {
                let mine = index_letters(o);
                vectors.iter().any(|v| v.iter().any(|l| mine.contains(l)))
            })
        })
        .collect();
    for (arg, shares) in args.iter_mut().zip(shares) {
        if shares {
            small_letter_is_vector(arg, &[super::SymbolKind::Scalar]);
        }
    }
}

/// The letters an occurrence's index subscripts pick it by (`i` of `s_{i-1}`).
fn index_letters<'a>(occurrence: &'a super::Occurrence) -> Vec<&'a str> {
    occurrence
        .scripts
        .iter()
        .filter(|s| s.role == ScriptRole::Index && !s.above)
        .flat_map(|s| s.term.occurrences())
        .filter(|(_, o)| o.kind == super::SymbolKind::Index)
        .map(|(_, o)| o.name.as_str())
        .collect()
}
