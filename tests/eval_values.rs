//! Values computed by `eqmap::eval`, checked against values computed another way: numpy
//! fixtures (`fixtures/eval/cases.json`, made by `fixtures/eval/make_fixtures.py`) and loops
//! written here.

use eqmap::eval::{Options, Outcome, Session, Value};
use serde_json::Value as Json;

fn session(seed: Option<u64>, trace: bool) -> Session {
    Session::new(Options { seed, trace, ..Options::default() })
}

fn run(session: &mut Session, formulas: &[&str]) -> Outcome {
    let mut last = None;
    for formula in formulas {
        match session.evaluate(formula) {
            Ok(outcome) => last = Some(outcome),
            Err(failure) => panic!("{formula}: {}", failure.message(eqmap::Lang::En)),
        }
    }
    last.unwrap_or_else(|| panic!("no formulas"))
}

/// The entries of a JSON number, array or array of arrays, row-major.
fn flat(json: &Json) -> Vec<f64> {
    match json {
        Json::Array(items) => items.iter().flat_map(flat).collect(),
        Json::Number(n) => vec![n.as_f64().unwrap_or(f64::NAN)],
        other => panic!("not a number: {other}"),
    }
}

fn assert_close(actual: &[f64], expected: &[f64], what: &str) {
    assert_eq!(actual.len(), expected.len(), "{what}: {} entries, expected {}", actual.len(), expected.len());
    let scale = expected.iter().fold(1e-300f64, |m, x| m.max(x.abs()));
    for (i, (a, e)) in actual.iter().zip(expected).enumerate() {
        assert!((a - e).abs() <= 1e-12 * scale, "{what}: entry {i} is {a}, numpy says {e}");
    }
}

#[test]
fn fixtures_agree_with_numpy() {
    let text = std::fs::read_to_string("tests/fixtures/eval/cases.json").unwrap_or_else(|e| panic!("{e}"));
    let fixtures: Json = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}"));
    let cases = fixtures["cases"].as_array().unwrap_or_else(|| panic!("no cases"));
    assert!(cases.len() >= 8);
    for case in cases {
        let name = case["name"].as_str().unwrap_or("?");
        let mut s = session(None, false);
        for (binding, value) in case["lets"].as_object().unwrap_or_else(|| panic!("{name}: no lets")) {
            s.bind_json(binding, &value.to_string()).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        }
        let formulas: Vec<&str> =
            case["formulas"].as_array().into_iter().flatten().filter_map(Json::as_str).collect();
        let outcome = run(&mut s, &formulas);
        let value = outcome.value.unwrap_or_else(|| panic!("{name}: no value"));
        assert_close(&value.entries(), &flat(&case["expected"]), name);
        assert!(outcome.warnings.is_empty(), "{name}: {:?}", outcome.warnings);
    }
}

fn matrix(rows: usize, cols: usize, f: impl Fn(usize, usize) -> f64) -> Vec<Vec<f64>> {
    (0..rows).map(|i| (0..cols).map(|j| f(i, j)).collect()).collect()
}

fn bind(s: &mut Session, name: &str, m: &[Vec<f64>]) {
    s.bind_json(name, &serde_json::to_string(m).unwrap_or_default()).unwrap_or_else(|e| panic!("{e:?}"));
}

fn entries(outcome: &Outcome) -> Vec<f64> {
    outcome.value.as_ref().map(Value::entries).unwrap_or_default()
}

/// Attention written as loops: scores, row max, exponentials, row sums, weighted values.
fn attention_loops(q: &[Vec<f64>], k: &[Vec<f64>], v: &[Vec<f64>]) -> Vec<f64> {
    let d = q[0].len() as f64;
    let mut out = Vec::new();
    for qi in q {
        let scores: Vec<f64> =
            k.iter().map(|kj| qi.iter().zip(kj).map(|(a, b)| a * b).sum::<f64>() / d.sqrt()).collect();
        let max = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let weights: Vec<f64> = scores.iter().map(|s| (s - max).exp()).collect();
        let total: f64 = weights.iter().sum();
        for c in 0..v[0].len() {
            out.push(weights.iter().zip(v).map(|(w, vj)| w / total * vj[c]).sum());
        }
    }
    out
}

#[test]
fn attention_agrees_with_loops_on_a_larger_case() {
    let q = matrix(40, 8, |i, j| ((i * 7 + j * 3) % 11) as f64 / 5.0 - 1.0);
    let k = matrix(50, 8, |i, j| ((i * 5 + j * 9) % 13) as f64 / 6.0 - 1.0);
    let v = matrix(50, 6, |i, j| ((i + 2 * j) % 7) as f64 - 3.0);
    let mut s = session(None, false);
    for (name, m) in [("Q", &q), ("K", &k), ("V", &v)] {
        bind(&mut s, name, m);
    }
    let outcome = run(&mut s, &[r"\mathrm{softmax}\!\left(\frac{QK^\top}{\sqrt{d_k}}\right)V"]);
    assert_close(&entries(&outcome), &attention_loops(&q, &k, &v), "attention");
}

#[test]
fn einsum_sum_equals_the_product_and_loops() {
    let q = matrix(6, 4, |i, j| (i as f64 - 2.0) * (j as f64 + 0.5));
    let k = matrix(7, 4, |i, j| ((i * j) % 5) as f64 - 1.5);
    let mut s = session(None, false);
    bind(&mut s, "Q", &q);
    bind(&mut s, "K", &k);
    let claim = run(&mut s, &[r"QK^\top = \sum_t Q_{it}K_{jt}"]);
    assert_eq!(claim.holds, Some(true), "{:?}", claim.max_abs_diff);
    let loops: Vec<f64> = (0..6)
        .flat_map(|i| (0..7).map(move |j| (i, j)))
        .map(|(i, j)| (0..4).map(|t| q[i][t] * k[j][t]).sum())
        .collect();
    let einsum = run(&mut s, &[r"\sum_t Q_{it}K_{jt}"]);
    assert_close(&entries(&einsum), &loops, "einsum");
    assert_eq!(einsum.value.map(|v| v.shape().to_string()), Some("6 × 7".to_string()));
}

#[test]
fn claims_report_both_sides_and_the_largest_difference() {
    let mut s = session(None, false);
    s.bind_json("z", "[0.5, -1, 2]").unwrap_or_else(|e| panic!("{e:?}"));
    let holds = run(&mut s, &[r"\mathrm{softmax}(z)_j = \frac{e^{z_j}}{\sum_{t} e^{z_t}}"]);
    assert_eq!(holds.holds, Some(true));
    assert_eq!(holds.sides.len(), 2);
    assert!(holds.max_abs_diff.unwrap_or(1.0) < 1e-15);
    let fails = run(&mut s, &[r"\mathrm{softmax}(z)_j = \frac{e^{z_j}}{2}"]);
    assert_eq!(fails.holds, Some(false));
    let sum: f64 = [0.5f64, -1.0, 2.0].iter().map(|x| x.exp()).sum();
    let expected =
        (0.5f64.exp() / sum - 0.5f64.exp() / 2.0).abs().max((2f64.exp() / sum - 2f64.exp() / 2.0).abs());
    assert!(
        (fails.max_abs_diff.unwrap_or(0.0) - expected).abs() < 1e-12,
        "{:?} vs {expected}",
        fails.max_abs_diff
    );
}

#[test]
fn causal_mask_gives_weights_of_exactly_zero() {
    let mut s = session(None, false);
    s.bind_json("S", "[[1, 2, 3], [4, 5, 6], [7, 8, 9]]").unwrap_or_else(|e| panic!("{e:?}"));
    s.bind_json("M", r#"[[0, "-inf", "-inf"], [0, 0, "-inf"], [0, 0, 0]]"#)
        .unwrap_or_else(|e| panic!("{e:?}"));
    let weights = entries(&run(&mut s, &[r"\mathrm{softmax}(S + M)"]));
    for (i, row) in weights.chunks(3).enumerate() {
        for (j, w) in row.iter().enumerate() {
            if j > i {
                assert_eq!(*w, 0.0, "row {i} column {j}");
            } else {
                assert!(*w > 0.0);
            }
        }
        assert!((row.iter().sum::<f64>() - 1.0).abs() < 1e-15);
    }
    assert_eq!(weights[0], 1.0);
}

#[test]
fn the_variance_argument_shows_in_the_trace() {
    let mut s = Session::new(Options { seed: Some(2026), trace: true, ..Options::default() });
    s.set_dim("n", 512);
    s.set_dim("d_k", 64);
    let outcome = run(
        &mut s,
        &[
            r"Q \in \mathbb{R}^{n \times d_k}, \quad K \in \mathbb{R}^{n \times d_k}",
            r"\frac{QK^\top}{\sqrt{d_k}}",
        ],
    );
    let row = |latex: &str| {
        outcome.trace.iter().find(|r| r.latex == latex).unwrap_or_else(|| panic!("no trace row for {latex}"))
    };
    let scores = row(r"QK^\top");
    let scaled = row(r"\frac{QK^\top}{\sqrt{d_k}}");
    assert_eq!(scores.symbolic, "n × n");
    assert!((scores.stats.variance / 64.0 - 1.0).abs() < 0.1, "var(QKᵀ) = {}", scores.stats.variance);
    assert!((scaled.stats.variance - 1.0).abs() < 0.1, "var(QKᵀ/√d_k) = {}", scaled.stats.variance);
    let sampled: Vec<&str> = outcome.sampled.iter().map(|x| x.name.as_str()).collect();
    assert_eq!(sampled, ["Q", "K"]);
}

#[test]
fn sampling_is_reproducible_and_follows_the_seed() {
    let sample = |seed| {
        let mut s = session(Some(seed), false);
        entries(&run(
            &mut s,
            &[r"\mathrm{Attention}(Q, K, V) = \mathrm{softmax}\!\left(\frac{QK^\top}{\sqrt{d_k}}\right)V"],
        ))
    };
    assert_eq!(sample(5), sample(5));
    assert_ne!(sample(5), sample(6));
}

#[test]
fn softmax_rows_sum_to_one_in_the_trace() {
    let mut s = session(Some(3), true);
    let outcome = run(&mut s, &[r"\mathrm{softmax}\!\left(\frac{QK^\top}{\sqrt{d_k}}\right)V"]);
    let softmax =
        outcome.trace.iter().find(|r| r.row_sums.is_some()).unwrap_or_else(|| panic!("no softmax row"));
    let sums = softmax.row_sums.as_deref().unwrap_or_default();
    assert!(!sums.is_empty());
    assert!(sums.iter().all(|s| (s - 1.0).abs() < 1e-12), "{sums:?}");
    let first = outcome.trace.first().map(|r| r.span.start);
    assert_eq!(first, Some(0), "reading order starts at the beginning");
}

#[test]
fn matrix_algebra_agrees_with_hand_computed_values() {
    let mut s = session(None, false);
    s.bind_json("A", "[[4, 7], [2, 6]]").unwrap_or_else(|e| panic!("{e:?}"));
    s.bind_json("x", "[1, 2]").unwrap_or_else(|e| panic!("{e:?}"));
    let inverse = entries(&run(&mut s, &["A^{-1}"]));
    let det = 4.0 * 6.0 - 7.0 * 2.0;
    assert_close(&inverse, &[6.0 / det, -7.0 / det, -2.0 / det, 4.0 / det], "inverse");
    assert_eq!(run(&mut s, &["A A^{-1} = I"]).holds, Some(true));
    assert_close(&entries(&run(&mut s, &["A^2"])), &[30.0, 70.0, 20.0, 50.0], "square");
    assert_close(&entries(&run(&mut s, &[r"\|x\|_2"])), &[5f64.sqrt()], "norm");
    assert_close(&entries(&run(&mut s, &[r"\mathbf{1}^\top A \mathbf{1}"])), &[19.0], "ones");
    assert_close(
        &entries(&run(&mut s, &[r"x^\top A x"])),
        &[4.0 + 2.0 * 7.0 + 2.0 * 2.0 + 4.0 * 6.0],
        "quadratic form",
    );
    assert_close(&entries(&run(&mut s, &[r"x x^\top"])), &[1.0, 2.0, 2.0, 4.0], "outer");
    assert_close(&entries(&run(&mut s, &[r"\max_j x_j + \arg\max(x)"])), &[4.0], "max");
    assert_close(&entries(&run(&mut s, &[r"\mathrm{ReLU}(x - 1.5) + \sigma(0)"])), &[0.5, 1.0], "relu sigma");
}

/// A matrix written alone is one value, not its cells one after another (it once answered its
/// last cell, 4, as a scalar).
#[test]
fn a_matrix_written_alone_is_the_matrix() {
    let mut s = session(None, false);
    let outcome = run(&mut s, &[r"\begin{bmatrix} 1 & 2 \\ 3 & 4 \end{bmatrix}"]);
    assert_eq!(entries(&outcome), vec![1.0, 2.0, 3.0, 4.0]);
    let outcome = run(&mut s, &[r"\begin{pmatrix} 1 & 2 \end{pmatrix} + 0"]);
    assert_eq!(entries(&outcome), vec![1.0, 2.0]);
}

#[test]
fn an_array_read_at_positions_is_its_entry() {
    // The cross-correlation of the convolution chapter, `I(i + m, j + n) K(m, n)` summed,
    // against loops written here.
    let image = matrix(4, 4, |r, c| (r * 4 + c) as f64 * 0.5 - 3.0);
    let kernel = matrix(2, 2, |r, c| [1.0, -2.0, 0.5, 3.0][r * 2 + c]);
    let mut s = session(None, false);
    bind(&mut s, "I", &image);
    bind(&mut s, "K", &kernel);
    for (i, j) in [(1, 1), (2, 3), (3, 2)] {
        let formula = format!("\\sum_{{m=1}}^{{2}} \\sum_{{n=1}}^{{2}} I({i} + m - 1, {j} + n - 1) K(m, n)");
        let mut expected = 0.0;
        for m in 0..2 {
            for n in 0..2 {
                expected += image[i - 1 + m][j - 1 + n] * kernel[m][n];
            }
        }
        assert_close(&entries(&run(&mut s, &[formula.as_str()])), &[expected], &formula);
    }
    // A bold vector at a step is its entry too: x(2) + x(3).
    let mut s = session(None, false);
    s.bind_json("x", "[1, 2, 3]").unwrap_or_else(|e| panic!("{}", e.message(eqmap::Lang::En)));
    assert_close(&entries(&run(&mut s, &["\\mathbf{x}(2) + \\mathbf{x}(3)"])), &[5.0], "x(2) + x(3)");
}

#[test]
fn a_mark_above_is_part_of_the_name_not_an_exponent() {
    // `x_i^*` (the optimum's entry) and `\theta^{*}` are values of their own: bound whole, never
    // a power of `x_i` or of `\theta`, and never a missing value called `*`.
    let mut s = session(None, false);
    let bind = |s: &mut Session, name: &str, json: &str| {
        s.bind_json(name, json).unwrap_or_else(|e| panic!("{}", e.message(eqmap::Lang::En)))
    };
    bind(&mut s, "x_i^*", "2");
    bind(&mut s, "x_i", "5");
    assert_close(&entries(&run(&mut s, &["x_i^{*} + 1"])), &[3.0], "x_i^* + 1");
    assert_close(&entries(&run(&mut s, &["x_i^{*} - x_i"])), &[-3.0], "x_i^* - x_i");
    assert_close(&entries(&run(&mut s, &["x_i^{2}"])), &[25.0], "x_i^2 stays a power");
}

/// The factors of a long mixed product, left to right: matrices that do not commute, a
/// transpose, `\cdot`, `/`, `\odot`, a vector times a matrix, and a softmax first; each factor
/// after its sign, so that no run side by side binds tighter (`meaning`'s runs) and the row is
/// read left to right.
fn long_product(times: usize) -> Vec<String> {
    let mut factors = vec![r"\mathrm{softmax}(M)".to_string()];
    for k in 0..times {
        factors.push(
            [r"\cdot A", r"\cdot B", "/ s", r"\odot C", r"\cdot B^\top", r"\cdot A"][k % 6].to_string(),
        );
    }
    factors.push(r"\cdot v".to_string());
    factors.push(r"\cdot A".to_string());
    factors
}

#[test]
fn a_product_past_256_factors_is_the_same_steps_left_to_right() {
    // Past 64 factors a product is one n-ary node computed in a loop (a flat product is no
    // nesting); grouped by hand with parentheses it is nested binary nodes. Both must give
    // the same numbers bit for bit: the same operations in the same order.
    let mut s = session(None, false);
    bind(&mut s, "A", &matrix(2, 2, |r, c| [0.9, 0.2, -0.1, 1.05][r * 2 + c]));
    bind(&mut s, "B", &matrix(2, 2, |r, c| [1.0, -0.15, 0.1, 0.95][r * 2 + c]));
    bind(&mut s, "C", &matrix(2, 2, |r, c| [1.01, 0.99, 1.0, 1.02][r * 2 + c]));
    bind(&mut s, "M", &matrix(2, 2, |r, c| [0.3, -0.2, 0.5, 0.1][r * 2 + c]));
    s.bind_json("v", "[1.0, -0.5]").unwrap_or_else(|e| panic!("{}", e.message(eqmap::Lang::En)));
    s.bind_json("s", "1.01").unwrap_or_else(|e| panic!("{}", e.message(eqmap::Lang::En)));
    for times in [60, 62, 63, 64, 100, 300] {
        let factors = long_product(times);
        let flat_formula = factors.join(" ");
        // ((f1 f2) f3) …: 250 levels of parentheses at most, under the depth limit.
        let mut grouped = factors[0].clone();
        for chunk in factors[1..].chunks(2) {
            grouped = format!("{{{grouped} {}}}", chunk.join(" "));
        }
        let flat = entries(&run(&mut s, &[flat_formula.as_str()]));
        let nested = entries(&run(&mut s, &[grouped.as_str()]));
        assert_eq!(flat.len(), 2, "{times} factors: a vector times a matrix is a vector");
        assert_eq!(flat, nested, "{times} factors");
    }
    // Matrices do not commute: the order is kept (A^300 v, v^T A^300 with A = [[1, 1], [0, 1]]).
    bind(&mut s, "A", &matrix(2, 2, |r, c| [1.0, 1.0, 0.0, 1.0][r * 2 + c]));
    s.bind_json("v", "[0, 1]").unwrap_or_else(|e| panic!("{}", e.message(eqmap::Lang::En)));
    let right = format!("{}v", "A ".repeat(300));
    assert_eq!(entries(&run(&mut s, &[right.as_str()])), vec![300.0, 1.0]);
    let left = format!("v^\\top {}", "A ".repeat(300));
    assert_eq!(entries(&run(&mut s, &[left.as_str()])), vec![0.0, 1.0]);
}

#[test]
fn factors_side_by_side_bind_tighter_than_a_sign_between_them() {
    // `A u \cdot B w` is the dot product of Au and Bw (the meaning layer's runs); `x / 2 y`
    // divides by 2y; a number over a number before a factor (`1/2 x`) is a coefficient.
    let mut s = session(None, false);
    bind(&mut s, "A", &matrix(2, 2, |r, c| [1.0, 2.0, 0.0, 1.0][r * 2 + c]));
    bind(&mut s, "B", &matrix(2, 2, |r, c| [0.0, 1.0, 1.0, 0.0][r * 2 + c]));
    for (name, value) in [("u", "[1, 1]"), ("w", "[2, 3]"), ("x", "12"), ("y", "3")] {
        s.bind_json(name, value).unwrap_or_else(|e| panic!("{}", e.message(eqmap::Lang::En)));
    }
    // Au = [3, 1], Bw = [3, 2]: 9 + 2.
    assert_close(&entries(&run(&mut s, &[r"A u \cdot B w"])), &[11.0], "A u · B w");
    assert_close(&entries(&run(&mut s, &[r"A u \odot B w"])), &[9.0, 2.0], "A u ⊙ B w");
    assert_close(&entries(&run(&mut s, &["x / 2 y"])), &[2.0], "x / 2y");
    assert_close(&entries(&run(&mut s, &["1/2 x"])), &[6.0], "1/2 x");
}

#[test]
fn a_power_on_a_function_name_raises_its_value() {
    // `\log^2 x` is (log x)², with or without parentheses; `\sin^{-1}` names the inverse, which
    // is not lowered as a power.
    let mut s = session(None, false);
    s.bind_json("u", "0.5").unwrap_or_else(|e| panic!("{}", e.message(eqmap::Lang::En)));
    let log_squared = 0.5f64.ln().powi(2);
    assert_close(&entries(&run(&mut s, &[r"\log^2 u"])), &[log_squared], "log² u");
    assert_close(&entries(&run(&mut s, &[r"\log^{2}(1 + u)"])), &[1.5f64.ln().powi(2)], "log²(1 + u)");
    assert_close(&entries(&run(&mut s, &[r"\sin^2 u + \cos^2 u"])), &[1.0], "sin² + cos²");
}

#[test]
fn a_log_before_a_fraction_and_a_sum_takes_the_mean() {
    // `\log \frac{1}{N} \sum_j e^{s_j}` is the log of the mean, not log(1/N) times the sum;
    // `\log \frac{1}{2} u` keeps the log on the fraction alone.
    let mut s = session(None, false);
    s.bind_json("s", "[1, 3]").unwrap_or_else(|e| panic!("{}", e.message(eqmap::Lang::En)));
    s.bind_json("u", "4").unwrap_or_else(|e| panic!("{}", e.message(eqmap::Lang::En)));
    let log_mean_exp = ((1f64.exp() + 3f64.exp()) / 2.0).ln();
    assert_close(
        &entries(&run(&mut s, &[r"\log \frac{1}{2} \sum_{j=1}^{2} e^{s_j}"])),
        &[log_mean_exp],
        "log-mean-exp",
    );
    assert_close(&entries(&run(&mut s, &[r"\log \frac{1}{2} u"])), &[0.5f64.ln() * 4.0], "log(1/2) u");
}
