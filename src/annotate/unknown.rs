//! Notation that no visible slot explains (`unknown_notation`): unknown commands, function
//! names, large operators, accents, special brackets and environments, which the map lists as
//! notation eqmap does not know yet. A symbol's own label is part of its name, not notation.

use super::{is_symbol_like, RawSlot, MAX_WALK_DEPTH};
use crate::meaning::{SymbolTable, TermIndex};
use crate::syntax::ast::{Delim, Node, NodeKind, Span};

/// Notation that no visible slot explains: unknown commands, function names, large
/// operators, accents, special brackets and environments. Returns each node's span and text.
pub fn unknown_notation(
    root: &Node,
    source: &str,
    table: &SymbolTable,
    meaning: &TermIndex,
    slots: &[RawSlot],
) -> Vec<(Span, String)> {
    let mut found = Vec::new();
    collect_notation(root, table, meaning, &mut found, 0);
    let covered = |span: Span| {
        slots
            .iter()
            .filter(|s| s.visible && s.explains_notation)
            .flat_map(|s| s.occurrences.iter().chain(&s.explains))
            .any(|s| s.start <= span.start && span.start < s.end.max(s.start + 1))
    };
    let mut out: Vec<(Span, String)> = Vec::new();
    for span in found {
        if covered(span) {
            continue;
        }
        let text = span.text(source).trim().to_string();
        if !text.is_empty() && !out.iter().any(|(_, t)| *t == text) {
            out.push((span, text));
        }
    }
    out
}

/// The head span of every notation node: the command itself for compounds (`\hat`, not
/// `\hat{y}`), the whole node for names.
fn collect_notation(
    node: &Node,
    table: &SymbolTable,
    meaning: &TermIndex,
    out: &mut Vec<Span>,
    depth: usize,
) {
    if depth > MAX_WALK_DEPTH {
        return;
    }
    match &node.kind {
        // A function the formulas define explains itself.
        NodeKind::Word { text, .. } if table.definition(text).is_some() => {}
        // `\arg` of `\arg\min_\theta`: one operator with the `\min` after it, whose row it shares.
        NodeKind::Word { text, .. } if text == "arg" => {}
        // `\text{head}`, `\text{score}`: names of quantities, written as words.
        NodeKind::Word { style: crate::syntax::ast::WordStyle::Text, .. } => {}
        // `\stackrel{\mathrm{def}}{=}`: the word marks a definition; it is no notation to learn.
        NodeKind::Word { text, .. } if text == "def" => {}
        // `k^{\mathrm{th}}`: an ordinal's ending, part of the number it follows.
        NodeKind::Word { text, .. } if crate::meaning::is_ordinal_ending(text) => {}
        // `\mathit{keep\_prob}`: a quantity named by a word is a symbol, no notation to learn (a
        // word applied as a function, `\mathrm{spline}(x)`, may be).
        NodeKind::Word { .. } if names_a_value(meaning, node) => {}
        // A named symbol (`d_{\rm model}`, `W_{\mathrm{out}}`): its subscript is part of a name.
        NodeKind::Scripts { .. } if is_symbol_like(meaning, node) => return,
        // `\ell_i^{\mathrm{new}}`: a label beside an index is part of the name too.
        NodeKind::Scripts { base, sub, sup, .. } => {
            for part in std::iter::once(base).chain(sub).chain(sup) {
                if !meaning.is_label_of(node, part) && !is_label_script(part) {
                    collect_notation(part, table, meaning, out, depth + 1);
                }
            }
            return;
        }
        NodeKind::Unknown { .. } | NodeKind::Word { .. } | NodeKind::LargeOp { .. } => out.push(node.span),
        NodeKind::Symbol { name, .. } if is_special_symbol(name) => out.push(node.span),
        NodeKind::Rows(_) if node.environment().is_some_and(|env| !is_layout(env)) => out.push(node.span),
        NodeKind::Accent { .. } | NodeKind::Styled { .. } | NodeKind::Binom { .. } => out.push(node.span),
        NodeKind::Fenced {
            open: Delim::Angle | Delim::Floor | Delim::Ceil | Delim::DoubleBracket, ..
        } => out.push(node.span),
        _ => {}
    }
    node.for_each_child(|child| collect_notation(child, table, meaning, out, depth + 1));
}

/// Whether the meaning layer reads `node` as one symbol holding a value (a number, an array, a
/// size, a set), not a function or something it cannot tell.
fn names_a_value(meaning: &TermIndex, node: &Node) -> bool {
    use crate::meaning::SymbolKind::{Function, Unknown};
    meaning.is_symbol(node) && meaning.kind(node).is_some_and(|kind| !matches!(kind, Function | Unknown))
}

/// `\mathbf{w}^{(\mathrm{new})}`, `W^{\mathrm{old}}`: a script that is a word papers label with
/// (`label_words` in `data/notation.toml`), in parentheses or not, marks a version of the
/// symbol; it is no notation to learn.
fn is_label_script(script: &Node) -> bool {
    let word = match &script.kind {
        NodeKind::Fenced { open: Delim::Paren, body, .. } => body.as_ref(),
        _ => script,
    };
    let labels = &crate::meaning::notation::Notation::shipped().label_words;
    matches!(&word.kind, NodeKind::Word { text, .. } if crate::meaning::notation::has(labels, text))
}

/// Environments that only lay out lines (`aligned`, `split`): not notation of their own.
fn is_layout(env: &str) -> bool {
    let env = env.trim_end_matches('*');
    matches!(
        env,
        "aligned"
            | "align"
            | "alignat"
            | "alignedat"
            | "split"
            | "gather"
            | "gathered"
            | "multline"
            | "eqnarray"
            | "array"
            | "equation"
            | ""
    )
}

fn is_special_symbol(name: &str) -> bool {
    matches!(name, "nabla" | "partial" | "infty" | "hbar" | "emptyset" | "forall" | "exists" | "dagger")
}
