//! The attention line's gradients through the library's own calls (a benchmark, not a test):
//! what `eqmap grad` spends on the computation itself, without the process around it.
//!
//! ```text
//! cargo build --release --locked --example grad_bench
//! target/release/examples/grad_bench [--reps R] N...
//! ```
//!
//! For each N (default 512 1024 2048), with d_k = d_v = 64, Q, K and V are bound to N(0, 1)
//! samples (drawn once, not timed) and a [`GradSession`] reads
//! `\mathrm{softmax}\left(\frac{QK^\top}{\sqrt{d_k}}\right)V` with `--wrt Q --wrt K --wrt V
//! --cotangent ones`. Then, R times each (default 7), alternating:
//!
//! - `grad`: [`GradSession::finish`], the forward pass recorded on the tape and the backward
//!   pass, ending with the three gradients as values (what `jax.value_and_grad` returns);
//! - `eval`: [`Session::evaluate`] of the same line, the forward pass as `eqmap eval` computes
//!   it (parsing, lowering and inference included: a few microseconds).
//!
//! It prints one line an N with the best and the median of each, in milliseconds, the
//! backward pass alone (best `grad` less best `eval`: the tape's forward pass is `eval`'s
//! kernels) and a checksum:
//!
//! ```text
//! eqmap-grad n=512 grad_best_ms=… grad_median_ms=… eval_best_ms=… eval_median_ms=… backward_ms=… checksum=…
//! ```
//!
//! Threads: the matrix products follow `MATMUL_NUM_THREADS` (default: the physical cores, at
//! most 4), the softmax `EQMAP_THREADS` (default: the machine's parallelism).

use eqmap::eval::grad::{Cotangent, GradSession, Request};
use eqmap::eval::random::Normal;
use eqmap::eval::{Options, Session, Value};
use nalgebra::DMatrix;
use std::hint::black_box;
use std::time::Instant;

// The binary's allocator, so the library calls allocate as `eqmap grad` does.
#[global_allocator]
static ALLOCATOR: eqmap::alloc::Allocator = eqmap::alloc::Allocator;

const DECLARATION: &str = r"Q \in \mathbb{R}^{n \times d_k}, \quad K \in \mathbb{R}^{n \times d_k}, \quad V \in \mathbb{R}^{n \times d_k}";
const LINE: &str = r"\mathrm{softmax}\left(\frac{QK^\top}{\sqrt{d_k}}\right)V";
const D: usize = 64;

fn usage() -> ! {
    eprintln!("usage: grad_bench [--reps R] N...");
    std::process::exit(2);
}

fn stats(mut xs: Vec<f64>) -> (f64, f64) {
    xs.sort_by(f64::total_cmp);
    let best = xs.first().copied().unwrap_or(f64::NAN);
    (best * 1e3, xs.get(xs.len() / 2).copied().unwrap_or(f64::NAN) * 1e3)
}

fn options() -> Options {
    Options { max_elements: 64_000_000, max_steps: 4_000_000_000, ..Options::default() }
}

fn bind(session: &mut Session, n: usize, values: &[Value; 3]) {
    session.set_dim("n", n);
    session.set_dim("d_k", D);
    for (name, value) in ["Q", "K", "V"].iter().zip(values) {
        session.bind(name, value.clone());
    }
    session.evaluate(DECLARATION).unwrap_or_else(|e| panic!("{e:?}"));
}

fn main() {
    let mut reps = 7;
    let mut sizes = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--reps" => reps = args.next().and_then(|r| r.parse().ok()).unwrap_or_else(|| usage()),
            n => sizes.push(n.parse::<usize>().unwrap_or_else(|_| usage())),
        }
    }
    if sizes.is_empty() {
        sizes = vec![512, 1024, 2048];
    }
    let mut rng = Normal::new(1);
    for n in sizes {
        let mut sample = || Value::Matrix(DMatrix::from_fn(n, D, |_, _| rng.sample()));
        let values = [sample(), sample(), sample()];
        let request = Request {
            wrt: vec!["Q".into(), "K".into(), "V".into()],
            cotangent: Some(Cotangent::Ones),
            ..Request::default()
        };
        let mut grad = GradSession::new(options(), request);
        bind(grad.session_mut(), n, &values);
        grad.read(LINE).unwrap_or_else(|e| panic!("{e:?}"));
        let mut eval = Session::new(options());
        bind(&mut eval, n, &values);
        let (mut grads, mut evals, mut checksum) = (Vec::new(), Vec::new(), 0.0);
        for _ in 0..reps {
            let start = Instant::now();
            let outcome = black_box(grad.finish().unwrap_or_else(|e| panic!("{e:?}")));
            grads.push(start.elapsed().as_secs_f64());
            for (_, g) in &outcome.gradients {
                g.for_each(&mut |x| checksum += x);
            }
            drop(outcome);
            let start = Instant::now();
            let outcome = black_box(eval.evaluate(LINE).unwrap_or_else(|e| panic!("{e:?}")));
            evals.push(start.elapsed().as_secs_f64());
            drop(outcome);
        }
        let ((grad_best, grad_median), (eval_best, eval_median)) = (stats(grads), stats(evals));
        println!(
            "eqmap-grad n={n} grad_best_ms={grad_best:.2} grad_median_ms={grad_median:.2} eval_best_ms={eval_best:.2} eval_median_ms={eval_median:.2} backward_ms={:.2} checksum={checksum:.6e}",
            grad_best - eval_best
        );
    }
}
