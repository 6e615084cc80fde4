//! A linear scan run before pest: limits, balance and nesting depth.
//!
//! pest 2.8 does not guard its own stack, and our Pairs → AST conversion recurses too, so
//! nothing deeper than the nesting limit may reach them. Every construct through which the
//! grammar recurses opens a frame here: `{`, bracket groups (`(`, `[`, `\{`, `⟨` and the opening
//! bracket words `\langle`, `\lfloor`, `\lceil`, `\lvert`, `\lVert`…), `\left`, `\begin`, and font
//! switches such as `{\bf …}` (each styles the rest of its group). The scan also gives the
//! better errors for unbalanced input: which delimiter is unclosed and where it was opened.
//!
//! [`within_limits_by_count`] tells, from a count of bytes alone, when no frame or run of signs
//! can reach the limits: then the direct reader may run first (its recursion bounded as well),
//! and the scan is needed only where that reader leaves the formula to pest or passed over text.

use super::ast::Span;
use super::encode::{self, byte_set};
use super::error::{ParseError, ParseErrorKind};
use super::Limits;

#[derive(Debug, Clone, PartialEq)]
enum Frame {
    Brace,
    Bracket,
    Left,
    Environment(String),
    Switch,
}

struct Open {
    frame: Frame,
    span: Span,
}

/// Checks `source` against `limits` and for balanced braces, `\left`/`\right` and
/// `\begin`/`\end`.
pub fn prescan(source: &str, limits: &Limits) -> Result<(), ParseError> {
    if source.len() > limits.max_bytes {
        return Err(ParseError::new(
            ParseErrorKind::TooLong { bytes: source.len(), limit: limits.max_bytes },
            Span::new(0, 0),
        ));
    }
    Scanner { source, bytes: source.as_bytes(), stack: Vec::new(), limits, signs: 0, sign_end: 0 }.run()
}

/// Whether the pre-scan's limits on depth and on signs cannot be reached in `source`, counted
/// without scanning its structure: every frame the scan opens starts with `{`, `(`, `[` or a
/// backslash (`\left`, `\begin`, a font switch), and every sign is a `+`, a `-` or a backslash
/// (`\pm`, `\neg`…). Signs outside ASCII (`−`, `±`) go uncounted: the direct reader leaves
/// text that is not ASCII to pest, after the scan. The count takes one pass the compiler
/// vectorizes.
pub(super) fn within_limits_by_count(source: &str, limits: &Limits) -> bool {
    let (mut openers, mut signs, mut commands) = (0usize, 0usize, 0usize);
    // Counts of at most 255 a chunk fit in bytes, which the compiler adds 16 at a time.
    for chunk in source.as_bytes().chunks(255) {
        let (mut chunk_openers, mut chunk_signs, mut chunk_commands) = (0u8, 0u8, 0u8);
        for &byte in chunk {
            chunk_openers += u8::from((byte == b'{') | (byte == b'(') | (byte == b'['));
            chunk_signs += u8::from((byte == b'+') | (byte == b'-'));
            chunk_commands += u8::from(byte == b'\\');
        }
        openers += usize::from(chunk_openers);
        signs += usize::from(chunk_signs);
        commands += usize::from(chunk_commands);
    }
    source.len() <= limits.max_bytes
        && openers + commands <= limits.max_depth
        && signs + commands <= limits.max_signs
}

/// Reads `{name}` after `\begin` or `\end` (at `from`, after the command's name) as the scan
/// does: blanks, then a brace, the name up to the first `}` with its white space dropped.
/// Returns the name and where it ends. The direct reader asks it too, so that it reads an
/// environment only where the scan sees the same one.
pub(super) fn environment_name(source: &str, from: usize) -> Option<(String, usize)> {
    let bytes = source.as_bytes();
    let mut at = from;
    while bytes.get(at).is_some_and(|b| *b == b' ') {
        at += 1;
    }
    if bytes.get(at) != Some(&b'{') {
        return None;
    }
    let close = source.get(at..)?.find('}')? + at;
    let name: String = source.get(at + 1..close)?.split_whitespace().collect();
    Some((name, close + 1))
}

struct Scanner<'a> {
    source: &'a str,
    bytes: &'a [u8],
    stack: Vec<Open>,
    limits: &'a Limits,
    /// Signs in the current run: signs with only blanks between them.
    signs: usize,
    /// Where the last sign ended.
    sign_end: usize,
}

/// The bytes the scan acts on: backslashes, braces, brackets, ASCII signs, and the lead bytes
/// of non-ASCII characters (which may be signs). Every other byte is passed over in one tight
/// loop; a run of signs is broken by anything but blanks between them, which
/// [`Scanner::sign`] checks when the next sign comes, so plain bytes need no work of their own.
const ACTS_ON: [bool; 256] = byte_set(&[
    (0x80, 0xff),
    (b'\\', b'\\'),
    (b'{', b'{'),
    (b'}', b'}'),
    (b'(', b')'),
    (b'[', b'['),
    (b']', b']'),
    (b'+', b'+'),
    (b'-', b'-'),
]);

impl Scanner<'_> {
    fn run(mut self) -> Result<(), ParseError> {
        let mut at = 0;
        while let Some(&byte) = self.bytes.get(at) {
            at = if ACTS_ON.get(usize::from(byte)) == Some(&true) { self.step(at, byte)? } else { at + 1 };
        }
        self.finish()
    }

    /// Handles the token at `at` (one the scan acts on), returning where the next one starts.
    fn step(&mut self, at: usize, byte: u8) -> Result<usize, ParseError> {
        match byte {
            b'\\' => self.command(at),
            b'{' => {
                self.push(Frame::Brace, Span::new(at, at + 1))?;
                Ok(at + 1)
            }
            b'}' => {
                self.close_brace(at)?;
                Ok(at + 1)
            }
            b'(' | b'[' => {
                self.push(Frame::Bracket, Span::new(at, at + 1))?;
                Ok(at + 1)
            }
            b')' | b']' => {
                self.close_bracket();
                Ok(at + 1)
            }
            b'-' | b'+' => {
                self.sign(at, 1)?;
                Ok(at + 1)
            }
            _ => self.unicode(at),
        }
    }

    fn unicode(&mut self, at: usize) -> Result<usize, ParseError> {
        let c = self.source.get(at..).and_then(|rest| rest.chars().next());
        let width = c.map_or(1, char::len_utf8);
        match c {
            Some('−' | '±' | '∓' | '¬') => self.sign(at, width)?,
            Some('⟨') => self.push(Frame::Bracket, Span::new(at, at + width))?,
            Some('⟩') => self.close_bracket(),
            _ => {}
        }
        Ok(at + width)
    }

    /// Counts the sign at `at`: one more in the run if only blanks came since the last sign.
    fn sign(&mut self, at: usize, width: usize) -> Result<(), ParseError> {
        let blanks_between = self
            .bytes
            .get(self.sign_end..at)
            .is_some_and(|between| between.iter().all(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r')));
        self.signs = if self.signs > 0 && blanks_between { self.signs + 1 } else { 1 };
        self.sign_end = at + width;
        if self.signs > self.limits.max_signs {
            return Err(ParseError::new(
                ParseErrorKind::TooManySigns { limit: self.limits.max_signs },
                Span::new(at, at + width),
            ));
        }
        Ok(())
    }

    fn command(&mut self, at: usize) -> Result<usize, ParseError> {
        let name_end = self.letters_end(at + 1);
        if name_end == at + 1 {
            // `\{` opens a bracket group as `(` does and `\}` closes one; `\\`, `\|`, `\,` are
            // never structure. Skip the next char whole.
            let next = self.source.get(at + 1..).and_then(|rest| rest.chars().next());
            match next {
                Some('{') => self.push(Frame::Bracket, Span::new(at, at + 2))?,
                Some('}') => self.close_bracket(),
                _ => {}
            }
            return Ok(at + 1 + next.map_or(0, char::len_utf8));
        }
        let name = self.source.get(at + 1..name_end).unwrap_or("");
        let span = Span::new(at, name_end);
        match name {
            "left" => {
                self.push(Frame::Left, span)?;
                return Ok(self.skip_delimiter(name_end));
            }
            "right" => {
                self.close_left(span)?;
                return Ok(self.skip_delimiter(name_end));
            }
            "middle" => return Ok(self.skip_delimiter(name_end)),
            "begin" => return self.begin(at, name_end),
            "end" => return self.end(at, name_end),
            switch if encode::is_font_switch(switch) => self.push(Frame::Switch, span)?,
            opener if encode::opens_bracket(opener) => self.push(Frame::Bracket, span)?,
            closer if encode::closes_bracket(closer) => self.close_bracket(),
            "pm" | "mp" | "neg" | "lnot" => {
                self.sign(at, name_end - at)?;
                return Ok(name_end);
            }
            _ => {}
        }
        Ok(name_end)
    }

    /// Skips the delimiter after `\left`, `\right` or `\middle`, so that its bracket opens no
    /// group of its own: the characters, the escaped `\{` `\}` `\|` and the delimiter words
    /// (`\langle`, `\rfloor`, `\vert`…) that the grammar's `delimiter` takes.
    fn skip_delimiter(&self, from: usize) -> usize {
        let mut at = from;
        while self.bytes.get(at).is_some_and(|b| *b == b' ') {
            at += 1;
        }
        match self.bytes.get(at) {
            Some(b'(' | b')' | b'[' | b']' | b'.' | b'|' | b'/' | b'<' | b'>') => at + 1,
            Some(b'\\') => match self.bytes.get(at + 1) {
                Some(b'{' | b'}' | b'|') => at + 2,
                _ => {
                    let end = self.letters_end(at + 1);
                    let word = self.source.get(at + 1..end).unwrap_or("");
                    if encode::is_delimiter_word(word) {
                        end
                    } else {
                        from
                    }
                }
            },
            _ => match self.source.get(at..).and_then(|rest| rest.chars().next()) {
                Some(c @ ('⟨' | '⟩' | '‖')) => at + c.len_utf8(),
                _ => from,
            },
        }
    }

    /// Closes the innermost frame if it is a bracket group: a closing bracket (`)`, `]`, `\}`,
    /// `\rangle`…) ends one, and is a plain symbol anywhere else.
    fn close_bracket(&mut self) {
        if matches!(self.stack.last(), Some(Open { frame: Frame::Bracket, .. })) {
            self.stack.pop();
        }
    }

    fn letters_end(&self, from: usize) -> usize {
        let mut end = from;
        while self.bytes.get(end).is_some_and(u8::is_ascii_alphabetic) {
            end += 1;
        }
        end
    }

    fn begin(&mut self, at: usize, name_end: usize) -> Result<usize, ParseError> {
        match environment_name(self.source, name_end) {
            Some((name, end)) => {
                self.push(Frame::Environment(name), Span::new(at, end))?;
                Ok(end)
            }
            None => Ok(name_end),
        }
    }

    fn end(&mut self, at: usize, name_end: usize) -> Result<usize, ParseError> {
        let Some((name, end)) = environment_name(self.source, name_end) else {
            return Ok(name_end);
        };
        let span = Span::new(at, end);
        self.pop_implicit();
        match self.stack.pop() {
            Some(Open { frame: Frame::Environment(begin), .. }) if begin == name => Ok(end),
            Some(Open { frame: Frame::Environment(begin), span: opened }) => Err(ParseError {
                kind: ParseErrorKind::MismatchedEnvironment { begin, end: name },
                span,
                opened: Some(opened),
            }),
            Some(open) => Err(self.unclosed(&open, span.start)),
            None => Err(ParseError::new(
                ParseErrorKind::UnexpectedClose { delimiter: format!("\\end{{{name}}}") },
                span,
            )),
        }
    }

    fn push(&mut self, frame: Frame, span: Span) -> Result<(), ParseError> {
        if self.stack.len() >= self.limits.max_depth {
            return Err(ParseError::new(ParseErrorKind::TooDeep { limit: self.limits.max_depth }, span));
        }
        self.stack.push(Open { frame, span });
        Ok(())
    }

    /// Pops the frames a closing brace or `\right` closes implicitly: unclosed `(`/`[`
    /// groups and font switches.
    fn pop_implicit(&mut self) {
        while matches!(self.stack.last(), Some(Open { frame: Frame::Bracket | Frame::Switch, .. })) {
            self.stack.pop();
        }
    }

    fn close_brace(&mut self, at: usize) -> Result<(), ParseError> {
        self.pop_implicit();
        let span = Span::new(at, at + 1);
        match self.stack.pop() {
            Some(Open { frame: Frame::Brace, .. }) => Ok(()),
            Some(open) => Err(self.unclosed(&open, at)),
            None => Err(ParseError::new(ParseErrorKind::UnexpectedClose { delimiter: "}".into() }, span)),
        }
    }

    fn close_left(&mut self, span: Span) -> Result<(), ParseError> {
        self.pop_implicit();
        match self.stack.pop() {
            Some(Open { frame: Frame::Left, .. }) => Ok(()),
            Some(open) => Err(self.unclosed(&open, span.start)),
            None => {
                Err(ParseError::new(ParseErrorKind::UnexpectedClose { delimiter: "\\right".into() }, span))
            }
        }
    }

    fn unclosed(&self, open: &Open, at: usize) -> ParseError {
        let (delimiter, closer) = match &open.frame {
            Frame::Brace => ("{".to_string(), "}".to_string()),
            Frame::Left => (open.span.text(self.source).to_string(), "\\right".to_string()),
            Frame::Environment(name) => (format!("\\begin{{{name}}}"), format!("\\end{{{name}}}")),
            Frame::Bracket | Frame::Switch => ("(".to_string(), ")".to_string()),
        };
        ParseError {
            kind: ParseErrorKind::Unclosed { delimiter, closer },
            span: Span::new(at, at),
            opened: Some(open.span),
        }
    }

    fn finish(mut self) -> Result<(), ParseError> {
        self.pop_implicit();
        match self.stack.last() {
            Some(open) => Err(self.unclosed(open, self.bytes.len())),
            None => Ok(()),
        }
    }
}
