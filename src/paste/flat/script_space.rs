//! Glued subscripts of any letters, shown by TeX's space after a script: pdftotext sets a
//! subscript right after its letter (`bq` for b_q, `Whq` for W_{hq}), and only the index
//! letters of `glued_index_letters` say so by themselves. But TeX sets a small space after
//! every script, which pdftotext keeps as a space where a display has none: before a comma, a
//! closing bracket, a full stop (`bq ,`, `bh ),`, `sw )/sw ⌋`, `uia .`). Such a word shows its
//! letters after the first a script, and the text's other words with the same script are read
//! so too (`nh − kh + ph + sh )`); with such a script shown, a capital with two small letters
//! glued (`Whh`, `Wxh`, the last of capitals set together: `HWhq`) is read as a capital with a two-letter subscript as well. Each reading
//! is a warning. So is the last term of a series written with dots whose other terms have
//! digits glued (`w1 x1 + · · · + wd xd`): its glued letter is the index that runs to it.

use super::Scan;
use crate::syntax::error::PdfWhy;

/// The most small letters read as one glued script shown by a script's space.
const SCRIPT_LETTERS: usize = 3;

/// What TeX sets no space before in a display, so that a space before it is a script's.
const AFTER_SCRIPT_SPACE: &[char] = &[')', ']', ',', '.', ';', '⌋', '⌉', '}'];

/// The scripts that TeX's space after a script shows in `text`: each run of small letters
/// glued after a letter in a word followed by a space and a closing character
/// ([`AFTER_SCRIPT_SPACE`]), once. The word's letter may be any (`bq ,`, `ϵn )`); a word that
/// ends in `f` is left, f's italic correction sets the same space (`(af )`), and so is a
/// differential (`dx .`). Linear: each closing character looks back one word.
pub(super) fn spaced_scripts(text: &str, known: impl Fn(&str) -> bool) -> Vec<String> {
    let mut scripts: Vec<String> = Vec::new();
    for (at, _) in text.match_indices(' ') {
        let closing = text.get(at + 1..).and_then(|a| a.chars().next());
        if !closing.is_some_and(|n| AFTER_SCRIPT_SPACE.contains(&n)) {
            continue;
        }
        // The word before the space, looked back on no further than a script's letter can be.
        let before = text.get(..at).unwrap_or("");
        let letters: Vec<char> =
            before.chars().rev().take_while(|c| c.is_alphanumeric()).take(SCRIPT_LETTERS + 2).collect();
        if letters.len() > SCRIPT_LETTERS + 1 {
            continue;
        }
        let word =
            before.get(before.len() - letters.iter().map(|c| c.len_utf8()).sum::<usize>()..).unwrap_or("");
        if let Some((_, script)) = split_script(word).filter(|_| !known(word)) {
            if !scripts.iter().any(|s| s == script) {
                scripts.push(script.to_string());
            }
        }
    }
    scripts
}

/// `bq` → (`b`, `q`), `Whq` → (`W`, `hq`): a letter and then one to [`SCRIPT_LETTERS`] small
/// Latin letters, not ending in `f`, not a differential (`dx`).
fn split_script(word: &str) -> Option<(&str, &str)> {
    let first = word.chars().next().filter(|c| c.is_alphabetic())?;
    let (base, script) = word.split_at(first.len_utf8());
    let letters = script.chars().all(|c| c.is_ascii_lowercase());
    let count = script.chars().count();
    let usable = letters && (1..=SCRIPT_LETTERS).contains(&count) && !script.ends_with('f') && base != "d";
    usable.then_some((base, script))
}

/// Letters indexed by digits in a series written with dots (`w1 x1 + · · · + wd xd`,
/// `w1 , w2 , . . . , wN`): each letter that a word of the letter and digits shows, when the
/// text has dots; its last term's glued letter is then an index too ([`Scan::series_end`]).
pub(super) fn series_letters(text: &str) -> Vec<char> {
    let mut letters = Vec::new();
    if !SERIES_DOTS.iter().any(|dots| text.contains(dots)) {
        return letters;
    }
    for word in text.split(|c: char| !c.is_alphanumeric()) {
        let mut chars = word.chars();
        let Some(letter) = chars.next().filter(|c| c.is_alphabetic()) else { continue };
        let digits = chars.as_str();
        if !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit()) && !letters.contains(&letter) {
            letters.push(letter);
        }
    }
    letters
}

/// The dots of a series as pdftotext gives `\ldots` and `\cdots`.
const SERIES_DOTS: &[&str] = &[". . .", "· · ·", "…", "⋯"];

impl Scan<'_> {
    /// `wd`, `wN`, `ϵN`: a letter of [`series_letters`] with one letter glued, the last term
    /// of its series (w_d). Whether it was read so.
    pub(super) fn series_end(&mut self, at: usize, end: usize, word: &str) -> bool {
        let mut chars = word.chars();
        let (Some(base), Some(index), None) = (chars.next(), chars.next(), chars.next()) else {
            return false;
        };
        if !self.series_letters.contains(&base) || !index.is_ascii_alphabetic() {
            return false;
        }
        let read = format!("{base}_{{{index}}}");
        self.rewrite(at, end, &read, PdfWhy::Subscript);
        true
    }

    /// `bq`, `nh`, `Whh`: a word whose script the text shows elsewhere with a script's space
    /// ([`spaced_scripts`]), or, where the text shows any, a capital with two small letters
    /// glued: the letter with that subscript. Whether it was read so.
    pub(super) fn spaced_script(&mut self, at: usize, end: usize, word: &str) -> bool {
        if self.spaced_scripts.is_empty() {
            return false;
        }
        // Of capitals set together (`HWhq`, a product) the last takes the script.
        let capitals = word.chars().take_while(|c| c.is_uppercase()).count();
        let factors: usize = word.chars().take(capitals.saturating_sub(1).min(2)).map(char::len_utf8).sum();
        let (factor, word) = word.split_at(factors);
        let Some((base, script)) = split_script(word) else { return false };
        // After a base of powers the script may as well be raised (`ex + ey )`: e^y).
        if self.table.exponent_bases.iter().any(|b| b == base) {
            return false;
        }
        let shown = self.spaced_scripts.iter().any(|s| s == script);
        let capital_pair = base.chars().all(char::is_uppercase) && script.chars().count() == 2;
        if !(shown || capital_pair) {
            return false;
        }
        let read = format!("{factor}{base}_{{{script}}}");
        self.rewrite(at, end, &read, PdfWhy::Subscript);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::read;

    #[test]
    fn a_script_space_shows_a_glued_subscript_of_any_letters() {
        assert_eq!(read("O = HWhq + bq ,"), "O = HW_{hq} + b_{q} ,");
        assert_eq!(
            read("Ht = ϕ(Xt Wxh + Ht−1 Whh + bh ),"),
            "H_{t} = ϕ(X_{t} W_{xh} + H_{t−1} W_{hh} + b_{h} ),"
        );
        assert_eq!(read("(nh − kh + ph + sh )/sh"), "(n_{h} − k_{h} + p_{h} + s_{h} )/s_{h}");
        // The last term of a series written with dots; without dots there is no series.
        assert_eq!(read("w1 x1 + · · · + wd xd"), "w_{1} x_{1} + \\cdots  + w_{d} x_{d}");
        assert_eq!(read("L(w1 , . . . , wN )"), "L(w_{1} , \\ldots  , w_{N} )");
        assert_eq!(read("w1 x1 + wd xd"), "w_{1} x_{1} + wd xd");
        // No script's space, no reading: products and words stay.
        for text in ["y = Wx + bq", "(yabcq )", "ex + ey )", "(af ) + dx .", "Area = ab + cd", "O = Whq + b"]
        {
            assert_eq!(read(text), text);
        }
    }
}
