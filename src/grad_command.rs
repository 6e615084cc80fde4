//! `eqmap grad` (binary only): arguments → a [`GradSession`] → the gradients printed.
//!
//! Lines are read as `eval` reads them (warnings on standard error); the last that computes a
//! value is differentiated. Bad input of any line, or an error of the backward pass, is exit 1
//! with the message and a caret under the formula.

use crate::cli::{EvalFormat, GradArgs};
use crate::formulas::{self, Input};
use eqmap::eval::grad::{Cotangent, GradOutcome, GradSession, GradWarning, Request};
use eqmap::eval::{bindings, Failure, Options, Outcome};
use eqmap::paste::Pasted;
use eqmap::report::{eval as eval_report, grad as grad_report};
use std::io::{self, Write};
use std::process::ExitCode;

/// Runs `eqmap grad`.
pub fn run(args: GradArgs) -> io::Result<ExitCode> {
    let lang = crate::lang(&args.common);
    let seed = match crate::seed(args.values.seed.as_deref(), lang) {
        Ok(seed) => seed,
        Err(message) => {
            eprintln!("eqmap: {message}");
            return Ok(ExitCode::from(1));
        }
    };
    let cotangent = match args.cotangent.as_deref().map(str::trim) {
        None => None,
        Some("ones" | "\"ones\"") => Some(Cotangent::Ones),
        Some(text) => match bindings::value_from_json("cotangent", text, args.values.max_elements) {
            Ok(value) => Some(Cotangent::Given(value)),
            Err(error) => {
                eprint!("{}", eval_report::render_error(text, &error, lang));
                return Ok(ExitCode::from(1));
            }
        },
    };
    let options = Options {
        seed,
        max_elements: args.values.max_elements,
        max_steps: args.values.max_steps,
        trace: false,
        limits: crate::limits(&args.common),
    };
    let request = Request { wrt: args.wrt.clone(), cotangent, jacobian: args.jacobian, trace: args.trace };
    let mut grad = GradSession::new(options, request);
    if !crate::bind_values(grad.session_mut(), &args.values.lets, &args.values.dims, lang)? {
        return Ok(ExitCode::from(1));
    }
    let inputs = formulas::inputs(args.formula.clone(), args.whole)?;
    let mut target: Option<(&Input, Pasted)> = None;
    for input in &inputs {
        let (outcome, pasted) = match read_line(&mut grad, input) {
            Ok(read) => read,
            Err(failure) => return fail(input, &failure, lang, args.format),
        };
        eprint!("{}", eval_report::render_warnings_in(&outcome, lang, input.layout()));
        if grad.target_source() == Some(pasted.text.as_str()) {
            target = Some((input, pasted));
        }
    }
    let Some((input, pasted)) = target else {
        let error = eqmap::eval::EvalError::new(
            eqmap::eval::EvalErrorKind::NothingToDifferentiate,
            eqmap::syntax::ast::Span::default(),
        );
        let last = inputs.last().map_or(String::new(), |i| i.text.clone());
        eprint!("{}", eval_report::render_error(&last, &error, lang));
        return Ok(ExitCode::from(1));
    };
    let outcome = match finish(&grad, input, &pasted) {
        Ok(outcome) => outcome,
        Err(failure) => return fail(input, &failure, lang, args.format),
    };
    eprint!("{}", grad_report::render_warnings_in(&input.text, &outcome, lang, input.layout()));
    let text = match args.format {
        EvalFormat::Json => format!("{}\n", grad_report::to_json(&outcome)),
        EvalFormat::Table => grad_report::render_text(&outcome, lang),
    };
    let mut stdout = io::stdout().lock();
    stdout.write_all(text.as_bytes())?;
    stdout.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// One line read into `grad` as `eqmap grad` reads it: the pasted text prepared, then read;
/// the outcome's and the failure's spans in the line as given.
pub(crate) fn read_line(grad: &mut GradSession, input: &Input) -> Result<(Outcome, Pasted), Failure> {
    let pasted = eqmap::paste::prepare(&input.text).map_err(Failure::Parse)?;
    match grad.read(&pasted.text) {
        Ok(mut outcome) => {
            outcome.parse_warnings = pasted.all_warnings(&outcome.parse_warnings);
            outcome.formula = input.text.clone();
            for warning in &mut outcome.warnings {
                if let eqmap::eval::Warning::NonFinite { span, .. } = warning {
                    *span = pasted.original(*span);
                }
            }
            Ok((outcome, pasted))
        }
        Err(Failure::Parse(error)) => Err(Failure::Parse(pasted.original_error(error))),
        Err(Failure::Eval(mut error)) => {
            error.span = pasted.original(error.span);
            Err(Failure::Eval(error))
        }
    }
}

/// The gradients of the line `input` (read last of those that compute a value, `pasted` as
/// [`read_line`] prepared it), with spans in the line as given.
pub(crate) fn finish(grad: &GradSession, input: &Input, pasted: &Pasted) -> Result<GradOutcome, Failure> {
    let mut outcome = grad.finish().map_err(|mut error| {
        error.span = pasted.original(error.span);
        Failure::Eval(error)
    })?;
    outcome.formula = input.text.clone();
    for warning in &mut outcome.warnings {
        if let GradWarning::Subgradient { span, .. } = warning {
            *span = pasted.original(*span);
        }
    }
    for slot in &mut outcome.trace {
        slot.span = pasted.original(slot.span);
        slot.latex = slot.span.text(&input.text).to_string();
    }
    Ok(outcome)
}

/// The failure under its line with a caret; one about the request, not a place in the
/// formula (`--wrt` of a name with no value), without.
pub(crate) fn render_failure(input: &Input, failure: &Failure, lang: eqmap::Lang) -> String {
    if failure.span() == eqmap::syntax::ast::Span::default() {
        format!("{}: {}\n", lang.pick("오류", "error"), failure.message(lang))
    } else {
        eval_report::render_failure_in(&input.text, failure, lang, input.layout())
    }
}

/// The failure under its line with a caret (exit 1); with `--format json` also eval's error
/// record `{"line", "formula", "error", "message", "span", …}` on standard output.
fn fail(input: &Input, failure: &Failure, lang: eqmap::Lang, format: EvalFormat) -> io::Result<ExitCode> {
    eprint!("{}", render_failure(input, failure, lang));
    if let EvalFormat::Json = format {
        let record = eval_report::failure_json(&input.text, input.line, failure, lang);
        let mut stdout = io::stdout().lock();
        stdout.write_all(format!("{record}\n").as_bytes())?;
        stdout.flush()?;
    }
    Ok(ExitCode::from(1))
}
