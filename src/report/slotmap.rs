//! The slot map rendered: a terminal table, Markdown, JSON; and the overlay of two maps.

use crate::slotmap::{path_text, Comparison, SlotMap};
use crate::Lang;
use comfy_table::{presets, Attribute, Cell, Color, ContentArrangement, Table};

/// How to render for the screen.
#[derive(Debug, Clone, Copy, Default)]
pub struct Style {
    /// Whether to colour (the caller decides: a terminal, and `NO_COLOR` unset).
    pub color: bool,
    /// Terminal width, if known.
    pub width: Option<u16>,
}

fn headers(lang: Lang) -> [&'static str; 4] {
    match lang {
        Lang::Ko => ["식에서의 자리", "막히는 질문", "필요한 수학", "커리큘럼 위치"],
        Lang::En => ["Slot in the formula", "Question that blocks", "Math needed", "Curriculum"],
    }
}

/// The map as a table for the terminal, with the reading path under it.
pub fn render_table(map: &SlotMap, lang: Lang, style: Style) -> String {
    let mut table = Table::new();
    table.load_preset(presets::UTF8_FULL_CONDENSED).set_content_arrangement(ContentArrangement::Dynamic);
    if let Some(width) = style.width {
        table.set_width(width);
    }
    if !style.color {
        table.force_no_tty();
    }
    let header = headers(lang).map(|h| {
        if style.color {
            Cell::new(h).add_attribute(Attribute::Bold)
        } else {
            Cell::new(h)
        }
    });
    table.set_header(header);
    for slot in &map.slots {
        let known = !slot.is_unknown();
        let mut cells = [
            Cell::new(&slot.latex),
            Cell::new(&slot.explanation.question),
            Cell::new(&slot.explanation.math),
            Cell::new(&slot.explanation.place),
        ];
        if style.color {
            let color = if !known {
                Color::Yellow
            } else if slot.visible {
                Color::Cyan
            } else {
                Color::DarkGrey
            };
            let [first, ..] = &mut cells;
            *first = Cell::new(&slot.latex).fg(color);
        }
        table.add_row(cells);
    }
    let mut out = format!("{table}\n");
    out.push_str(&footer(map, lang, style.color));
    out
}

/// The lines under the table: symbols, the reading and the reading path (set apart in bold
/// and green when `color`).
fn footer(map: &SlotMap, lang: Lang, color: bool) -> String {
    use colored::Colorize;
    let head = |text: &str| if color { text.bold().to_string() } else { text.to_string() };
    let mut out = String::new();
    if let Some(line) = symbols_line(&map.symbols, lang) {
        out.push_str(&line);
    }
    if let Some(reading) = &map.reading {
        let reading = if color { reading.green().to_string() } else { reading.clone() };
        out.push_str(&format!("{}: {reading}\n", head(lang.pick("읽기", "Reading"))));
    }
    if map.reading_path.is_empty() {
        out.push_str(&format!(
            "{}: {}\n",
            head(lang.pick("읽을 글", "Reading path")),
            lang.pick("없음", "none")
        ));
    } else {
        let text = &map.reading_path_text;
        let text = if color { text.green().bold().to_string() } else { text.clone() };
        out.push_str(&format!("{}: {text}\n", head(lang.pick("읽을 순서", "Reading path"))));
        out.push_str(&article_lines(&map.reading_path_articles, color));
    }
    out
}

/// One line an article of the reading path, its label and title: `  #21  Variance`.
fn article_lines(articles: &[crate::slotmap::PathArticle], color: bool) -> String {
    use colored::Colorize;
    let width = articles.iter().map(|a| a.label.chars().count()).max().unwrap_or(0);
    let mut out = String::new();
    for article in articles.iter().filter(|a| !a.title.is_empty()) {
        let pad = " ".repeat(width - article.label.chars().count());
        let label = if color { article.label.green().to_string() } else { article.label.clone() };
        out.push_str(&format!("  {label}{pad}  {}\n", article.title));
    }
    out
}

/// The formula's symbols in one line, grouped by kind in order of first appearance:
/// `Symbols: Q, K, V: matrices · d_k: dimension · softmax: function`.
pub fn symbols_line(symbols: &[crate::meaning::SymbolEntry], lang: Lang) -> Option<String> {
    let mut groups: Vec<(crate::meaning::SymbolKind, Vec<&str>)> = Vec::new();
    for symbol in symbols.iter().filter(|s| s.kind != crate::meaning::SymbolKind::Unknown) {
        match groups.iter_mut().find(|(kind, _)| *kind == symbol.kind) {
            Some((_, names)) => names.push(&symbol.latex),
            None => groups.push((symbol.kind, vec![&symbol.latex])),
        }
    }
    if groups.is_empty() {
        return None;
    }
    let parts: Vec<String> = groups
        .iter()
        .map(|(kind, names)| format!("{}: {}", names.join(", "), kind_label(*kind, names.len() > 1, lang)))
        .collect();
    Some(format!("{}: {}\n", lang.pick("기호", "Symbols"), parts.join(" · ")))
}

/// A kind as the symbols line writes it.
fn kind_label(kind: crate::meaning::SymbolKind, plural: bool, lang: Lang) -> &'static str {
    use crate::meaning::SymbolKind::*;
    let (ko, one, many) = match kind {
        Scalar => ("스칼라", "scalar", "scalars"),
        Vector => ("벡터", "vector", "vectors"),
        Matrix => ("행렬", "matrix", "matrices"),
        Dimension => ("크기(차원)", "dimension", "dimensions"),
        Index => ("인덱스", "index", "indices"),
        Function => ("함수", "function", "functions"),
        Set => ("집합", "set", "sets"),
        RandomVariable => ("확률변수", "random variable", "random variables"),
        Distribution => ("분포", "distribution", "distributions"),
        Unknown => ("모름", "unknown", "unknown"),
    };
    lang.pick(ko, if plural { many } else { one })
}

/// The map as a Markdown table with the reading path.
pub fn render_markdown(map: &SlotMap, lang: Lang) -> String {
    let [a, b, c, d] = headers(lang);
    let mut out = format!("| {a} | {b} | {c} | {d} |\n|---|---|---|---|\n");
    for slot in &map.slots {
        let latex = if slot.visible {
            format!("${}$", slot.latex.replace('|', "\\vert "))
        } else {
            format!("*{}*", slot.latex)
        };
        out.push_str(&format!(
            "| {latex} | {} | {} | {} |\n",
            escape(&slot.explanation.question),
            escape(&slot.explanation.math),
            escape(&slot.explanation.place)
        ));
    }
    out.push('\n');
    out.push_str(&footer(map, lang, false));
    out
}

fn escape(text: &str) -> String {
    text.replace('|', "\\|")
}

/// The map as JSON (the contract of DESIGN.md).
pub fn render_json(map: &SlotMap) -> String {
    crate::json::pretty(map) + "\n"
}

/// The overlay of two maps as text.
pub fn render_comparison(
    first: &SlotMap,
    second: &SlotMap,
    comparison: &Comparison,
    curriculum: &crate::curriculum::Curriculum,
    lang: Lang,
) -> String {
    let list = |numbers: &[u32]| {
        if numbers.is_empty() {
            lang.pick("없음", "none").to_string()
        } else {
            numbers.iter().map(|n| article_with_title(*n, curriculum, lang)).collect::<Vec<_>>().join(", ")
        }
    };
    let mut out = String::new();
    out.push_str(&format!("A: {}\nB: {}\n\n", first.formula, second.formula));
    out.push_str(&format!(
        "{}: {}\n",
        lang.pick("둘 다 필요한 글", "Articles both need"),
        list(&comparison.shared_articles)
    ));
    out.push_str(&format!(
        "{}: {}\n",
        lang.pick("A에만 있는 글", "Only A needs"),
        list(&comparison.only_first)
    ));
    out.push_str(&format!(
        "{}: {}\n",
        lang.pick("B에만 있는 글", "Only B needs"),
        list(&comparison.only_second)
    ));
    let concepts =
        |c: &[String]| if c.is_empty() { lang.pick("없음", "none").to_string() } else { c.join(", ") };
    out.push_str(&format!(
        "\n{}: {}\n{}: {}\n{}: {}\n",
        lang.pick("공통 개념", "Shared concepts"),
        concepts(&comparison.shared_concepts),
        lang.pick("A의 고유한 개념", "Unique to A"),
        concepts(&comparison.only_first_concepts),
        lang.pick("B의 고유한 개념", "Unique to B"),
        concepts(&comparison.only_second_concepts),
    ));
    out
}

fn article_with_title(number: u32, curriculum: &crate::curriculum::Curriculum, lang: Lang) -> String {
    let label = path_text(&[number], curriculum, lang);
    match curriculum.article(number) {
        Some(article) => format!("{label} {}", article.title.get(lang)),
        None => label,
    }
}

/// A copy of `map` whose texts from the formula (the formula, its reading, the slots' and
/// symbols' LaTeX) have their invisible characters written as `U+XXXX`, for a table or
/// Markdown, where an escape sequence in `\text{…}` would act on the terminal.
pub fn printable(map: &SlotMap) -> SlotMap {
    use crate::syntax::error::printable as shown;
    let mut map = map.clone();
    map.formula = shown(&map.formula).into_owned();
    map.reading = map.reading.as_deref().map(|r| shown(r).into_owned());
    for slot in &mut map.slots {
        slot.latex = shown(&slot.latex).into_owned();
    }
    for symbol in &mut map.symbols {
        symbol.name = shown(&symbol.name).into_owned();
        symbol.latex = shown(&symbol.latex).into_owned();
    }
    map
}
