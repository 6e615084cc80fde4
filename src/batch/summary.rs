//! The summary of a batch: counts only, so its size does not grow with the input.
//!
//! Parse coverage; how many equations have at least one known slot; curriculum articles ranked
//! by how many equations need them (an equation needs an article when the article is on its
//! reading path); concepts likewise; the most frequent unknown commands (parser warnings) and
//! notations no rule knows, with counts; and the rules that never fired.
//!
//! Articles, concepts and rules are bounded by the knowledge. The two tallies of unknown
//! notation are bounded by [`Counter`]: past [`COUNTER_CAPACITY`] distinct keys its rarest
//! half is dropped, and the summary says how many occurrences were dropped, so the counts it
//! shows stay exact lower bounds.

use super::Outcome;
use crate::slotmap::Knowledge;
use crate::syntax::error::WarningKind;
use crate::Lang;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write as _;
use std::sync::Arc;

/// The most distinct keys a [`Counter`] holds.
pub const COUNTER_CAPACITY: usize = 20_000;

/// Keys are cut to this many characters.
const KEY_CHARS: usize = 60;

/// Counts of strings, bounded in size.
#[derive(Debug, Clone, Default)]
pub struct Counter {
    counts: HashMap<String, usize>,
    dropped_keys: usize,
    dropped_count: usize,
}

impl Counter {
    /// Counts one occurrence of `key` (cut to 60 characters).
    pub fn add(&mut self, key: &str) {
        let key = key.char_indices().nth(KEY_CHARS).map_or(key, |(end, _)| key.get(..end).unwrap_or(key));
        match self.counts.get_mut(key) {
            Some(count) => *count += 1,
            None => {
                self.counts.insert(key.to_string(), 1);
            }
        }
        if self.counts.len() > COUNTER_CAPACITY {
            self.prune();
        }
    }

    /// Drops the rarer half of the keys.
    fn prune(&mut self) {
        let mut counts: Vec<usize> = self.counts.values().copied().collect();
        counts.sort_unstable();
        let threshold = counts.get(counts.len() / 2).copied().unwrap_or(0);
        let before = (self.counts.len(), self.counts.values().sum::<usize>());
        self.counts.retain(|_, count| *count > threshold);
        self.dropped_keys += before.0 - self.counts.len();
        self.dropped_count += before.1 - self.counts.values().sum::<usize>();
    }

    /// The `n` most frequent keys, ties in name order.
    pub fn top(&self, n: usize) -> Vec<(&str, usize)> {
        let mut ranked: Vec<(&str, usize)> = self.counts.iter().map(|(k, v)| (k.as_str(), *v)).collect();
        ranked.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
        ranked.truncate(n);
        ranked
    }

    /// How many distinct keys it holds.
    pub fn len(&self) -> usize {
        self.counts.len()
    }

    /// Whether it holds nothing.
    pub fn is_empty(&self) -> bool {
        self.counts.is_empty()
    }

    /// Occurrences dropped by pruning (0: every count is exact).
    pub fn dropped(&self) -> usize {
        self.dropped_count
    }
}

/// What a batch found, in counts.
#[derive(Debug, Clone, Default)]
pub struct Summary {
    /// Records written (equal to the formulas read, errors included).
    pub records: usize,
    /// Records that parsed and were mapped.
    pub ok: usize,
    /// Records that did not parse.
    pub parse_errors: usize,
    /// Records that could not be read.
    pub read_errors: usize,
    /// Mapped records with at least one known slot.
    pub with_known_slot: usize,
    /// Files that gave at least one record.
    pub sources: usize,
    /// Entries skipped in folders (set by the caller from the reader).
    pub skipped: usize,
    /// Equations per article on their reading path.
    pub articles: BTreeMap<u32, usize>,
    /// Equations per concept.
    pub concepts: BTreeMap<String, usize>,
    /// Unknown commands and characters (parser warnings), per occurrence.
    pub unknown_commands: Counter,
    /// Notation no rule knows (unknown slots), per equation.
    pub unknown_notation: Counter,
    /// Ids of the rules that fired on some equation.
    pub fired: BTreeSet<String>,
    /// Ids of the rules that fired on no equation (filled by [`Summary::finish`]).
    pub never_fired: Vec<String>,
    /// How many rules there are (filled by [`Summary::finish`]).
    pub rules: usize,
    last_source: Option<Arc<str>>,
}

impl Summary {
    /// An empty summary.
    pub fn new() -> Self {
        Summary::default()
    }

    /// Counts one outcome.
    pub fn add(&mut self, outcome: &Outcome) {
        self.records += 1;
        if self.last_source.as_ref().is_none_or(|s| **s != *outcome.source) {
            self.sources += 1;
            self.last_source = Some(outcome.source.clone());
        }
        let map = match &outcome.result {
            Ok(map) => map,
            Err(super::Failure::Read { .. }) => return self.read_errors += 1,
            Err(super::Failure::Parse { .. }) => return self.parse_errors += 1,
        };
        self.ok += 1;
        if map.has_known_slot() {
            self.with_known_slot += 1;
        }
        for article in &map.reading_path {
            *self.articles.entry(*article).or_default() += 1;
        }
        for concept in super::output::concepts(map) {
            match self.concepts.get_mut(concept) {
                Some(count) => *count += 1,
                None => {
                    self.concepts.insert(concept.to_string(), 1);
                }
            }
        }
        for warning in &map.warnings {
            match &warning.kind {
                WarningKind::UnknownCommand { name } => self.unknown_commands.add(name),
                WarningKind::UnknownCharacter { character } => self.unknown_commands.add(character),
                _ => {}
            }
        }
        for notation in map.unknown_notation() {
            self.unknown_notation.add(notation);
        }
        for rule in map.slots.iter().flat_map(|s| s.rules.iter()) {
            if !self.fired.contains(rule) {
                self.fired.insert(rule.clone());
            }
        }
    }

    /// Lists the rules of `knowledge` that never fired.
    pub fn finish(&mut self, knowledge: &Knowledge) {
        self.rules = knowledge.rules.rules.len();
        self.never_fired = knowledge
            .rules
            .rules
            .iter()
            .map(|r| r.id.clone())
            .filter(|id| !self.fired.contains(id))
            .collect();
    }

    /// Records that failed, for any reason.
    pub fn failed(&self) -> usize {
        self.parse_errors + self.read_errors
    }

    /// Articles ranked by how many equations need them, then by number.
    pub fn ranked_articles(&self) -> Vec<(u32, usize)> {
        let mut ranked: Vec<(u32, usize)> = self.articles.iter().map(|(a, n)| (*a, *n)).collect();
        ranked.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        ranked
    }

    /// Concepts ranked by how many equations need them, then by id.
    pub fn ranked_concepts(&self) -> Vec<(&str, usize)> {
        let mut ranked: Vec<(&str, usize)> = self.concepts.iter().map(|(c, n)| (c.as_str(), *n)).collect();
        ranked.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        ranked
    }
}

fn percent(part: usize, whole: usize) -> f64 {
    100.0 * part as f64 / whole.max(1) as f64
}

/// The summary as text, `top` rows per list.
pub fn render_text(summary: &Summary, knowledge: &Knowledge, lang: Lang, top: usize) -> String {
    let text = summary_text(summary, knowledge, lang, top);
    crate::syntax::error::printable(&text).into_owned()
}

/// [`render_text`] before its invisible characters (from unknown commands and notation of the
/// formulas) are written as `U+XXXX`.
fn summary_text(summary: &Summary, knowledge: &Knowledge, lang: Lang, top: usize) -> String {
    let s = summary;
    let mut out = String::new();
    let parsed_of = s.records - s.read_errors;
    let _ = writeln!(
        out,
        "{}: {}; {}: {}; {}: {}",
        lang.pick("레코드", "records"),
        s.records,
        lang.pick("읽은 파일", "files with records"),
        s.sources,
        lang.pick("건너뛴 항목", "entries skipped"),
        s.skipped,
    );
    let _ = writeln!(
        out,
        "{}: {}/{} ({:.2}%); {} {}, {} {}",
        lang.pick("파싱", "parsed"),
        s.ok,
        parsed_of,
        percent(s.ok, parsed_of),
        s.parse_errors,
        lang.pick("파싱 오류", "parse errors"),
        s.read_errors,
        lang.pick("읽기 오류", "read errors"),
    );
    let _ = writeln!(
        out,
        "{}: {}/{} ({:.1}%)",
        lang.pick("아는 자리가 하나 이상인 식", "with at least one known slot"),
        s.with_known_slot,
        s.ok,
        percent(s.with_known_slot, s.ok),
    );
    render_articles(&mut out, s, knowledge, lang, top);
    section(
        &mut out,
        lang.pick("개념 (식 수)", "concepts (equations)"),
        s.ranked_concepts().into_iter().take(top),
    );
    render_counter(
        &mut out,
        lang.pick("모르는 명령 (횟수)", "unknown commands (occurrences)"),
        &s.unknown_commands,
        top,
    );
    render_counter(
        &mut out,
        lang.pick("규칙이 모르는 표기 (식 수)", "notation no rule knows (equations)"),
        &s.unknown_notation,
        top,
    );
    let _ = writeln!(
        out,
        "{} ({}/{}): {}",
        lang.pick("한 번도 쓰이지 않은 규칙", "rules that never fired"),
        s.never_fired.len(),
        s.rules,
        if s.never_fired.is_empty() { "-".to_string() } else { s.never_fired.join(", ") },
    );
    out
}

fn render_articles(out: &mut String, s: &Summary, knowledge: &Knowledge, lang: Lang, top: usize) {
    let curriculum = &knowledge.curriculum;
    let rows = s.ranked_articles().into_iter().take(top).map(|(number, count)| {
        let title = curriculum.article(number).map(|a| a.title.get(lang).to_string()).unwrap_or_default();
        (format!("{} {title}", curriculum.article_label(number, lang)), count)
    });
    let title = format!(
        "{} ({})",
        lang.pick("글 (필요한 식 수)", "articles (equations that need them)"),
        curriculum.id
    );
    section(out, &title, rows);
}

fn render_counter(out: &mut String, title: &str, counter: &Counter, top: usize) {
    section(out, title, counter.top(top).into_iter());
    if counter.dropped() > 0 {
        let _ = writeln!(out, "    (+{} rare occurrences not kept)", counter.dropped());
    }
}

fn section<K: std::fmt::Display>(out: &mut String, title: &str, rows: impl Iterator<Item = (K, usize)>) {
    let _ = writeln!(out, "{title}:");
    let mut any = false;
    for (key, count) in rows {
        any = true;
        let _ = writeln!(out, "  {count:>7}  {key}");
    }
    if !any {
        let _ = writeln!(out, "        -");
    }
}

#[derive(Serialize)]
struct JsonSummary<'a> {
    records: usize,
    ok: usize,
    parse_errors: usize,
    read_errors: usize,
    with_known_slot: usize,
    sources: usize,
    skipped: usize,
    articles: Vec<JsonArticle>,
    concepts: Vec<(&'a str, usize)>,
    unknown_commands: Vec<(&'a str, usize)>,
    unknown_notation: Vec<(&'a str, usize)>,
    never_fired: &'a [String],
    rules: usize,
}

#[derive(Serialize)]
struct JsonArticle {
    article: u32,
    title: String,
    equations: usize,
}

/// The summary as JSON, `top` rows per list of notation (articles and concepts in full).
pub fn render_json(summary: &Summary, knowledge: &Knowledge, lang: Lang, top: usize) -> String {
    let s = summary;
    let articles = s
        .ranked_articles()
        .into_iter()
        .map(|(article, equations)| JsonArticle {
            article,
            title: knowledge
                .curriculum
                .article(article)
                .map(|a| a.title.get(lang).to_string())
                .unwrap_or_default(),
            equations,
        })
        .collect();
    let json = JsonSummary {
        records: s.records,
        ok: s.ok,
        parse_errors: s.parse_errors,
        read_errors: s.read_errors,
        with_known_slot: s.with_known_slot,
        sources: s.sources,
        skipped: s.skipped,
        articles,
        concepts: s.ranked_concepts(),
        unknown_commands: s.unknown_commands.top(top),
        unknown_notation: s.unknown_notation.top(top),
        never_fired: &s.never_fired,
        rules: s.rules,
    };
    let mut text = crate::json::pretty(&json);
    text.push('\n');
    text
}
