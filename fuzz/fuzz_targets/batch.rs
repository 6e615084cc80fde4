//! Any bytes → the batch readers → the batch pipeline: every input formula gives exactly one
//! record (ok or an error), rendered as JSONL, CSV and Markdown, never a panic.
//!
//! The first byte picks the reader: a file of one formula a line, a JSONL file, a `.tex`
//! document or a `.md` document. Line and JSONL files go through `readers::Reader` from a file
//! in /dev/shm (the readers stream from files); documents through `readers::document_inputs`.
#![no_main]

use eqmap::batch::extract::Flavor;
use eqmap::batch::output::Format;
use eqmap::batch::pipeline::{process_unit, Options};
use eqmap::batch::readers::{document_inputs, Reader};
use eqmap::batch::Unit;
use eqmap::slotmap::Knowledge;
use libfuzzer_sys::fuzz_target;
use std::sync::{Arc, OnceLock};

fn knowledge() -> &'static Knowledge {
    static KNOWLEDGE: OnceLock<Knowledge> = OnceLock::new();
    KNOWLEDGE.get_or_init(|| match Knowledge::default_knowledge() {
        Ok(k) => k,
        Err(e) => panic!("shipped knowledge does not load: {e}"),
    })
}

fn check(unit: &Unit) {
    let options = Options::default();
    let outcomes = process_unit(unit, knowledge(), &options);
    assert_eq!(outcomes.len(), unit.len(), "a record was lost or invented");
    for outcome in &outcomes {
        for format in [Format::Jsonl, Format::Csv, Format::Markdown] {
            let text = format.render(outcome);
            if format == Format::Jsonl {
                let parsed: Result<serde_json::Value, _> = serde_json::from_str(text.trim_end());
                assert!(parsed.is_ok(), "a JSONL record is not JSON: {text:?}");
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&selector, body)) = data.split_first() else { return };
    match selector % 4 {
        kind @ (0 | 1) => {
            let extension = if kind == 0 { "txt" } else { "jsonl" };
            let path =
                std::env::temp_dir().join(format!("eqmap-fuzz-batch-{}.{extension}", std::process::id()));
            if std::fs::write(&path, body).is_err() {
                return;
            }
            let lines = body.split(|b| *b == b'\n').count();
            let mut records = 0;
            for unit in Reader::new(&[&path]) {
                records += unit.len();
                check(&unit);
            }
            // At most one record a line (blank lines give none).
            assert!(records <= lines, "{records} records from {lines} lines");
        }
        kind => {
            let Ok(text) = std::str::from_utf8(body) else { return };
            let flavor = if kind == 2 { Flavor::Tex } else { Flavor::Markdown };
            let inputs = document_inputs(text, flavor, &Arc::from("fuzz.tex"));
            if !inputs.is_empty() {
                check(&Unit::Document(inputs));
            }
        }
    }
});
