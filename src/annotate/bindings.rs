//! What a pattern's metavariables matched, and a match: a few names kept inline (copied at
//! each step of a nested chain pattern's alignment), each with how far what it stands for
//! reaches (a call's argument it takes, a run or a body it ends on).

use crate::syntax::ast::{Node, Span};

use super::pattern::end_before_stop;

/// The most metavariables a pattern may name; [`super::pattern::Pattern::compile`] refuses more.
pub const MAX_METAVARIABLES: usize = 8;

/// What metavariables matched: a few names, kept inline, so that trying a pattern allocates
/// nothing (most tries fail).
#[derive(Debug, Clone, Copy, Default)]
pub struct Bindings<'t> {
    entries: [Option<(&'t str, &'t Node)>; MAX_METAVARIABLES],
    /// Where what each entry stands for ends, when that is past its node: a metavariable that
    /// ends a nested chain pattern matching a longer chain (`\partial $Y` against `\partial
    /// \mathbf{x}^\top \mathbf{a}`) stands for the rest of the chain.
    ends: [usize; MAX_METAVARIABLES],
    /// Where what each entry stands for begins, when that is before its node: a metavariable
    /// that begins a chain pattern on a call's argument stands for the whole call (`$A` in
    /// `$A \odot $B` against `h(\mathbf{c}) \odot \mathbf{o}` is `h(\mathbf{c})`). Kept as the
    /// start plus one, 0 for none: half the bytes of an `Option`, as bindings are copied at
    /// each step of a nested chain pattern's alignment.
    starts: [usize; MAX_METAVARIABLES],
    /// The parenthesis a name an entry matched is applied to, when the entry stands for the
    /// call as written (`$X` in `$A $X + …` against `\alpha f(x) + …` is `f` and `(x)`).
    arguments: [Option<&'t Node>; MAX_METAVARIABLES],
}

impl<'t> Bindings<'t> {
    /// No bindings.
    pub fn new() -> Self {
        Bindings::default()
    }

    /// What `name` matched.
    pub fn get(&self, name: &str) -> Option<&'t Node> {
        self.entries.iter().map_while(|entry| *entry).find(|(n, _)| *n == name).map(|(_, node)| node)
    }

    /// The span of what `name` stands for: its node's, or further to the end of the chain
    /// whose first operands the pattern matched (see [`Bindings::ends`]).
    pub fn reach(&self, name: &str) -> Option<Span> {
        let index = self.entries.iter().map_while(|entry| *entry).position(|(n, _)| n == name)?;
        let (_, node) = self.entries.get(index).copied().flatten()?;
        let end = self.ends.get(index).copied().unwrap_or(0).max(end_before_stop(node));
        let start = self.starts.get(index).and_then(|start| start.checked_sub(1)).unwrap_or(node.span.start);
        Some(Span::new(start.min(node.span.start), end))
    }

    /// Binds `name` to `node`; false if there is no room (compiled patterns always have room).
    pub(super) fn insert(&mut self, name: &'t str, node: &'t Node) -> bool {
        match self.entries.iter_mut().find(|entry| entry.is_none()) {
            Some(free) => {
                *free = Some((name, node));
                true
            }
            None => false,
        }
    }

    /// Lets what `name` stands for reach to `end`.
    pub(super) fn extend(&mut self, name: &str, end: usize) {
        let index = self.entries.iter().map_while(|entry| *entry).position(|(n, _)| n == name);
        if let Some(slot) = index.and_then(|index| self.ends.get_mut(index)) {
            *slot = end;
        }
    }

    /// Lets what `name` stands for take in the parenthesis `argument` its name is applied to.
    pub(super) fn absorb(&mut self, name: &str, argument: &'t Node) {
        let index = self.entries.iter().map_while(|entry| *entry).position(|(n, _)| n == name);
        if let Some(index) = index {
            if let Some(slot) = self.arguments.get_mut(index) {
                *slot = Some(argument);
            }
            if let Some(slot) = self.ends.get_mut(index) {
                *slot = argument.span.end;
            }
        }
    }

    /// The parenthesis `name`'s call takes, where it stands for a call as written.
    pub fn argument(&self, name: &str) -> Option<&'t Node> {
        let index = self.entries.iter().map_while(|entry| *entry).position(|(n, _)| n == name)?;
        self.arguments.get(index).copied().flatten()
    }

    /// Lets what `name` stands for begin at `start`.
    pub(super) fn extend_back(&mut self, name: &str, start: usize) {
        let index = self.entries.iter().map_while(|entry| *entry).position(|(n, _)| n == name);
        if let Some(slot) = index.and_then(|index| self.starts.get_mut(index)) {
            *slot = start.saturating_add(1);
        }
    }
}

/// A match: the span it covers and the bindings.
#[derive(Debug, Clone)]
pub struct Match<'t> {
    /// The source span of the matched nodes (a run of a chain's operands, or one node).
    pub span: Span,
    /// The nodes matched (one, or the run of chain operands).
    pub nodes: Vec<&'t Node>,
    /// What each metavariable matched.
    pub bindings: Bindings<'t>,
}
