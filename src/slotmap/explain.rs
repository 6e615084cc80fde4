//! Explanations: what the concepts and the curriculum say about a slot — its question, the
//! math that answers it, and the articles that teach it.
//!
//! An explanation depends only on the slot's concepts, the rule that made it and the language,
//! not on the formula, so every slot a rule makes alone shares one: [`Explanations`] holds
//! them, computed once when the knowledge is loaded, and a slot holds its explanation behind
//! an [`Arc`]. Rows that merge several rules get one computed for them.

use super::Slot;
use crate::annotate::rules::{Bilingual, Rule};
use crate::annotate::RawSlot;
use crate::curriculum::{Concepts, Curriculum};
use crate::syntax::ast::Span;
use crate::Lang;
use serde::Serialize;
use std::sync::Arc;

/// What a slot's concepts and the curriculum say about it.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Explanation {
    /// Concept ids; `["unknown"]` for notation no rule knows.
    pub concepts: Vec<String>,
    /// The question that blocks a reader.
    pub question: String,
    /// The math that answers it.
    pub math: String,
    /// Article numbers, in order.
    pub articles: Vec<u32>,
    /// The prerequisite chains, one per concept that has articles (`[[21, 40]]`).
    pub paths: Vec<Vec<u32>>,
    /// Where the curriculum places the slot, as text: `21번 → 40번`, `4단원 (번호 없음)`.
    pub place: String,
    /// The fields above as JSON, without the braces, written once for every record of it.
    #[serde(skip)]
    json: String,
}

impl Explanation {
    fn new(
        concepts: Vec<String>,
        question: String,
        math: String,
        articles: Vec<u32>,
        paths: Vec<Vec<u32>>,
        place: String,
    ) -> Self {
        let mut explanation =
            Explanation { concepts, question, math, articles, paths, place, json: String::new() };
        // Strings and numbers only: serde_json cannot fail on them.
        let json = serde_json::to_string(&explanation).unwrap_or_default();
        explanation.json = json.get(1..json.len().saturating_sub(1)).unwrap_or("").to_string();
        explanation
    }

    /// The explanation's fields as JSON, as serde_json writes them, without the braces:
    /// `"concepts":[…],…,"place":"…"`.
    pub fn json_fields(&self) -> &str {
        &self.json
    }
}

/// One thing in both languages: Korean, English.
#[derive(Debug, Clone)]
struct Both<T> {
    ko: T,
    en: T,
}

impl<T> Both<T> {
    fn new(make: impl Fn(Lang) -> T) -> Self {
        Both { ko: make(Lang::Ko), en: make(Lang::En) }
    }

    fn get(&self, lang: Lang) -> &T {
        match lang {
            Lang::Ko => &self.ko,
            Lang::En => &self.en,
        }
    }
}

/// What a slot made by one rule alone shares with the others of that rule.
#[derive(Debug, Clone)]
struct RuleSlot {
    /// The explanation of the rule's concepts.
    explanation: Both<Arc<Explanation>>,
    /// The rule's id, as the slot's list of rules.
    rules: Arc<[String]>,
}

/// The explanations of every rule's own slots and of unknown notation, in both languages.
#[derive(Debug, Clone)]
pub struct Explanations {
    /// By rule index.
    by_rule: Vec<RuleSlot>,
    unknown: Both<Arc<Explanation>>,
    /// Every article's label (`21번`, `part 3`), by number.
    labels: Both<rustc_hash::FxHashMap<u32, String>>,
}

impl Explanations {
    /// Explains the slots of each of `rules`.
    pub fn new(rules: &[Rule], concepts: &Concepts, curriculum: &Curriculum) -> Self {
        let by_rule = rules
            .iter()
            .map(|rule| {
                let ids: Vec<&str> = rule.concepts.iter().map(String::as_str).collect();
                let explain =
                    |lang| Arc::new(explain(&ids, rule.question.as_ref(), concepts, curriculum, lang));
                RuleSlot { explanation: Both::new(explain), rules: Arc::from([rule.id.clone()]) }
            })
            .collect();
        let labels = Both::new(|lang| {
            curriculum.articles.iter().map(|a| (a.number, curriculum.article_label(a.number, lang))).collect()
        });
        Explanations { by_rule, unknown: Both::new(|lang| Arc::new(unknown(lang))), labels }
    }

    /// [`super::path_text`] with the labels written once.
    pub fn path_text(&self, path: &[u32], curriculum: &Curriculum, lang: Lang) -> String {
        let labels = self.labels.get(lang);
        super::joined_path(path, |number, text| match labels.get(&number) {
            Some(label) => text.push_str(label),
            None => curriculum.push_article_label(number, lang, text),
        })
    }

    /// The slot of `row`: the rule's shared explanation when the row has the rule's concepts,
    /// one of its own otherwise (rows merging several rules).
    pub fn slot(&self, row: &RawSlot, rule: Option<&Rule>, knowledge: &super::Knowledge, lang: Lang) -> Slot {
        let latex = match rule.and_then(|r| r.display.as_ref()).filter(|_| !row.visible) {
            Some(display) => display.get(lang).to_string(),
            None => row.texts.join(", "),
        };
        let own = |r: &Rule| r.concepts.iter().map(String::as_str).eq(row.concepts.iter().copied());
        let shared = self.by_rule.get(row.rule_index).filter(|_| rule.is_some_and(own));
        let explanation = match shared {
            Some(shared) => Arc::clone(shared.explanation.get(lang)),
            None => {
                let question = rule.and_then(|r| r.question.as_ref());
                Arc::new(explain(&row.concepts, question, &knowledge.concepts, &knowledge.curriculum, lang))
            }
        };
        let rules = match shared {
            Some(shared) if row.rules.len() == 1 => Arc::clone(&shared.rules),
            _ => row.rules.iter().map(|id| id.to_string()).collect(),
        };
        let (span, spans) =
            if row.visible { (Some(row.span), row.occurrences.clone()) } else { (None, Vec::new()) };
        Slot { latex, span, spans, explanation, visible: row.visible, rules }
    }

    /// The slot of notation no rule knows.
    pub fn unknown_slot(&self, span: Span, text: String, lang: Lang) -> Slot {
        let explanation = Arc::clone(self.unknown.get(lang));
        Slot {
            latex: text,
            span: Some(span),
            spans: vec![span],
            explanation,
            visible: true,
            rules: Arc::from([]),
        }
    }
}

/// What `ids` (concept ids, in order) and the curriculum say; `question` overrides the first
/// concept's question.
fn explain(
    ids: &[&str],
    question: Option<&Bilingual>,
    concepts: &Concepts,
    curriculum: &Curriculum,
    lang: Lang,
) -> Explanation {
    let known: Vec<_> = ids.iter().filter_map(|id| concepts.get(id)).collect();
    let question = question
        .map(|q| q.get(lang).to_string())
        .or_else(|| known.first().map(|c| c.question.get(lang).to_string()))
        .unwrap_or_default();
    let mut maths: Vec<&str> = Vec::new();
    for concept in &known {
        let math = concept.math.get(lang);
        if !maths.contains(&math) {
            maths.push(math);
        }
    }
    // `#33 → #34` already passes through #33: a path that another of the row's paths walks
    // is not said again.
    let all: Vec<&Vec<u32>> = ids
        .iter()
        .filter_map(|id| curriculum.placement(id))
        .map(|p| &p.path)
        .filter(|p| !p.is_empty())
        .collect();
    let walked = |path: &Vec<u32>| {
        all.iter()
            .any(|other| other.len() > path.len() && other.windows(path.len()).any(|w| w == path.as_slice()))
    };
    let mut paths = Vec::new();
    let mut places: Vec<String> = Vec::new();
    for id in ids {
        let place = match curriculum.placement(id) {
            Some(placement) if !placement.path.is_empty() => {
                if paths.contains(&placement.path) || walked(&placement.path) {
                    continue;
                }
                paths.push(placement.path.clone());
                super::path_text(&placement.path, curriculum, lang)
            }
            Some(placement) => unnumbered_text(placement.unit, curriculum, lang),
            None => lang.pick("이 커리큘럼에 없음", "not in this curriculum").to_string(),
        };
        if !places.contains(&place) {
            places.push(place);
        }
    }
    let mut articles: Vec<u32> = Vec::new();
    for number in paths.iter().flatten() {
        if !articles.contains(number) {
            articles.push(*number);
        }
    }
    let concepts = ids.iter().map(|id| id.to_string()).collect();
    Explanation::new(
        concepts,
        question,
        maths.join(lang.pick(", ", "; ")),
        articles,
        paths,
        places.join(", "),
    )
}

/// What is said of notation no rule knows.
fn unknown(lang: Lang) -> Explanation {
    Explanation::new(
        vec!["unknown".to_string()],
        lang.pick("eqmap이 아직 모르는 표기", "notation eqmap does not know yet").to_string(),
        String::new(),
        Vec::new(),
        Vec::new(),
        lang.pick("규칙 없음", "no rule").to_string(),
    )
}

fn unnumbered_text(unit: Option<u32>, curriculum: &Curriculum, lang: Lang) -> String {
    match unit {
        Some(unit) => {
            format!("{} ({})", curriculum.unit_name(unit, lang), lang.pick("번호 없음", "not numbered"))
        }
        None => lang.pick("번호 없음", "not numbered").to_string(),
    }
}
