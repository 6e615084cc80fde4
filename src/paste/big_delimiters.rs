//! Big delimiters that pdftotext gives on lines of their own above a display: TeX's tall
//! `\left[` and `\right]` reach higher than the text they enclose, so pdftotext reads them
//! first, one a line (`[` / `]` / `DKL (P ∥Q) = Ex∼P log …`), and nothing says where they
//! stood. Each pair is set after the word that applies to what it encloses (`E`, `exp`, `min`:
//! `delimited_after` in `data/paste.toml`), or at the display's start when there is none, and
//! closed before the first relation after it, before a sign that starts the next such word's
//! term, after a fraction followed by a letter (a factor set beside it), before a constant
//! added at the display's end after an expectation (`E[…] + c.`), or before the display's
//! final punctuation.
//! Each pair is a warning: where it stood is a guess.

use super::layout::{Item, Layout, Range};
use crate::syntax::error::PdfWhy;
use std::collections::VecDeque;

/// Signs that join terms: a big delimiter's content goes on past them.
const JOINING_SIGNS: &[&str] = &["+", "−", "·", "×", ","];

/// A pair of big delimiters, each glyph's range and the delimiter it is.
pub(super) struct Pair {
    open: (Range, String),
    close: (Range, String),
}

/// A place in the items read: an item, or a word of a text item.
#[derive(Clone, Copy)]
struct Entry {
    item: usize,
    word: Option<Range>,
}

impl Layout<'_> {
    /// Takes the lines of nothing but big delimiters off the front of `blocks`, when they are
    /// pairs, each an opening one and then its closing one. A closing one with no opening one
    /// before it had one that pdftotext drops (cmex10's smallest and biggest left parentheses
    /// are its codes 0 and 32, given as nothing and as a space): the pair is read with it.
    pub(super) fn leading_delimiters(&self, blocks: &mut VecDeque<Vec<Range>>) -> Vec<Pair> {
        // Each glyph with the number of the line it is on, counted from the first.
        let mut glyphs = Vec::new();
        let mut lines = 0;
        'blocks: for block in blocks.iter() {
            for &line in block {
                match self.line_glyphs(line) {
                    Some(found) => glyphs.extend(found.into_iter().map(|g| (lines, g))),
                    None => break 'blocks,
                }
                lines += 1;
            }
        }
        let mut pairs: Vec<(usize, Pair)> = Vec::new();
        let mut rest = glyphs.as_slice();
        loop {
            match rest {
                [(line, (b, close)), ..] if self.table.dropped_openings.iter().any(|g| g == self.get(*b)) => {
                    let open = ((b.0, b.0), opening_of(close).unwrap_or_default().to_string());
                    pairs.push((*line, Pair { open, close: (*b, close.clone()) }));
                    rest = rest.get(1..).unwrap_or_default();
                }
                [(_, (a, open)), (line, (b, close)), ..] if closing_of(open) == Some(close.as_str()) => {
                    pairs.push((*line, Pair { open: (*a, open.clone()), close: (*b, close.clone()) }));
                    rest = rest.get(2..).unwrap_or_default();
                }
                _ => break,
            }
        }
        // Only whole lines are taken: a pair that ends on a line with more glyphs left goes.
        let whole = rest.first().map_or(lines, |(line, _)| *line);
        pairs.retain(|(line, _)| *line < whole);
        let mut taken = whole;
        while taken > 0 {
            let Some(block) = blocks.front_mut() else { break };
            let n = taken.min(block.len());
            block.drain(..n);
            taken -= n;
            if block.is_empty() {
                blocks.pop_front();
            }
        }
        pairs.into_iter().map(|(_, pair)| pair).collect()
    }

    /// `(` / `P`: a block of a big opening delimiter's line and a word of `delimited_after`
    /// alone (the word the delimiter applies to, given after it as a taller glyph goes first),
    /// so that a `P` there is the word, not a text-style sum's letter.
    pub(super) fn word_of_a_delimiter(&self, lines: &[Range]) -> bool {
        let [_, word] = lines else { return false };
        self.table.delimited_after.iter().any(|a| a == self.get(*word))
    }

    /// The big delimiters of `line` when it has nothing else (spaces apart), each with its
    /// range and the delimiter it is.
    fn line_glyphs(&self, line: Range) -> Option<Vec<(Range, String)>> {
        let mut found = Vec::new();
        for (offset, c) in self.get(line).char_indices() {
            if c == ' ' {
                continue;
            }
            let at = line.0 + offset;
            let latex = self.table.big_delimiters.get(self.get((at, at + c.len_utf8())))?;
            found.push(((at, at + c.len_utf8()), latex.clone()));
        }
        (!found.is_empty()).then_some(found)
    }

    /// Sets `pairs` into the items read; when no place is found, they go first, as written.
    pub(super) fn place_delimiters(&mut self, pairs: Vec<Pair>) {
        if pairs.is_empty() {
            return;
        }
        let entries = self.entries();
        let Some(places) = self.delimiter_places(&entries, pairs.len()) else {
            let glyphs = pairs.into_iter().flat_map(|p| [p.open.0, p.close.0]);
            let front: Vec<Item> = glyphs.map(Item::Text).collect();
            self.items.splice(0..0, front);
            return;
        };
        let mut inserts = Vec::new();
        for (pair, (open, close)) in pairs.into_iter().zip(places) {
            let inside = |n: usize| entries.get(n).and_then(|e| e.word).map(|w| self.get(w).to_string());
            let first = inside(open).unwrap_or_default();
            let found = format!("{} {}", self.get(pair.open.0), self.get(pair.close.0));
            let read = format!("{} {first} … {}", pair.open.1, pair.close.1);
            let span = (pair.open.0 .0, pair.close.0 .1);
            self.note(span, found, read, PdfWhy::DelimitersAbove);
            inserts.push((open, pair.open));
            inserts.push((close, pair.close));
        }
        // From the back, so that the places before stay where they are; an opening before a
        // closing at the same place.
        inserts.sort_by_key(|(at, (_, latex))| (*at, closing_of(latex).is_none()));
        for (at, (glyph, latex)) in inserts.into_iter().rev() {
            let opening = closing_of(&latex).is_some();
            self.insert_delimiter(entries.get(at).copied(), glyph, latex);
            // The words it applies to, right before, with their subscripts glued (`Ex∼P`).
            let mut before = at;
            while opening && before > 0 {
                before -= 1;
                match entries.get(before) {
                    Some(&Entry { item, word: Some(word) }) if self.applies(word) => {
                        self.glued_subscript(item, word)
                    }
                    _ => break,
                }
            }
        }
    }

    /// `Ex∼P` in the text item `item`: its capital's glued subscript set under it, with a
    /// warning (`E_{x∼P}`).
    fn glued_subscript(&mut self, item: usize, word: Range) {
        let text = self.get(word);
        let Some(letter) = text.chars().next() else { return };
        if text.len() <= letter.len_utf8()
            || !letter.is_uppercase()
            || text.contains('_')
            || self.table.delimited_after.iter().any(|a| a == text)
        {
            return;
        }
        let Some(Item::Text((start, end))) = self.items.get(item) else { return };
        let (start, end) = (*start, *end);
        if word.0 < start || word.1 > end {
            return;
        }
        let sub = (word.0 + letter.len_utf8(), word.1);
        let found = text.to_string();
        let read = format!("{letter}_{{{}}}", self.get(sub));
        self.note(word, found, read, PdfWhy::Subscript);
        let mut parts = vec![Item::Under(sub)];
        if sub.0 > start {
            parts.insert(0, Item::Text((start, sub.0)));
        }
        if end > sub.1 {
            let rest = self.get((sub.1, end));
            let rest_start = sub.1 + (rest.len() - rest.trim_start().len());
            parts.push(Item::Text((rest_start, end)));
        }
        self.items.splice(item..=item, parts);
    }

    /// Every item but those moved, a text item word by word.
    fn entries(&self) -> Vec<Entry> {
        let mut entries = Vec::new();
        for (item, it) in self.items.iter().enumerate() {
            match it {
                Item::Text(range) => {
                    entries.extend(self.words_of(*range).into_iter().map(|w| Entry { item, word: Some(w) }));
                }
                Item::Moved => {}
                _ => entries.push(Entry { item, word: None }),
            }
        }
        entries
    }

    /// Where each of `count` pairs opens and closes: before which entry (the end is
    /// `entries.len()`).
    fn delimiter_places(&self, entries: &[Entry], count: usize) -> Option<Vec<(usize, usize)>> {
        // A word followed by a bracket of its own (`P (x)`, `E[X]`) takes no other.
        let bracketed = |n: usize| {
            entries.get(n + 1).and_then(|e| e.word).is_some_and(|w| self.get(w).starts_with(['(', '[']))
        };
        let applies =
            |n: usize| entries.get(n).and_then(|e| e.word).is_some_and(|w| self.applies(w)) && !bracketed(n);
        let mut openings = Vec::new();
        let mut n = 0;
        while n < entries.len() {
            if applies(n) {
                while applies(n + 1) {
                    n += 1;
                }
                openings.push(n + 1);
            }
            n += 1;
        }
        if openings.is_empty() && count == 1 {
            openings.push(0);
        }
        if openings.len() < count {
            return None;
        }
        openings.truncate(count);
        let mut places = Vec::new();
        for (k, &open) in openings.iter().enumerate() {
            let limit = openings.get(k + 1).map_or(entries.len(), |&next| next.saturating_sub(1));
            places.push((open, self.closing_place(entries, open, limit)));
        }
        Some(places)
    }

    /// Where a delimiter opened before entry `open` closes, at `limit` at the latest.
    fn closing_place(&self, entries: &[Entry], open: usize, limit: usize) -> usize {
        let (mut depth, mut bars) = (0usize, 0usize);
        let mut after_fraction = false;
        // `E[…] + c`: a constant after an expectation's bracket is outside it (inside `\exp(… - c)`
        // it is part of the exponent).
        let averaging = open
            .checked_sub(1)
            .and_then(|n| entries.get(n))
            .and_then(|e| e.word)
            .is_some_and(|w| self.get(w).starts_with(['E', '𝔼']));
        for n in open..limit {
            let Some(entry) = entries.get(n) else { break };
            let Some(word) = entry.word else {
                after_fraction =
                    matches!(self.items.get(entry.item), Some(Item::Fraction { .. } | Item::OverSum { .. }));
                continue;
            };
            let w = self.get(word);
            if depth == 0 && bars % 2 == 0 && n > open {
                let punctuation_left = entries.get(n..limit).unwrap_or_default().iter().all(|e| {
                    e.word.is_some_and(|w| self.get(w).chars().all(|c| matches!(c, '.' | ',' | ';')))
                });
                let sign = JOINING_SIGNS.contains(&w);
                let next_applies =
                    entries.get(n + 1).and_then(|e| e.word).is_some_and(|next| self.applies(next));
                // `+ c.`, `+ const`: a constant added at the display's end stands outside.
                let trailing_constant =
                    averaging && sign && w != "," && self.constant_to_the_end(entries, n + 1, limit);
                if punctuation_left
                    || trailing_constant
                    || !self.relation_free(word)
                    || (sign && next_applies)
                    || (after_fraction && w.starts_with(char::is_alphabetic))
                {
                    return n;
                }
            }
            after_fraction = false;
            depth = (depth + w.matches(['(', '[', '{']).count())
                .saturating_sub(w.matches([')', ']', '}']).count());
            bars += w.matches('∥').count();
        }
        limit
    }

    /// Whether the entries from `from` to `limit` are one constant (a lone letter or `const`,
    /// its full stop glued or not) and then only punctuation.
    fn constant_to_the_end(&self, entries: &[Entry], from: usize, limit: usize) -> bool {
        let rest = entries.get(from..limit).unwrap_or_default();
        let Some((first, tail)) = rest.split_first() else { return false };
        let Some(word) = first.word else { return false };
        let text = self.get(word).trim_end_matches(['.', ',', ';']);
        let constant =
            text == "const" || (text.chars().count() == 1 && text.starts_with(char::is_alphabetic));
        let punctuation = tail
            .iter()
            .all(|e| e.word.is_some_and(|w| self.get(w).chars().all(|c| matches!(c, '.' | ',' | ';'))));
        constant && punctuation
    }

    /// Whether `word` is one a big delimiter's content follows: one of `delimited_after`, or a
    /// capital letter of them with its subscript glued (`Ex∼P`) or already read (`E_{x∼p(x)}`).
    fn applies(&self, word: Range) -> bool {
        let text = self.get(word);
        self.table.delimited_after.iter().any(|a| {
            text == a
                || (a.chars().count() == 1
                    && text.strip_prefix(a.as_str()).is_some_and(|r| r.starts_with("_{") && r.ends_with('}')))
                || (a.chars().count() == 1
                    && a.chars().all(char::is_uppercase)
                    && text.strip_prefix(a.as_str()).and_then(|rest| rest.chars().next()).is_some_and(|c| {
                        c.is_lowercase() && !text.contains(['(', '[', '{', '_']) && text.chars().count() <= 8
                    }))
        })
    }

    /// Inserts a delimiter before `at` (at the end when `None`), splitting a text item.
    fn insert_delimiter(&mut self, at: Option<Entry>, glyph: Range, latex: String) {
        let delimiter = Item::Delimiter { glyph, latex };
        let Some(Entry { item, word }) = at else {
            self.items.push(delimiter);
            return;
        };
        let split = match (self.items.get(item), word) {
            (Some(Item::Text((start, end))), Some((w, _))) if w > *start => Some((*start, w, *end)),
            _ => None,
        };
        match split {
            Some((start, w, end)) => {
                let before_end = start + self.get((start, w)).trim_end().len();
                let parts = [Item::Text((start, before_end)), delimiter, Item::Text((w, end))];
                self.items.splice(item..=item, parts);
            }
            None => self.items.insert(item, delimiter),
        }
    }

    /// The words of `range`, apart by spaces.
    fn words_of(&self, range: Range) -> Vec<Range> {
        super::layout::words_in(self.text, range)
    }
}

/// The opening delimiter of a closing one.
fn opening_of(close: &str) -> Option<&'static str> {
    match close {
        ")" => Some("("),
        "]" => Some("["),
        "\\}" => Some("\\{"),
        _ => None,
    }
}

/// The closing delimiter of an opening one.
fn closing_of(open: &str) -> Option<&'static str> {
    match open {
        "(" => Some(")"),
        "[" => Some("]"),
        "\\{" => Some("\\}"),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use crate::paste::layout::read;

    #[test]
    fn big_delimiters_above_a_display_enclose_what_follows_the_word_they_apply_to() {
        assert_eq!(
            read("\u{14}\n\u{15}\np(x)\nD = Ex log\n.\nq(x)").text,
            "D = E_{x} [ log \\frac{p(x)}{q(x)} ] ."
        );
        assert_eq!(
            read("\u{2}\n\u{3}\n\u{2}\n\u{3}\nE ∥x − y∥2 − E ∥z∥2 ≥ 2.").text,
            "E [ ∥x − y∥2 ] − E [ ∥z∥2 ] ≥ 2."
        );
    }
}
