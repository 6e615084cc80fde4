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

/// `x_{l,1}, \cdots, x_{l,n}`: where the last item of a range written with dots has a letter in a
/// position that the first item has a number in, the letter is the range's count.
pub(super) fn count_position(term: &mut Term, first: &Term) {
    let (TermKind::Symbol(last), Some(start)) = (&mut term.kind, first.occurrence()) else { return };
    if last.base_name != start.base_name {
        return;
    }
    let positions = |s: &super::tree::Script| !s.above && s.role == ScriptRole::Index;
    let (Some(script), Some(begun)) =
        (last.scripts.iter_mut().find(|s| positions(s)), start.scripts.iter().find(|s| positions(s)))
    else {
        return;
    };
    let (TermKind::Chain { first: a, rest: ra }, TermKind::Chain { first: b, rest: rb }) =
        (&mut script.term.kind, &begun.term.kind)
    else {
        return;
    };
    if ra.len() != rb.len() || !ra.iter().all(|j| matches!(j.op, InfixOp::Separator(_))) {
        return;
    }
    let ends = std::iter::once(a.as_mut()).chain(ra.iter_mut().map(|j| &mut j.term));
    let starts = std::iter::once(b.as_ref()).chain(rb.iter().map(|j| &j.term));
    for (end, start) in ends.zip(starts) {
        let TermKind::Symbol(index) = &mut end.kind else { continue };
        let numbered = matches!(start.kind, TermKind::Number);
        if numbered && index.scripts.is_empty() && index.evidence >= super::Evidence::Use {
            index.kind = super::SymbolKind::Dimension;
            index.evidence = super::Evidence::Use;
        }
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

/// `\mathbb{1}[y_i = k]`, `\delta(y_i = j)`, `\mathbb{1}\{y \neq c\}`: an indicator's condition that
/// sets a small Latin letter equal (or unequal) to a position compares labels: a class. The letter
/// (indexed or not) is a position, and so is a size letter on the other side, where only a
/// convention named them.
pub(super) fn labels_compared(args: &mut [Term]) {
    for arg in args.iter_mut() {
        let TermKind::Chain { first, rest } = &mut arg.kind else { continue };
        let [joint] = rest.as_mut_slice() else { continue };
        let equal = matches!(joint.op, InfixOp::Relation(r) if matches!(r.as_str(), "=" | "\\neq" | "\\ne"));
        if !equal {
            continue;
        }
        let position = |t: &Term| {
            t.occurrence().is_some_and(|o| {
                o.kind == super::SymbolKind::Index
                    || (o.kind == super::SymbolKind::Dimension
                        && o.evidence == super::Evidence::Convention
                        && o.scripts.is_empty())
            })
        };
        let label = |t: &Term| {
            t.occurrence().is_some_and(|o| {
                o.kind == super::SymbolKind::Scalar
                    && o.evidence == super::Evidence::Convention
                    && matches!(o.base.kind, NodeKind::Symbol { font: Font::Normal, .. })
                    && o.base_name.len() == 1
                    && o.base_name.starts_with(|c: char| c.is_ascii_lowercase())
            })
        };
        let (left, right) = (first.as_mut(), &mut joint.term);
        if !((position(left) && label(right)) || (label(left) && position(right))) {
            continue;
        }
        for side in [left, right] {
            if let TermKind::Symbol(o) = &mut side.kind {
                if o.evidence == super::Evidence::Convention {
                    o.kind = super::SymbolKind::Index;
                    o.evidence = super::Evidence::Use;
                }
            }
        }
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

/// `t \mathbf{x}_1`, `(1 - (1 - \sigma_{\min}) t) x`: a bare small letter that only a convention
/// called a position (time `t`), side by side with a vector or a bracketed sum that holds a
/// Greek number, scales it: a number. (`2i` stays a position: a numeral doubles it.)
pub(super) fn positions_scaling(factors: &mut [super::tree::Factor]) {
    let scaled = |t: &Term| match &t.kind {
        TermKind::Fenced { open: Delim::Paren, body } => holds_greek_number(body, 0),
        _ => super::kind_of_term(t) == super::SymbolKind::Vector,
    };
    for i in 0..factors.len() {
        let juxt_next = factors.get(i + 1).is_some_and(|f| matches!(f.op, Some(InfixOp::Juxt)));
        let juxt_here = i > 0 && factors.get(i).is_some_and(|f| matches!(f.op, Some(InfixOp::Juxt)));
        let beside = (juxt_next && factors.get(i + 1).is_some_and(|f| scaled(&f.term)))
            || (juxt_here && i.checked_sub(1).and_then(|p| factors.get(p)).is_some_and(|f| scaled(&f.term)));
        if beside {
            if let Some(factor) = factors.get_mut(i) {
                position_used_as_number(&mut factor.term);
            }
        }
    }
}

/// Whether a term holds a Greek letter that is a number (`1 - \sigma_{\min}`), outside scripts.
fn holds_greek_number(term: &Term, depth: usize) -> bool {
    if depth > 8 {
        return false;
    }
    if let Some(o) = term.occurrence() {
        return crate::syntax::names::is_greek(&o.base_name) && o.kind == super::SymbolKind::Scalar;
    }
    let mut found = false;
    term.for_each_child(|child| found |= holds_greek_number(child, depth + 1));
    found
}

/// `y(\mathbf{x}) - t`: a bare small letter that only a convention called a position, added to
/// or subtracted from what a one-letter function gives, is a number (a target, a time).
pub(super) fn positions_beside_values(operands: &mut [&mut Term]) {
    let value = |t: &Term| match &t.kind {
        TermKind::Apply(app) => app.callee.occurrence().is_some_and(|o| {
            o.kind == super::SymbolKind::Function && o.base_name.len() == 1 && o.scripts.is_empty()
        }),
        _ => false,
    };
    if !operands.iter().any(|t| value(t)) {
        return;
    }
    for operand in operands.iter_mut() {
        position_used_as_number(operand);
    }
}

/// `\sum_j |\beta_j| \le t`, `|y(\mathbf{x}) - t| < \epsilon`: a bare small letter that only a
/// convention called a position, bounding a sum of absolute values or a norm, is a threshold.
pub(super) fn positions_bounding_sizes(left: &mut Term, right: &mut Term) {
    let measured = |t: &Term| match &t.kind {
        TermKind::BigOp(big) => big.body.as_ref().is_some_and(|b| is_measure(b)),
        _ => is_measure(t),
    };
    if measured(left) {
        position_used_as_number(right);
    } else if measured(right) {
        position_used_as_number(left);
    }
}

/// Whether a term is an absolute value or a norm.
fn is_measure(term: &Term) -> bool {
    matches!(&term.kind, TermKind::Fenced { open: Delim::Bar | Delim::DoubleBar, .. })
}

/// `P_e \geq \frac{H(X \mid Y) - 1}{\log |\mathcal{X}|}`, `\sum_{n=1}^{N} h_t^n \geq 1 - \epsilon`:
/// what an inequality orders are numbers (vectors and matrices have no order; papers write an
/// element-wise one in bold, `\mathbf{x} \geq 0`), so a plain letter only a convention called a
/// vector or a matrix there is a number, and so is the summand of a sum it orders.
pub(super) fn ordered_are_numbers(first: &mut Term, joints: &mut [super::tree::Joint]) {
    let ordering = |op: &InfixOp| matches!(op, InfixOp::Relation(r) if matches!(r.as_str(), "<" | ">" | "\\le" | "\\leq" | "\\ge" | "\\geq" | "\\lt" | "\\gt" | "\\leqslant" | "\\geqslant"));
    if joints.is_empty() || !joints.iter().all(|j| ordering(j.op)) {
        return;
    }
    ordered_number(first, 0);
    joints.iter_mut().for_each(|j| ordered_number(&mut j.term, 0));
}

/// One side of an inequality: its plain letter, through signs, brackets and a sum's body.
fn ordered_number(term: &mut Term, depth: usize) {
    if depth > 3 {
        return;
    }
    match &mut term.kind {
        TermKind::Symbol(occurrence) => {
            let array = matches!(occurrence.kind, super::SymbolKind::Vector | super::SymbolKind::Matrix);
            if array
                && occurrence.evidence == super::Evidence::Convention
                && super::roles::font_of(occurrence.base) == Font::Normal
            {
                occurrence.kind = super::SymbolKind::Scalar;
                occurrence.evidence = super::Evidence::Use;
            }
        }
        TermKind::Sign { operand, .. } => ordered_number(operand, depth + 1),
        TermKind::Fenced { open: Delim::Paren | Delim::Bracket, body } => ordered_number(body, depth + 1),
        TermKind::BigOp(big) if big.name == "sum" => {
            if let Some(body) = big.body.as_mut() {
                ordered_number(body, depth + 1);
            }
        }
        _ => {}
    }
}

/// `k^{\text{th}}`, `n^{th}`: a letter an ordinal's ending follows says which one in order, a
/// position, where only its spelling called it a size or a number.
pub(super) fn ordinal_is_a_position(term: &mut Term) {
    let TermKind::Symbol(occurrence) = &mut term.kind else { return };
    if occurrence.evidence >= super::Evidence::Known && occurrence.scripts.is_empty() {
        occurrence.kind = super::SymbolKind::Index;
        occurrence.evidence = super::Evidence::Use;
    }
}
