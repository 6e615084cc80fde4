//! Words of prose between statements: `\|x\| > 0 \textrm{ for all } x \neq 0`,
//! `\nabla L = 0 \text{ and hence } X^\top y = X^\top X w`, `\text{if } x < 0`.
//!
//! Such a word is not a factor of the row it sits in: it ends one clause and opens the next.
//! A row is cut at its prose words (before a large operator could take them into its body), and
//! a chain of relations with such a row inside is cut there too (`chains.rs`), so every clause
//! is a statement of its own ([`super::TermKind::Prose`]).

use super::notation::Notation;
use super::resolve::Item;
use crate::syntax::ast::{Delim, InfixOp, Node, NodeKind, WordStyle};

/// Whether `node` is prose written as text (`\text{ for all }`, `\textrm{and}`): words with
/// space around or between them, or connectives. A name written as text (`\text{softmax}`,
/// `\textrm{velocity}`) is not: `is_name` says which words are names.
pub(super) fn is_prose_word(node: &Node, notation: &Notation, is_name: impl Fn(&Node) -> bool) -> bool {
    let NodeKind::Word { style: WordStyle::Text, text } = &node.kind else { return false };
    if is_name(node) || text.trim().is_empty() {
        return false;
    }
    text.contains(char::is_whitespace) || is_connectives(text, notation)
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

/// The items of a row cut at its prose words: the items before the first word, then each word
/// with the items after it. `None` when the row holds no prose, or nothing else.
pub(super) fn cut_row<'r, 'n>(
    items: &'r [Item<'n>],
    is_prose: impl Fn(&Node) -> bool,
) -> Option<RowCut<'r, 'n>> {
    let cuts = |items: &[Item<'n>]| {
        (0..items.len()).find(|&i| items.get(i).is_some_and(|(_, _, n)| is_prose(n)) && !is_applied(items, i))
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
