//! The `eqmap parse` command, run as the real binary.

use assert_cmd::Command;

fn eqmap() -> Command {
    Command::cargo_bin("eqmap").unwrap_or_else(|e| panic!("binary not built: {e}"))
}

#[test]
fn parse_prints_a_tree_for_the_attention_line() {
    let output = eqmap()
        .args(["parse", r"\mathrm{softmax}\!\left(\frac{QK^\top}{\sqrt{d_k}}\right)V"])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(output.status.success());
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("word \"softmax\" (roman)"), "{stdout}");
    assert!(stdout.contains("sqrt"), "{stdout}");
}

#[test]
fn parse_reads_standard_input_and_prints_latex() {
    let output = eqmap()
        .args(["parse", "--format", "latex"])
        .write_stdin("QKᵀ/√dₖ\n")
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(output.status.success());
    assert_eq!(String::from_utf8_lossy(&output.stdout), "Q K^{\\top} / \\sqrt{d_{k}}\n");
}

#[test]
fn parse_json_has_tree_latex_and_warnings() {
    let output =
        eqmap().args(["parse", "--format", "json", r"x + \foo"]).output().unwrap_or_else(|e| panic!("{e}"));
    assert!(output.status.success());
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(value["tree"]["kind"], "chain");
    assert_eq!(value["tree"]["span"], serde_json::json!([0, 8]));
    assert_eq!(value["warnings"][0]["warning"], "unknown_command");
    assert_eq!(value["latex"], r"x + \foo");
}

#[test]
fn malformed_input_exits_1_with_a_caret_on_stderr() {
    for (formula, words) in [
        (r"\sum_{i=1}^{N x_i", "unclosed `{`"),
        (r"\frac{a}", "the second argument is missing"),
        ("x^{", "unclosed `{`"),
        (r"\left( x", "unclosed `\\left`"),
        (r"\sqrt[", "unclosed `[`"),
    ] {
        let output =
            eqmap().args(["parse", "--lang", "en", formula]).output().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(output.status.code(), Some(1), "{formula}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(words), "{formula}: {stderr}");
        assert!(stderr.contains('^'), "{formula}: no caret in {stderr}");
        assert!(output.stdout.is_empty());
    }
}

#[test]
fn deep_nesting_exits_1_with_one_clear_error() {
    let output = eqmap()
        .args(["parse", "--lang", "en", "-"])
        .write_stdin("{".repeat(100_000))
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("maximum nesting depth exceeded (256 levels"), "{stderr}");
    assert!(stderr.len() < 1_000, "the error is one short message, not the whole input");
}

#[test]
fn usage_errors_exit_2() {
    let output =
        eqmap().args(["parse", "--format", "nonsense", "x"]).output().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(output.status.code(), Some(2));
}
