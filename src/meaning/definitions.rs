//! What an equation's right side says of the symbol it defines (`h = \mathbf{W}\mathbf{x} +
//! \mathbf{b}` an array, `u_j = v^\top \tanh(…)` an inner product, a number; `C = \max I(X; Y)`
//! a number; `G^* = \arg\min_G …` of its variable's kind; `x_t = … + \boldsymbol{\epsilon}` random;
//! `A_i = \{…\}` a set; `x_{k+1} = x_k + \alpha_k p_k` an iterate, a vector; a matrix equal to a
//! product of capitals, `W = D_3 R_2 \mathcal{F}^{-1} D_1`, a product of matrices): only a kind a
//! convention gave changes. And what the left side says of the
//! right: the parameters of a function being defined (`m(\mathbf{x}) = \mathbb{E}[f(\mathbf{x})]`)
//! are free on the right, so no expectation there averages over them.

use super::tree::{ScriptRole, Term, TermKind};
use crate::syntax::ast::Delim;

/// `G_t = \sum_\tau g_\tau g_\tau^\top`, `h = \mathbf{W}\mathbf{x} + \mathbf{b}`: a symbol an equation
/// defines as a worked-out vector or matrix is that array, when only a convention gave it
/// another array-like kind (a capital's "random variable", a bold letter's "vector"). The right
/// side must be computed (not one symbol) and an array by its shape. A convention's scalar is
/// left alone: a sum of products of scalars has an array's shape only when a factor is one.
pub(super) fn defined_as_array(lhs: &mut Term, rhs: &Term) {
    if rhs.occurrence().is_some() {
        return;
    }
    let kind = super::kind_of_term(rhs);
    if !matches!(kind, super::SymbolKind::Vector | super::SymbolKind::Matrix) {
        return;
    }
    let TermKind::Symbol(occurrence) = &mut lhs.kind else { return };
    let loose = matches!(occurrence.kind, super::SymbolKind::RandomVariable | super::SymbolKind::Vector);
    if loose && occurrence.evidence == super::Evidence::Convention && occurrence.kind != kind {
        occurrence.kind = kind;
        occurrence.evidence = super::Evidence::Use;
    }
}

/// `A_i = \{t, t+1, \ldots, i\}`, `S = \{j : (i - j) \bmod l = 0\}`, `\Theta = \{\theta_i, i \in
/// [1, \ldots, d/2]\}`: a symbol an equation defines as a set written in braces is a set, where
/// only a convention gave it its kind.
pub(super) fn defined_as_set(lhs: &mut Term, rhs: &Term) {
    if !matches!(rhs.kind, TermKind::Fenced { open: Delim::Brace, .. }) {
        return;
    }
    let TermKind::Symbol(occurrence) = &mut lhs.kind else { return };
    if occurrence.evidence == super::Evidence::Convention {
        occurrence.kind = super::SymbolKind::Set;
        occurrence.evidence = super::Evidence::Use;
    }
}

/// `\mathbf{v} = (r, 0)`, `p = (p_1, \ldots, p_K)`: a symbol an equation defines as a tuple (two
/// entries or more in parentheses) is a vector, where only a convention called it a number or
/// a size; so is a member of a set of tuples (`y \in \{(1, 0, 0), (0, 1, 0)\}`, one-hot labels).
/// (`\epsilon \in (0, 1)` is a number in an interval: a member, `member`, of parentheses is not
/// a tuple.)
pub(super) fn defined_as_tuple(lhs: &mut Term, rhs: &Term, member: bool) {
    let tuples = (rhs.is_tuple() && !member)
        || matches!(&rhs.kind, TermKind::Fenced { open: Delim::Brace, body } if items(body).all(|t| t.is_tuple()));
    if !tuples {
        return;
    }
    let TermKind::Symbol(occurrence) = &mut lhs.kind else { return };
    let loose = matches!(occurrence.kind, super::SymbolKind::Scalar | super::SymbolKind::Dimension);
    if loose && occurrence.evidence == super::Evidence::Convention {
        occurrence.kind = super::SymbolKind::Vector;
        occurrence.evidence = super::Evidence::Use;
    }
}

/// The items of a list (`a, b, c`), or the one term.
fn items<'a, 'n>(term: &'a Term<'n>) -> Box<dyn Iterator<Item = &'a Term<'n>> + 'a> {
    match &term.kind {
        TermKind::Chain { first, rest }
            if rest.iter().all(|j| matches!(j.op, crate::syntax::ast::InfixOp::Separator(_))) =>
        {
            Box::new(std::iter::once(first.as_ref()).chain(rest.iter().map(|j| &j.term)))
        }
        _ => Box::new(std::iter::once(term)),
    }
}

/// `W = D_3 R_2 \mathcal{F}^{-1} D_2 \Pi R_1 \mathcal{F} D_1`, `K = Q_1 R_1`: a matrix an equation
/// gives as a product of capitals side by side is factored into matrices, so each capital
/// factor that only a convention called something else (a size `D`, a reward `R`, a set
/// `\mathcal{F}`, a number `\Pi`) is a matrix.
pub(super) fn factored_matrix(lhs: &Term, rhs: &mut Term) {
    if super::kind_of_term(lhs) != super::SymbolKind::Matrix {
        return;
    }
    let TermKind::Product(factors) = &mut rhs.kind else { return };
    let capital = |t: &Term| {
        t.unscripted_occurrence().is_some_and(|o| {
            super::scripts::base_letter(o.base)
                .is_some_and(|l| l.starts_with(|c: char| c.is_ascii_uppercase()))
        })
    };
    let juxtaposed = factors.iter().skip(1).all(|f| f.op == Some(&crate::syntax::ast::InfixOp::Juxt));
    if factors.len() < 2 || !juxtaposed || !factors.iter().all(|f| capital(&f.term)) {
        return;
    }
    for factor in factors.iter_mut() {
        let Some(o) = factor.term.unscripted_occurrence_mut() else { continue };
        if o.evidence == super::Evidence::Convention && o.kind != super::SymbolKind::Function {
            o.kind = super::SymbolKind::Matrix;
            o.evidence = super::Evidence::Use;
        }
    }
}

/// `C = \max_{p(x)} I(X; Y)`, `d = \alpha^\phi`, `C = 1 - H(p)`: a letter only its spelling
/// called a size (the channels C, the depth d) that an equation defines as a number worked out
/// from no size nor position is that number.
pub(super) fn defined_as_number(lhs: &mut Term, rhs: &Term) {
    let TermKind::Symbol(occurrence) = &mut lhs.kind else { return };
    // `t = \mathbf{v} \cdot \mathbf{x}`: a letter papers count with is defined as a value too.
    let spelled = matches!(occurrence.kind, super::SymbolKind::Dimension | super::SymbolKind::Index)
        && occurrence.evidence == super::Evidence::Convention
        && occurrence.scripts.is_empty();
    if !spelled || rhs.occurrence().is_some() || super::kind_of_term(rhs) != super::SymbolKind::Scalar {
        return;
    }
    let mut symbols = 0;
    let mut counted = false;
    let mut stack = vec![rhs];
    while let Some(term) = stack.pop() {
        if let Some(o) = term.occurrence() {
            symbols += 1;
            counted |= matches!(o.kind, super::SymbolKind::Dimension | super::SymbolKind::Index);
            // `x_i` of `\max_i |x_i|`: the position an entry is read at is no size it is worked
            // out from.
            if o.indexed && o.kind == super::SymbolKind::Scalar {
                continue;
            }
        }
        match &term.kind {
            // `m = \max_{1 \le i \le n} |x_i|`: what a large operator runs over is no part of
            // its value.
            TermKind::BigOp(big) => stack.extend(big.body.as_ref()),
            _ => term.for_each_child(|child| stack.push(child)),
        }
    }
    if symbols > 0 && !counted {
        occurrence.kind = super::SymbolKind::Scalar;
        occurrence.evidence = super::Evidence::Use;
    }
}

/// `q_i = \frac{e^{v_i / T}}{\sum_j e^{v_j / T}}`, `\alpha_{ij} = \frac{\exp(e_{ij})}{\sum_k
/// \exp(e_{ik})}`: an indexed letter an equation defines as a quotient of numbers is a number
/// (one weight, one probability), when only a convention called it a vector.
pub(super) fn defined_as_quotient(lhs: &mut Term, rhs: &Term) {
    if lhs.occurrence().is_some_and(|o| o.indexed) && is_quotient_of_numbers(rhs) {
        super::agree::plain_vector_is_a_number(lhs);
    }
}

/// `\frac{1}{T}(q_i - p_i) = \frac{1}{T}(\frac{e^{z_i/T}}{\sum_j e^{z_j/T}} - …)`: the side of an
/// equation that another side gives as a quotient of numbers is a number, and the indexed
/// letters it adds up (possibly bracketed, scaled) are numbers, where only a convention called
/// them vectors. [`defined_as_quotient`] for a side worked out rather than one letter.
pub(super) fn sides_equal_to_quotients(sides: &mut [&mut Term]) {
    if sides.len() < 2 || !sides.iter().any(|t| t.occurrence().is_none() && is_quotient_of_numbers(t)) {
        return;
    }
    for side in sides.iter_mut() {
        if side.occurrence().is_none() && !is_quotient_of_numbers(side) {
            added_letters_are_numbers(side, 0);
        }
    }
}

/// The indexed letters a term adds up, through brackets and scaling, made numbers.
fn added_letters_are_numbers(term: &mut Term, depth: usize) {
    if depth > 8 {
        return;
    }
    match &mut term.kind {
        TermKind::Symbol(o) if o.indexed => super::agree::plain_vector_is_a_number(term),
        TermKind::Fenced { open: Delim::Paren, body } => added_letters_are_numbers(body, depth + 1),
        TermKind::Sign { operand, .. } => added_letters_are_numbers(operand, depth + 1),
        TermKind::Chain { first, rest }
            if rest.iter().all(|j| matches!(j.op, crate::syntax::ast::InfixOp::Additive(_))) =>
        {
            added_letters_are_numbers(first, depth + 1);
            rest.iter_mut().for_each(|j| added_letters_are_numbers(&mut j.term, depth + 1));
        }
        // `\frac{1}{T}(q_i - p_i)`: scaled by a number.
        TermKind::Product(factors) if factors.len() == 2 => {
            if let [scale, scaled] = factors.as_mut_slice() {
                if matches!(scale.term.kind, TermKind::Frac { .. } | TermKind::Number) {
                    added_letters_are_numbers(&mut scaled.term, depth + 1);
                }
            }
        }
        _ => {}
    }
}

/// Whether a term is a quotient of numbers, possibly bracketed, signed, raised to a power or
/// times other numbers (`(\frac{1}{N} \cdot \frac{1}{P(i)})^\beta`, an importance weight).
fn is_quotient_of_numbers(term: &Term) -> bool {
    let number = |t: &Term| is_number(t, 0);
    match &term.kind {
        TermKind::Frac { num, den } => number(num) && number(den),
        TermKind::Fenced { open: Delim::Paren, body } => is_quotient_of_numbers(body),
        TermKind::Sign { operand, .. } => is_quotient_of_numbers(operand),
        TermKind::Scripted { base, sub: None, sup: Some(s), .. } if s.role == ScriptRole::Power => {
            is_quotient_of_numbers(base)
        }
        TermKind::Product(factors) => {
            factors.iter().any(|f| matches!(f.term.kind, TermKind::Frac { .. }))
                && factors.iter().all(|f| number(&f.term))
        }
        _ => false,
    }
}

/// `u_j^i = v^\top \tanh(W_1 e_j + W_2 d_i)`, `e_{ij} = \frac{q_i^\top k_j}{\sqrt{d}}`: a symbol an
/// equation defines as an inner product (a transposed vector times a vector) is a number,
/// when only a convention called it a vector (`u`, `e` indexed).
pub(super) fn defined_as_inner_product(lhs: &mut Term, rhs: &Term) {
    if !is_inner_product(rhs) {
        return;
    }
    super::agree::plain_vector_is_a_number(lhs);
    // `k = \phi(u)^\top \phi(v)`: a kernel's value, though its letter names a size elsewhere.
    if let TermKind::Symbol(occurrence) = &mut lhs.kind {
        if occurrence.kind == super::SymbolKind::Dimension
            && occurrence.evidence == super::Evidence::Convention
        {
            occurrence.kind = super::SymbolKind::Scalar;
            occurrence.evidence = super::Evidence::Use;
        }
    }
}

/// Whether a term is an inner product by its shape, possibly scaled or signed: a product
/// that is a number and has a transposed vector among its factors.
fn is_inner_product(term: &Term) -> bool {
    match &term.kind {
        TermKind::Frac { num, .. } => is_inner_product(num),
        TermKind::Sign { operand, .. } => is_inner_product(operand),
        TermKind::Fenced { open: Delim::Paren, body } => is_inner_product(body),
        TermKind::Product(factors) => {
            let row = |t: &Term| match &t.kind {
                TermKind::Scripted { base, sup: Some(s), .. } => {
                    s.role == ScriptRole::Transpose && super::kind_of_term(base) == super::SymbolKind::Vector
                }
                // `\phi(x)^\top \phi(y)`: a transposed call of vectors.
                TermKind::Apply(app) => {
                    app.sup.as_ref().is_some_and(|s| s.role == ScriptRole::Transpose)
                        && app.args.iter().any(|a| super::kind_of_term(a) == super::SymbolKind::Vector)
                }
                _ => false,
            };
            factors.iter().any(|f| row(&f.term)) && super::kind_of_term(term) == super::SymbolKind::Scalar
        }
        _ => false,
    }
}

/// Whether a term is a number: of a number's or a count's kind, a density or a probability
/// applied (`p(k)`), or a product of such.
fn is_number(term: &Term, depth: usize) -> bool {
    match &term.kind {
        TermKind::Product(factors) if depth < 8 => factors.iter().all(|f| is_number(&f.term, depth + 1)),
        TermKind::Apply(app)
            if app.callee.occurrence().is_some_and(|o| o.kind == super::SymbolKind::Distribution) =>
        {
            true
        }
        _ => matches!(super::kind_of_term(term), super::SymbolKind::Scalar | super::SymbolKind::Dimension),
    }
}

/// `\beta^{\mathrm{new}} = \beta^{\mathrm{old}} + (\mathbf{X}^\top \mathbf{W} \mathbf{X})^{-1}
/// \mathbf{X}^\top (\mathbf{y} - \mathbf{p})`: a letter updated by a step that is a vector or a
/// matrix (written on both sides, the old value first on the right) is that array on both sides,
/// where only a convention called it a number (a Greek letter too: regression coefficients).
pub(super) fn defined_by_update(lhs: &mut Term, rhs: &mut Term) {
    let TermKind::Chain { first, rest } = &mut rhs.kind else { return };
    if !rest.iter().all(|j| matches!(j.op, crate::syntax::ast::InfixOp::Additive(_))) {
        return;
    }
    let step = rest
        .iter()
        .map(|j| super::kind_of_term(&j.term))
        .find(|k| matches!(k, super::SymbolKind::Vector | super::SymbolKind::Matrix));
    let (Some(old), Some(new)) = (first.occurrence(), lhs.occurrence()) else { return };
    let loose = |o: &super::Occurrence| {
        o.kind == super::SymbolKind::Scalar && o.evidence == super::Evidence::Convention
    };
    if old.base_name != new.base_name || !loose(old) || !loose(new) {
        return;
    }
    let Some(kind) = step.or_else(|| is_iteration(old, new, rest).then_some(super::SymbolKind::Vector))
    else {
        return;
    };
    let set = |term: &mut Term| {
        if let TermKind::Symbol(o) = &mut term.kind {
            o.kind = kind;
            o.evidence = super::Evidence::Use;
        }
    };
    set(lhs);
    set(first);
    // The step was read before the old value was known to be an array: agree with it now.
    let mut operands: Vec<&mut Term> =
        std::iter::once(first.as_mut()).chain(rest.iter_mut().map(|j| &mut j.term)).collect();
    super::agree::same_kind_as_vectors(&mut operands);
}

/// `x_{k+1} = x_k + \alpha_k p_k`, `x_{i+1} = x_i + \alpha_i F(x_i)`, `\kappa_t = \kappa_{t-1} +
/// \exp(\hat\kappa_t)`: one small letter at two steps, the next its last plus a step that is
/// not a number alone. Papers iterate this way over parameters and states, which are vectors
/// (an optimiser's iterate, a residual stream), so this is how [`defined_by_update`] reads it
/// when the step's kind says nothing. A capital (`Q_{n+1} = Q_n + …`, an estimate) is left alone,
/// and so is a letter the step takes as a random variable.
fn is_iteration(old: &super::Occurrence, new: &super::Occurrence, rest: &[super::tree::Joint]) -> bool {
    let item = |o: &super::Occurrence| super::steps::small(o) && super::steps::positions(o) == 1;
    let counted = rest.iter().all(|j| matches!(j.term.kind, TermKind::Number));
    // `x_{t+1} = x_t + \eta \nabla_x \log p(x_t) + …`: a state a density takes is a random
    // variable, the steps of a sampler, not an optimiser's iterate.
    let random = rest.iter().any(|j| {
        j.term
            .occurrences()
            .iter()
            .any(|(_, o)| o.name == old.name && o.kind == super::SymbolKind::RandomVariable)
    });
    item(old) && item(new) && old.name != new.name && !counted && !random
}

/// `G^* = \arg\min_G …`, `a_t = \arg\max_a Q(s_t, a)`, `\hat{h} = \arg\min_{h \in \mathcal{H}} …`:
/// a symbol defined as the point an extreme is taken at is of the kind of the variable it is
/// taken over, when only a convention gave the symbol its kind.
pub(super) fn defined_as_arg_extreme(lhs: &mut Term, rhs: &Term) {
    let TermKind::BigOp(big) = &rhs.kind else { return };
    if !matches!(big.name.as_str(), "argmin" | "argmax") {
        return;
    }
    let variable = match big.over.as_ref().or(big.var.as_ref()).map(|t| &t.kind) {
        Some(TermKind::Symbol(o)) => o,
        Some(TermKind::Chain { first, .. }) => match &first.kind {
            TermKind::Symbol(o) => o,
            _ => return,
        },
        _ => return,
    };
    if variable.evidence == super::Evidence::Convention || variable.kind == super::SymbolKind::Index {
        return;
    }
    let TermKind::Symbol(occurrence) = &mut lhs.kind else { return };
    if occurrence.evidence == super::Evidence::Convention && occurrence.kind != variable.kind {
        occurrence.kind = variable.kind;
        occurrence.evidence = super::Evidence::Use;
    }
}

/// `\mathbf{x}_t = \sqrt{\bar{\alpha}_t} \mathbf{x}_0 + \sqrt{1 - \bar{\alpha}_t} \boldsymbol{\epsilon}`
/// beside `\boldsymbol{\epsilon} \sim \mathcal{N}(\mathbf{0}, \mathbf{I})`, `z = \mu + \sigma \odot
/// \epsilon`: what is worked out by adding a random variable (one a declaration or a use made
/// random, or drawn noise in bold, `\boldsymbol{\epsilon}`) is random too, where only a convention
/// or the shape of the sum gave it an array's or a number's kind. So is such a sum divided by
/// a number (`Z = \frac{X - \mu_X}{\sigma_X}`, a standardised variable).
pub(super) fn defined_with_noise(lhs: &mut Term, rhs: &mut Term) {
    if let TermKind::Frac { num, .. } = &mut rhs.kind {
        return defined_with_noise(lhs, num);
    }
    let TermKind::Chain { first, rest } = &mut rhs.kind else { return };
    if !rest.iter().all(|j| matches!(j.op, crate::syntax::ast::InfixOp::Additive(_))) {
        return;
    }
    let random = |o: &super::Occurrence| {
        let drawn = super::roles::font_of(o.base) == crate::syntax::ast::Font::Bold;
        o.kind == super::SymbolKind::RandomVariable && (o.evidence <= super::Evidence::Use || drawn)
    };
    let noisy =
        std::iter::once(first.as_ref()).chain(rest.iter().map(|j| &j.term)).any(|term| match &term.kind {
            TermKind::Symbol(o) => random(o),
            TermKind::Product(factors) => factors.iter().any(|f| f.term.occurrence().is_some_and(random)),
            _ => false,
        });
    let TermKind::Symbol(occurrence) = &mut lhs.kind else { return };
    // A capital only a convention made a matrix is a random variable too (`Y = \frac{X - \mu_X}{\sigma_X}`).
    let conventional_matrix =
        occurrence.kind == super::SymbolKind::Matrix && occurrence.evidence == super::Evidence::Convention;
    let loose = matches!(occurrence.kind, super::SymbolKind::Vector | super::SymbolKind::Scalar)
        && occurrence.evidence >= super::Evidence::Use
        || conventional_matrix;
    if noisy && loose {
        occurrence.kind = super::SymbolKind::RandomVariable;
        occurrence.evidence = super::Evidence::Use;
    }
    if occurrence.kind == super::SymbolKind::RandomVariable && occurrence.evidence <= super::Evidence::Use {
        // `\mathbf{x}_{t-1} = … + \sigma_t \mathbf{z}`: in a random sum, what a standard deviation
        // scales is standard noise drawn afresh.
        std::iter::once(first.as_mut()).chain(rest.iter_mut().map(|j| &mut j.term)).for_each(scaled_noise);
    }
}

/// `\sigma_t \mathbf{z}`: the letter a standard deviation scales, as a random variable, where
/// only a convention named it.
fn scaled_noise(term: &mut Term) {
    let TermKind::Product(factors) = &mut term.kind else { return };
    let [spread, noise] = factors.as_mut_slice() else { return };
    let sigma = spread.term.occurrence().is_some_and(|o| o.base_name == "sigma");
    let TermKind::Symbol(o) = &mut noise.term.kind else { return };
    if sigma
        && o.evidence == super::Evidence::Convention
        && matches!(o.kind, super::SymbolKind::Vector | super::SymbolKind::Scalar)
    {
        o.kind = super::SymbolKind::RandomVariable;
        o.evidence = super::Evidence::Use;
    }
}

impl super::resolve::Resolver<'_> {
    /// `m(\mathbf{x}) = …`, `k(x, x') \triangleq …`: before the right side of a definition is read,
    /// the letters the function being defined takes become its parameters; how many were added.
    /// A density or a measure of information (`p(x) = …`, `H(X) = …`) takes random variables
    /// and adds none.
    pub(super) fn define_parameters(&self, head: &Term, op: Option<&crate::syntax::ast::InfixOp>) -> usize {
        let defines = matches!(op, Some(crate::syntax::ast::InfixOp::Relation(r))
            if ["=", ":=", "\\coloneqq", "\\triangleq", "\\doteq", "\\equiv"].contains(&r.as_str()));
        let TermKind::Apply(application) = &head.kind else { return 0 };
        let function = application.callee.occurrence().is_some_and(|o| {
            o.kind == super::SymbolKind::Function
                && !super::notation::has(&self.notation.random_variable_operators, &o.base_name)
        });
        if !defines || !function || !application.given.is_empty() {
            return 0;
        }
        let names: Vec<String> =
            application.args.iter().filter_map(|a| a.occurrence()).map(|o| o.name.to_string()).collect();
        let added = names.len();
        self.parameters.borrow_mut().extend(names);
        added
    }

    /// Drops the `added` parameters [`Self::define_parameters`] added, once the right side is read.
    pub(super) fn forget_parameters(&self, added: usize) {
        let mut parameters = self.parameters.borrow_mut();
        let keep = parameters.len().saturating_sub(added);
        parameters.truncate(keep);
    }

    /// `\mathbb{E}[f(\mathbf{x})]` on the right of `m(\mathbf{x}) = …`: an argument that is a
    /// parameter of the function being defined keeps the kind it has outside the expectation.
    pub(super) fn parameters_stay_free(&self, args: &mut [Term]) {
        let parameters = self.parameters.borrow();
        if parameters.is_empty() {
            return;
        }
        for arg in args.iter_mut() {
            let TermKind::Symbol(occurrence) = &mut arg.kind else { continue };
            let random = occurrence.kind == super::SymbolKind::RandomVariable;
            if random && parameters.iter().any(|p| *p == occurrence.name.as_str()) {
                let (kind, evidence) = self.decide(occurrence, super::roles::Place::Plain);
                occurrence.kind = kind;
                occurrence.evidence = evidence;
            }
        }
    }
}
