//! The prompt (binary only): what the commands do, formula after formula.
//!
//! `eqmap` with no command on a terminal opens it, in the language of `--lang` or of the
//! `EQMAP_LANG` variable (`ko` or `en`). A line that is not a command is mapped; the commands
//! are `:map`, `:read`, `:parse`, `:eval` (definitions and `:let` bindings persist for the
//! session), `:grad FORMULA --wrt NAME…` (the gradient, through the session's definitions and
//! values), `:let NAME=JSON`, `:lang ko|en`, `:curriculum NAME|FILE`, `:help` and `:quit`. A
//! paste of several lines is read whole: the prompt reads on while a `{`, a `\begin` or a
//! `$$` is open or a line ends with `\\`, and while lines arrive faster than anyone types (a
//! terminal without bracketed paste sends a paste's line breaks as Enter keys): Enter, typed,
//! then runs them. History is kept in `~/.eqmap_history`.

use crate::formulas::Input;
use crate::grad_command::{finish, read_line, render_failure};
use crate::{evaluate_one, load_knowledge, screen_style};
use eqmap::eval::grad::{Cotangent, GradSession, Request};
use eqmap::eval::{bindings, EvalError, EvalErrorKind, Failure, Options, Session};
use eqmap::report::{eval as eval_report, grad as grad_report, slotmap as map_report, tree};
use eqmap::slotmap::Knowledge;
use eqmap::Lang;
use rustyline::error::ReadlineError;
use rustyline::highlight::CmdKind;
use rustyline::history::FileHistory;
use rustyline::validate::{ValidationContext, ValidationResult, Validator};
use rustyline::{Config, Editor, Helper};
use std::cell::Cell;
use std::io;
use std::process::ExitCode;
use std::time::{Duration, Instant};

const HELP_KO: &str = "\
수식을 붙여 넣으면 자리마다 막히는 질문, 필요한 수학, 커리큘럼 글을 보여 줍니다. 명령:
  :map 수식        자리 지도 (명령 없이 수식만 써도 됩니다)
  :read 수식       소리 내어 읽기
  :parse 수식      구문 트리
  :eval 수식       계산 (정의와 :let 값은 세션 동안 남습니다)
  :grad 수식 --wrt 이름…   이름에 대한 기울기 (역전파, 세션의 정의와 :let 값으로; 값이 수가
                   아니면 L = Σ G ⊙ 값의 G를 --cotangent ones 또는 --cotangent JSON으로)
  :let 이름=JSON   :eval에 쓸 값 (수 2, 벡터 [1,2], 행렬 [[1,2],[3,4]])
  :lang ko|en      언어 바꾸기 (:ko, :en)
  :curriculum 이름|파일   커리큘럼 바꾸기 (ai-math, transformer-series)
  :help            이 목록
  :quit            끝내기 (Ctrl-D)";

const HELP_EN: &str = "\
Paste a formula to see, for each slot, the question, the math and the curriculum article. Commands:
  :map FORMULA     the slot map (a formula alone does the same)
  :read FORMULA    read it aloud
  :parse FORMULA   its syntax tree
  :eval FORMULA    compute it (definitions and :let values stay for the session)
  :grad FORMULA --wrt NAME…   its gradient with respect to each name (reverse mode, through the
                   session's definitions and :let values; a value that is not a number takes
                   the G of L = Σ G ⊙ value as --cotangent ones or --cotangent JSON)
  :let NAME=JSON   a value for :eval (a number 2, a vector [1,2], a matrix [[1,2],[3,4]])
  :lang ko|en      switch language (:ko, :en)
  :curriculum NAME|FILE   switch curriculum (ai-math, transformer-series)
  :help            this list
  :quit            leave (Ctrl-D)";

/// The banner's first line.
const GREETING_KO: &str = "eqmap — 수식을 붙여 넣거나 :help로 명령을 보세요.";
const GREETING_EN: &str = "eqmap — paste a formula, or :help for the commands.";

/// An Enter this soon after the key before it came with that key, as a paste's line break
/// does when the terminal sends a paste as keys (without bracketed paste): no one types a key
/// and Enter this fast (some 50 ms apart at the fastest).
const PASTED_ENTER: Duration = Duration::from_millis(20);

/// Reads on while a pasted formula is still open, or while its lines arrive together, so that
/// a paste of several lines is one input.
#[derive(Default)]
struct Lines {
    /// When the line last changed or its cursor moved.
    last_key: Cell<Option<Instant>>,
}

impl rustyline::completion::Completer for Lines {
    type Candidate = String;
}

impl rustyline::hint::Hinter for Lines {
    type Hint = String;
}

impl rustyline::highlight::Highlighter for Lines {
    /// Called on every character inserted and every cursor move: the time of the last key.
    /// Nothing is highlighted.
    fn highlight_char(&self, _line: &str, _pos: usize, _kind: CmdKind) -> bool {
        self.last_key.set(Some(Instant::now()));
        false
    }
}

impl Helper for Lines {}

impl Validator for Lines {
    fn validate(&self, ctx: &mut ValidationContext) -> rustyline::Result<ValidationResult> {
        let input = ctx.input();
        let pasted =
            self.last_key.get().is_some_and(|key| key.elapsed() < PASTED_ENTER) && !input.trim().is_empty();
        let command = input.trim_start().starts_with(':') && !input.contains('\n');
        if pasted || (!command && eqmap::paste::lines::incomplete(input)) {
            return Ok(ValidationResult::Incomplete);
        }
        Ok(ValidationResult::Valid(None))
    }
}

/// What the prompt keeps between lines.
struct State {
    lang: Lang,
    knowledge: Knowledge,
    session: Session,
    /// What `:eval` and `:let` did to the session, in order, to be done again for `:grad`.
    done: Vec<Done>,
}

/// A `:let` or an `:eval` that the session kept.
enum Done {
    /// `:let NAME=JSON`.
    Let(String),
    /// `:eval FORMULA`.
    Eval(String),
}

/// Runs the prompt until the user quits.
pub fn run(lang: Lang) -> io::Result<ExitCode> {
    let config = Config::builder().auto_add_history(false).build();
    let mut editor: Editor<Lines, FileHistory> = Editor::with_config(config).map_err(io::Error::other)?;
    editor.set_helper(Some(Lines::default()));
    let history = std::env::var_os("HOME").map(|home| std::path::PathBuf::from(home).join(".eqmap_history"));
    if let Some(path) = &history {
        let _ = editor.load_history(path);
    }
    let knowledge = match load_knowledge("ai-math") {
        Ok(knowledge) => knowledge,
        Err(message) => {
            eprintln!("eqmap: {message}");
            return Ok(ExitCode::from(2));
        }
    };
    let mut state = State { lang, knowledge, session: Session::new(Options::default()), done: Vec::new() };
    println!("{}", lang.pick(GREETING_KO, GREETING_EN));
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
        if !state.handle(line) {
            break;
        }
    }
    if let Some(path) = &history {
        let _ = editor.save_history(path);
    }
    Ok(ExitCode::SUCCESS)
}

impl State {
    /// Handles one input; `false` to quit.
    fn handle(&mut self, line: &str) -> bool {
        let (command, rest) = match line.split_once(char::is_whitespace) {
            Some((command, rest)) if command.starts_with(':') => (command, rest.trim()),
            _ if line.starts_with(':') => (line, ""),
            _ => (":map", line),
        };
        match command {
            ":quit" | ":q" | ":exit" => return false,
            ":en" => self.lang = Lang::En,
            ":ko" => self.lang = Lang::Ko,
            ":lang" => match Lang::from_code(rest) {
                Some(lang) => self.lang = lang,
                None => eprintln!("{}", self.lang.pick(":lang ko 또는 :lang en", ":lang ko or :lang en")),
            },
            ":help" | ":h" | ":?" => println!("{}", self.lang.pick(HELP_KO, HELP_EN)),
            ":curriculum" => match load_knowledge(rest) {
                Ok(loaded) => self.knowledge = loaded,
                Err(message) => eprintln!("{message}"),
            },
            ":map" => self.map(rest),
            ":read" => self.read(rest),
            ":parse" => self.parse(rest),
            ":eval" => self.eval(rest),
            ":grad" => self.grad(rest),
            ":let" => self.bind(rest),
            _ => eprintln!("{}: {command} (:help)", self.lang.pick("모르는 명령", "unknown command")),
        }
        true
    }

    fn map(&self, formula: &str) {
        let input = Input { line: 1, text: formula.to_string() };
        match eqmap::slotmap::map_pasted(formula, &self.knowledge, self.lang, &eqmap::Limits::default()) {
            Ok(map) => {
                input.warn(&map.warnings, self.lang);
                print!(
                    "{}",
                    map_report::render_table(&map_report::printable(&map), self.lang, screen_style())
                );
            }
            Err(error) => input.fail(&error, self.lang),
        }
    }

    /// The parsed formula, its warnings printed, or `None` with its error printed.
    fn parsed(&self, formula: &str) -> Option<(eqmap::paste::Pasted, eqmap::Parsed)> {
        let input = Input { line: 1, text: formula.to_string() };
        match eqmap::paste::parse(formula, &eqmap::Limits::default()) {
            Ok((pasted, parsed)) => {
                input.warn(&pasted.all_warnings(&parsed.warnings), self.lang);
                Some((pasted, parsed))
            }
            Err(error) => {
                input.fail(&error, self.lang);
                None
            }
        }
    }

    fn read(&self, formula: &str) {
        if let Some((pasted, parsed)) = self.parsed(formula) {
            let table = eqmap::meaning::SymbolTable::from_formula(&parsed.root);
            println!(
                "{}",
                eqmap::syntax::error::printable(&eqmap::speak::read(
                    &parsed.root,
                    &pasted.text,
                    &table,
                    self.lang
                ))
            );
        }
    }

    fn parse(&self, formula: &str) {
        if let Some((_, parsed)) = self.parsed(formula) {
            print!("{}", tree::render_tree(&parsed.root));
        }
    }

    fn eval(&mut self, formula: &str) {
        let input = Input { line: 1, text: formula.to_string() };
        match evaluate_one(&mut self.session, &input) {
            Ok(outcome) => {
                eprint!("{}", eval_report::render_warnings_in(&outcome, self.lang, input.layout()));
                print!("{}", eval_report::render_table(&outcome, self.lang));
                self.done.push(Done::Eval(formula.to_string()));
            }
            Err(failure) => {
                eprint!("{}", eval_report::render_failure_in(formula, &failure, self.lang, input.layout()))
            }
        }
    }

    fn bind(&mut self, assignment: &str) {
        let bound = eqmap::eval::bindings::split_assignment(assignment)
            .and_then(|(name, json)| self.session.bind_json(name, json));
        match bound {
            Ok(()) => self.done.push(Done::Let(assignment.to_string())),
            Err(error) => eprint!("{}", eval_report::render_error(assignment, &error, self.lang)),
        }
    }

    /// `:grad FORMULA --wrt NAME… [--cotangent ones|JSON]`: a session of its own that does
    /// again what `:let` and `:eval` did (so a name bound by `\mu = …` is differentiated
    /// through), then reads the formula and differentiates it. The prompt's session is left
    /// as it was.
    fn grad(&self, text: &str) {
        let (formula, request) = match grad_request(text, self.lang) {
            Ok(parts) => parts,
            Err(message) => {
                eprintln!("{message}");
                return;
            }
        };
        let mut grad = GradSession::new(Options::default(), request);
        for done in &self.done {
            // Each did its work once already, its messages shown then.
            match done {
                Done::Let(assignment) => {
                    let _ = bindings::split_assignment(assignment)
                        .and_then(|(name, json)| grad.session_mut().bind_json(name, json));
                }
                Done::Eval(line) => {
                    let _ = read_line(&mut grad, &Input { line: 1, text: line.clone() });
                }
            }
        }
        let input = Input { line: 1, text: formula };
        if let Err(failure) = self.differentiate(&mut grad, &input) {
            eprint!("{}", render_failure(&input, &failure, self.lang));
        }
    }

    /// Reads `input` into `grad` and prints its gradients.
    fn differentiate(&self, grad: &mut GradSession, input: &Input) -> Result<(), Failure> {
        let (outcome, pasted) = read_line(grad, input)?;
        eprint!("{}", eval_report::render_warnings_in(&outcome, self.lang, input.layout()));
        if grad.target_source() != Some(pasted.text.as_str()) {
            let nothing = EvalError::new(EvalErrorKind::NothingToDifferentiate, Default::default());
            return Err(Failure::Eval(nothing));
        }
        let outcome = finish(grad, input, &pasted)?;
        eprint!("{}", grad_report::render_warnings_in(&input.text, &outcome, self.lang, input.layout()));
        print!("{}", grad_report::render_text(&outcome, self.lang));
        Ok(())
    }
}

/// `FORMULA --wrt NAME… [--cotangent ones|JSON]` split into the formula and the request; the
/// formula ends where ` --wrt` or ` --cotangent` first starts.
fn grad_request(text: &str, lang: Lang) -> Result<(String, Request), String> {
    let usage = || {
        lang.pick(
            ":grad 수식 --wrt 이름 [--cotangent ones|JSON]",
            ":grad FORMULA --wrt NAME [--cotangent ones|JSON]",
        )
    };
    let padded = format!(" {text}");
    let start = [" --wrt", " --cotangent"].iter().filter_map(|flag| padded.find(flag)).min();
    let Some((formula, options)) = start.and_then(|at| padded.split_at_checked(at)) else {
        return Err(usage().to_string());
    };
    let mut request = Request::default();
    for option in options.split(" --").map(str::trim).filter(|o| !o.is_empty()) {
        let (flag, value) = option.split_once([' ', '=']).unwrap_or((option, ""));
        match (flag, value.trim()) {
            ("wrt", names) if !names.is_empty() => {
                request.wrt.extend(names.split_whitespace().map(String::from))
            }
            ("cotangent", "ones" | "\"ones\"") => request.cotangent = Some(Cotangent::Ones),
            ("cotangent", json) if !json.is_empty() => {
                let value = bindings::value_from_json("cotangent", json, Options::default().max_elements)
                    .map_err(|error| eval_report::render_error(json, &error, lang))?;
                request.cotangent = Some(Cotangent::Given(value));
            }
            _ => {
                return Err(format!(
                    "{}: --{flag} ({})",
                    lang.pick(
                        "모르는 옵션이거나 값이 없습니다",
                        "an unknown option, or one without its value"
                    ),
                    usage()
                ))
            }
        }
    }
    if formula.trim().is_empty() || request.wrt.is_empty() {
        return Err(usage().to_string());
    }
    Ok((formula.trim().to_string(), request))
}
