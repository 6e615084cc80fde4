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
        let end = self.end(span.end);
        if end >= start {
            return Span::new(start, end);
        }
        // Pieces moved out of input order (a limit set before its operator): the span covers
        // the input of every piece it overlaps.
        let covered = self.pieces.iter().filter(|p| p.out.0 < span.end && p.out.1 > span.start);
        let (low, high) = covered.fold((usize::MAX, 0), |(l, h), p| (l.min(p.input.0), h.max(p.input.1)));
        if low <= high {
            Span::new(low, high)
        } else {
            Span::new(start, start)
        }
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

/// Builds a text from pieces of an input taken in any order, with written text between them:
/// for a pass that moves what it reads (a limit set before its operator, a numerator on its
/// own line).
#[derive(Debug)]
pub struct Composer<'a> {
    input: &'a str,
    out: String,
    pieces: Vec<Piece>,
}

impl<'a> Composer<'a> {
    /// A composer of pieces of `input`.
    pub fn new(input: &'a str) -> Self {
        Composer { input, out: String::with_capacity(input.len() + 32), pieces: Vec::new() }
    }

    /// Copies `input[start..end]`.
    pub fn copy(&mut self, start: usize, end: usize) {
        let Some(text) = self.input.get(start..end) else { return };
        let at = self.out.len();
        self.out.push_str(text);
        self.pieces.push(Piece { out: (at, self.out.len()), input: (start, end), copied: true });
    }

    /// Writes `text` standing for `input[start..end]` (an empty range: for nothing there).
    pub fn write(&mut self, text: &str, start: usize, end: usize) {
        let at = self.out.len();
        self.out.push_str(text);
        self.pieces.push(Piece { out: (at, self.out.len()), input: (start, end.max(start)), copied: false });
    }

    /// The text and its map.
    pub fn finish(self) -> (String, SpanMap) {
        (self.out, SpanMap { pieces: self.pieces })
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

    #[test]
    fn pieces_taken_out_of_order_map_back_to_where_each_was() {
        // "n\nX\ni=1" → "\sum_{i=1}^{n}"
        let input = "n\nX\ni=1";
        let mut composer = Composer::new(input);
        composer.write("\\sum", 2, 3);
        composer.write("_{", 4, 4);
        composer.copy(4, 7);
        composer.write("}^{", 7, 7);
        composer.copy(0, 1);
        composer.write("}", 1, 1);
        let (text, map) = composer.finish();
        assert_eq!(text, "\\sum_{i=1}^{n}");
        let n = text.rfind('n').unwrap_or(0);
        assert_eq!(map.span(Span::new(n, n + 1)), Span::new(0, 1));
        assert_eq!(map.span(Span::new(0, 4)), Span::new(2, 3));
        let i = text.find('i').unwrap_or(0);
        assert_eq!(map.span(Span::new(i, i + 3)), Span::new(4, 7));
        assert_eq!(map.span(Span::new(0, text.len())), Span::new(0, 7));
    }
}
