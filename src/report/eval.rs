//! Evaluation results rendered: a text table (value, claim, samples, trace), JSON, and
//! evaluation errors with a caret under the slot.

use crate::eval::{EvalError, Failure, Outcome, OutcomeKind, TraceRow, Value, Warning};
use crate::lang::Lang;
use crate::report::diagnostic::{self, Label, Layout, Severity};
use crate::surface::Surface;
use serde_json::{json, Value as Json};
use unicode_width::UnicodeWidthStr;

/// Rows and columns of a value shown before eliding with `…`.
const SHOWN: usize = 8;

/// A failure rendered under its source with a caret.
pub fn render_failure(source: &str, failure: &Failure, lang: Lang) -> String {
    render_failure_in(source, failure, lang, Layout::default())
}

/// [`render_failure`] laid out by `layout` (line numbers, colour).
pub fn render_failure_in(source: &str, failure: &Failure, lang: Lang, layout: Layout) -> String {
    render_failure_on(source, failure, lang, layout, Surface::Cli)
}

/// [`render_failure_in`] with the message as `surface` shows it (see [`crate::surface`]).
pub fn render_failure_on(
    source: &str,
    failure: &Failure,
    lang: Lang,
    layout: Layout,
    surface: Surface,
) -> String {
    match failure {
        Failure::Parse(e) => diagnostic::render_error_on(source, e, lang, layout, surface),
        Failure::Eval(e) => {
            let label = Label { span: e.span, text: e.label(lang) };
            let message = e.message_on(lang, surface);
            diagnostic::render_in(source, Severity::Error, &message, &label, None, lang, layout)
        }
    }
}

/// A failure as a JSON record, for `--format json` on many lines: what went wrong (the
/// error's fields, its `span` in `formula`), the `message`, and the `line` of input.
pub fn failure_json(formula: &str, line: usize, failure: &Failure, lang: Lang) -> Json {
    failure_json_on(formula, line, failure, lang, Surface::Cli)
}

/// [`failure_json`] with the message as `surface` shows it (see [`crate::surface`]).
pub fn failure_json_on(formula: &str, line: usize, failure: &Failure, lang: Lang, surface: Surface) -> Json {
    let mut record = serde_json::to_value(failure).unwrap_or(Json::Null);
    if let Json::Object(fields) = &mut record {
        fields.insert("line".into(), json!(line));
        fields.insert("formula".into(), json!(formula));
        fields.insert("message".into(), json!(failure.message_on(lang, surface)));
    }
    record
}

/// An evaluation error rendered under its source with a caret.
pub fn render_error(source: &str, error: &EvalError, lang: Lang) -> String {
    let label = Label { span: error.span, text: error.label(lang) };
    diagnostic::render(source, lang.pick("오류", "error"), &error.message(lang), &label, None)
}

/// The warnings of an outcome, rendered for standard error.
pub fn render_warnings(outcome: &Outcome, lang: Lang) -> String {
    render_warnings_in(outcome, lang, Layout::default())
}

/// [`render_warnings`] laid out by `layout` (line numbers, colour).
pub fn render_warnings_in(outcome: &Outcome, lang: Lang, layout: Layout) -> String {
    let mut out = String::new();
    for warning in &outcome.parse_warnings {
        out.push_str(&diagnostic::render_warning_in(&outcome.formula, warning, lang, layout));
    }
    for warning in &outcome.warnings {
        let severity = lang.pick("경고", "warning");
        match warning {
            Warning::NonFinite { count, span } => {
                let message = match lang {
                    Lang::Ko => format!("결과에 NaN이나 무한대인 값이 {count}개 있습니다"),
                    Lang::En => format!("the result has {count} NaN or infinite entries"),
                };
                let label = Label { span: *span, text: String::new() };
                let warning = Severity::Warning;
                out.push_str(&diagnostic::render_in(
                    &outcome.formula,
                    warning,
                    &message,
                    &label,
                    None,
                    lang,
                    layout,
                ));
            }
            Warning::Unevaluated { missing } => {
                let names = missing.join(", ");
                let message = match lang {
                    Lang::Ko => format!("정의만 기록했습니다: {names}에 값을 주거나(--let) --seed로 표본을 뽑으면 계산합니다"),
                    Lang::En => format!("recorded the definition only: bind {names} (--let) or sample them (--seed) to evaluate it"),
                };
                out.push_str(&format!("{severity}: {message}\n"));
            }
        }
    }
    out
}

/// The outcome as JSON: `{"shape", "value"}`, plus `"holds"` and `"max_abs_diff"` for a
/// claim, and what was sampled, the dimensions, warnings and the trace.
pub fn to_json(outcome: &Outcome) -> Json {
    let mut object = json!({
        "formula": outcome.formula,
        "kind": outcome.kind,
        "shape": outcome.value.as_ref().map(Value::shape),
        "symbolic_shape": outcome.symbolic,
        "value": outcome.value.as_ref().map_or(Json::Null, Value::to_json),
        "sampled": outcome.sampled,
        "dims": outcome.dims.iter().map(|(n, s)| (n.clone(), json!(s))).collect::<serde_json::Map<_, _>>(),
        "warnings": outcome.warnings,
    });
    if let (Some(map), Some(holds)) = (object.as_object_mut(), outcome.holds) {
        map.insert("holds".into(), json!(holds));
        map.insert(
            "max_abs_diff".into(),
            crate::eval::value::number_json(outcome.max_abs_diff.unwrap_or(f64::NAN)),
        );
        map.insert("sides".into(), Json::Array(outcome.sides.iter().map(Value::to_json).collect()));
    }
    if let Some(map) = object.as_object_mut().filter(|_| !outcome.trace.is_empty()) {
        map.insert("trace".into(), json!(outcome.trace));
    }
    object
}

/// The outcome as text: what it was, its shape and value, the claim's verdict, samples,
/// dimensions, and the trace when there is one.
pub fn render_table(outcome: &Outcome, lang: Lang) -> String {
    let mut out = String::new();
    match &outcome.kind {
        OutcomeKind::Function(name) => out.push_str(&format!("{}: {name}\n", lang.pick("정의", "defined"))),
        OutcomeKind::Family(name) => {
            out.push_str(&format!("{}: {name}\n", lang.pick("정의(첨자족)", "defined family")))
        }
        OutcomeKind::Let(name) => out.push_str(&format!("{}: {name}\n", lang.pick("이름 붙임", "bound"))),
        OutcomeKind::Declaration => out.push_str(&format!("{}\n", lang.pick("선언", "declared"))),
        OutcomeKind::Value | OutcomeKind::Claim => {}
    }
    if !outcome.sampled.is_empty() {
        let parts: Vec<String> =
            outcome.sampled.iter().map(|s| format!("{} ({} = {})", s.name, s.symbolic, s.shape)).collect();
        out.push_str(&format!(
            "{}: {}\n",
            lang.pick("N(0, 1) 표본", "sampled from N(0, 1)"),
            parts.join(", ")
        ));
    }
    if !outcome.dims.is_empty() {
        let parts: Vec<String> = outcome.dims.iter().map(|(n, s)| format!("{n} = {s}")).collect();
        out.push_str(&format!("{}: {}\n", lang.pick("차원", "dimensions"), parts.join(", ")));
    }
    if let Some(holds) = outcome.holds {
        let verdict = match (holds, lang) {
            (true, Lang::Ko) => "성립",
            (true, Lang::En) => "holds",
            (false, Lang::Ko) => "성립하지 않음",
            (false, Lang::En) => "does not hold",
        };
        let diff = outcome.max_abs_diff.map_or_else(String::new, |d| format!("{d:.3e}"));
        out.push_str(&format!("{}: {verdict} (max |Δ| = {diff})\n", lang.pick("등식", "claim")));
        for (i, side) in outcome.sides.iter().enumerate() {
            out.push_str(&format!(
                "{} {} [{}]\n{}",
                lang.pick("변", "side"),
                i + 1,
                side.shape(),
                render_value(side)
            ));
        }
    } else if let Some(value) = &outcome.value {
        let numeric = value.shape().to_string();
        let shown = match outcome.symbolic.as_deref() {
            Some(symbolic) if symbolic != numeric => format!("{symbolic} = {numeric}"),
            _ => numeric,
        };
        out.push_str(&format!("{}: {}\n", lang.pick("모양", "shape"), shape_words(&shown, lang)));
        out.push_str(&render_value(value));
    }
    if !outcome.trace.is_empty() {
        out.push('\n');
        out.push_str(&render_trace(&outcome.trace, lang));
    }
    out
}

/// A value as aligned rows, elided past 8 rows or columns.
pub fn render_value(value: &Value) -> String {
    let rows: Vec<Vec<f64>> = match value {
        Value::Scalar(x) => vec![vec![*x]],
        Value::Vector(v) => vec![v.iter().copied().collect()],
        Value::Matrix(m) => m.row_iter().map(|r| r.iter().copied().collect()).collect(),
        Value::Family(members) => return members.iter().map(render_value).collect::<Vec<_>>().join("\n"),
    };
    let mut cells: Vec<Vec<String>> = rows
        .iter()
        .take(SHOWN)
        .map(|row| {
            let mut cells: Vec<String> = row.iter().take(SHOWN).map(|x| number(*x)).collect();
            if row.len() > SHOWN {
                cells.push("…".into());
            }
            cells
        })
        .collect();
    if rows.len() > SHOWN {
        cells.push(vec!["⋮".into()]);
    }
    let widths = column_widths(&cells);
    let mut out = String::new();
    for row in &cells {
        let line: Vec<String> = row.iter().zip(&widths).map(|(c, w)| pad_left(c, *w)).collect();
        out.push_str(&format!("  {}\n", line.join("  ")));
    }
    out
}

/// A number in a short, exact-enough form.
pub fn number(x: f64) -> String {
    if x.is_nan() {
        return "NaN".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "∞".into() } else { "-∞".into() };
    }
    let magnitude = x.abs();
    if x == 0.0 || (1e-4..1e6).contains(&magnitude) {
        let text = format!("{x:.6}");
        let trimmed = text.trim_end_matches('0').trim_end_matches('.');
        if trimmed == "-0" {
            "0".into()
        } else {
            trimmed.into()
        }
    } else {
        format!("{x:.4e}")
    }
}

fn column_widths(rows: &[Vec<String>]) -> Vec<usize> {
    let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
    (0..columns).map(|i| rows.iter().filter_map(|r| r.get(i)).map(|c| c.width()).max().unwrap_or(0)).collect()
}

fn pad_left(text: &str, width: usize) -> String {
    format!("{}{text}", " ".repeat(width.saturating_sub(text.width())))
}

fn pad_right(text: &str, width: usize) -> String {
    format!("{text}{}", " ".repeat(width.saturating_sub(text.width())))
}

/// A shape as shown in `lang`: `scalar` is 스칼라 in Korean.
fn shape_words(shape: &str, lang: Lang) -> String {
    match lang {
        Lang::Ko => shape.replace("scalar", "스칼라"),
        Lang::En => shape.to_string(),
    }
}

/// The trace as a table: each node's source, shapes and summary; row sums under a softmax.
pub fn render_trace(rows: &[TraceRow], lang: Lang) -> String {
    let header: Vec<String> = [
        lang.pick("자리", "slot"),
        lang.pick("모양(기호)", "shape"),
        lang.pick("크기", "size"),
        lang.pick("최솟값", "min"),
        lang.pick("최댓값", "max"),
        lang.pick("평균", "mean"),
        lang.pick("분산", "variance"),
        lang.pick("행 합", "row sums"),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let mut table = vec![header];
    for row in rows {
        let sums = row.row_sums.as_ref().map_or_else(String::new, |s| range_of(s));
        let flagged = if row.stats.non_finite > 0 {
            format!(" ({} ±∞/NaN)", row.stats.non_finite)
        } else {
            String::new()
        };
        table.push(vec![
            shorten(&row.latex, 48),
            shape_words(&row.symbolic, lang),
            shape_words(&row.shape.to_string(), lang),
            number(row.stats.min),
            number(row.stats.max),
            number(row.stats.mean),
            format!("{}{flagged}", number(row.stats.variance)),
            sums,
        ]);
    }
    let widths = column_widths(&table);
    let mut out = String::new();
    for (i, row) in table.iter().enumerate() {
        let cells: Vec<String> = row.iter().zip(&widths).map(|(c, w)| pad_right(c, *w)).collect();
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
        if i == 0 {
            let rule: Vec<String> = widths.iter().map(|w| "─".repeat(*w)).collect();
            out.push_str(&rule.join("  "));
            out.push('\n');
        }
    }
    out
}

fn range_of(sums: &[f64]) -> String {
    let min = sums.iter().copied().fold(f64::INFINITY, f64::min);
    let max = sums.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if sums.iter().any(|s| s.is_nan()) {
        return "NaN".into();
    }
    format!("{}..{}", number(min), number(max))
}

fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let kept: String = text.chars().take(max.saturating_sub(1)).collect();
    format!("{kept}…")
}
