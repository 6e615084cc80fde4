//! Fractions set before display sums (`\frac{1}{n}\sum_{i=1}^{n} …`), as pdftotext gives
//! them: the numerator and the sum's sign on one line (`1X`, `1 X`), the summand on the next,
//! then the denominator and the lower limit (`n i=1`), or the denominator's line and then the
//! limit's (`|B|` / `i∈B`). Several set side by side on one baseline (`… and σ̂² = \frac{1}{n-1}
//! \sum …`) come as their numerators' lines, then their summands' lines, then their
//! denominators' lines, each in turn; a limit of the last may start the next block. What
//! stands higher than the numerator on its line is read too: another fraction's numerator
//! over a number (`1 X 1` over `n i=1 2`, ½), a big opening delimiter (its closing one with
//! its power on the line above), and superscripts of the summand's letters (`(i)`, `⊤`, set
//! on the first letters of the summand that end a word, in turn) or a subscript below
//! (`J i=1 v`). Each fraction, sum and script is a warning: the text says what was on which
//! line, not where.

use super::layout::{Item, Layout, Range, LIMIT_CHARACTERS};
use crate::syntax::error::PdfWhy;
use std::collections::VecDeque;

/// Relations of a sum's lower limit (`i=1`, `x∈B`, `j≤k`): the word of the denominator's line
/// that has one is the limit.
const LIMIT_RELATIONS: &[char] = &['=', '∈', '≤', '<', '∼'];

/// Signs and relations that end a baseline's part before a fraction (`θ̃ = 2X̄n =`, `exp −`).
const BASELINE_ENDS: &[&str] = &["=", "−", "+", "·", "≈", "≤", "≥", "<", ">", "∝"];

/// The most fractions before sums read side by side on one baseline: looking no further
/// keeps the reading linear in the lines of a long text.
const SIDE_BY_SIDE: usize = 4;

/// One fraction before a sum, and what its lines hold besides.
pub(super) struct FractionSum {
    numerator: Range,
    sign: Range,
    body: Range,
    denominator: Range,
    lower: Range,
    /// Words of the numerator's line after the sign (a script already read as `^{…}` first).
    above: Vec<Range>,
    /// Words of the denominator's line after the limit.
    below: Vec<Range>,
}

/// Fractions before sums found at a line of a block.
pub(super) struct Found {
    sums: Vec<FractionSum>,
    /// How many lines of the block they take.
    pub(super) lines: usize,
    /// How many blocks after it they take (a lower limit set after a blank line).
    blocks: usize,
    /// The line above of a big closing delimiter (its glyph, its power) that closes what a
    /// big opening one above a summand opens.
    closing: Option<(Range, Range, Option<Range>)>,
}

impl Layout<'_> {
    /// Fractions set before sums whose numerators' lines start at `lines[index]`: as many in
    /// a row as fit, most first.
    pub(super) fn fraction_sums(
        &self,
        lines: &[Range],
        index: usize,
        rest: &VecDeque<Vec<Range>>,
    ) -> Option<Found> {
        let tops: Vec<(Range, Range, Vec<Range>)> = lines
            .get(index..)?
            .iter()
            .take(SIDE_BY_SIDE)
            .map_while(|&l| self.numerator_and_sign(l))
            .collect();
        let mut found =
            (1..=tops.len()).rev().find_map(|k| self.sums_of(lines, index, rest, tops.get(..k)?))?;
        // `)2` on the line above, a big closing delimiter and its power: the one of a big
        // opening delimiter above the summand.
        let opens = found.sums.iter().any(|s| s.above.iter().any(|&w| self.opening_glyph(w)));
        if let (true, Some(&line)) = (opens, index.checked_sub(1).and_then(|i| lines.get(i))) {
            let glyph = self.get(line).chars().next().map(|c| (line.0, line.0 + c.len_utf8()));
            let closing = glyph.filter(|&g| {
                let power = self.get((g.1, line.1));
                self.table.big_delimiters.get(self.get(g)).is_some_and(|d| !is_opening(d))
                    && power.len() <= 2
                    && power.chars().all(|c| c.is_ascii_digit())
            });
            found.closing = closing.map(|g| (line, g, (g.1 < line.1).then_some((g.1, line.1))));
        }
        Some(found)
    }

    /// The `tops.len()` fractions before sums whose numerators' lines are `tops`, at
    /// `lines[index]`, when their summands and denominators follow.
    fn sums_of(
        &self,
        lines: &[Range],
        index: usize,
        rest: &VecDeque<Vec<Range>>,
        tops: &[(Range, Range, Vec<Range>)],
    ) -> Option<Found> {
        let k = tops.len();
        let mut bodies = lines.get(index + k..index + 2 * k)?.to_vec();
        // pdftotext may give the summands' lines out of order: the one that ends the display
        // (with its final punctuation) is the last.
        let ends = |l: &Range| self.get(*l).ends_with('.');
        if let Some(at) =
            bodies.iter().position(ends).filter(|&at| at + 1 < k && !bodies.last().is_some_and(ends))
        {
            let last = bodies.remove(at);
            bodies.push(last);
        }
        let bottoms = lines.get(index + 2 * k..).unwrap_or_default();
        // The denominators and limits on one line each (`n i=1`) …
        let paired: Option<Vec<(Range, Range, Vec<Range>)>> =
            bottoms.iter().take(k).map(|&l| self.denominator_and_limit(l)).collect();
        let (under, lines_taken, blocks) = match paired.filter(|p| p.len() == k) {
            Some(found) => (found, 3 * k, 0),
            // … or the denominators' lines, then the limits' (the last may follow a blank line).
            None => {
                let denominators = bottoms.get(..k)?;
                let mut limits: Vec<Range> = bottoms.get(k..2 * k).unwrap_or(bottoms.get(k..)?).to_vec();
                let in_block = limits.len();
                let mut blocks = 0;
                for block in rest.iter().take(k - in_block) {
                    match block.as_slice() {
                        [line] => limits.push(*line),
                        _ => break,
                    }
                    blocks += 1;
                }
                let whole = |&l: &Range| self.short(l) && self.relation_free(l) && !self.signs_only(l);
                if limits.len() != k
                    || !denominators.iter().all(whole)
                    || !limits.iter().all(|&l| self.limit_like(l))
                    || (blocks > 0 && index + 4 * k - blocks != lines.len())
                {
                    return None;
                }
                let under = denominators.iter().zip(limits).map(|(&d, l)| (d, l, Vec::new())).collect();
                (under, 2 * k + 2 * k - blocks, blocks)
            }
        };
        let sums = tops
            .iter()
            .zip(bodies)
            .zip(under)
            .map(|(((numerator, sign, above), body), (denominator, lower, below))| FractionSum {
                numerator: *numerator,
                sign: *sign,
                body,
                denominator,
                lower,
                above: above.clone(),
                below,
            })
            .collect();
        Some(Found { sums, lines: lines_taken, blocks, closing: None })
    }

    /// Whether `word` is a big opening delimiter's glyph.
    fn opening_glyph(&self, word: Range) -> bool {
        self.table.big_delimiters.get(self.get(word)).is_some_and(|d| is_opening(d))
    }

    /// Whether `word` may stand above a summand beside a fraction's numerator: a number, a big
    /// opening delimiter, a transpose, a parenthesized index (`(i)`), a script the line pass
    /// wrote (`^{\top}`).
    fn above_summand(&self, word: Range) -> bool {
        let text = self.get(word);
        let index = text.starts_with('(') && text.ends_with(')') && text.chars().count() <= 7;
        let number = !text.is_empty() && text.len() <= 2 && text.chars().all(|c| c.is_ascii_digit());
        number || index || text == "⊤" || text.starts_with("^{") || self.opening_glyph(word)
    }

    /// `1X`, `1 X (i) (i)`, `1 X^{1} (`: a numerator, then a sum's sign (maybe with what the
    /// line pass read as its script, which stood above the summand), then what else stood
    /// that high. `None` unless the numerator is short and has no relation.
    fn numerator_and_sign(&self, line: Range) -> Option<(Range, Range, Vec<Range>)> {
        let words = self.words(line);
        let is_sign = |c: char| self.table.big_operators.contains_key(&c.to_string());
        let (at, word) = words.iter().enumerate().find_map(|(n, &w)| {
            let text = self.get(w);
            let sign_at = text.char_indices().find(|&(_, c)| is_sign(c)).map(|(i, _)| w.0 + i)?;
            let scripted = self.get((sign_at + 1, w.1));
            let glued = self.get((w.0, sign_at));
            let plain = scripted.is_empty() || (scripted.starts_with("^{") && scripted.ends_with('}'));
            let numeric = glued.chars().all(|c| c.is_ascii_digit());
            (plain && numeric && (n > 0 || !glued.is_empty())).then_some((n, (sign_at, w.1)))
        })?;
        let sign = (word.0, word.0 + 1);
        let numerator_end = if sign.0 > words.get(at)?.0 { sign.0 } else { words.get(at.checked_sub(1)?)?.1 };
        let numerator = (line.0, numerator_end);
        if !self.short(numerator) || !self.relation_free(line) || self.signs_only(numerator) {
            return None;
        }
        // What the line pass wrote as the sign's script (`X^{1}`) stood above the summand.
        let mut above = Vec::new();
        if word.1 > sign.1 + 3 {
            above.push((sign.1 + 2, word.1 - 1));
        }
        above.extend(words.get(at + 1..).unwrap_or_default());
        let numerator_words = self.get(numerator).split(' ').count();
        (numerator_words <= 3 && above.iter().all(|&w| self.above_summand(w)))
            .then_some((numerator, sign, above))
    }

    /// `n i=1`, `n − 1 i=1`, `J i=1 v`: a denominator, a sum's lower limit (its first word with
    /// a relation, or its last word when none has one), and what stood lower after it.
    fn denominator_and_limit(&self, line: Range) -> Option<(Range, Range, Vec<Range>)> {
        let words = self.words(line);
        let related = words.iter().position(|&w| self.get(w).contains(LIMIT_RELATIONS));
        let at = related.unwrap_or(words.len().checked_sub(1)?);
        let lower = *words.get(at)?;
        let denominator = (line.0, words.get(at.checked_sub(1)?)?.1);
        let below = words.get(at + 1..).unwrap_or_default().to_vec();
        let fits = self.short(denominator) && self.relation_free(denominator) && self.limit_like(lower);
        fits.then_some((denominator, lower, below))
    }

    /// `1X` / `exp −` / summand / `n t=1`: what stands on the baseline before a fraction set
    /// before a sum may come between the numerator's line and the summand's, a line ending
    /// with a sign or a relation (pdftotext orders lines of one height by where they start):
    /// set before the numerator's line (and before the sum's upper limit on a line of its own
    /// above it), where the reading of the fraction finds it (not after
    /// another numerator's line: fractions side by side have their own order). One pass.
    pub(super) fn baseline_before_fraction_sum(&self, lines: &mut [Range]) {
        for i in 0..lines.len().saturating_sub(3) {
            let (Some(&top), Some(&middle), Some(&bottom)) =
                (lines.get(i), lines.get(i + 1), lines.get(i + 3))
            else {
                continue;
            };
            let ends_with_sign =
                self.words(middle).last().is_some_and(|&w| BASELINE_ENDS.contains(&self.get(w)));
            // Numerators side by side (`1X` / `1 X`) have their summands' lines after them.
            let beside = i
                .checked_sub(1)
                .and_then(|p| lines.get(p))
                .is_some_and(|&l| self.numerator_and_sign(l).is_some());
            if ends_with_sign
                && !beside
                && self.numerator_and_sign(top).is_some()
                && self.numerator_and_sign(middle).is_none()
                && self.denominator_and_limit(bottom).is_some()
            {
                // Before the sum's upper limit too, when it stands on a line of its own above.
                let upper = i.checked_sub(1).and_then(|p| lines.get(p)).is_some_and(|&l| self.limit_like(l));
                let from = if upper { i - 1 } else { i };
                if let Some(moved) = lines.get_mut(from..=i + 1) {
                    moved.rotate_right(1);
                }
            }
        }
    }

    /// Pushes what [`Layout::fraction_sums`] found, taking the blocks it took off `rest`.
    pub(super) fn fraction_then_sums(&mut self, found: Found, rest: &mut VecDeque<Vec<Range>>) {
        for _ in 0..found.blocks {
            rest.pop_front();
        }
        let closing = found
            .closing
            .filter(|(line, _, _)| matches!(self.items.last(), Some(Item::Text(l)) if l == line));
        if closing.is_some() {
            self.items.pop();
        }
        // Upper limits left on lines of their own before, the first sum's first.
        let counted = found.sums.iter().filter(|s| self.get(s.lower).contains('=')).count();
        // Those right above in the block first (`n` / `n` / `1X` / `1 X`), the last sum's first.
        let mut uppers: Vec<Option<Range>> = Vec::new();
        while uppers.len() < counted {
            let Some(&Item::Text(line)) = self.items.last() else { break };
            if !self.limit_like(line) {
                break;
            }
            self.items.pop();
            self.lone.retain(|&n| n < self.items.len());
            uppers.push(Some(line));
        }
        while uppers.len() < counted {
            let lone = self.take_lone();
            uppers.push(lone);
        }
        for sum in found.sums {
            self.push_fraction(sum.numerator, sum.denominator);
            let latex = self.table.big_operators.get(self.get(sum.sign)).cloned().unwrap_or_default();
            let upper = if self.get(sum.lower).contains('=') { uppers.pop().flatten() } else { None };
            let sign = super::layout::Sign { latex, sign: sum.sign, upper: None, integral: false };
            self.operators(vec![sign], &[sum.lower], upper);
            let opened = sum.above.iter().any(|&w| self.opening_glyph(w));
            match closing.filter(|_| opened) {
                Some((_, glyph, power)) => {
                    // The closing delimiter goes before the display's final punctuation.
                    let body = self.get(sum.body);
                    let kept = body.trim_end_matches(['.', ',', ';', ' ']).len();
                    let end = (sum.body.0 + kept, sum.body.1);
                    self.summand(sum.above, sum.below, (sum.body.0, end.0));
                    let latex = self.table.big_delimiters.get(self.get(glyph)).cloned().unwrap_or_default();
                    let line = (glyph.0, power.map_or(glyph.1, |p| p.1));
                    let read = format!(
                        "{latex}{}",
                        power.map_or(String::new(), |p| format!("^{{{}}}", self.get(p)))
                    );
                    self.note(line, self.get(line).to_string(), read, PdfWhy::DelimitersAbove);
                    self.items.push(Item::Delimiter { glyph, latex });
                    if let Some(power) = power {
                        self.items.push(Item::Script { range: power, raised: true });
                    }
                    self.push_text(end);
                }
                None => self.summand(sum.above, sum.below, sum.body),
            }
        }
    }

    /// The summand `body` with what stood above and below it: a number over a number first a
    /// fraction (½), a big opening delimiter before the summand, the rest superscripts and
    /// subscripts of its first letters that end a word, in turn.
    fn summand(&mut self, above: Vec<Range>, below: Vec<Range>, body: Range) {
        let number =
            |l: &Layout, r: Range| !l.get(r).is_empty() && l.get(r).chars().all(|c| c.is_ascii_digit());
        let mut above: VecDeque<Range> = above.into();
        let mut below: VecDeque<Range> = below.into();
        while let (Some(&over), Some(&under)) = (above.front(), below.front()) {
            if !(number(self, over) && number(self, under)) {
                break;
            }
            self.push_fraction(over, under);
            above.pop_front();
            below.pop_front();
        }
        while let Some(&glyph) = above.front() {
            let Some(latex) = self.table.big_delimiters.get(self.get(glyph)).filter(|d| is_opening(d)) else {
                break;
            };
            let latex = latex.clone();
            self.note(glyph, self.get(glyph).to_string(), latex.clone(), PdfWhy::BigDelimiter);
            self.items.push(Item::Delimiter { glyph, latex });
            above.pop_front();
        }
        let mut at = body.0;
        let candidates: Vec<Range> = self.words(body).into_iter().filter(|&w| self.takes_script(w)).collect();
        let mut words = candidates.into_iter();
        let scripts: Vec<(Range, bool)> =
            above.iter().map(|&r| (r, true)).chain(below.iter().map(|&r| (r, false))).collect();
        let mut last_word: Option<Range> = None;
        for (script, raised) in scripts {
            // A subscript goes on the letter of the superscript before it, if any (σ_v^2).
            let word = match (raised, last_word) {
                (false, Some(word)) => Some(word),
                _ => words.next(),
            };
            let Some(word) = word else { break };
            if last_word != Some(word) {
                self.push_text((at, word.1));
                at = word.1;
            }
            last_word = Some(word);
            let text = self.get(script).to_string();
            let read = match (text.starts_with("^{"), raised) {
                (true, _) => text.clone(),
                (false, true) => format!("^{{{text}}}"),
                (false, false) => format!("_{{{text}}}"),
            };
            self.note(script, text, format!("{}{read}", self.get(word)), PdfWhy::ScriptLine);
            self.items.push(Item::Script { range: script, raised });
        }
        self.push_text((at, body.1));
    }

    /// Whether a script may go on `word`: it ends with a letter (`w`, `l(x`) and is no name.
    fn takes_script(&self, word: Range) -> bool {
        let text = self.get(word);
        let known =
            self.table.names.contains_key(text) || self.table.limit_operators.iter().any(|l| l == text);
        text.chars().next_back().is_some_and(char::is_alphabetic) && !known
    }

    /// Whether `range` is a short piece of text (a numerator, a denominator).
    fn short(&self, range: Range) -> bool {
        let text = self.get(range);
        !text.trim().is_empty() && text.chars().count() <= LIMIT_CHARACTERS
    }
}

/// Whether `latex` is an opening delimiter.
fn is_opening(latex: &str) -> bool {
    matches!(latex, "(" | "[" | "\\{")
}

#[cfg(test)]
mod tests {
    use crate::paste::layout::read;

    #[test]
    fn fractions_before_sums_side_by_side() {
        assert_eq!(
            read("µ =\n\nn\nn\n1X\n1 X\nxi and σ2 =\n(xi − µ)2 .\nn i=1\nn − 1 i=1").text,
            "µ = \\frac{1}{n} \\sum_{i=1}^{n} xi and σ2 = \\frac{1}{n − 1} \\sum_{i=1}^{n} (xi − µ)2 ."
        );
        assert_eq!(
            read("µ =\n\n1 X\n1 X\nx and σ2 =\n(x − µ)2 .\n|B|\n|B|\nx∈B\n\nx∈B").text,
            "µ = \\frac{1}{|B|} \\sum_{x∈B} x and σ2 = \\frac{1}{|B|} \\sum_{x∈B} (x − µ)2 ."
        );
    }

    #[test]
    fn what_stands_above_and_below_the_summand() {
        assert_eq!(
            read("n\n\nE =\n\n1 X (i) (i)\nl(x , y , f (x)),\nn i=1").text,
            "E = \\frac{1}{n} \\sum_{i=1}^{n} l(x^{(i)} , y^{(i)} , f (x)),"
        );
        assert_eq!(
            read("J\n\nk = a +\n\n1X 2\nσ E[h]\nJ i=1 v").text,
            "k = a + \\frac{1}{J} \\sum_{i=1}^{J} σ^{2}_{v} E[h]"
        );
        assert_eq!(
            read("n\n\nL =\n\n\u{11}2\n1 X 1 \u{10} ⊤ (i)\nw x + b − y .\nn i=1 2").text,
            "L = \\frac{1}{n} \\sum_{i=1}^{n} \\frac{1}{2} ( w^{⊤} x^{(i)} + b − y )^{2} ."
        );
    }
}
