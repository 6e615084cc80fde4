//! The catalogue of hostile inputs (`tests/fixtures/hostile/*.toml`, described in that folder's
//! README), run against the real binary: each case gives the exit status it names, with the
//! message fragments it names (the problem, and a caret for its position), within its time
//! bound and under a 512 MiB address-space limit. Inputs too big to commit (100,000 braces, a
//! 10 MB formula) are generated here from the fixture's description.

use serde::Deserialize;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Address space allowed to each run, in KiB (`ulimit -v`).
const MEMORY_KIB: u64 = 512 * 1024;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    about: String,
    #[serde(default = "default_commands")]
    commands: Vec<String>,
    #[serde(default)]
    args: Vec<String>,
    stdin: Option<String>,
    stdin_bytes: Option<String>,
    stdin_file: Option<String>,
    #[serde(default)]
    stdin_prefix: String,
    stdin_repeat: Option<String>,
    #[serde(default)]
    stdin_times: usize,
    #[serde(default)]
    stdin_middle: String,
    #[serde(default)]
    stdin_repeat_after: String,
    #[serde(default)]
    stdin_suffix: String,
    generate_file: Option<Generated>,
    exit: i32,
    #[serde(default)]
    stderr: Vec<String>,
    #[serde(default)]
    stdout: Vec<String>,
    #[serde(default = "default_seconds")]
    seconds: f64,
}

/// A file written next to the run (for `--let x=@FILE`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Generated {
    name: String,
    repeat: String,
    times: usize,
}

fn default_commands() -> Vec<String> {
    vec!["parse".to_string()]
}

fn default_seconds() -> f64 {
    2.0
}

fn folder() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/hostile")
}

/// `\xHH` escapes decoded; everything else as its UTF-8 bytes.
fn unescape(text: &str) -> Vec<u8> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("\\x") {
        out.extend_from_slice(&rest.as_bytes()[..at]);
        let hex = &rest[at + 2..at + 4];
        out.push(u8::from_str_radix(hex, 16).unwrap_or_else(|e| panic!("bad escape \\x{hex}: {e}")));
        rest = &rest[at + 4..];
    }
    out.extend_from_slice(rest.as_bytes());
    out
}

impl Case {
    fn stdin(&self) -> Vec<u8> {
        if let Some(text) = &self.stdin {
            return text.clone().into_bytes();
        }
        if let Some(text) = &self.stdin_bytes {
            return unescape(text);
        }
        if let Some(file) = &self.stdin_file {
            return std::fs::read(folder().join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        }
        let mut text = self.stdin_prefix.clone();
        if let Some(repeat) = &self.stdin_repeat {
            text.push_str(&repeat.repeat(self.stdin_times));
        }
        text.push_str(&self.stdin_middle);
        text.push_str(&self.stdin_repeat_after.repeat(self.stdin_times));
        text.push_str(&self.stdin_suffix);
        text.into_bytes()
    }
}

struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    elapsed: Duration,
    killed: bool,
}

/// Runs `eqmap ARGS` in `dir` under the memory limit, with `stdin`; kills it after `kill_after`
/// (a hang fails the case instead of hanging the suite).
fn run(args: &[String], stdin: &[u8], dir: &Path, kill_after: Duration) -> Run {
    let start = Instant::now();
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {MEMORY_KIB} && exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_eqmap"))
        .args(args)
        .current_dir(dir)
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start eqmap: {e}"));
    let mut input = child.stdin.take().unwrap_or_else(|| panic!("no stdin"));
    let stdin = stdin.to_vec();
    // Write from another thread: eqmap may answer (and close) before it has read everything.
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&stdin);
    });
    let drain = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut bytes);
            }
            String::from_utf8_lossy(&bytes).into_owned()
        })
    };
    let stdout = drain(child.stdout.take().map(|p| Box::new(p) as Box<dyn Read + Send>));
    let stderr = drain(child.stderr.take().map(|p| Box::new(p) as Box<dyn Read + Send>));
    let mut killed = false;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if start.elapsed() > kill_after => {
                let _ = child.kill();
                killed = true;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(10)),
            Err(e) => panic!("{e}"),
        }
    };
    let _ = writer.join();
    Run {
        code: if killed { None } else { status.code() },
        stdout: stdout.join().unwrap_or_default(),
        stderr: stderr.join().unwrap_or_default(),
        elapsed: start.elapsed(),
        killed,
    }
}

fn check(name: &str, case: &Case) -> Vec<String> {
    let dir = std::env::temp_dir().join(format!("eqmap-hostile-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    if let Some(generated) = &case.generate_file {
        std::fs::write(dir.join(&generated.name), generated.repeat.repeat(generated.times))
            .unwrap_or_else(|e| panic!("{e}"));
    }
    let stdin = case.stdin();
    let bound = if cfg!(debug_assertions) { case.seconds * 5.0 } else { case.seconds };
    let mut failures = Vec::new();
    for command in &case.commands {
        let mut args = vec![command.clone()];
        let fixtures = folder().to_string_lossy().into_owned();
        args.extend(case.args.iter().map(|a| a.replace("{fixtures}", &fixtures)));
        let run = run(&args, &stdin, &dir, Duration::from_secs_f64((bound * 5.0).max(10.0)));
        let mut problems = Vec::new();
        if run.killed {
            problems.push(format!("still running after {:.0} s: killed", run.elapsed.as_secs_f64()));
        }
        if run.code != Some(case.exit) {
            problems.push(format!("exit {:?}, expected {}", run.code, case.exit));
        }
        for fragment in &case.stderr {
            if !run.stderr.contains(fragment.as_str()) {
                problems.push(format!("standard error lacks {fragment:?}"));
            }
        }
        for fragment in &case.stdout {
            if !run.stdout.contains(fragment.as_str()) {
                problems.push(format!("standard output lacks {fragment:?}"));
            }
        }
        if run.stderr.contains("panicked") || run.stderr.contains("overflowed its stack") {
            problems.push("it panicked".to_string());
        }
        // The bound guards against the minutes these inputs once took, not a speed target
        // (BENCHMARKS.md holds those): on a shared, loaded machine a case may take a few times
        // its bound, never more than that or 10 s.
        let allowed = (bound * 3.0).max(10.0);
        if run.elapsed.as_secs_f64() > allowed {
            problems.push(format!(
                "took {:.2} s (bound {bound} s, allowed {allowed} s)",
                run.elapsed.as_secs_f64()
            ));
        }
        if !problems.is_empty() {
            let shown: String = run.stderr.chars().take(600).collect();
            failures.push(format!(
                "{name} ({}) with `eqmap {command}`: {}\n  standard error: {shown}",
                case.about,
                problems.join("; ")
            ));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    failures
}

fn cases() -> Vec<(String, Case)> {
    let mut cases = Vec::new();
    for entry in std::fs::read_dir(folder()).unwrap_or_else(|e| panic!("{e}")) {
        let path = entry.unwrap_or_else(|e| panic!("{e}")).path();
        if path.extension().is_some_and(|e| e == "toml") {
            let name = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
            let case: Case = toml::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
            cases.push((name, case));
        }
    }
    cases.sort_by(|a, b| a.0.cmp(&b.0));
    cases
}

#[test]
fn every_hostile_input_gets_its_expected_outcome() {
    let cases = cases();
    assert!(cases.len() >= 40, "only {} cases in the catalogue", cases.len());
    let failures: Vec<String> = cases.iter().flat_map(|(name, case)| check(name, case)).collect();
    assert!(failures.is_empty(), "{} failing:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn the_catalogue_covers_every_command() {
    let cases = cases();
    for command in ["parse", "map", "read", "eval", "batch"] {
        let count = cases.iter().filter(|(_, c)| c.commands.iter().any(|c| c == command)).count();
        let least = if command == "batch" { 3 } else { 10 };
        assert!(count >= least, "only {count} cases run `eqmap {command}`");
    }
}

#[test]
fn a_closed_pipe_is_not_an_error() {
    // `eqmap parse … | head`: the reader goes away; eqmap stops quietly with status 0.
    let formula = vec!["x"; 20_000].join(" + ");
    let mut child = Command::new(env!("CARGO_BIN_EXE_eqmap"))
        .args(["parse", &formula])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{e}"));
    drop(child.stdout.take());
    let status = child.wait().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(status.code(), Some(0));
}
