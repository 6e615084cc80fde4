//! What the meaning layer reads in each case of `tests/fixtures/meaning/cases/` (one formula a
//! file): the resolved outline, the symbols line of the map and the reading, in one snapshot
//! per case, so that the three consumers are seen to follow one reading.

use eqmap::meaning::{outline, resolve, SymbolTable};
use eqmap::report::slotmap::symbols_line;
use eqmap::slotmap::{map_source, Knowledge};
use eqmap::Lang;

#[test]
fn each_case_reads_one_way_in_map_and_read() {
    let curriculum = eqmap::curriculum::Curriculum::shipped("ai-math")
        .unwrap_or_else(|| panic!("no ai-math"))
        .unwrap_or_else(|e| panic!("{e}"));
    let knowledge = Knowledge::shipped(curriculum).unwrap_or_else(|e| panic!("{e}"));
    insta::glob!("fixtures/meaning/cases/*.tex", |path| {
        let source = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{e}"));
        let source = source.trim();
        let parsed = eqmap::parse(source).unwrap_or_else(|e| panic!("{source}: {}", e.message(Lang::En)));
        let table = SymbolTable::from_formula(&parsed.root);
        let meaning = outline(&resolve(&parsed.root, &table));
        let map = map_source(source, &knowledge, Lang::En).unwrap_or_else(|e| panic!("{e:?}"));
        let symbols = symbols_line(&map.symbols, Lang::En).unwrap_or_default();
        let en = eqmap::speak::read(&parsed.root, source, &table, Lang::En);
        let ko = eqmap::speak::read(&parsed.root, source, &table, Lang::Ko);
        let slots: Vec<String> =
            map.slots.iter().map(|s| format!("{} — {}", s.latex, s.explanation.question)).collect();
        insta::assert_snapshot!(format!(
            "{source}\nmeaning: {meaning}\n{symbols}read (en): {en}\nread (ko): {ko}\nslots:\n  {}",
            slots.join("\n  ")
        ));
    });
}
