//! The `eqmap` command: turns arguments into library calls and prints what they return.

mod cli;

use clap::Parser;
use cli::{Cli, Command, Common, EvalArgs, EvalFormat, LangArg, ParseArgs, ParseFormat};
use eqmap::eval::{bindings, Options, Session};
use eqmap::report::{diagnostic, eval as eval_report, tree};
use eqmap::{Lang, Limits};
use std::io::{self, Read, Write};
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Parse(args) => run_parse(args),
        Command::Eval(args) => run_eval(args),
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

/// The formulas of `eval`: the argument, or the non-empty lines of standard input.
fn read_formulas(argument: Option<String>) -> io::Result<Vec<String>> {
    match argument {
        Some(formula) if formula != "-" => Ok(vec![formula]),
        _ => {
            let mut text = String::new();
            io::stdin().read_to_string(&mut text)?;
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
