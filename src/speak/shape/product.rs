//! Rows of factors: `QK^\top / \sqrt{d_k}`, `\mathrm{softmax}(X)V`, `-\frac{1}{N}\sum_i \log
//! p(x_i)`.
//!
//! A multiplicative chain mixes side-by-side factors with explicit operators (`/`, `\cdot`,
//! `\times`), read left to right. Within it a large operator (`\sum_i`, `\max_x`) takes
//! everything after it as its body, an operator name without parentheses (`\log`, `\nabla`,
//! `\mathbb{E}`) takes the next factor, and a function followed by a parenthesis is a call
//! when [`crate::meaning::is_call`] says so. A leading minus covers the whole row.

use super::{word, Shaper, MAX_DEPTH};
use crate::meaning::{base_name, binding_name, is_call, kind_of, list_items, relation_sides, SymbolKind};
use crate::speak::phrase::{Apply, BigOp, Name, NameClass, Phrase};
use crate::syntax::ast::{Font, InfixOp, Link, Node, NodeKind, PrefixOp, WordStyle};

/// One factor of a row, with the operator before it (`None` for the first).
type Item<'n> = (Option<&'n InfixOp>, &'n Node);

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
    /// A multiplicative chain.
    pub(super) fn product_chain(&self, first: &Node, rest: &[Link], d: usize) -> Phrase {
        let items: Vec<Item> =
            std::iter::once((None, first)).chain(rest.iter().map(|l| (Some(&l.op), &l.operand))).collect();
        if let Some(list) = slash_list(&items) {
            return list;
        }
        self.factors(&items, d)
    }

    /// Reads a row of items left to right.
    fn factors(&self, items: &[Item], d: usize) -> Phrase {
        if d > MAX_DEPTH {
            return Phrase::Elided;
        }
        if let Some(hoisted) = hoist_minus(items) {
            return Phrase::Neg(self.factors(&hoisted, d + 1).boxed());
        }
        let mut left: Option<(Phrase, Join)> = None;
        let mut group: Vec<Phrase> = Vec::new();
        let mut plain = true;
        let mut i = 0;
        while let Some((link, node)) = items.get(i) {
            if let Some(InfixOp::Multiplicative(op)) = link {
                let previous = items.get(i.wrapping_sub(1)).map(|(_, n)| *n);
                let right = self.product(std::mem::take(&mut group), plain);
                let joined = self.combine(left.take(), right);
                left = Some((joined, self.join(op, previous, node)));
                plain = true;
            }
            let (factor, used) = self.factor(items, i, d + 1);
            plain &= used == 1 && self.is_plain_scalar(node);
            group.push(factor);
            i += used.max(1);
        }
        let right = self.product(group, plain);
        self.combine(left, right)
    }

    /// How `op` joins the factors around it.
    fn join(&self, op: &str, previous: Option<&Node>, next: &Node) -> Join {
        let both = |test: &dyn Fn(&Node) -> bool| previous.is_some_and(test) && test(next);
        match op {
            "/" => Join::Divide,
            "\\cdot" if both(&|n| self.vector_like(n)) => Join::Dot,
            "\\cdot" => Join::Product,
            "\\times" if both(&|n| self.size_like(n)) => Join::Shape,
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

    /// The factor at `items[i]` and how many items it used.
    fn factor(&self, items: &[Item], i: usize, d: usize) -> (Phrase, usize) {
        let remaining = items.len().saturating_sub(i);
        let Some((_, node)) = items.get(i) else { return (Phrase::Empty, 1) };
        if d > MAX_DEPTH {
            return (Phrase::Elided, remaining);
        }
        if self.is_big_op(node) {
            return (self.big_op_in_row(node, items.get(i + 1..).unwrap_or(&[]), d), remaining);
        }
        let next = items.get(i + 1).filter(|(op, _)| matches!(op, Some(InfixOp::Juxt)));
        if let (Some((_, after)), NodeKind::Word { text, .. }) = (next, &node.kind) {
            if text == "arg" && self.is_big_op(after) {
                let (mut phrase, used) = self.factor(items, i + 1, d + 1);
                if let Phrase::BigOp(big) = &mut phrase {
                    big.op = format!("arg{}", big.op);
                }
                return (phrase, 1 + used);
            }
        }
        if let Some((_, argument)) = next {
            if let Some(call) = self.try_call(node, argument, d) {
                return (call, 2);
            }
            if self.is_prefix_operator(node) {
                let (argument, used) = self.factor(items, i + 1, d + 1);
                return (self.prefix_operator(node, argument, d), 1 + used);
            }
        }
        (self.shape(node, d), 1)
    }

    /// A large operator in a row: the rest of the row is its body; an integral's closing
    /// `dx` names its variable.
    fn big_op_in_row(&self, node: &Node, rest: &[Item], d: usize) -> Phrase {
        let (rest, variable) = match rest {
            [body @ .., (_, dee), (Some(InfixOp::Juxt), var)] if is_dee(dee) && self.is_integral(node) => {
                (body, Some(self.shape(var, d).boxed()))
            }
            _ => (rest, None),
        };
        let body = Some(rest).filter(|r| !r.is_empty()).map(|r| self.body(r, d));
        let mut phrase = self.big_op(node, body, d);
        if let (Phrase::BigOp(big), Some(var)) = (&mut phrase, variable) {
            big.var = Some(var);
        }
        phrase
    }

    fn is_integral(&self, node: &Node) -> bool {
        let base = match &node.kind {
            NodeKind::Scripts { base, .. } => base.as_ref(),
            _ => node,
        };
        matches!(&base.kind, NodeKind::LargeOp { name } if INTEGRALS.contains(&name.as_str()))
    }

    /// Whether a factor is a plain scalar (`2`, `\pi`, `r`): a row of them reads side by side
    /// ("2 pi r") rather than as "the product of …".
    fn is_plain_scalar(&self, node: &Node) -> bool {
        let plain = match &node.kind {
            NodeKind::Number { font: Font::Normal, .. } => true,
            NodeKind::Symbol { name, font: Font::Normal } => {
                !name.starts_with(|c: char| c.is_ascii_uppercase())
            }
            _ => false,
        };
        plain
            && matches!(
                kind_of(node, self.table),
                SymbolKind::Scalar | SymbolKind::Dimension | SymbolKind::Index
            )
    }

    /// The body of a large operator: the rest of the row.
    fn body(&self, rest: &[Item], d: usize) -> Phrase {
        let mut rest = rest.to_vec();
        if let Some(first) = rest.first_mut() {
            first.0 = None;
        }
        self.factors(&rest, d + 1)
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

    /// `callee(…)` as a call, or `None` when it is a product. The parenthesis may carry scripts:
    /// `\mathrm{softmax}(z)_j`.
    fn try_call(&self, callee: &Node, argument: &Node, d: usize) -> Option<Phrase> {
        let (fenced, sub, sup) = match &argument.kind {
            NodeKind::Scripts { base, sub, sup, primes: 0 } => {
                (base.as_ref(), sub.as_deref(), sup.as_deref())
            }
            _ => (argument, None, None),
        };
        if !is_call(callee, argument, self.table) {
            return None;
        }
        let mut call = self.call(callee, fenced, d);
        if let Some(sub) = sub {
            let style = crate::speak::phrase::SubStyle::Entry;
            call = Phrase::Sub { base: call.boxed(), sub: self.sub_phrase(sub, d).boxed(), style };
        }
        if let Some(sup) = sup {
            call = self.attach_sup(argument, call, sup, d);
        }
        Some(call)
    }

    /// Capital letters that the vocabulary reads as functions when a parenthesis follows and
    /// nothing declared them otherwise: `O(n^2)`, `P(A)`.
    ///
    /// So are a loss letter (`L(\theta)`, from the vocabulary's roles), a calligraphic letter
    /// (`\mathcal{N}(0, I)`) and a capital with a word below it (`D_{\mathrm{KL}}(q \| p)`).
    fn letter_function(&self, callee: &Node, fenced: &Node) -> bool {
        let paren = matches!(fenced.kind, NodeKind::Fenced { open: crate::syntax::ast::Delim::Paren, .. });
        let Some(name) = binding_name(callee) else { return false };
        if !paren || self.table.recorded(&name).is_some() {
            return false;
        }
        let letter = name.len() == 1;
        let calligraphic =
            matches!(&callee.kind, NodeKind::Symbol { font: Font::Calligraphic | Font::Script, .. });
        (letter && (self.vocab.functions.contains_key(&name) || self.vocab.roles.contains_key(&name)))
            || calligraphic
            || is_divergence(callee)
    }

    /// A call: the function, what it ranges over (`softmax_j`), its arguments and condition.
    fn call(&self, callee: &Node, fenced: &Node, d: usize) -> Phrase {
        let (func_node, over) = match &callee.kind {
            NodeKind::Scripts { base, sub: Some(sub), sup: None, primes: 0 }
                if matches!(base.kind, NodeKind::Word { .. }) =>
            {
                (base.as_ref(), Some(self.shape(sub, d).boxed()))
            }
            // D_{KL}: the divergence is named by its subscript.
            NodeKind::Scripts { sub: Some(sub), .. } if is_divergence(callee) => (sub.as_ref(), None),
            _ => (callee, None),
        };
        let key = base_name(func_node);
        let probability = key.as_deref().is_some_and(|k| self.vocab.is_probability(k));
        let body = match &fenced.kind {
            NodeKind::Fenced { body, .. } => body.as_ref(),
            _ => fenced,
        };
        let (args, given) = self.arguments(body, d);
        let func = match &key {
            Some(name) if self.letter_function(callee, fenced) => word(name),
            _ => self.shape(func_node, d),
        };
        Phrase::Apply(Apply { func: func.boxed(), key, probability, args, over, given })
    }

    /// The arguments of a call, and the condition after `\mid`.
    fn arguments(&self, body: &Node, d: usize) -> (Vec<Phrase>, Option<Box<Phrase>>) {
        let mut args = Vec::new();
        let mut given: Vec<Phrase> = Vec::new();
        for item in list_items(body) {
            if !given.is_empty() {
                given.push(self.shape(item, d));
            } else if let Some((event, condition)) = relation_sides(item, "\\mid") {
                args.push(self.shape(event, d));
                given.push(self.shape(condition, d));
            } else {
                args.push(super::nested(self.shape(item, d)));
            }
        }
        let given = match given.len() {
            0 => None,
            1 => given.pop().map(Phrase::boxed),
            _ => Some(Phrase::List(given).boxed()),
        };
        if args.contains(&Phrase::Dots) {
            args = vec![super::range_or_list(args)];
        }
        (args, given)
    }

    /// Whether the node is a large operator: `\sum`, `\sum_i^N`, `\max_x`, `\operatorname*{argmax}_\theta`.
    pub(super) fn is_big_op(&self, node: &Node) -> bool {
        match &node.kind {
            NodeKind::LargeOp { .. } => true,
            NodeKind::Scripts { base, sub, .. } => match &base.kind {
                NodeKind::LargeOp { .. } => true,
                NodeKind::Word { style: WordStyle::OperatorLimits, .. } => sub.is_some(),
                _ => false,
            },
            _ => false,
        }
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

    /// Whether the node applies to the factor after it without parentheses: `\log x`,
    /// `\nabla_\theta L`, `\mathbb{E}[X]`, `\partial L`.
    fn is_prefix_operator(&self, node: &Node) -> bool {
        match &node.kind {
            NodeKind::Word { style, text } => {
                !matches!(style, WordStyle::Text) || self.vocab.functions.contains_key(text.as_str())
            }
            NodeKind::Symbol { name, font } => is_operator_symbol(name, *font),
            NodeKind::Scripts { base, sup: None, .. } => match &base.kind {
                NodeKind::Word { style, .. } => !matches!(style, WordStyle::Text),
                NodeKind::Symbol { name, font } => {
                    matches!(name.as_str(), "nabla") || (name == "E" && *font == Font::Blackboard)
                }
                _ => false,
            },
            _ => false,
        }
    }

    /// The phrase of a prefix operator applied to `argument`.
    fn prefix_operator(&self, node: &Node, argument: Phrase, d: usize) -> Phrase {
        let (base, sub) = match &node.kind {
            NodeKind::Scripts { base, sub, .. } => (base.as_ref(), sub.as_deref()),
            _ => (node, None),
        };
        let over = sub.map(|s| self.shape(s, d).boxed());
        let body = argument.boxed();
        match &base.kind {
            NodeKind::Symbol { name, .. } if name == "nabla" => Phrase::Gradient { over, body },
            NodeKind::Symbol { name, .. } if name == "E" => Phrase::Expectation { over, body },
            NodeKind::Symbol { name, .. } => Phrase::Differential { partial: name == "partial", x: body },
            NodeKind::Word { text, .. } => Phrase::Apply(Apply {
                func: word(text).boxed(),
                key: Some(text.to_string()),
                probability: false,
                args: vec![*body],
                over,
                given: None,
            }),
            _ => Phrase::Product(vec![self.shape(node, d), *body]),
        }
    }

    /// Whether a `\cdot` next to this node is a dot product: a vector, or a lower-case letter
    /// with an index (`q_i`).
    fn vector_like(&self, node: &Node) -> bool {
        let node = unwrap_annotation(node);
        if kind_of(node, self.table) == SymbolKind::Vector {
            return true;
        }
        match &node.kind {
            NodeKind::Scripts { base, sub: Some(_), sup: None, .. } => {
                matches!(&base.kind, NodeKind::Symbol { name, .. } if name.starts_with(|c: char| c.is_lowercase()))
                    && kind_of(base, self.table) != SymbolKind::Function
            }
            _ => false,
        }
    }

    /// Whether the node is a size, for `n \times d_k` read as "n by d k".
    fn size_like(&self, node: &Node) -> bool {
        if matches!(node.kind, NodeKind::Number { .. }) {
            return true;
        }
        let Some(name) = binding_name(node) else { return false };
        self.table.recorded(&name) == Some(SymbolKind::Dimension)
            || SIZE_LETTERS.contains(&name.as_str())
            || name.starts_with("d_")
            || name.starts_with("n_")
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

/// The row without its leading minus, when it has one and more than one item.
fn hoist_minus<'n>(items: &[Item<'n>]) -> Option<Vec<Item<'n>>> {
    let ((op, first), tail) = items.split_first()?;
    let NodeKind::Prefix { op: PrefixOp::Minus, operand } = &first.kind else { return None };
    if tail.is_empty() {
        return None;
    }
    Some(std::iter::once((*op, operand.as_ref())).chain(tail.iter().copied()).collect())
}

/// `Q/K/V`: three or more capital letters between slashes are a list, as prose writes it.
fn slash_list(items: &[Item]) -> Option<Phrase> {
    let slashes =
        items.iter().skip(1).all(|(op, _)| matches!(op, Some(InfixOp::Multiplicative(s)) if s == "/"));
    let capitals = items.iter().all(|(_, n)| {
        matches!(&n.kind, NodeKind::Symbol { name, .. } if name.len() == 1 && name.starts_with(|c: char| c.is_ascii_uppercase()))
    });
    if items.len() < 3 || !slashes || !capitals {
        return None;
    }
    let names =
        items.iter().map(|(_, n)| Phrase::Name(Name { key: op_name_of(n), class: NameClass::Letter }));
    Some(Phrase::List(names.collect()))
}

fn op_name_of(node: &Node) -> String {
    binding_name(node).unwrap_or_default()
}

/// Whether a node is a divergence named by its subscript: `D_{\mathrm{KL}}`.
fn is_divergence(node: &Node) -> bool {
    let NodeKind::Scripts { base, sub: Some(sub), sup: None, primes: 0 } = &node.kind else { return false };
    matches!(sub.kind, NodeKind::Word { .. })
        && matches!(&base.kind, NodeKind::Symbol { name, .. } if name == "D")
}

/// Whether a node is the d of `dx`.
fn is_dee(node: &Node) -> bool {
    matches!(&node.kind, NodeKind::Symbol { name, font: Font::Normal | Font::Roman } if name == "d")
}

/// Symbols that apply to the next factor: `\nabla`, `\partial`, `\mathrm{d}`, `\mathbb{E}`.
fn is_operator_symbol(name: &str, font: Font) -> bool {
    match name {
        "nabla" | "partial" => true,
        "d" => font == Font::Roman,
        "E" => font == Font::Blackboard,
        _ => false,
    }
}

/// The body under an `\underbrace` or `\overbrace`.
fn unwrap_annotation(node: &Node) -> &Node {
    match &node.kind {
        NodeKind::Annotated { body, .. } => body,
        _ => node,
    }
}
