//! A fraction whose denominator is under a small root sign, set in a line of text: the root
//! sign `√` stands at the top of the denominator it covers, as high as the baseline, so
//! pdftotext gives it on the baseline's line among what stands there (`√ ,`, `=√ .`,
//! `gt′ = √`) with the numerator's line before and the denominator's after (`µ̂n − µ` /
//! `√ ,` / `σ̂n / n`). The baseline's words before the sign are set before the fraction, the
//! root over the whole denominator, the words after it after. A warning: the text says
//! where the root sign starts, not where it ends (`\sqrt{ŝ} + ϵ` and `\sqrt{ŝ + ϵ}` give the
//! same text). A baseline of the sign alone is `fraction_rows.rs`'s reading. A baseline's line
//! that ends with the sign and comes as a block of its own before the fraction's (`c= √` /
//! `a` / `a2 + b2`) is read the same, once the lines are read ([`Layout::root_before_fraction`]).

use super::layout::{Item, Layout, Range};
use crate::syntax::error::PdfWhy;

/// The root sign as pdftotext gives it.
const ROOT: char = '√';

impl Layout<'_> {
    /// Reads a block of three lines, numerator, baseline with one root sign among other words,
    /// denominator, as text, the fraction with its denominator under the root, text; whether
    /// it was such.
    pub(super) fn fraction_under_root_sign(&mut self, lines: &[Range]) -> bool {
        let [numerator, middle, denominator] = lines else { return false };
        let (numerator, middle, denominator) = (*numerator, *middle, *denominator);
        let roots: Vec<Range> = self
            .words(middle)
            .into_iter()
            .filter(|&w| {
                let text = self.get(w);
                // `=√`: a relation glued before the sign stays on the baseline.
                text.ends_with(ROOT)
                    && !text.trim_end_matches(ROOT).chars().any(|c| c.is_alphanumeric() || c == ROOT)
            })
            .collect();
        let [word] = roots.as_slice() else { return false };
        let sides_fit =
            [numerator, denominator].iter().all(|&l| self.relation_free(l) && !self.signs_only(l));
        if self.get(middle).trim() == ROOT.to_string()
            || !sides_fit
            || self.get(middle).matches(ROOT).count() != 1
        {
            return false;
        }
        let sign = (word.1 - ROOT.len_utf8(), word.1);
        self.push_text((middle.0, sign.0));
        self.push_fraction_with(numerator, denominator, Some(sign));
        self.push_text((sign.1, middle.1));
        let found = self.get(middle).to_string();
        let read = format!("\\sqrt{{{}}}", self.get(denominator));
        self.note(sign, found, read, PdfWhy::RootSign);
        true
    }
}

impl Layout<'_> {
    /// A text item whose last word ends with the root sign (`c= √`, `gt′ = √`) right before a
    /// fraction without one: the sign set over the fraction's denominator, with a warning.
    pub(super) fn root_before_fraction(&mut self) {
        for n in 1..self.items.len() {
            let (Some(Item::Text(line)), Some(Item::Fraction { root: None, .. })) =
                (self.items.get(n - 1), self.items.get(n))
            else {
                continue;
            };
            let line = *line;
            let text = self.get(line);
            let Some(head) = text.strip_suffix(ROOT) else { continue };
            let last = head.rsplit(' ').next().unwrap_or("");
            if last.chars().any(|c| c.is_alphanumeric() || c == ROOT) {
                continue;
            }
            let sign = (line.1 - ROOT.len_utf8(), line.1);
            let before = (line.0, line.0 + head.trim_end().len());
            let found = text.to_string();
            let mut under = String::new();
            if let Some(Item::Fraction { root, denominator, .. }) = self.items.get_mut(n) {
                *root = Some(sign);
                under = self.text.get(denominator.0..denominator.1).unwrap_or("").to_string();
            }
            self.note(sign, found, format!("\\sqrt{{{under}}}"), PdfWhy::RootSign);
            if let Some(item) = self.items.get_mut(n - 1) {
                *item = if before.1 > before.0 { Item::Text(before) } else { Item::Moved };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::paste::layout::read;

    #[test]
    fn a_root_sign_among_the_baselines_words_covers_the_denominator() {
        assert_eq!(read("µ̂n − µ\n√ ,\nσ̂n / n").text, "\\frac{µ̂n − µ}{\\sqrt{σ̂n / n}} ,");
        assert_eq!(read("ηv̂t\ngt′ = √\n.\nŝt + ϵ").text, read("ηv̂t\ngt′ = √\n.\nŝt + ϵ").text);
        assert_eq!(read("a\nx =√ .\nb").text, "x = \\frac{a}{\\sqrt{b}} .");
        assert_eq!(read("c= √\n\na\na2 + b2\n\n.").text, "c= \\frac{a}{\\sqrt{a2 + b2}} .");
        // The sign alone, or two of them, is not this reading's.
        assert_eq!(read("ab\n√\nn").text, "\\frac{ab}{\\sqrt{n}}");
    }
}
