//! Lowering: the syntax tree of a formula → the evaluator's [`Expr`] tree.
//!
//! What applies to what and how far each operator reaches is the meaning layer's decision
//! ([`crate::meaning::resolve`]): a node is resolved first and its [`Term`] lowered, so a call,
//! the body of a `\sum` or `\max_j`, the operand of `\log` and the reach of a sign are those
//! that the slot map and the reading show. What only evaluation knows is decided here (names
//! and their scripts in [`names`], functions with a range or a base in [`over`]):
//!
//! - a subscript is part of a name when the name is bound (`W_Q`), indexing when it holds
//!   index letters (`Q_{it}`, `x_i`), a family member for a family (`\text{head}_1`);
//! - a superscript is a transpose (`^\top`, `^T`), a family member (`W_Q^h`), `e^{x}` is
//!   `\exp`, anything else a power; one the meaning layer calls an index picks from the
//!   labelled name (`\eta_{min}^i` is entry i of `eta_min`);
//! - a family member (`W_h^Q`, `V_t^{targ}`) whose index the formula binds is picked from the
//!   family (`W_Q`, `V_targ`), which is what is missing when it has no value;
//! - a callee is a built-in (`\mathrm{softmax}`, `\log`) or a function defined earlier.

use super::errors::{EvalError, EvalErrorKind};
use super::expr::{BinOp, Builtin, DimLabel, Expr, ExprKind, NormOrder, ReduceOp, Reduction};
use crate::meaning::tree::{Application, BigOperator, Factor, Joint, OperatorApplication};
use crate::meaning::{binding_name, Resolver, SymbolKind, SymbolTable, Term, TermKind};
use crate::syntax::ast::{Delim, Font, InfixOp, Node, NodeKind, PrefixOp, Span};

/// The most operators of a flat sum or product lowered as nested binary nodes, left to right
/// as written; a longer sum is lowered as a balanced tree (see [`Lowerer::balanced_sum`]), a
/// longer product as one [`ExprKind::Fold`], computed left to right in a loop (matrices do not
/// commute, and `/` and products of vectors do not regroup).
const FLAT_CHAIN: usize = 64;

mod names;
mod over;

/// What is known where a formula is read.
pub struct Context<'a> {
    /// Kinds and declared shapes.
    pub table: &'a SymbolTable,
    /// Whether a name has (or will get) a value: bound, declared, a parameter.
    pub is_value: &'a dyn Fn(&str) -> bool,
    /// Whether a name is a family (bound array of matrices, or defined with an index).
    pub is_family: &'a dyn Fn(&str) -> bool,
    /// Whether a name is a function defined earlier.
    pub is_function: &'a dyn Fn(&str) -> bool,
    /// The nesting limit (`--max-depth`, counted by the rule of [`crate::syntax::depth`]): a
    /// resolved tree, or an evaluator tree, deeper than it is refused rather than overflowing
    /// the stack (see [`super::statement::lower_statement`]).
    pub max_depth: usize,
}

/// Turns syntax nodes into [`Expr`]s, numbering them.
pub struct Lowerer<'a> {
    ctx: Context<'a>,
    next_id: usize,
    /// Names bound inside the formula: parameters, indices of sums and families.
    locals: Vec<String>,
    depth: usize,
}

type Lowered = Result<Expr, EvalError>;

fn unsupported(what: &str, span: Span) -> EvalError {
    EvalError::new(EvalErrorKind::Unsupported { what: what.to_string() }, span)
}

impl<'a> Lowerer<'a> {
    /// A lowerer reading in `ctx`, with `locals` (parameters) bound.
    pub fn new(ctx: Context<'a>, locals: Vec<String>) -> Self {
        Lowerer { ctx, next_id: 0, locals, depth: 0 }
    }

    /// The context it reads in.
    pub fn context(&self) -> &Context<'a> {
        &self.ctx
    }

    fn make(&mut self, kind: ExprKind, span: Span) -> Expr {
        self.next_id += 1;
        Expr { kind, span, id: self.next_id }
    }

    fn is_known(&self, name: &str) -> bool {
        self.locals.iter().any(|l| l == name) || (self.ctx.is_value)(name)
    }

    /// Lowers one node: resolved by the meaning layer, then its term lowered.
    pub fn lower(&mut self, node: &Node) -> Lowered {
        let term = Resolver::new(self.ctx.table).node(node);
        self.term(&term)
    }

    /// Lowers one term of a formula the meaning layer resolved.
    pub fn lower_term(&mut self, term: &Term) -> Lowered {
        self.term(term)
    }

    /// Lowers one resolved term. `depth` counts the terms above it, each a level (it holds
    /// others); the term is one more level if it holds others too.
    fn term(&mut self, term: &Term) -> Lowered {
        if self.depth >= self.ctx.max_depth && holds_others(term) {
            return Err(EvalError::new(EvalErrorKind::TooNested { limit: self.ctx.max_depth }, term.span));
        }
        self.depth += 1;
        let result = self.term_inner(term);
        self.depth -= 1;
        result
    }

    fn term_inner(&mut self, term: &Term) -> Lowered {
        let span = term.span;
        let boxed = |this: &mut Self, t: &Term| this.term(t).map(Box::new);
        match &term.kind {
            TermKind::Number | TermKind::Leaf => self.leaf(term.node),
            TermKind::Symbol(occurrence) => self.occurrence(term, occurrence),
            TermKind::Scripted { base, sub, sup, primes } => {
                if *primes > 0 {
                    return Err(unsupported(&format!("{}'", node_label(base.node)), span));
                }
                self.scripted(base, sub.as_ref(), sup.as_ref(), span)
            }
            TermKind::Apply(app) => self.apply_term(app, span),
            TermKind::Operator(op) => self.operator(op, span),
            TermKind::BigOp(big) => self.reduction(big, span),
            TermKind::Product(factors) => self.product(factors),
            TermKind::Sign { op: PrefixOp::Minus, operand } => {
                let inner = boxed(self, operand)?;
                Ok(self.make(ExprKind::Neg(inner), span))
            }
            TermKind::Sign { op: PrefixOp::Plus, operand } => self.term(operand),
            TermKind::Sign { .. } => Err(unsupported(&node_label(term.node), span)),
            TermKind::Chain { first, rest } => self.chain(first, rest, span),
            TermKind::Frac { num, den } => {
                let (n, d) = (boxed(self, num)?, boxed(self, den)?);
                Ok(self.make(ExprKind::Binary(BinOp::Div, n, d), span))
            }
            TermKind::Sqrt { index: None, radicand } => {
                let r = self.term(radicand)?;
                Ok(self.make(ExprKind::Call(Builtin::Sqrt, vec![r]), span))
            }
            TermKind::Sqrt { index: Some(index), radicand } => {
                let (r, i) = (boxed(self, radicand)?, boxed(self, index)?);
                let one = self.make(ExprKind::Number(1.0), index.span);
                let exponent = self.make(ExprKind::Binary(BinOp::Div, Box::new(one), i), index.span);
                Ok(self.make(ExprKind::Power(r, Box::new(exponent)), span))
            }
            TermKind::Wrapped(body) => self.term(body),
            TermKind::Fenced { open, body } => self.fenced(term, *open, body, span),
            TermKind::Annotated { body, label } => self.annotated(body, label.as_deref(), span),
            TermKind::Rows(rows) if term.node.environment().is_some_and(|env| env.ends_with("matrix")) => {
                self.matrix(rows, span)
            }
            TermKind::Accent { .. }
            | TermKind::Binom { .. }
            | TermKind::Factorial(_)
            | TermKind::Rows(_)
            | TermKind::Interval { .. } => Err(unsupported(&node_label(term.node), span)),
            // Words of prose inside a value (`P(X = 1 \textrm{ and } Y = 3)`): the first word is
            // what cannot be computed.
            TermKind::Prose(clauses) => {
                let words = clauses.iter().find_map(|c| c.words.as_ref()).map_or(term.node, |w| w.node);
                Err(unsupported(&node_label(words), words.span))
            }
        }
    }

    /// A number, a constant written as a command (`\infty`), or something with nothing to compute.
    fn leaf(&mut self, node: &Node) -> Lowered {
        let span = node.span;
        match &node.kind {
            NodeKind::Number { font: Font::Bold | Font::Blackboard, text } if text == "1" => {
                Ok(self.make(ExprKind::Ones, span))
            }
            NodeKind::Number { text, .. } => match text.parse::<f64>() {
                Ok(x) => Ok(self.make(ExprKind::Number(x), span)),
                Err(_) => Err(unsupported(text, span)),
            },
            NodeKind::Symbol { .. } => self.symbol(node, SymbolKind::Scalar),
            NodeKind::Empty => Err(EvalError::new(EvalErrorKind::NothingToEvaluate, span)),
            NodeKind::Word { text, .. } => Err(unsupported(&format!("{text} without an argument"), span)),
            _ => Err(unsupported(&node_label(node), span)),
        }
    }

    fn fenced(&mut self, term: &Term, open: Delim, body: &Term, span: Span) -> Lowered {
        match open {
            Delim::Paren | Delim::Bracket | Delim::Brace => {
                if matches!(&body.kind, TermKind::Chain { rest, .. } if rest.iter().any(|j| matches!(j.op, InfixOp::Separator(_))))
                {
                    return Err(unsupported("a list outside a call", span));
                }
                self.term(body)
            }
            Delim::DoubleBar => {
                let inner = self.term(body)?;
                Ok(self.make(ExprKind::Norm(Box::new(inner), NormOrder::Two { written: false }), span))
            }
            Delim::Bar => self.call_with(Builtin::Abs, body, span),
            Delim::Floor => self.call_with(Builtin::Floor, body, span),
            Delim::Ceil => self.call_with(Builtin::Ceil, body, span),
            // `\langle a, b \rangle`, `\langle a | b \rangle`: the sides the meaning layer read.
            Delim::Angle => match term.inner_product_sides() {
                Some((first, second)) => {
                    let (a, b) = (self.term(first)?, self.term(second)?);
                    Ok(self.make(ExprKind::Binary(BinOp::Mul, Box::new(a), Box::new(b)), span))
                }
                None => Err(unsupported("⟨…⟩ without two entries", span)),
            },
            _ => Err(unsupported("this bracket", span)),
        }
    }

    fn call_with(&mut self, builtin: Builtin, body: &Term, span: Span) -> Lowered {
        let inner = self.term(body)?;
        Ok(self.make(ExprKind::Call(builtin, vec![inner]), span))
    }

    fn annotated(&mut self, body: &Term, label: Option<&Term>, span: Span) -> Lowered {
        let inner = self.term(body)?;
        let dims = match label.and_then(|l| crate::meaning::real_space_dims(&wrap_reals(l.node))) {
            Some(dims) => dims.iter().map(dim_label).collect::<Option<Vec<_>>>(),
            None => None,
        };
        match dims {
            Some(dims) if !dims.is_empty() => Ok(self.make(ExprKind::Annotated(Box::new(inner), dims), span)),
            _ => Ok(inner),
        }
    }

    fn matrix(&mut self, rows: &[Vec<Term>], span: Span) -> Lowered {
        let mut out = Vec::with_capacity(rows.len());
        for row in rows.iter().filter(|r| !r.iter().all(|c| matches!(c.node.kind, NodeKind::Empty))) {
            out.push(row.iter().map(|cell| self.term(cell)).collect::<Result<Vec<_>, _>>()?);
        }
        Ok(self.make(ExprKind::Matrix(out), span))
    }

    /// Operands joined by additive operators (relations and lists are not values).
    fn chain(&mut self, first: &Term, rest: &[Joint], span: Span) -> Lowered {
        let mut acc = self.term(first)?;
        let mut terms = Vec::new();
        for joint in rest {
            let op = match joint.op {
                InfixOp::Additive(op) if op == "+" => BinOp::Add,
                InfixOp::Additive(op) if op == "-" => BinOp::Sub,
                InfixOp::Additive(op) => return Err(unsupported(op, joint.op_span)),
                InfixOp::Separator(_) => return Err(unsupported("a list", span)),
                InfixOp::Relation(r) => return Err(unsupported(r, joint.op_span)),
                InfixOp::Stacked(stacked) => return Err(unsupported(&stacked.relation, joint.op_span)),
                _ => return Err(unsupported("mixed operators", joint.op_span)),
            };
            let rhs = self.term(&joint.term)?;
            if rest.len() > FLAT_CHAIN {
                terms.push((op == BinOp::Sub, rhs));
                continue;
            }
            let span = acc.span.join(rhs.span);
            acc = self.make(ExprKind::Binary(op, Box::new(acc), Box::new(rhs)), span);
        }
        if terms.is_empty() {
            return Ok(acc);
        }
        let mut all = vec![(false, acc)];
        all.extend(terms);
        Ok(self.balanced_sum(all))
    }

    /// The sum of `terms` (each subtracted when its flag says so; the first is added) as a
    /// balanced tree, so that a long flat sum nests only logarithmically deep: a flat chain is
    /// no nesting, and the evaluator, which recurses, must not be refused it as too deep.
    fn balanced_sum(&mut self, mut terms: Vec<(bool, Expr)>) -> Expr {
        if terms.len() == 1 {
            if let Some((negated, term)) = terms.pop() {
                if !negated {
                    return term;
                }
                let span = term.span;
                return self.make(ExprKind::Neg(Box::new(term)), span);
            }
        }
        let right = terms.split_off(terms.len() / 2);
        let subtract = right.first().is_some_and(|(negated, _)| *negated);
        // a - (b ∓ c…) = a - b ± c…: the right half's signs flip when it is subtracted whole.
        let right: Vec<(bool, Expr)> =
            right.into_iter().map(|(negated, term)| (negated != subtract, term)).collect();
        let (left, right) = (self.balanced_sum(terms), self.balanced_sum(right));
        let span = left.span.join(right.span);
        let op = if subtract { BinOp::Sub } else { BinOp::Add };
        self.make(ExprKind::Binary(op, Box::new(left), Box::new(right)), span)
    }

    /// Factors, left to right: nested binary nodes, or past [`FLAT_CHAIN`] operators one
    /// [`ExprKind::Fold`] that computes the same steps in a loop.
    fn product(&mut self, factors: &[Factor]) -> Lowered {
        let mut iter = factors.iter();
        let first =
            iter.next().ok_or_else(|| EvalError::new(EvalErrorKind::NothingToEvaluate, Span::default()))?;
        let mut acc = self.term(&first.term)?;
        let long = factors.len() > FLAT_CHAIN + 1;
        let mut steps = Vec::new();
        for factor in iter {
            let op = match factor.op {
                Some(InfixOp::Multiplicative(op)) => {
                    binop(op).ok_or_else(|| unsupported(op, factor.op_span))?
                }
                _ => BinOp::Mul,
            };
            let rhs = self.term(&factor.term)?;
            if long {
                steps.push((op, rhs));
                continue;
            }
            let joined = acc.span.join(rhs.span);
            acc = self.make(ExprKind::Binary(op, Box::new(acc), Box::new(rhs)), joined);
        }
        if steps.is_empty() {
            return Ok(acc);
        }
        let span = steps.iter().fold(acc.span, |span, (_, e)| span.join(e.span));
        Ok(self.make(ExprKind::Fold(Box::new(acc), steps), span))
    }

    /// A large operator: a sum, a product, a maximum or minimum over an index, with its body.
    fn reduction(&mut self, big: &BigOperator, span: Span) -> Lowered {
        let op = match big.name.as_str() {
            "sum" => ReduceOp::Sum,
            "prod" => ReduceOp::Prod,
            "max" => ReduceOp::Max,
            "min" => ReduceOp::Min,
            "argmax" => ReduceOp::Argmax,
            "argmin" => ReduceOp::Argmin,
            _ => return Err(unsupported(&node_label(big.op), big.op.span)),
        };
        let Some(var_term) = big.var.as_ref().or(big.over.as_ref()) else {
            return Err(unsupported(&node_label(big.op), big.op.span));
        };
        let var = variable_name(var_term.node)
            .ok_or_else(|| unsupported(&node_label(var_term.node), var_term.span))?;
        let Some(body) = &big.body else {
            return Err(unsupported("an operator without its operand", big.op.span));
        };
        let lower = big.lower.as_ref().map(|l| self.term(l)).transpose()?;
        let upper = big.upper.as_ref().map(|u| self.term(u)).transpose()?;
        self.locals.push(var.clone());
        let body = self.term(body);
        self.locals.pop();
        let reduction = Reduction { op, var, lower, upper, body: body? };
        Ok(self.make(ExprKind::Reduce(Box::new(reduction)), span))
    }

    /// An operator name applied without parentheses: `\log p`, `\exp x`.
    fn operator(&mut self, op: &OperatorApplication, span: Span) -> Lowered {
        // `\log^2 x`: the function's value raised to the power on its name.
        let power = op.value_power();
        let plain = op.sub.is_none() && (op.sup.is_none() || power.is_some());
        let builtin = Builtin::from_name(op.name).filter(|_| plain);
        // `\mathbb{E}_{x \sim p}`: named as written (an expectation, a gradient: no value here).
        let as_written = || crate::syntax::print::to_latex(op.op);
        let Some(builtin) = builtin else { return Err(unsupported(&as_written(), op.op.span)) };
        let operand = self.term(&op.operand)?;
        let call = self.make(ExprKind::Call(builtin, vec![operand]), span);
        let call = self.in_base(call, op.base.as_ref(), span)?;
        self.raised(call, power, span)
    }

    /// `expr` raised to `power`, when there is one.
    fn raised(&mut self, expr: Expr, power: Option<&Node>, span: Span) -> Lowered {
        let Some(power) = power else { return Ok(expr) };
        let exponent = self.lower(power)?;
        Ok(self.make(ExprKind::Power(Box::new(expr), Box::new(exponent)), span))
    }

    /// A function applied to its arguments, and the scripts on its argument group.
    fn apply_term(&mut self, app: &Application, span: Span) -> Lowered {
        let array = app
            .callee
            .occurrence()
            .is_some_and(|o| matches!(o.kind, SymbolKind::Matrix | SymbolKind::Vector));
        if array && app.over.is_none() && app.given.is_empty() && self.callee(&app.callee).is_err() {
            // `X(i, j)`, `\mathbf{x}(t)`: the meaning layer read an array at positions; its
            // entry, as `X_{ij}` would be.
            let target = self.term(&app.callee)?;
            let indices = self.arguments(&app.args)?;
            return Ok(self.make(ExprKind::Index(Box::new(target), indices), span));
        }
        if let Some(over) = &app.over {
            return self.over(app, over, span);
        }
        // `\log^{2}(1 + x)`: the named function applied, raised to the power on its name.
        if let Some((name, power)) = app.value_power() {
            let builtin = Builtin::from_name(name).ok_or_else(|| unsupported(name, app.callee.node.span))?;
            let args = self.arguments(&app.args)?;
            let call = self.make(ExprKind::Call(builtin, args), span);
            let call = self.in_base(call, app.base.as_ref(), span)?;
            return self.raised(call, Some(power), span);
        }
        // `I(y \neq k)`: an indicator written with a capital I; eval computes no comparisons.
        if app.is_indicator() {
            return Err(unsupported(&crate::syntax::print::to_latex(app.callee.node), app.callee.span));
        }
        let callee = self.callee(&app.callee)?;
        if let Some(bar) = app.given.first() {
            return Err(unsupported("a condition", bar.span));
        }
        let args = self.arguments(&app.args)?;
        let mut expr = match callee {
            Callee::Builtin(b) => self.make(ExprKind::Call(b, args), span),
            Callee::User(name) => self.make(ExprKind::UserCall(name, args), span),
        };
        expr = self.in_base(expr, app.base.as_ref(), span)?;
        if let Some(sub) = &app.sub {
            expr = self.indexed(expr, sub.term.node, span)?;
        }
        if let Some(sup) = &app.sup {
            expr = self.superscripted(expr, app.group, sup.term.node, span)?;
        }
        Ok(expr)
    }

    /// What an applied term calls: a function defined earlier, or a built-in.
    fn callee(&self, callee: &Term) -> Result<Callee, EvalError> {
        let missing = || {
            let name = crate::syntax::print::to_latex(callee.node);
            EvalError::new(EvalErrorKind::UnknownFunction { name }, callee.span)
        };
        // `\mathbb{1}[x > 0]`: the indicator of a condition; eval computes no comparisons.
        if crate::meaning::is_indicator_one(callee.node) {
            return Err(unsupported(&crate::syntax::print::to_latex(callee.node), callee.span));
        }
        let Some(occurrence) = callee.occurrence() else { return Err(missing()) };
        for name in [&occurrence.base_name, &occurrence.name] {
            if (self.ctx.is_function)(name) {
                return Ok(Callee::User(name.to_string()));
            }
        }
        if let Some(full) = binding_name(callee.node).filter(|n| (self.ctx.is_function)(n)) {
            return Ok(Callee::User(full));
        }
        let builtin = Builtin::from_name(&occurrence.base_name).filter(|_| {
            matches!(occurrence.base.kind, NodeKind::Word { .. }) || !self.is_known(&occurrence.base_name)
        });
        builtin.map(Callee::Builtin).ok_or_else(missing)
    }

    /// Arguments, with `a_1, \dots, a_H` expanded to a range of family members.
    fn arguments(&mut self, items: &[Term]) -> Result<Vec<Expr>, EvalError> {
        let mut out: Vec<Expr> = Vec::new();
        let mut iter = items.iter().peekable();
        while let Some(item) = iter.next() {
            if !matches!(item.node.kind, NodeKind::Dots { .. }) {
                out.push(self.term(item)?);
                continue;
            }
            let before = out.pop();
            let after = iter.next().map(|n| self.term(n)).transpose()?;
            match (before, after) {
                (Some(b), Some(a)) => out.push(self.range(b, a, item.span)?),
                _ => return Err(unsupported("\\dots", item.span)),
            }
        }
        Ok(out)
    }

    fn range(&mut self, before: Expr, after: Expr, dots: Span) -> Lowered {
        let span = before.span.join(after.span);
        match (before.kind, after.kind) {
            (ExprKind::Member(a, from), ExprKind::Member(b, to)) if a == b => {
                Ok(self.make(ExprKind::Range(a, from, to), span))
            }
            _ => Err(unsupported("\\dots between different families", dots)),
        }
    }
}

/// What a call calls.
enum Callee {
    Builtin(Builtin),
    User(String),
}

fn binop(op: &str) -> Option<BinOp> {
    match op {
        "\\cdot" | "\\times" | "*" | "\\ast" => Some(BinOp::Mul),
        "\\odot" | "\\circ" => Some(BinOp::Hadamard),
        "\\otimes" => Some(BinOp::Kron),
        "/" | "\\div" => Some(BinOp::Div),
        _ => None,
    }
}

/// The entries of a subscript: `it` → i, t; `i, j` → i, j; `i` → i.
pub fn index_items(sub: &Node) -> Vec<&Node> {
    match &sub.kind {
        NodeKind::Chain { first, rest }
            if rest.iter().all(|l| l.op == InfixOp::Juxt || matches!(l.op, InfixOp::Separator(_))) =>
        {
            std::iter::once(first.as_ref()).chain(rest.iter().map(|l| &l.operand)).collect()
        }
        _ => vec![sub],
    }
}

/// The name of a bound variable: `i`, `j'`.
fn variable_name(node: &Node) -> Option<String> {
    match &node.kind {
        NodeKind::Scripts { base, sub: None, sup: None, primes } => {
            Some(format!("{}{}", binding_name(base)?, "'".repeat(usize::from(*primes))))
        }
        _ => binding_name(node),
    }
}

/// The order of a norm from its subscript: `2`, `1`, `\infty`, `F`.
fn norm_order(sub: &Node) -> Option<NormOrder> {
    match &sub.kind {
        NodeKind::Number { text, .. } if text == "2" => Some(NormOrder::Two { written: true }),
        NodeKind::Number { text, .. } => text.parse::<f64>().ok().filter(|p| *p >= 1.0).map(NormOrder::P),
        NodeKind::Symbol { name, .. } if name == "infty" => Some(NormOrder::Infinity),
        NodeKind::Symbol { name, .. } if name == "F" => Some(NormOrder::Frobenius),
        _ => None,
    }
}

/// A label `n \times d_k` read as the exponent of ℝ, to reuse the declaration reader.
fn wrap_reals(label: &Node) -> Node {
    let reals = Node::new(NodeKind::Symbol { name: "R".into(), font: Font::Blackboard }, label.span);
    Node::new(
        NodeKind::Scripts { base: Box::new(reals), sub: None, sup: Some(Box::new(label.clone())), primes: 0 },
        label.span,
    )
}

/// One dimension of a label or declaration: a name or a size.
pub fn dim_label(node: &Node) -> Option<DimLabel> {
    match &node.kind {
        NodeKind::Number { text, .. } => text.parse::<usize>().ok().map(DimLabel::Size),
        _ => binding_name(node).map(DimLabel::Name),
    }
}

/// A short description of a node for messages: its kind, or its command.
pub fn node_label(node: &Node) -> String {
    match &node.kind {
        NodeKind::LargeOp { name } | NodeKind::Dots { name } => format!("\\{name}"),
        NodeKind::Unknown { name } => name.to_string(),
        NodeKind::Word { text, .. } => text.to_string(),
        NodeKind::Symbol { name, .. } => name.to_string(),
        NodeKind::Factorial { .. } => "!".into(),
        NodeKind::Binom { .. } => "\\binom".into(),
        NodeKind::Rows(table) => table.env.clone().unwrap_or_else(|| "&".into()),
        NodeKind::Stacked { .. } => "\\overset".into(),
        NodeKind::Prefix { op, .. } => format!("{op:?}"),
        _ => binding_name(node).unwrap_or_else(|| crate::syntax::print::to_latex(node)),
    }
}

/// Whether `term` is a level of the depth rule: whether it holds other terms.
fn holds_others(term: &Term) -> bool {
    let mut holds = false;
    term.for_each_child(|_| holds = true);
    holds
}
