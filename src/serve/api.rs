//! The JSON API of `eqmap serve`: a request body read into the options the command line takes
//! (by their CLI names), the same library calls `main.rs` makes, and the CLI's `--format json`
//! output as the answer. Everything here runs on a blocking thread, never on the async ones.

use crate::formulas::Input;
use eqmap::eval::{bindings, Failure, Options, Session};
use eqmap::report::diagnostic::Layout;
use eqmap::report::{eval as eval_report, mathml, slotmap as map_report};
use eqmap::slotmap::Knowledge;
use eqmap::syntax::error::ParseError;
use eqmap::{Lang, Limits, Surface};
use serde::Deserialize;
use serde_json::{json, Value as Json};
use std::sync::Arc;

/// The largest value one request may make, in elements (the command line allows 8,000,000;
/// a server answers many at once).
pub const MAX_ELEMENTS: usize = 1_000_000;

/// The commands the API answers, one per `POST /api/NAME`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Endpoint {
    /// `eqmap map --format json`.
    Map,
    /// `eqmap read`, as `{"formula", "lang", "reading"}`.
    Read,
    /// `eqmap eval --format json`.
    Eval,
    /// `eqmap parse --format json`, with the MathML of `parse --format mathml` beside it.
    Parse,
    /// `eqmap compare --format json`.
    Compare,
    /// The articles of a curriculum with their titles, for the page's reading path (no CLI
    /// command prints them as JSON).
    Curriculum,
}

/// The shipped curricula, loaded once when the server starts.
pub struct Curricula {
    /// `ai-math`, the default.
    pub ai_math: Arc<Knowledge>,
    /// `transformer-series`.
    pub transformer_series: Arc<Knowledge>,
}

/// A request's body: the formula and the options by their command-line names.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Body {
    /// The formula (every endpoint but compare).
    pub formula: Option<String>,
    /// The two formulas of compare.
    pub formulas: Option<Vec<String>>,
    /// `ko` (default) or `en`.
    pub lang: Option<String>,
    /// `ai-math` (default) or `transformer-series` (the server reads no files).
    pub curriculum: Option<String>,
    /// eval's `--let`: `{"NAME": JSON}` or `["NAME=JSON", …]`.
    #[serde(rename = "let")]
    pub lets: Option<Assignments>,
    /// eval's `--dim`: `{"NAME": N}` or `["NAME=N", …]`.
    pub dim: Option<Assignments>,
    /// eval's `--seed`: a whole number (or its digits as a string).
    pub seed: Option<Json>,
    /// eval's `--trace`.
    pub trace: Option<bool>,
}

/// Named values as a JSON object or as the command line's `NAME=VALUE` strings.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum Assignments {
    /// `{"NAME": value}`.
    Object(serde_json::Map<String, Json>),
    /// `["NAME=VALUE", …]`.
    List(Vec<String>),
}

impl Assignments {
    /// The pairs as name and text (a JSON value's text, or what follows `=`).
    fn pairs(&self) -> Result<Vec<(String, String)>, eqmap::eval::EvalError> {
        match self {
            Assignments::Object(map) => Ok(map
                .iter()
                .map(|(name, value)| {
                    let text = match value {
                        Json::String(text) if text.parse::<f64>().is_ok() => text.clone(),
                        other => other.to_string(),
                    };
                    (name.clone(), text)
                })
                .collect()),
            Assignments::List(list) => list
                .iter()
                .map(|item| bindings::split_assignment(item).map(|(n, t)| (n.to_string(), t.to_string())))
                .collect(),
        }
    }
}

/// An answer: its HTTP status and its JSON text.
#[derive(Debug)]
pub struct Answer {
    /// 200, or the 4xx of the error.
    pub status: u16,
    /// The JSON text.
    pub body: String,
}

impl Answer {
    fn ok(body: String) -> Answer {
        Answer { status: 200, body }
    }
}

/// A request error (not the formula's): status, kind and message.
pub fn request_error(status: u16, kind: &str, message: &str) -> Answer {
    let body = json!({ "error": kind, "message": message, "span": null, "status": status });
    Answer { status, body: eqmap::json::pretty(&body) }
}

/// The language a request asks for, or its error.
pub fn language(body: &Body) -> Result<Lang, Answer> {
    match body.lang.as_deref() {
        None => Ok(Lang::Ko),
        Some(code) => Lang::from_code(code).ok_or_else(|| {
            request_error(400, "bad_option", &format!("lang `{code}`: ko or en / 언어는 ko 또는 en입니다"))
        }),
    }
}

/// Answers one request body (already known to be JSON) for `endpoint`.
pub fn answer(endpoint: Endpoint, body: &Body, curricula: &Curricula) -> Answer {
    let lang = match language(body) {
        Ok(lang) => lang,
        Err(answer) => return answer,
    };
    let result = match endpoint {
        Endpoint::Map => formula(body, lang).and_then(|f| map(f, body, curricula, lang)),
        Endpoint::Read => formula(body, lang).and_then(|f| read(f, lang)),
        Endpoint::Parse => formula(body, lang).and_then(|f| parse(f, lang)),
        Endpoint::Eval => formula(body, lang).and_then(|f| eval(f, body, lang)),
        Endpoint::Compare => compare(body, curricula, lang),
        Endpoint::Curriculum => articles(body, curricula, lang),
    };
    result.unwrap_or_else(|answer| answer)
}

/// The one formula of a request.
fn formula(body: &Body, lang: Lang) -> Result<&str, Answer> {
    if body.formulas.is_some() {
        return Err(request_error(
            400,
            "bad_option",
            lang.pick("`formulas`는 compare에만 씁니다", "`formulas` is for compare only"),
        ));
    }
    body.formula.as_deref().ok_or_else(|| {
        request_error(400, "missing_formula", lang.pick("`formula`가 없습니다", "no `formula` in the body"))
    })
}

/// The knowledge of the curriculum a request names.
fn knowledge<'a>(body: &Body, curricula: &'a Curricula, lang: Lang) -> Result<&'a Knowledge, Answer> {
    match body.curriculum.as_deref() {
        None | Some("ai-math") => Ok(&curricula.ai_math),
        Some("transformer-series") => Ok(&curricula.transformer_series),
        Some(other) => Err(request_error(
            400,
            "bad_option",
            &match lang {
                Lang::Ko => format!(
                    "커리큘럼 `{other}`: ai-math 또는 transformer-series입니다 (서버는 파일을 읽지 않습니다)"
                ),
                Lang::En => {
                    format!("curriculum `{other}`: ai-math or transformer-series (the server reads no files)")
                }
            },
        )),
    }
}

/// A formula's failure: 422, the CLI's JSON record of it, and the caret rendering, both in the
/// server's words (its limits are fixed: no flag raises them).
fn failure(formula: &str, failure: &Failure, lang: Lang) -> Answer {
    let mut record = eval_report::failure_json_on(formula, 1, failure, lang, Surface::Server);
    if let Json::Object(fields) = &mut record {
        let rendered =
            eval_report::render_failure_on(formula, failure, lang, Layout::default(), Surface::Server);
        fields.insert("rendered".into(), json!(rendered));
        fields.insert("status".into(), json!(422));
        if !fields.contains_key("error") {
            fields.insert("error".into(), json!("eval"));
        }
    }
    Answer { status: 422, body: eqmap::json::pretty(&record) }
}

fn parse_failure(formula: &str, error: ParseError, lang: Lang) -> Answer {
    failure(formula, &Failure::Parse(error), lang)
}

fn map(formula: &str, body: &Body, curricula: &Curricula, lang: Lang) -> Result<Answer, Answer> {
    let knowledge = knowledge(body, curricula, lang)?;
    let map = eqmap::slotmap::map_pasted(formula, knowledge, lang, &Limits::default())
        .map_err(|error| parse_failure(formula, error, lang))?;
    Ok(Answer::ok(map_report::render_json(&map)))
}

fn read(formula: &str, lang: Lang) -> Result<Answer, Answer> {
    let (pasted, parsed) = eqmap::paste::parse(formula, &Limits::default())
        .map_err(|error| parse_failure(formula, error, lang))?;
    let table = eqmap::meaning::SymbolTable::from_formula(&parsed.root);
    let reading = eqmap::speak::read(&parsed.root, &pasted.text, &table, lang);
    let code = lang.pick("ko", "en");
    Ok(Answer::ok(eqmap::json::pretty(&json!({ "formula": formula, "lang": code, "reading": reading }))))
}

fn parse(formula: &str, lang: Lang) -> Result<Answer, Answer> {
    let (pasted, parsed) = eqmap::paste::parse(formula, &Limits::default())
        .map_err(|error| parse_failure(formula, error, lang))?;
    let latex = eqmap::syntax::print::to_latex(&parsed.root);
    let warnings = pasted.all_warnings(&parsed.warnings);
    let markup = mathml::to_mathml_mapped(&parsed.root, &|span| pasted.original(span));
    let record = crate::parse_record(formula, &pasted, &parsed, &latex, &warnings);
    Ok(Answer::ok(eqmap::json::pretty(&eqmap::report::tree_json::ParseRecord {
        mathml: Some(&markup),
        ..record
    })))
}

fn eval(formula: &str, body: &Body, lang: Lang) -> Result<Answer, Answer> {
    let seed_text = match &body.seed {
        None | Some(Json::Null) => None,
        Some(Json::String(text)) => Some(text.clone()),
        Some(other) => Some(other.to_string()),
    };
    let seed = crate::seed_named("`seed`", seed_text.as_deref(), lang)
        .map_err(|m| request_error(400, "bad_option", &m))?;
    let options = Options {
        seed,
        max_elements: MAX_ELEMENTS,
        max_steps: eqmap::eval::DEFAULT_MAX_STEPS,
        trace: body.trace.unwrap_or(false),
        limits: Limits::default(),
    };
    let mut session = Session::new(options);
    let binding_failure = |source: &str, error| failure(source, &Failure::Eval(error), lang);
    if let Some(lets) = &body.lets {
        for (name, text) in lets.pairs().map_err(|e| binding_failure("let", e))? {
            if text.starts_with('@') {
                let message = lang.pick(
                    "`let`의 @FILE은 명령줄에서만 씁니다 (서버는 파일을 읽지 않습니다)",
                    "`let` NAME=@FILE is for the command line only (the server reads no files)",
                );
                return Err(request_error(400, "bad_option", message));
            }
            session.bind_json(&name, &text).map_err(|e| binding_failure(&text, e))?;
        }
    }
    if let Some(dims) = &body.dim {
        for (name, text) in dims.pairs().map_err(|e| binding_failure("dim", e))? {
            let size = bindings::dimension_size(&name, &text).map_err(|e| binding_failure(&text, e))?;
            session.set_dim(&name, size);
        }
    }
    let input = Input { line: 1, text: formula.to_string() };
    match crate::evaluate_one(&mut session, &input) {
        Ok(outcome) => Ok(Answer::ok(format!("{}\n", eval_report::to_json(&outcome)))),
        Err(error) => Err(failure(formula, &error, lang)),
    }
}

fn compare(body: &Body, curricula: &Curricula, lang: Lang) -> Result<Answer, Answer> {
    let pair = match body.formulas.as_deref() {
        Some([first, second]) if body.formula.is_none() => (first, second),
        _ => {
            let message = lang.pick(
                "compare에는 `formulas`: [식, 식]이 필요합니다",
                "compare takes `formulas`: [formula, formula]",
            );
            return Err(request_error(400, "missing_formula", message));
        }
    };
    let knowledge = knowledge(body, curricula, lang)?;
    let limits = Limits::default();
    let first = eqmap::slotmap::map_pasted(pair.0, knowledge, lang, &limits)
        .map_err(|error| with_index(parse_failure(pair.0, error, lang), 0))?;
    let second = eqmap::slotmap::map_pasted(pair.1, knowledge, lang, &limits)
        .map_err(|error| with_index(parse_failure(pair.1, error, lang), 1))?;
    let comparison = eqmap::slotmap::compare(&first, &second);
    Ok(Answer::ok(format!("{}\n", eqmap::json::pretty(&comparison))))
}

/// A compare failure says which of the two formulas failed (`"which": 0 | 1`).
fn with_index(answer: Answer, which: usize) -> Answer {
    match serde_json::from_str::<Json>(&answer.body) {
        Ok(Json::Object(mut fields)) => {
            fields.insert("which".into(), json!(which));
            Answer { status: answer.status, body: eqmap::json::pretty(&Json::Object(fields)) }
        }
        _ => answer,
    }
}

fn articles(body: &Body, curricula: &Curricula, lang: Lang) -> Result<Answer, Answer> {
    let curriculum = &knowledge(body, curricula, lang)?.curriculum;
    let articles: Vec<Json> = curriculum
        .articles
        .iter()
        .map(|article| {
            json!({
                "number": article.number,
                "label": curriculum.article_label(article.number, lang),
                "title": article.title.get(lang),
            })
        })
        .collect();
    let value = json!({ "id": curriculum.id, "name": curriculum.name.get(lang), "articles": articles });
    Ok(Answer::ok(eqmap::json::pretty(&value)))
}
