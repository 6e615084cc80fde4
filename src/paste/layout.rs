//! The lines of a PDF's text read back into one formula. pdftotext lays a display out in
//! lines and blocks (blocks apart by a blank line): a big operator of TeX's cmex10 font is the
//! font's letter on a line of its own, its upper limit on the line above and its lower limit
//! on the line below (`n` / `X` / `i=1` for `\sum_{i=1}^{n}`); an integral sign carries its
//! upper limit on its line (`Z b`), its lower limit is below; a fraction is a block of its
//! numerator's line and its denominator's, with what stands on the baseline between them
//! (`dF` / `(x) = f (x).` / `dx`); the limit of `lim` is a block of its own (`n→∞`). Each
//! is read as its LaTeX, with a warning: the text says what was on which line, not where in
//! the line, so a placement is a guess. Runs only on plain text of two lines or more (see
//! [`super::prepare`]); the signs and the operators with limits are in `data/paste.toml`.

use super::over_sum::SumOver;
use super::spans::{Composer, Rewriter};
use super::sum_body::Body;
use super::table::{table, Table};
use super::Pass;
use crate::syntax::ast::Span;
use crate::syntax::error::{PdfWhy, Warning, WarningKind};
use std::collections::VecDeque;

/// A range of the input: a line, or a part of one.
pub(super) type Range = (usize, usize);

/// The longest limit, in characters, that a line of its own is taken for.
pub(super) const LIMIT_CHARACTERS: usize = 16;

/// Relations (an update's `←` among them): a line with one is not a numerator or a
/// denominator.
const RELATIONS: &[char] =
    &['=', '<', '>', '≤', '≥', '≈', '≠', '∼', '∝', '≡', '∈', '→', '←', '↦', '⇒', '⇔', '⊂', '⊆'];

/// Signs that end a line which a taller sign after it (an integral) was set beside.
const OPERATORS: &[char] = &['=', '−', '+', '<', '>', '≤', '≥', '≈', '·', '×', '∼', '('];

/// A piece of the formula read back, in order.
#[derive(Debug)]
pub(super) enum Item {
    /// A line, or the part of one, as it is.
    Text(Range),
    /// A big operator with its limits.
    Operator { latex: String, sign: Range, lower: Option<Range>, upper: Option<Range> },
    /// A fraction; its denominator under a root sign, or with its last letter's power set
    /// apart (on the baseline's line).
    Fraction { numerator: Range, denominator: Range, root: Option<Range>, power: Option<Range> },
    /// A fraction over a big operator with its limits and what it applies to.
    /// Its numerator a text-style sum too when `over` is given.
    OverSum {
        numerator: Range,
        over: Option<SumOver>,
        latex: String,
        sign: Range,
        lower: Range,
        upper: Option<Range>,
        rest: Range,
    },
    /// A big delimiter given on a line of its own, where it was set.
    Delimiter { glyph: Range, latex: String },
    /// A limit set under the word the item before ends with: `_{…}`.
    Under(Range),
    /// A script of the word the item before ends with, set apart from it: `^{…}` (as it is
    /// when the line pass wrote it so) or `_{…}`.
    Script { range: Range, raised: bool },
    /// A line taken as a limit of something after it: written there.
    Moved,
}

/// An operator sign on a line of its own.
#[derive(Debug)]
pub(super) struct Sign {
    pub(super) latex: String,
    pub(super) sign: Range,
    pub(super) upper: Option<Range>,
    pub(super) integral: bool,
}

/// Reads the lines of `text` as one formula.
pub(super) fn read(text: &str) -> Pass {
    let blocks = blocks(text);
    if blocks.iter().map(Vec::len).sum::<usize>() < 2 {
        let (text, map) = Rewriter::new(text).finish();
        return Pass { text, map, notes: Vec::new() };
    }
    let mut layout = Layout {
        text,
        table: table(),
        items: Vec::new(),
        notes: Vec::new(),
        pending: VecDeque::new(),
        lone: Vec::new(),
    };
    let mut blocks: VecDeque<Vec<Range>> = blocks.into();
    let delimiters = layout.leading_delimiters(&mut blocks);
    while let Some(block) = blocks.pop_front() {
        layout.block(block, &mut blocks);
    }
    layout.limits_below();
    layout.root_before_fraction();
    layout.place_delimiters(delimiters);
    layout.compose()
}

/// The non-blank lines of `text`, trimmed, in blocks apart by blank lines.
fn blocks(text: &str) -> Vec<Vec<Range>> {
    let mut blocks = vec![Vec::new()];
    let mut at = 0;
    for line in text.split('\n') {
        let start = at + (line.len() - line.trim_start().len());
        let end = at + line.trim_end().len();
        at += line.len() + 1;
        if end <= start {
            if blocks.last().is_some_and(|b| !b.is_empty()) {
                blocks.push(Vec::new());
            }
        } else if let Some(block) = blocks.last_mut() {
            block.push((start, end));
        }
    }
    blocks.retain(|b| !b.is_empty());
    blocks
}

/// The words of `text` in `range`, apart by spaces, each as its range.
pub(super) fn words_in(text: &str, range: Range) -> Vec<Range> {
    let mut words = Vec::new();
    let mut at = range.0;
    for word in text.get(range.0..range.1).unwrap_or("").split(' ') {
        if !word.is_empty() {
            words.push((at, at + word.len()));
        }
        at += word.len() + 1;
    }
    words
}

pub(super) struct Layout<'a> {
    pub(super) text: &'a str,
    pub(super) table: &'a Table,
    pub(super) items: Vec<Item>,
    notes: Vec<Warning>,
    /// Operators still waiting for their lower limit (indices into `items`).
    pub(super) pending: VecDeque<usize>,
    /// Lines of their own that may be a sum's upper limit set far before it (indices into
    /// `items`).
    pub(super) lone: Vec<usize>,
}

impl Layout<'_> {
    pub(super) fn get(&self, range: Range) -> &str {
        self.text.get(range.0..range.1).unwrap_or("")
    }

    /// Reads one block; `rest` are the blocks after it (a limit may be taken from them).
    fn block(&mut self, mut lines: Vec<Range>, rest: &mut VecDeque<Vec<Range>>) {
        self.baseline_before_fraction_sum(&mut lines);
        self.integral_limit_beside_denominator(&mut lines);
        if self.fraction_over_sum(&lines) || (self.word_of_a_delimiter(&lines) && self.opening_after(&lines))
        {
            return;
        }
        let has_sign = lines
            .iter()
            .enumerate()
            .any(|(n, &l)| self.signs(l).is_some() || self.fraction_sums(&lines, n, rest).is_some());
        if !has_sign
            && (self.fraction_under_root_sign(&lines)
                || self.fraction_rows(&lines)
                || self.fraction(&lines)
                || self.opening_after(&lines))
        {
            return;
        }
        let single = lines.len() == 1;
        let mut i = 0;
        while let Some(&line) = lines.get(i) {
            i += 1;
            if let Some(found) = self.fraction_sums(&lines, i - 1, rest) {
                i += found.lines - 1;
                self.fraction_then_sums(found, rest);
                continue;
            }
            let Some(signs) = self.signs(line) else {
                if let Some(taken) = self.baseline_after_body(&lines, i - 1, rest) {
                    i += taken - 1;
                    continue;
                }
                let limit = self.limit_like(line);
                let under_previous = self.items.last().is_some_and(|item| match item {
                    Item::Text(previous) => self.limit_word_end(*previous) == Some(previous.1),
                    _ => false,
                });
                if limit && (self.get(line).contains('→') || under_previous) && self.under(line) {
                    continue;
                }
                let related = words_in(self.text, line).iter().all(|&w| self.get(w).contains(['=', '∈']));
                if (single || related) && !limit && self.fill_pending_words(line) {
                    continue;
                }
                if !(limit && single && self.fill_pending(line)) {
                    if limit && single {
                        self.lone.push(self.items.len());
                    }
                    self.items.push(Item::Text(line));
                }
                continue;
            };
            let integral = signs.first().is_some_and(|s| s.integral);
            if integral {
                i = self.integral(signs, &mut lines, i, rest);
            } else {
                let mut upper = match self.items.last() {
                    Some(Item::Text(prev))
                        if i >= 2 && lines.get(i - 2) == Some(prev) && self.limit_like(*prev) =>
                    {
                        Some(*prev)
                    }
                    _ => None,
                };
                if upper.is_some() {
                    self.items.pop();
                    self.lone.retain(|&l| l < self.items.len());
                }
                // The lower limits: the next line, or its words for signs set side by side
                // (`XX` over `i∈V j∈V`).
                // A sign with its upper limit on its line (`m X`) has its lower limit on a line of
                // lower limits after the signs beside it.
                let joined = signs.first().is_some_and(|s| s.upper.is_some());
                let body = match (joined, signs.as_slice()) {
                    (false, [_]) => self.fraction_in_body(&lines, i, rest),
                    _ => None,
                };
                let lowers = match lines.get(i) {
                    Some(&l) if !joined && body.is_none() => self.lower_limits(l, signs.len()),
                    _ => Vec::new(),
                };
                if !lowers.is_empty() {
                    i += 1;
                }
                if let Some(Body { numerator, lower, denominator }) = body {
                    if upper.is_none() && self.get(lower).contains('=') {
                        upper = self.take_lone();
                    }
                    self.operators(signs, &[lower], upper);
                    self.push_fraction(numerator, denominator);
                    i += 2;
                    continue;
                }
                // A lower limit that starts a count (`i=1`) has an upper one: the last limit
                // left on a line of its own before, if it was not set right above.
                if upper.is_none() && lowers.first().is_some_and(|&l| self.get(l).contains('=')) {
                    upper = self.take_lone();
                }
                self.operators(signs, &lowers, upper);
            }
        }
    }

    /// The last line of its own that may be a limit and was not taken, taken.
    pub(super) fn take_lone(&mut self) -> Option<Range> {
        let index = self.lone.pop()?;
        match self.items.get_mut(index) {
            Some(item @ Item::Text(_)) => match std::mem::replace(item, Item::Moved) {
                Item::Text(range) => Some(range),
                _ => None,
            },
            _ => None,
        }
    }

    /// Integral signs on the line before `i`: the lower limit is the next line, or the last
    /// of the block; a sign set beside a line that ends in an operator (`H(X) = −`) goes after
    /// it. The index of the line to go on from.
    fn integral(
        &mut self,
        signs: Vec<Sign>,
        lines: &mut Vec<Range>,
        mut i: usize,
        rest: &mut VecDeque<Vec<Range>>,
    ) -> usize {
        let mut lower = lines.get(i).copied().filter(|&l| self.integral_limit(l));
        let mut last = false;
        if lower.is_some() {
            i += 1;
        } else if lines.len() >= i + 2 && lines.last().is_some_and(|&l| self.integral_limit(l)) {
            lower = lines.pop();
            // The display's last line with its final punctuation (`dxdy.`) is no lower limit
            // that what stood left of the sign came before.
            last = lower.is_some_and(|l| !self.get(l).ends_with(['.', ',', ';']));
        }
        // What stands left of the sign on the baseline, between the sign's line and its lower
        // limit's (`Z t` / `F (t) =` / `0`), or after the sign's line with its lower limit
        // ending the next block.
        let beside = lines.get(i).copied().filter(|&l| self.get(l).ends_with(OPERATORS));
        if let (Some(line), true) = (beside, lower.is_none() || last) {
            if let (Some(limit), true, Some(sign)) = (lower, last, signs.first()) {
                let found = format!("{} / {}", self.get(line), self.get(limit));
                let read = format!("{} {}_{{{}}} …", self.get(line), sign.latex, self.get(limit));
                self.note((line.0, limit.1), found, read, PdfWhy::BaselineBefore);
            }
            self.items.push(Item::Text(line));
            i += 1;
            let next = rest
                .front()
                .is_some_and(|b| b.len() >= 2 && b.last().is_some_and(|&l| self.integral_limit(l)));
            if lower.is_none() && next {
                lower = rest.front_mut().and_then(Vec::pop);
            }
        }
        self.operators(signs, lower.as_slice(), None);
        i
    }

    /// Whether `line` may be an integral's limit: like a limit, and not ending with a relation
    /// (`m=` is what stands left of the sign).
    fn integral_limit(&self, line: Range) -> bool {
        self.limit_like(line) && !self.get(line).ends_with(RELATIONS)
    }

    /// Pushes operator signs: the first with `lower` and `upper` (or its own upper limit),
    /// the others waiting for their lower limit.
    pub(super) fn operators(&mut self, signs: Vec<Sign>, lowers: &[Range], upper: Option<Range>) {
        for (n, sign) in signs.into_iter().enumerate() {
            let lower = lowers.get(n).copied();
            let found = self.get(sign.sign).to_string();
            self.notes.push(Warning {
                kind: WarningKind::PdfText { found, read: sign.latex.clone(), why: PdfWhy::BigOperator },
                span: Span::new(sign.sign.0, sign.sign.1),
            });
            let upper = if n == 0 { upper.or(sign.upper) } else { sign.upper };
            if lower.is_none() {
                self.pending.push_back(self.items.len());
            }
            self.items.push(Item::Operator { latex: sign.latex, sign: sign.sign, lower, upper });
        }
    }

    /// Gives `line` to the first operator waiting for a lower limit; whether there was one.
    pub(super) fn fill_pending(&mut self, line: Range) -> bool {
        while let Some(index) = self.pending.pop_front() {
            if let Some(Item::Operator { lower: lower @ None, .. }) = self.items.get_mut(index) {
                *lower = Some(line);
                return true;
            }
        }
        false
    }

    /// `a=1 b=1` after signs set apart (`X` / `X`): each word the lower limit of an operator
    /// waiting for one, in turn, when every word may be a limit and as many wait; whether so.
    fn fill_pending_words(&mut self, line: Range) -> bool {
        let words = self.limit_groups(line);
        let waiting = self
            .pending
            .iter()
            .filter(|&&n| matches!(self.items.get(n), Some(Item::Operator { lower: None, .. })))
            .count();
        if words.len() < 2
            || waiting < words.len()
            || !words.iter().all(|&w| self.limit_like(w) || self.spaced_limit(w))
        {
            return false;
        }
        words.into_iter().all(|word| self.fill_pending(word))
    }

    /// Sets `line` under the last `lim`, `max`, … before it that has no limit yet; whether
    /// there was one.
    pub(super) fn under(&mut self, line: Range) -> bool {
        let found = self.items.iter().enumerate().rev().find_map(|(index, item)| match item {
            Item::Text(range) => self.limit_word_end(*range).map(|end| (index, *range, end)),
            _ => None,
        });
        let Some((index, range, end)) = found else { return false };
        let operator = self.text.get(range.0..end).unwrap_or("").rsplit(' ').next().unwrap_or("").to_string();
        let limit = self.get(line).to_string();
        self.notes.push(Warning {
            kind: WarningKind::PdfText {
                found: limit.clone(),
                read: format!("{operator}_{{{limit}}}"),
                why: PdfWhy::Limit,
            },
            span: Span::new(line.0, line.1),
        });
        let mut replacement = vec![Item::Text((range.0, end)), Item::Under(line)];
        if end < range.1 {
            replacement.push(Item::Text((end, range.1)));
        }
        self.items.splice(index..=index, replacement);
        self.pending.iter_mut().filter(|p| **p > index).for_each(|p| *p += 1);
        self.lone.iter_mut().filter(|p| **p > index).for_each(|p| *p += 1);
        true
    }

    /// Where the last limit operator of `range` without a subscript ends, if it has one.
    fn limit_word_end(&self, range: Range) -> Option<usize> {
        self.limit_word_ends(range).last().copied()
    }

    /// Where each limit operator of `range` without a subscript ends, in order.
    pub(super) fn limit_word_ends(&self, range: Range) -> Vec<usize> {
        let text = self.get(range);
        let mut ends = Vec::new();
        for operator in &self.table.limit_operators {
            for (at, _) in text.match_indices(operator.as_str()) {
                let end = at + operator.len();
                let before = text.get(..at).and_then(|b| b.chars().next_back());
                let after = text.get(end..).and_then(|a| a.chars().next());
                let whole = !before.is_some_and(char::is_alphanumeric)
                    && !after.is_some_and(|c| c.is_alphanumeric() || c == '_');
                if whole {
                    ends.push(range.0 + end);
                }
            }
        }
        ends.sort_unstable();
        ends.dedup();
        ends
    }

    /// A block that is a fraction's lines: two lines without a relation (numerator,
    /// denominator), or `k` numerators, `k` lines between and `k` denominators (what stands
    /// on the baseline between them). Whether it was.
    fn fraction(&mut self, lines: &[Range]) -> bool {
        let k = match lines.len() {
            2 => 1,
            n if n % 3 == 0 => n / 3,
            _ => return false,
        };
        let (numerators, between, denominators) = match lines.len() {
            2 => (lines.get(..1), Some(&[] as &[Range]), lines.get(1..)),
            _ => (lines.get(..k), lines.get(k..2 * k), lines.get(2 * k..)),
        };
        let (Some(numerators), Some(between), Some(denominators)) = (numerators, between, denominators)
        else {
            return false;
        };
        let mut sides = numerators.iter().chain(denominators);
        if !sides.all(|&l| self.relation_free(l) && !self.signs_only(l)) {
            return false;
        }
        // `minimize` over `f` is an operator and its limit, not a fraction; so is
        // `min max{f (u, v)}.` over `u`, the limit of an operator inside the line.
        if numerators.iter().any(|&l| self.limit_word_end(l) == Some(l.1)) {
            return false;
        }
        let limit_under = |(&numerator, &denominator): (&Range, &Range)| {
            let wants = self.limit_word_ends(numerator).into_iter().any(|end| {
                self.text
                    .get(end..)
                    .is_some_and(|after| after.starts_with([' ', '{']) || after.starts_with("\\{"))
            });
            wants && self.limit_like(denominator)
        };
        if between.is_empty() && numerators.iter().zip(denominators).any(limit_under) {
            return false;
        }
        if let ([numerator], [line], [denominator]) = (numerators, between, denominators) {
            if self.fraction_beside_raised(*numerator, *denominator, *line) {
                return true;
            }
        }
        for (n, (&numerator, &denominator)) in numerators.iter().zip(denominators).enumerate() {
            self.push_fraction(numerator, denominator);
            if let Some(&line) = between.get(n) {
                self.items.push(Item::Text(line));
            }
        }
        true
    }

    /// Pushes a fraction, with its warning.
    pub(super) fn push_fraction(&mut self, numerator: Range, denominator: Range) {
        self.push_fraction_with(numerator, denominator, None);
    }

    /// Pushes a fraction, its denominator under the root sign at `root` if there is one,
    /// with its warning.
    pub(super) fn push_fraction_with(&mut self, numerator: Range, denominator: Range, root: Option<Range>) {
        let (over, under) = (self.get(numerator), self.get(denominator));
        let sign = root.map_or("", |_| "√");
        let found = format!("{over} / {sign}{under}");
        let read = match root {
            Some(_) => format!("\\frac{{{over}}}{{\\sqrt{{{under}}}}}"),
            None => format!("\\frac{{{over}}}{{{under}}}"),
        };
        self.notes.push(Warning {
            kind: WarningKind::PdfText { found, read, why: PdfWhy::Fraction },
            span: Span::new(numerator.0, denominator.1.max(numerator.1)),
        });
        self.items.push(Item::Fraction { numerator, denominator, root, power: None });
    }

    /// Notes that `range`, given as `found`, was read as `read`.
    pub(super) fn note(&mut self, range: Range, found: String, read: String, why: PdfWhy) {
        self.notes.push(Warning {
            kind: WarningKind::PdfText { found, read, why },
            span: Span::new(range.0, range.1),
        });
    }

    /// Whether `line` has no relation (a negated one written by the line pass included).
    pub(super) fn relation_free(&self, line: Range) -> bool {
        let text = self.get(line);
        !text.contains(RELATIONS) && !self.table.negated.values().any(|n| text.contains(n.as_str()))
    }

    /// The lower limits on `line` for `signs` operators: the line, or (for several signs) its
    /// words when there are as many; none when it is no limit.
    fn lower_limits(&self, line: Range, signs: usize) -> Vec<Range> {
        if self.limit_like(line) {
            return vec![line];
        }
        let groups = self.limit_groups(line);
        let all_limits = groups.iter().all(|&g| self.limit_like(g) || self.spaced_limit(g));
        if groups.len() == signs && all_limits {
            groups
        } else {
            Vec::new()
        }
    }

    /// The limits side by side on `line`: its words, a word joined to the one before when
    /// that ends with a comma or it starts with a relation or a parenthesis (or a sign after a
    /// capital). TeX's `,\ ` in a
    /// limit and the spaces of italic correction and after a script come out as spaces
    /// (`k=1, wk ∼P (w)`, `t=1 −m≤j≤m, j̸=0` under two signs).
    fn limit_groups(&self, line: Range) -> Vec<Range> {
        let mut groups: Vec<Range> = Vec::new();
        for word in words_in(self.text, line) {
            let text = self.get(word);
            // A capital's italic correction spaces a sign after it (`t=T −1`).
            let after_capital = text.starts_with(['−', '+'])
                && groups.last().is_some_and(|&l| self.get(l).ends_with(char::is_uppercase));
            let goes_on = text.starts_with(RELATIONS) || text.starts_with('(') || after_capital;
            // The flat pass writes a negated relation as a command and a space (`j\neq 0`).
            let open =
                |last: &str| last.ends_with(',') || last.ends_with(RELATIONS) || ends_with_command(last);
            match groups.last_mut() {
                Some(last) if goes_on || open(self.get(*last)) => last.1 = word.1,
                _ => groups.push(word),
            }
        }
        groups
    }

    /// Whether `group`, a limit with spaces in it ([`Layout::limit_groups`]), may be a lower
    /// limit: its first word one, a relation in it, and short once its spaces are taken off.
    fn spaced_limit(&self, group: Range) -> bool {
        let text = self.get(group);
        let Some(first) = words_in(self.text, group).first().copied() else { return false };
        let first = (first.0, first.0 + self.get(first).trim_end_matches(',').len());
        text.contains(' ')
            && text.contains(RELATIONS)
            && text.chars().filter(|c| !c.is_whitespace()).count() <= LIMIT_CHARACTERS
            && self.limit_like(first)
    }

    /// Whether `line` may be a limit: short, one word, with a letter, a digit or `∞` in it.
    pub(super) fn limit_like(&self, line: Range) -> bool {
        // pdftotext spaces a prime from what follows it (`s′ ∈S`).
        let text = self.get(line).replace("′ ", "′");
        !text.contains(char::is_whitespace)
            && text.chars().count() <= LIMIT_CHARACTERS
            && text.chars().any(|c| c.is_alphanumeric() || matches!(c, '∞' | '∆'))
            && self.signs(line).is_none()
    }

    /// The operator signs of `line` when it holds only signs (and, for integrals, their
    /// upper limits: `Z b`, `Z ∞Z ∞`).
    fn signs(&self, line: Range) -> Option<Vec<Sign>> {
        if let Some(sign) = self.sign_under_limit(line) {
            return Some(vec![sign]);
        }
        let text = self.get(line);
        let sum = |c: char| self.table.big_operators.get(&c.to_string());
        let integral = |c: char| self.table.integral_signs.get(&c.to_string());
        let first = text.chars().next()?;
        let integrals = integral(first).is_some();
        let mut signs: Vec<Sign> = Vec::new();
        let mut at = line.0;
        for token in text.split(' ') {
            let start = at;
            at += token.len() + 1;
            let sign_of = |c: char| if integrals { integral(c) } else { sum(c) };
            if !token.is_empty() && token.chars().all(|c| sign_of(c).is_some()) {
                for (offset, c) in token.char_indices() {
                    let latex = sign_of(c)?.clone();
                    let sign = (start + offset, start + offset + c.len_utf8());
                    signs.push(Sign { latex, sign, upper: None, integral: integrals });
                }
                continue;
            }
            if !integrals || token.is_empty() || signs.last().is_none_or(|s| s.upper.is_some()) {
                return None;
            }
            // An upper limit, maybe with the next sign right after it (`∞Z`).
            let last = token.chars().next_back()?;
            let glued = token.chars().count() > 1 && integral(last).is_some();
            let limit_end = start + token.len() - if glued { last.len_utf8() } else { 0 };
            if let Some(previous) = signs.last_mut() {
                previous.upper = Some((start, limit_end));
            }
            if glued {
                let latex = integral(last)?.clone();
                signs.push(Sign {
                    latex,
                    sign: (limit_end, start + token.len()),
                    upper: None,
                    integral: true,
                });
            }
        }
        (!signs.is_empty()).then_some(signs)
    }

    /// `m X`: a sum's upper limit and its sign on one line, as pdftotext joins them when a
    /// sign beside it stands higher (`m X` / `m` / `X` / `u=1 v=1` for two sums side by side).
    fn sign_under_limit(&self, line: Range) -> Option<Sign> {
        let (limit, sign) = self.get(line).split_once(' ')?;
        let latex = self.table.big_operators.get(sign)?.clone();
        let upper = (line.0, line.0 + limit.len());
        if !self.limit_like(upper)
            || limit.chars().any(|c| self.table.big_operators.contains_key(&c.to_string()))
        {
            return None;
        }
        Some(Sign { latex, sign: (upper.1 + 1, line.1), upper: Some(upper), integral: false })
    }

    /// The formula: the items in order, a space between them.
    fn compose(self) -> Pass {
        let mut out = Composer::new(self.text);
        let items: Vec<&Item> = self.items.iter().filter(|item| !matches!(item, Item::Moved)).collect();
        for (n, item) in items.iter().enumerate() {
            let start = match item {
                Item::Text(r) | Item::Under(r) | Item::Script { range: r, .. } => r.0,
                Item::Operator { sign, .. } => sign.0,
                Item::Delimiter { glyph, .. } => glyph.0,
                Item::Fraction { numerator, .. } | Item::OverSum { numerator, .. } => numerator.0,
                Item::Moved => continue,
            };
            // The rest of a line split at a limit operator follows its limit without a space.
            let after_under = n >= 2
                && matches!(items.get(n - 1), Some(Item::Under(_)))
                && matches!((items.get(n - 2), item), (Some(Item::Text(p)), Item::Text(r)) if p.1 == r.0);
            if n > 0 && !matches!(item, Item::Under(_) | Item::Script { .. }) && !after_under {
                out.write(" ", start, start);
            }
            match item {
                Item::Text((a, b)) => out.copy(*a, *b),
                Item::Operator { latex, sign, lower, upper } => {
                    out.write(latex, sign.0, sign.1);
                    for (mark, limit) in [("_{", lower), ("^{", upper)] {
                        if let Some((a, b)) = limit {
                            out.write(mark, *a, *a);
                            out.copy(*a, *b);
                            out.write("}", *b, *b);
                        }
                    }
                }
                Item::Fraction { numerator: (a, b), denominator: (c, d), root, power } => {
                    out.write("\\frac{", *a, *a);
                    out.copy(*a, *b);
                    out.write("}{", *b, *b);
                    if let Some((r, s)) = root {
                        out.write("\\sqrt{", *r, *s);
                    }
                    out.copy(*c, *d);
                    if let Some((p, q)) = power {
                        out.write("^{", *p, *p);
                        out.copy(*p, *q);
                        out.write("}", *q, *q);
                    }
                    out.write(if root.is_some() { "}}" } else { "}" }, *d, *d);
                }
                Item::OverSum { numerator: (a, b), over, latex, sign, lower, upper, rest: (c, d) } => {
                    out.write("\\frac{", *a, *a);
                    if let Some(sum) = over {
                        out.write(&sum.latex, sum.sign.0, sum.sign.1);
                        write_limits(&mut out, Some(&sum.lower), sum.upper.as_ref());
                        out.write(" ", *a, *a);
                    }
                    out.copy(*a, *b);
                    out.write("}{", *b, *b);
                    out.write(latex, sign.0, sign.1);
                    write_limits(&mut out, Some(lower), upper.as_ref());
                    out.write(" ", *c, *c);
                    out.copy(*c, *d);
                    out.write("}", *d, *d);
                }
                Item::Delimiter { glyph, latex } => out.write(latex, glyph.0, glyph.1),
                Item::Script { range: (a, b), raised } => {
                    if self.get((*a, *b)).starts_with("^{") {
                        out.copy(*a, *b);
                    } else {
                        out.write(if *raised { "^{" } else { "_{" }, *a, *a);
                        out.copy(*a, *b);
                        out.write("}", *b, *b);
                    }
                }
                Item::Under((a, b)) => {
                    out.write("_{", *a, *a);
                    out.copy(*a, *b);
                    out.write("}", *b, *b);
                }
                Item::Moved => {}
            }
        }
        let (text, map) = out.finish();
        Pass { text, map, notes: self.notes }
    }
}

/// Writes a big operator's limits after its sign: `_{lower}^{upper}`, each there is.
fn write_limits(out: &mut Composer, lower: Option<&Range>, upper: Option<&Range>) {
    for (mark, limit) in [("_{", lower), ("^{", upper)] {
        if let Some(&(e, f)) = limit {
            out.write(mark, e, e);
            out.copy(e, f);
            out.write("}", f, f);
        }
    }
}

/// Whether `text` ends with a command's name (`j\\neq`).
fn ends_with_command(text: &str) -> bool {
    let name = text.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    name.len() < text.len() && name.ends_with('\\')
}

#[cfg(test)]
mod tests;
