//! A matrix as pdftotext gives it: TeX's tall bracket or parenthesis comes as a glyph of its
//! own (cmex10's sized ones as control characters, or Adobe's private-use pieces of an
//! extensible one, `matrix_openings`, `matrix_closings` and `matrix_pieces` in
//! `data/paste.toml`), and the entries column by column: a block of lines (blocks apart by
//! blank lines) a column or a run of columns, a line a row (`3` / `5`, then `−2` / `7` for
//! the rows 3 −2 and 5 7), the head (`M =`) and the display's punctuation among them on the
//! middle row's line. When every block has as many lines, they are the rows, and a block whose
//! lines have as many words each holds that many columns. A display of one matrix, with a head
//! or none, is read as `\begin{bmatrix}` (`pmatrix` for parentheses); anything else is left to
//! the other readers. The reading is a warning: which line is which row is a guess. A matrix
//! whose dots break its columns' blocks apart is counted instead (`matrix/dots.rs`).

mod dots;

use super::layout::Range;
use super::spans::Composer;
use super::table::{table, Table};
use super::Pass;
use crate::syntax::ast::Span;
use crate::syntax::error::{PdfWhy, Warning, WarningKind};
use std::collections::BTreeMap;

/// Relations that end a head (`M =`).
const HEAD_RELATIONS: &[char] = &['=', '∼'];

/// Relations: an entry has none (a line with one is the baseline of something else).
const RELATIONS: &[char] = &['=', '<', '>', '≤', '≥', '≈', '≠', '∼', '∈', '≡', '→'];

/// Signs that stand between entries' words but are no entry of their own.
const SIGNS: &[&str] = &["+", "−", "-", "·", "×", "=", "/"];

/// Reads `text` as a head and one matrix when it is one; else the text as it is.
pub(super) fn read(text: &str) -> Pass {
    match Matrix::find(text, table()).and_then(Matrix::compose) {
        Some(pass) => pass,
        None => Pass::unchanged(text),
    }
}

/// What was found: the opening glyph, the environment, the head, the rows of entries.
struct Matrix<'a> {
    text: &'a str,
    opening: Range,
    environment: String,
    head: Option<Range>,
    rows: Vec<Vec<Range>>,
    trailing: Vec<Range>,
    /// Entries written as LaTeX rather than copied (`..` as `\vdots`, `···` as `\cdots`).
    written: BTreeMap<Range, String>,
}

impl<'a> Matrix<'a> {
    /// The matrix of `text`, if it is laid out as one.
    fn find(text: &'a str, table: &'a Table) -> Option<Self> {
        let char_of = |c: char| c.to_string();
        let (mut opening, mut closing) = (None, None);
        for (at, c) in text.char_indices() {
            if let Some(environment) = table.matrix_openings.get(&char_of(c)) {
                opening = match opening {
                    None => Some(((at, at + c.len_utf8()), environment.clone())),
                    Some(_) => return None,
                };
            } else if let Some(environment) = table.matrix_closings.get(&char_of(c)) {
                closing = match closing {
                    None => Some(environment.clone()),
                    Some(_) => return None,
                };
            } else if is_glyph(c) && !table.matrix_pieces.contains(&char_of(c)) {
                return None;
            }
        }
        let ((opening, environment), closing) = (opening?, closing?);
        // Glyphs on lines of their own one after the other are a pair set above a display
        // (`big_delimiters.rs`); the top pieces of a tall matrix's brackets share a line.
        let rest = text.get(opening.1..).unwrap_or("");
        let after = rest.trim_start();
        let next_line = rest.get(..rest.len() - after.len()).is_some_and(|gap| gap.contains('\n'));
        let adjacent = next_line
            && after.chars().next().is_some_and(|c| table.matrix_closings.contains_key(&char_of(c)));
        if environment != closing || adjacent {
            return None;
        }
        let mut matrix = Matrix {
            text,
            opening,
            environment,
            head: None,
            rows: Vec::new(),
            trailing: Vec::new(),
            written: BTreeMap::new(),
        };
        let rows = matrix.blocks(table).and_then(|blocks| matrix.rows_of(&blocks));
        matrix.rows = match rows {
            Some(rows) => rows,
            None => matrix.dotted(table)?,
        };
        Some(matrix)
    }

    fn get(&self, range: Range) -> &'a str {
        self.text.get(range.0..range.1).unwrap_or("")
    }

    /// The entries' lines in blocks, the glyphs, the head and the punctuation taken off.
    fn blocks(&mut self, table: &Table) -> Option<Vec<Vec<Range>>> {
        let mut blocks: Vec<Vec<Range>> = vec![Vec::new()];
        let mut at = 0;
        for raw in self.text.split('\n') {
            let line = (at, at + raw.len());
            at += raw.len() + 1;
            let mut parts = self.without_glyphs(line, table);
            if parts.is_empty() {
                if self.get(line).trim().is_empty() && blocks.last().is_some_and(|b| !b.is_empty()) {
                    blocks.push(Vec::new());
                }
                continue;
            }
            if let Some(first) = parts.first_mut() {
                if let Some(relation) = self.head_of(*first) {
                    if self.head.replace((first.0, relation)).is_some() {
                        return None;
                    }
                    first.0 = relation;
                }
            }
            let entry = self.punctuation_off(parts)?;
            if let Some(block) = blocks.last_mut().filter(|_| entry.is_some()) {
                block.extend(entry);
            }
        }
        blocks.retain(|b| !b.is_empty());
        Some(blocks)
    }

    /// The parts of `line` between the big delimiter's glyphs, trimmed, empty ones left out.
    fn without_glyphs(&self, line: Range, table: &Table) -> Vec<Range> {
        let mut parts = Vec::new();
        let mut start = line.0;
        let text = self.get(line);
        let glyph = |c: char| is_glyph(c) || table.matrix_pieces.contains(&c.to_string());
        for (offset, c) in text.char_indices().filter(|&(_, c)| glyph(c)) {
            parts.push((start, line.0 + offset));
            start = line.0 + offset + c.len_utf8();
        }
        parts.push((start, line.1));
        parts.into_iter().map(|p| self.trimmed(p)).filter(|p| p.1 > p.0).collect()
    }

    /// `range` without the spaces around it.
    fn trimmed(&self, (start, end): Range) -> Range {
        let text = self.get((start, end));
        let start = start + (text.len() - text.trim_start().len());
        (start, start + text.trim().len())
    }

    /// Where the head on a line's first part ends (after its relation): `M =`, `x⊤ =`.
    fn head_of(&self, part: Range) -> Option<usize> {
        let text = self.get(part);
        if !text.chars().next().is_some_and(char::is_alphabetic) {
            return None;
        }
        let at = text.find(HEAD_RELATIONS)?;
        let relation = text.get(at..)?.chars().next()?;
        Some(part.0 + at + relation.len_utf8())
    }

    /// The entry of a line's parts with the display's punctuation taken off (`5 .`): `None`
    /// for a line of punctuation only, no matrix for a line of several parts.
    fn punctuation_off(&mut self, parts: Vec<Range>) -> Option<Option<Range>> {
        let mut entry = None;
        for part in parts {
            let part = self.trimmed(part);
            let text = self.get(part);
            if part.1 <= part.0 {
                continue;
            }
            if text.chars().all(|c| matches!(c, '.' | ',' | ';' | '?' | ' ')) {
                self.trailing.push(part);
                continue;
            }
            let body = text.trim_end_matches(['.', ',', ';', '?']);
            let kept = if body.ends_with(' ') { body.trim_end() } else { text };
            if kept.len() < text.len() {
                self.trailing.push((part.0 + body.len(), part.1));
            }
            if entry.replace((part.0, part.0 + kept.len())).is_some() {
                return None;
            }
        }
        Some(entry)
    }

    /// The rows: line `k` of every block, each block's line split into its words when all its
    /// lines have as many (none a sign); `None` unless every block has as many lines.
    fn rows_of(&self, blocks: &[Vec<Range>]) -> Option<Vec<Vec<Range>>> {
        let count = blocks.first()?.len();
        let related = blocks.iter().flatten().any(|&l| self.get(l).contains(RELATIONS));
        if related || blocks.iter().any(|b| b.len() != count) || blocks.len() * count < 2 {
            return None;
        }
        let mut rows = vec![Vec::new(); count];
        for block in blocks {
            let words: Vec<Vec<Range>> = block.iter().map(|&l| self.words(l)).collect();
            let width = words.first().map_or(0, Vec::len);
            let split = width > 1
                && words.iter().all(|w| w.len() == width)
                && words.iter().flatten().all(|&w| !SIGNS.contains(&self.get(w)));
            for (row, (&line, line_words)) in rows.iter_mut().zip(block.iter().zip(words)) {
                if split {
                    row.extend(line_words);
                } else {
                    row.push(line);
                }
            }
        }
        Some(rows)
    }

    /// The words of `line`, apart by spaces.
    fn words(&self, line: Range) -> Vec<Range> {
        super::layout::words_in(self.text, line)
    }

    /// The head, the environment's rows and the trailing punctuation, with a warning.
    fn compose(self) -> Option<Pass> {
        let mut out = Composer::new(self.text);
        if let Some((start, end)) = self.head {
            out.copy(start, end);
            out.write(" ", end, end);
        }
        let (open, close) = (self.opening.0, self.opening.1);
        out.write(&format!("\\begin{{{}}} ", self.environment), open, close);
        for (n, row) in self.rows.iter().enumerate() {
            if n > 0 {
                out.write(" \\\\ ", close, close);
            }
            for (k, entry) in row.iter().enumerate() {
                if k > 0 {
                    out.write(" & ", entry.0, entry.0);
                }
                match self.written.get(entry) {
                    Some(latex) => out.write(latex, entry.0, entry.1),
                    None => out.copy(entry.0, entry.1),
                }
            }
        }
        out.write(&format!(" \\end{{{}}}", self.environment), close, close);
        for range in &self.trailing {
            out.write(" ", range.0, range.0);
            out.copy(range.0, range.1);
        }
        let first: Vec<&str> = self.rows.first()?.iter().map(|&e| self.get(e)).collect();
        let more = if self.rows.len() > 1 { " \\\\ …" } else { "" };
        let read = format!("\\begin{{{0}}} {1}{more} \\end{{{0}}}", self.environment, first.join(" & "));
        let found: String =
            self.get(self.opening).chars().map(|c| format!("U+{:04X}", u32::from(c))).collect();
        let warning = Warning {
            kind: WarningKind::PdfText { found, read, why: PdfWhy::Rows },
            span: Span::new(self.opening.0, self.opening.1),
        };
        let (text, map) = out.finish();
        Some(Pass { text, map, notes: vec![warning] })
    }
}

/// Whether `c` is a glyph of a big delimiter as pdftotext gives it: a control character (not
/// the line break) or a private-use character.
fn is_glyph(c: char) -> bool {
    (c.is_control() && c != '\n') || ('\u{E000}'..='\u{F8FF}').contains(&c)
}

#[cfg(test)]
mod tests {
    use super::read;

    #[test]
    fn a_matrix_given_column_by_column_is_read_row_by_row() {
        assert_eq!(
            read("N=\n\n\u{14}\n4\n1\n\n\u{15}\n−3\n.\n8").text,
            "N= \\begin{bmatrix} 4 & −3 \\\\ 1 & 8 \\end{bmatrix} ."
        );
        assert_eq!(
            read("\u{f8ee} \u{f8f9}\n5\n\u{f8ef}2\u{f8fa}\n\u{f8fa}\nv=\u{f8ef}\n\u{f8f0}7\u{f8fb} ,\n3")
                .text,
            "v= \\begin{bmatrix} 5 \\\\ 2 \\\\ 7 \\\\ 3 \\end{bmatrix} ,"
        );
        assert_eq!(
            read("\u{12}\n2 0\n1 9\n\n\u{13}\n5\n6").text,
            "\\begin{pmatrix} 2 & 0 & 5 \\\\ 1 & 9 & 6 \\end{pmatrix}"
        );
    }

    #[test]
    fn text_that_is_not_one_matrix_is_left_as_it_is() {
        for text in ["\u{14}\n2\n3\n\n\u{15}\n4", "\u{14}\u{14}\n1\n2\n\u{15}", "x = 1\ny"] {
            assert_eq!(read(text).text, text);
        }
    }
}
