//! Rows of factors and sums, read from the meaning layer's resolved tree: `QK^\top / \sqrt{d_k}`,
//! `\mathrm{softmax}(X)V`, `-\frac{1}{N}\sum_i \log p(x_i)`.
//!
//! What applies to what — the body of a `\sum`, the operand of `\log`, a call or a product, how
//! far a sign reaches — is [`crate::meaning::resolve`]'s decision; this file only chooses the
//! phrase: a mean (`\frac{1}{N}\sum`), a dot product, "n by d", plain scalars side by side.

use super::{word, Shaper, MAX_DEPTH};
use crate::meaning::tree::{infix_name, Application, BigOperator, Factor, Joint, OperatorApplication};
use crate::meaning::{binding_name, kind_of_term, relation_sides, Resolver, SymbolKind, Term, TermKind};
use crate::speak::phrase::{Apply, BigOp, Name, NameClass, Phrase};
use crate::syntax::ast::{Delim, Font, InfixOp, Node, NodeKind};

/// What joins the next factor group to what came before.
enum Join {
    Divide,
    Dot,
    Product,
    Shape,
    Word(String),
}

/// Letters that name sizes, for `n \times d` read as "n by d".
const SIZE_LETTERS: &[&str] = &["n", "m", "d", "N", "M", "T", "H", "B"];

/// Large operators whose subscript is a lower limit, not a variable.
const INTEGRALS: &[&str] = &["int", "iint", "iiint", "oint"];

impl Shaper<'_> {
    /// A row of factors or a sum (a chain of those levels), resolved first.
    pub(super) fn resolved_chain(&self, node: &Node, d: usize) -> Phrase {
        let term = Resolver::new(self.table).node(node);
        self.term_phrase(&term, d)
    }

    /// The phrase of a resolved term; terms that are exactly their syntax node and carry no
    /// decision of reach are read from the node.
    pub(super) fn term_phrase(&self, term: &Term, d: usize) -> Phrase {
        if d > MAX_DEPTH {
            return Phrase::Elided;
        }
        let d = d + 1;
        match &term.kind {
            TermKind::Product(factors) => {
                if let Some(list) = slash_list(factors) {
                    return list;
                }
                self.factors(factors, d)
            }
            TermKind::Chain { first, rest } if rest.iter().all(|j| matches!(j.op, InfixOp::Additive(_))) => {
                self.additive_terms(first, rest, d)
            }
            TermKind::BigOp(big) => self.big_op_term(big, d),
            TermKind::Apply(app) => self.apply_term(app, d),
            TermKind::Operator(op) => self.operator_term(op, d),
            TermKind::Sign { op, operand } => super::signed(*op, self.term_phrase(operand, d)),
            TermKind::Frac { num, den } => division(self.term_phrase(num, d), self.term_phrase(den, d)),
            TermKind::Sqrt { index, radicand } => Phrase::Sqrt {
                index: index.as_ref().map(|i| self.term_phrase(i, d).boxed()),
                body: super::nested(self.term_phrase(radicand, d)).boxed(),
            },
            TermKind::Wrapped(body) if term.span == term.node.span => self.term_phrase(body, d),
            TermKind::Fenced { open: open @ (Delim::Paren | Delim::Bracket), body } => {
                self.group_term(*open, term.node, body, d)
            }
            TermKind::Symbol(occurrence) if is_made_name(occurrence, term.node) => {
                if occurrence.base.span != term.node.span {
                    // An increment, `\Delta W`: said as written, one name.
                    return Phrase::Seq(vec![self.shape(occurrence.base, d), self.shape(term.node, d)]);
                }
                // A run of letters read as one name (`pos`, `PE_{…}`).
                let name = word(&occurrence.base_name);
                match occurrence.scripts.first() {
                    Some(script) => Phrase::Sub {
                        base: name.boxed(),
                        sub: self.sub_phrase(script.term.node, d).boxed(),
                        style: crate::speak::phrase::SubStyle::Index,
                    },
                    None => name,
                }
            }
            _ => self.shape(term.node, d),
        }
    }

    /// `(a + b)`, `[0, 1)`: a group, an interval, or what is inside.
    fn group_term(&self, open: Delim, node: &Node, body: &Term, d: usize) -> Phrase {
        let close = match &node.kind {
            NodeKind::Fenced { close, .. } => *close,
            _ => Some(open),
        };
        if let TermKind::Chain { first, rest } = &body.kind {
            if let ([joint], true) = (rest.as_slice(), close.is_some_and(|c| c != open)) {
                if matches!(joint.op, InfixOp::Separator(_)) {
                    let (a, b) = (self.term_phrase(first, d), self.term_phrase(&joint.term, d));
                    return Phrase::Interval(a.boxed(), b.boxed());
                }
            }
        }
        match self.term_phrase(body, d) {
            Phrase::Ops { first, rest, .. } => {
                let ops = Phrase::Ops { first, rest, nested: true };
                Phrase::Fence { fence: crate::speak::phrase::Fence::Group, body: ops.boxed() }
            }
            other => other,
        }
    }

    /// `a + b - c` in operator words; `x_1 + \dots + x_n` is the sum of a range.
    fn additive_terms(&self, first: &Term, rest: &[Joint], d: usize) -> Phrase {
        let first = self.term_phrase(first, d);
        let rest: Vec<(String, Phrase)> =
            rest.iter().map(|j| (infix_name(j.op).to_string(), self.term_phrase(&j.term, d))).collect();
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

    /// Reads a row of factors left to right.
    fn factors(&self, factors: &[Factor], d: usize) -> Phrase {
        let mut left: Option<(Phrase, Join)> = None;
        let mut group: Vec<Phrase> = Vec::new();
        let mut plain = true;
        let mut previous: Option<&Term> = None;
        for factor in factors {
            if let Some(InfixOp::Multiplicative(op)) = factor.op {
                let right = self.product(std::mem::take(&mut group), plain);
                let joined = self.combine(left.take(), right);
                left = Some((joined, self.join(op, previous, &factor.term)));
                plain = true;
            }
            plain &= self.is_plain_scalar(&factor.term);
            group.push(self.term_phrase(&factor.term, d));
            previous = Some(&factor.term);
        }
        let right = self.product(group, plain);
        self.combine(left, right)
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
        if let Some(Phrase::Fraction { num, den }) = group.first() {
            if matches!(num.as_ref(), Phrase::Number(n) if n == "1") {
                let den = den.clone();
                let rest = self.product(group.split_off(1), false);
                return mean_or_division(rest, den);
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
    fn big_op_term(&self, big: &BigOperator, d: usize) -> Phrase {
        let phrase = |t: &Option<Term>| t.as_ref().map(|t| self.term_phrase(t, d).boxed());
        let integral = INTEGRALS.contains(&big.name.as_str());
        let mut op = BigOp {
            op: big.name.clone(),
            var: phrase(&big.var).or_else(|| phrase(&big.differential)),
            from: phrase(&big.lower),
            to: phrase(&big.upper),
            over: phrase(&big.over),
            body: phrase(&big.body),
            mean_of: None,
        };
        if integral && op.to.is_none() && op.from.is_some() {
            op.over = op.from.take();
        }
        Phrase::BigOp(op)
    }

    /// A function applied: its name, what it ranges over, its arguments and condition, and the
    /// scripts on its argument group (`\mathrm{softmax}(z)_j`).
    fn apply_term(&self, app: &Application, d: usize) -> Phrase {
        let callee = app.callee.node;
        let occurrence = app.callee.occurrence();
        let divergence = divergence_label(callee);
        let key = match (divergence, occurrence) {
            (Some(label), _) => Some(label.to_string()),
            (None, Some(o)) => Some(o.base_name.to_string()),
            (None, None) => None,
        };
        let probability = key.as_deref().is_some_and(|k| self.vocab.is_probability(k));
        let func = match (&key, divergence) {
            (Some(name), Some(_)) => word(name),
            (Some(name), None) if self.letter_function(callee) => word(name),
            (Some(name), None) if occurrence.is_some_and(|o| is_made_name(o, callee)) => word(name),
            _ => self.shape(callee, d),
        };
        let mut args: Vec<Phrase> = app.args.iter().map(|a| super::nested(self.term_phrase(a, d))).collect();
        if args.contains(&Phrase::Dots) {
            args = vec![super::range_or_list(args)];
        }
        let mut given: Vec<Phrase> = app.given.iter().map(|g| self.term_phrase(g, d)).collect();
        let given = match given.len() {
            0 => None,
            1 => given.pop().map(Phrase::boxed),
            _ => Some(Phrase::List(given).boxed()),
        };
        let over = app.over.as_ref().map(|o| self.term_phrase(o, d).boxed());
        let mut call = Phrase::Apply(Apply { func: func.boxed(), key, probability, args, over, given });
        if let Some(sub) = &app.sub {
            let style = crate::speak::phrase::SubStyle::Entry;
            call = Phrase::Sub { base: call.boxed(), sub: self.sub_phrase(sub.term.node, d).boxed(), style };
        }
        if let Some(sup) = &app.sup {
            call = self.attach_sup(app.group, call, sup.term.node, d);
        }
        call
    }

    /// Capital letters that the vocabulary reads as functions (`O(n^2)`, `P(A)`), a loss letter
    /// (`L(\theta)`) and a calligraphic letter (`\mathcal{N}(0, I)`): said as their word.
    fn letter_function(&self, callee: &Node) -> bool {
        let Some(name) = binding_name(callee) else { return false };
        if self.table.recorded(&name).is_some() {
            return false;
        }
        let letter = name.len() == 1;
        let calligraphic =
            matches!(&callee.kind, NodeKind::Symbol { font: Font::Calligraphic | Font::Script, .. });
        (letter && (self.vocab.functions.contains_key(&name) || self.vocab.roles.contains_key(&name)))
            || calligraphic
    }

    /// An operator applied without parentheses: a gradient, an expectation, a differential, or
    /// a named function (`\log x`).
    fn operator_term(&self, op: &OperatorApplication, d: usize) -> Phrase {
        let over = op.sub.as_ref().map(|s| self.term_phrase(s, d).boxed());
        let body = self.term_phrase(&op.operand, d).boxed();
        match op.name {
            "nabla" => Phrase::Gradient { over, body },
            "E" => Phrase::Expectation { over, body },
            "partial" | "d" => Phrase::Differential { partial: op.name == "partial", x: body },
            name => Phrase::Apply(Apply {
                func: word(name).boxed(),
                key: Some(name.to_string()),
                probability: false,
                args: vec![*body],
                over,
                given: None,
            }),
        }
    }

    /// Whether the node is a large operator (the meaning layer's test).
    pub(super) fn is_big_op(&self, node: &Node) -> bool {
        crate::meaning::is_large_operator(node)
    }

    /// A large operator with its limits and body.
    pub(super) fn big_op(&self, node: &Node, body: Option<Phrase>, d: usize) -> Phrase {
        let (base, sub, sup) = match &node.kind {
            NodeKind::Scripts { base, sub, sup, .. } => (base.as_ref(), sub.as_deref(), sup.as_deref()),
            _ => (node, None, None),
        };
        let op = match &base.kind {
            NodeKind::LargeOp { name } => name.to_string(),
            NodeKind::Word { text, .. } => text.to_string(),
            _ => "sum".into(),
        };
        let mut big = BigOp {
            op,
            var: None,
            from: None,
            to: sup.map(|s| self.shape(s, d).boxed()),
            over: None,
            body: body.map(Phrase::boxed),
            mean_of: None,
        };
        if let Some(sub) = sub {
            if INTEGRALS.contains(&big.op.as_str()) && big.to.is_some() {
                big.from = Some(self.shape(sub, d).boxed());
            } else if let Some((var, from)) = relation_sides(sub, "=") {
                big.var = Some(self.shape(var, d).boxed());
                big.from = Some(self.shape(from, d).boxed());
            } else {
                big.over = Some(self.shape(sub, d).boxed());
            }
        }
        Phrase::BigOp(big)
    }

    /// Whether a factor is a size, for `n \times d_k` read as "n by d k".
    fn size_like(&self, term: &Term) -> bool {
        match &term.kind {
            TermKind::Number => true,
            TermKind::Symbol(occurrence) => {
                occurrence.kind == SymbolKind::Dimension || SIZE_LETTERS.contains(&occurrence.name.as_str())
            }
            _ => false,
        }
    }
}

/// `x / y` and `\frac{x}{y}`: a derivative, a fraction of numbers, or a division.
pub(super) fn division(num: Phrase, den: Phrase) -> Phrase {
    match (num, den) {
        (Phrase::Differential { partial, x: of }, Phrase::Differential { partial: p2, x: wrt }) => {
            Phrase::Derivative { partial: partial || p2, of: Some(of), wrt }
        }
        (Phrase::Name(Name { key, .. }), Phrase::Differential { partial, x: wrt })
            if key == "partial" || key == "d" =>
        {
            Phrase::Derivative { partial, of: None, wrt }
        }
        (Phrase::Product(num), Phrase::Product(den)) if starts_with_d(&num) && starts_with_d(&den) => {
            Phrase::Derivative { partial: false, of: Some(after_d(num).boxed()), wrt: after_d(den).boxed() }
        }
        (num @ Phrase::Number(_), den) if den.is_atomic() => {
            Phrase::Fraction { num: num.boxed(), den: den.boxed() }
        }
        (num, den) => Phrase::Div { num: super::nested(num).boxed(), den: super::nested(den).boxed() },
    }
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

/// Whether the meaning layer made the occurrence's name from more than its node: a run of
/// italic letters (`pos`), an increment (`\Delta W`).
fn is_made_name(occurrence: &crate::meaning::Occurrence, node: &Node) -> bool {
    let NodeKind::Symbol { name, .. } = &node.kind else { return false };
    *name != occurrence.base_name
}

/// The label that names a divergence written as `D` with a word below: `KL` of `D_{\mathrm{KL}}`.
fn divergence_label(node: &Node) -> Option<&str> {
    let NodeKind::Scripts { base, sub: Some(sub), sup: None, primes: 0 } = &node.kind else { return None };
    let NodeKind::Word { text, .. } = &sub.kind else { return None };
    matches!(&base.kind, NodeKind::Symbol { name, .. } if name == "D").then_some(text.as_str())
}
