//! The `eqmap grad` command, run as the real binary: JSON and text output (golden snapshots),
//! the Jacobian, definitions across lines, and bad input (a caret, exit 1, never a panic).

use assert_cmd::Command;
use serde_json::Value as Json;

const ATTENTION: &str =
    r"\mathrm{Attention}(Q, K, V) = \mathrm{softmax}\!\left(\frac{QK^\top}{\sqrt{d_k}}\right)V";

fn run(args: &[&str], stdin: Option<&str>) -> (i32, String, String) {
    let mut cmd = Command::cargo_bin("eqmap").unwrap_or_else(|e| panic!("binary not built: {e}"));
    cmd.args(args);
    if let Some(input) = stdin {
        cmd.write_stdin(input);
    }
    let output = cmd.output().unwrap_or_else(|e| panic!("{e}"));
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (output.status.code().unwrap_or(-1), text(&output.stdout), text(&output.stderr))
}

fn json(stdout: &str) -> Json {
    serde_json::from_str(stdout.trim()).unwrap_or_else(|e| panic!("{e}: {stdout}"))
}

fn numbers(value: &Json) -> Vec<f64> {
    match value {
        Json::Array(items) => items.iter().flat_map(numbers).collect(),
        Json::Number(n) => vec![n.as_f64().unwrap_or(f64::NAN)],
        other => panic!("not a number: {other}"),
    }
}

#[test]
fn gradient_of_a_squared_norm_is_twice_the_vector() {
    let (code, stdout, stderr) =
        run(&["grad", r"\|x\|^2", "--let", "x=[1,2,3]", "--wrt", "x", "--format", "json"], None);
    assert_eq!(code, 0, "{stderr}");
    let out = json(&stdout);
    assert_eq!(out["value"], serde_json::json!(14.0));
    assert_eq!(out["gradients"]["x"], serde_json::json!([2.0, 4.0, 6.0]));
    assert_eq!(out["cotangent"], "one");
}

#[test]
fn softmax_jacobian_matches_diag_s_minus_s_s_transposed() {
    let (code, stdout, stderr) = run(
        &[
            "grad",
            r"\mathrm{softmax}(z)",
            "--let",
            "z=[1,2,3,-1]",
            "--wrt",
            "z",
            "--jacobian",
            "--format",
            "json",
        ],
        None,
    );
    assert_eq!(code, 0, "{stderr}");
    let out = json(&stdout);
    let s = numbers(&out["value"]);
    let j = numbers(&out["jacobian"]["z"]);
    assert_eq!(j.len(), 16);
    for (k, got) in j.iter().enumerate() {
        let (a, b) = (k / 4, k % 4);
        let want = if a == b { s[a] } else { 0.0 } - s[a] * s[b];
        assert!((got - want).abs() < 1e-15, "J[{a}][{b}] = {got}, want {want}");
    }
}

#[test]
fn attention_gradients_flow_through_the_definition_of_an_earlier_line() {
    let input = format!("{ATTENTION}\n\\mathrm{{Attention}}(Q, K, V)\n");
    let args = [
        "grad",
        "-",
        "--let",
        "Q=[[1,0],[0,1]]",
        "--let",
        "K=[[1,0],[0,1]]",
        "--let",
        "V=[[1,2],[3,4]]",
        "--wrt",
        "Q",
        "--wrt",
        "V",
        "--cotangent",
        "ones",
        "--format",
        "json",
    ];
    let (code, stdout, stderr) = run(&args, Some(&input));
    assert_eq!(code, 0, "{stderr}");
    let out = json(&stdout);
    assert_eq!(out["formula"], r"\mathrm{Attention}(Q, K, V)");
    // With G = ones, ∂L/∂V = softmax(S)ᵀ 1: the column sums of the weights, which sum to n.
    let dv = numbers(&out["gradients"]["V"]);
    assert!((dv.iter().sum::<f64>() - 4.0).abs() < 1e-12, "{dv:?}");
    assert_eq!(numbers(&out["gradients"]["Q"]).len(), 4);
}

#[test]
fn a_value_that_is_not_a_number_asks_for_a_cotangent() {
    let (code, _, stderr) = run(
        &["grad", "Ax", "--let", "A=[[1,2],[3,4]]", "--let", "x=[1,1]", "--wrt", "x", "--lang", "en"],
        None,
    );
    assert_eq!(code, 1);
    assert!(stderr.contains("--cotangent"), "{stderr}");
    let (code, _, stderr) = run(
        &[
            "grad",
            "Ax",
            "--let",
            "A=[[1,2],[3,4]]",
            "--let",
            "x=[1,1]",
            "--wrt",
            "x",
            "--cotangent",
            "[1,2,3]",
            "--lang",
            "en",
        ],
        None,
    );
    assert_eq!(code, 1);
    assert!(stderr.contains("the cotangent is 3"), "{stderr}");
}

#[test]
fn seeded_cotangent_is_reproducible_and_leaves_evals_samples_alone() {
    let args = ["grad", ATTENTION, "--seed", "7", "--wrt", "Q", "--format", "json"];
    let (code, first, stderr) = run(&args, None);
    assert_eq!(code, 0, "{stderr}");
    let (_, second, _) = run(&args, None);
    assert_eq!(first, second);
    let (_, eval, _) = run(&["eval", ATTENTION, "--seed", "7", "--format", "json"], None);
    assert_eq!(json(&first)["value"], json(&eval)["value"]);
    assert_eq!(json(&first)["cotangent"], "sampled");
}

#[test]
fn no_derivative_at_a_square_root_of_zero_is_an_error_with_a_caret() {
    let (code, stdout, stderr) =
        run(&["grad", r"\sum_i \sqrt{x_i}", "--let", "x=[0,1]", "--wrt", "x", "--lang", "en"], None);
    assert_eq!(code, 1, "{stdout}");
    assert!(stderr.contains("has no derivative here"), "{stderr}");
    assert!(stderr.contains('^'), "{stderr}");
    let (code, stdout, stderr) =
        run(&["grad", "x / y", "--let", "x=1", "--let", "y=0", "--wrt", "x", "--format", "json"], None);
    assert_eq!(code, 1);
    assert!(stderr.contains("분모가 0"), "{stderr}");
    let record = json(&stdout);
    assert_eq!(record["error"], "not_differentiable");
    assert_eq!(record["span"], serde_json::json!([0, 5]));
}

#[test]
fn a_name_without_a_value_is_refused_and_wrt_is_required() {
    let (code, _, stderr) = run(&["grad", "x^2", "--let", "x=2", "--wrt", "y", "--lang", "en"], None);
    assert_eq!(code, 1);
    assert!(stderr.contains("cannot differentiate with respect to `y`"), "{stderr}");
    let (code, _, _) = run(&["grad", "x^2", "--let", "x=2"], None);
    assert_eq!(code, 2);
}

#[test]
fn relu_at_zero_uses_a_subgradient_and_says_so() {
    let (code, stdout, stderr) = run(
        &[
            "grad",
            r"\mathrm{ReLU}(x)",
            "--let",
            "x=[0,2,-1]",
            "--wrt",
            "x",
            "--cotangent",
            "ones",
            "--lang",
            "en",
            "--format",
            "json",
        ],
        None,
    );
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(json(&stdout)["gradients"]["x"], serde_json::json!([0.0, 1.0, 0.0]));
    assert!(stderr.contains("subgradient"), "{stderr}");
}

#[test]
fn the_tape_is_refused_past_the_element_limit_before_it_grows() {
    let input = "Q \\in \\mathbb{R}^{n \\times d_k}, \\quad K \\in \\mathbb{R}^{n \\times d_k}, \\quad V \\in \\mathbb{R}^{n \\times d_k}\n\\mathrm{softmax}\\left(\\frac{QK^\\top}{\\sqrt{d_k}}\\right)V\n";
    // The n × n scores fit the limit (eval computes them), but not the tape: the n × n
    // exponentials it keeps and the block of ∂L/∂S its backward pass makes (here all 300 rows).
    let args = [
        "grad",
        "--seed",
        "1",
        "--dim",
        "n=300",
        "--dim",
        "d_k=8",
        "--wrt",
        "Q",
        "--max-elements",
        "150000",
        "--lang",
        "en",
    ];
    let (code, _, stderr) = run(&args, Some(input));
    assert_eq!(code, 1);
    assert!(stderr.contains("backward pass would keep"), "{stderr}");
}

#[test]
fn text_output_with_trace_golden() {
    let (code, stdout, stderr) =
        run(&["grad", ATTENTION, "--seed", "1", "--wrt", "Q", "--trace", "--lang", "en"], None);
    assert_eq!(code, 0, "{stderr}");
    insta::assert_snapshot!("grad_attention_trace_en", stdout);
    let (code, stdout, _) = run(&["grad", ATTENTION, "--seed", "1", "--wrt", "K", "--lang", "ko"], None);
    assert_eq!(code, 0);
    insta::assert_snapshot!("grad_attention_ko", stdout);
}

#[test]
fn json_output_golden() {
    let (code, stdout, stderr) = run(
        &[
            "grad",
            r"-\sum_i y_i \log \mathrm{softmax}(z)_i",
            "--let",
            "z=[1,2,3]",
            "--let",
            "y=[0,1,0]",
            "--wrt",
            "z",
            "--format",
            "json",
        ],
        None,
    );
    assert_eq!(code, 0, "{stderr}");
    insta::assert_snapshot!("grad_cross_entropy_json", stdout);
}

#[test]
fn errors_golden() {
    let cases: [&[&str]; 3] = [
        &["grad", r"\log x + \|y\|", "--let", "x=2", "--let", "y=[0,0]", "--wrt", "y", "--lang", "en"],
        &["grad", r"\sqrt{x}", "--let", "x=0", "--wrt", "x"],
        &["grad", r"QK^\top", "--let", "Q=[[1]]", "--let", "K=[[2]]", "--wrt", "Q", "--lang", "en"],
    ];
    let mut all = String::new();
    for args in cases {
        let (code, _, stderr) = run(args, None);
        assert_eq!(code, 1, "{args:?}");
        all.push_str(&format!("$ eqmap {}\n{stderr}\n", args.join(" ")));
    }
    insta::assert_snapshot!("grad_errors", all);
}
