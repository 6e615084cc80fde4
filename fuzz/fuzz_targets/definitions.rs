//! Eval sessions whose lines define functions that call each other → `Session::evaluate`,
//! line after line, under a step limit.
//!
//! The first byte picks the step limit (1,000, 20,000 or 200,000) and the language; each
//! later pair of bytes one line: `f_k(x) = f_j(f_j(x))` (calls doubling at each level),
//! `f_k(x) = f_j(x) + … + f_j(x)` (up to 12 calls), a sum of calls, a product of two, a
//! definition that calls itself or that calls a name defined later (mutual recursion, `p`
//! and `q`), a redefinition (shadowing, also of a parameter's name), a function of two
//! arguments, a bound vector or matrix passed in, a call with the wrong number of arguments,
//! a call of a name never defined, a claim, or a plain call `f_k(1)`.
//!
//! Checks: no panic; no line takes more than 2 s (the step budget counts calls, so even
//! `f_{20}(1)` with 2^20 calls must be refused within it, not run); no value past the element
//! limit; every failure's span inside its line; every outcome and failure rendered.
#![no_main]

use eqmap::eval::{Options, Session};
use eqmap::report::eval as report;
use eqmap::Lang;
use libfuzzer_sys::fuzz_target;
use std::time::{Duration, Instant};

const MAX_ELEMENTS: usize = 4096;
const LINE_BUDGET: Duration = Duration::from_secs(2);

fn name(k: u8) -> String {
    let k = k % 24;
    if k < 10 {
        format!("f_{k}")
    } else {
        format!("f_{{{k}}}")
    }
}

fn line(op: u8, arg: u8) -> String {
    let k = name(arg);
    // The one it calls: a lower index, the level below, or (for odd args) any.
    let j = if arg & 0x80 != 0 { name(arg >> 2) } else { name((arg % 24).saturating_sub(1)) };
    let r = usize::from(op / 24) % 12 + 1;
    match op % 24 {
        0 => format!("{k}(x) = {j}({j}(x))"),
        1 => format!("{k}(x) = {}", vec![format!("{j}(x)"); r].join(" + ")),
        2 => format!("{k}(x) = x + 1"),
        3 => format!("{k}(x) = {k}(x) + 1"),
        4 => "p(x) = q(x) + 1".to_string(),
        5 => "q(x) = p(x - 1) \\cdot 2".to_string(),
        6 => format!("{k}(x) = {j}(x) \\cdot {j}(x + 1)"),
        7 => format!("{k}(x) = \\sum_{{i=1}}^{{{}}} {j}(i + x)", u32::from(arg) * 7 + 1),
        8 => format!("{k}(x) = x \\cdot {}", arg),
        9 => format!("{k}(f) = f + 1"),
        10 => format!("h(x, y) = {j}(y) + {k}(x)"),
        11 => format!("h({}, {})", arg, arg / 3),
        12 => format!("{k}(1)"),
        13 => format!("{k}({}) + {j}(2)", arg),
        14 => format!("{k}(1, 2)"),
        15 => "u_{7}(1) + 1".to_string(),
        16 => format!("{k}(1) = {k}(1)"),
        17 => "p(3)".to_string(),
        18 => format!("{k}(v)"),
        19 => format!("{k}(A) + {j}(A v)"),
        20 => format!("g(x) = \\prod_{{i=1}}^{{{}}} {j}(x)", arg % 40 + 1),
        21 => format!("{k}(x) = {j}(\\frac{{x}}{{2}}) - {k}(x - 1)"),
        22 => format!("{k} = {j}(3)"),
        _ => format!("{}(x) = {}(x)", k, k.replace('f', "g")),
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&selector, body)) = data.split_first() else { return };
    let max_steps = [1_000, 20_000, 200_000][usize::from(selector) % 3];
    let lang = if selector & 0x10 == 0 { Lang::En } else { Lang::Ko };
    let options = Options {
        seed: Some(u64::from(selector)),
        max_elements: MAX_ELEMENTS,
        max_steps,
        trace: selector & 0x20 != 0,
        ..Options::default()
    };
    let mut session = Session::new(options);
    if selector & 0x40 != 0 {
        let _ = session.bind_json("v", "[1, 2, 3]");
        let _ = session.bind_json("A", "[[1, 2, 0], [0, 1, 0], [3, 0, 1]]");
    }
    let started = Instant::now();
    for pair in body.chunks(2).take(32) {
        let (op, arg) = (pair[0], pair.get(1).copied().unwrap_or(0));
        let source = line(op, arg);
        let line_started = Instant::now();
        let result = session.evaluate(&source);
        let took = line_started.elapsed();
        assert!(took < LINE_BUDGET, "{source:?} took {took:?} with --max-steps {max_steps}");
        match result {
            Ok(outcome) => {
                if let Some(value) = &outcome.value {
                    let elements = value.shape().elements();
                    assert!(elements <= MAX_ELEMENTS as u128, "{source:?}: a value of {elements} elements");
                }
                let _ = report::render_warnings(&outcome, lang);
                let _ = report::render_table(&outcome, lang);
                let _ = report::to_json(&outcome).to_string();
            }
            Err(failure) => {
                let span = failure.span();
                assert!(
                    span.start <= span.end && span.end <= source.len() && source.is_char_boundary(span.start)
                        && source.is_char_boundary(span.end),
                    "failure span {span:?} in {source:?}"
                );
                let _ = report::render_failure(&source, &failure, lang);
            }
        }
    }
    let total = started.elapsed();
    assert!(total < LINE_BUDGET * 8, "the session took {total:?}");
});
