//! Parse coverage of formulas written by others (`../shared/corpus-real/`, beside the
//! repository; never copied into it). Run with `--nocapture` to see the numbers; the full
//! report with the top failures is `cargo run --release --example coverage`.

use std::path::Path;

fn coverage(file: &str) -> Option<(usize, usize)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus-real").join(file);
    let text = std::fs::read_to_string(&path).ok()?;
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let ok = lines.iter().filter(|line| eqmap::parse(line).is_ok()).count();
    println!("{file}: {ok}/{} parse ({:.2}%)", lines.len(), 100.0 * ok as f64 / lines.len().max(1) as f64);
    Some((ok, lines.len()))
}

fn assert_share(file: &str, at_least: f64) {
    match coverage(file) {
        Some((ok, total)) => {
            let share = ok as f64 / total as f64;
            assert!(share >= at_least, "{file}: {ok}/{total} = {share:.4} < {at_least}");
        }
        None => println!("{file}: not found beside the repository, skipped"),
    }
}

#[test]
fn d2l_display_formulas_parse() {
    assert_share("d2l_display.txt", 0.99);
}

#[test]
fn d2l_inline_formulas_parse() {
    assert_share("d2l_inline.txt", 0.99);
}

#[test]
fn im2latex_formulas_parse() {
    assert_share("im2latex100k_norm_test_val.txt", 0.98);
}
