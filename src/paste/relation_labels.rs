//! A label TeX stacks over a relation, as pdftotext gives it: `\stackrel{\textrm{def}}{=}`
//! comes as the word `def` on a line above the line of its `=` (alone, or before the first
//! words of that line: a numerator's, a sum's upper limit). Left where it is, the word breaks
//! the reading of those lines (a fraction's numerator starts with `def`), so each label of
//! `relation_labels` (`data/paste.toml`) standing as a word of its own, with a `=` on a later
//! line, is taken off with a warning; that `=` is read as a plain `=`. One left-to-right walk:
//! each `=` takes at most one label.

use super::spans::Rewriter;
use super::table::table;
use super::Pass;
use crate::syntax::ast::Span;
use crate::syntax::error::{PdfWhy, Warning, WarningKind};

/// Takes off the labels over a relation in `text`, each with a warning.
pub(super) fn take_off(text: &str) -> Pass {
    let labels = &table().relation_labels;
    let mut out = Rewriter::new(text);
    let mut notes = Vec::new();
    // Offsets of `=` already given a label: each label takes the first `=` after its line.
    let mut taken_up_to = 0;
    let mut at = 0;
    while at < text.len() {
        let rest = text.get(at..).unwrap_or("");
        let word_len = rest.find(char::is_whitespace).unwrap_or(rest.len());
        if word_len == 0 {
            at += rest.chars().next().map_or(1, char::len_utf8);
            continue;
        }
        let word = rest.get(..word_len).unwrap_or("");
        let end = at + word_len;
        if labels.iter().any(|l| l == word) && at >= taken_up_to {
            if let Some(relation) = relation_below(text, end) {
                // The spaces after the label go; at the start of the text, its blank lines too.
                let after = text.get(end..).unwrap_or("");
                let first = text.get(..at).unwrap_or("").trim().is_empty();
                let kept = if first { after.trim_start() } else { after.trim_start_matches(' ') };
                let spaces = after.len() - kept.len();
                out.replace(at, end + spaces, "");
                let found = word.to_string();
                let read = format!("\\stackrel{{\\textrm{{{word}}}}}{{=}}");
                notes.push(Warning {
                    kind: WarningKind::PdfText { found, read, why: PdfWhy::OverRelation },
                    span: Span::new(at, end),
                });
                taken_up_to = relation + 1;
            }
        }
        at = end;
    }
    let (text, map) = out.finish();
    Pass { text, map, notes }
}

/// The offset of the first `=` after `from` that stands on a later line than `from`'s.
fn relation_below(text: &str, from: usize) -> Option<usize> {
    let rest = text.get(from..)?;
    let line_end = rest.find('\n')?;
    let relation = rest.get(line_end..)?.find('=')?;
    Some(from + line_end + relation)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_label_above_its_relation_is_taken_off_with_a_warning() {
        let pass = take_off("def p(xi )\n\nβi =\n\nq(xi )\n\n.");
        assert_eq!(pass.text, "p(xi )\n\nβi =\n\nq(xi )\n\n.");
        assert_eq!(pass.notes.len(), 1);
        assert_eq!(take_off("def\n\nF (e, p) = P").text, "F (e, p) = P");
        assert_eq!(take_off("m\n\ndef\n\nM =").text, "m\n\n\n\nM =");
        // Two labels, two relations, in turn.
        let pass = take_off("def 1\n\nµ̂ =\n\nn\n\ndef 1\n\nσ̂ 2 =\n\nn");
        assert_eq!(pass.text, "1\n\nµ̂ =\n\nn\n\n1\n\nσ̂ 2 =\n\nn");
        assert_eq!(pass.notes.len(), 2);
    }

    #[test]
    fn a_word_with_no_relation_below_it_is_left() {
        for text in ["x = def", "def f(x) = 1", "undef\nx = 1", "def\nx < 1", "defx\n=", "def"] {
            assert_eq!(take_off(text).text, text, "{text:?}");
            assert!(take_off(text).notes.is_empty(), "{text:?}");
        }
    }
}
