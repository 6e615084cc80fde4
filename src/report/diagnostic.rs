//! Errors and warnings rendered under their source, with carets.
//!
//! Spans are bytes; columns are counted in display width (a Hangul syllable or a CJK
//! character is two columns wide), so the caret sits under the right character whatever was
//! pasted.

use crate::lang::Lang;
use crate::surface::Surface;
use crate::syntax::ast::Span;
use crate::syntax::error::{is_invisible, ParseError, Warning};
use unicode_width::UnicodeWidthChar;

/// One labelled place in the source.
#[derive(Debug, Clone)]
pub struct Label {
    /// Where.
    pub span: Span,
    /// What to say there.
    pub text: String,
}

/// How a diagnostic is laid out: the number its source's first line has where it came from
/// (a formula on line 4 of standard input is numbered 4), and whether it is coloured (the
/// caller decides: on a terminal only, never with `NO_COLOR`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    /// The number of the source's first line.
    pub first_line: usize,
    /// Colour: `error:` and its caret in red, warnings and the "opened here" mark in yellow.
    pub color: bool,
}

impl Default for Layout {
    fn default() -> Self {
        Layout { first_line: 1, color: false }
    }
}

/// How serious a diagnostic is, which sets its word and colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Severity {
    /// An error: red.
    Error,
    /// A warning: yellow.
    Warning,
}

impl Severity {
    fn word(self, lang: Lang) -> &'static str {
        match self {
            Severity::Error => lang.pick("오류", "error"),
            Severity::Warning => lang.pick("경고", "warning"),
        }
    }

    /// `text` in this severity's colour, when `color`.
    fn paint(self, text: &str, color: bool) -> String {
        use colored::Colorize;
        match (color, self) {
            (false, _) => text.to_string(),
            (true, Severity::Error) => text.red().bold().to_string(),
            (true, Severity::Warning) => text.yellow().bold().to_string(),
        }
    }
}

/// Renders a parse error with a caret under the source (and a second label at the opening
/// delimiter of an unclosed one).
pub fn render_error(source: &str, error: &ParseError, lang: Lang) -> String {
    render_error_in(source, error, lang, Layout::default())
}

/// [`render_error`] with a [`Layout`].
pub fn render_error_in(source: &str, error: &ParseError, lang: Lang, layout: Layout) -> String {
    render_error_on(source, error, lang, layout, Surface::Cli)
}

/// [`render_error_in`] with the message as `surface` shows it (see [`crate::surface`]).
pub fn render_error_on(
    source: &str,
    error: &ParseError,
    lang: Lang,
    layout: Layout,
    surface: Surface,
) -> String {
    let secondary = error.opened.zip(error.opened_label(lang)).map(|(span, text)| Label { span, text });
    let primary = Label { span: error.span, text: error.label(lang) };
    let message = error.message_on(lang, surface);
    render_in(source, Severity::Error, &message, &primary, secondary.as_ref(), lang, layout)
}

/// Renders a warning with a caret under the source.
pub fn render_warning(source: &str, warning: &Warning, lang: Lang) -> String {
    render_warning_in(source, warning, lang, Layout::default())
}

/// [`render_warning`] with a [`Layout`].
pub fn render_warning_in(source: &str, warning: &Warning, lang: Lang, layout: Layout) -> String {
    let primary = Label { span: warning.span, text: String::new() };
    render_in(source, Severity::Warning, &warning.message(lang), &primary, None, lang, layout)
}

/// Renders `message` with `primary` marked by `^` and `secondary` by `-`, headed by the word
/// `severity` (uncoloured, first line numbered 1).
pub fn render(
    source: &str,
    severity: &str,
    message: &str,
    primary: &Label,
    secondary: Option<&Label>,
) -> String {
    let head = format!("{severity}: {message}\n");
    head + &render_body(source, primary, secondary, None, Layout::default())
}

/// Renders `message` under the word and colour of `severity`, with `primary` marked by `^`
/// and `secondary` by `-`, laid out by `layout`. A long line is cut to a window around the
/// marks, with `…` where it was cut.
pub fn render_in(
    source: &str,
    severity: Severity,
    message: &str,
    primary: &Label,
    secondary: Option<&Label>,
    lang: Lang,
    layout: Layout,
) -> String {
    let head = format!("{}: {message}\n", severity.paint(severity.word(lang), layout.color));
    head + &render_body(source, primary, secondary, Some(severity), layout)
}

/// The numbered source lines and their marks.
fn render_body(
    source: &str,
    primary: &Label,
    secondary: Option<&Label>,
    severity: Option<Severity>,
    layout: Layout,
) -> String {
    let (source, primary, secondary) = visible_source(source, primary, secondary);
    let (source, primary, secondary) = (source.as_str(), &primary, secondary.as_ref());
    let paint = Paint { severity, layout };
    let mut out = String::new();
    let (line_no, line_start, line) = line_of(source, primary.span.start);
    let same_line = |s: &&Label| line_of(source, s.span.start).0 == line_no;
    if let Some(secondary) = secondary.filter(|s| !same_line(s)) {
        let (other_no, other_start, other_line) = line_of(source, secondary.span.start);
        let span = shift(secondary.span, other_start);
        let (window, prefix) = window(other_line, span, span);
        let shown = displayed(window, prefix);
        push_line(&mut out, paint.number(other_no), &shown);
        push_marks(&mut out, &shown, &[(shift_window(span, prefix), '-', &secondary.text)], paint);
    }
    let primary_span = shift(primary.span, line_start);
    let secondary_span = secondary.filter(same_line).map(|s| shift(s.span, line_start));
    let (window, prefix) = window(line, primary_span, secondary_span.unwrap_or(primary_span));
    let shown = displayed(window, prefix);
    push_line(&mut out, paint.number(line_no), &shown);
    let mut marks = vec![(shift_window(primary_span, prefix), '^', primary.text.as_str())];
    if let (Some(secondary), Some(span)) = (secondary.filter(same_line), secondary_span) {
        if span.start >= prefix.0 {
            marks.push((shift_window(span, prefix), '-', secondary.text.as_str()));
        }
    }
    push_marks(&mut out, &shown, &marks, paint);
    out
}

/// Line numbers and the colours of marks.
#[derive(Debug, Clone, Copy)]
struct Paint {
    severity: Option<Severity>,
    layout: Layout,
}

impl Paint {
    /// The number shown for line `n` of the source.
    fn number(self, n: usize) -> usize {
        n + self.layout.first_line.saturating_sub(1)
    }

    /// A run of marks: `^` in the severity's colour, `-` (where something was opened) in
    /// yellow.
    fn marks(self, text: &str, mark: char) -> String {
        match self.severity {
            Some(severity) if mark == '^' => severity.paint(text, self.layout.color),
            Some(_) => Severity::Warning.paint(text, self.layout.color),
            None => text.to_string(),
        }
    }
}

/// The source as shown: each invisible character (a NUL, an escape, a zero-width space) is
/// replaced by `�`, so that it neither reaches the terminal nor shifts the caret; the labels'
/// spans are moved to match.
fn visible_source(
    source: &str,
    primary: &Label,
    secondary: Option<&Label>,
) -> (String, Label, Option<Label>) {
    let replaced = |c: char| c != '\n' && c != '\t' && is_invisible(c);
    if !source.chars().any(replaced) {
        return (source.to_string(), primary.clone(), secondary.cloned());
    }
    let mut shown = String::with_capacity(source.len());
    // (offset in the source just past a replaced character, bytes added up to there)
    let mut added: Vec<(usize, isize)> = Vec::new();
    let mut total: isize = 0;
    for (at, c) in source.char_indices() {
        if replaced(c) {
            shown.push('\u{FFFD}');
            total += '\u{FFFD}'.len_utf8() as isize - c.len_utf8() as isize;
            added.push((at + c.len_utf8(), total));
        } else {
            shown.push(c);
        }
    }
    let map = |offset: usize| {
        let extra = added.iter().take_while(|(end, _)| *end <= offset).last().map_or(0, |(_, n)| *n);
        offset.saturating_add_signed(extra)
    };
    let moved = |label: &Label| Label {
        span: Span::new(map(label.span.start), map(label.span.end)),
        text: label.text.clone(),
    };
    (shown, moved(primary), secondary.map(moved))
}

/// Characters of context kept on each side of the marks in a long line.
const CONTEXT_CHARS: usize = 50;

/// The part of `line` shown around `a` and `b`, and (its byte offset, whether it was cut at
/// the start).
fn window(line: &str, a: Span, b: Span) -> (&str, (usize, bool)) {
    let first = a.start.min(b.start).min(line.len());
    let last = a.end.max(b.end).min(line.len());
    let start = line
        .get(..first)
        .map_or(0, |before| before.char_indices().rev().nth(CONTEXT_CHARS).map_or(0, |(i, _)| i));
    let end = line.get(last..).map_or(line.len(), |after| {
        after.char_indices().nth(CONTEXT_CHARS).map_or(line.len(), |(i, _)| last + i)
    });
    (line.get(start..end).unwrap_or(line), (start, start > 0))
}

fn shift_window(span: Span, prefix: (usize, bool)) -> Span {
    let ellipsis = if prefix.1 { '…'.len_utf8() } else { 0 };
    Span::new(span.start.saturating_sub(prefix.0) + ellipsis, span.end.saturating_sub(prefix.0) + ellipsis)
}

fn shift(span: Span, by: usize) -> Span {
    Span::new(span.start.saturating_sub(by), span.end.saturating_sub(by))
}

/// The 1-based line number, start offset and text of the line holding byte `at`.
fn line_of(source: &str, at: usize) -> (usize, usize, &str) {
    let at = at.min(source.len());
    let start = source.get(..at).and_then(|s| s.rfind('\n')).map_or(0, |i| i + 1);
    let end = source.get(start..).and_then(|s| s.find('\n')).map_or(source.len(), |i| start + i);
    let number = source.get(..start).map_or(0, |s| s.matches('\n').count()) + 1;
    (number, start, source.get(start..end).unwrap_or(""))
}

/// The window as shown: `…` where it was cut, tabs as spaces.
fn displayed(window: &str, prefix: (usize, bool)) -> String {
    let ellipsis = if prefix.1 { "…" } else { "" };
    let body: String = window.chars().map(|c| if c == '\t' { ' ' } else { c }).collect();
    format!("{ellipsis}{body}")
}

fn push_line(out: &mut String, number: usize, shown: &str) {
    out.push_str(&format!("{number:>3} | {shown}\n"));
}

/// Display columns of `line` before byte `at`.
fn column(line: &str, at: usize) -> usize {
    let at = at.min(line.len());
    line.char_indices()
        .take_while(|(i, _)| *i < at)
        .map(|(_, c)| if c == '\t' { 1 } else { c.width().unwrap_or(0) })
        .sum()
}

/// A marker line: each span underlined with its character, the first label after it, and the
/// other labels on lines of their own below.
fn push_marks(out: &mut String, line: &str, marks: &[(Span, char, &str)], paint: Paint) {
    let mut positions: Vec<(usize, usize, char, &str)> = marks
        .iter()
        .map(|(span, mark, text)| {
            let start = column(line, span.start);
            let width = column(line, span.end).saturating_sub(start).max(1);
            (start, width, *mark, *text)
        })
        .collect();
    positions.sort_by_key(|p| p.0);
    let mut marker = String::new();
    let mut columns = 0;
    for (start, width, mark, _) in &positions {
        if columns < *start {
            marker.push_str(&" ".repeat(start - columns));
            columns = *start;
        }
        marker.push_str(&paint.marks(&mark.to_string().repeat(*width), *mark));
        columns += width;
    }
    let main = marks.first().map_or("", |m| m.2);
    let trailing = if main.is_empty() { String::new() } else { format!(" {main}") };
    out.push_str(&format!("    | {marker}{trailing}\n"));
    for (start, _, _, text) in positions.iter().filter(|p| p.3 != main && !p.3.is_empty()) {
        out.push_str(&format!("    | {}{text}\n", " ".repeat(*start)));
    }
}
