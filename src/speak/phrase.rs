//! The reading's own tree: what a formula *says*, before it is put into words.
//!
//! The syntax tree records what LaTeX writes; a [`Phrase`] records what a teacher reads. The
//! shaper (`shape.rs`) decides the structure once — `\frac{1}{N}\sum_i …` is a mean, `p(x \mid
//! y)` a conditional probability, `softmax(X)V` an application followed by a product — and
//! the Korean and English renderers only choose words and word order.

/// The order of a derivative: `\frac{dy}{dx}`, `\frac{d^2 y}{dx^2}`, `\frac{d^n f}{dx^n}`.
#[derive(Debug, Clone, PartialEq)]
pub enum Order {
    /// The first derivative.
    First,
    /// The second.
    Second,
    /// Any other, as written above the sign (a letter, a number).
    Nth(Box<Phrase>),
}

/// A piece of a reading.
#[derive(Debug, Clone, PartialEq)]
pub enum Phrase {
    /// A symbol or a name, looked up in the vocabulary.
    Name(Name),
    /// A number, said as written.
    Number(String),
    /// Text said as it is (an unknown command's name).
    Text(String),
    /// Nothing: an empty operand.
    Empty,
    /// Deeper than the reader goes.
    Elided,
    /// An ellipsis.
    Dots,
    /// Parts said one after another: the `i j` of `A_{ij}`.
    Seq(Vec<Phrase>),
    /// Sizes multiplied: `n \times d_k`, "n by d k".
    Shape(Vec<Phrase>),
    /// A subscript: an index (`x_i`), a label (`W_Q`), a joined dimension name (`d_k`), an
    /// entry of a compound (`(QK^\top)_{ij}`), a range of earlier items (`x_{<i}`); marks such
    /// as `x^*` read as labels too.
    Sub {
        /// What the script is on.
        base: Box<Phrase>,
        /// The subscript.
        sub: Box<Phrase>,
        /// How the subscript reads.
        style: SubStyle,
    },
    /// A superscript that is an index, not a power: `W_Q^h`, `W^{(l)}`.
    Super {
        /// What the script is on.
        base: Box<Phrase>,
        /// The superscript.
        sup: Box<Phrase>,
    },
    /// A layer written above in parentheses: `h^{(l+1)}`, "h at layer l plus 1".
    Layer {
        /// What the script is on.
        base: Box<Phrase>,
        /// The layer.
        layer: Box<Phrase>,
    },
    /// What stands before a bar evaluated at the point below it (`f(x)\big|_{x=0}`), or between
    /// the limits below and above it (`F(x) \Big|_{a}^{b}`).
    Evaluated {
        /// What is evaluated.
        body: Box<Phrase>,
        /// The point, or the lower limit.
        at: Box<Phrase>,
        /// The upper limit, when there are two.
        to: Option<Box<Phrase>>,
    },
    /// A derivative's order written above a function in parentheses: `f^{(n)}`, "the n-th
    /// derivative of f".
    OrderedDerivative {
        /// The function.
        base: Box<Phrase>,
        /// The order.
        order: Box<Phrase>,
    },
    /// A named law with its parameters (`\mathcal{N}(\mu, \sigma^2)`), or its density at a
    /// point (`\mathcal{N}(x; \mu, \sigma^2)`, `\mathcal{N}(x \mid \mu, \Sigma)`).
    Law {
        /// The law's key in the vocabulary's `laws` (`N`).
        key: String,
        /// The point the density is taken at, if written.
        at: Option<Box<Phrase>>,
        /// The parameters in order, each with whether it is a matrix (a covariance).
        params: Vec<(bool, Phrase)>,
    },
    /// A divergence of one distribution from another: `D_{\mathrm{KL}}(P \parallel Q)`.
    Divergence {
        /// The divergence's name (`KL`).
        func: Box<Phrase>,
        /// The distribution it is of.
        a: Box<Phrase>,
        /// The distribution it is from.
        b: Box<Phrase>,
    },
    /// Primes: `j'`.
    Prime {
        /// What the script is on.
        base: Box<Phrase>,
        /// How many primes.
        count: u8,
    },
    /// `K^\top`.
    Transpose(Box<Phrase>),
    /// The i-th: `i^{\text{th}}`.
    Ordinal(Box<Phrase>),
    /// `A^{-1}`, `F^{-1}`: the inverse matrix, the inverse function or the reciprocal.
    Inverse {
        /// What the script is on.
        base: Box<Phrase>,
        /// What kind of thing is inverted.
        of: Inverted,
    },
    /// A power: `x^2`, `e^{z_j}`.
    Power {
        /// What the script is on.
        base: Box<Phrase>,
        /// The exponent.
        exponent: Box<Phrase>,
    },
    /// A root: `\sqrt{d_k}`, `\sqrt[3]{x}`.
    Sqrt {
        /// The index of a root other than the square root.
        index: Option<Box<Phrase>>,
        /// What it applies to.
        body: Box<Phrase>,
    },
    /// A division: `\frac{a}{b}`, `a / b`.
    Div {
        /// The numerator.
        num: Box<Phrase>,
        /// The denominator.
        den: Box<Phrase>,
    },
    /// A fraction of numbers or of a number by a name: `\frac{1}{2}`, `\frac{1}{N}`.
    Fraction {
        /// The numerator.
        num: Box<Phrase>,
        /// The denominator.
        den: Box<Phrase>,
    },
    /// A product of side-by-side factors: `QK^\top`, `\alpha_{ij} v_j`.
    Product(Vec<Phrase>),
    /// A number times something: `2\pi`.
    Scale {
        /// The number.
        k: Box<Phrase>,
        /// The thing it applies to.
        x: Box<Phrase>,
    },
    /// A dot product of two vectors: `q_i \cdot k_j`.
    Dot(Box<Phrase>, Box<Phrase>),
    /// Operands joined by operator words: `a + b - c`, `a \times b`.
    Ops {
        /// The first operand.
        first: Box<Phrase>,
        /// Each further operator (canonical LaTeX) with its operand.
        rest: Vec<(String, Phrase)>,
        /// Whether it stands inside something larger (then read as a whole: "the sum of a and b").
        nested: bool,
    },
    /// A function applied: `\mathrm{softmax}(X)`, `\log x`, `p_\theta(x \mid y)`.
    Apply(Apply),
    /// A large operator with its limits and body: `\sum_{i=1}^{N} x_i`, `\max_x f(x)`.
    BigOp(BigOp),
    /// `-x`: a minus sign before something.
    Neg(Box<Phrase>),
    /// Another sign before something: `+x`, `\pm x`, `\neg p`.
    Sign {
        /// The sign.
        sign: Sign,
        /// The thing it applies to.
        x: Box<Phrase>,
    },
    /// Relations in a row: `a = b = c`, `0 \le x < 1`.
    Relation {
        /// The first operand.
        first: Box<Phrase>,
        /// Each further operator (canonical LaTeX) with its operand.
        rest: Vec<(String, Phrase)>,
    },
    /// A function defined: `F(a, b) = body`.
    Definition {
        /// The function defined.
        name: Box<Phrase>,
        /// Its parameters.
        params: Vec<Phrase>,
        /// What it applies to.
        body: Box<Phrase>,
    },
    /// A symbol with the role word it takes as an equation's subject: `L` → "the loss L".
    Role {
        /// The role, by the symbol's key in the vocabulary.
        role: String,
        /// The thing it applies to.
        x: Box<Phrase>,
    },
    /// Statements side by side: `Q \in …, K \in …`.
    Statements(Vec<Phrase>),
    /// Clauses joined by words of prose, each with the words before it as written (trimmed):
    /// `\|x\| > 0 \textrm{ for all } x \neq 0`.
    Prose(Vec<(Option<String>, Phrase)>),
    /// A list: `Q, K, V`.
    List(Vec<Phrase>),
    /// A list written with dots: `head_1, \dots, head_H`.
    Range {
        /// The first operand.
        first: Box<Phrase>,
        /// The last item; `None` when the dots end the list.
        last: Option<Box<Phrase>>,
    },
    /// A bracket with meaning: a norm, an absolute value, a floor, a set, a group.
    Fence {
        /// What the bracket means.
        fence: Fence,
        /// What it applies to.
        body: Box<Phrase>,
    },
    /// `\|x\|_p`: a norm with its index.
    PNorm {
        /// The norm's index.
        p: Box<Phrase>,
        /// What it applies to.
        body: Box<Phrase>,
    },
    /// `\{x \mid x > 0\}`: the elements and the condition they meet.
    SetBuilder {
        /// The elements.
        x: Box<Phrase>,
        /// The condition.
        cond: Box<Phrase>,
    },
    /// `f: X \to Y`: a function with its domain and codomain.
    Mapping {
        /// The function.
        f: Box<Phrase>,
        /// The domain.
        from: Box<Phrase>,
        /// The codomain.
        to: Box<Phrase>,
    },
    /// `\langle a, b \rangle`.
    Inner(Box<Phrase>, Box<Phrase>),
    /// `[a, b)`.
    Interval(Box<Phrase>, Box<Phrase>),
    /// `\mathbb{R}`, `\mathbb{R}^n`, `\mathbb{R}^{n \times d}` (`\mathbb{C}^{m \times n}` when
    /// `complex`): its dimensions.
    NumberSpace {
        /// Whether the numbers are complex (`\mathbb{C}`), not real.
        complex: bool,
        /// The sizes, none for the numbers themselves.
        dims: Vec<Phrase>,
    },
    /// `\mathbb{E}_{x \sim p}[f]`.
    Expectation {
        /// What it ranges over.
        over: Option<Box<Phrase>>,
        /// What it applies to.
        body: Box<Phrase>,
    },
    /// `\partial L / \partial Q`, `\frac{dy}{dx}`; `of` is `None` for the bare operator.
    Derivative {
        /// Whether it is a partial derivative.
        partial: bool,
        /// Its order: first, second (`\frac{d^2 y}{dx^2}`, `\frac{\partial^2 f}{\partial x_i
        /// \partial x_j}`) or n-th (`\frac{d^n f}{dx^n}`).
        order: Order,
        /// What is differentiated.
        of: Option<Box<Phrase>>,
        /// What it is differentiated with respect to.
        wrt: Box<Phrase>,
    },
    /// `\partial x` or `\mathrm{d}x` on its own.
    Differential {
        /// Whether it is a partial derivative.
        partial: bool,
        /// The sign's power: none, squared (`d^2 y`, `\partial^2 f`) or another (`d^n f`).
        order: Order,
        /// The thing it applies to.
        x: Box<Phrase>,
    },
    /// `\nabla_\theta L`, `\nabla^2 f(x)`.
    Gradient {
        /// Whether it is of second order, the Hessian (`\nabla^2 f`).
        second: bool,
        /// What it ranges over.
        over: Option<Box<Phrase>>,
        /// What it applies to.
        body: Box<Phrase>,
    },
    /// `\underbrace{Q}_{n \times d_k}`: a body with a label; `shape` when the label is a shape.
    Annotated {
        /// What the brace is under or over.
        body: Box<Phrase>,
        /// The label.
        label: Box<Phrase>,
        /// Whether the label is a shape (`n \times d_k`).
        shape: bool,
    },
    /// `\hat{y}`: an accent by command name.
    Accent {
        /// The accent's command name.
        accent: String,
        /// What it applies to.
        body: Box<Phrase>,
    },
    /// A long reading with one part said apart: "… tanh of u, where u is …".
    Where {
        /// The reading, with `name` in the part's place.
        body: Box<Phrase>,
        /// The free letter that names the part.
        name: Box<Phrase>,
        /// The part.
        value: Box<Phrase>,
    },
    /// `\mathbb{1}_{[k \neq i]}`: one where the condition holds, zero elsewhere.
    Indicator(Box<Phrase>),
    /// `\begin{cases}`: values with their conditions (`None`: otherwise).
    Cases(Vec<(Phrase, Option<Phrase>)>),
    /// A matrix, by rows.
    Matrix(Vec<Vec<Phrase>>),
    /// `n!`.
    Factorial(Box<Phrase>),
    /// `\binom{n}{k}`.
    Binom(Box<Phrase>, Box<Phrase>),
}

/// A name to look up: a Latin or Greek letter, a symbol command, a function or other word.
#[derive(Debug, Clone, PartialEq)]
pub struct Name {
    /// The letter, command name without backslash, or word.
    pub key: String,
    /// What sort of name it is.
    pub class: NameClass,
}

/// What sort of name a [`Name`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NameClass {
    /// One Latin letter.
    Letter,
    /// A capital Latin letter in a formula that also writes its small letter (`T` beside `t`):
    /// said "capital T" so that a listener can tell them apart.
    Capital,
    /// A Greek letter command.
    Greek,
    /// Another symbol command (`infty`).
    Symbol,
    /// A multi-letter name (`softmax`, `head`).
    Word,
    /// `\mathbb{R}` and friends: a blackboard letter.
    Blackboard,
    /// `\mathcal{L}`: a calligraphic or script letter.
    Calligraphic,
}

/// How a subscript reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SubStyle {
    /// An index: "x sub i", "엑스 아이".
    Index,
    /// A label: "W Q", "더블유 큐".
    Label,
    /// A dimension's name, said as one word in Korean: "디케이".
    Joined,
    /// An entry of a compound: "the i j entry of …".
    Entry,
    /// An array read at positions (`I(m, n)`, `\mathbf{x}(t)`): "I at m, n".
    At,
    /// `x_{<i}`: the ones before i.
    Before,
    /// `x_{>i}`: the ones after i.
    After,
    /// `x_{\le i}`: the ones up to i.
    UpTo,
    /// `x_{1:d}`: the ones from one position through another.
    Slice,
    /// `\log_2`: a logarithm's base.
    Base,
}

/// A function applied to arguments.
#[derive(Debug, Clone, PartialEq)]
pub struct Apply {
    /// How the function is said (usually a [`Phrase::Name`]).
    pub func: Box<Phrase>,
    /// The vocabulary key of the function (`softmax`, `p`), when it has one.
    pub key: Option<String>,
    /// Whether the function is a probability (`p`, `P`).
    pub probability: bool,
    /// The arguments.
    pub args: Vec<Phrase>,
    /// What the function ranges over: `j` in `\operatorname{softmax}_j`.
    pub over: Option<Box<Phrase>>,
    /// The condition after `\mid`: `y` in `p(x \mid y)`.
    pub given: Option<Box<Phrase>>,
}

/// A large operator with limits.
#[derive(Debug, Clone, PartialEq)]
pub struct BigOp {
    /// The operator's key: `sum`, `prod`, `int`, `max`, `argmax`, …
    pub op: String,
    /// The variable of `i = 1`.
    pub var: Option<Box<Phrase>>,
    /// The lower limit, `1` of `i = 1`.
    pub from: Option<Box<Phrase>>,
    /// The upper limit.
    pub to: Option<Box<Phrase>>,
    /// A subscript that is not `var = from` (`\sum_t`, `\max_{x \in S}`).
    pub over: Option<Box<Phrase>>,
    /// What the operator applies to; `None` for a bare `\sum`.
    pub body: Option<Box<Phrase>>,
    /// For a mean: the count divided by (`N` of `\frac{1}{N}\sum`).
    pub mean_of: Option<Box<Phrase>>,
}

/// A bracket's meaning.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fence {
    /// `\|x\|`.
    Norm,
    /// `|x|`.
    Abs,
    /// `|A|` of a matrix.
    Det,
    /// `|\mathcal{A}|` of a set: how many members it has.
    Cardinality,
    /// `\lfloor x \rfloor`.
    Floor,
    /// `\lceil x \rceil`.
    Ceil,
    /// `\{ … \}`.
    Set,
    /// `(r, 0)`: entries listed in parentheses that are neither arguments nor an interval's
    /// ends (the meaning layer took those apart), a tuple.
    Tuple,
    /// `(a + b)` inside something larger.
    Group,
    /// `[a + b]`: a square bracket that groups (said apart from a parenthesis only at full).
    Bracket,
}

/// A sign other than minus.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sign {
    /// `+x`.
    Plus,
    /// `\pm x`.
    PlusMinus,
    /// `\mp x`.
    MinusPlus,
    /// `\neg p`.
    Not,
}

impl Phrase {
    /// Boxes the phrase.
    pub fn boxed(self) -> Box<Phrase> {
        Box::new(self)
    }

    /// Whether the phrase is a sentence (a relation, a definition, statements with one), which
    /// ends in a full stop, rather than a noun phrase.
    pub fn is_sentence(&self) -> bool {
        match self {
            Phrase::Relation { .. } | Phrase::Definition { .. } | Phrase::Mapping { .. } => true,
            Phrase::Where { .. } => true,
            Phrase::Statements(items) => items.iter().any(Phrase::is_sentence),
            Phrase::Prose(clauses) => clauses.iter().any(|(_, clause)| clause.is_sentence()),
            _ => false,
        }
    }

    /// Whether a script or an exponent is more than one symbol, so that a listener needs to hear
    /// where it ends: `t-1` of `m_{t-1}` is, `i`, `ij` and `\text{model}` are not.
    pub fn is_compound_script(&self) -> bool {
        match self {
            Phrase::Seq(parts) => !parts.iter().all(Phrase::is_atomic),
            Phrase::Neg(x) => !x.is_atomic(),
            other => !other.is_atomic(),
        }
    }

    /// Whether the phrase is one symbol as said (a name, a number, a name with an index or a
    /// label): short forms such as "코사인 세타" apply to it.
    pub fn is_atomic(&self) -> bool {
        match self {
            Phrase::Name(_) | Phrase::Number(_) | Phrase::Text(_) | Phrase::Empty => true,
            Phrase::Sub { base, style, .. } => {
                !matches!(
                    style,
                    SubStyle::Entry
                        | SubStyle::At
                        | SubStyle::Before
                        | SubStyle::After
                        | SubStyle::UpTo
                        | SubStyle::Slice
                ) && base.is_atomic()
            }
            Phrase::Super { base, .. }
            | Phrase::Prime { base, .. }
            | Phrase::Layer { base, .. }
            | Phrase::OrderedDerivative { base, .. } => base.is_atomic(),
            Phrase::Accent { body, .. } => body.is_atomic(),
            _ => false,
        }
    }
}

/// What a `-1` above a name inverts, which decides how the inverse is said.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Inverted {
    /// A matrix: its inverse matrix.
    Matrix,
    /// A function applied to something: its inverse function (`F^{-1}(p)`, a quantile).
    Function,
    /// A number: its reciprocal.
    Number,
}
