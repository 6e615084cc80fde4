//! A big closing delimiter's power glued to its glyph: TeX sets the superscript of
//! `\right)^2` right after the tall glyph, with no space, so pdftotext gives them as one word
//! (`)2`, `)n`, `]⊤` with cmex10's glyph codes). Left so, the parser reads a factor after the
//! delimiter; after the lines are read the run after a closing glyph is written as its
//! superscript (`)^{2}`), with a warning.

use super::spans::Rewriter;
use super::table::table;
use super::Pass;
use crate::syntax::ast::Span;
use crate::syntax::error::{PdfWhy, Warning, WarningKind};

/// The longest power, in characters, read as glued to a closing glyph.
const POWER_CHARACTERS: usize = 4;

/// `text` with each closing big delimiter's glyph followed by a short power (digits, one
/// letter, `n−1`, `⊤`) written with that power as its superscript.
pub(super) fn read(text: &str) -> Pass {
    let table = table();
    let mut out = Rewriter::new(text);
    let mut notes = Vec::new();
    for (at, c) in text.char_indices() {
        let closing = c.is_control()
            && table
                .big_delimiters
                .get(&c.to_string())
                .is_some_and(|d| matches!(d.as_str(), ")" | "]" | "\\}"));
        if !closing {
            continue;
        }
        let start = at + c.len_utf8();
        let rest = text.get(start..).unwrap_or("");
        let end = start + rest.find(|c: char| c.is_whitespace() || c.is_control()).unwrap_or(rest.len());
        let power = text.get(start..end).unwrap_or("").trim_end_matches(['.', ',', ';']);
        let count = power.chars().count();
        let fits = count > 0
            && count <= POWER_CHARACTERS
            && power.chars().all(|p| p.is_alphanumeric() || matches!(p, '−' | '+' | '⊤' | '′'))
            && power.chars().next().is_some_and(|p| p.is_alphanumeric() || p == '⊤')
            && (count == 1 || power.chars().all(|p| !p.is_alphabetic() || p.is_lowercase()));
        if !fits {
            continue;
        }
        let power_end = start + power.len();
        out.replace(start, start, "^{");
        out.replace(power_end, power_end, "}");
        let found = text.get(at..power_end).unwrap_or("").to_string();
        let read =
            format!("{}^{{{power}}}", table.big_delimiters.get(&c.to_string()).map_or("", String::as_str));
        notes.push(Warning {
            kind: WarningKind::PdfText { found, read, why: PdfWhy::Exponent },
            span: Span::new(at, power_end),
        });
    }
    let (text, map) = out.finish();
    Pass { text, map, notes }
}

#[cfg(test)]
mod tests {
    use super::read;

    #[test]
    fn a_power_glued_to_a_closing_glyph_is_its_superscript() {
        assert_eq!(read("( a + b \u{1}2 .").text, "( a + b \u{1}^{2} .");
        assert_eq!(read("\u{13}n f.").text, "\u{13}^{n} f.");
        assert_eq!(read("\u{13}n−1").text, "\u{13}^{n−1}");
        // Nothing glued, punctuation, an opening glyph: left.
        for text in ["\u{13} 2", "\u{1}.", "\u{12}2", "\u{13}Hello"] {
            assert_eq!(read(text).text, text);
        }
    }
}
