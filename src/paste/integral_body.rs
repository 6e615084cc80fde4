//! An integral whose body is a fraction (`\int_a^b \frac{f(x)}{g(x)} \, dx`): the fraction's
//! denominator reaches as low as the integral's lower limit, so pdftotext gives the sign's
//! line (`Z b`), then a block of the numerator's line, the baseline's rest (`dx.`) and one
//! line with the lower limit first and the denominator after it (`a g(x)`, `−∞ 1 + x`).
//! The first word of that line is read as the waiting integral's lower limit and the rest of
//! it as the denominator, before the block is read; a warning, as the text says what was on
//! which line, not where.

use super::layout::{words_in, Item, Layout, Range};
use crate::syntax::error::PdfWhy;

impl Layout<'_> {
    /// At the start of a block `lines` after an integral sign still waiting for its lower
    /// limit: when the block's last line (of three or more) starts with a limit and goes on,
    /// that limit becomes the integral's and the line's rest stays the denominator.
    pub(super) fn integral_limit_beside_denominator(&mut self, lines: &mut [Range]) {
        let at = self.items.len().wrapping_sub(1);
        let waiting = match self.items.last() {
            // A definite integral only: an indefinite one's body may start with a letter.
            Some(Item::Operator { latex, lower: None, upper: Some(_), .. }) => {
                self.table.integral_signs.values().any(|v| v == latex) && self.pending.back() == Some(&at)
            }
            _ => false,
        };
        let count = lines.len();
        let Some(last) = lines.last_mut().filter(|_| waiting && count >= 3) else { return };
        let words = words_in(self.text, *last);
        let (Some(&first), Some(&second)) = (words.first(), words.get(1)) else { return };
        let denominator = (second.0, last.1);
        // A denominator starts with a term, not a sign (`1 + x` is no limit `1` and `+ x`).
        if !self.limit_like(first)
            || self.get(first).ends_with(['=', ',', '.'])
            || self.get(second).starts_with(['+', '−', '-', '·', '×', '/'])
            || !self.relation_free(denominator)
            || self.signs_only(denominator)
        {
            return;
        }
        let (whole, found) = (*last, self.get(*last).to_string());
        let read = format!("\\int_{{{}}} … / {}", self.get(first), self.get(denominator));
        *last = denominator;
        if let Some(Item::Operator { lower, .. }) = self.items.last_mut() {
            *lower = Some(first);
        }
        self.pending.pop_back();
        self.note(whole, found, read, PdfWhy::LimitBesideDenominator);
    }
}

#[cfg(test)]
mod tests {
    use crate::paste::layout::read;

    #[test]
    fn an_integral_limit_on_the_line_of_the_denominator_beside_it() {
        assert_eq!(read("Z b\n\nf (x)\ndx.\na g(x)").text, "\\int_{a}^{b} \\frac{f (x)}{g(x)} dx.");
        assert_eq!(read("Z ∞\n\n1\ndt.\n0 t + 1").text, "\\int_{0}^{∞} \\frac{1}{t + 1} dt.");
        // A denominator alone, or one that starts with a number, stays one.
        assert_eq!(read("Z b\n\nf (x)\ndx.\ng(x)").text, "\\int^{b} \\frac{f (x)}{g(x)} dx.");
        assert_eq!(read("Z ∞\n\n1\ndt.\n1 + t").text, "\\int^{∞} \\frac{1}{1 + t} dt.");
    }
}
