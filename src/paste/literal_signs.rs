//! Signs that plain text means literally and LaTeX reads as syntax: a PDF's `{` and `}` are
//! braces (`max{X1 , . . . , Xn }`, `{x | x ∈ X }`), its `#` a number sign (`#Clicks`), its `%`
//! a percent sign (`100%`), never a group, a parameter or a comment. Written as `\{`, `\}`,
//! `\#`, `\%` before the other passes read the text. Only plain text comes here (no `\`,
//! `^` or `_`: see [`super::prepare`]), and only text with a character beyond ASCII (a PDF's
//! `−`, `∈`, a Greek letter) is read so: ASCII without commands may be LaTeX typed by hand
//! (`{A}{x} = {b}`, groups), which is left as it was written. Not a guess: no warning.

use super::spans::Rewriter;
use super::Pass;

/// `text` with its literal braces, number and percent signs escaped.
pub(super) fn escape(text: &str) -> Pass {
    if text.is_ascii() {
        return Pass::unchanged(text);
    }
    let mut out = Rewriter::new(text);
    for (at, c) in text.char_indices() {
        let escaped = match c {
            '{' => "\\{",
            '}' => "\\}",
            '#' => "\\#",
            '%' => "\\%",
            _ => continue,
        };
        out.replace(at, at + 1, escaped);
    }
    let (text, map) = out.finish();
    Pass { text, map, notes: Vec::new() }
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn braces_number_and_percent_signs_of_plain_text_are_literal() {
        assert_eq!(escape("θ̂ = max{X1 , X2 }").text, "θ̂ = max\\{X1 , X2 \\}");
        assert_eq!(escape("{x|x ∈ X}").text, "\\{x|x ∈ X\\}");
        // ASCII without commands may be LaTeX's groups: left as written.
        assert_eq!(escape("{A}{x} = {b}").text, "{A}{x} = {b}");
        assert_eq!(escape("CTR = #Clicks × 100%.").text, "CTR = \\#Clicks × 100\\%.");
        assert_eq!(escape("x = 1").text, "x = 1");
    }
}
