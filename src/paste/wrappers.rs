//! Math delimiters pasted along with a formula, taken off with a note: `$…$`, `$$…$$`,
//! `\(…\)`, `\[…\]`, and the environments `data/paste.toml` lists (`equation`, `equation*`, …);
//! an `align` (and the other row environments) is read as `aligned`, its rows kept. Label and
//! numbering commands (`\label{…}`, `\nonumber`) are dropped.

use super::spans::Rewriter;
use super::table::table;
use super::Pass;
use crate::syntax::ast::Span;
use crate::syntax::error::{Warning, WarningKind};

/// Wrappers nested more deeply than this are left to the parser (`$\[\(x\)\]$` is not real).
const MAX_LAYERS: usize = 4;

/// One delimiter pair found around the formula.
struct Layer {
    /// The opening delimiter's range and what replaces it.
    open: (usize, usize, &'static str),
    /// The closing delimiter's range and what replaces it.
    close: (usize, usize, &'static str),
    /// The pair as shown in the note: `$…$`, `\begin{equation}…\end{equation}`.
    shown: String,
    /// Whether the rows are kept (`align` read as `aligned`).
    rows: bool,
}

/// Takes the wrappers off `input`.
pub(super) fn take_off(input: &str) -> Pass {
    let (mut start, mut end) = trimmed(input, 0, input.len());
    let mut layers: Vec<Layer> = Vec::new();
    while layers.len() < MAX_LAYERS {
        let Some(layer) = outer_layer(input, start, end) else { break };
        (start, end) = trimmed(input, layer.open.1, layer.close.0);
        let rows = layer.rows;
        layers.push(layer);
        if rows {
            break;
        }
    }
    let mut rewriter = Rewriter::new(input);
    let mut notes = Vec::new();
    for layer in &layers {
        rewriter.replace(layer.open.0, layer.open.1, layer.open.2);
        notes.push(Warning {
            kind: WarningKind::Wrapper { wrapper: layer.shown.clone(), rows: layer.rows },
            span: Span::new(layer.open.0, layer.open.1),
        });
    }
    for (at, len) in labels(input, start, end) {
        rewriter.replace(at, at + len, "");
    }
    for layer in layers.iter().rev() {
        rewriter.replace(layer.close.0, layer.close.1, layer.close.2);
    }
    let (text, map) = rewriter.finish();
    Pass { text, map, notes }
}

/// `start..end` of `input` without surrounding whitespace (and a byte-order mark).
fn trimmed(input: &str, start: usize, end: usize) -> (usize, usize) {
    let text = input.get(start..end).unwrap_or("");
    let left = text.len() - text.trim_start_matches(|c: char| c.is_whitespace() || c == '\u{FEFF}').len();
    let right = text.trim_end().len().max(left);
    (start + left, start + right)
}

/// The delimiter pair that encloses all of `input[start..end]`, if there is one.
fn outer_layer(input: &str, start: usize, end: usize) -> Option<Layer> {
    let text = input.get(start..end)?;
    let pair = |open: &str, close: &str, shown: &str| -> Option<Layer> {
        let inner = text.strip_prefix(open)?.strip_suffix(close)?;
        (!inner.contains(['$'])).then(|| Layer {
            open: (start, start + open.len(), ""),
            close: (end - close.len(), end, ""),
            shown: shown.to_string(),
            rows: false,
        })
    };
    pair("$$", "$$", "$$…$$")
        .or_else(|| pair("$", "$", "$…$"))
        .or_else(|| pair("\\(", "\\)", "\\(…\\)"))
        .or_else(|| pair("\\[", "\\]", "\\[…\\]"))
        .or_else(|| environment(text, start))
}

/// A `\begin{NAME}…\end{NAME}` around all of `text` (at `start`) whose name is a wrapper or a
/// row environment of `data/paste.toml`.
fn environment(text: &str, start: usize) -> Option<Layer> {
    let rest = text.strip_prefix("\\begin{")?;
    let name = rest.get(..rest.find('}')?)?;
    let closer = format!("\\end{{{name}}}");
    let inner_end = text.strip_suffix(closer.as_str())?.len();
    let rows = table().rows.iter().any(|r| r == name);
    if !rows && !table().wrappers.iter().any(|w| w == name) {
        return None;
    }
    let mut open_len = "\\begin{".len() + name.len() + 1;
    // `\begin{alignat}{2}`: the column count goes with the opener.
    if let Some(argument) = text.get(open_len..).filter(|t| t.starts_with('{')).and_then(|t| t.find('}')) {
        open_len += argument + 1;
    }
    let (open_text, close_text) = if rows { ("\\begin{aligned}", "\\end{aligned}") } else { ("", "") };
    Some(Layer {
        open: (start, start + open_len, open_text),
        close: (start + inner_end, start + text.len(), close_text),
        shown: format!("\\begin{{{name}}}…{closer}"),
        rows,
    })
}

/// Label and numbering commands in `input[start..end]`: (offset, length), in order.
fn labels(input: &str, start: usize, end: usize) -> Vec<(usize, usize)> {
    let text = input.get(start..end).unwrap_or("");
    let mut found = Vec::new();
    for command in &table().labels {
        for (at, _) in text.match_indices(command.as_str()) {
            let after = text.get(at + command.len()..).unwrap_or("");
            if after.starts_with(|c: char| c.is_ascii_alphabetic()) {
                continue;
            }
            let argument = match after.strip_prefix('{').and_then(|a| a.find('}')) {
                Some(close) => close + 2,
                None => 0,
            };
            found.push((start + at, command.len() + argument));
        }
    }
    found.sort_unstable();
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inner(input: &str) -> String {
        take_off(input).text
    }

    #[test]
    fn each_wrapper_comes_off() {
        assert_eq!(inner("$x^2$"), "x^2");
        assert_eq!(inner(" $$x^2$$\n"), " x^2\n");
        assert_eq!(inner("\\(x\\)"), "x");
        assert_eq!(inner("\\[x+y\\]"), "x+y");
        assert_eq!(inner("\\begin{equation} a = b \\label{eq:1} \\end{equation}"), " a = b  ");
        assert_eq!(inner("\\begin{equation*}a\\end{equation*}"), "a");
        assert_eq!(
            inner("\\begin{align*} a &= b \\\\ c &= d \\end{align*}"),
            "\\begin{aligned} a &= b \\\\ c &= d \\end{aligned}"
        );
        assert_eq!(inner("$$\\begin{equation}x\\end{equation}$$"), "x");
    }

    #[test]
    fn dollars_inside_are_not_a_wrapper() {
        assert_eq!(inner("$a$ and $b$"), "$a$ and $b$");
        assert_eq!(inner("x"), "x");
        assert!(take_off("x").notes.is_empty());
    }
}
