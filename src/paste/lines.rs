//! Standard input split into formulas by one rule for every command: one formula a line
//! (blank lines and `%` comment lines skipped), or with `--whole` the whole text as one
//! formula. A UTF-8 byte-order mark at the start is dropped, and each formula keeps the
//! number of the line it is on, so its messages name that line.

/// One formula of standard input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Line<'a> {
    /// The 1-based number of the line it starts on.
    pub number: usize,
    /// The formula.
    pub text: &'a str,
}

/// `text` without a UTF-8 byte-order mark at its start.
pub fn without_bom(text: &str) -> &str {
    text.strip_prefix('\u{FEFF}').unwrap_or(text)
}

/// The formulas of `text`: each line that is neither blank nor a `%` comment, or (`whole`)
/// all of it as one formula, trailing line breaks off.
pub fn formulas(text: &str, whole: bool) -> Vec<Line<'_>> {
    let text = without_bom(text);
    if whole {
        return vec![Line { number: 1, text: text.trim_end_matches(['\n', '\r']) }];
    }
    text.lines()
        .enumerate()
        .map(|(index, line)| Line { number: index + 1, text: line.trim_end_matches('\r') })
        .filter(|line| !line.text.trim().is_empty() && !line.text.trim_start().starts_with('%'))
        .collect()
}

/// Whether `text` stops in the middle of a formula, so that a prompt should read on: a `{`
/// (not `\{`) or a `\begin{…}` still open, an odd number of `$$`, or a last line that ends with
/// the row break `\\`. A paste of several lines is then read whole.
pub fn incomplete(text: &str) -> bool {
    let mut depth: isize = 0;
    let mut escaped = false;
    for c in text.chars() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '{' => depth += 1,
            '}' => depth -= 1,
            _ => {}
        }
    }
    let environments = text.matches("\\begin{").count() > text.matches("\\end{").count();
    let displays = text.matches("$$").count() % 2 == 1;
    depth > 0 || environments || displays || text.trim_end().ends_with("\\\\")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_formula_left_open_is_incomplete() {
        for text in ["\\begin{aligned} a &= b \\\\", "\\frac{a", "$$x", "a \\\\"] {
            assert!(incomplete(text), "{text}");
        }
        for text in ["x", "\\{x", "\\begin{aligned} a \\end{aligned}", "$$x$$"] {
            assert!(!incomplete(text), "{text}");
        }
    }

    #[test]
    fn lines_keep_their_numbers_and_a_mark_is_dropped() {
        let lines = formulas("\u{FEFF}a+b\n\n% note\nc+d\r\n", false);
        assert_eq!(lines, vec![Line { number: 1, text: "a+b" }, Line { number: 4, text: "c+d" }]);
        assert_eq!(formulas("a\nb\n", true), vec![Line { number: 1, text: "a\nb" }]);
    }
}
