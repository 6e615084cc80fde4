//! Words of prose in a PDF's text (`with equality if and only if`, `and`, `otherwise`): a
//! LaTeX source writes them in `\text{…}`, which a PDF's text cannot show, so without this
//! pass they would be read letter by letter as a product. A run of words is prose when each
//! is a word of prose (`prose_words` in `data/notation.toml`) or a long lower-case word the
//! notation does not know as a name, and at least one is a word of prose; a lone word is
//! prose only if it is one of `prose_alone` (`data/paste.toml`), words never read as letters.
//! Each run is written `\text{…}`, with a note where a long word made it prose (a guess).

use super::spans::Rewriter;
use super::table::table;
use super::Pass;
use crate::meaning::notation::{has, Notation};
use crate::syntax::ast::Span;
use crate::syntax::error::{PdfWhy, Warning, WarningKind};

/// The shortest word, in letters, that counts as prose without being a word of prose.
const LONG_WORD: usize = 4;

/// Writes the runs of prose words in `text` as `\text{…}`.
pub(super) fn as_text(text: &str) -> Pass {
    let mut out = Rewriter::new(text);
    let mut notes = Vec::new();
    let words = words(text);
    let mut i = 0;
    while let Some(rest) = words.get(i..).filter(|rest| !rest.is_empty()) {
        let run = rest.iter().take_while(|w| is_prose_like(w.2)).count();
        let run_words = rest.get(..run).unwrap_or_default();
        let span = run_words.first().zip(run_words.last()).map(|(first, last)| (first.0, last.1));
        let prose = joined_by_spaces(text, run_words) && is_prose(run_words) && stands_apart(text, run_words);
        if let Some((start, end)) = span.filter(|_| prose) {
            let found = text.get(start..end).unwrap_or("");
            let read = format!("\\text{{ {found} }}");
            out.replace(start, end, &read);
            // Words of prose only (`otherwise`, `for all`) are no guess; a long word among them is.
            if !run_words.iter().all(|(_, _, w)| is_prose_word(w)) {
                let kind = WarningKind::PdfText { found: found.to_string(), read, why: PdfWhy::Prose };
                notes.push(Warning { kind, span: Span::new(start, end) });
            }
        }
        i += run.max(1);
    }
    let (text, map) = out.finish();
    Pass { text, map, notes }
}

/// The runs of ASCII letters of `text` with where each starts and ends.
fn words(text: &str) -> Vec<(usize, usize, &str)> {
    let mut found = Vec::new();
    let mut start = None;
    for (at, c) in text.char_indices().chain(std::iter::once((text.len(), ' '))) {
        match (start, c.is_ascii_alphabetic()) {
            (None, true) => start = Some(at),
            (Some(begin), false) => {
                found.push((begin, at, text.get(begin..at).unwrap_or("")));
                start = None;
            }
            _ => {}
        }
    }
    found
}

/// Whether a word may stand in a run of prose: a word of prose, or a long lower-case word that
/// is no name the notation or the paste table knows.
fn is_prose_like(word: &str) -> bool {
    let notation = Notation::shipped();
    let prose = is_prose_word(word);
    let long = word.len() >= LONG_WORD
        && word.chars().all(|c| c.is_ascii_lowercase())
        && !table().names.contains_key(word)
        && !table().names_before_parenthesis.contains_key(word)
        && !has(&notation.function_names, word)
        && !has(&notation.italic_words, word)
        && !has(&notation.distribution_names, word);
    prose || long
}

/// Whether `word` is a word of prose (`prose_words` of `data/notation.toml`).
fn is_prose_word(word: &str) -> bool {
    word.len() >= 2 && has(&Notation::shipped().prose_words, &word.to_ascii_lowercase())
}

/// Whether a run of words is prose: two or more with a word of prose among them, or one of
/// `prose_alone`.
fn is_prose(run: &[(usize, usize, &str)]) -> bool {
    match run {
        [(_, _, word)] => table().prose_alone.iter().any(|w| w == word),
        _ => run.iter().any(|(_, _, w)| is_prose_word(w)),
    }
}

/// Whether only spaces stand between the words of a run.
fn joined_by_spaces(text: &str, run: &[(usize, usize, &str)]) -> bool {
    run.windows(2).all(|pair| match pair {
        [(_, end, _), (start, _, _)] => {
            text.get(*end..*start).is_some_and(|gap| gap.chars().all(|c| c == ' '))
        }
        _ => true,
    })
}

/// Whether a run stands apart from the formula around it: a space, a line's end or a comma
/// on each side, no command's backslash, script or brace glued to it.
fn stands_apart(text: &str, run: &[(usize, usize, &str)]) -> bool {
    let (Some(first), Some(last)) = (run.first(), run.last()) else { return false };
    let before = text.get(..first.0).and_then(|t| t.chars().next_back());
    let after = text.get(last.1..).and_then(|t| t.chars().next());
    let apart_before = before.is_none_or(|c| c == ' ' || c == '\n' || c == ',');
    let apart_after = after.is_none_or(|c| c == ' ' || c == '\n' || c == ',' || c == '.');
    apart_before && apart_after
}

#[cfg(test)]
mod tests {
    fn latex(text: &str) -> String {
        super::as_text(text).text
    }

    #[test]
    fn a_phrase_of_prose_words_becomes_text() {
        assert_eq!(
            latex("H(X) ≤ −E [log q(x)], with equality if and only if P = Q."),
            "H(X) ≤ −E [log q(x)], \\text{ with equality if and only if } P = Q."
        );
        assert_eq!(latex("xi and σ̂2 n = 1"), "xi \\text{ and } σ̂2 n = 1");
    }

    #[test]
    fn letters_and_names_stay_math() {
        assert_eq!(latex("a b + xi yi"), "a b + xi yi");
        assert_eq!(latex("softmax(x) = exp x"), "softmax(x) = exp x");
        assert_eq!(latex("in the"), "\\text{ in the }");
        assert_eq!(latex("x in y"), "x in y");
    }
}
