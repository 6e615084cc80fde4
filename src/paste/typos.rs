//! Likely typos the parser accepts, as warnings with a place: a `(`, `[` or `\{` never closed, a
//! `)`, `]` or `\}` that closes nothing, a `|` without its partner outside brackets and scripts (inside
//! them one may be a condition's bar, `p(x|z)`, `\hat{u}_{j|i}`; in angle brackets a bra-ket's), an operator with nothing after it
//! at the end (`x +`, `L =`; a sign as a script, `\mathbb{R}^+`, `0^-`, is no operator). TeX lets brackets mismatch
//! (`[0, 1)` is an interval), so any closer closes any opener; only a count that does not come
//! out even is noted. Brackets sized by `\left`, `\big`, … are the parser's to check, and text
//! arguments (`\text{(i)}`) are not counted.

use super::plain::closing_brace;
use super::table::table;
use crate::syntax::ast::Span;
use crate::syntax::error::{Warning, WarningKind};

/// What is open at a point of the scan: a bracket, or a brace that opens a script (`_{j|i}`, whose
/// bar is the script's own: capsules' `\hat{\mathbf{u}}_{j|i}`) or any other group.
enum Frame {
    Bracket(usize, char),
    Brace {
        script: bool,
    },
    /// A set's brace written `\{`, closed only by `\}`.
    SetBrace(usize),
    /// An angle bracket `\langle`: a bar inside is a bra-ket's (`\langle v | w \rangle`), and
    /// one never closed is a bra (`\langle v |`), no typo.
    Angle,
}

/// The likely typos of `text`.
pub(super) fn look(text: &str) -> Vec<Warning> {
    // What is open; a `|` met inside a bracket or a script is that part's, `top` holds the others.
    let mut open: Vec<Frame> = Vec::new();
    let mut top: Vec<usize> = Vec::new();
    let mut notes = Vec::new();
    let mut at = 0;
    while let Some(c) = text.get(at..).and_then(|rest| rest.chars().next()) {
        match c {
            '\\' => {
                let rest = text.get(at..).unwrap_or("");
                if rest.starts_with("\\langle") {
                    open.push(Frame::Angle);
                } else if rest.starts_with("\\rangle") {
                    // `|v\rangle`: a ket's bar is its own.
                    match open.iter().rposition(|f| matches!(f, Frame::Angle)) {
                        Some(i) => drop(open.remove(i)),
                        None => drop(top.pop()),
                    }
                }
                match text.get(at..at + 2) {
                    Some("\\{") => open.push(Frame::SetBrace(at)),
                    Some("\\}") => match open.iter().rposition(|f| matches!(f, Frame::SetBrace(..))) {
                        Some(i) => drop(open.remove(i)),
                        None => notes.push(set_brace_note(
                            WarningKind::UnopenedBracket { delimiter: "\\}".into() },
                            at,
                        )),
                    },
                    _ => {}
                }
                at = past_command(text, at);
                continue;
            }
            '(' | '[' => open.push(Frame::Bracket(at, c)),
            // `p(x|z)`, `\mathbb{E}[x | y]`: one bar more inside brackets is a condition's.
            ')' | ']' => match open.iter().rposition(|f| matches!(f, Frame::Bracket(..))) {
                Some(i) => drop(open.remove(i)),
                None => notes.push(note(WarningKind::UnopenedBracket { delimiter: c.to_string() }, at, c)),
            },
            '{' => {
                let script = text.get(..at).is_some_and(|before| before.trim_end().ends_with(['_', '^']));
                open.push(Frame::Brace { script });
            }
            '}' => {
                if let Some(i) = open.iter().rposition(|f| matches!(f, Frame::Brace { .. })) {
                    open.remove(i);
                }
            }
            // `\{x \mid |x| < 1\}`: a set-builder's bar is the set's own.
            '|' if open.iter().any(|f| {
                matches!(
                    f,
                    Frame::Bracket(..) | Frame::SetBrace(..) | Frame::Brace { script: true } | Frame::Angle
                )
            }) => {}
            // `F(x) \Big|_{a}^{b}`: a bar with a script right after it evaluates, and pairs with none.
            '|' if text.get(at + 1..).is_some_and(|after| after.trim_start().starts_with(['_', '^'])) => {}
            '|' => top.push(at),
            _ => {}
        }
        at += c.len_utf8();
    }
    for frame in open {
        match frame {
            Frame::Bracket(at, c) => {
                notes.push(note(WarningKind::UnclosedBracket { delimiter: c.to_string() }, at, c))
            }
            Frame::SetBrace(at) => {
                notes.push(set_brace_note(WarningKind::UnclosedBracket { delimiter: "\\{".into() }, at))
            }
            Frame::Brace { .. } | Frame::Angle => {}
        }
    }
    if top.len() % 2 == 1 {
        if let Some(last) = top.last() {
            notes.push(note(WarningKind::LoneBar, *last, '|'));
        }
    }
    notes.extend(trailing_operator(text));
    notes.sort_by_key(|w| w.span.start);
    notes
}

/// The operators that want something after them when they end a formula.
const TRAILING: &[&str] = &["+", "-", "=", "\\cdot", "\\times", "\\le", "\\ge", "\\leq", "\\geq", "<", ">"];

/// `x +`, `L =`: an operator that ends the formula, not set as a script (`\mathbb{R}^+`).
fn trailing_operator(text: &str) -> Option<Warning> {
    let trimmed = text.trim_end();
    let operator = TRAILING.iter().find(|op| trimmed.ends_with(**op))?;
    let start = trimmed.len() - operator.len();
    let before = trimmed.get(..start).unwrap_or("").trim_end();
    if before.is_empty() || before.ends_with(['^', '_', '{', '(', '[', ',', '&']) {
        return None;
    }
    if !operator.starts_with('\\') && before.ends_with('\\') {
        return None;
    }
    Some(Warning {
        kind: WarningKind::TrailingOperator { operator: operator.to_string() },
        span: Span::new(start, trimmed.len()),
    })
}

fn note(kind: WarningKind, at: usize, c: char) -> Warning {
    Warning { kind, span: Span::new(at, at + c.len_utf8()) }
}

/// A warning on the two characters of `\{` or `\}` at `at`.
fn set_brace_note(kind: WarningKind, at: usize) -> Warning {
    Warning { kind, span: Span::new(at, at + 2) }
}

/// The offset past the command at `at`: past the delimiter it sizes, or past its text
/// argument.
fn past_command(text: &str, at: usize) -> usize {
    let rest = text.get(at + 1..).unwrap_or("");
    let letters = rest.bytes().take_while(u8::is_ascii_alphabetic).count();
    let mut end = at + 1 + if letters == 0 { rest.chars().next().map_or(0, char::len_utf8) } else { letters };
    if text.get(end..).is_some_and(|r| r.starts_with('*')) {
        end += 1;
    }
    let name = text.get(at..end).unwrap_or("");
    let after = text.get(end..).unwrap_or("");
    let spaces = after.len() - after.trim_start().len();
    let next = after.trim_start().chars().next();
    if table().sizing.iter().any(|s| s == name) {
        // `\left\|`, `\Big\{`: a delimiter written as a command is sized whole.
        if next == Some('\\') {
            return past_command(text, end + spaces);
        }
        return end + spaces + next.map_or(0, char::len_utf8);
    }
    if next == Some('{') && table().literal_arguments.iter().any(|l| l == name) {
        return closing_brace(text, end + spaces).unwrap_or(text.len());
    }
    end
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<WarningKind> {
        look(text).into_iter().map(|w| w.kind).collect()
    }

    #[test]
    fn an_unclosed_parenthesis_is_noted_where_it_opens() {
        let notes = look("\\mathrm{softmax}(QK^\\top/\\sqrt{d_k}V");
        assert_eq!(notes.len(), 1);
        assert_eq!(notes.first().map(|w| w.span), Some(Span::new(16, 17)));
    }

    #[test]
    fn balanced_intervals_sized_and_text_brackets_are_not_typos() {
        for text in ["[0, 1)", "\\left( x \\right.", "\\text{(i) } x", "|x| + \\|y\\|", "\\bigl[ a \\bigr)"] {
            assert!(kinds(text).is_empty(), "{text}: {:?}", kinds(text));
        }
        assert_eq!(kinds("x)"), vec![WarningKind::UnopenedBracket { delimiter: ")".into() }]);
        assert_eq!(kinds("|x + y"), vec![WarningKind::LoneBar]);
    }

    #[test]
    fn a_conditioning_bar_inside_brackets_has_no_partner_to_miss() {
        for text in ["q_\\phi(z|x) \\| p(z)", "\\mathbb{E}[x | y] + |a|", "p(x_t|x_{t-1})"] {
            assert!(kinds(text).is_empty(), "{text}: {:?}", kinds(text));
        }
        assert_eq!(kinds("p(x|z) + |y"), vec![WarningKind::LoneBar]);
    }

    #[test]
    fn an_evaluation_bar_has_no_partner_to_miss() {
        assert_eq!(kinds("F(x) \\Big|_{a}^{b} = F(b) - F(a)"), vec![]);
        assert_eq!(kinds("\\nabla_a Q(s, a)|_{a = \\mu(s)} + |y"), vec![WarningKind::LoneBar]);
    }

    #[test]
    fn a_sized_double_bar_is_one_delimiter() {
        // The scripts after `\right\|` once left the opening bar of `\left\|` alone.
        for text in ["\\left\\|f\\right\\|^{p}", "\\left\\| x - y \\right\\|_2^2", "\\Big\\{ x \\Big\\}"] {
            assert!(kinds(text).is_empty(), "{text}: {:?}", kinds(text));
        }
        assert_eq!(kinds("\\left\\|f\\right\\|^{p} + |y"), vec![WarningKind::LoneBar]);
    }

    #[test]
    fn a_bar_inside_a_script_is_the_scripts_own() {
        for text in
            ["\\mathbf{s}_j = \\sum_i c_{ij} \\hat{\\mathbf{u}}_{j|i}", "p_{\\theta|x}", "x^{a|b} + |y|"]
        {
            assert!(kinds(text).is_empty(), "{text}: {:?}", kinds(text));
        }
        assert_eq!(kinds("u_{j|i} + |y"), vec![WarningKind::LoneBar]);
        assert_eq!(kinds("\\frac{|x}{2}"), vec![WarningKind::LoneBar]);
        // Dirac's brackets: a bra-ket, a bra and a ket keep their bars.
        assert!(kinds("\\langle v | w \\rangle").is_empty());
        assert!(kinds("\\langle v | = |v\\rangle^{\\dagger}").is_empty());
        assert_eq!(kinds("|v\\rangle + |x"), vec![WarningKind::LoneBar]);
    }

    #[test]
    fn a_set_brace_is_closed_by_its_own_partner() {
        for text in ["\\{x \\mid |x| < 1\\}", "\\left\\{ x \\right.", "\\{0, 1\\}^n", "\\text{\\{a\\}}"] {
            assert!(kinds(text).is_empty(), "{text}: {:?}", kinds(text));
        }
        let notes = look("P\\{X > s");
        assert_eq!(
            notes.iter().map(|w| w.kind.clone()).collect::<Vec<_>>(),
            vec![WarningKind::UnclosedBracket { delimiter: "\\{".into() }]
        );
        assert_eq!(notes.first().map(|w| w.span), Some(Span::new(1, 3)));
        assert_eq!(kinds("x \\}"), vec![WarningKind::UnopenedBracket { delimiter: "\\}".into() }]);
    }

    #[test]
    fn an_operator_that_ends_the_formula_is_noted_but_not_a_sign_as_a_script() {
        let trailing = |op: &str| vec![WarningKind::TrailingOperator { operator: op.into() }];
        assert_eq!(kinds("x +"), trailing("+"));
        assert_eq!(kinds("L(\\theta) = "), trailing("="));
        assert_eq!(kinds("a \\cdot"), trailing("\\cdot"));
        for text in
            ["\\mathbb{R}^+", "x \\to 0^-", "x_+", "-", "f(+)", "\\{+, -\\}", "a \\cdots", "x \\{ y \\} \\+"]
        {
            assert!(kinds(text).is_empty(), "{text}: {:?}", kinds(text));
        }
    }
}
