//! The `eqmap read` command, run as the real binary.

use assert_cmd::Command;

fn eqmap() -> Command {
    let mut command = Command::cargo_bin("eqmap").unwrap_or_else(|e| panic!("binary not built: {e}"));
    command.env_remove("EQMAP_LANG");
    command
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
    // The numerator is closed: Q K^T over the root, not Q times K^T over the root.
    assert_eq!(out, "the product of Q and K transpose, all divided by the square root of d k\n");
}

#[test]
fn read_takes_a_verbosity() {
    let formula = "m_t = \\beta_1 m_{t-1} + (1 - \\beta_1) g_t";
    let brief = stdout_of(&["read", "--lang", "en", "--verbosity", "brief", formula], None);
    let full = stdout_of(&["read", "--lang", "en", "--verbosity", "full", formula], None);
    let default = stdout_of(&["read", "--lang", "en", formula], None);
    assert!(brief.starts_with("m t is "), "{brief}");
    assert!(default.contains("m sub t minus 1 end sub"), "{default}");
    assert!(full.contains("open paren 1 minus beta sub 1 end sub close paren"), "{full}");
    let ko = stdout_of(&["read", "--verbosity", "full", formula], None);
    assert!(ko.contains("여는 괄호 1 빼기 아래첨자가 1인 베타 닫는 괄호"), "{ko}");
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

#[test]
fn the_language_comes_from_the_command_then_before_it_then_the_environment() {
    let read = |args: &[&str], env: Option<&str>| {
        let mut command = eqmap();
        command.args(args);
        if let Some(code) = env {
            command.env("EQMAP_LANG", code);
        }
        let output = command.output().unwrap_or_else(|e| panic!("{e}"));
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    assert_eq!(read(&["--lang", "en", "read", "x^2"], None), "x squared\n");
    assert_eq!(read(&["read", "x^2"], Some("en")), "x squared\n");
    assert_eq!(read(&["--lang", "en", "read", "--lang", "ko", "x^2"], None), "엑스의 제곱\n");
    assert_eq!(read(&["read", "--lang", "ko", "x^2"], Some("en")), "엑스의 제곱\n");
    assert_eq!(read(&["read", "x^2"], None), "엑스의 제곱\n");
}
