//! Scoring the meaning layer against a hand-labelled set of formulas
//! (`tests/fixtures/meaning/`): per-kind precision and recall, and the confusions.
//!
//! A labelled record names each symbol of a formula by its LaTeX as written (`q_i`, `W_i^Q`,
//! `\mathrm{softmax}`) with the kind the paper means. Each labelled symbol is matched with the
//! symbol eqmap lists whose LaTeX is the same (spaces aside), or one of whose occurrences is
//! written so (a formula may spell one symbol `\mathbf{y}` and `\boldsymbol{y}`); a symbol
//! eqmap does not list counts as missed.

use super::{resolve, symbols, SymbolKind, SymbolTable};
use serde::Deserialize;
use std::collections::BTreeMap;

/// One labelled formula.
#[derive(Debug, Clone, Deserialize)]
pub struct Labelled {
    /// The record's id.
    pub id: String,
    /// The formula.
    pub latex: String,
    /// Its symbols with their kinds.
    pub symbols: Vec<LabelledSymbol>,
}

/// One labelled symbol.
#[derive(Debug, Clone, Deserialize)]
pub struct LabelledSymbol {
    /// Its LaTeX as written in the formula.
    pub latex: String,
    /// Its kind, as `kind_word` writes kinds.
    pub kind: String,
}

/// What the meaning layer said of one labelled symbol.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Judged {
    /// The record's id.
    pub id: String,
    /// The symbol's LaTeX.
    pub latex: String,
    /// The labelled kind.
    pub truth: String,
    /// eqmap's kind, or `missing`.
    pub predicted: String,
    /// What decided eqmap's kind (`Debug` of its evidence), empty when missing.
    pub evidence: String,
}

/// The scores of a labelled set.
#[derive(Debug, Clone, Default)]
pub struct Scores {
    /// Every labelled symbol, judged.
    pub judged: Vec<Judged>,
    /// Formulas that did not parse (their symbols count as missed).
    pub unparsed: Vec<String>,
}

impl Scores {
    /// (truth, predicted) → count.
    pub fn confusion(&self) -> BTreeMap<(String, String), usize> {
        let mut out = BTreeMap::new();
        for j in &self.judged {
            *out.entry((j.truth.clone(), j.predicted.clone())).or_insert(0) += 1;
        }
        out
    }

    /// Precision and recall of `kind`: (correct / predicted as kind, correct / labelled kind).
    pub fn precision_recall(&self, kind: &str) -> (f64, f64) {
        let correct = self.judged.iter().filter(|j| j.truth == kind && j.predicted == kind).count();
        let predicted = self.judged.iter().filter(|j| j.predicted == kind).count();
        let labelled = self.judged.iter().filter(|j| j.truth == kind).count();
        (ratio(correct, predicted), ratio(correct, labelled))
    }

    /// The share of labelled symbols whose kind eqmap gives.
    pub fn accuracy(&self) -> f64 {
        ratio(self.judged.iter().filter(|j| j.truth == j.predicted).count(), self.judged.len())
    }

    /// How many labelled symbols are of `kind`.
    pub fn support(&self, kind: &str) -> usize {
        self.judged.iter().filter(|j| j.truth == kind).count()
    }
}

fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 {
        1.0
    } else {
        a as f64 / b as f64
    }
}

/// The kinds the labelled sets use, in the order reports list them.
pub const KINDS: &[&str] = &[
    "scalar",
    "dimension",
    "index",
    "vector",
    "matrix",
    "function",
    "random_variable",
    "distribution",
    "set",
];

/// Reads JSONL text of labelled records; lines that are not records are errors.
pub fn read_labelled(text: &str) -> Result<Vec<Labelled>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| serde_json::from_str(l).map_err(|e| format!("line {}: {e}", i + 1)))
        .collect()
}

/// Judges every labelled symbol of `records`.
pub fn score(records: &[Labelled]) -> Scores {
    let mut scores = Scores::default();
    for record in records {
        let Ok(parsed) = crate::parse(&record.latex) else {
            scores.unparsed.push(record.id.clone());
            for symbol in &record.symbols {
                scores.judged.push(judged(record, symbol, None));
            }
            continue;
        };
        let table = SymbolTable::from_formula(&parsed.root);
        let term = resolve(&parsed.root, &table);
        let found = symbols(&term, &record.latex);
        for symbol in &record.symbols {
            let key = compact(&symbol.latex);
            let entry = found
                .iter()
                .find(|entry| compact(&entry.latex) == key)
                .or_else(|| found.iter().find(|entry| written_as(entry, &record.latex, &key)));
            scores.judged.push(judged(record, symbol, entry));
        }
    }
    scores
}

/// Whether one of an entry's occurrences is written as `key` (`\\boldsymbol{y}` beside the
/// `\\mathbf{y}` the entry was first written as).
fn written_as(entry: &super::SymbolEntry, source: &str, key: &str) -> bool {
    entry.spans.iter().any(|span| source.get(span.start..span.end).is_some_and(|text| compact(text) == key))
}

fn judged(record: &Labelled, symbol: &LabelledSymbol, entry: Option<&super::SymbolEntry>) -> Judged {
    Judged {
        id: record.id.clone(),
        latex: symbol.latex.clone(),
        truth: symbol.kind.clone(),
        predicted: entry.map_or("missing", |entry| kind_name(entry.kind)).to_string(),
        evidence: entry.map(|entry| format!("{:?}", entry.evidence)).unwrap_or_default(),
    }
}

fn kind_name(kind: SymbolKind) -> &'static str {
    super::kind_word(kind)
}

/// LaTeX without spaces and without the braces around one-character scripts (`d_{k}` = `d_k`).
pub fn compact(latex: &str) -> String {
    let spaceless: String = latex.chars().filter(|c| !c.is_whitespace()).collect();
    let mut out = String::with_capacity(spaceless.len());
    let chars: Vec<char> = spaceless.chars().collect();
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        let one_char_group = matches!(chars.get(i + 1..i + 4), Some([open, x, close]) if *open == '{' && *close == '}' && x.is_alphanumeric());
        if (c == '_' || c == '^') && one_char_group {
            out.push(c);
            if let Some(x) = chars.get(i + 2) {
                out.push(*x);
            }
            i += 4;
            continue;
        }
        out.push(c);
        i += 1;
    }
    out
}
