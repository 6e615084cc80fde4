//! Sizes worked out of sizes: a letter added to a size, crossed with sizes (`H \times W \times
//! C`), or rounded beside one (`\lfloor \frac{n + 2p - k}{s} \rfloor`) is a size too, when only
//! a convention gave it another kind. Each pass changes only kinds that a convention alone gave.

use super::tree::{Factor, ScriptRole, Term, TermKind};
use crate::syntax::ast::{Delim, Font, InfixOp};

/// `2 \times d_{\mathrm{model}} \times r + r + d_{\mathrm{model}}`, `n - k + 1`: a plain
/// letter added to a size, or multiplied by one with `\times`, is a size too when only a
/// convention called it a number. A size counts as one when something other than the letter's
/// spelling alone said so: a use (`\frac{1}{N}`, a sum's bound), a declaration, or a labelled
/// size name (`d_{\mathrm{model}}`).
pub(super) fn sizes_beside_sizes(operands: &mut [&mut Term]) {
    if !operands.iter().any(|t| is_sized(t)) {
        return;
    }
    // `K = \lceil n / s \rceil`: beside a size worked out (not a letter), a capital's spelling
    // as a matrix gives way too.
    let computed = operands.iter().any(|t| is_sized(t) && t.occurrence().is_none());
    for term in operands.iter_mut() {
        match &mut term.kind {
            TermKind::Symbol(occurrence) => letter_to_size(occurrence, computed),
            // `o = (i - k) + 1`: the letters of a bracketed sum added to a size are sizes.
            TermKind::Fenced { open: Delim::Paren, body } => {
                if let TermKind::Chain { first, rest } = &mut body.kind {
                    if rest.iter().all(|j| matches!(j.op, InfixOp::Additive(_))) {
                        let inner =
                            std::iter::once(first.as_mut()).chain(rest.iter_mut().map(|j| &mut j.term));
                        for inner in inner {
                            if let TermKind::Symbol(occurrence) = &mut inner.kind {
                                letter_to_size(occurrence, false);
                            }
                        }
                    }
                }
            }
            // `m' = |\mathcal{B}| = m \cdot p\, q`: a product of plain letters set equal to a
            // size worked out is a product of sizes.
            TermKind::Product(factors) if computed && plain_letters(factors) => {
                plain_letters_to_sizes(factors)
            }
            _ => {}
        }
    }
}

/// Whether a term is a size by more than a letter's spelling: a use (`\frac{1}{N}`, a sum's
/// bound), a declaration, a labelled size name (`d_{\mathrm{model}}`), or worked out of sizes.
/// A product of letters (`t d` of `x + t d`, a line search) is one only when a letter of it is.
fn is_sized(t: &Term) -> bool {
    if super::kind_of_term(t) != super::SymbolKind::Dimension {
        return false;
    }
    match (&t.kind, t.occurrence()) {
        (_, Some(o)) => {
            let labelled = !o.scripts.is_empty() && o.scripts.iter().all(|s| s.role == ScriptRole::Label);
            o.evidence < super::Evidence::Convention || labelled
        }
        (TermKind::Product(factors), None) if factors.iter().all(|f| f.term.occurrence().is_some()) => {
            factors.iter().any(|f| is_sized(&f.term))
        }
        _ => true,
    }
}

/// `\frac{x_i - \mu}{\sigma} \cdot r + d`, `k + \alpha \sum_j (a^j)^2`, `a \log N + c + d`:
/// added to a measured quantity (a term worked out with a Greek number, a logarithm or an
/// exponential in it), a bare letter that only its spelling called a size is a number, an
/// offset. Not beside a size (`n + \lambda k`? a size by use stops it).
pub(super) fn numbers_beside_measures(operands: &mut [&mut Term]) {
    if operands.iter().any(|t| is_sized(t)) {
        return;
    }
    if !operands.iter().any(|t| t.occurrence().is_none() && holds_measure(t)) {
        return;
    }
    for term in operands.iter_mut() {
        let TermKind::Symbol(o) = &mut term.kind else { continue };
        let letter = super::scripts::base_letter(o.base).unwrap_or_default();
        if o.kind == super::SymbolKind::Dimension
            && o.evidence == super::Evidence::Convention
            && o.scripts.is_empty()
            && letter.len() == 1
            && super::roles::font_of(o.base) == Font::Normal
        {
            o.kind = super::SymbolKind::Scalar;
            o.evidence = super::Evidence::Use;
        }
    }
}

/// Whether a term holds a Greek letter that is a number.
fn holds_measure(term: &Term) -> bool {
    let mut stack: Vec<&Term> = vec![term];
    while let Some(term) = stack.pop() {
        match &term.kind {
            TermKind::Symbol(o)
                if o.kind == super::SymbolKind::Scalar
                    && super::scripts::base_letter(o.base).is_some_and(crate::syntax::names::is_greek) =>
            {
                return true
            }
            _ => {}
        }
        term.for_each_child(|child| stack.push(child));
    }
    false
}

/// Makes a plain Latin letter (labels allowed, `\hat{L}_{LN}`: never an index) a size when only
/// a convention called it a number, or, beside a size worked out (`computed`), a matrix.
fn letter_to_size(occurrence: &mut super::Occurrence, computed: bool) {
    let letter = super::scripts::base_letter(occurrence.base).unwrap_or_default();
    let latin = letter.len() == 1
        && letter.starts_with(|c: char| c.is_ascii_alphabetic())
        && super::roles::font_of(occurrence.base) == Font::Normal;
    // `o = i + (k - 1)`: a letter papers use for positions, added into a size, is a size
    // (the input's, beside the kernel's) when nothing but its spelling made it a position.
    let position = occurrence.kind == super::SymbolKind::Index && occurrence.scripts.is_empty();
    let loose = occurrence.kind == super::SymbolKind::Scalar
        || position
        || (computed && occurrence.kind == super::SymbolKind::Matrix && !occurrence.indexed);
    if latin
        && occurrence.scripts.iter().all(|s| s.role == ScriptRole::Label)
        && loose
        && occurrence.evidence == super::Evidence::Convention
    {
        occurrence.kind = super::SymbolKind::Dimension;
        occurrence.evidence = super::Evidence::Use;
    }
}

/// Whether a row is numbers and plain letters (labels allowed) side by side or joined by
/// `\cdot` or `\times`: `m \cdot p q`, `6 N D`, `2 \times d`.
fn plain_letters(factors: &[Factor]) -> bool {
    let joined = factors.iter().skip(1).all(|f| match &f.op {
        Some(InfixOp::Juxt) => true,
        Some(InfixOp::Multiplicative(op)) => op == "\\cdot" || op == "\\times",
        _ => false,
    });
    joined
        && factors.iter().all(|f| match &f.term.kind {
            TermKind::Number => true,
            TermKind::Symbol(o) => {
                super::roles::font_of(o.base) == Font::Normal
                    && o.scripts.iter().all(|s| s.role == ScriptRole::Label)
            }
            // A run side by side that a sign takes whole (`p\, q` of `m \cdot p\, q`).
            TermKind::Product(run) => plain_letters(run),
            _ => false,
        })
}

/// The letters of a product of plain letters ([`plain_letters`]) made sizes, runs included.
fn plain_letters_to_sizes(factors: &mut [Factor]) {
    for factor in factors.iter_mut() {
        match &mut factor.term.kind {
            TermKind::Symbol(occurrence) => letter_to_size(occurrence, false),
            TermKind::Product(run) => plain_letters_to_sizes(run),
            _ => {}
        }
    }
}

/// The factors of a row joined by `\times` (`2 \times d_{\mathrm{model}} \times r`) are counts
/// together: [`sizes_beside_sizes`] on them; so are those of a row of plain letters and numbers
/// only, side by side or joined by `\cdot` (`h \cdot d_v`, `n d_k`).
pub(super) fn sizes_times_sizes(factors: &mut [Factor]) {
    let crossed =
        factors.iter().skip(1).any(|f| matches!(&f.op, Some(InfixOp::Multiplicative(op)) if op == "\\times"));
    if !crossed && !plain_letters(factors) {
        return;
    }
    if crossed && letters_only_crossed(factors) {
        crossed_letters_are_sizes(factors);
    }
    let mut operands: Vec<&mut Term> = factors.iter_mut().map(|f| &mut f.term).collect();
    sizes_beside_sizes(&mut operands);
}

/// Whether every factor joined by `\times` is a number or a plain letter (labels allowed):
/// `H \times W \times C`, `3 \times 3`, `n \times d_k`.
fn letters_only_crossed(factors: &[Factor]) -> bool {
    let all_crossed =
        factors.iter().skip(1).all(|f| matches!(&f.op, Some(InfixOp::Multiplicative(op)) if op == "\\times"));
    let one_letter = |f: &Factor| {
        f.term.occurrence().is_none_or(|o| super::scripts::base_letter(o.base).unwrap_or_default().len() == 1)
    };
    all_crossed && plain_letters(factors) && factors.iter().all(one_letter)
}

/// `H \times W \times C`: Latin letters crossed with a size are the sizes of a shape, when only
/// their spelling gave them another kind (W a matrix, L a loss). One of them must be a size,
/// by its use or by the letters papers use for sizes.
fn crossed_letters_are_sizes(factors: &mut [Factor]) {
    let size = |f: &Factor| super::kind_of_term(&f.term) == super::SymbolKind::Dimension;
    if !factors.iter().any(size) {
        return;
    }
    for factor in factors.iter_mut() {
        let TermKind::Symbol(occurrence) = &mut factor.term.kind else { continue };
        if occurrence.evidence == super::Evidence::Convention
            && occurrence.kind != super::SymbolKind::Dimension
        {
            occurrence.kind = super::SymbolKind::Dimension;
            occurrence.evidence = super::Evidence::Use;
        }
    }
}
/// `\lfloor \frac{n + 2p - k}{s} \rfloor`, `\lceil n / s \rceil`: what is rounded to a whole
/// number beside a size is worked out from sizes, so the plain Latin letters added or divided
/// there that only a convention called numbers (or, for a capital, a matrix) are sizes too;
/// a factor beside another letter (`\lceil n \cdot p \rceil`) may be a rate and is left alone.
pub(super) fn sizes_inside_rounding(body: &mut Term) {
    let occurrences = body.occurrences();
    if !occurrences.iter().any(|(_, o)| o.kind == super::SymbolKind::Dimension) {
        return;
    }
    letters_to_sizes(body);
}

/// [`sizes_inside_rounding`]'s change, on every occurrence under `term`.
fn letters_to_sizes(term: &mut Term) {
    match &mut term.kind {
        TermKind::Symbol(occurrence) => letter_to_size(occurrence, true),
        // `2p`, `n / s`: numbers times a letter, and quotients, are sizes; `n \cdot p` may be a
        // size times a rate (a share of n), so a product of letters is left alone.
        TermKind::Product(factors) => {
            let divided = factors
                .iter()
                .skip(1)
                .all(|f| matches!(&f.op, Some(InfixOp::Multiplicative(op)) if op == "/"));
            let letters = factors.iter().filter(|f| !matches!(f.term.kind, TermKind::Number)).count();
            if divided || letters <= 1 {
                factors.iter_mut().for_each(|f| letters_to_sizes(&mut f.term));
            }
        }
        TermKind::Chain { .. } | TermKind::Frac { .. } | TermKind::Sign { .. } | TermKind::Fenced { .. } => {
            term.for_each_child_mut(letters_to_sizes);
        }
        _ => {}
    }
}

/// `C \sum_{i=1}^{\ell} \xi_i`, `C \sum_{j \neq i} (\mathbf{x}_i - \mathbf{x}_j)`: a capital standing
/// alone before a sum weighs it, a constant, not the size its letter's spelling suggests.
pub(super) fn weight_before_a_sum(factors: &mut [Factor]) {
    for i in 1..factors.len() {
        let (before, after) = factors.split_at_mut(i);
        let (Some(weight), Some(sum)) = (before.last_mut(), after.first()) else { continue };
        let summed = matches!(&sum.term.kind, TermKind::BigOp(big) if big.name == "sum");
        if !summed || sum.op != Some(&InfixOp::Juxt) {
            continue;
        }
        let TermKind::Symbol(occurrence) = &mut weight.term.kind else { continue };
        let capital = occurrence.base_name.len() == 1
            && occurrence.base_name.starts_with(|c: char| c.is_ascii_uppercase());
        if capital
            && occurrence.scripts.is_empty()
            && occurrence.kind == super::SymbolKind::Dimension
            && occurrence.evidence == super::Evidence::Convention
        {
            occurrence.kind = super::SymbolKind::Scalar;
            occurrence.evidence = super::Evidence::Use;
        }
    }
}

/// `\frac{A}{N^\alpha}`, `D^{-\beta}`, `C^{\alpha_C}`: a capital raised to a power named by a Greek
/// letter is a number (no paper raises a matrix to a real power): a size when papers use its
/// letter for one, a number otherwise, when only a convention gave it another kind.
pub(super) fn raised_to_a_real_power(
    base: &mut Term,
    exponent: &Term,
    dimension_letters: &super::notation::Names,
) {
    if !is_greek_exponent(exponent, 0) {
        return;
    }
    let TermKind::Symbol(occurrence) = &mut base.kind else { return };
    let letter = occurrence.base_name.as_str();
    let capital = letter.len() == 1 && letter.starts_with(|c: char| c.is_ascii_uppercase());
    let arrayish = matches!(
        occurrence.kind,
        super::SymbolKind::Matrix | super::SymbolKind::Vector | super::SymbolKind::RandomVariable
    );
    if !capital
        || !arrayish
        || occurrence.evidence != super::Evidence::Convention
        || super::roles::font_of(occurrence.base) != Font::Normal
    {
        return;
    }
    occurrence.kind = if super::notation::has(dimension_letters, letter) {
        super::SymbolKind::Dimension
    } else {
        super::SymbolKind::Scalar
    };
    occurrence.evidence = super::Evidence::Use;
}

/// An exponent that is a Greek letter (`\alpha`, `\alpha_N`), signed or divided by another.
fn is_greek_exponent(term: &Term, depth: usize) -> bool {
    if depth > 4 {
        return false;
    }
    match &term.kind {
        TermKind::Symbol(o) => {
            crate::syntax::names::is_greek(&o.base_name)
                && o.scripts.iter().all(|s| s.role == ScriptRole::Label)
        }
        TermKind::Sign { operand, .. } => is_greek_exponent(operand, depth + 1),
        TermKind::Frac { num, den } => is_greek_exponent(num, depth + 1) && is_greek_exponent(den, depth + 1),
        TermKind::Fenced { body, .. } => is_greek_exponent(body, depth + 1),
        _ => false,
    }
}

/// `c \leftarrow m c + (1 - m) \bar{g}`, `g_t \mathbf{w}_t^c + (1 - g_t) \mathbf{w}_{t-1}`: a letter
/// whose complement to one weighs a factor is a number between 0 and 1 (the weight of a
/// convex combination), not the size or the vector its spelling suggests; an element-wise
/// product (`(1 - \mathbf{z}) \odot \mathbf{h}`) weighs entry by entry and is left alone.
pub(super) fn complement_weights(factors: &mut [Factor]) {
    let elementwise = factors.iter().any(|f| {
        matches!(f.op, Some(InfixOp::Multiplicative(op)) if matches!(op.as_str(), "\\odot" | "\\circ" | "*" | "\\otimes"))
    });
    if elementwise || factors.len() < 2 {
        return;
    }
    for factor in factors.iter_mut() {
        // `\theta^9 (1 - \theta)^4`: the complement raised to a power weighs too.
        let term = match &mut factor.term.kind {
            TermKind::Scripted { base, sup: Some(sup), sub: None, .. }
                if sup.role == super::tree::ScriptRole::Power =>
            {
                base.as_mut()
            }
            _ => &mut factor.term,
        };
        let TermKind::Fenced { open: Delim::Paren, body } = &mut term.kind else { continue };
        let TermKind::Chain { first, rest } = &mut body.kind else { continue };
        let [joint] = rest.as_mut_slice() else { continue };
        let one =
            matches!(&first.node.kind, crate::syntax::ast::NodeKind::Number { text, .. } if text == "1");
        if !one || !matches!(joint.op, InfixOp::Additive(op) if op == "-") {
            continue;
        }
        let TermKind::Symbol(occurrence) = &mut joint.term.kind else { continue };
        let loose = matches!(occurrence.kind, super::SymbolKind::Dimension | super::SymbolKind::Vector);
        if loose
            && occurrence.evidence == super::Evidence::Convention
            && super::roles::font_of(occurrence.base) == Font::Normal
        {
            occurrence.kind = super::SymbolKind::Scalar;
            occurrence.evidence = super::Evidence::Use;
        }
    }
}

/// `\begin{bmatrix} a & b \\ c & d \end{bmatrix}`, `\begin{bmatrix} d & -b \\ -c & a \end{bmatrix}`: a
/// lone small letter (or its negation) written as a cell of a matrix is an entry, a number, where
/// only its spelling called it a size or a position.
pub(super) fn entry_is_a_number(cell: &mut Term) {
    let term = match &mut cell.kind {
        TermKind::Sign { operand, .. } => operand.as_mut(),
        _ => cell,
    };
    let TermKind::Symbol(occurrence) = &mut term.kind else { return };
    let spelled = matches!(occurrence.kind, super::SymbolKind::Dimension | super::SymbolKind::Index)
        && occurrence.evidence == super::Evidence::Convention
        && occurrence.scripts.is_empty();
    // A capital cell is a block (`\begin{bmatrix} A & B \\ B^T & C \end{bmatrix}`).
    let small = occurrence.base_name.starts_with(|c: char| !c.is_ascii_uppercase());
    if spelled && small {
        occurrence.kind = super::SymbolKind::Scalar;
        occurrence.evidence = super::Evidence::Use;
    }
}
