//! The binary against files and options that could hang it, read without bound or destroy
//! data (issue 16): special files in a batch folder, a huge sparse file, `--let x=@/dev/zero`,
//! `--curriculum /dev/zero`, an output that is an input, `--out X --summary X`, `--jobs 10000`.
//! Each run has a time bound, so a hang fails the test instead of stalling it.

#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("eqmap-hazards-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    dir
}

/// Runs the binary in `dir` with `args`, standard input closed; kills it after 10 s.
/// Returns the exit status, standard output and standard error. A run that has not ended after
/// 10 s fails the test as hung; no test asserts a shorter time (these
/// machines are shared and noisy): what a refusal proves is its message, given before reading.
fn run(dir: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let started = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_eqmap"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{e}"));
    while child.try_wait().ok().flatten().is_none() {
        if started.elapsed() > Duration::from_secs(10) {
            let _ = child.kill();
            panic!("eqmap {args:?} hung (killed after 10 s)");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let output = child.wait_with_output().unwrap_or_else(|e| panic!("{e}"));
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).to_string(),
        String::from_utf8_lossy(&output.stderr).to_string(),
    )
}

fn mkfifo(path: &Path) {
    let made = Command::new("mkfifo").arg(path).status().is_ok_and(|s| s.success());
    assert!(made, "mkfifo {}", path.display());
}

#[test]
fn special_files_are_error_records_and_never_opened() {
    let dir = scratch("special");
    std::fs::write(dir.join("a.txt"), "x + y\n").unwrap_or_else(|e| panic!("{e}"));
    mkfifo(&dir.join("b-fifo.txt"));
    std::os::unix::fs::symlink("/dev/zero", dir.join("c-zero.txt")).unwrap_or_else(|e| panic!("{e}"));
    std::os::unix::fs::symlink("/dev/zero", dir.join("d-zero.tex")).unwrap_or_else(|e| panic!("{e}"));
    // 1 GB, sparse: one line far past the line limit; the reader gives up on it after a bound.
    let big = std::fs::File::create(dir.join("e-big.txt")).unwrap_or_else(|e| panic!("{e}"));
    big.set_len(1 << 30).unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(dir.join("f.txt"), "\\frac{a}{b}\n").unwrap_or_else(|e| panic!("{e}"));
    let (code, stdout, stderr) = run(&dir, &["batch", "--lang", "en", "."]);
    assert_eq!(code, Some(0), "{stderr}");
    let records: Vec<serde_json::Value> =
        stdout.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}"))).collect();
    let ids: Vec<&str> = records.iter().filter_map(|r| r["id"].as_str()).collect();
    assert_eq!(
        ids,
        ["./a.txt:1", "./b-fifo.txt", "./c-zero.txt", "./d-zero.tex", "./e-big.txt:1", "./f.txt:1"]
    );
    let message = |i: usize| records[i]["error"]["message"].as_str().unwrap_or("").to_string();
    assert!(message(1).contains("named pipe"), "{}", message(1));
    assert!(message(2).contains("device") && message(3).contains("device"), "{}", message(2));
    assert!(message(4).contains("the rest of the file is not read"), "{}", message(4));
    assert_eq!((records[0]["ok"].as_bool(), records[5]["ok"].as_bool()), (Some(true), Some(true)));
}

#[test]
fn an_output_that_is_an_input_is_refused_before_anything_is_written() {
    let dir = scratch("outputs");
    std::fs::write(dir.join("in.txt"), "x + y\n").unwrap_or_else(|e| panic!("{e}"));
    let (code, _, stderr) = run(&dir, &["batch", "in.txt", "--out", "in.txt"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("--out in.txt is also an input"), "{stderr}");
    assert_eq!(std::fs::read_to_string(dir.join("in.txt")).ok().as_deref(), Some("x + y\n"), "input intact");
    let (code, _, stderr) = run(&dir, &["batch", "in.txt", "--summary", "./in.txt"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert_eq!(std::fs::read_to_string(dir.join("in.txt")).ok().as_deref(), Some("x + y\n"));
    let (code, _, stderr) = run(&dir, &["batch", "in.txt", "--out", "same.jsonl", "--summary", "same.jsonl"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("same file"), "{stderr}");
    assert!(!dir.join("same.jsonl").exists(), "nothing written");
    let (code, _, stderr) = run(&dir, &["batch", ".", "--out", "records.jsonl"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("inside the input folder"), "{stderr}");
    let (code, _, stderr) =
        run(&dir, &["batch", "in.txt", "--out", "records.jsonl", "--summary", "summary.txt"]);
    assert_eq!(code, Some(0), "distinct outputs are fine: {stderr}");
    let records = std::fs::read_to_string(dir.join("records.jsonl")).unwrap_or_default();
    assert!(records.contains("\"ok\":true"), "{records}");
    let (code, _, stderr) = run(&dir, &["batch", "in.txt", "--out", "/dev/null", "--summary", "/dev/null"]);
    assert_eq!(code, Some(0), "a device is no file to protect: {stderr}");
}

#[test]
fn jobs_are_capped_to_the_machine_with_a_note() {
    let dir = scratch("jobs");
    std::fs::write(dir.join("in.txt"), "x + y\n").unwrap_or_else(|e| panic!("{e}"));
    let (code, stdout, stderr) = run(&dir, &["batch", "--lang", "en", "--jobs", "10000", "in.txt"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stderr.contains("--jobs 10000 capped to"), "{stderr}");
    assert_eq!(stdout.lines().count(), 1);
}

#[test]
fn bindings_and_curricula_from_devices_are_refused_unread() {
    let dir = scratch("devices");
    let (code, _, stderr) = run(&dir, &["eval", "--let", "x=@/dev/zero", "x"]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("not a regular file"), "{stderr}");
    mkfifo(&dir.join("pipe"));
    let (code, _, stderr) = run(&dir, &["eval", "--let", "x=@pipe", "x"]);
    assert_eq!(code, Some(1), "{stderr}");
    for command in ["map", "batch"] {
        let (code, _, stderr) = run(&dir, &[command, "--curriculum", "/dev/zero", "x"]);
        assert_eq!(code, Some(2), "{command}: {stderr}");
        assert!(stderr.contains("not a regular file"), "{stderr}");
    }
    let huge = std::fs::File::create(dir.join("huge.json")).unwrap_or_else(|e| panic!("{e}"));
    huge.set_len(1 << 30).unwrap_or_else(|e| panic!("{e}"));
    let (code, _, stderr) = run(&dir, &["eval", "--let", "x=@huge.json", "x"]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("larger than"), "{stderr}");
}

#[test]
fn control_characters_in_text_never_reach_text_outputs_raw() {
    let dir = scratch("control");
    let formula = "x + \\text{a\u{1b}[31mred\u{7}b\u{2028}c\u{85}}";
    std::fs::write(dir.join("f.txt"), format!("{formula}\n-x+1\n=1\n@x\n")).unwrap_or_else(|e| panic!("{e}"));
    let runs: [&[&str]; 7] = [
        &["read", "--lang", "en", formula],
        &["map", "--lang", "en", formula],
        &["map", "--format", "markdown", formula],
        &["parse", "--format", "latex", formula],
        &["batch", "--format", "markdown", "f.txt"],
        &["batch", "--format", "csv", "f.txt"],
        &["batch", "--format", "jsonl", "f.txt"],
    ];
    for args in runs {
        let (code, stdout, stderr) = run(&dir, args);
        assert_eq!(code, Some(0), "{args:?}: {stderr}");
        for (raw, name) in [('\u{1b}', "ESC"), ('\u{7}', "BEL"), ('\u{2028}', "U+2028"), ('\u{85}', "U+0085")]
        {
            assert!(!stdout.contains(raw), "{args:?}: raw {name} in standard output: {stdout:?}");
            assert!(!stderr.contains(raw), "{args:?}: raw {name} in standard error (the summary)");
        }
    }
    let (_, csv, _) = run(&dir, &["batch", "--format", "csv", "f.txt"]);
    for guarded in ["\"'-x+1\"", "\"'=1\"", "\"'@x\""] {
        assert!(csv.contains(guarded), "{guarded} in {csv}");
    }
}

/// Runs the binary as [`run`] does, under an address-space limit of `kib` KiB (`ulimit -v`).
fn run_within(dir: &Path, kib: u64, args: &[&str]) -> (Option<i32>, String, String) {
    let output = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {kib} && exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_eqmap"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).to_string(),
        String::from_utf8_lossy(&output.stderr).to_string(),
    )
}

#[test]
fn batch_starts_within_a_256_mib_address_space_at_the_default_depth() {
    // The worker threads' stacks are sized from the depth limit in use (18 MiB at the default
    // 256 levels); they were 64 MiB each, for the ceiling, and batch could not start at all.
    let dir = scratch("address-space");
    let deep = format!("{}x{}", r"\sqrt{".repeat(250), "}".repeat(250));
    std::fs::write(dir.join("in.txt"), format!("x + y\n\\frac{{a}}{{b}}\n{deep}\nQK^\\top\n"))
        .unwrap_or_else(|e| panic!("{e}"));
    let (code, stdout, stderr) = run_within(&dir, 256 * 1024, &["batch", "--lang", "en", "in.txt"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(stdout.lines().count(), 4, "one record per formula: {stdout}");
    assert!(!stdout.contains("\"error\""), "{stdout}");
    // At the ceiling a thread needs 64.5 MiB: within 256 MiB it may not start, and then says
    // why and what to lower.
    let args = ["batch", "--lang", "en", "--max-depth", "1000", "in.txt"];
    let (code, stdout, stderr) = run_within(&dir, 256 * 1024, &args);
    match code {
        Some(0) => assert_eq!(stdout.lines().count(), 4, "{stdout}"),
        _ => {
            assert_eq!(code, Some(2), "{stderr}");
            assert!(stderr.contains("MiB of stack each (for --max-depth 1000)"), "{stderr}");
            assert!(stderr.contains("lower --jobs or --max-depth"), "{stderr}");
            assert!(!stderr.contains("panicked"), "{stderr}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
