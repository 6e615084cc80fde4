//! Double bars typed as two ASCII bars: `||x - y||^2` is the norm `‖x - y‖^2`, and `D(P || Q)`
//! sets a divergence's two laws apart as `\|` does, where the parser would read `||` as an
//! empty pair of single bars. Written as the one sign `∥` (U+2225), which the parser reads as
//! `\|` and the PDF passes read with the scripts a PDF sets after it (`||x||2` is ‖x‖²). Read left to right with the bars still open: a `||` inside an
//! open single bar closes it and opens the next (`|a||b|` is |a| times |b|); one inside an open
//! double bar closes the norm; anywhere else it opens one. Bars do not reach across
//! parentheses or braces, so a conditioning bar left open inside `p(x | y)` ends there. The
//! standard ASCII spelling of `\|`, not a guess: no warning.

use super::spans::Rewriter;
use super::Pass;

/// What a bar opened.
#[derive(Clone, Copy, PartialEq)]
enum Open {
    Single,
    Double,
    /// A parenthesis, bracket or brace: bars inside it close with it.
    Group,
}

/// `text` with its `||` written `∥` where they are double bars.
pub(super) fn as_norms(text: &str) -> Pass {
    if !text.contains("||") {
        return Pass::unchanged(text);
    }
    let mut out = Rewriter::new(text);
    let mut open: Vec<Open> = Vec::new();
    let bytes = text.as_bytes();
    let mut at = 0;
    while let Some(&b) = bytes.get(at) {
        match b {
            // A command's name or escaped sign (`\|`, `\{`) is no bar of ours.
            b'\\' => at += 2,
            b'(' | b'[' | b'{' => {
                open.push(Open::Group);
                at += 1;
            }
            b')' | b']' | b'}' => {
                while let Some(top) = open.pop() {
                    if top == Open::Group {
                        break;
                    }
                }
                at += 1;
            }
            b'|' if bytes.get(at + 1) == Some(&b'|') && open.last() != Some(&Open::Single) => {
                if open.last() == Some(&Open::Double) {
                    open.pop();
                } else {
                    open.push(Open::Double);
                }
                out.replace(at, at + 2, "∥");
                at += 2;
            }
            b'|' => {
                if open.last() == Some(&Open::Single) {
                    open.pop();
                } else {
                    open.push(Open::Single);
                }
                at += 1;
            }
            _ => at += 1,
        }
    }
    let (text, map) = out.finish();
    Pass { text, map, notes: Vec::new() }
}

#[cfg(test)]
mod tests {
    use super::as_norms;

    #[test]
    fn two_ascii_bars_are_a_double_bar_where_no_single_bar_is_open() {
        assert_eq!(as_norms("||x - y||^2").text, "∥x - y∥^2");
        assert_eq!(as_norms("D_{KL}(P || Q)").text, "D_{KL}(P ∥ Q)");
        assert_eq!(as_norms("D(p(x | y) || q(x))").text, "D(p(x | y) ∥ q(x))");
        // Two single bars side by side, and a norm already written.
        assert_eq!(as_norms("|a||b|").text, "|a||b|");
        assert_eq!(as_norms("\\|x\\|").text, "\\|x\\|");
    }
}
