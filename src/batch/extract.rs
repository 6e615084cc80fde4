//! The equations of a `.tex` or `.md` document, each with the line where it starts.
//!
//! Math is what stands between `$…$`, `$$…$$`, `\(…\)`, `\[…\]`, or in an `equation`,
//! `align`, `alignat`, `flalign`, `gather`, `multline`, `eqnarray`, `displaymath` or `math`
//! environment, starred or not. One delimited stretch is one equation: an `align` with three
//! rows is one record, as the paper's source holds it.
//!
//! What is not math is blanked out first, byte for byte, so that positions and line numbers
//! stay those of the file: in TeX, comments (`%` to the end of the line, `\%` excepted),
//! `\verb|…|`, `\iffalse … \fi`, the arguments of `\url`, `\path` and `\href`, and the
//! `verbatim`, `lstlisting`, `minted` and `comment` environments; in Markdown, fenced and
//! indented code blocks, inline code spans and HTML comments. A `$` inside `\text{…}` (and its
//! kin) or in the body of a definition (`\newcommand{\dollar}{$}`) opens no math; in TeX inline
//! math opened inside a brace group ends with the group, as TeX ends it (`\text{costs $5}` in
//! running text is one failed equation, not math up to the next formula's `$`); in Markdown a
//! blank line ends display math as it ends a paragraph; a lone carriage return is a line break.
//!
//! In TeX, the document's own commands without arguments (`\newcommand{\R}{\mathbb{R}}`) are
//! expanded in its equations ([`macros`](super::macros)).
//!
//! Markdown takes `$…$` by pandoc's rule (no space just inside the dollars, the closing `$`
//! not followed by a digit), so `$5 and $10` is not math there; an unmatched `$` in Markdown is
//! text. In TeX every unescaped `$` opens math, so an unclosed one, or an environment without
//! its `\end`, is reported as an equation that failed, never silently dropped.

use super::macros::Macros;

/// The kind of document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flavor {
    /// A LaTeX source: `%` comments, every `$` is math.
    Tex,
    /// Markdown with math (pandoc, MathJax, d2l): code is not math, `$` follows pandoc.
    Markdown,
}

/// One equation found in a document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Equation {
    /// The 1-based line of its opening delimiter.
    pub line: usize,
    /// The LaTeX between the delimiters, trimmed; or why the equation is broken.
    pub latex: Result<String, String>,
}

/// Environments whose body is math.
const MATH_ENVIRONMENTS: &[&str] =
    &["equation", "align", "alignat", "flalign", "gather", "multline", "eqnarray", "displaymath", "math"];

/// Environments whose body is verbatim text, skipped in TeX.
const VERBATIM_ENVIRONMENTS: &[&str] = &["verbatim", "lstlisting", "minted", "comment"];

/// The equations of `text`, in order.
pub fn equations(text: &str, flavor: Flavor) -> Vec<Equation> {
    // A lone carriage return is a line break (old Mac files): a newline in its place keeps
    // every position.
    let text = &lone_returns_as_newlines(text);
    let cleaned = match flavor {
        Flavor::Tex => blank_tex(text),
        Flavor::Markdown => blank_markdown(text),
    };
    let macros = match flavor {
        Flavor::Tex => Macros::collect(&cleaned),
        Flavor::Markdown => Macros::default(),
    };
    let mut scanner = Scanner { text: &cleaned, bytes: cleaned.as_bytes(), flavor, found: Vec::new() };
    scanner.scan();
    let mut lines = LineCounter::new(&cleaned);
    scanner
        .found
        .into_iter()
        .map(|(start, latex)| Equation {
            line: lines.line_at(start),
            latex: latex.map(|l| macros.expand(&l)),
        })
        .collect()
}

/// `text` with each carriage return not followed by a newline turned into a newline.
fn lone_returns_as_newlines(text: &str) -> std::borrow::Cow<'_, str> {
    let bytes = text.as_bytes();
    let lone = |i: usize| bytes.get(i) == Some(&b'\r') && bytes.get(i + 1) != Some(&b'\n');
    if !(0..bytes.len()).any(lone) {
        return std::borrow::Cow::Borrowed(text);
    }
    let replaced: Vec<u8> = (0..bytes.len())
        .map(|i| if lone(i) { b'\n' } else { bytes.get(i).copied().unwrap_or(b' ') })
        .collect();
    std::borrow::Cow::Owned(String::from_utf8(replaced).unwrap_or_else(|_| text.to_string()))
}

/// Commands whose braced argument is text, in which a `$` opens or closes no math.
const TEXT_COMMANDS: &[&str] =
    &["text", "textrm", "textbf", "textit", "textsf", "texttt", "textnormal", "mbox", "hbox"];

/// Commands that define commands: their arguments are skipped whole, so that a `$` in a body
/// (`\newcommand{\dollar}{$}`) opens no math.
const DEFINING_COMMANDS: &[&str] =
    &["newcommand", "renewcommand", "providecommand", "DeclareMathOperator", "def"];

/// The command name (ASCII letters) right after the backslash at `at`.
fn command_name(bytes: &[u8], at: usize) -> &[u8] {
    let rest = bytes.get(at + 1..).unwrap_or(&[]);
    let length = rest.iter().take_while(|b| b.is_ascii_alphabetic()).count();
    rest.get(..length).unwrap_or(&[])
}

/// The end of the balanced `{…}` group starting at `at` (a `{`), stepping over `\x` pairs.
fn group_end(bytes: &[u8], at: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut i = at;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'\\' => i += 1,
            b'{' => depth += 1,
            b'}' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// Past a text command's group (`\text{… $ …}`) at the backslash `at`, if there is one.
fn past_text_group(bytes: &[u8], at: usize) -> Option<usize> {
    let name = command_name(bytes, at);
    if !TEXT_COMMANDS.iter().any(|c| c.as_bytes() == name) {
        return None;
    }
    let open = at + 1 + name.len();
    let open = open + bytes.get(open..)?.iter().take_while(|b| **b == b' ').count();
    (bytes.get(open) == Some(&b'{')).then(|| group_end(bytes, open)).flatten()
}

/// Past a definition (`\newcommand{\x}[1]{body}`, `\def\x{body}`) at the backslash `at`.
fn past_definition(bytes: &[u8], at: usize) -> Option<usize> {
    let name = command_name(bytes, at);
    if !DEFINING_COMMANDS.iter().any(|c| c.as_bytes() == name) {
        return None;
    }
    let mut i = at + 1 + name.len();
    if bytes.get(i) == Some(&b'*') {
        i += 1;
    }
    // The name, braced or not, then optional [..] arguments, then the body.
    let skip_blanks =
        |i: usize| i + bytes.get(i..).map_or(0, |r| r.iter().take_while(|b| b.is_ascii_whitespace()).count());
    i = skip_blanks(i);
    match bytes.get(i) {
        Some(b'{') => i = group_end(bytes, i)?,
        Some(b'\\') => i += 1 + command_name(bytes, i).len().max(1),
        _ => return None,
    }
    loop {
        i = skip_blanks(i);
        match bytes.get(i) {
            Some(b'[') => i = i + bytes.get(i..)?.iter().position(|b| *b == b']')? + 1,
            Some(b'#') => i += 2,
            _ => break,
        }
    }
    (bytes.get(i) == Some(&b'{')).then(|| group_end(bytes, i)).flatten()
}

/// Counts lines while positions only grow.
struct LineCounter<'a> {
    bytes: &'a [u8],
    position: usize,
    line: usize,
}

impl<'a> LineCounter<'a> {
    fn new(text: &'a str) -> Self {
        LineCounter { bytes: text.as_bytes(), position: 0, line: 1 }
    }

    fn line_at(&mut self, position: usize) -> usize {
        if position >= self.position {
            let newlines = self.bytes.get(self.position..position).map_or(0, count_newlines);
            self.line += newlines;
            self.position = position;
        }
        self.line
    }
}

fn count_newlines(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| b == b'\n').count()
}

/// The scanner over blanked text: pushes (start of the opening delimiter, equation).
struct Scanner<'a> {
    text: &'a str,
    bytes: &'a [u8],
    flavor: Flavor,
    found: Vec<(usize, Result<String, String>)>,
}

impl Scanner<'_> {
    fn scan(&mut self) {
        let mut at = 0;
        while let Some(&byte) = self.bytes.get(at) {
            at = match byte {
                b'\\' => self.backslash(at),
                b'$' if self.bytes.get(at + 1) == Some(&b'$') => self.display_dollars(at),
                b'$' => self.inline_dollar(at),
                _ => at + 1,
            };
        }
    }

    fn starts_with(&self, at: usize, prefix: &str) -> bool {
        self.bytes.get(at..).is_some_and(|rest| rest.starts_with(prefix.as_bytes()))
    }

    /// A command: `\[`, `\(`, `\begin{…}`, or an escaped character to step over.
    fn backslash(&mut self, at: usize) -> usize {
        if self.flavor == Flavor::Tex {
            if let Some(end) = past_definition(self.bytes, at) {
                return end;
            }
        }
        if self.starts_with(at, "\\[") {
            return self.delimited(at, 2, "\\]");
        }
        if self.starts_with(at, "\\(") {
            return self.delimited(at, 2, "\\)");
        }
        if self.starts_with(at, "\\begin{") {
            if let Some(next) = self.environment(at) {
                return next;
            }
        }
        at + 2
    }

    /// Math from after an opener of `open_len` bytes at `at` up to `close`.
    fn delimited(&mut self, at: usize, open_len: usize, close: &str) -> usize {
        let body_start = at + open_len;
        match find_unescaped(self.bytes, body_start, close.as_bytes()) {
            Some(end) => {
                self.push(at, body_start, end);
                end + close.len()
            }
            None => {
                let opener = self.text.get(at..body_start).unwrap_or("");
                self.fail(at, format!("unclosed `{opener}`: no `{close}` after it"));
                body_start
            }
        }
    }

    /// `\begin{NAME}` at `at`: a math environment's body, or `None` for other environments.
    fn environment(&mut self, at: usize) -> Option<usize> {
        let name_start = at + "\\begin{".len();
        let name_end = name_start + self.bytes.get(name_start..)?.iter().position(|&b| b == b'}')?;
        let name = self.text.get(name_start..name_end)?;
        if !MATH_ENVIRONMENTS.contains(&name.trim_end_matches('*')) {
            return None;
        }
        let mut body_start = name_end + 1;
        if name.starts_with("alignat") {
            body_start = skip_braced_argument(self.bytes, body_start);
        }
        let close = format!("\\end{{{name}}}");
        match find_bytes(self.bytes, body_start, close.as_bytes()) {
            Some(end) => {
                self.push(at, body_start, end);
                Some(end + close.len())
            }
            None => {
                self.fail(at, format!("unclosed `\\begin{{{name}}}`: no `{close}` after it"));
                Some(body_start)
            }
        }
    }

    /// `$$…$$`.
    fn display_dollars(&mut self, at: usize) -> usize {
        let body_start = at + 2;
        let close = match self.flavor {
            Flavor::Tex => find_unescaped(self.bytes, body_start, b"$$"),
            // In Markdown a blank line ends the paragraph, and display math with it.
            Flavor::Markdown => self.display_close_in_paragraph(body_start),
        };
        match close {
            Some(end) => {
                self.push(at, body_start, end);
                end + 2
            }
            None if self.flavor == Flavor::Tex => {
                self.fail(at, "unclosed `$$`: no `$$` after it".to_string());
                body_start
            }
            None => body_start,
        }
    }

    /// `$…$`: in Markdown by pandoc's rule, else up to the next `$` in the paragraph.
    fn inline_dollar(&mut self, at: usize) -> usize {
        let body_start = at + 1;
        let opens = self.flavor == Flavor::Tex
            || self.bytes.get(body_start).is_some_and(|b| !b.is_ascii_whitespace());
        if !opens {
            return body_start;
        }
        match self.inline_close(body_start) {
            Ok(end) => {
                self.push(at, body_start, end);
                end + 1
            }
            Err(why) if self.flavor == Flavor::Tex => {
                self.fail(at, format!("unclosed `$`: {why}"));
                body_start
            }
            Err(_) => body_start,
        }
    }

    /// The closing `$$` of display math starting at `from`, within the paragraph.
    fn display_close_in_paragraph(&self, from: usize) -> Option<usize> {
        let mut at = from;
        while let Some(&byte) = self.bytes.get(at) {
            match byte {
                b'\\' => at = past_text_group(self.bytes, at).unwrap_or(at + 2),
                b'\n' if self.blank_line_follows(at) => return None,
                b'$' if self.bytes.get(at + 1) == Some(&b'$') => return Some(at),
                _ => at += 1,
            }
        }
        None
    }

    /// The closing `$` of inline math starting at `from`, within the paragraph; in TeX also
    /// within the brace group the `$` stands in, as TeX closes math where that group ends
    /// (`\text{costs $5} and $x$` in prose: the `$` of `$5` is unclosed, `$x$` still math).
    /// Else why there is none.
    fn inline_close(&self, from: usize) -> Result<usize, &'static str> {
        let mut at = from;
        let mut depth = 0usize;
        while let Some(&byte) = self.bytes.get(at) {
            match byte {
                b'\\' => at = past_text_group(self.bytes, at).unwrap_or(at + 2),
                b'\n' if self.blank_line_follows(at) => return Err("no `$` after it in the paragraph"),
                b'$' if self.closes_inline(from, at) => return Ok(at),
                b'{' | b'}' if self.flavor == Flavor::Tex => {
                    if byte == b'{' {
                        depth += 1;
                    } else if let Some(inner) = depth.checked_sub(1) {
                        depth = inner;
                    } else {
                        return Err("the brace group it stands in ends before a `$` closes it");
                    }
                    at += 1;
                }
                _ => at += 1,
            }
        }
        Err("no `$` after it in the paragraph")
    }

    fn closes_inline(&self, from: usize, at: usize) -> bool {
        if self.flavor == Flavor::Tex {
            return true;
        }
        let before = at.checked_sub(1).and_then(|i| self.bytes.get(i));
        let after = self.bytes.get(at + 1);
        at > from
            && before.is_some_and(|b| !b.is_ascii_whitespace())
            && !after.is_some_and(u8::is_ascii_digit)
    }

    /// Whether the line after the newline at `at` is blank (a paragraph break).
    fn blank_line_follows(&self, at: usize) -> bool {
        let rest = self.bytes.get(at + 1..).unwrap_or(&[]);
        let line_end = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
        rest.get(..line_end).is_some_and(|line| line.iter().all(u8::is_ascii_whitespace))
    }

    fn push(&mut self, at: usize, start: usize, end: usize) {
        let body = self.text.get(start..end).unwrap_or("").trim();
        if !body.is_empty() {
            self.found.push((at, Ok(body.to_string())));
        }
    }

    fn fail(&mut self, at: usize, message: String) {
        self.found.push((at, Err(message)));
    }
}

/// The first `needle` at or after `from`, stepping over `\x` pairs and text groups
/// (`\text{…}`, whose `$` are text).
fn find_unescaped(bytes: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    let mut at = from;
    while at < bytes.len() {
        if bytes.get(at..).is_some_and(|rest| rest.starts_with(needle)) {
            return Some(at);
        }
        at = match bytes.get(at) {
            Some(b'\\') => past_text_group(bytes, at).unwrap_or(at + 2),
            _ => at + 1,
        };
    }
    None
}

/// The first `needle` at or after `from`.
fn find_bytes(bytes: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    let rest = bytes.get(from..)?;
    rest.windows(needle.len().max(1)).position(|w| w == needle).map(|i| from + i)
}

/// Past a `{…}` argument (after blanks) at `at`, or `at` when there is none.
fn skip_braced_argument(bytes: &[u8], at: usize) -> usize {
    let start = at + bytes.get(at..).map_or(0, |r| r.iter().take_while(|b| b.is_ascii_whitespace()).count());
    if bytes.get(start) != Some(&b'{') {
        return at;
    }
    bytes.get(start..).and_then(|r| r.iter().position(|&b| b == b'}')).map_or(at, |i| start + i + 1)
}

/// Overwrites `range` with spaces, keeping newlines.
fn blank(bytes: &mut [u8], start: usize, end: usize) {
    let end = end.min(bytes.len());
    for byte in bytes.iter_mut().take(end).skip(start) {
        if *byte != b'\n' {
            *byte = b' ';
        }
    }
}

/// Bytes back to text; blanking whole characters keeps it UTF-8, the original otherwise.
fn into_text(bytes: Vec<u8>, original: &str) -> String {
    String::from_utf8(bytes).unwrap_or_else(|_| original.to_string())
}

/// TeX without comments, `\verb` and verbatim environments.
fn blank_tex(text: &str) -> String {
    let mut bytes = text.as_bytes().to_vec();
    let mut at = 0;
    while let Some(&byte) = bytes.get(at) {
        at = match byte {
            b'%' => {
                let end = line_end(&bytes, at);
                blank(&mut bytes, at, end);
                end
            }
            b'\\' => blank_tex_command(&mut bytes, at),
            _ => at + 1,
        };
    }
    into_text(bytes, text)
}

/// Blanks `\verb|…|`, a verbatim environment, `\iffalse … \fi`, or the argument of `\url`,
/// `\path` or `\href` at `at`; returns where to go on.
fn blank_tex_command(bytes: &mut [u8], at: usize) -> usize {
    let name = command_name(bytes, at);
    if name == b"iffalse" {
        let mut search = at + 8;
        let end = loop {
            match find_bytes(bytes, search, b"\\fi") {
                Some(i) if bytes.get(i + 3).is_some_and(u8::is_ascii_alphabetic) => search = i + 3,
                Some(i) => break i + 3,
                None => break bytes.len(),
            }
        };
        blank(bytes, at, end);
        return end;
    }
    if matches!(name, b"url" | b"path" | b"href") {
        let open = at + 1 + name.len();
        let end = match bytes.get(open) {
            Some(b'{') => group_end(bytes, open),
            Some(&delimiter)
                if name == b"path" && !delimiter.is_ascii_alphanumeric() && delimiter != b' ' =>
            {
                bytes
                    .get(open + 1..)
                    .and_then(|r| r.iter().position(|b| *b == delimiter))
                    .map(|i| open + 2 + i)
            }
            _ => None,
        };
        if let Some(end) = end {
            blank(bytes, at, end);
            return end;
        }
    }
    let rest = bytes.get(at..).unwrap_or(&[]);
    if rest.starts_with(b"\\verb") && rest.get(5).is_some_and(|b| !b.is_ascii_alphabetic()) {
        let delimiter_at = if rest.get(5) == Some(&b'*') { at + 6 } else { at + 5 };
        let Some(&delimiter) = bytes.get(delimiter_at) else { return at + 5 };
        let close = bytes.get(delimiter_at + 1..).and_then(|r| r.iter().position(|&b| b == delimiter));
        let end = close.map_or(delimiter_at + 1, |i| delimiter_at + 2 + i);
        blank(bytes, at, end);
        return end;
    }
    for name in VERBATIM_ENVIRONMENTS {
        let begin = format!("\\begin{{{name}}}");
        if rest.starts_with(begin.as_bytes()) {
            let close = format!("\\end{{{name}}}");
            let end = find_bytes(bytes, at, close.as_bytes()).map_or(bytes.len(), |i| i + close.len());
            blank(bytes, at, end);
            return end;
        }
    }
    at + 2
}

/// The position of the newline ending the line at `at` (or the end).
fn line_end(bytes: &[u8], at: usize) -> usize {
    bytes.get(at..).and_then(|r| r.iter().position(|&b| b == b'\n')).map_or(bytes.len(), |i| at + i)
}

/// Markdown without code blocks, code spans and HTML comments.
fn blank_markdown(text: &str) -> String {
    let mut bytes = text.as_bytes().to_vec();
    let mut at = 0;
    let mut line_start = true;
    while at < bytes.len() {
        let next = if line_start {
            blank_fence(&mut bytes, at).or_else(|| blank_indented(&mut bytes, at))
        } else {
            None
        };
        at = match (next, bytes.get(at)) {
            (Some(end), _) => end,
            (None, Some(b'`')) => blank_code_span(&mut bytes, at),
            (None, Some(b'<')) if bytes.get(at..).is_some_and(|r| r.starts_with(b"<!--")) => {
                let end = find_bytes(&bytes, at + 4, b"-->").map_or(bytes.len(), |i| i + 3);
                blank(&mut bytes, at, end);
                end
            }
            (None, Some(b'\\')) => at + 2,
            _ => at + 1,
        };
        line_start = at.checked_sub(1).and_then(|i| bytes.get(i)) == Some(&b'\n');
    }
    into_text(bytes, text)
}

/// An indented code block (lines indented by four spaces or a tab, after a blank line or at
/// the start) at the line starting at `at`: blanks it, returns its end.
fn blank_indented(bytes: &mut [u8], at: usize) -> Option<usize> {
    let indented = |bytes: &[u8], line: usize| {
        bytes.get(line..).is_some_and(|r| r.starts_with(b"    ") || r.starts_with(b"\t"))
    };
    let blank_line = |bytes: &[u8], line: usize| {
        bytes.get(line..line_end(bytes, line)).is_some_and(|l| l.iter().all(u8::is_ascii_whitespace))
    };
    if !indented(bytes, at) || blank_line(bytes, at) {
        return None;
    }
    // The line before must be blank (or there is none): an indented line cannot interrupt a
    // paragraph.
    if let Some(previous_end) = at.checked_sub(1) {
        let previous_start =
            bytes.get(..previous_end).and_then(|r| r.iter().rposition(|b| *b == b'\n')).map_or(0, |i| i + 1);
        if !blank_line(bytes, previous_start) {
            return None;
        }
    }
    let mut end = at;
    let mut line = at;
    while line < bytes.len() && (indented(bytes, line) || blank_line(bytes, line)) {
        let line_stop = line_end(bytes, line);
        if !blank_line(bytes, line) {
            end = line_stop;
        }
        line = line_stop + 1;
    }
    blank(bytes, at, end);
    Some(end)
}

/// A fenced code block opening at the line starting at `at`: blanks it, returns its end.
fn blank_fence(bytes: &mut [u8], at: usize) -> Option<usize> {
    let indent = bytes.get(at..)?.iter().take(4).take_while(|&&b| b == b' ').count();
    if indent > 3 {
        return None;
    }
    let fence_at = at + indent;
    let &fence = bytes.get(fence_at).filter(|&&b| b == b'`' || b == b'~')?;
    let run = bytes.get(fence_at..)?.iter().take_while(|&&b| b == fence).count();
    if run < 3 {
        return None;
    }
    let mut line = line_end(bytes, at) + 1;
    while line < bytes.len() {
        let end = line_end(bytes, line);
        let content = bytes.get(line..end).unwrap_or(&[]);
        let trimmed: Vec<u8> = content.iter().copied().skip_while(|&b| b == b' ').collect();
        let closing = trimmed.iter().take_while(|&&b| b == fence).count();
        if closing >= run && trimmed.iter().skip(closing).all(u8::is_ascii_whitespace) {
            blank(bytes, at, end);
            return Some(end);
        }
        line = end + 1;
    }
    blank(bytes, at, bytes.len());
    Some(bytes.len())
}

/// An inline code span opening at `at` (a run of backticks): blanks it up to the closing run
/// of the same length; a run without a match is text.
fn blank_code_span(bytes: &mut [u8], at: usize) -> usize {
    let run = bytes.get(at..).map_or(0, |r| r.iter().take_while(|&&b| b == b'`').count());
    let mut search = at + run;
    while let Some(offset) = bytes.get(search..).and_then(|r| r.iter().position(|&b| b == b'`')) {
        let close = search + offset;
        let close_run = bytes.get(close..).map_or(0, |r| r.iter().take_while(|&&b| b == b'`').count());
        if close_run == run {
            blank(bytes, at, close + run);
            return close + run;
        }
        search = close + close_run;
    }
    at + run
}
