//! The `eqmap` command: turns arguments into library calls and prints what they return.

mod cli;

use clap::Parser;
use cli::{
    BatchArgs, BatchFormat, Cli, Command, Common, CompareArgs, CompareFormat, LangArg, MapArgs, MapFormat,
    ParseArgs, ParseFormat, SummaryFormat,
};
use eqmap::batch::{output::Format, pipeline, readers::Reader, summary};
use eqmap::curriculum::Curriculum;
use eqmap::report::{diagnostic, slotmap as map_report, tree};
use eqmap::slotmap::{Knowledge, SlotMap};
use eqmap::{Lang, Limits};
use std::io::{self, IsTerminal, Read, Write};
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Parse(args) => run_parse(args),
        Command::Map(args) => run_map(args),
        Command::Compare(args) => run_compare(args),
        Command::Batch(args) => run_batch(args),
    };
    match result {
        Ok(code) => code,
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
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
            let mut text = String::new();
            io::stdin().read_to_string(&mut text)?;
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
fn load_knowledge(curriculum: &str) -> Result<Knowledge, String> {
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
fn screen_style() -> map_report::Style {
    let color = io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    map_report::Style { color, width: None }
}

/// Maps one formula, or prints its parse error and returns the exit code.
fn map_one(source: &str, knowledge: &Knowledge, lang: Lang) -> Result<SlotMap, ExitCode> {
    match eqmap::slotmap::map_source(source, knowledge, lang) {
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
    let map = match map_one(&source, &knowledge, lang) {
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
    let (first, second) =
        match (map_one(&args.first, &knowledge, lang), map_one(&args.second, &knowledge, lang)) {
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

fn run_parse(args: ParseArgs) -> io::Result<ExitCode> {
    let source = read_formula(args.formula)?;
    let lang = lang(&args.common);
    let parsed = match eqmap::parse_with(&source, &limits(&args.common)) {
        Ok(parsed) => parsed,
        Err(error) => {
            eprint!("{}", diagnostic::render_error(&source, &error, lang));
            return Ok(ExitCode::from(1));
        }
    };
    for warning in &parsed.warnings {
        eprint!("{}", diagnostic::render_warning(&source, warning, lang));
    }
    let text = match args.format {
        ParseFormat::Tree => tree::render_tree(&parsed.root),
        ParseFormat::Latex => format!("{}\n", eqmap::syntax::print::to_latex(&parsed.root)),
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
    if let Some(jobs) = args.jobs {
        if let Err(error) = rayon::ThreadPoolBuilder::new().num_threads(jobs).build_global() {
            eprintln!("eqmap: --jobs {jobs}: {error}");
            return Ok(ExitCode::from(2));
        }
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
