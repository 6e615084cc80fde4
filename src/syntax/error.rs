//! Parse errors and warnings, as data with spans.
//!
//! Every error names the problem in words a reader knows (never an internal rule name) and
//! carries the byte span it is about; an unclosed delimiter also carries the span where it was
//! opened. Rendering with a caret under the source is the report layer's job.

use super::ast::Span;
use crate::lang::Lang;
use crate::surface::{Limit, Surface};
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
    /// A command given fewer braced arguments than it takes: `\frac{1}`, `\binom{n}`.
    MissingArgument {
        /// The command as written.
        command: String,
        /// How many arguments it takes.
        takes: usize,
        /// How many it was given.
        given: usize,
    },
    /// Nothing to read: an empty argument, a blank line, or math delimiters with nothing
    /// between them (`$$`, `\[ \]`).
    Empty,
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

    /// The one-line message, as the command line shows it.
    pub fn message(&self, lang: Lang) -> String {
        self.message_on(lang, Surface::Cli)
    }

    /// The one-line message as `surface` shows it: a limit is raised by its flag on the command
    /// line, and fixed on a server.
    pub fn message_on(&self, lang: Lang, surface: Surface) -> String {
        use ParseErrorKind::*;
        match (&self.kind, lang) {
            (TooLong { bytes, limit }, Lang::Ko) => {
                let raise = surface.after_limit(Limit::Bytes, lang);
                format!("수식이 너무 깁니다: {bytes}바이트 (한도 {limit}바이트{raise})")
            }
            (TooLong { bytes, limit }, Lang::En) => {
                let raise = surface.after_limit(Limit::Bytes, lang);
                format!("formula too long: {} (limit {limit}{raise})", plural(*bytes, "byte"))
            }
            (TooDeep { limit }, Lang::Ko) if *limit >= super::Limits::MAX_DEPTH_CEILING => {
                format!("중첩이 너무 깊습니다 (한도 {limit}단계, eqmap이 허용하는 최대)")
            }
            (TooDeep { limit }, Lang::En) if *limit >= super::Limits::MAX_DEPTH_CEILING => {
                format!("maximum nesting depth exceeded ({}, the most eqmap allows)", plural(*limit, "level"))
            }
            (TooDeep { limit }, Lang::Ko) => {
                format!("중첩이 너무 깊습니다 (한도 {limit}단계{})", surface.after_limit(Limit::Depth, lang))
            }
            (TooDeep { limit }, Lang::En) => {
                let raise = surface.after_limit(Limit::Depth, lang);
                format!("maximum nesting depth exceeded ({}{raise})", plural(*limit, "level"))
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
                format!("formula too complex to parse: more than {} parser steps", limit)
            }
            (Unclosed { delimiter, closer }, Lang::Ko) => {
                format!("`{delimiter}` 표기를 닫지 않았습니다: `{closer}` 표기가 필요합니다")
            }
            (Unclosed { delimiter, closer }, Lang::En) => {
                format!("unclosed `{delimiter}`: expected `{closer}`")
            }
            (UnexpectedClose { delimiter }, Lang::Ko) => format!("`{delimiter}` 표기에 여는 짝이 없습니다"),
            (UnexpectedClose { delimiter }, Lang::En) => {
                format!("`{delimiter}` closes nothing that was opened")
            }
            (MismatchedEnvironment { begin, end }, Lang::Ko) => {
                format!("`\\begin{{{begin}}}` 환경을 `\\end{{{end}}}` 환경으로 닫을 수 없습니다")
            }
            (MismatchedEnvironment { begin, end }, Lang::En) => {
                format!("`\\begin{{{begin}}}` is closed by `\\end{{{end}}}`")
            }
            (MissingArguments { command }, Lang::Ko) => {
                format!("`{command}` 명령에 인자가 없습니다: `{command}{{…}}` 꼴로 중괄호 안에 인자를 주세요")
            }
            (MissingArguments { command }, Lang::En) => {
                format!("`{command}` is missing its arguments: give them in braces, as in `{command}{{…}}`")
            }
            (MissingArgument { command, takes, given }, Lang::Ko) => format!(
                "`{command}` 명령은 인자 {takes}개를 받는데 {given}개만 있습니다: {} 인자가 빠졌습니다 (`{command}{}`)",
                korean_ordinal(given + 1),
                "{…}".repeat(*takes)
            ),
            (MissingArgument { command, takes, given }, Lang::En) => format!(
                "`{command}` takes {} and has {given}: the {} is missing, as in `{command}{}`",
                plural(*takes, "argument"),
                ordinal(given + 1),
                "{…}".repeat(*takes)
            ),
            (Empty, Lang::Ko) => "수식이 비어 있습니다: 읽을 것이 없습니다".to_string(),
            (Empty, Lang::En) => "the formula is empty: there is nothing to read".to_string(),
            (Unexpected { found, expected }, Lang::Ko) if found == END => {
                format!("수식이 너무 일찍 끝났습니다{}", expected_list(expected, lang))
            }
            (Unexpected { found, expected }, Lang::En) if found == END => {
                format!("the formula ends too early{}", expected_list(expected, lang))
            }
            (Unexpected { found, expected }, Lang::Ko) => {
                format!("여기서 읽을 수 없는 것: {found}{}", expected_list(expected, lang))
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

/// What the parser says it found at the end of the input.
const END: &str = "the end of the formula";

/// `count` and `noun`, plural unless the count is one: "1 byte", "2 bytes".
fn plural(count: usize, noun: &str) -> String {
    if count == 1 {
        format!("1 {noun}")
    } else {
        format!("{count} {noun}s")
    }
}

/// "first", "second", … for the argument counts of LaTeX commands.
fn ordinal(n: usize) -> String {
    match n {
        1 => "first argument".into(),
        2 => "second argument".into(),
        3 => "third argument".into(),
        n => format!("argument number {n}"),
    }
}

/// 첫 번째, 두 번째, … for the argument counts of LaTeX commands.
fn korean_ordinal(n: usize) -> String {
    match n {
        1 => "첫 번째".into(),
        2 => "두 번째".into(),
        3 => "세 번째".into(),
        n => format!("{n}번째"),
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
    /// Math delimiters pasted along and taken off: `$x$`, `\[x\]`,
    /// `\begin{equation}x\end{equation}`; an `align` is read as `aligned` (`rows`).
    Wrapper {
        /// The pair as shown: `$…$`.
        wrapper: String,
        /// Whether its rows were kept as `aligned`.
        rows: bool,
    },
    /// A short word of plain text that may be a name or letters multiplied: `tr A`.
    AmbiguousName {
        /// The word.
        word: String,
        /// The name it may stand for.
        latex: String,
    },
    /// A `(` or `[` never closed: `\mathrm{softmax}(QK^\top`.
    UnclosedBracket {
        /// The bracket.
        delimiter: String,
    },
    /// A `)` or `]` with nothing open before it: `x)`.
    UnopenedBracket {
        /// The bracket.
        delimiter: String,
    },
    /// A `|` without a partner: `|x + y`.
    LoneBar,
    /// An operator with nothing after it at the end of the formula: `x +`, `L =`.
    TrailingOperator {
        /// The operator as written.
        operator: String,
    },
    /// Text as a PDF gives it, read as its LaTeX most likely was: TeX's display sum sign given
    /// as the letter `X`, a subscript set right after its letter (`pi`), a fraction's two lines.
    PdfText {
        /// What the text has.
        found: String,
        /// What it is read as.
        read: String,
        /// Why.
        why: PdfWhy,
    },
}

/// Why text from a PDF is read differently ([`WarningKind::PdfText`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PdfWhy {
    /// A big operator given as its font's letter, with its limits on the lines around it.
    BigOperator,
    /// Letters set together: the first with a subscript.
    Subscript,
    /// An exponent set right after its base: `e−λ`.
    Exponent,
    /// A word before a parenthesis: a function's name.
    Name,
    /// A numerator and a denominator on lines of their own.
    Fraction,
    /// A limit on a line of its own, under `lim`, `max`, ….
    Limit,
    /// A digit after a norm read as its power, which may be its subscript: `∥x∥2`.
    NormPower,
    /// A big delimiter on a line of its own set after the text of the line below it.
    BigDelimiter,
    /// A pair of big delimiters given on lines of their own above a display, set around what
    /// follows the word they apply to (`E`, `exp`), or at the display's start.
    DelimitersAbove,
    /// Lines between a big delimiter's pieces read as the rows of a matrix or of `cases`.
    Rows,
    /// A parenthesized index right after its letter read as its superscript: `W(1)`.
    Superscript,
    /// A short index at the start of the next line read as the subscript of a transposed
    /// letter: `u⊤` / `j vi`.
    IndexBelow,
    /// A label stacked over a relation (`\stackrel{\textrm{def}}{=}`) given on a line above it:
    /// taken off.
    OverRelation,
    /// A big root sign given in pieces on lines of their own (`v` at its top, `u` along it,
    /// `t` at its foot) read as one `\sqrt` over the lines between them.
    Root,
    /// A summand's superscript or subscript on a line of its own above or below it, set on a
    /// letter of the summand.
    ScriptLine,
    /// What stands left of a big operator on the baseline, given after the operator's body
    /// (or between it and its lower limit), set before the operator with the limit under it.
    BaselineBefore,
    /// A small root sign given on the baseline's line, set over the denominator of the
    /// fraction beside it.
    RootSign,
    /// An integral's lower limit given first on the line of the denominator of the fraction
    /// beside it (`a g(x)`), set under the integral.
    LimitBesideDenominator,
    /// Words of prose between the formula's parts, which a LaTeX source writes in `\text{…}`.
    Prose,
    /// A `!` at the start of a line: TeX's big closing parenthesis (cmex10 gives its largest
    /// sizes as `!`), no factorial, which TeX sets on its number's line.
    ClosingBang,
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
            (WarningKind::Wrapper { wrapper, rows: false }, Lang::Ko) => {
                format!("수식 구분 기호 `{wrapper}` 안쪽을 읽습니다")
            }
            (WarningKind::Wrapper { wrapper, rows: false }, Lang::En) => {
                format!("took off the math delimiters `{wrapper}`: the formula inside is read")
            }
            (WarningKind::Wrapper { wrapper, rows: true }, Lang::Ko) => {
                format!("`{wrapper}` 환경의 줄을 `aligned` 환경의 줄로 읽습니다")
            }
            (WarningKind::Wrapper { wrapper, rows: true }, Lang::En) => {
                format!("took off `{wrapper}`: its rows are read as the rows of `aligned`")
            }
            (WarningKind::AmbiguousName { word, latex }, Lang::Ko) => format!(
                "`{word}` 표기는 이름 `{latex}`일 수도, 글자끼리의 곱일 수도 있어 글자로 둡니다: 이름이면 `{latex}` 꼴로 쓰세요"
            ),
            (WarningKind::AmbiguousName { word, latex }, Lang::En) => format!(
                "`{word}` may be the name `{latex}` or letters multiplied: kept as letters; write `{latex}` for the name"
            ),
            (WarningKind::UnclosedBracket { delimiter }, Lang::Ko) => {
                format!("여기서 연 `{delimiter}` 괄호를 닫지 않았습니다: 닫는 괄호가 빠진 것 같습니다")
            }
            (WarningKind::UnclosedBracket { delimiter }, Lang::En) => {
                format!("`{delimiter}` opened here is never closed: a closing bracket may be missing")
            }
            (WarningKind::UnopenedBracket { delimiter }, Lang::Ko) => {
                format!("`{delimiter}` 괄호 앞에 여는 괄호가 없습니다: 여는 괄호가 빠진 것 같습니다")
            }
            (WarningKind::UnopenedBracket { delimiter }, Lang::En) => {
                format!("`{delimiter}` closes no bracket opened before it: an opening bracket may be missing")
            }
            (WarningKind::LoneBar, Lang::Ko) => "`|` 기호에 짝이 없습니다: 절댓값이나 노름의 한쪽이 빠진 것 같습니다".to_string(),
            (WarningKind::LoneBar, Lang::En) => {
                "`|` has no partner: one side of an absolute value or norm may be missing".to_string()
            }
            (WarningKind::TrailingOperator { operator }, Lang::Ko) => {
                format!("수식 끝의 `{operator}` 뒤에 아무것도 없습니다: 뒤쪽이 빠진 것 같습니다")
            }
            (WarningKind::TrailingOperator { operator }, Lang::En) => {
                format!("nothing follows `{operator}` at the end of the formula: its right side may be missing")
            }
            (WarningKind::PdfText { found, read, why }, lang) => pdf_message(found, read, *why, lang),
        }
    }
}

/// The message of [`WarningKind::PdfText`].
fn pdf_message(found: &str, read: &str, why: PdfWhy, lang: Lang) -> String {
    let (found, read) = (visible(found), visible(read));
    match (why, lang) {
        (PdfWhy::BigOperator, Lang::Ko) => format!(
            "`{found}` 표기를 `{read}` 기호로 읽습니다: PDF의 텍스트는 TeX의 큰 연산자를 글자로 줍니다(디스플레이의 ∑는 X, ∏는 Y, ∫는 Z). 글자라면 식을 LaTeX로 쓰세요"
        ),
        (PdfWhy::BigOperator, Lang::En) => format!(
            "`{found}` read as `{read}`: the text of a PDF gives TeX's big operators as letters (a display ∑ as X, ∏ as Y, ∫ as Z); if it is the letter, write the formula in LaTeX"
        ),
        (PdfWhy::Subscript, Lang::Ko) => format!(
            "`{found}` 표기를 `{read}` 꼴로 읽습니다: PDF의 텍스트는 아래 첨자를 글자 바로 뒤에 붙여 줍니다. 글자끼리의 곱이면 사이를 띄우세요"
        ),
        (PdfWhy::Subscript, Lang::En) => format!(
            "`{found}` read as `{read}`: the text of a PDF sets a subscript right after its letter; if the letters are multiplied, put a space between them"
        ),
        (PdfWhy::Exponent, Lang::Ko) => format!(
            "`{found}` 표기를 `{read}` 꼴로 읽습니다: PDF의 텍스트는 지수를 밑 바로 뒤에 붙여 줍니다"
        ),
        (PdfWhy::Exponent, Lang::En) => {
            format!("`{found}` read as `{read}`: the text of a PDF sets an exponent right after its base")
        }
        (PdfWhy::Name, Lang::Ko) => format!(
            "괄호 앞의 `{found}` 표기를 함수 이름 `{read}` 꼴로 읽습니다: 글자끼리의 곱이면 사이를 띄우세요"
        ),
        (PdfWhy::Name, Lang::En) => format!(
            "`{found}` before a parenthesis read as the name `{read}`: if the letters are multiplied, put a space between them"
        ),
        (PdfWhy::Fraction, Lang::Ko) => format!(
            "두 줄 `{found}` 표기를 분수 `{read}` 꼴로 읽습니다: PDF의 텍스트는 분자와 분모를 따로 된 줄에 줍니다. 분수가 놓인 자리는 추측입니다"
        ),
        (PdfWhy::Fraction, Lang::En) => format!(
            "the lines `{found}` read as the fraction `{read}`: the text of a PDF gives a numerator and a denominator on lines of their own, and where the fraction stands is a guess"
        ),
        (PdfWhy::Limit, Lang::Ko) => format!(
            "따로 된 줄의 `{found}` 표기를 아래 첨자로 붙여 `{read}` 꼴로 읽습니다: PDF의 텍스트는 극한의 아래 첨자를 따로 된 줄에 줍니다"
        ),
        (PdfWhy::Limit, Lang::En) => format!(
            "`{found}` on a line of its own read as the limit in `{read}`: the text of a PDF gives what is set under `lim`, `max`, … on a line of its own"
        ),
        (PdfWhy::NormPower, Lang::Ko) => format!(
            "노름 뒤의 `{found}` 표기를 거듭제곱 `{read}` 꼴로 읽습니다: PDF의 텍스트는 노름의 지수와 아래 첨자를 똑같이 바로 뒤에 줍니다. 아래 첨자라면 식을 LaTeX로 쓰세요"
        ),
        (PdfWhy::NormPower, Lang::En) => format!(
            "`{found}` after a norm read as the power `{read}`: the text of a PDF sets a norm's exponent and its subscript alike right after it; if it is the subscript, write the formula in LaTeX"
        ),
        (PdfWhy::RootSign, Lang::Ko) => format!(
            "`{found}` 줄의 근호 표기 `√` 기호를 옆 분수의 분모에 씌워 `{read}` 꼴로 읽습니다: PDF의 텍스트는 분모 위 근호를 기준선의 줄에 줍니다. 근호가 끝나는 자리는 추측입니다"
        ),
        (PdfWhy::RootSign, Lang::En) => format!(
            "the root sign `√` of `{found}` set over the denominator of the fraction beside it, as `{read}`: the text of a PDF gives a root sign over a denominator on the baseline's line, and where the root ends is a guess"
        ),
        (PdfWhy::BaselineBefore, Lang::Ko) => format!(
            "`{found}` 표기를 큰 연산자 앞의 식과 그 아래 한계로 보고 `{read}` 꼴로 읽습니다: PDF의 텍스트는 키가 큰 연산자와 그 오른쪽 줄을 먼저 주고, 왼쪽 줄과 아래 한계를 그 뒤에 줍니다. 놓인 자리는 추측입니다"
        ),
        (PdfWhy::BaselineBefore, Lang::En) => format!(
            "`{found}` read as what stands before a big operator and its lower limit, `{read}`: the text of a PDF gives a tall operator and what follows it first, what stands left of it and its lower limit after, and where they stand is a guess"
        ),
        (PdfWhy::LimitBesideDenominator, Lang::Ko) => format!(
            "`{found}` 줄의 첫 낱말을 적분의 아래 한계로, 나머지를 그 옆 분수의 분모로 보고 `{read}` 꼴로 읽습니다: PDF의 텍스트는 적분의 아래 한계와 옆 분수의 분모를 한 줄에 줍니다. 놓인 자리는 추측입니다"
        ),
        (PdfWhy::LimitBesideDenominator, Lang::En) => format!(
            "the first word of `{found}` read as the integral's lower limit and the rest as the denominator of the fraction beside it, `{read}`: the text of a PDF gives an integral's lower limit and that denominator on one line, and where they stand is a guess"
        ),
        (PdfWhy::Prose, Lang::Ko) => format!(
            "`{found}` 표기를 문장의 낱말로 보고 `{read}` 꼴로 읽습니다: PDF의 텍스트는 수식 사이의 글을 글자와 구별하지 않습니다. 글자끼리의 곱이면 사이에 연산자를 쓰세요"
        ),
        (PdfWhy::Prose, Lang::En) => format!(
            "`{found}` read as words of prose, `{read}`: the text of a PDF does not tell words from letters set side by side; if these are letters multiplied, write the product with a sign"
        ),
        (PdfWhy::ClosingBang, Lang::Ko) => format!(
            "줄 첫머리의 `{found}` 기호를 큰 닫는 괄호 `{read}` 꼴로 읽습니다: PDF의 텍스트는 TeX의 가장 큰 오른쪽 괄호를 느낌표로 주며, 계승의 느낌표는 그 수와 같은 줄에 붙습니다"
        ),
        (PdfWhy::ClosingBang, Lang::En) => format!(
            "`{found}` at the start of a line read as a big closing parenthesis, `{read}`: the text of a PDF gives TeX's tallest right parenthesis as an exclamation mark, while a factorial's sits on its number's line"
        ),
        (PdfWhy::BigDelimiter, Lang::Ko) => format!(
            "따로 된 줄의 큰 괄호를 그 아래 줄 뒤에 두어 `{read}` 꼴로 읽습니다: PDF의 텍스트는 키가 큰 괄호를 옆의 글자보다 먼저 줍니다. 괄호가 놓인 자리는 추측입니다"
        ),
        (PdfWhy::BigDelimiter, Lang::En) => format!(
            "the big delimiter `{found}` on a line of its own set after the line below it, as `{read}`: the text of a PDF gives a tall delimiter before the text beside it, and where it stands is a guess"
        ),
        (PdfWhy::DelimitersAbove, Lang::Ko) => format!(
            "디스플레이 위 따로 된 줄의 큰 괄호 `{found}` 표기를 그 괄호가 딸린 낱말(`E`, `exp` 따위) 뒤나 식의 처음에 두어 `{read}` 꼴로 읽습니다: PDF의 텍스트는 키가 큰 괄호를 감싸는 글자보다 먼저 줍니다. 괄호가 열리고 닫히는 자리는 추측입니다"
        ),
        (PdfWhy::DelimitersAbove, Lang::En) => format!(
            "the big delimiters `{found}` on lines of their own above the display set after the word they apply to (`E`, `exp`, …) or at the start, as `{read}`: the text of a PDF gives tall delimiters before the text they enclose, and where they open and close is a guess"
        ),
        (PdfWhy::Rows, Lang::Ko) => format!(
            "큰 괄호 조각 `{found}` 표기와 그 사이의 줄을 `{read}` 꼴의 행렬이나 경우 나눔으로 읽습니다: PDF의 텍스트는 행렬의 칸을 열마다 줄로 줍니다. 칸의 순서는 추측입니다"
        ),
        (PdfWhy::Rows, Lang::En) => format!(
            "the big delimiter `{found}` and the lines beside it read as the rows `{read}`: the text of a PDF gives the entries of a matrix or of `cases` column by column, line by line, and their order is a guess"
        ),
        (PdfWhy::Superscript, Lang::Ko) => format!(
            "`{found}` 표기를 `{read}` 꼴로 읽습니다: PDF의 텍스트는 괄호에 싼 위 첨자를 글자 바로 뒤 같은 줄에 줍니다. 함수에 넣는 것이면 식을 LaTeX로 쓰세요"
        ),
        (PdfWhy::Superscript, Lang::En) => format!(
            "`{found}` read as `{read}`: the text of a PDF sets a parenthesized superscript on the line right after its letter; if the letter is applied to it, write the formula in LaTeX"
        ),
        (PdfWhy::IndexBelow, Lang::Ko) => format!(
            "`{found}` 표기를 `{read}` 꼴로 읽습니다: TeX는 전치 기호가 붙은 글자의 아래 첨자를 줄보다 낮게 놓고, PDF의 텍스트는 그 첨자를 다음 줄 첫머리에 줍니다"
        ),
        (PdfWhy::IndexBelow, Lang::En) => format!(
            "`{found}` read as `{read}`: TeX sets the subscript of a transposed letter below the line, and the text of a PDF gives it at the start of the next line"
        ),
        (PdfWhy::OverRelation, Lang::Ko) => format!(
            "`{found}` 표기를 `{read}`의 표시로 보고 떼어 냅니다: PDF의 텍스트는 관계 기호 위에 얹은 글을 그 기호가 있는 줄보다 위의 줄에 주며, 그 등호 표기는 보통 등호로 읽습니다"
        ),
        (PdfWhy::OverRelation, Lang::En) => format!(
            "`{found}` taken off as the label of `{read}`: the text of a PDF gives what is stacked over a relation on a line above it; that `=` is read as a plain `=`"
        ),
        (PdfWhy::Root, Lang::Ko) => format!(
            "`{found}` 표기를 `{read}` 꼴로 읽습니다: PDF의 텍스트는 TeX의 큰 근호를 조각 글자(위 끝 v, 세로 줄 u, 아래 끝 t)로 나눠 따로 된 줄에 줍니다. 글자라면 식을 LaTeX로 쓰세요"
        ),
        (PdfWhy::Root, Lang::En) => format!(
            "`{found}` read as `{read}`: the text of a PDF gives TeX's big root sign in pieces (its top as v, its stem as u, its foot as t) on lines of their own; if they are letters, write the formula in LaTeX"
        ),
        (PdfWhy::ScriptLine, Lang::Ko) => format!(
            "`{found}` 표기를 `{read}` 꼴로 읽습니다: PDF의 텍스트는 합의 항보다 높거나 낮게 놓인 첨자를 따로 된 줄에 주므로, 어느 글자의 첨자인지는 짐작입니다"
        ),
        (PdfWhy::ScriptLine, Lang::En) => format!(
            "`{found}` read as `{read}`: the text of a PDF gives a script set above or below a summand on a line of its own, so which letter it belongs to is a guess"
        ),
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

/// `text` as it may go to a terminal or a text format: every invisible character (control
/// characters and escape sequences' ESC, zero-width and direction marks, line separators)
/// but the line break and the tab written as `U+XXXX`, so that nothing in a formula (such as
/// `\text{…}` holding an escape sequence) acts on the terminal or breaks a line.
pub fn printable(text: &str) -> std::borrow::Cow<'_, str> {
    let hidden = |c: char| c != '\n' && c != '\t' && is_invisible(c);
    if !text.chars().any(hidden) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if hidden(c) {
            out.push_str(&format!("U+{:04X}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
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

    /// One error of every kind, and one warning of every kind.
    fn samples() -> (Vec<ParseErrorKind>, Vec<WarningKind>) {
        use ParseErrorKind::*;
        let errors = vec![
            TooLong { bytes: 1, limit: 0 },
            TooDeep { limit: 3 },
            TooDeep { limit: super::super::Limits::MAX_DEPTH_CEILING },
            TooManySigns { limit: 64 },
            TooManyScripts { limit: 32 },
            Unclosed { delimiter: "{".into(), closer: "}".into() },
            UnexpectedClose { delimiter: "}".into() },
            MismatchedEnvironment { begin: "cases".into(), end: "array".into() },
            MissingArguments { command: "\\hat".into() },
            MissingArgument { command: "\\frac".into(), takes: 2, given: 1 },
            TooComplex { limit: 10 },
            Empty,
            Unexpected { found: "the end of the formula".into(), expected: vec!["a symbol".into()] },
            Unexpected { found: "`)`".into(), expected: vec!["an expression".into()] },
        ];
        let warnings = vec![
            WarningKind::UnknownCommand { name: "\\foo".into() },
            WarningKind::UnknownCharacter { character: "☃".into() },
            WarningKind::Wrapper { wrapper: "$…$".into(), rows: false },
            WarningKind::Wrapper { wrapper: "\\begin{align}…\\end{align}".into(), rows: true },
            WarningKind::AmbiguousName { word: "tr".into(), latex: "\\mathrm{tr}".into() },
            WarningKind::UnclosedBracket { delimiter: "(".into() },
            WarningKind::UnopenedBracket { delimiter: "]".into() },
            WarningKind::LoneBar,
            WarningKind::TrailingOperator { operator: "+".into() },
        ];
        let mut warnings = warnings;
        for why in [
            PdfWhy::BigOperator,
            PdfWhy::Subscript,
            PdfWhy::Exponent,
            PdfWhy::Name,
            PdfWhy::Fraction,
            PdfWhy::Limit,
            PdfWhy::NormPower,
            PdfWhy::BigDelimiter,
            PdfWhy::DelimitersAbove,
            PdfWhy::Rows,
            PdfWhy::Superscript,
            PdfWhy::IndexBelow,
            PdfWhy::OverRelation,
            PdfWhy::Root,
            PdfWhy::ScriptLine,
            PdfWhy::BaselineBefore,
            PdfWhy::RootSign,
            PdfWhy::LimitBesideDenominator,
            PdfWhy::Prose,
            PdfWhy::ClosingBang,
        ] {
            warnings.push(WarningKind::PdfText { found: "X".into(), read: "\\sum".into(), why });
        }
        (errors, warnings)
    }

    /// A Korean particle written straight after a code span, whose form cannot follow how
    /// the code is said.
    fn particle_after_code(text: &str) -> bool {
        ["은", "는", "이", "가", "을", "를", "과", "와", "로"].iter().any(|p| text.contains(&format!("`{p}")))
    }

    #[test]
    fn every_message_exists_in_both_languages_and_korean_particles_follow_pronunciation() {
        let (errors, warnings) = samples();
        let mut messages: Vec<(String, String)> = errors
            .into_iter()
            .map(|kind| {
                let error = ParseError::new(kind, Span::new(0, 1));
                (error.message(Lang::Ko), error.message(Lang::En))
            })
            .collect();
        for kind in warnings {
            let warning = Warning { kind, span: Span::new(0, 1) };
            messages.push((warning.message(Lang::Ko), warning.message(Lang::En)));
        }
        for (ko, en) in &messages {
            assert!(ko.chars().any(|c| ('가'..='힣').contains(&c)), "not Korean: {ko}");
            assert!(!en.chars().any(|c| ('가'..='힣').contains(&c)) && !en.is_empty(), "not English: {en}");
            assert!(!particle_after_code(ko), "a particle straight after a code span: {ko}");
            assert!(!en.contains("unexpected the") && !en.contains(" 1 bytes"), "{en}");
        }
    }

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
