//! What an application's parts are, once its shape is known: the neighbours `\mathcal{N}(v)`
//! of a node, the states and actions a value function takes, the entries `I(m, n)` of an array,
//! the value `\mathbf{x}(t)` of a vector at a step, the vectors a function of vectors takes,
//! the angles a trigonometric function takes (not bold letters, nor a sum with an array worked
//! out in it), the data points a kernel `k(x_i, x_j)` compares (vectors); and what an operator
//! without parentheses takes
//! (`\partial C`, `\cos \theta_j`).

use super::resolve::Resolver;
use super::tree::{Application, ScriptRole, TermKind};
use crate::syntax::ast::{Delim, Font, InfixOp, Node, NodeKind};

impl Resolver<'_> {
    /// Settles the kinds of a call's callee and arguments from the call as a whole.
    pub(super) fn settle_application(&self, application: &mut Application) {
        neighbourhood(application);
        kernel_arguments(application);
        self.laws_beside_laws(application);
        self.states_and_actions(application);
        self.array_entries(application);
        self.vector_arguments(application);
        let angle = application.callee.occurrence().is_some_and(|o| {
            matches!(o.base.kind, NodeKind::Word { .. })
                && super::notation::has(&self.notation.angle_functions, &o.base_name)
        });
        if angle {
            application.args.iter_mut().for_each(super::agree::angles);
        }
        let exponential = application.callee.occurrence().is_some_and(|o| {
            matches!(o.base.kind, NodeKind::Word { .. })
                && matches!(o.base_name.as_str(), "exp" | "softmax" | "Softmax")
        });
        if exponential {
            application.args.iter_mut().for_each(super::agree::temperatures);
        }
        super::positions::arguments_at_one_position(&mut application.args);
        self.noisy_samples(application);
        vector_valued_not_density(application);
        if application.sup.as_ref().is_some_and(|s| s.role == ScriptRole::Transpose) {
            super::agree::arguments_of_a_vector_call(application);
        }
    }

    /// `\mathrm{CE}(P, Q)`, `W(P, Q)`, `d(P, M)`: two capitals papers compare laws by
    /// (`compared_law_capitals`), one a law's letter (`P`), are two laws compared, where only a
    /// convention (a capital a matrix) or a use elsewhere as a function called the other
    /// something else.
    fn laws_beside_laws(&self, application: &mut Application) {
        let [first, second] = application.args.as_mut_slice() else { return };
        if !application.given.is_empty() {
            return;
        }
        let capital = |term: &super::Term| match &term.kind {
            TermKind::Symbol(o) if o.scripts.is_empty() => {
                matches!(&o.base.kind, NodeKind::Symbol { name, font: Font::Normal }
                    if name.len() == 1 && name.starts_with(|c: char| c.is_ascii_uppercase()))
            }
            _ => false,
        };
        let compared = |term: &super::Term| {
            term.occurrence()
                .is_some_and(|o| super::notation::has(&self.notation.compared_law_capitals, &o.base_name))
        };
        let law_letter = |term: &super::Term| {
            term.occurrence()
                .is_some_and(|o| super::notation::has(&self.notation.distribution_letters, &o.base_name))
        };
        let pair = capital(first) && capital(second) && compared(first) && compared(second);
        if !pair || !(law_letter(first) || law_letter(second)) {
            return;
        }
        for arg in [first, second] {
            let TermKind::Symbol(o) = &mut arg.kind else { continue };
            let loose = o.evidence >= super::Evidence::Known
                || (o.evidence == super::Evidence::Use && o.kind == super::SymbolKind::Function);
            if loose && matches!(o.kind, super::SymbolKind::Matrix | super::SymbolKind::Function) {
                o.kind = super::SymbolKind::Distribution;
                o.evidence = super::Evidence::Use;
            }
        }
    }

    /// Settles the kinds of what an operator written without parentheses takes: what `\partial`
    /// differentiates is no size, where `\nabla f(x)` is taken a vector, what `\cos` takes an angle.
    pub(super) fn settle_operand(&self, name: &str, operand: &mut super::Term) {
        if name == "partial" {
            super::agree::differentiated_is_no_size(operand);
        }
        if name == "nabla" {
            super::agree::gradient_at_a_point(operand);
            super::agree::differentiated_is_a_number(operand);
        }
        if name == "exp" {
            super::agree::temperatures(operand);
        }
        if super::notation::has(&self.notation.angle_functions, name) {
            super::agree::angles(operand);
        }
        braces_that_group(operand, name == "Pr");
    }

    /// Whether a named function's subscript says what it ranges over (`\mathrm{softmax}_j`); a
    /// number there fixes a parameter and is part of the name (`\mathrm{Swish}_1`).
    pub(super) fn is_range_subscript(&self, sub: &Node) -> bool {
        self.is_index_like(sub) && !matches!(sub.kind, NodeKind::Number { .. })
    }

    /// `\mathrm{LN}(x_l)`, `\mathrm{softmax}(z)`: what a function of vectors takes is a vector,
    /// whatever its letter suggests (a plain lower-case Latin letter only a convention called a
    /// scalar).
    fn vector_arguments(&self, application: &mut Application) {
        let takes_vectors = application.callee.occurrence().is_some_and(|o| {
            matches!(o.base.kind, NodeKind::Word { .. }) && self.notation.is_vector_function(&o.base_name)
        });
        // `\mathrm{softmax}_j(e_{ij})`: a function over j takes the entries j picks, numbers.
        if !takes_vectors || application.over.is_some() {
            return;
        }
        for arg in &mut application.args {
            // `\mathrm{MultiHeadAtt}(x_i, [x_1, \cdots, x_n])`: a bracketed list given to it is
            // a sequence of vectors.
            if let TermKind::Fenced { open: Delim::Bracket, body } = &mut arg.kind {
                if let TermKind::Chain { first, rest } = &mut body.kind {
                    if rest.iter().all(|j| matches!(j.op, InfixOp::Separator(_))) {
                        super::agree::small_letter_is_vector(first, &[super::SymbolKind::Scalar]);
                        for joint in rest.iter_mut() {
                            super::agree::small_letter_is_vector(
                                &mut joint.term,
                                &[super::SymbolKind::Scalar],
                            );
                        }
                    }
                }
            }
            super::agree::small_letter_is_vector(arg, &[super::SymbolKind::Scalar]);
            // `\mathrm{Concat}(\text{head}_1, \dots)`: a word named there names an array, not a
            // quantity.
            if let TermKind::Symbol(o) = &mut arg.kind {
                let word = matches!(o.base.kind, NodeKind::Word { .. });
                if word && o.kind == super::SymbolKind::Scalar && o.evidence == super::Evidence::Convention {
                    o.kind = super::SymbolKind::Vector;
                    o.evidence = super::Evidence::Use;
                }
                // `\mathrm{Attention}(X_2)`: a numbered capital a layer takes is an array of
                // tokens, not the random variable the same letter is in a probability.
                if o.kind == super::SymbolKind::RandomVariable && o.evidence == super::Evidence::Convention {
                    o.kind = super::SymbolKind::Matrix;
                    o.evidence = super::Evidence::Use;
                }
            }
        }
    }

    /// `Q(s, a)`, `V(s_t)`, `v_\pi(s)`: the states and actions a value function takes are random
    /// variables (lower-case letters only: `V(D, G)` is a game's value of two players); so are a
    /// state and an action that any function takes together (`h(s, a, \boldsymbol{\theta})`). A
    /// value function's letter applied to a state is a function even where papers use the letter
    /// for a density (`q_\pi(s, a)`, `q_*(s, a)`).
    fn states_and_actions(&self, application: &mut Application) {
        // `\sum_{a \in A(i)}`: a function that gives a set (the anchors other than i) takes
        // positions, no state.
        let value_function = application
            .callee
            .occurrence()
            .is_some_and(|o| self.is_value_function(o) && o.kind != super::SymbolKind::Set);
        let state = application.args.iter().any(|a| self.is_letter_of(a, &self.notation.state_letters));
        let action = application.args.iter().any(|a| self.is_letter_of(a, &self.notation.action_letters));
        if value_function && state {
            if let TermKind::Symbol(callee) = &mut application.callee.kind {
                if callee.kind == super::SymbolKind::Distribution {
                    callee.kind = super::SymbolKind::Function;
                }
            }
        }
        // `v(x_t)`, `v_\theta(x_t, t)`: a small value letter applied to no state is a velocity
        // field (flow matching), its argument a point; `V(x)`, `Q(x, a)` are values however the
        // state is named, and `\hat{v}(S', \mathbf{w})` is at a state written as a capital.
        let capital_callee = application
            .callee
            .occurrence()
            .is_some_and(|o| o.base_name.starts_with(|c: char| c.is_ascii_uppercase()));
        let state_in_any_case = application.args.iter().any(|a| {
            a.occurrence().is_some_and(|o| {
                o.base_name.len() == 1
                    && super::notation::has(&self.notation.state_letters, &o.base_name.to_lowercase())
            })
        });
        let value_function = value_function && (state || state_in_any_case || capital_callee);
        if !(value_function || (state && action)) {
            return;
        }
        for arg in &mut application.args {
            if let TermKind::Symbol(occurrence) = &mut arg.kind {
                // `\hat{v}(s, \mathbf{w})`: the weights in bold are parameters, no state.
                let lower = occurrence.base_name.starts_with(|c: char| c.is_ascii_lowercase())
                    && occurrence.base_name.len() == 1
                    && super::roles::font_of(occurrence.base) != Font::Bold;
                // `\hat{v}(S', \mathbf{w})`: Sutton and Barto write the random state in capitals.
                let capital_state = value_function
                    && occurrence.base_name.len() == 1
                    && (super::notation::has(
                        &self.notation.state_letters,
                        &occurrence.base_name.to_lowercase(),
                    ) || super::notation::has(
                        &self.notation.action_letters,
                        &occurrence.base_name.to_lowercase(),
                    ));
                let pair = value_function
                    || super::notation::has(&self.notation.state_letters, &occurrence.base_name)
                    || super::notation::has(&self.notation.action_letters, &occurrence.base_name);
                if (lower && pair || capital_state) && occurrence.evidence >= super::Evidence::Use {
                    occurrence.kind = super::SymbolKind::RandomVariable;
                    occurrence.evidence = super::Evidence::Use;
                }
            }
        }
    }

    /// `\boldsymbol{\epsilon}_\theta(\mathbf{x}_t, t)`: a learned function named by a noise letter
    /// predicts the noise in what it takes first, so that letter is a noisy sample, a random
    /// variable, where only a convention or a use as an array named it.
    fn noisy_samples(&self, application: &mut Application) {
        let predictor = application.callee.occurrence().is_some_and(|o| {
            o.kind == super::SymbolKind::Function
                && !o.scripts.is_empty()
                && super::notation::has(&self.notation.noise_letters, &o.base_name)
        });
        if !predictor {
            return;
        }
        // The sample comes first; what follows is the step and the condition (`c`, a prompt).
        let Some(TermKind::Symbol(o)) = application.args.first_mut().map(|a| &mut a.kind) else { return };
        if matches!(o.kind, super::SymbolKind::Vector | super::SymbolKind::Scalar)
            && o.evidence >= super::Evidence::Use
        {
            o.kind = super::SymbolKind::RandomVariable;
            o.evidence = super::Evidence::Use;
        }
    }

    /// Whether a term is a number by what it computes: the value of a value function at a
    /// state (`V_\theta(s_t)`, `Q(s, a)`), a probability or density at a point (`p(x \mid z)`),
    /// the log of one, and sums, differences, signs, brackets and powers of these
    /// (`(V_\theta(s_t) - V_t^{\mathrm{targ}})^2`).
    pub(super) fn is_number_valued(&self, term: &super::Term) -> bool {
        self.number_valued_at(term, 0)
    }

    fn number_valued_at(&self, term: &super::Term, depth: usize) -> bool {
        if depth > crate::syntax::depth::WALK_GUARD {
            return false;
        }
        let valued = |t: &super::Term| self.number_valued_at(t, depth + 1);
        match &term.kind {
            TermKind::Apply(application) => self.is_value_at_a_point(application),
            TermKind::Operator(op) if op.name == "log" => valued(&op.operand),
            TermKind::Sign { operand, .. } => valued(operand),
            TermKind::Fenced { open: Delim::Paren | Delim::Bracket, body } => valued(body),
            TermKind::Scripted { base, sub: None, sup: Some(sup), .. } if sup.role == ScriptRole::Power => {
                valued(base)
            }
            TermKind::Chain { first, rest } if rest.iter().all(|j| matches!(j.op, InfixOp::Additive(_))) => {
                valued(first) || rest.iter().any(|j| valued(&j.term))
            }
            _ => false,
        }
    }

    /// A value function at a state, or a distribution at a point.
    fn is_value_at_a_point(&self, application: &Application) -> bool {
        let Some(callee) = application.callee.occurrence() else { return false };
        if application.sub.is_some() || application.sup.is_some() {
            return false;
        }
        let at_state = application.args.iter().any(|a| self.is_letter_of(a, &self.notation.state_letters));
        (self.is_value_function(callee) && at_state) || callee.kind == super::SymbolKind::Distribution
    }

    /// A letter papers use for a value function (`Q`, `V`, `v`), as a symbol, not a word.
    /// Seen through an estimate's accent (`\hat{v}`, `\hat{Q}`).
    fn is_value_function(&self, callee: &super::Occurrence) -> bool {
        let base = match &callee.base.kind {
            NodeKind::Accent { body, .. } => body.as_ref(),
            _ => callee.base,
        };
        matches!(&base.kind, NodeKind::Symbol { name, .. } if super::notation::has(&self.notation.value_functions, name))
    }

    /// Whether a term is a plain letter of `letters`, primed or with scripts (`s`, `s'`, `s_t`).
    fn is_letter_of(&self, term: &super::Term, letters: &super::notation::Names) -> bool {
        term.occurrence().is_some_and(|o| {
            matches!(o.base.kind, NodeKind::Symbol { font: Font::Normal, .. })
                && super::notation::has(letters, &o.base_name)
        })
    }

    /// `I(m, n)`, `K(i - m, j - n)`, `u_c(i, j)`, `\mathbf{x}(t)`: a symbol whose arguments are
    /// all positions (index letters, added or subtracted) is an array read at them, not a
    /// function: two positions or more pick an entry of a matrix, one a step of a bold vector.
    /// Lower-case letters papers use for functions (`f(i, j)`) stay functions.
    fn array_entries(&self, application: &mut Application) {
        if application.over.is_some() || !application.given.is_empty() || application.args.is_empty() {
            return;
        }
        if matches!(application.group.kind, NodeKind::Fenced { open: Delim::Bracket, .. }) {
            return self.entries_in_brackets(application);
        }
        if !application.args.iter().all(|arg| self.is_position(arg.node, 0)) {
            return;
        }
        let TermKind::Symbol(callee) = &mut application.callee.kind else { return };
        if callee.evidence <= super::Evidence::Declared {
            return;
        }
        // `\tilde{w}_t(i)`: through an accent for an indexed letter read at one position.
        let accented = match &callee.base.kind {
            NodeKind::Accent { body, .. } if application.args.len() == 1 => body.as_ref(),
            _ => callee.base,
        };
        let NodeKind::Symbol { name, font } = &accented.kind else { return };
        let capital = name.starts_with(|c: char| c.is_ascii_uppercase());
        let latin = name.len() == 1;
        let kind = match (application.args.len(), font) {
            (1, Font::Bold) if capital => super::SymbolKind::Matrix,
            (1, Font::Bold) => super::SymbolKind::Vector,
            // `w_t(i)`, `x_i(t)`: an indexed small letter read at one position is the array its
            // letter names, by convention (`\alpha(t)`, `c_{\mathrm{skip}}(t)` stay functions of t).
            (1, Font::Normal) if latin && !capital && picked_below(callee) => {
                callee.kind = if super::notation::has(&self.notation.vector_when_indexed, name) {
                    super::SymbolKind::Vector
                } else {
                    super::SymbolKind::Scalar
                };
                callee.evidence = super::Evidence::Convention;
                return;
            }
            (1, _) => return,
            (_, Font::Normal | Font::Bold)
                if latin && (capital || !super::notation::has(&self.notation.function_letters, name)) =>
            {
                super::SymbolKind::Matrix
            }
            _ => return,
        };
        callee.kind = kind;
        callee.evidence = super::Evidence::Use;
        // The positions an array is read at are indices, even where the callee's letter first
        // made them the variables of an information measure (`I(i + m, j + n)`).
        for arg in &mut application.args {
            positions_are_indices(arg);
        }
    }

    /// `x[n]`, `y[i] = \sum_k x[i + r \cdot k] w[k]`: a letter read at positions in brackets
    /// is an array (a vector at one position, a matrix at two); its positions are indices, and a
    /// letter that multiplies one there is a size (the rate r, a stride).
    fn entries_in_brackets(&self, application: &mut Application) {
        let TermKind::Symbol(callee) = &mut application.callee.kind else { return };
        if callee.evidence <= super::Evidence::Declared
            || !application.args.iter().all(|arg| {
                self.is_position_expression(arg.node, 0) && self.holds_position_letter(arg.node, 0)
            })
        {
            return;
        }
        callee.kind =
            if application.args.len() == 1 { super::SymbolKind::Vector } else { super::SymbolKind::Matrix };
        callee.evidence = super::Evidence::Use;
        for arg in &mut application.args {
            positions_are_indices(arg);
            super::positions::strides(arg);
        }
    }

    /// Whether a node is a position: an index letter, a number, or their sums and differences
    /// (`i`, `t - 1`, `i + m`).
    pub(super) fn is_position(&self, node: &Node, depth: usize) -> bool {
        if depth > 8 {
            return false;
        }
        match &node.kind {
            // `v(t)` where t varies continuously (`dt`): a function of time, not a position.
            NodeKind::Symbol { name, font: Font::Normal } => {
                (super::notation::has(&self.notation.bare_index_letters, name)
                    || super::notation::has(&self.notation.bare_count_letters, name))
                    && self.table.recorded(name) != Some(super::SymbolKind::Scalar)
            }
            NodeKind::Number { .. } => depth > 0,
            NodeKind::Chain { first, rest } => {
                rest.iter().all(|l| matches!(l.op, InfixOp::Additive(_)))
                    && self.is_position(first, depth + 1)
                    && rest.iter().all(|l| self.is_position(&l.operand, depth + 1))
            }
            _ => false,
        }
    }
}

/// `q(x)^\top k_i`, `P_s(x)^{(i)}`: a density's value is one number, never transposed nor picked
/// a component from; a letter papers use for densities, written so, is a function whose value is
/// a vector (a query network, a head's scores), and what it takes an input (a vector), not the
/// outcome of a random variable. Declared densities stay.
fn vector_valued_not_density(application: &mut Application) {
    let picked = application
        .sup
        .as_ref()
        .is_some_and(|s| matches!(s.role, ScriptRole::Transpose | ScriptRole::Index | ScriptRole::Layer));
    let TermKind::Symbol(callee) = &mut application.callee.kind else { return };
    if !picked || callee.kind != super::SymbolKind::Distribution || callee.evidence != super::Evidence::Use {
        return;
    }
    callee.kind = super::SymbolKind::Function;
    for arg in &mut application.args {
        let TermKind::Symbol(o) = &mut arg.kind else { continue };
        if o.kind == super::SymbolKind::RandomVariable && o.evidence == super::Evidence::Use {
            o.kind = super::SymbolKind::Vector;
        }
    }
}

/// Whether a symbol is picked by an index or a family member below it (`w_t`, `x_i`),
/// or a Latin letter naming which (`s_{c_j}`, the state of cell c_j; not a parameter, `f_\theta`).
fn picked_below(o: &super::Occurrence) -> bool {
    let latin_label = |t: &super::Term| {
        t.occurrence()
            .and_then(|o| super::scripts::base_letter(o.base))
            .is_some_and(|l| l.len() == 1 && l.starts_with(|c: char| c.is_ascii_alphabetic()))
    };
    o.scripts.iter().any(|s| {
        !s.above
            && (matches!(s.role, ScriptRole::Index | ScriptRole::Family)
                || (s.role == ScriptRole::Label && latin_label(&s.term)))
    })
}

/// `\mathcal{N}(v)`: the neighbours of a node, a set, not the normal distribution of one letter.
fn neighbourhood(application: &mut Application) {
    let [arg] = application.args.as_slice() else { return };
    let one_letter = arg.occurrence().is_some_and(|o| {
        o.scripts.is_empty()
            && o.base_name.len() == 1
            && o.base_name.starts_with(|c: char| c.is_ascii_lowercase())
    });
    let TermKind::Symbol(callee) = &mut application.callee.kind else { return };
    let calligraphic_n = matches!(&callee.base.kind, NodeKind::Symbol { name, font: Font::Calligraphic | Font::Script } if name == "N");
    if calligraphic_n && one_letter && application.given.is_empty() {
        callee.kind = super::SymbolKind::Set;
        callee.evidence = super::Evidence::Use;
    }
}

/// `k(x_i, x_j)`, `k(\cdot, x_i)`, `k(x, x')`: a kernel compares two data points, which are
/// vectors, so a plain small letter it takes that only a convention called a number is one.
fn kernel_arguments(application: &mut Application) {
    let kernel = application.callee.occurrence().is_some_and(|o| {
        o.scripts.is_empty()
            && matches!(o.base.kind, NodeKind::Symbol { ref name, font: Font::Normal } if name == "k")
    });
    if !kernel || application.args.len() != 2 || !application.given.is_empty() {
        return;
    }
    for arg in application.args.iter_mut() {
        let TermKind::Symbol(point) = &mut arg.kind else { continue };
        let small = super::scripts::is_single_latin(point.base, false);
        if small && point.kind == super::SymbolKind::Scalar && point.evidence == super::Evidence::Convention {
            point.kind = super::SymbolKind::Vector;
            point.evidence = super::Evidence::Use;
        }
    }
}

/// The letters of a position (`i`, `i + m`) that a random variable's place gave them, as
/// indices.
fn positions_are_indices(term: &mut super::Term) {
    match &mut term.kind {
        // `K(m, n)`, `h[n]`: a count's letter read as a position is a position.
        TermKind::Symbol(occurrence)
            if occurrence.kind == super::SymbolKind::RandomVariable
                || (occurrence.kind == super::SymbolKind::Dimension
                    && occurrence.evidence == super::Evidence::Convention) =>
        {
            occurrence.kind = super::SymbolKind::Index;
            occurrence.evidence = super::Evidence::Use;
        }
        TermKind::Chain { first, rest } => {
            positions_are_indices(first);
            rest.iter_mut().for_each(|j| positions_are_indices(&mut j.term));
        }
        _ => {}
    }
}

/// `\exp\{-t_n f_m(\mathbf{x}_n)\}`: braces around an operator's operand that hold one
/// expression (no list, no set builder's bar) group it, as parentheses would; they make no set.
/// A probability's braces hold its event, a condition's bar included (`P\{X > s \mid X > t\}`).
fn braces_that_group(operand: &mut super::Term, event: bool) {
    let TermKind::Fenced { open, body } = &mut operand.kind else { return };
    if *open != Delim::Brace {
        return;
    }
    if event {
        *open = Delim::Paren;
        super::chains::condition_takes_the_relation(body);
        return;
    }
    let set_like = matches!(&body.kind, TermKind::Chain { rest, .. } if rest.iter().any(|j| match &j.op {
        InfixOp::Separator(_) => true,
        InfixOp::Relation(r) => matches!(r.as_str(), "\\mid" | ":" | "|" | "\\vert"),
        _ => false,
    }));
    if !set_like {
        *open = Delim::Paren;
    }
}
