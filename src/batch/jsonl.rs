//! JSON Lines records, written by hand.
//!
//! Most of a record's bytes are its slots' explanations (questions, math, places), which are
//! the same for every slot of a rule: they are written as escaped once when the knowledge
//! loads ([`crate::slotmap::Explanation::json_fields`]) and copied here. The record is the one
//! serde would write for the same fields, byte for byte (checked against serde_json by the
//! tests of this module).

use super::{Failure, Outcome};
use crate::slotmap::Slot;
use crate::syntax::ast::Span;
use std::fmt::Write;

/// The record of `outcome`, with its newline.
pub fn record(outcome: &Outcome) -> String {
    thread_local! {
        /// Where a thread writes its records before each is copied out at its exact length: a
        /// string grown or reserved per record is a large allocation, which makes the
        /// allocator sort its free lists every time.
        static BUFFER: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
    }
    BUFFER.with(|buffer| match buffer.try_borrow_mut() {
        Ok(mut out) => {
            out.clear();
            write_record(&mut out, outcome);
            out.as_str().to_owned()
        }
        Err(_) => {
            let mut out = String::new();
            write_record(&mut out, outcome);
            out
        }
    })
}

fn write_record(out: &mut String, outcome: &Outcome) {
    out.push_str("{\"id\":");
    string(out, &outcome.id);
    out.push_str(",\"source\":");
    string(out, &outcome.source);
    if let Some(line) = outcome.line {
        out.push_str(",\"line\":");
        number(out, line);
    }
    out.push_str(",\"latex\":");
    string(out, &outcome.latex);
    out.push_str(if outcome.is_ok() { ",\"ok\":true" } else { ",\"ok\":false" });
    match &outcome.result {
        Ok(map) => {
            out.push_str(",\"slots\":[");
            for (index, slot) in map.slots.iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                write_slot(out, slot);
            }
            out.push_str("],\"reading_path\":");
            numbers(out, &map.reading_path);
        }
        Err(failure) => write_error(out, failure),
    }
    out.push_str("}\n");
}

fn write_slot(out: &mut String, slot: &Slot) {
    out.push_str("{\"latex\":");
    string(out, &slot.latex);
    out.push_str(",\"span\":");
    match slot.span {
        Some(at) => span(out, at),
        None => out.push_str("null"),
    }
    out.push_str(",\"spans\":[");
    for (i, at) in slot.spans.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        span(out, *at);
    }
    out.push_str("],");
    out.push_str(slot.explanation.json_fields());
    out.push_str(if slot.visible { ",\"visible\":true}" } else { ",\"visible\":false}" });
}

fn write_error(out: &mut String, failure: &Failure) {
    out.push_str(",\"error\":{\"kind\":");
    string(out, failure.kind());
    out.push_str(",\"message\":");
    string(out, failure.message());
    if let Failure::Parse { span: at, opened, .. } = failure {
        out.push_str(",\"span\":");
        span(out, *at);
        if let Some(opened) = opened {
            out.push_str(",\"opened\":");
            span(out, *opened);
        }
    }
    out.push('}');
}

fn span(out: &mut String, span: Span) {
    out.push('[');
    number(out, span.start);
    out.push(',');
    number(out, span.end);
    out.push(']');
}

fn numbers(out: &mut String, values: &[u32]) {
    out.push('[');
    for (index, value) in values.iter().enumerate() {
        if index > 0 {
            out.push(',');
        }
        number(out, *value as usize);
    }
    out.push(']');
}

/// `value` in decimal (without the formatting machinery, which costs more than the digits).
fn number(out: &mut String, value: usize) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    let mut rest = value;
    loop {
        at -= 1;
        if let Some(digit) = digits.get_mut(at) {
            *digit = b'0' + (rest % 10) as u8;
        }
        rest /= 10;
        if rest == 0 || at == 0 {
            break;
        }
    }
    out.push_str(std::str::from_utf8(digits.get(at..).unwrap_or(&[])).unwrap_or("0"));
}

/// `text` as a JSON string, escaped as serde_json escapes: `"` and `\`, the control characters
/// (short forms where JSON has them, `\u00XX` otherwise); and the line separators U+2028,
/// U+2029 and U+0085, which line splitters break records at, as `crate::json` escapes them;
/// everything else as it is.
pub fn string(out: &mut String, text: &str) {
    out.push('"');
    let mut start = 0;
    let bytes = text.as_bytes();
    for (at, byte) in bytes.iter().copied().enumerate() {
        let separator = match (byte, bytes.get(at + 1), bytes.get(at + 2)) {
            (0xc2, Some(0x85), _) => Some(("\\u0085", 2)),
            (0xe2, Some(0x80), Some(0xa8)) => Some(("\\u2028", 3)),
            (0xe2, Some(0x80), Some(0xa9)) => Some(("\\u2029", 3)),
            _ => None,
        };
        if let Some((escape, width)) = separator {
            out.push_str(text.get(start..at).unwrap_or(""));
            out.push_str(escape);
            start = at + width;
            continue;
        }
        let escape = match byte {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x08 => "\\b",
            0x0c => "\\f",
            0..=0x1f => "",
            _ => continue,
        };
        out.push_str(text.get(start..at).unwrap_or(""));
        if escape.is_empty() {
            let _ = write!(out, "\\u{byte:04x}");
        } else {
            out.push_str(escape);
        }
        start = at + 1;
    }
    out.push_str(text.get(start..).unwrap_or(""));
    out.push('"');
}

#[cfg(test)]
mod tests {
    //! The hand-written record is serde_json's, byte for byte: both are written for every
    //! formula of the fixtures and the corpora, for parse and read errors, and for texts full
    //! of characters JSON escapes.

    use super::super::pipeline::{process_unit, Options};
    use super::super::{Failure, Input, Outcome, Unit};
    use crate::slotmap::{Knowledge, Slot};
    use crate::syntax::ast::Span;
    use crate::syntax::guard_tests::lines_in;
    use serde::Serialize;
    use std::path::Path;
    use std::sync::Arc;

    #[derive(Serialize)]
    struct JsonRecord<'a> {
        id: &'a str,
        source: &'a str,
        #[serde(skip_serializing_if = "Option::is_none")]
        line: Option<usize>,
        latex: &'a str,
        ok: bool,
        #[serde(skip_serializing_if = "Option::is_none")]
        error: Option<JsonError<'a>>,
        #[serde(skip_serializing_if = "Option::is_none")]
        slots: Option<&'a [Slot]>,
        #[serde(skip_serializing_if = "Option::is_none")]
        reading_path: Option<&'a [u32]>,
    }

    #[derive(Serialize)]
    struct JsonError<'a> {
        kind: &'static str,
        message: &'a str,
        #[serde(skip_serializing_if = "Option::is_none")]
        span: Option<Span>,
        #[serde(skip_serializing_if = "Option::is_none")]
        opened: Option<Span>,
    }

    /// The record as serde writes it from the outcome's fields.
    fn by_serde(outcome: &Outcome) -> String {
        let map = outcome.result.as_ref().ok();
        let error = outcome.result.as_ref().err().map(|failure| {
            let (span, opened) = match failure {
                Failure::Parse { span, opened, .. } => (Some(*span), *opened),
                Failure::Read { .. } => (None, None),
            };
            JsonError { kind: failure.kind(), message: failure.message(), span, opened }
        });
        let record = JsonRecord {
            id: &outcome.id,
            source: &outcome.source,
            line: outcome.line,
            latex: &outcome.latex,
            ok: outcome.is_ok(),
            error,
            slots: map.map(|m| m.slots.as_slice()),
            reading_path: map.map(|m| m.reading_path.as_slice()),
        };
        crate::json::compact(&record) + "\n"
    }

    proptest::proptest! {
        #[test]
        fn strings_are_escaped_as_serde_escapes_them(text in "(\\PC|[\\x00-\\x1f\"\\\\\u{85}\u{2028}\u{2029}])*") {
            let mut ours = String::new();
            super::string(&mut ours, &text);
            proptest::prop_assert_eq!(ours, crate::json::compact(&text));
        }
    }

    fn input(index: usize, content: Result<String, String>) -> Input {
        let line = (index % 3 != 0).then_some(index);
        Input { id: format!("f\"{index}\\\u{1}"), source: Arc::from("dir/\tfile"), line, content }
    }

    #[test]
    fn records_are_serde_jsons() {
        let Ok(knowledge) = Knowledge::default_knowledge() else {
            unreachable!("the shipped knowledge loads")
        };
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut formulas = Vec::new();
        for dir in
            ["tests/fixtures/seeds", "tests/fixtures/map", "tests/fixtures/errors", "../shared/corpus-real"]
        {
            formulas.extend(lines_in(&root.join(dir)));
        }
        formulas.extend([
            "a\u{0}b\"c\\d\u{1f}\u{7f}\n\r\t\u{8}\u{c}é→".to_string(),
            "\\frac{".to_string(),
            "x_".to_string(),
        ]);
        let mut units: Vec<Unit> = formulas
            .into_iter()
            .enumerate()
            .map(|(index, latex)| Unit::Single(input(index, Ok(latex))))
            .collect();
        units.push(Unit::Single(input(1, Err("cannot read \"x\"\u{2}".to_string()))));
        units.push(Unit::Document(vec![
            input(2, Ok("Q \\in \\mathbb{R}^{n \\times d_k}".to_string())),
            input(4, Ok("QK^\\top".to_string())),
        ]));
        let (mut compared, mut differing) = (0, Vec::new());
        for lang in [crate::Lang::Ko, crate::Lang::En] {
            let options = Options { lang, ..Options::default() };
            for unit in &units {
                for outcome in process_unit(unit, &knowledge, &options) {
                    let (ours, theirs) = (super::record(&outcome), by_serde(&outcome));
                    compared += 1;
                    if ours != theirs {
                        differing.push(format!("ours:   {ours}theirs: {theirs}"));
                    }
                }
            }
        }
        assert!(compared > 100, "too few records: {compared}");
        assert!(
            differing.is_empty(),
            "{} of {compared} records differ, e.g.\n{}",
            differing.len(),
            differing.iter().take(3).cloned().collect::<String>()
        );
    }
}
