//! The one depth limit (`src/syntax/depth.rs`) through the binary: a formula exactly at the
//! limit works in every command, one level deeper is "too deep" with exit 1 and a caret, for
//! the default limit and for `--max-depth 1000` (the ceiling); eval keeps to the limit asked
//! for; a resolved tree (a tower of operators) counts as the parser counts; mixed nests of
//! every delimiter kind are refused as too deep, not as too many parser steps.

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Runs the binary with `args` and `input` on standard input; returns the exit status,
/// standard output and standard error. Fails the test past 10 s.
fn run(args: &[&str], input: &str) -> (Option<i32>, String, String) {
    let started = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_eqmap"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{e}"));
    if let Some(mut stdin) = child.stdin.take() {
        stdin.write_all(input.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
    }
    let output = child.wait_with_output().unwrap_or_else(|e| panic!("{e}"));
    assert!(started.elapsed() < Duration::from_secs(10), "eqmap {args:?} took {:?}", started.elapsed());
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).to_string(),
        String::from_utf8_lossy(&output.stderr).to_string(),
    )
}

/// `levels` square roots around `x`: a tree exactly `levels` levels deep (each root holds the
/// next), and as many groups in the source.
fn roots(levels: usize) -> String {
    format!("{}x{}", r"\sqrt{".repeat(levels), "}".repeat(levels))
}

/// Every command, with the options it needs to compute the formula (`x` bound to 2).
const COMMANDS: &[&[&str]] =
    &[&["parse"], &["map"], &["read"], &["eval", "--let", "x=2"], &["grad", "--wrt", "x", "--let", "x=2"]];

fn args<'a>(command: &[&'a str], limit: &[&'a str]) -> Vec<&'a str> {
    let mut args = command.to_vec();
    args.extend_from_slice(&["--lang", "en"]);
    args.extend_from_slice(limit);
    args.push("-");
    args
}

fn assert_too_deep(what: &str, (code, _, stderr): &(Option<i32>, String, String), limit: usize) {
    assert_eq!(*code, Some(1), "{what}: {stderr}");
    assert!(stderr.contains("maximum nesting depth exceeded"), "{what}: {stderr}");
    assert!(stderr.contains(&format!("{limit} levels")), "{what}: {stderr}");
    assert!(stderr.contains('^'), "{what}: no caret: {stderr}");
    assert!(!stderr.contains("parser steps"), "{what}: {stderr}");
}

/// At `limit` levels every command answers (batch writes a good record); one more level is
/// too deep in every command (batch writes an error record and, with `--strict`, exits 1).
fn check_limit(limit: usize, limit_args: &[&str]) {
    let (at, past) = (roots(limit), roots(limit + 1));
    for command in COMMANDS {
        let args = args(command, limit_args);
        let (code, stdout, stderr) = run(&args, &at);
        assert_eq!(code, Some(0), "{args:?} at {limit} levels: {stderr}");
        assert!(!stdout.contains("(and so on)"), "{args:?} at {limit} levels elided part of the reading");
        assert_too_deep(&format!("{args:?} at {} levels", limit + 1), &run(&args, &past), limit);
    }
    let batch = args(&["batch", "--strict"], limit_args);
    let (code, stdout, stderr) = run(&batch, &format!("{at}\n{past}\n"));
    assert_eq!(code, Some(1), "{stderr}");
    let records: Vec<&str> = stdout.lines().collect();
    assert_eq!(records.len(), 2, "{stdout}");
    assert!(records.first().is_some_and(|r| r.contains("\"ok\":true")), "{stdout}");
    let second = records.get(1).copied().unwrap_or_default();
    assert!(second.contains("\"ok\":false") && second.contains("maximum nesting depth exceeded"), "{second}");
    assert!(second.contains("\"span\":["), "{second}");
}

#[test]
fn the_default_limit_holds_in_every_command() {
    check_limit(256, &[]);
}

#[test]
fn the_ceiling_holds_in_every_command() {
    check_limit(1000, &["--max-depth", "1000"]);
}

#[test]
fn eval_keeps_to_the_limit_asked_for() {
    // 500 levels under --max-depth 1000: the evaluator's own 256 refused them.
    let (code, stdout, stderr) =
        run(&["eval", "--lang", "en", "--max-depth", "1000", "-"], &roots(500).replace('x', "4"));
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.contains("shape: scalar"), "{stdout}");
    // Past the limit, the limit asked for is the one named.
    let tower = r"\sin ".repeat(1001) + "x";
    let result = run(&["eval", "--lang", "en", "--let", "x=2", "--max-depth", "1000", "-"], &tower);
    assert_too_deep("eval of 1,001 operators under --max-depth 1000", &result, 1000);
    assert!(!result.2.contains("256"), "{}", result.2);
}

/// A row around each root: two levels for each group of the source (the chain and the root).
/// Exactly at the limit every command answers; one level more is too deep.
#[test]
fn rows_and_roots_count_a_level_each() {
    let at = format!("{}x{}", r"x + \sqrt{".repeat(128), "}".repeat(128));
    let past = format!(r"\sqrt{{{at}}}");
    for command in COMMANDS {
        let args = args(command, &[]);
        let (code, stdout, stderr) = run(&args, &at);
        assert_eq!(code, Some(0), "{args:?} at 256 levels of rows and roots: {stderr}");
        assert!(!stdout.contains("(and so on)"), "{args:?}: elided");
        assert_too_deep(&format!("{args:?} at 257 levels of rows and roots"), &run(&args, &past), 256);
    }
}

/// An operator in each group, `{\sin {\sin … x}}`: a level a group in the tree and once
/// resolved, but two steps a level for the resolver, whose guard stopped it at 148 levels when
/// it was an eighth past the limit. At the limit every command answers, default and ceiling.
#[test]
fn an_operator_in_each_group_answers_at_the_limit() {
    for (limit, limit_args) in [(256, &[][..]), (1000, &["--max-depth", "1000"][..])] {
        let at = format!("{}x{}", r"{\sin ".repeat(limit), "}".repeat(limit));
        let past = format!(r"\sqrt{{{at}}}");
        for command in COMMANDS {
            let args = args(command, limit_args);
            let (code, stdout, stderr) = run(&args, &at);
            assert_eq!(code, Some(0), "{args:?} at {limit} levels of operators in groups: {stderr}");
            assert!(!stdout.contains("(and so on)"), "{args:?}: elided");
            assert_too_deep(&format!("{args:?} at {} levels", limit + 1), &run(&args, &past), limit);
        }
    }
}

/// `\sin \sin … x` is one flat chain in the syntax tree, and as deep as it has operators once
/// resolved (each takes the rest): parse takes it, the commands that resolve it count it.
#[test]
fn a_tower_of_operators_counts_as_deep_as_it_resolves() {
    let at = r"\sin ".repeat(256) + "x";
    let past = r"\sin ".repeat(257) + "x";
    for command in COMMANDS {
        let args = args(command, &[]);
        let (code, _, stderr) = run(&args, &at);
        assert_eq!(code, Some(0), "{args:?} with 256 operators: {stderr}");
        let result = run(&args, &past);
        if command == &["parse"] {
            assert_eq!(result.0, Some(0), "parse of a flat chain: {}", result.2);
        } else {
            assert_too_deep(&format!("{args:?} with 257 operators"), &result, 256);
        }
    }
}

/// Levels of every delimiter kind, mixed (as the fuzz target `nesting` builds them): brackets,
/// delimiter commands, `\bigl(`, unpaired `\lfloor`, arguments, scripts, environments.
const MIXED: &[(&str, &str)] = &[
    ("{", "}"),
    (r"\left(", r"\right)"),
    (r"\{", r"\}"),
    (r"\lfloor ", r"\rfloor "),
    (r"\langle ", r"\rangle "),
    (r"\bigl(", r"\bigr)"),
    (r"\frac{1}{", "}"),
    (r"\sqrt{", "}"),
    ("x^{", "}"),
    (r"\mathbf{", "}"),
    (r"\begin{pmatrix}", r"\end{pmatrix}"),
    ("(", ")"),
    ("[", "]"),
];

fn mixed(levels: usize, bottom: &str, unpaired_floors: bool) -> String {
    let (mut open, mut close) = (String::new(), Vec::new());
    for (opener, closer) in MIXED.iter().cycle().take(levels) {
        open.push_str(opener);
        close.push(if unpaired_floors && *opener == r"\lfloor " { "" } else { *closer });
    }
    open.push_str(bottom);
    open.extend(close.into_iter().rev());
    open
}

#[test]
fn mixed_nests_past_the_limit_are_too_deep() {
    for (what, source) in [
        ("well formed", mixed(300, "x", false)),
        ("an error at the bottom", mixed(300, "x^", false)),
        ("floors left unpaired", mixed(300, "x", true)),
        // 150 groups in the source, but a row and a root for each: 300 levels of tree.
        ("a row around each root", format!("{}x{}", r"x + \sqrt{".repeat(150), "}".repeat(150))),
    ] {
        for command in COMMANDS {
            let args = args(command, &[]);
            assert_too_deep(&format!("{args:?}, mixed nest, {what}"), &run(&args, &source), 256);
        }
    }
}
