//! `eqmap grad`: the gradient of a formula with respect to named symbols, by reverse-mode
//! differentiation over the evaluator's tree.
//!
//! A [`GradSession`] reads a document's lines as `eval` does (a [`Session`] underneath: the
//! same bindings, samples, definitions and limits). The last line that computes a value is the
//! one differentiated: its tree is recorded on a tape ([`record`]), every value with the
//! operation that made it, and the tape is walked back ([`rules`]) from a cotangent G of the
//! value's shape. The result is ∂L/∂X for L = ⟨G, value⟩ = Σ G ⊙ value: for a number G = 1
//! (the ordinary gradient); otherwise G is given (`--cotangent JSON`, or `"ones"` for the sum
//! of the entries) or sampled from N(0, 1) with the seed. Definitions of earlier lines are
//! differentiated through: a function's body at each call, a family's member, a name bound by
//! `\mu = …` from its right side. `--jacobian` runs one backward pass per entry of a vector
//! value, the rows of the full Jacobian matrix.
//!
//! This module handles untrusted input: no unwrap, expect, panic or indexing (the parent's
//! `#![deny]` covers it).

pub mod attention;
pub mod record;
pub mod rules;
pub mod tape;
pub mod vjp;

use super::errors::{EvalError, EvalErrorKind, Needed};
use super::expr::Statement;
use super::infer::Inferrer;
use super::random::Normal;
use super::value::{NumShape, Value};
use super::walk::free_indices;
use super::{Failure, Options, Outcome, OutcomeKind, Session};
use crate::syntax::ast::Span;
use nalgebra::{DMatrix, DVector};
use record::{Frame, LetDef, Recorder};
use rules::Backward;
use std::collections::HashMap;

/// What the gradient is taken against, for a value that is not a number.
#[derive(Debug, Clone, PartialEq)]
pub enum Cotangent {
    /// `"ones"`: L is the sum of the value's entries.
    Ones,
    /// A value of the formula's shape.
    Given(Value),
}

/// What `grad` is asked.
#[derive(Debug, Clone, Default)]
pub struct Request {
    /// The names to differentiate with respect to, in order.
    pub wrt: Vec<String>,
    /// The cotangent of a value that is not a number (else sampled with the seed).
    pub cotangent: Option<Cotangent>,
    /// The full Jacobian matrix of a vector value with respect to one vector.
    pub jacobian: bool,
    /// Every slot's gradient: shape, norm, min, max.
    pub trace: bool,
}

/// Where the cotangent came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CotangentSource {
    /// The value is a number: G = 1.
    One,
    /// `--cotangent "ones"`.
    Ones,
    /// `--cotangent JSON`.
    Given,
    /// N(0, 1) samples from the seed.
    Sampled,
    /// None: the Jacobian was asked for.
    Jacobian,
}

/// One slot's gradient, for `--trace`.
#[derive(Debug, Clone, serde::Serialize)]
pub struct GradSlot {
    /// Where the slot is in the formula.
    pub span: Span,
    /// Its source text.
    pub latex: String,
    /// Its shape in dimension symbols.
    pub symbolic: String,
    /// The gradient's shape.
    pub shape: NumShape,
    /// Whether a gradient flows through it (false: no `--wrt` name is below it, so the
    /// backward pass does not go there).
    pub flows: bool,
    /// The gradient's Frobenius norm.
    #[serde(serialize_with = "number")]
    pub norm: f64,
    /// Its smallest entry.
    #[serde(serialize_with = "number")]
    pub min: f64,
    /// Its largest entry.
    #[serde(serialize_with = "number")]
    pub max: f64,
}

fn number<S: serde::Serializer>(x: &f64, serializer: S) -> Result<S::Ok, S::Error> {
    serde::Serialize::serialize(&super::value::number_json(*x), serializer)
}

/// Something the reader of a gradient must know.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(tag = "warning", rename_all = "snake_case")]
pub enum GradWarning {
    /// A kink where a subgradient was used (relu or |x| at 0: 0; ties of max or min: the
    /// entry the forward pass picked; floor and ceil at a whole number: 0).
    Subgradient {
        /// The operation.
        operation: String,
        /// How many entries sat on the kink.
        count: usize,
        /// Where, in the formula differentiated.
        span: Span,
    },
    /// A `--wrt` name the formula does not use: its gradient is zero.
    Unused {
        /// The name.
        name: String,
    },
}

/// The gradients of one formula.
#[derive(Debug, Clone)]
pub struct GradOutcome {
    /// The formula differentiated (the last line that computes a value).
    pub formula: String,
    /// Its outcome as `eval` gives it (value, samples, dimensions).
    pub outcome: Outcome,
    /// The value, as `eval` computes it.
    pub value: Value,
    /// Where the cotangent came from.
    pub cotangent: CotangentSource,
    /// The cotangent used (absent for a number or a Jacobian).
    pub cotangent_value: Option<Value>,
    /// ∂L/∂name for each `--wrt` name, in order.
    pub gradients: Vec<(String, Value)>,
    /// The Jacobian, when asked for: rows are the value's entries, columns the name's.
    pub jacobian: Option<(String, Value)>,
    /// Every slot's gradient, in reading order (with `--trace`).
    pub trace: Vec<GradSlot>,
    /// Kinks and unused names.
    pub warnings: Vec<GradWarning>,
    /// Elements the backward pass kept (values and gradients).
    pub kept: u128,
}

/// The line to differentiate.
#[derive(Debug, Clone)]
struct Target {
    source: String,
    statement: Statement,
    outcome: Outcome,
}

/// Reads a document's lines as `eval` does, and differentiates the last value.
#[derive(Debug, Clone)]
pub struct GradSession {
    session: Session,
    lets: HashMap<String, LetDef>,
    target: Option<Target>,
    request: Request,
}

impl GradSession {
    /// A session with `options` (its trace is `grad`'s own, [`Request::trace`]).
    pub fn new(mut options: Options, request: Request) -> Self {
        options.trace = false;
        GradSession { session: Session::new(options), lets: HashMap::new(), target: None, request }
    }

    /// The evaluation session underneath (to bind `--let` and `--dim`).
    pub fn session_mut(&mut self) -> &mut Session {
        &mut self.session
    }

    /// Evaluates one line; a line that computes a value becomes the one to differentiate.
    pub fn read(&mut self, source: &str) -> Result<Outcome, Failure> {
        let (outcome, statements) = self.session.evaluate_statements(source)?;
        for statement in &statements {
            if let Statement::Let { name, indices, squared, body } = statement {
                let def = LetDef {
                    indices: indices.clone(),
                    squared: *squared,
                    body: body.clone(),
                    source: source.to_string(),
                };
                self.lets.insert(name.clone(), def);
            }
        }
        if outcome.kind == OutcomeKind::Claim {
            self.target = None;
        }
        let last = statements
            .into_iter()
            .rev()
            .find(|s| matches!(s, Statement::Value(_) | Statement::Let { .. } | Statement::Function { .. }));
        if let (Some(statement), Some(_)) = (last, &outcome.value) {
            if outcome.kind != OutcomeKind::Claim {
                self.target =
                    Some(Target { source: source.to_string(), statement, outcome: outcome.clone() });
            }
        }
        Ok(outcome)
    }

    /// The source of the line that will be differentiated, if any.
    pub fn target_source(&self) -> Option<&str> {
        self.target.as_ref().map(|t| t.source.as_str())
    }

    /// Differentiates the last line that computed a value; errors have spans in that line.
    pub fn finish(&self) -> Result<GradOutcome, EvalError> {
        let Some(target) = &self.target else {
            return Err(EvalError::new(EvalErrorKind::NothingToDifferentiate, Span::default()));
        };
        let env = self.session.env();
        for name in &self.request.wrt {
            if !env.values.contains_key(name) {
                return Err(EvalError::new(
                    EvalErrorKind::NotAVariable { name: name.clone() },
                    Span::default(),
                ));
            }
        }
        let (body, free, squared) = match &target.statement {
            Statement::Value(expr) => (expr, free_indices(expr, &|n| env.is_value(n)), false),
            Statement::Let { indices, squared, body, .. } => (body, indices.clone(), *squared),
            Statement::Function { params, body, .. } => {
                (body, free_indices(body, &|n| env.is_value(n) || params.iter().any(|p| p == n)), false)
            }
            _ => return Err(EvalError::new(EvalErrorKind::NothingToDifferentiate, Span::default())),
        };
        let options = self.session.options();
        let mut inferrer = Inferrer::new(env, &target.source).with_steps(0, options.max_steps);
        inferrer.infer_side(body, &free)?;
        let mut frame = Frame::top(inferrer.resolution());
        let (wrt, lets) = (&self.request.wrt, &self.lets);
        let mut recorder =
            Recorder::new(env, lets, wrt, options.max_elements, options.max_steps, self.request.trace);
        let mut output = recorder.side(&mut frame, body, &free)?;
        if squared {
            let value =
                super::builtins::apply(super::expr::Builtin::Sqrt, recorder.tape.value(output).clone())
                    .map_err(|k| EvalError::new(k, body.span))?;
            output =
                recorder.tape.push(value, tape::Op::Apply(super::expr::Builtin::Sqrt, output), body.span)?;
        }
        let value = target.outcome.value.clone().unwrap_or_else(|| recorder.tape.value(output).clone());
        let mut result = GradOutcome {
            formula: target.source.clone(),
            outcome: target.outcome.clone(),
            value,
            cotangent: CotangentSource::One,
            cotangent_value: None,
            gradients: Vec::new(),
            jacobian: None,
            trace: Vec::new(),
            warnings: Vec::new(),
            kept: recorder.tape.kept(),
        };
        for name in wrt {
            if !recorder.leaves.contains_key(name) {
                result.warnings.push(GradWarning::Unused { name: name.clone() });
            }
        }
        if self.request.jacobian {
            self.jacobian(&recorder, output, body.span, &mut result)?;
            return Ok(result);
        }
        let shape = recorder.tape.value(output).shape();
        let (seed, source) = self.cotangent(shape, body.span)?;
        result.cotangent = source;
        if source != CotangentSource::One {
            result.cotangent_value = Some(seed.clone());
        }
        let pass = Backward::run(&recorder.tape, output, seed, self.request.trace)?;
        for name in wrt {
            result.gradients.push((name.clone(), gradient_of(&recorder, &pass, name, env)));
        }
        result.warnings.extend(kinks(&recorder, &pass));
        result.trace = trace(&recorder, &pass, &target.source);
        Ok(result)
    }

    fn cotangent(&self, shape: NumShape, span: Span) -> Result<(Value, CotangentSource), EvalError> {
        let shown = shape.to_string();
        match (&self.request.cotangent, shape) {
            (Some(Cotangent::Ones), shape) => Ok((filled(shape, &mut || 1.0), CotangentSource::Ones)),
            (Some(Cotangent::Given(v)), shape) if v.shape() == shape && !matches!(v, Value::Family(_)) => {
                Ok((v.clone(), CotangentSource::Given))
            }
            (Some(Cotangent::Given(v)), _) => Err(EvalError::new(
                EvalErrorKind::NeedsCotangent { shape: shown, given: Some(v.shape().to_string()) },
                span,
            )),
            (None, NumShape::Scalar) => Ok((Value::Scalar(1.0), CotangentSource::One)),
            (None, shape) => match self.session.options().seed {
                Some(seed) => {
                    let mut rng = Normal::new(seed ^ COTANGENT_STREAM);
                    Ok((filled(shape, &mut || rng.sample()), CotangentSource::Sampled))
                }
                None => {
                    Err(EvalError::new(EvalErrorKind::NeedsCotangent { shape: shown, given: None }, span))
                }
            },
        }
    }

    fn jacobian(
        &self,
        recorder: &Recorder<'_>,
        output: usize,
        span: Span,
        result: &mut GradOutcome,
    ) -> Result<(), EvalError> {
        result.cotangent = CotangentSource::Jacobian;
        let name = match self.request.wrt.as_slice() {
            [name] => name.clone(),
            _ => {
                let what = "--jacobian with more or fewer than one --wrt name".to_string();
                return Err(EvalError::new(EvalErrorKind::Unsupported { what }, span));
            }
        };
        let columns = match self.session.env().values.get(&name).map(Value::shape) {
            Some(NumShape::Vector(n)) => n,
            Some(NumShape::Scalar) => 1,
            other => {
                let kind = EvalErrorKind::WrongShape {
                    expected: Needed::VectorForJacobian,
                    found: other.map_or_else(|| "?".into(), |s| s.to_string()),
                };
                return Err(EvalError::new(kind, span));
            }
        };
        let out_shape = recorder.tape.value(output).shape();
        let rows = match out_shape {
            NumShape::Vector(m) => m,
            NumShape::Scalar => 1,
            other => {
                let kind = EvalErrorKind::WrongShape {
                    expected: Needed::VectorValueForJacobian,
                    found: other.to_string(),
                };
                return Err(EvalError::new(kind, span));
            }
        };
        super::builtins::check_size(NumShape::Matrix(rows, columns), self.session.options().max_elements)
            .map_err(|k| EvalError::new(k, span))?;
        // One backward pass an entry: their work, a step a node, within the step limit.
        let work = (rows as u128).saturating_mul(recorder.tape.nodes().len() as u128);
        let max_steps = self.session.options().max_steps;
        if work > u128::from(max_steps) {
            return Err(EvalError::new(
                EvalErrorKind::TooMuchWork { steps: Some(work), limit: max_steps },
                span,
            ));
        }
        let mut matrix = DMatrix::zeros(rows, columns);
        for i in 0..rows {
            let seed = match out_shape {
                NumShape::Vector(m) => {
                    Value::Vector(DVector::from_fn(m, |k, _| if k == i { 1.0 } else { 0.0 }))
                }
                _ => Value::Scalar(1.0),
            };
            let pass = Backward::run(&recorder.tape, output, seed, false)?;
            let row: Vec<f64> = gradient_of(recorder, &pass, &name, self.session.env()).entries();
            for (j, x) in row.iter().enumerate() {
                if let Some(e) = matrix.get_mut((i, j)) {
                    *e = *x;
                }
            }
            if i == 0 {
                result.warnings.extend(kinks(recorder, &pass));
            }
        }
        result.jacobian = Some((name, Value::Matrix(matrix)));
        Ok(())
    }
}

/// XORed into the seed for the cotangent's samples, so that they leave the samples of the
/// formula's symbols (those `eval` draws with the same seed) as they are.
pub const COTANGENT_STREAM: u64 = 0x6772_6164_2d63_6f74;

fn filled(shape: NumShape, next: &mut dyn FnMut() -> f64) -> Value {
    match shape {
        NumShape::Scalar => Value::Scalar(next()),
        NumShape::Vector(n) => Value::Vector(DVector::from_fn(n, |_, _| next())),
        NumShape::Matrix(r, c) => {
            let data: Vec<f64> = (0..r * c).map(|_| next()).collect();
            Value::Matrix(DMatrix::from_row_slice(r, c, &data))
        }
    }
}

fn gradient_of(recorder: &Recorder<'_>, pass: &Backward<'_>, name: &str, env: &super::env::Env) -> Value {
    match recorder.leaves.get(name) {
        Some(node) => {
            pass.grad(*node).cloned().unwrap_or_else(|| tape::zeros_like(recorder.tape.value(*node)))
        }
        None => env.values.get(name).map_or(Value::Scalar(0.0), tape::zeros_like),
    }
}

fn kinks(recorder: &Recorder<'_>, pass: &Backward<'_>) -> Vec<GradWarning> {
    pass.kinks
        .iter()
        .map(|k| {
            let node = recorder.tape.get(k.node);
            let span = node.map_or(Span::default(), |n| n.site.as_ref().map_or(n.span, |s| s.1));
            GradWarning::Subgradient { operation: k.operation.clone(), count: k.count, span }
        })
        .collect()
}

fn trace(recorder: &Recorder<'_>, pass: &Backward<'_>, source: &str) -> Vec<GradSlot> {
    let Some(slots) = &recorder.slots else { return Vec::new() };
    let mut rows: Vec<GradSlot> = slots
        .iter()
        .map(|slot| {
            let value = recorder.tape.value(slot.node);
            let grad = pass.grad(slot.node);
            let (mut min, mut max, mut squares) = (f64::NAN, f64::NAN, 0.0);
            if let Some(g) = grad {
                g.for_each(&mut |x| {
                    min = if min.is_nan() { x } else { min.min(x) };
                    max = if max.is_nan() { x } else { max.max(x) };
                    squares += x * x;
                });
            }
            GradSlot {
                span: slot.span,
                latex: slot.span.text(source).to_string(),
                symbolic: slot.symbolic.clone(),
                shape: recorder.tape.get(slot.node).map_or(value.shape(), |n| n.shape),
                flows: grad.is_some(),
                norm: if grad.is_some() { squares.sqrt() } else { 0.0 },
                min: if grad.is_some() { min } else { 0.0 },
                max: if grad.is_some() { max } else { 0.0 },
            }
        })
        .collect();
    rows.sort_by(|a, b| a.span.start.cmp(&b.span.start).then(b.span.end.cmp(&a.span.end)));
    rows
}
