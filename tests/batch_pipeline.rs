//! The batch pipeline: input order and record counts whatever the chunk size and the number of
//! threads, declarations carried within a document, the summary's counts, and the shape of the
//! CSV and Markdown outputs.

use eqmap::batch::output::{Format, CSV_COLUMNS};
use eqmap::batch::pipeline::{self, Options};
use eqmap::batch::summary::{Counter, Summary, COUNTER_CAPACITY};
use eqmap::batch::{Input, Unit};
use eqmap::slotmap::Knowledge;
use eqmap::Lang;
use std::sync::Arc;

fn knowledge() -> Knowledge {
    Knowledge::default_knowledge().unwrap_or_else(|e| panic!("{e}"))
}

fn input(id: &str, content: Result<&str, &str>) -> Input {
    Input {
        id: id.to_string(),
        source: Arc::from("test"),
        line: None,
        content: content.map(str::to_string).map_err(str::to_string),
    }
}

/// Formulas of every kind: mapped, failing to parse, unreadable, and documents.
fn units() -> Vec<Unit> {
    let formulas =
        [r"\frac{QK^\top}{\sqrt{d_k}}", r"\frac{a}{", "x_i + y", r"\sum_{i=1}^N \log p(x_i)", r"\foo + 1"];
    let mut units = Vec::new();
    for i in 0..300 {
        let id = format!("f{i}");
        units.push(match i % 7 {
            5 => Unit::Single(input(&id, Err("cannot read test: broken"))),
            6 => Unit::Document(vec![
                input(&format!("{id}a"), Ok(r"h \in \mathbb{R}^{d}")),
                input(&format!("{id}b"), Ok("y = Wh")),
            ]),
            k => Unit::Single(input(&id, Ok(formulas[k % formulas.len()]))),
        });
    }
    units
}

fn run(units: Vec<Unit>, options: &Options, threads: usize) -> (String, Summary) {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap_or_else(|e| panic!("{e}"));
    let knowledge = knowledge();
    let mut out = Vec::new();
    let summary = pool
        .install(|| pipeline::run(units.into_iter(), &knowledge, options, &mut out, |_| {}))
        .unwrap_or_else(|e| panic!("{e}"));
    (String::from_utf8(out).unwrap_or_else(|e| panic!("{e}")), summary)
}

#[test]
fn records_keep_input_order_and_count_whatever_the_chunks_and_threads() {
    let count: usize = units().iter().map(Unit::len).sum();
    let (one, summary) = run(units(), &Options { chunk: 4096, ..Options::default() }, 1);
    let (many, _) = run(units(), &Options { chunk: 7, ..Options::default() }, 2);
    assert_eq!(one, many, "the same bytes on 1 thread in one chunk and on 2 threads in chunks of 7");
    let ids: Vec<String> = one
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .map(|v| v["id"].as_str().unwrap_or("").to_string())
        .collect();
    let expected: Vec<String> = units().iter().flat_map(|u| u.inputs().to_vec()).map(|i| i.id).collect();
    assert_eq!(ids, expected);
    assert_eq!(summary.records, count);
    assert_eq!(summary.ok + summary.parse_errors + summary.read_errors, count);
}

#[test]
fn the_summary_counts_errors_articles_unknown_commands_and_rules() {
    let (_, summary) = run(units(), &Options::default(), 2);
    let singles: Vec<usize> = (0..300).filter(|i| i % 7 < 5).collect();
    let parse_errors = singles.iter().filter(|i| (*i % 7) % 5 == 1).count();
    let foo = singles.iter().filter(|i| (*i % 7) % 5 == 4).count();
    assert_eq!(summary.read_errors, (0..300).filter(|i| i % 7 == 5).count());
    assert_eq!(summary.parse_errors, parse_errors);
    assert_eq!(summary.unknown_commands.top(1), vec![(r"\foo", foo)]);
    let sqrt = singles.iter().filter(|i| (*i % 7) % 5 == 0).count();
    assert_eq!(summary.articles.get(&40), Some(&sqrt), "article 40 (√d_k) is needed by each attention line");
    assert!(summary.ranked_articles().windows(2).all(|w| w[0].1 >= w[1].1));
    assert!(summary.never_fired.iter().all(|id| !summary.fired.contains(id)));
    assert_eq!(summary.never_fired.len() + summary.fired.len(), summary.rules);
    assert!(summary.fired.contains("index-sum") && !summary.never_fired.contains(&"index-sum".to_string()));
}

/// The JSON record of `latex` mapped in a document after `before`, or on its own.
fn mapped(before: Option<&str>, latex: &str) -> serde_json::Value {
    let mut inputs: Vec<Input> = before.iter().map(|b| input("before", Ok(b))).collect();
    inputs.push(input("it", Ok(latex)));
    let (out, _) = run(vec![Unit::Document(inputs)], &Options::default(), 1);
    let last = out.lines().last().unwrap_or("");
    serde_json::from_str(last).unwrap_or_else(|e| panic!("{e}: {last}"))
}

fn concepts_of(record: &serde_json::Value, latex: &str) -> Vec<String> {
    let slots = record["slots"].as_array().cloned().unwrap_or_default();
    slots
        .iter()
        .filter(|s| s["latex"].as_str().is_some_and(|l| l.split(", ").any(|part| part == latex)))
        .flat_map(|s| s["concepts"].as_array().cloned().unwrap_or_default())
        .filter_map(|c| c.as_str().map(str::to_string))
        .collect()
}

#[test]
fn a_declaration_carries_to_the_later_equations_of_a_document() {
    // Not `y = Wh`: what a matrix multiplies is a vector by use, declared or not.
    let alone = mapped(None, "y = h + 1");
    let declared = mapped(Some(r"h \in \mathbb{R}^{d}"), "y = h + 1");
    assert!(!concepts_of(&alone, "h").contains(&"notation.vector-symbols".to_string()), "{alone}");
    assert!(concepts_of(&declared, "h").contains(&"notation.vector-symbols".to_string()), "{declared}");
}

fn unknown_of(record: &serde_json::Value) -> Vec<String> {
    let slots = record["slots"].as_array().cloned().unwrap_or_default();
    slots
        .iter()
        .filter(|s| s["concepts"] == serde_json::json!(["unknown"]))
        .filter_map(|s| s["latex"].as_str().map(str::to_string))
        .collect()
}

#[test]
fn a_definition_carries_to_the_later_equations_of_a_document() {
    // A name no rule knows: the definition on the earlier line is what explains it.
    let call = r"\mathrm{head}_i = \mathrm{Blend}(QW_i, KW_i, VW_i)";
    let definition = r"\mathrm{Blend}(Q, K, V) = \mathrm{softmax}(QK^\top)V";
    let alone = mapped(None, call);
    let defined = mapped(Some(definition), call);
    assert!(unknown_of(&alone).contains(&r"\mathrm{Blend}".to_string()), "{alone}");
    assert!(!unknown_of(&defined).contains(&r"\mathrm{Blend}".to_string()), "{defined}");
}

#[test]
fn csv_has_a_header_and_one_well_quoted_row_per_record() {
    let tricky = r#"f(a, b) = \text{"quoted"}"#;
    let units = vec![
        Unit::Single(input("one", Ok(tricky))),
        Unit::Single(input("two", Ok(r"\frac{a}{"))),
        Unit::Single(input("three", Err("cannot read x.txt: gone"))),
    ];
    let (out, _) = run(units, &Options { format: Format::Csv, ..Options::default() }, 2);
    let mut reader = csv::Reader::from_reader(out.as_bytes());
    let header: Vec<String> =
        reader.headers().unwrap_or_else(|e| panic!("{e}")).iter().map(str::to_string).collect();
    assert_eq!(header, CSV_COLUMNS);
    let rows: Vec<csv::StringRecord> =
        reader.records().map(|r| r.unwrap_or_else(|e| panic!("{e}"))).collect();
    assert_eq!(rows.len(), 3);
    assert!(rows.iter().all(|r| r.len() == CSV_COLUMNS.len()));
    assert_eq!((&rows[0][0], &rows[0][3], &rows[0][4]), ("one", tricky, "true"));
    assert_eq!(&rows[1][4], "false");
    assert!(rows[1][5].contains("unclosed"), "{:?}", rows[1]);
    assert!(rows[2][5].contains("x.txt"));
}

#[test]
fn markdown_is_a_table_with_one_row_per_record() {
    let units =
        vec![Unit::Single(input("pipes", Ok(r"|x| + \|y\|"))), Unit::Single(input("bad", Ok(r"\frac{a}{")))];
    let (out, _) = run(units, &Options { format: Format::Markdown, lang: Lang::En, ..Options::default() }, 1);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    let cells = |line: &str| line.replace("\\|", "").matches('|').count();
    assert!(lines.iter().all(|l| cells(l) == 7), "{out}");
    assert!(lines[2].starts_with("| pipes | `") && lines[3].contains("| error |"), "{out}");
}

#[test]
fn counters_stay_bounded_and_keep_frequent_keys_exact() {
    let mut counter = Counter::default();
    for _ in 0..5 {
        counter.add(r"\frequent");
    }
    for i in 0..(3 * COUNTER_CAPACITY) {
        counter.add(&format!(r"\rare{i}"));
    }
    assert!(counter.len() <= COUNTER_CAPACITY);
    assert_eq!(counter.top(1), vec![(r"\frequent", 5)]);
    assert!(counter.dropped() > 0);
}
