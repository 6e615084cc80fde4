//! The direct reader decides as pest does: wherever it gives a tree, that tree, with its spans
//! and warnings, is the one pest's grammar and builder give ([`super::parse_with_grammar_only`]).
//! And it does give one for the formulas papers are written in, or it would be no fast path.

use super::error::{ParseError, ParseErrorKind};
use super::guard_tests::{lines_in, TOKENS};
use super::{direct, parse_prescanned, parse_with, parse_with_grammar_only, prescan, Limits};
use proptest::prelude::*;
use std::path::Path;

/// Whether the direct reader, if it reads `source` at all, reads it as pest does; the
/// disagreement otherwise.
fn agrees(source: &str) -> Result<bool, String> {
    let limits = Limits::default();
    if prescan::prescan(source, &limits).is_err() {
        return Ok(false);
    }
    let Some(direct) = direct::read(source, &limits) else { return Ok(false) };
    let direct = format!("{:?}", direct.parsed);
    let too_complex = |result: &Result<_, ParseError>| matches!(result, Err(error) if matches!(error.kind, ParseErrorKind::TooComplex { .. }));
    let mut grammar = parse_with_grammar_only(source, &limits);
    // pest ran out of steps where the direct reader did not: give pest what it needs. Its step
    // limit is one process-wide setting that tests beside this one set too, so a raised limit
    // can be lowered again between setting it and parsing: try again then.
    for _ in 0..3 {
        if !too_complex(&grammar) {
            break;
        }
        grammar = parse_with_grammar_only(source, &Limits { max_steps: 1_000_000_000, ..limits });
    }
    let grammar = format!("{grammar:?}");
    let grammar = grammar.strip_prefix("Ok(").and_then(|g| g.strip_suffix(')')).unwrap_or(&grammar);
    if direct == grammar {
        Ok(true)
    } else {
        Err(format!("{source:?}\n direct: {direct}\ngrammar: {grammar}"))
    }
}

/// Whether `parse_with`, which lets the direct reader go before the pre-scan where counting
/// bounds the nesting, answers as the pre-scan first would: the same tree or the same error.
fn same_as_prescan_first(source: &str) -> Result<(), String> {
    let limits = Limits::default();
    let first = prescan::prescan(source, &limits).and_then(|()| match direct::read(source, &limits) {
        Some(reading) => Ok(reading.parsed),
        None => parse_prescanned(source, &limits),
    });
    // `parse_with` says a missing argument more exactly from the source, on either path.
    let first = first.map_err(|error| super::refined(source, error));
    let (first, now) = (format!("{first:?}"), format!("{:?}", parse_with(source, &limits)));
    if first == now {
        Ok(())
    } else {
        Err(format!("{source:?}\nprescan first: {first}\n   parse_with: {now}"))
    }
}

fn corpus_lines() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut lines = Vec::new();
    for dir in
        ["tests/fixtures/seeds", "tests/fixtures/errors", "tests/fixtures/unicode", "../shared/corpus-real"]
    {
        lines.extend(lines_in(&root.join(dir)));
    }
    lines
}

#[test]
fn the_direct_reader_reads_the_corpus_as_pest_does() {
    let lines = corpus_lines();
    let mut read = 0;
    for line in &lines {
        let agreement = agrees(line);
        assert!(agreement.is_ok(), "{agreement:?}");
        read += usize::from(agreement == Ok(true));
    }
    assert!(read > 0);
}

#[test]
fn the_pre_scan_after_the_reader_answers_as_before_on_the_corpus() {
    for line in corpus_lines() {
        let same = same_as_prescan_first(&line);
        assert!(same.is_ok(), "{same:?}");
    }
}

#[test]
fn what_the_pre_scan_alone_sees_is_still_found() {
    // Structure inside text the reader does not read, environment names it reads differently,
    // and the limits: each is the pre-scan's error (or tree) as before.
    let cases = [
        "\\begin{a} x \\end{b}",
        "\\begin{a } x \\end{ a}",
        "\\begin\\quad{matrix} a \\end{matrix}",
        "\\begin{matrix} a \\end\\quad{matrix}",
        "\\begin{a~} x \\end{a}",
        "\\text{\\left(} x",
        "\\text{\\{}} x",
        "x \\hspace{\\left(} y",
        "x \\label{\\begin{a}} y",
        "\\begin{array}{c\\left(} a \\end{array}",
        "\\kern{-3mu} - - x",
    ];
    for source in cases {
        assert_eq!(same_as_prescan_first(source), Ok(()));
    }
    let deep = format!("{}x{}", "{".repeat(300), "}".repeat(300));
    assert_eq!(same_as_prescan_first(&deep), Ok(()));
    assert!(parse_with(&deep, &Limits::default()).is_err());
    let signs = format!("a{} b", " -".repeat(65));
    assert_eq!(same_as_prescan_first(&signs), Ok(()));
    assert!(parse_with(&signs, &Limits::default()).is_err());
    let text = "\\text{\\left(} x";
    assert!(parse_with(text, &Limits::default()).is_err(), "the pre-scan still reads inside text");
}

#[test]
fn bars_in_nested_groups_are_read_once_where_pest_runs_out_of_steps() {
    // That pest alone runs out of its default steps here is not asserted: pest's step limit is
    // one process-wide setting, and `agrees` raises it while other tests run beside this one.
    let source = format!("{}x{}", "|{".repeat(12), "}".repeat(12));
    assert_eq!(agrees(&source), Ok(true));
}

#[test]
fn bars_in_nested_brackets_are_read_once_too() {
    // Found by the fuzz target `direct`: pest runs out of steps on this one as well.
    assert_eq!(agrees("|(|(|(|(|(|(|t(:|(:|(>"), Ok(true));
}

#[test]
fn a_not_before_a_relation_sign_is_read_directly() {
    // `\not` with no argument is no operand: the operand before it is empty, and `\not =` is
    // the relation (the one im2latex line the direct reader left to pest).
    for source in ["0 > \\not = 0", "a \\not < b", "\\not \\in"] {
        assert_eq!(agrees(source), Ok(true), "{source}");
    }
}

#[test]
fn a_group_of_one_operand_is_read_as_pest_reads_it() {
    // The shortcut for `{ x }`, `{ 12.5 }`, `{ \alpha }` must stop wherever the group holds
    // more than one operand, or the operand takes a postfix, an argument or a warning.
    let read = [
        "x_{ 0 }^{ r }",
        "{a}",
        "{ 12.5 }",
        "{1.}",
        "{ \\alpha }_i",
        "{\\infty}'",
        "{\\sum}_{i}",
        "{\\foo}",
        "{ a \\, }",
        "{a\\label{x}}",
        "{\\log} x",
        "\\frac{ 1 }{ 2 }",
        "\\sqrt{ 2 }",
        "{a}{b}",
    ];
    for source in read {
        assert_eq!(agrees(source), Ok(true), "{source}");
    }
    let not_lone = ["{a b}", "{a'}", "{1.5.2}", "{a_i}", "{\\alpha\\beta}", "{a \\over b}", "{a}}"];
    for source in not_lone {
        assert!(agrees(source).is_ok(), "{source}: {:?}", agrees(source));
    }
    // `\frac` alone needs arguments: the reader leaves it to pest, which words the error.
    assert_eq!(agrees("{\\frac}"), Ok(false));
}

#[test]
fn warnings_come_in_source_order_from_both_readers() {
    // pest's builder reads the label of `\stackrel` after the operand that follows it.
    let source = "a \\stackrel{\\foo}{=} \\baz";
    assert_eq!(agrees(source), Ok(true));
    let names: Vec<_> = parse_with_grammar_only(source, &Limits::default())
        .map(|parsed| parsed.warnings.iter().map(|w| w.span.start).collect())
        .unwrap_or_default();
    assert_eq!(names, vec![12, 21]);
}

#[test]
fn the_direct_reader_reads_the_seed_formulas() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let lines = lines_in(&root.join("tests/fixtures/seeds"));
    let ascii: Vec<_> = lines.iter().filter(|l| l.is_ascii()).collect();
    let read = ascii.iter().filter(|l| direct::read(l, &Limits::default()).is_some()).count();
    assert!(ascii.len() >= 20 && read * 10 >= ascii.len() * 9, "read {read} of {}", ascii.len());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4096, ..ProptestConfig::default() })]

    #[test]
    fn the_direct_reader_reads_token_soup_as_pest_does(
        tokens in prop::collection::vec(prop::sample::select(TOKENS), 0..24)
    ) {
        for source in [tokens.concat(), tokens.join(" ")] {
            if let Err(disagreement) = agrees(&source) {
                prop_assert!(false, "{}", disagreement);
            }
            if let Err(difference) = same_as_prescan_first(&source) {
                prop_assert!(false, "{}", difference);
            }
        }
    }

    #[test]
    fn the_direct_reader_reads_any_ascii_as_pest_does(source in "[ -~]{0,60}") {
        if let Err(disagreement) = agrees(&source) {
            prop_assert!(false, "{}", disagreement);
        }
        if let Err(difference) = same_as_prescan_first(&source) {
            prop_assert!(false, "{}", difference);
        }
    }
}

#[test]
fn an_upright_name_may_end_in_digits() {
    // `\mathrm{Top2}`, `\mathrm{Conv2d}`: one name, as `\mathrm{softmax}` is; a letter alone
    // before digits (`\mathrm{x1}`) stays a letter and a number.
    for (source, word) in
        [("\\mathrm{Top2}(x)", Some("Top2")), ("\\mathrm{Conv2d}", Some("Conv2d")), ("\\mathrm{x1}", None)]
    {
        assert_eq!(agrees(source), Ok(true), "{source}");
        let parsed = super::parse(source);
        assert!(parsed.is_ok(), "{source}: {parsed:?}");
        let Ok(tree) = parsed else { continue };
        let mut words = Vec::new();
        let mut stack = vec![&tree.root];
        while let Some(node) = stack.pop() {
            if let super::ast::NodeKind::Word { text, .. } = &node.kind {
                words.push(text.to_string());
            }
            node.for_each_child(|child| stack.push(child));
        }
        assert_eq!(words.first().map(String::as_str), word, "{source}");
    }
}
