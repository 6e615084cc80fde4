//! Any bytes → UTF-8 → an evaluation session, line by line, as `eqmap eval` reads standard
//! input with `--let` and `--dim`:
//!
//! - `let NAME=JSON` binds a value (random bindings: numbers, vectors, matrices, families,
//!   ragged or not, "inf", "nan", strings);
//! - `dim NAME=N` fixes a dimension's size;
//! - any other line is a formula, evaluated in order (definitions carry forward).
//!
//! The element limit is small (4096) so the fuzzer cannot make eqmap allocate hugely: any value
//! past it must be refused before it is allocated; the step limit is small too (200,000), so a
//! formula that would run long is refused. Every outcome and error is rendered.
#![no_main]

use eqmap::eval::{bindings, Options, Session};
use eqmap::report::eval as report;
use eqmap::Lang;
use libfuzzer_sys::fuzz_target;

const MAX_ELEMENTS: usize = 4096;
/// Steps per formula: small, so that a slow input is refused in milliseconds, not timed out.
const MAX_STEPS: u64 = 200_000;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let seed = data.first().map(|b| u64::from(*b) % 3);
    let options = Options {
        seed: seed.filter(|s| *s != 0),
        max_elements: MAX_ELEMENTS,
        max_steps: MAX_STEPS,
        trace: true,
        ..Options::default()
    };
    let mut session = Session::new(options);
    let lang = if data.len() % 2 == 0 { Lang::En } else { Lang::Ko };
    for line in text.lines().take(8) {
        if let Some(assignment) = line.strip_prefix("let ") {
            match bindings::split_assignment(assignment) {
                Ok((name, json)) => {
                    if let Err(error) = session.bind_json(name, json) {
                        let _ = report::render_error(json, &error, lang);
                    }
                }
                Err(error) => {
                    let _ = report::render_error(assignment, &error, lang);
                }
            }
        } else if let Some(assignment) = line.strip_prefix("dim ") {
            let bound = bindings::split_assignment(assignment)
                .and_then(|(name, n)| bindings::dimension_size(name, n).map(|size| (name, size)));
            match bound {
                Ok((name, size)) => session.set_dim(name, size),
                Err(error) => {
                    let _ = report::render_error(assignment, &error, lang);
                }
            }
        } else {
            match session.evaluate(line) {
                Ok(outcome) => {
                    if let Some(value) = &outcome.value {
                        let elements = value.shape().elements();
                        assert!(elements <= MAX_ELEMENTS as u128, "{line:?}: a value of {elements} elements");
                    }
                    let _ = report::render_warnings(&outcome, lang);
                    let _ = report::render_table(&outcome, lang);
                    let _ = report::to_json(&outcome).to_string();
                }
                Err(failure) => {
                    let _ = report::render_failure(line, &failure, lang);
                }
            }
        }
    }
});
