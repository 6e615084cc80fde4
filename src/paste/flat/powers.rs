//! Powers and scripts that a PDF's text sets after a closing sign or a base, read by [`Scan`]:
//! a power right after a closing bracket (`(x − µ)2`, `[K + σ 2 I]−1`, `K(x, x)T`), an entry's
//! index after `]` (`[A]ij`), a norm's stacked scripts (`∥x∥22` for ‖x‖_2^2), an exponent
//! after its base (`e−λ`, `W−1`), a power after a letter's italic correction (`σ 2`) and a
//! Greek letter or a star raised between such spaces (`V π (s)`). Each reading a warning.

use super::{run_length, Scan, SCRIPT_CHARACTERS, TIGHT_SIGNS};
use crate::syntax::error::PdfWhy;

/// The longest text, in characters, looked back over for the `[` that a `]` closes
/// ([`Scan::expectation_bracket`]).
const EXPECTATION_CHARACTERS: usize = 200;

impl Scan<'_> {
    /// A closing bracket at `at` with a power set right after it: `(x − µ)2`, `[K + σ 2 I]−1`,
    /// `K(x, x)T` (the transpose).
    pub(super) fn closing(&mut self, at: usize, next: usize) -> usize {
        let after = self.text.get(next..).unwrap_or("");
        if let Some(done) = self.entry_index(at, next, after) {
            return done;
        }
        let minus = if after.starts_with('−') { '−'.len_utf8() } else { 0 };
        let digits = run_length(after.get(minus..).unwrap_or(""), |c| c.is_ascii_digit());
        let mut end = next + minus + digits;
        if digits == 0 {
            let transpose = after.starts_with('T')
                && !after.get(1..).and_then(|a| a.chars().next()).is_some_and(char::is_alphanumeric);
            if !transpose || minus > 0 {
                return next;
            }
            end = next + 1;
        } else if self.text.get(end..).and_then(|a| a.chars().next()).is_some_and(char::is_alphanumeric) {
            return next;
        }
        let power = self.text.get(next..end).unwrap_or("");
        let read = format!("^{{{power}}}");
        self.note(at, end, format!("{}{read}", self.text.get(at..next).unwrap_or("")), PdfWhy::Exponent);
        self.out.replace(next, end, &read);
        end
    }

    /// `[A]ij`, `[X]i+a,j+b`: small letters set right after a closing `]` (with signs and
    /// commas set tight among them) are the subscript that picks an entry.
    fn entry_index(&mut self, at: usize, next: usize, after: &str) -> Option<usize> {
        let bracket = self.text.get(at..next)?;
        if bracket != "]" || !after.starts_with(|c: char| c.is_lowercase()) || self.expectation_bracket(at) {
            return None;
        }
        let length = run_length(after, |c| c.is_alphanumeric() || TIGHT_SIGNS.contains(&c));
        let script = after.get(..length)?.trim_end_matches(TIGHT_SIGNS);
        let end = next + script.len();
        let followed = self.text.get(end..).and_then(|a| a.chars().next());
        if script.chars().count() > SCRIPT_CHARACTERS || followed.is_some_and(char::is_alphanumeric) {
            return None;
        }
        let read = format!("]_{{{script}}}");
        self.rewrite(at, end, &read, PdfWhy::Subscript);
        Some(end)
    }

    /// A closing `∥` at `at` (one after an odd count of them on its line) with a script set
    /// right after it. TeX stacks a norm's exponent over its subscript and pdftotext gives the
    /// exponent first (`∥x∥22` for ‖x‖_2^2, `∥A∥2F` for ‖A‖_F^2); one character alone is a
    /// subscript when it is a letter, `0`, `1` or `∞` (`∥x∥1`, `∥A∥F`) and otherwise a power
    /// (`∥x∥2`, which may be ‖x‖_2: a warning says so).
    pub(super) fn norm(&mut self, at: usize, next: usize) -> usize {
        let line_start = self.text.get(..at).and_then(|b| b.rfind('\n')).map_or(0, |n| n + 1);
        let bars_before = self.text.get(line_start..at).unwrap_or("").matches('∥').count();
        let after = self.text.get(next..).unwrap_or("");
        let length = run_length(after, |c| c.is_alphanumeric() || c == '∞');
        let script: Vec<char> = after.get(..length).unwrap_or("").chars().collect();
        // What a bar is followed by up to another bar is inside a norm (`∥v∥`).
        let inside = after.get(length..).is_some_and(|a| a.starts_with('∥'));
        if bars_before % 2 == 0 || script.is_empty() || script.len() > 2 || inside {
            return next;
        }
        let end = next + length;
        let bar = self.text.get(at..next).unwrap_or("");
        let (read, why) = match script.as_slice() {
            [power, sub] => (format!("{bar}_{{{sub}}}^{{{power}}}"), PdfWhy::Exponent),
            [one] if one.is_alphabetic() || matches!(one, '0' | '1' | '∞') => {
                (format!("{bar}_{{{one}}}"), PdfWhy::Subscript)
            }
            [one] => (format!("{bar}^{{{one}}}"), PdfWhy::NormPower),
            _ => return next,
        };
        self.rewrite(at, end, &read, why);
        end
    }

    /// `e−λ`: a base of `exponent_bases` with `−…` right after it is a power; so is `−1`
    /// right after a capital (`W−1`), but for a line of its own (`N−1` is a sum's limit).
    pub(super) fn exponent(&mut self, at: usize, end: usize, word: &str, after: &str) -> Option<usize> {
        let power = after.strip_prefix('−')?;
        // `ye−y`: a letter or two set before the base are factors (y e^{−y}); a longer word
        // is a word.
        let base = self.table.exponent_bases.iter().find(|b| {
            word.strip_suffix(b.as_str()).is_some_and(|factor| {
                let letters = factor.chars().count() <= 2 && factor.chars().all(char::is_alphabetic);
                factor.is_empty() || (b.chars().all(char::is_alphabetic) && letters)
            })
        });
        let length = if base.is_some() {
            run_length(power, |c| c.is_alphanumeric() || c == '.' || c == '−')
        } else if word.chars().all(char::is_uppercase)
            && !self.whole_line(at, end + '−'.len_utf8() + run_length(power, |c| c.is_ascii_digit()))
        {
            let digits = run_length(power, |c| c.is_ascii_digit());
            let next = power.get(digits..).and_then(|p| p.chars().next());
            if next.is_some_and(char::is_alphanumeric) {
                0
            } else {
                digits
            }
        } else {
            0
        };
        if length == 0 {
            return None;
        }
        let power_end = end + '−'.len_utf8() + length;
        let power = self.text.get(end..power_end).unwrap_or("");
        // Of capitals set together (`WΣW−1`, a product), the last takes the power.
        let base_len = if let Some(base) = base {
            base.len()
        } else if word.chars().all(char::is_uppercase) {
            word.chars().next_back().map_or(0, char::len_utf8)
        } else {
            word.len()
        };
        let at = end - base_len;
        let read = format!("{}^{{{power}}}", self.text.get(at..end).unwrap_or(""));
        self.rewrite(at, power_end, &read, PdfWhy::Exponent);
        Some(power_end)
    }

    /// `cos2 (θ)`: a name of `powered_names` with digits glued after it, its power.
    pub(super) fn powered_name(&mut self, at: usize, end: usize, word: &str) -> Option<usize> {
        let digits = word.len() - word.trim_end_matches(|c: char| c.is_ascii_digit()).len();
        let name = word.get(..word.len() - digits)?;
        if digits == 0 || !self.table.powered_names.iter().any(|n| n == name) {
            return None;
        }
        let read = format!("{name}^{{{}}}", word.get(name.len()..)?);
        self.rewrite(at, end, &read, PdfWhy::Exponent);
        Some(end)
    }

    /// `θ9 (1 − θ)4`: a letter with digits glued after it, before a parenthesis whose power the
    /// text glues after its `)` too, is a power like it (a likelihood's θ^9 (1 − θ)^4), no index.
    pub(super) fn power_before_a_raised_group(
        &mut self,
        at: usize,
        end: usize,
        word: &str,
        after: &str,
    ) -> Option<usize> {
        let mut chars = word.chars();
        let letter = chars.next().filter(|c| c.is_alphabetic())?;
        let digits = chars.as_str();
        if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
            return None;
        }
        let group = after.strip_prefix(' ').unwrap_or(after);
        let inside = group.strip_prefix('(')?;
        let mut depth = 1;
        let close = inside.char_indices().find_map(|(i, c)| {
            depth += match c {
                '(' => 1,
                ')' => -1,
                _ => 0,
            };
            (depth == 0).then_some(i)
        })?;
        if inside.get(..close)?.contains('\n') {
            return None;
        }
        let raised = inside.get(close + 1..)?.chars().next().is_some_and(|c| c.is_ascii_digit());
        if !raised {
            return None;
        }
        self.rewrite(at, end, &format!("{letter}^{{{digits}}}"), PdfWhy::Exponent);
        Some(end)
    }

    /// `σ 2`: a single letter, a space (its italic correction), then digits alone: a power.
    /// An operator sign that starts its line (`Z 1`, an integral up to 1) is left.
    pub(super) fn spaced_power(&mut self, at: usize, end: usize, word: &str, after: &str) -> Option<usize> {
        if word.chars().count() != 1 || !word.chars().all(char::is_alphabetic) {
            return None;
        }
        let digits = run_length(after.strip_prefix(' ')?, |c| c.is_ascii_digit());
        let power_end = end + 1 + digits;
        let next = self.text.get(power_end..).and_then(|a| a.chars().next());
        let alone = next.is_none_or(|c| c.is_whitespace() || matches!(c, ',' | '.' | ';' | ')' | ']' | '}'));
        let sign =
            self.table.integral_signs.contains_key(word) || self.table.big_operators.contains_key(word);
        if digits == 0 || !alone || (sign && self.line_start(at)) {
            return None;
        }
        let read = format!("{word}^{{{}}}", self.text.get(end + 1..power_end).unwrap_or(""));
        self.rewrite(at, power_end, &read, PdfWhy::Exponent);
        Some(power_end)
    }

    /// `V π (s)`, `V ∗ (s)`, `π ∗ (s)`, `y T (K`: a letter, then a Greek letter, a star or a
    /// transpose's `T` between the spaces of italic correction, then its argument or what it
    /// multiplies in parentheses: the second is a superscript (V^π(s), y^T(K + σ²I)): TeX sets
    /// a product of letters tight, never `y T`.
    pub(super) fn spaced_superscript(
        &mut self,
        at: usize,
        end: usize,
        word: &str,
        after: &str,
    ) -> Option<usize> {
        if word.chars().count() != 1 || !word.chars().all(char::is_alphabetic) {
            return None;
        }
        let mark = after.strip_prefix(' ')?.chars().next()?;
        let greek = ('α'..='ω').contains(&mark) || ('Α'..='Ω').contains(&mark);
        let rest = after.get(1 + mark.len_utf8()..)?;
        if !(greek || matches!(mark, '∗' | '⋆' | '†' | 'T')) || !rest.starts_with(" (") {
            return None;
        }
        let mark_end = end + 1 + mark.len_utf8() + 1;
        let read = format!("{word}^{{{mark}}}");
        self.note(at, mark_end - 1, read.clone(), PdfWhy::Exponent);
        self.out.replace(at, mark_end, &read);
        Some(mark_end)
    }

    /// Whether the `]` at `at` closes an expectation's bracket (`E[w1 ]x`: what follows is a
    /// factor, no entry's index): the `[` it closes on its line comes right after `E`.
    fn expectation_bracket(&self, at: usize) -> bool {
        let line = self.text.get(..at).unwrap_or("");
        let line = line.rsplit('\n').next().unwrap_or("");
        let mut depth = 0usize;
        // Looking back a bracket's usual length at most keeps the pass linear.
        for (offset, c) in line.char_indices().rev().take(EXPECTATION_CHARACTERS) {
            match c {
                ']' => depth += 1,
                '[' if depth > 0 => depth -= 1,
                '[' => return line.get(..offset).unwrap_or("").trim_end_matches(' ').ends_with('E'),
                _ => {}
            }
        }
        false
    }
}
