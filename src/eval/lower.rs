//! Lowering: the syntax tree of a formula → the evaluator's [`Expr`] tree.
//!
//! What the syntax leaves open is decided here, once, from what is known when the formula is
//! read (bound values, families, definitions, the symbol table):
//!
//! - a multiplicative chain is read left to right; a function name followed by a parenthesis
//!   is a call (`\mathrm{softmax}(z)`), `\sum`, `\prod` and `\max_j` take the rest of the
//!   chain as their body, an operator name without parenthesis (`\log p(x)`) too;
//! - a subscript is part of a name when the name is known (`W_Q`), indexing when it holds
//!   index letters (`Q_{it}`, `x_i`), a family member for a family (`\text{head}_1`);
//! - a superscript is a transpose (`^\top`, `^T`), a family member (`W_Q^h`), `e^{x}` is
//!   `\exp`, anything else a power.

use super::errors::{EvalError, EvalErrorKind};
use super::expr::{BinOp, Builtin, DimLabel, Expr, ExprKind, NormOrder, ReduceOp, Reduction};
use crate::meaning::{binding_name, kind_of, SymbolKind, SymbolTable};
use crate::syntax::ast::{Delim, Font, InfixOp, Node, NodeKind, PrefixOp, Span};

/// Deepest tree lowered (and deepest evaluator tree, see [`super::statement::lower_statement`]);
/// deeper input is refused rather than overflowing the stack.
pub const MAX_DEPTH: usize = 256;

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

    /// Lowers one node.
    pub fn lower(&mut self, node: &Node) -> Lowered {
        if self.depth >= MAX_DEPTH {
            return Err(EvalError::new(EvalErrorKind::TooNested { limit: MAX_DEPTH }, node.span));
        }
        self.depth += 1;
        let result = self.lower_inner(node);
        self.depth -= 1;
        result
    }

    fn lower_inner(&mut self, node: &Node) -> Lowered {
        let span = node.span;
        match &node.kind {
            NodeKind::Number { font: Font::Bold | Font::Blackboard, text } if text == "1" => {
                Ok(self.make(ExprKind::Ones, span))
            }
            NodeKind::Number { text, .. } => match text.parse::<f64>() {
                Ok(x) => Ok(self.make(ExprKind::Number(x), span)),
                Err(_) => Err(unsupported(text, span)),
            },
            NodeKind::Symbol { .. } | NodeKind::Accent { .. } => self.symbol(node),
            NodeKind::Chain { first, rest } => self.chain(first, rest, span),
            NodeKind::Prefix { op: PrefixOp::Minus, operand } => {
                let inner = self.lower(operand)?;
                Ok(self.make(ExprKind::Neg(Box::new(inner)), span))
            }
            NodeKind::Prefix { op: PrefixOp::Plus, operand } => self.lower(operand),
            NodeKind::Scripts { base, sub, sup, primes } => {
                if *primes > 0 {
                    return Err(unsupported(&format!("{}'", binding_name(base).unwrap_or_default()), span));
                }
                self.scripts(base, sub.as_deref(), sup.as_deref(), span)
            }
            NodeKind::Frac { num, den } => {
                let (n, d) = (self.lower(num)?, self.lower(den)?);
                Ok(self.make(ExprKind::Binary(BinOp::Div, Box::new(n), Box::new(d)), span))
            }
            NodeKind::Sqrt { index: None, radicand } => {
                let r = self.lower(radicand)?;
                Ok(self.make(ExprKind::Call(Builtin::Sqrt, vec![r]), span))
            }
            NodeKind::Sqrt { index: Some(index), radicand } => {
                let (r, i) = (self.lower(radicand)?, self.lower(index)?);
                let one = self.make(ExprKind::Number(1.0), index.span);
                let exponent =
                    self.make(ExprKind::Binary(BinOp::Div, Box::new(one), Box::new(i)), index.span);
                Ok(self.make(ExprKind::Power(Box::new(r), Box::new(exponent)), span))
            }
            NodeKind::Styled { body, .. } | NodeKind::Boxed { body } => self.lower(body),
            NodeKind::Fenced { open, body, .. } => self.fenced(*open, body, span),
            NodeKind::Annotated { body, label, .. } => self.annotated(body, label.as_deref(), span),
            NodeKind::Rows(table) if table.env.as_deref().is_some_and(|env| env.ends_with("matrix")) => {
                self.matrix(&table.rows, span)
            }
            NodeKind::Empty => Err(EvalError::new(EvalErrorKind::NothingToEvaluate, span)),
            NodeKind::Word { text, .. } => Err(unsupported(&format!("{text} without an argument"), span)),
            _ => Err(unsupported(&node_label(node), span)),
        }
    }

    /// A symbol: a bound name, a constant (`\infty`, `\pi`, `e`), `I`, or an unbound name
    /// (reported when it is needed).
    fn symbol(&mut self, node: &Node) -> Lowered {
        let name = binding_name(node).unwrap_or_default();
        let span = node.span;
        if !self.is_known(&name) && !(self.ctx.is_family)(&name) {
            let constant = match name.as_str() {
                "infty" => Some(f64::INFINITY),
                "pi" => Some(std::f64::consts::PI),
                "e" => Some(std::f64::consts::E),
                _ => None,
            };
            if let Some(x) = constant {
                return Ok(self.make(ExprKind::Number(x), span));
            }
            if name == "I" && self.ctx.table.shape("I").is_none() {
                return Ok(self.make(ExprKind::Identity, span));
            }
        }
        let kind = kind_of(node, self.ctx.table);
        Ok(self.make(ExprKind::Symbol(name, kind), span))
    }

    fn scripts(&mut self, base: &Node, sub: Option<&Node>, sup: Option<&Node>, span: Span) -> Lowered {
        let mut expr = match sub {
            Some(sub) => self.subscripted(base, sub, span)?,
            None => self.lower(base)?,
        };
        if let Some(sup) = sup {
            expr = self.superscripted(expr, base, sup, span)?;
        }
        Ok(expr)
    }

    /// `base_sub`: a name, a norm's order, a family member, or indexing.
    fn subscripted(&mut self, base: &Node, sub: &Node, span: Span) -> Lowered {
        let sub_span = Span::new(base.span.start, sub.span.end.max(base.span.end));
        let plain = Node::new(
            NodeKind::Scripts {
                base: Box::new(base.clone()),
                sub: Some(Box::new(sub.clone())),
                sup: None,
                primes: 0,
            },
            sub_span,
        );
        let full = binding_name(&plain);
        if let Some(full) = full.as_deref().filter(|f| self.is_known(f) || (self.ctx.is_family)(f)) {
            let kind = kind_of(&plain, self.ctx.table);
            return Ok(self.make(ExprKind::Symbol(full.to_string(), kind), sub_span));
        }
        if let NodeKind::Fenced { open: Delim::DoubleBar, body, .. } = &base.kind {
            let order = norm_order(sub).ok_or_else(|| unsupported(&node_label(sub), sub.span))?;
            let inner = self.lower(body)?;
            return Ok(self.make(ExprKind::Norm(Box::new(inner), order), span));
        }
        let base_name = binding_name(base);
        if let Some(name) = base_name.as_deref().filter(|n| (self.ctx.is_family)(n)) {
            let index = self.lower(sub)?;
            return Ok(self.make(ExprKind::Member(name.to_string(), Box::new(index)), sub_span));
        }
        let items = index_items(sub);
        if items.iter().all(|i| is_index_like(i)) && self.indexable(base, full.as_deref()) {
            let target = self.lower(base)?;
            let indices = items.into_iter().map(|i| self.lower(i)).collect::<Result<Vec<_>, _>>()?;
            return Ok(self.make(ExprKind::Index(Box::new(target), indices), sub_span));
        }
        let name = full.unwrap_or_else(|| node_label(base));
        Ok(self.make(ExprKind::Symbol(name, SymbolKind::Unknown), sub_span))
    }

    /// Whether a subscript on `base` indexes it (`Q_{it}`, `(QK^\top)_{ij}`) rather than being
    /// part of a name (`d_k`): the base has a value, or is no symbol, or is a matrix or vector
    /// by convention while the whole is not a dimension.
    fn indexable(&self, base: &Node, full: Option<&str>) -> bool {
        let Some(base_name) = binding_name(base) else { return true };
        if self.is_known(&base_name) {
            return true;
        }
        let is_dimension = full.is_some_and(|f| {
            self.ctx.table.recorded(f) == Some(SymbolKind::Dimension)
                || f.starts_with("d_")
                || f.starts_with("n_")
        });
        !is_dimension && matches!(kind_of(base, self.ctx.table), SymbolKind::Matrix | SymbolKind::Vector)
    }

    /// `expr^sup`: transpose, family member, `e^x`, or a power.
    fn superscripted(&mut self, expr: Expr, base: &Node, sup: &Node, span: Span) -> Lowered {
        let sup_name = binding_name(sup).unwrap_or_default();
        let is_transpose =
            sup_name == "top" || sup_name == "intercal" || (sup_name == "T" && !self.is_known("T"));
        if is_transpose && matches!(sup.kind, NodeKind::Symbol { .. }) {
            return Ok(self.make(ExprKind::Transpose(Box::new(expr)), span));
        }
        if let ExprKind::Symbol(name, _) = &expr.kind {
            if (self.ctx.is_family)(name) {
                let index = self.lower(sup)?;
                let name = name.clone();
                return Ok(self.make(ExprKind::Member(name, Box::new(index)), span));
            }
        }
        let is_e = matches!(&base.kind, NodeKind::Symbol { name, font: Font::Normal | Font::Roman } if name == "e")
            && !self.is_known("e");
        let exponent = self.lower(sup)?;
        if is_e {
            return Ok(self.make(ExprKind::Call(Builtin::Exp, vec![exponent]), span));
        }
        Ok(self.make(ExprKind::Power(Box::new(expr), Box::new(exponent)), span))
    }

    fn fenced(&mut self, open: Delim, body: &Node, span: Span) -> Lowered {
        match open {
            Delim::Paren | Delim::Bracket | Delim::Brace => {
                if crate::meaning::list_items(body).len() > 1 {
                    return Err(unsupported("a list outside a call", span));
                }
                self.lower(body)
            }
            Delim::DoubleBar => {
                let inner = self.lower(body)?;
                Ok(self.make(ExprKind::Norm(Box::new(inner), NormOrder::Two { written: false }), span))
            }
            Delim::Bar => self.call_with(Builtin::Abs, body, span),
            Delim::Floor => self.call_with(Builtin::Floor, body, span),
            Delim::Ceil => self.call_with(Builtin::Ceil, body, span),
            Delim::Angle => match crate::meaning::list_items(body).as_slice() {
                [a, b] => {
                    let (a, b) = (self.lower(a)?, self.lower(b)?);
                    Ok(self.make(ExprKind::Binary(BinOp::Mul, Box::new(a), Box::new(b)), span))
                }
                _ => Err(unsupported("⟨…⟩ without two entries", span)),
            },
            _ => Err(unsupported("this bracket", span)),
        }
    }

    fn call_with(&mut self, builtin: Builtin, body: &Node, span: Span) -> Lowered {
        let inner = self.lower(body)?;
        Ok(self.make(ExprKind::Call(builtin, vec![inner]), span))
    }

    fn annotated(&mut self, body: &Node, label: Option<&Node>, span: Span) -> Lowered {
        let inner = self.lower(body)?;
        let dims = match label.and_then(|l| crate::meaning::real_space_dims(&wrap_reals(l))) {
            Some(dims) => dims.iter().map(dim_label).collect::<Option<Vec<_>>>(),
            None => None,
        };
        match dims {
            Some(dims) if !dims.is_empty() => Ok(self.make(ExprKind::Annotated(Box::new(inner), dims), span)),
            _ => Ok(inner),
        }
    }

    fn matrix(&mut self, rows: &[Vec<Node>], span: Span) -> Lowered {
        let mut out = Vec::with_capacity(rows.len());
        for row in rows.iter().filter(|r| !r.iter().all(|c| matches!(c.kind, NodeKind::Empty))) {
            out.push(row.iter().map(|cell| self.lower(cell)).collect::<Result<Vec<_>, _>>()?);
        }
        Ok(self.make(ExprKind::Matrix(out), span))
    }

    /// A chain of one precedence level.
    fn chain(&mut self, first: &Node, rest: &[crate::syntax::ast::Link], span: Span) -> Lowered {
        let Some(link) = rest.first() else { return self.lower(first) };
        match &link.op {
            InfixOp::Additive(_) => self.additive(first, rest),
            InfixOp::Multiplicative(_) | InfixOp::Juxt => {
                let items: Vec<(Option<&InfixOp>, &Node)> = std::iter::once((None, first))
                    .chain(rest.iter().map(|l| (Some(&l.op), &l.operand)))
                    .collect();
                self.product(&items, span)
            }
            InfixOp::Separator(_) => Err(unsupported("a list", span)),
            InfixOp::Relation(r) => Err(unsupported(r, link.op_span)),
            InfixOp::Stacked(stacked) => Err(unsupported(&stacked.relation, link.op_span)),
        }
    }

    fn additive(&mut self, first: &Node, rest: &[crate::syntax::ast::Link]) -> Lowered {
        let mut acc = self.lower(first)?;
        for link in rest {
            let op = match &link.op {
                InfixOp::Additive(op) if op == "+" => BinOp::Add,
                InfixOp::Additive(op) if op == "-" => BinOp::Sub,
                InfixOp::Additive(op) => return Err(unsupported(op, link.op_span)),
                _ => return Err(unsupported("mixed operators", link.op_span)),
            };
            let rhs = self.lower(&link.operand)?;
            let span = acc.span.join(rhs.span);
            acc = self.make(ExprKind::Binary(op, Box::new(acc), Box::new(rhs)), span);
        }
        Ok(acc)
    }

    /// A product chain, left to right; a factor may take the rest of the chain.
    fn product(&mut self, items: &[(Option<&InfixOp>, &Node)], span: Span) -> Lowered {
        let mut pos = 0;
        let mut acc = self.factor(items, &mut pos)?;
        while let Some((op, _)) = items.get(pos) {
            let op = match op {
                Some(InfixOp::Multiplicative(op)) => binop(op).ok_or_else(|| unsupported(op, span))?,
                _ => BinOp::Mul,
            };
            let rhs = self.factor(items, &mut pos)?;
            let joined = acc.span.join(rhs.span);
            acc = self.make(ExprKind::Binary(op, Box::new(acc), Box::new(rhs)), joined);
        }
        Ok(acc)
    }

    /// One factor at `items[*pos]`, advancing `pos` past what it takes.
    fn factor(&mut self, items: &[(Option<&InfixOp>, &Node)], pos: &mut usize) -> Lowered {
        let Some((_, node)) = items.get(*pos) else {
            return Err(EvalError::new(EvalErrorKind::NothingToEvaluate, Span::default()));
        };
        *pos += 1;
        let merged = merge_arg(node, items.get(*pos).map(|(_, n)| *n));
        if merged.is_some() {
            *pos += 1;
        }
        let node = merged.as_ref().unwrap_or(node);
        let rest = items.get(*pos..).unwrap_or(&[]);
        if let Some(op) = reduce_op(node) {
            return self.reduction(op, node, rest, pos);
        }
        let Some(callee) = self.callee(node) else { return self.lower(node) };
        match rest.first() {
            Some((Some(InfixOp::Juxt), next)) if call_argument(next).is_some() => {
                *pos += 1;
                self.call(callee, node, next)
            }
            Some((Some(InfixOp::Juxt), _)) if matches!(node.kind, NodeKind::Word { .. }) => {
                let body = self.rest_of(rest, node.span, pos)?;
                let span = node.span.join(body.span);
                self.apply(callee, vec![body], span)
            }
            _ => self.lower(node),
        }
    }

    /// The rest of a chain, as one product.
    fn rest_of(&mut self, rest: &[(Option<&InfixOp>, &Node)], after: Span, pos: &mut usize) -> Lowered {
        if rest.is_empty() {
            return Err(unsupported("an operator without its operand", after));
        }
        // `\log \log … x` and `\sum_i \sum_j …` recurse here once per operator, without a
        // syntax level in between: count these levels too.
        if self.depth >= MAX_DEPTH {
            return Err(EvalError::new(EvalErrorKind::TooNested { limit: MAX_DEPTH }, after));
        }
        *pos += rest.len();
        let body_items: Vec<(Option<&InfixOp>, &Node)> =
            rest.iter().enumerate().map(|(i, (op, n))| (if i == 0 { None } else { *op }, *n)).collect();
        let span = rest.iter().fold(Span::new(after.end, after.end), |s, (_, n)| s.join(n.span));
        self.depth += 1;
        let result = self.product(&body_items, span);
        self.depth -= 1;
        result
    }

    fn reduction(
        &mut self,
        op: ReduceOp,
        node: &Node,
        rest: &[(Option<&InfixOp>, &Node)],
        pos: &mut usize,
    ) -> Lowered {
        let (sub, sup) = match &node.kind {
            NodeKind::Scripts { sub, sup, .. } => (sub.as_deref(), sup.as_deref()),
            _ => (None, None),
        };
        let Some(sub) = sub else { return Err(unsupported(&node_label(node), node.span)) };
        let (var_node, lower) = match &sub.kind {
            NodeKind::Chain { first, rest } => match rest.as_slice() {
                [link] if link.op == InfixOp::Relation("=".into()) => (first.as_ref(), Some(&link.operand)),
                _ => (sub, None),
            },
            _ => (sub, None),
        };
        let var = variable_name(var_node).ok_or_else(|| unsupported(&node_label(sub), sub.span))?;
        let lower = lower.map(|l| self.lower(l)).transpose()?;
        let upper = sup.map(|u| self.lower(u)).transpose()?;
        self.locals.push(var.clone());
        let body = self.rest_of(rest, node.span, pos);
        self.locals.pop();
        let body = body?;
        let span = node.span.join(body.span);
        let reduction = Reduction { op, var, lower, upper, body };
        Ok(self.make(ExprKind::Reduce(Box::new(reduction)), span))
    }

    /// What `node` calls when it is a function: a builtin or a definition.
    fn callee(&self, node: &Node) -> Option<Callee> {
        let target = match &node.kind {
            NodeKind::Scripts { base, sup: None, .. } if matches!(base.kind, NodeKind::Word { .. }) => base,
            _ => node,
        };
        let name = binding_name(target)?;
        if (self.ctx.is_function)(&name) {
            return Some(Callee::User(name));
        }
        if let Some(full) = binding_name(node).filter(|n| (self.ctx.is_function)(n)) {
            return Some(Callee::User(full));
        }
        let is_word = matches!(target.kind, NodeKind::Word { .. });
        let is_letter_function = name == "sigma" && !self.is_known("sigma");
        match Builtin::from_name(&name) {
            Some(builtin) if is_word || is_letter_function => Some(Callee::Builtin(builtin)),
            _ => None,
        }
    }

    /// A call `callee(args)` (and the scripts on the argument group, `softmax(z)_j`).
    fn call(&mut self, callee: Callee, node: &Node, next: &Node) -> Lowered {
        let Some((body, sub, sup)) = call_argument(next) else { return self.lower(node) };
        let mut args = Vec::new();
        for item in crate::meaning::list_items(body) {
            args.push(item);
        }
        let args = self.arguments(&args)?;
        let span = node.span.join(next.span);
        let mut expr = self.apply(callee, args, span)?;
        if let Some(sub) = sub {
            let indices =
                index_items(sub).into_iter().map(|i| self.lower(i)).collect::<Result<Vec<_>, _>>()?;
            expr = self.make(ExprKind::Index(Box::new(expr), indices), span);
        }
        if let Some(sup) = sup {
            expr = self.superscripted(expr, next, sup, span)?;
        }
        Ok(expr)
    }

    fn apply(&mut self, callee: Callee, args: Vec<Expr>, span: Span) -> Lowered {
        Ok(match callee {
            Callee::Builtin(b) => self.make(ExprKind::Call(b, args), span),
            Callee::User(name) => self.make(ExprKind::UserCall(name, args), span),
        })
    }

    /// Arguments, with `a_1, \dots, a_H` expanded to a range of family members.
    fn arguments(&mut self, items: &[&Node]) -> Result<Vec<Expr>, EvalError> {
        let mut out: Vec<Expr> = Vec::new();
        let mut iter = items.iter().peekable();
        while let Some(item) = iter.next() {
            if !matches!(item.kind, NodeKind::Dots { .. }) {
                out.push(self.lower(item)?);
                continue;
            }
            let before = out.pop();
            let after = iter.next().map(|n| self.lower(n)).transpose()?;
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

/// The argument group of a call, `(…)` possibly with scripts: (body, sub, sup).
fn call_argument(node: &Node) -> Option<(&Node, Option<&Node>, Option<&Node>)> {
    match &node.kind {
        NodeKind::Fenced { open: Delim::Paren, body, .. } => Some((body, None, None)),
        NodeKind::Scripts { base, sub, sup, primes: 0 } => match &base.kind {
            NodeKind::Fenced { open: Delim::Paren, body, .. } => Some((body, sub.as_deref(), sup.as_deref())),
            _ => None,
        },
        _ => None,
    }
}

/// `\arg` followed by `\max` or `\min` (with or without limits) as one `argmax` word.
fn merge_arg(node: &Node, next: Option<&Node>) -> Option<Node> {
    let is_arg = matches!(&node.kind, NodeKind::Word { text, .. } if text == "arg");
    let next = next.filter(|_| is_arg)?;
    let rename = |word: &Node| match &word.kind {
        NodeKind::Word { text, style } if text == "max" || text == "min" => Some(Node::new(
            NodeKind::Word { text: format!("arg{text}").into(), style: *style },
            node.span.join(word.span),
        )),
        _ => None,
    };
    match &next.kind {
        NodeKind::Scripts { base, sub, sup, primes } => {
            let word = rename(base)?;
            let kind = NodeKind::Scripts {
                base: Box::new(word),
                sub: sub.clone(),
                sup: sup.clone(),
                primes: *primes,
            };
            Some(Node::new(kind, node.span.join(next.span)))
        }
        _ => rename(next),
    }
}

/// The reduction a large operator or `\max_j` stands for.
fn reduce_op(node: &Node) -> Option<ReduceOp> {
    let NodeKind::Scripts { base, sub: Some(_), .. } = &node.kind else { return None };
    match &base.kind {
        NodeKind::LargeOp { name } if name == "sum" => Some(ReduceOp::Sum),
        NodeKind::LargeOp { name } if name == "prod" => Some(ReduceOp::Prod),
        NodeKind::Word { text, .. } => match text.as_str() {
            "max" => Some(ReduceOp::Max),
            "min" => Some(ReduceOp::Min),
            "argmax" => Some(ReduceOp::Argmax),
            "argmin" => Some(ReduceOp::Argmin),
            _ => None,
        },
        _ => None,
    }
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

/// Whether a subscript entry reads as an index: a number, a lower-case letter, `i+1`, `y_i`.
fn is_index_like(node: &Node) -> bool {
    match &node.kind {
        NodeKind::Number { font: Font::Normal, .. } => true,
        NodeKind::Symbol { name, font: Font::Normal } => {
            name.len() == 1 && name.chars().all(|c| c.is_ascii_lowercase())
        }
        NodeKind::Scripts { base, sup: None, primes: 0, .. } => is_index_like(base),
        NodeKind::Chain { first, rest } => {
            rest.iter().all(|l| matches!(l.op, InfixOp::Additive(_))) && is_index_like(first)
        }
        _ => false,
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
        _ => binding_name(node).unwrap_or_else(|| "this".into()),
    }
}
