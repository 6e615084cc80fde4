//! `eqmap parse --format json`, run as the real binary, prints byte for byte what printing the
//! record as a `serde_json::Value` prints (keys sorted in every object, the indentation capped),
//! on every formula of the fixtures and on formulas that hold every kind of node and operator:
//! the tree is streamed now (`report/tree_json.rs`), and the output must not change.

use assert_cmd::Command;
use std::collections::BTreeSet;
use std::path::Path;

fn eqmap() -> Command {
    Command::cargo_bin("eqmap").unwrap_or_else(|e| panic!("binary not built: {e}"))
}

/// Formulas that, together, hold every node kind, every operator and the optional parts
/// (a root's index, a label, an unclosed bracket, an array's columns) both present and absent.
const EVERY_KIND: &[&str] = &[
    r"x_i^2 + 0.5 - \alpha \cdot y, z; w",
    r"\mathrm{softmax}(x) \le \log y \max_k \operatorname*{argmax} \text{if} \mathbf{ab}",
    r"\sum_{i=1}^{N} \dots a_{\cdots} ? \foo ☃ {} & b",
    r"-x + \pm y = \neg p, n! \ne f'(x)",
    r"\frac{a}{b} \binom{n}{k} \sqrt{x} \sqrt[3]{y} \hat{y} \overline{AB}",
    r"\mathbf{x + y} \boxed{z} \left( x \right. [0, 1) \|v\| \langle a, b \rangle \lfloor t \rfloor",
    r"\underbrace{Q}_{n \times d_k} \overbrace{K} \overset{a}{b} \underset{c}{d}",
    r"a \stackrel{\text{def}}{=} b \to c \sim d \mid e \in \mathbb{R}",
    r"\begin{bmatrix} 1 & 2 \\ 3 & 4 \end{bmatrix} \begin{array}{cc|l} a & b & c \end{array}",
    r"\begin{cases} 1 & x > 0 \\ 0 & \text{otherwise} \end{cases}",
    r"a & = b \\ c & = d",
    "QKᵀ/√dₖ + ‖x‖₂ − α",
];

/// The record as it was printed before the tree was streamed: a `serde_json::Value`.
fn as_value(formula: &str) -> serde_json::Value {
    let (pasted, parsed) = eqmap::paste::parse(formula, &eqmap::Limits::default())
        .unwrap_or_else(|e| panic!("{formula}: {e:?}"));
    serde_json::json!({
        "formula": formula,
        "read": pasted.text,
        "latex": eqmap::syntax::print::to_latex(&parsed.root),
        "tree": parsed.root,
        "warnings": pasted.all_warnings(&parsed.warnings),
    })
}

/// The formulas of the fixtures that parse: seeds, meaning cases, the map fixtures, both sides
/// of the Unicode pairs, and [`EVERY_KIND`].
fn formulas() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut found: Vec<String> = EVERY_KIND.iter().map(|f| f.to_string()).collect();
    for folder in ["seeds", "meaning/cases"] {
        let mut paths: Vec<_> = std::fs::read_dir(root.join(folder))
            .unwrap_or_else(|e| panic!("{folder}: {e}"))
            .filter_map(|entry| entry.ok().map(|e| e.path()))
            .filter(|path| path.extension().is_some_and(|ext| ext == "tex"))
            .collect();
        paths.sort();
        for path in paths {
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            found.push(text.trim().to_string());
        }
    }
    for file in ["map/more.txt", "unicode/pairs.txt"] {
        let text = std::fs::read_to_string(root.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        found.extend(text.lines().flat_map(|line| line.split('\t')).map(str::trim).map(String::from));
    }
    found.retain(|f| {
        !f.is_empty() && !f.contains('\n') && eqmap::paste::parse(f, &eqmap::Limits::default()).is_ok()
    });
    found.dedup();
    found
}

/// Every `kind` and every `op` the value holds.
fn tags(value: &serde_json::Value, seen: &mut BTreeSet<String>) {
    match value {
        serde_json::Value::Object(map) => {
            for key in ["kind", "op"] {
                if let Some(serde_json::Value::String(tag)) = map.get(key) {
                    seen.insert(format!("{key}:{tag}"));
                }
            }
            map.values().for_each(|v| tags(v, seen));
        }
        serde_json::Value::Array(items) => items.iter().for_each(|v| tags(v, seen)),
        _ => {}
    }
}

#[test]
fn parse_json_prints_what_the_tree_as_a_value_prints() {
    let formulas = formulas();
    assert!(formulas.len() > 100, "the fixtures are there: {}", formulas.len());
    let mut seen = BTreeSet::new();
    for formula in &formulas {
        let value = as_value(formula);
        tags(&value["tree"], &mut seen);
        let output =
            eqmap().args(["parse", "--format", "json", formula]).output().unwrap_or_else(|e| panic!("{e}"));
        assert!(output.status.success(), "{formula}");
        let expected = format!("{}\n", eqmap::json::pretty(&value));
        assert_eq!(String::from_utf8_lossy(&output.stdout), expected, "{formula}");
    }
    let kinds = [
        "symbol",
        "number",
        "word",
        "large_op",
        "dots",
        "punct",
        "unknown",
        "empty",
        "chain",
        "prefix",
        "factorial",
        "scripts",
        "frac",
        "binom",
        "sqrt",
        "accent",
        "styled",
        "boxed",
        "fenced",
        "annotated",
        "stacked",
        "rows",
    ];
    let ops = ["separator", "relation", "stacked", "additive", "multiplicative", "juxt"];
    let wanted = kinds.iter().map(|k| format!("kind:{k}")).chain(ops.iter().map(|o| format!("op:{o}")));
    let missing: Vec<String> = wanted.filter(|tag| !seen.contains(tag)).collect();
    assert!(missing.is_empty(), "no formula holds {missing:?}");
}

#[test]
fn parse_json_of_many_formulas_prints_what_the_values_print_one_a_line() {
    let formulas = formulas();
    let stdin = formulas.join("\n") + "\n";
    let output = eqmap()
        .args(["parse", "--format", "json"])
        .write_stdin(stdin)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(output.status.success());
    let expected: String =
        formulas.iter().map(|f| format!("{}\n", eqmap::json::compact(&as_value(f)))).collect();
    assert_eq!(String::from_utf8_lossy(&output.stdout), expected);
}
