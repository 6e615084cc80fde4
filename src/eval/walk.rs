//! Walking [`Expr`] trees: children, visits, and the free indices of an expression.
//!
//! A free index is a name used to index (`i` in `Q_{it}`, `h` in `W_Q^h`) that no sum,
//! parameter or value binds; an expression with free indices evaluates to the array of its
//! values over them, like einsum (`\sum_t Q_{it}K_{jt}` is the n × n matrix QKᵀ).

use super::expr::{Expr, ExprKind};

/// The direct children of a node, in source order.
pub fn children(expr: &Expr) -> Vec<&Expr> {
    match &expr.kind {
        ExprKind::Number(_) | ExprKind::Symbol(..) | ExprKind::Ones | ExprKind::Identity => Vec::new(),
        ExprKind::Neg(a) | ExprKind::Transpose(a) | ExprKind::Norm(a, _) | ExprKind::Annotated(a, _) => {
            vec![a]
        }
        ExprKind::Member(_, a) => vec![a],
        ExprKind::Binary(_, a, b) | ExprKind::Power(a, b) | ExprKind::Range(_, a, b) => vec![a, b],
        ExprKind::Fold(first, rest) => {
            std::iter::once(first.as_ref()).chain(rest.iter().map(|(_, e)| e)).collect()
        }
        ExprKind::Call(_, args) | ExprKind::UserCall(_, args) => args.iter().collect(),
        ExprKind::Index(base, indices) => std::iter::once(base.as_ref()).chain(indices).collect(),
        ExprKind::Reduce(r) => r.lower.iter().chain(r.upper.iter()).chain([&r.body]).collect(),
        ExprKind::Matrix(rows) => rows.iter().flatten().collect(),
    }
}

/// Calls `f` on every node, parents before children.
pub fn visit(expr: &Expr, f: &mut impl FnMut(&Expr)) {
    let mut stack = vec![expr];
    while let Some(e) = stack.pop() {
        f(e);
        stack.extend(children(e).into_iter().rev());
    }
}

/// The free indices of `expr`, in order of first use, given which names have values.
pub fn free_indices(expr: &Expr, is_value: &dyn Fn(&str) -> bool) -> Vec<String> {
    let mut out = Vec::new();
    collect(expr, is_value, &mut Vec::new(), false, &mut out);
    out
}

fn collect(
    expr: &Expr,
    is_value: &dyn Fn(&str) -> bool,
    bound: &mut Vec<String>,
    in_index: bool,
    out: &mut Vec<String>,
) {
    match &expr.kind {
        ExprKind::Symbol(name, _) => {
            let free = in_index && !bound.contains(name) && !is_value(name) && !out.contains(name);
            if free {
                out.push(name.clone());
            }
        }
        ExprKind::Index(base, indices) => {
            collect(base, is_value, bound, in_index, out);
            for index in indices {
                collect(index, is_value, bound, true, out);
            }
        }
        ExprKind::Member(_, index) => collect(index, is_value, bound, true, out),
        ExprKind::Reduce(r) => {
            for bound_expr in r.lower.iter().chain(r.upper.iter()) {
                collect(bound_expr, is_value, bound, in_index, out);
            }
            bound.push(r.var.clone());
            collect(&r.body, is_value, bound, in_index, out);
            bound.pop();
        }
        _ => {
            for child in children(expr) {
                collect(child, is_value, bound, in_index, out);
            }
        }
    }
}

/// The families whose members `expr` picks with `index` (`W_Q` in `XW_Q^h` for h).
pub fn member_families(expr: &Expr, index: &str) -> Vec<String> {
    let mut out = Vec::new();
    visit(expr, &mut |e| {
        if let ExprKind::Member(name, i) = &e.kind {
            if matches!(&i.kind, ExprKind::Symbol(n, _) if n == index) && !out.contains(name) {
                out.push(name.clone());
            }
        }
    });
    out
}

/// The ids of the nodes of `expr` whose value depends on any of `names` (used by loops to
/// compute everything else once).
pub fn dependent_ids(expr: &Expr, names: &[String]) -> std::collections::HashSet<usize> {
    let mut out = std::collections::HashSet::new();
    mark(expr, names, &mut out);
    out
}

fn mark(expr: &Expr, names: &[String], out: &mut std::collections::HashSet<usize>) -> bool {
    let mut depends = matches!(&expr.kind, ExprKind::Symbol(name, _) if names.contains(name));
    for child in children(expr) {
        depends |= mark(child, names, out);
    }
    if depends {
        out.insert(expr.id);
    }
    depends
}

/// The variables of every reduction in `expr`.
pub fn reduction_vars(expr: &Expr) -> Vec<String> {
    let mut out = Vec::new();
    visit(expr, &mut |e| {
        if let ExprKind::Reduce(r) = &e.kind {
            out.push(r.var.clone());
        }
    });
    out
}
