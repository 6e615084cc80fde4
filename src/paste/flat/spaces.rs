//! Spaces in a PDF's text that say what a glued letter is, read by [`Scan`]: after `∈`, a
//! blackboard letter with its dimensions glued on the line is a space of numbers (`∈ Rd`,
//! `∈ Rn×a×b` for ℝ^d, ℝ^{n×a×b}, as pdftotext gives TeX's `\mathbb{R}^{n \times a}`: the
//! letter as plain text, the superscript after it; a warning); a letter glued before `f (` is
//! a factor before f applied (`λf (x)`), not a base with the subscript f; a star with no space
//! before it is a script (`x∗`), a spaced one a binary sign (`f ∗ g`); a capital under μ or σ
//! takes the parenthesized index after its italic correction (`µX (n)`).

use super::{run_length, Scan};
use crate::syntax::error::PdfWhy;

/// The longest dimensions, in characters, glued after a space of numbers (`n×a×b`).
const DIMENSION_CHARACTERS: usize = 12;

impl Scan<'_> {
    /// `∈ Rd`, `∈ Rn×a×b`, `∈ Rpv ,`: right after `∈` and a space, a letter of
    /// `spaces_with_dimensions` with small letters or digits glued after it, `×` set tight
    /// among them: TeX's `\mathbb{R}^{n×a×b}`, whose superscript pdftotext sets on the line,
    /// a blackboard letter as plain text. The offset to go on from.
    pub(super) fn dimensions(&mut self, at: usize, word: &str) -> Option<usize> {
        let mut chars = word.chars();
        let base = chars.next()?;
        let listed = self.table.spaces_with_dimensions.iter().any(|s| s.chars().eq([base]));
        let member = self.text.get(..at)?.strip_suffix(' ')?.ends_with('∈');
        if !listed || !member || chars.as_str().is_empty() {
            return None;
        }
        let script_at = at + base.len_utf8();
        let rest = self.text.get(script_at..)?;
        let dimension = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '×';
        let length = run_length(rest, dimension);
        let script = rest.get(..length)?.trim_end_matches('×');
        if script.chars().count() > DIMENSION_CHARACTERS || script.starts_with('×') {
            return None;
        }
        let end = script_at + script.len();
        let read = format!("\\mathbb{{{base}}}^{{{script}}}");
        self.rewrite(at, end, &read, PdfWhy::Exponent);
        Some(end)
    }

    /// `x∗`, `w∗ ,`, `R∗i`: the star set right after a letter or a digit, with no space, is a
    /// script's: TeX sets `x^*` and `x_*` tight and a binary `∗` (`f ∗ g`) with spaces. Alone
    /// it is read as a superscript (x^∗, an optimum; `x_*` gives the same text, a warning says
    /// so); with letters or digits glued after it, a subscript with them (`R∗i` is R_{∗i}).
    /// The offset to go on from.
    pub(super) fn glued_star(&mut self, at: usize, next: usize) -> usize {
        let glued =
            self.text.get(..at).and_then(|b| b.chars().next_back()).is_some_and(char::is_alphanumeric);
        if !glued {
            return next;
        }
        let after = self.text.get(next..).unwrap_or("");
        let length = run_length(after, char::is_alphanumeric);
        let (end, read, why) = match after.get(..length) {
            Some(index) if !index.is_empty() && index.chars().count() <= 2 => {
                (next + length, format!("_{{\\ast {index}}}"), PdfWhy::Subscript)
            }
            _ if length == 0 => (next, "^{\\ast}".to_string(), PdfWhy::Exponent),
            _ => return next,
        };
        self.rewrite(at, end, &read, why);
        end
    }

    /// `µX (n)`, `σX (N )`: a Greek letter of `subscripted_by_capitals` with one capital glued
    /// (its subscript, μ_X), then the capital's italic correction and a parenthesized index
    /// (digits or index letters): the capital's superscript inside the subscript, as TeX's
    /// `\mu_{X^{(n)}}` gives it. The offset to go on from.
    pub(super) fn indexed_capital(&mut self, at: usize, end: usize, word: &str) -> Option<usize> {
        let mut chars = word.chars();
        let (base, capital) = (chars.next()?, chars.next()?);
        let listed = self.table.subscripted_by_capitals.iter().any(|l| l.chars().eq([base]));
        if chars.next().is_some() || !listed || !capital.is_ascii_uppercase() {
            return None;
        }
        let group = self.text.get(end..)?.strip_prefix(" (")?;
        let close = group.find(')')?;
        let index = group.get(..close)?.trim_end_matches(' ');
        let index_char = |c: char| c.is_ascii_digit() || self.index_letter(c);
        if index.is_empty() || index.chars().count() > 3 || !index.chars().all(index_char) {
            return None;
        }
        let group_end = end + 2 + close + 1;
        let read = format!("{base}_{{{capital}^{{({index})}}}}");
        self.rewrite(at, group_end, &read, PdfWhy::Superscript);
        Some(group_end)
    }

    /// `λf (x)`, `Hf (0)`, `[Cf (x)]`: a letter, then a letter of `applied_after_factor` (`f`)
    /// and ` (`. TeX sets f's wide italic correction before its parenthesis, a space in the
    /// text as a script's space would be, so `f (` is f applied, and the letter before it a
    /// factor (λ f(x)), not a base with the subscript f.
    pub(super) fn applied_after_factor(&self, base: &str, script: &str) -> bool {
        base.chars().count() == 1 && self.table.applied_after_factor.iter().any(|l| l == script)
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::read;

    #[test]
    fn dimensions_glued_after_a_space_of_numbers_are_its_superscript() {
        assert_eq!(read("x ∈ Rd"), "x ∈ \\mathbb{R}^{d}");
        assert_eq!(read("Q ∈ Rn×a×b , z ∈ C2 ."), "Q ∈ \\mathbb{R}^{n×a×b} , z ∈ \\mathbb{C}^{2} .");
        // No membership, no dimensions, or a letter not listed: left.
        for text in ["Rd = 1", "x ∈ R.", "x ∈ R", "x ∈ Sd", "x∈Rd"] {
            assert_eq!(read(text), text);
        }
    }

    #[test]
    fn a_star_glued_to_its_letter_is_a_script_and_a_spaced_one_a_sign() {
        assert_eq!(read("∥xt − x∗ ∥"), "∥x_{t} − x^{\\ast} ∥");
        assert_eq!(read("h(R∗i ) = x∗1"), "h(R_{\\ast i} ) = x_{\\ast 1}");
        for text in ["(f ∗ g)(x)", "∗ x", "a ∗b"] {
            assert_eq!(read(text), text);
        }
    }

    #[test]
    fn a_capital_under_a_moment_takes_its_parenthesized_index() {
        assert_eq!(read("X (n) − µX (n)"), "X^{(n)} − µ_{X^{(n)}}");
        assert_eq!(read("σX (N )"), "σ_{X^{(N)}}");
        assert_eq!(read("µX (x + 1)"), "µ_{X} (x + 1)");
    }

    #[test]
    fn a_letter_before_f_and_its_parenthesis_is_a_factor() {
        assert_eq!(read("λf (x) + Hf (0)"), "λf (x) + Hf (0)");
        assert_eq!(read("pX (x)"), "p_{X}(x)");
    }
}
