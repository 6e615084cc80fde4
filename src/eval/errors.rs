//! Evaluation errors, as data with spans.
//!
//! Every error carries the byte span of the slot it is about, so the report layer can put a
//! caret under it, and a message in Korean and English. Each variant's doc comment lists
//! inputs that trigger it.

use crate::lang::{particle, Lang};
use crate::meaning::SymbolKind;
use crate::surface::{Limit, Surface};
use crate::syntax::ast::Span;
use serde::Serialize;

/// Why a formula could not be evaluated.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EvalError {
    /// What went wrong (boxed: errors travel in `Result`s and should stay small).
    #[serde(flatten)]
    pub kind: Box<EvalErrorKind>,
    /// The slot it went wrong in.
    pub span: Span,
    /// A suggestion, when one fits.
    pub hint: Option<Hint>,
}

/// The kinds of evaluation error.
/// A reason written in both languages.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Reason {
    /// In Korean.
    pub ko: String,
    /// In English.
    pub en: String,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "error", rename_all = "snake_case")]
pub enum EvalErrorKind {
    /// A symbol with no value, shape or definition: `x + 1` with no `--let x=…`.
    Unbound {
        /// The binding name (`W_Q`, `mu`).
        name: String,
    },
    /// Operand shapes that do not fit: `QK` with Q and K both n × d_k, `x + y` of lengths 3 and 4.
    ShapeMismatch {
        /// The operation, in words or as written (`·`, `+`).
        op: String,
        /// The left operand's shape.
        left: String,
        /// The right operand's shape.
        right: String,
        /// The dimensions that should be equal and are not.
        dims: (String, String),
    },
    /// An underbrace label that disagrees with the inferred shape: `\underbrace{Q}_{d_k \times n}`.
    LabelMismatch {
        /// The label as a shape.
        label: String,
        /// The shape inferred for the body.
        inferred: String,
    },
    /// An operation that needs another kind of operand: `\log` of a matrix list, `x_{ij}` on a
    /// vector, `softmax` of nothing.
    WrongShape {
        /// What the operation needs.
        #[serde(serialize_with = "needed_in_english")]
        expected: Needed,
        /// The shape it got, as `eval` writes shapes (`scalar`, `3`, `2 × 3`), or a count.
        found: String,
    },
    /// `\log` of a negative number: `\log(-1)`.
    LogOfNegative {
        /// The offending value.
        value: f64,
    },
    /// `\sqrt` of a negative number: `\sqrt{-4}`.
    SqrtOfNegative {
        /// The offending value.
        value: f64,
    },
    /// The inverse of a singular matrix: `A^{-1}` with A = [[1, 2], [2, 4]].
    Singular,
    /// A 1-based index outside its range: `x_4` for x of length 3, `x_0`.
    IndexOutOfRange {
        /// The index as written.
        index: f64,
        /// The length of the axis.
        len: usize,
    },
    /// An index, exponent or range bound that must be a whole number: `x_{1.5}`.
    NotAnInteger {
        /// The value found.
        value: f64,
    },
    /// A whole number too large where one is needed (an index, an exponent, a range bound):
    /// `A^{10000000000}`.
    WholeNumberTooLarge {
        /// The value found.
        value: f64,
        /// The largest allowed there.
        limit: f64,
    },
    /// A value larger than the element limit ([`Limit::Elements`]): `--dim n=1000000000` with
    /// n × n scores.
    TooLarge {
        /// The number of elements asked for.
        elements: u128,
        /// The limit.
        limit: usize,
    },
    /// More steps than the step limit ([`Limit::Steps`]):
    /// `\sum_{i=1}^{1000}\sum_{j=1}^{1000}\sum_{k=1}^{1000} ijk`.
    TooMuchWork {
        /// The steps asked for (at least), when known before running.
        steps: Option<u128>,
        /// The limit.
        limit: u64,
    },
    /// A resolved or evaluator tree deeper than the nesting limit (`--max-depth`, counted by
    /// the rule of `syntax::depth`): `\log \log … \log x` 5,000 times, one flat chain in the
    /// syntax but a tower of calls. Said in the parser's words for a tree too deep.
    TooNested {
        /// The limit.
        limit: usize,
    },
    /// A number followed by `e` and digits, as in `1e400` or `3e-4`: LaTeX has no scientific
    /// notation, so this is 1 · e · 400; eval refuses to compute it silently.
    ScientificNotation {
        /// The text as written.
        text: String,
    },
    /// Notation eqmap reads but cannot evaluate: `\int`, `\partial`, `\begin{cases}`.
    Unsupported {
        /// What it is, as written.
        what: String,
    },
    /// A call of a function that no earlier line defines and that is not a built-in: `f_{13}(1)`.
    UnknownFunction {
        /// The function, as written.
        name: String,
    },
    /// An index expression with more than two free indices: eval computes scalars, vectors
    /// and matrices only.
    TooManyFreeIndices,
    /// A call with the wrong number of arguments: `\mathrm{Attention}(Q, K)` for a definition
    /// with three parameters.
    WrongArity {
        /// The function.
        name: String,
        /// How many it takes.
        expected: usize,
        /// How many it got.
        found: usize,
    },
    /// A function defined through itself, which is an equation to solve rather than a
    /// definition to compute: `Q(s,a) = r + \gamma \max_{a'} Q(s',a')` (a Bellman equation),
    /// `f(x) = f(x)`, with no earlier `Q` or `f`. Reported at the call inside the right side.
    DefinedThroughItself {
        /// The function.
        name: String,
    },
    /// Definitions that call each other without end: `g(x) = x`, then `f(x) = g(x)`, then
    /// `g(x) = f(x)` and a call.
    TooDeep {
        /// The call-depth limit.
        limit: usize,
    },
    /// A free index whose range nothing fixes: `\sum_t t`.
    UnknownRange {
        /// The index.
        index: String,
    },
    /// `\mathbf{1}` or `I` where nothing fixes the size: `I` alone.
    UnknownSize {
        /// The symbol as written.
        what: String,
    },
    /// A formula with nothing to compute: `\in`, `\mathbb{R}^{n}` alone.
    NothingToEvaluate,
    /// An error inside a defined function's body, reported at the call.
    InCall {
        /// The function.
        name: String,
        /// The error in the body.
        inner: Box<EvalError>,
    },
    /// `eqmap grad`: an operation whose derivative eqmap does not compute yet (never a wrong
    /// number instead): `\max_j` over a family of values, a matrix power above 64.
    NoDerivativeYet {
        /// The operation, as written.
        operation: String,
    },
    /// `eqmap grad`: a derivative that does not exist at the values given: `\sqrt{x}` at
    /// x = 0, `\log x` at 0, `a / b` with b = 0, `\|x\|` at x = 0, `\det` of a singular matrix.
    NotDifferentiable {
        /// The operation, as written.
        operation: String,
        /// Why, in both languages.
        reason: Reason,
    },
    /// `eqmap grad`: the values and gradients the backward pass keeps would pass the element
    /// limit: `--dim n=4000` with n × n scores through several operations.
    TapeTooLarge {
        /// The elements it would keep.
        elements: u128,
        /// The limit (`--max-elements`).
        limit: usize,
    },
    /// `eqmap grad`: `--wrt NAME` for a name with no value (bound, sampled or defined).
    NotAVariable {
        /// The name.
        name: String,
    },
    /// `eqmap grad`: a value that is not a number needs a cotangent: `QK^\top` without
    /// `--cotangent` or `--seed`; or the cotangent's shape is not the value's.
    NeedsCotangent {
        /// The value's shape.
        shape: String,
        /// The cotangent's shape, when one was given.
        given: Option<String>,
    },
    /// `eqmap grad`: no line computes a value to differentiate: a definition alone without
    /// values, a claim.
    NothingToDifferentiate,
    /// A `--let` or `--dim` value that cannot be read: bad JSON, ragged arrays, `--dim n=-1`.
    BadBinding {
        /// The name being bound (may be empty when the argument has no `=`).
        name: String,
        /// Why, in both languages.
        reason: Reason,
    },
    /// A dimension size past what a machine word holds, so past the element limit
    /// ([`Limit::Elements`]) whatever it is: `--dim n=99999999999999999999999`.
    DimensionTooLarge {
        /// The dimension.
        name: String,
        /// The size as written.
        text: String,
    },
}

/// A suggestion that comes with an error.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "hint", content = "text", rename_all = "snake_case")]
pub enum Hint {
    /// A transpose would make the shapes fit: "did you mean K^\top?".
    Transpose(String),
    /// How to bind an unbound symbol.
    Bind(String),
    /// How to bind a family whose members an index bound in the formula picks:
    /// `V_t^{\mathrm{targ}}` in `\delta_t = V_t^{\mathrm{targ}} - 1` (the family `V_targ`, a
    /// value for each t).
    BindFamily {
        /// The family's binding name (`V_targ`, `W_Q`).
        name: String,
        /// The index that picks its members (`t`).
        index: String,
        /// What the meaning layer says a member is (a matrix for `W_h^Q`).
        member: SymbolKind,
    },
}

impl EvalError {
    /// An error of `kind` at `span`, without a hint.
    pub fn new(kind: EvalErrorKind, span: Span) -> Self {
        EvalError { kind: Box::new(kind), span, hint: None }
    }

    /// The same error with `hint`.
    pub fn with_hint(mut self, hint: Hint) -> Self {
        self.hint = Some(hint);
        self
    }

    /// The one-line message, as the command line shows it.
    pub fn message(&self, lang: Lang) -> String {
        self.message_on(lang, Surface::Cli)
    }

    /// The one-line message as `surface` shows it: the command line names the flag that raises
    /// a limit and binds with `--let`; a server names its fixed limit and the request's `let`.
    pub fn message_on(&self, lang: Lang, surface: Surface) -> String {
        let text = message(self.kind.as_ref(), lang, surface);
        match (&self.hint, lang, surface) {
            (Some(Hint::Transpose(t)), Lang::Ko, _) => format!("{text} — `{t}` 표기를 뜻했나요?"),
            (Some(Hint::Transpose(t)), Lang::En, _) => format!("{text} — did you mean `{t}`?"),
            (Some(Hint::Bind(name)), Lang::Ko, Surface::Server) => format!(
                "{text} — 요청의 `let`으로 값을 주거나(`\"let\": {{\"{name}\": …}}`: 수 2, 벡터 [1,2], 행렬 [[1,2],[3,4]]), 모양을 선언하고 `seed`로 표본을 뽑으세요"
            ),
            (Some(Hint::Bind(name)), Lang::En, Surface::Server) => format!(
                "{text} — give it a value in the request's `let` (`\"let\": {{\"{name}\": …}}`: a number such as 2, a vector [1,2] or a matrix [[1,2],[3,4]]), or declare its shape and sample it with `seed`"
            ),
            (Some(Hint::Bind(name)), Lang::Ko, Surface::Cli) => format!(
                "{text} — `--let {name}=…` 옵션으로 값(수 2, 벡터 [1,2], 행렬 [[1,2],[3,4]])을 주거나, 모양을 선언하고 `--seed` 옵션으로 표본을 뽑으세요"
            ),
            (Some(Hint::Bind(name)), Lang::En, Surface::Cli) => format!(
                "{text} — bind it with `--let {name}=…` (a number such as 2, a vector [1,2] or a matrix [[1,2],[3,4]]), or declare its shape and sample it with `--seed`"
            ),
            (Some(Hint::BindFamily { name, index, member }), _, _) => {
                format!("{text} — {}", family_hint(name, index, *member, lang, surface))
            }
            (None, _, _) => text,
        }
    }

    /// The short label printed under the caret.
    pub fn label(&self, lang: Lang) -> String {
        use EvalErrorKind::*;
        match self.kind.as_ref() {
            ShapeMismatch { left, right, op, .. } => format!("{left} {op} {right}"),
            LabelMismatch { inferred, .. } => format!("{} {inferred}", lang.pick("추론된 모양:", "inferred")),
            Unbound { name } => format!("{} `{name}`", lang.pick("값 없음:", "no value for")),
            _ => lang.pick("여기", "here").to_string(),
        }
    }
}

/// What an operation needs of its operand, said in either language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Needed {
    /// A number (`\sum` over a vector's entries, a scalar option).
    Number,
    /// A vector of this many entries, one per index.
    VectorOf(usize),
    /// A number or a vector for each index of an einsum.
    NumberOrVectorPerIndex,
    /// A vector to differentiate with respect to (`grad --jacobian`).
    VectorForJacobian,
    /// A vector value for `--jacobian`.
    VectorValueForJacobian,
    /// One member of a family (`W^h` with its index).
    FamilyMember,
    /// An index for a family.
    FamilyIndex,
    /// A square matrix, for a matrix power.
    SquareMatrixForPower,
    /// A square matrix.
    SquareMatrix,
    /// Matrices or vectors, to concatenate.
    Concatenable,
    /// Something with this many axes, to index.
    Axes(usize),
    /// At most two free indices over a number.
    AtMostTwoFreeIndices,
    /// A number as an exponent.
    NumberAsExponent,
    /// A number under arg max.
    NumberUnderArgMax,
    /// Rows of equal length.
    EqualRows,
    /// A number in each cell of a matrix.
    NumberInCell,
}

impl Needed {
    /// What is needed, in `lang`.
    pub fn text(&self, lang: Lang) -> String {
        let ko = matches!(lang, Lang::Ko);
        match self {
            Needed::Number if ko => "수".into(),
            Needed::Number => "a number".into(),
            Needed::VectorOf(n) if ko => format!("길이 {n}인 벡터"),
            Needed::VectorOf(n) => format!("a vector of {n}"),
            Needed::NumberOrVectorPerIndex if ko => "첨자마다 수나 벡터".into(),
            Needed::NumberOrVectorPerIndex => "a number or a vector per index".into(),
            Needed::VectorForJacobian if ko => "야코비 행렬을 구할 벡터 변수".into(),
            Needed::VectorForJacobian => "a vector to take the Jacobian with respect to".into(),
            Needed::VectorValueForJacobian if ko => "--jacobian에 쓸 벡터 값".into(),
            Needed::VectorValueForJacobian => "a vector value for --jacobian".into(),
            Needed::FamilyMember if ko => "묶음의 한 멤버(W^h처럼 첨자를 붙여서)".into(),
            Needed::FamilyMember => "one member of the family (an index, as in W^h)".into(),
            Needed::FamilyIndex if ko => "이 묶음의 첨자(W^h처럼)".into(),
            Needed::FamilyIndex => "an index for this family (as in W^h)".into(),
            Needed::SquareMatrixForPower if ko => "거듭제곱할 정사각행렬".into(),
            Needed::SquareMatrixForPower => "a square matrix for a matrix power".into(),
            Needed::SquareMatrix if ko => "정사각행렬".into(),
            Needed::SquareMatrix => "a square matrix".into(),
            Needed::Concatenable if ko => "이어 붙일 행렬이나 벡터".into(),
            Needed::Concatenable => "matrices or vectors to concatenate".into(),
            Needed::Axes(n) if ko => format!("첨자 {n}개로 고를 수 있는 축 {n}개짜리 값"),
            Needed::Axes(1) => "something with 1 axis to index".into(),
            Needed::Axes(n) => format!("something with {n} axes to index"),
            Needed::AtMostTwoFreeIndices if ko => "자유 첨자가 둘 이하인 수식".into(),
            Needed::AtMostTwoFreeIndices => "at most two free indices over a number".into(),
            Needed::NumberAsExponent if ko => "지수 자리의 수".into(),
            Needed::NumberAsExponent => "a number as exponent".into(),
            Needed::NumberUnderArgMax if ko => "arg max 아래의 수".into(),
            Needed::NumberUnderArgMax => "a number under arg max".into(),
            Needed::EqualRows if ko => "길이가 같은 행".into(),
            Needed::EqualRows => "rows of equal length".into(),
            Needed::NumberInCell if ko => "칸마다 수".into(),
            Needed::NumberInCell => "a number in each cell".into(),
        }
    }
}

/// JSON keeps the English text of what was needed, as before the kinds had names.
fn needed_in_english<S: serde::Serializer>(needed: &Needed, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(&needed.text(Lang::En))
}

/// A found shape in Korean: shapes are written as `eval` writes them, where `scalar` is the one
/// word; a count of members or a pair of lengths is said in Korean.
fn found_in_korean(found: &str) -> String {
    if let Some(count) = found.strip_suffix(" members") {
        return format!("멤버 {count}개");
    }
    found.replace(" and ", ", ").replace("scalar", "스칼라")
}

fn message(kind: &EvalErrorKind, lang: Lang, surface: Surface) -> String {
    use EvalErrorKind::*;
    let ko = matches!(lang, Lang::Ko);
    match kind {
        Unbound { name } if ko => format!("`{name}`의 값을 모릅니다"),
        Unbound { name } => format!("`{name}` has no value"),
        ShapeMismatch { op, left, right, dims: (a, b) } if ko => {
            let (and, subject) = (particle(&a.to_string(), "과", "와", false), particle(&b.to_string(), "이", "가", false));
            format!("모양이 맞지 않습니다: {left} {op} {right} (차원 {a}{and} {b}{subject} 같아야 합니다)")
        }
        ShapeMismatch { op, left, right, dims: (a, b) } => {
            format!("shapes do not fit: {left} {op} {right} (dimension {a} does not match {b})")
        }
        LabelMismatch { label, inferred } if ko => {
            let (subject, and) = (particle(label, "이", "가", false), particle(inferred, "과", "와", false));
            format!("중괄호 아래 모양 {label}{subject} 추론된 모양 {inferred}{and} 다릅니다")
        }
        LabelMismatch { label, inferred } => {
            format!("the brace label says {label} but the shape is {inferred}")
        }
        WrongShape { expected, found } if ko => {
            let (expected, found) = (expected.text(Lang::Ko), found_in_korean(found));
            format!("{expected}{} 필요한데 모양이 {found}입니다", particle(&expected, "이", "가", false))
        }
        WrongShape { expected, found } => format!("expected {}, found shape {found}", expected.text(Lang::En)),
        LogOfNegative { value } if ko => format!("음수의 로그는 실수가 아닙니다: log({value})"),
        LogOfNegative { value } => format!("log of a negative number: log({value})"),
        SqrtOfNegative { value } if ko => format!("음수의 제곱근은 실수가 아닙니다: √({value})"),
        SqrtOfNegative { value } => format!("square root of a negative number: √({value})"),
        Singular if ko => "역행렬이 없습니다 (특이 행렬)".to_string(),
        Singular => "the matrix is singular: it has no inverse".to_string(),
        IndexOutOfRange { index, len } if ko => {
            let subject = particle(&index.to_string(), "이", "가", false);
            format!("첨자 {index}{subject} 범위 1..{len} 밖입니다 (첨자는 1부터 셉니다)")
        }
        IndexOutOfRange { index, len } => {
            format!("index {index} is outside 1..{len} (indices count from 1, as in papers)")
        }
        NotAnInteger { value } if ko => format!("정수가 필요한데 {value}입니다"),
        NotAnInteger { value } => format!("expected a whole number, found {value}"),
        WholeNumberTooLarge { value, limit } if ko => {
            format!("수 {value}{} 너무 큽니다 (여기서는 절댓값 {limit} 이하의 정수만 됩니다)", particle(&value.to_string(), "이", "가", false))
        }
        WholeNumberTooLarge { value, limit } => {
            format!("the number {value} is too large here (a whole number of at most {limit} in size is needed)")
        }
        TooLarge { elements, limit } if ko => format!(
            "값이 너무 큽니다: 원소 {elements}개 (한도 {limit}개{}); 메모리를 잡기 전에 멈췄습니다",
            surface.after_limit(Limit::Elements, lang)
        ),
        TooLarge { elements, limit } => format!(
            "too large: {elements} elements (limit {limit}{}); refused before allocating",
            surface.after_limit(Limit::Elements, lang)
        ),
        TooMuchWork { steps: Some(steps), limit } if ko => format!(
            "계산이 너무 많습니다: {steps}단계 이상 (한도 {limit}단계{}); 계산하기 전에 멈췄습니다",
            surface.after_limit(Limit::Steps, lang)
        ),
        TooMuchWork { steps: Some(steps), limit } => format!(
            "too much to compute: at least {steps} steps (limit {limit}{}); refused before running",
            surface.after_limit(Limit::Steps, lang)
        ),
        TooMuchWork { steps: None, limit } if ko => {
            format!("계산이 너무 많습니다: {limit}단계를 넘었습니다 ({})", surface.raise(Limit::Steps, lang))
        }
        TooMuchWork { steps: None, limit } => {
            format!("too much to compute: more than {limit} steps ({})", surface.raise(Limit::Steps, lang))
        }
        // The parser's words: one limit, counted the same way (`syntax::depth`).
        TooNested { limit } => {
            let kind = crate::syntax::error::ParseErrorKind::TooDeep { limit: *limit };
            crate::syntax::error::ParseError::new(kind, Span::default()).message_on(lang, surface)
        }
        ScientificNotation { text } if ko => format!(
            "`{text}` 표기는 LaTeX에서 수가 아니라 곱입니다 (e는 자연상수): 지수 표기는 {} 처럼 쓰세요",
            scientific(text)
        ),
        ScientificNotation { text } => format!(
            "`{text}` is not scientific notation in LaTeX but a product with e (Euler's number): write {}",
            scientific(text)
        ),
        UnknownFunction { name } if ko => format!(
            "`{name}` 함수를 모릅니다: 앞 줄에서 정의하거나(`{name}(x) = …`) 내장 함수(\\exp, \\log, \\mathrm{{softmax}} …)를 쓰세요"
        ),
        UnknownFunction { name } => format!(
            "the function `{name}` is not defined: define it on an earlier line (`{name}(x) = …`) or use a built-in (\\exp, \\log, \\mathrm{{softmax}}, …)"
        ),
        TooManyFreeIndices if ko => "자유 첨자가 셋 이상입니다: 계산은 스칼라, 벡터, 행렬까지만 합니다".to_string(),
        TooManyFreeIndices => {
            "more than two free indices: eval computes scalars, vectors and matrices only".to_string()
        }
        Unsupported { what } if ko => format!("`{what}` 표기는 계산할 수 없습니다"),
        Unsupported { what } => format!("cannot evaluate `{what}`"),
        WrongArity { name, expected, found } if ko => {
            format!("`{name}` 함수는 인자 {expected}개를 받는데 {found}개가 왔습니다")
        }
        WrongArity { name, expected, found } => {
            let arguments = if *expected == 1 { "argument" } else { "arguments" };
            format!("`{name}` takes {expected} {arguments}, got {found}")
        }
        DefinedThroughItself { name } if ko => format!(
            "`{name}` 함수의 정의가 자기 자신을 부릅니다: 벨만 방정식처럼 풀어야 하는 방정식이라 계산할 수 없습니다 (앞 줄에서 `{name}` 함수를 정의하면 이 줄은 등식으로 확인합니다)"
        ),
        DefinedThroughItself { name } => format!(
            "`{name}` is defined through itself: this is an equation to solve (as a Bellman equation is), which eval cannot compute (define `{name}` on an earlier line to check this line as a claim)"
        ),
        TooDeep { limit } if ko => format!("정의가 너무 깊게 서로를 부릅니다 (한도 {limit}단계)"),
        TooDeep { limit } => format!("definitions call each other too deeply (limit {limit})"),
        UnknownRange { index } if ko => {
            format!("첨자 `{index}`의 범위를 알 수 없습니다: `\\sum_{{{index}=1}}^{{n}}`처럼 범위를 적으세요")
        }
        UnknownRange { index } => {
            format!("the range of index `{index}` is unknown: write it, as in `\\sum_{{{index}=1}}^{{n}}`")
        }
        UnknownSize { what } if ko => format!("`{what}`의 크기를 정할 수 없습니다: 곁에 모양을 아는 값이 필요합니다"),
        UnknownSize { what } => format!("the size of `{what}` is unknown: nothing next to it fixes it"),
        NothingToEvaluate if ko => "계산할 값이 없습니다".to_string(),
        NothingToEvaluate => "nothing to evaluate".to_string(),
        InCall { name, inner } if ko => format!("`{name}`의 정의 안에서: {}", inner.message_on(lang, surface)),
        InCall { name, inner } => format!("in the definition of `{name}`: {}", inner.message_on(lang, surface)),
        NoDerivativeYet { operation } if ko => format!("`{operation}`의 미분은 아직 계산하지 못합니다"),
        NoDerivativeYet { operation } => format!("no derivative yet for `{operation}`"),
        NotDifferentiable { operation, reason } if ko => {
            format!("`{operation}`{} 여기서 미분할 수 없습니다: {}", particle(operation, "은", "는", false), reason.ko)
        }
        NotDifferentiable { operation, reason } => {
            format!("`{operation}` has no derivative here: {}", reason.en)
        }
        TapeTooLarge { elements, limit } if ko => format!(
            "역전파가 간직할 값과 기울기가 너무 큽니다: 원소 {elements}개 (한도 {limit}개{}); 메모리를 잡기 전에 멈췄습니다",
            surface.after_limit(Limit::Elements, lang)
        ),
        TapeTooLarge { elements, limit } => format!(
            "the backward pass would keep {elements} elements of values and gradients (limit {limit}{}); refused before allocating",
            surface.after_limit(Limit::Elements, lang)
        ),
        NotAVariable { name } if ko => format!(
            "`{name}`에 대해 미분할 수 없습니다: 값이 없습니다 (--let으로 주거나, 모양을 선언하고 --seed로 표본을 뽑으세요)"
        ),
        NotAVariable { name } => format!(
            "cannot differentiate with respect to `{name}`: it has no value (bind it with --let, or declare its shape and sample it with --seed)"
        ),
        NeedsCotangent { shape, given: Some(given) } if ko => {
            format!("값의 모양은 {shape}인데 --cotangent의 모양은 {given}입니다")
        }
        NeedsCotangent { shape, given: Some(given) } => {
            format!("the value is {shape} but the cotangent is {given}")
        }
        NeedsCotangent { shape, given: None } if ko => format!(
            "값이 수가 아니라 {shape}입니다: 기울기를 구하려면 --cotangent JSON(같은 모양, 또는 \"ones\")을 주거나 --seed로 표본을 뽑으세요"
        ),
        NeedsCotangent { shape, given: None } => format!(
            "the value is {shape}, not a number: give --cotangent JSON (of that shape, or \"ones\") or --seed to sample one"
        ),
        NothingToDifferentiate if ko => "미분할 값이 없습니다: 마지막 줄이 값을 계산해야 합니다".to_string(),
        NothingToDifferentiate => "nothing to differentiate: the last line must compute a value".to_string(),
        BadBinding { name, reason } if ko => format!("`{name}`의 값을 읽을 수 없습니다: {}", reason.ko),
        BadBinding { name, reason } => format!("cannot read the value of `{name}`: {}", reason.en),
        DimensionTooLarge { name, text } if ko => {
            let limit = match surface.flag(Limit::Elements) {
                Some(flag) => format!("원소 한도({flag})"),
                None => "이 서버의 원소 한도".to_string(),
            };
            format!(
                "`{name}`의 값을 읽을 수 없습니다: 너무 큰 크기입니다 (`{text}`): 이만큼 긴 축을 가진 값은 {limit}를 넘습니다"
            )
        }
        DimensionTooLarge { name, text } => {
            let limit = match surface.flag(Limit::Elements) {
                Some(flag) => format!("the element limit ({flag})"),
                None => "the server's element limit".to_string(),
            };
            format!(
                "cannot read the value of `{name}`: `{text}` is too large: a value with an axis this long exceeds {limit}"
            )
        }
    }
}

/// How to bind the family `name`, a member for each value of `index`, the example by what
/// a member is (a matrix, a vector, a number), with a number for each as the other choice.
fn family_hint(name: &str, index: &str, member: SymbolKind, lang: Lang, surface: Surface) -> String {
    let ko = matches!(lang, Lang::Ko);
    let numbers = "[1,2,3]";
    let (example, each_ko, each_en) = match member {
        SymbolKind::Matrix => ("[[[1,2],[3,4]],[[5,6],[7,8]]]", "행렬", "a matrix"),
        SymbolKind::Vector => ("[[1,2],[3,4],[5,6]]", "벡터(한 행씩)", "a vector (a row)"),
        _ => (numbers, "수", "a number"),
    };
    let (give, other) = match surface {
        Surface::Cli => (format!("`--let {name}={example}`"), format!("`--let {name}={numbers}`")),
        Surface::Server => {
            (format!("`\"let\": {{\"{name}\": {example}}}`"), format!("`\"let\": {{\"{name}\": {numbers}}}`"))
        }
    };
    let one_number = example == numbers;
    match (ko, surface) {
        (true, Surface::Cli) if one_number => {
            format!("`{index}`마다 값이 하나씩인 묶음 `{name}`의 값을 {give} 옵션으로 주세요 (`{index}`마다 {each_ko})")
        }
        (true, Surface::Cli) => format!(
            "`{index}`마다 값이 하나씩인 묶음 `{name}`의 값을 {give} 옵션(`{index}`마다 {each_ko})이나 {other} 옵션(`{index}`마다 수)으로 주세요"
        ),
        (true, Surface::Server) if one_number => {
            format!("`{index}`마다 값이 하나씩인 묶음 `{name}`의 값을 요청의 `let`으로 주세요: {give} (`{index}`마다 {each_ko})")
        }
        (true, Surface::Server) => format!(
            "`{index}`마다 값이 하나씩인 묶음 `{name}`의 값을 요청의 `let`으로 주세요: {give} (`{index}`마다 {each_ko}) 또는 {other} (`{index}`마다 수)"
        ),
        (false, Surface::Cli) if one_number => {
            format!("bind the family `{name}`, one value for each `{index}`: {give} ({each_en} for each `{index}`)")
        }
        (false, Surface::Cli) => format!(
            "bind the family `{name}`, one value for each `{index}`: {give} ({each_en} for each `{index}`) or {other} (a number for each `{index}`)"
        ),
        (false, Surface::Server) if one_number => format!(
            "give the family `{name}` one value for each `{index}` in the request's `let`: {give} ({each_en} for each `{index}`)"
        ),
        (false, Surface::Server) => format!(
            "give the family `{name}` one value for each `{index}` in the request's `let`: {give} ({each_en} for each `{index}`) or {other} (a number for each `{index}`)"
        ),
    }
}

/// `1e400` as LaTeX writes it: `1 \times 10^{400}`.
fn scientific(text: &str) -> String {
    match text.split_once(['e', 'E']) {
        Some((mantissa, exponent)) => format!("`{mantissa} \\times 10^{{{exponent}}}`"),
        None => format!("`{text}`"),
    }
}

#[cfg(test)]
mod tests {
    use super::{found_in_korean, Needed};
    use crate::lang::Lang;

    /// Every kind of need is said in Korean words, with only commands and flags left in Latin.
    #[test]
    fn needs_are_said_in_korean() {
        let needs = [
            Needed::Number,
            Needed::VectorOf(3),
            Needed::NumberOrVectorPerIndex,
            Needed::VectorForJacobian,
            Needed::VectorValueForJacobian,
            Needed::FamilyMember,
            Needed::FamilyIndex,
            Needed::SquareMatrixForPower,
            Needed::SquareMatrix,
            Needed::Concatenable,
            Needed::Axes(2),
            Needed::AtMostTwoFreeIndices,
            Needed::NumberAsExponent,
            Needed::NumberUnderArgMax,
            Needed::EqualRows,
            Needed::NumberInCell,
        ];
        for need in needs {
            let ko = need.text(Lang::Ko);
            let latin = ko.replace("arg max", "").replace("--jacobian", "").replace("W^h", "");
            assert!(!latin.chars().any(|c| c.is_ascii_alphabetic()), "{ko}");
            assert_ne!(ko, need.text(Lang::En));
        }
        assert_eq!(found_in_korean("scalar"), "스칼라");
        assert_eq!(found_in_korean("3 members"), "멤버 3개");
        assert_eq!(found_in_korean("2 × n"), "2 × n");
    }
}
