//! `eqmap batch`, run as the real binary: the JSONL contract, error records, `--strict`,
//! `--out` and `--summary`, standard input, and no progress bar in a pipe.

use assert_cmd::Command;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn eqmap() -> Command {
    Command::cargo_bin("eqmap").unwrap_or_else(|e| panic!("binary not built: {e}"))
}

fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/batch").join(name).display().to_string()
}

fn run(args: &[&str], stdin: &str) -> (Option<i32>, Vec<Value>, String) {
    let output =
        eqmap().arg("batch").args(args).write_stdin(stdin).output().unwrap_or_else(|e| panic!("{e}"));
    let stdout = String::from_utf8_lossy(&output.stdout).to_string();
    let records =
        stdout.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}"))).collect();
    (output.status.code(), records, String::from_utf8_lossy(&output.stderr).to_string())
}

#[test]
fn jsonl_records_follow_the_contract_with_errors_in_place() {
    let (tex, txt) = (fixture("paper.tex"), fixture("formulas.txt"));
    let (code, records, stderr) = run(&["--lang", "en", &tex, &txt], "");
    assert_eq!(code, Some(0), "a completed run exits 0 even with failed records: {stderr}");
    assert_eq!(records.len(), 13 + 3, "one record per formula");
    let first = &records[0];
    assert_eq!(first["id"], format!("{tex}:6"));
    assert_eq!(first["source"], tex);
    assert_eq!(first["line"], 6);
    assert_eq!(first["ok"], true);
    assert!(first["slots"].as_array().is_some_and(|s| !s.is_empty()));
    assert!(first.get("error").is_none());
    let bad = &records[15];
    assert_eq!((bad["id"].as_str(), bad["ok"].as_bool()), (Some(format!("{txt}:4").as_str()), Some(false)));
    assert_eq!(bad["error"]["kind"], "parse");
    assert!(bad["error"]["message"].as_str().is_some_and(|m| m.contains("unclosed")), "{bad}");
    assert!(bad["error"]["span"].as_array().is_some_and(|s| s.len() == 2));
    assert!(bad.get("slots").is_none());
    assert!(stderr.contains("records: 16;") && stderr.contains("parsed: 15/16"), "{stderr}");
    assert!(!stderr.contains('\r') && !stderr.contains("\u{1b}["), "no progress bar in a pipe: {stderr:?}");
}

#[test]
fn strict_exits_1_only_when_a_record_failed() {
    let (code, _, _) = run(&["--strict", &fixture("formulas.txt")], "");
    assert_eq!(code, Some(1));
    let (code, records, _) = run(&["--strict", &fixture("paper.tex")], "");
    assert_eq!((code, records.len()), (Some(0), 13));
}

#[test]
fn an_unreadable_path_is_an_error_record_and_the_run_goes_on() {
    let missing = fixture("no-such-file.txt");
    let (code, records, _) = run(&[&missing, &fixture("formulas.txt")], "");
    assert_eq!(code, Some(0));
    assert_eq!(records.len(), 1 + 3);
    assert_eq!(records[0]["ok"], false);
    assert_eq!(records[0]["error"]["kind"], "read");
    assert!(records[0]["error"]["message"].as_str().is_some_and(|m| m.contains("no-such-file.txt")));
    assert_eq!(records[1]["id"], format!("{}:1", fixture("formulas.txt")));
}

#[test]
fn standard_input_is_read_one_formula_a_line() {
    let (code, records, _) = run(&[], "a + b\n\n\\frac{1}{2}\n");
    assert_eq!(code, Some(0));
    let ids: Vec<&str> = records.iter().filter_map(|r| r["id"].as_str()).collect();
    assert_eq!(ids, ["-:1", "-:3"]);
}

fn scratch(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("eqmap-cli-batch-{name}-{}", std::process::id()))
}

#[test]
fn out_and_summary_go_to_files_in_the_format_asked() {
    let (out, summary) = (scratch("out.csv"), scratch("summary.json"));
    let args = [
        "--format",
        "csv",
        "--out",
        out.to_str().unwrap_or(""),
        "--summary",
        summary.to_str().unwrap_or(""),
        "--summary-format",
        "json",
        &fixture("formulas.txt"),
    ];
    let (code, records, stderr) = run(&args, "");
    assert_eq!((code, records.len(), stderr.as_str()), (Some(0), 0, ""), "nothing on stdout or stderr");
    let csv = std::fs::read_to_string(&out).unwrap_or_default();
    assert_eq!(csv.lines().count(), 1 + 3, "{csv}");
    assert!(csv.starts_with("id,source,line,latex,ok,error,"));
    let summary: Value =
        serde_json::from_str(&std::fs::read_to_string(&summary).unwrap_or_default()).unwrap_or(Value::Null);
    assert_eq!(
        (summary["records"].as_u64(), summary["parse_errors"].as_u64()),
        (Some(3), Some(1)),
        "{summary}"
    );
    assert!(summary["never_fired"].as_array().is_some_and(|a| !a.is_empty()));
    let _ = (std::fs::remove_file(out), std::fs::remove_file(scratch("summary.json")));
}

#[test]
fn a_dash_output_is_standard_output_not_a_file_named_dash() {
    let dir = scratch("dash");
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    let output = eqmap()
        .current_dir(&dir)
        .args(["batch", "--out", "-", &fixture("formulas.txt")])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&output.stdout).lines().count(), 3, "the records on stdout");
    assert!(!dir.join("-").exists(), "no file named `-`");
    let out = dir.join("records.jsonl");
    let output = eqmap()
        .args(["batch", "--out", out.to_str().unwrap_or(""), "--summary", "-", "--summary-format", "json"])
        .arg(fixture("formulas.txt"))
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let summary: Value = serde_json::from_slice(&output.stdout).unwrap_or(Value::Null);
    assert_eq!(summary["records"].as_u64(), Some(3), "the summary on stdout: {summary}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_summary_on_the_records_stream_is_refused_before_anything_is_written() {
    let (code, records, stderr) = run(&["--summary", "-", &fixture("formulas.txt")], "");
    assert_eq!((code, records.len()), (Some(2), 0), "{stderr}");
    assert!(stderr.contains("--summary - would mix the summary into the records"), "{stderr}");
}

#[test]
fn markdown_output_is_a_table() {
    let output = eqmap()
        .args(["batch", "--format", "markdown", "--summary", "/dev/null", &fixture("formulas.txt")])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 2 + 3, "{stdout}");
    assert!(lines[0].starts_with("| id | formula | ok |") && lines[1].starts_with("|---|"));
}
