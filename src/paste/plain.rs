//! Plain-text math as PDFs and web pages give it, read as its LaTeX would be: known names
//! written as plain letters (`softmax`, `ReLU`, `max`) become operator names, a combining
//! accent after a letter (`x̂`) becomes `\hat{x}`, ligatures and stray characters of text
//! extraction become what they stand for, a single `|` inside a probability's parenthesis
//! (`p(x|y)`) becomes `\mid`, and a capital sigma or pi with an index under it (`Σᵢ xᵢ`) is
//! the sum or product a web page writes so. Everything it knows is in `data/paste.toml`; a
//! short word that is as likely a product of letters (`tr`) is left alone, with a warning. In LaTeX too, a
//! name written in italic letters before its parenthesis is read as a name: a known one with a
//! capital first letter (`Softplus(x)`), or one in camel case (`FiLM(x)`, `KeepTopK(v, k)`), with
//! a note unless the notation knows it.

use super::spans::Rewriter;
use super::table::{table, Table};
use super::Pass;
use crate::syntax::ast::Span;
use crate::syntax::error::{PdfWhy, Warning, WarningKind};

/// Rewrites the plain-text math of `text` as LaTeX.
pub(super) fn as_latex(text: &str) -> Pass {
    let mut scan =
        Scan { text, table: table(), out: Rewriter::new(text), notes: Vec::new(), bars: Vec::new() };
    super::walk_chars(text, |at, c| scan.step(at, c));
    let (text, map) = scan.out.finish();
    Pass { text, map, notes: scan.notes }
}

/// The state of one left-to-right scan.
struct Scan<'a> {
    text: &'a str,
    table: &'a Table,
    out: Rewriter<'a>,
    notes: Vec<Warning>,
    /// Offsets of `|` that are conditioning bars, found at their parenthesis.
    bars: Vec<usize>,
}

impl Scan<'_> {
    /// Handles the character `c` at `at`; the offset to go on from.
    fn step(&mut self, at: usize, c: char) -> usize {
        let next = at + c.len_utf8();
        match c {
            '\\' => self.command(at),
            c if c.is_ascii_alphabetic() => self.word(at),
            '(' => {
                self.conditioning(at);
                next
            }
            '|' if self.bars.contains(&at) => {
                self.out.replace(at, next, " \\mid ");
                next
            }
            // `Σᵢ xᵢ`, `Π_k p_k`: a capital sigma or pi with an index under it, as a web page
            // writes a sum or a product without the big operator's glyph.
            'Σ' | 'Π' if self.text.get(next..).and_then(|r| r.chars().next()).is_some_and(is_index_below) =>
            {
                self.out.replace(at, next, if c == 'Σ' { "\\sum" } else { "\\prod" });
                next
            }
            c => {
                let key = c.to_string();
                let accented = self
                    .text
                    .get(next..)
                    .and_then(|a| a.chars().next())
                    .is_some_and(|m| self.table.combining.contains_key(&m.to_string()));
                let letter = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphabetic());
                // A ligature starts a word or goes on with one (`\u{1c}nite`, `signi\u{1c}cance`).
                let in_word = letter(self.text.get(next..).and_then(|a| a.chars().next()));
                if let Some(letters) = self.table.ligature_codes.get(&key).filter(|_| in_word) {
                    self.out.replace(at, next, letters);
                } else if let Some(accent) = self.table.combining.get(&key) {
                    self.accent(at, c, accent);
                } else if let Some(plain) = self.table.characters.get(&key).filter(|_| !accented) {
                    self.out.replace(at, next, plain);
                }
                next
            }
        }
    }

    /// A command at `at`: skipped, with its braced argument when that is read as written.
    fn command(&mut self, at: usize) -> usize {
        let rest = self.text.get(at + 1..).unwrap_or("");
        let letters = rest.bytes().take_while(u8::is_ascii_alphabetic).count();
        let mut end =
            at + 1 + if letters == 0 { rest.chars().next().map_or(0, char::len_utf8) } else { letters };
        if self.text.get(end..).is_some_and(|r| r.starts_with('*')) {
            end += 1;
        }
        let name = self.text.get(at..end).unwrap_or("");
        if !self.table.literal_arguments.iter().any(|l| l == name) {
            return end;
        }
        let after = self.text.get(end..).unwrap_or("");
        let spaces = after.len() - after.trim_start().len();
        match after.trim_start().strip_prefix('{') {
            Some(_) => closing_brace(self.text, end + spaces).unwrap_or(self.text.len()),
            None => end,
        }
    }

    /// A run of ASCII letters at `at`: a known name becomes its LaTeX; a letter before a
    /// combining accent takes the accent.
    fn word(&mut self, at: usize) -> usize {
        let rest = self.text.get(at..).unwrap_or("");
        let end = at + rest.bytes().take_while(u8::is_ascii_alphabetic).count();
        let after = self.text.get(end..).unwrap_or("");
        if let Some(mark) = after.chars().next().filter(|m| self.table.combining.contains_key(&m.to_string()))
        {
            return self.accent_letter(end, mark);
        }
        // A script's label (`x_max`, `x_{max}`) is not a name.
        let before = self.text.get(..at).unwrap_or("");
        if before.ends_with(['_', '^']) || before.ends_with("_{") || before.ends_with("^{") {
            return end;
        }
        let word = self.text.get(at..end).unwrap_or("");
        // `log2`, `log10`: a log whose base TeX set right after it (`\log_2`).
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 && self.table.based_names.iter().any(|n| n == word) {
            if let Some(latex) = self.table.names.get(word) {
                let base = after.get(..digits).unwrap_or("");
                self.out.replace(at, end + digits, &format!("{latex}_{{{base}}}"));
                return end + digits;
            }
        }
        let called = after.trim_start().starts_with('(');
        if let Some(latex) = self.table.names.get(word) {
            self.out.replace(at, end, latex);
        } else if let Some(latex) = capitalised_name(self.table, word).filter(|_| called) {
            self.out.replace(at, end, latex);
        } else if is_camel_case(word) && called {
            // As a PDF's text is read (`flat.rs`): the name, with a note unless it is a known one.
            let read = format!("\\mathrm{{{word}}}");
            self.out.replace(at, end, &read);
            if !super::is_known_name(word) {
                let kind = WarningKind::PdfText { found: word.to_string(), read, why: PdfWhy::Name };
                self.notes.push(Warning { kind, span: Span::new(at, end) });
            }
        } else if let Some(latex) = self.table.names_before_parenthesis.get(word) {
            if called {
                self.out.replace(at, end, latex);
            } else {
                let kind = WarningKind::AmbiguousName { word: word.to_string(), latex: latex.clone() };
                self.notes.push(Warning { kind, span: Span::new(at, end) });
            }
        }
        end
    }

    /// The last letter before `end` takes the combining `mark` after it.
    fn accent_letter(&mut self, end: usize, mark: char) -> usize {
        if let Some(accent) = self.table.combining.get(&mark.to_string()) {
            let letter = end.saturating_sub(1);
            let base = self.text.get(letter..end).unwrap_or("");
            self.out.replace(letter, end + mark.len_utf8(), &format!("{accent}{{{base}}}"));
        }
        end + mark.len_utf8()
    }

    /// A combining `mark` at `at` after a character that is not an ASCII letter (`θ̂`); a
    /// character that PDF text gives in place of a letter is that letter (`µ̂`, the micro
    /// sign, is μ̂).
    fn accent(&mut self, at: usize, mark: char, accent: &str) {
        let Some(base) = self.text.get(..at).and_then(|b| b.chars().next_back()) else { return };
        if base.is_alphanumeric() {
            let start = at - base.len_utf8();
            let key = base.to_string();
            let letter = self.table.characters.get(&key).unwrap_or(&key);
            self.out.replace(start, at + mark.len_utf8(), &format!("{accent}{{{letter}}}"));
        }
    }

    /// At a `(` after a probability's callee (`p`, `p_θ`, `\mathbb{P}`): a single `|` at the
    /// parenthesis' own level is the conditioning bar.
    fn conditioning(&mut self, open: usize) {
        // `P (x | y)`: pdftotext leaves the space of P's italic correction before the
        // parenthesis (and in LaTeX a space there means nothing).
        let tight = self.text.get(..open).map_or(open, |b| b.trim_end_matches(' ').len());
        let callee_end = without_subscript(self.text, tight);
        let before = self.text.get(..callee_end).unwrap_or("");
        let is_callee = self.table.probability_callees.iter().any(|callee| {
            before.strip_suffix(callee.as_str()).is_some_and(|rest| {
                callee.starts_with('\\') || !rest.ends_with(|c: char| c.is_ascii_alphabetic() || c == '\\')
            })
        });
        if !is_callee {
            return;
        }
        if let [bar] = bars_at_level(self.text, open).as_slice() {
            self.bars.push(*bar);
        }
    }
}

/// Whether `c` sets an index under what stands before it: `_` or a Unicode subscript.
fn is_index_below(c: char) -> bool {
    c == '_' || crate::syntax::names::is_unicode_subscript(c)
}

/// A known name written with a capital first letter before `(` (`Softplus(x)`, `Sigmoid(z)`):
/// the name's LaTeX.
fn capitalised_name<'t>(table: &'t Table, word: &str) -> Option<&'t String> {
    let mut letters = word.chars();
    let first = letters.next()?;
    if !first.is_ascii_uppercase() || !letters.all(|c| c.is_ascii_lowercase()) {
        return None;
    }
    table.names.get(&word.to_ascii_lowercase())
}

/// Whether a run of letters is a name written in camel case (`FiLM`, `KeepTopK`,
/// `StandardNormal`): four letters or more, a capital first, small letters, and a capital
/// after a small letter. Letters multiplied are rarely written so.
fn is_camel_case(word: &str) -> bool {
    let bytes = word.as_bytes();
    let capital_after_small =
        bytes.windows(2).any(|w| matches!(w, [a, b] if a.is_ascii_lowercase() && b.is_ascii_uppercase()));
    bytes.len() >= 4 && bytes.first().is_some_and(u8::is_ascii_uppercase) && capital_after_small
}

/// Where the callee before `at` ends once a subscript (`_θ`, `_{\theta}`) is set aside.
fn without_subscript(text: &str, at: usize) -> usize {
    let before = text.get(..at).unwrap_or("");
    if before.ends_with('}') {
        let mut depth = 0usize;
        for (i, c) in before.char_indices().rev() {
            match c {
                '}' => depth += 1,
                '{' if depth == 1 => {
                    return if before.get(..i).is_some_and(|b| b.ends_with('_')) { i - 1 } else { at }
                }
                '{' => depth = depth.saturating_sub(1),
                _ => {}
            }
        }
        return at;
    }
    let mut chars = before.char_indices().rev();
    match (chars.next(), chars.next()) {
        (Some((_, script)), Some((underscore, '_'))) if script.is_alphanumeric() => underscore,
        _ => at,
    }
}

/// The offsets of the `|` at the level of the parenthesis opened at `open` (not `\|`), up to
/// its closing `)`.
fn bars_at_level(text: &str, open: usize) -> Vec<usize> {
    let mut bars = Vec::new();
    let mut depth = 0usize;
    let mut escaped = false;
    for (i, c) in text.get(open..).unwrap_or("").char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    break;
                }
            }
            '|' if depth == 1 => bars.push(open + i),
            _ => {}
        }
    }
    bars
}

/// The offset just past the `}` that closes the `{` at `open`.
pub(super) fn closing_brace(text: &str, open: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut escaped = false;
    for (i, c) in text.get(open..)?.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '{' => depth += 1,
            '}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return Some(open + i + 1);
                }
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn latex(text: &str) -> String {
        as_latex(text).text
    }

    #[test]
    fn names_from_a_pdf_become_operator_names() {
        assert_eq!(latex("softmax(QKᵀ/√dₖ)V"), "\\mathrm{softmax}(QKᵀ/√dₖ)V");
        assert_eq!(latex("ReLU(x) = max(0, x)"), "\\mathrm{ReLU}(x) = \\max(0, x)");
        assert_eq!(latex("log p(x)"), "\\log p(x)");
        // A log's base set right after it; a name's digits otherwise stay (`x2` is no name).
        assert_eq!(latex("pi log2(pi)"), "pi \\log_{2}(pi)");
        assert_eq!(latex("max2"), "\\max2");
    }

    #[test]
    fn latex_already_written_is_left_alone() {
        for text in [
            "\\mathrm{softmax}(x)",
            "\\text{max pooling}",
            "\\log x",
            "x_{max}",
            "\\begin{cases}a\\end{cases}",
            "mask",
        ] {
            assert_eq!(latex(text), text);
        }
    }

    #[test]
    fn accents_ligatures_and_bars() {
        assert_eq!(latex("x\u{302} + y\u{304}"), "\\hat{x} + \\bar{y}");
        assert_eq!(latex("θ\u{302}"), "\\hat{θ}");
        assert_eq!(latex("p(x|y)"), "p(x \\mid y)");
        assert_eq!(latex("p_θ(x|z)"), "p_θ(x \\mid z)");
        assert_eq!(latex("f(x|y)"), "f(x|y)");
        assert_eq!(latex("p(|x|)"), "p(|x|)");
        assert_eq!(latex("ﬁ"), "fi");
        assert_eq!(latex("signi\u{1c}cance = 1 − α for \u{1c}nite"), "significance = 1 − α for finite");
        // Not inside a word: no ligature.
        assert_eq!(latex("a \u{1c} b"), "a \u{1c} b");
    }

    #[test]
    fn a_capital_sigma_or_pi_with_an_index_below_is_a_sum_or_a_product() {
        assert_eq!(latex("μ = (1/n) Σᵢ xᵢ"), "μ = (1/n) \\sumᵢ xᵢ");
        assert_eq!(latex("p(x) = Π_k p(x_k)"), "p(x) = \\prod_k p(x_k)");
        assert_eq!(latex("Σⱼ aⱼ"), "\\sumⱼ aⱼ");
        assert_eq!(latex("Σ = UΛUᵀ"), "Σ = UΛUᵀ");
    }

    #[test]
    fn a_short_name_away_from_a_parenthesis_is_a_warning() {
        assert_eq!(latex("tr(A)"), "\\mathrm{tr}(A)");
        let pass = as_latex("tr A");
        assert_eq!(pass.text, "tr A");
        assert_eq!(pass.notes.len(), 1);
    }
}
