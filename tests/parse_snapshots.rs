//! Golden tests of the parser: one fixture per case, the snapshot beside it.
//!
//! - `fixtures/seeds/*.tex`: every formula of the two seed documents → its tree.
//! - `fixtures/errors/*.tex`: malformed input → the rendered diagnostic, with its caret.

use eqmap::report::{diagnostic, tree};
use eqmap::Lang;

fn fixture(path: &std::path::Path) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.trim_end_matches('\n').to_string()
}

#[test]
fn seed_formulas_parse_to_their_trees() {
    insta::glob!("fixtures/seeds/*.tex", |path| {
        let source = fixture(path);
        let parsed = eqmap::parse(&source).unwrap_or_else(|e| panic!("{source}: {}", e.message(Lang::En)));
        assert!(parsed.warnings.is_empty(), "{source}: unexpected warnings {:?}", parsed.warnings);
        let canonical = eqmap::syntax::print::to_latex(&parsed.root);
        insta::assert_snapshot!(format!(
            "{source}\n\n{}\ncanonical: {canonical}",
            tree::render_tree(&parsed.root)
        ));
    });
}

#[test]
fn malformed_formulas_give_positioned_errors() {
    insta::glob!("fixtures/errors/*.tex", |path| {
        let source = fixture(path);
        let error = match eqmap::parse(&source) {
            Ok(parsed) => panic!("{source} was accepted as {:?}", parsed.root),
            Err(error) => error,
        };
        let en = diagnostic::render_error(&source, &error, Lang::En);
        let ko = diagnostic::render_error(&source, &error, Lang::Ko);
        assert!(en.contains('^'), "no caret in {en}");
        insta::assert_snapshot!(format!("{en}\n{ko}"));
    });
}
