//! Fractions that pdftotext gives as rows of lines around a baseline. TeX sets a display's
//! numerators above its baseline and its denominators below, and pdftotext reads a block top
//! to bottom: first the numerators' lines (several fractions set side by side on one line,
//! `∂f ∂u ∂f ∂v` for ∂f/∂u · ∂u/∂a + ∂f/∂v · ∂v/∂a), then what stands on the baseline, then
//! the denominators' lines. What stands on the baseline comes either as lines of their own
//! between the fractions (`=`, `+`, `.`: one a fraction, read in turn), or as one line that
//! the fractions were set into (`f (ϵ1 ) ≈ log(3) + ϵ1 + ϵ2 .` with `1`, `2` above and `3`,
//! `3` below), where they go after its signs, those right of a relation first: the text says what was on which line, not
//! where in the line, so each place is a guess and each fraction a warning. An aligned
//! display gives such rows one after another in one block. Knowledge (the limit operators,
//! the names) is `data/paste.toml`'s.

use super::layout::{Item, Layout, Range};
use crate::syntax::error::PdfWhy;

/// Signs that stand between terms on a baseline: a fraction may be set right after one.
const BASELINE_SIGNS: &[&str] =
    &["=", "+", "−", "·", "×", "≈", "<", ">", "≤", "≥", "∝", "≡", "∼", "=⇒", "⇐⇒"];

/// Fractions set side by side, each numerator and denominator.
type Group = Vec<(Range, Range)>;

/// One row of a stacked display: its numerators' lines, the lines of its baseline, its
/// denominators' lines.
struct Row {
    top: Vec<Range>,
    middle: Vec<Range>,
    bottom: Vec<Range>,
}

impl Layout<'_> {
    /// Reads `lines` as rows of fractions around their baselines; whether they were.
    pub(super) fn fraction_rows(&mut self, lines: &[Range]) -> bool {
        // Rows of an aligned display without fractions may come first (`f (x + ϵ) = …`, and
        // a big delimiter's glyphs given before the row they stand in): read as they are.
        let lead = match self.placed_rows(lines) {
            Some(_) => 0,
            None => lines.iter().take_while(|&&l| !self.relation_free(l) || self.signs_only(l)).count(),
        };
        let (before, lines) = lines.split_at(lead.min(lines.len()));
        if lead > 0 && !before.iter().any(|&l| !self.relation_free(l) && !self.signs_only(l)) {
            return false;
        }
        // A big delimiter's glyphs on lines of their own between rows of derivatives applied
        // (`applied_derivatives.rs`) are set before the row that follows them.
        let (found, glyphs) = match self.placed_rows(lines) {
            Some(found) => (found, Vec::new()),
            None => {
                let (kept, glyphs) = self.without_glyph_lines(lines);
                let Some(found) = self.placed_rows(&kept).filter(|_| !glyphs.is_empty()) else {
                    return false;
                };
                (found, glyphs)
            }
        };
        self.items.extend(before.iter().map(|&l| Item::Text(l)));
        for (row, columns) in found {
            let first = row.top.first().map_or(usize::MAX, |l| l.0);
            self.items.extend(glyphs.iter().filter(|(next, _)| *next == first).map(|&(_, l)| Item::Text(l)));
            self.place_row(&row, columns);
        }
        self.items.extend(glyphs.iter().filter(|(next, _)| *next == usize::MAX).map(|&(_, l)| Item::Text(l)));
        true
    }

    /// The rows of `lines` with their fractions, when each row's fractions can be placed.
    fn placed_rows(&self, lines: &[Range]) -> Option<Vec<(Row, Vec<Group>)>> {
        let rows = self.rows(lines)?;
        let mut found = Vec::new();
        for row in rows {
            if row.top.iter().chain(&row.bottom).any(|&l| self.label(l)) {
                return None;
            }
            let columns = self.columns(&row.top, &row.bottom)?;
            let placeable = self.between(&row, &columns)
                || row.middle.len() == columns.len()
                || self.baseline(&row.middle).is_some()
                || self.open_end(&row, &columns).is_some()
                || self.applied_slots(&row.middle, &columns.concat()).is_some();
            if !placeable {
                return None;
            }
            found.push((row, columns));
        }
        Some(found)
    }

    /// `exponential decay`: a line of two or more words of three letters or more, none a
    /// known name, is a label set beside a display's rows (an aligned display's text column),
    /// no numerator or denominator.
    fn label(&self, line: Range) -> bool {
        let words: Vec<&str> = self.get(line).split(' ').collect();
        let prose = |w: &&str| {
            w.chars().count() >= 3
                && w.chars().all(|c| c.is_ascii_alphabetic())
                && !self.table.names.contains_key(*w)
        };
        words.len() >= 2 && words.iter().all(prose)
    }

    /// The rows of `lines`: runs of content lines (no relation, something but signs) apart
    /// by runs of baseline lines; `None` unless the block starts and ends with content.
    fn rows(&self, lines: &[Range]) -> Option<Vec<Row>> {
        let mut runs: Vec<(bool, Vec<Range>)> = Vec::new();
        for &line in lines {
            let content = self.relation_free(line)
                && !self.signs_only(line)
                && self.whole(line)
                && !self.continues(line)
                && !self.argument_after(&runs, line);
            match runs.last_mut() {
                Some((kind, run)) if *kind == content => run.push(line),
                _ => runs.push((content, vec![line])),
            }
        }
        let starts_and_ends = runs.first().is_some_and(|r| r.0) && runs.last().is_some_and(|r| r.0);
        if runs.len() < 3 || !starts_and_ends {
            return None;
        }
        let mut rows = Vec::new();
        let mut top = runs.first()?.1.clone();
        let mut n = 1;
        while let (Some((_, middle)), Some((_, next))) = (runs.get(n), runs.get(n + 1)) {
            let last = n + 2 >= runs.len();
            let taken = if last { next.len() } else { self.bottom_length(&top, middle, next)? };
            let (bottom, rest) = next.split_at(taken.min(next.len()));
            rows.push(Row { top, middle: middle.clone(), bottom: bottom.to_vec() });
            top = rest.to_vec();
            n += 2;
        }
        (top.is_empty() && !rows.is_empty()).then_some(rows)
    }

    /// How many of `next`'s lines are the denominators of a row with numerators `top` (the
    /// rest are the next row's numerators): as many as hold `top`'s words, else one a line of
    /// `middle` or of `top`.
    fn bottom_length(&self, top: &[Range], middle: &[Range], next: &[Range]) -> Option<usize> {
        let words: usize = top.iter().map(|&l| self.words(l).len()).sum();
        let mut total = 0;
        for (n, &line) in next.iter().enumerate() {
            total += self.words(line).len();
            if total == words && n + 1 < next.len() {
                return Some(n + 1);
            }
        }
        [middle.len(), top.len()].into_iter().find(|&n| n < next.len())
    }

    /// The fractions of a row, numerator and denominator, in order, in groups that stand
    /// together: a line over a line, or, when one side has its fractions on fewer lines, its
    /// words regrouped by the other's.
    fn columns(&self, top: &[Range], bottom: &[Range]) -> Option<Vec<Group>> {
        let pairs: Vec<(Range, Range)> = if top.len() == bottom.len() {
            top.iter().copied().zip(bottom.iter().copied()).collect()
        } else if top.len() < bottom.len() {
            let grouped = self.regroup(top, bottom)?;
            grouped.into_iter().zip(bottom.iter().copied()).collect()
        } else {
            let grouped = self.regroup(bottom, top)?;
            top.iter().copied().zip(grouped).collect()
        };
        Some(pairs.into_iter().map(|(n, d)| self.side_by_side(n, d)).collect())
    }

    /// The words of `merged`'s lines grouped as `by`'s lines hold theirs, each group one
    /// range; the lines of `merged` may come in either order (pdftotext orders lines of the
    /// same height by their position, not their place in the formula).
    fn regroup(&self, merged: &[Range], by: &[Range]) -> Option<Vec<Range>> {
        let sizes: Vec<usize> = by.iter().map(|&l| self.words(l).len()).collect();
        let reversed: Vec<Range> = merged.iter().rev().copied().collect();
        let by_words = [merged.to_vec(), reversed].into_iter().find_map(|order| {
            let mut words: Vec<(Range, bool)> = Vec::new();
            for line in order {
                let line_words = self.words(line);
                let count = line_words.len();
                words.extend(line_words.into_iter().enumerate().map(|(i, w)| (w, i + 1 == count)));
            }
            let mut groups = Vec::new();
            let mut rest = words.as_slice();
            for &size in &sizes {
                let (group, after) = (rest.get(..size)?, rest.get(size..)?);
                // A group may not run across the end of a line.
                if group.iter().rev().skip(1).any(|(_, line_end)| *line_end) {
                    return None;
                }
                groups.push((group.first()?.0 .0, group.last()?.0 .1));
                rest = after;
            }
            (rest.is_empty() && groups.len() == sizes.len()).then_some(groups)
        });
        by_words.or_else(|| self.regroup_derivatives(merged, by))
    }

    /// `∂f (xt , ht−1 ) ∂ht−1` over `∂wh` and `∂ht−1`: derivatives side by side whose
    /// numerators have more words than their denominators, each denominator's word a `∂` word.
    /// `merged`'s lines cut at each word that starts with `∂` ([`Layout::derivatives`]), the
    /// pieces grouped as `by`'s lines hold their words, a group to a line at most.
    fn regroup_derivatives(&self, merged: &[Range], by: &[Range]) -> Option<Vec<Range>> {
        let leibniz = |line: Range| self.words(line).iter().all(|&w| self.get(w).starts_with('∂'));
        if !by.iter().all(|&l| leibniz(l)) {
            return None;
        }
        let sizes: Vec<usize> = by.iter().map(|&l| self.words(l).len()).collect();
        let reversed: Vec<Range> = merged.iter().rev().copied().collect();
        [merged.to_vec(), reversed].into_iter().find_map(|order| {
            let mut pieces: Vec<Vec<Range>> = Vec::new();
            for line in order {
                pieces.push(self.derivatives(line)?);
            }
            let mut groups = Vec::new();
            let mut sizes = sizes.iter();
            for line in pieces {
                let mut rest = line.as_slice();
                while !rest.is_empty() {
                    let size = *sizes.next()?;
                    let (group, after) = (rest.get(..size)?, rest.get(size..)?);
                    groups.push((group.first()?.0, group.last()?.1));
                    rest = after;
                }
            }
            (sizes.next().is_none() && groups.len() == by.len()).then_some(groups)
        })
    }

    /// The words of `line` cut at each that starts with `∂`, each piece one range (`∂g(x, θ)`
    /// `∂ut−1`); `None` unless the line starts with one.
    fn derivatives(&self, line: Range) -> Option<Vec<Range>> {
        let mut pieces: Vec<Range> = Vec::new();
        for word in self.words(line) {
            match pieces.last_mut() {
                Some(piece) if !self.get(word).starts_with('∂') => piece.1 = word.1,
                _ if self.get(word).starts_with('∂') => pieces.push(word),
                _ => return None,
            }
        }
        (!pieces.is_empty()).then_some(pieces)
    }

    /// `∂f ∂u` over `∂u ∂a`: as many words over as many words, none a sign, are fractions set
    /// side by side (a product); anything else is one fraction.
    fn side_by_side(&self, numerator: Range, denominator: Range) -> Vec<(Range, Range)> {
        let (over, under) = (self.words(numerator), self.words(denominator));
        let signed = over.iter().chain(&under).any(|&w| BASELINE_SIGNS.contains(&self.get(w)));
        if over.len() >= 2 && over.len() == under.len() && !signed {
            over.into_iter().zip(under).collect()
        } else if let Some(over) = self.derivatives(numerator).filter(|over| {
            let leibniz = under.iter().all(|&w| self.get(w).starts_with('∂'));
            leibniz && over.len() >= 2 && over.len() == under.len()
        }) {
            // `∂g(x, θ) ∂ut−1` over `∂ut−1 ∂θ`: derivatives side by side, the numerators cut
            // at their `∂`.
            over.into_iter().zip(under).collect()
        } else {
            vec![(numerator, denominator)]
        }
    }

    /// Pushes a row: its fractions and its baseline's lines in turn when there are as many,
    /// else its fractions set into its one baseline line.
    fn place_row(&mut self, row: &Row, columns: Vec<Group>) {
        let fractions: Vec<(Range, Range)> = columns.iter().flatten().copied().collect();
        if self.between(row, &columns) {
            let stop = row.middle.last().copied().filter(|&l| self.get(l) == ".");
            let signs = row.middle.get(..row.middle.len() - usize::from(stop.is_some())).unwrap_or_default();
            for (n, (numerator, denominator)) in fractions.into_iter().enumerate() {
                if let Some(&line) = n.checked_sub(1).and_then(|n| signs.get(n)) {
                    self.items.push(Item::Text(line));
                }
                self.push_fraction(numerator, denominator);
            }
            self.items.extend(stop.map(Item::Text));
            return;
        }
        if let ([(numerator, denominator)], [sign]) = (fractions.as_slice(), row.middle.as_slice()) {
            if self.get(*sign) == "√" {
                // `QK⊤` / `√` / `d`: the root sign stands at the top of the denominator it
                // covers, on the baseline's line.
                return self.push_fraction_with(*numerator, *denominator, Some(*sign));
            }
        }
        if let ([(numerator, denominator)], [line]) = (fractions.as_slice(), row.middle.as_slice()) {
            if self.fraction_beside_raised(*numerator, *denominator, *line)
                || self.operator_beside_raised(*numerator, *denominator, *line)
            {
                return;
            }
            if let Some(power) = self.denominator_power(*denominator, *line) {
                self.push_text((line.0, power.0));
                self.push_fraction(*numerator, *denominator);
                if let Some(Item::Fraction { power: set, .. }) = self.items.last_mut() {
                    *set = Some(power);
                }
                let found = format!("{} … {}", self.get(*denominator), self.get(power));
                let read = format!("{}^{{{}}}", self.get(*denominator), self.get(power));
                self.note(power, found, read, PdfWhy::Exponent);
                self.push_text((power.1, line.1));
                return;
            }
            if let Some(slot) = self.term_slot(*numerator, *line) {
                self.push_text((line.0, slot));
                self.push_fraction(*numerator, *denominator);
                self.push_text((slot, line.1));
                return;
            }
        }
        if let Some((first, rest)) = self.open_end(row, &columns) {
            // `g ← min 1,` / `g.`: the fraction ends the first line, what follows the closing
            // of its group comes on the next.
            self.items.push(Item::Text(first));
            for group in columns {
                self.push_group(group);
            }
            self.items.push(Item::Text(rest));
            return;
        }
        if let Some(slots) = self.applied_slots(&row.middle, &fractions) {
            return self.place_applied(&row.middle, &slots, fractions);
        }
        let columns = self.by_lines(row, columns);
        if row.middle.len() == columns.len() {
            for (group, &line) in columns.into_iter().zip(&row.middle) {
                self.push_group(group);
                self.items.push(Item::Text(line));
            }
            return;
        }
        let Some((baseline, after)) = self.baseline(&row.middle) else { return };
        let slots = self.slots(baseline, columns.len());
        let mut at = baseline.0;
        let mut columns = columns.into_iter();
        for slot in slots {
            self.push_text((at, slot));
            at = slot;
            if let Some(group) = columns.next() {
                self.push_group(group);
            }
        }
        self.push_text((at, baseline.1));
        for line in after {
            if !(self.limit_like(line) && self.under(line)) {
                self.items.push(Item::Text(line));
            }
        }
    }

    /// `(` / `softmax`: a block of a big opening delimiter's line and a line of text. The
    /// delimiter is taller than the text beside it, so pdftotext gives it first though it
    /// stands after the text: the text, then the delimiter. Whether the block was such.
    pub(super) fn opening_after(&mut self, lines: &[Range]) -> bool {
        let [delimiter, text] = lines else { return false };
        let opening = |c: char| {
            let read = self.table.characters.get(&c.to_string()).map_or(c.to_string(), Clone::clone);
            matches!(read.as_str(), "(" | "[" | "\\{")
        };
        let delimiters = self.get(*delimiter);
        if !delimiters.chars().all(|c| c == ' ' || opening(c)) || self.signs_only(*text) {
            return false;
        }
        let found = delimiters.to_string();
        let shown: String = delimiters
            .chars()
            .map(|c| self.table.characters.get(&c.to_string()).map_or(c.to_string(), Clone::clone))
            .collect();
        let read = format!("{} {shown}", self.get(*text));
        self.note(*delimiter, found, read, PdfWhy::BigDelimiter);
        self.items.push(Item::Text(*text));
        self.items.push(Item::Text(*delimiter));
        true
    }

    /// Pushes a part of a line without the spaces around it, if anything is left.
    pub(super) fn push_text(&mut self, (start, end): Range) {
        let text = self.get((start, end));
        let start = start + (text.len() - text.trim_start().len());
        let end = start + text.trim().len();
        if end > start {
            self.items.push(Item::Text((start, end)));
        }
    }

    /// `∂f (x, h)` / `∂f (x, h) ∂h` / `+ ξ` / `.` / `∂w` / `∂h` / `∂w`: fractions whose numerators
    /// pdftotext gives on fewer lines than their denominators (or the other way round), as
    /// many lines as the row has baseline lines (more than one). Fractions set apart by a
    /// baseline's sign come on lines of their own, and those on one line stand side by side
    /// (a product), so each such line is a group, read in turn with the baseline's lines. The
    /// groups so when they are, else `columns` as they were.
    fn by_lines(&self, row: &Row, columns: Vec<Group>) -> Vec<Group> {
        let lines = if row.top.len() < row.bottom.len() { &row.top } else { &row.bottom };
        let fewer = row.top.len() != row.bottom.len() && lines.len() > 1;
        if !fewer || columns.len() == row.middle.len() || lines.len() != row.middle.len() {
            return columns;
        }
        let mut groups: Vec<Group> = vec![Vec::new(); lines.len()];
        for &(numerator, denominator) in columns.iter().flatten() {
            let side = if row.top.len() < row.bottom.len() { numerator } else { denominator };
            let Some(n) = lines.iter().position(|&(start, end)| start <= side.0 && side.1 <= end) else {
                return columns;
            };
            if let Some(group) = groups.get_mut(n) {
                group.push((numerator, denominator));
            }
        }
        if groups.iter().any(Vec::is_empty) {
            return columns;
        }
        groups
    }

    /// Pushes fractions that stand together.
    fn push_group(&mut self, group: Group) {
        for (numerator, denominator) in group {
            self.push_fraction(numerator, denominator);
        }
    }

    /// `∂J ∂L` / `,` / `∂L ∂o`: whether the row's baseline lines are signs that stand between
    /// the fractions of its `groups`, one fewer, none of them the full stop that ends a display.
    fn between(&self, row: &Row, groups: &[Group]) -> bool {
        let fractions = groups.iter().map(Vec::len).sum::<usize>();
        // Lines over lines in turn with a sign line each are read in turn ([`Layout::place_row`]).
        if groups.len() > 1 && groups.len() == row.middle.len() {
            return false;
        }
        let signs = row.middle.iter().all(|&l| self.signs_only(l));
        // A display's full stop among them leaves one fraction fewer a sign before it: the
        // last two stand side by side, a product (`∂f/∂h ∂h/∂w .`, a chain rule's end).
        let ends = row.middle.last().is_some_and(|&l| self.get(l) == ".");
        signs && (!ends || row.middle.len() >= 3) && row.middle.len() + 1 == fractions
    }

    /// The one line of `middle` that holds the baseline, and the lines after it (punctuation
    /// set apart, a limit set under an operator of the baseline, the baseline's rest from a
    /// sign on: `+ c.`); `None` when there are more.
    fn baseline(&self, middle: &[Range]) -> Option<(Range, Vec<Range>)> {
        let (&first, rest) = middle.split_first()?;
        // What follows on the baseline may come on a line of its own after it, starting with a
        // sign (`+ c.`).
        let trailing = |&l: &Range| {
            self.signs_only(l) || (self.limit_like(l) && self.get(l).contains('→')) || self.continues(l)
        };
        (!self.signs_only(first) && rest.iter().all(trailing)).then(|| (first, rest.to_vec()))
    }

    /// Where `count` fractions go in `line` (offsets, in order): at its start when it starts
    /// with a sign or an argument (`(x) = …`), at its end when it ends with a sign or an
    /// operator that wants an argument (`= lim`), the others after its signs
    /// ([`Layout::sign_slots`]); any left over at its start.
    fn slots(&self, line: Range, count: usize) -> Vec<usize> {
        let text = self.get(line);
        let end = line.0 + text.trim_end_matches(['.', ',', ';', ' ']).len();
        let words = self.words(line);
        let last = words.iter().rev().map(|&w| self.get(w)).find(|w| !matches!(*w, "." | "," | ";"));
        let wants_argument = |w: &str| {
            BASELINE_SIGNS.contains(&w)
                || self.table.limit_operators.iter().any(|l| l == w)
                || self.table.names.contains_key(w)
        };
        let mut slots = Vec::new();
        if text.starts_with('(') || BASELINE_SIGNS.iter().any(|s| text.starts_with(s)) {
            slots.push(line.0);
        }
        if last.is_some_and(wants_argument) && slots.len() < count {
            slots.push(end);
        }
        let wanted = count.saturating_sub(slots.len());
        let signs: Vec<usize> =
            self.sign_slots(&words, end).into_iter().filter(|s| !slots.contains(s)).collect();
        slots.extend(signs.into_iter().take(wanted));
        while slots.len() < count {
            slots.push(line.0);
        }
        slots.sort_unstable();
        slots
    }

    /// The places right after the signs of `words` that stand outside brackets and norms and
    /// before `end`, but for a sign followed by another (`= −`: a minus sign starts what
    /// follows). Those after the first relation come first: the right-hand side of a
    /// relation is where the terms are, its left-hand side mostly what is defined.
    fn sign_slots(&self, words: &[Range], end: usize) -> Vec<usize> {
        let (mut depth, mut bars) = (0usize, 0usize);
        let (mut before, mut after) = (Vec::new(), Vec::new());
        let mut related = false;
        for (n, &word) in words.iter().enumerate() {
            let w = self.get(word);
            let next_is_sign = words.get(n + 1).is_some_and(|&next| BASELINE_SIGNS.contains(&self.get(next)));
            if depth == 0 && bars % 2 == 0 && BASELINE_SIGNS.contains(&w) && word.1 < end && !next_is_sign {
                if related { &mut after } else { &mut before }.push(word.1 + 1);
            }
            related |= !self.relation_free(word);
            (depth, bars) = nesting(w, depth, bars);
        }
        after.extend(before);
        after
    }

    /// Pushes the fraction of `numerator` and `denominator` and its baseline's `line` when the
    /// numerator's line ends with the superscript of the line's first letter
    /// ([`Layout::raised_beside`]); whether it did.
    pub(super) fn fraction_beside_raised(
        &mut self,
        numerator: Range,
        denominator: Range,
        line: Range,
    ) -> bool {
        let Some((over, raised, split)) = self.raised_beside(numerator, line) else { return false };
        self.push_fraction(over, denominator);
        self.push_text((line.0, split));
        self.items.push(Item::Text(raised));
        self.push_text((split, line.1));
        true
    }

    /// `1 ⊤` / `x Qx + c.` / `2`: a superscript (`⊤`, read as `^{\top}` by the line pass)
    /// that ends a numerator's line is the first letter's of the baseline beside the fraction,
    /// which stands as high: ½ x^⊤ Q x. The numerator without it, the superscript, and where
    /// it goes in `line` (after its first word, a letter, maybe after an opening bracket:
    /// `(x`); with a warning. `None` unless so.
    fn raised_beside(&mut self, numerator: Range, line: Range) -> Option<(Range, Range, usize)> {
        let over = self.words(numerator);
        let (&raised, rest) = over.split_last()?;
        let over_end = rest.last()?.1;
        let script = self.get(raised);
        let first = *self.words(line).first()?;
        let letter = self.get(first).trim_start_matches(['(', '[']);
        let one_letter = letter.chars().count() == 1 && letter.chars().all(char::is_alphabetic);
        if !(script.starts_with("^{") && script.ends_with('}') && one_letter) {
            return None;
        }
        let (script, letter) = (script.to_string(), letter.to_string());
        self.note(raised, script.clone(), format!("{letter}{script}"), PdfWhy::Exponent);
        Some(((numerator.0, over_end), raised, first.1))
    }

    /// `1` / `exp − 2 ∥x − y∥2 .` / `2ℓ`: a denominator that ends with a letter whose power
    /// TeX raises to the height of the baseline (`\frac{1}{2\ell^2}`), so that pdftotext gives
    /// the power on the baseline's line, where the fraction stands: a lone number of a digit or
    /// two right after a sign and before a term (no display sets `− 2 x` so: a number is set
    /// tight to its factor). The power's range; the fraction goes in its place.
    fn denominator_power(&self, denominator: Range, line: Range) -> Option<Range> {
        if !self.get(denominator).chars().next_back().is_some_and(char::is_alphabetic) {
            return None;
        }
        let words = self.words(line);
        let found = words.windows(3).find(|w| {
            let [sign, power, next] = w else { return false };
            let digits = self.get(*power);
            BASELINE_SIGNS.contains(&self.get(*sign))
                && (1..=2).contains(&digits.len())
                && digits.chars().all(|c| c.is_ascii_digit())
                && !self.signs_only(*next)
        });
        found.and_then(|w| w.get(1).copied())
    }

    /// `1` / `f (x) = f (0) + x⊤ Hx.` / `2`: where one fraction goes in a baseline line that
    /// holds a relation with a left-hand side before it: after the last sign right of the
    /// relation (the relation itself included) that stands outside brackets and norms and
    /// has a term after it, where a coefficient such as ½ stands before its term. `None` when
    /// the line starts with what the fraction applies to (`(x) = …`, `= …`) or the numerator
    /// is an operator that applies to what follows (`d`, `∂`, `d2`: `d/dx f (x) = …`); the
    /// fraction then goes first.
    fn term_slot(&self, numerator: Range, line: Range) -> Option<usize> {
        let over = self.get(numerator).replace(' ', "");
        let operator =
            over.strip_prefix(['d', '∂']).is_some_and(|rest| rest.chars().all(|c| c.is_ascii_digit()));
        let words = self.words(line);
        let first = self.get(*words.first()?);
        if operator || first.starts_with(['(', '[']) || !self.relation_free(*words.first()?) {
            return None;
        }
        let (mut depth, mut bars, mut related) = (0usize, 0usize, false);
        let mut slot = None;
        for (n, &word) in words.iter().enumerate() {
            let w = self.get(word);
            let relation = !self.relation_free(word) && w.chars().count() <= 3;
            let additive = matches!(w, "+" | "−");
            let term_after = words.get(n + 1).is_some_and(|&next| !self.signs_only(next));
            if depth == 0 && bars % 2 == 0 && (relation || (related && additive)) && term_after {
                slot = Some(word.1 + 1);
            }
            related |= depth == 0 && relation;
            (depth, bars) = nesting(w, depth, bars);
        }
        slot.filter(|_| related)
    }

    /// `θ` / `g ← min 1,` / `g.` / `∥g∥`: one fraction and two baseline lines, the first
    /// ending with a comma (a list's item is to follow), the second text after it: the
    /// fraction ends the first (pdftotext gives what follows a big delimiter's closing on a
    /// line of its own). The two lines.
    fn open_end(&self, row: &Row, groups: &[Group]) -> Option<(Range, Range)> {
        let ([first, second], [group]) = (row.middle.as_slice(), groups) else { return None };
        let ends_open = self.get(*first).ends_with(',') && group.len() == 1;
        (ends_open && !self.signs_only(*second) && !self.continues(*second)).then_some((*first, *second))
    }

    /// `+ c.`: whether `line` is the rest of a baseline from a sign on, given on a line of its
    /// own after it (not `−`, which may start a numerator: `− log x` over `2`).
    fn continues(&self, line: Range) -> bool {
        let text = self.get(line);
        BASELINE_SIGNS
            .iter()
            .filter(|s| **s != "−")
            .any(|s| text.strip_prefix(s).is_some_and(|r| r.starts_with(' ')))
    }

    /// Whether `line` may be a whole numerator or denominator: its brackets balanced, and it
    /// neither starts with punctuation or a closing bracket nor ends with a comma (`, qSt−2`
    /// over `u` is a baseline's piece under a superscript, not a denominator) or a full stop
    /// glued to it (`g.`: the display's, which stands on the baseline).
    fn whole(&self, line: Range) -> bool {
        let text = self.get(line);
        let opened = text.matches(['(', '[', '{']).count();
        let closed = text.matches([')', ']', '}']).count();
        let starts = text.starts_with([',', '.', ';', ')', ']', '}']);
        let glued_stop = text.ends_with('.') && !text.ends_with(" .") && !text.ends_with("..");
        opened == closed && !starts && !text.ends_with([',', '(', '[']) && !glued_stop
    }

    /// Whether `line` holds signs, punctuation and delimiters only (`=`, `+`, `.`, a big `)`):
    /// no numerator or denominator.
    pub(super) fn signs_only(&self, line: Range) -> bool {
        !self.get(line).chars().any(|c| c.is_alphanumeric() || matches!(c, '∞' | '∂' | '∇'))
    }

    /// The words of `line`, apart by spaces.
    pub(super) fn words(&self, line: Range) -> Vec<Range> {
        super::layout::words_in(self.text, line)
    }
}

/// The depth of brackets and the count of norm and absolute-value bars after `word`, from
/// `depth` and `bars` before it: a `|` outside brackets is an absolute value's (`|K + σ I|`;
/// one inside, `p(y|X)`, is a conditioning bar).
fn nesting(word: &str, mut depth: usize, mut bars: usize) -> (usize, usize) {
    for c in word.chars() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth = depth.saturating_sub(1),
            '∥' => bars += 1,
            '|' if depth == 0 => bars += 1,
            _ => {}
        }
    }
    (depth, bars)
}

#[cfg(test)]
mod tests {
    use crate::paste::layout::read;

    #[test]
    fn fractions_set_side_by_side_are_read_in_turn_with_their_baseline_lines() {
        assert_eq!(
            read("∂g\n∂g ∂v ∂g ∂w\n=\n+\n.\n∂x\n∂v ∂x\n∂w ∂x").text,
            "\\frac{∂g}{∂x} = \\frac{∂g}{∂v} \\frac{∂v}{∂x} + \\frac{∂g}{∂w} \\frac{∂w}{∂x} ."
        );
        assert_eq!(read("dh\nd\n=\nh = h′\nds\nds").text, "\\frac{dh}{ds} = \\frac{d}{ds} h = h′");
        assert_eq!(read("∂g ∂v\n,\n∂v ∂s").text, "\\frac{∂g}{∂v} , \\frac{∂v}{∂s}");
        assert_eq!(read("ab\n√\nn").text, "\\frac{ab}{\\sqrt{n}}");
    }

    #[test]
    fn fractions_set_into_one_baseline_go_after_its_signs_right_of_a_relation_first() {
        assert_eq!(
            read("1\n3\ng(a) ≈ b + a + c .\n2\n4").text,
            "g(a) ≈ b + \\frac{1}{2} a + \\frac{3}{4} c ."
        );
        assert_eq!(
            read("1\n3\ng(a) = − ∥a − c∥ + c\n2\n4").text,
            "g(a) = − \\frac{1}{2} ∥a − c∥ + \\frac{3}{4} c"
        );
        assert_eq!(
            read("dy\ny(s + h) − y(s)\n(s) = lim\n.\nh→0\nds\nh").text,
            "\\frac{dy}{ds} (s) = lim_{h→0} \\frac{y(s + h) − y(s)}{h} ."
        );
        // One fraction into a line with a left-hand side: after the last sign right of its
        // relation; first when the line starts with its argument or the numerator is `d`.
        assert_eq!(read("1\nf (x) = a + b · x + x⊤ Hx.\n2").text, "f (x) = a + b · x + \\frac{1}{2} x⊤ Hx.");
        assert_eq!(read("1\ny = exp(x).\n2").text, "y = \\frac{1}{2} exp(x).");
        assert_eq!(read("d\nf (x) = 2x.\ndx").text, "\\frac{d}{dx} f (x) = 2x.");
        // A denominator's power on the baseline's line, after a sign, is where the fraction stands.
        assert_eq!(read("1\nk = a exp − 2 ∥x∥2 .\n2ℓ").text, "k = a exp − \\frac{1}{2ℓ^{2}} ∥x∥2 .");
        // A number before a sign is a factor, no power.
        assert_eq!(read("1\nk = a − 2 · x\n2ℓ").text, "k = a − \\frac{1}{2ℓ} 2 · x");
        // A fraction after a comma ending the baseline's first line, its rest on the next.
        assert_eq!(read("θ\ng ← min 1,\ng.\n∥g∥").text, "g ← min 1, \\frac{θ}{∥g∥} g.");
        // A superscript ending the numerator's line is the baseline's first letter's.
        assert_eq!(read("1 ^{\\top}\nx Qx + c.\n2").text, "\\frac{1}{2} x ^{\\top} Qx + c.");
        let pass = read("1\n3\ng(a) ≈ b + a + c .\n2\n4");
        assert_eq!(pass.notes.len(), 2, "a warning a fraction: {:?}", pass.notes);
    }

    #[test]
    fn labels_beside_rows_are_no_fractions() {
        assert_eq!(
            read("η(t) = a\nη(t) = b · e−λt\nexponential decay\nη(t) = c\npolynomial decay").text,
            "η(t) = a η(t) = b · e−λt exponential decay η(t) = c polynomial decay"
        );
    }

    #[test]
    fn rows_of_an_aligned_display_follow_one_another() {
        assert_eq!(
            read("∂g\n∂g ∂v\n=\n,\n∂s\n∂v ∂s\n∂v\n∂v ∂u\n=\n.\n∂s\n∂u ∂s").text,
            "\\frac{∂g}{∂s} = \\frac{∂g}{∂v} \\frac{∂v}{∂s} , \\frac{∂v}{∂s} = \\frac{∂v}{∂u} \\frac{∂u}{∂s} ."
        );
    }
}
