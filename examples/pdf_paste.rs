//! The PDF paste corpus measured: does the map of a formula's text as a PDF gives it have the
//! same concepts as the map of its LaTeX source?
//!
//! `cargo run --release --example pdf_paste -- SOURCES.txt PASTED [--joined] [--each FILE]`:
//! SOURCES one LaTeX formula a line; PASTED the text of formula N on line N, either as it is
//! (a `.txt` file) or as a JSON string keeping its line breaks (a `.jsonl` file, as
//! `scripts/pdf-paste-corpus.sh` makes them with texlive and pdftotext). Prints the share of
//! formulas whose pasted map has the source map's concepts, and the commonest reasons when
//! not: a concept lost or gained, or the pasted text failing to parse. `--joined` pastes each
//! text with its line breaks made spaces (as a one-line input field takes a copy); `--each`
//! writes a line a formula (number, `same` or the reasons, strict and without fonts, and the
//! LaTeX the paste passes made of the text) to FILE. Last, the misses are counted by the first
//! layout class their source has (a matrix or `cases`, aligned rows, a big bracket, a sum, a
//! fraction, a root), without fonts and by the fonts only.
//!
//! Two figures are printed. The first, the one that counts, compares with the map of the
//! source as written. The second compares with the map of the source with its letter fonts
//! taken off ([`LETTER_FONTS`]: `\mathbf{x}` is `{x}`), because the text a PDF gives has no
//! fonts: a bold x and an italic x are the same letter `x` in it, so nothing read from the
//! text can tell a vector `\mathbf{x}` from a scalar x. The second figure says how much of
//! what the text carries comes back; it is never quoted alone.

use eqmap::slotmap::{map_pasted, Knowledge, SlotMap};
use eqmap::syntax::error::ParseError;
use eqmap::{Lang, Limits};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// Commands that only set the font of the letters in their argument, which the text of a PDF
/// does not carry (pdftotext gives the letters alone): taken off the source for the second
/// figure. `\mathrm` and `\textrm` stay: they make names (`\mathrm{softmax}`), and a name
/// comes back from the text as a word.
const LETTER_FONTS: &[&str] =
    &["mathbf", "boldsymbol", "bm", "textbf", "mathbb", "mathcal", "mathsf", "mathfrak", "mathscr", "mathit"];

/// `source` with the letter-font commands of [`LETTER_FONTS`] taken off, their arguments kept
/// as groups: `\mathbf{x}_i` is `{x}_i`, `\mathbf x` is ` x`.
fn without_letter_fonts(source: &str) -> String {
    let mut out = String::with_capacity(source.len());
    let mut rest = source;
    while let Some(at) = rest.find('\\') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let name_len = after.chars().take_while(char::is_ascii_alphabetic).count();
        let name = &after[..name_len];
        if LETTER_FONTS.contains(&name) {
            out.push(' ');
        } else {
            out.push('\\');
            out.push_str(name);
        }
        rest = &after[name_len..];
        if name_len == 0 {
            // `\\`, `\{`: the character after the backslash is kept as it is.
            if let Some(c) = rest.chars().next() {
                out.push(c);
                rest = &rest[c.len_utf8()..];
            }
        }
    }
    out.push_str(rest);
    out
}

fn concepts(map: &SlotMap) -> BTreeSet<String> {
    map.slots.iter().flat_map(|s| s.explanation.concepts.iter().cloned()).filter(|c| c != "unknown").collect()
}

/// The pasted texts of `file`: a line each, or a JSON string a line for a `.jsonl` file.
fn pasted_texts(name: &str, file: &str) -> Vec<String> {
    if !name.ends_with(".jsonl") {
        return file.lines().map(str::to_string).collect();
    }
    file.lines().map(|line| serde_json::from_str::<String>(line).unwrap_or_default()).collect()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let joined = args.iter().any(|a| a == "--joined");
    let each = args.iter().position(|a| a == "--each").and_then(|i| args.get(i + 1)).cloned();
    let files: Vec<&String> =
        args.iter().filter(|a| !a.starts_with("--") && Some(*a) != each.as_ref()).collect();
    let (Some(sources), Some(pasted_name)) = (files.first(), files.get(1)) else {
        return eprintln!("usage: pdf_paste SOURCES.txt PASTED.txt|PASTED.jsonl [--joined] [--each FILE]");
    };
    let (Ok(sources), Ok(pasted)) = (std::fs::read_to_string(sources), std::fs::read_to_string(pasted_name))
    else {
        return eprintln!("cannot read the two files");
    };
    let mut pasted = pasted_texts(pasted_name, &pasted);
    if joined {
        pasted = pasted.iter().map(|text| text.split_whitespace().collect::<Vec<_>>().join(" ")).collect();
    }
    let mut each_lines = Vec::new();
    let knowledge = match Knowledge::default_knowledge() {
        Ok(knowledge) => knowledge,
        Err(error) => return eprintln!("{error}"),
    };
    let limits = Limits::default();
    let (mut compared, mut no_text, mut source_fails) = (0, 0, 0);
    let mut strict = Tally::default();
    let mut unfonted = Tally::default();
    // Misses by the layout class of their source: (without fonts, by the fonts only).
    let mut classes: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for (number, (source, text)) in sources.lines().zip(&pasted).enumerate() {
        if text.trim().is_empty() {
            no_text += 1;
            continue;
        }
        let Ok(expected) = map_pasted(source, &knowledge, Lang::En, &limits) else {
            source_fails += 1;
            continue;
        };
        compared += 1;
        let got = map_pasted(text, &knowledge, Lang::En, &limits);
        let example = || format!("{source}  ⇒  {}", text.replace('\n', " ⏎ "));
        let why = strict.count(&expected, &got, example);
        // A source whose fonts cannot be taken off and still map counts as its strict result.
        let plain = map_pasted(&without_letter_fonts(source), &knowledge, Lang::En, &limits);
        let why_plain = match plain {
            Ok(plain) => unfonted.count(&plain, &got, example),
            Err(_) => unfonted.count(&expected, &got, example),
        };
        let class = classes.entry(layout_class(source)).or_default();
        if !why_plain.is_empty() {
            class.0 += 1;
        } else if !why.is_empty() {
            class.1 += 1;
        }
        // The LaTeX the paste passes made of the text, for reading the failures.
        let prepared =
            eqmap::paste::prepare(text).map_or_else(|_| "?".to_string(), |p| p.text.replace('\n', " "));
        each_lines.push(format!("{number}\t{}\t{}\t{prepared}", said(&why), said(&why_plain)));
    }
    if let Some(each) = each {
        if let Err(error) = std::fs::write(&each, each_lines.join("\n") + "\n") {
            eprintln!("cannot write {each}: {error}");
        }
    }
    println!("compared: {compared} (no extracted text: {no_text}; source not mapped: {source_fails})");
    strict.print("same concepts as the LaTeX source", compared, 20);
    unfonted.print(
        "same concepts as the LaTeX source with its letter fonts taken off (\\mathbf{x} as x; second figure)",
        compared,
        12,
    );
    println!("misses by the first layout class of the source (differing without fonts / by the fonts only):");
    for (class, (plain, fonts)) in &classes {
        println!("  {class:<28} {plain:>4} / {fonts}");
    }
}

/// The layout classes of a source, first match first: what of a display its PDF text lays
/// out past a line, by the LaTeX that sets it.
const LAYOUT_CLASSES: &[(&str, &[&str])] = &[
    (
        "matrices and cases",
        &["{bmatrix}", "{pmatrix}", "{vmatrix}", "{Vmatrix}", "{matrix}", "{cases}", "{array}"],
    ),
    ("aligned rows", &["{aligned}", "{align", "{split}", "{gathered}"]),
    ("big brackets", &["\\left", "\\big", "\\Big"]),
    ("sums, products, integrals", &["\\sum", "\\prod", "\\int"]),
    ("fractions", &["\\frac", "\\dfrac", "\\tfrac"]),
    ("roots", &["\\sqrt"]),
];

/// The first class of [`LAYOUT_CLASSES`] whose LaTeX `source` has, or `other`.
fn layout_class(source: &str) -> &'static str {
    LAYOUT_CLASSES
        .iter()
        .find(|(_, marks)| marks.iter().any(|m| source.contains(m)))
        .map_or("other (scripts, names)", |(class, _)| class)
}

/// `same`, or the reasons joined.
fn said(why: &[String]) -> String {
    if why.is_empty() {
        "same".to_string()
    } else {
        why.join("; ")
    }
}

/// The formulas of one comparison that map the same, and the reasons of the others.
#[derive(Default)]
struct Tally {
    same: usize,
    reasons: HashMap<String, usize>,
    examples: HashMap<String, String>,
}

impl Tally {
    /// Compares the map of the pasted text (`got`) with `expected`; the reasons they differ.
    fn count(
        &mut self,
        expected: &SlotMap,
        got: &Result<SlotMap, ParseError>,
        example: impl Fn() -> String,
    ) -> Vec<String> {
        let mut why = Vec::new();
        match got {
            Ok(map) => {
                let (want, got) = (concepts(expected), concepts(map));
                why.extend(want.difference(&got).map(|c| format!("lost {c}")));
                why.extend(got.difference(&want).map(|c| format!("gained {c}")));
            }
            Err(error) => why.push(format!("parse error: {}", error.message(Lang::En))),
        }
        if why.is_empty() {
            self.same += 1;
        }
        for reason in &why {
            self.examples.entry(reason.clone()).or_insert_with(&example);
            *self.reasons.entry(reason.clone()).or_default() += 1;
        }
        why
    }

    /// Prints the share under `title` and the `top` commonest reasons.
    fn print(&self, title: &str, compared: usize, top: usize) {
        let share = if compared == 0 { 0.0 } else { 100.0 * self.same as f64 / compared as f64 };
        println!("{title}: {}/{compared} ({share:.1}%)", self.same);
        let mut reasons: Vec<(&String, &usize)> = self.reasons.iter().collect();
        reasons.sort_by(|a, b| b.1.cmp(a.1).then_with(|| a.0.cmp(b.0)));
        println!("commonest reasons when not:");
        for (reason, count) in reasons.into_iter().take(top) {
            println!("  {count:>5}  {reason}");
            if let Some(example) = self.examples.get(reason) {
                println!("         e.g. {example}");
            }
        }
    }
}
