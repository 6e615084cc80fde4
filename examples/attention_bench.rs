//! The attention line evaluated through the library on random Q, K, V (a benchmark, not a test).
//!
//! ```text
//! cargo build --release --locked --example attention_bench
//! target/release/examples/attention_bench [--reps R] N...
//! ```
//!
//! For each N (default 128 512 1024 2048), with d_k = d_v = 64 and f64 entries from N(0, 1),
//! it parses `\mathrm{softmax}\!\left(\frac{QK^\top}{\sqrt{d_k}}\right)V`, lowers it and infers
//! its shapes (the *front*, timed once per repetition), then evaluates it R times (default 7),
//! timing evaluation only, and prints one machine-readable line with the medians:
//!
//! ```text
//! eqmap n=512 d=64 front_ms=0.031 eval_ms=2.512 gflops=6.68 checksum=...
//! ```
//!
//! GFLOP/s counts the two products, 4·n²·d floating-point operations. Threads: the matrix
//! products follow `MATMUL_NUM_THREADS`, the softmax `EQMAP_THREADS` (both default to the
//! machine's cores). `benches/attention_bench.sh` alternates this with numpy.

use eqmap::eval::env::Env;
use eqmap::eval::expr::Statement;
use eqmap::eval::infer::Inferrer;
use eqmap::eval::interpret::{Frame, Machine};
use eqmap::eval::random::Normal;
use eqmap::eval::statement::lower_statement;
use eqmap::eval::Value;
use nalgebra::DMatrix;
use std::hint::black_box;
use std::time::Instant;

const FORMULA: &str = r"\mathrm{softmax}\!\left(\frac{QK^\top}{\sqrt{d_k}}\right)V";
const D: usize = 64;

fn usage() -> ! {
    eprintln!("usage: attention_bench [--reps R] N...");
    std::process::exit(2);
}

fn random(rng: &mut Normal, rows: usize, cols: usize) -> Value {
    Value::Matrix(DMatrix::from_fn(rows, cols, |_, _| rng.sample()))
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs.get(xs.len() / 2).copied().unwrap_or(f64::NAN)
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
        sizes = vec![128, 512, 1024, 2048];
    }
    let mut rng = Normal::new(42);
    for n in sizes {
        let mut env = Env::default();
        env.values.insert("Q".into(), random(&mut rng, n, D));
        env.values.insert("K".into(), random(&mut rng, n, D));
        env.values.insert("V".into(), random(&mut rng, n, D));
        let (mut fronts, mut evals, mut checksum) = (Vec::new(), Vec::new(), 0.0);
        for _ in 0..reps {
            let start = Instant::now();
            let parsed = eqmap::parse(FORMULA).unwrap_or_else(|e| panic!("{e:?}"));
            env.table.learn(&parsed.root);
            let resolved = eqmap::meaning::resolve(&parsed.root, &env.table);
            let statement =
                env.with_context(eqmap::Limits::default().max_depth, |ctx| lower_statement(&resolved, ctx));
            let Ok(Statement::Value(expr)) = statement else { panic!("not a value: {statement:?}") };
            let mut inferrer = Inferrer::new(&env, FORMULA);
            inferrer.infer_side(&expr, &[]).unwrap_or_else(|e| panic!("{e:?}"));
            let resolution = inferrer.resolution();
            fronts.push(start.elapsed().as_secs_f64());

            let start = Instant::now();
            let mut machine = Machine::new(&env, FORMULA, usize::MAX, false);
            let value = machine.side(&mut Frame::top(resolution), &expr, &[]);
            let value = black_box(value).unwrap_or_else(|e| panic!("{e:?}"));
            evals.push(start.elapsed().as_secs_f64());
            if let Value::Matrix(m) = value {
                checksum = m.sum();
            }
        }
        let eval = median(evals);
        let gflops = 4.0 * (n * n * D) as f64 / eval / 1e9;
        println!(
            "eqmap n={n} d={D} front_ms={:.3} eval_ms={:.3} gflops={gflops:.2} checksum={checksum:.6}",
            median(fronts) * 1e3,
            eval * 1e3
        );
    }
}
