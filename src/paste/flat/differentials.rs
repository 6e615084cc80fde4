//! What a PDF's text flattens of derivatives, read by [`Scan`]: the subscript of `∇` or `∂`
//! glued to it, then TeX's space after a script before what it applies to (`∇w L(w)` for
//! ∇_w L(w), `∂W(l) o` for ∂_{W^{(l)}} o, `∂(w,b) l` for ∂_{(w,b)} l); digits glued to it
//! there its power (`∇2 f` for ∇²f); and a Leibniz fraction's denominators on a line of
//! their own with the variable's index glued (`dxk`, `dx1 dxn` for dx_k, dx_1 dx_n), with
//! the numerator's power glued to its `d` on a line above (`d2 f` over `dx1 dx1`). Each
//! reading a warning.

use super::{run_length, Scan, SCRIPT_CHARACTERS};
use crate::syntax::error::PdfWhy;

/// The longest index, in characters, glued to a differential's variable (`dx12`, `dxij`).
const DIFFERENTIAL_INDEX_CHARACTERS: usize = 2;

/// The most lines a Leibniz fraction's baseline is given in, between its numerator's line and
/// its denominator's (`dn f` / `=` / `(x) =` / `dxn`).
const LINES_BETWEEN: usize = 2;

/// The words of a line looked at for a Leibniz fraction's powers (a fraction's line has few).
const DENOMINATOR_WORDS: usize = 16;

impl Scan<'_> {
    /// `∇` or `∂` at `at` (`next` after it) with a script glued to it and then a space before
    /// a letter: the script is its subscript (`∇w L`), digits alone its power (`∇2 f`). The
    /// offset to go on from; `next` when it is not so (`∇f (x)`, `∂f ∂u`, `∂L` / `∂w`).
    pub(super) fn operator_script(&mut self, at: usize, next: usize) -> usize {
        let rest = self.text.get(next..).unwrap_or("");
        let sign = self.text.get(at..next).unwrap_or("");
        let letters = run_length(rest, char::is_alphanumeric);
        let mut end = letters;
        let mut group = "";
        if let Some(inside) = rest.get(end..).and_then(|r| r.strip_prefix('(')) {
            // Looking no further than a script's length keeps the pass linear.
            let close = inside
                .char_indices()
                .take(SCRIPT_CHARACTERS + 1)
                .find(|&(_, c)| c == ')')
                .map(|(n, _)| n)
                .filter(|&n| n > 0 && n <= SCRIPT_CHARACTERS);
            if let Some(close) = close.filter(|&n| !inside.get(..n).unwrap_or(" ").contains([' ', '('])) {
                group = rest.get(end..end + close + 2).unwrap_or("");
                end += close + 2;
            }
        }
        let script = rest.get(..end).unwrap_or("");
        let after = rest.get(end..).unwrap_or("");
        let applied = after
            .strip_prefix(' ')
            .and_then(|a| a.chars().next())
            .is_some_and(|c| c.is_alphabetic() && c != '∂' && c != '∇');
        if end == 0 || !applied || script.chars().count() > SCRIPT_CHARACTERS {
            return next;
        }
        let base = rest.get(..letters).unwrap_or("");
        let power = group.is_empty() && base.chars().all(|c| c.is_ascii_digit());
        let read = if power {
            format!("{sign}^{{{base}}}")
        } else if !base.is_empty() && !base.starts_with(|c: char| c.is_alphabetic()) {
            return next;
        } else if base.is_empty() || group.is_empty() {
            format!("{sign}_{{{script}}}")
        } else {
            format!("{sign}_{{{base}^{{{group}}}}}")
        };
        let why = if power { PdfWhy::Exponent } else { PdfWhy::Subscript };
        self.rewrite(at, next + end, &read, why);
        next + end
    }

    /// `dxk` on a line of Leibniz denominators (every word a `d` and its variable: `dx1 dxn`):
    /// the variable's glued index is its subscript (dx_k), or its power when the numerator's
    /// `d` up to three lines above has the same glued (`dn f` over `dxn`: dⁿf / dxⁿ). `d2`, or
    /// `dn` over such a power, before a letter up to three lines above such a line is `d`'s
    /// power (`d2 f` for d²f). The offset to go on from.
    pub(super) fn differential(&mut self, at: usize, end: usize, word: &str) -> Option<usize> {
        let mut chars = word.chars();
        if chars.next()? != 'd' {
            return None;
        }
        let rest = chars.as_str();
        if self.is_index(rest) {
            let after = self.text.get(end..)?;
            let applied = after.strip_prefix(' ')?.starts_with(|c: char| c.is_alphabetic());
            // The denominators' line is next, or after the baseline's between (`d2 f` / `= 0` /
            // `dx1 dx2`); a letter is a power only where the denominators raise it too.
            let below =
                self.text.get(end..)?.match_indices('\n').take(LINES_BETWEEN + 1).map(|(n, _)| end + n + 1);
            let below: Vec<usize> = below.collect();
            let digits = rest.chars().all(|c| c.is_ascii_digit());
            let raised = |scan: &mut Self, start: usize| {
                scan.denominators_at(start) && (digits || scan.line_raises(start, rest))
            };
            if !applied || !below.into_iter().any(|start| raised(self, start)) {
                return None;
            }
            let read = format!("d^{{{rest}}}");
            self.rewrite(at, end, &read, PdfWhy::Exponent);
            return Some(end);
        }
        let variable = rest.chars().next().filter(|c| c.is_alphabetic())?;
        let index = rest.get(variable.len_utf8()..)?;
        if !self.is_index(index) || !self.denominators_at(self.line_begin) {
            return None;
        }
        let power = self.numerator_power(self.line_begin).is_some_and(|p| p == index);
        let (read, why) = if power {
            (format!("d{variable}^{{{index}}}"), PdfWhy::Exponent)
        } else {
            (format!("d{variable}_{{{index}}}"), PdfWhy::Subscript)
        };
        self.rewrite(at, end, &read, why);
        Some(end)
    }

    /// Whether a word of the denominators' line at `start` ends with `script` after its `d` and
    /// variable (`dxn` for `n`); its first words only, which keeps the pass linear.
    fn line_raises(&self, start: usize, script: &str) -> bool {
        let line = self.text.get(start..).unwrap_or("").split('\n').next().unwrap_or("");
        line.split_whitespace().take(DENOMINATOR_WORDS).any(|w| {
            w.chars().count() == 2 + script.chars().count() && w.ends_with(script) && w.starts_with('d')
        })
    }

    /// The script glued to a numerator's `d` before a letter (`dn f`, `d2 y`) on one of the three
    /// lines above the line at `start`, found once a line.
    fn numerator_power(&mut self, start: usize) -> Option<String> {
        if let Some(known) = self.numerator_powers.get(&start) {
            return known.clone();
        }
        let before = self.text.get(..start.saturating_sub(1)).unwrap_or("");
        let found = before.rsplit('\n').take(LINES_BETWEEN + 1).find_map(|line| {
            let words: Vec<&str> = line.split_whitespace().take(DENOMINATOR_WORDS).collect();
            words.windows(2).find_map(|pair| match pair {
                [d, next] if next.starts_with(char::is_alphabetic) => {
                    d.strip_prefix('d').filter(|s| self.is_index(s)).map(str::to_string)
                }
                _ => None,
            })
        });
        self.numerator_powers.insert(start, found.clone());
        found
    }

    /// Whether `index` is a short index glued to a variable: digits or index letters.
    fn is_index(&self, index: &str) -> bool {
        let letter = |c: char| self.table.glued_index_letters.iter().any(|l| l.chars().eq([c]));
        let count = index.chars().count();
        (1..=DIFFERENTIAL_INDEX_CHARACTERS).contains(&count)
            && (index.chars().all(|c| c.is_ascii_digit()) || index.chars().all(letter))
    }

    /// Whether the line that starts at `start` is Leibniz denominators only, worked out once a
    /// line (a line of many words asks for each: looking again would be quadratic).
    fn denominators_at(&mut self, start: usize) -> bool {
        if let Some(&known) = self.denominator_lines.get(&start) {
            return known;
        }
        let rest = self.text.get(start..).unwrap_or("");
        let line = rest.split('\n').next().unwrap_or("");
        let known = self.denominators(line);
        self.denominator_lines.insert(start, known);
        known
    }

    /// Whether `line` is Leibniz denominators only: words of `d`, a letter and maybe its index.
    fn denominators(&self, line: &str) -> bool {
        let mut words = line.split_whitespace().peekable();
        words.peek().is_some()
            && words.all(|w| {
                let mut chars = w.chars();
                chars.next() == Some('d')
                    && chars.next().is_some_and(char::is_alphabetic)
                    && (chars.as_str().is_empty() || self.is_index(chars.as_str()))
            })
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::read;

    #[test]
    fn a_glued_script_of_nabla_or_partial_before_what_it_applies_to_is_its_subscript() {
        assert_eq!(read("L(w) + ϵ · ∇w L(w)"), "L(w) + ϵ · ∇_{w} L(w)");
        assert_eq!(read("∂W(l) o = ∂(w,b) l(i)"), "∂_{W^{(l)}} o = ∂_{(w,b)} l^{(i)}");
        assert_eq!(read("∇2 f (x)"), "∇^{2} f (x)");
        // Applied to a parenthesis, another derivative, or a line's end: left.
        for text in ["∇f (x)", "∂L ∂u", "∂L\n∂w", "∂ log p"] {
            assert_eq!(read(text), text);
        }
    }

    #[test]
    fn leibniz_denominators_take_their_variables_glued_index() {
        assert_eq!(read("d\nf (x)\ndxk"), "d\nf (x)\ndx_{k}");
        assert_eq!(read("d2 f\n= 0\ndx1 dxn"), "d^{2} f\n= 0\ndx_{1} dx_{n}");
        assert_eq!(read("d2 f\ndx1 dxn"), "d^{2} f\ndx_{1} dx_{n}");
        // The same letter glued to the numerator's `d` and to the variable: a power.
        assert_eq!(read("dn f\n= (x)\ndxn"), "d^{n} f\n= (x)\ndx^{n}");
        // Not on a line of denominators: left.
        assert_eq!(read("y = dxk + 1"), "y = dxk + 1");
    }
}
