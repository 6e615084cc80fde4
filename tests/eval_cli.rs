//! The `eqmap eval` command, run as the real binary.

use assert_cmd::Command;
use serde_json::Value as Json;

const ATTENTION: &str =
    r"\mathrm{Attention}(Q, K, V) = \mathrm{softmax}\!\left(\frac{QK^\top}{\sqrt{d_k}}\right)V";

fn eqmap() -> Command {
    Command::cargo_bin("eqmap").unwrap_or_else(|e| panic!("binary not built: {e}"))
}

fn run(args: &[&str], stdin: Option<&str>) -> (i32, String, String) {
    let mut cmd = eqmap();
    cmd.args(args);
    if let Some(input) = stdin {
        cmd.write_stdin(input);
    }
    let output = cmd.output().unwrap_or_else(|e| panic!("{e}"));
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (output.status.code().unwrap_or(-1), text(&output.stdout), text(&output.stderr))
}

fn json_lines(stdout: &str) -> Vec<Json> {
    stdout.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}"))).collect()
}

#[test]
fn attention_with_bound_values_prints_shape_and_value_as_json() {
    let (code, stdout, stderr) = run(
        &[
            "eval",
            ATTENTION,
            "--let",
            "Q=[[1,0],[0,1]]",
            "--let",
            "K=[[1,0],[0,1]]",
            "--let",
            "V=[[1,2],[3,4]]",
            "--format",
            "json",
        ],
        None,
    );
    assert_eq!(code, 0, "{stderr}");
    let out = json_lines(&stdout);
    let value = &out[0];
    assert_eq!(value["shape"], serde_json::json!([2, 2]));
    let (a, b) = (1f64 / 2f64.sqrt(), 0f64);
    let w = a.exp() / (a.exp() + b.exp());
    let expected = [w * 1.0 + (1.0 - w) * 3.0, w * 2.0 + (1.0 - w) * 4.0];
    let row = value["value"][0].as_array().unwrap_or_else(|| panic!("{value}"));
    for (got, want) in row.iter().zip(expected) {
        assert!((got.as_f64().unwrap_or(f64::NAN) - want).abs() < 1e-12, "{got} vs {want}");
    }
}

#[test]
fn seed_without_bindings_samples_and_says_what_it_picked() {
    let (code, stdout, _) = run(&["eval", ATTENTION, "--seed", "1", "--lang", "en"], None);
    assert_eq!(code, 0);
    assert!(stdout.contains("sampled from N(0, 1): Q"), "{stdout}");
    assert!(stdout.contains("d_k = "), "{stdout}");
    let again = run(&["eval", ATTENTION, "--seed", "1", "--lang", "en"], None).1;
    assert_eq!(stdout, again, "the same seed gives the same numbers");
}

#[test]
fn claims_report_holds_and_the_largest_difference() {
    let (code, stdout, _) = run(
        &[
            "eval",
            r"QK^\top = \sum_t Q_{it}K_{jt}",
            "--let",
            "Q=[[1,2],[3,4]]",
            "--let",
            "K=[[0,1],[1,0],[2,2]]",
            "--format",
            "json",
        ],
        None,
    );
    assert_eq!(code, 0);
    let out = json_lines(&stdout);
    assert_eq!(out[0]["holds"], true);
    assert_eq!(out[0]["max_abs_diff"].as_f64(), Some(0.0));
    assert_eq!(out[0]["value"], serde_json::json!([[2.0, 1.0, 6.0], [4.0, 3.0, 14.0]]));
}

#[test]
fn definitions_carry_to_later_lines_of_standard_input() {
    let input = format!(
        "{ATTENTION}\n{}\n{}\n",
        r"\text{head}_h = \operatorname{Attention}(XW_Q^h,\ XW_K^h,\ XW_V^h)",
        r"\operatorname{MultiHead}(X) = \operatorname{Concat}(\text{head}_1, \dots, \text{head}_H)\,W_O"
    );
    let family = "[[[1,0],[0,1]],[[0,1],[1,0]]]";
    let args = [
        "eval",
        "-",
        "--format",
        "json",
        "--let",
        "X=[[1,2],[3,4],[5,6]]",
        "--let",
        &format!("W_Q={family}"),
        "--let",
        &format!("W_K={family}"),
        "--let",
        &format!("W_V={family}"),
        "--let",
        "W_O=[[1,0],[0,1],[1,0],[0,1]]",
    ];
    let (code, stdout, stderr) = run(&args, Some(&input));
    assert_eq!(code, 0, "{stderr}");
    let out = json_lines(&stdout);
    assert_eq!(out.len(), 3);
    assert_eq!(out[0]["kind"]["kind"], "function");
    assert_eq!(out[1]["kind"]["kind"], "family");
    assert_eq!(out[2]["shape"], serde_json::json!([3, 2]));
    assert_eq!(out[2]["dims"]["H"], 2);
}

#[test]
fn trace_shows_shapes_statistics_and_row_sums() {
    let (code, stdout, _) = run(&["eval", ATTENTION, "--seed", "4", "--trace", "--lang", "en"], None);
    assert_eq!(code, 0);
    for needle in ["slot", "variance", "row sums", r"QK^\top", "4 × d_k", "1..1"] {
        assert!(stdout.contains(needle), "no {needle} in\n{stdout}");
    }
}

#[test]
fn shape_mismatch_exits_1_with_a_caret_and_a_hint() {
    let (code, stdout, stderr) = run(
        &["eval", "QK", "--let", "Q=[[1,2],[3,4],[5,6]]", "--let", "K=[[1,2],[3,4],[5,6]]", "--lang", "en"],
        None,
    );
    assert_eq!(code, 1);
    assert!(stdout.is_empty());
    assert!(stderr.contains("did you mean `K^\\top`?"), "{stderr}");
    assert!(stderr.contains("^^"), "{stderr}");
}

#[test]
fn bad_input_exits_1_and_usage_errors_exit_2() {
    let bad_json = run(&["eval", "x", "--let", "x=[1, 2", "--lang", "en"], None);
    assert_eq!(bad_json.0, 1, "{}", bad_json.2);
    assert!(bad_json.2.contains("cannot read the value of `x`"), "{}", bad_json.2);
    let unbound = run(&["eval", "x + 1", "--lang", "en"], None);
    assert_eq!(unbound.0, 1);
    assert!(unbound.2.contains("--let x="), "{}", unbound.2);
    let usage = run(&["eval", "x", "--format", "xml"], None);
    assert_eq!(usage.0, 2);
    let negative_dim = run(&["eval", "x", "--dim", "n=-3"], None);
    assert_eq!(negative_dim.0, 1);
}

#[test]
fn huge_dimensions_are_refused_before_allocating() {
    let input = "Q \\in \\mathbb{R}^{n \\times n}\nQ Q\n";
    let (code, _, stderr) =
        run(&["eval", "--dim", "n=1000000000", "--seed", "1", "--lang", "en"], Some(input));
    assert_eq!(code, 1);
    assert!(stderr.contains("refused before allocating"), "{stderr}");
    let raised = run(&["eval", "--dim", "n=3", "--seed", "1", "--max-elements", "8"], Some(input));
    assert_eq!(raised.0, 1, "9 elements are over a limit of 8");
}

#[test]
fn nan_and_infinite_results_are_flagged() {
    let (code, stdout, stderr) =
        run(&["eval", "x + 1", "--let", r#"x=["nan", 1, "inf"]"#, "--format", "json", "--lang", "en"], None);
    assert_eq!(code, 0);
    assert!(stderr.contains("2 NaN or infinite entries"), "{stderr}");
    let out = json_lines(&stdout);
    assert_eq!(out[0]["value"], serde_json::json!(["nan", 2.0, "inf"]));
    assert_eq!(out[0]["warnings"][0]["warning"], "non_finite");
}

#[test]
fn messages_are_korean_by_default() {
    let (code, _, stderr) = run(&["eval", r"\log(-2)"], None);
    assert_eq!(code, 1);
    assert!(stderr.contains("음수의 로그"), "{stderr}");
}

#[test]
fn values_can_come_from_files() {
    let dir = std::env::temp_dir().join(format!("eqmap-eval-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    let file = dir.join("z.json");
    std::fs::write(&file, "[1000, 1001, 1002]").unwrap_or_else(|e| panic!("{e}"));
    let arg = format!("z=@{}", file.display());
    let (code, stdout, _) = run(&["eval", r"\mathrm{softmax}(z)", "--let", &arg, "--format", "json"], None);
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(code, 0);
    let values: Vec<f64> =
        json_lines(&stdout)[0]["value"].as_array().into_iter().flatten().filter_map(Json::as_f64).collect();
    let total = 1.0 + (-1f64).exp() + (-2f64).exp();
    let expected = [(-2f64).exp() / total, (-1f64).exp() / total, 1.0 / total];
    for (got, want) in values.iter().zip(expected) {
        assert!((got - want).abs() < 1e-15, "{got} vs {want}");
    }
}
