//! Golden tests of text copied from a PDF: one fixture per case in `fixtures/pdf-text/`, each
//! the text exactly as `pdftotext` gives it for a display that pdflatex typeset from a
//! formula written for the test (`scripts/pdf-paste-corpus.sh FORMULAS.txt OUT` makes such
//! text), then a line `=== latex` and that formula.
//!
//! Each case checks that the pasted text maps to the concepts of its LaTeX, and its snapshot
//! shows the LaTeX the paste passes made of the text and every warning they gave (a reading
//! of layout is a guess, and says so).

use eqmap::paste::prepare;
use eqmap::slotmap::{map_pasted, Knowledge};
use eqmap::{Lang, Limits};
use std::collections::BTreeSet;

/// The concepts of the map of `formula`, read as pasted.
fn concepts(formula: &str, knowledge: &Knowledge) -> BTreeSet<String> {
    let map = map_pasted(formula, knowledge, Lang::En, &Limits::default())
        .unwrap_or_else(|e| panic!("{formula:?}: {}", e.message(Lang::En)));
    map.slots.iter().flat_map(|s| s.explanation.concepts.iter().cloned()).filter(|c| c != "unknown").collect()
}

/// The pasted text and the LaTeX of a fixture; `#` lines at the top are comments.
fn case(text: &str) -> (String, String) {
    let body: Vec<&str> = text.lines().skip_while(|l| l.starts_with('#')).collect();
    let split =
        body.iter().position(|l| *l == "=== latex").unwrap_or_else(|| panic!("no `=== latex` in {text}"));
    let pasted = body.get(..split).unwrap_or_default().join("\n");
    let latex = body.get(split + 1..).unwrap_or_default().join("\n");
    (pasted, latex.trim().to_string())
}

#[test]
fn text_from_a_pdf_reads_as_its_latex_with_a_warning_for_each_guess() {
    let knowledge = Knowledge::default_knowledge().unwrap_or_else(|e| panic!("{e}"));
    insta::glob!("fixtures/pdf-text/*.txt", |path| {
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let (pasted, latex) = case(&text);
        assert_eq!(concepts(&pasted, &knowledge), concepts(&latex, &knowledge), "{pasted:?} against {latex}");
        let prepared = prepare(&pasted).unwrap_or_else(|e| panic!("{pasted:?}: {}", e.message(Lang::En)));
        let mut shown = format!("{}\n", prepared.text);
        for note in &prepared.notes {
            let found = pasted.get(note.span.start..note.span.end).unwrap_or("?");
            shown.push_str(&format!("{found:?}: {}\n", note.message(Lang::En)));
        }
        insta::assert_snapshot!(shown);
    });
}
