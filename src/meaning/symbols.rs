//! The symbols of a formula, one entry a name, and the kind of any resolved term.

use super::tree::{ScriptRole, SymbolEntry, Term, TermKind};
use super::SymbolKind;

/// The symbols of `term`, one entry a binding name, in order of first occurrence. An entry's
/// kind is that of its best-founded occurrence.
pub fn symbols(term: &Term, source: &str) -> Vec<SymbolEntry> {
    let mut entries: Vec<SymbolEntry> = Vec::new();
    for occurrence in term.occurrences() {
        let span = symbol_span(term, occurrence);
        match entries.iter_mut().find(|e| e.name == occurrence.name) {
            Some(entry) => {
                if !entry.spans.contains(&span) {
                    entry.spans.push(span);
                }
                if occurrence.evidence < entry.evidence {
                    entry.kind = occurrence.kind;
                    entry.evidence = occurrence.evidence;
                }
            }
            None => entries.push(SymbolEntry {
                name: occurrence.name.clone(),
                latex: span.text(source).trim().to_string(),
                kind: occurrence.kind,
                spans: vec![span],
                evidence: occurrence.evidence,
            }),
        }
    }
    entries
}

/// The span of an occurrence: its base with the scripts that are part of it.
fn symbol_span(_root: &Term, occurrence: &super::Occurrence) -> crate::syntax::ast::Span {
    occurrence
        .scripts
        .iter()
        .fold(occurrence.base.span, |span, script| span.join(script.term.span))
}

/// The kind of a resolved term: a symbol's own, a product's by its factors, an application's
/// by what the function gives.
pub fn kind_of_term(term: &Term) -> SymbolKind {
    kind_at(term, 0)
}

fn kind_at(term: &Term, depth: usize) -> SymbolKind {
    if depth > super::MAX_DEPTH {
        return SymbolKind::Unknown;
    }
    let d = depth + 1;
    match &term.kind {
        TermKind::Symbol(occurrence) => occurrence.kind,
        TermKind::Number => SymbolKind::Scalar,
        TermKind::Leaf => SymbolKind::Unknown,
        TermKind::Scripted { base, sub, sup, .. } => {
            let base_kind = kind_at(base, d);
            let picked = sub.as_ref().is_some_and(|s| s.role == ScriptRole::Index);
            let power = sup.as_ref().is_some_and(|s| s.role == ScriptRole::Power);
            match (base_kind, picked) {
                (SymbolKind::Matrix, true) => SymbolKind::Scalar,
                (SymbolKind::Vector, true) => SymbolKind::Scalar,
                (kind, _) if power && kind == SymbolKind::Vector => SymbolKind::Vector,
                (kind, _) => kind,
            }
        }
        TermKind::Apply(app) => {
            let name = app.callee.occurrence().map(|o| o.base_name.as_str()).unwrap_or("");
            let elementwise = matches!(
                name,
                "softmax" | "Softmax" | "sigma" | "tanh" | "ReLU" | "relu" | "GELU" | "exp" | "log" | "LayerNorm"
                    | "LN" | "Dropout" | "dropout" | "Attention" | "MultiHead" | "FFN" | "Concat"
            );
            match app.args.first() {
                Some(arg) if elementwise => kind_at(arg, d),
                _ => SymbolKind::Unknown,
            }
        }
        TermKind::Operator(op) => match op.name {
            "nabla" | "Delta" | "exp" | "log" => kind_at(&op.operand, d),
            _ => SymbolKind::Scalar,
        },
        TermKind::BigOp(big) => match big.name.as_str() {
            "sum" => big.body.as_ref().map_or(SymbolKind::Unknown, |b| kind_at(b, d)),
            _ => SymbolKind::Scalar,
        },
        TermKind::Product(factors) => {
            let kinds: Vec<SymbolKind> = factors.iter().map(|f| kind_at(&f.term, d)).collect();
            if kinds.contains(&SymbolKind::Matrix) {
                SymbolKind::Matrix
            } else if kinds.contains(&SymbolKind::Vector) {
                SymbolKind::Vector
            } else {
                kinds.first().copied().unwrap_or(SymbolKind::Unknown)
            }
        }
        TermKind::Sign { operand, .. } | TermKind::Factorial(operand) => kind_at(operand, d),
        TermKind::Chain { first, rest } => {
            let relation = rest.first().is_some_and(|j| matches!(j.op, crate::syntax::ast::InfixOp::Relation(_)));
            if relation {
                kind_at(first, d)
            } else {
                std::iter::once(kind_at(first, d))
                    .chain(rest.iter().map(|j| kind_at(&j.term, d)))
                    .max_by_key(|k| rank(*k))
                    .unwrap_or(SymbolKind::Unknown)
            }
        }
        TermKind::Frac { num, .. } => kind_at(num, d),
        TermKind::Sqrt { .. } | TermKind::Binom { .. } => SymbolKind::Scalar,
        TermKind::Fenced { open, body } => match open {
            crate::syntax::ast::Delim::Paren | crate::syntax::ast::Delim::Bracket => kind_at(body, d),
            _ => SymbolKind::Scalar,
        },
        TermKind::Accent { body, .. } | TermKind::Wrapped(body) => kind_at(body, d),
        TermKind::Annotated { body, .. } => kind_at(body, d),
        TermKind::Rows(_) if term.node.environment().is_some_and(|env| env.ends_with("matrix")) => SymbolKind::Matrix,
        TermKind::Rows(_) => SymbolKind::Unknown,
    }
}

/// Which kind wins in a sum of different kinds: a matrix plus a vector broadcasts to a matrix.
fn rank(kind: SymbolKind) -> u8 {
    match kind {
        SymbolKind::Matrix => 3,
        SymbolKind::Vector => 2,
        SymbolKind::Unknown => 0,
        _ => 1,
    }
}
