//! A space of numbers in a PDF's text, read by [`Scan`]: after `∈`, a blackboard letter with
//! its dimensions glued on the line (`∈ Rd`, `∈ Rn×a×b` for ℝ^d, ℝ^{n×a×b}), as pdftotext
//! gives TeX's `\mathbb{R}^{n \times a}`: the letter as plain text, the superscript after it.
//! A warning.

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
        self.note(at, end, read.clone(), PdfWhy::Exponent);
        self.out.replace(at, end, &read);
        Some(end)
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
}
