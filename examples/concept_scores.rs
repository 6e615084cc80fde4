//! The map's concepts against the hand-labelled sets of `tests/fixtures/concepts/` (issue 15):
//! `cargo run --release --example concept_scores [--misses]`.
//!
//! Every formula of both halves is mapped as `eqmap map --format json` maps it
//! ([`eqmap::slotmap::map_pasted`] with the shipped rules, concepts and default curriculum).
//! The concepts *raised* for a formula are the distinct concept ids of all its rows, visible
//! and hidden, without the `unknown` of notation no rule knows. For each half the example
//! prints:
//!
//! - **recall**: expected concepts raised / expected concepts, summed over the formulas (micro).
//!   It is also printed without the `missing.…` ids, which are the concepts the project lacks.
//! - **precision**, defined here as 1 − (objections raised / concepts raised): the share of
//!   raised concepts a teacher would not strike out. A raised concept that is neither expected
//!   nor an objection counts as harmless. The labels leave out the symbol-kind rows
//!   ([`SYMBOL_KINDS`]), which every formula gets and which fill the denominator, so the
//!   precision is printed a second time with those rows left out of the concepts raised.
//! - the same two figures for each family (`families.toml`, else the id's prefix).
//!
//! A third file, `probes.jsonl`, holds textbook and paper formulas written while rules were
//! written (session 18), labelled the same way; it is scored like the development half.
//!
//! A fourth, `broad.jsonl` (session 33), holds formulas of less-cited papers labelled before any
//! rule was written for them; like the halves it may name concepts the project lacks
//! (`missing.…`). It is scored like the development half, misses listed.
//!
//! `--only=PATH` scores one other file of the same form instead (a new batch of probes before
//! it joins `probes.jsonl`).
//!
//! `--misses` lists the misses of the development half and the probes only: expected concepts
//! not raised, and objections raised. The held-out half is only scored. Its misses are never printed, so that
//! nobody writes rules against it.
//!
//! `tests/concept_labelled.rs` includes this file for [`score_file`] and holds the floors.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;

/// `println!` that stops quietly when the reader has gone (`… | head`).
macro_rules! out {
    ($($arg:tt)*) => {
        if writeln!(std::io::stdout(), $($arg)*).is_err() {
            std::process::exit(0);
        }
    };
}

/// The families concepts are counted in.
pub const FAMILIES: [&str; 11] = [
    "information-theory",
    "probability",
    "optimisation",
    "layers",
    "linear-algebra",
    "numerics",
    "calculus",
    "rl",
    "generative",
    "notation",
    "attention",
];

/// The symbol-kind concepts the labels leave out: with them the precision's denominator
/// grows with every formula's letters, so it is also printed without them.
pub const SYMBOL_KINDS: [&str; 6] = [
    "notation.scalar-symbols",
    "notation.vector-symbols",
    "notation.matrix-symbols",
    "notation.shape",
    "notation.index-sum",
    "notation.call-or-product",
];

/// One labelled formula.
#[derive(Debug, Clone, serde::Deserialize)]
pub struct Labelled {
    pub id: String,
    pub latex: String,
    /// What a teacher expects the map to raise.
    pub concepts: Vec<String>,
    /// What a teacher would object to if the map raised it.
    pub objections: Vec<String>,
}

/// What the map did on one formula.
#[derive(Debug, Clone)]
pub struct Judged {
    pub id: String,
    pub latex: String,
    /// Expected concepts the map did not raise.
    pub missed: Vec<String>,
    /// Objections the map raised.
    pub objected: Vec<String>,
}

/// Counts for one family, or for all.
#[derive(Debug, Clone, Copy, Default)]
pub struct Counts {
    pub expected: usize,
    pub hit: usize,
    /// Expected concepts that the project has (not `missing.…`).
    pub expected_known: usize,
    pub hit_known: usize,
    pub raised: usize,
    pub objected: usize,
    /// Concepts raised that are not symbol-kind rows ([`SYMBOL_KINDS`]).
    pub raised_math: usize,
}

impl Counts {
    /// Expected concepts raised / expected concepts (1 when nothing is expected).
    pub fn recall(&self) -> f64 {
        ratio(self.hit, self.expected)
    }

    /// Recall over the expected concepts the project has.
    pub fn recall_known(&self) -> f64 {
        ratio(self.hit_known, self.expected_known)
    }

    /// 1 − objections raised / concepts raised (1 when nothing is raised).
    pub fn precision(&self) -> f64 {
        kept(self.objected, self.raised)
    }

    /// The precision with only the math concepts counted as raised (no symbol-kind rows).
    pub fn precision_math(&self) -> f64 {
        kept(self.objected, self.raised_math)
    }
}

/// 1 − objected / raised, 1 when nothing is raised.
fn kept(objected: usize, raised: usize) -> f64 {
    if raised == 0 {
        1.0
    } else {
        1.0 - (objected as f64 / raised as f64).min(1.0)
    }
}

fn ratio(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        1.0
    } else {
        part as f64 / whole as f64
    }
}

/// A half's scores.
#[derive(Debug, Clone, Default)]
pub struct Scores {
    pub formulas: usize,
    /// Ids of formulas that did not parse. They raise nothing.
    pub unparsed: Vec<String>,
    pub all: Counts,
    pub families: BTreeMap<String, Counts>,
    pub judged: Vec<Judged>,
}

/// The fixture directory.
pub fn fixtures() -> String {
    format!("{}/tests/fixtures/concepts", env!("CARGO_MANIFEST_DIR"))
}

/// The family of each labelled id (`families.toml`).
pub fn families() -> BTreeMap<String, String> {
    let path = format!("{}/families.toml", fixtures());
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    #[derive(serde::Deserialize)]
    struct File {
        family: BTreeMap<String, String>,
    }
    let file: File = toml::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    file.family
}

/// The family of a concept: the table's, else from the id's prefix (for raised concepts no
/// label names).
pub fn family_of(id: &str, table: &BTreeMap<String, String>) -> String {
    if let Some(family) = table.get(id) {
        return family.clone();
    }
    let family = match id.split('.').next().unwrap_or("") {
        "missing" => id.split('.').nth(1).unwrap_or("notation"),
        "info" => "information-theory",
        "prob" | "stat" => "probability",
        "opt" => "optimisation",
        "linalg" => "linear-algebra",
        "numeric" => "numerics",
        "calc" => "calculus",
        "rl" => "rl",
        "gen" => "generative",
        "nn" if matches!(id, "nn.attention" | "nn.multi-head" | "nn.positional-encoding") => "attention",
        "nn" => "layers",
        _ => "notation",
    };
    family.to_string()
}

/// The labelled formulas of `file` (`dev.jsonl` or `heldout.jsonl`; a path with a `/` is read
/// as it is).
pub fn read_labelled(file: &str) -> Vec<Labelled> {
    let path = if file.contains('/') { file.to_string() } else { format!("{}/{file}", fixtures()) };
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .enumerate()
        .map(|(n, line)| serde_json::from_str(line).unwrap_or_else(|e| panic!("{path}:{}: {e}", n + 1)))
        .collect()
}

/// The distinct concepts the map raises for `latex`, or `None` if it does not parse.
pub fn raised(latex: &str, knowledge: &eqmap::slotmap::Knowledge) -> Option<BTreeSet<String>> {
    let map =
        eqmap::slotmap::map_pasted(latex, knowledge, eqmap::Lang::En, &eqmap::Limits::default()).ok()?;
    Some(
        map.slots
            .iter()
            .flat_map(|slot| slot.explanation.concepts.iter())
            .filter(|c| c.as_str() != "unknown")
            .cloned()
            .collect(),
    )
}

/// Scores the map on `records`.
pub fn score(records: &[Labelled], knowledge: &eqmap::slotmap::Knowledge) -> Scores {
    let table = families();
    let mut scores = Scores { formulas: records.len(), ..Scores::default() };
    for record in records {
        let raised = raised(&record.latex, knowledge).unwrap_or_else(|| {
            scores.unparsed.push(record.id.clone());
            BTreeSet::new()
        });
        let mut judged =
            Judged { id: record.id.clone(), latex: record.latex.clone(), missed: vec![], objected: vec![] };
        for concept in &record.concepts {
            let hit = raised.contains(concept);
            let known = !concept.starts_with("missing.");
            for counts in [&mut scores.all, scores.families.entry(family_of(concept, &table)).or_default()] {
                counts.expected += 1;
                counts.hit += usize::from(hit);
                counts.expected_known += usize::from(known);
                counts.hit_known += usize::from(known && hit);
            }
            if !hit {
                judged.missed.push(concept.clone());
            }
        }
        for concept in &raised {
            let objected = record.objections.contains(concept);
            for counts in [&mut scores.all, scores.families.entry(family_of(concept, &table)).or_default()] {
                counts.raised += 1;
                counts.objected += usize::from(objected);
                counts.raised_math += usize::from(!SYMBOL_KINDS.contains(&concept.as_str()));
            }
            if objected {
                judged.objected.push(concept.clone());
            }
        }
        scores.judged.push(judged);
    }
    scores
}

/// Scores one half with the shipped knowledge.
pub fn score_file(file: &str) -> Scores {
    let knowledge =
        eqmap::slotmap::Knowledge::default_knowledge().unwrap_or_else(|e| panic!("knowledge: {e}"));
    score(&read_labelled(file), &knowledge)
}

fn percent(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

fn main() {
    let misses = std::env::args().skip(1).any(|a| a == "--misses");
    // `--only=PATH`: score one labelled file of the same form instead (a batch labelled before
    // it joins the probes), its misses listed with `--misses`.
    let only = std::env::args().skip(1).find_map(|a| a.strip_prefix("--only=").map(str::to_string));
    let halves = match &only {
        Some(path) => vec![(path.as_str(), "labelled file")],
        None => vec![
            ("dev.jsonl", "development"),
            ("heldout.jsonl", "held-out"),
            ("probes.jsonl", "probes, written for rules"),
            ("broad.jsonl", "broad, less-cited papers"),
        ],
    };
    for (file, half) in halves {
        let scores = score_file(file);
        let all = scores.all;
        out!(
            "{half} ({file}): {} formulas, {} unparsed\n  recall {} ({}/{}), without missing.* {} ({}/{}); precision {} ({} objections raised of {} concepts raised), without symbol-kind rows {} (of {})",
            scores.formulas,
            scores.unparsed.len(),
            percent(all.recall()),
            all.hit,
            all.expected,
            percent(all.recall_known()),
            all.hit_known,
            all.expected_known,
            percent(all.precision()),
            all.objected,
            all.raised,
            percent(all.precision_math()),
            all.raised_math
        );
        out!(
            "  {:<19} {:>8} {:>7} {:>13} {:>7} {:>10}",
            "family",
            "expected",
            "recall",
            "recall known",
            "raised",
            "precision"
        );
        for family in FAMILIES {
            let c = scores.families.get(family).copied().unwrap_or_default();
            out!(
                "  {family:<19} {:>8} {:>7} {:>13} {:>7} {:>10}",
                c.expected,
                percent(c.recall()),
                percent(c.recall_known()),
                c.raised,
                percent(c.precision())
            );
        }
        if misses && file != "heldout.jsonl" {
            out!("  misses (expected not raised; objections raised):");
            for judged in scores.judged.iter().filter(|j| !j.missed.is_empty() || !j.objected.is_empty()) {
                out!(
                    "    {}  {}\n      missed: {}  objected: {}",
                    judged.id,
                    judged.latex,
                    judged.missed.join(" "),
                    judged.objected.join(" ")
                );
            }
        }
    }
}
