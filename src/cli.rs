//! The command-line arguments (binary only).

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::ffi::OsString;

/// The arguments with the flags that follow a `--` and its formulas moved before the `--`:
/// `eqmap map -- '-x' --lang en` is `eqmap map --lang en -- '-x'`. Everything after `--` is a
/// formula to clap, so without this a flag after the formula would be refused.
pub fn flags_before_double_dash(mut args: Vec<OsString>) -> Vec<OsString> {
    let formulas = match args.get(1).and_then(|a| a.to_str()) {
        Some("map" | "read" | "parse" | "eval" | "grad") => 1,
        Some("compare") => 2,
        _ => return args,
    };
    let Some(dash) = args.iter().position(|a| a == "--") else { return args };
    let first_flag = dash + 1 + formulas;
    if first_flag >= args.len() {
        return args;
    }
    let flags: Vec<OsString> = args.drain(first_flag..).collect();
    args.splice(dash..dash, flags);
    args
}

/// eqmap: reads the math of ML papers the way a good teacher does.
#[derive(Debug, Parser)]
#[command(name = "eqmap", version, about, long_about = None)]
pub struct Cli {
    /// What to do. Without a command, on a terminal: a prompt that maps formula after formula.
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Language of the prompt, and of a command given after it that has no `--lang` of its own;
    /// else the `EQMAP_LANG` variable, else ko.
    #[arg(long, value_enum)]
    pub lang: Option<LangArg>,
}

impl Cli {
    /// The nesting limit the command works to (`--max-depth`; the default where it takes
    /// none), which sizes the stacks of the threads that do the work.
    pub fn max_depth(&self) -> usize {
        self.common().map_or(eqmap::syntax::depth::DEFAULT_MAX_DEPTH, |common| common.max_depth)
    }

    /// The options every subcommand takes, of the command given (`serve` takes none).
    pub fn common(&self) -> Option<&Common> {
        match &self.command {
            Some(Command::Map(args)) => Some(&args.common),
            Some(Command::Compare(args)) => Some(&args.common),
            Some(Command::Parse(args)) => Some(&args.common),
            Some(Command::Read(args)) => Some(&args.common),
            Some(Command::Eval(args)) => Some(&args.common),
            Some(Command::Grad(args)) => Some(&args.common),
            Some(Command::Batch(args)) => Some(&args.common),
            Some(Command::Serve(_)) | None => None,
        }
    }

    /// `eqmap --lang en map …`: the language before the command is the command's, unless it
    /// has its own `--lang`.
    pub fn lang_before_command_applies(&mut self) {
        let Some(lang) = self.lang else { return };
        let common = match &mut self.command {
            Some(Command::Map(args)) => &mut args.common,
            Some(Command::Compare(args)) => &mut args.common,
            Some(Command::Parse(args)) => &mut args.common,
            Some(Command::Read(args)) => &mut args.common,
            Some(Command::Eval(args)) => &mut args.common,
            Some(Command::Grad(args)) => &mut args.common,
            Some(Command::Batch(args)) => &mut args.common,
            Some(Command::Serve(_)) | None => return,
        };
        common.lang.get_or_insert(lang);
    }
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Map a formula's slots: the question, the math and the curriculum article of each.
    Map(MapArgs),
    /// Overlay the maps of two formulas: what they share, what is unique to each.
    Compare(CompareArgs),
    /// Parse a formula and print its tree, JSON, or canonical LaTeX.
    Parse(ParseArgs),
    /// Read a formula aloud, in Korean or English.
    Read(ReadArgs),
    /// Evaluate formulas on sample matrices: shapes, values, claims, definitions, trace.
    Eval(EvalArgs),
    /// Differentiate a formula: the gradient of its value with respect to named symbols
    /// (reverse mode over the evaluator's tree), the Jacobian, the gradient of every slot.
    Grad(GradArgs),
    /// Annotate every formula of files, documents (.tex, .md) and folders, with a summary.
    Batch(BatchArgs),
    /// Serve a local web page and a JSON API (POST /api/map, read, eval, parse, compare).
    Serve(ServeArgs),
}

/// Arguments of `eqmap serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The port to listen on (0: any free port; the address is printed on standard error).
    #[arg(long, default_value_t = 8377)]
    pub port: u16,
    /// The address to listen on; anything but loopback opens the server to the network (a
    /// warning says so).
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// Open the page in the desktop's browser once listening.
    #[arg(long)]
    pub open: bool,
    /// The longest a request may take to arrive or to be answered, in milliseconds.
    #[arg(long, default_value_t = 10_000, hide = true)]
    pub timeout_ms: u64,
    /// The largest request body accepted, in bytes.
    #[arg(long, default_value_t = 1 << 20, hide = true)]
    pub max_body: usize,
}

/// The values, sizes, samples and limits `eval` and `grad` share.
#[derive(Debug, Args)]
pub struct ValueArgs {
    /// A value: NAME=JSON (a number, an array, an array of arrays, "inf", "-inf", "nan") or
    /// NAME=@FILE.
    #[arg(long = "let", value_name = "NAME=JSON")]
    pub lets: Vec<String>,
    /// The size of a dimension: NAME=N.
    #[arg(long = "dim", value_name = "NAME=N")]
    pub dims: Vec<String>,
    /// Fill symbols that have a shape but no value with N(0, 1) samples from this seed (a
    /// whole number; a bad one is bad input, exit 1, as a bad `--dim` or `--let` is); grad
    /// samples its cotangent from a stream of its own.
    #[arg(long, value_name = "N")]
    pub seed: Option<String>,
    /// The largest value allowed, in elements; larger ones are refused before allocating (for
    /// grad, also the most the backward pass may keep, values and gradients together).
    #[arg(long, default_value_t = 8_000_000)]
    pub max_elements: usize,
    /// The most steps one formula may take (node evaluations and loop iterations); nested sums
    /// past it are refused before they run.
    #[arg(long, default_value_t = eqmap::eval::DEFAULT_MAX_STEPS)]
    pub max_steps: u64,
}

/// Arguments of `eqmap eval`.
#[derive(Debug, Args)]
pub struct EvalArgs {
    /// The formula (it may start with `-`); `-` or nothing reads standard input, one formula a
    /// line (definitions carry to the lines after them).
    #[arg(allow_hyphen_values = true)]
    pub formula: Option<String>,
    #[command(flatten)]
    pub values: ValueArgs,
    /// Show every node with its shape and a summary of its values.
    #[arg(long)]
    pub trace: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = EvalFormat::Table)]
    pub format: EvalFormat,
    /// On standard input, read all of it as one formula (by default each line is one).
    #[arg(long)]
    pub whole: bool,
    #[command(flatten)]
    pub common: Common,
}

/// Arguments of `eqmap grad`.
#[derive(Debug, Args)]
pub struct GradArgs {
    /// The formula (it may start with `-`); `-` or nothing reads standard input, one formula a
    /// line: the last line that computes a value is differentiated, through the definitions
    /// of the lines before it.
    #[arg(allow_hyphen_values = true)]
    pub formula: Option<String>,
    /// A name to differentiate with respect to (a bound or sampled value); repeat for more.
    #[arg(long = "wrt", value_name = "NAME", required = true)]
    pub wrt: Vec<String>,
    /// The cotangent G of a value that is not a number: L = Σ G ⊙ value. JSON of the value's
    /// shape, or "ones" (L is the sum of the entries); without it, G is sampled with --seed.
    #[arg(long, value_name = "JSON")]
    pub cotangent: Option<String>,
    /// The full Jacobian matrix of a vector value with respect to one vector (--wrt once).
    #[arg(long)]
    pub jacobian: bool,
    #[command(flatten)]
    pub values: ValueArgs,
    /// Show every slot with its gradient's shape, norm, min and max.
    #[arg(long)]
    pub trace: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = EvalFormat::Table)]
    pub format: EvalFormat,
    /// On standard input, read all of it as one formula (by default each line is one).
    #[arg(long)]
    pub whole: bool,
    #[command(flatten)]
    pub common: Common,
}

/// Arguments of `eqmap batch`.
#[derive(Debug, Args)]
pub struct BatchArgs {
    /// Files of one formula a line (.txt, other), JSONL (.jsonl, with "id" and "latex"),
    /// documents (.tex, .md), folders (recursively); `-` or nothing reads standard input.
    pub paths: Vec<std::path::PathBuf>,
    /// Output format: one record per formula, in input order.
    #[arg(long, value_enum, default_value_t = BatchFormat::Jsonl)]
    pub format: BatchFormat,
    /// Write the records to FILE instead of standard output (`-`: standard output).
    #[arg(long, value_name = "FILE")]
    pub out: Option<std::path::PathBuf>,
    /// Write the summary to FILE instead of standard error (`-`: standard output, when the
    /// records go to a file).
    #[arg(long, value_name = "FILE")]
    pub summary: Option<std::path::PathBuf>,
    /// Summary format.
    #[arg(long, value_enum, default_value_t = SummaryFormat::Text)]
    pub summary_format: SummaryFormat,
    /// Rows per list in the summary.
    #[arg(long, default_value_t = 20)]
    pub top: usize,
    /// Exit 1 when any record failed (parse or read error).
    #[arg(long)]
    pub strict: bool,
    /// Threads (default: one per core).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Records per chunk: the bound on records held in memory at once.
    #[arg(long, default_value_t = 1024, hide = true)]
    pub chunk: usize,
    /// Curriculum: `ai-math` (default), `transformer-series`, or a TOML file of your own.
    #[arg(long, default_value = "ai-math")]
    pub curriculum: String,
    #[command(flatten)]
    pub common: Common,
}

/// Output formats of `eval`.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum EvalFormat {
    /// Text: the value, the claim's verdict, samples, and the trace.
    Table,
    /// One JSON object per formula, one a line.
    Json,
}

/// Output formats of `batch`.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum BatchFormat {
    /// One JSON object a line.
    Jsonl,
    /// CSV with a header row.
    Csv,
    /// A Markdown table.
    Markdown,
}

/// Formats of the batch summary.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum SummaryFormat {
    /// Text.
    Text,
    /// JSON.
    Json,
}

/// Arguments of `eqmap map`.
#[derive(Debug, Args)]
pub struct MapArgs {
    /// The formula (it may start with `-`); `-` reads standard input; nothing maps the attention
    /// line (or reads a pipe).
    #[arg(allow_hyphen_values = true)]
    pub formula: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = MapFormat::Table)]
    pub format: MapFormat,
    /// Curriculum: `ai-math` (default), `transformer-series`, or a TOML file of your own.
    #[arg(long, default_value = "ai-math")]
    pub curriculum: String,
    /// On standard input, read all of it as one formula (by default each line is one).
    #[arg(long)]
    pub whole: bool,
    #[command(flatten)]
    pub common: Common,
}

/// Arguments of `eqmap compare`.
#[derive(Debug, Args)]
pub struct CompareArgs {
    /// The first formula (it may start with `-`).
    #[arg(allow_hyphen_values = true)]
    pub first: String,
    /// The second formula (it may start with `-`).
    #[arg(allow_hyphen_values = true)]
    pub second: String,
    /// Output format.
    #[arg(long, value_enum, default_value_t = CompareFormat::Table)]
    pub format: CompareFormat,
    /// Curriculum: `ai-math` (default), `transformer-series`, or a TOML file of your own.
    #[arg(long, default_value = "ai-math")]
    pub curriculum: String,
    #[command(flatten)]
    pub common: Common,
}

/// Output formats of `map`.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum MapFormat {
    /// A table for the terminal.
    Table,
    /// A Markdown table.
    Markdown,
    /// JSON.
    Json,
}

/// Output formats of `compare`.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum CompareFormat {
    /// Text.
    Table,
    /// JSON.
    Json,
}

/// Arguments of `eqmap read`.
#[derive(Debug, Args)]
pub struct ReadArgs {
    /// The formula; `-` or nothing reads standard input. A formula may start with `-`
    /// (`eqmap read '-\infty'`).
    #[arg(allow_hyphen_values = true)]
    pub formula: Option<String>,
    /// On standard input, read all of it as one formula (by default each line is one).
    #[arg(long)]
    pub whole: bool,
    /// How much the reading spells out: brief (for those who see the formula), default, or full
    /// (every bracket and script opened and closed in words).
    #[arg(long, value_enum, default_value_t = VerbosityArg::Default)]
    pub verbosity: VerbosityArg,
    #[command(flatten)]
    pub common: Common,
}

/// How much `read` spells out.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum VerbosityArg {
    /// For sighted readers: no closing words, no "capital".
    Brief,
    /// For listeners.
    Default,
    /// Every bracket, script and capital spelled.
    Full,
}

/// Arguments of `eqmap parse`.
#[derive(Debug, Args)]
pub struct ParseArgs {
    /// The formula (it may start with `-`); `-` or nothing reads standard input.
    #[arg(allow_hyphen_values = true)]
    pub formula: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ParseFormat::Tree)]
    pub format: ParseFormat,
    /// On standard input, read all of it as one formula (by default each line is one).
    #[arg(long)]
    pub whole: bool,
    #[command(flatten)]
    pub common: Common,
}

/// Options every subcommand takes.
#[derive(Debug, Args)]
pub struct Common {
    /// Language of messages (and of the reading, for `read`): ko or en; else the `EQMAP_LANG`
    /// variable, else ko.
    #[arg(long, value_enum)]
    pub lang: Option<LangArg>,
    /// Longest formula accepted, in bytes.
    #[arg(long, default_value_t = 100_000)]
    pub max_bytes: usize,
    /// Deepest nesting accepted (at most 1000).
    #[arg(long, default_value_t = 256)]
    pub max_depth: usize,
}

/// Output formats of `parse`.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum ParseFormat {
    /// An indented tree with byte spans.
    Tree,
    /// The tree as JSON.
    Json,
    /// Canonical LaTeX.
    Latex,
    /// What the formula means, in one line: what applies to what, how far each operator
    /// reaches, what each script and symbol is.
    Meaning,
    /// MathML Core for a browser, each node's element with its byte span (`data-s`, `data-e`).
    Mathml,
}

/// A language code.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum LangArg {
    /// Korean.
    Ko,
    /// English.
    En,
}
