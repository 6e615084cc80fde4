//! A LaTeX document's own commands without arguments, expanded in its equations.
//!
//! Papers define shorthands in their preamble — `\newcommand{\R}{\mathbb{R}}`,
//! `\def\vx{\mathbf{x}}`, `\DeclareMathOperator{\softmax}{softmax}` — and use them in every
//! equation. [`Macros::collect`] finds the definitions that take no argument (`\newcommand`,
//! `\renewcommand`, `\providecommand`, `\def`, `\DeclareMathOperator`, starred or not) and
//! [`Macros::expand`] replaces their uses, so that `W \in \R^{d}` is read as
//! `W \in \mathbb{R}^{d}`. A macro used inside another is expanded too, up to
//! [`MAX_PASSES`] times, and never past [`MAX_EXPANDED_BYTES`]. Commands with arguments
//! (`\newcommand{\norm}[1]{…}`) are left as they are: the parser then reports them as unknown
//! commands, which the batch summary counts.

use std::collections::HashMap;

/// How many times expansion runs over a formula (macros within macros).
pub const MAX_PASSES: usize = 8;

/// An expansion that grows past this many bytes stops growing.
pub const MAX_EXPANDED_BYTES: usize = 100_000;

/// The argument-free commands a document defines: name (without backslash) → body.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Macros {
    bodies: HashMap<String, String>,
}

impl Macros {
    /// The definitions in `text` (comments already blanked).
    pub fn collect(text: &str) -> Macros {
        let mut bodies = HashMap::new();
        let mut at = 0;
        while let Some(offset) = text.get(at..).and_then(|rest| rest.find('\\')) {
            let start = at + offset;
            let (name, after) = command_at(text, start);
            at = match definition(text, name, after) {
                Some((defined, body, end)) => {
                    bodies.insert(defined.to_string(), body);
                    end
                }
                None => after.max(start + 1),
            };
        }
        Macros { bodies }
    }

    /// How many macros were found.
    pub fn len(&self) -> usize {
        self.bodies.len()
    }

    /// Whether none was found.
    pub fn is_empty(&self) -> bool {
        self.bodies.is_empty()
    }

    /// `latex` with the macros replaced by their bodies.
    pub fn expand(&self, latex: &str) -> String {
        let mut text = latex.to_string();
        if self.bodies.is_empty() {
            return text;
        }
        for _ in 0..MAX_PASSES {
            let (next, changed) = self.expand_once(&text);
            if !changed || next.len() > MAX_EXPANDED_BYTES {
                break;
            }
            text = next;
        }
        text
    }

    fn expand_once(&self, text: &str) -> (String, bool) {
        let mut out = String::with_capacity(text.len());
        let mut changed = false;
        let mut at = 0;
        while let Some(offset) = text.get(at..).and_then(|rest| rest.find('\\')) {
            let start = at + offset;
            out.push_str(text.get(at..start).unwrap_or(""));
            let (name, after) = command_at(text, start);
            match self.bodies.get(name) {
                Some(body) if !name.is_empty() => {
                    out.push_str(body);
                    let next_is_letter =
                        text.get(after..).and_then(|r| r.chars().next()).is_some_and(char::is_alphabetic);
                    if next_is_letter && body.ends_with(|c: char| c.is_ascii_alphabetic()) {
                        out.push(' ');
                    }
                    changed = true;
                }
                _ => out.push_str(text.get(start..after).unwrap_or("")),
            }
            at = after;
        }
        out.push_str(text.get(at..).unwrap_or(""));
        (out, changed)
    }
}

/// The letters of the command whose backslash is at `at`, and the position after it (after
/// the backslash and one character, for `\\` or `\{`).
fn command_at(text: &str, at: usize) -> (&str, usize) {
    let rest = text.get(at + 1..).unwrap_or("");
    let letters = rest.bytes().take_while(u8::is_ascii_alphabetic).count();
    if letters > 0 {
        return (rest.get(..letters).unwrap_or(""), at + 1 + letters);
    }
    let width = rest.chars().next().map_or(0, char::len_utf8);
    ("", at + 1 + width)
}

/// A definition by command `name` whose arguments start at `at`: (defined name, body, end).
fn definition(text: &str, name: &str, at: usize) -> Option<(String, String, usize)> {
    match name {
        "newcommand" | "renewcommand" | "providecommand" => {
            let at = skip_star(text, at);
            let (defined, at) = defined_name(text, at)?;
            if text.get(skip_blanks(text, at)..)?.starts_with('[') {
                return None;
            }
            let (body, end) = braced(text, at)?;
            Some((defined, body.to_string(), end))
        }
        "def" => {
            let (defined, at) = defined_name(text, at)?;
            let (body, end) = braced(text, at)?;
            Some((defined, body.to_string(), end))
        }
        "DeclareMathOperator" => {
            let starred = text.get(at..)?.starts_with('*');
            let (defined, at) = defined_name(text, skip_star(text, at))?;
            let (operator, end) = braced(text, at)?;
            let star = if starred { "*" } else { "" };
            Some((defined, format!("\\operatorname{star}{{{operator}}}"), end))
        }
        _ => None,
    }
}

fn skip_star(text: &str, at: usize) -> usize {
    if text.get(at..).is_some_and(|r| r.starts_with('*')) {
        at + 1
    } else {
        at
    }
}

fn skip_blanks(text: &str, at: usize) -> usize {
    at + text.get(at..).map_or(0, |r| r.len() - r.trim_start().len())
}

/// `{\name}` or `\name` at `at`: the name without backslash, and the position after it.
fn defined_name(text: &str, at: usize) -> Option<(String, usize)> {
    let at = skip_blanks(text, at);
    let braced_name = text.get(at..)?.starts_with('{');
    let start = if braced_name { skip_blanks(text, at + 1) } else { at };
    if !text.get(start..)?.starts_with('\\') {
        return None;
    }
    let (name, after) = command_at(text, start);
    if name.is_empty() {
        return None;
    }
    let end = if braced_name {
        let close = skip_blanks(text, after);
        text.get(close..)?.starts_with('}').then_some(close + 1)?
    } else {
        after
    };
    Some((name.to_string(), end))
}

/// The body of the balanced `{…}` starting (after blanks) at `at`, and the position after it.
fn braced(text: &str, at: usize) -> Option<(&str, usize)> {
    let open = skip_blanks(text, at);
    if !text.get(open..)?.starts_with('{') {
        return None;
    }
    let mut depth = 0usize;
    let mut escaped = false;
    for (offset, c) in text.get(open..)?.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '{' => depth += 1,
            '}' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    let end = open + offset;
                    return Some((text.get(open + 1..end)?, end + 1));
                }
            }
            _ => {}
        }
    }
    None
}
