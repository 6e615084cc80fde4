//! The pipeline: units in bounded chunks, each chunk mapped in parallel and written in order.
//!
//! [`run`] pulls units from a reader until a chunk holds [`Options::chunk`] records (a
//! document is never split), maps the chunk with rayon's indexed parallel map — which keeps
//! input order — into outcomes and their output text, writes the text, adds the outcomes to
//! the summary, drops them, and only then pulls the next chunk. So at most one chunk of
//! records is in memory, whatever the size of the input, and the output is the same on any
//! number of threads.
//!
//! Within a document the formulas are processed in order with one [`SymbolTable`] that
//! learns from each formula before it is mapped: a declaration or a definition carries to the
//! equations after it. Separate formulas (lines, JSONL records) each get a table of their own.

use super::output::{Format, RecordWriter};
use super::summary::Summary;
use super::{Failure, Input, Outcome, Unit};
use crate::meaning::SymbolTable;
use crate::slotmap::{map_tree, Knowledge};
use crate::syntax::error::ParseError;
use crate::{Lang, Limits};
use rayon::prelude::*;
use std::io::{self, Write};

/// How a batch runs.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// Records per chunk (default 1024): with the chunk being written, the bound on records
    /// held in memory.
    pub chunk: usize,
    /// The language of questions, math and places in the slots.
    pub lang: Lang,
    /// Parse limits.
    pub limits: Limits,
    /// Output format.
    pub format: Format,
}

impl Default for Options {
    fn default() -> Self {
        Options { chunk: 1024, lang: Lang::En, limits: Limits::default(), format: Format::Jsonl }
    }
}

/// Annotates every unit of `units`, writing one record per input formula to `out` in input
/// order, and returns the summary. `progress` is called after each chunk with the number of
/// records written so far. Runs on the current rayon pool; while the pool maps a chunk, the
/// calling thread writes and counts the chunk before it, so two chunks at most are in memory.
pub fn run<W: Write>(
    mut units: impl Iterator<Item = Unit>,
    knowledge: &Knowledge,
    options: &Options,
    out: W,
    mut progress: impl FnMut(usize),
) -> io::Result<Summary> {
    let mut writer = RecordWriter::new(out, options.format);
    writer.start()?;
    let mut summary = Summary::new();
    let mut done: Vec<Vec<(Outcome, String)>> = Vec::new();
    std::thread::scope(|scope| -> io::Result<()> {
        loop {
            let chunk = next_chunk(&mut units, options.chunk);
            if chunk.is_empty() {
                return emit(done, &mut writer, &mut summary);
            }
            // The chunk is mapped on rayon's threads, whose stack the caller sizes (the binary
            // gives them `syntax::depth::stack_for` the limit in use), never on this one: rayon runs a
            // parallel iterator it does not split (one unit) on the calling thread, where a
            // formula at the depth ceiling overflowed the default stack.
            let mapping = scope.spawn(move || rayon::scope(|_| process_chunk(&chunk, knowledge, options)));
            let written = emit(std::mem::take(&mut done), &mut writer, &mut summary);
            done = mapping.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            written?;
            progress(summary.records);
        }
    })?;
    progress(summary.records);
    writer.finish()?;
    summary.finish(knowledge);
    Ok(summary)
}

/// The next units of `units`, up to `records` records (at least one unit; a document is never
/// split); empty at the end.
fn next_chunk(units: &mut impl Iterator<Item = Unit>, records: usize) -> Vec<Unit> {
    let mut chunk = Vec::new();
    let mut held = 0;
    while held < records.max(1) {
        let Some(unit) = units.next() else { break };
        held += unit.len();
        chunk.push(unit);
    }
    chunk
}

/// Writes a mapped chunk's records and counts them in the summary.
fn emit<W: Write>(
    done: Vec<Vec<(Outcome, String)>>,
    writer: &mut RecordWriter<W>,
    summary: &mut Summary,
) -> io::Result<()> {
    for (outcome, text) in done.iter().flatten() {
        summary.add(outcome);
        writer.record(text)?;
    }
    Ok(())
}

/// The outcomes of a chunk and their output text, in input order.
fn process_chunk(chunk: &[Unit], knowledge: &Knowledge, options: &Options) -> Vec<Vec<(Outcome, String)>> {
    chunk
        .par_iter()
        .map(|unit| {
            process_unit(unit, knowledge, options)
                .into_iter()
                .map(|outcome| {
                    let text = options.format.render(&outcome);
                    (outcome, text)
                })
                .collect()
        })
        .collect()
}

/// The outcomes of one unit: a document's formulas share one symbol table.
pub fn process_unit(unit: &Unit, knowledge: &Knowledge, options: &Options) -> Vec<Outcome> {
    match unit {
        Unit::Single(input) => vec![process(input, &mut SymbolTable::new(), knowledge, options)],
        Unit::Document(inputs) => {
            let mut table = SymbolTable::new();
            inputs.iter().map(|input| process(input, &mut table, knowledge, options)).collect()
        }
    }
}

/// One formula: parse, learn into `table`, map.
fn process(input: &Input, table: &mut SymbolTable, knowledge: &Knowledge, options: &Options) -> Outcome {
    let (latex, result) = match &input.content {
        Err(message) => (String::new(), Err(Failure::Read { message: message.clone() })),
        Ok(latex) => (latex.clone(), map_formula(latex, table, knowledge, options)),
    };
    Outcome { id: input.id.clone(), source: input.source.clone(), line: input.line, latex, result }
}

fn map_formula(
    latex: &str,
    table: &mut SymbolTable,
    knowledge: &Knowledge,
    options: &Options,
) -> Result<crate::slotmap::SlotMap, Failure> {
    let failure = |error: ParseError| Failure::Parse {
        message: error.message(Lang::En),
        span: error.span,
        opened: error.opened,
    };
    let parsed = crate::parse_with(latex, &options.limits).map_err(failure)?;
    table.learn(&parsed.root);
    table.set_max_depth(options.limits.max_depth);
    map_tree(latex, &parsed.root, parsed.warnings, table, knowledge, options.lang).map_err(failure)
}
