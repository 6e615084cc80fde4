//! Golden tests of evaluation errors: one fixture per case in `fixtures/eval/errors/`, the
//! rendered diagnostic (English, then Korean) in its snapshot.
//!
//! A fixture holds formulas, one a line, and options: `let NAME=JSON`, `dim NAME=N`,
//! `seed N`. The formulas run in order in one session; the first error is the snapshot. A
//! bad `let` is rendered under its JSON text.

use eqmap::eval::{Options, Session};
use eqmap::report::eval::{render_error, render_failure};
use eqmap::Lang;

fn diagnose(text: &str, lang: Lang) -> String {
    let seed = text.lines().find_map(|l| l.strip_prefix("seed ")).and_then(|s| s.trim().parse().ok());
    let mut session = Session::new(Options { seed, ..Options::default() });
    for line in text.lines() {
        if let Some((name, json)) = line.strip_prefix("let ").and_then(|l| l.split_once('=')) {
            if let Err(error) = session.bind_json(name, json) {
                return render_error(json, &error, lang);
            }
        }
        if let Some((name, size)) = line.strip_prefix("dim ").and_then(|l| l.split_once('=')) {
            session.set_dim(name, size.trim().parse().unwrap_or_else(|e| panic!("{line}: {e}")));
        }
    }
    let formulas = text.lines().filter(|l| !["let ", "dim ", "seed "].iter().any(|p| l.starts_with(p)));
    for formula in formulas {
        if let Err(failure) = session.evaluate(formula) {
            return render_failure(formula, &failure, lang);
        }
    }
    panic!("no error in {text}")
}

#[test]
fn evaluation_errors_name_the_slot_with_a_caret() {
    insta::glob!("fixtures/eval/errors/*.txt", |path| {
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let en = diagnose(&text, Lang::En);
        let ko = diagnose(&text, Lang::Ko);
        assert!(en.contains('^'), "no caret in {en}");
        assert!(ko.starts_with("오류"), "{ko}");
        insta::assert_snapshot!(format!("{en}\n{ko}"));
    });
}
