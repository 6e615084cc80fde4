//! Parse errors and warnings, as data with spans.
//!
//! Every error names the problem in words a reader knows (never an internal rule name) and
//! carries the byte span it is about; an unclosed delimiter also carries the span where it was
//! opened. Rendering with a caret under the source is the report layer's job.

use super::ast::Span;
use crate::lang::Lang;
use serde::Serialize;

/// Why a formula could not be parsed.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ParseError {
    /// What went wrong.
    #[serde(flatten)]
    pub kind: ParseErrorKind,
    /// Where it went wrong.
    pub span: Span,
    /// For an unclosed delimiter: where it was opened.
    pub opened: Option<Span>,
}

/// The kinds of parse error. Each lists, in its doc comment, inputs that trigger it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "error", rename_all = "snake_case")]
pub enum ParseErrorKind {
    /// The formula is longer than the limit: a 10 MB paste.
    TooLong {
        /// Its length in bytes.
        bytes: usize,
        /// The limit in bytes.
        limit: usize,
    },
    /// Groups nest deeper than the limit: `{{{{…}}}}` 100,000 deep.
    TooDeep {
        /// The nesting limit.
        limit: usize,
    },
    /// Too many signs in a row: `- - - - … x`.
    TooManySigns {
        /// The limit.
        limit: usize,
    },
    /// Too many scripts stacked on one base: `x_1!_2!_3!…`.
    TooManyScripts {
        /// The limit.
        limit: usize,
    },
    /// A delimiter opened and never closed: `\sum_{i=1`, `\left(` without `\right`,
    /// `\begin{cases}` without `\end{cases}`.
    Unclosed {
        /// The opening delimiter as written.
        delimiter: String,
        /// What would close it.
        closer: String,
    },
    /// A closing delimiter with nothing open: `x}`, `\right)` without `\left`, `\end{cases}`
    /// alone.
    UnexpectedClose {
        /// The closing delimiter as written.
        delimiter: String,
    },
    /// `\begin{bmatrix} … \end{pmatrix}`.
    MismatchedEnvironment {
        /// The name in `\begin`.
        begin: String,
        /// The name in `\end`.
        end: String,
    },
    /// A command without the arguments it needs: `\frac{a}`, `x^\frac12`, `\hat`.
    MissingArguments {
        /// The command as written.
        command: String,
    },
    /// The parser ran out of steps (see `Limits::max_steps`): no real formula does this.
    TooComplex {
        /// The step limit.
        limit: usize,
    },
    /// Something the grammar cannot take at this point: `\sqrt[`, `x^`, `\left\alpha`.
    Unexpected {
        /// What was found, as written (or "the end of the formula").
        found: String,
        /// What would have been accepted, in words.
        expected: Vec<String>,
    },
}

impl ParseError {
    /// An error of `kind` at `span`.
    pub fn new(kind: ParseErrorKind, span: Span) -> Self {
        ParseError { kind, span, opened: None }
    }

    /// The one-line message.
    pub fn message(&self, lang: Lang) -> String {
        use ParseErrorKind::*;
        match (&self.kind, lang) {
            (TooLong { bytes, limit }, Lang::Ko) => {
                format!("수식이 너무 깁니다: {bytes}바이트 (한도 {limit}바이트, --max-bytes로 늘릴 수 있음)")
            }
            (TooLong { bytes, limit }, Lang::En) => {
                format!("formula too long: {bytes} bytes (limit {limit}; raise it with --max-bytes)")
            }
            (TooDeep { limit }, Lang::Ko) if *limit >= super::Limits::MAX_DEPTH_CEILING => {
                format!("중첩이 너무 깊습니다 (한도 {limit}단계, eqmap이 허용하는 최대)")
            }
            (TooDeep { limit }, Lang::En) if *limit >= super::Limits::MAX_DEPTH_CEILING => {
                format!("maximum nesting depth exceeded ({limit} levels, the most eqmap allows)")
            }
            (TooDeep { limit }, Lang::Ko) => {
                format!("중첩이 너무 깊습니다 (한도 {limit}단계, --max-depth로 늘릴 수 있음)")
            }
            (TooDeep { limit }, Lang::En) => {
                format!("maximum nesting depth exceeded ({limit} levels; raise it with --max-depth)")
            }
            (TooManySigns { limit }, Lang::Ko) => format!("부호가 연달아 너무 많습니다 (한도 {limit}개)"),
            (TooManySigns { limit }, Lang::En) => format!("too many signs in a row (limit {limit})"),
            (TooManyScripts { limit }, Lang::Ko) => {
                format!("한 기호에 첨자가 너무 많이 붙었습니다 (한도 {limit}개)")
            }
            (TooManyScripts { limit }, Lang::En) => format!("too many scripts on one base (limit {limit})"),
            (TooComplex { limit }, Lang::Ko) => {
                format!("수식을 읽는 데 단계가 너무 많이 듭니다 (한도 {limit}단계)")
            }
            (TooComplex { limit }, Lang::En) => {
                format!("formula too complex to parse: more than {limit} parser steps")
            }
            (Unclosed { delimiter, closer }, Lang::Ko) => {
                format!("`{delimiter}`가 닫히지 않았습니다: `{closer}`가 필요합니다")
            }
            (Unclosed { delimiter, closer }, Lang::En) => {
                format!("unclosed `{delimiter}`: expected `{closer}`")
            }
            (UnexpectedClose { delimiter }, Lang::Ko) => format!("여는 짝이 없는 `{delimiter}`입니다"),
            (UnexpectedClose { delimiter }, Lang::En) => {
                format!("`{delimiter}` closes nothing that was opened")
            }
            (MismatchedEnvironment { begin, end }, Lang::Ko) => {
                format!("`\\begin{{{begin}}}`를 `\\end{{{end}}}`로 닫을 수 없습니다")
            }
            (MismatchedEnvironment { begin, end }, Lang::En) => {
                format!("`\\begin{{{begin}}}` is closed by `\\end{{{end}}}`")
            }
            (MissingArguments { command }, Lang::Ko) => {
                format!("`{command}`에 인자가 없습니다: `{command}{{…}}`처럼 중괄호로 인자를 주세요")
            }
            (MissingArguments { command }, Lang::En) => {
                format!("`{command}` is missing its arguments: give them in braces, as in `{command}{{…}}`")
            }
            (Unexpected { found, expected }, Lang::Ko) if found == "the end of the formula" => {
                format!("수식이 너무 일찍 끝났습니다{}", expected_list(expected, lang))
            }
            (Unexpected { found, expected }, Lang::Ko) => {
                format!("여기서 {found}을(를) 읽을 수 없습니다{}", expected_list(expected, lang))
            }
            (Unexpected { found, expected }, Lang::En) => {
                format!("unexpected {found}{}", expected_list(expected, lang))
            }
        }
    }

    /// The short label printed under the caret.
    pub fn label(&self, lang: Lang) -> String {
        use ParseErrorKind::*;
        match &self.kind {
            Unclosed { closer, .. } => {
                format!("{} `{closer}`", lang.pick("여기까지 없는", "expected before here:"))
            }
            Unexpected { expected, .. } if !expected.is_empty() => match lang {
                Lang::Ko => format!("필요한 것: {}", korean_list(expected)),
                Lang::En => format!("expected {}", expected.join(", or ")),
            },
            _ => lang.pick("여기", "here").to_string(),
        }
    }

    /// The label printed under the opening delimiter, if there is one.
    pub fn opened_label(&self, lang: Lang) -> Option<String> {
        self.opened.map(|_| lang.pick("여기서 열림", "opened here").to_string())
    }
}

fn expected_list(expected: &[String], lang: Lang) -> String {
    if expected.is_empty() {
        return String::new();
    }
    match lang {
        Lang::Ko => format!(" ({} 필요)", korean_list(expected)),
        Lang::En => format!("; expected {}", expected.join(", or ")),
    }
}

fn korean_list(expected: &[String]) -> String {
    expected.iter().map(|words| in_korean(words)).collect::<Vec<_>>().join(", ")
}

/// The Korean for the words the parser uses for what it expected or found (the English stays
/// in the JSON, which is the same in both languages); LaTeX in backticks needs no translation.
fn in_korean(words: &str) -> &str {
    match words {
        "the end of the formula" => "수식의 끝",
        "an expression" => "식",
        "an operand" => "피연산자",
        "a relation such as `=`" => "`=` 같은 관계 기호",
        "`+` or `-`" => "`+` 또는 `-`",
        "an operator such as `\\cdot`" => "`\\cdot` 같은 연산자",
        "an operator" => "연산자",
        "a sign" => "부호",
        "a subscript `_`" => "아래첨자 `_`",
        "a superscript `^`" => "위첨자 `^`",
        "a prime `'`" => "프라임 `'`",
        "a script" => "첨자",
        "an argument: `{…}` or one symbol" => "인자: `{…}` 또는 기호 하나",
        "a symbol" => "기호",
        "a font switch" => "글꼴 전환",
        "an opening bracket" => "여는 괄호",
        "a closing bracket" => "닫는 괄호",
        "`]` closing the root's index" => "근호의 지수를 닫는 `]`",
        "an accent" => "악센트",
        "a font command" => "글꼴 명령",
        "text in braces `{…}`" => "중괄호 안의 텍스트 `{…}`",
        "a command" => "명령",
        "a brace label" => "중괄호 설명",
        "a delimiter such as `(`, `[`, `|` or `.`" => "`(`, `[`, `|`, `.` 같은 구분 기호",
        "an environment name" => "환경 이름",
        "a position such as `[t]`" => "`[t]` 같은 위치",
        "a column specification such as `{cc}`" => "`{cc}` 같은 열 지정",
        "a space" => "공백",
        "a guard" => "식",
        "text" => "텍스트",
        other => other,
    }
}

/// Something the parser accepted but wants the reader to know.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Warning {
    /// What it is about.
    #[serde(flatten)]
    pub kind: WarningKind,
    /// Where.
    pub span: Span,
}

/// The kinds of warning.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "warning", rename_all = "snake_case")]
pub enum WarningKind {
    /// A command eqmap does not know, kept as an unknown symbol: `\foo`.
    UnknownCommand {
        /// The command with its backslash.
        name: String,
    },
    /// A character eqmap does not know, kept as an unknown symbol: `☃`.
    UnknownCharacter {
        /// The character.
        character: String,
    },
}

impl Warning {
    /// The one-line message.
    pub fn message(&self, lang: Lang) -> String {
        match (&self.kind, lang) {
            (WarningKind::UnknownCommand { name }, Lang::Ko) => {
                format!("모르는 명령 `{name}`: 알 수 없는 기호로 두고 나머지를 읽습니다")
            }
            (WarningKind::UnknownCommand { name }, Lang::En) => {
                format!("unknown command `{name}`: kept as an unknown symbol, the rest is still read")
            }
            (WarningKind::UnknownCharacter { character }, Lang::Ko) => {
                format!("모르는 문자 {}: 알 수 없는 기호로 둡니다", shown(character))
            }
            (WarningKind::UnknownCharacter { character }, Lang::En) => {
                format!("unknown character {}: kept as an unknown symbol", shown(character))
            }
        }
    }
}

/// Whether `c` shows nothing on a terminal (or moves the cursor): control characters, and
/// the zero-width and direction marks that PDFs paste. A message names such a character by
/// its code point rather than printing it.
pub fn is_invisible(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{00AD}' | '\u{200B}'..='\u{200F}' | '\u{2028}'..='\u{202E}' | '\u{2060}'..='\u{2064}' | '\u{FEFF}')
}

/// `text` with every invisible character written as `U+XXXX`.
pub fn visible(text: &str) -> String {
    text.chars()
        .map(|c| if is_invisible(c) { format!("U+{:04X}", u32::from(c)) } else { c.to_string() })
        .collect()
}

/// A character for a message: in backticks, or by its code point when it is invisible.
fn shown(text: &str) -> String {
    if text.chars().any(is_invisible) {
        visible(text)
    } else {
        format!("`{text}`")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::{describe, grammar::Rule};

    #[test]
    fn every_expected_word_has_korean() {
        for rule in Rule::all_rules() {
            let words = describe(*rule);
            let korean = in_korean(words);
            let only_latex = words.starts_with('`') && words.ends_with('`') && !words.contains(" or ");
            assert!(korean != words || only_latex, "no Korean for {words:?} ({rule:?})");
        }
    }
}
