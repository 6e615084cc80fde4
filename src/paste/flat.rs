//! What the text of a PDF flattens within a line, read back: pdftotext gives a subscript set
//! right after its letter (`pi` for p_i, `pX,Y (x, y)` for p_{X,Y}(x, y), `DKL (P ∥Q)` for
//! D_{KL}(P‖Q)), an exponent right after its base (`e−λ`: `flat/powers.rs`), the negation slash before the
//! relation it crosses (`̸=`), `⊤` after what it transposes, and a function's name as plain
//! letters before its parenthesis (`Area(A)`). Runs only on plain text (no `\`, `^` or `_`:
//! see [`super::prepare`]); every reading that may be wrong is a warning, from the lists of
//! `data/paste.toml` (and the prose words and function names of `data/notation.toml`).

mod differentials;
mod powers;
mod script_space;
mod scripts;
mod spaces;

use super::spans::Rewriter;
use super::table::{table, Table};
use super::Pass;
use crate::meaning::notation::{has, Notation};
use crate::syntax::ast::Span;
use crate::syntax::error::{PdfWhy, Warning, WarningKind};

/// Characters a glued subscript may hold besides letters and digits (`pX,Y`, `Ex∼P`).
const SCRIPT_SIGNS: &[char] = &[',', '∼', '+', '−', '=', '′', '∗', '*'];

/// Signs that TeX sets with space around them in a display but tight in a script: one set
/// tight between letters or digits is inside a script (`xt−1` is x_{t−1}).
const TIGHT_SIGNS: &[char] = &['−', '+', ',', ':'];

/// Relations and binary signs whose spaces on both sides show a line set with TeX's display
/// spacing kept by pdftotext ([`Scan::spaced_line`]).
const SPACED_SIGNS: &[char] = &['=', '−', '+', '|', '<', '>', '≤', '≥', '≈', '∼', '←', '→', '∝', '∈'];

/// The longest word, in characters, read for a glued script or a name in it: longer runs are
/// no script, and looking no further keeps the pass linear.
const SCRIPT_CHARACTERS: usize = 24;

/// The longest index, in characters, that starts a line below a transposed letter
/// ([`Scan::index_below`]).
const INDEX_BELOW_CHARACTERS: usize = 4;

/// Reads the flattened scripts, signs and names of `text`.
pub(super) fn in_lines(text: &str) -> Pass {
    let mut scan = Scan {
        text,
        table: table(),
        out: Rewriter::new(text),
        notes: Vec::new(),
        line_has_text: false,
        line_begin: 0,
        raised_letters: scripts::raised_letters(text),
        spaced_scripts: Vec::new(),
        series_letters: script_space::series_letters(text),
        denominator_lines: std::collections::HashMap::new(),
        numerator_powers: std::collections::HashMap::new(),
    };
    scan.spaced_scripts = script_space::spaced_scripts(text, |word| scan.known(word));
    super::walk_chars(text, |at, c| scan.step(at, c));
    let (text, map) = scan.out.finish();
    Pass { text, map, notes: scan.notes }
}

struct Scan<'a> {
    text: &'a str,
    table: &'a Table,
    out: Rewriter<'a>,
    notes: Vec<Warning>,
    /// Whether anything but spaces came before on the line being read.
    line_has_text: bool,
    /// Where the line being read starts.
    line_begin: usize,
    /// Letters that a script's space shows with a parenthesized superscript somewhere in the
    /// text (`h(l−1) )`): their other glued groups are superscripts too (`h(l) =`).
    raised_letters: Vec<char>,
    /// Scripts that TeX's space after a script shows glued after a letter somewhere in the
    /// text (`bq ,`): the same script glued elsewhere is one too (`script_space.rs`).
    spaced_scripts: Vec<String>,
    /// Letters with digits glued in a series written with dots (`w1 , . . . , wN`).
    series_letters: Vec<char>,
    /// Lines (by where they start) found to be Leibniz denominators or not (`differentials.rs`).
    denominator_lines: std::collections::HashMap<usize, bool>,
    /// The script glued to a numerator's `d` above the line that starts at the key
    /// (`differentials.rs`).
    numerator_powers: std::collections::HashMap<usize, Option<String>>,
}

impl Scan<'_> {
    /// Handles the character `c` at `at`; the offset to go on from.
    fn step(&mut self, at: usize, c: char) -> usize {
        let next = at + c.len_utf8();
        let starts_word =
            !self.text.get(..at).and_then(|b| b.chars().next_back()).is_some_and(char::is_alphanumeric);
        let went_on = self.read(at, next, c, starts_word);
        // A reading that took a line break along (`u⊤` / `j`) moves the line's start too.
        if let Some(n) = self.text.get(next..went_on).and_then(|read| read.rfind('\n')) {
            self.line_begin = next + n + 1;
        }
        if c == '\n' {
            self.line_has_text = false;
            self.line_begin = next;
        } else if !c.is_whitespace() {
            self.line_has_text = true;
        }
        went_on
    }

    /// What [`Scan::step`] does with `c`.
    fn read(&mut self, at: usize, next: usize, c: char, starts_word: bool) -> usize {
        match c {
            '\u{0338}' => self.negation(at),
            '∗' => self.glued_star(at, next),
            c if self.table.raised.contains_key(&c.to_string()) => self.raised(at, c),
            ')' | ']' => self.closing(at, next),
            '∥' => self.norm(at, next),
            '∇' | '∂' => self.operator_script(at, next),
            '.' | '·' => self.dots(at, next),
            c if c.is_alphanumeric() && starts_word => self.word(at),
            _ => next,
        }
    }

    /// The negation slash at `at`, set before the relation it crosses: `̸=` is `\neq`.
    fn negation(&mut self, at: usize) -> usize {
        let after = at + '\u{0338}'.len_utf8();
        let rest = self.text.get(after..).unwrap_or("");
        let spaces = rest.len() - rest.trim_start_matches(' ').len();
        let Some(relation) = rest.get(spaces..).and_then(|r| r.chars().next()) else { return after };
        let Some(negated) = self.table.negated.get(&relation.to_string()) else { return after };
        let end = after + spaces + relation.len_utf8();
        self.out.replace(at, end, &format!("{negated} "));
        end
    }

    /// `. . .` at `at`: the dots of `\ldots` (`data/paste.toml`'s `dots`), read as one symbol.
    fn dots(&mut self, at: usize, next: usize) -> usize {
        let rest = self.text.get(at..).unwrap_or("");
        let Some((dots, latex)) = self.table.dots.iter().find(|(dots, _)| rest.starts_with(dots.as_str()))
        else {
            return next;
        };
        self.out.replace(at, at + dots.len(), &format!("{latex} "));
        at + dots.len()
    }

    /// A raised character (`⊤`) after something it can apply to becomes a superscript; the
    /// offset to go on from. Set right after a letter at the end of a line, with a short
    /// index starting the next line (`u⊤` / `j vi`), it has that index under it: TeX sets
    /// u_j^⊤'s subscript lower than the baseline, and pdftotext gives it the next line.
    fn raised(&mut self, at: usize, c: char) -> usize {
        let next = at + c.len_utf8();
        let before = self.text.get(..at).unwrap_or("").trim_end_matches(' ');
        let applies = before
            .chars()
            .next_back()
            .is_some_and(|b| b.is_alphanumeric() || matches!(b, ')' | ']' | '}' | '′'));
        let Some(latex) = self.table.raised.get(&c.to_string()).filter(|_| applies).cloned() else {
            return next;
        };
        let glued = self.text.get(..at).is_some_and(|b| b.ends_with(char::is_alphabetic));
        if let Some((index, end)) = self.index_below(next).filter(|_| glued) {
            let read = format!("^{{{latex}}}_{{{index}}}");
            self.rewrite(at, end, &read, PdfWhy::IndexBelow);
            return end;
        }
        self.out.replace(at, next, &format!("^{{{latex}}}"));
        next
    }

    /// A line break at `at` and `j vi`: the short index that starts the next line (index
    /// letters of `glued_index_letters`, digits and tight signs, `t+j`; or one or two other
    /// small letters before a factor, `o vc`), and where it ends; none when the line starts
    /// otherwise (`x⊤` / `Ax = b`: the next factor).
    fn index_below(&self, at: usize) -> Option<(String, usize)> {
        let rest = self.text.get(at..)?.strip_prefix('\n')?;
        let index_letter = |c: char| {
            self.table.glued_index_letters.iter().any(|l| l.starts_with(c) && l.len() == c.len_utf8())
        };
        let length = run_length(rest, |c| c.is_ascii_digit() || index_letter(c) || TIGHT_SIGNS.contains(&c));
        let index = rest.get(..length)?;
        let after = rest.get(length..)?;
        let short = (1..=INDEX_BELOW_CHARACTERS).contains(&index.chars().count());
        let alone = after.is_empty() || after.starts_with([' ', '\n']);
        let starts = index.starts_with(char::is_alphanumeric) && index.ends_with(char::is_alphanumeric);
        // Other small letters (`u⊤` / `o vc`, `u⊤` / `hk vi`) when a factor follows them on the
        // line, as the transposed vector's partner: not a row of their own (`y = 1`), no word.
        let other = || {
            let length = run_length(rest, |c| c.is_ascii_lowercase());
            let index = rest.get(..length)?;
            let factor = rest.get(length..)?.strip_prefix(' ')?.starts_with(char::is_alphabetic);
            ((1..=2).contains(&length) && factor && !self.known(index))
                .then(|| (index.to_string(), at + 1 + length))
        };
        (short && alone && starts).then(|| (index.to_string(), at + 1 + length)).or_else(other)
    }

    /// A word (a run of letters and digits) at `at`: an exponent, a name before its
    /// parenthesis, or a letter with a glued subscript; the offset to go on from.
    fn word(&mut self, at: usize) -> usize {
        let rest = self.text.get(at..).unwrap_or("");
        let end = at + rest.chars().take_while(|c| c.is_alphanumeric()).map(char::len_utf8).sum::<usize>();
        let word = self.text.get(at..end).unwrap_or("");
        let after = self.text.get(end..).unwrap_or("");
        // A script an earlier pass wrote (a matrix entry's `a_{m1}`) is read as written.
        if self.text.get(..at).is_some_and(|b| b.ends_with("_{") || b.ends_with("^{")) {
            return end;
        }
        if let Some(done) = self
            .accented_script(end, word, after)
            .or_else(|| self.dimensions(at, word))
            .or_else(|| self.indexed_capital(at, end, word))
            .or_else(|| self.differential(at, end, word))
        {
            return done;
        }
        if let Some(done) =
            self.exponent(at, end, word, after).or_else(|| self.spaced_power(at, end, word, after))
        {
            return done;
        }
        if let Some(done) = self
            .spaced_superscript(at, end, word, after)
            .or_else(|| self.powered_name(at, end, word))
            .or_else(|| self.power_before_a_raised_group(at, end, word, after))
        {
            return done;
        }
        if let Some(done) = self.distribution(at, end, word, after) {
            return done;
        }
        if let Some(done) = self.primed_script(at, end, word, after) {
            return done;
        }
        if let Some(done) = self.signed_script(at) {
            return done;
        }
        if self.squared_or_subscripted(at, end, word) {
            return end;
        }
        if let Some(done) = self.grouped_script(at, end, word) {
            return done;
        }
        if let Some(done) = self.parenthesized_index(end, word, after) {
            return done;
        }
        if after.starts_with('(') {
            // A name the plain pass knows is its to write (`log(x)` is `\log(x)`).
            if !self.written_by_plain_pass(word) && !self.factor_and_name(at, end, word) {
                self.name(at, end, word);
            }
            return end;
        }
        if self.subscripted_among_signs(at, end, word) {
            return end;
        }
        if self.known(word) {
            return end;
        }
        if let Some(done) = self.before_bracket(at) {
            return done;
        }
        if let Some(done) = self.drawn_script(at, end, word, after) {
            return done;
        }
        if self.spaced_script(at, end, word) || self.series_end(at, end, word) {
            return end;
        }
        if !self.squared_index(at, end, word) {
            self.glued(at, end, word);
        }
        end
    }

    /// `∼ N (0, 1)`: a distribution's letter after `∼`, applied: its calligraphic letter. Not
    /// after `∼`, with the space of its italic correction, applied to a pair (`= N (a, v)`,
    /// `P (N (0, 1) ∈ …)`, a location and a scale): the same, with a warning.
    fn distribution(&mut self, at: usize, end: usize, word: &str, after: &str) -> Option<usize> {
        let sampled = self.text.get(..at)?.trim_end_matches(' ').ends_with('∼');
        let applied = after.trim_start_matches(' ').starts_with('(');
        if !applied || !is_capital(word) || !has(&Notation::shipped().distribution_names, word) {
            return None;
        }
        let paired = !sampled && after.starts_with(" (") && is_pair(after.get(1..)?);
        if !sampled && !paired {
            return None;
        }
        let spaces = after.len() - after.trim_start_matches(' ').len();
        let read = format!("\\mathcal{{{word}}}");
        if paired {
            self.note(at, end, read.clone(), PdfWhy::Name);
        }
        self.out.replace(at, end + spaces, &read);
        Some(end + spaces)
    }

    /// `xt−1 ,`, `σaX+b =`, `gt,t−1`: a letter, then a run with a sign inside it (`−`, `+`,
    /// `,`, `:`), letters or digits on both sides of each sign, up to a space or the end. In
    /// a display TeX sets spaces around a binary sign and after a comma (`x − 1`, `(x, y)`)
    /// but none in a script, so a sign set tight between letters is inside the subscript of
    /// the letter before it: x_{t−1}. (`=` is left: `i=1` is a sum's limit, read by
    /// `layout.rs`; so is anything on a line of its own.)
    fn signed_script(&mut self, at: usize) -> Option<usize> {
        let rest = self.text.get(at..).unwrap_or("");
        let length = run_length(rest, |c| c.is_alphanumeric() || TIGHT_SIGNS.contains(&c) || c == '′');
        let token = rest.get(..length).filter(|t| t.chars().count() <= SCRIPT_CHARACTERS)?;
        let after = rest.get(length..)?;
        // Before ` (` or ` [` the script is [`Scan::before_bracket`]'s, which takes the space too.
        let ends_word = after.chars().next().is_none_or(char::is_whitespace)
            && !(after.starts_with(" (") || after.starts_with(" ["));
        let chars: Vec<char> = token.chars().collect();
        let tight = |i: usize| {
            let side = |j: Option<usize>| j.and_then(|j| chars.get(j)).is_some_and(|c| c.is_alphanumeric());
            side(i.checked_sub(1)) && side(Some(i + 1))
        };
        let signs: Vec<usize> =
            (0..chars.len()).filter(|&i| chars.get(i).is_some_and(|c| TIGHT_SIGNS.contains(c))).collect();
        let first_sign = *signs.first()?;
        if !chars.first().is_some_and(|c| c.is_alphabetic()) || !signs.iter().all(|&i| tight(i)) || !ends_word
        {
            return None;
        }
        // `ye−y`: a sign right after an exponent's base (`e−y`) starts the exponent.
        let before_sign = first_sign.checked_sub(1).and_then(|i| chars.get(i)).map(char::to_string);
        let exponent = before_sign.is_some_and(|b| self.table.exponent_bases.contains(&b));
        // TeX's space after a script shows before a comma, a closing parenthesis or a period
        // (`ht−1 ,`), on a line without display spacing too.
        let script_space = after.starts_with(" ,") || after.starts_with(" )") || after.starts_with(" .");
        // What `∂` differentiates by is one variable: a sign set tight in it is a script's
        // (a fraction's denominator `∂ht−1`, on a line of its own without display spacing).
        let after_partial = self.text.get(..at).is_some_and(|b| b.ends_with('∂'));
        if exponent
            || (self.whole_line(at, at + length) && !after_partial)
            || self.known(token)
            || !(self.spaced_line(at) || script_space || after_partial)
        {
            return None;
        }
        // The script starts at the index letters or digits before the first sign, after the
        // letter they are set to (`βvt−1` is β v_{t−1}); with none, after the first letter
        // (`σaX+b`). What stands before that letter is left, a product.
        let index = |c: &char| {
            c.is_ascii_digit() || self.table.glued_index_letters.iter().any(|l| *l == c.to_string())
        };
        let run = chars.get(..first_sign).unwrap_or_default().iter().rev().take_while(|c| index(c)).count();
        let start = if run == 0 { 1 } else { (first_sign - run).max(1) };
        let base_at = at + chars.iter().take(start - 1).map(|c| c.len_utf8()).sum::<usize>();
        let script_at = at + chars.iter().take(start).map(|c| c.len_utf8()).sum::<usize>();
        let starts_script = chars.get(start).is_some_and(|c| c.is_alphanumeric());
        if !chars.get(start - 1).is_some_and(|c| c.is_alphabetic()) || !starts_script {
            return None;
        }
        let (base, script) = (self.text.get(base_at..script_at)?, self.text.get(script_at..at + length)?);
        let read = format!("{base}_{{{script}}}");
        self.rewrite(base_at, at + length, &read, PdfWhy::Subscript);
        Some(at + length)
    }

    /// `σ2` is σ² (`squared_letters`); `µX`, `σXY` are μ_X, σ_{XY} (`subscripted_by_capitals`).
    /// A Latin letter set before the Greek one is a factor: `aµX` is a μ_X.
    fn squared_or_subscripted(&mut self, at: usize, end: usize, word: &str) -> bool {
        let mut chars = word.chars();
        let Some(base) = chars.next() else { return false };
        let rest = chars.as_str();
        let greek_next = rest.chars().next().is_some_and(|g| {
            let listed = |list: &[String]| list.iter().any(|l| *l == g.to_string());
            listed(&self.table.subscripted_by_capitals) || listed(&self.table.squared_letters)
        });
        if base.is_ascii_alphabetic() && greek_next {
            return self.squared_or_subscripted(at + base.len_utf8(), end, rest);
        }
        let listed = |list: &[String]| list.iter().any(|l| *l == base.to_string());
        // `µ2X`: a power set before the subscript, as pdftotext orders them, is μ_X².
        let (power, capitals) =
            rest.split_at(rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len());
        let read = if rest == "2" && listed(&self.table.squared_letters) {
            format!("{base}^{{2}}")
        } else if (1..=2).contains(&capitals.len())
            && capitals.chars().all(|c| c.is_ascii_uppercase())
            && listed(&self.table.subscripted_by_capitals)
        {
            if power.is_empty() {
                format!("{base}_{{{capitals}}}")
            } else {
                format!("{base}_{{{capitals}}}^{{{power}}}")
            }
        } else {
            return false;
        };
        let why = if read.contains('^') { PdfWhy::Exponent } else { PdfWhy::Subscript };
        self.rewrite(at, end, &read, why);
        true
    }

    /// Whether the line around `at` shows the spaces TeX sets around a relation or a binary
    /// sign in a display (`y = x − a`). pdftotext drops them on some lines (`y =x−a`, `a+b=c`),
    /// and on such a line a tight sign says nothing about scripts.
    fn spaced_line(&self, at: usize) -> bool {
        let start = self.text.get(..at).and_then(|b| b.rfind('\n')).map_or(0, |n| n + 1);
        let end = self.text.get(at..).and_then(|a| a.find('\n')).map_or(self.text.len(), |n| at + n);
        let line = self.text.get(start..end).unwrap_or("").trim_end();
        // A sign that ends the line (`ci,j =`, its right side on lines below) counts, and so
        // does TeX's space after a script before a comma, a parenthesis or a period (`xi ,`).
        SPACED_SIGNS
            .iter()
            .any(|sign| line.contains(&format!(" {sign} ")) || line.ends_with(&format!(" {sign}")))
            || [" ,", " )", " ."].iter().any(|gap| line.contains(gap))
    }

    /// Whether `start..end` is all of its line (but spaces); `start` is where the word being
    /// read starts.
    fn whole_line(&self, start: usize, end: usize) -> bool {
        let after = self.text.get(end..).unwrap_or("");
        self.line_start(start) && after.chars().take_while(|&c| c != '\n').all(char::is_whitespace)
    }

    /// Whether nothing but spaces is before the word being read (at `_at`) on its line.
    fn line_start(&self, _at: usize) -> bool {
        !self.line_has_text
    }

    /// A word of three letters or more right before `(`: a function's name (`Area(A)`).
    fn name(&mut self, at: usize, end: usize, word: &str) {
        if word.chars().count() < 3 || !word.chars().all(|c| c.is_ascii_alphabetic()) {
            return self.glued(at, end, word);
        }
        let read = format!("\\mathrm{{{word}}}");
        if !super::is_known_name(word) {
            self.note(at, end, read.clone(), PdfWhy::Name);
        }
        self.out.replace(at, end, &read);
    }

    /// `pX,Y (x, y)`, `DKL (P ∥Q)`, `Ex∼P [f (x)]`: a letter with a subscript, then the space
    /// TeX leaves after a script, then a bracket. `log2 (x)` is a name with its subscript.
    fn before_bracket(&mut self, at: usize) -> Option<usize> {
        let rest = self.text.get(at..).unwrap_or("");
        let length = run_length(rest, |c| c.is_alphanumeric() || SCRIPT_SIGNS.contains(&c));
        let token = rest.get(..length).filter(|t| t.chars().count() <= SCRIPT_CHARACTERS)?;
        let after = rest.get(length..)?;
        if !(after.starts_with(" (") || after.starts_with(" [")) || token.chars().count() < 2 {
            return None;
        }
        let (base, script) = self.split_capitals(token).or_else(|| self.split_name(token)).or_else(|| {
            let first = token.chars().next().filter(|c| c.is_alphabetic())?;
            Some(token.split_at(first.len_utf8()))
        })?;
        if script.is_empty() || self.known(token) || self.applied_after_factor(base, script) {
            return None;
        }
        // A small letter before a capital is a product (`xP (X = x)`) unless the letter is a
        // density's or a function's (`pX (x)`, `fθ (x)`).
        let notation = Notation::shipped();
        let small_before_capital =
            base.chars().all(char::is_lowercase) && script.starts_with(char::is_uppercase);
        if small_before_capital
            && !has(&notation.distribution_letters, base)
            && !has(&notation.function_letters, base)
        {
            return None;
        }
        // A script that is a name (`KL`, `CE`) is set upright, as its source wrote it; so is
        // a capitalized word before its capitals (`ProjX`).
        let named = script.chars().count() >= 2
            && script.chars().all(|c| c.is_ascii_alphabetic())
            && has(&Notation::shipped().function_names, script);
        let read = if named {
            format!("{base}_{{\\mathrm{{{script}}}}}")
        } else if self.split_capitals(token).is_some() {
            format!("\\mathrm{{{base}}}_{{{script}}}")
        } else {
            format!("{base}_{{{script}}}")
        };
        self.note(at, at + length, read.clone(), PdfWhy::Subscript);
        // The space after the script goes too: it is TeX's, not the writer's.
        self.out.replace(at, at + length + 1, &read);
        Some(at + length + 1)
    }

    /// `E(x,y)∼P [log p(x, y)]`: a capital with a glued subscript that starts with a
    /// parenthesized group and goes on with `∼` (what a variable is drawn from), then the
    /// space TeX leaves after a script and a bracket: `E_{(x,y)∼P}`.
    fn grouped_script(&mut self, at: usize, end: usize, word: &str) -> Option<usize> {
        if !is_capital(word) {
            return None;
        }
        let rest = self.text.get(end..)?;
        let group = rest.strip_prefix('(')?;
        let close = group.find(')').filter(|&n| n <= SCRIPT_CHARACTERS)?;
        if group.get(..close)?.contains([' ', '(']) {
            return None;
        }
        let tail = group.get(close + 1..)?.strip_prefix('∼')?;
        let drawn = run_length(tail, |c| c.is_alphanumeric() || SCRIPT_SIGNS.contains(&c));
        let after = tail.get(drawn..)?;
        if drawn == 0 || drawn > SCRIPT_CHARACTERS || !(after.starts_with(" [") || after.starts_with('[')) {
            return None;
        }
        let script_end = end + 1 + close + 1 + '∼'.len_utf8() + drawn;
        let script = self.text.get(end..script_end)?;
        let read = format!("{word}_{{{script}}}");
        self.note(at, script_end, read.clone(), PdfWhy::Subscript);
        let space = usize::from(after.starts_with(' '));
        self.out.replace(at, script_end + space, &read);
        Some(script_end + space)
    }

    /// `xi`, `aij`, `x0`, `argmaxy`: a letter followed by index letters or digits, or a
    /// limit operator followed by a short subscript.
    fn glued(&mut self, at: usize, end: usize, word: &str) {
        if word.chars().count() > SCRIPT_CHARACTERS {
            return;
        }
        // `ηλxt`, `2ηt`, `γr1`: Greek letters and digits set before are factors, each a symbol
        // of its own; the letter after them takes the script.
        // The last letter with something after it is the base: what stands before is factors.
        let count = word.chars().count();
        let factors: usize = word
            .chars()
            .take(count.saturating_sub(2))
            .take_while(|&c| c.is_ascii_digit() || is_greek(c))
            .map(char::len_utf8)
            .sum();
        let rest = word.get(factors..).unwrap_or("");
        if factors > 0 && rest.chars().count() >= 2 && !rest.starts_with(|c: char| c.is_ascii_digit()) {
            return self.glued(at + factors, end, rest);
        }
        let mut chars = word.chars();
        let Some(first) = chars.next().filter(|c| c.is_alphabetic()) else { return };
        let script = chars.as_str();
        let indices =
            |s: &str| s.chars().all(|c| self.table.glued_index_letters.iter().any(|l| *l == c.to_string()));
        let digits = |s: &str| s.chars().all(|c| c.is_ascii_digit());
        let (base, script) = match self.split_limit(word) {
            Some(split) => split,
            None if !script.is_empty() && (digits(script) || indices(script)) => {
                word.split_at(first.len_utf8())
            }
            None => return,
        };
        let read = format!("{base}_{{{script}}}");
        self.rewrite(at, end, &read, PdfWhy::Subscript);
    }

    /// `log2` → (`log`, `2`): a known name with something after it.
    fn split_name<'w>(&self, token: &'w str) -> Option<(&'w str, &'w str)> {
        let notation = Notation::shipped();
        (2..token.len()).rev().filter(|&i| token.is_char_boundary(i)).find_map(|i| {
            let (name, script) = token.split_at(i);
            let known = self.table.names.contains_key(name) || has(&notation.function_names, name);
            known.then_some((name, script))
        })
    }

    /// `ProjX` → (`Proj`, `X`): a capital and two small letters or more, a word, with one or
    /// two capitals glued after it, its subscript (`\textrm{Proj}_\mathcal{X}`); tried before
    /// a known name at its start (`Pr`).
    fn split_capitals<'w>(&self, token: &'w str) -> Option<(&'w str, &'w str)> {
        let capitals = token.len() - token.trim_end_matches(|c: char| c.is_ascii_uppercase()).len();
        let (name, script) = token.split_at(token.len() - capitals);
        let mut letters = name.chars();
        let word = letters.next().is_some_and(|c| c.is_ascii_uppercase())
            && letters.as_str().chars().count() >= 2
            && letters.all(|c| c.is_ascii_lowercase());
        (word && (1..=2).contains(&capitals)).then_some((name, script))
    }

    /// `argmaxy` → (`argmax`, `y`): a limit operator with one or two letters after it.
    fn split_limit<'w>(&self, word: &'w str) -> Option<(&'w str, &'w str)> {
        let limit = self
            .table
            .limit_operators
            .iter()
            .filter(|l| word.starts_with(l.as_str()))
            .max_by_key(|l| l.len())?;
        let script = word.get(limit.len()..)?;
        (!script.is_empty() && script.chars().count() <= 2).then(|| word.split_at(limit.len()))
    }

    /// Whether `word` is a name that the plain pass writes as LaTeX, or a word of prose.
    fn written_by_plain_pass(&self, word: &str) -> bool {
        self.table.names.contains_key(word)
            || self.table.names_before_parenthesis.contains_key(word)
            || self.table.limit_operators.iter().any(|l| l == word)
            || has(&Notation::shipped().prose_words, &word.to_lowercase())
    }

    /// Whether `word` is a name or a word that is read as written.
    fn known(&self, word: &str) -> bool {
        let notation = Notation::shipped();
        self.table.names.contains_key(word)
            || self.table.names_before_parenthesis.contains_key(word)
            || self.table.limit_operators.iter().any(|l| l == word)
            || self.table.glued_words_kept.iter().any(|w| w == word)
            || has(&notation.function_names, word)
            || has(&notation.distribution_names, word)
            || has(&notation.prose_words, &word.to_lowercase())
    }

    /// Writes `read` for `at..end`, with a warning of `why`.
    fn rewrite(&mut self, at: usize, end: usize, read: &str, why: PdfWhy) {
        self.note(at, end, read.to_string(), why);
        self.out.replace(at, end, read);
    }

    fn note(&mut self, start: usize, end: usize, read: String, why: PdfWhy) {
        let found = self.text.get(start..end).unwrap_or("").to_string();
        self.notes
            .push(Warning { kind: WarningKind::PdfText { found, read, why }, span: Span::new(start, end) });
    }
}

/// Whether `group` starts with a parenthesis around two arguments (one comma outside any inner
/// bracket: `(0, 1)`, `(µ, σ 2 )`), closed within [`PAIR_CHARACTERS`].
fn is_pair(group: &str) -> bool {
    let (mut depth, mut commas) = (0usize, 0usize);
    for c in group.chars().take(PAIR_CHARACTERS) {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' if depth == 1 => return commas == 1,
            ')' | ']' | '}' => depth = depth.saturating_sub(1),
            ',' if depth == 1 => commas += 1,
            _ => {}
        }
    }
    false
}

/// The longest parenthesized pair, in characters, read after a distribution's letter.
const PAIR_CHARACTERS: usize = 64;

/// Whether `c` is a Greek letter (with the variants `ϵ`, `ϕ`, `ϑ`).
fn is_greek(c: char) -> bool {
    ('\u{0391}'..='\u{03FF}').contains(&c)
}

/// Whether `word` is one capital letter, Latin or Greek.
fn is_capital(word: &str) -> bool {
    let mut chars = word.chars();
    chars.next().is_some_and(char::is_uppercase) && chars.next().is_none()
}

/// The length in bytes of the run of characters at the start of `text` that `take` accepts.
fn run_length(text: &str, take: impl Fn(char) -> bool) -> usize {
    text.chars().take_while(|&c| take(c)).map(char::len_utf8).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the pass makes of `text`.
    pub(super) fn read(text: &str) -> String {
        in_lines(text).text
    }

    #[test]
    fn subscripts_set_after_their_letter_are_read_as_subscripts() {
        assert_eq!(read("pX (x) = pX,Y (x, y)"), "p_{X}(x) = p_{X,Y}(x, y)");
        assert_eq!(read("DKL (P ∥Q)"), "D_{\\mathrm{KL}}(P ∥Q)");
        assert_eq!(read("µX = E[X], σXY − µ2X"), "µ_{X} = E[X], σ_{XY} − µ_{X}^{2}");
        assert_eq!(read("−Ex∼P [log p(x)]"), "−E_{x∼P}[log p(x)]");
        assert_eq!(read("xP (X = x)"), "xP (X = x)");
        assert_eq!(read("xi aij xj = a11 + ϵ1"), "x_{i} a_{ij} x_{j} = a_{11} + ϵ_{1}");
        assert_eq!(read("log2 (pi )"), "log_{2}(p_{i} )");
        assert_eq!(read("ŷ = argmaxy log"), "ŷ = argmax_{y} log");
        // Greek letters and digits set before a letter are factors; the letter takes the script.
        assert_eq!(read("xt − ηλxt + γr1 ≥ 2ηt"), "x_{t} − ηλx_{t} + γr_{1} ≥ 2η_{t}");
        // What `∂` differentiates by is one variable, its sign a script's on a line of its own.
        assert_eq!(read("∂L\n∂ht+1"), "∂L\n∂h_{t+1}");
        let pass = in_lines("xi");
        assert_eq!(pass.notes.len(), 1);
        assert!(matches!(
            pass.notes.as_slice(),
            [Warning { kind: WarningKind::PdfText { why: PdfWhy::Subscript, .. }, .. }]
        ));
    }

    #[test]
    fn letters_that_are_not_a_glued_subscript_are_left() {
        for text in
            ["f (x) = F (x)", "P (X | θ)", "dt", "x ∈ [a, b] and y", "λv = Av", "log(x)", "Var(X)", "QK"]
        {
            assert_eq!(read(text), text);
            assert!(in_lines(text).notes.is_empty(), "{text}");
        }
    }

    #[test]
    fn exponents_negations_transposes_and_names() {
        assert_eq!(read("λk e−λ"), "λ_{k} e^{−λ}");
        assert_eq!(read("p · 10−k ."), "p · 10^{−k} .");
        assert_eq!(read("DKL (P ∥Q) ̸= 0"), "D_{\\mathrm{KL}}(P ∥Q) \\neq  0");
        assert_eq!(read("E[X 2 ] = σ2 + (a − 2)2 p"), "E[X^{2} ] = σ^{2} + (a − 2)^{2} p");
        assert_eq!(read("[K + σ 2 I]−1 y = K(x, x∗ )T z"), "[K + σ^{2} I]^{−1} y = K(x, x^{\\ast} )^{T} z");
        assert_eq!(read("A = WΣW−1 ."), "A = WΣW^{−1} .");
        // A trigonometric name's glued digits are its power; a log's stay its base.
        assert_eq!(read("r(cos2 (θ) + sin2 (θ))"), "r(cos^{2} (θ) + sin^{2} (θ))");
        assert_ne!(read("log2 n"), "log^{2} n");
        // A letter's glued digits before a raised parenthesis are a power like it.
        assert_eq!(read("θ9 (1 − θ)4"), "θ^{9} (1 − θ)^{4}");
        assert!(!read("x1 (a + b)").contains('^'), "a parenthesis with no power after it");
        assert_eq!(read("V π (s) = V ∗ (s′ )"), "V^{π}(s) = V^{∗}(s′ )");
        assert_eq!(read("x ∼ N (0, 1)"), "x ∼ \\mathcal{N}(0, 1)");
        // Not after `∼`: applied to a pair, with a warning; a single argument is left.
        assert_eq!(
            read("P (N (0, 1) ∈ A) = N (a∗ , v)"),
            "P (\\mathcal{N}(0, 1) ∈ A) = \\mathcal{N}(a^{\\ast} , v)"
        );
        assert_eq!(read("N (x) + N(0, 1)"), "N (x) + N(0, 1)");
        // An integral's upper limit, and a sum's upper limit on a line of its own, are left.
        assert_eq!(read("Z 1\n0\n\nN−1\nX"), "Z 1\n0\n\nN−1\nX");
        assert_eq!(read("x ̸∈ [a, b]"), "x \\notin  [a, b]");
        assert_eq!(read("u⊤ v = (x − y)⊤ z"), "u^{\\top} v = (x − y)^{\\top} z");
        assert_eq!(read("Area(A) = Bernoulli(p)"), "\\mathrm{Area}(A) = \\mathrm{Bernoulli}(p)");
        // A capitalized word with a capital glued, before a script's space: a name, subscripted.
        assert_eq!(read("ProjX (x) = ClipC (w)"), "\\mathrm{Proj}_{X}(x) = \\mathrm{Clip}_{C}(w)");
        assert_eq!(read("∥x∥22 + ∥A∥2F = ∥y∥2 ∥z∥1"), "∥x∥_{2}^{2} + ∥A∥_{F}^{2} = ∥y∥^{2} ∥z∥_{1}");
        assert_eq!(read("[A]ki xi = [X]i+a,j+b , [x]2"), "[A]_{ki} x_{i} = [X]_{i+a,j+b} , [x]^{2}");
        // `P ∥Q` is no norm, and a bar that opens takes no script.
        assert_eq!(read("DKL (P ∥Q) ∥v∥∥w∥"), "D_{\\mathrm{KL}}(P ∥Q) ∥v∥∥w∥");
        let notes = in_lines("Area(A) = Bernoulli(p)").notes;
        assert_eq!(notes.len(), 1, "a known distribution needs no warning: {notes:?}");
        assert_eq!(read("−E(x,y)∼P [log p(x, y)]"), "−E_{(x,y)∼P}[log p(x, y)]");
        assert_eq!(read("E(x, y)∼P [f ]"), "E(x, y)∼P [f ]");
        assert_eq!(read("s = q⊤\ni kj + b"), "s = q^{\\top}_{i} k_{j} + b");
        // The next factor, not an index: `x⊤` / `Ax`.
        assert_eq!(read("x⊤\nAx = b"), "x^{\\top}\nAx = b");
        // Another small letter before a factor is the index too; before a relation, a row.
        assert_eq!(read("σ(u⊤\no vc )"), "σ(u^{\\top}_{o} v_{c} )");
        assert_eq!(read("a = x⊤\ny = 1"), "a = x^{\\top}\ny = 1");
    }
}
