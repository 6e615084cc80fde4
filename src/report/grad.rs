//! Gradients rendered: text (the value, the cotangent, each ∂L/∂X with its norm, the Jacobian,
//! the per-slot trace) and JSON (`{"value", "gradients": {NAME: value}}`, values written as
//! `eval` writes them).

use crate::eval::grad::{CotangentSource, GradOutcome, GradSlot, GradWarning};
use crate::eval::value::number_json;
use crate::eval::Value;
use crate::lang::Lang;
use crate::report::diagnostic::{self, Label, Layout, Severity};
use crate::report::eval::{number, render_value};
use serde_json::{json, Map, Value as Json};

/// The Frobenius norm of a value's entries.
pub fn norm(value: &Value) -> f64 {
    let mut squares = 0.0;
    value.for_each(&mut |x| squares += x * x);
    squares.sqrt()
}

/// The gradients as JSON: `formula`, `shape`, `value`, `cotangent` (where it came from),
/// `gradients` and their `norms` by name, `jacobian` when asked for, what was sampled, the
/// dimensions, warnings, and the trace when there is one.
pub fn to_json(outcome: &GradOutcome) -> Json {
    let gradients: Map<String, Json> =
        outcome.gradients.iter().map(|(n, g)| (n.clone(), g.to_json())).collect();
    let norms: Map<String, Json> =
        outcome.gradients.iter().map(|(n, g)| (n.clone(), number_json(norm(g)))).collect();
    let mut object = json!({
        "formula": outcome.formula,
        "shape": outcome.value.shape(),
        "symbolic_shape": outcome.outcome.symbolic,
        "value": outcome.value.to_json(),
        "cotangent": outcome.cotangent,
        "gradients": gradients,
        "norms": norms,
        "sampled": outcome.outcome.sampled,
        "dims": outcome.outcome.dims.iter().map(|(n, s)| (n.clone(), json!(s))).collect::<Map<_, _>>(),
        "warnings": outcome.warnings,
    });
    if let Some(map) = object.as_object_mut() {
        if let Some((name, jacobian)) = &outcome.jacobian {
            map.insert("jacobian".into(), json!({ name.clone(): jacobian.to_json() }));
        }
        if let Some(g) =
            outcome.cotangent_value.as_ref().filter(|_| outcome.cotangent == CotangentSource::Sampled)
        {
            map.insert("cotangent_value".into(), g.to_json());
        }
        if !outcome.trace.is_empty() {
            map.insert("trace".into(), json!(outcome.trace));
        }
    }
    object
}

/// The gradients as text.
pub fn render_text(outcome: &GradOutcome, lang: Lang) -> String {
    let mut out = String::new();
    let numeric = outcome.value.shape().to_string();
    let shape = match outcome.outcome.symbolic.as_deref() {
        Some(symbolic) if symbolic != numeric => format!("{symbolic} = {numeric}"),
        _ => numeric,
    };
    out.push_str(&format!("{} [{}]\n", lang.pick("값", "value"), words(&shape, lang)));
    out.push_str(&render_value(&outcome.value));
    if !outcome.outcome.sampled.is_empty() {
        let parts: Vec<String> = outcome
            .outcome
            .sampled
            .iter()
            .map(|s| format!("{} ({} = {})", s.name, s.symbolic, s.shape))
            .collect();
        out.push_str(&format!(
            "{}: {}\n",
            lang.pick("N(0, 1) 표본", "sampled from N(0, 1)"),
            parts.join(", ")
        ));
    }
    if !outcome.outcome.dims.is_empty() {
        let parts: Vec<String> = outcome.outcome.dims.iter().map(|(n, s)| format!("{n} = {s}")).collect();
        out.push_str(&format!("{}: {}\n", lang.pick("차원", "dimensions"), parts.join(", ")));
    }
    out.push_str(&format!("L: {}\n", cotangent_words(outcome.cotangent, lang)));
    for (name, g) in &outcome.gradients {
        out.push_str(&format!(
            "\n∂L/∂{name} [{}]  ‖·‖ = {}\n",
            words(&g.shape().to_string(), lang),
            number(norm(g))
        ));
        out.push_str(&render_value(g));
    }
    if let Some((name, j)) = &outcome.jacobian {
        out.push_str(&format!(
            "\n{} ∂({})/∂{name} [{}]\n",
            lang.pick("야코비 행렬", "Jacobian"),
            lang.pick("값", "value"),
            words(&j.shape().to_string(), lang)
        ));
        out.push_str(&render_value(j));
    }
    if !outcome.trace.is_empty() {
        out.push('\n');
        out.push_str(&render_trace(&outcome.trace, lang));
    }
    out
}

fn cotangent_words(source: CotangentSource, lang: Lang) -> &'static str {
    match source {
        CotangentSource::One => lang.pick("값 그 자체 (수)", "the value itself (a number)"),
        CotangentSource::Ones => lang.pick(
            "값의 모든 항목의 합 (--cotangent ones)",
            "the sum of the value's entries (--cotangent ones)",
        ),
        CotangentSource::Given => lang.pick("Σ G ⊙ 값, G는 --cotangent", "Σ G ⊙ value, G from --cotangent"),
        CotangentSource::Sampled => lang.pick(
            "Σ G ⊙ 값, G는 시드에서 뽑은 N(0, 1) 표본",
            "Σ G ⊙ value, G sampled from N(0, 1) with the seed",
        ),
        CotangentSource::Jacobian => {
            lang.pick("값의 항목마다 (야코비 행렬의 행)", "each entry of the value (a row of the Jacobian)")
        }
    }
}

fn words(shape: &str, lang: Lang) -> String {
    match lang {
        Lang::Ko => shape.replace("scalar", "스칼라"),
        Lang::En => shape.to_string(),
    }
}

/// The trace: each slot with its gradient's shape, norm, min and max.
pub fn render_trace(rows: &[GradSlot], lang: Lang) -> String {
    let header = [
        lang.pick("자리", "slot"),
        lang.pick("모양(기호)", "shape"),
        lang.pick("기울기 크기", "gradient size"),
        lang.pick("노름", "norm"),
        lang.pick("최솟값", "min"),
        lang.pick("최댓값", "max"),
    ];
    let mut table: Vec<Vec<String>> = vec![header.iter().map(|s| s.to_string()).collect()];
    for row in rows {
        let stats = if row.flows {
            vec![number(row.norm), number(row.min), number(row.max)]
        } else {
            vec![
                lang.pick("— (아래에 --wrt 없음)", "— (no --wrt below)").to_string(),
                String::new(),
                String::new(),
            ]
        };
        let mut cells =
            vec![shorten(&row.latex, 48), words(&row.symbolic, lang), words(&row.shape.to_string(), lang)];
        cells.extend(stats);
        table.push(cells);
    }
    let columns = table.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns)
        .map(|i| {
            table
                .iter()
                .filter_map(|r| r.get(i))
                .map(|c| unicode_width::UnicodeWidthStr::width(c.as_str()))
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for (i, row) in table.iter().enumerate() {
        let cells: Vec<String> = row
            .iter()
            .zip(&widths)
            .map(|(c, w)| {
                format!(
                    "{c}{}",
                    " ".repeat(w.saturating_sub(unicode_width::UnicodeWidthStr::width(c.as_str())))
                )
            })
            .collect();
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

fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let kept: String = text.chars().take(max.saturating_sub(1)).collect();
    format!("{kept}…")
}

/// The warnings of the gradients, rendered for standard error under `source`.
pub fn render_warnings_in(source: &str, outcome: &GradOutcome, lang: Lang, layout: Layout) -> String {
    let mut out = String::new();
    for warning in &outcome.warnings {
        match warning {
            GradWarning::Subgradient { operation, count, span } => {
                let message = match lang {
                    Lang::Ko => format!("`{operation}`의 꺾인 점에 항목 {count}개가 있어 미분 대신 부분기울기를 썼습니다 (DESIGN.md)"),
                    Lang::En => format!("{count} entries sit on a kink of `{operation}`: a subgradient was used (DESIGN.md)"),
                };
                let label = Label { span: *span, text: String::new() };
                out.push_str(&diagnostic::render_in(
                    source,
                    Severity::Warning,
                    &message,
                    &label,
                    None,
                    lang,
                    layout,
                ));
            }
            GradWarning::Unused { name } => {
                let message = match lang {
                    Lang::Ko => format!("식에 `{name}` 기호가 쓰이지 않습니다: 기울기는 0입니다"),
                    Lang::En => format!("the formula does not use `{name}`: its gradient is zero"),
                };
                out.push_str(&format!("{}: {message}\n", lang.pick("경고", "warning")));
            }
        }
    }
    out
}
