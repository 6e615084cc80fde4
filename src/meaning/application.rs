//! Applications: a callee beside its group (`f(x)`, `p(x \mid y)`, `\mathcal{N}(0, I)`) made one
//! term once [`Resolver::is_call`] has said it is applied; where its arguments stand (random
//! things under a law, a data point, an indicator's comparison), what the callee's letter is
//! (a letter papers use for values asks whether it multiplies), and a range written below a
//! callee (`\max_{x \in S}`) split off.

use super::resolve::Resolver;
use super::roles::Place;
use super::tree::{Application, Term, TermKind};
use crate::syntax::ast::{Delim, Font, InfixOp, Node, NodeKind, WordStyle};

impl Resolver<'_> {
    /// `callee(…)` applied: its arguments and condition; scripts on the group kept.
    pub(super) fn apply<'n>(&self, callee: &'n Node, argument: &'n Node, place: Place, d: usize) -> Term<'n> {
        let (group, sub, sup) = match &argument.kind {
            NodeKind::Scripts { base, sub, sup, primes: 0 } => {
                (base.as_ref(), sub.as_deref(), sup.as_deref())
            }
            _ => (argument, None, None),
        };
        let body = match &group.kind {
            NodeKind::Fenced { body, .. } => body.as_ref(),
            _ => group,
        };
        let (callee_node, over, base) = self.split_over(callee);
        let callee_term = self.symbol_or_term(callee_node, Place::Callee, d);
        let distribution =
            callee_term.occurrence().is_some_and(|o| o.kind == super::SymbolKind::Distribution);
        let family = callee_term.occurrence().is_some_and(|o| self.is_distribution_family(o));
        let mut own_place = self.argument_place(callee, body);
        // `\mathcal{H}[Z \mid S]`: a calligraphic H read as an entropy takes random variables.
        let calligraphic = matches!(callee.kind, NodeKind::Symbol { font: Font::Calligraphic, .. });
        if calligraphic && super::expectations::is_information_measure(callee, group) {
            own_place = Place::Random;
        }
        // `I(y_i \neq G_m(x_i))`: a comparison taken is an indicator's condition, and `H(x)_i`
        // with an entry picked is a function of vectors (a letter; `\mathrm{Cov}(X)_{ij}` is
        // still a covariance): no entropy nor information, whose arguments are random variables.
        let letter = matches!(callee.kind, NodeKind::Symbol { .. });
        // `H(\mathbf{x}, \mathbf{W}_H)`: a function given a weight matrix is a layer (a highway's
        // transform), no entropy of random variables.
        let weights = super::list_items(body).iter().any(|item| is_bold_capital(item));
        // `H(x)` of one small Latin letter (MoE's gating logits, a highway's transform): a function of a
        // data point; an entropy is of a random variable `H(X)`, of a law `H(p)`, or conditioned.
        // `H(y)` beside `H(y \mid \mathcal{D})`: the letter measures random things there too.
        let conditioned_elsewhere =
            matches!(&callee.kind, NodeKind::Symbol { name, .. } if self.table.is_conditioned_callee(name));
        let of_a_point = letter && self.is_small_sample_letter(body) && !conditioned_elsewhere;
        // `\mathbb{I}(y_i = k)`: a capital I setting a small letter equal to another is the
        // indicator that two labels agree (`I(X = x)`, of a random variable, is an event's).
        let labels_agree = super::scripts::is_indicator_letter(callee_node) && sets_a_label(body);
        if own_place == Place::Random
            && ((letter && sub.is_some())
                || labels_agree
                || super::chains::is_comparison(body)
                || (letter && weights)
                || of_a_point)
        {
            own_place = Place::Plain;
        }
        // What a density or a variance takes is its outcome; a call inside an expectation
        // (`r_t(\theta)`) only stands among random things.
        let outcomes = distribution || own_place == Place::Random;
        let arg_place = match own_place {
            // The variables of a distribution or density are random variables: `p(x \mid z)`.
            Place::Plain if distribution || place == Place::Random => Place::Random,
            other => other,
        };
        let over = over.map(|o| self.term(o, Place::Bound, d));
        let base = base.map(|b| self.term(b, Place::Plain, d));
        let (args, given, bar) = if family {
            self.family_arguments(body, d)
        } else {
            self.arguments(body, (arg_place, outcomes), arg_place, d)
        };
        let named = distribution
            && callee_term.occurrence().is_some_and(|o| self.table.is_named_distribution(&o.base_name));
        // `N(\mathbf{y} \mid \mathbf{0}, \Sigma)`: nothing multiplies a conditioning bar, so a letter
        // applied to a condition asks no question.
        let unexpected_callee = !distribution
            && given.is_empty()
            && bar.is_none()
            && matches!(&group.kind, NodeKind::Fenced { open: Delim::Paren, .. })
            && callee_term
                .occurrence()
                .is_some_and(|o| self.is_unexpected_callee(o) && !self.is_spectral_call(o, body))
            // `r_t(\theta)`, `\epsilon_\theta(x_t, t)`: a function of the parameters, or a
            // letter labelled by them (a network), leaves nothing to ask.
            && !super::calls::is_parameter_argument(body)
            // `k(x_i, x_j)`, `d(x, y)`: nothing multiplies a list of inputs.
            && !super::calls::is_argument_list(body)
            && !super::scripts::labelled_by_parameters(callee_node);
        let application = Application {
            callee: callee_term,
            over,
            base,
            args,
            given,
            condition_bar: bar,
            group,
            sub: sub.map(|s| self.group_script(s, false, d)),
            sup: sup.map(|s| self.group_script(s, true, d)),
            named,
            unexpected_callee,
        };
        let mut application = application;
        if distribution {
            application.args.iter_mut().for_each(|arg| calls_are_parameters(arg, 0));
        }
        if !distribution && place == Place::Random {
            self.parameters_stay_free(&mut application.args);
        }
        self.settle_application(&mut application);
        self.last_argument_counts(callee_node, &mut application.args);
        if super::scripts::is_indicator_one(callee_node)
            || labels_agree
            || matches!(&callee_node.kind, NodeKind::Symbol { name, .. } if name == "delta")
        {
            super::positions::labels_compared(&mut application.args);
        }
        Term::new(TermKind::Apply(Box::new(application)), callee.span.join(argument.span), callee)
    }

    /// Whether a callee's letter is one papers use for a number, a vector or a matrix, so that
    /// applying it may read as a product (`\mu(t)`, `x(\mathbf{p})`, `A(l_i)`): a Latin or Greek
    /// letter in an upright, italic or bold font, not a function's, a law's, a value's or a
    /// divergence's letter by convention, nor an order of growth or Kronecker's delta.
    fn is_unexpected_callee(&self, occurrence: &super::Occurrence<'_>) -> bool {
        let NodeKind::Symbol { name, font: Font::Normal | Font::Italic | Font::Bold } = &occurrence.base.kind
        else {
            return false;
        };
        let letter = name.as_str();
        let latin = letter.len() == 1 && letter.starts_with(|c: char| c.is_ascii_alphabetic());
        let conventional = [
            &self.notation.function_letters,
            &self.notation.distribution_letters,
            &self.notation.value_functions,
            &self.notation.divergences,
        ]
        .into_iter()
        .any(|list| super::notation::has(list, letter));
        // `e(x)` may be Euler's number times x; `e_\theta(z_t, c)` is a network's output.
        let constant =
            occurrence.scripts.is_empty() && super::notation::has(&self.notation.constants, letter);
        // `O(n^2 d)`, `\Theta(n \log n)`: an order of growth, asked of by its own rule.
        let order = occurrence.scripts.is_empty() && self.is_order_letter(occurrence.base);
        (latin || crate::syntax::names::is_greek(letter))
            && !conventional
            && !constant
            && !order
            && letter != "delta"
    }

    /// `\lambda_i(A)`, `\sigma_{\max}(\mathbf{W})`: a spectral letter with a script below applied
    /// to one capital is a value of that matrix's spectrum, not a number times it.
    fn is_spectral_call(&self, occurrence: &super::Occurrence<'_>, body: &Node) -> bool {
        let NodeKind::Symbol { name, .. } = &occurrence.base.kind else { return false };
        let scripted = !occurrence.scripts.is_empty();
        // `\lambda_{\max}(\sum_k \mathbf{X}_k)`: one named below takes a matrix expression too.
        self.notation.names_a_spectral_value(name, scripted)
            && (is_one_capital(body) || (scripted && super::calls::holds_a_capital(body)))
    }

    /// Whether `body` is one small Latin letter, in any font, that is not a law's letter (`x`,
    /// `\mathbf{x}`, `x_t`; not `p`, `q`).
    fn is_small_sample_letter(&self, body: &Node) -> bool {
        let base = match &body.kind {
            NodeKind::Scripts { base, sup: None, primes: 0, .. } => base.as_ref(),
            _ => body,
        };
        let base = match &base.kind {
            NodeKind::Styled { body, .. } => body.as_ref(),
            _ => base,
        };
        matches!(&base.kind, NodeKind::Symbol { name, .. }
            if name.len() == 1
                && name.starts_with(|c: char| c.is_ascii_lowercase())
                && !super::notation::has(&self.notation.distribution_letters, name))
    }

    /// `\mathrm{TopK}(\mathbf{s}, K)`: the last of two or more arguments of a function that keeps
    /// so many (`count_argument_functions`) is a count, where only a convention named it.
    fn last_argument_counts(&self, callee: &Node, args: &mut [Term]) {
        if args.len() < 2 {
            return;
        }
        let keeps_so_many = super::naming::name_text(callee)
            .is_some_and(|name| super::notation::has(&self.notation.count_argument_functions, &name));
        if !keeps_so_many {
            return;
        }
        let Some(TermKind::Symbol(occurrence)) = args.last_mut().map(|a| &mut a.kind) else { return };
        if occurrence.evidence == super::Evidence::Convention {
            occurrence.kind = super::SymbolKind::Dimension;
            occurrence.evidence = super::Evidence::Use;
        }
    }

    /// Whether a name is one whose subscript can say what it ranges over: an operator name
    /// (`\max`, `\operatorname*{argmax}`) or a function listed as ranging (`\mathrm{softmax}`).
    fn ranges(&self, base: &Node) -> bool {
        match &base.kind {
            NodeKind::Word { style: WordStyle::Operator | WordStyle::OperatorLimits, .. } => true,
            NodeKind::Word { text, .. } => super::notation::has(&self.notation.ranging_functions, text),
            _ => false,
        }
    }

    /// A named function's subscript that says what it ranges over (`\mathrm{softmax}_j`), split
    /// off the callee; other subscripts stay part of the callee's name (`p_\theta`, `D_{KL}`).
    /// What a callee's subscript is beside its name: a range (`\mathrm{softmax}_j`, second) or a
    /// base (`\log_2`, third); otherwise it stays on the callee.
    fn split_over<'n>(&self, callee: &'n Node) -> (&'n Node, Option<&'n Node>, Option<&'n Node>) {
        match &callee.kind {
            NodeKind::Scripts { base, sub: Some(sub), sup: None, primes: 0 } if self.takes_a_base(base) => {
                (base.as_ref(), None, Some(sub.as_ref()))
            }
            NodeKind::Scripts { base, sub: Some(sub), sup: None, primes: 0 }
                if self.ranges(base) && self.is_range_subscript(sub) =>
            {
                (base.as_ref(), Some(sub.as_ref()), None)
            }
            _ => (callee, None, None),
        }
    }

    /// Whether a name is one whose subscript is its base (`\log`).
    fn takes_a_base(&self, name: &Node) -> bool {
        matches!(&name.kind, NodeKind::Word { text, .. } if super::notation::has(&self.notation.based_functions, text))
    }
}

/// `\mathbf{W}_H`, `\mathbf{W}`: a bold capital, possibly with scripts.
fn is_bold_capital(node: &Node) -> bool {
    let base = match &node.kind {
        NodeKind::Scripts { base, .. } => base.as_ref(),
        _ => node,
    };
    super::scripts::font_of_name(base) == crate::syntax::ast::Font::Bold
        && super::scripts::base_letter(base).is_some_and(|l| l.starts_with(|c: char| c.is_ascii_uppercase()))
}

/// Whether `node` is one capital letter, in any font, with at most a script below (`A`,
/// `\mathbf{W}_l`, `\Sigma`).
fn is_one_capital(node: &Node) -> bool {
    match &node.kind {
        NodeKind::Scripts { base, sup: None, primes: 0, .. } => is_one_capital(base),
        NodeKind::Styled { body, .. } => is_one_capital(body),
        NodeKind::Symbol { name, .. } => name.starts_with(|c: char| c.is_uppercase()),
        _ => false,
    }
}

/// `\mathcal{N}(\mu(x), \sigma(x)^2 I)`: a letter applied to the input among what a law is
/// given is a function of it (a network's mean or spread), not a product to ask about.
fn calls_are_parameters(term: &mut Term, depth: usize) {
    if depth > crate::syntax::depth::MAX_DEPTH_CEILING {
        return;
    }
    if let TermKind::Apply(app) = &mut term.kind {
        app.unexpected_callee = false;
    }
    term.for_each_child_mut(|child| calls_are_parameters(child, depth + 1));
}

/// Whether a condition sets a small letter equal to something (`y_i = k`, `c = 1`): labels
/// compared, no event of a random variable (`X = x`).
fn sets_a_label(body: &Node) -> bool {
    let NodeKind::Chain { first, rest } = &body.kind else { return false };
    let [link] = rest.as_slice() else { return false };
    let base = match &first.kind {
        NodeKind::Scripts { base, .. } => base.as_ref(),
        _ => first.as_ref(),
    };
    matches!(&link.op, InfixOp::Relation(r) if r.as_str() == "=")
        && matches!(&base.kind, NodeKind::Symbol { name, .. } if name.starts_with(|c: char| c.is_ascii_lowercase()))
}
