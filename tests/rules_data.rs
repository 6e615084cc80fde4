//! The shipped knowledge: every rule fires on its examples, every shipped rule fires on some
//! formula of the tests or the corpora, every concept a rule names exists and is placed by
//! both curricula.

use eqmap::annotate::{fired_rules, rules, RuleSet};
use eqmap::curriculum::{Concepts, Curriculum, DEFAULT_CONCEPTS};
use eqmap::meaning::SymbolTable;
use std::collections::BTreeSet;
use std::path::Path;

fn shipped_rules() -> RuleSet {
    RuleSet::shipped().unwrap_or_else(|e| panic!("{e}"))
}

fn fired(source: &str, rules: &RuleSet) -> Vec<String> {
    match eqmap::parse(source) {
        Ok(parsed) => fired_rules(&parsed.root, source, &SymbolTable::from_formula(&parsed.root), rules),
        Err(_) => Vec::new(),
    }
}

#[test]
fn every_rule_fires_on_each_of_its_examples() {
    let rules = shipped_rules();
    for rule in &rules.rules {
        assert!(!rule.examples.is_empty(), "rule {} has no examples", rule.id);
        for example in &rule.examples {
            assert!(
                fired(example, &rules).contains(&rule.id),
                "rule {} does not fire on its example {example}",
                rule.id
            );
        }
    }
}

/// Formulas of the tests (seed and map fixtures, the labelled dev half), the shipped corpus and the real corpora
/// beside the repository (when present), one a line.
fn formulas() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    if let Ok(entries) = std::fs::read_dir(root.join("tests/fixtures/seeds")) {
        for entry in entries.flatten() {
            out.extend(std::fs::read_to_string(entry.path()).ok().map(|t| t.trim().to_string()));
        }
    }
    for file in [
        "tests/fixtures/map/more.txt",
        "tests/fixtures/meaning/dev.jsonl",
        "tests/fixtures/meaning/heldout.jsonl",
        "tests/fixtures/concepts/dev.jsonl",
        "tests/fixtures/concepts/probes.jsonl",
        "tests/fixtures/concepts/broad.jsonl",
        "corpus/equations.jsonl",
        "../shared/corpus-real/d2l_display.txt",
        "../shared/corpus-real/d2l_inline.txt",
    ] {
        if let Ok(text) = std::fs::read_to_string(root.join(file)) {
            out.extend(text.lines().map(corpus_line));
        }
    }
    out
}

/// A corpus line: JSONL records carry the formula under "latex"; text files are the formula.
fn corpus_line(line: &str) -> String {
    match serde_json::from_str::<serde_json::Value>(line) {
        Ok(value) => value["latex"].as_str().unwrap_or("").to_string(),
        Err(_) => line.to_string(),
    }
}

#[test]
fn every_shipped_rule_fires_on_the_tests_or_the_corpus() {
    let rules = shipped_rules();
    let mut seen = BTreeSet::new();
    for formula in formulas() {
        seen.extend(fired(&formula, &rules));
    }
    let never: Vec<&str> =
        rules.rules.iter().map(|r| r.id.as_str()).filter(|id| !seen.contains(*id)).collect();
    println!("rules fired: {}/{}; never: {never:?}", seen.len(), rules.rules.len());
    assert!(never.is_empty(), "rules that fire on no formula of the tests or the corpus: {never:?}");
}

#[test]
fn every_concept_named_by_a_rule_exists_and_both_curricula_place_it() {
    let concepts = Concepts::load(DEFAULT_CONCEPTS).unwrap_or_else(|e| panic!("{e}"));
    let curricula: Vec<Curriculum> = eqmap::curriculum::SHIPPED
        .iter()
        .map(|(_, text)| Curriculum::load(text).unwrap_or_else(|e| panic!("{e}")))
        .collect();
    for rule in shipped_rules().rules {
        for concept in &rule.concepts {
            assert!(concepts.get(concept).is_some(), "rule {} names unknown concept {concept}", rule.id);
            for curriculum in &curricula {
                assert!(
                    curriculum.placement(concept).is_some(),
                    "{} does not place {concept}",
                    curriculum.id
                );
            }
        }
    }
    for curriculum in &curricula {
        curriculum.validate().unwrap_or_else(|e| panic!("{e}"));
    }
}

#[test]
fn a_broken_rule_file_is_refused_with_the_rule_named() {
    let text = "[[rule]]\nid = \"bad\"\npatterns = ['\\frac{$A}']\nconcepts = [\"x\"]\n";
    let error = rules::load_rules(text).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(error.contains("rule `bad`") && error.contains("the second argument is missing"), "{error}");
    let text = "[[rule]]\nid = \"nameless\"\npatterns = ['$ + 1']\nconcepts = [\"x\"]\n";
    assert!(rules::load_rules(text).is_err());
    let rule = "[[rule]]\nid = \"twice\"\npatterns = ['x']\nconcepts = [\"x\"]\n";
    let error = rules::load_rules(&format!("{rule}{rule}")).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(error.contains("rule `twice`") && error.contains("same id"), "{error}");
}

/// No map is empty (a formula eqmap knows nothing of still gets a row: its symbols, or the
/// notation it does not know), and no two rows say the same of the same text.
#[test]
fn no_map_is_empty_and_no_row_repeats() {
    let curriculum = Curriculum::shipped("ai-math").and_then(Result::ok).unwrap_or_else(|| panic!("ai-math"));
    let knowledge = eqmap::slotmap::Knowledge::shipped(curriculum).unwrap_or_else(|e| panic!("{e}"));
    let mut empty = Vec::new();
    let mut repeated = Vec::new();
    for formula in formulas().into_iter().filter(|f| !f.trim().is_empty()) {
        let Ok(map) = eqmap::slotmap::map_source(&formula, &knowledge, eqmap::Lang::En) else { continue };
        if map.slots.is_empty() {
            empty.push(formula.clone());
        }
        let mut seen = BTreeSet::new();
        for slot in map.slots.iter().filter(|s| s.visible) {
            if !seen.insert((slot.latex.clone(), slot.explanation.question.clone())) {
                repeated.push(format!("{formula}: {}", slot.latex));
            }
        }
    }
    assert!(
        empty.is_empty(),
        "{} empty maps, first: {:?}",
        empty.len(),
        empty.iter().take(5).collect::<Vec<_>>()
    );
    assert!(
        repeated.is_empty(),
        "{} repeated rows, first: {:?}",
        repeated.len(),
        repeated.iter().take(5).collect::<Vec<_>>()
    );
}
