//! The session that reads a document's formulas in order, and what each evaluation returns.

use super::bindings;
use super::env::{Env, FamilyDef, Function};
use super::errors::{EvalError, EvalErrorKind, Hint};
use super::expr::{Expr, Statement};
use super::infer::Inferrer;
use super::interpret::{check_shapes, Frame, Machine};
use super::random::Normal;
use super::shape::{self, Shape};
use super::statement::{lower_statement, statement_terms};
use super::trace::{reading_order, TraceRow};
use super::value::{NumShape, Value};
use super::walk::free_indices;
use super::Options;
use crate::lang::Lang;
use crate::syntax::ast::{Font, Node, NodeKind, Span};
use crate::syntax::error::ParseError;
use nalgebra::{DMatrix, DVector};
use serde::Serialize;

/// Sizes given to dimensions that nothing fixes, in order of first need.
const DEFAULT_SIZES: [usize; 6] = [4, 3, 5, 6, 2, 7];

/// Relative tolerance of claims, against the largest entry of the two sides.
pub const TOLERANCE: f64 = 1e-9;

/// Why a formula gave no result.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Failure {
    /// It could not be parsed.
    Parse(ParseError),
    /// It could not be evaluated.
    Eval(EvalError),
}

impl Failure {
    /// The one-line message, as the command line shows it.
    pub fn message(&self, lang: Lang) -> String {
        self.message_on(lang, crate::Surface::Cli)
    }

    /// The one-line message as `surface` shows it (see [`crate::surface`]).
    pub fn message_on(&self, lang: Lang, surface: crate::Surface) -> String {
        match self {
            Failure::Parse(e) => e.message_on(lang, surface),
            Failure::Eval(e) => e.message_on(lang, surface),
        }
    }

    /// Where it went wrong.
    pub fn span(&self) -> Span {
        match self {
            Failure::Parse(e) => e.span,
            Failure::Eval(e) => e.span,
        }
    }
}

/// What a formula was.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", content = "name", rename_all = "snake_case")]
pub enum OutcomeKind {
    /// A value was computed.
    Value,
    /// An equation between computable sides was checked.
    Claim,
    /// A function was defined (and evaluated when its parameters had values).
    Function(String),
    /// A family was defined.
    Family(String),
    /// A name was bound to a value.
    Let(String),
    /// Shapes were declared.
    Declaration,
}

/// A symbol filled with N(0, 1) samples.
#[derive(Debug, Clone, Serialize)]
pub struct Sample {
    /// Its binding name.
    pub name: String,
    /// Its shape in dimension symbols.
    pub symbolic: String,
    /// Its shape in numbers.
    pub shape: NumShape,
}

/// Something computed that the reader must not take as fine.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "warning", rename_all = "snake_case")]
pub enum Warning {
    /// The result holds NaN or infinite entries.
    NonFinite {
        /// How many.
        count: usize,
        /// Where.
        span: Span,
    },
    /// A definition was recorded but not evaluated: these parameters have no value.
    Unevaluated {
        /// The parameters without values.
        missing: Vec<String>,
    },
}

/// The result of one formula.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// The formula as given.
    pub formula: String,
    /// What it was.
    pub kind: OutcomeKind,
    /// Its value (the first side of a claim).
    pub value: Option<Value>,
    /// The value's shape in dimension symbols.
    pub symbolic: Option<String>,
    /// The values of every side of a claim.
    pub sides: Vec<Value>,
    /// Whether a claim holds.
    pub holds: Option<bool>,
    /// The largest absolute difference between the sides of a claim.
    pub max_abs_diff: Option<f64>,
    /// Symbols that were sampled.
    pub sampled: Vec<Sample>,
    /// Named dimensions and their sizes.
    pub dims: Vec<(String, usize)>,
    /// The trace, in reading order (when asked for).
    pub trace: Vec<TraceRow>,
    /// What the reader must not take as fine.
    pub warnings: Vec<Warning>,
    /// The parser's warnings (unknown commands).
    pub parse_warnings: Vec<crate::syntax::error::Warning>,
}

/// Reads the formulas of one document, in order.
#[derive(Debug, Clone)]
pub struct Session {
    env: Env,
    options: Options,
    rng: Option<Normal>,
}

impl Session {
    /// A session with `options`.
    pub fn new(options: Options) -> Self {
        let rng = options.seed.map(Normal::new);
        Session { env: Env::default(), options, rng }
    }

    /// The nesting limit of the parser's options, capped as the parser caps it.
    fn max_depth(&self) -> usize {
        self.options.limits.max_depth.min(crate::Limits::MAX_DEPTH_CEILING)
    }

    /// The knowledge gathered so far.
    pub fn env(&self) -> &Env {
        &self.env
    }

    /// Binds `name` to `value` (`--let`).
    pub fn bind(&mut self, name: &str, value: Value) {
        // What is bound is a value of its shape, whatever its letter suggests: the meaning
        // layer then reads `h(x + 1)` with a bound h as a product, not a call.
        let kind = match &value {
            Value::Scalar(_) => crate::meaning::SymbolKind::Scalar,
            Value::Vector(_) => crate::meaning::SymbolKind::Vector,
            Value::Matrix(_) | Value::Family(_) => crate::meaning::SymbolKind::Matrix,
        };
        self.env.table.declare(name.to_string(), kind);
        self.env.values.insert(name.to_string(), value);
    }

    /// Binds `name` from JSON text (`--let NAME=JSON`).
    pub fn bind_json(&mut self, name: &str, json: &str) -> Result<(), EvalError> {
        let value = bindings::value_from_json(name, json, self.options.max_elements)?;
        self.bind(name, value);
        Ok(())
    }

    /// Fixes the size of dimension `name` (`--dim`).
    pub fn set_dim(&mut self, name: &str, size: usize) {
        self.env.dims.insert(name.to_string(), size);
    }

    /// Parses and evaluates one formula.
    pub fn evaluate(&mut self, source: &str) -> Result<Outcome, Failure> {
        self.evaluate_statements(source).map(|(outcome, _)| outcome)
    }

    /// The options of the session.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// [`Session::evaluate`], with the statements the formula was lowered to, in order (what
    /// `grad` differentiates).
    pub fn evaluate_statements(&mut self, source: &str) -> Result<(Outcome, Vec<Statement>), Failure> {
        let parsed = crate::parse_with(source, &self.options.limits).map_err(Failure::Parse)?;
        if let Some((text, span)) = scientific_notation(&parsed.root, source) {
            let kind = EvalErrorKind::ScientificNotation { text };
            return Err(Failure::Eval(EvalError::new(kind, span)));
        }
        self.env.table.learn(&parsed.root);
        let mut outcome = Outcome {
            formula: source.to_string(),
            kind: OutcomeKind::Declaration,
            value: None,
            symbolic: None,
            sides: Vec::new(),
            holds: None,
            max_abs_diff: None,
            sampled: Vec::new(),
            dims: Vec::new(),
            trace: Vec::new(),
            warnings: Vec::new(),
            parse_warnings: parsed.warnings.clone(),
        };
        // What the formula means is resolved once, as the map and the reading resolve it.
        self.env.table.set_max_depth(self.max_depth());
        let resolved =
            crate::meaning::resolve_checked(&parsed.root, &self.env.table).map_err(Failure::Parse)?;
        let mut statements = Vec::new();
        for term in statement_terms(&resolved) {
            let statement = self
                .env
                .with_context(self.max_depth(), |ctx| lower_statement(term, ctx))
                .map_err(Failure::Eval)?;
            statements.push(statement.clone());
            self.run(statement, source, &mut outcome).map_err(Failure::Eval)?;
        }
        reading_order(&mut outcome.trace);
        Ok((outcome, statements))
    }

    fn run(&mut self, statement: Statement, source: &str, outcome: &mut Outcome) -> Result<(), EvalError> {
        match statement {
            Statement::Declaration => Ok(()),
            Statement::Value(expr) => {
                let free = free_indices(&expr, &|n| self.env.is_value(n));
                let value = self.compute(source, &[(&expr, free)], outcome)?.pop();
                self.finish(outcome, OutcomeKind::Value, value, expr.span);
                Ok(())
            }
            Statement::Claim(sides) => self.claim(source, &sides, outcome),
            Statement::Function { name, params, body } => self.function(source, name, params, body, outcome),
            Statement::Family { name, index, body } => {
                self.env.families.insert(name.clone(), FamilyDef { index, body });
                outcome.kind = OutcomeKind::Family(name);
                Ok(())
            }
            Statement::Let { name, indices, squared, body } => {
                let value = self.compute(source, &[(&body, indices)], outcome)?.pop();
                let value = match value {
                    Some(v) if squared => Some(root_of_square(v, body.span)?),
                    other => other,
                };
                if let Some(v) = &value {
                    self.env.values.insert(name.clone(), v.clone());
                }
                self.finish(outcome, OutcomeKind::Let(name), value, body.span);
                Ok(())
            }
        }
    }

    fn function(
        &mut self,
        source: &str,
        name: String,
        params: Vec<String>,
        body: Expr,
        outcome: &mut Outcome,
    ) -> Result<(), EvalError> {
        self.env.functions.insert(name.clone(), Function { params: params.clone(), body: body.clone() });
        let missing: Vec<String> =
            params.iter().filter(|p| !self.env.values.contains_key(*p)).cloned().collect();
        if !missing.is_empty() && self.options.seed.is_none() {
            outcome.kind = OutcomeKind::Function(name);
            outcome.warnings.push(Warning::Unevaluated { missing });
            return Ok(());
        }
        let free = free_indices(&body, &|n| self.env.is_value(n) || params.contains(&n.to_string()));
        let value = self.compute(source, &[(&body, free)], outcome)?.pop();
        self.finish(outcome, OutcomeKind::Function(name), value, body.span);
        Ok(())
    }

    fn claim(&mut self, source: &str, sides: &[Expr], outcome: &mut Outcome) -> Result<(), EvalError> {
        let mut order: Vec<String> = Vec::new();
        let per_side: Vec<Vec<String>> =
            sides.iter().map(|s| free_indices(s, &|n| self.env.is_value(n))).collect();
        for name in per_side.iter().flatten() {
            if !order.contains(name) {
                order.push(name.clone());
            }
        }
        let jobs: Vec<(&Expr, Vec<String>)> = sides
            .iter()
            .zip(&per_side)
            .map(|(s, own)| (s, order.iter().filter(|n| own.contains(n)).cloned().collect()))
            .collect();
        let values = self.compute(source, &jobs, outcome)?;
        let (mut holds, mut diff) = (true, 0.0f64);
        for (value, side) in values.iter().zip(sides).skip(1) {
            let first = values.first().unwrap_or(value);
            let (h, d) = compare(first, value).map_err(|k| EvalError::new(k, side.span))?;
            holds &= h;
            diff = if d.is_nan() || diff.is_nan() { f64::NAN } else { diff.max(d) };
        }
        let span =
            sides
                .iter()
                .fold(Span::default(), |s, e| if s == Span::default() { e.span } else { s.join(e.span) });
        outcome.holds = Some(holds);
        outcome.max_abs_diff = Some(diff);
        outcome.sides = values.clone();
        self.finish(outcome, OutcomeKind::Claim, values.into_iter().next(), span);
        Ok(())
    }

    fn finish(&self, outcome: &mut Outcome, kind: OutcomeKind, value: Option<Value>, span: Span) {
        if let Some(v) = &value {
            let count = v.non_finite();
            if count > 0 {
                outcome.warnings.push(Warning::NonFinite { count, span });
            }
        }
        outcome.kind = kind;
        outcome.value = value;
    }

    /// Infers every side's shape, samples what has a shape but no value, then evaluates.
    fn compute(
        &mut self,
        source: &str,
        jobs: &[(&Expr, Vec<String>)],
        outcome: &mut Outcome,
    ) -> Result<Vec<Value>, EvalError> {
        let limit = self.options.max_elements;
        let (res, samples, symbolic) = {
            let mut inferrer = Inferrer::new(&self.env, source).with_steps(0, self.options.max_steps);
            let mut shapes = Vec::new();
            for (expr, free) in jobs {
                let shape = inferrer.infer_side(expr, free).map_err(|e| self.unbound_first(&inferrer, e))?;
                if let Some(first) = shapes.first() {
                    if !inferrer.unify_shapes(first, &shape) {
                        let (left, right) =
                            (shape::show(&inferrer.dims, first), shape::show(&inferrer.dims, &shape));
                        let kind = EvalErrorKind::ShapeMismatch {
                            op: "=".into(),
                            left: left.clone(),
                            right: right.clone(),
                            dims: (left, right),
                        };
                        return Err(self.unbound_first(&inferrer, EvalError::new(kind, expr.span)));
                    }
                }
                shapes.push(shape);
            }
            let samples = self.plan_samples(&mut inferrer)?;
            let res = inferrer.resolution();
            check_shapes(&res, limit)
                .map_err(|k| EvalError::new(k, jobs.first().map_or(Span::default(), |j| j.0.span)))?;
            inferrer.refuse_costly()?;
            let symbolic = shapes.first().map(|s| shape::show(&inferrer.dims, s));
            (res, samples, symbolic)
        };
        for sample in &samples {
            let value = self.sample(sample.shape);
            self.env.values.insert(sample.name.clone(), value);
        }
        for (name, size) in &res.dims {
            self.env.dims.entry(name.clone()).or_insert(*size);
        }
        let mut dims: Vec<(String, usize)> = res.dims.iter().map(|(n, s)| (n.clone(), *s)).collect();
        dims.sort();
        let mut machine =
            Machine::new(&self.env, source, limit, self.options.trace).with_max_steps(self.options.max_steps);
        let mut frame = Frame::top(res);
        let mut values = Vec::new();
        for (expr, free) in jobs {
            values.push(machine.side(&mut frame, expr, free)?);
        }
        outcome.trace.extend(machine.take_trace());
        outcome.sampled.extend(samples);
        outcome.dims = dims;
        outcome.symbolic = symbolic;
        Ok(values)
    }

    /// A shape error over a name with no value, whose shape was only guessed from its letter
    /// and will not be sampled (`g` in `m_t = \beta_1 m_{t-1} + (1-\beta_1) g_t`, a matrix by
    /// its use beside a bound vector): the missing value is the problem, not the guess.
    fn unbound_first(&self, inferrer: &Inferrer<'_>, error: EvalError) -> EvalError {
        if !matches!(*error.kind, EvalErrorKind::ShapeMismatch { .. } | EvalErrorKind::WrongShape { .. }) {
            return error;
        }
        let guessed = inferrer.wanted.iter().find(|w| {
            let sampled = self.options.seed.is_some() && w.shape != Shape::Scalar;
            !w.declared && !sampled && error.span.start <= w.span.start && w.span.end <= error.span.end
        });
        match guessed {
            Some(w) => EvalError::new(EvalErrorKind::Unbound { name: w.name.clone() }, w.span)
                .with_hint(Hint::Bind(w.name.clone())),
            None => error,
        }
    }

    /// Decides sizes and shapes of the symbols to sample, or says which symbol has no value.
    fn plan_samples(&self, inferrer: &mut Inferrer<'_>) -> Result<Vec<Sample>, EvalError> {
        let wanted = inferrer.wanted.clone();
        let mut next = 0;
        let mut samples = Vec::new();
        for w in &wanted {
            let sampleable = self.options.seed.is_some() && (w.declared || w.shape != Shape::Scalar);
            if !sampleable {
                let kind = EvalErrorKind::Unbound { name: w.name.clone() };
                return Err(EvalError::new(kind, w.span).with_hint(Hint::Bind(w.name.clone())));
            }
            let dims: Vec<usize> = match &w.shape {
                Shape::Scalar => Vec::new(),
                Shape::Vector(n) => vec![*n],
                Shape::Matrix(r, c) => vec![*r, *c],
            };
            for d in dims {
                if inferrer.dims.size(d).is_none() {
                    inferrer
                        .dims
                        .set_size(d, DEFAULT_SIZES.get(next % DEFAULT_SIZES.len()).copied().unwrap_or(4));
                    next += 1;
                }
            }
        }
        for w in &wanted {
            let symbolic = shape::show(&inferrer.dims, &w.shape);
            let Some(numeric) = inferrer.numeric(&w.shape) else { continue };
            super::builtins::check_size(numeric, self.options.max_elements)
                .map_err(|k| EvalError::new(k, w.span))?;
            samples.push(Sample { name: w.name.clone(), symbolic, shape: numeric });
        }
        Ok(samples)
    }

    fn sample(&mut self, shape: NumShape) -> Value {
        let Some(rng) = self.rng.as_mut() else { return Value::Scalar(f64::NAN) };
        match shape {
            NumShape::Scalar => Value::Scalar(rng.sample()),
            NumShape::Vector(n) => Value::Vector(DVector::from_fn(n, |_, _| rng.sample())),
            NumShape::Matrix(r, c) => {
                let data: Vec<f64> = (0..r * c).map(|_| rng.sample()).collect();
                Value::Matrix(DMatrix::from_row_slice(r, c, &data))
            }
        }
    }
}

/// The first number written as in a programming language, `1e400`, `3e-4` or `2.5E+3`: a
/// number, then `e` or `E` right after it, then digits (after a sign, perhaps). LaTeX reads it
/// as a product with Euler's number (or a symbol E), which is never what was meant.
fn scientific_notation(root: &Node, source: &str) -> Option<(String, Span)> {
    let mut number_ends = Vec::new();
    let mut es = Vec::new();
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        match &node.kind {
            NodeKind::Number { .. } => number_ends.push(node.span),
            NodeKind::Symbol { name, font: Font::Normal } if name == "e" || name == "E" => es.push(node.span),
            _ => {}
        }
        stack.extend(node.children());
    }
    es.sort_by_key(|s| s.start);
    for e in es {
        let Some(number) = number_ends.iter().find(|n| n.end == e.start && n.end > n.start) else { continue };
        let rest = source.get(e.end..).unwrap_or("");
        let unsigned = rest.strip_prefix(['+', '-']).unwrap_or(rest);
        let digits = unsigned.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 {
            continue;
        }
        let end = e.end + (rest.len() - unsigned.len()) + digits;
        let span = Span::new(number.start, end);
        return Some((span.text(source).to_string(), span));
    }
    None
}

/// `σ^2 = v`: σ is the entrywise square root of v, which must not be negative.
fn root_of_square(v: Value, span: Span) -> Result<Value, EvalError> {
    let mut negative = None;
    v.for_each(&mut |x| {
        if x < 0.0 && negative.is_none() {
            negative = Some(x);
        }
    });
    match negative {
        Some(x) => Err(EvalError::new(EvalErrorKind::SqrtOfNegative { value: x }, span)),
        None => Ok(super::builtins::map(v, f64::sqrt)),
    }
}

/// Whether two values agree within the tolerance, and their largest absolute difference.
pub fn compare(a: &Value, b: &Value) -> Result<(bool, f64), EvalErrorKind> {
    if a.shape() != b.shape() {
        return Err(EvalErrorKind::ShapeMismatch {
            op: "=".into(),
            left: a.shape().to_string(),
            right: b.shape().to_string(),
            dims: (a.shape().to_string(), b.shape().to_string()),
        });
    }
    let (xs, ys) = (a.entries(), b.entries());
    let scale = xs.iter().chain(&ys).filter(|x| x.is_finite()).fold(0.0f64, |m, x| m.max(x.abs()));
    let (mut holds, mut diff) = (true, 0.0f64);
    for (x, y) in xs.iter().zip(&ys) {
        let d = if x == y { 0.0 } else { (x - y).abs() };
        holds &= x == y || d <= TOLERANCE * scale;
        diff = if d.is_nan() {
            f64::NAN
        } else if diff.is_nan() {
            diff
        } else {
            diff.max(d)
        };
    }
    Ok((holds, diff))
}
