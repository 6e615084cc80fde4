//! Gradient checks: every derivative `grad` computes against central finite differences of
//! the evaluator's own forward values (`Session::evaluate` on inputs moved by ±h), an
//! independent check of the backward rules; and a property test over random well-shaped
//! expressions.

use eqmap::eval::grad::{Cotangent, GradOutcome, GradSession, Request};
use eqmap::eval::random::Normal;
use eqmap::eval::{Options, Session, Value};
use nalgebra::{DMatrix, DVector};
use proptest::prelude::*;

const H: f64 = 1e-5;
const TOLERANCE: f64 = 1e-6;

/// A value of `shape` (`[]`, `[n]`, `[r, c]`) from N(0, 1) samples, shifted by `shift`.
fn sample(rng: &mut Normal, shape: &[usize], shift: f64) -> Value {
    match shape {
        [] => Value::Scalar(rng.sample() + shift),
        [n] => Value::Vector(DVector::from_fn(*n, |_, _| rng.sample() + shift)),
        [r, c] => Value::Matrix(DMatrix::from_fn(*r, *c, |_, _| rng.sample() + shift)),
        _ => panic!("shape {shape:?}"),
    }
}

fn session(bindings: &[(&str, Value)], dims: &[(&str, usize)]) -> Session {
    let mut session = Session::new(Options::default());
    for (name, value) in bindings {
        session.bind(name, value.clone());
    }
    for (name, size) in dims {
        session.set_dim(name, *size);
    }
    session
}

/// L = Σ G ⊙ value of the last line (G = 1 for a number), by the evaluator.
fn loss(lines: &[&str], bindings: &[(&str, Value)], dims: &[(&str, usize)], g: Option<&Value>) -> f64 {
    let mut session = session(bindings, dims);
    let mut value = None;
    for line in lines {
        let outcome = session.evaluate(line).unwrap_or_else(|e| panic!("{line}: {e:?}"));
        if outcome.value.is_some() {
            value = outcome.value;
        }
    }
    let value = value.unwrap_or_else(|| panic!("no value"));
    match g {
        None => value.entries().first().copied().unwrap_or(f64::NAN),
        Some(g) => value.entries().iter().zip(g.entries()).map(|(v, g)| v * g).sum(),
    }
}

fn moved(value: &Value, k: usize, delta: f64) -> Value {
    let mut count = 0;
    fn walk(v: &Value, k: usize, delta: f64, count: &mut usize) -> Value {
        let mut bump = |x: f64| {
            let y = if *count == k { x + delta } else { x };
            *count += 1;
            y
        };
        match v {
            Value::Scalar(x) => Value::Scalar(bump(*x)),
            Value::Vector(w) => Value::Vector(w.map(&mut bump)),
            Value::Matrix(m) => {
                // Storage order (column-major), the order of `for_each`.
                let data: Vec<f64> = m.iter().map(|x| bump(*x)).collect();
                Value::Matrix(DMatrix::from_column_slice(m.nrows(), m.ncols(), &data))
            }
            Value::Family(ms) => Value::Family(ms.iter().map(|m| walk(m, k, delta, count)).collect()),
        }
    }
    walk(value, k, delta, &mut count)
}

fn storage(value: &Value) -> Vec<f64> {
    let mut out = Vec::new();
    value.for_each(&mut |x| out.push(x));
    out
}

fn grad(
    lines: &[&str],
    bindings: &[(&str, Value)],
    dims: &[(&str, usize)],
    wrt: &[&str],
    g: Option<&Value>,
) -> GradOutcome {
    let request = Request {
        wrt: wrt.iter().map(|s| s.to_string()).collect(),
        cotangent: g.map(|g| Cotangent::Given(g.clone())),
        jacobian: false,
        trace: false,
    };
    let mut session = GradSession::new(Options::default(), request);
    for (name, value) in bindings {
        session.session_mut().bind(name, value.clone());
    }
    for (name, size) in dims {
        session.session_mut().set_dim(name, *size);
    }
    for line in lines {
        session.read(line).unwrap_or_else(|e| panic!("{line}: {e:?}"));
    }
    session.finish().unwrap_or_else(|e| panic!("{lines:?}: {e:?}"))
}

/// Checks every gradient entry of `wrt` against central differences.
fn check(
    lines: &[&str],
    bindings: &[(&str, Value)],
    dims: &[(&str, usize)],
    wrt: &[&str],
    g: Option<&Value>,
) {
    let outcome = grad(lines, bindings, dims, wrt, g);
    for (name, gradient) in &outcome.gradients {
        let at = bindings.iter().position(|(n, _)| n == name).unwrap_or_else(|| panic!("{name}"));
        let analytic = storage(gradient);
        let scale = analytic.iter().fold(1.0f64, |m, x| m.max(x.abs()));
        for (k, a) in analytic.iter().enumerate() {
            let with = |delta: f64| {
                let mut b = bindings.to_vec();
                b[at].1 = moved(&bindings[at].1, k, delta);
                loss(lines, &b, dims, g)
            };
            // Central differences at H and H/2, extrapolated (Richardson): the error falls as H⁴,
            // so a steep function (`\sin` of a sixth power) is still a fair reference.
            let central = |h: f64| (with(h) - with(-h)) / (2.0 * h);
            let numeric = (4.0 * central(H / 2.0) - central(H)) / 3.0;
            let error = (a - numeric).abs() / scale.max(numeric.abs());
            assert!(
                error < TOLERANCE,
                "{lines:?} ∂/∂{name}[{k}]: reverse mode {a}, finite differences {numeric}"
            );
        }
    }
}

fn rng(seed: u64) -> Normal {
    Normal::new(seed)
}

#[test]
fn products_transposes_and_kronecker() {
    let mut r = rng(1);
    let (a, b, x, y) = (
        sample(&mut r, &[3, 4], 0.0),
        sample(&mut r, &[4, 2], 0.0),
        sample(&mut r, &[4], 0.0),
        sample(&mut r, &[3], 0.0),
    );
    let s = sample(&mut r, &[], 0.0);
    let g32 = sample(&mut r, &[3, 2], 0.0);
    let g3 = sample(&mut r, &[3], 0.0);
    let g4 = sample(&mut r, &[4], 0.0);
    let g34 = sample(&mut r, &[3, 4], 0.0);
    let binds = [("A", a.clone()), ("B", b.clone()), ("x", x.clone()), ("y", y.clone()), ("s", s.clone())];
    check(&["AB"], &binds, &[], &["A", "B"], Some(&g32));
    check(&["Ax"], &binds, &[], &["A", "x"], Some(&g3));
    check(&["y^\\top A"], &binds, &[], &["A", "y"], Some(&g4));
    check(&["y x^\\top"], &binds, &[], &["x", "y"], Some(&g34));
    check(&["x^\\top x"], &binds, &[], &["x"], None);
    check(&["s A"], &binds, &[], &["s", "A"], Some(&g34));
    check(&["(A^\\top y)^\\top x"], &binds, &[], &["A", "x", "y"], None);
    let (p, q) = (sample(&mut r, &[2, 2], 0.0), sample(&mut r, &[2, 3], 0.0));
    let g = sample(&mut r, &[4, 6], 0.0);
    check(&["P \\otimes R"], &[("P", p), ("R", q)], &[], &["P", "R"], Some(&g));
}

#[test]
fn entrywise_operations_and_broadcasting() {
    let mut r = rng(2);
    let (a, b, v) = (sample(&mut r, &[3, 4], 0.0), sample(&mut r, &[3, 4], 0.0), sample(&mut r, &[4], 0.0));
    let col = sample(&mut r, &[3, 1], 0.0);
    let g = sample(&mut r, &[3, 4], 0.0);
    let binds = [("A", a), ("B", b), ("v", v), ("c", col)];
    for formula in
        ["A + v", "A - v", "-A + B", "A \\odot B", "A \\odot v", "A + c", "A - 3", "v - A", "A \\odot c"]
    {
        check(
            &[formula],
            &binds,
            &[],
            &["A", "v", "c", "B"].iter().copied().filter(|n| formula.contains(n)).collect::<Vec<_>>(),
            Some(&g),
        );
    }
}

#[test]
fn division_powers_and_inverses() {
    let mut r = rng(3);
    let (a, b) = (sample(&mut r, &[3, 3], 0.0), sample(&mut r, &[3, 3], 3.0));
    let x = sample(&mut r, &[4], 3.0);
    let s = Value::Scalar(1.7);
    let g = sample(&mut r, &[3, 3], 0.0);
    let g4 = sample(&mut r, &[4], 0.0);
    let binds = [("A", a), ("B", b), ("x", x), ("s", s)];
    check(&["A / B"], &binds, &[], &["A", "B"], Some(&g));
    check(&["\\frac{A}{s}"], &binds, &[], &["A", "s"], Some(&g));
    check(&["\\frac{1}{x}"], &binds, &[], &["x"], Some(&g4));
    check(&["x^3"], &binds, &[], &["x"], Some(&g4));
    check(&["x^{0.5}"], &binds, &[], &["x"], Some(&g4));
    check(&["x^s"], &binds, &[], &["x", "s"], Some(&g4));
    check(&["s^2"], &binds, &[], &["s"], None);
    check(&["A^2"], &binds, &[], &["A"], Some(&g));
    check(&["A^3"], &binds, &[], &["A"], Some(&g));
    check(&["B^{-1}"], &binds, &[], &["B"], Some(&g));
    check(&["B^{-2}"], &binds, &[], &["B"], Some(&g));
}

#[test]
fn elementary_functions_and_activations() {
    let mut r = rng(4);
    let x = sample(&mut r, &[5], 0.0);
    let p = sample(&mut r, &[5], 4.0);
    let g = sample(&mut r, &[5], 0.0);
    let binds = [("x", x), ("p", p)];
    for f in [
        "\\exp(x)",
        "\\sin(x)",
        "\\cos(x)",
        "\\tanh(x)",
        "\\sigma(x)",
        "\\mathrm{ReLU}(x)",
        "\\mathrm{GELU}(x)",
        "|x|",
    ] {
        check(&[f], &binds, &[], &["x"], Some(&g));
    }
    check(&["\\log(p)"], &binds, &[], &["p"], Some(&g));
    check(&["\\sqrt{p}"], &binds, &[], &["p"], Some(&g));
}

#[test]
fn softmax_rowwise_masked_and_its_jacobian() {
    let mut r = rng(5);
    let a = sample(&mut r, &[3, 4], 0.0);
    let z = sample(&mut r, &[4], 0.0);
    let g = sample(&mut r, &[3, 4], 0.0);
    let g4 = sample(&mut r, &[4], 0.0);
    let mask = DMatrix::from_fn(3, 4, |i, j| if j > i { f64::NEG_INFINITY } else { 0.0 });
    let binds = [("A", a), ("z", z.clone()), ("M", Value::Matrix(mask))];
    check(&["\\mathrm{softmax}(A)"], &binds, &[], &["A"], Some(&g));
    check(&["\\mathrm{softmax}(z)"], &binds, &[], &["z"], Some(&g4));
    check(&["\\mathrm{softmax}(A + M)"], &binds, &[], &["A"], Some(&g));
    // Masked entries get gradient exactly 0.
    let outcome = grad(&["\\mathrm{softmax}(A + M)"], &binds, &[], &["A"], Some(&g));
    let Value::Matrix(d) = &outcome.gradients[0].1 else { panic!() };
    for i in 0..3 {
        for j in (i + 1)..4 {
            assert_eq!(d[(i, j)], 0.0);
        }
    }
}

#[test]
fn softmax_jacobian_is_diag_s_minus_s_s_transposed() {
    let z = Value::Vector(DVector::from_vec(vec![0.3, -1.2, 2.0, 0.5]));
    let request = Request { wrt: vec!["z".into()], cotangent: None, jacobian: true, trace: false };
    let mut session = GradSession::new(Options::default(), request);
    session.session_mut().bind("z", z);
    session.read("\\mathrm{softmax}(z)").unwrap_or_else(|e| panic!("{e:?}"));
    let outcome = session.finish().unwrap_or_else(|e| panic!("{e:?}"));
    let Some((_, Value::Matrix(j))) = &outcome.jacobian else { panic!("{:?}", outcome.jacobian) };
    let Value::Vector(s) = &outcome.value else { panic!() };
    let expected = DMatrix::from_diagonal(s) - s * s.transpose();
    assert!((j - &expected).abs().max() < 1e-15, "{j} vs {expected}");
}

#[test]
fn max_min_norms_sums_and_products() {
    let mut r = rng(6);
    let x = sample(&mut r, &[5], 0.0);
    let y = sample(&mut r, &[5], 0.0);
    let a = sample(&mut r, &[3, 4], 0.0);
    let g = sample(&mut r, &[5], 0.0);
    let binds = [("x", x), ("y", y), ("A", a)];
    for f in [
        "\\max(x)",
        "\\min(x)",
        "\\max_j x_j",
        "\\min_j x_j",
        "\\|x\\|",
        "\\|x\\|_1",
        "\\|x\\|_3",
        "\\|x\\|_\\infty",
        "\\|A\\|_F",
        "\\|A\\|_2",
        "\\|A\\|",
        "\\sum_{i=1}^{5} x_i^2",
        "\\sum_i x_i y_i",
        "\\prod_i x_i",
        "\\sum_i \\sum_j A_{ij}^2",
    ] {
        let wrt: Vec<&str> = ["x", "y", "A"].into_iter().filter(|n| f.contains(n)).collect();
        check(&[f], &binds, &[], &wrt, None);
    }
    check(&["\\max(x, y)"], &binds, &[], &["x", "y"], Some(&g));
    check(&["\\min(0, x)"], &binds, &[], &["x"], Some(&g));
}

#[test]
fn a_product_past_256_factors_is_differentiated_through_every_step() {
    // Past 64 factors a product is one n-ary node computed in a loop; each step goes on the
    // tape as the binary node it stands for would, so the backward pass sees the same steps.
    let m = |e: [f64; 4]| Value::Matrix(DMatrix::from_row_slice(2, 2, &e));
    let binds = [
        ("A", m([0.99, 0.02, -0.01, 1.005])),
        ("B", m([1.0, -0.015, 0.01, 0.995])),
        ("C", m([1.001, 0.999, 1.0, 1.002])),
        ("x", Value::Vector(DVector::from_row_slice(&[1.0, -0.5]))),
        ("s", Value::Scalar(1.001)),
    ];
    for times in [70, 300] {
        let factors = ["A", "\\cdot B", "/ s", "\\odot C", "B^\\top"];
        let product: Vec<&str> = (0..times).map(|k| factors[k % factors.len()]).collect();
        let line = format!("x^\\top {} x", product.join(" "));
        // The cotangent: ones, of the value's shape (`\\odot` broadcasts the vector).
        let value = session(&binds, &[]).evaluate(&line).ok().and_then(|o| o.value);
        let g = value.map(|v| match v {
            Value::Vector(v) => Value::Vector(v.map(|_| 1.0)),
            Value::Matrix(m) => Value::Matrix(m.map(|_| 1.0)),
            other => other,
        });
        let g = g.filter(|g| !matches!(g, Value::Scalar(_)));
        let wrt = ["A", "B", "C", "x", "s"];
        let gradients = grad(&[line.as_str()], &binds, &[], &wrt, g.as_ref()).gradients;
        assert_eq!(gradients.len(), wrt.len(), "{times} factors: a gradient for each");
        check(&[line.as_str()], &binds, &[], &wrt, g.as_ref());
    }
}

#[test]
fn free_indices_concat_trace_det_and_literals() {
    let mut r = rng(7);
    let (q, k) = (sample(&mut r, &[3, 2], 0.0), sample(&mut r, &[4, 2], 0.0));
    let (a, b) = (sample(&mut r, &[3, 2], 0.0), sample(&mut r, &[3, 3], 0.0));
    let w = sample(&mut r, &[5, 2], 0.0);
    let x = sample(&mut r, &[3], 0.0);
    let g34 = sample(&mut r, &[3, 4], 0.0);
    let g3 = sample(&mut r, &[3], 0.0);
    let g32 = sample(&mut r, &[3, 2], 0.0);
    let binds = [("Q", q), ("K", k), ("A", a), ("B", b), ("W", w), ("x", x)];
    check(&["\\sum_t Q_{it} K_{jt}"], &binds, &[], &["Q", "K"], Some(&g34));
    check(&["\\sum_j B_{ij} x_j"], &binds, &[], &["B", "x"], Some(&g3));
    check(&["\\mathrm{Concat}(A, B) W"], &binds, &[], &["A", "B", "W"], Some(&g32));
    check(&["\\mathrm{tr}(B B^\\top)"], &binds, &[], &["B"], None);
    check(&["\\det(B)"], &binds, &[], &["B"], None);
    check(
        &["\\begin{bmatrix} x_1 & x_2 \\\\ x_3 & 1 \\end{bmatrix}"],
        &binds,
        &[],
        &["x"],
        Some(&Value::Matrix(DMatrix::from_row_slice(2, 2, &[0.3, -1.0, 2.0, 0.7]))),
    );
}

#[test]
fn attention_masked_attention_layer_norm_cross_entropy_mlp_and_multi_head() {
    let attention =
        "\\mathrm{Attention}(Q, K, V) = \\mathrm{softmax}\\left(\\frac{QK^\\top}{\\sqrt{d_k}}\\right)V";
    let mut r = rng(8);
    let (q, k, v) =
        (sample(&mut r, &[4, 3], 0.0), sample(&mut r, &[5, 3], 0.0), sample(&mut r, &[5, 2], 0.0));
    let g = sample(&mut r, &[4, 2], 0.0);
    let binds = [("Q", q.clone()), ("K", k.clone()), ("V", v.clone())];
    check(&[attention], &binds, &[("d_k", 3)], &["Q", "K", "V"], Some(&g));
    check(&[attention, "\\mathrm{Attention}(Q, K, V)"], &binds, &[("d_k", 3)], &["Q", "K", "V"], Some(&g));
    let mask = DMatrix::from_fn(4, 5, |i, j| if j > i + 1 { f64::NEG_INFINITY } else { 0.0 });
    let masked = [("Q", q), ("K", k), ("V", v), ("M", Value::Matrix(mask))];
    check(
        &["\\mathrm{softmax}\\left(\\frac{QK^\\top}{\\sqrt{d_k}} + M\\right)V"],
        &masked,
        &[("d_k", 3)],
        &["Q", "K", "V"],
        Some(&g),
    );

    let x = sample(&mut r, &[6], 0.5);
    let w = sample(&mut r, &[6], 0.0);
    let norm = [
        "\\mu = \\frac{1}{n}\\sum_{i=1}^{n} x_i",
        "\\sigma^2 = \\frac{1}{n}\\sum_{i=1}^{n}(x_i-\\mu)^2",
        "y_i = \\frac{x_i - \\mu}{\\sqrt{\\sigma^2 + \\epsilon}}",
        "w^\\top y",
    ];
    check(&norm, &[("x", x), ("w", w), ("epsilon", Value::Scalar(1e-5))], &[("n", 6)], &["x", "w"], None);

    let z = sample(&mut r, &[5], 0.0);
    let y = Value::Vector(DVector::from_vec(vec![0.0, 0.0, 1.0, 0.0, 0.0]));
    let entropy = ["\\hat{y} = \\mathrm{softmax}(z)", "L = -\\sum_i y_i \\log \\hat{y}_i"];
    check(&entropy, &[("z", z), ("y", y)], &[], &["z"], None);

    let (x, w1, b1, w2, b2) = (
        sample(&mut r, &[3, 4], 0.0),
        sample(&mut r, &[4, 5], 0.0),
        sample(&mut r, &[5], 0.0),
        sample(&mut r, &[5, 2], 0.0),
        sample(&mut r, &[2], 0.0),
    );
    let g = sample(&mut r, &[3, 2], 0.0);
    let mlp = ["\\mathrm{ReLU}(XW_1 + b_1)W_2 + b_2"];
    check(
        &mlp,
        &[("X", x), ("W_1", w1), ("b_1", b1), ("W_2", w2), ("b_2", b2)],
        &[],
        &["X", "W_1", "b_1", "W_2", "b_2"],
        Some(&g),
    );

    let family = |r: &mut Normal| Value::Family(vec![sample(r, &[4, 2], 0.0), sample(r, &[4, 2], 0.0)]);
    let (x, wq, wk, wv, wo) = (
        sample(&mut r, &[3, 4], 0.0),
        family(&mut r),
        family(&mut r),
        family(&mut r),
        sample(&mut r, &[4, 4], 0.0),
    );
    let g = sample(&mut r, &[3, 4], 0.0);
    let heads = [
        attention,
        "\\text{head}_h = \\operatorname{Attention}(XW_Q^h, XW_K^h, XW_V^h)",
        "\\operatorname{MultiHead}(X) = \\operatorname{Concat}(\\text{head}_1, \\dots, \\text{head}_H)W_O",
    ];
    let binds = [("X", x), ("W_Q", wq), ("W_K", wk), ("W_V", wv), ("W_O", wo)];
    check(&heads, &binds, &[("H", 2), ("d_k", 2)], &["X", "W_Q", "W_K", "W_V", "W_O"], Some(&g));
}

/// Random well-shaped expressions over vectors x, y of length 3 and a 3 × 3 matrix A, built
/// from smooth operations only (a kink is checked on its own above).
fn vector_expr() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![Just("x".to_string()), Just("y".to_string()), Just("(0.5 x)".to_string())];
    leaf.prop_recursive(4, 24, 2, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a} + {b})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a} - {b})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a} \\odot {b})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("\\frac{{{a}}}{{2 + \\sin({b})}}")),
            inner.clone().prop_map(|a| format!("\\tanh({a})")),
            inner.clone().prop_map(|a| format!("\\sigma({a})")),
            inner.clone().prop_map(|a| format!("\\exp(\\tanh({a}))")),
            inner.clone().prop_map(|a| format!("\\log(1 + \\sigma({a}))")),
            inner.clone().prop_map(|a| format!("\\sqrt{{1 + {a} \\odot {a}}}")),
            inner.clone().prop_map(|a| format!("\\mathrm{{softmax}}({a})")),
            inner.clone().prop_map(|a| format!("(A {a})")),
            inner.clone().prop_map(|a| format!("(A^\\top {a})")),
            inner.clone().prop_map(|a| format!("\\mathrm{{GELU}}({a})")),
            inner.clone().prop_map(|a| format!("({a})^2")),
            inner.prop_map(|a| format!("(\\|{a}\\|^2 y)")),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn random_expressions_match_central_differences(expr in vector_expr(), seed in 0u64..1000) {
        let mut r = rng(seed);
        let binds = [("x", sample(&mut r, &[3], 0.0)), ("y", sample(&mut r, &[3], 0.0)), ("A", sample(&mut r, &[3, 3], 0.0))];
        let g = sample(&mut r, &[3], 0.0);
        let wrt: Vec<&str> = ["x", "y", "A"].into_iter().filter(|n| expr.contains(n)).collect();
        check(&[&expr], &binds, &[], &wrt, Some(&g));
    }
}

#[test]
fn values_taken_over_in_place_are_never_read_again() {
    // The forward pass divides scores in place and runs the softmax over them in place when
    // nothing else reads them; a name bound by an earlier line, a loop and a repeated use do.
    let mut r = rng(9);
    let (q, k) = (sample(&mut r, &[3, 2], 0.0), sample(&mut r, &[4, 2], 0.0));
    let g = sample(&mut r, &[3, 4], 0.0);
    let binds = [("Q", q), ("K", k)];
    check(
        &["\\mathrm{softmax}\\left(\\frac{QK^\\top}{2}\\right) + \\mathrm{softmax}(QK^\\top)"],
        &binds,
        &[],
        &["Q", "K"],
        Some(&g),
    );
    check(
        &["S = QK^\\top", "\\mathrm{softmax}\\left(\\frac{S}{2}\\right) + S"],
        &binds,
        &[],
        &["Q", "K"],
        Some(&g),
    );
    check(
        &["\\sum_{i=1}^{2} \\mathrm{softmax}\\left(\\frac{QK^\\top}{2}\\right)"],
        &binds,
        &[],
        &["Q", "K"],
        Some(&g),
    );
}

/// Random well-shaped matrix expressions over 3 × 3 matrices A, B and a vector x of 3
/// (broadcast along the rows): products, transposes, matrix powers and inverses, row-wise
/// softmax, entrywise operations, norms and traces.
fn matrix_expr() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![Just("A".to_string()), Just("B".to_string()), Just("(A + x)".to_string())];
    leaf.prop_recursive(3, 16, 2, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a} + {b})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a} - {b})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a} \\odot {b})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("(0.5 {a} {b})")),
            inner.clone().prop_map(|a| format!("({a})^\\top")),
            inner.clone().prop_map(|a| format!("\\mathrm{{softmax}}({a})")),
            inner.clone().prop_map(|a| format!("\\tanh({a})")),
            inner.clone().prop_map(|a| format!("(0.3 {a})^2")),
            inner.clone().prop_map(|a| format!("(I + 0.1 \\tanh({a}))^{{-1}}")),
            inner.clone().prop_map(|a| format!("\\frac{{{a}}}{{1 + \\|{a}\\|_F}}")),
            inner.prop_map(|a| format!("(\\mathrm{{tr}}({a}) x x^\\top)")),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn random_matrix_expressions_match_central_differences(expr in matrix_expr(), seed in 0u64..1000) {
        let mut r = rng(seed);
        let binds = [("A", sample(&mut r, &[3, 3], 0.0)), ("B", sample(&mut r, &[3, 3], 0.0)), ("x", sample(&mut r, &[3], 0.0))];
        let g = sample(&mut r, &[3, 3], 0.0);
        let wrt: Vec<&str> = ["A", "B", "x"].into_iter().filter(|n| expr.contains(n)).collect();
        check(&[&expr], &binds, &[], &wrt, Some(&g));
    }
}
