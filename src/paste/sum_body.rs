//! A fraction right after a display sum (`\sum_{n=0}^{\infty} \frac{x^n}{n!}`): the fraction's
//! numerator stands higher than the sum's lower limit and its denominator lower, so
//! pdftotext gives the sum's sign, then the numerator's line, then the lower limit's line
//! ending the block, and the denominator as a block of its own after it (`X` / `xn` / `n=0`,
//! then `n!`). Read as the sum with its lower limit and the fraction after it, a warning for
//! the fraction (the text says what was on which line, not where).

use super::layout::{Layout, Range};
use std::collections::VecDeque;

/// The lines of a fraction after a sum's sign and of the sum's lower limit.
pub(super) struct Body {
    pub(super) numerator: Range,
    pub(super) lower: Range,
    pub(super) denominator: Range,
}

impl Layout<'_> {
    /// After a sum's sign at line `i - 1` of `lines`: the numerator on line `i`, the lower
    /// limit on the block's last line `i + 1`, and the denominator as the next block of
    /// `rest`, of one line; taken off `rest` when so. A numerator that could be a lower limit
    /// itself (a letter with its index glued, `ak`, `ym`) is one only when the line under it
    /// starts a count (`k=0`): a limit's line is the lowest of the sign's block, below the
    /// numerator of the fraction beside the sign.
    pub(super) fn fraction_in_body(
        &self,
        lines: &[Range],
        i: usize,
        rest: &mut VecDeque<Vec<Range>>,
    ) -> Option<Body> {
        let (&numerator, &lower) = (lines.get(i)?, lines.get(i + 1)?);
        let [denominator] = rest.front()?.as_slice() else { return None };
        let denominator = *denominator;
        let counted = self.get(lower).contains('=') || !self.limit_like(numerator);
        let fits = i + 2 == lines.len()
            && counted
            && self.relation_free(numerator)
            && !self.signs_only(numerator)
            && self.limit_like(lower)
            && self.relation_free(denominator)
            && !self.signs_only(denominator);
        if !fits {
            return None;
        }
        rest.pop_front();
        Some(Body { numerator, lower, denominator })
    }
}

#[cfg(test)]
mod tests {
    use crate::paste::layout::read;

    #[test]
    fn a_fraction_after_a_display_sum_is_its_body() {
        assert_eq!(
            read("g =\n\n∞\nX\nc (t − b)\nn=0\n\nn!\n\n= 1.").text,
            "g = \\sum_{n=0}^{∞} \\frac{c (t − b)}{n!} = 1."
        );
        assert_eq!(
            read("f (x) =\n\nn\nX\nf (i) (a)\ni=0\n\ni!\n\n(x − a)i .").text,
            "f (x) = \\sum_{i=0}^{n} \\frac{f (i) (a)}{i!} (x − a)i ."
        );
        // A numerator with its index glued stands above the count's lower limit.
        assert_eq!(
            read("f (x) =\n\n∞\nX\nak\nk=0\n\nk!\n\nxk .").text,
            "f (x) = \\sum_{k=0}^{∞} \\frac{ak}{k!} xk ."
        );
    }
}
