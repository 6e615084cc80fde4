//! Rewriting a text piece by piece while keeping, for every byte of the result, where it came
//! from: a span of the rewritten text maps back to the span of the input it was made from.

use crate::syntax::ast::Span;

/// One piece of the rewritten text and the input it stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Piece {
    /// Its range in the rewritten text.
    out: (usize, usize),
    /// The range of the input it came from.
    input: (usize, usize),
    /// Copied byte for byte (offsets inside map one to one), or written in place of the input
    /// range (offsets inside map to the whole range).
    copied: bool,
}

/// Where each part of a rewritten text came from in its input.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SpanMap {
    /// In order of the rewritten text, covering it without gaps (deleted input: empty pieces).
    pieces: Vec<Piece>,
}

impl SpanMap {
    /// The span of the input that `span` of the rewritten text came from.
    pub fn span(&self, span: Span) -> Span {
        let start = self.start(span.start);
        if span.end <= span.start {
            return Span::new(start, start);
        }
        Span::new(start, self.end(span.end).max(start))
    }

    /// The input offset of a span starting at `at`.
    fn start(&self, at: usize) -> usize {
        let index = self.pieces.partition_point(|p| p.out.1 <= at);
        match self.pieces.get(index) {
            Some(p) if p.copied => p.input.0 + at.saturating_sub(p.out.0),
            Some(p) => p.input.0,
            None => self.pieces.iter().rev().find(|p| p.out.1 > p.out.0).map_or(at, |p| p.input.1),
        }
    }

    /// The input offset of a span ending at `at`.
    fn end(&self, at: usize) -> usize {
        let index = self.pieces.partition_point(|p| p.out.1 < at);
        match self.pieces.get(index) {
            Some(p) if p.copied => p.input.0 + at.saturating_sub(p.out.0),
            Some(p) => p.input.1,
            None => self.pieces.last().map_or(at, |p| p.input.1),
        }
    }
}

/// Builds a rewritten text from an input: replacements in input order, the text between them
/// copied.
#[derive(Debug)]
pub struct Rewriter<'a> {
    input: &'a str,
    out: String,
    pieces: Vec<Piece>,
    /// Input copied or replaced up to here.
    done: usize,
}

impl<'a> Rewriter<'a> {
    /// A rewriter of `input`.
    pub fn new(input: &'a str) -> Self {
        Rewriter { input, out: String::with_capacity(input.len() + 16), pieces: Vec::new(), done: 0 }
    }

    /// Writes `text` in place of `input[start..end]` (after copying what lies before it).
    /// A replacement that starts before the end of the previous one is ignored.
    pub fn replace(&mut self, start: usize, end: usize, text: &str) {
        if start < self.done || end < start || end > self.input.len() {
            return;
        }
        self.copy_to(start);
        let at = self.out.len();
        self.out.push_str(text);
        self.pieces.push(Piece { out: (at, self.out.len()), input: (start, end), copied: false });
        self.done = end;
    }

    /// Whether anything was replaced.
    pub fn changed(&self) -> bool {
        self.pieces.iter().any(|p| !p.copied)
    }

    /// The rewritten text and its map.
    pub fn finish(mut self) -> (String, SpanMap) {
        self.copy_to(self.input.len());
        (self.out, SpanMap { pieces: self.pieces })
    }

    fn copy_to(&mut self, to: usize) {
        if to <= self.done {
            return;
        }
        let text = self.input.get(self.done..to).unwrap_or("");
        let at = self.out.len();
        self.out.push_str(text);
        self.pieces.push(Piece { out: (at, self.out.len()), input: (self.done, to), copied: true });
        self.done = to;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_map_back_through_copies_replacements_and_deletions() {
        // "$softmax(x)$" → "\mathrm{softmax}(x)"
        let input = "$softmax(x)$";
        let mut rewriter = Rewriter::new(input);
        rewriter.replace(0, 1, "");
        rewriter.replace(1, 8, "\\mathrm{softmax}");
        rewriter.replace(11, 12, "");
        let (text, map) = rewriter.finish();
        assert_eq!(text, "\\mathrm{softmax}(x)");
        let x = text.rfind('x').unwrap_or(0);
        assert_eq!(map.span(Span::new(x, x + 1)), Span::new(9, 10));
        assert_eq!(map.span(Span::new(0, text.len())), Span::new(1, 11));
        assert_eq!(map.span(Span::new(3, 5)), Span::new(1, 8));
        assert_eq!(map.span(Span::new(text.len(), text.len())), Span::new(11, 11));
    }
}
