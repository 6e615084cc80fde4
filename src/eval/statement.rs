//! Statements: what a formula asks for — a value, a claim, a definition, a declaration.
//!
//! `lhs = rhs` is a definition when its left side names something not yet known
//! (`\mathrm{Attention}(Q,K,V) = …`, `\text{head}_h = …`, `\mu = …`, `\alpha_{ij} = …`), and a
//! claim to check when both sides can be computed (`\mathrm{softmax}(z)_j = \frac{…}{…}`).

use super::errors::{EvalError, EvalErrorKind};
use super::expr::{Builtin, Expr, ExprKind, Statement};
use super::lower::{index_items, Context, Lowerer};
use super::walk;
use crate::meaning::{relation_sides, ScriptRole, Term, TermKind};
use crate::syntax::ast::{InfixOp, Node, NodeKind};

/// The statements of one resolved formula: the items of a top-level list, the cells of rows.
pub fn statement_terms<'t, 'n>(root: &'t Term<'n>) -> Vec<&'t Term<'n>> {
    match &root.kind {
        TermKind::Chain { first, rest } if rest.iter().all(|j| matches!(j.op, InfixOp::Separator(_))) => {
            std::iter::once(first.as_ref()).chain(rest.iter().map(|j| &j.term)).collect()
        }
        TermKind::Rows(rows) if root.node.environment().is_none_or(|env| !env.ends_with("matrix")) => {
            rows.iter().flatten().flat_map(statement_terms).collect()
        }
        // `\nabla L = 0 \text{ and hence } X^\top y = X^\top X w`: each clause is a statement.
        TermKind::Prose(clauses) => {
            clauses.iter().filter_map(|c| c.term.as_ref()).flat_map(statement_terms).collect()
        }
        _ => vec![root],
    }
}

/// One statement of a resolved formula, lowered in `ctx`.
///
/// The evaluator's tree may nest deeper than the syntax tree (`\log \log … x` is one flat chain
/// in the syntax but a tower of calls to evaluate); deeper than the nesting limit
/// ([`Context::max_depth`], counted as the parser counts: a level is a node that holds others)
/// is refused here, so
/// that inference and the interpreter, which recurse, never overflow the stack.
pub fn lower_statement(term: &Term, ctx: &Context<'_>) -> Result<Statement, EvalError> {
    let statement = lower_unchecked(term, ctx)?;
    let bodies: Vec<&Expr> = match &statement {
        Statement::Declaration => Vec::new(),
        Statement::Value(body)
        | Statement::Function { body, .. }
        | Statement::Family { body, .. }
        | Statement::Let { body, .. } => vec![body],
        Statement::Claim(sides) => sides.iter().collect(),
    };
    for body in bodies {
        if let Some(span) = deeper_than(body, ctx.max_depth) {
            return Err(EvalError::new(EvalErrorKind::TooNested { limit: ctx.max_depth }, span));
        }
    }
    Ok(statement)
}

/// The span of the first node of `expr` more than `limit` levels deep (a level is a node that
/// holds others), found without recursion.
fn deeper_than(expr: &Expr, limit: usize) -> Option<crate::syntax::ast::Span> {
    let mut stack = vec![(expr, 0usize)];
    while let Some((e, above)) = stack.pop() {
        let children = walk::children(e);
        let level = above + usize::from(!children.is_empty());
        if level > limit {
            return Some(e.span);
        }
        stack.extend(children.into_iter().map(|c| (c, level)));
    }
    None
}

fn lower_unchecked(term: &Term, ctx: &Context<'_>) -> Result<Statement, EvalError> {
    if relation_sides(term.node, "\\in").is_some() {
        return Ok(Statement::Declaration);
    }
    let Some(sides) = equation_sides(term)? else {
        return Ok(Statement::Value(lowerer(ctx, Vec::new()).lower_term(term)?));
    };
    if let [lhs, rhs] = sides.as_slice() {
        if let Some(definition) = definition(lhs, rhs, ctx)? {
            return Ok(definition);
        }
    }
    let mut lowerer = lowerer(ctx, Vec::new());
    let sides = sides.iter().map(|s| lowerer.lower_term(s)).collect::<Result<Vec<_>, _>>()?;
    Ok(Statement::Claim(sides))
}

fn lowerer<'a>(ctx: &Context<'a>, locals: Vec<String>) -> Lowerer<'a> {
    Lowerer::new(
        Context {
            table: ctx.table,
            is_value: ctx.is_value,
            is_family: ctx.is_family,
            is_function: ctx.is_function,
            max_depth: ctx.max_depth,
        },
        locals,
    )
}

/// The sides of `a = b (= c …)`, or `None` when the term is no equation.
fn equation_sides<'t, 'n>(term: &'t Term<'n>) -> Result<Option<Vec<&'t Term<'n>>>, EvalError> {
    let TermKind::Chain { first, rest } = &term.kind else { return Ok(None) };
    let Some(joint) = rest.first() else { return Ok(None) };
    if !matches!(joint.op, InfixOp::Relation(_) | InfixOp::Stacked { .. }) {
        return Ok(None);
    }
    for joint in rest {
        match joint.op {
            InfixOp::Relation(r) if r == "=" => {}
            InfixOp::Stacked(stacked) if stacked.relation == "=" => {}
            InfixOp::Relation(r) => {
                return Err(EvalError::new(EvalErrorKind::Unsupported { what: r.to_string() }, joint.op_span))
            }
            InfixOp::Stacked(stacked) => {
                let what = stacked.relation.to_string();
                return Err(EvalError::new(EvalErrorKind::Unsupported { what }, joint.op_span));
            }
            _ => return Ok(None),
        }
    }
    Ok(Some(std::iter::once(first.as_ref()).chain(rest.iter().map(|j| &j.term)).collect()))
}

/// `lhs = rhs` as a definition, when its left side names something not yet known: a function
/// applied to its parameters (`\mathrm{Attention}(Q, K, V) = …`), or a name, possibly with its
/// index (`PE_{(pos, 2i)}`, `\alpha_{ij}`) or squared (`\sigma_i^2`), as the meaning layer reads it.
fn definition(lhs: &Term, rhs: &Term, ctx: &Context<'_>) -> Result<Option<Statement>, EvalError> {
    let known = |name: &str| (ctx.is_value)(name) || (ctx.is_family)(name) || (ctx.is_function)(name);
    if let TermKind::Apply(app) = &lhs.kind {
        let name = app.callee.occurrence().map(|o| o.name.to_string());
        let params: Option<Vec<String>> = app
            .args
            .iter()
            .map(|a| a.occurrence().filter(|o| o.scripts.is_empty()).map(|o| o.name.to_string()))
            .collect();
        let plain = app.given.is_empty() && app.sub.is_none() && app.sup.is_none() && app.over.is_none();
        return match (name, params) {
            (Some(name), Some(params))
                if plain && Builtin::from_name(&name).is_none() && !(ctx.is_value)(&name) =>
            {
                // The right side read as if the function were known, to find it calling itself.
                let is_function = |n: &str| n == name || (ctx.is_function)(n);
                let own = Context {
                    table: ctx.table,
                    is_value: ctx.is_value,
                    is_family: ctx.is_family,
                    is_function: &is_function,
                    max_depth: ctx.max_depth,
                };
                let body = Lowerer::new(own, params.clone()).lower_term(rhs)?;
                match calls_of(&body, &name) {
                    // Known already: `Q(s,a) = … Q(s',a')` is a claim about it.
                    Some(_) if (ctx.is_function)(&name) => Ok(None),
                    Some(span) => Err(EvalError::new(EvalErrorKind::DefinedThroughItself { name }, span)),
                    None => Ok(Some(Statement::Function { name, params, body })),
                }
            }
            _ => Ok(None),
        };
    }
    let (occurrence, squared) = match &lhs.kind {
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
        let body = lowerer(ctx, Vec::new()).lower_term(rhs)?;
        return Ok(Some(Statement::Let { name: name.to_string(), indices: Vec::new(), squared, body }));
    };
    let name = occurrence.base_name.to_string();
    let body = lowerer(ctx, indices.clone()).lower_term(rhs)?;
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

/// The span of the first call of `name` in `expr`.
fn calls_of(expr: &Expr, name: &str) -> Option<crate::syntax::ast::Span> {
    let mut found = None;
    super::walk::visit(expr, &mut |e| {
        if let ExprKind::UserCall(callee, _) = &e.kind {
            if callee == name && found.is_none() {
                found = Some(e.span);
            }
        }
    });
    found
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
