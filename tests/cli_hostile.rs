//! Hostile inputs against the real binary: each gives exit 1 with a message naming the problem
//! (and its position where there is one), promptly and in bounded memory. The expected outcome
//! of each case sits next to it here; `tests/parse_rules.rs` covers the same limits in the
//! library.

use assert_cmd::Command;

fn eqmap() -> Command {
    Command::cargo_bin("eqmap").unwrap_or_else(|e| panic!("binary not built: {e}"))
}

/// Runs `eqmap ARGS` with `stdin`, returning (exit code, stderr).
fn run(args: &[&str], stdin: Vec<u8>) -> (Option<i32>, String) {
    let output = eqmap().args(args).write_stdin(stdin).output().unwrap_or_else(|e| panic!("{e}"));
    (output.status.code(), String::from_utf8_lossy(&output.stderr).to_string())
}

#[test]
fn hundred_thousand_nested_braces() {
    for command in ["parse", "map"] {
        let (code, stderr) = run(&[command, "--lang", "en", "-"], "{".repeat(100_000).into_bytes());
        assert_eq!(code, Some(1), "{command}");
        assert!(stderr.contains("maximum nesting depth exceeded"), "{command}: {stderr}");
        assert!(stderr.contains('^'));
    }
}

#[test]
fn ten_megabyte_formula() {
    let (code, stderr) = run(&["map", "--lang", "en", "-"], "x+".repeat(5_000_000).into_bytes());
    assert_eq!(code, Some(1));
    assert!(stderr.contains("formula too long: 10000000 bytes (limit 100000"), "{stderr}");
}

#[test]
fn invalid_utf8_on_standard_input() {
    let (code, stderr) = run(&["parse", "-"], b"x + \xff\xfe y".to_vec());
    assert_eq!(code, Some(1));
    assert!(stderr.contains("not UTF-8: byte 0xFF at offset 4"), "{stderr}");
}

#[test]
fn nul_bytes_are_an_error_with_a_position() {
    let (code, stderr) = run(&["parse", "--lang", "en", "-"], b"a + \0 b".to_vec());
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("1 |") && stderr.contains('^'), "{stderr}");
}

#[test]
fn malformed_latex_is_never_silently_accepted() {
    for formula in [r"\sum_{i=1}^{N x_i", r"\frac{a}", "x^{", r"\left(", r"\sqrt[", r"\begin{align} a &= b"] {
        let (code, stderr) = run(&["map", "--lang", "en", formula], Vec::new());
        assert_eq!(code, Some(1), "{formula} was accepted");
        assert!(stderr.contains('^'), "{formula}: {stderr}");
    }
}

#[test]
fn unknown_commands_everywhere_still_map() {
    let formula = r"\foo x \bar{y} \qux + \zap".repeat(200);
    let output = eqmap()
        .args(["map", "--lang", "en", "--format", "json", &formula])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(output.status.success());
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| panic!("{e}"));
    assert!(value["slots"].as_array().is_some_and(|s| s.iter().any(|slot| slot["concepts"][0] == "unknown")));
}

#[test]
fn unicode_look_alikes_warn_and_parse() {
    // Cyrillic а and fullwidth Ｑ look like a and Q but are not.
    let output = eqmap().args(["parse", "--lang", "en", "а + Ｑ"]).output().unwrap_or_else(|e| panic!("{e}"));
    assert!(output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("unknown character `а`") && stderr.contains("unknown character `Ｑ`"),
        "{stderr}"
    );
}

#[test]
fn a_closed_pipe_is_not_an_error() {
    // `eqmap parse … | head`: the reader goes away; eqmap stops quietly with status 0.
    let formula = vec!["x"; 20_000].join(" + ");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_eqmap"))
        .args(["parse", &formula])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{e}"));
    drop(child.stdout.take());
    let status = child.wait().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(status.code(), Some(0));
}
