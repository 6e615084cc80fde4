//! The PDF paste corpus measured: does the map of a formula's text as a PDF gives it have the
//! same concepts as the map of its LaTeX source?
//!
//! `cargo run --release --example pdf_paste -- SOURCES.txt PASTED [--joined] [--each FILE]`:
//! SOURCES one LaTeX formula a line; PASTED the text of formula N on line N, either as it is
//! (a `.txt` file) or as a JSON string keeping its line breaks (a `.jsonl` file, as
//! `scripts/pdf-paste-corpus.sh` makes them with texlive and pdftotext). Prints the share of
//! formulas whose pasted map has the source map's concepts, and the commonest reasons when
//! not: a concept lost or gained, or the pasted text failing to parse. `--joined` pastes each
//! text with its line breaks made spaces (as a one-line input field takes a copy); `--each`
//! writes a line a formula (number, `same` or the reasons) to FILE.

use eqmap::slotmap::{map_pasted, Knowledge, SlotMap};
use eqmap::{Lang, Limits};
use std::collections::{BTreeSet, HashMap};

fn concepts(map: &SlotMap) -> BTreeSet<String> {
    map.slots.iter().flat_map(|s| s.explanation.concepts.iter().cloned()).filter(|c| c != "unknown").collect()
}

/// The pasted texts of `file`: a line each, or a JSON string a line for a `.jsonl` file.
fn pasted_texts(name: &str, file: &str) -> Vec<String> {
    if !name.ends_with(".jsonl") {
        return file.lines().map(str::to_string).collect();
    }
    file.lines().map(|line| serde_json::from_str::<String>(line).unwrap_or_default()).collect()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let joined = args.iter().any(|a| a == "--joined");
    let each = args.iter().position(|a| a == "--each").and_then(|i| args.get(i + 1)).cloned();
    let files: Vec<&String> =
        args.iter().filter(|a| !a.starts_with("--") && Some(*a) != each.as_ref()).collect();
    let (Some(sources), Some(pasted_name)) = (files.first(), files.get(1)) else {
        return eprintln!("usage: pdf_paste SOURCES.txt PASTED.txt|PASTED.jsonl [--joined] [--each FILE]");
    };
    let (Ok(sources), Ok(pasted)) = (std::fs::read_to_string(sources), std::fs::read_to_string(pasted_name))
    else {
        return eprintln!("cannot read the two files");
    };
    let mut pasted = pasted_texts(pasted_name, &pasted);
    if joined {
        pasted = pasted.iter().map(|text| text.split_whitespace().collect::<Vec<_>>().join(" ")).collect();
    }
    let mut each_lines = Vec::new();
    let knowledge = match Knowledge::default_knowledge() {
        Ok(knowledge) => knowledge,
        Err(error) => return eprintln!("{error}"),
    };
    let limits = Limits::default();
    let (mut compared, mut same, mut no_text, mut source_fails) = (0, 0, 0, 0);
    let mut reasons: HashMap<String, usize> = HashMap::new();
    let mut examples: HashMap<String, String> = HashMap::new();
    for (number, (source, text)) in sources.lines().zip(&pasted).enumerate() {
        if text.trim().is_empty() {
            no_text += 1;
            continue;
        }
        let Ok(expected) = map_pasted(source, &knowledge, Lang::En, &limits) else {
            source_fails += 1;
            continue;
        };
        compared += 1;
        let mut why = Vec::new();
        match map_pasted(text, &knowledge, Lang::En, &limits) {
            Ok(map) => {
                let (want, got) = (concepts(&expected), concepts(&map));
                why.extend(want.difference(&got).map(|c| format!("lost {c}")));
                why.extend(got.difference(&want).map(|c| format!("gained {c}")));
            }
            Err(error) => why.push(format!("parse error: {}", error.message(Lang::En))),
        }
        if why.is_empty() {
            same += 1;
        }
        each_lines
            .push(format!("{number}\t{}", if why.is_empty() { "same".to_string() } else { why.join("; ") }));
        for reason in why {
            examples
                .entry(reason.clone())
                .or_insert_with(|| format!("{source}  ⇒  {}", text.replace('\n', " ⏎ ")));
            *reasons.entry(reason).or_default() += 1;
        }
    }
    if let Some(each) = each {
        if let Err(error) = std::fs::write(&each, each_lines.join("\n") + "\n") {
            eprintln!("cannot write {each}: {error}");
        }
    }
    let share = if compared == 0 { 0.0 } else { 100.0 * same as f64 / compared as f64 };
    println!("compared: {compared} (no extracted text: {no_text}; source not mapped: {source_fails})");
    println!("same concepts as the LaTeX source: {same}/{compared} ({share:.1}%)");
    let mut reasons: Vec<(String, usize)> = reasons.into_iter().collect();
    reasons.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    println!("commonest reasons when not:");
    for (reason, count) in reasons.iter().take(20) {
        println!("  {count:>5}  {reason}");
        if let Some(example) = examples.get(reason) {
            println!("         e.g. {example}");
        }
    }
}
