//! `eqmap map` and `eqmap compare`, run as the real binary.

use assert_cmd::Command;

const ATTENTION: &str =
    r"\mathrm{Attention}(Q, K, V) = \mathrm{softmax}\!\left(\frac{QK^\top}{\sqrt{d_k}}\right)V";

fn eqmap() -> Command {
    Command::cargo_bin("eqmap").unwrap_or_else(|e| panic!("binary not built: {e}"))
}

fn json(args: &[&str]) -> serde_json::Value {
    let output = eqmap().args(args).output().unwrap_or_else(|e| panic!("{e}"));
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn map_json_follows_the_contract() {
    let value = json(&["map", "--format", "json", "--lang", "en", ATTENTION]);
    assert_eq!(value["formula"], ATTENTION);
    let slots = value["slots"].as_array().unwrap_or_else(|| panic!("no slots"));
    let sqrt = slots.iter().find(|s| s["latex"] == r"\sqrt{d_k}").unwrap_or_else(|| panic!("no sqrt slot"));
    assert_eq!(sqrt["articles"], serde_json::json!([21, 40]));
    assert_eq!(sqrt["visible"], true);
    assert_eq!(sqrt["concepts"], serde_json::json!(["prob.variance-of-sum"]));
    let span = sqrt["span"].as_array().unwrap_or_else(|| panic!("no span"));
    let (start, end) = (span[0].as_u64().unwrap_or(0) as usize, span[1].as_u64().unwrap_or(0) as usize);
    assert_eq!(&ATTENTION[start..end], r"\sqrt{d_k}", "the span points at the slot's source");
    let hidden: Vec<&serde_json::Value> = slots.iter().filter(|s| s["visible"] == false).collect();
    assert_eq!(hidden.len(), 2);
    assert_eq!(hidden[1]["articles"], serde_json::json!([33, 34, 41]));
    assert!(sqrt["question"].as_str().is_some_and(|q| q.contains("square root")));
}

#[test]
fn map_without_a_formula_maps_the_attention_line() {
    let output =
        eqmap().args(["map", "--lang", "en"]).write_stdin("").output().unwrap_or_else(|e| panic!("{e}"));
    assert!(output.status.success());
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains(r"\sqrt{d_k}") && stdout.contains("#21 → #40"), "{stdout}");
    assert!(!stdout.contains("\u{1b}["), "no colour in a pipe");
}

#[test]
fn map_reads_a_pipe_and_uses_the_series_curriculum() {
    let output = eqmap()
        .args(["map", "--curriculum", "transformer-series", "--lang", "ko", "--format", "markdown"])
        .write_stdin(r"L = -\frac{1}{N}\sum_{i=1}^{N} \log p_\theta(x_i \mid x_{<i})")
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(output.status.success());
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("| 식에서의 자리 |") && stdout.contains("3편"), "{stdout}");
}

#[test]
fn map_takes_a_curriculum_file() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/curricula/tiny.toml");
    let value = json(&["map", "--format", "json", "--lang", "en", "--curriculum", path, ATTENTION]);
    assert_eq!(value["curriculum"], "tiny");
    assert_eq!(value["reading_path"], serde_json::json!([7, 9]));
    let titles: Vec<&str> = value["reading_path_articles"]
        .as_array()
        .unwrap_or_else(|| panic!("no reading_path_articles: {value}"))
        .iter()
        .map(|a| a["title"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(titles, ["Variance", "Square-root scaling"], "the file's own titles, in order");
    assert_eq!(value["reading_path_articles"][0]["label"], "lesson 7");
}

#[test]
fn the_reading_path_under_the_table_names_each_article() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/curricula/tiny.toml");
    let output = eqmap()
        .args(["map", "--lang", "ko", "--curriculum", path, ATTENTION])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(output.status.success());
    let stdout = String::from_utf8_lossy(&output.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with("읽을 순서: 7강 → 9강"))
        .unwrap_or_else(|| panic!("{stdout}"));
    assert_eq!(lines.get(at + 1..at + 3), Some(&["  7강  분산", "  9강  제곱근 스케일링"][..]), "{stdout}");
}

#[test]
fn a_missing_curriculum_is_a_usage_error() {
    let output = eqmap()
        .args(["map", "--curriculum", "/nonexistent.toml", "x"])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("nonexistent.toml"));
}

#[test]
fn map_of_malformed_input_exits_1_with_a_caret() {
    let output =
        eqmap().args(["map", "--lang", "en", r"\frac{a}"]).output().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("the second argument is missing") && stderr.contains('^'), "{stderr}");
}

#[test]
fn compare_shows_shared_and_unique_articles() {
    let loss = r"L = -\frac{1}{N}\sum_{i=1}^{N} \log p_\theta(x_i \mid x_{<i})";
    let value = json(&["compare", "--format", "json", ATTENTION, loss]);
    assert_eq!(value["shared_articles"], serde_json::json!([3, 18, 20]));
    let output =
        eqmap().args(["compare", "--lang", "ko", ATTENTION, loss]).output().unwrap_or_else(|e| panic!("{e}"));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("둘 다 필요한 글: 3번 시그마와 첨자"), "{stdout}");
}

#[test]
fn no_command_outside_a_terminal_is_a_usage_error() {
    let output = eqmap().write_stdin("x").output().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("give a command"));
}

#[test]
fn a_slot_leaves_out_the_full_stop_that_ends_a_displayed_formula() {
    for (formula, distribution) in
        [(r"X \sim \textrm{Bernoulli}(p).", r"\textrm{Bernoulli}(p)"), (r"x, y \sim p.", "p")]
    {
        let value = json(&["map", "--format", "json", "--lang", "en", formula]);
        let slots = value["slots"].as_array().unwrap_or_else(|| panic!("no slots"));
        let texts: Vec<&str> = slots.iter().filter_map(|s| s["latex"].as_str()).collect();
        assert!(texts.contains(&distribution), "{formula}: {texts:?}");
        assert!(texts.iter().all(|t| !t.ends_with('.')), "{formula}: {texts:?}");
    }
}

#[test]
fn notation_whose_question_is_asked_on_a_part_of_it_is_not_unknown() {
    // The max-min row of `\min(\max(x, 0), 1)` is asked at `\max(x, 0)`; the `\min` around it is
    // explained by the same row, not listed as notation eqmap does not know.
    for formula in [r"\min(\max(x, 0), 1)", r"\min\left[ \max\left[ y, 0 \right], 1 \right]"] {
        let value = json(&["map", "--format", "json", "--lang", "en", formula]);
        let slots = value["slots"].as_array().unwrap_or_else(|| panic!("no slots"));
        let concepts: Vec<&str> = slots
            .iter()
            .flat_map(|s| s["concepts"].as_array().into_iter().flatten())
            .filter_map(|c| c.as_str())
            .collect();
        assert!(concepts.contains(&"notation.max-min"), "{formula}: {concepts:?}");
        assert!(!concepts.contains(&"unknown"), "{formula}: {concepts:?}");
    }
}
