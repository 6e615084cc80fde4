//! Limits that pdftotext gives after the whole display: TeX sets the limit of `max`, `min`,
//! `argmax`, … under its word, lower than the baseline, so pdftotext reads it after the
//! baseline's line, as a line of its own (`θ̂ = argmax P (X | θ).` / `θ`; `min max{…}.` /
//! `D` / `G`). When the display ends with as many such short lines as its lines hold limit
//! operators without a limit, each is set under one in turn, with a warning: the text says
//! what was below the baseline, not under which word.

use super::layout::{Item, Layout, Range};
use crate::syntax::error::PdfWhy;

impl Layout<'_> {
    /// Sets the display's last lines under its limit operators in turn, when there are as
    /// many of each (and at least one).
    pub(super) fn limits_below(&mut self) {
        let trailing: Vec<usize> = self
            .items
            .iter()
            .enumerate()
            .rev()
            .take_while(|(_, item)| matches!(item, Item::Text(line) if self.whole_limit(*line)))
            .map(|(n, _)| n)
            .collect();
        let Some(&first_trailing) = trailing.last() else { return };
        let operators = self.operators_without_limit(first_trailing);
        if operators.len() != trailing.len() {
            return;
        }
        let limits: Vec<Range> = trailing
            .iter()
            .rev()
            .filter_map(|&n| match self.items.get(n) {
                Some(Item::Text(line)) => Some(*line),
                _ => None,
            })
            .collect();
        self.items.truncate(first_trailing);
        // From the last operator back, so that the earlier items stay where they are.
        for ((item, end), limit) in operators.into_iter().zip(limits).rev() {
            let Some(Item::Text(range)) = self.items.get(item) else { continue };
            let range = *range;
            let operator = self.get((range.0, end)).rsplit(' ').next().unwrap_or("").to_string();
            let shown = self.get(limit).to_string();
            self.note(limit, shown.clone(), format!("{operator}_{{{shown}}}"), PdfWhy::Limit);
            let mut parts = vec![Item::Text((range.0, end)), Item::Under(limit)];
            if end < range.1 {
                parts.push(Item::Text((end, range.1)));
            }
            self.items.splice(item..=item, parts);
        }
    }

    /// Whether `line` is a line of its own that may be a limit (`θ`, `x′ ∈X`, `G`).
    fn whole_limit(&self, line: Range) -> bool {
        let text = self.text;
        let starts_line =
            line.0 == 0 || text.get(..line.0).is_some_and(|b| b.trim_end_matches(' ').ends_with('\n'));
        let ends_line = text.get(line.1..).is_none_or(|a| {
            a.trim_start_matches(' ').is_empty() || a.trim_start_matches(' ').starts_with('\n')
        });
        // The display's full stop stands on the baseline: a line that ends with it (`g.`) is
        // the baseline's rest, no limit.
        let stop = self.get(line).ends_with('.');
        starts_line && ends_line && self.limit_like(line) && !stop
    }

    /// The limit operators without a limit in the text items before `before`, in order: each
    /// its item and where its word ends.
    fn operators_without_limit(&self, before: usize) -> Vec<(usize, usize)> {
        let mut found = Vec::new();
        for (n, item) in self.items.iter().enumerate().take(before) {
            let Item::Text(range) = item else { continue };
            if matches!(self.items.get(n + 1), Some(Item::Under(_))) {
                continue;
            }
            found.extend(self.limit_word_ends(*range).into_iter().map(|end| (n, end)));
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use crate::paste::layout::read;

    #[test]
    fn limits_after_the_display_go_under_its_operators_in_turn() {
        assert_eq!(read("min max{f (u, v)}.\nu\n\nv").text, "min_{u} max_{v}{f (u, v)}.");
        assert_eq!(read("w = argmin L(w).\nw").text, "w = argmin_{w} L(w).");
        // As many lines as operators, or nothing moves.
        assert_eq!(read("min max{f (u, v)}.\nu").text, "min max{f (u, v)}. u");
        assert_eq!(read("w ← w − ηg,\nb ← b − ηc.").text, "w ← w − ηg, b ← b − ηc.");
    }
}
