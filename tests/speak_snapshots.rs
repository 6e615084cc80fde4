//! Golden readings: every formula of the two seed documents, read aloud in Korean and English.
//!
//! One snapshot per fixture (`fixtures/seeds/*.tex`), holding the formula and both readings.

use eqmap::meaning::SymbolTable;
use eqmap::speak;
use eqmap::Lang;

fn fixture(path: &std::path::Path) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.trim_end_matches('\n').to_string()
}

#[test]
fn seed_formulas_read_aloud() {
    insta::glob!("fixtures/seeds/*.tex", |path| {
        let source = fixture(path);
        let parsed = eqmap::parse(&source).unwrap_or_else(|e| panic!("{source}: {}", e.message(Lang::En)));
        let table = SymbolTable::from_formula(&parsed.root);
        let ko = speak::read(&parsed.root, &source, &table, Lang::Ko);
        let en = speak::read(&parsed.root, &source, &table, Lang::En);
        insta::assert_snapshot!(format!("{source}\n\nko: {ko}\nen: {en}"));
    });
}
