//! Where the binary's formulas come from (binary only): the argument, or standard input by
//! one rule for every command (one formula a line, `--whole` for all of it as one), and how
//! their messages are laid out on standard error (each under its own line number, coloured
//! only on a terminal without `NO_COLOR`).

use eqmap::report::diagnostic::{self, Layout};
use eqmap::syntax::error::{ParseError, Warning};
use eqmap::Lang;
use std::io::{self, IsTerminal, Read};

/// One formula to work on.
#[derive(Debug, Clone)]
pub struct Input {
    /// The line of standard input it is on (1 for an argument).
    pub line: usize,
    /// The formula as given.
    pub text: String,
}

impl Input {
    /// How this formula's messages are laid out on standard error.
    pub fn layout(&self) -> Layout {
        Layout { first_line: self.line, color: color_on(&io::stderr()) }
    }

    /// Prints `warnings` (spans in [`Input::text`]) on standard error: the first
    /// [`MAX_WARNINGS_SHOWN`] under the source with carets, then how many more there are, so
    /// that the text stays linear in the formula's length (each rendering shows its line).
    pub fn warn(&self, warnings: &[Warning], lang: Lang) {
        let mut text = String::new();
        for warning in warnings.iter().take(MAX_WARNINGS_SHOWN) {
            text.push_str(&diagnostic::render_warning_in(&self.text, warning, lang, self.layout()));
        }
        if let Some(more) = warnings.len().checked_sub(MAX_WARNINGS_SHOWN).filter(|n| *n > 0) {
            text.push_str(&match lang {
                Lang::Ko => format!("경고: 이 식에 경고가 {more}개 더 있습니다 (처음 {MAX_WARNINGS_SHOWN}개만 보였습니다)\n"),
                Lang::En => format!(
                    "warning: {more} more {} in this formula (only the first {MAX_WARNINGS_SHOWN} are shown)\n",
                    if more == 1 { "warning" } else { "warnings" }
                ),
            });
        }
        eprint!("{text}");
    }

    /// Prints `error` (spans in [`Input::text`]) on standard error.
    pub fn fail(&self, error: &ParseError, lang: Lang) {
        eprint!("{}", diagnostic::render_error_in(&self.text, error, lang, self.layout()));
    }
}

/// The most warnings of one formula shown under its source; the rest are counted.
pub const MAX_WARNINGS_SHOWN: usize = 20;

/// Colour on `stream`: only on a terminal, and never when `NO_COLOR` is set.
pub fn color_on(stream: &impl IsTerminal) -> bool {
    stream.is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// Standard input as text; not UTF-8 is bad input (`InvalidData`), naming the offset.
pub fn read_stdin() -> io::Result<String> {
    let mut bytes = Vec::new();
    io::stdin().read_to_end(&mut bytes)?;
    String::from_utf8(bytes).map_err(|error| {
        let at = error.utf8_error().valid_up_to();
        let byte = error.as_bytes().get(at).copied().unwrap_or(0);
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("standard input is not UTF-8: byte 0x{byte:02X} at offset {at} starts no character"),
        )
    })
}

/// The formulas of a command: the argument, or (for `-` or none) standard input, one formula
/// a line or (`whole`) all of it as one. Nothing on standard input is one empty formula, which
/// is an error to whoever reads it.
pub fn inputs(argument: Option<String>, whole: bool) -> io::Result<Vec<Input>> {
    match argument {
        Some(formula) if formula != "-" => Ok(vec![Input { line: 1, text: formula }]),
        _ => {
            let text = read_stdin()?;
            let lines = eqmap::paste::lines::formulas(&text, whole);
            if lines.is_empty() {
                return Ok(vec![Input { line: 1, text: String::new() }]);
            }
            Ok(lines.into_iter().map(|l| Input { line: l.number, text: l.text.to_string() }).collect())
        }
    }
}

/// The formulas of `map`: as [`inputs`], but without an argument on a terminal, or with
/// nothing in the pipe, `default`.
pub fn inputs_or_default(argument: Option<String>, whole: bool, default: &str) -> io::Result<Vec<Input>> {
    let fallback = || vec![Input { line: 1, text: default.to_string() }];
    match argument {
        None if io::stdin().is_terminal() => Ok(fallback()),
        None => {
            let found = inputs(None, whole)?;
            let blank = found.iter().all(|input| input.text.trim().is_empty());
            Ok(if blank { fallback() } else { found })
        }
        Some(argument) => inputs(Some(argument), whole),
    }
}
