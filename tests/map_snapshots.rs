//! Golden tests of the slot map: the seed's two tables, and every seed formula under both
//! curricula.

use eqmap::curriculum::Curriculum;
use eqmap::report::slotmap::{render_markdown, render_table, Style};
use eqmap::slotmap::{map_source, Knowledge, SlotMap};
use eqmap::Lang;

const ATTENTION: &str =
    r"\mathrm{Attention}(Q, K, V) = \mathrm{softmax}\!\left(\frac{QK^\top}{\sqrt{d_k}}\right)V";
const CROSS_ENTROPY: &str = r"L = -\frac{1}{N}\sum_{i=1}^{N} \log p_\theta(x_i \mid x_{<i})";

fn knowledge(curriculum: &str) -> Knowledge {
    let curriculum = Curriculum::shipped(curriculum)
        .unwrap_or_else(|| panic!("no curriculum {curriculum}"))
        .unwrap_or_else(|e| panic!("{e}"));
    Knowledge::shipped(curriculum).unwrap_or_else(|e| panic!("{e}"))
}

fn map(source: &str, curriculum: &str, lang: Lang) -> SlotMap {
    map_source(source, &knowledge(curriculum), lang)
        .unwrap_or_else(|e| panic!("{source}: {}", e.message(Lang::En)))
}

fn articles(map: &SlotMap, visible: bool) -> Vec<u32> {
    let mut all: Vec<u32> = map
        .slots
        .iter()
        .filter(|s| s.visible == visible)
        .flat_map(|s| s.explanation.articles.iter().copied())
        .collect();
    all.sort_unstable();
    all.dedup();
    all
}

#[test]
fn attention_line_gives_the_seed_table() {
    let map = map(ATTENTION, "ai-math", Lang::Ko);
    assert_eq!(articles(&map, true), [2, 3, 4, 6, 9, 10, 18, 20, 21, 25, 40]);
    let hidden: Vec<&Vec<Vec<u32>>> =
        map.slots.iter().filter(|s| !s.visible).map(|s| &s.explanation.paths).collect();
    assert_eq!(hidden, [&vec![vec![18, 58]], &vec![vec![33, 34, 41]]]);
    let sqrt = map.slots.iter().find(|s| s.latex == r"\sqrt{d_k}").unwrap_or_else(|| panic!("no sqrt slot"));
    assert_eq!(sqrt.explanation.paths, [vec![21, 40]], "21 → 40 stays a chain");
    assert!(map.slots.iter().all(|s| !s.is_unknown()), "{:?}", map.slots);
    insta::assert_snapshot!("attention-ko", render_table(&map, Lang::Ko, Style::default()));
    insta::assert_snapshot!(
        "attention-en",
        render_table(&self::map(ATTENTION, "ai-math", Lang::En), Lang::En, Style::default())
    );
}

#[test]
fn cross_entropy_gives_its_five_rows() {
    let map = map(CROSS_ENTROPY, "ai-math", Lang::Ko);
    let rows: Vec<(String, Vec<u32>)> =
        map.slots.iter().map(|s| (s.latex.clone(), s.explanation.articles.clone())).collect();
    assert_eq!(
        rows,
        [
            ("-".to_string(), vec![27, 29]),
            (r"\frac{1}{N}\sum_{i=1}^{N}".to_string(), vec![20]),
            (r"\sum_{i=1}^{N}".to_string(), vec![3]),
            (r"\log".to_string(), vec![18, 28]),
            (r"p_\theta(x_i \mid x_{<i})".to_string(), vec![19]),
        ]
    );
    insta::assert_snapshot!("cross-entropy-ko", render_table(&map, Lang::Ko, Style::default()));
    insta::assert_snapshot!(
        "cross-entropy-en",
        render_table(&self::map(CROSS_ENTROPY, "ai-math", Lang::En), Lang::En, Style::default())
    );
}

#[test]
fn the_overlay_shares_sigma_exp_and_probability() {
    let a = map(ATTENTION, "ai-math", Lang::Ko);
    let b = map(CROSS_ENTROPY, "ai-math", Lang::Ko);
    let overlay = eqmap::slotmap::compare(&a, &b);
    assert_eq!(overlay.shared_articles, [3, 18, 20]);
    assert!(overlay.only_first.contains(&10) && overlay.only_first.contains(&40), "{overlay:?}");
    assert!(overlay.only_second.contains(&19) && overlay.only_second.contains(&28), "{overlay:?}");
}

#[test]
fn every_seed_formula_maps_under_both_curricula() {
    insta::glob!("fixtures/seeds/*.tex", |path| {
        let source = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{e}"));
        let source = source.trim_end();
        let mut out = format!("{source}\n");
        for curriculum in ["ai-math", "transformer-series"] {
            for lang in [Lang::Ko, Lang::En] {
                out.push_str(&format!("\n## {curriculum} ({lang:?})\n\n"));
                out.push_str(&render_markdown(&map(source, curriculum, lang), lang));
            }
        }
        insta::assert_snapshot!(out);
    });
}

#[test]
fn notation_no_rule_knows_is_a_row_that_says_so() {
    let map = map(r"\mathcal{H}(x) \bowtie \breve{y} + \foo", "ai-math", Lang::En);
    let unknown: Vec<&str> = map.unknown_notation().collect();
    assert!(unknown.contains(&r"\foo"), "{unknown:?}");
    assert!(unknown.contains(&r"\breve{y}"), "{unknown:?}");
    assert!(!map.warnings.is_empty());
}

#[test]
fn a_curriculum_file_of_ones_own_is_used() {
    let text = include_str!("fixtures/curricula/tiny.toml");
    let curriculum = Curriculum::load(text).unwrap_or_else(|e| panic!("{e}"));
    let knowledge = Knowledge::shipped(curriculum).unwrap_or_else(|e| panic!("{e}"));
    let map =
        map_source(ATTENTION, &knowledge, Lang::En).unwrap_or_else(|e| panic!("{}", e.message(Lang::En)));
    let sqrt = map.slots.iter().find(|s| s.latex == r"\sqrt{d_k}").unwrap_or_else(|| panic!("no sqrt slot"));
    assert_eq!(sqrt.explanation.place, "lesson 7 → lesson 9");
    let softmax =
        map.slots.iter().find(|s| s.latex == r"\mathrm{softmax}").unwrap_or_else(|| panic!("no softmax"));
    assert_eq!(softmax.explanation.place, "not in this curriculum");
}

#[test]
fn a_curriculum_naming_an_unlisted_article_is_refused() {
    let text = include_str!("fixtures/curricula/tiny.toml").replace("path = [7, 9]", "path = [7, 99]");
    let curriculum = Curriculum::load(&text).unwrap_or_else(|e| panic!("{e}"));
    let error = Knowledge::shipped(curriculum).err().unwrap_or_default();
    assert!(error.contains("article 99"), "{error}");
}

#[test]
fn more_formulas_of_papers_map() {
    let formulas = include_str!("fixtures/map/more.txt");
    let mut out = String::new();
    for formula in formulas.lines().filter(|l| !l.trim().is_empty()) {
        let map = map(formula, "ai-math", Lang::En);
        assert!(map.has_known_slot(), "{formula}");
        out.push_str(&format!("{formula}\n\n{}\n", render_markdown(&map, Lang::En)));
    }
    insta::assert_snapshot!(out);
}

/// A rule that matches a node through the base of its scripts (`\hat{y}_i`, `\lim_{h \to 0}`,
/// `\mathbb{E}_{z \sim q}`) fires once, on the whole, not again on the base.
#[test]
fn a_scripted_notation_is_one_row_not_two() {
    for (source, question) in [
        (r"L = \sum_i (y_i - \hat{y}_i)^2", "What does the hat mean?"),
        (r"f'(x) = \lim_{h \to 0} \frac{f(x+h) - f(x)}{h}", "What approaches what?"),
        (r"- \hat{y}_i", "What does the hat mean?"),
    ] {
        let map = map(source, "ai-math", Lang::En);
        let rows = map.slots.iter().filter(|slot| slot.explanation.question == question).count();
        assert_eq!(
            rows,
            1,
            "{source}: {:?}",
            map.slots.iter().map(|s| &s.explanation.question).collect::<Vec<_>>()
        );
    }
}

/// Rows point where they stand: a merged row at every occurrence, a hidden row nowhere, an
/// environment's row at its head as written, and a mask written in the formula is a row of its
/// own instead of the hidden "masking (not in the formula)".
#[test]
fn rows_carry_the_spans_of_what_they_stand_for() {
    let source = r"\mathrm{softmax}(QK^\top)V";
    let attention = map(source, "ai-math", Lang::En);
    let merged =
        attention.slots.iter().find(|s| s.latex == "Q, K, V").unwrap_or_else(|| panic!("no Q, K, V row"));
    let texts: Vec<&str> = merged.spans.iter().map(|s| s.text(source)).collect();
    assert_eq!(texts, ["Q", "K", "V"]);
    let hidden: Vec<_> = attention.slots.iter().filter(|s| !s.visible).collect();
    assert!(!hidden.is_empty());
    assert!(hidden.iter().all(|s| s.span.is_none() && s.spans.is_empty()), "{hidden:?}");

    let source = r"f(x) = \begin{cases} 0 & \text{if } x < 0 \\ x & \text{otherwise} \end{cases}";
    let cases_map = map(source, "ai-math", Lang::En);
    let cases =
        cases_map.slots.iter().find(|s| s.latex.contains("cases")).unwrap_or_else(|| panic!("no cases row"));
    assert_eq!(cases.latex, r"\begin{cases}");
    assert_eq!(cases.span.map(|s| s.text(source)), Some(r"\begin{cases}"));

    let source = r"\mathrm{softmax}(QK^\top/\sqrt{d_k} + M)V";
    let masked = map(source, "ai-math", Lang::En);
    let mask =
        masked.slots.iter().find(|s| s.latex == "M").unwrap_or_else(|| panic!("no row for the mask M"));
    assert!(mask.explanation.concepts.iter().any(|c| c == "numeric.masking"), "{mask:?}");
    assert!(masked
        .slots
        .iter()
        .all(|s| s.visible || !s.explanation.concepts.iter().any(|c| c == "numeric.masking")));
}
