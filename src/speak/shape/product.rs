//! Rows of factors and sums, read from the meaning layer's resolved tree: `QK^\top / \sqrt{d_k}`,
//! `\mathrm{softmax}(X)V`, `-\frac{1}{N}\sum_i \log p(x_i)`.
//!
//! What applies to what — the body of a `\sum`, the operand of `\log`, a call or a product, how
//! far a sign reaches — is [`crate::meaning::resolve`]'s decision; this file only chooses the
//! phrase: a mean (`\frac{1}{N}\sum`), a dot product, "n by d", plain scalars side by side.

use super::{word, Shaper};
use crate::meaning::tree::{infix_name, Application, BigOperator, Factor, Joint, OperatorApplication};
use crate::meaning::{binding_name, kind_of_term, SymbolKind, Term, TermKind};
use crate::speak::phrase::{Apply, BigOp, Name, NameClass, Order, Phrase, SubStyle};
use crate::speak::Verbosity;
use crate::syntax::ast::{Font, InfixOp, NodeKind};

/// What joins the next factor group to what came before.
enum Join {
    Divide,
    Dot,
    Product,
    Shape,
    Word(String),
}

/// Large operators whose subscript is a lower limit, not a variable.
const INTEGRALS: &[&str] = &["int", "iint", "iiint", "oint"];

impl Shaper<'_> {
    /// A row of factors: `Q/K/V` as a list, else read left to right.
    pub(super) fn row_of_factors(&self, factors: &[Factor], d: usize) -> Phrase {
        match slash_list(factors) {
            Some(list) => list,
            None => self.factors(factors, d),
        }
    }

    /// `a + b - c` in operator words; `x_1 + \dots + x_n` is the sum of a range.
    pub(super) fn additive_terms(&self, first: &Term, rest: &[Joint], d: usize) -> Phrase {
        let first = self.shape(first, d);
        let rest: Vec<(String, Phrase)> =
            rest.iter().map(|j| (infix_name(j.op).to_string(), self.shape(&j.term, d))).collect();
        let all_plus = rest.iter().all(|(op, _)| op == "+");
        if all_plus && rest.iter().any(|(_, p)| *p == Phrase::Dots) {
            let items = std::iter::once(first).chain(rest.into_iter().map(|(_, p)| p)).collect();
            return Phrase::Ops {
                first: super::range_or_list(items).boxed(),
                rest: Vec::new(),
                nested: true,
            };
        }
        Phrase::Ops { first: first.boxed(), rest, nested: false }
    }

    /// Reads a row of factors left to right. The meaning layer nested each run written side by
    /// side that a sign joins to the rest (`crate::meaning`'s runs: `Q h_i \cdot K h_j`), so a
    /// row is side by side throughout or operands joined by signs; a nested run stays one
    /// operand ("the dot product of the product of Q and h sub i and …").
    fn factors(&self, factors: &[Factor], d: usize) -> Phrase {
        let signed = factors.iter().skip(1).any(|f| matches!(f.op, Some(InfixOp::Multiplicative(_))));
        if !signed {
            let plain = factors.iter().all(|f| self.is_plain_scalar(&f.term));
            return self.product(factors.iter().map(|f| self.shape(&f.term, d)).collect(), plain);
        }
        // `\mathrm{Swish}(xW) \otimes xV`: the meaning layer says this ⊗ is element-wise.
        let gated = crate::meaning::otimes_gates(factors);
        let mut iter = factors.iter().zip(gated);
        let Some((first, _)) = iter.next() else { return Phrase::Empty };
        let mut left = self.shape(&first.term, d);
        // Whether `left` is a product the signs made (more factors join it) or one operand.
        let mut by_signs = false;
        let mut previous = &first.term;
        for (factor, gated) in iter {
            // `\mathbf{X} \circ \mathbf{Y}`, `(1 - z_i) \circ s_{i-1}`: a ring is composition where a
            // map stands beside it, else the entrywise product (as the map reads it).
            let arrays = ![previous, &factor.term].iter().any(|t| {
                matches!(
                    kind_of_term(t),
                    SymbolKind::Function | SymbolKind::Distribution | SymbolKind::Unknown
                )
            });
            let op = match factor.op {
                Some(InfixOp::Multiplicative(_)) if gated => "\\odot",
                Some(InfixOp::Multiplicative(op)) if op == "\\circ" && arrays => "\\odot",
                Some(InfixOp::Multiplicative(op)) => op.as_str(),
                _ => "\\cdot",
            };
            let join = self.join(op, Some(previous), &factor.term);
            let right = self.shape(&factor.term, d);
            let product = matches!(join, Join::Product);
            if product && !by_signs {
                left = operand(left);
            }
            by_signs = product;
            left = self.combine(Some((left, join)), right);
            previous = &factor.term;
        }
        left
    }

    /// How `op` joins the factors around it.
    fn join(&self, op: &str, previous: Option<&Term>, next: &Term) -> Join {
        let both = |kind: SymbolKind| {
            previous.is_some_and(|p| kind_of_term(p) == kind) && kind_of_term(next) == kind
        };
        let sizes = previous.is_some_and(|p| self.size_like(p)) && self.size_like(next);
        match op {
            "/" => Join::Divide,
            "\\cdot" if both(SymbolKind::Vector) => Join::Dot,
            "\\cdot" => Join::Product,
            "\\times" if sizes => Join::Shape,
            other => Join::Word(other.to_string()),
        }
    }

    /// `left join right`.
    fn combine(&self, left: Option<(Phrase, Join)>, right: Phrase) -> Phrase {
        let Some((left, join)) = left else { return right };
        match (join, left) {
            (Join::Divide, left) => division(left, right),
            (Join::Dot, left) => Phrase::Dot(left.boxed(), right.boxed()),
            (Join::Product, Phrase::Product(mut factors)) => {
                factors.push(right);
                Phrase::Product(factors)
            }
            (Join::Product, left) => Phrase::Product(vec![left, right]),
            (Join::Shape, Phrase::Shape(mut dims)) => {
                dims.push(right);
                Phrase::Shape(dims)
            }
            (Join::Shape, left) => Phrase::Shape(vec![left, right]),
            (Join::Word(op), Phrase::Ops { first, mut rest, nested: false }) => {
                rest.push((op, right));
                Phrase::Ops { first, rest, nested: false }
            }
            (Join::Word(op), left) => {
                Phrase::Ops { first: left.boxed(), rest: vec![(op, right)], nested: false }
            }
        }
    }

    /// Whether a factor is a plain scalar (`2`, `\pi`, `r`): a row of them reads side by side
    /// ("2 pi r") rather than as "the product of …".
    fn is_plain_scalar(&self, term: &Term) -> bool {
        match (&term.kind, &term.node.kind) {
            (TermKind::Number, NodeKind::Number { font: Font::Normal, .. }) => true,
            (TermKind::Symbol(occurrence), NodeKind::Symbol { name, font: Font::Normal }) => {
                !name.starts_with(|c: char| c.is_ascii_uppercase())
                    && matches!(
                        occurrence.kind,
                        SymbolKind::Scalar | SymbolKind::Dimension | SymbolKind::Index
                    )
            }
            _ => false,
        }
    }

    /// Side-by-side factors as one phrase: a mean, a scaled term, plain scalars side by side,
    /// or a product.
    fn product(&self, mut group: Vec<Phrase>, plain: bool) -> Phrase {
        if group.len() <= 1 {
            return group.pop().unwrap_or(Phrase::Empty);
        }
        // `\frac{1}{N} x` is x divided by N, `\frac{1}{N} \sum_i` a mean; at full verbosity only the
        // mean is said so, the division spelled as written (it would read as `\frac{x}{N}` does).
        if let Some(Phrase::Fraction { num, den }) = group.first() {
            if matches!(num.as_ref(), Phrase::Number(n) if n == "1") {
                let den = den.clone();
                let rest = self.product(group.get(1..).unwrap_or_default().to_vec(), false);
                match mean_or_division(rest, den) {
                    Phrase::Div { .. } if self.verbosity == Verbosity::Full => {}
                    said => return said,
                }
            }
        }
        match group.as_slice() {
            [Phrase::Number(_), x] if x.is_atomic() => {
                let mut parts = group.into_iter();
                let k = parts.next().unwrap_or(Phrase::Empty);
                let x = parts.next().unwrap_or(Phrase::Empty);
                Phrase::Scale { k: k.boxed(), x: x.boxed() }
            }
            _ if plain => Phrase::Seq(group),
            _ => Phrase::Product(group),
        }
    }

    /// A large operator with its limits and body.
    pub(super) fn big_op_term(&self, big: &BigOperator, d: usize) -> Phrase {
        let phrase = |t: &Option<Term>| t.as_ref().map(|t| self.shape(t, d).boxed());
        let integral = INTEGRALS.contains(&big.name.as_str());
        let mut op = BigOp {
            op: big.name.clone(),
            var: phrase(&big.var).or_else(|| phrase(&big.differential)),
            from: phrase(&big.lower),
            to: phrase(&big.upper),
            over: phrase(&big.over),
            // A body of terms added together (an objective, `\max_\theta a - \beta b`) is heard
            // as one: "the max over theta of the difference of a and …".
            body: big.body.as_ref().map(|t| super::nested(self.shape(t, d)).boxed()),
            mean_of: None,
        };
        if integral && op.to.is_none() && op.from.is_some() {
            op.over = op.from.take();
        }
        if op.var.is_none() && op.from.is_none() {
            if let Some((vars, from)) = op.over.as_deref().and_then(index_list) {
                op.var = Some(vars.boxed());
                op.from = Some(from.boxed());
                op.over = None;
            }
        }
        Phrase::BigOp(op)
    }

    /// A named law of the vocabulary applied to its parameters, or to a point and its
    /// parameters (after `;` or a bar): `\mathcal{N}(\mu, \sigma^2)`, `\mathcal{N}(x; \mu,
    /// \Sigma)`, `\mathcal{N}(x \mid \mu, \Sigma)`. Only where the meaning layer reads the callee
    /// as a distribution, written without scripts (`\mathcal{N}_n` keeps its letter), and the
    /// count of what it is given fits the law.
    fn law(&self, app: &Application, d: usize) -> Option<Phrase> {
        let callee =
            app.callee.occurrence().filter(|o| o.kind == SymbolKind::Distribution && o.scripts.is_empty())?;
        let key = callee.base_name.to_string();
        let count = self.vocab.laws.get(&key)?.params.len();
        let (at, params): (Option<&Term>, Vec<&Term>) = match (app.args.as_slice(), app.given.as_slice()) {
            ([x], given) if given.len() == count => (Some(x), given.iter().collect()),
            (args, []) if args.len() == count => (None, args.iter().collect()),
            ([x, rest @ ..], []) if rest.len() == count => (Some(x), rest.iter().collect()),
            _ => return None,
        };
        let matrix = |t: &Term| kind_of_term(t) == SymbolKind::Matrix;
        let params = params.into_iter().map(|t| (matrix(t), super::nested(self.shape(t, d)))).collect();
        let at = at.map(|x| super::nested(self.shape(x, d)).boxed());
        Some(Phrase::Law { key, at, params })
    }

    /// A function applied: its name, what it ranges over, its arguments and condition, and the
    /// scripts on its argument group (`\mathrm{softmax}(z)_j`).
    pub(super) fn apply_term(&self, app: &Application, d: usize) -> Phrase {
        let divergence = divergence_label(&app.callee);
        // `P(i)` right of `\in`: the meaning layer read a function that gives a set, said as
        // its letter, not as a probability; so is `P(x)` beside `D(P \parallel Q)`, a named law.
        let gives_set = app.callee.occurrence().is_some_and(|o| o.kind == crate::meaning::SymbolKind::Set);
        let key = match (divergence, app.callee.occurrence()) {
            (Some(label), _) => Some(label.to_string()),
            (None, Some(o)) if !gives_set && !app.named => Some(o.base_name.to_string()),
            (None, _) => None,
        };
        let probability = key.as_deref().is_some_and(|k| self.vocab.is_probability(k));
        // `\log^{2}(1 + x)`: the function applied, its value raised to the power on its name.
        if let Some((name, power)) = app.value_power() {
            let args = app.args.iter().map(|a| super::nested(self.shape(a, d))).collect();
            let call = Apply {
                func: word(name).boxed(),
                key: Some(name.to_string()),
                probability,
                args,
                over: None,
                given: None,
            };
            return Phrase::Power { base: Phrase::Apply(call).boxed(), exponent: number(power).boxed() };
        }
        // `\tan^{-1}(y)`: the arctangent.
        let func = match app.inverse_name() {
            Some(inverse) => word(inverse),
            None => self.callee_name(app, d),
        };
        // `\mathbb{1}[x > 0]`, `\delta(y_i = j)`: the meaning layer applied the indicator to its
        // condition.
        if let ([condition], true) = (app.args.as_slice(), app.is_indicator()) {
            return Phrase::Indicator(self.shape(condition, d).boxed());
        }
        let mut args: Vec<Phrase> = app.args.iter().map(|a| super::nested(self.shape(a, d))).collect();
        if let (Some(_), [a, b]) = (divergence, args.as_slice()) {
            return Phrase::Divergence { func: func.boxed(), a: a.clone().boxed(), b: b.clone().boxed() };
        }
        if let Some(law) = self.law(app, d) {
            return law;
        }
        if args.contains(&Phrase::Dots) {
            args = vec![super::range_or_list(args)];
        }
        let array = app.callee.occurrence().is_some_and(|o| {
            matches!(o.kind, crate::meaning::SymbolKind::Matrix | crate::meaning::SymbolKind::Vector)
        });
        if array && app.given.is_empty() && app.over.is_none() {
            // `I(m, n)`, `\mathbf{x}(t)`: the meaning layer read an array at positions.
            let style = crate::speak::phrase::SubStyle::At;
            let at = if args.len() == 1 { args.pop().unwrap_or(Phrase::Empty) } else { Phrase::List(args) };
            return Phrase::Sub { base: func.boxed(), sub: at.boxed(), style };
        }
        let mut given: Vec<Phrase> = app.given.iter().map(|g| self.shape(g, d)).collect();
        let given = match given.len() {
            0 => None,
            1 => given.pop().map(Phrase::boxed),
            _ => Some(Phrase::List(given).boxed()),
        };
        let over = app.over.as_ref().map(|o| self.shape(o, d).boxed());
        // `\log_b(x)`: the base the meaning layer read below the name.
        let func = with_base(func, app.base.as_ref().map(|b| self.shape(b, d)));
        if probability {
            args = args.into_iter().map(stated).collect();
        }
        let mut call = Phrase::Apply(Apply { func: func.boxed(), key, probability, args, over, given });
        if let Some(sub) = &app.sub {
            let style = crate::speak::phrase::SubStyle::Entry;
            call = Phrase::Sub { base: call.boxed(), sub: self.sub_phrase(&sub.term, d).boxed(), style };
        }
        if let Some(sup) = &app.sup {
            call = self.operation(call, &app.callee, sup, d);
        }
        call
    }

    /// What is applied, as said: a divergence by its label, a name the meaning layer made, a
    /// letter the vocabulary reads as a function word, or the callee as written.
    pub(super) fn callee_name(&self, app: &Application, d: usize) -> Phrase {
        let occurrence = app.callee.occurrence();
        if let Some(label) = divergence_label(&app.callee) {
            return word(label);
        }
        match occurrence {
            // `P(x)` beside `D(P \parallel Q)`: the distribution P, said by its letter.
            Some(_) if app.named => self.shape(&app.callee, d),
            Some(o) if self.letter_function(&app.callee, o, !app.given.is_empty()) => word(&o.base_name),
            Some(o) if is_made_name(o) => word(&o.base_name),
            _ => self.shape(&app.callee, d),
        }
    }

    /// Capital letters that the vocabulary reads as functions (`O(n^2)`, `P(A)`), a loss letter
    /// (`L(\theta)`) and a calligraphic letter (`\mathcal{N}(0, I)`): said as their word, unless
    /// the document declared what they are.
    fn letter_function(
        &self,
        callee: &Term,
        occurrence: &crate::meaning::Occurrence,
        conditioned: bool,
    ) -> bool {
        let gives_set = occurrence.kind == crate::meaning::SymbolKind::Set;
        if occurrence.evidence == crate::meaning::Evidence::Declared
            || !occurrence.scripts.is_empty()
            || gives_set
        {
            return false;
        }
        let name = occurrence.base_name.as_str();
        let letter = name.len() == 1;
        let calligraphic =
            matches!(&callee.node.kind, NodeKind::Symbol { font: Font::Calligraphic | Font::Script, .. });
        // `O(o \mid s)`: a plain letter the meaning layer found applied to a condition is a law,
        // said by its letter, unless the letter is a probability's.
        if conditioned && !calligraphic && !self.vocab.is_probability(name) {
            return false;
        }
        (letter && (self.vocab.functions.contains_key(name) || self.vocab.roles.contains_key(name)))
            || calligraphic
    }

    /// An operator applied without parentheses: a gradient, an expectation, a differential, or
    /// a named function (`\log x`).
    pub(super) fn operator_term(&self, op: &OperatorApplication, d: usize) -> Phrase {
        let over = op.sub.as_ref().map(|s| self.shape(s, d).boxed());
        let body = self.shape(&op.operand, d).boxed();
        match op.name {
            "nabla" => Phrase::Gradient { second: op.is_second_order(), over, body },
            // `F(x) \Big|_{a}^{b}`, `\nabla f\big|_{\theta_0}`: evaluated at a point or between two limits.
            crate::meaning::EVALUATED => {
                let sup = op.sup.as_ref().map(|s| self.shape(s, d).boxed());
                match (over, sup) {
                    (Some(at), to) => Phrase::Evaluated { body, at, to },
                    (None, Some(at)) => Phrase::Evaluated { body, at, to: None },
                    (None, None) => *body,
                }
            }
            // `\mathbb{E}^{\pi}[G_t]`: with nothing below, the law named above is what it is over.
            "E" => {
                let over = over.or_else(|| op.sup.as_ref().map(|s| self.shape(s, d).boxed()));
                Phrase::Expectation { over, body }
            }
            // `\Pr(X > s)`, `P\{T > s + t \mid T > t\}`: the probability of the event its
            // parentheses hold, given what follows a bar, said as a call of a probability is.
            "Pr" => probability_of_event(*body, over),
            "partial" | "d" => {
                let order = match &op.sup {
                    None => Order::First,
                    Some(s) if s.node.span.text(self.source).trim() == "2" => Order::Second,
                    Some(s) => Order::Nth(self.shape(s, d).boxed()),
                };
                Phrase::Differential { partial: op.name == "partial", order, x: body }
            }
            // `\frac{d}{dx} f(x)`, `\frac{d^2}{dx^2} f(x)`: the meaning layer applied the
            // derivative to the product after it.
            "derivative" | "partial_derivative" => match over {
                Some(wrt) => {
                    let (order, wrt) = variable_and_order(*wrt);
                    let partial = op.name == "partial_derivative";
                    Phrase::Derivative { partial, order, of: Some(body), wrt: wrt.boxed() }
                }
                None => *body,
            },
            name => {
                // `\sin^{-1} x`: the arcsine.
                let name = op.inverse_name().unwrap_or(name);
                // `\log_2 p`: the base the meaning layer read below the name.
                let func = with_base(word(name), op.base.as_ref().map(|b| self.shape(b, d)));
                let applied = Phrase::Apply(Apply {
                    func: func.boxed(),
                    key: Some(name.to_string()),
                    probability: false,
                    args: vec![*body],
                    over,
                    given: None,
                });
                // `\sin^2 x`, `\log^2 Z`: a power written on a function's name raises its value.
                match op.value_power() {
                    Some(power) => Phrase::Power { base: applied.boxed(), exponent: number(power).boxed() },
                    None => applied,
                }
            }
        }
    }

    /// Whether a factor is a size, for `n \times d_k` read as "n by d k": a number, or a symbol
    /// the meaning layer calls a dimension (no letter list of its own).
    fn size_like(&self, term: &Term) -> bool {
        match &term.kind {
            TermKind::Number => true,
            TermKind::Symbol(occurrence) => occurrence.kind == SymbolKind::Dimension,
            _ => false,
        }
    }
}

/// `x / y` and `\frac{x}{y}`: a derivative, a fraction of numbers, or a division.
pub(super) fn division(num: Phrase, den: Phrase) -> Phrase {
    match (num, den) {
        (
            Phrase::Differential { partial, order, x: of },
            Phrase::Differential { partial: p2, x: wrt, .. },
        ) => {
            // `\frac{d^n f}{dx^n}`: the order written on the sign, with the variable under its
            // power below.
            let (order, wrt) = match variable_and_order((*wrt).clone()) {
                (found, variable) if found == order && order != Order::First => (order, variable),
                _ => (Order::First, *wrt),
            };
            Phrase::Derivative { partial: partial || p2, order, of: Some(of), wrt: wrt.boxed() }
        }
        // `\frac{\partial^2 f}{\partial x_i \partial x_j}`: a mixed second derivative.
        (Phrase::Differential { partial, order: Order::Second, x: of }, Phrase::Product(den))
            if den.len() == 2 && den.iter().all(|p| matches!(p, Phrase::Differential { .. })) =>
        {
            let variables = den.into_iter().filter_map(|p| {
                if let Phrase::Differential { x, .. } = p {
                    Some(*x)
                } else {
                    None
                }
            });
            Phrase::Derivative {
                partial,
                order: Order::Second,
                of: Some(of),
                wrt: Phrase::List(variables.collect()).boxed(),
            }
        }
        (sign, Phrase::Differential { partial, x: wrt, .. }) if is_sign(&sign) => {
            Phrase::Derivative { partial, order: Order::First, of: None, wrt }
        }
        // `\frac{d^2}{dx^2}`, `\frac{\partial^k}{\partial t^k}`: the meaning layer's sign raised to
        // an order alone over a differential, the variable below under the same power.
        (Phrase::Power { base, exponent }, Phrase::Differential { partial, x: wrt, .. })
            if is_sign(&base)
                && matches!(wrt.as_ref(), Phrase::Power { exponent: below, .. } if *below == exponent) =>
        {
            let (order, wrt) = variable_and_order(*wrt);
            let partial =
                partial || matches!(base.as_ref(), Phrase::Name(Name { key, .. }) if key == "partial");
            Phrase::Derivative { partial, order, of: None, wrt: wrt.boxed() }
        }
        (Phrase::Product(num), Phrase::Product(den)) if starts_with_d(&num) && starts_with_d(&den) => {
            let (of, wrt) = (after_d(num).boxed(), after_d(den).boxed());
            Phrase::Derivative { partial: false, order: Order::First, of: Some(of), wrt }
        }
        (num @ Phrase::Number(_), den) if den.is_atomic() => {
            Phrase::Fraction { num: num.boxed(), den: den.boxed() }
        }
        (num, den) => Phrase::Div { num: super::nested(num).boxed(), den: super::nested(den).boxed() },
    }
}

/// `i, j = 1` below a `\sum`: the variables i and j, all starting at 1 ("the sum over i and j
/// from 1 to V", never "over i, and j is 1").
fn index_list(over: &Phrase) -> Option<(Phrase, Phrase)> {
    let Phrase::Statements(items) = over else { return None };
    let (last, names) = items.split_last()?;
    let Phrase::Relation { first, rest } = last else { return None };
    let [(relation, from)] = rest.as_slice() else { return None };
    if relation != "=" || names.is_empty() || !names.iter().all(Phrase::is_atomic) || !first.is_atomic() {
        return None;
    }
    let vars = names.iter().cloned().chain(std::iter::once(first.as_ref().clone())).collect();
    Some((Phrase::List(vars), from.clone()))
}

/// Whether a product starts with the letter d (`dy` in `\frac{dy}{dx}`).
fn starts_with_d(factors: &[Phrase]) -> bool {
    factors.len() >= 2
        && matches!(factors.first(), Some(Phrase::Name(Name { key, class: NameClass::Letter })) if key == "d")
}

/// The factors after the d of `dy`.
fn after_d(factors: Vec<Phrase>) -> Phrase {
    let mut rest: Vec<Phrase> = factors.into_iter().skip(1).collect();
    match rest.len() {
        1 => rest.pop().unwrap_or(Phrase::Empty),
        _ => Phrase::Product(rest),
    }
}

/// `\frac{1}{N}` times the rest: a mean when the rest is a sum up to N (or without an upper
/// limit), otherwise the rest divided by N.
fn mean_or_division(rest: Phrase, den: Box<Phrase>) -> Phrase {
    match rest {
        Phrase::BigOp(mut big)
            if big.op == "sum" && big.mean_of.is_none() && big.to.as_ref().is_none_or(|to| *to == den) =>
        {
            big.mean_of = Some(den);
            Phrase::BigOp(big)
        }
        rest => Phrase::Div { num: rest.boxed(), den },
    }
}

/// `Q/K/V`: three or more capital letters between slashes are a list, as prose writes it.
fn slash_list(factors: &[Factor]) -> Option<Phrase> {
    let slashes =
        factors.iter().skip(1).all(|f| matches!(f.op, Some(InfixOp::Multiplicative(s)) if s == "/"));
    let capitals = factors.iter().all(|f| {
        matches!(&f.term.node.kind, NodeKind::Symbol { name, .. } if name.len() == 1 && name.starts_with(|c: char| c.is_ascii_uppercase()))
    });
    if factors.len() < 3 || !slashes || !capitals {
        return None;
    }
    let names = factors.iter().map(|f| {
        Phrase::Name(Name { key: binding_name(f.term.node).unwrap_or_default(), class: NameClass::Letter })
    });
    Some(Phrase::List(names.collect()))
}

/// Whether the meaning layer made a callee's name from more than one node: `\arg\max`.
fn is_made_name(occurrence: &crate::meaning::Occurrence) -> bool {
    match &occurrence.base.kind {
        NodeKind::Symbol { name, .. } => *name != occurrence.base_name,
        NodeKind::Word { text, .. } => *text != occurrence.base_name,
        _ => false,
    }
}

/// The label that names a divergence written as `D` with capitals below: `KL` of
/// `D_{\mathrm{KL}}` or `D_{KL}`, `JS` of `D_{JS}`.
pub(super) fn divergence_label<'t>(callee: &'t Term) -> Option<&'t str> {
    let occurrence = callee.occurrence()?;
    let label = occurrence.name.strip_prefix("D_").filter(|_| occurrence.base_name == "D")?;
    let capitals = (2..=4).contains(&label.len()) && label.chars().all(|c| c.is_ascii_uppercase());
    capitals.then_some(label)
}

/// Whether a phrase is a differential's sign said alone (`d`, `\partial`).
fn is_sign(phrase: &Phrase) -> bool {
    matches!(phrase, Phrase::Name(Name { key, .. }) if key == "partial" || key == "d")
}

/// The order a power on a differential's sign gives (`d^2`: the second; `d^n`: the n-th).
fn order_of(exponent: &Phrase) -> Order {
    if *exponent == Phrase::Number("2".into()) {
        Order::Second
    } else {
        Order::Nth(Box::new(exponent.clone()))
    }
}

/// `x^2` below a second derivative's sign (`dx^2`), `x^n` below an n-th one: the order and the
/// variable; any other variable as it is, of the first order.
fn variable_and_order(wrt: Phrase) -> (Order, Phrase) {
    match wrt {
        Phrase::Power { base, exponent } => (order_of(&exponent), *base),
        other => (Order::First, other),
    }
}

/// A product read as one operand of a sign: kept apart from the factors the sign joins to it.
fn operand(phrase: Phrase) -> Phrase {
    match phrase {
        Phrase::Product(_) => Phrase::Seq(vec![phrase]),
        other => other,
    }
}

/// A number node as said.
fn number(node: &crate::syntax::ast::Node) -> Phrase {
    Phrase::Number(crate::syntax::print::to_latex(node))
}

/// The probability of the event a group holds (its bracket taken off), given what follows its
/// bar.
fn probability_of_event(body: Phrase, over: Option<Box<Phrase>>) -> Phrase {
    let inner = match body {
        Phrase::Fence { body, .. } => *body,
        other => other,
    };
    let (event, given) = match inner {
        Phrase::Relation { first, mut rest }
            if rest.len() == 1 && rest.first().is_some_and(|(op, _)| op == "\\mid") =>
        {
            let given = rest.pop().map(|(_, g)| g.boxed());
            (*first, given)
        }
        other => (other, None),
    };
    Phrase::Apply(Apply {
        func: super::word("Pr").boxed(),
        key: Some("Pr".to_string()),
        probability: true,
        args: vec![stated(event)],
        over,
        given,
    })
}

/// `\Pr(N(t) = n)`: an equation in an event states what happens; it defines no function.
fn stated(event: Phrase) -> Phrase {
    match event {
        Phrase::Definition { name, params, body } => Phrase::Relation {
            first: Phrase::Apply(Apply {
                func: name,
                key: None,
                probability: false,
                args: params,
                over: None,
                given: None,
            })
            .boxed(),
            rest: vec![("=".to_string(), *body)],
        },
        other => other,
    }
}

/// `\log_2(p)`: a function's name with the base the meaning layer read below it, said as one
/// ("the log base 2").
fn with_base(func: Phrase, base: Option<Phrase>) -> Phrase {
    match base {
        Some(base) => Phrase::Sub { base: func.boxed(), sub: base.boxed(), style: SubStyle::Base },
        None => func,
    }
}
