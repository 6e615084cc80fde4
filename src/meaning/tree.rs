//! The resolved tree: what a formula means, decided once for every consumer.
//!
//! The syntax tree records what LaTeX writes: `-\sum_i y_i \log \hat{y}_i` is one flat row whose
//! first item is a minus over `\sum_i` alone, `Q(s, a)` is `Q` beside a parenthesis. A [`Term`]
//! records what the formula means: minus the whole sum, whose body is `y_i` times the log of
//! `\hat{y}_i`; `Q` applied to `s` and `a`. [`super::resolve`] builds it, and the annotation
//! rules, the reading aloud and the evaluator all follow it instead of deciding again:
//!
//! - **what applies to what**: [`TermKind::Apply`] (a callee with its arguments),
//!   [`TermKind::Operator`] (an operator name with its operand: `\log x`, `\nabla_\theta L`,
//!   `\mathbb{E}_x[\cdot]`), [`TermKind::BigOp`] (`\sum`, `\max_j`, `\int … dx` with its body),
//!   [`TermKind::Product`] (factors side by side or joined by `\cdot`, `/`, …), and
//!   [`TermKind::Sign`], which covers all that its sign covers in mathematics;
//! - **what each script is**: a [`Script`] with its [`ScriptRole`] (index, label, power,
//!   transpose, inverse, family member, layer, mark, range);
//! - **what each symbol is**: an [`Occurrence`] with its [`SymbolKind`] and the [`Evidence`]
//!   that decided it, per occurrence.
//!
//! Every term keeps its span and the syntax node it was made from, so a consumer can point back
//! at the text and match LaTeX patterns against it.

use super::SymbolKind;
use crate::syntax::ast::{Delim, InfixOp, Node, NodeKind, PrefixOp, Span, Text, WordStyle};
use serde::Serialize;

/// A resolved part of a formula.
#[derive(Debug, Clone)]
pub struct Term<'n> {
    /// What it is.
    pub kind: TermKind<'n>,
    /// The source it covers (for a run of factors, from the first to the last).
    pub span: Span,
    /// The syntax node it was made from (for a run of factors, the chain they belong to).
    pub node: &'n Node,
}

/// What a [`Term`] is.
#[derive(Debug, Clone)]
pub enum TermKind<'n> {
    /// A symbol: a letter, a Greek letter or a name, with the scripts that are part of it.
    Symbol(Box<Occurrence<'n>>),
    /// A number.
    Number,
    /// Something without parts to resolve: dots, punctuation, an unknown command, an empty
    /// operand, a constant such as `\infty`, a large operator or operator name standing alone.
    Leaf,
    /// Scripts that operate on their base or pick from it: `(QK^\top)_{ij}`, `K^\top`, `x^2`.
    Scripted {
        /// What the scripts are on.
        base: Box<Term<'n>>,
        /// The subscript.
        sub: Option<Script<'n>>,
        /// The superscript.
        sup: Option<Script<'n>>,
        /// The number of primes.
        primes: u8,
    },
    /// A function applied to arguments: `f(x)`, `p_\theta(x_i \mid x_{<i})`, `Q(s, a)`.
    Apply(Box<Application<'n>>),
    /// An operator name or symbol applied to what follows it: `\log p(x)`, `\nabla_\theta L`,
    /// `\mathbb{E}_{x \sim p}[f(x)]`, `\partial L`.
    Operator(Box<OperatorApplication<'n>>),
    /// A large operator with its limits and body: `\sum_{i=1}^{N} x_i`, `\max_j z_j`.
    BigOp(Box<BigOperator<'n>>),
    /// Factors side by side or joined by multiplicative operators, read left to right; in a
    /// row with both, each run side by side is one factor, a product of its own
    /// (`super::runs`: `Q h_i \cdot K h_j` is two factors joined by `\cdot`).
    Product(Vec<Factor<'n>>),
    /// A sign over what it covers: `-\sum_i p_i \log q_i` is the negation of the whole sum.
    Sign {
        /// The sign.
        op: PrefixOp,
        /// What it covers.
        operand: Box<Term<'n>>,
    },
    /// Operands joined by additive operators, relations or separators.
    Chain {
        /// The first operand.
        first: Box<Term<'n>>,
        /// Each further operator with its operand.
        rest: Vec<Joint<'n>>,
    },
    /// A fraction.
    Frac {
        /// The numerator.
        num: Box<Term<'n>>,
        /// The denominator.
        den: Box<Term<'n>>,
    },
    /// A binomial coefficient.
    Binom {
        /// The upper entry.
        top: Box<Term<'n>>,
        /// The lower entry.
        bottom: Box<Term<'n>>,
    },
    /// A root.
    Sqrt {
        /// The index of a root other than the square root.
        index: Option<Box<Term<'n>>>,
        /// What is under the root.
        radicand: Box<Term<'n>>,
    },
    /// A factorial.
    Factorial(Box<Term<'n>>),
    /// The numbers between two ends: a pair in brackets or parentheses that a member stands in
    /// (`t \in [0, T]`, `\epsilon \in (0, 1)`), or whose brackets do not match (`[0, 1)`).
    Interval {
        /// The lower end.
        low: Box<Term<'n>>,
        /// The upper end.
        high: Box<Term<'n>>,
    },
    /// A bracketed group that is not an argument list: `(a + b)`, `\|x\|`, `\langle a, b \rangle`.
    Fenced {
        /// The opening delimiter, as it acts: braces that only group an operator's operand
        /// (`\exp\{…\}`) are a parenthesis.
        open: Delim,
        /// The content.
        body: Box<Term<'n>>,
    },
    /// An accent on something that is not one symbol: `\overline{AB}`.
    Accent {
        /// The accent's command name.
        accent: &'n str,
        /// What it decorates.
        body: Box<Term<'n>>,
    },
    /// Content that only wraps: a font on a compound, a box, the base of a stacked label.
    Wrapped(Box<Term<'n>>),
    /// A brace with a label: `\underbrace{Q}_{n \times d_k}`.
    Annotated {
        /// The body.
        body: Box<Term<'n>>,
        /// The label.
        label: Option<Box<Term<'n>>>,
    },
    /// Rows of cells (an environment, or top-level `&` and `\\`).
    Rows(Vec<Vec<Term<'n>>>),
    /// Clauses joined by words of prose: `\|x\| > 0 \textrm{ for all } x \neq 0` is the
    /// clause `\|x\| > 0`, then "for all" and the clause `x \neq 0`.
    Prose(Vec<Clause<'n>>),
}

/// One clause of [`TermKind::Prose`]: the words before it and what it states.
#[derive(Debug, Clone)]
pub struct Clause<'n> {
    /// The words of prose before it (`\text{ for all }`, a leaf); `None` for the first clause
    /// when the prose does not open with words.
    pub words: Option<Term<'n>>,
    /// What it states; `None` when the words end the formula (`x = 5 \textrm{ bits}`).
    pub term: Option<Term<'n>>,
}

/// One factor of a [`TermKind::Product`], with the operator before it.
#[derive(Debug, Clone)]
pub struct Factor<'n> {
    /// The operator before it (`None` for the first, [`InfixOp::Juxt`] for side by side).
    pub op: Option<&'n InfixOp>,
    /// The operator's own span (empty for side by side).
    pub op_span: Span,
    /// The factor.
    pub term: Term<'n>,
    /// Whether the evidence is balanced between this factor being multiplied by the one before
    /// (as read) and being its argument: `w(a+b)`.
    pub balanced: bool,
}

/// One operator of a [`TermKind::Chain`] with the operand after it.
#[derive(Debug, Clone)]
pub struct Joint<'n> {
    /// The operator.
    pub op: &'n InfixOp,
    /// The operator's span.
    pub op_span: Span,
    /// The operand after it.
    pub term: Term<'n>,
    /// For a `\sim`, how it reads ([`super::tilde_reading`]): a draw from a law, two sizes
    /// growing alike, or two numbers about alike; `None` for any other operator.
    pub tilde: Option<super::TildeReading>,
}

impl Joint<'_> {
    /// How a `\sim` joint reads; a draw where the chain did not say (`\sim` under an operator,
    /// `\mathbb{E}_{x \sim p}`).
    pub fn tilde_reading(&self) -> super::TildeReading {
        self.tilde.unwrap_or(super::TildeReading::Draw)
    }
}

/// A function applied to arguments.
#[derive(Debug, Clone)]
pub struct Application<'n> {
    /// What is applied: a symbol (`f`, `p_\theta`, `\mathrm{softmax}`), possibly with a
    /// subscript saying what it ranges over (`\mathrm{softmax}_j`, in `over`).
    pub callee: Term<'n>,
    /// The subscript of a named function that says what it ranges over: the `j` of
    /// `\mathrm{softmax}_j(z)`.
    pub over: Option<Term<'n>>,
    /// The base written below a function's name that takes one: the 2 of `\log_2(p)`.
    pub base: Option<Term<'n>>,
    /// The arguments, in order.
    pub args: Vec<Term<'n>>,
    /// What is conditioned on, after `\mid` or `;` in probabilities (`p(x \mid y)`).
    pub given: Vec<Term<'n>>,
    /// How the arguments are separated from the condition: `\mid`, `|` or `;` (`I(X; Y)` keeps
    /// `;` between arguments).
    pub condition_bar: Option<&'n str>,
    /// The parenthesis (or bracket) group holding the arguments.
    pub group: &'n Node,
    /// Scripts written on the argument group: `\mathrm{softmax}(z)_j`, `\phi(x)^\top`.
    pub sub: Option<Script<'n>>,
    /// See [`Application::sub`].
    pub sup: Option<Script<'n>>,
    /// Whether the callee is one of several distributions the formula names by letter (`P(x)`
    /// beside `D(P \parallel Q)`): that distribution at a point, not the probability of an event.
    pub named: bool,
    /// Whether the callee is a letter that papers use for a number, a vector or a matrix, not
    /// for a function (`\mu(t)`, `\mathbf{x}(\mathbf{p}_0)`, `A(l_i)`): applied here, where a reader
    /// may see a product. Letters named as functions by convention (`f`, `g`, `\sigma`, `p`, `Q`)
    /// and fonts of sets and laws are not.
    pub unexpected_callee: bool,
}

/// An operator applied to its operand without (or with) brackets.
#[derive(Debug, Clone)]
pub struct OperatorApplication<'n> {
    /// The operator's name: `log`, `exp`, `E` (expectation), `nabla`, `partial`, `d`, `Var`.
    pub name: &'n str,
    /// The operator as a symbol, when it is a named function (`\log`, `\exp`, `\det`).
    pub function: Option<Term<'n>>,
    /// The operator as written, with its scripts (`\nabla_\theta`, `\mathbb{E}_{x \sim p}`).
    pub op: &'n Node,
    /// Its subscript: what the gradient is taken with respect to, what an expectation is over.
    pub sub: Option<Term<'n>>,
    /// Its superscript, when it has one (`\log^2 x`).
    pub sup: Option<Term<'n>>,
    /// The base written below a name that takes one (`\log_2 p`), where `sub` is then empty.
    pub base: Option<Term<'n>>,
    /// What it applies to.
    pub operand: Term<'n>,
}

/// `\log^2 x`, `\sin^{2}(\theta)`: a positive whole power written on a named function's name
/// raises the function's value (`\sin^{-1}` names the inverse and is no power).
fn is_value_power(sup: &Node) -> bool {
    matches!(&sup.kind, NodeKind::Number { text, .. } if text.bytes().all(|b| b.is_ascii_digit()) && text.as_str() != "0")
}

impl OperatorApplication<'_> {
    /// The power its value is raised to, when one is written on its name (`\log^2 x`).
    pub fn value_power(&self) -> Option<&Node> {
        let named = self.function.is_some();
        self.sup.as_ref().map(|sup| sup.node).filter(|sup| named && self.sub.is_none() && is_value_power(sup))
    }

    /// The inverse it names, when `-1` is written on a trigonometric function's name
    /// (`\sin^{-1} x` is the arcsine of x, no power).
    pub fn inverse_name(&self) -> Option<&'static str> {
        let sup = self.sup.as_ref().filter(|_| self.sub.is_none())?;
        inverse_of(self.name, sup.node)
    }
}

/// `\sin^{-1}`, `\tan^{-1}`: the inverse a `-1` on a trigonometric function's name names.
fn inverse_of(name: &str, sup: &Node) -> Option<&'static str> {
    let minus_one = matches!(&sup.kind, NodeKind::Prefix { op: PrefixOp::Minus, operand }
        if matches!(&operand.kind, NodeKind::Number { text, .. } if text.as_str() == "1"));
    match (minus_one, name) {
        (true, "sin") => Some("arcsin"),
        (true, "cos") => Some("arccos"),
        (true, "tan") => Some("arctan"),
        _ => None,
    }
}

impl<'n> Application<'n> {
    /// The named function and the power its value is raised to, when the power is written on
    /// the name before its parenthesis (`\log^{2}(1 + x)`, `\sin^2(\theta)`).
    pub fn value_power(&self) -> Option<(&'n str, &'n Node)> {
        let NodeKind::Scripts { base, sub: None, sup: Some(sup), primes: 0 } = &self.callee.node.kind else {
            return None;
        };
        let NodeKind::Word { text, style: WordStyle::Operator | WordStyle::OperatorLimits } = &base.kind
        else {
            return None;
        };
        is_value_power(sup).then_some((text.as_str(), sup.as_ref()))
    }

    /// The inverse the callee names, when `-1` is written on a trigonometric function's name
    /// before its parenthesis (`\tan^{-1}(y)`).
    pub fn inverse_name(&self) -> Option<&'static str> {
        let NodeKind::Scripts { base, sub: None, sup: Some(sup), primes: 0 } = &self.callee.node.kind else {
            return None;
        };
        let NodeKind::Word { text, .. } = &base.kind else { return None };
        inverse_of(text, sup)
    }
}

impl Application<'_> {
    /// Whether this is an indicator applied to its condition: `\mathbb{1}[x > 0]`, a bold one
    /// or a capital I applied to a comparison (`\mathbf{1}(f(x) \neq y)`, `I(y \neq k)`), or
    /// Kronecker's `\delta(y_i = j)` (1 where the labels are equal, else 0).
    pub fn is_indicator(&self) -> bool {
        let delta = self.callee.occurrence().is_some_and(|o| o.base_name == "delta" && o.scripts.is_empty());
        // The one relation the single argument states, if it states one.
        let relation = match self.args.as_slice() {
            [Term { kind: TermKind::Chain { rest, .. }, .. }] => match rest.as_slice() {
                [joint] => match joint.op {
                    crate::syntax::ast::InfixOp::Relation(r) => Some(r.as_str()),
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        };
        let compared = relation.is_some();
        super::scripts::is_indicator_one(self.callee.node)
            || super::scripts::is_bold_one(self.callee.node)
            || (delta && relation == Some("="))
            || (super::scripts::is_indicator_letter(self.callee.node) && compared)
    }
}

impl OperatorApplication<'_> {
    /// Whether it is a derivative of second order, `\nabla^2 f(x)` (the Hessian), `\partial^2 f`.
    pub fn is_second_order(&self) -> bool {
        matches!(self.name, "nabla" | "partial")
            && self
                .sup
                .as_ref()
                .is_some_and(|s| matches!(&s.node.kind, NodeKind::Number { text, .. } if text == "2"))
    }
}

/// A large operator with its limits and body.
#[derive(Debug, Clone)]
pub struct BigOperator<'n> {
    /// The operator's name: `sum`, `prod`, `int`, `max`, `min`, `argmax`, `argmin`, `lim`, …
    pub name: String,
    /// The operator as written, with its scripts (`\sum_{i=1}^{N}`).
    pub op: &'n Node,
    /// The variable bound below (`i` of `i=1`), when the subscript is an equation.
    pub var: Option<Term<'n>>,
    /// The lower limit (`1` of `i=1`, or an integral's lower bound).
    pub lower: Option<Term<'n>>,
    /// The upper limit.
    pub upper: Option<Term<'n>>,
    /// A subscript that is not an equation: `\sum_i`, `\max_{x \in S}`, `\sum_{j \ne i}`.
    pub over: Option<Term<'n>>,
    /// What it applies to: the rest of its row (`None`: nothing follows).
    pub body: Option<Term<'n>>,
    /// The variable an integral's `dx` names.
    pub differential: Option<Term<'n>>,
}

/// A resolved sub- or superscript.
#[derive(Debug, Clone)]
pub struct Script<'n> {
    /// What the script is.
    pub role: ScriptRole,
    /// Whether it is written above (a superscript).
    pub above: bool,
    /// Its content.
    pub term: Box<Term<'n>>,
}

/// What a sub- or superscript is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ScriptRole {
    /// Picks an entry or a member: `x_i`, `A_{ij}`, `(QK^\top)_{ij}`, `x_1`.
    Index,
    /// Part of the name: `W_Q`, `d_k`, `d_{\text{model}}`, `p_\theta`, `L^{\mathrm{CLIP}}`, `W^O`.
    Label,
    /// Earlier or later items: `x_{<i}`, `y_{>t}`, `x_{\le n}`.
    Range,
    /// A power: `x^2`, `e^{z}`.
    Power,
    /// `K^\top`, `x^T`.
    Transpose,
    /// `A^{-1}`.
    Inverse,
    /// A member of a family written above: `W_i^Q`'s `Q` is a label, `W^h`'s `h` a member.
    Family,
    /// A layer or sample written in parentheses above: `h^{(l+1)}`, `x^{(i)}`.
    Layer,
    /// A variant mark: `x^*`, `A^\dagger`, `\theta^{\prime}`.
    Mark,
    /// What a function's subscript ranges over: `\mathrm{softmax}_j`.
    Over,
    /// An ordinal's ending above: `i^{\text{th}}`, `k^{th}`, the i-th one in order.
    Ordinal,
    /// The order of a derivative in parentheses above a function (`f^{(n)}` beside `n!` or
    /// `\frac{d^n f}{dx^n}`): the n-th derivative, part of the name.
    Order,
}

/// One occurrence of a symbol, with what it is and why.
#[derive(Debug, Clone)]
pub struct Occurrence<'n> {
    /// The binding name of the symbol's identity: `\mu` → `mu`, `\mathbf{x}` → `x`, `W_Q` →
    /// `W_Q`, `d_{\text{model}}` → `d_model`, `q_i` → `q_i`, `W_i^Q` → `W_i^Q`.
    pub name: Text,
    /// The identifier without scripts: `q` of `q_i`, `\mathbf{W}` of `\mathbf{W}_Q`.
    pub base: &'n Node,
    /// The binding name of the base alone (`q`, `W`).
    pub base_name: Text,
    /// The scripts that are part of the symbol (indices, labels, families, layers, ranges).
    pub scripts: Vec<Script<'n>>,
    /// Whether a subscript on it is an index, so that the symbol picks from its base.
    pub indexed: bool,
    /// The symbol's kind here.
    pub kind: SymbolKind,
    /// What decided the kind.
    pub evidence: Evidence,
}

/// What decided a symbol's kind, strongest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Evidence {
    /// A declaration in the formula or earlier in the document (`Q \in \mathbb{R}^{n \times d}`,
    /// `X \sim \mathcal{N}(0, 1)`, `f: A \to B`, a definition `f(x) = …`).
    Declared,
    /// How the formula uses it: applied to arguments, under `\mathbb{E}`, a sum's bound, a
    /// sum's variable, an index in a subscript.
    Use,
    /// A name the vocabulary of papers knows: `\mathrm{softmax}`, `\log`, `\mathcal{N}`.
    Known,
    /// The conventions of papers: bold lower case a vector, upper case a matrix.
    Convention,
    /// Nothing decides it.
    None,
}

/// A symbol of a formula, for listing: `map --format json`'s `"symbols"`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SymbolEntry {
    /// The binding name.
    pub name: String,
    /// The LaTeX of its first occurrence, as written.
    pub latex: String,
    /// The kind.
    pub kind: SymbolKind,
    /// Where it occurs.
    pub spans: Vec<Span>,
    /// What decided the kind (of the strongest occurrence).
    pub evidence: Evidence,
}

impl<'n> Term<'n> {
    /// The occurrence a term names with its scripts taken off (`D` of `D_3^{-1}`).
    pub(super) fn unscripted_occurrence(&self) -> Option<&Occurrence<'n>> {
        match &self.kind {
            TermKind::Scripted { base, .. } => base.occurrence(),
            _ => self.occurrence(),
        }
    }

    /// The occurrence a term names with its scripts taken off (`D_3` of `D_3^{-1}`), to change
    /// its kind.
    pub(super) fn unscripted_occurrence_mut(&mut self) -> Option<&mut Occurrence<'n>> {
        match &mut self.kind {
            TermKind::Scripted { base, .. } => match &mut base.kind {
                TermKind::Symbol(occurrence) => Some(occurrence),
                _ => None,
            },
            TermKind::Symbol(occurrence) => Some(occurrence),
            _ => None,
        }
    }

    /// A term of `kind` made from `node`, covering `span`.
    pub fn new(kind: TermKind<'n>, span: Span, node: &'n Node) -> Self {
        Term { kind, span, node }
    }

    /// A term covering exactly its node.
    pub fn of(kind: TermKind<'n>, node: &'n Node) -> Self {
        Term { kind, span: node.span, node }
    }

    /// Boxes the term.
    pub fn boxed(self) -> Box<Term<'n>> {
        Box::new(self)
    }

    /// Whether the term is a tuple: two entries or more listed in parentheses (`(r, 0)`), which
    /// the meaning left a value (no argument list, no interval's ends).
    pub fn is_tuple(&self) -> bool {
        let TermKind::Fenced { open: Delim::Paren, body } = &self.kind else { return false };
        matches!(&body.kind, TermKind::Chain { rest, .. }
            if !rest.is_empty() && rest.iter().all(|j| matches!(j.op, InfixOp::Separator(s) if s == ",")))
    }

    /// The two sides of an inner product in angle brackets: `\langle a, b \rangle`, or Dirac's
    /// bra-ket `\langle a | b \rangle` (whose bar is no condition).
    pub fn inner_product_sides(&self) -> Option<(&Term<'n>, &Term<'n>)> {
        let TermKind::Fenced { open: Delim::Angle, body } = &self.kind else { return None };
        let TermKind::Chain { first, rest } = &body.kind else { return None };
        match rest.as_slice() {
            [joint] if matches!(joint.op, InfixOp::Separator(_)) => Some((first.as_ref(), &joint.term)),
            [joint] if matches!(joint.op, InfixOp::Relation(r) if r == "|" || r == "\\mid") => {
                Some((first.as_ref(), &joint.term))
            }
            _ => None,
        }
    }

    /// The occurrence, when the term is a symbol.
    pub fn occurrence(&self) -> Option<&Occurrence<'n>> {
        match &self.kind {
            TermKind::Symbol(occurrence) => Some(occurrence),
            _ => None,
        }
    }

    /// Calls `visit` on each direct sub-term, in source order.
    pub fn for_each_child<'t>(&'t self, mut visit: impl FnMut(&'t Term<'n>)) {
        match &self.kind {
            TermKind::Number | TermKind::Leaf => {}
            TermKind::Symbol(occurrence) => occurrence.scripts.iter().for_each(|s| visit(&s.term)),
            TermKind::Scripted { base, sub, sup, .. } => {
                visit(base);
                sub.iter().chain(sup.iter()).for_each(|s| visit(&s.term));
            }
            TermKind::Apply(app) => {
                visit(&app.callee);
                app.over.iter().chain(&app.base).chain(&app.args).chain(&app.given).for_each(&mut visit);
                app.sub.iter().chain(app.sup.iter()).for_each(|s| visit(&s.term));
            }
            TermKind::Operator(op) => {
                op.function.iter().chain(&op.sub).chain(&op.sup).chain(&op.base).for_each(&mut visit);
                visit(&op.operand);
            }
            TermKind::BigOp(big) => {
                let limits = [&big.var, &big.lower, &big.over, &big.upper, &big.body, &big.differential];
                limits.into_iter().flatten().for_each(visit);
            }
            TermKind::Product(factors) => factors.iter().for_each(|f| visit(&f.term)),
            TermKind::Sign { operand, .. } | TermKind::Factorial(operand) => visit(operand),
            TermKind::Interval { low, high } => {
                visit(low);
                visit(high);
            }
            TermKind::Chain { first, rest } => {
                visit(first);
                rest.iter().for_each(|j| visit(&j.term));
            }
            TermKind::Frac { num: a, den: b } | TermKind::Binom { top: a, bottom: b } => {
                visit(a);
                visit(b);
            }
            TermKind::Sqrt { index, radicand } => {
                index.iter().for_each(|i| visit(i));
                visit(radicand);
            }
            TermKind::Fenced { body, .. } | TermKind::Accent { body, .. } | TermKind::Wrapped(body) => {
                visit(body)
            }
            TermKind::Annotated { body, label } => {
                visit(body);
                label.iter().for_each(|l| visit(l));
            }
            TermKind::Rows(rows) => rows.iter().flatten().for_each(visit),
            TermKind::Prose(clauses) => {
                clauses.iter().flat_map(|c| c.words.iter().chain(&c.term)).for_each(visit)
            }
        }
    }

    /// Calls `visit` on each direct sub-term, mutably, in source order.
    pub fn for_each_child_mut(&mut self, mut visit: impl FnMut(&mut Term<'n>)) {
        match &mut self.kind {
            TermKind::Number | TermKind::Leaf => {}
            TermKind::Symbol(occurrence) => occurrence.scripts.iter_mut().for_each(|s| visit(&mut s.term)),
            TermKind::Scripted { base, sub, sup, .. } => {
                visit(base);
                sub.iter_mut().chain(sup.iter_mut()).for_each(|s| visit(&mut s.term));
            }
            TermKind::Apply(app) => {
                visit(&mut app.callee);
                app.over
                    .iter_mut()
                    .chain(&mut app.base)
                    .chain(&mut app.args)
                    .chain(&mut app.given)
                    .for_each(&mut visit);
                app.sub.iter_mut().chain(app.sup.iter_mut()).for_each(|s| visit(&mut s.term));
            }
            TermKind::Operator(op) => {
                op.function
                    .iter_mut()
                    .chain(&mut op.sub)
                    .chain(&mut op.sup)
                    .chain(&mut op.base)
                    .for_each(&mut visit);
                visit(&mut op.operand);
            }
            TermKind::BigOp(big) => {
                let limits = [
                    &mut big.var,
                    &mut big.lower,
                    &mut big.over,
                    &mut big.upper,
                    &mut big.body,
                    &mut big.differential,
                ];
                limits.into_iter().flatten().for_each(visit);
            }
            TermKind::Product(factors) => factors.iter_mut().for_each(|f| visit(&mut f.term)),
            TermKind::Sign { operand, .. } | TermKind::Factorial(operand) => visit(operand),
            TermKind::Interval { low, high } => {
                visit(low);
                visit(high);
            }
            TermKind::Chain { first, rest } => {
                visit(first);
                rest.iter_mut().for_each(|j| visit(&mut j.term));
            }
            TermKind::Frac { num: a, den: b } | TermKind::Binom { top: a, bottom: b } => {
                visit(a);
                visit(b);
            }
            TermKind::Sqrt { index, radicand } => {
                index.iter_mut().for_each(|i| visit(i));
                visit(radicand);
            }
            TermKind::Fenced { body, .. } | TermKind::Accent { body, .. } | TermKind::Wrapped(body) => {
                visit(body)
            }
            TermKind::Annotated { body, label } => {
                visit(body);
                label.iter_mut().for_each(|l| visit(l));
            }
            TermKind::Rows(rows) => rows.iter_mut().flatten().for_each(visit),
            TermKind::Prose(clauses) => {
                clauses.iter_mut().flat_map(|c| c.words.iter_mut().chain(&mut c.term)).for_each(visit)
            }
        }
    }

    /// Every symbol occurrence under (and including) this term, in source order, with the span
    /// of its term.
    pub fn occurrences(&self) -> Vec<(Span, &Occurrence<'n>)> {
        self.occurrences_outside(None)
    }

    /// Calls `visit` on every occurrence in the term, itself and its parts, without listing them
    /// (for passes over most formulas that keep little of what they see).
    pub fn for_each_occurrence<'t>(&'t self, visit: &mut impl FnMut(&'t Occurrence<'n>)) {
        let mut stack: Vec<&'t Term<'n>> = vec![self];
        while let Some(term) = stack.pop() {
            if let Some(o) = term.occurrence() {
                visit(o);
            }
            term.for_each_child(|child| stack.push(child));
        }
    }

    /// [`Term::occurrences`], leaving out what scripts of the role `left_out` hold (the `T` of a
    /// transpose, which marks an operation and names no symbol).
    pub fn occurrences_outside(&self, left_out: Option<ScriptRole>) -> Vec<(Span, &Occurrence<'n>)> {
        let mut out = Vec::new();
        let mut stack = vec![self];
        while let Some(term) = stack.pop() {
            if let Some(occurrence) = term.occurrence() {
                out.push((term.span, occurrence));
            }
            let skipped: Vec<&Term> = match left_out {
                Some(role) => term.scripts().filter(|s| s.role == role).map(|s| &*s.term).collect(),
                None => Vec::new(),
            };
            let mut children = Vec::new();
            term.for_each_child(|child| {
                if !skipped.iter().any(|s| std::ptr::eq(*s, child)) {
                    children.push(child)
                }
            });
            stack.extend(children.into_iter().rev());
        }
        out
    }

    /// The scripts written on this term: a symbol's, a scripted term's, a call's group's.
    fn scripts(&self) -> Box<dyn Iterator<Item = &Script<'n>> + '_> {
        match &self.kind {
            TermKind::Symbol(o) => Box::new(o.scripts.iter()),
            TermKind::Scripted { sub, sup, .. } => Box::new(sub.iter().chain(sup.iter())),
            TermKind::Apply(app) => Box::new(app.sub.iter().chain(app.sup.iter())),
            _ => Box::new(std::iter::empty()),
        }
    }
}

/// The short name of an operator between operands, for consumers that read it.
pub fn infix_name(op: &InfixOp) -> &str {
    match op {
        InfixOp::Separator(s) | InfixOp::Relation(s) | InfixOp::Additive(s) | InfixOp::Multiplicative(s) => s,
        InfixOp::Stacked(stacked) => &stacked.relation,
        InfixOp::Juxt => "",
    }
}
