//! The slot map: a formula's slots with their questions, math and curriculum articles.
//!
//! This is the pipeline of `eqmap map`: parse → meaning (symbol kinds) → annotate (rules) and
//! speak (the reading) → curriculum (articles) → [`SlotMap`], which the report layer renders as a table, Markdown or
//! JSON. [`compare`] overlays two maps, as the first seed's last section does.
//!
//! It handles untrusted input, so it may not unwrap, expect, panic or index.

#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod explain;

pub use explain::Explanation;

use crate::annotate::{self, RuleSet};
use crate::curriculum::{Concepts, Curriculum};
use crate::meaning::SymbolTable;
use crate::syntax::ast::{Node, Span};
use crate::syntax::error::{ParseError, Warning};
use crate::Lang;
use explain::Explanations;
use serde::Serialize;
use std::sync::Arc;

/// Everything the map needs to know: rules, concepts and a curriculum.
#[derive(Debug, Clone)]
pub struct Knowledge {
    /// The annotation rules, indexed.
    pub rules: RuleSet,
    /// The concepts.
    pub concepts: Concepts,
    /// The curriculum articles come from.
    pub curriculum: Curriculum,
    /// What the rules' slots are told, worked out once.
    explanations: Explanations,
}

impl Knowledge {
    /// The shipped rules and concepts with `curriculum`.
    pub fn shipped(curriculum: Curriculum) -> Result<Knowledge, String> {
        let rules = RuleSet::shipped().map_err(|e| e.to_string())?;
        let concepts = Concepts::load(crate::curriculum::DEFAULT_CONCEPTS)?;
        Knowledge::new(rules, concepts, curriculum)
    }

    /// Knowledge from rules, concepts and a curriculum read elsewhere (a curriculum author's
    /// own files): the curriculum is checked, the explanations worked out once.
    pub fn new(rules: RuleSet, concepts: Concepts, curriculum: Curriculum) -> Result<Knowledge, String> {
        curriculum.validate()?;
        let explanations = Explanations::new(&rules.rules, &concepts, &curriculum);
        Ok(Knowledge { rules, concepts, curriculum, explanations })
    }

    /// The shipped rules, concepts and default curriculum.
    pub fn default_knowledge() -> Result<Knowledge, String> {
        Knowledge::shipped(Curriculum::default_curriculum()?)
    }
}

/// One row of the map.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Slot {
    /// The exact source text of the slot (occurrences joined by ", " for merged rows), or what
    /// to show for a hidden slot.
    pub latex: String,
    /// Its byte span in the formula (the first occurrence of a merged row); `None` for a hidden
    /// slot, which the formula does not show (JSON `null`).
    pub span: Option<Span>,
    /// Every span the row stands for: each occurrence of a merged row (`Q, K, V`); empty for a
    /// hidden slot.
    pub spans: Vec<Span>,
    /// Its concepts, question, math and articles: shared by the slots of one rule (in JSON,
    /// its fields are the slot's).
    #[serde(flatten)]
    pub explanation: Arc<Explanation>,
    /// Whether the slot is printed in the formula.
    pub visible: bool,
    /// Ids of the rules that made this row (empty for notation no rule knows); for rule
    /// coverage, not part of the JSON.
    #[serde(skip)]
    pub rules: Arc<[String]>,
}

impl Slot {
    /// Whether no rule knows this slot's notation.
    pub fn is_unknown(&self) -> bool {
        self.explanation.concepts.iter().any(|c| c == "unknown")
    }
}

/// A formula's slot map.
#[derive(Debug, Clone, Serialize)]
pub struct SlotMap {
    /// The formula as given.
    pub formula: String,
    /// The formula read aloud ([`map_source`] reads it; [`map_tree`], which batch runs, does
    /// not).
    pub reading: Option<String>,
    /// The curriculum's id.
    pub curriculum: String,
    /// The rows in reading order: visible slots by position, then hidden ones.
    pub slots: Vec<Slot>,
    /// All articles of the map in prerequisite order.
    pub reading_path: Vec<u32>,
    /// The reading path as text: `2번 → 3번 → …`.
    pub reading_path_text: String,
    /// The articles of the reading path with what they are called, so the numbers say what to
    /// read ([`map_source`] names them; [`map_tree`], which batch runs, does not).
    pub reading_path_articles: Vec<PathArticle>,
    /// Parser warnings (unknown commands).
    pub warnings: Vec<Warning>,
    /// The formula's symbols with their kinds, as the meaning layer reads them ([`map_source`]
    /// lists them; [`map_tree`], which batch runs, does not).
    pub symbols: Vec<crate::meaning::SymbolEntry>,
}

/// An article of a reading path: its number, its label in the curriculum (`#21`, `21번`) and
/// its title.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct PathArticle {
    /// Its number.
    pub number: u32,
    /// The number as the curriculum writes it.
    pub label: String,
    /// Its title, in the map's language; empty when the curriculum gives none.
    pub title: String,
}

/// The articles of `path` with their labels and titles in `lang`.
pub fn path_articles(path: &[u32], curriculum: &Curriculum, lang: Lang) -> Vec<PathArticle> {
    path.iter()
        .map(|&number| PathArticle {
            number,
            label: curriculum.article_label(number, lang),
            title: curriculum.article(number).map(|a| a.title.get(lang).to_string()).unwrap_or_default(),
        })
        .collect()
}

impl SlotMap {
    /// Whether at least one slot is known (not an unknown-notation row).
    pub fn has_known_slot(&self) -> bool {
        self.slots.iter().any(|s| !s.is_unknown())
    }

    /// The texts of notation no rule knows.
    pub fn unknown_notation(&self) -> impl Iterator<Item = &str> {
        self.slots.iter().filter(|s| s.is_unknown()).map(|s| s.latex.as_str())
    }
}

/// Parses `source` and maps it, learning symbol kinds from the formula itself, with its
/// reading.
pub fn map_source(source: &str, knowledge: &Knowledge, lang: Lang) -> Result<SlotMap, ParseError> {
    map_source_with(source, knowledge, lang, &crate::Limits::default())
}

/// [`map_source`] with the parser's `limits` (`--max-bytes`, `--max-depth`).
pub fn map_source_with(
    source: &str,
    knowledge: &Knowledge,
    lang: Lang,
    limits: &crate::Limits,
) -> Result<SlotMap, ParseError> {
    let parsed = crate::syntax::parse_with(source, limits)?;
    let mut table = SymbolTable::from_formula(&parsed.root);
    table.set_max_depth(limits.max_depth);
    let term = crate::meaning::resolve_checked(&parsed.root, &table)?;
    let mut map = map_resolved(source, &parsed.root, &term, parsed.warnings, &table, knowledge, lang);
    map.symbols = crate::meaning::symbols(&term, source);
    map.reading_path_articles = path_articles(&map.reading_path, &knowledge.curriculum, lang);
    let vocabulary = crate::speak::Vocabulary::builtin();
    map.reading = Some(crate::speak::read_term(&term, source, lang, vocabulary));
    Ok(map)
}

/// Maps a formula as it was pasted ([`crate::paste::prepare`]: wrappers off, plain text read
/// as LaTeX): the slots, symbols and warnings point into `input`, and [`SlotMap::formula`] is
/// `input` as given; each slot's `latex` is the LaTeX that was read.
pub fn map_pasted(
    input: &str,
    knowledge: &Knowledge,
    lang: Lang,
    limits: &crate::Limits,
) -> Result<SlotMap, ParseError> {
    let pasted = crate::paste::prepare(input)?;
    let mut map =
        map_source_with(&pasted.text, knowledge, lang, limits).map_err(|e| pasted.original_error(e))?;
    map.formula = input.to_string();
    map.warnings = pasted.all_warnings(&map.warnings);
    for slot in &mut map.slots {
        slot.span = slot.span.map(|span| pasted.original(span));
        for span in &mut slot.spans {
            *span = pasted.original(*span);
        }
    }
    for symbol in &mut map.symbols {
        for span in &mut symbol.spans {
            *span = pasted.original(*span);
        }
    }
    Ok(map)
}

/// Maps a parsed formula with a symbol table that may know more (from earlier formulas).
/// A formula whose resolved tree nests deeper than the table's limit is refused as too deep
/// ([`crate::meaning::resolve_checked`]).
pub fn map_tree(
    source: &str,
    root: &Node,
    warnings: Vec<Warning>,
    table: &SymbolTable,
    knowledge: &Knowledge,
    lang: Lang,
) -> Result<SlotMap, ParseError> {
    let term = crate::meaning::resolve_checked(root, table)?;
    Ok(map_resolved(source, root, &term, warnings, table, knowledge, lang))
}

/// Maps a formula whose resolved tree `term` is already built (so that [`map_source`] lists
/// the symbols from the same tree instead of resolving twice).
fn map_resolved(
    source: &str,
    root: &Node,
    term: &crate::meaning::Term,
    warnings: Vec<Warning>,
    table: &SymbolTable,
    knowledge: &Knowledge,
    lang: Lang,
) -> SlotMap {
    let meaning = crate::meaning::TermIndex::new(term);
    let raw = annotate::annotate(root, source, &meaning, &knowledge.rules);
    let unknown = annotate::unknown_notation(root, source, table, &meaning, &raw);
    let explanations = &knowledge.explanations;
    let rule_of = |index: usize| knowledge.rules.rules.get(index);
    let mut slots: Vec<Slot> =
        raw.iter().map(|row| explanations.slot(row, rule_of(row.rule_index), knowledge, lang)).collect();
    let first_hidden = slots.iter().position(|s| !s.visible).unwrap_or(slots.len());
    let unknown_slots: Vec<Slot> =
        unknown.into_iter().map(|(span, text)| explanations.unknown_slot(span, text, lang)).collect();
    slots.splice(first_hidden..first_hidden, unknown_slots);
    if slots.is_empty() && !matches!(root.kind, crate::syntax::ast::NodeKind::Empty) {
        // No map is empty: a formula nothing explains says so, naming itself (the first
        // characters of a long one).
        let text = source.trim();
        let start = source.len() - source.trim_start().len();
        let span = crate::syntax::ast::Span::new(start, start + text.len());
        let named = match text.char_indices().nth(NAMED_CHARS) {
            Some((cut, _)) => format!("{}…", text.get(..cut).unwrap_or(text)),
            None => text.to_string(),
        };
        slots.push(explanations.unknown_slot(span, named, lang));
    }
    slots.sort_by_key(|s| {
        let span = s.span.unwrap_or_default();
        (!s.visible, span.start, std::cmp::Reverse(span.end))
    });
    let reading_path = reading_path(&slots);
    let reading_path_text = explanations.path_text(&reading_path, &knowledge.curriculum, lang);
    SlotMap {
        formula: source.to_string(),
        reading: None,
        curriculum: knowledge.curriculum.id.clone(),
        slots,
        reading_path,
        reading_path_text,
        reading_path_articles: Vec::new(),
        warnings,
        symbols: Vec::new(),
    }
}

/// How much of a formula nothing explains its one row names.
const NAMED_CHARS: usize = 60;

/// A chain of articles as text: `21번 → 40번`.
pub fn path_text(path: &[u32], curriculum: &Curriculum, lang: Lang) -> String {
    joined_path(path, |number, text| curriculum.push_article_label(number, lang, text))
}

/// The articles of `path` joined with arrows, each written by `label`.
fn joined_path(path: &[u32], mut label: impl FnMut(u32, &mut String)) -> String {
    let mut text = String::new();
    for (index, number) in path.iter().enumerate() {
        if index > 0 {
            text.push_str(" → ");
        }
        label(*number, &mut text);
    }
    text
}

/// Every article of the map, in prerequisite order (the curricula number articles so that an
/// article's prerequisites come before it).
fn reading_path(slots: &[Slot]) -> Vec<u32> {
    let mut numbers: Vec<u32> = slots.iter().flat_map(|s| s.explanation.articles.iter().copied()).collect();
    numbers.sort_unstable();
    numbers.dedup();
    numbers
}

/// The overlay of two maps: articles and concepts both share, and those unique to each.
#[derive(Debug, Clone, Serialize)]
pub struct Comparison {
    /// Articles in both maps.
    pub shared_articles: Vec<u32>,
    /// Articles only in the first.
    pub only_first: Vec<u32>,
    /// Articles only in the second.
    pub only_second: Vec<u32>,
    /// Concepts in both maps.
    pub shared_concepts: Vec<String>,
    /// Concepts only in the first.
    pub only_first_concepts: Vec<String>,
    /// Concepts only in the second.
    pub only_second_concepts: Vec<String>,
}

/// Overlays two maps (known concepts only).
pub fn compare(first: &SlotMap, second: &SlotMap) -> Comparison {
    let concepts = |map: &SlotMap| -> Vec<String> {
        let mut all: Vec<String> = map
            .slots
            .iter()
            .flat_map(|s| s.explanation.concepts.iter().cloned())
            .filter(|c| c != "unknown")
            .collect();
        all.sort();
        all.dedup();
        all
    };
    let (a, b) = (concepts(first), concepts(second));
    let (pa, pb) = (&first.reading_path, &second.reading_path);
    Comparison {
        shared_articles: pa.iter().filter(|n| pb.contains(n)).copied().collect(),
        only_first: pa.iter().filter(|n| !pb.contains(n)).copied().collect(),
        only_second: pb.iter().filter(|n| !pa.contains(n)).copied().collect(),
        shared_concepts: a.iter().filter(|c| b.contains(c)).cloned().collect(),
        only_first_concepts: a.iter().filter(|c| !b.contains(c)).cloned().collect(),
        only_second_concepts: b.iter().filter(|c| !a.contains(c)).cloned().collect(),
    }
}
