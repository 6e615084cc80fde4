//! Formulas as people paste them, run through the real binary: a leading minus, math
//! delimiters pasted along, plain text from PDFs, lines on standard input, typos, colour.

use assert_cmd::Command;

fn eqmap() -> Command {
    Command::cargo_bin("eqmap").unwrap_or_else(|e| panic!("binary not built: {e}"))
}

/// Runs `eqmap args` with `stdin`; (exit code, stdout, stderr).
fn run(args: &[&str], stdin: Option<&str>) -> (i32, String, String) {
    let mut command = eqmap();
    command.args(args).env_remove("EQMAP_LANG");
    if let Some(text) = stdin {
        command.write_stdin(text);
    }
    let output = command.output().unwrap_or_else(|e| panic!("{e}"));
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// Stdout of a run that must succeed.
fn ok(args: &[&str], stdin: Option<&str>) -> String {
    let (code, out, err) = run(args, stdin);
    assert_eq!(code, 0, "{args:?}: {err}");
    out
}

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

const LOSS: &str = r"-\frac{1}{N}\sum_i \log p_i";

#[test]
fn every_command_takes_a_formula_that_starts_with_a_minus_flags_after_it() {
    let map = json(&ok(&["map", LOSS, "--lang", "en", "--format", "json"], None));
    assert_eq!(map["formula"], LOSS);
    assert!(map["reading"].as_str().unwrap_or("").starts_with("minus"), "{map}");
    let latex = ok(&["parse", LOSS, "--format", "latex"], None);
    assert!(latex.starts_with("-\\frac{1}{N}"), "{latex}");
    assert_eq!(ok(&["read", r"-\infty", "--lang", "en"], None), "minus infinity\n");
    let value = json(&ok(&["eval", "-1-2", "--format", "json"], None));
    assert_eq!(value["value"], -3.0);
    let compared = json(&ok(&["compare", LOSS, "-x", "--format", "json", "--lang", "en"], None));
    assert!(compared.get("shared_articles").is_some(), "{compared}");
}

#[test]
fn flags_may_come_before_the_formula_too() {
    let value = json(&ok(&["eval", "--format", "json", "-2"], None));
    assert_eq!(value["value"], -2.0);
    assert_eq!(ok(&["read", "--lang", "en", "-1"], None), "minus 1\n");
}

#[test]
fn a_double_dash_still_works_with_flags_after_the_formula() {
    let value = json(&ok(&["eval", "--", "-2", "--format", "json"], None));
    assert_eq!(value["value"], -2.0);
    let map = json(&ok(&["map", "--", LOSS, "--format", "json"], None));
    assert_eq!(map["formula"], LOSS);
    let compared = json(&ok(&["compare", "--", "-x", "-y", "--format", "json"], None));
    assert!(compared.get("only_first").is_some(), "{compared}");
}
