//! The `eqmap` command: turns arguments into library calls and prints what they return.

#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod cli;
mod repl;

use clap::Parser;
use cli::{
    BatchArgs, BatchFormat, Cli, Command, Common, CompareArgs, CompareFormat, EvalArgs, EvalFormat, LangArg,
    MapArgs, MapFormat, ParseArgs, ParseFormat, ReadArgs, SummaryFormat,
};
use eqmap::batch::{output::Format, pipeline, readers::Reader, summary};
use eqmap::curriculum::Curriculum;
use eqmap::eval::{bindings, Options, Session};
use eqmap::report::{diagnostic, eval as eval_report, slotmap as map_report, tree};
use eqmap::slotmap::{Knowledge, SlotMap};
use eqmap::{Lang, Limits};
use std::io::{self, IsTerminal, Read, Write};
use std::process::ExitCode;

/// The allocator: mimalloc. Parsing and annotating make many small, short-lived allocations
/// (tree nodes, chains, bindings); with glibc's malloc they cost about a sixth of the work.
#[global_allocator]
static ALLOCATOR: eqmap::alloc::Allocator = eqmap::alloc::Allocator;

/// Stack of the thread that does the work: the layers after the parser walk trees recursively,
/// and a tree as deep as `--max-depth` allows (at most `Limits::MAX_DEPTH_CEILING`) must fit,
/// in a debug build too. Only the pages used are committed.
const WORK_STACK_BYTES: usize = 64 * 1024 * 1024;

fn main() -> ExitCode {
    let cli = Cli::parse_from(cli::flags_before_double_dash(std::env::args_os().collect()));
    let worker =
        std::thread::Builder::new().name("eqmap".into()).stack_size(WORK_STACK_BYTES).spawn(move || run(cli));
    match worker.map(std::thread::JoinHandle::join) {
        Ok(Ok(code)) => code,
        Ok(Err(_)) => ExitCode::from(101),
        Err(error) => {
            eprintln!("eqmap: cannot start: {error}");
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> ExitCode {
    let result = match cli.command {
        Some(Command::Parse(args)) => run_parse(args),
        Some(Command::Map(args)) => run_map(args),
        Some(Command::Compare(args)) => run_compare(args),
        Some(Command::Eval(args)) => run_eval(args),
        Some(Command::Read(args)) => run_read(args),
        Some(Command::Batch(args)) => run_batch(args),
        None if io::stdin().is_terminal() => repl::run(screen_style()),
        None => {
            eprintln!("eqmap: give a command (map, read, parse, compare, …) or run it on a terminal for a prompt; see eqmap --help");
            Ok(ExitCode::from(2))
        }
    };
    match result {
        Ok(code) => code,
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(error) if error.kind() == io::ErrorKind::InvalidData => {
            eprintln!("eqmap: {error}");
            ExitCode::from(1)
        }
        Err(error) => {
            eprintln!("eqmap: {error}");
            ExitCode::from(2)
        }
    }
}

fn lang(common: &Common) -> Lang {
    match common.lang {
        LangArg::Ko => Lang::Ko,
        LangArg::En => Lang::En,
    }
}

fn limits(common: &Common) -> Limits {
    Limits { max_bytes: common.max_bytes, max_depth: common.max_depth, ..Limits::default() }
}

/// The formula from the argument, or from standard input when it is `-` or absent.
fn read_formula(argument: Option<String>) -> io::Result<String> {
    match argument {
        Some(formula) if formula != "-" => Ok(formula),
        _ => {
            let mut bytes = Vec::new();
            io::stdin().read_to_end(&mut bytes)?;
            let text = String::from_utf8(bytes).map_err(|error| {
                let at = error.utf8_error().valid_up_to();
                let byte = error.as_bytes().get(at).copied().unwrap_or(0);
                io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!(
                        "standard input is not UTF-8: byte 0x{byte:02X} at offset {at} starts no character"
                    ),
                )
            })?;
            Ok(text.trim_end_matches(['\n', '\r']).to_string())
        }
    }
}

/// The formula `map` uses when given none on a terminal: the attention line of the seeds.
const DEFAULT_FORMULA: &str =
    r"\mathrm{Attention}(Q, K, V) = \mathrm{softmax}\!\left(\frac{QK^\top}{\sqrt{d_k}}\right)V";

/// The formula from the argument; standard input for `-`; without an argument, a pipe's
/// content or, on a terminal or an empty pipe, the attention line.
fn formula_or_default(argument: Option<String>) -> io::Result<String> {
    match argument {
        Some(formula) if formula != "-" => Ok(formula),
        Some(_) => read_formula(None),
        None if io::stdin().is_terminal() => Ok(DEFAULT_FORMULA.to_string()),
        None => {
            let text = read_formula(None)?;
            Ok(if text.trim().is_empty() { DEFAULT_FORMULA.to_string() } else { text })
        }
    }
}

/// The curriculum named (shipped) or the file given.
pub(crate) fn load_knowledge(curriculum: &str) -> Result<Knowledge, String> {
    let loaded = match Curriculum::shipped(curriculum) {
        Some(shipped) => shipped?,
        None => {
            let text = std::fs::read_to_string(curriculum)
                .map_err(|e| format!("curriculum `{curriculum}`: not a shipped name (ai-math, transformer-series) nor a readable file: {e}"))?;
            Curriculum::load(&text).map_err(|e| format!("{curriculum}: {e}"))?
        }
    };
    Knowledge::shipped(loaded)
}

/// Colour only on a terminal, and never when `NO_COLOR` is set.
pub(crate) fn screen_style() -> map_report::Style {
    let color = io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    map_report::Style { color, width: None }
}

/// Maps one formula, or prints its parse error and returns the exit code.
fn map_one(source: &str, knowledge: &Knowledge, lang: Lang, limits: &Limits) -> Result<SlotMap, ExitCode> {
    match eqmap::slotmap::map_source_with(source, knowledge, lang, limits) {
        Ok(map) => {
            for warning in &map.warnings {
                eprint!("{}", diagnostic::render_warning(source, warning, lang));
            }
            Ok(map)
        }
        Err(error) => {
            eprint!("{}", diagnostic::render_error(source, &error, lang));
            Err(ExitCode::from(1))
        }
    }
}

fn run_map(args: MapArgs) -> io::Result<ExitCode> {
    let lang = lang(&args.common);
    let knowledge = match load_knowledge(&args.curriculum) {
        Ok(knowledge) => knowledge,
        Err(message) => {
            eprintln!("eqmap: {message}");
            return Ok(ExitCode::from(2));
        }
    };
    let source = formula_or_default(args.formula)?;
    let map = match map_one(&source, &knowledge, lang, &limits(&args.common)) {
        Ok(map) => map,
        Err(code) => return Ok(code),
    };
    let text = match args.format {
        MapFormat::Table => map_report::render_table(&map, lang, screen_style()),
        MapFormat::Markdown => map_report::render_markdown(&map, lang),
        MapFormat::Json => map_report::render_json(&map),
    };
    io::stdout().write_all(text.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}

fn run_compare(args: CompareArgs) -> io::Result<ExitCode> {
    let lang = lang(&args.common);
    let knowledge = match load_knowledge(&args.curriculum) {
        Ok(knowledge) => knowledge,
        Err(message) => {
            eprintln!("eqmap: {message}");
            return Ok(ExitCode::from(2));
        }
    };
    let limits = limits(&args.common);
    let (first, second) = match (
        map_one(&args.first, &knowledge, lang, &limits),
        map_one(&args.second, &knowledge, lang, &limits),
    ) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(code), _) | (_, Err(code)) => return Ok(code),
    };
    let comparison = eqmap::slotmap::compare(&first, &second);
    let text = match args.format {
        CompareFormat::Table => {
            map_report::render_comparison(&first, &second, &comparison, &knowledge.curriculum, lang)
        }
        CompareFormat::Json => format!("{}\n", serde_json::to_string_pretty(&comparison).unwrap_or_default()),
    };
    io::stdout().write_all(text.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}

/// Parses `source`, printing warnings, or the error with its caret (then `None`).
fn parse_or_report(source: &str, common: &Common) -> Option<eqmap::Parsed> {
    let lang = lang(common);
    match eqmap::parse_with(source, &limits(common)) {
        Ok(parsed) => {
            for warning in &parsed.warnings {
                eprint!("{}", diagnostic::render_warning(source, warning, lang));
            }
            Some(parsed)
        }
        Err(error) => {
            eprint!("{}", diagnostic::render_error(source, &error, lang));
            None
        }
    }
}

fn run_parse(args: ParseArgs) -> io::Result<ExitCode> {
    let source = read_formula(args.formula)?;
    let Some(parsed) = parse_or_report(&source, &args.common) else { return Ok(ExitCode::from(1)) };
    let text = match args.format {
        ParseFormat::Tree => tree::render_tree(&parsed.root),
        ParseFormat::Latex => format!("{}\n", eqmap::syntax::print::to_latex(&parsed.root)),
        ParseFormat::Meaning => {
            let table = eqmap::meaning::SymbolTable::from_formula(&parsed.root);
            format!("{}\n", eqmap::meaning::outline(&eqmap::meaning::resolve(&parsed.root, &table)))
        }
        ParseFormat::Json => {
            let value = serde_json::json!({
                "formula": source,
                "latex": eqmap::syntax::print::to_latex(&parsed.root),
                "tree": parsed.root,
                "warnings": parsed.warnings,
            });
            format!("{}\n", serde_json::to_string_pretty(&value).unwrap_or_default())
        }
    };
    io::stdout().write_all(text.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}

/// The formulas of `eval`: the argument, or the non-empty lines of standard input.
fn read_formulas(argument: Option<String>) -> io::Result<Vec<String>> {
    match argument {
        Some(formula) if formula != "-" => Ok(vec![formula]),
        _ => {
            let text = read_formula(None)?;
            Ok(text
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty() && !l.starts_with('%'))
                .map(String::from)
                .collect())
        }
    }
}

/// Applies `--let` and `--dim`; on bad input prints the diagnostic and returns `false`.
fn bind_arguments(session: &mut Session, args: &EvalArgs, lang: Lang) -> io::Result<bool> {
    for argument in &args.lets {
        let (name, text) = match bindings::split_assignment(argument) {
            Ok(parts) => parts,
            Err(error) => return report_binding(argument, &error, lang),
        };
        let text = match text.strip_prefix('@') {
            Some(path) => match std::fs::read_to_string(path) {
                Ok(contents) => contents,
                Err(error) => {
                    eprintln!("eqmap: --let {name}=@{path}: {error}");
                    return Ok(false);
                }
            },
            None => text.to_string(),
        };
        if let Err(error) = session.bind_json(name, &text) {
            return report_binding(&text, &error, lang);
        }
    }
    for argument in &args.dims {
        let bound = bindings::split_assignment(argument)
            .and_then(|(name, text)| bindings::dimension_size(name, text).map(|size| (name, size)));
        match bound {
            Ok((name, size)) => session.set_dim(name, size),
            Err(error) => return report_binding(argument, &error, lang),
        }
    }
    Ok(true)
}

fn report_binding(source: &str, error: &eqmap::eval::EvalError, lang: Lang) -> io::Result<bool> {
    eprint!("{}", eval_report::render_error(source, error, lang));
    Ok(false)
}

fn run_eval(args: EvalArgs) -> io::Result<ExitCode> {
    let lang = lang(&args.common);
    let options = Options {
        seed: args.seed,
        max_elements: args.max_elements,
        max_steps: args.max_steps,
        trace: args.trace,
        limits: limits(&args.common),
    };
    let mut session = Session::new(options);
    if !bind_arguments(&mut session, &args, lang)? {
        return Ok(ExitCode::from(1));
    }
    let formulas = read_formulas(args.formula.clone())?;
    let many = formulas.len() > 1;
    let mut stdout = io::stdout().lock();
    for formula in &formulas {
        let outcome = match session.evaluate(formula) {
            Ok(outcome) => outcome,
            Err(failure) => {
                stdout.flush()?;
                eprint!("{}", eval_report::render_failure(formula, &failure, lang));
                return Ok(ExitCode::from(1));
            }
        };
        eprint!("{}", eval_report::render_warnings(&outcome, lang));
        let text = match args.format {
            EvalFormat::Json => format!("{}\n", eval_report::to_json(&outcome)),
            EvalFormat::Table if many => {
                format!("> {formula}\n{}\n", eval_report::render_table(&outcome, lang))
            }
            EvalFormat::Table => eval_report::render_table(&outcome, lang),
        };
        stdout.write_all(text.as_bytes())?;
    }
    Ok(ExitCode::SUCCESS)
}

fn run_read(args: ReadArgs) -> io::Result<ExitCode> {
    let source = read_formula(args.formula)?;
    let lang = lang(&args.common);
    let Some(parsed) = parse_or_report(&source, &args.common) else { return Ok(ExitCode::from(1)) };
    let table = eqmap::meaning::SymbolTable::from_formula(&parsed.root);
    let reading = eqmap::speak::read(&parsed.root, &source, &table, lang);
    io::stdout().write_all(format!("{reading}\n").as_bytes())?;
    Ok(ExitCode::SUCCESS)
}

/// A spinner with the count of records on standard error, on a terminal only.
fn progress_bar() -> indicatif::ProgressBar {
    if !io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new_spinner();
    if let Ok(style) =
        indicatif::ProgressStyle::with_template("{spinner} {human_pos} formulas annotated ({elapsed})")
    {
        bar.set_style(style);
    }
    bar.enable_steady_tick(std::time::Duration::from_millis(120));
    bar
}

/// Where the records go: `--out FILE` or standard output.
fn record_output(path: Option<&std::path::Path>) -> io::Result<Box<dyn Write>> {
    Ok(match path {
        Some(path) => Box::new(io::BufWriter::new(std::fs::File::create(path)?)),
        None => Box::new(io::BufWriter::with_capacity(1 << 16, io::stdout())),
    })
}

fn batch_options(args: &BatchArgs) -> pipeline::Options {
    let format = match args.format {
        BatchFormat::Jsonl => Format::Jsonl,
        BatchFormat::Csv => Format::Csv,
        BatchFormat::Markdown => Format::Markdown,
    };
    pipeline::Options { chunk: args.chunk, lang: lang(&args.common), limits: limits(&args.common), format }
}

fn run_batch(args: BatchArgs) -> io::Result<ExitCode> {
    let knowledge = match load_knowledge(&args.curriculum) {
        Ok(knowledge) => knowledge,
        Err(message) => {
            eprintln!("eqmap: {message}");
            return Ok(ExitCode::from(2));
        }
    };
    // The worker threads walk trees as deep as the main work thread does, so they get its stack.
    let pool =
        rayon::ThreadPoolBuilder::new().num_threads(args.jobs.unwrap_or(0)).stack_size(WORK_STACK_BYTES);
    if let Err(error) = pool.build_global() {
        eprintln!("eqmap: --jobs {}: {error}", args.jobs.unwrap_or(0));
        return Ok(ExitCode::from(2));
    }
    let out = match record_output(args.out.as_deref()) {
        Ok(out) => out,
        Err(error) => {
            eprintln!(
                "eqmap: cannot write {}: {error}",
                args.out.as_deref().unwrap_or(std::path::Path::new("-")).display()
            );
            return Ok(ExitCode::from(2));
        }
    };
    let paths = if args.paths.is_empty() { vec![std::path::PathBuf::from("-")] } else { args.paths.clone() };
    let mut reader = Reader::new(&paths);
    let bar = progress_bar();
    let options = batch_options(&args);
    let mut result = pipeline::run(&mut reader, &knowledge, &options, out, |n| bar.set_position(n as u64))?;
    bar.finish_and_clear();
    result.skipped = reader.skipped();
    let lang = options.lang;
    let text = match args.summary_format {
        SummaryFormat::Text => summary::render_text(&result, &knowledge, lang, args.top),
        SummaryFormat::Json => summary::render_json(&result, &knowledge, lang, args.top),
    };
    match &args.summary {
        Some(path) => std::fs::write(path, text)?,
        None => io::stderr().write_all(text.as_bytes())?,
    }
    Ok(if args.strict && result.failed() > 0 { ExitCode::from(1) } else { ExitCode::SUCCESS })
}
