//! `cases` as pdftotext gives it: TeX's tall left brace comes as a glyph of its own (cmex10's
//! biggest brace as a `(` on a line of its own, its size-3 brace as U+001A, or Adobe's
//! private-use pieces of an extensible brace, `case_braces` in `data/paste.toml`), the head
//! (`F (x) =`) on the middle row's line, and the rows' values and conditions line by line in
//! the order of their height: a row's value and condition on one line (`1 − p 0 ≤ x < 1,`),
//! or values and conditions on lines of their own. A condition starts at a word of
//! `case_words` (`if`, `otherwise`) or at the operand before its first relation; a value that
//! is a fraction comes as its numerator's line and its denominator's. The values and the
//! conditions are paired in order, when there are as many of each (two or more), and read as
//! `\begin{cases}`; anything else is left to the other readers. The reading is a warning.

use super::layout::Range;
use super::spans::Composer;
use super::table::{table, Table};
use super::Pass;
use crate::syntax::ast::Span;
use crate::syntax::error::{PdfWhy, Warning, WarningKind};

/// Relations: a condition's first one follows its operand; a head ends with `=` or `∼`.
const RELATIONS: &[char] = &['=', '<', '>', '≤', '≥', '≈', '≠', '∼', '∈', '∉', '⊂', '⊆', '≡', '→'];

/// Relations that end a head (`F (x) =`, `w ∼`).
const HEAD_RELATIONS: &[char] = &['=', '∼'];

/// A content line: its range and the block it is in (blocks apart by blank lines).
#[derive(Debug, Clone, Copy)]
struct Line {
    range: Range,
    block: usize,
}

/// A value of a row: a part of a line, or a fraction of two whole lines.
#[derive(Debug, Clone, Copy)]
enum Value {
    Part {
        range: Range,
        line: usize,
        whole: bool,
    },
    Fraction(Range, Range),
    /// A part with a power lifted to a line of its own above it, set at an offset in it.
    Powered {
        range: Range,
        power: Range,
        at: usize,
    },
}

/// Reads `text` as a head and the rows of `cases` when it is one; else the text as it is.
pub(super) fn read(text: &str) -> Pass {
    let table = table();
    match Cases::find(text, table).and_then(|cases| cases.compose()) {
        Some(pass) => pass,
        None => Pass::unchanged(text),
    }
}

/// What was found: the brace, the head and the rows.
struct Cases<'a> {
    text: &'a str,
    table: &'a Table,
    brace: Range,
    /// The head up to its relation, lines of primes lifted off it, its relation.
    head: (Range, Vec<Range>, Range),
    values: Vec<Value>,
    conditions: Vec<Range>,
    /// Punctuation on lines of its own (the display's full stop), set after the rows.
    trailing: Vec<Range>,
}

impl<'a> Cases<'a> {
    /// The cases of `text`, if it is laid out as one.
    fn find(text: &'a str, table: &'a Table) -> Option<Self> {
        let is_piece = |c: char| table.case_braces.iter().any(|b| b.chars().eq([c]));
        // Another big delimiter or a closing brace: not a `cases` alone.
        let foreign = |c: char| (c.is_control() && c != '\n') || ('\u{E000}'..='\u{F8FF}').contains(&c);
        if text.chars().any(|c| foreign(c) && !is_piece(c))
            || text.lines().any(|l| matches!(l.trim(), ")" | "!"))
        {
            return None;
        }
        let (mut brace, mut lines) = (None, Vec::new());
        let mut block = 0;
        let mut at = 0;
        for raw in text.split('\n') {
            let start = at + (raw.len() - raw.trim_start().len());
            let end = at + raw.trim_end().len();
            at += raw.len() + 1;
            let line = text.get(start..end.max(start)).unwrap_or("");
            if line.is_empty() {
                block += 1;
                continue;
            }
            if line.chars().all(|c| c == ' ' || is_piece(c)) {
                brace = brace.or(Some((start, end)));
                continue;
            }
            // Pieces of an extensible brace glued to the text beside them (`⎨0`).
            let glued =
                line.chars().take_while(|&c| !c.is_ascii() && is_piece(c)).map(char::len_utf8).sum::<usize>();
            if glued > 0 {
                brace = brace.or(Some((start, start + glued)));
            }
            lines.push(Line { range: (start + glued, end), block });
        }
        let mut cases = Cases {
            text,
            table,
            brace: brace?,
            head: ((0, 0), Vec::new(), (0, 0)),
            values: Vec::new(),
            conditions: Vec::new(),
            trailing: Vec::new(),
        };
        cases.rows(&lines)?;
        Some(cases)
    }

    fn get(&self, range: Range) -> &'a str {
        self.text.get(range.0..range.1).unwrap_or("")
    }

    /// Finds the head and reads the other lines as values and conditions.
    fn rows(&mut self, lines: &[Line]) -> Option<()> {
        let (head_line, relation) =
            lines.iter().enumerate().find_map(|(n, l)| self.head_of(l.range).map(|r| (n, r)))?;
        let head = lines.get(head_line)?.range;
        let mut primes = Vec::new();
        for (n, line) in lines.iter().enumerate() {
            let text = self.get(line.range);
            if n == head_line {
                let rest = (relation.1, head.1);
                if !self.get(rest).trim().is_empty() {
                    let skip = self.get(rest).len() - self.get(rest).trim_start().len();
                    self.piece((rest.0 + skip, rest.1), n, false);
                }
            } else if text.chars().all(|c| c == '′') {
                primes.push(line.range);
            } else if text.chars().all(|c| matches!(c, '.' | ',' | ';' | ' ')) {
                self.trailing.push(line.range);
            } else {
                self.piece(line.range, n, true);
            }
        }
        let left = self.get((head.0, relation.0)).trim_end().len();
        self.head = ((head.0, head.0 + left), primes, relation);
        self.fuse_fractions(lines)?;
        (self.values.len() == self.conditions.len() && self.values.len() >= 2).then_some(())
    }

    /// The relation that ends the head on `line` (`F (x) =`): the first relation outside
    /// brackets, an `=` or `∼`, after a name that starts with a letter.
    fn head_of(&self, line: Range) -> Option<Range> {
        let text = self.get(line);
        let first = text.chars().next()?;
        if !first.is_alphabetic() || self.starts_condition(text) {
            return None;
        }
        let (at, c) = first_relation(text)?;
        if !HEAD_RELATIONS.contains(&c) || text.get(..at)?.trim().is_empty() {
            return None;
        }
        Some((line.0 + at, line.0 + at + c.len_utf8()))
    }

    /// Whether `text` starts with a word of `case_words`.
    fn starts_condition(&self, text: &str) -> bool {
        self.is_case_word(text.split(' ').next().unwrap_or(""))
    }

    /// Whether `word`, its punctuation aside, is one of `case_words`.
    fn is_case_word(&self, word: &str) -> bool {
        let word = word.trim_end_matches(['.', ',', ';', ':']);
        self.table.case_words.iter().any(|w| w == word)
    }

    /// Splits a line's `range` into a value and a condition.
    fn piece(&mut self, range: Range, line: usize, whole_line: bool) {
        let text = self.get(range);
        let mut starts = Vec::new();
        let mut at = 0;
        let mut previous = None;
        let mut depth = 0usize;
        for word in text.split(' ') {
            // A negated relation as pdftotext gives it: the slash U+0338 first (`̸∈`).
            let negated = word.starts_with('\u{338}') || self.table.negated.values().any(|n| n == word);
            let related = depth == 0 && (word.starts_with(RELATIONS) || negated) && !word.starts_with('→');
            if self.is_case_word(word) {
                starts.push(at);
            } else if related {
                starts.push(previous.unwrap_or(at));
            } else if depth == 0 && word.chars().skip(1).any(|c| RELATIONS.contains(&c)) {
                starts.push(at);
            }
            depth = (depth + word.matches(['(', '[', '{']).count())
                .saturating_sub(word.matches([')', ']', '}']).count());
            if !word.is_empty() {
                previous = Some(at);
            }
            at += word.len() + 1;
        }
        let split = starts.into_iter().min().unwrap_or(text.len()).min(text.len());
        let value = text.get(..split).unwrap_or("").trim_end();
        if !value.is_empty() {
            let whole = whole_line && split >= text.len();
            self.values.push(Value::Part { range: (range.0, range.0 + value.len()), line, whole });
        }
        if split < text.len() {
            self.conditions.push((range.0 + split, range.1));
        }
    }

    /// Values beyond the conditions' count that stand on consecutive lines of one block are a
    /// fraction's numerator and denominator (`1` / `b−a`): fused, first pair first. A value
    /// `0` is neither (no one writes 0 over anything, or anything over 0): `0` / `h` / `1−p`
    /// is the row `0` and the fraction h/(1−p).
    fn fuse_fractions(&mut self, lines: &[Line]) -> Option<()> {
        while self.values.len() > self.conditions.len() {
            let zero = |range: &Range| self.get(*range).trim() == "0";
            let pair = self.values.windows(2).position(|w| match w {
                [Value::Part { line: a, whole: true, range: over }, Value::Part { line: b, whole: true, range: under }] => {
                    let block = |n: usize| lines.get(n).map(|l| l.block);
                    *b == *a + 1 && block(*a) == block(*b) && !zero(over) && !zero(under)
                }
                _ => false,
            });
            let Some(pair) = pair else { return self.raised_power() };
            let (Some(Value::Part { range: over, .. }), Some(Value::Part { range: under, .. })) =
                (self.values.get(pair).copied(), self.values.get(pair + 1).copied())
            else {
                return None;
            };
            self.values.splice(pair..pair + 2, [Value::Fraction(over, under)]);
        }
        Some(())
    }

    /// `2` / `|x| − 0.5/σ , otherwise`: a lone number on the line above a row whose value
    /// has one letter before a script's space (TeX's space after a script, before the comma)
    /// is that letter's power, which TeX raises above the row's line so that pdftotext gives
    /// it a line of its own: with one value too many and no fraction to fuse, the number is
    /// set after the letter (σ^{2}), with a warning. `None` unless so.
    fn raised_power(&mut self) -> Option<()> {
        let number = |range: &Range| {
            let text = self.get(*range).trim();
            (1..=2).contains(&text.len()) && text.chars().all(|c| c.is_ascii_digit())
        };
        let found = self.values.windows(2).enumerate().find_map(|(n, w)| match w {
            [Value::Part { range: power, line: a, whole: true }, Value::Part { range, line: b, .. }]
                if *b == *a + 1 && number(power) =>
            {
                self.script_space(*range).map(|at| (n, Value::Powered { range: *range, power: *power, at }))
            }
            _ => None,
        });
        let (n, powered) = found?;
        self.values.splice(n..n + 2, [powered]);
        (self.values.len() == self.conditions.len()).then_some(())
    }

    /// The one place in `range` where a letter (or a prime) is followed by a space and a
    /// comma, full stop or semicolon: the end of the letter; `None` unless there is one.
    fn script_space(&self, range: Range) -> Option<usize> {
        let text = self.get(range);
        let mut found = text.match_indices(' ').filter(|&(at, _)| {
            let before = text.get(..at).and_then(|b| b.chars().next_back());
            let after = text.get(at + 1..).and_then(|a| a.chars().next());
            before.is_some_and(|c| c.is_alphabetic() || c == '′')
                && after.is_some_and(|c| matches!(c, ',' | '.' | ';'))
        });
        let (at, _) = found.next()?;
        found.next().is_none().then_some(range.0 + at)
    }

    /// The head, `\begin{cases}`, the rows, `\end{cases}` and the trailing punctuation, with
    /// a warning for the rows and one for each fraction.
    fn compose(self) -> Option<Pass> {
        let mut out = Composer::new(self.text);
        let mut notes = Vec::new();
        let ((head_start, head_end), primes, relation) = &self.head;
        out.copy(*head_start, *head_end);
        for prime in primes {
            out.copy(prime.0, prime.1);
        }
        out.write(" ", *head_end, *head_end);
        out.copy(relation.0, relation.1);
        out.write(" \\begin{cases} ", self.brace.0, self.brace.1);
        let mut first_row = String::new();
        for (n, (value, condition)) in self.values.iter().zip(&self.conditions).enumerate() {
            if n > 0 {
                out.write(" \\\\ ", condition.0, condition.0);
            }
            let shown = match value {
                Value::Part { range, .. } => {
                    out.copy(range.0, range.1);
                    self.get(*range).to_string()
                }
                Value::Fraction(over, under) => {
                    let read = format!("\\frac{{{}}}{{{}}}", self.get(*over), self.get(*under));
                    out.write("\\frac{", over.0, over.0);
                    out.copy(over.0, over.1);
                    out.write("}{", over.1, over.1);
                    out.copy(under.0, under.1);
                    out.write("}", under.1, under.1);
                    let found = format!("{} / {}", self.get(*over), self.get(*under));
                    notes.push(note((over.0, under.1), found, read.clone(), PdfWhy::Fraction));
                    read
                }
                Value::Powered { range, power, at } => {
                    out.copy(range.0, *at);
                    out.write("^{", *at, *at);
                    out.copy(power.0, power.1);
                    out.write("}", *at, *at);
                    out.copy(*at, range.1);
                    let base = self.get((range.0, *at)).rsplit([' ', '/', '(']).next().unwrap_or("");
                    let read = format!("{base}^{{{}}}", self.get(*power));
                    let found = format!("{} / {base} ,", self.get(*power));
                    notes.push(note((power.0, *at), found, read, PdfWhy::Exponent));
                    self.get(*range).to_string()
                }
            };
            out.write(" & ", condition.0, condition.0);
            out.copy(condition.0, condition.1);
            if n == 0 {
                first_row = format!("{shown} & {}", self.get(*condition));
            }
        }
        let end = self.conditions.last().map_or(self.brace.1, |c| c.1);
        out.write(" \\end{cases}", end, end);
        for range in &self.trailing {
            out.write(" ", range.0, range.0);
            out.copy(range.0, range.1);
        }
        let read = format!("\\begin{{cases}} {first_row} \\\\ … \\end{{cases}}");
        notes.push(note(self.brace, code_points(self.get(self.brace)), read, PdfWhy::Rows));
        let (text, map) = out.finish();
        Some(Pass { text, map, notes })
    }
}

/// The first relation of `text` outside brackets, with its offset.
fn first_relation(text: &str) -> Option<(usize, char)> {
    let mut depth = 0usize;
    for (at, c) in text.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth = depth.saturating_sub(1),
            _ if depth == 0 && RELATIONS.contains(&c) => return Some((at, c)),
            _ => {}
        }
    }
    None
}

/// `text` with Adobe's private-use pieces named by their code points (they show nothing).
fn code_points(text: &str) -> String {
    let private = |c: char| ('\u{E000}'..='\u{F8FF}').contains(&c);
    text.chars().map(|c| if private(c) { format!("U+{:04X}", u32::from(c)) } else { c.to_string() }).collect()
}

/// A warning that `range`, given as `found`, was read as `read`.
fn note(range: Range, found: String, read: String, why: PdfWhy) -> Warning {
    Warning { kind: WarningKind::PdfText { found, read, why }, span: Span::new(range.0, range.1) }
}

#[cfg(test)]
mod tests {
    use super::read;

    #[test]
    fn the_rows_of_cases_are_paired_from_the_values_and_conditions_in_order() {
        assert_eq!(
            read("(\ng(t) =\n\n2 t > 1,\n3 otherwise.").text,
            "g(t) = \\begin{cases} 2 & t > 1, \\\\ 3 & otherwise. \\end{cases}"
        );
        assert_eq!(
            read("\u{f8f1}\n\u{f8f4}\nu < 2,\n\u{f8f2}5\nh(u) = 4 − a 2 ≤ u < 3,\n\u{f8f4}\n\u{f8f3}\n7\nu ≥ 3.").text,
            "h(u) = \\begin{cases} 5 & u < 2, \\\\ 4 − a & 2 ≤ u < 3, \\\\ 7 & u ≥ 3. \\end{cases}"
        );
        assert_eq!(
            read("(\nq(s) =\n\n2\nc−d\n\n0\n\ns ∈ [c, d],\ns ∉ [c, d].").text,
            "q(s) = \\begin{cases} \\frac{2}{c−d} & s ∈ [c, d], \\\\ 0 & s ∉ [c, d]. \\end{cases}"
        );
    }

    #[test]
    fn a_power_lifted_above_a_row_goes_after_the_letter_before_a_script_space() {
        assert_eq!(
            read("(\na/2,\nif a < 1\ng(a) =\n2\n1 − b/τ , otherwise").text,
            "g(a) = \\begin{cases} a/2, & if a < 1 \\\\ 1 − b/τ^{2} , & otherwise \\end{cases}"
        );
    }

    #[test]
    fn text_that_is_not_cases_is_left_as_it_is() {
        for text in ["(\nsoftmax(x)", "(\na = 1\nb", "x = 1\ny = 2"] {
            assert_eq!(read(text).text, text);
        }
    }
}
