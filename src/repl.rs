//! The prompt (binary only): paste formula after formula and see each one's map.
//!
//! `eqmap` with no command on a terminal opens it. Lines starting with `:` are commands
//! (`:en`, `:ko`, `:curriculum NAME`, `:help`, `:quit`); any other line is a formula. History
//! is kept for the session and in `~/.eqmap_history`.

use crate::load_knowledge;
use eqmap::report::{diagnostic, slotmap as map_report};
use eqmap::slotmap::Knowledge;
use eqmap::Lang;
use rustyline::error::ReadlineError;
use rustyline::DefaultEditor;
use std::io;
use std::process::ExitCode;

const HELP_KO: &str = "수식을 붙여 넣으면 자리마다 막히는 질문, 필요한 수학, 커리큘럼 글을 보여 줍니다.\n  :en / :ko 언어 바꾸기 · :curriculum 이름|파일 · :help · :quit (또는 Ctrl-D)";
const HELP_EN: &str = "Paste a formula to see, for each slot, the question, the math and the curriculum article.\n  :en / :ko switch language · :curriculum NAME|FILE · :help · :quit (or Ctrl-D)";

/// Runs the prompt until the user quits.
pub fn run(style: map_report::Style) -> io::Result<ExitCode> {
    let mut editor = DefaultEditor::new().map_err(io::Error::other)?;
    let history = std::env::var_os("HOME").map(|home| std::path::PathBuf::from(home).join(".eqmap_history"));
    if let Some(path) = &history {
        let _ = editor.load_history(path);
    }
    let mut lang = Lang::Ko;
    let mut knowledge = match load_knowledge("ai-math") {
        Ok(knowledge) => knowledge,
        Err(message) => {
            eprintln!("eqmap: {message}");
            return Ok(ExitCode::from(2));
        }
    };
    println!("eqmap — {}", lang.pick(HELP_KO, HELP_EN));
    loop {
        let line = match editor.readline("eqmap> ") {
            Ok(line) => line,
            Err(ReadlineError::Interrupted) => continue,
            Err(ReadlineError::Eof) => break,
            Err(error) => return Err(io::Error::other(error)),
        };
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let _ = editor.add_history_entry(line);
        if !handle(line, &mut lang, &mut knowledge, style) {
            break;
        }
    }
    if let Some(path) = &history {
        let _ = editor.save_history(path);
    }
    Ok(ExitCode::SUCCESS)
}

/// Handles one line; `false` to quit.
fn handle(line: &str, lang: &mut Lang, knowledge: &mut Knowledge, style: map_report::Style) -> bool {
    match line.split_once(' ').map_or((line, ""), |(a, b)| (a, b.trim())) {
        (":quit" | ":q" | ":exit", _) => return false,
        (":en", _) => *lang = Lang::En,
        (":ko", _) => *lang = Lang::Ko,
        (":help" | ":h" | ":?", _) => println!("{}", lang.pick(HELP_KO, HELP_EN)),
        (":curriculum", name) => match load_knowledge(name) {
            Ok(loaded) => *knowledge = loaded,
            Err(message) => eprintln!("{message}"),
        },
        (command, _) if command.starts_with(':') => {
            eprintln!("{}: {command}", lang.pick("모르는 명령", "unknown command"));
        }
        _ => show(line, *lang, knowledge, style),
    }
    true
}

fn show(formula: &str, lang: Lang, knowledge: &Knowledge, style: map_report::Style) {
    match eqmap::slotmap::map_source(formula, knowledge, lang) {
        Ok(map) => {
            for warning in &map.warnings {
                eprint!("{}", diagnostic::render_warning(formula, warning, lang));
            }
            print!("{}", map_report::render_table(&map, lang, style));
        }
        Err(error) => eprint!("{}", diagnostic::render_error(formula, &error, lang)),
    }
}
