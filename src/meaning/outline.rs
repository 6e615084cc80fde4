//! A resolved tree written out in one line, for tests and `eqmap parse --format meaning`:
//! `-\sum_i y_i \log \hat{y}_i` is `(- (sum over i: (* y_i:vector (log hat_y_i:scalar))))`; a
//! factor marked `?call` could as well be the argument of the one before (`w(a+b)`).

use super::tree::{ScriptRole, Term, TermKind};
use std::fmt::Write;

/// The outline of `term`: applications, operators and their reach, signs, scripts with their
/// roles, and each symbol with its kind.
pub fn outline(term: &Term) -> String {
    let mut out = String::new();
    write_term(&mut out, term, 0);
    out
}

fn write_term(out: &mut String, term: &Term, depth: usize) {
    if depth > crate::syntax::depth::WALK_GUARD {
        out.push('…');
        return;
    }
    let d = depth + 1;
    match &term.kind {
        TermKind::Symbol(occurrence) => {
            let _ = write!(out, "{}:{}", occurrence.name, kind_word(occurrence.kind));
        }
        TermKind::Number | TermKind::Leaf => out.push_str(&crate::syntax::print::to_latex(term.node)),
        TermKind::Scripted { base, sub, sup, primes } => {
            out.push('(');
            write_term(out, base, d);
            for (mark, script) in [("_", sub), ("^", sup)] {
                if let Some(script) = script {
                    let _ = write!(out, " {mark}{}:", role_word(script.role));
                    write_term(out, &script.term, d);
                }
            }
            out.push_str(&"'".repeat(usize::from(*primes)));
            out.push(')');
        }
        TermKind::Apply(app) => {
            out.push('(');
            write_term(out, &app.callee, d);
            if let Some(over) = &app.over {
                out.push_str(" over ");
                write_term(out, over, d);
            }
            if let Some(base) = &app.base {
                out.push_str(" base ");
                write_term(out, base, d);
            }
            out.push_str(" applied to");
            for arg in &app.args {
                out.push(' ');
                write_term(out, arg, d);
            }
            if !app.given.is_empty() {
                out.push_str(" given");
                for g in &app.given {
                    out.push(' ');
                    write_term(out, g, d);
                }
            }
            for (mark, script) in [("_", &app.sub), ("^", &app.sup)] {
                if let Some(script) = script {
                    let _ = write!(out, " {mark}{}:", role_word(script.role));
                    write_term(out, &script.term, d);
                }
            }
            out.push(')');
        }
        TermKind::Operator(op) => {
            let _ = write!(out, "({}", op.name);
            if let Some(sup) = &op.sup {
                out.push('^');
                write_term(out, sup, d);
            }
            if let Some(sub) = &op.sub {
                out.push_str(" over ");
                write_term(out, sub, d);
                out.push(':');
            }
            if let Some(base) = &op.base {
                out.push_str(" base ");
                write_term(out, base, d);
                out.push(':');
            }
            out.push(' ');
            write_term(out, &op.operand, d);
            out.push(')');
        }
        TermKind::BigOp(big) => {
            let _ = write!(out, "({}", big.name);
            let limits =
                [(" var ", &big.var), (" from ", &big.lower), (" over ", &big.over), (" to ", &big.upper)];
            for (word, limit) in limits {
                if let Some(limit) = limit {
                    out.push_str(word);
                    write_term(out, limit, d);
                }
            }
            if let Some(body) = &big.body {
                out.push_str(": ");
                write_term(out, body, d);
            }
            if let Some(var) = &big.differential {
                out.push_str(" d");
                write_term(out, var, d);
            }
            out.push(')');
        }
        TermKind::Product(factors) => {
            out.push_str("(*");
            for factor in factors {
                out.push(' ');
                if factor.balanced {
                    // Applied to, or multiplied by? The evidence is balanced.
                    out.push_str("?call ");
                }
                if let Some(op) = factor.op.map(super::tree::infix_name).filter(|o| !o.is_empty()) {
                    let _ = write!(out, "{op} ");
                }
                write_term(out, &factor.term, d);
            }
            out.push(')');
        }
        TermKind::Sign { op, operand } => {
            let sign = match op {
                crate::syntax::ast::PrefixOp::Minus => "-",
                crate::syntax::ast::PrefixOp::Plus => "+",
                crate::syntax::ast::PrefixOp::PlusMinus => "±",
                crate::syntax::ast::PrefixOp::MinusPlus => "∓",
                crate::syntax::ast::PrefixOp::Not => "¬",
            };
            let _ = write!(out, "({sign} ");
            write_term(out, operand, d);
            out.push(')');
        }
        TermKind::Chain { first, rest } => {
            out.push('(');
            write_term(out, first, d);
            for joint in rest {
                let _ = write!(out, " {} ", super::tree::infix_name(joint.op));
                write_term(out, &joint.term, d);
            }
            out.push(')');
        }
        TermKind::Frac { num, den } => pair(out, "frac", num, den, d),
        TermKind::Binom { top, bottom } => pair(out, "binom", top, bottom, d),
        TermKind::Sqrt { index, radicand } => {
            out.push_str("(sqrt ");
            if let Some(index) = index {
                write_term(out, index, d);
                out.push(' ');
            }
            write_term(out, radicand, d);
            out.push(')');
        }
        TermKind::Factorial(x) => one(out, "!", x, d),
        TermKind::Interval { low, high } => pair(out, "interval", low, high, d),
        TermKind::Fenced { open, body } => one(out, &format!("{open:?}").to_lowercase(), body, d),
        TermKind::Accent { accent, body } => one(out, accent, body, d),
        TermKind::Wrapped(body) => write_term(out, body, d),
        TermKind::Annotated { body, label } => {
            out.push_str("(annotated ");
            write_term(out, body, d);
            if let Some(label) = label {
                out.push(' ');
                write_term(out, label, d);
            }
            out.push(')');
        }
        TermKind::Rows(rows) => {
            out.push_str("(rows");
            for row in rows {
                out.push_str(" [");
                for (i, cell) in row.iter().enumerate() {
                    if i > 0 {
                        out.push_str(" & ");
                    }
                    write_term(out, cell, d);
                }
                out.push(']');
            }
            out.push(')');
        }
        TermKind::Prose(clauses) => {
            out.push_str("(prose");
            for clause in clauses {
                for part in clause.words.iter().chain(&clause.term) {
                    out.push(' ');
                    write_term(out, part, d);
                }
            }
            out.push(')');
        }
    }
    if let TermKind::Symbol(occurrence) = &term.kind {
        for script in &occurrence.scripts {
            if !matches!(script.role, ScriptRole::Label) {
                let _ = write!(out, "[{}:", role_word(script.role));
                write_term(out, &script.term, d);
                out.push(']');
            }
        }
    }
}

fn pair(out: &mut String, name: &str, a: &Term, b: &Term, d: usize) {
    let _ = write!(out, "({name} ");
    write_term(out, a, d);
    out.push(' ');
    write_term(out, b, d);
    out.push(')');
}

fn one(out: &mut String, name: &str, a: &Term, d: usize) {
    let _ = write!(out, "({name} ");
    write_term(out, a, d);
    out.push(')');
}

/// The word of a kind, as the JSON and the documentation write it.
pub fn kind_word(kind: super::SymbolKind) -> &'static str {
    use super::SymbolKind::*;
    match kind {
        Scalar => "scalar",
        Vector => "vector",
        Matrix => "matrix",
        Dimension => "dimension",
        Index => "index",
        Function => "function",
        Set => "set",
        RandomVariable => "random_variable",
        Distribution => "distribution",
        Unknown => "unknown",
    }
}

fn role_word(role: ScriptRole) -> &'static str {
    match role {
        ScriptRole::Index => "index",
        ScriptRole::Label => "label",
        ScriptRole::Range => "range",
        ScriptRole::Power => "power",
        ScriptRole::Transpose => "transpose",
        ScriptRole::Inverse => "inverse",
        ScriptRole::Family => "family",
        ScriptRole::Layer => "layer",
        ScriptRole::Mark => "mark",
        ScriptRole::Over => "over",
        ScriptRole::Ordinal => "ordinal",
        ScriptRole::Order => "order",
    }
}
