//! The one depth rule: how deep a formula nests, counted the same way in every layer.
//!
//! **A level is a node that holds other nodes.** `x` is no level deep, `x^2` one, `\frac{a}{b^2}`
//! two, `\sqrt{\sqrt{\sqrt{2}}}` three; a flat chain (`a + b + … + z`, `Q K V`) is one level
//! however long it is, and braces that only group (`{a + b}`) leave no node and add no level to
//! the tree. The deepest path from the root to a leaf counts the levels of a formula.
//!
//! One limit, `N` ([`crate::Limits::max_depth`], `--max-depth`, default [`DEFAULT_MAX_DEPTH`],
//! at most [`MAX_DEPTH_CEILING`]), is applied with this count:
//!
//! - **parse** refuses a formula whose tree is deeper than `N` ([`deeper_than`], after reading),
//!   and, before reading, one whose groups nest deeper than `N` in the source: every group the
//!   grammar recurses into (`{`, `(`, `[`, `\left`, `\begin`, the bracket words `\lfloor`,
//!   `\langle`, `\{`…, font switches) is counted as a level there, since the grammar and the
//!   tree builder recurse once per group (so 300 bare braces `{{{…x…}}}` are refused at the
//!   same `N` as 300 roots, though their tree is flat). Where a group holds more than one
//!   level (`{a + \frac{…}{…}}` is a chain holding a fraction), the count of the tree is the
//!   larger and decides. Both say "too deep (limit `N`)" with a caret.
//! - **meaning** resolves the tree into terms that nest as the syntax does, except where an
//!   operator reaches over the rest of a flat row (`\log \log \log x`, `\sum_i \sum_j …`): each
//!   such reach is one more level of the resolved tree, counted by the same rule.
//!   `meaning::resolve_checked` refuses a resolved tree more than `N` levels deep with the
//!   parser's error and the span of the term past the limit, for map, compare, read, batch,
//!   eval and grad (so `\sin` written 257 times before `x` parses, a flat chain, and is too
//!   deep for them); eval checks its own trees against the same `N`.
//! - every other layer (annotation, reading, printing, the trees and JSON of `parse`) walks
//!   trees that are at most `N` deep, so none has a limit of its own that elides or refuses a
//!   formula the parser took; their guards ([`WALK_GUARD`]) only stop a walk that a caller of
//!   the library started on a tree it built itself.
//!
//! Other bounds are different quantities and have their own limits: signs in a row
//! ([`crate::Limits::max_signs`]), scripts stacked on one base ([`crate::Limits::max_scripts`]),
//! and how deeply definitions call each other when evaluated (`eval::infer::MAX_CALL_DEPTH`, a
//! nesting of calls at run time, not of the formula).

use super::ast::{Node, Span};

/// The default nesting limit (`--max-depth`): far past any real formula.
pub const DEFAULT_MAX_DEPTH: usize = 256;

/// The deepest nesting any caller may ask for: every layer after the parser walks trees
/// recursively, and a thread with [`STACK_AT_CEILING`] bytes of stack takes a tree this deep
/// through all of them. A larger limit is lowered to this one.
pub const MAX_DEPTH_CEILING: usize = 1_000;

/// The stack a thread needs per level of the limit in use, to take a formula that deep through
/// every layer (parse, map, read, eval, grad), in a debug build too: [`stack_for`].
pub const STACK_PER_LEVEL: usize = 64 * 1024;

/// The stack a thread needs below the first level: the frames of the command, of batch's
/// pipeline and of each layer's entry.
pub const STACK_BASE: usize = 2 * 1024 * 1024;

/// The stack of a thread that takes formulas up to `max_depth` levels deep (at most
/// [`MAX_DEPTH_CEILING`]) through every layer, in a debug build too: [`STACK_BASE`] and
/// [`STACK_PER_LEVEL`] a level. The binary's work thread, batch's threads and the server's
/// get it for the limit in use: 18 MiB at the default limit, so that batch starts its threads
/// within a 256 MiB address space; 64.5 MiB at the ceiling. Only the pages used are committed.
/// In a release build the deepest formulas at the default limit use about 1 MiB
/// (`tests/regressions.rs` runs them on 1.5 MiB).
pub const fn stack_for(max_depth: usize) -> usize {
    let levels = if max_depth < MAX_DEPTH_CEILING { max_depth } else { MAX_DEPTH_CEILING };
    STACK_BASE + levels * STACK_PER_LEVEL
}

/// The stack of a thread that takes formulas up to [`MAX_DEPTH_CEILING`] levels deep:
/// [`stack_for`] the ceiling.
pub const STACK_AT_CEILING: usize = stack_for(MAX_DEPTH_CEILING);

/// The guard of recursive walks over trees that the limit already bounds: four times the
/// ceiling and some, past any tree the parser accepts and past the steps meaning's resolution
/// may take on one (`meaning::resolve::guard`), so that it never stops a walk
/// over a formula that was accepted; it only keeps a walk over a tree a library caller built
/// by hand from overflowing the stack.
pub const WALK_GUARD: usize = 4 * MAX_DEPTH_CEILING + 64;

/// Whether `node` is a level: whether it holds other nodes.
pub fn is_level(node: &Node) -> bool {
    let mut holds = false;
    node.for_each_child(|_| holds = true);
    holds
}

/// The span of the first node (in source order of the walk) that lies more than `limit` levels
/// deep in `root`, found without recursion: the node where a formula passes the limit.
pub fn deeper_than(root: &Node, limit: usize) -> Option<Span> {
    let mut stack: Vec<(&Node, usize)> = vec![(root, 0)];
    while let Some((node, above)) = stack.pop() {
        let level = above + usize::from(is_level(node));
        if level > limit {
            return Some(node.span);
        }
        let first_child = stack.len();
        node.for_each_child(|child| stack.push((child, level)));
        // Children in source order: the first pushed is popped last, so reverse them.
        if let Some(children) = stack.get_mut(first_child..) {
            children.reverse();
        }
    }
    None
}

/// How many levels deep `root` is (see the module comment), counted without recursion.
pub fn depth(root: &Node) -> usize {
    let mut deepest = 0;
    let mut stack: Vec<(&Node, usize)> = vec![(root, 0)];
    while let Some((node, above)) = stack.pop() {
        let level = above + usize::from(is_level(node));
        deepest = deepest.max(level);
        node.for_each_child(|child| stack.push((child, level)));
    }
    deepest
}

#[cfg(test)]
mod tests {
    use super::*;

    fn depth_of(source: &str) -> Option<usize> {
        let limits = crate::Limits { max_depth: 1_000, ..crate::Limits::default() };
        crate::syntax::parse_with(source, &limits).ok().map(|parsed| depth(&parsed.root))
    }

    #[test]
    fn a_level_is_a_node_that_holds_others() {
        assert_eq!(depth_of("x"), Some(0));
        assert_eq!(depth_of("x^2"), Some(1));
        assert_eq!(depth_of(r"\frac{a}{b^2}"), Some(2));
        assert_eq!(depth_of(r"\sqrt{\sqrt{\sqrt{2}}}"), Some(3));
        assert_eq!(depth_of("{{{x}}}"), Some(0));
        assert_eq!(depth_of("a + b + c + d"), Some(1));
        assert_eq!(depth_of(&"Q ".repeat(500)), Some(1));
    }

    #[test]
    fn the_node_past_the_limit_is_the_innermost_level_too_many() {
        let source = r"\sqrt{\sqrt{\sqrt{2}}}";
        let parsed = crate::syntax::parse(source).ok();
        let root = parsed.as_ref().map(|p| &p.root);
        assert_eq!(root.and_then(|r| deeper_than(r, 3)), None);
        let span = root.and_then(|r| deeper_than(r, 2));
        assert_eq!(span.map(|s| s.text(source)), Some(r"\sqrt{2}"));
    }
}
