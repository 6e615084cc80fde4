//! Words of prose between statements: `\|x\| > 0 \textrm{ for all } x \neq 0`,
//! `\nabla L = 0 \text{ and hence } X^\top y = X^\top X w`, `\text{if } x < 0`.
//!
//! Such a word is not a factor of the row it sits in: it ends one clause and opens the next.
//! A row is cut at its prose words (before a large operator could take them into its body), and
//! a chain of relations with such a row inside is cut there too (`chains.rs`), so every clause
//! is a statement of its own ([`super::TermKind::Prose`]).

use super::notation::Notation;
use super::resolve::Item;
use super::tree::{Clause, Joint, Term, TermKind};
use crate::syntax::ast::{Delim, InfixOp, Node, NodeKind, WordStyle};

/// Whether `node` is prose written as text (`\text{ for all }`, `\textrm{and}`): words with
/// space around or between them, or connectives. A name written as text (`\text{softmax}`,
/// `\textrm{velocity}`) is not: `is_name` says which words are names.
pub(super) fn is_prose_word(node: &Node, notation: &Notation, is_name: impl Fn(&Node) -> bool) -> bool {
    if is_quantifier(node) {
        return true;
    }
    let NodeKind::Word { style: WordStyle::Text, text } = &node.kind else { return false };
    if is_name(node) || text.trim().is_empty() {
        return false;
    }
    text.contains(char::is_whitespace) || is_connectives(text, notation)
}

/// Whether `node` is `\forall` or `\exists`, which open a clause as "for all" does in words:
/// `\forall x \in X, f(x) \ge 0`, `x_i \ge 0 \; \forall i`.
pub(super) fn is_quantifier(node: &Node) -> bool {
    matches!(&node.kind, NodeKind::Symbol { name, .. } if name == "forall" || name == "exists" || name == "nexists")
}

/// Whether every word of `text` is a word of prose (`and`, `for all`, `s.t.`; the list is
/// `prose_words` of `data/notation.toml`).
pub(super) fn is_connectives(text: &str, notation: &Notation) -> bool {
    text.split_whitespace().all(|w| super::notation::has(&notation.prose_words, &w.to_ascii_lowercase()))
}

/// A row cut at its prose: the items before the first word, then each word with the items
/// after it.
pub(super) type RowCut<'r, 'n> = (&'r [Item<'n>], Vec<(&'n Node, &'r [Item<'n>])>);

/// Whether the word at `i` is applied to the parenthesis right after it, as a name written in
/// text is (`\textrm{leaky ReLU}(x)`).
fn is_applied(items: &[Item], i: usize) -> bool {
    let next = items.get(i + 1).filter(|(op, _, _)| matches!(op, Some(InfixOp::Juxt)));
    let spaced = |n: &Node| matches!(&n.kind, NodeKind::Word { text, .. } if text.starts_with(' ') || text.ends_with(' '));
    let word_unspaced = items.get(i).is_some_and(|(_, _, n)| !spaced(n));
    word_unspaced
        && next.is_some_and(|(_, _, n)| matches!(n.kind, NodeKind::Fenced { open: Delim::Paren, .. }))
}

/// Whether the word at `i` is an operand of arithmetic (`\times \text{capacity factor}`,
/// `\text{params} \cdot 6`): a quantity named in words, not prose between clauses.
fn is_operand(items: &[Item], i: usize) -> bool {
    let arithmetic =
        |op: &Option<&InfixOp>| matches!(op, Some(InfixOp::Multiplicative(_) | InfixOp::Additive(_)));
    items.get(i).is_some_and(|(op, _, _)| arithmetic(op))
        || items.get(i + 1).is_some_and(|(op, _, _)| arithmetic(op))
}

/// The items of a row cut at its prose words: the items before the first word, then each word
/// with the items after it. `None` when the row holds no prose, or nothing else.
pub(super) fn cut_row<'r, 'n>(
    items: &'r [Item<'n>],
    is_prose: impl Fn(&Node) -> bool,
) -> Option<RowCut<'r, 'n>> {
    let cuts = |items: &[Item<'n>]| {
        (0..items.len()).find(|&i| {
            items.get(i).is_some_and(|(_, _, n)| is_prose(n))
                && !is_applied(items, i)
                && !is_operand(items, i)
        })
    };
    if items.len() < 2 {
        return None;
    }
    let first_word = cuts(items)?;
    let (head, mut tail) = items.split_at(first_word);
    let mut clauses = Vec::new();
    while let Some(((_, _, word), after)) = tail.split_first() {
        let next = cuts(after).unwrap_or(after.len());
        let (body, rest) = after.split_at(next);
        clauses.push((*word, body));
        tail = rest;
    }
    Some((head, clauses))
}

/// `\forall x \in X, f(x) \ge 0`, `\exists x : f(x) = 0`, `\forall i, j: a_{ij} \ge 0`: what a
/// quantifier binds ends at a colon, or at a comma before a statement (`\forall i, j` binds both
/// letters); the statement after it is a clause of its own.
pub(super) fn split_quantified(clauses: Vec<Clause<'_>>) -> Vec<Clause<'_>> {
    let mut out = Vec::with_capacity(clauses.len() + 1);
    for clause in clauses {
        let quantified = clause.words.as_ref().is_some_and(|w| is_quantifier(w.node));
        match clause.term {
            Some(term) if quantified => {
                let (binder, statement) = split_binder(term);
                out.push(Clause { words: clause.words, term: Some(binder) });
                if let Some(statement) = statement {
                    out.push(Clause { words: None, term: Some(statement) });
                }
            }
            term => out.push(Clause { words: clause.words, term }),
        }
    }
    out
}

/// What a quantifier binds and the statement after it, if the term holds one.
fn split_binder(term: Term<'_>) -> (Term<'_>, Option<Term<'_>>) {
    let Term { kind: TermKind::Chain { first, mut rest }, span, node } = term else { return (term, None) };
    let colon = rest.iter().position(|j| is_colon(j.op));
    let comma = || {
        rest.iter()
            .position(|j| matches!(j.op, InfixOp::Separator(_)) && (states(&j.term) || holds_colon(&j.term)))
    };
    let Some(k) = colon.or_else(comma) else {
        return (Term { kind: TermKind::Chain { first, rest }, span, node }, None);
    };
    let mut tail = rest.split_off(k).into_iter();
    let Some(mut joint) = tail.next() else { return (chain(*first, rest, node), None) };
    let tail: Vec<Joint> = tail.collect();
    if !is_colon(joint.op) && holds_colon(&joint.term) {
        // `\forall i, j: …`: the colon sits in the last operand of the comma list.
        let (last, statement) = split_binder(joint.term);
        joint.term = last;
        rest.push(joint);
        return (chain(*first, rest, node), statement.map(|s| chain(s, tail, node)));
    }
    (chain(*first, rest, node), Some(chain(joint.term, tail, node)))
}

/// A chain of `first` and `rest`, or `first` alone.
fn chain<'n>(first: Term<'n>, rest: Vec<Joint<'n>>, node: &'n Node) -> Term<'n> {
    let Some(last) = rest.last() else { return first };
    let span = crate::syntax::ast::Span { start: first.span.start, end: last.term.span.end };
    Term::new(TermKind::Chain { first: first.boxed(), rest }, span, node)
}

/// Whether a term states something: a chain with a relation.
fn states(term: &Term) -> bool {
    matches!(&term.kind, TermKind::Chain { rest, .. } if rest.iter().any(|j| matches!(j.op, InfixOp::Relation(_))))
}

/// Whether a chain holds a colon at its top level.
fn holds_colon(term: &Term) -> bool {
    matches!(&term.kind, TermKind::Chain { rest, .. } if rest.iter().any(|j| is_colon(j.op)))
}

/// Whether an operator is the colon of "such that": `:` or `\colon`.
fn is_colon(op: &InfixOp) -> bool {
    matches!(op, InfixOp::Relation(r) | InfixOp::Separator(r) if r == ":" || r == "\\colon")
}
