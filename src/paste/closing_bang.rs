//! TeX's tallest closing parenthesis as PDF text gives it: cmex10 sets its two largest right
//! parentheses at codes 0x21 and 0x22, which pdftotext, finding no Unicode for them, gives as
//! `!` and `"`. A factorial's `!` is set on its number's line, glued to it (`n!`), so a `!` that
//! begins a line is the delimiter: it is written as the small glyph the big-delimiter passes
//! read (U+0001), with a warning, before they run. Lines of nothing but delimiter glyphs above
//! the display's first line are left to those passes, which set such a pair around what it
//! encloses (`big_delimiters.rs`).

use super::spans::Rewriter;
use super::Pass;
use crate::syntax::ast::Span;
use crate::syntax::error::{PdfWhy, Warning, WarningKind};

/// The glyph the big-delimiter passes read as a closing parenthesis (`data/paste.toml`).
const CLOSING_GLYPH: &str = "\u{1}";

/// `text` with each `!` that begins a line (after spaces) written as a big closing parenthesis.
pub(super) fn read(text: &str) -> Pass {
    let mut out = Rewriter::new(text);
    let mut notes = Vec::new();
    let mut line_start = 0;
    let mut below_content = false;
    for line in text.split_inclusive('\n') {
        let indent = line.len() - line.trim_start_matches([' ', '\t']).len();
        let at = line_start + indent;
        let glyphs_only = line.chars().all(|c| c.is_whitespace() || c.is_control() || c == '!');
        if below_content && text.get(at..).is_some_and(|rest| rest.starts_with('!')) {
            out.replace(at, at + 1, CLOSING_GLYPH);
            notes.push(Warning {
                kind: WarningKind::PdfText { found: "!".into(), read: ")".into(), why: PdfWhy::ClosingBang },
                span: Span::new(at, at + 1),
            });
        }
        below_content |= !glyphs_only;
        line_start += line.len();
    }
    let (text, map) = out.finish();
    Pass { text, map, notes }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bang_that_begins_a_line_is_a_closing_parenthesis_and_one_after_a_number_is_not() {
        let pass = read("xi\n\n!2\nn! + 1");
        assert_eq!(pass.text, "xi\n\n\u{1}2\nn! + 1");
        assert_eq!(pass.notes.len(), 1);
        // Above the display's first line, a lone glyph is left to the big-delimiter passes.
        let above = read("!\nN\nexp −");
        assert_eq!(above.text, "!\nN\nexp −");
        assert!(above.notes.is_empty());
    }
}
