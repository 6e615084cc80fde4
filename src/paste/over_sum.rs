//! A fraction over a sum set in text style (`\frac{\exp(o_i)}{\sum_j \exp(o_j)}`, a softmax):
//! pdftotext gives the numerator's line, then the baseline's line with the sum's letter at
//! its end (`ŷi = P`, with an upper limit glued when there is one: `Pq`), then the
//! denominator's line with the sum's lower limit first (`j exp(oj )`, `k=1 exp(ok )`). The sign
//! is taller than the text beside it, so it stands on the baseline's line though it belongs
//! to the denominator. A sign alone on its line (`PT`, read by the line pass as `P_{T}`) may
//! come after the baseline's rest (`hs .`): the numerator is then the block's first line
//! without a relation. Lines of signs only (a display's full stop) between the numerator and
//! the baseline, and lines between the baseline and the denominator, follow the fraction.
//! Each fraction read so is a warning: the text says what was on which line, not where.

use super::layout::{words_in, Item, Layout, Range};
use crate::syntax::error::PdfWhy;

/// The longest upper limit, in characters, read as glued to a text-style sum's letter (`Pq`).
const UPPER_CHARACTERS: usize = 3;

/// A text-style sum over which a fraction stands, as its numerator: its sign's LaTeX and
/// range, its limits and its body.
#[derive(Debug)]
pub(super) struct SumOver {
    pub(super) latex: String,
    pub(super) sign: Range,
    pub(super) lower: Range,
    pub(super) upper: Option<Range>,
    pub(super) body: Range,
}

/// A sum's sign found at the end of a baseline line.
struct EndSign {
    /// The baseline's text before the sign (may be empty).
    before: Range,
    sign: Range,
    upper: Option<Range>,
}

impl Layout<'_> {
    /// Reads `lines` as text around a fraction over a text-style sum; whether they were.
    pub(super) fn fraction_over_sum(&mut self, lines: &[Range]) -> bool {
        for (b, &line) in lines.iter().enumerate() {
            let Some(end) = self.end_sign(line) else { continue };
            // Above a sign alone on its line (`PT`), pdftotext may give the baseline's rest
            // (`hs .`) after the numerator: the numerator is then the block's first line
            // without a relation.
            let content = |k: &usize| lines.get(*k).is_some_and(|&l| !self.signs_only(l));
            let numerator = match end.before.1 > end.before.0 {
                true => (0..b).rev().find(content),
                false => (0..b).find(|k| content(k) && lines.get(*k).is_some_and(|&l| self.relation_free(l))),
            };
            let Some(n) = numerator else { continue };
            let Some(&over) = lines.get(n) else { continue };
            if !self.relation_free(over) || self.end_sign(over).is_some() {
                continue;
            }
            let Some((d, lower, rest)) = self.sum_denominator(lines, b, end.upper.is_some()) else {
                continue;
            };
            let top = self.sum_over(lines, n, over);
            let (over, first) = match &top {
                Some(sum) => (sum.body, n - 1),
                None => (over, n),
            };
            for &line in lines.get(..first).unwrap_or_default() {
                self.items.push(Item::Text(line));
            }
            if end.before.1 > end.before.0 {
                self.items.push(Item::Text(end.before));
            }
            let latex = self.table.big_operators.get(self.get(end.sign)).cloned().unwrap_or_default();
            let (over_text, lower_text, rest_text) = (self.get(over), self.get(lower), self.get(rest));
            let upper_text = end.upper.map_or(String::new(), |u| format!("^{{{}}}", self.get(u)));
            // A numerator that is a sum itself: its sign's line, its limit and its body.
            let (start, found_over, read_over) = match &top {
                Some(sum) => {
                    let (sign, limit) = (self.get(sum.sign), self.get(sum.lower));
                    let upper = sum.upper.map_or(String::new(), |u| format!("^{{{}}}", self.get(u)));
                    let read = format!("{}_{{{limit}}}{upper} {over_text}", sum.latex);
                    (sum.sign.0, format!("{sign} {limit} {over_text}"), read)
                }
                None => (over.0, over_text.to_string(), over_text.to_string()),
            };
            let read = format!("\\frac{{{read_over}}}{{{latex}_{{{lower_text}}}{upper_text} {rest_text}}}");
            let found = format!("{found_over} / {} {lower_text} {rest_text}", self.get(end.sign));
            self.note((start, rest.1.max(over.1)), found, read, PdfWhy::Fraction);
            self.items.push(Item::OverSum {
                numerator: over,
                over: top,
                latex,
                sign: end.sign,
                lower,
                upper: end.upper,
                rest,
            });
            let after = lines.iter().enumerate().filter(|&(k, _)| k > n && k != b && k != d);
            for (_, &line) in after {
                if !(self.limit_like(line) && self.fill_pending(line)) {
                    self.items.push(Item::Text(line));
                }
            }
            return true;
        }
        false
    }

    /// The numerator at `lines[n]` (`over`) as a text-style sum itself (a weighted mean,
    /// `\frac{\sum_k a_k b_k}{\sum_k b_k}`): its sign alone on the line above (`P`, `Pn`),
    /// its lower limit the numerator line's first word (`k ak bk`), its body the rest.
    fn sum_over(&self, lines: &[Range], n: usize, over: Range) -> Option<SumOver> {
        let above = *lines.get(n.checked_sub(1)?)?;
        let sign = self.end_sign(above).filter(|e| e.before.0 == e.before.1)?;
        let words = words_in(self.text, over);
        let (&lower, &second) = (words.first()?, words.get(1)?);
        if !self.limit_like(lower) || !self.relation_free((second.0, over.1)) {
            return None;
        }
        let latex = self.table.big_operators.get(self.get(sign.sign)).cloned()?;
        Some(SumOver { latex, sign: sign.sign, lower, upper: sign.upper, body: (second.0, over.1) })
    }

    /// `ŷi = P`, `=P`, `Pq`: a line whose last word ends with a big operator's letter, maybe
    /// with a short upper limit glued after it.
    fn end_sign(&self, line: Range) -> Option<EndSign> {
        let text = self.get(line);
        let word_start = text.rfind(' ').map_or(0, |at| at + 1);
        let word = text.get(word_start..)?;
        // A relation or a sign glued before the letter (`=P`) stays on the baseline.
        let letter_at = word.find(|c: char| c.is_alphabetic())?;
        let (glued, from_letter) = word.split_at(letter_at);
        if glued.chars().any(char::is_alphanumeric) {
            return None;
        }
        let mut chars = from_letter.chars();
        let letter = chars.next()?;
        if !self.table.text_style_operators.contains(&letter.to_string()) {
            return None;
        }
        // The line pass may have read a glued upper limit as a subscript (`Pn` as `P_{n}`).
        let (upper_text, braced) = match chars.as_str().strip_prefix("_{").and_then(|u| u.strip_suffix('}')) {
            Some(inner) => (inner, true),
            None => (chars.as_str(), false),
        };
        let upper_ok =
            upper_text.chars().count() <= UPPER_CHARACTERS && upper_text.chars().all(char::is_alphanumeric);
        if !upper_ok {
            return None;
        }
        let sign_start = line.0 + word_start + letter_at;
        let sign = (sign_start, sign_start + letter.len_utf8());
        let upper = match braced {
            true => Some((sign.1 + 2, line.1 - 1)),
            false => (!upper_text.is_empty()).then_some((sign.1, line.1)),
        };
        let before_end = line.0 + text.get(..word_start + letter_at)?.trim_end().len();
        Some(EndSign { before: (line.0, before_end), sign, upper })
    }

    /// The denominator after the baseline line `b`: the first line after it whose first word
    /// is a limit (a count's start `k=1` when the sign has an upper limit) followed by more
    /// than signs. Its index, the lower limit and the rest.
    fn sum_denominator(&self, lines: &[Range], b: usize, counted: bool) -> Option<(usize, Range, Range)> {
        lines.iter().enumerate().skip(b + 1).find_map(|(k, &line)| {
            let text = self.get(line);
            let (first, rest) = text.split_once(' ')?;
            let lower = (line.0, line.0 + first.len());
            let rest_start = lower.1 + 1 + (rest.len() - rest.trim_start().len());
            let rest = (rest_start, line.1);
            let fits = self.limit_like(lower)
                && (!counted || first.contains('='))
                && !self.signs_only(rest)
                && self.relation_free(rest);
            fits.then_some((k, lower, rest))
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::paste::layout::read;

    #[test]
    fn a_fraction_over_a_text_sum_takes_the_sign_from_the_baseline() {
        assert_eq!(
            read("c =\n\nT\nX\n\nexp(ats )\nhs .\nPT\ns=1\nr=1 exp(atr )").text,
            "c = \\sum_{s=1}^{T} \\frac{exp(ats )}{\\sum_{r=1}^{T} exp(atr )} hs ."
        );
        assert_eq!(
            read("exp(oi )\n.\nyi = P\nj exp(oj )").text,
            "yi = \\frac{exp(oi )}{\\sum_{j} exp(oj )} ."
        );
        assert_eq!(
            read("exp(oj )\n∂l = Pq\n− yj .\nk=1 exp(ok )").text,
            "∂l = \\frac{exp(oj )}{\\sum_{k=1}^{q} exp(ok )} − yj ."
        );
        assert_eq!(
            read("β =\n\nn\nX\n\nexp(eij )\nP_{n}\nbj .\nk=1 exp(eik )\nj=1").text,
            "β = \\sum_{j=1}^{n} \\frac{exp(eij )}{\\sum_{k=1}^{n} exp(eik )} bj ."
        );
        // Both a text-style sum: a weighted mean, the numerator's sign alone above it.
        assert_eq!(
            read("P\nk ak bk\nr= P\n+ 1.\nk bk").text,
            "r= \\frac{\\sum_{k} ak bk}{\\sum_{k} bk} + 1."
        );
    }
}
