//! The `eqmap read` command, run as the real binary.

use assert_cmd::Command;

fn eqmap() -> Command {
    Command::cargo_bin("eqmap").unwrap_or_else(|e| panic!("binary not built: {e}"))
}

fn stdout_of(args: &[&str], stdin: Option<&str>) -> String {
    let mut command = eqmap();
    command.args(args);
    if let Some(text) = stdin {
        command.write_stdin(text);
    }
    let output = command.output().unwrap_or_else(|e| panic!("{e}"));
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn read_speaks_korean_by_default() {
    let out = stdout_of(
        &[
            "read",
            r"\mathrm{Attention}(Q, K, V) = \mathrm{softmax}\!\left(\frac{QK^\top}{\sqrt{d_k}}\right)V",
        ],
        None,
    );
    assert!(out.starts_with("큐, 케이, 브이를 받는 어텐션은, "), "{out}");
    assert!(out.ends_with("것이다.\n"), "{out}");
}

#[test]
fn read_speaks_english_and_reads_standard_input() {
    let out = stdout_of(&["read", "--lang", "en", "-"], Some("p(x \\mid y)\n"));
    assert_eq!(out, "p of x given y\n");
    let out = stdout_of(&["read", "--lang", "en"], Some("QKᵀ/√dₖ\n"));
    assert_eq!(out, "the product of Q and K transpose divided by the square root of d k\n");
}

#[test]
fn read_takes_a_formula_that_starts_with_a_minus() {
    assert_eq!(stdout_of(&["read", "--lang", "en", r"-\infty"], None), "minus infinity\n");
}

#[test]
fn read_reports_a_parse_error_with_a_caret_and_exit_1() {
    let output = eqmap().args(["read", r"\frac{a}"]).output().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(output.status.code(), Some(1));
    assert!(output.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains('^'), "{stderr}");
}

#[test]
fn read_without_a_subcommand_argument_is_usage_error() {
    let output = eqmap().args(["read", "--lang", "fr", "x"]).output().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(output.status.code(), Some(2));
}
