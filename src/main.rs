//! The `eqmap` command: turns arguments into library calls and prints what they return.

#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

// The printing macros of std panic when the stream fails (a full disk behind standard error,
// a closed pipe); these, which shadow them in the binary, lose the text instead.
/// `eprint!` that never panics.
macro_rules! eprint {
    ($($arg:tt)*) => {{
        let _ = std::io::Write::write_fmt(&mut std::io::stderr(), format_args!($($arg)*));
    }};
}
/// `eprintln!` that never panics.
macro_rules! eprintln {
    ($($arg:tt)*) => {{
        let _ = std::io::Write::write_fmt(&mut std::io::stderr(), format_args!("{}\n", format_args!($($arg)*)));
    }};
}
/// `print!` that never panics.
macro_rules! print {
    ($($arg:tt)*) => {{
        let _ = std::io::Write::write_fmt(&mut std::io::stdout(), format_args!($($arg)*));
    }};
}
/// `println!` that never panics.
macro_rules! println {
    ($($arg:tt)*) => {{
        let _ = std::io::Write::write_fmt(&mut std::io::stdout(), format_args!("{}\n", format_args!($($arg)*)));
    }};
}

mod cli;
mod formulas;
mod grad_command;
mod repl;
mod serve;

use clap::Parser;
use cli::{
    BatchArgs, BatchFormat, Cli, Command, Common, CompareArgs, CompareFormat, EvalArgs, EvalFormat, LangArg,
    MapArgs, MapFormat, ParseArgs, ParseFormat, ReadArgs, SummaryFormat, VerbosityArg,
};
use eqmap::batch::{output::Format, pipeline, readers, readers::Reader, summary};
use eqmap::curriculum::Curriculum;
use eqmap::eval::{bindings, Failure, Options, Session};
use eqmap::report::{eval as eval_report, slotmap as map_report, tree};
use eqmap::slotmap::{Knowledge, SlotMap};
use eqmap::syntax::error::printable;
use eqmap::{Lang, Limits};
use formulas::Input;
use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;

/// The allocator: mimalloc. Parsing and annotating make many small, short-lived allocations
/// (tree nodes, chains, bindings); with glibc's malloc they cost about a sixth of the work.
#[global_allocator]
static ALLOCATOR: eqmap::alloc::Allocator = eqmap::alloc::Allocator;

/// Stack of a thread that does the work for a command whose nesting limit is `max_depth`: the
/// layers after the parser walk trees recursively, and a tree as deep as `--max-depth` allows
/// (at most `Limits::MAX_DEPTH_CEILING`) must fit, in a debug build too. Sized from the limit
/// in use, not the ceiling, so that batch's threads start within a small address space at the
/// default limit. Only the pages used are committed.
pub(crate) fn work_stack_bytes(max_depth: usize) -> usize {
    eqmap::syntax::depth::stack_for(max_depth)
}

/// "for --max-depth N" when the limit is not the default, to say why a stack is as large as it is.
pub(crate) fn for_depth(max_depth: usize) -> String {
    if max_depth == eqmap::syntax::depth::DEFAULT_MAX_DEPTH {
        String::new()
    } else {
        format!(" (for --max-depth {})", max_depth.min(Limits::MAX_DEPTH_CEILING))
    }
}

fn main() -> ExitCode {
    eqmap::alloc::limit_reservations();
    let cli = Cli::parse_from(cli::flags_before_double_dash(std::env::args_os().collect()));
    // Whether to colour is decided here, per stream (on a terminal, without NO_COLOR); the
    // library colours only what it is told to.
    colored::control::set_override(true);
    let max_depth = cli.max_depth();
    let stack = work_stack_bytes(max_depth);
    let worker = std::thread::Builder::new().name("eqmap".into()).stack_size(stack).spawn(move || run(cli));
    match worker.map(std::thread::JoinHandle::join) {
        Ok(Ok(code)) => code,
        Ok(Err(_)) => ExitCode::from(101),
        Err(error) => {
            eprintln!(
                "eqmap: cannot start the work thread with {} MiB of stack{}: {error}; allow more address space{}",
                stack >> 20,
                for_depth(max_depth),
                if max_depth > eqmap::syntax::depth::DEFAULT_MAX_DEPTH { " or lower --max-depth" } else { "" }
            );
            ExitCode::from(2)
        }
    }
}

fn run(mut cli: Cli) -> ExitCode {
    cli.lang_before_command_applies();
    let result = match cli.command {
        Some(Command::Parse(args)) => run_parse(args),
        Some(Command::Map(args)) => run_map(args),
        Some(Command::Compare(args)) => run_compare(args),
        Some(Command::Eval(args)) => run_eval(args),
        Some(Command::Grad(args)) => grad_command::run(args),
        Some(Command::Read(args)) => run_read(args),
        Some(Command::Batch(args)) => run_batch(args),
        Some(Command::Serve(args)) => serve::run(args),
        None if io::stdin().is_terminal() => repl::run(chosen_lang(cli.lang.map(lang_of))),
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
    chosen_lang(common.lang.map(lang_of))
}

/// The language of a command or of the prompt: its `--lang`, else `EQMAP_LANG`, else Korean.
fn chosen_lang(flag: Option<Lang>) -> Lang {
    flag.or_else(|| std::env::var("EQMAP_LANG").ok().and_then(|code| Lang::from_code(code.trim())))
        .unwrap_or_default()
}

fn lang_of(code: LangArg) -> Lang {
    match code {
        LangArg::Ko => Lang::Ko,
        LangArg::En => Lang::En,
    }
}

fn limits(common: &Common) -> Limits {
    Limits { max_bytes: common.max_bytes, max_depth: common.max_depth, ..Limits::default() }
}

/// The formula `map` uses when given none on a terminal: the attention line of the seeds.
const DEFAULT_FORMULA: &str =
    r"\mathrm{Attention}(Q, K, V) = \mathrm{softmax}\!\left(\frac{QK^\top}{\sqrt{d_k}}\right)V";

/// The curriculum named (shipped) or the file given.
/// The largest curriculum file read (the shipped ones are some tens of kilobytes).
const MAX_CURRICULUM_BYTES: u64 = 16 << 20;

/// The largest `--let NAME=@FILE` read (far past what `--max-elements` lets through).
const MAX_BINDING_FILE_BYTES: u64 = 64 << 20;

/// A regular file's text, read through a bound: a FIFO, a device or a socket is refused
/// unopened, a file whose size is over `limit` bytes too, and one that grows past it while it
/// is read is refused after reading at most one byte past it.
pub(crate) fn read_small_file(path: &std::path::Path, limit: u64) -> Result<String, String> {
    let metadata = std::fs::metadata(path).map_err(|e| e.to_string())?;
    if !metadata.is_file() {
        return Err("not a regular file (a pipe, device or socket is not read)".to_string());
    }
    if metadata.len() > limit {
        return Err(format!("larger than {limit} bytes"));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|file| io::Read::read_to_end(&mut io::Read::take(file, limit + 1), &mut bytes))
        .map_err(|e| e.to_string())?;
    if bytes.len() as u64 > limit {
        return Err(format!("larger than {limit} bytes"));
    }
    String::from_utf8(bytes).map_err(|_| "not UTF-8".to_string())
}

pub(crate) fn load_knowledge(curriculum: &str) -> Result<Knowledge, String> {
    let loaded = match Curriculum::shipped(curriculum) {
        Some(shipped) => shipped?,
        None => {
            let text = read_small_file(std::path::Path::new(curriculum), MAX_CURRICULUM_BYTES)
                .map_err(|e| format!("curriculum `{curriculum}`: not a shipped name (ai-math, transformer-series) nor a readable file: {e}"))?;
            Curriculum::load(&text).map_err(|e| format!("{curriculum}: {e}"))?
        }
    };
    Knowledge::shipped(loaded)
}

/// Colour only on a terminal, and never when `NO_COLOR` is set.
pub(crate) fn screen_style() -> map_report::Style {
    map_report::Style { color: formulas::color_on(&io::stdout()), width: None }
}

/// Maps one pasted formula, printing its warnings, or prints its error (then `None`).
fn map_one(input: &Input, knowledge: &Knowledge, lang: Lang, limits: &Limits) -> Option<SlotMap> {
    match eqmap::slotmap::map_pasted(&input.text, knowledge, lang, limits) {
        Ok(map) => {
            input.warn(&map.warnings, lang);
            Some(map)
        }
        Err(error) => {
            input.fail(&error, lang);
            None
        }
    }
}

/// The exit code of a run over formulas: 1 if any failed.
fn exit_code(failed: bool) -> ExitCode {
    if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// The text shown before each of several formulas' results in a table.
fn heading(input: &Input, many: bool) -> String {
    if many {
        format!("> {}\n", printable(&input.text))
    } else {
        String::new()
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
    let inputs = formulas::inputs_or_default(args.formula, args.whole, DEFAULT_FORMULA)?;
    let many = inputs.len() > 1;
    let mut failed = false;
    let mut stdout = io::stdout().lock();
    for input in &inputs {
        let Some(map) = map_one(input, &knowledge, lang, &limits(&args.common)) else {
            failed = true;
            continue;
        };
        let text = match args.format {
            MapFormat::Table => {
                heading(input, many)
                    + &map_report::render_table(&map_report::printable(&map), lang, screen_style())
            }
            MapFormat::Markdown => {
                heading(input, many) + &map_report::render_markdown(&map_report::printable(&map), lang)
            }
            MapFormat::Json if many => format!("{}\n", eqmap::json::compact(&map)),
            MapFormat::Json => map_report::render_json(&map),
        };
        stdout.write_all(text.as_bytes())?;
        stdout.flush()?;
    }
    Ok(exit_code(failed))
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
    let first = Input { line: 1, text: args.first };
    let second = Input { line: 1, text: args.second };
    let (first, second) =
        match (map_one(&first, &knowledge, lang, &limits), map_one(&second, &knowledge, lang, &limits)) {
            (Some(a), Some(b)) => (a, b),
            _ => return Ok(ExitCode::from(1)),
        };
    let comparison = eqmap::slotmap::compare(&first, &second);
    let text = match args.format {
        CompareFormat::Table => {
            map_report::render_comparison(&first, &second, &comparison, &knowledge.curriculum, lang)
        }
        CompareFormat::Json => format!("{}\n", eqmap::json::pretty(&comparison)),
    };
    io::stdout().write_all(text.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}

/// Prepares and parses one pasted formula, printing its warnings, or prints its error (then
/// `None`).
fn parse_one(input: &Input, common: &Common) -> Option<(eqmap::paste::Pasted, eqmap::Parsed)> {
    let lang = lang(common);
    match eqmap::paste::parse(&input.text, &limits(common)) {
        Ok((pasted, parsed)) => {
            input.warn(&pasted.all_warnings(&parsed.warnings), lang);
            Some((pasted, parsed))
        }
        Err(error) => {
            input.fail(&error, lang);
            None
        }
    }
}

/// One parsed formula as `parse` prints it.
fn parse_text(
    input: &Input,
    pasted: &eqmap::paste::Pasted,
    parsed: &eqmap::Parsed,
    args: &ParseArgs,
    many: bool,
) -> String {
    match args.format {
        ParseFormat::Tree => heading(input, many) + &tree::render_tree(&parsed.root),
        ParseFormat::Latex => format!("{}\n", printable(&eqmap::syntax::print::to_latex(&parsed.root))),
        ParseFormat::Meaning => {
            let mut table = eqmap::meaning::SymbolTable::from_formula(&parsed.root);
            table.set_max_depth(args.common.max_depth);
            format!("{}\n", eqmap::meaning::outline(&eqmap::meaning::resolve(&parsed.root, &table)))
        }
        ParseFormat::Mathml => format!(
            "{}\n",
            eqmap::report::mathml::to_mathml_mapped(&parsed.root, &|span| pasted.original(span))
        ),
        ParseFormat::Json => {
            let latex = eqmap::syntax::print::to_latex(&parsed.root);
            let warnings = pasted.all_warnings(&parsed.warnings);
            let record = parse_record(&input.text, pasted, parsed, &latex, &warnings);
            let mut text = if many { eqmap::json::compact(&record) } else { eqmap::json::pretty(&record) };
            text.push('\n');
            text
        }
    }
}

/// What `parse --format json` prints for one formula (`eqmap serve` answers with it too), the
/// tree streamed: `latex` is the tree printed back, `warnings` the pasted text's and the
/// parser's together.
pub(crate) fn parse_record<'a>(
    formula: &'a str,
    pasted: &'a eqmap::paste::Pasted,
    parsed: &'a eqmap::Parsed,
    latex: &'a str,
    warnings: &'a [eqmap::syntax::error::Warning],
) -> eqmap::report::tree_json::ParseRecord<'a> {
    eqmap::report::tree_json::ParseRecord {
        formula,
        read: &pasted.text,
        latex,
        tree: &parsed.root,
        warnings,
        mathml: None,
    }
}

fn run_parse(args: ParseArgs) -> io::Result<ExitCode> {
    let inputs = formulas::inputs(args.formula.clone(), args.whole)?;
    let many = inputs.len() > 1;
    each_parsed(&inputs, &args.common, |input, pasted, parsed| parse_text(input, pasted, parsed, &args, many))
}

/// Parses each input, writing what `render` makes of it to standard output as it goes; a
/// formula that does not parse is reported (by [`parse_one`]) and the rest still run.
fn each_parsed(
    inputs: &[Input],
    common: &Common,
    mut render: impl FnMut(&Input, &eqmap::paste::Pasted, &eqmap::Parsed) -> String,
) -> io::Result<ExitCode> {
    let mut failed = false;
    let mut stdout = io::stdout().lock();
    for input in inputs {
        let Some((pasted, parsed)) = parse_one(input, common) else {
            failed = true;
            continue;
        };
        stdout.write_all(render(input, &pasted, &parsed).as_bytes())?;
        stdout.flush()?;
    }
    Ok(exit_code(failed))
}

/// Applies `--let` and `--dim`; on bad input prints the diagnostic and returns `false`.
fn bind_arguments(session: &mut Session, args: &EvalArgs, lang: Lang) -> io::Result<bool> {
    bind_values(session, &args.values.lets, &args.values.dims, lang)
}

/// Applies `--let` values and `--dim` sizes; on bad input prints the diagnostic and returns
/// `false`.
fn bind_values(session: &mut Session, lets: &[String], dims: &[String], lang: Lang) -> io::Result<bool> {
    for argument in lets {
        let (name, text) = match bindings::split_assignment(argument) {
            Ok(parts) => parts,
            Err(error) => return report_binding(argument, &error, lang),
        };
        let text = match text.strip_prefix('@') {
            Some(path) => match read_small_file(std::path::Path::new(path), MAX_BINDING_FILE_BYTES) {
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
    for argument in dims {
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

/// Evaluates one pasted formula in `session`: its outcome with every span in the input, or
/// the failure with its spans there.
pub(crate) fn evaluate_one(session: &mut Session, input: &Input) -> Result<eqmap::eval::Outcome, Failure> {
    let pasted = eqmap::paste::prepare(&input.text).map_err(Failure::Parse)?;
    let mut outcome = session.evaluate(&pasted.text).map_err(|failure| match failure {
        Failure::Parse(error) => Failure::Parse(pasted.original_error(error)),
        Failure::Eval(mut error) => {
            error.span = pasted.original(error.span);
            Failure::Eval(error)
        }
    })?;
    outcome.parse_warnings = pasted.all_warnings(&outcome.parse_warnings);
    for warning in &mut outcome.warnings {
        if let eqmap::eval::Warning::NonFinite { span, .. } = warning {
            *span = pasted.original(*span);
        }
    }
    outcome.formula = input.text.clone();
    Ok(outcome)
}

/// The `--seed` value, or its message in `lang`.
pub(crate) fn seed(text: Option<&str>, lang: Lang) -> Result<Option<u64>, String> {
    seed_named("--seed", text, lang)
}

/// The seed given as `option` (`--seed`, or the server's `seed` field), or its message.
pub(crate) fn seed_named(option: &str, text: Option<&str>, lang: Lang) -> Result<Option<u64>, String> {
    let Some(text) = text else { return Ok(None) };
    text.trim().parse::<u64>().map(Some).map_err(|_| match lang {
        Lang::Ko => format!("{option} {text}: 시드는 0부터 {} 사이의 정수입니다", u64::MAX),
        Lang::En => format!("{option} {text}: a seed is a whole number from 0 to {}", u64::MAX),
    })
}

fn run_eval(args: EvalArgs) -> io::Result<ExitCode> {
    let lang = lang(&args.common);
    let seed = match seed(args.values.seed.as_deref(), lang) {
        Ok(seed) => seed,
        Err(message) => {
            eprintln!("eqmap: {message}");
            return Ok(ExitCode::from(1));
        }
    };
    let options = Options {
        seed,
        max_elements: args.values.max_elements,
        max_steps: args.values.max_steps,
        trace: args.trace,
        limits: limits(&args.common),
    };
    let mut session = Session::new(options);
    if !bind_arguments(&mut session, &args, lang)? {
        return Ok(ExitCode::from(1));
    }
    let inputs = formulas::inputs(args.formula.clone(), args.whole)?;
    let many = inputs.len() > 1;
    let mut failed = false;
    let mut stdout = io::stdout().lock();
    for input in &inputs {
        let text = match evaluate_one(&mut session, input) {
            Ok(outcome) => {
                eprint!("{}", eval_report::render_warnings_in(&outcome, lang, input.layout()));
                match args.format {
                    EvalFormat::Json => format!("{}\n", eval_report::to_json(&outcome)),
                    EvalFormat::Table => {
                        heading(input, many)
                            + &eval_report::render_table(&outcome, lang)
                            + if many { "\n" } else { "" }
                    }
                }
            }
            Err(failure) => {
                failed = true;
                stdout.flush()?;
                eprint!("{}", eval_report::render_failure_in(&input.text, &failure, lang, input.layout()));
                match args.format {
                    EvalFormat::Json => {
                        format!("{}\n", eval_report::failure_json(&input.text, input.line, &failure, lang))
                    }
                    EvalFormat::Table => continue,
                }
            }
        };
        stdout.write_all(text.as_bytes())?;
        stdout.flush()?;
    }
    Ok(exit_code(failed))
}

fn run_read(args: ReadArgs) -> io::Result<ExitCode> {
    let lang = lang(&args.common);
    let verbosity = match args.verbosity {
        VerbosityArg::Brief => eqmap::speak::Verbosity::Brief,
        VerbosityArg::Default => eqmap::speak::Verbosity::Default,
        VerbosityArg::Full => eqmap::speak::Verbosity::Full,
    };
    let inputs = formulas::inputs(args.formula.clone(), args.whole)?;
    let mut failed = false;
    let mut stdout = io::stdout().lock();
    for input in &inputs {
        let Some((pasted, parsed)) = parse_one(input, &args.common) else {
            failed = true;
            continue;
        };
        let mut table = eqmap::meaning::SymbolTable::from_formula(&parsed.root);
        table.set_max_depth(args.common.max_depth);
        // Resolved within the one depth limit, as map and eval resolve it.
        match eqmap::meaning::resolve_checked(&parsed.root, &table) {
            Ok(term) => {
                let reading = eqmap::speak::read_term_at(
                    &term,
                    &pasted.text,
                    lang,
                    eqmap::speak::Vocabulary::builtin(),
                    verbosity,
                );
                stdout.write_all(format!("{}\n", printable(&reading)).as_bytes())?;
                stdout.flush()?;
            }
            Err(error) => {
                input.fail(&pasted.original_error(error), lang);
                failed = true;
            }
        }
    }
    Ok(exit_code(failed))
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
    Ok(match path.filter(|path| !is_stdout(path)) {
        Some(path) => Box::new(io::BufWriter::new(std::fs::File::create(path)?)),
        None => Box::new(io::BufWriter::with_capacity(1 << 16, io::stdout())),
    })
}

/// Whether an output path is `-`, standard output.
fn is_stdout(path: &std::path::Path) -> bool {
    path.as_os_str() == "-"
}

fn batch_options(args: &BatchArgs) -> pipeline::Options {
    let format = match args.format {
        BatchFormat::Jsonl => Format::Jsonl,
        BatchFormat::Csv => Format::Csv,
        BatchFormat::Markdown => Format::Markdown,
    };
    pipeline::Options { chunk: args.chunk, lang: lang(&args.common), limits: limits(&args.common), format }
}

/// Why `--out` or `--summary` may not be written, if so: one is an input (or would be read by
/// an input folder's walk), or both are the same file.
fn output_refusal(args: &BatchArgs, paths: &[std::path::PathBuf]) -> Option<String> {
    let outputs = [("--out", args.out.as_deref()), ("--summary", args.summary.as_deref())];
    let records_to_stdout = args.out.as_deref().is_none_or(is_stdout);
    if records_to_stdout && args.summary.as_deref().is_some_and(is_stdout) {
        return Some("--summary - would mix the summary into the records on standard output".to_string());
    }
    for (flag, output) in outputs.into_iter().filter(|(_, o)| !o.is_some_and(is_stdout)) {
        if let Some(conflict) = output.and_then(|path| readers::output_conflict(path, paths)) {
            return Some(format!("{flag} {conflict}"));
        }
    }
    match (args.out.as_deref(), args.summary.as_deref()) {
        (Some(out), Some(summary)) if readers::same_output(out, summary) => Some(format!(
            "--out and --summary are the same file ({}): the summary would overwrite the records",
            out.display()
        )),
        _ => None,
    }
}

fn run_batch(args: BatchArgs) -> io::Result<ExitCode> {
    let knowledge = match load_knowledge(&args.curriculum) {
        Ok(knowledge) => knowledge,
        Err(message) => {
            eprintln!("eqmap: {message}");
            return Ok(ExitCode::from(2));
        }
    };
    let paths = if args.paths.is_empty() { vec![std::path::PathBuf::from("-")] } else { args.paths.clone() };
    if let Some(message) = output_refusal(&args, &paths) {
        eprintln!("eqmap: {message}; nothing was written");
        return Ok(ExitCode::from(2));
    }
    let available = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    let jobs = match args.jobs {
        Some(jobs) if jobs > available => {
            eprintln!("eqmap: --jobs {jobs} capped to {available}, the parallelism this machine has");
            available
        }
        jobs => jobs.unwrap_or(0),
    };
    // The worker threads walk trees as deep as the main work thread does, so they get its stack.
    let max_depth = args.common.max_depth;
    let stack = work_stack_bytes(max_depth);
    let pool = rayon::ThreadPoolBuilder::new().num_threads(jobs).stack_size(stack);
    if let Err(error) = pool.build_global() {
        let threads = if jobs == 0 { available } else { jobs };
        let deeper = max_depth > eqmap::syntax::depth::DEFAULT_MAX_DEPTH;
        eprintln!(
            "eqmap: cannot start {threads} worker threads of {} MiB of stack each{}: {error}; lower --jobs{}, or allow more address space",
            stack >> 20,
            for_depth(max_depth),
            if deeper { " or --max-depth" } else { "" }
        );
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
    let mut reader = Reader::new(&paths);
    let bar = progress_bar();
    let options = batch_options(&args);
    let run = pipeline::run(&mut reader, &knowledge, &options, out, |n| bar.set_position(n as u64));
    bar.finish_and_clear();
    let mut result = match run {
        Ok(result) => result,
        Err(error) => {
            // The records cannot all be written (a closed pipe, a full disk): say so, and fail,
            // since records were lost; the summary would count records nobody received.
            eprintln!("eqmap: the records could not be written ({error}); the run stopped, and later records were not written");
            return Ok(ExitCode::from(1));
        }
    };
    result.skipped = reader.skipped();
    let lang = options.lang;
    let text = match args.summary_format {
        SummaryFormat::Text => summary::render_text(&result, &knowledge, lang, args.top),
        SummaryFormat::Json => summary::render_json(&result, &knowledge, lang, args.top),
    };
    match &args.summary {
        Some(path) if is_stdout(path) => io::stdout().write_all(text.as_bytes())?,
        Some(path) => std::fs::write(path, text)?,
        None => io::stderr().write_all(text.as_bytes())?,
    }
    Ok(if args.strict && result.failed() > 0 { ExitCode::from(1) } else { ExitCode::SUCCESS })
}
