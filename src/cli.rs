//! The command-line arguments (binary only).

use clap::{Args, Parser, Subcommand, ValueEnum};

/// eqmap: reads the math of ML papers the way a good teacher does.
#[derive(Debug, Parser)]
#[command(name = "eqmap", version, about, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Parse a formula and print its tree, JSON, or canonical LaTeX.
    Parse(ParseArgs),
    /// Read a formula aloud, in Korean or English.
    Read(ReadArgs),
}

/// Arguments of `eqmap read`.
#[derive(Debug, Args)]
pub struct ReadArgs {
    /// The formula; `-` or nothing reads standard input. A formula may start with `-`
    /// (`eqmap read '-\infty'`).
    #[arg(allow_hyphen_values = true)]
    pub formula: Option<String>,
    #[command(flatten)]
    pub common: Common,
}

/// Arguments of `eqmap parse`.
#[derive(Debug, Args)]
pub struct ParseArgs {
    /// The formula; `-` or nothing reads standard input.
    pub formula: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ParseFormat::Tree)]
    pub format: ParseFormat,
    #[command(flatten)]
    pub common: Common,
}

/// Options every subcommand takes.
#[derive(Debug, Args)]
pub struct Common {
    /// Language of messages (and of the reading, for `read`): ko or en.
    #[arg(long, value_enum, default_value_t = LangArg::Ko)]
    pub lang: LangArg,
    /// Longest formula accepted, in bytes.
    #[arg(long, default_value_t = 100_000)]
    pub max_bytes: usize,
    /// Deepest nesting accepted.
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
}

/// A language code.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum LangArg {
    /// Korean.
    Ko,
    /// English.
    En,
}
