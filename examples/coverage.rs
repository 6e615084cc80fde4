//! Parse coverage over files of one formula a line.
//!
//! `cargo run --release --example coverage -- FILE...` (default: the three files of
//! `../shared/corpus-real/`). Prints, per file, how many lines parse, and the most frequent
//! error messages with an example line each.

use std::collections::HashMap;

fn main() {
    let mut paths: Vec<String> = std::env::args().skip(1).collect();
    if paths.is_empty() {
        paths = ["d2l_display.txt", "d2l_inline.txt", "im2latex100k_norm_test_val.txt"]
            .iter()
            .map(|f| format!("../shared/corpus-real/{f}"))
            .collect();
    }
    for path in paths {
        let Ok(text) = std::fs::read_to_string(&path) else {
            eprintln!("cannot read {path}");
            continue;
        };
        let mut total = 0;
        let mut ok = 0;
        let mut warned = 0;
        let mut direct = 0;
        let mut left: HashMap<String, (usize, String)> = HashMap::new();
        let mut failures: HashMap<String, (usize, String)> = HashMap::new();
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            total += 1;
            let read_directly =
                eqmap::syntax::read_directly(line, &eqmap::syntax::Limits::default()).is_some();
            direct += usize::from(read_directly);
            match eqmap::parse(line) {
                Ok(parsed) => {
                    ok += 1;
                    if !read_directly {
                        let entry = left.entry(first_command(line)).or_insert((0, line.to_string()));
                        entry.0 += 1;
                    }
                    if !parsed.warnings.is_empty() {
                        warned += 1;
                    }
                }
                Err(error) => {
                    let key = error.message(eqmap::Lang::En);
                    let entry = failures.entry(key).or_insert((0, line.to_string()));
                    entry.0 += 1;
                }
            }
        }
        let share = 100.0 * ok as f64 / total.max(1) as f64;
        println!("{path}: {ok}/{total} parse ({share:.2}%), {warned} with unknown-command warnings");
        let direct_share = 100.0 * direct as f64 / total.max(1) as f64;
        println!("  read directly (without pest): {direct}/{total} ({direct_share:.2}%); parsed lines left to pest, by first non-ASCII or backslash token:");
        let mut ranked_left: Vec<_> = left.into_iter().collect();
        ranked_left.sort_by_key(|entry| std::cmp::Reverse(entry.1 .0));
        for (token, (count, example)) in ranked_left.iter().take(8) {
            let example: String = example.chars().take(100).collect();
            println!("  {count:>5}  {token}  e.g. {example}");
        }
        let mut ranked: Vec<_> = failures.into_iter().collect();
        ranked.sort_by_key(|entry| std::cmp::Reverse(entry.1 .0));
        for (message, (count, example)) in ranked.iter().take(25) {
            let example: String = example.chars().take(140).collect();
            println!("  {count:>5}  {message}\n         e.g. {example}");
        }
    }
}

/// A rough key for a line: its first non-ASCII character, or else its rarest-looking command.
fn first_command(line: &str) -> String {
    if let Some(c) = line.chars().find(|c| !c.is_ascii()) {
        return format!("non-ASCII {c}");
    }
    let mut rare = String::from("(other)");
    for word in line.split('\\').skip(1) {
        let name: String = word.chars().take_while(char::is_ascii_alphabetic).collect();
        if ["begin", "left", "textcolor", "stackrel", "not", "middle"].contains(&name.as_str()) {
            rare = format!("\\{name}");
        }
    }
    rare
}
