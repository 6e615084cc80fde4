//! Bindings from the command line: `NAME=JSON` values and `NAME=N` dimension sizes.
//!
//! JSON values are a number, an array (vector), an array of arrays (matrix, row-major) or an
//! array of matrices (a family indexed 1, 2, …); the strings `"inf"`, `"-inf"` and `"nan"`
//! stand for those numbers. Ragged arrays, empty arrays, other strings and values larger than
//! the element limit are refused with an error that says which.

use super::errors::{EvalError, EvalErrorKind};
use super::value::Value;
use crate::syntax::ast::Span;
use nalgebra::{DMatrix, DVector};
use serde_json::Value as Json;

/// Splits `NAME=REST` into its two parts.
pub fn split_assignment(argument: &str) -> Result<(&str, &str), EvalError> {
    match argument.split_once('=') {
        Some((name, rest)) if !name.trim().is_empty() => Ok((name.trim(), rest)),
        _ => Err(bad(
            "",
            "`이름=값` 꼴이어야 합니다 (예: `x=[1, 2, 3]`)",
            "expected NAME=VALUE, as in `x=[1, 2, 3]`",
        )),
    }
}

/// Reads a JSON value for `name`, refusing more than `max_elements` entries.
pub fn value_from_json(name: &str, text: &str, max_elements: usize) -> Result<Value, EvalError> {
    let json: Json = serde_json::from_str(text).map_err(|e| {
        let at = offset(text, e.line(), e.column());
        let (ko, en) = json_reason(text, &e);
        let mut error = bad(name, &ko, &en);
        error.span = Span::new(at, (at + 1).min(text.len()).max(at));
        error
    })?;
    let count = count_entries(&json);
    if count > max_elements as u128 {
        return Err(EvalError::new(
            EvalErrorKind::TooLarge { elements: count, limit: max_elements },
            Span::default(),
        ));
    }
    convert(name, &json)
}

/// Why `text` is not a value, in Korean and English: serde_json's own words where they name a
/// limit (`recursion limit exceeded`, `number out of range`), ours where they name its grammar
/// (`expected ident`, `EOF while parsing a list`).
fn json_reason(text: &str, error: &serde_json::Error) -> (String, String) {
    let example_en = "a number, an array, or an array of arrays, as in [[1, 2], [3, 4]]";
    let example_ko = "수, 배열 또는 배열의 배열을 주세요 (예: [[1, 2], [3, 4]])";
    let words = error.to_string();
    let words = words.split(" at line ").next().unwrap_or("");
    let (line, column) = (error.line(), error.column());
    if words.starts_with("expected")
        || words.starts_with("EOF")
        || words.starts_with("trailing")
        || words.starts_with("key must")
    {
        (
            format!("`{text}` 표기는 값이 아닙니다 ({column}번째 글자): {example_ko}"),
            format!("`{text}` is not a value: give {example_en} (column {column})"),
        )
    } else {
        // The limits serde_json names, in Korean; anything else keeps its own words.
        let words_ko = match words {
            "number out of range" => "수가 너무 큽니다: 64비트 실수의 범위를 넘습니다",
            "recursion limit exceeded" => "배열이 너무 깊게 겹쳐 있습니다",
            other => other,
        };
        (
            format!("JSON을 읽을 수 없습니다 ({words_ko}, {line}행 {column}번째 글자): {example_ko}"),
            format!("{words} at line {line} column {column} ({example_en})"),
        )
    }
}

/// Reads a dimension size for `name`: a positive whole number.
pub fn dimension_size(name: &str, text: &str) -> Result<usize, EvalError> {
    match text.trim().parse::<usize>() {
        Ok(0) => Err(bad(name, "차원의 크기는 1 이상이어야 합니다", "a dimension must be at least 1")),
        Ok(n) => Ok(n),
        Err(e) if *e.kind() == std::num::IntErrorKind::PosOverflow => Err(EvalError::new(
            EvalErrorKind::DimensionTooLarge { name: name.to_string(), text: text.to_string() },
            Span::default(),
        )),
        Err(_) => Err(bad(
            name,
            &format!("`{text}` 표기는 양의 정수가 아닙니다"),
            &format!("`{text}` is not a positive whole number"),
        )),
    }
}

/// The byte offset of serde_json's 1-based line and column in `text`.
fn offset(text: &str, line: usize, column: usize) -> usize {
    let start: usize = text.split_inclusive('\n').take(line.saturating_sub(1)).map(str::len).sum();
    let at = start + column.saturating_sub(1);
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

fn bad(name: &str, ko: &str, en: &str) -> EvalError {
    let reason = super::errors::Reason { ko: ko.to_string(), en: en.to_string() };
    EvalError::new(EvalErrorKind::BadBinding { name: name.to_string(), reason }, Span::default())
}

fn count_entries(json: &Json) -> u128 {
    match json {
        Json::Array(items) => items.iter().map(count_entries).sum(),
        _ => 1,
    }
}

fn convert(name: &str, json: &Json) -> Result<Value, EvalError> {
    match json {
        Json::Array(items) => match items.first() {
            None => Err(bad(
                name,
                "빈 배열에는 계산할 성분이 없습니다",
                "an empty array has no entries to compute with",
            )),
            Some(Json::Array(_)) => nested(name, items),
            Some(_) => Ok(Value::Vector(DVector::from_vec(numbers(name, items)?))),
        },
        other => Ok(Value::Scalar(number(name, other)?)),
    }
}

/// An array of arrays: a matrix, or an array of matrices (a family).
fn nested(name: &str, items: &[Json]) -> Result<Value, EvalError> {
    let is_family =
        items.iter().any(|i| matches!(i, Json::Array(rows) if matches!(rows.first(), Some(Json::Array(_)))));
    if is_family {
        let members = items.iter().map(|i| convert(name, i)).collect::<Result<Vec<_>, _>>()?;
        let first = members.first().map(Value::shape);
        if members.iter().any(|m| !matches!(m, Value::Matrix(_)) || Some(m.shape()) != first) {
            return Err(bad(
                name,
                "행렬 배열의 원소는 모두 같은 모양의 행렬이어야 합니다",
                "the members of an array of matrices must all be matrices of one shape",
            ));
        }
        return Ok(Value::Family(members));
    }
    let mut rows = Vec::with_capacity(items.len());
    for item in items {
        let Json::Array(row) = item else {
            return Err(bad(
                name,
                "한 층에 수와 배열이 섞여 있습니다",
                "mixes numbers and arrays at one level",
            ));
        };
        rows.push(numbers(name, row)?);
    }
    let columns = rows.first().map_or(0, Vec::len);
    if columns == 0 {
        return Err(bad(
            name,
            "빈 행에는 계산할 성분이 없습니다",
            "an empty row has no entries to compute with",
        ));
    }
    if let Some((i, row)) = rows.iter().enumerate().find(|(_, r)| r.len() != columns) {
        let (row_no, len) = (i + 1, row.len());
        return Err(bad(
            name,
            &format!("행의 길이가 다릅니다: 1행은 성분 {columns}개, {row_no}행은 {len}개"),
            &format!("ragged rows: row 1 has {columns} entries, row {row_no} has {len}"),
        ));
    }
    let flat: Vec<f64> = rows.into_iter().flatten().collect();
    Ok(Value::Matrix(DMatrix::from_row_slice(items.len(), columns, &flat)))
}

fn numbers(name: &str, items: &[Json]) -> Result<Vec<f64>, EvalError> {
    items.iter().map(|item| number(name, item)).collect()
}

fn number(name: &str, json: &Json) -> Result<f64, EvalError> {
    match json {
        Json::Number(n) => {
            n.as_f64().ok_or_else(|| bad(name, "범위를 벗어난 수입니다", "a number out of range"))
        }
        Json::String(s) => match s.as_str() {
            "inf" | "+inf" | "Infinity" => Ok(f64::INFINITY),
            "-inf" | "-Infinity" => Ok(f64::NEG_INFINITY),
            "nan" | "NaN" => Ok(f64::NAN),
            other => Err(bad(
                name,
                &format!("문자열 \"{other}\" 표기는 수가 아닙니다 (\"inf\", \"-inf\", \"nan\"만 됩니다)"),
                &format!("the string \"{other}\" is not a number (only \"inf\", \"-inf\", \"nan\")"),
            )),
        },
        Json::Array(_) => {
            Err(bad(name, "한 층에 수와 배열이 섞여 있습니다", "mixes numbers and arrays at one level"))
        }
        other => {
            Err(bad(name, &format!("`{other}` 표기는 수가 아닙니다"), &format!("{other} is not a number")))
        }
    }
}
