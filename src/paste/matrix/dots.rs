//! A matrix with dots as pdftotext gives it: its columns one after another, a line an entry,
//! and a column's `\vdots` (or the diagonal `\ddots`) as a `.` and a `..` on lines of their
//! own, in either order; `\cdots` as `···`. Where every block of lines has as many rows the
//! other reading of `matrix.rs` holds; where the dots break the blocks apart, the entries are
//! counted instead: the dots stand in one row of every column that has them, so the distance
//! from one dots to the next is the number of rows (with dots in one column only, that column
//! is all). What pdftotext sets after a closing piece on a line is outside (the display's full
//! stop). An entry a letter with two indices glued (`a1n`, `am2`) has them as its subscript,
//! the row and the column (`a_{1n}`). A guess, as the other reading is: `matrix.rs` warns.

use super::{is_glyph, Matrix, RELATIONS};
use crate::paste::layout::Range;
use crate::paste::table::Table;

/// What a line's part is: an entry, or a piece of dots (`.`, `..`).
type Cell = (Range, bool);

impl Matrix<'_> {
    /// The rows of a matrix with dots, the head and the trailing punctuation found again; the
    /// entries to write differently (dots, `···`) in `written`. `None` when the text is not
    /// one (no dots, counts that do not divide, a relation among the entries).
    pub(super) fn dotted(&mut self, table: &Table) -> Option<Vec<Vec<Range>>> {
        self.head = None;
        self.trailing.clear();
        self.written.clear();
        let mut items: Vec<Cell> = Vec::new();
        let mut at = 0;
        for raw in self.text.split('\n') {
            let line = (at, at + raw.len());
            at += raw.len() + 1;
            for (part, outside) in self.line_parts(line, table) {
                let mut part = self.trimmed(part);
                if let Some(relation) = self.head_of(part).filter(|_| !outside) {
                    if self.head.replace((part.0, relation)).is_some() {
                        return None;
                    }
                    part = self.trimmed((relation, part.1));
                }
                if part.1 <= part.0 {
                    continue;
                }
                let text = self.get(part);
                if outside {
                    if !text.chars().all(|c| matches!(c, '.' | ',' | ';' | '?' | ' ')) {
                        return None;
                    }
                    self.trailing.push(part);
                    continue;
                }
                items.push((part, (1..=2).contains(&text.len()) && text.chars().all(|c| c == '.')));
            }
        }
        let cells = self.dots_joined(items);
        let dots: Vec<usize> = cells.iter().enumerate().filter(|(_, c)| c.1).map(|(n, _)| n).collect();
        let first = *dots.first()?;
        let rows = dots.get(1).map_or(cells.len(), |second| second - first);
        let related = cells.iter().any(|c| !c.1 && self.get(c.0).contains(RELATIONS));
        if rows < 2 || cells.len() % rows != 0 || dots.iter().any(|d| d % rows != first % rows) || related {
            return None;
        }
        let mut out: Vec<Vec<Range>> = vec![Vec::new(); rows];
        for column in cells.chunks(rows) {
            // Dots in a column of `\cdots` are the diagonal ones.
            let across = column.iter().filter(|c| !c.1).all(|c| is_cdots(self.get(c.0)));
            for (row, &(range, dots)) in out.iter_mut().zip(column) {
                let text = self.get(range);
                if dots {
                    self.written.insert(range, if across { "\\ddots" } else { "\\vdots" }.to_string());
                } else if is_cdots(text) {
                    self.written.insert(range, "\\cdots".to_string());
                } else if let Some(indexed) = entry_indexed(text, table) {
                    self.written.insert(range, indexed);
                }
                row.push(range);
            }
        }
        Some(out)
    }

    /// The parts of `line` between glyphs, each with whether a closing glyph or piece stands
    /// before it on the line (it is then outside the matrix).
    fn line_parts(&self, line: Range, table: &Table) -> Vec<(Range, bool)> {
        let mut parts = Vec::new();
        let (mut start, mut closed) = (line.0, false);
        for (offset, c) in self.get(line).char_indices() {
            let glyph = c.to_string();
            if !is_glyph(c) && !table.matrix_pieces.contains(&glyph) {
                continue;
            }
            parts.push(((start, line.0 + offset), closed));
            start = line.0 + offset + c.len_utf8();
            closed = closed
                || table.matrix_closings.contains_key(&glyph)
                || table.matrix_dots.closing_pieces.contains(&glyph);
        }
        parts.push(((start, line.1), closed));
        parts
    }

    /// `items` with each run of two dot pieces or more made one cell of dots (at its first
    /// piece); a piece alone is punctuation (`trailing`), as in the other reading.
    fn dots_joined(&mut self, items: Vec<Cell>) -> Vec<Cell> {
        let mut cells = Vec::new();
        let mut run: Vec<Range> = Vec::new();
        for (range, dots) in items.into_iter().chain(std::iter::once(((0, 0), false))) {
            if dots {
                run.push(range);
                continue;
            }
            match run.as_slice() {
                [] => {}
                [alone] => self.trailing.push(*alone),
                [first, ..] => cells.push((*first, true)),
            }
            run.clear();
            if range.1 > range.0 {
                cells.push((range, false));
            }
        }
        cells
    }
}

/// An entry whose words are a letter with two indices glued (`a1n`, `am2`, `b21`), each index a
/// digit or an index letter (`glued_index_letters`), with those as the subscript: an entry's
/// row and column, `a_{1n}` (not `a2n` as a_n², which a letter outside a matrix may be).
/// `None` when no word is one.
fn entry_indexed(text: &str, table: &Table) -> Option<String> {
    let index = |c: char| c.is_ascii_digit() || table.glued_index_letters.iter().any(|l| l.chars().eq([c]));
    let mut changed = false;
    let words: Vec<String> = text
        .split(' ')
        .map(|word| {
            let mut chars = word.chars();
            let letter = chars.next().filter(|c| c.is_ascii_alphabetic());
            let indices: Vec<char> = chars.collect();
            match (letter, indices.as_slice()) {
                (Some(letter), [row, column]) if index(*row) && index(*column) => {
                    changed = true;
                    format!("{letter}_{{{row}{column}}}")
                }
                _ => word.to_string(),
            }
        })
        .collect();
    changed.then(|| words.join(" "))
}

/// Whether `text` is `\cdots` as pdftotext gives it.
fn is_cdots(text: &str) -> bool {
    matches!(text, "···" | "..." | "· · ·" | ". . .")
}

#[cfg(test)]
mod tests {
    use super::super::read;

    #[test]
    fn a_matrix_with_dots_given_column_by_column_is_read_row_by_row() {
        let pasted = "\u{f8ee}\n\na11\n\u{f8ef} a21\n\u{f8ef}\nA=\u{f8ef} .\n\u{f8f0} ..\nam1\n\na12\na22\n\n..\n.\n\nam2\n\n···\n···\n\n..\n\n.\n\n···\n\n\u{f8f9}\na1n\na2n \u{f8fa}\n\u{f8fa}\n.. \u{f8fa} .\n. \u{f8fb}\namn";
        assert_eq!(
            read(pasted).text,
            "A= \\begin{bmatrix} a_{11} & a_{12} & \\cdots & a_{1n} \\\\ a_{21} & a_{22} & \\cdots & a_{2n} \\\\ \\vdots & \\vdots & \\ddots & \\vdots \\\\ a_{m1} & a_{m2} & \\cdots & a_{mn} \\end{bmatrix} ."
        );
    }
}
