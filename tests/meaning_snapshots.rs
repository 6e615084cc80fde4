//! What the meaning layer reads in each case of `tests/fixtures/meaning/cases/` (one formula a
//! file): the resolved outline, the symbols line and rows of the map, the reading and the
//! evaluation, in one snapshot per case, so that the consumers are seen to follow one reading.

use eqmap::meaning::{outline, resolve, SymbolTable};
use eqmap::report::slotmap::symbols_line;
use eqmap::slotmap::{map_source, Knowledge};
use eqmap::Lang;

/// The formula evaluated on seeded samples (every size 3), or the error that says why not.
fn evaluate(source: &str) -> String {
    let options = eqmap::eval::Options { seed: Some(7), ..eqmap::eval::Options::default() };
    let mut session = eqmap::eval::Session::new(options);
    for dim in ["n", "d", "d_k", "d_model", "N", "h"] {
        session.set_dim(dim, 3);
    }
    let values = [
        ("x", "[1, 2, 4]"),
        ("y", "[0, 1, 0]"),
        ("hat_y", "[0.2, 0.7, 0.1]"),
        ("q", "[[1, 0], [0, 1], [1, 1]]"),
        ("k", "[[1, 0], [0, 1], [1, 1]]"),
        ("p", "0.25"),
        ("pos", "2"),
        ("z", "[1, 2, 3]"),
    ];
    for (name, value) in values {
        let _ = session.bind_json(name, value);
    }
    match session.evaluate(source) {
        Ok(outcome) => eqmap::report::eval::render_table(&outcome, Lang::En),
        Err(failure) => eqmap::report::eval::render_failure(source, &failure, Lang::En),
    }
}

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
        let eval = evaluate(source);
        let slots: Vec<String> =
            map.slots.iter().map(|s| format!("{} — {}", s.latex, s.explanation.question)).collect();
        insta::assert_snapshot!(format!(
            "{source}\nmeaning: {meaning}\n{symbols}read (en): {en}\nread (ko): {ko}\nslots:\n  {}\neval (seed 7):\n{eval}",
            slots.join("\n  ")
        ));
    });
}
