//! Derivatives applied to an argument, set into a baseline: `dg` / `≈ g(x) + ϵ (x) + h(x)` /
//! `dx`. TeX sets `\frac{dg}{dx}(x)` with the fraction between the factor before it and the
//! parenthesis of its argument, and pdftotext, giving the numerator above and the denominator
//! below, leaves a space in the baseline's line where the fraction stood (`ϵ (x)`,
//! `(x) (h(x))`), or breaks the line there (`= g(x) + ϵ` / `(x) +` / `(x)`, the next piece
//! starting with the argument's parenthesis). When a row's fractions are all Leibniz
//! derivatives and its baseline has as many such places, each derivative goes into one, in
//! turn (a guess, a warning a fraction). A space before a parenthesis after `f` or a capital
//! is the letter's italic correction (`f (x)`, `P (X`), no place; nor is one after a sign.
//! A big delimiter's glyphs on lines of their own between such rows (`(` `)` as cmex10's
//! codes) are set before the row after them, as pdftotext gives them. An operator's
//! numerator with a short word after it (`d n` over `x = nxn−1` over `dx`) has the power of
//! the baseline's first letter beside it, set as high: d/dx x^n.

use super::layout::{Item, Layout, Range};
use crate::syntax::error::PdfWhy;

/// The longest numerator word read as a Leibniz derivative's (`d`, `dg`, `∂f`, `d2f`).
const NUMERATOR_CHARACTERS: usize = 4;

/// The most numerator lines a row of derivatives is looked for in ([`Layout::argument_after`]).
const NUMERATOR_LINES: usize = 16;

impl Layout<'_> {
    /// Where each of `fractions` goes in the baseline's `lines` (offsets, in order), when all
    /// are Leibniz derivatives and the lines have exactly as many places before an argument:
    /// a gap before a parenthesis inside a line, or the start of a line after the first that
    /// starts with one. `None` otherwise.
    pub(super) fn applied_slots(&self, lines: &[Range], fractions: &[(Range, Range)]) -> Option<Vec<usize>> {
        if fractions.is_empty() || !fractions.iter().all(|&(over, under)| self.leibniz(over, under)) {
            return None;
        }
        // Gaps after a factor first; when they are too few, a sign's space before a
        // parenthesis as well (`+ (t)`: TeX spaces a sign either way, so only the count tells).
        [false, true].into_iter().find_map(|after_signs| {
            let slots = self.argument_places(lines, after_signs);
            (slots.len() == fractions.len()).then_some(slots)
        })
    }

    /// The places before an argument in `lines` ([`Layout::applied_slots`]), those after a
    /// sign's space among them or not.
    fn argument_places(&self, lines: &[Range], after_signs: bool) -> Vec<usize> {
        let mut slots = Vec::new();
        for (n, &line) in lines.iter().enumerate() {
            let text = self.get(line);
            if n > 0 && text.starts_with('(') {
                slots.push(line.0);
            }
            for (at, _) in text.match_indices(" (") {
                let word = text.get(..at).unwrap_or("").rsplit(' ').next().unwrap_or("");
                let last = word.chars().next_back();
                let closes_or_letter = last.is_some_and(|c| c.is_alphanumeric() || c == ')');
                let corrected = last.is_some_and(|c| c == 'f' || c.is_ascii_uppercase());
                let sign = matches!(word, "+" | "−" | "·" | "=" | "≈");
                if (closes_or_letter && !corrected) || (after_signs && sign) {
                    slots.push(line.0 + at + 1);
                }
            }
        }
        slots
    }

    /// Pushes the baseline's `lines` with each of `fractions` at its place of `slots`.
    pub(super) fn place_applied(&mut self, lines: &[Range], slots: &[usize], fractions: Vec<(Range, Range)>) {
        let mut places = slots.iter().zip(fractions).peekable();
        for &line in lines {
            let mut at = line.0;
            while let Some((&slot, (numerator, denominator))) =
                places.next_if(|(&slot, _)| line.0 <= slot && slot <= line.1)
            {
                self.push_text((at, slot));
                self.push_fraction(numerator, denominator);
                at = slot;
            }
            self.push_text((at, line.1));
        }
    }

    /// `(x) +` right after a baseline's line, in a row whose numerators (the last content
    /// lines before it) are all a Leibniz derivative's: the baseline's piece after a
    /// derivative, not a denominator (those start with `d` or `∂`).
    pub(super) fn argument_after(&self, runs: &[(bool, Vec<Range>)], line: Range) -> bool {
        if !self.get(line).starts_with('(') {
            return false;
        }
        let mut back = runs.iter().rev();
        let (Some((false, _)), Some((true, top))) = (back.next(), back.next()) else { return false };
        // A row has a few numerator lines; looking at no more keeps reading a long text linear.
        (1..=NUMERATOR_LINES).contains(&top.len())
            && top.iter().all(|&l| self.get(l).split(' ').all(|w| self.leibniz_word(w)))
    }

    /// `lines` without those that hold a big delimiter's glyphs only (control codes or
    /// private-use pieces), and those lines, each with where the next kept line starts
    /// (`usize::MAX` after the last).
    pub(super) fn without_glyph_lines(&self, lines: &[Range]) -> (Vec<Range>, Vec<(usize, Range)>) {
        let glyph = |c: char| c == ' ' || c.is_control() || ('\u{E000}'..='\u{F8FF}').contains(&c);
        let (mut kept, mut glyphs, mut waiting) = (Vec::new(), Vec::new(), Vec::new());
        for &line in lines {
            if self.get(line).chars().all(glyph) && !self.get(line).trim().is_empty() {
                waiting.push(line);
            } else {
                glyphs.extend(waiting.drain(..).map(|l| (line.0, l)));
                kept.push(line);
            }
        }
        glyphs.extend(waiting.into_iter().map(|l| (usize::MAX, l)));
        (kept, glyphs)
    }

    /// `d n` / `x = nxn−1` / `dx`: a Leibniz operator's numerator (`d`, `∂`, `d2`) with one
    /// short word after it over a baseline line that starts with a lone letter. TeX sets the
    /// letter's superscript as high as the numerator beside it, so pdftotext gives it on the
    /// numerator's line: the operator applies to the letter with that power (d/dx x^n),
    /// first on the line. Pushes so, with a warning; whether it did.
    pub(super) fn operator_beside_raised(
        &mut self,
        numerator: Range,
        denominator: Range,
        line: Range,
    ) -> bool {
        let over = self.words(numerator);
        let ([operator, raised], Some(&first)) = (over.as_slice(), self.words(line).first()) else {
            return false;
        };
        let op = self.get(*operator);
        let is_operator = op.starts_with(['d', '∂']) && op.chars().skip(1).all(|c| c.is_ascii_digit());
        let script = self.get(*raised);
        let short = (1..=2).contains(&script.chars().count()) && script.chars().all(char::is_alphanumeric);
        let letter = self.get(first);
        let lone = letter.chars().count() == 1 && letter.chars().all(char::is_alphabetic);
        if !(is_operator && short && lone && self.get(denominator).starts_with(['d', '∂'])) {
            return false;
        }
        let read = format!("{letter}^{{{script}}}");
        self.note(*raised, format!("{op} {script} / {letter}"), read, PdfWhy::Exponent);
        self.push_fraction(*operator, denominator);
        self.items.push(Item::Text(first));
        self.items.push(Item::Script { range: *raised, raised: true });
        self.push_text((first.1, line.1));
        true
    }

    /// Whether `numerator` over `denominator` is a Leibniz derivative: a numerator of one short
    /// word starting with `d` or `∂`, a denominator whose every word does.
    fn leibniz(&self, numerator: Range, denominator: Range) -> bool {
        let under = self.get(denominator);
        let starts = |w: &str| w.starts_with(['d', '∂']);
        self.leibniz_word(self.get(numerator)) && !under.is_empty() && under.split(' ').all(starts)
    }

    /// Whether `word` may be a Leibniz numerator: short, starting with `d` or `∂`, no space.
    fn leibniz_word(&self, word: &str) -> bool {
        word.starts_with(['d', '∂']) && word.chars().count() <= NUMERATOR_CHARACTERS && !word.contains(' ')
    }
}

#[cfg(test)]
mod tests {
    use crate::paste::layout::read;

    #[test]
    fn derivatives_go_into_the_gaps_before_their_arguments() {
        assert_eq!(
            read("dg dh\n≈ g(x) + ϵ (x) + h(x) + ϵ (x)\ndx dx").text,
            "≈ g(x) + ϵ \\frac{dg}{dx} (x) + h(x) + ϵ \\frac{dh}{dx} (x)"
        );
        // f's italic correction is no gap; a line starting with the argument is a place.
        assert_eq!(read("dg\n= f (x) + ϵ (x),\ndx").text, "= f (x) + ϵ \\frac{dg}{dx} (x),");
        assert_eq!(
            read("dg\ndh\n= g(x) + ϵ\n(x) +\n(x)\ndx\ndx").text,
            "= g(x) + ϵ \\frac{dg}{dx} (x) + \\frac{dh}{dx} (x)"
        );
    }

    #[test]
    fn a_power_beside_an_operator_is_its_letters() {
        assert_eq!(
            read("d n\nx = nxn−1\ndx\nd\nln x = x−1 .\ndx").text,
            "\\frac{d}{dx} x^{n} = nxn−1 \\frac{d}{dx} ln x = x−1 ."
        );
    }

    #[test]
    fn rows_without_fractions_and_glyph_lines_come_before_their_rows() {
        assert_eq!(
            read("f (x) = g(x)\ndg\n≈ ϵ (x)\ndx\n\u{12}\n\u{13}\ndh\n= ϵ\n(x) .\ndx").text,
            "f (x) = g(x) ≈ ϵ \\frac{dg}{dx} (x) \u{12} \u{13} = ϵ \\frac{dh}{dx} (x) ."
        );
    }
}
