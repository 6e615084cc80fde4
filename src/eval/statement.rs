//! Statements: what a formula asks for — a value, a claim, a definition, a declaration.
//!
//! `lhs = rhs` is a definition when its left side names something not yet known
//! (`\mathrm{Attention}(Q,K,V) = …`, `\text{head}_h = …`, `\mu = …`, `\alpha_{ij} = …`), and a
//! claim to check when both sides can be computed (`\mathrm{softmax}(z)_j = \frac{…}{…}`).

use super::errors::{EvalError, EvalErrorKind};
use super::expr::{Builtin, Expr, ExprKind, Statement};
use super::lower::{index_items, Context, Lowerer, MAX_DEPTH};
use super::walk;
use crate::meaning::{
    binding_name, call_parts, list_items, relation_sides, statements, ScriptRole, TermKind,
};
use crate::syntax::ast::{InfixOp, Node, NodeKind};

/// The statement nodes of one formula: the items of a top-level list, the cells of rows.
pub fn statement_nodes(root: &Node) -> Vec<&Node> {
    statements(root)
}

/// One statement, lowered in `ctx`.
///
/// The evaluator's tree may nest deeper than the syntax tree (`\log \log … x` is one flat chain
/// in the syntax but a tower of calls to evaluate); deeper than [`MAX_DEPTH`] is refused here, so
/// that inference and the interpreter, which recurse, never overflow the stack.
pub fn lower_statement(node: &Node, ctx: &Context<'_>) -> Result<Statement, EvalError> {
    let statement = lower_unchecked(node, ctx)?;
    let bodies: Vec<&Expr> = match &statement {
        Statement::Declaration => Vec::new(),
        Statement::Value(body)
        | Statement::Function { body, .. }
        | Statement::Family { body, .. }
        | Statement::Let { body, .. } => vec![body],
        Statement::Claim(sides) => sides.iter().collect(),
    };
    for body in bodies {
        if let Some(span) = deeper_than(body, MAX_DEPTH) {
            return Err(EvalError::new(EvalErrorKind::TooNested { limit: MAX_DEPTH }, span));
        }
    }
    Ok(statement)
}

/// The span of the first node of `expr` deeper than `limit`, found without recursion.
fn deeper_than(expr: &Expr, limit: usize) -> Option<crate::syntax::ast::Span> {
    let mut stack = vec![(expr, 1usize)];
    while let Some((e, depth)) = stack.pop() {
        if depth > limit {
            return Some(e.span);
        }
        stack.extend(walk::children(e).into_iter().map(|c| (c, depth + 1)));
    }
    None
}

fn lower_unchecked(node: &Node, ctx: &Context<'_>) -> Result<Statement, EvalError> {
    if relation_sides(node, "\\in").is_some() {
        return Ok(Statement::Declaration);
    }
    let Some(sides) = equation_sides(node)? else {
        return Ok(Statement::Value(lowerer(ctx, Vec::new()).lower(node)?));
    };
    if let [lhs, rhs] = sides.as_slice() {
        if let Some(definition) = definition(lhs, rhs, ctx)? {
            return Ok(definition);
        }
    }
    let mut lowerer = lowerer(ctx, Vec::new());
    let sides = sides.iter().map(|s| lowerer.lower(s)).collect::<Result<Vec<_>, _>>()?;
    Ok(Statement::Claim(sides))
}

fn lowerer<'a>(ctx: &Context<'a>, locals: Vec<String>) -> Lowerer<'a> {
    Lowerer::new(
        Context {
            table: ctx.table,
            is_value: ctx.is_value,
            is_family: ctx.is_family,
            is_function: ctx.is_function,
        },
        locals,
    )
}

/// The sides of `a = b (= c …)`, or `None` when the node is no equation.
fn equation_sides(node: &Node) -> Result<Option<Vec<&Node>>, EvalError> {
    let NodeKind::Chain { first, rest } = &node.kind else { return Ok(None) };
    let Some(link) = rest.first() else { return Ok(None) };
    if !matches!(link.op, InfixOp::Relation(_) | InfixOp::Stacked { .. }) {
        return Ok(None);
    }
    for link in rest {
        match &link.op {
            InfixOp::Relation(r) if r == "=" => {}
            InfixOp::Stacked(stacked) if stacked.relation == "=" => {}
            InfixOp::Relation(r) => {
                return Err(EvalError::new(EvalErrorKind::Unsupported { what: r.to_string() }, link.op_span))
            }
            InfixOp::Stacked(stacked) => {
                let what = stacked.relation.to_string();
                return Err(EvalError::new(EvalErrorKind::Unsupported { what }, link.op_span));
            }
            _ => return Ok(None),
        }
    }
    Ok(Some(std::iter::once(first.as_ref()).chain(rest.iter().map(|l| &l.operand)).collect()))
}

/// `lhs = rhs` as a definition, when its left side names something not yet known.
fn definition(lhs: &Node, rhs: &Node, ctx: &Context<'_>) -> Result<Option<Statement>, EvalError> {
    let known = |name: &str| (ctx.is_value)(name) || (ctx.is_family)(name) || (ctx.is_function)(name);
    if let Some((name, arguments)) = call_parts(lhs) {
        let params: Option<Vec<String>> = list_items(arguments).into_iter().map(binding_name).collect();
        return match params {
            Some(params) if Builtin::from_name(&name).is_none() && !(ctx.is_value)(&name) => {
                let body = lowerer(ctx, params.clone()).lower(rhs)?;
                Ok(Some(Statement::Function { name, params, body }))
            }
            _ => Ok(None),
        };
    }
    // What the left side names is the meaning layer's reading of it: `PE_{(pos, 2i)}` is one
    // name with its index, `\sigma_i^2` the square of σ_i.
    let term = crate::meaning::Resolver::new(ctx.table).node(lhs);
    let (occurrence, squared) = match &term.kind {
        TermKind::Symbol(occurrence) => (occurrence.as_ref(), false),
        TermKind::Scripted { base, sub: None, sup: Some(sup), primes: 0 }
            if sup.role == ScriptRole::Power
                && matches!(&sup.term.node.kind, NodeKind::Number { text, .. } if text == "2") =>
        {
            match base.occurrence() {
                Some(occurrence) => (occurrence, true),
                None => return Ok(None),
            }
        }
        _ => return Ok(None),
    };
    if known(&occurrence.name) || known(&occurrence.base_name) {
        return Ok(None);
    }
    let index_script = occurrence.scripts.iter().find(|s| s.role == ScriptRole::Index && !s.above);
    let indices = index_script.and_then(|s| index_letters(s.term.node));
    let Some(indices) = indices.filter(|_| occurrence.scripts.len() == 1) else {
        let name =
            if index_script.is_some() { occurrence.base_name.clone() } else { occurrence.name.clone() };
        let body = lowerer(ctx, Vec::new()).lower(rhs)?;
        return Ok(Some(Statement::Let { name: name.to_string(), indices: Vec::new(), squared, body }));
    };
    let name = occurrence.base_name.to_string();
    let body = lowerer(ctx, indices.clone()).lower(rhs)?;
    match indices.as_slice() {
        [index] if !squared && uses_as_member(&body, index) => {
            Ok(Some(Statement::Family { name, index: index.clone(), body }))
        }
        _ => Ok(Some(Statement::Let { name, indices, squared, body })),
    }
}

/// The index letters of a subscript, when it holds only lower-case letters.
fn index_letters(sub: &Node) -> Option<Vec<String>> {
    index_items(sub)
        .into_iter()
        .map(|item| match &item.kind {
            NodeKind::Symbol { name, .. }
                if name.len() == 1 && name.chars().all(|c| c.is_ascii_lowercase()) =>
            {
                Some(name.to_string())
            }
            _ => None,
        })
        .collect()
}

/// Whether `index` picks family members somewhere in `expr` (`W_Q^h` in `\text{head}_h = …`).
fn uses_as_member(expr: &Expr, index: &str) -> bool {
    let mut found = false;
    super::walk::visit(expr, &mut |e| {
        if let ExprKind::Member(_, i) = &e.kind {
            found |= matches!(&i.kind, ExprKind::Symbol(name, _) if name == index);
        }
    });
    found
}
