//! A tall root sign as pdftotext gives it: TeX builds `\sqrt{…}` over a display sum or fraction
//! from cmex10's pieces, which pdftotext gives as letters: `v` (the top) on a line of its own,
//! `u` (the extension) glued before each line the root sign passes (`u n`, `uX`, `u1 X`), and
//! `t` (the foot) as the last word of the baseline's line (`∥x∥2 = t`). Before the lines are
//! read ([`pieces`]) the pieces are taken off, the baseline's words before the foot set first
//! (the root sign stands after them), and a mark left where the root opens; after
//! (`close`), the mark opens `\sqrt{`, closed before the display's final punctuation. A
//! warning: the text says where the root sign starts, not where it ends.

use super::spans::{Composer, Rewriter};
use super::Pass;
use crate::syntax::ast::Span;
use crate::syntax::error::{PdfWhy, Warning, WarningKind};

/// Where the root opens, between [`pieces`] and [`close`]: a private-use character.
const MARK: char = '\u{E000}';

/// The most lines a root sign's pieces are looked for on.
const PIECE_LINES: usize = 8;

/// `text` with a tall root sign's pieces taken off and its mark left, when its first line is
/// the top piece `v` and a later line ends with the foot `t`; `None` otherwise.
pub(super) fn pieces(text: &str) -> Option<Pass> {
    if text.contains(MARK) {
        return None;
    }
    let mut lines = Vec::new();
    let mut at = 0;
    for line in text.split('\n') {
        lines.push((at, at + line.len()));
        at += line.len() + 1;
    }
    let get = |(a, b): (usize, usize)| text.get(a..b).unwrap_or("");
    let (&top, rest) = lines.split_first()?;
    if get(top).trim() != "v" {
        return None;
    }
    // The foot: a word `t` of its own, or glued after a relation (`s=t`).
    let foot_in = |l: (usize, usize)| {
        let mut at = l.0;
        for word in get(l).split(' ') {
            let glued = word.strip_suffix('t').is_some_and(|r| r.ends_with(['=', '≈', '≤', '≥']));
            if word == "t" || glued {
                return Some(at + word.len() - 1);
            }
            at += word.len() + 1;
        }
        None
    };
    let (foot_at, foot) =
        rest.iter().take(PIECE_LINES).enumerate().find_map(|(n, &l)| foot_in(l).map(|f| (n, (f, f + 1))))?;
    let foot_line = *rest.get(foot_at)?;
    let between = rest.get(..foot_at)?;
    let mut out = Composer::new(text);
    let before = get((foot_line.0, foot.0)).trim_end();
    if !before.is_empty() {
        out.copy(foot_line.0, foot_line.0 + before.len());
        out.write("\n\n", foot.0, foot.0);
    }
    out.write(&MARK.to_string(), foot.0, foot.1);
    out.write("\n\n", foot.1, foot.1);
    let notes = vec![Warning {
        kind: WarningKind::PdfText {
            found: "v … t".to_string(),
            read: "\\sqrt{…}".to_string(),
            why: PdfWhy::Root,
        },
        span: Span::new(top.0, foot.1),
    }];
    for &line in between {
        let start = line.0 + (get(line).len() - get(line).trim_start().len());
        let skip = usize::from(extension(get((start, line.1))));
        let piece = get((start + skip, line.1)).trim();
        if !piece.is_empty() {
            let from = start
                + skip
                + (get((start + skip, line.1)).len() - get((start + skip, line.1)).trim_start().len());
            out.copy(from, from + piece.len());
            out.write("\n", line.1, line.1);
        }
    }
    // What follows the foot on its line starts the root's content; the root's box reaches
    // lower than a sum's lower limit beside it, so pdftotext gives the summand's line before
    // the limit's (`x2i .` / `i=1`): the limit goes right under the sign.
    let rest_of_foot = get((foot.1, foot_line.1)).trim();
    let mut after: Vec<(usize, usize)> = Vec::new();
    if !rest_of_foot.is_empty() {
        let from = foot_line.1 - get((foot.1, foot_line.1)).trim_start().len();
        after.push((from, from + rest_of_foot.len()));
    }
    after.extend(rest.get(foot_at + 1..).unwrap_or_default().iter().filter(|&&l| !get(l).trim().is_empty()));
    let limits = |l: (usize, usize)| {
        let words: Vec<&str> = get(l).split_whitespace().collect();
        !words.is_empty() && words.iter().all(|w| w.contains(['=', '∈']) && w.chars().count() <= 12)
    };
    if let [body, lower] = after.as_slice() {
        if limits(*lower) && !limits(*body) {
            after.swap(0, 1);
        }
    }
    for (n, (a, b)) in after.iter().enumerate() {
        if n > 0 {
            out.write("\n", *a, *a);
        }
        out.copy(*a, *b);
    }
    let (text, map) = out.finish();
    Some(Pass { text, map, notes })
}

/// Whether `line` starts with the extension piece `u`: alone, before a space, a capital (a
/// sum's sign, `uX`), a digit (`u1 X`), or a letter that is a sum's upper limit (`um X`).
fn extension(line: &str) -> bool {
    let Some(rest) = line.strip_prefix('u') else { return false };
    let mut chars = rest.chars();
    match chars.next() {
        None | Some(' ') => true,
        Some(c) if !c.is_lowercase() => true,
        Some(_) => chars.as_str().starts_with(' ') && chars.as_str().trim().chars().count() == 1,
    }
}

/// Opens `\sqrt{` at the mark [`pieces`] left and closes it before the final punctuation.
pub(super) fn close(text: &str) -> Pass {
    let mut out = Rewriter::new(text);
    if let Some(at) = text.find(MARK) {
        let spaced = text.get(at + MARK.len_utf8()..).is_some_and(|a| a.starts_with(' '));
        out.replace(at, at + MARK.len_utf8() + usize::from(spaced), "\\sqrt{");
        let end = text.trim_end_matches(['.', ',', ';', ' ', '\n']).len().max(at + MARK.len_utf8());
        out.replace(end, end, "}");
    }
    let (text, map) = out.finish();
    Pass { text, map, notes: Vec::new() }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> String {
        let Some(pass) = pieces(text) else { return text.to_string() };
        let laid = crate::paste::layout::read(&pass.text);
        close(&laid.text).text
    }

    #[test]
    fn a_root_over_a_sum_from_its_pieces() {
        assert_eq!(read("v\nu n\nuX\n∥x∥ = t\nx2 .\ni=1"), "∥x∥ = \\sqrt{\\sum_{i=1}^{n} x2} .");
        assert_eq!(
            read("v\nu\nu 1 X\nE = t\n(a − b)2\n|T |\nt∈T"),
            "E = \\sqrt{\\frac{1}{|T |} \\sum_{t∈T} (a − b)2}"
        );
        assert_eq!(read("v\nuK\nuX\nd = t (a − b)2 .\nk=1"), "d = \\sqrt{\\sum_{k=1}^{K} (a − b)2} .");
        for text in ["v = t", "v\nu = at", "u\nv\nt"] {
            assert_eq!(read(text), text);
        }
    }
}
