//! Output: one record per outcome, as JSONL, CSV or Markdown.
//!
//! - **JSONL**, one object a line: `{"id", "source", "line"?, "latex", "ok", "error"?,
//!   "slots"?, "reading_path"?}`. `slots` are the rows of `eqmap map --format json`; `error` is
//!   `{"kind": "parse", "message", "span": [start, end], "opened"?}` (message in English,
//!   span in bytes of `latex`) or `{"kind": "read", "message"}` (naming the file).
//! - **CSV** (RFC 4180: a header row, fields quoted when they hold `,`, `"` or a line break):
//!   `id,source,line,latex,ok,error,slots,known_slots,concepts,articles,unknown`, lists
//!   joined by `; ` (articles by spaces).
//! - **Markdown**: a table `| id | formula | ok | concepts | articles | unknown or error |`.
//!
//! Rendering a record is a pure function, so the pipeline renders in parallel and writes in
//! order.

use super::{Failure, Outcome};
use crate::slotmap::SlotMap;
use std::io::{self, Write};

/// An output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// One JSON object a line.
    Jsonl,
    /// Comma-separated values with a header row.
    Csv,
    /// A Markdown table.
    Markdown,
}

/// The CSV columns.
pub const CSV_COLUMNS: [&str; 11] = [
    "id",
    "source",
    "line",
    "latex",
    "ok",
    "error",
    "slots",
    "known_slots",
    "concepts",
    "articles",
    "unknown",
];

impl Format {
    /// What comes before the first record.
    pub fn header(self) -> String {
        match self {
            Format::Jsonl => String::new(),
            Format::Csv => format!("{}\n", CSV_COLUMNS.join(",")),
            Format::Markdown => "| id | formula | ok | concepts | articles | unknown or error |\n\
                                 |---|---|---|---|---|---|\n"
                .to_string(),
        }
    }

    /// One record, with its line ending.
    pub fn render(self, outcome: &Outcome) -> String {
        match self {
            Format::Jsonl => super::jsonl::record(outcome),
            Format::Csv => csv_row(outcome),
            Format::Markdown => markdown_row(outcome),
        }
    }
}

/// Writes a header, then records in the order given.
pub struct RecordWriter<W: Write> {
    out: W,
    format: Format,
}

impl<W: Write> RecordWriter<W> {
    /// A writer of `format` to `out`.
    pub fn new(out: W, format: Format) -> Self {
        RecordWriter { out, format }
    }

    /// Writes the header.
    pub fn start(&mut self) -> io::Result<()> {
        self.out.write_all(self.format.header().as_bytes())
    }

    /// Writes one rendered record.
    pub fn record(&mut self, text: &str) -> io::Result<()> {
        self.out.write_all(text.as_bytes())
    }

    /// Flushes the output.
    pub fn finish(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// The concept ids of a map, once each, in slot order.
pub fn concepts(map: &SlotMap) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    for concept in map.slots.iter().flat_map(|s| s.explanation.concepts.iter()) {
        if concept != "unknown" && !out.contains(&concept.as_str()) {
            out.push(concept);
        }
    }
    out
}

/// The summary columns of a record: slots, known slots, concepts, articles, unknown notation.
fn columns(outcome: &Outcome) -> [String; 5] {
    let Ok(map) = &outcome.result else { return Default::default() };
    let known = map.slots.iter().filter(|s| !s.is_unknown()).count();
    let articles: Vec<String> = map.reading_path.iter().map(u32::to_string).collect();
    [
        map.slots.len().to_string(),
        known.to_string(),
        concepts(map).join("; "),
        articles.join(" "),
        map.unknown_notation().collect::<Vec<_>>().join("; "),
    ]
}

fn csv_row(outcome: &Outcome) -> String {
    let error = outcome.result.as_ref().err().map(Failure::message).unwrap_or("");
    let line = outcome.line.map(|l| l.to_string()).unwrap_or_default();
    let [slots, known, concepts, articles, unknown] = columns(outcome);
    let ok = if outcome.is_ok() { "true" } else { "false" };
    let fields = [
        &*outcome.id,
        &*outcome.source,
        &line,
        &outcome.latex,
        ok,
        error,
        &slots,
        &known,
        &concepts,
        &articles,
        &unknown,
    ];
    let mut text = fields.iter().map(|f| csv_field(f)).collect::<Vec<_>>().join(",");
    text.push('\n');
    text
}

/// A CSV field, quoted when it must be (RFC 4180); invisible characters written as `U+XXXX`;
/// a field that a spreadsheet would take for a formula (starting with `=`, `+`, `-`, `@`, a
/// tab or a carriage return) guarded by a leading `'`, as OWASP advises.
pub fn csv_field(field: &str) -> String {
    let shown = crate::syntax::error::printable(field);
    let guard = if shown.starts_with(['=', '+', '-', '@', '\t', '\r']) { "'" } else { "" };
    if shown.contains([',', '"', '\n', '\r']) || !guard.is_empty() {
        format!("\"{guard}{}\"", shown.replace('"', "\"\""))
    } else {
        shown.into_owned()
    }
}

fn markdown_row(outcome: &Outcome) -> String {
    let [_, _, concepts, articles, unknown] = columns(outcome);
    let last = match &outcome.result {
        Ok(_) => unknown,
        Err(failure) => failure.message().to_string(),
    };
    let ok = if outcome.is_ok() { "ok" } else { "error" };
    format!(
        "| {} | {} | {ok} | {} | {} | {} |\n",
        markdown_cell(&outcome.id),
        markdown_code(&outcome.latex),
        markdown_cell(&concepts),
        markdown_cell(&articles),
        markdown_cell(&last)
    )
}

/// Text safe in a table cell: one line, `|` escaped, invisible characters written as
/// `U+XXXX`.
fn markdown_cell(text: &str) -> String {
    crate::syntax::error::printable(text).split_whitespace().collect::<Vec<_>>().join(" ").replace('|', "\\|")
}

/// A formula as a code span in a table cell.
fn markdown_code(latex: &str) -> String {
    if latex.is_empty() {
        return String::new();
    }
    let cell = markdown_cell(latex);
    let fence = if cell.contains('`') { "`` " } else { "`" };
    let close = if cell.contains('`') { " ``" } else { "`" };
    format!("{fence}{cell}{close}")
}
