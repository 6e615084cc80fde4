//! Agreement of kinds: where one operand's kind settles its neighbours'. Terms added together
//! or set equal are of one kind (`W x_t + b`: b is a vector); what a matrix multiplies on its
//! right is a vector; what an element-wise product, an inner product or a norm takes are arrays;
//! a Gaussian's mean beside a covariance matrix is a vector; counts added to sizes are sizes.
//! Each pass changes only kinds that a convention alone gave, never a declared or used one.

use super::tree::{Factor, ScriptRole, Term, TermKind};
use crate::syntax::ast::{Delim, Font, InfixOp, NodeKind};

/// When one of several operands that must agree in kind (summands, sides of an equation) is a
/// vector, a plain symbol among them that only a convention called a scalar is a vector too; when
/// one is a matrix worked out from others (`QK^\top / \sqrt{d_k} + M`), a capital that only a
/// convention called a size or a scalar is a matrix too (the mask M).
pub(super) fn same_kind_as_vectors(operands: &mut [&mut Term]) {
    let strong = |wanted: super::SymbolKind, t: &Term| {
        super::kind_of_term(t) == wanted
            && t.occurrence().is_none_or(|o| o.evidence < super::Evidence::Convention)
    };
    let strong_vector = operands.iter().any(|t| strong(super::SymbolKind::Vector, t));
    let strong_matrix =
        operands.iter().any(|t| strong(super::SymbolKind::Matrix, t) && t.occurrence().is_none());
    if !strong_vector && !strong_matrix {
        return;
    }
    for term in operands.iter_mut() {
        // `W (r \odot h_t) + \tanh(x_t) + b_h`: what a function that keeps shapes takes, added
        // to vectors, is a vector too.
        let term = match &mut term.kind {
            TermKind::Apply(app) if strong_vector && keeps_shape(&app.callee) => {
                match app.args.as_mut_slice() {
                    [argument] => argument,
                    _ => continue,
                }
            }
            TermKind::Product(factors) if strong_vector || strong_matrix => {
                // `a X_k` added to a matrix: the letter scales it, though a row vector could not
                // be added.
                let scales = strong_matrix && coefficient_of_a_matrix(factors);
                if strong_vector && !scales {
                    capital_maps_a_letter(factors);
                    scaled_letter(factors);
                }
                continue;
            }
            TermKind::Frac { num, .. } if strong_vector => {
                standardised_vector(num);
                continue;
            }
            _ => &mut **term,
        };
        let TermKind::Symbol(occurrence) = &mut term.kind else { continue };
        if occurrence.evidence != super::Evidence::Convention {
            continue;
        }
        // `\Delta x_t`: an increment of a Latin letter is named by that letter.
        let increment = occurrence.base_name.strip_prefix("Delta").is_some_and(|l| l.len() == 1);
        let latin = occurrence.base_name.len() == 1 || occurrence.base_name.contains('_') || increment;
        let capital = occurrence.base_name.len() == 1
            && occurrence.base_name.starts_with(|c: char| c.is_ascii_uppercase());
        let small = matches!(occurrence.kind, super::SymbolKind::Scalar | super::SymbolKind::Dimension);
        // `Y_1 = X_1 + \mathrm{Attention}(X_2)`: a numbered capital added to an array of tokens is one
        // too, not the random variable its letter conventionally is.
        let random = occurrence.kind == super::SymbolKind::RandomVariable;
        if strong_matrix && capital && ((small && !occurrence.indexed) || random) {
            occurrence.kind = super::SymbolKind::Matrix;
            occurrence.evidence = super::Evidence::Use;
        } else if strong_vector
            && latin
            && occurrence.kind == super::SymbolKind::Scalar
            // `h_{ncij}`: picked by three positions or more, an entry of a tensor, a number (two
            // may pick a vector: `a_{ij}^V`, a relative position's embedding).
            && super::steps::positions(occurrence) < 3
        {
            occurrence.kind = super::SymbolKind::Vector;
            occurrence.evidence = super::Evidence::Use;
        }
    }
}

/// `X_{k+1} = a X_k + b (X_k X_k^\top) X_k`: added to a matrix worked out from others, a small
/// Latin letter before a matrix scales it (a row vector times a matrix is no matrix); whether
/// it made the letter a number.
fn coefficient_of_a_matrix(factors: &mut [Factor]) -> bool {
    let [scale, matrix] = factors else { return false };
    if matrix.op != Some(&InfixOp::Juxt) || super::kind_of_term(&matrix.term) != super::SymbolKind::Matrix {
        return false;
    }
    let TermKind::Symbol(small) = &mut scale.term.kind else { return false };
    let latin = super::scripts::is_single_latin(small.base, false);
    let row = small.kind == super::SymbolKind::Vector && small.evidence == super::Evidence::Use;
    if latin && row && small.scripts.is_empty() {
        small.kind = super::SymbolKind::Scalar;
        return true;
    }
    false
}

/// `P = Q` where P is a distribution (it draws `x \sim P`, or is applied as one): the letters an
/// equation sets equal to a distribution are distributions too, where only a convention named
/// them (a capital's matrix).
pub(super) fn distributions_alike(operands: &mut [&mut Term]) {
    let settled = |t: &Term| {
        t.occurrence().is_some_and(|o| {
            o.kind == super::SymbolKind::Distribution && o.evidence < super::Evidence::Convention
        })
    };
    if operands.len() < 2 || !operands.iter().any(|t| settled(t)) {
        return;
    }
    for term in operands.iter_mut() {
        let TermKind::Symbol(o) = &mut term.kind else { continue };
        if o.evidence == super::Evidence::Convention && o.scripts.is_empty() {
            o.kind = super::SymbolKind::Distribution;
            o.evidence = super::Evidence::Use;
        }
    }
}

/// `y = \frac{x - \mu}{\sigma}` beside vectors: what a statistic is taken from, standardised, is
/// the vector (the mean and the spread taken from it stay numbers).
fn standardised_vector(num: &mut Term) {
    let TermKind::Chain { first, rest } = &mut num.kind else { return };
    if matches!(rest.first(), Some(j) if matches!(j.op, InfixOp::Additive(op) if op == "-")) {
        small_letter_is_vector(first, &[super::SymbolKind::Scalar]);
    }
}

/// `A z_{t-1} + B x_t`: beside vectors, a capital side by side with a small letter, both only
/// named by conventions, is a matrix that maps a vector.
fn capital_maps_a_letter(factors: &mut [Factor]) {
    let [map, vector] = factors else { return };
    if vector.op != Some(&InfixOp::Juxt) {
        return;
    }
    let (TermKind::Symbol(capital), TermKind::Symbol(small)) = (&mut map.term.kind, &mut vector.term.kind)
    else {
        return;
    };
    let conventional = |o: &super::Occurrence| o.evidence == super::Evidence::Convention;
    let is_capital =
        capital.base_name.len() == 1 && capital.base_name.starts_with(|c: char| c.is_ascii_uppercase());
    let is_small =
        small.base_name.len() == 1 && small.base_name.starts_with(|c: char| c.is_ascii_lowercase());
    if !(conventional(capital) && conventional(small) && is_capital && is_small && !capital.indexed) {
        return;
    }
    if small.kind != super::SymbolKind::Scalar && small.kind != super::SymbolKind::Vector {
        return;
    }
    capital.kind = super::SymbolKind::Matrix;
    capital.evidence = super::Evidence::Use;
    small.kind = super::SymbolKind::Vector;
    small.evidence = super::Evidence::Use;
}

/// `x_k + \alpha_k p_k`, `h + \frac{1}{2} v`: beside vectors, a small Latin letter a number
/// scales (a Greek letter, a number or a fraction, side by side), only a convention calling it a
/// number, is the vector (a direction, a step).
fn scaled_letter(factors: &mut [Factor]) {
    let [scale, letter] = factors else { return };
    if letter.op != Some(&InfixOp::Juxt) {
        return;
    }
    let number = match &scale.term.kind {
        TermKind::Number | TermKind::Frac { .. } => true,
        _ => scale.term.occurrence().is_some_and(|o| {
            o.kind == super::SymbolKind::Scalar
                && super::scripts::base_letter(o.base).is_some_and(crate::syntax::names::is_greek)
        }),
    };
    let TermKind::Symbol(small) = &mut letter.term.kind else { return };
    let latin = super::scripts::is_single_latin(small.base, false);
    if number
        && latin
        && small.kind == super::SymbolKind::Scalar
        && small.evidence == super::Evidence::Convention
    {
        small.kind = super::SymbolKind::Vector;
        small.evidence = super::Evidence::Use;
    }
}

/// Whether a callee is a function that keeps the shape of its argument (`\tanh`, `\sigma`).
fn keeps_shape(callee: &Term) -> bool {
    callee.occurrence().is_some_and(|o| {
        o.kind == super::SymbolKind::Function && super::symbols::is_elementwise(&o.base_name)
    })
}

/// `Q(s, a) - V_t^{\mathrm{targ}}`, `L_t = (V_\theta(s_t) - V_t)^2`: beside a term that is a
/// number by what it computes (`valued`, the value of a value function at a state, a
/// probability), a capital or an indexed letter that only a convention called a matrix or a
/// vector is a number too, unless it is set in bold.
pub(super) fn numbers_beside_values(operands: &mut [&mut Term], valued: impl Fn(&Term) -> bool) {
    let candidate = |t: &Term| {
        t.occurrence().is_some_and(|o| {
            o.evidence == super::Evidence::Convention
                && matches!(o.kind, super::SymbolKind::Vector | super::SymbolKind::Matrix)
        })
    };
    // Most chains hold no such symbol: then nothing is worked out.
    if !operands.iter().any(|t| candidate(t)) {
        return;
    }
    let valued: Vec<bool> = operands.iter().map(|t| valued(t)).collect();
    if !valued.iter().any(|v| *v) {
        return;
    }
    let arrays = |t: &Term| {
        t.occurrence().is_none_or(|o| o.evidence < super::Evidence::Convention)
            && matches!(super::kind_of_term(t), super::SymbolKind::Vector | super::SymbolKind::Matrix)
    };
    if operands.iter().any(|t| arrays(t)) {
        return;
    }
    for (term, _) in operands.iter_mut().zip(&valued).filter(|(_, v)| !**v) {
        let TermKind::Symbol(occurrence) = &mut term.kind else { continue };
        let array = matches!(occurrence.kind, super::SymbolKind::Vector | super::SymbolKind::Matrix);
        if occurrence.evidence == super::Evidence::Convention
            && array
            && super::roles::font_of(occurrence.base) == Font::Normal
        {
            occurrence.kind = super::SymbolKind::Scalar;
            occurrence.evidence = super::Evidence::Use;
        }
    }
}

/// The plain symbols of an inner product's or a norm's content (`a, b` of `\langle a, b \rangle`,
/// the terms of `\|x - y\|`) that only a convention called scalars are vectors.
pub(super) fn vectors_inside(body: &mut Term) {
    let promote_symbol = |term: &mut Term| {
        if let TermKind::Symbol(occurrence) = &mut term.kind {
            if occurrence.kind == super::SymbolKind::Scalar
                && occurrence.evidence == super::Evidence::Convention
            {
                occurrence.kind = super::SymbolKind::Vector;
                occurrence.evidence = super::Evidence::Use;
            }
        }
    };
    let promote = |term: &mut Term| {
        promote_symbol(term);
        arguments_of_a_vector(term);
    };
    match &mut body.kind {
        // `\|x - y\|`: the terms of a difference whose norm is taken are arrays too.
        TermKind::Chain { first, rest }
            if rest.iter().all(|j| matches!(j.op, InfixOp::Separator(_) | InfixOp::Additive(_))) =>
        {
            promote(first);
            rest.iter_mut().for_each(|j| promote(&mut j.term));
        }
        _ => promote(body),
    }
}

/// `\|f(x_i^a) - f(x_i^p)\|`, `\phi(x)^\top \phi(y)`: a function whose value is a vector (its
/// norm taken, transposed) maps vectors, as networks and feature maps do: a plain lower-case
/// Latin argument that only a convention called a scalar is a vector.
pub(super) fn arguments_of_a_vector(term: &mut Term) {
    if let TermKind::Apply(app) = &mut term.kind {
        arguments_of_a_vector_call(app);
    }
}

/// See [`arguments_of_a_vector`]: the call itself.
pub(super) fn arguments_of_a_vector_call(app: &mut super::tree::Application) {
    let function = app.callee.occurrence().is_some_and(|o| o.kind == super::SymbolKind::Function);
    if function {
        for arg in &mut app.args {
            small_letter_is_vector(arg, &[super::SymbolKind::Scalar]);
        }
    }
}

/// `\mathcal{L}_{\theta, \xi}`: a Greek letter listed beside a network's parameters (a letter of
/// `parameters`, such as θ) in a label is another network's parameters, of the same kind, where
/// only a convention called it a number. (After `;` in a call, `Q(s, a; \theta, \alpha, \beta)`,
/// the letters beside θ were as often numbers, `\sigma`: measured, not kept.)
pub(super) fn parameters_beside_parameters(items: &mut [&mut Term], parameters: &super::notation::Names) {
    let kind_of_parameters = items.iter().find_map(|t| {
        t.occurrence().filter(|o| super::notation::has(parameters, &o.base_name)).map(|o| o.kind)
    });
    let Some(kind) = kind_of_parameters.filter(|k| *k == super::SymbolKind::Vector) else { return };
    for item in items.iter_mut() {
        let TermKind::Symbol(occurrence) = &mut item.kind else { continue };
        let greek = crate::syntax::names::is_greek(&occurrence.base_name)
            && occurrence.base_name.starts_with(|c: char| c.is_ascii_lowercase());
        if greek
            && matches!(occurrence.base.kind, NodeKind::Symbol { font: Font::Normal, .. })
            && occurrence.kind == super::SymbolKind::Scalar
            && occurrence.evidence == super::Evidence::Convention
        {
            occurrence.kind = kind;
            occurrence.evidence = super::Evidence::Use;
        }
    }
}

/// [`parameters_beside_parameters`] for a list written as one term (`\theta, \xi`).
pub(super) fn parameters_in_a_list(list: &mut Term, parameters: &super::notation::Names) {
    let TermKind::Chain { first, rest } = &mut list.kind else { return };
    if rest.iter().all(|j| matches!(j.op, InfixOp::Separator(_))) {
        let mut items: Vec<&mut Term> =
            std::iter::once(first.as_mut()).chain(rest.iter_mut().map(|j| &mut j.term)).collect();
        parameters_beside_parameters(&mut items, parameters);
    }
}

/// `W x`, `W_a s_{i-1}`, `\mathbf{w}^\top x`: what a matrix (or a transposed vector) multiplies
/// on its right is a vector, whatever its letter suggests.
pub(super) fn vectors_after_matrices(factors: &mut [Factor]) {
    let count = factors.len();
    for i in 1..count {
        let (before, after) = factors.split_at_mut(i);
        // `U g_\theta U^\top x`: between two matrices stands a matrix (a filter), not a vector.
        let sandwiched = after.get(1).is_some_and(|next| {
            matches!(next.op, Some(InfixOp::Juxt))
                && super::kind_of_term(&next.term) == super::SymbolKind::Matrix
        });
        let before_vector = sandwiched_by_vector(after);
        // `x_i W^Q (x_j W^K)^\top`: a matrix followed by a transposed factor ends a row vector too.
        let transposed_next = after.get(1).is_some_and(|f| super::symbols::is_transposed(&f.term));
        let (Some(previous), Some(factor)) = (before.last(), after.first_mut()) else { continue };
        let side_by_side = matches!(factor.op, Some(InfixOp::Juxt));
        let left = super::kind_of_term(&previous.term);
        let transposed = match &previous.term.kind {
            TermKind::Scripted { sup: Some(s), .. } => s.role == ScriptRole::Transpose,
            // `\phi(x)^\top \phi(y)`: a transposed call is a row vector too.
            TermKind::Apply(app) => app.sup.as_ref().is_some_and(|s| s.role == ScriptRole::Transpose),
            _ => false,
        };
        // `s \Sigma g`: a letter before a matrix that itself multiplies something is a number.
        let matrix_ends = i + 1 == count || transposed_next;
        let dotted = matches!(&factor.op, Some(InfixOp::Multiplicative(op)) if op == "\\cdot");
        if (side_by_side || dotted) && super::kind_of_term(&factor.term) == super::SymbolKind::Matrix {
            // `x W_1`, `x \cdot W_g`: a lower-case Latin letter multiplying a matrix from the left
            // is a row vector (a Greek letter there scales it: `\beta_t I`, `\lambda I`).
            if let Some(TermKind::Symbol(occurrence)) =
                before.last_mut().filter(|_| matrix_ends).map(|f| &mut f.term.kind)
            {
                let coefficients = &super::notation::Notation::shipped().coefficient_letters;
                if occurrence.base_name.len() == 1
                    && !super::notation::has(coefficients, &occurrence.base_name)
                {
                    small_letter_becomes(occurrence, &[super::SymbolKind::Scalar], super::SymbolKind::Vector);
                }
            }
            continue;
        }
        if !side_by_side || !(left == super::SymbolKind::Matrix || transposed) {
            continue;
        }
        // `q^T k`: after a transposed vector even a letter papers use for a size is the other
        // vector of the inner product.
        let after_row = transposed && left == super::SymbolKind::Vector;
        // `y^\top A_t y`: between a transposed vector and a vector a capital is the matrix of a
        // quadratic form, whatever its spelling made it.
        if after_row && before_vector {
            if let TermKind::Symbol(occurrence) = &mut factor.term.kind {
                let capital = occurrence.base_name.starts_with(|c: char| c.is_ascii_uppercase());
                if capital && occurrence.evidence >= super::Evidence::Convention {
                    occurrence.kind = super::SymbolKind::Matrix;
                    occurrence.evidence = super::Evidence::Use;
                }
            }
            continue;
        }
        // `W_f [h_{t-1}, x_t]`: a matrix times a bracketed list multiplies the vectors joined.
        if left == super::SymbolKind::Matrix {
            bracketed_vectors(&mut factor.term);
        }
        arguments_of_a_vector(&mut factor.term);
        if let TermKind::Symbol(occurrence) = &mut factor.term.kind {
            // `W_2 d_i`: what a matrix multiplies is a vector, though its spelling names a size.
            let size = (after_row || left == super::SymbolKind::Matrix)
                && occurrence.kind == super::SymbolKind::Dimension
                && !occurrence.indexed;
            // `A H_k B`: an indexed capital between two matrices is a member of a family of
            // matrices (BFGS's `H_k`), not the column its index would pick.
            let column_between = sandwiched
                && left == super::SymbolKind::Matrix
                && occurrence.kind == super::SymbolKind::Vector
                && occurrence.base_name.starts_with(|c: char| c.is_ascii_uppercase());
            if (occurrence.kind == super::SymbolKind::Scalar || size || column_between)
                && occurrence.evidence == super::Evidence::Convention
            {
                // `X \Theta`: a capital a matrix multiplies is a matrix (of weights), not a vector.
                let capital = occurrence.base_name.starts_with(|c: char| c.is_ascii_uppercase());
                let matrix_side = left == super::SymbolKind::Matrix;
                occurrence.kind = if matrix_side && ((capital && !occurrence.indexed) || sandwiched) {
                    super::SymbolKind::Matrix
                } else {
                    super::SymbolKind::Vector
                };
                occurrence.evidence = super::Evidence::Use;
            }
        }
    }
}

/// Whether the factor after the first of `after` stands side by side and is a vector.
fn sandwiched_by_vector(after: &[Factor]) -> bool {
    after.get(1).is_some_and(|next| {
        matches!(next.op, Some(InfixOp::Juxt)) && super::kind_of_term(&next.term) == super::SymbolKind::Vector
    })
}

/// What a matrix multiplies in brackets is made of vectors: the items of a bracketed list
/// (`[h_{t-1}, x_t]`, `[x; y]`, which the list joins into one) and the terms of a bracketed sum
/// (`W(o + u)`) that only a convention called numbers. A list keeps any letter it joins; a sum
/// turns only small Latin letters.
fn bracketed_vectors(term: &mut Term) {
    let TermKind::Fenced { open, body } = &mut term.kind else { return };
    let TermKind::Chain { first, rest } = &mut body.kind else { return };
    let list = *open == Delim::Bracket && rest.iter().all(|j| matches!(j.op, InfixOp::Separator(_)));
    let sum = *open == Delim::Paren && rest.iter().all(|j| matches!(j.op, InfixOp::Additive(_)));
    if !list && !sum {
        return;
    }
    for item in std::iter::once(first.as_mut()).chain(rest.iter_mut().map(|j| &mut j.term)) {
        if sum {
            small_letter_is_vector(item, &[super::SymbolKind::Scalar]);
            continue;
        }
        if let TermKind::Symbol(occurrence) = &mut item.kind {
            if occurrence.kind == super::SymbolKind::Scalar
                && occurrence.evidence == super::Evidence::Convention
            {
                occurrence.kind = super::SymbolKind::Vector;
                occurrence.evidence = super::Evidence::Use;
            }
        }
    }
}

/// `W_a \mathbf{s}_{i-1}`, `U_z h_t`: a capital side by side before a vector multiplies it, so
/// it is a matrix, even where a convention read its subscript as an index picking a row (a
/// vector). The subscript then names a member of a family of matrices.
pub(super) fn matrices_before_vectors(factors: &mut [Factor]) {
    for i in 1..factors.len() {
        let (before, after) = factors.split_at_mut(i);
        let (Some(previous), Some(factor)) = (before.last_mut(), after.first()) else { continue };
        let vector = super::kind_of_term(&factor.term) == super::SymbolKind::Vector;
        if !vector || !matches!(factor.op, Some(InfixOp::Juxt)) {
            continue;
        }
        let TermKind::Symbol(occurrence) = &mut previous.term.kind else { continue };
        let letter = super::scripts::base_letter(occurrence.base).unwrap_or_default();
        let capital = letter.len() == 1 && letter.starts_with(|c: char| c.is_ascii_uppercase());
        // `\Phi \mathbf{w}`, `\Lambda \mathbf{v}`: a bare capital Greek letter, unapplied, before
        // a bold vector is a matrix (a design matrix, eigenvalues on a diagonal), not the number its
        // use as a function's name elsewhere (`x \Phi(x)`) suggests.
        let bold_next = factor.term.occurrence().is_some_and(|o| super::roles::font_of(o.base) == Font::Bold);
        let greek_capital = occurrence.base_name.starts_with(|c: char| c.is_ascii_uppercase())
            && crate::syntax::names::is_greek(&occurrence.base_name)
            && occurrence.scripts.is_empty()
            && bold_next
            && occurrence.kind == super::SymbolKind::Scalar;
        if (capital && occurrence.kind == super::SymbolKind::Vector || greek_capital)
            && occurrence.evidence == super::Evidence::Convention
        {
            occurrence.kind = super::SymbolKind::Matrix;
            occurrence.evidence = super::Evidence::Use;
            occurrence.indexed = false;
            for script in occurrence.scripts.iter_mut().filter(|s| s.role == ScriptRole::Index && !s.above) {
                script.role = ScriptRole::Family;
            }
        }
    }
}

/// `H^{-1} \nabla f(x)`, `A_t^{-1} \nabla_t`, `F_\theta^{-1} \nabla_\theta J`: an inverted capital
/// right before a gradient multiplies it, a matrix (a Hessian, a preconditioner, a Fisher
/// information), where only a convention called it a size, a number or a random variable (the
/// `A_t` of an action at step t).
pub(super) fn preconditioners_before_gradients(factors: &mut [Factor]) {
    for i in 1..factors.len() {
        let (before, after) = factors.split_at_mut(i);
        let (Some(previous), Some(factor)) = (before.last_mut(), after.first()) else { continue };
        if !is_gradient(&factor.term) || !matches!(factor.op, Some(InfixOp::Juxt)) {
            continue;
        }
        let TermKind::Scripted { base, sup: Some(sup), .. } = &mut previous.term.kind else { continue };
        if sup.role != ScriptRole::Inverse {
            continue;
        }
        let TermKind::Symbol(occurrence) = &mut base.kind else { continue };
        let capital = occurrence.base_name.starts_with(|c: char| c.is_ascii_uppercase());
        let loose = matches!(
            occurrence.kind,
            super::SymbolKind::Scalar
                | super::SymbolKind::Dimension
                | super::SymbolKind::RandomVariable
                | super::SymbolKind::Vector
                | super::SymbolKind::Function
        );
        if capital && loose && occurrence.evidence == super::Evidence::Convention {
            occurrence.kind = super::SymbolKind::Matrix;
            occurrence.evidence = super::Evidence::Use;
        }
    }
}

/// Whether a term is a gradient: `\nabla` applied (`\nabla f(x)`), or standing for one with a step
/// below it (`\nabla_t`, the gradient of online learning's t-th loss).
fn is_gradient(term: &Term) -> bool {
    match &term.kind {
        TermKind::Operator(op) => op.name == "nabla",
        TermKind::Scripted { base, .. } => is_gradient(base),
        _ => super::is_bare_gradient(term),
    }
}

/// `o \odot \tanh(c)`, `z \odot \epsilon`: what an element-wise product multiplies are arrays,
/// so a plain lower-case Latin letter beside it that only a convention called a scalar or a
/// size (the mask `m`) is a vector.
pub(super) fn arrays_around_hadamard(factors: &mut [Factor]) {
    let hadamard = |f: &Factor| matches!(f.op, Some(InfixOp::Multiplicative(op)) if op == "\\odot");
    let marked: Vec<bool> = (0..factors.len())
        .map(|i| factors.get(i).is_some_and(hadamard) || factors.get(i + 1).is_some_and(hadamard))
        .collect();
    for (factor, around) in factors.iter_mut().zip(marked) {
        if around {
            small_letter_is_vector(
                &mut factor.term,
                &[super::SymbolKind::Scalar, super::SymbolKind::Dimension],
            );
        }
    }
}

/// Makes a plain lower-case Latin letter a vector, by its use, when only a convention gave it
/// one of the kinds `from`.
pub(super) fn small_letter_is_vector(term: &mut Term, from: &[super::SymbolKind]) {
    if let TermKind::Symbol(occurrence) = &mut term.kind {
        small_letter_becomes(occurrence, from, super::SymbolKind::Vector);
    }
}

/// Makes a plain lower-case Latin letter of kind `to`, by its use, when only a convention gave
/// it one of the kinds `from`.
pub(super) fn small_letter_becomes(
    occurrence: &mut super::Occurrence,
    from: &[super::SymbolKind],
    to: super::SymbolKind,
) {
    // `\tilde{x}_i` too: an accent keeps the letter; a small Greek letter (`\xi_k`) counts.
    let small_latin = super::scripts::base_letter(occurrence.base).is_some_and(|l| {
        l.starts_with(|c: char| c.is_ascii_lowercase()) && (l.len() == 1 || crate::syntax::names::is_greek(l))
    }) && super::roles::font_of(occurrence.base) == Font::Normal;
    if small_latin && from.contains(&occurrence.kind) && occurrence.evidence == super::Evidence::Convention {
        occurrence.kind = to;
        occurrence.evidence = super::Evidence::Use;
    }
}

/// `\mathcal{N}(\mu, \Sigma)`, `\mathcal{N}_n(\mu, K)`: a mean beside a covariance matrix is a
/// vector, whatever its letter suggests (each symbol of a mean written as a sum, `\mu + s
/// \Sigma g`, that only a convention called a scalar or a size).
pub(super) fn mean_beside_a_covariance(parameters: &mut [Term]) {
    let [mean, .., covariance] = parameters else { return };
    if super::kind_of_term(covariance) != super::SymbolKind::Matrix {
        return;
    }
    let mut operands: Vec<&mut Term> = match &mut mean.kind {
        TermKind::Chain { first, rest } if rest.iter().all(|j| matches!(j.op, InfixOp::Additive(_))) => {
            std::iter::once(first.as_mut()).chain(rest.iter_mut().map(|j| &mut j.term)).collect()
        }
        _ => vec![mean],
    };
    for operand in operands.iter_mut() {
        let TermKind::Symbol(occurrence) = &mut operand.kind else { continue };
        let plain = matches!(occurrence.base.kind, NodeKind::Symbol { font: Font::Normal, .. });
        let small = matches!(occurrence.kind, super::SymbolKind::Scalar | super::SymbolKind::Dimension);
        if plain && small && occurrence.evidence == super::Evidence::Convention {
            occurrence.kind = super::SymbolKind::Vector;
            occurrence.evidence = super::Evidence::Use;
        }
    }
}

/// `\tilde{D}^{-\frac{1}{2}} \tilde{A} \tilde{D}^{-\frac{1}{2}} H^{(l)} W^{(l)}`, `W_0 + BA`, `A \circ B`:
/// a capital side by side with a matrix in a product (or in an element-wise one) is a matrix too, when only the spelling of a
/// size (`D`, `H`, `B`) called it one, or that of a number picked by an index (`E_i`, `F_i`).
/// A capital papers use for a number standing alone (a temperature `T`) keeps its kind.
pub(super) fn capitals_beside_matrices(factors: &mut [Factor]) {
    // `A \circ B`, `A \odot B`: an element-wise product takes arrays of one shape.
    let elementwise = |op: &str| matches!(op, "\\odot" | "\\circ" | "\\otimes");
    let juxtaposed = factors.iter().skip(1).all(|f| match f.op {
        Some(InfixOp::Juxt) => true,
        Some(InfixOp::Multiplicative(op)) => elementwise(op),
        _ => false,
    });
    let matrix = factors.iter().any(|f| super::kind_of_term(&f.term) == super::SymbolKind::Matrix);
    if factors.len() < 2 || !juxtaposed || !matrix {
        return;
    }
    for factor in factors.iter_mut() {
        let Some(occurrence) = factor.term.unscripted_occurrence_mut() else { continue };
        let letter = super::scripts::base_letter(occurrence.base).unwrap_or(occurrence.base_name.as_str());
        let capital = letter.len() == 1 && letter.starts_with(|c: char| c.is_ascii_uppercase());
        // `E_i K W_i^K`: a capital papers use for a number, picked from a family by an index,
        // projects like the matrices beside it.
        let member = occurrence.kind == super::SymbolKind::Scalar
            && matches!(occurrence.base.kind, NodeKind::Symbol { font: Font::Normal, .. })
            && matches!(occurrence.scripts.as_slice(), [s] if !s.above
                && s.role == ScriptRole::Index && s.term.occurrence().is_some());
        if capital
            && (occurrence.kind == super::SymbolKind::Dimension || member)
            && occurrence.evidence == super::Evidence::Convention
        {
            occurrence.kind = super::SymbolKind::Matrix;
            occurrence.evidence = super::Evidence::Use;
        }
    }
}

/// `\sum_{i=1}^{|V|}`, `\frac{1}{|D|}`: what bars count is a set (a vocabulary, a dataset), when
/// only a convention called its capital something else.
pub(super) fn counted_is_a_set(body: &mut Term) {
    let TermKind::Symbol(occurrence) = &mut body.kind else { return };
    let letter = super::scripts::base_letter(occurrence.base).unwrap_or_default();
    let capital = letter.len() == 1 && letter.starts_with(|c: char| c.is_ascii_uppercase());
    if capital
        && occurrence.evidence == super::Evidence::Convention
        && occurrence.kind != super::SymbolKind::Set
    {
        occurrence.kind = super::SymbolKind::Set;
        occurrence.evidence = super::Evidence::Use;
    }
}

/// `\cos \theta_j`, `\cos(\theta_{y_i} + m)`: what a trigonometric function takes is an angle, a
/// number, so a plain symbol it takes (or one of the terms added there) that only a convention
/// called a vector (a parameter letter) or a size is a number.
pub(super) fn angles(operand: &mut Term) {
    let mut operands: Vec<&mut Term> = match &mut operand.kind {
        TermKind::Chain { first, rest } if rest.iter().all(|j| matches!(j.op, InfixOp::Additive(_))) => {
            std::iter::once(first.as_mut()).chain(rest.iter_mut().map(|j| &mut j.term)).collect()
        }
        TermKind::Fenced { open: Delim::Paren, body } => return angles(body),
        _ => vec![operand],
    };
    // `\sin(\mathbf{W}_i \mathbf{x}_i + \mathbf{b}_i)` (SIREN): a sine taken of an array worked
    // out (a matrix times a vector) is taken entry by entry, and what is added is an array too.
    let array_worked_out = operands.iter().any(|t| {
        !matches!(t.kind, TermKind::Symbol(_))
            && matches!(super::kind_of_term(t), super::SymbolKind::Vector | super::SymbolKind::Matrix)
    });
    if array_worked_out {
        return;
    }
    for term in operands.iter_mut() {
        let TermKind::Symbol(occurrence) = &mut term.kind else { continue };
        let array_or_size =
            matches!(occurrence.kind, super::SymbolKind::Vector | super::SymbolKind::Dimension);
        // A bold letter is written an array: `\sin(\mathbf{x})` is taken entry by entry.
        let bold = super::scripts::font_of_name(occurrence.base) == crate::syntax::ast::Font::Bold;
        if array_or_size && !bold && occurrence.evidence == super::Evidence::Convention {
            occurrence.kind = super::SymbolKind::Scalar;
            occurrence.evidence = super::Evidence::Use;
        }
    }
}

/// `\frac{\partial C}{\partial z_i}`: what a partial derivative differentiates varies
/// continuously, so a letter only a convention called a size (the cost C) or a set (the error
/// `\mathcal{E}`) is a number.
pub(super) fn differentiated_is_no_size(operand: &mut Term) {
    let TermKind::Symbol(occurrence) = &mut operand.kind else { return };
    let size_or_set = matches!(occurrence.kind, super::SymbolKind::Dimension | super::SymbolKind::Set);
    if size_or_set && occurrence.evidence == super::Evidence::Convention {
        occurrence.kind = super::SymbolKind::Scalar;
        occurrence.evidence = super::Evidence::Use;
    }
}

/// `\frac{q(y)}{r(y)}`, `\frac{\pi_\theta(a \mid s)}{g(a \mid s)}`: below a density applied, a
/// function applied to the same arguments is a density too (a likelihood ratio, an importance
/// weight), when only its use as a callee called it a function.
pub(super) fn ratio_of_densities(num: &Term, den: &mut Term) {
    let (TermKind::Apply(top), TermKind::Apply(bottom)) = (&num.kind, &mut den.kind) else { return };
    let density = top.callee.occurrence().is_some_and(|o| o.kind == super::SymbolKind::Distribution);
    let same =
        top.args.len() == bottom.args.len()
            && top.given.len() == bottom.given.len()
            && top.args.iter().chain(&top.given).zip(bottom.args.iter().chain(&bottom.given)).all(
                |(a, b)| crate::syntax::print::to_latex(a.node) == crate::syntax::print::to_latex(b.node),
            );
    let TermKind::Symbol(callee) = &mut bottom.callee.kind else { return };
    if density
        && same
        && callee.kind == super::SymbolKind::Function
        && callee.evidence == super::Evidence::Use
    {
        callee.kind = super::SymbolKind::Distribution;
    }
}

/// `\nabla f_k`: what a gradient is taken of is a number (the objective at a step), so a plain
/// letter there that only a convention called a vector (an indexed `f`) is a number.
pub(super) fn differentiated_is_a_number(operand: &mut Term) {
    plain_vector_is_a_number(operand);
}

/// Makes a plain letter in the normal font a number, by its use, when only a convention called
/// it a vector.
pub(super) fn plain_vector_is_a_number(term: &mut Term) {
    let TermKind::Symbol(occurrence) = &mut term.kind else { return };
    if matches!(occurrence.base.kind, NodeKind::Symbol { font: Font::Normal, .. }) {
        conventional_vector_is_a_number(occurrence);
    }
}

/// `\exp(z_i / T)`, `\mathrm{softmax}(z / T)`: a capital that divides what an exponential takes
/// is a temperature, a number, though papers count with its letter elsewhere (`\frac{1}{T}`).
pub(super) fn temperatures(operand: &mut Term) {
    let divisor = match &mut operand.kind {
        TermKind::Frac { den, .. } => Some(den.as_mut()),
        TermKind::Product(factors) => factors
            .iter_mut()
            .skip(1)
            .find(|f| matches!(&f.op, Some(InfixOp::Multiplicative(op)) if op == "/"))
            .map(|f| &mut f.term),
        TermKind::Fenced { open: Delim::Paren, body } => return temperatures(body),
        _ => None,
    };
    let Some(TermKind::Symbol(occurrence)) = divisor.map(|t| &mut t.kind) else { return };
    let capital =
        occurrence.base_name.len() == 1 && occurrence.base_name.starts_with(|c: char| c.is_ascii_uppercase());
    // Its place below the bar alone called it a count (no declaration, no sum's bound).
    if capital
        && occurrence.kind == super::SymbolKind::Dimension
        && occurrence.evidence >= super::Evidence::Use
    {
        occurrence.kind = super::SymbolKind::Scalar;
        occurrence.evidence = super::Evidence::Use;
    }
}

/// `\nabla f(x_k)`, `\nabla f(\Theta_{t-1})`: a gradient is taken at a point of several
/// coordinates (one coordinate would be written `f'(x)`), so a plain letter there that only a
/// convention called a number is a vector.
pub(super) fn gradient_at_a_point(operand: &mut Term) {
    let TermKind::Apply(application) = &mut operand.kind else { return };
    if let [argument] = application.args.as_mut_slice() {
        let TermKind::Symbol(occurrence) = &mut argument.kind else { return };
        if occurrence.kind == super::SymbolKind::Scalar && occurrence.evidence == super::Evidence::Convention
        {
            occurrence.kind = super::SymbolKind::Vector;
            occurrence.evidence = super::Evidence::Use;
        }
    }
}

/// `\alpha^\phi`: a Greek letter alone as an exponent is a number, though papers name
/// parameters (vectors) with its letter (`\phi`, `\theta`); so is a plain letter divided in an
/// exponent (`e^{v_i / T}`, a logit over a temperature), though an indexed small letter names a
/// vector elsewhere, and so are plain letters multiplied there (`x^{-c_i f_i}`, `(1 + x)^{1/f_i}`).
/// A bold letter there (`e^{\mathbf{x}}`) is raised element-wise and keeps its
/// kind, and so may a plain letter added there (`e^{m_i - m_i^{\mathrm{new}}}` rescales a vector
/// of maxima).
pub(super) fn number_exponent(term: &mut Term) {
    match &mut term.kind {
        TermKind::Symbol(o) => {
            let greek = matches!(&o.base.kind, NodeKind::Symbol { name, font: Font::Normal } if crate::syntax::names::is_greek(name));
            if greek {
                conventional_vector_is_a_number(o);
            }
        }
        TermKind::Frac { num, den } => {
            divided_is_a_number(num);
            if matches!(num.kind, TermKind::Number) {
                divided_is_a_number(den);
            }
        }
        // `(1 + x)^{1/f_i}`, `x^{-c_i \cdot f_i}`: plain letters multiplied or divided in an
        // exponent are numbers (an element-wise product would be written with `\odot`).
        TermKind::Product(factors)
            if factors.iter().all(|f| matches!(f.term.kind, TermKind::Symbol(_) | TermKind::Number)) =>
        {
            factors.iter_mut().for_each(|f| divided_is_a_number(&mut f.term));
        }
        TermKind::Product(factors)
            if factors.iter().any(|f| matches!(&f.op, Some(InfixOp::Multiplicative(op)) if op == "/")) =>
        {
            if let Some(first) = factors.first_mut() {
                divided_is_a_number(&mut first.term);
            }
        }
        TermKind::Sign { operand, .. } => number_exponent(operand),
        _ => {}
    }
}

/// The plain letter (possibly signed) divided in an exponent: a number.
fn divided_is_a_number(term: &mut Term) {
    match &mut term.kind {
        TermKind::Sign { operand, .. } => divided_is_a_number(operand),
        TermKind::Symbol(o) if matches!(&o.base.kind, NodeKind::Symbol { font: Font::Normal, .. }) => {
            conventional_vector_is_a_number(o)
        }
        _ => {}
    }
}

/// An occurrence that only a convention called a vector is a number, by its use.
fn conventional_vector_is_a_number(o: &mut super::Occurrence) {
    if o.kind == super::SymbolKind::Vector && o.evidence == super::Evidence::Convention {
        o.kind = super::SymbolKind::Scalar;
        o.evidence = super::Evidence::Use;
    }
}
