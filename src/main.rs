//! The `eqmap` command: turns arguments into library calls and prints what they return.

mod cli;

use clap::Parser;
use cli::{Cli, Command, Common, LangArg, ParseArgs, ParseFormat, ReadArgs};
use eqmap::report::{diagnostic, tree};
use eqmap::{Lang, Limits};
use std::io::{self, Read, Write};
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Parse(args) => run_parse(args),
        Command::Read(args) => run_read(args),
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

fn run_read(args: ReadArgs) -> io::Result<ExitCode> {
    let source = read_formula(args.formula)?;
    let Some(parsed) = parse_or_report(&source, &args.common) else { return Ok(ExitCode::from(1)) };
    let table = eqmap::meaning::SymbolTable::from_formula(&parsed.root);
    let reading = eqmap::speak::read(&parsed.root, &source, &table, lang(&args.common));
    io::stdout().write_all(format!("{reading}\n").as_bytes())?;
    Ok(ExitCode::SUCCESS)
}
